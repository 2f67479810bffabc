package ddb

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
)

// Scope is what an idempotency key is scoped to: the table a write goes
// to, the operation, and the partition it belongs to (the tenant: a user's,
// a team's or a room's partition key value). The partition must come from
// the caller's input, never from a value the call generates (a fresh ID),
// so that a repeated call finds the same scope. See RequestToken.
type Scope struct {
	Table, Op, Partition string
}

// Token returns the ClientRequestToken for a transactional write in scope
// s: the one the caller's idempotency key in ctx gives (see
// ddbkit.WithIdempotencyKey and RequestToken), or a fresh random
// one.
func Token(ctx context.Context, s Scope) string {
	if t, ok := RequestToken(ctx, s); ok {
		return t
	}
	return uuid.NewString()
}

// RequestToken returns the ClientRequestToken for one write in scope s
// under the caller's idempotency key in ctx (ddbkit.WithIdempotencyKey),
// and false when ctx has none. The token is 32 hex digits of SHA-256 over
// the table, the operation, the partition the write belongs to (its
// tenant: a user, a team, a room) and the key, each length-prefixed. So
// one key used by two tenants, on two tables or for two operations gives
// different tokens, and one caller's key never collides with another's,
// nor with the same key of an earlier test run against a long-lived
// DynamoDB Local (whose tables have other names). DynamoDB's tokens are
// global to an account and region; this is what keeps a caller's key
// from reaching anyone else's write.
func RequestToken(ctx context.Context, s Scope) (string, bool) {
	k, ok := ddbkit.IdempotencyKey(ctx)
	if !ok || ctx.Value(noKey{}) != nil {
		return "", false
	}
	h := sha256.New()
	h.Write([]byte("ddbkit-token-v2\x00"))
	for _, v := range [...]string{s.Table, s.Op, s.Partition, k} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(v)))
		h.Write(n[:])
		h.Write([]byte(v))
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), true
}

type noKey struct{}

// WithoutKey returns ctx with the caller's idempotency key ignored: a
// repeat that an idempotency record answers runs the operation again as a
// call without a key (see internal/backend's Keyed).
func WithoutKey(ctx context.Context) context.Context {
	return context.WithValue(ctx, noKey{}, true)
}

// ExecTx runs tx exactly once. It gives tx the token of s (see Token) and
// retries conflicts, throttling, 5xx and lost responses within b, every
// attempt with that token: if an attempt committed but its answer was lost,
// the next one succeeds without writing again. This is the one retry loop
// of the call: do not wrap it in another.
//
// DynamoDB binds a token only to a transaction that commits: a cancelled
// one leaves it free (DynamoDB Local behaves so, and the wardrobe tests pin
// it). So a read-modify-write keeps s's token for every build: a rebuild
// after a race goes through, and a repeated call under a caller's key
// cannot commit a second time. Naming builds apart would let a repeat
// reuse a cancelled build's free token and commit twice. Each step of a
// multi-step operation that a repeated call must be able to finish runs
// under a token of its own (internal/backend's RMWStep).
func ExecTx(ctx context.Context, c ddbkit.Client, b Backoff, s Scope, tx *Tx) error {
	tx.Token(Token(ctx, s))
	return RetryIf(ctx, b, RetryableWithToken, func() error { return tx.Exec(ctx, c) })
}

// PutNew writes item if p's condition (typically attribute_not_exists of
// the key) holds, and succeeds only if this call wrote it. It sends a
// one-item TransactWriteItems with the ClientRequestToken of s (see
// Token), retried within b with that token: when an attempt committed and
// its answer was lost, DynamoDB answers the repeat with success, and
// writes nothing again. An identical item written by anyone else (another
// caller, or this caller without the same idempotency key) fails the
// condition, and PutNew returns a *types.ConditionalCheckFailedException
// holding the item found, which matches IsConditionFailed: nothing is
// inferred from equal contents. A transactional write costs two write
// units per KB instead of one; a create that can tell its own retry from
// another's create is worth it.
//
// This is the one retry loop of the call: do not wrap it in another.
func PutNew(ctx context.Context, c ddbkit.Client, b Backoff, s Scope, t Table, item Item, p *Prepared, args ...types.AttributeValue) error {
	var tx Tx
	tx.PutPrepared(labelNew, t, item, p, args...)
	err := ExecTx(ctx, c, b, s, &tx)
	if old, failed := ConditionFailed(err, labelNew); failed {
		return &types.ConditionalCheckFailedException{Message: aws.String("The conditional request failed"), Item: old}
	}
	return err
}

const labelNew = "new item"

// ItemsEqual reports whether a and b hold the same attributes with the same
// values.
func ItemsEqual(a, b Item) bool {
	return len(a) == len(b) && maps.EqualFunc(a, b, func(x, y types.AttributeValue) bool {
		return AttrString(x) == AttrString(y)
	})
}
