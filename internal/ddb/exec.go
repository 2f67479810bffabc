package ddb

import (
	"context"
	"errors"
	"maps"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
)

// Token returns the ClientRequestToken for a transactional write of op: the
// one the caller's idempotency key in ctx gives (see
// ddbkit.WithIdempotencyKey), or a fresh random one.
func Token(ctx context.Context, op string) string {
	if t, ok := ddbkit.RequestToken(ctx, op); ok {
		return t
	}
	return uuid.NewString()
}

// ExecTx runs tx exactly once. It gives tx the token of op (see Token) and
// retries conflicts, throttling, 5xx and lost responses within b, every
// attempt with that token: if an attempt committed but its answer was lost,
// the next one succeeds without writing again.
//
// DynamoDB binds a token only to a transaction that commits: a cancelled
// one leaves it free (DynamoDB Local behaves so, and the wardrobe tests pin
// it). So a read-modify-write keeps op's token for every build: a rebuild
// after a race goes through, and a repeated call under a caller's key
// cannot commit a second time. Naming builds apart would let a repeat
// reuse a cancelled build's free token and commit twice. Each step of a
// multi-step operation that a repeated call must be able to finish runs
// under a token of its own (ExecTxToken with a fresh token).
func ExecTx(ctx context.Context, c ddbkit.Client, b Backoff, op string, tx *Tx) error {
	return ExecTxToken(ctx, c, b, Token(ctx, op), tx)
}

// ExecTxToken is ExecTx with the caller's own token.
func ExecTxToken(ctx context.Context, c ddbkit.Client, b Backoff, token string, tx *Tx) error {
	tx.Token(token)
	return RetryIf(ctx, b, RetryableWithToken, func() error { return tx.Exec(ctx, c) })
}

// PutNew writes item if cond (typically attribute_not_exists of the key)
// holds, and recognises its own earlier success: when the condition fails
// because the item already there is exactly item, an earlier attempt of
// this call wrote it (the SDK retried a 5xx or a lost response), and PutNew
// reports success. Any other failed condition matches IsConditionFailed.
// item must hold a value unique to this call (a fresh ID or timestamp),
// which every create has.
func PutNew(ctx context.Context, c ddbkit.Client, t Table, item Item, cond expression.ConditionBuilder) error {
	return ownWrite(PutItem(ctx, c, t, item, cond), item)
}

// ownWrite is nil when err is a failed condition on an item exactly equal
// to item, which PutNew takes for its own earlier write, and err otherwise.
func ownWrite(err error, item Item) error {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) && ItemsEqual(ccf.Item, item) {
		return nil
	}
	return err
}

// ItemsEqual reports whether a and b hold the same attributes with the same
// values.
func ItemsEqual(a, b Item) bool {
	return len(a) == len(b) && maps.EqualFunc(a, b, func(x, y types.AttributeValue) bool {
		return AttrString(x) == AttrString(y)
	})
}
