package ddbkit

import (
	"context"
	"time"
)

type idempotencyKey struct{}

// IdempotencyWindow is how long a store remembers the result of a write
// made under an idempotency key (see WithIdempotencyKey): within it, a
// repeat with the same key and input returns the first call's result; past
// it, the same key is a new request. It is Stripe's window for its keys.
const IdempotencyWindow = 24 * time.Hour

// WithIdempotencyKey returns a context that makes the writes of the store
// call made with it idempotent under key, such as the Idempotency-Key header
// of the HTTP request that the call serves. A store turns key into the
// ClientRequestToken of its TransactWriteItems calls, so a call repeated
// with the same key and the same arguments within DynamoDB's idempotency
// window of ten minutes commits once: a repeat after a commit whose
// response was lost succeeds without writing again. Without a key, each
// call makes a random token of its own, which still covers the retries
// ddbkit and the SDK make inside the call.
//
// Past ten minutes DynamoDB forgets the token, and a repeat is a new
// request. A repeat whose writes differ (a create makes a fresh ID and
// timestamp every time) fails with ErrIdempotencyKeyReused, which also
// matches ErrConflict: DynamoDB refuses to reuse a token for different
// writes (IdempotentParameterMismatch). The memory stores keep the same
// promise, with the same error. DynamoDB Local keeps tokens for as long
// as it runs, not ten minutes.
//
// A key is scoped: the token is SHA-256 over the table, the operation, the
// partition the write belongs to (its tenant: a user, a team, a room) and
// the key, so the same key sent by two tenants, for two operations or on
// two tables makes unrelated tokens, and a key needs to be unique only
// within one caller's operation on one partition. DynamoDB's tokens are
// global to an account and region; the scope is what keeps a caller's key
// from reaching anyone else's write.
//
// Use one key per logical request. An empty key is ignored.
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return context.WithValue(ctx, idempotencyKey{}, key)
}

// IdempotencyKey returns the key WithIdempotencyKey put in ctx.
func IdempotencyKey(ctx context.Context) (string, bool) {
	k, ok := ctx.Value(idempotencyKey{}).(string)
	return k, ok
}
