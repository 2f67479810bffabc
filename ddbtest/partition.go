package ddbtest

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/itemsize"
)

// DynamoDB's per-partition and per-item limits, and how much unused
// capacity it keeps for bursts: the defaults of [PartitionOptions].
const (
	DefaultPartitionRCU = 3000
	DefaultPartitionWCU = 1000
	DefaultItemWCU      = 1000
	DefaultBurst        = 300 * time.Second
)

// PartitionOptions configures a [PartitionClient]. NewPartitionClient sets
// the defaults first, then applies the option functions, so a zero set by
// one (Burst = 0) stays zero.
type PartitionOptions struct {
	// Clock returns the time the model runs on; default time.Now. Give a
	// virtual clock that the test advances, and a run never sleeps and is
	// deterministic. The client reads it once per call.
	Clock func() time.Time
	// PartitionRCU and PartitionWCU are the read and write capacity units
	// per second that one partition-key value of a table or of a GSI
	// serves: default 3,000 and 1,000. ItemWCU caps the writes of one item
	// (a table's full primary key): default 1,000. A limit of 0 or less is
	// switched off.
	PartitionRCU, PartitionWCU, ItemWCU float64
	// Burst is how much unused capacity a partition or an item keeps, in
	// seconds of its limit: default 300 seconds, as DynamoDB keeps. A key
	// never used before starts with its burst full. With 0, a key serves
	// exactly its limit: each call is admitted when the key's earlier calls
	// are paid for at its rate.
	Burst time.Duration
	// Tables gives the key schemas and indexes of tables, as DescribeTable
	// returns them (TableName, KeySchema, GlobalSecondaryIndexes,
	// LocalSecondaryIndexes with their Projection; TableArn and IndexArn
	// are optional and name the resource in throttling errors). A table
	// not listed is described, once, through the wrapped client's
	// DescribeTable method, which *dynamodb.Client has.
	Tables []types.TableDescription
	// Top is how many partitions and items [PartitionClient.Report] lists:
	// default 10.
	Top int
}

// TableDescription is the description PartitionOptions.Tables needs of
// the table in creates (its keys, attributes and indexes), for a load
// test with no DynamoDB to describe it.
func TableDescription(in *dynamodb.CreateTableInput) types.TableDescription {
	td := types.TableDescription{TableName: in.TableName, KeySchema: in.KeySchema, AttributeDefinitions: in.AttributeDefinitions}
	for _, g := range in.GlobalSecondaryIndexes {
		td.GlobalSecondaryIndexes = append(td.GlobalSecondaryIndexes,
			types.GlobalSecondaryIndexDescription{IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection})
	}
	for _, l := range in.LocalSecondaryIndexes {
		td.LocalSecondaryIndexes = append(td.LocalSecondaryIndexes,
			types.LocalSecondaryIndexDescription{IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection})
	}
	return td
}

// PartitionClient wraps a ddbkit.Client with a model of DynamoDB's
// partitions, which DynamoDB Local lacks: it attributes the capacity every
// call consumes to partition-key values (the base table's, and each GSI's
// whose entries a write changes) and to items, holds each to DynamoDB's
// per-second limits with token buckets on a clock the test controls, and
// answers a call over a limit with the error DynamoDB returns, without
// making it. [PartitionClient.Report] tells the hottest partitions and
// the throttled fraction. It is safe for concurrent use; a run is
// deterministic for a given sequence of calls and clock readings (the
// model draws no random numbers, and visits batches' tables in name
// order).
//
// # What a call costs
//
// Prices follow DynamoDB's rules. A write costs 1 WCU per KB (rounded up)
// of the larger of the item before and after it, at least 1; a failed
// condition costs the item before, at least 1. Each index entry the write
// adds, changes or removes costs its own projected size, on the index
// partition it is in: a write that moves an item from one GSI partition to
// another costs a delete on the old one and a put on the new one, and a
// write that changes no projected attribute costs the index nothing. A
// local secondary index's entries are charged to the base partition, which
// holds them. A strongly consistent read costs 1 RCU per 4 KB, at least 1;
// an eventually consistent one half that. Transactions cost double. A
// ConditionCheck in a transaction is priced as a transactional write of
// the item it checks (the model's choice: the documentation consulted
// gives it no price).
//
// Writes are priced from item sizes (measured as ddbkit measures them
// against the 400 KB limit), since the call must be judged before it is
// made, and DynamoDB Local's own figures for transactions are not the
// service's. A GetItem or Query, which reads one partition, is priced by
// the ConsumedCapacity the wrapped client reports, so a filter, a
// projection or Select=COUNT is priced for what DynamoDB read; the client
// asks for it on a copy of the input and removes it from the output
// unless the caller asked. Without a report (a fake client), and for
// batches and transactional reads, whose reports are per table, the sizes
// of the items returned price the read. Every read costs at least the
// minimum, which DynamoDB charges a read that finds nothing (DynamoDB
// Local reports 0 for an empty Query).
//
// # The items a write changes
//
// To know which GSI partitions a write leaves and enters, and what it
// costs, the client reads the item before every write with a strongly
// consistent GetItem through the wrapped client (the old item cannot come
// from ReturnValues=ALL_OLD: it would arrive after the call it has to
// judge). An UpdateItem's result comes from ReturnValues=ALL_NEW, asked on
// a copy of the input when the caller asked for none or for ALL_NEW (and
// removed when the caller asked for none); for other return values, and
// for a transaction's updates, the client reads the item again after the
// call. What the caller receives is what the wrapped client returned. Those
// reads are the model's, not the caller's: they cost nothing in the model,
// but a CountingClient or FaultClient wrapped inside a PartitionClient sees
// them; wrap those outside it.
//
// An UpdateItem is judged on the GSI partitions its item is in before the
// call, and on those a plain "SET #k = :v" or "REMOVE #k" of an index key
// moves it to; an update that computes an index key (if_not_exists, ADD, a
// sum) is charged where it lands, after the call, but that partition's
// limit did not stop it.
//
// # Throttling
//
// Each partition-key value has a read and a write bucket, and each item a
// write bucket, with the limits of PartitionOptions. A call is admitted
// when every bucket it touches is within its burst; it then takes its
// price, possibly into debt, so that a key at its limit serves exactly its
// limit on average. A refused call is not made, and fails as DynamoDB
// fails it:
//   - a single-item call or a Query, with *types.ProvisionedThroughputExceededException,
//     with ThrottlingReasons such as TableWriteKeyRangeThroughputExceeded or
//     IndexWriteKeyRangeThroughputExceeded naming the resource;
//   - a batch, by returning the refused requests as UnprocessedItems or
//     UnprocessedKeys, or with that exception when it refuses them all;
//   - a transaction, with *types.TransactionCanceledException whose
//     reasons say ThrottlingError for the refused items and None for the
//     others.
//
// ddbkit's stores take all of these as throttling: they retry them, then
// report ddbkit.ErrUnavailable. A GSI partition over its write limit
// refuses the base table's writes that would change its entries, as
// DynamoDB's GSI back-pressure does; reads of a GSI do not affect the base
// table. Every error is wrapped in a *smithy.OperationError, as the SDK
// wraps DynamoDB's.
//
// What the model leaves out: a physical partition holds many key values
// (here each value has its own limits, as adaptive capacity isolates a hot
// key), splits for heat, table-level and account-level limits, and
// on-demand tables' maximum throughput.
type PartitionClient struct {
	c    ddbkit.Client
	opts PartitionOptions

	schemaMu sync.Mutex
	schemas  map[string]*tableSchema

	mu        sync.Mutex
	buckets   map[bucketID]*bucket
	parts     map[partID]*usage
	items     map[partID]*usage
	requests  int
	throttled int
}

var _ ddbkit.Client = (*PartitionClient)(nil)

// NewPartitionClient returns a PartitionClient that calls c. c may be nil
// for a model that judges memory stores only (see Admit): then calling a
// DynamoDB method panics.
func NewPartitionClient(c ddbkit.Client, optFns ...func(*PartitionOptions)) *PartitionClient {
	o := PartitionOptions{
		Clock:        time.Now,
		PartitionRCU: DefaultPartitionRCU,
		PartitionWCU: DefaultPartitionWCU,
		ItemWCU:      DefaultItemWCU,
		Burst:        DefaultBurst,
		Top:          10,
	}
	for _, f := range optFns {
		f(&o)
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	p := &PartitionClient{c: c, opts: o, schemas: make(map[string]*tableSchema)}
	for _, td := range o.Tables {
		s := newTableSchema(td)
		p.schemas[s.name] = s
	}
	p.Reset()
	return p
}

// Reset empties every bucket (each key starts again with its burst full)
// and the report. Key schemas stay cached.
func (p *PartitionClient) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buckets = make(map[bucketID]*bucket)
	p.parts = make(map[partID]*usage)
	p.items = make(map[partID]*usage)
	p.requests, p.throttled = 0, 0
}

// PartitionReport is what a [PartitionClient] saw since it was created or
// last Reset.
type PartitionReport struct {
	// Requests counts the requests judged: each single-item call, Query
	// page and transaction is one; each key or write request of a batch
	// is one. Throttled counts those refused.
	Requests, Throttled int
	// ThrottledFraction is Throttled / Requests, 0 without requests.
	ThrottledFraction float64
	// Partitions lists the partitions that consumed the most capacity
	// (reads and writes together), most first, at most
	// PartitionOptions.Top of them. Ties are in table, index and key order.
	Partitions []PartitionUsage
	// Items lists the items that consumed the most write capacity, in the
	// same way; their Key is the whole primary key.
	Items []PartitionUsage
}

// PartitionUsage is the capacity one partition-key value (or one item)
// consumed, and how many requests its limits refused.
type PartitionUsage struct {
	Table string
	// Index is the GSI's name, "" for the base table (and for local
	// secondary indexes, whose entries live in the base partition).
	Index string
	// Key is the partition-key value: a string as it is, a number in its
	// decimal form, a binary in standard base64; values of a multi-attribute
	// key are joined with "|". An item's Key is its partition and sort key
	// values joined with "|".
	Key string
	// Read and Write are the capacity units consumed.
	Read, Write float64
	// Throttled counts the requests refused because this partition (or
	// item) was over its limit. A request refused by several counts for
	// each.
	Throttled int
}

// String renders u as "table/index key: R RCU, W WCU, N throttled".
func (u PartitionUsage) String() string {
	name := u.Table
	if u.Index != "" {
		name += "/" + u.Index
	}
	return fmt.Sprintf("%s %q: %g RCU, %g WCU, %d throttled", name, u.Key, u.Read, u.Write, u.Throttled)
}

// Report returns the requests and throttles counted, and the hottest
// partitions and items.
func (p *PartitionClient) Report() PartitionReport {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := PartitionReport{Requests: p.requests, Throttled: p.throttled}
	if p.requests > 0 {
		r.ThrottledFraction = float64(p.throttled) / float64(p.requests)
	}
	r.Partitions = top(p.parts, p.opts.Top)
	r.Items = top(p.items, p.opts.Top)
	return r
}

func top(m map[partID]*usage, n int) []PartitionUsage {
	all := make([]PartitionUsage, 0, len(m))
	for id, u := range m {
		if u.read == 0 && u.write == 0 && u.throttled == 0 {
			continue // only reserved, then refunded
		}
		all = append(all, PartitionUsage{Table: id.table, Index: id.index, Key: id.key, Read: u.read, Write: u.write, Throttled: u.throttled})
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if ca, cb := a.Read+a.Write, b.Read+b.Write; ca != cb {
			return ca > cb
		}
		if a.Throttled != b.Throttled {
			return a.Throttled > b.Throttled
		}
		if a.Table != b.Table {
			return a.Table < b.Table
		}
		if a.Index != b.Index {
			return a.Index < b.Index
		}
		return a.Key < b.Key
	})
	if n > 0 && len(all) > n {
		all = all[:n]
	}
	return all
}

// ---- buckets ----

type bucketKind byte

const (
	readBucket  bucketKind = 'r' // a partition's reads
	writeBucket bucketKind = 'w' // a partition's writes
	itemBucket  bucketKind = 'i' // an item's writes
)

type partID struct{ table, index, key string }

type bucketID struct {
	kind bucketKind
	partID
}

// bucket is a token bucket kept as GCRA's theoretical arrival time: the
// bucket is full when tat is at or before now, and holds burst at most;
// a call conforms when tat - burst <= now, that is when the bucket is not
// in debt, and its price pushes tat later by price/rate.
type bucket struct {
	tat   time.Time
	rate  float64
	burst time.Duration
}

func (b *bucket) conforms(now time.Time) bool {
	return b.rate <= 0 || !now.Before(b.tat.Add(-b.burst))
}

func (b *bucket) charge(now time.Time, units float64) {
	if b.rate <= 0 {
		return
	}
	if b.tat.Before(now) {
		b.tat = now // unused capacity beyond the burst is lost
	}
	b.tat = b.tat.Add(time.Duration(math.Round(units / b.rate * float64(time.Second))))
}

type usage struct {
	read, write float64
	throttled   int
}

// charge is a price some bucket takes.
type charge struct {
	id    bucketID
	units float64
}

func (p *PartitionClient) bucket(id bucketID) *bucket {
	b := p.buckets[id]
	if b == nil {
		rate := p.opts.PartitionWCU
		switch id.kind {
		case readBucket:
			rate = p.opts.PartitionRCU
		case itemBucket:
			rate = p.opts.ItemWCU
		}
		b = &bucket{rate: rate, burst: p.opts.Burst}
		p.buckets[id] = b
	}
	return b
}

func (p *PartitionClient) usageOf(id bucketID) *usage {
	m := p.parts
	if id.kind == itemBucket {
		m = p.items
	}
	u := m[id.partID]
	if u == nil {
		u = &usage{}
		m[id.partID] = u
	}
	return u
}

// admit judges requests requests of one call that take charges: when a
// bucket they touch is in debt, it counts them throttled and returns the
// buckets in debt; else it takes the charges (the estimate, settled after
// the call).
func (p *PartitionClient) admit(now time.Time, requests int, charges []charge) []bucketID {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests += requests
	var refused []bucketID
	for _, c := range charges {
		if !slices.Contains(refused, c.id) && !p.bucket(c.id).conforms(now) {
			refused = append(refused, c.id)
		}
	}
	if len(refused) > 0 {
		p.throttled += requests
		for _, id := range refused {
			p.usageOf(id).throttled++
		}
		return refused
	}
	p.take(now, charges, 1)
	return nil
}

func (p *PartitionClient) take(now time.Time, charges []charge, sign float64) {
	for _, c := range charges {
		units := sign * c.units
		p.bucket(c.id).charge(now, units)
		u := p.usageOf(c.id)
		if c.id.kind == readBucket {
			u.read += units
		} else {
			u.write += units
		}
	}
}

// settle replaces the estimate a call was admitted with by its price.
func (p *PartitionClient) settle(now time.Time, estimate, price []charge) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.take(now, estimate, -1)
	p.take(now, price, 1)
}

// ---- errors ----

// hotKeyMessage is DynamoDB's message for a throttled hot key.
const hotKeyMessage = "Throughput exceeds the current capacity of your table or index. " +
	"DynamoDB is automatically scaling your table or index so please try again shortly. " +
	"If exceptions persist, check if you have a hot key: " +
	"https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"

func (p *PartitionClient) reasons(refused []bucketID) ([]types.ThrottlingReason, string) {
	var rs []types.ThrottlingReason
	var what []string
	for _, id := range refused {
		resource, op, limit := "Table", "Write", p.opts.PartitionWCU
		switch id.kind {
		case readBucket:
			op, limit = "Read", p.opts.PartitionRCU
		case itemBucket:
			limit = p.opts.ItemWCU
		}
		if id.index != "" {
			resource = "Index"
		}
		rs = append(rs, types.ThrottlingReason{
			Reason:   aws.String(resource + op + "KeyRangeThroughputExceeded"),
			Resource: aws.String(p.arn(id.partID)),
		})
		kind := "partition"
		if id.kind == itemBucket {
			kind = "item"
		}
		name := id.table
		if id.index != "" {
			name += "/" + id.index
		}
		what = append(what, fmt.Sprintf("%s %s %q over %g %sCU/s", name, kind, id.key, limit, op[:1]))
	}
	return rs, " (ddbtest partition model: " + strings.Join(what, "; ") + ")"
}

func (p *PartitionClient) arn(id partID) string {
	p.schemaMu.Lock()
	s := p.schemas[id.table]
	p.schemaMu.Unlock()
	if s == nil {
		return id.table
	}
	if id.index == "" {
		return s.arn
	}
	for _, ix := range s.indexes {
		if ix.name == id.index {
			return ix.arn
		}
	}
	return s.arn
}

func (p *PartitionClient) throttleErr(op string, refused []bucketID) error {
	rs, detail := p.reasons(refused)
	return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: op, Err: &types.ProvisionedThroughputExceededException{
		Message: aws.String(hotKeyMessage + detail), ThrottlingReasons: rs,
	}}
}

// txThrottleErr is DynamoDB's cancellation of a transaction of n items whose
// items in throttled were throttled.
func (p *PartitionClient) txThrottleErr(op string, n int, throttled map[int][]bucketID) error {
	reasons := make([]types.CancellationReason, n)
	codes := make([]string, n)
	for i := range reasons {
		if ids, ok := throttled[i]; ok {
			_, detail := p.reasons(ids)
			reasons[i] = types.CancellationReason{Code: aws.String("ThrottlingError"), Message: aws.String(hotKeyMessage + detail)}
		} else {
			reasons[i] = types.CancellationReason{Code: aws.String("None")}
		}
		codes[i] = aws.ToString(reasons[i].Code)
	}
	return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: op, Err: &types.TransactionCanceledException{
		Message: aws.String("Transaction cancelled, please refer cancellation reasons for specific reasons [" +
			strings.Join(codes, ", ") + "]"),
		CancellationReasons: reasons,
	}}
}

// ---- schemas ----

type item = map[string]types.AttributeValue

type tableSchema struct {
	name, arn string
	hash      []string // the partition key's attributes
	keys      []string // partition and sort key attributes
	indexes   []indexSchema
}

type indexSchema struct {
	name, arn  string
	global     bool
	hash, keys []string
	projection types.ProjectionType
	include    []string
}

func keyAttrs(ks []types.KeySchemaElement) (hash, all []string) {
	for _, k := range ks {
		if k.KeyType == types.KeyTypeHash {
			hash = append(hash, aws.ToString(k.AttributeName))
		}
	}
	all = slices.Clone(hash)
	for _, k := range ks {
		if k.KeyType != types.KeyTypeHash {
			all = append(all, aws.ToString(k.AttributeName))
		}
	}
	return hash, all
}

func newTableSchema(td types.TableDescription) *tableSchema {
	s := &tableSchema{name: aws.ToString(td.TableName), arn: aws.ToString(td.TableArn)}
	if s.arn == "" {
		s.arn = s.name
	}
	s.hash, s.keys = keyAttrs(td.KeySchema)
	add := func(name, arn string, global bool, ks []types.KeySchemaElement, pr *types.Projection) {
		ix := indexSchema{name: name, arn: arn, global: global}
		if ix.arn == "" {
			ix.arn = s.arn + "/index/" + name
		}
		ix.hash, ix.keys = keyAttrs(ks)
		ix.projection = types.ProjectionTypeAll
		if pr != nil && pr.ProjectionType != "" {
			ix.projection = pr.ProjectionType
			ix.include = pr.NonKeyAttributes
		}
		s.indexes = append(s.indexes, ix)
	}
	for _, g := range td.GlobalSecondaryIndexes {
		add(aws.ToString(g.IndexName), aws.ToString(g.IndexArn), true, g.KeySchema, g.Projection)
	}
	for _, l := range td.LocalSecondaryIndexes {
		add(aws.ToString(l.IndexName), aws.ToString(l.IndexArn), false, l.KeySchema, l.Projection)
	}
	return s
}

type describer interface {
	DescribeTable(ctx context.Context, params *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
}

// schema returns table's key schema, describing it once.
func (p *PartitionClient) schema(ctx context.Context, table *string) (*tableSchema, error) {
	name := aws.ToString(table)
	p.schemaMu.Lock()
	s := p.schemas[name]
	p.schemaMu.Unlock()
	if s != nil {
		return s, nil
	}
	d, ok := p.c.(describer)
	if !ok {
		return nil, fmt.Errorf("ddbtest: PartitionClient: no key schema for table %q: list it in PartitionOptions.Tables, or wrap a client with DescribeTable", name)
	}
	out, err := d.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return nil, err
	}
	s = newTableSchema(*out.Table)
	p.schemaMu.Lock()
	p.schemas[name] = s
	p.schemaMu.Unlock()
	return s, nil
}

// render renders the values of attrs in it, joined with "|"; ok is false
// when one is missing or not a key type.
func render(it item, attrs []string) (string, bool) {
	parts := make([]string, len(attrs))
	for i, a := range attrs {
		switch v := it[a].(type) {
		case *types.AttributeValueMemberS:
			parts[i] = v.Value
		case *types.AttributeValueMemberN:
			parts[i] = v.Value
		case *types.AttributeValueMemberB:
			parts[i] = base64.StdEncoding.EncodeToString(v.Value)
		default:
			return "", false
		}
	}
	return strings.Join(parts, "|"), len(attrs) > 0
}

func (s *tableSchema) partition(it item) string {
	k, _ := render(it, s.hash)
	return k
}

func (s *tableSchema) itemKey(it item) string {
	k, _ := render(it, s.keys)
	return k
}

func (s *tableSchema) key(it item) item {
	k := make(item, len(s.keys))
	for _, a := range s.keys {
		if v, ok := it[a]; ok {
			k[a] = v
		}
	}
	return k
}

func (s *tableSchema) index(name string) (indexSchema, bool) {
	for _, ix := range s.indexes {
		if ix.name == name {
			return ix, true
		}
	}
	return indexSchema{}, false
}

// entry returns it's entry in ix, nil when it has none.
func (s *tableSchema) entry(ix indexSchema, it item) item {
	if it == nil {
		return nil
	}
	if _, ok := render(it, ix.keys); !ok {
		return nil
	}
	if ix.projection == types.ProjectionTypeAll {
		return it
	}
	e := make(item)
	for _, names := range [][]string{s.keys, ix.keys, ix.include} {
		for _, a := range names {
			if v, ok := it[a]; ok {
				e[a] = v
			}
		}
	}
	return e
}

// ---- prices ----

// itemSize is the size DynamoDB counts for an item, by the rules ddbkit
// uses against the 400 KB limit (internal/itemsize).
func itemSize(it item) int { return itemsize.Of(it) }

// writeUnits is the WCU of writing size bytes: 1 per KB, rounded up.
func writeUnits(size int) float64 { return float64((size + 1023) / 1024) }

// readUnits is the RCU of reading size bytes: 1 per 4 KB rounded up, at
// least 1; half for an eventually consistent read.
func readUnits(size int, consistent bool) float64 {
	u := float64(max(1, (size+4095)/4096))
	if !consistent {
		u /= 2
	}
	return u
}

// writePrice is what writing new over old (nil for none) at key costs,
// times mult (2 in a transaction): the base partition and the item take
// the larger of the two, at least 1, and each index the entries it adds,
// changes or removes. The first two charges are the base partition's and
// the item's.
func (s *tableSchema) writePrice(key, old, new item, mult float64) []charge {
	base := partID{s.name, "", s.partition(key)}
	it := partID{s.name, "", s.itemKey(key)}
	units := max(1, writeUnits(itemSize(old)), writeUnits(itemSize(new))) * mult
	cs := []charge{{bucketID{writeBucket, base}, units}, {bucketID{itemBucket, it}, units}}
	for _, ix := range s.indexes {
		cs = append(cs, s.indexPrice(ix, old, new, mult)...)
	}
	return cs
}

func (s *tableSchema) indexPrice(ix indexSchema, old, new item, mult float64) []charge {
	oe, ne := s.entry(ix, old), s.entry(ix, new)
	part := func(e item) bucketID {
		if !ix.global {
			return bucketID{writeBucket, partID{s.name, "", s.partition(e)}}
		}
		k, _ := render(e, ix.hash)
		return bucketID{writeBucket, partID{s.name, ix.name, k}}
	}
	switch {
	case oe == nil && ne == nil:
		return nil
	case oe == nil:
		return []charge{{part(ne), writeUnits(itemSize(ne)) * mult}}
	case ne == nil:
		return []charge{{part(oe), writeUnits(itemSize(oe)) * mult}}
	}
	ok, _ := render(oe, ix.keys)
	nk, _ := render(ne, ix.keys)
	if ok != nk {
		return []charge{{part(oe), writeUnits(itemSize(oe)) * mult}, {part(ne), writeUnits(itemSize(ne)) * mult}}
	}
	if reflect.DeepEqual(oe, ne) {
		return nil
	}
	return []charge{{part(ne), max(writeUnits(itemSize(oe)), writeUnits(itemSize(ne))) * mult}}
}

// ---- reads before and after writes ----

// read returns the item at key, strongly consistent, nil when there is
// none.
func (p *PartitionClient) read(ctx context.Context, table *string, key item, optFns []func(*dynamodb.Options)) (item, error) {
	out, err := p.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: table, Key: key, ConsistentRead: aws.Bool(true)}, optFns...)
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

// predictUpdate applies to a copy of old what an update expression plainly
// does to top-level attributes: "SET a = :v" and "REMOVE a". Any other
// assignment of an attribute drops it from the prediction, so the
// prediction never places the item in an index partition it may not reach.
func predictUpdate(old item, s *tableSchema, key item, expr *string, names map[string]string, values item) item {
	next := make(item, len(old)+len(key))
	for k, v := range old {
		next[k] = v
	}
	for k, v := range s.key(key) {
		next[k] = v
	}
	for clause, body := range updateClauses(aws.ToString(expr)) {
		for _, action := range splitTop(body, ',') {
			action = strings.TrimSpace(action)
			switch clause {
			case "SET":
				lhs, rhs, ok := strings.Cut(action, "=")
				if !ok {
					continue
				}
				name, simple := attrName(strings.TrimSpace(lhs), names)
				if !simple {
					continue
				}
				rhs = strings.TrimSpace(rhs)
				if v, ok := values[rhs]; ok && strings.HasPrefix(rhs, ":") {
					next[name] = v
				} else {
					delete(next, name)
				}
			case "REMOVE":
				if name, simple := attrName(action, names); simple {
					delete(next, name)
				}
			default: // ADD, DELETE: "path value"
				path, _, _ := strings.Cut(action, " ")
				if name, simple := attrName(path, names); simple {
					delete(next, name)
				}
			}
		}
	}
	return next
}

// attrName resolves a top-level attribute path ("name" or "#n"); simple is
// false for a nested path.
func attrName(path string, names map[string]string) (string, bool) {
	if path == "" || strings.ContainsAny(path, ".[ ") {
		return "", false
	}
	if strings.HasPrefix(path, "#") {
		n, ok := names[path]
		return n, ok
	}
	return path, true
}

// updateClauses splits an update expression into its SET, REMOVE, ADD and
// DELETE clauses.
func updateClauses(expr string) map[string]string {
	out := make(map[string]string)
	var clause string
	start, depth := 0, 0
	flush := func(end int) {
		if clause != "" {
			out[clause] += "," + expr[start:end]
		}
	}
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; {
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case depth == 0 && (i == 0 || !isWord(expr[i-1])):
			for _, kw := range []string{"SET", "REMOVE", "ADD", "DELETE"} {
				j := i + len(kw)
				if j <= len(expr) && strings.EqualFold(expr[i:j], kw) && (j == len(expr) || !isWord(expr[j])) {
					flush(i)
					clause, start = kw, j
					i = j - 1
					break
				}
			}
		}
	}
	flush(len(expr))
	return out
}

func isWord(c byte) bool {
	return c == '_' || c == '#' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// splitTop splits s at sep outside parentheses and brackets.
func splitTop(s string, sep byte) []string {
	var parts []string
	start, depth := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// queryPartition returns the bucket a Query reads: the partition-key value
// its key condition fixes ("" when it cannot be found), on the GSI it
// names or the base table.
func (s *tableSchema) queryPartition(in *dynamodb.QueryInput) bucketID {
	id := bucketID{readBucket, partID{table: s.name}}
	hash := s.hash
	if ix, ok := s.index(aws.ToString(in.IndexName)); ok && ix.global {
		id.index, hash = ix.name, ix.hash
	}
	vals := make(item)
	for _, h := range hash {
		if c, ok := in.KeyConditions[h]; ok && len(c.AttributeValueList) == 1 {
			vals[h] = c.AttributeValueList[0]
		}
	}
	if in.KeyConditionExpression != nil {
		toks := exprTokens(*in.KeyConditionExpression)
		for i := 0; i+2 < len(toks); i++ {
			if toks[i+1] != "=" {
				continue
			}
			for _, pair := range [][2]string{{toks[i], toks[i+2]}, {toks[i+2], toks[i]}} {
				name, simple := attrName(pair[0], in.ExpressionAttributeNames)
				if v, ok := in.ExpressionAttributeValues[pair[1]]; simple && ok && slices.Contains(hash, name) {
					vals[name] = v
				}
			}
		}
	}
	id.key, _ = render(vals, hash)
	return id
}

// exprTokens splits a condition expression into names, placeholders and
// operators.
func exprTokens(expr string) []string {
	var toks []string
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isWord(c):
			j := i
			for j < len(expr) && (isWord(expr[j]) || expr[j] == '.' || expr[j] == '-') {
				j++
			}
			toks = append(toks, expr[i:j])
			i = j
		case strings.HasPrefix(expr[i:], "<=") || strings.HasPrefix(expr[i:], ">=") || strings.HasPrefix(expr[i:], "<>"):
			toks = append(toks, expr[i:i+2])
			i += 2
		default:
			toks = append(toks, expr[i:i+1])
			i++
		}
	}
	return toks
}

// ---- reads ----

// withTotal returns r, or TOTAL when r asks for nothing: the model needs a
// read's consumed capacity.
func withTotal(r types.ReturnConsumedCapacity) types.ReturnConsumedCapacity {
	if r == types.ReturnConsumedCapacityIndexes || r == types.ReturnConsumedCapacityTotal {
		return r
	}
	return types.ReturnConsumedCapacityTotal
}

func asked(r types.ReturnConsumedCapacity) bool {
	return r == types.ReturnConsumedCapacityIndexes || r == types.ReturnConsumedCapacityTotal
}

func reported(cc *types.ConsumedCapacity) (float64, bool) {
	if cc == nil || cc.CapacityUnits == nil {
		return 0, false
	}
	return *cc.CapacityUnits, true
}

// GetItem judges the read against its partition's read limit, then calls
// the wrapped client. It returns the wrapped client's errors, a
// ProvisionedThroughputExceededException when throttled, and an error
// when the table's key schema cannot be had.
func (p *PartitionClient) GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	s, err := p.schema(ctx, params.TableName)
	if err != nil {
		return nil, err
	}
	consistent := aws.ToBool(params.ConsistentRead)
	id := bucketID{readBucket, partID{s.name, "", s.partition(params.Key)}}
	now := p.opts.Clock()
	estimate := []charge{{id, readUnits(0, consistent)}}
	if refused := p.admit(now, 1, estimate); refused != nil {
		return nil, p.throttleErr(opGetItem, refused)
	}
	in := *params
	in.ReturnConsumedCapacity = withTotal(in.ReturnConsumedCapacity)
	out, err := p.c.GetItem(ctx, &in, optFns...)
	var price []charge
	if err == nil && out != nil {
		price = []charge{{id, readPrice(&out.ConsumedCapacity, params.ReturnConsumedCapacity, consistent, out.Item)}}
	}
	p.settle(now, estimate, price)
	return out, err
}

// readPrice is the RCU of a GetItem or Query page that read items: what
// DynamoDB reported in *cc (asked for on the caller's behalf), else the
// items' sizes; at least a read's minimum. It clears *cc unless the
// caller asked for it (r).
func readPrice(cc **types.ConsumedCapacity, r types.ReturnConsumedCapacity, consistent bool, items ...item) float64 {
	units, ok := reported(*cc)
	if !ok {
		size := 0
		for _, it := range items {
			size += itemSize(it)
		}
		units = readUnits(size, consistent)
	}
	if !asked(r) {
		*cc = nil
	}
	return max(units, readUnits(0, consistent))
}

// Query judges the page against the read limit of the partition its key
// condition names (on the base table, or on the GSI it queries), then
// calls the wrapped client. Each page is a request. It returns what
// GetItem returns.
func (p *PartitionClient) Query(ctx context.Context, params *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	s, err := p.schema(ctx, params.TableName)
	if err != nil {
		return nil, err
	}
	consistent := aws.ToBool(params.ConsistentRead)
	id := s.queryPartition(params)
	now := p.opts.Clock()
	estimate := []charge{{id, readUnits(0, consistent)}}
	if refused := p.admit(now, 1, estimate); refused != nil {
		return nil, p.throttleErr(opQuery, refused)
	}
	in := *params
	in.ReturnConsumedCapacity = withTotal(in.ReturnConsumedCapacity)
	out, err := p.c.Query(ctx, &in, optFns...)
	var price []charge
	if err == nil && out != nil {
		price = []charge{{id, readPrice(&out.ConsumedCapacity, params.ReturnConsumedCapacity, consistent, out.Items...)}}
	}
	p.settle(now, estimate, price)
	return out, err
}

// BatchGetItem judges each key against its partition's read limit, in
// table-name order, and sends the admitted ones; it returns the refused
// keys in UnprocessedKeys, after any the wrapped client left, or fails
// with a ProvisionedThroughputExceededException when it refuses them all.
// Each item read costs its own size, rounded up to 4 KB; a key not found,
// the minimum.
func (p *PartitionClient) BatchGetItem(ctx context.Context, params *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	key := func(table, k string) string { return table + "\x00" + k }
	now := p.opts.Clock()
	send := make(map[string]types.KeysAndAttributes)
	held := make(map[string]types.KeysAndAttributes)
	estimates := make(map[string]charge)
	var allRefused []bucketID
	schemas := make(map[string]*tableSchema)
	for table := range params.RequestItems {
		s, err := p.schema(ctx, aws.String(table))
		if err != nil {
			return nil, err
		}
		schemas[table] = s
	}
	for _, table := range sortedKeys(params.RequestItems) {
		ka, s := params.RequestItems[table], schemas[table]
		consistent := aws.ToBool(ka.ConsistentRead)
		sent, kept := ka, ka
		sent.Keys, kept.Keys = nil, nil
		for _, k := range ka.Keys {
			id := bucketID{readBucket, partID{table, "", s.partition(k)}}
			c := charge{id, readUnits(0, consistent)}
			if refused := p.admit(now, 1, []charge{c}); refused != nil {
				kept.Keys = append(kept.Keys, k)
				allRefused = append(allRefused, refused...)
				continue
			}
			sent.Keys = append(sent.Keys, k)
			estimates[key(table, s.itemKey(k))] = c
		}
		if len(sent.Keys) > 0 {
			send[table] = sent
		}
		if len(kept.Keys) > 0 {
			held[table] = kept
		}
	}
	if len(send) == 0 && len(held) > 0 {
		return nil, p.throttleErr(opBatchGetItem, allRefused)
	}
	in := *params
	in.RequestItems = send
	in.ReturnConsumedCapacity = withTotal(in.ReturnConsumedCapacity)
	out, err := p.c.BatchGetItem(ctx, &in, optFns...)
	var estimate, price []charge
	for _, k := range sortedKeys(estimates) {
		estimate = append(estimate, estimates[k])
	}
	if err != nil || out == nil {
		p.settle(now, estimate, nil)
		return out, err
	}
	prices := make(map[string]charge, len(estimates))
	for k, c := range estimates {
		prices[k] = c // a key not found costs the minimum
	}
	for table, items := range out.Responses {
		s := schemas[table]
		consistent := aws.ToBool(send[table].ConsistentRead)
		for _, it := range items {
			k := key(table, s.itemKey(it))
			if c, ok := prices[k]; ok {
				c.units = readUnits(itemSize(it), consistent)
				prices[k] = c
			}
		}
	}
	for table, ka := range out.UnprocessedKeys {
		for _, k := range ka.Keys {
			delete(prices, key(table, schemas[table].itemKey(k)))
		}
	}
	for _, k := range sortedKeys(prices) {
		price = append(price, prices[k])
	}
	p.settle(now, estimate, price)
	if !asked(params.ReturnConsumedCapacity) {
		out.ConsumedCapacity = nil
	}
	holdKeys(out, held)
	return out, nil
}

// TransactGetItems judges the transaction against the read limits of the
// partitions of all its items, and fails it with a
// TransactionCanceledException (ThrottlingError for the refused items)
// when one is over. Each item costs 2 RCU per 4 KB, at least 2.
func (p *PartitionClient) TransactGetItems(ctx context.Context, params *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	now := p.opts.Clock()
	ids := make([]bucketID, len(params.TransactItems))
	var estimate []charge
	for i, ti := range params.TransactItems {
		if ti.Get == nil {
			continue
		}
		s, err := p.schema(ctx, ti.Get.TableName)
		if err != nil {
			return nil, err
		}
		ids[i] = bucketID{readBucket, partID{s.name, "", s.partition(ti.Get.Key)}}
		estimate = append(estimate, charge{ids[i], 2 * readUnits(0, true)})
	}
	if refused := p.admit(now, 1, estimate); refused != nil {
		return nil, p.txThrottleErr(opTransactGetItems, len(params.TransactItems), itemsOf(ids, refused))
	}
	out, err := p.c.TransactGetItems(ctx, params, optFns...)
	var price []charge
	if err == nil && out != nil {
		for i, id := range ids {
			if id.table == "" {
				continue
			}
			var it item
			if i < len(out.Responses) {
				it = out.Responses[i].Item
			}
			price = append(price, charge{id, 2 * readUnits(itemSize(it), true)})
		}
	}
	p.settle(now, estimate, price)
	return out, err
}

// itemsOf maps each item of a transaction to the refused buckets it
// touches.
func itemsOf(ids []bucketID, refused []bucketID) map[int][]bucketID {
	m := make(map[int][]bucketID)
	for i, id := range ids {
		if slices.Contains(refused, id) {
			m[i] = append(m[i], id)
		}
	}
	return m
}

// ---- writes ----

// PutItem reads the item it replaces, judges the write against the limits
// of the item, its partition and the GSI partitions whose entries it
// changes, then calls the wrapped client. It returns the wrapped client's
// errors (those of the read before included), a
// ProvisionedThroughputExceededException when throttled, and an error when
// the table's key schema cannot be had.
func (p *PartitionClient) PutItem(ctx context.Context, params *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	s, err := p.schema(ctx, params.TableName)
	if err != nil {
		return nil, err
	}
	key := s.key(params.Item)
	old, err := p.read(ctx, params.TableName, key, optFns)
	if err != nil {
		return nil, err
	}
	now := p.opts.Clock()
	estimate := s.writePrice(key, old, params.Item, 1)
	if refused := p.admit(now, 1, estimate); refused != nil {
		return nil, p.throttleErr(opPutItem, refused)
	}
	out, err := p.c.PutItem(ctx, params, optFns...)
	p.settle(now, estimate, s.singlePrice(key, old, params.Item, err))
	return out, err
}

// singlePrice is the price of a single-item write at key that ended with
// err.
func (s *tableSchema) singlePrice(key, old, new item, err error) []charge {
	var ccf *types.ConditionalCheckFailedException
	switch {
	case err == nil:
		return s.writePrice(key, old, new, 1)
	case errors.As(err, &ccf):
		// DynamoDB charges a failed condition the item it read; the
		// indexes do not change.
		return s.writePrice(key, old, nil, 1)[:2]
	}
	return nil
}

// UpdateItem reads the item it updates, judges the write like PutItem
// (see the type's documentation for how an update's new GSI partitions are
// found), calls the wrapped client, and learns the item after the update
// from ReturnValues=ALL_NEW or a read after. It returns what PutItem
// returns.
func (p *PartitionClient) UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	s, err := p.schema(ctx, params.TableName)
	if err != nil {
		return nil, err
	}
	old, err := p.read(ctx, params.TableName, params.Key, optFns)
	if err != nil {
		return nil, err
	}
	now := p.opts.Clock()
	estimate := s.writePrice(params.Key, old, predictUpdate(old, s, params.Key, params.UpdateExpression, params.ExpressionAttributeNames, params.ExpressionAttributeValues), 1)
	if refused := p.admit(now, 1, estimate); refused != nil {
		return nil, p.throttleErr(opUpdateItem, refused)
	}
	in := *params
	rv := params.ReturnValues
	allNew := rv == "" || rv == types.ReturnValueNone || rv == types.ReturnValueAllNew
	if allNew {
		in.ReturnValues = types.ReturnValueAllNew
	}
	out, err := p.c.UpdateItem(ctx, &in, optFns...)
	var new item
	if err == nil && out != nil {
		new = out.Attributes
		if rv == "" || rv == types.ReturnValueNone {
			out.Attributes = nil
		}
		if !allNew {
			if new, err = p.read(ctx, params.TableName, params.Key, optFns); err != nil {
				// The update took effect; price it as the estimate.
				p.settle(now, estimate, estimate)
				return out, nil
			}
		}
	}
	p.settle(now, estimate, s.singlePrice(params.Key, old, new, err))
	return out, err
}

// DeleteItem reads the item it deletes, judges the write like PutItem,
// then calls the wrapped client. It returns what PutItem returns.
func (p *PartitionClient) DeleteItem(ctx context.Context, params *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	s, err := p.schema(ctx, params.TableName)
	if err != nil {
		return nil, err
	}
	old, err := p.read(ctx, params.TableName, params.Key, optFns)
	if err != nil {
		return nil, err
	}
	now := p.opts.Clock()
	estimate := s.writePrice(params.Key, old, nil, 1)
	if refused := p.admit(now, 1, estimate); refused != nil {
		return nil, p.throttleErr(opDeleteItem, refused)
	}
	out, err := p.c.DeleteItem(ctx, params, optFns...)
	p.settle(now, estimate, s.singlePrice(params.Key, old, nil, err))
	return out, err
}

// BatchWriteItem reads the item each request replaces or deletes, judges
// each request like PutItem or DeleteItem, in table-name order, and sends
// the admitted ones; it returns the refused requests in UnprocessedItems,
// after any the wrapped client left, or fails with a
// ProvisionedThroughputExceededException when it refuses them all.
func (p *PartitionClient) BatchWriteItem(ctx context.Context, params *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	type req struct {
		table    string
		key      string
		estimate []charge
	}
	var sent []req
	send := make(map[string][]types.WriteRequest)
	held := make(map[string][]types.WriteRequest)
	var allRefused []bucketID
	schemas := make(map[string]*tableSchema)
	type pending struct {
		wr       types.WriteRequest
		estimate []charge
		key      string
	}
	var plans [][]pending
	tables := sortedKeys(params.RequestItems)
	// Read every old item first, so the clock is read once for the call.
	for _, table := range tables {
		s, err := p.schema(ctx, aws.String(table))
		if err != nil {
			return nil, err
		}
		schemas[table] = s
		var ps []pending
		for _, wr := range params.RequestItems[table] {
			var key, new item
			switch {
			case wr.PutRequest != nil:
				new = wr.PutRequest.Item
				key = s.key(new)
			case wr.DeleteRequest != nil:
				key = wr.DeleteRequest.Key
			}
			old, err := p.read(ctx, aws.String(table), key, optFns)
			if err != nil {
				return nil, err
			}
			ps = append(ps, pending{wr, s.writePrice(key, old, new, 1), s.itemKey(key)})
		}
		plans = append(plans, ps)
	}
	now := p.opts.Clock()
	for i, table := range tables {
		for _, pd := range plans[i] {
			if refused := p.admit(now, 1, pd.estimate); refused != nil {
				held[table] = append(held[table], pd.wr)
				allRefused = append(allRefused, refused...)
				continue
			}
			send[table] = append(send[table], pd.wr)
			sent = append(sent, req{table, pd.key, pd.estimate})
		}
	}
	if len(send) == 0 && len(held) > 0 {
		return nil, p.throttleErr(opBatchWriteItem, allRefused)
	}
	in := *params
	in.RequestItems = send
	out, err := p.c.BatchWriteItem(ctx, &in, optFns...)
	var estimate, price []charge
	unprocessed := make(map[[2]string]bool)
	if err == nil && out != nil {
		for table, wrs := range out.UnprocessedItems {
			s := schemas[table]
			for _, wr := range wrs {
				switch {
				case wr.PutRequest != nil:
					unprocessed[[2]string{table, s.itemKey(wr.PutRequest.Item)}] = true
				case wr.DeleteRequest != nil:
					unprocessed[[2]string{table, s.itemKey(wr.DeleteRequest.Key)}] = true
				}
			}
		}
	}
	for _, r := range sent {
		estimate = append(estimate, r.estimate...)
		if err == nil && !unprocessed[[2]string{r.table, r.key}] {
			price = append(price, r.estimate...)
		}
	}
	p.settle(now, estimate, price)
	if err != nil || out == nil {
		return out, err
	}
	if len(held) > 0 {
		if out.UnprocessedItems == nil {
			out.UnprocessedItems = make(map[string][]types.WriteRequest)
		}
		for table, wrs := range held {
			out.UnprocessedItems[table] = append(out.UnprocessedItems[table], wrs...)
		}
	}
	return out, nil
}

// TransactWriteItems reads the item each action touches, judges the whole
// transaction against the limits of every item, partition and GSI
// partition it writes (at twice a single write's price), and fails it
// with a TransactionCanceledException (ThrottlingError for the refused
// items, None for the others) when one is over. It reads each updated item
// again after the call. It returns the wrapped client's errors (those of
// the reads included), and an error when a table's key schema cannot be
// had. A cancelled transaction costs nothing in the model.
func (p *PartitionClient) TransactWriteItems(ctx context.Context, params *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	type action struct {
		s        *tableSchema
		table    *string
		key, old item
		new      item // nil for a delete, and until an update is read after
		update   bool
		check    bool
	}
	acts := make([]action, len(params.TransactItems))
	for i, ti := range params.TransactItems {
		var a action
		switch {
		case ti.Put != nil:
			a.table, a.new = ti.Put.TableName, ti.Put.Item
		case ti.Update != nil:
			a.table, a.key, a.update = ti.Update.TableName, ti.Update.Key, true
		case ti.Delete != nil:
			a.table, a.key = ti.Delete.TableName, ti.Delete.Key
		case ti.ConditionCheck != nil:
			a.table, a.key, a.check = ti.ConditionCheck.TableName, ti.ConditionCheck.Key, true
		default:
			continue
		}
		s, err := p.schema(ctx, a.table)
		if err != nil {
			return nil, err
		}
		a.s = s
		if a.new != nil {
			a.key = s.key(a.new)
		}
		if a.old, err = p.read(ctx, a.table, a.key, optFns); err != nil {
			return nil, err
		}
		acts[i] = a
	}
	price := func(a action, new item) []charge {
		switch {
		case a.s == nil:
			return nil
		case a.check:
			return a.s.writePrice(a.key, a.old, nil, 2)[:2]
		}
		return a.s.writePrice(a.key, a.old, new, 2)
	}
	now := p.opts.Clock()
	var estimate []charge
	owners := make(map[bucketID][]int)
	for i, a := range acts {
		new := a.new
		if a.update {
			u := params.TransactItems[i].Update
			new = predictUpdate(a.old, a.s, a.key, u.UpdateExpression, u.ExpressionAttributeNames, u.ExpressionAttributeValues)
		}
		for _, c := range price(a, new) {
			estimate = append(estimate, c)
			owners[c.id] = append(owners[c.id], i)
		}
	}
	if refused := p.admit(now, 1, estimate); refused != nil {
		throttled := make(map[int][]bucketID)
		for _, id := range refused {
			for _, i := range owners[id] {
				if !slices.Contains(throttled[i], id) {
					throttled[i] = append(throttled[i], id)
				}
			}
		}
		return nil, p.txThrottleErr(opTransactWriteItems, len(params.TransactItems), throttled)
	}
	out, err := p.c.TransactWriteItems(ctx, params, optFns...)
	if err != nil {
		p.settle(now, estimate, nil)
		return out, err
	}
	var actual []charge
	for _, a := range acts {
		new := a.new
		if a.update {
			var rerr error
			if new, rerr = p.read(ctx, a.table, a.key, optFns); rerr != nil {
				p.settle(now, estimate, estimate) // it took effect; keep the estimate
				return out, nil
			}
		}
		actual = append(actual, price(a, new)...)
	}
	p.settle(now, estimate, actual)
	return out, err
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// ---- the memory stores' calls ----

var _ ddbkit.CapacityModel = (*PartitionClient)(nil)

// Admit implements ddbkit.CapacityModel, so that the same model judges a
// memory store's calls (set it as the store's Options.Emulation.Capacity)
// with no DynamoDB and no wrapped client: it prices the call by the rules
// above, from the items the store reports, judges it against the same
// buckets, counts it in the Report, and takes its price when it admits
// it. The tables must be in PartitionOptions.Tables (TableDescription
// makes them from a domain's CreateTableInput); a call on a table the
// model cannot describe is admitted unpriced. Each read and each write of
// a batch counts as a request, as through the client, but a batch is
// judged whole (see ddbkit.Emulation.Capacity).
func (p *PartitionClient) Admit(c ddbkit.CapacityCall) bool {
	mult, requests := 1.0, 1
	switch c.Op {
	case opTransactWriteItems:
		mult = 2
	case opBatchGetItem, opBatchWriteItem:
		requests = max(len(c.Reads)+len(c.Writes), 1)
	}
	var charges []charge
	for _, r := range c.Reads {
		s := p.knownSchema(r.Table)
		if s == nil {
			continue
		}
		id := bucketID{readBucket, partID{s.name, "", s.partition(r.Key)}}
		if ix, ok := s.index(r.Index); ok && ix.global {
			id.index = ix.name
			id.key, _ = render(r.Key, ix.hash)
		}
		charges = append(charges, charge{id, readUnits(r.Size, r.Consistent)})
	}
	for _, w := range c.Writes {
		if s := p.knownSchema(w.Table); s != nil {
			charges = append(charges, s.writePrice(w.Key, w.Old, w.New, mult)...)
		}
	}
	return p.admit(p.opts.Clock(), requests, charges) == nil
}

// knownSchema returns the key schema of table, described through the
// wrapped client if need be; nil when it cannot be had (with no client,
// a table not in PartitionOptions.Tables).
func (p *PartitionClient) knownSchema(table string) *tableSchema {
	s, err := p.schema(context.Background(), &table)
	if err != nil {
		return nil
	}
	return s
}
