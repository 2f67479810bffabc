package taskmgmttest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// key returns a context under a fresh idempotency key: DynamoDB Local
// keeps the tokens made from keys for as long as it runs, across tables.
func key(t *testing.T, name string) context.Context {
	return ddbkit.WithIdempotencyKey(t.Context(), name+"-"+ddbkit.NewUUIDv4())
}

// wantReused checks a repeat with other input under a used key.
func wantReused(t *testing.T, what string, err error) {
	t.Helper()
	wantErr(t, what, err, ddbkit.ErrConflict)
	if !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) {
		t.Fatalf("%s: error %v, want ErrIdempotencyKeyReused", what, err)
	}
}

// later moves the clock on, within ddbkit.IdempotencyWindow: a repeat's
// result is the first call's, whatever the time says now.
func later(c *Clock) { c.Set(c.Now().Add(12 * time.Hour)) }

// testKeyedCreates: each create repeated under its key and input returns
// the first call's result and writes nothing; the key with other input
// is ErrIdempotencyKeyReused and writes nothing.
func testKeyedCreates(t *testing.T, newStore NewStore) {
	s, c := fixed(t, newStore)
	f := newBoard(t, s)
	before := snapshot(t, s, f)

	ctx := key(t, "create-user")
	in := taskmgmt.NewUser{ID: "u9", Email: "z@example.com", Name: "zed"}
	u := must[taskmgmt.User](t, "CreateUser")(s.CreateUser(ctx, in))
	later(c)
	equal(t, "CreateUser repeated", must[taskmgmt.User](t, "CreateUser repeated")(s.CreateUser(ctx, in)), u)
	_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "u9", Email: "y@example.com", Name: "zed"})
	wantReused(t, "CreateUser, other input", err)
	equal(t, "GetUser", must[taskmgmt.User](t, "GetUser")(s.GetUser(t.Context(), "u9")), u)

	ctx = key(t, "create-team")
	tm := must[taskmgmt.Team](t, "CreateTeam")(s.CreateTeam(ctx, "u9", taskmgmt.NewTeam{Name: "nine"}))
	later(c)
	equal(t, "CreateTeam repeated", must[taskmgmt.Team](t, "CreateTeam repeated")(s.CreateTeam(ctx, "u9", taskmgmt.NewTeam{Name: "nine"})), tm)
	_, err = s.CreateTeam(ctx, "u9", taskmgmt.NewTeam{Name: "ten"})
	wantReused(t, "CreateTeam, other input", err)
	teams := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
		return s.ListUserTeams(t.Context(), "u9", o)
	})
	if len(teams) != 1 || teams[0].TeamID != tm.ID {
		t.Fatalf("u9's teams %+v, want team %s once", teams, tm.ID)
	}

	ctx = key(t, "create-tag")
	tagIn := taskmgmt.NewTag{Name: "z", Color: red}
	tag := must[taskmgmt.Tag](t, "CreateTag")(s.CreateTag(ctx, f.team.ID, tagIn))
	equal(t, "CreateTag repeated", must[taskmgmt.Tag](t, "CreateTag repeated")(s.CreateTag(ctx, f.team.ID, tagIn)), tag)
	_, err = s.CreateTag(ctx, f.team.ID, taskmgmt.NewTag{Name: "other", Color: red})
	wantReused(t, "CreateTag, other input", err)
	tags := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Tag], error) {
		return s.ListTags(t.Context(), f.team.ID, o)
	})
	equal(t, "tags", len(tags), 3)

	// CreateTask counts once: the task is its transaction's first write,
	// to which the record refers.
	ctx = key(t, "create-task")
	taskIn := newTask("once", taskmgmt.StatusDoing, "2025-11-01", "2025-11-02", f.x.ID)
	task := must[taskmgmt.Task](t, "CreateTask")(s.CreateTask(ctx, f.team.ID, taskIn))
	was, days := counts(t, s, f.team.ID), daily(t, s, f.team.ID)
	later(c)
	equal(t, "CreateTask repeated", must[taskmgmt.Task](t, "CreateTask repeated")(s.CreateTask(ctx, f.team.ID, taskIn)), task)
	_, err = s.CreateTask(ctx, f.team.ID, newTask("twice", taskmgmt.StatusDoing, "2025-11-01", "2025-11-02"))
	wantReused(t, "CreateTask, other input", err)
	equal(t, "counted once", counts(t, s, f.team.ID), was)
	equal(t, "counted once today", daily(t, s, f.team.ID), days)
	equal(t, "tasks", len(board(t, s, f.team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll})), 8)

	// A repeat of a task since deleted: the record refers to nothing.
	wantErr(t, "DeleteTask", s.DeleteTask(t.Context(), f.team.ID, task.ID), nil)
	_, err = s.CreateTask(ctx, f.team.ID, taskIn)
	wantErr(t, "CreateTask repeated after its task went", err, ddbkit.ErrNotFound)
	if snapshot(t, s, f) == before {
		t.Fatal("the snapshot did not see the creates")
	}
}

// testKeyedRepeats: the other write methods repeated under their key
// return what the first call returned, and apply once.
func testKeyedRepeats(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	f := newBoard(t, s)
	bg := t.Context()
	must[taskmgmt.User](t, "CreateUser u2")(s.CreateUser(bg, taskmgmt.NewUser{ID: "u2", Email: "b@example.com", Name: "bob"}))

	// AddMember: without a key the repeat is ErrAlreadyExists.
	ctx := key(t, "add-member")
	m := must[taskmgmt.Member](t, "AddMember")(s.AddMember(ctx, f.team.ID, "u1", "u2", taskmgmt.RoleMember))
	equal(t, "AddMember repeated", must[taskmgmt.Member](t, "AddMember repeated")(s.AddMember(ctx, f.team.ID, "u1", "u2", taskmgmt.RoleMember)), m)
	_, err := s.AddMember(ctx, f.team.ID, "u1", "u2", taskmgmt.RoleAdmin)
	wantReused(t, "AddMember, other input", err)
	_, err = s.AddMember(bg, f.team.ID, "u1", "u2", taskmgmt.RoleMember)
	wantErr(t, "AddMember again without a key", err, ddbkit.ErrAlreadyExists)

	// SetRole, twice; then another change, which the repeat leaves alone.
	ctx = key(t, "set-role")
	admin := must[taskmgmt.Member](t, "SetRole")(s.SetRole(ctx, f.team.ID, "u1", "u2", taskmgmt.RoleAdmin))
	equal(t, "SetRole repeated", must[taskmgmt.Member](t, "SetRole repeated")(s.SetRole(ctx, f.team.ID, "u1", "u2", taskmgmt.RoleAdmin)), admin)
	ctx2 := key(t, "set-role-same")
	for i := range 2 { // a role already held writes nothing: the record is written alone
		got := must[taskmgmt.Member](t, "SetRole to the role held")(s.SetRole(ctx2, f.team.ID, "u1", "u2", taskmgmt.RoleAdmin))
		equal(t, fmt.Sprint("SetRole to the role held, call ", i+1), got, admin)
	}

	// UpdateTask moving a status: a toggle of the counters. The repeat
	// returns the first result and moves nothing again, even after
	// another caller moved the task back.
	ctx = key(t, "update-task")
	toDoing := taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)}
	moved := must[taskmgmt.Task](t, "UpdateTask")(s.UpdateTask(ctx, f.team.ID, f.ids["A"], toDoing))
	was, days := counts(t, s, f.team.ID), daily(t, s, f.team.ID)
	equal(t, "UpdateTask repeated", must[taskmgmt.Task](t, "UpdateTask repeated")(s.UpdateTask(ctx, f.team.ID, f.ids["A"], toDoing)), moved)
	equal(t, "moved once", counts(t, s, f.team.ID), was)
	equal(t, "counted once today", daily(t, s, f.team.ID), days)
	back := must[taskmgmt.Task](t, "UpdateTask back, no key")(s.UpdateTask(bg, f.team.ID, f.ids["A"], taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusTodo)}))
	was, days = counts(t, s, f.team.ID), daily(t, s, f.team.ID)
	equal(t, "UpdateTask repeated after another move", must[taskmgmt.Task](t, "UpdateTask repeated")(s.UpdateTask(ctx, f.team.ID, f.ids["A"], toDoing)), back)
	equal(t, "not moved again", counts(t, s, f.team.ID), was)
	equal(t, "not counted again", daily(t, s, f.team.ID), days)
	_, err = s.UpdateTask(ctx, f.team.ID, f.ids["A"], taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDone)})
	wantReused(t, "UpdateTask, other input", err)
	ctx = key(t, "update-task-noop")
	for range 2 { // a patch that changes nothing writes nothing: the record is written alone
		equal(t, "UpdateTask changing nothing", must[taskmgmt.Task](t, "UpdateTask changing nothing")(s.UpdateTask(ctx, f.team.ID, f.ids["A"], taskmgmt.TaskPatch{Title: ptr("A")})), back)
	}

	// Renames: a repeat runs again without the key and returns the same.
	ctx = key(t, "rename-user")
	ru := must[taskmgmt.User](t, "RenameUser")(s.RenameUser(ctx, "u2", "robert"))
	equal(t, "RenameUser repeated", must[taskmgmt.User](t, "RenameUser repeated")(s.RenameUser(ctx, "u2", "robert")), ru)
	_, err = s.RenameUser(ctx, "u2", "rob")
	wantReused(t, "RenameUser, other input", err)
	ctx = key(t, "update-team")
	patch := taskmgmt.TeamPatch{Name: ptr("renamed")}
	ut := must[taskmgmt.Team](t, "UpdateTeam")(s.UpdateTeam(ctx, f.team.ID, "u1", patch))
	equal(t, "UpdateTeam repeated", must[taskmgmt.Team](t, "UpdateTeam repeated")(s.UpdateTeam(ctx, f.team.ID, "u1", patch)), ut)

	// RecalculateCounters: a repeat recounts, and finds no drift.
	ctx = key(t, "recalculate")
	rep := must[taskmgmt.CounterReport](t, "RecalculateCounters")(s.RecalculateCounters(ctx, f.team.ID))
	rep2 := must[taskmgmt.CounterReport](t, "RecalculateCounters repeated")(s.RecalculateCounters(ctx, f.team.ID))
	equal(t, "recounted", rep2.Counts, rep.Counts)

	// Deletes: a repeat is the first call's success (without a key, the
	// repeat is ErrNotFound), and uncounts nothing again.
	ctx = key(t, "delete-task")
	wantErr(t, "DeleteTask", s.DeleteTask(ctx, f.team.ID, f.ids["B"]), nil)
	was = counts(t, s, f.team.ID)
	wantErr(t, "DeleteTask repeated", s.DeleteTask(ctx, f.team.ID, f.ids["B"]), nil)
	equal(t, "uncounted once", counts(t, s, f.team.ID), was)
	wantReused(t, "DeleteTask, other input", s.DeleteTask(ctx, f.team.ID, f.ids["C"]))
	wantErr(t, "DeleteTask again without a key", s.DeleteTask(bg, f.team.ID, f.ids["B"]), ddbkit.ErrNotFound)
	ctx = key(t, "delete-tag")
	for i := range 2 {
		wantErr(t, fmt.Sprint("DeleteTag, call ", i+1), s.DeleteTag(ctx, f.team.ID, "u1", f.x.ID), nil)
	}
	ctx = key(t, "remove-member")
	for i := range 2 {
		wantErr(t, fmt.Sprint("RemoveMember, call ", i+1), s.RemoveMember(ctx, f.team.ID, "u1", "u2"), nil)
	}
	wantErr(t, "RemoveMember again without a key", s.RemoveMember(bg, f.team.ID, "u1", "u2"), ddbkit.ErrNotFound)
	ctx = key(t, "delete-team")
	for i := range 2 {
		wantErr(t, fmt.Sprint("DeleteTeam, call ", i+1), s.DeleteTeam(ctx, f.team.ID, "u1"), nil)
	}
	wantErr(t, "DeleteTeam again without a key", s.DeleteTeam(bg, f.team.ID, "u1"), ddbkit.ErrNotFound)
}

// testKeyedInvitations: Invite and AcceptInvitation repeated under their
// key return the first result (the invitation with its token; the
// membership, after the acceptance consumed the invitation), and
// RevokeInvitation's repeat is its success.
func testKeyedInvitations(t *testing.T, newStore NewStore) {
	for _, secret := range []bool{false, true} {
		t.Run(fmt.Sprint("TokenSecret ", secret), func(t *testing.T) {
			var opts []func(*taskmgmt.Options)
			if secret {
				opts = append(opts, func(o *taskmgmt.Options) { o.TokenSecret = []byte("0123456789abcdef0123456789abcdef") })
			}
			s, c := fixed(t, newStore, opts...)
			tm := inviteFixture(t, s)
			inviteCtx := key(t, "invite")
			in := taskmgmt.NewInvitation{Email: "carol@example.com"}
			inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(inviteCtx, tm.ID, "u1", in))
			later(c)
			equal(t, "Invite repeated", must[taskmgmt.Invitation](t, "Invite repeated")(s.Invite(inviteCtx, tm.ID, "u1", in)), inv)
			_, err := s.Invite(inviteCtx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "dave@example.com"})
			wantReused(t, "Invite, other input", err)
			list := invitations(t, s, tm.ID)
			if len(list) != 1 || list[0].ID != inv.ID {
				t.Fatalf("invitations %+v, want %s alone", list, inv.ID)
			}

			// The acceptance's answer is lost; its repeat returns the
			// membership, not the consumed invitation's ErrNotFound.
			ctx := key(t, "accept")
			m := must[taskmgmt.Member](t, "AcceptInvitation")(s.AcceptInvitation(ctx, "u3", accept(inv)))
			equal(t, "AcceptInvitation repeated", must[taskmgmt.Member](t, "AcceptInvitation repeated")(s.AcceptInvitation(ctx, "u3", accept(inv))), m)
			_, err = s.AcceptInvitation(ctx, "u2", accept(inv))
			wantErr(t, "AcceptInvitation by another user under the key (another scope)", err, ddbkit.ErrNotFound)
			_, err = s.AcceptInvitation(t.Context(), "u3", accept(inv))
			wantErr(t, "AcceptInvitation again without a key", err, ddbkit.ErrNotFound)
			// Invite's repeat once its invitation is consumed.
			_, err = s.Invite(inviteCtx, tm.ID, "u1", in)
			wantErr(t, "Invite repeated after the acceptance", err, ddbkit.ErrNotFound)

			next := must[taskmgmt.Invitation](t, "Invite erin")(s.Invite(key(t, "invite"), tm.ID, "u1", taskmgmt.NewInvitation{Email: "erin@example.com"}))
			ctx = key(t, "revoke")
			for i := range 2 {
				wantErr(t, fmt.Sprint("RevokeInvitation, call ", i+1), s.RevokeInvitation(ctx, tm.ID, "u1", next.ID), nil)
			}
			wantErr(t, "RevokeInvitation again without a key", s.RevokeInvitation(t.Context(), tm.ID, "u1", next.ID), ddbkit.ErrNotFound)
			equal(t, "invitations left", len(invitations(t, s, tm.ID)), 0)
		})
	}
}
