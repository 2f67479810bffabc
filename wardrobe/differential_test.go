package wardrobe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// TestMemoryMatchesDynamo runs one scripted session on both stores, with the
// same clock, IDs and table name, and requires the same transcript: every
// result, every error message and every cursor, byte for byte. The
// conformance suite checks each store against the contract; this checks them
// against each other.
func TestMemoryMatchesDynamo(t *testing.T) {
	dyn, c, table := newDynamo(t, nil, deterministic)
	mem := wardrobe.NewMemoryStore(deterministic, func(o *wardrobe.Options) { o.TableName = table })

	dynLog, memLog := session(t.Context(), dyn), session(t.Context(), mem)
	if testing.Verbose() {
		for _, l := range memLog {
			t.Log(l)
		}
	}
	if len(dynLog) != len(memLog) {
		t.Fatalf("transcripts have %d and %d lines", len(dynLog), len(memLog))
	}
	for i := range dynLog {
		if dynLog[i] != memLog[i] {
			t.Errorf("step %d differs:\n  dynamo %s\n  memory %s", i, dynLog[i], memLog[i])
		}
	}
	checkExport(t, mem, rawTable(t, c, table), table)
}

// checkExport requires the memory store's Export to equal the DynamoDB
// table's items, attribute for attribute, in key order.
func checkExport(t *testing.T, mem *wardrobe.MemoryStore, want map[string]map[string]string, table string) {
	t.Helper()
	exported := mem.Export()
	got := map[string]map[string]string{}
	var order []string
	for _, it := range exported[table] {
		r := render(it)
		k := r["PK"][2:] + " | " + r["SK"][2:]
		got[k], order = r, append(order, k)
	}
	if len(exported) != 1 || !slices.IsSorted(order) {
		t.Errorf("Export = %d tables, keys %v; want %s only, in key order", len(exported), order, table)
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || !maps.Equal(g, w) {
			t.Errorf("exported %s:\n got %v\nwant %v", k, g, w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("exported %s, not in the table: %v", k, g)
		}
	}
}

// session drives s through the access patterns, the error paths and paging,
// and returns what it saw.
func session(ctx context.Context, s wardrobe.Store) []string {
	var log []string
	note := func(what string, v any, err error) {
		js, _ := json.Marshal(v)
		log = append(log, fmt.Sprintf("%s: %s err=%v", what, js, err))
	}
	list := func(what string, fetch func(ddbkit.PageOptions) (any, string, error)) {
		cursor := ""
		for page := 1; page < 20; page++ {
			v, next, err := fetch(ddbkit.PageOptions{Limit: 2, Cursor: cursor})
			note(fmt.Sprintf("%s page %d next=%q", what, page, next), v, err)
			if err != nil || next == "" {
				return
			}
			cursor = next
		}
	}
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "クローゼット"})
	note("CreateWardrobe", w, err)
	other, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "other"})
	note("CreateWardrobe other", other, err)
	got, err := s.GetWardrobe(ctx, "missing")
	note("GetWardrobe missing", got, err)

	var clothes []string
	for i, in := range []wardrobe.NewClothing{
		{Name: "白シャツ", ImageKey: "a.png"}, {Name: "デニム"}, {Name: "スニーカー", ImageKey: "c.png"},
		{Name: "コート"}, {Name: "帽子", ImageKey: "e.png"}, {Name: ""},
	} {
		c, err := s.AddClothing(ctx, w.ID, in)
		note(fmt.Sprint("AddClothing ", i), c, err)
		if err == nil {
			clothes = append(clothes, c.ID)
		}
	}
	foreign, err := s.AddClothing(ctx, other.ID, wardrobe.NewClothing{Name: "よその服"})
	note("AddClothing other", foreign, err)
	c, err := s.UpdateClothing(ctx, w.ID, clothes[1], wardrobe.ClothingPatch{ImageKey: ptr("b.png")})
	note("UpdateClothing", c, err)
	c, err = s.UpdateClothing(ctx, w.ID, clothes[0], wardrobe.ClothingPatch{ImageKey: ptr("")})
	note("UpdateClothing remove image", c, err)

	var tpls []string
	for i, ids := range [][]string{clothes, clothes[:2], {clothes[2], foreign.ID}, {clothes[3], "nope"}} {
		tp, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: fmt.Sprint("テンプレ", i), ClothingIDs: ids})
		note(fmt.Sprint("AddTemplate ", i), tp, err)
		if err == nil {
			tpls = append(tpls, tp.ID)
		}
	}
	c, err = s.DeleteClothing(ctx, w.ID, clothes[4])
	note("DeleteClothing", c, err)
	c, err = s.DeleteClothing(ctx, w.ID, clothes[4])
	note("DeleteClothing again", c, err)
	tp, err := s.UpdateTemplate(ctx, w.ID, tpls[1], wardrobe.TemplatePatch{ClothingIDs: []string{clothes[4]}})
	note("UpdateTemplate deleted clothing", tp, err)
	tp, err = s.UpdateTemplate(ctx, w.ID, tpls[1], wardrobe.TemplatePatch{Name: ptr("改名"), ClothingIDs: []string{clothes[3], clothes[0]}})
	note("UpdateTemplate", tp, err)

	for i, in := range []wardrobe.NewHistory{
		{Date: "20260105", TemplateID: tpls[0], ClothingIDs: clothes[:4]},
		{Date: "20260103", ClothingIDs: clothes[1:3]},
		{Date: "20260105", ClothingIDs: clothes[:1]},
		{Date: "20260107", TemplateID: tpls[1], ClothingIDs: []string{clothes[3], clothes[0]}},
		{Date: "20260107", ClothingIDs: []string{clothes[4]}},
		{Date: "20260107", TemplateID: "nope", ClothingIDs: clothes[:1]},
		{Date: "2026-01-07", ClothingIDs: clothes[:1]},
	} {
		h, err := s.AddHistory(ctx, w.ID, in)
		note(fmt.Sprint("AddHistory ", i), h, err)
	}
	for _, o := range []wardrobe.Order{wardrobe.OrderCreatedAt, wardrobe.OrderWearCount, wardrobe.OrderLastWornAt} {
		for _, desc := range []bool{false, true} {
			list(fmt.Sprintf("ListClothes %s desc=%v", o, desc), func(p ddbkit.PageOptions) (any, string, error) {
				pg, err := s.ListClothes(ctx, w.ID, wardrobe.ListQuery{Order: o, Descending: desc, PageOptions: p})
				return pg.Items, pg.Next, err
			})
		}
	}
	list("ListClothes DELETED", func(p ddbkit.PageOptions) (any, string, error) {
		pg, err := s.ListClothes(ctx, w.ID, wardrobe.ListQuery{Status: wardrobe.StatusDeleted, PageOptions: p})
		return pg.Items, pg.Next, err
	})
	list("ListTemplates by wear", func(p ddbkit.PageOptions) (any, string, error) {
		pg, err := s.ListTemplates(ctx, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Descending: true, PageOptions: p})
		return pg.Items, pg.Next, err
	})
	var first []string
	list("ListHistory week", func(p ddbkit.PageOptions) (any, string, error) {
		pg, err := s.ListHistory(ctx, w.ID, wardrobe.HistoryQuery{From: "20260101", To: "20260107", Descending: true, PageOptions: p})
		for _, h := range pg.Items {
			first = append(first, h.ID)
		}
		return pg.Items, pg.Next, err
	})
	list("ListHistory from the 5th", func(p ddbkit.PageOptions) (any, string, error) {
		pg, err := s.ListHistory(ctx, w.ID, wardrobe.HistoryQuery{From: "20260105", PageOptions: p})
		return pg.Items, pg.Next, err
	})
	hd, err := s.GetHistory(ctx, w.ID, first[len(first)-1])
	note("GetHistory", hd, err)
	list("ListDailyWear", func(p ddbkit.PageOptions) (any, string, error) {
		pg, err := s.ListDailyWear(ctx, w.ID, wardrobe.KindClothing, clothes[0], wardrobe.DailyQuery{PageOptions: p})
		return pg.Items, pg.Next, err
	})
	for _, id := range first {
		note("DeleteHistory", nil, s.DeleteHistory(ctx, w.ID, id))
		for _, cid := range clothes[:2] {
			c, err := s.GetClothing(ctx, w.ID, cid)
			note("GetClothing", c, err)
		}
		tp, err := s.GetTemplate(ctx, w.ID, tpls[0])
		note("GetTemplate", tp, err)
	}
	note("DeleteHistory again", nil, s.DeleteHistory(ctx, w.ID, first[0]))
	c, err = s.RestoreClothing(ctx, w.ID, clothes[4])
	note("RestoreClothing", c, err)
	rep, err := s.RecalculateStats(ctx, w.ID)
	note("RecalculateStats", rep, err)
	pg, err := s.ListClothes(ctx, w.ID, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Cursor: "garbage"}})
	note("ListClothes bad cursor", pg, err)
	return log
}
