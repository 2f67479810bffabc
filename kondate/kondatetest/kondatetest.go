// Package kondatetest is the conformance suite for kondate.Store
// implementations. The DynamoDB store and the memory store both run it,
// which is what keeps the memory store an honest fake: same results,
// errors, order and page boundaries.
package kondatetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// NewStore returns a fresh, empty store configured with opts. Each subtest
// calls it once.
type NewStore func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store

// Start is the time of the suite's clock.
var Start = time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)

// Run runs every conformance test against stores made by newStore.
func Run(t *testing.T, newStore NewStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, kondate.Store)
	}{
		{"Profile", testProfile},
		{"Recipes", testRecipes},
		{"Sets", testSets},
		{"Plans", testPlans},
		{"Shopping", testShopping},
		{"Fridge", testFridge},
		{"ConcurrentFridgeDeleteRestore", testConcurrentFridge},
		{"Categories", testCategories},
		{"CookLogs", testCookLogs},
		{"Payments", testPayments},
		{"Notifications", testNotifications},
		{"PushTokens", testPushTokens},
		{"Pages", testPages},
		{"InvalidCursors", testInvalidCursors},
		{"BadInputWritesNothing", testBadInput},
		{"EndedContextWritesNothing", testEndedContext},
		{"IdempotencyKey", testIdempotencyKey},
		{"IdempotencyKeyLateRepeat", testIdempotencyKeyLateRepeat},
		{"KeyedCreates", testKeyedCreates},
		{"KeyedReplays", testKeyedReplays},
		{"KeyedNoOps", testKeyedNoOps},
		{"Catalog", testCatalog},
		{"CatalogTagFilter", testCatalogTagFilter},
		{"Saves", testSaves},
		{"ShareLinks", testShareLinks},
		{"CatalogBadInputWritesNothing", testCatalogBadInput},
		{"CatalogEndedContextWritesNothing", testCatalogEndedContext},
		{"CatalogIdempotencyKey", testCatalogIdempotencyKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, fixed(t, newStore)) })
	}
	t.Run("DisabledIndexes", func(t *testing.T) { testDisabledIndexes(t, newStore) })
	t.Run("ConcurrentSaves", func(t *testing.T) { testConcurrentSaves(t, newStore) })
	runHardening(t, newStore)
}

// fixed returns a store with a step clock (one millisecond per call) and
// deterministic ULIDs.
func fixed(t *testing.T, newStore NewStore) kondate.Store {
	t.Helper()
	return newStore(t, kondate.AllIndexes, func(o *kondate.Options) {
		o.Clock = ddbkit.StepClock(Start, time.Millisecond)
		o.NewID = ddbkit.SeededULIDs(1, o.Clock)
		o.NewShareID = ddbkit.SeededULIDs(2, o.Clock)
	})
}

const user = "u_01"

func ptr[T any](v T) *T { return &v }

func must[T any](t *testing.T, what string) func(T, error) T {
	t.Helper()
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
}

// idempotencyKey returns t's context with an idempotency key made of name
// and the time: DynamoDB keeps a token for ten minutes across all tables,
// so a key must be unique to the run, the test and the store.
func idempotencyKey(t *testing.T, name string) context.Context {
	return ddbkit.WithIdempotencyKey(t.Context(), fmt.Sprintf("%s %s %d", t.Name(), name, time.Now().UnixNano()))
}

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: error = %v, want %v", what, err, want)
	}
	if got := ddbkit.MatchingSentinels(err); len(got) != 1 {
		t.Fatalf("%s: error %v matches sentinels %v, want exactly one", what, err, got)
	}
}

func wantEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func all[T any](t *testing.T, what string, fetch func(ddbkit.PageOptions) (ddbkit.Page[T], error)) []T {
	t.Helper()
	var out []T
	for v, err := range ddbkit.All(func(c string) (ddbkit.Page[T], error) {
		return fetch(ddbkit.PageOptions{Cursor: c, Limit: 2})
	}) {
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		out = append(out, v)
	}
	return out
}

func testProfile(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	_, err := s.GetProfile(ctx, user)
	wantErr(t, "GetProfile before any update", err, ddbkit.ErrNotFound)
	p1 := must[kondate.Profile](t, "UpdateProfile")(s.UpdateProfile(ctx, user, kondate.ProfilePatch{DisplayName: ptr("はなこ")}))
	if p1.DisplayName != "はなこ" || p1.UserID != user || p1.CreatedAt.IsZero() || !p1.CreatedAt.Equal(p1.UpdatedAt) {
		t.Fatalf("first UpdateProfile = %+v", p1)
	}
	p2 := must[kondate.Profile](t, "UpdateProfile")(s.UpdateProfile(ctx, user, kondate.ProfilePatch{AvatarURL: ptr("https://example.com/a.png")}))
	if p2.DisplayName != "はなこ" || !p2.CreatedAt.Equal(p1.CreatedAt) || !p2.UpdatedAt.After(p1.UpdatedAt) {
		t.Fatalf("second UpdateProfile = %+v, first %+v", p2, p1)
	}
	wantEqual(t, "GetProfile", must[kondate.Profile](t, "GetProfile")(s.GetProfile(ctx, user)), p2)
	_, err = s.UpdateProfile(ctx, user, kondate.ProfilePatch{})
	wantErr(t, "empty ProfilePatch", err, ddbkit.ErrInvalidArgument)
}

func newRecipe(title string) kondate.NewRecipe {
	return kondate.NewRecipe{Title: title, Ingredients: []kondate.Ingredient{{Name: "豆腐", Amount: "1丁"}},
		Steps: []string{"切る", "煮る"}, Tags: []string{"和食"}, Origin: "manual"}
}

func testRecipes(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	var made []kondate.Recipe
	for _, title := range []string{"麻婆豆腐", "味噌汁", "肉じゃが"} {
		made = append(made, must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe(title))))
	}
	r := made[0]
	if r.ID == "" || r.UserID != user || r.Title != "麻婆豆腐" || r.CreatedAt.IsZero() {
		t.Fatalf("CreateRecipe = %+v", r)
	}
	wantEqual(t, "GetRecipe", must[kondate.Recipe](t, "GetRecipe")(s.GetRecipe(ctx, user, r.ID)), r)
	wantEqual(t, "FindRecipe", must[kondate.Recipe](t, "FindRecipe")(s.FindRecipe(ctx, r.ID)), r)
	got := all(t, "ListRecipes", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.Recipe], error) { return s.ListRecipes(ctx, user, o) })
	want := slices.Clone(made)
	slices.Reverse(want)
	wantEqual(t, "ListRecipes (newest first)", got, want)

	empty := []string{}
	u := must[kondate.Recipe](t, "UpdateRecipe")(s.UpdateRecipe(ctx, user, r.ID, kondate.RecipePatch{Title: ptr("麻婆茄子"), Tags: &empty}))
	if u.Title != "麻婆茄子" || u.Tags != nil || !reflect.DeepEqual(u.Steps, r.Steps) || !u.UpdatedAt.After(r.UpdatedAt) || !u.CreatedAt.Equal(r.CreatedAt) {
		t.Fatalf("UpdateRecipe = %+v", u)
	}
	wantEqual(t, "GetRecipe after update", must[kondate.Recipe](t, "GetRecipe")(s.GetRecipe(ctx, user, r.ID)), u)
	_, err := s.UpdateRecipe(ctx, user, r.ID, kondate.RecipePatch{})
	wantErr(t, "empty RecipePatch", err, ddbkit.ErrInvalidArgument)
	_, err = s.UpdateRecipe(ctx, user, "nope", kondate.RecipePatch{Title: ptr("x")})
	wantErr(t, "UpdateRecipe of a missing recipe", err, ddbkit.ErrNotFound)
	_, err = s.GetRecipe(ctx, "someone-else", r.ID)
	wantErr(t, "GetRecipe of another user", err, ddbkit.ErrNotFound)

	if err := s.DeleteRecipe(ctx, user, r.ID); err != nil {
		t.Fatalf("DeleteRecipe: %v", err)
	}
	wantErr(t, "DeleteRecipe again", s.DeleteRecipe(ctx, user, r.ID), ddbkit.ErrNotFound)
	_, err = s.GetRecipe(ctx, user, r.ID)
	wantErr(t, "GetRecipe after delete", err, ddbkit.ErrNotFound)
	_, err = s.FindRecipe(ctx, r.ID)
	wantErr(t, "FindRecipe after delete", err, ddbkit.ErrNotFound)
	_, err = s.FindRecipe(ctx, "#bad")
	wantErr(t, "FindRecipe of a bad ID", err, ddbkit.ErrInvalidArgument)
}

func newSet(title string) kondate.NewSet {
	return kondate.NewSet{Title: title, Items: []kondate.SetItem{{RecipeID: "r_01", Title: "麻婆豆腐"}, {Title: "ご飯"}}, Tags: []string{"平日"}}
}

func testSets(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	a := must[kondate.Set](t, "CreateSet")(s.CreateSet(ctx, user, newSet("中華セット")))
	b := must[kondate.Set](t, "CreateSet")(s.CreateSet(ctx, user, newSet("和食セット")))
	wantEqual(t, "GetSet", must[kondate.Set](t, "GetSet")(s.GetSet(ctx, user, a.ID)), a)
	wantEqual(t, "FindSet", must[kondate.Set](t, "FindSet")(s.FindSet(ctx, b.ID)), b)
	got := all(t, "ListSets", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.Set], error) { return s.ListSets(ctx, user, o) })
	wantEqual(t, "ListSets (newest first)", got, []kondate.Set{b, a})
	items := []kondate.SetItem{{Title: "餃子"}}
	u := must[kondate.Set](t, "UpdateSet")(s.UpdateSet(ctx, user, a.ID, kondate.SetPatch{Items: &items}))
	wantEqual(t, "UpdateSet items", u.Items, items)
	wantEqual(t, "GetSet after update", must[kondate.Set](t, "GetSet")(s.GetSet(ctx, user, a.ID)), u)
	if err := s.DeleteSet(ctx, user, a.ID); err != nil {
		t.Fatalf("DeleteSet: %v", err)
	}
	wantErr(t, "DeleteSet again", s.DeleteSet(ctx, user, a.ID), ddbkit.ErrNotFound)
	_, err := s.FindSet(ctx, a.ID)
	wantErr(t, "FindSet after delete", err, ddbkit.ErrNotFound)
}

func testPlans(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	_, err := s.GetPlan(ctx, user, kondate.PlanCurrent)
	wantErr(t, "GetPlan before any write", err, ddbkit.ErrNotFound)
	_, err = s.GetPlan(ctx, user, "LATER")
	wantErr(t, "GetPlan of a bad slot", err, ddbkit.ErrInvalidArgument)
	set := must[kondate.Set](t, "CreateSet")(s.CreateSet(ctx, user, newSet("週末セット")))
	_, err = s.ApplySet(ctx, user, kondate.PlanNext, "missing")
	wantErr(t, "ApplySet of a missing set", err, ddbkit.ErrNotFound)
	next := must[kondate.Plan](t, "ApplySet")(s.ApplySet(ctx, user, kondate.PlanNext, set.ID))
	if next.SetID != set.ID || next.SetTitle != set.Title || !reflect.DeepEqual(next.Items, set.Items) || next.AppliedAt.IsZero() || next.Slot != kondate.PlanNext {
		t.Fatalf("ApplySet = %+v, set %+v", next, set)
	}
	wantEqual(t, "GetPlan NEXT", must[kondate.Plan](t, "GetPlan")(s.GetPlan(ctx, user, kondate.PlanNext)), next)

	// The plan keeps its copy when the set changes.
	must[kondate.Set](t, "UpdateSet")(s.UpdateSet(ctx, user, set.ID, kondate.SetPatch{Title: ptr("変更後")}))
	wantEqual(t, "GetPlan NEXT after the set changed", must[kondate.Plan](t, "GetPlan")(s.GetPlan(ctx, user, kondate.PlanNext)), next)

	items := append(slices.Clone(next.Items), kondate.SetItem{Title: "デザート"})
	edited := must[kondate.Plan](t, "UpdatePlan")(s.UpdatePlan(ctx, user, kondate.PlanNext, items))
	if edited.SetID != set.ID || !reflect.DeepEqual(edited.Items, items) || !edited.AppliedAt.Equal(next.AppliedAt) {
		t.Fatalf("UpdatePlan = %+v", edited)
	}
	cur := must[kondate.Plan](t, "PromoteNextPlan")(s.PromoteNextPlan(ctx, user))
	if cur.Slot != kondate.PlanCurrent || cur.SetID != set.ID || !reflect.DeepEqual(cur.Items, items) || !cur.AppliedAt.Equal(next.AppliedAt) {
		t.Fatalf("PromoteNextPlan = %+v", cur)
	}
	wantEqual(t, "GetPlan CURRENT", must[kondate.Plan](t, "GetPlan")(s.GetPlan(ctx, user, kondate.PlanCurrent)), cur)
	_, err = s.GetPlan(ctx, user, kondate.PlanNext)
	wantErr(t, "GetPlan NEXT after promotion", err, ddbkit.ErrNotFound)
	_, err = s.PromoteNextPlan(ctx, user)
	wantErr(t, "PromoteNextPlan without a next plan", err, ddbkit.ErrNotFound)

	// A plan no set was applied to.
	p := must[kondate.Plan](t, "UpdatePlan")(s.UpdatePlan(ctx, "u_02", kondate.PlanCurrent, []kondate.SetItem{{Title: "カレー"}}))
	if p.SetID != "" || !p.AppliedAt.IsZero() || len(p.Items) != 1 {
		t.Fatalf("UpdatePlan of a new plan = %+v", p)
	}
}

func testShopping(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	a := must[kondate.ShoppingItem](t, "AddShoppingItem")(s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "牛乳", Quantity: "1本"}))
	b := must[kondate.ShoppingItem](t, "AddShoppingItem")(s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "卵"}))
	got := all(t, "ListShoppingItems", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.ShoppingItem], error) {
		return s.ListShoppingItems(ctx, user, o)
	})
	wantEqual(t, "ListShoppingItems (oldest first)", got, []kondate.ShoppingItem{a, b})
	u := must[kondate.ShoppingItem](t, "UpdateShoppingItem")(s.UpdateShoppingItem(ctx, user, b.ID, kondate.ShoppingPatch{Quantity: ptr("10個")}))
	if u.Quantity != "10個" || u.Name != "卵" {
		t.Fatalf("UpdateShoppingItem = %+v", u)
	}
	c1 := must[kondate.ShoppingItem](t, "CompleteShoppingItem")(s.CompleteShoppingItem(ctx, user, a.ID))
	c2 := must[kondate.ShoppingItem](t, "CompleteShoppingItem")(s.CompleteShoppingItem(ctx, user, a.ID))
	if !c1.Checked || c1.CompletedAt.IsZero() || !c2.CompletedAt.Equal(c1.CompletedAt) {
		t.Fatalf("CompleteShoppingItem twice = %+v, %+v", c1, c2)
	}
	_, err := s.CompleteShoppingItem(ctx, user, "missing")
	wantErr(t, "CompleteShoppingItem of a missing item", err, ddbkit.ErrNotFound)
	_, err = s.UpdateShoppingItem(ctx, user, "missing", kondate.ShoppingPatch{Name: ptr("x")})
	wantErr(t, "UpdateShoppingItem of a missing item", err, ddbkit.ErrNotFound)
}

func testFridge(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	a := must[kondate.FridgeItem](t, "AddFridgeItem")(s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "にんじん", Quantity: "2本", ExpiryDate: "2026-02-15"}))
	b := must[kondate.FridgeItem](t, "AddFridgeItem")(s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "豚肉"}))
	c := must[kondate.FridgeItem](t, "AddFridgeItem")(s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "ねぎ"}))
	_, err := s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "x", ExpiryDate: "2026-02-30"})
	wantErr(t, "AddFridgeItem with a bad date", err, ddbkit.ErrInvalidArgument)
	a = must[kondate.FridgeItem](t, "UpdateFridgeItem")(s.UpdateFridgeItem(ctx, user, a.ID, kondate.FridgePatch{Quantity: ptr("1本")}))

	da := must[kondate.DeletedFridgeItem](t, "DeleteFridgeItem")(s.DeleteFridgeItem(ctx, user, a.ID))
	dc := must[kondate.DeletedFridgeItem](t, "DeleteFridgeItem")(s.DeleteFridgeItem(ctx, user, c.ID))
	wantEqual(t, "deleted item", da.FridgeItem, a)
	_, err = s.DeleteFridgeItem(ctx, user, a.ID)
	wantErr(t, "DeleteFridgeItem again", err, ddbkit.ErrNotFound)
	live := all(t, "ListFridgeItems", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.FridgeItem], error) {
		return s.ListFridgeItems(ctx, user, o)
	})
	wantEqual(t, "ListFridgeItems after deletes", live, []kondate.FridgeItem{b})
	deleted := all(t, "ListDeletedFridgeItems", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.DeletedFridgeItem], error) {
		return s.ListDeletedFridgeItems(ctx, user, o)
	})
	wantEqual(t, "ListDeletedFridgeItems (newest first)", deleted, []kondate.DeletedFridgeItem{dc, da})

	r := must[kondate.FridgeItem](t, "RestoreFridgeItem")(s.RestoreFridgeItem(ctx, user, da.Ref))
	wantEqual(t, "restored item", r, a)
	_, err = s.RestoreFridgeItem(ctx, user, da.Ref)
	wantErr(t, "RestoreFridgeItem again", err, ddbkit.ErrNotFound)
	live = all(t, "ListFridgeItems", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.FridgeItem], error) {
		return s.ListFridgeItems(ctx, user, o)
	})
	wantEqual(t, "ListFridgeItems after restore", live, []kondate.FridgeItem{a, b})
}

// testConcurrentFridge: 16 goroutines delete and restore the same items;
// afterwards each exists exactly once, in the fridge or in the archive.
func testConcurrentFridge(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	var ids []string
	for _, n := range []string{"a", "b", "c"} {
		ids = append(ids, must[kondate.FridgeItem](t, "AddFridgeItem")(s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: n})).ID)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16*8)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 8 {
				id := ids[(g+i)%len(ids)]
				if (g+i)%2 == 0 {
					_, err := s.DeleteFridgeItem(ctx, user, id)
					if err != nil && !errors.Is(err, ddbkit.ErrNotFound) && !errors.Is(err, ddbkit.ErrConflict) {
						errs <- err
					}
					continue
				}
				p, err := s.ListDeletedFridgeItems(ctx, user, ddbkit.PageOptions{})
				if err != nil {
					errs <- err
					continue
				}
				for _, d := range p.Items {
					if d.ID == id {
						_, err := s.RestoreFridgeItem(ctx, user, d.Ref)
						if err != nil && !errors.Is(err, ddbkit.ErrNotFound) && !errors.Is(err, ddbkit.ErrConflict) {
							errs <- err
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("unexpected error: %v", err)
	}
	count := map[string]int{}
	for _, f := range all(t, "ListFridgeItems", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.FridgeItem], error) {
		return s.ListFridgeItems(ctx, user, o)
	}) {
		count[f.ID]++
	}
	for _, d := range all(t, "ListDeletedFridgeItems", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.DeletedFridgeItem], error) {
		return s.ListDeletedFridgeItems(ctx, user, o)
	}) {
		count[d.ID]++
	}
	for _, id := range ids {
		if count[id] != 1 {
			t.Errorf("item %s exists %d times, want exactly once", id, count[id])
		}
	}
}

func testCategories(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	b1 := must[kondate.Category](t, "AddCategory")(s.AddCategory(ctx, user, kondate.ScopeBook, kondate.NewCategory{Name: "主菜"}))
	c1 := must[kondate.Category](t, "AddCategory")(s.AddCategory(ctx, user, kondate.ScopeCatalog, kondate.NewCategory{Name: "人気"}))
	b2 := must[kondate.Category](t, "AddCategory")(s.AddCategory(ctx, user, kondate.ScopeBook, kondate.NewCategory{Name: "副菜"}))
	_, err := s.AddCategory(ctx, user, "other", kondate.NewCategory{Name: "x"})
	wantErr(t, "AddCategory of a bad scope", err, ddbkit.ErrInvalidArgument)
	list := func(scope kondate.CategoryScope) []kondate.Category {
		return all(t, "ListCategories", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.Category], error) {
			return s.ListCategories(ctx, user, scope, o)
		})
	}
	wantEqual(t, "book categories", list(kondate.ScopeBook), []kondate.Category{b1, b2})
	wantEqual(t, "catalog categories", list(kondate.ScopeCatalog), []kondate.Category{c1})
	u := must[kondate.Category](t, "UpdateCategory")(s.UpdateCategory(ctx, user, kondate.ScopeBook, b2.ID, kondate.CategoryPatch{Name: ptr("汁物")}))
	if u.Name != "汁物" || u.Scope != kondate.ScopeBook {
		t.Fatalf("UpdateCategory = %+v", u)
	}
	_, err = s.UpdateCategory(ctx, user, kondate.ScopeCatalog, b2.ID, kondate.CategoryPatch{Name: ptr("x")})
	wantErr(t, "UpdateCategory in the other scope", err, ddbkit.ErrNotFound)
	if err := s.DeleteCategory(ctx, user, kondate.ScopeBook, b1.ID); err != nil {
		t.Fatalf("DeleteCategory: %v", err)
	}
	wantErr(t, "DeleteCategory again", s.DeleteCategory(ctx, user, kondate.ScopeBook, b1.ID), ddbkit.ErrNotFound)
	wantEqual(t, "book categories after delete", list(kondate.ScopeBook), []kondate.Category{u})
}

func testCookLogs(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	add := func(date, title string) kondate.CookLog {
		return must[kondate.CookLog](t, "AddCookLog")(s.AddCookLog(ctx, user, kondate.NewCookLog{Date: date, Title: title, RecipeID: "r_01"}))
	}
	feb10 := add("2026-02-10", "カレー")
	feb9a := add("2026-02-09", "麻婆豆腐")
	mar1 := add("2026-03-01", "ひなちらし")
	feb9b := add("2026-02-09", "味噌汁")
	jan31 := add("2026-01-31", "おでん")
	month := func(m string) []kondate.CookLog {
		return all(t, "ListCookLogsByMonth", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.CookLog], error) {
			return s.ListCookLogsByMonth(ctx, user, m, o)
		})
	}
	wantEqual(t, "February", month("2026-02"), []kondate.CookLog{feb9a, feb9b, feb10})
	wantEqual(t, "March", month("2026-03"), []kondate.CookLog{mar1})
	wantEqual(t, "January", month("2026-01"), []kondate.CookLog{jan31})
	day := all(t, "ListCookLogsByDay", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.CookLog], error) {
		return s.ListCookLogsByDay(ctx, user, "2026-02-09", o)
	})
	wantEqual(t, "2026-02-09", day, []kondate.CookLog{feb9a, feb9b})
	_, err := s.ListCookLogsByMonth(ctx, user, "2026-2", ddbkit.PageOptions{})
	wantErr(t, "ListCookLogsByMonth of a bad month", err, ddbkit.ErrInvalidArgument)
	_, err = s.AddCookLog(ctx, user, kondate.NewCookLog{Date: "2026/02/09", Title: "x"})
	wantErr(t, "AddCookLog with a bad date", err, ddbkit.ErrInvalidArgument)
}

func testPayments(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	m := must[kondate.PaymentMethod](t, "AddPaymentMethod")(s.AddPaymentMethod(ctx, user, kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: "pm_1Nabc", Brand: "visa", Last4: "4242"}))
	for name, in := range map[string]kondate.NewPaymentMethod{
		"a card number as reference": {Provider: "stripe", ProviderRef: "4242424242424242", Brand: "visa", Last4: "4242"},
		"spaced card number":         {Provider: "stripe", ProviderRef: "4242-4242-4242-4242", Brand: "visa", Last4: "4242"},
		"five digits":                {Provider: "stripe", ProviderRef: "pm_1", Brand: "visa", Last4: "42424"},
	} {
		_, err := s.AddPaymentMethod(ctx, user, in)
		wantErr(t, "AddPaymentMethod with "+name, err, ddbkit.ErrInvalidArgument)
	}
	got := all(t, "ListPaymentMethods", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.PaymentMethod], error) {
		return s.ListPaymentMethods(ctx, user, o)
	})
	wantEqual(t, "ListPaymentMethods", got, []kondate.PaymentMethod{m})
	if err := s.RemovePaymentMethod(ctx, user, m.ID); err != nil {
		t.Fatalf("RemovePaymentMethod: %v", err)
	}
	wantErr(t, "RemovePaymentMethod again", s.RemovePaymentMethod(ctx, user, m.ID), ddbkit.ErrNotFound)

	in1 := kondate.NewPurchase{TransactionID: "pi_1", PurchasedAt: Start, ProductID: "premium_monthly", Amount: 480, Currency: "JPY", PaymentMethodID: m.ID}
	p1 := must[kondate.Purchase](t, "RecordPurchase")(s.RecordPurchase(ctx, user, in1))
	if p1.ID != "pi_1" || !p1.PurchasedAt.Equal(Start) {
		t.Fatalf("RecordPurchase = %+v; want ID pi_1 purchased at %v", p1, Start)
	}
	p2 := must[kondate.Purchase](t, "RecordPurchase")(s.RecordPurchase(ctx, user, kondate.NewPurchase{TransactionID: "pi_2", PurchasedAt: Start.Add(time.Hour),
		ProductID: "premium_monthly", Amount: 480, Currency: "JPY"}))
	// A webhook delivered again: the same purchase, recorded once.
	wantEqual(t, "RecordPurchase repeated", must[kondate.Purchase](t, "RecordPurchase again")(s.RecordPurchase(ctx, user, in1)), p1)
	for name, change := range map[string]func(*kondate.NewPurchase){
		"another amount": func(in *kondate.NewPurchase) { in.Amount = 980 },
		"another time":   func(in *kondate.NewPurchase) { in.PurchasedAt = Start.Add(time.Minute) },
		"another method": func(in *kondate.NewPurchase) { in.PaymentMethodID = "" },
	} {
		in := in1
		change(&in)
		_, err := s.RecordPurchase(ctx, user, in)
		wantErr(t, "RecordPurchase of pi_1 with "+name, err, ddbkit.ErrAlreadyExists)
	}
	// Another user's purchase of the same transaction ID is theirs.
	must[kondate.Purchase](t, "RecordPurchase by another user")(s.RecordPurchase(ctx, user+"_other", in1))
	purchases := all(t, "ListPurchases", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.Purchase], error) {
		return s.ListPurchases(ctx, user, o)
	})
	wantEqual(t, "ListPurchases (newest first)", purchases, []kondate.Purchase{p2, p1})

	_, err := s.GetSubscription(ctx, user)
	wantErr(t, "GetSubscription before any", err, ddbkit.ErrNotFound)
	sub := must[kondate.Subscription](t, "SetSubscription")(s.SetSubscription(ctx, user, kondate.Subscription{Plan: "premium", Status: "active", CurrentPeriodEnd: Start.AddDate(0, 1, 0)}))
	if sub.UserID != user || sub.UpdatedAt.IsZero() || !sub.CurrentPeriodEnd.Equal(Start.AddDate(0, 1, 0)) {
		t.Fatalf("SetSubscription = %+v", sub)
	}
	wantEqual(t, "GetSubscription", must[kondate.Subscription](t, "GetSubscription")(s.GetSubscription(ctx, user)), sub)
}

func testNotifications(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	n1 := must[kondate.Notification](t, "AddNotification")(s.AddNotification(ctx, user, kondate.NewNotification{Kind: "system", Title: "ようこそ"}))
	n2 := must[kondate.Notification](t, "AddNotification")(s.AddNotification(ctx, user, kondate.NewNotification{Kind: "plan", Title: "来週の献立", Body: "決めましょう"}))
	got := all(t, "ListNotifications", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.Notification], error) {
		return s.ListNotifications(ctx, user, o)
	})
	wantEqual(t, "ListNotifications (newest first)", got, []kondate.Notification{n2, n1})
	r1 := must[kondate.Notification](t, "MarkNotificationRead")(s.MarkNotificationRead(ctx, user, n1.Ref))
	r2 := must[kondate.Notification](t, "MarkNotificationRead")(s.MarkNotificationRead(ctx, user, n1.Ref))
	if r1.ReadAt.IsZero() || !r2.ReadAt.Equal(r1.ReadAt) {
		t.Fatalf("MarkNotificationRead twice = %+v, %+v", r1, r2)
	}
	_, err := s.MarkNotificationRead(ctx, user, n1.CreatedAt.Add(time.Millisecond).UTC().Format("2006-01-02T15:04:05.000Z")+"#"+n1.ID)
	wantErr(t, "MarkNotificationRead at another time", err, ddbkit.ErrNotFound)

	def := must[kondate.NotificationSettings](t, "GetNotificationSettings")(s.GetNotificationSettings(ctx, user))
	wantEqual(t, "default settings", def, kondate.NotificationSettings{UserID: user})
	set := must[kondate.NotificationSettings](t, "SetNotificationSettings")(s.SetNotificationSettings(ctx, user, kondate.NotificationSettings{PushEnabled: true}))
	if !set.PushEnabled || set.EmailEnabled || set.UserID != user {
		t.Fatalf("SetNotificationSettings = %+v", set)
	}
	wantEqual(t, "GetNotificationSettings", must[kondate.NotificationSettings](t, "GetNotificationSettings")(s.GetNotificationSettings(ctx, user)), set)
}

func testPushTokens(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	a1 := must[kondate.PushToken](t, "RegisterPushToken")(s.RegisterPushToken(ctx, user, kondate.PlatformIOS, "apns-token-1"))
	a2 := must[kondate.PushToken](t, "RegisterPushToken")(s.RegisterPushToken(ctx, user, kondate.PlatformIOS, "apns-token-1"))
	if !a2.CreatedAt.Equal(a1.CreatedAt) || !a2.UpdatedAt.After(a1.UpdatedAt) || a2.Token != "apns-token-1" {
		t.Fatalf("RegisterPushToken twice = %+v, %+v", a1, a2)
	}
	b := must[kondate.PushToken](t, "RegisterPushToken")(s.RegisterPushToken(ctx, user, kondate.PlatformAndroid, "fcm:token/2"))
	got := all(t, "ListPushTokens", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.PushToken], error) {
		return s.ListPushTokens(ctx, user, o)
	})
	wantEqual(t, "ListPushTokens", got, []kondate.PushToken{b, a2})
	if err := s.UnregisterPushToken(ctx, user, kondate.PlatformIOS, "apns-token-1"); err != nil {
		t.Fatalf("UnregisterPushToken: %v", err)
	}
	wantErr(t, "UnregisterPushToken again", s.UnregisterPushToken(ctx, user, kondate.PlatformIOS, "apns-token-1"), ddbkit.ErrNotFound)
	_, err := s.RegisterPushToken(ctx, user, "blackberry", "x")
	wantErr(t, "RegisterPushToken of a bad platform", err, ddbkit.ErrInvalidArgument)
}

// testPages: page boundaries and cursors of one listing.
func testPages(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	var want []kondate.ShoppingItem
	for range 5 {
		want = append(want, must[kondate.ShoppingItem](t, "AddShoppingItem")(s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "x"})))
	}
	p1 := must[ddbkit.Page[kondate.ShoppingItem]](t, "page 1")(s.ListShoppingItems(ctx, user, ddbkit.PageOptions{Limit: 3}))
	wantEqual(t, "page 1", p1.Items, want[:3])
	p2 := must[ddbkit.Page[kondate.ShoppingItem]](t, "page 2")(s.ListShoppingItems(ctx, user, ddbkit.PageOptions{Limit: 3, Cursor: p1.Next}))
	wantEqual(t, "page 2", p2.Items, want[3:])
	if p1.Next == "" || p2.Next != "" {
		t.Fatalf("cursors %q, %q: want a next page after page 1 only", p1.Next, p2.Next)
	}
	p := must[ddbkit.Page[kondate.ShoppingItem]](t, "exact page")(s.ListShoppingItems(ctx, user, ddbkit.PageOptions{Limit: 5}))
	if len(p.Items) != 5 || p.Next != "" {
		t.Fatalf("a page of exactly all items: %d items, next %q", len(p.Items), p.Next)
	}
	_, err := s.ListShoppingItems(ctx, user, ddbkit.PageOptions{Limit: -1})
	wantErr(t, "negative limit", err, ddbkit.ErrInvalidArgument)
}

func testInvalidCursors(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	for range 3 {
		must[kondate.FridgeItem](t, "AddFridgeItem")(s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "x"}))
		must[kondate.ShoppingItem](t, "AddShoppingItem")(s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "x"}))
	}
	p := must[ddbkit.Page[kondate.FridgeItem]](t, "ListFridgeItems")(s.ListFridgeItems(ctx, user, ddbkit.PageOptions{Limit: 1}))
	_, err := s.ListShoppingItems(ctx, user, ddbkit.PageOptions{Limit: 1, Cursor: p.Next})
	wantErr(t, "a fridge cursor on the shopping list", err, ddbkit.ErrInvalidCursor)
	_, err = s.ListFridgeItems(ctx, "u_02", ddbkit.PageOptions{Limit: 1, Cursor: p.Next})
	wantErr(t, "a cursor of another user", err, ddbkit.ErrInvalidCursor)
	_, err = s.ListFridgeItems(ctx, user, ddbkit.PageOptions{Limit: 1, Cursor: "garbage"})
	wantErr(t, "a garbage cursor", err, ddbkit.ErrInvalidCursor)
}

// testBadInput: bad input is refused with a clear error, and a read-back
// shows nothing was written.
func testBadInput(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	long := string(make([]rune, kondate.MaxTitleLen+1))
	cases := []struct {
		name  string
		field string
		call  func() error
	}{
		{"user ID with #", "UserID", func() error { _, err := s.CreateRecipe(ctx, "u#1", newRecipe("x")); return err }},
		{"empty title", "Title", func() error { _, err := s.CreateRecipe(ctx, user, kondate.NewRecipe{Title: " "}); return err }},
		{"title too long", "Title", func() error {
			_, err := s.CreateRecipe(ctx, user, kondate.NewRecipe{Title: long})
			return err
		}},
		{"empty tag", "Tags", func() error {
			_, err := s.CreateRecipe(ctx, user, kondate.NewRecipe{Title: "x", Tags: []string{""}})
			return err
		}},
		{"set item without title", "Items.Title", func() error {
			_, err := s.CreateSet(ctx, user, kondate.NewSet{Title: "x", Items: []kondate.SetItem{{RecipeID: "r"}}})
			return err
		}},
		{"bad plan slot", "Slot", func() error { _, err := s.UpdatePlan(ctx, user, "current", nil); return err }},
		{"empty shopping name", "Name", func() error { _, err := s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{}); return err }},
		{"bad expiry", "ExpiryDate", func() error {
			_, err := s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "x", ExpiryDate: "tomorrow"})
			return err
		}},
		{"bad scope", "Scope", func() error { _, err := s.AddCategory(ctx, user, "Book", kondate.NewCategory{Name: "x"}); return err }},
		{"bad cook date", "Date", func() error { _, err := s.AddCookLog(ctx, user, kondate.NewCookLog{Title: "x"}); return err }},
		{"card number", "ProviderRef", func() error {
			_, err := s.AddPaymentMethod(ctx, user, kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: "4111111111111111", Last4: "1111"})
			return err
		}},
		{"negative amount", "Amount", func() error {
			_, err := s.RecordPurchase(ctx, user, kondate.NewPurchase{TransactionID: "t", PurchasedAt: Start, ProductID: "p", Amount: -1, Currency: "JPY"})
			return err
		}},
		{"bad currency", "Currency", func() error {
			_, err := s.RecordPurchase(ctx, user, kondate.NewPurchase{TransactionID: "t", PurchasedAt: Start, ProductID: "p", Currency: "yen"})
			return err
		}},
		{"no transaction ID", "TransactionID", func() error {
			_, err := s.RecordPurchase(ctx, user, kondate.NewPurchase{PurchasedAt: Start, ProductID: "p", Currency: "JPY"})
			return err
		}},
		{"transaction ID with '#'", "TransactionID", func() error {
			_, err := s.RecordPurchase(ctx, user, kondate.NewPurchase{TransactionID: "t#1", PurchasedAt: Start, ProductID: "p", Currency: "JPY"})
			return err
		}},
		{"no purchase time", "PurchasedAt", func() error {
			_, err := s.RecordPurchase(ctx, user, kondate.NewPurchase{TransactionID: "t", ProductID: "p", Currency: "JPY"})
			return err
		}},
		{"empty notification title", "Title", func() error {
			_, err := s.AddNotification(ctx, user, kondate.NewNotification{Kind: "k"})
			return err
		}},
		{"push token with space", "Token", func() error { _, err := s.RegisterPushToken(ctx, user, kondate.PlatformWeb, "a b"); return err }},
		{"empty profile patch", "ProfilePatch", func() error { _, err := s.UpdateProfile(ctx, user, kondate.ProfilePatch{}); return err }},
	}
	for _, c := range cases {
		err := c.call()
		wantErr(t, c.name, err, ddbkit.ErrInvalidArgument)
		var ve *ddbkit.ValidationError
		if !errors.As(err, &ve) || ve.Field != c.field {
			t.Errorf("%s: error %v names field %v, want %s", c.name, err, ve, c.field)
		}
	}
	assertEmpty(t, s, user)
}

// assertEmpty reads back every area of userID and fails if anything is
// there.
func assertEmpty(t *testing.T, s kondate.Store, userID string) {
	t.Helper()
	ctx := context.Background()
	o := ddbkit.PageOptions{}
	counts := map[string]func() (int, error){
		"recipes":  func() (int, error) { p, err := s.ListRecipes(ctx, userID, o); return len(p.Items), err },
		"sets":     func() (int, error) { p, err := s.ListSets(ctx, userID, o); return len(p.Items), err },
		"shopping": func() (int, error) { p, err := s.ListShoppingItems(ctx, userID, o); return len(p.Items), err },
		"fridge":   func() (int, error) { p, err := s.ListFridgeItems(ctx, userID, o); return len(p.Items), err },
		"deleted":  func() (int, error) { p, err := s.ListDeletedFridgeItems(ctx, userID, o); return len(p.Items), err },
		"book": func() (int, error) {
			p, err := s.ListCategories(ctx, userID, kondate.ScopeBook, o)
			return len(p.Items), err
		},
		"cook logs": func() (int, error) {
			p, err := s.ListCookLogsByMonth(ctx, userID, "2026-02", o)
			return len(p.Items), err
		},
		"methods":   func() (int, error) { p, err := s.ListPaymentMethods(ctx, userID, o); return len(p.Items), err },
		"purchases": func() (int, error) { p, err := s.ListPurchases(ctx, userID, o); return len(p.Items), err },
		"notices":   func() (int, error) { p, err := s.ListNotifications(ctx, userID, o); return len(p.Items), err },
		"tokens":    func() (int, error) { p, err := s.ListPushTokens(ctx, userID, o); return len(p.Items), err },
		"profile":   func() (int, error) { return missing(s.GetProfile(ctx, userID)) },
		"current":   func() (int, error) { return missing(s.GetPlan(ctx, userID, kondate.PlanCurrent)) },
		"next":      func() (int, error) { return missing(s.GetPlan(ctx, userID, kondate.PlanNext)) },
		"sub":       func() (int, error) { return missing(s.GetSubscription(ctx, userID)) },
	}
	for what, count := range counts {
		n, err := count()
		if err != nil {
			t.Errorf("reading back %s: %v", what, err)
		} else if n != 0 {
			t.Errorf("%s: %d items written, want none", what, n)
		}
	}
}

func missing[T any](_ T, err error) (int, error) {
	if errors.Is(err, ddbkit.ErrNotFound) {
		return 0, nil
	}
	return 1, err
}

// testEndedContext: under a cancelled context every write fails with
// ErrUnavailable, matching context.Canceled, and writes nothing.
func testEndedContext(t *testing.T, s kondate.Store) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	setItems := []kondate.SetItem{{Title: "x"}}
	calls := map[string]func() error{
		"UpdateProfile": func() error {
			_, err := s.UpdateProfile(ctx, user, kondate.ProfilePatch{DisplayName: ptr("x")})
			return err
		},
		"CreateRecipe": func() error { _, err := s.CreateRecipe(ctx, user, newRecipe("x")); return err },
		"CreateSet":    func() error { _, err := s.CreateSet(ctx, user, newSet("x")); return err },
		"UpdatePlan":   func() error { _, err := s.UpdatePlan(ctx, user, kondate.PlanNext, setItems); return err },
		"ApplySet":     func() error { _, err := s.ApplySet(ctx, user, kondate.PlanNext, "s"); return err },
		"AddShopping":  func() error { _, err := s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "x"}); return err },
		"AddFridge":    func() error { _, err := s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "x"}); return err },
		"AddCategory": func() error {
			_, err := s.AddCategory(ctx, user, kondate.ScopeBook, kondate.NewCategory{Name: "x"})
			return err
		},
		"AddCookLog": func() error {
			_, err := s.AddCookLog(ctx, user, kondate.NewCookLog{Date: "2026-02-09", Title: "x"})
			return err
		},
		"AddPayment": func() error {
			_, err := s.AddPaymentMethod(ctx, user, kondate.NewPaymentMethod{Provider: "p", ProviderRef: "pm_1", Last4: "4242"})
			return err
		},
		"RecordPurchase": func() error {
			_, err := s.RecordPurchase(ctx, user, kondate.NewPurchase{TransactionID: "t", PurchasedAt: Start, ProductID: "p", Currency: "JPY"})
			return err
		},
		"SetSubscription": func() error {
			_, err := s.SetSubscription(ctx, user, kondate.Subscription{Plan: "p", Status: "active"})
			return err
		},
		"AddNotification": func() error {
			_, err := s.AddNotification(ctx, user, kondate.NewNotification{Kind: "k", Title: "x"})
			return err
		},
		"RegisterPushToken": func() error { _, err := s.RegisterPushToken(ctx, user, kondate.PlatformWeb, "t"); return err },
		"ListRecipes":       func() error { _, err := s.ListRecipes(ctx, user, ddbkit.PageOptions{}); return err },
		"GetProfile":        func() error { _, err := s.GetProfile(ctx, user); return err },
	}
	for name, call := range calls {
		err := call()
		wantErr(t, name, err, ddbkit.ErrUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v does not match context.Canceled", name, err)
		}
	}
	assertEmpty(t, s, user)
}

// testIdempotencyKey: a transactional write repeated under the caller's
// idempotency key with other writes fails with ErrConflict and changes
// nothing; the same key on another operation is independent.
func testIdempotencyKey(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	set := must[kondate.Set](t, "CreateSet")(s.CreateSet(ctx, user, newSet("セット")))
	kctx := idempotencyKey(t, "req-1")
	p := must[kondate.Plan](t, "ApplySet")(s.ApplySet(kctx, user, kondate.PlanNext, set.ID))
	// The repeat is at a later time, but replays the first call.
	again, err := s.ApplySet(kctx, user, kondate.PlanNext, set.ID)
	if err != nil {
		t.Fatalf("ApplySet repeated under the key: %v", err)
	}
	wantEqual(t, "ApplySet repeated under the key", again, p)
	wantEqual(t, "plan after the repeat", must[kondate.Plan](t, "GetPlan")(s.GetPlan(ctx, user, kondate.PlanNext)), p)
	// Another operation under the same key has a token of its own.
	must[kondate.Plan](t, "PromoteNextPlan")(s.PromoteNextPlan(kctx, user))
}

// testIdempotencyKeyLateRepeat: each transactional write, repeated under
// its idempotency key after the state it read has changed (a client's
// retry arriving late), replays the item it wrote as it is now, or finds
// it gone (ErrNotFound), and does not write a second time; without the
// key, each repeat would write again.
func testIdempotencyKeyLateRepeat(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	set := must[kondate.Set](t, "CreateSet")(s.CreateSet(ctx, user, newSet("セット")))

	// ApplySet, then the plan is edited: the repeat would undo the edit.
	apply := idempotencyKey(t, "apply-1")
	must[kondate.Plan](t, "ApplySet")(s.ApplySet(apply, user, kondate.PlanNext, set.ID))
	edited := must[kondate.Plan](t, "UpdatePlan")(s.UpdatePlan(ctx, user, kondate.PlanNext, []kondate.SetItem{{Title: "カレー"}}))
	got, err := s.ApplySet(apply, user, kondate.PlanNext, set.ID)
	if err != nil {
		t.Fatalf("ApplySet repeated under its key after an edit: %v", err)
	}
	wantEqual(t, "ApplySet repeated under its key after an edit", got, edited)
	wantEqual(t, "next plan after the repeat", must[kondate.Plan](t, "GetPlan")(s.GetPlan(ctx, user, kondate.PlanNext)), edited)

	// PromoteNextPlan, then a new next plan: the repeat would promote it.
	promote := idempotencyKey(t, "promote-1")
	cur := must[kondate.Plan](t, "PromoteNextPlan")(s.PromoteNextPlan(promote, user))
	next := must[kondate.Plan](t, "ApplySet")(s.ApplySet(ctx, user, kondate.PlanNext, set.ID))
	got, err = s.PromoteNextPlan(promote, user)
	if err != nil {
		t.Fatalf("PromoteNextPlan repeated under its key after a new next plan: %v", err)
	}
	wantEqual(t, "PromoteNextPlan repeated under its key", got, cur)
	wantEqual(t, "current plan after the repeat", must[kondate.Plan](t, "GetPlan")(s.GetPlan(ctx, user, kondate.PlanCurrent)), cur)
	wantEqual(t, "next plan after the repeat", must[kondate.Plan](t, "GetPlan")(s.GetPlan(ctx, user, kondate.PlanNext)), next)

	// DeleteFridgeItem, then a restore: the repeat would delete it again.
	f := must[kondate.FridgeItem](t, "AddFridgeItem")(s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "卵"}))
	del := idempotencyKey(t, "delete-1")
	d1 := must[kondate.DeletedFridgeItem](t, "DeleteFridgeItem")(s.DeleteFridgeItem(del, user, f.ID))
	must[kondate.FridgeItem](t, "RestoreFridgeItem")(s.RestoreFridgeItem(ctx, user, d1.Ref))
	_, err = s.DeleteFridgeItem(del, user, f.ID)
	wantErr(t, "DeleteFridgeItem repeated under its key after a restore", err, ddbkit.ErrNotFound)
	fridge := func() ([]kondate.FridgeItem, []kondate.DeletedFridgeItem) {
		t.Helper()
		return all(t, "ListFridgeItems", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.FridgeItem], error) {
				return s.ListFridgeItems(ctx, user, o)
			}), all(t, "ListDeletedFridgeItems", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.DeletedFridgeItem], error) {
				return s.ListDeletedFridgeItems(ctx, user, o)
			})
	}
	live, archived := fridge()
	wantEqual(t, "fridge after the repeated delete", live, []kondate.FridgeItem{f})
	wantEqual(t, "archive after the repeated delete", len(archived), 0)

	// RestoreFridgeItem, then a new delete: the repeat names the first
	// deletion, which is no longer in the archive.
	d2 := must[kondate.DeletedFridgeItem](t, "DeleteFridgeItem")(s.DeleteFridgeItem(ctx, user, f.ID))
	restore := idempotencyKey(t, "restore-1")
	must[kondate.FridgeItem](t, "RestoreFridgeItem")(s.RestoreFridgeItem(restore, user, d2.Ref))
	d3 := must[kondate.DeletedFridgeItem](t, "DeleteFridgeItem")(s.DeleteFridgeItem(ctx, user, f.ID))
	_, err = s.RestoreFridgeItem(restore, user, d2.Ref)
	wantErr(t, "RestoreFridgeItem repeated under its key after a new delete", err, ddbkit.ErrNotFound)
	live, archived = fridge()
	wantEqual(t, "fridge after the repeated restore", len(live), 0)
	wantEqual(t, "archive after the repeated restore", archived, []kondate.DeletedFridgeItem{d3})
}
