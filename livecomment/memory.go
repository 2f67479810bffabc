package livecomment

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
	"github.com/ddbkit/ddbkit/keys"
)

// MemoryStore is an in-memory Store for tests. It keeps each table's items
// as DynamoStore writes them (see Export and Import), and each index in a
// memtable under the same key values DynamoDB's index holds, and pages with
// the same cursors, so it returns the same results, errors,
// order and page boundaries (up to the order of ties that DynamoDB leaves
// undocumented: the connections of a room, which roomId-index does not
// sort, and the index entries of equal sort key, which a store never writes
// itself; see the package documentation). The shared conformance suite
// (package livecommenttest) holds both to that. It honours contexts as
// DynamoStore does: under a cancelled or expired context it writes nothing
// and fails with ErrUnavailable. It emulates the ClientRequestToken of
// DynamoStore's transactions (CreateRoom, PostComment, JoinRoom) for
// callers' idempotency keys, scoped as DynamoStore scopes them. It is safe for concurrent use: one lock makes every
// operation atomic, and operations read the clock under it, so their
// timestamps follow the order in which they took effect.
type MemoryStore struct {
	o     Options
	t     tables
	stamp *stamper

	mu sync.RWMutex
	// The tables hold each item as stored, for Export and for updates that
	// keep the attributes they do not set, with its decoded value.
	rooms       map[string]record[Room]
	comments    map[commentKey]record[Comment]
	connections map[string]record[Connection]
	// The indexes, keyed by the stored strings as DynamoDB's are.
	hostRooms *memtable.Table[Room]       // hostId-index
	roomTime  *memtable.Table[Comment]    // roomId-createdAt-index
	roomConns *memtable.Table[Connection] // roomId-index
	tokens    memtable.Tokens
}

// record is one stored item and its decoded value.
type record[T any] struct {
	v    T
	item ddb.Item
}

type commentKey struct{ room, id string }

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	return &MemoryStore{o: o, t: newTables(o.Env, o.CursorSecret), stamp: newStamper(o.Clock),
		rooms: make(map[string]record[Room]), comments: make(map[commentKey]record[Comment]),
		connections: make(map[string]record[Connection]),
		hostRooms:   memtable.New[Room](), roomTime: memtable.New[Comment](), roomConns: memtable.New[Connection]()}
}

// The index entries of an item, which DynamoDB keeps in step with it: the
// index key's stored strings (not the decoded values: another writer's
// "2024-01-05T19:00:00+09:00" sorts as that string), and no entry for an
// item without them.

func (s *MemoryStore) hostRoomsEntry(item ddb.Item) (pk, sk string, key ddb.Item, ok bool) {
	vs, ok := indexKey(item, attrHostID, attrCreatedAt)
	if !ok {
		return "", "", nil, false
	}
	return vs[0], vs[1], ddb.Item{attrRoomID: item[attrRoomID], attrHostID: ddb.S(vs[0]), attrCreatedAt: ddb.S(vs[1])}, true
}

func (s *MemoryStore) roomTimeEntry(item ddb.Item) (pk, sk string, key ddb.Item, ok bool) {
	vs, ok := indexKey(item, attrRoomID, attrCreatedAt)
	if !ok {
		return "", "", nil, false
	}
	return vs[0], vs[1], ddb.Item{attrRoomID: ddb.S(vs[0]), attrCommentID: item[attrCommentID], attrCreatedAt: ddb.S(vs[1])}, true
}

func (s *MemoryStore) roomConnsEntry(item ddb.Item) (pk, sk string, key ddb.Item, ok bool) {
	vs, ok := indexKey(item, attrRoomID)
	if !ok {
		return "", "", nil, false
	}
	return vs[0], "", ddb.Item{attrConnectionID: item[attrConnectionID], attrRoomID: ddb.S(vs[0])}, true
}

// putRoom stores r, replacing the room of its key, and its index entry.
func (s *MemoryStore) putRoom(r record[Room]) {
	if old, ok := s.rooms[r.v.ID]; ok {
		if pk, sk, key, ok := s.hostRoomsEntry(old.item); ok {
			s.hostRooms.Delete(pk, sk, key)
		}
	}
	s.rooms[r.v.ID] = r
	if pk, sk, key, ok := s.hostRoomsEntry(r.item); ok {
		s.hostRooms.Put(pk, sk, key, r.v)
	}
}

func (s *MemoryStore) putComment(c record[Comment]) {
	k := commentKey{c.v.RoomID, c.v.ID}
	if old, ok := s.comments[k]; ok {
		if pk, sk, key, ok := s.roomTimeEntry(old.item); ok {
			s.roomTime.Delete(pk, sk, key)
		}
	}
	s.comments[k] = c
	if pk, sk, key, ok := s.roomTimeEntry(c.item); ok {
		s.roomTime.Put(pk, sk, key, c.v)
	}
}

func (s *MemoryStore) putConnection(c record[Connection]) {
	s.deleteConnection(c.v.ID)
	s.connections[c.v.ID] = c
	if pk, sk, key, ok := s.roomConnsEntry(c.item); ok {
		s.roomConns.Put(pk, sk, key, c.v)
	}
}

func (s *MemoryStore) deleteConnection(id string) {
	old, ok := s.connections[id]
	if !ok {
		return
	}
	delete(s.connections, id)
	if pk, sk, key, ok := s.roomConnsEntry(old.item); ok {
		s.roomConns.Delete(pk, sk, key)
	}
}

// openRoom reports a missing or closed room, as DynamoStore decodes its
// room check.
func (s *MemoryStore) openRoom(roomID string) error {
	r, ok := s.rooms[roomID]
	switch {
	case !ok:
		return errRoomNotFound(roomID)
	case r.v.Status != RoomOpen:
		return errRoomClosed(roomID)
	}
	return nil
}

// transact runs write, the memory twin of one of DynamoStore's
// transactions (CreateRoom's PutNew included), which puts item, under the
// token the caller's idempotency key gives in scope (ddbkit.RequestToken,
// with the table, operation and partition of DynamoStore's token), as
// DynamoDB treats a ClientRequestToken: the same item already committed
// under the token within the window is not written again, and the call
// succeeds; another item under it fails with ErrConflict; a write that
// fails leaves the token free. (The item describes the whole transaction:
// a room check is on the item's roomId.) Without a key nothing is
// recorded, since DynamoStore's random tokens never repeat: nothing is
// ever taken for a call's own earlier write. The caller holds s.mu.
func (s *MemoryStore) transact(ctx context.Context, scope ddb.Scope, item ddb.Item, write func() error) error {
	token, keyed := ddbkit.RequestToken(ctx, scope.Table, scope.Op, scope.Partition)
	if !keyed {
		return write()
	}
	writes := renderWrite(item)
	// DynamoDB's window is in real time, whatever the store's clock.
	replay, err := s.tokens.Check(token, writes, time.Now())
	if err != nil || replay {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	s.tokens.Commit(token, writes, time.Now())
	return nil
}

// CreateRoom implements RoomStore.CreateRoom, which documents its errors.
// A room already under the new ID is ErrAlreadyExists, whatever it holds,
// unless the same scoped idempotency key replays the very same write, as
// DynamoStore's PutNew answers.
func (s *MemoryStore) CreateRoom(ctx context.Context, in NewRoom) (Room, error) {
	const op = "create room"
	if err := checkRoom(op, in); err != nil {
		return Room{}, err
	}
	if err := ctx.Err(); err != nil {
		return Room{}, wrap(op, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.o.newRoom(in, s.stamp.now())
	item, err := roomToWrite(op, r)
	if err != nil {
		return Room{}, err
	}
	err = s.transact(ctx, s.t.roomScope(op, in.HostID), item, func() error {
		if _, ok := s.rooms[r.ID]; ok {
			return errRoomExists(r.ID)
		}
		s.putRoom(record[Room]{r, item})
		return nil
	})
	if err != nil {
		return Room{}, wrap(op, err)
	}
	return r, nil
}

// GetRoom implements RoomReader.GetRoom, which documents its errors.
func (s *MemoryStore) GetRoom(ctx context.Context, roomID string) (Room, error) {
	const op = "get room"
	if err := checkID(op, "RoomID", roomID); err != nil {
		return Room{}, err
	}
	if err := ctx.Err(); err != nil {
		return Room{}, wrap(op, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.rooms[roomID]
	if !ok {
		return Room{}, wrap(op, errRoomNotFound(roomID))
	}
	return r.v, nil
}

// ListHostRooms implements RoomReader.ListHostRooms, which documents its errors.
func (s *MemoryStore) ListHostRooms(ctx context.Context, hostID string, opts ddbkit.PageOptions) (ddbkit.Page[Room], error) {
	return memList(ctx, s, "list host rooms", "HostID", hostID, opts, s.hostRooms, s.t.hostRoomsQuery)
}

// CloseRoom implements RoomStore.CloseRoom, which documents its errors.
func (s *MemoryStore) CloseRoom(ctx context.Context, roomID string) (Room, error) {
	const op = "close room"
	if err := checkID(op, "RoomID", roomID); err != nil {
		return Room{}, err
	}
	if err := ctx.Err(); err != nil {
		return Room{}, wrap(op, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Stamped whatever the room's state, as DynamoStore stamps before its
	// write, so a shared test clock stays in step.
	now := s.stamp.now()
	if err := checkStamp(op, now); err != nil {
		return Room{}, err
	}
	r, ok := s.rooms[roomID]
	switch {
	case !ok:
		return Room{}, wrap(op, errRoomNotFound(roomID))
	case r.v.Status != RoomOpen:
		return r.v, nil
	}
	// DynamoStore's UpdateItem sets two attributes and keeps the others as
	// stored, whoever wrote them; it returns the new item, decoded.
	item := ddb.CloneItem(r.item)
	item[attrStatus], item[attrUpdatedAt] = ddb.S(string(RoomClosed)), ddb.S(keys.Timestamp(now))
	// DynamoDB refuses an update that takes an item (another writer's,
	// imported) past 400 KB.
	if err := ddb.CheckItemSize(item, "RoomID", 0); err != nil {
		return Room{}, wrap(op, err)
	}
	closed, err := s.t.decodeRoom(item)
	if err != nil {
		return Room{}, wrap(op, err)
	}
	s.putRoom(record[Room]{closed, item})
	return closed, nil
}

// PostComment implements CommentStore.PostComment, which documents its errors.
func (s *MemoryStore) PostComment(ctx context.Context, roomID string, in NewComment) (Comment, error) {
	const op = "post comment"
	in, err := checkComment(op, roomID, in)
	if err != nil {
		return Comment{}, err
	}
	if err := ctx.Err(); err != nil {
		return Comment{}, wrap(op, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Stamped under the lock, so a comment is never newer than a close
	// that locked out after it; stamped before the checks, as DynamoStore
	// stamps before its transaction, so a shared test clock stays in step.
	c := s.o.newComment(roomID, in, s.stamp)
	item, err := commentToWrite(op, c)
	if err != nil {
		return Comment{}, err
	}
	err = s.transact(ctx, s.t.commentScope(op, roomID), item, func() error {
		if err := s.openRoom(roomID); err != nil {
			return err
		}
		if _, ok := s.comments[commentKey{roomID, c.ID}]; ok {
			return errCommentExists(roomID, c.ID)
		}
		s.putComment(record[Comment]{c, item})
		return nil
	})
	if err != nil {
		return Comment{}, wrap(op, err)
	}
	return c, nil
}

// ListComments implements CommentReader.ListComments, which documents its errors.
func (s *MemoryStore) ListComments(ctx context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Comment], error) {
	return memList(ctx, s, "list comments", "RoomID", roomID, opts, s.roomTime, s.t.commentsQuery)
}

// JoinRoom implements ConnectionStore.JoinRoom, which documents its errors.
func (s *MemoryStore) JoinRoom(ctx context.Context, roomID, connectionID string) (Connection, error) {
	const op = "join room"
	if err := checkJoin(op, roomID, connectionID); err != nil {
		return Connection{}, err
	}
	if err := ctx.Err(); err != nil {
		return Connection{}, wrap(op, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := Connection{ID: connectionID, RoomID: roomID, JoinedAt: s.stamp.now()}
	item, err := connectionToWrite(op, c)
	if err != nil {
		return Connection{}, err
	}
	err = s.transact(ctx, s.t.connectionScope(op, connectionID), item, func() error {
		if err := s.openRoom(roomID); err != nil {
			return err
		}
		s.putConnection(record[Connection]{c, item}) // it may move to another room
		return nil
	})
	if err != nil {
		return Connection{}, wrap(op, err)
	}
	return c, nil
}

// GetConnection implements ConnectionReader.GetConnection, which documents its errors.
func (s *MemoryStore) GetConnection(ctx context.Context, connectionID string) (Connection, error) {
	const op = "get connection"
	if err := checkID(op, "ConnectionID", connectionID); err != nil {
		return Connection{}, err
	}
	if err := ctx.Err(); err != nil {
		return Connection{}, wrap(op, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.connections[connectionID]
	if !ok {
		return Connection{}, wrap(op, errConnectionNotFound(connectionID))
	}
	return c.v, nil
}

// Disconnect implements ConnectionStore.Disconnect, which documents its errors.
func (s *MemoryStore) Disconnect(ctx context.Context, connectionID string) error {
	const op = "disconnect"
	if err := checkID(op, "ConnectionID", connectionID); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return wrap(op, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deleteConnection(connectionID)
	return nil
}

// ListConnections implements ConnectionLister.ListConnections, which documents its errors.
func (s *MemoryStore) ListConnections(ctx context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Connection], error) {
	return memList(ctx, s, "list connections", "RoomID", roomID, opts, s.roomConns, s.t.connectionsQuery)
}

// renderWrite describes an item a transaction puts, exactly, for
// memtable.Tokens: its attributes in name order, each with its type and
// value.
func renderWrite(item ddb.Item) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(item)) {
		fmt.Fprintf(&b, "%q=%q ", name, ddb.AttrString(item[name]))
	}
	return b.String()
}

// memList runs one page of a listing of the partition id on a memory table,
// with the validation, order and cursors of DynamoStore's list.
func memList[T any](ctx context.Context, s *MemoryStore, op, field, id string, opts ddbkit.PageOptions, tbl *memtable.Table[T], query func(string) ddb.KeyQuery) (ddbkit.Page[T], error) {
	limit, err := listPrologue(op, field, id, opts)
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	if err := ctx.Err(); err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	items, next, err := tbl.Query(query(id), limit, opts.Cursor, nil)
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	if items == nil {
		items = []T{}
	}
	return ddbkit.Page[T]{Items: items, Next: next}, nil
}

// listPrologue validates a listing's partition and page size, for both
// stores.
func listPrologue(op, field, id string, opts ddbkit.PageOptions) (int, error) {
	if err := checkID(op, field, id); err != nil {
		return 0, err
	}
	limit, err := opts.EffectiveLimit()
	return limit, wrap(op, err)
}
