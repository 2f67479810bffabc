package backendtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

var getCases = []testCase{
	{"missing, duplicate and ordered keys", func(t *testing.T, h *Harness) {
		a, b, c := item(h.Main, "P", "a", "v", 1), item(h.Main, "P", "b", "v", 2), item(h.Main, "P", "c", "v", 3)
		mustPut(t, h, h.Main, a, b, c, item(h.Main, "Q", "a", "v", 4))
		wantItem(t, "Get(P, a)", get(t, h, h.Main, key("P", "a")), a)
		wantItem(t, "Get(P, missing)", get(t, h, h.Main, key("P", "missing")), nil)
		wantItem(t, "Get(missing partition)", get(t, h, h.Main, key("R", "a")), nil)
		got, err := h.Backend.BatchGet(t.Context(), h.Main.Table, []backend.Key{key("P", "b"), key("P", "x"), key("P", "a"), key("P", "b"), key("P", "c"), key("R", "a")})
		must(t, err)
		wantItems(t, "BatchGet(b, x, a, b, c, R/a)", got, []ddb.Item{b, nil, a, b, c, nil})
		got, err = h.Backend.BatchGet(t.Context(), h.Main.Table, nil)
		must(t, err)
		if len(got) != 0 {
			t.Errorf("BatchGet(no keys) = %d items, want none", len(got))
		}
	}},
	{"table without a sort key", func(t *testing.T, h *Harness) {
		x, y := item(h.Other, "x", "", "v", "X"), item(h.Other, "y", "", "v", "Y")
		mustPut(t, h, h.Other, x, y)
		wantItem(t, "Get(x)", get(t, h, h.Other, key("x", "")), x)
		got, err := h.Backend.BatchGet(t.Context(), h.Other.Table, []backend.Key{key("y", ""), key("z", ""), key("x", "")})
		must(t, err)
		wantItems(t, "BatchGet(y, z, x)", got, []ddb.Item{y, nil, x})
		q := ddb.KeyQuery{Table: h.Other.Table, PartitionValue: "x", ConsistentRead: true}
		wantItems(t, "Query(x)", all(t, h.Backend, q, backend.Filter{}), []ddb.Item{x})
		wantItems(t, "Query(x) filtered", all(t, h.Backend, q, backend.Equal("v", str("Y"))), nil)
	}},
	{"more keys than one call reads", func(t *testing.T, h *Harness) {
		var puts []ddb.Item
		var ks []backend.Key
		var want []ddb.Item
		for i := range 130 {
			it := item(h.Main, "P", fmt.Sprintf("k%03d", i), "v", i)
			puts = append(puts, it)
			ks = append(ks, key("P", fmt.Sprintf("k%03d", 129-i)), key("P", fmt.Sprintf("none%03d", i)))
		}
		for i := range 130 {
			want = append(want, puts[129-i], nil)
		}
		must(t, h.Backend.BatchWrite(t.Context(), h.Main.Table, puts, nil))
		got, err := h.Backend.BatchGet(t.Context(), h.Main.Table, ks)
		must(t, err)
		wantItems(t, "BatchGet(260 keys)", got, want)
	}},
}

// sortItems is partition P of the sort condition cases, in key order.
var sortKeys = []string{"a", "a#01", "a#02", "a#03", "b", "b#01", "b#02", "c"}

var queryCases = []testCase{
	{"sort conditions, directions and every page boundary", func(t *testing.T, h *Harness) {
		byKey := map[string]ddb.Item{}
		for i, sk := range sortKeys {
			byKey[sk] = item(h.Main, "P", sk, "i", i)
			mustPut(t, h, h.Main, byKey[sk])
		}
		mustPut(t, h, h.Main, item(h.Main, "Q", "a#01"), item(h.Main, "PP", "a"))
		conds := []struct {
			name string
			c    ddb.SortCond
			want []string
		}{
			{"all", ddb.SortCond{}, sortKeys},
			{"eq", ddb.SortEq("a#02"), []string{"a#02"}},
			{"eq none", ddb.SortEq("a#"), nil},
			{"begins_with", ddb.SortBeginsWith("a#"), []string{"a#01", "a#02", "a#03"}},
			{"begins_with all", ddb.SortBeginsWith("a"), []string{"a", "a#01", "a#02", "a#03"}},
			{"between", ddb.SortBetween("a#02", "b#01"), []string{"a#02", "a#03", "b", "b#01"}},
			{"between none", ddb.SortBetween("a#04", "a#99"), nil},
			{"lt", ddb.SortLT("b"), []string{"a", "a#01", "a#02", "a#03"}},
			{"le", ddb.SortLE("b"), []string{"a", "a#01", "a#02", "a#03", "b"}},
			{"gt", ddb.SortGT("b"), []string{"b#01", "b#02", "c"}},
			{"ge", ddb.SortGE("b#01"), []string{"b#01", "b#02", "c"}},
		}
		for _, c := range conds {
			for _, desc := range []bool{false, true} {
				want := slices.Clone(c.want)
				if desc {
					slices.Reverse(want)
				}
				var cands []ddb.Item
				for _, sk := range want {
					cands = append(cands, byKey[sk])
				}
				q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P", Sort: c.c, Descending: desc, ConsistentRead: true}
				for limit := 1; limit <= len(sortKeys)+1; limit++ {
					what := fmt.Sprintf("%s desc=%v limit %d", c.name, desc, limit)
					ps, more := pages(t, h.Backend, q, limit, backend.Filter{})
					wps, wmore := modelPages(cands, nil, limit, 0)
					comparePages(t, what, ps, more, wps, wmore)
				}
			}
		}
	}},
	{"cursors of other listings, and tampered ones", func(t *testing.T, h *Harness) {
		for _, sk := range sortKeys {
			mustPut(t, h, h.Main, item(h.Main, "P", sk, GPK, "G1", GSK, sk, "tags", list("x")))
		}
		ctx := t.Context()
		q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P", ConsistentRead: true}
		f := backend.Contains("tags", "x")
		_, cur, err := h.Backend.Query(ctx, q, 2, "", backend.Filter{})
		must(t, err)
		_, fcur, err := h.Backend.Query(ctx, q, 2, "", f)
		must(t, err)
		if cur == "" || fcur == "" {
			t.Fatalf("first pages' cursors %q, %q: want both set", cur, fcur)
		}
		items, _, err := h.Backend.Query(ctx, q, 2, cur, backend.Filter{})
		must(t, err)
		if got := sks(items); !slices.Equal(got, sortKeys[2:4]) {
			t.Errorf("second page = %q, want %q", got, sortKeys[2:4])
		}
		other := func(mod func(*ddb.KeyQuery)) ddb.KeyQuery { q2 := q; mod(&q2); return q2 }
		tamper := func(s string, i int) string {
			b := []byte(s)
			b[i] ^= 0x01
			return string(b)
		}
		for _, c := range []struct {
			name   string
			q      ddb.KeyQuery
			cursor string
			f      backend.Filter
		}{
			{"another partition", other(func(q *ddb.KeyQuery) { q.PartitionValue = "Q" }), cur, backend.Filter{}},
			{"another sort condition", other(func(q *ddb.KeyQuery) { q.Sort = ddb.SortBeginsWith("a") }), cur, backend.Filter{}},
			{"the other direction", other(func(q *ddb.KeyQuery) { q.Descending = true }), cur, backend.Filter{}},
			{"another table", other(func(q *ddb.KeyQuery) { q.Table = h.TTL.Table }), cur, backend.Filter{}},
			{"an index", other(func(q *ddb.KeyQuery) { q.Index, q.PartitionValue, q.ConsistentRead = ByG, "G1", false }), cur, backend.Filter{}},
			{"a filter, of an unfiltered listing", q, cur, f},
			{"no filter, of a filtered listing", q, fcur, backend.Filter{}},
			{"another filter's value", q, fcur, backend.Contains("tags", "y")},
			{"another filter", q, fcur, backend.Equal("tags", list("x"))},
			{"tampered first byte", q, tamper(cur, 0), backend.Filter{}},
			{"tampered middle byte", q, tamper(cur, len(cur)/2), backend.Filter{}},
			{"tampered last byte", q, tamper(cur, len(cur)-1), backend.Filter{}},
			{"truncated", q, cur[:len(cur)-2], backend.Filter{}},
			{"garbage", q, "not a cursor", backend.Filter{}},
		} {
			_, _, err := h.Backend.Query(ctx, c.q, 2, c.cursor, c.f)
			if !is(err, ddbkit.ErrInvalidCursor) {
				t.Errorf("%s: got error %v, want ErrInvalidCursor", c.name, err)
			}
		}
	}},
	{"filters", func(t *testing.T, h *Harness) {
		mustPut(t, h, h.Main, filterItems(h)...)
		mustPut(t, h, h.Main, item(h.Main, "G", "f05", "tags", list("x"), "n", 5))
		for _, c := range filterCases() {
			for _, desc := range []bool{false, true} {
				want := slices.Clone(c.want)
				if desc {
					slices.Reverse(want)
				}
				q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "F", Descending: desc, ConsistentRead: true}
				if got := sks(all(t, h.Backend, q, c.f)); !slices.Equal(got, want) {
					t.Errorf("%s desc=%v: got %q, want %q", c.name, desc, got, want)
				}
			}
		}
	}},
	{"filters as conditions", func(t *testing.T, h *Harness) {
		items := filterItems(h)
		mustPut(t, h, h.Main, items...)
		for _, c := range filterCases() {
			for _, it := range items {
				sk, _ := backend.Str(it, SK)
				var ch backend.Change
				ch.Set("seen", str(c.name))
				_, err := h.Backend.Update(t.Context(), h.Main.Table, key("F", sk), ch, backend.When(c.f))
				_, failed := backend.Failed(err, "")
				if holds := slices.Contains(c.want, sk); holds != (err == nil) || !holds && !failed {
					t.Errorf("Update of %s under When(%s): %v; the filter keeps it: %v", sk, c.name, err, holds)
				}
			}
		}
	}},
	{"a filter's budget bounds each page", func(t *testing.T, h *Harness) {
		var cands []ddb.Item
		for i := range 12 {
			k := "n"
			if i%3 == 1 {
				k = "y"
			}
			it := item(h.Main, "B", fmt.Sprintf("b%02d", i), "k", k, "i", i)
			cands = append(cands, it)
		}
		mustPut(t, h, h.Main, cands...)
		for _, c := range []struct {
			name string
			f    backend.Filter
		}{
			{"every third", backend.Equal("k", str("y"))},
			{"none", backend.Equal("k", str("z"))},
			{"all", backend.Greater("i", num(-1))},
		} {
			for _, budget := range []int{1, 2, 3, 4, 5, 11, 12, 13, 0} {
				for limit := 1; limit <= 5; limit++ {
					q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "B", ConsistentRead: true, Budget: budget}
					what := fmt.Sprintf("%s budget %d limit %d", c.name, budget, limit)
					ps, more := pages(t, h.Backend, q, limit, c.f)
					wps, wmore := modelPages(cands, c.f.Keeps, limit, max(budget, ddb.DefaultBudget*boolInt(budget <= 0)))
					comparePages(t, what, ps, more, wps, wmore)
				}
			}
		}
	}},
	{"limit below one", func(t *testing.T, h *Harness) {
		_, _, err := h.Backend.Query(t.Context(), ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P"}, 0, "", backend.Filter{})
		wantErr(t, "Query(limit 0)", err, ddbkit.ErrInvalidArgument)
	}},
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func comparePages(t *testing.T, what string, ps [][]ddb.Item, more []bool, wps [][]ddb.Item, wmore []bool) {
	t.Helper()
	show := func(ps [][]ddb.Item, more []bool) string {
		var b strings.Builder
		for i, p := range ps {
			fmt.Fprintf(&b, "%q", sks(p))
			if more[i] {
				b.WriteString("+ ")
			}
		}
		return b.String()
	}
	if g, w := show(ps, more), show(wps, wmore); g != w {
		t.Errorf("%s: pages (+: with a cursor)\n got %s\nwant %s", what, g, w)
		return
	}
	for i := range ps {
		wantItems(t, fmt.Sprintf("%s: page %d", what, i), ps[i], wps[i])
	}
}

type filterCase struct {
	name string
	f    backend.Filter
	want []string
}

// filterItems are partition F of the filter cases.
func filterItems(h *Harness) []ddb.Item {
	return []ddb.Item{
		item(h.Main, "F", "f01", "tags", list("x", "y"), "set", sset("x"), "title", "hello world", "n", 5, "s", "m"),
		item(h.Main, "F", "f02", "tags", list("y"), "set", sset("y", "z"), "title", "xyz", "n", 10, "s", "a"),
		item(h.Main, "F", "f03", "tags", list(), "title", "x", "n", -1, "s", "z"),
		item(h.Main, "F", "f04", "n", "7", "title", num(1)),
	}
}

// filterCases are filters and the items of filterItems each keeps.
func filterCases() []filterCase {
	return []filterCase{
		{"none", backend.Filter{}, []string{"f01", "f02", "f03", "f04"}},
		{"contains on a list", backend.Contains("tags", "x"), []string{"f01"}},
		{"contains on a string set", backend.Contains("set", "z"), []string{"f02"}},
		{"contains on a string", backend.Contains("title", "x"), []string{"f02", "f03"}},
		{"contains on a number", backend.Contains("n", "5"), nil},
		{"equal number", backend.Equal("n", num(5)), []string{"f01"}},
		{"equal string", backend.Equal("s", str("a")), []string{"f02"}},
		{"equal list", backend.Equal("tags", list("x", "y")), []string{"f01"}},
		{"equal list in another order", backend.Equal("tags", list("y", "x")), nil},
		{"equal set in another order", backend.Equal("set", sset("z", "y")), []string{"f02"}},
		{"equal of another type", backend.Equal("n", str("5")), nil},
		{"greater number", backend.Greater("n", num(4)), []string{"f01", "f02"}},
		{"greater negative number", backend.Greater("n", num(-2)), []string{"f01", "f02", "f03"}},
		{"greater string", backend.Greater("s", str("l")), []string{"f01", "f03"}},
		{"greater of another type", backend.Greater("n", str("6")), []string{"f04"}},
		{"missing", backend.Missing("tags"), []string{"f04"}},
		{"missing, held by all", backend.Missing("n"), nil},
		{"present", backend.Present("tags"), []string{"f01", "f02", "f03"}},
		{"present, held by none", backend.Present("nothing"), nil},
		{"and", backend.And(backend.Contains("tags", "y"), backend.Greater("n", num(6))), []string{"f02"}},
		{"or", backend.Or(backend.Equal("n", num(-1)), backend.Missing("tags")), []string{"f03", "f04"}},
		{"and of or", backend.And(backend.Or(backend.Contains("tags", "x"), backend.Contains("set", "z")), backend.Missing("nothing")), []string{"f01", "f02"}},
		{"and of zero filters", backend.And(backend.Filter{}, backend.Equal("s", str("z"))), []string{"f03"}},
	}
}
