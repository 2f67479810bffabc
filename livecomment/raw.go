package livecomment

import (
	"maps"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// The items of the three tables, as both stores write and read them: the
// shared operations (store.go) build and decode them for both stores, and
// the memory store exports them and decodes what it imports with the same
// functions, so the two layouts cannot drift apart.

// The item layouts, attribute for attribute as the seed gives them.
type roomItem struct {
	RoomID    string `dynamodbav:"roomId"`
	Name      string `dynamodbav:"name"`
	HostID    string `dynamodbav:"hostId"`
	Status    string `dynamodbav:"status"`
	CreatedAt string `dynamodbav:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

type commentItem struct {
	RoomID    string `dynamodbav:"roomId"`
	CommentID string `dynamodbav:"commentId"`
	Content   string `dynamodbav:"content"`
	Nickname  string `dynamodbav:"nickname"`
	CreatedAt string `dynamodbav:"createdAt"`
}

type connectionItem struct {
	ConnectionID string `dynamodbav:"connectionId"`
	RoomID       string `dynamodbav:"roomId"`
	Timestamp    string `dynamodbav:"timestamp"`
}

// One codec per layout, planned once and held to Planned by a test: a
// write's item and a listing's decoding are most of the CPU a store adds to
// the SDK's own (issue 15). Every attribute is written as a String, empty
// ones included, as the seed writes them.
var (
	roomCodec       = ddb.NewCodec[roomItem]()
	commentCodec    = ddb.NewCodec[commentItem]()
	connectionCodec = ddb.NewCodec[connectionItem]()
)

func marshalRoom(r Room) (ddb.Item, error) {
	return roomCodec.Encode(&roomItem{RoomID: r.ID, Name: r.Name, HostID: r.HostID, Status: string(r.Status),
		CreatedAt: keys.Timestamp(r.CreatedAt), UpdatedAt: keys.Timestamp(r.UpdatedAt)})
}

// marshalComment encodes c stored under the partition pk: its room's ID,
// or its shard's (CommentPartition).
func marshalComment(c Comment, pk string) (ddb.Item, error) {
	return commentCodec.Encode(&commentItem{RoomID: pk, CommentID: c.ID, Content: c.Content,
		Nickname: c.Nickname, CreatedAt: keys.Timestamp(c.CreatedAt)})
}

func marshalConnection(c Connection) (ddb.Item, error) {
	return connectionCodec.Encode(&connectionItem{ConnectionID: c.ID, RoomID: c.RoomID, Timestamp: keys.Timestamp(c.JoinedAt)})
}

// Reads are lenient: they accept what any writer of the seed's layout may
// have stored (see "Other writers" in the package documentation). A missing
// or NULL attribute reads as its zero value, a Number as its text, a missing
// or empty nickname as DefaultNickname, a timestamp in any ISO 8601 form.
// What cannot be read at all (an attribute of another type, a timestamp that
// is no time) is a *ddbkit.CorruptItemError naming the table, key and
// attribute.

func decodeRoom(t ddb.Table, item ddb.Item) (Room, error) {
	var it roomItem
	if err := roomCodec.Decode(t, item, &it); err != nil {
		return Room{}, err
	}
	created, err := readTime(t, item, attrCreatedAt, it.CreatedAt)
	if err != nil {
		return Room{}, err
	}
	updated, err := readTime(t, item, attrUpdatedAt, it.UpdatedAt)
	return Room{ID: it.RoomID, Name: it.Name, HostID: it.HostID, Status: RoomStatus(it.Status), CreatedAt: created,
		UpdatedAt: updated}, err
}

func decodeComment(t ddb.Table, item ddb.Item) (Comment, error) {
	var it commentItem
	if err := commentCodec.Decode(t, item, &it); err != nil {
		return Comment{}, err
	}
	created, err := readTime(t, item, attrCreatedAt, it.CreatedAt)
	if it.Nickname == "" {
		it.Nickname = DefaultNickname
	}
	// A sharded comment's roomId holds its shard too.
	return Comment{RoomID: roomOfPartition(it.RoomID), ID: it.CommentID, Content: it.Content, Nickname: it.Nickname, CreatedAt: created}, err
}

func decodeConnection(t ddb.Table, item ddb.Item) (Connection, error) {
	var it connectionItem
	if err := connectionCodec.Decode(t, item, &it); err != nil {
		return Connection{}, err
	}
	joined, err := readTime(t, item, attrTimestamp, it.Timestamp)
	return Connection{ID: it.ConnectionID, RoomID: it.RoomID, JoinedAt: joined}, err
}

// The decoders of the items the stores read (see backend.Decoder): a
// memory store decodes each item it holds once.
var (
	roomDecoder       = backend.NewDecoder(decodeRoom, nil)
	commentDecoder    = backend.NewDecoder(decodeComment, nil)
	connectionDecoder = backend.NewDecoder(decodeConnection, nil)
)

// readTime reads a stored timestamp: any ISO 8601 date and time, in UTC;
// the zero time when the attribute is missing or empty. A time whose UTC
// year is outside 0000-9999 (0000-01-01T00:00:00+01:00 is in year -1) is
// corrupt: keys.Timestamp could not write it back in a form any reader
// parses, and no writer's clock made it.
func readTime(t ddb.Table, item ddb.Item, attr, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	v, err := keys.ParseTime(s)
	if err != nil {
		return time.Time{}, ddb.Corrupt(t, item, attr, "%q is not an ISO 8601 date and time", s)
	}
	if y := v.Year(); y < 0 || y > 9999 {
		return time.Time{}, ddb.Corrupt(t, item, attr, "%q is in year %d in UTC, outside 0000-9999", s, y)
	}
	return v, nil
}

// checkRaw reports an item of the table named name that no DynamoDB table
// could hold: a nil attribute value anywhere, or over 400 KB. It runs
// before anything else touches the item (copying a nil value would panic).
// A table the store does not have is left to Import's own error.
func (s *MemoryStore) checkRaw(name string, item ddb.Item) error {
	var t ddb.Table
	switch name {
	case s.t.rooms.Name:
		t = s.t.rooms
	case s.t.comments.Name:
		t = s.t.comments
	case s.t.connections.Name:
		t = s.t.connections
	default:
		return nil
	}
	if err := ddb.CheckAttrs(t, item); err != nil {
		return err
	}
	if n := ddb.ItemSize(item); n > ddb.MaxItemSize {
		return ddb.Corrupt(t, item, largest(item), "the item is %d bytes, over DynamoDB's limit of %d", n, ddb.MaxItemSize)
	}
	return nil
}

// largest is the name of item's largest attribute.
func largest(item ddb.Item) string {
	name, size := "", -1
	for _, n := range slices.Sorted(maps.Keys(item)) {
		if z := ddb.ItemSize(ddb.Item{n: item[n]}); z > size {
			name, size = n, z
		}
	}
	return name
}

// checkKey reports an item whose primary key DynamoDB could not hold: each
// key attribute of t must be a non-empty String.
func checkKey(t ddb.Table, item ddb.Item) error {
	for _, a := range []string{t.PartitionKey, t.SortKey} {
		if a == "" {
			continue
		}
		if s, ok := item[a].(*types.AttributeValueMemberS); !ok || s.Value == "" {
			return ddb.Corrupt(t, item, a, "a key attribute must be a non-empty String")
		}
	}
	return nil
}

// Export returns every item the store holds in DynamoDB's attribute-value
// form, exactly as DynamoStore writes them (and as Import received those it
// imported), by table name (the three tables of Options.Env, each present),
// each table's items in key order: by partition key, then sort key, byte by
// byte. The items are copies.
func (s *MemoryStore) Export() ddbkit.TableItems {
	out := ddbkit.TableItems{}
	for _, t := range []ddb.Table{s.t.rooms, s.t.comments, s.t.connections} {
		out[t.Name] = s.m.Export(t.Name)
	}
	return out
}

// Import adds items to the store, in the seed's layout as the seed's app,
// another program or DynamoStore writes them (items a Scan of the real
// tables returned, say), by table name: the three tables of Options.Env.
// It decodes them as leniently as DynamoStore reads them, and keeps them as
// they are, so that Export returns them unchanged and listings order them
// by their stored strings as DynamoDB's indexes do. An item whose key
// exists replaces it, as PutItem would.
//
// It fails with ErrInvalidArgument for a table the store does not have, and
// with ErrCorruptItem (a *ddbkit.CorruptItemError naming table, key and
// attribute) for an item DynamoStore could not read either, whose key
// DynamoDB could not hold, that holds a nil attribute value anywhere (at
// the top or nested; nothing could encode it), or that is over DynamoDB's
// 400 KB; then it imports nothing.
func (s *MemoryStore) Import(items ddbkit.TableItems) error {
	const op = "import"
	names := slices.Sorted(maps.Keys(items))
	for _, name := range names {
		for _, raw := range items[name] {
			if err := s.checkRaw(name, raw); err != nil {
				return wrap(op, err)
			}
			var err error
			switch name {
			case s.t.rooms.Name:
				if err = checkKey(s.t.rooms, raw); err == nil {
					_, err = decodeRoom(s.t.rooms, raw)
				}
			case s.t.comments.Name:
				if err = checkKey(s.t.comments, raw); err == nil {
					_, err = decodeComment(s.t.comments, raw)
				}
			case s.t.connections.Name:
				if err = checkKey(s.t.connections, raw); err == nil {
					_, err = decodeConnection(s.t.connections, raw)
				}
			default:
				err = ddbkit.Invalid("table", "%q is not one of the store's tables (%s, %s, %s)",
					name, s.t.rooms.Name, s.t.comments.Name, s.t.connections.Name)
			}
			if err != nil {
				return wrap(op, err)
			}
		}
	}
	// Every item is checked: the backend stores copies, and cannot fail
	// for a table the store has.
	for _, name := range names {
		if err := s.m.Import(name, items[name]); err != nil {
			return wrap(op, err)
		}
	}
	return nil
}
