package kondate_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
)

// loadCatalog is a client that holds a published catalog, read only: a
// GetItem finds an item of it by key, a Query of GSI1 an entry by ID,
// every write succeeds and changes nothing. The partition model
// (ddbtest.PartitionClient) judges the calls before they reach it, so a
// load test needs no DynamoDB and runs in virtual time; since nothing
// changes, every save of an entry moves its count from the same value,
// and costs what a save costs.
type loadCatalog struct {
	ddbkit.Client
	items  map[[2]string]map[string]types.AttributeValue // by PK, SK
	public map[string]map[string]types.AttributeValue    // catalog items by GSI1PK
}

func newLoadCatalog(items []map[string]types.AttributeValue) *loadCatalog {
	c := &loadCatalog{items: map[[2]string]map[string]types.AttributeValue{}, public: map[string]map[string]types.AttributeValue{}}
	str := func(it map[string]types.AttributeValue, a string) string {
		s, _ := it[a].(*types.AttributeValueMemberS)
		if s == nil {
			return ""
		}
		return s.Value
	}
	for _, it := range items {
		c.items[[2]string{str(it, "PK"), str(it, "SK")}] = it
		if str(it, "GSI1SK") == "PUBLIC#" {
			c.public[str(it, "GSI1PK")] = it
		}
	}
	return c
}

func (c *loadCatalog) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	pk, _ := in.Key["PK"].(*types.AttributeValueMemberS)
	sk, _ := in.Key["SK"].(*types.AttributeValueMemberS)
	if pk == nil || sk == nil {
		return &dynamodb.GetItemOutput{}, nil
	}
	return &dynamodb.GetItemOutput{Item: c.items[[2]string{pk.Value, sk.Value}]}, nil
}

// Query answers the one Query a save makes, GSI1 ENTITY#<kind>#<id> /
// PUBLIC#: the entry's catalog item.
func (c *loadCatalog) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	for _, v := range in.ExpressionAttributeValues {
		if s, ok := v.(*types.AttributeValueMemberS); ok && strings.HasPrefix(s.Value, "ENTITY#") {
			if it := c.public[s.Value]; it != nil {
				return &dynamodb.QueryOutput{Items: []map[string]types.AttributeValue{it}, Count: 1, ScannedCount: 1}, nil
			}
		}
	}
	return &dynamodb.QueryOutput{}, nil
}

func (*loadCatalog) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// Entries and creators of the load: enough that no entry's items, creator
// partition or GSI1 partition is near a limit, so that the catalog's own
// partitions are what the load measures.
const (
	loadEntries  = 2000
	loadCreators = 500
)

// loadRecipe is a recipe of a realistic size: its catalog item is about
// 1.3 KB, 2 WCU a write.
func loadRecipe(i int) kondate.NewRecipe {
	return kondate.NewRecipe{Title: fmt.Sprintf("基本の肉じゃが %d", i),
		Ingredients: []kondate.Ingredient{{Name: "じゃがいも", Amount: "3個"}, {Name: "牛肉", Amount: "200g"}, {Name: "玉ねぎ", Amount: "1個"},
			{Name: "にんじん", Amount: "1本"}, {Name: "しらたき", Amount: "1袋"}, {Name: "醤油", Amount: "大さじ3"}},
		Steps: []string{"じゃがいもとにんじんを一口大に切り、水にさらす。", "玉ねぎをくし切りにし、しらたきを下茹でする。",
			"鍋で牛肉を炒め、色が変わったら野菜を加える。", "だしと調味料を加え、落し蓋をして15分煮る。", "火を止めて味を含ませる。"},
		Tags: []string{"和食", "定番"}, Origin: "manual"}
}

// catalogFor publishes loadEntries recipes of loadCreators creators into
// a memory store with the given shards and returns its items, exactly as
// the DynamoDB store writes them, and the entries' IDs.
func catalogFor(t *testing.T, shards int) ([]map[string]types.AttributeValue, []string) {
	return catalogOf(t, shards, loadEntries)
}

// catalogOf is catalogFor of n entries.
func catalogOf(t *testing.T, shards, n int) ([]map[string]types.AttributeValue, []string) {
	t.Helper()
	ctx := t.Context()
	m := kondate.NewMemoryStore(deterministic, kondate.AllIndexes, func(o *kondate.Options) { o.TableName = "load"; o.CatalogShards = shards })
	ids := make([]string, n)
	for i := range ids {
		creator := fmt.Sprintf("creator-%03d", i%loadCreators)
		r, err := m.CreateRecipe(ctx, creator, loadRecipe(i))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Publish(ctx, creator, kondate.KindRecipe, r.ID); err != nil {
			t.Fatal(err)
		}
		ids[i] = r.ID
	}
	return m.Export()["load"], ids
}

// saveLoad saves entries of one kind at rate saves a second for one
// virtual second, each save by another user, round the entries, through
// a partition model with DynamoDB's limits (none when unlimited) and a
// burst of 50 ms (enough for the hash's uneven spacing of a shard's saves
// not to be taken for overload, at most a 5% overrun of the run's rate),
// without retries; it returns the model's report.
func saveLoad(t *testing.T, items []map[string]types.AttributeValue, ids []string, shards, rate int, unlimited bool) ddbtest.PartitionReport {
	t.Helper()
	begin := start.Add(24 * time.Hour)
	now := begin
	clock := func() time.Time { return now }
	in := kondate.CreateTableInput("load", kondate.AllIndexes)
	td := ddbtest.TableDescription(in)
	p := ddbtest.NewPartitionClient(newLoadCatalog(items), func(o *ddbtest.PartitionOptions) {
		o.Clock, o.Burst, o.Tables, o.Top = clock, 50*time.Millisecond, []types.TableDescription{td}, 5
		if unlimited {
			o.PartitionRCU, o.PartitionWCU, o.ItemWCU = 0, 0, 0
		}
	})
	s := kondate.NewDynamoStore(p, kondate.AllIndexes, func(o *kondate.Options) {
		o.TableName = "load"
		o.Clock = clock
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 1}
		o.CatalogShards = shards
	})
	for i := range rate {
		now = begin.Add(time.Duration(i) * time.Second / time.Duration(rate))
		_, _ = s.SaveCatalogEntry(t.Context(), fmt.Sprint("user-", i), kondate.KindRecipe, ids[i%len(ids)])
	}
	return p.Report()
}

// TestSaveThroughput drives SaveCatalogEntry on one catalog kind at
// rising rates through DynamoDB's partition limits
// (ddbtest.PartitionClient, virtual time, no DynamoDB), for the seed's
// layout and 4, 16 and 64 shards, and holds the highest rate of the
// ladder with under 1% of the calls throttled to the figure of the
// package doc's "Sharded catalog" (so that a change to either shows): it
// runs that rate and the ladder's next, which must throttle, and reports
// which partition throttled most there. The ladder was walked from the
// bottom once; the test runs the two rungs that matter, to stay quick.
func TestSaveThroughput(t *testing.T) {
	rates := []int{100, 125, 150, 175, 200, 250, 300, 350, 400, 500, 600, 700, 800, 1000, 1200, 1400, 1600, 2000, 2400, 2800,
		3200, 4000, 4800, 5600, 6400, 8000, 9600, 11200, 12800}
	var table []string
	for _, tc := range []struct {
		shards int
		want   int // the rate the doc gives
	}{
		{0, 175}, {4, 500}, {16, 2400}, {64, 9600},
	} {
		items, ids := catalogFor(t, tc.shards)
		i := slices.Index(rates, tc.want)
		ok := saveLoad(t, items, ids, tc.shards, tc.want, false)
		next := saveLoad(t, items, ids, tc.shards, rates[i+1], false)
		u := next.Partitions[0]
		for _, p := range next.Partitions {
			if p.Throttled > u.Throttled {
				u = p
			}
		}
		table = append(table, fmt.Sprintf("%2d shards: %5d saves/s (%.2f%% throttled); %5d/s: %.2f%% throttled, most by %s",
			tc.shards, tc.want, 100*ok.ThrottledFraction, rates[i+1], 100*next.ThrottledFraction, u))
		if ok.ThrottledFraction >= 0.01 || next.ThrottledFraction < 0.01 {
			t.Errorf("%d shards: %.2f%% throttled at %d saves/s, %.2f%% at %d; the doc says %d is the ladder's highest under 1%%",
				tc.shards, 100*ok.ThrottledFraction, tc.want, 100*next.ThrottledFraction, rates[i+1], tc.want)
		}
	}
	t.Logf("saves/s on one catalog kind, under 1%% throttled:\n%s", strings.Join(table, "\n"))
}
