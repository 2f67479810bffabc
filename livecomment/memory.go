package livecomment

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
	"github.com/ddbkit/ddbkit/keys"
)

// MemoryStore is an in-memory Store for tests. It keeps each table and each
// index in a memtable under the same key values the DynamoDB store writes,
// and pages with the same cursors, so it returns the same results, errors,
// order and page boundaries (up to the order of ties that DynamoDB leaves
// undocumented: the connections of a room, which roomId-index does not
// sort, and the index entries of equal sort key, which a store never writes
// itself; see the package documentation). The shared conformance suite
// (package livecommenttest) holds both to that. It honours contexts as
// DynamoStore does: under a cancelled or expired context it writes nothing
// and fails with ErrUnavailable. It emulates the ClientRequestToken of
// DynamoStore's transactions (PostComment, JoinRoom) for callers'
// idempotency keys. It is safe for concurrent use: one lock makes every
// operation atomic, and operations read the clock under it, so their
// timestamps follow the order in which they took effect.
type MemoryStore struct {
	o     Options
	t     tables
	stamp *stamper

	mu          sync.RWMutex
	rooms       *memtable.Table[Room]
	hostRooms   *memtable.Table[Room] // hostId-index
	comments    *memtable.Table[Comment]
	roomTime    *memtable.Table[Comment] // roomId-createdAt-index
	connections *memtable.Table[Connection]
	roomConns   *memtable.Table[Connection] // roomId-index
	tokens      memtable.Tokens
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	return &MemoryStore{o: o, t: newTables(o.Env, o.CursorSecret), stamp: newStamper(o.Clock),
		rooms: memtable.New[Room](), hostRooms: memtable.New[Room](),
		comments: memtable.New[Comment](), roomTime: memtable.New[Comment](),
		connections: memtable.New[Connection](), roomConns: memtable.New[Connection]()}
}

// putRoom writes r to the table and its index entry, which DynamoDB keeps
// in step with the item.
func (s *MemoryStore) putRoom(r Room) {
	s.rooms.Put(r.ID, "", s.t.roomKey(r.ID), r)
	created := keys.Timestamp(r.CreatedAt)
	s.hostRooms.Put(r.HostID, created, ddb.Item{attrRoomID: ddb.S(r.ID), attrHostID: ddb.S(r.HostID), attrCreatedAt: ddb.S(created)}, r)
}

func (s *MemoryStore) putComment(c Comment) {
	s.comments.Put(c.RoomID, c.ID, s.t.comments.Key(c.RoomID, c.ID), c)
	created := keys.Timestamp(c.CreatedAt)
	s.roomTime.Put(c.RoomID, created, ddb.Item{attrRoomID: ddb.S(c.RoomID), attrCommentID: ddb.S(c.ID), attrCreatedAt: ddb.S(created)}, c)
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

// transact runs write, the memory twin of one of DynamoStore's
// transactions of op, under the caller's idempotency key if ctx has one,
// as DynamoDB treats a ClientRequestToken: writes (which describes the
// transaction exactly) already committed under the key within the window
// are not applied again, and succeed; other writes under the same key fail
// with ErrConflict. The caller holds s.mu.
func (s *MemoryStore) transact(ctx context.Context, op, writes string, write func() error) error {
	token, keyed := ddbkit.RequestToken(ctx, op)
	if !keyed {
		return write()
	}
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
	if _, ok := s.rooms.Get(r.ID, ""); ok {
		return Room{}, wrap(op, errRoomExists(r.ID))
	}
	s.putRoom(r)
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
	r, ok := s.rooms.Get(roomID, "")
	if !ok {
		return Room{}, wrap(op, errRoomNotFound(roomID))
	}
	return r, nil
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
	r, ok := s.rooms.Get(roomID, "")
	switch {
	case !ok:
		return Room{}, wrap(op, errRoomNotFound(roomID))
	case r.Status != RoomOpen:
		return r, nil
	}
	r.Status, r.UpdatedAt = RoomClosed, now
	s.putRoom(r)
	return r, nil
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
	writes := fmt.Sprintf("%q %q %q %q %q", c.RoomID, c.ID, c.Content, c.Nickname, keys.Timestamp(c.CreatedAt))
	err = s.transact(ctx, op, writes, func() error {
		if err := s.openRoom(roomID); err != nil {
			return err
		}
		if _, ok := s.comments.Get(roomID, c.ID); ok {
			return errCommentExists(roomID, c.ID)
		}
		s.putComment(c)
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
	writes := fmt.Sprintf("%q %q %q", c.ID, c.RoomID, keys.Timestamp(c.JoinedAt))
	err := s.transact(ctx, op, writes, func() error {
		if err := s.openRoom(roomID); err != nil {
			return err
		}
		if old, ok := s.connections.Get(connectionID, ""); ok {
			s.deleteConnection(old) // it may move to another room
		}
		s.putConnection(c)
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
	c, ok := s.connections.Get(connectionID, "")
	if !ok {
		return Connection{}, wrap(op, errConnectionNotFound(connectionID))
	}
	return c, nil
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
	if c, ok := s.connections.Get(connectionID, ""); ok {
		s.deleteConnection(c)
	}
	return nil
}

// ListConnections implements ConnectionLister.ListConnections, which documents its errors.
func (s *MemoryStore) ListConnections(ctx context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Connection], error) {
	return memList(ctx, s, "list connections", "RoomID", roomID, opts, s.roomConns, s.t.connectionsQuery)
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
