package livecomment_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
	"github.com/ddbkit/ddbkit/livecomment"
)

// The fuzz targets of issue 39 for what callers hand livecomment: the
// cursors of its listings, and the input of its writes. Items are fuzzed
// in fuzz_internal_test.go.

// cursorListings are the listings of two stores holding the legacy
// fixture, with a CursorSecret: one in the seed's layout, one with four
// comment shards, where the store's own comments land in the shards and
// a listing merges them with the app's unsharded ones.
func cursorListings(tb testing.TB) []fuzzcheck.Listing {
	ctx := context.Background()
	var out []fuzzcheck.Listing
	for _, l := range []legacyLayout{legacyLayouts[0], legacyLayouts[1]} {
		s := livecomment.NewMemoryStore(legacyOptions("fuzz", l), func(o *livecomment.Options) {
			o.CursorSecret = []byte(strings.Repeat("c", 32))
		})
		good, _ := legacyItems(livecomment.Tables("fuzz"))
		if err := s.Import(good); err != nil {
			tb.Fatal(err)
		}
		for _, c := range []string{"一", "二", "三"} {
			if _, err := s.PostComment(ctx, roomGo, livecomment.NewComment{Content: c}); err != nil {
				tb.Fatal(err)
			}
		}
		out = append(out,
			fuzzcheck.Listing{Name: l.name + ": comments", List: func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
				return fuzzcheck.Page(s.ListComments(ctx, roomGo, o))
			}},
			fuzzcheck.Listing{Name: l.name + ": comments newest first", List: func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
				return fuzzcheck.Page(s.ListCommentsNewest(ctx, roomGo, o))
			}})
		if l.shards == 0 {
			out = append(out,
				fuzzcheck.Listing{Name: "host rooms", List: func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
					return fuzzcheck.Page(s.ListHostRooms(ctx, "host-1", o))
				}},
				fuzzcheck.Listing{Name: "connections", List: func(ctx context.Context, o ddbkit.PageOptions) (string, error) {
					return fuzzcheck.Page(s.ListConnections(ctx, roomGo, o))
				}})
		}
	}
	return out
}

// FuzzCursor hands every listing (plain, by index, merged over shards, in
// both directions) a cursor: one it issued pages on; anything else
// (another listing's, a changed or forged one) is ErrInvalidCursor, with
// an error that does not repeat it.
func FuzzCursor(f *testing.F) {
	fuzzcheck.Cursors(f, cursorListings(f))
}

// FuzzInput runs each write, and the gets, with the fuzzer's input on a
// store of the legacy fixture, in the seed's layout or with four comment
// shards. A refused input matches a documented sentinel, with a bounded
// error, and leaves the store as it was (Export before and after); an
// accepted one is stored as given: the result has the input's fields, and
// a read returns it.
func FuzzInput(f *testing.F) {
	f.Add(byte(0), "Go勉強会", "host-1", "", false)
	f.Add(byte(0), " ", "host 1", "", false)
	f.Add(byte(0), "名前\u0000", "host#1", "", true)
	f.Add(byte(1), roomGo, "こんにちは", "", true)
	f.Add(byte(1), roomGo, "こんにちは", "  ", false)
	f.Add(byte(1), roomLT, "閉じた部屋", "たろう", false)
	f.Add(byte(1), "no-such-room", strings.Repeat("長", 501), "n", false)
	f.Add(byte(2), roomGo, "Kx1Q2w3E4r5T6y=", "", false)
	f.Add(byte(2), roomLT, "new-conn", "", true)
	f.Add(byte(3), roomGo, "host-1", "", false)
	f.Add(byte(3), roomGo, "host-2", "", false)
	f.Add(byte(4), "L0SM9cOFvHcCIhw=", "", "", false)
	f.Add(byte(5), roomGo, "L0SM9cOFvHcCIhw=", "", false)
	f.Add(byte(5), strings.Repeat("x", 129), "a b", "", false)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, op byte, a, b, c string, sharded bool) {
		if len(a)+len(b)+len(c) > fuzzcheck.MaxInput {
			return
		}
		l := legacyLayouts[0]
		if sharded {
			l = legacyLayouts[1]
		}
		s := livecomment.NewMemoryStore(legacyOptions("fuzz", l))
		good, _ := legacyItems(livecomment.Tables("fuzz"))
		if err := s.Import(good); err != nil {
			t.Fatal(err)
		}
		before := s.Export()
		var err error
		check := func(what string, ok bool, got, read any, readErr error) {
			t.Helper()
			fuzzcheck.Accepted(t, err, what, ok, got, read, readErr)
		}
		switch op % 6 {
		case 0:
			var r livecomment.Room
			r, err = s.CreateRoom(ctx, livecomment.NewRoom{Name: a, HostID: b})
			read, rerr := s.GetRoom(ctx, r.ID)
			check("CreateRoom", r.Name == a && r.HostID == b && r.Status == livecomment.RoomOpen, r, read, rerr)
		case 1:
			var cm livecomment.Comment
			cm, err = s.PostComment(ctx, a, livecomment.NewComment{Content: b, Nickname: c})
			nick := c
			if nick == "" {
				nick = livecomment.DefaultNickname
			}
			var read livecomment.Comment
			var rerr error = errors.New("not listed")
			for x, lerr := range livecomment.AllComments(ctx, s, a) {
				if lerr != nil {
					rerr = lerr
					break
				}
				if x.ID == cm.ID {
					read, rerr = x, nil
				}
			}
			check("PostComment", cm.RoomID == a && cm.Content == b && cm.Nickname == nick, cm, read, rerr)
		case 2:
			var cn livecomment.Connection
			cn, err = s.JoinRoom(ctx, a, b)
			read, rerr := s.GetConnection(ctx, b)
			check("JoinRoom", cn.RoomID == a && cn.ID == b, cn, read, rerr)
		case 3:
			var r livecomment.Room
			r, err = s.CloseRoomAs(ctx, a, b)
			read, rerr := s.GetRoom(ctx, a)
			check("CloseRoomAs", r.ID == a && r.HostID == b && r.Status == livecomment.RoomClosed, r, read, rerr)
		case 4:
			err = s.Disconnect(ctx, a)
			if err == nil {
				if _, gerr := s.GetConnection(ctx, a); !errors.Is(gerr, ddbkit.ErrNotFound) {
					t.Fatalf("GetConnection after Disconnect = %v, want ErrNotFound", gerr)
				}
				return
			}
		case 5:
			_, err = s.GetRoom(ctx, a)
			if err == nil {
				_, err = s.GetConnection(ctx, b)
			}
			if err == nil {
				return
			}
		}
		if err == nil {
			return
		}
		fuzzcheck.Refused(t, err, fmt.Sprintf("op %d", op%6),
			[]error{ddbkit.ErrInvalidArgument, ddbkit.ErrNotFound, ddbkit.ErrConflict, ddbkit.ErrAlreadyExists, ddbkit.ErrPermissionDenied},
			[]string{a, b, c}, before, s.Export())
	})
}
