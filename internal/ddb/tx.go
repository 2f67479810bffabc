package ddb

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// MaxTxItems is DynamoDB's limit on the items of one transaction.
const MaxTxItems = 100

// Tx builds one TransactWriteItems call of unconditional puts and deletes
// (Put, Delete) and of prepared expressions (PutPrepared, UpdatePrepared,
// DeletePrepared, CheckPrepared). The zero value is ready to use.
//
// Every item is labelled; when DynamoDB cancels the transaction, the
// *TxCanceledError says which labelled item failed and why.
type Tx struct {
	items  []types.TransactWriteItem
	labels []string
	token  string
	table  *string // the last item's TableName, which the next of its table shares
}

// Grow makes room for n more items, as slices.Grow does.
func (tx *Tx) Grow(n int) *Tx {
	tx.items = slices.Grow(tx.items, n)
	tx.labels = slices.Grow(tx.labels, n)
	return tx
}

// Token sets the ClientRequestToken, which makes a retried call idempotent for
// ten minutes.
func (tx *Tx) Token(token string) *Tx {
	tx.token = token
	return tx
}

// Put adds an unconditional PutItem; PutPrepared adds a conditional one.
func (tx *Tx) Put(label string, t Table, item Item) *Tx {
	return tx.prepared(label, func() types.TransactWriteItem {
		return types.TransactWriteItem{Put: &types.Put{TableName: tx.name(t), Item: item}}
	})
}

// Delete adds an unconditional DeleteItem; DeletePrepared adds a
// conditional one.
func (tx *Tx) Delete(label string, t Table, key Item) *Tx {
	return tx.prepared(label, func() types.TransactWriteItem {
		return types.TransactWriteItem{Delete: &types.Delete{TableName: tx.name(t), Key: key}}
	})
}

// onFailure asks DynamoDB to return the item as it was when an item's
// condition fails, so that callers can tell "missing" from "in another
// state"; it is nothing for an item without a condition (only a condition
// can fail, and the request is smaller) and for a table that withholds
// the item (Table.WithholdOld).
func onFailure(t Table, cond *string) types.ReturnValuesOnConditionCheckFailure {
	if cond == nil || t.WithholdOld {
		return ""
	}
	return types.ReturnValuesOnConditionCheckFailureAllOld
}

// name returns the TableName of an item of t: one string for the items of
// a table, rather than one copy of t per item (&t.Name moves t).
func (tx *Tx) name(t Table) *string {
	if tx.table == nil || *tx.table != t.Name {
		n := t.Name
		tx.table = &n
	}
	return tx.table
}

// prepared adds the item that mk makes.
func (tx *Tx) prepared(label string, mk func() types.TransactWriteItem) *Tx {
	tx.items = append(tx.items, mk())
	tx.labels = append(tx.labels, label)
	return tx
}

// Build returns the TransactWriteItems input. What DynamoDB refuses of a
// transaction as a whole (none, too many, a key twice) its caller checks
// before (backend.Tx, for both backends alike).
func (tx *Tx) Build() *dynamodb.TransactWriteItemsInput {
	in := &dynamodb.TransactWriteItemsInput{TransactItems: tx.items}
	if tx.token != "" {
		in.ClientRequestToken = aws.String(tx.token)
	}
	return in
}

// Exec builds and runs the transaction. A cancellation is returned as a
// *TxCanceledError (which wraps the SDK's *types.TransactionCanceledException).
func (tx *Tx) Exec(ctx context.Context, c ddbkit.Client) error {
	_, err := c.TransactWriteItems(ctx, tx.Build())
	return tx.decode(err)
}

func (tx *Tx) decode(err error) error {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return err
	}
	ce := &TxCanceledError{Err: err}
	for i, r := range tce.CancellationReasons {
		reason := TxReason{Index: i, Code: aws.ToString(r.Code), Message: aws.ToString(r.Message), Item: r.Item}
		if i < len(tx.labels) {
			reason.Label = tx.labels[i]
		}
		ce.Reasons = append(ce.Reasons, reason)
	}
	return ce
}

// Cancellation reason codes DynamoDB reports, as far as callers act on them.
const (
	ReasonNone                   = "None"
	ReasonConditionalCheckFailed = "ConditionalCheckFailed"
	ReasonTransactionConflict    = "TransactionConflict"
	ReasonThrottling             = "ThrottlingError"
)

// TxReason is the outcome of one item of a cancelled transaction.
type TxReason struct {
	Index   int    // position in the transaction
	Label   string // the label given when the item was added
	Code    string // e.g. ReasonConditionalCheckFailed; ReasonNone for items that did not fail
	Message string
	Item    Item // the item as it was, for a failed condition; nil if it did not exist
}

// TxCanceledError reports a cancelled transaction with the reason for every
// item. It matches ddbkit.ErrConflict through errors.Is when the cause was a
// conflicting transaction.
type TxCanceledError struct {
	Reasons []TxReason
	Err     error
}

// Error implements error, naming each item that failed.
func (e *TxCanceledError) Error() string {
	var parts []string
	for _, r := range e.Reasons {
		if r.Code != "" && r.Code != ReasonNone {
			parts = append(parts, fmt.Sprintf("item %d (%s): %s", r.Index, r.Label, r.Code))
		}
	}
	return "transaction canceled: " + strings.Join(parts, ", ")
}

// Unwrap returns the SDK error.
func (e *TxCanceledError) Unwrap() error { return e.Err }

// Is reports ddbkit.ErrConflict for a cancellation caused by a concurrent
// transaction.
func (e *TxCanceledError) Is(target error) bool {
	return target == ddbkit.ErrConflict && e.has(ReasonTransactionConflict)
}

func (e *TxCanceledError) has(code string) bool {
	for _, r := range e.Reasons {
		if r.Code == code {
			return true
		}
	}
	return false
}

// Failed returns the first failed item with the given label, if any.
func (e *TxCanceledError) Failed(label string) (TxReason, bool) {
	for _, r := range e.Reasons {
		if r.Label == label && r.Code != "" && r.Code != ReasonNone {
			return r, true
		}
	}
	return TxReason{}, false
}

// ConditionFailed reports whether the item with the given label failed its
// condition, and returns that item as it was (nil when it did not exist).
func ConditionFailed(err error, label string) (old Item, failed bool) {
	if err == nil {
		return nil, false // before ce, which errors.As moves to the heap
	}
	var ce *TxCanceledError
	if !errors.As(err, &ce) {
		return nil, false
	}
	r, ok := ce.Failed(label)
	if !ok || r.Code != ReasonConditionalCheckFailed {
		return nil, false
	}
	return r.Item, true
}
