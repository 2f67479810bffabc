package taskmgmt_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestFilteredPagesAreBounded puts 2,000 items that a filter refuses in
// front of 3 it keeps, for each filtered listing (the board's tag filter,
// the live invitations, the live daily counters), and pages through them
// on DynamoDB Local: one page costs a bounded number of Queries and read
// units, whatever the partition's size (a fraction of reading the
// partition), paging with Next finds every match and ends, and the memory
// store, given the same items, returns the same pages and cursors.
func TestFilteredPagesAreBounded(t *testing.T) {
	const (
		refused = 2000
		budget  = 250
		limit   = 10
	)
	now := start
	clock := func(o *taskmgmt.Options) {
		o.Clock = func() time.Time { return now }
		o.FilterBudget = budget
	}
	var cap *ddbtest.CapacityClient
	var cnt *ddbtest.CountingClient
	dyn, raw, table, invTable := newDynamoInv(t, func(c ddbkit.Client) ddbkit.Client {
		cap = ddbtest.NewCapacityClient(c)
		cnt = ddbtest.NewCountingClient(cap)
		return cnt
	}, deterministic, clock)
	mem := taskmgmt.NewMemoryStore(deterministic, clock, func(o *taskmgmt.Options) {
		o.TableName, o.InvitationTableName = table, invTable
	})

	// The data, made fast on the memory store, then copied raw.
	ctx := t.Context()
	must[taskmgmt.User](t)(mem.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "alice"}))
	team := must[taskmgmt.Team](t)(mem.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}))
	color := taskmgmt.Color{Color: "#000", BackgroundColor: "#fff"}
	wanted := must[taskmgmt.Tag](t)(mem.CreateTag(ctx, team.ID, taskmgmt.NewTag{Name: "wanted", Color: color}))
	other := must[taskmgmt.Tag](t)(mem.CreateTag(ctx, team.ID, taskmgmt.NewTag{Name: "other", Color: color}))
	// Distinct start dates: DynamoDB orders equal index sort keys in an
	// order of its own, which the memory store cannot follow.
	day := func(i int) taskmgmt.Date {
		return taskmgmt.DateOf(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i))
	}
	for i := range refused {
		must[taskmgmt.Task](t)(mem.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "no", Start: day(i), End: day(i), TagIDs: []string{other.ID}}))
	}
	for i := range 3 {
		must[taskmgmt.Task](t)(mem.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "yes", Start: day(refused + i), End: day(refused + i), TagIDs: []string{wanted.ID}}))
	}
	for i := range refused {
		must[taskmgmt.Invitation](t)(mem.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: fmt.Sprintf("old%d@example.com", i)}))
	}
	var counters []map[string]types.AttributeValue
	for i := range refused {
		counters = append(counters, map[string]types.AttributeValue{"PK": S("TEAM#" + team.ID), "SK": S("COUNTER#" + string(day(i))),
			"type": S("counter"), "todo": N(1), "doing": N(0), "done": N(0), "expiresAt": N(start.Unix() - 1)})
	}
	if err := mem.Import(ddbkit.TableItems{table: counters}); err != nil {
		t.Fatal(err)
	}
	now = start.Add(48 * time.Hour) // the invitations so far have expired
	for i := range 3 {
		must[taskmgmt.Invitation](t)(mem.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: fmt.Sprintf("new%d@example.com", i)}))
	}
	for name, items := range mem.Export() {
		for chunk := range slices.Chunk(items, 25) {
			reqs := make([]types.WriteRequest, len(chunk))
			for i, it := range chunk {
				reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
			}
			if _, err := raw.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{name: reqs}}); err != nil {
				t.Fatal(err)
			}
		}
	}

	type lister func(s taskmgmt.Store, o ddbkit.PageOptions) (ids []string, next string, err error)
	for _, tc := range []struct {
		name  string
		list  lister
		found int
	}{
		{"ListBoard by tag", func(s taskmgmt.Store, o ddbkit.PageOptions) ([]string, string, error) {
			p, err := s.ListBoard(ctx, team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{wanted.ID}, PageOptions: o})
			var ids []string
			for _, it := range p.Items {
				ids = append(ids, it.ID)
			}
			return ids, p.Next, err
		}, 3},
		{"ListInvitations", func(s taskmgmt.Store, o ddbkit.PageOptions) ([]string, string, error) {
			p, err := s.ListInvitations(ctx, team.ID, o)
			var ids []string
			for _, it := range p.Items {
				ids = append(ids, it.Email)
			}
			return ids, p.Next, err
		}, 3},
		{"ListDailyCounts", func(s taskmgmt.Store, o ddbkit.PageOptions) ([]string, string, error) {
			p, err := s.ListDailyCounts(ctx, team.ID, taskmgmt.DailyQuery{PageOptions: o})
			var ids []string
			for _, it := range p.Items {
				ids = append(ids, string(it.Date))
			}
			return ids, p.Next, err
		}, 1}, // today's, which the tasks made
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One page: bounded by the budget, not the partition.
			cap.Reset()
			cnt.Reset()
			ids, next, err := tc.list(dyn, ddbkit.PageOptions{Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			first := cap.Consumed()
			queries := cnt.Count("Query")
			if maxQ := 2 + budget/100; queries > maxQ {
				t.Errorf("first page: %d Queries, want at most %d", queries, maxQ)
			}
			if next == "" {
				t.Errorf("first page (%d items) has no Next, yet the budget cannot reach the matches", len(ids))
			}
			// Every page, on both stores: the same pages, and every match.
			cap.Reset()
			var found []string
			cursor, pages := "", 0
			for {
				pages++
				if pages > refused {
					t.Fatal("paging does not end")
				}
				o := ddbkit.PageOptions{Limit: limit, Cursor: cursor}
				dIDs, dNext, err := tc.list(dyn, o)
				if err != nil {
					t.Fatal(err)
				}
				mIDs, mNext, err := tc.list(mem, o)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(dIDs, mIDs) || dNext != mNext {
					t.Fatalf("page %d differs:\n dynamo %v next %q\n memory %v next %q", pages, dIDs, dNext, mIDs, mNext)
				}
				found = append(found, dIDs...)
				if dNext == "" {
					break
				}
				cursor = dNext
			}
			walk := cap.Consumed()
			if len(found) != tc.found {
				t.Errorf("found %v across %d pages, want the %d matches", found, pages, tc.found)
			}
			if pages < refused/budget {
				t.Errorf("%d pages, want at least %d: pages evaluate at most %d items", pages, refused/budget, budget)
			}
			// The partition's read cost is what the walk paid; one page pays
			// about budget/refused of it.
			if first.Read*3 > walk.Read {
				t.Errorf("first page read %.1f units, the whole walk %.1f: a page is not bounded by the budget", first.Read, walk.Read)
			}
			t.Logf("first page: %d Queries, %.1f RCU; all %d pages: %.1f RCU", queries, first.Read, pages, walk.Read)
		})
	}
}
