package ddb

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/itemsize"
)

// MaxItemSize is DynamoDB's limit on an item's size, attribute names
// included.
const MaxItemSize = 400 * 1024

// ItemSize returns the size DynamoDB counts for item against MaxItemSize,
// by its documented rules (internal/itemsize): each attribute's name in
// UTF-8 bytes plus its value's size. Where DynamoDB's rule is approximate
// (numbers), ItemSize errs on the large side.
func ItemSize(item Item) int { return itemsize.Of(item) }

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
