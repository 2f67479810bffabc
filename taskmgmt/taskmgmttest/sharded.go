package taskmgmttest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// Shards is the Options.CounterShards RunSharded runs with.
const Shards = 4

// RunSharded runs the counter tests of Run with sharded counters
// (Options.CounterShards = Shards), and the sharded layout's own: daily
// pages that never split a date, in both directions and at every page
// size; and an invalid CounterShards refused by every counter operation.
// Its name is the one livecomment's suite gives its sharded run (kondate's
// is RunShardedCatalog).
func RunSharded(t *testing.T, newStore NewStore) {
	sharded := func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		return newStore(t, append([]func(*taskmgmt.Options){func(o *taskmgmt.Options) { o.CounterShards = Shards }}, opts...)...)
	}
	tests := []struct {
		name string
		fn   func(*testing.T, NewStore)
	}{
		{"TaskLifecycleAndCounters", testTaskLifecycle},
		{"DailyCountersExpire", testDailyExpire},
		{"RecalculateCounters", testRecalculate},
		{"DeleteTeam", testDeleteTeam},
		{"ConcurrentTasks", testConcurrent},
		{"ShardedDailyPages", testShardedDailyPages},
		{"InvalidCounterShards", testInvalidShards},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, sharded) })
	}
}

// RunShardedCounters runs RunSharded.
//
// Deprecated: use RunSharded.
func RunShardedCounters(t *testing.T, newStore NewStore) { RunSharded(t, newStore) }

// testShardedDailyPages writes tasks on five days, several a day so that
// each day's counter is spread over the shards, and lists the daily
// counters at every page size, both ways and in a range: the pages, put
// together, are the days' sums, each day once, in order.
func testShardedDailyPages(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	tm := team(t, s)
	var want []taskmgmt.DailyCount
	var total taskmgmt.Counts
	for day := range 5 {
		clk.Set(Start.Add(time.Duration(day) * 24 * time.Hour))
		var c taskmgmt.Counts
		for i := range 3 + day {
			st := taskmgmt.Statuses[i%3]
			task := must[taskmgmt.Task](t, "CreateTask")(s.CreateTask(ctx, tm.ID, newTask(fmt.Sprint("d", day, "-", i), st, "2025-11-01", "2025-11-02")))
			c = addCount(c, st, 1)
			total = addCount(total, st, 1)
			if st == taskmgmt.StatusTodo && i%2 == 0 {
				// A move counts the new status on the day of the move.
				doing := taskmgmt.StatusDoing
				must[taskmgmt.Task](t, "UpdateTask")(s.UpdateTask(ctx, tm.ID, task.ID, taskmgmt.TaskPatch{Status: &doing}))
				c = addCount(c, doing, 1)
				total = addCount(addCount(total, st, -1), doing, 1)
			}
		}
		want = append(want, taskmgmt.DailyCount{Date: taskmgmt.Date(clk.Now().In(Tokyo).Format(time.DateOnly)), Counts: c})
	}
	equal(t, "GetCounts, the shards summed", counts(t, s, tm.ID), total)
	strip := func(ds []taskmgmt.DailyCount) []taskmgmt.DailyCount {
		out := make([]taskmgmt.DailyCount, len(ds))
		for i, d := range ds {
			out[i] = taskmgmt.DailyCount{Date: d.Date, Counts: d.Counts}
		}
		return out
	}
	reversed := slices.Clone(want)
	slices.Reverse(reversed)
	for _, q := range []struct {
		q    taskmgmt.DailyQuery
		want []taskmgmt.DailyCount
	}{
		{taskmgmt.DailyQuery{}, want},
		{taskmgmt.DailyQuery{Descending: true}, reversed},
		{taskmgmt.DailyQuery{From: want[1].Date, To: want[3].Date}, want[1:4]},
		{taskmgmt.DailyQuery{From: want[1].Date, To: want[3].Date, Descending: true}, reversed[1:4]},
	} {
		for limit := 1; limit <= 6; limit++ {
			var got []taskmgmt.DailyCount
			q.q.PageOptions = ddbkit.PageOptions{Limit: limit}
			for pages := 0; ; pages++ {
				if pages > len(want)+1 {
					t.Fatalf("%+v: more pages than days", q.q)
				}
				p := must[ddbkit.Page[taskmgmt.DailyCount]](t, "ListDailyCounts")(s.ListDailyCounts(ctx, tm.ID, q.q))
				if len(p.Items) > limit {
					t.Fatalf("%+v: a page of %d days", q.q, len(p.Items))
				}
				got = append(got, p.Items...)
				if p.Next == "" {
					break
				}
				q.q.Cursor = p.Next
			}
			equal(t, fmt.Sprintf("days of %+v by pages of %d", q.q, limit), strip(got), q.want)
			q.q.Cursor = ""
		}
	}
}

// testInvalidShards: a CounterShards out of range fails every counter
// operation with ErrInvalidArgument naming it, and writes nothing.
func testInvalidShards(t *testing.T, newStore NewStore) {
	ctx := t.Context()
	for _, n := range []int{-1, taskmgmt.MaxCounterShards + 1} {
		s, _ := fixed(t, newStore, func(o *taskmgmt.Options) { o.CounterShards = n })
		tm := team(t, s)
		_, err := s.CreateTask(ctx, tm.ID, newTask("a", taskmgmt.StatusTodo, "2025-11-01", "2025-11-02"))
		wantField(t, "CreateTask", err, "CounterShards")
		_, err = s.GetCounts(ctx, tm.ID)
		wantField(t, "GetCounts", err, "CounterShards")
		_, err = s.ListDailyCounts(ctx, tm.ID, taskmgmt.DailyQuery{})
		wantField(t, "ListDailyCounts", err, "CounterShards")
		_, err = s.RecalculateCounters(ctx, tm.ID)
		wantField(t, "RecalculateCounters", err, "CounterShards")
		_, err = s.UpdateTask(ctx, tm.ID, "x", taskmgmt.TaskPatch{Title: ptr("b")})
		wantField(t, "UpdateTask", err, "CounterShards")
		wantField(t, "DeleteTask", s.DeleteTask(ctx, tm.ID, "x"), "CounterShards")
		tasks := board(t, s, tm.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewAll})
		equal(t, "tasks written", len(tasks), 0)
	}
}

// addCount adds n to c's count of st.
func addCount(c taskmgmt.Counts, st taskmgmt.Status, n int) taskmgmt.Counts {
	switch st {
	case taskmgmt.StatusTodo:
		c.Todo += n
	case taskmgmt.StatusDoing:
		c.Doing += n
	default:
		c.Done += n
	}
	return c
}
