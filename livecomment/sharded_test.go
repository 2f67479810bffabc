package livecomment_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/livecomment/livecommenttest"
)

// TestCommentShard pins the shard function, which other writers of the
// sharded layout must compute alike: FNV-1a (32 bits) of the ID, modulo
// the count; and the partitions of each count, 0 and 1 alike.
func TestCommentShard(t *testing.T) {
	tests := []struct {
		id     string
		shards int
		want   int
	}{
		// FNV-1a-32("") = 0x811c9dc5 = 2166136261; ("a") = 0xe40c292c = 3826002220.
		{"", 4, 2166136261 % 4},
		{"a", 16, 3826002220 % 16},
		{"a", 7, 3826002220 % 7},
		{"018cc251-f401-7000-8000-000000000000", 1, 0},
	}
	for _, tt := range tests {
		if got := livecomment.CommentShard(tt.id, tt.shards); got != tt.want {
			t.Errorf("CommentShard(%q, %d) = %d, want %d", tt.id, tt.shards, got, tt.want)
		}
	}
	if got := livecomment.CommentPartition("room", "a", 16); got != "room#"+strconv.Itoa(3826002220%16) {
		t.Errorf("CommentPartition(room, a, 16) = %q", got)
	}
	// 0 and 1 are the seed's layout alike (a count below 2 is no shard).
	for _, n := range []int{0, 1, -1} {
		if got := livecomment.CommentPartition("room", "a", n); got != "room" {
			t.Errorf("CommentPartition(room, a, %d) = %q, want the seed's roomId", n, got)
		}
		if got := livecomment.CommentPartitions("room", n); !slices.Equal(got, []string{"room"}) {
			t.Errorf("CommentPartitions(room, %d) = %q, want the seed's roomId alone", n, got)
		}
	}
	if got, want := livecomment.CommentPartitions("room", 2), []string{"room", "room#0", "room#1"}; !slices.Equal(got, want) {
		t.Errorf("CommentPartitions(room, 2) = %q, want %q", got, want)
	}
}

// TestShardedRawLayout reads back what a sharded DynamoDB store wrote: each
// comment under "<roomId>#<shard>", the shard recomputed from its ID, and
// nothing under the plain roomId; the memory store's Export holds exactly
// the same items.
func TestShardedRawLayout(t *testing.T) {
	s, c, n := newDynamo(t, nil, deterministic, livecommenttest.Shards(4))
	mem := livecomment.NewMemoryStore(deterministic, livecommenttest.Shards(4), func(o *livecomment.Options) { o.Env = envOf(n) })
	ctx := t.Context()
	for _, st := range []livecomment.Store{s, mem} {
		r, err := st.CreateRoom(ctx, livecomment.NewRoom{Name: "Go勉強会", HostID: "host-1"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 8 {
			cm, err := st.PostComment(ctx, r.ID, livecomment.NewComment{Content: fmt.Sprint("はじめまして ", i)})
			if err != nil {
				t.Fatal(err)
			}
			if st != livecomment.Store(s) {
				continue
			}
			pk := r.ID + "#" + strconv.Itoa(livecomment.CommentShard(cm.ID, 4))
			checkItem(t, rawItem(t, c, n.Comments, key("roomId", pk, "commentId", cm.ID)), map[string]types.AttributeValue{
				"roomId": S(pk), "commentId": S(cm.ID), "content": S(fmt.Sprint("はじめまして ", i)), "nickname": S("Anonymous"),
				"createdAt": S(cm.CreatedAt.Format("2006-01-02T15:04:05.000Z")),
			})
			if it := rawItem(t, c, n.Comments, key("roomId", r.ID, "commentId", cm.ID)); it != nil {
				t.Fatalf("comment also stored under the plain roomId: %v", render(it))
			}
		}
	}
	got := map[string]map[string]string{}
	for _, it := range mem.Export()[n.Comments] {
		r := render(it)
		got[r["roomId"]+" "+r["commentId"]] = r
	}
	want := map[string]map[string]string{}
	for k, it := range scanAll(t, c, n.Comments) {
		want[k[:len(k)-1]] = render(it)
	}
	if !maps.EqualFunc(got, want, maps.Equal) {
		t.Fatalf("memory store's comments:\n%v\nDynamoDB's:\n%v", got, want)
	}
}

// envOf is the environment of the tables n names.
func envOf(n livecomment.TableNames) string { return n.Rooms[len("LiveComment-Rooms-"):] }

// shardTarget gives stores of any options over one set of tables holding
// items: on DynamoDB Local the same tables, in memory a store each,
// importing them.
type shardTarget struct {
	name  string
	store func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store
}

func shardTargets(items func(n livecomment.TableNames) ddbkit.TableItems) []shardTarget {
	env := ddbtest.UniqueName("t")
	n := livecomment.Tables(env)
	withEnv := func(opts []func(*livecomment.Options)) []func(*livecomment.Options) {
		return append(slices.Clone(opts), func(o *livecomment.Options) { o.Env = env })
	}
	var c *dynamodb.Client // the tables, made by the first DynamoDB store
	return []shardTarget{
		{"memory", func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
			s := livecomment.NewMemoryStore(withEnv(opts)...)
			if err := s.Import(items(n)); err != nil {
				t.Fatalf("Import: %v", err)
			}
			return s
		}},
		{"dynamodb", func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
			if c == nil {
				c = ddbtest.Client(t)
				t.Cleanup(func() { dropEnv(c, env) })
				if _, err := livecomment.EnsureTables(t.Context(), c, env); err != nil {
					t.Fatalf("EnsureTables(%s): %v", env, err)
				}
				for table, its := range items(n) {
					for _, it := range its {
						putRaw(t, c, table, it)
					}
				}
			}
			return livecomment.NewDynamoStore(c, withEnv(opts)...)
		}},
	}
}

// twinComments are comments stored twice: all under room plain, in the
// seed's layout, and under room sharded spread as a live table switched to
// 4 shards holds them: the first ones (and one posted later by the seed's
// app) in the unsharded partition, the others in their shards. Many share
// a createdAt, across shards and with the unsharded partition, so the
// merge must order ties as the unsharded index does.
func twinComments(n livecomment.TableNames, plain, sharded string) ddbkit.TableItems {
	times := []string{
		"2024-01-05T10:00:00.000Z", "2024-01-05T10:00:00.000Z", "2024-01-05T10:00:00.001Z",
		"2024-01-05T10:00:01.000Z", "2024-01-05T10:00:01.000Z", "2024-01-05T10:00:01.000Z",
		"2024-01-05T10:00:01.000Z", "2024-01-05T10:00:02.500Z", "2024-01-05T10:00:02.500Z",
		"2024-01-05T10:00:03.000Z", "2024-01-05T10:00:03.000Z", "2024-01-05T10:00:03.000Z",
		"2024-01-05T10:00:03.000Z", "2024-01-05T10:00:03.000Z", "2024-01-05T10:00:04.000Z",
		"2024-01-05T10:00:05.000Z", "2024-01-05T10:00:05.000Z", "2024-01-05T10:00:06.000Z",
	}
	var items []map[string]types.AttributeValue
	for i, ca := range times {
		id := fmt.Sprintf("%08x-58cc-4372-a567-0e02b2c3d479", i*2654435761%(1<<32))
		item := func(pk string) map[string]types.AttributeValue {
			return map[string]types.AttributeValue{"roomId": S(pk), "commentId": S(id), "content": S(fmt.Sprint("comment ", i)),
				"nickname": S("n"), "createdAt": S(ca)}
		}
		pk := livecomment.CommentPartition(sharded, id, 4)
		if i < 4 || i == 12 {
			pk = sharded // legacy, or the seed's app after the switch
		}
		items = append(items, item(plain), item(pk))
	}
	return ddbkit.TableItems{n.Comments: items}
}

// TestShardedMergeMatchesUnsharded lists the same comments from the
// unsharded layout (one partition) and from the sharded one (the unsharded
// partition and four shards): the same comments, in the same order, ties
// included, on the same pages, on both stores; the memory store's pages
// and cursors are DynamoDB Local's. The seed's layout sees only the
// unsharded partition of the sharded room.
func TestShardedMergeMatchesUnsharded(t *testing.T) {
	const plain, sharded = "room-plain", "room-sharded"
	targets := shardTargets(func(n livecomment.TableNames) ddbkit.TableItems { return twinComments(n, plain, sharded) })
	type listing struct {
		ids     []string
		sizes   []int
		cursors []string
	}
	listDir := func(t *testing.T, s livecomment.Store, room string, limit int, newest bool) listing {
		t.Helper()
		read := s.ListComments
		if newest {
			read = s.ListCommentsNewest
		}
		var l listing
		for c := ""; ; {
			p, err := read(t.Context(), room, ddbkit.PageOptions{Limit: limit, Cursor: c})
			if err != nil {
				t.Fatalf("ListComments(%s, limit %d): %v", room, limit, err)
			}
			for _, cm := range p.Items {
				if cm.RoomID != room {
					t.Fatalf("comment %+v listed for room %s", cm, room)
				}
				l.ids = append(l.ids, cm.ID)
			}
			l.sizes, l.cursors, c = append(l.sizes, len(p.Items)), append(l.cursors, p.Next), p.Next
			if c == "" {
				return l
			}
		}
	}
	list := func(t *testing.T, s livecomment.Store, room string, limit int) listing {
		t.Helper()
		return listDir(t, s, room, limit, false)
	}
	byTarget := map[string]map[int]listing{}
	newestByTarget := map[string]map[int]listing{}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			seed, four := tg.store(t), tg.store(t, livecommenttest.Shards(4))
			byTarget[tg.name] = map[int]listing{}
			newestByTarget[tg.name] = map[int]listing{}
			for _, limit := range []int{1, 2, 3, 5, 17, 18, 100} {
				want, got := list(t, seed, plain, limit), list(t, four, sharded, limit)
				if len(want.ids) != 18 || !slices.Equal(got.ids, want.ids) || !slices.Equal(got.sizes, want.sizes) {
					t.Fatalf("limit %d: sharded listing %v (pages %v)\nwant the unsharded one %v (pages %v)",
						limit, got.ids, got.sizes, want.ids, want.sizes)
				}
				byTarget[tg.name][limit] = got
				// Newest first: the same comments reversed, ties and
				// their partitions' order included, on the same pages.
				rev := slices.Clone(want.ids)
				slices.Reverse(rev)
				for _, st := range []struct {
					name string
					s    livecomment.Store
					room string
				}{{"unsharded", seed, plain}, {"sharded", four, sharded}} {
					newest := listDir(t, st.s, st.room, limit, true)
					if !slices.Equal(newest.ids, rev) || !slices.Equal(newest.sizes, want.sizes) {
						t.Fatalf("limit %d: %s listing newest first %v (pages %v)\nwant the oldest first one reversed %v (pages %v)",
							limit, st.name, newest.ids, newest.sizes, rev, want.sizes)
					}
					if st.name == "sharded" {
						newestByTarget[tg.name][limit] = newest
					}
				}
			}
			// What the seed's app reads once the room is sharded: the
			// unsharded partition only.
			old := list(t, seed, sharded, 100)
			if len(old.ids) != 5 {
				t.Fatalf("the seed's layout lists %d comments of the sharded room, want the 5 left unsharded", len(old.ids))
			}
			// Cursors of one layout are refused by the others.
			c0 := first(t, seed, sharded)
			c4 := first(t, four, sharded)
			three := tg.store(t, livecommenttest.Shards(3))
			c3 := first(t, three, sharded)
			for _, tc := range []struct {
				name   string
				s      livecomment.Store
				cursor string
			}{
				{"unsharded cursor, 4 shards", four, c0},
				{"4 shards' cursor, unsharded", seed, c4},
				{"4 shards' cursor, 3 shards", three, c4},
				{"3 shards' cursor, 4 shards", four, c3},
				{"unsharded room's cursor for the sharded room", four, first(t, seed, plain)},
			} {
				_, err := tc.s.ListComments(t.Context(), sharded, ddbkit.PageOptions{Limit: 2, Cursor: tc.cursor})
				if !errors.Is(err, ddbkit.ErrInvalidCursor) {
					t.Errorf("%s: got %v, want ErrInvalidCursor", tc.name, err)
				}
			}
		})
	}
	if m, d := byTarget["memory"], byTarget["dynamodb"]; d != nil {
		for limit, l := range d {
			if !slices.Equal(m[limit].cursors, l.cursors) {
				t.Errorf("limit %d: memory store's cursors differ from DynamoDB Local's:\n%q\n%q", limit, m[limit].cursors, l.cursors)
			}
		}
	}
	if m, d := newestByTarget["memory"], newestByTarget["dynamodb"]; d != nil {
		for limit, l := range d {
			if !slices.Equal(m[limit].cursors, l.cursors) {
				t.Errorf("limit %d, newest first: memory store's cursors differ from DynamoDB Local's:\n%q\n%q", limit, m[limit].cursors, l.cursors)
			}
		}
	}
}

// first is the cursor of room's first page of two comments.
func first(t *testing.T, s livecomment.Store, room string) string {
	t.Helper()
	p, err := s.ListComments(t.Context(), room, ddbkit.PageOptions{Limit: 2})
	if err != nil || p.Next == "" {
		t.Fatalf("ListComments(%s): next %q, %v", room, p.Next, err)
	}
	return p.Next
}

// TestShardedCapacity prices a merged page on DynamoDB Local: each of its
// N+1 Queries reads half a unit per 4 KB of the entries it reads, rounded
// up per Query, so a page of 50 small comments over 4 shards costs 4 half
// units (one per shard's 15 or so comments; DynamoDB Local charges
// nothing for the empty unsharded partition) where the unsharded page
// costs 3.
// The writes cost what the seed's layout costs: the shard changes the
// partition, not the item.
func TestShardedCapacity(t *testing.T) {
	ctx := t.Context()
	var cc *ddbtest.CapacityClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCapacityClient(c); return cc },
		deterministic, livecommenttest.Shards(4))
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "新製品発表会 Q&A", HostID: "host-1"})
	if err != nil {
		t.Fatal(err)
	}
	for range 60 {
		if _, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "楽しみにしています！", Nickname: "たろう"}); err != nil {
			t.Fatal(err)
		}
	}
	cc.CheckBudget(t, "ListComments", ddbtest.Capacity{Read: 2}, func() error {
		_, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{Limit: 50})
		return err
	})
	cc.CheckBudget(t, "PostComment", ddbtest.Capacity{Write: 6}, func() error {
		_, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "質問です"})
		return err
	})
}

// TestShardedReadCost prices a page of 50 in a busy room (60 comments in
// each shard, none left unsharded) on DynamoDB Local, for the seed's
// layout and 4, 16 and 64 shards: N+1 Queries, each reading the page's
// limit and one more entries (51 comments of about 140 bytes: 1 RCU),
// so N RCU a page (DynamoDB Local charges nothing for the empty unsharded
// partition; DynamoDB charges a read's minimum), against 1 unsharded. It
// logs the cursor's length too.
func TestShardedReadCost(t *testing.T) {
	c := ddbtest.Client(t)
	env := ddbtest.UniqueName("t")
	t.Cleanup(func() { dropEnv(c, env) })
	if _, err := livecomment.EnsureTables(t.Context(), c, env); err != nil {
		t.Fatal(err)
	}
	n := livecomment.Tables(env)
	var lines []string
	for _, shards := range []int{0, 4, 16, 64} {
		room := fmt.Sprint("room-", shards)
		var puts []types.WriteRequest
		for p := -1; p < shards; p++ {
			pk := room
			if p >= 0 {
				pk = fmt.Sprint(room, "#", p)
			}
			if p < 0 && shards > 0 {
				continue // the unsharded partition of a room sharded from the start: empty
			}
			for i := range 60 {
				puts = append(puts, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
					"roomId": S(pk), "commentId": S(fmt.Sprintf("018cc251-%04x-7000-8000-%012d", i, p+1)),
					"content": S("楽しみにしています！"), "nickname": S("たろう"),
					"createdAt": S(fmt.Sprintf("2024-01-05T10:%02d:%02d.000Z", i/60, i%60)),
				}}})
			}
		}
		for len(puts) > 0 {
			k := min(25, len(puts))
			if _, err := c.BatchWriteItem(t.Context(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{n.Comments: puts[:k]}}); err != nil {
				t.Fatal(err)
			}
			puts = puts[k:]
		}
		counts := ddbtest.NewCountingClient(c)
		capacity := ddbtest.NewCapacityClient(counts)
		s := livecomment.NewDynamoStore(capacity, func(o *livecomment.Options) { o.Env = env; o.CommentShards = shards })
		var p ddbkit.Page[livecomment.Comment]
		got := capacity.Measure(func() {
			var err error
			if p, err = s.ListComments(t.Context(), room, ddbkit.PageOptions{Limit: 50}); err != nil {
				t.Fatal(err)
			}
		})
		queries := counts.Count("Query")
		want := ddbtest.Capacity{Read: float64(max(1, shards))}
		if len(p.Items) != 50 || p.Next == "" || queries != shards+1 || got != want {
			t.Errorf("%d shards: a page of %d (a cursor of %d bytes) took %d Queries, %+v; want 50, a cursor, %d Queries, %+v",
				shards, len(p.Items), len(p.Next), queries, got, shards+1, want)
		}
		lines = append(lines, fmt.Sprintf("%2d shards: %2d Queries, %4.1f RCU, a cursor of %4d bytes", shards, queries, got.Read, len(p.Next)))
	}
	t.Logf("a page of 50 comments in a busy room:\n%s", strings.Join(lines, "\n"))
}

// sharedTables are tables stores of different options share, as the
// deployments before and after a switch of CommentShards do: on DynamoDB
// Local the same tables; in memory the items a store saved, which the
// next store opened imports.
type sharedTables struct {
	name     string
	open     func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store
	save     func(t *testing.T, s livecomment.Store)
	comments func(t *testing.T) []map[string]string
}

func newSharedTables(t *testing.T, dynamo bool) sharedTables {
	t.Helper()
	if dynamo {
		c := ddbtest.Client(t)
		env := newEnv(t, c)
		return sharedTables{
			name: "dynamodb",
			open: func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
				return livecomment.NewDynamoStore(c, append(opts, func(o *livecomment.Options) { o.Env = env })...)
			},
			save: func(*testing.T, livecomment.Store) {},
			comments: func(t *testing.T) []map[string]string {
				var out []map[string]string
				for _, it := range scanAll(t, c, livecomment.Tables(env).Comments) {
					out = append(out, render(it))
				}
				return out
			},
		}
	}
	const env = "shared"
	var held ddbkit.TableItems
	return sharedTables{
		name: "memory",
		open: func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
			s := livecomment.NewMemoryStore(append(opts, func(o *livecomment.Options) { o.Env = env })...)
			if err := s.Import(held); err != nil {
				t.Fatalf("Import: %v", err)
			}
			return s
		},
		save: func(_ *testing.T, s livecomment.Store) { held = s.(*livecomment.MemoryStore).Export() },
		comments: func(*testing.T) []map[string]string {
			var out []map[string]string
			for _, it := range held[livecomment.Tables(env).Comments] {
				out = append(out, render(it))
			}
			return out
		},
	}
}

// TestOneShardIsTheSeedsLayout switches live tables from CommentShards 0,
// and from 1, to 4, on both stores: a store of 1 writes the seed's items
// (the plain roomId, nothing else changed), exactly those a store of 0
// writes, and reads and continues the cursors of a store of 0 over the
// same tables (and the other way round); after the switch, the 4-shard
// store lists the old comments with its own, and the old layout lists
// only the old. Both switches give the same items and listings.
func TestOneShardIsTheSeedsLayout(t *testing.T) {
	later := func(o *livecomment.Options) {
		o.Clock = ddbkit.StepClock(livecommenttest.Start.Add(time.Hour), time.Millisecond)
		o.NewID = ddbkit.SeededUUIDv4(2)
		o.NewCommentID = livecomment.SeededCommentIDs(2)
	}
	ids := func(cs []livecomment.Comment) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = c.ID
		}
		return out
	}
	list := func(t *testing.T, s livecomment.Store, room, cursor string, limit int) ([]string, string) {
		t.Helper()
		p, err := s.ListComments(t.Context(), room, ddbkit.PageOptions{Limit: limit, Cursor: cursor})
		if err != nil {
			t.Fatalf("ListComments(%s): %v", room, err)
		}
		return ids(p.Items), p.Next
	}
	outcomes := map[string]string{}
	for _, dynamo := range []bool{false, true} {
		var name string
		for _, from := range []int{0, 1} {
			tb := newSharedTables(t, dynamo)
			name = tb.name
			t.Run(fmt.Sprint(tb.name, ", ", from, " → 4"), func(t *testing.T) {
				other := 1 - from // the other count of the seed's layout
				before := tb.open(t, deterministic, livecommenttest.Shards(from))
				r, err := before.CreateRoom(t.Context(), livecomment.NewRoom{Name: "room", HostID: "host"})
				if err != nil {
					t.Fatal(err)
				}
				var old []livecomment.Comment
				for i := range 3 {
					cm, err := before.PostComment(t.Context(), r.ID, livecomment.NewComment{Content: fmt.Sprint("old ", i)})
					if err != nil {
						t.Fatal(err)
					}
					old = append(old, cm)
				}
				tb.save(t, before)
				raw := tb.comments(t)
				if len(raw) != len(old) {
					t.Fatalf("Comments holds %d items, want %d", len(raw), len(old))
				}
				for _, it := range raw {
					i := slices.IndexFunc(old, func(c livecomment.Comment) bool { return "S:"+c.ID == it["commentId"] })
					if i < 0 {
						t.Fatalf("unexpected item %v", it)
					}
					want := map[string]string{"roomId": "S:" + r.ID, "commentId": "S:" + old[i].ID, "content": "S:" + old[i].Content,
						"nickname": "S:Anonymous", "createdAt": "S:" + old[i].CreatedAt.Format("2006-01-02T15:04:05.000Z")}
					if !maps.Equal(it, want) {
						t.Fatalf("item %v, want the seed's layout %v", it, want)
					}
				}
				// One listing: a cursor of either count pages on in the other.
				twin := tb.open(t, livecommenttest.Shards(other))
				page, next := list(t, before, r.ID, "", 2)
				rest, end := list(t, twin, r.ID, next, 2)
				if got := append(page, rest...); !slices.Equal(got, ids(old)) || end != "" {
					t.Fatalf("%d shards' page, then %d shards' from its cursor: %v (next %q), want %v", from, other, got, end, ids(old))
				}

				after := tb.open(t, later, livecommenttest.Shards(4))
				var posted []livecomment.Comment
				for i := range 3 {
					cm, err := after.PostComment(t.Context(), r.ID, livecomment.NewComment{Content: fmt.Sprint("new ", i)})
					if err != nil {
						t.Fatal(err)
					}
					posted = append(posted, cm)
				}
				tb.save(t, after)
				all, _ := list(t, after, r.ID, "", 100)
				if want := ids(append(slices.Clone(old), posted...)); !slices.Equal(all, want) {
					t.Fatalf("4 shards list %v, want the old comments, then the new: %v", all, want)
				}
				seen, _ := list(t, tb.open(t, livecommenttest.Shards(from)), r.ID, "", 100)
				if !slices.Equal(seen, ids(old)) {
					t.Fatalf("%d shards list %v after the switch, want the old comments only: %v", from, seen, ids(old))
				}
				slices.SortFunc(raw, func(a, b map[string]string) int { return strings.Compare(a["commentId"], b["commentId"]) })
				outcomes[fmt.Sprint(tb.name, from)] = fmt.Sprint(raw, all, seen)
			})
		}
		if o0, o1 := outcomes[name+"0"], outcomes[name+"1"]; o0 == "" || o0 != o1 {
			t.Errorf("the switch from 1 differs from the switch from 0:\n%s\n%s", o1, o0)
		}
	}
}
