package kondate

import (
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// MemoryStore is an in-memory Store for tests. It keeps the very items the
// DynamoDB store writes, under the same keys, with GSI1, GSI2 and GSI3
// beside them (kept whatever the options enable, as DynamoDB would
// backfill them), and
// pages with the same cursors, so it returns the same results, errors,
// order and page boundaries; the conformance suite (package kondatetest)
// holds both to that. It is safe for concurrent use: one lock makes every
// primitive, a transaction included, atomic.
//
// It keeps the DynamoDB store's other promises too: under a cancelled or
// expired context it returns the same error (ErrUnavailable, matching the
// context's error) and writes nothing, and the operations that send one
// transaction on DynamoDB (ApplySet, PromoteNextPlan, DeleteFridgeItem,
// RestoreFridgeItem, Publish, Unpublish, SaveCatalogEntry,
// UnsaveCatalogEntry, RecalculatePopularity) and every create honour an
// idempotency key (ddbkit.WithIdempotencyKey) as DynamoDB honours the
// ClientRequestToken made from it, scoped the same way; an item already at
// a create's key is ErrAlreadyExists unless that token replays the same
// write, whatever the item holds. It keeps the records of idempotency
// keys as the DynamoDB store does (see the package doc), and times both
// windows, the token's ten minutes and the key's
// ddbkit.IdempotencyWindow, with Options.Clock, so that a test moves past
// them by moving the clock. Unlike DynamoDB's, its GSIs are consistent at
// once.
type MemoryStore struct {
	*core
	m *backend.Memory
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	t := o.table()
	m := backend.NewMemory(o.now, o.backendTable(t))
	m.Emulate(backend.EmulationOf(o.Emulation, o.backoff()))
	return &MemoryStore{core: &core{o: o, t: t, b: m, tel: o.telemetry()}, m: m}
}

// backendTable is the table as the backends serve it: with every index,
// enabled or not, since DynamoDB would backfill an index added later.
func (o Options) backendTable(t ddb.Table) backend.Table {
	return backend.Table{Table: t, Indexes: indexes}
}

// indexes are the seed's three GSIs.
var indexes = []ddb.Index{indexGSI1, indexGSI2, indexGSI3}
