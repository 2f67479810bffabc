package backend

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Stream emulates a DynamoDB stream of new images (StreamViewType
// NEW_IMAGE) on one table of a Memory backend, in the form a Lambda
// receives it (events.DynamoDBEvent), for unit tests of a stream's
// consumer. Each record is appended as the backend commits the write
// (Memory.OnWrite): an INSERT or MODIFY with the new image, a REMOVE with
// the keys only. Import is not recorded, and neither is a transaction
// replayed under a ClientRequestToken, which writes nothing, as on
// DynamoDB.
//
// A record's ApproximateCreationDateTime is the store's last reading of
// its clock (Stream.Now), whoever read it (an operation, or the backend
// for a token or TTL), so that the stream reads the clock no more often
// than a DynamoDB store does: with a stepping clock, both stores stamp
// the same items with the same times. It is safe for concurrent use.
type Stream struct {
	t     ddb.Table
	clock func() time.Time
	last  atomic.Pointer[time.Time]

	mu      sync.Mutex // guards:
	records []events.DynamoDBEventRecord
	seq     int64
}

// NewStream returns t's stream, stamped by clock (not nil). Give the
// store's operations and its backend s.Now as their clock, and
// Memory.OnWrite s.Wrote.
func NewStream(t ddb.Table, clock func() time.Time) *Stream {
	return &Stream{t: t, clock: clock}
}

// Now reads the clock and keeps the reading for the next record.
func (s *Stream) Now() time.Time {
	v := s.clock()
	s.last.Store(&v)
	return v
}

// Wrote records a write of item old into new on table (see Memory.OnWrite);
// it ignores other tables.
func (s *Stream) Wrote(table string, old, new ddb.Item) {
	if table != s.t.Name {
		return
	}
	var now time.Time
	if p := s.last.Load(); p != nil {
		now = *p
	} else {
		now = s.Now()
	}
	switch {
	case old == nil && new != nil:
		s.record(events.DynamoDBOperationTypeInsert, KeyOf(s.t, new), new, now)
	case new != nil:
		s.record(events.DynamoDBOperationTypeModify, KeyOf(s.t, new), new, now)
	case old != nil:
		s.record(events.DynamoDBOperationTypeRemove, KeyOf(s.t, old), nil, now)
	}
}

func (s *Stream) record(event events.DynamoDBOperationType, k Key, image ddb.Item, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	s.records = append(s.records, events.DynamoDBEventRecord{
		EventID:        fmt.Sprintf("memory-%d", s.seq),
		EventName:      string(event),
		EventVersion:   "1.1",
		EventSource:    "aws:dynamodb",
		AWSRegion:      "memory",
		EventSourceArn: "arn:aws:dynamodb:memory:000000000000:table/" + s.t.Name + "/stream/memory",
		Change: events.DynamoDBStreamRecord{
			ApproximateCreationDateTime: events.SecondsEpochTime{Time: time.Unix(now.Unix(), 0)},
			Keys:                        EventImage(k.Item(s.t)),
			NewImage:                    EventImage(image),
			SequenceNumber:              fmt.Sprintf("%021d", s.seq),
			StreamViewType:              string(events.DynamoDBStreamViewTypeNewImage),
		},
	})
}

// Take returns the records since the last call, in commit order, and
// forgets them: they wait in memory until taken.
func (s *Stream) Take() events.DynamoDBEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	ev := events.DynamoDBEvent{Records: s.records}
	s.records = nil
	return ev
}

// EventImage converts an item to a stream record's image, copying it; nil
// stays nil. Tests build stream records of items with it too.
func EventImage(item ddb.Item) map[string]events.DynamoDBAttributeValue {
	if item == nil {
		return nil
	}
	out := make(map[string]events.DynamoDBAttributeValue, len(item))
	for k, v := range item {
		out[k] = eventValue(v)
	}
	return out
}

// eventValue converts an attribute value to a stream record's, copying
// it: a record shares nothing with the backend's item.
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
