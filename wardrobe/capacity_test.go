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
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, wardrobe.CreateTableInput("wardrobe-capacity"))
	cc := ddbtest.NewCapacityClient(c)
	s := wardrobe.NewDynamoStore(cc, capacityOptions, func(o *wardrobe.Options) { o.TableName = name })
	for _, tc := range capacityCases(t, s) {
		cc.CheckBudget(t, tc.ap+" "+tc.name, tc.want, tc.op)
	}
}

// TestCapacityMemory runs TestCapacity's cases on a MemoryStore, which
// reports what the DynamoDB store would consume on the service, and holds
// each to the service's price and its number of calls: what an access
// pattern costs in production, held by a unit test.
func TestCapacityMemory(t *testing.T) {
	rec := ddbtest.NewRecorder()
	s := wardrobe.NewMemoryStore(capacityOptions, func(o *wardrobe.Options) { o.TracerProvider = rec.TracerProvider() })
	for _, tc := range capacityCases(t, s) {
		var err error
		got := rec.Measure(func() { err = tc.op() })
		if err != nil {
			t.Fatalf("%s %s: %v", tc.ap, tc.name, err)
		}
		want := tc.service()
		if g := (ddbtest.Capacity{Read: got.Read, Write: got.Write}); g != want || got.Calls != tc.calls {
			t.Errorf("%s %s cost %d calls, %+v on the memory store, want %d calls, %+v (the service's price)", tc.ap, tc.name, got.Calls, g, tc.calls, want)
		}
	}
}

// capacityOptions are TestCapacity's clock and IDs.
func capacityOptions(o *wardrobe.Options) {
	clock := ddbkit.StepClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond)
	o.Clock, o.NewID = clock, ddbkit.SeededUUIDv7s(1, clock)
}

// capacityCase is an access pattern and what it costs.
type capacityCase struct {
	ap, name string
	op       func() error
	want     ddbtest.Capacity // on DynamoDB Local
	// onService is the price on the service where DynamoDB Local reports
	// another (nil: want): in a transaction, Local reports each table's
	// distinct item prices once (internal/backend's price.go), where the
	// service charges every item twice its write: the item's 1 WCU and
	// each GSI entry it adds, moves (both) or updates in place (the GSIs
	// project all attributes); a ConditionCheck the item alone.
	onService *ddbtest.Capacity
	calls     int // the DynamoDB calls it makes
}

// service is c's price on the service.
func (c capacityCase) service() ddbtest.Capacity {
	if c.onService != nil {
		return *c.onService
	}
	return c.want
}

// capacityCases fills s, a fresh store built with capacityOptions, with
// TestCapacity's data and returns its cases, to run in order.
func capacityCases(t *testing.T, s wardrobe.Store) []capacityCase {
	t.Helper()
	ctx := context.Background()

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

	return []capacityCase{
		{"AP-01", "CreateWardrobe (a one-item transaction with a token: 2 WCU)", func() error {
			_, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
			return err
		}, ddbtest.Capacity{Write: 2}, nil, 1},
		{"AP-02", "GetWardrobe (strong)", func() error { _, err := s.GetWardrobe(ctx, w.ID); return err },
			ddbtest.Capacity{Read: 1}, nil, 1},
		{"AP-04", "ListClothes, 5 clothes of 1 KB at most (eventual, GSI)", func() error {
			_, err := s.ListClothes(ctx, w.ID, wardrobe.ListQuery{})
			return err
		}, ddbtest.Capacity{Read: 0.5}, nil, 1},
		{"AP-05", "GetClothing (strong)", func() error { _, err := s.GetClothing(ctx, w.ID, cl[0]); return err },
			ddbtest.Capacity{Read: 1}, nil, 1},
		{"AP-06", "AddClothing: check wardrobe + put", func() error {
			_, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "c"})
			return err
		}, ddbtest.Capacity{Write: 2*1 + 2*4}, nil, 1},
		{"AP-07", "UpdateClothing name", func() error {
			_, err := s.UpdateClothing(ctx, w.ID, cl[4], wardrobe.ClothingPatch{Name: &name2})
			return err
		}, ddbtest.Capacity{Write: 4}, nil, 1},
		{"AP-08", "DeleteClothing", func() error { _, err := s.DeleteClothing(ctx, w.ID, cl[4]); return err },
			ddbtest.Capacity{Write: 1 + 3*2}, nil, 1},
		{"AP-08", "RestoreClothing", func() error { _, err := s.RestoreClothing(ctx, w.ID, cl[4]); return err },
			ddbtest.Capacity{Write: 1 + 3*2}, nil, 1},
		{"AP-09", "ListTemplates, 1 template, 4 thumbnails (eventual, projected)", func() error {
			_, err := s.ListTemplates(ctx, w.ID, wardrobe.ListQuery{})
			return err
		}, ddbtest.Capacity{Read: 0.5 + 4*0.5}, nil, 2},
		{"AP-10", "GetTemplate (strong)", func() error { _, err := s.GetTemplate(ctx, w.ID, tp.ID); return err },
			ddbtest.Capacity{Read: 1}, nil, 1},
		// On the service: the template and its 3 status-list entries (8),
		// the checks of the wardrobe and the 2 clothes (2 each): 14.
		{"AP-11", "AddTemplate of 2 clothes: check wardrobe and clothes + put", func() error {
			_, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: cl[:2]})
			return err
		}, ddbtest.Capacity{Write: 10}, &ddbtest.Capacity{Write: 2*(1+3) + 3*2}, 1},
		{"AP-12", "UpdateTemplate name", func() error {
			_, err := s.UpdateTemplate(ctx, w.ID, tp.ID, wardrobe.TemplatePatch{Name: &name2})
			return err
		}, ddbtest.Capacity{Write: 4}, nil, 1},
		// On the service: the template, its 3 entries updated (8), the 2
		// clothes' checks (4): 12.
		{"AP-12", "UpdateTemplate clothes (2): read + update, check clothes", func() error {
			_, err := s.UpdateTemplate(ctx, w.ID, tp.ID, wardrobe.TemplatePatch{ClothingIDs: cl[:2]})
			return err
		}, ddbtest.Capacity{Read: 1, Write: 10}, &ddbtest.Capacity{Read: 1, Write: 2*(1+3) + 2*2}, 2},
		{"AP-13", "DeleteTemplate", func() error { _, err := s.DeleteTemplate(ctx, w.ID, tp.ID); return err },
			ddbtest.Capacity{Write: 1 + 3*2}, nil, 1},
		{"AP-13", "RestoreTemplate", func() error { _, err := s.RestoreTemplate(ctx, w.ID, tp.ID); return err },
			ddbtest.Capacity{Write: 1 + 3*2}, nil, 1},
		{"AP-14", "ListHistory, 1 history, 3 thumbnails (eventual, projected)", func() error {
			_, err := s.ListHistory(ctx, w.ID, wardrobe.HistoryQuery{})
			return err
		}, ddbtest.Capacity{Read: 0.5 + 3*0.5}, nil, 2},
		{"AP-15", "GetHistory (strong) + 3 clothes (eventual, projected)", func() error {
			_, err := s.GetHistory(ctx, w.ID, h.ID)
			return err
		}, ddbtest.Capacity{Read: 1 + 3*0.5}, nil, 2},
		// On the service, AP-16 and AP-17 each write the history and its
		// HistoryByDate entry (4), 4 daily counters (2 each), and the
		// template and the 3 clothes, whose wear count and last worn date
		// move 2 entries and update the third (12 each): 60.
		{"AP-16", "AddHistory, template + 3 clothes: read wardrobe and outfit (strong) + history, counters, statistics", func() error {
			var err error
			h2, err = s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260106", TemplateID: tp.ID, ClothingIDs: cl[:3]})
			return err
		}, ddbtest.Capacity{Read: 1 + 4, Write: 2 * (1 + 4 + 4)}, &ddbtest.Capacity{Read: 1 + 4, Write: 2*(1+1) + 4*2 + 4*2*(1+1+2+2)}, 2},
		{"AP-17", "DeleteHistory, template + 3 clothes, each losing its latest day: read history, outfit, counters, each one's day before (strong) + delete, counters, statistics", func() error {
			return s.DeleteHistory(ctx, w.ID, h2.ID)
		}, ddbtest.Capacity{Read: 1 + 4 + 4 + 4, Write: 2 * (1 + 4 + 4)}, &ddbtest.Capacity{Read: 1 + 4 + 4 + 4, Write: 2*(1+1) + 4*2 + 4*2*(1+1+2+2)}, 7},
		{"", "ListDailyWear, 1 counter (eventual)", func() error {
			_, err := s.ListDailyWear(ctx, w.ID, wardrobe.KindClothing, cl[0], wardrobe.DailyQuery{})
			return err
		}, ddbtest.Capacity{Read: 0.5}, nil, 1},
	}
}
