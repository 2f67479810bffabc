package taskmgmt_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestInviteCostBounded fills a team's partition with a year of expired
// invitations TTL has not deleted yet, as the seed's app names them
// (UUIDv7, by creation time): Invite reads none of them, so its cost does
// not grow with the team's history (issue 22), and it still replaces a
// live invitation of the same address.
func TestInviteCostBounded(t *testing.T) {
	var cc *ddbtest.CapacityClient
	now := time.Date(2026, 1, 11, 14, 20, 0, 0, time.UTC)
	s, c, _, invTable := newDynamoInv(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCapacityClient(c); return cc },
		func(o *taskmgmt.Options) {
			o.Clock = func() time.Time { return now }
			o.NewID = ddbkit.SeededUUIDv7s(1, o.Clock)
		})
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "alice"}))
	team := must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}))
	for i := range 300 {
		created := now.Add(-time.Duration(i+2) * 24 * time.Hour)
		ms := created.UnixMilli()
		id := uuid.MustParse(fmt.Sprintf("%08x-%04x-7000-8000-%012x", ms>>16, ms&0xffff, i))
		putRaw(t, c, invTable, item{"PK": S("TEAM#" + team.ID), "SK": S("TINVITE#" + id.String()), "type": S("invitation"),
			"email": S(fmt.Sprintf("old%d@example.com", i)), "user_role": S("member"), "createdAt": N(created.Unix()),
			"expiresAt": N(created.Add(24 * time.Hour).Unix()), "invitedBy": S("USER#u1"), "token": S("t"), "team_name": S("team")})
	}
	first := must[taskmgmt.Invitation](t)(s.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	now = now.Add(time.Minute)
	var second taskmgmt.Invitation
	got := cc.Measure(func() {
		second = must[taskmgmt.Invitation](t)(s.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	})
	// The admin check and the team (strong reads, 1 each) and the live
	// invitations' Query (one small page).
	if got.Read > 3 {
		t.Fatalf("Invite beside 300 expired invitations read %v capacity units, want at most 3", got.Read)
	}
	if _, err := s.GetInvitation(ctx, team.ID, first.ID); err == nil {
		t.Fatal("the first invitation of the address was not replaced")
	}
	must[taskmgmt.Invitation](t)(s.GetInvitation(ctx, team.ID, second.ID))
}
