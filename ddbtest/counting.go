package ddbtest

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
)

// The SDK operation names of the ddbkit.Client methods.
const (
	opGetItem            = "GetItem"
	opPutItem            = "PutItem"
	opUpdateItem         = "UpdateItem"
	opDeleteItem         = "DeleteItem"
	opQuery              = "Query"
	opBatchGetItem       = "BatchGetItem"
	opBatchWriteItem     = "BatchWriteItem"
	opTransactWriteItems = "TransactWriteItems"
	opTransactGetItems   = "TransactGetItems"
)

var clientOps = map[string]bool{
	opGetItem: true, opPutItem: true, opUpdateItem: true, opDeleteItem: true, opQuery: true,
	opBatchGetItem: true, opBatchWriteItem: true, opTransactWriteItems: true, opTransactGetItems: true,
}

// mustBeOp panics when op is not the name of a ddbkit.Client method, so that
// a typo ("Getitem") cannot make a count silently zero.
func mustBeOp(fn, op string) {
	if !clientOps[op] {
		names := make([]string, 0, len(clientOps))
		for name := range clientOps {
			names = append(names, name)
		}
		sort.Strings(names)
		panic(fmt.Sprintf("ddbtest: %s: %q is not a ddbkit.Client operation (one of %v)", fn, op, names))
	}
}

// CountingClient wraps a ddbkit.Client and counts the calls of each
// operation, whether they succeed or not. It is safe for concurrent use.
type CountingClient struct {
	c      ddbkit.Client
	mu     sync.Mutex
	counts map[string]int
}

var _ ddbkit.Client = (*CountingClient)(nil)

// NewCountingClient returns a CountingClient that calls c.
func NewCountingClient(c ddbkit.Client) *CountingClient {
	return &CountingClient{c: c, counts: make(map[string]int)}
}

// Count returns how many times op was called since the client was created
// or last Reset. op is the SDK operation name, such as "GetItem", "Query",
// "BatchGetItem" or "TransactWriteItems". Count panics if op is not one of
// the ddbkit.Client methods.
func (c *CountingClient) Count(op string) int {
	mustBeOp("Count", op)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[op]
}

// Counts returns a copy of the non-zero counts, keyed by operation name.
func (c *CountingClient) Counts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.counts)
}

// Reset sets every count to zero.
func (c *CountingClient) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.counts)
}

func (c *CountingClient) count(op string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[op]++
}

// GetItem counts the call and calls the wrapped client.
func (c *CountingClient) GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.count(opGetItem)
	return c.c.GetItem(ctx, params, optFns...)
}

// PutItem counts the call and calls the wrapped client.
func (c *CountingClient) PutItem(ctx context.Context, params *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.count(opPutItem)
	return c.c.PutItem(ctx, params, optFns...)
}

// UpdateItem counts the call and calls the wrapped client.
func (c *CountingClient) UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.count(opUpdateItem)
	return c.c.UpdateItem(ctx, params, optFns...)
}

// DeleteItem counts the call and calls the wrapped client.
func (c *CountingClient) DeleteItem(ctx context.Context, params *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.count(opDeleteItem)
	return c.c.DeleteItem(ctx, params, optFns...)
}

// Query counts the call and calls the wrapped client. Each page of a
// paginated query is one call.
func (c *CountingClient) Query(ctx context.Context, params *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.count(opQuery)
	return c.c.Query(ctx, params, optFns...)
}

// BatchGetItem counts the call and calls the wrapped client.
func (c *CountingClient) BatchGetItem(ctx context.Context, params *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.count(opBatchGetItem)
	return c.c.BatchGetItem(ctx, params, optFns...)
}

// BatchWriteItem counts the call and calls the wrapped client.
func (c *CountingClient) BatchWriteItem(ctx context.Context, params *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	c.count(opBatchWriteItem)
	return c.c.BatchWriteItem(ctx, params, optFns...)
}

// TransactWriteItems counts the call and calls the wrapped client.
func (c *CountingClient) TransactWriteItems(ctx context.Context, params *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.count(opTransactWriteItems)
	return c.c.TransactWriteItems(ctx, params, optFns...)
}

// TransactGetItems counts the call and calls the wrapped client.
func (c *CountingClient) TransactGetItems(ctx context.Context, params *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	c.count(opTransactGetItems)
	return c.c.TransactGetItems(ctx, params, optFns...)
}
