package ddbtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
)

// Fault is a failure that FaultClient can inject: one DynamoDB returns
// under load or contention, and DynamoDB Local never does.
type Fault int

const (
	// Throttle fails the call with *types.ProvisionedThroughputExceededException,
	// or, for TransactWriteItems and TransactGetItems, with a
	// *types.TransactionCanceledException whose first cancellation reason
	// has Code "ThrottlingError" and the others "None". Any operation.
	Throttle Fault = iota + 1
	// TxConflict fails a TransactWriteItems or TransactGetItems call with a
	// *types.TransactionCanceledException that has one cancellation reason
	// per requested item: Code "TransactionConflict" for the first, "None"
	// for the others, as DynamoDB reports a conflict with another
	// transaction.
	TxConflict
	// InternalError fails the call with *types.InternalServerError, the
	// error of an HTTP 500. Any operation.
	InternalError
	// Unprocessed makes a BatchGetItem or BatchWriteItem call process only
	// the first key or write request (of the first table, by name, that has
	// any) and return all the others as UnprocessedKeys or UnprocessedItems, so a
	// correct retry loop always makes progress.
	Unprocessed
	// LoseResponse lets the call through to the wrapped client and, when it
	// succeeds, returns *types.InternalServerError instead of its answer:
	// the write took effect, and the caller cannot know. This is how a
	// response lost on the network looks to a client. Any operation.
	LoseResponse
)

// String returns the name of the constant, such as "TxConflict".
func (f Fault) String() string {
	switch f {
	case Throttle:
		return "Throttle"
	case TxConflict:
		return "TxConflict"
	case InternalError:
		return "InternalError"
	case Unprocessed:
		return "Unprocessed"
	case LoseResponse:
		return "LoseResponse"
	}
	return fmt.Sprintf("Fault(%d)", int(f))
}

// appliesTo reports whether f makes sense for op.
func (f Fault) appliesTo(op string) bool {
	switch f {
	case Throttle, InternalError, LoseResponse:
		return true
	case TxConflict:
		return isTransact(op)
	case Unprocessed:
		return op == opBatchGetItem || op == opBatchWriteItem
	}
	return false
}

func isTransact(op string) bool {
	return op == opTransactWriteItems || op == opTransactGetItems
}

// injection is one queued fault: a Fault, an arbitrary error, or a hook.
type injection struct {
	fault Fault
	err   error
	hook  func()
}

// FaultClient wraps a ddbkit.Client and makes chosen calls fail. Calls with
// no fault queued go straight through. It is safe for concurrent use.
//
// Every fault but Unprocessed returns its error without calling the wrapped
// client, so nothing is read or written. The errors are wrapped in a
// *smithy.OperationError, as the SDK wraps the errors DynamoDB returns.
type FaultClient struct {
	c      ddbkit.Client
	mu     sync.Mutex
	queue  map[string][]injection
	always map[string]Fault // fires once the queue of its op is empty
	fired  map[string]int
}

var _ ddbkit.Client = (*FaultClient)(nil)

// NewFaultClient returns a FaultClient that calls c when no fault is due.
func NewFaultClient(c ddbkit.Client) *FaultClient {
	return &FaultClient{c: c, queue: make(map[string][]injection), fired: make(map[string]int)}
}

// Inject makes the next times calls of op fail with fault. op is the SDK
// operation name, such as "GetItem" or "TransactWriteItems". Faults queued
// for the same op fire in the order they were injected.
//
// Inject panics if op is not a ddbkit.Client operation, if fault does not
// apply to op (TxConflict outside transactions, Unprocessed outside
// batches), or if times is negative.
func (f *FaultClient) Inject(op string, fault Fault, times int) {
	mustBeOp("Inject", op)
	if !fault.appliesTo(op) {
		panic(fmt.Sprintf("ddbtest: Inject: fault %v does not apply to %s", fault, op))
	}
	f.push(op, injection{fault: fault}, times)
}

// Always makes every call of every operation fault applies to fail with
// fault, once the faults queued for it have fired, until Clear: a table
// that always throttles (Throttle) or whose transactions always conflict
// (TxConflict), with which a test holds a store to its RetryPolicy's
// bound. It panics for Unprocessed, which only makes sense a few times.
func (f *FaultClient) Always(fault Fault) {
	if fault == Unprocessed {
		panic("ddbtest: Always: Unprocessed always would never finish a batch; use Inject")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.always == nil {
		f.always = make(map[string]Fault)
	}
	for op := range clientOps {
		if fault.appliesTo(op) {
			f.always[op] = fault
		}
	}
}

// InjectErr makes the next times calls of op return err, without calling
// the wrapped client. err is returned as is. It panics like Inject.
func (f *FaultClient) InjectErr(op string, err error, times int) {
	mustBeOp("InjectErr", op)
	if err == nil {
		panic("ddbtest: InjectErr: nil error")
	}
	f.push(op, injection{err: err}, times)
}

// Before runs hook once, just before the next call of op reaches the
// wrapped client, so a test can act as another writer between two calls of
// a store (for example, between a read and the transaction built from it).
// It queues like a fault, and counts in Injected.
func (f *FaultClient) Before(op string, hook func()) {
	mustBeOp("Before", op)
	if hook == nil {
		panic("ddbtest: Before: nil hook")
	}
	f.push(op, injection{hook: hook}, 1)
}

// run serves a call of op with n items for which in is due: a hook runs,
// then the call; LoseResponse makes the call and hides its success; any
// other fault fails the call without making it.
func run[Out any](op string, in injection, n int, do func() (Out, error)) (Out, error) {
	var zero Out
	switch {
	case in.hook != nil:
		in.hook()
		return do()
	case in.err == nil && in.fault == LoseResponse:
		out, err := do()
		if err != nil {
			return out, err
		}
		return zero, errorFor(op, in, n)
	}
	return zero, errorFor(op, in, n)
}

func (f *FaultClient) push(op string, in injection, times int) {
	if times < 0 {
		panic(fmt.Sprintf("ddbtest: negative times %d", times))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for range times {
		f.queue[op] = append(f.queue[op], in)
	}
}

// Clear drops the faults still queued, for every op, and those of Always,
// so a test can end an "endless" fault it injected.
func (f *FaultClient) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.queue)
	clear(f.always)
}

// Injected returns how many injected faults (of any kind, InjectErr
// included) have fired for op.
func (f *FaultClient) Injected(op string) int {
	mustBeOp("Injected", op)
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fired[op]
}

// next pops the fault due for op, if any.
func (f *FaultClient) next(op string) (injection, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.queue[op]
	if len(q) == 0 {
		if fault, ok := f.always[op]; ok {
			f.fired[op]++
			return injection{fault: fault}, true
		}
		return injection{}, false
	}
	f.queue[op] = q[1:]
	f.fired[op]++
	return q[0], true
}

// errorFor returns the error of in for a call of op with items items.
func errorFor(op string, in injection, items int) error {
	if in.err != nil {
		return in.err
	}
	const mark = "(injected by ddbtest) "
	var err error
	switch {
	case in.fault == Throttle && isTransact(op):
		err = canceled(items, "ThrottlingError", mark+"Throughput exceeds the current capacity of your table or index.")
	case in.fault == Throttle:
		err = &types.ProvisionedThroughputExceededException{Message: aws.String(mark +
			"The level of configured provisioned throughput for the table was exceeded.")}
	case in.fault == TxConflict:
		err = canceled(items, "TransactionConflict", mark+"Transaction is ongoing for the item")
	case in.fault == InternalError:
		err = &types.InternalServerError{Message: aws.String(mark + "Internal server error")}
	case in.fault == LoseResponse:
		err = &types.InternalServerError{Message: aws.String(mark + "Internal server error (the call took effect; its response was lost)")}
	default:
		panic(fmt.Sprintf("ddbtest: fault %v has no error for %s", in.fault, op))
	}
	return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: op, Err: err}
}

// canceled returns the cancellation DynamoDB reports when the first of
// items transaction items fails with code.
func canceled(items int, code, message string) *types.TransactionCanceledException {
	items = max(items, 1)
	reasons := make([]types.CancellationReason, items)
	codes := make([]string, items)
	for i := range reasons {
		if i == 0 {
			reasons[i] = types.CancellationReason{Code: aws.String(code), Message: aws.String(message)}
		} else {
			reasons[i] = types.CancellationReason{Code: aws.String("None")}
		}
		codes[i] = aws.ToString(reasons[i].Code)
	}
	return &types.TransactionCanceledException{
		Message: aws.String("Transaction cancelled, please refer cancellation reasons for specific reasons [" +
			strings.Join(codes, ", ") + "]"),
		CancellationReasons: reasons,
	}
}

// GetItem fails with the next fault queued for "GetItem", or calls the
// wrapped client.
func (f *FaultClient) GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	do := func() (*dynamodb.GetItemOutput, error) { return f.c.GetItem(ctx, params, optFns...) }
	if in, ok := f.next(opGetItem); ok {
		return run(opGetItem, in, 1, do)
	}
	return do()
}

// PutItem fails with the next fault queued for "PutItem", or calls the
// wrapped client.
func (f *FaultClient) PutItem(ctx context.Context, params *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	do := func() (*dynamodb.PutItemOutput, error) { return f.c.PutItem(ctx, params, optFns...) }
	if in, ok := f.next(opPutItem); ok {
		return run(opPutItem, in, 1, do)
	}
	return do()
}

// UpdateItem fails with the next fault queued for "UpdateItem", or calls
// the wrapped client.
func (f *FaultClient) UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	do := func() (*dynamodb.UpdateItemOutput, error) { return f.c.UpdateItem(ctx, params, optFns...) }
	if in, ok := f.next(opUpdateItem); ok {
		return run(opUpdateItem, in, 1, do)
	}
	return do()
}

// DeleteItem fails with the next fault queued for "DeleteItem", or calls
// the wrapped client.
func (f *FaultClient) DeleteItem(ctx context.Context, params *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	do := func() (*dynamodb.DeleteItemOutput, error) { return f.c.DeleteItem(ctx, params, optFns...) }
	if in, ok := f.next(opDeleteItem); ok {
		return run(opDeleteItem, in, 1, do)
	}
	return do()
}

// Query fails with the next fault queued for "Query", or calls the wrapped
// client.
func (f *FaultClient) Query(ctx context.Context, params *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	do := func() (*dynamodb.QueryOutput, error) { return f.c.Query(ctx, params, optFns...) }
	if in, ok := f.next(opQuery); ok {
		return run(opQuery, in, 1, do)
	}
	return do()
}

// TransactWriteItems fails with the next fault queued for
// "TransactWriteItems", or calls the wrapped client.
func (f *FaultClient) TransactWriteItems(ctx context.Context, params *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	do := func() (*dynamodb.TransactWriteItemsOutput, error) {
		return f.c.TransactWriteItems(ctx, params, optFns...)
	}
	if in, ok := f.next(opTransactWriteItems); ok {
		n := 0
		if params != nil {
			n = len(params.TransactItems)
		}
		return run(opTransactWriteItems, in, n, do)
	}
	return do()
}

// TransactGetItems fails with the next fault queued for "TransactGetItems",
// or calls the wrapped client.
func (f *FaultClient) TransactGetItems(ctx context.Context, params *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	do := func() (*dynamodb.TransactGetItemsOutput, error) { return f.c.TransactGetItems(ctx, params, optFns...) }
	if in, ok := f.next(opTransactGetItems); ok {
		n := 0
		if params != nil {
			n = len(params.TransactItems)
		}
		return run(opTransactGetItems, in, n, do)
	}
	return do()
}

// BatchGetItem fails with the next fault queued for "BatchGetItem", or
// calls the wrapped client. Under Unprocessed it sends only the first key
// and returns the others in UnprocessedKeys, after any the wrapped client
// left unprocessed itself.
func (f *FaultClient) BatchGetItem(ctx context.Context, params *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	in, ok := f.next(opBatchGetItem)
	if !ok {
		return f.c.BatchGetItem(ctx, params, optFns...)
	}
	if in.hook != nil || in.err != nil || in.fault != Unprocessed {
		return run(opBatchGetItem, in, 1, func() (*dynamodb.BatchGetItemOutput, error) { return f.c.BatchGetItem(ctx, params, optFns...) })
	}
	var keys map[string]int
	if params != nil {
		keys = make(map[string]int, len(params.RequestItems))
		for table, ka := range params.RequestItems {
			keys[table] = len(ka.Keys)
		}
	}
	first, ok := firstNonEmpty(keys)
	if !ok {
		// Nothing to hold back; let DynamoDB judge the request.
		return f.c.BatchGetItem(ctx, params, optFns...)
	}
	sent := params.RequestItems[first]
	sent.Keys = sent.Keys[:1:1]
	send := *params
	send.RequestItems = map[string]types.KeysAndAttributes{first: sent}
	held := make(map[string]types.KeysAndAttributes)
	for table, ka := range params.RequestItems {
		if table == first {
			ka.Keys = slices.Clone(ka.Keys[1:])
		}
		if len(ka.Keys) > 0 {
			held[table] = ka
		}
	}

	out, err := f.c.BatchGetItem(ctx, &send, optFns...)
	if err != nil {
		return out, err
	}
	holdKeys(out, held)
	return out, nil
}

// holdKeys returns the keys held back from a BatchGetItem in out's
// UnprocessedKeys, after those the wrapped client left unprocessed.
func holdKeys(out *dynamodb.BatchGetItemOutput, held map[string]types.KeysAndAttributes) {
	if len(held) == 0 {
		return
	}
	if out.UnprocessedKeys == nil {
		out.UnprocessedKeys = make(map[string]types.KeysAndAttributes)
	}
	for table, ka := range held {
		if prev, ok := out.UnprocessedKeys[table]; ok {
			prev.Keys = append(prev.Keys, ka.Keys...)
			ka = prev
		}
		out.UnprocessedKeys[table] = ka
	}
}

// BatchWriteItem fails with the next fault queued for "BatchWriteItem", or
// calls the wrapped client. Under Unprocessed it sends only the first write
// request and returns the others in UnprocessedItems, after any the
// wrapped client left unprocessed itself.
func (f *FaultClient) BatchWriteItem(ctx context.Context, params *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	in, ok := f.next(opBatchWriteItem)
	if !ok {
		return f.c.BatchWriteItem(ctx, params, optFns...)
	}
	if in.hook != nil || in.err != nil || in.fault != Unprocessed {
		return run(opBatchWriteItem, in, 1, func() (*dynamodb.BatchWriteItemOutput, error) { return f.c.BatchWriteItem(ctx, params, optFns...) })
	}
	var writes map[string]int
	if params != nil {
		writes = make(map[string]int, len(params.RequestItems))
		for table, reqs := range params.RequestItems {
			writes[table] = len(reqs)
		}
	}
	first, ok := firstNonEmpty(writes)
	if !ok {
		return f.c.BatchWriteItem(ctx, params, optFns...)
	}
	send := *params
	send.RequestItems = map[string][]types.WriteRequest{first: params.RequestItems[first][:1:1]}
	held := make(map[string][]types.WriteRequest)
	for table, reqs := range params.RequestItems {
		if table == first {
			reqs = reqs[1:]
		}
		if len(reqs) > 0 {
			held[table] = slices.Clone(reqs)
		}
	}

	out, err := f.c.BatchWriteItem(ctx, &send, optFns...)
	if err != nil {
		return out, err
	}
	if out.UnprocessedItems == nil {
		out.UnprocessedItems = make(map[string][]types.WriteRequest)
	}
	for table, reqs := range held {
		out.UnprocessedItems[table] = append(out.UnprocessedItems[table], reqs...)
	}
	return out, nil
}

// firstNonEmpty returns the table that sorts first among those with a
// non-zero count, so that which request goes through is deterministic.
func firstNonEmpty(counts map[string]int) (string, bool) {
	var tables []string
	for table, n := range counts {
		if n > 0 {
			tables = append(tables, table)
		}
	}
	if len(tables) == 0 {
		return "", false
	}
	return slices.Min(tables), true
}
