package backend

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// Memory is the memory Backend: ordered in-memory tables (package
// memtable) holding the very items the DynamoDB backend writes, under the
// same keys, with every GSI beside them, and paging with the same cursors.
// One lock makes every primitive, a transaction included, atomic; stored
// items are never changed in place (a write stores a new map), so a read
// may hand them out without copying. It stores an item as DynamoDB reads
// it back (a Number attribute in canonical form, see canonNumber) and
// refuses, with DynamoDB's ValidationException and writing nothing, what
// DynamoDB refuses: a key attribute missing, empty or not a String, an
// index key attribute empty or not a String, a change to a key attribute,
// a Number DynamoDB cannot hold, an empty set or one holding a member
// twice, an item over 400 KB. Index entries with equal sort keys come in
// DynamoDB Local's order (a digest of the base key, see memtable), so that
// pages and cursors match DynamoDB Local's exactly; DynamoDB documents no
// such order, and callers must not rely on one. Unlike DynamoDB's, its
// GSIs are consistent at once, no call is throttled and no expired item is
// ever deleted, unless Emulate turns on what DynamoDB Local hides.
type Memory struct {
	// tokenClock times the emulated ClientRequestToken window: wall time
	// by default, as DynamoDB's window runs in real time, so that a
	// keyed write reads no store clock, as on DynamoDB (see
	// SetTokenClock). A write that carries an idempotency record (Keyed)
	// is timed by the record's time instead: the store's clock, read once
	// for the record.
	tokenClock Clock
	clock      Clock
	tables     map[string]*memTable
	emu        *emulator // nil: no emulation

	mu     sync.RWMutex
	tokens memtable.Tokens
}

type memTable struct {
	t     Table
	items *memtable.Table[*stored]
	gsis  map[string]*memtable.Table[*stored] // sharing items' entries
	pks   map[string]int                      // items under each partition key, for Export
	emu   *emuTable                           // nil: no emulation
	// onWrite, when set, sees every item a write primitive changes (see
	// Memory.OnWrite); Import leaves it out.
	onWrite func(table string, old, new ddb.Item)
	slots   slotCache // see Memory.slot
}

var _ Backend = (*Memory)(nil)

// NewMemory returns an empty memory backend serving ts, reading clock for
// TTL and emulation (time.Now when nil); its token window runs on wall
// time (see SetTokenClock).
func NewMemory(clock Clock, ts ...Table) *Memory {
	m := &Memory{clock: clock, tables: make(map[string]*memTable, len(ts))}
	for _, t := range ts {
		mt := &memTable{t: t, items: memtable.New[*stored](t.Table, ddb.Index{}), gsis: map[string]*memtable.Table[*stored]{}, pks: map[string]int{}}
		// Entries hold their stored item, which gives a page's cursor key:
		// a write builds no key map (store).
		mt.items.SetKeyOf(func(s *stored) ddb.Item { return t.KeyOf(s.item) })
		for _, ix := range t.Indexes {
			// Each index orders its ties as DynamoDB Local does, which
			// depends on which base key attributes its key holds.
			gsi := memtable.New[*stored](t.Table, ix)
			gsi.SetKeyOf(func(s *stored) ddb.Item {
				_, _, key, _ := mt.gsiKey(ix, s.item)
				return key
			})
			mt.gsis[ix.Name] = gsi
		}
		m.tables[t.Name] = mt
	}
	return m
}

// live is the check every primitive makes before touching the table,
// where the DynamoDB backend makes its call.
func live(ctx context.Context) error { return ctx.Err() }

// table returns the table named t.Name, or DynamoDB's error for a table
// that does not exist.
func (m *Memory) table(t ddb.Table) (*memTable, error) {
	mt := m.tables[t.Name]
	if mt == nil {
		return nil, &types.ResourceNotFoundException{Message: ptr(fmt.Sprintf("Requested resource not found: table %q", t.Name))}
	}
	m.expire(mt)
	return mt, nil
}

func ptr[T any](v T) *T { return &v }

func (mt *memTable) lookup(k Key) ddb.Item {
	if s := mt.entry(k); s != nil {
		return s.item
	}
	return nil
}

// entry is the stored item at k, nil if there is none.
func (mt *memTable) entry(k Key) *stored {
	s, _ := mt.items.Get(k.PK, k.SK)
	return s
}

// gsiKey is the key of item's entry in ix, ok false if it has none.
func (mt *memTable) gsiKey(ix ddb.Index, item ddb.Item) (pk, sk string, key ddb.Item, ok bool) {
	if pk, sk, ok = gsiPos(ix, item); !ok {
		return "", "", nil, false
	}
	key = mt.t.KeyOf(item)
	key[ix.PartitionKey] = item[ix.PartitionKey]
	if ix.SortKey != "" {
		key[ix.SortKey] = item[ix.SortKey]
	}
	return pk, sk, key, true
}

// gsiPos is the partition and sort key of item's entry in ix, ok false
// if it has none.
func gsiPos(ix ddb.Index, item ddb.Item) (pk, sk string, ok bool) {
	pk, ok1 := Str(item, ix.PartitionKey)
	sk, ok2 := Str(item, ix.SortKey)
	return pk, sk, ok1 && (ix.SortKey == "" || ok2)
}

// store writes item, replacing the item at its key, and keeps the indexes
// in step.
func (mt *memTable) store(item ddb.Item) {
	k := KeyOf(mt.t.Table, item)
	var old ddb.Item
	s := &stored{item: item}
	if e := mt.entry(k); e != nil {
		// A new version replaces the entries of the old one in place
		// (Put replaces the entry of its key): only an index entry
		// that moves is taken out first.
		old, s.ties = e.item, e.ties
		for i, ix := range mt.t.Indexes {
			if gpk, gsk, ok := gsiPos(ix, old); ok {
				if npk, nsk, stays := gsiPos(ix, item); !stays || npk != gpk || nsk != gsk {
					mt.gsis[ix.Name].DeleteTie(gpk, gsk, e.ties[i]) // store gave it a tie
				}
			}
		}
	} else {
		mt.pks[k.PK]++
	}
	mt.items.Put(k.PK, k.SK, nil, s) // its key from s (NewMemory)
	cloned := false
	for i, ix := range mt.t.Indexes {
		if gpk, gsk, ok := gsiPos(ix, item); ok {
			gsi := mt.gsis[ix.Name]
			if s.ties == nil || s.ties[i] == "" {
				// The first entry of this base key in ix: its tie is
				// kept for the item's later versions, which share it
				// (earlier versions keep their own slice). A tie is a
				// digest of the base key, which the item holds.
				if !cloned {
					s.ties, cloned = slices.Clone(s.ties), true
					if s.ties == nil {
						s.ties = make([]string, len(mt.t.Indexes))
					}
				}
				s.ties[i] = gsi.Tie(item)
			}
			gsi.PutTie(gpk, gsk, s.ties[i], nil, s)
		}
	}
	mt.wrote(old, item)
	if mt.onWrite != nil {
		mt.onWrite(mt.t.Name, old, item)
	}
}

// drop deletes the item at k and its index entries, reporting whether it
// existed.
func (mt *memTable) drop(k Key) bool {
	e := mt.unlink(k)
	if e == nil {
		return false
	}
	mt.wrote(e.item, nil)
	if mt.onWrite != nil {
		mt.onWrite(mt.t.Name, e.item, nil)
	}
	return true
}

// unlink takes the item at k, if any, out of the table and its indexes,
// and returns its entry.
func (mt *memTable) unlink(k Key) *stored {
	e := mt.entry(k)
	if e == nil {
		return nil
	}
	for i, ix := range mt.t.Indexes {
		if gpk, gsk, ok := gsiPos(ix, e.item); ok {
			mt.gsis[ix.Name].DeleteTie(gpk, gsk, e.ties[i]) // store gave it a tie
		}
	}
	if mt.pks[k.PK]--; mt.pks[k.PK] <= 0 {
		delete(mt.pks, k.PK)
	}
	mt.items.Delete(k.PK, k.SK, nil) // a base table's entries have no tie
	return e
}

// partitions returns the table's partition keys, in order.
func (mt *memTable) partitions() []string { return slices.Sorted(maps.Keys(mt.pks)) }

// visible is item as a read sees it: nil when its TTL has passed.
func (m *Memory) visible(mt *memTable, item ddb.Item, now int64) ddb.Item {
	if item == nil || mt.t.TTL == "" || Unexpired(mt.t.TTL, now).Keeps(item) {
		return item
	}
	return nil
}

// readNow reads the clock for a read of mt when, and only when, the
// DynamoDB backend does: once per read of a table with a TTL.
func (m *Memory) readNow(mt *memTable) int64 {
	if mt.t.TTL == "" {
		return 0
	}
	return m.clock.now().Unix()
}

// Get implements Backend.Get.
func (m *Memory) Get(ctx context.Context, t ddb.Table, k Key) (ddb.Item, error) {
	return m.get(ctx, t, k, true)
}

// get is Get, strongly consistent or not (as a capacity model prices it).
func (m *Memory) get(ctx context.Context, t ddb.Table, k Key, consistent bool) (ddb.Item, error) {
	if err := live(ctx); err != nil {
		return nil, err
	}
	mt, err := m.table(t)
	if err != nil {
		return nil, err
	}
	if err := mt.checkKey(k); err != nil {
		return nil, err
	}
	op := obs.From(ctx)
	var c ddbkit.CapacityCall
	if m.judging(op) {
		c, err = m.passJudged(ctx, nil, func() ddbkit.CapacityCall { return readCall(t, k, m.peek(mt, k), consistent) })
	} else {
		err = m.pass(ctx, nil)
	}
	if err != nil {
		return nil, err
	}
	m.consume(op, c)
	now := m.readNow(mt)
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.visible(mt, mt.lookup(k), now), nil
}

// peek returns the item at k of mt, as stored (expired or not), for a
// capacity model's price.
func (m *Memory) peek(mt *memTable, k Key) ddb.Item {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return mt.lookup(k)
}

// BatchGet implements Backend.BatchGet.
func (m *Memory) BatchGet(ctx context.Context, t ddb.Table, ks []Key) ([]ddb.Item, error) {
	return m.BatchGetWith(ctx, t, ks, ReadOptions{})
}

// GetEventual implements Backend.GetEventual: the memory table is
// consistent at once, so it is Get (priced as an eventual read).
func (m *Memory) GetEventual(ctx context.Context, t ddb.Table, k Key) (ddb.Item, error) {
	return m.get(ctx, t, k, false)
}

// BatchGetWith implements Backend.BatchGetWith. A projection leaves out
// the attributes it does not name, as DynamoDB's does.
func (m *Memory) BatchGetWith(ctx context.Context, t ddb.Table, ks []Key, o ReadOptions) ([]ddb.Item, error) {
	if err := checkRead(t, o); err != nil {
		return nil, err
	}
	if err := live(ctx); err != nil {
		return nil, err
	}
	if len(ks) == 0 {
		return nil, nil // no call
	}
	mt, err := m.table(t)
	if err != nil {
		return nil, err
	}
	uniq := make(map[Key]bool, len(ks))
	for _, k := range ks {
		if err := mt.checkKey(k); err != nil {
			return nil, err
		}
		uniq[k] = true
	}
	chunk := o.ChunkSize
	if chunk == 0 {
		chunk = ddb.MaxBatchGet
	}
	if m.judging(obs.From(ctx)) {
		err = m.judgeBatchGet(ctx, mt, t, ks, chunk, !o.Eventual)
	} else {
		err = m.passN(ctx, (len(uniq)+chunk-1)/chunk)
	}
	if err != nil {
		return nil, err
	}
	now := m.readNow(mt)
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]ddb.Item, len(ks))
	proj := projectionKey(o.Attrs)
	for i, k := range ks {
		s := mt.entry(k)
		if s == nil || m.visible(mt, s.item, now) == nil {
			continue
		}
		out[i] = s.projection(o.Attrs, proj)
	}
	return out, nil
}

// judgeBatchGet passes the BatchGetItem calls of ks (chunk keys each,
// once per key) through the capacity model, each judged on what it reads.
func (m *Memory) judgeBatchGet(ctx context.Context, mt *memTable, t ddb.Table, ks []Key, chunk int, consistent bool) error {
	seen := make(map[Key]bool, len(ks))
	var reads []ddbkit.CapacityRead
	flush := func() error {
		if len(reads) == 0 {
			return nil
		}
		c := ddbkit.CapacityCall{Op: "BatchGetItem", Reads: reads}
		reads = nil
		c, err := m.passJudged(ctx, nil, func() ddbkit.CapacityCall {
			for i, r := range c.Reads {
				c.Reads[i].Size = ddb.ItemSize(m.peek(mt, KeyOf(t, r.Key)))
			}
			return c
		})
		if err == nil {
			m.consume(obs.From(ctx), c)
		}
		return err
	}
	for _, k := range ks {
		if seen[k] {
			continue
		}
		seen[k] = true
		reads = append(reads, ddbkit.CapacityRead{Table: t.Name, Key: k.Item(t), Consistent: consistent})
		if len(reads) == chunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// Query implements Backend.Query.
func (m *Memory) Query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, f Filter) ([]ddb.Item, string, error) {
	ss, next, err := m.query(ctx, q, limit, cursor, f)
	if err != nil {
		return nil, "", err
	}
	var items []ddb.Item
	if ss != nil {
		items = make([]ddb.Item, len(ss))
		for i, s := range ss {
			items[i] = s.item
		}
	}
	return items, next, nil
}

// query is Query returning the entries of the items it reads, which
// carry what Decode made of them (see QueryPage).
func (m *Memory) query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, f Filter) ([]*stored, string, error) {
	mt, err := m.table(q.Table)
	if err != nil {
		return nil, "", err
	}
	q.Filter = binding(mt.t, f)
	// A bad cursor is reported before an ended context, as the DynamoDB
	// backend reports it; under a live context, Query decodes the
	// cursor, once.
	if err := live(ctx); err != nil {
		if _, cerr := ddb.DecodeCursor(q, cursor); cerr != nil {
			return nil, "", cerr
		}
		return nil, "", err
	}
	judged := m.capacity()
	if m.emu != nil && (m.emu.e.Throttle != nil || judged) {
		// What the DynamoDB backend refuses before any call spends none.
		if limit < 1 {
			return nil, "", ddbkit.Invalid("limit", "must be at least 1, got %d", limit)
		}
		if _, err := ddb.DecodeCursor(q, cursor); err != nil {
			return nil, "", err
		}
		if !judged {
			if err := m.pass(ctx, nil); err != nil {
				return nil, "", err
			}
		}
	}
	if mt.t.TTL != "" {
		f = And(f, Unexpired(mt.t.TTL, m.clock.now().Unix()))
	}
	var now time.Time
	lag := q.Index.Name != "" && m.emu != nil && m.emu.e.GSILag > 0
	if lag {
		now = m.clock.now()
	}
	op := obs.From(ctx)
	// The first Query's attempt is recorded where an emulation passed it.
	counted := m.emu != nil && (m.emu.e.Throttle != nil || judged)
	if !judged {
		out, next, err := m.queryLocked(mt, q, limit, cursor, f, lag, now, nil)
		if err == nil && op != nil {
			m.queryCalls(op, mt, q, limit, cursor, f, lag, now, counted)
		}
		return out, next, err
	}
	// The capacity model prices the page on what it evaluated, so the
	// Query runs first, and again when the model refuses it.
	var (
		out  []*stored
		next string
	)
	err = m.attempt(ctx, nil, func() error {
		size := 0
		var err error
		if out, next, err = m.queryLocked(mt, q, limit, cursor, f, lag, now, &size); err != nil {
			return err
		}
		pk := q.Table.PartitionKey
		if q.Index.Name != "" {
			pk = q.Index.PartitionKey
		}
		return m.judge(ddbkit.CapacityCall{Op: "Query", Reads: []ddbkit.CapacityRead{{Table: q.Table.Name, Index: q.Index.Name,
			Key: ddb.Item{pk: ddb.S(q.PartitionValue)}, Size: size, Consistent: q.ConsistentRead}}})
	})
	if err == nil && op != nil {
		m.queryCalls(op, mt, q, limit, cursor, f, lag, now, counted)
	}
	return out, next, err
}

// queryLocked reads q's page under m's read lock. size, when not nil,
// adds up the bytes of the items the page evaluated, filtered out or not.
func (m *Memory) queryLocked(mt *memTable, q ddb.KeyQuery, limit int, cursor string, f Filter, lag bool, now time.Time, size *int) ([]*stored, string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	src, err := mt.source(q, lag, now)
	if err != nil {
		return nil, "", err
	}
	var keep func(*stored) bool
	if !f.IsZero() {
		keep = func(s *stored) bool { return f.Keeps(s.item) }
		if size != nil {
			keep = func(s *stored) bool { *size += ddb.ItemSize(s.item); return f.Keeps(s.item) }
		}
	}
	out, next, err := src.Query(q, limit, cursor, keep)
	if size != nil && keep == nil {
		for _, s := range out {
			*size += ddb.ItemSize(s.item)
		}
	}
	return out, next, err
}

// source is the table or index q reads, under m's read lock.
func (mt *memTable) source(q ddb.KeyQuery, lag bool, now time.Time) (*memtable.Table[*stored], error) {
	if q.Index.Name == "" {
		return mt.items, nil
	}
	src := mt.gsis[q.Index.Name]
	if src == nil {
		return nil, &types.ResourceNotFoundException{Message: ptr(fmt.Sprintf("Requested resource not found: index %q of table %q", q.Index.Name, q.Table.Name))}
	}
	if lag {
		src = mt.lagged(q.Index, q.PartitionValue, now)
	}
	return src, nil
}

// queryCalls records on op the Query calls the DynamoDB backend makes for
// the page of q from cursor (ddb.QueryPage), walking the table as they
// do: each with its Limit, evaluating that many items (a filtered one
// goes on until the page is full, the partition ends or the budget is
// spent, and DynamoDB returns a LastEvaluatedKey whenever a call reached
// its Limit), priced on the bytes it evaluated. The first call's attempt
// is already recorded when counted.
func (m *Memory) queryCalls(op *obs.Op, mt *memTable, q ddb.KeyQuery, limit int, cursor string, f Filter, lag bool, now time.Time, counted bool) {
	start, err := ddb.DecodeCursor(q, cursor)
	if err != nil {
		return
	}
	// The walk's own cursors, bound to a listing of their own.
	walk := q
	walk.Filter = "\x00calls"
	at := ""
	if start != nil {
		if at, err = ddb.EncodeCursor(walk, start); err != nil {
			return
		}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	src, err := mt.source(q, lag, now)
	if err != nil {
		return
	}
	filtered := !f.IsZero()
	ev := ddb.NewEvaluated(q)
	if filtered {
		op.Budget(ev.Left())
	}
	kept := 0
	for first := true; ; first = false {
		n := limit + 1 - kept
		if filtered {
			if !first {
				n = max(n, ddb.MinFollowUp)
			}
			n = min(n, ev.Left())
		}
		got, _, err := src.Query(walk, n, at, nil)
		if err != nil {
			return
		}
		size := 0
		for _, s := range got {
			size += ddb.ItemSize(s.item)
			if !filtered || f.Keeps(s.item) {
				kept++
			}
		}
		if !first || !counted {
			op.Attempt(false)
		}
		op.Evaluated(len(got))
		op.Consumed(q.Table.Name, readUnits(size, q.ConsistentRead && q.Index.Name == ""), 0)
		if !filtered || kept > limit || len(got) < n || ev.Add(len(got)) {
			return
		}
		if at, err = ddb.EncodeCursor(walk, walk.CursorKey(got[len(got)-1].item)); err != nil {
			return
		}
	}
}

// binding is what q.Filter binds into cursors: f, and whether TTL filters
// the table (never the time, which moves between pages).
func binding(t Table, f Filter) string {
	b := f.binding()
	if t.TTL != "" {
		b += "\x00ttl"
	}
	return b
}

// Create implements Backend.Create: a one-item transaction, as the
// DynamoDB backend's Create is.
func (m *Memory) Create(ctx context.Context, s ddb.Scope, t ddb.Table, item ddb.Item) error {
	ws, recorded := withRecord(ctx, []Write{PutNew("", t, item)})
	return recorded(m.apply(ctx, s, ws, nil))
}

// Put implements Backend.Put.
func (m *Memory) Put(ctx context.Context, t ddb.Table, item ddb.Item, c Cond) error {
	if err := live(ctx); err != nil {
		return err
	}
	mt, err := m.table(t)
	if err != nil {
		return err
	}
	item, err = mt.admit(item)
	if err != nil {
		return err
	}
	op := obs.From(ctx)
	var call ddbkit.CapacityCall
	if m.judging(op) {
		call, err = m.passJudged(ctx, nil, func() ddbkit.CapacityCall {
			k := KeyOf(t, item)
			old := m.peek(mt, k)
			if !c.holds(old) {
				return writeCall("PutItem", t, k, old, old)
			}
			return writeCall("PutItem", t, k, old, item)
		})
	} else {
		err = m.pass(ctx, nil)
	}
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old := mt.lookup(KeyOf(t, item)); !c.holds(old) {
		return failure(t, "", c, old)
	}
	m.beginWrite()
	mt.store(item)
	m.consume(op, call)
	return nil
}

// Update implements Backend.Update.
func (m *Memory) Update(ctx context.Context, t ddb.Table, k Key, u Change, c Cond) (ddb.Item, error) {
	if err := checkChange(u); err != nil {
		return nil, err
	}
	if err := live(ctx); err != nil {
		return nil, err
	}
	mt, err := m.table(t)
	if err != nil {
		return nil, err
	}
	if err := mt.checkKey(k); err != nil {
		return nil, err
	}
	if err := checkChangeKeys(t, u); err != nil {
		return nil, err
	}
	op := obs.From(ctx)
	var call ddbkit.CapacityCall
	if m.judging(op) {
		call, err = m.passJudged(ctx, nil, func() ddbkit.CapacityCall {
			old := m.peek(mt, k)
			if !c.holds(old) {
				return writeCall("UpdateItem", t, k, old, old)
			}
			item, err := applyChange(mt.t.Table, k, old, u)
			if err != nil {
				item = old // refused below, under the lock
			}
			return writeCall("UpdateItem", t, k, old, item)
		})
	} else {
		err = m.pass(ctx, nil)
	}
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old := mt.lookup(k)
	if !c.holds(old) {
		return nil, failure(t, "", c, old)
	}
	item, err := applyChange(mt.t.Table, k, old, u)
	if err != nil {
		return nil, err
	}
	if item, err = mt.admit(item); err != nil {
		return nil, err
	}
	m.beginWrite()
	mt.store(item)
	m.consume(op, call)
	return item, nil
}

// applyChange returns old (or, when nil, k's key attributes) with u
// applied, as a new map.
func applyChange(t ddb.Table, k Key, old ddb.Item, u Change) (ddb.Item, error) {
	item := maps.Clone(old)
	if item == nil {
		item = k.Item(t)
	}
	for _, o := range u.ops {
		switch o.kind {
		case changeSet:
			item[o.name] = o.value
		case changeSetOnce:
			if _, ok := item[o.name]; !ok {
				item[o.name] = o.value
			}
		case changeRemove:
			delete(item, o.name)
		case changeDelete:
			cur, ok := item[o.name]
			if !ok {
				continue
			}
			have, gone := setMembers(cur), setMembers(o.value)
			if have == nil || gone == nil || typeName(cur) != typeName(o.value) {
				return nil, validation("An operand in the update expression has an incorrect data type")
			}
			members, typ := setOf(cur)
			var keep []string
			for _, m := range members {
				if !gone[memberKey(typ, m)] {
					keep = append(keep, m)
				}
			}
			switch {
			case len(keep) == 0:
				delete(item, o.name)
			case typ == "S":
				item[o.name] = &types.AttributeValueMemberSS{Value: keep}
			default:
				item[o.name] = &types.AttributeValueMemberNS{Value: keep}
			}
		case changeAdd:
			sum, err := add(item[o.name], o.value.(*types.AttributeValueMemberN).Value)
			if err != nil {
				return nil, err
			}
			item[o.name] = sum
		}
	}
	return item, nil
}

// add is DynamoDB's ADD on a Number: a missing attribute counts as 0, any
// other type is a ValidationException.
func add(cur types.AttributeValue, by string) (types.AttributeValue, error) {
	n, isN := cur.(*types.AttributeValueMemberN)
	if cur == nil || isN {
		// Integers, the common case, without big.Rat's allocations.
		var x int64
		var err error
		if isN {
			x, err = strconv.ParseInt(n.Value, 10, 64)
		}
		if y, yerr := strconv.ParseInt(by, 10, 64); err == nil && yerr == nil {
			if sum := x + y; (sum > x) == (y > 0) || y == 0 {
				return &types.AttributeValueMemberN{Value: strconv.FormatInt(sum, 10)}, nil
			}
		}
	}
	x := new(big.Rat)
	if cur != nil {
		n, ok := cur.(*types.AttributeValueMemberN)
		if !ok {
			return nil, validation("An operand in the update expression has an incorrect data type")
		}
		if _, ok := x.SetString(n.Value); !ok {
			return nil, validation("An operand in the update expression has an incorrect data type")
		}
	}
	y, _ := new(big.Rat).SetString(by)
	x.Add(x, y)
	if x.IsInt() {
		return &types.AttributeValueMemberN{Value: x.Num().String()}, nil
	}
	return &types.AttributeValueMemberN{Value: strings.TrimRight(strings.TrimRight(x.FloatString(38), "0"), ".")}, nil
}

// validation is the error DynamoDB answers a request it refuses with.
func validation(msg string) error {
	return &smithy.GenericAPIError{Code: "ValidationException", Message: msg}
}

// Remove implements Backend.Remove. Like the DynamoDB backend's, which
// reads the item first, it finds no item where its TTL has passed.
func (m *Memory) Remove(ctx context.Context, t ddb.Table, k Key) error {
	return m.remove(ctx, t, k, true, false)
}

// RemoveRead implements Backend.RemoveRead: a delete whose condition is
// the item's existence, which an item whose TTL has passed but which is
// not yet deleted meets, as on DynamoDB.
func (m *Memory) RemoveRead(ctx context.Context, t ddb.Table, k Key) error {
	return m.remove(ctx, t, k, false, false)
}

// Delete implements Backend.Delete: a missing item is no error.
func (m *Memory) Delete(ctx context.Context, t ddb.Table, k Key) error {
	err := m.remove(ctx, t, k, false, true)
	if _, missing := Failed(err, ""); missing {
		return nil
	}
	return err
}

// remove deletes the item at k, after reading it first when read; a
// missing item is a *CondError, which an unconditional delete (Delete)
// turns into success, consuming capacity as DynamoDB's DeleteItem of
// nothing does.
func (m *Memory) remove(ctx context.Context, t ddb.Table, k Key, read, unconditional bool) error {
	if err := live(ctx); err != nil {
		return err
	}
	mt, err := m.table(t)
	if err != nil {
		return err
	}
	if err := mt.checkKey(k); err != nil {
		return err
	}
	var now int64
	op := obs.From(ctx)
	judging := m.judging(op)
	if read {
		if judging {
			var c ddbkit.CapacityCall
			c, err = m.passJudged(ctx, nil, func() ddbkit.CapacityCall { return readCall(t, k, m.peek(mt, k), true) })
			m.consume(op, c)
		} else {
			err = m.pass(ctx, nil)
		}
		if err != nil {
			return err
		}
		now = m.readNow(mt)
	}
	var call ddbkit.CapacityCall
	switch {
	case judging && read && m.visible(mt, m.peek(mt, k), now) == nil:
		// The DynamoDB backend's read found nothing: it deletes nothing.
	case judging:
		call, err = m.passJudged(ctx, nil, func() ddbkit.CapacityCall { return writeCall("DeleteItem", t, k, m.peek(mt, k), nil) })
	default:
		err = m.pass(ctx, nil)
	}
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if read && m.visible(mt, mt.lookup(k), now) == nil {
		return &CondError{}
	}
	m.beginWrite()
	if !mt.drop(k) {
		if unconditional {
			m.consume(op, call)
		}
		return &CondError{}
	}
	m.consume(op, call)
	return nil
}

// BatchWrite implements Backend.BatchWrite. Like DynamoDB's, it is not
// atomic: it applies one call's worth (ddb.MaxBatchWrite writes) at a
// time, so a concurrent reader may see some of the writes before the
// others.
func (m *Memory) BatchWrite(ctx context.Context, t ddb.Table, puts []ddb.Item, deletes []Key) error {
	if err := live(ctx); err != nil {
		return err
	}
	if len(puts)+len(deletes) == 0 {
		return nil // no call
	}
	// What the DynamoDB backend checks before any call.
	seen := make(map[Key]bool, len(puts)+len(deletes))
	type req struct {
		item ddb.Item
		del  Key
	}
	reqs := make([]req, 0, len(puts)+len(deletes))
	for _, item := range puts {
		reqs = append(reqs, req{item: item})
	}
	for _, k := range deletes {
		reqs = append(reqs, req{del: k})
	}
	for _, r := range reqs {
		k := r.del
		if r.item != nil {
			k = KeyOf(t, r.item)
		}
		if seen[k] {
			return fmt.Errorf("%w: batch write touches key %s twice", ddbkit.ErrInvalidArgument, ddb.KeyString(k.Item(t)))
		}
		seen[k] = true
	}
	mt, err := m.table(t)
	if err != nil {
		return err
	}
	// Then what each call checks, DynamoDB refusing a call whole: a bad
	// write fails its call and those after it, and leaves the earlier
	// calls' writes applied.
	for len(reqs) > 0 {
		n := min(len(reqs), ddb.MaxBatchWrite)
		if err := live(ctx); err != nil {
			return err
		}
		chunk := reqs[:n]
		for i, r := range chunk {
			if r.item == nil {
				if err := mt.checkKey(r.del); err != nil {
					return err
				}
				continue
			}
			item, err := mt.admit(r.item)
			if err != nil {
				return err
			}
			chunk[i].item = item
		}
		var call ddbkit.CapacityCall
		if op := obs.From(ctx); m.judging(op) {
			call, err = m.passJudged(ctx, nil, func() ddbkit.CapacityCall {
				c := ddbkit.CapacityCall{Op: "BatchWriteItem", Writes: make([]ddbkit.CapacityWrite, len(chunk))}
				for i, r := range chunk {
					k := r.del
					if r.item != nil {
						k = KeyOf(t, r.item)
					}
					c.Writes[i] = ddbkit.CapacityWrite{Table: t.Name, Key: k.Item(t), Old: m.peek(mt, k), New: r.item}
				}
				return c
			})
		} else {
			err = m.pass(ctx, nil)
		}
		if err != nil {
			return err
		}
		m.mu.Lock()
		m.beginWrite()
		for _, r := range chunk {
			if r.item != nil {
				mt.store(r.item)
			} else {
				mt.drop(r.del)
			}
		}
		m.mu.Unlock()
		m.consume(obs.From(ctx), call)
		reqs = reqs[n:]
	}
	return nil
}

// Tx implements Backend.Tx: it spends one of r's attempts, as the
// DynamoDB backend's first call does (more when throttling is emulated),
// and applies ws.
func (m *Memory) Tx(ctx context.Context, r *Run, ws []Write) error {
	ws, recorded := withRecord(ctx, ws)
	if err := checkWrites(ws); err != nil {
		return recorded(err)
	}
	return recorded(m.apply(ctx, r.Scope, ws, r))
}

// apply applies ws atomically under the token the DynamoDB backend sends
// for scope s: a caller's idempotency key makes the same token
// (ddb.RequestToken over the same table, operation and partition), and
// memtable.Tokens answers a repeat as DynamoDB does.
func (m *Memory) apply(ctx context.Context, s ddb.Scope, ws []Write, r *Run) error {
	if err := live(ctx); err != nil {
		return err
	}
	mts := make([]*memTable, len(ws))
	items := make([]ddb.Item, len(ws)) // puts as stored, then updates as written
	for i, w := range ws {
		mt, err := m.table(w.Table)
		if err != nil {
			return err
		}
		mts[i] = mt
		if w.kind == writePut {
			if items[i], err = mt.admit(w.item); err != nil {
				return err
			}
		} else if err := mt.checkKey(w.key); err != nil {
			return err
		}
		if err := checkChangeKeys(w.Table, w.change); err != nil {
			return err
		}
	}
	var left *int
	if r != nil {
		left = &r.left
	}
	var err error
	op := obs.From(ctx)
	var call ddbkit.CapacityCall
	if m.judging(op) {
		call, err = m.passJudged(ctx, left, func() ddbkit.CapacityCall { return m.txCall(mts, ws, items) })
	} else {
		err = m.pass(ctx, left)
	}
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	token, keyed := ddb.RequestToken(ctx, s)
	if r != nil {
		token, keyed = r.token, r.keyed
	}
	// The clock is read only under a key, so that both backends read it
	// as often: a step clock then gives both the same times.
	var now time.Time
	desc := ""
	if keyed {
		if now = recordTime(ctx); now.IsZero() {
			now = m.tokenClock.now()
		}
		desc = describe(ws)
		replay, err := m.tokens.Check(token, desc, now)
		if err != nil || replay {
			return err
		}
	}
	for i, w := range ws {
		k := w.keyOf()
		old := mts[i].lookup(k)
		if !w.cond.holds(old) {
			return failure(w.Table, w.Label, w.cond, old)
		}
		if w.kind == writeUpdate {
			item, err := applyChange(w.Table, k, old, w.change)
			if err != nil {
				return err
			}
			if items[i], err = mts[i].admit(item); err != nil {
				return err
			}
		}
	}
	m.beginWrite()
	for i, w := range ws {
		switch w.kind {
		case writePut, writeUpdate:
			mts[i].store(items[i])
		case writeDelete:
			mts[i].drop(w.key)
		}
	}
	if keyed {
		m.tokens.Commit(token, desc, now)
	}
	m.consumeTx(op, call, ws)
	return nil
}

// txCall is the TransactWriteItems of ws as a capacity model prices it,
// on the items as they are: every write, the ones after a failed condition
// included (DynamoDB prices a cancelled transaction's writes too); a
// failed condition, a check and a delete of nothing leave the item as it
// was. items holds the puts as stored.
func (m *Memory) txCall(mts []*memTable, ws []Write, items []ddb.Item) ddbkit.CapacityCall {
	c := ddbkit.CapacityCall{Op: "TransactWriteItems", Writes: make([]ddbkit.CapacityWrite, len(ws))}
	for i, w := range ws {
		k := w.keyOf()
		old := m.peek(mts[i], k)
		var new ddb.Item
		switch {
		case !w.cond.holds(old), w.kind == writeCheck:
			new = old
		case w.kind == writePut:
			new = items[i]
		case w.kind == writeUpdate:
			var err error
			if new, err = applyChange(w.Table, k, old, w.change); err != nil {
				new = old // refused under the lock
			}
		}
		c.Writes[i] = ddbkit.CapacityWrite{Table: w.Table.Name, Key: k.Item(w.Table), Old: old, New: new}
	}
	return c
}

// describe renders a transaction's writes exactly, for the token check.
func describe(ws []Write) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.Label + "\x00" + w.Table.Name + "\x00")
		b.WriteByte(byte('0' + w.kind))
		b.WriteString(render(w.item))
		b.WriteString(w.key.PK + "\x00" + w.key.SK)
		b.WriteByte(byte('0' + w.cond.kind))
		b.WriteString(render(w.cond.want))
		if !w.cond.where.IsZero() {
			b.WriteString(w.cond.where.binding())
		}
		for _, o := range w.change.ops {
			b.WriteString(string(rune('0'+o.kind)) + o.name + "=")
			if o.value != nil {
				b.WriteString(ddb.AttrString(o.value))
			}
			b.WriteByte(';')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func render(item ddb.Item) string {
	names := make([]string, 0, len(item))
	for n := range item {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "=" + ddb.AttrString(item[n]) + ";")
	}
	return b.String()
}

// admit returns item as DynamoDB would store it (see canonNumber), or
// refuses it as DynamoDB does with a ValidationException: without its
// table's key, with a key attribute that is not a non-empty String, with
// an index key attribute that is not one, with a value DynamoDB refuses;
// or over 400 KB (see fits).
func (mt *memTable) admit(item ddb.Item) (ddb.Item, error) {
	item, err := normItem(item)
	if err != nil {
		return nil, err
	}
	return item, mt.check(item)
}

func (mt *memTable) check(item ddb.Item) error {
	for _, a := range [2]string{mt.t.PartitionKey, mt.t.SortKey} {
		if a == "" {
			continue
		}
		switch v := item[a].(type) {
		case nil:
			return validation("One or more parameter values were invalid: Missing the key " + a + " in the item")
		case *types.AttributeValueMemberS:
			if v.Value == "" {
				return validation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: " + a)
			}
		default:
			return validation("One or more parameter values were invalid: Type mismatch for key " + a + " expected: S actual: " + typeName(v))
		}
	}
	for _, ix := range mt.t.Indexes {
		for _, a := range [2]string{ix.PartitionKey, ix.SortKey} {
			v, ok := item[a]
			if a == "" || !ok || a == mt.t.PartitionKey || a == mt.t.SortKey {
				continue
			}
			s, isS := v.(*types.AttributeValueMemberS)
			switch {
			case !isS:
				return validation("One or more parameter values were invalid: Type mismatch for Index Key " + a + " Expected: S Actual: " + typeName(v) + " IndexName: " + ix.Name)
			case s.Value == "":
				return validation("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: " + ix.Name + ", IndexKey: " + a)
			}
		}
	}
	return fits(item)
}

// checkChangeKeys refuses, as DynamoDB does, a change to a key attribute.
func checkChangeKeys(t ddb.Table, u Change) error {
	for _, o := range u.ops {
		if o.name == t.PartitionKey || o.name == t.SortKey {
			return validation("One or more parameter values were invalid: Cannot update attribute " + o.name + ". This attribute is part of the key")
		}
	}
	return nil
}

// checkKey refuses, as DynamoDB does, a key with an empty value.
func (mt *memTable) checkKey(k Key) error {
	if k.PK == "" || (mt.t.SortKey != "" && k.SK == "") {
		return validation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value.")
	}
	return nil
}

// typeName is v's DynamoDB type, as DynamoDB's messages name it.
func typeName(v types.AttributeValue) string {
	switch v.(type) {
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberM:
		return "M"
	}
	return "?"
}

// fits refuses an item DynamoDB would refuse for its size. Domains check
// sizes before any call, with their own field names; this is the last
// guard, for what they let through.
func fits(item ddb.Item) error {
	if item == nil || ddb.ItemSize(item) <= ddb.MaxItemSize {
		return nil
	}
	return ddbkit.Invalid("item", "the item would be %d bytes, over DynamoDB's limit of %d bytes (400 KB); shorten its longest fields",
		ddb.ItemSize(item), ddb.MaxItemSize)
}

// Export returns every item of table name, in key order (by partition
// key, then sort key, byte by byte), as copies.
func (m *Memory) Export(name string) []ddb.Item {
	mt := m.tables[name]
	if mt == nil {
		return nil
	}
	m.expire(mt)
	m.mu.RLock()
	defer m.mu.RUnlock()
	items := []ddb.Item{}
	for _, pk := range mt.partitions() {
		for _, s := range mt.items.Partition(pk) {
			items = append(items, ddb.CloneItem(s.item))
		}
	}
	return items
}

// Import stores items in table name as they are, each replacing any item
// at its key, as PutItem would. The caller checks that its domain can read
// them; Import itself refuses, with ErrCorruptItem and before storing any,
// an item that no table could hold: a key attribute that is not a
// non-empty String, or a nil value anywhere (which would panic later).
func (m *Memory) Import(name string, items []ddb.Item) error {
	mt := m.tables[name]
	if mt == nil {
		return ddbkit.Invalid("table", "no table %q in this store", name)
	}
	for _, item := range items {
		if err := ddb.CheckAttrs(mt.t.Table, item); err != nil {
			return err
		}
		for _, a := range []string{mt.t.PartitionKey, mt.t.SortKey} {
			if v, ok := item[a].(*types.AttributeValueMemberS); a != "" && (!ok || v.Value == "") {
				return ddb.Corrupt(mt.t.Table, item, a, "want a non-empty String key attribute, got %s", ddb.AttrString(item[a]))
			}
		}
	}
	m.expire(mt)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.beginWrite()
	hook := mt.onWrite
	mt.onWrite = nil
	for _, item := range items {
		mt.store(ddb.CloneItem(item))
	}
	mt.onWrite = hook
	return nil
}

// SetTokenClock makes m time its emulated ClientRequestToken window
// (ten minutes, as DynamoDB's) with c instead of wall time, so that a
// test can move past the window. Set it before m is used.
func (m *Memory) SetTokenClock(c Clock) { m.tokenClock = c }

// OnWrite has fn called with each item a write primitive (or the TTL
// emulation's deletion) changes, as it was and as it is (nil for none),
// in commit order, under the backend's lock: what a DynamoDB stream with
// NEW_AND_OLD_IMAGES records. fn must not call the backend. Import is not
// reported. Set it before the backend is used.
func (m *Memory) OnWrite(fn func(table string, old, new ddb.Item)) {
	for name, mt := range m.tables {
		if fn == nil {
			mt.onWrite = nil
			continue
		}
		mt.onWrite = func(_ string, old, new ddb.Item) { fn(name, old, new) }
	}
}
