package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	kit "github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// smokeTaskmgmt: the run's partitions are its user's, USER#<run ID>, and
// its team's, TEAM#<run ID>-001, in both tables (the team's status-group
// partitions of the GSIs are TEAM#<team>#Status#…). DeleteTeam deletes
// the team with its members, tag, tasks and counters, RevokeInvitation the
// invitation; the user item, which the store never deletes, goes by key.
//
// The invitation is to <run ID>@example.invalid, a domain that never
// resolves (RFC 2606): its insert is on the invitation table's stream, so
// the mailer (StreamHandler) sees it, and its mail cannot be delivered.
func smokeTaskmgmt(r *smokeRun, _ *tableFlags, tables []string) error {
	ctx, taskTable, invTable := r.ctx, tables[0], tables[1]
	s := taskmgmt.NewDynamoStore(r.c, func(o *taskmgmt.Options) {
		o.TableName = taskTable
		o.InvitationTableName = invTable
		o.NewID = r.newID
		o.CounterShards = r.counterShards
	})
	user := r.id
	r.owns(taskTable, "PK", "USER#"+user)
	if err := r.write("user "+user, func() error {
		_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: user, Email: user + "@example.invalid", Name: "ddbkit smoke"})
		return err
	}); err != nil {
		return err
	}
	team := r.peekID()
	r.owns(taskTable, "PK", "TEAM#"+team)
	r.owns(invTable, "PK", "TEAM#"+team)
	if err := r.write("team "+team+" of the user", func() error {
		got, err := s.CreateTeam(ctx, user, taskmgmt.NewTeam{Name: "ddbkit smoke"})
		return madeAs("team", got.ID, team, err)
	}); err != nil {
		return err
	}
	r.onCleanup("team "+team+" with its members, tags, tasks and counters (DeleteTeam)", func(ctx context.Context) error {
		return s.DeleteTeam(ctx, team, user)
	})
	var tag taskmgmt.Tag
	if err := r.write("a tag", func() (err error) {
		tag, err = s.CreateTag(ctx, team, taskmgmt.NewTag{Name: "ddbkit smoke", Color: taskmgmt.Color{Color: "#fff", BackgroundColor: "#000"}})
		return err
	}); err != nil {
		return err
	}
	// One task per status; both dates of each far enough from today, in
	// any zone, that the overdue boards hold the todo task alone, and in
	// the same order by start as by end: todo, doing, done.
	today := taskmgmt.DateOf(time.Now().UTC())
	tasks := map[taskmgmt.Status]string{}
	for _, t := range []struct {
		status     taskmgmt.Status
		start, end int
		tags       []string
	}{{taskmgmt.StatusTodo, -20, -10, []string{tag.ID}}, {taskmgmt.StatusDoing, -5, 10, nil}, {taskmgmt.StatusDone, -3, 20, nil}} {
		start, errStart := today.AddDays(t.start)
		end, errEnd := today.AddDays(t.end)
		if err := errors.Join(errStart, errEnd); err != nil {
			return err
		}
		if err := r.write("a "+string(t.status)+" task", func() error {
			got, err := s.CreateTask(ctx, team, taskmgmt.NewTask{Title: "ddbkit smoke", Status: t.status,
				Start: start, End: end, TagIDs: t.tags})
			tasks[t.status] = got.ID
			return err
		}); err != nil {
			return err
		}
	}
	var inv taskmgmt.Invitation
	if err := r.write("an invitation to "+user+"@example.invalid", func() (err error) {
		inv, err = s.Invite(ctx, team, user, taskmgmt.NewInvitation{Email: user + "@example.invalid"})
		return err
	}); err != nil {
		return err
	}
	r.onCleanup("invitation "+inv.ID+" (RevokeInvitation)", func(ctx context.Context) error {
		return s.RevokeInvitation(ctx, team, user, inv.ID)
	})

	yesterday, errFrom := today.AddDays(-1)
	tomorrow, errTo := today.AddDays(1)
	if err := errors.Join(errFrom, errTo); err != nil {
		return err
	}
	type page = kit.PageOptions
	counts := taskmgmt.Counts{Todo: 1, Doing: 1, Done: 1}
	reads := []smokeRead{
		getRead("GetUser", false, func() (string, error) { x, err := s.GetUser(ctx, user); return x.Name, err }, "ddbkit smoke"),
		getRead("GetTeam", false, func() (string, error) { x, err := s.GetTeam(ctx, team); return x.Name, err }, "ddbkit smoke"),
		listRead("ListMembers", false, func(o page) (kit.Page[taskmgmt.Member], error) { return s.ListMembers(ctx, team, o) },
			func(m taskmgmt.Member) string { return m.UserID + " " + string(m.Role) }, user+" admin"),
		listRead("ListUserTeams", false, func(o page) (kit.Page[taskmgmt.Membership], error) { return s.ListUserTeams(ctx, user, o) },
			func(m taskmgmt.Membership) string { return m.TeamID }, team),
		listRead("ListTags", false, func(o page) (kit.Page[taskmgmt.Tag], error) { return s.ListTags(ctx, team, o) },
			func(t taskmgmt.Tag) string { return t.ID }, tag.ID),
		getRead("GetCounts", false, func() (taskmgmt.Counts, error) { return s.GetCounts(ctx, team) }, counts),
		listRead("ListDailyCounts", false, func(o page) (kit.Page[taskmgmt.DailyCount], error) {
			return s.ListDailyCounts(ctx, team, taskmgmt.DailyQuery{From: yesterday, To: tomorrow, PageOptions: o})
		}, func(d taskmgmt.DailyCount) string { return fmt.Sprint(d.Counts) }, fmt.Sprint(counts)),
		getRead("GetInvitation", false, func() (string, error) { x, err := s.GetInvitation(ctx, team, inv.ID); return x.Email, err }, inv.Email),
		listRead("ListInvitations", false, func(o page) (kit.Page[taskmgmt.Invitation], error) { return s.ListInvitations(ctx, team, o) },
			func(i taskmgmt.Invitation) string { return i.ID }, inv.ID),
	}
	order := []taskmgmt.Status{taskmgmt.StatusTodo, taskmgmt.StatusDoing, taskmgmt.StatusDone}
	for _, st := range order {
		reads = append(reads, getRead("GetTask "+string(st), false, func() (taskmgmt.Status, error) {
			x, err := s.GetTask(ctx, team, tasks[st])
			return x.Status, err
		}, st))
	}
	// The boards: every set of statuses by either date (all eight status
	// GSIs), the overdue boards, and a tag filter.
	board := func(what string, q taskmgmt.BoardQuery, want ...taskmgmt.Status) smokeRead {
		var ids []string
		for _, st := range want {
			ids = append(ids, tasks[st])
		}
		return listRead("ListBoard "+what, true, func(o page) (kit.Page[taskmgmt.Task], error) {
			q.PageOptions = o
			return s.ListBoard(ctx, team, q)
		}, func(t taskmgmt.Task) string { return t.ID }, ids...)
	}
	for _, sort := range []taskmgmt.Sort{taskmgmt.SortStart, taskmgmt.SortEnd} {
		for set := 1; set < 1<<len(order); set++ {
			var sts []taskmgmt.Status
			for i, st := range order {
				if set&(1<<i) != 0 {
					sts = append(sts, st)
				}
			}
			var names []string
			for _, st := range sts {
				names = append(names, string(st))
			}
			reads = append(reads, board(fmt.Sprintf("%s by %s", strings.Join(names, "+"), sort),
				taskmgmt.BoardQuery{Statuses: slices.Clone(sts), Sort: sort}, sts...))
		}
	}
	reads = append(reads,
		board("start-overdue", taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue}, taskmgmt.StatusTodo),
		board("end-overdue", taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue}, taskmgmt.StatusTodo),
		board("all with the tag", taskmgmt.BoardQuery{View: taskmgmt.ViewAll, TagIDs: []string{tag.ID}}, taskmgmt.StatusTodo),
	)
	return r.readAll(reads...)
}
