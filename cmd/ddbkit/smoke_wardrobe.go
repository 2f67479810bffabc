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
		if err == nil && got.ID != w {
			err = fmt.Errorf("the store made wardrobe ID %q, want %q", got.ID, w)
		}
		return err
	}); err != nil {
		return err
	}
	var clothes []wardrobe.Clothing
	for i := range 3 {
		r.owns(table, "PK", "W#"+w+"#COUNT#CLOTH#"+r.peekID())
		if err := r.write(fmt.Sprintf("clothing %d", i+1), func() error {
			c, err := s.AddClothing(ctx, w, wardrobe.NewClothing{Name: fmt.Sprintf("ddbkit smoke %d", i+1)})
			clothes = append(clothes, c)
			return err
		}); err != nil {
			return err
		}
	}
	c1, c2, c3 := clothes[0].ID, clothes[1].ID, clothes[2].ID
	var tpl wardrobe.Template
	r.owns(table, "PK", "W#"+w+"#COUNT#TPL#"+r.peekID())
	if err := r.write("template of clothes 1 and 2", func() (err error) {
		tpl, err = s.AddTemplate(ctx, w, wardrobe.NewTemplate{Name: "ddbkit smoke", ClothingIDs: []string{c1, c2}})
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
		{"GetWardrobe", false, func() error {
			got, err := s.GetWardrobe(ctx, w)
			if err != nil {
				return err
			}
			return same("name", got.Name, "ddbkit smoke")
		}},
		{"GetClothing", false, func() error {
			for _, c := range clothes {
				got, err := s.GetClothing(ctx, w, c.ID)
				if err != nil {
					return err
				}
				if err := same("clothing "+c.ID+" name", got.Name, c.Name); err != nil {
					return err
				}
			}
			return nil
		}},
		{"GetTemplate", false, func() error {
			got, err := s.GetTemplate(ctx, w, tpl.ID)
			if err != nil {
				return err
			}
			return same("template wear count", got.WearCount, 1)
		}},
		{"GetHistory", false, func() error {
			got, err := s.GetHistory(ctx, w, h.ID)
			if err != nil {
				return err
			}
			return same("history clothes", len(got.Clothes), 2)
		}},
	}
	for _, k := range []struct {
		kind wardrobe.Kind
		id   string
	}{{wardrobe.KindClothing, c1}, {wardrobe.KindTemplate, tpl.ID}} {
		reads = append(reads, smokeRead{fmt.Sprintf("ListDailyWear %s", k.kind), false, func() error {
			p, err := s.ListDailyWear(ctx, w, k.kind, k.id, wardrobe.DailyQuery{From: today, To: today})
			if err != nil {
				return err
			}
			if len(p.Items) != 1 || p.Items[0] != (wardrobe.DailyWear{Date: today, Count: 1}) {
				return notYet("daily wear %v, want one wear on %s", p.Items, today)
			}
			return nil
		}})
	}
	// The GSIs: every order of both lists, both statuses, and the history.
	for _, order := range []wardrobe.Order{wardrobe.OrderCreatedAt, wardrobe.OrderWearCount, wardrobe.OrderLastWornAt} {
		for _, st := range []struct {
			status  wardrobe.Status
			clothes []string
			tpls    []string
		}{{wardrobe.StatusActive, []string{c1, c2}, []string{tpl.ID}}, {wardrobe.StatusDeleted, []string{c3}, nil}} {
			opts := func(o kit.PageOptions) wardrobe.ListOptions {
				return wardrobe.ListOptions{Order: order, Status: st.status, PageOptions: o}
			}
			reads = append(reads, smokeRead{fmt.Sprintf("ListClothes %s %s", order, st.status), true, func() error {
				ids, err := listIDs(func(o kit.PageOptions) (kit.Page[wardrobe.Clothing], error) { return s.ListClothes(ctx, w, opts(o)) },
					func(c wardrobe.Clothing) string { return c.ID })
				return sameIDs(sortedIDs(ids), err, st.clothes...)
			}}, smokeRead{fmt.Sprintf("ListTemplates %s %s", order, st.status), true, func() error {
				ids, err := listIDs(func(o kit.PageOptions) (kit.Page[wardrobe.TemplateSummary], error) {
					return s.ListTemplates(ctx, w, opts(o))
				}, func(t wardrobe.TemplateSummary) string { return t.ID })
				return sameIDs(ids, err, st.tpls...)
			}})
		}
	}
	reads = append(reads, smokeRead{"ListHistory", true, func() error {
		ids, err := listIDs(func(o kit.PageOptions) (kit.Page[wardrobe.HistorySummary], error) {
			return s.ListHistory(ctx, w, wardrobe.HistoryQuery{From: today, To: today, PageOptions: o})
		}, func(h wardrobe.HistorySummary) string { return h.ID })
		return sameIDs(ids, err, h.ID)
	}})
	return r.readAll(reads...)
}
