package taskmgmttest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// RunInvitations runs the conformance tests of the invitations (seed 001's
// task-table-invitation-v3) against stores made by newStore, whose stores
// must have both tables.
func RunInvitations(t *testing.T, newStore NewStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, NewStore)
	}{
		{"InviteListGet", testInviteListGet},
		{"ListSkipsExpired", testInvitationsExpire},
		{"Accept", testAccept},
		{"AcceptRefusesTokens", testAcceptTokens},
		{"AcceptTakesCurrentNames", testAcceptRenamed},
		{"Revoke", testRevoke},
		{"ReInviteReplaces", testReInvite},
		{"DefaultIDsFollowClock", testDefaultIDsFollowClock},
		{"BadInviteWritesNothing", testBadInvite},
		{"OneEmailRule", testOneEmailRule},
		{"ConcurrentAccept", testConcurrentAccept},
		{"CancelledContextWritesNothing", testInvitationsCancelled},
		{"IdempotencyKey", testInvitationIdempotency},
		{"KeyedRepeats", testKeyedInvitations},
		{"NewToken", testNewToken},
		{"TokenSecret", testTokenSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newStore) })
	}
}

// inviteFixture is a team of admin u1 (team(t, s)) with member u2 and
// user u3, who is in no team.
func inviteFixture(t *testing.T, s taskmgmt.Store) taskmgmt.Team {
	t.Helper()
	ctx := t.Context()
	tm := team(t, s)
	must[taskmgmt.User](t, "CreateUser u2")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "bob@example.com", Name: "bob"}))
	must[taskmgmt.Member](t, "AddMember u2")(s.AddMember(ctx, tm.ID, "u1", "u2", taskmgmt.RoleMember))
	must[taskmgmt.User](t, "CreateUser u3")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u3", Email: "carol@example.com", Name: "carol"}))
	return tm
}

func invitations(t *testing.T, s taskmgmt.Store, teamID string) []taskmgmt.Invitation {
	t.Helper()
	return all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Invitation], error) {
		return s.ListInvitations(t.Context(), teamID, o)
	})
}

func accept(inv taskmgmt.Invitation) taskmgmt.Acceptance {
	return taskmgmt.Acceptance{TeamID: inv.TeamID, InvitationID: inv.ID, Token: inv.Token}
}

func isMember(t *testing.T, s taskmgmt.Store, teamID, userID string) bool {
	t.Helper()
	for _, m := range all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Member], error) {
		return s.ListMembers(t.Context(), teamID, o)
	}) {
		if m.UserID == userID {
			return true
		}
	}
	return false
}

func testInviteListGet(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	tm := inviteFixture(t, s)
	var made []taskmgmt.Invitation
	for i, email := range []string{"a@example.com", "b@example.com", "c@example.com"} {
		clk.Set(Start.Add(time.Duration(i)*time.Second + 500*time.Millisecond))
		inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: email}))
		created := Start.Add(time.Duration(i) * time.Second).UTC() // whole seconds
		equal(t, "Invite", inv, taskmgmt.Invitation{ID: inv.ID, TeamID: tm.ID, TeamName: tm.Name, Email: email,
			Role: taskmgmt.RoleMember, InvitedBy: "u1", Token: inv.Token, CreatedAt: created, ExpiresAt: created.Add(24 * time.Hour)})
		if len(inv.ID) != 36 || inv.ID[14] != '7' {
			t.Fatalf("invitation ID %q is not a UUIDv7", inv.ID)
		}
		if len(inv.Token) != 43 || strings.Trim(inv.Token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			t.Fatalf("token %q is not 256 bits in base64url", inv.Token)
		}
		for _, m := range made {
			if m.Token == inv.Token {
				t.Fatal("two invitations share a token")
			}
		}
		made = append(made, inv)
	}
	public := func(inv taskmgmt.Invitation) taskmgmt.Invitation { inv.Token = ""; return inv }
	want := []taskmgmt.Invitation{public(made[2]), public(made[1]), public(made[0])}
	equal(t, "ListInvitations, newest first, without tokens", invitations(t, s, tm.ID), want)
	p1 := must[ddbkit.Page[taskmgmt.Invitation]](t, "page 1")(s.ListInvitations(ctx, tm.ID, ddbkit.PageOptions{Limit: 2}))
	equal(t, "page 1", p1.Items, want[:2])
	p2 := must[ddbkit.Page[taskmgmt.Invitation]](t, "page 2")(s.ListInvitations(ctx, tm.ID, ddbkit.PageOptions{Limit: 2, Cursor: p1.Next}))
	equal(t, "page 2", p2.Items, want[2:])
	equal(t, "no page 3", p2.Next, "")
	_, err := s.ListInvitations(ctx, "other", ddbkit.PageOptions{Cursor: p1.Next})
	wantErr(t, "a cursor of another team", err, ddbkit.ErrInvalidCursor)
	equal(t, "GetInvitation", must[taskmgmt.Invitation](t, "GetInvitation")(s.GetInvitation(ctx, tm.ID, made[1].ID)), public(made[1]))
	_, err = s.GetInvitation(ctx, tm.ID, "nope")
	wantErr(t, "GetInvitation of none", err, ddbkit.ErrNotFound)
	equal(t, "another team has none", invitations(t, s, "other"), []taskmgmt.Invitation(nil))

	// An admin invitation, and the lifetime option.
	s2, _ := fixed(t, newStore, func(o *taskmgmt.Options) { o.InvitationLifetime = time.Hour })
	tm2 := inviteFixture(t, s2)
	inv := must[taskmgmt.Invitation](t, "Invite admin")(s2.Invite(ctx, tm2.ID, "u1", taskmgmt.NewInvitation{Email: "d@example.com", Role: taskmgmt.RoleAdmin}))
	equal(t, "role", inv.Role, taskmgmt.RoleAdmin)
	equal(t, "lifetime", inv.ExpiresAt.Sub(inv.CreatedAt), time.Hour)
}

func testInvitationsExpire(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	tm := inviteFixture(t, s)
	var made []taskmgmt.Invitation
	for i := range 5 {
		clk.Set(Start.Add(time.Duration(i) * 4 * time.Hour))
		made = append(made, must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: fmt.Sprintf("p%d@example.com", i)})))
	}
	// 24h after the third: the first three have expired (expiresAt is
	// not after now), the last two live.
	clk.Set(made[2].ExpiresAt)
	var ids []string
	for _, inv := range invitations(t, s, tm.ID) {
		ids = append(ids, inv.ID)
	}
	equal(t, "live invitations", ids, []string{made[4].ID, made[3].ID})
	p := must[ddbkit.Page[taskmgmt.Invitation]](t, "page of 1")(s.ListInvitations(ctx, tm.ID, ddbkit.PageOptions{Limit: 1}))
	equal(t, "page of 1", len(p.Items), 1)
	p = must[ddbkit.Page[taskmgmt.Invitation]](t, "page 2 of 1")(s.ListInvitations(ctx, tm.ID, ddbkit.PageOptions{Limit: 1, Cursor: p.Next}))
	equal(t, "the second live one ends the listing, past the expired ones", p.Next, "")
	equal(t, "page 2 of 1", p.Items[0].ID, made[3].ID)
	_, err := s.GetInvitation(ctx, tm.ID, made[2].ID)
	wantErr(t, "GetInvitation of an expired one", err, ddbkit.ErrNotFound)
	must[taskmgmt.Invitation](t, "GetInvitation of a live one")(s.GetInvitation(ctx, tm.ID, made[3].ID))
}

func testAccept(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	tm := inviteFixture(t, s)
	inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com", Role: taskmgmt.RoleAdmin}))
	clk.Set(Start.Add(20 * time.Hour)) // 2025-11-11 in Tokyo
	m := must[taskmgmt.Member](t, "AcceptInvitation")(s.AcceptInvitation(ctx, "u3", accept(inv)))
	want := taskmgmt.Member{TeamID: tm.ID, UserID: "u3", UserName: "carol", Role: taskmgmt.RoleAdmin, JoinedAt: "2025-11-11"}
	equal(t, "AcceptInvitation", m, want)
	members := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Member], error) { return s.ListMembers(ctx, tm.ID, o) })
	equal(t, "the member", members[2], want)
	teams := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
		return s.ListUserTeams(ctx, "u3", o)
	})
	equal(t, "the user's team", teams, []taskmgmt.Membership{{UserID: "u3", TeamID: tm.ID, TeamName: tm.Name, Role: taskmgmt.RoleAdmin, JoinedAt: "2025-11-11"}})
	_, err := s.GetInvitation(ctx, tm.ID, inv.ID)
	wantErr(t, "the accepted invitation", err, ddbkit.ErrNotFound)
	equal(t, "no invitation left", invitations(t, s, tm.ID), []taskmgmt.Invitation(nil))
	_, again := s.AcceptInvitation(ctx, "u3", accept(inv))
	wantErr(t, "a second acceptance", again, ddbkit.ErrNotFound)
	_, other := s.AcceptInvitation(ctx, "u2", accept(inv))
	wantErr(t, "a second acceptance by another user", other, ddbkit.ErrNotFound)
	equal(t, "same error for both", other.Error(), again.Error())

	// A member accepting: ErrAlreadyExists, and the invitation stays.
	inv = must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "bob@example.com"}))
	_, err = s.AcceptInvitation(ctx, "u2", accept(inv))
	wantErr(t, "a member accepting", err, ddbkit.ErrAlreadyExists)
	must[taskmgmt.Invitation](t, "the invitation stays")(s.GetInvitation(ctx, tm.ID, inv.ID))
	_, err = s.AcceptInvitation(ctx, "nobody", accept(inv))
	wantErr(t, "no such user", err, ddbkit.ErrNotFound)
	must[taskmgmt.Invitation](t, "the invitation stays")(s.GetInvitation(ctx, tm.ID, inv.ID))
}

func testAcceptTokens(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	tm := inviteFixture(t, s)
	inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	other := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "dave@example.com"}))
	last := inv.Token[len(inv.Token)-1:]
	flip := map[string]string{"A": "B"}[last]
	if flip == "" {
		flip = "A"
	}
	var texts []string
	for _, tc := range []struct{ name, token string }{
		{"another invitation's token", other.Token},
		{"a tampered token", inv.Token[:len(inv.Token)-1] + flip},
		{"a truncated token", inv.Token[:20]},
		{"a token of another form", "ramdom"},
	} {
		a := accept(inv)
		a.Token = tc.token
		_, err := s.AcceptInvitation(ctx, "u3", a)
		wantErr(t, tc.name, err, ddbkit.ErrNotFound)
		texts = append(texts, err.Error())
	}
	a := accept(inv)
	for _, tok := range []string{"", " \t"} {
		a.Token = tok
		_, err := s.AcceptInvitation(ctx, "u3", a)
		wantField(t, fmt.Sprintf("token %q", tok), err, "Token")
		if want := "must not be empty or only white space"; !strings.Contains(err.Error(), want) {
			t.Fatalf("token %q: %v, want the shared wording %q", tok, err, want)
		}
	}
	var err error
	a.Token = strings.Repeat("x", taskmgmt.MaxTokenLen+1)
	_, err = s.AcceptInvitation(ctx, "u3", a)
	wantField(t, "a huge token", err, "Token")

	// Expiry is enforced at acceptance: at expiresAt it has expired.
	clk.Set(inv.ExpiresAt)
	_, err = s.AcceptInvitation(ctx, "u3", accept(inv))
	wantErr(t, "an expired invitation", err, ddbkit.ErrNotFound)
	texts = append(texts, err.Error())
	for _, tx := range texts[1:] {
		equal(t, "the same error whatever the cause", tx, texts[0])
	}
	if isMember(t, s, tm.ID, "u3") {
		t.Fatal("a refused acceptance made a member")
	}
	clk.Set(inv.ExpiresAt.Add(-time.Second))
	must[taskmgmt.Member](t, "a second before expiry")(s.AcceptInvitation(ctx, "u3", accept(inv)))
}

func testAcceptRenamed(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := inviteFixture(t, s)
	inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	must[taskmgmt.Team](t, "UpdateTeam")(s.UpdateTeam(ctx, tm.ID, "u1", taskmgmt.TeamPatch{Name: ptr("新しい名前")}))
	must[taskmgmt.User](t, "RenameUser")(s.RenameUser(ctx, "u3", "carol2"))
	equal(t, "the invitation keeps the name it was made with", must[taskmgmt.Invitation](t, "Get")(s.GetInvitation(ctx, tm.ID, inv.ID)).TeamName, tm.Name)
	m := must[taskmgmt.Member](t, "AcceptInvitation")(s.AcceptInvitation(ctx, "u3", accept(inv)))
	equal(t, "the member's name", m.UserName, "carol2")
	teams := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
		return s.ListUserTeams(ctx, "u3", o)
	})
	equal(t, "the membership copies the team's name now", teams[0].TeamName, "新しい名前")

	// A deleted team's invitation cannot be accepted.
	inv = must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "e@example.com"}))
	must[taskmgmt.User](t, "CreateUser")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u4", Email: "e@example.com", Name: "e"}))
	if err := s.DeleteTeam(ctx, tm.ID, "u1"); err != nil {
		t.Fatal(err)
	}
	_, err := s.AcceptInvitation(ctx, "u4", accept(inv))
	wantErr(t, "accepting for a deleted team", err, ddbkit.ErrNotFound)
	equal(t, "no membership", len(all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
		return s.ListUserTeams(ctx, "u4", o)
	})), 0)
}

func testRevoke(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	tm := inviteFixture(t, s)
	inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	err := s.RevokeInvitation(ctx, tm.ID, "u2", inv.ID)
	wantErr(t, "a member revoking", err, ddbkit.ErrPermissionDenied)
	if !errors.Is(err, taskmgmt.ErrNotAdmin) {
		t.Fatalf("%v does not match ErrNotAdmin", err)
	}
	wantErr(t, "a non-member revoking", s.RevokeInvitation(ctx, tm.ID, "u3", inv.ID), ddbkit.ErrPermissionDenied)
	wantErr(t, "a non-admin revoking a missing invitation learns nothing", s.RevokeInvitation(ctx, tm.ID, "u2", "nope"), ddbkit.ErrPermissionDenied)
	must[taskmgmt.Invitation](t, "still there")(s.GetInvitation(ctx, tm.ID, inv.ID))
	wantErr(t, "revoking none", s.RevokeInvitation(ctx, tm.ID, "u1", "nope"), ddbkit.ErrNotFound)
	wantErr(t, "RevokeInvitation", s.RevokeInvitation(ctx, tm.ID, "u1", inv.ID), nil)
	_, err = s.GetInvitation(ctx, tm.ID, inv.ID)
	wantErr(t, "revoked", err, ddbkit.ErrNotFound)
	_, err = s.AcceptInvitation(ctx, "u3", accept(inv))
	wantErr(t, "accepting a revoked invitation", err, ddbkit.ErrNotFound)
	wantErr(t, "revoking twice", s.RevokeInvitation(ctx, tm.ID, "u1", inv.ID), ddbkit.ErrNotFound)

	// An expired invitation, still stored until TTL deletes it, can be
	// revoked.
	inv = must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	clk.Set(inv.ExpiresAt.Add(time.Hour))
	wantErr(t, "revoking an expired invitation", s.RevokeInvitation(ctx, tm.ID, "u1", inv.ID), nil)
}

func testReInvite(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	tm := inviteFixture(t, s)
	first := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	// Addresses compare case-insensitively, and are stored as given.
	upper := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "Carol@example.com"}))
	list := invitations(t, s, tm.ID)
	equal(t, "Carol@ replaced carol@", len(list), 1)
	equal(t, "Carol@ replaced carol@", list[0].ID, upper.ID)
	equal(t, "the address as given", list[0].Email, "Carol@example.com")
	clk.Set(Start.Add(time.Minute))
	second := must[taskmgmt.Invitation](t, "Invite again")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com", Role: taskmgmt.RoleAdmin}))
	list = invitations(t, s, tm.ID)
	equal(t, "the second replaced the others", len(list), 1)
	equal(t, "the second replaced the others", list[0].ID, second.ID)
	for _, old := range []taskmgmt.Invitation{first, upper} {
		_, err := s.AcceptInvitation(ctx, "u3", accept(old))
		wantErr(t, "a replaced link", err, ddbkit.ErrNotFound)
	}
	m := must[taskmgmt.Member](t, "the new link")(s.AcceptInvitation(ctx, "u3", accept(second)))
	equal(t, "the new role", m.Role, taskmgmt.RoleAdmin)
}

// testDefaultIDsFollowClock runs the invitations on the default IDs under
// a clock years ahead of the wall clock: Invite's replacement, which reads
// only the IDs of the last lifetime, and the listing, newest first, both
// follow the store's clock, whose instant each ID carries.
func testDefaultIDsFollowClock(t *testing.T, newStore NewStore) {
	future := time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC)
	clk := &Clock{now: future}
	s := newStore(t, func(o *taskmgmt.Options) { o.Clock = clk.Now; o.NewID = nil })
	ctx := t.Context()
	tm := inviteFixture(t, s)
	first := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	clk.Set(future.Add(time.Second))
	second := must[taskmgmt.Invitation](t, "Invite again")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	list := invitations(t, s, tm.ID)
	equal(t, "live invitations after inviting carol twice", len(list), 1)
	equal(t, "the live invitation", list[0].ID, second.ID)
	clk.Set(future.Add(2 * time.Second))
	dave := must[taskmgmt.Invitation](t, "Invite dave")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "dave@example.com"}))
	var ids []string
	for _, inv := range invitations(t, s, tm.ID) {
		ids = append(ids, inv.ID)
	}
	equal(t, "ListInvitations, newest first", ids, []string{dave.ID, second.ID})
	for _, inv := range []taskmgmt.Invitation{first, second, dave} {
		if got := uuidv7Time(t, inv.ID); !got.Equal(inv.CreatedAt) {
			t.Fatalf("the UUIDv7 time of invitation %s is %v, want its createdAt %v", inv.ID, got, inv.CreatedAt)
		}
	}
	tg := must[taskmgmt.Tag](t, "CreateTag")(s.CreateTag(ctx, tm.ID, taskmgmt.NewTag{Name: "backend", Color: red}))
	if got, want := uuidv7Time(t, tg.ID), future.Add(2*time.Second); !got.Equal(want) {
		t.Fatalf("the UUIDv7 time of tag %s is %v, want the clock's %v", tg.ID, got, want)
	}
}

// uuidv7Time is the instant in a UUIDv7's first 48 bits, Unix milliseconds.
func uuidv7Time(t *testing.T, id string) time.Time {
	t.Helper()
	if len(id) != 36 || id[14] != '7' {
		t.Fatalf("ID %q is not a UUIDv7", id)
	}
	ms, err := strconv.ParseInt(id[0:8]+id[9:13], 16, 64)
	if err != nil {
		t.Fatalf("ID %q: %v", id, err)
	}
	return time.UnixMilli(ms).UTC()
}

// badEmails are addresses that no write stores (the package doc's "Email
// addresses"), by what is wrong with them.
var badEmails = []struct{ name, email string }{
	{"the seed's example, which is no address", "alice-at-example.com"},
	{"a display name", "Alice <alice@example.com>"},
	{"angle brackets", "<alice@example.com>"},
	{"white space", " alice@example.com"},
	{"a control character", "alice@example.com\r\nBcc: eve@example.com"},
	{"no email", ""},
	{"only white space", "   "},
	{"a too long email", strings.Repeat("a", 250) + "@example.com"},
}

// goodEmails are addresses every write takes, stored as given.
var goodEmails = []string{"alice@example.com", "Bob.Smith+tasks@Example.CO.JP", "\u212Aim@example.com"}

func testBadInvite(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := inviteFixture(t, s)
	for _, tc := range []struct {
		name      string
		team      string
		inviter   string
		in        taskmgmt.NewInvitation
		want      error
		wantField string
	}{
		{"an unknown role", tm.ID, "u1", taskmgmt.NewInvitation{Email: "a@example.com", Role: "owner"}, nil, "Role"},
		{"a # in the team ID", "t#1", "u1", taskmgmt.NewInvitation{Email: "a@example.com"}, nil, "TeamID"},
		{"no inviter", tm.ID, "", taskmgmt.NewInvitation{Email: "a@example.com"}, nil, "InviterID"},
		{"a member inviting", tm.ID, "u2", taskmgmt.NewInvitation{Email: "a@example.com"}, ddbkit.ErrPermissionDenied, ""},
		{"a non-member inviting", tm.ID, "u3", taskmgmt.NewInvitation{Email: "a@example.com"}, ddbkit.ErrPermissionDenied, ""},
		{"an unknown team", "t-none", "u1", taskmgmt.NewInvitation{Email: "a@example.com"}, ddbkit.ErrNotFound, ""},
	} {
		_, err := s.Invite(ctx, tc.team, tc.inviter, tc.in)
		if tc.wantField != "" {
			wantField(t, tc.name, err, tc.wantField)
		} else {
			wantErr(t, tc.name, err, tc.want)
		}
		if tc.want == ddbkit.ErrPermissionDenied && !errors.Is(err, taskmgmt.ErrNotAdmin) {
			t.Fatalf("%s: %v does not match ErrNotAdmin", tc.name, err)
		}
		equal(t, tc.name+": nothing written", invitations(t, s, tm.ID), []taskmgmt.Invitation(nil))
	}
	for _, tc := range badEmails {
		_, err := s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: tc.email})
		wantField(t, tc.name, err, "Email")
		equal(t, tc.name+": nothing written", invitations(t, s, tm.ID), []taskmgmt.Invitation(nil))
	}
	// A demoted admin cannot invite.
	must[taskmgmt.Member](t, "SetRole")(s.SetRole(ctx, tm.ID, "u1", "u2", taskmgmt.RoleAdmin))
	must[taskmgmt.Member](t, "SetRole")(s.SetRole(ctx, tm.ID, "u1", "u1", taskmgmt.RoleMember))
	_, err := s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "a@example.com"})
	wantErr(t, "a demoted admin inviting", err, ddbkit.ErrPermissionDenied)
	must[taskmgmt.Invitation](t, "the new admin")(s.Invite(ctx, tm.ID, "u2", taskmgmt.NewInvitation{Email: "a@example.com"}))
	for _, a := range []taskmgmt.Acceptance{{TeamID: "t#", InvitationID: "i", Token: "x"}, {TeamID: tm.ID, InvitationID: "", Token: "x"}} {
		_, err := s.AcceptInvitation(ctx, "u3", a)
		wantErr(t, "a bad acceptance", err, ddbkit.ErrInvalidArgument)
	}
}

func testConcurrentAccept(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := inviteFixture(t, s)
	const n = 16
	for i := range n {
		must[taskmgmt.User](t, "CreateUser")(s.CreateUser(ctx, taskmgmt.NewUser{ID: fmt.Sprintf("c%02d", i), Email: "e@example.com", Name: "n"}))
	}
	inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "shared@example.com"}))
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.AcceptInvitation(ctx, fmt.Sprintf("c%02d", i), accept(inv))
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
			if !isMember(t, s, tm.ID, fmt.Sprintf("c%02d", i)) {
				t.Fatalf("the winner c%02d is no member", i)
			}
		case errors.Is(err, ddbkit.ErrNotFound), errors.Is(err, ddbkit.ErrConflict):
		default:
			t.Fatalf("c%02d: %v", i, err)
		}
	}
	equal(t, "winners", won, 1)
	equal(t, "members", len(all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Member], error) { return s.ListMembers(ctx, tm.ID, o) })), 3)
}

func testInvitationsCancelled(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	tm := inviteFixture(t, s)
	inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(t.Context(), tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for name, call := range map[string]func() error{
		"Invite": func() error {
			_, err := s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "x@example.com"})
			return err
		},
		"GetInvitation": func() error { _, err := s.GetInvitation(ctx, tm.ID, inv.ID); return err },
		"ListInvitations": func() error {
			_, err := s.ListInvitations(ctx, tm.ID, ddbkit.PageOptions{})
			return err
		},
		"AcceptInvitation": func() error { _, err := s.AcceptInvitation(ctx, "u3", accept(inv)); return err },
		"RevokeInvitation": func() error { return s.RevokeInvitation(ctx, tm.ID, "u1", inv.ID) },
	} {
		err := call()
		wantErr(t, name+" under a cancelled context", err, ddbkit.ErrUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v does not match context.Canceled", name, err)
		}
	}
	list := invitations(t, s, tm.ID)
	equal(t, "nothing written", len(list), 1)
	equal(t, "nothing written", list[0].ID, inv.ID)
	if isMember(t, s, tm.ID, "u3") {
		t.Fatal("a cancelled acceptance made a member")
	}
}

func testInvitationIdempotency(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	tm := inviteFixture(t, s)
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "invite-"+ddbkit.NewUUIDv4())
	first := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	again := must[taskmgmt.Invitation](t, "Invite repeated under the key")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	equal(t, "Invite repeated under the key (the first invitation, its token included)", again, first)
	list := invitations(t, s, tm.ID)
	equal(t, "one invitation", len(list), 1)

	ctx = ddbkit.WithIdempotencyKey(t.Context(), "revoke-"+ddbkit.NewUUIDv4())
	for i := range 2 {
		wantErr(t, fmt.Sprint("RevokeInvitation under one key, call ", i+1), s.RevokeInvitation(ctx, tm.ID, "u1", list[0].ID), nil)
	}
	equal(t, "revoked", len(invitations(t, s, tm.ID)), 0)
}

// testNewToken: Options.NewToken makes the tokens, which accept.
func testNewToken(t *testing.T, newStore NewStore) {
	n := 0
	s, _ := fixed(t, newStore, func(o *taskmgmt.Options) {
		o.NewToken = func() string { n++; return fmt.Sprint("token-", n) }
	})
	ctx := t.Context()
	tm := inviteFixture(t, s)
	inv := must[taskmgmt.Invitation](t, "Invite")(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	if inv.Token != "token-1" {
		t.Fatalf("token = %q, want token-1 from Options.NewToken", inv.Token)
	}
	must[taskmgmt.Member](t, "AcceptInvitation")(s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: tm.ID, InvitationID: inv.ID, Token: "token-1"}))
}

// testOneEmailRule holds every write of an address to Invite's rule (the
// package doc's "Email addresses"): CreateUser refuses what Invite
// refuses, naming Email and writing nothing, and takes what Invite takes,
// stored as given; so that under Options.AcceptOnlyAddressee every user
// can accept an invitation to their address, whatever its ASCII case.
func testOneEmailRule(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore, func(o *taskmgmt.Options) { o.AcceptOnlyAddressee = true })
	ctx := t.Context()
	tm := team(t, s)
	for _, tc := range badEmails {
		_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "bad", Email: tc.email, Name: "n"})
		wantField(t, "CreateUser: "+tc.name, err, "Email")
		_, err = s.GetUser(ctx, "bad")
		wantErr(t, "CreateUser: "+tc.name+": nothing written", err, ddbkit.ErrNotFound)
	}
	for i, email := range goodEmails {
		id := "g" + strconv.Itoa(i)
		u := must[taskmgmt.User](t, "CreateUser "+email)(s.CreateUser(ctx, taskmgmt.NewUser{ID: id, Email: email, Name: "n"}))
		equal(t, "CreateUser stores the address as given", u.Email, email)
		equal(t, "GetUser reads it as given", must[taskmgmt.User](t, "GetUser")(s.GetUser(ctx, id)).Email, email)
		// The address in another ASCII case is the same address.
		inv := must[taskmgmt.Invitation](t, "Invite "+email)(s.Invite(ctx, tm.ID, "u1", taskmgmt.NewInvitation{Email: upperASCII(email)}))
		must[taskmgmt.Member](t, "AcceptInvitation by the addressee "+email)(s.AcceptInvitation(ctx, id, accept(inv)))
	}
}

// upperASCII is s with its ASCII letters in upper case, and nothing else
// changed.
func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
