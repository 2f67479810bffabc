package livecomment

import (
	"crypto/rand"
	"encoding/binary"
	"io"
	mrand "math/rand/v2"
	"sync"
	"time"

	"github.com/google/uuid"

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
)

// The global secondary indexes.
const (
	// HostIDIndex is the index the seed recommends for listing a host's
	// rooms: partition key hostId, sort key createdAt.
	HostIDIndex = "hostId-index"
	// RoomIDIndex is the Connections index for finding a room's
	// connections: partition key roomId, no sort key.
	RoomIDIndex = "roomId-index"
)

// tables are the three tables of one environment, with their keys.
type tables struct {
	rooms, comments, connections ddb.Table
	hostIndex, roomIndex         ddb.Index
}

func newTables(env string) tables {
	n := Tables(env)
	return tables{
		rooms:       ddb.Table{Name: n.Rooms, PartitionKey: attrRoomID},
		comments:    ddb.Table{Name: n.Comments, PartitionKey: attrRoomID, SortKey: attrCommentID},
		connections: ddb.Table{Name: n.Connections, PartitionKey: attrConnectionID},
		hostIndex:   ddb.Index{Name: HostIDIndex, PartitionKey: attrHostID, SortKey: attrCreatedAt},
		roomIndex:   ddb.Index{Name: RoomIDIndex, PartitionKey: attrRoomID},
	}
}

func (t tables) roomKey(roomID string) ddb.Item { return t.rooms.Key(roomID, "") }

func (t tables) connectionKey(id string) ddb.Item { return t.connections.Key(id, "") }

// The listings: each is a KeyQuery that both stores run, so they share
// order, page boundaries and cursors.

// hostRoomsQuery lists a host's rooms newest first. Index reads cannot be
// strongly consistent.
func (t tables) hostRoomsQuery(hostID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t.rooms, Index: t.hostIndex, PartitionValue: hostID, Descending: true}
}

// commentsQuery lists a room's comments oldest first, consistently, so a
// poster sees its own comment.
func (t tables) commentsQuery(roomID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t.comments, PartitionValue: roomID, ConsistentRead: true}
}

func (t tables) connectionsQuery(roomID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t.connections, Index: t.roomIndex, PartitionValue: roomID}
}

// CommentIDGenerator returns the ID of a comment posted at the given
// instant. Stores call it with the same instant they store as createdAt.
type CommentIDGenerator func(at time.Time) string

// NewCommentIDs returns the default comment ID generator: UUIDv7s (RFC 9562)
// whose 48-bit timestamp is at's Unix millisecond, so that IDs sort as their
// instants do, even under a test clock. Within one millisecond the 12 bits
// after the version count up from a random start (RFC 9562 method 1), so one
// generator's IDs of the same instant sort in the order it made them; the
// other 62 bits are random. It is safe for concurrent use.
func NewCommentIDs() CommentIDGenerator { return uuidV7s(rand.Reader) }

// SeededCommentIDs returns a CommentIDGenerator like NewCommentIDs whose
// random bits come from a pseudo-random source seeded with seed: the same
// seed and instants give the same IDs. Use it in tests and examples only.
func SeededCommentIDs(seed uint64) CommentIDGenerator {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	return uuidV7s(mrand.NewChaCha8(s))
}

func uuidV7s(r io.Reader) CommentIDGenerator {
	var (
		mu     sync.Mutex
		lastMs int64 = -1
		seq    uint16
	)
	return func(at time.Time) string {
		ms := max(at.UnixMilli(), 0) & (1<<48 - 1)
		var u uuid.UUID
		mu.Lock()
		_, err := io.ReadFull(r, u[6:])
		if err != nil {
			mu.Unlock()
			panic("livecomment: reading random bits for a comment ID: " + err.Error())
		}
		if ms == lastMs && seq < 0xFFF {
			seq++
		} else {
			// A new millisecond starts the counter at a random value below
			// 2048, leaving room to count up.
			seq = binary.BigEndian.Uint16(u[6:8]) & 0x7FF
		}
		lastMs = ms
		counter := seq
		mu.Unlock()
		binary.BigEndian.PutUint16(u[0:2], uint16(ms>>32))
		binary.BigEndian.PutUint32(u[2:6], uint32(ms))
		binary.BigEndian.PutUint16(u[6:8], 0x7000|counter) // version 7, counter
		u[8] = u[8]&0x3F | 0x80                            // RFC 9562 variant
		return u.String()
	}
}
