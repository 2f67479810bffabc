package livecomment_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

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
	// livecomment: post comment: invalid argument: Content: must not be empty
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
