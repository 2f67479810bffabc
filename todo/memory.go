package todo

import (
	"github.com/ddbkit/ddbkit/internal/backend"
)

// MemoryStore is an in-memory Store for tests. It keeps the very items the
// DynamoDB store writes, under the same keys, and pages with the same
// cursors, so it returns the same results, errors, order and page
// boundaries; the shared conformance suite (package todotest) holds both to
// that. It is safe for concurrent use: one lock makes every single call
// the DynamoDB store would make, a transaction included, atomic, and no
// more, so a sweep (DeleteCategory, DeleteUser) is as interleaved with
// other writers as it is on DynamoDB.
//
// It keeps the DynamoDB store's other promises too: under a cancelled or
// expired context it returns the same error (ErrUnavailable, matching the
// context's error) and writes nothing, and every write method honours an
// idempotency key (ddbkit.WithIdempotencyKey) as DynamoStore's does: with
// the same idempotency records, and the very same ClientRequestToken
// emulated, for ten minutes of the store's clock.
//
// What DynamoDB Local never shows, throttling, it emulates when
// Options.Emulation asks: a throttled call is retried within
// Options.Retry, as DynamoStore retries it.
type MemoryStore struct {
	*core
	m *backend.Memory
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore, emulating what
// Options.Emulation asks for.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	m := backend.NewMemory(o.now, o.backendTable())
	m.Emulate(backend.EmulationOf(o.Emulation, o.backoff()))
	return &MemoryStore{core: newCore(o, m), m: m}
}
