package ddb

import (
	"context"
	"errors"
	"fmt"
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
// DeletePrepared, CheckPrepared). Like the SDK's expression builder, it
// records the first error (a key used twice) and reports it from Build or
// Exec, so a chain of calls needs one check. The zero value is ready to use.
//
// Every item is labelled; when DynamoDB cancels the transaction, the
// *TxCanceledError says which labelled item failed and why.
type Tx struct {
	items  []types.TransactWriteItem
	labels []string
	claims []claim // the keys of items, by which a repeat is refused
	token  string
	err    error
}

// Token sets the ClientRequestToken, which makes a retried call idempotent for
// ten minutes.
func (tx *Tx) Token(token string) *Tx {
	tx.token = token
	return tx
}

// Put adds an unconditional PutItem; PutPrepared adds a conditional one.
func (tx *Tx) Put(label string, t Table, item Item) *Tx {
	return tx.prepared(label, t, t.KeyOf(item), func() types.TransactWriteItem {
		return types.TransactWriteItem{Put: &types.Put{TableName: &t.Name, Item: item}}
	})
}

// Delete adds an unconditional DeleteItem; DeletePrepared adds a
// conditional one.
func (tx *Tx) Delete(label string, t Table, key Item) *Tx {
	return tx.prepared(label, t, key, func() types.TransactWriteItem {
		return types.TransactWriteItem{Delete: &types.Delete{TableName: &t.Name, Key: key}}
	})
}

// onFailure asks DynamoDB to return the item as it was when an item's
// condition fails, so that callers can tell "missing" from "in another
// state"; it is nothing for an item without a condition: only a condition
// can fail, and the request is smaller.
func onFailure(cond *string) types.ReturnValuesOnConditionCheckFailure {
	if cond == nil {
		return ""
	}
	return types.ReturnValuesOnConditionCheckFailureAllOld
}

// prepared claims the key and adds the item that mk makes, unless an
// earlier item failed.
func (tx *Tx) prepared(label string, t Table, key Item, mk func() types.TransactWriteItem) *Tx {
	if tx.err == nil && tx.claim(label, t, key) {
		tx.items = append(tx.items, mk())
		tx.labels = append(tx.labels, label)
	}
	return tx
}

// claim is the key of one item of a transaction.
type claim struct {
	hash  uint64 // keyHash of table and key
	table string
	key   Item
}

// claim records the key, refusing a second operation on it: DynamoDB rejects
// such a transaction as a whole, after a round trip. A transaction has at
// most MaxTxItems items, so a scan of their hashes costs less than building
// a key string per item for a map.
func (tx *Tx) claim(label string, t Table, key Item) bool {
	h := keyHash(t.Name, key)
	for i, c := range tx.claims {
		if c.hash == h && c.table == t.Name && sameKey(c.key, key) {
			tx.err = fmt.Errorf("%w: transaction touches one key twice (items %q and %q); DynamoDB allows one operation per item per transaction",
				ddbkit.ErrInvalidArgument, tx.labels[i], label)
			return false
		}
	}
	if tx.claims == nil {
		tx.claims = make([]claim, 0, 8)
	}
	tx.claims = append(tx.claims, claim{h, t.Name, key})
	return true
}

// keyHash hashes a table name and a key (FNV-1a), the same for equal keys
// whatever the order a map gives their attributes.
func keyHash(table string, key Item) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	str := func(h uint64, s string) uint64 {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * prime
		}
		return h
	}
	h := str(offset, table)
	var attrs uint64 // a sum, so that the order of the attributes does not matter
	for name, v := range key {
		a := str(offset, name)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			a = str(a^'S', v.Value)
		case *types.AttributeValueMemberN:
			a = str(a^'N', v.Value)
		case *types.AttributeValueMemberB:
			a = str(a^'B', string(v.Value))
		}
		attrs += a
	}
	return h ^ attrs
}

// sameKey reports whether two keys hold the same attributes with the same
// values.
func sameKey(a, b Item) bool {
	if len(a) != len(b) {
		return false
	}
	for name, va := range a {
		vb, ok := b[name]
		if !ok {
			return false
		}
		switch va := va.(type) {
		case *types.AttributeValueMemberS:
			if vb, ok := vb.(*types.AttributeValueMemberS); !ok || va.Value != vb.Value {
				return false
			}
		case *types.AttributeValueMemberN:
			if vb, ok := vb.(*types.AttributeValueMemberN); !ok || va.Value != vb.Value {
				return false
			}
		default:
			if AttrString(va) != AttrString(vb) {
				return false
			}
		}
	}
	return true
}

// Build returns the TransactWriteItems input, or the first error recorded
// while building. It refuses an empty transaction and one of more than
// MaxTxItems items, both with ErrInvalidArgument.
func (tx *Tx) Build() (*dynamodb.TransactWriteItemsInput, error) {
	if tx.err != nil {
		return nil, tx.err
	}
	switch n := len(tx.items); {
	case n == 0:
		return nil, fmt.Errorf("%w: empty transaction", ddbkit.ErrInvalidArgument)
	case n > MaxTxItems:
		return nil, fmt.Errorf("%w: transaction of %d items; DynamoDB allows at most %d", ddbkit.ErrInvalidArgument, n, MaxTxItems)
	}
	in := &dynamodb.TransactWriteItemsInput{TransactItems: tx.items}
	if tx.token != "" {
		in.ClientRequestToken = aws.String(tx.token)
	}
	return in, nil
}

// Exec builds and runs the transaction. A cancellation is returned as a
// *TxCanceledError (which wraps the SDK's *types.TransactionCanceledException).
func (tx *Tx) Exec(ctx context.Context, c ddbkit.Client) error {
	in, err := tx.Build()
	if err != nil {
		return err
	}
	_, err = c.TransactWriteItems(ctx, in)
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
