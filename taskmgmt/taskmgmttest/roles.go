package taskmgmttest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// testRoles holds every operation the roles restrict to the package doc's
// table: a member, a non-member and a demoted admin are refused with
// ErrPermissionDenied (and ErrNotAdmin) and nothing is written; an admin
// is allowed; a member may leave.
func testRoles(t *testing.T, newStore NewStore) {
	s := newStore(t)
	ctx := t.Context()
	f := newBoard(t, s) // u1 is its admin
	for _, id := range []string{"u2", "u3", "u4", "u5"} {
		must[taskmgmt.User](t, "CreateUser "+id)(s.CreateUser(ctx, taskmgmt.NewUser{ID: id, Email: id + "@example.com", Name: "user " + id}))
	}
	must[taskmgmt.Member](t, "AddMember u2")(s.AddMember(ctx, f.team.ID, "u1", "u2", taskmgmt.RoleMember))
	must[taskmgmt.Member](t, "AddMember u3")(s.AddMember(ctx, f.team.ID, "u1", "u3", taskmgmt.RoleAdmin))
	// u3, an admin until now, is demoted: the check reads the role now.
	must[taskmgmt.Member](t, "demote u3")(s.SetRole(ctx, f.team.ID, "u1", "u3", taskmgmt.RoleMember))

	ops := func(actor string) []struct {
		name string
		fn   func() error
	} {
		return []struct {
			name string
			fn   func() error
		}{
			{"UpdateTeam", func() error {
				_, err := s.UpdateTeam(ctx, f.team.ID, actor, taskmgmt.TeamPatch{Name: ptr("taken over")})
				return err
			}},
			{"DeleteTeam", func() error { return s.DeleteTeam(ctx, f.team.ID, actor) }},
			{"AddMember of another", func() error {
				_, err := s.AddMember(ctx, f.team.ID, actor, "u5", taskmgmt.RoleAdmin)
				return err
			}},
			{"AddMember of themself", func() error {
				_, err := s.AddMember(ctx, f.team.ID, actor, actor, taskmgmt.RoleAdmin)
				return err
			}},
			{"SetRole of another", func() error {
				_, err := s.SetRole(ctx, f.team.ID, actor, "u2", taskmgmt.RoleAdmin)
				return err
			}},
			{"SetRole to the role held", func() error {
				_, err := s.SetRole(ctx, f.team.ID, actor, "u2", taskmgmt.RoleMember)
				return err
			}},
			{"RemoveMember of the admin", func() error { return s.RemoveMember(ctx, f.team.ID, actor, "u1") }},
			{"DeleteTag", func() error { return s.DeleteTag(ctx, f.team.ID, actor, f.x.ID) }},
			{"DeleteTag of a tag already gone", func() error { return s.DeleteTag(ctx, f.team.ID, actor, "gone") }},
		}
	}
	read := func() string {
		t.Helper()
		tm := must[taskmgmt.Team](t, "GetTeam")(s.GetTeam(ctx, f.team.ID))
		out := fmt.Sprintf("%+v\n%s", tm, snapshot(t, s, f))
		for _, u := range []string{"u2", "u3", "u4", "u5"} {
			out += fmt.Sprintf("%+v\n", all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
				return s.ListUserTeams(ctx, u, o)
			}))
		}
		return out
	}
	before := read()
	for _, actor := range []struct{ id, what string }{{"u2", "a member"}, {"u4", "a non-member"}, {"u3", "a demoted admin"}} {
		for _, op := range ops(actor.id) {
			what := fmt.Sprintf("%s by %s (%s)", op.name, actor.what, actor.id)
			err := op.fn()
			wantErr(t, what, err, ddbkit.ErrPermissionDenied)
			if !errors.Is(err, taskmgmt.ErrNotAdmin) {
				t.Fatalf("%s: %v does not match ErrNotAdmin", what, err)
			}
			if after := read(); after != before {
				t.Fatalf("%s wrote:\nbefore %s\nafter  %s", what, before, after)
			}
		}
	}
	// Self-promotion too.
	_, err := s.SetRole(ctx, f.team.ID, "u2", "u2", taskmgmt.RoleAdmin)
	wantErr(t, "SetRole of themself by a member", err, ddbkit.ErrPermissionDenied)
	if after := read(); after != before {
		t.Fatal("a member's self-promotion wrote")
	}

	// A member leaves.
	wantErr(t, "RemoveMember of themself by a member (leaving)", s.RemoveMember(ctx, f.team.ID, "u3", "u3"), nil)
	if p := must[ddbkit.Page[taskmgmt.Membership]](t, "ListUserTeams u3")(s.ListUserTeams(ctx, "u3", ddbkit.PageOptions{})); len(p.Items) != 0 {
		t.Fatalf("u3's teams after leaving = %+v", p.Items)
	}
	// A leaver is a non-member: refused.
	wantErr(t, "DeleteTag by a former member", s.DeleteTag(ctx, f.team.ID, "u3", f.x.ID), ddbkit.ErrPermissionDenied)

	// The admin is allowed everything.
	tm := must[taskmgmt.Team](t, "UpdateTeam by the admin")(s.UpdateTeam(ctx, f.team.ID, "u1", taskmgmt.TeamPatch{Name: ptr("renamed")}))
	equal(t, "renamed team", tm.Name, "renamed")
	equal(t, "kept description", tm.Description, f.team.Description)
	must[taskmgmt.Member](t, "AddMember by the admin")(s.AddMember(ctx, f.team.ID, "u1", "u5", taskmgmt.RoleMember))
	m := must[taskmgmt.Member](t, "SetRole by the admin")(s.SetRole(ctx, f.team.ID, "u1", "u2", taskmgmt.RoleAdmin))
	equal(t, "u2's role", m.Role, taskmgmt.RoleAdmin)
	// u2, promoted, now acts as an admin.
	wantErr(t, "RemoveMember by the new admin", s.RemoveMember(ctx, f.team.ID, "u2", "u5"), nil)
	wantErr(t, "DeleteTag by the admin", s.DeleteTag(ctx, f.team.ID, "u1", f.x.ID), nil)
	for _, tag := range all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Tag], error) { return s.ListTags(ctx, f.team.ID, o) }) {
		if tag.ID == f.x.ID {
			t.Fatal("the tag is still listed after DeleteTag")
		}
	}
	// An admin demoting themself while another admin stays.
	m = must[taskmgmt.Member](t, "SetRole of themself by an admin")(s.SetRole(ctx, f.team.ID, "u2", "u2", taskmgmt.RoleMember))
	equal(t, "u2's role", m.Role, taskmgmt.RoleMember)
	wantErr(t, "DeleteTeam by the demoted u2", s.DeleteTeam(ctx, f.team.ID, "u2"), ddbkit.ErrPermissionDenied)
	wantErr(t, "DeleteTeam by the admin", s.DeleteTeam(ctx, f.team.ID, "u1"), nil)
	_, err = s.GetTeam(ctx, f.team.ID)
	wantErr(t, "GetTeam after DeleteTeam", err, ddbkit.ErrNotFound)
	for _, u := range []string{"u1", "u2"} {
		if p := must[ddbkit.Page[taskmgmt.Membership]](t, "ListUserTeams")(s.ListUserTeams(ctx, u, ddbkit.PageOptions{})); len(p.Items) != 0 {
			t.Fatalf("%s's teams after DeleteTeam = %+v", u, p.Items)
		}
	}
	wantErr(t, "DeleteTeam again", s.DeleteTeam(ctx, f.team.ID, "u1"), ddbkit.ErrNotFound)
}
