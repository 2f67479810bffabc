package ddb

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// Index names a global secondary index and its key attributes.
type Index struct {
	Name         string
	PartitionKey string
	SortKey      string
}

// KeyQuery describes one keyed listing: a partition of a table or index,
// optionally narrowed by a sort key condition, in one direction. Both the
// DynamoDB pager (QueryPage) and the in-memory tables (package memtable) read
// it, so they select, order and page the same items, and they issue and accept
// the same cursors.
type KeyQuery struct {
	Table          Table
	Index          Index // zero for the base table
	PartitionValue string
	Sort           SortCond
	Descending     bool
	ConsistentRead bool // base table only
	// Filter describes, canonically, a filter the listing applies to the
	// items it reads (such as a tag filter), or "" for none. Cursors bind
	// it, so a cursor of a filtered listing fails on another filter.
	Filter string
	// Budget is the most items a filtered page evaluates (reads and tests
	// against its filter) before it returns what it found, possibly
	// nothing, with a cursor to go on from; zero or less means
	// DefaultBudget. It bounds a page's work whatever the filter, so that
	// a filter nothing matches costs one page's budget, not the partition.
	// An unfiltered page ignores it. Both the DynamoDB pager and package
	// memtable honour it, so their page boundaries agree.
	Budget int
}

// DefaultBudget is the most items a filtered page evaluates unless its
// KeyQuery says otherwise: with ddbkit's items of a few hundred bytes,
// about 100-250 KB of reads, 25-60 RCU eventually consistent.
const DefaultBudget = 1000

// MinFollowUp is the least Limit of a filtered page's follow-up Query: a
// page that still misses two items does not read them two at a time when
// the filter is selective.
const MinFollowUp = 100

// budget is q.Budget, or DefaultBudget.
func (q KeyQuery) budget() int {
	if q.Budget > 0 {
		return q.Budget
	}
	return DefaultBudget
}

// Evaluated tracks the items a filtered page has evaluated against its
// budget; package memtable counts with it so that both stores end a page at
// the same item.
type Evaluated struct {
	n, max int
}

// NewEvaluated starts counting for q.
func NewEvaluated(q KeyQuery) Evaluated { return Evaluated{max: q.budget()} }

// Add counts n more items evaluated, and reports whether the budget is
// spent.
func (e *Evaluated) Add(n int) bool {
	e.n += n
	return e.n >= e.max
}

// Left is how many items the budget still allows.
func (e *Evaluated) Left() int { return e.max - e.n }

// PartitionAttr is the partition key attribute the query matches on.
func (q KeyQuery) PartitionAttr() string {
	if q.Index.Name != "" {
		return q.Index.PartitionKey
	}
	return q.Table.PartitionKey
}

// SortAttr is the sort key attribute the query orders by.
func (q KeyQuery) SortAttr() string {
	if q.Index.Name != "" {
		return q.Index.SortKey
	}
	return q.Table.SortKey
}

// KeyAttrs lists the attributes of a LastEvaluatedKey for this query: the
// table's key, plus the index's key for an index query.
func (q KeyQuery) KeyAttrs() []string {
	attrs := []string{q.Table.PartitionKey}
	if q.Table.SortKey != "" {
		attrs = append(attrs, q.Table.SortKey)
	}
	if q.Index.Name != "" {
		for _, a := range []string{q.Index.PartitionKey, q.Index.SortKey} {
			if a != "" && a != q.Table.PartitionKey && a != q.Table.SortKey {
				attrs = append(attrs, a)
			}
		}
	}
	return attrs
}

// CursorKey returns the attributes of item that a cursor positioned after it
// holds.
func (q KeyQuery) CursorKey(item Item) Item {
	k := make(Item, 4)
	for _, a := range q.KeyAttrs() {
		k[a] = item[a]
	}
	return k
}

// appendBinding appends what identifies the listing a cursor belongs to:
// its table, index, partition, sort condition, direction and filter,
// NUL-separated, lengths before the values a caller chooses.
func (q KeyQuery) appendBinding(b []byte) []byte {
	dir := "asc"
	if q.Descending {
		dir = "desc"
	}
	b = append(b, "ddbkit-cursor-v1\x00"...)
	b = append(append(b, q.Table.Name...), 0)
	b = append(append(b, q.Index.Name...), 0)
	b = append(appendQuoted(b, q.PartitionAttr()), 0)
	b = append(appendQuoted(b, q.PartitionValue), 0)
	b = append(q.Sort.appendString(b), 0)
	b = append(append(b, dir...), 0)
	return appendQuoted(b, q.Filter)
}

type sortOp int

const (
	sortAny sortOp = iota
	sortEq
	sortBeginsWith
	sortBetween
	sortLT
	sortLE
	sortGT
	sortGE
)

// SortCond is a condition on a string sort key. The zero value matches every
// key.
type SortCond struct {
	op   sortOp
	a, b string
}

// SortBeginsWith matches keys that start with prefix.
func SortBeginsWith(prefix string) SortCond { return SortCond{op: sortBeginsWith, a: prefix} }

// SortBetween matches keys from lo to hi, both included.
func SortBetween(lo, hi string) SortCond { return SortCond{op: sortBetween, a: lo, b: hi} }

// SortEq matches one key.
func SortEq(v string) SortCond { return SortCond{op: sortEq, a: v} }

// SortLT, SortLE, SortGT and SortGE compare keys with v.
func SortLT(v string) SortCond { return SortCond{op: sortLT, a: v} }

// SortLE matches keys up to v, included.
func SortLE(v string) SortCond { return SortCond{op: sortLE, a: v} }

// SortGT matches keys after v.
func SortGT(v string) SortCond { return SortCond{op: sortGT, a: v} }

// SortGE matches keys from v, included.
func SortGE(v string) SortCond { return SortCond{op: sortGE, a: v} }

// Match reports whether sk satisfies the condition, comparing bytes as
// DynamoDB compares String keys.
func (c SortCond) Match(sk string) bool {
	switch c.op {
	case sortEq:
		return sk == c.a
	case sortBeginsWith:
		return strings.HasPrefix(sk, c.a)
	case sortBetween:
		return c.a <= sk && sk <= c.b
	case sortLT:
		return sk < c.a
	case sortLE:
		return sk <= c.a
	case sortGT:
		return sk > c.a
	case sortGE:
		return sk >= c.a
	}
	return true
}

// String describes the condition; it is part of a cursor's binding.
func (c SortCond) String() string { return string(c.appendString(nil)) }

func (c SortCond) appendString(b []byte) []byte {
	b = append(strconv.AppendInt(b, int64(c.op), 10), ':')
	return appendQuoted(append(appendQuoted(b, c.a), ':'), c.b)
}

// key is the condition on attr, with a and b as its operands, in the
// expression package's terms.
func (c SortCond) key(attr string, a, b expression.ValueBuilder, aText string) (expression.KeyConditionBuilder, bool) {
	k := expression.Key(attr)
	switch c.op {
	case sortEq:
		return k.Equal(a), true
	case sortBeginsWith:
		return k.BeginsWith(aText), true
	case sortBetween:
		return k.Between(a, b), true
	case sortLT:
		return k.LessThan(a), true
	case sortLE:
		return k.LessThanEqual(a), true
	case sortGT:
		return k.GreaterThan(a), true
	case sortGE:
		return k.GreaterThanEqual(a), true
	}
	return expression.KeyConditionBuilder{}, false
}

// operands returns the condition's operands, as many as its shape has.
func (c SortCond) operands() []string {
	switch c.op {
	case sortAny:
		return nil
	case sortBetween:
		return []string{c.a, c.b}
	}
	return []string{c.a}
}

// Filter is a listing's filter of a fixed shape: Cond builds it with its
// values as parameters, Param(first) onwards, and Args are this call's
// values, in order. Shape names the expression Cond builds, one name per
// shape in the process (such as "taskmgmt: tags 2"): QueryPage
// prepares each shape once, with the key condition it goes with, so a
// filtered page costs no expression building either.
type Filter struct {
	Shape string
	Cond  func(first int) expression.ConditionBuilder
	Args  []types.AttributeValue
}

// queryShape is what a query's expressions depend on, apart from their
// values: the key attributes, the sort operator, and the filter's shape.
type queryShape struct {
	pk, sk string
	op     sortOp
	filter string
}

// queryExprs holds the prepared expressions of each shape a process has
// queried: a handful (the key attributes of each table and index, by the
// conditions and filters their listings use), built once each.
var queryExprs Shapes[queryShape]

// queryExpr returns q's key condition, and f's filter when f is set,
// prepared, and their values: the partition value, the sort condition's
// operands, then f's.
func queryExpr(q KeyQuery, f *Filter) (*Prepared, []types.AttributeValue) {
	shape := queryShape{pk: q.PartitionAttr(), sk: q.SortAttr(), op: q.Sort.op}
	ops := q.Sort.operands()
	n := 1 + len(ops)
	args := make([]types.AttributeValue, 1, n+len(argsOf(f)))
	args[0] = &types.AttributeValueMemberS{Value: q.PartitionValue}
	for _, v := range ops {
		args = append(args, &types.AttributeValueMemberS{Value: v})
	}
	if f != nil {
		shape.filter = f.Shape
		args = append(args, f.Args...)
	}
	p := queryExprs.Get(shape, func() expression.Builder {
		kc := expression.Key(shape.pk).Equal(Param(0))
		if sk, ok := q.Sort.key(shape.sk, Param(1), Param(2), ParamText(1)); ok {
			kc = kc.And(sk)
		}
		b := expression.NewBuilder().WithKeyCondition(kc)
		if f != nil {
			b = b.WithFilter(f.Cond(n))
		}
		return b
	})
	return p, args
}

func argsOf(f *Filter) []types.AttributeValue {
	if f == nil {
		return nil
	}
	return f.Args
}

// QueryPage returns up to limit items of q, starting after cursor (or at the
// beginning when cursor is ""), and the cursor of the next page, "" when
// there is none. It reads one item beyond the page so that an unfiltered
// page's Next is empty exactly when nothing follows; without a filter, a
// page costs one Query unless DynamoDB's 1 MB response limit splits it.
//
// When filter is set (see Filter), the items it reads are kept only where
// the filter holds, and the page's work is bounded by q's Budget: it
// queries on until the page is full, the partition ends or it has
// evaluated Budget items, whichever comes first. In the last case it
// returns what it found, possibly nothing, with a Next cursor after the
// last item evaluated: a caller pages on with it as with any other. Its
// first Query asks for limit+1 items, each follow-up for at least
// MinFollowUp, never beyond the budget. A filtered page whose budget ran
// out exactly at the partition's end may return a Next whose page is
// empty with no Next.
//
// Each Query call that is throttled or fails with a 5xx is retried within
// b on its own; the page is not restarted. This is the one retry loop of
// the call: do not wrap it in another.
//
// A cursor that was not issued for q fails with ddbkit.ErrInvalidCursor
// before any call. The expressions are prepared once per shape (key
// attributes, sort operator, filter shape), and only their values are
// bound per call.
func QueryPage(ctx context.Context, c ddbkit.Client, b Backoff, q KeyQuery, limit int, cursor string, filter *Filter) ([]Item, string, error) {
	if limit < 1 {
		return nil, "", ddbkit.Invalid("limit", "must be at least 1, got %d", limit)
	}
	start, err := DecodeCursor(q, cursor)
	if err != nil {
		return nil, "", err
	}
	p, args := queryExpr(q, filter)
	in := &dynamodb.QueryInput{TableName: aws.String(q.Table.Name), ScanIndexForward: aws.Bool(!q.Descending),
		KeyConditionExpression: p.KeyCondition(), FilterExpression: p.Filter(),
		ExpressionAttributeNames: p.Names(), ExpressionAttributeValues: p.Values(args...)}
	return queryPage(ctx, c, b, q, limit, start, in, filter != nil)
}

// queryPage sends in, from start, until it has a page of limit items and
// knows whether another follows, or, filtered, until it has spent its
// budget.
func queryPage(ctx context.Context, c ddbkit.Client, b Backoff, q KeyQuery, limit int, start Item, in *dynamodb.QueryInput, filtered bool) ([]Item, string, error) {
	if q.Index.Name != "" {
		in.IndexName = aws.String(q.Index.Name)
	} else if q.ConsistentRead {
		in.ConsistentRead = aws.Bool(true)
	}

	var items []Item
	ev := NewEvaluated(q)
	for first := true; ; first = false {
		in.ExclusiveStartKey = start
		n := limit + 1 - len(items)
		if filtered {
			if !first {
				n = max(n, MinFollowUp)
			}
			n = min(n, ev.Left())
		}
		in.Limit = aws.Int32(int32(n))
		var out *dynamodb.QueryOutput
		err := RetryIf(ctx, b, RetryableWithToken, func() (err error) {
			out, err = c.Query(ctx, in)
			return err
		})
		if err != nil {
			return nil, "", fmt.Errorf("query %s: %w", q.Table.Name, err)
		}
		items = append(items, out.Items...)
		if len(items) > limit {
			next, err := EncodeCursor(q, q.CursorKey(items[limit-1]))
			return items[:limit], next, err
		}
		if len(out.LastEvaluatedKey) == 0 {
			return items, "", nil
		}
		// ScannedCount counts the items evaluated, matched or not; never
		// fewer than those returned.
		if filtered && ev.Add(max(int(out.ScannedCount), len(out.Items))) {
			next, err := EncodeCursor(q, q.CursorKey(out.LastEvaluatedKey))
			return items, next, err
		}
		start = out.LastEvaluatedKey
	}
}

// Seek returns where a walk of a sorted partition in the given direction
// enters the keys that match the condition, as a sort key and a tie-breaker
// (keys equal in sort key are ordered by a tie-breaker string, see
// memtable's tieRule; "" sorts before every tie and "\xff" after): the walk
// starts at the first entry at or past that point.
// ok is false when the walk starts at the partition's end. Every condition
// selects a contiguous run of a sorted partition, which is why DynamoDB can
// serve it with one seek; the walk ends at the first key that does not
// match.
func (c SortCond) Seek(descending bool) (sk, tie string, ok bool) {
	// maxTie sorts after every tie-breaker, and maxSuffix after every valid
	// UTF-8 continuation of a prefix: 0xFF never occurs in UTF-8.
	const maxTie, maxSuffix = "\xff", "\xff"
	if !descending {
		switch c.op {
		case sortEq, sortBeginsWith, sortBetween, sortGE:
			return c.a, "", true
		case sortGT:
			return c.a, maxTie, true
		}
		return "", "", false
	}
	switch c.op {
	case sortEq, sortLE:
		return c.a, maxTie, true
	case sortBetween:
		return c.b, maxTie, true
	case sortBeginsWith:
		return c.a + maxSuffix, "", true
	case sortLT:
		return c.a, "", true
	}
	return "", "", false
}
