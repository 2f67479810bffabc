package livecomment

import (
	"context"
	"errors"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// DynamoStore is the Store on DynamoDB. Its reads of the tables are strongly
// consistent, so that it behaves like MemoryStore: a write is visible to the
// next read. Its listings read global secondary indexes, which cannot be:
// DynamoDB updates them asynchronously, so a listing may lag a write by a
// moment.
type DynamoStore struct {
	c     ddbkit.Client
	o     Options
	t     tables
	stamp *stamper
	gate  closeGate
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the three tables of the environment
// named by the options, which must exist with their indexes (see
// EnsureTables). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	return &DynamoStore{c: c, o: o, t: newTables(o.Env, o.CursorSecret), stamp: newStamper(o.Clock)}
}

// Attribute names and conditions used in expressions.
var (
	nRoomID    = expression.Name(attrRoomID)
	nStatus    = expression.Name(attrStatus)
	nUpdatedAt = expression.Name(attrUpdatedAt)
	roomIsOpen = expression.Equal(nStatus, expression.Value(string(RoomOpen)))
)

// The expressions of the writes, built once: per call only CloseRoom's
// stamp is bound (issue 15: building them per call was most of what the
// writes cost over hand-written SDK code).
var (
	// prepNew: a put of a new room or comment; its partition key is
	// roomId in both tables.
	prepNew = ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeNotExists(nRoomID)))
	// prepOpen: the check that the room is OPEN.
	prepOpen = ddb.MustPrepare(expression.NewBuilder().WithCondition(roomIsOpen))
	// prepClose: OPEN→CLOSED, stamping updatedAt with Param(0).
	prepClose = ddb.MustPrepare(expression.NewBuilder().
			WithUpdate(expression.Set(nStatus, expression.Value(string(RoomClosed))).Set(nUpdatedAt, ddb.Param(0))).
			WithCondition(roomIsOpen))
)

// Transaction item labels, by which cancellation reasons are told apart.
const (
	labelRoom = "room"
	labelItem = "item"
)

// CreateRoom implements RoomStore.CreateRoom, which documents its errors.
//
// One conditional put in a one-item TransactWriteItems (ddb.PutNew), with
// a ClientRequestToken scoped to the Rooms table, the operation and the
// host: a retry after throttling, a 5xx or a lost response repeats the
// token, so DynamoDB answers an attempt whose earlier twin committed with
// success and writes nothing again. A room found under the new ID is never
// taken for this call's own write, however equal it is: only the token
// proves that.
func (s *DynamoStore) CreateRoom(ctx context.Context, in NewRoom) (Room, error) {
	const op = "create room"
	if err := checkRoom(op, in); err != nil {
		return Room{}, err
	}
	if err := ctx.Err(); err != nil {
		return Room{}, wrap(op, err)
	}
	r := s.o.newRoom(in, s.stamp.now())
	item, err := roomToWrite(op, r)
	if err != nil {
		return Room{}, err
	}
	// PutNew is the one retry loop of the call.
	err = ddb.PutNew(ctx, s.c, s.o.backoff(), s.t.roomScope(op, in.HostID), s.t.rooms, item, prepNew)
	if ddb.IsConditionFailed(err) {
		return Room{}, wrap(op, errRoomExists(r.ID))
	}
	if err != nil {
		return Room{}, wrap(op, err)
	}
	return r, nil
}

// GetRoom implements RoomReader.GetRoom, which documents its errors.
func (s *DynamoStore) GetRoom(ctx context.Context, roomID string) (Room, error) {
	const op = "get room"
	if err := checkID(op, "RoomID", roomID); err != nil {
		return Room{}, err
	}
	if err := ctx.Err(); err != nil {
		return Room{}, wrap(op, err)
	}
	item, err := s.get(ctx, s.t.rooms, s.t.roomKey(roomID))
	if err != nil || item == nil {
		return Room{}, wrap(op, orNotFound(err, errRoomNotFound(roomID)))
	}
	r, err := s.t.decodeRoom(item)
	return r, wrap(op, err)
}

// ListHostRooms implements RoomReader.ListHostRooms, which documents its errors.
func (s *DynamoStore) ListHostRooms(ctx context.Context, hostID string, opts ddbkit.PageOptions) (ddbkit.Page[Room], error) {
	return list(ctx, s, "list host rooms", "HostID", hostID, opts, s.t.hostRoomsQuery, s.t.decodeRoom)
}

// CloseRoom implements RoomStore.CloseRoom, which documents its errors.
//
// It is one UpdateItem: if the room is OPEN, set it CLOSED and stamp
// updatedAt, together, and return the new item. A room that is not OPEN
// fails the condition, and DynamoDB returns the item as it is: closed
// before, by another call or by an earlier attempt of this one whose
// response was lost (then its updatedAt is this call's stamp); either way
// the stored room is the answer, so a retry or a repeated call cannot
// stamp a closed room again. The close waits for this store's posts to
// the room that are in flight, and holds back new ones until it is done
// (see closeGate), so its stamp is later than every comment of this store
// that it lets through.
func (s *DynamoStore) CloseRoom(ctx context.Context, roomID string) (Room, error) {
	const op = "close room"
	if err := checkID(op, "RoomID", roomID); err != nil {
		return Room{}, err
	}
	if err := ctx.Err(); err != nil {
		return Room{}, wrap(op, err)
	}
	release, err := s.gate.close(ctx, roomID)
	if err != nil {
		return Room{}, wrap(op, err)
	}
	defer release()
	now := s.stamp.now()
	if err := checkStamp(op, now); err != nil {
		return Room{}, err
	}
	in := &dynamodb.UpdateItemInput{TableName: aws.String(s.t.rooms.Name), Key: s.t.roomKey(roomID),
		UpdateExpression: prepClose.Update(), ConditionExpression: prepClose.Condition(),
		ExpressionAttributeNames: prepClose.Names(), ExpressionAttributeValues: prepClose.Values(ddb.S(keys.Timestamp(now))),
		ReturnValues: types.ReturnValueAllNew, ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
	var out ddb.Item
	// Retried also after a conflict: an UpdateItem on an item that a
	// transaction (a post or join from elsewhere) holds fails with one.
	// UpdateItem does not retry by itself, so this is the one loop.
	err = ddb.RetryIf(ctx, s.o.backoff(), ddb.RetryableWithToken, func() error {
		res, err := s.c.UpdateItem(ctx, in)
		if err == nil {
			out = res.Attributes
		}
		return err
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if ccf.Item == nil {
			return Room{}, wrap(op, errRoomNotFound(roomID))
		}
		r, err := s.t.decodeRoom(ccf.Item)
		return r, wrap(op, err)
	}
	if err != nil {
		return Room{}, wrap(op, err)
	}
	r, err := s.t.decodeRoom(out)
	return r, wrap(op, err)
}

// PostComment implements CommentStore.PostComment, which documents its errors.
func (s *DynamoStore) PostComment(ctx context.Context, roomID string, in NewComment) (Comment, error) {
	const op = "post comment"
	in, err := checkComment(op, roomID, in)
	if err != nil {
		return Comment{}, err
	}
	if err := ctx.Err(); err != nil {
		return Comment{}, wrap(op, err)
	}
	release, err := s.gate.post(ctx, roomID)
	if err != nil {
		return Comment{}, wrap(op, err)
	}
	defer release()
	c := s.o.newComment(roomID, in, s.stamp)
	item, err := commentToWrite(op, c)
	if err != nil {
		return Comment{}, err
	}
	var tx ddb.Tx
	tx.PutPrepared(labelItem, s.t.comments, item, prepNew)
	err = s.execChecked(ctx, s.t.commentScope(op, roomID), &tx, roomID)
	if _, ok := ddb.ConditionFailed(err, labelItem); ok {
		return Comment{}, wrap(op, errCommentExists(roomID, c.ID))
	}
	if err != nil {
		return Comment{}, wrap(op, err)
	}
	return c, nil
}

// ListComments implements CommentReader.ListComments, which documents its errors.
func (s *DynamoStore) ListComments(ctx context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Comment], error) {
	return list(ctx, s, "list comments", "RoomID", roomID, opts, s.t.commentsQuery, s.t.decodeComment)
}

// JoinRoom implements ConnectionStore.JoinRoom, which documents its errors.
func (s *DynamoStore) JoinRoom(ctx context.Context, roomID, connectionID string) (Connection, error) {
	const op = "join room"
	if err := checkJoin(op, roomID, connectionID); err != nil {
		return Connection{}, err
	}
	if err := ctx.Err(); err != nil {
		return Connection{}, wrap(op, err)
	}
	c := Connection{ID: connectionID, RoomID: roomID, JoinedAt: s.stamp.now()}
	item, err := connectionToWrite(op, c)
	if err != nil {
		return Connection{}, err
	}
	var tx ddb.Tx
	tx.Put(labelItem, s.t.connections, item)
	if err := s.execChecked(ctx, s.t.connectionScope(op, connectionID), &tx, roomID); err != nil {
		return Connection{}, wrap(op, err)
	}
	return c, nil
}

// GetConnection implements ConnectionReader.GetConnection, which documents its errors.
func (s *DynamoStore) GetConnection(ctx context.Context, connectionID string) (Connection, error) {
	const op = "get connection"
	if err := checkID(op, "ConnectionID", connectionID); err != nil {
		return Connection{}, err
	}
	if err := ctx.Err(); err != nil {
		return Connection{}, wrap(op, err)
	}
	item, err := s.get(ctx, s.t.connections, s.t.connectionKey(connectionID))
	if err != nil || item == nil {
		return Connection{}, wrap(op, orNotFound(err, errConnectionNotFound(connectionID)))
	}
	c, err := s.t.decodeConnection(item)
	return c, wrap(op, err)
}

// Disconnect implements ConnectionStore.Disconnect, which documents its errors.
//
// One unconditional DeleteItem, retried after throttling, a 5xx or a lost
// response: deleting again what is gone is a success.
func (s *DynamoStore) Disconnect(ctx context.Context, connectionID string) error {
	const op = "disconnect"
	if err := checkID(op, "ConnectionID", connectionID); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return wrap(op, err)
	}
	in := &dynamodb.DeleteItemInput{TableName: aws.String(s.t.connections.Name), Key: s.t.connectionKey(connectionID)}
	return wrap(op, ddb.RetryIf(ctx, s.o.backoff(), ddb.RetryableWithToken, func() error {
		_, err := s.c.DeleteItem(ctx, in)
		return err
	}))
}

// ListConnections implements ConnectionLister.ListConnections, which documents its errors.
func (s *DynamoStore) ListConnections(ctx context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Connection], error) {
	return list(ctx, s, "list connections", "RoomID", roomID, opts, s.t.connectionsQuery, s.t.decodeConnection)
}

// execChecked adds to tx the check that roomID exists and is OPEN, runs it
// exactly once (ddb.ExecTx: one ClientRequestToken for every attempt, the
// one the caller's idempotency key gives in scope when ctx has one), and
// turns a failed check into ErrNotFound or ErrRoomClosed: the item the
// check saw tells which. ExecTx is the one retry loop of the call.
func (s *DynamoStore) execChecked(ctx context.Context, scope ddb.Scope, tx *ddb.Tx, roomID string) error {
	tx.CheckPrepared(labelRoom, s.t.rooms, s.t.roomKey(roomID), prepOpen)
	err := ddb.ExecTx(ctx, s.c, s.o.backoff(), scope, tx)
	if old, ok := ddb.ConditionFailed(err, labelRoom); ok {
		if old == nil {
			return errRoomNotFound(roomID)
		}
		return errRoomClosed(roomID)
	}
	return err
}

// list runs one page of a listing of the partition id and decodes its
// items. An item that cannot be decoded is left out and reported in
// Page.Skipped.
func list[T any](ctx context.Context, s *DynamoStore, op, field, id string, opts ddbkit.PageOptions, query func(string) ddb.KeyQuery, decode func(ddb.Item) (T, error)) (ddbkit.Page[T], error) {
	limit, err := listPrologue(op, field, id, opts)
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	if err := ctx.Err(); err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	// QueryPage retries each Query itself: the one retry loop of the call.
	items, next, err := ddb.QueryPage(ctx, s.c, s.o.backoff(), query(id), limit, opts.Cursor, nil)
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	p := ddbkit.Page[T]{Items: make([]T, 0, len(items)), Next: next}
	for _, item := range items {
		v, err := decode(item)
		if err != nil {
			p.Skipped = append(p.Skipped, wrap(op, err))
			continue
		}
		p.Items = append(p.Items, v)
	}
	return p, nil
}

// retry runs fn, one plain call that is safe to repeat (a GetItem), again
// after throttling, a 5xx or a lost response, within Options.Retry: the
// SDK's own retryer gives up sooner, and reads should outlast what writes
// do. fn must not retry by itself, so that a step makes at most
// Options.Retry.MaxAttempts calls.
func (s *DynamoStore) retry(ctx context.Context, fn func() error) error {
	return ddb.RetryIf(ctx, s.o.backoff(), ddb.RetryableWithToken, fn)
}

// get reads the item at key consistently, or nil when there is none.
func (s *DynamoStore) get(ctx context.Context, t ddb.Table, key ddb.Item) (item ddb.Item, err error) {
	err = s.retry(ctx, func() error {
		item, err = ddb.GetItem(ctx, s.c, t, key)
		return err
	})
	return item, err
}

func orNotFound(err, notFound error) error {
	if err != nil {
		return err
	}
	return notFound
}

// closeGate orders one store's posts to a room and its closes of that room.
// A close waits until the posts in flight have finished, and posts that
// start meanwhile wait until the close has finished; posts run
// concurrently with each other. A close then stamps updatedAt after every
// comment that committed before it, although it is one write: without the
// gate, a post could read the clock after the close read it and commit
// before the close did. Waits end with the context. The gate orders only
// this store's own calls; see the package documentation for other writers.
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
