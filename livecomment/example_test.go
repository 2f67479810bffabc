package livecomment_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
)

func Example() {
	ctx := context.Background()
	s := livecomment.NewMemoryStore(func(o *livecomment.Options) {
		o.Clock = ddbkit.StepClock(time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC), time.Second)
	})
	room, _ := s.CreateRoom(ctx, livecomment.NewRoom{Name: "Go勉強会", HostID: "host-1"})
	_, _ = s.JoinRoom(ctx, room.ID, "viewer-a")
	_, _ = s.JoinRoom(ctx, room.ID, "viewer-b")

	c, _ := s.PostComment(ctx, room.ID, livecomment.NewComment{Content: "こんにちは！"})
	fmt.Println(c.Nickname, c.Content, c.CreatedAt.Format(time.TimeOnly))

	// Deliver the comment to everyone in the room.
	var mu sync.Mutex
	var got []string
	res, err := livecomment.Broadcast(ctx, s, room.ID, func(_ context.Context, conn livecomment.Connection) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, conn.ID)
		return nil
	})
	slices.Sort(got)
	fmt.Println(res.Sent, got, err)

	room, _ = s.CloseRoom(ctx, room.ID)
	_, err = s.PostComment(ctx, room.ID, livecomment.NewComment{Content: "遅刻しました"})
	fmt.Println(room.Status, errors.Is(err, livecomment.ErrRoomClosed), errors.Is(err, ddbkit.ErrConflict))
	// Output:
	// Anonymous こんにちは！ 09:00:03
	// 2 [viewer-a viewer-b] <nil>
	// CLOSED true true
}

// Example_packageDoc is the package documentation's example, as written
// there, with postToConnection standing in for API Gateway's.
func Example_packageDoc() {
	ctx := context.Background()
	s := livecomment.NewMemoryStore() // livecomment.NewDynamoStore(client) on DynamoDB; errors elided
	room, _ := s.CreateRoom(ctx, livecomment.NewRoom{Name: "Go勉強会", HostID: "host-1"})
	s.JoinRoom(ctx, room.ID, "conn-1") // a viewer, by its API Gateway connectionId
	c, _ := s.PostComment(ctx, room.ID, livecomment.NewComment{Content: "こんにちは！", Nickname: "たろう"})
	livecomment.Broadcast(ctx, s, room.ID, func(ctx context.Context, to livecomment.Connection) error {
		return postToConnection(ctx, to.ID, c.Content) // yours; livecomment.ErrGone once a socket is gone
	})
	page, _ := s.ListCommentsNewest(ctx, room.ID, ddbkit.PageOptions{Limit: 20}) // a late viewer's first page
	fmt.Println(page.Items[0].Nickname, page.Items[0].Content)                   // たろう こんにちは！
	room, _ = s.CloseRoomAs(ctx, room.ID, "host-1")                              // only its host may close it

	fmt.Println(room.Status)
	// Output:
	// -> conn-1: こんにちは！
	// たろう こんにちは！
	// CLOSED
}

// postToConnection stands in for API Gateway's PostToConnection.
func postToConnection(_ context.Context, connectionID, msg string) error {
	fmt.Printf("-> %s: %s\n", connectionID, msg)
	return nil
}

func ExampleMemoryStore_PostComment_validation() {
	ctx := context.Background()
	s := livecomment.NewMemoryStore()
	room, _ := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host-1"})

	_, err := s.PostComment(ctx, room.ID, livecomment.NewComment{Content: "   "})
	var ve *ddbkit.ValidationError
	fmt.Println(errors.Is(err, ddbkit.ErrInvalidArgument), errors.As(err, &ve) && ve.Field == "Content")
	fmt.Println(err)

	_, err = s.PostComment(ctx, "no-such-room", livecomment.NewComment{Content: "hi"})
	fmt.Println(errors.Is(err, ddbkit.ErrNotFound))
	// Output:
	// true true
	// livecomment: post comment: invalid argument: Content: must not be empty or only white space
	// true
}

func ExampleMemoryStore_ListComments() {
	ctx := context.Background()
	s := livecomment.NewMemoryStore(func(o *livecomment.Options) {
		o.Clock = ddbkit.StepClock(time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC), time.Second)
	})
	room, _ := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host-1"})
	for _, text := range []string{"一", "二", "三", "四", "五"} {
		_, _ = s.PostComment(ctx, room.ID, livecomment.NewComment{Content: text})
	}
	// Oldest first, two per page: the comment IDs are UUIDv7s of createdAt.
	cursor := ""
	for {
		p, err := s.ListComments(ctx, room.ID, ddbkit.PageOptions{Limit: 2, Cursor: cursor})
		if err != nil {
			panic(err)
		}
		var line []string
		for _, c := range p.Items {
			line = append(line, c.Content+" "+c.CreatedAt.Format(time.TimeOnly))
		}
		fmt.Println(strings.Join(line, "; "))
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	// Output:
	// 一 09:00:01; 二 09:00:02
	// 三 09:00:03; 四 09:00:04
	// 五 09:00:05
}

// A unit test that lists comments right after posting one passes on a
// plain memory store and on DynamoDB Local, and fails now and then in
// production, where ListComments reads a GSI that lags the table. With
// Emulation.GSILag the memory store lags as well, by the store's clock, so
// the unit test catches it: the listing sees the comment only once the lag
// has passed. Gets are not affected: they read the table, consistently.
func ExampleOptions_emulation() {
	ctx := context.Background()
	now := time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)
	s := livecomment.NewMemoryStore(func(o *livecomment.Options) {
		o.Clock = func() time.Time { return now } // the test moves it
		o.Emulation = ddbkit.Emulation{GSILag: time.Second}
	})
	room, _ := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host-1"})
	_, err := s.PostComment(ctx, room.ID, livecomment.NewComment{Content: "hi"})
	fmt.Println(err)

	p, _ := s.ListComments(ctx, room.ID, ddbkit.PageOptions{})
	fmt.Println("right after the post:", len(p.Items), "comments")
	got, _ := s.GetRoom(ctx, room.ID)
	fmt.Println("the room, by key:", got.Name)

	now = now.Add(time.Second)
	p, _ = s.ListComments(ctx, room.ID, ddbkit.PageOptions{})
	fmt.Println("a second later:", len(p.Items), "comment:", p.Items[0].Content)
	// Output:
	// <nil>
	// right after the post: 0 comments
	// the room, by key: room
	// a second later: 1 comment: hi
}

func ExampleBroadcast() {
	ctx := context.Background()
	s := livecomment.NewMemoryStore()
	room, _ := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host-1"})
	for _, id := range []string{"a", "b", "c"} {
		_, _ = s.JoinRoom(ctx, room.ID, id)
	}
	// b's browser went away: the send reports it gone, as PostToConnection
	// does with HTTP 410, and Broadcast deletes its connection.
	send := func(_ context.Context, c livecomment.Connection) error {
		if c.ID == "b" {
			return livecomment.ErrGone
		}
		return nil
	}
	res, err := livecomment.Broadcast(ctx, s, room.ID, send)
	fmt.Printf("%+v %v\n", res, err)
	_, err = s.GetConnection(ctx, "b")
	fmt.Println(errors.Is(err, ddbkit.ErrNotFound))
	// Output:
	// {Sent:2 Gone:1 Failed:0} <nil>
	// true
}

// A memory store seeded with items in the seed's layout, as the seed's app
// writes them or as a Scan of the real tables returns them: the fixture of
// a unit test, read back through the store.
func ExampleMemoryStore_Import() {
	ctx := context.Background()
	s := livecomment.NewMemoryStore(func(o *livecomment.Options) { o.Env = "prod" })
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := livecomment.Tables("prod")
	err := s.Import(ddbkit.TableItems{
		n.Rooms: {{
			"roomId": str("3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c"), "name": str("Go勉強会"), "hostId": str("host-1"),
			"status": str("OPEN"), "createdAt": str("2024-01-05T10:00:00.000Z"), "updatedAt": str("2024-01-05T10:00:00.000Z"),
		}},
		n.Comments: {
			{"roomId": str("3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c"), "commentId": str("f47ac10b-58cc-4372-a567-0e02b2c3d479"),
				"content": str("こんにちは"), "nickname": str("たろう"), "createdAt": str("2024-01-05T10:01:00.000Z")},
			{"roomId": str("3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c"), "commentId": str("0c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f"),
				"content": str("よろしく"), "createdAt": str("2024-01-05T10:02:00Z")}, // no nickname
		},
		n.Connections: {{
			"connectionId": str("L0SM9cOFvHcCIhw="), "roomId": str("3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c"),
			"timestamp": str("2024-01-05T10:00:30.000Z"),
		}},
	})
	fmt.Println(err)

	room, _ := s.GetRoom(ctx, "3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c")
	fmt.Println(room.Name, room.Status, room.CreatedAt.Format(time.RFC3339))
	for c, err := range livecomment.AllComments(ctx, s, room.ID) {
		fmt.Println(c.Nickname, c.Content, c.CreatedAt.Format(time.TimeOnly), err)
	}
	conn, _ := s.GetConnection(ctx, "L0SM9cOFvHcCIhw=")
	fmt.Println(conn.RoomID == room.ID, conn.JoinedAt.Format(time.TimeOnly))

	// Export returns the items as stored, the store's own writes in the
	// form DynamoStore writes them.
	_, _ = s.CloseRoom(ctx, room.ID)
	for _, item := range s.Export()[n.Rooms] {
		fmt.Println(item["status"].(*types.AttributeValueMemberS).Value, item["createdAt"].(*types.AttributeValueMemberS).Value)
	}

	// An item the store could not read is refused, and nothing is imported.
	err = s.Import(ddbkit.TableItems{n.Rooms: {{"roomId": str("r2"), "createdAt": str("yesterday")}}})
	fmt.Println(errors.Is(err, ddbkit.ErrCorruptItem))
	fmt.Println(err)
	// Output:
	// <nil>
	// Go勉強会 OPEN 2024-01-05T10:00:00Z
	// たろう こんにちは 10:01:00 <nil>
	// Anonymous よろしく 10:02:00 <nil>
	// true 10:00:30
	// CLOSED 2024-01-05T10:00:00.000Z
	// true
	// livecomment: import: corrupt item: table LiveComment-Rooms-prod, key {roomId=r2}, attribute "createdAt": "yesterday" is not an ISO 8601 date and time
}

// A live table switched to the sharded comment layout: the comments posted
// before the switch stay in the room's partition, where the seed's app
// reads them; the new ones go to their shards, and ListComments merges
// both in createdAt order. (Two memory stores stand for the deployments
// before and after the switch; Export and Import carry the table over.)
func ExampleOptions_commentShards() {
	ctx := context.Background()
	clock := ddbkit.StepClock(time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC), time.Second)
	before := livecomment.NewMemoryStore(func(o *livecomment.Options) { o.Clock = clock })
	room, _ := before.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host-1"})
	for _, text := range []string{"一", "二"} {
		_, _ = before.PostComment(ctx, room.ID, livecomment.NewComment{Content: text})
	}

	after := livecomment.NewMemoryStore(func(o *livecomment.Options) {
		o.Clock = clock
		o.CommentShards = 4
	})
	_ = after.Import(before.Export())
	for _, text := range []string{"三", "四", "五"} {
		_, _ = after.PostComment(ctx, room.ID, livecomment.NewComment{Content: text})
	}
	for c, err := range livecomment.AllComments(ctx, after, room.ID) {
		if err != nil {
			panic(err)
		}
		fmt.Println(c.Content, c.CreatedAt.Format(time.TimeOnly), c.RoomID == room.ID)
	}
	// Where each comment is stored: the room's ID, or its shard's.
	shards := map[string]bool{}
	for _, item := range after.Export()[livecomment.Tables("dev").Comments] {
		pk := item["roomId"].(*types.AttributeValueMemberS).Value
		shards[strings.TrimPrefix(pk, room.ID)] = true
	}
	fmt.Println(len(shards) > 1, shards[""])
	// Output:
	// 一 09:00:01 true
	// 二 09:00:02 true
	// 三 09:00:03 true
	// 四 09:00:04 true
	// 五 09:00:05 true
	// true true
}
