package main

import (
	"context"
	"time"

	kit "github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// smokeKondate: the run's partitions are its user's, USER#<run ID> (and
// the GSI1 partitions ENTITY#<kind>#<id> of its recipe and set), and its
// share link's, SHARE#<run ID>-NNN. The public catalog is left out: its
// lists are partitions every published entry shares (CATALOG#<kind>), so
// a smoke entry there would be in the app's own lists while it lasts, and
// saves need such an entry. ListSaved is read, and must be empty. What the
// store deletes (recipe, set, fridge item, categories, payment method,
// push token, share link) goes through it; the rest (profile, plans,
// shopping, the fridge archive, cook log, purchase, subscription,
// notification and its settings) by key in those partitions.
func smokeKondate(r *smokeRun, _ *tableFlags, tables []string) error {
	ctx, table, user := r.ctx, tables[0], r.id
	s := kondate.NewDynamoStore(r.c, func(o *kondate.Options) {
		o.TableName = table
		o.NewID = r.newID
		o.NewShareID = r.newID
	})
	r.owns(table, "PK", "USER#"+user)
	const name = "ddbkit smoke"
	now := time.Now().UTC()
	today, month := now.Format(time.DateOnly), now.Format("2006-01")
	var (
		recipe        kondate.Recipe
		set           kondate.Set
		shopping      kondate.ShoppingItem
		kept          kondate.FridgeItem
		gone          kondate.DeletedFridgeItem
		book, catalog kondate.Category
		cook          kondate.CookLog
		method        kondate.PaymentMethod
		purchase      kondate.Purchase
		note          kondate.Notification
		link          kondate.ShareLink
		pushToken     = r.id + "-push"
		planItems     = []kondate.SetItem{{Title: name}}
		err           error
	)
	err = r.writeAll(
		smokeWrite{"profile", func() error {
			_, err := s.UpdateProfile(ctx, user, kondate.ProfilePatch{DisplayName: ptr(name)})
			return err
		}},
		smokeWrite{"a recipe", func() (err error) {
			recipe, err = s.CreateRecipe(ctx, user, kondate.NewRecipe{Title: name, Ingredients: []kondate.Ingredient{{Name: "rice", Amount: "1 cup"}}, Steps: []string{"cook"}})
			if err == nil {
				r.onCleanup("recipe "+recipe.ID+" (DeleteRecipe)", func(ctx context.Context) error { return s.DeleteRecipe(ctx, user, recipe.ID) })
			}
			return err
		}},
		smokeWrite{"a set of the recipe", func() (err error) {
			set, err = s.CreateSet(ctx, user, kondate.NewSet{Title: name, Items: []kondate.SetItem{{RecipeID: recipe.ID, Title: name}}})
			if err == nil {
				r.onCleanup("set "+set.ID+" (DeleteSet)", func(ctx context.Context) error { return s.DeleteSet(ctx, user, set.ID) })
			}
			return err
		}},
		smokeWrite{"the current plan from the set", func() error {
			_, err := s.ApplySet(ctx, user, kondate.PlanCurrent, set.ID)
			return err
		}},
		smokeWrite{"the next plan", func() error {
			_, err := s.UpdatePlan(ctx, user, kondate.PlanNext, planItems)
			return err
		}},
		smokeWrite{"a shopping item", func() (err error) {
			shopping, err = s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: name, Quantity: "1"})
			return err
		}},
		smokeWrite{"two fridge items, one deleted to the archive", func() error {
			f, err := s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: name + " 1"})
			if err != nil {
				return err
			}
			if gone, err = s.DeleteFridgeItem(ctx, user, f.ID); err != nil {
				return err
			}
			if kept, err = s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: name + " 2", ExpiryDate: today}); err == nil {
				r.onCleanup("fridge item "+kept.ID+" (DeleteFridgeItem)", func(ctx context.Context) error {
					_, err := s.DeleteFridgeItem(ctx, user, kept.ID)
					return err
				})
			}
			return err
		}},
		smokeWrite{"a category in each scope", func() error {
			for _, c := range []struct {
				scope kondate.CategoryScope
				to    *kondate.Category
			}{{kondate.ScopeBook, &book}, {kondate.ScopeCatalog, &catalog}} {
				got, err := s.AddCategory(ctx, user, c.scope, kondate.NewCategory{Name: name})
				if err != nil {
					return err
				}
				*c.to = got
				r.onCleanup("category "+got.ID+" (DeleteCategory)", func(ctx context.Context) error { return s.DeleteCategory(ctx, user, c.scope, got.ID) })
			}
			return nil
		}},
		smokeWrite{"a cook log of today", func() (err error) {
			cook, err = s.AddCookLog(ctx, user, kondate.NewCookLog{Date: today, RecipeID: recipe.ID, Title: name})
			return err
		}},
		smokeWrite{"a payment method", func() (err error) {
			method, err = s.AddPaymentMethod(ctx, user, kondate.NewPaymentMethod{Provider: "ddbkit-smoke", ProviderRef: r.id})
			if err == nil {
				r.onCleanup("payment method "+method.ID+" (RemovePaymentMethod)", func(ctx context.Context) error { return s.RemovePaymentMethod(ctx, user, method.ID) })
			}
			return err
		}},
		smokeWrite{"a purchase", func() (err error) {
			purchase, err = s.RecordPurchase(ctx, user, kondate.NewPurchase{TransactionID: r.id + "-txn", PurchasedAt: now, ProductID: "ddbkit-smoke",
				Amount: 1, Currency: "JPY", PaymentMethodID: method.ID})
			return err
		}},
		smokeWrite{"a subscription", func() error {
			_, err := s.SetSubscription(ctx, user, kondate.Subscription{Plan: "ddbkit-smoke", Status: "canceled", CurrentPeriodEnd: now})
			return err
		}},
		smokeWrite{"a notification and the notification settings", func() (err error) {
			if note, err = s.AddNotification(ctx, user, kondate.NewNotification{Kind: "ddbkit-smoke", Title: name}); err != nil {
				return err
			}
			_, err = s.SetNotificationSettings(ctx, user, kondate.NotificationSettings{EmailEnabled: true})
			return err
		}},
		smokeWrite{"a push token", func() error {
			_, err := s.RegisterPushToken(ctx, user, kondate.PlatformWeb, pushToken)
			if err == nil {
				r.onCleanup("push token (UnregisterPushToken)", func(ctx context.Context) error {
					return s.UnregisterPushToken(ctx, user, kondate.PlatformWeb, pushToken)
				})
			}
			return err
		}},
		smokeWrite{"a share link of the recipe", func() (err error) {
			r.owns(table, "PK", "SHARE#"+r.peekID())
			link, err = s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: recipe.ID, AuthorName: name})
			if err == nil {
				r.onCleanup("share link "+link.ID+" (DeleteShareLink)", func(ctx context.Context) error { return s.DeleteShareLink(ctx, user, link.ID) })
			}
			return err
		}},
	)
	if err != nil {
		return err
	}

	return r.readAll(
		smokeRead{"GetProfile", false, func() error {
			p, err := s.GetProfile(ctx, user)
			if err != nil {
				return err
			}
			return same("display name", p.DisplayName, name)
		}},
		smokeRead{"GetRecipe", false, func() error {
			got, err := s.GetRecipe(ctx, user, recipe.ID)
			if err != nil {
				return err
			}
			return same("recipe title", got.Title, name)
		}},
		smokeRead{"ListRecipes", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.Recipe], error) { return s.ListRecipes(ctx, user, o) },
				func(r kondate.Recipe) string { return r.ID })
			return sameIDs(ids, err, recipe.ID)
		}},
		smokeRead{"FindRecipe (GSI1)", true, func() error {
			got, err := s.FindRecipe(ctx, recipe.ID)
			if err != nil {
				return err
			}
			return same("recipe owner", got.UserID, user)
		}},
		smokeRead{"GetSet", false, func() error {
			got, err := s.GetSet(ctx, user, set.ID)
			if err != nil {
				return err
			}
			return same("set items", len(got.Items), 1)
		}},
		smokeRead{"ListSets", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.Set], error) { return s.ListSets(ctx, user, o) },
				func(s kondate.Set) string { return s.ID })
			return sameIDs(ids, err, set.ID)
		}},
		smokeRead{"FindSet (GSI1)", true, func() error {
			got, err := s.FindSet(ctx, set.ID)
			if err != nil {
				return err
			}
			return same("set owner", got.UserID, user)
		}},
		smokeRead{"GetPlan", false, func() error {
			cur, err := s.GetPlan(ctx, user, kondate.PlanCurrent)
			if err != nil {
				return err
			}
			if err := same("current plan's set", cur.SetID, set.ID); err != nil {
				return err
			}
			next, err := s.GetPlan(ctx, user, kondate.PlanNext)
			if err != nil {
				return err
			}
			return same("next plan's items", len(next.Items), len(planItems))
		}},
		smokeRead{"ListShoppingItems", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.ShoppingItem], error) {
				return s.ListShoppingItems(ctx, user, o)
			},
				func(i kondate.ShoppingItem) string { return i.ID })
			return sameIDs(ids, err, shopping.ID)
		}},
		smokeRead{"ListFridgeItems", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.FridgeItem], error) { return s.ListFridgeItems(ctx, user, o) },
				func(i kondate.FridgeItem) string { return i.ID })
			return sameIDs(ids, err, kept.ID)
		}},
		smokeRead{"ListDeletedFridgeItems", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.DeletedFridgeItem], error) {
				return s.ListDeletedFridgeItems(ctx, user, o)
			}, func(i kondate.DeletedFridgeItem) string { return i.Ref })
			return sameIDs(ids, err, gone.Ref)
		}},
		smokeRead{"ListCategories", false, func() error {
			for _, c := range []kondate.Category{book, catalog} {
				ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.Category], error) {
					return s.ListCategories(ctx, user, c.Scope, o)
				},
					func(c kondate.Category) string { return c.ID })
				if err := sameIDs(ids, err, c.ID); err != nil {
					return err
				}
			}
			return nil
		}},
		smokeRead{"ListCookLogsByMonth", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.CookLog], error) {
				return s.ListCookLogsByMonth(ctx, user, month, o)
			},
				func(l kondate.CookLog) string { return l.ID })
			return sameIDs(ids, err, cook.ID)
		}},
		smokeRead{"ListCookLogsByDay", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.CookLog], error) {
				return s.ListCookLogsByDay(ctx, user, today, o)
			},
				func(l kondate.CookLog) string { return l.ID })
			return sameIDs(ids, err, cook.ID)
		}},
		smokeRead{"ListPaymentMethods", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.PaymentMethod], error) {
				return s.ListPaymentMethods(ctx, user, o)
			},
				func(m kondate.PaymentMethod) string { return m.ID })
			return sameIDs(ids, err, method.ID)
		}},
		smokeRead{"ListPurchases", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.Purchase], error) { return s.ListPurchases(ctx, user, o) },
				func(p kondate.Purchase) string { return p.ID })
			return sameIDs(ids, err, purchase.ID)
		}},
		smokeRead{"GetSubscription", false, func() error {
			sub, err := s.GetSubscription(ctx, user)
			if err != nil {
				return err
			}
			return same("subscription plan", sub.Plan, "ddbkit-smoke")
		}},
		smokeRead{"ListNotifications", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.Notification], error) {
				return s.ListNotifications(ctx, user, o)
			},
				func(n kondate.Notification) string { return n.Ref })
			return sameIDs(ids, err, note.Ref)
		}},
		smokeRead{"GetNotificationSettings", false, func() error {
			got, err := s.GetNotificationSettings(ctx, user)
			if err != nil {
				return err
			}
			return same("email enabled", got.EmailEnabled, true)
		}},
		smokeRead{"ListPushTokens", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.PushToken], error) { return s.ListPushTokens(ctx, user, o) },
				func(p kondate.PushToken) string { return p.Token })
			return sameIDs(ids, err, pushToken)
		}},
		smokeRead{"ListSaved (none)", false, func() error {
			for _, kind := range []kondate.CatalogKind{kondate.KindRecipe, kondate.KindSet} {
				ids, err := listIDs(func(o kit.PageOptions) (kit.Page[kondate.SavedEntry], error) { return s.ListSaved(ctx, user, kind, o) },
					func(e kondate.SavedEntry) string { return e.ID })
				if err := sameIDs(ids, err); err != nil {
					return err
				}
			}
			return nil
		}},
		smokeRead{"GetShareLink", false, func() error {
			got, err := s.GetShareLink(ctx, link.ID)
			if err != nil {
				return err
			}
			return same("share link target", got.TargetID, recipe.ID)
		}},
		smokeRead{"ResolveShareLink (GSI1)", true, func() error {
			got, err := s.ResolveShareLink(ctx, link.ID)
			if err != nil {
				return err
			}
			if got.Recipe == nil {
				return notYet("share link resolves to no recipe")
			}
			return same("resolved recipe", got.Recipe.ID, recipe.ID)
		}},
	)
}

func ptr[T any](v T) *T { return &v }
