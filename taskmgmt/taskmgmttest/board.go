package taskmgmttest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// boardFixture is a team on 2025-11-10 (Tokyo) with tasks A to G and tags
// x (on A and D) and y (on D and F). No two tasks share a date: DynamoDB
// orders a GSI's equal sort keys in an undocumented order of its own, and
// the seed's START#<date> and END#<date> keys do not break ties.
type boardFixture struct {
	team taskmgmt.Team
	x, y taskmgmt.Tag
	ids  map[string]string // title -> task ID
}

func newBoard(t *testing.T, s taskmgmt.Store) boardFixture {
	t.Helper()
	ctx := t.Context()
	f := boardFixture{team: team(t, s), ids: map[string]string{}}
	f.x = must[taskmgmt.Tag](t, "CreateTag x")(s.CreateTag(ctx, f.team.ID, taskmgmt.NewTag{Name: "x", Color: red}))
	f.y = must[taskmgmt.Tag](t, "CreateTag y")(s.CreateTag(ctx, f.team.ID, taskmgmt.NewTag{Name: "y", Color: red}))
	for _, in := range []taskmgmt.NewTask{
		newTask("A", taskmgmt.StatusTodo, "2025-11-01", "2025-11-05", f.x.ID),
		newTask("B", taskmgmt.StatusDoing, "2025-11-03", "2025-11-20"),
		newTask("C", taskmgmt.StatusDone, "2025-11-02", "2025-11-04"),
		newTask("D", taskmgmt.StatusTodo, "2025-11-15", "2025-11-30", f.x.ID, f.y.ID),
		newTask("E", taskmgmt.StatusDoing, "2025-11-05", "2025-11-08"),
		newTask("F", taskmgmt.StatusTodo, "2025-11-10", "2025-11-12", f.y.ID),
		newTask("G", taskmgmt.StatusTodo, "2025-11-16", "2025-11-17"),
	} {
		task := must[taskmgmt.Task](t, "CreateTask "+in.Title)(s.CreateTask(ctx, f.team.ID, in))
		f.ids[in.Title] = task.ID
	}
	return f
}

func testBoardViews(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	f := newBoard(t, s)
	for _, tc := range []struct {
		name string
		view taskmgmt.View
		want []string
	}{
		{"initial: TODO and DOING by start", taskmgmt.ViewInitial, []string{"A", "B", "E", "F", "D", "G"}},
		{"TODO only", taskmgmt.ViewTodo, []string{"A", "F", "D", "G"}},
		{"all statuses", taskmgmt.ViewAll, []string{"A", "C", "B", "E", "F", "D", "G"}},
		{"start overdue: TODO starting before today", taskmgmt.ViewStartOverdue, []string{"A"}},
		{"end overdue: not done, ending before today, by end", taskmgmt.ViewEndOverdue, []string{"A", "E"}},
	} {
		equal(t, tc.name, board(t, s, f.team.ID, taskmgmt.BoardQuery{View: tc.view}), tc.want)
	}
	equal(t, "counts", counts(t, s, f.team.ID), taskmgmt.Counts{Todo: 4, Doing: 2, Done: 1})

	// Moving a task moves it between the views at once.
	must[taskmgmt.Task](t, "move A")(s.UpdateTask(t.Context(), f.team.ID, f.ids["A"], taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDone)}))
	must[taskmgmt.Task](t, "reschedule G")(s.UpdateTask(t.Context(), f.team.ID, f.ids["G"], taskmgmt.TaskPatch{Start: ptr(taskmgmt.Date("2025-11-01"))}))
	equal(t, "initial after moves", board(t, s, f.team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewInitial}), []string{"G", "B", "E", "F", "D"})
	equal(t, "start overdue after moves", board(t, s, f.team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue}), []string{"G"})
	equal(t, "end overdue after moves", board(t, s, f.team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue}), []string{"E"})
	equal(t, "counts after moves", counts(t, s, f.team.ID), taskmgmt.Counts{Todo: 3, Doing: 2, Done: 2})
}

func testBoardTagFilters(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	f := newBoard(t, s)
	for _, tc := range []struct {
		name string
		q    taskmgmt.BoardQuery
		want []string
	}{
		{"TODO with tag x", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{f.x.ID}}, []string{"A", "D"}},
		{"TODO with x or y", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{f.y.ID, f.x.ID}}, []string{"A", "F", "D"}},
		{"TODO with x and y", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{f.x.ID, f.y.ID}, Match: taskmgmt.MatchAll}, []string{"D"}},
		{"start overdue with y", taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue, TagIDs: []string{f.y.ID}}, nil},
		{"start overdue with x", taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue, TagIDs: []string{f.x.ID}}, []string{"A"}},
		{"end overdue with x or y", taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue, TagIDs: []string{f.x.ID, f.y.ID}}, []string{"A"}},
		{"all with unknown tag", taskmgmt.BoardQuery{View: taskmgmt.ViewAll, TagIDs: []string{"ghost"}}, nil},
	} {
		equal(t, tc.name, board(t, s, f.team.ID, tc.q), tc.want)
	}
}

func testBoardCursors(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	f := newBoard(t, s)
	z := must[taskmgmt.Tag](t, "CreateTag z")(s.CreateTag(ctx, f.team.ID, taskmgmt.NewTag{Name: "z", Color: red}))
	// Many tasks without z between the three with it: a filtered page
	// must still be full.
	for i := range 30 {
		d := addDays(t, taskmgmt.Date("2025-10-01"), i)
		in := newTask(fmt.Sprintf("n%02d", i), taskmgmt.StatusTodo, d, d)
		if i%10 == 9 {
			in.TagIDs = []string{z.ID}
		}
		must[taskmgmt.Task](t, "CreateTask")(s.CreateTask(ctx, f.team.ID, in))
	}
	q := taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{z.ID}, PageOptions: ddbkit.PageOptions{Limit: 2}}
	p1 := must[ddbkit.Page[taskmgmt.Task]](t, "page 1")(s.ListBoard(ctx, f.team.ID, q))
	if len(p1.Items) != 2 || p1.Next == "" {
		t.Fatalf("filtered page 1 = %d items, next %q; want a full page and more", len(p1.Items), p1.Next)
	}
	q2 := q
	q2.Cursor = p1.Next
	p2 := must[ddbkit.Page[taskmgmt.Task]](t, "page 2")(s.ListBoard(ctx, f.team.ID, q2))
	if len(p2.Items) != 1 || p2.Next != "" || p2.Items[0].Title != "n29" {
		t.Fatalf("filtered page 2 = %+v", p2)
	}
	equal(t, "exactly full page has no next", func() string {
		q3 := q
		q3.Limit = 3
		return must[ddbkit.Page[taskmgmt.Task]](t, "limit 3")(s.ListBoard(ctx, f.team.ID, q3)).Next
	}(), "")

	for _, tc := range []struct {
		name string
		q    taskmgmt.BoardQuery
	}{
		{"other filter", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{f.x.ID}}},
		{"no filter", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo}},
		{"all instead of any", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{z.ID, f.x.ID}, Match: taskmgmt.MatchAll}},
		{"other view", taskmgmt.BoardQuery{View: taskmgmt.ViewInitial, TagIDs: []string{z.ID}}},
		{"garbage", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{z.ID}}},
	} {
		tc.q.Cursor = p1.Next
		if tc.name == "garbage" {
			tc.q.Cursor = "x" + p1.Next
		}
		_, err := s.ListBoard(ctx, f.team.ID, tc.q)
		wantErr(t, "cursor with "+tc.name, err, ddbkit.ErrInvalidCursor)
	}
	// The same tags in another order are the same filter.
	q4 := taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{f.y.ID, f.x.ID}, PageOptions: ddbkit.PageOptions{Limit: 1}}
	p := must[ddbkit.Page[taskmgmt.Task]](t, "x|y page 1")(s.ListBoard(ctx, f.team.ID, q4))
	q4.TagIDs, q4.Cursor = []string{f.x.ID, f.y.ID}, p.Next
	must[ddbkit.Page[taskmgmt.Task]](t, "y|x page 2")(s.ListBoard(ctx, f.team.ID, q4))

	// An overdue view's cursor is bound to its day.
	od := taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue, PageOptions: ddbkit.PageOptions{Limit: 1}}
	p = must[ddbkit.Page[taskmgmt.Task]](t, "overdue page 1")(s.ListBoard(ctx, f.team.ID, od))
	clk.Set(Start.Add(24 * time.Hour))
	od.Cursor = p.Next
	_, err := s.ListBoard(ctx, f.team.ID, od)
	wantErr(t, "overdue cursor of yesterday", err, ddbkit.ErrInvalidCursor)
}

func testDailyExpire(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore, func(o *taskmgmt.Options) { o.CounterRetention = 24 * time.Hour })
	ctx := t.Context()
	tm := team(t, s)
	must[taskmgmt.Task](t, "CreateTask")(s.CreateTask(ctx, tm.ID, newTask("a", "", "2025-11-01", "2025-11-02")))
	d := daily(t, s, tm.ID)
	// The day after 2025-11-10 starts at 2025-11-11 00:00 in Tokyo; plus 24 h.
	wantExp := time.Date(2025, 11, 12, 0, 0, 0, 0, Tokyo).UTC()
	if len(d) != 1 || !d[0].ExpiresAt.Equal(wantExp) || d[0].Date != "2025-11-10" {
		t.Fatalf("daily = %+v, want 2025-11-10 expiring at %v", d, wantExp)
	}
	clk.Set(wantExp.Add(-time.Second))
	if d := daily(t, s, tm.ID); len(d) != 1 {
		t.Fatalf("daily before expiry = %+v", d)
	}
	clk.Set(wantExp)
	if d := daily(t, s, tm.ID); len(d) != 0 {
		t.Fatalf("expired daily counter still listed: %+v", d)
	}
	equal(t, "COUNTER#ALL never expires", counts(t, s, tm.ID), taskmgmt.Counts{Todo: 1})
	p := must[ddbkit.Page[taskmgmt.DailyCount]](t, "ranged")(s.ListDailyCounts(ctx, tm.ID, taskmgmt.DailyQuery{From: "2025-11-11"}))
	if len(p.Items) != 0 {
		t.Fatalf("range after the only counter = %+v", p.Items)
	}
}

func testRecalculate(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	f := newBoard(t, s)
	rep := must[taskmgmt.CounterReport](t, "RecalculateCounters")(s.RecalculateCounters(t.Context(), f.team.ID))
	want := taskmgmt.Counts{Todo: 4, Doing: 2, Done: 1}
	equal(t, "report", rep, taskmgmt.CounterReport{Was: want, Counts: want, Checked: 7})

	// A team that does not exist, or no longer does, gets no counter: once
	// deleted, a team stays deleted, however often it is recounted.
	ctx := t.Context()
	_, err := s.RecalculateCounters(ctx, "nosuchteam")
	wantErr(t, "RecalculateCounters of an unknown team", err, ddbkit.ErrNotFound)
	wantErr(t, "DeleteTeam of the unknown team recounted", s.DeleteTeam(ctx, "nosuchteam", "u1"), ddbkit.ErrNotFound)
	wantErr(t, "DeleteTeam", s.DeleteTeam(ctx, f.team.ID, "u1"), nil)
	_, err = s.RecalculateCounters(ctx, f.team.ID)
	wantErr(t, "RecalculateCounters of a deleted team", err, ddbkit.ErrNotFound)
	wantErr(t, "DeleteTeam of the deleted team recounted", s.DeleteTeam(ctx, f.team.ID, "u1"), ddbkit.ErrNotFound)
}

func testRenames(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	t1 := team(t, s)
	must[taskmgmt.User](t, "CreateUser u2")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "e@example.com", Name: "old"}))
	t2 := must[taskmgmt.Team](t, "CreateTeam 2")(s.CreateTeam(ctx, "u2", taskmgmt.NewTeam{Name: "second"}))
	must[taskmgmt.Member](t, "AddMember")(s.AddMember(ctx, t1.ID, "u1", "u2", taskmgmt.RoleMember))

	u := must[taskmgmt.User](t, "RenameUser")(s.RenameUser(ctx, "u2", "new"))
	equal(t, "renamed", u.Name, "new")
	for _, tm := range []taskmgmt.Team{t1, t2} {
		for _, m := range all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Member], error) { return s.ListMembers(ctx, tm.ID, o) }) {
			if m.UserID == "u2" && m.UserName != "new" {
				t.Fatalf("team %s still calls u2 %q", tm.Name, m.UserName)
			}
		}
	}
	renamed := must[taskmgmt.Team](t, "UpdateTeam")(s.UpdateTeam(ctx, t1.ID, "u1", taskmgmt.TeamPatch{Name: ptr("renamed")}))
	equal(t, "UpdateTeam", renamed, taskmgmt.Team{ID: t1.ID, Name: "renamed", Description: t1.Description})
	for _, uid := range []string{"u1", "u2"} {
		for _, m := range all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
			return s.ListUserTeams(ctx, uid, o)
		}) {
			if m.TeamID == t1.ID && m.TeamName != "renamed" {
				t.Fatalf("%s still sees team %q", uid, m.TeamName)
			}
		}
	}
	d := must[taskmgmt.Team](t, "UpdateTeam description")(s.UpdateTeam(ctx, t1.ID, "u1", taskmgmt.TeamPatch{Description: ptr("")}))
	equal(t, "description cleared", d.Description, "")
	_, err := s.UpdateTeam(ctx, "ghost", "u1", taskmgmt.TeamPatch{Name: ptr("x")})
	wantErr(t, "UpdateTeam unknown", err, ddbkit.ErrNotFound)
	_, err = s.RenameUser(ctx, "ghost", "x")
	wantErr(t, "RenameUser unknown", err, ddbkit.ErrNotFound)
}

func testDeleteTag(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	f := newBoard(t, s)
	wantErr(t, "DeleteTag", s.DeleteTag(ctx, f.team.ID, "u1", f.x.ID), nil)
	for _, title := range []string{"A", "D"} {
		task := must[taskmgmt.Task](t, "GetTask")(s.GetTask(ctx, f.team.ID, f.ids[title]))
		for _, id := range task.TagIDs {
			if id == f.x.ID {
				t.Fatalf("task %s still has the deleted tag", title)
			}
		}
	}
	a := must[taskmgmt.Task](t, "GetTask A")(s.GetTask(ctx, f.team.ID, f.ids["A"]))
	if a.TagIDs != nil {
		t.Fatalf("A's tags = %#v, want nil", a.TagIDs)
	}
	tags := all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Tag], error) { return s.ListTags(ctx, f.team.ID, o) })
	equal(t, "tags left", tags, []taskmgmt.Tag{f.y})
	wantErr(t, "DeleteTag again", s.DeleteTag(ctx, f.team.ID, "u1", f.x.ID), nil)
	_, err := s.UpdateTask(ctx, f.team.ID, f.ids["B"], taskmgmt.TaskPatch{TagIDs: &[]string{f.x.ID}})
	wantField(t, "tag a task with the deleted tag", err, "TagIDs[0]")
	equal(t, "filter by y", board(t, s, f.team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll, TagIDs: []string{f.y.ID}}), []string{"F", "D"})
}

func testDeleteTeam(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	f := newBoard(t, s)
	must[taskmgmt.User](t, "CreateUser")(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "e@example.com", Name: "n"}))
	must[taskmgmt.Member](t, "AddMember")(s.AddMember(ctx, f.team.ID, "u1", "u2", taskmgmt.RoleMember))
	other := must[taskmgmt.Team](t, "CreateTeam other")(s.CreateTeam(ctx, "u2", taskmgmt.NewTeam{Name: "other"}))
	wantErr(t, "DeleteTeam", s.DeleteTeam(ctx, f.team.ID, "u1"), nil)
	_, err := s.GetTeam(ctx, f.team.ID)
	wantErr(t, "GetTeam deleted", err, ddbkit.ErrNotFound)
	for _, uid := range []string{"u1", "u2"} {
		for _, m := range all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
			return s.ListUserTeams(ctx, uid, o)
		}) {
			if m.TeamID == f.team.ID {
				t.Fatalf("%s still in the deleted team", uid)
			}
		}
	}
	equal(t, "board of deleted team", board(t, s, f.team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll}), []string(nil))
	equal(t, "counts of deleted team", counts(t, s, f.team.ID), taskmgmt.Counts{})
	equal(t, "other team stays", must[taskmgmt.Team](t, "GetTeam other")(s.GetTeam(ctx, other.ID)), other)
	wantErr(t, "DeleteTeam again", s.DeleteTeam(ctx, f.team.ID, "u1"), ddbkit.ErrNotFound)
}

// snapshot is everything the bad-input and cancellation tests read back.
func snapshot(t *testing.T, s taskmgmt.Store, f boardFixture) string {
	t.Helper()
	ctx := t.Context()
	var b strings.Builder
	for _, task := range all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Task], error) {
		return s.ListBoard(ctx, f.team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll, PageOptions: o})
	}) {
		fmt.Fprintf(&b, "%+v\n", task)
	}
	fmt.Fprintf(&b, "%+v\n", counts(t, s, f.team.ID))
	fmt.Fprintf(&b, "%+v\n", daily(t, s, f.team.ID))
	fmt.Fprintf(&b, "%+v\n", all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Member], error) {
		return s.ListMembers(ctx, f.team.ID, o)
	}))
	fmt.Fprintf(&b, "%+v\n", all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Tag], error) { return s.ListTags(ctx, f.team.ID, o) }))
	fmt.Fprintf(&b, "%+v\n", all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Membership], error) {
		return s.ListUserTeams(ctx, "u1", o)
	}))
	return b.String()
}

func testBadInput(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	f := newBoard(t, s)
	before := snapshot(t, s, f)
	a := f.ids["A"]
	long := strings.Repeat("あ", taskmgmt.MaxTitleLen+1)
	for _, tc := range []struct {
		name  string
		call  func() error
		field string
		want  error
	}{
		{"unknown status", func() error {
			_, err := s.CreateTask(ctx, f.team.ID, newTask("t", "blocked", "2025-11-01", "2025-11-02"))
			return err
		}, "Status", nil},
		{"unknown status in a move", func() error {
			_, err := s.UpdateTask(ctx, f.team.ID, a, taskmgmt.TaskPatch{Status: ptr(taskmgmt.Status("DONE"))})
			return err
		}, "Status", nil},
		{"bad date", func() error {
			_, err := s.CreateTask(ctx, f.team.ID, newTask("t", "", "2025-02-30", "2025-11-02"))
			return err
		}, "Start", nil},
		{"date with time", func() error {
			_, err := s.UpdateTask(ctx, f.team.ID, a, taskmgmt.TaskPatch{End: ptr(taskmgmt.Date("2025-11-20T00:00:00Z"))})
			return err
		}, "End", nil},
		{"end before start", func() error {
			_, err := s.CreateTask(ctx, f.team.ID, newTask("t", "", "2025-11-02", "2025-11-01"))
			return err
		}, "End", nil},
		{"end before the stored start", func() error {
			_, err := s.UpdateTask(ctx, f.team.ID, a, taskmgmt.TaskPatch{End: ptr(taskmgmt.Date("2025-10-01"))})
			return err
		}, "End", nil},
		{"# in team ID", func() error {
			_, err := s.CreateTask(ctx, "t#1", newTask("t", "", "2025-11-01", "2025-11-02"))
			return err
		}, "TeamID", nil},
		{"# in tag ID", func() error {
			_, err := s.CreateTask(ctx, f.team.ID, newTask("t", "", "2025-11-01", "2025-11-02", "TAG#x"))
			return err
		}, "TagIDs[0]", nil},
		{"# in user ID", func() error {
			_, err := s.AddMember(ctx, f.team.ID, "u1", "u#2", taskmgmt.RoleMember)
			return err
		}, "UserID", nil},
		{"too-long title", func() error {
			_, err := s.CreateTask(ctx, f.team.ID, newTask(long, "", "2025-11-01", "2025-11-02"))
			return err
		}, "Title", nil},
		{"too-long team name", func() error {
			_, err := s.UpdateTeam(ctx, f.team.ID, "u1", taskmgmt.TeamPatch{Name: ptr(strings.Repeat("x", taskmgmt.MaxNameLen+1))})
			return err
		}, "Name", nil},
		{"empty patch", func() error {
			_, err := s.UpdateTask(ctx, f.team.ID, a, taskmgmt.TaskPatch{})
			return err
		}, "patch", nil},
		{"unknown tag", func() error {
			_, err := s.CreateTask(ctx, f.team.ID, newTask("t", "", "2025-11-01", "2025-11-02", f.x.ID, "nope"))
			return err
		}, "TagIDs[1]", nil},
		{"unknown role", func() error {
			_, err := s.SetRole(ctx, f.team.ID, "u1", "u1", "owner")
			return err
		}, "Role", nil},
		{"non-member's role", func() error {
			_, err := s.SetRole(ctx, f.team.ID, "u1", "stranger", taskmgmt.RoleAdmin)
			return err
		}, "", ddbkit.ErrNotFound},
		{"removing a non-member", func() error { return s.RemoveMember(ctx, f.team.ID, "u1", "stranger") }, "", ddbkit.ErrNotFound},
		{"bad view", func() error {
			_, err := s.ListBoard(ctx, f.team.ID, taskmgmt.BoardQuery{View: "kanban"})
			return err
		}, "View", nil},
		{"too many tags", func() error {
			tags := make([]string, taskmgmt.MaxTagsPerTask+1)
			for i := range tags {
				tags[i] = fmt.Sprint("t", i)
			}
			_, err := s.CreateTask(ctx, f.team.ID, newTask("t", "", "2025-11-01", "2025-11-02", tags...))
			return err
		}, "TagIDs", nil},
	} {
		err := tc.call()
		if tc.want != nil {
			wantErr(t, tc.name, err, tc.want)
		} else {
			wantField(t, tc.name, err, tc.field)
		}
	}
	if after := snapshot(t, s, f); after != before {
		t.Fatalf("bad input changed the store:\nbefore %s\nafter  %s", before, after)
	}
}

func testCancelled(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	f := newBoard(t, s)
	must[taskmgmt.User](t, "CreateUser")(s.CreateUser(t.Context(), taskmgmt.NewUser{ID: "u2", Email: "e@example.com", Name: "n"}))
	before := snapshot(t, s, f)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	a := f.ids["A"]
	for name, call := range map[string]func() error{
		"CreateUser": func() error {
			_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "u9", Email: "e@example.com", Name: "n"})
			return err
		},
		"RenameUser": func() error { _, err := s.RenameUser(ctx, "u1", "x"); return err },
		"CreateTeam": func() error { _, err := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "x"}); return err },
		"UpdateTeam": func() error {
			_, err := s.UpdateTeam(ctx, f.team.ID, "u1", taskmgmt.TeamPatch{Name: ptr("x")})
			return err
		},
		"DeleteTeam":   func() error { return s.DeleteTeam(ctx, f.team.ID, "u1") },
		"AddMember":    func() error { _, err := s.AddMember(ctx, f.team.ID, "u1", "u2", taskmgmt.RoleAdmin); return err },
		"SetRole":      func() error { _, err := s.SetRole(ctx, f.team.ID, "u1", "u1", taskmgmt.RoleMember); return err },
		"RemoveMember": func() error { return s.RemoveMember(ctx, f.team.ID, "u1", "u1") },
		"CreateTag": func() error {
			_, err := s.CreateTag(ctx, f.team.ID, taskmgmt.NewTag{Name: "x", Color: red})
			return err
		},
		"DeleteTag": func() error { return s.DeleteTag(ctx, f.team.ID, "u1", f.x.ID) },
		"CreateTask": func() error {
			_, err := s.CreateTask(ctx, f.team.ID, newTask("t", "", "2025-11-01", "2025-11-02"))
			return err
		},
		"UpdateTask": func() error {
			_, err := s.UpdateTask(ctx, f.team.ID, a, taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)})
			return err
		},
		"DeleteTask":          func() error { return s.DeleteTask(ctx, f.team.ID, a) },
		"RecalculateCounters": func() error { _, err := s.RecalculateCounters(ctx, f.team.ID); return err },
		"GetTask":             func() error { _, err := s.GetTask(ctx, f.team.ID, a); return err },
		"ListBoard": func() error {
			_, err := s.ListBoard(ctx, f.team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll})
			return err
		},
		"GetCounts": func() error { _, err := s.GetCounts(ctx, f.team.ID); return err },
	} {
		err := call()
		wantErr(t, name+" under a cancelled context", err, ddbkit.ErrUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: error %v does not match context.Canceled", name, err)
		}
	}
	if after := snapshot(t, s, f); after != before {
		t.Fatalf("a cancelled context changed the store:\nbefore %s\nafter  %s", before, after)
	}
}

func testIdempotencyKey(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	f := newBoard(t, s)
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "request-1-"+ddbkit.NewUUIDv4()) // DynamoDB remembers tokens per account, across tables
	for i := range 2 {
		task, err := s.UpdateTask(ctx, f.team.ID, f.ids["A"], taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)})
		wantErr(t, fmt.Sprint("UpdateTask under one key, call ", i+1), err, nil)
		equal(t, "status", task.Status, taskmgmt.StatusDoing)
	}
	equal(t, "moved once", counts(t, s, f.team.ID), taskmgmt.Counts{Todo: 3, Doing: 3, Done: 1})
	d := daily(t, s, f.team.ID)
	equal(t, "one transition into doing", d[len(d)-1].Counts, taskmgmt.Counts{Todo: 4, Doing: 3, Done: 1})

	ctx = ddbkit.WithIdempotencyKey(t.Context(), "request-2-"+ddbkit.NewUUIDv4())
	first, err := s.CreateTask(ctx, f.team.ID, newTask("once", "", "2025-11-01", "2025-11-02"))
	wantErr(t, "CreateTask", err, nil)
	again, err := s.CreateTask(ctx, f.team.ID, newTask("once", "", "2025-11-01", "2025-11-02"))
	wantErr(t, "CreateTask repeated under the key", err, nil)
	equal(t, "CreateTask repeated under the key (the first task)", again, first)
	if n := len(board(t, s, f.team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll})); n != 8 {
		t.Fatalf("%d tasks, want 8", n)
	}
}

// testConcurrent runs 32 goroutines that create, move and delete tasks in
// one team. Afterwards COUNTER#ALL equals the tasks by status, and the
// day's counter equals the transitions that succeeded.
func testConcurrent(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	var (
		mu          sync.Mutex
		transitions taskmgmt.Counts
		wg          sync.WaitGroup
	)
	note := func(st taskmgmt.Status) {
		mu.Lock()
		defer mu.Unlock()
		switch st {
		case taskmgmt.StatusTodo:
			transitions.Todo++
		case taskmgmt.StatusDoing:
			transitions.Doing++
		case taskmgmt.StatusDone:
			transitions.Done++
		}
	}
	var shared []string
	for i := range 4 {
		task := must[taskmgmt.Task](t, "CreateTask shared")(s.CreateTask(ctx, tm.ID, newTask(fmt.Sprint("shared", i), "", "2025-11-01", "2025-11-30")))
		note(taskmgmt.StatusTodo)
		shared = append(shared, task.ID)
	}
	var deleted [4]int
	for g := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			task, err := s.CreateTask(ctx, tm.ID, newTask(fmt.Sprint("g", g), "", "2025-11-01", "2025-11-30"))
			if err != nil {
				if !errors.Is(err, ddbkit.ErrConflict) {
					t.Errorf("CreateTask: %v", err)
				}
				return
			}
			note(taskmgmt.StatusTodo)
			for _, st := range []taskmgmt.Status{taskmgmt.StatusDoing, taskmgmt.StatusDone} {
				if _, err := s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{Status: ptr(st)}); err == nil {
					note(st)
				} else if !errors.Is(err, ddbkit.ErrConflict) {
					t.Errorf("UpdateTask: %v", err)
				}
			}
			if g%4 == 0 {
				if err := s.DeleteTask(ctx, tm.ID, task.ID); err != nil && !errors.Is(err, ddbkit.ErrConflict) {
					t.Errorf("DeleteTask: %v", err)
				}
			}
			// Eight goroutines race to delete each shared task: one wins.
			switch err := s.DeleteTask(ctx, tm.ID, shared[g%4]); {
			case err == nil:
				mu.Lock()
				deleted[g%4]++
				mu.Unlock()
			case !errors.Is(err, ddbkit.ErrNotFound) && !errors.Is(err, ddbkit.ErrConflict):
				t.Errorf("DeleteTask shared: %v", err)
			}
		}()
	}
	wg.Wait()
	var byStatus taskmgmt.Counts
	for _, task := range all(t, func(o ddbkit.PageOptions) (ddbkit.Page[taskmgmt.Task], error) {
		return s.ListBoard(ctx, tm.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll, PageOptions: o})
	}) {
		switch task.Status {
		case taskmgmt.StatusTodo:
			byStatus.Todo++
		case taskmgmt.StatusDoing:
			byStatus.Doing++
		case taskmgmt.StatusDone:
			byStatus.Done++
		}
	}
	equal(t, "COUNTER#ALL equals the tasks by status", counts(t, s, tm.ID), byStatus)
	d := daily(t, s, tm.ID)
	if len(d) != 1 {
		t.Fatalf("daily counters: %+v", d)
	}
	equal(t, "the day's counter equals the transitions that succeeded", d[0].Counts, transitions)
	for i, n := range deleted {
		if n > 1 {
			t.Fatalf("shared task %d deleted %d times", i, n)
		}
	}
	rep := must[taskmgmt.CounterReport](t, "RecalculateCounters")(s.RecalculateCounters(ctx, tm.ID))
	if rep.Drift {
		t.Fatalf("counters drifted: %+v", rep)
	}
}
