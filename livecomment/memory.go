package livecomment

import (
	"github.com/ddbkit/ddbkit/internal/backend"
)

// MemoryStore is an in-memory Store for tests. It runs DynamoStore's very
// operations over ddbkit's in-memory item backend, which keeps
// each table's items as DynamoStore writes them (see Export and Import),
// and each index under the same key values DynamoDB's index holds, and
// pages with the same cursors, so it returns the same results, errors,
// order and page boundaries (up to the order of ties that DynamoDB leaves
// undocumented: the connections of a room, which roomId-index does not
// sort, and the index entries of equal sort key, which a store never writes
// itself; see the package documentation). The shared conformance suite
// (package livecommenttest) holds both to that. It honours contexts as
// DynamoStore does: under a cancelled or expired context it writes nothing
// and fails with ErrUnavailable. It keeps callers' idempotency records as
// DynamoStore does, in its tables, and emulates the ClientRequestToken of
// DynamoStore's transactions (CreateRoom, PostComment, JoinRoom), scoped
// as DynamoStore scopes them, its window running on the store's stamps
// (see the package documentation). It is safe
// for concurrent use: one lock makes every write, a transaction included,
// atomic, as DynamoDB makes it; and, as in DynamoStore, a close of a room
// waits for the store's posts to it in flight and holds back new ones, so
// no comment the store posted is newer than its close. Unlike DynamoDB's,
// its indexes are consistent at once and no call is throttled, unless
// Options.Emulation says otherwise: with GSILag, its listings lag its
// writes as DynamoStore's may.
type MemoryStore struct {
	*core
	m *backend.Memory
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	// The backend reads Options.Clock only under Options.Emulation (no
	// table has a TTL), so the store's clock is read for its stamps (and
	// its idempotency records) only, as DynamoStore reads it.
	m := backend.NewMemory(backend.Clock(o.Clock), newTables(o.Env, o.CursorSecret, o.WithholdOldItems).backend()...)
	m.Emulate(backend.EmulationOf(o.Emulation, o.backoff()))
	c := newCore(o, m)
	return &MemoryStore{core: c, m: m}
}
