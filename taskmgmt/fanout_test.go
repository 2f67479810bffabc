package taskmgmt_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// putAll writes items raw, 25 to a BatchWriteItem, as a bulk loader of
// the seed's app would.
func putAll(t *testing.T, c *dynamodb.Client, table string, items []item) {
	t.Helper()
	for len(items) > 0 {
		n := min(len(items), 25)
		reqs := make([]types.WriteRequest, n)
		for i, it := range items[:n] {
			reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
		}
		pending := map[string][]types.WriteRequest{table: reqs}
		for len(pending) > 0 {
			out, err := c.BatchWriteItem(t.Context(), &dynamodb.BatchWriteItemInput{RequestItems: pending})
			if err != nil {
				t.Fatalf("BatchWriteItem: %v", err)
			}
			pending = out.UnprocessedItems
		}
		items = items[n:]
	}
}

// The seed app's items, raw.
func rawUser(id, name string) item {
	return item{"PK": S("USER#" + id), "SK": S("USER#" + id), "type": S("user"), "user_email": S(id + "-at-example.com"),
		"user_name": S(name), "user_createdAt": S("2025-11-01")}
}

func rawTeam(id, name string) item {
	return item{"PK": S("TEAM#" + id), "SK": S("TEAM#" + id), "type": S("team"), "team_name": S(name), "team_discription": S("")}
}

// rawMembership is the pair user_team and team_user.
func rawMembership(userID, userName, teamID, teamName, role string) []item {
	return []item{
		{"PK": S("USER#" + userID), "SK": S("TEAM#" + teamID), "type": S("user_team"), "user_team_role": S(role),
			"user_team_joinedAt": S("2025-11-09"), "team_name": S(teamName)},
		{"PK": S("TEAM#" + teamID), "SK": S("USER#" + userID), "type": S("team_user"), "user_team_role": S(role),
			"user_team_joinedAt": S("2025-11-09"), "user_name": S(userName)},
	}
}

func rawTodo(teamID, taskID, start string, tags ...string) item {
	it := item{"PK": S("TEAM#" + teamID), "SK": S("TASK#" + taskID), "type": S("task"), "team_task_title": S("task " + taskID),
		"team_task_discription": S(""), "team_task_status": S("todo"), "team_task_startTime": S(start), "team_task_endTime": S(start),
		"status_group1": S("TEAM#" + teamID + "#Status#todo"), "status_group2": S("TEAM#" + teamID + "#Status#todo_doing"),
		"status_group3": S("TEAM#" + teamID + "#Status#todo_done"), "start_sort_sk": S("START#" + start), "end_sort_sk": S("END#" + start)}
	if len(tags) > 0 {
		refs := make([]string, len(tags))
		for i, id := range tags {
			refs[i] = "TAG#" + id
		}
		it["team_task_tagRef"] = SS(refs...)
	}
	return it
}

// before runs fn just before the n-th call of op from now on reaches
// DynamoDB. An fn that injects a fault fails the calls after the n-th; one
// that cancels the context fails the n-th.
func before(fc *ddbtest.FaultClient, op string, n int, fn func()) {
	fc.Before(op, func() {
		if n == 1 {
			fn()
			return
		}
		before(fc, op, n-1, fn)
	})
}

func newFanOutStore(t *testing.T) (*taskmgmt.DynamoStore, *ddbtest.FaultClient, *dynamodb.Client, string) {
	t.Helper()
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic,
		func(o *taskmgmt.Options) {
			o.Retry = ddbkit.RetryPolicy{MaxAttempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
		})
	return s, fc, c, table
}

// countAttr counts the items of a raw query whose attr is v, and all.
func countAttr(t *testing.T, c *dynamodb.Client, in *dynamodb.QueryInput, attr, v string) (matching, all int) {
	t.Helper()
	p := dynamodb.NewQueryPaginator(c, in)
	for p.HasMorePages() {
		out, err := p.NextPage(t.Context())
		if err != nil {
			t.Fatalf("Query: %v", err)
		}
		for _, it := range out.Items {
			all++
			if s, ok := it[attr].(*types.AttributeValueMemberS); ok && s.Value == v {
				matching++
			}
		}
	}
	return matching, all
}

func invertQuery(table, sk, pkPrefix string) *dynamodb.QueryInput {
	return &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("GSI_Invert"),
		KeyConditionExpression:    aws.String("SK = :sk AND begins_with(PK, :p)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":sk": S(sk), ":p": S(pkPrefix)}}
}

func partitionQuery(table, pk string) *dynamodb.QueryInput {
	return &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		KeyConditionExpression: aws.String("PK = :pk"), ExpressionAttributeValues: map[string]types.AttributeValue{":pk": S(pk)}}
}

// TestTeamRenameInterrupted interrupts a team rename after its first
// batch of 100 copies, under endless 5xx; the repeated call finishes it.
func TestTeamRenameInterrupted(t *testing.T) {
	s, fc, c, table := newFanOutStore(t)
	const members = 130
	items := []item{rawTeam("t1", "old")}
	for i := range members {
		id := fmt.Sprintf("u%03d", i)
		role := "member"
		if i == 0 {
			role = "admin"
		}
		items = append(items, rawUser(id, id))
		items = append(items, rawMembership(id, id, "t1", "old", role)...)
	}
	putAll(t, c, table, items)
	ctx := t.Context()

	// The first transaction updates the team (with the admin check), the
	// second copies the name to the first 100 members.
	before(fc, "TransactWriteItems", 2, func() { fc.Inject("TransactWriteItems", ddbtest.InternalError, 1000) })
	_, err := s.UpdateTeam(ctx, "t1", "u000", taskmgmt.TeamPatch{Name: ptr("new")})
	ddbtest.WantSentinel(t, "UpdateTeam interrupted", err, ddbkit.ErrUnavailable)
	fc.Clear()
	if done, all := countAttr(t, c, invertQuery(table, "TEAM#t1", "USER#"), "team_name", "new"); done != 100 || all != members {
		t.Fatalf("after the interruption: %d of %d copies renamed, want 100 of %d", done, all, members)
	}

	got := must[taskmgmt.Team](t)(s.UpdateTeam(ctx, "t1", "u000", taskmgmt.TeamPatch{Name: ptr("new")}))
	if got.Name != "new" {
		t.Fatalf("team = %+v", got)
	}
	if done, all := countAttr(t, c, invertQuery(table, "TEAM#t1", "USER#"), "team_name", "new"); done != members || all != members {
		t.Fatalf("after the repeat: %d of %d copies renamed, want all %d", done, all, members)
	}
	// Memberships are intact on both sides.
	if _, all := countAttr(t, c, partitionQuery(table, "TEAM#t1"), "type", "team_user"); all != members+1 {
		t.Fatalf("team partition holds %d items, want %d", all, members+1)
	}
	p := must[ddbkit.Page[taskmgmt.Membership]](t)(s.ListUserTeams(ctx, "u129", ddbkit.PageOptions{}))
	if len(p.Items) != 1 || p.Items[0].TeamName != "new" || p.Items[0].Role != taskmgmt.RoleMember {
		t.Fatalf("u129's teams = %+v", p.Items)
	}
}

// TestUserRenameInterrupted cancels the context of a user rename during
// its second batch; the repeated call finishes it.
func TestUserRenameInterrupted(t *testing.T) {
	s, fc, c, table := newFanOutStore(t)
	const teams = 120
	items := []item{rawUser("u1", "old")}
	for i := range teams {
		id := fmt.Sprintf("t%03d", i)
		items = append(items, rawTeam(id, id))
		items = append(items, rawMembership("u1", "old", id, id, "admin")...)
	}
	putAll(t, c, table, items)

	ctx, cancel := context.WithCancel(t.Context())
	before(fc, "TransactWriteItems", 2, cancel)
	_, err := s.RenameUser(ctx, "u1", "new")
	ddbtest.WantSentinel(t, "RenameUser interrupted", err, ddbkit.ErrUnavailable)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%v does not match context.Canceled", err)
	}
	if done, all := countAttr(t, c, invertQuery(table, "USER#u1", "TEAM#"), "user_name", "new"); done != 100 || all != teams {
		t.Fatalf("after the interruption: %d of %d copies renamed, want 100 of %d", done, all, teams)
	}

	u := must[taskmgmt.User](t)(s.RenameUser(t.Context(), "u1", "new"))
	if u.Name != "new" {
		t.Fatalf("user = %+v", u)
	}
	if done, all := countAttr(t, c, invertQuery(table, "USER#u1", "TEAM#"), "user_name", "new"); done != teams || all != teams {
		t.Fatalf("after the repeat: %d of %d copies renamed, want all %d", done, all, teams)
	}
	m := must[ddbkit.Page[taskmgmt.Member]](t)(s.ListMembers(t.Context(), "t119", ddbkit.PageOptions{}))
	if len(m.Items) != 1 || m.Items[0].UserName != "new" || m.Items[0].Role != taskmgmt.RoleAdmin {
		t.Fatalf("t119's members = %+v", m.Items)
	}
}

// TestDeleteTagInterrupted throttles a tag deletion without end after its
// first batch of 100 tasks; the repeated call removes the rest of the
// references, and the counters do not move.
func TestDeleteTagInterrupted(t *testing.T) {
	s, fc, c, table := newFanOutStore(t)
	const tasks = 130
	items := []item{rawTeam("t1", "team"),
		{"PK": S("TEAM#t1"), "SK": S("TAG#gone"), "type": S("team_tag"), "team_tag_name": S("gone"), "team_tag_color": M("color", "a", "backgroundColor", "b")},
		{"PK": S("TEAM#t1"), "SK": S("TAG#kept"), "type": S("team_tag"), "team_tag_name": S("kept"), "team_tag_color": M("color", "a", "backgroundColor", "b")},
		{"PK": S("TEAM#t1"), "SK": S("COUNTER#ALL"), "type": S("counter"), "todo": N(tasks + 1), "doing": N(0), "done": N(0)},
		rawTodo("t1", "other", "2025-11-01", "kept"),
	}
	items = append(items, rawMembership("u000", "u000", "t1", "team", "admin")...)
	for i := range tasks {
		tags := []string{"gone"}
		if i%2 == 0 {
			tags = append(tags, "kept")
		}
		items = append(items, rawTodo("t1", fmt.Sprintf("k%03d", i), "2025-11-02", tags...))
	}
	putAll(t, c, table, items)
	ctx := t.Context()
	refs := func() int {
		t.Helper()
		n := 0
		for task, err := range ddbkit.All(func(cursor string) (ddbkit.Page[taskmgmt.Task], error) {
			return s.ListBoard(ctx, "t1", taskmgmt.BoardQuery{View: taskmgmt.ViewAll, TagIDs: []string{"gone"}, PageOptions: ddbkit.PageOptions{Cursor: cursor, Limit: ddbkit.MaxPageLimit}})
		}) {
			if err != nil {
				t.Fatal(err)
			}
			if task.ID == "other" {
				t.Fatalf("task other matched tag gone")
			}
			n++
		}
		return n
	}

	// The first transaction deletes the tag (with the admin check), the
	// second removes the first 100 references.
	before(fc, "TransactWriteItems", 2, func() { fc.Inject("TransactWriteItems", ddbtest.Throttle, 1000) })
	err := s.DeleteTag(ctx, "t1", "u000", "gone")
	ddbtest.WantSentinel(t, "DeleteTag interrupted", err, ddbkit.ErrUnavailable)
	fc.Clear()
	if n := refs(); n != tasks-100 {
		t.Fatalf("after the interruption: %d tasks still refer to the tag, want %d", n, tasks-100)
	}
	tags := must[ddbkit.Page[taskmgmt.Tag]](t)(s.ListTags(ctx, "t1", ddbkit.PageOptions{}))
	if len(tags.Items) != 1 || tags.Items[0].ID != "kept" {
		t.Fatalf("tags after the interruption = %+v; the tag goes first", tags.Items)
	}

	if err := s.DeleteTag(ctx, "t1", "u000", "gone"); err != nil {
		t.Fatal(err)
	}
	if n := refs(); n != 0 {
		t.Fatalf("after the repeat: %d tasks still refer to the tag", n)
	}
	for _, id := range []string{"k000", "k001"} {
		task := must[taskmgmt.Task](t)(s.GetTask(ctx, "t1", id))
		want := []string{"kept"}
		if id == "k001" {
			want = nil
		}
		if fmt.Sprint(task.TagIDs) != fmt.Sprint(want) {
			t.Fatalf("%s's tags = %v, want %v", id, task.TagIDs, want)
		}
	}
	if it := rawItem(t, c, table, "TEAM#t1", "TASK#k001"); it["team_task_tagRef"] != nil {
		t.Fatalf("a task without tags keeps team_task_tagRef: %v", render(it))
	}
	if rep := must[taskmgmt.CounterReport](t)(s.RecalculateCounters(ctx, "t1")); rep.Drift || rep.Counts.Todo != tasks+1 {
		t.Fatalf("counters after DeleteTag: %+v", rep)
	}
}

// TestDeleteTeamInterrupted fails a team deletion without end after its
// first transaction (the admin check and 99 members' user_team items)
// and first batch of 25 more; the repeated call deletes the rest, and
// leaves the members' other teams alone.
func TestDeleteTeamInterrupted(t *testing.T) {
	s, fc, c, table := newFanOutStore(t)
	const members = 130
	items := []item{rawTeam("t1", "doomed"), rawTeam("t2", "kept"),
		{"PK": S("TEAM#t1"), "SK": S("TAG#g"), "type": S("team_tag"), "team_tag_name": S("g"), "team_tag_color": M("color", "a", "backgroundColor", "b")},
		{"PK": S("TEAM#t1"), "SK": S("COUNTER#ALL"), "type": S("counter"), "todo": N(3), "doing": N(0), "done": N(0)},
		rawTodo("t1", "a", "2025-11-01", "g"), rawTodo("t1", "b", "2025-11-02"), rawTodo("t1", "c", "2025-11-03")}
	for i := range members {
		id := fmt.Sprintf("u%03d", i)
		items = append(items, rawUser(id, id))
		items = append(items, rawMembership(id, id, "t1", "doomed", "admin")...)
		items = append(items, rawMembership(id, id, "t2", "kept", "admin")...)
	}
	putAll(t, c, table, items)
	ctx := t.Context()

	before(fc, "BatchWriteItem", 1, func() { fc.Inject("BatchWriteItem", ddbtest.InternalError, 1000) })
	err := s.DeleteTeam(ctx, "t1", "u000")
	ddbtest.WantSentinel(t, "DeleteTeam interrupted", err, ddbkit.ErrUnavailable)
	fc.Clear()
	if _, left := countAttr(t, c, invertQuery(table, "TEAM#t1", "USER#"), "", ""); left != members-99-25 {
		t.Fatalf("after the interruption: %d user_team items left, want %d", left, members-99-25)
	}
	must[taskmgmt.Team](t)(s.GetTeam(ctx, "t1")) // the team item goes last

	if err := s.DeleteTeam(ctx, "t1", "u000"); err != nil {
		t.Fatal(err)
	}
	if _, left := countAttr(t, c, partitionQuery(table, "TEAM#t1"), "", ""); left != 0 {
		t.Fatalf("team partition holds %d items after the repeat", left)
	}
	if _, left := countAttr(t, c, invertQuery(table, "TEAM#t1", "USER#"), "", ""); left != 0 {
		t.Fatalf("%d user_team items of the team left after the repeat", left)
	}
	for _, u := range []string{"u000", "u039"} {
		p := must[ddbkit.Page[taskmgmt.Membership]](t)(s.ListUserTeams(ctx, u, ddbkit.PageOptions{}))
		if len(p.Items) != 1 || p.Items[0].TeamID != "t2" {
			t.Fatalf("%s's teams = %+v, want t2 only", u, p.Items)
		}
	}
	if m := must[ddbkit.Page[taskmgmt.Member]](t)(s.ListMembers(ctx, "t2", ddbkit.PageOptions{Limit: ddbkit.MaxPageLimit})); len(m.Items) != members {
		t.Fatalf("t2 has %d members, want %d", len(m.Items), members)
	}
	ddbtest.WantSentinel(t, "DeleteTeam once more", s.DeleteTeam(ctx, "t1", "u000"), ddbkit.ErrNotFound)
}

// TestDeleteTeamRepeatChecksTheActor fails a team deletion after its
// transaction, at the last step, the actor's own team_user item: the team
// item is gone, and a repeat still checks the role on the actor's item.
// Another admin, whose item the transaction deleted, is refused; the
// actor finishes.
func TestDeleteTeamRepeatChecksTheActor(t *testing.T) {
	s, fc, c, table := newFanOutStore(t)
	items := []item{rawTeam("t1", "doomed"), rawTodo("t1", "a", "2025-11-01")}
	for _, id := range []string{"u000", "u001"} {
		items = append(items, rawUser(id, id))
		items = append(items, rawMembership(id, id, "t1", "doomed", "admin")...)
	}
	putAll(t, c, table, items)
	ctx := t.Context()

	fc.Inject("BatchWriteItem", ddbtest.InternalError, 1000)
	ddbtest.WantSentinel(t, "DeleteTeam interrupted", s.DeleteTeam(ctx, "t1", "u000"), ddbkit.ErrUnavailable)
	fc.Clear()
	_, err := s.GetTeam(ctx, "t1")
	ddbtest.WantSentinel(t, "GetTeam after the interruption", err, ddbkit.ErrNotFound)
	if _, left := countAttr(t, c, partitionQuery(table, "TEAM#t1"), "", ""); left != 1 {
		t.Fatalf("team partition holds %d items after the interruption, want the actor's team_user item", left)
	}

	ddbtest.WantSentinel(t, "DeleteTeam repeated by the other admin", s.DeleteTeam(ctx, "t1", "u001"), ddbkit.ErrPermissionDenied)
	if _, left := countAttr(t, c, partitionQuery(table, "TEAM#t1"), "", ""); left != 1 {
		t.Fatalf("the refused repeat left %d items, want 1", left)
	}
	if err := s.DeleteTeam(ctx, "t1", "u000"); err != nil {
		t.Fatalf("DeleteTeam repeated by the actor: %v", err)
	}
	if _, left := countAttr(t, c, partitionQuery(table, "TEAM#t1"), "", ""); left != 0 {
		t.Fatalf("team partition holds %d items after the repeat", left)
	}
	ddbtest.WantSentinel(t, "DeleteTeam once more", s.DeleteTeam(ctx, "t1", "u000"), ddbkit.ErrNotFound)
}
