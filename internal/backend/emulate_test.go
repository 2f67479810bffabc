package backend_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/backend/backendtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The suite holds under every emulation: a lag the harness declares, a
// throttle the retries absorb, and deletion of expired items later than
// the suite looks.
func TestMemoryEmulated(t *testing.T) {
	for _, c := range []struct {
		name string
		e    backend.Emulation
	}{
		{"gsi lag", backend.Emulation{GSILag: 1500 * time.Millisecond}},
		{"throttling", backend.Emulation{Throttle: backend.Every(4), Retry: ddb.Backoff{Attempts: 2}}},
		{"ttl deletion", backend.Emulation{DeleteExpired: true, ExpiryDelay: 2 * time.Hour}},
		{"call counting", backend.Emulation{Throttle: func(int) bool { return false }, Retry: ddb.Backoff{Attempts: countOnly}}},
		{"capacity admitting all", backend.Emulation{Capacity: admitAll{}}},
		{"capacity refusing", backend.Emulation{Capacity: &refuseFirst{seen: map[string]bool{}}, Retry: ddb.Backoff{Attempts: 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			backendtest.Run(t, func(t *testing.T) backendtest.Harness { return memoryHarness(t, &c.e) })
		})
	}
}

// admitAll is a capacity model that admits every call, after checking
// that the call names its operation and touches something.
type admitAll struct{}

func (admitAll) Admit(c ddbkit.CapacityCall) bool {
	if c.Op == "" || len(c.Reads)+len(c.Writes) == 0 {
		panic(fmt.Sprintf("capacity call %+v: no operation, or nothing read or written", c))
	}
	return true
}

// refuseFirst is a capacity model that refuses the first attempt of every
// call it has not seen (by operation and keys), and admits the retry: the
// throttled path of every primitive, whatever the cases run concurrently.
type refuseFirst struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (r *refuseFirst) Admit(c ddbkit.CapacityCall) bool {
	sig := c.Op
	for _, rd := range c.Reads {
		sig += "|" + rd.Table + "/" + rd.Index + ":" + ddb.KeyString(rd.Key)
	}
	for _, w := range c.Writes {
		sig += "|" + w.Table + ":" + ddb.KeyString(w.Key)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen[sig] {
		return true
	}
	r.seen[sig] = true
	return false
}

var t0 = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

func emulated(e backend.Emulation) (*backend.Memory, backend.Table, *clock) {
	main, _, _ := backendtest.Schema()
	c := &clock{now: t0}
	m := backend.NewMemory(c.read, main)
	m.Emulate(e)
	return m, main, c
}

func gitem(sk, gsk string, v int) ddb.Item {
	return ddb.Item{"pk": ddb.S("P"), "sk": ddb.S(sk), "gpk": ddb.S("G"), "gsk": ddb.S(gsk), "v": &types.AttributeValueMemberN{Value: fmt.Sprint(v)}}
}

func TestGSILag(t *testing.T) {
	ctx := t.Context()
	m, main, c := emulated(backend.Emulation{GSILag: 2 * time.Second})
	index := func(limit int) []string {
		t.Helper()
		var out []string
		cursor := ""
		for {
			items, next, err := m.Query(ctx, ddb.KeyQuery{Table: main.Table, Index: backendtest.ByG, PartitionValue: "G"}, limit, cursor, backend.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				out = append(out, ddb.AttrString(it["sk"])+"/"+ddb.AttrString(it["gsk"])+"/"+ddb.AttrString(it["v"]))
			}
			if next == "" {
				return out
			}
			cursor = next
		}
	}
	at := func(d time.Duration) { c.set(t0.Add(d)) }
	want := func(what string, want ...string) {
		t.Helper()
		for _, limit := range []int{1, 2, 10} {
			if got := index(limit); !slices.Equal(got, want) {
				t.Errorf("%s, limit %d: index holds %q, want %q", what, limit, got, want)
			}
		}
	}
	a, b := "S1:a/S1:1", "S1:b/S1:2"
	must(t, m.Put(ctx, main.Table, gitem("a", "1", 1), backend.Cond{}))
	at(time.Second)
	must(t, m.Put(ctx, main.Table, gitem("b", "2", 1), backend.Cond{}))
	if got, err := m.Get(ctx, main.Table, backend.Key{PK: "P", SK: "b"}); err != nil || got == nil {
		t.Errorf("Get of a fresh write = %v, %v: the table is consistent at once", got, err)
	}
	want("at once", []string{}...)
	at(1999 * time.Millisecond)
	want("just before a's lag ends")
	at(2 * time.Second)
	want("when a's lag ends", a+"/N1:1")
	at(3 * time.Second)
	want("when b's lag ends", a+"/N1:1", b+"/N1:1")

	var ch backend.Change
	ch.Set("gsk", ddb.S("3"))
	ch.Add("v", 1)
	_, err := m.Update(ctx, main.Table, backend.Key{PK: "P", SK: "a"}, ch, backend.Cond{})
	must(t, err)
	at(4 * time.Second)
	want("a second after a moved: the old version", a+"/N1:1", b+"/N1:1")
	at(5 * time.Second)
	want("once a's move shows", b+"/N1:1", "S1:a/S1:3/N1:2")

	must(t, m.Remove(ctx, main.Table, backend.Key{PK: "P", SK: "b"}))
	at(6 * time.Second)
	want("a second after b's delete", b+"/N1:1", "S1:a/S1:3/N1:2")
	at(7 * time.Second)
	want("once b's delete shows", "S1:a/S1:3/N1:2")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestThrottle(t *testing.T) {
	ctx := t.Context()
	var calls []int
	throttled := map[int]bool{}
	seen := 0
	m, main, _ := emulated(backend.Emulation{
		Throttle: func(n int) bool { calls = append(calls, n); return throttled[n] },
		Retry:    ddb.Backoff{Attempts: 3},
	})
	k := backend.Key{PK: "P", SK: "a"}
	var ch backend.Change
	ch.Add("v", 1)
	for _, c := range []struct {
		name  string
		calls int
		call  func() error
	}{
		{"Put", 1, func() error { return m.Put(ctx, main.Table, gitem("a", "1", 1), backend.Cond{}) }},
		{"Get", 1, func() error { _, err := m.Get(ctx, main.Table, k); return err }},
		{"BatchGet of 150 keys", 2, func() error {
			ks := make([]backend.Key, 150)
			for i := range ks {
				ks[i] = backend.Key{PK: "P", SK: fmt.Sprint(i)}
			}
			_, err := m.BatchGet(ctx, main.Table, ks)
			return err
		}},
		{"Query", 1, func() error {
			_, _, err := m.Query(ctx, ddb.KeyQuery{Table: main.Table, PartitionValue: "P"}, 10, "", backend.Filter{})
			return err
		}},
		{"Update", 1, func() error { _, err := m.Update(ctx, main.Table, k, ch, backend.Cond{}); return err }},
		{"Create", 1, func() error { return m.Create(ctx, ddb.Scope{}, main.Table, gitem("c", "1", 1)) }},
		{"BatchWrite of 30", 2, func() error {
			var puts []ddb.Item
			for i := range 30 {
				puts = append(puts, gitem(fmt.Sprint("w", i), "1", 1))
			}
			return m.BatchWrite(ctx, main.Table, puts, nil)
		}},
		{"Tx", 1, func() error {
			r := backend.NewRun(ctx, ddb.Scope{}, ddb.Backoff{Attempts: 3})
			return m.Tx(ctx, r, []backend.Write{backend.Update("a", main.Table, k, ch, backend.Cond{})})
		}},
		{"Remove", 2, func() error { return m.Remove(ctx, main.Table, backend.Key{PK: "P", SK: "c"}) }},
		{"RemoveRead", 1, func() error { return m.RemoveRead(ctx, main.Table, backend.Key{PK: "P", SK: "w0"}) }},
	} {
		// The first call throttled: retried, one call more than the
		// DynamoDB backend makes.
		throttled[seen+1] = true
		calls = nil
		if err := c.call(); err != nil {
			t.Errorf("%s with its first call throttled: %v", c.name, err)
		}
		seen += len(calls)
		if len(calls) != c.calls+1 {
			t.Errorf("%s with its first call throttled made %d calls, want %d", c.name, len(calls), c.calls+1)
		}
	}
	// Every call throttled: each primitive gives up after its attempts,
	// with DynamoDB's error, classified ErrUnavailable, writing nothing.
	before := m.Export(main.Name)
	m.Emulate(backend.Emulation{Throttle: func(n int) bool { calls = append(calls, n); return true }, Retry: ddb.Backoff{Attempts: 3}})
	for _, c := range []struct {
		name  string
		calls int
		call  func() error
	}{
		{"Put", 3, func() error { return m.Put(ctx, main.Table, gitem("z", "1", 1), backend.Cond{}) }},
		{"Get", 3, func() error { _, err := m.Get(ctx, main.Table, k); return err }},
		{"Update", 3, func() error { _, err := m.Update(ctx, main.Table, k, ch, backend.Cond{}); return err }},
		{"Remove", 3, func() error { return m.Remove(ctx, main.Table, k) }},
		{"BatchWrite", 3, func() error { return m.BatchWrite(ctx, main.Table, []ddb.Item{gitem("z", "1", 1)}, nil) }},
		{"RMW of 5 attempts", 5, func() error {
			builds := 0
			err := backend.RMW(ctx, ddb.Backoff{Attempts: 5}, ddb.Scope{}, func(r *backend.Run) error {
				builds++
				return m.Tx(ctx, r, []backend.Write{backend.Update("a", main.Table, k, ch, backend.Cond{})})
			})
			if builds != 1 {
				t.Errorf("RMW under throttling: %d builds, want 1", builds)
			}
			return err
		}},
	} {
		calls = nil
		err := c.call()
		var pte *types.ProvisionedThroughputExceededException
		if !errors.Is(ddb.Classify(err), ddbkit.ErrUnavailable) || !errors.As(err, &pte) {
			t.Errorf("%s under endless throttling: %v, want ErrUnavailable wrapping a ProvisionedThroughputExceededException", c.name, err)
		}
		if len(calls) != c.calls {
			t.Errorf("%s under endless throttling made %d calls, want %d", c.name, len(calls), c.calls)
		}
	}
	// What is refused before any call spends none.
	calls = nil
	_, _, err := m.Query(ctx, ddb.KeyQuery{Table: main.Table, PartitionValue: "P"}, 10, "not a cursor", backend.Filter{})
	if !errors.Is(ddb.Classify(err), ddbkit.ErrInvalidCursor) || len(calls) != 0 {
		t.Errorf("Query with a bad cursor under endless throttling: %v after %d calls, want ErrInvalidCursor after none", err, len(calls))
	}
	err = m.Tx(ctx, backend.NewRun(ctx, ddb.Scope{}, ddb.Backoff{Attempts: 3}), nil)
	if !errors.Is(ddb.Classify(err), ddbkit.ErrInvalidArgument) || len(calls) != 0 {
		t.Errorf("an empty Tx under endless throttling: %v after %d calls, want ErrInvalidArgument after none", err, len(calls))
	}
	m.Emulate(backend.Emulation{})
	if got := m.Export(main.Name); len(got) != len(before) {
		t.Errorf("writes under endless throttling: %d items, want %d", len(got), len(before))
	}
}

func TestTTLDeletion(t *testing.T) {
	ctx := t.Context()
	_, _, ttlT := backendtest.Schema()
	main, _, _ := backendtest.Schema()
	ttlT.Indexes = []ddb.Index{backendtest.ByG}
	c := &clock{now: t0}
	m := backend.NewMemory(c.read, main, ttlT)
	exp := func(sk string, at time.Time) ddb.Item {
		return ddb.Item{"pk": ddb.S("P"), "sk": ddb.S(sk), "gpk": ddb.S("G"), "gsk": ddb.S(sk),
			"exp": &types.AttributeValueMemberN{Value: fmt.Sprint(at.Unix())}}
	}
	ancient := t0.Add(-6 * 365 * 24 * time.Hour)
	for _, it := range []ddb.Item{exp("a", t0.Add(time.Minute)), exp("b", t0.Add(2*time.Minute)), exp("old", ancient),
		{"pk": ddb.S("P"), "sk": ddb.S("s"), "exp": ddb.S("1")}} {
		must(t, m.Put(ctx, ttlT.Table, it, backend.Cond{}))
	}
	// Turned on over items already stored.
	m.Emulate(backend.Emulation{DeleteExpired: true, ExpiryDelay: time.Hour})
	stored := func() []string {
		var out []string
		for _, it := range m.Export(ttlT.Name) {
			out = append(out, it["sk"].(*types.AttributeValueMemberS).Value)
		}
		return out
	}
	wantStored := func(what string, want ...string) {
		t.Helper()
		if got := stored(); !slices.Equal(got, want) {
			t.Errorf("%s: stored %q, want %q", what, got, want)
		}
	}
	at := func(d time.Duration) { c.set(t0.Add(d)) }
	at(time.Hour)
	wantStored("before any deletion is due", "a", "b", "old", "s")
	// Expired, not yet deleted: conditions see it, as on DynamoDB.
	err := m.Create(ctx, ddb.Scope{}, ttlT.Table, exp("a", t0.Add(10*time.Hour)))
	if _, ok := backend.Failed(err, ""); !ok {
		t.Errorf("Create over an expired item not yet deleted: %v, want a failed condition", err)
	}
	// b is rewritten to expire later: its first expiry passes it by.
	must(t, m.Put(ctx, ttlT.Table, exp("b", t0.Add(3*time.Hour)), backend.Cond{}))
	at(time.Hour + time.Minute)
	wantStored("when a's deletion is due", "b", "old", "s")
	items, _, err := m.Query(ctx, ddb.KeyQuery{Table: ttlT.Table, Index: backendtest.ByG, PartitionValue: "G"}, 10, "", backend.Filter{})
	must(t, err)
	if len(items) != 1 {
		t.Errorf("index after a's deletion: %d items, want b alone (old is expired)", len(items))
	}
	must(t, m.Create(ctx, ddb.Scope{}, ttlT.Table, exp("a", t0.Add(10*time.Hour))))
	at(3*time.Hour + time.Hour - time.Second)
	wantStored("just before b's deletion", "a", "b", "old", "s")
	at(4 * time.Hour)
	wantStored("at b's deletion; never an item over five years past its TTL, nor one without a Number", "a", "old", "s")
}

// TestOnWrite checks that the write hook sees every change of a write
// primitive, in commit order, and not Import.
func TestOnWrite(t *testing.T) {
	tb := backend.Table{Table: ddb.Table{Name: "hooked", PartitionKey: "pk", SortKey: "sk"}}
	m := backend.NewMemory(nil, tb)
	var got []string
	m.OnWrite(func(table string, old, new ddb.Item) {
		s := table + ":"
		if old != nil {
			s += "old"
		}
		s += "->"
		if new != nil {
			s += "new"
		}
		got = append(got, s)
	})
	ctx := t.Context()
	k := backend.Key{PK: "P", SK: "a"}
	if err := m.Import("hooked", []ddb.Item{tb.Key("P", "z")}); err != nil {
		t.Fatal(err)
	}
	if err := m.Put(ctx, tb.Table, tb.Key("P", "a"), backend.Cond{}); err != nil {
		t.Fatal(err)
	}
	var u backend.Change
	u.Set("v", &types.AttributeValueMemberS{Value: "x"})
	if _, err := m.Update(ctx, tb.Table, k, u, backend.Exists(nil)); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(ctx, tb.Table, k); err != nil {
		t.Fatal(err)
	}
	want := []string{"hooked:->new", "hooked:old->new", "hooked:old->"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("hook saw %v, want %v", got, want)
	}
}
