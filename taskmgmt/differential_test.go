package taskmgmt_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestMemoryMatchesDynamo runs one scripted session on both stores, with the
// same clock, IDs and table name, and requires the same transcript: every
// result, every error message and every cursor, byte for byte.
func TestMemoryMatchesDynamo(t *testing.T) {
	for _, budget := range []int{0, 1, 2} {
		t.Run(fmt.Sprint("FilterBudget ", budget), func(t *testing.T) { testMemoryMatchesDynamo(t, budget) })
	}
}

// testMemoryMatchesDynamo compares the stores with a filter budget: a
// small one ends the filtered pages (board tags, daily counters) early,
// short or empty with a Next, at the same item on both.
func testMemoryMatchesDynamo(t *testing.T, budget int) {
	withBudget := func(o *taskmgmt.Options) { o.FilterBudget = budget }
	dyn, _, table := newDynamo(t, nil, deterministic, withBudget)
	mem := taskmgmt.NewMemoryStore(deterministic, withBudget, func(o *taskmgmt.Options) { o.TableName = table })

	dynLog, memLog := session(t.Context(), dyn), session(t.Context(), mem)
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

// session drives s through the access patterns, the error paths and paging,
// and returns what it saw.
func session(ctx context.Context, s taskmgmt.Store) []string {
	var log []string
	note := func(what string, v any, err error) {
		js, _ := json.Marshal(v)
		log = append(log, fmt.Sprintf("%s: %s err=%v", what, js, err))
	}
	list := func(what string, fetch func(ddbkit.PageOptions) (any, string, error)) {
		cursor := ""
		for page := 1; page < 20; page++ {
			v, next, err := fetch(ddbkit.PageOptions{Limit: 2, Cursor: cursor})
			note(fmt.Sprintf("%s page %d next=%q", what, page, next), v, err)
			if err != nil || next == "" {
				return
			}
			cursor = next
		}
	}
	boardList := func(what string, q taskmgmt.BoardQuery) {
		list(what, func(o ddbkit.PageOptions) (any, string, error) {
			q.PageOptions = o
			p, err := s.ListBoard(ctx, "id01", q)
			return p.Items, p.Next, err
		})
	}
	for _, u := range []taskmgmt.NewUser{{ID: "u1", Email: "a@example.com", Name: "Alice"}, {ID: "u2", Email: "b@example.com", Name: "Bob"}, {ID: "u1", Email: "x", Name: "dup"}, {ID: "bad#id", Email: "x", Name: "x"}} {
		v, err := s.CreateUser(ctx, u)
		note("CreateUser "+u.ID, v, err)
	}
	team, err := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "開発チーム", Description: "説明"}) // id01
	note("CreateTeam", team, err)
	v, err := s.CreateTeam(ctx, "ghost", taskmgmt.NewTeam{Name: "x"}) // id02 burnt
	note("CreateTeam ghost", v, err)
	m, err := s.AddMember(ctx, "id01", "u1", "u2", taskmgmt.RoleMember)
	note("AddMember", m, err)
	m, err = s.AddMember(ctx, "id01", "u1", "u2", taskmgmt.RoleMember)
	note("AddMember again", m, err)
	m, err = s.SetRole(ctx, "id01", "u1", "u1", taskmgmt.RoleMember)
	note("SetRole last admin", m, err)
	list("ListMembers", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListMembers(ctx, "id01", o)
		return p.Items, p.Next, err
	})
	var tags []string
	for _, name := range []string{"backend", "frontend", ""} {
		tag, err := s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: name, Color: taskmgmt.Color{Color: "#fff", BackgroundColor: "#000"}})
		note("CreateTag "+name, tag, err)
		if err == nil {
			tags = append(tags, tag.ID)
		}
	}
	list("ListTags", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListTags(ctx, "id01", o)
		return p.Items, p.Next, err
	})
	var ids []string
	for i, in := range []taskmgmt.NewTask{
		{Title: "a", Start: "2025-11-01", End: "2025-11-05", TagIDs: tags[:1]},
		{Title: "b", Status: taskmgmt.StatusDoing, Start: "2025-11-02", End: "2025-11-20", TagIDs: tags},
		{Title: "c", Status: taskmgmt.StatusDone, Start: "2025-11-03", End: "2025-11-04"},
		{Title: "d", Start: "2025-11-14", End: "2025-11-30", TagIDs: tags[1:]},
		{Title: "e", Start: "2025-11-05", End: "2025-11-08"},
		{Title: "f", Start: "2025-11-06", End: "2025-11-07", TagIDs: []string{"ghost"}},
		{Title: "g", Start: "2025-11-09", End: "2025-11-08"},
	} {
		task, err := s.CreateTask(ctx, "id01", in)
		note(fmt.Sprint("CreateTask ", i), task, err)
		if err == nil {
			ids = append(ids, task.ID)
		}
	}
	task, err := s.UpdateTask(ctx, "id01", ids[0], taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing), TagIDs: &[]string{}})
	note("UpdateTask move", task, err)
	task, err = s.UpdateTask(ctx, "id01", ids[4], taskmgmt.TaskPatch{End: ptr(taskmgmt.Date("2025-11-01"))})
	note("UpdateTask end before start", task, err)
	for _, view := range []taskmgmt.View{taskmgmt.ViewInitial, taskmgmt.ViewTodo, taskmgmt.ViewAll, taskmgmt.ViewStartOverdue, taskmgmt.ViewEndOverdue} {
		boardList("ListBoard "+string(view), taskmgmt.BoardQuery{View: view})
		boardList("ListBoard "+string(view)+" any", taskmgmt.BoardQuery{View: view, TagIDs: tags})
		boardList("ListBoard "+string(view)+" all", taskmgmt.BoardQuery{View: view, TagIDs: tags, Match: taskmgmt.MatchAll})
	}
	p, err := s.ListBoard(ctx, "id01", taskmgmt.BoardQuery{View: taskmgmt.ViewAll, PageOptions: ddbkit.PageOptions{Limit: 1}})
	note("ListBoard limit 1", p, err)
	_, err = s.ListBoard(ctx, "id01", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, PageOptions: ddbkit.PageOptions{Cursor: p.Next}})
	note("ListBoard foreign cursor", nil, err)
	c, err := s.GetCounts(ctx, "id01")
	note("GetCounts", c, err)
	list("ListDailyCounts", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListDailyCounts(ctx, "id01", taskmgmt.DailyQuery{PageOptions: o})
		return p.Items, p.Next, err
	})
	note("DeleteTag", nil, s.DeleteTag(ctx, "id01", "u1", tags[1]))
	u, err := s.RenameUser(ctx, "u2", "Robert")
	note("RenameUser", u, err)
	team, err = s.UpdateTeam(ctx, "id01", "u1", taskmgmt.TeamPatch{Name: ptr("新")})
	note("UpdateTeam", team, err)
	list("ListUserTeams", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListUserTeams(ctx, "u2", o)
		return p.Items, p.Next, err
	})
	note("DeleteTask", nil, s.DeleteTask(ctx, "id01", ids[2]))
	note("DeleteTask again", nil, s.DeleteTask(ctx, "id01", ids[2]))
	rep, err := s.RecalculateCounters(ctx, "id01")
	note("RecalculateCounters", rep, err)
	note("RemoveMember", nil, s.RemoveMember(ctx, "id01", "u1", "u2"))
	note("DeleteTeam", nil, s.DeleteTeam(ctx, "id01", "u1"))
	note("DeleteTeam again", nil, s.DeleteTeam(ctx, "id01", "u1"))
	boardList("ListBoard after delete", taskmgmt.BoardQuery{View: taskmgmt.ViewAll})
	return log
}
