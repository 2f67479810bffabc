package todo_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
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

// The seed's item layouts, with their keys: what the hand-written and
// guregu variants decode into and write.

type userItem struct {
	PK       string `dynamodbav:"pk" dynamo:"pk"`
	SK       string `dynamodbav:"sk" dynamo:"sk"`
	Username string `dynamodbav:"username" dynamo:"username"`
	Email    string `dynamodbav:"email" dynamo:"email"`
}

type todoItem struct {
	PK          string `dynamodbav:"pk" dynamo:"pk"`
	SK          string `dynamodbav:"sk" dynamo:"sk"`
	ID          string `dynamodbav:"id" dynamo:"id"`
	EntityType  string `dynamodbav:"entity_type" dynamo:"entity_type"`
	Title       string `dynamodbav:"title" dynamo:"title"`
	Description string `dynamodbav:"description" dynamo:"description"`
	Priority    string `dynamodbav:"priority" dynamo:"priority"`
	Completed   bool   `dynamodbav:"completed" dynamo:"completed"`
	CategoryID  string `dynamodbav:"category_id" dynamo:"category_id"`
	CreatedAt   string `dynamodbav:"created_at" dynamo:"created_at"`
	UpdatedAt   string `dynamodbav:"updated_at" dynamo:"updated_at"`
}

type categoryItem struct {
	PK         string `dynamodbav:"pk" dynamo:"pk"`
	SK         string `dynamodbav:"sk" dynamo:"sk"`
	ID         string `dynamodbav:"id" dynamo:"id"`
	EntityType string `dynamodbav:"entity_type" dynamo:"entity_type"`
	Name       string `dynamodbav:"name" dynamo:"name"`
	Color      string `dynamodbav:"color" dynamo:"color"`
	CreatedAt  string `dynamodbav:"created_at" dynamo:"created_at"`
	UpdatedAt  string `dynamodbav:"updated_at" dynamo:"updated_at"`
}

const (
	table   = "bench"
	alicePK = "user#alice"
	stamp   = "2024-01-01T00:00:00.000Z"
	layout  = "2006-01-02T15:04:05.000Z"
)

func todoID(i int) string     { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }
func categoryID(i int) string { return fmt.Sprintf("category%03d", i+1) }
func username(i int) string   { return fmt.Sprintf("user%04d", i) }

// The seed's example items, numbered.

func stubUser(i int) userItem {
	return userItem{PK: "users", SK: username(i), Username: username(i), Email: username(i) + "@example.com"}
}

func stubTodo(i int) todoItem {
	id := todoID(i)
	return todoItem{PK: alicePK, SK: "todo#" + id, ID: id, EntityType: "todo",
		Title: "プロジェクトの企画書作成", Description: "新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する",
		Priority: "high", CategoryID: "category001", CreatedAt: stamp, UpdatedAt: stamp}
}

func stubCategory(i int) categoryItem {
	id := categoryID(i)
	return categoryItem{PK: alicePK, SK: "category#" + id, ID: id, EntityType: "category",
		Name: "仕事", Color: "primary", CreatedAt: stamp, UpdatedAt: stamp}
}

// itemJSON renders an item struct in DynamoDB's JSON wire form.
func itemJSON(v any) string {
	av, err := attributevalue.MarshalMap(v)
	if err != nil {
		panic(err)
	}
	return bench.ItemJSON(av)
}

// listStub answers GetItem with get, UpdateItem with get as the new item,
// PutItem and TransactWriteItems with success, and Query with pages of
// items (JSON, in sort key order, all in partition pk), honouring Limit
// and ExclusiveStartKey.
func listStub(get string, pk string, items []string, sks []string) *bench.Stub {
	at := make(map[string]int, len(sks))
	for i, sk := range sks {
		at[sk] = i
	}
	return bench.NewStub().
		Handle("GetItem", bench.Canned(`{"Item":`+get+`}`)).
		Handle("UpdateItem", bench.Canned(`{"Attributes":`+get+`}`)).
		Handle("PutItem", bench.Canned(`{}`)).
		Handle("TransactWriteItems", bench.Canned(`{}`)).
		Handle("Query", bench.QueryPages(items, func(lek map[string]string) int { return at[lek["sk"]] + 1 },
			func(i int) string { return `{"pk":{"S":"` + pk + `"},"sk":{"S":"` + sks[i] + `"}}` }))
}

// todoStub holds n todos of alice.
func todoStub(n int) *bench.Stub {
	items, sks := make([]string, n), make([]string, n)
	for i := range items {
		t := stubTodo(i)
		items[i], sks[i] = itemJSON(t), t.SK
	}
	return listStub(itemJSON(stubTodo(0)), alicePK, items, sks)
}

// categoryStub holds n categories of alice.
func categoryStub(n int) *bench.Stub {
	items, sks := make([]string, n), make([]string, n)
	for i := range items {
		c := stubCategory(i)
		items[i], sks[i] = itemJSON(c), c.SK
	}
	return listStub(itemJSON(stubCategory(0)), alicePK, items, sks)
}

// userStub holds n users.
func userStub(n int) *bench.Stub {
	items, sks := make([]string, n), make([]string, n)
	for i := range items {
		u := stubUser(i)
		items[i], sks[i] = itemJSON(u), u.SK
	}
	return listStub(itemJSON(stubUser(0)), "users", items, sks)
}

// userDataStub holds alice's categories and todos: c categories, then t
// todos, in sort key order.
func userDataStub(c, t int) *bench.Stub {
	var items, sks []string
	for i := range c {
		x := stubCategory(i)
		items, sks = append(items, itemJSON(x)), append(sks, x.SK)
	}
	for i := range t {
		x := stubTodo(i)
		items, sks = append(items, itemJSON(x)), append(sks, x.SK)
	}
	return listStub(itemJSON(stubTodo(0)), alicePK, items, sks)
}

// sweepStub answers a sweep (DeleteUser, DeleteCategory): Query returns
// items, TransactWriteItems succeeds, and the Query after it returns
// nothing, as DynamoDB would once the transaction deleted or cleared them.
func sweepStub(items []string) *bench.Stub {
	full := []byte(fmt.Sprintf(`{"Items":[%s],"Count":%d,"ScannedCount":%d}`, strings.Join(items, ","), len(items), len(items)))
	empty := []byte(`{"Items":[],"Count":0,"ScannedCount":0}`)
	var mu sync.Mutex
	swept := false
	return bench.NewStub().
		Handle("Query", func([]byte) ([]byte, error) {
			mu.Lock()
			defer mu.Unlock()
			if swept {
				swept = false
				return empty, nil
			}
			return full, nil
		}).
		Handle("TransactWriteItems", func([]byte) ([]byte, error) {
			mu.Lock()
			defer mu.Unlock()
			swept = true
			return []byte(`{}`), nil
		})
}

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk},
	}
}

func s(v string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: v} }

// The hand-written variants' expressions: constants, as a hand-written
// client would have them.
var (
	pkExists    = aws.String("attribute_exists(#pk)")
	pkNotExists = aws.String("attribute_not_exists(#pk)")
	pkName      = map[string]string{"#pk": "pk"}
	pkSKBegins  = aws.String("#pk = :pk AND begins_with(#sk, :sk)")
	pkSKNames   = map[string]string{"#pk": "pk", "#sk": "sk"}
	pkEq        = aws.String("#pk = :pk")
)

// handQuery is the hand-written Query of one page of a partition,
// optionally narrowed to a sort key prefix.
func handQuery(ctx context.Context, c *dynamodb.Client, pk, prefix string, limit int32) (*dynamodb.QueryOutput, error) {
	in := &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true), Limit: aws.Int32(limit)}
	if prefix == "" {
		in.KeyConditionExpression, in.ExpressionAttributeNames = pkEq, pkName
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":pk": s(pk)}
	} else {
		in.KeyConditionExpression, in.ExpressionAttributeNames = pkSKBegins, pkSKNames
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":pk": s(pk), ":sk": s(prefix)}
	}
	return c.Query(ctx, in)
}

// BenchmarkTodo compares each operation of todo's DynamoStore with the same
// calls written by hand on aws-sdk-go-v2 and with guregu/dynamo v2, on a
// stub transport.
func BenchmarkTodo(b *testing.B) {
	ctx := context.Background()
	opts := func(o *todo.Options) { o.TableName = table }
	clock := ddbkit.StepClock(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond)
	clocked := func(o *todo.Options) { o.Clock = clock }
	now := func() string { return clock().UTC().Format(layout) }
	// stores returns the three clients of a stub.
	tp, mp := bench.OTel()
	traced := func(o *todo.Options) { o.TracerProvider, o.MeterProvider = tp, mp }
	// stores returns the three clients of a stub, and the store again with
	// a recording OpenTelemetry SDK (the otel variant, issue 38).
	stores := func(stub *bench.Stub) (*todo.DynamoStore, *dynamodb.Client, *dynamo.DB, *todo.DynamoStore) {
		return todo.NewDynamoStore(stub.Client(), opts, clocked), stub.Client(), dynamo.New(stub.Config()),
			todo.NewDynamoStore(stub.Client(), opts, clocked, traced)
	}

	// Users.

	b.Run("CreateUser", func(b *testing.B) {
		stub := userStub(1)
		st, c, g, sto := stores(stub)
		u := stubUser(0)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				return st.CreateUser(ctx, todo.User{Username: u.Username, Email: u.Email})
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				item, err := attributevalue.MarshalMap(u)
				if err != nil {
					return err
				}
				// A one-item transaction with a token, as ddbkit's
				// PutNew sends: its own write is told by the token.
				_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
					ClientRequestToken: aws.String(uuid.NewString()),
					TransactItems: []types.TransactWriteItem{
						{Put: &types.Put{TableName: aws.String(table), Item: item,
							ConditionExpression: pkNotExists, ExpressionAttributeNames: pkName,
							ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
					}})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				return g.WriteTx().Put(g.Table(table).Put(u).If("attribute_not_exists(pk)")).Idempotent(true).Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				return sto.CreateUser(ctx, todo.User{Username: u.Username, Email: u.Email})
			}, Overhead: true},
		)
	})

	b.Run("GetUser", func(b *testing.B) {
		stub := userStub(1)
		st, c, g, sto := stores(stub)
		name := username(0)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.GetUser(ctx, name)
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
					Key: key("users", name)})
				if err != nil {
					return err
				}
				var u userItem
				return attributevalue.UnmarshalMap(out.Item, &u)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var u userItem
				return g.Table(table).Get("pk", "users").Range("sk", dynamo.Equal, name).Consistent(true).One(ctx, &u)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.GetUser(ctx, name)
				return err
			}, Overhead: true},
		)
	})

	b.Run("ListUsers50", func(b *testing.B) {
		stub := userStub(200)
		st, c, g, sto := stores(stub)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				p, err := st.ListUsers(ctx, ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := handQuery(ctx, c, "users", "", 50)
				if err != nil {
					return err
				}
				var us []userItem
				err = attributevalue.UnmarshalListOfMaps(out.Items, &us)
				return wantPage(len(us), out.LastEvaluatedKey != nil, err)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var us []userItem
				next, err := g.Table(table).Get("pk", "users").Consistent(true).SearchLimit(50).AllWithLastEvaluatedKey(ctx, &us)
				return wantPage(len(us), next != nil, err)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				p, err := sto.ListUsers(ctx, ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}, Overhead: true},
		)
	})

	b.Run("UpdateUser", func(b *testing.B) {
		stub := userStub(1)
		st, c, g, sto := stores(stub)
		name, email := username(0), "new@example.com"
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				return st.UpdateUser(ctx, todo.User{Username: name, Email: email})
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key("users", name),
					UpdateExpression: aws.String("SET #email = :email"), ConditionExpression: pkExists,
					ExpressionAttributeNames:            map[string]string{"#pk": "pk", "#email": "email"},
					ExpressionAttributeValues:           map[string]types.AttributeValue{":email": s(email)},
					ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				return g.Table(table).Update("pk", "users").Range("sk", name).Set("email", email).If("attribute_exists(pk)").Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				return sto.UpdateUser(ctx, todo.User{Username: name, Email: email})
			}, Overhead: true},
		)
	})

	b.Run("DeleteUser", func(b *testing.B) {
		// alice's partition: 3 categories and 20 todos, swept in one
		// transaction with the user item.
		var items []string
		for i := range 3 {
			items = append(items, itemJSON(stubCategory(i)))
		}
		for i := range 20 {
			items = append(items, itemJSON(stubTodo(i)))
		}
		stub := sweepStub(items)
		st, c, g, sto := stores(stub)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error { return st.DeleteUser(ctx, "alice") }},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				for swept := false; ; swept = true {
					out, err := handQuery(ctx, c, alicePK, "", 100)
					if err != nil || (swept && len(out.Items) == 0) {
						return err
					}
					tx := make([]types.TransactWriteItem, 0, len(out.Items)+1)
					tx = append(tx, types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(table),
						Key: key("users", "alice"), ConditionExpression: pkExists, ExpressionAttributeNames: pkName}})
					for _, it := range out.Items {
						tx = append(tx, types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(table),
							Key: map[string]types.AttributeValue{"pk": it["pk"], "sk": it["sk"]}}})
					}
					if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
						ClientRequestToken: aws.String(uuid.NewString()), TransactItems: tx}); err != nil {
						return err
					}
				}
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				t := g.Table(table)
				for swept := false; ; swept = true {
					var its []map[string]types.AttributeValue
					if err := t.Get("pk", alicePK).Consistent(true).SearchLimit(100).All(ctx, &its); err != nil ||
						(swept && len(its) == 0) {
						return err
					}
					tx := g.WriteTx().Delete(t.Delete("pk", "users").Range("sk", "alice").If("attribute_exists(pk)"))
					for _, it := range its {
						tx.Delete(t.Delete("pk", it["pk"]).Range("sk", it["sk"]))
					}
					if err := tx.Idempotent(true).Run(ctx); err != nil {
						return err
					}
				}
			}},
			bench.Variant{Name: "otel", Op: func(int) error { return sto.DeleteUser(ctx, "alice") }, Overhead: true},
		)
	})

	// Todos.

	b.Run("CreateTodo", func(b *testing.B) {
		stub := todoStub(1)
		st, c, g, sto := stores(stub)
		in := todo.NewTodo{Title: "プロジェクトの企画書作成", Description: "新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する",
			Priority: todo.PriorityHigh, CategoryID: "category001"}
		// newTodo is what the hand-written and guregu variants store: a
		// fresh UUIDv4 and the time, as CreateTodo does.
		newTodo := func() todoItem {
			id, now := uuid.NewString(), now()
			return todoItem{PK: alicePK, SK: "todo#" + id, ID: id, EntityType: "todo", Title: in.Title,
				Description: in.Description, Priority: string(in.Priority), CategoryID: in.CategoryID,
				CreatedAt: now, UpdatedAt: now}
		}
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.CreateTodo(ctx, "alice", in)
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
						{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: key("users", "alice"),
							ConditionExpression: pkExists, ExpressionAttributeNames: pkName}},
						{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: key(alicePK, "category#category001"),
							ConditionExpression: pkExists, ExpressionAttributeNames: pkName}},
						{Put: &types.Put{TableName: aws.String(table), Item: item,
							ConditionExpression: pkNotExists, ExpressionAttributeNames: pkName}},
					}})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				t := g.Table(table)
				return g.WriteTx().
					Check(t.Check("pk", "users").Range("sk", "alice").IfExists()).
					Check(t.Check("pk", alicePK).Range("sk", "category#category001").IfExists()).
					Put(t.Put(newTodo()).If("attribute_not_exists(pk)")).
					Idempotent(true).Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.CreateTodo(ctx, "alice", in)
				return err
			}, Overhead: true},
		)
	})

	b.Run("GetTodo", func(b *testing.B) {
		stub := todoStub(1)
		st, c, g, sto := stores(stub)
		id := todoID(0)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.GetTodo(ctx, "alice", id)
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
					Key: key(alicePK, "todo#"+id)})
				if err != nil {
					return err
				}
				var t todoItem
				return attributevalue.UnmarshalMap(out.Item, &t)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var t todoItem
				return g.Table(table).Get("pk", alicePK).Range("sk", dynamo.Equal, "todo#"+id).Consistent(true).One(ctx, &t)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.GetTodo(ctx, "alice", id)
				return err
			}, Overhead: true},
		)
	})

	b.Run("ListTodos50", func(b *testing.B) {
		stub := todoStub(200)
		st, c, g, sto := stores(stub)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				p, err := st.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := handQuery(ctx, c, alicePK, "todo#", 50)
				if err != nil {
					return err
				}
				var ts []todoItem
				err = attributevalue.UnmarshalListOfMaps(out.Items, &ts)
				return wantPage(len(ts), out.LastEvaluatedKey != nil, err)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var ts []todoItem
				next, err := g.Table(table).Get("pk", alicePK).Range("sk", dynamo.BeginsWith, "todo#").Consistent(true).
					SearchLimit(50).AllWithLastEvaluatedKey(ctx, &ts)
				return wantPage(len(ts), next != nil, err)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				p, err := sto.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}, Overhead: true},
		)
	})

	b.Run("UpdateTodo", func(b *testing.B) {
		// A patch of title and priority: one UpdateItem returning the new
		// todo.
		stub := todoStub(1)
		st, c, g, sto := stores(stub)
		id, title, prio := todoID(0), "企画書の最終確認", todo.PriorityMedium
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.UpdateTodo(ctx, "alice", id, todo.TodoPatch{Title: &title, Priority: &prio})
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key(alicePK, "todo#"+id),
					UpdateExpression:         aws.String("SET #updated_at = :updated_at, #title = :title, #priority = :priority"),
					ConditionExpression:      pkExists,
					ExpressionAttributeNames: map[string]string{"#pk": "pk", "#updated_at": "updated_at", "#title": "title", "#priority": "priority"},
					ExpressionAttributeValues: map[string]types.AttributeValue{
						":updated_at": s(now()), ":title": s(title), ":priority": s(string(prio))},
					ReturnValues:                        types.ReturnValueAllNew,
					ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
				if err != nil {
					return err
				}
				var t todoItem
				return attributevalue.UnmarshalMap(out.Attributes, &t)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var t todoItem
				return g.Table(table).Update("pk", alicePK).Range("sk", "todo#"+id).
					Set("updated_at", now()).Set("title", title).Set("priority", string(prio)).
					If("attribute_exists(pk)").Value(ctx, &t)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.UpdateTodo(ctx, "alice", id, todo.TodoPatch{Title: &title, Priority: &prio})
				return err
			}, Overhead: true},
		)
	})

	b.Run("UpdateTodoCategory", func(b *testing.B) {
		// A patch that sets a category: the todo is read (eventually
		// consistent, as the write is conditioned on what it read), then
		// updated in a transaction with the category's check, conditioned
		// on every attribute as read.
		stub := todoStub(1)
		st, c, g, sto := stores(stub)
		id, cat := todoID(0), "category002"
		attrs := []string{"id", "entity_type", "title", "description", "priority", "completed", "category_id", "created_at", "updated_at"}
		var cond strings.Builder
		cond.WriteString("attribute_exists(#pk)")
		names := map[string]string{"#pk": "pk", "#updated_at": "updated_at", "#category_id": "category_id"}
		for _, a := range attrs {
			fmt.Fprintf(&cond, " AND #%s = :old_%s", a, a)
			names["#"+a] = a
		}
		condition := aws.String(cond.String())
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.UpdateTodo(ctx, "alice", id, todo.TodoPatch{CategoryID: &cat})
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				k := key(alicePK, "todo#"+id)
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: k})
				if err != nil {
					return err
				}
				var t todoItem
				if err := attributevalue.UnmarshalMap(out.Item, &t); err != nil {
					return err
				}
				values := map[string]types.AttributeValue{":updated_at": s(now()), ":category_id": s(cat)}
				for _, a := range attrs {
					values[":old_"+a] = out.Item[a]
				}
				_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
					ClientRequestToken: aws.String(uuid.NewString()),
					TransactItems: []types.TransactWriteItem{
						{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: key(alicePK, "category#"+cat),
							ConditionExpression: pkExists, ExpressionAttributeNames: pkName}},
						{Update: &types.Update{TableName: aws.String(table), Key: k,
							UpdateExpression:    aws.String("SET #updated_at = :updated_at, #category_id = :category_id"),
							ConditionExpression: condition, ExpressionAttributeNames: names, ExpressionAttributeValues: values}},
					}})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				t := g.Table(table)
				var old todoItem
				if err := t.Get("pk", alicePK).Range("sk", dynamo.Equal, "todo#"+id).One(ctx, &old); err != nil {
					return err
				}
				return g.WriteTx().
					Check(t.Check("pk", alicePK).Range("sk", "category#"+cat).IfExists()).
					Update(t.Update("pk", alicePK).Range("sk", "todo#"+id).Set("updated_at", now()).Set("category_id", cat).
						If("attribute_exists(pk)").
						If("$ = ? AND $ = ? AND $ = ? AND $ = ? AND $ = ? AND $ = ? AND $ = ? AND $ = ? AND $ = ?",
							"id", old.ID, "entity_type", old.EntityType, "title", old.Title, "description", old.Description,
							"priority", old.Priority, "completed", old.Completed, "category_id", old.CategoryID,
							"created_at", old.CreatedAt, "updated_at", old.UpdatedAt)).
					Idempotent(true).Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.UpdateTodo(ctx, "alice", id, todo.TodoPatch{CategoryID: &cat})
				return err
			}, Overhead: true},
		)
	})

	b.Run("ToggleTodo", func(b *testing.B) {
		// An eventually consistent read, and the write conditioned on it.
		stub := todoStub(1)
		st, c, g, sto := stores(stub)
		id := todoID(0)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.ToggleTodo(ctx, "alice", id)
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				k := key(alicePK, "todo#"+id)
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: k})
				if err != nil {
					return err
				}
				var t todoItem
				if err := attributevalue.UnmarshalMap(out.Item, &t); err != nil {
					return err
				}
				up, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: k,
					UpdateExpression:         aws.String("SET #completed = :completed, #updated_at = :updated_at"),
					ConditionExpression:      aws.String("attribute_exists(#pk) AND #completed = :old_completed AND #updated_at = :old_updated_at"),
					ExpressionAttributeNames: map[string]string{"#pk": "pk", "#completed": "completed", "#updated_at": "updated_at"},
					ExpressionAttributeValues: map[string]types.AttributeValue{
						":completed": &types.AttributeValueMemberBOOL{Value: !t.Completed}, ":updated_at": s(now()),
						":old_completed": out.Item["completed"], ":old_updated_at": out.Item["updated_at"]},
					ReturnValues:                        types.ReturnValueAllNew,
					ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
				if err != nil {
					return err
				}
				return attributevalue.UnmarshalMap(up.Attributes, &t)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				t := g.Table(table)
				var old todoItem
				if err := t.Get("pk", alicePK).Range("sk", dynamo.Equal, "todo#"+id).One(ctx, &old); err != nil {
					return err
				}
				var nu todoItem
				return t.Update("pk", alicePK).Range("sk", "todo#"+id).Set("completed", !old.Completed).Set("updated_at", now()).
					If("attribute_exists(pk) AND completed = ? AND updated_at = ?", old.Completed, old.UpdatedAt).Value(ctx, &nu)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.ToggleTodo(ctx, "alice", id)
				return err
			}, Overhead: true},
		)
	})

	b.Run("DeleteTodo", func(b *testing.B) {
		stub := todoStub(1)
		st, c, g, sto := stores(stub)
		id := todoID(0)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error { return st.DeleteTodo(ctx, "alice", id) }},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
					ClientRequestToken: aws.String(uuid.NewString()),
					TransactItems: []types.TransactWriteItem{{Delete: &types.Delete{TableName: aws.String(table),
						Key: key(alicePK, "todo#"+id), ConditionExpression: pkExists, ExpressionAttributeNames: pkName}}}})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				t := g.Table(table)
				return g.WriteTx().Delete(t.Delete("pk", alicePK).Range("sk", "todo#"+id).If("attribute_exists(pk)")).
					Idempotent(true).Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(int) error { return sto.DeleteTodo(ctx, "alice", id) }, Overhead: true},
		)
	})

	// Categories.

	b.Run("CreateCategory", func(b *testing.B) {
		stub := categoryStub(1)
		st, c, g, sto := stores(stub)
		in := todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary}
		newCategory := func() categoryItem {
			id, now := uuid.NewString(), now()
			return categoryItem{PK: alicePK, SK: "category#" + id, ID: id, EntityType: "category", Name: in.Name,
				Color: string(in.Color), CreatedAt: now, UpdatedAt: now}
		}
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.CreateCategory(ctx, "alice", in)
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				item, err := attributevalue.MarshalMap(newCategory())
				if err != nil {
					return err
				}
				_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
					ClientRequestToken: aws.String(uuid.NewString()),
					TransactItems: []types.TransactWriteItem{
						{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: key("users", "alice"),
							ConditionExpression: pkExists, ExpressionAttributeNames: pkName}},
						{Put: &types.Put{TableName: aws.String(table), Item: item,
							ConditionExpression: pkNotExists, ExpressionAttributeNames: pkName}},
					}})
				return err
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				t := g.Table(table)
				return g.WriteTx().
					Check(t.Check("pk", "users").Range("sk", "alice").IfExists()).
					Put(t.Put(newCategory()).If("attribute_not_exists(pk)")).
					Idempotent(true).Run(ctx)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.CreateCategory(ctx, "alice", in)
				return err
			}, Overhead: true},
		)
	})

	b.Run("GetCategory", func(b *testing.B) {
		stub := categoryStub(1)
		st, c, g, sto := stores(stub)
		id := categoryID(0)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.GetCategory(ctx, "alice", id)
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
					Key: key(alicePK, "category#"+id)})
				if err != nil {
					return err
				}
				var x categoryItem
				return attributevalue.UnmarshalMap(out.Item, &x)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var x categoryItem
				return g.Table(table).Get("pk", alicePK).Range("sk", dynamo.Equal, "category#"+id).Consistent(true).One(ctx, &x)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.GetCategory(ctx, "alice", id)
				return err
			}, Overhead: true},
		)
	})

	b.Run("ListCategories50", func(b *testing.B) {
		stub := categoryStub(200)
		st, c, g, sto := stores(stub)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				p, err := st.ListCategories(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := handQuery(ctx, c, alicePK, "category#", 50)
				if err != nil {
					return err
				}
				var xs []categoryItem
				err = attributevalue.UnmarshalListOfMaps(out.Items, &xs)
				return wantPage(len(xs), out.LastEvaluatedKey != nil, err)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var xs []categoryItem
				next, err := g.Table(table).Get("pk", alicePK).Range("sk", dynamo.BeginsWith, "category#").Consistent(true).
					SearchLimit(50).AllWithLastEvaluatedKey(ctx, &xs)
				return wantPage(len(xs), next != nil, err)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				p, err := sto.ListCategories(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}, Overhead: true},
		)
	})

	b.Run("UpdateCategory", func(b *testing.B) {
		stub := categoryStub(1)
		st, c, g, sto := stores(stub)
		id, name := categoryID(0), "プライベート"
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				_, err := st.UpdateCategory(ctx, "alice", id, todo.CategoryPatch{Name: &name})
				return err
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key(alicePK, "category#"+id),
					UpdateExpression:                    aws.String("SET #updated_at = :updated_at, #name = :name"),
					ConditionExpression:                 pkExists,
					ExpressionAttributeNames:            map[string]string{"#pk": "pk", "#updated_at": "updated_at", "#name": "name"},
					ExpressionAttributeValues:           map[string]types.AttributeValue{":updated_at": s(now()), ":name": s(name)},
					ReturnValues:                        types.ReturnValueAllNew,
					ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
				if err != nil {
					return err
				}
				var x categoryItem
				return attributevalue.UnmarshalMap(out.Attributes, &x)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var x categoryItem
				return g.Table(table).Update("pk", alicePK).Range("sk", "category#"+id).
					Set("updated_at", now()).Set("name", name).If("attribute_exists(pk)").Value(ctx, &x)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				_, err := sto.UpdateCategory(ctx, "alice", id, todo.CategoryPatch{Name: &name})
				return err
			}, Overhead: true},
		)
	})

	b.Run("DeleteCategory", func(b *testing.B) {
		// category001 with 10 todos referring to it: one Query (filtered
		// on category_id), one transaction clearing them and deleting the
		// category, and the Query that finds none left.
		var items []string
		for i := range 10 {
			items = append(items, itemJSON(stubTodo(i)))
		}
		stub := sweepStub(items)
		st, c, g, sto := stores(stub)
		id := categoryID(0)
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error { return st.DeleteCategory(ctx, "alice", id) }},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				names := map[string]string{"#pk": "pk", "#sk": "sk", "#category_id": "category_id"}
				for swept := false; ; swept = true {
					out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
						Limit: aws.Int32(100), KeyConditionExpression: pkSKBegins,
						FilterExpression: aws.String("#category_id = :category_id"), ExpressionAttributeNames: names,
						ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s(alicePK), ":sk": s("todo#"),
							":category_id": s(id)}})
					if err != nil || (swept && len(out.Items) == 0) {
						return err
					}
					tx := make([]types.TransactWriteItem, 0, len(out.Items)+1)
					tx = append(tx, types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(table),
						Key: key(alicePK, "category#"+id), ConditionExpression: pkExists, ExpressionAttributeNames: pkName}})
					now := now()
					for _, it := range out.Items {
						tx = append(tx, types.TransactWriteItem{Update: &types.Update{TableName: aws.String(table),
							Key:                      map[string]types.AttributeValue{"pk": it["pk"], "sk": it["sk"]},
							UpdateExpression:         aws.String("SET #category_id = :empty, #updated_at = :updated_at"),
							ConditionExpression:      aws.String("#category_id = :category_id"),
							ExpressionAttributeNames: map[string]string{"#category_id": "category_id", "#updated_at": "updated_at"},
							ExpressionAttributeValues: map[string]types.AttributeValue{":empty": s(""), ":updated_at": s(now),
								":category_id": s(id)}}})
					}
					if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
						ClientRequestToken: aws.String(uuid.NewString()), TransactItems: tx}); err != nil {
						return err
					}
				}
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				t := g.Table(table)
				for swept := false; ; swept = true {
					var its []map[string]types.AttributeValue
					if err := t.Get("pk", alicePK).Range("sk", dynamo.BeginsWith, "todo#").Filter("category_id = ?", id).
						Consistent(true).SearchLimit(100).All(ctx, &its); err != nil || (swept && len(its) == 0) {
						return err
					}
					tx := g.WriteTx().Delete(t.Delete("pk", alicePK).Range("sk", "category#"+id).If("attribute_exists(pk)"))
					now := now()
					for _, it := range its {
						tx.Update(t.Update("pk", it["pk"]).Range("sk", it["sk"]).Set("category_id", "").Set("updated_at", now).
							If("category_id = ?", id))
					}
					if err := tx.Idempotent(true).Run(ctx); err != nil {
						return err
					}
				}
			}},
			bench.Variant{Name: "otel", Op: func(int) error { return sto.DeleteCategory(ctx, "alice", id) }, Overhead: true},
		)
	})

	b.Run("ListUserData50", func(b *testing.B) {
		// 10 categories, then todos: a page of 10 categories and 40 todos.
		stub := userDataStub(10, 190)
		st, c, g, sto := stores(stub)
		// decode is what a hand-written client does with a mixed page:
		// the kind from the sort key, then the matching struct.
		decode := func(items []map[string]types.AttributeValue) (int, error) {
			n := 0
			for _, it := range items {
				sk, _ := it["sk"].(*types.AttributeValueMemberS)
				switch {
				case sk != nil && strings.HasPrefix(sk.Value, "todo#"):
					var t todoItem
					if err := attributevalue.UnmarshalMap(it, &t); err != nil {
						return n, err
					}
				case sk != nil && strings.HasPrefix(sk.Value, "category#"):
					var x categoryItem
					if err := attributevalue.UnmarshalMap(it, &x); err != nil {
						return n, err
					}
				default:
					continue
				}
				n++
			}
			return n, nil
		}
		bench.Compare(b, stub,
			bench.Variant{Name: "ddbkit", Op: func(int) error {
				p, err := st.ListUserData(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}},
			bench.Variant{Name: "handwritten", Op: func(int) error {
				out, err := handQuery(ctx, c, alicePK, "", 50)
				if err != nil {
					return err
				}
				n, err := decode(out.Items)
				return wantPage(n, out.LastEvaluatedKey != nil, err)
			}},
			bench.Variant{Name: "guregu", Op: func(int) error {
				var its []map[string]types.AttributeValue
				next, err := g.Table(table).Get("pk", alicePK).Consistent(true).SearchLimit(50).AllWithLastEvaluatedKey(ctx, &its)
				if err != nil {
					return err
				}
				// guregu decodes into its own structs item by item.
				n := 0
				for _, it := range its {
					sk, _ := it["sk"].(*types.AttributeValueMemberS)
					switch {
					case sk != nil && strings.HasPrefix(sk.Value, "todo#"):
						var t todoItem
						err = dynamo.UnmarshalItem(it, &t)
					case sk != nil && strings.HasPrefix(sk.Value, "category#"):
						var x categoryItem
						err = dynamo.UnmarshalItem(it, &x)
					default:
						continue
					}
					if err != nil {
						return err
					}
					n++
				}
				return wantPage(n, next != nil, nil)
			}},
			bench.Variant{Name: "otel", Op: func(int) error {
				p, err := sto.ListUserData(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}, Overhead: true},
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

// pool hands out the items a destructive benchmark (a delete) consumes,
// one per call, across all of a benchmark's runs.
type pool struct {
	names []string
	next  int
}

func (p *pool) take() (string, error) {
	if p.next == len(p.names) {
		return "", fmt.Errorf("bench: pool of %d exhausted; make it larger", len(p.names))
	}
	p.next++
	return p.names[p.next-1], nil
}

// fakeData is what both stores of BenchmarkTodoFake hold: users (alice
// with todos and categories, and more to list), and pools for the deletes.
type fakeData struct {
	todos, categories []string // alice's
	delTodos          []string // bob's todos, for DeleteTodo
	delUsers          []string // users with 3 todos and a category each, for DeleteUser
	delCategories     []string // users whose category001-like category has 2 todos, for DeleteCategory
}

// todoFake fills a memory store and a DynamoDB store on DynamoDB Local
// with the same data.
func todoFake(b *testing.B) (memory, local todo.Store, d fakeData) {
	b.Helper()
	ctx := context.Background()
	c := ddbtest.Client(b)
	name := ddbtest.NewTable(b, c, todo.CreateTableInput("bench-todo"))
	// Each store has its own seed: the local store gets the memory store's
	// items raw, and must not draw their IDs again.
	seeded := func(seed uint64) func(o *todo.Options) {
		return func(o *todo.Options) { o.NewID = ddbkit.SeededUUIDv4(seed); o.TableName = name }
	}
	m := todo.NewMemoryStore(seeded(1))
	local = todo.NewDynamoStore(c, seeded(2))
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	user := func(n string) { must(m.CreateUser(ctx, todo.User{Username: n, Email: n + "@example.com"})) }
	newTodo := func(user, cat string) string {
		t, err := m.CreateTodo(ctx, user, todo.NewTodo{Title: "プロジェクトの企画書作成",
			Description: "新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する", Priority: todo.PriorityHigh, CategoryID: cat})
		must(err)
		return t.ID
	}
	newCategory := func(user string) string {
		x, err := m.CreateCategory(ctx, user, todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary})
		must(err)
		return x.ID
	}
	user("alice")
	for range 60 {
		d.categories = append(d.categories, newCategory("alice"))
	}
	for i := range 200 {
		d.todos = append(d.todos, newTodo("alice", d.categories[i%len(d.categories)]))
	}
	user("bob")
	// The pools: as many as a Delete benchmark consumes, and at least
	// enough users that ListUsers50 has a next page.
	pooled := max(bench.ConsumeCalls(), 60)
	for range pooled {
		d.delTodos = append(d.delTodos, newTodo("bob", ""))
	}
	for i := range pooled {
		n := fmt.Sprintf("del%04d", i)
		user(n)
		cat := newCategory(n)
		for range 3 {
			newTodo(n, cat)
		}
		d.delUsers = append(d.delUsers, n)
		n = fmt.Sprintf("cat%04d", i)
		user(n)
		cat = newCategory(n)
		for range 2 {
			newTodo(n, cat)
		}
		d.delCategories = append(d.delCategories, n+"/"+cat)
	}
	bench.PutAll(b, c, m.Export())
	return m, local, d
}

// BenchmarkTodoFake compares each operation on DynamoDB Local with the same
// operation on the memory store: x-memory is how many times faster the fake
// is (the target is 100 or more).
func BenchmarkTodoFake(b *testing.B) {
	ctx := context.Background()
	memory, local, d := todoFake(b)
	todoOf := func(i int) string { return d.todos[i%len(d.todos)] }
	// Each store consumes its own pools, and names its own new users.
	type state struct {
		todos, users, cats pool
		created            int
	}
	states := map[todo.Store]*state{}
	for _, s := range []todo.Store{memory, local} {
		states[s] = &state{todos: pool{names: d.delTodos}, users: pool{names: d.delUsers}, cats: pool{names: d.delCategories}}
	}
	title, prio, cat, name := "企画書の最終確認", todo.PriorityMedium, d.categories[1], "プライベート"
	for _, op := range []struct {
		name string
		op   func(s todo.Store) func(int) error
	}{
		{"CreateUser", func(s todo.Store) func(int) error {
			st := states[s]
			return func(int) error {
				st.created++
				n := fmt.Sprintf("new%06d", st.created)
				return s.CreateUser(ctx, todo.User{Username: n, Email: n + "@example.com"})
			}
		}},
		{"GetUser", func(s todo.Store) func(int) error {
			return func(int) error { _, err := s.GetUser(ctx, "alice"); return err }
		}},
		{"ListUsers50", func(s todo.Store) func(int) error {
			return func(int) error {
				p, err := s.ListUsers(ctx, ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}
		}},
		{"UpdateUser", func(s todo.Store) func(int) error {
			return func(int) error { return s.UpdateUser(ctx, todo.User{Username: "alice", Email: "new@example.com"}) }
		}},
		{"DeleteUser", func(s todo.Store) func(int) error {
			st := states[s]
			return func(int) error {
				n, err := st.users.take()
				if err != nil {
					return err
				}
				return s.DeleteUser(ctx, n)
			}
		}},
		{"CreateTodo", func(s todo.Store) func(int) error {
			return func(int) error {
				_, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow, CategoryID: d.categories[0]})
				return err
			}
		}},
		{"GetTodo", func(s todo.Store) func(int) error {
			return func(i int) error { _, err := s.GetTodo(ctx, "alice", todoOf(i)); return err }
		}},
		{"ListTodos50", func(s todo.Store) func(int) error {
			return func(int) error {
				p, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}
		}},
		{"UpdateTodo", func(s todo.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateTodo(ctx, "alice", todoOf(i), todo.TodoPatch{Title: &title, Priority: &prio})
				return err
			}
		}},
		{"UpdateTodoCategory", func(s todo.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateTodo(ctx, "alice", todoOf(i), todo.TodoPatch{CategoryID: &cat})
				return err
			}
		}},
		{"ToggleTodo", func(s todo.Store) func(int) error {
			return func(i int) error { _, err := s.ToggleTodo(ctx, "alice", todoOf(i)); return err }
		}},
		{"DeleteTodo", func(s todo.Store) func(int) error {
			st := states[s]
			return func(int) error {
				id, err := st.todos.take()
				if err != nil {
					return err
				}
				return s.DeleteTodo(ctx, "bob", id)
			}
		}},
		{"CreateCategory", func(s todo.Store) func(int) error {
			return func(int) error {
				_, err := s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary})
				return err
			}
		}},
		{"GetCategory", func(s todo.Store) func(int) error {
			return func(i int) error {
				_, err := s.GetCategory(ctx, "alice", d.categories[i%len(d.categories)])
				return err
			}
		}},
		{"ListCategories50", func(s todo.Store) func(int) error {
			return func(int) error {
				p, err := s.ListCategories(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}
		}},
		{"UpdateCategory", func(s todo.Store) func(int) error {
			return func(i int) error {
				_, err := s.UpdateCategory(ctx, "alice", d.categories[i%len(d.categories)], todo.CategoryPatch{Name: &name})
				return err
			}
		}},
		{"DeleteCategory", func(s todo.Store) func(int) error {
			st := states[s]
			return func(int) error {
				uc, err := st.cats.take()
				if err != nil {
					return err
				}
				u, c, _ := strings.Cut(uc, "/")
				return s.DeleteCategory(ctx, u, c)
			}
		}},
		{"ListUserData50", func(s todo.Store) func(int) error {
			return func(int) error {
				p, err := s.ListUserData(ctx, "alice", ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			}
		}},
	} {
		// The deletes consume the pools, sized by bench.ConsumeCalls.
		consumes := strings.HasPrefix(op.name, "Delete")
		b.Run(op.name, func(b *testing.B) {
			bench.Compare(b, nil,
				bench.Variant{Name: "dynamodb-local", Op: op.op(local), Consumes: consumes, Remote: true},
				bench.Variant{Name: "memory", Op: op.op(memory), Consumes: consumes})
		})
	}
}

// pageStores caches the memory stores of BenchmarkTodoPage by listing and
// size: the benchmark function runs several times, and building 100,000
// items each time would be most of its run.
var pageStores = map[string]*todo.MemoryStore{}

// BenchmarkTodoPage compares a 50-item page from the middle of 100,000
// items with one from the middle of 1,000, for each listing of the memory
// store: x-1k is the growth (the target is at most 1.1).
func BenchmarkTodoPage(b *testing.B) {
	ctx := context.Background()
	// fill returns a store with n items of the listing: users, alice's
	// todos, alice's categories, or alice's data (a tenth categories).
	fill := func(listing string, n int) *todo.MemoryStore {
		k := fmt.Sprint(listing, n)
		if s, ok := pageStores[k]; ok {
			return s
		}
		s := todo.NewMemoryStore(func(o *todo.Options) { o.NewID = ddbkit.SeededUUIDv4(1) })
		must := func(err error) {
			if err != nil {
				b.Fatal(err)
			}
		}
		must(s.CreateUser(ctx, todo.User{Username: "alice", Email: "alice@example.com"}))
		for i := range n {
			switch {
			case listing == "ListUsers":
				u := fmt.Sprintf("user%06d", i)
				must(s.CreateUser(ctx, todo.User{Username: u, Email: u + "@example.com"}))
			case listing == "ListCategories" || (listing == "ListUserData" && i%10 == 0):
				_, err := s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "c", Color: todo.ColorInfo})
				must(err)
			default:
				_, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
				must(err)
			}
		}
		pageStores[k] = s
		return s
	}
	for _, l := range []struct {
		name string
		list func(s *todo.MemoryStore, po ddbkit.PageOptions) (string, int, error)
	}{
		{"ListTodos", func(s *todo.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListTodos(ctx, "alice", po)
			return p.Next, len(p.Items), err
		}},
		{"ListCategories", func(s *todo.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListCategories(ctx, "alice", po)
			return p.Next, len(p.Items), err
		}},
		{"ListUserData", func(s *todo.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListUserData(ctx, "alice", po)
			return p.Next, len(p.Items), err
		}},
		{"ListUsers", func(s *todo.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListUsers(ctx, po)
			return p.Next, len(p.Items), err
		}},
	} {
		b.Run(l.name, func(b *testing.B) {
			bench.Growth(b, func(n int) func(int) error {
				s := fill(l.name, n)
				cursor := bench.Middle(b, n, func(po ddbkit.PageOptions) (string, int, error) { return l.list(s, po) })
				return func(int) error {
					next, got, err := l.list(s, ddbkit.PageOptions{Limit: 50, Cursor: cursor})
					return wantPage(got, next != "", err)
				}
			})
		})
	}
}
