package taskmgmt_test

import (
	"fmt"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestCapacity holds every access pattern of the package doc to its
// capacity budget on DynamoDB Local, which prices calls as the service
// does (1 RCU per 4 KB read strongly consistent, half that eventually
// consistent; 1 WCU per KB written, in the table and in every GSI the
// item is in; transactions cost double). Every item here is under 1 KB.
//
// Reads are at the design's minimum: 1 RCU for a GetItem or a base-table
// page (strongly consistent, see the package doc), 0.5 for a board page
// (GSIs are eventually consistent), and no read beyond the one each
// pattern needs (renames take the result from their UpdateItem's
// ALL_NEW instead of a GetItem after it: 0.5, the GSI_Invert Query).
// Writes write only the items the layout requires, but every item is in
// GSI_Invert and a task in all nine GSIs (the seed projects all
// attributes), so a write of a task costs its GSI copies too, and a status
// move twice in the GSIs whose keys change; those budgets are pinned as
// DynamoDB Local reports them, so that any extra item or GSI write fails.
func TestCapacity(t *testing.T) {
	var cc *ddbtest.CapacityClient
	s, _, _, _ := newDynamoInv(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCapacityClient(c); return cc }, deterministic,
		func(o *taskmgmt.Options) { o.NewToken = func() string { return "token" } })
	for _, c := range capacityCases(t, s) {
		cc.CheckBudget(t, c.name, c.want, c.fn)
	}
}

// TestCapacityMemory runs TestCapacity's cases on a MemoryStore, which
// reports what the DynamoDB store would consume on the service, and holds
// each to the service's price and its number of calls: what an access
// pattern costs in production, held by a unit test.
func TestCapacityMemory(t *testing.T) {
	rec := ddbtest.NewRecorder()
	s := taskmgmt.NewMemoryStore(deterministic, func(o *taskmgmt.Options) {
		o.NewToken = func() string { return "token" }
		o.TracerProvider = rec.TracerProvider()
	})
	for _, c := range capacityCases(t, s) {
		var err error
		got := rec.Measure(func() { err = c.fn() })
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := c.service()
		if g := (ddbtest.Capacity{Read: got.Read, Write: got.Write}); g != want || got.Calls != c.calls {
			t.Errorf("%s cost %d calls, %+v on the memory store, want %d calls, %+v (the service's price)", c.name, got.Calls, g, c.calls, want)
		}
	}
}

// capacityCase is an access pattern and what it costs.
type capacityCase struct {
	name string
	want ddbtest.Capacity // on DynamoDB Local
	fn   func() error
	// onService is the price on the service where DynamoDB Local reports
	// another (nil: want): DynamoDB Local prices transactions its own
	// way (internal/backend's price.go), where the service charges each
	// item of one twice: its write, 1 WCU here, and each GSI entry it
	// adds, moves (both), updates or removes; a ConditionCheck the item
	// alone. Every item is in GSI_Invert and a task in all nine GSIs, so
	// the service's figures for transactions are well above Local's.
	onService *ddbtest.Capacity
	calls     int // the DynamoDB calls it makes
}

// service is c's price on the service.
func (c capacityCase) service() ddbtest.Capacity {
	if c.onService != nil {
		return *c.onService
	}
	return c.want
}

// capacityCases fills s, a fresh store built with the deterministic
// options and a constant invitation token, with TestCapacity's data and
// returns its cases, to run in order.
func capacityCases(t *testing.T, s taskmgmt.Store) []capacityCase {
	t.Helper()
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "alice"}))
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "bob@example.com", Name: "bob"}))
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u3", Email: "carol@example.com", Name: "carol"}))
	team := must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}))
	must[taskmgmt.Member](t)(s.AddMember(ctx, team.ID, "u1", "u2", taskmgmt.RoleMember))
	tag := must[taskmgmt.Tag](t)(s.CreateTag(ctx, team.ID, taskmgmt.NewTag{Name: "front", Color: taskmgmt.Color{Color: "#000", BackgroundColor: "#fff"}}))
	var tasks []taskmgmt.Task
	for i := range 5 {
		tasks = append(tasks, must[taskmgmt.Task](t)(s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: fmt.Sprint("task ", i),
			Status: taskmgmt.Statuses[i%3], Start: "2025-11-01", End: "2025-11-05", TagIDs: []string{tag.ID}})))
	}
	inv := must[taskmgmt.Invitation](t)(s.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	doing := taskmgmt.StatusDoing
	title := "renamed"
	name := "team 2"
	var inv2 taskmgmt.Invitation

	ignore := func(_ any, err error) error { return err }
	board := func(q taskmgmt.BoardQuery) func() error {
		return func() error { return ignore(s.ListBoard(ctx, team.ID, q)) }
	}
	return []capacityCase{
		{"AP1 GetUser", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.GetUser(ctx, "u1")) }, nil, 1},
		{"AP2 ListMembers", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.ListMembers(ctx, team.ID, ddbkit.PageOptions{})) }, nil, 1},
		{"GetMember", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.GetMember(ctx, team.ID, "u2")) }, nil, 1},
		{"AP3 GetTeam", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.GetTeam(ctx, team.ID)) }, nil, 1},
		{"AP4 ListUserTeams", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.ListUserTeams(ctx, "u2", ddbkit.PageOptions{})) }, nil, 1},
		{"AP5 ListTags", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.ListTags(ctx, team.ID, ddbkit.PageOptions{})) }, nil, 1},
		{"AP6 GetTask", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.GetTask(ctx, team.ID, tasks[0].ID)) }, nil, 1},
		{"AP7 ViewInitial", ddbtest.Capacity{Read: 0.5}, board(taskmgmt.BoardQuery{View: taskmgmt.ViewInitial}), nil, 1},
		{"AP8 ViewTodo", ddbtest.Capacity{Read: 0.5}, board(taskmgmt.BoardQuery{View: taskmgmt.ViewTodo}), nil, 1},
		{"AP9 ViewTodo+tag", ddbtest.Capacity{Read: 0.5}, board(taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{tag.ID}}), nil, 1},
		{"AP11 ViewAll", ddbtest.Capacity{Read: 0.5}, board(taskmgmt.BoardQuery{View: taskmgmt.ViewAll}), nil, 1},
		{"AP12 ViewStartOverdue", ddbtest.Capacity{Read: 0.5}, board(taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue}), nil, 1},
		{"AP14 ViewEndOverdue", ddbtest.Capacity{Read: 0.5}, board(taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue}), nil, 1},
		{"AP16 GetCounts", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.GetCounts(ctx, team.ID)) }, nil, 1},
		{"AP16 ListDailyCounts", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.ListDailyCounts(ctx, team.ID, taskmgmt.DailyQuery{})) }, nil, 1},
		{"invitations AP1 ListInvitations", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.ListInvitations(ctx, team.ID, ddbkit.PageOptions{})) }, nil, 1},
		{"invitations AP2 GetInvitation", ddbtest.Capacity{Read: 1}, func() error { return ignore(s.GetInvitation(ctx, team.ID, inv.ID)) }, nil, 1},

		// A one-item transaction: two write units per KB, the price of
		// telling its own retry from another caller's create.
		{"CreateUser", ddbtest.Capacity{Write: 4}, func() error {
			return ignore(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u4", Email: "dave@example.com", Name: "dave"}))
		}, nil, 1},
		// On the service: the task and its 9 GSI entries (20), the team's
		// and the tag's checks (2 each), the two counters and their
		// GSI_Invert entries (4 each): 32.
		{"CreateTask", ddbtest.Capacity{Write: 26}, func() error {
			return ignore(s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "new", Start: "2025-11-01", End: "2025-11-05", TagIDs: []string{tag.ID}}))
		}, &ddbtest.Capacity{Write: 32}, 1},
		// On the service: the task, its 5 GSI entries updated in place and
		// 4 moved (28), the two counters (4 each): 36.
		{"UpdateTask status", ddbtest.Capacity{Read: 1, Write: 32}, func() error {
			return ignore(s.UpdateTask(ctx, team.ID, tasks[0].ID, taskmgmt.TaskPatch{Status: &doing}))
		}, &ddbtest.Capacity{Read: 1, Write: 36}, 2},
		{"UpdateTask title", ddbtest.Capacity{Read: 1, Write: 20}, func() error {
			return ignore(s.UpdateTask(ctx, team.ID, tasks[0].ID, taskmgmt.TaskPatch{Title: &title}))
		}, nil, 2},
		{"DeleteTask", ddbtest.Capacity{Read: 1, Write: 24}, func() error { return s.DeleteTask(ctx, team.ID, tasks[1].ID) }, nil, 2},
		// On the service, each transaction below: a put, update or delete
		// of a team, user, membership or tag item 4 (the item and its
		// GSI_Invert entry, twice), a check 2, an invitation 2 (its table
		// has no GSI); DeleteTag and DeleteTeam add 20 a task (its 9 GSI
		// entries). AcceptInvitation's first transaction fails on the team
		// name UpdateTeam changed, and a cancelled transaction reports no
		// capacity: its 4 calls are 2 reads and 2 transactions, the second
		// costing 14.
		{"CreateTeam", ddbtest.Capacity{Read: 1, Write: 6}, func() error { return ignore(s.CreateTeam(ctx, "u2", taskmgmt.NewTeam{Name: "other"})) }, &ddbtest.Capacity{Read: 1, Write: 14}, 2},
		{"AddMember", ddbtest.Capacity{Read: 2, Write: 6}, func() error { return ignore(s.AddMember(ctx, team.ID, "u1", "u3", taskmgmt.RoleMember)) }, &ddbtest.Capacity{Read: 2, Write: 14}, 3},
		{"SetRole of a member", ddbtest.Capacity{Read: 1, Write: 6}, func() error { return ignore(s.SetRole(ctx, team.ID, "u1", "u3", taskmgmt.RoleAdmin)) }, &ddbtest.Capacity{Read: 1, Write: 10}, 2},
		{"SetRole of an admin", ddbtest.Capacity{Read: 1, Write: 6}, func() error { return ignore(s.SetRole(ctx, team.ID, "u1", "u3", taskmgmt.RoleMember)) }, &ddbtest.Capacity{Read: 1, Write: 10}, 2},
		{"RemoveMember", ddbtest.Capacity{Read: 1, Write: 6}, func() error { return s.RemoveMember(ctx, team.ID, "u1", "u3") }, &ddbtest.Capacity{Read: 1, Write: 10}, 2},
		{"CreateTag", ddbtest.Capacity{Write: 6}, func() error {
			return ignore(s.CreateTag(ctx, team.ID, taskmgmt.NewTag{Name: "back", Color: taskmgmt.Color{Color: "#111", BackgroundColor: "#eee"}}))
		}, nil, 1},
		{"RenameUser", ddbtest.Capacity{Read: 0.5, Write: 6}, func() error { return ignore(s.RenameUser(ctx, "u2", "robert")) }, &ddbtest.Capacity{Read: 0.5, Write: 10}, 3},
		{"UpdateTeam", ddbtest.Capacity{Read: 1.5, Write: 10}, func() error { return ignore(s.UpdateTeam(ctx, team.ID, "u1", taskmgmt.TeamPatch{Name: &name})) }, &ddbtest.Capacity{Read: 1.5, Write: 14}, 4},
		// The team and COUNTER#ALL (one BatchGetItem, 1 each), the tasks (1).
		{"RecalculateCounters", ddbtest.Capacity{Read: 3}, func() error { return ignore(s.RecalculateCounters(ctx, team.ID)) }, nil, 2},
		{"Invite", ddbtest.Capacity{Read: 2, Write: 4}, func() error {
			var err error
			inv2, err = s.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: "dave@example.com"})
			return err
		}, &ddbtest.Capacity{Read: 2, Write: 6}, 3},
		{"AcceptInvitation", ddbtest.Capacity{Read: 2, Write: 8}, func() error {
			return ignore(s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: team.ID, InvitationID: inv.ID, Token: "token"}))
		}, &ddbtest.Capacity{Read: 2, Write: 14}, 4},
		{"RevokeInvitation", ddbtest.Capacity{Write: 4}, func() error {
			return s.RevokeInvitation(ctx, team.ID, "u1", inv2.ID)
		}, nil, 1},
		{"DeleteTag", ddbtest.Capacity{Read: 1, Write: 26}, func() error { return s.DeleteTag(ctx, team.ID, "u1", tag.ID) }, &ddbtest.Capacity{Read: 1, Write: 106}, 3},
		{"DeleteTeam", ddbtest.Capacity{Read: 1, Write: 28}, func() error { return s.DeleteTeam(ctx, team.ID, "u1") }, &ddbtest.Capacity{Read: 1, Write: 140}, 3},
	}
}
