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
			id := r.peekID()
			r.owns(table, "PK", "SHARE#"+id)
			link, err = s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: recipe.ID, AuthorName: name})
			if err == nil {
				r.onCleanup("share link "+link.ID+" (DeleteShareLink)", func(ctx context.Context) error { return s.DeleteShareLink(ctx, user, link.ID) })
			}
			return madeAs("share link", link.ID, id, err)
		}},
	)
	if err != nil {
		return err
	}

	type page = kit.PageOptions
	return r.readAll(
		getRead("GetProfile", false, func() (string, error) { p, err := s.GetProfile(ctx, user); return p.DisplayName, err }, name),
		getRead("GetRecipe", false, func() (string, error) { x, err := s.GetRecipe(ctx, user, recipe.ID); return x.Title, err }, name),
		listRead("ListRecipes", false, func(o page) (kit.Page[kondate.Recipe], error) { return s.ListRecipes(ctx, user, o) },
			func(x kondate.Recipe) string { return x.ID }, recipe.ID),
		getRead("FindRecipe (GSI1)", true, func() (string, error) { x, err := s.FindRecipe(ctx, recipe.ID); return x.UserID, err }, user),
		getRead("GetSet", false, func() (string, error) { x, err := s.GetSet(ctx, user, set.ID); return x.Title, err }, name),
		listRead("ListSets", false, func(o page) (kit.Page[kondate.Set], error) { return s.ListSets(ctx, user, o) },
			func(x kondate.Set) string { return x.ID }, set.ID),
		getRead("FindSet (GSI1)", true, func() (string, error) { x, err := s.FindSet(ctx, set.ID); return x.UserID, err }, user),
		getRead("GetPlan CURRENT", false, func() (string, error) { p, err := s.GetPlan(ctx, user, kondate.PlanCurrent); return p.SetID, err }, set.ID),
		getRead("GetPlan NEXT", false, func() (int, error) { p, err := s.GetPlan(ctx, user, kondate.PlanNext); return len(p.Items), err }, len(planItems)),
		listRead("ListShoppingItems", false, func(o page) (kit.Page[kondate.ShoppingItem], error) { return s.ListShoppingItems(ctx, user, o) },
			func(x kondate.ShoppingItem) string { return x.ID }, shopping.ID),
		listRead("ListFridgeItems", false, func(o page) (kit.Page[kondate.FridgeItem], error) { return s.ListFridgeItems(ctx, user, o) },
			func(x kondate.FridgeItem) string { return x.ID }, kept.ID),
		listRead("ListDeletedFridgeItems", false, func(o page) (kit.Page[kondate.DeletedFridgeItem], error) {
			return s.ListDeletedFridgeItems(ctx, user, o)
		},
			func(x kondate.DeletedFridgeItem) string { return x.Ref }, gone.Ref),
		listRead("ListCategories book", false, func(o page) (kit.Page[kondate.Category], error) {
			return s.ListCategories(ctx, user, kondate.ScopeBook, o)
		},
			func(x kondate.Category) string { return x.ID }, book.ID),
		listRead("ListCategories catalog", false, func(o page) (kit.Page[kondate.Category], error) {
			return s.ListCategories(ctx, user, kondate.ScopeCatalog, o)
		},
			func(x kondate.Category) string { return x.ID }, catalog.ID),
		listRead("ListCookLogsByMonth", false, func(o page) (kit.Page[kondate.CookLog], error) { return s.ListCookLogsByMonth(ctx, user, month, o) },
			func(x kondate.CookLog) string { return x.ID }, cook.ID),
		listRead("ListCookLogsByDay", false, func(o page) (kit.Page[kondate.CookLog], error) { return s.ListCookLogsByDay(ctx, user, today, o) },
			func(x kondate.CookLog) string { return x.ID }, cook.ID),
		listRead("ListPaymentMethods", false, func(o page) (kit.Page[kondate.PaymentMethod], error) { return s.ListPaymentMethods(ctx, user, o) },
			func(x kondate.PaymentMethod) string { return x.ID }, method.ID),
		listRead("ListPurchases", false, func(o page) (kit.Page[kondate.Purchase], error) { return s.ListPurchases(ctx, user, o) },
			func(x kondate.Purchase) string { return x.ID }, purchase.ID),
		getRead("GetSubscription", false, func() (string, error) { x, err := s.GetSubscription(ctx, user); return x.Plan, err }, "ddbkit-smoke"),
		listRead("ListNotifications", false, func(o page) (kit.Page[kondate.Notification], error) { return s.ListNotifications(ctx, user, o) },
			func(x kondate.Notification) string { return x.Ref }, note.Ref),
		getRead("GetNotificationSettings", false, func() (bool, error) { x, err := s.GetNotificationSettings(ctx, user); return x.EmailEnabled, err }, true),
		listRead("ListPushTokens", false, func(o page) (kit.Page[kondate.PushToken], error) { return s.ListPushTokens(ctx, user, o) },
			func(x kondate.PushToken) string { return x.Token }, pushToken),
		listRead("ListSaved RECIPE (none)", false, func(o page) (kit.Page[kondate.SavedEntry], error) {
			return s.ListSaved(ctx, user, kondate.KindRecipe, o)
		},
			func(x kondate.SavedEntry) string { return x.ID }),
		listRead("ListSaved SET (none)", false, func(o page) (kit.Page[kondate.SavedEntry], error) { return s.ListSaved(ctx, user, kondate.KindSet, o) },
			func(x kondate.SavedEntry) string { return x.ID }),
		getRead("GetShareLink", false, func() (string, error) { x, err := s.GetShareLink(ctx, link.ID); return x.TargetID, err }, recipe.ID),
		getRead("ResolveShareLink (GSI1)", true, func() (string, error) {
			x, err := s.ResolveShareLink(ctx, link.ID)
			if err != nil {
				return "", err
			}
			if x.Recipe == nil {
				return "", notYet("share link resolves to no recipe")
			}
			return x.Recipe.ID, nil
		}, recipe.ID),
	)
}

func ptr[T any](v T) *T { return &v }
