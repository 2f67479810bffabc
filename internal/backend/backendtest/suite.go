package backendtest

import (
	"slices"
	"testing"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Run runs every case of the suite on fresh harnesses from newHarness,
// one per case, in parallel, and checks the invariants after each.
func Run(t *testing.T, newHarness func(t *testing.T) Harness) {
	groups := []struct {
		name  string
		cases []testCase
	}{
		{"Get", getCases},
		{"Query", queryCases},
		{"Create", createCases},
		{"Put", putCases},
		{"Update", updateCases},
		{"Remove", removeCases},
		{"BatchWrite", batchWriteCases},
		{"Tx", txCases},
		{"RMW", rmwCases},
		{"GSI", gsiCases},
		{"Ties", tieCases},
		{"TTL", ttlCases},
		{"Context", contextCases},
		{"Size", sizeCases},
		{"Validation", validationCases},
		{"Keys", keyCases},
		{"Schema", schemaCases},
		{"Limits", limitCases},
		{"Races", raceCases},
		{"Clock", clockCases},
		{"Names", nameCases},
		{"Calls", callCases},
		{"Ext", extCases},
		{"Withheld", withheldCases},
		{"Keyed", keyedCases},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, c := range g.cases {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					h := newHarness(t)
					h.setClock(start)
					c.run(t, &h)
					if !t.Failed() {
						checkInvariants(t, &h)
					}
				})
			}
		})
	}
}

type testCase struct {
	name string
	run  func(t *testing.T, h *Harness)
}

// gsiPartitions are the index partition values the suite writes: the
// invariants query each, so that an entry left behind in one the base
// items no longer name is found.
var gsiPartitions = []string{"G1", "G2", "G3", "S1", "S2"}

// checkInvariants checks that every GSI entry matches its base item: each
// index partition holds exactly the base items with both index keys, in
// index sort key order, and, when the harness can reload, that the copy
// holds the same items and answers the same.
func checkInvariants(t *testing.T, h *Harness) {
	t.Helper()
	h.settle()
	var cp *Copy
	if h.Reload != nil {
		c := h.Reload(t)
		cp = &c
	}
	for _, tb := range []backend.Table{h.Main, h.Other, h.TTL} {
		items := h.Items(t, tb.Table)
		if cp != nil {
			if got, want := sorted(cp.Items(t, tb.Table)), sorted(items); !slices.Equal(got, want) {
				t.Errorf("invariant: a reload of %s holds\n %q\nwant %q", tb.Name, got, want)
			}
		}
		for _, ix := range tb.Indexes {
			want := map[string][]ddb.Item{}
			for _, it := range items {
				p, ok1 := backend.Str(it, ix.PartitionKey)
				_, ok2 := backend.Str(it, ix.SortKey)
				if ok1 && ok2 {
					want[p] = append(want[p], it)
				}
			}
			parts := slices.Clone(gsiPartitions)
			for p := range want {
				parts = append(parts, p)
			}
			slices.Sort(parts)
			for _, p := range slices.Compact(parts) {
				q := ddb.KeyQuery{Table: tb.Table, Index: ix, PartitionValue: p}
				got := all(t, h.Backend, q, backend.Filter{})
				if g, w := sorted(got), sorted(want[p]); !slices.Equal(g, w) {
					t.Errorf("invariant: index %s partition %q holds\n %q\nwant the base items\n %q", ix.Name, p, g, w)
				}
				for i := 1; i < len(got); i++ {
					a, _ := backend.Str(got[i-1], ix.SortKey)
					b, _ := backend.Str(got[i], ix.SortKey)
					if a > b {
						t.Errorf("invariant: index %s partition %q out of order: %q before %q", ix.Name, p, a, b)
					}
				}
				if cp != nil {
					wantItems(t, "invariant: a reload's index "+ix.Name+" partition "+p, all(t, cp.Backend, q, backend.Filter{}), got)
				}
			}
		}
	}
}
