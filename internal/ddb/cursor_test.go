package ddb_test

import (
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
)

var (
	curTable = ddb.Table{Name: "things", PartitionKey: "pk", SortKey: "sk"}
	curIndex = ddb.Index{Name: "by-owner", PartitionKey: "gpk", SortKey: "gsk"}
)

// cursorCase is a query and a key of one of its items.
type cursorCase struct {
	name string
	q    ddb.KeyQuery
	key  ddb.Item
}

func cursorCases() []cursorCase {
	return []cursorCase{
		{
			name: "base table, S sort key",
			q:    ddb.KeyQuery{Table: curTable, PartitionValue: "user#1"},
			key:  ddb.Item{"pk": ddb.S("user#1"), "sk": ddb.S("a#0001")},
		},
		{
			name: "base table, sort condition, descending",
			q:    ddb.KeyQuery{Table: curTable, PartitionValue: "user#1", Sort: ddb.SortBeginsWith("a#"), Descending: true},
			key:  ddb.Item{"pk": ddb.S("user#1"), "sk": ddb.S("a#\"quoted\" \\ é ☃ \x00 end")},
		},
		{
			name: "partition key only",
			q:    ddb.KeyQuery{Table: ddb.Table{Name: "flat", PartitionKey: "id"}, PartitionValue: "only"},
			key:  ddb.Item{"id": ddb.S("only")},
		},
		{
			name: "index",
			q:    ddb.KeyQuery{Table: curTable, Index: curIndex, PartitionValue: "owner#9", Sort: ddb.SortBetween("2024", "2025")},
			key:  ddb.Item{"pk": ddb.S("user#1"), "sk": ddb.S("x"), "gpk": ddb.S("owner#9"), "gsk": ddb.S("2024-06")},
		},
		{
			name: "inverted index sharing the table's attributes",
			q:    ddb.KeyQuery{Table: curTable, Index: ddb.Index{Name: "inverted", PartitionKey: "sk", SortKey: "pk"}, PartitionValue: "x"},
			key:  ddb.Item{"pk": ddb.S("user#1"), "sk": ddb.S("x")},
		},
	}
}

// encode returns the cursor for key, failing t on error.
func encode(t testing.TB, q ddb.KeyQuery, key ddb.Item) string {
	t.Helper()
	c, err := ddb.EncodeCursor(q, key)
	if err != nil {
		t.Fatalf("EncodeCursor(%v) error = %v", key, err)
	}
	if c == "" {
		t.Fatalf("EncodeCursor(%v) = \"\", want a cursor", key)
	}
	return c
}

// wantInvalid asserts that cursor fails to decode for q with ErrInvalidCursor.
func wantInvalid(t *testing.T, q ddb.KeyQuery, cursor, what string) {
	t.Helper()
	key, err := ddb.DecodeCursor(q, cursor)
	if !errors.Is(err, ddbkit.ErrInvalidCursor) {
		t.Errorf("DecodeCursor(%s %q) = (%v, %v), want ErrInvalidCursor", what, cursor, key, err)
	}
	if key != nil {
		t.Errorf("DecodeCursor(%s %q) key = %v, want nil with an error", what, cursor, key)
	}
}

func TestCursorRoundTrip(t *testing.T) {
	for _, tc := range cursorCases() {
		t.Run(tc.name, func(t *testing.T) {
			c := encode(t, tc.q, tc.key)
			got, err := ddb.DecodeCursor(tc.q, c)
			if err != nil {
				t.Fatalf("DecodeCursor() error = %v", err)
			}
			if !reflect.DeepEqual(got, tc.key) {
				t.Errorf("DecodeCursor() = %v, want %v", got, tc.key)
			}
			// Encoding is deterministic, whatever the map order.
			for range 20 {
				if again := encode(t, tc.q, tc.key); again != c {
					t.Fatalf("EncodeCursor() = %q, then %q; want the same cursor", c, again)
				}
			}
			// It is URL-safe as is.
			if strings.ContainsAny(c, "+/=") {
				t.Errorf("cursor %q is not URL-safe", c)
			}
			// ConsistentRead is not part of the listing.
			q := tc.q
			q.ConsistentRead = !q.ConsistentRead
			if _, err := ddb.DecodeCursor(q, c); err != nil {
				t.Errorf("DecodeCursor() with ConsistentRead flipped error = %v, want nil", err)
			}
		})
	}
}

func TestDecodeCursorEmpty(t *testing.T) {
	for _, tc := range cursorCases() {
		key, err := ddb.DecodeCursor(tc.q, "")
		if key != nil || err != nil {
			t.Errorf("%s: DecodeCursor(\"\") = (%v, %v), want (nil, nil)", tc.name, key, err)
		}
	}
}

func TestEncodeCursorUnsupportedType(t *testing.T) {
	q := ddb.KeyQuery{Table: curTable, PartitionValue: "p"}
	_, err := ddb.EncodeCursor(q, ddb.Item{"pk": ddb.S("p"), "sk": &types.AttributeValueMemberBOOL{Value: true}})
	if err == nil {
		t.Error("EncodeCursor(BOOL key) error = nil, want an error")
	}
}

func TestDecodeCursorOtherListing(t *testing.T) {
	base := ddb.KeyQuery{Table: curTable, PartitionValue: "p", Sort: ddb.SortBeginsWith("a")}
	key := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("a1")}
	c := encode(t, base, key)
	tests := []struct {
		name   string
		change func(q *ddb.KeyQuery)
	}{
		{name: "table", change: func(q *ddb.KeyQuery) { q.Table.Name = "others" }},
		{name: "table partition key attribute", change: func(q *ddb.KeyQuery) { q.Table.PartitionKey = "PK" }},
		{name: "index", change: func(q *ddb.KeyQuery) { q.Index = ddb.Index{Name: "gsi", PartitionKey: "pk", SortKey: "sk"} }},
		{name: "partition value", change: func(q *ddb.KeyQuery) { q.PartitionValue = "q" }},
		{name: "partition value prefix", change: func(q *ddb.KeyQuery) { q.PartitionValue = "" }},
		{name: "no sort condition", change: func(q *ddb.KeyQuery) { q.Sort = ddb.SortCond{} }},
		{name: "sort operand", change: func(q *ddb.KeyQuery) { q.Sort = ddb.SortBeginsWith("a1") }},
		{name: "sort operator", change: func(q *ddb.KeyQuery) { q.Sort = ddb.SortGE("a") }},
		{name: "between", change: func(q *ddb.KeyQuery) { q.Sort = ddb.SortBetween("a", "b") }},
		{name: "direction", change: func(q *ddb.KeyQuery) { q.Descending = true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := base
			tt.change(&q)
			wantInvalid(t, q, c, "cursor of another listing")
		})
	}
	// Every case in cursorCases under every other case's query.
	cases := cursorCases()
	for i, a := range cases {
		for j, b := range cases {
			if i != j {
				wantInvalid(t, b.q, encode(t, a.q, a.key), "cursor of "+a.name+" under "+b.name)
			}
		}
	}
}

func TestDecodeCursorTampered(t *testing.T) {
	for _, tc := range cursorCases() {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := base64.RawURLEncoding.DecodeString(encode(t, tc.q, tc.key))
			if err != nil {
				t.Fatalf("cursor is not unpadded base64url: %v", err)
			}
			enc := base64.RawURLEncoding.EncodeToString
			for i := range raw {
				for v := range 256 {
					if byte(v) == raw[i] {
						continue
					}
					mod := append([]byte(nil), raw...)
					mod[i] = byte(v)
					if _, err := ddb.DecodeCursor(tc.q, enc(mod)); !errors.Is(err, ddbkit.ErrInvalidCursor) {
						t.Fatalf("byte %d set to %#x: DecodeCursor() error = %v, want ErrInvalidCursor", i, v, err)
					}
				}
			}
			// "" is the first page, not a truncation.
			for n := 1; n < len(raw); n++ {
				wantInvalid(t, tc.q, enc(raw[:n]), "truncated")
				wantInvalid(t, tc.q, enc(raw[n:]), "cut at the front")
			}
			for _, extra := range []string{"\x00", "x", "\xff\xff"} {
				wantInvalid(t, tc.q, enc(append(raw[:len(raw):len(raw)], extra...)), "extended")
			}
			c := enc(raw)
			for n := 1; n < len(c); n++ {
				wantInvalid(t, tc.q, c[:n], "truncated string")
			}
		})
	}
}

// TestDecodeCursorOtherSpellings pins that a cursor has one spelling: page.go
// promises that "a modified cursor fails with ErrInvalidCursor".
func TestDecodeCursorOtherSpellings(t *testing.T) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for _, tc := range cursorCases() {
		t.Run(tc.name, func(t *testing.T) {
			c := encode(t, tc.q, tc.key)
			var variants []string
			for i := range len(c) {
				for _, r := range alphabet {
					if byte(r) != c[i] {
						variants = append(variants, c[:i]+string(r)+c[i+1:])
					}
				}
			}
			for _, ins := range []string{"\n", "\r", "\r\n", "=", " "} {
				for _, at := range []int{0, len(c) / 2, len(c)} {
					variants = append(variants, c[:at]+ins+c[at:])
				}
			}
			var accepted []string
			for _, v := range variants {
				if _, err := ddb.DecodeCursor(tc.q, v); !errors.Is(err, ddbkit.ErrInvalidCursor) {
					accepted = append(accepted, v)
				}
			}
			if len(accepted) > 0 {
				t.Errorf("cursor %q: %d other spellings decode without ErrInvalidCursor, want none; for example %q",
					c, len(accepted), accepted[:min(len(accepted), 4)])
			}
		})
	}
}

func TestDecodeCursorGarbage(t *testing.T) {
	q := cursorCases()[0].q
	valid := encode(t, q, cursorCases()[0].key)
	garbage := []string{
		"x", "xx", "xxx", "====", "!!!!", " ", "\x00", "null", "[]", "{}",
		"AQ", // the version byte alone
		base64.RawURLEncoding.EncodeToString([]byte{1}),
		base64.RawURLEncoding.EncodeToString(make([]byte, 17)),
		base64.RawURLEncoding.EncodeToString(make([]byte, 18)),
		base64.RawURLEncoding.EncodeToString([]byte(`[["pk","S","user#1"],["sk","S","a#0001"]]`)),
		base64.StdEncoding.EncodeToString([]byte("\x01" + `[["pk","S","user#1"]]` + strings.Repeat("\x00", 16))),
		strings.Repeat("A", 10000),
		valid + valid,
		strings.ToUpper(valid),
		"☃" + valid,
		" " + valid,
		valid + " ",
	}
	for _, g := range garbage {
		wantInvalid(t, q, g, "garbage")
	}
}

// fuzzQueries are the listings FuzzDecodeCursor decodes under: each
// case's, plain and filtered (a filtered listing's cursor binds its
// filter), then one with a CursorSecret.
func fuzzQueries() []ddb.KeyQuery {
	var qs []ddb.KeyQuery
	for _, tc := range cursorCases() {
		filtered := tc.q
		filtered.Filter = "tags any [a b]"
		qs = append(qs, tc.q, filtered)
	}
	signed := cursorCases()[0].q
	signed.Table.CursorSecret = "sixteen-bytes!!!"
	return append(qs, signed)
}

func FuzzDecodeCursor(f *testing.F) {
	qs := fuzzQueries()
	for i, q := range qs {
		key := cursorCases()[min(i/2, len(cursorCases())-1)].key
		f.Add(encode(f, q, key), uint8(i))
		f.Add(encode(f, q, key), uint8(i+1)) // under another listing: the same, filtered, or the next
	}
	f.Add("", uint8(0))
	f.Add("garbage", uint8(0))
	f.Add(strings.Repeat("A", 5000), uint8(0))
	f.Fuzz(func(t *testing.T, cursor string, which uint8) {
		if len(cursor) > fuzzcheck.MaxInput {
			return
		}
		q := qs[int(which)%len(qs)]
		key, err := ddb.DecodeCursor(q, cursor)
		if err != nil {
			fuzzcheck.Error(t, err, ddbkit.ErrInvalidCursor, cursor)
			if key != nil {
				t.Fatalf("DecodeCursor(%q) = %v with an error, want nil", cursor, key)
			}
			return
		}
		if cursor == "" {
			if key != nil {
				t.Fatalf("DecodeCursor(\"\") = %v, want nil", key)
			}
			return
		}
		checkCursorKey(t, q, key)
		// What decodes re-encodes to a cursor that decodes to the same key.
		again, err := ddb.DecodeCursor(q, encode(t, q, key))
		if err != nil || !reflect.DeepEqual(again, key) {
			t.Fatalf("re-encoded cursor decodes to (%v, %v), want (%v, nil)", again, err, key)
		}
	})
}

// checkCursorKey asserts that key is a key of q's listing.
func checkCursorKey(t *testing.T, q ddb.KeyQuery, key ddb.Item) {
	t.Helper()
	attrs := q.KeyAttrs()
	if len(key) != len(attrs) {
		t.Fatalf("decoded key %v has %d attributes, want %v", key, len(key), attrs)
	}
	for _, a := range attrs {
		if key[a] == nil {
			t.Fatalf("decoded key %v lacks %q", key, a)
		}
	}
	pv, ok := key[q.PartitionAttr()].(*types.AttributeValueMemberS)
	if !ok || pv.Value != q.PartitionValue {
		t.Fatalf("decoded key %v is not in partition %s=%q", key, q.PartitionAttr(), q.PartitionValue)
	}
	if sv, ok := key[q.SortAttr()].(*types.AttributeValueMemberS); ok && !q.Sort.Match(sv.Value) {
		t.Fatalf("decoded key %v does not match the sort condition %v", key, q.Sort)
	}
}

// TestCursorRefusesNonStringKeys: every ddbkit key is a String. A cursor
// that carries a Number or Binary key attribute, well formed and correctly
// tagged, would otherwise reach DynamoDB as an ExclusiveStartKey it refuses
// with a ValidationException, and make a memory table restart the listing.
func TestCursorRefusesNonStringKeys(t *testing.T) {
	q := ddb.KeyQuery{Table: ddb.Table{Name: "t", PartitionKey: "pk", SortKey: "sk"}, PartitionValue: "p"}
	for name, v := range map[string]types.AttributeValue{
		"N": &types.AttributeValueMemberN{Value: "12"},
		"B": &types.AttributeValueMemberB{Value: []byte("x")},
	} {
		t.Run(name, func(t *testing.T) {
			c := encode(t, q, ddb.Item{"pk": ddb.S("p"), "sk": v})
			wantInvalid(t, q, c, "a cursor with a "+name+" sort key")
		})
	}
}

// TestCursorSecret: with a CursorSecret, only its holder makes cursors that
// pass; a cursor made without it, or with another secret, is refused.
func TestCursorSecret(t *testing.T) {
	key := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("a")}
	q := func(secret string) ddb.KeyQuery {
		return ddb.KeyQuery{Table: ddb.Table{Name: "t", PartitionKey: "pk", SortKey: "sk", CursorSecret: secret}, PartitionValue: "p"}
	}
	const mine, other = "s3cret-of-16-bytes", "another-16-byte-secret"
	signed := encode(t, q(mine), key)
	if _, err := ddb.DecodeCursor(q(mine), signed); err != nil {
		t.Fatalf("DecodeCursor with the same secret = %v, want success", err)
	}
	wantInvalid(t, q(other), signed, "a cursor made with another secret")
	wantInvalid(t, q(""), signed, "a cursor made with a secret, read without one")
	wantInvalid(t, q(mine), encode(t, q(""), key), "a cursor forged without the secret")
}

// TestCursorSecretTooShort: a secret of 1 to 15 bytes is refused by every
// encode and decode, the first page's included, with an error naming
// CursorSecret: a short key would be used, silently, for a MAC anyone can
// brute-force.
func TestCursorSecretTooShort(t *testing.T) {
	key := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("a")}
	for _, secret := range []string{"s", "s3cret", "fifteen-bytes!!"} {
		q := ddb.KeyQuery{Table: ddb.Table{Name: "t", PartitionKey: "pk", SortKey: "sk", CursorSecret: secret}, PartitionValue: "p"}
		_, encErr := ddb.EncodeCursor(q, key)
		_, firstErr := ddb.DecodeCursor(q, "")
		for what, err := range map[string]error{"EncodeCursor": encErr, "DecodeCursor of the first page": firstErr} {
			var ve *ddbkit.ValidationError
			if !errors.As(err, &ve) || ve.Field != "CursorSecret" || !errors.Is(err, ddbkit.ErrInvalidArgument) {
				t.Errorf("%s with a %d-byte secret = %v, want ErrInvalidArgument naming CursorSecret", what, len(secret), err)
			}
		}
	}
	if err := ddb.CheckCursorSecret("sixteen-bytes!!!"); err != nil {
		t.Errorf("CheckCursorSecret of 16 bytes = %v, want nil", err)
	}
}

// TestCursorBindsFilter: a cursor of a filtered listing fails on the same
// listing with another filter, or none.
func TestCursorBindsFilter(t *testing.T) {
	key := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("a")}
	q := func(filter string) ddb.KeyQuery {
		return ddb.KeyQuery{Table: ddb.Table{Name: "t", PartitionKey: "pk", SortKey: "sk"}, PartitionValue: "p", Filter: filter}
	}
	c := encode(t, q("tags any [a b]"), key)
	if _, err := ddb.DecodeCursor(q("tags any [a b]"), c); err != nil {
		t.Fatalf("DecodeCursor with the same filter = %v, want success", err)
	}
	wantInvalid(t, q("tags all [a b]"), c, "a cursor of another filter")
	wantInvalid(t, q(""), c, "a cursor of a filtered listing, without the filter")
}
