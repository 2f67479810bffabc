package taskmgmt_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestStepClockUnderIdempotencyKeys runs one session of keyed writes on
// both stores, each with a step clock that moves a second per reading
// (within DynamoDB's 10-minute token window, which the memory store
// emulates and DynamoDB Local does not end), and requires the same
// transcript: every time the stores stamp (the invitations' createdAt
// and expiresAt, in whole seconds) comes from the same reading on both.
// The memory store used to read the clock twice more per keyed
// transaction (its token emulation), so its times ran ahead.
func TestStepClockUnderIdempotencyKeys(t *testing.T) {
	opts := func(o *taskmgmt.Options) {
		o.Clock = ddbkit.StepClock(start, time.Second)
		o.NewToken = func() string { return "token" }
	}
	dyn, _, table, invTable := newDynamoInv(t, nil, deterministic, opts)
	mem := taskmgmt.NewMemoryStore(deterministic, opts, func(o *taskmgmt.Options) {
		o.TableName, o.InvitationTableName = table, invTable
	})
	dynLog, memLog := keyedSession(t, dyn), keyedSession(t, mem)
	if len(dynLog) != len(memLog) {
		t.Fatalf("transcripts have %d and %d lines", len(dynLog), len(memLog))
	}
	for i := range dynLog {
		if dynLog[i] != memLog[i] {
			t.Errorf("step %d differs:\n  dynamo %s\n  memory %s", i, dynLog[i], memLog[i])
		}
	}
}

func keyedSession(t *testing.T, s taskmgmt.Store) []string {
	var log []string
	n := 0
	key := func() context.Context {
		n++
		return ddbkit.WithIdempotencyKey(t.Context(), fmt.Sprintf("key-%d", n))
	}
	note := func(what string, v any, err error) {
		js, _ := json.Marshal(v)
		log = append(log, fmt.Sprintf("%s: %s err=%v", what, js, err))
	}
	u, err := s.CreateUser(key(), taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "alice"})
	note("create user", u, err)
	u, err = s.CreateUser(key(), taskmgmt.NewUser{ID: "u2", Email: "bob@example.com", Name: "bob"})
	note("create user", u, err)
	tm, err := s.CreateTeam(key(), "u1", taskmgmt.NewTeam{Name: "team"})
	note("create team", tm, err)
	tag, err := s.CreateTag(key(), tm.ID, taskmgmt.NewTag{Name: "tag", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}})
	note("create tag", tag, err)
	for i := range 3 {
		task, err := s.CreateTask(key(), tm.ID, taskmgmt.NewTask{Title: fmt.Sprint("task ", i), Start: "2025-11-01", End: "2025-11-02", TagIDs: []string{tag.ID}})
		note("create task", task, err)
		done := taskmgmt.StatusDone
		task, err = s.UpdateTask(key(), tm.ID, task.ID, taskmgmt.TaskPatch{Status: &done})
		note("update task", task, err)
	}
	inv, err := s.Invite(key(), tm.ID, "u1", taskmgmt.NewInvitation{Email: "bob@example.com"})
	note("invite", inv, err)
	m, err := s.AcceptInvitation(key(), "u2", taskmgmt.Acceptance{TeamID: tm.ID, InvitationID: inv.ID, Token: inv.Token})
	note("accept", m, err)
	again := ddbkit.WithIdempotencyKey(t.Context(), "the same key")
	for range 2 {
		inv, err = s.Invite(again, tm.ID, "u1", taskmgmt.NewInvitation{Email: "carol@example.com"})
		note("invite under one key", inv, err)
	}
	invs, err := s.ListInvitations(t.Context(), tm.ID, ddbkit.PageOptions{})
	note("list invitations", invs, err)
	d, err := s.ListDailyCounts(t.Context(), tm.ID, taskmgmt.DailyQuery{})
	note("list daily counts", d, err)
	members, err := s.ListMembers(t.Context(), tm.ID, ddbkit.PageOptions{})
	note("list members", members, err)
	return log
}
