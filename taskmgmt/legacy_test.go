package taskmgmt_test

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/schema"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

type item = map[string]types.AttributeValue

// legacyItems are written raw, as the seed's app writes them: the seed's
// own examples first, then other date forms, UUIDv4 IDs, optional
// attributes missing, and one corrupt task.
func legacyItems(now time.Time) []item {
	future, past := N(now.Add(30*24*time.Hour).Unix()), N(now.Add(-time.Hour).Unix())
	task := func(id, title, status, start, end string, g [3]string, tags ...string) item {
		it := item{"PK": S("TEAM#t1"), "SK": S("TASK#" + id), "type": S("task"),
			"team_task_title": S(title), "team_task_status": S(status),
			"team_task_startTime": S(start), "team_task_endTime": S(end),
			"status_group1": S("TEAM#t1#Status#" + g[0]), "status_group2": S("TEAM#t1#Status#" + g[1]), "status_group3": S("TEAM#t1#Status#" + g[2]),
			"start_sort_sk": S("START#" + start[:10]), "end_sort_sk": S("END#" + end[:10])}
		if len(tags) > 0 {
			it["team_task_tagRef"] = SS(tags...)
		}
		return it
	}
	todo, doing, done := [3]string{"todo", "todo_doing", "todo_done"}, [3]string{"doing_done", "todo_doing", "doing"}, [3]string{"doing_done", "done", "todo_done"}
	t1 := task("task1", "デプロイ 1", "todo", "2025-11-05", "2025-12-05", todo, "TAG#tag1", "TAG#tag2")
	t1["team_task_discription"] = S("タスクの説明 タスクの説明 タスクの説明 タスクの説明")
	return []item{
		{"PK": S("USER#u1"), "SK": S("USER#u1"), "type": S("user"), "user_email": S("alice-at-example.com"),
			"user_name": S("monbayashi joji"), "user_image": S("https://example.com/u1.png"), "user_createdAt": S("2025-11-01")},
		{"PK": S("USER#u2"), "SK": S("USER#u2"), "type": S("user"), "user_email": S("bob-at-example.com"),
			"user_name": S("bob"), "user_createdAt": S("2025-11-01T10:00:00+09:00")},
		{"PK": S("TEAM#t1"), "SK": S("TEAM#t1"), "type": S("team"), "team_name": S("タスク管理 APP 開発チーム"),
			"team_discription": S("タスク管理 APP 開発チーム用のタスク管理")},
		{"PK": S("USER#u1"), "SK": S("TEAM#t1"), "type": S("user_team"), "user_team_role": S("admin"),
			"user_team_joinedAt": S("2025-11-09"), "team_name": S("タスク管理 APP 開発チーム")},
		{"PK": S("TEAM#t1"), "SK": S("USER#u1"), "type": S("team_user"), "user_team_role": S("admin"),
			"user_team_joinedAt": S("2025-11-09"), "user_name": S("monbayashi joji")},
		{"PK": S("USER#u2"), "SK": S("TEAM#t1"), "type": S("user_team"), "user_team_role": S("member"),
			"user_team_joinedAt": S("2024-01-05T10:00:00Z")}, // no team_name
		{"PK": S("TEAM#t1"), "SK": S("USER#u2"), "type": S("team_user"), "user_team_role": S("member"),
			"user_team_joinedAt": S("2024-01-05T19:00:00+09:00"), "user_name": S("bob")},
		{"PK": S("TEAM#t1"), "SK": S("TAG#tag1"), "type": S("team_tag"), "team_tag_name": S("backend"),
			"team_tag_color": M("color", "#ffffff", "backgroundColor", "#0000ff")},
		{"PK": S("TEAM#t1"), "SK": S("TAG#tag2"), "type": S("team_tag"), "team_tag_name": S("frontend"),
			"team_tag_color": M("color", "#000000", "backgroundColor", "#00ff00")},
		t1,
		task("7c9e6679-7425-40de-944b-e07fc1f90ae7", "レビュー", "doing", "2025-11-03T00:00:00.123456Z", "2025-11-08", doing),
		task("task3", "完了済み", "done", "2025-11-02", "2025-11-04", done, "TAG#tag1"),
		task("task4", "壊れた", "blocked", "2025-11-04", "2025-11-06", todo), // corrupt: unknown status
		// Without dates, as the app writes a task it has none for: no
		// sort keys, so no board view (every one is sorted by a date).
		{"PK": S("TEAM#t1"), "SK": S("TASK#task5"), "type": S("task"), "team_task_title": S("日付なし"), "team_task_status": S("todo"),
			"status_group1": S("TEAM#t1#Status#todo"), "status_group2": S("TEAM#t1#Status#todo_doing"), "status_group3": S("TEAM#t1#Status#todo_done")},
		// The seed lists expiresAt on COUNTER#ALL too; this one's has
		// passed, and TTL has not deleted it yet.
		{"PK": S("TEAM#t1"), "SK": S("COUNTER#ALL"), "type": S("counter"), "todo": N(3), "doing": N(1), "done": N(1), "expiresAt": past},
		{"PK": S("TEAM#t1"), "SK": S("COUNTER#2025-11-09"), "type": S("counter"), "todo": N(3), "doing": N(1), "done": N(1), "expiresAt": future},
		{"PK": S("TEAM#t1"), "SK": S("COUNTER#2025-08-01"), "type": S("counter"), "todo": N(9), "doing": N(0), "done": N(0), "expiresAt": past},
	}
}

// TestLegacyFixture reads a table written by the seed's app through every
// access pattern, then writes to it.
func TestLegacyFixture(t *testing.T) {
	c := ddbtest.Client(t)
	in := taskmgmt.CreateTableInput("task-table-v3")
	name := ddbtest.NewTable(t, c, in)
	now := time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC)
	for _, it := range legacyItems(now) {
		putRaw(t, c, name, it)
	}
	// The app's table has the seed's nine GSIs, and no TTL yet: EnsureTable
	// reports TTL as pending (reads apply it already), and with
	// schema.Apply enables it and changes nothing else.
	pending, err := taskmgmt.EnsureTable(t.Context(), c, name)
	if err != nil || len(pending) != 1 || !pending[0].Pending || pending[0].Action != schema.ActionEnableTTL {
		t.Fatalf("EnsureTable on the live table = %v, %v; want TTL pending, no error", pending, err)
	}
	changes, err := taskmgmt.EnsureTable(t.Context(), c, name, schema.Apply)
	if err != nil {
		t.Fatalf("EnsureTable on the live table: %v", err)
	}
	if len(changes) != 1 || changes[0].Action != schema.ActionEnableTTL || !strings.Contains(changes[0].Detail, "expiresAt") {
		t.Fatalf("EnsureTable on the live table made %v, want TTL on expiresAt only", changes)
	}
	ttl, err := c.DescribeTimeToLive(t.Context(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	if d := ttl.TimeToLiveDescription; d == nil || aws.ToString(d.AttributeName) != "expiresAt" ||
		(d.TimeToLiveStatus != types.TimeToLiveStatusEnabled && d.TimeToLiveStatus != types.TimeToLiveStatusEnabling) {
		t.Fatalf("TTL after EnsureTable: %+v", ttl.TimeToLiveDescription)
	}
	if again, err := taskmgmt.EnsureTable(t.Context(), c, name); err != nil || len(again) != 0 {
		t.Fatalf("EnsureTable again: %v, %v; want no change", again, err)
	}
	stopTTL(t, c, name)
	s := taskmgmt.NewDynamoStore(c, legacyOptions(name, now))
	checkLegacy(t, s, func(pk, sk string) item { return rawItem(t, c, name, pk, sk) }, true)
}

// TestLegacyFixtureMemory imports the items TestLegacyFixture puts into a
// memory store, and runs the same reads and writes on it: the memory
// store reads them as the DynamoDB store does. The corrupt task cannot be
// imported: Import refuses it, naming it, and imports nothing.
func TestLegacyFixtureMemory(t *testing.T) {
	const name = "task-table-v3"
	now := time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC)
	s := taskmgmt.NewMemoryStore(legacyOptions(name, now))
	items := legacyItems(now)
	err := s.Import(ddbkit.TableItems{name: items})
	ddbtest.WantSentinel(t, "Import with the corrupt task", err, ddbkit.ErrCorruptItem)
	var ce *ddbkit.CorruptItemError
	if !errors.As(err, &ce) || ce.Table != name || !strings.Contains(ce.Key, "TASK#task4") || ce.Attr != "team_task_status" {
		t.Fatalf("Import error %v does not name the table, TASK#task4 and team_task_status", err)
	}
	if got := s.Export()[name]; len(got) != 0 {
		t.Fatalf("a failed Import imported %d items", len(got))
	}
	items = slices.DeleteFunc(items, func(it item) bool { return it["SK"].(*types.AttributeValueMemberS).Value == "TASK#task4" })
	if err := s.Import(ddbkit.TableItems{name: items}); err != nil {
		t.Fatal(err)
	}
	checkLegacy(t, s, func(pk, sk string) item {
		for _, it := range s.Export()[name] {
			if it["PK"].(*types.AttributeValueMemberS).Value == pk && it["SK"].(*types.AttributeValueMemberS).Value == sk {
				return it
			}
		}
		return nil
	}, false)
}

// stopTTL disables the TTL that EnsureTable enabled: the fixtures' times
// are the seed's, past in real time, and DynamoDB Local's TTL would delete
// their items while the test reads them at the seed's time.
func stopTTL(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.UpdateTimeToLive(t.Context(), &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expiresAt"), Enabled: aws.Bool(false)}})
	if err != nil {
		t.Fatalf("disabling TTL: %v", err)
	}
}

func legacyOptions(name string, now time.Time) func(*taskmgmt.Options) {
	return func(o *taskmgmt.Options) {
		o.TableName = name
		o.Clock = func() time.Time { return now }
		o.NewID = func() string { return "new1" }
	}
}

// checkLegacy runs every access pattern and the main writes on a store
// holding legacyItems (without the corrupt task unless corrupt); raw
// reads one stored item.
func checkLegacy(t *testing.T, s taskmgmt.Store, raw func(pk, sk string) item, corrupt bool) {
	ctx := t.Context()
	eq := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
		}
	}

	// 1, 3, 6: the items.
	eq("AP1 user", must[taskmgmt.User](t)(s.GetUser(ctx, "u1")), taskmgmt.User{ID: "u1", Email: "alice-at-example.com", Name: "monbayashi joji", Image: "https://example.com/u1.png", CreatedAt: "2025-11-01"})
	eq("AP1 user with a time", must[taskmgmt.User](t)(s.GetUser(ctx, "u2")), taskmgmt.User{ID: "u2", Email: "bob-at-example.com", Name: "bob", CreatedAt: "2025-11-01"})
	eq("AP3 team", must[taskmgmt.Team](t)(s.GetTeam(ctx, "t1")), taskmgmt.Team{ID: "t1", Name: "タスク管理 APP 開発チーム", Description: "タスク管理 APP 開発チーム用のタスク管理"})
	eq("AP6 task", must[taskmgmt.Task](t)(s.GetTask(ctx, "t1", "task1")), taskmgmt.Task{ID: "task1", TeamID: "t1", Title: "デプロイ 1",
		Description: "タスクの説明 タスクの説明 タスクの説明 タスクの説明", Status: "todo", Start: "2025-11-05", End: "2025-12-05", TagIDs: []string{"tag1", "tag2"}})
	if _, err := s.GetTask(ctx, "t1", "task4"); corrupt {
		ddbtest.WantSentinel(t, "GetTask corrupt", err, ddbkit.ErrCorruptItem)
		var ce *ddbkit.CorruptItemError
		if !errors.As(err, &ce) || ce.Attr != "team_task_status" {
			t.Fatalf("corrupt task error %v does not name team_task_status", err)
		}
	} else {
		ddbtest.WantSentinel(t, "GetTask of the task not imported", err, ddbkit.ErrNotFound)
	}

	// 2, 4, 5: the partitions.
	members := must[ddbkit.Page[taskmgmt.Member]](t)(s.ListMembers(ctx, "t1", ddbkit.PageOptions{}))
	eq("AP2 members", members.Items, []taskmgmt.Member{
		{TeamID: "t1", UserID: "u1", UserName: "monbayashi joji", Role: "admin", JoinedAt: "2025-11-09"},
		{TeamID: "t1", UserID: "u2", UserName: "bob", Role: "member", JoinedAt: "2024-01-05"}})
	eq("GetMember, a joinedAt with a time", must[taskmgmt.Member](t)(s.GetMember(ctx, "t1", "u2")), members.Items[1])
	teams := must[ddbkit.Page[taskmgmt.Membership]](t)(s.ListUserTeams(ctx, "u2", ddbkit.PageOptions{}))
	eq("AP4 teams", teams.Items, []taskmgmt.Membership{{UserID: "u2", TeamID: "t1", Role: "member", JoinedAt: "2024-01-05"}})
	tags := must[ddbkit.Page[taskmgmt.Tag]](t)(s.ListTags(ctx, "t1", ddbkit.PageOptions{}))
	eq("AP5 tags", len(tags.Items), 2)
	eq("AP5 tag color", tags.Items[0].Color, taskmgmt.Color{Color: "#ffffff", BackgroundColor: "#0000ff"})

	// 7-15: the board views.
	view := func(q taskmgmt.BoardQuery) ([]string, int) {
		t.Helper()
		p := must[ddbkit.Page[taskmgmt.Task]](t)(s.ListBoard(ctx, "t1", q))
		var titles []string
		for _, task := range p.Items {
			titles = append(titles, task.Title)
		}
		return titles, len(p.Skipped)
	}
	for _, tc := range []struct {
		name    string
		q       taskmgmt.BoardQuery
		want    []string
		skipped int
	}{
		{"AP7 initial", taskmgmt.BoardQuery{View: taskmgmt.ViewInitial}, []string{"レビュー", "壊れた", "デプロイ 1"}, 1},
		{"AP8 todo", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo}, []string{"デプロイ 1"}, 1},
		{"AP9 todo + tag", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{"tag2"}}, []string{"デプロイ 1"}, 0},
		{"AP10 todo + tags", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{"tag1", "tag2"}, Match: taskmgmt.MatchAll}, []string{"デプロイ 1"}, 0},
		{"AP11 all", taskmgmt.BoardQuery{View: taskmgmt.ViewAll}, []string{"完了済み", "レビュー", "壊れた", "デプロイ 1"}, 1},
		{"AP12 start overdue", taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue}, []string{"デプロイ 1"}, 1},
		{"AP13 start overdue + tags", taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue, TagIDs: []string{"tag1"}}, []string{"デプロイ 1"}, 0},
		{"AP14 end overdue", taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue}, []string{"壊れた", "レビュー"}, 1},
		{"AP15 end overdue + tags", taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue, TagIDs: []string{"tag1"}}, nil, 0},
	} {
		got, skipped := view(tc.q)
		// The corrupt task is in the views its index keys put it in.
		want := tc.want[:0:0]
		for _, w := range tc.want {
			if w != "壊れた" {
				want = append(want, w)
			}
		}
		eq(tc.name, got, want)
		if !corrupt {
			tc.skipped = 0
		}
		eq(tc.name+" skipped", skipped, tc.skipped)
	}

	// 16: counters; the expired daily counter is left out.
	eq("AP16 all", must[taskmgmt.Counts](t)(s.GetCounts(ctx, "t1")), taskmgmt.Counts{Todo: 3, Doing: 1, Done: 1})
	days := must[ddbkit.Page[taskmgmt.DailyCount]](t)(s.ListDailyCounts(ctx, "t1", taskmgmt.DailyQuery{}))
	if len(days.Items) != 1 || days.Items[0].Date != "2025-11-09" || days.Items[0].Todo != 3 {
		t.Fatalf("AP16 daily = %+v", days.Items)
	}

	// Writes on the legacy data.
	// A status patch writes the status and its groups, and nothing else:
	// every other attribute stays as the table held it (on DynamoDB, the
	// app's start time with its time of day, and no description).
	before := raw("TEAM#t1", "TASK#7c9e6679-7425-40de-944b-e07fc1f90ae7")
	moved := must[taskmgmt.Task](t)(s.UpdateTask(ctx, "t1", "7c9e6679-7425-40de-944b-e07fc1f90ae7", taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDone)}))
	eq("moved legacy task", moved.Start, taskmgmt.Date("2025-11-03"))
	after := maps.Clone(before)
	after["team_task_status"] = S("done")
	after["status_group1"], after["status_group2"], after["status_group3"] = S("TEAM#t1#Status#doing_done"), S("TEAM#t1#Status#done"), S("TEAM#t1#Status#todo_done")
	checkItem(t, "moved legacy task", raw("TEAM#t1", "TASK#7c9e6679-7425-40de-944b-e07fc1f90ae7"), after)
	eq("counts after move", must[taskmgmt.Counts](t)(s.GetCounts(ctx, "t1")), taskmgmt.Counts{Todo: 3, Doing: 0, Done: 2})
	if exp, ok := raw("TEAM#t1", "COUNTER#ALL")["expiresAt"]; ok {
		t.Fatalf("COUNTER#ALL after a task write still expires at %v: TTL could reset the running total", exp)
	}

	// A task without dates keeps none through an update: no "" dates, no
	// START# or END# sort keys, so it shows in no overdue view.
	dateless := raw("TEAM#t1", "TASK#task5")
	for _, a := range []string{"team_task_startTime", "team_task_endTime", "start_sort_sk", "end_sort_sk"} {
		if v, ok := dateless[a]; ok {
			t.Fatalf("the task without dates has %s = %v", a, v)
		}
	}
	eq("dateless task", must[taskmgmt.Task](t)(s.GetTask(ctx, "t1", "task5")), taskmgmt.Task{ID: "task5", TeamID: "t1", Title: "日付なし", Status: "todo"})
	must[taskmgmt.Task](t)(s.UpdateTask(ctx, "t1", "task5", taskmgmt.TaskPatch{Description: ptr("説明")}))
	dateless["team_task_discription"] = S("説明")
	checkItem(t, "dateless task updated", raw("TEAM#t1", "TASK#task5"), dateless)
	must[taskmgmt.Task](t)(s.UpdateTask(ctx, "t1", "task5", taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)}))
	must[taskmgmt.Task](t)(s.UpdateTask(ctx, "t1", "task5", taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusTodo)}))
	for _, v := range []taskmgmt.View{taskmgmt.ViewStartOverdue, taskmgmt.ViewEndOverdue} {
		titles, _ := view(taskmgmt.BoardQuery{View: v})
		if slices.Contains(titles, "日付なし") {
			t.Fatalf("%s view lists the task without dates: %v", v, titles)
		}
	}
	must[taskmgmt.Task](t)(s.CreateTask(ctx, "t1", taskmgmt.NewTask{Title: "新規", Start: "2025-11-10", End: "2025-11-11", TagIDs: []string{"tag1"}}))
	must[taskmgmt.User](t)(s.RenameUser(ctx, "u2", "robert"))
	members = must[ddbkit.Page[taskmgmt.Member]](t)(s.ListMembers(ctx, "t1", ddbkit.PageOptions{}))
	eq("renamed member", members.Items[1].UserName, "robert")
	must[taskmgmt.Team](t)(s.UpdateTeam(ctx, "t1", "u1", taskmgmt.TeamPatch{Name: ptr("新チーム")}))
	teams = must[ddbkit.Page[taskmgmt.Membership]](t)(s.ListUserTeams(ctx, "u2", ddbkit.PageOptions{}))
	eq("team name copied to the legacy user_team", teams.Items[0].TeamName, "新チーム")
	if err := s.DeleteTag(ctx, "t1", "u1", "tag2"); err != nil {
		t.Fatal(err)
	}
	eq("tag removed from the legacy task", must[taskmgmt.Task](t)(s.GetTask(ctx, "t1", "task1")).TagIDs, []string{"tag1"})
	rep := must[taskmgmt.CounterReport](t)(s.RecalculateCounters(ctx, "t1"))
	// The corrupt task is not counted, and is reported.
	skipped := rep.Skipped
	rep.Skipped = nil
	eq("recalculated", rep, taskmgmt.CounterReport{Was: taskmgmt.Counts{Todo: 4, Done: 2}, Counts: taskmgmt.Counts{Todo: 3, Done: 2}, Drift: true, Checked: 5})
	if corrupt {
		var ce *ddbkit.CorruptItemError
		if len(skipped) != 1 || !errors.As(skipped[0], &ce) || !strings.Contains(ce.Key, "TASK#task4") || len(ddbkit.MatchingSentinels(skipped[0])) != 1 {
			t.Fatalf("recalculated: Skipped = %v, want the corrupt task's ErrCorruptItem naming TASK#task4", skipped)
		}
	} else if len(skipped) != 0 {
		t.Fatalf("recalculated: Skipped = %v, want none", skipped)
	}
}

// TestEnsureTableAddsMissingIndexes runs EnsureTable on an older table of
// the app that lacks two of the seed's GSIs and TTL, with a task in it:
// by default it reports the missing indexes as a mismatch; with
// schema.Apply it adds the indexes one at a time and TTL, and the views the
// new indexes serve find the task.
func TestEnsureTableAddsMissingIndexes(t *testing.T) {
	c := ddbtest.Client(t)
	in := taskmgmt.CreateTableInput("task-table-v3")
	missing := []string{"GSI_Status_Start_Sort_Group2", "GSI_Status_End_Sort_Group2"}
	in.GlobalSecondaryIndexes = slices.DeleteFunc(in.GlobalSecondaryIndexes, func(g types.GlobalSecondaryIndex) bool {
		return slices.Contains(missing, aws.ToString(g.IndexName))
	})
	in.AttributeDefinitions = slices.DeleteFunc(in.AttributeDefinitions, func(a types.AttributeDefinition) bool {
		return aws.ToString(a.AttributeName) == "status_group2"
	})
	name := ddbtest.NewTable(t, c, in)
	putRaw(t, c, name, rawTeam("t1", "team"))
	putRaw(t, c, name, rawTodo("t1", "a", "2025-11-01"))

	// The table is its stack's: verified, the missing indexes are a
	// mismatch and nothing changes; schema.Apply adds them.
	if _, err := taskmgmt.EnsureTable(t.Context(), c, name); !errors.Is(err, ddbkit.ErrSchemaMismatch) {
		t.Fatalf("EnsureTable without schema.Apply = %v, want ErrSchemaMismatch", err)
	}
	changes, err := taskmgmt.EnsureTable(t.Context(), c, name, schema.Apply)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ch := range changes {
		got = append(got, ch.Action)
	}
	if want := []string{schema.ActionAddGSI, schema.ActionAddGSI, schema.ActionEnableTTL}; !slices.Equal(got, want) {
		t.Fatalf("changes = %v, want %v", changes, want)
	}
	for i, ix := range missing {
		if !strings.Contains(changes[i].Detail, ix) {
			t.Errorf("change %d = %v, want %s", i, changes[i], ix)
		}
	}
	out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(out.Table.GlobalSecondaryIndexes); n != 9 {
		t.Fatalf("table has %d GSIs after EnsureTable, want 9", n)
	}
	s := taskmgmt.NewDynamoStore(c, func(o *taskmgmt.Options) {
		o.TableName = name
		o.Clock = func() time.Time { return time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC) }
	})
	for _, v := range []taskmgmt.View{taskmgmt.ViewInitial, taskmgmt.ViewEndOverdue} {
		p := must[ddbkit.Page[taskmgmt.Task]](t)(s.ListBoard(t.Context(), "t1", taskmgmt.BoardQuery{View: v}))
		if len(p.Items) != 1 || p.Items[0].ID != "a" {
			t.Fatalf("view %s on the added index = %+v", v, p.Items)
		}
	}
	if again, err := taskmgmt.EnsureTable(t.Context(), c, name); err != nil || len(again) != 0 {
		t.Fatalf("EnsureTable again: %v, %v; want no change", again, err)
	}
}
