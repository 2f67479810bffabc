// Package obs is ddbkit's telemetry: one OpenTelemetry span per store
// method, named "<package>.<Method>", with what the method cost in
// DynamoDB calls and capacity, and the same figures as metrics. Both
// backends report into the Op of the method's context, each call as the
// DynamoDB store makes it (the memory backend prices what it would have
// consumed), so that the memory store's telemetry is the DynamoDB store's.
//
// It depends on the OpenTelemetry API only. With no SDK installed, a
// method makes no span (once the provider has shown that it has none, see
// Telemetry.Start) and checks one histogram: no Op is made, no attribute
// is built, and DynamoDB requests are what they are without telemetry
// (ReturnConsumedCapacity is asked for only while an Op records).
//
// Telemetry carries no data: attribute values are method, table and
// sentinel names, counts and capacity units, never a key, an item, a
// token, a cursor or an idempotency key.
package obs

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/ddbkit/ddbkit"
)

// ScopeName is the instrumentation scope of every tracer and meter.
const ScopeName = "github.com/ddbkit/ddbkit"

// Attribute keys: OpenTelemetry's database conventions where they apply,
// ddbkit's own otherwise (README, "Observability", documents each).
const (
	KeySystem     = attribute.Key("db.system.name")
	KeyCollection = attribute.Key("db.collection.name")
	KeyOperation  = attribute.Key("db.operation.name")
	KeyErrorType  = attribute.Key("error.type")

	KeyCalls      = attribute.Key("ddbkit.dynamodb.calls")
	KeyAttempts   = attribute.Key("ddbkit.dynamodb.attempts")
	KeyThrottles  = attribute.Key("ddbkit.dynamodb.throttles")
	KeyReadUnits  = attribute.Key("ddbkit.capacity.read_units")
	KeyWriteUnits = attribute.Key("ddbkit.capacity.write_units")
	KeyEvaluated  = attribute.Key("ddbkit.query.evaluated")
	KeyBudget     = attribute.Key("ddbkit.query.budget")
	KeyShards     = attribute.Key("ddbkit.query.shards")
	KeyKeyed      = attribute.Key("ddbkit.idempotency_key")
	KeyOutcome    = attribute.Key("ddbkit.outcome")
)

// System is db.system.name's value.
const System = "aws.dynamodb"

// Metric names.
const (
	MetricDuration   = "db.client.operation.duration"
	MetricReadUnits  = "ddbkit.capacity.read_units"
	MetricWriteUnits = "ddbkit.capacity.write_units"
	MetricAttempts   = "ddbkit.dynamodb.attempts"
	MetricThrottles  = "ddbkit.dynamodb.throttles"
	MetricEvaluated  = "ddbkit.query.evaluated"
	MetricRecords    = "ddbkit.stream.records"
)

// Telemetry starts the spans and records the metrics of one store.
type Telemetry struct {
	pkg    string
	tracer trace.Tracer

	duration   metric.Float64Histogram
	readUnits  metric.Float64Counter
	writeUnits metric.Float64Counter
	attempts   metric.Int64Counter
	throttles  metric.Int64Counter
	evaluated  metric.Int64Counter
	records    metric.Int64Counter

	sets  sync.Map // setKey -> attribute.Set: bounded by methods × tables × outcomes
	names sync.Map // method -> span name

	// tp is the provider spans come from: the caller's, or the global
	// one (nil) as it is when each span starts. noop is the provider
	// under which a span came out invalid, which only a provider with no
	// SDK makes: while the provider is still that one, Start skips the
	// tracer (see quiet).
	tp   trace.TracerProvider
	noop atomic.Pointer[trace.TracerProvider]
}

// clientSpan is the options of every span, made once.
var clientSpan = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindClient)}

// name is method's span name, "<pkg>.<Method>", made once.
func (t *Telemetry) name(method string) string {
	if n, ok := t.names.Load(method); ok {
		return n.(string)
	}
	n := t.pkg + "." + method
	t.names.Store(method, n)
	return n
}

// provider is the tracer provider a span starts under now.
func (t *Telemetry) provider() trace.TracerProvider {
	if t.tp != nil {
		return t.tp
	}
	return otel.GetTracerProvider()
}

// quiet reports whether the tracer provider is one that made an invalid
// span, and still the one in force: no SDK is installed, and a span would
// be a no-op. A global provider that an SDK replaces since is another
// provider, and spans start again.
func (t *Telemetry) quiet() bool {
	p := t.noop.Load()
	return p != nil && *p == t.provider()
}

// hush records that the provider in force made an invalid span, where
// providers can be compared.
func (t *Telemetry) hush() {
	p := t.provider()
	if p != nil && reflect.TypeOf(p).Comparable() {
		t.noop.Store(&p)
	}
}

// New returns the telemetry of a store of package pkg ("todo"), on tp and
// mp, or OpenTelemetry's global providers where they are nil, so that an
// application that installs an SDK later sees the store without more
// set-up.
func New(pkg string, tp trace.TracerProvider, mp metric.MeterProvider) *Telemetry {
	given := tp
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	m := mp.Meter(ScopeName)
	t := &Telemetry{pkg: pkg, tp: given, tracer: tp.Tracer(ScopeName)}
	// A meter's errors leave a usable no-op instrument: telemetry never
	// fails a store.
	t.duration, _ = m.Float64Histogram(MetricDuration, metric.WithUnit("s"),
		metric.WithDescription("Duration of ddbkit store operations, DynamoDB calls and retries included."),
		metric.WithExplicitBucketBoundaries(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10))
	t.readUnits, _ = m.Float64Counter(MetricReadUnits, metric.WithUnit("{capacity_unit}"),
		metric.WithDescription("Read capacity units consumed, by operation and table."))
	t.writeUnits, _ = m.Float64Counter(MetricWriteUnits, metric.WithUnit("{capacity_unit}"),
		metric.WithDescription("Write capacity units consumed, by operation and table."))
	t.attempts, _ = m.Int64Counter(MetricAttempts, metric.WithUnit("{request}"),
		metric.WithDescription("Requests sent to DynamoDB, retries included."))
	t.throttles, _ = m.Int64Counter(MetricThrottles, metric.WithUnit("{request}"),
		metric.WithDescription("Requests DynamoDB throttled."))
	t.evaluated, _ = m.Int64Counter(MetricEvaluated, metric.WithUnit("{item}"),
		metric.WithDescription("Items queries read, filtered out or not."))
	t.records, _ = m.Int64Counter(MetricRecords, metric.WithUnit("{record}"),
		metric.WithDescription("Stream records handled, by outcome."))
	return t
}

// cache holds Cached's telemetry by package and providers.
var cache sync.Map

type cacheKey struct {
	pkg string
	tp  trace.TracerProvider
	mp  metric.MeterProvider
}

// Cached is New, made once per package and providers where they can be
// told apart (comparable): for what is built per call, such as a Lambda
// handler that is a value.
func Cached(pkg string, tp trace.TracerProvider, mp metric.MeterProvider) *Telemetry {
	if tp != nil && !reflect.TypeOf(tp).Comparable() || mp != nil && !reflect.TypeOf(mp).Comparable() {
		return New(pkg, tp, mp)
	}
	k := cacheKey{pkg, tp, mp}
	if t, ok := cache.Load(k); ok {
		return t.(*Telemetry)
	}
	t, _ := cache.LoadOrStore(k, New(pkg, tp, mp))
	return t.(*Telemetry)
}

type opKey struct{}

// From returns the recording Op of ctx, nil when there is none (telemetry
// off, or a call outside any store method).
func From(ctx context.Context) *Op {
	o, _ := ctx.Value(opKey{}).(*Op)
	return o
}

// Start starts the span of store method method ("CreateUser") on table,
// and returns the context its calls run under, and its Op; the caller
// ends it with End. The Op is nil when neither the span nor the metrics
// record; End and every recording method of a nil Op do nothing.
func (t *Telemetry) Start(ctx context.Context, method, table string) (context.Context, *Op) {
	if t == nil {
		return ctx, nil
	}
	h, _ := ctx.Value(hookKey{}).(func(string, Summary))
	if h == nil && t.quiet() && !t.duration.Enabled(ctx) {
		return ctx, nil // no SDK: nothing is made
	}
	sctx, span := t.tracer.Start(ctx, t.name(method), clientSpan...)
	recording := span.IsRecording()
	if !recording && h == nil && !t.duration.Enabled(ctx) {
		if span.SpanContext().IsValid() {
			// A sampled-out span of an installed SDK: its calls' spans
			// are its children, as the sampler expects.
			return sctx, nil
		}
		t.hush()
		return ctx, nil
	}
	o := &Op{t: t, span: span, traced: recording, method: method, table: table, start: time.Now(), hook: h, parent: From(ctx)}
	_, o.keyed = ddbkit.IdempotencyKey(ctx)
	return context.WithValue(sctx, opKey{}, o), o
}

// Op is one store method's telemetry under way. Its methods are safe for
// concurrent use (a method may call DynamoDB from several goroutines).
type Op struct {
	t      *Telemetry
	span   trace.Span
	traced bool
	method string
	table  string
	start  time.Time
	keyed  bool
	hook   func(string, Summary)
	parent *Op // the method that called this one, which its cost counts in

	mu        sync.Mutex
	attempts  int64
	retries   int64
	throttles int64
	evaluated int64
	budget    int
	shards    int
	units     []Units // per table, in the order first seen
	local     float64 // write units as DynamoDB Local reports them (tests)
	txed      bool    // local is unknown: a transaction was priced
}

// Units is the capacity one table consumed.
type Units struct {
	Table       string
	Read, Write float64
}

// Attempt records one request sent to DynamoDB (or, in memory, one the
// DynamoDB store would send), throttled or not.
func (o *Op) Attempt(throttled bool) {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.attempts++
	if throttled {
		o.throttles++
	}
	o.mu.Unlock()
}

// Retry records that the next attempt repeats an earlier one.
func (o *Op) Retry() {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.retries++
	o.mu.Unlock()
}

// Consumed adds capacity table consumed.
func (o *Op) Consumed(table string, read, write float64) {
	if o == nil || (read == 0 && write == 0) {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.add(Units{Table: table, Read: read, Write: write})
}

// add adds u to its table's units, under o.mu.
func (o *Op) add(u Units) {
	for i := range o.units {
		if o.units[i].Table == u.Table {
			o.units[i].Read += u.Read
			o.units[i].Write += u.Write
			return
		}
	}
	o.units = append(o.units, u)
}

// LocalWrite adds write units as DynamoDB Local would report them: the
// memory backend records them beside the service's price of every write
// call, since DynamoDB Local prices some calls otherwise (see
// internal/backend's price.go), and tests compare them with what DynamoDB
// Local reported.
func (o *Op) LocalWrite(units float64) {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.local += units
	o.mu.Unlock()
}

// Transacted records that the memory backend priced a transaction, whose
// write units DynamoDB Local reports its own way: LocalWrite's figure is
// then unknown (Summary.Transacted).
func (o *Op) Transacted() {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.txed = true
	o.mu.Unlock()
}

// Evaluated adds n items a query read, filtered out or not.
func (o *Op) Evaluated(n int) {
	if o == nil || n == 0 {
		return
	}
	o.mu.Lock()
	o.evaluated += int64(n)
	o.mu.Unlock()
}

// Budget records the filter budget of a filtered page.
func (o *Op) Budget(n int) {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.budget = max(o.budget, n)
	o.mu.Unlock()
}

// Shards records that a listing merged n shards.
func (o *Op) Shards(n int) {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.shards = max(o.shards, n)
	o.mu.Unlock()
}

// Summary is what an Op recorded.
type Summary struct {
	Calls, Attempts, Throttles int64
	Read, Write                float64
	// Local is Write as DynamoDB Local reports it, where the memory
	// backend recorded it (LocalWrite); zero from the DynamoDB backend.
	Local float64
	// Transacted reports that the memory backend priced a transaction:
	// Local is then unknown.
	Transacted bool
	Evaluated  int64
	Units      []Units
}

// Summary returns what o recorded so far.
func (o *Op) Summary() Summary {
	if o == nil {
		return Summary{}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	s := Summary{Calls: o.attempts - o.retries, Attempts: o.attempts, Throttles: o.throttles,
		Evaluated: o.evaluated, Units: append([]Units(nil), o.units...)}
	for _, u := range o.units {
		s.Read += u.Read
		s.Write += u.Write
	}
	s.Local, s.Transacted = o.local, o.txed
	return s
}

// absorb adds what a method o called recorded.
func (o *Op) absorb(s Summary) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.attempts += s.Attempts
	o.retries += s.Attempts - s.Calls
	o.throttles += s.Throttles
	o.evaluated += s.Evaluated
	o.local += s.Local
	o.txed = o.txed || s.Transacted
	for _, u := range s.Units {
		o.add(u)
	}
}

type hookKey struct{}

// WithHook returns ctx under which every store method records, whether
// telemetry is on or not, and hands fn its span's name and Summary when it
// ends: the model tests (internal/difftest) compare the memory store's
// with the DynamoDB store's.
func WithHook(ctx context.Context, fn func(name string, s Summary)) context.Context {
	return context.WithValue(ctx, hookKey{}, fn)
}

// End ends o's span with *errp's outcome and records its metrics. A nil o
// does nothing.
func (o *Op) End(errp *error) {
	if o == nil {
		return
	}
	var err error
	if errp != nil {
		err = *errp
	}
	s := o.Summary()
	if o.parent != nil {
		o.parent.absorb(s)
	}
	if o.hook != nil {
		o.hook(o.t.pkg+"."+o.method, s)
	}
	errType := ErrorType(err)
	if o.traced {
		attrs := []attribute.KeyValue{
			KeySystem.String(System),
			KeyCollection.String(o.table),
			KeyOperation.String(o.method),
			KeyCalls.Int64(s.Calls),
			KeyAttempts.Int64(s.Attempts),
			KeyThrottles.Int64(s.Throttles),
			KeyReadUnits.Float64(s.Read),
			KeyWriteUnits.Float64(s.Write),
			KeyKeyed.Bool(o.keyed),
		}
		if s.Evaluated > 0 {
			attrs = append(attrs, KeyEvaluated.Int64(s.Evaluated))
		}
		o.mu.Lock()
		if o.budget > 0 {
			attrs = append(attrs, KeyBudget.Int(o.budget))
		}
		if o.shards > 0 {
			attrs = append(attrs, KeyShards.Int(o.shards))
		}
		o.mu.Unlock()
		if errType != "" {
			attrs = append(attrs, KeyErrorType.String(errType))
			// The sentinel only: an error's text names keys and values.
			o.span.SetStatus(codes.Error, errType)
		}
		o.span.SetAttributes(attrs...)
	}
	o.span.End()

	ctx := context.Background()
	set := o.t.set(o.method, o.table, errType)
	o.t.duration.Record(ctx, time.Since(o.start).Seconds(), metric.WithAttributeSet(set))
	if s.Attempts > 0 {
		plain := o.t.set(o.method, o.table, "")
		o.t.attempts.Add(ctx, s.Attempts, metric.WithAttributeSet(plain))
		if s.Throttles > 0 {
			o.t.throttles.Add(ctx, s.Throttles, metric.WithAttributeSet(plain))
		}
		if s.Evaluated > 0 {
			o.t.evaluated.Add(ctx, s.Evaluated, metric.WithAttributeSet(plain))
		}
	}
	for _, u := range s.Units {
		ts := o.t.set(o.method, u.Table, "")
		if u.Read > 0 {
			o.t.readUnits.Add(ctx, u.Read, metric.WithAttributeSet(ts))
		}
		if u.Write > 0 {
			o.t.writeUnits.Add(ctx, u.Write, metric.WithAttributeSet(ts))
		}
	}
}

// Records counts n stream records of outcome ("mailed", "skipped",
// "failed") handled by method.
func (t *Telemetry) Records(ctx context.Context, method, table, outcome string, n int) {
	if t == nil || n == 0 || !t.records.Enabled(ctx) {
		return
	}
	t.records.Add(ctx, int64(n), metric.WithAttributes(KeySystem.String(System), KeyCollection.String(table),
		KeyOperation.String(method), KeyOutcome.String(outcome)))
}

type setKey struct{ method, table, errType string }

// set is the metric attributes of method on table with errType ("" for
// none), made once.
func (t *Telemetry) set(method, table, errType string) attribute.Set {
	k := setKey{method, table, errType}
	if s, ok := t.sets.Load(k); ok {
		return s.(attribute.Set)
	}
	kvs := []attribute.KeyValue{KeySystem.String(System), KeyCollection.String(table), KeyOperation.String(method)}
	if errType != "" {
		kvs = append(kvs, KeyErrorType.String(errType))
	}
	s := attribute.NewSet(kvs...)
	t.sets.Store(k, s)
	return s
}

// sentinels name error.type's values, most specific first.
var sentinels = []struct {
	err  error
	name string
}{
	{ddbkit.ErrIdempotencyKeyReused, "idempotency_key_reused"},
	{ddbkit.ErrNotFound, "not_found"},
	{ddbkit.ErrAlreadyExists, "already_exists"},
	{ddbkit.ErrConflict, "conflict"},
	{ddbkit.ErrPermissionDenied, "permission_denied"},
	{ddbkit.ErrInvalidArgument, "invalid_argument"},
	{ddbkit.ErrInvalidCursor, "invalid_cursor"},
	{ddbkit.ErrCorruptItem, "corrupt_item"},
	{ddbkit.ErrSchemaMismatch, "schema_mismatch"},
	{context.Canceled, "canceled"},
	{context.DeadlineExceeded, "deadline_exceeded"},
	{ddbkit.ErrUnavailable, "unavailable"},
}

// ErrorTypes lists error.type's values.
func ErrorTypes() []string {
	out := []string{"_OTHER"}
	for _, s := range sentinels {
		out = append(out, s.name)
	}
	return out
}

// Outcomes lists ddbkit.outcome's values (Telemetry.Records).
var Outcomes = []string{"mailed", "skipped", "failed"}

// ErrorType is error.type's value for err: the name of its ddbkit
// sentinel, "_OTHER" for an error that matches none, "" for nil.
func ErrorType(err error) string {
	if err == nil {
		return ""
	}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return s.name
		}
	}
	return "_OTHER"
}
