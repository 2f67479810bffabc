package ddbtest_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
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
	return newModel(newFakeTable(), optFns...)
}

// newModel returns a PartitionClient over c (nil: for Admit only) that
// knows the fake's table, on a virtual clock, with burst 0 and the given
// changes.
func newModel(c ddbkit.Client, optFns ...func(*ddbtest.PartitionOptions)) (*ddbtest.PartitionClient, *clock) {
	clk := newClock()
	opts := append([]func(*ddbtest.PartitionOptions){func(o *ddbtest.PartitionOptions) {
		o.Clock = clk.Now
		o.Burst = 0
		o.Tables = []types.TableDescription{fakeSchema}
	}}, optFns...)
	return ddbtest.NewPartitionClient(c, opts...), clk
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

// partitionTable creates, on DynamoDB Local, a table keyed by pk and sk,
// with a GSI gsi1 on g (all attributes projected), a GSI gsi2 on h (keys
// only) and an LSI lsi1 on pk and l (all attributes).
func partitionTable(t *testing.T, ddb *dynamodb.Client) string {
	t.Helper()
	s := func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	hash := func(name string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: types.KeyTypeHash}
	}
	rng := func(name string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: types.KeyTypeRange}
	}
	return ddbtest.NewTable(t, ddb, &dynamodb.CreateTableInput{
		TableName:            aws.String("ddbtest-partition"),
		AttributeDefinitions: []types.AttributeDefinition{s("pk"), s("sk"), s("g"), s("h"), s("l")},
		KeySchema:            []types.KeySchemaElement{hash("pk"), rng("sk")},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("gsi1"), KeySchema: []types.KeySchemaElement{hash("g")}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("gsi2"), KeySchema: []types.KeySchemaElement{hash("h")}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{
			{IndexName: aws.String("lsi1"), KeySchema: []types.KeySchemaElement{hash("pk"), rng("l")}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
		},
	})
}

// consumed sums the report's capacity by index ("" for the base table),
// reads and writes apart.
func consumed(r ddbtest.PartitionReport) (read, write map[string]float64) {
	read, write = make(map[string]float64), make(map[string]float64)
	for _, u := range r.Partitions {
		read[u.Index] += u.Read
		write[u.Index] += u.Write
	}
	return read, write
}

func av(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// TestPartitionPricesMatchDynamoDBLocal: for single-item writes, the
// model's prices (from item sizes, attributed to partitions) add up, per
// table and per index, to what DynamoDB Local reports with
// ReturnConsumedCapacity=INDEXES: a GSI entry added, changed, moved
// (delete and put) or removed, a keys-only GSI that an update of other
// attributes leaves alone, an LSI's entries, which the base partition
// pays, and a put that changes nothing projected, which no index pays.
func TestPartitionPricesMatchDynamoDBLocal(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := partitionTable(t, ddb)
	p := ddbtest.NewPartitionClient(ddb, func(o *ddbtest.PartitionOptions) { o.Top = 1000 })
	k := key("a", "1")
	big := strings.Repeat("y", 3000)
	put := func(it map[string]types.AttributeValue) func() (*types.ConsumedCapacity, error) {
		return func() (*types.ConsumedCapacity, error) {
			out, err := p.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: it, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			if err != nil {
				return nil, err
			}
			return out.ConsumedCapacity, nil
		}
	}
	update := func(expr string, vals map[string]types.AttributeValue) func() (*types.ConsumedCapacity, error) {
		return func() (*types.ConsumedCapacity, error) {
			out, err := p.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &table, Key: k, UpdateExpression: aws.String(expr),
				ExpressionAttributeValues: vals, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			if err != nil {
				return nil, err
			}
			return out.ConsumedCapacity, nil
		}
	}
	del := func(k map[string]types.AttributeValue) func() (*types.ConsumedCapacity, error) {
		return func() (*types.ConsumedCapacity, error) {
			out, err := p.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &table, Key: k, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
			if err != nil {
				return nil, err
			}
			return out.ConsumedCapacity, nil
		}
	}
	with := func(attrs ...string) map[string]types.AttributeValue {
		it := key("a", "1")
		for i := 0; i < len(attrs); i += 2 {
			it[attrs[i]] = av(attrs[i+1])
		}
		return it
	}
	for _, tc := range []struct {
		name string
		call func() (*types.ConsumedCapacity, error)
		want map[string]float64 // the model's writes by index, checked against DynamoDB Local's too
	}{
		{"put without index keys", put(with()), map[string]float64{"": 1}},
		{"put into gsi1", put(with("g", "x")), map[string]float64{"": 1, "gsi1": 1}},
		{"put changing a projected attribute", put(with("g", "x", "o", "y")), map[string]float64{"": 1, "gsi1": 1}},
		{"put moving gsi1 partitions", put(with("g", "z", "o", "y")), map[string]float64{"": 1, "gsi1": 2}},
		{"put 3 KB moving gsi1 partitions", put(with("g", "w", "o", big)), map[string]float64{"": 3, "gsi1": 1 + 3}},
		{"put changing nothing", put(with("g", "w", "o", big)), map[string]float64{"": 3}},
		{"update removing gsi1's key", update("REMOVE g", nil), map[string]float64{"": 3, "gsi1": 3}},
		{"update into gsi1 and keys-only gsi2", update("SET g = :g, h = :h", map[string]types.AttributeValue{":g": av("v"), ":h": av("u")}),
			map[string]float64{"": 3, "gsi1": 3, "gsi2": 1}},
		{"update shrinking the item", update("SET o = :o", map[string]types.AttributeValue{":o": av("small")}), map[string]float64{"": 3, "gsi1": 3}},
		{"update into the LSI", update("SET l = :l", map[string]types.AttributeValue{":l": av("1")}), map[string]float64{"": 1 + 1, "gsi1": 1}},
		{"delete", del(k), map[string]float64{"": 1 + 1, "gsi1": 1, "gsi2": 1}},
		{"delete a missing item", del(key("a", "missing")), map[string]float64{"": 1}},
	} {
		_, before := consumed(p.Report())
		cc, err := tc.call()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, after := consumed(p.Report())
		got := make(map[string]float64)
		for index, w := range after {
			if d := w - before[index]; d != 0 {
				got[index] = d
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: the model charged %v, want %v", tc.name, got, tc.want)
		}
		local := map[string]float64{"": aws.ToFloat64(cc.Table.CapacityUnits)}
		for name, c := range cc.GlobalSecondaryIndexes {
			if u := aws.ToFloat64(c.CapacityUnits); u != 0 {
				local[name] = u
			}
		}
		for _, c := range cc.LocalSecondaryIndexes {
			local[""] += aws.ToFloat64(c.CapacityUnits)
		}
		if !reflect.DeepEqual(got, local) {
			t.Errorf("%s: the model charged %v, DynamoDB Local reports %v (base table with its LSIs, and each GSI)", tc.name, got, local)
		}
	}
}

// TestPartitionGSIThrottlesOnDynamoDBLocal: with no burst, two writes at
// the same instant to different base partitions whose items go into the
// same GSI partition: the second is refused, with the index as the
// resource, and not made.
func TestPartitionGSIThrottlesOnDynamoDBLocal(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := partitionTable(t, ddb)
	clk := newClock()
	p := ddbtest.NewPartitionClient(ddb, func(o *ddbtest.PartitionOptions) { o.Clock, o.Burst = clk.Now, 0 })
	for i, pk := range []string{"recipe#1", "recipe#2"} {
		it := key(pk, "META")
		it["g"] = av("CATALOG#RECIPE")
		_, err := p.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: it})
		switch {
		case i == 0 && err != nil:
			t.Fatalf("first write: %v", err)
		case i == 1:
			var pte *types.ProvisionedThroughputExceededException
			if !errors.As(err, &pte) || aws.ToString(pte.ThrottlingReasons[0].Reason) != "IndexWriteKeyRangeThroughputExceeded" ||
				!strings.HasSuffix(aws.ToString(pte.ThrottlingReasons[0].Resource), "/index/gsi1") {
				t.Fatalf("second write: error = %v, want a ProvisionedThroughputExceededException naming gsi1", err)
			}
		}
	}
	out, err := ddb.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key("recipe#2", "META"), ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item != nil {
		t.Errorf("the refused write's item: %v, %v; want none", out.Item, err)
	}
	// A second later the GSI partition has paid its debt.
	clk.Set(clk.Now().Add(time.Second))
	it := key("recipe#2", "META")
	it["g"] = av("CATALOG#RECIPE")
	if _, err := p.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: it}); err != nil {
		t.Errorf("a second later: %v", err)
	}
}

// TestPartitionReadsOnDynamoDBLocal: reads are priced by DynamoDB Local's
// report where the call reads one partition, by item sizes otherwise: a
// strongly consistent read of 4 KB is 1 RCU, an eventually consistent one
// half; a Query costs the total size it read; transactional reads double.
// The caller sees ConsumedCapacity only when it asked.
func TestPartitionReadsOnDynamoDBLocal(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := partitionTable(t, ddb)
	p := ddbtest.NewPartitionClient(ddb)
	big := sized("user#1", "profile", 12*1024)
	small1 := sized("user#2", "a", 3000, "g", "feed")
	small2 := sized("user#2", "b", 3000)
	for _, it := range []map[string]types.AttributeValue{big, small1, small2} {
		if _, err := ddb.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	query := func(consistent bool) func() error {
		return func() error {
			out, err := p.Query(ctx, &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("#p = :p"),
				ExpressionAttributeNames: map[string]string{"#p": "pk"}, ExpressionAttributeValues: map[string]types.AttributeValue{":p": av("user#2")},
				ConsistentRead: aws.Bool(consistent)})
			if err == nil && (len(out.Items) != 2 || out.ConsumedCapacity != nil) {
				err = fmt.Errorf("Query returned %d items and ConsumedCapacity %v, want 2 and nil", len(out.Items), out.ConsumedCapacity)
			}
			return err
		}
	}
	get := func(consistent bool) func() error {
		return func() error {
			out, err := p.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key("user#1", "profile"), ConsistentRead: aws.Bool(consistent),
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err == nil && (out.Item == nil || out.ConsumedCapacity == nil) {
				err = errors.New("GetItem lost the item or the ConsumedCapacity it asked for")
			}
			return err
		}
	}
	for _, tc := range []struct {
		name string
		call func() error
		want map[string]float64 // RCU by partition key
	}{
		{"strong get of 12 KB", get(true), map[string]float64{"user#1": 3}},
		{"eventual get of 12 KB", get(false), map[string]float64{"user#1": 1.5}},
		{"strong query of 6 KB", query(true), map[string]float64{"user#2": 2}},
		{"eventual query of 6 KB", query(false), map[string]float64{"user#2": 1}},
		{"eventual query of gsi1's partition", func() error {
			_, err := p.Query(ctx, &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("gsi1"), KeyConditionExpression: aws.String("g = :g"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":g": av("feed")}})
			return err
		}, map[string]float64{"feed": 0.5}},
		{"query finding nothing", func() error {
			_, err := p.Query(ctx, &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :p"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": av("nobody")}, ConsistentRead: aws.Bool(true)})
			return err
		}, map[string]float64{"nobody": 1}},
		{"batch get", func() error {
			_, err := p.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {
				Keys: []map[string]types.AttributeValue{key("user#1", "profile"), key("user#2", "a"), key("user#2", "missing")}, ConsistentRead: aws.Bool(true)}}})
			return err
		}, map[string]float64{"user#1": 3, "user#2": 1 + 1}},
		{"transactional get", func() error {
			_, err := p.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: &table, Key: key("user#1", "profile")}}, {Get: &types.Get{TableName: &table, Key: key("user#2", "b")}}}})
			return err
		}, map[string]float64{"user#1": 2 * 3, "user#2": 2 * 1}},
	} {
		p.Reset()
		if err := tc.call(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := make(map[string]float64)
		for _, u := range p.Report().Partitions {
			got[u.Key] += u.Read
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: the model charged %v RCU, want %v", tc.name, got, tc.want)
		}
	}
}

// TestPartitionTransactionsOnDynamoDBLocal: a transaction costs twice its
// writes, and one over a partition's limit is cancelled as DynamoDB
// cancels it (ThrottlingError on the item that touches the partition,
// None on the others), without being made.
func TestPartitionTransactionsOnDynamoDBLocal(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := partitionTable(t, ddb)
	clk := newClock()
	p := ddbtest.NewPartitionClient(ddb, func(o *ddbtest.PartitionOptions) { o.Clock, o.Burst = clk.Now, 0 })
	tx := func(sk string) *dynamodb.TransactWriteItemsInput {
		hot := key("team#1", sk)
		hot["g"] = av("x")
		return &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: &table, Item: key("other#"+sk, "a")}},
			{Put: &types.Put{TableName: &table, Item: hot}},
		}}
	}
	if _, err := p.TransactWriteItems(ctx, tx("1")); err != nil {
		t.Fatal(err)
	}
	_, write := consumed(p.Report())
	if want := map[string]float64{"": 2 * 2, "gsi1": 2}; !reflect.DeepEqual(write, want) {
		t.Errorf("the transaction cost %v WCU, want %v", write, want)
	}
	_, err := p.TransactWriteItems(ctx, tx("2"))
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) || len(tce.CancellationReasons) != 2 ||
		aws.ToString(tce.CancellationReasons[0].Code) != "None" || aws.ToString(tce.CancellationReasons[1].Code) != "ThrottlingError" {
		t.Fatalf("second transaction: error = %v, want a cancellation [None ThrottlingError]", err)
	}
	out, err := ddb.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key("other#2", "a"), ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item != nil {
		t.Errorf("the cancelled transaction's item: %v, %v; want none", out.Item, err)
	}
	if r := p.Report(); r.Requests != 2 || r.Throttled != 1 {
		t.Errorf("Report() = %d requests, %d throttled; want 2, 1", r.Requests, r.Throttled)
	}
}

// TestPartitionKeepsOutputs: what the caller receives is what DynamoDB
// returns for its own input, though the model asks for ALL_NEW and
// consumed capacity on copies.
func TestPartitionKeepsOutputs(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := partitionTable(t, ddb)
	p := ddbtest.NewPartitionClient(ddb)
	if _, err := p.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: sized("a", "1", 100, "g", "x")}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rv   types.ReturnValue
		want []string // attribute names returned
	}{
		{"", nil},
		{types.ReturnValueNone, nil},
		{types.ReturnValueAllNew, []string{"body", "g", "pk", "sk"}},
		{types.ReturnValueUpdatedOld, []string{"g"}},
		{types.ReturnValueUpdatedNew, []string{"g"}},
	} {
		in := &dynamodb.UpdateItemInput{TableName: &table, Key: key("a", "1"), UpdateExpression: aws.String("SET g = :g"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":g": av("y" + string(tc.rv))}, ReturnValues: tc.rv}
		out, err := p.UpdateItem(ctx, in)
		if err != nil {
			t.Fatalf("ReturnValues %q: %v", tc.rv, err)
		}
		var got []string
		for name := range out.Attributes {
			got = append(got, name)
		}
		slices.Sort(got)
		if !reflect.DeepEqual(got, tc.want) || out.ConsumedCapacity != nil || in.ReturnValues != tc.rv {
			t.Errorf("ReturnValues %q: returned %v and ConsumedCapacity %v (input now %q), want %v and nil", tc.rv, got, out.ConsumedCapacity, in.ReturnValues, tc.want)
		}
	}
	// UPDATED_OLD made the model read the item after the update: it knows
	// the item left partition "yALL_NEW" for "yUPDATED_OLD".
	var keys []string
	for _, u := range p.Report().Partitions {
		if u.Index == "gsi1" {
			keys = append(keys, u.Key)
		}
	}
	slices.Sort(keys)
	if want := []string{"x", "y", "yALL_NEW", "yNONE", "yUPDATED_NEW", "yUPDATED_OLD"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("gsi1 partitions charged: %v, want %v", keys, want)
	}
}

// TestPartitionUpdateIntoHotGSIPartition: an UpdateItem that moves its item
// into a GSI partition with "SET g = :g" is judged on that partition
// before the call: with no burst, a write there at the same instant
// refuses it, and the item stays where it was.
func TestPartitionUpdateIntoHotGSIPartition(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := partitionTable(t, ddb)
	cold := key("recipe#2", "META")
	cold["g"] = av("cold")
	if _, err := ddb.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: cold}); err != nil {
		t.Fatal(err)
	}
	clk := newClock()
	p := ddbtest.NewPartitionClient(ddb, func(o *ddbtest.PartitionOptions) { o.Clock, o.Burst = clk.Now, 0 })
	hot := key("recipe#1", "META")
	hot["g"] = av("hot")
	if _, err := p.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: hot}); err != nil {
		t.Fatal(err)
	}
	_, err := p.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &table, Key: key("recipe#2", "META"),
		UpdateExpression: aws.String("SET #g = :g"), ExpressionAttributeNames: map[string]string{"#g": "g"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":g": av("hot")}})
	var pte *types.ProvisionedThroughputExceededException
	if !errors.As(err, &pte) || aws.ToString(pte.ThrottlingReasons[0].Reason) != "IndexWriteKeyRangeThroughputExceeded" {
		t.Fatalf("UpdateItem into the hot partition: error = %v, want a ProvisionedThroughputExceededException on gsi1", err)
	}
	out, err := ddb.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key("recipe#2", "META"), ConsistentRead: aws.Bool(true)})
	if err != nil || !reflect.DeepEqual(out.Item["g"], av("cold")) {
		t.Errorf("the refused update's item: %v, %v; want g still cold", out.Item, err)
	}
}

// TestPartitionBatches: a batch over a partition's limit returns the
// requests it refuses as unprocessed, and fails with
// ProvisionedThroughputExceededException when it refuses them all.
func TestPartitionBatches(t *testing.T) {
	ctx := context.Background()
	p, _ := newFakePartition()
	writes := func(sks ...string) *dynamodb.BatchWriteItemInput {
		var wrs []types.WriteRequest
		for _, sk := range sks {
			wrs = append(wrs, types.WriteRequest{PutRequest: &types.PutRequest{Item: sized("hot", sk, 12*1024)}})
		}
		return &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"t": wrs}}
	}
	out, err := p.BatchWriteItem(ctx, writes("a", "b", "c"))
	if err != nil {
		t.Fatal(err)
	}
	var held []string
	for _, wr := range out.UnprocessedItems["t"] {
		held = append(held, keyString(wr.PutRequest.Item))
	}
	if want := []string{"hot/b", "hot/c"}; !reflect.DeepEqual(held, want) {
		t.Errorf("UnprocessedItems = %v, want %v", held, want)
	}
	if _, err := p.BatchWriteItem(ctx, writes("b", "c")); !isThrottle(err) {
		t.Errorf("a batch refused whole: error = %v, want ProvisionedThroughputExceededException", err)
	}

	gets := &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"t": {
		Keys: []map[string]types.AttributeValue{key("hot", "a"), key("hot", "b")}, ConsistentRead: aws.Bool(true)}}}
	// The partition's reads are apart from its writes: one read of 12 KB
	// (3 RCU) passes, and puts the partition in debt for the next.
	gout, err := p.BatchGetItem(ctx, gets)
	if err != nil {
		t.Fatal(err)
	}
	if n, held := len(gout.Responses["t"]), gout.UnprocessedKeys["t"].Keys; n != 1 || len(held) != 1 || keyString(held[0]) != "hot/b" {
		t.Errorf("BatchGetItem returned %d items and held %v, want 1 and hot/b", n, held)
	}
	if r := p.Report(); r.Requests != 3+2+2 || r.Throttled != 2+2+1 {
		t.Errorf("Report() = %d requests, %d throttled; want 7, 5", r.Requests, r.Throttled)
	}
}

// TestPartitionFailedCondition: a write whose condition fails costs its
// partition and item the item it read (at least 1 WCU) and no index
// anything, and the caller gets DynamoDB's error.
func TestPartitionFailedCondition(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := partitionTable(t, ddb)
	p := ddbtest.NewPartitionClient(ddb)
	it := sized("a", "1", 100, "g", "x")
	_, err := p.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: it, ConditionExpression: aws.String("attribute_exists(pk)")})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Fatalf("PutItem: error = %v, want ConditionalCheckFailedException", err)
	}
	r := p.Report()
	want := []ddbtest.PartitionUsage{{Table: table, Key: "a", Write: 1}}
	if !reflect.DeepEqual(r.Partitions, want) || len(r.Items) != 1 || r.Items[0].Key != "a|1" {
		t.Errorf("Report() = %v, items %v; want %v and item a|1", r.Partitions, r.Items, want)
	}
}

// TestPartitionConcurrent: calls from many goroutines are all judged and
// counted (run with -race).
func TestPartitionConcurrent(t *testing.T) {
	ctx := context.Background()
	p, _ := newFakePartition()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				_, err := p.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"), Item: sized("hot", fmt.Sprintf("%d-%d", g, i), 100, "g", "x")})
				if err != nil && !isThrottle(err) {
					t.Error(err)
				}
				_, err = p.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("t"), KeyConditionExpression: aws.String("pk = :pk"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":pk": av("hot")}})
				if err != nil && !isThrottle(err) {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	// The clock stands still: the first write and the first read pass, and
	// put the partition in debt for every other call.
	if r := p.Report(); r.Requests != 8*200*2 || r.Throttled != r.Requests-2 {
		t.Errorf("Report() = %d requests, %d throttled; want %d, %d", r.Requests, r.Throttled, 8*200*2, 8*200*2-2)
	}
}
