package livecomment_test

import (
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/livecomment/livecommenttest"
)

// TestRoomCheckCacheWindow shows, on both stores, what the cached room
// check gives up: after another writer closed the room, a store that read
// it OPEN still posts to it until its entry is RoomCheckCache old (by the
// posts' stamps), then reads it again and refuses; the closed room is
// then refused without a read.
func TestRoomCheckCacheWindow(t *testing.T) {
	start := time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC)
	for _, tg := range []struct {
		name string
		// store returns a store of the options and a way to write a room
		// as another writer does.
		store func(t *testing.T, opts ...func(*livecomment.Options)) (livecomment.Store, func(item map[string]types.AttributeValue))
	}{
		{"memory", func(t *testing.T, opts ...func(*livecomment.Options)) (livecomment.Store, func(map[string]types.AttributeValue)) {
			s := livecomment.NewMemoryStore(opts...)
			return s, func(item map[string]types.AttributeValue) {
				if err := s.Import(ddbkit.TableItems{livecomment.Tables("dev").Rooms: {item}}); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"dynamodb", func(t *testing.T, opts ...func(*livecomment.Options)) (livecomment.Store, func(map[string]types.AttributeValue)) {
			s, c, n := newDynamo(t, nil, opts...)
			return s, func(item map[string]types.AttributeValue) { putRaw(t, c, n.Rooms, item) }
		}},
	} {
		t.Run(tg.name, func(t *testing.T) {
			now := start
			s, put := tg.store(t, deterministic, livecommenttest.Shards(4), livecommenttest.RoomCheckCache(10*time.Second),
				func(o *livecomment.Options) { o.Clock = func() time.Time { return now } })
			ctx := t.Context()
			r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
			if err != nil {
				t.Fatal(err)
			}
			post := func(when time.Duration) error {
				t.Helper()
				now = start.Add(when)
				_, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "c"})
				return err
			}
			if err := post(time.Second); err != nil { // reads the room: OPEN
				t.Fatalf("first post: %v", err)
			}
			put(legacyRoom(r.ID, "room", "host", "CLOSED", "2024-01-05T10:00:00.000Z", "2024-01-05T10:00:02.000Z"))
			if err := post(10*time.Second + 999*time.Millisecond); err != nil {
				t.Fatalf("a post within the cache's age of the read: %v; want it stored, as documented", err)
			}
			for _, when := range []time.Duration{11 * time.Second, 12 * time.Second} {
				if err := post(when); !errors.Is(err, livecomment.ErrRoomClosed) {
					t.Fatalf("a post past the cache's age = %v, want ErrRoomClosed", err)
				}
			}
			got, _ := listAll(t, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Comment], error) {
				return s.ListComments(ctx, r.ID, o)
			})
			if len(got) != 2 {
				t.Fatalf("the room holds %d comments, want 2", len(got))
			}
		})
	}
}

// TestRoomCheckCacheRoundTrips pins the calls and capacity of PostComment
// with the cached room check: one GetItem of the room (1 RCU) per cache
// age, and a one-item transaction (the table and the index, doubled: 4
// WCU) per post, nothing on the room's item; a room the store closed is
// refused without a call.
func TestRoomCheckCacheRoundTrips(t *testing.T) {
	now := time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC)
	var (
		cc  *ddbtest.CountingClient
		cap *ddbtest.CapacityClient
	)
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
		cc = ddbtest.NewCountingClient(c)
		cap = ddbtest.NewCapacityClient(cc)
		return cap
	}, deterministic, livecommenttest.Shards(4), livecommenttest.RoomCheckCache(time.Second),
		func(o *livecomment.Options) { o.Clock = func() time.Time { return now } })
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		at    time.Duration
		calls map[string]int
		want  ddbtest.Capacity
	}{
		{"first post", 0, map[string]int{"GetItem": 1, "TransactWriteItems": 1}, ddbtest.Capacity{Read: 1, Write: 4}},
		{"within the cache's age", 500 * time.Millisecond, map[string]int{"TransactWriteItems": 1}, ddbtest.Capacity{Write: 4}},
		{"past it", 1500 * time.Millisecond, map[string]int{"GetItem": 1, "TransactWriteItems": 1}, ddbtest.Capacity{Read: 1, Write: 4}},
	} {
		now = now.Add(tc.at)
		cc.Reset()
		cap.CheckBudget(t, tc.name, tc.want, func() error {
			_, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "c"})
			return err
		})
		if got := cc.Counts(); !maps.Equal(got, tc.calls) {
			t.Errorf("%s: calls %v, want %v", tc.name, got, tc.calls)
		}
	}
	if _, err := s.CloseRoom(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	cc.Reset()
	_, err = s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "late"})
	if !errors.Is(err, livecomment.ErrRoomClosed) {
		t.Fatalf("PostComment after the store's close = %v, want ErrRoomClosed", err)
	}
	if got := cc.Counts(); len(got) != 0 {
		t.Errorf("a post to a room the store closed made calls %v, want none", got)
	}
}
