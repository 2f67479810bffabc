// Command taskmgmt runs a week of a team's task board through the task
// management seed's access patterns: users and a team with its admin, a
// member and tags, tasks created and moved day by day, the board views
// (initial, TODO with tags, overdue), the counters, a rename, a tag
// deletion and a recount; then an invitation, mailed by the stream handler
// (as the seed's Lambda would) and accepted.
//
// It runs on the in-memory store by default:
//
//	go run ./examples/taskmgmt
//
// With -endpoint it runs on DynamoDB (for example DynamoDB Local), creating
// the tables if they do not exist, or adding what existing ones lack, and
// reads the invitation table's stream with the dynamodbstreams client:
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

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL; empty runs on the in-memory store")
	table := flag.String("table", taskmgmt.DefaultTableName, "table name")
	invTable := flag.String("invitation-table", taskmgmt.DefaultInvitationTableName, "invitation table name")
	region := flag.String("region", envOr("AWS_REGION", "ap-northeast-1"), "AWS region: $AWS_REGION, else ap-northeast-1")
	flag.Parse()
	if err := run(context.Background(), *endpoint, *table, *invTable, *region); err != nil {
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

func run(ctx context.Context, endpoint, table, invTable, region string) error {
	tokyo := time.FixedZone("JST", 9*60*60)
	clk := &clock{now: time.Date(2025, 11, 10, 9, 0, 0, 0, tokyo)}
	opts := func(o *taskmgmt.Options) {
		o.TableName = table
		o.InvitationTableName = invTable
		o.Clock = clk.Now
		o.Location = tokyo
	}
	var s taskmgmt.Store
	// stream returns the invitation table's new stream records, as Lambda
	// would deliver them to the mailing function.
	var stream func() (events.DynamoDBEvent, error)
	if endpoint == "" {
		fmt.Println("store: in memory")
		m := taskmgmt.NewMemoryStore(opts)
		s = m
		stream = func() (events.DynamoDBEvent, error) { return m.TakeStream(), nil }
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
		more, err := taskmgmt.EnsureInvitationTable(ctx, c, invTable)
		if err != nil {
			return err
		}
		for _, ch := range append(changes, more...) {
			fmt.Println("schema:", ch)
		}
		fmt.Printf("store: DynamoDB at %s, tables %s and %s\n", endpoint, table, invTable)
		s = taskmgmt.NewDynamoStore(c, opts)
		sc := dynamodbstreams.New(dynamodbstreams.Options{Region: region, BaseEndpoint: aws.String(endpoint), Credentials: c.Options().Credentials})
		stream = func() (events.DynamoDBEvent, error) { return readStream(ctx, c, sc, invTable) }
	}

	// AP 1: the users, identified by their auth subjects.
	for _, u := range []taskmgmt.NewUser{
		{ID: "alice", Email: "alice@example.com", Name: "Alice"},
		{ID: "bob", Email: "bob@example.com", Name: "Bob"},
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
	if _, err := s.AddMember(ctx, team.ID, "alice", "bob", taskmgmt.RoleMember); err != nil {
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
	if _, err := s.UpdateTeam(ctx, team.ID, "alice", taskmgmt.TeamPatch{Name: ptr("タスク管理チーム")}); err != nil {
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
	// Only an admin deletes a tag: the role is checked in the delete's
	// transaction, and a refusal is ErrPermissionDenied (HTTP 403).
	if err := s.DeleteTag(ctx, team.ID, "bob", frontend.ID); errors.Is(err, ddbkit.ErrPermissionDenied) {
		fmt.Println("bob cannot delete a tag: he is no admin")
	}
	if err := s.DeleteTag(ctx, team.ID, "alice", frontend.ID); err != nil {
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
	if _, err := s.SetRole(ctx, team.ID, "alice", "alice", taskmgmt.RoleMember); errors.Is(err, ddbkit.ErrConflict) {
		fmt.Println("alice stays admin: a team always keeps one")
	}
	return invite(ctx, s, stream, clk.Now, team.ID)
}

// invite has Alice invite Carol; the stream handler mails the invitation,
// and Carol accepts it with the link's token.
func invite(ctx context.Context, s taskmgmt.Store, stream func() (events.DynamoDBEvent, error), now ddbkit.Clock, teamID string) error {
	if _, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "carol", Email: "carol@example.com", Name: "Carol"}); err != nil && !errors.Is(err, ddbkit.ErrAlreadyExists) {
		return err
	}
	if _, err := s.Invite(ctx, teamID, "bob", taskmgmt.NewInvitation{Email: "carol@example.com"}); errors.Is(err, taskmgmt.ErrNotAdmin) {
		fmt.Println("bob cannot invite: he is no admin")
	}
	if _, err := s.Invite(ctx, teamID, "alice", taskmgmt.NewInvitation{Email: "carol@example.com"}); err != nil {
		return err
	}
	ev, err := stream()
	if err != nil {
		return err
	}
	mailer := &printMailer{teamID: teamID}
	// The handler's clock is the week's, so that the invitation is live.
	resp, err := taskmgmt.StreamHandler{Mailer: mailer, Clock: now}.Handle(ctx, ev)
	if err != nil {
		return err
	}
	fmt.Printf("stream: %d records, %d failed\n", len(ev.Records), len(resp.BatchItemFailures))
	if mailer.link == (taskmgmt.Acceptance{}) {
		return errors.New("no invitation was mailed")
	}
	m, err := s.AcceptInvitation(ctx, "carol", mailer.link)
	if err != nil {
		return err
	}
	fmt.Printf("carol joined as %s on %s\n", m.Role, m.JoinedAt)
	_, err = s.AcceptInvitation(ctx, "carol", mailer.link)
	fmt.Println("the link works once:", errors.Is(err, ddbkit.ErrNotFound))
	return nil
}

// printMailer prints the mail it would send, for this run's team, and
// keeps the link. A real one would call SES (aws-sdk-go-v2/service/sesv2),
// skip an idempotency key it has sent already (kept, for example, in a
// table of sent keys with a conditional PutItem), and mark the errors
// that retrying cannot fix as permanent:
//
//	_, err := ses.SendEmail(ctx, &sesv2.SendEmailInput{
//		FromEmailAddress: aws.String("noreply@example.com"),
//		Destination:      &types.Destination{ToAddresses: []string{inv.Email}},
//		Content:          &types.EmailContent{Simple: &types.Message{ ... link with inv.TeamID, inv.ID, inv.Token ... }},
//	})
//	if rejected := (*types.MessageRejected)(nil); errors.As(err, &rejected) {
//		return fmt.Errorf("%w: %v", taskmgmt.ErrPermanentMail, err)
//	}
//	return err
type printMailer struct {
	teamID string
	link   taskmgmt.Acceptance
}

func (m *printMailer) MailInvitation(_ context.Context, inv taskmgmt.Invitation, _ string) error {
	if inv.TeamID != m.teamID {
		return nil // an earlier run's
	}
	fmt.Printf("mail to %s: %s invites you to %q as %s; the link (a %d-character token) expires %s\n",
		inv.Email, inv.InvitedBy, inv.TeamName, inv.Role, len(inv.Token), inv.ExpiresAt.Format(time.RFC3339))
	m.link = taskmgmt.Acceptance{TeamID: inv.TeamID, InvitationID: inv.ID, Token: inv.Token}
	return nil
}

// readStream reads the stream records of table that this process has not
// read yet, with the dynamodbstreams client, into Lambda's event form. A
// real deployment subscribes a Lambda function instead, and Lambda does
// this.
func readStream(ctx context.Context, c *dynamodb.Client, sc *dynamodbstreams.Client, table string) (events.DynamoDBEvent, error) {
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return events.DynamoDBEvent{}, err
	}
	arn := desc.Table.LatestStreamArn
	ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		return events.DynamoDBEvent{}, err
	}
	var ev events.DynamoDBEvent
	for _, sh := range ds.StreamDescription.Shards {
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: sh.ShardId,
			ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			return events.DynamoDBEvent{}, err
		}
		for iter := it.ShardIterator; iter != nil; {
			out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil {
				return events.DynamoDBEvent{}, err
			}
			if len(out.Records) == 0 {
				break
			}
			ev.Records = append(ev.Records, taskmgmt.StreamEvent(aws.ToString(arn), out.Records).Records...)
			iter = out.NextShardIterator
		}
	}
	return ev, nil
}

func ptr[T any](v T) *T { return &v }

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
