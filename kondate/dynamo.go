package kondate

import (
	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
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
	return &DynamoStore{&core{o: o, t: t, b: backend.NewDynamo(c, o.backoff(), o.now, o.backendTable(t)), tel: o.telemetry()}}
}
