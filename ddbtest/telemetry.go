package ddbtest

import (
	"context"
	"slices"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// Recorder is an OpenTelemetry SDK that keeps what ddbkit's stores
// report: hand its providers to a store's Options (TracerProvider,
// MeterProvider), and read back each store method's span as an
// Operation, with the DynamoDB calls and the capacity it cost. The memory
// stores report what their DynamoDB stores would, capacity included, so a
// unit test on a memory store can hold an access pattern to what it costs
// in production:
//
//	rec := ddbtest.NewRecorder()
//	s := todo.NewMemoryStore(func(o *todo.Options) { o.TracerProvider = rec.TracerProvider() })
//	cost := rec.Measure(func() { s.CreateTodo(ctx, "alice", in) })
//	// cost.Calls, cost.Read, cost.Write: what the DynamoDB store spends
//
// It is safe for concurrent use.
type Recorder struct {
	spans  *tracetest.SpanRecorder
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	mp     *sdkmetric.MeterProvider

	mu   sync.Mutex
	seen int // spans ended before the last Reset
}

// NewRecorder returns a Recorder that samples every span.
func NewRecorder() *Recorder {
	r := &Recorder{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSpanProcessor(r.spans))
	r.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	return r
}

// TracerProvider is the Recorder's tracer provider.
func (r *Recorder) TracerProvider() trace.TracerProvider { return r.tp }

// MeterProvider is the Recorder's meter provider.
func (r *Recorder) MeterProvider() metric.MeterProvider { return r.mp }

// Operation is one store method, as its span reports it.
type Operation struct {
	// Name is the span's name: "<package>.<Method>".
	Name string
	// Table is the table it is about (db.collection.name).
	Table string
	// Calls is the DynamoDB calls it made, Attempts those and their
	// retries, Throttles the attempts DynamoDB throttled.
	Calls, Attempts, Throttles int
	// Read and Write are the capacity units it consumed.
	Read, Write float64
	// Evaluated is the items its queries read, filtered out or not.
	Evaluated int
	// Error is the name of the sentinel it failed with (error.type), ""
	// when it succeeded.
	Error string
	// Nested reports a method another store method called: its cost is
	// in its caller's too.
	Nested bool
	// Attributes are all of the span's attributes.
	Attributes []attribute.KeyValue
}

// Cost is what some store methods cost, each called by the test (nested
// methods are in their caller's figures).
type Cost struct {
	Operations  []Operation
	Calls       int
	Read, Write float64
}

// Operations returns the store methods that ended since the Recorder was
// made or last Reset, in the order they ended.
func (r *Recorder) Operations() []Operation {
	r.mu.Lock()
	seen := r.seen
	r.mu.Unlock()
	ended := r.spans.Ended()
	if seen > len(ended) {
		seen = len(ended)
	}
	ended = ended[seen:]
	ids := make(map[trace.SpanID]bool, len(ended))
	for _, s := range ended {
		ids[s.SpanContext().SpanID()] = true
	}
	out := make([]Operation, 0, len(ended))
	for _, s := range ended {
		op := Operation{Name: s.Name(), Attributes: slices.Clone(s.Attributes()), Nested: ids[s.Parent().SpanID()]}
		for _, kv := range s.Attributes() {
			switch kv.Key {
			case "db.collection.name":
				op.Table = kv.Value.AsString()
			case "ddbkit.dynamodb.calls":
				op.Calls = int(kv.Value.AsInt64())
			case "ddbkit.dynamodb.attempts":
				op.Attempts = int(kv.Value.AsInt64())
			case "ddbkit.dynamodb.throttles":
				op.Throttles = int(kv.Value.AsInt64())
			case "ddbkit.capacity.read_units":
				op.Read = kv.Value.AsFloat64()
			case "ddbkit.capacity.write_units":
				op.Write = kv.Value.AsFloat64()
			case "ddbkit.query.evaluated":
				op.Evaluated = int(kv.Value.AsInt64())
			case "error.type":
				op.Error = kv.Value.AsString()
			}
		}
		out = append(out, op)
	}
	return out
}

// Reset forgets the operations recorded so far.
func (r *Recorder) Reset() {
	n := len(r.spans.Ended())
	r.mu.Lock()
	r.seen = n
	r.mu.Unlock()
}

// Measure resets r, runs f, and returns what the store methods f called
// cost.
func (r *Recorder) Measure(f func()) Cost {
	r.Reset()
	f()
	var c Cost
	c.Operations = r.Operations()
	for _, op := range c.Operations {
		if op.Nested {
			continue
		}
		c.Calls += op.Calls
		c.Read += op.Read
		c.Write += op.Write
	}
	return c
}

// Strings returns every string the recorded telemetry holds, by
// attribute key: span names (under "span.name"), span status
// descriptions ("span.status"), span attribute values, and the attribute
// values of every metric data point. A test holds them to the few names
// telemetry may carry, to show that no key, item, token or cursor
// reaches it.
func (r *Recorder) Strings(ctx context.Context) (map[string][]string, error) {
	out := map[string][]string{}
	add := func(k, v string) {
		if !slices.Contains(out[k], v) {
			out[k] = append(out[k], v)
		}
	}
	addAttrs := func(kvs []attribute.KeyValue) {
		for _, kv := range kvs {
			switch kv.Value.Type() {
			case attribute.STRING:
				add(string(kv.Key), kv.Value.AsString())
			case attribute.STRINGSLICE:
				for _, v := range kv.Value.AsStringSlice() {
					add(string(kv.Key), v)
				}
			}
		}
	}
	for _, s := range r.spans.Ended() {
		add("span.name", s.Name())
		if d := s.Status().Description; d != "" {
			add("span.status", d)
		}
		addAttrs(s.Attributes())
		for _, e := range s.Events() {
			add("span.event", e.Name)
			addAttrs(e.Attributes)
		}
	}
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(ctx, &rm); err != nil {
		return nil, err
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			add("metric.name", m.Name)
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					addAttrs(p.Attributes.ToSlice())
				}
			case metricdata.Sum[float64]:
				for _, p := range d.DataPoints {
					addAttrs(p.Attributes.ToSlice())
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					addAttrs(p.Attributes.ToSlice())
				}
			}
		}
	}
	return out, nil
}
