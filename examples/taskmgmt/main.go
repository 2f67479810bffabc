// Command taskmgmt runs a week of a team's task board through the task
// management seed's access patterns: users and a team with its admin, a
// member and tags, tasks created and moved day by day, the board views
// (initial, TODO with tags, overdue), the counters, a rename, a tag
// deletion and a recount.
//
// It runs on the in-memory store by default:
//
//	go run ./examples/taskmgmt
//
// With -endpoint it runs on DynamoDB (for example DynamoDB Local), creating
// the table if it does not exist, or adding what an existing one lacks:
//
//	go run ./examples/taskmgmt -endpoint http://127.0.0.1:8000 -table task-table-example
//
// Every run creates a new team, so it can run again on the same table.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL; empty runs on the in-memory store")
	table := flag.String("table", taskmgmt.DefaultTableName, "table name")
	region := flag.String("region", "ap-northeast-1", "AWS region")
	flag.Parse()
	if err := run(context.Background(), *endpoint, *table, *region); err != nil {
		log.Fatal(err)
	}
}

// clock is the week's clock: the example moves it a day at a time.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) next()          { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.AddDate(0, 0, 1) }

func run(ctx context.Context, endpoint, table, region string) error {
	tokyo := time.FixedZone("JST", 9*60*60)
	clk := &clock{now: time.Date(2025, 11, 10, 9, 0, 0, 0, tokyo)}
	opts := func(o *taskmgmt.Options) {
		o.TableName = table
		o.Clock = clk.Now
		o.Location = tokyo
	}
	var s taskmgmt.Store
	if endpoint == "" {
		fmt.Println("store: in memory")
		s = taskmgmt.NewMemoryStore(opts)
	} else {
		// DynamoDB Local accepts any credentials; against AWS, build the
		// client from config.LoadDefaultConfig instead.
		c := dynamodb.New(dynamodb.Options{
			Region:       region,
			BaseEndpoint: aws.String(endpoint),
			Credentials:  credentials.NewStaticCredentialsProvider(envOr("AWS_ACCESS_KEY_ID", "local"), envOr("AWS_SECRET_ACCESS_KEY", "local"), ""),
		})
		changes, err := taskmgmt.EnsureTable(ctx, c, table)
		if err != nil {
			return err
		}
		for _, ch := range changes {
			fmt.Println("schema:", ch)
		}
		fmt.Printf("store: DynamoDB at %s, table %s\n", endpoint, table)
		s = taskmgmt.NewDynamoStore(c, opts)
	}

	// AP 1: the users, identified by their auth subjects.
	for _, u := range []taskmgmt.NewUser{
		{ID: "alice", Email: "alice-at-example.com", Name: "Alice"},
		{ID: "bob", Email: "bob-at-example.com", Name: "Bob"},
	} {
		if _, err := s.CreateUser(ctx, u); err != nil && !errors.Is(err, ddbkit.ErrAlreadyExists) {
			return err
		}
	}
	// AP 3: Alice's team, with her as admin; Bob joins.
	team, err := s.CreateTeam(ctx, "alice", taskmgmt.NewTeam{Name: "タスク管理 APP 開発チーム", Description: "タスク管理 APP 開発チーム用のタスク管理"})
	if err != nil {
		return err
	}
	if _, err := s.AddMember(ctx, team.ID, "bob", taskmgmt.RoleMember); err != nil {
		return err
	}
	backend, err := s.CreateTag(ctx, team.ID, taskmgmt.NewTag{Name: "backend", Color: taskmgmt.Color{Color: "#ffffff", BackgroundColor: "#1e88e5"}})
	if err != nil {
		return err
	}
	frontend, err := s.CreateTag(ctx, team.ID, taskmgmt.NewTag{Name: "frontend", Color: taskmgmt.Color{Color: "#000000", BackgroundColor: "#ffca28"}})
	if err != nil {
		return err
	}
	fmt.Printf("team %q\n", team.Name)

	// The week: each day some tasks arrive, and some move on.
	plan := []struct {
		title      string
		start, end taskmgmt.Date
		tags       []string
	}{
		{"API 設計", "2025-11-10", "2025-11-12", []string{backend.ID}},
		{"画面設計", "2025-11-11", "2025-11-13", []string{frontend.ID}},
		{"DB マイグレーション", "2025-11-11", "2025-11-14", []string{backend.ID}},
		{"ログイン画面", "2025-11-12", "2025-11-15", []string{frontend.ID, backend.ID}},
		{"デプロイ 1", "2025-11-13", "2025-11-14", nil},
		{"負荷試験", "2025-11-14", "2025-11-16", []string{backend.ID}},
	}
	var tasks []taskmgmt.Task
	for day := range 7 {
		today := taskmgmt.DateOf(clk.Now().In(tokyo))
		for _, p := range plan {
			if p.start == today {
				t, err := s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: p.title, Start: p.start, End: p.end, TagIDs: p.tags})
				if err != nil {
					return err
				}
				tasks = append(tasks, t)
			}
		}
		// The oldest open task moves one step each day, except midweek.
		if day != 3 {
			for i, t := range tasks {
				if t.Status == taskmgmt.StatusDone {
					continue
				}
				next := taskmgmt.StatusDoing
				if t.Status == taskmgmt.StatusDoing {
					next = taskmgmt.StatusDone
				}
				if tasks[i], err = s.UpdateTask(ctx, team.ID, t.ID, taskmgmt.TaskPatch{Status: &next}); err != nil {
					return err
				}
				break
			}
		}
		if day < 6 {
			clk.next()
		}
	}
	today := taskmgmt.DateOf(clk.Now().In(tokyo))
	fmt.Println("today:", today)

	show := func(what string, q taskmgmt.BoardQuery) error {
		var titles []string
		for t, err := range ddbkit.All(func(cursor string) (ddbkit.Page[taskmgmt.Task], error) {
			q.Cursor = cursor
			return s.ListBoard(ctx, team.ID, q)
		}) {
			if err != nil {
				return err
			}
			titles = append(titles, fmt.Sprintf("%s(%s %s..%s)", t.Title, t.Status, t.Start[5:], t.End[5:]))
		}
		fmt.Printf("%-28s %s\n", what+":", strings.Join(titles, ", "))
		return nil
	}
	for _, v := range []struct {
		what string
		q    taskmgmt.BoardQuery
	}{
		{"AP7 initial view", taskmgmt.BoardQuery{View: taskmgmt.ViewInitial}},
		{"AP8 TODO", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo}},
		{"AP9 TODO + backend", taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{backend.ID}}},
		{"AP11 all", taskmgmt.BoardQuery{View: taskmgmt.ViewAll}},
		{"AP12 start overdue", taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue}},
		{"AP14 end overdue", taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue}},
		{"AP15 end overdue + both", taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue, TagIDs: []string{backend.ID, frontend.ID}, Match: taskmgmt.MatchAll}},
	} {
		if err := show(v.what, v.q); err != nil {
			return err
		}
	}

	// AP 16: the counters.
	counts, err := s.GetCounts(ctx, team.ID)
	if err != nil {
		return err
	}
	fmt.Printf("now: todo %d, doing %d, done %d\n", counts.Todo, counts.Doing, counts.Done)
	for d, err := range ddbkit.All(func(cursor string) (ddbkit.Page[taskmgmt.DailyCount], error) {
		return s.ListDailyCounts(ctx, team.ID, taskmgmt.DailyQuery{PageOptions: ddbkit.PageOptions{Cursor: cursor}})
	}) {
		if err != nil {
			return err
		}
		fmt.Printf("  %s: +todo %d, +doing %d, +done %d\n", d.Date, d.Todo, d.Doing, d.Done)
	}

	// A rename reaches every member's copy; a deleted tag leaves the tasks.
	if _, err := s.UpdateTeam(ctx, team.ID, taskmgmt.TeamPatch{Name: ptr("タスク管理チーム")}); err != nil {
		return err
	}
	p, err := s.ListUserTeams(ctx, "bob", ddbkit.PageOptions{})
	if err != nil {
		return err
	}
	for _, m := range p.Items {
		if m.TeamID == team.ID {
			fmt.Printf("bob sees team %q as %s\n", m.TeamName, m.Role)
		}
	}
	if err := s.DeleteTag(ctx, team.ID, frontend.ID); err != nil {
		return err
	}
	if err := show("all after deleting frontend", taskmgmt.BoardQuery{View: taskmgmt.ViewAll, TagIDs: []string{frontend.ID}}); err != nil {
		return err
	}
	rep, err := s.RecalculateCounters(ctx, team.ID)
	if err != nil {
		return err
	}
	fmt.Printf("recount: %+v, drift %v\n", rep.Counts, rep.Drift)
	if _, err := s.SetRole(ctx, team.ID, "alice", taskmgmt.RoleMember); errors.Is(err, ddbkit.ErrConflict) {
		fmt.Println("alice stays admin: a team always keeps one")
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
