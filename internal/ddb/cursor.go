package ddb

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// A cursor is base64url(payload || tag). The payload is a version byte and
// the JSON of the LastEvaluatedKey; the tag is HMAC-SHA256 over the
// payload and the query's binding (table, index, partition, sort
// condition, direction), truncated to 16 bytes, keyed with the table's
// CursorSecret. A cursor from another query, or one with any byte changed
// or cut, fails the tag check. Without a secret the key is public, so
// someone who reads this code can forge a cursor; with one, nobody without
// the secret can. Cursors are not encrypted: they reveal key values of the
// caller's own listing, which the page items reveal anyway. On top of the
// tag, the decoded key must have the listing's key attributes, all of type
// String as every ddbkit key is, and belong to the query's partition and
// range, so even a forged cursor cannot reach another partition's data nor
// make DynamoDB refuse the query.

const (
	cursorVersion = 1
	cursorTagLen  = 16
)

// keyAttr is one attribute of an encoded key: name, type (S, N or B) and value.
type keyAttr [3]string

// MinCursorSecret is the shortest CursorSecret a store accepts: a shorter
// key makes a MAC that can be brute-forced. Use 32 random bytes.
const MinCursorSecret = 16

// CheckCursorSecret refuses a secret that is set but shorter than
// MinCursorSecret, with a *ddbkit.ValidationError naming CursorSecret. Every
// listing of both stores checks it (EncodeCursor and DecodeCursor), so a
// weak secret is refused, never silently used.
func CheckCursorSecret(secret string) error {
	if n := len(secret); n > 0 && n < MinCursorSecret {
		return ddbkit.Invalid("CursorSecret", "must be empty or at least %d bytes, got %d; use 32 random bytes shared by every instance", MinCursorSecret, n)
	}
	return nil
}

// EncodeCursor returns the cursor positioned after the item with key, for q.
func EncodeCursor(q KeyQuery, key Item) (string, error) {
	if err := CheckCursorSecret(q.Table.CursorSecret); err != nil {
		return "", err
	}
	attrs := make([]keyAttr, 0, len(key))
	for name, v := range key {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			attrs = append(attrs, keyAttr{name, "S", v.Value})
		case *types.AttributeValueMemberN:
			attrs = append(attrs, keyAttr{name, "N", v.Value})
		case *types.AttributeValueMemberB:
			attrs = append(attrs, keyAttr{name, "B", base64.StdEncoding.EncodeToString(v.Value)})
		default:
			return "", fmt.Errorf("ddb: cursor key attribute %q has type %T; keys are S, N or B", name, v)
		}
	}
	sort.Slice(attrs, func(i, j int) bool { return attrs[i][0] < attrs[j][0] })
	js, err := json.Marshal(attrs)
	if err != nil {
		return "", err
	}
	payload := append([]byte{cursorVersion}, js...)
	return base64.RawURLEncoding.EncodeToString(append(payload, tag(q, payload)...)), nil
}

// DecodeCursor returns the ExclusiveStartKey that cursor encodes, or nil for
// "". Any cursor not issued by EncodeCursor for the same q fails with
// ddbkit.ErrInvalidCursor.
func DecodeCursor(q KeyQuery, cursor string) (Item, error) {
	if err := CheckCursorSecret(q.Table.CursorSecret); err != nil {
		return nil, err
	}
	if cursor == "" {
		return nil, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	// Re-encoding rejects other spellings of the same bytes (unused trailing
	// bits, line breaks), so that a cursor has exactly one spelling.
	if err != nil || len(raw) <= 1+cursorTagLen || base64.RawURLEncoding.EncodeToString(raw) != cursor {
		return nil, invalidCursor("it is not a cursor this library issued")
	}
	payload, got := raw[:len(raw)-cursorTagLen], raw[len(raw)-cursorTagLen:]
	if !hmac.Equal(got, tag(q, payload)) {
		return nil, invalidCursor("it was issued for a different listing, or modified")
	}
	if payload[0] != cursorVersion {
		return nil, invalidCursor("unknown cursor version")
	}
	var attrs []keyAttr
	if err := json.Unmarshal(payload[1:], &attrs); err != nil {
		return nil, invalidCursor("malformed payload")
	}
	key := make(Item, len(attrs))
	for _, a := range attrs {
		switch a[1] {
		case "S":
			key[a[0]] = S(a[2])
		case "N":
			key[a[0]] = &types.AttributeValueMemberN{Value: a[2]}
		case "B":
			b, err := base64.StdEncoding.DecodeString(a[2])
			if err != nil {
				return nil, invalidCursor("malformed binary key")
			}
			key[a[0]] = &types.AttributeValueMemberB{Value: b}
		default:
			return nil, invalidCursor("malformed key type")
		}
	}
	// Defence in depth: the key must be a key of this listing.
	want := q.KeyAttrs()
	if len(key) != len(want) {
		return nil, invalidCursor("wrong key attributes")
	}
	for _, a := range want {
		if key[a] == nil {
			return nil, invalidCursor("wrong key attributes")
		}
	}
	for _, v := range key {
		if _, ok := v.(*types.AttributeValueMemberS); !ok {
			return nil, invalidCursor("a key attribute is not a String")
		}
	}
	if pv, ok := key[q.PartitionAttr()].(*types.AttributeValueMemberS); !ok || pv.Value != q.PartitionValue {
		return nil, invalidCursor("it belongs to another partition")
	}
	if sv, ok := key[q.SortAttr()].(*types.AttributeValueMemberS); ok && !q.Sort.Match(sv.Value) {
		return nil, invalidCursor("it lies outside the listing")
	}
	return key, nil
}

func tag(q KeyQuery, payload []byte) []byte {
	pool := macPool(q.Table.CursorSecret)
	m := pool.Get().(*cursorMAC)
	defer pool.Put(m)
	m.h.Reset()
	m.buf = append(q.appendBinding(m.buf[:0]), 0)
	m.h.Write(m.buf)
	m.h.Write(payload)
	return m.h.Sum(nil)[:cursorTagLen]
}

// cursorMAC is a keyed HMAC and a buffer for the binding it hashes, reused
// from page to page: keying an HMAC and building a binding string were most
// of what a page cost beyond its items.
type cursorMAC struct {
	h   hash.Hash
	buf []byte
}

// macPools holds a pool of cursorMACs per cursor secret (a store's
// option: a few per process).
var macPools sync.Map // secret → *sync.Pool

func macPool(secret string) *sync.Pool {
	if p, ok := macPools.Load(secret); ok {
		return p.(*sync.Pool)
	}
	key := []byte("ddbkit-cursor-key\x00" + secret)
	p, _ := macPools.LoadOrStore(secret, &sync.Pool{New: func() any {
		return &cursorMAC{h: hmac.New(sha256.New, key)}
	}})
	return p.(*sync.Pool)
}

func invalidCursor(why string) error {
	return fmt.Errorf("%w: %s; restart the listing without a cursor", ddbkit.ErrInvalidCursor, why)
}
