package livecomment_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
)

// TestCapacity holds every access pattern of the package documentation to
// its capacity budget on DynamoDB Local, which prices calls as the service
// does: 1 WCU per KB written to the table and to each index the item is
// in, 1 RCU per 4 KB read strongly, half that eventually, and twice the
// units inside a transaction. Each budget is the least the design allows;
// see "Consistency and capacity" in the package documentation.
func TestCapacity(t *testing.T) {
	var cc *ddbtest.CapacityClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCapacityClient(c); return cc }, deterministic)
	for _, tc := range capacityCases(t, s) {
		cc.CheckBudget(t, tc.name, tc.want, tc.call)
	}
}

// TestCapacityMemory runs TestCapacity's cases on a MemoryStore, which
// reports what the DynamoDB store would consume on the service, and holds
// each to the service's price and its number of calls: what an access
// pattern costs in production, held by a unit test.
func TestCapacityMemory(t *testing.T) {
	rec := ddbtest.NewRecorder()
	s := livecomment.NewMemoryStore(deterministic, func(o *livecomment.Options) { o.TracerProvider = rec.TracerProvider() })
	for _, tc := range capacityCases(t, s) {
		var err error
		got := rec.Measure(func() { err = tc.call() })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := tc.want
		if g := (ddbtest.Capacity{Read: got.Read, Write: got.Write}); g != want || got.Calls != tc.calls {
			t.Errorf("%s cost %d calls, %+v on the memory store, want %d calls, %+v (the service's price)", tc.name, got.Calls, g, tc.calls, want)
		}
	}
}

// capacityCase is an access pattern and what it costs.
type capacityCase struct {
	name string
	call func() error
	// want is the same on DynamoDB Local and on the service: Local
	// prices these transactions (one put and a check) as the service
	// does.
	want  ddbtest.Capacity
	calls int // the DynamoDB calls it makes
}

// capacityCases fills s, a fresh store built with the deterministic
// options, with TestCapacity's data and returns its cases, to run in
// order.
func capacityCases(t *testing.T, s livecomment.Store) []capacityCase {
	t.Helper()
	ctx := context.Background()

	// A host with 60 rooms; the first takes 60 comments and 60
	// connections. The items are small (well under 1 KB each), so a page
	// of 50 fits in 4 KB.
	const host, n = "host-1", 60
	var rooms []livecomment.Room
	for range n {
		r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "新製品発表会 Q&A", HostID: host})
		if err != nil {
			t.Fatal(err)
		}
		rooms = append(rooms, r)
	}
	room := rooms[0].ID
	for i := range n {
		if _, err := s.PostComment(ctx, room, livecomment.NewComment{Content: "楽しみにしています！", Nickname: "たろう"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.JoinRoom(ctx, room, fmt.Sprintf("conn-%02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	page := ddbkit.PageOptions{Limit: 50}
	gone := func(_ context.Context, c livecomment.Connection) error {
		if c.ID == "conn-07" {
			return livecomment.ErrGone
		}
		return nil
	}

	return []capacityCase{
		// Gets: one strongly consistent read of one small item.
		{"GetRoom", func() error { _, err := s.GetRoom(ctx, room); return err }, ddbtest.Capacity{Read: 1}, 1},
		{"GetConnection", func() error { _, err := s.GetConnection(ctx, "conn-01"); return err }, ddbtest.Capacity{Read: 1}, 1},
		// Listings: one eventually consistent Query of an index (indexes
		// cannot be read strongly), priced by the bytes of the entries it
		// reads, 51 of them (the page and the one that tells whether
		// another follows), in 4 KB units, half a unit each: about 150
		// bytes a room (8 KB: 2 units), 175 a comment (9 KB: 3 units) and
		// 95 a connection (5 KB: 2 units). A page of 50 entries would cost
		// as many units. A projection would not lower them: a Query is
		// priced by the entries it reads, not the attributes it returns.
		{"ListHostRooms", func() error { _, err := s.ListHostRooms(ctx, host, page); return err }, ddbtest.Capacity{Read: 1}, 1},
		{"ListComments", func() error { _, err := s.ListComments(ctx, room, page); return err }, ddbtest.Capacity{Read: 1.5}, 1},
		{"ListCommentsNewest", func() error { _, err := s.ListCommentsNewest(ctx, room, page); return err }, ddbtest.Capacity{Read: 1.5}, 1},
		{"ListConnections", func() error { _, err := s.ListConnections(ctx, room, page); return err }, ddbtest.Capacity{Read: 1}, 1},
		// CreateRoom: one put of a new item, in the table and hostId-index,
		// doubled: it is a one-item transaction, whose ClientRequestToken
		// tells its own retried write from another caller's (ddb.PutNew).
		{"CreateRoom", func() error {
			_, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "勉強会", HostID: "host-2"})
			return err
		}, ddbtest.Capacity{Write: 4}, 1},
		// CloseRoom: one update, in the table and hostId-index.
		{"CloseRoom", func() error { _, err := s.CloseRoom(ctx, rooms[1].ID); return err }, ddbtest.Capacity{Write: 2}, 1},
		// CloseRoomAs: the same update, its host checked in its
		// condition, with no read.
		{"CloseRoomAs", func() error { _, err := s.CloseRoomAs(ctx, rooms[2].ID, host); return err }, ddbtest.Capacity{Write: 2}, 1},
		// PostComment: a transaction of the put (table and index) and the
		// room's check, each doubled.
		{"PostComment", func() error {
			_, err := s.PostComment(ctx, room, livecomment.NewComment{Content: "質問です"})
			return err
		}, ddbtest.Capacity{Write: 6}, 1},
		// JoinRoom: the same transaction for a connection.
		{"JoinRoom", func() error { _, err := s.JoinRoom(ctx, room, "conn-new"); return err }, ddbtest.Capacity{Write: 6}, 1},
		// Disconnect: one delete, from the table and roomId-index.
		{"Disconnect", func() error { return s.Disconnect(ctx, "conn-new") }, ddbtest.Capacity{Write: 2}, 1},
		// Disconnecting again deletes nothing, and costs the one write.
		{"Disconnect again", func() error { return s.Disconnect(ctx, "conn-new") }, ddbtest.Capacity{Write: 1}, 1},
		// Broadcast to 60 connections: one Query of roomId-index (the
		// default page of 100 holds them all; 5.6 KB: 2 units) and the
		// delete of the one that is gone.
		{"Broadcast", func() error { _, err := livecomment.Broadcast(ctx, s, room, gone); return err }, ddbtest.Capacity{Read: 1, Write: 2}, 2},
	}
}
