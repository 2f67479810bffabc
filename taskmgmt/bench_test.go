package taskmgmt_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

var benchViews = []struct {
	name string
	q    func(tag string) taskmgmt.BoardQuery
}{
	{"initial", func(string) taskmgmt.BoardQuery { return taskmgmt.BoardQuery{View: taskmgmt.ViewInitial} }},
	{"todo+tag", func(tag string) taskmgmt.BoardQuery {
		return taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{tag}}
	}},
	{"all", func(string) taskmgmt.BoardQuery { return taskmgmt.BoardQuery{View: taskmgmt.ViewAll} }},
	{"end-overdue", func(string) taskmgmt.BoardQuery { return taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue} }},
}

// fill gives s a team of n tasks spread over statuses and dates, one in
// four tagged; it returns the team and tag IDs.
func fill(b *testing.B, s taskmgmt.Store, n int) (string, string) {
	b.Helper()
	ctx := b.Context()
	if _, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "e", Name: "n"}); err != nil {
		b.Fatal(err)
	}
	team, err := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	tag, err := s.CreateTag(ctx, team.ID, taskmgmt.NewTag{Name: "t", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}})
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		start := taskmgmt.Date("2025-01-01").AddDays(i % 600)
		in := taskmgmt.NewTask{Title: fmt.Sprint("task ", i), Status: taskmgmt.Statuses[i%3], Start: start, End: start.AddDays(i % 20)}
		if i%4 == 0 {
			in.TagIDs = []string{tag.ID}
		}
		if _, err := s.CreateTask(ctx, team.ID, in); err != nil {
			b.Fatal(err)
		}
	}
	return team.ID, tag.ID
}

func benchViewsOn(b *testing.B, s taskmgmt.Store, teamID, tagID string) {
	for _, v := range benchViews {
		b.Run(v.name, func(b *testing.B) {
			q := v.q(tagID)
			q.Limit = 50
			for b.Loop() {
				p, err := s.ListBoard(b.Context(), teamID, q)
				if err != nil || len(p.Items) == 0 {
					b.Fatalf("ListBoard: %d items, %v", len(p.Items), err)
				}
			}
		})
	}
}

// BenchmarkMemoryBoard measures a 50-task page of each board view on the
// memory store at 1k, 10k and 100k tasks: a page's cost must not grow
// with the team (a seek, then the page).
func BenchmarkMemoryBoard(b *testing.B) {
	now := func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("tasks=%d", n), func(b *testing.B) {
			s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) { o.Clock = now })
			teamID, tagID := fill(b, s, n)
			benchViewsOn(b, s, teamID, tagID)
		})
	}
}

// BenchmarkDynamoBoard measures the same pages on DynamoDB Local.
func BenchmarkDynamoBoard(b *testing.B) {
	now := func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }
	s, _, _ := newDynamoB(b, func(o *taskmgmt.Options) { o.Clock = now })
	teamID, tagID := fill(b, s, 300)
	benchViewsOn(b, s, teamID, tagID)
}

func newDynamoB(b *testing.B, opts ...func(*taskmgmt.Options)) (*taskmgmt.DynamoStore, string, ddbkit.Client) {
	b.Helper()
	c := ddbtest.Client(b)
	name := ddbtest.NewTable(b, c, taskmgmt.CreateTableInput("task-table-bench"))
	opts = append(opts, func(o *taskmgmt.Options) { o.TableName = name })
	return taskmgmt.NewDynamoStore(c, opts...), name, c
}
