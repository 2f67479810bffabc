package todo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// DynamoStore is the Store on DynamoDB. All its reads are strongly
// consistent, so that it behaves like MemoryStore: a write is visible to the
// next read.
type DynamoStore struct {
	*core
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the table named by the options, which
// must exist (see EnsureTable). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	s := &DynamoStore{newCore(o, backend.NewDynamo(c, o.backoff(), o.now, o.backendTable()))}
	s.eventual = eventualGet(c, o.backoff())
	return s
}

// eventualGet returns the eventually consistent read of a read-modify-write
// (see readForWrite): one GetItem without ConsistentRead, at half the read
// capacity of the backend's Get, retried within b after throttling, a 5xx
// or a lost response, in one loop. An ended context is reported before
// any call, as the backend reports it.
func eventualGet(c ddbkit.Client, b ddb.Backoff) func(context.Context, ddb.Table, backend.Key) (ddb.Item, error) {
	return func(ctx context.Context, t ddb.Table, k backend.Key) (item ddb.Item, err error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		key := k.Item(t)
		err = ddb.RetryIf(ctx, b, ddb.RetryableWithToken, func() error {
			out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &t.Name, Key: key})
			if err != nil {
				return err
			}
			item = out.Item
			return nil
		})
		return item, err
	}
}
