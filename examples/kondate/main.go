// Command kondate plans a week of meals through the kondate seed's access
// patterns: recipes, a set of the week's dinners, applying it to the next
// plan and promoting that to the current one, a shopping list made from the
// plan's ingredients, the fridge with a delete and a restore from its
// archive, and the month's cooking log read back by month and by day.
//
// It runs on the in-memory store by default:
//
//	go run ./examples/kondate
//
// With -endpoint it runs on DynamoDB (for example DynamoDB Local), creating
// the table if it does not exist, or reconciling an existing one (the
// seed's app's table, say, which gains GSI1 and TTL) and printing what it
// changed:
//
//	go run ./examples/kondate -endpoint http://127.0.0.1:8000 -table kondate-example
//
// The week is -week (a Monday, YYYY-MM-DD), the cook logs' calendar days.
// Every run plans for a new user, so it can run again on the same table.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL; empty runs on the in-memory store")
	table := flag.String("table", kondate.DefaultTableName, "table name")
	region := flag.String("region", envOr("AWS_REGION", "ap-northeast-1"), "AWS region: $AWS_REGION, else ap-northeast-1")
	week := flag.String("week", "2026-02-09", "the Monday of the week to plan, YYYY-MM-DD")
	flag.Parse()
	monday, err := time.Parse(time.DateOnly, *week)
	if err != nil || monday.Weekday() != time.Monday {
		log.Fatalf("-week %q: want a Monday, YYYY-MM-DD", *week)
	}
	if err := run(context.Background(), *endpoint, *table, *region, monday); err != nil {
		log.Fatal(err)
	}
}

// recipe is one of the user's recipes, as the example writes it.
type recipe struct {
	title string
	ing   []kondate.Ingredient
	steps []string
	tags  []string
}

var recipes = []recipe{
	{"麻婆豆腐", []kondate.Ingredient{{Name: "豆腐", Amount: "1丁"}, {Name: "豚ひき肉", Amount: "150g"}, {Name: "長ねぎ", Amount: "1/2本"}},
		[]string{"豆腐を切る", "ひき肉を炒める", "豆腐を加えて煮る"}, []string{"中華"}},
	{"肉じゃが", []kondate.Ingredient{{Name: "じゃがいも", Amount: "3個"}, {Name: "にんじん", Amount: "1本"}, {Name: "豚こま肉", Amount: "200g"}, {Name: "玉ねぎ", Amount: "1個"}},
		[]string{"野菜を切る", "肉と野菜を炒める", "煮る"}, []string{"和食"}},
	{"鮭の塩焼き", []kondate.Ingredient{{Name: "鮭", Amount: "2切れ"}, {Name: "大根", Amount: "少々"}},
		[]string{"塩をふる", "焼く"}, []string{"和食", "魚"}},
	{"カレーライス", []kondate.Ingredient{{Name: "じゃがいも", Amount: "2個"}, {Name: "にんじん", Amount: "1本"}, {Name: "玉ねぎ", Amount: "2個"}, {Name: "カレールー", Amount: "1/2箱"}},
		[]string{"野菜を切る", "炒める", "煮込む", "ルーを溶かす"}, []string{"洋食"}},
	{"親子丼", []kondate.Ingredient{{Name: "鶏もも肉", Amount: "1枚"}, {Name: "卵", Amount: "3個"}, {Name: "玉ねぎ", Amount: "1/2個"}},
		[]string{"鶏肉と玉ねぎを煮る", "卵でとじる"}, []string{"和食", "丼"}},
	{"野菜炒め", []kondate.Ingredient{{Name: "キャベツ", Amount: "1/4玉"}, {Name: "もやし", Amount: "1袋"}, {Name: "豚こま肉", Amount: "100g"}},
		[]string{"強火で炒める"}, []string{"中華"}},
	{"餃子", []kondate.Ingredient{{Name: "餃子の皮", Amount: "30枚"}, {Name: "豚ひき肉", Amount: "200g"}, {Name: "キャベツ", Amount: "1/4玉"}},
		[]string{"餡を作る", "包む", "焼く"}, []string{"中華"}},
}

func run(ctx context.Context, endpoint, table, region string, monday time.Time) error {
	var s kondate.Store
	if endpoint == "" {
		fmt.Println("store: in memory")
		s = kondate.NewMemoryStore(kondate.AllIndexes)
	} else {
		// DynamoDB Local accepts any credentials; against AWS, build the
		// client from config.LoadDefaultConfig instead.
		c := dynamodb.New(dynamodb.Options{
			Region:       region,
			BaseEndpoint: aws.String(endpoint),
			Credentials:  credentials.NewStaticCredentialsProvider(envOr("AWS_ACCESS_KEY_ID", "local"), envOr("AWS_SECRET_ACCESS_KEY", "local"), ""),
		})
		// The catalog needs all three GSIs; EnsureTable creates a missing
		// table with them, and reports those an existing table lacks
		// (its stack adds them, as the seed's staged rollout does; with
		// kondate.SchemaOptions(schema.Apply) EnsureTable adds them).
		opts := []func(*kondate.Options){func(o *kondate.Options) { o.TableName = table }, kondate.AllIndexes}
		changes, err := kondate.EnsureTable(ctx, c, table, opts...)
		if err != nil {
			return err
		}
		for _, ch := range changes {
			fmt.Println("schema:", ch)
		}
		fmt.Printf("store: DynamoDB at %s, table %s\n", endpoint, table)
		s = kondate.NewDynamoStore(c, opts...)
	}

	// A new user every run, so that a rerun on the same table starts empty.
	user := "u_" + ddbkit.NewULIDs(time.Now)()
	prof, err := s.UpdateProfile(ctx, user, kondate.ProfilePatch{DisplayName: ptr("はなこ")})
	if err != nil {
		return err
	}
	fmt.Printf("user %s (%s)\n", prof.DisplayName, user)

	// Recipes, newest first: the sort key ends with a ULID.
	byTitle := map[string]kondate.Recipe{}
	for _, r := range recipes {
		got, err := s.CreateRecipe(ctx, user, kondate.NewRecipe{Title: r.title, Ingredients: r.ing, Steps: r.steps, Tags: r.tags, Origin: "manual"})
		if err != nil {
			return err
		}
		byTitle[got.Title] = got
	}
	fmt.Print("recipes, newest first, 3 a page:")
	page := 0
	for r, err := range ddbkit.All(func(cursor string) (ddbkit.Page[kondate.Recipe], error) {
		page++
		fmt.Printf("\n  page %d:", page)
		return s.ListRecipes(ctx, user, ddbkit.PageOptions{Limit: 3, Cursor: cursor})
	}) {
		if err != nil {
			return err
		}
		fmt.Print(" ", r.Title)
	}
	fmt.Println()

	// GET /v1/recipes/{id}: by ID alone, through GSI1. On DynamoDB the
	// index is eventually consistent, so a recipe made a moment ago may
	// take a moment to be found.
	curry := byTitle["カレーライス"]
	found, err := findRecipe(ctx, s, curry.ID)
	if err != nil {
		return err
	}
	fmt.Printf("found %s by its ID alone: owner %s, %d ingredients\n", found.Title, found.UserID, len(found.Ingredients))

	// The week's dinners as a set.
	var dinners []kondate.SetItem
	for _, t := range []string{"肉じゃが", "鮭の塩焼き", "麻婆豆腐", "親子丼", "野菜炒め", "カレーライス", "餃子"} {
		dinners = append(dinners, kondate.SetItem{RecipeID: byTitle[t].ID, Title: t})
	}
	set, err := s.CreateSet(ctx, user, kondate.NewSet{Title: "定番の一週間", Items: dinners, Tags: []string{"平日"}})
	if err != nil {
		return err
	}
	fmt.Printf("set %q: %d dinners\n", set.Title, len(set.Items))

	// Apply it to NEXT, then swap Friday's dinner: the plan keeps its copy
	// and the set it came from.
	next, err := s.ApplySet(ctx, user, kondate.PlanNext, set.ID)
	if err != nil {
		return err
	}
	items := append([]kondate.SetItem(nil), next.Items...)
	items[4] = kondate.SetItem{Title: "外食"}
	if next, err = s.UpdatePlan(ctx, user, kondate.PlanNext, items); err != nil {
		return err
	}
	fmt.Printf("next plan from %q, Friday swapped for %s\n", next.SetTitle, next.Items[4].Title)

	// The week starts: NEXT becomes CURRENT in one transaction.
	cur, err := s.PromoteNextPlan(ctx, user)
	if err != nil {
		return err
	}
	if _, err := s.GetPlan(ctx, user, kondate.PlanNext); !errors.Is(err, ddbkit.ErrNotFound) {
		return fmt.Errorf("next plan after promotion: %v, want ErrNotFound", err)
	}
	fmt.Println("current plan:")
	for i, it := range cur.Items {
		fmt.Printf("  %s %s\n", monday.AddDate(0, 0, i).Format("01/02 Mon"), it.Title)
	}

	// The fridge: what is already there is not bought.
	fridge := map[string]kondate.FridgeItem{}
	for _, f := range []kondate.NewFridgeItem{
		{Name: "にんじん", Quantity: "2本", ExpiryDate: monday.AddDate(0, 0, 6).Format(time.DateOnly)},
		{Name: "玉ねぎ", Quantity: "3個"},
		{Name: "卵", Quantity: "6個", ExpiryDate: monday.AddDate(0, 0, 3).Format(time.DateOnly)},
		{Name: "キャベツ", Quantity: "1/2玉"},
	} {
		got, err := s.AddFridgeItem(ctx, user, f)
		if err != nil {
			return err
		}
		fridge[got.Name] = got
	}

	// The shopping list: the plan's ingredients not in the fridge, once each.
	var list []kondate.NewShoppingItem
	seen := map[string]bool{}
	for _, it := range cur.Items {
		if it.RecipeID == "" {
			continue
		}
		r, err := s.GetRecipe(ctx, user, it.RecipeID)
		if err != nil {
			return err
		}
		for _, ing := range r.Ingredients {
			if _, ok := fridge[ing.Name]; !ok && !seen[ing.Name] {
				seen[ing.Name] = true
				list = append(list, kondate.NewShoppingItem{Name: ing.Name, Quantity: ing.Amount})
			}
		}
	}
	shop := map[string]kondate.ShoppingItem{}
	for _, in := range list {
		got, err := s.AddShoppingItem(ctx, user, in)
		if err != nil {
			return err
		}
		shop[got.Name] = got
	}
	// At the shop: two bought; the minced pork is for two dinners.
	for _, name := range []string{"豆腐", "鮭"} {
		if _, err := s.CompleteShoppingItem(ctx, user, shop[name].ID); err != nil {
			return err
		}
	}
	if _, err := s.UpdateShoppingItem(ctx, user, shop["豚ひき肉"].ID, kondate.ShoppingPatch{Quantity: ptr("350g")}); err != nil {
		return err
	}
	fmt.Println("shopping list:")
	for it, err := range ddbkit.All(func(cursor string) (ddbkit.Page[kondate.ShoppingItem], error) {
		return s.ListShoppingItems(ctx, user, ddbkit.PageOptions{Cursor: cursor})
	}) {
		if err != nil {
			return err
		}
		mark := "[ ]"
		if it.Checked {
			mark = "[x]"
		}
		fmt.Println(" ", mark, strings.TrimSpace(it.Name+" "+it.Quantity))
	}

	// The eggs are thrown away by mistake, and restored from the archive.
	gone, err := s.DeleteFridgeItem(ctx, user, fridge["卵"].ID)
	if err != nil {
		return err
	}
	deleted, err := s.ListDeletedFridgeItems(ctx, user, ddbkit.PageOptions{})
	if err != nil {
		return err
	}
	fmt.Printf("deleted %s from the fridge; the archive holds %d item(s), each for %d days\n",
		gone.Name, len(deleted.Items), int(kondate.DeletedFridgeRetention.Hours()/24))
	back, err := s.RestoreFridgeItem(ctx, user, gone.Ref)
	if err != nil {
		return err
	}
	if _, err := s.RestoreFridgeItem(ctx, user, gone.Ref); !errors.Is(err, ddbkit.ErrNotFound) {
		return fmt.Errorf("restoring twice: %v, want ErrNotFound", err)
	}
	fmt.Print("restored ", back.Name, "; fridge:")
	for f, err := range ddbkit.All(func(cursor string) (ddbkit.Page[kondate.FridgeItem], error) {
		return s.ListFridgeItems(ctx, user, ddbkit.PageOptions{Cursor: cursor})
	}) {
		if err != nil {
			return err
		}
		fmt.Print(" ", f.Name)
	}
	fmt.Println()

	// What was cooked, by the user's calendar day: the week, and a day of
	// the month before, which the month's listing leaves out.
	if _, err := s.AddCookLog(ctx, user, kondate.NewCookLog{Date: monday.AddDate(0, -1, 0).Format(time.DateOnly), Title: "おでん"}); err != nil {
		return err
	}
	for i, it := range cur.Items {
		in := kondate.NewCookLog{Date: monday.AddDate(0, 0, i).Format(time.DateOnly), RecipeID: it.RecipeID, Title: it.Title}
		if i == 2 {
			in.Note = "辛さ控えめに"
		}
		if _, err := s.AddCookLog(ctx, user, in); err != nil {
			return err
		}
	}
	// A second dish on Wednesday.
	wed := monday.AddDate(0, 0, 2).Format(time.DateOnly)
	if _, err := s.AddCookLog(ctx, user, kondate.NewCookLog{Date: wed, Title: "味噌汁"}); err != nil {
		return err
	}
	month := monday.Format("2006-01")
	fmt.Printf("cook logs of %s (begins_with COOKLOG#%s):\n", month, month)
	for l, err := range ddbkit.All(func(cursor string) (ddbkit.Page[kondate.CookLog], error) {
		return s.ListCookLogsByMonth(ctx, user, month, ddbkit.PageOptions{Cursor: cursor})
	}) {
		if err != nil {
			return err
		}
		note := ""
		if l.Note != "" {
			note = " (" + l.Note + ")"
		}
		fmt.Printf("  %s %s%s\n", l.Date, l.Title, note)
	}
	day, err := s.ListCookLogsByDay(ctx, user, wed, ddbkit.PageOptions{})
	if err != nil {
		return err
	}
	var titles []string
	for _, l := range day.Items {
		titles = append(titles, l.Title)
	}
	fmt.Printf("cooked on %s: %s\n", wed, strings.Join(titles, ", "))
	return catalog(ctx, s, user, byTitle)
}

// catalog publishes two recipes, has other users save them, lists the
// catalog newest and popular, and resolves a share link.
func catalog(ctx context.Context, s kondate.Store, user string, byTitle map[string]kondate.Recipe) error {
	var published []kondate.CatalogEntry
	for _, title := range []string{"麻婆豆腐", "肉じゃが"} {
		e, err := s.Publish(ctx, user, kondate.KindRecipe, byTitle[title].ID)
		if err != nil {
			return err
		}
		published = append(published, e)
	}
	fmt.Println("published to the catalog:", published[0].Title+",", published[1].Title)
	// Two other users save 麻婆豆腐, one 肉じゃが; a repeated save counts once.
	saves := []struct{ user, title string }{{"a", "麻婆豆腐"}, {"b", "麻婆豆腐"}, {"b", "肉じゃが"}, {"b", "肉じゃが"}}
	for _, sv := range saves {
		id := byTitle[sv.title].ID
		if _, err := eventually(func() (kondate.SavedEntry, error) {
			return s.SaveCatalogEntry(ctx, user+"_"+sv.user, kondate.KindRecipe, id)
		}); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		name string
		list func(context.Context, kondate.CatalogKind, kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error)
	}{{"newest", s.ListCatalogNewest}, {"popular", s.ListCatalogPopular}} {
		p, err := l.list(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2}})
		if err != nil {
			return err
		}
		fmt.Printf("catalog, %s:", l.name)
		for _, e := range p.Items {
			fmt.Printf(" %s (saved %d)", e.Title, e.SavedCount)
		}
		fmt.Println()
	}
	link, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe,
		TargetID: byTitle["肉じゃが"].ID, AuthorName: "はなこ"})
	if err != nil {
		return err
	}
	target, err := eventually(func() (kondate.ShareTarget, error) { return s.ResolveShareLink(ctx, link.ID) })
	if err != nil {
		return err
	}
	fmt.Printf("share link (%d-character ID) resolves to the catalog's %s by %s\n", len(link.ID), target.Entry.Title, target.Link.AuthorName)
	return nil
}

// eventually retries call for up to two seconds while it reports
// ErrNotFound: GSI1, through which saves and links find catalog entries,
// catches up with a recent write on DynamoDB.
func eventually[T any](call func() (T, error)) (T, error) {
	deadline := time.Now().Add(2 * time.Second)
	for {
		v, err := call()
		if !errors.Is(err, ddbkit.ErrNotFound) || time.Now().After(deadline) {
			return v, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// findRecipe finds a recipe by ID, waiting up to two seconds for GSI1 to
// catch up with a recent write.
func findRecipe(ctx context.Context, s kondate.Store, id string) (kondate.Recipe, error) {
	deadline := time.Now().Add(2 * time.Second)
	for {
		r, err := s.FindRecipe(ctx, id)
		if !errors.Is(err, ddbkit.ErrNotFound) || time.Now().After(deadline) {
			return r, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func ptr[T any](v T) *T { return &v }

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
