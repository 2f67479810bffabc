package ddb

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
)

// The tag binds a cursor to its listing but is keyed with public data, so
// anyone who reads this package can sign a payload. These tests sign forged
// payloads to reach the checks behind the tag, which must hold on their own.

// sign returns the cursor for payload with a valid tag for q.
func sign(q KeyQuery, payload []byte) string {
	return base64.RawURLEncoding.EncodeToString(append(append([]byte(nil), payload...), tag(q, payload)...))
}

// forged returns a signed cursor of version 1 with the JSON js.
func forged(q KeyQuery, js string) string {
	return sign(q, append([]byte{cursorVersion}, js...))
}

var (
	forgeBase  = KeyQuery{Table: Table{Name: "t", PartitionKey: "pk", SortKey: "sk"}, PartitionValue: "p", Sort: SortBeginsWith("a")}
	forgeIndex = KeyQuery{Table: Table{Name: "t", PartitionKey: "pk", SortKey: "sk"},
		Index: Index{Name: "gsi", PartitionKey: "gpk", SortKey: "gsk"}, PartitionValue: "g"}
)

func TestDecodeCursorForgedValid(t *testing.T) {
	// The format the tests below forge is the one EncodeCursor writes.
	c, err := EncodeCursor(forgeBase, Item{"pk": S("p"), "sk": S("a1")})
	if err != nil {
		t.Fatal(err)
	}
	if want := forged(forgeBase, `[["pk","S","p"],["sk","S","a1"]]`); c != want {
		t.Fatalf("EncodeCursor() = %q, want %q", c, want)
	}
	key, err := DecodeCursor(forgeBase, c)
	if err != nil || KeyString(key) != KeyString(Item{"pk": S("p"), "sk": S("a1")}) {
		t.Errorf("DecodeCursor() = (%v, %v), want the key", key, err)
	}
}

func TestDecodeCursorForged(t *testing.T) {
	tests := []struct {
		name   string
		q      KeyQuery
		cursor string
	}{
		{name: "other partition", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","q"],["sk","S","a1"]]`)},
		{name: "partition as a number", q: forgeBase, cursor: forged(forgeBase, `[["pk","N","1"],["sk","S","a1"]]`)},
		{name: "partition as binary", q: forgeBase, cursor: forged(forgeBase, `[["pk","B","cA=="],["sk","S","a1"]]`)},
		{name: "outside the sort condition", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"],["sk","S","b"]]`)},
		{name: "missing sort key", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"]]`)},
		{name: "missing partition key", q: forgeBase, cursor: forged(forgeBase, `[["sk","S","a1"]]`)},
		{name: "extra attribute", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"],["sk","S","a1"],["x","S","y"]]`)},
		{name: "other attribute instead", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"],["x","S","a1"]]`)},
		{name: "duplicate attribute, last one elsewhere", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"],["pk","S","q"],["sk","S","a1"]]`)},
		{name: "unknown type", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"],["sk","BOOL","true"]]`)},
		{name: "empty type", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"],["sk","","a1"]]`)},
		{name: "bad binary", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"],["sk","B","not base64!"]]`)},
		{name: "short attribute", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"],["sk","S"]]`)},
		{name: "empty", q: forgeBase, cursor: forged(forgeBase, `[]`)},
		{name: "null", q: forgeBase, cursor: forged(forgeBase, `null`)},
		{name: "object", q: forgeBase, cursor: forged(forgeBase, `{"pk":"p"}`)},
		{name: "not JSON", q: forgeBase, cursor: forged(forgeBase, `[["pk","S","p"],`)},
		{name: "numbers", q: forgeBase, cursor: forged(forgeBase, `[[1,2,3]]`)},
		{name: "unknown version", q: forgeBase, cursor: sign(forgeBase, append([]byte{2}, `[["pk","S","p"],["sk","S","a1"]]`...))},
		{name: "version zero", q: forgeBase, cursor: sign(forgeBase, append([]byte{0}, `[["pk","S","p"],["sk","S","a1"]]`...))},
		{name: "index: other partition", q: forgeIndex,
			cursor: forged(forgeIndex, `[["gpk","S","h"],["gsk","S","x"],["pk","S","p"],["sk","S","s"]]`)},
		{name: "index: base table key only", q: forgeIndex, cursor: forged(forgeIndex, `[["pk","S","p"],["sk","S","s"]]`)},
		{name: "index: table partition value in the index partition", q: forgeIndex,
			cursor: forged(forgeIndex, `[["gpk","S","p"],["gsk","S","x"],["pk","S","g"],["sk","S","s"]]`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, err := DecodeCursor(tt.q, tt.cursor)
			if !errors.Is(err, ddbkit.ErrInvalidCursor) {
				t.Errorf("DecodeCursor() = (%v, %v), want ErrInvalidCursor", key, err)
			}
			if key != nil {
				t.Errorf("DecodeCursor() key = %v, want nil with an error", key)
			}
		})
	}
}

// FuzzDecodeCursorPayload signs whatever payload the fuzzer makes, so it
// exercises the parsing and checks behind the tag, which FuzzDecodeCursor
// almost never gets past.
func FuzzDecodeCursorPayload(f *testing.F) {
	seeds := []string{
		`[["pk","S","p"],["sk","S","a1"]]`,
		`[["gpk","S","g"],["gsk","S","x"],["pk","S","p"],["sk","S","s"]]`,
		`[["pk","S","p"],["sk","B","AAE="]]`,
		`[["pk","S","p"],["sk","N","1"]]`,
		`[["pk","S","q"],["sk","S","a1"]]`,
		`null`, `[]`, `[[]]`, `[["pk"]]`,
	}
	for _, s := range seeds {
		f.Add(byte(cursorVersion), []byte(s), false)
		f.Add(byte(cursorVersion), []byte(s), true)
	}
	f.Fuzz(func(t *testing.T, version byte, js []byte, index bool) {
		q := forgeBase
		if index {
			q = forgeIndex
		}
		key, err := DecodeCursor(q, sign(q, append([]byte{version}, js...)))
		if err != nil {
			fuzzcheck.Error(t, err, ddbkit.ErrInvalidCursor, string(js))
			return
		}
		attrs := q.KeyAttrs()
		if len(key) != len(attrs) {
			t.Fatalf("decoded key %v, want the attributes %v", key, attrs)
		}
		for _, a := range attrs {
			if key[a] == nil {
				t.Fatalf("decoded key %v lacks %q", key, a)
			}
		}
		if pv, ok := key[q.PartitionAttr()].(*types.AttributeValueMemberS); !ok || pv.Value != q.PartitionValue {
			t.Fatalf("decoded key %v is outside partition %q", key, q.PartitionValue)
		}
		if sv, ok := key[q.SortAttr()].(*types.AttributeValueMemberS); ok && !q.Sort.Match(sv.Value) {
			t.Fatalf("decoded key %v is outside the sort condition", key)
		}
	})
}
