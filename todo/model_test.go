package todo_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"pgregory.net/rapid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/difftest"
	"github.com/ddbkit/ddbkit/todo"
)

// TestModel runs random sequences of every operation on the memory store
// and on DynamoDB Local side by side, and requires the same results and,
// at checkpoints, the same items (package difftest).
func TestModel(t *testing.T) {
	difftest.Check(t, modelConfig("newModelPair(t)", newModelPair))
}

// TestModelFaults is TestModel with throttling, transaction conflicts,
// 500s and lost responses injected on the DynamoDB side, which its retries
// must hide.
func TestModelFaults(t *testing.T) {
	difftest.Check(t, modelConfig("newFaultPair(t)", newFaultPair))
}

// newModelPair returns the stores a model run compares; the regression
// tests difftest prints call it too.
func newModelPair(t *testing.T) *difftest.Pair[todo.Store] { return modelPair(t, false) }

// newFaultPair is newModelPair with a fault client under the DynamoDB store.
func newFaultPair(t *testing.T) *difftest.Pair[todo.Store] { return modelPair(t, true) }

func modelPair(t *testing.T, faults bool) *difftest.Pair[todo.Store] {
	t.Helper()
	c := ddbtest.Client(t)
	table := ddbtest.NewTable(t, c, todo.CreateTableInput("todo"))
	clock := difftest.NewClock(start)
	// DynamoDB Local keeps idempotency tokens for ten minutes of real time:
	// a check's time must stay well short of that.
	clock.Step = 10 * time.Millisecond
	opts := func(ids ddbkit.IDGenerator) func(*todo.Options) {
		return func(o *todo.Options) {
			o.TableName = table
			o.Clock = clock.Now
			o.NewID = ids
			o.Retry = ddbkit.RetryPolicy{MaxAttempts: 10, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}
		}
	}
	mem := todo.NewMemoryStore(opts(ddbkit.SeededUUIDv4(7)))
	p := &difftest.Pair[todo.Store]{Mem: mem, Export: mem.Export, DB: c, Tables: []string{table}, Clock: clock}
	var client ddbkit.Client = c
	if faults {
		fc := ddbtest.NewFaultClient(c)
		p.Faults = difftest.NewFaults(fc, ddbtest.Throttle, ddbtest.TxConflict, ddbtest.InternalError, ddbtest.Unprocessed, ddbtest.LoseResponse)
		client = fc
	}
	p.Dyn = todo.NewDynamoStore(client, opts(ddbkit.SeededUUIDv4(7)))
	return p
}

// checkNonce makes each check's idempotency keys its own: DynamoDB Local
// remembers tokens across tables.
var checkNonce atomic.Int64

func modelConfig(src string, pair func(*testing.T) *difftest.Pair[todo.Store]) difftest.Config[todo.Store] {
	return difftest.Config[todo.Store]{Domain: "todo", New: pair, Source: src, Actions: modelActions}
}

// modelActions returns the actions of one check. Its model is the names and
// IDs the check has used, drawn again to make operations collide.
func modelActions(r *difftest.Run[todo.Store]) map[string]func(*rapid.T) {
	users := []string{"alice", "bob"}
	emails := []string{"a@example.com", "b@example.com"}
	var todoIDs, catIDs []string
	nonce := fmt.Sprintf("k%d-%d-", time.Now().UnixNano(), checkNonce.Add(1))

	user := func(t *rapid.T) string { return difftest.Pick(t, "user", users, difftest.Text(todo.MaxUsernameLen)) }
	keep := func(pool *[]string, v string) {
		if !slices.Contains(*pool, v) {
			*pool = append(*pool, v)
		}
	}
	ids := func(pool *[]string) *rapid.Generator[string] {
		return rapid.Custom(func(t *rapid.T) string {
			return difftest.Pick(t, "id", *pool, difftest.Text(todo.MaxIDLen))
		})
	}
	id := func(t *rapid.T, pool *[]string) string { return ids(pool).Draw(t, "id") }
	// catRef is a CategoryID: none, one of the check's, or anything.
	catRef := func(t *rapid.T) string {
		if rapid.IntRange(0, 99).Draw(t, "category?") < 40 {
			return ""
		}
		return id(t, &catIDs)
	}
	priority := rapid.Custom(func(t *rapid.T) todo.Priority {
		return difftest.Pick(t, "priority", todo.Priorities, rapid.SampledFrom([]todo.Priority{"", "urgent", "HIGH"}))
	})
	color := rapid.Custom(func(t *rapid.T) todo.Color {
		return difftest.Pick(t, "color", todo.Colors, rapid.SampledFrom([]todo.Color{"", "pink", "Primary"}))
	})
	// keyed draws the context of a transactional write: sometimes under
	// an idempotency key, from a small set so that keys repeat.
	keyed := func(t *rapid.T) context.Context {
		ctx := r.Ctx(t)
		if n := rapid.IntRange(0, 9).Draw(t, "key"); n >= 7 {
			return ddbkit.WithIdempotencyKey(ctx, fmt.Sprint(nonce, n-7))
		}
		return ctx
	}
	opt := func(t *rapid.T, label string) bool { return rapid.IntRange(0, 1).Draw(t, label) == 1 }

	return map[string]func(*rapid.T){
		"CreateUser": func(t *rapid.T) {
			u := todo.User{Username: user(t), Email: difftest.Pick(t, "email", emails, difftest.Text(todo.MaxEmailLen))}
			if difftest.Exec(r, "CreateUser", r.Ctx(t), u) == nil {
				keep(&users, u.Username)
			}
		},
		"GetUser": func(t *rapid.T) {
			difftest.Call[todo.User](r, "GetUser", r.Ctx(t), user(t))
		},
		"UpdateUser": func(t *rapid.T) {
			u := todo.User{Username: user(t), Email: difftest.Pick(t, "email", emails, difftest.Text(todo.MaxEmailLen))}
			difftest.Exec(r, "UpdateUser", r.Ctx(t), u)
		},
		"DeleteUser": func(t *rapid.T) {
			difftest.Exec(r, "DeleteUser", r.Ctx(t), user(t))
		},
		"ListUsers": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[todo.User]](r, "ListUsers", r.Ctx(t), r.PageOptions(t))
		},
		"CreateTodo": func(t *rapid.T) {
			ctx, u := keyed(t), user(t)
			in := todo.NewTodo{Title: difftest.Text(todo.MaxTitleLen).Draw(t, "title"), Priority: priority.Draw(t, "priority"),
				Completed: opt(t, "completed"), CategoryID: catRef(t)}
			if opt(t, "description?") {
				in.Description = difftest.Text(todo.MaxDescriptionLen).Draw(t, "description")
			}
			if td, err := difftest.Call[todo.Todo](r, "CreateTodo", ctx, u, in); err == nil {
				keep(&todoIDs, td.ID)
			}
		},
		"GetTodo": func(t *rapid.T) {
			difftest.Call[todo.Todo](r, "GetTodo", r.Ctx(t), user(t), id(t, &todoIDs))
		},
		"UpdateTodo": func(t *rapid.T) {
			ctx, u, tid := keyed(t), user(t), id(t, &todoIDs)
			var p todo.TodoPatch
			if opt(t, "title?") {
				p.Title = difftest.P(difftest.Text(todo.MaxTitleLen).Draw(t, "title"))
			}
			if opt(t, "description?") {
				p.Description = difftest.P(difftest.Text(todo.MaxDescriptionLen).Draw(t, "description"))
			}
			if opt(t, "priority?") {
				p.Priority = difftest.P(priority.Draw(t, "priority"))
			}
			if opt(t, "completed?") {
				p.Completed = difftest.P(opt(t, "completed"))
			}
			if opt(t, "category?") {
				p.CategoryID = difftest.P(catRef(t))
			}
			difftest.Call[todo.Todo](r, "UpdateTodo", ctx, u, tid, p)
		},
		"ToggleTodo": func(t *rapid.T) {
			difftest.Call[todo.Todo](r, "ToggleTodo", r.Ctx(t), user(t), id(t, &todoIDs))
		},
		"DeleteTodo": func(t *rapid.T) {
			difftest.Exec(r, "DeleteTodo", keyed(t), user(t), id(t, &todoIDs))
		},
		"ListTodos": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[todo.Todo]](r, "ListTodos", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"CreateCategory": func(t *rapid.T) {
			ctx, u := keyed(t), user(t)
			in := todo.NewCategory{Name: difftest.Text(todo.MaxCategoryNameLen).Draw(t, "name"), Color: color.Draw(t, "color")}
			if c, err := difftest.Call[todo.Category](r, "CreateCategory", ctx, u, in); err == nil {
				keep(&catIDs, c.ID)
			}
		},
		"GetCategory": func(t *rapid.T) {
			difftest.Call[todo.Category](r, "GetCategory", r.Ctx(t), user(t), id(t, &catIDs))
		},
		"UpdateCategory": func(t *rapid.T) {
			ctx, u, cid := r.Ctx(t), user(t), id(t, &catIDs)
			var p todo.CategoryPatch
			if opt(t, "name?") {
				p.Name = difftest.P(difftest.Text(todo.MaxCategoryNameLen).Draw(t, "name"))
			}
			if opt(t, "color?") {
				p.Color = difftest.P(color.Draw(t, "color"))
			}
			difftest.Call[todo.Category](r, "UpdateCategory", ctx, u, cid, p)
		},
		"DeleteCategory": func(t *rapid.T) {
			difftest.Exec(r, "DeleteCategory", r.Ctx(t), user(t), id(t, &catIDs))
		},
		"ListCategories": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[todo.Category]](r, "ListCategories", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"ListUserData": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[todo.Record]](r, "ListUserData", r.Ctx(t), user(t), r.PageOptions(t))
		},
		// Another writer, as the seed's app writes: attributes missing,
		// other time formats, kinds this package does not know. The memory
		// store imports what DynamoDB gets put raw.
		"ForeignPut": func(t *rapid.T) {
			item := foreignItem(t, users, &todoIDs, &catIDs)
			difftest.Do(r, "foreignPut(p, s, "+difftest.GoSource(item)+")", func(s todo.Store) (struct{}, error) {
				return foreignPut(r.Pair, s, item)
			})
		},
	}
}

// foreignItem draws an item as another writer of the table writes it.
func foreignItem(t *rapid.T, users []string, todoIDs, catIDs *[]string) map[string]types.AttributeValue {
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	username := rapid.SampledFrom(users).Draw(t, "foreign user")
	stamp := rapid.SampledFrom([]string{"2024-01-05T10:00:00Z", "2024-01-05T19:00:00+09:00",
		"2024-01-05T10:00:00.123456Z", "2024-01-01T00:00:00.000Z", ""}).Draw(t, "foreign time")
	item := map[string]types.AttributeValue{}
	set := func(name string, v types.AttributeValue) {
		if rapid.IntRange(0, 3).Draw(t, name+"?") > 0 { // mostly there
			item[name] = v
		}
	}
	id := rapid.SampledFrom(append(slices.Clone(*todoIDs), "t1", "t2")).Draw(t, "foreign id")
	switch kind := rapid.IntRange(0, 3).Draw(t, "foreign kind"); kind {
	case 0:
		item["pk"], item["sk"] = str("user#"+username), str("todo#"+id)
		set("id", str(id))
		set("entity_type", str("todo"))
		set("title", str(rapid.SampledFrom([]string{"牛乳を買う", "散歩"}).Draw(t, "foreign title")))
		set("priority", str(rapid.SampledFrom([]string{"high", "low", "someday"}).Draw(t, "foreign priority")))
		set("completed", &types.AttributeValueMemberBOOL{Value: rapid.Bool().Draw(t, "foreign completed")})
		if len(*catIDs) > 0 {
			set("category_id", str(rapid.SampledFrom(*catIDs).Draw(t, "foreign category")))
		}
		if stamp != "" {
			set("created_at", str(stamp))
			set("updated_at", str(stamp))
		}
		if !slices.Contains(*todoIDs, id) {
			*todoIDs = append(*todoIDs, id)
		}
	case 1:
		cid := rapid.SampledFrom(append(slices.Clone(*catIDs), "c1")).Draw(t, "foreign category id")
		item["pk"], item["sk"] = str("user#"+username), str("category#"+cid)
		set("name", str("家"))
		set("color", str(rapid.SampledFrom([]string{"success", "pink"}).Draw(t, "foreign color")))
		if stamp != "" {
			set("created_at", str(stamp))
		}
		if !slices.Contains(*catIDs, cid) {
			*catIDs = append(*catIDs, cid)
		}
	case 2:
		item["pk"], item["sk"] = str("users"), str(username)
		set("username", str(username))
		item["email"] = str(username + "@example.com")
	default:
		item["pk"], item["sk"] = str("user#"+username), str("note#"+id)
		item["text"] = str("メモ")
	}
	return item
}

// foreignPut writes item as another program would: raw with PutItem on
// DynamoDB (without faults), by Import into the memory store.
func foreignPut(p *difftest.Pair[todo.Store], s todo.Store, item map[string]types.AttributeValue) (struct{}, error) {
	if mem, ok := s.(*todo.MemoryStore); ok {
		return struct{}{}, mem.Import(ddbkit.TableItems{p.Tables[0]: {item}})
	}
	_, err := p.DB.(*dynamodb.Client).PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(p.Tables[0]), Item: item})
	return struct{}{}, err
}

// The divergences the model runs found, as difftest printed them once
// shrunk (with idempotency keys made unique, as DynamoDB Local remembers
// them across tables).

// DynamoStore's error for a canceled context named the SDK operation the
// context stopped; the memory store's did not.
func TestModelRegressionCanceledContext(t *testing.T) {
	p := newModelPair(t)
	difftest.SameErr(t, p, func(s todo.Store) error {
		return s.UpdateUser(difftest.Canceled(), todo.User{Username: "bob", Email: "a@example.com"})
	})
}

// DynamoStore's error for an idempotency key reused for other writes
// carried DynamoDB's message and request ID; the memory store's did not.
func TestModelRegressionKeyReused(t *testing.T) {
	ctx := t.Context()
	p := newModelPair(t)
	key := ddbtest.UniqueName("k")
	difftest.SameErr(t, p, func(s todo.Store) error {
		return s.CreateUser(ctx, todo.User{Username: "bob", Email: "a@example.com"})
	})
	difftest.Same(t, p, func(s todo.Store) (todo.Category, error) {
		return s.CreateCategory(ddbkit.WithIdempotencyKey(ctx, key), "bob", todo.NewCategory{Name: "a", Color: "primary"})
	})
	difftest.Same(t, p, func(s todo.Store) (todo.Category, error) {
		return s.CreateCategory(ddbkit.WithIdempotencyKey(ctx, key), "alice", todo.NewCategory{Name: "a", Color: "primary"})
	})
}

// DynamoStore's DeleteTodo, repeated after a 500 that wrote nothing,
// reported a todo that never existed as deleted: its DeleteItem could not
// tell that 500 from a lost response.
func TestModelRegressionDeleteAfter500(t *testing.T) {
	ctx := t.Context()
	p := newFaultPair(t)
	p.Faults.Next("InternalError")
	difftest.SameErr(t, p, func(s todo.Store) error { return s.DeleteTodo(ctx, "alice", "a") })
}

// The memory store's DeleteTodo described its writes, for the token of an
// idempotency key, without the todo's key: a key that deleted one todo
// then replayed as success for another, where DynamoDB refuses it.
func TestModelRegressionDeleteTodoKeyReused(t *testing.T) {
	ctx := t.Context()
	p := newModelPair(t)
	key := ddbtest.UniqueName("k")
	difftest.Same(t, p, func(s todo.Store) (struct{}, error) {
		return foreignPut(p, s, map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "user#bob"}, "sk": &types.AttributeValueMemberS{Value: "todo#t1"}})
	})
	difftest.SameErr(t, p, func(s todo.Store) error { return s.DeleteTodo(ddbkit.WithIdempotencyKey(ctx, key), "bob", "t1") })
	difftest.SameErr(t, p, func(s todo.Store) error { return s.DeleteTodo(ddbkit.WithIdempotencyKey(ctx, key), "alice", "t1") })
}
