package wardrobe_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
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

// TestDynamoStore runs the conformance suite on DynamoDB Local, recording
// the IAM grants of every call (iam.json).
func TestDynamoStore(t *testing.T) {
	iamPart(t)
	wardrobetest.Run(t, func(t *testing.T, opts ...func(*wardrobe.Options)) wardrobe.Store {
		s, _, _ := newDynamo(t, iamRec.Wrap, opts...)
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
		"status": S("ACTIVE"), "imageKey": S("img/shirt.png"), "wearCount": N(0), "lastWornAt": N(0), "statsVersion": N(0),
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
		"status": S("ACTIVE"), "clothingIds": L("id03", "id02"), "wearCount": N(0), "lastWornAt": N(0), "statsVersion": N(0),
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
	worn := func(want map[string]types.AttributeValue, id string, n int, last, version int64) map[string]types.AttributeValue {
		want = maps.Clone(want)
		want["wearCount"], want["lastWornAt"], want["statsVersion"] = N(int64(n)), N(last), N(version)
		want["wearCountSk"] = S(fmt.Sprintf("WEAR#%010d#%s", n, id))
		want["lastWornAtSk"] = S(fmt.Sprintf("LASTWORN#%013d#%s", last, id))
		return want
	}
	checkItem(t, "worn template", rawItem(t, c, table, "W#id01#TPL", "TPL#id04"), worn(wantTpl, "id04", 1, day5, 1))
	checkItem(t, "worn clothing", rawItem(t, c, table, "W#id01#CLOTH", "CLOTH#id02"), worn(wantShirt, "id02", 1, day5, 1))

	// A history without a template has a NULL templateId; an earlier day
	// leaves lastWornAt alone.
	h2, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260103", ClothingIDs: []string{shirt.ID}}) // id06
	if err != nil {
		t.Fatal(err)
	}
	if got := rawItem(t, c, table, "W#id01#HIST", "HIST#"+h2.ID)["templateId"]; renderValue(got) != "NULL" {
		t.Fatalf("templateId of a history without template: %v, want NULL", renderValue(got))
	}
	checkItem(t, "clothing worn twice", rawItem(t, c, table, "W#id01#CLOTH", "CLOTH#id02"), worn(wantShirt, "id02", 2, day5, 2))

	// AP-17: the latest day loses its only wear, so lastWornAt moves back to
	// the 3rd, and the 5th's counter goes.
	if err := s.DeleteHistory(ctx, w.ID, h.ID); err != nil {
		t.Fatal(err)
	}
	day3 := time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC).UnixMilli()
	checkItem(t, "unworn clothing", rawItem(t, c, table, "W#id01#CLOTH", "CLOTH#id02"), worn(wantShirt, "id02", 1, day3, 3))
	checkItem(t, "unworn template", rawItem(t, c, table, "W#id01#TPL", "TPL#id04"), worn(wantTpl, "id04", 0, 0, 2))
	for _, k := range [][2]string{{"W#id01#HIST", "HIST#id05"}, {"W#id01#COUNT#CLOTH#id02", "DATE#20260105"}, {"W#id01#COUNT#TPL#id04", "DATE#20260105"}} {
		if it := rawItem(t, c, table, k[0], k[1]); it != nil {
			t.Fatalf("%s | %s still there after DeleteHistory: %v", k[0], k[1], render(it))
		}
	}
}

// TestRoundTrips pins the number of DynamoDB calls of each access pattern.
func TestRoundTrips(t *testing.T) {
	var cc *ddbtest.CountingClient
	tx := &txSizes{}
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
		cc = ddbtest.NewCountingClient(c)
		tx.Client = cc
		return tx
	}, deterministic)
	ctx := t.Context()
	step := func(name string, want map[string]int, fn func() error) {
		t.Helper()
		cc.Reset()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := cc.Counts(); !maps.Equal(got, want) {
			t.Fatalf("%s: calls %v, want %v", name, got, want)
		}
	}
	var w wardrobe.Wardrobe
	step("AP-01 CreateWardrobe", map[string]int{"TransactWriteItems": 1}, func() (err error) {
		w, err = s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
		return err
	})
	step("AP-02 GetWardrobe", map[string]int{"GetItem": 1}, func() error { _, err := s.GetWardrobe(ctx, w.ID); return err })
	// 100 clothes, so that 25 templates of 4 distinct clothes each need
	// 100 thumbnails: two BatchGetItem calls of at most 80 keys.
	var clothes []string
	for i := range 100 {
		step("AP-06 AddClothing", map[string]int{"TransactWriteItems": 1}, func() error {
			c, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: fmt.Sprint("c", i)})
			clothes = append(clothes, c.ID)
			return err
		})
	}
	step("AP-05 GetClothing", map[string]int{"GetItem": 1}, func() error { _, err := s.GetClothing(ctx, w.ID, clothes[0]); return err })
	step("AP-07 UpdateClothing", map[string]int{"UpdateItem": 1}, func() error {
		_, err := s.UpdateClothing(ctx, w.ID, clothes[0], wardrobe.ClothingPatch{ImageKey: ptr("k")})
		return err
	})
	step("AP-04 a page of clothes", map[string]int{"Query": 1}, func() error {
		p, err := s.ListClothes(ctx, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Descending: true, PageOptions: ddbkit.PageOptions{Limit: 30}})
		if err == nil && (len(p.Items) != 30 || p.Next == "") {
			t.Fatalf("page of %d, next %q", len(p.Items), p.Next)
		}
		return err
	})
	var tpls []string
	for i := range 25 {
		step("AP-11 AddTemplate", map[string]int{"TransactWriteItems": 1}, func() error {
			tp, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: append(slices.Clone(clothes[4*i:4*i+4]), clothes[99-i])})
			tpls = append(tpls, tp.ID)
			return err
		})
	}
	step("AP-09 a page of 25 templates with 100 distinct thumbnails", map[string]int{"Query": 1, "BatchGetItem": 2}, func() error {
		p, err := s.ListTemplates(ctx, w.ID, wardrobe.ListQuery{})
		if err == nil && (len(p.Items) != 25 || p.Items[24].More != 1) {
			t.Fatalf("page of %d templates", len(p.Items))
		}
		return err
	})
	step("AP-10 GetTemplate", map[string]int{"GetItem": 1}, func() error { _, err := s.GetTemplate(ctx, w.ID, tpls[0]); return err })
	step("AP-12 UpdateTemplate name", map[string]int{"UpdateItem": 1}, func() error {
		_, err := s.UpdateTemplate(ctx, w.ID, tpls[0], wardrobe.TemplatePatch{Name: ptr("u")})
		return err
	})
	step("AP-12 UpdateTemplate clothes", map[string]int{"TransactWriteItems": 1, "GetItem": 1}, func() error {
		_, err := s.UpdateTemplate(ctx, w.ID, tpls[0], wardrobe.TemplatePatch{ClothingIDs: clothes[:20]})
		return err
	})
	step("AP-13 DeleteTemplate", map[string]int{"UpdateItem": 1}, func() error { _, err := s.DeleteTemplate(ctx, w.ID, tpls[1]); return err })
	step("AP-13 DeleteTemplate again", map[string]int{"UpdateItem": 1}, func() error { _, err := s.DeleteTemplate(ctx, w.ID, tpls[1]); return err })
	var hs []string
	for _, d := range []wardrobe.Date{"20260101", "20260102", "20260103"} {
		step("AP-16 AddHistory of 20 clothes and a template", map[string]int{"BatchGetItem": 1, "TransactWriteItems": 1}, func() error {
			h, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: d, TemplateID: tpls[0], ClothingIDs: clothes[:20]})
			hs = append(hs, h.ID)
			return err
		})
	}
	if got, want := tx.last(), 1+2+2*20; got != want {
		t.Fatalf("AP-16 with a template and 20 clothes wrote %d items in its transaction, want %d", got, want)
	}
	step("AP-15 GetHistory", map[string]int{"GetItem": 1, "BatchGetItem": 1}, func() error {
		h, err := s.GetHistory(ctx, w.ID, hs[0])
		if err == nil && len(h.Clothes) != 20 {
			t.Fatalf("history with %d clothes", len(h.Clothes))
		}
		return err
	})
	step("AP-03 the last week", map[string]int{"Query": 1, "BatchGetItem": 1}, func() error {
		p, err := s.ListHistory(ctx, w.ID, wardrobe.HistoryQuery{From: "20251228", To: "20260103", Descending: true})
		if err == nil && len(p.Items) != 3 {
			t.Fatalf("%d histories", len(p.Items))
		}
		return err
	})
	step("ListDailyWear", map[string]int{"Query": 1}, func() error {
		_, err := s.ListDailyWear(ctx, w.ID, wardrobe.KindClothing, clothes[0], wardrobe.DailyQuery{})
		return err
	})
	step("AP-17 DeleteHistory of an older day", map[string]int{"GetItem": 1, "BatchGetItem": 1, "TransactWriteItems": 1}, func() error {
		return s.DeleteHistory(ctx, w.ID, hs[1])
	})
	step("AP-17 DeleteHistory of the latest day: one Query per item to find the day before",
		map[string]int{"GetItem": 1, "BatchGetItem": 1, "Query": 21, "TransactWriteItems": 1}, func() error {
			return s.DeleteHistory(ctx, w.ID, hs[2])
		})
	if c, _ := s.GetClothing(ctx, w.ID, clothes[0]); c.WearCount != 1 || c.LastWornAt != "20260101" {
		t.Fatalf("after the deletes: wearCount %d, last worn %s; want 1, 20260101", c.WearCount, c.LastWornAt)
	}
}

// txSizes records the number of items of each TransactWriteItems call.
type txSizes struct {
	ddbkit.Client
	mu    sync.Mutex
	sizes []int
}

func (r *txSizes) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	r.mu.Lock()
	r.sizes = append(r.sizes, len(in.TransactItems))
	r.mu.Unlock()
	return r.Client.TransactWriteItems(ctx, in, opts...)
}

func (r *txSizes) last() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sizes[len(r.sizes)-1]
}

// TestFaults covers what DynamoDB Local never does by itself: conflicts,
// throttling and unprocessed batch keys. Whatever happens, the statistics
// stay exactly those of the histories that exist.
func TestFaults(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc },
		deterministic, func(o *wardrobe.Options) { o.Retry = ddbkit.RetryPolicy{MaxAttempts: 4} })
	ctx := t.Context()
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	var clothes []string
	for i := range 3 {
		c, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: fmt.Sprint("c", i)})
		if err != nil {
			t.Fatal(err)
		}
		clothes = append(clothes, c.ID)
	}
	tpl, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: clothes})
	if err != nil {
		t.Fatal(err)
	}
	in := wardrobe.NewHistory{Date: "20260110", TemplateID: tpl.ID, ClothingIDs: clothes}
	wantWorn := func(n int) {
		t.Helper()
		checkStats(t, s, w.ID, wardrobe.KindTemplate, tpl.ID, n)
		for _, id := range clothes {
			checkStats(t, s, w.ID, wardrobe.KindClothing, id, n)
		}
	}

	tests := []struct {
		name   string
		op     string
		fault  ddbtest.Fault
		times  int
		delete bool  // DeleteHistory instead of AddHistory
		fails  error // the sentinel when the operation gives up
	}{
		{"AddHistory through a transaction conflict", "TransactWriteItems", ddbtest.TxConflict, 1, false, nil},
		{"AddHistory through throttling", "TransactWriteItems", ddbtest.Throttle, 2, false, nil},
		{"AddHistory through a 5xx", "TransactWriteItems", ddbtest.InternalError, 2, false, nil},
		{"AddHistory through unprocessed keys", "BatchGetItem", ddbtest.Unprocessed, 3, false, nil},
		{"AddHistory under endless conflicts", "TransactWriteItems", ddbtest.TxConflict, 100, false, ddbkit.ErrConflict},
		{"DeleteHistory through a transaction conflict", "TransactWriteItems", ddbtest.TxConflict, 1, true, nil},
		{"DeleteHistory through a lost response", "TransactWriteItems", ddbtest.LoseResponse, 1, true, nil},
		{"DeleteHistory through unprocessed keys", "BatchGetItem", ddbtest.Unprocessed, 2, true, nil},
		{"DeleteHistory under endless throttling", "TransactWriteItems", ddbtest.Throttle, 100, true, ddbkit.ErrUnavailable},
		{"AddHistory under endless 5xx", "TransactWriteItems", ddbtest.InternalError, 100, false, ddbkit.ErrUnavailable},
	}
	var live []string
	for _, tt := range tests {
		fc.Inject(tt.op, tt.fault, tt.times)
		if tt.delete {
			err = s.DeleteHistory(ctx, w.ID, live[len(live)-1])
		} else {
			var h wardrobe.History
			h, err = s.AddHistory(ctx, w.ID, in)
			if err == nil {
				live = append(live, h.ID)
			}
		}
		switch {
		case tt.fails != nil:
			ddbtest.WantSentinel(t, tt.name, err, tt.fails)
		case err != nil:
			t.Fatalf("%s: %v, want success after retries", tt.name, err)
		case tt.delete && err == nil:
			live = live[:len(live)-1]
		}
		fc.Clear()
		wantWorn(len(live))
	}
}

// checkStats checks the invariants of one item against n histories that
// all wear it on 2026-01-10: its wear count and daily counters say n.
func checkStats(t *testing.T, s wardrobe.Store, wardrobeID string, kind wardrobe.Kind, id string, n int) {
	t.Helper()
	var count int
	var last wardrobe.Date
	if kind == wardrobe.KindTemplate {
		tp, err := s.GetTemplate(t.Context(), wardrobeID, id)
		if err != nil {
			t.Fatal(err)
		}
		count, last = tp.WearCount, tp.LastWornAt
	} else {
		c, err := s.GetClothing(t.Context(), wardrobeID, id)
		if err != nil {
			t.Fatal(err)
		}
		count, last = c.WearCount, c.LastWornAt
	}
	p, err := s.ListDailyWear(t.Context(), wardrobeID, kind, id, wardrobe.DailyQuery{})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, d := range p.Items {
		sum += d.Count
	}
	wantLast := wardrobe.Date("")
	if n > 0 {
		wantLast = "20260110"
	}
	if count != n || sum != n || last != wantLast {
		t.Fatalf("%s %s: wearCount %d, counters sum %d, last worn %v; want %d, %d, %v", kind, id, count, sum, last, n, n, wantLast)
	}
}

// TestBadInputWritesNothingRaw sends bad input through the DynamoDB store and
// then reads the whole table raw: only the items written before remain,
// unchanged.
func TestBadInputWritesNothingRaw(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	var clothes []string
	for i := range 21 {
		c, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: fmt.Sprint("c", i)})
		if err != nil {
			t.Fatal(err)
		}
		clothes = append(clothes, c.ID)
	}
	gone, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "gone"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteClothing(ctx, w.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	foreign, err := s.AddClothing(ctx, other.ID, wardrobe.NewClothing{Name: "foreign"})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: clothes[:2]})
	if err != nil {
		t.Fatal(err)
	}
	h, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260101", ClothingIDs: clothes[:1]})
	if err != nil {
		t.Fatal(err)
	}
	before := rawTable(t, c, table)

	long := strings.Repeat("服", wardrobe.MaxNameLen+1)
	hist := func(d wardrobe.Date, tplID string, ids ...string) error {
		_, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: d, TemplateID: tplID, ClothingIDs: ids})
		return err
	}
	bad := []struct {
		name string
		err  error
		want error
	}{
		{"41-character wardrobe name", second(s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: long})), ddbkit.ErrInvalidArgument},
		{"41-character clothing name", second(s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: long})), ddbkit.ErrInvalidArgument},
		{"clothing of an unknown wardrobe", second(s.AddClothing(ctx, "nowhere", wardrobe.NewClothing{Name: "c"})), ddbkit.ErrNotFound},
		{"'#' in a wardrobe ID", second(s.AddClothing(ctx, "a#b", wardrobe.NewClothing{Name: "c"})), ddbkit.ErrInvalidArgument},
		{"41-character edit", second(s.UpdateClothing(ctx, w.ID, clothes[0], wardrobe.ClothingPatch{Name: ptr(long)})), ddbkit.ErrInvalidArgument},
		{"21 clothes in a template", second(s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: clothes})), ddbkit.ErrInvalidArgument},
		{"duplicate clothes in a template", second(s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: []string{clothes[0], clothes[0]}})), ddbkit.ErrInvalidArgument},
		{"foreign clothing in a template", second(s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: []string{clothes[0], foreign.ID}})), ddbkit.ErrInvalidArgument},
		{"deleted clothing in a template", second(s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: []string{gone.ID}})), ddbkit.ErrInvalidArgument},
		{"unknown clothing in a template edit", second(s.UpdateTemplate(ctx, w.ID, tpl.ID, wardrobe.TemplatePatch{Name: ptr("x"), ClothingIDs: []string{"nope"}})), ddbkit.ErrInvalidArgument},
		{"21 clothes in a history", hist("20260102", "", clothes...), ddbkit.ErrInvalidArgument},
		{"duplicate clothes in a history", hist("20260102", "", clothes[1], clothes[1]), ddbkit.ErrInvalidArgument},
		{"unknown clothing in a history", hist("20260102", "", clothes[1], "nope"), ddbkit.ErrInvalidArgument},
		{"foreign clothing in a history", hist("20260102", "", foreign.ID), ddbkit.ErrInvalidArgument},
		{"deleted clothing in a history", hist("20260102", "", clothes[1], gone.ID), ddbkit.ErrInvalidArgument},
		{"unknown template in a history", hist("20260102", "nope", clothes[1]), ddbkit.ErrInvalidArgument},
		{"malformed date", hist("2026-01-02", "", clothes[1]), ddbkit.ErrInvalidArgument},
		{"impossible date", hist("20260230", "", clothes[1]), ddbkit.ErrInvalidArgument},
		{"history of an unknown wardrobe", second(s.AddHistory(ctx, "nowhere", wardrobe.NewHistory{Date: "20260102", ClothingIDs: clothes[:1]})), ddbkit.ErrNotFound},
		{"unknown history", s.DeleteHistory(ctx, w.ID, "nope"), ddbkit.ErrNotFound},
		{"'#' in a history ID", s.DeleteHistory(ctx, w.ID, h.ID+"#x"), ddbkit.ErrInvalidArgument},
		{"tampered cursor", second(s.ListClothes(ctx, w.ID, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Cursor: "tampered"}})), ddbkit.ErrInvalidCursor},
	}
	for _, b := range bad {
		if !errors.Is(b.err, b.want) {
			t.Errorf("%s: %v, want %v", b.name, b.err, b.want)
		}
	}
	after := rawTable(t, c, table)
	if !maps.EqualFunc(after, before, maps.Equal) {
		for k, v := range after {
			if !maps.Equal(before[k], v) {
				t.Errorf("after bad input: %s is %v, was %v", k, v, before[k])
			}
		}
		t.Fatalf("bad input changed the table: %d items, %d before", len(after), len(before))
	}
}

func second[T any](_ T, err error) error { return err }

// TestRecalculateStatsRepairsDrift damages the cached statistics behind the
// store's back, as a bug or a manual edit would, and checks that
// RecalculateStats rebuilds them, index keys included, from the counters.
func TestRecalculateStatsRepairsDrift(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []wardrobe.Date{"20260101", "20260104", "20260104"} {
		if _, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: d, ClothingIDs: []string{a.ID, b.ID}}); err != nil {
			t.Fatal(err)
		}
	}
	pk, sk := "W#"+w.ID+"#CLOTH", "CLOTH#"+a.ID
	good := rawItem(t, c, table, pk, sk)
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table),
		Key:              map[string]types.AttributeValue{"PK": S(pk), "SK": S(sk)},
		UpdateExpression: aws.String("SET wearCount = :n, lastWornAt = :l, wearCountSk = :nk, lastWornAtSk = :lk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":n": N(7), ":l": N(0),
			":nk": S("WEAR#0000000007#" + a.ID), ":lk": S("LASTWORN#0000000000000#" + a.ID)}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.RecalculateStats(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []wardrobe.Drift{{Kind: wardrobe.KindClothing, ID: a.ID, WearCountWas: 7, WearCount: 3, LastWornAt: "20260104"}}
	if rep.Checked != 2 || !slices.Equal(rep.Drifts, want) {
		t.Fatalf("report %+v, want 2 checked and drifts %+v", rep, want)
	}
	good["statsVersion"] = N(4) // three histories, then the repair
	checkItem(t, "repaired clothing", rawItem(t, c, table, pk, sk), good)
	if rep, err := s.RecalculateStats(ctx, w.ID); err != nil || len(rep.Drifts) != 0 {
		t.Fatalf("second RecalculateStats: %+v, %v; want no drift", rep, err)
	}
}

func TestEnsureTable(t *testing.T) {
	c := ddbtest.Client(t)
	name := ddbtest.UniqueName("ensure")
	t.Cleanup(func() { c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}) })
	for i := range 2 { // idempotent
		if _, err := wardrobe.EnsureTable(t.Context(), c, name); err != nil {
			t.Fatalf("EnsureTable #%d: %v", i+1, err)
		}
	}
	out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	d := out.Table
	if d.TableStatus != types.TableStatusActive {
		t.Fatalf("status %s, want ACTIVE", d.TableStatus)
	}
	if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Fatalf("billing %+v, want PAY_PER_REQUEST", d.BillingModeSummary)
	}
	schema := func(ks []types.KeySchemaElement) string {
		var parts []string
		for _, k := range ks {
			parts = append(parts, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
		}
		return strings.Join(parts, ", ")
	}
	if got := schema(d.KeySchema); got != "PK HASH, SK RANGE" {
		t.Fatalf("key schema %s", got)
	}
	got := map[string]string{}
	for _, g := range d.GlobalSecondaryIndexes {
		got[aws.ToString(g.IndexName)] = schema(g.KeySchema) + " / " + string(g.Projection.ProjectionType)
	}
	want := map[string]string{
		"StatusListByCreatedAt":  "statusListPk HASH, createdAtSk RANGE / ALL",
		"StatusListByWearCount":  "statusListPk HASH, wearCountSk RANGE / ALL",
		"StatusListByLastWornAt": "statusListPk HASH, lastWornAtSk RANGE / ALL",
		"HistoryByDate":          "PK HASH, dateSk RANGE / ALL",
	}
	if !maps.Equal(got, want) {
		t.Fatalf("GSIs %v, want %v", got, want)
	}
}

// beforeTx runs a hook once, just before the next TransactWriteItems call
// reaches DynamoDB: a write that lands between a read-modify-write's read
// and its write.
type beforeTx struct {
	ddbkit.Client
	mu   sync.Mutex
	hook func()
}

func (b *beforeTx) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	b.mu.Lock()
	hook := b.hook
	b.hook = nil
	b.mu.Unlock()
	if hook != nil {
		hook()
	}
	return b.Client.TransactWriteItems(ctx, in, opts...)
}

// TestDeleteHistoryABA interleaves two writes between DeleteHistory's read
// and its write that leave wearCount and lastWornAt as it read them, but
// delete the day it recomputed lastWornAt to. The statsVersion condition
// sends it back to read again, so lastWornAt ends on a day that has a wear.
func TestDeleteHistoryABA(t *testing.T) {
	hooked := &beforeTx{}
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { hooked.Client = c; return hooked }, deterministic)
	other := wardrobe.NewDynamoStore(c, func(o *wardrobe.Options) { o.TableName = table })
	ctx := t.Context()
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	x, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	add := func(s wardrobe.Store, d wardrobe.Date) wardrobe.History {
		t.Helper()
		h, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: d, ClothingIDs: []string{x.ID}})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h3 := add(s, "20260103")
	h5 := add(s, "20260105")
	hooked.mu.Lock()
	hooked.hook = func() {
		// DeleteHistory(h5) has read (2, the 5th) and recomputed the 3rd.
		if err := other.DeleteHistory(ctx, w.ID, h3.ID); err != nil {
			t.Error(err)
		}
		add(other, "20260101")
	}
	hooked.mu.Unlock()
	if err := s.DeleteHistory(ctx, w.ID, h5.ID); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetClothing(ctx, w.ID, x.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := wardrobe.Date("20260101"); got.WearCount != 1 || got.LastWornAt != want {
		t.Fatalf("after the interleaving: wearCount %d, last worn %v; want 1, %v", got.WearCount, got.LastWornAt, want)
	}
}

// TestIdempotencyKeyAcrossStores repeats keyed creates from a second
// DynamoStore on the same table, as another process serving the client's
// retry would: the idempotency record in the table answers it with the
// first call's item. (DynamoDB Local keeps a ClientRequestToken as long as
// it runs, so a key past ddbkit.IdempotencyWindow is tested on the memory
// store only: TestIdempotencyKeyPastWindow.)
func TestIdempotencyKeyAcrossStores(t *testing.T) {
	a, c, table := newDynamo(t, nil)
	b := wardrobe.NewDynamoStore(c, func(o *wardrobe.Options) { o.TableName = table })
	key := ddbkit.WithIdempotencyKey(t.Context(), "request-1")
	w, err := a.CreateWardrobe(key, wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	if again, err := b.CreateWardrobe(key, wardrobe.NewWardrobe{Name: "w"}); err != nil || again != w {
		t.Fatalf("CreateWardrobe repeated on another store = %+v, %v; want %+v", again, err, w)
	}
	cl, err := a.AddClothing(key, w.ID, wardrobe.NewClothing{Name: "c"})
	if err != nil {
		t.Fatal(err)
	}
	if again, err := b.AddClothing(key, w.ID, wardrobe.NewClothing{Name: "c"}); err != nil || again != cl {
		t.Fatalf("AddClothing repeated on another store = %+v, %v; want %+v", again, err, cl)
	}
	tp, err := a.AddTemplate(key, w.ID, wardrobe.NewTemplate{Name: "tp", ClothingIDs: []string{cl.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if again, err := b.AddTemplate(key, w.ID, wardrobe.NewTemplate{Name: "tp", ClothingIDs: []string{cl.ID}}); err != nil || again.ID != tp.ID {
		t.Fatalf("AddTemplate repeated on another store = %+v, %v; want %+v", again, err, tp)
	}
	in := wardrobe.NewHistory{Date: "20260105", ClothingIDs: []string{cl.ID}}
	h, err := a.AddHistory(key, w.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := b.AddHistory(key, w.ID, in); err != nil || again.ID != h.ID {
		t.Fatalf("AddHistory repeated on another store = %+v, %v; want %+v", again, err, h)
	}
	if got, err := b.GetClothing(t.Context(), w.ID, cl.ID); err != nil || got.WearCount != 1 {
		t.Fatalf("clothing after AddHistory and its repeat = %+v, %v; want one wear", got, err)
	}
	if err := a.DeleteHistory(key, w.ID, h.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteHistory(key, w.ID, h.ID); err != nil {
		t.Fatalf("DeleteHistory repeated on another store: %v, want success", err)
	}
	_, err = b.AddClothing(key, w.ID, wardrobe.NewClothing{Name: "other"})
	ddbtest.WantSentinel(t, "AddClothing on another store with a used key and other input", err, ddbkit.ErrConflict)
	if !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) {
		t.Fatalf("AddClothing with a used key and other input: %v, want ErrIdempotencyKeyReused", err)
	}
}
