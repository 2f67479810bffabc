package kondate_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/bench"
	"github.com/ddbkit/ddbkit/kondate"
)

// listing is one listing of the memory store: add puts its i-th item in
// the store, list reads a page.
type listing struct {
	name  string
	group string // listings of one group read one store
	add   func(s *kondate.MemoryStore, i int) error
	list  func(s *kondate.MemoryStore, o ddbkit.PageOptions) (next string, n int, err error)
}

func pageOf[T any](p ddbkit.Page[T], err error) (string, int, error) {
	return p.Next, len(p.Items), err
}

func smallRecipe(i int) kondate.NewRecipe {
	return kondate.NewRecipe{Title: fmt.Sprint("麻婆豆腐 ", i), Ingredients: []kondate.Ingredient{{Name: "豆腐", Amount: "1丁"}},
		Steps: []string{"煮る"}, Tags: []string{"中華"}}
}

// published adds a recipe and publishes it, saved by one user.
func publishOne(s *kondate.MemoryStore, i int) error {
	r, err := s.CreateRecipe(ctx, userID, smallRecipe(i))
	if err != nil {
		return err
	}
	_, err = s.Publish(ctx, userID, kondate.KindRecipe, r.ID)
	return err
}

var listings = []listing{
	{"ListRecipes", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.CreateRecipe(ctx, userID, smallRecipe(i))
		return err
	},
		func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
			return pageOf(s.ListRecipes(ctx, userID, o))
		}},
	{"ListSets", "", func(s *kondate.MemoryStore, i int) error { _, err := s.CreateSet(ctx, userID, benchSet); return err },
		func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
			return pageOf(s.ListSets(ctx, userID, o))
		}},
	{"ListShoppingItems", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.AddShoppingItem(ctx, userID, kondate.NewShoppingItem{Name: "豆腐"})
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListShoppingItems(ctx, userID, o))
	}},
	{"ListFridgeItems", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.AddFridgeItem(ctx, userID, kondate.NewFridgeItem{Name: "卵"})
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListFridgeItems(ctx, userID, o))
	}},
	{"ListDeletedFridgeItems", "", func(s *kondate.MemoryStore, i int) error {
		f, err := s.AddFridgeItem(ctx, userID, kondate.NewFridgeItem{Name: "卵"})
		if err == nil {
			_, err = s.DeleteFridgeItem(ctx, userID, f.ID)
		}
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListDeletedFridgeItems(ctx, userID, o))
	}},
	{"ListCategories", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.AddCategory(ctx, userID, kondate.ScopeBook, kondate.NewCategory{Name: "作り置き"})
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListCategories(ctx, userID, kondate.ScopeBook, o))
	}},
	{"ListCookLogsByMonth", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.AddCookLog(ctx, userID, kondate.NewCookLog{Date: fmt.Sprintf("2026-02-%02d", i%28+1), Title: "麻婆豆腐"})
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListCookLogsByMonth(ctx, userID, "2026-02", o))
	}},
	{"ListCookLogsByDay", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.AddCookLog(ctx, userID, kondate.NewCookLog{Date: "2026-02-09", Title: "麻婆豆腐"})
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListCookLogsByDay(ctx, userID, "2026-02-09", o))
	}},
	{"ListPaymentMethods", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.AddPaymentMethod(ctx, userID, kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: "pm_x", Last4: "4242"})
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListPaymentMethods(ctx, userID, o))
	}},
	{"ListPurchases", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.RecordPurchase(ctx, userID, kondate.NewPurchase{TransactionID: fmt.Sprint("pi_", i), PurchasedAt: purchasedAt(i), ProductID: "premium_monthly", Amount: 480, Currency: "JPY"})
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListPurchases(ctx, userID, o))
	}},
	{"ListNotifications", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.AddNotification(ctx, userID, kondate.NewNotification{Kind: "reminder", Title: "今日の献立"})
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListNotifications(ctx, userID, o))
	}},
	{"ListPushTokens", "", func(s *kondate.MemoryStore, i int) error {
		_, err := s.RegisterPushToken(ctx, userID, kondate.PlatformIOS, fmt.Sprint("ExponentPushToken[", i, "]"))
		return err
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListPushTokens(ctx, userID, o))
	}},
	// Saved items come raw, as the app writes them: a user's saves of
	// 100,000 entries need no catalog of 100,000 entries beside them.
	{"ListSaved", "", func(s *kondate.MemoryStore, i int) error {
		row := saved(i)
		row.PK, row.GSI1SK = "USER#u_saver", "SAVED#u_saver"
		return s.Import(ddbkit.TableItems{kondate.DefaultTableName: {item(row)}})
	}, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListSaved(ctx, "u_saver", kondate.KindRecipe, o))
	}},
	{"ListCatalogNewest", "catalog", publishOne, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: o}))
	}},
	{"ListCatalogPopular", "catalog", publishOne, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListCatalogPopular(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: o}))
	}},
	{"ListCatalogByCreator", "catalog", publishOne, func(s *kondate.MemoryStore, o ddbkit.PageOptions) (string, int, error) {
		return pageOf(s.ListCatalogByCreator(ctx, userID, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: o}))
	}},
}

// BenchmarkKondatePage compares a 50-item page from the middle of 100,000
// items with one from the middle of 1,000 on the memory store, for each
// listing: x-1k is the growth (the target is at most 1.1).
func BenchmarkKondatePage(b *testing.B) {
	// The catalog's three lists read one store of each size, filled once.
	stores := map[string]*kondate.MemoryStore{}
	for _, l := range listings {
		b.Run(l.name, func(b *testing.B) {
			bench.Growth(b, func(n int) func(int) error {
				key := fmt.Sprint(l.group, n)
				s := stores[key]
				if s == nil || l.group == "" {
					s = kondate.NewMemoryStore(kondate.AllIndexes, func(o *kondate.Options) {
						clock := ddbkit.StepClock(createdAt, time.Millisecond)
						o.Clock, o.NewID = clock, ddbkit.SeededULIDs(1, clock)
					})
					for i := range n {
						if err := l.add(s, i); err != nil {
							b.Fatal(err)
						}
					}
					if l.group != "" {
						stores[key] = s
					}
				}
				cursor := bench.Middle(b, n, func(o ddbkit.PageOptions) (string, int, error) { return l.list(s, o) })
				return func(int) error {
					next, got, err := l.list(s, ddbkit.PageOptions{Limit: 50, Cursor: cursor})
					return wantPage(got, next != "", err)
				}
			})
		})
	}
}
