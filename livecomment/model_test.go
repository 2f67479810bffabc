package livecomment_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/difftest"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/livecomment/livecommenttest"
)

// The model-based comparison of the two stores (issue 14): random
// operations, valid and invalid, on a MemoryStore and a DynamoStore side by
// side; see package difftest.

// modelStart is where the stores' shared clock starts.
var modelStart = time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC)

// newModelPair returns the stores a model run compares, on fresh tables;
// the printed regression tests call it too.
func newModelPair(t *testing.T) *difftest.Pair[livecomment.Store] { return modelPair(t, false) }

// newFaultPair is newModelPair with faults injected on the DynamoDB side.
func newFaultPair(t *testing.T) *difftest.Pair[livecomment.Store] { return modelPair(t, true) }

// newShardedPair is newModelPair with the sharded comment layout of 3
// shards: few, so that a room's comments share shards and pages end
// inside them.
func newShardedPair(t *testing.T) *difftest.Pair[livecomment.Store] {
	return modelPair(t, false, livecommenttest.Shards(3))
}

// newCachedPair is newShardedPair with the cached room check, trusting an
// OPEN room for a second of the shared clock.
func newCachedPair(t *testing.T) *difftest.Pair[livecomment.Store] {
	return modelPair(t, false, livecommenttest.Shards(3), livecommenttest.RoomCheckCache(time.Second))
}

// newShardedFaultPair is newCachedPair with faults injected on the
// DynamoDB side: the merged pages and the cached check under retries.
func newShardedFaultPair(t *testing.T) *difftest.Pair[livecomment.Store] {
	return modelPair(t, true, livecommenttest.Shards(3), livecommenttest.RoomCheckCache(time.Second))
}

func modelPair(t *testing.T, faults bool, more ...func(*livecomment.Options)) *difftest.Pair[livecomment.Store] {
	t.Helper()
	c := ddbtest.Client(t)
	env := newEnv(t, c)
	n := livecomment.Tables(env)
	clock := difftest.NewClock(modelStart)
	opts := func(o *livecomment.Options) {
		o.Env = env
		o.Clock = clock.Now
		o.NewID = ddbkit.SeededUUIDv4(14) // a generator per store, same seed
		o.NewCommentID = livecomment.SeededCommentIDs(14)
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 20, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}
		for _, fn := range more {
			fn(o)
		}
	}
	mem := livecomment.NewMemoryStore(opts)
	p := &difftest.Pair[livecomment.Store]{Mem: mem, Export: mem.Export, DB: c,
		Tables: []string{n.Rooms, n.Comments, n.Connections}, Clock: clock}
	var client ddbkit.Client = c
	if faults {
		fc := ddbtest.NewFaultClient(c)
		p.Faults = difftest.NewFaults(fc, ddbtest.Throttle, ddbtest.TxConflict, ddbtest.InternalError, ddbtest.LoseResponse)
		client = fc
	}
	p.Dyn = livecomment.NewDynamoStore(client, opts)
	return p
}

func TestModel(t *testing.T) { difftest.Check(t, modelConfig("newModelPair(t)", newModelPair)) }

func TestModelFaults(t *testing.T) { difftest.Check(t, modelConfig("newFaultPair(t)", newFaultPair)) }

// TestModelSharded runs the model on the sharded comment layout.
func TestModelSharded(t *testing.T) {
	difftest.Check(t, modelConfig("newShardedPair(t)", newShardedPair))
}

// TestModelFaultsSharded runs TestModelFaults on the sharded comment
// layout with the cached room check.
func TestModelFaultsSharded(t *testing.T) {
	difftest.Check(t, modelConfig("newShardedFaultPair(t)", newShardedFaultPair))
}

// TestModelRoomCheckCache runs the model on the sharded comment layout
// with the cached room check.
func TestModelRoomCheckCache(t *testing.T) {
	difftest.Check(t, modelConfig("newCachedPair(t)", newCachedPair))
}

func modelConfig(src string, pair func(*testing.T) *difftest.Pair[livecomment.Store]) difftest.Config[livecomment.Store] {
	return difftest.Config[livecomment.Store]{Domain: "livecomment", New: pair, Source: src, Actions: modelActions}
}

// modelActions returns the actions of one check, with its model: the IDs
// seen so far, which the actions draw mostly, so that operations collide.
func modelActions(r *difftest.Run[livecomment.Store]) map[string]func(*rapid.T) {
	var (
		hosts = []string{"host-1", "host-2"}
		rooms []string
		conns = []string{"conn-a", "conn-b", "conn-c"}
		// DynamoDB keeps a ClientRequestToken ten minutes, across tables:
		// keys unique to the check keep earlier checks' tokens out.
		nonce = ddbtest.UniqueName("key")
		keys  = []string{nonce + "-1", nonce + "-2"}
	)
	id := difftest.Text(livecomment.MaxIDLen)
	host := func(t *rapid.T) string { return difftest.Pick(t, "host", hosts, id) }
	room := func(t *rapid.T) string { return difftest.Pick(t, "room", rooms, id) }
	conn := func(t *rapid.T) string { return difftest.Pick(t, "connection", conns, id) }
	// keyed draws the context of a transactional write, under an
	// idempotency key sometimes.
	keyed := func(t *rapid.T) context.Context {
		ctx := r.Ctx(t)
		if rapid.IntRange(0, 99).Draw(t, "keyed?") < 15 {
			ctx = ddbkit.WithIdempotencyKey(ctx, rapid.SampledFrom(keys).Draw(t, "key"))
		}
		return ctx
	}
	remember := func(pool *[]string, v string) {
		if !slices.Contains(*pool, v) {
			*pool = append(*pool, v)
		}
	}
	return map[string]func(*rapid.T){
		"CreateRoom": func(t *rapid.T) {
			in := livecomment.NewRoom{Name: difftest.Text(livecomment.MaxRoomNameLen).Draw(t, "name"), HostID: host(t)}
			if rm, err := difftest.Call[livecomment.Room](r, "CreateRoom", r.Ctx(t), in); err == nil {
				remember(&rooms, rm.ID)
				remember(&hosts, rm.HostID)
			}
		},
		"GetRoom": func(t *rapid.T) {
			difftest.Call[livecomment.Room](r, "GetRoom", r.Ctx(t), room(t))
		},
		"ListHostRooms": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[livecomment.Room]](r, "ListHostRooms", r.Ctx(t), host(t), r.PageOptions(t))
		},
		"CloseRoom": func(t *rapid.T) {
			difftest.Call[livecomment.Room](r, "CloseRoom", r.Ctx(t), room(t))
		},
		"CloseRoomAs": func(t *rapid.T) {
			difftest.Call[livecomment.Room](r, "CloseRoomAs", keyed(t), room(t), host(t))
		},
		"PostComment": func(t *rapid.T) {
			ctx, roomID := keyed(t), room(t)
			in := livecomment.NewComment{Content: difftest.Text(livecomment.MaxContentLen).Draw(t, "content")}
			if rapid.Bool().Draw(t, "nickname?") {
				in.Nickname = difftest.Text(livecomment.MaxNicknameLen).Draw(t, "nickname")
			}
			difftest.Call[livecomment.Comment](r, "PostComment", ctx, roomID, in)
		},
		"ListComments": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[livecomment.Comment]](r, "ListComments", r.Ctx(t), room(t), r.PageOptions(t))
		},
		"ListCommentsNewest": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[livecomment.Comment]](r, "ListCommentsNewest", r.Ctx(t), room(t), r.PageOptions(t))
		},
		"JoinRoom": func(t *rapid.T) {
			ctx, roomID, connID := keyed(t), room(t), conn(t)
			if c, err := difftest.Call[livecomment.Connection](r, "JoinRoom", ctx, roomID, connID); err == nil {
				remember(&conns, c.ID)
			}
		},
		"GetConnection": func(t *rapid.T) {
			difftest.Call[livecomment.Connection](r, "GetConnection", r.Ctx(t), conn(t))
		},
		"Disconnect": func(t *rapid.T) {
			difftest.Exec(r, "Disconnect", r.Ctx(t), conn(t))
		},
		"ListConnections": func(t *rapid.T) {
			ctx, roomID, limit, cursor := r.Ctx(t), room(t), difftest.Limit(t), r.Cursor(t)
			if cursor != "" {
				// Another listing's cursor, as the run never keeps those
				// of ListConnections (see connectionPages).
				opts := ddbkit.PageOptions{Limit: limit, Cursor: cursor}
				difftest.Call[ddbkit.Page[livecomment.Connection]](r, "ListConnections", ctx, roomID, opts)
				return
			}
			src := fmt.Sprintf("connectionPages(%s, s, %s, %d)", difftest.GoSource(ctx), difftest.GoSource(roomID), limit)
			difftest.Do(r, src, func(s livecomment.Store) ([]string, error) { return connectionPages(ctx, s, roomID, limit) })
		},
		"Broadcast": func(t *rapid.T) {
			ctx, roomID := r.Ctx(t), room(t)
			var gone []string
			if len(conns) > 0 {
				gone = rapid.SliceOfNDistinct(rapid.SampledFrom(conns), 0, 2, rapid.ID[string]).Draw(t, "gone")
			}
			args := []string{difftest.GoSource(ctx), "s", difftest.GoSource(roomID)}
			for _, g := range gone {
				args = append(args, difftest.GoSource(g))
			}
			src := "broadcast(" + strings.Join(args, ", ") + ")"
			difftest.Do(r, src, func(s livecomment.Store) (livecomment.BroadcastResult, error) {
				return broadcast(ctx, s, roomID, gone...)
			})
		},
	}
}

// connectionPages walks every page of a room's connections with limit, and
// returns the size of each page, then every connection, sorted by ID.
// roomId-index has no sort key, so the order of a room's connections, and
// with it the cursors, is each store's own (see the package
// documentation); what both must agree on is the set and the page
// boundaries. (Strings, so that the printed tests name no type of this
// package.)
func connectionPages(ctx context.Context, s livecomment.Store, roomID string, limit int) ([]string, error) {
	var sizes, conns []string
	cursor := ""
	for range 1000 {
		p, err := s.ListConnections(ctx, roomID, ddbkit.PageOptions{Limit: limit, Cursor: cursor})
		if err != nil {
			return nil, err
		}
		for _, c := range p.Items {
			conns = append(conns, fmt.Sprintf("%q in %q since %s", c.ID, c.RoomID, c.JoinedAt.Format(time.RFC3339Nano)))
		}
		sizes = append(sizes, fmt.Sprint(len(p.Items)))
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	slices.Sort(conns)
	return append([]string{"pages of " + strings.Join(sizes, ", ")}, conns...), nil
}

// broadcast sends to a room's connections, two per page; the sends to the
// connections named gone report them gone, so Broadcast deletes them.
func broadcast(ctx context.Context, s livecomment.Store, roomID string, gone ...string) (livecomment.BroadcastResult, error) {
	return livecomment.Broadcast(ctx, s, roomID, func(_ context.Context, c livecomment.Connection) error {
		if slices.Contains(gone, c.ID) {
			return livecomment.ErrGone
		}
		return nil
	}, func(o *livecomment.BroadcastOptions) { o.PageLimit = 2 })
}

// Regression tests: the sequences the model runs shrank to, one per
// divergence they found, fixed since.

// DynamoStore went on under a context that had ended: it made a room ID
// (so its generator ran ahead of the memory store's) and called DynamoDB,
// whose error said so in other words.
func TestModelRegressionCanceledCreateRoom(t *testing.T) {
	ctx := t.Context()
	p := newModelPair(t)
	difftest.Same(t, p, func(s livecomment.Store) (livecomment.Room, error) {
		return s.CreateRoom(difftest.Canceled(), livecomment.NewRoom{Name: strings.Repeat("あ", 100), HostID: "host-1"})
	})
	difftest.Same(t, p, func(s livecomment.Store) (livecomment.Room, error) {
		return s.CreateRoom(ctx, livecomment.NewRoom{Name: "a", HostID: "host-1"})
	})
	difftest.SameRaw(t, p)
}

// An idempotency key used again: DynamoStore's error carried DynamoDB's
// message and its request ID. A repeat with the same input now replays
// the first result on both stores; other input is the reused key.
func TestModelRegressionKeyReused(t *testing.T) {
	ctx := t.Context()
	key := ddbtest.UniqueName("key") // DynamoDB keeps tokens across tables
	p := newModelPair(t)
	room, _ := difftest.Same(t, p, func(s livecomment.Store) (livecomment.Room, error) {
		return s.CreateRoom(ctx, livecomment.NewRoom{Name: "a", HostID: "host-1"})
	})
	other, _ := difftest.Same(t, p, func(s livecomment.Store) (livecomment.Room, error) {
		return s.CreateRoom(ctx, livecomment.NewRoom{Name: "b", HostID: "host-1"})
	})
	first, _ := difftest.Same(t, p, func(s livecomment.Store) (livecomment.Connection, error) {
		return s.JoinRoom(ddbkit.WithIdempotencyKey(ctx, key), room.ID, "conn-a")
	})
	again, err := difftest.Same(t, p, func(s livecomment.Store) (livecomment.Connection, error) {
		return s.JoinRoom(ddbkit.WithIdempotencyKey(ctx, key), room.ID, "conn-a") // replayed, not stamped afresh
	})
	if err != nil || again != first {
		t.Fatalf("JoinRoom repeated with its key = %+v, %v; want %+v", again, err, first)
	}
	_, err = difftest.Same(t, p, func(s livecomment.Store) (livecomment.Connection, error) {
		return s.JoinRoom(ddbkit.WithIdempotencyKey(ctx, key), other.ID, "conn-a")
	})
	ddbtest.WantSentinel(t, "JoinRoom with a key used for another room", err, ddbkit.ErrConflict)
	if !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) {
		t.Fatalf("JoinRoom with a key used for another room: %v, want ErrIdempotencyKeyReused", err)
	}
	// The key is scoped to the connection: another connection's join under
	// it is a request of its own.
	difftest.Same(t, p, func(s livecomment.Store) (livecomment.Connection, error) {
		return s.JoinRoom(ddbkit.WithIdempotencyKey(ctx, key), room.ID, "conn-b")
	})
	difftest.Same(t, p, func(s livecomment.Store) (livecomment.Comment, error) {
		return s.PostComment(ddbkit.WithIdempotencyKey(ctx, key), room.ID, livecomment.NewComment{Content: "b"})
	})
	difftest.Same(t, p, func(s livecomment.Store) (livecomment.Comment, error) {
		return s.PostComment(ddbkit.WithIdempotencyKey(ctx, key), room.ID, livecomment.NewComment{Content: "b"})
	})
	_, err = difftest.Same(t, p, func(s livecomment.Store) (livecomment.Comment, error) {
		return s.PostComment(ddbkit.WithIdempotencyKey(ctx, key), room.ID, livecomment.NewComment{Content: "c"})
	})
	ddbtest.WantSentinel(t, "PostComment with a key used for other content", err, ddbkit.ErrConflict)
	difftest.SameRaw(t, p)
}

// A read whose response was lost: DynamoStore left reads to the SDK's
// retryer, which a fault above it (or one that outlasts it) defeats.
func TestModelRegressionLostQuery(t *testing.T) {
	ctx := t.Context()
	p := newFaultPair(t)
	room, _ := difftest.Same(t, p, func(s livecomment.Store) (livecomment.Room, error) {
		return s.CreateRoom(ctx, livecomment.NewRoom{Name: "a", HostID: "host-1"})
	})
	p.Faults.Next("LoseResponse")
	difftest.Same(t, p, func(s livecomment.Store) (ddbkit.Page[livecomment.Room], error) {
		return s.ListHostRooms(ctx, "host-1", ddbkit.PageOptions{Limit: 3})
	})
	p.Faults.Next("Throttle")
	difftest.Same(t, p, func(s livecomment.Store) (livecomment.Room, error) { return s.GetRoom(ctx, room.ID) })
	p.Faults.Next("InternalError")
	difftest.Same(t, p, func(s livecomment.Store) ([]string, error) { return connectionPages(ctx, s, room.ID, 1) })
	p.Faults.Next("LoseResponse")
	difftest.Same(t, p, func(s livecomment.Store) (livecomment.Connection, error) { return s.GetConnection(ctx, "conn-a") })
}
