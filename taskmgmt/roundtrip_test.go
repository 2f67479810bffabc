package taskmgmt_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestRoundTrips pins the DynamoDB calls of every access pattern and every
// write to the counts the package doc states.
func TestRoundTrips(t *testing.T) {
	var cc *ddbtest.CountingClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCountingClient(c); return cc }, deterministic)
	ctx := t.Context()
	step := func(name string, want map[string]int, fn func() error) {
		t.Helper()
		cc.Reset()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := cc.Counts(); !maps.Equal(got, want) {
			t.Fatalf("%s: calls %v, want %v", name, got, want)
		}
	}
	ignore := func(_ any, err error) error { return err }
	page := func(n int, err error, got int) error {
		t.Helper()
		if err == nil && got != n {
			t.Fatalf("got %d items, want %d", got, n)
		}
		return err
	}

	step("CreateUser: a one-item transaction with a token", map[string]int{"TransactWriteItems": 1}, func() error {
		return ignore(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "e@example.com", Name: "alice"}))
	})
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "e@example.com", Name: "bob"}))
	step("AP1 GetUser", map[string]int{"GetItem": 1}, func() error { return ignore(s.GetUser(ctx, "u1")) })
	step("CreateTeam: the creator, then one transaction", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		return ignore(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"})) // id01
	})
	step("AP3 GetTeam", map[string]int{"GetItem": 1}, func() error { return ignore(s.GetTeam(ctx, "id01")) })
	step("AddMember: team and user, then one transaction", map[string]int{"GetItem": 2, "TransactWriteItems": 1}, func() error {
		return ignore(s.AddMember(ctx, "id01", "u1", "u2", taskmgmt.RoleMember))
	})
	step("AP2 ListMembers", map[string]int{"Query": 1}, func() error {
		p, err := s.ListMembers(ctx, "id01", ddbkit.PageOptions{})
		return page(2, err, len(p.Items))
	})
	step("GetMember: one GetItem of the team_user item", map[string]int{"GetItem": 1}, func() error {
		m, err := s.GetMember(ctx, "id01", "u2")
		if err == nil && m.Role != taskmgmt.RoleMember {
			t.Fatalf("GetMember = %+v, want u2 as member", m)
		}
		return err
	})
	step("AP4 ListUserTeams", map[string]int{"Query": 1}, func() error {
		p, err := s.ListUserTeams(ctx, "u2", ddbkit.PageOptions{})
		return page(1, err, len(p.Items))
	})
	step("SetRole of a member", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		return ignore(s.SetRole(ctx, "id01", "u1", "u2", taskmgmt.RoleAdmin))
	})
	step("SetRole of an admin by another: the actor's check keeps an admin", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		return ignore(s.SetRole(ctx, "id01", "u1", "u2", taskmgmt.RoleMember))
	})
	step("SetRole to the same role writes nothing: the member and the actor read", map[string]int{"GetItem": 2}, func() error {
		return ignore(s.SetRole(ctx, "id01", "u1", "u2", taskmgmt.RoleMember))
	})
	step("CreateTag", map[string]int{"TransactWriteItems": 1}, func() error {
		return ignore(s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: "a", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}})) // id02
	})
	must[taskmgmt.Tag](t)(s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: "b", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}})) // id03
	step("AP5 ListTags", map[string]int{"Query": 1}, func() error {
		p, err := s.ListTags(ctx, "id01", ddbkit.PageOptions{})
		return page(2, err, len(p.Items))
	})
	// Six todo tasks starting on days 1..6; the 3rd and the 6th carry tag
	// id02, every task tag id03.
	var tasks []string
	for i := 1; i <= 6; i++ {
		tags := []string{"id03"}
		if i%3 == 0 {
			tags = append(tags, "id02")
		}
		step("CreateTask", map[string]int{"TransactWriteItems": 1}, func() error {
			task, err := s.CreateTask(ctx, "id01", taskmgmt.NewTask{Title: "t", Start: taskmgmt.Date(fmt.Sprintf("2025-11-0%d", i)), End: "2025-11-09", TagIDs: tags})
			tasks = append(tasks, task.ID)
			return err
		})
	}
	step("AP6 GetTask", map[string]int{"GetItem": 1}, func() error { return ignore(s.GetTask(ctx, "id01", tasks[0])) })
	step("UpdateTask: read, then one transaction", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		return ignore(s.UpdateTask(ctx, "id01", tasks[1], taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)}))
	})
	step("UpdateTask that changes nothing: the read only", map[string]int{"GetItem": 1}, func() error {
		return ignore(s.UpdateTask(ctx, "id01", tasks[1], taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)}))
	})
	step("UpdateTask back to todo", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		return ignore(s.UpdateTask(ctx, "id01", tasks[1], taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusTodo)}))
	})

	// 7-15: one Query per page of a view; a filtered page reads on until it
	// has one match more than it returns, or the view ends.
	for _, tc := range []struct {
		name    string
		q       taskmgmt.BoardQuery
		items   int
		queries int
	}{
		{"AP7 initial", taskmgmt.BoardQuery{View: taskmgmt.ViewInitial}, 6, 1},
		{"AP8 todo", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo}, 6, 1},
		{"AP8 todo, a page of 2", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, PageOptions: ddbkit.PageOptions{Limit: 2}}, 2, 1},
		{"AP9 todo + tag, in one page", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{"id02"}}, 2, 1},
		// Limit 1: reads 2 (no match), then a follow-up of at least
		// ddb.MinFollowUp items, which finds the match and the second one
		// (which tells that a next page exists).
		{"AP9 todo + tag, a page of 1 filled across Queries", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{"id02"}, PageOptions: ddbkit.PageOptions{Limit: 1}}, 1, 2},
		{"AP10 todo + any of tags", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{"id02", "id03"}}, 6, 1},
		{"AP10 todo + all of tags", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{"id02", "id03"}, Match: taskmgmt.MatchAll}, 2, 1},
		{"AP11 all", taskmgmt.BoardQuery{View: taskmgmt.ViewAll}, 6, 1},
		{"AP12 start overdue", taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue}, 6, 1},
		{"AP13 start overdue + tags", taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue, TagIDs: []string{"id02"}}, 2, 1},
		{"AP14 end overdue", taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue}, 6, 1},
		{"AP15 end overdue + tags", taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue, TagIDs: []string{"id02"}}, 2, 1},
	} {
		step(tc.name, map[string]int{"Query": tc.queries}, func() error {
			p, err := s.ListBoard(ctx, "id01", tc.q)
			return page(tc.items, err, len(p.Items))
		})
	}
	step("AP8 three pages of 2 are three Queries", map[string]int{"Query": 3}, func() error {
		c := ""
		for range 3 {
			p, err := s.ListBoard(ctx, "id01", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, PageOptions: ddbkit.PageOptions{Limit: 2, Cursor: c}})
			if err != nil {
				return err
			}
			c = p.Next
		}
		if c != "" {
			t.Fatal("a fourth page was announced")
		}
		return nil
	})

	// 16: the counters.
	step("AP16 GetCounts", map[string]int{"GetItem": 1}, func() error { return ignore(s.GetCounts(ctx, "id01")) })
	step("AP16 ListDailyCounts", map[string]int{"Query": 1}, func() error {
		p, err := s.ListDailyCounts(ctx, "id01", taskmgmt.DailyQuery{})
		return page(1, err, len(p.Items))
	})
	step("RecalculateCounters without drift", map[string]int{"BatchGetItem": 1, "Query": 1}, func() error {
		return ignore(s.RecalculateCounters(ctx, "id01"))
	})

	// Fan-outs: one UpdateItem, one Query of the copies, one transaction
	// for the stale ones, one read-back.
	step("RenameUser with one membership", map[string]int{"UpdateItem": 1, "Query": 1, "TransactWriteItems": 1}, func() error {
		return ignore(s.RenameUser(ctx, "u2", "robert"))
	})
	step("RenameUser to the same name: no copy is stale", map[string]int{"UpdateItem": 1, "Query": 1}, func() error {
		return ignore(s.RenameUser(ctx, "u2", "robert"))
	})
	step("UpdateTeam name with two members", map[string]int{"GetItem": 1, "Query": 1, "TransactWriteItems": 2}, func() error {
		return ignore(s.UpdateTeam(ctx, "id01", "u1", taskmgmt.TeamPatch{Name: ptr("renamed")}))
	})
	step("UpdateTeam description: no fan-out", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		return ignore(s.UpdateTeam(ctx, "id01", "u1", taskmgmt.TeamPatch{Description: ptr("d")}))
	})
	step("DeleteTag on two tasks", map[string]int{"Query": 1, "TransactWriteItems": 2}, func() error {
		return s.DeleteTag(ctx, "id01", "u1", "id02")
	})
	step("DeleteTask: read, then one transaction", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		return s.DeleteTask(ctx, "id01", tasks[0])
	})
	step("RemoveMember of a member", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		return s.RemoveMember(ctx, "id01", "u1", "u2")
	})
	must[taskmgmt.Member](t)(s.AddMember(ctx, "id01", "u1", "u2", taskmgmt.RoleAdmin))
	step("RemoveMember of an admin leaving", map[string]int{"GetItem": 1, "Query": 1, "TransactWriteItems": 1}, func() error {
		return s.RemoveMember(ctx, "id01", "u2", "u2")
	})
	// One Query of the partition, then one transaction of the admin check
	// and every item but one (a small team), and the actor's team_user
	// item last.
	step("DeleteTeam", map[string]int{"Query": 1, "TransactWriteItems": 1, "BatchWriteItem": 1}, func() error { return s.DeleteTeam(ctx, "id01", "u1") })
}
