package todo_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/todo/todotest"
)

func TestMemoryStore(t *testing.T) {
	todotest.Run(t, func(t *testing.T, opts ...func(*todo.Options)) todo.Store {
		return todo.NewMemoryStore(opts...)
	})
}
