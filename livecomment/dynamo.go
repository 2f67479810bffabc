package livecomment

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// DynamoStore is the Store on DynamoDB. Its reads of the tables are strongly
// consistent, so that it behaves like MemoryStore: a write is visible to the
// next read. Its index listings (ListHostRooms, ListConnections) cannot be:
// DynamoDB updates global secondary indexes asynchronously.
type DynamoStore struct {
	c ddbkit.Client
	o Options
	t tables
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the three tables of the environment
// named by the options, which must exist (see EnsureTables). c is usually a
// *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	return &DynamoStore{c: c, o: o, t: newTables(o.Env)}
}

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

// Attribute names and conditions used in expressions.
var (
	nRoomID      = expression.Name(attrRoomID)
	nStatus      = expression.Name(attrStatus)
	nUpdatedAt   = expression.Name(attrUpdatedAt)
	roomIsOpen   = expression.Equal(nStatus, expression.Value(string(RoomOpen)))
	roomIsClosed = expression.Equal(nStatus, expression.Value(string(RoomClosed)))
)

// Transaction item labels, by which cancellation reasons are told apart.
const (
	labelRoom = "room"
	labelItem = "item"
)

// CreateRoom implements RoomStore.CreateRoom, which documents its errors.
func (s *DynamoStore) CreateRoom(ctx context.Context, in NewRoom) (Room, error) {
	const op = "create room"
	r, err := s.o.newRoom(op, in)
	if err != nil {
		return Room{}, err
	}
	item, err := marshalRoom(r)
	if err != nil {
		return Room{}, wrap(op, err)
	}
	err = ddb.PutItem(ctx, s.c, s.t.rooms, item, expression.AttributeNotExists(nRoomID))
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
	item, err := ddb.GetItem(ctx, s.c, s.t.rooms, s.t.roomKey(roomID))
	if err != nil || item == nil {
		return Room{}, wrap(op, orNotFound(err, errRoomNotFound(roomID)))
	}
	r, err := unmarshalRoom(item)
	return r, wrap(op, err)
}

// ListHostRooms implements RoomReader.ListHostRooms, which documents its errors.
func (s *DynamoStore) ListHostRooms(ctx context.Context, hostID string, opts ddbkit.PageOptions) (ddbkit.Page[Room], error) {
	return list(ctx, s, "list host rooms", "HostID", hostID, opts, s.t.hostRoomsQuery, unmarshalRoom)
}

// CloseRoom implements RoomStore.CloseRoom, which documents its errors.
//
// It takes two writes. The first moves the room from OPEN to CLOSED; from
// then on no comment can commit. The second stamps updatedAt with a time
// read after the first returned, so it is no earlier than the createdAt of
// any comment that committed before the close (which read the clock before
// committing). If the second write fails, the room is closed but keeps its
// previous updatedAt, and CloseRoom returns the error. A concurrent
// CloseRoom that loses the race may return the room before the winner's
// second write.
func (s *DynamoStore) CloseRoom(ctx context.Context, roomID string) (Room, error) {
	const op = "close room"
	if err := checkID(op, "RoomID", roomID); err != nil {
		return Room{}, err
	}
	// Retried, like the second write, because an UpdateItem on an item
	// that a transaction (a post, a join) holds fails with a conflict.
	err := ddb.Retry(ctx, s.o.backoff(), func() error {
		_, err := ddb.UpdateItem(ctx, s.c, s.t.rooms, s.t.roomKey(roomID),
			expression.Set(nStatus, expression.Value(string(RoomClosed))), roomIsOpen, types.ReturnValueNone)
		return err
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if ccf.Item == nil {
			return Room{}, wrap(op, errRoomNotFound(roomID))
		}
		r, err := unmarshalRoom(ccf.Item) // already closed: unchanged
		return r, wrap(op, err)
	}
	if err != nil {
		return Room{}, wrap(op, err)
	}
	now := keys.Timestamp(s.o.now())
	var out ddb.Item
	err = ddb.Retry(ctx, s.o.backoff(), func() error {
		out, err = ddb.UpdateItem(ctx, s.c, s.t.rooms, s.t.roomKey(roomID), expression.Set(nUpdatedAt, expression.Value(now)),
			roomIsClosed, types.ReturnValueAllNew)
		return err
	})
	if err != nil {
		return Room{}, wrap(op, fmt.Errorf("room %q is closed, but stamping its updatedAt failed: %w", roomID, err))
	}
	r, err := unmarshalRoom(out)
	return r, wrap(op, err)
}

// PostComment implements CommentStore.PostComment, which documents its errors.
func (s *DynamoStore) PostComment(ctx context.Context, roomID string, in NewComment) (Comment, error) {
	const op = "post comment"
	in, err := checkComment(op, roomID, in)
	if err != nil {
		return Comment{}, err
	}
	c := s.o.stampComment(roomID, in)
	item, err := attributevalue.MarshalMap(commentItem{RoomID: roomID, CommentID: c.ID, Content: c.Content,
		Nickname: c.Nickname, CreatedAt: keys.Timestamp(c.CreatedAt)})
	if err != nil {
		return Comment{}, wrap(op, err)
	}
	var tx ddb.Tx
	tx.Put(labelItem, s.t.comments, item, expression.AttributeNotExists(nRoomID))
	err = s.execChecked(ctx, &tx, roomID)
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
	return list(ctx, s, "list comments", "RoomID", roomID, opts, s.t.commentsQuery, unmarshalComment)
}

// JoinRoom implements ConnectionStore.JoinRoom, which documents its errors.
func (s *DynamoStore) JoinRoom(ctx context.Context, roomID, connectionID string) (Connection, error) {
	const op = "join room"
	if err := checkJoin(op, roomID, connectionID); err != nil {
		return Connection{}, err
	}
	c := Connection{ID: connectionID, RoomID: roomID, JoinedAt: s.o.now()}
	item, err := attributevalue.MarshalMap(connectionItem{ConnectionID: c.ID, RoomID: roomID, Timestamp: keys.Timestamp(c.JoinedAt)})
	if err != nil {
		return Connection{}, wrap(op, err)
	}
	var tx ddb.Tx
	tx.Put(labelItem, s.t.connections, item)
	if err := s.execChecked(ctx, &tx, roomID); err != nil {
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
	item, err := ddb.GetItem(ctx, s.c, s.t.connections, s.t.connectionKey(connectionID))
	if err != nil || item == nil {
		return Connection{}, wrap(op, orNotFound(err, errConnectionNotFound(connectionID)))
	}
	c, err := unmarshalConnection(item)
	return c, wrap(op, err)
}

// Disconnect implements ConnectionStore.Disconnect, which documents its errors.
func (s *DynamoStore) Disconnect(ctx context.Context, connectionID string) error {
	const op = "disconnect"
	if err := checkID(op, "ConnectionID", connectionID); err != nil {
		return err
	}
	_, err := s.c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.t.connections.Name),
		Key: s.t.connectionKey(connectionID)})
	return wrap(op, err)
}

// ListConnections implements ConnectionLister.ListConnections, which documents its errors.
func (s *DynamoStore) ListConnections(ctx context.Context, roomID string, opts ddbkit.PageOptions) (ddbkit.Page[Connection], error) {
	return list(ctx, s, "list connections", "RoomID", roomID, opts, s.t.connectionsQuery, unmarshalConnection)
}

// execChecked adds to tx the check that roomID exists and is OPEN, runs it,
// and turns a failed check into ErrNotFound or ErrRoomClosed: the item the
// check saw tells which.
func (s *DynamoStore) execChecked(ctx context.Context, tx *ddb.Tx, roomID string) error {
	tx.Check(labelRoom, s.t.rooms, s.t.roomKey(roomID), roomIsOpen)
	err := s.exec(ctx, tx)
	if old, ok := ddb.ConditionFailed(err, labelRoom); ok {
		if old == nil {
			return errRoomNotFound(roomID)
		}
		return errRoomClosed(roomID)
	}
	return err
}

// exec runs tx, retrying what DynamoDB answers under load: throttling and
// transaction conflicts, as ddb.Retry does, and also 5xx errors, which
// ddb.Retry leaves alone. A 5xx that outlasts the attempts is not a
// conflict. Every attempt carries the same ClientRequestToken,
// so a retry after an ambiguous 500 cannot apply the writes twice: if the
// first attempt committed, DynamoDB reports success without writing again.
func (s *DynamoStore) exec(ctx context.Context, tx *ddb.Tx) error {
	tx.Token(ddbkit.NewUUIDv4())
	retryable := func(err error) bool { return ddb.Retryable(err) || serverError(err) }
	return ddb.RetryIf(ctx, s.o.backoff(), retryable, func() error { return tx.Exec(ctx, s.c) })
}

// serverError reports a DynamoDB 5xx: an error the server, not the request,
// is at fault for.
func serverError(err error) bool {
	var api smithy.APIError
	return errors.As(err, &api) && api.ErrorFault() == smithy.FaultServer
}

// list runs one page of a listing of the partition id and converts its
// items.
func list[T any](ctx context.Context, s *DynamoStore, op, field, id string, opts ddbkit.PageOptions, query func(string) ddb.KeyQuery, conv func(ddb.Item) (T, error)) (ddbkit.Page[T], error) {
	limit, err := listPrologue(op, field, id, opts)
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	items, next, err := ddb.QueryPage(ctx, s.c, query(id), limit, opts.Cursor, nil)
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	out := make([]T, 0, len(items))
	for _, item := range items {
		v, err := conv(item)
		if err != nil {
			return ddbkit.Page[T]{}, wrap(op, err)
		}
		out = append(out, v)
	}
	return ddbkit.Page[T]{Items: out, Next: next}, nil
}

func orNotFound(err, notFound error) error {
	if err != nil {
		return err
	}
	return notFound
}

func marshalRoom(r Room) (ddb.Item, error) {
	return attributevalue.MarshalMap(roomItem{RoomID: r.ID, Name: r.Name, HostID: r.HostID, Status: string(r.Status),
		CreatedAt: keys.Timestamp(r.CreatedAt), UpdatedAt: keys.Timestamp(r.UpdatedAt)})
}

func unmarshalRoom(item ddb.Item) (Room, error) {
	var it roomItem
	if err := attributevalue.UnmarshalMap(item, &it); err != nil {
		return Room{}, err
	}
	created, err := parseTime(attrCreatedAt, it.CreatedAt)
	if err != nil {
		return Room{}, err
	}
	updated, err := parseTime(attrUpdatedAt, it.UpdatedAt)
	return Room{ID: it.RoomID, Name: it.Name, HostID: it.HostID, Status: RoomStatus(it.Status),
		CreatedAt: created, UpdatedAt: updated}, err
}

func unmarshalComment(item ddb.Item) (Comment, error) {
	var it commentItem
	if err := attributevalue.UnmarshalMap(item, &it); err != nil {
		return Comment{}, err
	}
	created, err := parseTime(attrCreatedAt, it.CreatedAt)
	return Comment{RoomID: it.RoomID, ID: it.CommentID, Content: it.Content, Nickname: it.Nickname, CreatedAt: created}, err
}

func unmarshalConnection(item ddb.Item) (Connection, error) {
	var it connectionItem
	if err := attributevalue.UnmarshalMap(item, &it); err != nil {
		return Connection{}, err
	}
	joined, err := parseTime(attrTimestamp, it.Timestamp)
	return Connection{ID: it.ConnectionID, RoomID: it.RoomID, JoinedAt: joined}, err
}

func parseTime(attr, s string) (time.Time, error) {
	t, err := keys.ParseTimestamp(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored %s: %w", attr, err)
	}
	return t, nil
}
