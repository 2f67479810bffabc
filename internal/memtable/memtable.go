// Package memtable is the ordered in-memory table behind every ddbkit memory
// store. It keeps each partition sorted by the same key strings the DynamoDB
// stores write, compares them bytewise as DynamoDB does, and pages with the
// cursors of package ddb, so a memory store returns the same items, in the
// same order, with the same page boundaries and cursors as its DynamoDB twin.
//
// A Table is not safe for concurrent use: a memory store guards its tables
// with one lock, which is what makes its multi-item writes atomic.
package memtable

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Table holds values of type T by partition key and sort key. It models a
// DynamoDB table or a global secondary index; for an index, entries with equal
// sort keys are told apart, and ordered, by their full key.
type Table[T any] struct {
	parts map[string][]entry[T]
}

type entry[T any] struct {
	sk, tie string
	key     ddb.Item
	v       T
}

// New returns an empty table.
func New[T any]() *Table[T] { return &Table[T]{parts: make(map[string][]entry[T])} }

func cmp[T any](e entry[T], sk, tie string) int {
	if c := strings.Compare(e.sk, sk); c != 0 {
		return c
	}
	return strings.Compare(e.tie, tie)
}

// Put stores v under partition pk and sort key sk, replacing the entry with
// the same key. key holds every attribute a cursor positioned at this entry
// carries (see ddb.KeyQuery.KeyAttrs).
func (t *Table[T]) Put(pk, sk string, key ddb.Item, v T) {
	tie := ddb.KeyString(key)
	es := t.parts[pk]
	i, found := slices.BinarySearchFunc(es, struct{}{}, func(e entry[T], _ struct{}) int { return cmp(e, sk, tie) })
	if found {
		es[i].v = v
		return
	}
	t.parts[pk] = slices.Insert(es, i, entry[T]{sk: sk, tie: tie, key: key, v: v})
}

// Get returns the first value under pk and sk. In a base table, where sort
// keys are unique, it is the only one.
func (t *Table[T]) Get(pk, sk string) (T, bool) {
	es := t.parts[pk]
	i, _ := slices.BinarySearchFunc(es, sk, func(e entry[T], sk string) int { return strings.Compare(e.sk, sk) })
	if i < len(es) && es[i].sk == sk {
		return es[i].v, true
	}
	var zero T
	return zero, false
}

// Delete removes the entry under pk and sk with the given key, reporting
// whether it existed.
func (t *Table[T]) Delete(pk, sk string, key ddb.Item) bool {
	es := t.parts[pk]
	i, found := slices.BinarySearchFunc(es, struct{}{}, func(e entry[T], _ struct{}) int { return cmp(e, sk, ddb.KeyString(key)) })
	if !found {
		return false
	}
	if len(es) == 1 {
		delete(t.parts, pk)
		return true
	}
	t.parts[pk] = slices.Delete(es, i, i+1)
	return true
}

// Partition returns the values under pk in sort key order.
func (t *Table[T]) Partition(pk string) []T {
	es := t.parts[pk]
	vs := make([]T, len(es))
	for i, e := range es {
		vs[i] = e.v
	}
	return vs
}

// Query returns up to limit values of q for which keep (when not nil) is
// true, starting after cursor, and the next page's cursor. It has the
// semantics of ddb.QueryPage: Next is "" exactly when nothing follows, and a
// cursor not issued for q fails with ddbkit.ErrInvalidCursor. Its cost is a
// binary search plus the page, whatever the partition's size.
func (t *Table[T]) Query(q ddb.KeyQuery, limit int, cursor string, keep func(T) bool) ([]T, string, error) {
	start, err := ddb.DecodeCursor(q, cursor)
	if err != nil {
		return nil, "", err
	}
	es := t.parts[q.PartitionValue]
	lo, hi := q.Sort.Bounds(len(es), func(i int) string { return es[i].sk })
	i, step := lo, 1
	if q.Descending {
		i, step = hi-1, -1
	}
	if start != nil {
		sk, tie := sortValue(start, q.SortAttr()), ddb.KeyString(start)
		n, found := slices.BinarySearchFunc(es, struct{}{}, func(e entry[T], _ struct{}) int { return cmp(e, sk, tie) })
		switch {
		case q.Descending:
			i = min(i, n-1)
		case found:
			i = max(i, n+1)
		default:
			i = max(i, n)
		}
	}
	var (
		out  []T
		last ddb.Item
	)
	for ; i >= lo && i < hi; i += step {
		if keep != nil && !keep(es[i].v) {
			continue
		}
		if len(out) == limit {
			// es[i] follows the page, so there is a next page; it starts
			// after the page's last entry.
			next, err := ddb.EncodeCursor(q, last)
			return out, next, err
		}
		out = append(out, es[i].v)
		last = es[i].key
	}
	return out, "", nil
}

func sortValue(key ddb.Item, attr string) string {
	if s, ok := key[attr].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}
