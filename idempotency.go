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

// WithIdempotencyKey returns a context that makes the write of the store
// call made with it idempotent under key, such as the Idempotency-Key header
// of the HTTP request that the call serves. A repeat of the call with the
// same key and the same arguments, within IdempotencyWindow, from this
// process or any other on the same table, returns the first call's result
// (the same ID, the same item) and writes nothing more; the same key with
// other arguments fails with ErrIdempotencyKeyReused, which also matches
// ErrConflict. A delete repeated under its key succeeds (its record proves
// the first call deleted, where a repeat without the key finds nothing); a
// write that is safe to repeat by itself (a save, a completion) returns
// under a repeated key what it returns on a repeat without one.
// Past the window the key is a new request. Both stores keep the same
// promise, with the same errors.
//
// How: a store's write under a key reads the key's record first (one
// consistent GetItem), and its first transactional write carries the
// record: an item IDEMPOTENCY#<token> in the operation's table holding a
// fingerprint of the arguments and the key of the item written, expiring
// after IdempotencyWindow (each domain's package doc lists it among the
// items another writer of the table sees). The key also becomes the
// ClientRequestToken of the call's transactions, so that a commit whose
// response was lost is not applied twice within the call's own retries.
// Without a key, each call makes a random token of its own, which covers
// those retries too, and no record.
//
// A key is scoped: the record and the token are SHA-256 over the table,
// the operation, the partition the write belongs to (its tenant: a user,
// a team, a room) and the key, so the same key sent by two tenants, for
// two operations or on two tables makes unrelated records, and a key
// needs to be unique only within one caller's operation on one partition.
// DynamoDB's tokens are global to an account and region; the scope is what
// keeps a caller's key from reaching anyone else's write.
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
