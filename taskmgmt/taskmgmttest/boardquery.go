package taskmgmttest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// Boards returns every board a BoardQuery can spell out: each of the seven
// sets of statuses the seed's status groups exist for, by start and by end
// date, all of it and overdue only.
func Boards() []taskmgmt.BoardQuery {
	var qs []taskmgmt.BoardQuery
	for set := 1; set < 1<<len(taskmgmt.Statuses); set++ {
		var ss []taskmgmt.Status
		for i, st := range taskmgmt.Statuses {
			if set&(1<<i) != 0 {
				ss = append(ss, st)
			}
		}
		for _, sort := range []taskmgmt.Sort{taskmgmt.SortStart, taskmgmt.SortEnd} {
			for _, overdue := range []bool{false, true} {
				qs = append(qs, taskmgmt.BoardQuery{Statuses: ss, Sort: sort, Overdue: overdue})
			}
		}
	}
	return qs
}

// boardName names an explicit board query, such as "todo+doing/end/overdue".
func boardName(q taskmgmt.BoardQuery) string {
	var b strings.Builder
	for i, st := range q.Statuses {
		if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(string(st))
	}
	b.WriteString("/" + string(q.Sort))
	if q.Overdue {
		b.WriteString("/overdue")
	}
	if len(q.TagIDs) > 0 {
		m := q.Match
		if m == "" {
			m = taskmgmt.MatchAny
		}
		fmt.Fprintf(&b, "/%s of %d tags", m, len(q.TagIDs))
	}
	return b.String()
}

// CheckBoards lists every board of Boards on s for team teamID, unfiltered
// at page sizes 1, 3 and 100 and filtered by the first two tags the tasks
// carry (any of them, and both) at page size 2, walking the pages through
// their cursors, and compares each board with a brute-force filter of
// tasks: every task of the team, as GetTask reads it. Overdue means a date
// before today. A task without the board's date (another writer's) is in
// no board sorted by it. Tasks of one date may come in any order.
func CheckBoards(t *testing.T, s taskmgmt.Store, teamID string, tasks []taskmgmt.Task, today taskmgmt.Date) {
	t.Helper()
	var tags []string
	for _, task := range tasks {
		for _, id := range task.TagIDs {
			if !slices.Contains(tags, id) {
				tags = append(tags, id)
			}
		}
	}
	slices.Sort(tags)
	tags = tags[:min(2, len(tags))]
	for _, q := range Boards() {
		t.Run(boardName(q), func(t *testing.T) {
			for _, limit := range []int{1, 3, 100} {
				checkBoard(t, s, teamID, q, limit, tasks, today)
			}
			if len(tags) == 0 {
				return
			}
			for _, m := range []taskmgmt.TagMatch{taskmgmt.MatchAny, taskmgmt.MatchAll} {
				fq := q
				fq.TagIDs, fq.Match = slices.Clone(tags), m
				slices.Reverse(fq.TagIDs) // any order
				checkBoard(t, s, teamID, fq, 2, tasks, today)
			}
		})
	}
}

// checkBoard walks board q page by page and compares it with wantBoard.
func checkBoard(t *testing.T, s taskmgmt.Store, teamID string, q taskmgmt.BoardQuery, limit int, tasks []taskmgmt.Task, today taskmgmt.Date) {
	t.Helper()
	what := fmt.Sprintf("%s, limit %d", boardName(q), limit)
	var got []taskmgmt.Task
	q.Limit = limit
	for page := 1; ; page++ {
		if page > len(tasks)+2 {
			t.Fatalf("%s: paging does not end", what)
		}
		p, err := s.ListBoard(t.Context(), teamID, q)
		if err != nil {
			t.Fatalf("%s: page %d: %v", what, page, err)
		}
		if len(p.Items) > limit || (p.Next != "" && len(p.Items) < limit && len(q.TagIDs) == 0) {
			t.Fatalf("%s: page %d has %d items and Next %q", what, page, len(p.Items), p.Next)
		}
		got = append(got, p.Items...)
		if p.Next == "" {
			break
		}
		q.Cursor = p.Next
	}
	for i := 1; i < len(got); i++ {
		if sortDate(got[i], q.Sort) < sortDate(got[i-1], q.Sort) {
			t.Fatalf("%s: %s (%s) listed after %s (%s)", what, got[i].Title, sortDate(got[i], q.Sort), got[i-1].Title, sortDate(got[i-1], q.Sort))
		}
	}
	// Ties have no promised order: compare in (date, ID) order.
	equal(t, what, byDateAndID(got, q.Sort), byDateAndID(wantBoard(tasks, q, today), q.Sort))
}

func sortDate(task taskmgmt.Task, sort taskmgmt.Sort) taskmgmt.Date {
	if sort == taskmgmt.SortEnd {
		return task.End
	}
	return task.Start
}

func byDateAndID(tasks []taskmgmt.Task, sort taskmgmt.Sort) []taskmgmt.Task {
	out := slices.Clone(tasks)
	slices.SortFunc(out, func(a, b taskmgmt.Task) int {
		if c := strings.Compare(string(sortDate(a, sort)), string(sortDate(b, sort))); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// wantBoard is board q of tasks, task by task.
func wantBoard(tasks []taskmgmt.Task, q taskmgmt.BoardQuery, today taskmgmt.Date) []taskmgmt.Task {
	var out []taskmgmt.Task
	for _, task := range tasks {
		d := sortDate(task, q.Sort)
		if d == "" || !slices.Contains(q.Statuses, task.Status) || (q.Overdue && d >= today) {
			continue
		}
		n := 0
		for _, id := range q.TagIDs {
			if slices.Contains(task.TagIDs, id) {
				n++
			}
		}
		if len(q.TagIDs) > 0 && (n == 0 || (q.Match == taskmgmt.MatchAll && n < len(q.TagIDs))) {
			continue
		}
		out = append(out, task)
	}
	return out
}

// newBoardQueries makes a team on 2025-11-10 (Tokyo) with 18 tasks, six of
// each status, dated around today: every board has at least two tasks,
// dates tie, and some dates are today (not overdue). Tag x is on the even
// tasks, y on every third. A few updates then move tasks between the
// indexes. It returns the team and its tasks as GetTask reads them.
func newBoardQueries(t *testing.T, s taskmgmt.Store) (taskmgmt.Team, []taskmgmt.Task) {
	t.Helper()
	ctx := t.Context()
	tm := team(t, s)
	x := must[taskmgmt.Tag](t, "CreateTag x")(s.CreateTag(ctx, tm.ID, taskmgmt.NewTag{Name: "x", Color: red}))
	y := must[taskmgmt.Tag](t, "CreateTag y")(s.CreateTag(ctx, tm.ID, taskmgmt.NewTag{Name: "y", Color: red}))
	const today taskmgmt.Date = "2025-11-10"
	var ids []string
	for i := range 18 {
		start := addDays(t, today, i*7%13-6)
		in := newTask(fmt.Sprint("t", i), taskmgmt.Statuses[i%3], start, addDays(t, start, i%5))
		if i%2 == 0 {
			in.TagIDs = append(in.TagIDs, x.ID)
		}
		if i%3 == 0 {
			in.TagIDs = append(in.TagIDs, y.ID)
		}
		ids = append(ids, must[taskmgmt.Task](t, "CreateTask")(s.CreateTask(ctx, tm.ID, in)).ID)
	}
	for i, p := range map[int]taskmgmt.TaskPatch{
		0: {Status: ptr(taskmgmt.StatusDoing)},
		1: {Start: ptr(addDays(t, today, -8))},
		2: {TagIDs: &[]string{x.ID}},
		5: {Status: ptr(taskmgmt.StatusTodo), End: ptr(addDays(t, today, -1)), Start: ptr(addDays(t, today, -2))},
	} {
		must[taskmgmt.Task](t, "UpdateTask")(s.UpdateTask(ctx, tm.ID, ids[i], p))
	}
	tasks := make([]taskmgmt.Task, len(ids))
	for i, id := range ids {
		tasks[i] = must[taskmgmt.Task](t, "GetTask")(s.GetTask(ctx, tm.ID, id))
	}
	return tm, tasks
}

func testBoardQueries(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	tm, tasks := newBoardQueries(t, s)
	CheckBoards(t, s, tm.ID, tasks, "2025-11-10")
}

// explicit is the BoardQuery that view is a shorthand for.
var explicit = map[taskmgmt.View]taskmgmt.BoardQuery{
	taskmgmt.ViewInitial:      {Statuses: []taskmgmt.Status{taskmgmt.StatusTodo, taskmgmt.StatusDoing}},
	taskmgmt.ViewTodo:         {Statuses: []taskmgmt.Status{taskmgmt.StatusTodo}, Sort: taskmgmt.SortStart},
	taskmgmt.ViewAll:          {Statuses: []taskmgmt.Status{taskmgmt.StatusDone, taskmgmt.StatusTodo, taskmgmt.StatusDoing}},
	taskmgmt.ViewStartOverdue: {Statuses: []taskmgmt.Status{taskmgmt.StatusTodo}, Overdue: true},
	taskmgmt.ViewEndOverdue:   {Statuses: []taskmgmt.Status{taskmgmt.StatusDoing, taskmgmt.StatusTodo}, Sort: taskmgmt.SortEnd, Overdue: true},
}

// testBoardQueryCursors: a board's cursor works for that board only (its
// statuses in any order, its sort, its day, its filter), and a view's
// cursors are those of the board it names.
func testBoardQueryCursors(t *testing.T, newStore NewStore) {
	s, clk := fixed(t, newStore)
	ctx := t.Context()
	tm, tasks := newBoardQueries(t, s)
	y := tasks[3].TagIDs[0] // on every third task
	qs := Boards()
	for _, q := range Boards()[:4] { // todo by start and by end, all and overdue
		q.TagIDs = []string{y}
		qs = append(qs, q)
	}
	first := func(q taskmgmt.BoardQuery) ddbkit.Page[taskmgmt.Task] {
		t.Helper()
		q.Limit = 1
		p := must[ddbkit.Page[taskmgmt.Task]](t, boardName(q))(s.ListBoard(ctx, tm.ID, q))
		if len(p.Items) != 1 || p.Next == "" {
			t.Fatalf("%s, limit 1: %d items, Next %q; the fixture gives every board two tasks", boardName(q), len(p.Items), p.Next)
		}
		return p
	}
	pages := make([]ddbkit.Page[taskmgmt.Task], len(qs))
	for i, q := range qs {
		pages[i] = first(q)
	}
	for i, q := range qs {
		for j, p := range pages {
			q := q
			q.Limit, q.Cursor = 1, p.Next
			_, err := s.ListBoard(ctx, tm.ID, q)
			if i == j {
				wantErr(t, boardName(q)+" with its own cursor", err, nil)
				continue
			}
			wantErr(t, fmt.Sprintf("%s with the cursor of %s", boardName(q), boardName(qs[j])), err, ddbkit.ErrInvalidCursor)
		}
		c := []byte(pages[i].Next)
		c[len(c)/2] ^= 1
		q.Cursor = string(c)
		_, err := s.ListBoard(ctx, tm.ID, q)
		wantErr(t, boardName(q)+" with a tampered cursor", err, ddbkit.ErrInvalidCursor)
	}

	// The statuses in another order are the same board.
	q := taskmgmt.BoardQuery{Statuses: []taskmgmt.Status{taskmgmt.StatusTodo, taskmgmt.StatusDone}, Sort: taskmgmt.SortEnd}
	p := first(q)
	q.Statuses, q.Cursor = []taskmgmt.Status{taskmgmt.StatusDone, taskmgmt.StatusTodo}, p.Next
	must[ddbkit.Page[taskmgmt.Task]](t, "done+todo with the cursor of todo+done")(s.ListBoard(ctx, tm.ID, q))

	// A view is the board it names: the same pages, and either's cursor
	// goes on with the other.
	for view, named := range explicit {
		for _, limit := range []int{1, 2, 100} {
			vq := taskmgmt.BoardQuery{View: view, PageOptions: ddbkit.PageOptions{Limit: limit}}
			eq := named
			eq.Limit = limit
			vp := must[ddbkit.Page[taskmgmt.Task]](t, string(view))(s.ListBoard(ctx, tm.ID, vq))
			ep := must[ddbkit.Page[taskmgmt.Task]](t, boardName(eq))(s.ListBoard(ctx, tm.ID, eq))
			equal(t, fmt.Sprintf("%s and %s, limit %d", view, boardName(eq), limit), vp, ep)
			if vp.Next == "" {
				continue
			}
			vq.Cursor, eq.Cursor = ep.Next, vp.Next
			vp = must[ddbkit.Page[taskmgmt.Task]](t, string(view)+" page 2")(s.ListBoard(ctx, tm.ID, vq))
			ep = must[ddbkit.Page[taskmgmt.Task]](t, boardName(eq)+" page 2")(s.ListBoard(ctx, tm.ID, eq))
			equal(t, fmt.Sprintf("%s and %s, limit %d, page 2", view, boardName(eq), limit), vp, ep)
		}
	}

	// An overdue board's cursor is bound to its day.
	od := taskmgmt.BoardQuery{Statuses: []taskmgmt.Status{taskmgmt.StatusDoing}, Sort: taskmgmt.SortEnd, Overdue: true}
	od.Cursor = first(od).Next
	clk.Set(Start.Add(24 * time.Hour))
	_, err := s.ListBoard(ctx, tm.ID, od)
	wantErr(t, "overdue cursor of yesterday", err, ddbkit.ErrInvalidCursor)
}

func testBoardQueryValidation(t *testing.T, newStore NewStore) {
	s, _ := fixed(t, newStore)
	tm := team(t, s)
	type st = []taskmgmt.Status
	todo, doing, done := taskmgmt.StatusTodo, taskmgmt.StatusDoing, taskmgmt.StatusDone
	for _, tc := range []struct {
		name  string
		q     taskmgmt.BoardQuery
		field string
	}{
		{"nothing", taskmgmt.BoardQuery{}, "Statuses"},
		{"empty set", taskmgmt.BoardQuery{Statuses: st{}, Sort: taskmgmt.SortEnd}, "Statuses"},
		{"sort alone", taskmgmt.BoardQuery{Sort: taskmgmt.SortEnd, Overdue: true}, "Statuses"},
		{"unknown status", taskmgmt.BoardQuery{Statuses: st{"blocked"}}, "Statuses[0]"},
		{"status in capitals", taskmgmt.BoardQuery{Statuses: st{todo, "DONE"}}, "Statuses[1]"},
		{"repeated status", taskmgmt.BoardQuery{Statuses: st{todo, doing, todo}}, "Statuses[2]"},
		{"four statuses", taskmgmt.BoardQuery{Statuses: st{todo, doing, done, done}}, "Statuses[3]"},
		{"unknown sort", taskmgmt.BoardQuery{Statuses: st{todo}, Sort: "due"}, "Sort"},
		{"view and statuses", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, Statuses: st{todo}}, "Statuses"},
		{"view and sort", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, Sort: taskmgmt.SortStart}, "Sort"},
		{"view and overdue", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, Overdue: true}, "Overdue"},
		{"unknown view and statuses", taskmgmt.BoardQuery{View: "kanban", Statuses: st{todo}}, "View"},
		{"bad match", taskmgmt.BoardQuery{Statuses: st{todo}, TagIDs: []string{"a"}, Match: "most"}, "Match"},
		{"bad tag", taskmgmt.BoardQuery{Statuses: st{todo}, TagIDs: []string{"TAG#a"}}, "TagIDs[0]"},
	} {
		_, err := s.ListBoard(t.Context(), tm.ID, tc.q)
		wantField(t, tc.name, err, tc.field)
	}
}
