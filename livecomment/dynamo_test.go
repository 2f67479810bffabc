package livecomment_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/keys"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/livecomment/livecommenttest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// newEnv creates the three tables of a fresh environment, named as the seed
// names them, and deletes them when t ends.
func newEnv(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	env := ddbtest.UniqueName("t")
	t.Cleanup(func() { dropEnv(c, env) })
	if _, err := livecomment.EnsureTables(t.Context(), c, env); err != nil {
		t.Fatalf("EnsureTables(%s): %v", env, err)
	}
	return env
}

// dropEnv deletes env's tables.
func dropEnv(c *dynamodb.Client, env string) {
	for _, in := range livecomment.CreateTableInputs(env) {
		// t.Context() is already cancelled when cleanups run.
		_, _ = c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: in.TableName})
	}
}

// newDynamo returns a DynamoStore on fresh tables, talking to DynamoDB Local
// through wrap (the raw client when wrap is nil), the raw client and the
// tables' names.
func newDynamo(t *testing.T, wrap func(ddbkit.Client) ddbkit.Client, opts ...func(*livecomment.Options)) (*livecomment.DynamoStore, *dynamodb.Client, livecomment.TableNames) {
	t.Helper()
	c := ddbtest.Client(t)
	env := newEnv(t, c)
	var client ddbkit.Client = c
	if wrap != nil {
		client = wrap(c)
	}
	opts = append(opts, func(o *livecomment.Options) { o.Env = env })
	return livecomment.NewDynamoStore(client, opts...), c, livecomment.Tables(env)
}

// TestDynamoStore runs the conformance suite on DynamoDB Local, recording
// the IAM grants of every call (iam.json).
func TestDynamoStore(t *testing.T) {
	iamPart(t)
	livecommenttest.Run(t, func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
		s, _, _ := newDynamo(t, iamRec.Wrap, opts...)
		return s
	})
}

// TestDynamoStoreSharded runs the suite on the sharded comment layout, and
// the layout's own cases.
func TestDynamoStoreSharded(t *testing.T) {
	newStore := func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
		s, _, _ := newDynamo(t, nil, opts...)
		return s
	}
	livecommenttest.Run(t, livecommenttest.Sharded(newStore, 4))
	livecommenttest.RunSharded(t, newStore)
}

// TestDynamoStoreRoomCheckCache runs the suite with sharded comments and
// the cached room check, the configuration of a busy room, recording the
// IAM grants of its calls too (PostComment's GetItem on Rooms).
func TestDynamoStoreRoomCheckCache(t *testing.T) {
	iamPart(t)
	livecommenttest.Run(t, livecommenttest.With(func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
		s, _, _ := newDynamo(t, iamRec.Wrap, opts...)
		return s
	}, livecommenttest.Shards(16), livecommenttest.RoomCheckCache(time.Second)))
}

var deterministic = livecommenttest.Deterministic

func S(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func key(attrs ...string) map[string]types.AttributeValue {
	k := map[string]types.AttributeValue{}
	for i := 0; i < len(attrs); i += 2 {
		k[attrs[i]] = S(attrs[i+1])
	}
	return k
}

func rawItem(t *testing.T, c *dynamodb.Client, table string, k map[string]types.AttributeValue) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true), Key: k})
	if err != nil {
		t.Fatalf("GetItem(%s, %v): %v", table, render(k), err)
	}
	return out.Item
}

// render shows each attribute as type:value, so a comparison checks types
// as well as values.
func render(item map[string]types.AttributeValue) map[string]string {
	out := make(map[string]string, len(item))
	for k, v := range item {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			out[k] = "S:" + v.Value
		case *types.AttributeValueMemberN:
			out[k] = "N:" + v.Value
		case *types.AttributeValueMemberBOOL:
			out[k] = fmt.Sprint("BOOL:", v.Value)
		default:
			out[k] = fmt.Sprintf("%T", v)
		}
	}
	return out
}

func checkItem(t *testing.T, got, want map[string]types.AttributeValue) {
	t.Helper()
	if g, w := render(got), render(want); !maps.Equal(g, w) {
		t.Fatalf("raw item:\n got %v\nwant %v", g, w)
	}
	for _, a := range []string{"createdAt", "updatedAt", "timestamp"} {
		if v, ok := got[a].(*types.AttributeValueMemberS); ok {
			if _, err := keys.ParseTimestamp(v.Value); err != nil {
				t.Fatalf("%s %q is not an ISO 8601 UTC timestamp: %v", a, v.Value, err)
			}
		}
	}
}

// TestRawLayout reads back what the DynamoDB store wrote and compares it,
// attribute by attribute and type by type, with the seed's layouts.
func TestRawLayout(t *testing.T) {
	s, c, n := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "Go勉強会", HostID: "host-1"})
	if err != nil {
		t.Fatal(err)
	}
	wantRoom := map[string]types.AttributeValue{
		"roomId": S(r.ID), "name": S("Go勉強会"), "hostId": S("host-1"), "status": S("OPEN"),
		"createdAt": S("2024-01-01T00:00:00.000Z"), "updatedAt": S("2024-01-01T00:00:00.000Z"),
	}
	checkItem(t, rawItem(t, c, n.Rooms, key("roomId", r.ID)), wantRoom)

	cm, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "はじめまして"})
	if err != nil {
		t.Fatal(err)
	}
	checkItem(t, rawItem(t, c, n.Comments, key("roomId", r.ID, "commentId", cm.ID)), map[string]types.AttributeValue{
		"roomId": S(r.ID), "commentId": S(cm.ID), "content": S("はじめまして"), "nickname": S("Anonymous"),
		"createdAt": S("2024-01-01T00:00:00.001Z"),
	})
	// The comment ID is a UUIDv7 whose first 48 bits are createdAt's Unix
	// milliseconds: 1704067200001 = 0x018cc251f401.
	if !strings.HasPrefix(cm.ID, "018cc251-f401-7") {
		t.Fatalf("comment ID %s does not start with createdAt's milliseconds and version 7", cm.ID)
	}

	if _, err := s.JoinRoom(ctx, r.ID, "L0SM9cOFvHcCIhw="); err != nil {
		t.Fatal(err)
	}
	checkItem(t, rawItem(t, c, n.Connections, key("connectionId", "L0SM9cOFvHcCIhw=")), map[string]types.AttributeValue{
		"connectionId": S("L0SM9cOFvHcCIhw="), "roomId": S(r.ID), "timestamp": S("2024-01-01T00:00:00.002Z"),
	})

	if _, err := s.CloseRoom(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	wantRoom["status"], wantRoom["updatedAt"] = S("CLOSED"), S("2024-01-01T00:00:00.003Z")
	checkItem(t, rawItem(t, c, n.Rooms, key("roomId", r.ID)), wantRoom)

	if err := s.Disconnect(ctx, "L0SM9cOFvHcCIhw="); err != nil {
		t.Fatal(err)
	}
	if it := rawItem(t, c, n.Connections, key("connectionId", "L0SM9cOFvHcCIhw=")); it != nil {
		t.Fatalf("connection still there after Disconnect: %v", render(it))
	}
}

// TestSchema checks the three tables EnsureTables creates: names, keys,
// indexes and projections, billing.
func TestSchema(t *testing.T) {
	c := ddbtest.Client(t)
	env := newEnv(t, c)
	if changes, err := livecomment.EnsureTables(t.Context(), c, env); err != nil || len(changes) != 0 { // idempotent
		t.Fatalf("EnsureTables again = %v, %v; want no changes", changes, err)
	}
	type index struct{ name, keys, projection string }
	tests := []struct {
		table   string
		keys    string
		indexes []index
	}{
		{"LiveComment-Rooms-" + env, "roomId:HASH", []index{{"hostId-index", "hostId:HASH createdAt:RANGE", "ALL"}}},
		{"LiveComment-Comments-" + env, "roomId:HASH commentId:RANGE", []index{{"roomId-createdAt-index", "roomId:HASH createdAt:RANGE", "ALL"}}},
		{"LiveComment-Connections-" + env, "connectionId:HASH", []index{{"roomId-index", "roomId:HASH", "ALL"}}},
	}
	keySchema := func(ks []types.KeySchemaElement) string {
		var parts []string
		for _, k := range ks {
			parts = append(parts, aws.ToString(k.AttributeName)+":"+string(k.KeyType))
		}
		return strings.Join(parts, " ")
	}
	for _, tt := range tests {
		out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(tt.table)})
		if err != nil {
			t.Fatalf("DescribeTable(%s): %v", tt.table, err)
		}
		d := out.Table
		if d.TableStatus != types.TableStatusActive {
			t.Fatalf("%s: status %s, want ACTIVE", tt.table, d.TableStatus)
		}
		if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
			t.Fatalf("%s: billing %+v, want PAY_PER_REQUEST", tt.table, d.BillingModeSummary)
		}
		if got := keySchema(d.KeySchema); got != tt.keys {
			t.Fatalf("%s: key schema %s, want %s", tt.table, got, tt.keys)
		}
		for _, a := range d.AttributeDefinitions {
			if a.AttributeType != types.ScalarAttributeTypeS {
				t.Fatalf("%s: attribute %s is %s, want S", tt.table, aws.ToString(a.AttributeName), a.AttributeType)
			}
		}
		var got []index
		for _, g := range d.GlobalSecondaryIndexes {
			got = append(got, index{aws.ToString(g.IndexName), keySchema(g.KeySchema), string(g.Projection.ProjectionType)})
		}
		if !slices.Equal(got, tt.indexes) {
			t.Fatalf("%s: indexes %+v, want %+v", tt.table, got, tt.indexes)
		}
	}
	if _, err := livecomment.EnsureTables(t.Context(), c, "bad env!"); !errors.Is(err, ddbkit.ErrInvalidArgument) {
		t.Fatalf("EnsureTables(bad env) = %v, want ErrInvalidArgument", err)
	}
}

func TestTableNames(t *testing.T) {
	got := livecomment.Tables("prod")
	want := livecomment.TableNames{Rooms: "LiveComment-Rooms-prod", Comments: "LiveComment-Comments-prod", Connections: "LiveComment-Connections-prod"}
	if got != want {
		t.Fatalf("Tables(prod) = %+v, want %+v", got, want)
	}
}

// TestRoundTrips pins the number of DynamoDB calls of each access pattern,
// in the seed's layout and the sharded one, where a post is still one
// TransactWriteItems and a page of comments is one Query of each shard and
// one of the room's unsharded partition, whatever the page size.
func TestRoundTrips(t *testing.T) {
	for _, shards := range []int{0, 4} {
		t.Run(fmt.Sprint(shards, " shards"), func(t *testing.T) { roundTrips(t, shards) })
	}
}

func roundTrips(t *testing.T, shards int) {
	var cc *ddbtest.CountingClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCountingClient(c); return cc },
		deterministic, livecommenttest.Shards(shards))
	perPage := 1
	if shards > 0 {
		perPage = shards + 1
	}
	ctx := t.Context()
	step := func(name string, want map[string]int, fn func() error) {
		t.Helper()
		cc.Reset()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := cc.Counts(); !maps.Equal(got, want) {
			t.Fatalf("%s: calls %v, want %v", name, got, want)
		}
	}
	var r livecomment.Room
	step("CreateRoom", map[string]int{"TransactWriteItems": 1}, func() (err error) {
		r, err = s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
		return err
	})
	step("GetRoom", map[string]int{"GetItem": 1}, func() error { _, err := s.GetRoom(ctx, r.ID); return err })
	for i := range 7 {
		step("PostComment", map[string]int{"TransactWriteItems": 1}, func() error {
			_, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: fmt.Sprint("c", i)})
			return err
		})
	}
	step("a page of comments", map[string]int{"Query": perPage}, func() error {
		p, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{})
		if err == nil && (len(p.Items) != 7 || p.Next != "") {
			t.Fatalf("ListComments: %d comments, next %q", len(p.Items), p.Next)
		}
		return err
	})
	step("three pages of comments", map[string]int{"Query": 3 * perPage}, func() error {
		c := ""
		for range 3 {
			p, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{Limit: 3, Cursor: c})
			if err != nil {
				return err
			}
			c = p.Next
		}
		if c != "" {
			t.Fatalf("a fourth page was announced")
		}
		return nil
	})
	step("ListHostRooms", map[string]int{"Query": 1}, func() error { _, err := s.ListHostRooms(ctx, "host", ddbkit.PageOptions{}); return err })
	for _, id := range []string{"a", "b", "c"} {
		step("JoinRoom", map[string]int{"TransactWriteItems": 1}, func() error { _, err := s.JoinRoom(ctx, r.ID, id); return err })
	}
	step("GetConnection", map[string]int{"GetItem": 1}, func() error { _, err := s.GetConnection(ctx, "a"); return err })
	step("ListConnections", map[string]int{"Query": 1}, func() error {
		_, err := s.ListConnections(ctx, r.ID, ddbkit.PageOptions{})
		return err
	})
	step("Broadcast to 3, one gone", map[string]int{"Query": 1, "DeleteItem": 1}, func() error {
		_, err := livecomment.Broadcast(ctx, s, r.ID, func(_ context.Context, c livecomment.Connection) error {
			if c.ID == "b" {
				return livecomment.ErrGone
			}
			return nil
		})
		return err
	})
	step("Disconnect", map[string]int{"DeleteItem": 1}, func() error { return s.Disconnect(ctx, "a") })
	step("CloseRoom", map[string]int{"UpdateItem": 1}, func() error { _, err := s.CloseRoom(ctx, r.ID); return err })
	step("CloseRoom again", map[string]int{"UpdateItem": 1}, func() error { _, err := s.CloseRoom(ctx, r.ID); return err })
	cc.Reset()
	if _, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "late"}); !errors.Is(err, livecomment.ErrRoomClosed) {
		t.Fatalf("PostComment(closed) = %v", err)
	}
	if got := cc.Counts(); !maps.Equal(got, map[string]int{"TransactWriteItems": 1}) {
		t.Fatalf("a refused post: calls %v, want one TransactWriteItems", got)
	}
}

// TestFaults covers what DynamoDB Local never does by itself: throttling,
// transaction conflicts, 500s and connections that are gone.
func TestFaults(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	stored := func() []livecomment.Comment {
		t.Helper()
		var out []livecomment.Comment
		for c, err := range livecomment.AllComments(ctx, s, r.ID) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
		return out
	}
	var want []livecomment.Comment
	for _, f := range []ddbtest.Fault{ddbtest.Throttle, ddbtest.InternalError, ddbtest.TxConflict} {
		fc.Inject("TransactWriteItems", f, 2)
		before := fc.Injected("TransactWriteItems")
		c, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: f.String()})
		if err != nil || fc.Injected("TransactWriteItems")-before != 2 {
			t.Fatalf("PostComment through 2 × %s = %v (%d injected); want it retried to success", f, err, fc.Injected("TransactWriteItems")-before)
		}
		want = append(want, c)
		if got := stored(); !slices.Equal(got, want) {
			t.Fatalf("after PostComment through %s, comments = %+v, want %+v", f, got, want)
		}
	}

	// Exactly as many faults as attempts (8 by default), so none is left
	// for the next call.
	fc.Inject("TransactWriteItems", ddbtest.InternalError, 8)
	_, err = s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "never"})
	var ise *types.InternalServerError
	if !errors.As(err, &ise) || !strings.HasPrefix(err.Error(), "livecomment: post comment: gave up after 8 attempts") {
		t.Fatalf("PostComment under endless 500s = %v; want a clear error that keeps the *types.InternalServerError", err)
	}
	fc.Inject("TransactWriteItems", ddbtest.Throttle, 8)
	_, err = s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "never"})
	ddbtest.WantSentinel(t, "PostComment under endless throttling", err, ddbkit.ErrUnavailable)
	fc.Inject("TransactWriteItems", ddbtest.TxConflict, 8)
	_, err = s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "never"})
	ddbtest.WantSentinel(t, "PostComment under endless conflicts", err, ddbkit.ErrConflict)
	if errors.Is(err, livecomment.ErrRoomClosed) {
		t.Fatalf("PostComment under endless conflicts = %v; a conflict is not a closed room", err)
	}
	if got := stored(); !slices.Equal(got, want) {
		t.Fatalf("failed posts wrote comments: %+v", got)
	}
}

// TestBroadcastFaults: a send that reports gone deletes the connection; a
// delete that fails is reported, and the connection stays for the next
// broadcast.
func TestBroadcastFaults(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"live", "gone-1", "gone-2"} {
		if _, err := s.JoinRoom(ctx, r.ID, id); err != nil {
			t.Fatal(err)
		}
	}
	send := func(_ context.Context, c livecomment.Connection) error {
		if strings.HasPrefix(c.ID, "gone") {
			return fmt.Errorf("PostToConnection: %w", livecomment.ErrGone)
		}
		return nil
	}
	// A 5xx is retried (deleting twice is harmless), so only a delete that
	// fails every attempt (8 by default) is reported.
	fc.Inject("DeleteItem", ddbtest.InternalError, 8)
	res, err := livecomment.Broadcast(ctx, s, r.ID, send, func(o *livecomment.BroadcastOptions) { o.Concurrency = 1 })
	var ise *types.InternalServerError
	if res != (livecomment.BroadcastResult{Sent: 1, Gone: 2}) || !errors.As(err, &ise) || !strings.Contains(err.Error(), "disconnect gone connection") {
		t.Fatalf("Broadcast with a failing delete = %+v, %v", res, err)
	}
	res, err = livecomment.Broadcast(ctx, s, r.ID, send)
	if res != (livecomment.BroadcastResult{Sent: 1, Gone: 1}) || err != nil {
		t.Fatalf("second Broadcast = %+v, %v; want the connection left behind pruned", res, err)
	}
	p, err := s.ListConnections(ctx, r.ID, ddbkit.PageOptions{})
	if err != nil || len(p.Items) != 1 || p.Items[0].ID != "live" {
		t.Fatalf("connections left: %+v, %v; want only live", p.Items, err)
	}
	// Reads are retried as writes are: only a listing that fails every
	// attempt fails the broadcast.
	fc.Inject("Query", ddbtest.InternalError, 8)
	if _, err := livecomment.Broadcast(ctx, s, r.ID, send); !errors.As(err, &ise) || !strings.HasPrefix(err.Error(), "livecomment: list connections") {
		t.Fatalf("Broadcast with a failing listing = %v", err)
	}
}

// ambiguous500 commits a TransactWriteItems and then reports a 500, as a
// response lost on the way back looks to the client.
type ambiguous500 struct {
	ddbkit.Client
	left int
}

func (a *ambiguous500) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	out, err := a.Client.TransactWriteItems(ctx, in, optFns...)
	if err == nil && a.left > 0 {
		a.left--
		return nil, &types.InternalServerError{Message: aws.String("response lost")}
	}
	return out, err
}

// TestAmbiguousServerError: a post whose transaction committed but whose
// response was a 500 is retried with the same ClientRequestToken, so it
// succeeds, once.
func TestAmbiguousServerError(t *testing.T) {
	amb := &ambiguous500{left: 1}
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { amb.Client = c; return amb }, deterministic)
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "once"})
	if err != nil || amb.left != 0 {
		t.Fatalf("PostComment after a lost response = %v; want success", err)
	}
	p, err := s.ListComments(ctx, r.ID, ddbkit.PageOptions{})
	if err != nil || len(p.Items) != 1 || p.Items[0] != c {
		t.Fatalf("comments = %+v, %v; want exactly %+v", p.Items, err, c)
	}
}

// TestBadInputWritesNothingRaw sends bad input through the DynamoDB store and
// then reads all three tables raw: only the items written before remain,
// unchanged.
func TestBadInputWritesNothingRaw(t *testing.T) {
	s, c, n := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	closed, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "closed", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "keep"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.JoinRoom(ctx, r.ID, "conn"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CloseRoom(ctx, closed.ID); err != nil {
		t.Fatal(err)
	}
	tables := []string{n.Rooms, n.Comments, n.Connections}
	before := map[string]map[string]map[string]types.AttributeValue{}
	for _, tb := range tables {
		before[tb] = scanAll(t, c, tb)
	}

	post := func(room string, in livecomment.NewComment) error { _, err := s.PostComment(ctx, room, in); return err }
	join := func(room, id string) error { _, err := s.JoinRoom(ctx, room, id); return err }
	bad := []struct {
		name string
		err  error
		want error
	}{
		{"empty comment", post(r.ID, livecomment.NewComment{Content: ""}), ddbkit.ErrInvalidArgument},
		{"oversized comment", post(r.ID, livecomment.NewComment{Content: strings.Repeat("長", livecomment.MaxContentLen+1)}), ddbkit.ErrInvalidArgument},
		{"oversized nickname", post(r.ID, livecomment.NewComment{Content: "c", Nickname: strings.Repeat("名", 51)}), ddbkit.ErrInvalidArgument},
		{"unknown room", post("no-such-room", livecomment.NewComment{Content: "c"}), ddbkit.ErrNotFound},
		{"closed room", post(closed.ID, livecomment.NewComment{Content: "c"}), livecomment.ErrRoomClosed},
		{"# in room id", post(r.ID+"#x", livecomment.NewComment{Content: "c"}), ddbkit.ErrInvalidArgument},
		{"empty connection id", join(r.ID, ""), ddbkit.ErrInvalidArgument},
		{"join an unknown room", join("no-such-room", "c2"), ddbkit.ErrNotFound},
		{"join a closed room", join(closed.ID, "c2"), livecomment.ErrRoomClosed},
		{"room without a name", second(s.CreateRoom(ctx, livecomment.NewRoom{HostID: "host"})), ddbkit.ErrInvalidArgument},
		{"room with a bad host", second(s.CreateRoom(ctx, livecomment.NewRoom{Name: "n", HostID: "a b"})), ddbkit.ErrInvalidArgument},
		{"close an unknown room", second(s.CloseRoom(ctx, "no-such-room")), ddbkit.ErrNotFound},
		{"tampered cursor", second(s.ListComments(ctx, r.ID, ddbkit.PageOptions{Cursor: "tampered"})), ddbkit.ErrInvalidCursor},
	}
	for _, b := range bad {
		if !errors.Is(b.err, b.want) || !strings.HasPrefix(b.err.Error(), "livecomment: ") {
			t.Fatalf("%s: %v, want %v", b.name, b.err, b.want)
		}
	}
	for _, tb := range tables {
		after := scanAll(t, c, tb)
		if len(after) != len(before[tb]) {
			t.Fatalf("%s holds %d items after bad input, %d before", tb, len(after), len(before[tb]))
		}
		for k, v := range before[tb] {
			if !maps.Equal(render(after[k]), render(v)) {
				t.Fatalf("%s: item %s changed:\n got %v\nwant %v", tb, k, render(after[k]), render(v))
			}
		}
	}
}

func second[T any](_ T, err error) error { return err }

// scanAll reads every item of a test table, keyed by its rendering. Only
// tests scan; the library never does.
func scanAll(t *testing.T, c *dynamodb.Client, table string) map[string]map[string]types.AttributeValue {
	t.Helper()
	out := map[string]map[string]types.AttributeValue{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			r := render(it)
			out[r["roomId"]+" "+r["commentId"]+" "+r["connectionId"]] = it
		}
	}
	return out
}

// TestIdempotencyKeyAcrossStores: a repeat under the same key from a second
// DynamoStore on the same tables (another process, with generators and a
// clock of its own) returns the first store's result, written once; the
// Comments table holds the key's record in the documented layout. Past
// the window a key is a new request, which DynamoDB Local cannot show: it
// keeps a ClientRequestToken for as long as it runs, so the new request's
// transaction would be refused as a token reuse (see memory_test.go).
func TestIdempotencyKeyAcrossStores(t *testing.T) {
	first, c, n := newDynamo(t, nil)
	env := n.Rooms[len("LiveComment-Rooms-"):]
	other := livecomment.NewDynamoStore(c, func(o *livecomment.Options) { o.Env = env })
	keyed := ddbkit.WithIdempotencyKey(t.Context(), ddbtest.UniqueName("key"))

	in := livecomment.NewRoom{Name: "room", HostID: "host"}
	r, err := first.CreateRoom(keyed, in)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := other.CreateRoom(keyed, in); err != nil || got != r {
		t.Fatalf("CreateRoom repeated by another store = %+v, %v; want %+v", got, err, r)
	}
	cm, err := first.PostComment(keyed, r.ID, livecomment.NewComment{Content: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := other.PostComment(keyed, r.ID, livecomment.NewComment{Content: "hi"}); err != nil || got != cm {
		t.Fatalf("PostComment repeated by another store = %+v, %v; want %+v", got, err, cm)
	}
	conn, err := first.JoinRoom(keyed, r.ID, "conn")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := other.JoinRoom(keyed, r.ID, "conn"); err != nil || got != conn {
		t.Fatalf("JoinRoom repeated by another store = %+v, %v; want %+v", got, err, conn)
	}

	record := regexp.MustCompile(`^S:IDEMPOTENCY#[0-9a-f]{32}$`)
	for table, want := range map[string]int{n.Rooms: 1, n.Comments: 1, n.Connections: 1} {
		items, records := 0, 0
		for _, it := range scanAll(t, c, table) {
			r := render(it)
			pk := r["roomId"]
			if table == n.Connections {
				pk = r["connectionId"]
			}
			if !strings.HasPrefix(pk, "S:IDEMPOTENCY#") {
				items++
				continue
			}
			records++
			if !record.MatchString(pk) || r["fingerprint"] == "" || r["refPK"] == "" || !strings.HasPrefix(r["expiresAt"], "N:") {
				t.Errorf("record in %s = %v; want the documented layout", table, r)
			}
			if table == n.Comments && (r["commentId"] != pk || r["refPK"] != "S:"+cm.RoomID || r["refSK"] != "S:"+cm.ID) {
				t.Errorf("comment's record = %v; want key %s twice, referring to %s/%s", r, pk, cm.RoomID, cm.ID)
			}
		}
		if items != want || records != 1 {
			t.Errorf("%s: %d items and %d records, want %d and 1", table, items, records, want)
		}
	}
}
