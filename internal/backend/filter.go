package backend

import (
	"cmp"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Filter is a condition a Query applies to the items it reads (a
// FilterExpression), built from Contains, Equal, Greater, Missing, And and
// Or. The zero Filter keeps every item. The memory backend evaluates it
// as DynamoDB does, and both bind it into their cursors, so a cursor of
// one filter fails on another.
type Filter struct{ n *fnode }

type fop byte

const (
	fContains fop = iota + 1
	fEqual
	fGreater
	fMissing
	fNotNumber
	fAnd
	fOr
	fNot
	fUnbound
	fPresent // after the others: cursors bind the numbers
)

type fnode struct {
	op   fop
	attr string
	v    types.AttributeValue
	subs []Filter
}

// Contains keeps items whose attribute attr contains v: a List or String
// Set holding the String v, or a String with v as a substring, as
// DynamoDB's contains does.
func Contains(attr, v string) Filter {
	return Filter{&fnode{op: fContains, attr: attr, v: ddb.S(v)}}
}

// Equal keeps items whose attribute attr equals v.
func Equal(attr string, v types.AttributeValue) Filter {
	// DynamoDB compares Numbers by value: Keeps compares values in the
	// form stored items have (see canonNumber).
	if n, err := normValue(v, true); err == nil {
		v = n
	}
	return Filter{&fnode{op: fEqual, attr: attr, v: v}}
}

// Greater keeps items whose attribute attr is greater than v, both
// Numbers or both Strings (compared bytewise).
func Greater(attr string, v types.AttributeValue) Filter {
	return Filter{&fnode{op: fGreater, attr: attr, v: v}}
}

// Missing keeps items without attribute attr.
func Missing(attr string) Filter { return Filter{&fnode{op: fMissing, attr: attr}} }

// Present keeps items with attribute attr (a NULL counts), as DynamoDB's
// attribute_exists does.
func Present(attr string) Filter { return Filter{&fnode{op: fPresent, attr: attr}} }

// And keeps items every f keeps; zero Filters are left out.
func And(fs ...Filter) Filter { return join(fAnd, fs) }

// Or keeps items any f keeps; zero Filters are left out.
func Or(fs ...Filter) Filter { return join(fOr, fs) }

func join(op fop, fs []Filter) Filter {
	var subs []Filter
	for _, f := range fs {
		if f.n != nil {
			subs = append(subs, f)
		}
	}
	switch len(subs) {
	case 0:
		return Filter{}
	case 1:
		return subs[0]
	}
	return Filter{&fnode{op: op, subs: subs}}
}

// Not keeps the items f does not keep (NOT), so that Not(Equal(a, v))
// keeps an item without a. Not of the zero Filter keeps nothing, which no
// caller means: it is refused as the zero Filter itself.
func Not(f Filter) Filter {
	if f.n == nil {
		return Filter{}
	}
	return Filter{&fnode{op: fNot, subs: []Filter{f}}}
}

// Unbound is f with its values left out of the cursors a Query binds:
// a cursor still names f's shape, but not values that move from page to
// page, such as "expires after now" with the time of each page's read.
// Use it only for values the caller derives itself, never for a
// caller's filter argument, which a cursor must keep bound.
func Unbound(f Filter) Filter {
	if f.n == nil {
		return Filter{}
	}
	return Filter{&fnode{op: fUnbound, subs: []Filter{f}}}
}

// IsZero reports whether f keeps everything.
func (f Filter) IsZero() bool { return f.n == nil }

// Keeps reports whether f keeps item.
func (f Filter) Keeps(item ddb.Item) bool {
	n := f.n
	if n == nil {
		return true
	}
	switch n.op {
	case fUnbound:
		return n.subs[0].Keeps(item)
	case fNot:
		return !n.subs[0].Keeps(item)
	case fAnd:
		for _, s := range n.subs {
			if !s.Keeps(item) {
				return false
			}
		}
		return true
	case fOr:
		for _, s := range n.subs {
			if s.Keeps(item) {
				return true
			}
		}
		return false
	case fMissing:
		_, ok := item[n.attr]
		return !ok
	case fPresent:
		_, ok := item[n.attr]
		return ok
	case fNotNumber:
		v, ok := item[n.attr]
		_, num := v.(*types.AttributeValueMemberN)
		return ok && !num
	}
	got, ok := item[n.attr]
	if !ok {
		return false
	}
	switch n.op {
	case fContains:
		want := n.v.(*types.AttributeValueMemberS).Value
		switch got := got.(type) {
		case *types.AttributeValueMemberL:
			for _, v := range got.Value {
				if s, ok := v.(*types.AttributeValueMemberS); ok && s.Value == want {
					return true
				}
			}
		case *types.AttributeValueMemberSS:
			for _, s := range got.Value {
				if s == want {
					return true
				}
			}
		case *types.AttributeValueMemberS:
			return strings.Contains(got.Value, want)
		}
		return false
	case fEqual:
		return ddb.AttrString(got) == ddb.AttrString(n.v)
	case fGreater:
		return compare(got, n.v) > 0
	}
	return false
}

// compare orders two Numbers numerically or two Strings bytewise, and
// gives 0 for any other pair: DynamoDB's comparison of mismatched types is
// false.
func compare(a, b types.AttributeValue) int {
	switch a := a.(type) {
	case *types.AttributeValueMemberN:
		b, ok := b.(*types.AttributeValueMemberN)
		if !ok {
			return 0
		}
		if x, err := strconv.ParseInt(a.Value, 10, 64); err == nil {
			if y, err := strconv.ParseInt(b.Value, 10, 64); err == nil {
				return cmp.Compare(x, y) // the common case, without big.Rat's allocations
			}
		}
		x, ok1 := new(big.Rat).SetString(a.Value)
		y, ok2 := new(big.Rat).SetString(b.Value)
		if !ok1 || !ok2 {
			return 0
		}
		return x.Cmp(y)
	case *types.AttributeValueMemberS:
		b, ok := b.(*types.AttributeValueMemberS)
		if !ok {
			return 0
		}
		return strings.Compare(a.Value, b.Value)
	}
	return 0
}

// binding is f's canonical text, values included, for cursors
// (KeyQuery.Filter).
func (f Filter) binding() string {
	if f.n == nil {
		return ""
	}
	var b strings.Builder
	f.write(&b, true)
	return b.String()
}

// shape is f's text without values: the expressions it builds are
// prepared once per shape.
func (f Filter) shape() string {
	var b strings.Builder
	f.write(&b, false)
	return b.String()
}

func (f Filter) write(b *strings.Builder, values bool) {
	n := f.n
	b.WriteString(strconv.Itoa(int(n.op)))
	b.WriteByte('(')
	if n.op == fUnbound {
		values = false
	}
	if n.op == fAnd || n.op == fOr || n.op == fNot || n.op == fUnbound {
		for _, s := range n.subs {
			s.write(b, values)
			b.WriteByte(',')
		}
	} else {
		writeQuotedName(b, n.attr)
		if values && n.v != nil {
			b.WriteByte(',')
			b.WriteString(ddb.AttrString(n.v))
		}
	}
	b.WriteByte(')')
}

// writeQuotedName writes strconv.Quote(s), without building it for the
// names items use (printable ASCII without quotes or backslashes): a
// write's condition is shaped on every call.
func writeQuotedName(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			b.WriteString(strconv.Quote(s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// nargs is how many values args appends.
func (f Filter) nargs() int {
	n := f.n
	switch {
	case n == nil:
		return 0
	case n.op == fAnd || n.op == fOr || n.op == fNot || n.op == fUnbound:
		k := 0
		for _, s := range n.subs {
			k += s.nargs()
		}
		return k
	case n.v != nil:
		return 1
	}
	return 0
}

// args appends f's values, in the order cond numbers them.
func (f Filter) args(out []types.AttributeValue) []types.AttributeValue {
	n := f.n
	if n == nil {
		return out
	}
	if n.op == fAnd || n.op == fOr || n.op == fNot || n.op == fUnbound {
		for _, s := range n.subs {
			out = s.args(out)
		}
		return out
	}
	if n.v != nil {
		out = append(out, n.v)
	}
	return out
}

// cond builds f's expression, its values numbered from first on; it
// returns the next free number. Attribute names are names, never document
// paths (NameNoDotSplit), as the memory backend reads them: "a.b" is the
// attribute "a.b", not b inside a.
func (f Filter) cond(first int) (expression.ConditionBuilder, int) {
	n := f.n
	switch n.op {
	case fUnbound:
		return n.subs[0].cond(first)
	case fNot:
		c, next := n.subs[0].cond(first)
		return expression.Not(c), next
	case fAnd, fOr:
		c, next := n.subs[0].cond(first)
		for _, s := range n.subs[1:] {
			var d expression.ConditionBuilder
			d, next = s.cond(next)
			if n.op == fAnd {
				c = c.And(d)
			} else {
				c = c.Or(d)
			}
		}
		return c, next
	case fMissing:
		return expression.AttributeNotExists(expression.NameNoDotSplit(n.attr)), first
	case fPresent:
		return expression.AttributeExists(expression.NameNoDotSplit(n.attr)), first
	case fNotNumber:
		return expression.AttributeExists(expression.NameNoDotSplit(n.attr)).And(
			expression.Not(expression.AttributeType(expression.NameNoDotSplit(n.attr), expression.Number))), first
	case fContains:
		return expression.Contains(expression.NameNoDotSplit(n.attr), ddb.ParamText(first)), first + 1
	case fEqual:
		return expression.Equal(expression.NameNoDotSplit(n.attr), ddb.Param(first)), first + 1
	default: // fGreater
		return expression.GreaterThan(expression.NameNoDotSplit(n.attr), ddb.Param(first)), first + 1
	}
}

// Unexpired keeps the items whose TTL attribute ttl has not passed at now
// (epoch seconds): a missing or non-Number one (NULL, say) never expires,
// as DynamoDB's TTL ignores it. It is the filter reads of a table with TTL
// apply; a listing that filters on a TTL attribute the backend does not
// know of (taskmgmt's daily counters) applies it itself.
func Unexpired(ttl string, now int64) Filter {
	return Or(Missing(ttl), Filter{&fnode{op: fNotNumber, attr: ttl}},
		Greater(ttl, &types.AttributeValueMemberN{Value: strconv.FormatInt(now, 10)}))
}

// ddbFilter is f for ddb.QueryPage, nil for the zero Filter.
func (f Filter) ddbFilter() *ddb.Filter {
	if f.n == nil {
		return nil
	}
	return &ddb.Filter{Shape: "backend: " + f.shape(), Args: f.args(nil),
		Cond: func(first int) expression.ConditionBuilder { c, _ := f.cond(first); return c }}
}

// CursorAfter returns the cursor of q, with filter f, that resumes just
// after item: the cursor that a page of b ending on item carries. A
// listing that pages by groups of items (taskmgmt's sharded daily
// counters) ends its pages between groups with it. It binds q and f as
// both backends' pages do, so either accepts it.
func CursorAfter(b Backend, q ddb.KeyQuery, f Filter, item ddb.Item) (string, error) {
	var t Table
	switch b := b.(type) {
	case *Memory:
		mt, err := b.table(q.Table)
		if err != nil {
			return "", err
		}
		t = mt.t
	case *Dynamo:
		t = Table{Table: q.Table, TTL: b.tables.ttl(q.Table.Name)}
	default:
		return "", fmt.Errorf("backend: CursorAfter of a %T", b)
	}
	q.Filter = binding(t, f)
	return ddb.EncodeCursor(q, q.CursorKey(item))
}
