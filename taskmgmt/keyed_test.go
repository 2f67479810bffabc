package taskmgmt_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// keyedInvitationCalls invites, accepts and revokes under idempotency
// keys, each twice: the calls whose records must stay out of the
// invitation table's stream.
func keyedInvitationCalls(t *testing.T, s taskmgmt.Store) {
	t.Helper()
	inviteFixture(t, s)
	key := func(name string) context.Context {
		return ddbkit.WithIdempotencyKey(t.Context(), name+"-"+ddbkit.NewUUIDv4())
	}
	ctx := key("invite")
	a := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	if again := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"})); again != a {
		t.Fatalf("Invite repeated: %+v, want %+v", again, a)
	}
	ctx = key("accept")
	for range 2 {
		must[taskmgmt.Member](t)(s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: "id01", InvitationID: a.ID, Token: a.Token}))
	}
	b := must[taskmgmt.Invitation](t)(s.Invite(key("invite"), "id01", "u1", taskmgmt.NewInvitation{Email: "dave@example.com"}))
	ctx = key("revoke")
	for range 2 {
		if err := s.RevokeInvitation(ctx, "id01", "u1", b.ID); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMemoryStreamKeyed: the idempotency records of keyed invitation
// calls live in the task table, so the invitation table's stream
// (TakeStream) carries the invitations only, as DynamoDB's does.
func TestMemoryStreamKeyed(t *testing.T) {
	s := taskmgmt.NewMemoryStore(deterministic)
	keyedInvitationCalls(t, s)
	var got []string
	for _, r := range s.TakeStream().Records {
		got = append(got, r.EventName+" "+r.Change.Keys["PK"].String()+" "+r.Change.Keys["SK"].String())
	}
	want := []string{"INSERT TEAM#id01 TINVITE#id02", "REMOVE TEAM#id01 TINVITE#id02", "INSERT TEAM#id01 TINVITE#id03", "REMOVE TEAM#id01 TINVITE#id03"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("stream\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	items := s.Export()
	if n := len(items[taskmgmt.DefaultInvitationTableName]); n != 0 {
		t.Fatalf("%d items left in the invitation table, want none", n)
	}
	records := 0
	for _, it := range items[taskmgmt.DefaultTableName] {
		if pk := it["PK"].(*types.AttributeValueMemberS).Value; strings.HasPrefix(pk, "IDEMPOTENCY#") {
			records++
		}
	}
	if records != 4 {
		t.Fatalf("%d idempotency records in the task table, want 4 (two invites, an acceptance, a revocation)", records)
	}
	// An Export holding records imports again.
	other := taskmgmt.NewMemoryStore()
	if err := other.Import(items); err != nil {
		t.Fatalf("Import of an Export with idempotency records: %v", err)
	}
}

// TestDynamoStreamKeyed: on DynamoDB too, keyed invitation calls write no
// record to the invitation table, whose stream feeds the mails.
func TestDynamoStreamKeyed(t *testing.T) {
	s, c, table, invTable := newDynamoInv(t, nil, deterministic)
	keyedInvitationCalls(t, s)
	count := func(name string) (items, records int) {
		out, err := c.Scan(t.Context(), &dynamodb.ScanInput{TableName: aws.String(name), ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			if pk := it["PK"].(*types.AttributeValueMemberS).Value; strings.HasPrefix(pk, "IDEMPOTENCY#") {
				records++
			}
		}
		return len(out.Items), records
	}
	if n, r := count(invTable); n != 0 || r != 0 {
		t.Fatalf("the invitation table holds %d items (%d records), want none", n, r)
	}
	if _, r := count(table); r != 4 {
		t.Fatalf("the task table holds %d idempotency records, want 4", r)
	}
}

// TestStreamHandlerSkipsRecords: an INSERT whose key is an idempotency
// record's is never mailed, whatever its image says (ddbkit writes none
// to the invitation table; another writer might).
func TestStreamHandlerSkipsRecords(t *testing.T) {
	s := taskmgmt.NewMemoryStore(deterministic)
	inviteFixture(t, s)
	must[taskmgmt.Invitation](t)(s.Invite(t.Context(), "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	ev := s.TakeStream()
	if len(ev.Records) != 1 {
		t.Fatalf("%d records, want 1", len(ev.Records))
	}
	// The same image under an idempotency record's key.
	r := ev.Records[0]
	forged := r
	forged.Change.Keys = map[string]events.DynamoDBAttributeValue{
		"PK": events.NewStringAttribute("IDEMPOTENCY#0123"), "SK": events.NewStringAttribute("IDEMPOTENCY#0123")}
	forged.Change.SequenceNumber = "0"
	m := &recordingMailer{}
	var skipped []taskmgmt.SkippedRecord
	h := taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return start }, OnSkip: func(r taskmgmt.SkippedRecord) { skipped = append(skipped, r) }}
	resp, err := h.Handle(t.Context(), events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{forged}})
	if err != nil || len(resp.BatchItemFailures) != 0 || len(m.mailed) != 0 || len(skipped) != 0 {
		t.Fatalf("a record's INSERT: %+v, %v; mailed %d, skipped %d; want it ignored", resp, err, len(m.mailed), len(skipped))
	}
	if _, err := h.Handle(t.Context(), ev); err != nil || len(m.mailed) != 1 {
		t.Fatalf("the invitation's INSERT: %v, mailed %d, want 1", err, len(m.mailed))
	}
}

// TestDynamoKeyedSecondStore: a repeat from another process (a second
// DynamoStore on the same tables) returns the first call's result.
func TestDynamoKeyedSecondStore(t *testing.T) {
	s, c, table, invTable := newDynamoInv(t, nil, deterministic)
	inviteFixture(t, s)
	// Its IDs would repeat the first store's: a repeat that made one
	// would fail.
	other := taskmgmt.NewDynamoStore(c, deterministic, func(o *taskmgmt.Options) { o.TableName, o.InvitationTableName = table, invTable })
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "second-store-"+ddbkit.NewUUIDv4())
	in := taskmgmt.NewTask{Title: "x", Start: "2025-11-10", End: "2025-11-11"}
	const teamID = "id01"
	first := must[taskmgmt.Task](t)(s.CreateTask(ctx, teamID, in))
	again := must[taskmgmt.Task](t)(other.CreateTask(ctx, teamID, in))
	if again.ID != first.ID {
		t.Fatalf("the second store's repeat made task %s, want the first's %s", again.ID, first.ID)
	}
	if n := must[taskmgmt.Counts](t)(other.GetCounts(t.Context(), teamID)); n.Todo != 1 {
		t.Fatalf("counts %+v, want one task", n)
	}
	ctx = ddbkit.WithIdempotencyKey(t.Context(), "second-store-invite-"+ddbkit.NewUUIDv4())
	inv := must[taskmgmt.Invitation](t)(s.Invite(ctx, teamID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	if again := must[taskmgmt.Invitation](t)(other.Invite(ctx, teamID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"})); again != inv {
		t.Fatalf("the second store's Invite: %+v, want %+v", again, inv)
	}
}

// TestModelJSON: the model types marshal to the documented names.
func TestModelJSON(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{taskmgmt.User{ID: "u1", Email: "a@example.com", Name: "alice", CreatedAt: "2025-11-10"},
			`{"id":"u1","email":"a@example.com","name":"alice","createdAt":"2025-11-10"}`},
		{taskmgmt.Team{ID: "t1", Name: "team", Description: "d"}, `{"id":"t1","name":"team","description":"d"}`},
		{taskmgmt.Member{TeamID: "t1", UserID: "u1", UserName: "alice", Role: taskmgmt.RoleAdmin, JoinedAt: "2025-11-10"},
			`{"teamId":"t1","userId":"u1","userName":"alice","role":"admin","joinedAt":"2025-11-10"}`},
		{taskmgmt.Membership{UserID: "u1", TeamID: "t1", TeamName: "team", Role: taskmgmt.RoleMember, JoinedAt: "2025-11-10"},
			`{"userId":"u1","teamId":"t1","teamName":"team","role":"member","joinedAt":"2025-11-10"}`},
		{taskmgmt.Tag{ID: "g1", TeamID: "t1", Name: "backend", Color: taskmgmt.Color{Color: "#fff", BackgroundColor: "#000"}},
			`{"id":"g1","teamId":"t1","name":"backend","color":{"color":"#fff","backgroundColor":"#000"}}`},
		{taskmgmt.Task{ID: "k1", TeamID: "t1", Title: "deploy", Status: taskmgmt.StatusTodo, Start: "2025-11-05", End: "2025-12-05", TagIDs: []string{"g1"}},
			`{"id":"k1","teamId":"t1","title":"deploy","status":"todo","startTime":"2025-11-05","endTime":"2025-12-05","tagIds":["g1"]}`},
		{taskmgmt.Task{ID: "k2", TeamID: "t1", Title: "other writer's", Description: "d", Status: taskmgmt.StatusDone},
			`{"id":"k2","teamId":"t1","title":"other writer's","description":"d","status":"done"}`},
		{taskmgmt.DailyCount{Date: "2025-11-10", Counts: taskmgmt.Counts{Todo: 1, Doing: 2, Done: 3}, ExpiresAt: time.Unix(1768227600, 0).UTC()},
			`{"date":"2025-11-10","todo":1,"doing":2,"done":3,"expiresAt":"2026-01-12T14:20:00Z"}`},
		{taskmgmt.CounterReport{Was: taskmgmt.Counts{Todo: 1}, Counts: taskmgmt.Counts{Todo: 2}, Drift: true, Checked: 2},
			`{"was":{"todo":1,"doing":0,"done":0},"counts":{"todo":2,"doing":0,"done":0},"drift":true,"checked":2}`},
		{taskmgmt.Invitation{ID: "i1", TeamID: "t1", TeamName: "team", Email: "c@example.com", Role: taskmgmt.RoleMember, InvitedBy: "u1",
			CreatedAt: time.Unix(1768141200, 0).UTC(), ExpiresAt: time.Unix(1768227600, 0).UTC()},
			`{"id":"i1","teamId":"t1","teamName":"team","email":"c@example.com","role":"member","invitedBy":"u1","createdAt":"2026-01-11T14:20:00Z","expiresAt":"2026-01-12T14:20:00Z"}`},
	} {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.want {
			t.Errorf("%T: %s, %v\nwant %s", tt.v, b, err, tt.want)
		}
	}
}
