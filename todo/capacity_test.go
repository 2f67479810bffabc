package todo_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/todo"
)

// itemSize is an item's size as DynamoDB prices it: the UTF-8 lengths of
// its attribute names and String values, one byte per BOOL.
func itemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += len(name)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			n += len(v.Value)
		case *types.AttributeValueMemberBOOL:
			n++
		default:
			panic(fmt.Sprintf("itemSize: %T", v))
		}
	}
	return n
}

// Capacity units as DynamoDB prices them: a read of items totalling n bytes
// costs one unit per 4 KB strongly consistent, half that eventually
// consistent (a Query adds up its items first; DynamoDB Local charges
// nothing for a Query that reads none); a write of an item costs one unit
// per 1 KB, and every item of a transaction twice that.
func strongRead(bytes int) float64 {
	if bytes == 0 {
		return 0
	}
	return math.Ceil(float64(bytes) / 4096)
}
func eventualRead(bytes int) float64 { return strongRead(bytes) / 2 }
func write(bytes int) float64        { return max(1, math.Ceil(float64(bytes)/1024)) }

// txWrite is the service's price of a transaction of items of these sizes.
// DynamoDB Local reports 2 units for every transaction, whatever its items
// (TestCapacity checks that too), so the test holds the number of
// transactions and the rest of the capacity exactly, and documents the
// service's price beside them.
func txWrite(bytes ...int) float64 {
	u := 0.0
	for _, b := range bytes {
		u += 2 * write(b)
	}
	return u
}

// localTx is what DynamoDB Local reports for a transaction.
const localTx = 2

// TestCapacity holds each access pattern of the package doc to the capacity
// its design needs, measured on DynamoDB Local with
// ReturnConsumedCapacity=TOTAL. The items are the seed's examples (a todo
// of about 370 bytes, a category of about 130), all under 1 KB, so each
// single-item call costs one unit, and what the budgets show is the
// design: which reads are strong, which writes are transactions, how many
// items a listing reads.
func TestCapacity(t *testing.T) {
	ctx := context.Background()
	raw := ddbtest.Client(t)
	name := ddbtest.NewTable(t, raw, todo.CreateTableInput("todo-capacity"))
	c := ddbtest.NewCapacityClient(raw)
	s := todo.NewDynamoStore(c, func(o *todo.Options) { o.TableName = name }, deterministic)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// size reads an item's stored size.
	size := func(pk, sk string) int {
		t.Helper()
		out, err := raw.GetItem(ctx, &dynamodb.GetItemInput{TableName: &name, ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}}})
		if err != nil || out.Item == nil {
			t.Fatalf("size of %s/%s: %v", pk, sk, err)
		}
		return itemSize(out.Item)
	}

	// alice has 60 users' worth of neighbours, 60 categories and 60 todos
	// (the seed's examples), the first 10 todos in the first category.
	must(s.CreateUser(ctx, todo.User{Username: "alice", Email: "test@example.com"}))
	for i := range 59 {
		must(s.CreateUser(ctx, todo.User{Username: fmt.Sprintf("user%02d", i), Email: "test@example.com"}))
	}
	var cats []todo.Category
	for range 60 {
		x, err := s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary})
		must(err)
		cats = append(cats, x)
	}
	in := todo.NewTodo{Title: "プロジェクトの企画書作成", Description: "新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する",
		Priority: todo.PriorityHigh}
	var todos []todo.Todo
	for i := range 60 {
		in := in
		if i < 10 {
			in.CategoryID = cats[0].ID
		}
		x, err := s.CreateTodo(ctx, "alice", in)
		must(err)
		todos = append(todos, x)
	}
	// bob has 3 todos and a category, for DeleteUser.
	must(s.CreateUser(ctx, todo.User{Username: "bob", Email: "bob@example.com"}))
	bobCat, err := s.CreateCategory(ctx, "bob", todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary})
	must(err)
	for range 3 {
		_, err := s.CreateTodo(ctx, "bob", in)
		must(err)
	}

	userSize := size("users", "alice")
	todoSize := size("user#alice", "todo#"+todos[0].ID)
	catSize := size("user#alice", "category#"+cats[0].ID)
	if todoSize > 1024 || catSize > 1024 {
		t.Fatalf("items of %d and %d bytes: the budgets below assume items under 1 KB", todoSize, catSize)
	}
	sum := func(n, each int) int { return n * each }
	// A page of 50 reads 51 items: ddb.QueryPage reads one beyond the page
	// so that Next is empty exactly when nothing follows.
	const page = 50

	title, newCat := "企画書の最終確認", cats[1].ID
	for _, tc := range []struct {
		name string
		call func() error
		want ddbtest.Capacity // outside transactions
		tx   []float64        // the service's price of each transaction
	}{
		// Strongly consistent reads: the store shows its own writes, as
		// the memory store does.
		{"GetUser", func() error { _, err := s.GetUser(ctx, "alice"); return err },
			ddbtest.Capacity{Read: strongRead(userSize)}, nil},
		{"GetTodo", func() error { _, err := s.GetTodo(ctx, "alice", todos[0].ID); return err },
			ddbtest.Capacity{Read: strongRead(todoSize)}, nil},
		{"GetCategory", func() error { _, err := s.GetCategory(ctx, "alice", cats[0].ID); return err },
			ddbtest.Capacity{Read: strongRead(catSize)}, nil},
		{"ListUsers page", func() error {
			_, err := s.ListUsers(ctx, ddbkit.PageOptions{Limit: page})
			return err
		}, ddbtest.Capacity{Read: strongRead(sizeOfUsers(t, raw, name, page+1))}, nil},
		{"ListTodos page", func() error {
			_, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: page})
			return err
		}, ddbtest.Capacity{Read: strongRead(sum(page+1, todoSize))}, nil},
		{"ListCategories page", func() error {
			_, err := s.ListCategories(ctx, "alice", ddbkit.PageOptions{Limit: page})
			return err
		}, ddbtest.Capacity{Read: strongRead(sum(page+1, catSize))}, nil},
		{"ListUserData page", func() error {
			_, err := s.ListUserData(ctx, "alice", ddbkit.PageOptions{Limit: page})
			return err
		}, ddbtest.Capacity{Read: strongRead(sum(page+1, catSize))}, nil}, // the first 51 items are categories

		// Single writes.
		// CreateUser is a transaction of one put, for the token that tells
		// its own write after a lost response.
		{"CreateUser", func() error { return s.CreateUser(ctx, todo.User{Username: "carol", Email: "test@example.com"}) },
			ddbtest.Capacity{}, []float64{txWrite(userSize)}},
		{"UpdateUser", func() error { return s.UpdateUser(ctx, todo.User{Username: "alice", Email: "new@example.com"}) },
			ddbtest.Capacity{Write: write(userSize)}, nil},
		{"UpdateTodo", func() error {
			_, err := s.UpdateTodo(ctx, "alice", todos[1].ID, todo.TodoPatch{Title: &title})
			return err
		}, ddbtest.Capacity{Write: write(todoSize)}, nil},
		{"UpdateCategory", func() error {
			_, err := s.UpdateCategory(ctx, "alice", cats[1].ID, todo.CategoryPatch{Name: &title})
			return err
		}, ddbtest.Capacity{Write: write(catSize)}, nil},
		// Read-modify-writes: the read is eventually consistent, since the
		// write is conditioned on the values it read.
		{"ToggleTodo", func() error { _, err := s.ToggleTodo(ctx, "alice", todos[2].ID); return err },
			ddbtest.Capacity{Read: eventualRead(todoSize), Write: write(todoSize)}, nil},
		{"UpdateTodo with a category", func() error {
			_, err := s.UpdateTodo(ctx, "alice", todos[3].ID, todo.TodoPatch{CategoryID: &newCat})
			return err
		}, ddbtest.Capacity{Read: eventualRead(todoSize)}, []float64{txWrite(catSize, todoSize)}},

		// Transactions: the checks of the user and category, and the
		// idempotency token.
		{"CreateTodo", func() error { _, err := s.CreateTodo(ctx, "alice", in); return err },
			ddbtest.Capacity{}, []float64{txWrite(userSize, todoSize)}},
		{"CreateTodo in a category", func() error {
			in := in
			in.CategoryID = cats[0].ID
			_, err := s.CreateTodo(ctx, "alice", in)
			return err
		}, ddbtest.Capacity{}, []float64{txWrite(userSize, catSize, todoSize)}},
		{"CreateCategory", func() error {
			_, err := s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary})
			return err
		}, ddbtest.Capacity{}, []float64{txWrite(userSize, catSize)}},
		{"DeleteTodo", func() error { return s.DeleteTodo(ctx, "alice", todos[59].ID) },
			ddbtest.Capacity{}, []float64{txWrite(todoSize)}},

		// Sweeps: a strongly consistent query (all of the user's todos,
		// filtered on category_id, for DeleteCategory; the whole partition
		// for DeleteUser), one transaction, and the query that finds
		// nothing left.
		{"DeleteCategory with 10 todos", func() error { return s.DeleteCategory(ctx, "alice", cats[0].ID) },
			ddbtest.Capacity{Read: 2 * strongRead(sum(61, todoSize))},
			[]float64{txWrite(append([]int{catSize}, slices.Repeat([]int{todoSize}, 10)...)...)}},
		{"DeleteUser with 4 items", func() error { return s.DeleteUser(ctx, "bob") },
			ddbtest.Capacity{Read: strongRead(size2(t, raw, name, "user#bob")) + strongRead(0)},
			[]float64{txWrite(userSize, size("user#bob", "category#"+bobCat.ID), todoSize, todoSize, todoSize)}},
	} {
		var err error
		got := c.Measure(func() { err = tc.call() })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := tc.want
		service := tc.want
		for _, u := range tc.tx {
			want.Write += localTx
			service.Write += u
		}
		if got != want {
			t.Errorf("%s consumed %+v on DynamoDB Local, want %+v (%+v on the service)", tc.name, got, want, service)
		}
		t.Logf("%-28s %+v on the service", tc.name, service)
	}
}

// sizeOfUsers returns the size of the first n user items.
func sizeOfUsers(t *testing.T, c *dynamodb.Client, table string, n int) int {
	t.Helper()
	out, err := c.Query(context.Background(), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "users"}},
		Limit:                     aws.Int32(int32(n))})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, it := range out.Items {
		total += itemSize(it)
	}
	return total
}

// size2 returns the size of a partition's items.
func size2(t *testing.T, c *dynamodb.Client, table, pk string) int {
	t.Helper()
	out, err := c.Query(context.Background(), &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("pk = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}}})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, it := range out.Items {
		total += itemSize(it)
	}
	return total
}
