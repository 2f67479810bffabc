package kondate

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// DynamoStore is the Store on DynamoDB. All its reads of the table are
// strongly consistent, so that it behaves like MemoryStore: a write is
// visible to the next read. FindRecipe and FindSet read GSI1, which is
// eventually consistent, for the owner only, then the item itself
// consistently.
type DynamoStore struct {
	*core
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the table named by the options, which
// must exist (see EnsureTable). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	t := o.table()
	return &DynamoStore{&core{o: o, t: t, b: &dynamoBackend{c: c, t: t, b: o.backoff()}}}
}

// dynamoBackend is the backend of DynamoStore: one DynamoDB call per
// primitive, retried within the policy after throttling, 5xx and lost
// responses, each safe to repeat as documented at the call.
type dynamoBackend struct {
	c ddbkit.Client
	t ddb.Table
	b ddb.Backoff
}

// retry runs fn, one call, within the retry policy. An ended context is
// reported before any call, as MemoryStore reports it (live): the SDK's
// error would name the call.
func (d *dynamoBackend) retry(ctx context.Context, fn func() error) error {
	if err := live(ctx); err != nil {
		return err
	}
	return ddb.RetryIf(ctx, d.b, ddb.RetryableWithToken, fn)
}

func (d *dynamoBackend) get(ctx context.Context, k itemKey) (item ddb.Item, err error) {
	err = d.retry(ctx, func() error {
		item, err = ddb.GetItem(ctx, d.c, d.t, k.item(d.t))
		return err
	})
	return item, err
}

func (d *dynamoBackend) query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, f *listFilter) ([]ddb.Item, string, error) {
	var filter *ddb.Filter
	if f != nil {
		attr := f.attr
		filter = &ddb.Filter{Shape: "kondate: contains " + attr, Args: []types.AttributeValue{ddb.S(f.value)},
			Cond: func(first int) expression.ConditionBuilder {
				return expression.Contains(expression.Name(attr), ddb.ParamText(first))
			}}
	}
	// A bad cursor is reported before an ended context, as MemoryStore
	// reports it; under a live context, QueryPage decodes the cursor, once,
	// before any call.
	if err := live(ctx); err != nil {
		if _, cerr := ddb.DecodeCursor(q, cursor); cerr != nil {
			return nil, "", cerr
		}
		return nil, "", err
	}
	// QueryPage retries each Query itself: one retry loop.
	return ddb.QueryPage(ctx, d.c, d.b, q, limit, cursor, filter)
}

// create: ddb.PutNew sends a one-item transaction with the token of s, and
// succeeds only when this call wrote the item: a lost response retried
// with the same token succeeds, an item anyone else wrote (identical or
// not) fails the condition. PutNew retries itself: one retry loop.
func (d *dynamoBackend) create(ctx context.Context, s ddb.Scope, item ddb.Item) error {
	if err := live(ctx); err != nil {
		return err
	}
	return condFailed(ddb.PutNew(ctx, d.c, d.b, s, d.t, item, prepNotExists), "")
}

// put: a replacement is safe to repeat.
func (d *dynamoBackend) put(ctx context.Context, item ddb.Item) error {
	return d.retry(ctx, func() error {
		_, err := d.c.PutItem(ctx, putInput(d.t, item))
		return err
	})
}

// update: every change sets values (or keeps the first one, with
// if_not_exists), so applying it twice after a lost response writes what
// applying it once does.
func (d *dynamoBackend) update(ctx context.Context, k itemKey, u change, mustExist bool) (out ddb.Item, err error) {
	p, vals := preparedUpdate(u, mustExist)
	key := k.item(d.t)
	err = d.retry(ctx, func() error {
		out, err = ddb.UpdateItemPrepared(ctx, d.c, d.t, key, types.ReturnValueAllNew, p, vals...)
		return err
	})
	return out, condFailed(err, "")
}

// remove: a 5xx leaves it unknown whether the delete applied, and a
// repeat that finds the item gone cannot tell the delete of a lost attempt
// from an item that was never there. So remove reads the item first: if it
// was there, a repeat that finds it gone after a 5xx takes the delete as
// its own; if it was not, the item is not found, as MemoryStore says.
func (d *dynamoBackend) remove(ctx context.Context, k itemKey) error {
	item, err := d.get(ctx, k)
	if err != nil {
		return err
	}
	if item == nil {
		return &condError{}
	}
	return d.removeRead(ctx, k)
}

// removeRead is remove's delete, of an item the caller read a moment ago.
func (d *dynamoBackend) removeRead(ctx context.Context, k itemKey) error {
	key := k.item(d.t)
	uncertain := false
	err := d.retry(ctx, func() error {
		_, err := ddb.DeleteItemPrepared(ctx, d.c, d.t, key, types.ReturnValueNone, prepExists)
		switch {
		case ddb.ServerError(err):
			uncertain = true
		case uncertain && ddb.IsConditionFailed(err):
			return nil
		}
		return err
	})
	return condFailed(err, "")
}

// tx sends the transaction with r's token, the same for every attempt and
// every build of r's read-modify-write, and retries conflicts, throttling,
// 5xx and lost responses with the same writes while r has attempts left:
// a transaction whose response was lost is not applied twice. This is
// ddb.ExecTxToken's loop, with the attempts counted across r's builds
// (see core.rmw), so that the whole run stays within the retry policy.
func (d *dynamoBackend) tx(ctx context.Context, r *txRun, ws []write) error {
	var tx ddb.Tx
	for _, w := range ws {
		switch w.kind {
		case writePutNew:
			tx.PutPrepared(w.label, d.t, w.item, prepNotExists)
		case writePut:
			tx.Put(w.label, d.t, w.item)
		case writeDelete:
			p, vals := preparedUnchanged(w.want)
			tx.DeletePrepared(w.label, d.t, w.key.item(d.t), p, vals...)
		case writeRemove:
			tx.Delete(w.label, d.t, w.key.item(d.t))
		case writeCheck:
			p, vals := preparedUnchanged(w.want)
			tx.CheckPrepared(w.label, d.t, w.key.item(d.t), p, vals...)
		case writeReplace:
			p, vals := preparedUnchanged(w.want)
			tx.PutPrepared(w.label, d.t, w.item, p, vals...)
		}
	}
	if err := live(ctx); err != nil {
		return err
	}
	tx.Token(r.token)
	b := d.b
	b.Attempts = max(r.left, 1)
	err := ddb.RetryIf(ctx, b, ddb.RetryableWithToken, func() error {
		r.left--
		return tx.Exec(ctx, d.c)
	})
	for _, w := range ws {
		if old, ok := ddb.ConditionFailed(err, w.label); ok {
			return &condError{label: w.label, old: old}
		}
	}
	return err
}

// condFailed turns a failed condition of a single-item call into a
// *condError holding the item as it was.
func condFailed(err error, label string) error {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return &condError{label: label, old: ccf.Item}
	}
	return err
}

func putInput(t ddb.Table, item ddb.Item) *dynamodb.PutItemInput {
	return &dynamodb.PutItemInput{TableName: aws.String(t.Name), Item: item}
}
