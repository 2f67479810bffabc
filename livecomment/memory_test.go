package livecomment_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/livecomment/livecommenttest"
)

func newMemory(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
	return livecomment.NewMemoryStore(opts...)
}

func TestMemoryStore(t *testing.T) { livecommenttest.Run(t, newMemory) }

// TestMemoryStoreSharded runs the suite on the sharded comment layout, and
// the layout's own cases.
func TestMemoryStoreSharded(t *testing.T) {
	livecommenttest.Run(t, livecommenttest.Sharded(newMemory, 4))
	livecommenttest.RunSharded(t, newMemory)
}

// TestMemoryStoreRoomCheckCache runs the suite with sharded comments and
// the cached room check, the configuration of a busy room.
func TestMemoryStoreRoomCheckCache(t *testing.T) {
	livecommenttest.Run(t, livecommenttest.With(newMemory, livecommenttest.Shards(16), livecommenttest.RoomCheckCache(time.Second)))
}

// TestMemoryImportExport checks what the legacy fixture does not: an
// imported item replaces the one of its key, index entries included; items
// without an index's key attributes are left out of it, as DynamoDB leaves
// them out; Export and Import copy, so neither side sees the other's later
// changes; and the store's own writes export in DynamoStore's layout.
func TestMemoryImportExport(t *testing.T) {
	ctx := t.Context()
	n := livecomment.Tables("dev")
	s := livecomment.NewMemoryStore(livecommenttest.Deterministic)
	room := map[string]types.AttributeValue{"roomId": S("r1"), "name": S("one"), "hostId": S("h1"), "status": S("OPEN"),
		"createdAt": S("2024-01-05T10:00:00Z"), "extra": &types.AttributeValueMemberN{Value: "7"}}
	noHost := map[string]types.AttributeValue{"roomId": S("r2"), "name": S("two"), "status": S("OPEN"), "createdAt": S("2024-01-05T11:00:00Z")}
	numHost := map[string]types.AttributeValue{"roomId": S("r3"), "hostId": &types.AttributeValueMemberN{Value: "1"}, "createdAt": S("2024-01-05T12:00:00Z")}
	conn := map[string]types.AttributeValue{"connectionId": S("c1"), "roomId": S("r1"), "timestamp": S("2024-01-05T10:00:00Z")}
	if err := s.Import(ddbkit.TableItems{n.Rooms: {room, noHost, numHost}, n.Connections: {conn}}); err != nil {
		t.Fatalf("Import: %v", err)
	}
	room["name"].(*types.AttributeValueMemberS).Value = "changed by the caller"
	if r, err := s.GetRoom(ctx, "r1"); err != nil || r.Name != "one" {
		t.Errorf("GetRoom(r1) = %+v, %v; want the name as imported", r, err)
	}
	if r, err := s.GetRoom(ctx, "r3"); err != nil || r.HostID != "1" {
		t.Errorf("GetRoom(r3) = %+v, %v; want host \"1\", read from a Number as DynamoStore reads it", r, err)
	}
	hostRooms := func(host string) []string {
		t.Helper()
		p, err := s.ListHostRooms(ctx, host, ddbkit.PageOptions{})
		if err != nil {
			t.Fatalf("ListHostRooms(%s): %v", host, err)
		}
		var ids []string
		for _, r := range p.Items {
			ids = append(ids, r.ID)
		}
		return ids
	}
	if got := hostRooms("h1"); !slices.Equal(got, []string{"r1"}) {
		t.Errorf("ListHostRooms(h1) = %v; want [r1], the rooms without a String hostId in no index", got)
	}
	if got := hostRooms("1"); len(got) != 0 {
		t.Errorf("ListHostRooms(1) = %v; want none: a Number hostId is not in hostId-index", got)
	}

	// Replacing moves the index entries.
	moved := map[string]types.AttributeValue{"roomId": S("r1"), "name": S("one"), "hostId": S("h2"), "status": S("OPEN"), "createdAt": S("2024-01-05T10:00:00Z")}
	movedConn := map[string]types.AttributeValue{"connectionId": S("c1"), "roomId": S("r2")}
	if err := s.Import(ddbkit.TableItems{n.Rooms: {moved}, n.Connections: {movedConn}}); err != nil {
		t.Fatalf("Import (replacing): %v", err)
	}
	if got, got2 := hostRooms("h1"), hostRooms("h2"); len(got) != 0 || !slices.Equal(got2, []string{"r1"}) {
		t.Errorf("after replacing, ListHostRooms(h1) = %v, (h2) = %v; want [] and [r1]", got, got2)
	}
	for roomID, want := range map[string]int{"r1": 0, "r2": 1} {
		if p, err := s.ListConnections(ctx, roomID, ddbkit.PageOptions{}); err != nil || len(p.Items) != want {
			t.Errorf("ListConnections(%s) = %+v, %v; want %d", roomID, p.Items, err, want)
		}
	}

	// The store's own writes, and an update of an imported item, export as
	// DynamoStore writes them.
	closed, err := s.CloseRoom(ctx, "r2")
	if err != nil {
		t.Fatalf("CloseRoom: %v", err)
	}
	c, err := s.PostComment(ctx, "r1", livecomment.NewComment{Content: "hi"})
	if err != nil {
		t.Fatalf("PostComment: %v", err)
	}
	out := s.Export()
	stamp := func(v time.Time) string { return v.Format("2006-01-02T15:04:05.000Z") }
	want := map[string][]map[string]string{
		n.Rooms: {
			{"roomId": "S:r1", "name": "S:one", "hostId": "S:h2", "status": "S:OPEN", "createdAt": "S:2024-01-05T10:00:00Z"},
			{"roomId": "S:r2", "name": "S:two", "status": "S:CLOSED", "createdAt": "S:2024-01-05T11:00:00Z", "updatedAt": "S:" + stamp(closed.UpdatedAt)},
			{"roomId": "S:r3", "hostId": "N:1", "createdAt": "S:2024-01-05T12:00:00Z"},
		},
		n.Comments: {
			{"roomId": "S:r1", "commentId": "S:" + c.ID, "content": "S:hi", "nickname": "S:Anonymous", "createdAt": "S:" + stamp(c.CreatedAt)},
		},
		n.Connections: {{"connectionId": "S:c1", "roomId": "S:r2"}},
	}
	if len(out) != 3 {
		t.Errorf("Export has tables %v; want the three of the environment", slices.Collect(maps.Keys(out)))
	}
	for table, items := range want {
		if len(out[table]) != len(items) {
			t.Errorf("Export()[%s] has %d items, want %d", table, len(out[table]), len(items))
			continue
		}
		for i, w := range items {
			if got := render(out[table][i]); !maps.Equal(got, w) {
				t.Errorf("Export()[%s][%d] = %v\nwant %v", table, i, got, w)
			}
		}
	}
	out[n.Rooms][0]["name"].(*types.AttributeValueMemberS).Value = "changed by the caller"
	if r, _ := s.GetRoom(ctx, "r1"); r.Name != "one" || render(s.Export()[n.Rooms][0])["name"] != "S:one" {
		t.Errorf("a change to an exported item reached the store: %+v", r)
	}
}

// TestMemoryImportNilAttribute: an item holding a nil attribute value, at
// the top or nested in a map or list, typed or untyped, is refused as
// ErrCorruptItem naming the table, without a panic, and nothing of the
// Import is kept.
func TestMemoryImportNilAttribute(t *testing.T) {
	n := livecomment.Tables("dev")
	good := map[string]types.AttributeValue{"roomId": S("r0"), "name": S("ok"), "hostId": S("h"), "status": S("OPEN"),
		"createdAt": S("2024-01-05T10:00:00Z")}
	room := func(attr string, v types.AttributeValue) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"roomId": S("r1"), "name": S("one"), "hostId": S("h"), "status": S("OPEN"),
			"createdAt": S("2024-01-05T10:00:00Z"), attr: v}
	}
	tests := []struct {
		name  string
		table string
		item  map[string]types.AttributeValue
	}{
		{"untyped nil at the top", n.Rooms, room("extra", nil)},
		{"typed nil String at the top", n.Rooms, room("name", (*types.AttributeValueMemberS)(nil))},
		{"nil key", n.Rooms, map[string]types.AttributeValue{"roomId": nil}},
		{"nil in a map", n.Rooms, room("extra", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": nil}})},
		{"nil in a list", n.Comments, map[string]types.AttributeValue{"roomId": S("r1"), "commentId": S("c1"),
			"extra": &types.AttributeValueMemberL{Value: []types.AttributeValue{S("x"), (*types.AttributeValueMemberN)(nil)}}}},
		{"typed nil list", n.Connections, map[string]types.AttributeValue{"connectionId": S("c1"), "roomId": S("r1"),
			"extra": (*types.AttributeValueMemberL)(nil)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := livecomment.NewMemoryStore()
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("Import panicked: %v", p)
					}
				}()
				err = s.Import(ddbkit.TableItems{n.Rooms: {good}, tt.table: {tt.item}})
			}()
			ddbtest.WantSentinel(t, "Import", err, ddbkit.ErrCorruptItem)
			var ce *ddbkit.CorruptItemError
			if !errors.As(err, &ce) || ce.Table != tt.table {
				t.Fatalf("Import = %v; want a *ddbkit.CorruptItemError of %s", err, tt.table)
			}
			for table, items := range s.Export() {
				if len(items) != 0 {
					t.Fatalf("after a refused Import, %s holds %d items", table, len(items))
				}
			}
		})
	}
}

// TestMemoryCreateRoomIsNotTakenForOwn: a room already stored under the
// new ID, identical to the one CreateRoom makes (imported: another
// caller's write), is ErrAlreadyExists, with or without an idempotency key,
// as DynamoStore's PutNew answers.
func TestMemoryCreateRoomIsNotTakenForOwn(t *testing.T) {
	ctx := t.Context()
	in := livecomment.NewRoom{Name: "room", HostID: "host"}
	first := livecomment.NewMemoryStore(deterministic)
	r, err := first.CreateRoom(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, keyed := range []bool{false, true} {
		s := livecomment.NewMemoryStore(deterministic) // the same generators: the same room
		if err := s.Import(first.Export()); err != nil {
			t.Fatal(err)
		}
		cx := ctx
		if keyed {
			cx = ddbkit.WithIdempotencyKey(ctx, "key")
		}
		_, err := s.CreateRoom(cx, in)
		ddbtest.WantSentinel(t, fmt.Sprintf("identical CreateRoom (keyed %v)", keyed), err, ddbkit.ErrAlreadyExists)
		if got, err := s.GetRoom(ctx, r.ID); err != nil || got != r {
			t.Fatalf("GetRoom = %+v, %v; want %+v", got, err, r)
		}
		if got := s.Export()[livecomment.Tables("dev").Rooms]; len(got) != 1 {
			t.Fatalf("%d rooms, want 1", len(got))
		}
	}
}

// TestMemoryImportOversizedItem: an item over DynamoDB's 400 KB could not
// be in a table; Import refuses it as corrupt, naming its largest
// attribute.
func TestMemoryImportOversizedItem(t *testing.T) {
	n := livecomment.Tables("dev")
	s := livecomment.NewMemoryStore()
	item := map[string]types.AttributeValue{"roomId": S("r1"), "commentId": S("c1"), "content": S(strings.Repeat("x", 400*1024))}
	err := s.Import(ddbkit.TableItems{n.Comments: {item}})
	var ce *ddbkit.CorruptItemError
	if !errors.As(err, &ce) || ce.Attr != "content" {
		t.Fatalf("Import of a 400 KB comment = %v; want ErrCorruptItem naming content", err)
	}
}

// TestMemoryEmulatedThrottling: with Emulation.Throttle, the memory store
// fails calls as DynamoDB throttles them and retries each within
// Options.Retry, as DynamoStore does (TestRetryBound): every other call
// throttled, every operation succeeds; every call throttled, each step
// makes Retry.MaxAttempts calls and the operation fails with
// ErrUnavailable, writing nothing.
func TestMemoryEmulatedThrottling(t *testing.T) {
	const attempts = 3
	var (
		asked  int
		always bool
	)
	s := livecomment.NewMemoryStore(func(o *livecomment.Options) {
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: attempts, BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}
		o.Emulation = ddbkit.Emulation{Throttle: func(call int) bool {
			asked++
			return always || call%2 == 0
		}}
	})
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.JoinRoom(ctx, r.ID, "conn"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	if p, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{}); err != nil || len(p.Items) != 1 {
		t.Fatalf("ListComments = %+v, %v; want the comment", p.Items, err)
	}
	if err := s.Disconnect(ctx, "conn"); err != nil {
		t.Fatal(err)
	}
	if asked <= 5 {
		t.Fatalf("the throttle was asked %d times for 5 calls of which every other was throttled", asked)
	}

	always = true
	for _, o := range []struct {
		name string
		do   func() error
	}{
		{"GetRoom", func() error { _, err := s.GetRoom(ctx, r.ID); return err }},
		{"CloseRoom", func() error { _, err := s.CloseRoom(ctx, r.ID); return err }},
		{"PostComment", func() error {
			_, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "late"})
			return err
		}},
		{"ListComments", func() error { _, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{}); return err }},
		{"Disconnect", func() error { return s.Disconnect(ctx, "conn") }},
	} {
		asked = 0
		ddbtest.WantSentinel(t, o.name, o.do(), ddbkit.ErrUnavailable)
		if asked != attempts {
			t.Errorf("%s made %d calls, want %d (its one step's attempts)", o.name, asked, attempts)
		}
	}
	always = false
	if got, err := s.GetRoom(ctx, r.ID); err != nil || got != r {
		t.Fatalf("GetRoom = %+v, %v; want the room unchanged, %+v", got, err, r)
	}
	if p, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{}); err != nil || len(p.Items) != 1 {
		t.Fatalf("ListComments = %+v, %v; want the one comment", p.Items, err)
	}
}

// TestMemoryIdempotencyKeyWindow: a key answers repeats for
// ddbkit.IdempotencyWindow by the store's clock; past it, the key is a new
// request: CreateRoom, PostComment and JoinRoom make a new room, comment
// and join. Only the memory store can show it: DynamoDB Local keeps a
// ClientRequestToken for as long as it runs, and refuses the new
// request's transaction as a token reuse.
func TestMemoryIdempotencyKeyWindow(t *testing.T) {
	var ahead atomic.Int64 // how far the clock was moved on
	step := ddbkit.StepClock(livecommenttest.Start, time.Millisecond)
	s := livecomment.NewMemoryStore(deterministic, func(o *livecomment.Options) {
		o.Clock = func() time.Time { return step().Add(time.Duration(ahead.Load())) }
	})
	keyed := ddbkit.WithIdempotencyKey(t.Context(), "key")
	room, err := s.CreateRoom(t.Context(), livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		room livecomment.Room
		c    livecomment.Comment
		j    livecomment.Connection
	}
	write := func() result {
		t.Helper()
		var (
			res result
			err error
		)
		if res.room, err = s.CreateRoom(keyed, livecomment.NewRoom{Name: "room", HostID: "host"}); err != nil {
			t.Fatal(err)
		}
		if res.c, err = s.PostComment(keyed, room.ID, livecomment.NewComment{Content: "hi"}); err != nil {
			t.Fatal(err)
		}
		if res.j, err = s.JoinRoom(keyed, room.ID, "conn"); err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := write()
	// The records export with the items, and answer in the store they are
	// imported into.
	copied := livecomment.NewMemoryStore(deterministic)
	if err := copied.Import(s.Export()); err != nil {
		t.Fatalf("Import of a store with idempotency records: %v", err)
	}
	if got, err := copied.PostComment(keyed, room.ID, livecomment.NewComment{Content: "hi"}); err != nil || got != first.c {
		t.Fatalf("PostComment repeated on an imported copy = %+v, %v; want %+v", got, err, first.c)
	}
	ahead.Store(int64(ddbkit.IdempotencyWindow - time.Second))
	if got := write(); got != first {
		t.Fatalf("within the window: %+v; want the first results %+v", got, first)
	}
	ahead.Store(int64(ddbkit.IdempotencyWindow + time.Second))
	later := write()
	if later.room.ID == first.room.ID || later.c.ID == first.c.ID || !later.j.JoinedAt.After(first.j.JoinedAt) {
		t.Fatalf("past the window: %+v; want a new room, comment and join (not %+v)", later, first)
	}
	if rooms, err := s.ListHostRooms(t.Context(), "host", ddbkit.PageOptions{}); err != nil || len(rooms.Items) != 3 {
		t.Fatalf("ListHostRooms = %+v, %v; want 3 rooms", rooms.Items, err)
	}
	if cs, err := s.ListComments(t.Context(), room.ID, ddbkit.PageOptions{}); err != nil || len(cs.Items) != 2 {
		t.Fatalf("ListComments = %+v, %v; want 2 comments", cs.Items, err)
	}
}
