package wardrobetest

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

func ids(cs []wardrobe.Clothing, idx ...int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = cs[j].ID
	}
	return out
}

func testAddTemplate(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	cs := mustClothes(t, s, w.ID, 21)
	order := ids(cs, 3, 0, 2, 1) // not registration order, not ID order
	tp, err := s.AddTemplate(ctx(t), w.ID, wardrobe.NewTemplate{Name: "休日コーデ", ClothingIDs: order})
	if err != nil {
		t.Fatalf("AddTemplate: %v", err)
	}
	want := wardrobe.Template{ID: tp.ID, WardrobeID: w.ID, Name: "休日コーデ", Status: wardrobe.StatusActive,
		ClothingIDs: order, CreatedAt: cs[20].CreatedAt.Add(time.Millisecond)}
	if tp.ID == "" || !reflect.DeepEqual(tp, want) {
		t.Fatalf("AddTemplate = %+v, want %+v", tp, want)
	}
	if got := getTemplate(t, s, w.ID, tp.ID); !reflect.DeepEqual(got, want) {
		t.Fatalf("GetTemplate = %+v, want %+v", got, want)
	}
	// 1 and 20 clothes are the limits; a 40-character name is fine.
	one := mustTemplate(t, s, w.ID, long(40), cs[5].ID)
	all := make([]string, 20)
	for i := range all {
		all[i] = cs[20-i].ID // reversed, to see the order kept
	}
	twenty := mustTemplate(t, s, w.ID, "twenty", all...)
	for _, tc := range []wardrobe.Template{one, twenty} {
		if got := getTemplate(t, s, w.ID, tc.ID); !reflect.DeepEqual(got, tc) {
			t.Fatalf("GetTemplate = %+v, want %+v", got, tc)
		}
	}
	if got := getTemplate(t, s, w.ID, twenty.ID).ClothingIDs; !slices.Equal(got, all) {
		t.Fatalf("20-clothing template lists %v, want %v", got, all)
	}
	_, err = s.GetTemplate(ctx(t), w.ID, "no-such-template")
	wantErr(t, "GetTemplate(unknown)", err, ddbkit.ErrNotFound)
	_, err = s.GetTemplate(ctx(t), w.ID, cs[0].ID) // a clothing's ID is no template's
	wantErr(t, "GetTemplate(a clothing's ID)", err, ddbkit.ErrNotFound)
	_, err = s.GetTemplate(ctx(t), w.ID, "t#1")
	wantField(t, "GetTemplate(#)", err, "TemplateID")
	other := mustWardrobe(t, s, "other")
	_, err = s.GetTemplate(ctx(t), other.ID, tp.ID)
	wantErr(t, "GetTemplate(another wardrobe's template)", err, ddbkit.ErrNotFound)
	_, err = s.AddTemplate(ctx(t), w.ID, wardrobe.NewTemplate{Name: long(41), ClothingIDs: order})
	wantField(t, "AddTemplate(41 characters)", err, "Name")
	_, err = s.AddTemplate(ctx(t), w.ID, wardrobe.NewTemplate{Name: "", ClothingIDs: order})
	wantField(t, "AddTemplate(empty name)", err, "Name")
}

// templatesNow lists every template of a wardrobe, ACTIVE and DELETED.
func templatesNow(t *testing.T, s wardrobe.Store, wid string) []wardrobe.TemplateSummary {
	t.Helper()
	var out []wardrobe.TemplateSummary
	for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
		ts, _ := walk(t, "ListTemplates", 0, templatesFetch(t, s, wid, wardrobe.ListQuery{Status: st}))
		out = append(out, ts...)
	}
	return out
}

func testAddTemplateBadClothes(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	other := mustWardrobe(t, s, "other")
	cs := mustClothes(t, s, w.ID, 3)
	foreign := mustClothing(t, s, other.ID, "foreign", "")
	gone := mustDeleteClothing(t, s, w.ID, mustClothing(t, s, w.ID, "gone", "").ID)
	tooMany := make([]string, 21)
	for i := range tooMany {
		tooMany[i] = fmt.Sprintf("c%02d", i)
	}
	tests := []struct {
		name  string
		ids   []string
		field string
	}{
		{"no clothes", nil, "ClothingIDs"},
		{"empty list", []string{}, "ClothingIDs"},
		{"21 clothes", tooMany, "ClothingIDs"},
		{"duplicate", ids(cs, 0, 1, 2, 1), "ClothingIDs[3]"},
		{"duplicate first", ids(cs, 2, 2), "ClothingIDs[1]"},
		{"unknown clothing", append(ids(cs, 0, 1), "no-such-clothing"), "ClothingIDs[2]"},
		{"another wardrobe's clothing", []string{cs[0].ID, foreign.ID, cs[1].ID}, "ClothingIDs[1]"},
		{"DELETED clothing", []string{gone.ID, cs[0].ID}, "ClothingIDs[0]"},
		{"# in an ID", []string{cs[0].ID, "a#b"}, "ClothingIDs[1]"},
		{"empty ID", []string{""}, "ClothingIDs[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.AddTemplate(ctx(t), w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: tt.ids})
			wantField(t, "AddTemplate("+tt.name+")", err, tt.field)
		})
	}
	_, err := s.AddTemplate(ctx(t), "no-such-wardrobe", wardrobe.NewTemplate{Name: "t", ClothingIDs: ids(cs, 0)})
	wantErr(t, "AddTemplate(unknown wardrobe)", err, ddbkit.ErrNotFound)
	_, err = s.AddTemplate(ctx(t), other.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: ids(cs, 0)})
	wantField(t, "AddTemplate(other wardrobe, this wardrobe's clothing)", err, "ClothingIDs[0]")
	if ts := templatesNow(t, s, w.ID); len(ts) != 0 {
		t.Fatalf("refused AddTemplate calls stored %+v", ts)
	}
	if ts := templatesNow(t, s, other.ID); len(ts) != 0 {
		t.Fatalf("refused AddTemplate calls stored %+v in the other wardrobe", ts)
	}
	// Once restored, the clothing can be used.
	if _, err := s.RestoreClothing(ctx(t), w.ID, gone.ID); err != nil {
		t.Fatalf("RestoreClothing: %v", err)
	}
	mustTemplate(t, s, w.ID, "t", gone.ID, cs[0].ID)
}

func testUpdateTemplate(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	other := mustWardrobe(t, s, "other")
	cs := mustClothes(t, s, w.ID, 22)
	foreign := mustClothing(t, s, other.ID, "foreign", "")
	tp := mustTemplate(t, s, w.ID, "t", ids(cs, 0, 1, 2)...)
	mustHistory(t, s, w.ID, "20260104", tp.ID, ids(cs, 0, 1, 2)...)
	tp = getTemplate(t, s, w.ID, tp.ID)
	if tp.WearCount != 1 {
		t.Fatalf("template WearCount %d after one history, want 1", tp.WearCount)
	}

	got, err := s.UpdateTemplate(ctx(t), w.ID, tp.ID, wardrobe.TemplatePatch{Name: ptr("通勤")})
	want := tp
	want.Name = "通勤"
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("UpdateTemplate(name) = %+v, %v; want %+v", got, err, want)
	}
	list := ids(cs, 5, 2, 9, 4)
	got, err = s.UpdateTemplate(ctx(t), w.ID, tp.ID, wardrobe.TemplatePatch{ClothingIDs: list})
	want.ClothingIDs = list
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("UpdateTemplate(clothes) = %+v, %v; want %+v", got, err, want)
	}
	if read := getTemplate(t, s, w.ID, tp.ID); !reflect.DeepEqual(read, want) {
		t.Fatalf("GetTemplate after update = %+v, want %+v", read, want)
	}
	all := make([]string, 20)
	for i := range all {
		all[i] = cs[21-i].ID
	}
	got, err = s.UpdateTemplate(ctx(t), w.ID, tp.ID, wardrobe.TemplatePatch{Name: ptr("全部"), ClothingIDs: all})
	want.Name, want.ClothingIDs = "全部", all
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("UpdateTemplate(name and 20 clothes) = %+v, %v; want %+v", got, err, want)
	}

	tooMany := append(slices.Clone(all), cs[0].ID)
	gone := mustDeleteClothing(t, s, w.ID, cs[3].ID)
	tests := []struct {
		name  string
		patch wardrobe.TemplatePatch
		field string
	}{
		{"empty patch", wardrobe.TemplatePatch{}, "TemplatePatch"},
		{"empty list", wardrobe.TemplatePatch{ClothingIDs: []string{}}, "ClothingIDs"},
		{"21 clothes", wardrobe.TemplatePatch{ClothingIDs: tooMany}, "ClothingIDs"},
		{"duplicate", wardrobe.TemplatePatch{ClothingIDs: ids(cs, 0, 1, 0)}, "ClothingIDs[2]"},
		{"unknown clothing", wardrobe.TemplatePatch{ClothingIDs: []string{cs[0].ID, "no-such-clothing"}}, "ClothingIDs[1]"},
		{"another wardrobe's clothing", wardrobe.TemplatePatch{ClothingIDs: []string{foreign.ID}}, "ClothingIDs[0]"},
		{"DELETED clothing", wardrobe.TemplatePatch{Name: ptr("x"), ClothingIDs: []string{cs[0].ID, cs[1].ID, gone.ID}}, "ClothingIDs[2]"},
		{"empty name", wardrobe.TemplatePatch{Name: ptr(" ")}, "Name"},
		{"41 characters", wardrobe.TemplatePatch{Name: ptr(long(41))}, "Name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.UpdateTemplate(ctx(t), w.ID, tp.ID, tt.patch)
			wantField(t, "UpdateTemplate("+tt.name+")", err, tt.field)
			if read := getTemplate(t, s, w.ID, tp.ID); !reflect.DeepEqual(read, want) {
				t.Fatalf("a refused update changed the template: %+v, want %+v", read, want)
			}
		})
	}
	_, err = s.UpdateTemplate(ctx(t), w.ID, "no-such-template", wardrobe.TemplatePatch{Name: ptr("x")})
	wantErr(t, "UpdateTemplate(unknown, name)", err, ddbkit.ErrNotFound)
	_, err = s.UpdateTemplate(ctx(t), w.ID, "no-such-template", wardrobe.TemplatePatch{ClothingIDs: ids(cs, 0)})
	wantErr(t, "UpdateTemplate(unknown, clothes)", err, ddbkit.ErrNotFound)
	_, err = s.UpdateTemplate(ctx(t), other.ID, tp.ID, wardrobe.TemplatePatch{Name: ptr("x")})
	wantErr(t, "UpdateTemplate(another wardrobe)", err, ddbkit.ErrNotFound)
	_, err = s.UpdateTemplate(ctx(t), w.ID, "t#1", wardrobe.TemplatePatch{Name: ptr("x")})
	wantField(t, "UpdateTemplate(#)", err, "TemplateID")
	if ts := templatesNow(t, s, w.ID); len(ts) != 1 {
		t.Fatalf("updates of unknown templates created some: %+v", ts)
	}

	// A template keeps a clothing deleted after it was saved; a name-only
	// patch is still fine, and so is a list without it.
	small := mustTemplate(t, s, w.ID, "small", ids(cs, 6, 7)...)
	mustDeleteClothing(t, s, w.ID, cs[7].ID)
	got, err = s.UpdateTemplate(ctx(t), w.ID, small.ID, wardrobe.TemplatePatch{Name: ptr("renamed")})
	if err != nil || got.Name != "renamed" || !slices.Equal(got.ClothingIDs, ids(cs, 6, 7)) {
		t.Fatalf("UpdateTemplate(name) of a template with a deleted clothing = %+v, %v", got, err)
	}
	_, err = s.UpdateTemplate(ctx(t), w.ID, small.ID, wardrobe.TemplatePatch{ClothingIDs: ids(cs, 6, 7)})
	wantField(t, "UpdateTemplate(same list with a deleted clothing)", err, "ClothingIDs[1]")
	got, err = s.UpdateTemplate(ctx(t), w.ID, small.ID, wardrobe.TemplatePatch{ClothingIDs: ids(cs, 6)})
	if err != nil || !slices.Equal(got.ClothingIDs, ids(cs, 6)) {
		t.Fatalf("UpdateTemplate(without the deleted clothing) = %+v, %v", got, err)
	}
	// The statistics stay through updates.
	wantTemplateStats(t, s, w.ID, tp.ID, 1, day(t, "20260104"))
}

func testDeleteTemplate(t *testing.T, newStore NewStore) {
	clock := &manualClock{now: Start}
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.Clock = clock.Now })
	w := mustWardrobe(t, s, "w")
	cs := mustClothes(t, s, w.ID, 2)
	clock.Set(Start.Add(time.Minute))
	tp := mustTemplate(t, s, w.ID, "t", ids(cs, 1, 0)...)
	clock.Set(Start.Add(2 * time.Minute))
	keep := mustTemplate(t, s, w.ID, "keep", ids(cs, 0)...)
	mustHistory(t, s, w.ID, "20260103", tp.ID, ids(cs, 1, 0)...)
	tp = getTemplate(t, s, w.ID, tp.ID)
	keep = getTemplate(t, s, w.ID, keep.ID)

	listed := func(st wardrobe.Status) []string {
		t.Helper()
		ts, _ := walk(t, "ListTemplates "+string(st), 0, templatesFetch(t, s, w.ID, wardrobe.ListQuery{Status: st}))
		out := make([]string, len(ts))
		for i, x := range ts {
			out[i] = x.ID
		}
		return out
	}
	deletedAt := Start.Add(time.Hour)
	clock.Set(deletedAt)
	del, err := s.DeleteTemplate(ctx(t), w.ID, tp.ID)
	want := tp
	want.Status, want.DeletedAt = wardrobe.StatusDeleted, deletedAt
	if err != nil || !reflect.DeepEqual(del, want) {
		t.Fatalf("DeleteTemplate = %+v, %v; want %+v", del, err, want)
	}
	if got := getTemplate(t, s, w.ID, tp.ID); !reflect.DeepEqual(got, want) {
		t.Fatalf("GetTemplate after delete = %+v, want %+v", got, want)
	}
	if got := listed(wardrobe.StatusActive); !slices.Equal(got, []string{keep.ID}) {
		t.Fatalf("ACTIVE templates after delete = %v, want [%s]", got, keep.ID)
	}
	if got := listed(wardrobe.StatusDeleted); !slices.Equal(got, []string{tp.ID}) {
		t.Fatalf("DELETED templates after delete = %v, want [%s]", got, tp.ID)
	}
	p, err := s.ListTemplates(ctx(t), w.ID, wardrobe.ListQuery{Status: wardrobe.StatusDeleted, Order: wardrobe.OrderLastWornAt})
	if err != nil || len(p.Items) != 1 || !reflect.DeepEqual(p.Items[0].Template, want) {
		t.Fatalf("DELETED templates by LASTWORN = %+v, %v; want [%+v]", p.Items, err, want)
	}
	clock.Set(Start.Add(2 * time.Hour))
	again, err := s.DeleteTemplate(ctx(t), w.ID, tp.ID)
	if err != nil || !reflect.DeepEqual(again, want) {
		t.Fatalf("DeleteTemplate again = %+v, %v; want %+v unchanged", again, err, want)
	}
	if got := getTemplate(t, s, w.ID, tp.ID); !reflect.DeepEqual(got, want) {
		t.Fatalf("GetTemplate after a second delete = %+v, want %+v", got, want)
	}
	// A DELETED template cannot be worn.
	_, err = s.AddHistory(ctx(t), w.ID, wardrobe.NewHistory{Date: "20260104", TemplateID: tp.ID, ClothingIDs: ids(cs, 0)})
	wantField(t, "AddHistory(DELETED template)", err, "TemplateID")

	clock.Set(Start.Add(3 * time.Hour))
	restored, err := s.RestoreTemplate(ctx(t), w.ID, tp.ID)
	if err != nil || !reflect.DeepEqual(restored, tp) {
		t.Fatalf("RestoreTemplate = %+v, %v; want %+v", restored, err, tp)
	}
	if got := getTemplate(t, s, w.ID, tp.ID); !reflect.DeepEqual(got, tp) {
		t.Fatalf("GetTemplate after restore = %+v, want %+v", got, tp)
	}
	if got := listed(wardrobe.StatusActive); !slices.Equal(got, []string{tp.ID, keep.ID}) {
		t.Fatalf("ACTIVE templates after restore = %v, want [%s %s]", got, tp.ID, keep.ID)
	}
	if got := listed(wardrobe.StatusDeleted); len(got) != 0 {
		t.Fatalf("DELETED templates after restore = %v, want none", got)
	}
	again, err = s.RestoreTemplate(ctx(t), w.ID, tp.ID)
	if err != nil || !reflect.DeepEqual(again, tp) {
		t.Fatalf("RestoreTemplate of an ACTIVE template = %+v, %v; want %+v unchanged", again, err, tp)
	}
	mustHistory(t, s, w.ID, "20260104", tp.ID, ids(cs, 0)...)
	wantTemplateStats(t, s, w.ID, tp.ID, 2, day(t, "20260104"))

	_, err = s.DeleteTemplate(ctx(t), w.ID, "no-such-template")
	wantErr(t, "DeleteTemplate(unknown)", err, ddbkit.ErrNotFound)
	_, err = s.RestoreTemplate(ctx(t), w.ID, "no-such-template")
	wantErr(t, "RestoreTemplate(unknown)", err, ddbkit.ErrNotFound)
	_, err = s.DeleteTemplate(ctx(t), w.ID, cs[0].ID)
	wantErr(t, "DeleteTemplate(a clothing's ID)", err, ddbkit.ErrNotFound)
	if got := getClothing(t, s, w.ID, cs[0].ID); got.Status != wardrobe.StatusActive {
		t.Fatalf("DeleteTemplate with a clothing's ID deleted the clothing: %+v", got)
	}
	_, err = s.GetTemplate(ctx(t), w.ID, "no-such-template")
	wantErr(t, "a delete of an unknown template created it", err, ddbkit.ErrNotFound)
	if got := listed(wardrobe.StatusDeleted); len(got) != 0 {
		t.Fatalf("refused deletes listed DELETED templates %v", got)
	}
}

// thumb is the thumbnail the test expects for a clothing.
func thumb(c wardrobe.Clothing) wardrobe.Thumbnail {
	return wardrobe.Thumbnail{ClothingID: c.ID, Name: c.Name, ImageKey: c.ImageKey, Deleted: c.Status == wardrobe.StatusDeleted}
}

// wantThumbs is the thumbnails and +x badge of a list of clothes.
func wantThumbs(t *testing.T, s wardrobe.Store, wid string, clothingIDs []string) ([]wardrobe.Thumbnail, int) {
	t.Helper()
	n := min(wardrobe.ThumbnailCount, len(clothingIDs))
	out := make([]wardrobe.Thumbnail, n)
	for i, id := range clothingIDs[:n] {
		out[i] = thumb(getClothing(t, s, wid, id))
	}
	return out, len(clothingIDs) - n
}

func testTemplateThumbnails(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	a := mustClothing(t, s, w.ID, "a", "img/a.png")
	b := mustClothing(t, s, w.ID, "b", "") // no image
	c := mustClothing(t, s, w.ID, "c", "img/c.png")
	d := mustClothing(t, s, w.ID, "d", "img/d.png")
	e := mustClothing(t, s, w.ID, "e", "")
	f := mustClothing(t, s, w.ID, "f", "img/f.png")
	six := mustTemplate(t, s, w.ID, "six", c.ID, a.ID, b.ID, f.ID, e.ID, d.ID)
	four := mustTemplate(t, s, w.ID, "four", d.ID, c.ID, b.ID, a.ID)
	five := mustTemplate(t, s, w.ID, "five", e.ID, d.ID, c.ID, b.ID, a.ID)
	one := mustTemplate(t, s, w.ID, "one", b.ID)
	// Changes after the templates were saved show in their thumbnails.
	mustDeleteClothing(t, s, w.ID, c.ID)
	if _, err := s.UpdateClothing(ctx(t), w.ID, a.ID, wardrobe.ClothingPatch{Name: ptr("a2"), ImageKey: ptr("img/a2.png")}); err != nil {
		t.Fatalf("UpdateClothing: %v", err)
	}
	if _, err := s.UpdateClothing(ctx(t), w.ID, f.ID, wardrobe.ClothingPatch{ImageKey: ptr("")}); err != nil {
		t.Fatalf("UpdateClothing: %v", err)
	}
	tps := []wardrobe.Template{six, four, five, one}
	wantMore := []int{2, 0, 1, 0}

	check := func(t *testing.T, got []wardrobe.TemplateSummary, want []wardrobe.Template) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%d templates, want %d", len(got), len(want))
		}
		for i, ts := range got {
			if !reflect.DeepEqual(ts.Template, want[i]) {
				t.Fatalf("template %d = %+v, want %+v", i, ts.Template, want[i])
			}
			th, more := wantThumbs(t, s, w.ID, want[i].ClothingIDs)
			if !reflect.DeepEqual(ts.Thumbnails, th) || ts.More != more {
				t.Fatalf("template %q: thumbnails %+v, +%d; want %+v, +%d", ts.Name, ts.Thumbnails, ts.More, th, more)
			}
		}
	}
	for _, limit := range []int{1, 2, 3, 0} {
		got, sizes := walk(t, "ListTemplates", limit, templatesFetch(t, s, w.ID, wardrobe.ListQuery{}))
		check(t, got, tps)
		if ws := wantSizes(len(tps), limit); !slices.Equal(sizes, ws) {
			t.Fatalf("ListTemplates with limit %d: page sizes %v, want %v", limit, sizes, ws)
		}
		for i, ts := range got {
			if ts.More != wantMore[i] {
				t.Fatalf("template %q: +%d, want +%d", ts.Name, ts.More, wantMore[i])
			}
		}
	}
	// Spelled out for the six-clothing template: the first four, in its
	// order, with the deleted overlay and no-image marks.
	got, _ := walk(t, "ListTemplates", 0, templatesFetch(t, s, w.ID, wardrobe.ListQuery{}))
	th := got[0].Thumbnails
	wantTh := []wardrobe.Thumbnail{
		{ClothingID: c.ID, Name: "c", ImageKey: "img/c.png", Deleted: true},
		{ClothingID: a.ID, Name: "a2", ImageKey: "img/a2.png"},
		{ClothingID: b.ID, Name: "b"},
		{ClothingID: f.ID, Name: "f"},
	}
	if !reflect.DeepEqual(th, wantTh) || got[0].More != 2 {
		t.Fatalf("thumbnails of %q = %+v, +%d; want %+v, +2", got[0].Name, th, got[0].More, wantTh)
	}
	if th[1].NoImage() || !th[2].NoImage() || !th[3].NoImage() {
		t.Fatalf("NoImage: %v %v %v; want false true true", th[1].NoImage(), th[2].NoImage(), th[3].NoImage())
	}
	// DELETED templates have thumbnails too, newest first.
	mustDeleteTemplate(t, s, w.ID, one.ID)
	mustDeleteTemplate(t, s, w.ID, four.ID)
	del, _ := walk(t, "ListTemplates DELETED", 1, templatesFetch(t, s, w.ID, wardrobe.ListQuery{Status: wardrobe.StatusDeleted, Descending: true}))
	one, four = getTemplate(t, s, w.ID, one.ID), getTemplate(t, s, w.ID, four.ID)
	check(t, del, []wardrobe.Template{one, four})
}

func testListTemplatesOrders(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	other := mustWardrobe(t, s, "other")
	mustTemplate(t, s, other.ID, "not listed", mustClothing(t, s, other.ID, "x", "").ID)
	cs := mustClothes(t, s, w.ID, 3)
	tps := make([]wardrobe.Template, 7)
	for i := range tps {
		tps[i] = mustTemplate(t, s, w.ID, fmt.Sprint("t", i), cs[i%3].ID)
	}
	id := func(i int) string { return tps[i].ID }
	wear := func(d wardrobe.Date, i int) { mustHistory(t, s, w.ID, d, id(i), cs[i%3].ID) }
	const d1, d2, d3 = wardrobe.Date("20251230"), wardrobe.Date("20260102"), wardrobe.Date("20260201")
	wear(d2, 0)
	wear(d1, 0)
	wear(d3, 1)
	wear(d2, 3)
	wear(d2, 3)
	wear(d1, 5)
	wear(d2, 2)
	wear(d1, 2)
	for _, i := range []int{4, 5, 6} {
		mustDeleteTemplate(t, s, w.ID, id(i))
	}
	model := []struct {
		count int
		last  wardrobe.Date
	}{
		{2, day(t, d2)}, {1, day(t, d3)}, {2, day(t, d2)}, {2, day(t, d2)},
		{0, never}, {1, day(t, d1)}, {0, never},
	}
	byStatus := map[wardrobe.Status][]wornStat{}
	for i, m := range model {
		tp := getTemplate(t, s, w.ID, id(i))
		wantStats(t, tp.Name, m.count, tp.WearCount, m.last, tp.LastWornAt)
		byStatus[tp.Status] = append(byStatus[tp.Status], wornStat{id: tp.ID, created: tps[i].CreatedAt, count: m.count, last: m.last})
	}
	for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
		for _, o := range orders {
			for _, desc := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/desc=%v", st, o, desc)
				t.Run(name, func(t *testing.T) {
					want := expectOrder(byStatus[st], o, desc)
					opts := wardrobe.ListQuery{Order: o, Status: st, Descending: desc}
					checkWalk(t, "ListTemplates "+name, want, templateID, templatesFetch(t, s, w.ID, opts), 1, 2, 0)
				})
			}
		}
	}
}

// testManyThumbnails lists a page whose thumbnails name more distinct
// clothes than one BatchGetItem reads (the seed's 80).
func testManyThumbnails(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	const n = 24 // templates and histories, 4 distinct clothes each: 96 > 80
	cs := make([]wardrobe.Clothing, 4*n+2)
	for i := range cs {
		img := ""
		if i%3 != 0 {
			img = fmt.Sprintf("img/%03d.png", i)
		}
		cs[i] = mustClothing(t, s, w.ID, fmt.Sprintf("c%03d", i), img)
	}
	lists := make([][]string, n)
	for i := range lists {
		// Four clothes of its own, then two shared ones beyond the
		// thumbnails.
		lists[i] = ids(cs, 4*i+3, 4*i+1, 4*i+2, 4*i, 4*n, 4*n+1)
		mustTemplate(t, s, w.ID, fmt.Sprint("t", i), lists[i]...)
		mustHistory(t, s, w.ID, addDays(t, "20260101", i), "", lists[i]...)
	}
	// Deleted overlays early and late in the page.
	for _, i := range []int{1, 50, 94} {
		mustDeleteClothing(t, s, w.ID, cs[i].ID)
	}
	gone := map[string]bool{cs[1].ID: true, cs[50].ID: true, cs[94].ID: true}
	byID := map[string]wardrobe.Clothing{}
	for _, c := range cs {
		byID[c.ID] = c
	}
	tps, _ := walk(t, "ListTemplates", 0, templatesFetch(t, s, w.ID, wardrobe.ListQuery{}))
	hs, _ := walk(t, "ListHistory", 0, historyFetch(t, s, w.ID, wardrobe.HistoryQuery{}))
	if len(tps) != n || len(hs) != n {
		t.Fatalf("%d templates and %d histories, want %d each", len(tps), len(hs), n)
	}
	deleted := 0
	for i := range n {
		th := make([]wardrobe.Thumbnail, wardrobe.ThumbnailCount)
		for j, id := range lists[i][:wardrobe.ThumbnailCount] {
			c := byID[id]
			th[j] = wardrobe.Thumbnail{ClothingID: id, Name: c.Name, ImageKey: c.ImageKey, Deleted: gone[id]}
		}
		more := 2
		if !slices.Equal(tps[i].ClothingIDs, lists[i]) || !reflect.DeepEqual(tps[i].Thumbnails, th) || tps[i].More != more {
			t.Fatalf("template %d: %v, thumbnails %+v, +%d; want %v, %+v, +%d", i, tps[i].ClothingIDs, tps[i].Thumbnails, tps[i].More, lists[i], th, more)
		}
		if !slices.Equal(hs[i].ClothingIDs, lists[i]) || !reflect.DeepEqual(hs[i].Thumbnails, th) || hs[i].More != more {
			t.Fatalf("history %d: %v, thumbnails %+v, +%d; want %v, %+v, +%d", i, hs[i].ClothingIDs, hs[i].Thumbnails, hs[i].More, lists[i], th, more)
		}
		for _, x := range th {
			if x.Deleted {
				deleted++
			}
		}
	}
	if deleted != 3 {
		t.Fatalf("%d deleted thumbnails, want 3", deleted)
	}
}

// testResultsDoNotAlias changes the slices a store returned or was given
// and checks that the stored items did not change with them.
func testResultsDoNotAlias(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	cs := mustClothes(t, s, w.ID, 3)
	in := ids(cs, 0, 1)
	tp := mustTemplate(t, s, w.ID, "tp", in...)
	in[0] = "mutated-input"
	tp.ClothingIDs[1] = "mutated-result"
	if got := getTemplate(t, s, w.ID, tp.ID).ClothingIDs; !slices.Equal(got, ids(cs, 0, 1)) {
		t.Fatalf("template clothes after changing AddTemplate's input and result = %v, want %v", got, ids(cs, 0, 1))
	}
	patch := ids(cs, 2, 0)
	up, err := s.UpdateTemplate(ctx(t), w.ID, tp.ID, wardrobe.TemplatePatch{ClothingIDs: patch})
	if err != nil {
		t.Fatalf("UpdateTemplate: %v", err)
	}
	patch[0], up.ClothingIDs[1] = "mutated-input", "mutated-result"
	got := getTemplate(t, s, w.ID, tp.ID)
	if !slices.Equal(got.ClothingIDs, ids(cs, 2, 0)) {
		t.Fatalf("template clothes after changing UpdateTemplate's input and result = %v, want %v", got.ClothingIDs, ids(cs, 2, 0))
	}
	got.ClothingIDs[0] = "mutated-get"
	p, err := s.ListTemplates(ctx(t), w.ID, wardrobe.ListQuery{})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("ListTemplates = %+v, %v", p, err)
	}
	p.Items[0].ClothingIDs[1] = "mutated-list"
	p.Items[0].Thumbnails[0].Name = "mutated-thumbnail"
	if got := getTemplate(t, s, w.ID, tp.ID).ClothingIDs; !slices.Equal(got, ids(cs, 2, 0)) {
		t.Fatalf("template clothes after changing GetTemplate's and ListTemplates' results = %v, want %v", got, ids(cs, 2, 0))
	}

	hin := ids(cs, 1, 2)
	h, err := s.AddHistory(ctx(t), w.ID, wardrobe.NewHistory{Date: "20260101", ClothingIDs: hin})
	if err != nil {
		t.Fatalf("AddHistory: %v", err)
	}
	hin[0] = "mutated-input"
	h.ClothingIDs[1] = "mutated-result"
	d, err := s.GetHistory(ctx(t), w.ID, h.ID)
	if err != nil || !slices.Equal(d.ClothingIDs, ids(cs, 1, 2)) {
		t.Fatalf("GetHistory after changing AddHistory's input and result = %v, %v; want clothes %v", d.ClothingIDs, err, ids(cs, 1, 2))
	}
	d.ClothingIDs[0] = "mutated-get"
	d.Clothes[0].Name = "mutated-get"
	hs := allHistory(t, s, w.ID)
	if len(hs) != 1 || !slices.Equal(hs[0].ClothingIDs, ids(cs, 1, 2)) || hs[0].Thumbnails[0].Name != cs[1].Name {
		t.Fatalf("ListHistory after changing GetHistory's result = %+v, want clothes %v", hs, ids(cs, 1, 2))
	}
	hs[0].ClothingIDs[0] = "mutated-list"
	if d, err := s.GetHistory(ctx(t), w.ID, h.ID); err != nil || !slices.Equal(d.ClothingIDs, ids(cs, 1, 2)) {
		t.Fatalf("GetHistory after changing ListHistory's result = %v, %v; want clothes %v", d.ClothingIDs, err, ids(cs, 1, 2))
	}
	// The history's wear is taken back from the clothes it named, not from
	// a changed slice.
	mustDeleteHistory(t, s, w.ID, h.ID)
	for _, c := range cs {
		wantClothingStats(t, s, w.ID, c.ID, 0, never)
	}
}
