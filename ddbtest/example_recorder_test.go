package ddbtest_test

import (
	"context"
	"fmt"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/todo"
)

// A unit test on a memory store holds an access pattern to what it costs
// on DynamoDB: the memory store reports the calls and capacity the
// DynamoDB store would spend.
func ExampleRecorder() {
	rec := ddbtest.NewRecorder()
	s := todo.NewMemoryStore(func(o *todo.Options) { o.TracerProvider = rec.TracerProvider() })
	ctx := context.Background()
	if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "alice@example.com"}); err != nil {
		fmt.Println(err)
	}

	cost := rec.Measure(func() {
		if _, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "milk", Priority: todo.PriorityLow}); err != nil {
			fmt.Println(err)
		}
		if _, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 10}); err != nil {
			fmt.Println(err)
		}
	})
	for _, op := range cost.Operations {
		fmt.Printf("%s: %d calls, %.1f RCU, %.1f WCU\n", op.Name, op.Calls, op.Read, op.Write)
	}
	fmt.Printf("in all: %d calls, %.1f RCU, %.1f WCU\n", cost.Calls, cost.Read, cost.Write)
	// Output:
	// todo.CreateTodo: 1 calls, 0.0 RCU, 4.0 WCU
	// todo.ListTodos: 1 calls, 1.0 RCU, 0.0 WCU
	// in all: 2 calls, 1.0 RCU, 4.0 WCU
}
