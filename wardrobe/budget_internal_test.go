package wardrobe

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestLatestPageBudget holds AP-17's filtered lookup of the day before
// (latestPage) to its budget on DynamoDB Local: an item with one wear on
// 2010-01-02, then thousands of daily counters at 0 (another writer's
// leftovers) up to the day taken back. The first page costs the same
// Queries and about the same read units with 2,000 counters at 0 as with
// 4,000, and ends empty with a Next; paging on ends, and finds the wear.
// The memory store ends every page at the same counter (the same Next
// cursors).
func TestLatestPageBudget(t *testing.T) {
	const budget = 250
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, CreateTableInput("wardrobe"))
	cc := ddbtest.NewCapacityClient(c)
	count := ddbtest.NewCountingClient(cc)
	opts := func(o *Options) { o.TableName, o.FilterBudget = name, budget }
	dyn := NewDynamoStore(count, opts)
	mem := NewMemoryStore(opts)
	ctx := t.Context()

	type cost struct {
		queries int
		read    float64
	}
	first := map[int]cost{}
	for _, zeros := range []int{2000, 4000} {
		id := fmt.Sprint("c", zeros)
		pk, err := counterPK("w", KindClothing, id)
		if err != nil {
			t.Fatal(err)
		}
		day := time.Date(2010, 1, 2, 0, 0, 0, 0, time.UTC)
		counter := func(i, n int) ddb.Item {
			d := DateOf(day.AddDate(0, 0, i))
			return ddb.Item{AttrPK: ddb.S(pk), AttrSK: ddb.S("DATE#" + string(d)), attrDate: ddb.S(string(d)), attrCount: num(int64(n))}
		}
		items := []ddb.Item{counter(0, 1)}
		for i := 1; i <= zeros; i++ {
			items = append(items, counter(i, 0))
		}
		writeRaw(t, c, name, items)
		if err := mem.Import(ddbkit.TableItems{name: items}); err != nil {
			t.Fatal(err)
		}
		taken := DateOf(day.AddDate(0, 0, zeros+1))
		q, err := latestQuery(dyn.t, "w", KindClothing, id, taken, budget)
		if err != nil {
			t.Fatal(err)
		}
		var pages int
		for cursor := ""; ; pages++ {
			count.Reset()
			cc.Reset()
			got, next, err := dyn.latestPage(ctx, q, cursor)
			if err != nil {
				t.Fatalf("latestPage: %v", err)
			}
			if pages == 0 {
				first[zeros] = cost{count.Count("Query"), cc.Consumed().Read}
				if len(got) != 0 || next == "" {
					t.Fatalf("first page over %d counters at 0 = %d items, Next %q; want none and a Next", zeros, len(got), next)
				}
			}
			mgot, mnext, err := mem.latestPage(ctx, q, cursor)
			if err != nil || len(mgot) != len(got) || mnext != next {
				t.Fatalf("page %d: memory store = %d items, Next %q, %v; DynamoDB %d items, Next %q", pages, len(mgot), mnext, err, len(got), next)
			}
			if len(got) > 0 {
				c, err := unmarshalCounter(dyn.t, got[0])
				if err != nil || c.Date != DateOf(day) || c.Count != 1 {
					t.Fatalf("the walk found %+v, %v; want the wear of %s", c, err, DateOf(day))
				}
				break
			}
			if next == "" {
				t.Fatal("the walk ended without finding the wear")
			}
			if pages > zeros/budget+2 {
				t.Fatalf("the walk took %d pages over %d counters, budget %d", pages, zeros, budget)
			}
			cursor = next
		}
		if ms, err := mem.latestBefore(ctx, "w", wornRef{kind: KindClothing, id: id}, taken); err != nil || ms != day.UnixMilli() {
			t.Fatalf("memory latestBefore = %d, %v; want %d", ms, err, day.UnixMilli())
		}
		if ms, err := dyn.latestBefore(ctx, "w", wornRef{kind: KindClothing, id: id}, taken); err != nil || ms != day.UnixMilli() {
			t.Fatalf("DynamoDB latestBefore = %d, %v; want %d", ms, err, day.UnixMilli())
		}
	}
	small, large := first[2000], first[4000]
	if small.queries != large.queries || large.read > small.read+1 {
		t.Fatalf("first page: %+v over 2,000 counters at 0, %+v over 4,000; want the same cost", small, large)
	}
	// budget counters of ~60 bytes: a few KB, a few RCU, in a few Queries.
	if large.queries > 10 || large.read > 10 {
		t.Fatalf("first page cost %+v, want at most 10 Queries and 10 RCU for a budget of %d", large, budget)
	}
}

func writeRaw(t *testing.T, c *dynamodb.Client, table string, items []ddb.Item) {
	t.Helper()
	for len(items) > 0 {
		n := min(25, len(items))
		reqs := make([]types.WriteRequest, n)
		for i, it := range items[:n] {
			reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
		}
		items = items[n:]
		for len(reqs) > 0 {
			out, err := c.BatchWriteItem(t.Context(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
			if err != nil {
				t.Fatalf("BatchWriteItem: %v", err)
			}
			reqs = out.UnprocessedItems[table]
		}
	}
}

// TestItemSizeCheck builds items over 400 KB, which the field limits keep
// any valid input from making: the shared checks both stores run before
// any call refuse them with ErrInvalidArgument naming the caller's field.
func TestItemSizeCheck(t *testing.T) {
	big := strings.Repeat("a", 410*1024)
	epoch := time.UnixMilli(0)
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"clothing image key", "ImageKey", worn{kind: KindClothing, wardrobeID: "w", id: "c", name: "n", imageKey: big, status: StatusActive, createdAt: epoch}.checkErr("ImageKey")},
		{"template clothes", "ClothingIDs", worn{kind: KindTemplate, wardrobeID: "w", id: "t", name: "n", clothingIDs: []string{big}, status: StatusActive, createdAt: epoch}.checkErr("ClothingIDs")},
		{"history", "ClothingIDs", func() error {
			k, _ := historyKey("w", "h")
			return checkSize(marshalHistory(k, History{ID: "h", WardrobeID: "w", Date: "20260105", ClothingIDs: []string{big}, CreatedAt: epoch}))("ClothingIDs", 0)
		}()},
	} {
		var ve *ddbkit.ValidationError
		if !errors.Is(tc.err, ddbkit.ErrInvalidArgument) || !errors.As(tc.err, &ve) || ve.Field != tc.field {
			t.Errorf("%s over 400 KB: %v; want ErrInvalidArgument naming %s", tc.name, tc.err, tc.field)
		}
	}
	// The largest item valid input makes passes with room to spare.
	ids := make([]string, MaxClothes)
	for i := range ids {
		ids[i] = strings.Repeat("あ", MaxIDLen)
	}
	w := worn{kind: KindTemplate, wardrobeID: strings.Repeat("あ", MaxIDLen), id: strings.Repeat("い", MaxIDLen),
		name: strings.Repeat("う", MaxNameLen), clothingIDs: ids, status: StatusActive, createdAt: epoch}
	if _, err := w.checked("ClothingIDs"); err != nil {
		t.Fatalf("the largest valid template: %v", err)
	}
	// maxWornItem, the bound that lets patches go unsized, holds above the
	// largest clothing and template valid input makes, in four-byte
	// characters and with every number at its widest.
	long := func(n int) string { return strings.Repeat("𠮷", n) }
	ids4 := make([]string, MaxClothes)
	for i := range ids4 {
		ids4[i] = long(MaxIDLen)
	}
	max := worn{wardrobeID: long(MaxIDLen), id: long(MaxIDLen), name: long(MaxNameLen), imageKey: long(MaxImageKeyLen),
		clothingIDs: ids4, status: StatusDeleted, createdAt: time.UnixMilli(9_999_999_999_999), deletedAt: time.UnixMilli(253402300799999),
		st: stats{count: 1<<31 - 1, lastMs: 9_999_999_999_999, version: 1 << 62}}
	for _, kind := range []Kind{KindClothing, KindTemplate} {
		max.kind = kind
		item, err := marshalWorn(max)
		if err != nil {
			t.Fatalf("the largest valid %s: %v", kind, err)
		}
		if n := ddb.ItemSize(item); n > maxWornItem {
			t.Errorf("the largest valid %s is %d bytes, over maxWornItem (%d)", kind, n, maxWornItem)
		}
	}
}

// checkErr is checked's error alone.
func (w worn) checkErr(field string) error {
	_, err := w.checked(field)
	return err
}
