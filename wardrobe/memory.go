package wardrobe

import (
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// MemoryStore is an in-memory Store for tests. It keeps the very items the
// DynamoDB store writes, under the same keys, with the four GSIs beside
// them, and pages with the same cursors, so it returns the same results,
// errors, order and page boundaries; the shared conformance suite
// (package wardrobetest) holds both to that. It is safe for concurrent
// use: one lock makes every primitive, a transaction included, atomic.
//
// It keeps DynamoStore's other promises too: under a cancelled or expired
// context it fails as DynamoStore does (ddbkit.ErrUnavailable, and the
// context's error) and writes nothing; and under a caller's idempotency
// key (see ddbkit.WithIdempotencyKey) it keeps the same idempotency
// records, and emulates the ClientRequestToken that the key gives the
// operations that DynamoStore runs as transactions: CreateWardrobe,
// AddClothing, AddTemplate, UpdateTemplate with a new list, AddHistory and
// DeleteHistory. Both windows, the record's 24 hours and the token's 10
// minutes, run on Options.Clock. Unlike DynamoDB's, its GSIs are
// consistent at once, unless Options.Emulation sets a GSILag.
type MemoryStore struct {
	*core
	m *backend.Memory
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore, emulating what
// Options.Emulation asks for.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	t := o.table()
	// The backend reads Options.Clock only under Options.Emulation (the
	// table has no TTL).
	m := backend.NewMemory(backend.Clock(o.Clock), o.backendTable(t))
	m.Emulate(backend.EmulationOf(o.Emulation, o.backoff()))
	return &MemoryStore{core: &core{o: o, t: t, b: m, tel: o.telemetry()}, m: m}
}

// backendTable is the table as the backends serve it, with the seed's
// four GSIs.
func (o Options) backendTable(t ddb.Table) backend.Table {
	return backend.Table{Table: t, Indexes: indexes}
}

// indexes are the seed's four GSIs.
var indexes = []ddb.Index{indexByCreatedAt, indexByWearCount, indexByLastWornAt, indexHistoryByDate}
