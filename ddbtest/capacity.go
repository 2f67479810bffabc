package ddbtest

import (
	"context"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// Capacity is the read and write capacity units some calls consumed, as
// DynamoDB reports them with ReturnConsumedCapacity=TOTAL. DynamoDB Local
// reports them too, priced as the service prices single-item calls and
// queries; its figures for TransactWriteItems are its own (it has been
// seen to report 2 WCU for a transaction of several items), so a budget
// of a transaction on DynamoDB Local catches an extra write, but is not
// the service's price. Read counts the units of GetItem, Query, BatchGetItem
// and TransactGetItems; Write those of the writes and transactions.
type Capacity struct {
	Read, Write float64
}

// CapacityClient wraps a ddbkit.Client, asks every call for its consumed
// capacity (ReturnConsumedCapacity=TOTAL, on a copy of the input) and adds
// it up, so that a test can hold an access pattern to a budget. A call the
// caller already asked for INDEXES or TOTAL keeps that setting. It is safe
// for concurrent use.
type CapacityClient struct {
	c     ddbkit.Client
	mu    sync.Mutex
	total Capacity
}

var _ ddbkit.Client = (*CapacityClient)(nil)

// NewCapacityClient returns a CapacityClient that calls c.
func NewCapacityClient(c ddbkit.Client) *CapacityClient { return &CapacityClient{c: c} }

// Consumed returns the capacity consumed since the client was created or
// last Reset.
func (c *CapacityClient) Consumed() Capacity {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

// Reset sets the consumed capacity to zero.
func (c *CapacityClient) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total = Capacity{}
}

// Measure resets the client, runs f, and returns what f consumed.
func (c *CapacityClient) Measure(f func()) Capacity {
	c.Reset()
	f()
	return c.Consumed()
}

func total(r types.ReturnConsumedCapacity) types.ReturnConsumedCapacity {
	if r == types.ReturnConsumedCapacityIndexes {
		return r
	}
	return types.ReturnConsumedCapacityTotal
}

func (c *CapacityClient) add(write bool, ccs ...types.ConsumedCapacity) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cc := range ccs {
		if cc.CapacityUnits == nil {
			continue
		}
		if write {
			c.total.Write += *cc.CapacityUnits
		} else {
			c.total.Read += *cc.CapacityUnits
		}
	}
}

func (c *CapacityClient) add1(write bool, cc *types.ConsumedCapacity) {
	if cc != nil {
		c.add(write, *cc)
	}
}

// GetItem calls the wrapped client and adds the capacity it consumed.
func (c *CapacityClient) GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	in := *params
	in.ReturnConsumedCapacity = total(in.ReturnConsumedCapacity)
	out, err := c.c.GetItem(ctx, &in, optFns...)
	if out != nil {
		c.add1(false, out.ConsumedCapacity)
	}
	return out, err
}

// PutItem calls the wrapped client and adds the capacity it consumed.
func (c *CapacityClient) PutItem(ctx context.Context, params *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	in := *params
	in.ReturnConsumedCapacity = total(in.ReturnConsumedCapacity)
	out, err := c.c.PutItem(ctx, &in, optFns...)
	if out != nil {
		c.add1(true, out.ConsumedCapacity)
	}
	return out, err
}

// UpdateItem calls the wrapped client and adds the capacity it consumed.
func (c *CapacityClient) UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	in := *params
	in.ReturnConsumedCapacity = total(in.ReturnConsumedCapacity)
	out, err := c.c.UpdateItem(ctx, &in, optFns...)
	if out != nil {
		c.add1(true, out.ConsumedCapacity)
	}
	return out, err
}

// DeleteItem calls the wrapped client and adds the capacity it consumed.
func (c *CapacityClient) DeleteItem(ctx context.Context, params *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	in := *params
	in.ReturnConsumedCapacity = total(in.ReturnConsumedCapacity)
	out, err := c.c.DeleteItem(ctx, &in, optFns...)
	if out != nil {
		c.add1(true, out.ConsumedCapacity)
	}
	return out, err
}

// Query calls the wrapped client and adds the capacity it consumed.
func (c *CapacityClient) Query(ctx context.Context, params *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	in := *params
	in.ReturnConsumedCapacity = total(in.ReturnConsumedCapacity)
	out, err := c.c.Query(ctx, &in, optFns...)
	if out != nil {
		c.add1(false, out.ConsumedCapacity)
	}
	return out, err
}

// BatchGetItem calls the wrapped client and adds the capacity it consumed.
func (c *CapacityClient) BatchGetItem(ctx context.Context, params *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	in := *params
	in.ReturnConsumedCapacity = total(in.ReturnConsumedCapacity)
	out, err := c.c.BatchGetItem(ctx, &in, optFns...)
	if out != nil {
		c.add(false, out.ConsumedCapacity...)
	}
	return out, err
}

// BatchWriteItem calls the wrapped client and adds the capacity it consumed.
func (c *CapacityClient) BatchWriteItem(ctx context.Context, params *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	in := *params
	in.ReturnConsumedCapacity = total(in.ReturnConsumedCapacity)
	out, err := c.c.BatchWriteItem(ctx, &in, optFns...)
	if out != nil {
		c.add(true, out.ConsumedCapacity...)
	}
	return out, err
}

// TransactWriteItems calls the wrapped client and adds the capacity it
// consumed.
func (c *CapacityClient) TransactWriteItems(ctx context.Context, params *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	in := *params
	in.ReturnConsumedCapacity = total(in.ReturnConsumedCapacity)
	out, err := c.c.TransactWriteItems(ctx, &in, optFns...)
	if out != nil {
		c.add(true, out.ConsumedCapacity...)
	}
	return out, err
}

// TransactGetItems calls the wrapped client and adds the capacity it
// consumed.
func (c *CapacityClient) TransactGetItems(ctx context.Context, params *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	in := *params
	in.ReturnConsumedCapacity = total(in.ReturnConsumedCapacity)
	out, err := c.c.TransactGetItems(ctx, &in, optFns...)
	if out != nil {
		c.add(false, out.ConsumedCapacity...)
	}
	return out, err
}

// CheckBudget runs call, an access pattern, once through c, and fails the
// test if it fails or consumes other than want.
func (c *CapacityClient) CheckBudget(t testing.TB, name string, want Capacity, call func() error) {
	t.Helper()
	var err error
	got := c.Measure(func() { err = call() })
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got != want {
		t.Errorf("%s consumed %+v, want %+v", name, got, want)
	}
}
