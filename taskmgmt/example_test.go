package taskmgmt_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// A team's board: the initial view, TODO with a tag, and the counters.
func Example() {
	ctx := context.Background()
	s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) {
		o.Clock = func() time.Time { return time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC) }
		o.NewID = ddbkit.SeededUUIDv7s(1, o.Clock)
	})
	_, _ = s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "monbayashi joji"})
	team, _ := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "タスク管理 APP 開発チーム"})
	backend, _ := s.CreateTag(ctx, team.ID, taskmgmt.NewTag{Name: "backend", Color: taskmgmt.Color{Color: "#fff", BackgroundColor: "#00f"}})
	_, _ = s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "デプロイ 1", Start: "2025-11-05", End: "2025-12-05", TagIDs: []string{backend.ID}})
	review, _ := s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "レビュー", Start: "2025-11-03", End: "2025-11-08"})
	_, _ = s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "画面設計", Start: "2025-11-12", End: "2025-11-20"})
	doing := taskmgmt.StatusDoing
	_, _ = s.UpdateTask(ctx, team.ID, review.ID, taskmgmt.TaskPatch{Status: &doing})

	for _, q := range []taskmgmt.BoardQuery{
		{View: taskmgmt.ViewInitial},
		{View: taskmgmt.ViewTodo, TagIDs: []string{backend.ID}},
		{View: taskmgmt.ViewEndOverdue},
	} {
		p, _ := s.ListBoard(ctx, team.ID, q)
		fmt.Print(q.View, ":")
		for _, t := range p.Items {
			fmt.Print(" ", t.Title, "(", t.Status, ")")
		}
		fmt.Println()
	}
	c, _ := s.GetCounts(ctx, team.ID)
	fmt.Printf("todo %d, doing %d, done %d\n", c.Todo, c.Doing, c.Done)
	err := s.RemoveMember(ctx, team.ID, "u1", "u1")
	fmt.Println("removing the last admin is a conflict:", errors.Is(err, ddbkit.ErrConflict))
	// Output:
	// initial: レビュー(doing) デプロイ 1(todo) 画面設計(todo)
	// todo: デプロイ 1(todo)
	// end-overdue: レビュー(doing)
	// todo 2, doing 1, done 0
	// removing the last admin is a conflict: true
}

// Any board the seed's status indexes serve: a set of statuses, sorted by
// start or end date, optionally only what is overdue, paged with Next.
// Each is one Query per page, here DOING and DONE by end date on
// GSI_Status_End_Sort_Group1.
func ExampleBoardQuery() {
	ctx := context.Background()
	s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) {
		o.Clock = func() time.Time { return time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC) }
		o.NewID = ddbkit.SeededUUIDv7s(1, o.Clock)
	})
	_, _ = s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "monbayashi joji"})
	team, _ := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "タスク管理 APP 開発チーム"})
	for _, in := range []taskmgmt.NewTask{
		{Title: "設計", Status: taskmgmt.StatusDone, Start: "2025-11-01", End: "2025-11-04"},
		{Title: "実装", Status: taskmgmt.StatusDoing, Start: "2025-11-03", End: "2025-11-12"},
		{Title: "レビュー", Status: taskmgmt.StatusDoing, Start: "2025-11-05", End: "2025-11-08"},
		{Title: "デプロイ", Status: taskmgmt.StatusTodo, Start: "2025-11-06", End: "2025-11-09"},
	} {
		_, _ = s.CreateTask(ctx, team.ID, in)
	}

	q := taskmgmt.BoardQuery{
		Statuses:    []taskmgmt.Status{taskmgmt.StatusDoing, taskmgmt.StatusDone},
		Sort:        taskmgmt.SortEnd,
		PageOptions: ddbkit.PageOptions{Limit: 2},
	}
	for page := 1; ; page++ {
		p, err := s.ListBoard(ctx, team.ID, q)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print("page ", page, ":")
		for _, t := range p.Items {
			fmt.Print(" ", t.Title, "(", t.Status, ", ends ", t.End, ")")
		}
		fmt.Println()
		if p.Next == "" {
			break
		}
		q.Cursor = p.Next
	}

	// Not done, ending before today (2025-11-10): the seed's ViewEndOverdue.
	overdue := taskmgmt.BoardQuery{Statuses: []taskmgmt.Status{taskmgmt.StatusTodo, taskmgmt.StatusDoing}, Sort: taskmgmt.SortEnd, Overdue: true}
	p, _ := s.ListBoard(ctx, team.ID, overdue)
	fmt.Print("overdue:")
	for _, t := range p.Items {
		fmt.Print(" ", t.Title)
	}
	fmt.Println()

	_, err := s.ListBoard(ctx, team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, Sort: taskmgmt.SortEnd})
	var ve *ddbkit.ValidationError
	fmt.Println("a view with a sort:", errors.As(err, &ve) && ve.Field == "Sort", errors.Is(err, ddbkit.ErrInvalidArgument))
	// Output:
	// page 1: 設計(done, ends 2025-11-04) レビュー(doing, ends 2025-11-08)
	// page 2: 実装(doing, ends 2025-11-12)
	// overdue: レビュー デプロイ
	// a view with a sort: true true
}

// An invitation: an admin invites, the stream handler mails it (here from
// the memory store's stream; in production, Lambda calls
// StreamHandler.Handle with the table's stream), and the invitee accepts
// with the link's token, once.
func Example_invitation() {
	ctx := context.Background()
	now := time.Date(2026, 1, 11, 14, 20, 0, 0, time.UTC) // the seed's createdAt, 1768141200
	s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) {
		o.Clock = func() time.Time { return now }
		o.NewID = ddbkit.SeededUUIDv7s(1, o.Clock)
	})
	_, _ = s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "alice"})
	_, _ = s.CreateUser(ctx, taskmgmt.NewUser{ID: "u2", Email: "bob@example.com", Name: "bob"})
	team, _ := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "タスク管理 APP 開発チーム"})
	_, _ = s.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: "bob@example.com"})

	var link taskmgmt.Acceptance
	mailer := mailerFunc(func(_ context.Context, inv taskmgmt.Invitation) error {
		fmt.Printf("to %s: join %q as %s (invited by %s), until %d\n", inv.Email, inv.TeamName, inv.Role, inv.InvitedBy, inv.ExpiresAt.Unix())
		link = taskmgmt.Acceptance{TeamID: inv.TeamID, InvitationID: inv.ID, Token: inv.Token}
		return nil
	})
	resp, _ := taskmgmt.StreamHandler{Mailer: mailer, Clock: func() time.Time { return now }}.Handle(ctx, s.TakeStream())
	fmt.Println("failed records:", len(resp.BatchItemFailures))

	m, err := s.AcceptInvitation(ctx, "u2", link)
	fmt.Println(m.UserName, "joined as", m.Role, err)
	_, err = s.AcceptInvitation(ctx, "u2", link)
	fmt.Println("again:", errors.Is(err, ddbkit.ErrNotFound))
	// Output:
	// to bob@example.com: join "タスク管理 APP 開発チーム" as member (invited by u1), until 1768227600
	// failed records: 0
	// bob joined as member <nil>
	// again: true
}

// mailerFunc is a Mailer of one function. A real one sends through SES,
// and passes idempotencyKey on (or records it) so that a redelivered
// record is not mailed twice.
type mailerFunc func(context.Context, taskmgmt.Invitation) error

func (f mailerFunc) MailInvitation(ctx context.Context, inv taskmgmt.Invitation, idempotencyKey string) error {
	return f(ctx, inv)
}

// A memory store seeded with items in the seed's layout, as the seed's
// app writes them (or as exported from the production table), read
// through the store.
func ExampleMemoryStore_Import() {
	ctx := context.Background()
	s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) {
		o.Clock = func() time.Time { return time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC) }
	})
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	num := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	err := s.Import(ddbkit.TableItems{taskmgmt.DefaultTableName: {
		{"PK": str("USER#u1"), "SK": str("USER#u1"), "type": str("user"), "user_email": str("alice-at-example.com"),
			"user_name": str("monbayashi joji"), "user_image": str(""), "user_createdAt": str("2025-11-01")},
		{"PK": str("TEAM#t1"), "SK": str("TEAM#t1"), "type": str("team"), "team_name": str("タスク管理 APP 開発チーム"),
			"team_discription": str("タスク管理 APP 開発チーム用のタスク管理")},
		{"PK": str("USER#u1"), "SK": str("TEAM#t1"), "type": str("user_team"), "user_team_role": str("admin"),
			"user_team_joinedAt": str("2025-11-09"), "team_name": str("タスク管理 APP 開発チーム")},
		{"PK": str("TEAM#t1"), "SK": str("USER#u1"), "type": str("team_user"), "user_team_role": str("admin"),
			"user_team_joinedAt": str("2025-11-09"), "user_name": str("monbayashi joji")},
		{"PK": str("TEAM#t1"), "SK": str("TAG#tag1"), "type": str("team_tag"), "team_tag_name": str("backend"),
			"team_tag_color": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"color": str("#ffffff"), "backgroundColor": str("#0000ff")}}},
		{"PK": str("TEAM#t1"), "SK": str("TASK#task1"), "type": str("task"), "team_task_title": str("デプロイ 1"),
			"team_task_discription": str("タスクの説明"), "team_task_status": str("todo"),
			"team_task_startTime": str("2025-11-05"), "team_task_endTime": str("2025-12-05"),
			"status_group1": str("TEAM#t1#Status#todo"), "status_group2": str("TEAM#t1#Status#todo_doing"),
			"status_group3": str("TEAM#t1#Status#todo_done"), "start_sort_sk": str("START#2025-11-05"), "end_sort_sk": str("END#2025-12-05"),
			"team_task_tagRef": &types.AttributeValueMemberSS{Value: []string{"TAG#tag1"}}},
		{"PK": str("TEAM#t1"), "SK": str("COUNTER#ALL"), "type": str("counter"), "todo": num("1"), "doing": num("0"), "done": num("0")},
	}})
	fmt.Println("import:", err)

	team, _ := s.GetTeam(ctx, "t1")
	members, _ := s.ListMembers(ctx, "t1", ddbkit.PageOptions{})
	fmt.Println(team.Name, "-", members.Items[0].UserName, members.Items[0].Role)
	board, _ := s.ListBoard(ctx, "t1", taskmgmt.BoardQuery{View: taskmgmt.ViewStartOverdue, TagIDs: []string{"tag1"}})
	fmt.Println("overdue:", board.Items[0].Title, board.Items[0].TagIDs)
	c, _ := s.GetCounts(ctx, "t1")
	fmt.Println("todo:", c.Todo)
	fmt.Println("items:", len(s.Export()[taskmgmt.DefaultTableName]))
	// Output:
	// import: <nil>
	// タスク管理 APP 開発チーム - monbayashi joji admin
	// overdue: デプロイ 1 [tag1]
	// todo: 1
	// items: 7
}

// A unit test that lists a board right after writing a task passes on a
// plain memory store and on DynamoDB Local, and fails now and then in
// production, where the board's GSI is updated a moment later. With
// Options.Emulation.GSILag the memory store's GSIs lag too, by its clock,
// so the unit test meets the stale board; GetTask reads the table itself,
// strongly consistent, and sees the task at once.
func Example_gsiLag() {
	ctx := context.Background()
	now := time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC)
	s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) {
		o.Clock = func() time.Time { return now }
		o.Emulation.GSILag = time.Second
	})
	_, _ = s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "alice"})
	team, _ := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"})
	task, _ := s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "deploy", Start: "2025-11-05", End: "2025-12-05"})
	onBoard := func() bool {
		p, err := s.ListBoard(ctx, team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewInitial})
		return err == nil && len(p.Items) == 1 && p.Items[0].ID == task.ID
	}
	_, err := s.GetTask(ctx, team.ID, task.ID)
	fmt.Println("GetTask right after the write:", err == nil)
	fmt.Println("on the board right after the write:", onBoard())
	now = now.Add(time.Second)
	fmt.Println("on the board a second later:", onBoard())
	// Output:
	// GetTask right after the write: true
	// on the board right after the write: false
	// on the board a second later: true
}

// The package doc's first example, line for line: a user, their team, a
// task moved to doing, the initial board, the counts and an invitation.
func Example_quickStart() {
	ctx := context.Background()
	s := taskmgmt.NewMemoryStore() // taskmgmt.NewDynamoStore(client) on DynamoDB: the same methods
	u, _ := s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "Alice"})
	team, _ := s.CreateTeam(ctx, u.ID, taskmgmt.NewTeam{Name: "App team"}) // Alice is its admin
	task, _ := s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "Deploy", Start: "2025-11-05", End: "2025-12-05"})
	doing := taskmgmt.StatusDoing
	_, _ = s.UpdateTask(ctx, team.ID, task.ID, taskmgmt.TaskPatch{Status: &doing})
	board, _ := s.ListBoard(ctx, team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewInitial}) // todo and doing, by start date
	counts, _ := s.GetCounts(ctx, team.ID)
	inv, err := s.Invite(ctx, team.ID, u.ID, taskmgmt.NewInvitation{Email: "bob@example.com"}) // StreamHandler mails it

	fmt.Println(board.Items[0].Title, board.Items[0].Status, counts, inv.Email, err)
	// Output:
	// Deploy doing {0 1 0} bob@example.com <nil>
}
