package livecomment

import (
	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
)

// DynamoStore is the Store on DynamoDB. Its reads of the tables are strongly
// consistent, so that it behaves like MemoryStore: a write is visible to the
// next read. Its listings read global secondary indexes, which cannot be:
// DynamoDB updates them asynchronously, so a listing may lag a write by a
// moment (MemoryStore lags so with Options.Emulation.GSILag).
type DynamoStore struct {
	*core
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the three tables of the environment
// named by the options, which must exist with their indexes (see
// EnsureTables). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	// No clock: no table has a TTL, and DynamoDB's token window is in real
	// time, whatever the store's clock (see NewMemoryStore).
	b := backend.NewDynamo(c, o.backoff(), backend.Clock(o.Clock), newTables(o.Env, o.CursorSecret, o.WithholdOldItems).backend()...)
	return &DynamoStore{newCore(o, b)}
}
