package wardrobe

import (
	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
)

// DynamoStore is the Store on DynamoDB. Its base-table reads are strongly
// consistent; its listings read GSIs, which DynamoDB updates eventually
// (DynamoDB Local, and MemoryStore, at once).
type DynamoStore struct {
	*core
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the table named by the options, which
// must exist (see EnsureTable). c is usually a *dynamodb.Client.
// Options.Emulation is the memory store's only: this store ignores it.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	t := o.table()
	return &DynamoStore{&core{o: o, t: t, b: backend.NewDynamo(c, o.backoff(), backend.Clock(o.Clock), o.backendTable(t)), tel: o.telemetry()}}
}
