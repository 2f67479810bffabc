package livecomment_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/schema"
)

// seedAppTables creates env's three tables as the seed's app has them: no
// hostId-index (the app scans Rooms), no roomId-createdAt-index, and
// Connections with its roomId-index (projecting ALL, CDK's default).
func seedAppTables(t *testing.T, c *dynamodb.Client, env string) livecomment.TableNames {
	t.Helper()
	n := livecomment.Tables(env)
	str := func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	hash := func(name string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: types.KeyTypeHash}
	}
	rng := func(name string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: types.KeyTypeRange}
	}
	ins := []*dynamodb.CreateTableInput{
		{TableName: aws.String(n.Rooms), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{str("roomId")},
			KeySchema:            []types.KeySchemaElement{hash("roomId")}},
		{TableName: aws.String(n.Comments), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{str("roomId"), str("commentId")},
			KeySchema:            []types.KeySchemaElement{hash("roomId"), rng("commentId")}},
		{TableName: aws.String(n.Connections), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{str("connectionId"), str("roomId")},
			KeySchema:            []types.KeySchemaElement{hash("connectionId")},
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("roomId-index"),
				KeySchema: []types.KeySchemaElement{hash("roomId")}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}},
	}
	for _, in := range ins {
		t.Cleanup(func() {
			_, _ = c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: in.TableName})
		})
		if _, err := c.CreateTable(t.Context(), in); err != nil {
			t.Fatalf("CreateTable(%s): %v", aws.ToString(in.TableName), err)
		}
	}
	return n
}

func putRaw(t *testing.T, c *dynamodb.Client, table string, item map[string]types.AttributeValue) {
	t.Helper()
	if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		t.Fatalf("PutItem(%s, %v): %v", table, render(item), err)
	}
}

func at(s string) time.Time {
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return v.UTC()
}

// The seed app's rooms and comments: UUIDv4 IDs, timestamps as its
// toISOString writes them, and in other ISO 8601 forms another writer may
// have used. The comment IDs sort in another order than their times.
const (
	roomGo     = "3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c" // OPEN, toISOString timestamps
	roomLT     = "a7d4e1b2-0c3f-4a5b-8d6e-1f2a3b4c5d6e" // CLOSED, other forms
	roomOld    = "0b9a8c7d-6e5f-4a3b-b2c1-d0e9f8a7b6c5" // microseconds, no updatedAt
	roomBroken = "5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b" // updatedAt is no time
	roomOther  = "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f" // another host's

	c1      = "f47ac10b-58cc-4372-a567-0e02b2c3d479"
	c2      = "0c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f"
	c3      = "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	c4      = "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a"
	c5      = "7e6d5c4b-3a2f-4e1d-8c0b-9a8f7e6d5c4b"
	c6      = "4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d"
	cBroken = "b3c4d5e6-f7a8-4b9c-8d0e-1f2a3b4c5d6e"
)

// legacyRoom, legacyComment and legacyConn build items as the seed's app
// writes them; an empty optional attribute is left out.
func legacyRoom(id, name, host, status, created, updated string) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{"roomId": S(id), "name": S(name), "hostId": S(host), "status": S(status), "createdAt": S(created)}
	if updated != "" {
		it["updatedAt"] = S(updated)
	}
	return it
}

func legacyComment(id, content, nickname, created string) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{"roomId": S(roomGo), "commentId": S(id), "content": S(content), "createdAt": S(created)}
	if nickname != "" {
		it["nickname"] = S(nickname)
	}
	return it
}

func legacyConn(id, roomID, ts string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"connectionId": S(id), "roomId": S(roomID), "timestamp": S(ts)}
}

// legacyItems returns the items the seed's app left in env's tables: those
// both stores read, and the corrupt ones, which DynamoStore reports as
// corrupt and MemoryStore.Import refuses.
func legacyItems(n livecomment.TableNames) (good, corrupt ddbkit.TableItems) {
	good = ddbkit.TableItems{
		n.Rooms: {
			legacyRoom(roomGo, "Go勉強会", "host-1", "OPEN", "2024-01-05T10:00:00.000Z", "2024-01-05T10:00:00.000Z"),
			legacyRoom(roomLT, "LT大会", "host-1", "CLOSED", "2024-01-04T09:00:00Z", "2024-01-04T19:30:00+09:00"),
			legacyRoom(roomOld, "第1回", "host-1", "OPEN", "2024-01-03T10:00:00.123456Z", ""),
			legacyRoom(roomOther, "雑談", "host-2", "OPEN", "2024-01-05T11:00:00.000Z", "2024-01-05T11:00:00.000Z"),
		},
		n.Comments: {
			legacyComment(c1, "こんにちは", "たろう", "2024-01-05T10:01:00.000Z"),
			legacyComment(c2, "名無し", "", "2024-01-05T10:02:00.000Z"), // no nickname
			legacyComment(c3, "秒まで", "Anonymous", "2024-01-05T10:03:00Z"),
			legacyComment(c4, "ミリ秒", "はなこ", "2024-01-05T10:03:30.000Z"),
			legacyComment(c5, "日本時間", "じろう", "2024-01-05T19:04:00+09:00"), // 10:04 UTC
			legacyComment(c6, "マイクロ秒", "さぶろう", "2024-01-05T10:05:00.123456Z"),
		},
		n.Connections: {
			legacyConn("L0SM9cOFvHcCIhw=", roomGo, "2024-01-05T10:00:30.000Z"),
			legacyConn("Kx1Q2w3E4r5T6y=", roomGo, "2024-01-05T19:00:40+09:00"),
			legacyConn("Aa1B2c3D4e5F6g=", roomLT, "2024-01-04T09:10:00Z"),
		},
	}
	broken := legacyComment(cBroken, "", "x", "2024-01-05T10:02:45.000Z")
	broken["content"] = &types.AttributeValueMemberBOOL{Value: true}
	corrupt = ddbkit.TableItems{
		n.Rooms:       {legacyRoom(roomBroken, "壊れた", "host-1", "OPEN", "2024-01-02T00:00:00.000Z", "yesterday")},
		n.Comments:    {broken},
		n.Connections: {legacyConn("Zz9Y8x7W6v5U4t=", roomGo, "soon")},
	}
	return good, corrupt
}

// legacyLayout is a configuration the legacy fixture runs in: the seed's
// layout, the sharded one, and the sharded one with the cached room check.
type legacyLayout struct {
	name   string
	shards int
	cache  time.Duration
}

var legacyLayouts = []legacyLayout{{"seed's layout", 0, 0}, {"4 shards", 4, 0}, {"4 shards, cached room check", 4, time.Second}}

// legacyOptions are the options of the legacy stores: the clock reads
// 10:02:30 on the day of the app's comments. With shards, the store posts
// in the sharded layout, as after the switch of a live table: the app's
// comments stay in its rooms' unsharded partitions, and its later ones
// land there too.
func legacyOptions(env string, l legacyLayout) func(*livecomment.Options) {
	return func(o *livecomment.Options) {
		o.Env = env
		o.CommentShards = l.shards
		o.RoomCheckCache = l.cache
		o.Clock = ddbkit.StepClock(at("2024-01-05T10:02:30Z"), time.Millisecond)
		o.NewID = ddbkit.SeededUUIDv4(1)
		o.NewCommentID = livecomment.SeededCommentIDs(1)
	}
}

// legacyTarget is a store holding the legacy items, and raw access to its
// tables as another writer has it.
type legacyTarget struct {
	s   livecomment.Store
	n   livecomment.TableNames
	put func(t *testing.T, table string, item map[string]types.AttributeValue)
	get func(t *testing.T, table string, key map[string]types.AttributeValue) map[string]types.AttributeValue
	// corrupt tells whether the store holds the corrupt items: DynamoDB
	// does; MemoryStore.Import refuses them.
	corrupt bool
	shards  int // the store's Options.CommentShards
}

// TestLegacyTables runs every access pattern and the main writes on tables
// the seed's app made and filled, after EnsureTables has added ddbkit's
// indexes; then it runs the same on a memory store that imported the same
// items, and requires the same raw items in both at the end.
//
// It runs again with the sharded comment layout switched on (every read
// pattern then reads the app's comments as the unsharded partition of the
// merge), and with the cached room check too (the app's rooms are read,
// its closed room refused).
func TestLegacyTables(t *testing.T) {
	for _, l := range legacyLayouts {
		t.Run(l.name, func(t *testing.T) { legacyTables(t, l) })
	}
}

func legacyTables(t *testing.T, l legacyLayout) {
	c := ddbtest.Client(t)
	env := ddbtest.UniqueName("legacy")
	n := seedAppTables(t, c, env)
	ctx := t.Context()

	good, corrupt := legacyItems(n)
	for _, items := range []ddbkit.TableItems{good, corrupt} {
		for _, table := range []string{n.Rooms, n.Comments, n.Connections} {
			for _, it := range items[table] {
				putRaw(t, c, table, it)
			}
		}
	}
	s := livecomment.NewDynamoStore(c, legacyOptions(env, l))

	// Before EnsureTables, the listings that need ddbkit's indexes fail
	// with ErrSchemaMismatch, not a raw ValidationException.
	_, err := s.ListHostRooms(ctx, "host-1", ddbkit.PageOptions{})
	ddbtest.WantSentinel(t, "ListHostRooms without hostId-index", err, ddbkit.ErrSchemaMismatch)
	_, err = s.ListComments(ctx, roomGo, ddbkit.PageOptions{})
	ddbtest.WantSentinel(t, "ListComments without roomId-createdAt-index", err, ddbkit.ErrSchemaMismatch)

	wantChanges := []schema.Change{
		{Table: n.Rooms, Action: "add GSI"}, {Table: n.Comments, Action: "add GSI"},
	}
	sameChanges := func(what string, got []schema.Change) {
		t.Helper()
		if len(got) != len(wantChanges) {
			t.Fatalf("%s: changes %v, want %v", what, got, wantChanges)
		}
		for i := range got {
			if got[i].Table != wantChanges[i].Table || got[i].Action != wantChanges[i].Action {
				t.Fatalf("%s: change %d = %v, want %v", what, i, got[i], wantChanges[i])
			}
		}
	}
	plan, err := livecomment.EnsureTables(ctx, c, env, schema.PlanOnly)
	if err != nil {
		t.Fatalf("EnsureTables(PlanOnly): %v", err)
	}
	sameChanges("plan", plan)
	if _, err := s.ListHostRooms(ctx, "host-1", ddbkit.PageOptions{}); !errors.Is(err, ddbkit.ErrSchemaMismatch) {
		t.Fatalf("after a plan, ListHostRooms = %v; want the index still missing", err)
	}
	// The app's tables belong to its stack: EnsureTables only verifies
	// them, unless told to apply what they lack.
	_, err = livecomment.EnsureTables(ctx, c, env)
	ddbtest.WantSentinel(t, "EnsureTables without schema.Apply", err, ddbkit.ErrSchemaMismatch)
	changes, err := livecomment.EnsureTables(ctx, c, env, schema.Apply)
	if err != nil {
		t.Fatalf("EnsureTables(Apply): %v", err)
	}
	sameChanges("EnsureTables(Apply)", changes)
	if again, err := livecomment.EnsureTables(ctx, c, env); err != nil || len(again) != 0 {
		t.Fatalf("EnsureTables again = %v, %v; want no changes", again, err)
	}

	checkLegacy(t, legacyTarget{s: s, n: n, corrupt: true, shards: l.shards,
		put: func(t *testing.T, table string, item map[string]types.AttributeValue) { putRaw(t, c, table, item) },
		get: func(t *testing.T, table string, key map[string]types.AttributeValue) map[string]types.AttributeValue {
			return rawItem(t, c, table, key)
		}})

	// The memory store, fed the same items and calls, ends with the same
	// items, but for the corrupt ones it refused.
	mem := legacyMemory(t, env, l)
	skip := map[string]bool{}
	for _, its := range corrupt {
		for _, it := range its {
			skip[renderItem(it)] = true
		}
	}
	got := mem.Export()
	for _, tk := range []struct {
		table string
		key   []string
	}{{n.Rooms, []string{"roomId"}}, {n.Comments, []string{"roomId", "commentId"}}, {n.Connections, []string{"connectionId"}}} {
		table := tk.table
		var want []string
		for _, it := range scanTable(t, c, table, tk.key...) {
			if !skip[renderItem(it)] {
				want = append(want, renderItem(it))
			}
		}
		var have []string
		for _, it := range got[table] {
			have = append(have, renderItem(it))
		}
		if !slices.Equal(have, want) {
			t.Errorf("%s: the memory store exports\n%s\nDynamoDB holds\n%s", table, strings.Join(have, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestLegacyMemory runs the legacy fixture on a memory store: Import takes
// the app's items, refuses its corrupt ones, and the store then reads them
// all as DynamoStore does.
func TestLegacyMemory(t *testing.T) {
	for _, l := range legacyLayouts {
		t.Run(l.name, func(t *testing.T) { legacyMemory(t, "legacy", l) })
	}
}

// legacyMemory imports the legacy items into a new memory store of env,
// checks the refusals of Import, and runs checkLegacy on it.
func legacyMemory(t *testing.T, env string, l legacyLayout) *livecomment.MemoryStore {
	t.Helper()
	n := livecomment.Tables(env)
	s := livecomment.NewMemoryStore(legacyOptions(env, l))
	good, corrupt := legacyItems(n)

	// A corrupt item fails the whole import, naming its table, key and
	// attribute; nothing is imported.
	for _, tc := range []struct{ table, attr string }{
		{n.Rooms, "updatedAt"}, {n.Comments, "content"}, {n.Connections, "timestamp"},
	} {
		items := ddbkit.TableItems{}
		for table, its := range good {
			items[table] = its
		}
		items[tc.table] = append(slices.Clone(items[tc.table]), corrupt[tc.table]...)
		err := s.Import(items)
		wantCorrupt(t, "Import with a corrupt item of "+tc.table, err, tc.table, tc.attr)
		for table, its := range s.Export() {
			if len(its) != 0 {
				t.Fatalf("after a failed Import, %s holds %d items; want none", table, len(its))
			}
		}
	}
	err := s.Import(ddbkit.TableItems{"LiveComment-Rooms-prod": good[n.Rooms]})
	ddbtest.WantSentinel(t, "Import into another environment's table", err, ddbkit.ErrInvalidArgument)

	if err := s.Import(good); err != nil {
		t.Fatalf("Import: %v", err)
	}
	checkLegacy(t, legacyTarget{s: s, n: n, shards: l.shards,
		put: func(t *testing.T, table string, item map[string]types.AttributeValue) {
			t.Helper()
			if err := s.Import(ddbkit.TableItems{table: {item}}); err != nil {
				t.Fatalf("Import(%s, %v): %v", table, render(item), err)
			}
		},
		get: func(t *testing.T, table string, key map[string]types.AttributeValue) map[string]types.AttributeValue {
			t.Helper()
			for _, it := range s.Export()[table] {
				match := true
				for a, v := range key {
					match = match && renderItem(map[string]types.AttributeValue{a: it[a]}) == renderItem(map[string]types.AttributeValue{a: v})
				}
				if match {
					return it
				}
			}
			return nil
		}})
	return s
}

// checkLegacy runs every read access pattern over the legacy items in g's
// store, then the main writes among them, as the app keeps writing too.
func checkLegacy(t *testing.T, g legacyTarget) {
	t.Helper()
	ctx, s, n := t.Context(), g.s, g.n
	wantSkipped := 0
	if g.corrupt {
		wantSkipped = 1
	}
	var err error

	// Rooms: by ID, in any ISO 8601 form; a missing updatedAt is zero.
	wantGo := livecomment.Room{ID: roomGo, Name: "Go勉強会", HostID: "host-1", Status: livecomment.RoomOpen,
		CreatedAt: at("2024-01-05T10:00:00Z"), UpdatedAt: at("2024-01-05T10:00:00Z")}
	wantLT := livecomment.Room{ID: roomLT, Name: "LT大会", HostID: "host-1", Status: livecomment.RoomClosed,
		CreatedAt: at("2024-01-04T09:00:00Z"), UpdatedAt: at("2024-01-04T10:30:00Z")}
	wantOld := livecomment.Room{ID: roomOld, Name: "第1回", HostID: "host-1", Status: livecomment.RoomOpen,
		CreatedAt: at("2024-01-03T10:00:00.123456Z")}
	for _, want := range []livecomment.Room{wantGo, wantLT, wantOld} {
		if got, err := s.GetRoom(ctx, want.ID); err != nil || got != want {
			t.Errorf("GetRoom(%s) = %+v, %v\nwant %+v", want.ID, got, err, want)
		}
	}
	_, err = s.GetRoom(ctx, roomBroken)
	if g.corrupt {
		wantCorrupt(t, "GetRoom(broken)", err, n.Rooms, "updatedAt")
	} else {
		ddbtest.WantSentinel(t, "GetRoom(refused by Import)", err, ddbkit.ErrNotFound)
	}

	// A host's rooms, newest first, the broken one skipped on its page.
	rooms, skipped := listAll(t, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Room], error) {
		return s.ListHostRooms(ctx, "host-1", o)
	})
	if !slices.Equal(rooms, []livecomment.Room{wantGo, wantLT, wantOld}) {
		t.Errorf("ListHostRooms = %+v\nwant %+v", rooms, []livecomment.Room{wantGo, wantLT, wantOld})
	}
	if len(skipped) != wantSkipped {
		t.Errorf("ListHostRooms skipped %v, want %d", skipped, wantSkipped)
	} else if g.corrupt {
		wantCorrupt(t, "ListHostRooms skipped", skipped[0], n.Rooms, "updatedAt")
	}

	// Comments in createdAt order, not commentId order, the broken one
	// skipped; the +09:00 form sorts as its string does.
	cm := func(id, content, nickname, created string) livecomment.Comment {
		return livecomment.Comment{RoomID: roomGo, ID: id, Content: content, Nickname: nickname, CreatedAt: at(created)}
	}
	legacy := []livecomment.Comment{
		cm(c1, "こんにちは", "たろう", "2024-01-05T10:01:00Z"),
		cm(c2, "名無し", "Anonymous", "2024-01-05T10:02:00Z"),
		cm(c3, "秒まで", "Anonymous", "2024-01-05T10:03:00Z"),
		cm(c4, "ミリ秒", "はなこ", "2024-01-05T10:03:30Z"),
		cm(c6, "マイクロ秒", "さぶろう", "2024-01-05T10:05:00.123456Z"),
		cm(c5, "日本時間", "じろう", "2024-01-05T10:04:00Z"),
	}
	checkComments := func(what string, want []livecomment.Comment) {
		t.Helper()
		for _, limit := range []int{0, 2} {
			got, skipped := listAll(t, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Comment], error) {
				o.Limit = limit
				return s.ListComments(ctx, roomGo, o)
			})
			if !slices.Equal(got, want) {
				t.Errorf("%s, limit %d: ListComments =\n%+v\nwant\n%+v", what, limit, got, want)
			}
			if len(skipped) != wantSkipped {
				t.Errorf("%s, limit %d: ListComments skipped %v, want %d", what, limit, skipped, wantSkipped)
			} else if g.corrupt {
				wantCorrupt(t, what+": ListComments skipped", skipped[0], n.Comments, "content")
			}
		}
	}
	checkComments("legacy comments", legacy)

	// Connections, in any ISO 8601 form; the broken one fails its get and
	// is skipped by listings.
	wantConns := []livecomment.Connection{
		{ID: "Kx1Q2w3E4r5T6y=", RoomID: roomGo, JoinedAt: at("2024-01-05T10:00:40Z")},
		{ID: "L0SM9cOFvHcCIhw=", RoomID: roomGo, JoinedAt: at("2024-01-05T10:00:30Z")},
	}
	for _, want := range wantConns {
		if got, err := s.GetConnection(ctx, want.ID); err != nil || got != want {
			t.Errorf("GetConnection(%s) = %+v, %v; want %+v", want.ID, got, err, want)
		}
	}
	_, err = s.GetConnection(ctx, "Zz9Y8x7W6v5U4t=")
	if g.corrupt {
		wantCorrupt(t, "GetConnection(broken)", err, n.Connections, "timestamp")
	} else {
		ddbtest.WantSentinel(t, "GetConnection(refused by Import)", err, ddbkit.ErrNotFound)
	}
	conns, skipped := listAll(t, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Connection], error) {
		return s.ListConnections(ctx, roomGo, o)
	})
	slices.SortFunc(conns, func(a, b livecomment.Connection) int { return cmpString(a.ID, b.ID) })
	if !slices.Equal(conns, wantConns) || len(skipped) != wantSkipped {
		t.Errorf("ListConnections = %+v, skipped %v; want %+v and the broken one skipped", conns, skipped, wantConns)
	}

	// Writes among the app's items. A new comment lands in time order
	// among the legacy ones: the clock reads 10:02:30.
	posted, err := s.PostComment(ctx, roomGo, livecomment.NewComment{Content: "ddbkitから"})
	if err != nil {
		t.Fatalf("PostComment: %v", err)
	}
	if !posted.CreatedAt.Equal(at("2024-01-05T10:02:30Z")) {
		t.Fatalf("posted at %v", posted.CreatedAt)
	}
	// Stored under its shard's roomId when sharded, the room's otherwise.
	pk := livecomment.CommentPartition(roomGo, posted.ID, g.shards)
	if it := g.get(t, n.Comments, key("roomId", pk, "commentId", posted.ID)); render(it)["roomId"] != "S:"+pk {
		t.Errorf("the posted comment is stored as %v; want roomId %s", render(it), pk)
	}
	withPost := slices.Insert(slices.Clone(legacy), 2, posted)
	checkComments("after PostComment", withPost)
	// The app keeps writing too.
	g.put(t, n.Comments, legacyComment("1e2d3c4b-5a6f-4e7d-8c9b-0a1f2e3d4c5b", "後から", "しろう", "2024-01-05T10:02:40.000Z"))
	late := cm("1e2d3c4b-5a6f-4e7d-8c9b-0a1f2e3d4c5b", "後から", "しろう", "2024-01-05T10:02:40Z")
	checkComments("after the app's post", slices.Insert(slices.Clone(withPost), 3, late))

	if _, err := s.PostComment(ctx, roomLT, livecomment.NewComment{Content: "x"}); !errors.Is(err, livecomment.ErrRoomClosed) {
		t.Errorf("PostComment(the app's closed room) = %v, want ErrRoomClosed", err)
	}
	joined, err := s.JoinRoom(ctx, roomGo, "New0Conn1Id2=")
	if err != nil {
		t.Fatalf("JoinRoom: %v", err)
	}
	if _, err := s.JoinRoom(ctx, roomLT, "New0Conn1Id2="); !errors.Is(err, livecomment.ErrRoomClosed) {
		t.Errorf("JoinRoom(the app's closed room) = %v, want ErrRoomClosed", err)
	}
	var (
		mu   sync.Mutex
		sent []string
	)
	res, err := livecomment.Broadcast(ctx, s, roomGo, func(_ context.Context, c livecomment.Connection) error {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, c.ID)
		return nil
	})
	slices.Sort(sent)
	if want := []string{"Kx1Q2w3E4r5T6y=", "L0SM9cOFvHcCIhw=", joined.ID}; err != nil || res.Sent != 3 || !slices.Equal(sent, want) {
		t.Errorf("Broadcast = %+v, %v, sent to %v; want %v", res, err, sent, want)
	}

	// Closing: the app's closed room is returned as stored; the open one
	// closes in the seed's format, after every comment ddbkit posted.
	if got, err := s.CloseRoom(ctx, roomLT); err != nil || got != wantLT {
		t.Errorf("CloseRoom(the app's closed room) = %+v, %v; want %+v unchanged", got, err, wantLT)
	}
	closed, err := s.CloseRoom(ctx, roomGo)
	if err != nil || closed.Status != livecomment.RoomClosed || !closed.UpdatedAt.After(posted.CreatedAt) {
		t.Fatalf("CloseRoom = %+v, %v; want CLOSED after %v", closed, err, posted.CreatedAt)
	}
	raw := g.get(t, n.Rooms, key("roomId", roomGo))
	if got, want := render(raw)["updatedAt"], "S:"+closed.UpdatedAt.Format("2006-01-02T15:04:05.000Z"); got != want || render(raw)["status"] != "S:CLOSED" {
		t.Errorf("closed room stored as %v; want status CLOSED, updatedAt %s", render(raw), want)
	}
	if got, err := s.GetRoom(ctx, roomGo); err != nil || got != closed {
		t.Errorf("GetRoom after close = %+v, %v; want %+v", got, err, closed)
	}

	// A new room of the same host lists first.
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "新しい部屋", HostID: "host-1"})
	if err != nil {
		t.Fatalf("CreateRoom: %v", err)
	}
	rooms, _ = listAll(t, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Room], error) {
		return s.ListHostRooms(ctx, "host-1", o)
	})
	if want := []livecomment.Room{r, closed, wantLT, wantOld}; !slices.Equal(rooms, want) {
		t.Errorf("ListHostRooms after CreateRoom = %+v\nwant %+v", rooms, want)
	}
	other, _ := listAll(t, func(o ddbkit.PageOptions) (ddbkit.Page[livecomment.Room], error) {
		return s.ListHostRooms(ctx, "host-2", o)
	})
	if len(other) != 1 || other[0].ID != roomOther {
		t.Errorf("ListHostRooms(host-2) = %+v", other)
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// listAll walks a listing in pages of one, two and the default, requires
// the same result from each, and returns the items and the skipped errors
// of one walk.
func listAll[T comparable](t *testing.T, fetch func(ddbkit.PageOptions) (ddbkit.Page[T], error)) ([]T, []error) {
	t.Helper()
	var (
		first   []T
		skipped []error
	)
	for i, limit := range []int{0, 1, 2} {
		var items []T
		var errs []error
		cursor := ""
		for {
			p, err := fetch(ddbkit.PageOptions{Limit: limit, Cursor: cursor})
			if err != nil {
				t.Fatalf("listing (limit %d): %v", limit, err)
			}
			items = append(items, p.Items...)
			errs = append(errs, p.Skipped...)
			if cursor = p.Next; cursor == "" {
				break
			}
		}
		if i == 0 {
			first, skipped = items, errs
		} else if !slices.Equal(items, first) || len(errs) != len(skipped) {
			t.Fatalf("limit %d: %d items, %d skipped; the default page size gave %d and %d", limit, len(items), len(errs), len(first), len(skipped))
		}
	}
	return first, skipped
}

// wantCorrupt checks that err is a *ddbkit.CorruptItemError of the table
// and attribute, matching ErrCorruptItem only.
func wantCorrupt(t *testing.T, what string, err error, table, attr string) {
	t.Helper()
	ddbtest.WantSentinel(t, what, err, ddbkit.ErrCorruptItem)
	var ce *ddbkit.CorruptItemError
	if !errors.As(err, &ce) || ce.Table != table || ce.Attr != attr || ce.Key == "" {
		t.Errorf("%s: %v; want a *ddbkit.CorruptItemError for %s, attribute %s", what, err, table, attr)
	}
}

// scanTable returns every item of table, in the order of its String key
// attributes keyAttrs, byte by byte.
func scanTable(t *testing.T, c *dynamodb.Client, table string, keyAttrs ...string) []map[string]types.AttributeValue {
	t.Helper()
	var items []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		out, err := p.NextPage(t.Context())
		if err != nil {
			t.Fatalf("Scan(%s): %v", table, err)
		}
		items = append(items, out.Items...)
	}
	slices.SortFunc(items, func(a, b map[string]types.AttributeValue) int {
		for _, k := range keyAttrs {
			if c := strings.Compare(a[k].(*types.AttributeValueMemberS).Value, b[k].(*types.AttributeValueMemberS).Value); c != 0 {
				return c
			}
		}
		return 0
	})
	return items
}

// renderItem renders an item canonically, every attribute with its type.
func renderItem(item map[string]types.AttributeValue) string {
	return ddb.AttrString(&types.AttributeValueMemberM{Value: item})
}
