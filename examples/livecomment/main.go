// Command livecomment walks the Live Comment seed's life of a room: a host
// opens it, viewers join over WebSocket, comments are posted and delivered
// to every connection (one of which has gone away), the host lists their
// rooms, and the room closes with a notice to everyone still connected.
//
// It runs on the in-memory store by default:
//
//	go run ./examples/livecomment
//
// With -endpoint it runs on DynamoDB (for example DynamoDB Local), creating
// the environment's three tables if they do not exist, and adding the
// indexes an existing table lacks:
//
//	go run ./examples/livecomment -endpoint http://127.0.0.1:8000 -env dev
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL; empty runs on the in-memory store")
	env := flag.String("env", livecomment.DefaultEnv, "environment name, as in LiveComment-Rooms-{env}")
	region := flag.String("region", envOr("AWS_REGION", "ap-northeast-1"), "AWS region: $AWS_REGION, else ap-northeast-1")
	flag.Parse()
	if err := run(context.Background(), *endpoint, *env, *region); err != nil {
		log.Fatal(err)
	}
}

// sockets stands in for API Gateway's PostToConnection: it prints what each
// connection receives, and reports the connections whose browser has gone.
type sockets struct {
	mu   sync.Mutex
	gone map[string]bool
	out  []string
}

func (ws *sockets) send(msg string) livecomment.SendFunc {
	return func(_ context.Context, c livecomment.Connection) error {
		ws.mu.Lock()
		defer ws.mu.Unlock()
		if ws.gone[c.ID] {
			return fmt.Errorf("PostToConnection %s: %w", c.ID, livecomment.ErrGone)
		}
		ws.out = append(ws.out, fmt.Sprintf("    -> %s: %s", c.ID, msg))
		return nil
	}
}

// flush prints what was delivered, sorted: sends run concurrently.
func (ws *sockets) flush() {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	slices.Sort(ws.out)
	for _, l := range ws.out {
		fmt.Println(l)
	}
	ws.out = nil
}

func run(ctx context.Context, endpoint, env, region string) error {
	var s livecomment.Store
	if endpoint == "" {
		fmt.Println("store: in memory")
		s = livecomment.NewMemoryStore(func(o *livecomment.Options) { o.Env = env })
	} else {
		// DynamoDB Local accepts any credentials; against AWS, build the
		// client from config.LoadDefaultConfig instead.
		c := dynamodb.New(dynamodb.Options{
			Region:       region,
			BaseEndpoint: aws.String(endpoint),
			Credentials:  credentials.NewStaticCredentialsProvider(envOr("AWS_ACCESS_KEY_ID", "local"), envOr("AWS_SECRET_ACCESS_KEY", "local"), ""),
		})
		changes, err := livecomment.EnsureTables(ctx, c, env)
		if err != nil {
			return err
		}
		for _, ch := range changes {
			fmt.Println("schema:", ch)
		}
		n := livecomment.Tables(env)
		fmt.Printf("store: DynamoDB at %s, tables %s, %s, %s\n", endpoint, n.Rooms, n.Comments, n.Connections)
		s = livecomment.NewDynamoStore(c, func(o *livecomment.Options) { o.Env = env })
	}

	// CreateRoomFunction: the host opens a room.
	const host = "host-tanaka"
	room, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "Go勉強会 第42回", HostID: host})
	if err != nil {
		return err
	}
	fmt.Printf("room %q opened by %s (%s)\n", room.Name, room.HostID, room.Status)

	// JoinRoomFunction: three viewers connect.
	viewers := []string{"conn-alice", "conn-bob", "conn-carol"}
	for _, id := range viewers {
		if _, err := s.JoinRoom(ctx, room.ID, id); err != nil {
			return err
		}
	}
	fmt.Println("joined:", len(viewers), "connections")

	// PostCommentFunction: post, then deliver to every connection.
	// Broadcast takes a ConnectionPruner: delivering deletes the gone
	// connections, which needs DeleteItem on Connections, a grant the
	// seed's PostCommentFunction lacks (see "Roles" in the package doc).
	ws := &sockets{gone: map[string]bool{}}
	post := func(nickname, content string) error {
		c, err := s.PostComment(ctx, room.ID, livecomment.NewComment{Content: content, Nickname: nickname})
		if err != nil {
			return err
		}
		fmt.Printf("  %s: %s\n", c.Nickname, c.Content)
		res, err := livecomment.Broadcast(ctx, s, room.ID, ws.send(c.Nickname+": "+c.Content))
		ws.flush()
		fmt.Printf("    delivered: %d sent, %d gone, %d failed\n", res.Sent, res.Gone, res.Failed)
		return err
	}
	if err := post("alice", "こんにちは！"); err != nil {
		return err
	}
	ws.gone["conn-bob"] = true // bob closed the tab without disconnecting
	if err := post("", "質問してもいいですか？"); err != nil {
		return err
	}
	if err := post("carol", "スライドはどこで見られますか"); err != nil {
		return err
	}

	// Bad input is refused with the field named, and nothing is written.
	_, err = s.PostComment(ctx, room.ID, livecomment.NewComment{Content: "  "})
	fmt.Println("bad input:", err)

	// GetRoomCommentsFunction: every comment, oldest first, two per page.
	pages := 0
	for cursor := ""; ; {
		p, err := s.ListComments(ctx, room.ID, ddbkit.PageOptions{Limit: 2, Cursor: cursor})
		if err != nil {
			return err
		}
		pages++
		for _, c := range p.Items {
			fmt.Printf("  page %d: [%s] %s: %s\n", pages, c.CreatedAt.Format("15:04:05.000"), c.Nickname, c.Content)
		}
		if cursor = p.Next; cursor == "" {
			break
		}
	}

	// A viewer who joins late reads the last comments first.
	last, err := s.ListCommentsNewest(ctx, room.ID, ddbkit.PageOptions{Limit: 2})
	if err != nil {
		return err
	}
	for _, c := range last.Items {
		fmt.Printf("  latest: %s: %s\n", c.Nickname, c.Content)
	}

	// GetUserRoomsFunction: the host's rooms, newest first.
	for r, err := range ddbkit.All(func(cursor string) (ddbkit.Page[livecomment.Room], error) {
		return s.ListHostRooms(ctx, host, ddbkit.PageOptions{Cursor: cursor})
	}) {
		if err != nil {
			return err
		}
		if r.ID == room.ID {
			fmt.Printf("host's room: %q %s\n", r.Name, r.Status)
		}
	}

	// CloseRoomFunction: only the host may close the room (CloseRoomAs
	// checks it in the close's own write); a notice goes out, and the
	// viewers disconnect (DisconnectFunction).
	_, err = s.CloseRoomAs(ctx, room.ID, "viewer-bob")
	fmt.Println("close by a viewer refused:", errors.Is(err, ddbkit.ErrPermissionDenied))
	room, err = s.CloseRoomAs(ctx, room.ID, host)
	if err != nil {
		return err
	}
	fmt.Println("room", room.Status, "at", room.UpdatedAt.Format("15:04:05.000"))
	_, err = s.PostComment(ctx, room.ID, livecomment.NewComment{Content: "遅れました"})
	fmt.Println("late comment refused:", errors.Is(err, livecomment.ErrRoomClosed))
	res, err := livecomment.Broadcast(ctx, s, room.ID, ws.send("(the room has closed)"))
	ws.flush()
	if err != nil {
		return err
	}
	for c, err := range livecomment.AllConnections(ctx, s, room.ID) {
		if err != nil {
			return err
		}
		if err := s.Disconnect(ctx, c.ID); err != nil {
			return err
		}
	}
	p, err := s.ListConnections(ctx, room.ID, ddbkit.PageOptions{})
	if err != nil {
		return err
	}
	fmt.Printf("closing notice: %d sent; connections left: %d\n", res.Sent, len(p.Items))
	return nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
