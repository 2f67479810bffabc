package main

import (
	"context"
	"fmt"
	"time"

	kit "github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// smokeWardrobe: the run's partitions are its wardrobe's, W#<run ID>-001
// and the W#<id>#… partitions of its clothes, templates, history and
// daily counters. The seed deletes clothes and templates only logically
// and wardrobes never, so the run deletes its history through the store
// (DeleteHistory, which also deletes the counters it made) and the rest
// by key, in those partitions.
func smokeWardrobe(r *smokeRun, _ *tableFlags, tables []string) error {
	ctx, table := r.ctx, tables[0]
	s := wardrobe.NewDynamoStore(r.c, func(o *wardrobe.Options) {
		o.TableName = table
		o.NewID = r.newID
	})
	w := r.peekID() // the wardrobe's: its partitions are the run's even if CreateWardrobe fails after writing
	for _, suffix := range []string{"", "#CLOTH", "#TPL", "#HIST"} {
		r.owns(table, "PK", "W#"+w+suffix)
	}
	if err := r.write("wardrobe "+w, func() error {
		got, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "ddbkit smoke"})
		return madeAs("wardrobe", got.ID, w, err)
	}); err != nil {
		return err
	}
	var clothes []wardrobe.Clothing
	for i := range 3 {
		if err := r.write(fmt.Sprintf("clothing %d", i+1), func() error {
			c, err := s.AddClothing(ctx, w, wardrobe.NewClothing{Name: fmt.Sprintf("ddbkit smoke %d", i+1)})
			if err == nil {
				r.owns(table, "PK", "W#"+w+"#COUNT#CLOTH#"+c.ID) // its daily counters
			}
			clothes = append(clothes, c)
			return err
		}); err != nil {
			return err
		}
	}
	c1, c2, c3 := clothes[0].ID, clothes[1].ID, clothes[2].ID
	var tpl wardrobe.Template
	if err := r.write("template of clothes 1 and 2", func() (err error) {
		tpl, err = s.AddTemplate(ctx, w, wardrobe.NewTemplate{Name: "ddbkit smoke", ClothingIDs: []string{c1, c2}})
		if err == nil {
			r.owns(table, "PK", "W#"+w+"#COUNT#TPL#"+tpl.ID)
		}
		return err
	}); err != nil {
		return err
	}
	today := wardrobe.DateOf(time.Now())
	var h wardrobe.History
	if err := r.write("history of the template today (and its daily counters)", func() (err error) {
		h, err = s.AddHistory(ctx, w, wardrobe.NewHistory{Date: today, TemplateID: tpl.ID, ClothingIDs: []string{c1, c2}})
		return err
	}); err != nil {
		return err
	}
	r.onCleanup("history "+h.ID+" and its counters (DeleteHistory)", func(ctx context.Context) error { return s.DeleteHistory(ctx, w, h.ID) })
	if err := r.write("clothing 3 deleted logically", func() error {
		_, err := s.DeleteClothing(ctx, w, c3)
		return err
	}); err != nil {
		return err
	}

	reads := []smokeRead{
		getRead("GetWardrobe", false, func() (string, error) { x, err := s.GetWardrobe(ctx, w); return x.Name, err }, "ddbkit smoke"),
		getRead("GetTemplate", false, func() (int, error) { x, err := s.GetTemplate(ctx, w, tpl.ID); return x.WearCount, err }, 1),
		getRead("GetHistory", false, func() (int, error) { x, err := s.GetHistory(ctx, w, h.ID); return len(x.Clothes), err }, 2),
	}
	for _, c := range clothes {
		want := wardrobe.StatusActive
		if c.ID == c3 {
			want = wardrobe.StatusDeleted
		}
		reads = append(reads, getRead("GetClothing "+c.Name, false, func() (wardrobe.Status, error) {
			x, err := s.GetClothing(ctx, w, c.ID)
			return x.Status, err
		}, want))
	}
	for _, k := range []struct {
		kind wardrobe.Kind
		id   string
	}{{wardrobe.KindClothing, c1}, {wardrobe.KindTemplate, tpl.ID}} {
		reads = append(reads, listRead(fmt.Sprintf("ListDailyWear %s", k.kind), false, func(o kit.PageOptions) (kit.Page[wardrobe.DailyWear], error) {
			return s.ListDailyWear(ctx, w, k.kind, k.id, wardrobe.DailyQuery{From: today, To: today, PageOptions: o})
		}, func(d wardrobe.DailyWear) string { return fmt.Sprintf("%s x%d", d.Date, d.Count) }, fmt.Sprintf("%s x1", today)))
	}
	// The GSIs: every order of both lists, both statuses, and the history.
	for _, order := range []wardrobe.Order{wardrobe.OrderCreatedAt, wardrobe.OrderWearCount, wardrobe.OrderLastWornAt} {
		for _, st := range []struct {
			status  wardrobe.Status
			clothes []string
			tpls    []string
		}{{wardrobe.StatusActive, []string{c1, c2}, []string{tpl.ID}}, {wardrobe.StatusDeleted, []string{c3}, nil}} {
			opts := func(o kit.PageOptions) wardrobe.ListQuery {
				return wardrobe.ListQuery{Order: order, Status: st.status, PageOptions: o}
			}
			// Clothes 1 and 2 tie in wear count and last worn day, and
			// maybe in creation time: ties go by ID, the order they were made.
			reads = append(reads, listRead(fmt.Sprintf("ListClothes %s %s", order, st.status), true, func(o kit.PageOptions) (kit.Page[wardrobe.Clothing], error) {
				return s.ListClothes(ctx, w, opts(o))
			}, func(c wardrobe.Clothing) string { return c.ID }, st.clothes...), listRead(fmt.Sprintf("ListTemplates %s %s", order, st.status), true, func(o kit.PageOptions) (kit.Page[wardrobe.TemplateSummary], error) {
				return s.ListTemplates(ctx, w, opts(o))
			}, func(t wardrobe.TemplateSummary) string { return t.ID }, st.tpls...))
		}
	}
	reads = append(reads, listRead("ListHistory", true, func(o kit.PageOptions) (kit.Page[wardrobe.HistorySummary], error) {
		return s.ListHistory(ctx, w, wardrobe.HistoryQuery{From: today, To: today, PageOptions: o})
	}, func(h wardrobe.HistorySummary) string { return h.ID }, h.ID))
	return r.readAll(reads...)
}
