package kondate_test

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
)

func S(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func L(vs ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: vs}
}

// TestLegacyFixture: the seed's app's table (keys only, no GSI yet), its
// items put raw as the app writes them (the seed's own examples first,
// then other ISO 8601 forms and missing optional attributes), EnsureTable,
// then every read access pattern and the main writes.
func TestLegacyFixture(t *testing.T) {
	ctx := t.Context()
	c := ddbtest.Client(t)
	in := kondate.CreateTableInput("legacy")
	in.GlobalSecondaryIndexes = nil
	in.AttributeDefinitions = in.AttributeDefinitions[:2]
	table := ddbtest.NewTable(t, c, in)
	put := func(item map[string]types.AttributeValue) {
		t.Helper()
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	pk := S("USER#u_01")
	// Section 6's examples.
	put(map[string]types.AttributeValue{"PK": pk, "SK": S("RECIPE#r_01"), "GSI1PK": S("ENTITY#RECIPE#r_01"), "GSI1SK": S("OWNER#u_01"),
		"title": S("麻婆豆腐"), "ingredients": L(), "steps": L(S("切る")), "tags": L(S("中華")), "origin": S("manual"),
		"createdAt": S("2026-02-09T10:00:00Z"), "updatedAt": S("2026-02-09T19:00:00+09:00")})
	put(map[string]types.AttributeValue{"PK": pk, "SK": S("PLAN#CURRENT"), "setId": S("s_01"), "setTitle": S("中華セット"),
		"appliedAt": S("2026-02-09T10:00:00.123456Z"),
		"items":     L(&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"recipeId": S("r_01"), "title": S("麻婆豆腐")}})})
	put(map[string]types.AttributeValue{"PK": pk, "SK": S("COOKLOG#2026-02-09#log_01"), "title": S("麻婆豆腐")})
	// Other forms: no optional attributes, times only in keys.
	put(map[string]types.AttributeValue{"PK": pk, "SK": S("SET#s_01"), "GSI1PK": S("ENTITY#SET#s_01"), "GSI1SK": S("OWNER#u_01"), "title": S("中華セット")})
	put(map[string]types.AttributeValue{"PK": pk, "SK": S("FRIDGE#f_01"), "name": S("にんじん")})
	put(map[string]types.AttributeValue{"PK": pk, "SK": S("NOTIFICATION#2026-02-05T10:00:00Z#n_01"), "title": S("古い通知")})
	put(map[string]types.AttributeValue{"PK": pk, "SK": S("SHOPPING#sh_01"), "name": S("牛乳"), "createdAt": S("2026-02-09T19:00:00+09:00")})
	// A corrupt item: a time that is none.
	put(map[string]types.AttributeValue{"PK": pk, "SK": S("RECIPE#r_02"), "title": S("x"), "createdAt": S("yesterday")})

	if _, err := kondate.EnsureTable(ctx, c, table); err != nil {
		t.Fatalf("EnsureTable: %v", err)
	}
	s := kondate.NewDynamoStore(c, deterministic, func(o *kondate.Options) { o.TableName = table })

	r, err := s.GetRecipe(ctx, "u_01", "r_01")
	if err != nil || r.Title != "麻婆豆腐" || !r.CreatedAt.Equal(time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)) ||
		!r.UpdatedAt.Equal(r.CreatedAt) || r.Ingredients != nil || len(r.Steps) != 1 {
		t.Fatalf("GetRecipe(r_01) = %+v, %v", r, err)
	}
	// GSI1 was added by EnsureTable and back-filled from the items.
	var found kondate.Recipe
	for range 50 {
		if found, err = s.FindRecipe(ctx, "r_01"); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil || found.UserID != "u_01" {
		t.Fatalf("FindRecipe(r_01) = %+v, %v", found, err)
	}
	_, err = s.GetRecipe(ctx, "u_01", "r_02")
	ddbtest.WantSentinel(t, "GetRecipe of a corrupt item", err, ddbkit.ErrCorruptItem)
	page, err := s.ListRecipes(ctx, "u_01", ddbkit.PageOptions{})
	if err != nil || len(page.Items) != 1 || page.Items[0].ID != "r_01" || len(page.Skipped) != 1 {
		t.Fatalf("ListRecipes = %+v, %v; want r_01 and one skipped", page, err)
	}
	if !errors.Is(page.Skipped[0], ddbkit.ErrCorruptItem) {
		t.Fatalf("skipped: %v", page.Skipped[0])
	}
	if set, err := s.FindSet(ctx, "s_01"); err != nil || set.Title != "中華セット" || !set.CreatedAt.IsZero() {
		t.Fatalf("FindSet(s_01) = %+v, %v", set, err)
	}
	cur, err := s.GetPlan(ctx, "u_01", kondate.PlanCurrent)
	if err != nil || cur.SetID != "s_01" || len(cur.Items) != 1 || cur.AppliedAt.Nanosecond() != 123456000 {
		t.Fatalf("GetPlan(CURRENT) = %+v, %v", cur, err)
	}
	logs, err := s.ListCookLogsByMonth(ctx, "u_01", "2026-02", ddbkit.PageOptions{})
	if err != nil || len(logs.Items) != 1 || logs.Items[0].ID != "log_01" || logs.Items[0].Date != "2026-02-09" {
		t.Fatalf("ListCookLogsByMonth = %+v, %v", logs, err)
	}
	day, err := s.ListCookLogsByDay(ctx, "u_01", "2026-02-09", ddbkit.PageOptions{})
	if err != nil || len(day.Items) != 1 {
		t.Fatalf("ListCookLogsByDay = %+v, %v", day, err)
	}
	notes, err := s.ListNotifications(ctx, "u_01", ddbkit.PageOptions{})
	if err != nil || len(notes.Items) != 1 || !notes.Items[0].CreatedAt.Equal(time.Date(2026, 2, 5, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("ListNotifications = %+v, %v", notes, err)
	}
	shop, err := s.ListShoppingItems(ctx, "u_01", ddbkit.PageOptions{})
	if err != nil || len(shop.Items) != 1 || !shop.Items[0].CreatedAt.Equal(time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("ListShoppingItems = %+v, %v", shop, err)
	}

	// The main writes over the app's items.
	next, err := s.ApplySet(ctx, "u_01", kondate.PlanNext, "s_01")
	if err != nil || next.SetTitle != "中華セット" {
		t.Fatalf("ApplySet(s_01) = %+v, %v", next, err)
	}
	if _, err := s.PromoteNextPlan(ctx, "u_01"); err != nil {
		t.Fatalf("PromoteNextPlan: %v", err)
	}
	d, err := s.DeleteFridgeItem(ctx, "u_01", "f_01")
	if err != nil || d.Name != "にんじん" {
		t.Fatalf("DeleteFridgeItem(f_01) = %+v, %v", d, err)
	}
	if f, err := s.RestoreFridgeItem(ctx, "u_01", "f_01", d.DeletedAt); err != nil || f.Name != "にんじん" {
		t.Fatalf("RestoreFridgeItem(f_01) = %+v, %v", f, err)
	}
	if _, err := s.MarkNotificationRead(ctx, "u_01", "n_01", time.Date(2026, 2, 5, 10, 0, 0, 0, time.UTC)); !errors.Is(err, ddbkit.ErrNotFound) {
		// The app's key holds the time without fractional digits, which the
		// store cannot rebuild (see the package doc's Other writers).
		t.Fatalf("MarkNotificationRead of a key in another time format: %v, want ErrNotFound", err)
	}
	if u, err := s.UpdateRecipe(ctx, "u_01", "r_01", kondate.RecipePatch{Title: ptr("麻婆茄子")}); err != nil || u.Title != "麻婆茄子" || len(u.Tags) != 1 {
		t.Fatalf("UpdateRecipe(r_01) = %+v, %v", u, err)
	}
	if _, err := s.CompleteShoppingItem(ctx, "u_01", "sh_01"); err != nil {
		t.Fatalf("CompleteShoppingItem(sh_01): %v", err)
	}
}
