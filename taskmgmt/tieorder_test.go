package taskmgmt_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestBoardTiesMatchDynamo pins the order of tasks that share a start or
// end date: the status GSIs' sort keys (START#<date>, END#<date>) then tie,
// and DynamoDB orders ties by the base key in an order of its own (see
// internal/memtable's tieRule). The memory store must page such a board
// exactly as the DynamoDB store does: the same tasks, in the same order,
// with the same cursors, whatever the page size. Task IDs differ in length
// and prefix, so that no bytewise order of the keys passes by chance.
func TestBoardTiesMatchDynamo(t *testing.T) {
	ids := []string{"team1", "t1", "t10", "t2", "T", "tt", "z9", "a", "ab", "a0", "t100", "Z", "b"}
	newIDs := func(o *taskmgmt.Options) {
		deterministic(o)
		var mu sync.Mutex
		n := 0
		o.NewID = func() string {
			mu.Lock()
			defer mu.Unlock()
			n++
			return ids[(n-1)%len(ids)]
		}
	}
	dyn, _, table := newDynamo(t, nil, newIDs)
	mem := taskmgmt.NewMemoryStore(newIDs, func(o *taskmgmt.Options) { o.TableName = table })

	ctx := t.Context()
	statuses := []taskmgmt.Status{taskmgmt.StatusTodo, taskmgmt.StatusDoing, taskmgmt.StatusTodo, taskmgmt.StatusDone}
	for _, s := range []taskmgmt.Store{dyn, mem} {
		if _, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "a@example.com", Name: "Alice"}); err != nil {
			t.Fatalf("CreateUser: %v", err)
		}
		if _, err := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}); err != nil {
			t.Fatalf("CreateTeam: %v", err)
		}
		for i := range len(ids) - 1 {
			in := taskmgmt.NewTask{Title: fmt.Sprint("task ", i), Status: statuses[i%len(statuses)], Start: "2025-11-10", End: "2025-11-20"}
			if i%5 == 4 { // a few on either side of the run of ties
				in.Start, in.End = "2025-11-09", "2025-11-21"
			}
			if _, err := s.CreateTask(ctx, "team1", in); err != nil {
				t.Fatalf("CreateTask %d: %v", i, err)
			}
		}
	}

	list := func(s taskmgmt.Store, view taskmgmt.View, limit int) []string {
		var log []string
		cursor := ""
		for page := 0; page < 50; page++ {
			p, err := s.ListBoard(ctx, "team1", taskmgmt.BoardQuery{View: view, PageOptions: ddbkit.PageOptions{Limit: limit, Cursor: cursor}})
			var got []string
			for _, task := range p.Items {
				got = append(got, task.ID)
			}
			log = append(log, fmt.Sprintf("%q next=%q err=%v", got, p.Next, err))
			if err != nil || p.Next == "" {
				break
			}
			cursor = p.Next
		}
		return log
	}
	views := []taskmgmt.View{taskmgmt.ViewInitial, taskmgmt.ViewTodo, taskmgmt.ViewAll, taskmgmt.ViewStartOverdue, taskmgmt.ViewEndOverdue}
	for _, view := range views {
		for _, limit := range []int{1, 2, 3, 100} {
			d, m := list(dyn, view, limit), list(mem, view, limit)
			if fmt.Sprint(d) != fmt.Sprint(m) {
				t.Errorf("ListBoard(%s, limit %d):\n  dynamo %q\n  memory %q", view, limit, d, m)
			}
		}
	}
}
