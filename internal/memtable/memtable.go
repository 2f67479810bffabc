// Package memtable is the ordered in-memory table behind every ddbkit memory
// store. It keeps each partition sorted by the same key strings the DynamoDB
// stores write, compares them bytewise as DynamoDB does, and pages with the
// cursors of package ddb, so a memory store returns the same items, in the
// same order, with the same page boundaries and cursors as its DynamoDB twin.
//
// Each partition is a B-tree, so a write, a read and the seek of a page cost
// O(log n) whatever the partition's size; a page then costs its items.
//
// A Table is not safe for concurrent use: a memory store guards its tables
// with one lock, which is what makes its multi-item writes atomic.
package memtable

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/btree"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Table holds values of type T by partition key and sort key. It models a
// DynamoDB table or a global secondary index; for an index, entries with equal
// sort keys are told apart, and ordered, as DynamoDB Local orders them: by a
// digest of their base table key (see tieRule), so that the order, page
// boundaries and cursors match DynamoDB Local's exactly, ties included.
type Table[T any] struct {
	parts map[string]*btree.BTreeG[entry[T]]
	// free is the node free list every partition shares: an index whose
	// partitions are one item each (an inverted index of unique sort
	// keys) would otherwise allocate one per partition.
	free *btree.FreeListG[entry[T]]
	rule tieRule
	// byKey holds a base table's values by partition and sort key, so
	// that a Get costs a hash, not a descent of the partition's B-tree
	// (nil for an index, whose sort keys are not unique).
	byKey map[[2]string]T
	// keyOf, when set (SetKeyOf), gives an entry's cursor key from its
	// value, so that a write stores no key map of its own.
	keyOf func(T) ddb.Item
}

type entry[T any] struct {
	sk, tie string   // order: sort key, then the tie-breaker (Table.tie)
	key     ddb.Item // nil when the table's keyOf gives it
	v       T
}

// SetKeyOf makes keyOf give the cursor key of an entry from its value
// (every attribute a cursor positioned at it carries, see Put) when the
// entry was put with a nil key. A caller whose values hold their item
// saves a key map per entry and write: a key is needed only when a page
// ends on the entry.
func (t *Table[T]) SetKeyOf(keyOf func(T) ddb.Item) { t.keyOf = keyOf }

// cursorKey is e's cursor key.
func (t *Table[T]) cursorKey(e entry[T]) ddb.Item {
	if e.key == nil && t.keyOf != nil {
		return t.keyOf(e.v)
	}
	return e.key
}

func less[T any](a, b entry[T]) bool {
	if a.sk != b.sk {
		return a.sk < b.sk
	}
	return a.tie < b.tie
}

// New returns an empty table modelling index ix of table t, or t itself
// when ix is zero: its queries must be of that table and index.
func New[T any](t ddb.Table, ix ddb.Index) *Table[T] {
	tt := &Table[T]{parts: make(map[string]*btree.BTreeG[entry[T]]), rule: ruleOf(t, ix),
		free: btree.NewFreeListG[entry[T]](btree.DefaultFreeListSize)}
	if ix.Name == "" {
		tt.byKey = make(map[[2]string]T)
	}
	return tt
}

// Put stores v under partition pk and sort key sk, replacing the entry with
// the same key. key holds every attribute a cursor positioned at this entry
// carries (see ddb.KeyQuery.KeyAttrs); it may be nil when SetKeyOf gives
// it, and in a base table, whose entries need no tie-breaker.
func (t *Table[T]) Put(pk, sk string, key ddb.Item, v T) {
	t.PutTie(pk, sk, t.rule.tie(key), key, v)
}

// Tie is the tie-breaker of the entry with key key (see New): a digest
// of its base table key, which a caller that writes the same base key
// again can keep and pass to PutTie and DeleteTie, saving the digests. It
// reads only the base key's attributes: key may be the whole item.
func (t *Table[T]) Tie(key ddb.Item) string { return t.rule.tie(key) }

// PutTie is Put of the entry whose tie-breaker is tie, which must be
// t.Tie(key).
func (t *Table[T]) PutTie(pk, sk, tie string, key ddb.Item, v T) {
	p := t.parts[pk]
	if p == nil {
		p = btree.NewWithFreeListG(16, less[T], t.free)
		t.parts[pk] = p
	}
	p.ReplaceOrInsert(entry[T]{sk: sk, tie: tie, key: key, v: v})
	if t.byKey != nil {
		t.byKey[[2]string{pk, sk}] = v
	}
}

// Get returns the first value under pk and sk. In a base table, where sort
// keys are unique, it is the only one.
func (t *Table[T]) Get(pk, sk string) (T, bool) {
	if t.byKey != nil {
		v, ok := t.byKey[[2]string{pk, sk}]
		return v, ok
	}
	var (
		v  T
		ok bool
	)
	if p := t.parts[pk]; p != nil {
		p.AscendGreaterOrEqual(entry[T]{sk: sk}, func(e entry[T]) bool {
			v, ok = e.v, e.sk == sk
			return false
		})
	}
	if !ok {
		var zero T
		return zero, false
	}
	return v, true
}

// Delete removes the entry under pk and sk with the given key, reporting
// whether it existed. In a base table, key may be nil.
func (t *Table[T]) Delete(pk, sk string, key ddb.Item) bool {
	return t.DeleteTie(pk, sk, t.rule.tie(key))
}

// DeleteTie is Delete of the entry whose tie-breaker is tie (see Tie).
func (t *Table[T]) DeleteTie(pk, sk, tie string) bool {
	p := t.parts[pk]
	if p == nil {
		return false
	}
	_, found := p.Delete(entry[T]{sk: sk, tie: tie})
	if t.byKey != nil {
		delete(t.byKey, [2]string{pk, sk})
	}
	if p.Len() == 0 {
		delete(t.parts, pk)
	}
	return found
}

// Partition returns the values under pk in sort key order.
func (t *Table[T]) Partition(pk string) []T {
	p := t.parts[pk]
	if p == nil {
		return nil
	}
	vs := make([]T, 0, p.Len())
	p.Ascend(func(e entry[T]) bool {
		vs = append(vs, e.v)
		return true
	})
	return vs
}

// Query returns up to limit values of q for which keep (when not nil) is
// true, starting after cursor, and the next page's cursor. It has the
// semantics of ddb.QueryPage: unfiltered, Next is "" exactly when nothing
// follows; filtered (keep set), a page evaluates at most q's Budget entries
// and then ends after the last one it evaluated, as DynamoDB's pager does;
// a cursor not issued for q fails with ddbkit.ErrInvalidCursor. Its cost
// is one seek plus the entries it visits, whatever the partition's size.
func (t *Table[T]) Query(q ddb.KeyQuery, limit int, cursor string, keep func(T) bool) ([]T, string, error) {
	if limit < 1 {
		return nil, "", ddbkit.Invalid("limit", "must be at least 1, got %d", limit)
	}
	start, err := ddb.DecodeCursor(q, cursor)
	if err != nil {
		return nil, "", err
	}
	var (
		out     []T
		last    entry[T]
		next    string
		nextErr error
		from    *entry[T]
		ev      = ddb.NewEvaluated(q)
		spent   bool
	)
	switch {
	case start != nil:
		// A cursor's key matched the sort condition when it was decoded, so
		// the walk resumes inside the range, just past the cursor's entry.
		from = &entry[T]{sk: sortValue(start, q.SortAttr()), tie: t.rule.tie(start)}
	default:
		if sk, tie, ok := q.Sort.Seek(q.Descending); ok {
			from = &entry[T]{sk: sk, tie: tie}
		}
	}
	visit := func(e entry[T]) bool {
		if start != nil && e.sk == from.sk && e.tie == from.tie {
			return true // the cursor's own entry ends the previous page
		}
		if !q.Sort.Match(e.sk) {
			return false // the range is contiguous: past its end
		}
		if keep != nil {
			// DynamoDB counts an entry against the budget whether or not
			// the filter keeps it; the page may fill on the entry that
			// spends the budget, which then ends the page as a full one.
			spent = ev.Add(1)
			if !keep(e.v) {
				if spent {
					next, nextErr = ddb.EncodeCursor(q, t.cursorKey(e))
					return false
				}
				return true
			}
		}
		if len(out) == limit {
			// e follows the page, so there is a next page; it starts
			// after the page's last entry.
			next, nextErr = ddb.EncodeCursor(q, t.cursorKey(last))
			return false
		}
		out = append(out, e.v)
		last = e
		if spent {
			next, nextErr = ddb.EncodeCursor(q, t.cursorKey(e))
			return false
		}
		return true
	}
	if p := t.parts[q.PartitionValue]; p != nil {
		// One allocation for the page, not a doubling per few items: a
		// page holds at most limit items, and the partition's size bounds
		// it for a large limit.
		out = make([]T, 0, min(limit, p.Len()))
		switch {
		case from == nil && q.Descending:
			p.Descend(visit)
		case from == nil:
			p.Ascend(visit)
		case q.Descending:
			p.DescendLessOrEqual(*from, visit)
		default:
			p.AscendGreaterOrEqual(*from, visit)
		}
	}
	if len(out) == 0 {
		out = nil // as before the page was sized: nothing is nil
	}
	return out, next, nextErr
}

func sortValue(key ddb.Item, attr string) string {
	if s, ok := key[attr].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}
