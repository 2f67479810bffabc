package todo

import (
	"context"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
)

type ctxKey struct{}

// TestUnkeyed: a sweep step's context holds no idempotency key, and keeps
// everything else of its parent: other values, deadline, cancellation.
func TestUnkeyed(t *testing.T) {
	parent, cancel := context.WithTimeout(context.WithValue(context.Background(), ctxKey{}, "v"), time.Hour)
	keyed := ddbkit.WithIdempotencyKey(parent, "request-1")
	if _, ok := ddbkit.IdempotencyKey(keyed); !ok {
		t.Fatal("WithIdempotencyKey set no key")
	}
	ctx := unkeyed(keyed)
	if k, ok := ddbkit.IdempotencyKey(ctx); ok {
		t.Fatalf("unkeyed context holds key %q", k)
	}
	if v := ctx.Value(ctxKey{}); v != "v" {
		t.Fatalf("unkeyed context lost a value: %v", v)
	}
	if _, ok := ctx.Deadline(); !ok {
		t.Fatal("unkeyed context lost its deadline")
	}
	cancel()
	if ctx.Err() == nil {
		t.Fatal("unkeyed context is not cancelled with its parent")
	}
	if plain := context.Background(); unkeyed(plain) != plain {
		t.Fatal("a context without a key is not returned as it is")
	}
}
