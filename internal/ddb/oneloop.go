package ddb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
)

// OneLoop returns c with the SDK's own retries turned off for every call
// made through it, so that ddbkit's retry loop (ddbkit.RetryPolicy) is the
// only one between a store method and DynamoDB. Without it each of
// ddbkit's attempts is up to the SDK's default attempts, each with the
// SDK's own backoff: a dead endpoint costs MaxAttempts times the SDK's
// attempts, and a throttled call waits on both loops. ddbkit's loop
// already retries what the SDK's would: throttling, 5xx, transport errors
// and lost responses (RetryableWithToken).
//
// It appends an option that sets the call's Retryer to aws.NopRetryer. A
// wrapper of the caller's (tracing, counting, its own retries) sees that
// option and passes it on to the *dynamodb.Client it wraps; a wrapper that
// retries by itself does so inside each of ddbkit's attempts.
func OneLoop(c ddbkit.Client) ddbkit.Client {
	if o, ok := c.(oneLoop); ok {
		return o
	}
	return oneLoop{c}
}

// noSDKRetries is the option OneLoop appends, in a slice of its own so
// that a call without options of its own allocates nothing.
var noSDKRetries = []func(*dynamodb.Options){func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} }}

func once(fns []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	if len(fns) == 0 {
		return noSDKRetries
	}
	return append(fns[:len(fns):len(fns)], noSDKRetries[0])
}

type oneLoop struct{ c ddbkit.Client }

func (o oneLoop) GetItem(ctx context.Context, in *dynamodb.GetItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return o.c.GetItem(ctx, in, once(fns)...)
}

func (o oneLoop) PutItem(ctx context.Context, in *dynamodb.PutItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return o.c.PutItem(ctx, in, once(fns)...)
}

func (o oneLoop) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return o.c.UpdateItem(ctx, in, once(fns)...)
}

func (o oneLoop) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return o.c.DeleteItem(ctx, in, once(fns)...)
}

func (o oneLoop) Query(ctx context.Context, in *dynamodb.QueryInput, fns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return o.c.Query(ctx, in, once(fns)...)
}

func (o oneLoop) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return o.c.BatchGetItem(ctx, in, once(fns)...)
}

func (o oneLoop) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return o.c.BatchWriteItem(ctx, in, once(fns)...)
}

func (o oneLoop) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, fns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return o.c.TransactWriteItems(ctx, in, once(fns)...)
}

func (o oneLoop) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, fns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return o.c.TransactGetItems(ctx, in, once(fns)...)
}
