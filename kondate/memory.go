package kondate

import (
	"context"
	"maps"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

// MemoryStore is an in-memory Store for tests. It keeps the very items the
// DynamoDB store writes, under the same keys, with GSI1, GSI2 and GSI3
// beside them (kept whatever the options enable, as DynamoDB would
// backfill them), and
// pages with the same cursors, so it returns the same results, errors,
// order and page boundaries; the conformance suite (package kondatetest)
// holds both to that. It is safe for concurrent use: one lock makes every
// primitive, a transaction included, atomic.
//
// It keeps the DynamoDB store's other promises too: under a cancelled or
// expired context it returns the same error (ErrUnavailable, matching the
// context's error) and writes nothing, and the operations that send one
// transaction on DynamoDB (ApplySet, PromoteNextPlan, DeleteFridgeItem,
// RestoreFridgeItem, Publish, Unpublish, SaveCatalogEntry,
// UnsaveCatalogEntry, RecalculatePopularity) and every create honour an
// idempotency key (ddbkit.WithIdempotencyKey) as DynamoDB honours the
// ClientRequestToken made from it, scoped the same way; an item already at
// a create's key is ErrAlreadyExists unless that token replays the same
// write, whatever the item holds. Unlike DynamoDB's, its GSIs are consistent at once.
type MemoryStore struct {
	*core
	m *memoryBackend
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	t := o.table()
	m := &memoryBackend{o: o, t: t, items: memtable.New[ddb.Item](), gsis: map[string]*memtable.Table[ddb.Item]{},
		pks: map[string]int{}}
	for _, ix := range indexes {
		m.gsis[ix.Name] = memtable.New[ddb.Item]()
	}
	return &MemoryStore{core: &core{o: o, t: t, b: m}, m: m}
}

// memoryBackend is the backend of MemoryStore. Stored items are never
// changed in place: a write stores a new map.
type memoryBackend struct {
	o Options
	t ddb.Table

	mu     sync.RWMutex
	items  *memtable.Table[ddb.Item]
	gsis   map[string]*memtable.Table[ddb.Item] // every index, enabled or not: DynamoDB would backfill it
	tokens memtable.Tokens
	pks    map[string]int // the number of items under each partition key, for Export
}

// live is the check every primitive makes before touching the table,
// where the DynamoDB store makes its call.
func live(ctx context.Context) error { return ctx.Err() }

func str(item ddb.Item, attr string) (string, bool) {
	s, ok := item[attr].(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return s.Value, true
}

func (m *memoryBackend) lookup(k itemKey) ddb.Item {
	item, _ := m.items.Get(k.pk, k.sk)
	return item
}

// indexes are the seed's three GSIs.
var indexes = []ddb.Index{IndexGSI1, IndexGSI2, IndexGSI3}

// gsiKey is the key of item's entry in ix, ok false if it has none.
func gsiKey(ix ddb.Index, item ddb.Item) (pk, sk string, key ddb.Item, ok bool) {
	pk, ok1 := str(item, ix.PartitionKey)
	sk, ok2 := str(item, ix.SortKey)
	if !ok1 || !ok2 {
		return "", "", nil, false
	}
	key = ddb.Item{AttrPK: item[AttrPK], AttrSK: item[AttrSK], ix.PartitionKey: item[ix.PartitionKey], ix.SortKey: item[ix.SortKey]}
	return pk, sk, key, true
}

// store writes item, replacing the item at its key, and keeps the indexes
// in step.
func (m *memoryBackend) store(item ddb.Item) {
	pk, _ := str(item, AttrPK)
	sk, _ := str(item, AttrSK)
	m.drop(itemKey{pk, sk})
	m.items.Put(pk, sk, m.t.KeyOf(item), item)
	m.pks[pk]++
	for _, ix := range indexes {
		if gpk, gsk, gkey, ok := gsiKey(ix, item); ok {
			m.gsis[ix.Name].Put(gpk, gsk, gkey, item)
		}
	}
}

// drop deletes the item at k and its index entries, reporting whether it
// existed.
func (m *memoryBackend) drop(k itemKey) bool {
	old := m.lookup(k)
	if old == nil {
		return false
	}
	for _, ix := range indexes {
		if gpk, gsk, gkey, ok := gsiKey(ix, old); ok {
			m.gsis[ix.Name].Delete(gpk, gsk, gkey)
		}
	}
	if m.pks[k.pk]--; m.pks[k.pk] <= 0 {
		delete(m.pks, k.pk)
	}
	return m.items.Delete(k.pk, k.sk, k.item(m.t))
}

func keyOf(item ddb.Item) itemKey {
	pk, _ := str(item, AttrPK)
	sk, _ := str(item, AttrSK)
	return itemKey{pk, sk}
}

// holds reports whether item exists and has want's values, as DynamoDB's
// condition (see unchanged) does.
func holds(item, want ddb.Item) bool {
	if item == nil {
		return false
	}
	for n, v := range want {
		got, ok := item[n]
		if !ok || ddb.AttrString(got) != ddb.AttrString(v) {
			return false
		}
	}
	return true
}

func (m *memoryBackend) get(ctx context.Context, k itemKey) (ddb.Item, error) {
	if err := live(ctx); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.lookup(k), nil
}

func (m *memoryBackend) query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, f *listFilter) ([]ddb.Item, string, error) {
	// A bad cursor is reported before an ended context, as DynamoStore
	// reports it; under a live context, Query decodes the cursor, once.
	if err := live(ctx); err != nil {
		if _, cerr := ddb.DecodeCursor(q, cursor); cerr != nil {
			return nil, "", cerr
		}
		return nil, "", err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	t := m.items
	if q.Index.Name != "" {
		t = m.gsis[q.Index.Name]
	}
	var keep func(ddb.Item) bool
	if f != nil {
		keep = f.keeps
	}
	return t.Query(q, limit, cursor, keep)
}

// create is a one-item transaction, as DynamoStore's create (ddb.PutNew)
// is: an existing item fails the condition, whatever it holds, unless the
// scoped idempotency key's token replays this very write.
func (m *memoryBackend) create(ctx context.Context, s ddb.Scope, item ddb.Item) error {
	return m.apply(ctx, s, []write{{kind: writePutNew, item: item}})
}

func (m *memoryBackend) put(ctx context.Context, item ddb.Item) error {
	if err := live(ctx); err != nil {
		return err
	}
	if err := fits(item); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.store(item)
	return nil
}

func (m *memoryBackend) update(ctx context.Context, k itemKey, u change, mustExist bool) (ddb.Item, error) {
	if err := live(ctx); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.lookup(k)
	if old == nil && mustExist {
		return nil, &condError{}
	}
	item := maps.Clone(old)
	if item == nil {
		item = k.item(m.t)
	}
	for _, s := range u.set {
		if _, ok := item[s.name]; ok && s.ifNotExists {
			continue
		}
		item[s.name] = s.value
	}
	if err := fits(item); err != nil {
		return nil, err
	}
	m.store(item)
	return item, nil
}

func (m *memoryBackend) remove(ctx context.Context, k itemKey) error {
	if err := live(ctx); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.drop(k) {
		return &condError{}
	}
	return nil
}

func (m *memoryBackend) removeRead(ctx context.Context, k itemKey) error { return m.remove(ctx, k) }

// tx spends one of r's attempts, as DynamoStore's first call does, and
// applies ws.
func (m *memoryBackend) tx(ctx context.Context, r *txRun, ws []write) error {
	r.left--
	return m.apply(ctx, r.s, ws)
}

// apply applies ws atomically under the token DynamoStore sends for scope
// s: a caller's idempotency key makes the same token (ddbkit.RequestToken
// over the same table, operation and partition), and memtable.Tokens
// answers a repeat as DynamoDB does.
func (m *memoryBackend) apply(ctx context.Context, s ddb.Scope, ws []write) error {
	if err := live(ctx); err != nil {
		return err
	}
	for _, w := range ws {
		if err := fits(w.item); err != nil {
			return err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	token, keyed := ddbkit.RequestToken(ctx, s.Table, s.Op, s.Partition)
	// The clock is read only under a key, so that both stores read it as
	// often: a step clock then gives both the same times.
	var now time.Time
	desc := ""
	if keyed {
		now, desc = m.o.now(), describe(ws)
		replay, err := m.tokens.Check(token, desc, now)
		if err != nil || replay {
			return err
		}
	}
	for _, w := range ws {
		switch w.kind {
		case writePutNew:
			if old := m.lookup(keyOf(w.item)); old != nil {
				return &condError{label: w.label, old: old}
			}
		case writeDelete, writeCheck:
			if old := m.lookup(w.key); !holds(old, w.want) {
				return &condError{label: w.label, old: old}
			}
		case writeReplace:
			if old := m.lookup(keyOf(w.item)); !holds(old, w.want) {
				return &condError{label: w.label, old: old}
			}
		}
	}
	for _, w := range ws {
		switch w.kind {
		case writePutNew, writePut, writeReplace:
			m.store(w.item)
		case writeDelete, writeRemove:
			m.drop(w.key)
		}
	}
	if keyed {
		m.tokens.Commit(token, desc, now)
	}
	return nil
}

// describe renders a transaction's writes exactly, for the token check.
func describe(ws []write) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.label)
		b.WriteByte(byte('0' + w.kind))
		b.WriteString(render(w.item))
		b.WriteString(w.key.pk + "\x00" + w.key.sk)
		b.WriteString(render(w.want))
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
