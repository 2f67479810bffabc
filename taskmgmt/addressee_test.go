package taskmgmt_test

import (
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestAcceptOnlyAddressee: under Options.AcceptOnlyAddressee, a link
// accepted by another user than its addressee is refused with
// ErrPermissionDenied and changes nothing; the addressee (whatever the
// case of the address) accepts. By default the link is a bearer link.
func TestAcceptOnlyAddressee(t *testing.T) {
	only := func(o *taskmgmt.Options) { o.AcceptOnlyAddressee = true }
	for _, tc := range []struct {
		name     string
		newStore func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store
	}{
		{"memory", func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
			return taskmgmt.NewMemoryStore(append([]func(*taskmgmt.Options){deterministic}, opts...)...)
		}},
		{"dynamodb", func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
			s, _, _, _ := newDynamoInv(t, nil, append([]func(*taskmgmt.Options){deterministic}, opts...)...)
			return s
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			setup := func(opts ...func(*taskmgmt.Options)) (taskmgmt.Store, taskmgmt.Team, taskmgmt.Invitation) {
				s := tc.newStore(t, opts...)
				must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "alice"}))
				must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u3", Email: "carol@example.com", Name: "carol"}))
				must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u4", Email: "mallory@example.com", Name: "mallory"}))
				team := must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}))
				inv := must[taskmgmt.Invitation](t)(s.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: "Carol@Example.com"}))
				return s, team, inv
			}
			link := func(team taskmgmt.Team, inv taskmgmt.Invitation) taskmgmt.Acceptance {
				return taskmgmt.Acceptance{TeamID: team.ID, InvitationID: inv.ID, Token: inv.Token}
			}

			s, team, inv := setup(only)
			_, err := s.AcceptInvitation(ctx, "u4", link(team, inv))
			ddbtest.WantSentinel(t, "another user accepting", err, ddbkit.ErrPermissionDenied)
			if _, err := s.GetInvitation(ctx, team.ID, inv.ID); err != nil {
				t.Fatalf("the invitation after a refused acceptance: %v", err)
			}
			members := must[ddbkit.Page[taskmgmt.Member]](t)(s.ListMembers(ctx, team.ID, ddbkit.PageOptions{}))
			if len(members.Items) != 1 {
				t.Fatalf("members after a refused acceptance = %+v, want the admin alone", members.Items)
			}
			// Only ASCII letters fold: the Kelvin sign is no k.
			must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u5", Email: "\u212Aim@example.com", Name: "not kim"}))
			kim := must[taskmgmt.Invitation](t)(s.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: "kim@example.com"}))
			_, err = s.AcceptInvitation(ctx, "u5", link(team, kim))
			ddbtest.WantSentinel(t, "a user whose address folds to the addressee's under Unicode rules", err, ddbkit.ErrPermissionDenied)
			m := must[taskmgmt.Member](t)(s.AcceptInvitation(ctx, "u3", link(team, inv)))
			if m.UserID != "u3" {
				t.Fatalf("the addressee's acceptance = %+v", m)
			}

			s, team, inv = setup()
			if _, err := s.AcceptInvitation(ctx, "u4", link(team, inv)); err != nil {
				t.Fatalf("by default, the link is the bearer's: %v", err)
			}
		})
	}
}
