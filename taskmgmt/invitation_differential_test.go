package taskmgmt_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestInvitationsMemoryMatchesDynamo runs one scripted invitation session
// on both stores, with the same clock, IDs and table names, and requires
// the same transcript: results, error messages and cursors, byte for
// byte. Tokens are random, so the transcript shows their length only.
func TestInvitationsMemoryMatchesDynamo(t *testing.T) {
	for _, budget := range []int{0, 1} {
		t.Run(fmt.Sprint("FilterBudget ", budget), func(t *testing.T) { testInvitationsMemoryMatchesDynamo(t, budget) })
	}
}

func testInvitationsMemoryMatchesDynamo(t *testing.T, budget int) {
	withBudget := func(o *taskmgmt.Options) { o.FilterBudget = budget }
	var clocks [2]time.Time
	clockOf := func(i int) func(*taskmgmt.Options) {
		clocks[i] = start
		return func(o *taskmgmt.Options) { o.Clock = func() time.Time { return clocks[i] } }
	}
	dyn, _, table, invTable := newDynamoInv(t, nil, deterministic, withBudget, clockOf(0))
	mem := taskmgmt.NewMemoryStore(deterministic, withBudget, clockOf(1), func(o *taskmgmt.Options) {
		o.TableName, o.InvitationTableName = table, invTable
	})
	dynLog := invitationSession(t, dyn, func(d time.Duration) { clocks[0] = clocks[0].Add(d) })
	memLog := invitationSession(t, mem, func(d time.Duration) { clocks[1] = clocks[1].Add(d) })
	if testing.Verbose() {
		for _, l := range memLog {
			t.Log(l)
		}
	}
	if len(dynLog) != len(memLog) {
		t.Fatalf("transcripts have %d and %d lines", len(dynLog), len(memLog))
	}
	for i := range dynLog {
		if dynLog[i] != memLog[i] {
			t.Errorf("step %d differs:\n  dynamo %s\n  memory %s", i, dynLog[i], memLog[i])
		}
	}
}

func invitationSession(t *testing.T, s taskmgmt.Store, advance func(time.Duration)) []string {
	ctx := t.Context()
	var log []string
	note := func(what string, v any, err error) {
		js, _ := json.Marshal(v)
		log = append(log, fmt.Sprintf("%s: %s err=%v", what, js, err))
	}
	inviteFixture(t, s)
	tokens := map[string]string{}
	invite := func(what, inviter, email string, role taskmgmt.Role) {
		inv, err := s.Invite(ctx, "id01", inviter, taskmgmt.NewInvitation{Email: email, Role: role})
		tokens[inv.ID] = inv.Token
		inv.Token = fmt.Sprintf("<%d characters>", len(inv.Token))
		note(what, inv, err)
		advance(time.Hour)
	}
	list := func(what string) {
		cursor := ""
		for page := 1; page < 10; page++ {
			p, err := s.ListInvitations(ctx, "id01", ddbkit.PageOptions{Limit: 2, Cursor: cursor})
			note(fmt.Sprintf("%s page %d next=%q", what, page, p.Next), p.Items, err)
			if err != nil || p.Next == "" {
				return
			}
			cursor = p.Next
		}
	}
	acceptAs := func(what, user, id, token string) {
		m, err := s.AcceptInvitation(ctx, user, taskmgmt.Acceptance{TeamID: "id01", InvitationID: id, Token: token})
		note(what, m, err)
	}
	invite("invite a", "u1", "a@example.com", "")         // id02
	invite("invite carol", "u1", "carol@example.com", "") // id03
	invite("invite b as admin", "u1", "b@example.com", taskmgmt.RoleAdmin)
	invite("invite by a member", "u2", "c@example.com", "")
	_, err := s.Invite(ctx, "id99", "u1", taskmgmt.NewInvitation{Email: "c@example.com"})
	note("invite to no team", nil, err)
	invite("invite a bad address", "u1", "c-at-example.com", "")
	invite("invite with a bad role", "u1", "c@example.com", "owner")
	invite("re-invite carol", "u1", "carol@example.com", taskmgmt.RoleAdmin) // id06 (the member's refused invitation took id05)
	list("list")
	inv, err := s.GetInvitation(ctx, "id01", "id04")
	note("get", inv, err)
	inv, err = s.GetInvitation(ctx, "id01", "id03")
	note("get the replaced one", inv, err)
	acceptAs("accept with a wrong token", "u3", "id06", tokens["id02"])
	acceptAs("accept the replaced one", "u3", "id03", tokens["id03"])
	acceptAs("accept as a member", "u2", "id06", tokens["id06"])
	acceptAs("accept", "u3", "id06", tokens["id06"])
	acceptAs("accept again", "u3", "id06", tokens["id06"])
	p, err := s.ListMembers(ctx, "id01", ddbkit.PageOptions{})
	note("members", p.Items, err)
	note("revoke by a member", nil, s.RevokeInvitation(ctx, "id01", "u2", "id02"))
	note("revoke none", nil, s.RevokeInvitation(ctx, "id01", "u1", "id99"))
	note("revoke a", nil, s.RevokeInvitation(ctx, "id01", "u1", "id02"))
	list("list after revoking")
	advance(24 * time.Hour)
	list("list after a day")
	acceptAs("accept an expired one", "u3", "id04", tokens["id04"])
	_, err = s.ListInvitations(ctx, "id01", ddbkit.PageOptions{Cursor: "bogus"})
	note("a bogus cursor", nil, err)
	return log
}
