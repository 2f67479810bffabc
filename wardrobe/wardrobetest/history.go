package wardrobetest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

func testAddHistory(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	c1 := mustClothing(t, s, w.ID, "c1", "")
	c2 := mustClothing(t, s, w.ID, "c2", "")
	c3 := mustClothing(t, s, w.ID, "c3", "")
	tp := mustTemplate(t, s, w.ID, "tp", c2.ID, c1.ID)
	tp2 := mustTemplate(t, s, w.ID, "tp2", c3.ID)
	const d3, d5, d7 = wardrobe.Date("20260103"), wardrobe.Date("20260105"), wardrobe.Date("20260107")

	h, err := s.AddHistory(ctx(t), w.ID, wardrobe.NewHistory{Date: d5, TemplateID: tp.ID, ClothingIDs: []string{c2.ID, c1.ID}})
	if err != nil {
		t.Fatalf("AddHistory: %v", err)
	}
	want := wardrobe.History{ID: h.ID, WardrobeID: w.ID, Date: d5, TemplateID: tp.ID, ClothingIDs: []string{c2.ID, c1.ID},
		CreatedAt: tp2.CreatedAt.Add(time.Millisecond)}
	if h.ID == "" || !reflect.DeepEqual(h, want) {
		t.Fatalf("AddHistory = %+v, want %+v", h, want)
	}
	wantClothingStats(t, s, w.ID, c1.ID, 1, day(t, d5))
	wantClothingStats(t, s, w.ID, c2.ID, 1, day(t, d5))
	wantClothingStats(t, s, w.ID, c3.ID, 0, never)
	wantTemplateStats(t, s, w.ID, tp.ID, 1, day(t, d5))
	wantTemplateStats(t, s, w.ID, tp2.ID, 0, never)
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c1.ID, dw(d5, 1))
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp.ID, dw(d5, 1))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c3.ID)
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp2.ID)

	// A second wear the same day counts twice on that day.
	mustHistory(t, s, w.ID, d5, "", c1.ID)
	wantClothingStats(t, s, w.ID, c1.ID, 2, day(t, d5))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c1.ID, dw(d5, 2))
	// An earlier day adds a wear but does not move LastWornAt back.
	mustHistory(t, s, w.ID, d3, tp2.ID, c3.ID, c1.ID)
	wantClothingStats(t, s, w.ID, c1.ID, 3, day(t, d5))
	wantClothingStats(t, s, w.ID, c3.ID, 1, day(t, d3))
	wantTemplateStats(t, s, w.ID, tp2.ID, 1, day(t, d3))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c1.ID, dw(d3, 1), dw(d5, 2))
	// A later day moves it forward.
	mustHistory(t, s, w.ID, d7, "", c2.ID)
	wantClothingStats(t, s, w.ID, c2.ID, 2, day(t, d7))
	wantTemplateStats(t, s, w.ID, tp.ID, 1, day(t, d5))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c2.ID, dw(d5, 1), dw(d7, 1))
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp.ID, dw(d5, 1))

	// The listings by wear count and last worn day see the new statistics
	// at once.
	wantList := func(o wardrobe.Order, want ...string) {
		t.Helper()
		checkWalk(t, fmt.Sprintf("ListClothes by %s, descending", o), want, clothingID,
			clothesFetch(t, s, w.ID, wardrobe.ListQuery{Order: o, Descending: true}), 1, 0)
	}
	wantList(wardrobe.OrderWearCount, c1.ID, c2.ID, c3.ID)
	wantList(wardrobe.OrderLastWornAt, c2.ID, c1.ID, c3.ID)
	got, _ := walk(t, "ListClothes by WEAR", 0, clothesFetch(t, s, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Descending: true}))
	for _, c := range got {
		if read := getClothing(t, s, w.ID, c.ID); c != read {
			t.Fatalf("listed %+v, stored %+v", c, read)
		}
	}
	// tp: 1 wear on d5; tp2: 1 wear on d3. Ties on count break by ID.
	wantT := []string{tp.ID, tp2.ID}
	slices.Sort(wantT)
	checkWalk(t, "ListTemplates by WEAR", wantT, templateID,
		templatesFetch(t, s, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount}), 1, 0)
	checkWalk(t, "ListTemplates by LASTWORN, descending", []string{tp.ID, tp2.ID}, templateID,
		templatesFetch(t, s, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderLastWornAt, Descending: true}), 1, 0)
	mustHistory(t, s, w.ID, d3, tp2.ID, c3.ID)
	checkWalk(t, "ListTemplates by WEAR, descending", []string{tp2.ID, tp.ID}, templateID,
		templatesFetch(t, s, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Descending: true}), 1, 0)
	// c1 3 wears; c2 and c3 2 each, a tie broken by ID.
	wantClothingStats(t, s, w.ID, c3.ID, 2, day(t, d3))
	want3 := expectOrder([]wornStat{{id: c1.ID, count: 3}, {id: c2.ID, count: 2}, {id: c3.ID, count: 2}}, wardrobe.OrderWearCount, true)
	checkWalk(t, "ListClothes by WEAR, descending", want3, clothingID,
		clothesFetch(t, s, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Descending: true}), 2)
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp2.ID, dw(d3, 2))
}

// testDateLimits wears clothes on the first and last valid dates: the
// last is the last midnight whose Unix ms fits the seed's 13 digits.
// The day after is refused, and nothing is written.
func testDateLimits(t *testing.T, newStore NewStore) {
	const mid = wardrobe.Date("20260103")
	if wardrobe.MaxDate != "22861120" {
		t.Fatalf("MaxDate = %s, want 22861120, the last midnight with 13 digits of Unix ms (%d)",
			wardrobe.MaxDate, time.Date(2286, 11, 20, 0, 0, 0, 0, time.UTC).UnixMilli())
	}
	for _, d := range []wardrobe.Date{wardrobe.MinDate, wardrobe.MaxDate} {
		t.Run(string(d), func(t *testing.T) {
			s := fixed(t, newStore)
			w := mustWardrobe(t, s, "w")
			c := mustClothing(t, s, w.ID, "c", "")
			mustHistory(t, s, w.ID, mid, "", c.ID)
			h := mustHistory(t, s, w.ID, d, "", c.ID)
			last := day(t, mid)
			if d > mid {
				last = day(t, d)
			}
			wantClothingStats(t, s, w.ID, c.ID, 2, last)
			wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID, sortedDaily(dw(mid, 1), dw(d, 1))...)
			checkWalk(t, "ListClothes by LASTWORN", []string{c.ID}, clothingID,
				clothesFetch(t, s, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderLastWornAt}), 0)
			p, err := s.ListHistory(ctx(t), w.ID, wardrobe.HistoryQuery{From: d, To: d})
			if err != nil || len(p.Items) != 1 || p.Items[0].ID != h.ID {
				t.Fatalf("ListHistory(%s..%s) = %+v, %v; want the history", d, d, p.Items, err)
			}
			p, err = s.ListHistory(ctx(t), w.ID, wardrobe.HistoryQuery{From: wardrobe.MinDate, To: wardrobe.MaxDate})
			if err != nil || len(p.Items) != 2 {
				t.Fatalf("ListHistory(MinDate..MaxDate) = %+v, %v; want both histories", p.Items, err)
			}
			mustDeleteHistory(t, s, w.ID, h.ID)
			wantClothingStats(t, s, w.ID, c.ID, 1, day(t, mid))
			wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID, dw(mid, 1))
		})
	}
	for _, d := range []wardrobe.Date{"22861121", "99991231", "19700101"} {
		t.Run("refused "+string(d), func(t *testing.T) {
			s := fixed(t, newStore)
			w := mustWardrobe(t, s, "w")
			c := mustClothing(t, s, w.ID, "c", "")
			mustHistory(t, s, w.ID, mid, "", c.ID)
			_, err := s.AddHistory(ctx(t), w.ID, wardrobe.NewHistory{Date: d, ClothingIDs: []string{c.ID}})
			wantField(t, fmt.Sprintf("AddHistory(%s)", d), err, "Date")
			if hs := allHistory(t, s, w.ID); len(hs) != 1 {
				t.Errorf("after the refused AddHistory(%s): %d histories, want 1: %+v", d, len(hs), hs)
			}
			wantClothingStats(t, s, w.ID, c.ID, 1, day(t, mid))
			wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID, dw(mid, 1))
			_, err = s.ListHistory(ctx(t), w.ID, wardrobe.HistoryQuery{To: d})
			wantField(t, fmt.Sprintf("ListHistory(To %s)", d), err, "To")
			_, err = s.ListDailyWear(ctx(t), w.ID, wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{From: d})
			wantField(t, fmt.Sprintf("ListDailyWear(From %s)", d), err, "From")
		})
	}
}

func sortedDaily(ds ...wardrobe.DailyWear) []wardrobe.DailyWear {
	slices.SortFunc(ds, func(a, b wardrobe.DailyWear) int { return strings.Compare(string(a.Date), string(b.Date)) })
	return ds
}

func testAddHistoryBadInput(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	other := mustWardrobe(t, s, "other")
	cs := mustClothes(t, s, w.ID, 20)
	gone := mustDeleteClothing(t, s, w.ID, mustClothing(t, s, w.ID, "gone", "").ID)
	tp := mustTemplate(t, s, w.ID, "tp", ids(cs, 0, 1)...)
	goneTp := mustDeleteTemplate(t, s, w.ID, mustTemplate(t, s, w.ID, "goneTp", ids(cs, 0)...).ID)
	foreign := mustClothing(t, s, other.ID, "foreign", "")
	foreignTp := mustTemplate(t, s, other.ID, "foreignTp", foreign.ID)

	clothes := append(slices.Clone(cs), gone)
	templates := []wardrobe.Template{tp, goneTp}
	snapshot := func() ([]wardrobe.Clothing, []wardrobe.Template) {
		t.Helper()
		var c []wardrobe.Clothing
		for _, x := range clothes {
			c = append(c, getClothing(t, s, w.ID, x.ID))
		}
		var tps []wardrobe.Template
		for _, x := range templates {
			tps = append(tps, getTemplate(t, s, w.ID, x.ID))
		}
		return c, tps
	}
	beforeC, beforeT := snapshot()
	beforeForeign := getClothing(t, s, other.ID, foreign.ID)

	tooMany := append(ids(cs, 0, 1, 2), make([]string, 18)...)
	for i := 3; i < 21; i++ {
		tooMany[i] = fmt.Sprintf("x%02d", i)
	}
	ok := wardrobe.NewHistory{Date: "20260105", TemplateID: tp.ID, ClothingIDs: ids(cs, 0, 1)}
	with := func(f func(*wardrobe.NewHistory)) wardrobe.NewHistory {
		in := ok
		in.ClothingIDs = slices.Clone(ok.ClothingIDs)
		f(&in)
		return in
	}
	tests := []struct {
		name  string
		wid   string
		in    wardrobe.NewHistory
		field string // "" for ErrNotFound
	}{
		{"21 clothes", w.ID, with(func(in *wardrobe.NewHistory) { in.ClothingIDs = tooMany }), "ClothingIDs"},
		{"no clothes", w.ID, with(func(in *wardrobe.NewHistory) { in.ClothingIDs = nil }), "ClothingIDs"},
		{"duplicate", w.ID, with(func(in *wardrobe.NewHistory) { in.ClothingIDs = ids(cs, 0, 1, 0) }), "ClothingIDs[2]"},
		{"unknown clothing", w.ID, with(func(in *wardrobe.NewHistory) { in.ClothingIDs = []string{cs[0].ID, "no-such"} }), "ClothingIDs[1]"},
		{"another wardrobe's clothing", w.ID, with(func(in *wardrobe.NewHistory) { in.ClothingIDs = []string{cs[0].ID, foreign.ID} }), "ClothingIDs[1]"},
		{"DELETED clothing", w.ID, with(func(in *wardrobe.NewHistory) { in.ClothingIDs = []string{cs[0].ID, cs[1].ID, gone.ID} }), "ClothingIDs[2]"},
		{"DELETED clothing without template", w.ID, with(func(in *wardrobe.NewHistory) { in.TemplateID, in.ClothingIDs = "", []string{gone.ID} }), "ClothingIDs[0]"},
		{"# in a clothing ID", w.ID, with(func(in *wardrobe.NewHistory) { in.ClothingIDs = []string{"a#b"} }), "ClothingIDs[0]"},
		{"DELETED template", w.ID, with(func(in *wardrobe.NewHistory) { in.TemplateID = goneTp.ID }), "TemplateID"},
		{"unknown template", w.ID, with(func(in *wardrobe.NewHistory) { in.TemplateID = "no-such-template" }), "TemplateID"},
		{"another wardrobe's template", w.ID, with(func(in *wardrobe.NewHistory) { in.TemplateID = foreignTp.ID }), "TemplateID"},
		{"a clothing as template", w.ID, with(func(in *wardrobe.NewHistory) { in.TemplateID = cs[0].ID }), "TemplateID"},
		{"# in template ID", w.ID, with(func(in *wardrobe.NewHistory) { in.TemplateID = "t#1" }), "TemplateID"},
		{"ISO date", w.ID, with(func(in *wardrobe.NewHistory) { in.Date = "2026-01-01" }), "Date"},
		{"month 13", w.ID, with(func(in *wardrobe.NewHistory) { in.Date = "20261301" }), "Date"},
		{"February 30", w.ID, with(func(in *wardrobe.NewHistory) { in.Date = "20260230" }), "Date"},
		{"letters", w.ID, with(func(in *wardrobe.NewHistory) { in.Date = "abc" }), "Date"},
		{"no date", w.ID, with(func(in *wardrobe.NewHistory) { in.Date = "" }), "Date"},
		{"the epoch", w.ID, with(func(in *wardrobe.NewHistory) { in.Date = "19700101" }), "Date"},
		{"# in wardrobe ID", "w#1", ok, "WardrobeID"},
		{"unknown wardrobe", "no-such-wardrobe", ok, ""},
		{"another wardrobe", other.ID, ok, "TemplateID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.AddHistory(ctx(t), tt.wid, tt.in)
			if tt.field == "" {
				wantErr(t, "AddHistory("+tt.name+")", err, ddbkit.ErrNotFound)
			} else {
				wantField(t, "AddHistory("+tt.name+")", err, tt.field)
			}
			// Nothing was written.
			afterC, afterT := snapshot()
			if !slices.Equal(afterC, beforeC) {
				t.Fatalf("a refused AddHistory changed clothes:\n got %+v\nwant %+v", afterC, beforeC)
			}
			if !reflect.DeepEqual(afterT, beforeT) {
				t.Fatalf("a refused AddHistory changed templates:\n got %+v\nwant %+v", afterT, beforeT)
			}
			if got := getClothing(t, s, other.ID, foreign.ID); got != beforeForeign {
				t.Fatalf("a refused AddHistory changed another wardrobe's clothing: %+v, want %+v", got, beforeForeign)
			}
			for _, wid := range []string{w.ID, other.ID, "no-such-wardrobe"} {
				if hs := allHistory(t, s, wid); len(hs) != 0 {
					t.Fatalf("a refused AddHistory stored %+v", hs)
				}
			}
			for _, c := range []wardrobe.Clothing{cs[0], cs[1], cs[2], gone} {
				wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID)
			}
			for _, tp := range templates {
				wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp.ID)
			}
			wantDaily(t, s, other.ID, wardrobe.KindClothing, foreign.ID)
		})
	}
	// 20 clothes are fine, in the order given.
	all := make([]string, 20)
	for i := range all {
		all[i] = cs[(i*7)%20].ID
	}
	h := mustHistory(t, s, w.ID, "20260105", tp.ID, all...)
	if d, err := s.GetHistory(ctx(t), w.ID, h.ID); err != nil || !slices.Equal(d.ClothingIDs, all) || len(d.Clothes) != 20 {
		t.Fatalf("GetHistory(20 clothes) = %+v, %v", d, err)
	}
	for _, c := range cs {
		wantClothingStats(t, s, w.ID, c.ID, 1, day(t, "20260105"))
	}
	wantClothingStats(t, s, w.ID, gone.ID, 0, never)
}

func testGetHistory(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	a := mustClothing(t, s, w.ID, "a", "img/a.png")
	b := mustClothing(t, s, w.ID, "b", "")
	c := mustClothing(t, s, w.ID, "c", "img/c.png")
	d := mustClothing(t, s, w.ID, "d", "img/d.png")
	e := mustClothing(t, s, w.ID, "e", "")
	tp := mustTemplate(t, s, w.ID, "tp", a.ID, b.ID)
	h := mustHistory(t, s, w.ID, "20260110", tp.ID, e.ID, a.ID, c.ID, b.ID, d.ID)
	plain := mustHistory(t, s, w.ID, "20260111", "", d.ID)
	mustDeleteClothing(t, s, w.ID, c.ID)
	mustDeleteTemplate(t, s, w.ID, tp.ID)

	got, err := s.GetHistory(ctx(t), w.ID, h.ID)
	if err != nil {
		t.Fatalf("GetHistory: %v", err)
	}
	if !reflect.DeepEqual(got.History, h) {
		t.Fatalf("GetHistory = %+v, want %+v", got.History, h)
	}
	if got.TemplateID != tp.ID || got.Date != "20260110" || !got.CreatedAt.Equal(h.CreatedAt) || got.WardrobeID != w.ID {
		t.Fatalf("GetHistory = %+v: want template %q, date 20260110, CreatedAt %v", got.History, tp.ID, h.CreatedAt)
	}
	want := []wardrobe.Thumbnail{
		{ClothingID: e.ID, Name: "e"},
		{ClothingID: a.ID, Name: "a", ImageKey: "img/a.png"},
		{ClothingID: c.ID, Name: "c", ImageKey: "img/c.png", Deleted: true},
		{ClothingID: b.ID, Name: "b"},
		{ClothingID: d.ID, Name: "d", ImageKey: "img/d.png"},
	}
	if !reflect.DeepEqual(got.Clothes, want) {
		t.Fatalf("GetHistory clothes =\n %+v\nwant\n %+v", got.Clothes, want)
	}
	gp, err := s.GetHistory(ctx(t), w.ID, plain.ID)
	if err != nil || !reflect.DeepEqual(gp.History, plain) || gp.TemplateID != "" ||
		!reflect.DeepEqual(gp.Clothes, []wardrobe.Thumbnail{{ClothingID: d.ID, Name: "d", ImageKey: "img/d.png"}}) {
		t.Fatalf("GetHistory(without template) = %+v, %v", gp, err)
	}

	_, err = s.GetHistory(ctx(t), w.ID, "no-such-history")
	wantErr(t, "GetHistory(unknown)", err, ddbkit.ErrNotFound)
	_, err = s.GetHistory(ctx(t), w.ID, a.ID)
	wantErr(t, "GetHistory(a clothing's ID)", err, ddbkit.ErrNotFound)
	other := mustWardrobe(t, s, "other")
	_, err = s.GetHistory(ctx(t), other.ID, h.ID)
	wantErr(t, "GetHistory(another wardrobe)", err, ddbkit.ErrNotFound)
	_, err = s.GetHistory(ctx(t), w.ID, "h#1")
	wantField(t, "GetHistory(#)", err, "HistoryID")
}

// histModel is a history as the test made it.
type histModel struct {
	h   wardrobe.History
	key string // date, then ID: the HistoryByDate order
}

func sortedHistories(hs []wardrobe.History) []string {
	ms := make([]histModel, len(hs))
	for i, h := range hs {
		ms[i] = histModel{h: h, key: string(h.Date) + "#" + h.ID}
	}
	slices.SortFunc(ms, func(a, b histModel) int { return strings.Compare(a.key, b.key) })
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.h.ID
	}
	return out
}

func testListHistory(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	other := mustWardrobe(t, s, "other")
	mustHistory(t, s, other.ID, "20260104", "", mustClothing(t, s, other.ID, "x", "").ID)
	cs := make([]wardrobe.Clothing, 7)
	for i := range cs {
		img := ""
		if i%2 == 0 {
			img = fmt.Sprintf("img/%d.png", i)
		}
		cs[i] = mustClothing(t, s, w.ID, fmt.Sprint("c", i), img)
	}
	tp := mustTemplate(t, s, w.ID, "tp", ids(cs, 0, 1)...)
	const d1, d2, d4, d6 = wardrobe.Date("20260101"), wardrobe.Date("20260102"), wardrobe.Date("20260104"), wardrobe.Date("20260106")
	hs := []wardrobe.History{
		mustHistory(t, s, w.ID, d4, tp.ID, ids(cs, 6, 5, 4, 3, 2, 1)...),
		mustHistory(t, s, w.ID, d1, "", ids(cs, 0)...),
		mustHistory(t, s, w.ID, d4, "", ids(cs, 1, 2, 3, 4)...),
		mustHistory(t, s, w.ID, d2, "", ids(cs, 2, 3, 4, 5, 6)...),
		mustHistory(t, s, w.ID, d1, tp.ID, ids(cs, 1, 0)...),
		mustHistory(t, s, w.ID, d6, "", ids(cs, 3)...),
		mustHistory(t, s, w.ID, d4, "", ids(cs, 5, 6)...),
	}
	mustDeleteClothing(t, s, w.ID, cs[2].ID) // shows with the deleted overlay
	byID := map[string]wardrobe.History{}
	for _, h := range hs {
		byID[h.ID] = h
	}
	in := func(from, to wardrobe.Date) []wardrobe.History {
		var out []wardrobe.History
		for _, h := range hs {
			if (from == "" || h.Date >= from) && (to == "" || h.Date <= to) {
				out = append(out, h)
			}
		}
		return out
	}
	ranges := []struct {
		name     string
		from, to wardrobe.Date
		n        int
	}{
		{"all", "", "", 7},
		{"from d2 to d4", d2, d4, 4},
		{"from d4", d4, "", 4},
		{"to d2", "", d2, 3},
		{"one day", d4, d4, 3},
		{"from the first to the last day", d1, d6, 7},
		{"a day without histories", "20260103", "20260103", 0},
		{"after the last day", "20260107", "", 0},
		{"before the first day", "", "20251231", 0},
		{"a wider range", "20251201", "20260201", 7},
	}
	for _, r := range ranges {
		for _, desc := range []bool{false, true} {
			name := fmt.Sprintf("%s/desc=%v", r.name, desc)
			t.Run(name, func(t *testing.T) {
				want := sortedHistories(in(r.from, r.to))
				if len(want) != r.n {
					t.Fatalf("test model: %d histories in range, want %d", len(want), r.n)
				}
				if desc {
					want = reversed(want)
				}
				q := wardrobe.HistoryQuery{From: r.from, To: r.to, Descending: desc}
				checkWalk(t, "ListHistory "+name, want, historyID, historyFetch(t, s, w.ID, q), 1, 2, 3, 0)
			})
		}
	}
	// Every summary is the history with thumbnails of its first four
	// clothes and the +x badge.
	got, _ := walk(t, "ListHistory", 2, historyFetch(t, s, w.ID, wardrobe.HistoryQuery{}))
	mores := map[int]int{}
	for _, sum := range got {
		h := byID[sum.ID]
		if !reflect.DeepEqual(sum.History, h) {
			t.Fatalf("listed history %+v, want %+v", sum.History, h)
		}
		th, more := wantThumbs(t, s, w.ID, h.ClothingIDs)
		if !reflect.DeepEqual(sum.Thumbnails, th) || sum.More != more {
			t.Fatalf("history %s %q: thumbnails %+v, +%d; want %+v, +%d", h.Date, h.ID, sum.Thumbnails, sum.More, th, more)
		}
		mores[len(h.ClothingIDs)] = sum.More
	}
	if want := map[int]int{1: 0, 2: 0, 4: 0, 5: 1, 6: 2}; !reflect.DeepEqual(mores, want) {
		t.Fatalf("+x by number of clothes = %v, want %v", mores, want)
	}
	// The six-clothing history, spelled out: cs[2] is deleted, odd ones
	// have no image.
	six, err := s.ListHistory(ctx(t), w.ID, wardrobe.HistoryQuery{From: d4, To: d4, PageOptions: ddbkit.PageOptions{Limit: 3}})
	if err != nil {
		t.Fatalf("ListHistory: %v", err)
	}
	for _, sum := range six.Items {
		if sum.ID != hs[0].ID {
			continue
		}
		want := []wardrobe.Thumbnail{
			{ClothingID: cs[6].ID, Name: "c6", ImageKey: "img/6.png"},
			{ClothingID: cs[5].ID, Name: "c5"},
			{ClothingID: cs[4].ID, Name: "c4", ImageKey: "img/4.png"},
			{ClothingID: cs[3].ID, Name: "c3"},
		}
		if !reflect.DeepEqual(sum.Thumbnails, want) || sum.More != 2 || sum.TemplateID != tp.ID {
			t.Fatalf("six-clothing history: %+v, +%d; want %+v, +2", sum.Thumbnails, sum.More, want)
		}
	}
	for _, sum := range got {
		if sum.ID == hs[3].ID && (!sum.Thumbnails[0].Deleted || sum.Thumbnails[0].ImageKey != "img/2.png" || sum.More != 1) {
			t.Fatalf("history with a deleted clothing first: %+v, +%d; want it Deleted with its image, +1", sum.Thumbnails, sum.More)
		}
	}

	// Bad ranges name their field.
	for _, tc := range []struct {
		q     wardrobe.HistoryQuery
		field string
	}{
		{wardrobe.HistoryQuery{From: "20260105", To: "20260101"}, "To"},
		{wardrobe.HistoryQuery{From: "2026-01-01"}, "From"},
		{wardrobe.HistoryQuery{To: "20261301"}, "To"},
		{wardrobe.HistoryQuery{From: "abc", To: "20260101"}, "From"},
		{wardrobe.HistoryQuery{From: "20260101", To: "2026011"}, "To"},
		{wardrobe.HistoryQuery{From: "19700101"}, "From"},
		{wardrobe.HistoryQuery{PageOptions: ddbkit.PageOptions{Limit: -1}}, "Limit"},
	} {
		_, err := s.ListHistory(ctx(t), w.ID, tc.q)
		wantField(t, fmt.Sprintf("ListHistory(%+v)", tc.q), err, tc.field)
	}
}

func testLastWeek(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "")
	// Today is early in March of a common year: the week reaches back into
	// February.
	const today = wardrobe.Date("20260303")
	if got, err := today.AddDays(-6); got != "20260225" || err != nil {
		t.Fatalf("AddDays(-6) of %s = %s, %v; want 20260225", today, got, err)
	}
	byDay := map[wardrobe.Date]string{}
	for _, d := range []wardrobe.Date{"20260224", "20260225", "20260228", today, "20260304"} {
		byDay[d] = mustHistory(t, s, w.ID, d, "", c.ID).ID
	}
	q := wardrobe.HistoryQuery{From: addDays(t, today, -6), To: today, Descending: true}
	want := []string{byDay[today], byDay["20260228"], byDay["20260225"]}
	checkWalk(t, "ListHistory(last 7 days)", want, historyID, historyFetch(t, s, w.ID, q), 1, 2, 0)
	p, err := s.ListHistory(ctx(t), w.ID, q)
	if err != nil || len(p.Items) != 3 || p.Items[0].Date != today || p.Items[2].Date != "20260225" {
		t.Fatalf("ListHistory(last 7 days) = %+v, %v", p.Items, err)
	}
}

func testDeleteHistory(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	c1 := mustClothing(t, s, w.ID, "c1", "")
	c2 := mustClothing(t, s, w.ID, "c2", "")
	tp := mustTemplate(t, s, w.ID, "tp", c1.ID, c2.ID)
	const d1, d3, d5 = wardrobe.Date("20260101"), wardrobe.Date("20260103"), wardrobe.Date("20260105")
	h1 := mustHistory(t, s, w.ID, d1, "", c1.ID)
	h2 := mustHistory(t, s, w.ID, d3, tp.ID, c1.ID, c2.ID)
	h3 := mustHistory(t, s, w.ID, d3, "", c1.ID)
	h4 := mustHistory(t, s, w.ID, d5, "", c1.ID)
	h5 := mustHistory(t, s, w.ID, d5, "", c1.ID)
	wantClothingStats(t, s, w.ID, c1.ID, 5, day(t, d5))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c1.ID, dw(d1, 1), dw(d3, 2), dw(d5, 2))

	// Not the latest day: LastWornAt stays.
	mustDeleteHistory(t, s, w.ID, h3.ID)
	wantClothingStats(t, s, w.ID, c1.ID, 4, day(t, d5))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c1.ID, dw(d1, 1), dw(d3, 1), dw(d5, 2))
	// The latest day keeps another wear: LastWornAt stays.
	mustDeleteHistory(t, s, w.ID, h5.ID)
	wantClothingStats(t, s, w.ID, c1.ID, 3, day(t, d5))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c1.ID, dw(d1, 1), dw(d3, 1), dw(d5, 1))
	// The latest day loses its last wear: LastWornAt moves to the next
	// latest day and the counter goes.
	mustDeleteHistory(t, s, w.ID, h4.ID)
	wantClothingStats(t, s, w.ID, c1.ID, 2, day(t, d3))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c1.ID, dw(d1, 1), dw(d3, 1))
	// c1 and c2 were both last worn on d3: a tie broken by ID.
	wantClothingStats(t, s, w.ID, c2.ID, 1, day(t, d3))
	want := expectOrder([]wornStat{{id: c1.ID, last: day(t, d3)}, {id: c2.ID, last: day(t, d3)}}, wardrobe.OrderLastWornAt, true)
	checkWalk(t, "ListClothes by LASTWORN, descending", want, clothingID,
		clothesFetch(t, s, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderLastWornAt, Descending: true}), 1)

	// Statistics stay with DELETED items, and a history that wore them
	// still takes its wear back.
	mustDeleteClothing(t, s, w.ID, c2.ID)
	mustDeleteTemplate(t, s, w.ID, tp.ID)
	mustDeleteHistory(t, s, w.ID, h2.ID)
	wantClothingStats(t, s, w.ID, c1.ID, 1, day(t, d1))
	wantClothingStats(t, s, w.ID, c2.ID, 0, never)
	wantTemplateStats(t, s, w.ID, tp.ID, 0, never)
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c1.ID, dw(d1, 1))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c2.ID)
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp.ID)
	if got := getClothing(t, s, w.ID, c2.ID); got.Status != wardrobe.StatusDeleted {
		t.Fatalf("DeleteHistory restored a DELETED clothing: %+v", got)
	}
	checkWalk(t, "DELETED clothes by WEAR", []string{c2.ID}, clothingID,
		clothesFetch(t, s, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Status: wardrobe.StatusDeleted}), 0)

	wantErr(t, "DeleteHistory twice", s.DeleteHistory(ctx(t), w.ID, h2.ID), ddbkit.ErrNotFound)
	_, err := s.GetHistory(ctx(t), w.ID, h2.ID)
	wantErr(t, "GetHistory after delete", err, ddbkit.ErrNotFound)
	wantErr(t, "DeleteHistory(unknown)", s.DeleteHistory(ctx(t), w.ID, "no-such-history"), ddbkit.ErrNotFound)
	wantErr(t, "DeleteHistory(unknown wardrobe)", s.DeleteHistory(ctx(t), "no-such-wardrobe", h1.ID), ddbkit.ErrNotFound)
	wantField(t, "DeleteHistory(#)", s.DeleteHistory(ctx(t), w.ID, "h#1"), "HistoryID")
	// The refused deletes took nothing.
	wantClothingStats(t, s, w.ID, c1.ID, 1, day(t, d1))

	// The last wear goes: never worn again.
	mustDeleteHistory(t, s, w.ID, h1.ID)
	wantClothingStats(t, s, w.ID, c1.ID, 0, never)
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c1.ID)
	if hs := allHistory(t, s, w.ID); len(hs) != 0 {
		t.Fatalf("histories left: %+v", hs)
	}
	rep, err := s.RecalculateStats(ctx(t), w.ID)
	if err != nil || rep.Checked != 3 || len(rep.Drifts) != 0 {
		t.Fatalf("RecalculateStats = %+v, %v; want 3 checked, no drift", rep, err)
	}
	// Worn again after everything went.
	mustHistory(t, s, w.ID, d3, "", c1.ID)
	wantClothingStats(t, s, w.ID, c1.ID, 1, day(t, d3))
}
