package todo_test

import (
	"errors"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/todo/todotest"
)

func TestMemoryStore(t *testing.T) {
	todotest.Run(t, func(t *testing.T, opts ...func(*todo.Options)) todo.Store {
		return todo.NewMemoryStore(opts...)
	})
}

// TestMemoryCursorSecret: the memory store binds cursors to its secret as
// the DynamoDB store does.
func TestMemoryCursorSecret(t *testing.T) {
	fill := func(secret string) *todo.MemoryStore {
		s := todo.NewMemoryStore(deterministic, func(o *todo.Options) { o.CursorSecret = []byte(secret) })
		if err := s.CreateUser(t.Context(), todo.User{Username: "alice", Email: "a@example.com"}); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if _, err := s.CreateTodo(t.Context(), "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow}); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	p, err := fill("secret A, 16 bytes at least").ListTodos(t.Context(), "alice", ddbkit.PageOptions{Limit: 1})
	if err != nil || p.Next == "" {
		t.Fatalf("ListTodos = %+v, %v", p, err)
	}
	if _, err := fill("secret A, 16 bytes at least").ListTodos(t.Context(), "alice", ddbkit.PageOptions{Limit: 1, Cursor: p.Next}); err != nil {
		t.Fatalf("a cursor on a store with the same secret: %v", err)
	}
	for _, secret := range []string{"secret B, 16 bytes at least", ""} {
		_, err := fill(secret).ListTodos(t.Context(), "alice", ddbkit.PageOptions{Limit: 1, Cursor: p.Next})
		if !errors.Is(err, ddbkit.ErrInvalidCursor) {
			t.Fatalf("a cursor on a store with secret %q: %v, want ErrInvalidCursor", secret, err)
		}
	}
}

// TestMemoryIdempotencyWindow: past ddbkit.IdempotencyWindow an
// idempotency key is a new request: a create makes a new todo and a
// toggle applies again. DynamoDB Local keeps a ClientRequestToken for as
// long as it runs, so this cannot be tested on it: there the new request
// would be refused as a reuse of the key's token, as DynamoDB refuses one
// within its ten minutes.
func TestMemoryIdempotencyWindow(t *testing.T) {
	now := start
	s := todo.NewMemoryStore(func(o *todo.Options) { o.Clock = func() time.Time { return now } })
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "k")
	if err := s.CreateUser(t.Context(), todo.User{Username: "alice", Email: "a@example.com"}); err != nil {
		t.Fatal(err)
	}
	in := todo.NewTodo{Title: "once", Priority: todo.PriorityLow}
	first, err := s.CreateTodo(ctx, "alice", in)
	if err != nil {
		t.Fatal(err)
	}
	toggled, err := s.ToggleTodo(ctx, "alice", first.ID)
	if err != nil || !toggled.Completed {
		t.Fatalf("ToggleTodo = %+v, %v", toggled, err)
	}
	now = now.Add(ddbkit.IdempotencyWindow - time.Second)
	if again, err := s.CreateTodo(ctx, "alice", in); err != nil || again.ID != first.ID {
		t.Fatalf("CreateTodo repeated within the window = %+v, %v; want the todo %s", again, err, first.ID)
	}
	now = start.Add(ddbkit.IdempotencyWindow + time.Second)
	second, err := s.CreateTodo(ctx, "alice", in)
	if err != nil || second.ID == first.ID {
		t.Fatalf("CreateTodo past the window = %+v, %v; want a new todo", second, err)
	}
	if again, err := s.ToggleTodo(ctx, "alice", first.ID); err != nil || again.Completed {
		t.Fatalf("ToggleTodo past the window = %+v, %v; want it toggled back", again, err)
	}
}
