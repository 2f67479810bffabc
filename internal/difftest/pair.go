package difftest

import (
	"cmp"
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Pair is a memory store and a DynamoDB store of one domain that must
// behave alike: built with the same options, the same table names, a shared
// Clock (or identical deterministic clocks) and identical ID generators
// (same seed), the DynamoDB one on fresh tables.
type Pair[S any] struct {
	Mem, Dyn S
	// Export returns the memory store's items (its Export method).
	Export func() ddbkit.TableItems
	// DB is the DynamoDB client the checkpoints Scan, without faults; a
	// *dynamodb.Client. The harness deletes Tables through it at the end of
	// each rapid check when it can (ddbtest's own cleanup then finds them
	// gone, which it accepts).
	DB Scanner
	// Tables names the DynamoDB store's tables, as Export names them.
	Tables []string
	// Clock, if set, is the clock both stores read; it advances by its
	// Step before every operation, and stands still during one, so
	// retries and the number of times a store reads it cannot make the
	// stores' timestamps differ.
	Clock *Clock
	// Faults, if set, injects faults on the DynamoDB side: the fault
	// variant of a run. Build it with NewFaults over the ddbtest.FaultClient
	// that wraps the DynamoDB store's client.
	Faults *Faults

	spans spans // what the operation under way reported (see Run.Ctx)
}

// Scanner is what checkpoints need of DynamoDB: *dynamodb.Client has it.
type Scanner interface {
	Scan(ctx context.Context, params *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}

type tableDeleter interface {
	DeleteTable(ctx context.Context, params *dynamodb.DeleteTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error)
}

// Clock is a clock that moves only when told: pass its Now method as both
// stores' ddbkit.Clock.
type Clock struct {
	// Step is how far the clock advances before each operation of a Pair;
	// zero means a second. Keep a check's time short of what the domain
	// must not see pass between two of its operations (DynamoDB Local
	// keeps idempotency tokens for ten minutes of real time, say), and
	// jump with Run.Advance where it should.
	Step time.Duration

	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock standing at start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Faults injects faults into the DynamoDB side of a Pair, one step at a
// time.
type Faults struct {
	kinds  []string
	inject func(op, kind string)
	clear  func()
}

// FaultInjector is what Faults needs of ddbtest.FaultClient (F is
// ddbtest.Fault); difftest cannot import ddbtest, a module of its own.
type FaultInjector[F fmt.Stringer] interface {
	Inject(op string, fault F, times int)
	Clear()
}

// clientOps are the operations of ddbkit.Client.
var clientOps = []string{"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query",
	"BatchGetItem", "BatchWriteItem", "TransactWriteItems", "TransactGetItems"}

// faultOps returns the operations a fault of ddbtest applies to, by name.
func faultOps(kind string) []string {
	switch kind {
	case "TxConflict":
		return []string{"TransactWriteItems", "TransactGetItems"}
	case "Unprocessed":
		return []string{"BatchGetItem", "BatchWriteItem"}
	}
	return clientOps
}

// NewFaults returns the Faults that c injects, drawn among kinds, for
// example
//
//	difftest.NewFaults(fc, ddbtest.Throttle, ddbtest.TxConflict, ddbtest.Unprocessed, ddbtest.LoseResponse)
//
// A step of a run draws a fault with a small probability; the step's first
// operation then meets it once on the first call of every SDK operation it
// applies to, and the stores' retries must hide it.
func NewFaults[F fmt.Stringer](c FaultInjector[F], kinds ...F) *Faults {
	byName := make(map[string]F, len(kinds))
	f := &Faults{clear: c.Clear}
	for _, k := range kinds {
		byName[k.String()] = k
		f.kinds = append(f.kinds, k.String())
	}
	f.inject = func(op, kind string) {
		k, ok := byName[kind]
		if !ok {
			panic(fmt.Sprintf("difftest: fault %q is none of %v", kind, f.kinds))
		}
		c.Inject(op, k, 1)
	}
	return f
}

// Next makes the next operation's first call of every SDK operation that
// kind (a fault's name, "Throttle") applies to fail once with it. The
// operation then clears what it left unused.
func (f *Faults) Next(kind string) {
	f.clear()
	for _, op := range faultOps(kind) {
		f.inject(op, kind)
	}
}

// TB is what Same, SameErr and SameRaw need of a test: *testing.T and
// *rapid.T have it.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Same calls call on both stores of p, the memory store first, and fails t
// unless they return the same value and the same error (Diff). It returns
// the memory store's results. Runs record each operation as a call of Same
// (SameErr for methods returning only an error), so the printed regression
// tests replay exactly what the run did.
func Same[S, R any](t TB, p *Pair[S], call func(S) (R, error)) (R, error) {
	t.Helper()
	v, err, d := compare(p, call)
	if d != "" {
		t.Fatalf("difftest: the stores differ: %s", d)
	}
	return v, err
}

// SameErr is Same for a method that returns only an error.
func SameErr[S any](t TB, p *Pair[S], call func(S) error) error {
	t.Helper()
	_, err := Same(t, p, func(s S) (struct{}, error) { return struct{}{}, call(s) })
	return err
}

// SameRaw fails t unless the memory store's Export equals a Scan of each
// DynamoDB table, attribute for attribute.
func SameRaw[S any](t TB, p *Pair[S]) {
	t.Helper()
	if d := rawDiff(p); d != "" {
		t.Fatalf("difftest: the stored items differ: %s", d)
	}
}

// compare runs call on both stores and returns the memory store's results
// and how the two differ ("" when they don't).
//
//lint:ignore ST1008 the error is call's result, compared like the value; the string is compare's own answer.
func compare[S, R any](p *Pair[S], call func(S) (R, error)) (R, error, string) {
	if p.Clock != nil {
		p.Clock.Advance(cmp.Or(p.Clock.Step, time.Second))
	}
	p.spans.take()
	mv, merr, mpanic := protect(p.Mem, call)
	mspans := p.spans.take()
	dv, derr, dpanic := protect(p.Dyn, call)
	dspans := p.spans.take()
	faulted := p.Faults != nil
	if faulted {
		p.Faults.clear()
	}
	switch {
	case mpanic != "" || dpanic != "":
		return mv, merr, fmt.Sprintf("panic:\n  memory %s\n  dynamo %s", orNone(mpanic), orNone(dpanic))
	}
	if d := DiffErr(merr, derr); d != "" {
		return mv, merr, d
	}
	if d := Diff(mv, dv); d != "" {
		return mv, merr, d
	}
	// Injected faults make the DynamoDB store retry where the memory
	// store does not: its calls then differ, and only its results are
	// held to the memory store's.
	if !faulted {
		return mv, merr, telemetryDiff(mspans, dspans)
	}
	return mv, merr, ""
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

//lint:ignore ST1008 the error is call's result; panicked, last, is what protect adds.
func protect[S, R any](s S, call func(S) (R, error)) (v R, err error, panicked string) {
	defer func() {
		if r := recover(); r != nil {
			panicked = fmt.Sprintf("%v\n%s", r, debug.Stack())
		}
	}()
	v, err = call(s)
	return v, err, ""
}

// rawDiff compares p's memory store's Export with a Scan of its tables.
func rawDiff[S any](p *Pair[S]) string {
	if p.Export == nil || p.DB == nil {
		return "the Pair has no Export or DB to compare"
	}
	mem := p.Export()
	var out []string
	for name := range mem {
		if !slices.Contains(p.Tables, name) {
			out = append(out, fmt.Sprintf("Export has table %q, which is none of the Pair's Tables %q", name, p.Tables))
		}
	}
	for _, name := range p.Tables {
		dyn, err := scan(p.DB, name)
		if err != nil {
			return fmt.Sprintf("scan %s: %v", name, err)
		}
		if d := itemsDiff(mem[name], dyn); d != "" {
			out = append(out, "table "+name+":"+d)
		}
	}
	return strings.Join(out, "\n")
}

func scan(db Scanner, table string) ([]map[string]types.AttributeValue, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var items []map[string]types.AttributeValue
	in := &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)}
	for {
		out, err := db.Scan(ctx, in)
		if err != nil {
			return nil, err
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			return items, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// itemsDiff compares two sets of items whatever their order, and lists the
// items only one side has.
func itemsDiff(mem, dyn []map[string]types.AttributeValue) string {
	render := func(items []map[string]types.AttributeValue) []string {
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = ItemString(it)
		}
		slices.Sort(out)
		return out
	}
	m, d := render(mem), render(dyn)
	if slices.Equal(m, d) {
		return ""
	}
	var b strings.Builder
	onlyIn := func(side string, a, other []string) {
		for _, s := range a {
			if i, ok := slices.BinarySearch(other, s); ok {
				other = slices.Delete(slices.Clone(other), i, i+1)
				continue
			}
			fmt.Fprintf(&b, "\n  only in %s: %s", side, s)
		}
	}
	onlyIn("memory", m, d)
	onlyIn("dynamo", d, m)
	return b.String()
}

// ItemString renders an item canonically: its attributes in name order,
// each as ddb.AttrString writes its value.
func ItemString(item map[string]types.AttributeValue) string {
	names := make([]string, 0, len(item))
	for n := range item {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + ddb.AttrString(item[n])
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// deleteTables drops p's tables, when p.DB can.
func (p *Pair[S]) deleteTables() {
	d, ok := p.DB.(tableDeleter)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, name := range p.Tables {
		_, _ = d.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	}
}
