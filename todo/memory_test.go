package todo_test

import (
	"errors"
	"testing"

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
