package backendtest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// keyedOp is a create in the style of the domains': a fresh ID per call
// (so that a repeat writes other items), written with Create or, with tx
// set, in a transaction with a counter; Keyed records it under the
// caller's key. It returns the ID it created.
type keyedOp struct {
	h     *Harness
	n     atomic.Int64 // IDs made, and calls of the operation's body
	tx    bool
	now   time.Time
	twin  func(ctx context.Context) // run inside the body, before its write
	input string
}

func (o *keyedOp) keying() backend.Keying[string] {
	return backend.Keying[string]{
		Backend: o.h.Backend, Table: o.h.Main.Table, Scope: scope(o.h, "P"),
		Now:   func() time.Time { return o.now },
		Input: []any{o.input},
		Replay: func(ctx context.Context, ref backend.Key) (string, error) {
			it, err := o.h.Backend.Get(ctx, o.h.Main.Table, ref)
			if err != nil || it == nil {
				return "", errors.Join(err, errors.New("replay: no item"))
			}
			id, _ := backend.Str(it, "id")
			return id, nil
		},
	}
}

func (o *keyedOp) run(ctx context.Context) (string, error) {
	return backend.Keyed(ctx, o.keying(), func(ctx context.Context) (string, error) {
		id := o.input + strconv.FormatBool(o.tx) + "-" + strconv.FormatInt(o.n.Add(1), 10)
		if o.twin != nil {
			twin := o.twin
			o.twin = nil
			twin(ctx)
		}
		it := item(o.h.Main, "P", id, "id", id, "input", o.input)
		if !o.tx {
			return id, o.h.Backend.Create(ctx, scope(o.h, "P"), o.h.Main.Table, it)
		}
		var add backend.Change
		add.Add("n", 1)
		r := backend.NewRun(ctx, scope(o.h, "P"), ddb.Backoff{Attempts: 3})
		return id, o.h.Backend.Tx(ctx, r, []backend.Write{
			backend.PutNew("new", o.h.Main.Table, it),
			backend.Update("count", o.h.Main.Table, key("P", "counter"), add, backend.Cond{}),
		})
	})
}

// items returns the main table's items other than idempotency records,
// and the number of records.
func keyedItems(t *testing.T, h *Harness) (ids []string, records int) {
	for _, it := range h.Items(t, h.Main.Table) {
		pk, _ := backend.Str(it, h.Main.PartitionKey)
		if strings.HasPrefix(pk, backend.RecordPrefix) {
			records++
			continue
		}
		if id, ok := backend.Str(it, "id"); ok {
			ids = append(ids, id)
		}
	}
	return ids, records
}

var keyedCases = []testCase{
	{"no key runs every call", func(t *testing.T, h *Harness) {
		o := &keyedOp{h: h, now: start, input: "a"}
		for range 2 {
			if _, err := o.run(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		if ids, records := keyedItems(t, h); len(ids) != 2 || records != 0 {
			t.Errorf("after two calls without a key: items %v and %d records, want 2 items and no record", ids, records)
		}
	}},
	{"a repeat replays the first result", func(t *testing.T, h *Harness) {
		for _, tx := range []bool{false, true} {
			ctx := ddbkit.WithIdempotencyKey(t.Context(), "k-"+strconv.FormatBool(tx))
			o := &keyedOp{h: h, now: start, input: "a", tx: tx}
			first, err := o.run(ctx)
			must(t, err)
			// Another process: a new operation value, the same key and input.
			again := &keyedOp{h: h, now: start.Add(time.Hour), input: "a", tx: tx}
			again.n.Store(100)
			second, err := again.run(ctx)
			if err != nil || second != first {
				t.Errorf("tx %v: repeat = %q, %v; want the first call's %q, nil", tx, second, err, first)
			}
			if n := again.n.Load(); n != 100 {
				t.Errorf("tx %v: the repeat ran the operation (%d IDs made), want a replay", tx, n-100)
			}
		}
		if ids, records := keyedItems(t, h); len(ids) != 2 || records != 2 {
			t.Errorf("items %v and %d records, want one item and one record per key", ids, records)
		}
	}},
	{"other input under the same key", func(t *testing.T, h *Harness) {
		ctx := ddbkit.WithIdempotencyKey(t.Context(), "k")
		o := &keyedOp{h: h, now: start, input: "a"}
		_, err := o.run(ctx)
		must(t, err)
		before := snapshot(t, h)
		other := &keyedOp{h: h, now: start, input: "b"}
		_, err = other.run(ctx)
		if !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) || !errors.Is(err, ddbkit.ErrConflict) {
			t.Errorf("other input under the same key: %v, want ErrIdempotencyKeyReused (and ErrConflict)", err)
		}
		if n := other.n.Load(); n != 0 {
			t.Errorf("the refused call ran its operation %d times", n)
		}
		wantUnchanged(t, "a reused key", h, before)
	}},
	{"a repeat-safe operation runs again without the key", func(t *testing.T, h *Harness) {
		ctx := ddbkit.WithIdempotencyKey(t.Context(), "k")
		var keyed []bool
		k := backend.Keying[int]{Backend: h.Backend, Table: h.Main.Table, Scope: scope(h, "P"),
			Now: func() time.Time { return start }, Input: []any{"same"}}
		op := func(ctx context.Context) (int, error) {
			_, ok := ddb.RequestToken(ctx, scope(h, "P"))
			keyed = append(keyed, ok)
			// A save: a Put, safe to repeat, and no transaction.
			return len(keyed), h.Backend.Put(ctx, h.Main.Table, item(h.Main, "P", "saved", "v", 1), backend.Cond{})
		}
		for range 2 {
			if _, err := backend.Keyed(ctx, k, op); err != nil {
				t.Fatal(err)
			}
		}
		if len(keyed) != 2 || !keyed[0] || keyed[1] {
			t.Errorf("the operation ran under the key: %v, want [true false] (the repeat without it)", keyed)
		}
		k.Input = []any{"other"}
		if _, err := backend.Keyed(ctx, k, op); !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) {
			t.Errorf("a repeat-safe operation with other input: %v, want ErrIdempotencyKeyReused", err)
		}
		if _, records := keyedItems(t, h); records != 1 {
			t.Errorf("%d records, want 1", records)
		}
	}},
	{"a twin that committed first is replayed", func(t *testing.T, h *Harness) {
		for _, tx := range []bool{false, true} {
			ctx := ddbkit.WithIdempotencyKey(t.Context(), "twin-"+strconv.FormatBool(tx))
			var twinID string
			o := &keyedOp{h: h, now: start, input: "a", tx: tx}
			o.twin = func(context.Context) {
				// Another process with the same request commits between
				// this call's look for a record and its write.
				twin := &keyedOp{h: h, now: start, input: "a", tx: tx}
				twin.n.Store(50)
				var err error
				twinID, err = twin.run(ctx)
				must(t, err)
			}
			got, err := o.run(ctx)
			if err != nil || got != twinID {
				t.Errorf("tx %v: the call that lost = %q, %v; want the twin's %q, nil", tx, got, err, twinID)
			}
		}
		if ids, records := keyedItems(t, h); len(ids) != 2 || records != 2 {
			t.Errorf("items %v and %d records, want the twins' items only", ids, records)
		}
	}},
	{"a key past its window is a new request", func(t *testing.T, h *Harness) {
		if h.TokenWindow == 0 {
			// This DynamoDB keeps the key's ClientRequestToken longer than
			// the record's window: a new request under it is refused as a
			// token reuse, as DynamoDB does within its ten minutes.
			return
		}
		ctx := ddbkit.WithIdempotencyKey(t.Context(), "k")
		o := &keyedOp{h: h, now: start, input: "a"}
		first, err := o.run(ctx)
		must(t, err)
		later := start.Add(ddbkit.IdempotencyWindow + time.Second)
		h.setClock(later)
		o.now = later
		second, err := o.run(ctx)
		if err != nil || second == first {
			t.Errorf("past the window: %q, %v; want a new item (not %q), nil", second, err, first)
		}
		if ids, records := keyedItems(t, h); len(ids) != 2 || records != 1 {
			t.Errorf("items %v and %d records, want 2 items and the one record rewritten", ids, records)
		}
	}},
}
