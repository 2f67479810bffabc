package ddb

import (
	"encoding/base64"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is one DynamoDB item, or one key.
type Item = map[string]types.AttributeValue

// Table names a table and its primary key attributes.
type Table struct {
	Name         string
	PartitionKey string
	SortKey      string // "" for a partition-key-only table
	// CursorSecret, when set, keys the MAC of the table's page cursors, so
	// that only a holder of the secret can make a cursor that passes. It is
	// a string so that Table stays comparable.
	CursorSecret string
	// WithholdOld, when set, asks DynamoDB for nothing when a write's
	// condition fails (ReturnValuesOnConditionCheckFailure NONE), where it
	// otherwise asks for the item as it was (ALL_OLD): for a role that
	// must not read the table through its writes.
	WithholdOld bool
}

// KeyOf returns the primary key attributes of item.
func (t Table) KeyOf(item Item) Item {
	k := Item{t.PartitionKey: item[t.PartitionKey]}
	if t.SortKey != "" {
		k[t.SortKey] = item[t.SortKey]
	}
	return k
}

// Key returns the primary key for string key values.
func (t Table) Key(pk, sk string) Item {
	k := Item{t.PartitionKey: S(pk)}
	if t.SortKey != "" {
		k[t.SortKey] = S(sk)
	}
	return k
}

// S returns a String attribute value.
func S(v string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: v} }

// KeyString returns a canonical string for a key, equal for equal keys
// whatever the map order. It identifies keys in maps (deduplication,
// duplicate detection) and binds cursors.
func KeyString(key Item) string {
	// Keys have one or two attributes; order them without sorting a slice.
	var names [4]string
	ns := names[:0]
	size := 0
	for n, v := range key {
		ns = append(ns, n)
		size += len(n) + 16
		if s, ok := v.(*types.AttributeValueMemberS); ok {
			size += len(s.Value)
		}
	}
	if len(ns) == 2 {
		if ns[1] < ns[0] {
			ns[0], ns[1] = ns[1], ns[0]
		}
	} else {
		sort.Strings(ns)
	}
	var b strings.Builder
	b.Grow(size)
	for _, n := range ns {
		writeQuoted(&b, n)
		b.WriteByte('=')
		switch v := key[n].(type) {
		case *types.AttributeValueMemberS:
			b.WriteByte('S')
			writeQuoted(&b, v.Value)
		case *types.AttributeValueMemberN:
			b.WriteByte('N')
			writeQuoted(&b, v.Value)
		case *types.AttributeValueMemberB:
			b.WriteString("B" + base64.StdEncoding.EncodeToString(v.Value))
		default:
			b.WriteString("?")
		}
		b.WriteByte(';')
	}
	return b.String()
}

// writeQuoted writes quote(s) without building it first.
func writeQuoted(b *strings.Builder, s string) {
	var num [20]byte
	b.Write(strconv.AppendInt(num[:0], int64(len(s)), 10))
	b.WriteByte(':')
	b.WriteString(s)
}

// quote length-prefixes s so that no choice of content can make two
// different keys print the same.
func quote(s string) string { return string(appendQuoted(nil, s)) }

func appendQuoted(b []byte, s string) []byte {
	return append(append(strconv.AppendInt(b, int64(len(s)), 10), ':'), s...)
}

// AttrString returns a canonical string for any attribute value, equal for
// equal values whatever the order of map entries or set members. It compares
// items (ItemsEqual) and renders them in errors.
func AttrString(v types.AttributeValue) string {
	var b strings.Builder
	writeAttr(&b, v)
	return b.String()
}

func writeAttr(b *strings.Builder, v types.AttributeValue) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		b.WriteString("S" + quote(v.Value))
	case *types.AttributeValueMemberN:
		b.WriteString("N" + quote(v.Value))
	case *types.AttributeValueMemberB:
		b.WriteString("B" + quote(base64.StdEncoding.EncodeToString(v.Value)))
	case *types.AttributeValueMemberBOOL:
		b.WriteString("BOOL" + strconv.FormatBool(v.Value))
	case *types.AttributeValueMemberNULL:
		b.WriteString("NULL")
	case *types.AttributeValueMemberSS:
		writeSet(b, "SS", v.Value, quote)
	case *types.AttributeValueMemberNS:
		writeSet(b, "NS", v.Value, quote)
	case *types.AttributeValueMemberBS:
		writeSet(b, "BS", v.Value, func(x []byte) string { return quote(base64.StdEncoding.EncodeToString(x)) })
	case *types.AttributeValueMemberL:
		b.WriteString("L[")
		for _, e := range v.Value {
			writeAttr(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case *types.AttributeValueMemberM:
		names := make([]string, 0, len(v.Value))
		for n := range v.Value {
			names = append(names, n)
		}
		sort.Strings(names)
		b.WriteString("M{")
		for _, n := range names {
			b.WriteString(quote(n) + "=")
			writeAttr(b, v.Value[n])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default:
		b.WriteString("?")
	}
}

func writeSet[T any](b *strings.Builder, kind string, vs []T, str func(T) string) {
	ss := make([]string, len(vs))
	for i, x := range vs {
		ss[i] = str(x)
	}
	sort.Strings(ss)
	b.WriteString(kind + "[" + strings.Join(ss, ",") + "]")
}
