package ddb

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/redact"
)

// Corrupt returns the *ddbkit.CorruptItemError for attribute attr of item,
// read from t: stored data that cannot be decoded, which is never the
// caller's ErrInvalidArgument. The attribute's name, and each string
// argument of the reason (a stored value), are shown as redact.Shown does: any
// writer of the table chose them. The key is in Key, whole.
func Corrupt(t Table, item Item, attr, format string, args ...any) error {
	shown := make([]any, len(args))
	for i, a := range args {
		if s, ok := redact.AsString(a); ok {
			a = redact.Shown(s)
		}
		shown[i] = a
	}
	return &ddbkit.CorruptItemError{Table: t.Name, Key: RenderKey(t, item), Attr: redact.Shown(attr), Reason: fmt.Sprintf(format, shown...)}
}

// decoder is attributevalue.UnmarshalMap's decoder, made once: a Decoder
// holds only its options, so one serves every call, where UnmarshalMap
// allocates one per item.
var decoder = attributevalue.NewDecoder()

// Unmarshal decodes item, read from t, into out (a pointer to a struct with
// dynamodbav tags) as attributevalue.UnmarshalMap does. Attributes the struct
// does not name are ignored and missing ones keep their zero value, so an
// item written by another program decodes as far as its layout allows. An
// attribute of the wrong type gives a *ddbkit.CorruptItemError naming it.
func Unmarshal(t Table, item Item, out any) error {
	err := decoder.Decode(&types.AttributeValueMemberM{Value: item}, out)
	if err == nil {
		return nil
	}
	// Find the attribute to blame: decode them one at a time into a fresh
	// value. This only runs for corrupt items.
	typ := reflect.TypeOf(out).Elem()
	names := make([]string, 0, len(item))
	for n := range item {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if e := attributevalue.UnmarshalMap(Item{n: item[n]}, reflect.New(typ).Interface()); e != nil {
			return &ddbkit.CorruptItemError{Table: t.Name, Key: RenderKey(t, item), Attr: redact.Shown(n),
				Reason: fmt.Sprintf("cannot decode a %s value", attrType(item[n])), Err: e}
		}
	}
	return &ddbkit.CorruptItemError{Table: t.Name, Key: RenderKey(t, item), Attr: "?", Reason: "cannot decode the item", Err: err}
}

// RenderKey renders the primary key of item as "pk=…, sk=…" for messages.
func RenderKey(t Table, item Item) string {
	parts := []string{t.PartitionKey + "=" + attrText(item[t.PartitionKey])}
	if t.SortKey != "" {
		parts = append(parts, t.SortKey+"="+attrText(item[t.SortKey]))
	}
	return strings.Join(parts, ", ")
}

func attrText(v types.AttributeValue) string {
	if !attrOK(v) {
		return "(nil)"
	}
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case nil:
		return "(missing)"
	}
	return AttrString(v)
}

func attrType(v types.AttributeValue) string {
	return strings.TrimPrefix(reflect.TypeOf(v).Elem().Name(), "AttributeValueMember")
}
