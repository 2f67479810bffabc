package kondatetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// keyedCreate is one create of the store, its input told apart by n, and
// a count of the items of its kind (-1 where the store lists none).
type keyedCreate struct {
	name   string
	create func(ctx context.Context, s kondate.Store, n int) (id string, v any, err error)
	count  func(t *testing.T, s kondate.Store) int
}

func count[T any](list func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[T], error)) func(*testing.T, kondate.Store) int {
	return func(t *testing.T, s kondate.Store) int {
		return len(all(t, "list", func(o ddbkit.PageOptions) (ddbkit.Page[T], error) { return list(t.Context(), s, o) }))
	}
}

var keyedCreates = []keyedCreate{
	{"CreateRecipe", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.CreateRecipe(ctx, user, newRecipe(fmt.Sprint("麻婆豆腐", n)))
		return v.ID, v, err
	}, count(func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[kondate.Recipe], error) {
		return s.ListRecipes(ctx, user, o)
	})},
	{"CreateSet", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.CreateSet(ctx, user, newSet(fmt.Sprint("セット", n)))
		return v.ID, v, err
	}, count(func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[kondate.Set], error) {
		return s.ListSets(ctx, user, o)
	})},
	{"AddShoppingItem", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: fmt.Sprint("牛乳", n), Quantity: "1本"})
		return v.ID, v, err
	}, count(func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[kondate.ShoppingItem], error) {
		return s.ListShoppingItems(ctx, user, o)
	})},
	{"AddFridgeItem", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: fmt.Sprint("卵", n), ExpiryDate: "2026-02-12"})
		return v.ID, v, err
	}, count(func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[kondate.FridgeItem], error) {
		return s.ListFridgeItems(ctx, user, o)
	})},
	{"AddCategory", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.AddCategory(ctx, user, kondate.ScopeBook, kondate.NewCategory{Name: fmt.Sprint("主菜", n)})
		return v.ID, v, err
	}, count(func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[kondate.Category], error) {
		return s.ListCategories(ctx, user, kondate.ScopeBook, o)
	})},
	{"AddCookLog", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.AddCookLog(ctx, user, kondate.NewCookLog{Date: "2026-02-09", Title: fmt.Sprint("カレー", n)})
		return v.ID, v, err
	}, count(func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[kondate.CookLog], error) {
		return s.ListCookLogsByDay(ctx, user, "2026-02-09", o)
	})},
	{"AddPaymentMethod", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.AddPaymentMethod(ctx, user, kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: fmt.Sprint("pm_", n), Brand: "visa", Last4: "4242"})
		return v.ID, v, err
	}, count(func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[kondate.PaymentMethod], error) {
		return s.ListPaymentMethods(ctx, user, o)
	})},
	{"RecordPurchase", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.RecordPurchase(ctx, user, kondate.NewPurchase{TransactionID: fmt.Sprint("pi_", n), PurchasedAt: Start,
			ProductID: "premium", Amount: 480, Currency: "JPY"})
		return v.ID, v, err
	}, count(func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[kondate.Purchase], error) {
		return s.ListPurchases(ctx, user, o)
	})},
	{"AddNotification", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.AddNotification(ctx, user, kondate.NewNotification{Kind: "info", Title: fmt.Sprint("お知らせ", n)})
		return v.ID, v, err
	}, count(func(ctx context.Context, s kondate.Store, o ddbkit.PageOptions) (ddbkit.Page[kondate.Notification], error) {
		return s.ListNotifications(ctx, user, o)
	})},
	{"CreateShareLink", func(ctx context.Context, s kondate.Store, n int) (string, any, error) {
		v, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: fmt.Sprint("r_", n)})
		return v.ID, v, err
	}, nil},
}

// testKeyedCreates: each create repeated under its key with the same input
// returns the first call's item, and writes one; with other input it is
// ErrIdempotencyKeyReused (and ErrConflict), and writes nothing.
func testKeyedCreates(t *testing.T, s kondate.Store) {
	for _, c := range keyedCreates {
		t.Run(c.name, func(t *testing.T) {
			ctx := idempotencyKey(t, "create")
			id, first, err := c.create(ctx, s, 1)
			if err != nil {
				t.Fatal(err)
			}
			againID, again, err := c.create(ctx, s, 1)
			if err != nil || againID != id {
				t.Fatalf("repeat under the key = %q, %v; want the first call's %q", againID, err, id)
			}
			wantEqual(t, "repeat's result", again, first)
			if c.count != nil {
				if n := c.count(t, s); n != 1 {
					t.Fatalf("%d items after the repeat, want 1", n)
				}
			}
			_, _, err = c.create(ctx, s, 2)
			if !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) {
				t.Fatalf("other input under the key: %v, want ErrIdempotencyKeyReused", err)
			}
			wantErr(t, "other input under the key", err, ddbkit.ErrConflict)
			if c.count != nil {
				if n := c.count(t, s); n != 1 {
					t.Fatalf("%d items after the refused call, want 1", n)
				}
			}
			// Without the key, the same input is a new request.
			if otherID, _, err := c.create(t.Context(), s, 3); err != nil || otherID == id {
				t.Fatalf("without the key = %q, %v; want a new item", otherID, err)
			}
		})
	}
}

// testKeyedReplays: a write that a repeat without the key would apply
// again (a later updatedAt or appliedAt) or refuse (the item moved or was
// published already), repeated under its key, returns the first call's
// result and applies once.
func testKeyedReplays(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("麻婆豆腐")))
	set := must[kondate.Set](t, "CreateSet")(s.CreateSet(ctx, user, newSet("セット")))
	f := must[kondate.FridgeItem](t, "AddFridgeItem")(s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "卵"}))
	// twice calls fn twice under one key, and wants the same result.
	twice := func(what string, fn func(ctx context.Context) (any, error)) any {
		t.Helper()
		kctx := idempotencyKey(t, what)
		first, err := fn(kctx)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		again, err := fn(kctx)
		if err != nil {
			t.Fatalf("%s repeated under its key: %v", what, err)
		}
		wantEqual(t, what+" repeated under its key", again, first)
		return first
	}

	u := twice("UpdateRecipe", func(ctx context.Context) (any, error) {
		return s.UpdateRecipe(ctx, user, r.ID, kondate.RecipePatch{Title: ptr("麻婆茄子")})
	})
	wantEqual(t, "recipe after the repeat", must[kondate.Recipe](t, "GetRecipe")(s.GetRecipe(ctx, user, r.ID)), u)
	twice("UpdateProfile", func(ctx context.Context) (any, error) {
		return s.UpdateProfile(ctx, user, kondate.ProfilePatch{DisplayName: ptr("はなこ")})
	})
	twice("UpdatePlan", func(ctx context.Context) (any, error) {
		return s.UpdatePlan(ctx, user, kondate.PlanCurrent, []kondate.SetItem{{Title: "カレー"}})
	})
	twice("SetSubscription", func(ctx context.Context) (any, error) {
		return s.SetSubscription(ctx, user, kondate.Subscription{Plan: "premium", Status: "active", CurrentPeriodEnd: Start.AddDate(0, 1, 0)})
	})
	twice("SetNotificationSettings", func(ctx context.Context) (any, error) {
		return s.SetNotificationSettings(ctx, user, kondate.NotificationSettings{PushEnabled: true})
	})
	milk := must[kondate.ShoppingItem](t, "AddShoppingItem")(s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "牛乳"}))
	twice("UpdateShoppingItem", func(ctx context.Context) (any, error) {
		return s.UpdateShoppingItem(ctx, user, milk.ID, kondate.ShoppingPatch{Quantity: ptr("2本")})
	})

	p := twice("ApplySet", func(ctx context.Context) (any, error) { return s.ApplySet(ctx, user, kondate.PlanNext, set.ID) })
	wantEqual(t, "next plan after the repeat", must[kondate.Plan](t, "GetPlan")(s.GetPlan(ctx, user, kondate.PlanNext)), p)
	cur := twice("PromoteNextPlan", func(ctx context.Context) (any, error) { return s.PromoteNextPlan(ctx, user) })
	wantEqual(t, "current plan after the repeat", must[kondate.Plan](t, "GetPlan")(s.GetPlan(ctx, user, kondate.PlanCurrent)), cur)
	_, err := s.PromoteNextPlan(ctx, user)
	wantErr(t, "PromoteNextPlan repeated without the key", err, ddbkit.ErrNotFound)

	d := twice("DeleteFridgeItem", func(ctx context.Context) (any, error) { return s.DeleteFridgeItem(ctx, user, f.ID) }).(kondate.DeletedFridgeItem)
	if n := len(all(t, "ListDeletedFridgeItems", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.DeletedFridgeItem], error) {
		return s.ListDeletedFridgeItems(ctx, user, o)
	})); n != 1 {
		t.Fatalf("%d archived items after the repeated delete, want 1", n)
	}
	twice("RestoreFridgeItem", func(ctx context.Context) (any, error) { return s.RestoreFridgeItem(ctx, user, d.Ref) })

	e := twice("Publish", func(ctx context.Context) (any, error) { return s.Publish(ctx, user, kondate.KindRecipe, r.ID) }).(kondate.CatalogEntry)
	_, err = s.Publish(ctx, user, kondate.KindRecipe, r.ID)
	wantErr(t, "Publish repeated without the key", err, ddbkit.ErrAlreadyExists)
	if n, _, _ := lists(t, s, kondate.KindRecipe, user); len(n) != 1 || n[0].ID != e.ID {
		t.Fatalf("catalog after the repeated publish: %v", ids(n))
	}

	// Other input under a key that made a write is refused, and changes
	// nothing.
	kctx := idempotencyKey(t, "update-2")
	u2 := must[kondate.Recipe](t, "UpdateRecipe")(s.UpdateRecipe(kctx, user, r.ID, kondate.RecipePatch{Title: ptr("回鍋肉")}))
	_, err = s.UpdateRecipe(kctx, user, r.ID, kondate.RecipePatch{Title: ptr("青椒肉絲")})
	if !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) {
		t.Fatalf("UpdateRecipe with other input under the key: %v, want ErrIdempotencyKeyReused", err)
	}
	wantErr(t, "UpdateRecipe with other input under the key", err, ddbkit.ErrConflict)
	wantEqual(t, "recipe after the refused call", must[kondate.Recipe](t, "GetRecipe")(s.GetRecipe(ctx, user, r.ID)), u2)
}

// testKeyedNoOps: a write whose repeat is a no-op by itself (save, unsave,
// complete, mark read, register, delete), repeated under its key, returns
// what it returns without one.
func testKeyedNoOps(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("麻婆豆腐")))
	e := must[kondate.CatalogEntry](t, "Publish")(s.Publish(ctx, user, kondate.KindRecipe, r.ID))

	save := idempotencyKey(t, "save")
	first := must[kondate.SavedEntry](t, "SaveCatalogEntry")(s.SaveCatalogEntry(save, "u_02", kondate.KindRecipe, e.ID))
	wantEqual(t, "SaveCatalogEntry repeated under its key",
		must[kondate.SavedEntry](t, "SaveCatalogEntry")(s.SaveCatalogEntry(save, "u_02", kondate.KindRecipe, e.ID)), first)
	if c := must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(ctx, kondate.KindRecipe, e.ID)).SavedCount; c != 1 {
		t.Fatalf("savedCount %d after the repeated save, want 1", c)
	}
	unsave := idempotencyKey(t, "unsave")
	for i := range 2 {
		if err := s.UnsaveCatalogEntry(unsave, "u_02", kondate.KindRecipe, e.ID); err != nil {
			t.Fatalf("UnsaveCatalogEntry %d under its key: %v", i, err)
		}
	}
	if c := must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(ctx, kondate.KindRecipe, e.ID)).SavedCount; c != 0 {
		t.Fatalf("savedCount %d after the repeated unsave, want 0", c)
	}

	item := must[kondate.ShoppingItem](t, "AddShoppingItem")(s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "牛乳"}))
	complete := idempotencyKey(t, "complete")
	done := must[kondate.ShoppingItem](t, "CompleteShoppingItem")(s.CompleteShoppingItem(complete, user, item.ID))
	again := must[kondate.ShoppingItem](t, "CompleteShoppingItem")(s.CompleteShoppingItem(complete, user, item.ID))
	if !again.Checked || !again.CompletedAt.Equal(done.CompletedAt) {
		t.Fatalf("CompleteShoppingItem repeated under its key = %+v, want the first CompletedAt %v", again, done.CompletedAt)
	}

	n := must[kondate.Notification](t, "AddNotification")(s.AddNotification(ctx, user, kondate.NewNotification{Kind: "info", Title: "お知らせ"}))
	read := idempotencyKey(t, "read")
	r1 := must[kondate.Notification](t, "MarkNotificationRead")(s.MarkNotificationRead(read, user, n.Ref))
	wantEqual(t, "MarkNotificationRead repeated under its key",
		must[kondate.Notification](t, "MarkNotificationRead")(s.MarkNotificationRead(read, user, n.Ref)), r1)

	register := idempotencyKey(t, "register")
	tok := must[kondate.PushToken](t, "RegisterPushToken")(s.RegisterPushToken(register, user, kondate.PlatformIOS, "tok-1"))
	tok2 := must[kondate.PushToken](t, "RegisterPushToken")(s.RegisterPushToken(register, user, kondate.PlatformIOS, "tok-1"))
	if !tok2.CreatedAt.Equal(tok.CreatedAt) {
		t.Fatalf("RegisterPushToken repeated under its key = %+v, want CreatedAt %v", tok2, tok.CreatedAt)
	}

	cat := must[kondate.Category](t, "AddCategory")(s.AddCategory(ctx, user, kondate.ScopeBook, kondate.NewCategory{Name: "主菜"}))
	pm := must[kondate.PaymentMethod](t, "AddPaymentMethod")(s.AddPaymentMethod(ctx, user, kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: "pm_1"}))
	link := must[kondate.ShareLink](t, "CreateShareLink")(s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: r.ID}))
	set := must[kondate.Set](t, "CreateSet")(s.CreateSet(ctx, user, newSet("セット")))
	// Each delete, repeated under its key, succeeds (its record proves
	// the first call deleted), as a repeated delete does in every domain;
	// without the key it finds nothing.
	for _, d := range []struct {
		name string
		del  func(ctx context.Context) error
	}{
		{"Unpublish", func(ctx context.Context) error { return s.Unpublish(ctx, user, kondate.KindRecipe, e.ID) }},
		{"DeleteRecipe", func(ctx context.Context) error { return s.DeleteRecipe(ctx, user, r.ID) }},
		{"DeleteSet", func(ctx context.Context) error { return s.DeleteSet(ctx, user, set.ID) }},
		{"DeleteCategory", func(ctx context.Context) error { return s.DeleteCategory(ctx, user, kondate.ScopeBook, cat.ID) }},
		{"RemovePaymentMethod", func(ctx context.Context) error { return s.RemovePaymentMethod(ctx, user, pm.ID) }},
		{"UnregisterPushToken", func(ctx context.Context) error { return s.UnregisterPushToken(ctx, user, kondate.PlatformIOS, "tok-1") }},
		{"DeleteShareLink", func(ctx context.Context) error { return s.DeleteShareLink(ctx, user, link.ID) }},
	} {
		kctx := idempotencyKey(t, d.name)
		if err := d.del(kctx); err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		if err := d.del(kctx); err != nil {
			t.Errorf("%s repeated under its key: %v, want success", d.name, err)
		}
		wantErr(t, d.name+" repeated without a key", d.del(ctx), ddbkit.ErrNotFound)
	}
}
