package wardrobe_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// stepClock makes the examples' createdAt values, and so their listings,
// deterministic: one second per write from 2026-01-01 09:00 UTC.
func stepClock(o *wardrobe.Options) {
	o.Clock = ddbkit.StepClock(time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC), time.Second)
}

func Example() {
	ctx := context.Background()
	s := wardrobe.NewMemoryStore(stepClock)
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしのクローゼット"})
	if err != nil {
		panic(err)
	}
	shirt, _ := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "白シャツ", ImageKey: "clothes/white-shirt.jpg"})
	denim, _ := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "デニム", ImageKey: "clothes/denim.jpg"})
	border, _ := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "ボーダーカットソー"})
	holiday, _ := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "休日スタイル",
		ClothingIDs: []string{border.ID, denim.ID}})

	// AP-16: what was worn. A history names its clothes; TemplateID
	// records the template worn.
	for _, in := range []wardrobe.NewHistory{
		{Date: "20260105", ClothingIDs: []string{shirt.ID, denim.ID}},
		{Date: "20260110", TemplateID: holiday.ID, ClothingIDs: holiday.ClothingIDs},
		{Date: "20260111", TemplateID: holiday.ID, ClothingIDs: holiday.ClothingIDs},
	} {
		if _, err := s.AddHistory(ctx, w.ID, in); err != nil {
			panic(err)
		}
	}

	// AP-03: the home screen's last week, latest first.
	today := wardrobe.Date("20260111")
	weekAgo, err := today.AddDays(-6)
	if err != nil {
		panic(err)
	}
	home, err := s.ListHistory(ctx, w.ID, wardrobe.HistoryQuery{From: weekAgo, To: today, Descending: true})
	if err != nil {
		panic(err)
	}
	for _, h := range home.Items {
		var names []string
		for _, t := range h.Thumbnails {
			names = append(names, t.Name)
		}
		fmt.Println(h.Date, h.TemplateID == holiday.ID, strings.Join(names, ","))
	}

	// AP-04: the clothes, most worn first.
	clothes, err := s.ListClothes(ctx, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Descending: true})
	if err != nil {
		panic(err)
	}
	for _, c := range clothes.Items {
		fmt.Println(c.Name, c.WearCount, c.LastWornAt)
	}
	// Output:
	// 20260111 true ボーダーカットソー,デニム
	// 20260110 true ボーダーカットソー,デニム
	// 20260105 false 白シャツ,デニム
	// デニム 3 20260111
	// ボーダーカットソー 2 20260111
	// 白シャツ 1 20260105
}

func ExampleMemoryStore_AddHistory() {
	ctx := context.Background()
	s := wardrobe.NewMemoryStore(stepClock)
	w, _ := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしのクローゼット"})
	shirt, _ := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "白シャツ"})
	show := func(what string) {
		c, err := s.GetClothing(ctx, w.ID, shirt.ID)
		if err != nil {
			panic(err)
		}
		last := "never"
		if c.LastWornAt != "" {
			last = string(c.LastWornAt)
		}
		fmt.Printf("%-14s worn %d, last %s\n", what, c.WearCount, last)
	}

	// Each history adds one wear to the clothing's daily counter, wear
	// count and last worn day, in one transaction on DynamoDB.
	var hs []wardrobe.History
	for _, d := range []wardrobe.Date{"20260105", "20260108", "20260108"} {
		h, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: d, ClothingIDs: []string{shirt.ID}})
		if err != nil {
			panic(err)
		}
		hs = append(hs, h)
	}
	show("after 3 adds:")
	days, _ := s.ListDailyWear(ctx, w.ID, wardrobe.KindClothing, shirt.ID, wardrobe.DailyQuery{})
	for _, d := range days.Items {
		fmt.Println("  ", d.Date, d.Count)
	}

	// AP-17: deleting a history takes its wear back. The last worn day
	// moves back only when its day loses its last wear.
	for _, h := range []wardrobe.History{hs[2], hs[1], hs[0]} {
		if err := s.DeleteHistory(ctx, w.ID, h.ID); err != nil {
			panic(err)
		}
		show("delete " + string(h.Date) + ":")
	}
	// Output:
	// after 3 adds:  worn 3, last 20260108
	//    20260105 1
	//    20260108 2
	// delete 20260108: worn 2, last 20260108
	// delete 20260108: worn 1, last 20260105
	// delete 20260105: worn 0, last never
}

func ExampleMemoryStore_ListTemplates() {
	ctx := context.Background()
	s := wardrobe.NewMemoryStore(stepClock)
	w, _ := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしのクローゼット"})
	var ids []string
	for _, c := range []wardrobe.NewClothing{
		{Name: "白シャツ", ImageKey: "clothes/white-shirt.jpg"},
		{Name: "ネイビージャケット", ImageKey: "clothes/navy-jacket.jpg"},
		{Name: "グレースラックス"}, // no image
		{Name: "革ベルト", ImageKey: "clothes/leather-belt.jpg"},
		{Name: "白スニーカー", ImageKey: "clothes/white-sneakers.jpg"},
		{Name: "トレンチコート", ImageKey: "clothes/trench-coat.jpg"},
	} {
		c, err := s.AddClothing(ctx, w.ID, c)
		if err != nil {
			panic(err)
		}
		ids = append(ids, c.ID)
	}
	if _, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "通勤スタイル", ClothingIDs: ids}); err != nil {
		panic(err)
	}
	// A template keeps the clothes deleted after it was saved, and draws
	// them with the deleted overlay.
	if _, err := s.DeleteClothing(ctx, w.ID, ids[1]); err != nil {
		panic(err)
	}

	// AP-09: the first ThumbnailCount clothes of each template, and the
	// "+x" badge for the rest.
	p, err := s.ListTemplates(ctx, w.ID, wardrobe.ListQuery{})
	if err != nil {
		panic(err)
	}
	for _, t := range p.Items {
		fmt.Println(t.Name)
		for _, th := range t.Thumbnails {
			fmt.Printf("  %s image=%q noImage=%v deleted=%v\n", th.Name, th.ImageKey, th.NoImage(), th.Deleted)
		}
		fmt.Printf("  +%d\n", t.More)
	}
	// Output:
	// 通勤スタイル
	//   白シャツ image="clothes/white-shirt.jpg" noImage=false deleted=false
	//   ネイビージャケット image="clothes/navy-jacket.jpg" noImage=false deleted=true
	//   グレースラックス image="" noImage=true deleted=false
	//   革ベルト image="clothes/leather-belt.jpg" noImage=false deleted=false
	//   +2
}

func ExampleMemoryStore_AddClothing_validation() {
	ctx := context.Background()
	s := wardrobe.NewMemoryStore()
	w, _ := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしのクローゼット"})

	// Names are at most MaxNameLen characters (not bytes).
	_, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: strings.Repeat("服", wardrobe.MaxNameLen+1)})
	var ve *ddbkit.ValidationError
	fmt.Println(errors.Is(err, ddbkit.ErrInvalidArgument), errors.As(err, &ve) && ve.Field == "Name")
	fmt.Println(err)

	// An outfit names at most MaxClothes clothes.
	ids := make([]string, wardrobe.MaxClothes+1)
	for i := range ids {
		ids[i] = fmt.Sprintf("c%02d", i)
	}
	_, err = s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "全部", ClothingIDs: ids})
	if errors.As(err, &ve) {
		fmt.Println(ve.Field, "-", ve.Reason)
	}

	// A clothing that is not ACTIVE in this wardrobe is refused too, and
	// the field names which one.
	c, _ := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "白シャツ"})
	_, _ = s.DeleteClothing(ctx, w.ID, c.ID)
	_, err = s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260105", ClothingIDs: []string{c.ID}})
	fmt.Println(errors.Is(err, ddbkit.ErrInvalidArgument), errors.As(err, &ve) && ve.Field == "ClothingIDs[0]")

	// An unknown wardrobe is not found.
	_, err = s.AddClothing(ctx, "no-such-wardrobe", wardrobe.NewClothing{Name: "白シャツ"})
	fmt.Println(errors.Is(err, ddbkit.ErrNotFound))
	// Output:
	// true true
	// wardrobe: add clothing: invalid argument: Name: must be at most 40 characters, got 41
	// ClothingIDs - must hold 1 to 20 clothes, got 21
	// true true
	// true
}

// ExampleMemoryStore_Import seeds a memory store with the seed's example
// items, raw, as the seed's app writes them (or as a Scan of a production
// table returns them), and reads them through the store; Export gives them
// back as DynamoStore writes them.
func ExampleMemoryStore_Import() {
	s := wardrobe.NewMemoryStore()
	const (
		w     = "wd_01HZZ8Q2K9N3V4X5Y6Z7A8B9C0"
		shirt = "cl_01HZZ8Q2KA0000000000000001"
	)
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	num := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	err := s.Import(ddbkit.TableItems{wardrobe.DefaultTableName: {
		{"PK": str("W#" + w), "SK": str("META"), "wardrobeId": str(w), "name": str("わたしの服"), "createdAt": num("1735690000123")},
		{"PK": str("W#" + w + "#CLOTH"), "SK": str("CLOTH#" + shirt), "clothingId": str(shirt),
			"name": str("白シャツ"), "status": str("ACTIVE"), "imageKey": str("images/shirt.jpg"),
			"wearCount": num("1"), "lastWornAt": num("1767139200000"), "createdAt": num("1735690000123"),
			"deletedAt":    &types.AttributeValueMemberNULL{Value: true},
			"statusListPk": str("W#" + w + "#CLOTH#ACTIVE"), "createdAtSk": str("CREATED#1735690000123#" + shirt),
			"wearCountSk": str("WEAR#0000000001#" + shirt), "lastWornAtSk": str("LASTWORN#1767139200000#" + shirt)},
		{"PK": str("W#" + w + "#COUNT#CLOTH#" + shirt), "SK": str("DATE#20251231"), "date": str("20251231"), "count": num("1")},
	}})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	p, err := s.ListClothes(ctx, w, wardrobe.ListQuery{})
	if err != nil {
		panic(err)
	}
	for _, c := range p.Items {
		fmt.Println(c.Name, c.ImageKey, c.WearCount, c.LastWornAt)
	}
	rep, err := s.RecalculateStats(ctx, w)
	fmt.Println(rep.Checked, len(rep.Drifts), err)

	// A bad item is refused, naming it, and nothing is imported.
	err = s.Import(ddbkit.TableItems{wardrobe.DefaultTableName: {
		{"PK": str("W#" + w + "#CLOTH"), "SK": str("CLOTH#cl_2"), "name": str("壊れた服"), "status": str("ARCHIVED")},
	}})
	fmt.Println(errors.Is(err, ddbkit.ErrCorruptItem))
	fmt.Println(len(s.Export()[wardrobe.DefaultTableName]), "items")
	// Output:
	// 白シャツ images/shirt.jpg 1 20251231
	// 1 0 <nil>
	// true
	// 3 items
}
