package backend

import (
	"container/heap"
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// Emulation is what the memory backend can emulate of DynamoDB beyond
// what DynamoDB Local shows, so that unit tests meet the behaviours a
// program must survive in production: late GSIs, throttling, and the TTL
// process deleting items. The zero Emulation, the default, emulates none.
// Everything it does is deterministic under the backend's clock and its
// sequence of calls.
type Emulation struct {
	// GSILag makes a Query of a GSI see the table as it was GSILag ago
	// by the backend's clock: it misses an item written less than GSILag
	// ago, sees the version before a more recent change, and still sees
	// an item deleted less than GSILag ago, as DynamoDB's eventually
	// consistent GSIs may. Zero: GSIs are consistent at once. With a lag,
	// the backend reads its clock once more per write and per index
	// Query.
	GSILag time.Duration

	// Throttle, when set, is asked before each call the DynamoDB backend
	// would make, with the call's number (from 1, counted per backend,
	// retries included); when it reports true, the call fails with
	// DynamoDB's *types.ProvisionedThroughputExceededException and
	// applies nothing. The backend retries it within Retry, as the
	// DynamoDB backend retries within its policy, and reports ErrUnavailable
	// once the attempts are spent. Every (n) throttles every nth call.
	//
	// Calls are counted as the DynamoDB backend makes them: one per Get,
	// Query page, Put, Update, RemoveRead, Create and transaction attempt
	// (a transaction's attempts come out of its Run's, as DynamoDB's do),
	// two per Remove (it reads first), one per 100 keys of a BatchGet and
	// per 25 writes of a BatchWrite.
	Throttle func(call int) bool
	// Retry paces the retries of throttled calls. The zero Backoff means
	// ddb.DefaultBackoff's attempts, without waiting.
	Retry ddb.Backoff

	// DeleteExpired makes the backend delete an item ExpiryDelay after the
	// time its TTL attribute holds, by the backend's clock, as DynamoDB's
	// TTL process does some time (up to days) after expiry. Reads hide an
	// expired item either way; deletion is what Export, conditions (which
	// see an expired item until it is deleted), Remove and GSIs see. Like
	// DynamoDB, it leaves alone an item whose TTL is more than five years
	// in the past. The backend reads its clock once more per call on a
	// table with a TTL.
	DeleteExpired bool
	ExpiryDelay   time.Duration

	// Capacity, when set, judges each call as the DynamoDB backend would
	// make it (see ddbkit.Emulation.Capacity): told what the call reads
	// and writes, it may refuse it, and the call then fails as a
	// throttled one, applies nothing, and is retried within Retry. A
	// call is judged on the items as they are just before it (a write's
	// old item, read under the lock, and the new one it would make), and
	// a Query or BatchGet on what it reads; a refused read is read again.
	Capacity ddbkit.CapacityModel
}

// Every returns a Throttle that throttles every nth call (n >= 1), as
// ddbkit.ThrottleEvery does.
func Every(n int) func(call int) bool {
	return func(call int) bool { return n > 0 && call%n == 0 }
}

// emulator is a Memory's emulation state.
type emulator struct {
	e     Emulation
	calls atomic.Int64
	at    time.Time // the time of the write under way, under Memory.mu (GSILag)
}

// emuTable is a table's emulation state, under Memory.mu.
type emuTable struct {
	em  *emulator
	log []gsiChange // writes of the last GSILag, oldest first
	due expiries
}

// gsiChange is one write of an item: old, new (nil: none) and when.
type gsiChange struct {
	at       time.Time
	old, new ddb.Item
}

// Emulate turns on e for m, replacing what an earlier call turned on.
// Call it before m serves any call: it is not safe to call concurrently
// with m's methods.
func (m *Memory) Emulate(e Emulation) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.GSILag <= 0 && e.Throttle == nil && !e.DeleteExpired && e.Capacity == nil {
		m.emu = nil
		for _, mt := range m.tables {
			mt.emu = nil
		}
		return
	}
	m.emu = &emulator{e: e}
	for _, mt := range m.tables {
		mt.emu = &emuTable{em: m.emu}
		if e.DeleteExpired && mt.t.TTL != "" {
			for _, pk := range mt.partitions() {
				for _, s := range mt.items.Partition(pk) {
					mt.emu.schedule(mt, s.item)
				}
			}
		}
	}
}

// throttleErr is DynamoDB's answer to a throttled call.
func throttleErr() error {
	return &types.ProvisionedThroughputExceededException{Message: ptr("The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API. (emulated)")}
}

// pass is one call the DynamoDB backend would make, under emulated
// throttling: it returns when the call may go through, or with
// ErrUnavailable once the retries are spent (or ctx's error). left, when
// not nil, is a transaction Run's calls left: each attempt spends one,
// and they bound the attempts.
func (m *Memory) pass(ctx context.Context, left *int) error {
	if m.emu == nil || m.emu.e.Throttle == nil {
		if left != nil {
			*left--
		}
		return nil
	}
	return m.attempt(ctx, left, nil)
}

// passJudged is pass for a call the capacity model judges, or whose
// price telemetry records (judging): each attempt that Throttle lets
// through is described by describe, under the lock it takes itself, and
// judged. It returns the description of the attempt that went through,
// for the caller to price once the call succeeded (consume). Callers
// branch on judging and call pass otherwise, so that a call with neither
// builds no describe closure.
func (m *Memory) passJudged(ctx context.Context, left *int, describe func() ddbkit.CapacityCall) (c ddbkit.CapacityCall, err error) {
	if m.emu == nil || (m.emu.e.Throttle == nil && m.emu.e.Capacity == nil) {
		if left != nil {
			*left--
		}
		obs.From(ctx).Attempt(false)
		return describe(), nil
	}
	err = m.attempt(ctx, left, func() error {
		c = describe()
		if m.capacity() {
			return m.judge(c)
		}
		return nil
	})
	return c, err
}

// judging reports whether a call's price is wanted: a capacity model
// judges it, or op (the recording telemetry of the call's method, see
// package obs) records it.
func (m *Memory) judging(op *obs.Op) bool { return op != nil || m.capacity() }

// attempt runs the attempts of one call within the emulation's Retry:
// each is throttled by Throttle, else runs fn (nil: nothing), which
// refuses it with throttleErr.
func (m *Memory) attempt(ctx context.Context, left *int, fn func() error) error {
	b := m.emu.e.Retry
	if b.Attempts <= 0 {
		b = ddb.Backoff{Attempts: ddb.DefaultBackoff.Attempts}
	}
	if left != nil {
		b.Attempts = max(*left, 1)
	}
	op := obs.From(ctx)
	return ddb.RetryIf(ctx, b, ddb.Throttled, func() error {
		if left != nil {
			*left--
		}
		if t := m.emu.e.Throttle; t != nil && t(int(m.emu.calls.Add(1))) {
			op.Attempt(true)
			return throttleErr()
		}
		var err error
		if fn != nil {
			err = fn()
		}
		op.Attempt(err != nil)
		return err
	})
}

// capacity reports whether a capacity model judges m's calls.
func (m *Memory) capacity() bool { return m.emu != nil && m.emu.e.Capacity != nil }

// judge asks the capacity model whether call c may go through: nil when
// it may, throttleErr when it refuses.
func (m *Memory) judge(c ddbkit.CapacityCall) error {
	if m.emu.e.Capacity.Admit(c) {
		return nil
	}
	return throttleErr()
}

// readCall is a GetItem of the item at k of t, item being what it finds.
func readCall(t ddb.Table, k Key, item ddb.Item, consistent bool) ddbkit.CapacityCall {
	return ddbkit.CapacityCall{Op: "GetItem", Reads: []ddbkit.CapacityRead{{Table: t.Name, Key: k.Item(t), Size: ddb.ItemSize(item), Consistent: consistent}}}
}

// writeCall is a single-item write op at k of t, of old to new.
func writeCall(op string, t ddb.Table, k Key, old, new ddb.Item) ddbkit.CapacityCall {
	return ddbkit.CapacityCall{Op: op, Writes: []ddbkit.CapacityWrite{{Table: t.Name, Key: k.Item(t), Old: old, New: new}}}
}

// passN is n calls (n >= 1).
func (m *Memory) passN(ctx context.Context, n int) error {
	for range max(n, 1) {
		if err := m.pass(ctx, nil); err != nil {
			return err
		}
	}
	return nil
}

// beginWrite stamps the write under way, under m.mu, when a GSI lag
// needs its time.
func (m *Memory) beginWrite() {
	if m.emu != nil && m.emu.e.GSILag > 0 {
		m.emu.at = m.clock.now()
	}
}

// wrote records that the item old (nil: none) became new (nil: deleted).
func (mt *memTable) wrote(old, new ddb.Item) {
	e := mt.emu
	if e == nil {
		return
	}
	if lag := e.em.e.GSILag; lag > 0 && len(mt.t.Indexes) > 0 {
		cut := e.em.at.Add(-lag)
		i := 0
		for i < len(e.log) && !e.log[i].at.After(cut) {
			i++
		}
		e.log = append(e.log[i:], gsiChange{at: e.em.at, old: old, new: new})
	}
	if new != nil && e.em.e.DeleteExpired && mt.t.TTL != "" {
		e.schedule(mt, new)
	}
}

// lagged is the partition part of index ix as it was GSILag before now:
// the index as it is, with the writes since undone, newest first.
func (mt *memTable) lagged(ix ddb.Index, part string, now time.Time) *memtable.Table[*stored] {
	src := mt.gsis[ix.Name]
	e := mt.emu
	cut := now.Add(-e.em.e.GSILag)
	first := len(e.log)
	for first > 0 && e.log[first-1].at.After(cut) {
		first--
	}
	if first == len(e.log) {
		return src
	}
	view := memtable.New[*stored](mt.t.Table, ix)
	for _, s := range src.Partition(part) {
		gpk, gsk, gkey, _ := mt.gsiKey(ix, s.item)
		view.Put(gpk, gsk, gkey, s)
	}
	for i := len(e.log) - 1; i >= first; i-- {
		c := e.log[i]
		if c.new != nil {
			if gpk, gsk, gkey, ok := mt.gsiKey(ix, c.new); ok && gpk == part {
				view.Delete(gpk, gsk, gkey)
			}
		}
		if c.old != nil {
			if gpk, gsk, gkey, ok := mt.gsiKey(ix, c.old); ok && gpk == part {
				view.Put(gpk, gsk, gkey, &stored{item: c.old})
			}
		}
	}
	return view
}

// expiry is when an item falls due for deletion.
type expiry struct {
	at  time.Time
	key Key
}

type expiries []expiry

func (h expiries) Len() int           { return len(h) }
func (h expiries) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h expiries) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiries) Push(x any)        { *h = append(*h, x.(expiry)) }
func (h *expiries) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// ttlOf is item's TTL as a time, ok false when it has none DynamoDB's TTL
// process acts on.
func ttlOf(attr string, item ddb.Item) (time.Time, bool) {
	n, ok := item[attr].(*types.AttributeValueMemberN)
	if !ok {
		return time.Time{}, false
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || f < 0 || f > 1<<40 {
		return time.Time{}, false
	}
	sec := int64(f)
	return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC(), true
}

// schedule queues item's deletion, if its TTL asks for one.
func (e *emuTable) schedule(mt *memTable, item ddb.Item) {
	if at, ok := ttlOf(mt.t.TTL, item); ok {
		heap.Push(&e.due, expiry{at: at.Add(e.em.e.ExpiryDelay), key: KeyOf(mt.t.Table, item)})
	}
}

// expire deletes, as DynamoDB's TTL process would have by now, the items
// of mt whose deletion is due.
func (m *Memory) expire(mt *memTable) {
	if mt.emu == nil || !m.emu.e.DeleteExpired || mt.t.TTL == "" {
		return
	}
	now := m.clock.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.emu.e.GSILag > 0 {
		m.emu.at = now
	}
	due := &mt.emu.due
	for due.Len() > 0 && !(*due)[0].at.After(now) {
		x := heap.Pop(due).(expiry)
		item := mt.lookup(x.key)
		if item == nil {
			continue
		}
		at, ok := ttlOf(mt.t.TTL, item)
		if !ok || at.Add(m.emu.e.ExpiryDelay).After(now) {
			continue // rewritten since: its own entry is queued
		}
		if now.Sub(at) > 5*365*24*time.Hour {
			continue // DynamoDB leaves items over five years past their TTL
		}
		mt.drop(x.key)
	}
}

// EmulationOf is a domain's public ddbkit.Emulation as the memory
// backend takes it, retrying throttled calls within retry (the store's
// retry policy).
func EmulationOf(e ddbkit.Emulation, retry ddb.Backoff) Emulation {
	return Emulation{GSILag: e.GSILag, Throttle: e.Throttle, Retry: retry, DeleteExpired: e.DeleteExpired, ExpiryDelay: e.ExpiryDelay, Capacity: e.Capacity}
}
