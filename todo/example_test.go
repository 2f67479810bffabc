package todo_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/todo"
)

func Example() {
	ctx := context.Background()
	s := todo.NewMemoryStore(func(o *todo.Options) {
		o.Clock = ddbkit.StepClock(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Minute)
	})
	_ = s.CreateUser(ctx, todo.User{Username: "testuser", Email: "test@example.com"})
	work, _ := s.CreateCategory(ctx, "testuser", todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary})
	t, _ := s.CreateTodo(ctx, "testuser", todo.NewTodo{
		Title:      "プロジェクトの企画書作成",
		Priority:   todo.PriorityHigh,
		CategoryID: work.ID,
	})
	t, _ = s.ToggleTodo(ctx, "testuser", t.ID)
	fmt.Println(t.Title, t.Priority, t.Completed, t.UpdatedAt.Format(time.RFC3339))

	// All of the user's data, one Query per page on DynamoDB.
	for r, err := range ddbkit.All(func(cursor string) (ddbkit.Page[todo.Record], error) {
		return s.ListUserData(ctx, "testuser", ddbkit.PageOptions{Cursor: cursor})
	}) {
		if err != nil {
			panic(err)
		}
		switch {
		case r.Category != nil:
			fmt.Println("category:", r.Category.Name)
		case r.Todo != nil:
			fmt.Println("todo:", r.Todo.Title)
		}
	}
	// Output:
	// プロジェクトの企画書作成 high true 2024-01-01T00:02:00Z
	// category: 仕事
	// todo: プロジェクトの企画書作成
}

func ExampleMemoryStore_CreateTodo_validation() {
	ctx := context.Background()
	s := todo.NewMemoryStore()
	_ = s.CreateUser(ctx, todo.User{Username: "alice", Email: "alice@example.com"})

	_, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "buy milk", Priority: "urgent"})
	var ve *ddbkit.ValidationError
	fmt.Println(errors.Is(err, ddbkit.ErrInvalidArgument), errors.As(err, &ve) && ve.Field == "Priority")
	fmt.Println(err)

	_, err = s.CreateTodo(ctx, "bob", todo.NewTodo{Title: "buy milk", Priority: todo.PriorityLow})
	fmt.Println(errors.Is(err, ddbkit.ErrNotFound))
	// Output:
	// true true
	// todo: create todo: invalid argument: Priority: must be one of high, medium, low; got "urgent"
	// true
}

func ExampleMemoryStore_ListTodos() {
	ctx := context.Background()
	s := todo.NewMemoryStore(func(o *todo.Options) { o.NewID = ddbkit.SeededUUIDv4(1) })
	_ = s.CreateUser(ctx, todo.User{Username: "alice", Email: "alice@example.com"})
	for _, title := range []string{"a", "b", "c", "d", "e"} {
		_, _ = s.CreateTodo(ctx, "alice", todo.NewTodo{Title: title, Priority: todo.PriorityLow})
	}
	cursor, pages := "", 0
	for {
		p, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 2, Cursor: cursor})
		if err != nil {
			panic(err)
		}
		pages++
		fmt.Println("page", pages, "has", len(p.Items), "todos")
		if p.Next == "" {
			break
		}
		cursor = p.Next
	}
	// Output:
	// page 1 has 2 todos
	// page 2 has 2 todos
	// page 3 has 1 todos
}

// The table's design is data: the same definition creates the table
// (EnsureTable) and goes into infrastructure code.
func ExampleDefinition() {
	resource, err := todo.Definition("wambda-table-ssr001").CloudFormation()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(resource))
	// Output:
	// {
	//   "Type": "AWS::DynamoDB::Table",
	//   "Properties": {
	//     "TableName": "wambda-table-ssr001",
	//     "AttributeDefinitions": [
	//       {
	//         "AttributeName": "pk",
	//         "AttributeType": "S"
	//       },
	//       {
	//         "AttributeName": "sk",
	//         "AttributeType": "S"
	//       }
	//     ],
	//     "KeySchema": [
	//       {
	//         "AttributeName": "pk",
	//         "KeyType": "HASH"
	//       },
	//       {
	//         "AttributeName": "sk",
	//         "KeyType": "RANGE"
	//       }
	//     ],
	//     "BillingMode": "PAY_PER_REQUEST"
	//   }
	// }
}

// A memory store seeded with items in the seed's layout, here the seed's
// own examples, read back through the store.
func ExampleMemoryStore_Import() {
	ctx := context.Background()
	s := todo.NewMemoryStore(func(o *todo.Options) { o.TableName = "wambda-table-ssr001" })
	S := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	err := s.Import(ddbkit.TableItems{"wambda-table-ssr001": {
		{"pk": S("users"), "sk": S("testuser"), "username": S("testuser"), "email": S("test@example.com")},
		{"pk": S("user#testuser"), "sk": S("todo#550e8400-e29b-41d4-a716-446655440000"),
			"id": S("550e8400-e29b-41d4-a716-446655440000"), "entity_type": S("todo"),
			"title": S("プロジェクトの企画書作成"), "description": S("新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する"),
			"priority": S("high"), "completed": &types.AttributeValueMemberBOOL{Value: false}, "category_id": S("category001"),
			"created_at": S("2024-01-01T00:00:00.000Z"), "updated_at": S("2024-01-01T00:00:00.000Z")},
		{"pk": S("user#testuser"), "sk": S("category#category001"), "id": S("category001"), "entity_type": S("category"),
			"name": S("仕事"), "color": S("primary"),
			"created_at": S("2024-01-01T00:00:00.000Z"), "updated_at": S("2024-01-01T00:00:00.000Z")},
	}})
	if err != nil {
		panic(err)
	}
	u, _ := s.GetUser(ctx, "testuser")
	fmt.Println(u.Username, u.Email)
	t, _ := s.GetTodo(ctx, "testuser", "550e8400-e29b-41d4-a716-446655440000")
	fmt.Println(t.Title, t.Priority, t.CategoryID, t.CreatedAt.Format(time.RFC3339))
	c, _ := s.GetCategory(ctx, "testuser", t.CategoryID)
	fmt.Println(c.Name, c.Color)
	fmt.Println(len(s.Export()["wambda-table-ssr001"]), "items")

	// An item DynamoStore could not read either imports nothing.
	err = s.Import(ddbkit.TableItems{"wambda-table-ssr001": {
		{"pk": S("user#testuser"), "sk": S("todo#1"), "title": S("x"), "created_at": S("yesterday")},
	}})
	fmt.Println(errors.Is(err, ddbkit.ErrCorruptItem))
	fmt.Println(err)
	// Output:
	// testuser test@example.com
	// プロジェクトの企画書作成 high category001 2024-01-01T00:00:00Z
	// 仕事 primary
	// 3 items
	// true
	// todo: import: corrupt item: table wambda-table-ssr001, key {pk=user#testuser, sk=todo#1}, attribute "created_at": want an ISO 8601 date and time such as 2024-01-01T00:00:00.000Z, got "yesterday"
}

// A unit test meets throttling, which DynamoDB Local never shows, through
// Options.Emulation: the memory store retries a throttled call within
// Options.Retry, as DynamoStore does, and reports ErrUnavailable once the
// policy's attempts are spent.
func ExampleOptions_emulation() {
	ctx := context.Background()
	retry := ddbkit.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}

	// Every second call is throttled, and retried: every operation succeeds.
	s := todo.NewMemoryStore(func(o *todo.Options) {
		o.Retry = retry
		o.Emulation = ddbkit.Emulation{Throttle: ddbkit.ThrottleEvery(2)}
	})
	err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "alice@example.com"})
	fmt.Println("CreateUser:", err)
	t, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
	fmt.Println("CreateTodo:", err)
	t, err = s.ToggleTodo(ctx, "alice", t.ID) // a read and a conditional update
	fmt.Println("ToggleTodo:", t.Completed, err)

	// Every call is throttled: three attempts, then ErrUnavailable.
	calls := 0
	always := todo.NewMemoryStore(func(o *todo.Options) {
		o.Retry = retry
		o.Emulation = ddbkit.Emulation{Throttle: func(int) bool { calls++; return true }}
	})
	_, err = always.GetUser(ctx, "alice")
	fmt.Println("GetUser:", errors.Is(err, ddbkit.ErrUnavailable), "after", calls, "calls")
	// Output:
	// CreateUser: <nil>
	// CreateTodo: <nil>
	// ToggleTodo: true <nil>
	// GetUser: true after 3 calls
}
