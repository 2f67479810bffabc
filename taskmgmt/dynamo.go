package taskmgmt

import (
	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
)

// DynamoStore is the Store on DynamoDB. Its base-table reads are strongly
// consistent; its board views read GSIs, which DynamoDB updates
// eventually (DynamoDB Local, and MemoryStore, at once); see the package
// doc's "Consistency and capacity".
type DynamoStore struct {
	*core
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the tables named by the options, which
// must exist (see EnsureTable; the invitation methods need the invitation
// table, see EnsureInvitationTable). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	s := newCore(newOptions(optFns))
	s.b = backend.NewDynamo(c, s.o.backoff(), backend.Clock(s.o.Clock), s.tables()...)
	return &DynamoStore{s}
}
