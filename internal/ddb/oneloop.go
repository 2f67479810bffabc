package ddb

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// OneLoop returns c with the SDK's own retries turned off for every call
// made through it (and a missing table named in the error, see missing), so that ddbkit's retry loop (ddbkit.RetryPolicy) is the
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
	op := obs.From(ctx)
	if op != nil {
		c := *in
		c.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		in = &c
	}
	out, err := o.c.GetItem(ctx, in, once(fns)...)
	if op != nil {
		op.Attempt(Throttled(err))
		if out != nil {
			consumedOne(op, false, out.ConsumedCapacity)
		}
	}
	return out, missing(err, aws.ToString(in.TableName))
}

func (o oneLoop) PutItem(ctx context.Context, in *dynamodb.PutItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	op := obs.From(ctx)
	if op != nil {
		c := *in
		c.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		in = &c
	}
	out, err := o.c.PutItem(ctx, in, once(fns)...)
	if op != nil {
		op.Attempt(Throttled(err))
		if out != nil {
			consumedOne(op, true, out.ConsumedCapacity)
		}
	}
	return out, missing(err, aws.ToString(in.TableName))
}

func (o oneLoop) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	op := obs.From(ctx)
	if op != nil {
		c := *in
		c.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		in = &c
	}
	out, err := o.c.UpdateItem(ctx, in, once(fns)...)
	if op != nil {
		op.Attempt(Throttled(err))
		if out != nil {
			consumedOne(op, true, out.ConsumedCapacity)
		}
	}
	return out, missing(err, aws.ToString(in.TableName))
}

func (o oneLoop) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	op := obs.From(ctx)
	if op != nil {
		c := *in
		c.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		in = &c
	}
	out, err := o.c.DeleteItem(ctx, in, once(fns)...)
	if op != nil {
		op.Attempt(Throttled(err))
		if out != nil {
			consumedOne(op, true, out.ConsumedCapacity)
		}
	}
	return out, missing(err, aws.ToString(in.TableName))
}

func (o oneLoop) Query(ctx context.Context, in *dynamodb.QueryInput, fns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	op := obs.From(ctx)
	if op != nil {
		c := *in
		c.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		in = &c
	}
	out, err := o.c.Query(ctx, in, once(fns)...)
	if op != nil {
		op.Attempt(Throttled(err))
		if out != nil {
			consumedOne(op, false, out.ConsumedCapacity)
			op.Evaluated(max(int(out.ScannedCount), len(out.Items)))
		}
	}
	return out, missing(err, aws.ToString(in.TableName))
}

func (o oneLoop) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	op := obs.From(ctx)
	if op != nil {
		c := *in
		c.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		in = &c
	}
	out, err := o.c.BatchGetItem(ctx, in, once(fns)...)
	if op != nil {
		op.Attempt(Throttled(err) || out != nil && len(out.UnprocessedKeys) > 0)
		if out != nil {
			consumed(op, false, out.ConsumedCapacity...)
		}
	}
	return out, missing(err, slices.Sorted(maps.Keys(in.RequestItems))...)
}

func (o oneLoop) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	op := obs.From(ctx)
	if op != nil {
		c := *in
		c.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		in = &c
	}
	out, err := o.c.BatchWriteItem(ctx, in, once(fns)...)
	if op != nil {
		op.Attempt(Throttled(err) || out != nil && len(out.UnprocessedItems) > 0)
		if out != nil {
			consumed(op, true, out.ConsumedCapacity...)
		}
	}
	return out, missing(err, slices.Sorted(maps.Keys(in.RequestItems))...)
}

func (o oneLoop) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, fns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	op := obs.From(ctx)
	if op != nil {
		c := *in
		c.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		in = &c
	}
	out, err := o.c.TransactWriteItems(ctx, in, once(fns)...)
	if op != nil {
		op.Attempt(Throttled(err))
		if out != nil {
			consumed(op, true, out.ConsumedCapacity...)
		}
	}
	if err == nil {
		return out, nil
	}
	var names []string
	for _, it := range in.TransactItems {
		switch {
		case it.Put != nil:
			names = append(names, aws.ToString(it.Put.TableName))
		case it.Update != nil:
			names = append(names, aws.ToString(it.Update.TableName))
		case it.Delete != nil:
			names = append(names, aws.ToString(it.Delete.TableName))
		case it.ConditionCheck != nil:
			names = append(names, aws.ToString(it.ConditionCheck.TableName))
		}
	}
	slices.Sort(names)
	return out, missing(err, slices.Compact(names)...)
}

func (o oneLoop) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, fns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	op := obs.From(ctx)
	if op != nil {
		c := *in
		c.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		in = &c
	}
	out, err := o.c.TransactGetItems(ctx, in, once(fns)...)
	if op != nil {
		op.Attempt(Throttled(err))
		if out != nil {
			consumed(op, false, out.ConsumedCapacity...)
		}
	}
	return out, err
}

// consumedOne is consumed of a single-item call's figure, if any.
func consumedOne(op *obs.Op, write bool, cc *types.ConsumedCapacity) {
	if cc != nil {
		consumed(op, write, *cc)
	}
}

// consumed adds what DynamoDB reported a call consumed to op: read units
// for a read call, write units for a write call (TOTAL reports one figure
// per table, in units of the call's kind).
func consumed(op *obs.Op, write bool, ccs ...types.ConsumedCapacity) {
	for _, cc := range ccs {
		u := aws.ToFloat64(cc.CapacityUnits)
		if write {
			op.Consumed(aws.ToString(cc.TableName), 0, u)
		} else {
			op.Consumed(aws.ToString(cc.TableName), u, 0)
		}
	}
}

// missing names the tables of a call that DynamoDB refused because a table
// (or index) does not exist: its ResourceNotFoundException does not always
// say which (DynamoDB Local: "Cannot do operations on a non-existent
// table"), and a caller with several tables needs to know.
func missing(err error, tables ...string) error {
	var rnf *types.ResourceNotFoundException
	if err == nil || !errors.As(err, &rnf) {
		return err
	}
	return fmt.Errorf("table %s: %w", strings.Join(tables, ", "), err)
}
