package wardrobe_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// benchDates are a year of days, for spreading histories over counters.
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

// benchWardrobe returns a memory store with one wardrobe of n clothes,
// whose wear counts run 0 to 3 (clothing i is worn i%4 times, 20 clothes
// a history), and the clothes' IDs.
func benchWardrobe(b *testing.B, n int) (*wardrobe.MemoryStore, string, []string) {
	b.Helper()
	ctx := context.Background()
	s := wardrobe.NewMemoryStore(func(o *wardrobe.Options) {
		o.Clock = ddbkit.StepClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond)
	})
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]string, n)
	for i := range ids {
		c, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: fmt.Sprint("服", i), ImageKey: fmt.Sprintf("clothes/%d.jpg", i)})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = c.ID
	}
	h := 0
	for k := 1; k <= 3; k++ {
		var outfit []string
		flush := func() {
			if _, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: benchDates[h%len(benchDates)], ClothingIDs: outfit}); err != nil {
				b.Fatal(err)
			}
			h++
			outfit = outfit[:0]
		}
		for i, id := range ids {
			if i%4 >= k {
				outfit = append(outfit, id)
			}
			if len(outfit) == wardrobe.MaxClothes {
				flush()
			}
		}
		if len(outfit) > 0 {
			flush()
		}
	}
	return s, w.ID, ids
}

// BenchmarkMemoryAddHistory is AP-16 on the memory store: a template and
// five clothes, on a day of the year, in a wardrobe of 1000 clothes.
func BenchmarkMemoryAddHistory(b *testing.B) {
	s, wid, ids := benchWardrobe(b, 1000)
	ctx := context.Background()
	outfit := ids[:5]
	t, err := s.AddTemplate(ctx, wid, wardrobe.NewTemplate{Name: "通勤スタイル", ClothingIDs: outfit})
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		in := wardrobe.NewHistory{Date: benchDates[i%len(benchDates)], TemplateID: t.ID, ClothingIDs: outfit}
		if _, err := s.AddHistory(ctx, wid, in); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// middleCursor walks a listing to its middle and returns the cursor of the
// page there.
func middleCursor(b *testing.B, list func(ddbkit.PageOptions) (string, int, error), n int) string {
	b.Helper()
	cursor, seen := "", 0
	for seen < n/2 {
		next, got, err := list(ddbkit.PageOptions{Limit: min(ddbkit.MaxPageLimit, n/2-seen), Cursor: cursor})
		if err != nil || next == "" {
			b.Fatalf("walking to the middle: %d items seen, %v", seen, err)
		}
		cursor, seen = next, seen+got
	}
	return cursor
}

// BenchmarkMemoryListClothesPage50 is one 50-item page of AP-04 from the
// middle of the listing, by wear count (most worn first) and by
// registration. Its cost must not grow with the wardrobe: the page is a
// seek in the ordered index, then 50 steps.
func BenchmarkMemoryListClothesPage50(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprint(n, "clothes"), func(b *testing.B) {
			s, wid, _ := benchWardrobe(b, n)
			for _, order := range []struct {
				name string
				opts wardrobe.ListOptions
			}{
				{"wear-desc", wardrobe.ListOptions{Order: wardrobe.OrderWearCount, Descending: true}},
				{"created", wardrobe.ListOptions{Order: wardrobe.OrderCreatedAt}},
			} {
				b.Run(order.name, func(b *testing.B) {
					opts := order.opts
					opts.Cursor = middleCursor(b, func(po ddbkit.PageOptions) (string, int, error) {
						o := order.opts
						o.PageOptions = po
						p, err := s.ListClothes(ctx, wid, o)
						return p.Next, len(p.Items), err
					}, n)
					opts.Limit = 50
					for b.Loop() {
						p, err := s.ListClothes(ctx, wid, opts)
						if err != nil || len(p.Items) != 50 {
							b.Fatalf("%d items, %v", len(p.Items), err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkMemoryListTemplatesPage50 is one 50-item page of AP-09 from the
// middle of 1000 templates of 6 clothes each: 50 templates and their 200
// thumbnails.
func BenchmarkMemoryListTemplatesPage50(b *testing.B) {
	const n = 1000
	ctx := context.Background()
	s, wid, ids := benchWardrobe(b, 100)
	for i := range n {
		outfit := make([]string, 6)
		for j := range outfit {
			outfit[j] = ids[(i*7+j*13)%len(ids)]
		}
		if _, err := s.AddTemplate(ctx, wid, wardrobe.NewTemplate{Name: fmt.Sprint("テンプレ", i), ClothingIDs: outfit}); err != nil {
			b.Fatal(err)
		}
	}
	opts := wardrobe.ListOptions{Descending: true}
	opts.Cursor = middleCursor(b, func(po ddbkit.PageOptions) (string, int, error) {
		p, err := s.ListTemplates(ctx, wid, wardrobe.ListOptions{Descending: true, PageOptions: po})
		return p.Next, len(p.Items), err
	}, n)
	opts.Limit = 50
	for b.Loop() {
		p, err := s.ListTemplates(ctx, wid, opts)
		if err != nil || len(p.Items) != 50 || len(p.Items[0].Thumbnails) != wardrobe.ThumbnailCount || p.Items[0].More != 2 {
			b.Fatalf("%d items, %v", len(p.Items), err)
		}
	}
}

// The stub wardrobe that the DynamoDB benchmarks read: fixed IDs, so that
// canned responses can hold its items.
const (
	stubTable    = "bench"
	stubWardrobe = "wd01"
	stubTemplate = "tp01"
)

var stubClothes = []string{"cl01", "cl02", "cl03", "cl04", "cl05"}

// stubAddHistory answers AP-16's two calls without a network, so that a
// benchmark measures the client side's CPU only: BatchGetItem with the
// wardrobe, the template and its five clothes, as the seed lays them out,
// and TransactWriteItems with success.
type stubAddHistory struct {
	batchGet []byte
}

func newStubAddHistory() *stubAddHistory {
	type av = map[string]any
	const created = 1767225600000 // 2026-01-01
	worn := func(kind, id string, extra map[string]av) map[string]av {
		pk := "W#" + stubWardrobe + "#" + kind
		item := map[string]av{
			"PK": {"S": pk}, "SK": {"S": kind + "#" + id},
			"name": {"S": "服 " + id}, "status": {"S": "ACTIVE"},
			"wearCount": {"N": "12"}, "lastWornAt": {"N": "1767571200000"}, "createdAt": {"N": fmt.Sprint(created)},
			"deletedAt":    {"NULL": true},
			"statusListPk": {"S": pk + "#ACTIVE"},
			"createdAtSk":  {"S": fmt.Sprintf("CREATED#%013d#%s", created, id)},
			"wearCountSk":  {"S": "WEAR#0000000012#" + id},
			"lastWornAtSk": {"S": "LASTWORN#1767571200000#" + id},
		}
		for k, v := range extra {
			item[k] = v
		}
		return item
	}
	items := []map[string]av{{
		"PK": {"S": "W#" + stubWardrobe}, "SK": {"S": "META"},
		"wardrobeId": {"S": stubWardrobe}, "name": {"S": "わたしのクローゼット"}, "createdAt": {"N": fmt.Sprint(created)},
	}}
	ids := make([]av, len(stubClothes))
	for i, id := range stubClothes {
		ids[i] = av{"S": id}
		items = append(items, worn("CLOTH", id, map[string]av{
			"clothingId": {"S": id}, "imageKey": {"S": "clothes/" + id + ".jpg"},
		}))
	}
	items = append(items, worn("TPL", stubTemplate, map[string]av{
		"templateId": {"S": stubTemplate}, "clothingIds": {"L": ids},
	}))
	body, err := json.Marshal(map[string]any{
		"Responses":       map[string]any{stubTable: items},
		"UnprocessedKeys": map[string]any{},
	})
	if err != nil {
		panic(err)
	}
	return &stubAddHistory{batchGet: body}
}

func (s *stubAddHistory) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	switch target := r.Header.Get("X-Amz-Target"); {
	case strings.HasSuffix(target, ".BatchGetItem"):
		body = s.batchGet
	case strings.HasSuffix(target, ".TransactWriteItems"):
		body = []byte(`{}`)
	default:
		return nil, fmt.Errorf("stub: unexpected %s", target)
	}
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// BenchmarkDynamoAddHistory is AP-16 on the DynamoDB store against the
// stub: one BatchGetItem of 7 keys and one TransactWriteItems of 13
// items (the history, and a counter and the statistics of the template
// and of each of the five clothes).
func BenchmarkDynamoAddHistory(b *testing.B) {
	ctx := context.Background()
	c := dynamodb.New(dynamodb.Options{
		Region:       "ap-northeast-1",
		BaseEndpoint: aws.String("http://dynamodb.stub"),
		Credentials:  credentials.NewStaticCredentialsProvider("k", "s", ""),
		HTTPClient:   &http.Client{Transport: newStubAddHistory()},
	})
	s := wardrobe.NewDynamoStore(c, func(o *wardrobe.Options) { o.TableName = stubTable })
	in := wardrobe.NewHistory{TemplateID: stubTemplate, ClothingIDs: stubClothes}
	i := 0
	for b.Loop() {
		in.Date = benchDates[i%len(benchDates)]
		if _, err := s.AddHistory(ctx, stubWardrobe, in); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
