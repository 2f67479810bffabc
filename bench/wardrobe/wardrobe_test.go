package wardrobe_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"
	"github.com/guregu/dynamo/v2"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/bench"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/wardrobe"
)

const (
	table   = "bench"
	created = int64(1767225600000) // 2026-01-01T00:00:00Z
	worn    = int64(1767571200000) // 2026-01-05
)

// The stub wardrobe's IDs, UUIDv7s as the store makes them.
func id(kind string, i int) string {
	n := map[string]int{"wd": 1, "cl": 2, "tp": 3, "hs": 4}[kind]
	return fmt.Sprintf("019b7a3c-%04x-7000-8000-%012d", n, i)
}

var wid = id("wd", 0)

// item is any item of the seed's layout with its keys: what the
// hand-written and guregu variants decode into and write.
type item struct {
	PK           string   `dynamodbav:"PK" dynamo:"PK"`
	SK           string   `dynamodbav:"SK" dynamo:"SK"`
	WardrobeID   string   `dynamodbav:"wardrobeId,omitempty" dynamo:"wardrobeId,omitempty"`
	ClothingID   string   `dynamodbav:"clothingId,omitempty" dynamo:"clothingId,omitempty"`
	TemplateID   string   `dynamodbav:"templateId,omitempty" dynamo:"templateId,omitempty"`
	Name         string   `dynamodbav:"name" dynamo:"name"`
	Status       string   `dynamodbav:"status,omitempty" dynamo:"status,omitempty"`
	ImageKey     string   `dynamodbav:"imageKey,omitempty" dynamo:"imageKey,omitempty"`
	ClothingIDs  []string `dynamodbav:"clothingIds,omitempty" dynamo:"clothingIds,omitempty"`
	WearCount    int      `dynamodbav:"wearCount" dynamo:"wearCount"`
	LastWornAt   int64    `dynamodbav:"lastWornAt" dynamo:"lastWornAt"`
	StatsVersion int64    `dynamodbav:"statsVersion" dynamo:"statsVersion"`
	CreatedAt    int64    `dynamodbav:"createdAt" dynamo:"createdAt"`
	DeletedAt    *int64   `dynamodbav:"deletedAt" dynamo:"deletedAt,null"`
	StatusListPK string   `dynamodbav:"statusListPk,omitempty" dynamo:"statusListPk,omitempty"`
	CreatedAtSK  string   `dynamodbav:"createdAtSk,omitempty" dynamo:"createdAtSk,omitempty"`
	WearCountSK  string   `dynamodbav:"wearCountSk,omitempty" dynamo:"wearCountSk,omitempty"`
	LastWornAtSK string   `dynamodbav:"lastWornAtSk,omitempty" dynamo:"lastWornAtSk,omitempty"`
}

// history is a history item, as the seed lays it out.
type history struct {
	PK          string   `dynamodbav:"PK" dynamo:"PK"`
	SK          string   `dynamodbav:"SK" dynamo:"SK"`
	HistoryID   string   `dynamodbav:"historyId" dynamo:"historyId"`
	CreatedAt   int64    `dynamodbav:"createdAt" dynamo:"createdAt"`
	Date        string   `dynamodbav:"date" dynamo:"date"`
	TemplateID  *string  `dynamodbav:"templateId" dynamo:"templateId,null"`
	ClothingIDs []string `dynamodbav:"clothingIds" dynamo:"clothingIds"`
	DateSK      string   `dynamodbav:"dateSk" dynamo:"dateSk"`
}

// counter is a daily counter.
type counter struct {
	PK    string `dynamodbav:"PK" dynamo:"PK"`
	SK    string `dynamodbav:"SK" dynamo:"SK"`
	Count int    `dynamodbav:"count" dynamo:"count"`
	Date  string `dynamodbav:"date" dynamo:"date"`
}

// thumb is what a thumbnail reads of a clothing.
type thumb struct {
	PK       string `dynamodbav:"PK" dynamo:"PK"`
	SK       string `dynamodbav:"SK" dynamo:"SK"`
	Name     string `dynamodbav:"name" dynamo:"name"`
	Status   string `dynamodbav:"status" dynamo:"status"`
	ImageKey string `dynamodbav:"imageKey" dynamo:"imageKey"`
}

func pkOf(kind string) string { return "W#" + wid + "#" + kind }

// stubWorn is clothing (kind CLOTH) or template (TPL) i as the store
// writes it: worn 12 times, last on 2026-01-05.
func stubWorn(kind string, i int) item {
	short := map[string]string{"CLOTH": "cl", "TPL": "tp"}[kind]
	x := id(short, i)
	it := item{PK: pkOf(kind), SK: kind + "#" + x, Status: "ACTIVE",
		WearCount: 12, LastWornAt: worn, StatsVersion: 3, CreatedAt: created + int64(i),
		StatusListPK: pkOf(kind) + "#ACTIVE",
		CreatedAtSK:  fmt.Sprintf("CREATED#%013d#%s", created+int64(i), x),
		WearCountSK:  "WEAR#0000000012#" + x,
		LastWornAtSK: fmt.Sprintf("LASTWORN#%013d#%s", worn, x)}
	if kind == "CLOTH" {
		it.ClothingID, it.Name, it.ImageKey = x, "白シャツ "+strconv.Itoa(i), "images/"+x+".jpg"
	} else {
		it.TemplateID, it.Name = x, "通勤スタイル "+strconv.Itoa(i)
		it.ClothingIDs = make([]string, 6)
		for j := range it.ClothingIDs {
			it.ClothingIDs[j] = id("cl", (i*7+j*13)%pool)
		}
	}
	return it
}

// pool is how many clothes the templates and histories of the stub wear.
const pool = 40

func stubHistory(i int) history {
	x, tp := id("hs", i), id("tp", 0)
	d := fmt.Sprintf("202601%02d", 1+i%28)
	cs := make([]string, 5)
	for j := range cs {
		cs[j] = id("cl", (i*3+j*7)%pool)
	}
	return history{PK: pkOf("HIST"), SK: "HIST#" + x, HistoryID: x, CreatedAt: created + int64(i), Date: d,
		TemplateID: &tp, ClothingIDs: cs, DateSK: "DATE#" + d + "#" + x}
}

func js(v any) string {
	av, err := attributevalue.MarshalMap(v)
	if err != nil {
		panic(err)
	}
	return bench.ItemJSON(av)
}

func jsAll[T any](n int, f func(int) T) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = js(f(i))
	}
	return out
}

// projected renders the attributes of a thumbnail projection of a
// clothing.
func projected(it item) string {
	return js(thumb{PK: it.PK, SK: it.SK, Name: it.Name, Status: it.Status, ImageKey: it.ImageKey})
}

func batchResponse(items []string) string {
	return `{"Responses":{"` + table + `":[` + strings.Join(items, ",") + `]},"UnprocessedKeys":{}}`
}

// newStub answers every call of the wardrobe's operations with items of
// the seed's layout: GetItem by the kind of the key asked for, Query by
// the listing (pages honour Limit), BatchGetItem by what is asked (the
// outfit of AddHistory or DeleteHistory, or thumbnails, projected when
// the request projects), the writes with success (UpdateItem with the
// item as ALL_NEW).
func newStub() *bench.Stub {
	clothes := jsAll(200, func(i int) item { return stubWorn("CLOTH", i) })
	templates := jsAll(200, func(i int) item { return stubWorn("TPL", i) })
	histories := jsAll(200, stubHistory)
	counters := jsAll(200, func(i int) counter {
		d := string(benchDates[len(benchDates)-1-i]) // newest first
		return counter{PK: pkOf("COUNT#CLOTH#" + id("cl", 0)), SK: "DATE#" + d, Count: 1 + i%3, Date: d}
	})
	thumbsFull := clothes[:pool]
	thumbsProj := make([]string, pool)
	for i := range thumbsProj {
		thumbsProj[i] = projected(stubWorn("CLOTH", i))
	}
	// AddHistory reads the wardrobe, template 0 and clothes 0-4;
	// DeleteHistory history 0, its template and clothes and their
	// counters of its day, each at 2 wears (so none is deleted).
	outfit := []string{js(item{PK: "W#" + wid, SK: "META", WardrobeID: wid, Name: "わたしのクローゼット", CreatedAt: created}),
		templates[0]}
	outfit = append(outfit, clothes[:5]...)
	h0 := stubHistory(0)
	unwear := []string{templates[0]}
	refs := []string{"TPL#" + *h0.TemplateID}
	for j, c := range h0.ClothingIDs {
		unwear = append(unwear, clothes[j*7]) // stubHistory(0)'s clothes
		refs = append(refs, "CLOTH#"+c)
	}
	for _, r := range refs {
		kind, x, _ := strings.Cut(r, "#")
		unwear = append(unwear, js(counter{PK: pkOf("COUNT#" + kind + "#" + x), SK: "DATE#" + h0.Date, Count: 2, Date: h0.Date}))
	}
	page := func(items []string) bench.Handler {
		return bench.QueryPages(items, func(map[string]string) int { return 0 },
			func(i int) string { return `{"PK":{"S":"x"},"SK":{"S":"` + strconv.Itoa(i) + `"}}` })
	}
	qClothes, qTemplates, qHistories, qCounters := page(clothes), page(templates), page(histories), page(counters)
	getW := []byte(`{"Item":` + outfit[0] + `}`)
	getC, getT, getH := []byte(`{"Item":`+clothes[0]+`}`), []byte(`{"Item":`+templates[0]+`}`), []byte(`{"Item":`+histories[0]+`}`)
	updC, updT := []byte(`{"Attributes":`+clothes[0]+`}`), []byte(`{"Attributes":`+templates[0]+`}`)
	batchOutfit, batchUnwear := []byte(batchResponse(outfit)), []byte(batchResponse(unwear))
	batchFull, batchProj := []byte(batchResponse(thumbsFull)), []byte(batchResponse(thumbsProj))
	return bench.NewStub().
		Handle("DescribeTable", bench.Canned(`{"Table":{"TableName":"bench","TableStatus":"ACTIVE",`+
			`"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],`+
			`"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}]}}`)).
		Handle("GetItem", func(req []byte) ([]byte, error) {
			switch {
			case bytes.Contains(req, []byte(`"META"`)):
				return getW, nil
			case bytes.Contains(req, []byte(`TPL#`)):
				return getT, nil
			case bytes.Contains(req, []byte(`HIST#`)):
				return getH, nil
			}
			return getC, nil
		}).
		Handle("Query", func(req []byte) ([]byte, error) {
			switch {
			case bytes.Contains(req, []byte(`#TPL#`)):
				return qTemplates(req)
			case bytes.Contains(req, []byte(`#COUNT#`)):
				return qCounters(req)
			case bytes.Contains(req, []byte(`#HIST`)):
				return qHistories(req)
			}
			return qClothes(req)
		}).
		Handle("BatchGetItem", func(req []byte) ([]byte, error) {
			switch {
			case bytes.Contains(req, []byte(`"META"`)):
				return batchOutfit, nil
			case bytes.Contains(req, []byte(`DATE#`)):
				return batchUnwear, nil
			case bytes.Contains(req, []byte(`ProjectionExpression`)):
				return batchProj, nil
			}
			return batchFull, nil
		}).
		Handle("UpdateItem", func(req []byte) ([]byte, error) {
			if bytes.Contains(req, []byte(`TPL#`)) {
				return updT, nil
			}
			return updC, nil
		}).
		Handle("PutItem", bench.Canned(`{}`)).
		Handle("TransactWriteItems", bench.Canned(`{}`))
}

// The hand-written variants' helpers: what an engineer writes once.

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

func newID() string { return uuid.Must(uuid.NewV7()).String() }

// wantPage checks a 50-item page with more to come.
func wantPage(n int, more bool, err error) error {
	if err == nil && (n != 50 || !more) {
		err = fmt.Errorf("a page of %d items (more: %v), want 50 and more", n, more)
	}
	return err
}

// benchDates are a year of days, for spreading wears over counters.
var benchDates = func() []wardrobe.Date {
	ds := make([]wardrobe.Date, 365)
	for i := range ds {
		d, err := wardrobe.Date("20250101").AddDays(i)
		if err != nil {
			panic(err)
		}
		ds[i] = d
	}
	return ds
}()

// dayMs is the seed's dateToEpochMs in UTC.
func dayMs(d string) int64 {
	t, err := time.Parse("20060102", d)
	if err != nil {
		panic(err)
	}
	return t.UnixMilli()
}

// The expressions a hand-written AddHistory sends: written once, as
// constants.
const (
	notExists   = "attribute_not_exists(PK)"
	counterAdd  = "ADD #count :one SET #date = :date"
	statsSet    = "SET wearCount = :wc, lastWornAt = :lw, statsVersion = :sv, wearCountSk = :wsk, lastWornAtSk = :lsk"
	statsActive = "attribute_exists(PK) AND wearCount = :owc AND lastWornAt = :olw AND statsVersion = :osv AND #status = :active"
)

// BenchmarkWardrobe compares each operation of wardrobe's DynamoStore with
// the same calls written by hand on aws-sdk-go-v2 and with guregu/dynamo
// v2, on a stub transport.
func BenchmarkWardrobe(b *testing.B) {
	ctx := context.Background()
	opts := func(o *wardrobe.Options) { o.TableName = table }
	stub := newStub()
	st := wardrobe.NewDynamoStore(stub.Client(), opts)
	// sto is st with a recording OpenTelemetry SDK, and wsto wst (below):
	// the otel variants (issue 38).
	tp, mp := bench.OTel()
	traced := func(o *wardrobe.Options) { o.TracerProvider, o.MeterProvider = tp, mp }
	sto := wardrobe.NewDynamoStore(stub.Client(), opts, traced)
	c := stub.Client()
	db := dynamo.New(stub.Config())
	g := db.Table(table)
	cl0, tp0, hs0 := id("cl", 0), id("tp", 0), id("hs", 0)

	get := func(name string, ddbkitOp func(st *wardrobe.DynamoStore) error, pk, sk string) {
		b.Run(name, func(b *testing.B) {
			bench.Compare(b, stub,
				bench.Variant{Name: "ddbkit", Op: func(int) error { return ddbkitOp(st) }},
				bench.Variant{Name: "otel", Op: func(int) error { return ddbkitOp(sto) }, Overhead: true},
				bench.Variant{Name: "handwritten", Op: func(int) error {
					out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true), Key: key(pk, sk)})
					if err != nil {
						return err
					}
					var it item
					return attributevalue.UnmarshalMap(out.Item, &it)
				}},
				bench.Variant{Name: "guregu", Op: func(int) error {
					var it item
					return g.Get("PK", pk).Range("SK", dynamo.Equal, sk).Consistent(true).One(ctx, &it)
				}},
			)
		})
	}
	get("GetWardrobe", func(st *wardrobe.DynamoStore) error { _, err := st.GetWardrobe(ctx, wid); return err }, "W#"+wid, "META")
	get("GetClothing", func(st *wardrobe.DynamoStore) error { _, err := st.GetClothing(ctx, wid, cl0); return err }, pkOf("CLOTH"), "CLOTH#"+cl0)
	get("GetTemplate", func(st *wardrobe.DynamoStore) error { _, err := st.GetTemplate(ctx, wid, tp0); return err }, pkOf("TPL"), "TPL#"+tp0)

	// list is a 50-item page of a status list by registration.
	list := func(kind string, out any) (bool, error) {
		o, err := c.Query(ctx, &dynamodb.QueryInput{
			TableName: aws.String(table), IndexName: aws.String("StatusListByCreatedAt"),
			KeyConditionExpression:    aws.String("statusListPk = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s(pkOf(kind) + "#ACTIVE")},
			ScanIndexForward:          aws.Bool(true), Limit: aws.Int32(51),
		})
		if err != nil {
			return false, err
		}
		return len(o.Items) > 50, attributevalue.UnmarshalListOfMaps(o.Items[:min(50, len(o.Items))], out)
	}
	glist := func(kind string, out any) (bool, error) {
		next, err := g.Get("statusListPk", pkOf(kind)+"#ACTIVE").Index("StatusListByCreatedAt").Order(dynamo.Ascending).
			SearchLimit(51).Limit(50).AllWithLastEvaluatedKey(ctx, out)
		return next != nil, err
	}
	b.Run("ListClothes50", func(b *testing.B) {
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				p, err := st.ListClothes(ctx, wid, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: 50}})
				return wantPage(len(p.Items), p.Next != "", err)
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				var cs []item
				more, err := list("CLOTH", &cs)
				return wantPage(len(cs), more, err)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var cs []item
				more, err := glist("CLOTH", &cs)
				return wantPage(len(cs), more, err)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				p, err := sto.ListClothes(ctx, wid, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: 50}})
				return wantPage(len(p.Items), p.Next != "", err)
			}, Overhead: true},
		)
	})

	// thumbIDs are the distinct first four clothes of each outfit.
	thumbIDs := func(lists [][]string) []string {
		seen := make(map[string]bool)
		var ids []string
		for _, l := range lists {
			for _, x := range l[:min(4, len(l))] {
				if !seen[x] {
					seen[x] = true
					ids = append(ids, x)
				}
			}
		}
		return ids
	}
	// thumbs reads the clothes ids with BatchGetItem, as the store's
	// thumbnails do, and returns them by ID.
	thumbs := func(ids []string) (map[string]thumb, error) {
		ks := make([]map[string]types.AttributeValue, len(ids))
		for i, x := range ids {
			ks[i] = key(pkOf("CLOTH"), "CLOTH#"+x)
		}
		found := make(map[string]thumb, len(ids))
		req := map[string]types.KeysAndAttributes{table: {Keys: ks, ConsistentRead: aws.Bool(thumbConsistent),
			ProjectionExpression: thumbProjection, ExpressionAttributeNames: thumbNames}}
		for len(req) > 0 {
			out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
			if err != nil {
				return nil, err
			}
			var ts []thumb
			if err := attributevalue.UnmarshalListOfMaps(out.Responses[table], &ts); err != nil {
				return nil, err
			}
			for _, t := range ts {
				found[strings.TrimPrefix(t.SK, "CLOTH#")] = t
			}
			req = out.UnprocessedKeys
		}
		return found, nil
	}
	gthumbs := func(ids []string) (map[string]thumb, error) {
		ks := make([]dynamo.Keyed, len(ids))
		for i, x := range ids {
			ks[i] = dynamo.Keys{pkOf("CLOTH"), "CLOTH#" + x}
		}
		var ts []thumb
		q := g.Batch("PK", "SK").Get(ks...).Consistent(thumbConsistent)
		if thumbProjection != nil {
			q = q.Project("PK", "SK", "name", "status", "imageKey")
		}
		if err := q.All(ctx, &ts); err != nil {
			return nil, err
		}
		found := make(map[string]thumb, len(ids))
		for _, t := range ts {
			found[strings.TrimPrefix(t.SK, "CLOTH#")] = t
		}
		return found, nil
	}
	outfits := func(ts []item) [][]string {
		ls := make([][]string, len(ts))
		for i, t := range ts {
			ls[i] = t.ClothingIDs
		}
		return ls
	}
	b.Run("ListTemplates50", func(b *testing.B) {
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				p, err := st.ListTemplates(ctx, wid, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: 50}})
				if err == nil && len(p.Items) > 0 && p.Items[0].Thumbnails[0].ImageKey == "" {
					err = fmt.Errorf("no thumbnail")
				}
				return wantPage(len(p.Items), p.Next != "", err)
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				var ts []item
				more, err := list("TPL", &ts)
				if err != nil {
					return err
				}
				found, err := thumbs(thumbIDs(outfits(ts)))
				if err == nil && found[ts[0].ClothingIDs[0]].ImageKey == "" {
					err = fmt.Errorf("no thumbnail")
				}
				return wantPage(len(ts), more, err)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var ts []item
				more, err := glist("TPL", &ts)
				if err != nil {
					return err
				}
				found, err := gthumbs(thumbIDs(outfits(ts)))
				if err == nil && found[ts[0].ClothingIDs[0]].ImageKey == "" {
					err = fmt.Errorf("no thumbnail")
				}
				return wantPage(len(ts), more, err)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				p, err := sto.ListTemplates(ctx, wid, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: 50}})
				if err == nil && len(p.Items) > 0 && p.Items[0].Thumbnails[0].ImageKey == "" {
					err = fmt.Errorf("no thumbnail")
				}
				return wantPage(len(p.Items), p.Next != "", err)
			}, Overhead: true},
		)
	})

	b.Run("ListHistory50", func(b *testing.B) {
		hquery := func() (*dynamodb.QueryOutput, error) {
			return c.Query(ctx, &dynamodb.QueryInput{
				TableName: aws.String(table), IndexName: aws.String("HistoryByDate"),
				KeyConditionExpression:    aws.String("PK = :pk AND begins_with(dateSk, :d)"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s(pkOf("HIST")), ":d": s("DATE#")},
				ScanIndexForward:          aws.Bool(false), Limit: aws.Int32(51),
			})
		}
		hlists := func(hs []history) [][]string {
			ls := make([][]string, len(hs))
			for i, h := range hs {
				ls[i] = h.ClothingIDs
			}
			return ls
		}
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				p, err := st.ListHistory(ctx, wid, wardrobe.HistoryQuery{Descending: true, PageOptions: ddbkit.PageOptions{Limit: 50}})
				return wantPage(len(p.Items), p.Next != "", err)
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				o, err := hquery()
				if err != nil {
					return err
				}
				var hs []history
				if err := attributevalue.UnmarshalListOfMaps(o.Items[:50], &hs); err != nil {
					return err
				}
				_, err = thumbs(thumbIDs(hlists(hs)))
				return wantPage(len(hs), len(o.Items) > 50, err)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var hs []history
				next, err := g.Get("PK", pkOf("HIST")).Range("dateSk", dynamo.BeginsWith, "DATE#").Index("HistoryByDate").
					Order(dynamo.Descending).SearchLimit(51).Limit(50).AllWithLastEvaluatedKey(ctx, &hs)
				if err != nil {
					return err
				}
				_, err = gthumbs(thumbIDs(hlists(hs)))
				return wantPage(len(hs), next != nil, err)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				p, err := sto.ListHistory(ctx, wid, wardrobe.HistoryQuery{Descending: true, PageOptions: ddbkit.PageOptions{Limit: 50}})
				return wantPage(len(p.Items), p.Next != "", err)
			}, Overhead: true},
		)
	})

	b.Run("GetHistory", func(b *testing.B) {
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.GetHistory(ctx, wid, hs0)
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
					Key: key(pkOf("HIST"), "HIST#"+hs0)})
				if err != nil {
					return err
				}
				var h history
				if err := attributevalue.UnmarshalMap(out.Item, &h); err != nil {
					return err
				}
				_, err = thumbs(h.ClothingIDs)
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var h history
				if err := g.Get("PK", pkOf("HIST")).Range("SK", dynamo.Equal, "HIST#"+hs0).Consistent(true).One(ctx, &h); err != nil {
					return err
				}
				_, err := gthumbs(h.ClothingIDs)
				return err
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.GetHistory(ctx, wid, hs0)
				return err
			}, Overhead: true},
		)
	})

	b.Run("ListDailyWear50", func(b *testing.B) {
		pk := pkOf("COUNT#CLOTH#" + cl0)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				p, err := st.ListDailyWear(ctx, wid, wardrobe.KindClothing, cl0, wardrobe.DailyQuery{Descending: true, PageOptions: ddbkit.PageOptions{Limit: 50}})
				return wantPage(len(p.Items), p.Next != "", err)
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				o, err := c.Query(ctx, &dynamodb.QueryInput{
					TableName:                 aws.String(table),
					KeyConditionExpression:    aws.String("PK = :pk AND begins_with(SK, :d)"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s(pk), ":d": s("DATE#")},
					ScanIndexForward:          aws.Bool(false), Limit: aws.Int32(51),
				})
				if err != nil {
					return err
				}
				var cs []counter
				err = attributevalue.UnmarshalListOfMaps(o.Items[:50], &cs)
				return wantPage(len(cs), len(o.Items) > 50, err)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var cs []counter
				next, err := g.Get("PK", pk).Range("SK", dynamo.BeginsWith, "DATE#").
					Order(dynamo.Descending).SearchLimit(51).Limit(50).AllWithLastEvaluatedKey(ctx, &cs)
				return wantPage(len(cs), next != nil, err)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				p, err := sto.ListDailyWear(ctx, wid, wardrobe.KindClothing, cl0, wardrobe.DailyQuery{Descending: true, PageOptions: ddbkit.PageOptions{Limit: 50}})
				return wantPage(len(p.Items), p.Next != "", err)
			}, Overhead: true},
		)
	})

	clock := ddbkit.StepClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond)
	wst := wardrobe.NewDynamoStore(stub.Client(), opts, func(o *wardrobe.Options) { o.Clock = clock })
	wsto := wardrobe.NewDynamoStore(stub.Client(), opts, func(o *wardrobe.Options) { o.Clock = clock }, traced)
	nowMs := func() int64 { return clock().UTC().UnixMilli() }

	b.Run("CreateWardrobe", func(b *testing.B) {
		newW := func() item {
			x := newID()
			return item{PK: "W#" + x, SK: "META", WardrobeID: x, Name: "わたしのクローゼット", CreatedAt: nowMs()}
		}
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := wst.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしのクローゼット"})
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				av, err := attributevalue.MarshalMap(newW())
				if err != nil {
					return err
				}
				// A one-item transaction with a token, as ddbkit's create:
				// the only way to tell one's own write after a lost
				// response from another's identical one.
				_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(uuid.NewString()),
					TransactItems: []types.TransactWriteItem{{Put: &types.Put{TableName: aws.String(table), Item: av,
						ConditionExpression:                 aws.String(notExists),
						ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}}})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				return db.WriteTx().Put(g.Put(newW()).If("attribute_not_exists(PK)")).Idempotent(true).Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := wsto.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしのクローゼット"})
				return err
			}, Overhead: true},
		)
	})

	// newWorn is a new clothing or template, as AddClothing and
	// AddTemplate make it.
	newWorn := func(kind string, ids []string) item {
		x, now := newID(), nowMs()
		it := item{PK: pkOf(kind), SK: kind + "#" + x, Name: "白シャツ", Status: "ACTIVE", CreatedAt: now,
			StatusListPK: pkOf(kind) + "#ACTIVE", CreatedAtSK: fmt.Sprintf("CREATED#%013d#%s", now, x),
			WearCountSK: "WEAR#0000000000#" + x, LastWornAtSK: "LASTWORN#0000000000000#" + x}
		if kind == "CLOTH" {
			it.ClothingID, it.ImageKey = x, "images/"+x+".jpg"
		} else {
			it.TemplateID, it.ClothingIDs = x, ids
		}
		return it
	}
	outfit := []string{id("cl", 0), id("cl", 1), id("cl", 2), id("cl", 3), id("cl", 4)}
	add := func(kind string, ids []string) error {
		av, err := attributevalue.MarshalMap(newWorn(kind, ids))
		if err != nil {
			return err
		}
		items := []types.TransactWriteItem{{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: key("W#"+wid, "META"),
			ConditionExpression: aws.String("attribute_exists(PK)"), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}}
		for _, x := range ids {
			items = append(items, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table),
				Key: key(pkOf("CLOTH"), "CLOTH#"+x), ConditionExpression: aws.String("attribute_exists(PK) AND #status = :active"),
				ExpressionAttributeNames:            map[string]string{"#status": "status"},
				ExpressionAttributeValues:           map[string]types.AttributeValue{":active": s("ACTIVE")},
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
		}
		items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: av,
			ConditionExpression: aws.String(notExists), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
		_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(uuid.NewString()), TransactItems: items})
		return err
	}
	gadd := func(kind string, ids []string) error {
		tx := db.WriteTx().Check(g.Check("PK", "W#"+wid).Range("SK", "META").IfExists())
		for _, x := range ids {
			tx = tx.Check(g.Check("PK", pkOf("CLOTH")).Range("SK", "CLOTH#"+x).IfExists().If("$ = ?", "status", "ACTIVE"))
		}
		return tx.Put(g.Put(newWorn(kind, ids)).If("attribute_not_exists(PK)")).Idempotent(true).Run(ctx)
	}
	b.Run("AddClothing", func(b *testing.B) {
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := wst.AddClothing(ctx, wid, wardrobe.NewClothing{Name: "白シャツ", ImageKey: "images/shirt.jpg"})
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error { return add("CLOTH", nil) }},
			bench.Variant{Name: "guregu", Op: func(int) error { return gadd("CLOTH", nil) }},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := wsto.AddClothing(ctx, wid, wardrobe.NewClothing{Name: "白シャツ", ImageKey: "images/shirt.jpg"})
				return err
			}, Overhead: true},
		)
	})
	b.Run("AddTemplate", func(b *testing.B) {
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := wst.AddTemplate(ctx, wid, wardrobe.NewTemplate{Name: "通勤スタイル", ClothingIDs: outfit})
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error { return add("TPL", outfit) }},
			bench.Variant{Name: "guregu", Op: func(int) error { return gadd("TPL", outfit) }},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := wsto.AddTemplate(ctx, wid, wardrobe.NewTemplate{Name: "通勤スタイル", ClothingIDs: outfit})
				return err
			}, Overhead: true},
		)
	})

	b.Run("UpdateClothing", func(b *testing.B) {
		name := "白シャツ（長袖）"
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := wst.UpdateClothing(ctx, wid, cl0, wardrobe.ClothingPatch{Name: &name})
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key(pkOf("CLOTH"), "CLOTH#"+cl0),
					UpdateExpression: aws.String("SET #name = :name"), ConditionExpression: aws.String("attribute_exists(PK)"),
					ExpressionAttributeNames:            map[string]string{"#name": "name"},
					ExpressionAttributeValues:           map[string]types.AttributeValue{":name": s(name)},
					ReturnValues:                        types.ReturnValueAllNew,
					ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
				if err != nil {
					return err
				}
				var it item
				return attributevalue.UnmarshalMap(out.Attributes, &it)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var it item
				return g.Update("PK", pkOf("CLOTH")).Range("SK", "CLOTH#"+cl0).Set("name", name).If("attribute_exists(PK)").Value(ctx, &it)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := wsto.UpdateClothing(ctx, wid, cl0, wardrobe.ClothingPatch{Name: &name})
				return err
			}, Overhead: true},
		)
	})

	// setStatus is DeleteX and RestoreX: status, deletedAt (NULL when
	// restored) and the status list in one conditional update.
	setStatus := func(name, kind, x, to string, op func(wst *wardrobe.DynamoStore) error) {
		b.Run(name, func(b *testing.B) {
			at := func() types.AttributeValue {
				if to == "DELETED" {
					return n(nowMs())
				}
				return &types.AttributeValueMemberNULL{Value: true}
			}
			gat := func() any {
				if to == "DELETED" {
					return nowMs()
				}
				return &types.AttributeValueMemberNULL{Value: true}
			}
			bench.Compare(b, stub,
				bench.Variant{Name: "ddbkit", Op: func(int) error { return op(wst) }},
				bench.Variant{Name: "otel", Op: func(int) error { return op(wsto) }, Overhead: true},
				bench.Variant{Name: "handwritten", Op: func(int) error {
					out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key(pkOf(kind), kind+"#"+x),
						UpdateExpression:         aws.String("SET #status = :st, deletedAt = :at, statusListPk = :pk"),
						ConditionExpression:      aws.String("attribute_exists(PK) AND #status <> :st"),
						ExpressionAttributeNames: map[string]string{"#status": "status"},
						ExpressionAttributeValues: map[string]types.AttributeValue{":st": s(to), ":at": at(),
							":pk": s(pkOf(kind) + "#" + to)},
						ReturnValues:                        types.ReturnValueAllNew,
						ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
					if err != nil {
						return err
					}
					var it item
					return attributevalue.UnmarshalMap(out.Attributes, &it)
				}},
				bench.Variant{Name: "guregu", Op: func(int) error {
					var it item
					return g.Update("PK", pkOf(kind)).Range("SK", kind+"#"+x).Set("status", to).Set("deletedAt", gat()).
						Set("statusListPk", pkOf(kind)+"#"+to).If("attribute_exists(PK) AND $ <> ?", "status", to).Value(ctx, &it)
				}},
			)
		})
	}
	setStatus("DeleteClothing", "CLOTH", cl0, "DELETED", func(wst *wardrobe.DynamoStore) error { _, err := wst.DeleteClothing(ctx, wid, cl0); return err })
	setStatus("RestoreClothing", "CLOTH", cl0, "ACTIVE", func(wst *wardrobe.DynamoStore) error { _, err := wst.RestoreClothing(ctx, wid, cl0); return err })
	setStatus("DeleteTemplate", "TPL", tp0, "DELETED", func(wst *wardrobe.DynamoStore) error { _, err := wst.DeleteTemplate(ctx, wid, tp0); return err })
	setStatus("RestoreTemplate", "TPL", tp0, "ACTIVE", func(wst *wardrobe.DynamoStore) error { _, err := wst.RestoreTemplate(ctx, wid, tp0); return err })

	b.Run("UpdateTemplate", func(b *testing.B) {
		name := "通勤スタイル（冬）"
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := wst.UpdateTemplate(ctx, wid, tp0, wardrobe.TemplatePatch{Name: &name})
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key(pkOf("TPL"), "TPL#"+tp0),
					UpdateExpression: aws.String("SET #name = :name"), ConditionExpression: aws.String("attribute_exists(PK)"),
					ExpressionAttributeNames:            map[string]string{"#name": "name"},
					ExpressionAttributeValues:           map[string]types.AttributeValue{":name": s(name)},
					ReturnValues:                        types.ReturnValueAllNew,
					ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
				if err != nil {
					return err
				}
				var it item
				return attributevalue.UnmarshalMap(out.Attributes, &it)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var it item
				return g.Update("PK", pkOf("TPL")).Range("SK", "TPL#"+tp0).Set("name", name).If("attribute_exists(PK)").Value(ctx, &it)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := wsto.UpdateTemplate(ctx, wid, tp0, wardrobe.TemplatePatch{Name: &name})
				return err
			}, Overhead: true},
		)
	})

	// UpdateTemplateClothes replaces a template's clothes: it reads the
	// template, and writes the new list on condition that what it returns
	// is unchanged, with a check that each new clothing is ACTIVE.
	b.Run("UpdateTemplateClothes", func(b *testing.B) {
		ids := outfit[:3]
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := wst.UpdateTemplate(ctx, wid, tp0, wardrobe.TemplatePatch{ClothingIDs: ids})
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true), Key: key(pkOf("TPL"), "TPL#"+tp0)})
				if err != nil {
					return err
				}
				var it item
				if err := attributevalue.UnmarshalMap(out.Item, &it); err != nil {
					return err
				}
				list := make([]types.AttributeValue, len(ids))
				for i, x := range ids {
					list[i] = s(x)
				}
				old := out.Item
				items := []types.TransactWriteItem{{Update: &types.Update{TableName: aws.String(table), Key: key(pkOf("TPL"), "TPL#"+tp0),
					UpdateExpression: aws.String("SET clothingIds = :ids"),
					ConditionExpression: aws.String("attribute_exists(PK) AND #status = :st AND wearCount = :wc AND lastWornAt = :lw" +
						" AND createdAt = :ca AND deletedAt = :da AND #name = :n"),
					ExpressionAttributeNames: map[string]string{"#status": "status", "#name": "name"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":ids": &types.AttributeValueMemberL{Value: list},
						":st": old["status"], ":wc": old["wearCount"], ":lw": old["lastWornAt"], ":ca": old["createdAt"],
						":da": old["deletedAt"], ":n": old["name"]},
					ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}}
				for _, x := range ids {
					items = append(items, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table),
						Key: key(pkOf("CLOTH"), "CLOTH#"+x), ConditionExpression: aws.String("attribute_exists(PK) AND #status = :active"),
						ExpressionAttributeNames:            map[string]string{"#status": "status"},
						ExpressionAttributeValues:           map[string]types.AttributeValue{":active": s("ACTIVE")},
						ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
				}
				_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(uuid.NewString()), TransactItems: items})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var it item
				if err := g.Get("PK", pkOf("TPL")).Range("SK", dynamo.Equal, "TPL#"+tp0).Consistent(true).One(ctx, &it); err != nil {
					return err
				}
				tx := db.WriteTx().Update(g.Update("PK", pkOf("TPL")).Range("SK", "TPL#"+tp0).Set("clothingIds", ids).
					If("attribute_exists(PK) AND $ = ? AND wearCount = ? AND lastWornAt = ? AND createdAt = ? AND deletedAt = ? AND $ = ?",
						"status", it.Status, it.WearCount, it.LastWornAt, it.CreatedAt, &types.AttributeValueMemberNULL{Value: true}, "name", it.Name))
				for _, x := range ids {
					tx = tx.Check(g.Check("PK", pkOf("CLOTH")).Range("SK", "CLOTH#"+x).IfExists().If("$ = ?", "status", "ACTIVE"))
				}
				return tx.Idempotent(true).Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := wsto.UpdateTemplate(ctx, wid, tp0, wardrobe.TemplatePatch{ClothingIDs: ids})
				return err
			}, Overhead: true},
		)
	})

	b.Run("AddHistory", func(b *testing.B) {
		in := wardrobe.NewHistory{TemplateID: tp0, ClothingIDs: outfit}
		refs := append([]string{"TPL#" + tp0}, func() []string {
			rs := make([]string, len(outfit))
			for i, x := range outfit {
				rs[i] = "CLOTH#" + x
			}
			return rs
		}()...)
		// newHistory is the history AddHistory writes for call i.
		newHistory := func(i int) history {
			x, d := newID(), string(benchDates[i%len(benchDates)])
			return history{PK: pkOf("HIST"), SK: "HIST#" + x, HistoryID: x, CreatedAt: nowMs(), Date: d,
				TemplateID: &tp0, ClothingIDs: outfit, DateSK: "DATE#" + d + "#" + x}
		}
		// statsAfter is what a wear on day d makes of the statistics of it.
		statsAfter := func(it item, d string) (wc int, lw, sv int64, wsk, lsk string) {
			x := strings.SplitN(it.SK, "#", 2)[1]
			wc, lw, sv = it.WearCount+1, max(it.LastWornAt, dayMs(d)), it.StatsVersion+1
			return wc, lw, sv, fmt.Sprintf("WEAR#%010d#%s", wc, x), fmt.Sprintf("LASTWORN#%013d#%s", lw, x)
		}
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(i int) error {
				in.Date = benchDates[i%len(benchDates)]
				_, err := wst.AddHistory(ctx, wid, in)
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(i int) error {
				ks := []map[string]types.AttributeValue{key("W#"+wid, "META")}
				for _, r := range refs {
					kind, _, _ := strings.Cut(r, "#")
					ks = append(ks, key(pkOf(kind), r))
				}
				raw := make(map[string]map[string]types.AttributeValue, len(ks))
				req := map[string]types.KeysAndAttributes{table: {Keys: ks, ConsistentRead: aws.Bool(true)}}
				for len(req) > 0 {
					out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
					if err != nil {
						return err
					}
					for _, it := range out.Responses[table] {
						raw[it["SK"].(*types.AttributeValueMemberS).Value] = it
					}
					req = out.UnprocessedKeys
				}
				if raw["META"] == nil {
					return fmt.Errorf("no wardrobe")
				}
				h := newHistory(i)
				hav, err := attributevalue.MarshalMap(h)
				if err != nil {
					return err
				}
				items := []types.TransactWriteItem{{Put: &types.Put{TableName: aws.String(table), Item: hav,
					ConditionExpression: aws.String(notExists), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}}
				for _, r := range refs {
					old := raw[r]
					var it item
					if err := attributevalue.UnmarshalMap(old, &it); err != nil {
						return err
					}
					if it.Status != "ACTIVE" {
						return fmt.Errorf("%s is %s", r, it.Status)
					}
					kind, x, _ := strings.Cut(r, "#")
					wc, lw, sv, wsk, lsk := statsAfter(it, h.Date)
					items = append(items,
						types.TransactWriteItem{Update: &types.Update{TableName: aws.String(table),
							Key:              key(pkOf("COUNT#"+kind+"#"+x), "DATE#"+h.Date),
							UpdateExpression: aws.String(counterAdd), ExpressionAttributeNames: map[string]string{"#count": "count", "#date": "date"},
							ExpressionAttributeValues:           map[string]types.AttributeValue{":one": n(1), ":date": s(h.Date)},
							ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
						types.TransactWriteItem{Update: &types.Update{TableName: aws.String(table), Key: key(pkOf(kind), r),
							UpdateExpression: aws.String(statsSet), ConditionExpression: aws.String(statsActive),
							ExpressionAttributeNames: map[string]string{"#status": "status"},
							ExpressionAttributeValues: map[string]types.AttributeValue{
								":wc": n(int64(wc)), ":lw": n(lw), ":sv": n(sv), ":wsk": s(wsk), ":lsk": s(lsk),
								":owc": old["wearCount"], ":olw": old["lastWornAt"], ":osv": old["statsVersion"], ":active": s("ACTIVE")},
							ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
				}
				_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(uuid.NewString()), TransactItems: items})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(i int) error {
				ks := []dynamo.Keyed{dynamo.Keys{"W#" + wid, "META"}}
				for _, r := range refs {
					kind, _, _ := strings.Cut(r, "#")
					ks = append(ks, dynamo.Keys{pkOf(kind), r})
				}
				var got []item
				if err := g.Batch("PK", "SK").Get(ks...).Consistent(true).All(ctx, &got); err != nil {
					return err
				}
				read := make(map[string]item, len(got))
				for _, it := range got {
					read[it.SK] = it
				}
				if _, ok := read["META"]; !ok {
					return fmt.Errorf("no wardrobe")
				}
				h := newHistory(i)
				tx := db.WriteTx().Put(g.Put(h).If("attribute_not_exists(PK)"))
				for _, r := range refs {
					it := read[r]
					if it.Status != "ACTIVE" {
						return fmt.Errorf("%s is %s", r, it.Status)
					}
					kind, x, _ := strings.Cut(r, "#")
					wc, lw, sv, wsk, lsk := statsAfter(it, h.Date)
					tx = tx.Update(g.Update("PK", pkOf("COUNT#"+kind+"#"+x)).Range("SK", "DATE#"+h.Date).Add("count", 1).Set("date", h.Date)).
						Update(g.Update("PK", pkOf(kind)).Range("SK", r).Set("wearCount", wc).Set("lastWornAt", lw).Set("statsVersion", sv).
							Set("wearCountSk", wsk).Set("lastWornAtSk", lsk).
							If("attribute_exists(PK) AND wearCount = ? AND lastWornAt = ? AND statsVersion = ? AND $ = ?",
								it.WearCount, it.LastWornAt, it.StatsVersion, "status", "ACTIVE"))
				}
				return tx.Idempotent(true).Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(i int) error {
				in.Date = benchDates[i%len(benchDates)]
				_, err := wsto.AddHistory(ctx, wid, in)
				return err
			}, Overhead: true},
		)
	})

	b.Run("DeleteHistory", func(b *testing.B) {
		h := stubHistory(0)
		refs := []string{"TPL#" + *h.TemplateID}
		for _, x := range h.ClothingIDs {
			refs = append(refs, "CLOTH#"+x)
		}
		counterKey := func(r string) (pk, sk string) {
			kind, x, _ := strings.Cut(r, "#")
			return pkOf("COUNT#" + kind + "#" + x), "DATE#" + h.Date
		}
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error { return wst.DeleteHistory(ctx, wid, hs0) }},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
					Key: key(pkOf("HIST"), "HIST#"+hs0)})
				if err != nil {
					return err
				}
				var hh history
				if err := attributevalue.UnmarshalMap(out.Item, &hh); err != nil {
					return err
				}
				var ks []map[string]types.AttributeValue
				for _, r := range refs {
					kind, _, _ := strings.Cut(r, "#")
					ks = append(ks, key(pkOf(kind), r))
				}
				for _, r := range refs {
					ks = append(ks, key(counterKey(r)))
				}
				raw := make(map[string]map[string]types.AttributeValue, len(ks))
				req := map[string]types.KeysAndAttributes{table: {Keys: ks, ConsistentRead: aws.Bool(true)}}
				for len(req) > 0 {
					out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
					if err != nil {
						return err
					}
					for _, it := range out.Responses[table] {
						raw[it["PK"].(*types.AttributeValueMemberS).Value+"|"+it["SK"].(*types.AttributeValueMemberS).Value] = it
					}
					req = out.UnprocessedKeys
				}
				items := []types.TransactWriteItem{{Delete: &types.Delete{TableName: aws.String(table), Key: key(pkOf("HIST"), "HIST#"+hs0),
					ConditionExpression: aws.String("attribute_exists(PK)"), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}}
				for _, r := range refs {
					kind, x, _ := strings.Cut(r, "#")
					cpk, csk := counterKey(r)
					craw := raw[cpk+"|"+csk]
					var ct counter
					if err := attributevalue.UnmarshalMap(craw, &ct); err != nil {
						return err
					}
					old := raw[pkOf(kind)+"|"+r]
					var it item
					if err := attributevalue.UnmarshalMap(old, &it); err != nil {
						return err
					}
					wc, sv := max(it.WearCount-1, 0), it.StatsVersion+1
					items = append(items,
						types.TransactWriteItem{Update: &types.Update{TableName: aws.String(table), Key: key(cpk, csk),
							UpdateExpression: aws.String("SET #count = :c"), ConditionExpression: aws.String("attribute_exists(PK) AND #count = :oc"),
							ExpressionAttributeNames:            map[string]string{"#count": "count"},
							ExpressionAttributeValues:           map[string]types.AttributeValue{":c": n(int64(ct.Count - 1)), ":oc": craw["count"]},
							ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
						types.TransactWriteItem{Update: &types.Update{TableName: aws.String(table), Key: key(pkOf(kind), r),
							UpdateExpression:    aws.String(statsSet),
							ConditionExpression: aws.String("attribute_exists(PK) AND wearCount = :owc AND lastWornAt = :olw AND statsVersion = :osv"),
							ExpressionAttributeValues: map[string]types.AttributeValue{
								":wc": n(int64(wc)), ":lw": n(it.LastWornAt), ":sv": n(sv),
								":wsk": s(fmt.Sprintf("WEAR#%010d#%s", wc, x)), ":lsk": s(fmt.Sprintf("LASTWORN#%013d#%s", it.LastWornAt, x)),
								":owc": old["wearCount"], ":olw": old["lastWornAt"], ":osv": old["statsVersion"]},
							ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
				}
				_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(uuid.NewString()), TransactItems: items})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var hh history
				if err := g.Get("PK", pkOf("HIST")).Range("SK", dynamo.Equal, "HIST#"+hs0).Consistent(true).One(ctx, &hh); err != nil {
					return err
				}
				var ks []dynamo.Keyed
				for _, r := range refs {
					kind, _, _ := strings.Cut(r, "#")
					ks = append(ks, dynamo.Keys{pkOf(kind), r})
				}
				for _, r := range refs {
					cpk, csk := counterKey(r)
					ks = append(ks, dynamo.Keys{cpk, csk})
				}
				var got []map[string]types.AttributeValue
				if err := g.Batch("PK", "SK").Get(ks...).Consistent(true).All(ctx, &got); err != nil {
					return err
				}
				raw := make(map[string]map[string]types.AttributeValue, len(got))
				for _, it := range got {
					raw[it["PK"].(*types.AttributeValueMemberS).Value+"|"+it["SK"].(*types.AttributeValueMemberS).Value] = it
				}
				tx := db.WriteTx().Delete(g.Delete("PK", pkOf("HIST")).Range("SK", "HIST#"+hs0).If("attribute_exists(PK)"))
				for _, r := range refs {
					kind, x, _ := strings.Cut(r, "#")
					cpk, csk := counterKey(r)
					var ct counter
					if err := dynamo.UnmarshalItem(raw[cpk+"|"+csk], &ct); err != nil {
						return err
					}
					var it item
					if err := dynamo.UnmarshalItem(raw[pkOf(kind)+"|"+r], &it); err != nil {
						return err
					}
					wc, sv := max(it.WearCount-1, 0), it.StatsVersion+1
					tx = tx.Update(g.Update("PK", cpk).Range("SK", csk).Set("count", ct.Count-1).If("attribute_exists(PK) AND $ = ?", "count", ct.Count)).
						Update(g.Update("PK", pkOf(kind)).Range("SK", r).Set("wearCount", wc).Set("lastWornAt", it.LastWornAt).Set("statsVersion", sv).
							Set("wearCountSk", fmt.Sprintf("WEAR#%010d#%s", wc, x)).Set("lastWornAtSk", fmt.Sprintf("LASTWORN#%013d#%s", it.LastWornAt, x)).
							If("attribute_exists(PK) AND wearCount = ? AND lastWornAt = ? AND statsVersion = ?", it.WearCount, it.LastWornAt, it.StatsVersion))
				}
				return tx.Idempotent(true).Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(int) error { return wsto.DeleteHistory(ctx, wid, hs0) }, Overhead: true},
		)
	})
}

// Thumbnails are read as the store reads them: eventually consistent, and
// only what a thumbnail shows.
var (
	thumbConsistent = false
	thumbProjection = aws.String("PK, SK, #name, imageKey, #status")
	thumbNames      = map[string]string{"#name": "name", "#status": "status"}
)

// fake fills a memory store and a DynamoDB store on DynamoDB Local with
// the same wardrobe: n clothes, n/4 templates of 6 clothes, and n/4
// histories of 5, and returns the IDs.
type fixture struct {
	wid                  string
	clothes, tpls, hists []string
}

func fill(b *testing.B, s wardrobe.Store, n int) fixture {
	b.Helper()
	ctx := context.Background()
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	f := fixture{wid: w.ID}
	for i := range n {
		c, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: fmt.Sprint("服", i), ImageKey: fmt.Sprintf("clothes/%d.jpg", i)})
		if err != nil {
			b.Fatal(err)
		}
		f.clothes = append(f.clothes, c.ID)
	}
	outfit := func(i, k int) []string {
		ids := make([]string, k)
		for j := range ids {
			ids[j] = f.clothes[(i*7+j*13)%len(f.clothes)]
		}
		return ids
	}
	for i := range n / 4 {
		t, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: fmt.Sprint("テンプレ", i), ClothingIDs: outfit(i, 6)})
		if err != nil {
			b.Fatal(err)
		}
		f.tpls = append(f.tpls, t.ID)
	}
	for i := range n / 4 {
		h, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: benchDates[i%len(benchDates)], ClothingIDs: outfit(i, 5)})
		if err != nil {
			b.Fatal(err)
		}
		f.hists = append(f.hists, h.ID)
	}
	return f
}

func seeded(seed uint64, name string) func(o *wardrobe.Options) {
	return func(o *wardrobe.Options) {
		clock := ddbkit.StepClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond)
		o.Clock, o.NewID, o.TableName = clock, ddbkit.SeededUUIDv7s(seed, clock), name
	}
}

// BenchmarkWardrobeFake compares each operation on DynamoDB Local with the
// same operation on the memory store: x-memory is how many times faster
// the fake is (the target is 100 or more).
func BenchmarkWardrobeFake(b *testing.B) {
	ctx := context.Background()
	c := ddbtest.Client(b)
	name := ddbtest.NewTable(b, c, wardrobe.CreateTableInput("bench-wardrobe"))
	memory := wardrobe.NewMemoryStore(seeded(1, name))
	f := fill(b, memory, 200)
	// RecalculateStats reads every clothing and template of a wardrobe, and
	// the memory store makes a hundred times more calls of each write than
	// DynamoDB Local in the same time: on f's wardrobe, which the writes
	// grow, it would compare two wardrobes of different sizes.
	still := fill(b, memory, 200)
	bench.PutAll(b, c, memory.Export())
	local := wardrobe.NewDynamoStore(c, seeded(2, name))
	name1, name2 := "白シャツ（長袖）", "通勤スタイル（冬）"
	page := ddbkit.PageOptions{Limit: 50}
	for _, op := range []struct {
		name string
		op   func(s wardrobe.Store) func(int) error
	}{
		{"GetWardrobe", func(s wardrobe.Store) func(int) error {
			return func(int) error { _, err := s.GetWardrobe(ctx, f.wid); return err }
		}},
		{"GetClothing", func(s wardrobe.Store) func(int) error {
			return func(i int) error { _, err := s.GetClothing(ctx, f.wid, f.clothes[i%len(f.clothes)]); return err }
		}},
		{"GetTemplate", func(s wardrobe.Store) func(int) error {
			return func(i int) error { _, err := s.GetTemplate(ctx, f.wid, f.tpls[i%len(f.tpls)]); return err }
		}},
		{"GetHistory", func(s wardrobe.Store) func(int) error {
			return func(i int) error { _, err := s.GetHistory(ctx, f.wid, f.hists[i%len(f.hists)]); return err }
		}},
		{"ListClothes50", func(s wardrobe.Store) func(int) error {
			return func(int) error {
				p, err := s.ListClothes(ctx, f.wid, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Descending: true, PageOptions: page})
				return wantPage(len(p.Items), p.Next != "", err)
			}
		}},
		{"ListTemplates20", func(s wardrobe.Store) func(int) error {
			return func(int) error {
				p, err := s.ListTemplates(ctx, f.wid, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: 20}})
				if err == nil && (len(p.Items) != 20 || len(p.Items[0].Thumbnails) != wardrobe.ThumbnailCount) {
					err = fmt.Errorf("%d templates", len(p.Items))
				}
				return err
			}
		}},
		{"ListHistory20", func(s wardrobe.Store) func(int) error {
			return func(int) error {
				p, err := s.ListHistory(ctx, f.wid, wardrobe.HistoryQuery{Descending: true, PageOptions: ddbkit.PageOptions{Limit: 20}})
				if err == nil && len(p.Items) != 20 {
					err = fmt.Errorf("%d histories", len(p.Items))
				}
				return err
			}
		}},
		{"ListDailyWear", func(s wardrobe.Store) func(int) error {
			return func(i int) error {
				_, err := s.ListDailyWear(ctx, f.wid, wardrobe.KindClothing, f.clothes[i%len(f.clothes)], wardrobe.DailyQuery{})
				return err
			}
		}},
		{"CreateWardrobe", func(s wardrobe.Store) func(int) error {
			return func(int) error { _, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"}); return err }
		}},
		{"AddClothing", func(s wardrobe.Store) func(int) error {
			return func(int) error {
				_, err := s.AddClothing(ctx, f.wid, wardrobe.NewClothing{Name: "白シャツ", ImageKey: "images/shirt.jpg"})
				return err
			}
		}},
		{"AddTemplate", func(s wardrobe.Store) func(int) error {
			return func(int) error {
				_, err := s.AddTemplate(ctx, f.wid, wardrobe.NewTemplate{Name: "t", ClothingIDs: f.clothes[:5]})
				return err
			}
		}},
		{"UpdateClothing", func(s wardrobe.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateClothing(ctx, f.wid, f.clothes[i%len(f.clothes)], wardrobe.ClothingPatch{Name: &name1})
				return err
			}
		}},
		{"UpdateTemplate", func(s wardrobe.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateTemplate(ctx, f.wid, f.tpls[i%len(f.tpls)], wardrobe.TemplatePatch{Name: &name2})
				return err
			}
		}},
		{"DeleteRestoreClothing", func(s wardrobe.Store) func(int) error {
			return func(i int) error {
				x := f.clothes[len(f.clothes)-1]
				if i%2 == 0 {
					_, err := s.DeleteClothing(ctx, f.wid, x)
					return err
				}
				_, err := s.RestoreClothing(ctx, f.wid, x)
				return err
			}
		}},
		{"DeleteRestoreTemplate", func(s wardrobe.Store) func(int) error {
			return func(i int) error {
				x := f.tpls[len(f.tpls)-1]
				if i%2 == 0 {
					_, err := s.DeleteTemplate(ctx, f.wid, x)
					return err
				}
				_, err := s.RestoreTemplate(ctx, f.wid, x)
				return err
			}
		}},
		{"UpdateTemplateClothes", func(s wardrobe.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateTemplate(ctx, f.wid, f.tpls[i%len(f.tpls)], wardrobe.TemplatePatch{ClothingIDs: f.clothes[i%3 : i%3+4]})
				return err
			}
		}},
		{"RecalculateStats", func(s wardrobe.Store) func(int) error {
			return func(int) error { _, err := s.RecalculateStats(ctx, still.wid); return err }
		}},
		{"AddDeleteHistory", func(s wardrobe.Store) func(int) error {
			return func(i int) error {
				h, err := s.AddHistory(ctx, f.wid, wardrobe.NewHistory{Date: benchDates[i%len(benchDates)],
					TemplateID: f.tpls[0], ClothingIDs: f.clothes[:5]})
				if err != nil {
					return err
				}
				return s.DeleteHistory(ctx, f.wid, h.ID)
			}
		}},
		{"AddHistory", func(s wardrobe.Store) func(int) error {
			return func(i int) error {
				_, err := s.AddHistory(ctx, f.wid, wardrobe.NewHistory{Date: benchDates[i%len(benchDates)],
					TemplateID: f.tpls[1], ClothingIDs: f.clothes[5:10]})
				return err
			}
		}},
	} {
		b.Run(op.name, func(b *testing.B) {
			bench.Compare(b, nil,
				bench.Variant{Name: "dynamodb-local", Op: op.op(local), Remote: true},
				bench.Variant{Name: "memory", Op: op.op(memory)})
		})
	}
}

// BenchmarkWardrobePage compares a 50-item page from the middle of 100,000
// items with one from the middle of 1,000 on the memory store: x-1k is the
// growth (the target is at most 1.1).
func BenchmarkWardrobePage(b *testing.B) {
	ctx := context.Background()
	newStore := func() (*wardrobe.MemoryStore, string) {
		s := wardrobe.NewMemoryStore(seeded(1, wardrobe.DefaultTableName))
		w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		return s, w.ID
	}
	addClothes := func(s *wardrobe.MemoryStore, wid string, n int) []string {
		ids := make([]string, n)
		for i := range ids {
			c, err := s.AddClothing(ctx, wid, wardrobe.NewClothing{Name: "服", ImageKey: "clothes/x.jpg"})
			if err != nil {
				b.Fatal(err)
			}
			ids[i] = c.ID
		}
		return ids
	}
	b.Run("ListClothes", func(b *testing.B) {
		bench.Growth(b, func(n int) func(int) error {
			s, wid := newStore()
			addClothes(s, wid, n)
			opts := wardrobe.ListQuery{Order: wardrobe.OrderCreatedAt, Descending: true}
			opts.Cursor = bench.Middle(b, n, func(po ddbkit.PageOptions) (string, int, error) {
				o := opts
				o.PageOptions = po
				p, err := s.ListClothes(ctx, wid, o)
				return p.Next, len(p.Items), err
			})
			opts.Limit = 50
			return func(int) error {
				p, err := s.ListClothes(ctx, wid, opts)
				return wantPage(len(p.Items), p.Next != "", err)
			}
		})
	})
	b.Run("ListTemplates", func(b *testing.B) {
		bench.Growth(b, func(n int) func(int) error {
			s, wid := newStore()
			ids := addClothes(s, wid, 100)
			for i := range n {
				outfit := make([]string, 6)
				for j := range outfit {
					outfit[j] = ids[(i*7+j*13)%len(ids)]
				}
				if _, err := s.AddTemplate(ctx, wid, wardrobe.NewTemplate{Name: "t", ClothingIDs: outfit}); err != nil {
					b.Fatal(err)
				}
			}
			opts := wardrobe.ListQuery{Descending: true}
			opts.Cursor = bench.Middle(b, n, func(po ddbkit.PageOptions) (string, int, error) {
				o := opts
				o.PageOptions = po
				p, err := s.ListTemplates(ctx, wid, o)
				return p.Next, len(p.Items), err
			})
			opts.Limit = 50
			return func(int) error {
				p, err := s.ListTemplates(ctx, wid, opts)
				return wantPage(len(p.Items), p.Next != "", err)
			}
		})
	})
	b.Run("ListHistory", func(b *testing.B) {
		bench.Growth(b, func(n int) func(int) error {
			s, wid := newStore()
			ids := addClothes(s, wid, 100)
			for i := range n {
				outfit := make([]string, 5)
				for j := range outfit {
					outfit[j] = ids[(i*3+j*7)%len(ids)]
				}
				if _, err := s.AddHistory(ctx, wid, wardrobe.NewHistory{Date: benchDates[i%len(benchDates)], ClothingIDs: outfit}); err != nil {
					b.Fatal(err)
				}
			}
			hq := wardrobe.HistoryQuery{Descending: true}
			hq.Cursor = bench.Middle(b, n, func(po ddbkit.PageOptions) (string, int, error) {
				q := hq
				q.PageOptions = po
				p, err := s.ListHistory(ctx, wid, q)
				return p.Next, len(p.Items), err
			})
			hq.Limit = 50
			return func(int) error {
				p, err := s.ListHistory(ctx, wid, hq)
				return wantPage(len(p.Items), p.Next != "", err)
			}
		})
	})
}
