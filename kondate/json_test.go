package kondate_test

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit/kondate"
)

// TestJSONNames: the model types marshal to the seed's camelCase attribute
// names, leaving out the optional fields that are empty.
func TestJSONNames(t *testing.T) {
	at := time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)
	fridge := kondate.FridgeItem{ID: "f_01", UserID: "u_01", Name: "卵", CreatedAt: at, UpdatedAt: at}
	for _, tc := range []struct {
		name string
		v    any
		want []string
	}{
		{"Recipe", kondate.Recipe{ID: "r_01", UserID: "u_01", Title: "麻婆豆腐", Ingredients: []kondate.Ingredient{{Name: "豆腐"}},
			Tags: []string{"中華"}, CreatedAt: at, UpdatedAt: at},
			[]string{"createdAt", "id", "ingredients", "tags", "title", "updatedAt", "userId"}},
		{"Recipe published", kondate.Recipe{ID: "r_01", Origin: "manual", Steps: []string{"煮る"}, PublishedAt: at},
			[]string{"createdAt", "id", "origin", "publishedAt", "steps", "title", "updatedAt", "userId"}},
		{"Ingredient", kondate.Ingredient{Name: "豆腐", Amount: "1丁"}, []string{"amount", "name"}},
		{"Plan", kondate.Plan{UserID: "u_01", Slot: kondate.PlanNext, SetID: "s_01", SetTitle: "中華", Items: []kondate.SetItem{{Title: "ご飯"}},
			AppliedAt: at, UpdatedAt: at},
			[]string{"appliedAt", "items", "setId", "setTitle", "slot", "updatedAt", "userId"}},
		{"SetItem", kondate.SetItem{RecipeID: "r_01", Title: "麻婆豆腐"}, []string{"recipeId", "title"}},
		{"ShoppingItem", kondate.ShoppingItem{ID: "i_01", Checked: true, CompletedAt: at},
			[]string{"checked", "completedAt", "createdAt", "id", "name", "updatedAt", "userId"}},
		{"DeletedFridgeItem", kondate.DeletedFridgeItem{FridgeItem: fridge, DeletedAt: at, Ref: "2026-02-09T10:00:00.000Z#f_01"},
			[]string{"createdAt", "deletedAt", "id", "name", "ref", "updatedAt", "userId"}},
		{"Purchase", kondate.Purchase{ID: "pi_1", Amount: 480, Currency: "JPY"},
			[]string{"amount", "currency", "id", "productId", "purchasedAt", "userId"}},
		{"Notification", kondate.Notification{ID: "n_01", ReadAt: at},
			[]string{"createdAt", "id", "kind", "readAt", "ref", "title", "userId"}},
		{"CatalogEntry", kondate.CatalogEntry{Kind: kondate.KindRecipe, ID: "r_01", SavedCount: 3},
			[]string{"createdAt", "creatorId", "entityType", "id", "savedCount", "title"}},
		{"ShareLink", kondate.ShareLink{ID: "sh", TargetType: kondate.KindSet, SourceURL: "https://example.com"},
			[]string{"createdAt", "id", "sourceUrl", "targetId", "targetType"}},
		{"ShareTarget", kondate.ShareTarget{Recipe: &kondate.Recipe{}}, []string{"link", "recipe"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, tc.want) {
				t.Errorf("%s marshals to %v, want %v:\n%s", tc.name, keys, tc.want, b)
			}
		})
	}
}
