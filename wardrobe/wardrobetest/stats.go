package wardrobetest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

func testListDailyWear(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "")
	o := mustClothing(t, s, w.ID, "o", "")
	tp := mustTemplate(t, s, w.ID, "tp", c.ID)
	const d1, d2, d3, d5, d8 = wardrobe.Date("20251231"), wardrobe.Date("20260101"), wardrobe.Date("20260103"), wardrobe.Date("20260105"), wardrobe.Date("20260108")
	for _, d := range []wardrobe.Date{d5, d1, d3, d8, d2, d3} {
		mustHistory(t, s, w.ID, d, "", c.ID)
	}
	mustHistory(t, s, w.ID, d3, tp.ID, c.ID, o.ID)
	mustHistory(t, s, w.ID, d2, tp.ID, c.ID)
	all := []wardrobe.DailyWear{dw(d1, 1), dw(d2, 2), dw(d3, 3), dw(d5, 1), dw(d8, 1)}
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID, all...)
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp.ID, dw(d2, 1), dw(d3, 1))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, o.ID, dw(d3, 1))
	wantClothingStats(t, s, w.ID, c.ID, 8, day(t, d8))

	ranges := []struct {
		name     string
		from, to wardrobe.Date
		want     []wardrobe.DailyWear
	}{
		{"all", "", "", all},
		{"from d2 to d5", d2, d5, all[1:4]},
		{"from d3", d3, "", all[2:]},
		{"to d3", "", d3, all[:3]},
		{"one day", d5, d5, all[3:4]},
		{"between wears", "20260106", "20260107", nil},
		{"wider", "20251201", "20260201", all},
	}
	for _, r := range ranges {
		for _, desc := range []bool{false, true} {
			name := fmt.Sprintf("%s/desc=%v", r.name, desc)
			t.Run(name, func(t *testing.T) {
				want := r.want
				if desc {
					want = reversed(want)
				}
				q := wardrobe.DailyQuery{From: r.from, To: r.to, Descending: desc}
				fetch := dailyFetch(t, s, w.ID, wardrobe.KindClothing, c.ID, q)
				dates := make([]string, len(want))
				for i, d := range want {
					dates[i] = string(d.Date)
				}
				checkWalk(t, "ListDailyWear "+name, dates, dailyDate, fetch, 1, 2, 0)
				got, _ := walk(t, "ListDailyWear "+name, 2, fetch)
				if len(got) == 0 && len(want) == 0 {
					return
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("ListDailyWear %s = %v, want %v", name, got, want)
				}
			})
		}
	}
	// A clothing's ID under the template kind, or an unknown item, has no
	// counters.
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, c.ID)
	wantDaily(t, s, w.ID, wardrobe.KindClothing, tp.ID)
	wantDaily(t, s, w.ID, wardrobe.KindClothing, "no-such-clothing")
	other := mustWardrobe(t, s, "other")
	wantDaily(t, s, other.ID, wardrobe.KindClothing, c.ID)

	for _, tc := range []struct {
		name  string
		kind  wardrobe.Kind
		id    string
		q     wardrobe.DailyQuery
		field string
	}{
		{"unknown kind", "CLOTHING", c.ID, wardrobe.DailyQuery{}, "Kind"},
		{"lower-case kind", "cloth", c.ID, wardrobe.DailyQuery{}, "Kind"},
		{"no kind", "", c.ID, wardrobe.DailyQuery{}, "Kind"},
		{"# in ID", wardrobe.KindClothing, "a#b", wardrobe.DailyQuery{}, "ID"},
		{"empty ID", wardrobe.KindTemplate, "", wardrobe.DailyQuery{}, "ID"},
		{"bad From", wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{From: "2026-01-01"}, "From"},
		{"bad To", wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{To: "20260132"}, "To"},
		{"From after To", wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{From: d5, To: d3}, "To"},
		{"limit too large", wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{PageOptions: ddbkit.PageOptions{Limit: ddbkit.MaxPageLimit + 1}}, "Limit"},
	} {
		_, err := s.ListDailyWear(ctx(t), w.ID, tc.kind, tc.id, tc.q)
		wantField(t, "ListDailyWear("+tc.name+")", err, tc.field)
	}
	_, err := s.ListDailyWear(ctx(t), "w#1", wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{})
	wantField(t, "ListDailyWear(# in wardrobe)", err, "WardrobeID")
}

func testRecalculateStats(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	empty := mustWardrobe(t, s, "empty")
	if rep, err := s.RecalculateStats(ctx(t), empty.ID); err != nil || rep.Checked != 0 || len(rep.Drifts) != 0 {
		t.Fatalf("RecalculateStats(empty wardrobe) = %+v, %v; want 0 checked, no drift", rep, err)
	}
	cs := mustClothes(t, s, w.ID, 4)
	t1 := mustTemplate(t, s, w.ID, "t1", ids(cs, 0, 1)...)
	t2 := mustTemplate(t, s, w.ID, "t2", ids(cs, 2)...)
	mustHistory(t, s, w.ID, "20260101", t1.ID, ids(cs, 0, 1)...)
	mustHistory(t, s, w.ID, "20260102", t2.ID, ids(cs, 2, 0)...)
	h := mustHistory(t, s, w.ID, "20260103", "", ids(cs, 0)...)
	mustHistory(t, s, w.ID, "20260102", t2.ID, ids(cs, 2)...)
	mustDeleteHistory(t, s, w.ID, h.ID)
	mustDeleteClothing(t, s, w.ID, cs[1].ID)
	mustDeleteTemplate(t, s, w.ID, t2.ID)
	// Another wardrobe's items are not checked.
	other := mustWardrobe(t, s, "other")
	mustTemplate(t, s, other.ID, "x", mustClothing(t, s, other.ID, "x", "").ID)

	before := make([]wardrobe.Clothing, len(cs))
	for i, c := range cs {
		before[i] = getClothing(t, s, w.ID, c.ID)
	}
	t1b, t2b := getTemplate(t, s, w.ID, t1.ID), getTemplate(t, s, w.ID, t2.ID)
	for range 2 {
		rep, err := s.RecalculateStats(ctx(t), w.ID)
		if err != nil || rep.Checked != 6 || len(rep.Drifts) != 0 {
			t.Fatalf("RecalculateStats = %+v, %v; want 6 checked (4 clothes, 2 templates, ACTIVE and DELETED), no drift", rep, err)
		}
	}
	for i, c := range cs {
		if got := getClothing(t, s, w.ID, c.ID); got != before[i] {
			t.Fatalf("RecalculateStats changed a consistent clothing: %+v, want %+v", got, before[i])
		}
	}
	if got := getTemplate(t, s, w.ID, t1.ID); !reflect.DeepEqual(got, t1b) {
		t.Fatalf("RecalculateStats changed a consistent template: %+v, want %+v", got, t1b)
	}
	if got := getTemplate(t, s, w.ID, t2.ID); !reflect.DeepEqual(got, t2b) {
		t.Fatalf("RecalculateStats changed a consistent template: %+v, want %+v", got, t2b)
	}
	wantStats(t, "c0", 2, before[0].WearCount, day(t, "20260102"), before[0].LastWornAt)
	wantStats(t, "t2", 2, t2b.WearCount, day(t, "20260102"), t2b.LastWornAt)

	_, err := s.RecalculateStats(ctx(t), "no-such-wardrobe")
	wantErr(t, "RecalculateStats(unknown wardrobe)", err, ddbkit.ErrNotFound)
	_, err = s.RecalculateStats(ctx(t), "w#1")
	wantField(t, "RecalculateStats(#)", err, "WardrobeID")
}

// testBadInput checks that every method names the offending field of bad
// input, and that nothing is written.
func testBadInput(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "c.png")
	tp := mustTemplate(t, s, w.ID, "tp", c.ID)
	h := mustHistory(t, s, w.ID, "20260101", tp.ID, c.ID)
	c, tp = getClothing(t, s, w.ID, c.ID), getTemplate(t, s, w.ID, tp.ID)
	longID := strings.Repeat("i", wardrobe.MaxIDLen+1)
	e := func(_ any, err error) error { return err }

	tests := []struct {
		name  string
		call  func() error
		field string
	}{
		{"create wardrobe, blank name", func() error { return e(s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: "\u3000"})) }, "Name"},
		{"create wardrobe, 41 characters", func() error { return e(s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: long(41)})) }, "Name"},
		{"create wardrobe, two lines", func() error { return e(s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: "a\nb"})) }, "Name"},
		{"add clothing, tab in name", func() error { return e(s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: "a\tb"})) }, "Name"},
		{"add clothing, two-line image key", func() error {
			return e(s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: "x", ImageKey: "a\nb"}))
		}, "ImageKey"},
		{"update clothing, control character in name", func() error {
			return e(s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{Name: ptr("a\x00b")}))
		}, "Name"},
		{"update template, two-line name", func() error {
			return e(s.UpdateTemplate(ctx(t), w.ID, tp.ID, wardrobe.TemplatePatch{Name: ptr("a\r\nb")}))
		}, "Name"},
		{"get clothing, control character", func() error { return e(s.GetClothing(ctx(t), w.ID, "a\x7fb")) }, "ClothingID"},
		{"get wardrobe, #", func() error { return e(s.GetWardrobe(ctx(t), "W#x")) }, "WardrobeID"},
		{"get wardrobe, white space", func() error { return e(s.GetWardrobe(ctx(t), "a\tb")) }, "WardrobeID"},
		{"get wardrobe, 129 characters", func() error { return e(s.GetWardrobe(ctx(t), longID)) }, "WardrobeID"},
		{"add clothing, # in wardrobe", func() error { return e(s.AddClothing(ctx(t), w.ID+"#CLOTH", wardrobe.NewClothing{Name: "x"})) }, "WardrobeID"},
		{"add clothing, empty name", func() error { return e(s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{})) }, "Name"},
		{"add clothing, invalid UTF-8 image key", func() error {
			return e(s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: "x", ImageKey: "\xff"}))
		}, "ImageKey"},
		{"get clothing, #", func() error { return e(s.GetClothing(ctx(t), w.ID, "CLOTH#x")) }, "ClothingID"},
		{"get clothing, empty", func() error { return e(s.GetClothing(ctx(t), w.ID, "")) }, "ClothingID"},
		{"update clothing, #", func() error { return e(s.UpdateClothing(ctx(t), w.ID, "x#", wardrobe.ClothingPatch{Name: ptr("x")})) }, "ClothingID"},
		{"update clothing, empty patch", func() error { return e(s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{})) }, "ClothingPatch"},
		{"update clothing, blank name", func() error {
			return e(s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{Name: ptr(" "), ImageKey: ptr("new.png")}))
		}, "Name"},
		{"delete clothing, #", func() error { return e(s.DeleteClothing(ctx(t), w.ID, "a#b")) }, "ClothingID"},
		{"restore clothing, space", func() error { return e(s.RestoreClothing(ctx(t), w.ID, "a b")) }, "ClothingID"},
		{"list clothes, # in wardrobe", func() error { return e(s.ListClothes(ctx(t), "a#b", wardrobe.ListQuery{})) }, "WardrobeID"},
		{"list clothes, negative limit", func() error {
			return e(s.ListClothes(ctx(t), w.ID, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: -1}}))
		}, "Limit"},
		{"list clothes, bad order", func() error { return e(s.ListClothes(ctx(t), w.ID, wardrobe.ListQuery{Order: "NAME"})) }, "Order"},
		{"list clothes, bad status", func() error { return e(s.ListClothes(ctx(t), w.ID, wardrobe.ListQuery{Status: "GONE"})) }, "Status"},
		{"add template, empty name", func() error {
			return e(s.AddTemplate(ctx(t), w.ID, wardrobe.NewTemplate{ClothingIDs: []string{c.ID}}))
		}, "Name"},
		{"add template, # in an ID", func() error {
			return e(s.AddTemplate(ctx(t), w.ID, wardrobe.NewTemplate{Name: "x", ClothingIDs: []string{c.ID, "x#y"}}))
		}, "ClothingIDs[1]"},
		{"add template, # in wardrobe", func() error {
			return e(s.AddTemplate(ctx(t), "a#b", wardrobe.NewTemplate{Name: "x", ClothingIDs: []string{c.ID}}))
		}, "WardrobeID"},
		{"get template, #", func() error { return e(s.GetTemplate(ctx(t), w.ID, "TPL#x")) }, "TemplateID"},
		{"update template, empty patch", func() error { return e(s.UpdateTemplate(ctx(t), w.ID, tp.ID, wardrobe.TemplatePatch{})) }, "TemplatePatch"},
		{"update template, #", func() error {
			return e(s.UpdateTemplate(ctx(t), w.ID, "a#b", wardrobe.TemplatePatch{Name: ptr("x")}))
		}, "TemplateID"},
		{"update template, long ID in list", func() error {
			return e(s.UpdateTemplate(ctx(t), w.ID, tp.ID, wardrobe.TemplatePatch{ClothingIDs: []string{longID}}))
		}, "ClothingIDs[0]"},
		{"delete template, #", func() error { return e(s.DeleteTemplate(ctx(t), w.ID, "a#b")) }, "TemplateID"},
		{"restore template, empty", func() error { return e(s.RestoreTemplate(ctx(t), w.ID, "")) }, "TemplateID"},
		{"list templates, bad order", func() error { return e(s.ListTemplates(ctx(t), w.ID, wardrobe.ListQuery{Order: "created"})) }, "Order"},
		{"list templates, limit too large", func() error {
			return e(s.ListTemplates(ctx(t), w.ID, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: ddbkit.MaxPageLimit + 1}}))
		}, "Limit"},
		{"add history, bad date", func() error {
			return e(s.AddHistory(ctx(t), w.ID, wardrobe.NewHistory{Date: "2026/01/01", ClothingIDs: []string{c.ID}}))
		}, "Date"},
		{"add history, # in template", func() error {
			return e(s.AddHistory(ctx(t), w.ID, wardrobe.NewHistory{Date: "20260101", TemplateID: "#", ClothingIDs: []string{c.ID}}))
		}, "TemplateID"},
		{"get history, #", func() error { return e(s.GetHistory(ctx(t), w.ID, "HIST#x")) }, "HistoryID"},
		{"delete history, #", func() error { return s.DeleteHistory(ctx(t), w.ID, "HIST#"+h.ID) }, "HistoryID"},
		{"list history, From after To", func() error {
			return e(s.ListHistory(ctx(t), w.ID, wardrobe.HistoryQuery{From: "20260102", To: "20260101"}))
		}, "To"},
		{"list daily wear, bad kind", func() error {
			return e(s.ListDailyWear(ctx(t), w.ID, "HIST", h.ID, wardrobe.DailyQuery{}))
		}, "Kind"},
		{"recalculate, empty wardrobe ID", func() error { return e(s.RecalculateStats(ctx(t), "")) }, "WardrobeID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantField(t, tt.name, tt.call(), tt.field)
		})
	}
	// Nothing changed.
	if got := getClothing(t, s, w.ID, c.ID); got != c {
		t.Fatalf("bad input changed the clothing: %+v, want %+v", got, c)
	}
	if got := getTemplate(t, s, w.ID, tp.ID); !reflect.DeepEqual(got, tp) {
		t.Fatalf("bad input changed the template: %+v, want %+v", got, tp)
	}
	if hs := allHistory(t, s, w.ID); len(hs) != 1 || hs[0].ID != h.ID {
		t.Fatalf("bad input changed the histories: %+v", hs)
	}
	for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
		cs, _ := walk(t, "ListClothes", 0, clothesFetch(t, s, w.ID, wardrobe.ListQuery{Status: st}))
		ts, _ := walk(t, "ListTemplates", 0, templatesFetch(t, s, w.ID, wardrobe.ListQuery{Status: st}))
		if n := map[wardrobe.Status]int{wardrobe.StatusActive: 1}[st]; len(cs) != n || len(ts) != n {
			t.Fatalf("bad input changed the %s lists: %d clothes, %d templates; want %d each", st, len(cs), len(ts), n)
		}
	}
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID, dw("20260101", 1))
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp.ID, dw("20260101", 1))
}
