package wardrobe_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/schema"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// The seed's app stores dates as Japan's midnights (dateToEpochMs in the
// app's zone). A fixed zone keeps the tests free of the tz database.
var jst = time.FixedZone("JST", 9*60*60)

// jstMidnight is the app's dateToEpochMs of d.
func jstMidnight(d string) int64 {
	t, err := time.ParseInLocation("20060102", d, jst)
	if err != nil {
		panic(err)
	}
	return t.UnixMilli()
}

// appTable creates the table as the seed's app has it: PK and SK, and the
// seed's four GSIs, written out here from the seed rather than taken from
// wardrobe.Definition.
func appTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	s := types.ScalarAttributeTypeS
	attr := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: s}
	}
	key := func(pk, sk string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}}
	}
	gsi := func(name, pk, sk string) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: key(pk, sk),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
	}
	return ddbtest.NewTable(t, c, &dynamodb.CreateTableInput{
		TableName: aws.String("WardrobeTable"),
		AttributeDefinitions: []types.AttributeDefinition{attr("PK"), attr("SK"), attr("statusListPk"),
			attr("createdAtSk"), attr("wearCountSk"), attr("lastWornAtSk"), attr("dateSk")},
		KeySchema: key("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			gsi("StatusListByCreatedAt", "statusListPk", "createdAtSk"),
			gsi("StatusListByWearCount", "statusListPk", "wearCountSk"),
			gsi("StatusListByLastWornAt", "statusListPk", "lastWornAtSk"),
			gsi("HistoryByDate", "PK", "dateSk"),
		},
	})
}

type item = map[string]types.AttributeValue

func putRaw(t *testing.T, c *dynamodb.Client, table string, items ...item) {
	t.Helper()
	for _, it := range items {
		if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("PutItem %v: %v", render(it), err)
		}
	}
}

// appWorn is a clothing or template as the seed's app writes it: with its
// index keys, without statsVersion. kind is "CLOTH" or "TPL".
func appWorn(wid, kind, id, name, status string, wear int, lastDay string, created int64) item {
	last := int64(0)
	if lastDay != "" {
		last = jstMidnight(lastDay)
	}
	idAttr := map[string]string{"CLOTH": "clothingId", "TPL": "templateId"}[kind]
	it := item{
		"PK": S("W#" + wid + "#" + kind), "SK": S(kind + "#" + id), idAttr: S(id), "name": S(name), "status": S(status),
		"wearCount": N(int64(wear)), "lastWornAt": N(last), "createdAt": N(created), "deletedAt": null,
		"statusListPk": S("W#" + wid + "#" + kind + "#" + status),
		"createdAtSk":  S(fmt.Sprintf("CREATED#%013d#%s", created, id)),
		"wearCountSk":  S(fmt.Sprintf("WEAR#%010d#%s", wear, id)),
		"lastWornAtSk": S(fmt.Sprintf("LASTWORN#%013d#%s", last, id)),
	}
	return it
}

func appHistory(wid, id, date string, created int64, templateID types.AttributeValue, clothes ...string) item {
	it := item{"PK": S("W#" + wid + "#HIST"), "SK": S("HIST#" + id), "historyId": S(id), "createdAt": N(created),
		"date": S(date), "clothingIds": L(clothes...), "dateSk": S("DATE#" + date + "#" + id)}
	if templateID != nil {
		it["templateId"] = templateID
	}
	return it
}

func appCounter(wid, kind, id, date string, n int) item {
	return item{"PK": S("W#" + wid + "#COUNT#" + kind + "#" + id), "SK": S("DATE#" + date), "date": S(date), "count": N(int64(n))}
}

// The seed's example IDs (a prefix and a ULID), and UUIDv7s as the seed's
// ID section says, side by side.
const (
	lwID    = "wd_01HZZ8Q2K9N3V4X5Y6Z7A8B9C0"
	shirtID = "cl_01HZZ8Q2KA0000000000000001"
	denimID = "cl_01HZZ8Q2KB0000000000000002"
	coatID  = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b" // UUIDv7, DELETED
	isoID   = "0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2c" // UUIDv7, timestamps as ISO strings
	badID   = "cl_01HZZ8Q2KZ000000000000000X"        // corrupt: an unknown status
	tplID   = "tp_01HZZ8Q2KC0000000000000003"
	hist1   = "hs_01HZZ8Q2KD0000000000000004"
	hist2   = "hs_01HZZ8Q2KE0000000000000005"
	hist3   = "hs_01HZZ8Q2KF0000000000000006"
	histBad = "hs_01HZZ8Q2KG0000000000000007"
	wd2     = "wd_01HZZ8Q2M00000000000000008"
	scarfID = "cl_01HZZ8Q2M10000000000000009"
	histA   = "hs_01HZZ8Q2M2000000000000000A"
	histB   = "hs_01HZZ8Q2M3000000000000000B"
)

// legacyTable creates the app's table and fills it with the app's items:
// a wardrobe, clothes (one with every attribute as the seed's examples
// have them, one without optional attributes, one DELETED, one with ISO
// 8601 times, one corrupt), a template, three histories with their daily
// counters (20260101: template + shirt + denim; 20260103: shirt; 20260103:
// denim), and a corrupt history. All dates are Japan's midnights.
func legacyTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	table := appTable(t, c)
	good, corrupt := legacyItems()
	putRaw(t, c, table, good...)
	putRaw(t, c, table, corrupt...)
	return table
}

// legacyItems are the items legacyTable puts: those DynamoStore reads, and
// the corrupt ones (a clothing with an unknown status, a history whose
// clothingIds is a Number).
func legacyItems() (good, corrupt []item) {
	const created = 1735690000123 // the seed's example
	shirt := appWorn(lwID, "CLOTH", shirtID, "白シャツ", "ACTIVE", 2, "20260103", created)
	shirt["imageKey"] = S("images/shirt.jpg")
	denim := appWorn(lwID, "CLOTH", denimID, "デニム", "ACTIVE", 2, "20260103", created+1)
	delete(denim, "deletedAt") // optional: missing instead of NULL
	delete(denim, "clothingId")
	coat := appWorn(lwID, "CLOTH", coatID, "コート", "DELETED", 0, "", created+2)
	coat["deletedAt"] = N(created + 100)
	iso := appWorn(lwID, "CLOTH", isoID, "帽子", "ACTIVE", 0, "", created+3)
	iso["createdAt"] = S("2024-01-05T19:00:00+09:00")
	delete(iso, "wearCount")
	delete(iso, "lastWornAt")
	bad := appWorn(lwID, "CLOTH", badID, "壊れた服", "ACTIVE", 0, "", created+4)
	bad["status"] = S("ARCHIVED")
	tpl := appWorn(lwID, "TPL", tplID, "休日", "ACTIVE", 1, "20260101", created+5)
	tpl["clothingIds"] = L(shirtID, denimID, coatID)
	good = append(good,
		item{"PK": S("W#" + lwID), "SK": S("META"), "wardrobeId": S(lwID), "name": S("わたしの服"), "createdAt": N(created)},
		shirt, denim, coat, iso, tpl,
		appHistory(lwID, hist1, "20260101", created+10, S(tplID), shirtID, denimID),
		appHistory(lwID, hist2, "20260103", created+11, null, shirtID),
		appHistory(lwID, hist3, "20260103", created+12, nil, denimID),
		appCounter(lwID, "TPL", tplID, "20260101", 1),
		appCounter(lwID, "CLOTH", shirtID, "20260101", 1),
		appCounter(lwID, "CLOTH", shirtID, "20260103", 1),
		appCounter(lwID, "CLOTH", denimID, "20260101", 1),
		appCounter(lwID, "CLOTH", denimID, "20260103", 1),
	)
	h := appHistory(lwID, histBad, "20260102", created+13, nil, shirtID)
	h["clothingIds"] = N(3)
	corrupt = append(corrupt, bad, h)

	// Another wardrobe: a scarf whose lastWornAt is not a midnight but the
	// instant it was worn on its latest day, an app's history whose date is
	// ISO 8601's extended form, and one without a date attribute at all
	// (its dateSk says it).
	scarf := appWorn(wd2, "CLOTH", scarfID, "マフラー", "ACTIVE", 2, "20260103", created)
	scarf["lastWornAt"] = N(jstMidnight("20260103") + (10*60+30)*60*1000)
	ha := appHistory(wd2, histA, "20260101", created+1, nil, scarfID)
	ha["date"] = S("2026-01-01")
	hb := appHistory(wd2, histB, "20260103", created+2, nil, scarfID)
	delete(hb, "date")
	good = append(good,
		item{"PK": S("W#" + wd2), "SK": S("META"), "wardrobeId": S(wd2), "name": S("冬物"), "createdAt": N(created)},
		scarf, ha, hb,
		appCounter(wd2, "CLOTH", scarfID, "20260101", 1),
		appCounter(wd2, "CLOTH", scarfID, "20260103", 1),
	)
	return good, corrupt
}

// TestLegacyTable runs every read access pattern, and the main writes, on
// a table filled the way the seed's app fills it.
func TestLegacyTable(t *testing.T) {
	c := ddbtest.Client(t)
	table := legacyTable(t, c)
	ctx := t.Context()
	changes, err := wardrobe.EnsureTable(ctx, c, table)
	if err != nil || len(changes) != 0 {
		t.Fatalf("EnsureTable on the app's table = %v, %v; want no change", changes, err)
	}
	s := wardrobe.NewDynamoStore(c, legacyOptions(table))
	legacyChecks(t, s, table, true, func(pk, sk string) item { return rawItem(t, c, table, pk, sk) })
}

// TestLegacyItemsOnMemory imports the items of the legacy fixture into a
// memory store and runs the same checks on it: it reads them as
// DynamoStore does. The corrupt items cannot be imported: Import refuses
// them with ErrCorruptItem naming table, key and attribute, and imports
// nothing else of the call.
func TestLegacyItemsOnMemory(t *testing.T) {
	const table = "WardrobeTable"
	s := wardrobe.NewMemoryStore(legacyOptions(table))
	good, corrupt := legacyItems()
	for i, bad := range corrupt {
		err := s.Import(ddbkit.TableItems{table: append(slices.Clone(good), bad)})
		ddbtest.WantSentinel(t, fmt.Sprint("Import(corrupt ", i, ")"), err, ddbkit.ErrCorruptItem)
		var ce *ddbkit.CorruptItemError
		if !errors.As(err, &ce) || ce.Table != table || !strings.Contains(ce.Key, bad["SK"].(*types.AttributeValueMemberS).Value) ||
			ce.Attr != map[int]string{0: "status", 1: "clothingIds"}[i] {
			t.Fatalf("Import(corrupt %d) = %v; want a *ddbkit.CorruptItemError naming %s, its key and attribute", i, err, table)
		}
		if n := len(s.Export()[table]); n != 0 {
			t.Fatalf("a failed Import left %d items", n)
		}
	}
	err := s.Import(ddbkit.TableItems{"OtherTable": good})
	ddbtest.WantSentinel(t, "Import(another table)", err, ddbkit.ErrInvalidArgument)
	if err := s.Import(ddbkit.TableItems{table: good}); err != nil {
		t.Fatalf("Import: %v", err)
	}
	if got := len(s.Export()[table]); got != len(good) {
		t.Fatalf("Export after Import: %d items, want %d", got, len(good))
	}
	legacyChecks(t, s, table, false, func(pk, sk string) item {
		for _, it := range s.Export()[table] {
			if it["PK"].(*types.AttributeValueMemberS).Value == pk && it["SK"].(*types.AttributeValueMemberS).Value == sk {
				return it
			}
		}
		return nil
	})
}

func legacyOptions(table string) func(*wardrobe.Options) {
	clock := ddbkit.StepClock(time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC), time.Second)
	return func(o *wardrobe.Options) {
		o.TableName, o.Location, o.Clock = table, jst, clock
		o.NewID = ddbkit.SeededUUIDv7s(7, clock)
	}
}

// legacyChecks runs every read access pattern, and the main writes, on a
// store holding legacyItems: with the corrupt ones when corrupt is set
// (DynamoStore on the app's table), without them otherwise (a memory
// store, which cannot hold them). raw reads a stored item.
func legacyChecks(t *testing.T, s wardrobe.Store, table string, corrupt bool, raw func(pk, sk string) item) {
	ctx := t.Context()
	skipped := 0
	if corrupt {
		skipped = 1
	}
	createdAt := time.UnixMilli(1735690000123).UTC()

	// AP-02.
	w, err := s.GetWardrobe(ctx, lwID)
	if err != nil || w != (wardrobe.Wardrobe{ID: lwID, Name: "わたしの服", CreatedAt: createdAt}) {
		t.Fatalf("GetWardrobe = %+v, %v", w, err)
	}

	// AP-05: IDs from the keys, optional attributes missing, ISO times,
	// lastWornAt as Japan's day.
	wantClothing := map[string]wardrobe.Clothing{
		shirtID: {ID: shirtID, WardrobeID: lwID, Name: "白シャツ", Status: wardrobe.StatusActive, ImageKey: "images/shirt.jpg",
			WearCount: 2, LastWornAt: "20260103", CreatedAt: createdAt},
		denimID: {ID: denimID, WardrobeID: lwID, Name: "デニム", Status: wardrobe.StatusActive,
			WearCount: 2, LastWornAt: "20260103", CreatedAt: createdAt.Add(time.Millisecond)},
		coatID: {ID: coatID, WardrobeID: lwID, Name: "コート", Status: wardrobe.StatusDeleted,
			CreatedAt: createdAt.Add(2 * time.Millisecond), DeletedAt: createdAt.Add(100 * time.Millisecond)},
		isoID: {ID: isoID, WardrobeID: lwID, Name: "帽子", Status: wardrobe.StatusActive,
			CreatedAt: time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC)},
	}
	for id, want := range wantClothing {
		if got, err := s.GetClothing(ctx, lwID, id); err != nil || got != want {
			t.Errorf("GetClothing(%s) =\n %+v, %v\nwant\n %+v", id, got, err, want)
		}
	}
	// A corrupt item: ErrCorruptItem naming the table, key and attribute.
	if corrupt {
		_, err = s.GetClothing(ctx, lwID, badID)
		ddbtest.WantSentinel(t, "GetClothing(corrupt)", err, ddbkit.ErrCorruptItem)
		var ce *ddbkit.CorruptItemError
		if !errors.As(err, &ce) || ce.Attr != "status" || ce.Table != table || !strings.Contains(ce.Key, badID) {
			t.Fatalf("GetClothing(corrupt) = %v; want a *ddbkit.CorruptItemError naming %s, its key and status", err, table)
		}
	}

	// AP-04: every order, both directions; the corrupt item is skipped and
	// reported.
	byCreated := []string{shirtID, denimID, isoID}
	for _, tc := range []struct {
		o    wardrobe.Order
		desc bool
		want []string
	}{
		{wardrobe.OrderCreatedAt, false, byCreated},
		{wardrobe.OrderCreatedAt, true, []string{isoID, denimID, shirtID}},
		{wardrobe.OrderWearCount, true, sortedDesc(map[string]int{shirtID: 2, denimID: 2, isoID: 0})},
		{wardrobe.OrderLastWornAt, false, []string{isoID, shirtID, denimID}},
	} {
		p, err := s.ListClothes(ctx, lwID, wardrobe.ListQuery{Order: tc.o, Descending: tc.desc})
		if err != nil || !slices.Equal(clothingIDs(p.Items), tc.want) || p.Next != "" {
			t.Errorf("ListClothes(%s, desc=%v) = %v next %q, %v; want %v", tc.o, tc.desc, clothingIDs(p.Items), p.Next, err, tc.want)
		}
		if len(p.Skipped) != skipped || corrupt && (!errors.Is(p.Skipped[0], ddbkit.ErrCorruptItem) || !strings.Contains(p.Skipped[0].Error(), badID)) {
			t.Errorf("ListClothes(%s).Skipped = %v; want the corrupt clothing", tc.o, p.Skipped)
		}
		for _, got := range p.Items {
			if got != wantClothing[got.ID] {
				t.Errorf("listed %+v, want %+v", got, wantClothing[got.ID])
			}
		}
	}
	// Pages of one: the corrupt item takes its place in a page.
	var paged []string
	var pagedSkipped int
	for cursor := ""; ; {
		p, err := s.ListClothes(ctx, lwID, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: 1, Cursor: cursor}})
		if err != nil {
			t.Fatal(err)
		}
		paged, pagedSkipped = append(paged, clothingIDs(p.Items)...), pagedSkipped+len(p.Skipped)
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	if !slices.Equal(paged, byCreated) || pagedSkipped != skipped {
		t.Fatalf("ListClothes a page of one at a time = %v, %d skipped; want %v, %d", paged, pagedSkipped, byCreated, skipped)
	}
	p, err := s.ListClothes(ctx, lwID, wardrobe.ListQuery{Status: wardrobe.StatusDeleted})
	if err != nil || len(p.Items) != 1 || p.Items[0] != wantClothing[coatID] {
		t.Fatalf("ListClothes(DELETED) = %+v, %v", p.Items, err)
	}

	// AP-10 and AP-09.
	wantTpl := wardrobe.Template{ID: tplID, WardrobeID: lwID, Name: "休日", Status: wardrobe.StatusActive,
		ClothingIDs: []string{shirtID, denimID, coatID}, WearCount: 1, LastWornAt: "20260101", CreatedAt: createdAt.Add(5 * time.Millisecond)}
	if got, err := s.GetTemplate(ctx, lwID, tplID); err != nil || fmt.Sprint(got) != fmt.Sprint(wantTpl) {
		t.Fatalf("GetTemplate = %+v, %v; want %+v", got, err, wantTpl)
	}
	tp, err := s.ListTemplates(ctx, lwID, wardrobe.ListQuery{Order: wardrobe.OrderLastWornAt, Descending: true})
	wantThumbs := []wardrobe.Thumbnail{{ClothingID: shirtID, Name: "白シャツ", ImageKey: "images/shirt.jpg"},
		{ClothingID: denimID, Name: "デニム"}, {ClothingID: coatID, Name: "コート", Deleted: true}}
	if err != nil || len(tp.Items) != 1 || fmt.Sprint(tp.Items[0].Template) != fmt.Sprint(wantTpl) ||
		fmt.Sprint(tp.Items[0].Thumbnails) != fmt.Sprint(wantThumbs) || tp.Items[0].More != 0 {
		t.Fatalf("ListTemplates = %+v, %v", tp.Items, err)
	}

	// AP-15, AP-03 and AP-14; the corrupt history is skipped.
	d, err := s.GetHistory(ctx, lwID, hist1)
	if err != nil || d.Date != "20260101" || d.TemplateID != tplID || !slices.Equal(d.ClothingIDs, []string{shirtID, denimID}) ||
		len(d.Clothes) != 2 || d.Clothes[0].ImageKey != "images/shirt.jpg" || !d.CreatedAt.Equal(createdAt.Add(10*time.Millisecond)) {
		t.Fatalf("GetHistory = %+v, %v", d, err)
	}
	for _, id := range []string{hist2, hist3} {
		if d, err := s.GetHistory(ctx, lwID, id); err != nil || d.TemplateID != "" || d.Date != "20260103" {
			t.Fatalf("GetHistory(%s, no template) = %+v, %v", id, d, err)
		}
	}
	if corrupt {
		_, err = s.GetHistory(ctx, lwID, histBad)
		ddbtest.WantSentinel(t, "GetHistory(corrupt)", err, ddbkit.ErrCorruptItem)
	}
	hp, err := s.ListHistory(ctx, lwID, wardrobe.HistoryQuery{From: "20260101", To: "20260107", Descending: true})
	if err != nil || !slices.Equal(historyIDs(hp.Items), []string{hist3, hist2, hist1}) || len(hp.Skipped) != skipped ||
		corrupt && !errors.Is(hp.Skipped[0], ddbkit.ErrCorruptItem) {
		t.Fatalf("ListHistory(the week) = %v skipped %v, %v; want %v and the corrupt history", historyIDs(hp.Items), hp.Skipped, err, []string{hist3, hist2, hist1})
	}

	// Daily counters.
	dw, err := s.ListDailyWear(ctx, lwID, wardrobe.KindClothing, shirtID, wardrobe.DailyQuery{})
	if err != nil || fmt.Sprint(dw.Items) != "[{20260101 1} {20260103 1}]" {
		t.Fatalf("ListDailyWear(shirt) = %+v, %v", dw.Items, err)
	}

	// The app's statistics, in Japan's days, agree with its counters:
	// nothing to repair, the corrupt clothing reported.
	rep, err := s.RecalculateStats(ctx, lwID)
	if err != nil || len(rep.Drifts) != 0 || rep.Checked != 5 || len(rep.Skipped) != skipped {
		t.Fatalf("RecalculateStats = %+v, %v; want 5 checked, no drift, the corrupt clothing skipped", rep, err)
	}

	// Writes over the app's items. AP-16 on an item without statsVersion.
	h, err := s.AddHistory(ctx, lwID, wardrobe.NewHistory{Date: "20260105", TemplateID: tplID, ClothingIDs: []string{shirtID, isoID}})
	if err != nil {
		t.Fatalf("AddHistory: %v", err)
	}
	shirtRaw := raw("W#"+lwID+"#CLOTH", "CLOTH#"+shirtID)
	if got, want := renderValue(shirtRaw["lastWornAt"]), fmt.Sprint("N:", jstMidnight("20260105")); got != want {
		t.Fatalf("lastWornAt written %s, want %s (Japan's midnight)", got, want)
	}
	if got := renderValue(shirtRaw["statsVersion"]); got != "N:1" {
		t.Fatalf("statsVersion written %s, want N:1", got)
	}
	wantStats := func(kind wardrobe.Kind, id string, n int, last wardrobe.Date) {
		t.Helper()
		var got int
		var day wardrobe.Date
		if kind == wardrobe.KindTemplate {
			tp, err := s.GetTemplate(ctx, lwID, id)
			if err != nil {
				t.Fatal(err)
			}
			got, day = tp.WearCount, tp.LastWornAt
		} else {
			c, err := s.GetClothing(ctx, lwID, id)
			if err != nil {
				t.Fatal(err)
			}
			got, day = c.WearCount, c.LastWornAt
		}
		if got != n || day != last {
			t.Fatalf("%s %s: wearCount %d, last worn %q; want %d, %q", kind, id, got, day, n, last)
		}
	}
	wantStats(wardrobe.KindClothing, shirtID, 3, "20260105")
	wantStats(wardrobe.KindClothing, isoID, 1, "20260105")
	wantStats(wardrobe.KindTemplate, tplID, 2, "20260105")

	if err := s.DeleteHistory(ctx, lwID, h.ID); err != nil {
		t.Fatalf("DeleteHistory(ddbkit's): %v", err)
	}
	wantStats(wardrobe.KindClothing, shirtID, 2, "20260103")
	// AP-17 of the app's history on the denim's latest day, whose
	// lastWornAt the app wrote: the day before with a wear, found by
	// Japan's day, not by exact ms.
	if err := s.DeleteHistory(ctx, lwID, hist3); err != nil {
		t.Fatalf("DeleteHistory(the app's, on the denim's latest day): %v", err)
	}
	wantStats(wardrobe.KindClothing, denimID, 1, "20260101")
	if got := renderValue(raw("W#"+lwID+"#CLOTH", "CLOTH#"+denimID)["lastWornAt"]); got != fmt.Sprint("N:", jstMidnight("20260101")) {
		t.Fatalf("lastWornAt recomputed to %s, want Japan's midnight of 20260101", got)
	}
	if err := s.DeleteHistory(ctx, lwID, hist2); err != nil {
		t.Fatalf("DeleteHistory(the app's, on the shirt's latest day): %v", err)
	}
	wantStats(wardrobe.KindClothing, shirtID, 1, "20260101")
	if err := s.DeleteHistory(ctx, lwID, hist1); err != nil {
		t.Fatalf("DeleteHistory(the app's, with its template): %v", err)
	}
	wantStats(wardrobe.KindTemplate, tplID, 0, "")
	wantStats(wardrobe.KindClothing, shirtID, 0, "")
	wantStats(wardrobe.KindClothing, denimID, 0, "")
	wantStats(wardrobe.KindClothing, isoID, 0, "")

	// AP-07, AP-08, AP-12 and AP-13 on the app's items.
	if got, err := s.UpdateClothing(ctx, lwID, denimID, wardrobe.ClothingPatch{ImageKey: ptr("images/denim.jpg")}); err != nil ||
		got.ImageKey != "images/denim.jpg" || got.WearCount != 0 || got.LastWornAt != "" {
		t.Fatalf("UpdateClothing = %+v, %v", got, err)
	}
	if got, err := s.RestoreClothing(ctx, lwID, coatID); err != nil || got.Status != wardrobe.StatusActive || !got.DeletedAt.IsZero() {
		t.Fatalf("RestoreClothing = %+v, %v", got, err)
	}
	if got, err := s.DeleteClothing(ctx, lwID, denimID); err != nil || got.Status != wardrobe.StatusDeleted {
		t.Fatalf("DeleteClothing = %+v, %v", got, err)
	}
	if got, err := s.UpdateTemplate(ctx, lwID, tplID, wardrobe.TemplatePatch{ClothingIDs: []string{coatID, shirtID}}); err != nil ||
		!slices.Equal(got.ClothingIDs, []string{coatID, shirtID}) || got.Name != "休日" {
		t.Fatalf("UpdateTemplate = %+v, %v", got, err)
	}
	if _, err := s.DeleteTemplate(ctx, lwID, tplID); err != nil {
		t.Fatalf("DeleteTemplate: %v", err)
	}
	// AP-06, AP-11 among the app's items.
	nc, err := s.AddClothing(ctx, lwID, wardrobe.NewClothing{Name: "新しい服"})
	if err != nil {
		t.Fatalf("AddClothing: %v", err)
	}
	if _, err := s.AddTemplate(ctx, lwID, wardrobe.NewTemplate{Name: "新しいテンプレ", ClothingIDs: []string{nc.ID, coatID}}); err != nil {
		t.Fatalf("AddTemplate: %v", err)
	}
	p, err = s.ListClothes(ctx, lwID, wardrobe.ListQuery{})
	if err != nil || !slices.Equal(clothingIDs(p.Items), []string{shirtID, coatID, isoID, nc.ID}) {
		t.Fatalf("ListClothes after the writes = %v, %v", clothingIDs(p.Items), err)
	}
	rep, err = s.RecalculateStats(ctx, lwID)
	if err != nil || len(rep.Drifts) != 0 || rep.Checked != 7 || len(rep.Skipped) != skipped {
		t.Fatalf("RecalculateStats after the writes = %+v, %v; want 7 checked, no drift, one skipped", rep, err)
	}

	// The scarf: its lastWornAt is an instant of Japan's 2026-01-03, so it
	// reads as that day, and RecalculateStats leaves it alone.
	if got, err := s.GetClothing(ctx, wd2, scarfID); err != nil || got.LastWornAt != "20260103" || got.WearCount != 2 {
		t.Fatalf("GetClothing(scarf) = %+v, %v; want worn twice, last on 20260103", got, err)
	}
	if hp, err := s.ListHistory(ctx, wd2, wardrobe.HistoryQuery{}); err != nil || fmt.Sprint(historyDates(hp.Items)) != "[20260101 20260103]" {
		t.Fatalf("ListHistory(scarf) = %+v, %v; want the dates 20260101 and 20260103", hp.Items, err)
	}
	scarfBefore := raw("W#"+wd2+"#CLOTH", "CLOTH#"+scarfID)
	if rep, err := s.RecalculateStats(ctx, wd2); err != nil || rep.Checked != 1 || len(rep.Drifts) != 0 {
		t.Fatalf("RecalculateStats(scarf) = %+v, %v; want no drift", rep, err)
	}
	checkItem(t, "scarf after RecalculateStats", raw("W#"+wd2+"#CLOTH", "CLOTH#"+scarfID), scarfBefore)
	// AP-17 of its latest day: its last worn day moves back, by day.
	if err := s.DeleteHistory(ctx, wd2, histB); err != nil {
		t.Fatalf("DeleteHistory(scarf's latest day): %v", err)
	}
	if got, err := s.GetClothing(ctx, wd2, scarfID); err != nil || got.LastWornAt != "20260101" || got.WearCount != 1 {
		t.Fatalf("GetClothing(scarf) after DeleteHistory = %+v, %v; want worn once, last on 20260101", got, err)
	}
}

func historyDates(hs []wardrobe.HistorySummary) []wardrobe.Date {
	out := make([]wardrobe.Date, len(hs))
	for i, h := range hs {
		out[i] = h.Date
	}
	return out
}

func clothingIDs(cs []wardrobe.Clothing) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

func historyIDs(hs []wardrobe.HistorySummary) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.ID
	}
	return out
}

// sortedDesc orders IDs by count, most first, ties by ID descending (the
// WEAR# key ends with the ID).
func sortedDesc(counts map[string]int) []string {
	var ids []string
	for id := range counts {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(b, a)
	})
	return ids
}

// appWear is the seed's AP-16 as the app runs it, raw: one transaction
// that puts the history, adds 1 to each item's daily counter, and adds 1 to
// each item's wearCount (ADD, knowing nothing of statsVersion) with
// lastWornAt = max(lastWornAt, dateToEpochMs(date)) and the index keys.
func appWear(t *testing.T, c *dynamodb.Client, table, wid, histID, date string, created int64, kind string, ids ...string) {
	t.Helper()
	ctx := t.Context()
	tbl := aws.String(table)
	var tx []types.TransactWriteItem
	hist := appHistory(wid, histID, date, created, nil, ids...)
	if kind == "TPL" {
		hist = appHistory(wid, histID, date, created, S(ids[0]))
	}
	tx = append(tx, types.TransactWriteItem{Put: &types.Put{TableName: tbl, Item: hist}})
	for _, id := range ids {
		pk, sk := "W#"+wid+"#"+kind, kind+"#"+id
		cur := rawItem(t, c, table, pk, sk)
		var n, last int64
		fmt.Sscan(cur["wearCount"].(*types.AttributeValueMemberN).Value, &n)
		fmt.Sscan(cur["lastWornAt"].(*types.AttributeValueMemberN).Value, &last)
		last = max(last, jstMidnight(date))
		tx = append(tx,
			types.TransactWriteItem{Update: &types.Update{TableName: tbl,
				Key:                       item{"PK": S("W#" + wid + "#COUNT#" + kind + "#" + id), "SK": S("DATE#" + date)},
				UpdateExpression:          aws.String("ADD #c :one SET #d = :date"),
				ExpressionAttributeNames:  map[string]string{"#c": "count", "#d": "date"},
				ExpressionAttributeValues: item{":one": N(1), ":date": S(date)}}},
			types.TransactWriteItem{Update: &types.Update{TableName: tbl, Key: item{"PK": S(pk), "SK": S(sk)},
				UpdateExpression: aws.String("ADD wearCount :one SET lastWornAt = :last, wearCountSk = :wsk, lastWornAtSk = :lsk"),
				ExpressionAttributeValues: item{":one": N(1), ":last": N(last),
					":wsk": S(fmt.Sprintf("WEAR#%010d#%s", n+1, id)), ":lsk": S(fmt.Sprintf("LASTWORN#%013d#%s", last, id))}}})
	}
	if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx}); err != nil {
		t.Fatalf("the app's wear of %v on %s: %v", ids, date, err)
	}
}

// TestForeignWriterWear lands the app's wear (a raw ADD wearCount that
// knows nothing of statsVersion) between ddbkit's read and its
// transaction, in AddHistory and in DeleteHistory: the transaction's
// condition on the wearCount and lastWornAt it read fails, it reads again,
// and no wear is lost; the statistics agree with the daily counters.
func TestForeignWriterWear(t *testing.T) {
	c := ddbtest.Client(t)
	table := legacyTable(t, c)
	ctx := t.Context()
	fc := ddbtest.NewFaultClient(c)
	s := wardrobe.NewDynamoStore(fc, func(o *wardrobe.Options) { o.TableName, o.Location = table, jst })
	wantStats := func(what string, n int, last wardrobe.Date, days string) {
		t.Helper()
		got, err := s.GetClothing(ctx, lwID, denimID)
		if err != nil || got.WearCount != n || got.LastWornAt != last {
			t.Fatalf("%s: denim %+v, %v; want worn %d times, last on %s", what, got, err, n, last)
		}
		p, err := s.ListDailyWear(ctx, lwID, wardrobe.KindClothing, denimID, wardrobe.DailyQuery{})
		if err != nil || fmt.Sprint(p.Items) != days {
			t.Fatalf("%s: denim's counters %v, %v; want %s", what, p.Items, err, days)
		}
		rep, err := s.RecalculateStats(ctx, lwID)
		if err != nil || len(rep.Drifts) != 0 {
			t.Fatalf("%s: RecalculateStats = %+v, %v; want no drift", what, rep, err)
		}
	}
	wantStats("before", 2, "20260103", "[{20260101 1} {20260103 1}]")

	// The app wears the denim on the 7th while AddHistory wears it on the
	// 5th.
	fc.Before("TransactWriteItems", func() { appWear(t, c, table, lwID, "hs_app_0107", "20260107", 1767700000000, "CLOTH", denimID) })
	h, err := s.AddHistory(ctx, lwID, wardrobe.NewHistory{Date: "20260105", ClothingIDs: []string{denimID}})
	if err != nil {
		t.Fatalf("AddHistory with the app's wear in between: %v", err)
	}
	if fc.Injected("TransactWriteItems") != 1 {
		t.Fatal("the app's wear did not run")
	}
	wantStats("after AddHistory", 4, "20260107", "[{20260101 1} {20260103 1} {20260105 1} {20260107 1}]")

	// The app wears it again on the 8th while DeleteHistory takes the 5th
	// back.
	fc.Before("TransactWriteItems", func() { appWear(t, c, table, lwID, "hs_app_0108", "20260108", 1767800000000, "CLOTH", denimID) })
	if err := s.DeleteHistory(ctx, lwID, h.ID); err != nil {
		t.Fatalf("DeleteHistory with the app's wear in between: %v", err)
	}
	wantStats("after DeleteHistory", 4, "20260108", "[{20260101 1} {20260103 1} {20260107 1} {20260108 1}]")

	// And the app's wear of the latest day, while DeleteHistory takes back
	// the app's own history of that day: the recomputed last worn day
	// must not forget the new wear.
	fc.Before("TransactWriteItems", func() { appWear(t, c, table, lwID, "hs_app_0108b", "20260108", 1767800000001, "CLOTH", denimID) })
	if err := s.DeleteHistory(ctx, lwID, "hs_app_0108"); err != nil {
		t.Fatalf("DeleteHistory of the latest day with the app's wear of that day in between: %v", err)
	}
	wantStats("after DeleteHistory of the latest day", 4, "20260108", "[{20260101 1} {20260103 1} {20260107 1} {20260108 1}]")
}

// TestEnsureTableSchema runs EnsureTable on tables that differ from
// Definition: one without two of its GSIs gets them, one UpdateTable per
// GSI; one whose GSI sorts by another attribute is refused with
// ErrSchemaMismatch and left as it is.
func TestEnsureTableSchema(t *testing.T) {
	c := ddbtest.Client(t)
	ctx := t.Context()

	in := wardrobe.CreateTableInput("WardrobeTable")
	in.GlobalSecondaryIndexes = slices.DeleteFunc(in.GlobalSecondaryIndexes, func(g types.GlobalSecondaryIndex) bool {
		return *g.IndexName == "StatusListByWearCount" || *g.IndexName == "HistoryByDate"
	})
	in.AttributeDefinitions = slices.DeleteFunc(in.AttributeDefinitions, func(a types.AttributeDefinition) bool {
		return *a.AttributeName == "wearCountSk" || *a.AttributeName == "dateSk"
	})
	missing := ddbtest.NewTable(t, c, in)
	cc := &updateCounter{SchemaClient: c}
	fast := func(o *schema.Options) { o.PollInterval = 20 * time.Millisecond }
	plan, err := wardrobe.EnsureTable(ctx, cc, missing, schema.PlanOnly)
	if err != nil || len(plan) != 2 {
		t.Fatalf("EnsureTable(plan only) = %v, %v; want 2 GSIs to add", plan, err)
	}
	if cc.updates.Load() != 0 {
		t.Fatalf("EnsureTable(plan only) made %d UpdateTable calls", cc.updates.Load())
	}
	if _, err := wardrobe.EnsureTable(ctx, cc, missing, fast); !errors.Is(err, ddbkit.ErrSchemaMismatch) || cc.updates.Load() != 0 {
		t.Fatalf("EnsureTable without schema.Apply = %v with %d UpdateTable calls; want ErrSchemaMismatch and none", err, cc.updates.Load())
	}
	changes, err := wardrobe.EnsureTable(ctx, cc, missing, fast, schema.Apply)
	if err != nil || len(changes) != 2 || cc.updates.Load() != 2 {
		t.Fatalf("EnsureTable = %v, %v with %d UpdateTable calls; want the 2 GSIs added, one call each", changes, err, cc.updates.Load())
	}
	s := wardrobe.NewDynamoStore(c, func(o *wardrobe.Options) { o.TableName = missing })
	f := newFixture(t, s)
	if p, err := s.ListHistory(ctx, f.w.ID, wardrobe.HistoryQuery{}); err != nil || len(p.Items) != 1 {
		t.Fatalf("ListHistory on the added HistoryByDate = %+v, %v", p.Items, err)
	}

	in = wardrobe.CreateTableInput("WardrobeTable")
	in.AttributeDefinitions = append(slices.DeleteFunc(in.AttributeDefinitions, func(a types.AttributeDefinition) bool {
		return *a.AttributeName == "wearCountSk"
	}), types.AttributeDefinition{AttributeName: aws.String("wearCount"), AttributeType: types.ScalarAttributeTypeN})
	for i, g := range in.GlobalSecondaryIndexes {
		if *g.IndexName == "StatusListByWearCount" {
			in.GlobalSecondaryIndexes[i].KeySchema = []types.KeySchemaElement{
				{AttributeName: aws.String("statusListPk"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("wearCount"), KeyType: types.KeyTypeRange}}
		}
	}
	other := ddbtest.NewTable(t, c, in)
	before, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(other)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = wardrobe.EnsureTable(ctx, c, other, fast)
	ddbtest.WantSentinel(t, "EnsureTable(a GSI on another sort key)", err, ddbkit.ErrSchemaMismatch)
	var sm *ddbkit.SchemaMismatchError
	if !errors.As(err, &sm) || !strings.Contains(fmt.Sprint(sm.Diffs), "StatusListByWearCount") {
		t.Fatalf("EnsureTable(a GSI on another sort key) = %v; want a *ddbkit.SchemaMismatchError naming StatusListByWearCount", err)
	}
	after, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(other)})
	if err != nil || len(after.Table.GlobalSecondaryIndexes) != len(before.Table.GlobalSecondaryIndexes) {
		t.Fatalf("EnsureTable changed the mismatching table: %v", err)
	}
}

// updateCounter counts UpdateTable calls.
type updateCounter struct {
	ddbkit.SchemaClient
	updates atomic.Int32
}

func (u *updateCounter) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	u.updates.Add(1)
	return u.SchemaClient.UpdateTable(ctx, in, opts...)
}
