package taskmgmt_test

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/schema"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// inviteFixture makes admin u1 of team id01, member u2 and user u3.
func inviteFixture(t *testing.T, s taskmgmt.Store) {
	t.Helper()
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "alice"}))
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "bob@example.com", Name: "bob"}))
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u3", Email: "carol@example.com", Name: "carol"}))
	must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "タスク管理 APP 開発チーム"}))
	must[taskmgmt.Member](t)(s.AddMember(ctx, "id01", "u1", "u2", taskmgmt.RoleMember))
}

// TestInvitationRawLayout reads back the invitation the store wrote and
// the membership an acceptance wrote, attribute by attribute.
func TestInvitationRawLayout(t *testing.T) {
	s, c, table, invTable := newDynamoInv(t, nil, deterministic)
	inviteFixture(t, s)
	ctx := t.Context()
	inv := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"})) // id02
	created := start.Unix()
	checkItem(t, "invitation", rawItem(t, c, invTable, "TEAM#id01", "TINVITE#id02"), item{
		"PK": S("TEAM#id01"), "SK": S("TINVITE#id02"), "type": S("invitation"), "email": S("carol@example.com"),
		"user_role": S("member"), "createdAt": N(created), "expiresAt": N(created + 24*60*60), "invitedBy": S("USER#u1"),
		"token": S(inv.Token), "team_name": S("タスク管理 APP 開発チーム")})
	must[taskmgmt.Member](t)(s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: "id01", InvitationID: inv.ID, Token: inv.Token}))
	if it := rawItem(t, c, invTable, "TEAM#id01", "TINVITE#id02"); it != nil {
		t.Fatalf("accepted invitation still there: %v", render(it))
	}
	checkItem(t, "user_team", rawItem(t, c, table, "USER#u3", "TEAM#id01"), item{"PK": S("USER#u3"), "SK": S("TEAM#id01"), "type": S("user_team"),
		"user_team_role": S("member"), "user_team_joinedAt": S("2025-11-10"), "team_name": S("タスク管理 APP 開発チーム")})
	checkItem(t, "team_user", rawItem(t, c, table, "TEAM#id01", "USER#u3"), item{"PK": S("TEAM#id01"), "SK": S("USER#u3"), "type": S("team_user"),
		"user_team_role": S("member"), "user_team_joinedAt": S("2025-11-10"), "user_name": S("carol")})
}

func invitationOps(s taskmgmt.Store, inv *taskmgmt.Invitation) map[string]func(ctx context.Context) error {
	return map[string]func(ctx context.Context) error{
		"Invite": func(ctx context.Context) error {
			_, err := s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "x@example.com"})
			return err
		},
		"GetInvitation": func(ctx context.Context) error { _, err := s.GetInvitation(ctx, "id01", inv.ID); return err },
		"ListInvitations": func(ctx context.Context) error {
			_, err := s.ListInvitations(ctx, "id01", ddbkit.PageOptions{})
			return err
		},
		"AcceptInvitation": func(ctx context.Context) error {
			_, err := s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: "id01", InvitationID: inv.ID, Token: inv.Token})
			return err
		},
		"RevokeInvitation": func(ctx context.Context) error { return s.RevokeInvitation(ctx, "id01", "u1", inv.ID) },
	}
}

// TestInvitationErrorContract: every invitation operation under endless
// throttling, endless 5xx and a cancelled context fails with exactly
// ErrUnavailable.
func TestInvitationErrorContract(t *testing.T) {
	fast := func(o *taskmgmt.Options) {
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
	}
	var fc *ddbtest.FaultClient
	s, _, _, _ := newDynamoInv(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic, fast)
	inviteFixture(t, s)
	inv := must[taskmgmt.Invitation](t)(s.Invite(t.Context(), "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for name, call := range invitationOps(s, &inv) {
		for _, fault := range []ddbtest.Fault{ddbtest.Throttle, ddbtest.InternalError} {
			for _, op := range clientOps {
				fc.Inject(op, fault, 1000)
			}
			ddbtest.WantSentinel(t, name+" under endless "+fault.String(), call(t.Context()), ddbkit.ErrUnavailable)
			fc.Clear()
		}
		err := call(cancelled)
		ddbtest.WantSentinel(t, name+" under a cancelled context", err, ddbkit.ErrUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v does not match context.Canceled", name, err)
		}
	}
}

// TestInvitationFaults loses the answers of the invitation writes and
// makes the acceptance conflict and throttle: each write takes effect
// once.
func TestInvitationFaults(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, table, _ := newDynamoInv(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	inviteFixture(t, s)
	ctx := t.Context()
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	inv := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	if n := len(must[ddbkit.Page[taskmgmt.Invitation]](t)(s.ListInvitations(ctx, "id01", ddbkit.PageOptions{})).Items); n != 1 {
		t.Fatalf("%d invitations after a lost answer, want 1", n)
	}
	a := taskmgmt.Acceptance{TeamID: "id01", InvitationID: inv.ID, Token: inv.Token}
	fc.Inject("TransactWriteItems", ddbtest.TxConflict, 2)
	fc.Inject("TransactWriteItems", ddbtest.Throttle, 1)
	fc.Inject("TransactWriteItems", ddbtest.InternalError, 1)
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	m := must[taskmgmt.Member](t)(s.AcceptInvitation(ctx, "u3", a))
	if m.UserID != "u3" || m.Role != taskmgmt.RoleMember {
		t.Fatalf("member = %+v", m)
	}
	members := must[ddbkit.Page[taskmgmt.Member]](t)(s.ListMembers(ctx, "id01", ddbkit.PageOptions{}))
	if len(members.Items) != 3 {
		t.Fatalf("members after a faulty acceptance: %+v", members.Items)
	}
	_, err := s.AcceptInvitation(ctx, "u3", a)
	ddbtest.WantSentinel(t, "accepting again", err, ddbkit.ErrNotFound)

	// Conflicts without end: ErrConflict, and nothing written.
	inv = must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "dave@example.com"}))
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u4", Email: "dave@example.com", Name: "dave"}))
	fc.Inject("TransactWriteItems", ddbtest.TxConflict, 1000)
	_, err = s.AcceptInvitation(ctx, "u4", taskmgmt.Acceptance{TeamID: "id01", InvitationID: inv.ID, Token: inv.Token})
	ddbtest.WantSentinel(t, "accepting under endless conflicts", err, ddbkit.ErrConflict)
	fc.Clear()
	must[taskmgmt.Invitation](t)(s.GetInvitation(ctx, "id01", inv.ID))
	if p := must[ddbkit.Page[taskmgmt.Membership]](t)(s.ListUserTeams(ctx, "u4", ddbkit.PageOptions{})); len(p.Items) != 0 {
		t.Fatalf("u4's teams after a failed acceptance: %+v", p.Items)
	}

	// Another writer demotes the inviter between Invite's read and its
	// transaction: the admin check in the transaction refuses.
	other := taskmgmt.NewDynamoStore(ddbtest.Client(t), func(o *taskmgmt.Options) { o.TableName = table })
	must[taskmgmt.Member](t)(s.SetRole(ctx, "id01", "u1", "u2", taskmgmt.RoleAdmin))
	fc.Before("TransactWriteItems", func() {
		if _, err := other.SetRole(ctx, "id01", "u1", "u2", taskmgmt.RoleMember); err != nil {
			t.Errorf("other writer: %v", err)
		}
	})
	_, err = s.Invite(ctx, "id01", "u2", taskmgmt.NewInvitation{Email: "eve@example.com"})
	ddbtest.WantSentinel(t, "Invite by an admin demoted meanwhile", err, ddbkit.ErrPermissionDenied)

	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	if err := s.RevokeInvitation(ctx, "id01", "u1", inv.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.GetInvitation(ctx, "id01", inv.ID)
	ddbtest.WantSentinel(t, "revoked", err, ddbkit.ErrNotFound)
}

// TestInvitationRoundTrips pins the calls of the invitation operations.
func TestInvitationRoundTrips(t *testing.T) {
	var cc *ddbtest.CountingClient
	s, _, _, _ := newDynamoInv(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCountingClient(c); return cc }, deterministic)
	inviteFixture(t, s)
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
	var inv taskmgmt.Invitation
	step("Invite: the team, the earlier invitations, one transaction", map[string]int{"GetItem": 1, "Query": 1, "TransactWriteItems": 1}, func() (err error) {
		inv, err = s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"})
		return err
	})
	step("seed AP2 GetInvitation", map[string]int{"GetItem": 1}, func() error { _, err := s.GetInvitation(ctx, "id01", inv.ID); return err })
	step("seed AP1 ListInvitations", map[string]int{"Query": 1}, func() error {
		_, err := s.ListInvitations(ctx, "id01", ddbkit.PageOptions{})
		return err
	})
	step("AcceptInvitation: the invitation, the user, one transaction", map[string]int{"GetItem": 2, "TransactWriteItems": 1}, func() error {
		_, err := s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: "id01", InvitationID: inv.ID, Token: inv.Token})
		return err
	})
	inv = must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "dave@example.com"}))
	step("RevokeInvitation: one transaction", map[string]int{"TransactWriteItems": 1}, func() error {
		return s.RevokeInvitation(ctx, "id01", "u1", inv.ID)
	})
}

// TestInvitationLegacy puts the seed's invitation items raw into a table
// made as the seed's app has it (no TTL, no stream), runs
// EnsureInvitationTable (with schema.Apply), and reads them through both
// access patterns.
func TestInvitationLegacy(t *testing.T) {
	c := ddbtest.Client(t)
	in := taskmgmt.CreateInvitationTableInput("task-table-invitation-v3")
	in.StreamSpecification = nil
	invTable := ddbtest.NewTable(t, c, in)
	mainTable := ddbtest.NewTable(t, c, taskmgmt.CreateTableInput("task-table-v3"))
	// The seed's example: createdAt 1768141200 (2026-01-11 14:20 UTC),
	// expiresAt 1768227600, a day later.
	now := time.Unix(1768141200+3600, 0)
	for _, it := range []item{
		rawTeam("t1", "チーム"), rawUser("u1", "alice"), rawUser("u5", "erin"),
	} {
		putRaw(t, c, mainTable, it)
	}
	for _, it := range rawMembership("u1", "alice", "t1", "チーム", "admin") {
		putRaw(t, c, mainTable, it)
	}
	for _, it := range legacyInvitations() {
		putRaw(t, c, invTable, it)
	}
	// The table is the app's (its stack's): verified, the missing stream
	// is a mismatch and nothing changes; schema.Apply enables the stream
	// and TTL.
	if _, err := taskmgmt.EnsureInvitationTable(t.Context(), c, invTable); !errors.Is(err, ddbkit.ErrSchemaMismatch) {
		t.Fatalf("EnsureInvitationTable without schema.Apply = %v, want ErrSchemaMismatch", err)
	}
	changes, err := taskmgmt.EnsureInvitationTable(t.Context(), c, invTable, schema.Apply)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, ch := range changes {
		actions = append(actions, ch.Action+" "+ch.Detail)
	}
	if len(changes) != 2 || changes[0].Action != schema.ActionEnableStream || changes[0].Detail != "NEW_IMAGE" || changes[1].Action != schema.ActionEnableTTL {
		t.Fatalf("EnsureInvitationTable made %v, want the NEW_IMAGE stream and TTL", actions)
	}
	if again, err := taskmgmt.EnsureInvitationTable(t.Context(), c, invTable); err != nil || len(again) != 0 {
		t.Fatalf("EnsureInvitationTable again: %v, %v", again, err)
	}
	stopTTL(t, c, invTable)
	s := taskmgmt.NewDynamoStore(c, func(o *taskmgmt.Options) {
		o.TableName, o.InvitationTableName = mainTable, invTable
		o.Clock = func() time.Time { return now }
	})
	checkInvitationLegacy(t, s, true)
	out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(invTable)})
	if err != nil || out.Table.StreamSpecification == nil || out.Table.StreamSpecification.StreamViewType != types.StreamViewTypeNewImage {
		t.Fatalf("stream after EnsureInvitationTable: %+v, %v", out.Table.StreamSpecification, err)
	}
}

// TestInvitationLegacyMemory imports the items TestInvitationLegacy puts
// into a memory store and runs the same reads and writes on it. The
// corrupt invitation cannot be imported.
func TestInvitationLegacyMemory(t *testing.T) {
	const mainTable, invTable = "task-table-v3", "task-table-invitation-v3"
	now := time.Unix(1768141200+3600, 0)
	s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) { o.Clock = func() time.Time { return now } })
	main := []item{rawTeam("t1", "チーム"), rawUser("u1", "alice"), rawUser("u5", "erin")}
	main = append(main, rawMembership("u1", "alice", "t1", "チーム", "admin")...)
	err := s.Import(ddbkit.TableItems{mainTable: main, invTable: legacyInvitations()})
	ddbtest.WantSentinel(t, "Import with the corrupt invitation", err, ddbkit.ErrCorruptItem)
	var ce *ddbkit.CorruptItemError
	if !errors.As(err, &ce) || ce.Table != invTable || ce.Attr != "user_role" {
		t.Fatalf("Import error %v does not name the invitation table and user_role", err)
	}
	for table, items := range s.Export() {
		if len(items) != 0 {
			t.Fatalf("a failed Import imported %d items of %s", len(items), table)
		}
	}
	if err := s.Import(ddbkit.TableItems{"task-table-v2": main}); !errors.Is(err, ddbkit.ErrInvalidArgument) {
		t.Fatalf("Import into a table the store does not have: %v, want ErrInvalidArgument", err)
	}
	good := legacyInvitations()[:3]
	if err := s.Import(ddbkit.TableItems{mainTable: main, invTable: good}); err != nil {
		t.Fatal(err)
	}
	if ev := s.TakeStream(); len(ev.Records) != 0 {
		t.Fatalf("Import wrote %d stream records, want none", len(ev.Records))
	}
	// Export gives the items back exactly as they were put, the other
	// writer's one (without createdAt and team_name, an inviter without
	// USER#) included, as DynamoDB keeps them.
	exported := s.Export()[invTable]
	if len(exported) != 3 {
		t.Fatalf("exported %d invitations, want 3", len(exported))
	}
	for i, j := range []int{2, 0, 1} { // key order
		checkItem(t, "exported invitation", exported[i], good[j])
	}
	checkInvitationLegacy(t, s, false)
}

// legacyInvitations are the seed's invitation items and those of another
// writer, the corrupt one last.
func legacyInvitations() []item {
	return []item{
		{"PK": S("TEAM#t1"), "SK": S("TINVITE#0194a5b2-7c00-7000-8000-000000000001"), "type": S("invitation"), "email": S("alice-at-example.com"),
			"user_role": S("admin"), "createdAt": N(1768141200), "expiresAt": N(1768227600), "invitedBy": S("USER#u1"), "token": S("ramdom"),
			"team_name": S("招待時点でのチーム名称")},
		// Another writer: no createdAt, an inviter without USER#, no team_name.
		{"PK": S("TEAM#t1"), "SK": S("TINVITE#0194a5b2-7c00-7000-8000-000000000002"), "type": S("invitation"), "email": S("erin@example.com"),
			"user_role": S("member"), "expiresAt": N(1768227600 + 60), "invitedBy": S("u1"), "token": S("another-token")},
		// Expired, not yet deleted by TTL.
		{"PK": S("TEAM#t1"), "SK": S("TINVITE#0194a5b2-7c00-7000-8000-000000000000"), "type": S("invitation"), "email": S("old@example.com"),
			"user_role": S("member"), "createdAt": N(1768000000), "expiresAt": N(1768086400), "invitedBy": S("USER#u1"), "token": S("t")},
		// Corrupt: an unknown role.
		{"PK": S("TEAM#t1"), "SK": S("TINVITE#0194a5b2-7c00-7000-8000-000000000003"), "type": S("invitation"), "email": S("x@example.com"),
			"user_role": S("owner"), "createdAt": N(1768141200), "expiresAt": N(1768227600), "invitedBy": S("USER#u1"), "token": S("t")},
	}
}

// checkInvitationLegacy reads and writes legacyInvitations (without the
// corrupt one unless corrupt) through s, at an hour after the seed's
// createdAt.
func checkInvitationLegacy(t *testing.T, s taskmgmt.Store, corrupt bool) {
	ctx := t.Context()
	p := must[ddbkit.Page[taskmgmt.Invitation]](t)(s.ListInvitations(ctx, "t1", ddbkit.PageOptions{}))
	want := []taskmgmt.Invitation{
		{ID: "0194a5b2-7c00-7000-8000-000000000002", TeamID: "t1", Email: "erin@example.com", Role: taskmgmt.RoleMember, InvitedBy: "u1",
			ExpiresAt: time.Unix(1768227600+60, 0).UTC()},
		{ID: "0194a5b2-7c00-7000-8000-000000000001", TeamID: "t1", TeamName: "招待時点でのチーム名称", Email: "alice-at-example.com", Role: taskmgmt.RoleAdmin,
			InvitedBy: "u1", CreatedAt: time.Unix(1768141200, 0).UTC(), ExpiresAt: time.Unix(1768227600, 0).UTC()},
	}
	if len(p.Items) != 2 || p.Items[0] != want[0] || p.Items[1] != want[1] {
		t.Fatalf("seed AP1:\n got %+v\nwant %+v", p.Items, want)
	}
	if corrupt && (len(p.Skipped) != 1 || !errors.Is(p.Skipped[0], ddbkit.ErrCorruptItem)) {
		t.Fatalf("skipped = %v, want the corrupt invitation", p.Skipped)
	}
	if got := must[taskmgmt.Invitation](t)(s.GetInvitation(ctx, "t1", want[1].ID)); got != want[1] {
		t.Fatalf("seed AP2: %+v", got)
	}
	_, err := s.GetInvitation(ctx, "t1", "0194a5b2-7c00-7000-8000-000000000003")
	if corrupt {
		ddbtest.WantSentinel(t, "GetInvitation of the corrupt one", err, ddbkit.ErrCorruptItem)
		var ce *ddbkit.CorruptItemError
		if !errors.As(err, &ce) || ce.Attr != "user_role" {
			t.Fatalf("%v does not name user_role", err)
		}
	} else {
		ddbtest.WantSentinel(t, "GetInvitation of the one not imported", err, ddbkit.ErrNotFound)
	}
	_, err = s.GetInvitation(ctx, "t1", "0194a5b2-7c00-7000-8000-000000000000")
	ddbtest.WantSentinel(t, "GetInvitation of the expired one", err, ddbkit.ErrNotFound)

	// The other writer's token, accepted; the membership takes the
	// team's name.
	m := must[taskmgmt.Member](t)(s.AcceptInvitation(ctx, "u5", taskmgmt.Acceptance{TeamID: "t1", InvitationID: want[0].ID, Token: "another-token"}))
	if m.Role != taskmgmt.RoleMember || m.UserName != "erin" {
		t.Fatalf("member = %+v", m)
	}
	teams := must[ddbkit.Page[taskmgmt.Membership]](t)(s.ListUserTeams(ctx, "u5", ddbkit.PageOptions{}))
	if len(teams.Items) != 1 || teams.Items[0].TeamName != "チーム" {
		t.Fatalf("u5's teams = %+v", teams.Items)
	}
	// A new invitation sorts after the legacy ones (UUIDv7), so it lists
	// first; the seed's example address cannot be invited, being none.
	newer := must[taskmgmt.Invitation](t)(s.Invite(ctx, "t1", "u1", taskmgmt.NewInvitation{Email: "frank@example.com"}))
	p = must[ddbkit.Page[taskmgmt.Invitation]](t)(s.ListInvitations(ctx, "t1", ddbkit.PageOptions{Limit: 1}))
	if p.Items[0].ID != newer.ID {
		t.Fatalf("newest first: %+v", p.Items)
	}
	_, err = s.Invite(ctx, "t1", "u1", taskmgmt.NewInvitation{Email: "alice-at-example.com"})
	ddbtest.WantSentinel(t, "inviting the seed's example address", err, ddbkit.ErrInvalidArgument)
	if !strings.Contains(err.Error(), "Email") {
		t.Fatalf("%v does not name Email", err)
	}
}
