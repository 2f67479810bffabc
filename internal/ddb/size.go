package ddb

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// MaxItemSize is DynamoDB's limit on an item's size, attribute names
// included.
const MaxItemSize = 400 * 1024

// ItemSize returns the size DynamoDB counts for item against MaxItemSize,
// by its documented rules: each attribute's name in UTF-8 bytes plus its
// value's size. A string or binary weighs its bytes; a number, up to 21
// bytes (1 per two significant digits, plus 1); a boolean or null, 1 byte;
// a list or map, 3 bytes plus 1 per element plus its elements (a map's keys
// included); a set, its elements. Where DynamoDB's rule is approximate
// (numbers), ItemSize errs on the large side.
func ItemSize(item Item) int {
	n := 0
	for name, v := range item {
		n += len(name) + attrSize(v)
	}
	return n
}

func attrSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return numSize(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + attrSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + attrSize(e)
		}
		return n
	case *types.AttributeValueMemberSS:
		n := 0
		for _, e := range v.Value {
			n += len(e)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, e := range v.Value {
			n += numSize(e)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, e := range v.Value {
			n += len(e)
		}
		return n
	}
	return 0
}

// numSize bounds a number's size from above: 1 byte per two digits, plus 1.
func numSize(s string) int {
	d := 0
	for _, r := range strings.TrimLeft(s, "-+0.") {
		if r >= '0' && r <= '9' {
			d++
		}
	}
	return min(21, (d+1)/2+1)
}

// CheckItemSize refuses, with a *ddbkit.ValidationError naming field, an
// item whose size (ItemSize) plus reserve passes MaxItemSize: reserve is
// room the item needs beyond what it holds now (an attribute a later write
// adds, or a copy of it stored inside another item). Every domain checks
// the items it writes with it before any call, on both stores, so that an
// item the memory store accepts is one DynamoDB accepts too. field is the
// caller's field that makes the item large (the longest free text, or the
// list), since the caller can only act on its own fields.
func CheckItemSize(item Item, field string, reserve int) error {
	if n := ItemSize(item) + reserve; n > MaxItemSize {
		return ddbkit.Invalid(field, "makes the item %d bytes, over DynamoDB's limit of %d bytes (400 KB); shorten it", n, MaxItemSize)
	}
	return nil
}

// CheckAttrs reports, as a corrupt item of t, an item holding a nil
// attribute value anywhere (at the top, or inside a list or map): the SDK
// never decodes one from DynamoDB, but an item built by hand (a memory
// store's Import) may hold one, and nothing can encode or decode it.
func CheckAttrs(t Table, item Item) error {
	for name, v := range item {
		if !attrOK(v) {
			return Corrupt(t, item, name, "holds a nil attribute value")
		}
	}
	return nil
}

func attrOK(v types.AttributeValue) bool {
	switch v := v.(type) {
	case nil:
		return false
	case *types.AttributeValueMemberL:
		if v == nil {
			return false
		}
		for _, e := range v.Value {
			if !attrOK(e) {
				return false
			}
		}
	case *types.AttributeValueMemberM:
		if v == nil {
			return false
		}
		for _, e := range v.Value {
			if !attrOK(e) {
				return false
			}
		}
	case *types.AttributeValueMemberS:
		return v != nil
	case *types.AttributeValueMemberN:
		return v != nil
	case *types.AttributeValueMemberB:
		return v != nil
	case *types.AttributeValueMemberBOOL:
		return v != nil
	case *types.AttributeValueMemberNULL:
		return v != nil
	case *types.AttributeValueMemberSS:
		return v != nil
	case *types.AttributeValueMemberNS:
		return v != nil
	case *types.AttributeValueMemberBS:
		return v != nil
	}
	return true
}
