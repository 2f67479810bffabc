package obs_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/ddbkit/ddbkit/internal/obs"
)

// BenchmarkStartOff is what a store method pays for telemetry with no SDK
// installed: OpenTelemetry's global providers, never set.
func BenchmarkStartOff(b *testing.B) {
	t := obs.New("todo", nil, nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c, op := t.Start(ctx, "GetUser", "table")
		var err error
		op.End(&err)
		_ = c
	}
}

// BenchmarkStartOn is what a store method pays with a recording SDK (an
// exporter that drops spans): the span, its attributes and the metrics.
func BenchmarkStartOn(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	t := obs.New("todo", tp, nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c, op := t.Start(ctx, "GetUser", "table")
		obs.From(c).Attempt(false)
		obs.From(c).Consumed("table", 1, 0)
		var err error
		op.End(&err)
	}
}
