package livecomment_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/livecomment/livecommenttest"
)

// fastRetry keeps tests of endless faults short: three attempts, no wait.
func fastRetry(o *livecomment.Options) {
	o.Retry = ddbkit.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}
}

// TestErrorContract runs every operation of the DynamoDB store under
// endless throttling, endless 5xx and a cancelled context: each error
// matches ErrUnavailable and no other sentinel, keeps the cause, and
// nothing is written.
func TestErrorContract(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, n := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic, fastRetry)
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	cm, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "kept"})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := s.JoinRoom(ctx, r.ID, "conn")
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]int{}
	for _, tb := range []string{n.Rooms, n.Comments, n.Connections} {
		before[tb] = len(scanAll(t, c, tb))
	}

	ops := []struct {
		name, call string // the store method, and the DynamoDB call it makes
		do         func(context.Context) error
	}{
		{"CreateRoom", "TransactWriteItems", func(ctx context.Context) error {
			_, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "new", HostID: "host"})
			return err
		}},
		{"GetRoom", "GetItem", func(ctx context.Context) error { _, err := s.GetRoom(ctx, r.ID); return err }},
		{"ListHostRooms", "Query", func(ctx context.Context) error {
			_, err := s.ListHostRooms(ctx, "host", ddbkit.PageOptions{})
			return err
		}},
		{"CloseRoom", "UpdateItem", func(ctx context.Context) error { _, err := s.CloseRoom(ctx, r.ID); return err }},
		{"PostComment", "TransactWriteItems", func(ctx context.Context) error {
			_, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "lost"})
			return err
		}},
		{"ListComments", "Query", func(ctx context.Context) error {
			_, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{})
			return err
		}},
		{"ListCommentsNewest", "Query", func(ctx context.Context) error {
			_, err := s.ListCommentsNewest(ctx, r.ID, ddbkit.PageOptions{})
			return err
		}},
		{"JoinRoom", "TransactWriteItems", func(ctx context.Context) error { _, err := s.JoinRoom(ctx, r.ID, "late"); return err }},
		{"GetConnection", "GetItem", func(ctx context.Context) error { _, err := s.GetConnection(ctx, conn.ID); return err }},
		{"Disconnect", "DeleteItem", func(ctx context.Context) error { return s.Disconnect(ctx, conn.ID) }},
		{"ListConnections", "Query", func(ctx context.Context) error {
			_, err := s.ListConnections(ctx, r.ID, ddbkit.PageOptions{})
			return err
		}},
		{"Broadcast", "Query", func(ctx context.Context) error {
			_, err := livecomment.Broadcast(ctx, s, r.ID, func(context.Context, livecomment.Connection) error { return nil })
			return err
		}},
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, op := range ops {
		for _, f := range []ddbtest.Fault{ddbtest.Throttle, ddbtest.InternalError} {
			fc.Inject(op.call, f, 1000) // endless, for three attempts
			err := op.do(ctx)
			fc.Clear()
			ddbtest.WantSentinel(t, op.name+" under endless "+f.String(), err, ddbkit.ErrUnavailable)
			if err != nil && !strings.HasPrefix(err.Error(), "livecomment: ") {
				t.Errorf("%s under %s: error %q does not name the package", op.name, f, err)
			}
		}
		err := op.do(cancelled)
		ddbtest.WantSentinel(t, op.name+" under a cancelled context", err, ddbkit.ErrUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s under a cancelled context: %v does not match context.Canceled", op.name, err)
		}
	}
	_, err = livecomment.EnsureTables(cancelled, c, strings.TrimPrefix(n.Rooms, "LiveComment-Rooms-"))
	ddbtest.WantSentinel(t, "EnsureTables under a cancelled context", err, ddbkit.ErrUnavailable)

	for tb, want := range before {
		if got := len(scanAll(t, c, tb)); got != want {
			t.Errorf("%s holds %d items after failed calls, %d before", tb, got, want)
		}
	}
	if got, err := s.GetRoom(ctx, r.ID); err != nil || got != r {
		t.Errorf("GetRoom = %+v, %v; want %+v, still OPEN", got, err, r)
	}
	if got, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{}); err != nil || !slices.Equal(got.Items, []livecomment.Comment{cm}) {
		t.Errorf("ListComments = %+v, %v; want only %+v", got.Items, err, cm)
	}
}

// TestLostResponses makes every write commit and lose its response once:
// each call succeeds, returns what is stored, and writes once. A close
// whose response was lost keeps its stamp, and repeating it changes
// nothing.
func TestLostResponses(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, n := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	ctx := t.Context()
	lose := func(call string) {
		t.Helper()
		fc.Inject(call, ddbtest.LoseResponse, 1)
	}
	fired := func(call string, want int) {
		t.Helper()
		if got := fc.Injected(call); got != want {
			t.Fatalf("%d lost %s responses, want %d", got, call, want)
		}
	}

	lose("TransactWriteItems")
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	fired("TransactWriteItems", 1)
	if err != nil {
		t.Fatalf("CreateRoom after a lost response: %v", err)
	}
	if got, err := s.GetRoom(ctx, r.ID); err != nil || got != r {
		t.Fatalf("GetRoom = %+v, %v; want %+v", got, err, r)
	}
	if got := scanAll(t, c, n.Rooms); len(got) != 1 {
		t.Fatalf("%d rooms stored, want 1", len(got))
	}

	lose("TransactWriteItems")
	cm, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "once"})
	fired("TransactWriteItems", 2)
	if err != nil {
		t.Fatalf("PostComment after a lost response: %v", err)
	}
	if got, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{}); err != nil || !slices.Equal(got.Items, []livecomment.Comment{cm}) {
		t.Fatalf("ListComments = %+v, %v; want only %+v", got.Items, err, cm)
	}

	lose("TransactWriteItems")
	conn, err := s.JoinRoom(ctx, r.ID, "conn")
	fired("TransactWriteItems", 3)
	if err != nil {
		t.Fatalf("JoinRoom after a lost response: %v", err)
	}
	if got, err := s.GetConnection(ctx, "conn"); err != nil || got != conn {
		t.Fatalf("GetConnection = %+v, %v; want %+v", got, err, conn)
	}

	lose("UpdateItem")
	closed, err := s.CloseRoom(ctx, r.ID)
	fired("UpdateItem", 1)
	if err != nil || closed.Status != livecomment.RoomClosed {
		t.Fatalf("CloseRoom after a lost response = %+v, %v", closed, err)
	}
	if got, err := s.GetRoom(ctx, r.ID); err != nil || got != closed {
		t.Fatalf("GetRoom = %+v, %v; want what CloseRoom returned, %+v", got, err, closed)
	}
	if !closed.UpdatedAt.After(cm.CreatedAt) {
		t.Fatalf("closed at %v, not after the comment of %v", closed.UpdatedAt, cm.CreatedAt)
	}
	again, err := s.CloseRoom(ctx, r.ID)
	if err != nil || again != closed {
		t.Fatalf("CloseRoom again = %+v, %v; want %+v unchanged", again, err, closed)
	}
	if _, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "late"}); !errors.Is(err, livecomment.ErrRoomClosed) {
		t.Fatalf("PostComment after the close = %v, want ErrRoomClosed", err)
	}

	lose("DeleteItem")
	if err := s.Disconnect(ctx, "conn"); err != nil {
		t.Fatalf("Disconnect after a lost response: %v", err)
	}
	fired("DeleteItem", 1)
	if _, err := s.GetConnection(ctx, "conn"); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("GetConnection after Disconnect = %v, want ErrNotFound", err)
	}
}

// TestIdempotencyKeyAfterLostResponse: a post commits, its response is
// lost and the retries give up, so the caller sees ErrUnavailable. The
// caller repeats the call with the same idempotency key: the key's record
// committed with the comment, so the repeat returns that comment, and it
// is stored once.
func TestIdempotencyKeyAfterLostResponse(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic, fastRetry)
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	keyed := ddbkit.WithIdempotencyKey(ctx, "req-42")
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	fc.Inject("TransactWriteItems", ddbtest.InternalError, 2)
	_, err = s.PostComment(keyed, r.ID, livecomment.NewComment{Content: "once"})
	ddbtest.WantSentinel(t, "PostComment whose responses were all lost", err, ddbkit.ErrUnavailable)
	c, err := s.PostComment(keyed, r.ID, livecomment.NewComment{Content: "once"})
	if err != nil || c.Content != "once" || c.RoomID != r.ID {
		t.Fatalf("PostComment repeated with its key = %+v, %v; want the stored comment", c, err)
	}
	p, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{})
	if err != nil || len(p.Items) != 1 || p.Items[0] != c {
		t.Fatalf("ListComments = %+v, %v; want the one comment %+v", p.Items, err, c)
	}
}

// TestCursorSecret: with a secret, a cursor is accepted only by stores
// holding the same secret; without one, by any store on the same tables
// (the documented default). Both stores.
func TestCursorSecret(t *testing.T) {
	secret := func(k string) func(*livecomment.Options) {
		return func(o *livecomment.Options) { o.CursorSecret = []byte(k) }
	}
	// run gets stores on one environment's tables; shared says whether
	// they share the data (DynamoDB), or each holds its own (memory), in
	// which case each is given the same rooms and comments.
	run := func(t *testing.T, shared bool, newStore func(opts ...func(*livecomment.Options)) livecomment.Store) {
		ctx := t.Context()
		var roomID string
		fill := func(s livecomment.Store) livecomment.Store {
			t.Helper()
			if shared && roomID != "" {
				return s
			}
			r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if _, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "c"}); err != nil {
					t.Fatal(err)
				}
			}
			if roomID != "" && r.ID != roomID {
				t.Fatalf("room IDs %s and %s: want one, from the seeded generator", roomID, r.ID)
			}
			roomID = r.ID
			return s
		}
		plain, other := fill(newStore()), fill(newStore())
		a, a2, b := fill(newStore(secret("alpha-secret-0123456789"))), fill(newStore(secret("alpha-secret-0123456789"))), fill(newStore(secret("beta-secret-0123456789")))
		cursor := func(s livecomment.Store) string {
			t.Helper()
			p, err := s.ListComments(ctx, roomID, ddbkit.PageOptions{Limit: 1})
			if err != nil || p.Next == "" {
				t.Fatalf("first page: next %q, %v", p.Next, err)
			}
			return p.Next
		}
		next := func(s livecomment.Store, c string) error {
			_, err := s.ListComments(ctx, roomID, ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}
		if err := next(other, cursor(plain)); err != nil {
			t.Errorf("a cursor without secret on another store without: %v", err)
		}
		if err := next(a2, cursor(a)); err != nil {
			t.Errorf("a cursor on another store with the same secret: %v", err)
		}
		ddbtest.WantSentinel(t, "a cursor on a store with another secret", next(b, cursor(a)), ddbkit.ErrInvalidCursor)
		ddbtest.WantSentinel(t, "a cursor without secret on a store with one", next(a, cursor(plain)), ddbkit.ErrInvalidCursor)
		ddbtest.WantSentinel(t, "a cursor with a secret on a store without", next(plain, cursor(a)), ddbkit.ErrInvalidCursor)
	}
	t.Run("memory", func(t *testing.T) {
		run(t, false, func(opts ...func(*livecomment.Options)) livecomment.Store {
			return livecomment.NewMemoryStore(append([]func(*livecomment.Options){deterministic}, opts...)...)
		})
	})
	t.Run("dynamo", func(t *testing.T) {
		s, c, n := newDynamo(t, nil, deterministic)
		env := strings.TrimPrefix(n.Rooms, "LiveComment-Rooms-")
		first := true
		run(t, true, func(opts ...func(*livecomment.Options)) livecomment.Store {
			if first {
				first = false
				return s
			}
			return livecomment.NewDynamoStore(c, append(opts, func(o *livecomment.Options) { o.Env = env })...)
		})
	})
}

// TestCommentIDsOfOneInstant: a comment ID generator's IDs of one instant
// stay in creation order past the 12-bit counter, and are UUIDv7s of that
// instant until the counter runs out.
func TestCommentIDsOfOneInstant(t *testing.T) {
	at := livecommenttest.Start
	for name, gen := range map[string]livecomment.CommentIDGenerator{
		"NewCommentIDs": livecomment.NewCommentIDs(), "SeededCommentIDs": livecomment.SeededCommentIDs(1),
	} {
		ids := make([]string, 5000)
		for i := range ids {
			ids[i] = gen(at)
			u, err := uuid.Parse(ids[i])
			if err != nil || u.Version() != 7 || u.Variant() != uuid.RFC4122 {
				t.Fatalf("%s: ID %q is not a UUIDv7 (%v)", name, ids[i], err)
			}
			if sec, nsec := u.Time().UnixTime(); i == 0 && !time.Unix(sec, nsec).Equal(at) {
				t.Fatalf("%s: first ID holds %v, want %v", name, time.Unix(sec, nsec).UTC(), at)
			}
			if i > 0 && ids[i] <= ids[i-1] {
				t.Fatalf("%s: ID %d %s is not after %s", name, i, ids[i], ids[i-1])
			}
		}
	}
	a, b := livecomment.SeededCommentIDs(7), livecomment.SeededCommentIDs(7)
	for range 100 {
		if x, y := a(at), b(at); x != y {
			t.Fatalf("SeededCommentIDs(7) twice: %s and %s", x, y)
		}
	}
}
