package todo

import (
	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
)

// DynamoStore is the Store on DynamoDB. Its reads are strongly
// consistent, so that it behaves like MemoryStore: a write is visible to the
// next read. The one exception is the read of ToggleTodo and of UpdateTodo
// with a category, made eventually consistent at half the capacity: its
// write is conditioned on what it read, and a stale read only makes the
// condition fail and the item be read again, strongly.
type DynamoStore struct {
	*core
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the table named by the options, which
// must exist (see EnsureTable). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	return &DynamoStore{newCore(o, backend.NewDynamo(c, o.backoff(), o.now, o.backendTable()))}
}
