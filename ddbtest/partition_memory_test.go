package ddbtest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// newMemoryPartition returns the memory backend every domain's
// MemoryStore runs on, serving the fake's table "t" (pk, sk, and gsi1 on
// g), judged by a PartitionClient with no client (Admit), on a virtual
// clock with burst 0, without retries.
func newMemoryPartition(t *testing.T, optFns ...func(*ddbtest.PartitionOptions)) (*backend.Memory, *ddbtest.PartitionClient, *clock) {
	t.Helper()
	p, clk := newModel(nil, optFns...)
	m := backend.NewMemory(nil, backend.Table{Table: memT, Indexes: []ddb.Index{{Name: "gsi1", PartitionKey: "g"}}})
	m.Emulate(backend.EmulationOf(ddbkit.Emulation{Capacity: p}, ddb.Backoff{Attempts: 1}))
	return m, p, clk
}

var memT = ddb.Table{Name: "t", PartitionKey: "pk", SortKey: "sk"}

// TestPartitionMemory: the hand-computed cases of TestPartitionHotKey,
// TestPartitionHotItem and TestPartitionGSIBackPressure, on the memory
// backend judged through Admit (ddbkit.Emulation.Capacity), give the
// same counts and the same report as through the client; a refused write
// applies nothing.
func TestPartitionMemory(t *testing.T) {
	ctx := context.Background()
	put := func(m *backend.Memory, item func(i int) ddb.Item) func(int) error {
		return func(i int) error { return m.Put(ctx, memT, item(i), backend.Cond{}) }
	}
	t.Run("one key", func(t *testing.T) {
		m, p, clk := newMemoryPartition(t)
		got := drive(t, clk, 2000, 8000, put(m, func(i int) ddb.Item { return sized("room#0", fmt.Sprintf("c%05d", i), 1024) }))
		r := p.Report()
		if got != 4000 || r.Requests != 8000 || r.Throttled != 4000 {
			t.Errorf("throttled %d of 8000 writes, report %d requests, %d throttled; want 4000, 8000, 4000", got, r.Requests, r.Throttled)
		}
		if want := (ddbtest.PartitionUsage{Table: "t", Key: "room#0", Write: 4000, Throttled: 4000}); r.Partitions[0] != want {
			t.Errorf("hottest partition = %v, want %v", r.Partitions[0], want)
		}
		if n := len(m.Export("t")); n != 4000 {
			t.Errorf("the table holds %d items, want the 4000 admitted writes", n)
		}
	})
	t.Run("10 keys", func(t *testing.T) {
		m, p, clk := newMemoryPartition(t)
		got := drive(t, clk, 2000, 8000, put(m, func(i int) ddb.Item { return sized(fmt.Sprintf("room#%d", i%10), fmt.Sprintf("c%05d", i), 1024) }))
		if r := p.Report(); got != 0 || len(r.Partitions) != 10 || r.Partitions[0].Write != 800 {
			t.Errorf("throttled %d of 8000 writes over 10 keys, partitions %v; want none, 10 of 800 WCU", got, r.Partitions)
		}
	})
	t.Run("hot item", func(t *testing.T) {
		m, p, clk := newMemoryPartition(t, func(o *ddbtest.PartitionOptions) { o.PartitionWCU = 10000 })
		got := drive(t, clk, 2000, 2000, put(m, func(int) ddb.Item { return sized("team#1", "COUNTER#ALL", 1024) }))
		want := ddbtest.PartitionUsage{Table: "t", Key: "team#1|COUNTER#ALL", Write: 1000, Throttled: 1000}
		if r := p.Report(); got != 1000 || len(r.Items) != 1 || r.Items[0] != want {
			t.Errorf("throttled %d of 2000 writes of one item, items %v; want 1000, [%v]", got, r.Items, want)
		}
	})
	t.Run("GSI back-pressure", func(t *testing.T) {
		m, p, clk := newMemoryPartition(t)
		got := drive(t, clk, 2000, 8000, put(m, func(i int) ddb.Item {
			return sized(fmt.Sprintf("recipe#%d", i), "META", 1024, "g", "CATALOG#RECIPE")
		}))
		want := ddbtest.PartitionUsage{Table: "t", Index: "gsi1", Key: "CATALOG#RECIPE", Write: 4000, Throttled: 4000}
		if r := p.Report(); got != 4000 || r.Partitions[0] != want {
			t.Errorf("throttled %d of 8000 base writes, hottest %v; want 4000, %v", got, r.Partitions[0], want)
		}
	})
	t.Run("reads", func(t *testing.T) {
		m, p, clk := newMemoryPartition(t)
		for _, pk := range []string{"p1", "p2"} {
			if err := m.Put(ctx, memT, sized(pk, "big", 12*1024), backend.Cond{}); err != nil {
				t.Fatal(err)
			}
		}
		p.Reset()
		strong := drive(t, clk, 2000, 4000, func(int) error { _, err := m.Get(ctx, memT, backend.Key{PK: "p1", SK: "big"}); return err })
		eventual := drive(t, clk, 2000, 4000, func(int) error { _, err := m.GetEventual(ctx, memT, backend.Key{PK: "p2", SK: "big"}); return err })
		if strong != 2000 || eventual != 0 {
			t.Errorf("throttled %d strong and %d eventual reads of 12 KB at 2,000/s, want 2000 and 0", strong, eventual)
		}
	})
}
