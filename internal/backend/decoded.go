package backend

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// A Decoder turns the items of one kind into a domain's values. Reading
// through Decode, the memory backend decodes each item it stores once: its
// stored items are never changed in place (a write stores a new map), so
// the value decoded from one stays right for as long as it is stored, and
// later reads get a copy of it. Decoding was most of a memory store's page
// (issue 21: the fake must stay 100 times faster than DynamoDB Local,
// pages included). The DynamoDB backend's items are fresh on every read,
// and are decoded every time.
type Decoder[T any] struct {
	decode func(ddb.Table, ddb.Item) (T, error)
	clone  func(T) T
}

// NewDecoder returns the Decoder of decode, which must depend on nothing
// but the table and the item. clone copies what a caller could change in
// a decoded value and so in the one kept (slices, maps, pointers); it may
// be nil only when T holds none, which NewDecoder checks.
func NewDecoder[T any](decode func(ddb.Table, ddb.Item) (T, error), clone func(T) T) *Decoder[T] {
	if clone == nil && shares(reflect.TypeFor[T]()) {
		panic(fmt.Sprintf("backend: NewDecoder of %v, which holds references, without a clone function", reflect.TypeFor[T]()))
	}
	if clone == nil {
		clone = func(v T) T { return v }
	}
	return &Decoder[T]{decode: decode, clone: clone}
}

// Clone copies what a caller could change in v, a value d decoded: as a
// conv of QueryPageFunc, it makes the page QueryPage would.
func (d *Decoder[T]) Clone(v T) T { return d.clone(v) }

// Decode decodes item, read from table t of b, with d. On an error, the
// value is T's zero value.
func Decode[T any](b Backend, t ddb.Table, item ddb.Item, d *Decoder[T]) (T, error) {
	var s *slot
	if m, ok := b.(*Memory); ok && item != nil {
		s = m.slot(t, item) // nil for an item neither stored now nor decoded lately
	}
	return decodeIn(s, t, item, d)
}

// decodeIn decodes item with d, through slot s when it is not nil.
func decodeIn[T any](s *slot, t ddb.Table, item ddb.Item, d *Decoder[T]) (T, error) {
	v, err := viewIn(s, t, item, d)
	if err != nil || s == nil {
		return v, err // a value decoded here and now is the caller's own
	}
	return d.clone(v), nil
}

// viewIn is decodeIn without the copy: through a slot, the value is the
// one kept, which every later read of the item shares.
func viewIn[T any](s *slot, t ddb.Table, item ddb.Item, d *Decoder[T]) (T, error) {
	if s == nil {
		v, err := d.decode(t, item)
		if err != nil {
			var zero T
			return zero, err
		}
		return v, nil
	}
	if v, ok := s.find(d); ok {
		if v.err != nil {
			var zero T
			return zero, v.err
		}
		return v.v.(T), nil
	}
	v, err := d.decode(t, item)
	s.add(decoded{d: d, v: v, err: err})
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// stored is an item the memory backend holds: the map, which no write
// changes in place (a write stores a new one), and what Decode decoded
// from it. A table's entry and its index entries share it, so a page of
// either finds the decoded values without a lookup, and they go when the
// item does.
type stored struct {
	item  ddb.Item
	attrs string // a projection's attributes (see projection); "" for the item
	// ties holds the tie-breaker of each index's entry (by the table's
	// Indexes), "" before the item has one: a digest of the base key, the
	// same for every version of the item, so computed once (memtable.Tie).
	ties  []string
	slot  slot
	projs atomic.Pointer[[]*stored] // projections of item, each with its slot
}

// projectionKey is the key of attrs' projections (see projection),
// joined once for a call's every item.
func projectionKey(attrs []string) string { return strings.Join(attrs, "\x00") }

// projection is s's item projected on attrs, whose projectionKey is key,
// made once per list of attributes and kept, so that what Decode decodes
// from it is kept too.
func (s *stored) projection(attrs []string, key string) ddb.Item {
	if len(attrs) == 0 {
		return s.item
	}
	for {
		old := s.projs.Load()
		if old != nil {
			for _, p := range *old {
				if p.attrs == key {
					return p.item
				}
			}
		}
		p := &stored{item: project(s.item, attrs), attrs: key}
		var ps []*stored
		if old != nil {
			ps = append(ps, *old...)
		}
		ps = append(ps, p)
		if s.projs.CompareAndSwap(old, &ps) {
			return p.item
		}
	}
}

// slot holds what was decoded from one stored item, by each Decoder.
type slot struct{ vals atomic.Pointer[[]decoded] }

type decoded struct {
	d   any // the *Decoder[T]
	v   any // its T
	err error
}

func (s *slot) find(d any) (decoded, bool) {
	if vs := s.vals.Load(); vs != nil {
		for _, v := range *vs {
			if v.d == d {
				return v, true
			}
		}
	}
	return decoded{}, false
}

func (s *slot) add(v decoded) {
	for {
		old := s.vals.Load()
		var vs []decoded
		if old != nil {
			vs = append(vs, *old...)
		}
		vs = append(vs, v)
		if s.vals.CompareAndSwap(old, &vs) {
			return
		}
	}
}

// slot returns the slot of item if the table stores it now, or a
// projection of it BatchGetWith returned, nil otherwise. An item found is
// remembered in the table's slots, so that the next Decode of the same
// item (the next read of a page, of a thumbnail) finds it without a
// lookup; a cache per table keeps a map stored in two tables apart, as
// the lookup does.
func (m *Memory) slot(t ddb.Table, item ddb.Item) *slot {
	mt := m.tables[t.Name]
	if mt == nil {
		return nil
	}
	p := mapPointer(item)
	if s := mt.slots.find(p); s != nil {
		return &s.slot
	}
	pk, ok1 := Str(item, t.PartitionKey)
	sk, ok2 := Str(item, t.SortKey)
	if !ok1 || (t.SortKey != "" && !ok2) {
		return nil
	}
	m.mu.RLock()
	s := mt.entry(Key{PK: pk, SK: sk})
	m.mu.RUnlock()
	if s == nil {
		return nil
	}
	if mapPointer(s.item) != p {
		s = s.projectionOf(p)
		if s == nil {
			return nil
		}
	}
	mt.slots.add(p, s)
	return &s.slot
}

// projectionOf is s's projection whose item is at p, nil if none is.
func (s *stored) projectionOf(p unsafe.Pointer) *stored {
	if ps := s.projs.Load(); ps != nil {
		for _, proj := range *ps {
			if mapPointer(proj.item) == p {
				return proj
			}
		}
	}
	return nil
}

// slotCache remembers the stored versions (or projections) of one table
// whose items Decode decoded last, by the address of the item's map, in a
// direct-mapped table of slotCacheSize entries.
//
// An entry holds its stored version, and so its item, alive: no other
// map can have that address while the entry is there, so a match is that
// very item. The version may since have been replaced or deleted; what
// was decoded from it is still what it decodes to (a Decoder depends on
// nothing but the table and the item). Holding up to slotCacheSize such
// versions per table is the cost.
type slotCache [slotCacheSize]atomic.Pointer[stored]

const (
	slotCacheBits = 12
	slotCacheSize = 1 << slotCacheBits
)

// slotIndex spreads map addresses, which share their low bits (size
// classes) and high bits (arenas), over the cache (Fibonacci hashing).
func slotIndex(p unsafe.Pointer) uint64 {
	return (uint64(uintptr(p)) * 0x9E3779B97F4A7C15) >> (64 - slotCacheBits)
}

func (c *slotCache) find(p unsafe.Pointer) *stored {
	if s := c[slotIndex(p)].Load(); s != nil && mapPointer(s.item) == p {
		return s
	}
	return nil
}

func (c *slotCache) add(p unsafe.Pointer, s *stored) { c[slotIndex(p)].Store(s) }

// mapPointer is item's identity.
func mapPointer(item ddb.Item) unsafe.Pointer { return reflect.ValueOf(item).UnsafePointer() }

// shares reports whether values of t hold references a copy would share;
// time.Time's location is one nobody changes.
func shares(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return shares(t.Elem())
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() {
			return false
		}
		for i := range t.NumField() {
			if shares(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// ErrSkip, from a Decoder's decode, leaves an item out of a page without
// a word: an item of a kind the listing does not show (a newer writer's,
// say), where a corrupt item is reported.
var ErrSkip = errors.New("backend: not an item of this listing")

// DecodePage decodes a page's items with d, in order, into a page with
// cursor next. An item whose decode fails with ddbkit.ErrCorruptItem is
// left out and its error put in the page's Skipped; one that fails with
// ErrSkip is left out; any other error ends the page. wrap, when not nil,
// wraps each error DecodePage reports, Skipped's included (a domain's
// wrap, naming its operation).
func DecodePage[T any](b Backend, t ddb.Table, items []ddb.Item, next string, d *Decoder[T], wrap func(error) error) (ddbkit.Page[T], error) {
	return decodePage(len(items), next, func(i int) (T, error) { return Decode(b, t, items[i], d) }, wrap)
}

// QueryPage reads a page of q, as b.Query(ctx, q, limit, cursor, f) does,
// and decodes it as DecodePage does, wrapping the query's error with wrap
// too. The memory backend's page decodes from the entries its query
// walked, with no lookup of each item: a page then costs the same from
// the middle of 100,000 items as from the middle of 1,000 (issue 21's
// x-1k, target 1.1).
func QueryPage[T any](ctx context.Context, b Backend, q ddb.KeyQuery, limit int, cursor string, f Filter, d *Decoder[T], wrap func(error) error) (ddbkit.Page[T], error) {
	return QueryPageFunc(ctx, b, q, limit, cursor, f, d, d.Clone, wrap)
}

// QueryPageFunc is QueryPage with each decoded value passed through conv:
// the page holds what conv makes, with no page of T in between. conv
// sees the value d decoded, which on the memory backend is the one kept
// for every read of the item: it must copy what it keeps of the value's
// slices, maps and pointers, and change none of them (d.Clone is such a
// conv).
func QueryPageFunc[T, U any](ctx context.Context, b Backend, q ddb.KeyQuery, limit int, cursor string, f Filter, d *Decoder[T], conv func(T) U, wrap func(error) error) (ddbkit.Page[U], error) {
	if wrap == nil {
		wrap = func(err error) error { return err }
	}
	var (
		n      int
		next   string
		decode func(i int) (T, error)
	)
	if m, ok := b.(*Memory); ok {
		ss, nx, err := m.query(ctx, q, limit, cursor, f)
		if err != nil {
			return ddbkit.Page[U]{}, wrap(err)
		}
		n, next, decode = len(ss), nx, func(i int) (T, error) { return viewIn(&ss[i].slot, q.Table, ss[i].item, d) }
	} else {
		items, nx, err := b.Query(ctx, q, limit, cursor, f)
		if err != nil {
			return ddbkit.Page[U]{}, wrap(err)
		}
		n, next, decode = len(items), nx, func(i int) (T, error) { return viewIn(nil, q.Table, items[i], d) }
	}
	return decodePage(n, next, func(i int) (U, error) {
		v, err := decode(i)
		if err != nil {
			var zero U
			return zero, err
		}
		return conv(v), nil
	}, wrap)
}

// decodePage is DecodePage over n items, the i-th decoded by decode.
func decodePage[T any](n int, next string, decode func(i int) (T, error), wrap func(error) error) (ddbkit.Page[T], error) {
	if wrap == nil {
		wrap = func(err error) error { return err }
	}
	p := ddbkit.Page[T]{Items: make([]T, 0, n), Next: next}
	for i := range n {
		v, err := decode(i)
		switch {
		case err == nil:
			p.Items = append(p.Items, v)
		case errors.Is(err, ErrSkip):
		case errors.Is(err, ddbkit.ErrCorruptItem):
			p.Skipped = append(p.Skipped, wrap(err))
		default:
			return ddbkit.Page[T]{}, wrap(err)
		}
	}
	return p, nil
}
