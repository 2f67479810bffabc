package livecomment

import (
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The seed's attribute names, camelCase as it spells them.
const (
	attrRoomID       = "roomId"
	attrCommentID    = "commentId"
	attrConnectionID = "connectionId"
	attrHostID       = "hostId"
	attrCreatedAt    = "createdAt"
	attrUpdatedAt    = "updatedAt"
	attrStatus       = "status"
	attrTimestamp    = "timestamp"
	attrName         = "name"
	attrContent      = "content"
	attrNickname     = "nickname"
)

// The global secondary indexes.
const (
	// HostIDIndex is the index the seed recommends for listing a host's
	// rooms: partition key hostId, sort key createdAt. The seed's app
	// scans instead, so its Rooms table may lack it; EnsureTables adds it.
	HostIDIndex = "hostId-index"
	// CommentsByTimeIndex orders a room's comments by createdAt: partition
	// key roomId, sort key createdAt. The seed's comment IDs are random
	// UUIDv4s, so the Comments table's own sort key is in no useful order;
	// EnsureTables adds this index to an existing table.
	CommentsByTimeIndex = "roomId-createdAt-index"
	// RoomIDIndex is the Connections index for finding a room's
	// connections: partition key roomId, no sort key.
	RoomIDIndex = "roomId-index"
)

// tables are the three tables of one environment, with their keys.
type tables struct {
	rooms, comments, connections    ddb.Table
	hostIndex, timeIndex, roomIndex ddb.Index
}

func newTables(env string, cursorSecret []byte, withholdOld bool) tables {
	n := Tables(env)
	secret := string(cursorSecret)
	return tables{
		rooms:       ddb.Table{Name: n.Rooms, PartitionKey: attrRoomID, CursorSecret: secret, WithholdOld: withholdOld},
		comments:    ddb.Table{Name: n.Comments, PartitionKey: attrRoomID, SortKey: attrCommentID, CursorSecret: secret, WithholdOld: withholdOld},
		connections: ddb.Table{Name: n.Connections, PartitionKey: attrConnectionID, CursorSecret: secret, WithholdOld: withholdOld},
		hostIndex:   ddb.Index{Name: HostIDIndex, PartitionKey: attrHostID, SortKey: attrCreatedAt},
		timeIndex:   ddb.Index{Name: CommentsByTimeIndex, PartitionKey: attrRoomID, SortKey: attrCreatedAt},
		roomIndex:   ddb.Index{Name: RoomIDIndex, PartitionKey: attrRoomID},
	}
}

// backend returns the tables as the backends serve them, each with its
// index.
func (t tables) backend() []backend.Table {
	return []backend.Table{
		{Table: t.rooms, Indexes: []ddb.Index{t.hostIndex}},
		{Table: t.comments, Indexes: []ddb.Index{t.timeIndex}},
		{Table: t.connections, Indexes: []ddb.Index{t.roomIndex}},
	}
}

// The scopes of the callers' idempotency keys (ddb.Scope, which both
// backends turn into the same ClientRequestToken): the table written, the
// operation, and the tenant partition the write belongs to, taken from the
// caller's input, never from an ID the call makes, so that a repeated call
// finds the same scope. A room belongs to its host (its ID is made by the
// call), a close to its room; a comment to its room; a connection's item
// to the connection. The idempotency records of the keys (see keying) are
// under the same scopes.

func (t tables) roomScope(op, partition string) ddb.Scope {
	return ddb.Scope{Table: t.rooms.Name, Op: op, Partition: partition}
}

func (t tables) commentScope(op, roomID string) ddb.Scope {
	return ddb.Scope{Table: t.comments.Name, Op: op, Partition: roomID}
}

func (t tables) connectionScope(op, connectionID string) ddb.Scope {
	return ddb.Scope{Table: t.connections.Name, Op: op, Partition: connectionID}
}

// The listings: each is a KeyQuery that both stores run, so they share
// order, page boundaries and cursors. Index reads cannot be strongly
// consistent.

// hostRoomsQuery lists a host's rooms newest first.
func (t tables) hostRoomsQuery(hostID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t.rooms, Index: t.hostIndex, PartitionValue: hostID, Descending: true}
}

// commentsQuery lists a room's comments oldest first, by createdAt.
func (t tables) commentsQuery(roomID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t.comments, Index: t.timeIndex, PartitionValue: roomID}
}

// commentsNewestQuery lists a room's comments newest first: the same
// index, read backwards (ScanIndexForward false). The direction is part of
// a cursor's binding, so neither listing takes the other's cursors.
func (t tables) commentsNewestQuery(roomID string) ddb.KeyQuery {
	q := t.commentsQuery(roomID)
	q.Descending = true
	return q
}

func (t tables) connectionsQuery(roomID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t.connections, Index: t.roomIndex, PartitionValue: roomID}
}

// CommentIDGenerator returns the ID of a comment posted at the given
// instant. Stores call it with the same instant they store as createdAt.
type CommentIDGenerator func(at time.Time) string

// NewCommentIDs returns the default comment ID generator,
// ddbkit.NewUUIDv7Generator: UUIDv7s (RFC 9562) whose 48-bit timestamp is
// at's Unix millisecond, with a counter within one millisecond, so that one
// generator's IDs sort in the order it made them, whatever the instants.
// Past the counter's room, or for an instant earlier than one it already
// used, the timestamp advances past the last one, as RFC 9562 allows: a
// burst of any size under a frozen clock stays in order. It is safe for
// concurrent use.
func NewCommentIDs() CommentIDGenerator { return CommentIDGenerator(ddbkit.NewUUIDv7Generator()) }

// SeededCommentIDs returns a CommentIDGenerator like NewCommentIDs whose
// random bits come from a pseudo-random source seeded with seed
// (ddbkit.SeededUUIDv7Generator): the same seed and instants give the same
// IDs. Use it in tests and examples only.
func SeededCommentIDs(seed uint64) CommentIDGenerator {
	return CommentIDGenerator(ddbkit.SeededUUIDv7Generator(seed))
}
