package taskmgmt_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// A team's board: the initial view, TODO with a tag, and the counters.
func Example() {
	ctx := context.Background()
	s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) {
		o.Clock = func() time.Time { return time.Date(2025, 11, 10, 9, 0, 0, 0, time.UTC) }
		o.NewID = ddbkit.SeededUUIDv7(1, o.Clock)
	})
	_, _ = s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice-at-example.com", Name: "monbayashi joji"})
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
	err := s.RemoveMember(ctx, team.ID, "u1")
	fmt.Println("removing the last admin is a conflict:", errors.Is(err, ddbkit.ErrConflict))
	// Output:
	// initial: レビュー(doing) デプロイ 1(todo) 画面設計(todo)
	// todo: デプロイ 1(todo)
	// end-overdue: レビュー(doing)
	// todo 2, doing 1, done 0
	// removing the last admin is a conflict: true
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
		o.NewID = ddbkit.SeededUUIDv7(1, o.Clock)
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

type mailerFunc func(context.Context, taskmgmt.Invitation) error

func (f mailerFunc) MailInvitation(ctx context.Context, inv taskmgmt.Invitation) error {
	return f(ctx, inv)
}
