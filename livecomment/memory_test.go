package livecomment_test

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/livecomment/livecommenttest"
)

func TestMemoryStore(t *testing.T) {
	livecommenttest.Run(t, func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
		return livecomment.NewMemoryStore(opts...)
	})
}

// TestMemoryImportExport checks what the legacy fixture does not: an
// imported item replaces the one of its key, index entries included; items
// without an index's key attributes are left out of it, as DynamoDB leaves
// them out; Export and Import copy, so neither side sees the other's later
// changes; and the store's own writes export in DynamoStore's layout.
func TestMemoryImportExport(t *testing.T) {
	ctx := t.Context()
	n := livecomment.Tables("dev")
	s := livecomment.NewMemoryStore(livecommenttest.Deterministic)
	room := map[string]types.AttributeValue{"roomId": S("r1"), "name": S("one"), "hostId": S("h1"), "status": S("OPEN"),
		"createdAt": S("2024-01-05T10:00:00Z"), "extra": &types.AttributeValueMemberN{Value: "7"}}
	noHost := map[string]types.AttributeValue{"roomId": S("r2"), "name": S("two"), "status": S("OPEN"), "createdAt": S("2024-01-05T11:00:00Z")}
	numHost := map[string]types.AttributeValue{"roomId": S("r3"), "hostId": &types.AttributeValueMemberN{Value: "1"}, "createdAt": S("2024-01-05T12:00:00Z")}
	conn := map[string]types.AttributeValue{"connectionId": S("c1"), "roomId": S("r1"), "timestamp": S("2024-01-05T10:00:00Z")}
	if err := s.Import(ddbkit.TableItems{n.Rooms: {room, noHost, numHost}, n.Connections: {conn}}); err != nil {
		t.Fatalf("Import: %v", err)
	}
	room["name"].(*types.AttributeValueMemberS).Value = "changed by the caller"
	if r, err := s.GetRoom(ctx, "r1"); err != nil || r.Name != "one" {
		t.Errorf("GetRoom(r1) = %+v, %v; want the name as imported", r, err)
	}
	if r, err := s.GetRoom(ctx, "r3"); err != nil || r.HostID != "1" {
		t.Errorf("GetRoom(r3) = %+v, %v; want host \"1\", read from a Number as DynamoStore reads it", r, err)
	}
	hostRooms := func(host string) []string {
		t.Helper()
		p, err := s.ListHostRooms(ctx, host, ddbkit.PageOptions{})
		if err != nil {
			t.Fatalf("ListHostRooms(%s): %v", host, err)
		}
		var ids []string
		for _, r := range p.Items {
			ids = append(ids, r.ID)
		}
		return ids
	}
	if got := hostRooms("h1"); !slices.Equal(got, []string{"r1"}) {
		t.Errorf("ListHostRooms(h1) = %v; want [r1], the rooms without a String hostId in no index", got)
	}
	if got := hostRooms("1"); len(got) != 0 {
		t.Errorf("ListHostRooms(1) = %v; want none: a Number hostId is not in hostId-index", got)
	}

	// Replacing moves the index entries.
	moved := map[string]types.AttributeValue{"roomId": S("r1"), "name": S("one"), "hostId": S("h2"), "status": S("OPEN"), "createdAt": S("2024-01-05T10:00:00Z")}
	movedConn := map[string]types.AttributeValue{"connectionId": S("c1"), "roomId": S("r2")}
	if err := s.Import(ddbkit.TableItems{n.Rooms: {moved}, n.Connections: {movedConn}}); err != nil {
		t.Fatalf("Import (replacing): %v", err)
	}
	if got, got2 := hostRooms("h1"), hostRooms("h2"); len(got) != 0 || !slices.Equal(got2, []string{"r1"}) {
		t.Errorf("after replacing, ListHostRooms(h1) = %v, (h2) = %v; want [] and [r1]", got, got2)
	}
	for roomID, want := range map[string]int{"r1": 0, "r2": 1} {
		if p, err := s.ListConnections(ctx, roomID, ddbkit.PageOptions{}); err != nil || len(p.Items) != want {
			t.Errorf("ListConnections(%s) = %+v, %v; want %d", roomID, p.Items, err, want)
		}
	}

	// The store's own writes, and an update of an imported item, export as
	// DynamoStore writes them.
	closed, err := s.CloseRoom(ctx, "r2")
	if err != nil {
		t.Fatalf("CloseRoom: %v", err)
	}
	c, err := s.PostComment(ctx, "r1", livecomment.NewComment{Content: "hi"})
	if err != nil {
		t.Fatalf("PostComment: %v", err)
	}
	out := s.Export()
	stamp := func(v time.Time) string { return v.Format("2006-01-02T15:04:05.000Z") }
	want := map[string][]map[string]string{
		n.Rooms: {
			{"roomId": "S:r1", "name": "S:one", "hostId": "S:h2", "status": "S:OPEN", "createdAt": "S:2024-01-05T10:00:00Z"},
			{"roomId": "S:r2", "name": "S:two", "status": "S:CLOSED", "createdAt": "S:2024-01-05T11:00:00Z", "updatedAt": "S:" + stamp(closed.UpdatedAt)},
			{"roomId": "S:r3", "hostId": "N:1", "createdAt": "S:2024-01-05T12:00:00Z"},
		},
		n.Comments: {
			{"roomId": "S:r1", "commentId": "S:" + c.ID, "content": "S:hi", "nickname": "S:Anonymous", "createdAt": "S:" + stamp(c.CreatedAt)},
		},
		n.Connections: {{"connectionId": "S:c1", "roomId": "S:r2"}},
	}
	if len(out) != 3 {
		t.Errorf("Export has tables %v; want the three of the environment", slices.Collect(maps.Keys(out)))
	}
	for table, items := range want {
		if len(out[table]) != len(items) {
			t.Errorf("Export()[%s] has %d items, want %d", table, len(out[table]), len(items))
			continue
		}
		for i, w := range items {
			if got := render(out[table][i]); !maps.Equal(got, w) {
				t.Errorf("Export()[%s][%d] = %v\nwant %v", table, i, got, w)
			}
		}
	}
	out[n.Rooms][0]["name"].(*types.AttributeValueMemberS).Value = "changed by the caller"
	if r, _ := s.GetRoom(ctx, "r1"); r.Name != "one" || render(s.Export()[n.Rooms][0])["name"] != "S:one" {
		t.Errorf("a change to an exported item reached the store: %+v", r)
	}
}
