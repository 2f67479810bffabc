package kondate_test

import (
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
)

// TestCapacity holds each access pattern of the package doc to the
// capacity units its design allows at the least (issue 15), measured on
// DynamoDB Local with ReturnConsumedCapacity=TOTAL. The items here are
// small (under 1 KB) and the pages short (5 items, under 4 KB), so each
// budget counts the calls and the item writes their design needs:
//
//   - a GetItem is 1 RCU: strongly consistent, where kept (a user's own
//     items, and every item a write conditions on; see "Consistency and
//     capacity" in the package doc);
//   - a page of a user's listing is 1 RCU (strongly consistent); a page of
//     a catalog list, or a lookup on GSI1, is 0.5 (a GSI: eventually
//     consistent);
//   - a single write is 1 WCU for the table plus 1 for each GSI that holds
//     the item;
//   - a create is a one-item transaction (ddb.PutNew, so that it can tell
//     its own retry from another's write): 2 WCU for the table plus its
//     GSI writes (a recipe, in GSI1: 4 WCU);
//   - in a transaction, a put is 2 WCU for the table plus its GSI writes.
//     DynamoDB Local reports a transaction's Delete and ConditionCheck
//     items at 0 and its GSI writes at about half what the service charges
//     (Publish: 6 WCU for the three puts and 4 for their five index
//     entries; a save 6 and 12): the budgets below are Local's figures for
//     the minimal calls, which is what the test can hold. On the service,
//     a transaction's Delete and ConditionCheck cost 2 WCU each, and each
//     index entry written or removed 2.
func TestCapacity(t *testing.T) {
	var cc *ddbtest.CapacityClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
		cc = ddbtest.NewCapacityClient(c)
		return cc
	}, kondate.AllIndexes, deterministic)
	for _, tc := range capacityCases(t, s) {
		var err error
		got := cc.Measure(func() { err = tc.call() })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s consumed %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestCapacityMemory runs TestCapacity's cases on a MemoryStore, which
// reports what the DynamoDB store would consume on the service, and holds
// each to the service's price and its number of calls: what an access
// pattern costs in production, held by a unit test.
func TestCapacityMemory(t *testing.T) {
	rec := ddbtest.NewRecorder()
	s := kondate.NewMemoryStore(kondate.AllIndexes, deterministic, func(o *kondate.Options) { o.TracerProvider = rec.TracerProvider() })
	for _, tc := range capacityCases(t, s) {
		var err error
		got := rec.Measure(func() { err = tc.call() })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := tc.service()
		if g := (ddbtest.Capacity{Read: got.Read, Write: got.Write}); g != want || got.Calls != tc.calls {
			t.Errorf("%s cost %d calls, %+v on the memory store, want %d calls, %+v (the service's price)", tc.name, got.Calls, g, tc.calls, want)
		}
	}
}

// capacityCase is an access pattern and what it costs.
type capacityCase struct {
	name string
	call func() error
	want ddbtest.Capacity // on DynamoDB Local
	// onService is the price on the service where DynamoDB Local reports
	// another (nil: want): its transactions, priced its own way.
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

// capacityCases fills s, a fresh store built with kondate.AllIndexes and
// the deterministic options, with TestCapacity's data and returns its
// cases, to run in order.
func capacityCases(t *testing.T, s kondate.Store) []capacityCase {
	t.Helper()
	ctx := t.Context()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	const user = "u_01"
	page := ddbkit.PageOptions{Limit: 5}
	newRecipe := kondate.NewRecipe{Title: "麻婆豆腐", Ingredients: []kondate.Ingredient{{Name: "豆腐", Amount: "1丁"}, {Name: "豚ひき肉", Amount: "150g"}},
		Steps: []string{"豆腐を切る", "ひき肉を炒める", "煮る"}, Tags: []string{"中華"}, Origin: "manual"}
	var recipes []string
	for range 8 {
		r, err := s.CreateRecipe(ctx, user, newRecipe)
		must(err)
		recipes = append(recipes, r.ID)
		_, err = s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "木綿豆腐", Quantity: "2丁"})
		must(err)
	}
	set, err := s.CreateSet(ctx, user, kondate.NewSet{Title: "平日の献立", Items: []kondate.SetItem{{RecipeID: recipes[0], Title: "麻婆豆腐"}, {Title: "味噌汁"}}})
	must(err)
	shop, err := s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "卵", Quantity: "1パック"})
	must(err)
	fridge, err := s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "卵", Quantity: "6個", ExpiryDate: "2026-02-12"})
	must(err)
	for _, id := range recipes[:6] {
		_, err := s.Publish(ctx, user, kondate.KindRecipe, id)
		must(err)
	}
	link, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: recipes[0]})
	must(err)
	var deleted kondate.DeletedFridgeItem
	var victim string

	r, w := func(u float64) ddbtest.Capacity { return ddbtest.Capacity{Read: u} }, func(u float64) ddbtest.Capacity { return ddbtest.Capacity{Write: u} }
	rw := func(r, w float64) ddbtest.Capacity { return ddbtest.Capacity{Read: r, Write: w} }
	// svc is a case's price on the service, where DynamoDB Local reports
	// a transaction's Delete and ConditionCheck at 0 and its index writes
	// at about half (see above): there each item costs twice its write,
	// 1 WCU, a check twice the item alone, and each index entry it
	// writes, updates or removes 2.
	svc := func(r, w float64) *ddbtest.Capacity { return &ddbtest.Capacity{Read: r, Write: w} }
	return []capacityCase{
		{"GetRecipe", func() error { _, err := s.GetRecipe(ctx, user, recipes[0]); return err }, r(1), nil, 1},
		{"ListRecipes", func() error { _, err := s.ListRecipes(ctx, user, page); return err }, r(1), nil, 1},
		{"FindRecipe", func() error { _, err := s.FindRecipe(ctx, recipes[0]); return err }, r(1.5), nil, 2},
		{"CreateRecipe", func() error {
			rc, err := s.CreateRecipe(ctx, user, newRecipe)
			victim = rc.ID
			return err
		}, w(4), nil, 1},
		{"UpdateRecipe", func() error {
			title := "麻婆茄子"
			_, err := s.UpdateRecipe(ctx, user, recipes[7], kondate.RecipePatch{Title: &title})
			return err
		}, w(2), nil, 1},
		// A transactional delete (twice a DeleteItem's units), so that a
		// published recipe takes its catalog entry along; the GSI1 Query
		// that finds none reads nothing.
		{"DeleteRecipe", func() error { return s.DeleteRecipe(ctx, user, victim) }, rw(1, 4), nil, 3},
		{"GetSet", func() error { _, err := s.GetSet(ctx, user, set.ID); return err }, r(1), nil, 1},
		// On the service, ApplySet is the plan's put and the set's check (2
		// each), PromoteNextPlan and the fridge moves a put and a delete.
		{"ApplySet", func() error { _, err := s.ApplySet(ctx, user, kondate.PlanNext, set.ID); return err }, rw(1, 2), svc(1, 4), 2},
		{"GetPlan", func() error { _, err := s.GetPlan(ctx, user, kondate.PlanNext); return err }, r(1), nil, 1},
		{"PromoteNextPlan", func() error { _, err := s.PromoteNextPlan(ctx, user); return err }, rw(1, 2), svc(1, 4), 2},
		{"AddShoppingItem", func() error {
			_, err := s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "長ねぎ"})
			return err
		}, w(2), nil, 1},
		{"ListShoppingItems", func() error { _, err := s.ListShoppingItems(ctx, user, page); return err }, r(1), nil, 1},
		{"CompleteShoppingItem", func() error { _, err := s.CompleteShoppingItem(ctx, user, shop.ID); return err }, w(1), nil, 1},
		{"ListFridgeItems", func() error { _, err := s.ListFridgeItems(ctx, user, page); return err }, r(1), nil, 1},
		{"DeleteFridgeItem", func() error {
			var err error
			deleted, err = s.DeleteFridgeItem(ctx, user, fridge.ID)
			return err
		}, rw(1, 2), svc(1, 4), 2},
		{"RestoreFridgeItem", func() error { _, err := s.RestoreFridgeItem(ctx, user, deleted.Ref); return err }, rw(1, 2), svc(1, 4), 2},
		// On the service, Publish puts the catalog entry (the item, GSI1 and
		// GSI2: 6) and the creator's copy (the item, GSI2 and GSI3: 6) and
		// updates the recipe (the item and its GSI1 entry: 4); Unpublish
		// deletes and updates the same.
		{"Publish", func() error { _, err := s.Publish(ctx, user, kondate.KindRecipe, recipes[6]); return err }, rw(1, 10), svc(1, 16), 3},
		{"Unpublish", func() error { return s.Unpublish(ctx, user, kondate.KindRecipe, recipes[6]) }, rw(1, 10), svc(1, 16), 2},
		{"GetCatalogEntry", func() error { _, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, recipes[0]); return err }, r(0.5), nil, 1},
		{"ListCatalogNewest", func() error {
			_, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: page})
			return err
		}, r(0.5), nil, 1},
		{"ListCatalogPopular", func() error {
			_, err := s.ListCatalogPopular(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: page})
			return err
		}, r(0.5), nil, 1},
		{"ListCatalogByCreator", func() error {
			_, err := s.ListCatalogByCreator(ctx, user, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: page})
			return err
		}, r(0.5), nil, 1},
		{"SaveCatalogEntry", func() error { _, err := s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, recipes[0]); return err }, rw(1.5, 18), nil, 3},
		{"ListSaved", func() error { _, err := s.ListSaved(ctx, "u_02", kondate.KindRecipe, page); return err }, r(1), nil, 1},
		{"UnsaveCatalogEntry", func() error { return s.UnsaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, recipes[0]) }, rw(2.5, 18), nil, 4},
		{"CreateShareLink", func() error {
			_, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: recipes[1]})
			return err
		}, w(2), nil, 1},
		{"GetShareLink", func() error { _, err := s.GetShareLink(ctx, link.ID); return err }, r(1), nil, 1},
		{"ResolveShareLink", func() error { _, err := s.ResolveShareLink(ctx, link.ID); return err }, r(1.5), nil, 2},
		{"DeleteShareLink", func() error { return s.DeleteShareLink(ctx, user, link.ID) }, rw(1, 1), nil, 2},
		{"UpdateProfile", func() error {
			name := "山田花子"
			_, err := s.UpdateProfile(ctx, user, kondate.ProfilePatch{DisplayName: &name})
			return err
		}, w(1), nil, 2},
		{"GetProfile", func() error { _, err := s.GetProfile(ctx, user); return err }, r(1), nil, 1},
	}
}
