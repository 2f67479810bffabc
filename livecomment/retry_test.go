package livecomment_test

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
)

// TestRetryBound runs every operation of the DynamoDB store, Broadcast's
// store calls included, against a client that always throttles and one
// that always conflicts, with RetryPolicy{MaxAttempts: 3}: each step of an
// operation has exactly one retry loop, so the operation makes at most 3
// calls per step (counted below the store, above the faults), and its
// error matches ErrUnavailable, or ErrConflict for the conflicts.
func TestRetryBound(t *testing.T) {
	const attempts = 3
	var (
		fc *ddbtest.FaultClient
		cc *ddbtest.CountingClient
	)
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
		fc = ddbtest.NewFaultClient(c)
		cc = ddbtest.NewCountingClient(fc)
		return cc
	}, deterministic, func(o *livecomment.Options) {
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: attempts, BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}
	})
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	const gone = 4
	for i := range gone + 1 {
		if _, err := s.JoinRoom(ctx, r.ID, fmt.Sprint("conn-", i)); err != nil {
			t.Fatal(err)
		}
	}
	// Every connection but conn-0 is gone, so Broadcast deletes 4.
	goneSend := func(_ context.Context, c livecomment.Connection) error {
		if c.ID != "conn-0" {
			return livecomment.ErrGone
		}
		return nil
	}
	send := func(context.Context, livecomment.Connection) error { return nil }

	type op struct {
		name  string
		steps map[string]int // the steps of the call, by DynamoDB operation
		do    func() error
	}
	ops := []op{
		{"CreateRoom", map[string]int{"TransactWriteItems": 1}, func() error {
			_, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "new", HostID: "host"})
			return err
		}},
		{"GetRoom", map[string]int{"GetItem": 1}, func() error { _, err := s.GetRoom(ctx, r.ID); return err }},
		{"ListHostRooms", map[string]int{"Query": 1}, func() error {
			_, err := s.ListHostRooms(ctx, "host", ddbkit.PageOptions{})
			return err
		}},
		{"CloseRoom", map[string]int{"UpdateItem": 1}, func() error { _, err := s.CloseRoom(ctx, r.ID); return err }},
		{"CloseRoomAs", map[string]int{"UpdateItem": 1}, func() error { _, err := s.CloseRoomAs(ctx, r.ID, r.HostID); return err }},
		{"PostComment", map[string]int{"TransactWriteItems": 1}, func() error {
			_, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "c"})
			return err
		}},
		{"ListComments", map[string]int{"Query": 1}, func() error {
			_, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{})
			return err
		}},
		{"ListCommentsNewest", map[string]int{"Query": 1}, func() error {
			_, err := s.ListCommentsNewest(ctx, r.ID, ddbkit.PageOptions{})
			return err
		}},
		{"JoinRoom", map[string]int{"TransactWriteItems": 1}, func() error { _, err := s.JoinRoom(ctx, r.ID, "late"); return err }},
		{"GetConnection", map[string]int{"GetItem": 1}, func() error { _, err := s.GetConnection(ctx, "conn-0"); return err }},
		{"Disconnect", map[string]int{"DeleteItem": 1}, func() error { return s.Disconnect(ctx, "conn-0") }},
		{"ListConnections", map[string]int{"Query": 1}, func() error {
			_, err := s.ListConnections(ctx, r.ID, ddbkit.PageOptions{})
			return err
		}},
		// Broadcast stops at its first page's Query.
		{"Broadcast", map[string]int{"Query": 1}, func() error {
			_, err := livecomment.Broadcast(ctx, s, r.ID, send)
			return err
		}},
	}

	check := func(t *testing.T, o op, want error) {
		t.Helper()
		cc.Reset()
		err := o.do()
		fc.Clear()
		ddbtest.WantSentinel(t, o.name, err, want)
		calls := cc.Counts()
		for name, n := range calls {
			if bound := attempts * o.steps[name]; n > bound {
				t.Errorf("%s: %d %s calls, want at most %d (%d steps × %d attempts); all calls %v",
					o.name, n, name, bound, o.steps[name], attempts, calls)
			}
		}
		total := 0
		for _, n := range calls {
			total += n
		}
		if total == 0 {
			t.Errorf("%s made no call", o.name)
		}
	}

	t.Run("always throttled", func(t *testing.T) {
		for _, o := range ops {
			fc.Always(ddbtest.Throttle)
			check(t, o, ddbkit.ErrUnavailable)
		}
	})
	t.Run("always conflicting", func(t *testing.T) {
		for _, o := range ops {
			if _, ok := o.steps["TransactWriteItems"]; !ok {
				continue
			}
			fc.Always(ddbtest.TxConflict)
			check(t, o, ddbkit.ErrConflict)
		}
	})
	// Broadcast's later steps: the listing succeeds, and each of the gone
	// connections' deletes is throttled through its own attempts.
	t.Run("Broadcast's deletes throttled", func(t *testing.T) {
		fc.Inject("DeleteItem", ddbtest.Throttle, 1000)
		check(t, op{"Broadcast (deletes)", map[string]int{"Query": 1, "DeleteItem": gone}, func() error {
			res, err := livecomment.Broadcast(ctx, s, r.ID, goneSend, func(o *livecomment.BroadcastOptions) { o.Concurrency = 2 })
			if res != (livecomment.BroadcastResult{Sent: 1, Gone: gone}) {
				t.Errorf("Broadcast = %+v, want 1 sent and %d gone", res, gone)
			}
			return err
		}}, ddbkit.ErrUnavailable)
		if got := cc.Count("DeleteItem"); got != gone*attempts {
			t.Errorf("%d DeleteItem calls, want %d: %d attempts for each gone connection", got, gone*attempts, attempts)
		}
	})
}

// TestCreateRoomIsNotTakenForOwn: another caller's create of an identical
// room (same ID, same attributes: two stores with the same generators, on
// the same tables) fails with ErrAlreadyExists, with or without keys of
// its own; only the first is stored. The memory store's twin is in
// memory_test.go.
func TestCreateRoomIsNotTakenForOwn(t *testing.T) {
	s, c, n := newDynamo(t, nil, deterministic)
	other := livecomment.NewDynamoStore(c, deterministic, func(o *livecomment.Options) {
		o.Env = n.Rooms[len("LiveComment-Rooms-"):]
	})
	ctx := t.Context()
	in := livecomment.NewRoom{Name: "room", HostID: "host"}
	r, err := s.CreateRoom(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	before := scanAll(t, c, n.Rooms)
	_, err = other.CreateRoom(ctx, in)
	ddbtest.WantSentinel(t, "another store's identical CreateRoom", err, ddbkit.ErrAlreadyExists)

	// The same again under a key: its token is not the first call's.
	other2 := livecomment.NewDynamoStore(c, deterministic, func(o *livecomment.Options) {
		o.Env = n.Rooms[len("LiveComment-Rooms-"):]
	})
	_, err = other2.CreateRoom(ddbkit.WithIdempotencyKey(ctx, ddbtest.UniqueName("key")), in)
	ddbtest.WantSentinel(t, "another store's identical CreateRoom under a key", err, ddbkit.ErrAlreadyExists)

	after := scanAll(t, c, n.Rooms)
	k := "S:" + r.ID + "  " // scanAll's key of the room
	if len(after) != 1 || after[k] == nil || !maps.Equal(render(after[k]), render(before[k])) {
		t.Fatalf("rooms after the refused creates: %v; want only %s, unchanged", after, r.ID)
	}
	if got, err := s.GetRoom(ctx, r.ID); err != nil || got != r {
		t.Fatalf("GetRoom = %+v, %v; want %+v", got, err, r)
	}
}

// TestCreateRoomLostResponse: the create's transaction commits, its
// response is lost, and the retry with the same token succeeds: one room,
// the one returned.
func TestCreateRoomLostResponse(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, n := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	ctx := t.Context()
	for _, keyed := range []bool{false, true} {
		cx := ctx
		if keyed {
			cx = ddbkit.WithIdempotencyKey(ctx, ddbtest.UniqueName("key"))
		}
		fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
		before := fc.Injected("TransactWriteItems")
		r, err := s.CreateRoom(cx, livecomment.NewRoom{Name: "room", HostID: fmt.Sprint("host-", keyed)})
		if err != nil || fc.Injected("TransactWriteItems") != before+1 {
			t.Fatalf("keyed %v: CreateRoom after a lost response = %v; want success", keyed, err)
		}
		if got, err := s.GetRoom(ctx, r.ID); err != nil || got != r {
			t.Fatalf("keyed %v: GetRoom = %+v, %v; want %+v", keyed, got, err, r)
		}
	}
	// A Scan sees the keyed create's idempotency record too.
	rooms, records := 0, 0
	for _, it := range scanAll(t, c, n.Rooms) {
		if strings.HasPrefix(render(it)["roomId"], "S:IDEMPOTENCY#") {
			records++
		} else {
			rooms++
		}
	}
	if rooms != 2 || records != 1 {
		t.Fatalf("%d rooms and %d idempotency records stored, want 2 (one per create) and 1 (the keyed one's)", rooms, records)
	}
}
