package livecomment_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
)

// TestMemoryMatchesDynamo runs one scripted session on both stores, with the
// same clock, IDs and environment, and requires the same transcript: every
// result, every error message and every cursor, byte for byte. (A room's
// connections are the exception: roomId-index has no sort key, so their
// order, and with it the cursors, is each store's own; the transcript holds
// them sorted.) The conformance suite checks each store against the
// contract; this checks them against each other.
func TestMemoryMatchesDynamo(t *testing.T) {
	dyn, _, n := newDynamo(t, nil, deterministic)
	env := strings.TrimPrefix(n.Rooms, "LiveComment-Rooms-")
	mem := livecomment.NewMemoryStore(deterministic, func(o *livecomment.Options) { o.Env = env })

	dynLog, memLog := session(t.Context(), dyn), session(t.Context(), mem)
	if testing.Verbose() {
		for _, l := range memLog {
			t.Log(l)
		}
	}
	if len(dynLog) != len(memLog) {
		t.Fatalf("transcripts have %d and %d lines", len(dynLog), len(memLog))
	}
	for i := range dynLog {
		if dynLog[i] != memLog[i] {
			t.Errorf("step %d differs:\n  dynamo %s\n  memory %s", i, dynLog[i], memLog[i])
		}
	}
}

// session drives s through the access patterns, the error paths and paging,
// and returns what it saw.
func session(ctx context.Context, s livecomment.Store) []string {
	var log []string
	note := func(what string, v any, err error) {
		js, _ := json.Marshal(v)
		log = append(log, fmt.Sprintf("%s: %s err=%v", what, js, err))
	}
	list := func(what string, fetch func(ddbkit.PageOptions) (any, string, error)) {
		cursor := ""
		for page := 1; page < 20; page++ {
			v, next, err := fetch(ddbkit.PageOptions{Limit: 2, Cursor: cursor})
			note(fmt.Sprintf("%s page %d next=%q", what, page, next), v, err)
			if err != nil || next == "" {
				return
			}
			cursor = next
		}
	}
	// connections notes a room's connections sorted, with the page sizes.
	connections := func(what, roomID string) {
		var ids, sizes []string
		cursor := ""
		for {
			p, err := s.ListConnections(ctx, roomID, ddbkit.PageOptions{Limit: 2, Cursor: cursor})
			if err != nil {
				note(what, nil, err)
				return
			}
			for _, c := range p.Items {
				js, _ := json.Marshal(c)
				ids = append(ids, string(js))
			}
			sizes = append(sizes, fmt.Sprint(len(p.Items)))
			if cursor = p.Next; cursor == "" {
				break
			}
		}
		slices.Sort(ids)
		note(what+" pages "+strings.Join(sizes, ","), ids, nil)
	}

	var rooms []livecomment.Room
	for _, in := range []livecomment.NewRoom{
		{Name: "Go勉強会", HostID: "alice"}, {Name: "LT大会", HostID: "alice"}, {Name: "雑談", HostID: "bob"},
		{Name: "第3回", HostID: "alice"}, {Name: "", HostID: "alice"}, {Name: "x", HostID: "a#b"},
	} {
		r, err := s.CreateRoom(ctx, in)
		note("CreateRoom "+in.Name, r, err)
		if err == nil {
			rooms = append(rooms, r)
		}
	}
	r, err := s.GetRoom(ctx, rooms[0].ID)
	note("GetRoom", r, err)
	r, err = s.GetRoom(ctx, "missing")
	note("GetRoom missing", r, err)

	for _, in := range []livecomment.NewComment{
		{Content: "こんにちは"}, {Content: "質問です", Nickname: "たろう"}, {Content: "👍"},
		{Content: "最後"}, {Content: ""}, {Content: "x", Nickname: "\t"},
	} {
		c, err := s.PostComment(ctx, rooms[0].ID, in)
		note("PostComment", c, err)
	}
	c, err := s.PostComment(ctx, "missing", livecomment.NewComment{Content: "x"})
	note("PostComment missing room", c, err)

	for _, j := range []struct{ room, conn string }{
		{rooms[0].ID, "c1"}, {rooms[0].ID, "c2"}, {rooms[0].ID, "c3"}, {rooms[1].ID, "c4"},
		{rooms[0].ID, "c5"}, {rooms[1].ID, "c2"}, {"missing", "c6"}, {rooms[0].ID, "bad id"},
	} {
		conn, err := s.JoinRoom(ctx, j.room, j.conn)
		note("JoinRoom "+j.conn, conn, err)
	}
	conn, err := s.GetConnection(ctx, "c2")
	note("GetConnection", conn, err)

	list("ListComments", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListComments(ctx, rooms[0].ID, o)
		return p.Items, p.Next, err
	})
	list("ListCommentsNewest", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListCommentsNewest(ctx, rooms[0].ID, o)
		return p.Items, p.Next, err
	})
	list("ListHostRooms alice", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListHostRooms(ctx, "alice", o)
		return p.Items, p.Next, err
	})
	connections("ListConnections room 0", rooms[0].ID)
	connections("ListConnections room 1", rooms[1].ID)
	p, err := s.ListComments(ctx, rooms[1].ID, ddbkit.PageOptions{Cursor: "garbage"})
	note("ListComments bad cursor", p, err)

	res, err := livecomment.Broadcast(ctx, s, rooms[0].ID, func(_ context.Context, c livecomment.Connection) error {
		if c.ID == "c3" {
			return livecomment.ErrGone
		}
		return nil
	})
	note("Broadcast", res, err)
	connections("ListConnections after broadcast", rooms[0].ID)

	r, err = s.CloseRoom(ctx, rooms[0].ID)
	note("CloseRoom", r, err)
	r, err = s.CloseRoom(ctx, rooms[0].ID)
	note("CloseRoom again", r, err)
	r, err = s.CloseRoom(ctx, "missing")
	note("CloseRoom missing", r, err)
	c, err = s.PostComment(ctx, rooms[0].ID, livecomment.NewComment{Content: "late"})
	note("PostComment closed", c, err)
	conn, err = s.JoinRoom(ctx, rooms[0].ID, "c7")
	note("JoinRoom closed", conn, err)
	list("ListHostRooms alice after close", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListHostRooms(ctx, "alice", o)
		return p.Items, p.Next, err
	})

	note("Disconnect", nil, s.Disconnect(ctx, "c1"))
	note("Disconnect again", nil, s.Disconnect(ctx, "c1"))
	conn, err = s.GetConnection(ctx, "c1")
	note("GetConnection after disconnect", conn, err)
	connections("ListConnections at the end", rooms[0].ID)
	return log
}
