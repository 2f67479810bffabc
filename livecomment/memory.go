package livecomment

import (
	"context"
	"sync"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
	"github.com/ddbkit/ddbkit/keys"
)

// MemoryStore is an in-memory Store for tests. It keeps each table and each
// index in a memtable under the same key values the DynamoDB store writes,
// and pages with the same cursors, so it returns the same results, errors,
// order and page boundaries (up to the order of ties that DynamoDB leaves
// undocumented: rooms of one host created in the same millisecond, and the
// connections of a room, which the index does not sort). The shared
// conformance suite (package livecommenttest) holds both to that. It is safe
// for concurrent use: one lock makes every operation atomic, and posts,
// joins and closes read the clock under it, so their timestamps follow the
// order in which they took effect.
type MemoryStore struct {
	o Options
	t tables

	mu          sync.RWMutex
	rooms       *memtable.Table[Room]
	hostRooms   *memtable.Table[Room] // hostId-index
	comments    *memtable.Table[Comment]
	connections *memtable.Table[Connection]
	roomConns   *memtable.Table[Connection] // roomId-index
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	return &MemoryStore{o: o, t: newTables(o.Env),
		rooms: memtable.New[Room](), hostRooms: memtable.New[Room](), comments: memtable.New[Comment](),
		connections: memtable.New[Connection](), roomConns: memtable.New[Connection]()}
}

// putRoom writes r to the table and its index entry, which DynamoDB keeps
// in step with the item.
func (s *MemoryStore) putRoom(r Room) {
	s.rooms.Put(r.ID, "", s.t.roomKey(r.ID), r)
	created := keys.Timestamp(r.CreatedAt)
	s.hostRooms.Put(r.HostID, created, ddb.Item{attrRoomID: ddb.S(r.ID), attrHostID: ddb.S(r.HostID), attrCreatedAt: ddb.S(created)}, r)
}

func (s *MemoryStore) putConnection(c Connection) {
	s.connections.Put(c.ID, "", s.t.connectionKey(c.ID), c)
	s.roomConns.Put(c.RoomID, "", connIndexKey(c), c)
}

func (s *MemoryStore) deleteConnection(c Connection) {
	s.connections.Delete(c.ID, "", s.t.connectionKey(c.ID))
	s.roomConns.Delete(c.RoomID, "", connIndexKey(c))
}

func connIndexKey(c Connection) ddb.Item {
	return ddb.Item{attrConnectionID: ddb.S(c.ID), attrRoomID: ddb.S(c.RoomID)}
}

// openRoom reports a missing or closed room, as DynamoStore decodes its
// room check.
func (s *MemoryStore) openRoom(roomID string) error {
	r, ok := s.rooms.Get(roomID, "")
	switch {
	case !ok:
		return errRoomNotFound(roomID)
	case r.Status != RoomOpen:
		return errRoomClosed(roomID)
	}
	return nil
}

// CreateRoom implements RoomStore.CreateRoom, which documents its errors.
func (s *MemoryStore) CreateRoom(_ context.Context, in NewRoom) (Room, error) {
	const op = "create room"
	r, err := s.o.newRoom(op, in)
	if err != nil {
		return Room{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.rooms.Get(r.ID, ""); ok {
		return Room{}, wrap(op, errRoomExists(r.ID))
	}
	s.putRoom(r)
	return r, nil
}

// GetRoom implements RoomReader.GetRoom, which documents its errors.
func (s *MemoryStore) GetRoom(_ context.Context, roomID string) (Room, error) {
	const op = "get room"
	if err := checkID(op, "RoomID", roomID); err != nil {
		return Room{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.rooms.Get(roomID, "")
	if !ok {
		return Room{}, wrap(op, errRoomNotFound(roomID))
	}
	return r, nil
}

// ListHostRooms implements RoomReader.ListHostRooms, which documents its errors.
func (s *MemoryStore) ListHostRooms(_ context.Context, hostID string, opts ddbkit.PageOptions) (ddbkit.Page[Room], error) {
	return memList(s, "list host rooms", "HostID", hostID, opts, s.hostRooms, s.t.hostRoomsQuery)
}

// CloseRoom implements RoomStore.CloseRoom, which documents its errors.
func (s *MemoryStore) CloseRoom(_ context.Context, roomID string) (Room, error) {
	const op = "close room"
	if err := checkID(op, "RoomID", roomID); err != nil {
		return Room{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rooms.Get(roomID, "")
	if !ok {
		return Room{}, wrap(op, errRoomNotFound(roomID))
	}
	if r.Status == RoomClosed {
		return r, nil
	}
	r.Status, r.UpdatedAt = RoomClosed, s.o.now()
	s.putRoom(r)
	return r, nil
}

// PostComment implements CommentStore.PostComment, which documents its errors.
func (s *MemoryStore) PostComment(_ context.Context, roomID string, in NewComment) (Comment, error) {
	const op = "post comment"
	in, err := checkComment(op, roomID, in)
	if err != nil {
		return Comment{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Stamped under the lock, so a comment is never newer than a close
	// that locked out after it; stamped before the checks, as DynamoStore
	// stamps before its transaction, so a shared test clock stays in step.
	c := s.o.stampComment(roomID, in)
	if err := s.openRoom(roomID); err != nil {
		return Comment{}, wrap(op, err)
	}
	if _, ok := s.comments.Get(roomID, c.ID); ok {
		return Comment{}, wrap(op, errCommentExists(roomID, c.ID))
	}
	s.comments.Put(roomID, c.ID, s.t.comments.Key(roomID, c.ID), c)
	return c, nil
}

// ListComments implements CommentReader.ListComments, which documents its errors.
func (s *MemoryStore) ListComments(_ context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Comment], error) {
	return memList(s, "list comments", "RoomID", roomID, opts, s.comments, s.t.commentsQuery)
}

// JoinRoom implements ConnectionStore.JoinRoom, which documents its errors.
func (s *MemoryStore) JoinRoom(_ context.Context, roomID, connectionID string) (Connection, error) {
	const op = "join room"
	if err := checkJoin(op, roomID, connectionID); err != nil {
		return Connection{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := Connection{ID: connectionID, RoomID: roomID, JoinedAt: s.o.now()}
	if err := s.openRoom(roomID); err != nil {
		return Connection{}, wrap(op, err)
	}
	if old, ok := s.connections.Get(connectionID, ""); ok {
		s.deleteConnection(old) // it may move to another room
	}
	s.putConnection(c)
	return c, nil
}

// GetConnection implements ConnectionReader.GetConnection, which documents its errors.
func (s *MemoryStore) GetConnection(_ context.Context, connectionID string) (Connection, error) {
	const op = "get connection"
	if err := checkID(op, "ConnectionID", connectionID); err != nil {
		return Connection{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.connections.Get(connectionID, "")
	if !ok {
		return Connection{}, wrap(op, errConnectionNotFound(connectionID))
	}
	return c, nil
}

// Disconnect implements ConnectionStore.Disconnect, which documents its errors.
func (s *MemoryStore) Disconnect(_ context.Context, connectionID string) error {
	const op = "disconnect"
	if err := checkID(op, "ConnectionID", connectionID); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.connections.Get(connectionID, ""); ok {
		s.deleteConnection(c)
	}
	return nil
}

// ListConnections implements ConnectionLister.ListConnections, which documents its errors.
func (s *MemoryStore) ListConnections(_ context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Connection], error) {
	return memList(s, "list connections", "RoomID", roomID, opts, s.roomConns, s.t.connectionsQuery)
}

// memList runs one page of a listing of the partition id on a memory table,
// with the validation, order and cursors of DynamoStore's list.
func memList[T any](s *MemoryStore, op, field, id string, opts ddbkit.PageOptions, tbl *memtable.Table[T], query func(string) ddb.KeyQuery) (ddbkit.Page[T], error) {
	limit, err := listPrologue(op, field, id, opts)
	if err != nil {
		return ddbkit.Page[T]{}, err
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
