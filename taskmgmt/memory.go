package taskmgmt

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
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
// DynamoDB's, its GSIs are consistent at once, unless Options.Emulation
// sets a GSILag; Options.Emulation can also throttle its calls and delete
// expired invitations as TTL does.
//
// It also keeps the invitation table's stream (TakeStream).
type MemoryStore struct {
	*core
	m      *backend.Memory
	stream *memStream
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	ms := &memStream{clock: o.Clock}
	o.Clock = ms.now
	c := newCore(o)
	ms.it = c.it
	m := backend.NewMemory(backend.Clock(o.Clock), c.tables()...)
	m.Emulate(backend.EmulationOf(o.Emulation, o.backoff()))
	m.OnWrite(ms.wrote)
	c.b = m
	return &MemoryStore{core: c, m: m, stream: ms}
}

// memStream is the invitation table's stream on MemoryStore: the records
// of a stream of new images, appended as the backend commits each write
// of the table (backend.Memory.OnWrite), and stamped with the store's
// last reading of its clock, whoever read it (an operation, or the
// backend for a token or TTL), so that the stream reads the clock no more
// often than the DynamoDB store does.
type memStream struct {
	it    ddb.Table
	clock ddbkit.Clock
	last  atomic.Pointer[time.Time]

	mu      sync.Mutex // guards:
	records []events.DynamoDBEventRecord
	seq     int64
}

// now reads the clock and keeps the reading.
func (ms *memStream) now() time.Time {
	v := ms.clock()
	ms.last.Store(&v)
	return v
}

// wrote records one write of the invitation table, called under the
// backend's lock in commit order: an INSERT with the new image for an
// invitation that appeared, a MODIFY for one rewritten, a REMOVE for one
// that went. A transaction that replays under an idempotency key writes
// nothing, and records nothing, as on DynamoDB.
func (ms *memStream) wrote(table string, old, new ddb.Item) {
	if table != ms.it.Name {
		return
	}
	var now time.Time
	if p := ms.last.Load(); p != nil {
		now = *p
	} else {
		now = ms.now()
	}
	switch {
	case old == nil && new != nil:
		ms.record(events.DynamoDBOperationTypeInsert, backend.KeyOf(ms.it, new), new, now)
	case old != nil && new != nil:
		ms.record(events.DynamoDBOperationTypeModify, backend.KeyOf(ms.it, new), new, now)
	case old != nil:
		ms.record(events.DynamoDBOperationTypeRemove, backend.KeyOf(ms.it, old), nil, now)
	}
}

// record appends one record to the stream, as DynamoDB writes it for a
// stream of new images, and as Lambda delivers it.
func (ms *memStream) record(event events.DynamoDBOperationType, k backend.Key, image ddb.Item, now time.Time) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.seq++
	ms.records = append(ms.records, events.DynamoDBEventRecord{
		EventID:        fmt.Sprintf("memory-%d", ms.seq),
		EventName:      string(event),
		EventVersion:   "1.1",
		EventSource:    "aws:dynamodb",
		AWSRegion:      "memory",
		EventSourceArn: "arn:aws:dynamodb:memory:000000000000:table/" + ms.it.Name + "/stream/memory",
		Change: events.DynamoDBStreamRecord{
			ApproximateCreationDateTime: events.SecondsEpochTime{Time: time.Unix(now.Unix(), 0)},
			Keys:                        eventImage(k.Item(ms.it)),
			NewImage:                    eventImage(image),
			SequenceNumber:              fmt.Sprintf("%021d", ms.seq),
			StreamViewType:              string(events.DynamoDBStreamViewTypeNewImage),
		},
	})
}

// eventImage converts an item to a stream record's image; nil stays nil.
func eventImage(item ddb.Item) map[string]events.DynamoDBAttributeValue {
	if item == nil {
		return nil
	}
	out := make(map[string]events.DynamoDBAttributeValue, len(item))
	for k, v := range item {
		out[k] = eventValue(v)
	}
	return out
}

// eventValue converts an attribute value to a stream record's, as
// attributeValue converts it back; the record shares nothing with the
// backend's item.
func eventValue(v types.AttributeValue) events.DynamoDBAttributeValue {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return events.NewStringAttribute(v.Value)
	case *types.AttributeValueMemberN:
		return events.NewNumberAttribute(v.Value)
	case *types.AttributeValueMemberB:
		return events.NewBinaryAttribute(slices.Clone(v.Value))
	case *types.AttributeValueMemberBOOL:
		return events.NewBooleanAttribute(v.Value)
	case *types.AttributeValueMemberSS:
		return events.NewStringSetAttribute(slices.Clone(v.Value))
	case *types.AttributeValueMemberNS:
		return events.NewNumberSetAttribute(slices.Clone(v.Value))
	case *types.AttributeValueMemberBS:
		bs := make([][]byte, len(v.Value))
		for i, b := range v.Value {
			bs[i] = slices.Clone(b)
		}
		return events.NewBinarySetAttribute(bs)
	case *types.AttributeValueMemberL:
		l := make([]events.DynamoDBAttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = eventValue(e)
		}
		return events.NewListAttribute(l)
	case *types.AttributeValueMemberM:
		m := make(map[string]events.DynamoDBAttributeValue, len(v.Value))
		for k, e := range v.Value {
			m[k] = eventValue(e)
		}
		return events.NewMapAttribute(m)
	}
	return events.NewNullAttribute()
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
	s.stream.mu.Lock()
	defer s.stream.mu.Unlock()
	ev := events.DynamoDBEvent{Records: s.stream.records}
	s.stream.records = nil
	return ev
}
