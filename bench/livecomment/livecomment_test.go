package livecomment_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"
	"github.com/guregu/dynamo/v2"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/bench"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
)

// The items of the seed's three tables, attribute for attribute: what the
// hand-written and guregu variants decode into and write.
type roomItem struct {
	RoomID    string `dynamodbav:"roomId" dynamo:"roomId"`
	Name      string `dynamodbav:"name" dynamo:"name"`
	HostID    string `dynamodbav:"hostId" dynamo:"hostId"`
	Status    string `dynamodbav:"status" dynamo:"status"`
	CreatedAt string `dynamodbav:"createdAt" dynamo:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt" dynamo:"updatedAt"`
}

type commentItem struct {
	RoomID    string `dynamodbav:"roomId" dynamo:"roomId"`
	CommentID string `dynamodbav:"commentId" dynamo:"commentId"`
	Content   string `dynamodbav:"content" dynamo:"content"`
	Nickname  string `dynamodbav:"nickname" dynamo:"nickname"`
	CreatedAt string `dynamodbav:"createdAt" dynamo:"createdAt"`
}

type connectionItem struct {
	ConnectionID string `dynamodbav:"connectionId" dynamo:"connectionId"`
	RoomID       string `dynamodbav:"roomId" dynamo:"roomId"`
	Timestamp    string `dynamodbav:"timestamp" dynamo:"timestamp"`
}

const (
	env      = "bench"
	hostID   = "host-5f8c2a"
	stubRoom = "6ae6783f-4fbd-491b-aeb8-8b73a48ed247"
	stubConn = "Vx3lQdFYtjMCJwQ="
	isoMilli = "2006-01-02T15:04:05.000Z"
)

var names = livecomment.Tables(env)

func roomID(i int) string       { return fmt.Sprintf("6ae6783f-4fbd-491b-aeb8-%012d", i) }
func commentID(i int) string    { return fmt.Sprintf("018cc251-f400-7000-8000-%012d", i) }
func connectionID(i int) string { return fmt.Sprintf("Vx3lQdFYtjMCJwQ%05d=", i) }

func stubRoomItem(i int, status string) roomItem {
	return roomItem{RoomID: roomID(i), Name: "新製品発表会 Q&A セッション", HostID: hostID, Status: status,
		CreatedAt: "2024-01-01T00:00:00.000Z", UpdatedAt: "2024-01-01T00:00:00.000Z"}
}

func stubCommentItem(i int) commentItem {
	return commentItem{RoomID: stubRoom, CommentID: commentID(i), Content: "新プロジェクトの企画書、楽しみにしています！",
		Nickname: "たろう", CreatedAt: "2024-01-01T00:00:00.000Z"}
}

func stubConnectionItem(i int) connectionItem {
	return connectionItem{ConnectionID: connectionID(i), RoomID: stubRoom, Timestamp: "2024-01-01T00:00:00.000Z"}
}

func itemJSON(v any) string {
	av, err := attributevalue.MarshalMap(v)
	if err != nil {
		panic(err)
	}
	return bench.ItemJSON(av)
}

// pages is a Query handler of n items made by item, whose keys hold the
// index i in the attribute attr (formatted by id), and whose
// LastEvaluatedKey is lek(i).
func pages(n int, item func(i int) string, attr, format string, lek func(i int) string) bench.Handler {
	items := make([]string, n)
	for i := range items {
		items[i] = item(i)
	}
	return bench.QueryPages(items, func(esk map[string]string) int {
		var i int
		fmt.Sscanf(esk[attr], format, &i)
		return i + 1
	}, lek)
}

// lcStub answers every write with success (UpdateItem with the closed
// room), GetItem with a room or a connection, and Query with pages of n
// rooms, comments or connections, each in the sub-benchmark that needs it.
func lcStub() *bench.Stub {
	closed := stubRoomItem(0, "CLOSED")
	closed.UpdatedAt = "2024-01-01T01:00:00.000Z"
	return bench.NewStub().
		Handle("PutItem", bench.Canned(`{}`)).
		Handle("UpdateItem", bench.Canned(`{"Attributes":`+itemJSON(closed)+`}`)).
		Handle("DeleteItem", bench.Canned(`{}`)).
		Handle("TransactWriteItems", bench.Canned(`{}`))
}

func roomsQuery(n int) bench.Handler {
	return pages(n, func(i int) string { return itemJSON(stubRoomItem(i, "OPEN")) }, "roomId", "6ae6783f-4fbd-491b-aeb8-%d",
		func(i int) string {
			return `{"roomId":{"S":"` + roomID(i) + `"},"hostId":{"S":"` + hostID + `"},"createdAt":{"S":"2024-01-01T00:00:00.000Z"}}`
		})
}

func commentsQuery(n int) bench.Handler {
	return pages(n, func(i int) string { return itemJSON(stubCommentItem(i)) }, "commentId", "018cc251-f400-7000-8000-%d",
		func(i int) string {
			return `{"roomId":{"S":"` + stubRoom + `"},"commentId":{"S":"` + commentID(i) + `"},"createdAt":{"S":"2024-01-01T00:00:00.000Z"}}`
		})
}

func connectionsQuery(n int) bench.Handler {
	return pages(n, func(i int) string { return itemJSON(stubConnectionItem(i)) }, "connectionId", "Vx3lQdFYtjMCJwQ%d=",
		func(i int) string {
			return `{"connectionId":{"S":"` + connectionID(i) + `"},"roomId":{"S":"` + stubRoom + `"}}`
		})
}

// wantPage checks a 50-item page with a next cursor.
func wantPage(n int, more bool, err error) error {
	if err == nil && (n != 50 || !more) {
		err = fmt.Errorf("a page of %d items (more: %v), want 50 and more", n, more)
	}
	return err
}

func key(attr, v string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attr: &types.AttributeValueMemberS{Value: v}}
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// BenchmarkLivecomment compares each operation of livecomment's DynamoStore
// with the same calls written by hand on aws-sdk-go-v2 and with
// guregu/dynamo v2, on a stub transport.
func BenchmarkLivecomment(b *testing.B) {
	ctx := context.Background()
	clock := ddbkit.StepClock(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond)
	now := func() string { return clock().UTC().Format(isoMilli) }
	opts := func(o *livecomment.Options) { o.Env = env; o.Clock = clock }
	// run compares the three variants on stub.
	tp, mp := bench.OTel()
	traced := func(o *livecomment.Options) { o.TracerProvider, o.MeterProvider = tp, mp }
	run := func(b *testing.B, stub *bench.Stub, ddbkitOp func(s *livecomment.DynamoStore) func(int) error,
		hand func(c *dynamodb.Client) func(int) error, gur func(g *dynamo.DB) func(int) error) {
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: ddbkitOp(livecomment.NewDynamoStore(stub.Client(), opts))},
			bench.Variant{Name: "handwritten", Op: hand(stub.Client())},
			bench.Variant{Name: "guregu", Op: gur(dynamo.New(stub.Config()))},
			bench.Variant{Name: "otel", Op: ddbkitOp(livecomment.NewDynamoStore(stub.Client(), opts, traced)), Overhead: true})
	}

	b.Run("GetRoom", func(b *testing.B) {
		run(b, lcStub().Handle("GetItem", bench.Canned(`{"Item":`+itemJSON(stubRoomItem(0, "OPEN"))+`}`)),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error { _, err := s.GetRoom(ctx, stubRoom); return err }
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(names.Rooms), ConsistentRead: aws.Bool(true),
						Key: key("roomId", stubRoom)})
					if err != nil {
						return err
					}
					var r roomItem
					return attributevalue.UnmarshalMap(out.Item, &r)
				}
			},
			func(g *dynamo.DB) func(int) error {
				t := g.Table(names.Rooms)
				return func(int) error {
					var r roomItem
					return t.Get("roomId", stubRoom).Consistent(true).One(ctx, &r)
				}
			})
	})

	b.Run("ListHostRooms50", func(b *testing.B) {
		run(b, lcStub().Handle("Query", roomsQuery(200)),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error {
					p, err := s.ListHostRooms(ctx, hostID, ddbkit.PageOptions{Limit: 50})
					return wantPage(len(p.Items), p.Next != "", err)
				}
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					out, err := c.Query(ctx, &dynamodb.QueryInput{
						TableName: aws.String(names.Rooms), IndexName: aws.String(livecomment.HostIDIndex),
						KeyConditionExpression:    aws.String("hostId = :h"),
						ExpressionAttributeValues: map[string]types.AttributeValue{":h": str(hostID)},
						ScanIndexForward:          aws.Bool(false), Limit: aws.Int32(50),
					})
					if err != nil {
						return err
					}
					var rs []roomItem
					err = attributevalue.UnmarshalListOfMaps(out.Items, &rs)
					return wantPage(len(rs), out.LastEvaluatedKey != nil, err)
				}
			},
			func(g *dynamo.DB) func(int) error {
				t := g.Table(names.Rooms)
				return func(int) error {
					var rs []roomItem
					next, err := t.Get("hostId", hostID).Index(livecomment.HostIDIndex).Order(dynamo.Descending).
						SearchLimit(50).AllWithLastEvaluatedKey(ctx, &rs)
					return wantPage(len(rs), next != nil, err)
				}
			})
	})

	b.Run("CreateRoom", func(b *testing.B) {
		in := livecomment.NewRoom{Name: "新製品発表会 Q&A セッション", HostID: hostID}
		newRoom := func() roomItem {
			at := now()
			return roomItem{RoomID: uuid.NewString(), Name: in.Name, HostID: in.HostID, Status: "OPEN", CreatedAt: at, UpdatedAt: at}
		}
		run(b, lcStub(),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error { _, err := s.CreateRoom(ctx, in); return err }
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					item, err := attributevalue.MarshalMap(newRoom())
					if err != nil {
						return err
					}
					// A one-item transaction with a ClientRequestToken, as
					// ddbkit's CreateRoom sends (ddb.PutNew), so that a
					// retried create can tell its own write from another's.
					_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
						ClientRequestToken: aws.String(uuid.NewString()),
						TransactItems: []types.TransactWriteItem{
							{Put: &types.Put{TableName: aws.String(names.Rooms), Item: item,
								ConditionExpression:                 aws.String("attribute_not_exists(roomId)"),
								ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
						}})
					return err
				}
			},
			func(g *dynamo.DB) func(int) error {
				t := g.Table(names.Rooms)
				return func(int) error {
					return g.WriteTx().Put(t.Put(newRoom()).If("attribute_not_exists(roomId)")).Idempotent(true).Run(ctx)
				}
			})
	})

	b.Run("CloseRoom", func(b *testing.B) {
		run(b, lcStub(),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error { _, err := s.CloseRoom(ctx, stubRoom); return err }
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(names.Rooms), Key: key("roomId", stubRoom),
						UpdateExpression:         aws.String("SET #s = :closed, updatedAt = :now"),
						ConditionExpression:      aws.String("#s = :open"),
						ExpressionAttributeNames: map[string]string{"#s": "status"},
						ExpressionAttributeValues: map[string]types.AttributeValue{
							":closed": str("CLOSED"), ":now": str(now()), ":open": str("OPEN"),
						},
						ReturnValues:                        types.ReturnValueAllNew,
						ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
					if err != nil {
						return err
					}
					var r roomItem
					return attributevalue.UnmarshalMap(out.Attributes, &r)
				}
			},
			func(g *dynamo.DB) func(int) error {
				t := g.Table(names.Rooms)
				return func(int) error {
					var r roomItem
					return t.Update("roomId", stubRoom).Set("status", "CLOSED").Set("updatedAt", now()).
						If("$ = ?", "status", "OPEN").Value(ctx, &r)
				}
			})
	})

	b.Run("PostComment", func(b *testing.B) {
		in := livecomment.NewComment{Content: "新プロジェクトの企画書、楽しみにしています！", Nickname: "たろう"}
		newComment := func() commentItem {
			return commentItem{RoomID: stubRoom, CommentID: uuid.Must(uuid.NewV7()).String(), Content: in.Content,
				Nickname: in.Nickname, CreatedAt: now()}
		}
		run(b, lcStub(),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error { _, err := s.PostComment(ctx, stubRoom, in); return err }
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					item, err := attributevalue.MarshalMap(newComment())
					if err != nil {
						return err
					}
					_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
						ClientRequestToken: aws.String(uuid.NewString()),
						TransactItems: []types.TransactWriteItem{
							{Put: &types.Put{TableName: aws.String(names.Comments), Item: item,
								ConditionExpression:                 aws.String("attribute_not_exists(roomId)"),
								ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
							{ConditionCheck: &types.ConditionCheck{TableName: aws.String(names.Rooms), Key: key("roomId", stubRoom),
								ConditionExpression:                 aws.String("#s = :open"),
								ExpressionAttributeNames:            map[string]string{"#s": "status"},
								ExpressionAttributeValues:           map[string]types.AttributeValue{":open": str("OPEN")},
								ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
						}})
					return err
				}
			},
			func(g *dynamo.DB) func(int) error {
				comments, rooms := g.Table(names.Comments), g.Table(names.Rooms)
				return func(int) error {
					return g.WriteTx().
						Put(comments.Put(newComment()).If("attribute_not_exists(roomId)")).
						Check(rooms.Check("roomId", stubRoom).If("$ = ?", "status", "OPEN")).
						Idempotent(true).Run(ctx)
				}
			})
	})

	b.Run("ListComments50", func(b *testing.B) {
		run(b, lcStub().Handle("Query", commentsQuery(200)),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error {
					p, err := s.ListComments(ctx, stubRoom, ddbkit.PageOptions{Limit: 50})
					return wantPage(len(p.Items), p.Next != "", err)
				}
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					out, err := c.Query(ctx, &dynamodb.QueryInput{
						TableName: aws.String(names.Comments), IndexName: aws.String(livecomment.CommentsByTimeIndex),
						KeyConditionExpression:    aws.String("roomId = :r"),
						ExpressionAttributeValues: map[string]types.AttributeValue{":r": str(stubRoom)},
						Limit:                     aws.Int32(50),
					})
					if err != nil {
						return err
					}
					var cs []commentItem
					err = attributevalue.UnmarshalListOfMaps(out.Items, &cs)
					return wantPage(len(cs), out.LastEvaluatedKey != nil, err)
				}
			},
			func(g *dynamo.DB) func(int) error {
				t := g.Table(names.Comments)
				return func(int) error {
					var cs []commentItem
					next, err := t.Get("roomId", stubRoom).Index(livecomment.CommentsByTimeIndex).
						SearchLimit(50).AllWithLastEvaluatedKey(ctx, &cs)
					return wantPage(len(cs), next != nil, err)
				}
			})
	})

	b.Run("JoinRoom", func(b *testing.B) {
		newConnection := func() connectionItem {
			return connectionItem{ConnectionID: stubConn, RoomID: stubRoom, Timestamp: now()}
		}
		run(b, lcStub(),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error { _, err := s.JoinRoom(ctx, stubRoom, stubConn); return err }
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					item, err := attributevalue.MarshalMap(newConnection())
					if err != nil {
						return err
					}
					_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
						ClientRequestToken: aws.String(uuid.NewString()),
						TransactItems: []types.TransactWriteItem{
							{Put: &types.Put{TableName: aws.String(names.Connections), Item: item}},
							{ConditionCheck: &types.ConditionCheck{TableName: aws.String(names.Rooms), Key: key("roomId", stubRoom),
								ConditionExpression:                 aws.String("#s = :open"),
								ExpressionAttributeNames:            map[string]string{"#s": "status"},
								ExpressionAttributeValues:           map[string]types.AttributeValue{":open": str("OPEN")},
								ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
						}})
					return err
				}
			},
			func(g *dynamo.DB) func(int) error {
				conns, rooms := g.Table(names.Connections), g.Table(names.Rooms)
				return func(int) error {
					return g.WriteTx().
						Put(conns.Put(newConnection())).
						Check(rooms.Check("roomId", stubRoom).If("$ = ?", "status", "OPEN")).
						Idempotent(true).Run(ctx)
				}
			})
	})

	b.Run("GetConnection", func(b *testing.B) {
		run(b, lcStub().Handle("GetItem", bench.Canned(`{"Item":`+itemJSON(stubConnectionItem(0))+`}`)),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error { _, err := s.GetConnection(ctx, stubConn); return err }
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(names.Connections), ConsistentRead: aws.Bool(true),
						Key: key("connectionId", stubConn)})
					if err != nil {
						return err
					}
					var cn connectionItem
					return attributevalue.UnmarshalMap(out.Item, &cn)
				}
			},
			func(g *dynamo.DB) func(int) error {
				t := g.Table(names.Connections)
				return func(int) error {
					var cn connectionItem
					return t.Get("connectionId", stubConn).Consistent(true).One(ctx, &cn)
				}
			})
	})

	b.Run("Disconnect", func(b *testing.B) {
		run(b, lcStub(),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error { return s.Disconnect(ctx, stubConn) }
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(names.Connections), Key: key("connectionId", stubConn)})
					return err
				}
			},
			func(g *dynamo.DB) func(int) error {
				t := g.Table(names.Connections)
				return func(int) error { return t.Delete("connectionId", stubConn).Run(ctx) }
			})
	})

	b.Run("ListConnections50", func(b *testing.B) {
		run(b, lcStub().Handle("Query", connectionsQuery(200)),
			func(s *livecomment.DynamoStore) func(int) error {
				return func(int) error {
					p, err := s.ListConnections(ctx, stubRoom, ddbkit.PageOptions{Limit: 50})
					return wantPage(len(p.Items), p.Next != "", err)
				}
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					out, err := c.Query(ctx, &dynamodb.QueryInput{
						TableName: aws.String(names.Connections), IndexName: aws.String(livecomment.RoomIDIndex),
						KeyConditionExpression:    aws.String("roomId = :r"),
						ExpressionAttributeValues: map[string]types.AttributeValue{":r": str(stubRoom)},
						Limit:                     aws.Int32(50),
					})
					if err != nil {
						return err
					}
					var cs []connectionItem
					err = attributevalue.UnmarshalListOfMaps(out.Items, &cs)
					return wantPage(len(cs), out.LastEvaluatedKey != nil, err)
				}
			},
			func(g *dynamo.DB) func(int) error {
				t := g.Table(names.Connections)
				return func(int) error {
					var cs []connectionItem
					next, err := t.Get("roomId", stubRoom).Index(livecomment.RoomIDIndex).
						SearchLimit(50).AllWithLastEvaluatedKey(ctx, &cs)
					return wantPage(len(cs), next != nil, err)
				}
			})
	})

	// Broadcast: the fan-out of a new comment to a room's 50 connections
	// (one page), of which every tenth is gone and deleted.
	b.Run("Broadcast50", func(b *testing.B) {
		const conns, concurrency = 50, livecomment.DefaultBroadcastConcurrency
		gone := func(id string) bool { var i int; fmt.Sscanf(id, "Vx3lQdFYtjMCJwQ%d=", &i); return i%10 == 9 }
		// fanOut is the hand-written walk: send to each connection, at most
		// concurrency at once, and delete the gone ones with del.
		fanOut := func(ids []string, del func(id string) error) error {
			var (
				wg   sync.WaitGroup
				sem  = make(chan struct{}, concurrency)
				errs atomic.Int32
			)
			for _, id := range ids {
				sem <- struct{}{}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer func() { <-sem }()
					if gone(id) {
						if del(id) != nil {
							errs.Add(1)
						}
					}
				}()
			}
			wg.Wait()
			if errs.Load() > 0 {
				return fmt.Errorf("%d deletes failed", errs.Load())
			}
			return nil
		}
		run(b, lcStub().Handle("Query", connectionsQuery(conns)),
			func(st *livecomment.DynamoStore) func(int) error {
				send := func(_ context.Context, c livecomment.Connection) error {
					if gone(c.ID) {
						return livecomment.ErrGone
					}
					return nil
				}
				return func(int) error {
					res, err := livecomment.Broadcast(ctx, st, stubRoom, send)
					if err == nil && (res.Sent != 45 || res.Gone != 5) {
						err = fmt.Errorf("broadcast %+v, want 45 sent and 5 gone", res)
					}
					return err
				}
			},
			func(c *dynamodb.Client) func(int) error {
				return func(int) error {
					out, err := c.Query(ctx, &dynamodb.QueryInput{
						TableName: aws.String(names.Connections), IndexName: aws.String(livecomment.RoomIDIndex),
						KeyConditionExpression:    aws.String("roomId = :r"),
						ExpressionAttributeValues: map[string]types.AttributeValue{":r": str(stubRoom)},
						Limit:                     aws.Int32(ddbkit.DefaultPageLimit),
					})
					if err != nil {
						return err
					}
					var cs []connectionItem
					if err := attributevalue.UnmarshalListOfMaps(out.Items, &cs); err != nil {
						return err
					}
					ids := make([]string, len(cs))
					for i, cn := range cs {
						ids[i] = cn.ConnectionID
					}
					return fanOut(ids, func(id string) error {
						_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(names.Connections), Key: key("connectionId", id)})
						return err
					})
				}
			},
			func(g *dynamo.DB) func(int) error {
				t := g.Table(names.Connections)
				return func(int) error {
					var cs []connectionItem
					if _, err := t.Get("roomId", stubRoom).Index(livecomment.RoomIDIndex).
						SearchLimit(ddbkit.DefaultPageLimit).AllWithLastEvaluatedKey(ctx, &cs); err != nil {
						return err
					}
					ids := make([]string, len(cs))
					for i, cn := range cs {
						ids[i] = cn.ConnectionID
					}
					return fanOut(ids, func(id string) error { return t.Delete("connectionId", id).Run(ctx) })
				}
			})
	})
}

// fake is a memory store and a DynamoDB store on DynamoDB Local holding the
// same data: open rooms of one host (the first holds the comments and the
// connections), comments and connections.
type fake struct {
	memory       *livecomment.MemoryStore
	dynamo       *livecomment.DynamoStore
	rooms, conns []string
}

func newFake(b *testing.B, rooms, comments, conns int) *fake {
	b.Helper()
	ctx := context.Background()
	c := ddbtest.Client(b)
	env := ddbtest.UniqueName("bench")
	b.Cleanup(func() {
		for _, in := range livecomment.CreateTableInputs(env) {
			_, _ = c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: in.TableName})
		}
	})
	if _, err := livecomment.EnsureTables(ctx, c, env); err != nil {
		b.Fatal(err)
	}
	// Each store has its own seeds: the local store gets the memory
	// store's items raw, and must not draw their IDs again.
	seeded := func(seed uint64) func(o *livecomment.Options) {
		return func(o *livecomment.Options) {
			o.Env = env
			o.NewID = ddbkit.SeededUUIDv4(seed)
			o.NewCommentID = livecomment.SeededCommentIDs(seed)
		}
	}
	f := &fake{memory: livecomment.NewMemoryStore(seeded(1)), dynamo: livecomment.NewDynamoStore(c, seeded(2))}
	for range rooms {
		r, err := f.memory.CreateRoom(ctx, livecomment.NewRoom{Name: "新製品発表会 Q&A セッション", HostID: hostID})
		if err != nil {
			b.Fatal(err)
		}
		f.rooms = append(f.rooms, r.ID)
	}
	for range comments {
		if _, err := f.memory.PostComment(ctx, f.rooms[0], livecomment.NewComment{Content: "新プロジェクトの企画書、楽しみにしています！"}); err != nil {
			b.Fatal(err)
		}
	}
	for i := range conns {
		if _, err := f.memory.JoinRoom(ctx, f.rooms[0], connectionID(i)); err != nil {
			b.Fatal(err)
		}
		f.conns = append(f.conns, connectionID(i))
	}
	bench.PutAll(b, c, f.memory.Export())
	return f
}

// BenchmarkLivecommentFake compares each operation on DynamoDB Local with
// the same operation on the memory store: x-memory is how many times faster
// the fake is (the target is 100 or more).
func BenchmarkLivecommentFake(b *testing.B) {
	ctx := context.Background()
	// Enough open rooms that CloseRoom closes a fresh one on every call of
	// a full run on DynamoDB Local (the rooms beyond rooms[0], which stays
	// open for posts and joins).
	rooms := 3000
	if testing.Short() {
		rooms = 60
	}
	f := newFake(b, rooms, 200, 60)
	// Each store closes its own next room; the counters outlive the runs
	// of a sub-benchmark at growing b.N.
	var closed [2]atomic.Int64
	for _, op := range []struct {
		name string
		op   func(st livecomment.Store, k int) func(int) error
	}{
		{"GetRoom", func(st livecomment.Store, _ int) func(int) error {
			return func(i int) error { _, err := st.GetRoom(ctx, f.rooms[i%len(f.rooms)]); return err }
		}},
		{"ListHostRooms50", func(st livecomment.Store, _ int) func(int) error {
			return func(int) error {
				p, err := st.ListHostRooms(ctx, hostID, ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}
		}},
		{"CreateRoom", func(st livecomment.Store, _ int) func(int) error {
			return func(int) error {
				_, err := st.CreateRoom(ctx, livecomment.NewRoom{Name: "新製品発表会 Q&A セッション", HostID: "host-other"})
				return err
			}
		}},
		{"CloseRoom", func(st livecomment.Store, k int) func(int) error {
			return func(int) error {
				n := int(closed[k].Add(1))
				_, err := st.CloseRoom(ctx, f.rooms[1+n%(len(f.rooms)-1)])
				return err
			}
		}},
		{"PostComment", func(st livecomment.Store, _ int) func(int) error {
			return func(int) error {
				_, err := st.PostComment(ctx, f.rooms[0], livecomment.NewComment{Content: "新プロジェクトの企画書、楽しみにしています！", Nickname: "たろう"})
				return err
			}
		}},
		{"ListComments50", func(st livecomment.Store, _ int) func(int) error {
			return func(int) error {
				p, err := st.ListComments(ctx, f.rooms[0], ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}
		}},
		{"JoinRoom", func(st livecomment.Store, _ int) func(int) error {
			return func(i int) error { _, err := st.JoinRoom(ctx, f.rooms[0], f.conns[i%len(f.conns)]); return err }
		}},
		{"GetConnection", func(st livecomment.Store, _ int) func(int) error {
			return func(i int) error { _, err := st.GetConnection(ctx, f.conns[i%len(f.conns)]); return err }
		}},
		{"Disconnect", func(st livecomment.Store, _ int) func(int) error {
			// Connections beyond the ones joined: deleting what is gone is
			// Disconnect's usual case (a retried $disconnect) and leaves
			// the room's connections to the other benchmarks.
			return func(i int) error { return st.Disconnect(ctx, connectionID(100_000+i)) }
		}},
		{"ListConnections50", func(st livecomment.Store, _ int) func(int) error {
			return func(int) error {
				p, err := st.ListConnections(ctx, f.rooms[0], ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}
		}},
		{"Broadcast60", func(st livecomment.Store, _ int) func(int) error {
			send := func(context.Context, livecomment.Connection) error { return nil }
			return func(int) error {
				res, err := livecomment.Broadcast(ctx, st, f.rooms[0], send)
				if err == nil && res.Sent != len(f.conns) {
					err = fmt.Errorf("broadcast %+v, want %d sent", res, len(f.conns))
				}
				return err
			}
		}},
	} {
		b.Run(op.name, func(b *testing.B) {
			bench.Compare(b, nil,
				bench.Variant{Name: "dynamodb-local", Op: op.op(f.dynamo, 0), Remote: true},
				bench.Variant{Name: "memory", Op: op.op(f.memory, 1)})
		})
	}
}

// BenchmarkLivecommentPage compares a 50-item page from the middle of
// 100,000 items with one from the middle of 1,000 on the memory store, for
// each listing: x-1k is the growth (the target is at most 1.1).
func BenchmarkLivecommentPage(b *testing.B) {
	ctx := context.Background()
	// growth fills a fresh store with n items by add and pages list from
	// the middle.
	growth := func(b *testing.B, add func(s *livecomment.MemoryStore, room string, i int) error,
		list func(s *livecomment.MemoryStore, room string, po ddbkit.PageOptions) (string, int, error)) {
		bench.Growth(b, func(n int) func(int) error {
			s := livecomment.NewMemoryStore(func(o *livecomment.Options) {
				o.Env = env
				o.NewID = ddbkit.SeededUUIDv4(1)
				o.NewCommentID = livecomment.SeededCommentIDs(1)
			})
			r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "新製品発表会 Q&A セッション", HostID: "host-1"})
			if err != nil {
				b.Fatal(err)
			}
			for i := range n {
				if err := add(s, r.ID, i); err != nil {
					b.Fatal(err)
				}
			}
			cursor := bench.Middle(b, n, func(po ddbkit.PageOptions) (string, int, error) { return list(s, r.ID, po) })
			return func(int) error {
				next, got, err := list(s, r.ID, ddbkit.PageOptions{Limit: 50, Cursor: cursor})
				return wantPage(got, next != "", err)
			}
		})
	}
	b.Run("ListHostRooms", func(b *testing.B) {
		growth(b, func(s *livecomment.MemoryStore, _ string, _ int) error {
			_, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "新製品発表会 Q&A セッション", HostID: hostID})
			return err
		}, func(s *livecomment.MemoryStore, _ string, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListHostRooms(ctx, hostID, po)
			return p.Next, len(p.Items), err
		})
	})
	b.Run("ListComments", func(b *testing.B) {
		growth(b, func(s *livecomment.MemoryStore, room string, _ int) error {
			_, err := s.PostComment(ctx, room, livecomment.NewComment{Content: "新プロジェクトの企画書、楽しみにしています！"})
			return err
		}, func(s *livecomment.MemoryStore, room string, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListComments(ctx, room, po)
			return p.Next, len(p.Items), err
		})
	})
	b.Run("ListConnections", func(b *testing.B) {
		growth(b, func(s *livecomment.MemoryStore, room string, i int) error {
			_, err := s.JoinRoom(ctx, room, connectionID(i))
			return err
		}, func(s *livecomment.MemoryStore, room string, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListConnections(ctx, room, po)
			return p.Next, len(p.Items), err
		})
	})
}
