package taskmgmt_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/taskmgmt/taskmgmttest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// newDynamo returns a DynamoStore on a fresh table, talking to DynamoDB Local
// through wrap (the raw client when wrap is nil), and the raw client.
func newDynamo(t *testing.T, wrap func(ddbkit.Client) ddbkit.Client, opts ...func(*taskmgmt.Options)) (*taskmgmt.DynamoStore, *dynamodb.Client, string) {
	t.Helper()
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, taskmgmt.CreateTableInput("task-table-v3"))
	var client ddbkit.Client = c
	if wrap != nil {
		client = wrap(c)
	}
	opts = append(opts, func(o *taskmgmt.Options) { o.TableName = name })
	return taskmgmt.NewDynamoStore(client, opts...), c, name
}

// TestDynamoStore runs the conformance suite on DynamoDB Local, recording
// the IAM grants of every call (iam.json, with TestDynamoInvitations).
func TestDynamoStore(t *testing.T) {
	iamPart(t)
	taskmgmttest.Run(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		s, _, _ := newDynamo(t, iamRec.Wrap, opts...)
		return s
	})
}

// TestDynamoSharded runs the counter tests with sharded counters
// on DynamoDB Local, recording their IAM grants too (iam.json).
func TestDynamoSharded(t *testing.T) {
	iamPart(t)
	taskmgmttest.RunSharded(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		s, _, _ := newDynamo(t, iamRec.Wrap, opts...)
		return s
	})
}

var start = time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC)

// deterministic gives a store a fixed clock and the IDs id01, id02, ... in
// order.
func deterministic(o *taskmgmt.Options) {
	o.Clock = func() time.Time { return start }
	n := 0
	var mu sync.Mutex
	o.NewID = func() string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return fmt.Sprintf("id%02d", n)
	}
}

func S(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func N(v int64) types.AttributeValue  { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
func SS(vs ...string) types.AttributeValue {
	return &types.AttributeValueMemberSS{Value: vs}
}
func M(kv ...string) types.AttributeValue {
	m := map[string]types.AttributeValue{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = S(kv[i+1])
	}
	return &types.AttributeValueMemberM{Value: m}
}

func rawItem(t *testing.T, c *dynamodb.Client, table, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": S(pk), "SK": S(sk)}})
	if err != nil {
		t.Fatalf("GetItem(%s, %s): %v", pk, sk, err)
	}
	return out.Item
}

func putRaw(t *testing.T, c *dynamodb.Client, table string, item map[string]types.AttributeValue) {
	t.Helper()
	if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		t.Fatalf("PutItem: %v", err)
	}
}

// render shows each attribute as type:value, so a comparison checks types
// as well as values.
func render(item map[string]types.AttributeValue) map[string]string {
	out := make(map[string]string, len(item))
	for k, v := range item {
		out[k] = renderValue(v)
	}
	return out
}

func renderValue(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return "S:" + v.Value
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	case *types.AttributeValueMemberSS:
		vs := slices.Clone(v.Value)
		slices.Sort(vs)
		return "SS:[" + strings.Join(vs, ",") + "]"
	case *types.AttributeValueMemberM:
		keys := slices.Sorted(maps.Keys(v.Value))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + renderValue(v.Value[k])
		}
		return "M:{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("%T", v)
}

func checkItem(t *testing.T, what string, got, want map[string]types.AttributeValue) {
	t.Helper()
	if g, w := render(got), render(want); !maps.Equal(g, w) {
		t.Fatalf("%s: raw item:\n got %v\nwant %v", what, g, w)
	}
}

func ptr[T any](v T) *T { return &v }

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// TestRawLayout reads back what the DynamoDB store wrote, after every kind
// of write, and compares it attribute by attribute and type by type with
// the seed's layouts.
func TestRawLayout(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "monbayashi joji", Image: "https://example.com/u1.png"}))
	wantUser := map[string]types.AttributeValue{"PK": S("USER#u1"), "SK": S("USER#u1"), "type": S("user"),
		"user_email": S("alice@example.com"), "user_name": S("monbayashi joji"), "user_image": S("https://example.com/u1.png"), "user_createdAt": S("2025-11-10")}
	checkItem(t, "user", rawItem(t, c, table, "USER#u1", "USER#u1"), wantUser)

	must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "タスク管理 APP 開発チーム", Description: "タスク管理 APP 開発チーム用のタスク管理"})) // id01
	wantTeam := map[string]types.AttributeValue{"PK": S("TEAM#id01"), "SK": S("TEAM#id01"), "type": S("team"),
		"team_name": S("タスク管理 APP 開発チーム"), "team_discription": S("タスク管理 APP 開発チーム用のタスク管理")}
	checkItem(t, "team", rawItem(t, c, table, "TEAM#id01", "TEAM#id01"), wantTeam)
	wantUserTeam := map[string]types.AttributeValue{"PK": S("USER#u1"), "SK": S("TEAM#id01"), "type": S("user_team"),
		"user_team_role": S("admin"), "user_team_joinedAt": S("2025-11-10"), "team_name": S("タスク管理 APP 開発チーム")}
	checkItem(t, "user_team", rawItem(t, c, table, "USER#u1", "TEAM#id01"), wantUserTeam)
	wantTeamUser := map[string]types.AttributeValue{"PK": S("TEAM#id01"), "SK": S("USER#u1"), "type": S("team_user"),
		"user_team_role": S("admin"), "user_team_joinedAt": S("2025-11-10"), "user_name": S("monbayashi joji")}
	checkItem(t, "team_user", rawItem(t, c, table, "TEAM#id01", "USER#u1"), wantTeamUser)

	must[taskmgmt.Tag](t)(s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: "backend", Color: taskmgmt.Color{Color: "#fff", BackgroundColor: "#f00"}})) // id02
	checkItem(t, "tag", rawItem(t, c, table, "TEAM#id01", "TAG#id02"), map[string]types.AttributeValue{
		"PK": S("TEAM#id01"), "SK": S("TAG#id02"), "type": S("team_tag"), "team_tag_name": S("backend"),
		"team_tag_color": M("color", "#fff", "backgroundColor", "#f00")})

	must[taskmgmt.Task](t)(s.CreateTask(ctx, "id01", taskmgmt.NewTask{Title: "デプロイ 1", Description: "タスクの説明", Start: "2025-11-05", End: "2025-12-05", TagIDs: []string{"id02"}})) // id03
	wantTask := map[string]types.AttributeValue{"PK": S("TEAM#id01"), "SK": S("TASK#id03"), "type": S("task"),
		"team_task_title": S("デプロイ 1"), "team_task_discription": S("タスクの説明"), "team_task_status": S("todo"),
		"team_task_startTime": S("2025-11-05"), "team_task_endTime": S("2025-12-05"), "team_task_tagRef": SS("TAG#id02"),
		"status_group1": S("TEAM#id01#Status#todo"), "status_group2": S("TEAM#id01#Status#todo_doing"), "status_group3": S("TEAM#id01#Status#todo_done"),
		"start_sort_sk": S("START#2025-11-05"), "end_sort_sk": S("END#2025-12-05")}
	checkItem(t, "task", rawItem(t, c, table, "TEAM#id01", "TASK#id03"), wantTask)
	wantAll := map[string]types.AttributeValue{"PK": S("TEAM#id01"), "SK": S("COUNTER#ALL"), "type": S("counter"), "todo": N(1), "doing": N(0), "done": N(0)}
	checkItem(t, "COUNTER#ALL", rawItem(t, c, table, "TEAM#id01", "COUNTER#ALL"), wantAll)
	exp := time.Date(2025, 11, 11, 0, 0, 0, 0, time.UTC).Add(taskmgmt.DefaultCounterRetention).Unix()
	wantDay := map[string]types.AttributeValue{"PK": S("TEAM#id01"), "SK": S("COUNTER#2025-11-10"), "type": S("counter"), "todo": N(1), "doing": N(0), "done": N(0), "expiresAt": N(exp)}
	checkItem(t, "COUNTER#2025-11-10", rawItem(t, c, table, "TEAM#id01", "COUNTER#2025-11-10"), wantDay)

	// A move rewrites the status, its three groups, and counts.
	must[taskmgmt.Task](t)(s.UpdateTask(ctx, "id01", "id03", taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDone), End: ptr(taskmgmt.Date("2025-11-30")), TagIDs: &[]string{}}))
	maps.Copy(wantTask, map[string]types.AttributeValue{"team_task_status": S("done"), "team_task_endTime": S("2025-11-30"),
		"status_group1": S("TEAM#id01#Status#doing_done"), "status_group2": S("TEAM#id01#Status#done"), "status_group3": S("TEAM#id01#Status#todo_done"),
		"end_sort_sk": S("END#2025-11-30")})
	delete(wantTask, "team_task_tagRef") // no empty set: no attribute
	checkItem(t, "moved task", rawItem(t, c, table, "TEAM#id01", "TASK#id03"), wantTask)
	wantAll["todo"], wantAll["done"] = N(0), N(1)
	checkItem(t, "COUNTER#ALL after move", rawItem(t, c, table, "TEAM#id01", "COUNTER#ALL"), wantAll)
	wantDay["done"] = N(1)
	checkItem(t, "day after move", rawItem(t, c, table, "TEAM#id01", "COUNTER#2025-11-10"), wantDay)

	// Renames reach the copies.
	must[taskmgmt.User](t)(s.RenameUser(ctx, "u1", "joji"))
	wantUser["user_name"], wantTeamUser["user_name"] = S("joji"), S("joji")
	checkItem(t, "renamed user", rawItem(t, c, table, "USER#u1", "USER#u1"), wantUser)
	checkItem(t, "team_user after rename", rawItem(t, c, table, "TEAM#id01", "USER#u1"), wantTeamUser)
	must[taskmgmt.Team](t)(s.UpdateTeam(ctx, "id01", "u1", taskmgmt.TeamPatch{Name: ptr("新チーム")}))
	wantTeam["team_name"], wantUserTeam["team_name"] = S("新チーム"), S("新チーム")
	checkItem(t, "renamed team", rawItem(t, c, table, "TEAM#id01", "TEAM#id01"), wantTeam)
	checkItem(t, "user_team after rename", rawItem(t, c, table, "USER#u1", "TEAM#id01"), wantUserTeam)

	if err := s.DeleteTask(ctx, "id01", "id03"); err != nil {
		t.Fatal(err)
	}
	if it := rawItem(t, c, table, "TEAM#id01", "TASK#id03"); it != nil {
		t.Fatalf("deleted task still there: %v", it)
	}
	wantAll["done"] = N(0)
	checkItem(t, "COUNTER#ALL after delete", rawItem(t, c, table, "TEAM#id01", "COUNTER#ALL"), wantAll)
	checkItem(t, "day after delete (transitions only)", rawItem(t, c, table, "TEAM#id01", "COUNTER#2025-11-10"), wantDay)
}

// TestRecalculateRepairsDrift writes a wrong COUNTER#ALL raw and has
// RecalculateCounters repair it.
func TestRecalculateRepairsDrift(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "e@example.com", Name: "n"}))
	must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "t"}))
	for range 3 {
		must[taskmgmt.Task](t)(s.CreateTask(ctx, "id01", taskmgmt.NewTask{Title: "t", Start: "2025-11-01", End: "2025-11-02"}))
	}
	putRaw(t, c, table, map[string]types.AttributeValue{"PK": S("TEAM#id01"), "SK": S("COUNTER#ALL"), "type": S("counter"), "todo": N(7), "doing": N(-1), "done": N(0)})
	rep := must[taskmgmt.CounterReport](t)(s.RecalculateCounters(ctx, "id01"))
	want := taskmgmt.CounterReport{Was: taskmgmt.Counts{Todo: 7, Doing: -1}, Counts: taskmgmt.Counts{Todo: 3}, Drift: true, Checked: 3}
	if !reflect.DeepEqual(rep, want) {
		t.Fatalf("report = %+v, want %+v", rep, want)
	}
	if got := must[taskmgmt.Counts](t)(s.GetCounts(ctx, "id01")); got != want.Counts {
		t.Fatalf("counts after repair = %+v", got)
	}
}

// fixture makes user u1, team id01, tag id02 and task id03 (todo).
func fixture(t *testing.T, s taskmgmt.Store) {
	t.Helper()
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "e@example.com", Name: "n"}))
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "e@example.com", Name: "n2"}))
	must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}))
	must[taskmgmt.Tag](t)(s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: "tag", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}}))
	must[taskmgmt.Task](t)(s.CreateTask(ctx, "id01", taskmgmt.NewTask{Title: "task", Start: "2025-11-01", End: "2025-11-02", TagIDs: []string{"id02"}}))
}

// operations lists one call of every operation on the fixture.
func operations(s taskmgmt.Store) map[string]func(ctx context.Context) error {
	return map[string]func(ctx context.Context) error{
		"CreateUser": func(ctx context.Context) error {
			_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "u9", Email: "e@example.com", Name: "n"})
			return err
		},
		"GetUser":    func(ctx context.Context) error { _, err := s.GetUser(ctx, "u1"); return err },
		"RenameUser": func(ctx context.Context) error { _, err := s.RenameUser(ctx, "u1", "x"); return err },
		"CreateTeam": func(ctx context.Context) error {
			_, err := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "x"})
			return err
		},
		"GetTeam": func(ctx context.Context) error { _, err := s.GetTeam(ctx, "id01"); return err },
		"UpdateTeam": func(ctx context.Context) error {
			_, err := s.UpdateTeam(ctx, "id01", "u1", taskmgmt.TeamPatch{Name: ptr("x")})
			return err
		},
		"DeleteTeam": func(ctx context.Context) error { return s.DeleteTeam(ctx, "id01", "u1") },
		"ListMembers": func(ctx context.Context) error {
			_, err := s.ListMembers(ctx, "id01", ddbkit.PageOptions{})
			return err
		},
		"ListUserTeams": func(ctx context.Context) error {
			_, err := s.ListUserTeams(ctx, "u1", ddbkit.PageOptions{})
			return err
		},
		"AddMember": func(ctx context.Context) error {
			_, err := s.AddMember(ctx, "id01", "u1", "u2", taskmgmt.RoleAdmin)
			return err
		},
		"SetRole": func(ctx context.Context) error {
			_, err := s.SetRole(ctx, "id01", "u1", "u1", taskmgmt.RoleMember)
			return err
		},
		"RemoveMember": func(ctx context.Context) error { return s.RemoveMember(ctx, "id01", "u1", "u1") },
		"CreateTag": func(ctx context.Context) error {
			_, err := s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: "x", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}})
			return err
		},
		"ListTags":  func(ctx context.Context) error { _, err := s.ListTags(ctx, "id01", ddbkit.PageOptions{}); return err },
		"DeleteTag": func(ctx context.Context) error { return s.DeleteTag(ctx, "id01", "u1", "id02") },
		"CreateTask": func(ctx context.Context) error {
			_, err := s.CreateTask(ctx, "id01", taskmgmt.NewTask{Title: "t", Start: "2025-11-01", End: "2025-11-02"})
			return err
		},
		"GetTask": func(ctx context.Context) error { _, err := s.GetTask(ctx, "id01", "id03"); return err },
		"UpdateTask": func(ctx context.Context) error {
			_, err := s.UpdateTask(ctx, "id01", "id03", taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)})
			return err
		},
		"DeleteTask": func(ctx context.Context) error { return s.DeleteTask(ctx, "id01", "id03") },
		"ListBoard": func(ctx context.Context) error {
			_, err := s.ListBoard(ctx, "id01", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{"id02"}})
			return err
		},
		"GetCounts": func(ctx context.Context) error { _, err := s.GetCounts(ctx, "id01"); return err },
		"ListDailyCounts": func(ctx context.Context) error {
			_, err := s.ListDailyCounts(ctx, "id01", taskmgmt.DailyQuery{})
			return err
		},
		"RecalculateCounters": func(ctx context.Context) error { _, err := s.RecalculateCounters(ctx, "id01"); return err },
	}
}

var clientOps = []string{"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "BatchWriteItem", "TransactWriteItems"}

// TestErrorContract makes DynamoDB throttle or fail every call without
// end, or the context end, under every operation: each fails with exactly
// ErrUnavailable.
func TestErrorContract(t *testing.T) {
	fast := func(o *taskmgmt.Options) {
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
	}
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic, fast)
	fixture(t, s)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for name, call := range operations(s) {
		for _, fault := range []ddbtest.Fault{ddbtest.Throttle, ddbtest.InternalError} {
			for _, op := range clientOps {
				fc.Inject(op, fault, 1000)
			}
			ddbtest.WantSentinel(t, name+" under endless "+fault.String(), call(t.Context()), ddbkit.ErrUnavailable)
			fc.Clear()
		}
		err := call(cancelled)
		ddbtest.WantSentinel(t, name+" under a cancelled context", err, ddbkit.ErrUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v does not match context.Canceled", name, err)
		}
	}
}

// TestLostResponse lets each write commit and loses its answer: the write
// succeeds (at once, or when repeated), and takes effect once.
func TestLostResponse(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	fixture(t, s)
	ctx := t.Context()
	lose := func(op string) { fc.Inject(op, ddbtest.LoseResponse, 1) }

	lose("TransactWriteItems")
	task := must[taskmgmt.Task](t)(s.CreateTask(ctx, "id01", taskmgmt.NewTask{Title: "t", Start: "2025-11-01", End: "2025-11-02"}))
	lose("TransactWriteItems")
	must[taskmgmt.Task](t)(s.UpdateTask(ctx, "id01", task.ID, taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDone)}))
	if got := must[taskmgmt.Counts](t)(s.GetCounts(ctx, "id01")); got != (taskmgmt.Counts{Todo: 1, Done: 1}) {
		t.Fatalf("counts after lost responses = %+v", got)
	}
	lose("TransactWriteItems")
	if err := s.DeleteTask(ctx, "id01", task.ID); err != nil {
		t.Fatal(err)
	}
	if got := must[taskmgmt.Counts](t)(s.GetCounts(ctx, "id01")); got != (taskmgmt.Counts{Todo: 1}) {
		t.Fatalf("counts after lost delete = %+v", got)
	}
	day := rawItem(t, c, table, "TEAM#id01", "COUNTER#2025-11-10")
	checkItem(t, "daily counter counted once", day, map[string]types.AttributeValue{"PK": S("TEAM#id01"), "SK": S("COUNTER#2025-11-10"),
		"type": S("counter"), "todo": N(2), "doing": N(0), "done": N(1), "expiresAt": day["expiresAt"]})

	lose("TransactWriteItems")
	must[taskmgmt.Tag](t)(s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: "x", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}}))
	lose("TransactWriteItems")
	must[taskmgmt.Member](t)(s.AddMember(ctx, "id01", "u1", "u2", taskmgmt.RoleMember))
	lose("TransactWriteItems")
	must[taskmgmt.Member](t)(s.SetRole(ctx, "id01", "u1", "u2", taskmgmt.RoleAdmin))
	lose("TransactWriteItems")
	if err := s.RemoveMember(ctx, "id01", "u1", "u2"); err != nil {
		t.Fatal(err)
	}
	lose("TransactWriteItems")
	must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "second"}))

	// CreateUser is a one-item transaction with a token: its own lost
	// answer is retried to a success, and the user is written once; a
	// repeat by another call (no key) is refused, identical or not.
	lose("TransactWriteItems")
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u3", Email: "e@example.com", Name: "n"}))
	if fc.Injected("TransactWriteItems") == 0 {
		t.Fatal("the lost answer of CreateUser was not injected")
	}
	if it := rawItem(t, c, table, "USER#u3", "USER#u3"); it == nil {
		t.Fatal("CreateUser after a lost answer: no user")
	}
	_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "u3", Email: "e@example.com", Name: "n"})
	ddbtest.WantSentinel(t, "CreateUser identical, another call", err, ddbkit.ErrAlreadyExists)
	lose("UpdateItem")
	must[taskmgmt.User](t)(s.RenameUser(ctx, "u1", "renamed"))

	p := must[ddbkit.Page[taskmgmt.Membership]](t)(s.ListUserTeams(ctx, "u1", ddbkit.PageOptions{}))
	if len(p.Items) != 2 {
		t.Fatalf("u1's teams = %+v", p.Items)
	}
	m := must[ddbkit.Page[taskmgmt.Member]](t)(s.ListMembers(ctx, "id01", ddbkit.PageOptions{}))
	if len(m.Items) != 1 || m.Items[0].UserName != "renamed" {
		t.Fatalf("members = %+v", m.Items)
	}
}

// TestConflictsKeepCounters makes transactions conflict, throttle and
// fail before they commit, and another writer move the task between a
// read and its transaction: the counters still match the tasks.
func TestConflictsKeepCounters(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	fixture(t, s)
	ctx := t.Context()
	fc.Inject("TransactWriteItems", ddbtest.TxConflict, 2)
	fc.Inject("TransactWriteItems", ddbtest.Throttle, 1)
	fc.Inject("TransactWriteItems", ddbtest.InternalError, 1)
	must[taskmgmt.Task](t)(s.UpdateTask(ctx, "id01", "id03", taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDoing)}))

	other := taskmgmt.NewDynamoStore(c, func(o *taskmgmt.Options) { o.TableName = table })
	fc.Before("TransactWriteItems", func() {
		if _, err := other.UpdateTask(ctx, "id01", "id03", taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusTodo)}); err != nil {
			t.Errorf("other writer: %v", err)
		}
	})
	got := must[taskmgmt.Task](t)(s.UpdateTask(ctx, "id01", "id03", taskmgmt.TaskPatch{Status: ptr(taskmgmt.StatusDone)}))
	if got.Status != taskmgmt.StatusDone {
		t.Fatalf("status = %s", got.Status)
	}
	rep := must[taskmgmt.CounterReport](t)(s.RecalculateCounters(ctx, "id01"))
	if rep.Drift || rep.Counts != (taskmgmt.Counts{Done: 1}) {
		t.Fatalf("after conflicts: %+v", rep)
	}
}

// TestUpdateTaskWritesOnlyThePatch runs another writer between
// UpdateTask's read and its transaction (issue 22): a title-only patch
// leaves the description another caller wrote, and a tag reference that a
// DeleteTag took away stays away, so the board filtered by that tag does
// not list the task again. A patch of the tags themselves, raced the same
// way, starts over from the new read.
func TestUpdateTaskWritesOnlyThePatch(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	fixture(t, s)
	ctx := t.Context()
	tag1 := must[taskmgmt.Tag](t)(s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: "one", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}}))
	tag2 := must[taskmgmt.Tag](t)(s.CreateTag(ctx, "id01", taskmgmt.NewTag{Name: "two", Color: taskmgmt.Color{Color: "a", BackgroundColor: "b"}}))
	task := must[taskmgmt.Task](t)(s.CreateTask(ctx, "id01", taskmgmt.NewTask{Title: "t", Description: "old",
		Start: "2025-11-01", End: "2025-11-02", TagIDs: []string{tag1.ID, tag2.ID}}))
	key := map[string]types.AttributeValue{"PK": S("TEAM#id01"), "SK": S("TASK#" + task.ID)}
	other := func(update string, vals map[string]types.AttributeValue) func() {
		return func() {
			in := &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key, UpdateExpression: aws.String(update)}
			if len(vals) > 0 {
				in.ExpressionAttributeValues = vals
			}
			if _, err := c.UpdateItem(ctx, in); err != nil {
				t.Error(err)
			}
		}
	}

	// Another caller's description, and DeleteTag's removal of tag2's
	// reference, land between the read and the transaction.
	fc.Before("TransactWriteItems", other("SET team_task_discription = :d DELETE team_task_tagRef :r",
		map[string]types.AttributeValue{":d": S("theirs"), ":r": &types.AttributeValueMemberSS{Value: []string{"TAG#" + tag2.ID}}}))
	must[taskmgmt.Task](t)(s.UpdateTask(ctx, "id01", task.ID, taskmgmt.TaskPatch{Title: ptr("mine")}))
	got := must[taskmgmt.Task](t)(s.GetTask(ctx, "id01", task.ID))
	if got.Title != "mine" || got.Description != "theirs" || !slices.Equal(got.TagIDs, []string{tag1.ID}) {
		t.Fatalf("after a title patch raced by other writes: %+v; want title mine, description theirs, tags [%s]", got, tag1.ID)
	}
	p := must[ddbkit.Page[taskmgmt.Task]](t)(s.ListBoard(ctx, "id01", taskmgmt.BoardQuery{View: taskmgmt.ViewAll, TagIDs: []string{tag2.ID}}))
	if len(p.Items) != 0 {
		t.Fatalf("the board filtered by the removed tag lists %+v", p.Items)
	}

	// A tag patch conditions on the references it read. Here it keeps
	// tag2, which a DeleteTag takes away (the tag and its reference)
	// between the read and the transaction: the patch reads again, finds
	// tag2 to be added, and refuses it as unknown, where writing the list
	// as read would have put the deleted tag's reference back.
	must[taskmgmt.Task](t)(s.UpdateTask(ctx, "id01", task.ID, taskmgmt.TaskPatch{TagIDs: &[]string{tag1.ID, tag2.ID}}))
	fc.Before("TransactWriteItems", func() {
		if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table),
			Key: map[string]types.AttributeValue{"PK": S("TEAM#id01"), "SK": S("TAG#" + tag2.ID)}}); err != nil {
			t.Error(err)
		}
		other("DELETE team_task_tagRef :r", map[string]types.AttributeValue{":r": &types.AttributeValueMemberSS{Value: []string{"TAG#" + tag2.ID}}})()
	})
	_, err := s.UpdateTask(ctx, "id01", task.ID, taskmgmt.TaskPatch{Title: ptr("again"), TagIDs: &[]string{tag1.ID, tag2.ID}})
	ddbtest.WantSentinel(t, "UpdateTask keeping a tag deleted meanwhile", err, ddbkit.ErrInvalidArgument)
	if got := must[taskmgmt.Task](t)(s.GetTask(ctx, "id01", task.ID)); got.Title != "mine" || !slices.Equal(got.TagIDs, []string{tag1.ID}) {
		t.Fatalf("after the refused patch: %+v; want title mine, tags [%s]", got, tag1.ID)
	}
}
