package ddbtest_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
)

// fakeTable is a ddbkit.Client over items in memory, keyed by "pk" and
// "sk", enough for the partition model's hand-computed cases: it reports
// no consumed capacity, so the model prices reads by item sizes.
type fakeTable struct {
	mu    sync.Mutex
	items map[string]map[string]types.AttributeValue
}

var _ ddbkit.Client = (*fakeTable)(nil)

func newFakeTable() *fakeTable {
	return &fakeTable{items: make(map[string]map[string]types.AttributeValue)}
}

func fakeKey(it map[string]types.AttributeValue) string { return keyString(it) }

func (f *fakeTable) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &dynamodb.GetItemOutput{Item: f.items[fakeKey(in.Key)]}, nil
}

func (f *fakeTable) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.items[fakeKey(in.Item)] = in.Item
	return &dynamodb.PutItemOutput{}, nil
}

func (f *fakeTable) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return nil, errors.New("fakeTable: UpdateItem is not supported")
}

func (f *fakeTable) DeleteItem(_ context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.items, fakeKey(in.Key))
	return &dynamodb.DeleteItemOutput{}, nil
}

// Query returns the items whose pk is :pk.
func (f *fakeTable) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	want := in.ExpressionAttributeValues[":pk"].(*types.AttributeValueMemberS).Value
	out := &dynamodb.QueryOutput{}
	for _, it := range f.items {
		if it["pk"].(*types.AttributeValueMemberS).Value == want {
			out.Items = append(out.Items, it)
		}
	}
	return out, nil
}

func (f *fakeTable) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := &dynamodb.BatchGetItemOutput{Responses: make(map[string][]map[string]types.AttributeValue)}
	for table, ka := range in.RequestItems {
		for _, k := range ka.Keys {
			if it, ok := f.items[fakeKey(k)]; ok {
				out.Responses[table] = append(out.Responses[table], it)
			}
		}
	}
	return out, nil
}

func (f *fakeTable) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, wrs := range in.RequestItems {
		for _, wr := range wrs {
			if wr.PutRequest != nil {
				f.items[fakeKey(wr.PutRequest.Item)] = wr.PutRequest.Item
			} else {
				delete(f.items, fakeKey(wr.DeleteRequest.Key))
			}
		}
	}
	return &dynamodb.BatchWriteItemOutput{}, nil
}

func (f *fakeTable) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ti := range in.TransactItems {
		switch {
		case ti.Put != nil:
			f.items[fakeKey(ti.Put.Item)] = ti.Put.Item
		case ti.Delete != nil:
			delete(f.items, fakeKey(ti.Delete.Key))
		}
	}
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

func (f *fakeTable) TransactGetItems(_ context.Context, in *dynamodb.TransactGetItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := &dynamodb.TransactGetItemsOutput{}
	for _, ti := range in.TransactItems {
		out.Responses = append(out.Responses, types.ItemResponse{Item: f.items[fakeKey(ti.Get.Key)]})
	}
	return out, nil
}

// clock is a virtual clock a test moves by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// fakeSchema is the key schema of the fake's table "t": pk and sk, and a
// GSI "gsi1" keyed by g (all attributes projected).
var fakeSchema = types.TableDescription{
	TableName: aws.String("t"),
	TableArn:  aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/t"),
	KeySchema: []types.KeySchemaElement{
		{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
	},
	GlobalSecondaryIndexes: []types.GlobalSecondaryIndexDescription{{
		IndexName:  aws.String("gsi1"),
		IndexArn:   aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/t/index/gsi1"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}},
}

// newFakePartition returns a PartitionClient over a fresh fake, on a
// virtual clock, with burst 0 and the given changes.
func newFakePartition(optFns ...func(*ddbtest.PartitionOptions)) (*ddbtest.PartitionClient, *clock) {
	clk := newClock()
	opts := append([]func(*ddbtest.PartitionOptions){func(o *ddbtest.PartitionOptions) {
		o.Clock = clk.Now
		o.Burst = 0
		o.Tables = []types.TableDescription{fakeSchema}
	}}, optFns...)
	return ddbtest.NewPartitionClient(newFakeTable(), opts...), clk
}

// sized returns item pk/sk padded with a "body" to exactly size bytes, as
// DynamoDB measures it (attribute names and string values in bytes).
func sized(pk, sk string, size int, extra ...string) map[string]types.AttributeValue {
	it := key(pk, sk)
	for i := 0; i+1 < len(extra); i += 2 {
		it[extra[i]] = &types.AttributeValueMemberS{Value: extra[i+1]}
	}
	n := 0
	for name, v := range it {
		n += len(name) + len(v.(*types.AttributeValueMemberS).Value)
	}
	it["body"] = &types.AttributeValueMemberS{Value: strings.Repeat("x", size-n-len("body"))}
	return it
}

// drive calls call n times, at rate calls per virtual second, and returns
// how many failed with throttling. Any other error fails t.
func drive(t *testing.T, clk *clock, rate, n int, call func(i int) error) int {
	t.Helper()
	start := clk.Now()
	throttled := 0
	for i := range n {
		clk.Set(start.Add(time.Duration(i) * time.Second / time.Duration(rate)))
		switch err := call(i); {
		case err == nil:
		case isThrottle(err):
			throttled++
		default:
			t.Fatalf("call %d: %v", i, err)
		}
	}
	return throttled
}

// isThrottle reports whether err is one of the errors ddbkit's retry code
// (internal/ddb.Throttled, and its decoding of cancelled transactions)
// takes as throttling.
func isThrottle(err error) bool {
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorCode() == "ProvisionedThroughputExceededException" {
		return true
	}
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		for _, r := range tce.CancellationReasons {
			if aws.ToString(r.Code) == "ThrottlingError" {
				return true
			}
		}
	}
	return false
}

func putFn(ctx context.Context, c ddbkit.Client, item func(i int) map[string]types.AttributeValue) func(int) error {
	return func(i int) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"), Item: item(i)})
		return err
	}
}

// TestPartitionHotKey: 1 KB writes, each 1 WCU, to one partition-key
// value at 2,000 a second for 4 seconds, with no burst: the partition
// serves 1,000 WCU a second, so every other write is throttled, exactly
// half. The same writes spread over 10 keys (200 WCU/s each) are all
// admitted.
func TestPartitionHotKey(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name          string
		keys          int
		wantThrottled int
		wantHottest   ddbtest.PartitionUsage
	}{
		{"one key", 1, 4000, ddbtest.PartitionUsage{Table: "t", Key: "room#0", Write: 4000, Throttled: 4000}},
		{"10 keys", 10, 0, ddbtest.PartitionUsage{Table: "t", Key: "room#0", Write: 800}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, clk := newFakePartition()
			got := drive(t, clk, 2000, 8000, putFn(ctx, p, func(i int) map[string]types.AttributeValue {
				return sized(fmt.Sprintf("room#%d", i%tt.keys), fmt.Sprintf("c%05d", i), 1024)
			}))
			if got != tt.wantThrottled {
				t.Errorf("throttled %d of 8000 writes, want %d", got, tt.wantThrottled)
			}
			r := p.Report()
			if r.Requests != 8000 || r.Throttled != tt.wantThrottled || r.ThrottledFraction != float64(tt.wantThrottled)/8000 {
				t.Errorf("Report() = %d requests, %d throttled (%g), want 8000, %d", r.Requests, r.Throttled, r.ThrottledFraction, tt.wantThrottled)
			}
			if len(r.Partitions) != tt.keys || r.Partitions[0] != tt.wantHottest {
				t.Errorf("Report().Partitions = %v, want %d, the first %v", r.Partitions, tt.keys, tt.wantHottest)
			}
		})
	}
}

// TestPartitionHotItem: one item written 2,000 times a second is held to
// the item limit (1,000 WCU/s) even when its partition could take more.
func TestPartitionHotItem(t *testing.T) {
	ctx := context.Background()
	p, clk := newFakePartition(func(o *ddbtest.PartitionOptions) { o.PartitionWCU = 10000 })
	got := drive(t, clk, 2000, 2000, putFn(ctx, p, func(int) map[string]types.AttributeValue {
		return sized("team#1", "COUNTER#ALL", 1024)
	}))
	if got != 1000 {
		t.Errorf("throttled %d of 2000 writes of one item, want 1000", got)
	}
	r := p.Report()
	want := ddbtest.PartitionUsage{Table: "t", Key: "team#1|COUNTER#ALL", Write: 1000, Throttled: 1000}
	if len(r.Items) != 1 || r.Items[0] != want {
		t.Errorf("Report().Items = %v, want [%v]", r.Items, want)
	}
	if r.Partitions[0].Throttled != 0 {
		t.Errorf("the partition throttled %d writes, want 0 (its limit is 10,000 WCU/s)", r.Partitions[0].Throttled)
	}
}

// TestPartitionGSIBackPressure: writes spread over 8,000 base partitions
// that all put their item in one GSI partition at 2,000 a second: the GSI
// partition serves 1,000 WCU a second, so half of the base table's writes
// are refused, with the index named in the error.
func TestPartitionGSIBackPressure(t *testing.T) {
	ctx := context.Background()
	p, clk := newFakePartition()
	var first error
	got := drive(t, clk, 2000, 8000, func(i int) error {
		_, err := p.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"),
			Item: sized(fmt.Sprintf("recipe#%d", i), "META", 1024, "g", "CATALOG#RECIPE")})
		if err != nil && first == nil {
			first = err
		}
		return err
	})
	if got != 4000 {
		t.Errorf("throttled %d of 8000 base writes, want 4000", got)
	}
	var pte *types.ProvisionedThroughputExceededException
	if !errors.As(first, &pte) || len(pte.ThrottlingReasons) != 1 {
		t.Fatalf("error = %v, want a ProvisionedThroughputExceededException with one reason", first)
	}
	reason := pte.ThrottlingReasons[0]
	if aws.ToString(reason.Reason) != "IndexWriteKeyRangeThroughputExceeded" || aws.ToString(reason.Resource) != aws.ToString(fakeSchema.GlobalSecondaryIndexes[0].IndexArn) {
		t.Errorf("ThrottlingReasons = %s on %s, want IndexWriteKeyRangeThroughputExceeded on the index", aws.ToString(reason.Reason), aws.ToString(reason.Resource))
	}
	r := p.Report()
	want := ddbtest.PartitionUsage{Table: "t", Index: "gsi1", Key: "CATALOG#RECIPE", Write: 4000, Throttled: 4000}
	if r.Partitions[0] != want {
		t.Errorf("hottest partition = %v, want %v", r.Partitions[0], want)
	}
}

// TestPartitionReads: a strongly consistent read of an item of 12 KB costs
// 3 RCU, an eventually consistent one 1.5. At 2,000 reads a second, the
// strong ones (6,000 RCU/s) pass the partition's 3,000 RCU/s and half are
// throttled; the eventual ones (3,000 RCU/s) all pass.
func TestPartitionReads(t *testing.T) {
	ctx := context.Background()
	item := sized("user#1", "profile", 12*1024)
	for _, tc := range []struct {
		name          string
		consistent    bool
		wantThrottled int
		wantRead      float64
	}{
		{"strong", true, 1000, 1000 * 3},
		{"eventual", false, 0, 2000 * 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, clk := newFakePartition()
			if _, err := p.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"), Item: item}); err != nil {
				t.Fatal(err)
			}
			p.Reset()
			got := drive(t, clk, 2000, 2000, func(int) error {
				_, err := p.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("t"), Key: key("user#1", "profile"), ConsistentRead: aws.Bool(tc.consistent)})
				return err
			})
			if got != tc.wantThrottled {
				t.Errorf("throttled %d of 2000 reads, want %d", got, tc.wantThrottled)
			}
			if r := p.Report(); r.Partitions[0].Read != tc.wantRead {
				t.Errorf("partition read %g RCU, want %g", r.Partitions[0].Read, tc.wantRead)
			}
		})
	}
}

// TestPartitionDeterministic: the same seeded workload on the same
// virtual clock gives the same report, twice.
func TestPartitionDeterministic(t *testing.T) {
	run := func() ddbtest.PartitionReport {
		ctx := context.Background()
		p, clk := newFakePartition(func(o *ddbtest.PartitionOptions) { o.Burst = 2 * time.Second })
		rng := rand.New(rand.NewPCG(1, 2))
		drive(t, clk, 3000, 6000, func(i int) error {
			pk := fmt.Sprintf("p%d", rng.IntN(5))
			var err error
			switch rng.IntN(4) {
			case 0:
				_, err = p.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("t"), Key: key(pk, "a")})
			case 1:
				_, err = p.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("t"), KeyConditionExpression: aws.String("pk = :pk"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}}})
			case 2:
				_, err = p.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"t": {
					{PutRequest: &types.PutRequest{Item: sized(pk, "a", 100+rng.IntN(3000), "g", fmt.Sprintf("g%d", rng.IntN(3)))}},
					{PutRequest: &types.PutRequest{Item: sized(pk, "b", 100+rng.IntN(3000))}},
				}}})
			default:
				_, err = p.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: aws.String("t"), Item: sized(pk, "c", 100+rng.IntN(3000), "g", "g0")}},
					{Delete: &types.Delete{TableName: aws.String("t"), Key: key(pk, "b")}},
				}})
			}
			return err
		})
		return p.Report()
	}
	first, second := run(), run()
	if !reflect.DeepEqual(first, second) {
		t.Errorf("two runs differ:\n%+v\n%+v", first, second)
	}
	if first.Throttled == 0 || first.Throttled == first.Requests {
		t.Errorf("Report() = %+v; the workload should throttle some requests, not all", first)
	}
}
