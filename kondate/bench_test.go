package kondate_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

const benchUser = "u_bench"

func benchRecipe(i int) kondate.NewRecipe {
	return kondate.NewRecipe{Title: fmt.Sprint("麻婆豆腐 ", i),
		Ingredients: []kondate.Ingredient{{Name: "豆腐", Amount: "1丁"}, {Name: "豚ひき肉", Amount: "150g"}, {Name: "長ねぎ", Amount: "1/2本"}},
		Steps:       []string{"豆腐を切る", "ひき肉を炒める", "豆腐を加えて煮る"}, Tags: []string{"中華"}, Origin: "manual"}
}

// fillRecipes gives s n recipes of benchUser, and returns their IDs.
func fillRecipes(b *testing.B, s kondate.Store, n int) []string {
	b.Helper()
	ids := make([]string, n)
	for i := range ids {
		r, err := s.CreateRecipe(b.Context(), benchUser, benchRecipe(i))
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = r.ID
	}
	return ids
}

// benchListPage measures a 50-recipe page from the middle of the listing:
// a seek by cursor, then the page.
func benchListPage(b *testing.B, s kondate.Store) {
	ctx := b.Context()
	first, err := s.ListRecipes(ctx, benchUser, ddbkit.PageOptions{Limit: 50})
	if err != nil || first.Next == "" {
		b.Fatalf("ListRecipes: %d items, %v", len(first.Items), err)
	}
	for b.Loop() {
		p, err := s.ListRecipes(ctx, benchUser, ddbkit.PageOptions{Limit: 50, Cursor: first.Next})
		if err != nil || len(p.Items) != 50 {
			b.Fatalf("ListRecipes: %d items, %v", len(p.Items), err)
		}
	}
}

// benchOps measures the main reads and writes on s, which holds the
// recipes ids.
func benchOps(b *testing.B, s kondate.Store, ids []string) {
	ctx := b.Context()
	b.Run("GetRecipe", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := s.GetRecipe(ctx, benchUser, ids[i%len(ids)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("FindRecipe", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := s.FindRecipe(ctx, ids[i%len(ids)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("ListRecipesPage50", func(b *testing.B) { benchListPage(b, s) })
	b.Run("CreateRecipe", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.CreateRecipe(ctx, "u_writer", benchRecipe(0)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("UpdateRecipe", func(b *testing.B) {
		title := "麻婆茄子"
		i := 0
		for b.Loop() {
			if _, err := s.UpdateRecipe(ctx, benchUser, ids[i%len(ids)], kondate.RecipePatch{Title: &title}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	set, err := s.CreateSet(ctx, benchUser, kondate.NewSet{Title: "一週間",
		Items: []kondate.SetItem{{RecipeID: ids[0], Title: "a"}, {RecipeID: ids[1], Title: "b"}, {Title: "c"}, {Title: "d"}, {Title: "e"}}})
	if err != nil {
		b.Fatal(err)
	}
	// ApplySet: GetItem + TransactWriteItems (check the set, put the plan).
	b.Run("ApplySet", func(b *testing.B) {
		// DynamoDB Local's first transactions are slow while its JVM warms
		// up; b.Loop times from its first call.
		for range 3 {
			if _, err := s.ApplySet(ctx, benchUser, kondate.PlanNext, set.ID); err != nil {
				b.Fatal(err)
			}
		}
		for b.Loop() {
			if _, err := s.ApplySet(ctx, benchUser, kondate.PlanNext, set.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	// PromoteNextPlan after ApplySet: two reads and two transactions.
	b.Run("ApplySet+PromoteNextPlan", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.ApplySet(ctx, benchUser, kondate.PlanNext, set.ID); err != nil {
				b.Fatal(err)
			}
			if _, err := s.PromoteNextPlan(ctx, benchUser); err != nil {
				b.Fatal(err)
			}
		}
	})
	f, err := s.AddFridgeItem(ctx, benchUser, kondate.NewFridgeItem{Name: "卵", Quantity: "6個", ExpiryDate: "2026-02-12"})
	if err != nil {
		b.Fatal(err)
	}
	// A fridge item to the archive and back: two reads and two transactions.
	b.Run("DeleteFridgeItem+RestoreFridgeItem", func(b *testing.B) {
		for b.Loop() {
			d, err := s.DeleteFridgeItem(ctx, benchUser, f.ID)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.RestoreFridgeItem(ctx, benchUser, f.ID, d.DeletedAt); err != nil {
				b.Fatal(err)
			}
		}
	})
	for d := range 28 {
		if _, err := s.AddCookLog(ctx, benchUser, kondate.NewCookLog{Date: fmt.Sprintf("2026-02-%02d", d+1), RecipeID: ids[d], Title: "x"}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("ListCookLogsByMonth", func(b *testing.B) {
		for b.Loop() {
			p, err := s.ListCookLogsByMonth(ctx, benchUser, "2026-02", ddbkit.PageOptions{})
			if err != nil || len(p.Items) != 28 {
				b.Fatalf("ListCookLogsByMonth: %d items, %v", len(p.Items), err)
			}
		}
	})
}

// BenchmarkMemory measures the main reads and writes on the memory store
// holding 1,000 recipes.
func BenchmarkMemory(b *testing.B) {
	s := kondate.NewMemoryStore()
	benchOps(b, s, fillRecipes(b, s, 1_000))
}

// BenchmarkMemoryListRecipesPage50 measures a page of 50 recipes on the
// memory store at 1k, 10k and 100k recipes: a page costs a seek in the
// B-tree and the page, so it grows with the tree's depth (and cache
// misses), not with the number of recipes.
func BenchmarkMemoryListRecipesPage50(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("recipes=%d", n), func(b *testing.B) {
			s := kondate.NewMemoryStore()
			fillRecipes(b, s, n)
			benchListPage(b, s)
		})
	}
}

// BenchmarkDynamo measures the same operations on DynamoDB Local, with
// 300 recipes: round trips to a local JVM, not to AWS.
func BenchmarkDynamo(b *testing.B) {
	s, _, _ := newDynamo(b, nil)
	benchOps(b, s, fillRecipes(b, s, 300))
}

// fillCatalog publishes n recipes of benchUser, every tenth saved once.
func fillCatalog(b *testing.B, s kondate.Store, n int) {
	b.Helper()
	ctx := b.Context()
	for i, id := range fillRecipes(b, s, n) {
		if _, err := s.Publish(ctx, benchUser, kondate.KindRecipe, id); err != nil {
			b.Fatal(err)
		}
		if i%10 == 0 {
			if _, err := s.SaveCatalogEntry(ctx, "u_saver", kondate.KindRecipe, id); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkMemoryCatalogPage50 measures a page of 50 from the middle of
// each catalog list on the memory store at 1k, 10k and 100k entries: a
// seek in the index's B-tree, then the page.
func BenchmarkMemoryCatalogPage50(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		s := kondate.NewMemoryStore(kondate.AllIndexes)
		filled := false
		for _, l := range []struct {
			name string
			list func(ctx context.Context, o kondate.CatalogPageOptions) (ddbkit.Page[kondate.CatalogEntry], error)
		}{
			{"newest", func(ctx context.Context, o kondate.CatalogPageOptions) (ddbkit.Page[kondate.CatalogEntry], error) {
				return s.ListCatalogNewest(ctx, kondate.KindRecipe, o)
			}},
			{"popular", func(ctx context.Context, o kondate.CatalogPageOptions) (ddbkit.Page[kondate.CatalogEntry], error) {
				return s.ListCatalogPopular(ctx, kondate.KindRecipe, o)
			}},
			{"creator", func(ctx context.Context, o kondate.CatalogPageOptions) (ddbkit.Page[kondate.CatalogEntry], error) {
				return s.ListCatalogByCreator(ctx, benchUser, kondate.KindRecipe, o)
			}},
		} {
			b.Run(fmt.Sprintf("%s/entries=%d", l.name, n), func(b *testing.B) {
				if !filled {
					fillCatalog(b, s, n)
					filled = true
				}
				ctx := b.Context()
				o := kondate.CatalogPageOptions{PageOptions: ddbkit.PageOptions{Limit: 50}}
				first, err := l.list(ctx, o)
				if err != nil || first.Next == "" {
					b.Fatalf("first page: %d items, %v", len(first.Items), err)
				}
				o.Cursor = first.Next
				for b.Loop() {
					p, err := l.list(ctx, o)
					if err != nil || len(p.Items) != 50 {
						b.Fatalf("page: %d items, %v", len(p.Items), err)
					}
				}
			})
		}
	}
}
