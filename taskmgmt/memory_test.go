package taskmgmt_test

import (
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/taskmgmt/taskmgmttest"
)

func TestMemoryStore(t *testing.T) {
	taskmgmttest.Run(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		return taskmgmt.NewMemoryStore(opts...)
	})
}

func TestMemoryInvitations(t *testing.T) {
	taskmgmttest.RunInvitations(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		return taskmgmt.NewMemoryStore(opts...)
	})
}

func TestMemorySharded(t *testing.T) {
	taskmgmttest.RunSharded(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		return taskmgmt.NewMemoryStore(opts...)
	})
}

// TestMemoryKeyPastWindow: past ddbkit.IdempotencyWindow, a key is a new
// request: the repeat creates another task, counted again. (DynamoDB Local
// keeps a ClientRequestToken for as long as it runs, so this cannot be
// tested there: the repeat's token would be refused as reused.)
func TestMemoryKeyPastWindow(t *testing.T) {
	now := start
	s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) { o.Clock = func() time.Time { return now } })
	ctx := t.Context()
	if _, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "a@example.com", Name: "alice"}); err != nil {
		t.Fatal(err)
	}
	tm, err := s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	kctx := ddbkit.WithIdempotencyKey(ctx, "k")
	in := taskmgmt.NewTask{Title: "x", Start: "2025-11-10", End: "2025-11-11"}
	first, err := s.CreateTask(kctx, tm.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(ddbkit.IdempotencyWindow - time.Second)
	if again, err := s.CreateTask(kctx, tm.ID, in); err != nil || again.ID != first.ID {
		t.Fatalf("within the window: %+v, %v; want the first task %s", again, err, first.ID)
	}
	now = start.Add(ddbkit.IdempotencyWindow + time.Second)
	second, err := s.CreateTask(kctx, tm.ID, in)
	if err != nil || second.ID == first.ID {
		t.Fatalf("past the window: %+v, %v; want a new task", second, err)
	}
	if c, err := s.GetCounts(ctx, tm.ID); err != nil || c.Todo != 2 {
		t.Fatalf("counts %+v, %v; want two tasks counted", c, err)
	}
}
