package livecomment

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// DynamoStore is the Store on DynamoDB. Its reads of the tables are strongly
// consistent, so that it behaves like MemoryStore: a write is visible to the
// next read. Its listings read global secondary indexes, which cannot be:
// DynamoDB updates them asynchronously, so a listing may lag a write by a
// moment.
type DynamoStore struct {
	*core
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the three tables of the environment
// named by the options, which must exist with their indexes (see
// EnsureTables). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	ts := newTables(o.Env, o.CursorSecret).backend()
	// No clock: no table has a TTL, and DynamoDB's token window is in real
	// time, whatever the store's clock (see NewMemoryStore).
	b := backend.NewDynamo(c, o.backoff(), nil, ts...)
	once := backend.NewDynamo(c, ddb.Backoff{Attempts: 1}, nil, ts...)
	return &DynamoStore{newCore(o, b, once, dynamoDelete(c, o.backoff()))}
}

// dynamoDelete is the deleter of DynamoStore: one unconditional
// DeleteItem, retried after throttling, a 5xx or a lost response (deleting
// again what is gone is a success), in one retry loop. An ended context is
// reported before any call, as the backend reports it.
func dynamoDelete(c ddbkit.Client, b ddb.Backoff) deleter {
	return func(ctx context.Context, t ddb.Table, k backend.Key) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		in := &dynamodb.DeleteItemInput{TableName: aws.String(t.Name), Key: k.Item(t)}
		return ddb.RetryIf(ctx, b, ddb.RetryableWithToken, func() error {
			_, err := c.DeleteItem(ctx, in)
			return err
		})
	}
}
