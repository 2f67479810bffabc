package taskmgmt_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/taskmgmt/taskmgmttest"
)

// queryLog is a client that records the input of each Query.
type queryLog struct {
	ddbkit.Client
	mu     sync.Mutex
	inputs []*dynamodb.QueryInput
}

func (c *queryLog) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.mu.Lock()
	c.inputs = append(c.inputs, in)
	c.mu.Unlock()
	return c.Client.Query(ctx, in, opts...)
}

func (c *queryLog) take() []*dynamodb.QueryInput {
	c.mu.Lock()
	defer c.mu.Unlock()
	in := c.inputs
	c.inputs = nil
	return in
}

// TestBoardQueryRoundTrips walks every board of taskmgmttest.Boards in
// pages of 2 on DynamoDB Local: each page is one Query, at half a read
// unit (a GSI's eventually consistent read of a few small tasks),
// without a filter, of the index the seed's table of status groups names
// for the board's statuses and sort (written out here, not derived as the
// store derives it), in the partition of the group, and an overdue
// board's key condition compares with today's sort key.
func TestBoardQueryRoundTrips(t *testing.T) {
	var (
		log *queryLog
		cp  *ddbtest.CapacityClient
		cc  *ddbtest.CountingClient
	)
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
		log = &queryLog{Client: c}
		cp = ddbtest.NewCapacityClient(log)
		cc = ddbtest.NewCountingClient(cp)
		return cc
	}, deterministic)
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "e@example.com", Name: "alice"}))
	team := must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}))
	// Three tasks of each status before today (2025-11-10), one after: every
	// board has at least three, so two pages.
	for i := range 12 {
		d := addDays(t, "2025-11-01", i)
		must[taskmgmt.Task](t)(s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: fmt.Sprint("t", i), Status: taskmgmt.Statuses[i%3], Start: d, End: d}))
	}
	// The seed's "GSI_Status_xxxx_Sort_xxxx" table: the group of each set.
	groups := map[string][2]string{
		"todo":            {"Group1", "todo"},
		"doing+done":      {"Group1", "doing_done"},
		"done":            {"Group2", "done"},
		"todo+doing":      {"Group2", "todo_doing"},
		"doing":           {"Group3", "doing"},
		"todo+done":       {"Group3", "todo_done"},
		"todo+doing+done": {"All", ""},
	}
	for _, q := range taskmgmttest.Boards() {
		var set string
		for i, st := range q.Statuses {
			if i > 0 {
				set += "+"
			}
			set += string(st)
		}
		g := groups[set]
		sortName, sk := "Start", "START#2025-11-10"
		if q.Sort == taskmgmt.SortEnd {
			sortName, sk = "End", "END#2025-11-10"
		}
		wantIndex := "GSI_Status_" + sortName + "_Sort_" + g[0]
		wantPK := "TEAM#" + team.ID
		if g[1] != "" {
			wantPK += "#Status#" + g[1]
		}
		name := fmt.Sprintf("%s by %s, overdue %t", set, q.Sort, q.Overdue)
		q.Limit = 2
		log.take()
		for page := 1; ; page++ {
			cc.Reset()
			var (
				p   ddbkit.Page[taskmgmt.Task]
				err error
			)
			used := cp.Measure(func() { p, err = s.ListBoard(ctx, team.ID, q) })
			if err != nil {
				t.Fatalf("%s, page %d: %v", name, page, err)
			}
			if got := cc.Counts(); !maps.Equal(got, map[string]int{"Query": 1}) {
				t.Fatalf("%s, page %d: calls %v, want one Query", name, page, got)
			}
			if used != (ddbtest.Capacity{Read: 0.5}) {
				t.Fatalf("%s, page %d: consumed %+v, want half a read unit", name, page, used)
			}
			in := log.take()[0]
			var values []string
			for _, v := range in.ExpressionAttributeValues {
				if s, ok := v.(*types.AttributeValueMemberS); ok {
					values = append(values, s.Value)
				}
			}
			if aws.ToString(in.IndexName) != wantIndex || !slices.Contains(values, wantPK) ||
				slices.Contains(values, sk) != q.Overdue || in.FilterExpression != nil {
				t.Fatalf("%s, page %d: Query of %s with values %q, key condition %q, filter %q; want %s, partition %s, overdue %t",
					name, page, aws.ToString(in.IndexName), values, aws.ToString(in.KeyConditionExpression), aws.ToString(in.FilterExpression),
					wantIndex, wantPK, q.Overdue)
			}
			if p.Next == "" {
				if page < 2 {
					t.Fatalf("%s: %d page, want at least 2", name, page)
				}
				break
			}
			q.Cursor = p.Next
		}
	}
}

// TestBoardQueriesWithoutDates runs every board over tasks another writer
// put without dates, or with one date only, next to ddbkit's, on both
// stores: a task is in exactly the boards sorted by a date it has, before
// and after an update (which writes no date nor sort key it lacks), and
// both stores give the same pages.
func TestBoardQueriesWithoutDates(t *testing.T) {
	dyn, raw, table := newDynamo(t, nil, deterministic)
	mem := taskmgmt.NewMemoryStore(deterministic, func(o *taskmgmt.Options) { o.TableName = table })
	ctx := t.Context()
	task := func(id, status string, g [3]string, dates map[string]string) item {
		it := item{"PK": S("TEAM#id01"), "SK": S("TASK#" + id), "type": S("task"), "team_task_title": S(id),
			"team_task_status": S(status), "team_task_tagRef": SS("TAG#id02"),
			"status_group1": S("TEAM#id01#Status#" + g[0]), "status_group2": S("TEAM#id01#Status#" + g[1]), "status_group3": S("TEAM#id01#Status#" + g[2])}
		for a, v := range dates {
			it[a] = S(v)
		}
		return it
	}
	todo, doing, done := [3]string{"todo", "todo_doing", "todo_done"}, [3]string{"doing_done", "todo_doing", "doing"}, [3]string{"doing_done", "done", "todo_done"}
	legacy := []item{
		task("nodates-todo", "todo", todo, nil),
		task("nodates-done", "done", done, nil),
		task("startonly", "doing", doing, map[string]string{"team_task_startTime": "2025-11-03", "start_sort_sk": "START#2025-11-03"}),
		task("endonly", "todo", todo, map[string]string{"team_task_endTime": "2025-11-04", "end_sort_sk": "END#2025-11-04"}),
	}
	for _, s := range []taskmgmt.Store{dyn, mem} {
		must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "e@example.com", Name: "alice"}))
		must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}))                                                      // id01
		must[taskmgmt.Tag](t)(s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: "x", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}})) // id02
		// Dates tie, and some are today's.
		for i := range 9 {
			d := addDays(t, "2025-11-06", i/2)
			in := taskmgmt.NewTask{Title: fmt.Sprint("t", i), Status: taskmgmt.Statuses[i%3], Start: d, End: addDays(t, d, i%3)}
			if i%2 == 0 {
				in.TagIDs = []string{"id02"}
			}
			must[taskmgmt.Task](t)(s.CreateTask(ctx, "id01", in)) // id03 to id11
		}
	}
	for _, it := range legacy {
		putRaw(t, raw, table, it)
	}
	if err := mem.Import(ddbkit.TableItems{table: legacy}); err != nil {
		t.Fatal(err)
	}
	ids := []string{"nodates-todo", "nodates-done", "startonly", "endonly"}
	for i := 3; i <= 11; i++ {
		ids = append(ids, fmt.Sprintf("id%02d", i))
	}
	stores := map[string]taskmgmt.Store{"dynamo": dyn, "memory": mem}
	check := func(stage string) {
		for name, s := range stores {
			t.Run(name+" "+stage, func(t *testing.T) {
				tasks := make([]taskmgmt.Task, len(ids))
				for i, id := range ids {
					tasks[i] = must[taskmgmt.Task](t)(s.GetTask(ctx, "id01", id))
				}
				taskmgmttest.CheckBoards(t, s, "id01", tasks, "2025-11-10")
				// What CheckBoards implies, said outright for the dateless ones.
				for _, q := range taskmgmttest.Boards() {
					q.Limit = ddbkit.MaxPageLimit
					p := must[ddbkit.Page[taskmgmt.Task]](t)(s.ListBoard(ctx, "id01", q))
					for _, task := range p.Items {
						if task.Start == "" && task.End == "" {
							t.Fatalf("board %+v lists %s, a task without dates", q, task.ID)
						}
					}
				}
			})
		}
		// Dates tie: the memory store pages each board as DynamoDB does,
		// ties included (see TestBoardTiesMatchDynamo).
		t.Run("same pages "+stage, func(t *testing.T) {
			for _, q := range taskmgmttest.Boards() {
				for _, limit := range []int{1, 2, 100} {
					q.Limit, q.Cursor = limit, ""
					for page := 1; ; page++ {
						d, derr := dyn.ListBoard(ctx, "id01", q)
						m, merr := mem.ListBoard(ctx, "id01", q)
						if fmt.Sprint(d, derr) != fmt.Sprint(m, merr) || derr != nil {
							t.Fatalf("board %+v, page %d:\n dynamo %+v %v\n memory %+v %v", q, page, d, derr, m, merr)
						}
						if d.Next == "" {
							break
						}
						q.Cursor = d.Next
					}
				}
			}
		})
	}
	check("as written")
	// Moved through every status, and retitled: still no dates.
	for _, s := range stores {
		for _, id := range ids[:4] {
			for _, st := range []taskmgmt.Status{taskmgmt.StatusDoing, taskmgmt.StatusDone, taskmgmt.StatusTodo} {
				if _, err := s.UpdateTask(ctx, "id01", id, taskmgmt.TaskPatch{Status: ptr(st), Title: ptr(id + " " + string(st))}); err != nil {
					t.Fatalf("UpdateTask %s to %s: %v", id, st, err)
				}
			}
		}
	}
	check("after updates")
}
