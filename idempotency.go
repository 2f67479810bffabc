package ddbkit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
)

type idempotencyKey struct{}

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
// timestamp every time) fails with ErrConflict: DynamoDB refuses to reuse
// a token for different writes. The memory stores keep the same promise.
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

// RequestToken returns the ClientRequestToken for one write of op under the
// idempotency key in ctx, and false when ctx has none. The token is 32 hex
// digits of SHA-256 over op and the key, so it fits DynamoDB's 36-character
// limit whatever the key, and two operations made under one key get two
// tokens.
func RequestToken(ctx context.Context, op string) (string, bool) {
	k, ok := IdempotencyKey(ctx)
	if !ok {
		return "", false
	}
	h := sha256.Sum256([]byte("ddbkit-token-v1\x00" + op + "\x00" + k))
	return hex.EncodeToString(h[:16]), true
}
