package livecomment

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
)

// The fuzz target of issue 39 for the items livecomment reads but did not
// write; the others (Import, cursors, input) are in fuzz_test.go.

// fuzzKinds are the attributes of each layout, in the order the fuzzer's
// values fill them, with one the layout does not know.
var fuzzKinds = []struct {
	name  string
	attrs []string
}{
	{"room", []string{attrRoomID, attrName, attrHostID, attrStatus, attrCreatedAt, attrUpdatedAt, "x"}},
	{"comment", []string{attrRoomID, attrCommentID, attrContent, attrNickname, attrCreatedAt, "x"}},
	{"connection", []string{attrConnectionID, attrRoomID, attrTimestamp, "x"}},
}

// The shapes an attribute takes in a fuzzed item, by the fuzzer's byte
// (modulo their count); a missing byte means shapeS.
const (
	shapeS byte = iota
	shapeMissing
	shapeN
	shapeNULL
	shapeBOOL
	shapeB
	shapeSS
	shapeL
	shapeM
	shapeNil // only for Import: no DynamoDB read returns it
	shapes
)

// fuzzItem builds an item of kind's attributes: the i-th has shape
// shapes[i] and the value vals[i % len(vals)].
func fuzzItem(kind int, shape []byte, vals []string, withNil bool) ddb.Item {
	it := ddb.Item{}
	for i, a := range fuzzKinds[kind].attrs {
		sh := shapeS
		if i < len(shape) {
			sh = shape[i] % shapes
		}
		v := vals[i%len(vals)]
		switch sh {
		case shapeS:
			it[a] = &types.AttributeValueMemberS{Value: v}
		case shapeN:
			it[a] = &types.AttributeValueMemberN{Value: v}
		case shapeNULL:
			it[a] = &types.AttributeValueMemberNULL{Value: true}
		case shapeBOOL:
			it[a] = &types.AttributeValueMemberBOOL{Value: v != ""}
		case shapeB:
			it[a] = &types.AttributeValueMemberB{Value: []byte(v)}
		case shapeSS:
			it[a] = &types.AttributeValueMemberSS{Value: []string{v}}
		case shapeL:
			it[a] = &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: v},
				&types.AttributeValueMemberN{Value: v}, &types.AttributeValueMemberNULL{Value: true}}}
		case shapeM:
			it[a] = &types.AttributeValueMemberM{Value: ddb.Item{"v": &types.AttributeValueMemberS{Value: v}}}
		case shapeNil:
			if withNil {
				it[a] = nil
			}
		}
	}
	return it
}

// fuzzArgs is the kind and item of an item target's arguments, and
// whether they are within fuzzcheck.MaxInput.
func fuzzArgs(kind byte, shape []byte, vals []string, withNil bool) (int, ddb.Item, []string, bool) {
	n := len(shape)
	for _, v := range vals {
		n += len(v)
	}
	k := int(kind) % len(fuzzKinds)
	return k, fuzzItem(k, shape, vals, withNil), vals, n <= fuzzcheck.MaxInput
}

// addFuzzItems adds the seeds of an item target: the seed app's items
// (legacy_test.go's), in each interop shape, in f's argument order (kind,
// shapes, then six values).
func addFuzzItems(f *testing.F) {
	const room, comment = "3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c", "f47ac10b-58cc-4372-a567-0e02b2c3d479"
	seeds := []struct {
		kind byte
		vals [6]string
	}{
		{0, [6]string{room, "Go勉強会", "host-1", "OPEN", "2024-01-05T10:00:00.000Z", "2024-01-05T10:00:00.000Z"}},
		{0, [6]string{room, "LT大会", "host-1", "CLOSED", "2024-01-04T09:00:00Z", "2024-01-04T19:30:00+09:00"}},
		{0, [6]string{room, "第1回", "host-1", "OPEN", "2024-01-03T10:00:00.123456Z", ""}},
		{0, [6]string{room, "壊れた", "host-1", "OPEN", "2024-01-02T00:00:00.000Z", "yesterday"}},
		{1, [6]string{room, comment, "こんにちは", "たろう", "2024-01-05T10:01:00.000Z", ""}},
		{1, [6]string{room + "#3", comment, "日本時間", "", "2024-01-05T19:04:00+09:00", ""}},
		{1, [6]string{room, comment, "秒まで", "Anonymous", "2024-01-05T10:03:00Z", ""}},
		{1, [6]string{room, comment, "", "x", "2024-01-05t10:02:45.000z", ""}},
		{2, [6]string{"L0SM9cOFvHcCIhw=", room, "2024-01-05T10:00:30.000Z", "", "", ""}},
		{2, [6]string{"Zz9Y8x7W6v5U4t=", room, "soon", "", "", ""}},
		{2, [6]string{"a", "b", "2024-01-05T10:00:00", "", "", ""}},
		{0, [6]string{"", strings.Repeat("長", 3000), "", "", "2024-01-05T10:00:00.000+14:00", "0000-01-01T00:00:00Z"}},
	}
	for _, s := range seeds {
		for sh := range shapes {
			shape := make([]byte, 7)
			for i := range shape {
				shape[i] = sh
			}
			f.Add(s.kind, shape, s.vals[0], s.vals[1], s.vals[2], s.vals[3], s.vals[4], s.vals[5])
		}
		f.Add(s.kind, []byte{shapeS, shapeMissing, shapeN, shapeNULL, shapeL, shapeM, shapeB}, s.vals[0], s.vals[1], s.vals[2], s.vals[3], s.vals[4], s.vals[5])
	}
}

// roundTrip decodes item with dec; a value it returns, encoded with enc
// and decoded again, must be canon of it.
func roundTrip[T any](t *testing.T, name string, tb ddb.Table, item ddb.Item, dec func(ddb.Table, ddb.Item) (T, error),
	enc func(T) (ddb.Item, error), canon func(T) T) error {
	t.Helper()
	v, err := dec(tb, item)
	if err != nil {
		return err
	}
	own, err := enc(v)
	if err != nil {
		t.Fatalf("%s: %+v does not encode: %v", name, v, err)
	}
	again, err := dec(tb, own)
	if err != nil {
		t.Fatalf("%s: %+v encodes to %v, which decodes with error %v", name, v, own, err)
	}
	if want := canon(v); !reflect.DeepEqual(again, want) {
		t.Fatalf("%s: decoded %+v, which writes an item that decodes to %+v", name, want, again)
	}
	return nil
}

// FuzzDecodeItem decodes a raw item of each table. A decoder returns a
// value or ErrCorruptItem with a bounded error; a value encodes to the
// item the stores write for it, which decodes to the same value, up to
// the millisecond the stores write times to.
func FuzzDecodeItem(f *testing.F) {
	addFuzzItems(f)
	tb := newTables("fuzz", nil, false)
	ms := func(t time.Time) time.Time { return t.Truncate(time.Millisecond) }
	f.Fuzz(func(t *testing.T, kind byte, shape []byte, v0, v1, v2, v3, v4, v5 string) {
		k, item, vals, ok := fuzzArgs(kind, shape, []string{v0, v1, v2, v3, v4, v5}, false)
		if !ok {
			return
		}
		name := fuzzKinds[k].name
		var err error
		switch k {
		case 0:
			err = roundTrip(t, name, tb.rooms, item, decodeRoom, marshalRoom,
				func(r Room) Room { r.CreatedAt, r.UpdatedAt = ms(r.CreatedAt), ms(r.UpdatedAt); return r })
		case 1:
			err = roundTrip(t, name, tb.comments, item, decodeComment, func(c Comment) (ddb.Item, error) { return marshalComment(c, c.RoomID) },
				func(c Comment) Comment { c.CreatedAt = ms(c.CreatedAt); return c })
		case 2:
			err = roundTrip(t, name, tb.connections, item, decodeConnection, marshalConnection,
				func(c Connection) Connection { c.JoinedAt = ms(c.JoinedAt); return c })
		}
		if err != nil {
			if !errors.Is(err, ddbkit.ErrCorruptItem) {
				t.Fatalf("%s: decode error %v, want ErrCorruptItem", name, err)
			}
			fuzzcheck.Bounded(t, err, vals)
		}
	})
}

// FuzzImport imports one raw item of each table, a nil attribute value
// among its shapes. Import either fails with ErrCorruptItem, bounded, and
// leaves the store as it was, or keeps the item exactly as given; a get
// then returns what the decoder reads from it.
func FuzzImport(f *testing.F) {
	addFuzzItems(f)
	f.Add(byte(0), []byte{shapeS, shapeNil}, "r", "n", "h", "OPEN", "2024-01-05T10:00:00.000Z", "")
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, kind byte, shape []byte, v0, v1, v2, v3, v4, v5 string) {
		k, item, vals, ok := fuzzArgs(kind, shape, []string{v0, v1, v2, v3, v4, v5}, true)
		if !ok {
			return
		}
		s := NewMemoryStore(func(o *Options) { o.Env = "fuzz" })
		name := []string{s.t.rooms.Name, s.t.comments.Name, s.t.connections.Name}[k]
		before := s.Export()
		err := s.Import(ddbkit.TableItems{name: {item}})
		if err != nil {
			if !errors.Is(err, ddbkit.ErrCorruptItem) {
				t.Fatalf("Import error %v, want ErrCorruptItem", err)
			}
			fuzzcheck.Bounded(t, err, vals)
			if after := s.Export(); !reflect.DeepEqual(after, before) {
				t.Fatalf("a failed Import changed the store: %v", after)
			}
			return
		}
		if got := s.Export()[name]; len(got) != 1 || !reflect.DeepEqual(got[0], item) {
			t.Fatalf("Import kept %v, want the item as given: %v", got, item)
		}
		var got, want any
		var gerr error
		switch k {
		case 0:
			want, _ = decodeRoom(s.t.rooms, item)
			got, gerr = s.GetRoom(ctx, want.(Room).ID)
		case 2:
			want, _ = decodeConnection(s.t.connections, item)
			got, gerr = s.GetConnection(ctx, want.(Connection).ID)
		default:
			return
		}
		if errors.Is(gerr, ddbkit.ErrInvalidArgument) {
			return // a key no caller can ask for
		}
		if gerr != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("get of the imported item = %+v, %v; want %+v", got, gerr, want)
		}
	})
}
