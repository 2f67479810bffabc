package taskmgmt

import (
	"github.com/aws/aws-lambda-go/events"

	"github.com/ddbkit/ddbkit/internal/backend"
)

// MemoryStore is an in-memory Store for tests. It runs the DynamoDB
// store's very operations over ddbkit's item backend in memory, which
// keeps the items the DynamoDB store writes, under the same keys, with
// the nine GSIs beside them, conditions and
// transactions checked as DynamoDB checks them, the invitation table's
// TTL applied to reads, and the same cursors, so it returns the same
// results, errors, order and page boundaries; the shared conformance
// suite (package taskmgmttest) holds both to that. It is safe for
// concurrent use: one lock makes every primitive, a transaction included,
// atomic. Operations of several calls (the fan-outs of renames,
// DeleteTag, DeleteTeam) are not atomic, as on DynamoDB. Under a
// cancelled or expired context it returns the same error as the DynamoDB
// store and writes nothing; an idempotency key (ddbkit.WithIdempotencyKey)
// makes the same token, honoured as DynamoDB honours it, and the same
// idempotency record, in its task table. Unlike
// DynamoDB's, its GSIs are consistent at once, unless Options.Emulation
// sets a GSILag; Options.Emulation can also throttle its calls and delete
// expired invitations as TTL does.
//
// It also keeps the invitation table's stream (TakeStream).
type MemoryStore struct {
	*core
	m      *backend.Memory
	stream *backend.Stream
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	// The stream stamps each record with the store's last reading of its
	// clock, so every reader of the clock reads it through the stream.
	st := backend.NewStream(o.invitationTable(), o.Clock)
	o.Clock = st.Now
	c := newCore(o)
	m := backend.NewMemory(backend.Clock(o.Clock), c.tables()...)
	m.Emulate(backend.EmulationOf(o.Emulation, o.backoff()))
	m.OnWrite(st.Wrote)
	c.b = m
	return &MemoryStore{core: c, m: m, stream: st}
}

// TakeStream returns the invitation table's stream records since the last
// call, in order, as a DynamoDB stream of new images would deliver them:
// an INSERT with the new image for each invitation written, a REMOVE with
// the keys for each one deleted (accepted, revoked or replaced). Give the
// event to StreamHandler.Handle to run the mail flow in a unit test. The
// records wait in memory until taken; expired invitations stay, as TTL
// deletes late, and reads hide them (unless Options.Emulation deletes
// them as TTL does: a REMOVE then records each deletion).
func (s *MemoryStore) TakeStream() events.DynamoDBEvent {
	return s.stream.Take()
}
