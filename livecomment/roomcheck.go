package livecomment

import (
	"context"
	"sync"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
)

// The cached room check (Options.RoomCheckCache): see "Sharded comments"
// in the package documentation for why, and what it gives up.

// maxCachedRooms bounds the rooms a store remembers: past it, it forgets
// them all.
const maxCachedRooms = 4096

// roomCache remembers the rooms a store read as OPEN, until their entry is
// older than the cache's age, and those it read or made CLOSED, for good
// (a room never reopens). A missing room is not remembered: it may be
// created the next moment.
type roomCache struct {
	mu    sync.Mutex
	rooms map[string]roomSeen
}

type roomSeen struct {
	open bool
	at   time.Time // the stamp of the post that read it
}

// checkRoomCache refuses an Options.RoomCheckCache no store can use.
func (o Options) checkRoomCache(op string) error {
	if o.RoomCheckCache < 0 {
		return wrap(op, ddbkit.Invalid("RoomCheckCache", "must not be negative, got %v", o.RoomCheckCache))
	}
	return nil
}

// roomOpen is the cached room check of a post stamped at: nil if roomID
// was read as OPEN less than Options.RoomCheckCache before at (or is read
// so now, with one consistent GetItem), ErrRoomClosed or ErrNotFound
// otherwise. As the transaction's check, it reads the status only.
func (c *core) roomOpen(ctx context.Context, roomID string, at time.Time) error {
	rc := &c.rooms
	rc.mu.Lock()
	seen, ok := rc.rooms[roomID]
	rc.mu.Unlock()
	if !ok || seen.open && !at.Before(seen.at.Add(c.o.RoomCheckCache)) {
		item, err := c.b.Get(ctx, c.t.rooms, backend.Key{PK: roomID})
		if err != nil {
			return err
		}
		if item == nil {
			return errRoomNotFound(roomID)
		}
		status, _ := backend.Str(item, attrStatus)
		seen = roomSeen{open: status == string(RoomOpen), at: at}
		rc.remember(roomID, seen)
	}
	if !seen.open {
		return errRoomClosed(roomID)
	}
	return nil
}

// closed records that this store closed roomID, or found it closed.
func (rc *roomCache) closed(roomID string) { rc.remember(roomID, roomSeen{}) }

func (rc *roomCache) remember(roomID string, seen roomSeen) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.rooms == nil {
		rc.rooms = make(map[string]roomSeen)
	}
	if old, ok := rc.rooms[roomID]; ok && !old.open {
		return // closed for good
	}
	if len(rc.rooms) >= maxCachedRooms {
		clear(rc.rooms) // each room then costs one read again
	}
	rc.rooms[roomID] = seen
}
