package kondate

import (
	"context"
	"errors"
	"maps"
	"slices"

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

var (
	nPK       = expression.Name(AttrPK)
	exists    = expression.AttributeExists(nPK)
	notExists = expression.AttributeNotExists(nPK)
)

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

func (d *dynamoBackend) query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, f *listFilter) (items []ddb.Item, next string, err error) {
	var filter *expression.ConditionBuilder
	if f != nil {
		cond := expression.Contains(expression.Name(f.attr), f.value)
		filter = &cond
	}
	// The cursor is checked first, as MemoryStore checks it, even under
	// an ended context.
	if _, err := ddb.DecodeCursor(q, cursor); err != nil {
		return nil, "", err
	}
	err = d.retry(ctx, func() error {
		items, next, err = ddb.QueryPage(ctx, d.c, q, limit, cursor, filter)
		return err
	})
	return items, next, err
}

// create: PutNew takes the item it finds, if it is exactly this one, for
// the write of an earlier attempt whose response was lost.
func (d *dynamoBackend) create(ctx context.Context, item ddb.Item) error {
	err := d.retry(ctx, func() error { return ddb.PutNew(ctx, d.c, d.t, item, notExists) })
	return condFailed(err, "")
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
	upd := updateExpr(u)
	err = d.retry(ctx, func() error {
		if mustExist {
			out, err = ddb.UpdateItem(ctx, d.c, d.t, k.item(d.t), upd, exists, types.ReturnValueAllNew)
		} else {
			out, err = updateAny(ctx, d.c, d.t, k.item(d.t), upd)
		}
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
	uncertain := false
	err = d.retry(ctx, func() error {
		err := ddb.DeleteItem(ctx, d.c, d.t, k.item(d.t), exists)
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

// tx: ExecTx gives the transaction the token of op and retries it with
// that token, so a transaction whose response was lost is not applied
// twice.
func (d *dynamoBackend) tx(ctx context.Context, op string, ws []write) error {
	var tx ddb.Tx
	for _, w := range ws {
		switch w.kind {
		case writePutNew:
			tx.Put(w.label, d.t, w.item, notExists)
		case writePut:
			tx.Put(w.label, d.t, w.item)
		case writeDelete:
			tx.Delete(w.label, d.t, w.key.item(d.t), unchanged(d.t, w.want))
		case writeRemove:
			tx.Delete(w.label, d.t, w.key.item(d.t))
		case writeCheck:
			tx.Check(w.label, d.t, w.key.item(d.t), unchanged(d.t, w.want))
		case writeReplace:
			tx.Put(w.label, d.t, w.item, unchanged(d.t, w.want))
		}
	}
	if err := live(ctx); err != nil {
		return err
	}
	err := ddb.ExecTx(ctx, d.c, d.b, op, &tx)
	for _, w := range ws {
		if old, ok := ddb.ConditionFailed(err, w.label); ok {
			return &condError{label: w.label, old: old}
		}
	}
	return err
}

// unchanged is the condition that the item exists and holds want's values.
// The attributes go in sorted order: DynamoDB compares a repeated
// transaction's parameters with those its token first came with, so the
// same writes must make the same request.
func unchanged(t ddb.Table, want ddb.Item) expression.ConditionBuilder {
	return ddb.Unchanged(t, want, slices.Sorted(maps.Keys(want))...)
}

func updateExpr(u change) expression.UpdateBuilder {
	var upd expression.UpdateBuilder
	for _, s := range u.set {
		n := expression.Name(s.name)
		if s.ifNotExists {
			upd = upd.Set(n, expression.IfNotExists(n, expression.Value(s.value)))
		} else {
			upd = upd.Set(n, expression.Value(s.value))
		}
	}
	return upd
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

// updateAny is UpdateItem without a condition: it creates a missing item.
func updateAny(ctx context.Context, c ddbkit.Client, t ddb.Table, key ddb.Item, upd expression.UpdateBuilder) (ddb.Item, error) {
	e, err := expression.NewBuilder().WithUpdate(upd).Build()
	if err != nil {
		return nil, err
	}
	out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(t.Name), Key: key,
		UpdateExpression: e.Update(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
		ReturnValues: types.ReturnValueAllNew})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}
