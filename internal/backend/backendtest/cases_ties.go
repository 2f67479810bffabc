package backendtest

import (
	"cmp"
	"crypto/sha1" //nolint:gosec // DynamoDB Local's order, not a security use
	"fmt"
	"slices"
	"testing"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// DynamoDB documents no order for index entries whose index sort keys are
// equal. DynamoDB Local, which the memory backend answers as, orders them
// by a SHA-1 digest of the base key: of both key values for an index whose
// key holds neither (ByG), of the sort key when the index holds the base
// partition key (ByPK), of the partition key for a table without a sort
// key (ByOther); see package memtable's tieRule. localTie writes that rule
// out again, apart from memtable's, so that each checks the other, and the
// DynamoDB backend on DynamoDB Local checks both.
func localTie(tb backend.Table, ix ddb.Index, it ddb.Item) string {
	h := func(attr string) []byte {
		v, _ := backend.Str(it, attr)
		sum := sha1.Sum([]byte("LocalDdb" + v)) //nolint:gosec // see localTie
		return sum[:]
	}
	held := func(a string) bool { return a == ix.PartitionKey || a == ix.SortKey }
	switch {
	case held(tb.PartitionKey) && tb.SortKey != "" && !held(tb.SortKey):
		return string(h(tb.SortKey))
	case held(tb.PartitionKey):
		return ""
	case tb.SortKey == "" || held(tb.SortKey):
		return string(h(tb.PartitionKey))
	}
	sum := sha1.Sum(slices.Concat([]byte("LocalDdb"), h(tb.PartitionKey), h(tb.SortKey))) //nolint:gosec // see localTie
	return string(sum[:])
}

// tieOrder sorts items as index ix of tb orders them: by index sort key,
// then, among equal ones, by localTie.
func tieOrder(tb backend.Table, ix ddb.Index, items []ddb.Item) []ddb.Item {
	out := slices.Clone(items)
	slices.SortFunc(out, func(a, b ddb.Item) int {
		as, _ := backend.Str(a, ix.SortKey)
		bs, _ := backend.Str(b, ix.SortKey)
		return cmp.Or(cmp.Compare(as, bs), cmp.Compare(localTie(tb, ix, a), localTie(tb, ix, b)))
	})
	return out
}

// Key values whose bytewise order, length order and digest order all
// differ: prefixes, '#' before letters and digits, case, multi-byte UTF-8.
var (
	tiePKs = []string{"P", "P#", "P#a", "Pa", "p", "P10", "P9", "日本"}
	tieSKs = []string{"a", "a#", "a#1", "ab", "é"}
)

// tieGSKs cycles through index sort keys so that most entries tie on "t",
// with one key on either side of the run.
var tieGSKs = []string{"t", "s", "t", "t", "u", "t", "t"}

// ByPK and ByOther hold the index shapes of ties ByG does not: an index
// keyed by the base partition key (taskmgmt's GSI_Status_Start_Sort_All),
// and an index of a table without a sort key.
var (
	ByPK    = ddb.Index{Name: "by-pk", PartitionKey: PK, SortKey: GSK}
	ByOther = ddb.Index{Name: "by-other", PartitionKey: GPK, SortKey: GSK}
)

// tieItems writes the ties of every index shape and returns, per index,
// the table and the items of its partition under test.
func tieItems(t *testing.T, h *Harness) []tieTarget {
	var g, q, o []ddb.Item
	n := 0
	for _, pk := range tiePKs {
		for _, sk := range tieSKs {
			g = append(g, item(h.Main, pk, sk, GPK, "G1", GSK, tieGSKs[n%len(tieGSKs)], "k", []string{"n", "y", "n"}[n%3]))
			n++
		}
	}
	for i, sk := range append(slices.Clone(tiePKs), tieSKs...) {
		q = append(q, item(h.Main, "Q", sk, GSK, tieGSKs[i%len(tieGSKs)], "k", "y"))
	}
	for i, id := range append(slices.Clone(tiePKs), tieSKs...) {
		o = append(o, ddb.Item{ID: str(id), GPK: str("G1"), GSK: str(tieGSKs[i%len(tieGSKs)]), "k": str("y")})
	}
	mustPut(t, h, h.Main, append(g, q...)...)
	mustPut(t, h, h.Other, o...)
	h.settle()
	return []tieTarget{
		{h.Main, ByG, "G1", g},
		{h.Main, ByPK, "Q", q},
		{h.Other, ByOther, "G1", o},
	}
}

type tieTarget struct {
	tb    backend.Table
	ix    ddb.Index
	part  string
	items []ddb.Item
}

var tieCases = []testCase{
	{"index ties in DynamoDB Local's order, across pages, both ways", func(t *testing.T, h *Harness) {
		conds := []struct {
			name string
			c    ddb.SortCond
		}{
			{"all", ddb.SortCond{}},
			{"eq", ddb.SortEq("t")},
			{"begins_with", ddb.SortBeginsWith("t")},
			{"gt", ddb.SortGT("s")},
			{"le", ddb.SortLE("t")},
		}
		for _, tg := range tieItems(t, h) {
			ordered := tieOrder(tg.tb, tg.ix, tg.items)
			for _, c := range conds {
				var cands []ddb.Item
				for _, it := range ordered {
					if sk, _ := backend.Str(it, tg.ix.SortKey); c.c.Match(sk) {
						cands = append(cands, it)
					}
				}
				for _, desc := range []bool{false, true} {
					want := slices.Clone(cands)
					if desc {
						slices.Reverse(want)
					}
					q := ddb.KeyQuery{Table: tg.tb.Table, Index: tg.ix, PartitionValue: tg.part, Sort: c.c, Descending: desc}
					for _, limit := range []int{1, 3, 7, 1000} {
						what := fmt.Sprintf("%s %s desc=%v limit %d", tg.ix.Name, c.name, desc, limit)
						ps, more := pages(t, h.Backend, q, limit, backend.Filter{})
						wps, wmore := modelPages(want, nil, limit, 0)
						comparePages(t, what, ps, more, wps, wmore)
					}
					// A filter's budget ends pages inside the run of ties.
					f := backend.Equal("k", str("y"))
					fq := q
					fq.Budget = 2
					what := fmt.Sprintf("%s %s desc=%v filtered, budget 2", tg.ix.Name, c.name, desc)
					ps, more := pages(t, h.Backend, fq, 2, f)
					wps, wmore := modelPages(want, f.Keeps, 2, 2)
					comparePages(t, what, ps, more, wps, wmore)
				}
			}
		}
	}},
	{"a cursor inside ties whose entry is gone", func(t *testing.T, h *Harness) {
		for _, tg := range tieItems(t, h) {
			for _, desc := range []bool{false, true} {
				q := ddb.KeyQuery{Table: tg.tb.Table, Index: tg.ix, PartitionValue: tg.part, Sort: ddb.SortEq("t"), Descending: desc}
				want := all(t, h.Backend, q, backend.Filter{})
				first, cursor, err := h.Backend.Query(t.Context(), q, 2, "", backend.Filter{})
				if err != nil || cursor == "" || len(first) != 2 {
					t.Fatalf("%s desc=%v: first page = (%d items, %q, %v), want 2 and a cursor", tg.ix.Name, desc, len(first), cursor, err)
				}
				gone := first[1]
				if err := h.Backend.Delete(t.Context(), tg.tb.Table, backend.KeyOf(tg.tb.Table, gone)); err != nil {
					t.Fatalf("Delete: %v", err)
				}
				h.settle()
				var rest []ddb.Item
				for cursor != "" {
					var page []ddb.Item
					if page, cursor, err = h.Backend.Query(t.Context(), q, 3, cursor, backend.Filter{}); err != nil {
						t.Fatalf("%s desc=%v: Query after the deleted entry: %v", tg.ix.Name, desc, err)
					}
					rest = append(rest, page...)
				}
				wantItems(t, fmt.Sprintf("%s desc=%v: the pages after the deleted entry", tg.ix.Name, desc), rest, want[2:])
				// Put it back for the other direction, as it was.
				mustPut(t, h, tg.tb, gone)
				h.settle()
			}
		}
	}},
}
