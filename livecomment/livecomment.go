package livecomment

import (
	"context"
	"iter"
	"strings"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/valid"
)

// RoomStatus is the state of a room.
type RoomStatus string

// The two states the seed allows. A room is created OPEN and can only go to
// CLOSED, once.
const (
	RoomOpen   RoomStatus = "OPEN"
	RoomClosed RoomStatus = "CLOSED"
)

// The model types carry json tags in the seed's attribute spelling
// (roomId, hostId, createdAt...), so that an API returns (and takes) them
// under the names of the items; times marshal as RFC 3339.

// Room is a place where a host presents and viewers comment.
type Room struct {
	ID        string     `json:"roomId"` // UUIDv4, assigned by the store
	Name      string     `json:"name"`
	HostID    string     `json:"hostId"`
	Status    RoomStatus `json:"status"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"` // for a closed room: when it was closed
}

// NewRoom is the input of CreateRoom.
type NewRoom struct {
	Name   string `json:"name"`
	HostID string `json:"hostId"`
}

// Comment is one comment posted to a room.
type Comment struct {
	RoomID    string    `json:"roomId"`
	ID        string    `json:"commentId"` // UUIDv7 whose timestamp is CreatedAt, assigned by the store (UUIDv4 from the seed's app)
	Content   string    `json:"content"`
	Nickname  string    `json:"nickname"` // DefaultNickname when none was given (or none is stored)
	CreatedAt time.Time `json:"createdAt"`
}

// NewComment is the input of PostComment.
type NewComment struct {
	Content  string `json:"content"`
	Nickname string `json:"nickname,omitempty"` // optional; "" means DefaultNickname
}

// Connection is a WebSocket connection that has joined a room.
type Connection struct {
	ID       string    `json:"connectionId"` // the API Gateway connectionId
	RoomID   string    `json:"roomId"`
	JoinedAt time.Time `json:"timestamp"` // the item's "timestamp": when it last joined
}

// RoomReader reads rooms: the Rooms table with read access, as the seed gives
// GetUserRoomsFunction.
type RoomReader interface {
	// GetRoom returns ErrInvalidArgument for a bad room ID, ErrNotFound if
	// there is no such room, ErrCorruptItem if the stored room cannot be
	// read, and ErrUnavailable.
	GetRoom(ctx context.Context, roomID string) (Room, error)
	// ListHostRooms lists the rooms hostID created, newest first (by the
	// stored createdAt string), one Query of hostId-index per page. An
	// unknown host has no rooms. The index is eventually consistent on
	// DynamoDB. Rooms that cannot be read are left out and reported in
	// Page.Skipped. It returns ErrInvalidArgument (also for a
	// CursorSecret of 1 to 15 bytes), ErrInvalidCursor, ErrSchemaMismatch
	// if the table lacks the index (run EnsureTables), and ErrUnavailable.
	// No listing filters: a page reads its limit of index entries and one
	// more, whatever the partition holds.
	ListHostRooms(ctx context.Context, hostID string, opts ddbkit.PageOptions) (ddbkit.Page[Room], error)
}

// RoomStore reads and writes rooms: the Rooms table with read and write
// access, as the seed gives CreateRoomFunction and CloseRoomFunction.
type RoomStore interface {
	RoomReader
	// CreateRoom stores a new OPEN room with a fresh ID, if no item has
	// that ID: it succeeds only when this call wrote the room (on
	// DynamoDB, a ClientRequestToken proves it, across the call's own
	// retries), never because a stored room looks the same. Under an
	// idempotency key (ddbkit.WithIdempotencyKey), scoped to the Rooms
	// table, this operation and in.HostID, a repeat with the same input
	// within ddbkit.IdempotencyWindow returns the room the first call
	// created (ErrNotFound if it is gone since), and writes nothing. It
	// returns ErrInvalidArgument for a bad name or host ID, or a Clock
	// reading outside the years 0001-9999; ErrAlreadyExists if a room
	// already has the ID (the ID generator repeated one, or another caller
	// wrote the same room); ErrIdempotencyKeyReused (which matches
	// ErrConflict) for a key that already created a room for this host
	// from another input; and ErrUnavailable (the room may then exist:
	// repeat with the idempotency key to get it).
	CreateRoom(ctx context.Context, in NewRoom) (Room, error)
	// CloseRoom moves an OPEN room to CLOSED and stamps UpdatedAt, in one
	// write, and returns the closed room. No comment the store posted to
	// the room is newer than the stamp. A room that is not OPEN (already
	// closed) is returned as it is, without error, so repeating a close is
	// safe; under an idempotency key too (scoped to the Rooms table, this
	// operation and roomID), a repeat returns the room as it is then. It
	// returns ErrInvalidArgument, ErrNotFound, ErrCorruptItem if
	// the stored room cannot be read, and ErrUnavailable. ErrInvalidArgument
	// also reports a Clock reading outside the years 0001-9999, and a room
	// (another writer's) that the update would take past 400 KB.
	//
	// CloseRoom checks no caller: it is the trusted close, for moderation
	// and the system (a room's scheduled end). A host's own close is
	// CloseRoomAs.
	CloseRoom(ctx context.Context, roomID string) (Room, error)
	// CloseRoomAs is CloseRoom on behalf of actorID, who may close the
	// room only if it is the room's host (its hostId): checked in the
	// condition of the close's own write, so a close that succeeds costs
	// no more than CloseRoom's, with no read first. A room already closed
	// by its host is returned as it is, without error, as CloseRoom
	// returns it, and so under an idempotency key (scoped to the Rooms
	// table, this operation and roomID, with actorID its input: another
	// actor under the key is ErrIdempotencyKeyReused, which matches
	// ErrConflict). It returns ErrInvalidArgument (a bad room or actor
	// ID, or what CloseRoom refuses), ErrNotFound if there is no such
	// room, ErrPermissionDenied if actorID is not its host (whether the
	// room is open or closed; nothing was written), ErrCorruptItem, and
	// ErrUnavailable. With Options.WithholdOldItems, a failed condition
	// cannot say which, and is ErrConflict.
	CloseRoomAs(ctx context.Context, roomID, actorID string) (Room, error)
}

// CommentReader reads comments: the Comments table with read access, as the
// seed gives GetRoomCommentsFunction.
type CommentReader interface {
	// ListComments lists a room's comments oldest first, by the stored
	// createdAt string (time order for the seed's form; see the package
	// documentation), one Query of roomId-createdAt-index per page. One
	// store's own comments come in the order it posted them. An unknown
	// room has no comments. The index is eventually consistent on
	// DynamoDB. Comments that cannot be read are left out and reported in
	// Page.Skipped. It returns ErrInvalidArgument (also for a
	// CursorSecret of 1 to 15 bytes, and a CommentShards no layout has),
	// ErrInvalidCursor, ErrSchemaMismatch if the table lacks the index
	// (run EnsureTables), and ErrUnavailable. No listing filters: a page
	// reads its limit of index entries and one more, whatever the
	// partition holds. With Options.CommentShards = N, a page is N+1
	// Queries, one per shard and one of the room's unsharded partition,
	// merged in the same order, with the same page sizes; its cursors are
	// not the unsharded listing's, nor another N's (see "Sharded
	// comments" in the package documentation).
	ListComments(ctx context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Comment], error)
	// ListCommentsNewest lists a room's comments newest first: what a
	// viewer who joins late reads, its first page the last comments
	// posted. It is ListComments' listing read backwards (the same
	// roomId-createdAt-index, descending: ScanIndexForward false), so
	// its order is exactly ListComments' reversed, ties included, in the
	// sharded layout too. Its cursors are bound to the direction: a
	// cursor of ListComments is ErrInvalidCursor here, and one of
	// ListCommentsNewest is in ListComments. It returns the errors
	// ListComments returns, with the same cost per page.
	ListCommentsNewest(ctx context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Comment], error)
}

// CommentStore reads and writes comments: the Comments table with read and
// write access.
type CommentStore interface {
	CommentReader
	// PostComment stores a comment if, when it commits, the room exists and
	// is OPEN: one transaction checks the room and puts the comment,
	// exactly once however often it is retried. It returns
	// ErrInvalidArgument for bad input, ErrNotFound if there is no such
	// room, ErrRoomClosed (which matches ErrConflict) if the room is
	// closed, ErrAlreadyExists if the comment ID generator repeated an ID,
	// ErrConflict for conflicts through the retries, and ErrUnavailable
	// (the comment may then be stored: repeat with an idempotency key to
	// post it at most once). Under an idempotency key
	// (ddbkit.WithIdempotencyKey, scoped to the Comments table, this
	// operation and roomID), a repeat with the same input within
	// ddbkit.IdempotencyWindow returns the comment the first call posted
	// (ErrNotFound if it is gone since) and writes nothing; other input
	// under the key is ErrIdempotencyKeyReused (which matches
	// ErrConflict). ErrInvalidArgument also reports a Clock reading outside the
	// years 0001-9999, a CommentShards no layout has and a negative
	// RoomCheckCache. With Options.CommentShards, the comment is stored in
	// its shard; with Options.RoomCheckCache, the room is read (and
	// trusted OPEN for that long) instead of checked in the transaction.
	PostComment(ctx context.Context, roomID string, in NewComment) (Comment, error)
}

// ConnectionLister lists the connections of a room: what Broadcast reads.
type ConnectionLister interface {
	// ListConnections lists the connections that joined roomID, one Query
	// of roomId-index per page, in no particular order (the index has no
	// sort key). The index is eventually consistent on DynamoDB.
	// Connections that cannot be read are left out and reported in
	// Page.Skipped. It returns ErrInvalidArgument (also for a
	// CursorSecret of 1 to 15 bytes), ErrInvalidCursor, ErrSchemaMismatch
	// if the table lacks the index, and ErrUnavailable.
	ListConnections(ctx context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Connection], error)
}

// ConnectionReader reads connections: the Connections table with read
// access, as the seed gives PostCommentFunction. Broadcast needs more (a
// ConnectionPruner).
type ConnectionReader interface {
	ConnectionLister
	// GetConnection returns ErrInvalidArgument for a bad connection ID,
	// ErrNotFound if the connection has not joined a room, ErrCorruptItem
	// if the stored connection cannot be read, and ErrUnavailable.
	GetConnection(ctx context.Context, connectionID string) (Connection, error)
}

// ConnectionStore reads and writes connections: the Connections table with
// read and write access, as the seed gives DisconnectFunction.
type ConnectionStore interface {
	ConnectionReader
	// JoinRoom records that connectionID joined roomID, if, when it commits,
	// the room exists and is OPEN (checked in the same transaction). A
	// connection is in at most one room: joining again moves it, and
	// refreshes JoinedAt. The transaction commits exactly once however
	// often it is retried. Under an idempotency key (scoped to the
	// Connections table, this operation and connectionID), a repeat with
	// the same roomID within ddbkit.IdempotencyWindow returns the first
	// call's join, JoinedAt unrefreshed (the connection as it is then,
	// ErrNotFound if it disconnected since), and writes nothing; another
	// roomID under the key is ErrIdempotencyKeyReused (which matches
	// ErrConflict). It returns ErrInvalidArgument (also for a Clock
	// reading outside the years 0001-9999), ErrNotFound if there is no
	// such room, ErrRoomClosed (which matches ErrConflict), ErrConflict for
	// conflicts through the retries, and ErrUnavailable.
	JoinRoom(ctx context.Context, roomID, connectionID string) (Connection, error)
	// Disconnect forgets the connection. It is idempotent: an unknown
	// connection is not an error, and a repeat under an idempotency key
	// deletes again. It returns ErrInvalidArgument for a bad
	// connection ID, and ErrUnavailable.
	Disconnect(ctx context.Context, connectionID string) error
}

// The roles of the seed's permission table, one interface per Lambda
// function, each holding only what that function's grants allow (see the
// package documentation). Those whose grants cover one table are names for
// that table's interface: the seed's role names, kept beside the table
// interfaces on purpose, not old names, so none is deprecated.
type (
	// RoomCreator is what CreateRoomFunction needs: Rooms read and write.
	RoomCreator = RoomStore
	// RoomCloser is what CloseRoomFunction needs: Rooms read and write.
	RoomCloser = RoomStore
	// HostRoomsReader is what GetUserRoomsFunction needs: Rooms read.
	HostRoomsReader = RoomReader
	// RoomCommentsReader is what GetRoomCommentsFunction needs: Comments
	// read.
	RoomCommentsReader = CommentReader
	// Disconnecter is what DisconnectFunction needs: Connections read and
	// write.
	Disconnecter = ConnectionStore
)

// CommentPoster is what PostCommentFunction's grants allow: Comments read
// and write, and Connections read to list whom to send a new comment to.
// It cannot write rooms, nor call Broadcast: Broadcast takes a
// ConnectionPruner, which disconnects gone connections, and that is
// DeleteItem on Connections, which the seed does not grant
// PostCommentFunction. A function that posts and broadcasts needs
// ConnectionPruner's grants too.
type CommentPoster interface {
	CommentStore
	ConnectionReader
}

// RoomJoiner is what JoinRoomFunction needs: Connections read and write, and
// Rooms read (JoinRoom checks the room).
type RoomJoiner interface {
	ConnectionStore
	RoomReader
}

// Store is everything the livecomment seed describes. Both DynamoStore and
// MemoryStore implement it.
type Store interface {
	RoomStore
	CommentStore
	ConnectionStore
}

// AllConnections walks every page of a room's connections. It yields the
// errors of ListConnections; connections a page skipped as corrupt are not
// yielded (call ListConnections to see Page.Skipped).
func AllConnections(ctx context.Context, s ConnectionLister, roomID string) iter.Seq2[Connection, error] {
	return ddbkit.All(func(cursor string) (ddbkit.Page[Connection], error) {
		return s.ListConnections(ctx, roomID, ddbkit.PageOptions{Cursor: cursor})
	})
}

// AllComments walks every page of a room's comments, oldest first. It yields
// the errors of ListComments; comments a page skipped as corrupt are not
// yielded (call ListComments to see Page.Skipped).
func AllComments(ctx context.Context, s CommentReader, roomID string) iter.Seq2[Comment, error] {
	return ddbkit.All(func(cursor string) (ddbkit.Page[Comment], error) {
		return s.ListComments(ctx, roomID, ddbkit.PageOptions{Cursor: cursor})
	})
}

// AllCommentsNewest walks every page of a room's comments, newest first. It
// yields the errors of ListCommentsNewest; comments a page skipped as
// corrupt are not yielded (call ListCommentsNewest to see Page.Skipped).
// Stop the loop early to read only the last comments.
func AllCommentsNewest(ctx context.Context, s CommentReader, roomID string) iter.Seq2[Comment, error] {
	return ddbkit.All(func(cursor string) (ddbkit.Page[Comment], error) {
		return s.ListCommentsNewest(ctx, roomID, ddbkit.PageOptions{Cursor: cursor})
	})
}

// DefaultNickname is the nickname of a comment posted without one, as the
// seed specifies.
const DefaultNickname = "Anonymous"

// Field limits, in characters (not bytes).
const (
	MaxRoomNameLen = 100
	MaxContentLen  = 500
	MaxNicknameLen = 50
	MaxIDLen       = 128
)

// validator checks input: the shared rules of valid.Validator, and this
// package's own.
type validator struct{ valid.Validator }

// The prologue of every operation, shared by both stores: validate the
// input, with errors wrapped for op. Keeping it in one place is what makes
// the stores refuse the same inputs with the same errors.

func checkID(op, field, id string) error {
	var v validator
	v.ID(field, id, MaxIDLen)
	return wrap(op, v.Err)
}

func checkJoin(op, roomID, connectionID string) error {
	var v validator
	v.ID("RoomID", roomID, MaxIDLen)
	v.ID("ConnectionID", connectionID, MaxIDLen)
	return wrap(op, v.Err)
}

// checkRoom validates the input of CreateRoom.
func checkRoom(op string, in NewRoom) error {
	var v validator
	v.Line("Name", in.Name, true, MaxRoomNameLen)
	v.ID("HostID", in.HostID, MaxIDLen)
	return wrap(op, v.Err)
}

// checkStamp refuses a stamp of the store's clock that lies outside the
// years 0001 to 9999 (UTC): it could be written, but no reader (this
// package's, or the seed's app's) could parse it back. Options.Clock is
// the only source of the times this package writes (no input carries
// one), so the error names it.
func checkStamp(op string, at time.Time) error {
	var v validator
	v.Time("Clock", at)
	return wrap(op, v.Err)
}

// The items of the writes, built and checked the same way by both stores
// before any call: the stamp (checkStamp), and DynamoDB's 400 KB item
// limit (ddb.CheckItemSize), naming the caller's field that makes the item
// large. The field limits keep every item of this package under 3 KB, so
// the size check cannot fail today; it is there so that a larger limit
// cannot make the memory store accept an item DynamoDB refuses.

func roomToWrite(op string, r Room) (ddb.Item, error) {
	if err := checkStamp(op, r.CreatedAt); err != nil {
		return nil, err
	}
	item, err := marshalRoom(r)
	if err == nil {
		err = ddb.CheckItemSize(item, "Name", 0)
	}
	return item, wrap(op, err)
}

// commentToWrite builds the item of c in the layout of shards
// (Options.CommentShards): under its room, or its room's shard.
func commentToWrite(op string, c Comment, shards int) (ddb.Item, error) {
	if err := checkStamp(op, c.CreatedAt); err != nil {
		return nil, err
	}
	item, err := marshalComment(c, CommentPartition(c.RoomID, c.ID, shards))
	if err == nil {
		err = ddb.CheckItemSize(item, "Content", 0)
	}
	return item, wrap(op, err)
}

func connectionToWrite(op string, c Connection) (ddb.Item, error) {
	if err := checkStamp(op, c.JoinedAt); err != nil {
		return nil, err
	}
	item, err := marshalConnection(c)
	if err == nil {
		err = ddb.CheckItemSize(item, "ConnectionID", 0)
	}
	return item, wrap(op, err)
}

// newRoom returns the room to create from checked input: OPEN, with a fresh
// ID, created and updated at now.
func (o Options) newRoom(in NewRoom, now time.Time) Room {
	return Room{ID: o.NewID(), Name: in.Name, HostID: in.HostID, Status: RoomOpen, CreatedAt: now, UpdatedAt: now}
}

// checkComment validates a comment and applies the default nickname.
func checkComment(op, roomID string, in NewComment) (NewComment, error) {
	var v validator
	v.ID("RoomID", roomID, MaxIDLen)
	v.Text("Content", in.Content, true, MaxContentLen)
	switch {
	case in.Nickname == "":
		in.Nickname = DefaultNickname
	case strings.TrimSpace(in.Nickname) == "":
		v.Fail("Nickname", "must not be only white space; leave it empty for %q", DefaultNickname)
	default:
		v.Line("Nickname", in.Nickname, true, MaxNicknameLen)
	}
	return in, wrap(op, v.Err)
}

// newComment returns the comment to store, stamped by st: its ID is a
// UUIDv7 of the same instant, made under the stamp's lock, so that one
// store's comment IDs are in the order of their createdAt and the base
// table's sort key is in time order too.
func (o Options) newComment(roomID string, in NewComment, st *stamper) Comment {
	c := Comment{RoomID: roomID, Content: in.Content, Nickname: in.Nickname}
	c.CreatedAt = st.with(func(at time.Time) { c.ID = o.NewCommentID(at) })
	return c
}
