// Command wardrobe walks a week of outfits through the wardrobe seed's
// access patterns: a wardrobe, its clothes and templates, a history per day,
// the home screen's last week with thumbnails, the clothes by wear count and
// by last worn day, deleting a history and a clothing, a daily wear trend,
// and recalculating the statistics from the daily counters.
//
// It runs on the in-memory store by default:
//
//	go run ./examples/wardrobe
//
// With -endpoint it runs on DynamoDB (for example DynamoDB Local), creating
// the table if it does not exist, or adding the indexes an existing one
// lacks:
//
//	go run ./examples/wardrobe -endpoint http://127.0.0.1:8000 -table wardrobe-example
//
// Dates are the app's: -tz names the zone of its calendar days (the
// seed's app stores lastWornAt as midnight in it), Asia/Tokyo by default.
//
// Every run creates a new wardrobe, so it can run again on the same table.
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
	_ "time/tzdata" // -tz works without the system's zone database

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL; empty runs on the in-memory store")
	table := flag.String("table", wardrobe.DefaultTableName, "table name")
	region := flag.String("region", envOr("AWS_REGION", "ap-northeast-1"), "AWS region: $AWS_REGION, else ap-northeast-1")
	tz := flag.String("tz", "Asia/Tokyo", "time zone of the calendar days (lastWornAt is midnight in it)")
	flag.Parse()
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		log.Fatal(err)
	}
	if err := run(context.Background(), *endpoint, *table, *region, loc); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, endpoint, table, region string, loc *time.Location) error {
	var s wardrobe.Store
	zone := func(o *wardrobe.Options) { o.Location = loc }
	if endpoint == "" {
		fmt.Println("store: in memory")
		s = wardrobe.NewMemoryStore(zone)
	} else {
		// DynamoDB Local accepts any credentials; against AWS, build the
		// client from config.LoadDefaultConfig instead.
		c := dynamodb.New(dynamodb.Options{
			Region:       region,
			BaseEndpoint: aws.String(endpoint),
			Credentials:  credentials.NewStaticCredentialsProvider(envOr("AWS_ACCESS_KEY_ID", "local"), envOr("AWS_SECRET_ACCESS_KEY", "local"), ""),
		})
		changes, err := wardrobe.EnsureTable(ctx, c, table)
		if err != nil {
			return err
		}
		for _, ch := range changes {
			fmt.Println("schema:", ch)
		}
		fmt.Printf("store: DynamoDB at %s, table %s\n", endpoint, table)
		s = wardrobe.NewDynamoStore(c, zone, func(o *wardrobe.Options) { o.TableName = table })
	}

	// AP-01, AP-02: create the wardrobe and open it.
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしのクローゼット"})
	if err != nil {
		return err
	}
	if w, err = s.GetWardrobe(ctx, w.ID); err != nil {
		return err
	}
	fmt.Printf("wardrobe %q\n", w.Name)
	wid := w.ID

	// AP-06: the clothes, some without an image.
	ids := map[string]string{} // name -> ID
	for _, c := range []wardrobe.NewClothing{
		{Name: "白シャツ", ImageKey: "clothes/white-shirt.jpg"},
		{Name: "ネイビージャケット", ImageKey: "clothes/navy-jacket.jpg"},
		{Name: "グレースラックス"},
		{Name: "デニム", ImageKey: "clothes/denim.jpg"},
		{Name: "ボーダーカットソー"},
		{Name: "白スニーカー", ImageKey: "clothes/white-sneakers.jpg"},
		{Name: "革ベルト", ImageKey: "clothes/leather-belt.jpg"},
		{Name: "トレンチコート", ImageKey: "clothes/trench-coat.jpg"},
	} {
		got, err := s.AddClothing(ctx, wid, c)
		if err != nil {
			return err
		}
		ids[got.Name] = got.ID
	}
	fmt.Println("added", len(ids), "clothes")
	outfit := func(ns ...string) []string {
		out := make([]string, len(ns))
		for i, n := range ns {
			out[i] = ids[n]
		}
		return out
	}

	// AP-11: two templates. The first has five clothes: four thumbnails
	// and a "+1" badge.
	office, err := s.AddTemplate(ctx, wid, wardrobe.NewTemplate{Name: "通勤スタイル",
		ClothingIDs: outfit("白シャツ", "ネイビージャケット", "グレースラックス", "革ベルト", "白スニーカー")})
	if err != nil {
		return err
	}
	weekend, err := s.AddTemplate(ctx, wid, wardrobe.NewTemplate{Name: "休日スタイル",
		ClothingIDs: outfit("ボーダーカットソー", "デニム", "白スニーカー")})
	if err != nil {
		return err
	}
	tplName := map[string]string{office.ID: office.Name, weekend.ID: weekend.Name}
	fmt.Printf("added templates %q (%d clothes) and %q (%d clothes)\n",
		office.Name, len(office.ClothingIDs), weekend.Name, len(weekend.ClothingIDs))

	// AP-16: a week of outfits, Monday 2026-01-05 to Sunday 2026-01-11. A
	// history names its clothes itself; TemplateID only records the
	// template worn.
	const monday wardrobe.Date = "20260105"
	day := func(n int) wardrobe.Date {
		d, err := monday.AddDays(n)
		if err != nil {
			panic(err) // monday is a valid date, and n small
		}
		return d
	}
	today := day(6)
	wearTemplate := func(t wardrobe.Template) wardrobe.NewHistory {
		return wardrobe.NewHistory{TemplateID: t.ID, ClothingIDs: t.ClothingIDs}
	}
	week := []wardrobe.NewHistory{
		wearTemplate(office),
		wearTemplate(office),
		{ClothingIDs: outfit("白シャツ", "デニム", "白スニーカー")},
		wearTemplate(office),
		{ClothingIDs: outfit("白シャツ", "ネイビージャケット", "デニム", "革ベルト", "白スニーカー")},
		wearTemplate(weekend),
		wearTemplate(weekend),
	}
	var last wardrobe.History
	for i, in := range week {
		in.Date = day(i)
		if last, err = s.AddHistory(ctx, wid, in); err != nil {
			return err
		}
	}
	// A second outfit on Wednesday evening: the day's counters reach 2.
	if _, err := s.AddHistory(ctx, wid, wardrobe.NewHistory{Date: day(2),
		ClothingIDs: outfit("ボーダーカットソー", "白スニーカー")}); err != nil {
		return err
	}
	fmt.Printf("recorded %d outfits, %s to %s\n", len(week)+1, show(monday), show(today))

	// AP-03: the home screen, the last seven days, latest first.
	if err := printHome(ctx, s, wid, today, tplName); err != nil {
		return err
	}

	// AP-04: the clothes by how often and by how recently they were worn.
	fmt.Println("most worn:")
	if err := printClothes(ctx, s, wid, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Descending: true}); err != nil {
		return err
	}
	fmt.Println("not worn recently:")
	if err := printClothes(ctx, s, wid, wardrobe.ListQuery{Order: wardrobe.OrderLastWornAt}); err != nil {
		return err
	}

	// AP-17: delete Sunday's history; the wear goes back, and the last
	// worn day moves to the day before.
	before, err := s.GetClothing(ctx, wid, ids["デニム"])
	if err != nil {
		return err
	}
	tplBefore, err := s.GetTemplate(ctx, wid, weekend.ID)
	if err != nil {
		return err
	}
	if err := s.DeleteHistory(ctx, wid, last.ID); err != nil {
		return err
	}
	after, err := s.GetClothing(ctx, wid, ids["デニム"])
	if err != nil {
		return err
	}
	fmt.Printf("deleted the history of %s: %s worn %d -> %d times, last worn %s -> %s\n", show(last.Date),
		after.Name, before.WearCount, after.WearCount, show(before.LastWornAt), show(after.LastWornAt))
	tplAfter, err := s.GetTemplate(ctx, wid, weekend.ID)
	if err != nil {
		return err
	}
	fmt.Printf("  %s worn %d -> %d times, last worn %s -> %s\n", tplAfter.Name, tplBefore.WearCount, tplAfter.WearCount,
		show(tplBefore.LastWornAt), show(tplAfter.LastWornAt))

	// AP-08: logically delete the jacket. Templates keep it, drawn with
	// the deleted overlay; a new outfit may not name it.
	jacket, err := s.DeleteClothing(ctx, wid, ids["ネイビージャケット"])
	if err != nil {
		return err
	}
	fmt.Printf("deleted %s (status %s)\n", jacket.Name, jacket.Status)
	// AP-09: the templates with their thumbnails.
	tpls, err := s.ListTemplates(ctx, wid, wardrobe.ListQuery{})
	if err != nil {
		return err
	}
	fmt.Println("templates:")
	for _, t := range tpls.Items {
		fmt.Printf("  %s worn %d  %s\n", pad(t.Name, 12), t.WearCount, thumbs(t.Thumbnails, t.More))
	}
	_, err = s.AddHistory(ctx, wid, wardrobe.NewHistory{Date: today, ClothingIDs: outfit("白シャツ", "ネイビージャケット")})
	var ve *ddbkit.ValidationError
	if errors.As(err, &ve) {
		fmt.Printf("wearing it again is refused: %s %s\n", ve.Field, ve.Reason)
	} else {
		return fmt.Errorf("wearing a deleted clothing: got %v, want a validation error", err)
	}
	deleted, err := s.ListClothes(ctx, wid, wardrobe.ListQuery{Status: wardrobe.StatusDeleted})
	if err != nil {
		return err
	}
	fmt.Println("deleted clothes:", len(deleted.Items))

	// The daily counters: the sneakers' wear this week.
	fmt.Println("白スニーカー by day:")
	trend, err := s.ListDailyWear(ctx, wid, wardrobe.KindClothing, ids["白スニーカー"], wardrobe.DailyQuery{From: monday, To: today})
	if err != nil {
		return err
	}
	for _, d := range trend.Items {
		fmt.Printf("  %s %s\n", show(d.Date), strings.Repeat("■", d.Count))
	}

	// The counters are the source of truth; the cached wearCount and
	// lastWornAt can be rebuilt from them.
	rep, err := s.RecalculateStats(ctx, wid)
	if err != nil {
		return err
	}
	fmt.Printf("recalculated stats: %d clothes and templates checked, %d drifted\n", rep.Checked, len(rep.Drifts))
	for _, d := range rep.Drifts {
		fmt.Printf("  %s %s: %d -> %d times\n", d.Kind, d.ID, d.WearCountWas, d.WearCount)
	}
	return nil
}

// printHome prints AP-03: the seven days up to today, latest first, each
// with the thumbnails of its first clothes and the "+x" badge.
func printHome(ctx context.Context, s wardrobe.Store, wid string, today wardrobe.Date, tplName map[string]string) error {
	fmt.Println("home, the last 7 days:")
	from, err := today.AddDays(-6)
	if err != nil {
		return err
	}
	q := wardrobe.HistoryQuery{From: from, To: today, Descending: true}
	for h, err := range ddbkit.All(func(cursor string) (ddbkit.Page[wardrobe.HistorySummary], error) {
		q.Cursor = cursor
		return s.ListHistory(ctx, wid, q)
	}) {
		if err != nil {
			return err
		}
		name := "(その日のコーデ)"
		if h.TemplateID != "" {
			name = tplName[h.TemplateID]
		}
		fmt.Printf("  %s %s %s\n", show(h.Date), pad(name, 18), thumbs(h.Thumbnails, h.More))
	}
	return nil
}

// printClothes prints every clothing of one listing, a page at a time.
func printClothes(ctx context.Context, s wardrobe.Store, wid string, opts wardrobe.ListQuery) error {
	opts.Limit = 5
	for c, err := range ddbkit.All(func(cursor string) (ddbkit.Page[wardrobe.Clothing], error) {
		opts.Cursor = cursor
		return s.ListClothes(ctx, wid, opts)
	}) {
		if err != nil {
			return err
		}
		lastWorn := "never"
		if c.LastWornAt != "" {
			lastWorn = show(c.LastWornAt)
		}
		fmt.Printf("  %s worn %d, last %s\n", pad(c.Name, 20), c.WearCount, lastWorn)
	}
	return nil
}

// thumbs draws thumbnails as the list screens do: the image, "no image",
// or the deleted overlay, then the "+x" badge.
func thumbs(ts []wardrobe.Thumbnail, more int) string {
	parts := make([]string, 0, len(ts)+1)
	for _, t := range ts {
		p := t.Name
		switch {
		case t.Deleted:
			p += "[削除済み]"
		case t.NoImage():
			p += "[no image]"
		}
		parts = append(parts, p)
	}
	if more > 0 {
		parts = append(parts, fmt.Sprintf("+%d", more))
	}
	return strings.Join(parts, " ")
}

// pad pads s with spaces to width columns of a terminal, where Japanese
// characters take two.
func pad(s string, width int) string {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x1100 {
			n++
		}
	}
	return s + strings.Repeat(" ", max(width-n, 1))
}

// show formats a date for the screen; "" is never.
func show(d wardrobe.Date) string {
	if d == "" {
		return "never"
	}
	t, err := d.Time()
	if err != nil {
		return string(d)
	}
	return t.Format("01/02 Mon")
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
