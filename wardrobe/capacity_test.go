package wardrobe_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// TestCapacity holds each access pattern to the least capacity its design
// allows, as DynamoDB Local reports it (ReturnConsumedCapacity TOTAL;
// every item here is under 1 KB): a strongly consistent read of an item
// is 1 RCU, an eventually consistent one 0.5, a Query the items' total
// size in 4 KB steps at those rates; a single-item write is 1 WCU plus 1
// per status-list GSI it writes (an entry that moves is a delete and a
// put); a transaction is 2 WCU per item, plus GSI writes as DynamoDB
// Local counts them (some of its puts' only; the service counts every
// GSI write, so its figures for transactions are higher, by the same
// GSI writes whatever the code does). The budgets are the figures of
// the calls the design needs and no more: see the package doc's
// "Consistency and capacity" for the choices behind each.
func TestCapacity(t *testing.T) {
	ctx := context.Background()
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, wardrobe.CreateTableInput("wardrobe-capacity"))
	cc := ddbtest.NewCapacityClient(c)
	clock := ddbkit.StepClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond)
	s := wardrobe.NewDynamoStore(cc, func(o *wardrobe.Options) {
		o.TableName, o.Clock, o.NewID = name, clock, ddbkit.SeededUUIDv7s(1, clock)
	})

	// The wardrobe: 5 clothes, a template of all five, a history of the
	// template and three of them on 2026-01-05.
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしのクローゼット"})
	if err != nil {
		t.Fatal(err)
	}
	var cl []string
	for i := range 5 {
		c, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: fmt.Sprint("白シャツ ", i), ImageKey: fmt.Sprintf("images/%d.jpg", i)})
		if err != nil {
			t.Fatal(err)
		}
		cl = append(cl, c.ID)
	}
	tp, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "通勤スタイル", ClothingIDs: cl})
	if err != nil {
		t.Fatal(err)
	}
	h, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260105", TemplateID: tp.ID, ClothingIDs: cl[:3]})
	if err != nil {
		t.Fatal(err)
	}
	name2 := "白シャツ（長袖）"
	var h2 wardrobe.History

	for _, tc := range []struct {
		ap, name string
		op       func() error
		want     ddbtest.Capacity
	}{
		{"AP-01", "CreateWardrobe (a one-item transaction with a token: 2 WCU)", func() error {
			_, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
			return err
		}, ddbtest.Capacity{Write: 2}},
		{"AP-02", "GetWardrobe (strong)", func() error { _, err := s.GetWardrobe(ctx, w.ID); return err },
			ddbtest.Capacity{Read: 1}},
		{"AP-04", "ListClothes, 5 clothes of 1 KB at most (eventual, GSI)", func() error {
			_, err := s.ListClothes(ctx, w.ID, wardrobe.ListQuery{})
			return err
		}, ddbtest.Capacity{Read: 0.5}},
		{"AP-05", "GetClothing (strong)", func() error { _, err := s.GetClothing(ctx, w.ID, cl[0]); return err },
			ddbtest.Capacity{Read: 1}},
		{"AP-06", "AddClothing: check wardrobe + put", func() error {
			_, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "c"})
			return err
		}, ddbtest.Capacity{Write: 2*1 + 2*4}},
		{"AP-07", "UpdateClothing name", func() error {
			_, err := s.UpdateClothing(ctx, w.ID, cl[4], wardrobe.ClothingPatch{Name: &name2})
			return err
		}, ddbtest.Capacity{Write: 4}},
		{"AP-08", "DeleteClothing", func() error { _, err := s.DeleteClothing(ctx, w.ID, cl[4]); return err },
			ddbtest.Capacity{Write: 1 + 3*2}},
		{"AP-08", "RestoreClothing", func() error { _, err := s.RestoreClothing(ctx, w.ID, cl[4]); return err },
			ddbtest.Capacity{Write: 1 + 3*2}},
		{"AP-09", "ListTemplates, 1 template, 4 thumbnails (eventual, projected)", func() error {
			_, err := s.ListTemplates(ctx, w.ID, wardrobe.ListQuery{})
			return err
		}, ddbtest.Capacity{Read: 0.5 + 4*0.5}},
		{"AP-10", "GetTemplate (strong)", func() error { _, err := s.GetTemplate(ctx, w.ID, tp.ID); return err },
			ddbtest.Capacity{Read: 1}},
		{"AP-11", "AddTemplate of 2 clothes: check wardrobe and clothes + put", func() error {
			_, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: cl[:2]})
			return err
		}, ddbtest.Capacity{Write: 10}},
		{"AP-12", "UpdateTemplate name", func() error {
			_, err := s.UpdateTemplate(ctx, w.ID, tp.ID, wardrobe.TemplatePatch{Name: &name2})
			return err
		}, ddbtest.Capacity{Write: 4}},
		{"AP-12", "UpdateTemplate clothes (2): read + update, check clothes", func() error {
			_, err := s.UpdateTemplate(ctx, w.ID, tp.ID, wardrobe.TemplatePatch{ClothingIDs: cl[:2]})
			return err
		}, ddbtest.Capacity{Read: 1, Write: 10}},
		{"AP-13", "DeleteTemplate", func() error { _, err := s.DeleteTemplate(ctx, w.ID, tp.ID); return err },
			ddbtest.Capacity{Write: 1 + 3*2}},
		{"AP-13", "RestoreTemplate", func() error { _, err := s.RestoreTemplate(ctx, w.ID, tp.ID); return err },
			ddbtest.Capacity{Write: 1 + 3*2}},
		{"AP-14", "ListHistory, 1 history, 3 thumbnails (eventual, projected)", func() error {
			_, err := s.ListHistory(ctx, w.ID, wardrobe.HistoryQuery{})
			return err
		}, ddbtest.Capacity{Read: 0.5 + 3*0.5}},
		{"AP-15", "GetHistory (strong) + 3 clothes (eventual, projected)", func() error {
			_, err := s.GetHistory(ctx, w.ID, h.ID)
			return err
		}, ddbtest.Capacity{Read: 1 + 3*0.5}},
		{"AP-16", "AddHistory, template + 3 clothes: read wardrobe and outfit (strong) + history, counters, statistics", func() error {
			var err error
			h2, err = s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260106", TemplateID: tp.ID, ClothingIDs: cl[:3]})
			return err
		}, ddbtest.Capacity{Read: 1 + 4, Write: 2 * (1 + 4 + 4)}},
		{"AP-17", "DeleteHistory, template + 3 clothes, each losing its latest day: read history, outfit, counters, each one's day before (strong) + delete, counters, statistics", func() error {
			return s.DeleteHistory(ctx, w.ID, h2.ID)
		}, ddbtest.Capacity{Read: 1 + 4 + 4 + 4, Write: 2 * (1 + 4 + 4)}},
		{"", "ListDailyWear, 1 counter (eventual)", func() error {
			_, err := s.ListDailyWear(ctx, w.ID, wardrobe.KindClothing, cl[0], wardrobe.DailyQuery{})
			return err
		}, ddbtest.Capacity{Read: 0.5}},
	} {
		cc.CheckBudget(t, tc.ap+" "+tc.name, tc.want, tc.op)
	}
}
