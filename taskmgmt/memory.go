package taskmgmt

import (
	"context"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// MemoryStore is an in-memory Store for tests. It runs the DynamoDB
// store's very operations over a memory backend (package
// internal/backend) that keeps the items the DynamoDB store writes, under
// the same keys, with the nine GSIs beside them, conditions and
// transactions checked as DynamoDB checks them, the invitation table's
// TTL applied to reads, and the same cursors, so it returns the same
// results, errors, order and page boundaries; the shared conformance
// suite (package taskmgmttest) holds both to that. It is safe for
// concurrent use: one lock makes every primitive, a transaction included,
// atomic. Operations of several calls (the fan-outs of renames,
// DeleteTag, DeleteTeam) are not atomic, as on DynamoDB. Under a
// cancelled or expired context it returns the same error as the DynamoDB
// store and writes nothing; an idempotency key (ddbkit.WithIdempotencyKey)
// makes the same token, honoured as DynamoDB honours it. Unlike
// DynamoDB's, its GSIs are consistent at once.
//
// It also keeps the invitation table's stream (TakeStream).
type MemoryStore struct {
	*core
	m *backend.Memory
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	c := newCore(newOptions(optFns))
	m := backend.NewMemory(c.clk.seen, c.tables()...)
	c.b = m
	c.stream = &memStream{m: m, it: c.it, clk: c.clk}
	return &MemoryStore{core: c, m: m}
}

// memStream is the invitation table's stream on MemoryStore: the records
// of a stream of new images, appended as the transactions that write the
// table commit.
type memStream struct {
	m   *backend.Memory
	it  ddb.Table
	clk *tap

	mu      sync.Mutex // serialises the invitation table's transactions, and guards:
	records []StreamRecord
	seq     int64
}

// never is a condition no item meets: a Put under it writes nothing and
// reports the item at its key (see peek).
var never = backend.When(backend.Equal(AttrPK, ddb.S("\x00")))

// peek returns the invitation item at k as stored, expired or not,
// without reading the clock: the failed condition of a Put that cannot
// succeed reports it.
func (ms *memStream) peek(ctx context.Context, k backend.Key) ddb.Item {
	old, _ := backend.Failed(ms.m.Put(ctx, ms.it, k.Item(ms.it), never), "")
	return old
}

// tx applies ws under r and records what it changed at keys: an INSERT
// with the new image for an invitation that appeared, a REMOVE for one
// that went. A transaction that replays under an idempotency key changes
// nothing, and records nothing, as on DynamoDB.
func (ms *memStream) tx(ctx context.Context, r *backend.Run, ws []backend.Write, keys []backend.Key) error {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	peekCtx := context.WithoutCancel(ctx)
	before := make([]ddb.Item, len(keys))
	for i, k := range keys {
		before[i] = ms.peek(peekCtx, k)
	}
	if err := ms.m.Tx(ctx, r, ws); err != nil {
		return err
	}
	now := ms.clk.seen()
	for i, k := range keys {
		switch after := ms.peek(peekCtx, k); {
		case before[i] == nil && after != nil:
			ms.record(EventInsert, k, StreamImage(ddb.CloneItem(after)), now.Unix())
		case before[i] != nil && after == nil:
			ms.record(EventRemove, k, nil, now.Unix())
		}
	}
	return nil
}

// record appends one record to the stream, as DynamoDB writes it for a
// stream of new images.
func (ms *memStream) record(event string, k backend.Key, image StreamImage, now int64) {
	ms.seq++
	ms.records = append(ms.records, StreamRecord{
		EventID:        fmt.Sprintf("memory-%d", ms.seq),
		EventName:      event,
		EventVersion:   "1.1",
		EventSource:    "aws:dynamodb",
		AWSRegion:      "memory",
		EventSourceArn: "arn:aws:dynamodb:memory:000000000000:table/" + ms.it.Name + "/stream/memory",
		Change: StreamChange{
			ApproximateCreationDateTime: float64(now),
			Keys:                        StreamImage(k.Item(ms.it)),
			NewImage:                    image,
			SequenceNumber:              fmt.Sprintf("%021d", ms.seq),
			StreamViewType:              string(types.StreamViewTypeNewImage),
		},
	})
}

// TakeStream returns the invitation table's stream records since the last
// call, in order, as a DynamoDB stream of new images would deliver them:
// an INSERT with the new image for each invitation written, a REMOVE with
// the keys for each one deleted (accepted, revoked or replaced). Give the
// event to StreamHandler.Handle to run the mail flow in a unit test. The
// records wait in memory until taken; expired invitations stay, as TTL
// deletes late, and reads hide them.
func (s *MemoryStore) TakeStream() StreamEvent {
	s.stream.mu.Lock()
	defer s.stream.mu.Unlock()
	ev := StreamEvent{Records: s.stream.records}
	s.stream.records = nil
	return ev
}
