package backend_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestMergePage merges the GSI partitions p0 to p3 of a memory table and
// holds every page to a Query of one partition holding the same items
// under the same base keys (GK "all", in table u): the same items in the same order, ties of the sort key
// included, in pages of the limit with Next "" exactly at the end,
// ascending and descending, unfiltered and filtered with a budget (pages
// may then be short, and together list exactly the items kept).
func TestMergePage(t *testing.T) {
	ix := ddb.Index{Name: "G", PartitionKey: "GK", SortKey: "GS"}
	tb := ddb.Table{Name: "t", PartitionKey: "PK", SortKey: "SK"}
	ub := ddb.Table{Name: "u", PartitionKey: "PK", SortKey: "SK"}
	m := backend.NewMemory(func() time.Time { return time.Unix(0, 0) }, backend.Table{Table: tb, Indexes: []ddb.Index{ix}},
		backend.Table{Table: ub, Indexes: []ddb.Index{ix}})
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 60 {
		gs := fmt.Sprintf("s%02d", r.IntN(20)) // ties within and across partitions
		tag := []string{"a", "b", "c"}[r.IntN(3)]
		for tt, gk := range map[ddb.Table]string{tb: fmt.Sprint("p", r.IntN(4)), ub: "all"} {
			item := ddb.Item{"PK": ddb.S(fmt.Sprint("item-", i)), "SK": ddb.S("x"), "GK": ddb.S(gk), "GS": ddb.S(gs), "tag": ddb.S(tag), "n": ddb.S(fmt.Sprint(i))}
			if err := m.Put(t.Context(), tt, item, backend.Cond{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	ids := func(items []ddb.Item) []string {
		var out []string
		for _, it := range items {
			n, _ := backend.Str(it, "n")
			out = append(out, n)
		}
		return out
	}
	for _, desc := range []bool{false, true} {
		for _, f := range []backend.Filter{{}, backend.Equal("tag", ddb.S("a"))} {
			one := ddb.KeyQuery{Table: ub, Index: ix, PartitionValue: "all", Descending: desc}
			want, _, err := m.Query(t.Context(), one, 1000, "", f)
			if err != nil {
				t.Fatal(err)
			}
			var mg backend.Merged
			mg.Listing = fmt.Sprint("test ", desc)
			for p := range 4 {
				mg.Queries = append(mg.Queries, ddb.KeyQuery{Table: tb, Index: ix, PartitionValue: fmt.Sprint("p", p), Descending: desc, Budget: 8})
			}
			for _, limit := range []int{1, 2, 3, 7, 100} {
				var got []ddb.Item
				cursor := ""
				for pages := 0; ; pages++ {
					if pages > 200 {
						t.Fatal("the merged listing does not end")
					}
					page, next, err := backend.MergePage(t.Context(), m, mg, limit, cursor, f)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, page...)
					if len(page) > limit || (f.IsZero() && len(got) < len(want) && len(page) != limit) {
						t.Fatalf("desc %v, filtered %v, limit %d: a page of %d", desc, !f.IsZero(), limit, len(page))
					}
					if f.IsZero() && (next == "") != (len(got) == len(want)) {
						t.Fatalf("desc %v, limit %d: next %q after %d of %d", desc, limit, next, len(got), len(want))
					}
					if next == "" {
						break
					}
					cursor = next
				}
				if !slices.Equal(ids(got), ids(want)) {
					t.Errorf("desc %v, filtered %v, limit %d:\n got %v\nwant %v", desc, !f.IsZero(), limit, ids(got), ids(want))
				}
			}
		}
	}
	// A cursor is bound to its listing, its partitions and its filter, and
	// tamper-evident.
	mg := backend.Merged{Listing: "bound"}
	for p := range 4 {
		mg.Queries = append(mg.Queries, ddb.KeyQuery{Table: tb, Index: ix, PartitionValue: fmt.Sprint("p", p)})
	}
	_, next, err := backend.MergePage(t.Context(), m, mg, 2, "", backend.Filter{})
	if err != nil || next == "" {
		t.Fatalf("first page: next %q, %v", next, err)
	}
	other := mg
	other.Listing = "other"
	fewer := mg
	fewer.Queries = mg.Queries[:3]
	tampered := []byte(next)
	tampered[len(tampered)/2] ^= 1
	for name, tc := range map[string]struct {
		m      backend.Merged
		cursor string
		f      backend.Filter
	}{
		"another listing":    {other, next, backend.Filter{}},
		"other partitions":   {fewer, next, backend.Filter{}},
		"another filter":     {mg, next, backend.Equal("tag", ddb.S("a"))},
		"a tampered cursor":  {mg, string(tampered), backend.Filter{}},
		"a partition cursor": {mg, mustCursor(t, mg.Queries[0]), backend.Filter{}},
	} {
		if _, _, err := backend.MergePage(t.Context(), m, tc.m, 2, tc.cursor, tc.f); !errors.Is(err, ddbkit.ErrInvalidCursor) {
			t.Errorf("%s: %v, want ErrInvalidCursor", name, err)
		}
	}
}

func mustCursor(t *testing.T, q ddb.KeyQuery) string {
	t.Helper()
	c, err := ddb.EncodeCursor(q, ddb.Item{"PK": ddb.S("item-1"), "SK": ddb.S("x"), "GK": ddb.S("p0"), "GS": ddb.S("s01")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
