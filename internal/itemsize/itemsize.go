// Package itemsize is DynamoDB's rule for the size of an item, which both
// the 400 KB limit (internal/ddb) and the capacity a write or read
// consumes (ddbtest's partition model) count. It depends on the SDK's
// types alone, so that any module of ddbkit can use it.
package itemsize

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Of returns the size DynamoDB counts for item, by its documented rules:
// each attribute's name in UTF-8 bytes plus its value's size (Value).
func Of(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += len(name) + Value(v)
	}
	return n
}

// Value is the size of one attribute value. A string or binary weighs its
// bytes; a number, up to 21 bytes (1 per two significant digits, plus 1);
// a boolean or null, 1 byte; a list or map, 3 bytes plus 1 per element
// plus its elements (a map's keys included); a set, its elements. Where
// DynamoDB's rule is approximate (numbers), it errs on the large side.
func Value(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return number(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + Value(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + Value(e)
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
			n += number(e)
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

// number bounds a number's size from above: 1 byte per two digits, plus 1.
func number(s string) int {
	d := 0
	for _, r := range strings.TrimLeft(s, "-+0.") {
		if r >= '0' && r <= '9' {
			d++
		}
	}
	return min(21, (d+1)/2+1)
}
