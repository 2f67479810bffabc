package livecomment

import (
	"context"
	"strings"
	"sync"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
	"github.com/ddbkit/ddbkit/keys"
)

// The two stores share every operation (this file) and differ only in the
// item backend they hold (package internal/backend): DynamoDB calls for
// DynamoStore, ordered in-memory tables with the same conditions, indexes
// and cursors for MemoryStore. Writing each operation once, over
// primitives whose semantics are DynamoDB's, is what keeps the memory
// store's results, errors, order and page boundaries those of the
// DynamoDB store.

// core is the Store over a backend. DynamoStore and MemoryStore embed it.
type core struct {
	tel   *obs.Telemetry
	o     Options
	t     tables
	b     backend.Backend
	stamp *stamper
	gate  closeGate
	rooms roomCache // Options.RoomCheckCache's
}

func newCore(o Options, b backend.Backend) *core {
	return &core{o: o, t: newTables(o.Env, o.CursorSecret, o.WithholdOldItems), b: b, stamp: newStamper(o.Clock), tel: o.telemetry()}
}

// start starts the span of method (package obs) on the table it is about:
// Comments for the comment methods, Connections for JoinRoom and the
// connection methods, Rooms for the rest. Every exported method of
// core does, first.
func (c *core) start(ctx context.Context, method string) (context.Context, *obs.Op) {
	t := c.t.rooms
	switch {
	case strings.Contains(method, "Comment"):
		t = c.t.comments
	case strings.Contains(method, "Connect"), method == "JoinRoom":
		t = c.t.connections
	}
	return c.tel.Start(ctx, method, t.Name)
}

// Transaction item labels, by which failed conditions are told apart.
const (
	labelRoom = "room"
	labelItem = "item"
)

// The room is OPEN: openWant is what the room check of every post and join
// wants of the room (backend.Check: it exists and holds it), roomIsOpen is
// CloseRoom's condition (status = "OPEN", which a missing room fails too).
var (
	openWant   = ddb.Item{attrStatus: ddb.S(string(RoomOpen))}
	roomIsOpen = backend.When(backend.Equal(attrStatus, ddb.S(string(RoomOpen))))
)

// CreateRoom implements RoomStore.CreateRoom, which documents its errors.
//
// One conditional put in a one-item TransactWriteItems (backend.Create),
// with a ClientRequestToken scoped to the Rooms table, the operation and
// the host: a retry after throttling, a 5xx or a lost response repeats the
// token, so DynamoDB answers an attempt whose earlier twin committed with
// success and writes nothing again. A room found under the new ID is never
// taken for this call's own write, however equal it is: only the token
// proves that. Under a caller's idempotency key, the transaction also
// carries the key's record (keyed), which answers a repeat.
func (c *core) CreateRoom(ctx context.Context, in NewRoom) (_ Room, err error) {
	ctx, sp := c.start(ctx, "CreateRoom")
	defer sp.End(&err)
	const op = "create room"
	if err := checkRoom(op, in); err != nil {
		return Room{}, err
	}
	if err := ctx.Err(); err != nil {
		return Room{}, wrap(op, err)
	}
	scope := c.t.roomScope(op, in.HostID)
	k := keying(c, c.t.rooms, scope, replay(c, c.t.rooms, roomDecoder, func(ref backend.Key) error { return errRoomNotFound(ref.PK) }), in)
	return keyed(ctx, op, k, func(ctx context.Context) (Room, error) {
		r := c.o.newRoom(in, c.stamp.now())
		item, err := roomToWrite(op, r)
		if err != nil {
			return Room{}, err
		}
		err = c.b.Create(ctx, scope, c.t.rooms, item)
		if _, ok := backend.Failed(err, ""); ok {
			return Room{}, wrap(op, errRoomExists(r.ID))
		}
		if err != nil {
			return Room{}, wrap(op, err)
		}
		return r, nil
	})
}

// GetRoom implements RoomReader.GetRoom, which documents its errors.
func (c *core) GetRoom(ctx context.Context, roomID string) (_ Room, err error) {
	ctx, sp := c.start(ctx, "GetRoom")
	defer sp.End(&err)
	const op = "get room"
	if err := checkID(op, "RoomID", roomID); err != nil {
		return Room{}, err
	}
	return getOne(ctx, c, op, c.t.rooms, roomID, errRoomNotFound(roomID), roomDecoder)
}

// ListHostRooms implements RoomReader.ListHostRooms, which documents its errors.
func (c *core) ListHostRooms(ctx context.Context, hostID string, opts ddbkit.PageOptions) (_ ddbkit.Page[Room], err error) {
	ctx, sp := c.start(ctx, "ListHostRooms")
	defer sp.End(&err)
	return list(ctx, c, "list host rooms", "HostID", hostID, opts, c.t.hostRoomsQuery, roomDecoder)
}

// CloseRoom implements RoomStore.CloseRoom, which documents its errors.
//
// It is one conditional update: if the room is OPEN, set it CLOSED and
// stamp updatedAt, together, and return the new item. A room that is not
// OPEN fails the condition, and the backend returns the item as it is:
// closed before, by another call or by an earlier attempt of this one
// whose response was lost (then its updatedAt is this call's stamp);
// either way the stored room is the answer, so a retry or a repeated call
// cannot stamp a closed room again. The close waits for this store's posts
// to the room that are in flight, and holds back new ones until it is done
// (see closeGate), so its stamp is later than every comment of this store
// that it lets through.
//
// The backend retries the update within Options.Retry after throttling,
// a 5xx or a lost response too, in its one retry loop: a repeat whose
// condition fails on a room that already holds this call's write (CLOSED,
// this stamp) is taken as the write of the lost attempt, and that room
// returned.
func (c *core) CloseRoom(ctx context.Context, roomID string) (_ Room, err error) {
	ctx, sp := c.start(ctx, "CloseRoom")
	defer sp.End(&err)
	return c.closeRoom(ctx, "close room", roomID, "", false)
}

// CloseRoomAs implements RoomStore.CloseRoomAs, which documents its errors.
//
// It is CloseRoom's one conditional update with hostId = actorID added to
// its condition, so that the check costs no read: a room that fails it is
// returned by the backend as it was, which tells a missing room, another
// host's and a closed one apart. Another host's room is ErrPermissionDenied
// whether it is open or closed.
func (c *core) CloseRoomAs(ctx context.Context, roomID, actorID string) (_ Room, err error) {
	ctx, sp := c.start(ctx, "CloseRoomAs")
	defer sp.End(&err)
	return c.closeRoom(ctx, "close room as", roomID, actorID, true)
}

// closeRoom is CloseRoom, and CloseRoomAs (actorID's close) if as.
func (c *core) closeRoom(ctx context.Context, op, roomID, actorID string, as bool) (Room, error) {
	var v validator
	v.ID("RoomID", roomID, MaxIDLen)
	var input []any
	cond := roomIsOpen
	if as {
		v.ID("ActorID", actorID, MaxIDLen)
		input = []any{actorID}
		cond = backend.When(backend.And(backend.Equal(attrStatus, ddb.S(string(RoomOpen))), backend.Equal(attrHostID, ddb.S(actorID))))
	}
	if err := wrap(op, v.Err); err != nil {
		return Room{}, err
	}
	if err := ctx.Err(); err != nil {
		return Room{}, wrap(op, err)
	}
	// Repeat-safe: a repeat returns the room as it is (no Replay). The
	// update is no transaction, so the record is written after it. A key
	// of CloseRoomAs is scoped to its operation, and the actor is its
	// input: another actor under the same key is another request.
	k := keying[Room](c, c.t.rooms, c.t.roomScope(op, roomID), nil, input...)
	return keyed(ctx, op, k, func(ctx context.Context) (Room, error) {
		release, err := c.gate.close(ctx, roomID)
		if err != nil {
			return Room{}, wrap(op, err)
		}
		defer release()
		now := c.stamp.now()
		if err := checkStamp(op, now); err != nil {
			return Room{}, err
		}
		var u backend.Change
		u.Set(attrStatus, ddb.S(string(RoomClosed)))
		u.Set(attrUpdatedAt, ddb.S(keys.Timestamp(now)))
		item, err := c.b.Update(ctx, c.t.rooms, backend.Key{PK: roomID}, u, cond)
		old, failed := backend.Failed(err, "")
		if failed {
			// The answer, not an error: the room as it is, if it is the
			// actor's.
			if old == nil {
				return Room{}, wrap(op, errRoomNotFound(roomID))
			}
			item, err = old, nil
		}
		if err != nil {
			return Room{}, wrap(op, err)
		}
		r, err := decodeRoom(c.t.rooms, item)
		if err != nil {
			return Room{}, wrap(op, err)
		}
		if failed && as && r.HostID != actorID {
			return Room{}, wrap(op, errNotHost(roomID, actorID))
		}
		if r.Status != RoomOpen {
			c.rooms.closed(roomID)
		}
		return r, nil
	})
}

// PostComment implements CommentStore.PostComment, which documents its errors.
func (c *core) PostComment(ctx context.Context, roomID string, in NewComment) (_ Comment, err error) {
	ctx, sp := c.start(ctx, "PostComment")
	defer sp.End(&err)
	const op = "post comment"
	raw := in
	in, err = checkComment(op, roomID, in)
	if err != nil {
		return Comment{}, err
	}
	if err := c.o.checkShards(op); err != nil {
		return Comment{}, err
	}
	if err := c.o.checkRoomCache(op); err != nil {
		return Comment{}, err
	}
	if err := ctx.Err(); err != nil {
		return Comment{}, wrap(op, err)
	}
	scope := c.t.commentScope(op, roomID)
	gone := func(ref backend.Key) error { return errCommentNotFound(roomID, ref.SK) }
	k := keying(c, c.t.comments, scope, replay(c, c.t.comments, commentDecoder, gone), raw)
	return keyed(ctx, op, k, func(ctx context.Context) (Comment, error) {
		release, err := c.gate.post(ctx, roomID)
		if err != nil {
			return Comment{}, wrap(op, err)
		}
		defer release()
		cm := c.o.newComment(roomID, in, c.stamp)
		item, err := commentToWrite(op, cm, c.o.commentShards())
		if err != nil {
			return Comment{}, err
		}
		// Either way the comment's put is the first transactional write,
		// which carries the idempotency record (see keying).
		if c.o.RoomCheckCache > 0 {
			// The room's item is read once per RoomCheckCache, not checked
			// by every post; the put is a one-item transaction, whose token
			// still proves the write its own.
			if err = c.roomOpen(ctx, roomID, cm.CreatedAt); err == nil {
				err = c.b.Create(ctx, scope, c.t.comments, item)
			}
		} else {
			err = c.checked(ctx, scope, roomID, backend.PutNew(labelItem, c.t.comments, item))
		}
		if _, ok := backend.Failed(err, ""); ok { // the room check's failures are errors of their own
			return Comment{}, wrap(op, errCommentExists(roomID, cm.ID))
		}
		if err != nil {
			return Comment{}, wrap(op, err)
		}
		return cm, nil
	})
}

// ListComments implements CommentReader.ListComments, which documents its errors.
//
// With Options.CommentShards of 2 or more, a page merges the room's shards and its
// unsharded partition (listMerged), under one cursor.
func (c *core) ListComments(ctx context.Context, roomID string, opts ddbkit.PageOptions) (_ ddbkit.Page[Comment], err error) {
	ctx, sp := c.start(ctx, "ListComments")
	defer sp.End(&err)
	const op = "list comments"
	if c.o.commentShards() == 0 {
		return list(ctx, c, op, "RoomID", roomID, opts, c.t.commentsQuery, commentDecoder)
	}
	limit, err := c.listPrologue(ctx, op, "RoomID", roomID, opts, c.o.checkShards)
	if err != nil {
		return ddbkit.Page[Comment]{}, err
	}
	return c.listMerged(ctx, op, roomID, limit, opts.Cursor, false)
}

// ListCommentsNewest implements CommentReader.ListCommentsNewest, which
// documents its errors: ListComments' listing read backwards, the same
// index descending, sharded or not.
func (c *core) ListCommentsNewest(ctx context.Context, roomID string, opts ddbkit.PageOptions) (_ ddbkit.Page[Comment], err error) {
	ctx, sp := c.start(ctx, "ListCommentsNewest")
	defer sp.End(&err)
	const op = "list comments newest"
	if c.o.commentShards() == 0 {
		return list(ctx, c, op, "RoomID", roomID, opts, c.t.commentsNewestQuery, commentDecoder)
	}
	limit, err := c.listPrologue(ctx, op, "RoomID", roomID, opts, c.o.checkShards)
	if err != nil {
		return ddbkit.Page[Comment]{}, err
	}
	return c.listMerged(ctx, op, roomID, limit, opts.Cursor, true)
}

// JoinRoom implements ConnectionStore.JoinRoom, which documents its errors.
func (c *core) JoinRoom(ctx context.Context, roomID, connectionID string) (_ Connection, err error) {
	ctx, sp := c.start(ctx, "JoinRoom")
	defer sp.End(&err)
	const op = "join room"
	if err := checkJoin(op, roomID, connectionID); err != nil {
		return Connection{}, err
	}
	if err := ctx.Err(); err != nil {
		return Connection{}, wrap(op, err)
	}
	scope := c.t.connectionScope(op, connectionID)
	gone := func(backend.Key) error { return errConnectionNotFound(connectionID) }
	k := keying(c, c.t.connections, scope, replay(c, c.t.connections, connectionDecoder, gone), roomID)
	return keyed(ctx, op, k, func(ctx context.Context) (Connection, error) {
		conn := Connection{ID: connectionID, RoomID: roomID, JoinedAt: c.stamp.now()}
		item, err := connectionToWrite(op, conn)
		if err != nil {
			return Connection{}, err
		}
		// An unconditional put: the connection may move from another room.
		if err := c.checked(ctx, scope, roomID, backend.Put(labelItem, c.t.connections, item)); err != nil {
			return Connection{}, wrap(op, err)
		}
		return conn, nil
	})
}

// GetConnection implements ConnectionReader.GetConnection, which documents its errors.
func (c *core) GetConnection(ctx context.Context, connectionID string) (_ Connection, err error) {
	ctx, sp := c.start(ctx, "GetConnection")
	defer sp.End(&err)
	const op = "get connection"
	if err := checkID(op, "ConnectionID", connectionID); err != nil {
		return Connection{}, err
	}
	return getOne(ctx, c, op, c.t.connections, connectionID, errConnectionNotFound(connectionID), connectionDecoder)
}

// Disconnect implements ConnectionStore.Disconnect, which documents its errors.
//
// One unconditional delete (backend.Delete), retried after throttling, a
// 5xx or a lost response: deleting again what is gone is a success.
func (c *core) Disconnect(ctx context.Context, connectionID string) (err error) {
	ctx, sp := c.start(ctx, "Disconnect")
	defer sp.End(&err)
	const op = "disconnect"
	if err := checkID(op, "ConnectionID", connectionID); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return wrap(op, err)
	}
	// Repeat-safe (no Replay); the record is written after the delete.
	k := keying[struct{}](c, c.t.connections, c.t.connectionScope(op, connectionID), nil)
	_, err = keyed(ctx, op, k, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, wrap(op, c.b.Delete(ctx, c.t.connections, backend.Key{PK: connectionID}))
	})
	return err
}

// ListConnections implements ConnectionLister.ListConnections, which documents its errors.
func (c *core) ListConnections(ctx context.Context, roomID string, opts ddbkit.PageOptions) (_ ddbkit.Page[Connection], err error) {
	ctx, sp := c.start(ctx, "ListConnections")
	defer sp.End(&err)
	return list(ctx, c, "list connections", "RoomID", roomID, opts, c.t.connectionsQuery, connectionDecoder)
}

// checked runs w in one transaction with the check that roomID exists and
// is OPEN, exactly once (backend.Tx: one ClientRequestToken for every
// attempt, the one the caller's idempotency key gives in scope when ctx
// has one), and turns a failed check into ErrNotFound or ErrRoomClosed:
// the item the check saw tells which. w comes first, so that it is the
// item the caller's idempotency record refers to (backend.Keyed); when
// both fail (a comment ID the generator repeated, in a closed room), w's
// failure is the one reported. Tx is the one retry loop of the call.
func (c *core) checked(ctx context.Context, scope ddb.Scope, roomID string, w backend.Write) error {
	ws := []backend.Write{w, backend.Check(labelRoom, c.t.rooms, backend.Key{PK: roomID}, openWant)}
	err := c.b.Tx(ctx, backend.NewRun(ctx, scope, c.o.backoff()), ws)
	if old, ok := backend.Failed(err, labelRoom); ok {
		if old == nil {
			return errRoomNotFound(roomID)
		}
		return errRoomClosed(roomID)
	}
	return err
}

// keying is the backend.Keying of the write method whose first
// transactional write (or only write) goes to t, under scope, the scope of
// its idempotency token: a repeat under the caller's key with the same
// input (the method's arguments that scope's partition does not hold)
// within ddbkit.IdempotencyWindow returns the first call's result. A nil
// replay marks a method whose repeat is safe by itself (see
// backend.Keying.Replay). No table has a TTL attribute: records carry
// expiresAt, and stay until deleted (see "Other writers").
func keying[T any](c *core, t ddb.Table, scope ddb.Scope, replay func(context.Context, backend.Key) (T, error), input ...any) backend.Keying[T] {
	return backend.Keying[T]{Backend: c.b, Table: t, Scope: scope, Now: c.o.Clock, Input: input, Replay: replay}
}

// replay answers a repeat under an idempotency key: one consistent read of
// t's item at ref, the item the first call wrote, decoded as a get decodes
// it; gone is the error of an item gone since.
func replay[T any](c *core, t ddb.Table, decode *backend.Decoder[T], gone func(ref backend.Key) error) func(context.Context, backend.Key) (T, error) {
	return func(ctx context.Context, ref backend.Key) (T, error) {
		var zero T
		item, err := c.b.Get(ctx, t, ref)
		switch {
		case err != nil:
			return zero, err
		case item == nil:
			return zero, gone(ref)
		}
		return backend.Decode(c.b, t, item, decode)
	}
}

// keyed runs body under k (backend.Keyed), and wraps for op the errors
// body did not: a reused key's, and a replay's.
func keyed[T any](ctx context.Context, op string, k backend.Keying[T], body func(context.Context) (T, error)) (T, error) {
	var own error // body's last error, wrapped already
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (T, error) {
		v, err := body(ctx)
		own = err
		return v, err
	})
	if err != nil && err != own {
		err = wrap(op, err)
	}
	return v, err
}

// getOne reads the item of table t at id, consistently, and decodes it.
func getOne[T any](ctx context.Context, c *core, op string, t ddb.Table, id string, notFound error, decode *backend.Decoder[T]) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, wrap(op, err)
	}
	item, err := c.b.Get(ctx, t, backend.Key{PK: id})
	switch {
	case err != nil:
		return zero, wrap(op, err)
	case item == nil:
		return zero, wrap(op, notFound)
	}
	v, err := backend.Decode(c.b, t, item, decode)
	return v, wrap(op, err)
}

// list runs one page of a listing of the partition id and decodes its
// items. An item that cannot be decoded is left out and reported in
// Page.Skipped.
func list[T any](ctx context.Context, c *core, op, field, id string, opts ddbkit.PageOptions, query func(string) ddb.KeyQuery, decode *backend.Decoder[T]) (ddbkit.Page[T], error) {
	limit, err := c.listPrologue(ctx, op, field, id, opts, nil)
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	// No listing filters: a page reads its limit of index entries and one
	// more, whatever the partition holds.
	q := query(id)
	return backend.QueryPage(ctx, c.b, q, limit, opts.Cursor, backend.Filter{}, decode, func(err error) error { return wrap(op, err) })
}

// listPrologue checks a listing's partition ID, page options, the store's
// options (check, if not nil) and context, in that order, and returns its
// page limit.
func (c *core) listPrologue(ctx context.Context, op, field, id string, opts ddbkit.PageOptions, check func(op string) error) (int, error) {
	if err := checkID(op, field, id); err != nil {
		return 0, err
	}
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return 0, wrap(op, err)
	}
	if check != nil {
		if err := check(op); err != nil {
			return 0, err
		}
	}
	return limit, wrap(op, ctx.Err())
}

// closeGate orders one store's posts to a room and its closes of that room.
// A close waits until the posts in flight have finished, and posts that
// start meanwhile wait until the close has finished; posts run
// concurrently with each other. A close then stamps updatedAt after every
// comment that committed before it, although it is one write: without the
// gate, a post could read the clock after the close read it and commit
// before the close did. Both stores need it alike: the memory backend, like
// DynamoDB, makes each write atomic, not each operation. Waits end with the
// context. The gate orders only this store's own calls; see the package
// documentation for other writers.
type closeGate struct {
	mu    sync.Mutex
	rooms map[string]*roomGate
}

type roomGate struct {
	posts   int           // posts in flight
	closing chan struct{} // while a close waits or runs; closed when it ends
	drained chan struct{} // while a close waits for posts; closed at zero posts
}

// room returns roomID's gate, under g.mu.
func (g *closeGate) room(roomID string) *roomGate {
	if g.rooms == nil {
		g.rooms = make(map[string]*roomGate)
	}
	r := g.rooms[roomID]
	if r == nil {
		r = &roomGate{}
		g.rooms[roomID] = r
	}
	return r
}

// forget drops an idle gate, under g.mu.
func (g *closeGate) forget(roomID string, r *roomGate) {
	if r.posts == 0 && r.closing == nil && g.rooms[roomID] == r {
		delete(g.rooms, roomID)
	}
}

// post waits until no close of roomID runs, and registers a post until
// release is called.
func (g *closeGate) post(ctx context.Context, roomID string) (release func(), err error) {
	g.mu.Lock()
	for {
		r := g.room(roomID)
		if r.closing == nil {
			r.posts++
			g.mu.Unlock()
			return func() {
				g.mu.Lock()
				defer g.mu.Unlock()
				if r.posts--; r.posts == 0 && r.drained != nil {
					close(r.drained)
					r.drained = nil
				}
				g.forget(roomID, r)
			}, nil
		}
		wait := r.closing
		g.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		g.mu.Lock()
	}
}

// close waits until no other close of roomID runs and no post to it is in
// flight, and holds back posts until release is called.
func (g *closeGate) close(ctx context.Context, roomID string) (release func(), err error) {
	g.mu.Lock()
	for {
		r := g.room(roomID)
		if wait := r.closing; wait != nil {
			g.mu.Unlock()
			select {
			case <-wait:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			g.mu.Lock()
			continue
		}
		done := make(chan struct{})
		r.closing = done
		end := func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			r.closing, r.drained = nil, nil
			close(done)
			g.forget(roomID, r)
		}
		if r.posts == 0 {
			g.mu.Unlock()
			return end, nil
		}
		drained := make(chan struct{})
		r.drained = drained
		g.mu.Unlock()
		select {
		case <-drained:
			return end, nil
		case <-ctx.Done():
			end()
			return nil, ctx.Err()
		}
	}
}
