// Package livecommenttest is the conformance suite for livecomment.Store
// implementations. The DynamoDB store and the memory store both run it,
// which is what keeps the memory store an honest fake: same results, errors,
// order and page boundaries.
package livecommenttest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
)

// NewStore returns a fresh, empty store configured with opts. Each subtest
// calls it once.
type NewStore func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store

// Start is the time of the suite's clock.
var Start = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// Run runs every conformance test against stores made by newStore.
func Run(t *testing.T, newStore NewStore) {
	run(t, newStore, []testCase{
		{"CreateAndGetRoom", testCreateAndGetRoom},
		{"DefaultIDs", testDefaultIDs},
		{"RepeatedIDsAreAlreadyExists", testRepeatedIDs},
		{"ListHostRoomsNewestFirst", testListHostRooms},
		{"CloseRoom", testCloseRoom},
		{"CloseRoomAsHostOnly", testCloseRoomAs},
		{"CloseRoomAsIdempotencyKey", testCloseRoomAsKeyed},
		{"PostComment", testPostComment},
		{"PostToMissingOrClosedRoom", testPostRefused},
		{"ListCommentsInOrder", testListComments},
		{"CommentsOfOneInstantKeepTheirOrder", testTiedComments},
		{"ListCommentsNewestFirst", testListCommentsNewest},
		{"CommentCursorsBoundToDirection", testCommentCursorDirection},
		{"CancelledContextWritesNothing", testCancelledContext},
		{"IdempotencyKey", testIdempotencyKey},
		{"IdempotencyKeyNoOps", testIdempotencyKeyNoOps},
		{"IdempotencyKeysAreScoped", testIdempotencyKeyScoped},
		{"ClockOutOfRangeWritesNothing", testClockOutOfRange},
		{"ShortCursorSecret", testShortCursorSecret},
		{"Connections", testConnections},
		{"ListConnectionsPages", testListConnectionsPages},
		{"ClosingKeepsConnections", testCloseKeepsConnections},
		{"Broadcast", testBroadcast},
		{"InvalidCursors", testInvalidCursors},
		{"BadInputWritesNothing", testBadInput},
		{"ConcurrentPostsAndClose", testConcurrentPostsAndClose},
	})
}

// testCase is one case of a suite.
type testCase struct {
	name string
	fn   func(*testing.T, NewStore)
}

// run runs each case as a subtest, on stores made by newStore.
func run(t *testing.T, newStore NewStore, cases []testCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newStore) })
	}
}

// Deterministic gives a store a step clock (one millisecond per reading)
// and seeded room and comment IDs. Every reading is a distinct millisecond,
// so no two rooms tie on hostId-index's sort key.
func Deterministic(o *livecomment.Options) {
	o.Clock = ddbkit.StepClock(Start, time.Millisecond)
	o.NewID = ddbkit.SeededUUIDv4(1)
	o.NewCommentID = livecomment.SeededCommentIDs(1)
}

func fixed(t *testing.T, newStore NewStore, more ...func(*livecomment.Options)) livecomment.Store {
	t.Helper()
	return newStore(t, append([]func(*livecomment.Options){Deterministic}, more...)...)
}

func ctx(t *testing.T) context.Context { return t.Context() }

func mustRoom(t *testing.T, s livecomment.Store, host, name string) livecomment.Room {
	t.Helper()
	r, err := s.CreateRoom(ctx(t), livecomment.NewRoom{Name: name, HostID: host})
	if err != nil {
		t.Fatalf("CreateRoom(%q, %q): %v", host, name, err)
	}
	return r
}

func mustPost(t *testing.T, s livecomment.Store, roomID, content string) livecomment.Comment {
	t.Helper()
	c, err := s.PostComment(ctx(t), roomID, livecomment.NewComment{Content: content})
	if err != nil {
		t.Fatalf("PostComment(%q): %v", content, err)
	}
	return c
}

func mustJoin(t *testing.T, s livecomment.Store, roomID, connID string) livecomment.Connection {
	t.Helper()
	c, err := s.JoinRoom(ctx(t), roomID, connID)
	if err != nil {
		t.Fatalf("JoinRoom(%q, %q): %v", roomID, connID, err)
	}
	return c
}

func mustClose(t *testing.T, s livecomment.Store, roomID string) livecomment.Room {
	t.Helper()
	r, err := s.CloseRoom(ctx(t), roomID)
	if err != nil {
		t.Fatalf("CloseRoom(%q): %v", roomID, err)
	}
	return r
}

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: got error %v, want %v", what, err, want)
	}
}

// pages walks a listing with the given page size and returns its items and
// page sizes.
func pages[T any](t *testing.T, limit int, fetch func(ddbkit.PageOptions) (ddbkit.Page[T], error)) ([]T, []int) {
	t.Helper()
	var (
		out   []T
		sizes []int
		c     string
	)
	for {
		p, err := fetch(ddbkit.PageOptions{Limit: limit, Cursor: c})
		if err != nil {
			t.Fatalf("listing (limit %d): %v", limit, err)
		}
		out = append(out, p.Items...)
		sizes = append(sizes, len(p.Items))
		if p.Next == "" {
			return out, sizes
		}
		c = p.Next
	}
}

func comments(t *testing.T, s livecomment.Store, roomID string, limit int) ([]livecomment.Comment, []int) {
	t.Helper()
	return pages(t, limit, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Comment], error) {
		return s.ListComments(ctx(t), roomID, o)
	})
}

func commentsNewest(t *testing.T, s livecomment.Store, roomID string, limit int) ([]livecomment.Comment, []int) {
	t.Helper()
	return pages(t, limit, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Comment], error) {
		return s.ListCommentsNewest(ctx(t), roomID, o)
	})
}

func hostRooms(t *testing.T, s livecomment.Store, host string, limit int) ([]livecomment.Room, []int) {
	t.Helper()
	return pages(t, limit, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Room], error) {
		return s.ListHostRooms(ctx(t), host, o)
	})
}

// connIDs lists a room's connections and returns their IDs, sorted: the
// index has no sort key, so the order is the store's own.
func connIDs(t *testing.T, s livecomment.Store, roomID string, limit int) ([]string, []int) {
	t.Helper()
	cs, sizes := pages(t, limit, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Connection], error) {
		return s.ListConnections(ctx(t), roomID, o)
	})
	ids := make([]string, len(cs))
	for i, c := range cs {
		if c.RoomID != roomID {
			t.Fatalf("ListConnections(%q) returned %+v", roomID, c)
		}
		ids[i] = c.ID
	}
	slices.Sort(ids)
	return ids, sizes
}

func testCreateAndGetRoom(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r, err := s.CreateRoom(ctx(t), livecomment.NewRoom{Name: "Go勉強会 #42", HostID: "host-1"})
	if err != nil {
		t.Fatalf("CreateRoom: %v", err)
	}
	if r.ID == "" || r.Name != "Go勉強会 #42" || r.HostID != "host-1" || r.Status != livecomment.RoomOpen {
		t.Fatalf("CreateRoom = %+v", r)
	}
	if !r.CreatedAt.Equal(Start) || !r.UpdatedAt.Equal(r.CreatedAt) || r.CreatedAt.Location() != time.UTC {
		t.Fatalf("CreatedAt %v, UpdatedAt %v: want both %v, UTC", r.CreatedAt, r.UpdatedAt, Start)
	}
	got, err := s.GetRoom(ctx(t), r.ID)
	if err != nil || got != r {
		t.Fatalf("GetRoom = %+v, %v; want %+v", got, err, r)
	}
	_, err = s.GetRoom(ctx(t), "no-such-room")
	wantErr(t, "GetRoom(missing)", err, ddbkit.ErrNotFound)
}

func testDefaultIDs(t *testing.T, newStore NewStore) {
	clock := ddbkit.StepClock(Start, time.Millisecond)
	s := newStore(t, func(o *livecomment.Options) { o.Clock = clock }) // default ID generators
	r := mustRoom(t, s, "host", "room")
	if u, err := uuid.Parse(r.ID); err != nil || u.Version() != 4 || u.String() != r.ID {
		t.Fatalf("room ID %q: want a canonical UUIDv4 (parse error %v)", r.ID, err)
	}
	c := mustPost(t, s, r.ID, "hello")
	u, err := uuid.Parse(c.ID)
	if err != nil || u.Version() != 7 || u.Variant() != uuid.RFC4122 || u.String() != c.ID {
		t.Fatalf("comment ID %q: want a canonical UUIDv7 (parse error %v)", c.ID, err)
	}
	// The UUIDv7's timestamp is the store's clock, not the wall clock.
	if sec, nsec := u.Time().UnixTime(); !time.Unix(sec, nsec).Equal(c.CreatedAt) {
		t.Fatalf("comment ID %s holds time %v, CreatedAt is %v", c.ID, time.Unix(sec, nsec).UTC(), c.CreatedAt)
	}
}

func testRepeatedIDs(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *livecomment.Options) {
		o.NewID = func() string { return "same-room" }
		o.NewCommentID = func(time.Time) string { return "same-comment" }
	})
	first := mustRoom(t, s, "host", "first")
	_, err := s.CreateRoom(ctx(t), livecomment.NewRoom{Name: "second", HostID: "other"})
	wantErr(t, "CreateRoom with a repeated ID", err, ddbkit.ErrAlreadyExists)
	if got, _ := s.GetRoom(ctx(t), first.ID); got != first {
		t.Fatalf("a refused create overwrote the room: %+v", got)
	}
	c := mustPost(t, s, first.ID, "first")
	_, err = s.PostComment(ctx(t), first.ID, livecomment.NewComment{Content: "second"})
	wantErr(t, "PostComment with a repeated ID", err, ddbkit.ErrAlreadyExists)
	if got, _ := comments(t, s, first.ID, 0); len(got) != 1 || got[0] != c {
		t.Fatalf("after a refused post, comments = %+v; want only %+v", got, c)
	}
}

func testListHostRooms(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	var want []livecomment.Room
	for i := range 7 {
		want = append(want, mustRoom(t, s, "alice", fmt.Sprint("room ", i)))
		mustRoom(t, s, "bob", fmt.Sprint("bob's ", i))
	}
	slices.Reverse(want) // newest first
	closed := mustClose(t, s, want[3].ID)
	want[3] = closed
	tests := []struct {
		name  string
		limit int
		sizes []int
	}{
		{"limit 3", 3, []int{3, 3, 1}},
		{"limit 1", 1, []int{1, 1, 1, 1, 1, 1, 1}},
		{"exact fit", 7, []int{7}},
		{"default", 0, []int{7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, sizes := hostRooms(t, s, "alice", tt.limit)
			if !slices.Equal(got, want) {
				t.Fatalf("ListHostRooms = %+v\nwant %+v", got, want)
			}
			if !slices.Equal(sizes, tt.sizes) {
				t.Fatalf("page sizes = %v, want %v", sizes, tt.sizes)
			}
		})
	}
	p, err := s.ListHostRooms(ctx(t), "nobody", ddbkit.PageOptions{})
	if err != nil || len(p.Items) != 0 || p.Next != "" {
		t.Fatalf("ListHostRooms(unknown host) = %+v, %v; want an empty last page", p, err)
	}
}

func testCloseRoom(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	closed := mustClose(t, s, r.ID)
	want := r
	want.Status, want.UpdatedAt = livecomment.RoomClosed, closed.UpdatedAt
	if closed != want || !closed.UpdatedAt.After(r.UpdatedAt) {
		t.Fatalf("CloseRoom = %+v, want %+v with a later UpdatedAt", closed, want)
	}
	if got, _ := s.GetRoom(ctx(t), r.ID); got != closed {
		t.Fatalf("GetRoom after close = %+v, want %+v", got, closed)
	}
	// Closing a closed room changes nothing and is not an error.
	again, err := s.CloseRoom(ctx(t), r.ID)
	if err != nil || again != closed {
		t.Fatalf("CloseRoom again = %+v, %v; want %+v unchanged", again, err, closed)
	}
	_, err = s.CloseRoom(ctx(t), "no-such-room")
	wantErr(t, "CloseRoom(missing)", err, ddbkit.ErrNotFound)
	if _, err := s.GetRoom(ctx(t), "no-such-room"); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("CloseRoom of a missing room created it: %v", err)
	}
}

// testCloseRoomAs: only the room's host closes it through CloseRoomAs;
// anyone else is ErrPermissionDenied, open room or closed, and nothing is
// written; the host's repeat returns the closed room unchanged, as
// CloseRoom's does; a missing room is ErrNotFound and stays missing.
func testCloseRoomAs(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	_, err := s.CloseRoomAs(ctx(t), r.ID, "intruder")
	wantOnly(t, "CloseRoomAs by another user", err, ddbkit.ErrPermissionDenied)
	if !strings.HasPrefix(err.Error(), "livecomment: ") {
		t.Fatalf("error %q does not start with the package name", err)
	}
	if got, err := s.GetRoom(ctx(t), r.ID); err != nil || got != r {
		t.Fatalf("GetRoom after a refused close = %+v, %v; want %+v unchanged", got, err, r)
	}
	mustPost(t, s, r.ID, "still open")

	closed, err := s.CloseRoomAs(ctx(t), r.ID, "host")
	want := r
	want.Status, want.UpdatedAt = livecomment.RoomClosed, closed.UpdatedAt
	if err != nil || closed != want || !closed.UpdatedAt.After(r.UpdatedAt) {
		t.Fatalf("CloseRoomAs by the host = %+v, %v; want %+v with a later UpdatedAt", closed, err, want)
	}
	if got, _ := s.GetRoom(ctx(t), r.ID); got != closed {
		t.Fatalf("GetRoom after the host's close = %+v, want %+v", got, closed)
	}
	_, err = s.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: "too late"})
	wantErr(t, "PostComment after CloseRoomAs", err, livecomment.ErrRoomClosed)
	again, err := s.CloseRoomAs(ctx(t), r.ID, "host")
	if err != nil || again != closed {
		t.Fatalf("CloseRoomAs again = %+v, %v; want %+v unchanged", again, err, closed)
	}
	_, err = s.CloseRoomAs(ctx(t), r.ID, "intruder")
	wantOnly(t, "CloseRoomAs of a closed room by another user", err, ddbkit.ErrPermissionDenied)

	// CloseRoom, the trusted close, checks no one.
	other := mustRoom(t, s, "host-2", "other")
	if got := mustClose(t, s, other.ID); got.Status != livecomment.RoomClosed {
		t.Fatalf("CloseRoom = %+v", got)
	}

	_, err = s.CloseRoomAs(ctx(t), "no-such-room", "host")
	wantOnly(t, "CloseRoomAs(missing)", err, ddbkit.ErrNotFound)
	if _, err := s.GetRoom(ctx(t), "no-such-room"); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("CloseRoomAs of a missing room created it: %v", err)
	}
	for _, tc := range []struct{ room, actor, field string }{
		{r.ID, "", "ActorID"}, {r.ID, "bad#id", "ActorID"}, {"", "host", "RoomID"},
	} {
		_, err := s.CloseRoomAs(ctx(t), tc.room, tc.actor)
		wantOnly(t, fmt.Sprintf("CloseRoomAs(%q, %q)", tc.room, tc.actor), err, ddbkit.ErrInvalidArgument)
		var ve *ddbkit.ValidationError
		if !errors.As(err, &ve) || ve.Field != tc.field {
			t.Fatalf("CloseRoomAs(%q, %q): error %v; want a *ddbkit.ValidationError for %s", tc.room, tc.actor, err, tc.field)
		}
	}
}

// testCloseRoomAsKeyed: under an idempotency key, CloseRoomAs behaves as
// CloseRoom does (a repeat returns the room as it is, and writes nothing
// more), and the actor is its input: another actor under the same key is
// ErrIdempotencyKeyReused, and a refused close records nothing, so the
// host may then use the key.
func testCloseRoomAsKeyed(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	refusedKey := ddbkit.WithIdempotencyKey(ctx(t), "close-0")
	_, err := s.CloseRoomAs(refusedKey, r.ID, "intruder")
	wantOnly(t, "keyed CloseRoomAs by another user", err, ddbkit.ErrPermissionDenied)
	if got, _ := s.GetRoom(ctx(t), r.ID); got.Status != livecomment.RoomOpen {
		t.Fatalf("the refused keyed close closed the room: %+v", got)
	}

	keyed := ddbkit.WithIdempotencyKey(ctx(t), "close-1")
	closed, err := s.CloseRoomAs(keyed, r.ID, "host")
	if err != nil || closed.Status != livecomment.RoomClosed {
		t.Fatalf("keyed CloseRoomAs = %+v, %v; want the closed room", closed, err)
	}
	for _, cx := range []context.Context{keyed, ctx(t)} {
		if again, err := s.CloseRoomAs(cx, r.ID, "host"); err != nil || again != closed {
			t.Fatalf("CloseRoomAs repeated = %+v, %v; want %+v, unchanged", again, err, closed)
		}
	}
	_, err = s.CloseRoomAs(keyed, r.ID, "intruder")
	wantKeyReused(t, "CloseRoomAs by another user under the host's key", err)

	// The key of a refused close was not recorded: the host may use it.
	r2 := mustRoom(t, s, "host", "room 2")
	_, err = s.CloseRoomAs(ddbkit.WithIdempotencyKey(ctx(t), "close-2"), r2.ID, "intruder")
	wantOnly(t, "keyed CloseRoomAs of room 2 by another user", err, ddbkit.ErrPermissionDenied)
	if got, err := s.CloseRoomAs(ddbkit.WithIdempotencyKey(ctx(t), "close-2"), r2.ID, "host"); err != nil || got.Status != livecomment.RoomClosed {
		t.Fatalf("the host's close under the key a refused close used = %+v, %v; want the closed room", got, err)
	}
}

func testPostComment(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	c, err := s.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: "こんにちは！\n2行目", Nickname: "たろう"})
	if err != nil {
		t.Fatalf("PostComment: %v", err)
	}
	if c.RoomID != r.ID || c.ID == "" || c.Content != "こんにちは！\n2行目" || c.Nickname != "たろう" || !c.CreatedAt.After(r.CreatedAt) {
		t.Fatalf("PostComment = %+v", c)
	}
	anon := mustPost(t, s, r.ID, "no name")
	if anon.Nickname != "Anonymous" {
		t.Fatalf("nickname without one given = %q, want Anonymous", anon.Nickname)
	}
	// Limits count characters, not bytes.
	long, err := s.PostComment(ctx(t), r.ID, livecomment.NewComment{
		Content: strings.Repeat("あ", livecomment.MaxContentLen), Nickname: strings.Repeat("名", livecomment.MaxNicknameLen)})
	if err != nil {
		t.Fatalf("PostComment at the limits: %v", err)
	}
	got, _ := comments(t, s, r.ID, 0)
	if want := []livecomment.Comment{c, anon, long}; !slices.Equal(got, want) {
		t.Fatalf("ListComments = %+v\nwant %+v", got, want)
	}
}

func testPostRefused(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	_, err := s.PostComment(ctx(t), "no-such-room", livecomment.NewComment{Content: "hi"})
	wantErr(t, "PostComment(missing room)", err, ddbkit.ErrNotFound)
	if errors.Is(err, livecomment.ErrRoomClosed) {
		t.Fatalf("PostComment(missing room) = %v: a missing room is not a closed one", err)
	}
	r := mustRoom(t, s, "host", "room")
	kept := mustPost(t, s, r.ID, "before the close")
	mustClose(t, s, r.ID)
	_, err = s.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: "too late"})
	wantErr(t, "PostComment(closed room)", err, livecomment.ErrRoomClosed)
	wantErr(t, "PostComment(closed room)", err, ddbkit.ErrConflict)
	if errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("PostComment(closed room) = %v: a closed room is not a missing one", err)
	}
	if got, _ := comments(t, s, r.ID, 0); len(got) != 1 || got[0] != kept {
		t.Fatalf("refused posts wrote comments: %+v", got)
	}
	if got, _ := comments(t, s, "no-such-room", 0); len(got) != 0 {
		t.Fatalf("a post to a missing room wrote %+v", got)
	}
}

func testListComments(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	other := mustRoom(t, s, "host", "other")
	var want []livecomment.Comment
	for i := range 7 {
		want = append(want, mustPost(t, s, r.ID, fmt.Sprint("comment ", i)))
		mustPost(t, s, other.ID, "elsewhere")
	}
	tests := []struct {
		name  string
		limit int
		sizes []int
	}{
		{"limit 3", 3, []int{3, 3, 1}},
		{"limit 2", 2, []int{2, 2, 2, 1}},
		{"exact fit", 7, []int{7}},
		{"more than all", 8, []int{7}},
		{"default", 0, []int{7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, sizes := comments(t, s, r.ID, tt.limit)
			if !slices.Equal(got, want) {
				t.Fatalf("ListComments = %+v\nwant (posting order) %+v", got, want)
			}
			if !slices.Equal(sizes, tt.sizes) {
				t.Fatalf("page sizes = %v, want %v", sizes, tt.sizes)
			}
		})
	}
	p, err := s.ListComments(ctx(t), "no-such-room", ddbkit.PageOptions{})
	if err != nil || len(p.Items) != 0 || p.Next != "" {
		t.Fatalf("ListComments(unknown room) = %+v, %v; want an empty last page", p, err)
	}
}

// testListCommentsNewest: newest first is oldest first reversed, at every
// page size, with every page full but the last; AllCommentsNewest walks
// the same, and an early stop reads the last comments only.
func testListCommentsNewest(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	other := mustRoom(t, s, "host", "other")
	const total = 23
	for i := range total {
		mustPost(t, s, r.ID, fmt.Sprint("comment ", i))
		if i%3 == 0 {
			mustPost(t, s, other.ID, "elsewhere")
		}
	}
	oldest, _ := comments(t, s, r.ID, 0)
	if len(oldest) != total {
		t.Fatalf("ListComments listed %d comments, want %d", len(oldest), total)
	}
	want := slices.Clone(oldest)
	slices.Reverse(want)
	for _, limit := range []int{1, 2, 7, 0} {
		got, sizes := commentsNewest(t, s, r.ID, limit)
		if !slices.Equal(got, want) {
			t.Fatalf("limit %d: ListCommentsNewest = %+v\nwant ListComments reversed %+v", limit, got, want)
		}
		asc, _ := comments(t, s, r.ID, limit)
		if !slices.Equal(asc, oldest) {
			t.Fatalf("limit %d: ListComments = %+v\nwant %+v", limit, asc, oldest)
		}
		l := limit
		if l == 0 {
			l = ddbkit.DefaultPageLimit
		}
		var wantSizes []int
		for left := total; left > 0; left -= l {
			wantSizes = append(wantSizes, min(l, left))
		}
		if !slices.Equal(sizes, wantSizes) {
			t.Fatalf("limit %d: page sizes = %v, want %v", limit, sizes, wantSizes)
		}
	}
	var walked []livecomment.Comment
	for c, err := range livecomment.AllCommentsNewest(ctx(t), s, r.ID) {
		if err != nil {
			t.Fatalf("AllCommentsNewest: %v", err)
		}
		if walked = append(walked, c); len(walked) == 3 {
			break
		}
	}
	if !slices.Equal(walked, want[:3]) {
		t.Fatalf("AllCommentsNewest, first 3 = %+v\nwant the last 3 posted, newest first %+v", walked, want[:3])
	}
	p, err := s.ListCommentsNewest(ctx(t), "no-such-room", ddbkit.PageOptions{})
	if err != nil || len(p.Items) != 0 || p.Next != "" {
		t.Fatalf("ListCommentsNewest(unknown room) = %+v, %v; want an empty last page", p, err)
	}
}

// testCommentCursorDirection: a cursor of ListComments is refused by
// ListCommentsNewest and the other way round (ErrInvalidCursor), and each
// listing goes on with its own.
func testCommentCursorDirection(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	for i := range 5 {
		mustPost(t, s, r.ID, fmt.Sprint("c", i))
	}
	type list func(context.Context, string, ddbkit.PageOptions) (ddbkit.Page[livecomment.Comment], error)
	firstNext := func(name string, l list) string {
		t.Helper()
		p, err := l(ctx(t), r.ID, ddbkit.PageOptions{Limit: 2})
		if err != nil || p.Next == "" {
			t.Fatalf("%s first page: next %q, %v", name, p.Next, err)
		}
		return p.Next
	}
	asc := firstNext("ListComments", s.ListComments)
	desc := firstNext("ListCommentsNewest", s.ListCommentsNewest)
	for _, tt := range []struct {
		name   string
		l      list
		cursor string
		want   error
	}{
		{"ListComments with a ListCommentsNewest cursor", s.ListComments, desc, ddbkit.ErrInvalidCursor},
		{"ListCommentsNewest with a ListComments cursor", s.ListCommentsNewest, asc, ddbkit.ErrInvalidCursor},
		{"ListCommentsNewest with its own cursor", s.ListCommentsNewest, desc, nil},
		{"ListComments with its own cursor", s.ListComments, asc, nil},
	} {
		_, err := tt.l(ctx(t), r.ID, ddbkit.PageOptions{Limit: 2, Cursor: tt.cursor})
		if tt.want == nil {
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			continue
		}
		wantOnly(t, tt.name, err, tt.want)
	}
}

// testTiedComments posts more comments than a UUIDv7 counter holds in one
// millisecond, all under a frozen clock: they still list in the order they
// were posted, each once, whatever the page size, and neither their
// createdAt nor their IDs tie.
func testTiedComments(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *livecomment.Options) { o.Clock = func() time.Time { return Start } })
	r := mustRoom(t, s, "host", "room")
	const n = 3100 // past the 4,096 values of the 12-bit counter from a start below 2,048
	want := make([]livecomment.Comment, n)
	for i := range want {
		want[i] = mustPost(t, s, r.ID, fmt.Sprint("tied ", i))
	}
	for i := 1; i < n; i++ {
		if !want[i].CreatedAt.After(want[i-1].CreatedAt) || want[i].ID <= want[i-1].ID {
			t.Fatalf("post %d: createdAt %v, ID %s after createdAt %v, ID %s: want both strictly increasing",
				i, want[i].CreatedAt, want[i].ID, want[i-1].CreatedAt, want[i-1].ID)
		}
	}
	newest, _ := commentsNewest(t, s, r.ID, 1000)
	if len(newest) != n {
		t.Fatalf("ListCommentsNewest returned %d comments, want %d", len(newest), n)
	}
	for i := range newest {
		if newest[i] != want[n-1-i] {
			t.Fatalf("ListCommentsNewest: comment %d = %+v, want (posting order reversed) %+v", i, newest[i], want[n-1-i])
		}
	}
	for _, limit := range []int{1000, 7} {
		got, _ := comments(t, s, r.ID, limit)
		if len(got) != n {
			t.Fatalf("limit %d: ListComments returned %d comments, want %d", limit, len(got), n)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("limit %d: comment %d = %+v, want (posting order) %+v", limit, i, got[i], want[i])
			}
		}
	}
}

// testCancelledContext calls every operation under a cancelled and an
// expired context: each fails with ErrUnavailable that also matches the
// context's error, and writes nothing. Bad input is still reported as
// such, before the context is looked at.
func testCancelledContext(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	kept := mustPost(t, s, r.ID, "kept")
	conn := mustJoin(t, s, r.ID, "conn")
	cancelled, cancel := context.WithCancel(ctx(t))
	cancel()
	expired, cancel2 := context.WithDeadline(ctx(t), Start)
	defer cancel2()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{{"cancelled", cancelled, context.Canceled}, {"expired", expired, context.DeadlineExceeded}} {
		calls := []struct {
			name string
			call func() error
		}{
			{"CreateRoom", func() error {
				_, err := s.CreateRoom(c.ctx, livecomment.NewRoom{Name: "new", HostID: "host"})
				return err
			}},
			{"GetRoom", func() error { _, err := s.GetRoom(c.ctx, r.ID); return err }},
			{"ListHostRooms", func() error { _, err := s.ListHostRooms(c.ctx, "host", ddbkit.PageOptions{}); return err }},
			{"CloseRoom", func() error { _, err := s.CloseRoom(c.ctx, r.ID); return err }},
			{"CloseRoomAs", func() error { _, err := s.CloseRoomAs(c.ctx, r.ID, "host"); return err }},
			{"PostComment", func() error {
				_, err := s.PostComment(c.ctx, r.ID, livecomment.NewComment{Content: "lost"})
				return err
			}},
			{"ListComments", func() error { _, err := s.ListComments(c.ctx, r.ID, ddbkit.PageOptions{}); return err }},
			{"ListCommentsNewest", func() error {
				_, err := s.ListCommentsNewest(c.ctx, r.ID, ddbkit.PageOptions{})
				return err
			}},
			{"JoinRoom", func() error { _, err := s.JoinRoom(c.ctx, r.ID, "late"); return err }},
			{"GetConnection", func() error { _, err := s.GetConnection(c.ctx, conn.ID); return err }},
			{"Disconnect", func() error { return s.Disconnect(c.ctx, conn.ID) }},
			{"ListConnections", func() error {
				_, err := s.ListConnections(c.ctx, r.ID, ddbkit.PageOptions{})
				return err
			}},
			{"Broadcast", func() error {
				_, err := livecomment.Broadcast(c.ctx, s, r.ID, func(context.Context, livecomment.Connection) error {
					t.Errorf("Broadcast sent under a %s context", c.name)
					return nil
				})
				return err
			}},
		}
		for _, call := range calls {
			err := call.call()
			wantOnly(t, c.name+" "+call.name, err, ddbkit.ErrUnavailable)
			if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "livecomment: ") {
				t.Errorf("%s %s: error %v; want it to match %v and name the package", c.name, call.name, err, c.want)
			}
		}
		_, err := s.PostComment(c.ctx, r.ID, livecomment.NewComment{Content: ""})
		wantOnly(t, c.name+" PostComment with bad input", err, ddbkit.ErrInvalidArgument)
	}
	// Nothing was written.
	if got, err := s.GetRoom(ctx(t), r.ID); err != nil || got != r {
		t.Fatalf("GetRoom = %+v, %v; want %+v unchanged (not closed)", got, err, r)
	}
	if rooms, _ := hostRooms(t, s, "host", 0); len(rooms) != 1 {
		t.Fatalf("rooms after cancelled calls: %+v", rooms)
	}
	if got, _ := comments(t, s, r.ID, 0); !slices.Equal(got, []livecomment.Comment{kept}) {
		t.Fatalf("comments after cancelled calls: %+v", got)
	}
	if ids, _ := connIDs(t, s, r.ID, 0); !slices.Equal(ids, []string{conn.ID}) {
		t.Fatalf("connections after cancelled calls: %v; want only %s, still joined", ids, conn.ID)
	}
}

// wantKeyReused fails unless err is a reused idempotency key: it matches
// ErrIdempotencyKeyReused, and ErrConflict as its one sentinel.
func wantKeyReused(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) {
		t.Errorf("%s: error %v, want ErrIdempotencyKeyReused", what, err)
	}
	wantOnly(t, what, err, ddbkit.ErrConflict)
}

// testIdempotencyKey repeats each write under one idempotency key. A
// repeat with the same input returns the first call's result and writes
// nothing more: the same room and comment (the same ID and stamp, where a
// call without the key makes fresh ones), the same join (not a refreshed
// JoinedAt). The same key with other input is ErrIdempotencyKeyReused and
// writes nothing. The key is per operation: a join under the key a post
// used is a new request.
func testIdempotencyKey(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	keyed := ddbkit.WithIdempotencyKey(ctx(t), "request-1")

	in := livecomment.NewRoom{Name: "room", HostID: "host"}
	r, err := s.CreateRoom(keyed, in)
	if err != nil {
		t.Fatalf("CreateRoom with a key: %v", err)
	}
	again, err := s.CreateRoom(keyed, in)
	if err != nil || again != r {
		t.Fatalf("CreateRoom repeated with its key = %+v, %v; want the first room %+v", again, err, r)
	}
	_, err = s.CreateRoom(keyed, livecomment.NewRoom{Name: "other", HostID: "host"})
	wantKeyReused(t, "CreateRoom with the key and another name", err)
	if got, _ := hostRooms(t, s, "host", 0); !slices.Equal(got, []livecomment.Room{r}) {
		t.Fatalf("rooms = %+v; want only %+v", got, r)
	}

	first, err := s.PostComment(keyed, r.ID, livecomment.NewComment{Content: "once"})
	if err != nil {
		t.Fatalf("PostComment with a key: %v", err)
	}
	repeat, err := s.PostComment(keyed, r.ID, livecomment.NewComment{Content: "once"})
	if err != nil || repeat != first {
		t.Fatalf("PostComment repeated with its key = %+v, %v; want the first comment %+v", repeat, err, first)
	}
	_, err = s.PostComment(keyed, r.ID, livecomment.NewComment{Content: "twice"})
	wantKeyReused(t, "PostComment with the key and other content", err)
	if got, _ := comments(t, s, r.ID, 0); !slices.Equal(got, []livecomment.Comment{first}) {
		t.Fatalf("after a repeated post, comments = %+v; want only %+v", got, first)
	}
	other, err := s.PostComment(ddbkit.WithIdempotencyKey(ctx(t), "request-2"), r.ID, livecomment.NewComment{Content: "once"})
	if err != nil || other.ID == first.ID {
		t.Fatalf("PostComment with another key = %+v, %v; want a new comment", other, err)
	}

	// JoinRoom stamps afresh without a key (a second join refreshes
	// JoinedAt); under one, a repeat is the first join, not a second.
	c, err := s.JoinRoom(keyed, r.ID, "conn")
	if err != nil {
		t.Fatalf("JoinRoom under the key a post used: %v", err)
	}
	rejoin, err := s.JoinRoom(keyed, r.ID, "conn")
	if err != nil || rejoin != c {
		t.Fatalf("JoinRoom repeated with its key = %+v, %v; want the first join %+v", rejoin, err, c)
	}
	r2 := mustRoom(t, s, "host", "room 2")
	_, err = s.JoinRoom(keyed, r2.ID, "conn")
	wantKeyReused(t, "JoinRoom with the key and another room", err)
	if got, err := s.GetConnection(ctx(t), "conn"); err != nil || got != c {
		t.Fatalf("after the repeated joins, GetConnection = %+v, %v; want %+v", got, err, c)
	}
	if got, _ := comments(t, s, r.ID, 0); !slices.Equal(got, []livecomment.Comment{first, other}) {
		t.Fatalf("comments = %+v; want %+v", got, []livecomment.Comment{first, other})
	}
}

// testIdempotencyKeyNoOps repeats under a key the writes whose repeat is
// safe by itself: CloseRoom and Disconnect return what they return
// without a key (the closed room as it is; nil). A replayed join whose
// connection is gone since is ErrNotFound, as GetConnection says.
func testIdempotencyKeyNoOps(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	keyed := ddbkit.WithIdempotencyKey(ctx(t), "request-1")
	r := mustRoom(t, s, "host", "room")
	c := mustJoin(t, s, r.ID, "conn")

	closed, err := s.CloseRoom(keyed, r.ID)
	if err != nil || closed.Status != livecomment.RoomClosed {
		t.Fatalf("CloseRoom with a key = %+v, %v; want the closed room", closed, err)
	}
	for _, cx := range []context.Context{keyed, ctx(t)} {
		if again, err := s.CloseRoom(cx, r.ID); err != nil || again != closed {
			t.Fatalf("CloseRoom repeated = %+v, %v; want %+v, unchanged", again, err, closed)
		}
	}
	_, err = s.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: "late"})
	wantErr(t, "PostComment after the keyed close", err, livecomment.ErrRoomClosed)

	for i := range 2 {
		if err := s.Disconnect(keyed, c.ID); err != nil {
			t.Fatalf("Disconnect with a key, call %d: %v", i+1, err)
		}
	}
	if _, err := s.GetConnection(ctx(t), c.ID); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("GetConnection after the keyed disconnect: %v, want ErrNotFound", err)
	}
	// A second connection under the same key is another scope.
	mustJoin(t, s, mustRoom(t, s, "host", "room 2").ID, "conn-2")
	if err := s.Disconnect(keyed, "conn-2"); err != nil {
		t.Fatalf("Disconnect of another connection under the key: %v", err)
	}
	if _, err := s.GetConnection(ctx(t), "conn-2"); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("GetConnection(conn-2): %v, want ErrNotFound", err)
	}

	// A join replayed after its connection left: nothing to return.
	r3 := mustRoom(t, s, "host", "room 3")
	joinKey := ddbkit.WithIdempotencyKey(ctx(t), "join-1")
	if _, err := s.JoinRoom(joinKey, r3.ID, "conn-3"); err != nil {
		t.Fatal(err)
	}
	if err := s.Disconnect(ctx(t), "conn-3"); err != nil {
		t.Fatal(err)
	}
	_, err = s.JoinRoom(joinKey, r3.ID, "conn-3")
	wantOnly(t, "JoinRoom replayed after a disconnect", err, ddbkit.ErrNotFound)
	if ids, _ := connIDs(t, s, r3.ID, 0); len(ids) != 0 {
		t.Fatalf("the replayed join wrote %v", ids)
	}
}

// testIdempotencyKeyScoped uses one idempotency key for every write, on
// two tenants of each operation (two hosts, two rooms, two connections)
// and on two stores (two sets of tables): a key is scoped to the table,
// the operation and the partition, so every one of those writes is a
// request of its own and succeeds. Within its own scope, a repeat replays
// and other input is refused with ErrIdempotencyKeyReused.
func testIdempotencyKeyScoped(t *testing.T, newStore NewStore) {
	keyed := ddbkit.WithIdempotencyKey(ctx(t), "shared-key")
	// Two stores with the same deterministic options make the same IDs
	// and stamps: only the tables tell their writes apart.
	for i, s := range []livecomment.Store{fixed(t, newStore), fixed(t, newStore)} {
		t.Run(fmt.Sprint("store ", i), func(t *testing.T) {
			var rooms []livecomment.Room
			for _, host := range []string{"alice", "bob"} {
				r, err := s.CreateRoom(keyed, livecomment.NewRoom{Name: "room", HostID: host})
				if err != nil {
					t.Fatalf("CreateRoom(%s) under the shared key: %v", host, err)
				}
				rooms = append(rooms, r)
			}
			again, err := s.CreateRoom(keyed, livecomment.NewRoom{Name: "room", HostID: "alice"})
			if err != nil || again != rooms[0] {
				t.Fatalf("CreateRoom repeated for the same host under its key = %+v, %v; want %+v", again, err, rooms[0])
			}
			if got, _ := hostRooms(t, s, "alice", 0); len(got) != 1 || got[0] != rooms[0] {
				t.Fatalf("alice's rooms = %+v; want only %+v", got, rooms[0])
			}
			var posted []livecomment.Comment
			for _, r := range rooms {
				c, err := s.PostComment(keyed, r.ID, livecomment.NewComment{Content: "hi"})
				if err != nil {
					t.Fatalf("PostComment(%s) under the shared key: %v", r.ID, err)
				}
				if got, _ := comments(t, s, r.ID, 0); !slices.Equal(got, []livecomment.Comment{c}) {
					t.Fatalf("comments of %s = %+v; want %+v", r.ID, got, c)
				}
				posted = append(posted, c)
			}
			_, err = s.PostComment(keyed, rooms[0].ID, livecomment.NewComment{Content: "bye"})
			wantKeyReused(t, "PostComment of other content in the same room under its key", err)
			if got, _ := comments(t, s, rooms[0].ID, 0); !slices.Equal(got, posted[:1]) {
				t.Fatalf("comments = %+v; want only %+v", got, posted[0])
			}
			for _, id := range []string{"conn-1", "conn-2"} {
				if _, err := s.JoinRoom(keyed, rooms[0].ID, id); err != nil {
					t.Fatalf("JoinRoom(%s) under the shared key: %v", id, err)
				}
			}
			_, err = s.JoinRoom(keyed, rooms[1].ID, "conn-1")
			wantKeyReused(t, "JoinRoom of the same connection to another room under its key", err)
			if ids, _ := connIDs(t, s, rooms[0].ID, 0); !slices.Equal(ids, []string{"conn-1", "conn-2"}) {
				t.Fatalf("connections = %v; want [conn-1 conn-2], the refused move not made", ids)
			}
		})
	}
}

// testClockOutOfRange makes the store's clock read years no reader can
// parse: every write refuses with ErrInvalidArgument naming Clock, writes
// nothing, and leaves the store's later stamps unharmed.
func testClockOutOfRange(t *testing.T, newStore NewStore) {
	var bad atomic.Pointer[time.Time]
	step := ddbkit.StepClock(Start, time.Millisecond)
	s := fixed(t, newStore, func(o *livecomment.Options) {
		o.Clock = func() time.Time {
			if b := bad.Load(); b != nil {
				return *b
			}
			return step()
		}
	})
	r := mustRoom(t, s, "host", "room")
	kept := mustPost(t, s, r.ID, "kept")
	conn := mustJoin(t, s, r.ID, "conn")
	for _, at := range []time.Time{
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("", -2*3600)), // year 10000 in UTC
	} {
		bad.Store(&at)
		for _, tc := range []struct {
			name string
			call func() error
		}{
			{"CreateRoom", func() error {
				_, err := s.CreateRoom(ctx(t), livecomment.NewRoom{Name: "new", HostID: "host"})
				return err
			}},
			{"CloseRoom", func() error { _, err := s.CloseRoom(ctx(t), r.ID); return err }},
			{"PostComment", func() error {
				_, err := s.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: "never"})
				return err
			}},
			{"JoinRoom", func() error { _, err := s.JoinRoom(ctx(t), r.ID, "late"); return err }},
			{"JoinRoom again", func() error { _, err := s.JoinRoom(ctx(t), r.ID, conn.ID); return err }},
		} {
			err := tc.call()
			wantOnly(t, fmt.Sprintf("%s at %v", tc.name, at), err, ddbkit.ErrInvalidArgument)
			var ve *ddbkit.ValidationError
			if !errors.As(err, &ve) || ve.Field != "Clock" {
				t.Fatalf("%s at %v: error %v; want a *ddbkit.ValidationError for Clock", tc.name, at, err)
			}
		}
	}
	bad.Store(nil)
	if got, err := s.GetRoom(ctx(t), r.ID); err != nil || got != r {
		t.Fatalf("GetRoom = %+v, %v; want %+v unchanged", got, err, r)
	}
	if rooms, _ := hostRooms(t, s, "host", 0); !slices.Equal(rooms, []livecomment.Room{r}) {
		t.Fatalf("rooms = %+v; want only %+v", rooms, r)
	}
	if got, _ := comments(t, s, r.ID, 0); !slices.Equal(got, []livecomment.Comment{kept}) {
		t.Fatalf("comments = %+v; want only %+v", got, kept)
	}
	if got, err := s.GetConnection(ctx(t), conn.ID); err != nil || got != conn {
		t.Fatalf("GetConnection = %+v, %v; want %+v unchanged", got, err, conn)
	}
	if _, err := s.GetConnection(ctx(t), "late"); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("a refused join stored a connection: %v", err)
	}
	// The refused readings did not become the floor of later stamps.
	c := mustPost(t, s, r.ID, "later")
	if c.CreatedAt.Year() != Start.Year() || !c.CreatedAt.After(kept.CreatedAt) {
		t.Fatalf("a post after the clock recovered is stamped %v; want soon after %v", c.CreatedAt, kept.CreatedAt)
	}

	// A reading before year 1 on a fresh store. (Once a store has stamped,
	// an earlier reading is stamped a millisecond after its last stamp.)
	early := fixed(t, newStore, func(o *livecomment.Options) {
		o.Clock = func() time.Time { return time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC) }
	})
	_, err := early.CreateRoom(ctx(t), livecomment.NewRoom{Name: "room", HostID: "host"})
	wantOnly(t, "CreateRoom in year 0", err, ddbkit.ErrInvalidArgument)
	if rooms, _ := hostRooms(t, early, "host", 0); len(rooms) != 0 {
		t.Fatalf("a refused create stored %+v", rooms)
	}
}

// testShortCursorSecret: a CursorSecret of 1 to 15 bytes is refused by
// every listing, and Broadcast, with ErrInvalidArgument naming
// CursorSecret; 16 bytes are enough.
func testShortCursorSecret(t *testing.T, newStore NewStore) {
	for _, tc := range []struct {
		secret string
		ok     bool
	}{{"", true}, {"x", false}, {"fifteen-bytes!!", false}, {"sixteen-bytes!!!", true}} {
		t.Run(fmt.Sprintf("%d bytes", len(tc.secret)), func(t *testing.T) {
			s := fixed(t, newStore, func(o *livecomment.Options) { o.CursorSecret = []byte(tc.secret) })
			r := mustRoom(t, s, "host", "room") // writes do not use the secret
			mustPost(t, s, r.ID, "c")
			mustJoin(t, s, r.ID, "conn")
			for _, call := range []struct {
				name string
				err  error
			}{
				{"ListHostRooms", second(s.ListHostRooms(ctx(t), "host", ddbkit.PageOptions{}))},
				{"ListComments", second(s.ListComments(ctx(t), r.ID, ddbkit.PageOptions{}))},
				{"ListCommentsNewest", second(s.ListCommentsNewest(ctx(t), r.ID, ddbkit.PageOptions{}))},
				{"ListConnections", second(s.ListConnections(ctx(t), r.ID, ddbkit.PageOptions{}))},
				{"Broadcast", second(livecomment.Broadcast(ctx(t), s, r.ID, func(context.Context, livecomment.Connection) error { return nil }))},
			} {
				if tc.ok {
					if call.err != nil {
						t.Fatalf("%s: %v", call.name, call.err)
					}
					continue
				}
				wantOnly(t, call.name, call.err, ddbkit.ErrInvalidArgument)
				var ve *ddbkit.ValidationError
				if !errors.As(call.err, &ve) || ve.Field != "CursorSecret" {
					t.Fatalf("%s: error %v; want a *ddbkit.ValidationError for CursorSecret", call.name, call.err)
				}
			}
		})
	}
}

func second[T any](_ T, err error) error { return err }

// wantOnly fails unless err matches want and no other ddbkit sentinel.
func wantOnly(t *testing.T, what string, err, want error) {
	t.Helper()
	if matched := ddbkit.MatchingSentinels(err); len(matched) != 1 || matched[0] != want {
		t.Errorf("%s: error %v matches %v, want exactly [%v]", what, err, matched, want)
	}
}

func testConnections(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	other := mustRoom(t, s, "host", "other")
	c := mustJoin(t, s, r.ID, "L0SM9cOFvHcCIhw=")
	if c.ID != "L0SM9cOFvHcCIhw=" || c.RoomID != r.ID || !c.JoinedAt.After(r.CreatedAt) || c.JoinedAt.Location() != time.UTC {
		t.Fatalf("JoinRoom = %+v", c)
	}
	if got, err := s.GetConnection(ctx(t), c.ID); err != nil || got != c {
		t.Fatalf("GetConnection = %+v, %v; want %+v", got, err, c)
	}
	first := mustJoin(t, s, r.ID, "conn-2")
	// Joining the same room again refreshes the timestamp.
	if again := mustJoin(t, s, r.ID, "conn-2"); again.RoomID != r.ID || !again.JoinedAt.After(first.JoinedAt) {
		t.Fatalf("joining again = %+v, want a later JoinedAt than %v", again, first.JoinedAt)
	}
	if ids, _ := connIDs(t, s, r.ID, 0); !slices.Equal(ids, []string{"L0SM9cOFvHcCIhw=", "conn-2"}) {
		t.Fatalf("ListConnections = %v", ids)
	}

	// Joining another room moves the connection.
	moved := mustJoin(t, s, other.ID, "conn-2")
	if got, _ := s.GetConnection(ctx(t), "conn-2"); got != moved || got.RoomID != other.ID {
		t.Fatalf("after moving, GetConnection = %+v, want %+v", got, moved)
	}
	if ids, _ := connIDs(t, s, r.ID, 0); !slices.Equal(ids, []string{"L0SM9cOFvHcCIhw="}) {
		t.Fatalf("after moving conn-2 away, ListConnections(room) = %v", ids)
	}
	if ids, _ := connIDs(t, s, other.ID, 0); !slices.Equal(ids, []string{"conn-2"}) {
		t.Fatalf("after moving conn-2, ListConnections(other) = %v", ids)
	}

	_, err := s.JoinRoom(ctx(t), "no-such-room", "conn-3")
	wantErr(t, "JoinRoom(missing room)", err, ddbkit.ErrNotFound)
	mustClose(t, s, other.ID)
	_, err = s.JoinRoom(ctx(t), other.ID, "conn-3")
	wantErr(t, "JoinRoom(closed room)", err, livecomment.ErrRoomClosed)
	_, err = s.GetConnection(ctx(t), "conn-3")
	wantErr(t, "GetConnection after refused joins", err, ddbkit.ErrNotFound)
	// A refused move leaves the connection where it was.
	_, err = s.JoinRoom(ctx(t), other.ID, c.ID)
	wantErr(t, "JoinRoom(closed room) of a joined connection", err, livecomment.ErrRoomClosed)
	if got, _ := s.GetConnection(ctx(t), c.ID); got != c {
		t.Fatalf("a refused join changed the connection: %+v, want %+v", got, c)
	}

	for i := range 2 { // idempotent
		if err := s.Disconnect(ctx(t), c.ID); err != nil {
			t.Fatalf("Disconnect #%d: %v", i+1, err)
		}
	}
	_, err = s.GetConnection(ctx(t), c.ID)
	wantErr(t, "GetConnection after Disconnect", err, ddbkit.ErrNotFound)
	if ids, _ := connIDs(t, s, r.ID, 0); len(ids) != 0 {
		t.Fatalf("after Disconnect, ListConnections = %v", ids)
	}
	if err := s.Disconnect(ctx(t), "never-joined"); err != nil {
		t.Fatalf("Disconnect(unknown): %v; want nil, it is idempotent", err)
	}
}

func testListConnectionsPages(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	other := mustRoom(t, s, "host", "other")
	var want []string
	for i := range 7 {
		want = append(want, mustJoin(t, s, r.ID, fmt.Sprintf("conn-%d", i)).ID)
		mustJoin(t, s, other.ID, fmt.Sprintf("other-%d", i))
	}
	slices.Sort(want)
	tests := []struct {
		limit int
		sizes []int
	}{{3, []int{3, 3, 1}}, {1, []int{1, 1, 1, 1, 1, 1, 1}}, {7, []int{7}}, {0, []int{7}}}
	for _, tt := range tests {
		ids, sizes := connIDs(t, s, r.ID, tt.limit)
		if !slices.Equal(ids, want) || !slices.Equal(sizes, tt.sizes) {
			t.Fatalf("limit %d: ListConnections = %v in pages %v; want %v in pages %v", tt.limit, ids, sizes, want, tt.sizes)
		}
	}
	var all []string
	for c, err := range livecomment.AllConnections(ctx(t), s, r.ID) {
		if err != nil {
			t.Fatalf("AllConnections: %v", err)
		}
		all = append(all, c.ID)
	}
	slices.Sort(all)
	if !slices.Equal(all, want) {
		t.Fatalf("AllConnections = %v, want %v", all, want)
	}
}

// testCloseKeepsConnections pins the decision that closing a room leaves
// its connections: the caller broadcasts a closing notice, and clients
// disconnect.
func testCloseKeepsConnections(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	mustJoin(t, s, r.ID, "a")
	mustJoin(t, s, r.ID, "b")
	mustClose(t, s, r.ID)
	if ids, _ := connIDs(t, s, r.ID, 0); !slices.Equal(ids, []string{"a", "b"}) {
		t.Fatalf("after CloseRoom, ListConnections = %v; want [a b] kept", ids)
	}
	var mu sync.Mutex
	var notified []string
	res, err := livecomment.Broadcast(ctx(t), s, r.ID, func(_ context.Context, c livecomment.Connection) error {
		mu.Lock()
		defer mu.Unlock()
		notified = append(notified, c.ID)
		return nil
	})
	if err != nil || res != (livecomment.BroadcastResult{Sent: 2}) {
		t.Fatalf("closing notice: %+v, %v", res, err)
	}
	for _, id := range notified {
		if err := s.Disconnect(ctx(t), id); err != nil {
			t.Fatal(err)
		}
	}
	if ids, _ := connIDs(t, s, r.ID, 0); len(ids) != 0 {
		t.Fatalf("after disconnecting, ListConnections = %v", ids)
	}
}

func testBroadcast(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	other := mustRoom(t, s, "host", "other")
	mustJoin(t, s, other.ID, "elsewhere")
	var all []string
	for i := range 25 {
		all = append(all, mustJoin(t, s, r.ID, fmt.Sprintf("conn-%02d", i)).ID)
	}
	// conn-00..04 are gone (ErrGone), conn-05 is gone as API Gateway says
	// it, conn-06 fails otherwise, the rest receive.
	apiGone := &smithy.GenericAPIError{Code: "GoneException", Message: "410 Gone"}
	failure := errors.New("network down")
	var (
		mu       sync.Mutex
		got      = map[string]int{}
		inFlight atomic.Int32
		peak     atomic.Int32
	)
	send := func(_ context.Context, c livecomment.Connection) error {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(time.Millisecond)
		mu.Lock()
		got[c.ID]++
		mu.Unlock()
		switch {
		case c.ID < "conn-05":
			return fmt.Errorf("post to connection: %w", livecomment.ErrGone)
		case c.ID == "conn-05":
			return apiGone
		case c.ID == "conn-06":
			return failure
		}
		return nil
	}
	// Small pages, so that gone connections are deleted while later pages
	// are still to be read.
	res, err := livecomment.Broadcast(ctx(t), s, r.ID, send, func(o *livecomment.BroadcastOptions) { o.Concurrency, o.PageLimit = 4, 3 })
	if want := (livecomment.BroadcastResult{Sent: 18, Gone: 6, Failed: 1}); res != want {
		t.Fatalf("Broadcast = %+v, want %+v", res, want)
	}
	if !errors.Is(err, failure) || !strings.Contains(err.Error(), "conn-06") || !strings.HasPrefix(err.Error(), "livecomment: ") {
		t.Fatalf("Broadcast error %v: want the failed send, naming conn-06", err)
	}
	if p := peak.Load(); p > 4 {
		t.Fatalf("%d sends in flight at once, want at most 4", p)
	}
	for _, id := range all {
		if got[id] != 1 {
			t.Fatalf("connection %s was sent to %d times, want once", id, got[id])
		}
	}
	if got["elsewhere"] != 0 {
		t.Fatalf("Broadcast sent to another room's connection")
	}
	ids, _ := connIDs(t, s, r.ID, 0)
	if want := all[6:]; !slices.Equal(ids, want) {
		t.Fatalf("after Broadcast, ListConnections = %v; want the gone ones deleted: %v", ids, want)
	}

	// Everyone left is reachable now.
	res, err = livecomment.Broadcast(ctx(t), s, r.ID, func(context.Context, livecomment.Connection) error { return nil })
	if err != nil || res != (livecomment.BroadcastResult{Sent: 19}) {
		t.Fatalf("second Broadcast = %+v, %v; want 19 sent", res, err)
	}
	res, err = livecomment.Broadcast(ctx(t), s, "empty-room", func(context.Context, livecomment.Connection) error {
		t.Errorf("sent to a room without connections")
		return nil
	})
	if err != nil || res != (livecomment.BroadcastResult{}) {
		t.Fatalf("Broadcast to an empty room = %+v, %v", res, err)
	}
}

func testInvalidCursors(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "alice", "room")
	other := mustRoom(t, s, "bob", "other")
	mustRoom(t, s, "alice", "second")
	mustRoom(t, s, "bob", "second")
	for i := range 3 {
		mustPost(t, s, r.ID, "c")
		mustPost(t, s, other.ID, "c")
		mustJoin(t, s, r.ID, fmt.Sprint("r", i))
		mustJoin(t, s, other.ID, fmt.Sprint("o", i))
	}
	first := func(p ddbkit.Page[livecomment.Comment], err error) string {
		t.Helper()
		if err != nil || p.Next == "" {
			t.Fatalf("first page: next %q, %v", p.Next, err)
		}
		return p.Next
	}
	cc := first(s.ListComments(ctx(t), r.ID, ddbkit.PageOptions{Limit: 1}))
	roomsNext, connsNext := otherCursors(t, s, "alice", r.ID)
	flip := flipByte
	listComments := func(room string) func(string) error {
		return func(c string) error {
			_, err := s.ListComments(ctx(t), room, ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}
	}
	listRooms := func(host string) func(string) error {
		return func(c string) error {
			_, err := s.ListHostRooms(ctx(t), host, ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}
	}
	listConns := func(room string) func(string) error {
		return func(c string) error {
			_, err := s.ListConnections(ctx(t), room, ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}
	}
	tests := []struct {
		name string
		call func(cursor string) error
		cur  string
	}{
		{"another room's comments cursor", listComments(other.ID), cc},
		{"comments cursor for rooms", listRooms("alice"), cc},
		{"another host's rooms cursor", listRooms("bob"), roomsNext},
		{"rooms cursor for connections", listConns(r.ID), roomsNext},
		{"another room's connections cursor", listConns(other.ID), connsNext},
		{"connections cursor for comments", listComments(r.ID), connsNext},
		{"tampered first byte", listComments(r.ID), flip(cc, 0)},
		{"tampered middle byte", listComments(r.ID), flip(cc, len(cc)/2)},
		{"tampered connections cursor", listConns(r.ID), flip(connsNext, len(connsNext)/2)},
		{"truncated", listRooms("alice"), roomsNext[:len(roomsNext)-3]},
		{"garbage", listComments(r.ID), "not a cursor!"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantErr(t, tt.name, tt.call(tt.cur), ddbkit.ErrInvalidCursor)
		})
	}
	// The genuine cursors still work.
	for _, call := range []error{listComments(r.ID)(cc), listRooms("alice")(roomsNext), listConns(r.ID)(connsNext)} {
		if call != nil {
			t.Fatalf("a listing with its own cursor: %v", call)
		}
	}
}

// otherCursors returns the cursors of the first pages, of one item, of
// host's rooms and of roomID's connections: cursors of other listings
// than ListComments.
func otherCursors(t *testing.T, s livecomment.Store, host, roomID string) (rooms, conns string) {
	t.Helper()
	rp, err := s.ListHostRooms(ctx(t), host, ddbkit.PageOptions{Limit: 1})
	if err != nil || rp.Next == "" {
		t.Fatalf("ListHostRooms first page: next %q, %v", rp.Next, err)
	}
	cp, err := s.ListConnections(ctx(t), roomID, ddbkit.PageOptions{Limit: 1})
	if err != nil || cp.Next == "" {
		t.Fatalf("ListConnections first page: next %q, %v", cp.Next, err)
	}
	return rp.Next, cp.Next
}

func testBadInput(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	r := mustRoom(t, s, "host", "room")
	closed := mustRoom(t, s, "host", "closed")
	kept := mustPost(t, s, r.ID, "keep")
	conn := mustJoin(t, s, r.ID, "conn")
	closed = mustClose(t, s, closed.ID)
	long := func(n int) string { return strings.Repeat("あ", n) }
	create := func(in livecomment.NewRoom) func() error {
		return func() error { _, err := s.CreateRoom(ctx(t), in); return err }
	}
	post := func(room string, in livecomment.NewComment) func() error {
		return func() error { _, err := s.PostComment(ctx(t), room, in); return err }
	}
	join := func(room, id string) func() error {
		return func() error { _, err := s.JoinRoom(ctx(t), room, id); return err }
	}
	tests := []struct {
		name  string
		call  func() error
		field string
	}{
		{"empty room name", create(livecomment.NewRoom{Name: "", HostID: "host"}), "Name"},
		{"blank room name", create(livecomment.NewRoom{Name: " \t", HostID: "host"}), "Name"},
		{"room name 101 characters", create(livecomment.NewRoom{Name: long(101), HostID: "host"}), "Name"},
		{"room name with a newline", create(livecomment.NewRoom{Name: "a\nb", HostID: "host"}), "Name"},
		{"room name with an escape", create(livecomment.NewRoom{Name: "a\x1b[2Jb", HostID: "host"}), "Name"},
		{"room name with a C1 control", create(livecomment.NewRoom{Name: "a\u0085b", HostID: "host"}), "Name"},
		{"empty host", create(livecomment.NewRoom{Name: "n", HostID: ""}), "HostID"},
		{"host with a space", create(livecomment.NewRoom{Name: "n", HostID: "a b"}), "HostID"},
		{"host with #", create(livecomment.NewRoom{Name: "n", HostID: "user#1"}), "HostID"},
		{"host 129 characters", create(livecomment.NewRoom{Name: "n", HostID: strings.Repeat("h", 129)}), "HostID"},
		{"empty room id", func() error { _, err := s.GetRoom(ctx(t), ""); return err }, "RoomID"},
		{"# in room id", func() error { _, err := s.CloseRoom(ctx(t), r.ID+"#x"); return err }, "RoomID"},
		{"empty comment", post(r.ID, livecomment.NewComment{Content: ""}), "Content"},
		{"blank comment", post(r.ID, livecomment.NewComment{Content: " \n "}), "Content"},
		{"comment 501 characters", post(r.ID, livecomment.NewComment{Content: long(501)}), "Content"},
		{"invalid UTF-8 comment", post(r.ID, livecomment.NewComment{Content: "\xff"}), "Content"},
		{"nickname 51 characters", post(r.ID, livecomment.NewComment{Content: "c", Nickname: long(51)}), "Nickname"},
		{"blank nickname", post(r.ID, livecomment.NewComment{Content: "c", Nickname: "  "}), "Nickname"},
		{"nickname with a control character", post(r.ID, livecomment.NewComment{Content: "c", Nickname: "a\x00"}), "Nickname"},
		{"nickname with a newline", post(r.ID, livecomment.NewComment{Content: "c", Nickname: "a\nb"}), "Nickname"},
		{"post with an empty room id", post("", livecomment.NewComment{Content: "c"}), "RoomID"},
		{"empty connection id", join(r.ID, ""), "ConnectionID"},
		{"connection id with a space", join(r.ID, "a b"), "ConnectionID"},
		{"join with an empty room id", join("", "c2"), "RoomID"},
		{"disconnect an empty id", func() error { return s.Disconnect(ctx(t), "") }, "ConnectionID"},
		{"get an empty connection id", func() error { _, err := s.GetConnection(ctx(t), ""); return err }, "ConnectionID"},
		{"list rooms of an empty host", func() error {
			_, err := s.ListHostRooms(ctx(t), "", ddbkit.PageOptions{})
			return err
		}, "HostID"},
		{"list connections of an empty room id", func() error {
			_, err := s.ListConnections(ctx(t), "", ddbkit.PageOptions{})
			return err
		}, "RoomID"},
		{"negative limit", func() error {
			_, err := s.ListComments(ctx(t), r.ID, ddbkit.PageOptions{Limit: -1})
			return err
		}, "Limit"},
		{"newest first, limit too large", func() error {
			_, err := s.ListCommentsNewest(ctx(t), r.ID, ddbkit.PageOptions{Limit: ddbkit.MaxPageLimit + 1})
			return err
		}, "Limit"},
		{"newest comments of an empty room id", func() error {
			_, err := s.ListCommentsNewest(ctx(t), "", ddbkit.PageOptions{})
			return err
		}, "RoomID"},
		{"limit too large", func() error {
			_, err := s.ListHostRooms(ctx(t), "host", ddbkit.PageOptions{Limit: ddbkit.MaxPageLimit + 1})
			return err
		}, "Limit"},
		{"broadcast without concurrency", func() error {
			_, err := livecomment.Broadcast(ctx(t), s, r.ID, func(context.Context, livecomment.Connection) error { return nil },
				func(o *livecomment.BroadcastOptions) { o.Concurrency = 0 })
			return err
		}, "Concurrency"},
		{"broadcast to an empty room id", func() error {
			_, err := livecomment.Broadcast(ctx(t), s, "", func(context.Context, livecomment.Connection) error { return nil })
			return err
		}, "RoomID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			wantErr(t, tt.name, err, ddbkit.ErrInvalidArgument)
			var ve *ddbkit.ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.field {
				t.Fatalf("error %v: want a *ddbkit.ValidationError for field %q", err, tt.field)
			}
			if !strings.HasPrefix(err.Error(), "livecomment: ") {
				t.Fatalf("error %q does not start with the package name", err)
			}
		})
	}
	refused := []struct {
		name string
		err  error
		want error
	}{
		{"post to an unknown room", post("no-such-room", livecomment.NewComment{Content: "c"})(), ddbkit.ErrNotFound},
		{"post to a closed room", post(closed.ID, livecomment.NewComment{Content: "c"})(), livecomment.ErrRoomClosed},
		{"join an unknown room", join("no-such-room", "c2")(), ddbkit.ErrNotFound},
		{"join a closed room", join(closed.ID, "c2")(), livecomment.ErrRoomClosed},
		{"tampered cursor", func() error {
			_, err := s.ListComments(ctx(t), r.ID, ddbkit.PageOptions{Cursor: "tampered"})
			return err
		}(), ddbkit.ErrInvalidCursor},
		{"tampered cursor, newest first", func() error {
			_, err := s.ListCommentsNewest(ctx(t), r.ID, ddbkit.PageOptions{Cursor: "tampered"})
			return err
		}(), ddbkit.ErrInvalidCursor},
	}
	for _, tt := range refused {
		wantErr(t, tt.name, tt.err, tt.want)
		if !strings.HasPrefix(tt.err.Error(), "livecomment: ") {
			t.Fatalf("%s: error %q does not start with the package name", tt.name, tt.err)
		}
	}

	// Nothing was written: the rooms, comments and connections are the
	// ones made above, unchanged.
	if rooms, _ := hostRooms(t, s, "host", 0); !slices.Equal(rooms, []livecomment.Room{closed, r}) {
		t.Fatalf("bad input changed the rooms: %+v", rooms)
	}
	for _, room := range []string{r.ID, closed.ID, "no-such-room"} {
		cs, _ := comments(t, s, room, 0)
		if want := []livecomment.Comment{kept}; room != r.ID && len(cs) != 0 || room == r.ID && !slices.Equal(cs, want) {
			t.Fatalf("bad input changed the comments of %s: %+v", room, cs)
		}
		if ids, _ := connIDs(t, s, room, 0); room != r.ID && len(ids) != 0 || room == r.ID && !slices.Equal(ids, []string{"conn"}) {
			t.Fatalf("bad input changed the connections of %s: %v", room, ids)
		}
	}
	if got, err := s.GetConnection(ctx(t), "conn"); err != nil || got != conn {
		t.Fatalf("bad input changed the connection: %+v, %v", got, err)
	}
	if _, err := s.GetConnection(ctx(t), "c2"); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("a refused join stored a connection: %v", err)
	}
}

// testConcurrentPostsAndClose has 32 goroutines post into one room while
// another closes it. The close is atomic with respect to posts: every post
// that succeeded is stored, listed once and in order, none is newer than
// the close, and every post that started after the close returned failed
// with ErrRoomClosed.
func testConcurrentPostsAndClose(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *livecomment.Options) { o.Retry = ddbkit.RetryPolicy{MaxAttempts: 50} })
	r := mustRoom(t, s, "host", "room")
	const (
		workers      = 32
		closeAfter   = 48      // successful posts before the close is sent
		maxPerWorker = 100_000 // a bound, should the close never land
	)
	type result struct {
		c          livecomment.Comment
		err        error
		afterClose bool // the post started after CloseRoom returned
	}
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		results   []result
		successes atomic.Int32
		closeDone atomic.Bool
		closed    livecomment.Room
		closeErr  error
		enough    = make(chan struct{})
		once      sync.Once
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-enough
		closed, closeErr = s.CloseRoom(ctx(t), r.ID)
		closeDone.Store(true)
	}()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range maxPerWorker {
				after := closeDone.Load()
				c, err := s.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: fmt.Sprintf("w%d-%d", w, i)})
				mu.Lock()
				results = append(results, result{c, err, after})
				mu.Unlock()
				if err == nil && successes.Add(1) >= closeAfter {
					once.Do(func() { close(enough) })
				}
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	if closeErr != nil {
		t.Fatalf("CloseRoom: %v", closeErr)
	}
	if closed.Status != livecomment.RoomClosed {
		t.Fatalf("CloseRoom = %+v", closed)
	}
	var posted []livecomment.Comment
	failed := 0
	for _, res := range results {
		switch {
		case res.err == nil:
			if res.afterClose {
				t.Fatalf("a post that started after the close returned succeeded: %+v", res.c)
			}
			posted = append(posted, res.c)
		case errors.Is(res.err, livecomment.ErrRoomClosed) && errors.Is(res.err, ddbkit.ErrConflict):
			failed++
		default:
			t.Fatalf("PostComment: %v; want success or ErrRoomClosed", res.err)
		}
	}
	if len(posted) < closeAfter || failed != workers {
		t.Fatalf("%d posts succeeded and %d failed; want at least %d, and one failure per worker (%d)", len(posted), failed, closeAfter, workers)
	}
	t.Logf("%d posts succeeded, %d were refused by the close", len(posted), failed)
	stored, _ := comments(t, s, r.ID, 7)
	slices.SortFunc(posted, func(a, b livecomment.Comment) int { return strings.Compare(a.ID, b.ID) })
	if !slices.Equal(stored, posted) {
		t.Fatalf("stored comments differ from the successful posts: %d stored, %d posted", len(stored), len(posted))
	}
	for i, c := range stored {
		if c.CreatedAt.After(closed.UpdatedAt) {
			t.Fatalf("comment %+v is newer than the close at %v", c, closed.UpdatedAt)
		}
		if i > 0 && !c.CreatedAt.After(stored[i-1].CreatedAt) {
			t.Fatalf("comments out of time order: %v then %v", stored[i-1].CreatedAt, c.CreatedAt)
		}
	}
}
