package todo

import (
	"context"
	"sync/atomic"

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
	return &DynamoStore{newCore(o, backend.NewDynamo(lossWatch{c}, o.backoff(), o.now, o.backendTable()))}
}

// lossWatch is the client under DynamoStore's backend. It tells ToggleTodo
// that an UpdateItem of its toggle failed with a 5xx (see lossKey), which
// backend.Update, retrying after it, does not report: when the repeat then
// fails its condition on an item someone else changed, the toggle may have
// committed, and must not be applied again.
type lossWatch struct{ ddbkit.Client }

func (c lossWatch) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	out, err := c.Client.UpdateItem(ctx, in, optFns...)
	if err != nil && ddb.ServerError(err) {
		if lost, ok := ctx.Value(lossKey{}).(*atomic.Bool); ok {
			lost.Store(true)
		}
	}
	return out, err
}
