package obs_test

import (
	"context"
	"fmt"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// TestGlobalProvider: with OpenTelemetry's global provider and no SDK, a
// method makes nothing; once an application installs an SDK, the same
// Telemetry records, as instrumentation libraries do.
func TestGlobalProvider(t *testing.T) {
	tel := obs.New("todo", nil, nil)
	for range 2 { // the second time through the quiet path
		if _, op := tel.Start(context.Background(), "GetUser", "t"); op != nil {
			t.Fatalf("Start with no SDK made an Op")
		}
	}
	rec := tracetest.NewSpanRecorder()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	ctx, op := tel.Start(context.Background(), "GetUser", "t")
	if op == nil || obs.From(ctx) != op {
		t.Fatalf("Start after an SDK was installed: Op %v, From(ctx) %v", op, obs.From(ctx))
	}
	op.End(nil)
	if got := len(rec.Ended()); got != 1 || rec.Ended()[0].Name() != "todo.GetUser" {
		t.Fatalf("spans %d, want one todo.GetUser", got)
	}
}

// TestEnd: a span carries what its Op recorded, nested methods count in
// their caller's figures, and a failure names its sentinel only.
func TestEnd(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tel := obs.New("kondate", sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)), nil)
	ctx, outer := tel.Start(ddbkit.WithIdempotencyKey(context.Background(), "secret-key"), "SaveSet", "MainTable")
	outer.Attempt(false)
	outer.Consumed("MainTable", 1, 0)
	ictx, inner := tel.Start(ctx, "GetRecipe", "MainTable")
	obs.From(ictx).Attempt(true)
	obs.From(ictx).Retry()
	obs.From(ictx).Attempt(false)
	obs.From(ictx).Consumed("MainTable", 0.5, 0)
	inner.End(nil)
	err := fmt.Errorf("kondate: recipe %q: %w", "r-secret", ddbkit.ErrNotFound)
	outer.End(&err)

	spans := rec.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2", len(spans))
	}
	s := spans[1]
	want := map[string]string{
		"db.system.name": "aws.dynamodb", "db.collection.name": "MainTable", "db.operation.name": "SaveSet",
		"ddbkit.dynamodb.calls": "2", "ddbkit.dynamodb.attempts": "3", "ddbkit.dynamodb.throttles": "1",
		"ddbkit.capacity.read_units": "1.5", "ddbkit.capacity.write_units": "0", "ddbkit.idempotency_key": "true",
		"error.type": "not_found",
	}
	got := map[string]string{}
	for _, kv := range s.Attributes() {
		got[string(kv.Key)] = fmt.Sprint(kv.Value.AsInterface())
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if s.Status().Code != codes.Error || s.Status().Description != "not_found" {
		t.Errorf("status %v %q, want Error \"not_found\"", s.Status().Code, s.Status().Description)
	}
	if len(s.Events()) != 0 {
		t.Errorf("the span has events %v: an error's text names keys", s.Events())
	}
}

func TestErrorType(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{ddbkit.ErrIdempotencyKeyReused, "idempotency_key_reused"}, // before conflict, which it matches too
		{fmt.Errorf("x: %w", ddbkit.ErrConflict), "conflict"},
		{fmt.Errorf("x: %w: %w", ddbkit.ErrUnavailable, context.Canceled), "canceled"},
		{fmt.Errorf("plain"), "_OTHER"},
	} {
		if got := obs.ErrorType(tc.err); got != tc.want {
			t.Errorf("ErrorType(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
