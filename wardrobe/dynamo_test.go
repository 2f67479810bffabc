package wardrobe_test

import (
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/wardrobe"
	"github.com/ddbkit/ddbkit/wardrobe/wardrobetest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// newDynamo returns a DynamoStore on a fresh table, talking to DynamoDB Local
// through wrap (the raw client when wrap is nil), and the raw client.
func newDynamo(t *testing.T, wrap func(ddbkit.Client) ddbkit.Client, opts ...func(*wardrobe.Options)) (*wardrobe.DynamoStore, *dynamodb.Client, string) {
	t.Helper()
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, wardrobe.CreateTableInput("wardrobe"))
	var client ddbkit.Client = c
	if wrap != nil {
		client = wrap(c)
	}
	opts = append(opts, func(o *wardrobe.Options) { o.TableName = name })
	return wardrobe.NewDynamoStore(client, opts...), c, name
}

func TestDynamoStore(t *testing.T) {
	wardrobetest.Run(t, func(t *testing.T, opts ...func(*wardrobe.Options)) wardrobe.Store {
		s, _, _ := newDynamo(t, nil, opts...)
		return s
	})
}

var start = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// deterministic gives a store a step clock (one second per call) and the
// IDs id01, id02, ... in order.
func deterministic(o *wardrobe.Options) {
	o.Clock = ddbkit.StepClock(start, time.Second)
	n := 0
	var mu sync.Mutex
	o.NewID = func() string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return fmt.Sprintf("id%02d", n)
	}
}

func rawItem(t *testing.T, c *dynamodb.Client, table, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": S(pk), "SK": S(sk)}})
	if err != nil {
		t.Fatalf("GetItem(%s, %s): %v", pk, sk, err)
	}
	return out.Item
}

// rawTable reads the whole table, rendered, keyed by "PK | SK". Only tests
// scan.
func rawTable(t *testing.T, c *dynamodb.Client, table string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(t.Context())
		if err != nil {
			t.Fatalf("Scan: %v", err)
		}
		for _, it := range page.Items {
			r := render(it)
			out[r["PK"][2:]+" | "+r["SK"][2:]] = r
		}
	}
	return out
}

func S(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func N(v int64) types.AttributeValue  { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
func L(vs ...string) types.AttributeValue {
	l := &types.AttributeValueMemberL{}
	for _, v := range vs {
		l.Value = append(l.Value, S(v))
	}
	return l
}

var null types.AttributeValue = &types.AttributeValueMemberNULL{Value: true}

// render shows each attribute as type:value, so a comparison checks types
// as well as values.
func render(item map[string]types.AttributeValue) map[string]string {
	out := make(map[string]string, len(item))
	for k, v := range item {
		out[k] = renderValue(v)
	}
	return out
}

func renderValue(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return "S:" + v.Value
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = renderValue(e)
		}
		return "L:[" + strings.Join(parts, ",") + "]"
	}
	return fmt.Sprintf("%T", v)
}

func checkItem(t *testing.T, what string, got, want map[string]types.AttributeValue) {
	t.Helper()
	if g, w := render(got), render(want); !maps.Equal(g, w) {
		t.Fatalf("%s: raw item:\n got %v\nwant %v", what, g, w)
	}
}

func ptr[T any](v T) *T { return &v }

// ms is the Unix ms Number of start plus d.
func ms(d time.Duration) types.AttributeValue { return N(start.Add(d).UnixMilli()) }

// TestRawLayout reads back what the DynamoDB store wrote and compares it,
// attribute by attribute and type by type, with the seed's layouts.
func TestRawLayout(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしの服"}) // id01 at +0s
	if err != nil {
		t.Fatal(err)
	}
	checkItem(t, "wardrobe", rawItem(t, c, table, "W#id01", "META"), map[string]types.AttributeValue{
		"PK": S("W#id01"), "SK": S("META"), "wardrobeId": S("id01"), "name": S("わたしの服"), "createdAt": ms(0),
	})

	shirt, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "白シャツ", ImageKey: "img/shirt.png"}) // id02 at +1s
	if err != nil {
		t.Fatal(err)
	}
	pants, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "デニム"}) // id03 at +2s
	if err != nil {
		t.Fatal(err)
	}
	created := start.Add(time.Second).UnixMilli()
	wantShirt := map[string]types.AttributeValue{
		"PK": S("W#id01#CLOTH"), "SK": S("CLOTH#id02"), "clothingId": S("id02"), "name": S("白シャツ"),
		"status": S("ACTIVE"), "imageKey": S("img/shirt.png"), "wearCount": N(0), "lastWornAt": N(0),
		"createdAt": N(created), "deletedAt": null,
		"statusListPk": S("W#id01#CLOTH#ACTIVE"), "createdAtSk": S(fmt.Sprintf("CREATED#%d#id02", created)),
		"wearCountSk": S("WEAR#0000000000#id02"), "lastWornAtSk": S("LASTWORN#0000000000000#id02"),
	}
	checkItem(t, "added clothing", rawItem(t, c, table, "W#id01#CLOTH", "CLOTH#"+shirt.ID), wantShirt)
	if it := rawItem(t, c, table, "W#id01#CLOTH", "CLOTH#"+pants.ID); it["imageKey"] != nil {
		t.Fatalf("clothing without image has imageKey %v", it["imageKey"])
	}

	if _, err := s.UpdateClothing(ctx, w.ID, shirt.ID, wardrobe.ClothingPatch{Name: ptr("白いシャツ")}); err != nil {
		t.Fatal(err)
	}
	wantShirt["name"] = S("白いシャツ")
	checkItem(t, "edited clothing", rawItem(t, c, table, "W#id01#CLOTH", "CLOTH#id02"), wantShirt)

	tpl, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "休日", ClothingIDs: []string{pants.ID, shirt.ID}}) // id04 at +3s
	if err != nil {
		t.Fatal(err)
	}
	tplCreated := start.Add(3 * time.Second).UnixMilli()
	wantTpl := map[string]types.AttributeValue{
		"PK": S("W#id01#TPL"), "SK": S("TPL#id04"), "templateId": S("id04"), "name": S("休日"),
		"status": S("ACTIVE"), "clothingIds": L("id03", "id02"), "wearCount": N(0), "lastWornAt": N(0),
		"createdAt": N(tplCreated), "deletedAt": null,
		"statusListPk": S("W#id01#TPL#ACTIVE"), "createdAtSk": S(fmt.Sprintf("CREATED#%d#id04", tplCreated)),
		"wearCountSk": S("WEAR#0000000000#id04"), "lastWornAtSk": S("LASTWORN#0000000000000#id04"),
	}
	checkItem(t, "added template", rawItem(t, c, table, "W#id01#TPL", "TPL#id04"), wantTpl)

	// Delete and restore: status, deletedAt and the GSI partition together.
	if _, err := s.DeleteTemplate(ctx, w.ID, tpl.ID); err != nil { // at +4s
		t.Fatal(err)
	}
	deleted := maps.Clone(wantTpl)
	deleted["status"], deleted["deletedAt"], deleted["statusListPk"] = S("DELETED"), ms(4*time.Second), S("W#id01#TPL#DELETED")
	checkItem(t, "deleted template", rawItem(t, c, table, "W#id01#TPL", "TPL#id04"), deleted)
	if _, err := s.RestoreTemplate(ctx, w.ID, tpl.ID); err != nil {
		t.Fatal(err)
	}
	checkItem(t, "restored template", rawItem(t, c, table, "W#id01#TPL", "TPL#id04"), wantTpl)

	// AP-16: the history, the counters, and the statistics with their keys.
	h, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260105", TemplateID: tpl.ID, ClothingIDs: []string{pants.ID, shirt.ID}}) // id05
	if err != nil {
		t.Fatal(err)
	}
	day5 := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC).UnixMilli()
	checkItem(t, "history", rawItem(t, c, table, "W#id01#HIST", "HIST#id05"), map[string]types.AttributeValue{
		"PK": S("W#id01#HIST"), "SK": S("HIST#id05"), "historyId": S("id05"), "createdAt": N(h.CreatedAt.UnixMilli()),
		"date": S("20260105"), "templateId": S("id04"), "clothingIds": L("id03", "id02"), "dateSk": S("DATE#20260105#id05"),
	})
	for _, pk := range []string{"W#id01#COUNT#TPL#id04", "W#id01#COUNT#CLOTH#id03", "W#id01#COUNT#CLOTH#id02"} {
		checkItem(t, "counter", rawItem(t, c, table, pk, "DATE#20260105"), map[string]types.AttributeValue{
			"PK": S(pk), "SK": S("DATE#20260105"), "date": S("20260105"), "count": N(1),
		})
	}
	worn := func(want map[string]types.AttributeValue, id string, n int, last int64) map[string]types.AttributeValue {
		want = maps.Clone(want)
		want["wearCount"], want["lastWornAt"] = N(int64(n)), N(last)
		want["wearCountSk"] = S(fmt.Sprintf("WEAR#%010d#%s", n, id))
		want["lastWornAtSk"] = S(fmt.Sprintf("LASTWORN#%013d#%s", last, id))
		return want
	}
	checkItem(t, "worn template", rawItem(t, c, table, "W#id01#TPL", "TPL#id04"), worn(wantTpl, "id04", 1, day5))
	checkItem(t, "worn clothing", rawItem(t, c, table, "W#id01#CLOTH", "CLOTH#id02"), worn(wantShirt, "id02", 1, day5))

	// A history without a template has a NULL templateId; an earlier day
	// leaves lastWornAt alone.
	h2, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260103", ClothingIDs: []string{shirt.ID}}) // id06
	if err != nil {
		t.Fatal(err)
	}
	if got := rawItem(t, c, table, "W#id01#HIST", "HIST#"+h2.ID)["templateId"]; renderValue(got) != "NULL" {
		t.Fatalf("templateId of a history without template: %v, want NULL", renderValue(got))
	}
	checkItem(t, "clothing worn twice", rawItem(t, c, table, "W#id01#CLOTH", "CLOTH#id02"), worn(wantShirt, "id02", 2, day5))

	// AP-17: the latest day loses its only wear, so lastWornAt moves back to
	// the 3rd, and the 5th's counter goes.
	if err := s.DeleteHistory(ctx, w.ID, h.ID); err != nil {
		t.Fatal(err)
	}
	day3 := time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC).UnixMilli()
	checkItem(t, "unworn clothing", rawItem(t, c, table, "W#id01#CLOTH", "CLOTH#id02"), worn(wantShirt, "id02", 1, day3))
	checkItem(t, "unworn template", rawItem(t, c, table, "W#id01#TPL", "TPL#id04"), wantTpl)
	for _, k := range [][2]string{{"W#id01#HIST", "HIST#id05"}, {"W#id01#COUNT#CLOTH#id02", "DATE#20260105"}, {"W#id01#COUNT#TPL#id04", "DATE#20260105"}} {
		if it := rawItem(t, c, table, k[0], k[1]); it != nil {
			t.Fatalf("%s | %s still there after DeleteHistory: %v", k[0], k[1], render(it))
		}
	}
}
