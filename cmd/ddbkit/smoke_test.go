package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// smokeCase sets up a domain's tables holding other data, and returns
// the flags that name them and the tables to snapshot.
type smokeCase struct {
	domain string
	setup  func(t *testing.T, c *dynamodb.Client) (flags, tables []string)
	layout []string // the flags of an opt-in layout, if any
}

var smokeCases = []smokeCase{
	{"todo", setupTodo, nil},
	{"wardrobe", setupWardrobe, nil},
	{"livecomment", setupLivecomment, nil},
	{"livecomment", setupLivecomment, []string{"-comment-shards", "4"}},
	{"livecomment", setupLivecomment, []string{"-comment-shards", "1"}}, // the seed's layout, as 0
	{"taskmgmt", setupTaskmgmt, nil},
	{"taskmgmt", setupTaskmgmt, []string{"-counter-shards", "4"}},
	{"taskmgmt", setupTaskmgmt, []string{"-counter-shards", "1"}}, // the seed's layout, as 0
	{"kondate", setupKondate, nil},
}

// TestSmokeLeavesOtherDataUnchanged runs smoke on tables that hold other
// data, an earlier smoke run's partition included: it succeeds, reports
// what it did, and every table is byte for byte as it was.
func TestSmokeLeavesOtherDataUnchanged(t *testing.T) {
	ep := ddbtest.Endpoint(t)
	c := ddbtest.Client(t)
	awsEnv(t)
	for _, tc := range smokeCases {
		t.Run(strings.Join(append([]string{tc.domain}, tc.layout...), " "), func(t *testing.T) {
			flags, tables := tc.setup(t, c)
			flags = append(flags, tc.layout...)
			before := snapshot(t, c, tables)
			code, out, errOut := ddbkit(t, append(append([]string{"smoke", "-endpoint", ep}, flags...), tc.domain)...)
			if code != 0 {
				t.Fatalf("smoke %s: exit %d, stderr %q", tc.domain, code, errOut)
			}
			if !strings.HasPrefix(out, "smoke "+tc.domain+": ok (partition ddbkit-smoke-") || !strings.Contains(out, "\n  wrote ") ||
				!strings.Contains(out, "\n  read ") || !strings.Contains(out, "\n  deleted: ") {
				t.Errorf("smoke %s: stdout %q, want a report of what it wrote, read and deleted", tc.domain, out)
			}
			if errOut != "" {
				t.Errorf("smoke %s: stderr %q, want nothing", tc.domain, errOut)
			}
			if sharded := len(tc.layout) > 0 && tc.layout[1] != "1"; sharded != strings.Contains(out, ", "+strings.Join(tc.layout, " ")+")") {
				t.Errorf("smoke %s %q: stdout %q; want the layout noted only when sharded (1 is the seed's layout)", tc.domain, tc.layout, out)
			}
			after := snapshot(t, c, tables)
			for i, name := range tables {
				if !bytes.Equal(before[i], after[i]) {
					t.Errorf("smoke %s changed table %s:\nbefore %s\nafter  %s", tc.domain, name, before[i], after[i])
				}
			}
			t.Logf("%s", out)
		})
	}
}

// snapshot returns every item of each table, in key order, as JSON that
// keeps every attribute's type.
func snapshot(t *testing.T, c *dynamodb.Client, tables []string) [][]byte {
	t.Helper()
	var snaps [][]byte
	for _, name := range tables {
		var items []string
		p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(name), ConsistentRead: aws.Bool(true)})
		for p.HasMorePages() {
			out, err := p.NextPage(context.Background())
			if err != nil {
				t.Fatalf("scan %s: %v", name, err)
			}
			for _, it := range out.Items {
				b, err := json.Marshal(avJSON(&types.AttributeValueMemberM{Value: it}))
				if err != nil {
					t.Fatal(err)
				}
				items = append(items, string(b))
			}
		}
		if len(items) == 0 {
			t.Fatalf("table %s is empty: the test needs other data in it", name)
		}
		slices.Sort(items)
		snaps = append(snaps, []byte(strings.Join(items, "\n")))
	}
	return snaps
}

// avJSON tags every value with its DynamoDB type; sets are sorted.
func avJSON(v types.AttributeValue) any {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(v.Value)}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": v.Value}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": slices.Sorted(slices.Values(v.Value))}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": slices.Sorted(slices.Values(v.Value))}
	case *types.AttributeValueMemberBS:
		var bs []string
		for _, b := range v.Value {
			bs = append(bs, base64.StdEncoding.EncodeToString(b))
		}
		return map[string]any{"BS": slices.Sorted(slices.Values(bs))}
	case *types.AttributeValueMemberL:
		var l []any
		for _, e := range v.Value {
			l = append(l, avJSON(e))
		}
		return map[string]any{"L": l}
	case *types.AttributeValueMemberM:
		m := map[string]any{}
		for k, e := range v.Value {
			m[k] = avJSON(e)
		}
		return map[string]any{"M": m}
	}
	return map[string]any{"?": v}
}

func putRaw(t *testing.T, c *dynamodb.Client, table string, item map[string]string) {
	t.Helper()
	av := map[string]types.AttributeValue{}
	for k, v := range item {
		av[k] = &types.AttributeValueMemberS{Value: v}
	}
	if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: av}); err != nil {
		t.Fatalf("put %v in %s: %v", item, table, err)
	}
}

// staleSmoke is the ID of an earlier smoke run, which the test's runs
// must leave alone.
const staleSmoke = "ddbkit-smoke-0000000000000000"

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func setupTodo(t *testing.T, c *dynamodb.Client) ([]string, []string) {
	ctx := context.Background()
	table := ddbtest.NewTable(t, c, todo.CreateTableInput("smoke-todo"))
	s := todo.NewDynamoStore(c, func(o *todo.Options) { o.TableName = table })
	for _, u := range []string{"alice", "zed", staleSmoke} {
		if err := s.CreateUser(ctx, todo.User{Username: u, Email: u + "@example.com"}); err != nil {
			t.Fatal(err)
		}
		cat := must[todo.Category](t)(s.CreateCategory(ctx, u, todo.NewCategory{Name: "home", Color: todo.ColorDark}))
		must[todo.Todo](t)(s.CreateTodo(ctx, u, todo.NewTodo{Title: "dishes", Priority: todo.PriorityHigh, CategoryID: cat.ID}))
	}
	putRaw(t, c, table, map[string]string{"pk": "user#alice", "sk": "note#1", "text": "a kind ddbkit does not know"})
	putRaw(t, c, table, map[string]string{"pk": "ddbkit-smoke", "sk": "x"})
	return []string{"-table", table}, []string{table}
}

// TestSmokeFailures: a run that cannot pass exits 1 with one line that
// says why, and leaves nothing behind.
func TestSmokeFailures(t *testing.T) {
	ep := ddbtest.Endpoint(t)
	c := ddbtest.Client(t)
	awsEnv(t)
	missing := ddbtest.UniqueName("smoke-missing")
	tests := []struct {
		name  string
		setup func(t *testing.T) (args, tables []string)
		want  []string // in the one line of stderr
	}{
		{"missing table", func(t *testing.T) ([]string, []string) {
			return []string{"-table", missing, "todo"}, nil
		}, []string{"table " + missing + " does not exist", "ddbkit ensure"}},
		{"table without a GSI the reads need", func(t *testing.T) ([]string, []string) {
			in := wardrobe.CreateTableInput("smoke-nogsi")
			in.GlobalSecondaryIndexes = slices.DeleteFunc(in.GlobalSecondaryIndexes, func(g types.GlobalSecondaryIndex) bool {
				return aws.ToString(g.IndexName) == "HistoryByDate"
			})
			in.AttributeDefinitions = slices.DeleteFunc(in.AttributeDefinitions, func(a types.AttributeDefinition) bool {
				return aws.ToString(a.AttributeName) == "dateSk"
			})
			table := ddbtest.NewTable(t, c, in)
			putRaw(t, c, table, map[string]string{"PK": "W#other", "SK": "META", "name": "another writer's"})
			return []string{"-table", table, "wardrobe"}, []string{table}
		}, []string{"ListHistory", "HistoryByDate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, tables := tt.setup(t)
			var before [][]byte
			if tables != nil {
				before = snapshot(t, c, tables)
			}
			code, out, errOut := ddbkit(t, append([]string{"smoke", "-endpoint", ep, "-timeout", "2s"}, args...)...)
			if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "ddbkit: smoke ") {
				t.Fatalf("exit %d, stderr %q; want 1 and one line", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q does not say %q", errOut, w)
				}
			}
			t.Logf("stderr: %s", errOut)
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if tables == nil {
				if tableExists(t, c, missing) {
					t.Errorf("smoke created table %s", missing)
				}
				return
			}
			after := snapshot(t, c, tables)
			for i := range tables {
				if !bytes.Equal(before[i], after[i]) {
					t.Errorf("a failed smoke changed table %s:\nbefore %s\nafter  %s", tables[i], before[i], after[i])
				}
			}
		})
	}
}

func setupWardrobe(t *testing.T, c *dynamodb.Client) ([]string, []string) {
	ctx := context.Background()
	table := ddbtest.NewTable(t, c, wardrobe.CreateTableInput("smoke-wardrobe"))
	ids := 0
	s := wardrobe.NewDynamoStore(c, func(o *wardrobe.Options) {
		o.TableName = table
		o.NewID = func() string { ids++; return fmt.Sprintf("%s-%03d", staleSmoke, ids) } // an earlier run's IDs: the same form
	})
	for range 2 {
		w := must[wardrobe.Wardrobe](t)(s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "mine"}))
		cl := must[wardrobe.Clothing](t)(s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "coat"}))
		tpl := must[wardrobe.Template](t)(s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "winter", ClothingIDs: []string{cl.ID}}))
		must[wardrobe.History](t)(s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: wardrobe.DateOf(time.Now()), TemplateID: tpl.ID, ClothingIDs: []string{cl.ID}}))
	}
	putRaw(t, c, table, map[string]string{"PK": "W#other", "SK": "META", "name": "another writer's"})
	return []string{"-table", table}, []string{table}
}

func setupLivecomment(t *testing.T, c *dynamodb.Client) ([]string, []string) {
	ctx := context.Background()
	env := ddbtest.UniqueName("smoke")
	n := livecomment.Tables(env)
	deleteTables(t, c, n.Rooms, n.Comments, n.Connections)
	if _, err := livecomment.EnsureTables(ctx, c, env); err != nil {
		t.Fatal(err)
	}
	ids := 0
	s := livecomment.NewDynamoStore(c, func(o *livecomment.Options) {
		o.Env = env
		o.NewID = func() string { ids++; return fmt.Sprintf("%s-%03d", staleSmoke, ids) }
	})
	for i, host := range []string{"alice", staleSmoke + "-host"} {
		room := must[livecomment.Room](t)(s.CreateRoom(ctx, livecomment.NewRoom{Name: "talk", HostID: host}))
		must[livecomment.Comment](t)(s.PostComment(ctx, room.ID, livecomment.NewComment{Content: "hello"}))
		must[livecomment.Connection](t)(s.JoinRoom(ctx, room.ID, fmt.Sprintf("%s-conn-%d", staleSmoke, i+1)))
	}
	putRaw(t, c, n.Connections, map[string]string{"connectionId": "other", "roomId": "not-a-room"})
	return []string{"-env", env}, []string{n.Rooms, n.Comments, n.Connections}
}

func setupTaskmgmt(t *testing.T, c *dynamodb.Client) ([]string, []string) {
	ctx := context.Background()
	taskTable := ddbtest.NewTable(t, c, taskmgmt.CreateTableInput("smoke-task"))
	invTable := ddbtest.NewTable(t, c, taskmgmt.CreateInvitationTableInput("smoke-inv"))
	ids := 0
	s := taskmgmt.NewDynamoStore(c, func(o *taskmgmt.Options) {
		o.TableName = taskTable
		o.InvitationTableName = invTable
		o.NewID = func() string { ids++; return fmt.Sprintf("%s-%03d", staleSmoke, ids) }
	})
	today := taskmgmt.DateOf(time.Now().UTC())
	for _, u := range []string{"alice", staleSmoke} {
		must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: u, Email: u + "@example.com", Name: u}))
		team := must[taskmgmt.Team](t)(s.CreateTeam(ctx, u, taskmgmt.NewTeam{Name: "team of " + u}))
		tag := must[taskmgmt.Tag](t)(s.CreateTag(ctx, team.ID, taskmgmt.NewTag{Name: "bug", Color: taskmgmt.Color{Color: "red", BackgroundColor: "white"}}))
		for _, st := range taskmgmt.Statuses {
			must[taskmgmt.Task](t)(s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "fix", Status: st, Start: must[taskmgmt.Date](t)(today.AddDays(-20)), End: must[taskmgmt.Date](t)(today.AddDays(-10)), TagIDs: []string{tag.ID}}))
		}
		must[taskmgmt.Invitation](t)(s.Invite(ctx, team.ID, u, taskmgmt.NewInvitation{Email: "bob@example.com"}))
	}
	return []string{"-table", taskTable, "-invitation-table", invTable}, []string{taskTable, invTable}
}

func setupKondate(t *testing.T, c *dynamodb.Client) ([]string, []string) {
	ctx := context.Background()
	table := ddbtest.NewTable(t, c, kondate.CreateTableInput("smoke-kondate", kondate.AllIndexes))
	ids := 0
	s := kondate.NewDynamoStore(c, func(o *kondate.Options) {
		o.TableName = table
		o.NewID = func() string { ids++; return fmt.Sprintf("%s-%03d", staleSmoke, ids) }
		o.NewShareID = o.NewID
		kondate.AllIndexes(o)
	})
	for _, u := range []string{"alice", staleSmoke} {
		rec := must[kondate.Recipe](t)(s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "curry", Ingredients: []kondate.Ingredient{{Name: "rice", Amount: "1 cup"}}}))
		must[kondate.CatalogEntry](t)(s.Publish(ctx, u, kondate.KindRecipe, rec.ID))
		must[kondate.ShoppingItem](t)(s.AddShoppingItem(ctx, u, kondate.NewShoppingItem{Name: "rice"}))
		must[kondate.ShareLink](t)(s.CreateShareLink(ctx, u, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: rec.ID}))
		must[kondate.Profile](t)(s.UpdateProfile(ctx, u, kondate.ProfilePatch{DisplayName: ptr(u)}))
	}
	putRaw(t, c, table, map[string]string{"PK": "USER#bob", "SK": "FUTURE#1", "note": "a kind ddbkit does not know"})
	return []string{"-table", table}, []string{table}
}

func TestSmokeUsage(t *testing.T) {
	awsEnv(t)
	for _, args := range [][]string{
		{"smoke"},
		{"smoke", "-timeout", "0s", "todo"},
		{"smoke", "-env", "prod", "todo"},
		{"smoke", "-table", "x", "livecomment"},
		{"smoke", "-comment-shards", "4", "todo"},
		{"smoke", "-counter-shards", "4", "livecomment"},
		{"smoke", "-comment-shards", "-1", "livecomment"},
		{"smoke", "-counter-shards", "-1", "taskmgmt"},
		{"smoke", "-comment-shards", "65", "livecomment"},
		{"smoke", "-counter-shards", "33", "taskmgmt"},
		{"smoke", "nosuch"},
	} {
		code, out, errOut := ddbkit(t, args...)
		if code != 2 || strings.Count(errOut, "\n") != 1 || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and one line", args, code, out, errOut)
		}
	}
}

// TestSmokeEventually: an eventually consistent read is polled until it
// shows the write, within -timeout; another error fails it at once.
func TestSmokeEventually(t *testing.T) {
	r, err := newSmokeRun(t.Context(), nil, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	lagging := func() error {
		if calls++; calls < 3 {
			return notYet("listed nothing")
		}
		return nil
	}
	if err := r.eventually("lagging", lagging); err != nil || calls != 3 {
		t.Errorf("a read that shows the write on the third call: %v after %d calls", err, calls)
	}
	start := time.Now()
	err = r.eventually("never", func() error { return notYet("listed nothing") })
	if err == nil || !strings.Contains(err.Error(), "-timeout") || time.Since(start) > 3*time.Second {
		t.Errorf("a read that never shows the write: %v after %v, want a failure naming -timeout within it", err, time.Since(start))
	}
	calls = 0
	denied := errors.New("access denied")
	err = r.eventually("denied", func() error { calls++; return denied })
	if !errors.Is(err, denied) || calls != 1 {
		t.Errorf("a read that fails: %v after %d calls, want the error after one", err, calls)
	}
}

// cancelAfter cancels the run's context once n transactions went through,
// as an operator's Ctrl-C in the middle of the writes would.
type cancelAfter struct {
	smokeClient
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	out, err := c.smokeClient.TransactWriteItems(ctx, in, optFns...)
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return out, err
}

// TestSmokeInterrupted: a run whose context ends in the middle of its
// writes fails, and still deletes what it wrote.
func TestSmokeInterrupted(t *testing.T) {
	c := ddbtest.Client(t)
	_, tables := setupTodo(t, c)
	before := snapshot(t, c, tables)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r, err := newSmokeRun(ctx, &cancelAfter{smokeClient: c, n: 3, cancel: cancel}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	err = r.run("todo", func() error { return smokeTodo(r, &tableFlags{}, tables) })
	if !errors.Is(err, context.Canceled) || len(r.wrote) != 3 {
		t.Fatalf("run: %v after %d writes, want context.Canceled after 3", err, len(r.wrote))
	}
	if after := snapshot(t, c, tables); !bytes.Equal(before[0], after[0]) {
		t.Errorf("an interrupted run left the table changed:\nbefore %s\nafter  %s", before[0], after[0])
	}
}
