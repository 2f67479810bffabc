package kondate_test

import (
	"cmp"
	"errors"
	"maps"
	"slices"
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
func N(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
func M(kv ...any) types.AttributeValue {
	m := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return &types.AttributeValueMemberM{Value: m}
}
func L(vs ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: vs}
}

// NULL is DynamoDB's NULL, which the app writes for "no value".
var NULL types.AttributeValue = &types.AttributeValueMemberNULL{Value: true}

type rawItems = []map[string]types.AttributeValue

// legacyItems are the seed's app's items, as it puts them: the seed's own
// examples first, then other ISO 8601 forms, missing optional attributes,
// times only in keys, and the catalog, a saved item and a share link as
// the app writes them (no savedCount, entityType or createdAt on the
// catalog item; times without fractional digits in keys). corrupt are
// items no store can read: DynamoStore reports them, MemoryStore.Import
// refuses them.
func legacyItems() (good, corrupt rawItems) {
	pk := S("USER#u_01")
	good = rawItems{
		// Section 6's examples.
		{"PK": pk, "SK": S("RECIPE#r_01"), "GSI1PK": S("ENTITY#RECIPE#r_01"), "GSI1SK": S("OWNER#u_01"),
			"title": S("麻婆豆腐"), "ingredients": L(), "steps": L(S("切る")), "tags": L(S("中華")), "origin": S("manual"),
			"createdAt": S("2026-02-09T10:00:00Z"), "updatedAt": S("2026-02-09T19:00:00+09:00")},
		{"PK": pk, "SK": S("PLAN#CURRENT"), "setId": S("s_01"), "setTitle": S("中華セット"),
			"appliedAt": S("2026-02-09T10:00:00.123456Z"),
			"items":     L(&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"recipeId": S("r_01"), "title": S("麻婆豆腐")}})},
		{"PK": pk, "SK": S("COOKLOG#2026-02-09#log_01"), "title": S("麻婆豆腐")},
		// Other forms: no optional attributes, times only in keys.
		{"PK": pk, "SK": S("SET#s_01"), "GSI1PK": S("ENTITY#SET#s_01"), "GSI1SK": S("OWNER#u_01"), "title": S("中華セット")},
		{"PK": pk, "SK": S("FRIDGE#f_01"), "name": S("にんじん")},
		{"PK": pk, "SK": S("NOTIFICATION#2026-02-05T10:00:00Z#n_01"), "title": S("古い通知")},
		{"PK": pk, "SK": S("SHOPPING#sh_01"), "name": S("牛乳"), "createdAt": S("2026-02-09T19:00:00+09:00")},
		// The catalog (sections 4.2 and 5): r_01 published, its catalog
		// item, its creator's copy (with the popular key), saved by u_02.
		{"PK": S("CATALOG#RECIPE"), "SK": S("CREATED#2026-02-09T10:00:00Z#r_01"),
			"GSI1PK": S("ENTITY#RECIPE#r_01"), "GSI1SK": S("PUBLIC#"),
			"GSI2PK": S("CATALOG#RECIPE"), "GSI2SK": S("SORT#NEWEST#2026-02-09T10:00:00Z#r_01"),
			"creatorId": S("u_01"), "title": S("麻婆豆腐"), "tags": L(S("中華"))},
		{"PK": S("CREATOR#u_01"), "SK": S("CATALOG_RECIPE#2026-02-09T10:00:00Z#r_01"),
			"GSI2PK": S("CATALOG#RECIPE"), "GSI2SK": S("SORT#POPULAR#0000000001#r_01"),
			"GSI3PK": S("CREATOR#u_01#RECIPE"), "GSI3SK": S("CREATED#2026-02-09T10:00:00Z#r_01"),
			"creatorId": S("u_01"), "title": S("麻婆豆腐"), "tags": L(S("中華")), "savedCount": N("1")},
		{"PK": S("USER#u_02"), "SK": S("SAVED#RECIPE#r_01"), "GSI1PK": S("ENTITY#RECIPE#r_01"), "GSI1SK": S("SAVED#u_02"),
			"title": S("麻婆豆腐")},
		// A set published with an offset time in its keys.
		{"PK": S("CATALOG#SET"), "SK": S("CREATED#2026-02-05T19:00:00+09:00#s_01"),
			"GSI1PK": S("ENTITY#SET#s_01"), "GSI1SK": S("PUBLIC#"),
			"GSI2PK": S("CATALOG#SET"), "GSI2SK": S("SORT#NEWEST#2026-02-05T19:00:00+09:00#s_01"),
			"creatorId": S("u_01"), "title": S("中華セット")},
		// NULL for "not yet", as the app writes it: an open shopping item,
		// an unread notification, a profile and a push token without a
		// creation time.
		{"PK": pk, "SK": S("SHOPPING#sh_02"), "name": S("卵"), "checked": &types.AttributeValueMemberBOOL{Value: false},
			"completedAt": NULL, "createdAt": S("2026-02-09T10:00:00Z")},
		{"PK": pk, "SK": S("NOTIFICATION#2026-02-06T10:00:00.000Z#n_02"), "title": S("新着"), "readAt": NULL},
		{"PK": pk, "SK": S("PROFILE#"), "displayName": S("はなこ"), "createdAt": NULL},
		{"PK": pk, "SK": S("PUSH_TOKEN#ios#" + sha256hex("tok_01")), "token": S("tok_01"), "createdAt": NULL},
		// Keys holding times in the seed's form (section 5's example): an
		// archived fridge item (the notification n_01 above is another).
		{"PK": pk, "SK": S("FRIDGE_DELETED#2026-02-07T10:00:00Z#f_02"), "name": S("たまねぎ"), "ttl": N("4102444800")},
		// A link the app wrote to u_05's unpublished recipe, its
		// targetType in lower case.
		{"PK": S("USER#u_05"), "SK": S("RECIPE#r_05"), "GSI1PK": S("ENTITY#RECIPE#r_05"), "GSI1SK": S("OWNER#u_05"), "title": S("肉じゃが")},
		{"PK": S("SHARE#sh_02"), "SK": S("META#"), "targetType": S("recipe"), "targetId": S("r_05"), "authorName": S("たろう")},
		// List shapes the app may write (u_06): ingredients as strings, as
		// maps without amount, with extra keys, with a Number amount, a
		// NULL element; a set's dishes as strings; a plan's as maps
		// without title, with name instead, with extra keys.
		{"PK": S("USER#u_06"), "SK": S("RECIPE#r_61"), "GSI1PK": S("ENTITY#RECIPE#r_61"), "GSI1SK": S("OWNER#u_06"), "title": S("豚汁"),
			"ingredients": L(S("豚肉 200g"), S("味噌"))},
		{"PK": S("USER#u_06"), "SK": S("RECIPE#r_62"), "GSI1PK": S("ENTITY#RECIPE#r_62"), "GSI1SK": S("OWNER#u_06"), "title": S("卵焼き"),
			"ingredients": L(M("name", S("卵")), M("name", S("砂糖"), "amount", N("10"), "unit", S("g")), NULL,
				M("name", S("塩"), "amount", NULL), S("だし"))},
		{"PK": S("USER#u_06"), "SK": S("SET#s_61"), "GSI1PK": S("ENTITY#SET#s_61"), "GSI1SK": S("OWNER#u_06"), "title": S("朝定食"),
			"items": L(S("ご飯"), S("味噌汁"))},
		{"PK": S("USER#u_06"), "SK": S("PLAN#CURRENT"), "setId": S("s_61"),
			"items": L(M("recipeId", S("r_61")), M("name", S("漬物")), M("recipeId", S("r_62"), "title", S("卵焼き"), "servings", N("2")))},
		// A wallet: no card, so no brand and no last4.
		{"PK": pk, "SK": S("PAYMENT_METHOD#pm_01"), "provider": S("paypay"), "providerRef": S("wallet_01")},
		// Purchases in the seed's time form: one with ddbkit's guard of its
		// transaction ID, as a writer that keeps RecordPurchase's promise
		// puts it, one without.
		{"PK": pk, "SK": S("PURCHASE#2026-02-09T10:00:00Z#pi_app"), "productId": S("premium_monthly"), "amount": N("480"),
			"currency": S("JPY"), "purchasedAt": S("2026-02-09T10:00:00Z")},
		{"PK": pk, "SK": S("PURCHASE_TXN#pi_app"), "purchaseSk": S("PURCHASE#2026-02-09T10:00:00Z#pi_app")},
		{"PK": pk, "SK": S("PURCHASE#2026-02-01T09:00:00Z#p_01"), "productId": S("premium_monthly"), "amount": N("480"), "currency": S("JPY")},
		// A share link (section 4.3): the seed's four attributes only.
		{"PK": S("SHARE#sh_01"), "SK": S("META#"), "targetType": S("RECIPE"), "targetId": S("r_01"),
			"authorName": S("はなこ"), "sourceUrl": S("https://example.com/r_01")},
	}
	corrupt = rawItems{
		// Ingredients that are numbers.
		{"PK": S("USER#u_06"), "SK": S("RECIPE#r_69"), "title": S("x"), "ingredients": L(N("1"), N("2"))},
		// A time that is none.
		{"PK": pk, "SK": S("RECIPE#r_02"), "title": S("x"), "createdAt": S("yesterday")},
		// A count that is no number.
		{"PK": S("CATALOG#RECIPE"), "SK": S("CREATED#2026-02-01T00:00:00Z#r_09"),
			"GSI1PK": S("ENTITY#RECIPE#r_09"), "GSI1SK": S("PUBLIC#"),
			"GSI2PK": S("CATALOG#RECIPE"), "GSI2SK": S("SORT#NEWEST#2026-02-01T00:00:00Z#r_09"),
			"creatorId": S("u_09"), "title": S("x"), "savedCount": S("many")},
	}
	return good, corrupt
}

// TestLegacyFixture: the seed's app's table (keys only, no GSI yet), its
// items put raw as the app writes them, EnsureTable adding the three
// indexes, then every read access pattern and the main writes.
func TestLegacyFixture(t *testing.T) {
	ctx := t.Context()
	c := ddbtest.Client(t)
	in := kondate.CreateTableInput("legacy")
	in.GlobalSecondaryIndexes = nil
	in.AttributeDefinitions = in.AttributeDefinitions[:2]
	table := ddbtest.NewTable(t, c, in)
	good, corrupt := legacyItems()
	for _, item := range append(slices.Clone(good), corrupt...) {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := kondate.EnsureTable(ctx, c, table, kondate.AllIndexes, quick); err != nil {
		t.Fatalf("EnsureTable: %v", err)
	}
	s := kondate.NewDynamoStore(c, deterministic, kondate.AllIndexes, func(o *kondate.Options) { o.TableName = table })
	// The indexes were added by EnsureTable and back-filled from the items.
	for range 100 {
		_, err1 := s.FindRecipe(ctx, "r_01")
		_, err2 := s.FindRecipe(ctx, "r_05")
		if err1 == nil && err2 == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	checkLegacy(t, s, true)
}

// TestLegacyMemory: the same items imported into a memory store, which
// then reads them as DynamoStore does; Import refuses the corrupt ones,
// each alone, naming the attribute, and imports nothing then.
func TestLegacyMemory(t *testing.T) {
	s := kondate.NewMemoryStore(deterministic, kondate.AllIndexes)
	good, corrupt := legacyItems()
	for i, attr := range []string{"ingredients", "createdAt", "savedCount"} {
		err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: append(slices.Clone(good), corrupt[i])})
		ddbtest.WantSentinel(t, "Import with a corrupt item", err, ddbkit.ErrCorruptItem)
		var ce *ddbkit.CorruptItemError
		if !errors.As(err, &ce) || ce.Attr != attr || ce.Table != kondate.DefaultTableName {
			t.Fatalf("Import with a corrupt item: %v; want a *ddbkit.CorruptItemError naming %s", err, attr)
		}
		if n := len(s.Export()[kondate.DefaultTableName]); n != 0 {
			t.Fatalf("after a failed Import the store holds %d items, want none", n)
		}
	}
	err := s.Import(ddbkit.TableItems{"OtherTable": good})
	ddbtest.WantSentinel(t, "Import into another table", err, ddbkit.ErrInvalidArgument)
	if err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: good}); err != nil {
		t.Fatalf("Import: %v", err)
	}
	// Export gives the items back as imported, in key order.
	got := s.Export()[kondate.DefaultTableName]
	want := slices.Clone(good)
	slices.SortFunc(want, func(a, b map[string]types.AttributeValue) int {
		ka, kb := render(a)["PK"]+"\x00"+render(a)["SK"], render(b)["PK"]+"\x00"+render(b)["SK"]
		return cmp.Compare(ka, kb)
	})
	if len(got) != len(want) {
		t.Fatalf("Export holds %d items, want %d", len(got), len(want))
	}
	for i := range want {
		if !maps.Equal(render(got[i]), render(want[i])) {
			t.Fatalf("Export item %d = %v, want %v", i, render(got[i]), render(want[i]))
		}
	}
	checkLegacy(t, s, false)
}

// checkLegacy runs every read access pattern and the main writes over the
// legacy items in s; withCorrupt tells whether s holds the corrupt items.
func checkLegacy(t *testing.T, s kondate.Store, withCorrupt bool) {
	ctx := t.Context()
	r, err := s.GetRecipe(ctx, "u_01", "r_01")
	if err != nil || r.Title != "麻婆豆腐" || !r.CreatedAt.Equal(time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)) ||
		!r.UpdatedAt.Equal(r.CreatedAt) || r.Ingredients != nil || len(r.Steps) != 1 || !r.PublishedAt.IsZero() {
		t.Fatalf("GetRecipe(r_01) = %+v, %v", r, err)
	}
	if found, err := s.FindRecipe(ctx, "r_01"); err != nil || found.UserID != "u_01" {
		t.Fatalf("FindRecipe(r_01) = %+v, %v", found, err)
	}
	_, err = s.GetRecipe(ctx, "u_01", "r_02")
	page, lerr := s.ListRecipes(ctx, "u_01", ddbkit.PageOptions{})
	if lerr != nil || len(page.Items) != 1 || page.Items[0].ID != "r_01" {
		t.Fatalf("ListRecipes = %+v, %v; want r_01", page, lerr)
	}
	if withCorrupt {
		ddbtest.WantSentinel(t, "GetRecipe of a corrupt item", err, ddbkit.ErrCorruptItem)
		if len(page.Skipped) != 1 || !errors.Is(page.Skipped[0], ddbkit.ErrCorruptItem) {
			t.Fatalf("ListRecipes skipped %v; want the corrupt item", page.Skipped)
		}
	} else {
		ddbtest.WantSentinel(t, "GetRecipe of the item Import refused", err, ddbkit.ErrNotFound)
		if len(page.Skipped) != 0 {
			t.Fatalf("ListRecipes skipped %v; want none", page.Skipped)
		}
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
	if err != nil || len(notes.Items) != 2 || !notes.Items[1].CreatedAt.Equal(time.Date(2026, 2, 5, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("ListNotifications = %+v, %v", notes, err)
	}
	shop, err := s.ListShoppingItems(ctx, "u_01", ddbkit.PageOptions{})
	if err != nil || len(shop.Items) != 2 || !shop.Items[0].CreatedAt.Equal(time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)) ||
		shop.Items[1].Checked || !shop.Items[1].CompletedAt.IsZero() {
		t.Fatalf("ListShoppingItems = %+v, %v", shop, err)
	}

	// The catalog as the app wrote it.
	published := time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)
	e, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, "r_01")
	if err != nil || e.CreatorID != "u_01" || e.Title != "麻婆豆腐" || e.SavedCount != 0 || !e.CreatedAt.Equal(published) ||
		len(e.Tags) != 1 {
		t.Fatalf("GetCatalogEntry(r_01) = %+v, %v", e, err)
	}
	co := kondate.CatalogQuery{}
	newest, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, co)
	if err != nil || !slices.Equal(entryIDs(newest.Items), []string{"r_01"}) {
		t.Fatalf("ListCatalogNewest = %+v, %v; want r_01", newest, err)
	}
	if wantSkipped := map[bool]int{true: 1}[withCorrupt]; len(newest.Skipped) != wantSkipped {
		t.Fatalf("ListCatalogNewest skipped %v; want %d", newest.Skipped, wantSkipped)
	}
	popular, err := s.ListCatalogPopular(ctx, kondate.KindRecipe, kondate.CatalogQuery{Tag: "中華"})
	if err != nil || !slices.Equal(entryIDs(popular.Items), []string{"r_01"}) || popular.Items[0].SavedCount != 1 {
		t.Fatalf("ListCatalogPopular(中華) = %+v, %v; want r_01, saved once", popular, err)
	}
	byCreator, err := s.ListCatalogByCreator(ctx, "u_01", kondate.KindRecipe, co)
	if err != nil || !slices.Equal(entryIDs(byCreator.Items), []string{"r_01"}) {
		t.Fatalf("ListCatalogByCreator = %+v, %v; want r_01", byCreator, err)
	}
	sets, err := s.ListCatalogNewest(ctx, kondate.KindSet, co)
	if err != nil || !slices.Equal(entryIDs(sets.Items), []string{"s_01"}) ||
		!sets.Items[0].CreatedAt.Equal(time.Date(2026, 2, 5, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("ListCatalogNewest(SET) = %+v, %v; want s_01 published 2026-02-05T10:00Z", sets, err)
	}
	saved, err := s.ListSaved(ctx, "u_02", kondate.KindRecipe, ddbkit.PageOptions{})
	if err != nil || len(saved.Items) != 1 || saved.Items[0].ID != "r_01" || saved.Items[0].Title != "麻婆豆腐" {
		t.Fatalf("ListSaved(u_02) = %+v, %v", saved, err)
	}
	l, err := s.GetShareLink(ctx, "sh_01")
	if err != nil || l.TargetID != "r_01" || l.AuthorName != "はなこ" || l.CreatedBy != "" || !l.CreatedAt.IsZero() {
		t.Fatalf("GetShareLink(sh_01) = %+v, %v", l, err)
	}
	if tgt, err := s.ResolveShareLink(ctx, "sh_01"); err != nil || tgt.Entry == nil || tgt.Entry.ID != "r_01" {
		t.Fatalf("ResolveShareLink(sh_01) = %+v, %v; want the catalog entry r_01", tgt, err)
	}

	checkLegacyNull(t, s)
	checkLegacyWallet(t, s)
	checkLegacyPurchases(t, s)
	checkLegacyShares(t, s)
	checkLegacyShapes(t, s, withCorrupt)

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
	if f, err := s.RestoreFridgeItem(ctx, "u_01", d.Ref); err != nil || f.Name != "にんじん" {
		t.Fatalf("RestoreFridgeItem(f_01) = %+v, %v", f, err)
	}
	checkLegacyRefs(t, s)
	if u, err := s.UpdateRecipe(ctx, "u_01", "r_01", kondate.RecipePatch{Title: ptr("麻婆茄子")}); err != nil || u.Title != "麻婆茄子" || len(u.Tags) != 1 {
		t.Fatalf("UpdateRecipe(r_01) = %+v, %v", u, err)
	}
	if _, err := s.CompleteShoppingItem(ctx, "u_01", "sh_01"); err != nil {
		t.Fatalf("CompleteShoppingItem(sh_01): %v", err)
	}
	// A save of the app's entry, whose keys hold times without fractional
	// digits: both items keep their keys, the count goes from the catalog
	// item's (none: 0) to 1; the recount then finds two saved items.
	if _, err := s.SaveCatalogEntry(ctx, "u_03", kondate.KindRecipe, "r_01"); err != nil {
		t.Fatalf("SaveCatalogEntry(u_03, r_01): %v", err)
	}
	if e, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, "r_01"); err != nil || e.SavedCount != 1 || !e.CreatedAt.Equal(published) {
		t.Fatalf("GetCatalogEntry(r_01) after a save = %+v, %v; want saved once", e, err)
	}
	rep, err := s.RecalculatePopularity(ctx, kondate.KindRecipe)
	if err != nil || len(rep.Drifts) != 1 || rep.Drifts[0] != (kondate.PopularityDrift{Kind: kondate.KindRecipe, ID: "r_01", Stored: 1, Counted: 2}) {
		t.Fatalf("RecalculatePopularity = %+v, %v; want r_01 from 1 to 2", rep, err)
	}
	popular, err = s.ListCatalogPopular(ctx, kondate.KindRecipe, co)
	if err != nil || len(popular.Items) != 1 || popular.Items[0].SavedCount != 2 {
		t.Fatalf("ListCatalogPopular after the recount = %+v, %v; want r_01, saved twice", popular, err)
	}
	// Unpublishing the app's entry (no publishedAt on the recipe: found by
	// ID) removes both items, wherever their keys' time format.
	if err := s.Unpublish(ctx, "u_01", kondate.KindRecipe, "r_01"); err != nil {
		t.Fatalf("Unpublish(r_01): %v", err)
	}
	for name, list := range map[string]func() (ddbkit.Page[kondate.CatalogEntry], error){
		"newest": func() (ddbkit.Page[kondate.CatalogEntry], error) {
			return s.ListCatalogNewest(ctx, kondate.KindRecipe, co)
		},
		"popular": func() (ddbkit.Page[kondate.CatalogEntry], error) {
			return s.ListCatalogPopular(ctx, kondate.KindRecipe, co)
		},
		"by creator": func() (ddbkit.Page[kondate.CatalogEntry], error) {
			return s.ListCatalogByCreator(ctx, "u_01", kondate.KindRecipe, co)
		},
	} {
		if p, err := list(); err != nil || len(p.Items) != 0 {
			t.Fatalf("catalog %s after Unpublish = %+v, %v; want empty", name, p, err)
		}
	}
	if _, err := s.Publish(ctx, "u_01", kondate.KindRecipe, "r_01"); err != nil {
		t.Fatalf("Publish(r_01) again: %v", err)
	}
	checkLegacyDeletePublished(t, s)
}

// checkLegacyDeletePublished: deleting a published recipe or set takes its
// catalog entry along, in the same transaction, whether ddbkit published
// it (r_01, publishedAt) or the app did (s_01: no publishedAt, a catalog
// item whose key holds an offset time, no creator's copy).
func checkLegacyDeletePublished(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	if err := s.DeleteRecipe(ctx, "u_01", "r_01"); err != nil {
		t.Fatalf("DeleteRecipe(r_01, published): %v", err)
	}
	if err := s.DeleteSet(ctx, "u_01", "s_01"); err != nil {
		t.Fatalf("DeleteSet(s_01, published by the app): %v", err)
	}
	for _, e := range []struct {
		kind kondate.CatalogKind
		id   string
	}{{kondate.KindRecipe, "r_01"}, {kondate.KindSet, "s_01"}} {
		_, err := s.GetCatalogEntry(ctx, e.kind, e.id)
		ddbtest.WantSentinel(t, "GetCatalogEntry("+e.id+") after its delete", err, ddbkit.ErrNotFound)
		newest, err := s.ListCatalogNewest(ctx, e.kind, kondate.CatalogQuery{})
		if err != nil || slices.Contains(entryIDs(newest.Items), e.id) {
			t.Fatalf("ListCatalogNewest(%s) after the delete of %s = %v, %v", e.kind, e.id, entryIDs(newest.Items), err)
		}
		byCreator, err := s.ListCatalogByCreator(ctx, "u_01", e.kind, kondate.CatalogQuery{})
		if err != nil || len(byCreator.Items) != 0 {
			t.Fatalf("ListCatalogByCreator(%s) after the delete of %s = %v, %v", e.kind, e.id, entryIDs(byCreator.Items), err)
		}
	}
	_, err := s.GetRecipe(ctx, "u_01", "r_01")
	ddbtest.WantSentinel(t, "GetRecipe(r_01) after its delete", err, ddbkit.ErrNotFound)
	err = s.DeleteSet(ctx, "u_01", "s_01")
	ddbtest.WantSentinel(t, "DeleteSet(s_01) again", err, ddbkit.ErrNotFound)
}

// checkLegacyNull: an attribute the app wrote as NULL is unset. The first
// write sets it, a second keeps it; a read of it never saw a value.
func checkLegacyNull(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	sh, err := s.CompleteShoppingItem(ctx, "u_01", "sh_02")
	if err != nil || !sh.Checked || sh.CompletedAt.IsZero() {
		t.Fatalf("CompleteShoppingItem(sh_02, completedAt NULL) = %+v, %v; want completed now", sh, err)
	}
	if again, err := s.CompleteShoppingItem(ctx, "u_01", "sh_02"); err != nil || !again.CompletedAt.Equal(sh.CompletedAt) {
		t.Fatalf("CompleteShoppingItem(sh_02) again = %+v, %v; want CompletedAt %v kept", again, err, sh.CompletedAt)
	}
	notes, err := s.ListNotifications(ctx, "u_01", ddbkit.PageOptions{})
	if err != nil || len(notes.Items) < 1 || notes.Items[0].ID != "n_02" || !notes.Items[0].ReadAt.IsZero() {
		t.Fatalf("ListNotifications = %+v, %v; want n_02 first, unread", notes, err)
	}
	n, err := s.MarkNotificationRead(ctx, "u_01", notes.Items[0].Ref)
	if err != nil || n.ReadAt.IsZero() {
		t.Fatalf("MarkNotificationRead(n_02, readAt NULL) = %+v, %v; want read now", n, err)
	}
	if again, err := s.MarkNotificationRead(ctx, "u_01", notes.Items[0].Ref); err != nil || !again.ReadAt.Equal(n.ReadAt) {
		t.Fatalf("MarkNotificationRead(n_02) again = %+v, %v; want ReadAt %v kept", again, err, n.ReadAt)
	}
	if p, err := s.GetProfile(ctx, "u_01"); err != nil || p.DisplayName != "はなこ" || !p.CreatedAt.IsZero() {
		t.Fatalf("GetProfile(u_01) = %+v, %v; want はなこ, no CreatedAt", p, err)
	}
	p, err := s.UpdateProfile(ctx, "u_01", kondate.ProfilePatch{AvatarURL: ptr("https://example.com/a.png")})
	if err != nil || p.CreatedAt.IsZero() || p.DisplayName != "はなこ" {
		t.Fatalf("UpdateProfile(u_01, createdAt NULL) = %+v, %v; want CreatedAt set", p, err)
	}
	if again, err := s.UpdateProfile(ctx, "u_01", kondate.ProfilePatch{DisplayName: ptr("花子")}); err != nil || !again.CreatedAt.Equal(p.CreatedAt) {
		t.Fatalf("UpdateProfile(u_01) again = %+v, %v; want CreatedAt %v kept", again, err, p.CreatedAt)
	}
	tok, err := s.RegisterPushToken(ctx, "u_01", kondate.PlatformIOS, "tok_01")
	if err != nil || tok.CreatedAt.IsZero() {
		t.Fatalf("RegisterPushToken(tok_01, createdAt NULL) = %+v, %v; want CreatedAt set", tok, err)
	}
	// A new profile and a new token are created with CreatedAt.
	if p, err := s.UpdateProfile(ctx, "u_09", kondate.ProfilePatch{DisplayName: ptr("新人")}); err != nil || p.CreatedAt.IsZero() {
		t.Fatalf("UpdateProfile(u_09, new) = %+v, %v; want CreatedAt set", p, err)
	}
	_, err = s.CompleteShoppingItem(ctx, "u_01", "sh_404")
	ddbtest.WantSentinel(t, "CompleteShoppingItem of a missing item", err, ddbkit.ErrNotFound)
	if _, err := s.GetProfile(ctx, "u_01"); err != nil {
		t.Fatal(err)
	}
}

// checkLegacyWallet: a payment method without a card number lists, and
// one is added without Last4.
func checkLegacyWallet(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	w, err := s.AddPaymentMethod(ctx, "u_01", kondate.NewPaymentMethod{Provider: "bank", ProviderRef: "ba_01"})
	if err != nil || w.Last4 != "" {
		t.Fatalf("AddPaymentMethod(bank, no Last4) = %+v, %v", w, err)
	}
	page, err := s.ListPaymentMethods(ctx, "u_01", ddbkit.PageOptions{})
	// By ID: the ULID sorts before the app's pm_01.
	if err != nil || len(page.Items) != 2 || page.Items[1].ID != "pm_01" || page.Items[1].Last4 != "" || page.Items[1].Provider != "paypay" ||
		page.Items[0] != w {
		t.Fatalf("ListPaymentMethods = %+v, %v; want %+v, then the app's wallet pm_01", page, err, w)
	}
}

// checkLegacyPurchases: a repeat of a purchase recorded with its guard,
// whatever the form of the time in its key, returns it; one with other
// content is refused; a new one is recorded once.
func checkLegacyPurchases(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	app := kondate.NewPurchase{TransactionID: "pi_app", PurchasedAt: time.Date(2026, 2, 9, 19, 0, 0, 0, time.FixedZone("JST", 9*3600)),
		ProductID: "premium_monthly", Amount: 480, Currency: "JPY"}
	p, err := s.RecordPurchase(ctx, "u_01", app)
	if err != nil || p.ID != "pi_app" || !p.PurchasedAt.Equal(app.PurchasedAt) {
		t.Fatalf("RecordPurchase(pi_app) again = %+v, %v; want the app's purchase", p, err)
	}
	other := app
	other.Amount = 980
	_, err = s.RecordPurchase(ctx, "u_01", other)
	ddbtest.WantSentinel(t, "RecordPurchase(pi_app) with another amount", err, ddbkit.ErrAlreadyExists)
	in := kondate.NewPurchase{TransactionID: "pi_new", PurchasedAt: time.Date(2026, 2, 10, 8, 0, 0, 0, time.UTC),
		ProductID: "premium_monthly", Amount: 480, Currency: "JPY"}
	first, err := s.RecordPurchase(ctx, "u_01", in)
	if err != nil {
		t.Fatalf("RecordPurchase(pi_new): %v", err)
	}
	if again, err := s.RecordPurchase(ctx, "u_01", in); err != nil || again != first {
		t.Fatalf("RecordPurchase(pi_new) again = %+v, %v; want %+v", again, err, first)
	}
	page, err := s.ListPurchases(ctx, "u_01", ddbkit.PageOptions{})
	var ids []string
	for _, p := range page.Items {
		ids = append(ids, p.ID)
	}
	if err != nil || !slices.Equal(ids, []string{"pi_new", "pi_app", "p_01"}) || len(page.Skipped) != 0 {
		t.Fatalf("ListPurchases = %v (%+v), %v; want pi_new, pi_app, p_01", ids, page, err)
	}
}

// checkLegacyRefs: items whose keys hold a time in the seed's form
// (…T10:00:00Z, no fractional digits) are addressed by the Ref they were
// listed with, never by a key rebuilt from the parsed time.
func checkLegacyRefs(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	notes, err := s.ListNotifications(ctx, "u_01", ddbkit.PageOptions{})
	i := slices.IndexFunc(notes.Items, func(n kondate.Notification) bool { return n.ID == "n_01" })
	if err != nil || i < 0 || notes.Items[i].Ref != "2026-02-05T10:00:00Z#n_01" {
		t.Fatalf("ListNotifications = %+v, %v; want n_01 with Ref 2026-02-05T10:00:00Z#n_01", notes, err)
	}
	n, err := s.MarkNotificationRead(ctx, "u_01", notes.Items[i].Ref)
	if err != nil || n.ID != "n_01" || n.ReadAt.IsZero() || n.Ref != notes.Items[i].Ref {
		t.Fatalf("MarkNotificationRead(%s) = %+v, %v; want n_01 read", notes.Items[i].Ref, n, err)
	}
	// The canonical form of the same time is another key: not found.
	_, err = s.MarkNotificationRead(ctx, "u_01", "2026-02-05T10:00:00.000Z#n_01")
	ddbtest.WantSentinel(t, "MarkNotificationRead by a rebuilt key", err, ddbkit.ErrNotFound)

	archive, err := s.ListDeletedFridgeItems(ctx, "u_01", ddbkit.PageOptions{})
	i = slices.IndexFunc(archive.Items, func(d kondate.DeletedFridgeItem) bool { return d.ID == "f_02" })
	if err != nil || i < 0 || archive.Items[i].Ref != "2026-02-07T10:00:00Z#f_02" ||
		!archive.Items[i].DeletedAt.Equal(time.Date(2026, 2, 7, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("ListDeletedFridgeItems = %+v, %v; want f_02 with Ref 2026-02-07T10:00:00Z#f_02", archive, err)
	}
	f, err := s.RestoreFridgeItem(ctx, "u_01", archive.Items[i].Ref)
	if err != nil || f.ID != "f_02" || f.Name != "たまねぎ" {
		t.Fatalf("RestoreFridgeItem(%s) = %+v, %v; want f_02 back", archive.Items[i].Ref, f, err)
	}
	if live, err := s.ListFridgeItems(ctx, "u_01", ddbkit.PageOptions{}); err != nil ||
		!slices.ContainsFunc(live.Items, func(f kondate.FridgeItem) bool { return f.ID == "f_02" }) {
		t.Fatalf("ListFridgeItems = %+v, %v; want f_02 in the fridge", live, err)
	}
	_, err = s.RestoreFridgeItem(ctx, "u_01", archive.Items[i].Ref)
	ddbtest.WantSentinel(t, "RestoreFridgeItem again", err, ddbkit.ErrNotFound)
}

// checkLegacyShares: links the app wrote have no createdBy; they belong to
// their target's owner, who alone may delete them, and resolve to the
// owner's item while unpublished. targetType is read in any ASCII case.
func checkLegacyShares(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	l, err := s.GetShareLink(ctx, "sh_02")
	if err != nil || l.TargetType != kondate.KindRecipe || l.TargetID != "r_05" || l.CreatedBy != "" {
		t.Fatalf("GetShareLink(sh_02) = %+v, %v; want RECIPE r_05 without a creator", l, err)
	}
	tgt, err := s.ResolveShareLink(ctx, "sh_02")
	if err != nil || tgt.Entry != nil || tgt.Recipe == nil || tgt.Recipe.ID != "r_05" || tgt.Recipe.UserID != "u_05" {
		t.Fatalf("ResolveShareLink(sh_02) = %+v, %v; want u_05's recipe r_05", tgt, err)
	}
	for _, tc := range []struct{ user, link string }{{"u_01", "sh_02"}, {"u_02", "sh_01"}} {
		err := s.DeleteShareLink(ctx, tc.user, tc.link)
		ddbtest.WantSentinel(t, "DeleteShareLink of "+tc.link+" by "+tc.user+", not its target's owner", err, ddbkit.ErrNotFound)
		if _, err := s.GetShareLink(ctx, tc.link); err != nil {
			t.Fatalf("GetShareLink(%s) after a refused delete: %v", tc.link, err)
		}
	}
	for _, tc := range []struct{ user, link string }{{"u_05", "sh_02"}, {"u_01", "sh_01"}} {
		if err := s.DeleteShareLink(ctx, tc.user, tc.link); err != nil {
			t.Fatalf("DeleteShareLink(%s) by its target's owner %s: %v", tc.link, tc.user, err)
		}
		_, err := s.GetShareLink(ctx, tc.link)
		ddbtest.WantSentinel(t, "GetShareLink("+tc.link+") after its delete", err, ddbkit.ErrNotFound)
	}
}

// checkLegacyShapes: lists the app wrote in other shapes read as the
// documented ones; what ddbkit writes from them is the documented shape.
func checkLegacyShapes(t *testing.T, s kondate.Store, withCorrupt bool) {
	ctx := t.Context()
	r, err := s.GetRecipe(ctx, "u_06", "r_61")
	if err != nil || !slices.Equal(r.Ingredients, []kondate.Ingredient{{Name: "豚肉 200g"}, {Name: "味噌"}}) {
		t.Fatalf("GetRecipe(r_61, ingredients as strings) = %+v, %v", r, err)
	}
	r, err = s.GetRecipe(ctx, "u_06", "r_62")
	want := []kondate.Ingredient{{Name: "卵"}, {Name: "砂糖", Amount: "10"}, {Name: "塩"}, {Name: "だし"}}
	if err != nil || !slices.Equal(r.Ingredients, want) {
		t.Fatalf("GetRecipe(r_62, mixed ingredients) = %+v, %v; want %v", r, err, want)
	}
	page, err := s.ListRecipes(ctx, "u_06", ddbkit.PageOptions{})
	var ids []string
	for _, r := range page.Items {
		ids = append(ids, r.ID)
	}
	if err != nil || !slices.Equal(ids, []string{"r_62", "r_61"}) || len(page.Skipped) != map[bool]int{true: 1}[withCorrupt] {
		t.Fatalf("ListRecipes(u_06) = %v, skipped %v, %v; want r_62, r_61", ids, page.Skipped, err)
	}
	if withCorrupt {
		var ce *ddbkit.CorruptItemError
		if !errors.As(page.Skipped[0], &ce) || ce.Attr != "ingredients" {
			t.Fatalf("ListRecipes(u_06) skipped %v; want r_69's ingredients", page.Skipped)
		}
	}
	set, err := s.GetSet(ctx, "u_06", "s_61")
	if err != nil || !slices.Equal(set.Items, []kondate.SetItem{{Title: "ご飯"}, {Title: "味噌汁"}}) {
		t.Fatalf("GetSet(s_61, dishes as strings) = %+v, %v", set, err)
	}
	plan, err := s.GetPlan(ctx, "u_06", kondate.PlanCurrent)
	wantItems := []kondate.SetItem{{RecipeID: "r_61"}, {Title: "漬物"}, {RecipeID: "r_62", Title: "卵焼き"}}
	if err != nil || !slices.Equal(plan.Items, wantItems) {
		t.Fatalf("GetPlan(u_06, CURRENT) = %+v, %v; want items %v", plan, err, wantItems)
	}
	// Writes from them: the documented shape, read back the same.
	next, err := s.ApplySet(ctx, "u_06", kondate.PlanNext, "s_61")
	if err != nil || !slices.Equal(next.Items, set.Items) {
		t.Fatalf("ApplySet(s_61) = %+v, %v", next, err)
	}
	if got, err := s.GetPlan(ctx, "u_06", kondate.PlanNext); err != nil || !slices.Equal(got.Items, set.Items) {
		t.Fatalf("GetPlan(u_06, NEXT) = %+v, %v; want %v", got, err, set.Items)
	}
	u, err := s.UpdateRecipe(ctx, "u_06", "r_62", kondate.RecipePatch{Ingredients: &want})
	if err != nil || !slices.Equal(u.Ingredients, want) {
		t.Fatalf("UpdateRecipe(r_62, ingredients) = %+v, %v", u, err)
	}
	e, err := s.Publish(ctx, "u_06", kondate.KindRecipe, "r_61")
	if err != nil || !slices.Equal(e.Ingredients, []kondate.Ingredient{{Name: "豚肉 200g"}, {Name: "味噌"}}) {
		t.Fatalf("Publish(r_61) = %+v, %v", e, err)
	}
	if got, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, "r_61"); err != nil || !slices.Equal(got.Ingredients, e.Ingredients) {
		t.Fatalf("GetCatalogEntry(r_61) = %+v, %v; want ingredients %v", got, err, e.Ingredients)
	}
	if err := s.Unpublish(ctx, "u_06", kondate.KindRecipe, "r_61"); err != nil {
		t.Fatalf("Unpublish(r_61): %v", err)
	}
}
