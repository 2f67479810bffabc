package livecommenttest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
)

// Shards returns the option that sets Options.CommentShards to n: 0 or 1
// is the seed's layout, 2 to livecomment.MaxCommentShards a sharded one.
func Shards(n int) func(*livecomment.Options) {
	return func(o *livecomment.Options) { o.CommentShards = n }
}

// RoomCheckCache returns the option of the cached room check of
// PostComment, trusting a room read as OPEN for d (Options.RoomCheckCache).
func RoomCheckCache(d time.Duration) func(*livecomment.Options) {
	return func(o *livecomment.Options) { o.RoomCheckCache = d }
}

// With returns newStore with opts applied before the suite's own options:
// Run(t, With(newStore, Shards(16), RoomCheckCache(time.Second))) runs
// the suite on that configuration.
func With(newStore NewStore, opts ...func(*livecomment.Options)) NewStore {
	return func(t *testing.T, more ...func(*livecomment.Options)) livecomment.Store {
		return newStore(t, append(slices.Clone(opts), more...)...)
	}
}

// Sharded returns newStore with Options.CommentShards set to n on every
// store it makes, before the suite's own options:
// Run(t, Sharded(newStore, 4)) runs the whole suite on 4 shards, which
// must pass unchanged, since the layout changes no result, order, page
// size or error.
func Sharded(newStore NewStore, n int) NewStore { return With(newStore, Shards(n)) }

// RunSharded runs the sharded comment layout's own conformance tests
// against stores made by newStore, each setting its Options.CommentShards:
// merged pages in posting order at every page size and count, merged
// cursors bound to their room and count, a count no layout has refused
// and a count of 1 behaving as 0, and the cached room check
// (Options.RoomCheckCache). Run(t, Sharded(newStore, n)) runs the rest of
// the suite on n shards.
func RunSharded(t *testing.T, newStore NewStore) {
	run(t, newStore, []testCase{
		{"MergedPagesInOrder", testShardedPages},
		{"MergedCursors", testShardedCursors},
		{"InvalidShardCount", testShardCount},
		{"OneShardIsTheSeedsLayout", testOneShard},
		{"CachedRoomCheck", testRoomCheckCache},
	})
}

// testShardedPages: a room's comments spread over the shards list in the
// order they were posted, with every page full but the last, and Next
// empty exactly at the end, whatever the page size and the count of
// shards (2, one past a power of two, the most).
func testShardedPages(t *testing.T, newStore NewStore) {
	for _, n := range []int{2, 5, livecomment.MaxCommentShards} {
		t.Run(fmt.Sprint(n, " shards"), func(t *testing.T) {
			s := fixed(t, newStore, Shards(n))
			r := mustRoom(t, s, "host", "room")
			other := mustRoom(t, s, "host", "other")
			const total = 23
			var want []livecomment.Comment
			shards := map[int]bool{}
			for i := range total {
				c := mustPost(t, s, r.ID, fmt.Sprint("comment ", i))
				if c.RoomID != r.ID {
					t.Fatalf("PostComment returned room %q, want %q", c.RoomID, r.ID)
				}
				want = append(want, c)
				shards[livecomment.CommentShard(c.ID, n)] = true
				if i%3 == 0 {
					mustPost(t, s, other.ID, "elsewhere")
				}
			}
			if len(shards) < 2 {
				t.Fatalf("%d comments fell in %d shard(s) of %d; the test needs several", total, len(shards), n)
			}
			for _, limit := range []int{1, 2, 7, total - 1, total, total + 1, 0} {
				got, sizes := comments(t, s, r.ID, limit)
				if !slices.Equal(got, want) {
					t.Fatalf("limit %d: ListComments = %+v\nwant (posting order) %+v", limit, got, want)
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
				newest, sizes := commentsNewest(t, s, r.ID, limit)
				rev := slices.Clone(want)
				slices.Reverse(rev)
				if !slices.Equal(newest, rev) {
					t.Fatalf("limit %d: ListCommentsNewest = %+v\nwant posting order reversed", limit, newest)
				}
				if !slices.Equal(sizes, wantSizes) {
					t.Fatalf("limit %d: newest first, page sizes = %v, want %v", limit, sizes, wantSizes)
				}
			}
			p, err := s.ListComments(ctx(t), "no-such-room", ddbkit.PageOptions{})
			if err != nil || len(p.Items) != 0 || p.Next != "" {
				t.Fatalf("ListComments(unknown room) = %+v, %v; want an empty last page", p, err)
			}
		})
	}
}

// testShardedCursors: a merged cursor is bound to its room and listing,
// and any change to it is ErrInvalidCursor; a cursor still pages on after
// more comments were posted, listing them in order.
func testShardedCursors(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, Shards(4))
	r := mustRoom(t, s, "host", "room")
	other := mustRoom(t, s, "host", "other")
	var want []livecomment.Comment
	for i := range 6 {
		want = append(want, mustPost(t, s, r.ID, fmt.Sprint("c", i)))
		mustPost(t, s, other.ID, "o")
		mustJoin(t, s, r.ID, fmt.Sprint("conn", i))
	}
	p, err := s.ListComments(ctx(t), r.ID, ddbkit.PageOptions{Limit: 2})
	if err != nil || p.Next == "" || !slices.Equal(p.Items, want[:2]) {
		t.Fatalf("first page = %+v, %v; want %+v and a cursor", p, err, want[:2])
	}
	cc := p.Next
	roomsNext, connsNext := otherCursors(t, s, "host", r.ID)
	list := func(room, c string) error {
		_, err := s.ListComments(ctx(t), room, ddbkit.PageOptions{Limit: 2, Cursor: c})
		return err
	}
	tests := []struct {
		name, room, cursor string
	}{
		{"another room's", other.ID, cc},
		{"a rooms cursor", r.ID, roomsNext},
		{"a connections cursor", r.ID, connsNext},
		{"truncated", r.ID, cc[:len(cc)-2]},
		{"garbage", r.ID, "not a cursor!"},
	}
	for i := range cc {
		tests = append(tests, struct{ name, room, cursor string }{fmt.Sprint("byte ", i, " changed"), r.ID, flipByte(cc, i)})
	}
	for _, tt := range tests {
		if err := list(tt.room, tt.cursor); !errors.Is(err, ddbkit.ErrInvalidCursor) {
			t.Fatalf("%s cursor: got %v, want ErrInvalidCursor", tt.name, err)
		}
	}
	// Posted after the first page: listed after it, in order.
	want = append(want, mustPost(t, s, r.ID, "late"))
	got := slices.Clone(want[:2])
	for c := cc; c != ""; {
		p, err := s.ListComments(ctx(t), r.ID, ddbkit.PageOptions{Limit: 2, Cursor: c})
		if err != nil {
			t.Fatalf("paging on: %v", err)
		}
		got, c = append(got, p.Items...), p.Next
	}
	if !slices.Equal(got, want) {
		t.Fatalf("pages = %+v\nwant %+v", got, want)
	}
}

// flipByte returns c with its i-th character replaced by another of the
// cursor alphabet.
func flipByte(c string, i int) string {
	b := []byte(c)
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

// testShardCount: a count of shards no layout has is refused by the
// comment operations, naming CommentShards, before anything is written;
// the other operations do not use it.
func testShardCount(t *testing.T, newStore NewStore) {
	for _, n := range []int{-1, livecomment.MaxCommentShards + 1} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := fixed(t, newStore, Shards(n))
			r := mustRoom(t, s, "host", "room")
			for _, call := range []struct {
				name string
				err  error
			}{
				{"PostComment", second(s.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: "c"}))},
				{"ListComments", second(s.ListComments(ctx(t), r.ID, ddbkit.PageOptions{}))},
				{"ListCommentsNewest", second(s.ListCommentsNewest(ctx(t), r.ID, ddbkit.PageOptions{}))},
			} {
				wantOnly(t, call.name, call.err, ddbkit.ErrInvalidArgument)
				var ve *ddbkit.ValidationError
				if !errors.As(call.err, &ve) || ve.Field != "CommentShards" {
					t.Fatalf("%s: error %v; want a *ddbkit.ValidationError for CommentShards", call.name, call.err)
				}
			}
			mustJoin(t, s, r.ID, "conn")
		})
	}
}

// testOneShard: a count of 1 is the seed's layout, as 0 is (and as
// taskmgmt's and kondate's shard counts have it): the same calls on a
// store of each give the same comments, pages and errors, a cursor of
// another listing refused alike.
func testOneShard(t *testing.T, newStore NewStore) {
	transcript := func(n int) []string {
		s := fixed(t, newStore, Shards(n))
		var lines []string
		say := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
		r := mustRoom(t, s, "host", "room")
		other := mustRoom(t, s, "host", "other")
		for i := range 7 {
			say("post %+v", mustPost(t, s, r.ID, fmt.Sprint("comment ", i)))
			if i%2 == 0 {
				say("post elsewhere %+v", mustPost(t, s, other.ID, "elsewhere"))
			}
		}
		mustJoin(t, s, r.ID, "conn-1")
		mustJoin(t, s, r.ID, "conn-2")
		for _, limit := range []int{1, 2, 7, 0} {
			got, sizes := comments(t, s, r.ID, limit)
			say("limit %d: %+v, pages %v", limit, got, sizes)
		}
		roomsNext, connsNext := otherCursors(t, s, "host", r.ID)
		for _, c := range []string{roomsNext, connsNext, "not a cursor!"} {
			_, err := s.ListComments(ctx(t), r.ID, ddbkit.PageOptions{Cursor: c})
			say("foreign cursor: %v", ddbkit.MatchingSentinels(err))
		}
		_, err := s.PostComment(ctx(t), "no-such-room", livecomment.NewComment{Content: "c"})
		say("post to a missing room: %v", ddbkit.MatchingSentinels(err))
		say("close %+v", mustClose(t, s, r.ID))
		_, err = s.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: "late"})
		say("post to a closed room: %v, %v", ddbkit.MatchingSentinels(err), errors.Is(err, livecomment.ErrRoomClosed))
		got, sizes := comments(t, s, r.ID, 3)
		say("after the close: %+v, pages %v", got, sizes)
		return lines
	}
	seed, one := transcript(0), transcript(1)
	if !slices.Equal(one, seed) {
		t.Fatalf("CommentShards 1:\n%s\nwant what CommentShards 0 does:\n%s", strings.Join(one, "\n"), strings.Join(seed, "\n"))
	}
}

// testRoomCheckCache: with the cached room check, a post to a missing
// room is ErrNotFound each time, until the room exists (a missing room is
// not remembered); the store's own close refuses its next post at once;
// a negative age is refused, naming RoomCheckCache, before anything is
// written.
func testRoomCheckCache(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, Shards(4), RoomCheckCache(time.Hour))
	for range 2 {
		_, err := s.PostComment(ctx(t), "room-to-be", livecomment.NewComment{Content: "early"})
		wantOnly(t, "PostComment to a missing room", err, ddbkit.ErrNotFound)
	}
	r := mustRoom(t, s, "host", "room")
	first := mustPost(t, s, r.ID, "first")
	mustClose(t, s, r.ID)
	_, err := s.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: "late"})
	wantErr(t, "PostComment after the store's close", err, livecomment.ErrRoomClosed)
	if got, _ := comments(t, s, r.ID, 0); !slices.Equal(got, []livecomment.Comment{first}) {
		t.Fatalf("comments = %+v; want only %+v", got, first)
	}

	bad := fixed(t, newStore, RoomCheckCache(-time.Second))
	r = mustRoom(t, bad, "host", "room")
	_, err = bad.PostComment(ctx(t), r.ID, livecomment.NewComment{Content: "c"})
	wantOnly(t, "PostComment with a negative RoomCheckCache", err, ddbkit.ErrInvalidArgument)
	var ve *ddbkit.ValidationError
	if !errors.As(err, &ve) || ve.Field != "RoomCheckCache" {
		t.Fatalf("PostComment: error %v; want a *ddbkit.ValidationError for RoomCheckCache", err)
	}
	if got, _ := comments(t, bad, r.ID, 0); len(got) != 0 {
		t.Fatalf("a refused post wrote %+v", got)
	}
}
