package kondate_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/bench"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
)

// fixture is what both stores of the fake comparison hold: a user's
// recipes, sets, plans, lists and notifications, a published catalog with
// saves, and share links. IDs are the memory store's, which the DynamoDB
// store's table receives raw.
type fixture struct {
	recipes, sets, shopping, fridge, categories, notifications []string
	published, shares                                          []string
}

func seeded(seed uint64, name string) func(*kondate.Options) {
	return func(o *kondate.Options) {
		o.TableName = name
		o.NewID = ddbkit.SeededULIDs(seed, time.Now)
		o.NewShareID = ddbkit.SeededULIDs(seed+100, time.Now)
		kondate.AllIndexes(o)
	}
}

func benchRecipe(i int) kondate.NewRecipe {
	in := kondate.NewRecipe{Title: fmt.Sprint("麻婆豆腐 ", i), Steps: mapoSteps, Tags: []string{"中華", "夕食"}, Origin: "manual"}
	for _, ing := range mapoIngredients {
		in.Ingredients = append(in.Ingredients, kondate.Ingredient{Name: ing.Name, Amount: ing.Amount})
	}
	return in
}

var benchSet = kondate.NewSet{Title: "平日の献立", Tags: []string{"定番"},
	Items: []kondate.SetItem{{Title: "麻婆豆腐"}, {Title: "肉じゃが"}, {Title: "鮭の塩焼き"}, {Title: "味噌汁"}, {Title: "おひたし"}}}

// fill gives s the fixture, n items of each listing.
func fill(b *testing.B, s kondate.Store, n int) fixture {
	b.Helper()
	var f fixture
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	for i := range n {
		r, err := s.CreateRecipe(ctx, userID, benchRecipe(i))
		must(err)
		f.recipes = append(f.recipes, r.ID)
		st, err := s.CreateSet(ctx, userID, benchSet)
		must(err)
		f.sets = append(f.sets, st.ID)
		sh, err := s.AddShoppingItem(ctx, userID, kondate.NewShoppingItem{Name: "木綿豆腐", Quantity: "2丁"})
		must(err)
		f.shopping = append(f.shopping, sh.ID)
		fr, err := s.AddFridgeItem(ctx, userID, kondate.NewFridgeItem{Name: "卵", Quantity: "6個", ExpiryDate: "2026-02-12"})
		must(err)
		f.fridge = append(f.fridge, fr.ID)
		c, err := s.AddCategory(ctx, userID, kondate.ScopeBook, kondate.NewCategory{Name: "作り置き"})
		must(err)
		f.categories = append(f.categories, c.ID)
		_, err = s.AddCookLog(ctx, userID, kondate.NewCookLog{Date: fmt.Sprintf("2026-02-%02d", i%28+1), RecipeID: r.ID, Title: "麻婆豆腐"})
		must(err)
		_, err = s.AddPaymentMethod(ctx, userID, kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: fmt.Sprint("pm_", i), Brand: "visa", Last4: "4242"})
		must(err)
		_, err = s.RecordPurchase(ctx, userID, kondate.NewPurchase{TransactionID: fmt.Sprint("pi_", i), PurchasedAt: purchasedAt(i), ProductID: "premium_monthly", Amount: 480, Currency: "JPY"})
		must(err)
		nt, err := s.AddNotification(ctx, userID, kondate.NewNotification{Kind: "reminder", Title: "今日の献立", Body: "材料を確認しましょう"})
		must(err)
		f.notifications = append(f.notifications, nt.Ref)
		_, err = s.RegisterPushToken(ctx, userID, kondate.PlatformIOS, fmt.Sprint("ExponentPushToken[", i, "]"))
		must(err)
		d, err := s.DeleteFridgeItem(ctx, userID, fr.ID)
		must(err)
		_, err = s.RestoreFridgeItem(ctx, userID, d.Ref)
		must(err)
		_, err = s.DeleteFridgeItem(ctx, userID, fr.ID) // stays archived
		must(err)
		fr, err = s.AddFridgeItem(ctx, userID, kondate.NewFridgeItem{Name: "牛乳", Quantity: "1本"})
		must(err)
		f.fridge[len(f.fridge)-1] = fr.ID
		if i%2 == 0 {
			_, err := s.Publish(ctx, userID, kondate.KindRecipe, r.ID)
			must(err)
			f.published = append(f.published, r.ID)
			_, err = s.SaveCatalogEntry(ctx, userID, kondate.KindRecipe, r.ID)
			must(err)
			l, err := s.CreateShareLink(ctx, userID, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: r.ID, AuthorName: "山田花子"})
			must(err)
			f.shares = append(f.shares, l.ID)
		}
	}
	for i := range 3 {
		_, err := s.Publish(ctx, userID, kondate.KindSet, f.sets[i])
		must(err)
	}
	_, err := s.UpdateProfile(ctx, userID, kondate.ProfilePatch{DisplayName: ptr("山田花子")})
	must(err)
	_, err = s.SetSubscription(ctx, userID, kondate.Subscription{Plan: "premium", Status: "active", CurrentPeriodEnd: createdAt})
	must(err)
	_, err = s.SetNotificationSettings(ctx, userID, kondate.NotificationSettings{PushEnabled: true})
	must(err)
	_, err = s.ApplySet(ctx, userID, kondate.PlanCurrent, f.sets[0])
	must(err)
	return f
}

func ptr[T any](v T) *T { return &v }

// BenchmarkKondateFake compares each operation on DynamoDB Local with the
// same operation on the memory store: x-memory is how many times faster
// the fake is (the target is 100 or more).
func BenchmarkKondateFake(b *testing.B) {
	c := ddbtest.Client(b)
	name := ddbtest.NewTable(b, c, kondate.CreateTableInput("bench-kondate", kondate.AllIndexes))
	memory := kondate.NewMemoryStore(seeded(1, name))
	local := kondate.NewDynamoStore(c, seeded(2, name))
	f := fill(b, memory, 60)
	bench.PutAll(b, c, memory.Export())

	page := ddbkit.PageOptions{Limit: 20}
	catalogPage := kondate.CatalogQuery{PageOptions: page}
	wantItems := func(n int, err error) error {
		if err == nil && n == 0 {
			err = fmt.Errorf("an empty page")
		}
		return err
	}
	at := func(ids []string, i int) string { return ids[i%len(ids)] }
	type op = func(s kondate.Store) func(i int) error
	for _, o := range []struct {
		name string
		op   op
	}{
		{"GetRecipe", func(s kondate.Store) func(int) error {
			return func(i int) error { _, err := s.GetRecipe(ctx, userID, at(f.recipes, i)); return err }
		}},
		{"ListRecipes20", func(s kondate.Store) func(int) error {
			return func(int) error { p, err := s.ListRecipes(ctx, userID, page); return wantItems(len(p.Items), err) }
		}},
		{"FindRecipe", func(s kondate.Store) func(int) error {
			return func(i int) error { _, err := s.FindRecipe(ctx, at(f.recipes, i)); return err }
		}},
		{"CreateRecipe", func(s kondate.Store) func(int) error {
			return func(i int) error { _, err := s.CreateRecipe(ctx, "u_writer", benchRecipe(i)); return err }
		}},
		{"UpdateRecipe", func(s kondate.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateRecipe(ctx, userID, at(f.recipes, i), kondate.RecipePatch{Title: ptr("麻婆茄子")})
				return err
			}
		}},
		{"CreateRecipe+DeleteRecipe", func(s kondate.Store) func(int) error {
			return func(i int) error {
				r, err := s.CreateRecipe(ctx, "u_writer", benchRecipe(i))
				if err != nil {
					return err
				}
				return s.DeleteRecipe(ctx, "u_writer", r.ID)
			}
		}},
		{"GetSet", func(s kondate.Store) func(int) error {
			return func(i int) error { _, err := s.GetSet(ctx, userID, at(f.sets, i)); return err }
		}},
		{"ListSets20", func(s kondate.Store) func(int) error {
			return func(int) error { p, err := s.ListSets(ctx, userID, page); return wantItems(len(p.Items), err) }
		}},
		{"FindSet", func(s kondate.Store) func(int) error {
			return func(i int) error { _, err := s.FindSet(ctx, at(f.sets, i)); return err }
		}},
		{"CreateSet", func(s kondate.Store) func(int) error {
			return func(int) error { _, err := s.CreateSet(ctx, "u_writer", benchSet); return err }
		}},
		{"UpdateSet", func(s kondate.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateSet(ctx, userID, at(f.sets, i+10), kondate.SetPatch{Title: ptr("週末の献立")})
				return err
			}
		}},
		{"CreateSet+DeleteSet", func(s kondate.Store) func(int) error {
			return func(int) error {
				st, err := s.CreateSet(ctx, "u_writer", benchSet)
				if err != nil {
					return err
				}
				return s.DeleteSet(ctx, "u_writer", st.ID)
			}
		}},
		{"GetPlan", func(s kondate.Store) func(int) error {
			return func(int) error { _, err := s.GetPlan(ctx, userID, kondate.PlanCurrent); return err }
		}},
		{"UpdatePlan", func(s kondate.Store) func(int) error {
			return func(int) error { _, err := s.UpdatePlan(ctx, userID, kondate.PlanNext, benchSet.Items); return err }
		}},
		{"ApplySet", func(s kondate.Store) func(int) error {
			return func(i int) error { _, err := s.ApplySet(ctx, userID, kondate.PlanNext, at(f.sets, i+10)); return err }
		}},
		{"ApplySet+PromoteNextPlan", func(s kondate.Store) func(int) error {
			return func(i int) error {
				if _, err := s.ApplySet(ctx, userID, kondate.PlanNext, at(f.sets, i+10)); err != nil {
					return err
				}
				_, err := s.PromoteNextPlan(ctx, userID)
				return err
			}
		}},
		{"AddShoppingItem", func(s kondate.Store) func(int) error {
			return func(int) error {
				_, err := s.AddShoppingItem(ctx, "u_writer", kondate.NewShoppingItem{Name: "木綿豆腐", Quantity: "2丁"})
				return err
			}
		}},
		{"ListShoppingItems20", func(s kondate.Store) func(int) error {
			return func(int) error { p, err := s.ListShoppingItems(ctx, userID, page); return wantItems(len(p.Items), err) }
		}},
		{"UpdateShoppingItem", func(s kondate.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateShoppingItem(ctx, userID, at(f.shopping, i), kondate.ShoppingPatch{Quantity: ptr("3丁")})
				return err
			}
		}},
		{"CompleteShoppingItem", func(s kondate.Store) func(int) error {
			return func(i int) error { _, err := s.CompleteShoppingItem(ctx, userID, at(f.shopping, i)); return err }
		}},
		{"AddFridgeItem", func(s kondate.Store) func(int) error {
			return func(int) error {
				_, err := s.AddFridgeItem(ctx, "u_writer", kondate.NewFridgeItem{Name: "卵", Quantity: "6個"})
				return err
			}
		}},
		{"ListFridgeItems20", func(s kondate.Store) func(int) error {
			return func(int) error { p, err := s.ListFridgeItems(ctx, userID, page); return wantItems(len(p.Items), err) }
		}},
		{"ListDeletedFridgeItems20", func(s kondate.Store) func(int) error {
			return func(int) error {
				p, err := s.ListDeletedFridgeItems(ctx, userID, page)
				return wantItems(len(p.Items), err)
			}
		}},
		{"UpdateFridgeItem", func(s kondate.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateFridgeItem(ctx, userID, at(f.fridge, i), kondate.FridgePatch{Quantity: ptr("4個")})
				return err
			}
		}},
		{"DeleteFridgeItem+RestoreFridgeItem", func(s kondate.Store) func(int) error {
			return func(i int) error {
				d, err := s.DeleteFridgeItem(ctx, userID, at(f.fridge, i))
				if err != nil {
					return err
				}
				_, err = s.RestoreFridgeItem(ctx, userID, d.Ref)
				return err
			}
		}},
		{"AddCategory", func(s kondate.Store) func(int) error {
			return func(int) error {
				_, err := s.AddCategory(ctx, "u_writer", kondate.ScopeBook, kondate.NewCategory{Name: "作り置き"})
				return err
			}
		}},
		{"ListCategories20", func(s kondate.Store) func(int) error {
			return func(int) error {
				p, err := s.ListCategories(ctx, userID, kondate.ScopeBook, page)
				return wantItems(len(p.Items), err)
			}
		}},
		{"UpdateCategory", func(s kondate.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateCategory(ctx, userID, kondate.ScopeBook, at(f.categories, i), kondate.CategoryPatch{Name: ptr("お弁当")})
				return err
			}
		}},
		{"AddCategory+DeleteCategory", func(s kondate.Store) func(int) error {
			return func(int) error {
				c, err := s.AddCategory(ctx, "u_writer", kondate.ScopeBook, kondate.NewCategory{Name: "作り置き"})
				if err != nil {
					return err
				}
				return s.DeleteCategory(ctx, "u_writer", kondate.ScopeBook, c.ID)
			}
		}},
		{"AddCookLog", func(s kondate.Store) func(int) error {
			return func(int) error {
				_, err := s.AddCookLog(ctx, "u_writer", kondate.NewCookLog{Date: "2026-02-09", Title: "麻婆豆腐"})
				return err
			}
		}},
		{"ListCookLogsByMonth", func(s kondate.Store) func(int) error {
			return func(int) error {
				p, err := s.ListCookLogsByMonth(ctx, userID, "2026-02", page)
				return wantItems(len(p.Items), err)
			}
		}},
		{"ListCookLogsByDay", func(s kondate.Store) func(int) error {
			return func(int) error {
				p, err := s.ListCookLogsByDay(ctx, userID, "2026-02-01", page)
				return wantItems(len(p.Items), err)
			}
		}},
		{"AddPaymentMethod+RemovePaymentMethod", func(s kondate.Store) func(int) error {
			return func(int) error {
				m, err := s.AddPaymentMethod(ctx, "u_writer", kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: "pm_x", Brand: "visa", Last4: "4242"})
				if err != nil {
					return err
				}
				return s.RemovePaymentMethod(ctx, "u_writer", m.ID)
			}
		}},
		{"ListPaymentMethods20", func(s kondate.Store) func(int) error {
			return func(int) error {
				p, err := s.ListPaymentMethods(ctx, userID, page)
				return wantItems(len(p.Items), err)
			}
		}},
		{"RecordPurchase", func(s kondate.Store) func(int) error {
			return func(i int) error {
				_, err := s.RecordPurchase(ctx, "u_writer", kondate.NewPurchase{TransactionID: fmt.Sprint("pi_", i), PurchasedAt: purchasedAt(i), ProductID: "premium_monthly", Amount: 480, Currency: "JPY"})
				return err
			}
		}},
		{"ListPurchases20", func(s kondate.Store) func(int) error {
			return func(int) error { p, err := s.ListPurchases(ctx, userID, page); return wantItems(len(p.Items), err) }
		}},
		{"GetSubscription", func(s kondate.Store) func(int) error {
			return func(int) error { _, err := s.GetSubscription(ctx, userID); return err }
		}},
		{"SetSubscription", func(s kondate.Store) func(int) error {
			return func(int) error {
				_, err := s.SetSubscription(ctx, "u_writer", kondate.Subscription{Plan: "premium", Status: "active", CurrentPeriodEnd: createdAt})
				return err
			}
		}},
		{"GetProfile", func(s kondate.Store) func(int) error {
			return func(int) error { _, err := s.GetProfile(ctx, userID); return err }
		}},
		{"UpdateProfile", func(s kondate.Store) func(int) error {
			return func(int) error {
				_, err := s.UpdateProfile(ctx, "u_writer", kondate.ProfilePatch{DisplayName: ptr("花子")})
				return err
			}
		}},
		{"AddNotification", func(s kondate.Store) func(int) error {
			return func(int) error {
				_, err := s.AddNotification(ctx, "u_writer", kondate.NewNotification{Kind: "reminder", Title: "今日の献立"})
				return err
			}
		}},
		{"ListNotifications20", func(s kondate.Store) func(int) error {
			return func(int) error { p, err := s.ListNotifications(ctx, userID, page); return wantItems(len(p.Items), err) }
		}},
		{"MarkNotificationRead", func(s kondate.Store) func(int) error {
			return func(i int) error {
				j := i % len(f.notifications)
				_, err := s.MarkNotificationRead(ctx, userID, f.notifications[j])
				return err
			}
		}},
		{"GetNotificationSettings", func(s kondate.Store) func(int) error {
			return func(int) error { _, err := s.GetNotificationSettings(ctx, userID); return err }
		}},
		{"SetNotificationSettings", func(s kondate.Store) func(int) error {
			return func(int) error {
				_, err := s.SetNotificationSettings(ctx, "u_writer", kondate.NotificationSettings{PushEnabled: true})
				return err
			}
		}},
		{"RegisterPushToken+UnregisterPushToken", func(s kondate.Store) func(int) error {
			return func(i int) error {
				t := fmt.Sprint("ExponentPushToken[w", i, "]")
				if _, err := s.RegisterPushToken(ctx, "u_writer", kondate.PlatformIOS, t); err != nil {
					return err
				}
				return s.UnregisterPushToken(ctx, "u_writer", kondate.PlatformIOS, t)
			}
		}},
		{"ListPushTokens20", func(s kondate.Store) func(int) error {
			return func(int) error { p, err := s.ListPushTokens(ctx, userID, page); return wantItems(len(p.Items), err) }
		}},
		{"GetCatalogEntry", func(s kondate.Store) func(int) error {
			return func(i int) error {
				_, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, at(f.published, i))
				return err
			}
		}},
		{"ListCatalogNewest20", func(s kondate.Store) func(int) error {
			return func(int) error {
				p, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, catalogPage)
				return wantItems(len(p.Items), err)
			}
		}},
		{"ListCatalogPopular20", func(s kondate.Store) func(int) error {
			return func(int) error {
				p, err := s.ListCatalogPopular(ctx, kondate.KindRecipe, catalogPage)
				return wantItems(len(p.Items), err)
			}
		}},
		{"ListCatalogByCreator20", func(s kondate.Store) func(int) error {
			return func(int) error {
				p, err := s.ListCatalogByCreator(ctx, userID, kondate.KindRecipe, catalogPage)
				return wantItems(len(p.Items), err)
			}
		}},
		{"ListSaved20", func(s kondate.Store) func(int) error {
			return func(int) error {
				p, err := s.ListSaved(ctx, userID, kondate.KindRecipe, page)
				return wantItems(len(p.Items), err)
			}
		}},
		{"Publish+Unpublish", func(s kondate.Store) func(int) error {
			return func(i int) error {
				id := f.recipes[2*(i%(len(f.recipes)/2))+1] // the unpublished ones
				if _, err := s.Publish(ctx, userID, kondate.KindRecipe, id); err != nil {
					return err
				}
				return s.Unpublish(ctx, userID, kondate.KindRecipe, id)
			}
		}},
		{"SaveCatalogEntry+UnsaveCatalogEntry", func(s kondate.Store) func(int) error {
			return func(i int) error {
				id := at(f.published, i)
				if _, err := s.SaveCatalogEntry(ctx, "u_saver", kondate.KindRecipe, id); err != nil {
					return err
				}
				return s.UnsaveCatalogEntry(ctx, "u_saver", kondate.KindRecipe, id)
			}
		}},
		{"RecalculatePopularity", func(s kondate.Store) func(int) error {
			return func(int) error { _, err := s.RecalculatePopularity(ctx, kondate.KindSet); return err }
		}},
		{"CreateShareLink+DeleteShareLink", func(s kondate.Store) func(int) error {
			return func(int) error {
				l, err := s.CreateShareLink(ctx, userID, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: f.recipes[0]})
				if err != nil {
					return err
				}
				return s.DeleteShareLink(ctx, userID, l.ID)
			}
		}},
		{"GetShareLink", func(s kondate.Store) func(int) error {
			return func(i int) error { _, err := s.GetShareLink(ctx, at(f.shares, i)); return err }
		}},
		{"ResolveShareLink", func(s kondate.Store) func(int) error {
			return func(i int) error { _, err := s.ResolveShareLink(ctx, at(f.shares, i)); return err }
		}},
	} {
		b.Run(o.name, func(b *testing.B) {
			bench.Compare(b, nil,
				bench.Variant{Name: "dynamodb-local", Op: o.op(local), Remote: true},
				bench.Variant{Name: "memory", Op: o.op(memory)})
		})
	}
}
