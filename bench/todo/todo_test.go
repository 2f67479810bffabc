package todo_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"
	"github.com/guregu/dynamo/v2"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/bench"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/todo"
)

// todoItem is a todo as the seed lays it out, with its keys: what the
// hand-written and guregu variants decode into and write.
type todoItem struct {
	PK          string `dynamodbav:"pk" dynamo:"pk"`
	SK          string `dynamodbav:"sk" dynamo:"sk"`
	ID          string `dynamodbav:"id" dynamo:"id"`
	EntityType  string `dynamodbav:"entity_type" dynamo:"entity_type"`
	Title       string `dynamodbav:"title" dynamo:"title"`
	Description string `dynamodbav:"description,omitempty" dynamo:"description,omitempty"`
	Priority    string `dynamodbav:"priority" dynamo:"priority"`
	Completed   bool   `dynamodbav:"completed" dynamo:"completed"`
	CategoryID  string `dynamodbav:"category_id,omitempty" dynamo:"category_id,omitempty"`
	CreatedAt   string `dynamodbav:"created_at" dynamo:"created_at"`
	UpdatedAt   string `dynamodbav:"updated_at" dynamo:"updated_at"`
}

func todoID(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }

func stubTodo(i int) todoItem {
	id := todoID(i)
	return todoItem{PK: "user#alice", SK: "todo#" + id, ID: id, EntityType: "todo",
		Title: "プロジェクトの企画書作成", Description: "新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する",
		Priority: "high", CategoryID: "category001",
		CreatedAt: "2024-01-01T00:00:00.000Z", UpdatedAt: "2024-01-01T00:00:00.000Z"}
}

// todoStub answers GetItem with one todo, Query with pages of n todos
// (honouring Limit and ExclusiveStartKey) and TransactWriteItems with
// success.
func todoStub(n int) *bench.Stub {
	items := make([]string, n)
	for i := range items {
		av, err := attributevalue.MarshalMapWithOptions(stubTodo(i))
		if err != nil {
			panic(err)
		}
		items[i] = bench.ItemJSON(av)
	}
	return bench.NewStub().
		Handle("GetItem", bench.Canned(`{"Item":`+items[0]+`}`)).
		Handle("Query", bench.QueryPages(items, func(lek map[string]string) int {
			var i int
			fmt.Sscanf(lek["sk"], "todo#00000000-0000-4000-8000-%d", &i)
			return i + 1
		}, func(i int) string {
			return `{"pk":{"S":"user#alice"},"sk":{"S":"todo#` + todoID(i) + `"}}`
		})).
		Handle("TransactWriteItems", bench.Canned(`{}`))
}

// BenchmarkTodo compares each operation of todo's DynamoStore with the same
// calls written by hand on aws-sdk-go-v2 and with guregu/dynamo v2, on a
// stub transport.
func BenchmarkTodo(b *testing.B) {
	ctx := context.Background()
	const table = "bench"
	opts := func(o *todo.Options) { o.TableName = table }

	b.Run("GetTodo", func(b *testing.B) {
		stub := todoStub(1)
		s := todo.NewDynamoStore(stub.Client(), opts)
		c := stub.Client()
		g := dynamo.New(stub.Config()).Table(table)
		id := todoID(0)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := s.GetTodo(ctx, "alice", id)
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
					Key: map[string]types.AttributeValue{
						"pk": &types.AttributeValueMemberS{Value: "user#alice"},
						"sk": &types.AttributeValueMemberS{Value: "todo#" + id},
					}})
				if err != nil {
					return err
				}
				var t todoItem
				return attributevalue.UnmarshalMap(out.Item, &t)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var t todoItem
				return g.Get("pk", "user#alice").Range("sk", dynamo.Equal, "todo#"+id).Consistent(true).One(ctx, &t)
			}},
		)
	})

	b.Run("ListTodos50", func(b *testing.B) {
		stub := todoStub(200)
		s := todo.NewDynamoStore(stub.Client(), opts)
		c := stub.Client()
		g := dynamo.New(stub.Config()).Table(table)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				p, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.Query(ctx, &dynamodb.QueryInput{
					TableName:                aws.String(table),
					ConsistentRead:           aws.Bool(true),
					KeyConditionExpression:   aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
					ExpressionAttributeNames: map[string]string{"#pk": "pk", "#sk": "sk"},
					ExpressionAttributeValues: map[string]types.AttributeValue{
						":pk": &types.AttributeValueMemberS{Value: "user#alice"},
						":sk": &types.AttributeValueMemberS{Value: "todo#"},
					},
					Limit: aws.Int32(50),
				})
				if err != nil {
					return err
				}
				var ts []todoItem
				err = attributevalue.UnmarshalListOfMaps(out.Items, &ts)
				return wantPage(len(ts), out.LastEvaluatedKey != nil, err)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var ts []todoItem
				next, err := g.Get("pk", "user#alice").Range("sk", dynamo.BeginsWith, "todo#").Consistent(true).
					SearchLimit(50).AllWithLastEvaluatedKey(ctx, &ts)
				return wantPage(len(ts), next != nil, err)
			}},
		)
	})

	b.Run("CreateTodo", func(b *testing.B) {
		stub := todoStub(1)
		clock := ddbkit.StepClock(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond)
		s := todo.NewDynamoStore(stub.Client(), opts, func(o *todo.Options) { o.Clock = clock })
		c := stub.Client()
		g := dynamo.New(stub.Config())
		in := todo.NewTodo{Title: "プロジェクトの企画書作成", Description: "新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する",
			Priority: todo.PriorityHigh, CategoryID: "category001"}
		// newTodo is what the hand-written and guregu variants store: a
		// fresh UUIDv4 and the time, as CreateTodo does.
		newTodo := func() todoItem {
			id, now := uuid.NewString(), clock().UTC().Format("2006-01-02T15:04:05.000Z")
			return todoItem{PK: "user#alice", SK: "todo#" + id, ID: id, EntityType: "todo", Title: in.Title,
				Description: in.Description, Priority: string(in.Priority), CategoryID: in.CategoryID,
				CreatedAt: now, UpdatedAt: now}
		}
		key := func(pk, sk string) map[string]types.AttributeValue {
			return map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk},
			}
		}
		exists, notExists := aws.String("attribute_exists(#pk)"), aws.String("attribute_not_exists(#pk)")
		names := map[string]string{"#pk": "pk"}
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := s.CreateTodo(ctx, "alice", in)
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				item, err := attributevalue.MarshalMap(newTodo())
				if err != nil {
					return err
				}
				_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
					ClientRequestToken: aws.String(uuid.NewString()),
					TransactItems: []types.TransactWriteItem{
						{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: key("user#alice", "user#alice"),
							ConditionExpression: exists, ExpressionAttributeNames: names}},
						{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: key("user#alice", "category#category001"),
							ConditionExpression: exists, ExpressionAttributeNames: names}},
						{Put: &types.Put{TableName: aws.String(table), Item: item,
							ConditionExpression: notExists, ExpressionAttributeNames: names}},
					}})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				t := g.Table(table)
				return g.WriteTx().
					Check(t.Check("pk", "user#alice").Range("sk", "user#alice").IfExists()).
					Check(t.Check("pk", "user#alice").Range("sk", "category#category001").IfExists()).
					Put(t.Put(newTodo()).If("attribute_not_exists(pk)")).
					Idempotent(true).Run(ctx)
			}},
		)
	})
}

// wantPage checks a 50-item page with a next cursor.
func wantPage(n int, more bool, err error) error {
	if err == nil && (n != 50 || !more) {
		err = fmt.Errorf("a page of %d items (more: %v), want 50 and more", n, more)
	}
	return err
}

// todoFake fills a memory store and a DynamoDB store on DynamoDB Local
// with a user and n todos, with the same IDs.
func todoFake(b *testing.B, n int) (memory, local todo.Store, ids []string) {
	b.Helper()
	ctx := context.Background()
	c := ddbtest.Client(b)
	name := ddbtest.NewTable(b, c, todo.CreateTableInput("bench-todo"))
	// Each store has its own seed: the local store gets the memory store's
	// todos raw, and must not draw their IDs again.
	seeded := func(seed uint64) func(o *todo.Options) {
		return func(o *todo.Options) { o.NewID = ddbkit.SeededUUIDv4(seed); o.TableName = name }
	}
	memory, local = todo.NewMemoryStore(seeded(1)), todo.NewDynamoStore(c, seeded(2))
	for _, s := range []todo.Store{memory, local} {
		if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "alice@example.com"}); err != nil {
			b.Fatal(err)
		}
	}
	ids = make([]string, n)
	for i := range ids {
		t, err := memory.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = t.ID
	}
	bench.PutAll(b, c, memory.(*todo.MemoryStore).Export())
	return memory, local, ids
}

// BenchmarkTodoFake compares each operation on DynamoDB Local with the same
// operation on the memory store: x-memory is how many times faster the fake
// is (the target is 100 or more).
func BenchmarkTodoFake(b *testing.B) {
	ctx := context.Background()
	memory, local, ids := todoFake(b, 200)
	for _, op := range []struct {
		name string
		op   func(s todo.Store) func(int) error
	}{
		{"GetTodo", func(s todo.Store) func(int) error {
			return func(i int) error { _, err := s.GetTodo(ctx, "alice", ids[i%len(ids)]); return err }
		}},
		{"ListTodos50", func(s todo.Store) func(int) error {
			return func(int) error {
				p, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}
		}},
		{"CreateTodo", func(s todo.Store) func(int) error {
			return func(int) error {
				_, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
				return err
			}
		}},
	} {
		b.Run(op.name, func(b *testing.B) {
			bench.Compare(b, nil,
				bench.Variant{Name: "dynamodb-local", Op: op.op(local)},
				bench.Variant{Name: "memory", Op: op.op(memory)})
		})
	}
}

// BenchmarkTodoPage compares a 50-item page from the middle of 100,000
// todos with one from the middle of 1,000 on the memory store: x-1k is the
// growth (the target is at most 1.1).
func BenchmarkTodoPage(b *testing.B) {
	ctx := context.Background()
	bench.Growth(b, func(n int) func(int) error {
		s := todo.NewMemoryStore(func(o *todo.Options) { o.NewID = ddbkit.SeededUUIDv4(1) })
		if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "alice@example.com"}); err != nil {
			b.Fatal(err)
		}
		for range n {
			if _, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow}); err != nil {
				b.Fatal(err)
			}
		}
		cursor := bench.Middle(b, n, func(po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListTodos(ctx, "alice", po)
			return p.Next, len(p.Items), err
		})
		return func(int) error {
			p, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 50, Cursor: cursor})
			return wantPage(len(p.Items), p.Next != "", err)
		}
	})
}
