// Command todo walks the todo seed's access patterns: users, categories,
// todos, toggling, listing with pages, and the clean-up rules.
//
// It runs on the in-memory store by default:
//
//	go run ./examples/todo
//
// With -endpoint it runs on DynamoDB (for example DynamoDB Local), creating
// the table if it does not exist:
//
//	go run ./examples/todo -endpoint http://127.0.0.1:8000 -table todo-example
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/todo"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL; empty runs on the in-memory store")
	table := flag.String("table", todo.TableName(), "table name (default from $DYNAMODB_TABLE)")
	region := flag.String("region", envOr("AWS_REGION", "ap-northeast-1"), "AWS region: $AWS_REGION, else ap-northeast-1, as the seed specifies")
	flag.Parse()
	if err := run(context.Background(), *endpoint, *table, *region); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, endpoint, table, region string) error {
	var s todo.Store
	if endpoint == "" {
		fmt.Println("store: in memory")
		s = todo.NewMemoryStore()
	} else {
		// DynamoDB Local accepts any credentials; against AWS, build the
		// client from config.LoadDefaultConfig instead.
		c := dynamodb.New(dynamodb.Options{
			Region:       region,
			BaseEndpoint: aws.String(endpoint),
			Credentials:  credentials.NewStaticCredentialsProvider(envOr("AWS_ACCESS_KEY_ID", "local"), envOr("AWS_SECRET_ACCESS_KEY", "local"), ""),
		})
		changes, err := todo.EnsureTable(ctx, c, table)
		if err != nil {
			return err
		}
		for _, ch := range changes {
			fmt.Println("schema:", ch)
		}
		fmt.Printf("store: DynamoDB at %s, table %s\n", endpoint, table)
		s = todo.NewDynamoStore(c, func(o *todo.Options) { o.TableName = table })
	}

	const user = "testuser"
	err := s.CreateUser(ctx, todo.User{Username: user, Email: "test@example.com"})
	if errors.Is(err, ddbkit.ErrAlreadyExists) {
		// A rerun against the same table: start from a clean slate.
		if err := s.DeleteUser(ctx, user); err != nil {
			return err
		}
		err = s.CreateUser(ctx, todo.User{Username: user, Email: "test@example.com"})
	}
	if err != nil {
		return err
	}
	fmt.Println("created user", user)

	work, err := s.CreateCategory(ctx, user, todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary})
	if err != nil {
		return err
	}
	home, err := s.CreateCategory(ctx, user, todo.NewCategory{Name: "家", Color: todo.ColorSuccess})
	if err != nil {
		return err
	}
	fmt.Printf("created categories %q (%s) and %q (%s)\n", work.Name, work.Color, home.Name, home.Color)

	plan, err := s.CreateTodo(ctx, user, todo.NewTodo{
		Title:       "プロジェクトの企画書作成",
		Description: "新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する",
		Priority:    todo.PriorityHigh,
		CategoryID:  work.ID,
	})
	if err != nil {
		return err
	}
	for _, title := range []string{"牛乳を買う", "部屋の掃除", "請求書の支払い"} {
		if _, err := s.CreateTodo(ctx, user, todo.NewTodo{Title: title, Priority: todo.PriorityMedium, CategoryID: home.ID}); err != nil {
			return err
		}
	}
	fmt.Println("created 4 todos")

	// Pattern 4: one todo.
	got, err := s.GetTodo(ctx, user, plan.ID)
	if err != nil {
		return err
	}
	fmt.Printf("get todo %s: %q priority=%s completed=%v\n", got.ID, got.Title, got.Priority, got.Completed)

	toggled, err := s.ToggleTodo(ctx, user, plan.ID)
	if err != nil {
		return err
	}
	fmt.Printf("toggled: completed=%v, updated_at moved from %s to %s\n", toggled.Completed,
		got.UpdatedAt.Format("15:04:05.000"), toggled.UpdatedAt.Format("15:04:05.000"))

	// Pattern 1: all todos, two per page.
	pages := 0
	for cursor := ""; ; {
		p, err := s.ListTodos(ctx, user, ddbkit.PageOptions{Limit: 2, Cursor: cursor})
		if err != nil {
			return err
		}
		pages++
		for _, t := range p.Items {
			fmt.Printf("  page %d: %s [%s] done=%v\n", pages, t.Title, t.Priority, t.Completed)
		}
		if cursor = p.Next; cursor == "" {
			break
		}
	}

	// Pattern 2: all categories. Pattern 5: one category.
	cats, err := s.ListCategories(ctx, user, ddbkit.PageOptions{})
	if err != nil {
		return err
	}
	fmt.Println("categories:", len(cats.Items))
	if _, err := s.GetCategory(ctx, user, home.ID); err != nil {
		return err
	}

	// Bad input is refused with the field named, and nothing is written.
	_, err = s.CreateTodo(ctx, user, todo.NewTodo{Title: "", Priority: todo.PriorityLow})
	fmt.Println("bad input:", err)

	// Deleting a category uncategorizes its todos.
	if err := s.DeleteCategory(ctx, user, home.ID); err != nil {
		return err
	}

	// Pattern 3: all of the user's data in one listing.
	n := 0
	for r, err := range ddbkit.All(func(c string) (ddbkit.Page[todo.Record], error) {
		return s.ListUserData(ctx, user, ddbkit.PageOptions{Cursor: c})
	}) {
		if err != nil {
			return err
		}
		n++
		if r.Todo != nil && r.Todo.CategoryID == "" {
			fmt.Printf("  uncategorized after delete: %s\n", r.Todo.Title)
		}
	}
	fmt.Println("user data items:", n)

	if err := s.DeleteUser(ctx, user); err != nil {
		return err
	}
	p, err := s.ListUserData(ctx, user, ddbkit.PageOptions{})
	if err != nil {
		return err
	}
	fmt.Println("after deleting the user, items left:", len(p.Items))
	return nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
