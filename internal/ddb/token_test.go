package ddb_test

import (
	"context"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestRequestTokenScope pins what a caller's idempotency key reaches: one
// token per table, operation and partition, and none without a key.
func TestRequestTokenScope(t *testing.T) {
	ctx := ddbkit.WithIdempotencyKey(context.Background(), "3f1c9a52-request")
	tok := func(table, op, part string) string {
		t.Helper()
		s, ok := ddb.RequestToken(ctx, ddb.Scope{Table: table, Op: op, Partition: part})
		if !ok || len(s) != 32 {
			t.Fatalf("RequestToken(%q, %q, %q) = %q, %t; want 32 hex digits, true", table, op, part, s, ok)
		}
		return s
	}
	a := tok("todos", "create todo", "USER#alice")
	if b := tok("todos", "create todo", "USER#alice"); a != b {
		t.Errorf("same scope and key gave %q and %q, want one token", a, b)
	}
	for _, other := range []string{
		tok("todos", "delete todo", "USER#alice"),
		tok("todos", "create todo", "USER#bob"),
		tok("todos-staging", "create todo", "USER#alice"),
	} {
		if other == a {
			t.Errorf("another scope gave the same token %q", a)
		}
	}
	if s, ok := ddb.RequestToken(context.Background(), ddb.Scope{Table: "todos", Op: "create todo", Partition: "USER#alice"}); ok {
		t.Errorf("no key: got %q, true; want false", s)
	}
	// Pinned: a change of the derivation would let a repeat within
	// DynamoDB's window commit again under a new token.
	if want := "02d21f132ac39496cb1beb42f62d47f8"; a != want {
		t.Errorf("token = %q, want %q (the derivation changed)", a, want)
	}
}
