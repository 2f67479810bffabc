package memtable_test

import (
	"crypto/sha1"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

var (
	tbl   = ddb.Table{Name: "things", PartitionKey: "pk", SortKey: "sk"}
	index = ddb.Index{Name: "by-group", PartitionKey: "gpk", SortKey: "gsk"}
)

// put stores the value sk under (pk, sk) of a base table.
func put(t *memtable.Table[string], pk, sk string) {
	t.Put(pk, sk, tbl.Key(pk, sk), sk)
}

func TestPutGetDelete(t *testing.T) {
	m := memtable.New[string](tbl, ddb.Index{})
	for _, sk := range []string{"c", "a", "b", "a#2", "a#1"} {
		put(m, "p", sk)
	}
	put(m, "q", "z")

	if got, want := m.Partition("p"), []string{"a", "a#1", "a#2", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("Partition(p) = %q, want %q", got, want)
	}
	if got := m.Partition("none"); len(got) != 0 {
		t.Errorf("Partition(none) = %q, want empty", got)
	}

	gets := []struct {
		name   string
		pk, sk string
		want   string
		wantOK bool
	}{
		{name: "first", pk: "p", sk: "a", want: "a", wantOK: true},
		{name: "middle", pk: "p", sk: "a#2", want: "a#2", wantOK: true},
		{name: "last", pk: "p", sk: "c", want: "c", wantOK: true},
		{name: "other partition", pk: "q", sk: "z", want: "z", wantOK: true},
		{name: "missing before", pk: "p", sk: ""},
		{name: "missing between", pk: "p", sk: "a#"},
		{name: "missing after", pk: "p", sk: "d"},
		{name: "in another partition", pk: "p", sk: "z"},
		{name: "no partition", pk: "none", sk: "a"},
	}
	for _, tt := range gets {
		t.Run("get "+tt.name, func(t *testing.T) {
			got, ok := m.Get(tt.pk, tt.sk)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Get(%q, %q) = (%q, %t), want (%q, %t)", tt.pk, tt.sk, got, ok, tt.want, tt.wantOK)
			}
		})
	}

	t.Run("put replaces", func(t *testing.T) {
		m.Put("p", "b", tbl.Key("p", "b"), "B")
		if got, ok := m.Get("p", "b"); got != "B" || !ok {
			t.Errorf("Get after replace = (%q, %t), want (%q, true)", got, ok, "B")
		}
		if got, want := m.Partition("p"), []string{"a", "a#1", "a#2", "B", "c"}; !slices.Equal(got, want) {
			t.Errorf("Partition(p) = %q, want %q", got, want)
		}
	})

	t.Run("delete", func(t *testing.T) {
		if !m.Delete("p", "a#1", tbl.Key("p", "a#1")) {
			t.Error("Delete(existing) = false, want true")
		}
		if m.Delete("p", "a#1", tbl.Key("p", "a#1")) {
			t.Error("Delete(again) = true, want false")
		}
		if m.Delete("p", "zz", tbl.Key("p", "zz")) {
			t.Error("Delete(missing) = true, want false")
		}
		if m.Delete("none", "a", tbl.Key("none", "a")) {
			t.Error("Delete(missing partition) = true, want false")
		}
		if _, ok := m.Get("p", "a#1"); ok {
			t.Error("Get(deleted) found it")
		}
		if got, want := m.Partition("p"), []string{"a", "a#2", "B", "c"}; !slices.Equal(got, want) {
			t.Errorf("Partition(p) = %q, want %q", got, want)
		}
		if !m.Delete("q", "z", tbl.Key("q", "z")) {
			t.Error("Delete(only entry) = false, want true")
		}
		if got := m.Partition("q"); len(got) != 0 {
			t.Errorf("Partition(q) after deleting its only entry = %q, want empty", got)
		}
		put(m, "q", "y")
		if got, want := m.Partition("q"), []string{"y"}; !slices.Equal(got, want) {
			t.Errorf("Partition(q) after re-adding = %q, want %q", got, want)
		}
	})
}

// walk pages through q with limit and keep, returning every page, and fails
// t on any error or if the walk does not end.
func walk[T any](t *testing.T, m *memtable.Table[T], q ddb.KeyQuery, limit int, keep func(T) bool) [][]T {
	t.Helper()
	var pages [][]T
	cursor := ""
	for {
		items, next, err := m.Query(q, limit, cursor, keep)
		if err != nil {
			t.Fatalf("Query(page %d) error = %v", len(pages)+1, err)
		}
		pages = append(pages, items)
		if next == "" {
			return pages
		}
		if len(pages) > 10000 {
			t.Fatalf("Query: more than 10000 pages")
		}
		cursor = next
	}
}

func TestQueryWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	m := memtable.New[string](tbl, ddb.Index{})
	var all []string // sort keys of partition "p"
	seen := map[string]bool{}
	for len(all) < 50 {
		prefix := []string{"a#", "b#", "a", "c", "é#"}[r.IntN(5)]
		sk := fmt.Sprintf("%s%d", prefix, r.IntN(40))
		if seen[sk] {
			continue
		}
		seen[sk] = true
		all = append(all, sk)
		put(m, "p", sk)
	}
	for i := range 20 { // noise around the partition
		put(m, "o", fmt.Sprint(i))
		put(m, "q", fmt.Sprint(i))
	}
	slices.Sort(all)

	conds := []struct {
		name string
		c    ddb.SortCond
	}{
		{name: "all", c: ddb.SortCond{}},
		{name: "begins_with a#", c: ddb.SortBeginsWith("a#")},
		{name: "begins_with none", c: ddb.SortBeginsWith("x")},
		{name: "between", c: ddb.SortBetween("a#3", "b#2")},
		{name: "gt", c: ddb.SortGT("b#1")},
		{name: "le", c: ddb.SortLE("a5")},
		{name: "eq", c: ddb.SortEq(all[7])},
	}
	keeps := []struct {
		name string
		keep func(string) bool
	}{
		{name: "no filter"},
		{name: "odd digits", keep: func(s string) bool { return strings.ContainsAny(s[len(s)-1:], "13579") }},
		{name: "nothing", keep: func(string) bool { return false }},
	}
	for _, c := range conds {
		for _, desc := range []bool{false, true} {
			for _, k := range keeps {
				var want []string
				for _, sk := range all {
					if c.c.Match(sk) && (k.keep == nil || k.keep(sk)) {
						want = append(want, sk)
					}
				}
				if desc {
					slices.Reverse(want)
				}
				for _, limit := range []int{1, 2, 3, 7, len(want), len(want) + 1, 100} {
					if limit < 1 {
						continue
					}
					name := fmt.Sprintf("%s/desc=%t/%s/limit=%d", c.name, desc, k.name, limit)
					t.Run(name, func(t *testing.T) {
						q := ddb.KeyQuery{Table: tbl, PartitionValue: "p", Sort: c.c, Descending: desc}
						pages := walk(t, m, q, limit, k.keep)
						checkPages(t, pages, want, limit)
					})
				}
			}
		}
	}
}

// checkPages asserts that pages hold want in order, every page but the last
// full and the last one not empty unless want is.
func checkPages[T comparable](t *testing.T, pages [][]T, want []T, limit int) {
	t.Helper()
	var got []T
	for i, p := range pages {
		got = append(got, p...)
		if i < len(pages)-1 && len(p) != limit {
			t.Errorf("page %d of %d has %d items, want %d", i+1, len(pages), len(p), limit)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages hold %v, want %v", got, want)
	}
	wantPages := max(1, (len(want)+limit-1)/limit)
	if len(pages) != wantPages {
		t.Errorf("%d pages, want %d (Next must be empty exactly on the last page)", len(pages), wantPages)
	}
}

func TestQueryLastPageExactlyFull(t *testing.T) {
	m := memtable.New[string](tbl, ddb.Index{})
	for _, sk := range []string{"1", "2", "3", "4", "5", "6"} {
		put(m, "p", sk)
	}
	put(m, "q", "0") // another partition does not make a next page
	for _, desc := range []bool{false, true} {
		q := ddb.KeyQuery{Table: tbl, PartitionValue: "p", Descending: desc}
		t.Run(fmt.Sprintf("desc=%t", desc), func(t *testing.T) {
			items, next, err := m.Query(q, 3, "", nil)
			if err != nil || len(items) != 3 || next == "" {
				t.Fatalf("page 1 = (%q, %q, %v), want 3 items and a cursor", items, next, err)
			}
			items, next, err = m.Query(q, 3, next, nil)
			if err != nil || len(items) != 3 {
				t.Fatalf("page 2 = (%q, %v), want 3 items", items, err)
			}
			if next != "" {
				t.Errorf("page 2 of exactly the last 3 items: Next = %q, want \"\"", next)
			}
			items, next, err = m.Query(q, 6, "", nil)
			if err != nil || len(items) != 6 || next != "" {
				t.Errorf("one page of all 6 = (%q, %q, %v), want 6 items and Next \"\"", items, next, err)
			}
			// A filter that drops everything after the page also ends it.
			items, next, err = m.Query(q, 1, "", func(s string) bool { return s == "1" })
			if err != nil || !slices.Equal(items, []string{"1"}) || next != "" {
				t.Errorf("filtered page = (%q, %q, %v), want [1] and Next \"\"", items, next, err)
			}
		})
	}
}

func TestQueryEmpty(t *testing.T) {
	m := memtable.New[string](tbl, ddb.Index{})
	items, next, err := m.Query(ddb.KeyQuery{Table: tbl, PartitionValue: "p"}, 10, "", nil)
	if err != nil || len(items) != 0 || next != "" {
		t.Errorf("Query(empty table) = (%q, %q, %v), want no items, no cursor", items, next, err)
	}
}

func TestQueryCursorOfAnotherQuery(t *testing.T) {
	m := memtable.New[string](tbl, ddb.Index{})
	for _, sk := range []string{"a1", "a2", "a3", "b1"} {
		put(m, "p", sk)
		put(m, "q", sk)
	}
	base := ddb.KeyQuery{Table: tbl, PartitionValue: "p", Sort: ddb.SortBeginsWith("a")}
	_, cursor, err := m.Query(base, 1, "", nil)
	if err != nil || cursor == "" {
		t.Fatalf("Query() = (%q, %v), want a cursor", cursor, err)
	}
	tests := []struct {
		name   string
		change func(q *ddb.KeyQuery)
	}{
		{name: "other table", change: func(q *ddb.KeyQuery) { q.Table.Name = "others" }},
		{name: "other partition", change: func(q *ddb.KeyQuery) { q.PartitionValue = "q" }},
		{name: "other sort condition", change: func(q *ddb.KeyQuery) { q.Sort = ddb.SortCond{} }},
		{name: "other direction", change: func(q *ddb.KeyQuery) { q.Descending = true }},
		{name: "index", change: func(q *ddb.KeyQuery) { q.Index = index }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := base
			tt.change(&q)
			items, next, err := m.Query(q, 10, cursor, nil)
			if !errors.Is(err, ddbkit.ErrInvalidCursor) {
				t.Errorf("Query() = (%q, %q, %v), want ErrInvalidCursor", items, next, err)
			}
		})
	}
	for _, garbage := range []string{"x", cursor[:len(cursor)-1], cursor + "A"} {
		if _, _, err := m.Query(base, 10, garbage, nil); !errors.Is(err, ddbkit.ErrInvalidCursor) {
			t.Errorf("Query(cursor %q) error = %v, want ErrInvalidCursor", garbage, err)
		}
	}
	// The cursor still works for its own query.
	if items, _, err := m.Query(base, 10, cursor, nil); err != nil || !slices.Equal(items, []string{"a2", "a3"}) {
		t.Errorf("Query(own cursor) = (%q, %v), want [a2 a3]", items, err)
	}
}

func TestQueryCursorSurvivesWrites(t *testing.T) {
	tests := []struct {
		name   string
		desc   bool
		change func(m *memtable.Table[string])
		want   []string // the second page, limit 3
	}{
		{name: "asc, cursor item deleted", change: func(m *memtable.Table[string]) { m.Delete("p", "3", tbl.Key("p", "3")) },
			want: []string{"4", "5", "6"}},
		{name: "desc, cursor item deleted", desc: true, change: func(m *memtable.Table[string]) { m.Delete("p", "7", tbl.Key("p", "7")) },
			want: []string{"6", "5", "4"}},
		{name: "asc, next item deleted", change: func(m *memtable.Table[string]) { m.Delete("p", "4", tbl.Key("p", "4")) },
			want: []string{"5", "6", "7"}},
		{name: "asc, whole page deleted", change: func(m *memtable.Table[string]) {
			for _, sk := range []string{"1", "2", "3"} {
				m.Delete("p", sk, tbl.Key("p", sk))
			}
		}, want: []string{"4", "5", "6"}},
		{name: "asc, inserted after the cursor", change: func(m *memtable.Table[string]) { put(m, "p", "3a") },
			want: []string{"3a", "4", "5"}},
		{name: "asc, inserted before the cursor", change: func(m *memtable.Table[string]) { put(m, "p", "2a") },
			want: []string{"4", "5", "6"}},
		{name: "desc, cursor item deleted and re-added", desc: true, change: func(m *memtable.Table[string]) {
			m.Delete("p", "7", tbl.Key("p", "7"))
			put(m, "p", "7")
		}, want: []string{"6", "5", "4"}},
		{name: "asc, everything after deleted", change: func(m *memtable.Table[string]) {
			for _, sk := range []string{"4", "5", "6", "7", "8", "9"} {
				m.Delete("p", sk, tbl.Key("p", sk))
			}
		}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := memtable.New[string](tbl, ddb.Index{})
			for i := 1; i <= 9; i++ {
				put(m, "p", fmt.Sprint(i))
			}
			q := ddb.KeyQuery{Table: tbl, PartitionValue: "p", Descending: tt.desc}
			_, cursor, err := m.Query(q, 3, "", nil)
			if err != nil || cursor == "" {
				t.Fatalf("first page: (%q, %v), want a cursor", cursor, err)
			}
			tt.change(m)
			got, _, err := m.Query(q, 3, cursor, nil)
			if err != nil {
				t.Fatalf("second page error = %v", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("second page = %q, want %q", got, tt.want)
			}
		})
	}
}

// gsiEntry is an item as a GSI with key (gpk, gsk) sees it.
type gsiEntry struct{ pk, sk, gpk, gsk string }

func (e gsiEntry) key() ddb.Item {
	return ddb.Item{"pk": ddb.S(e.pk), "sk": ddb.S(e.sk), "gpk": ddb.S(e.gpk), "gsk": ddb.S(e.gsk)}
}

func TestIndexTies(t *testing.T) {
	entries := []gsiEntry{
		{"user#2", "item#1", "g", "2024"},
		{"user#1", "item#9", "g", "2024"},
		{"user#1", "item#10", "g", "2024"},
		{"user#10", "item#1", "g", "2024"},
		{"user#1", "item#1", "g", "2023"},
		{"user#3", "x", "g", "2025"},
		{"user#1", "item#2", "h", "2024"}, // another index partition
	}
	m := memtable.New[gsiEntry](tbl, index)
	for _, e := range entries {
		m.Put(e.gpk, e.gsk, e.key(), e)
	}
	q := ddb.KeyQuery{Table: tbl, Index: index, PartitionValue: "g"}
	if got, want := q.KeyAttrs(), []string{"pk", "sk", "gpk", "gsk"}; !slices.Equal(got, want) {
		t.Fatalf("KeyAttrs() = %q, want %q", got, want)
	}

	// Ties on gsk are ordered as DynamoDB Local orders them (localTie).
	var want []gsiEntry
	for _, e := range entries {
		if e.gpk == "g" {
			want = append(want, e)
		}
	}
	slices.SortFunc(want, func(a, b gsiEntry) int {
		if c := strings.Compare(a.gsk, b.gsk); c != 0 {
			return c
		}
		return strings.Compare(localTie(a), localTie(b))
	})
	if got := m.Partition("g"); !slices.Equal(got, want) {
		t.Errorf("Partition(g) =\n%v\nwant\n%v", got, want)
	}
	if got := m.Partition("g"); got[0].gsk != "2023" || got[len(got)-1].gsk != "2025" {
		t.Errorf("Partition(g) is not ordered by gsk first: %v", got)
	}

	for _, desc := range []bool{false, true} {
		for _, limit := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("desc=%t/limit=%d", desc, limit), func(t *testing.T) {
				q := q
				q.Descending = desc
				w := slices.Clone(want)
				if desc {
					slices.Reverse(w)
				}
				checkPages(t, walk(t, m, q, limit, nil), w, limit)
			})
		}
	}

	t.Run("put replaces only the same full key", func(t *testing.T) {
		m := memtable.New[gsiEntry](tbl, index)
		a := gsiEntry{"user#1", "item#1", "g", "2024"}
		b := gsiEntry{"user#1", "item#2", "g", "2024"}
		m.Put(a.gpk, a.gsk, a.key(), a)
		m.Put(b.gpk, b.gsk, b.key(), b)
		m.Put(a.gpk, a.gsk, a.key(), a)
		if got := len(m.Partition("g")); got != 2 {
			t.Errorf("len(Partition) = %d, want 2", got)
		}
		if !m.Delete(b.gpk, b.gsk, b.key()) {
			t.Error("Delete(b) = false, want true")
		}
		if got := m.Partition("g"); !slices.Equal(got, []gsiEntry{a}) {
			t.Errorf("Partition after deleting b = %v, want only a", got)
		}
		if m.Delete(b.gpk, b.gsk, b.key()) {
			t.Error("Delete(b) again = true, want false")
		}
	})

	t.Run("cursor inside ties after the cursor entry is deleted", func(t *testing.T) {
		m := memtable.New[gsiEntry](tbl, index)
		for _, e := range entries {
			m.Put(e.gpk, e.gsk, e.key(), e)
		}
		first, cursor, err := m.Query(q, 2, "", nil)
		if err != nil || cursor == "" {
			t.Fatalf("first page = (%v, %q, %v), want a cursor", first, cursor, err)
		}
		last := first[len(first)-1]
		m.Delete(last.gpk, last.gsk, last.key())
		got, _, err := m.Query(q, 10, cursor, nil)
		if err != nil {
			t.Fatalf("second page error = %v", err)
		}
		if !slices.Equal(got, want[2:]) {
			t.Errorf("second page = %v, want %v", got, want[2:])
		}
	})
}

// TestQueryBadLimit pins that a limit below one is refused as bad input, as
// ddb.QueryPage should: Query's doc promises QueryPage's semantics.
func TestQueryBadLimit(t *testing.T) {
	m := memtable.New[string](tbl, ddb.Index{})
	put(m, "p", "1")
	for _, limit := range []int{0, -1} {
		items, next, err := m.Query(ddb.KeyQuery{Table: tbl, PartitionValue: "p"}, limit, "", nil)
		if !errors.Is(err, ddbkit.ErrInvalidArgument) {
			t.Errorf("Query(limit %d) = (%q, %q, %v), want ErrInvalidArgument", limit, items, next, err)
		}
	}
}

// localTie is what DynamoDB Local orders ties of index (gpk, gsk) by, whose
// key holds neither base key attribute: SHA-1 over its salt and the digests
// of the base partition and sort keys, each over the salt and the value,
// compared bytewise. Written out here, apart from package memtable's, so
// that the two check each other.
func localTie(e gsiEntry) string {
	const salt = "LocalDdb"
	pk, sk := sha1.Sum([]byte(salt+e.pk)), sha1.Sum([]byte(salt+e.sk))
	sum := sha1.Sum([]byte(salt + string(pk[:]) + string(sk[:])))
	return string(sum[:])
}

// model is a sorted-slice model of one index partition: entries ordered by
// gsk, then as DynamoDB Local orders ties (localTie).
type model struct {
	es   []gsiEntry
	ties map[gsiEntry]string
}

func (m *model) order(a, b gsiEntry) int {
	if c := strings.Compare(a.gsk, b.gsk); c != 0 {
		return c
	}
	return strings.Compare(m.tie(a), m.tie(b))
}

func (m *model) tie(e gsiEntry) string {
	s, ok := m.ties[e]
	if !ok {
		s = localTie(e)
		m.ties[e] = s
	}
	return s
}

// put adds e unless it is there.
func (m *model) put(e gsiEntry) {
	if i, found := slices.BinarySearchFunc(m.es, e, m.order); !found {
		m.es = slices.Insert(m.es, i, e)
	}
}

// after returns the entries of m that match c and follow pos in the walk
// direction (all of them when pos is nil), in walk order.
func (m *model) after(c ddb.SortCond, desc bool, pos *gsiEntry) []gsiEntry {
	var out []gsiEntry
	for _, e := range m.es {
		if !c.Match(e.gsk) {
			continue
		}
		if pos != nil && (!desc && m.order(e, *pos) <= 0 || desc && m.order(e, *pos) >= 0) {
			continue
		}
		out = append(out, e)
	}
	if desc {
		slices.Reverse(out)
	}
	return out
}

// TestQueryRandomWrites walks pages while entries come and go between them,
// checking each page against a model: a page holds the first entries that
// follow the previous page's last entry, whatever was written since.
func TestQueryRandomWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	gsks := []string{"a", "a#1", "a#2", "b", "é", "ÿ"}
	conds := []ddb.SortCond{{}, ddb.SortBeginsWith("a"), ddb.SortBetween("a#1", "b"), ddb.SortGT("a#1"), ddb.SortLT("b"), ddb.SortEq("a#2")}
	m := memtable.New[gsiEntry](tbl, index)
	mod := &model{ties: make(map[gsiEntry]string)}
	randomEntry := func() gsiEntry {
		return gsiEntry{pk: fmt.Sprintf("u#%d", r.IntN(4)), sk: fmt.Sprintf("i#%d", r.IntN(30)), gpk: "g", gsk: gsks[r.IntN(len(gsks))]}
	}
	write := func() {
		if len(mod.es) > 0 && r.IntN(3) == 0 {
			i := r.IntN(len(mod.es))
			e := mod.es[i]
			if !m.Delete(e.gpk, e.gsk, e.key()) {
				t.Fatalf("Delete(%v) = false, want true", e)
			}
			mod.es = slices.Delete(mod.es, i, i+1)
			return
		}
		e := randomEntry()
		m.Put(e.gpk, e.gsk, e.key(), e)
		mod.put(e)
	}
	for range 60 {
		write()
	}
	for round := range 150 {
		c := conds[r.IntN(len(conds))]
		desc := r.IntN(2) == 0
		limit := 1 + r.IntN(5)
		q := ddb.KeyQuery{Table: tbl, Index: index, PartitionValue: "g", Sort: c, Descending: desc}
		cursor := ""
		var pos *gsiEntry
		for page := 1; ; page++ {
			got, next, err := m.Query(q, limit, cursor, nil)
			if err != nil {
				t.Fatalf("round %d page %d: Query() error = %v", round, page, err)
			}
			rest := mod.after(c, desc, pos)
			want := rest[:min(limit, len(rest))]
			if !slices.Equal(got, want) {
				t.Fatalf("round %d (%v desc=%t limit=%d) page %d = %v, want %v", round, c, desc, limit, page, got, want)
			}
			if (next != "") != (len(rest) > limit) {
				t.Fatalf("round %d page %d: Next = %q with %d entries left, want a cursor exactly when more than %d are", round, page, next, len(rest), limit)
			}
			if next == "" {
				break
			}
			pos = &got[len(got)-1]
			cursor = next
			for range r.IntN(4) {
				write()
			}
		}
	}
	if got := m.Partition("g"); !slices.Equal(got, mod.es) {
		t.Errorf("Partition(g) = %v, want %v", got, mod.es)
	}
}
