package todo_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/todo"
)

// fast is a short retry policy, so that faults without end give up quickly.
func fast(o *todo.Options) {
	o.Retry = ddbkit.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Microsecond, MaxDelay: time.Millisecond}
}

// faulty returns a DynamoStore on a fresh table behind a FaultClient, the
// FaultClient, the raw client and the table name.
func faulty(t *testing.T, opts ...func(*todo.Options)) (*todo.DynamoStore, *ddbtest.FaultClient, *dynamodb.Client, string) {
	t.Helper()
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc },
		append([]func(*todo.Options){deterministic}, opts...)...)
	return s, fc, c, table
}

// fixture is a user with a category, a second category and a todo in the
// first.
type fixture struct {
	cat, other todo.Category
	td         todo.Todo
}

func newFixture(t *testing.T, s todo.Store) fixture {
	t.Helper()
	ctx := t.Context()
	if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "a@example.com"}); err != nil {
		t.Fatal(err)
	}
	var f fixture
	var err error
	if f.cat, err = s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "c", Color: todo.ColorDark}); err != nil {
		t.Fatal(err)
	}
	if f.other, err = s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "o", Color: todo.ColorLight}); err != nil {
		t.Fatal(err)
	}
	if f.td, err = s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow, CategoryID: f.cat.ID}); err != nil {
		t.Fatal(err)
	}
	return f
}

// every returns a call of every method of s, on f.
func every(s todo.Store, ctx context.Context, f fixture) []struct {
	name string
	call func() error
} {
	return []struct {
		name string
		call func() error
	}{
		{"CreateUser", func() error { return s.CreateUser(ctx, todo.User{Username: "bob", Email: "b@example.com"}) }},
		{"GetUser", func() error { _, err := s.GetUser(ctx, "alice"); return err }},
		{"ListUsers", func() error { _, err := s.ListUsers(ctx, ddbkit.PageOptions{}); return err }},
		{"UpdateUser", func() error { return s.UpdateUser(ctx, todo.User{Username: "alice", Email: "new@example.com"}) }},
		{"DeleteUser", func() error { return s.DeleteUser(ctx, "alice") }},
		{"CreateTodo", func() error {
			_, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
			return err
		}},
		{"GetTodo", func() error { _, err := s.GetTodo(ctx, "alice", f.td.ID); return err }},
		{"ListTodos", func() error { _, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{}); return err }},
		{"UpdateTodo", func() error {
			_, err := s.UpdateTodo(ctx, "alice", f.td.ID, todo.TodoPatch{Title: ptr("x")})
			return err
		}},
		{"UpdateTodo with category", func() error {
			_, err := s.UpdateTodo(ctx, "alice", f.td.ID, todo.TodoPatch{CategoryID: ptr(f.other.ID)})
			return err
		}},
		{"ToggleTodo", func() error { _, err := s.ToggleTodo(ctx, "alice", f.td.ID); return err }},
		{"DeleteTodo", func() error { return s.DeleteTodo(ctx, "alice", f.td.ID) }},
		{"CreateCategory", func() error {
			_, err := s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "n", Color: todo.ColorDark})
			return err
		}},
		{"GetCategory", func() error { _, err := s.GetCategory(ctx, "alice", f.cat.ID); return err }},
		{"ListCategories", func() error { _, err := s.ListCategories(ctx, "alice", ddbkit.PageOptions{}); return err }},
		{"UpdateCategory", func() error {
			_, err := s.UpdateCategory(ctx, "alice", f.cat.ID, todo.CategoryPatch{Name: ptr("x")})
			return err
		}},
		{"DeleteCategory", func() error { return s.DeleteCategory(ctx, "alice", f.cat.ID) }},
		{"ListUserData", func() error { _, err := s.ListUserData(ctx, "alice", ddbkit.PageOptions{}); return err }},
	}
}

var clientOps = []string{"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "BatchGetItem",
	"BatchWriteItem", "TransactWriteItems", "TransactGetItems"}

// TestErrorContract: every operation under throttling or 5xx without end,
// and under a cancelled context, gives exactly ErrUnavailable within its
// bounded retries, keeps the SDK's error (or the context's) reachable, and
// writes nothing.
func TestErrorContract(t *testing.T) {
	for _, fault := range []ddbtest.Fault{ddbtest.Throttle, ddbtest.InternalError, 0} {
		name := "cancelled context"
		if fault != 0 {
			name = "endless " + fault.String()
		}
		t.Run(name, func(t *testing.T) {
			s, fc, c, table := faulty(t, fast)
			f := newFixture(t, s)
			before := scanAll(t, c, table)
			ctx := t.Context()
			if fault == 0 {
				cancelled, cancel := context.WithCancel(ctx)
				cancel()
				ctx = cancelled
			} else {
				for _, op := range clientOps {
					fc.Inject(op, fault, 1000)
				}
			}
			for _, call := range every(s, ctx, f) {
				err := call.call()
				ddbtest.WantSentinel(t, call.name, err, ddbkit.ErrUnavailable)
				var api smithy.APIError
				switch {
				case fault == 0 && !errors.Is(err, context.Canceled):
					t.Errorf("%s: %v does not match context.Canceled", call.name, err)
				case fault != 0 && !errors.As(err, &api):
					t.Errorf("%s: the SDK's error is not reachable in %v", call.name, err)
				}
			}
			fc.Clear()
			if after := scanAll(t, c, table); !sameItems(before, after) {
				t.Fatalf("failed calls changed the table")
			}
		})
	}
}

func sameItems(a, b map[string]map[string]types.AttributeValue) bool {
	return maps.EqualFunc(a, b, func(x, y map[string]types.AttributeValue) bool { return maps.Equal(render(x), render(y)) })
}

// TestLostResponses: every write whose call commits but whose response is
// lost succeeds, and takes effect exactly once.
func TestLostResponses(t *testing.T) {
	s, fc, c, table := faulty(t)
	ctx := t.Context()
	lose := func(op, what string, fn func() error) {
		t.Helper()
		fc.Inject(op, ddbtest.LoseResponse, 1)
		if err := fn(); err != nil {
			t.Fatalf("%s with its %s response lost: %v", what, op, err)
		}
		if fc.Injected(op) == 0 {
			t.Fatalf("%s made no %s call", what, op)
		}
		fc.Clear()
	}
	count := func() int { return len(scanAll(t, c, table)) }

	lose("TransactWriteItems", "CreateUser", func() error {
		return s.CreateUser(ctx, todo.User{Username: "alice", Email: "a@example.com"})
	})
	lose("UpdateItem", "UpdateUser", func() error {
		return s.UpdateUser(ctx, todo.User{Username: "alice", Email: "new@example.com"})
	})
	if u, _ := s.GetUser(ctx, "alice"); u.Email != "new@example.com" || count() != 1 {
		t.Fatalf("after CreateUser and UpdateUser: %+v, %d items", u, count())
	}
	var cat todo.Category
	lose("TransactWriteItems", "CreateCategory", func() (err error) {
		cat, err = s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "c", Color: todo.ColorInfo})
		return err
	})
	var td todo.Todo
	lose("TransactWriteItems", "CreateTodo", func() (err error) {
		td, err = s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow, CategoryID: cat.ID})
		return err
	})
	if n := count(); n != 3 {
		t.Fatalf("%d items after creating a user, a category and a todo, want 3", n)
	}
	check := func(what string, got todo.Todo) {
		t.Helper()
		stored, err := s.GetTodo(ctx, "alice", td.ID)
		if err != nil || stored != got {
			t.Fatalf("%s returned %+v, stored %+v, %v", what, got, stored, err)
		}
	}
	var got todo.Todo
	lose("UpdateItem", "UpdateTodo", func() (err error) {
		got, err = s.UpdateTodo(ctx, "alice", td.ID, todo.TodoPatch{Title: ptr("renamed")})
		return err
	})
	check("UpdateTodo", got)
	lose("TransactWriteItems", "UpdateTodo with a category", func() (err error) {
		got, err = s.UpdateTodo(ctx, "alice", td.ID, todo.TodoPatch{CategoryID: ptr(cat.ID), Description: ptr("d")})
		return err
	})
	check("UpdateTodo with a category", got)
	for i, want := range []bool{true, false, true} {
		lose("UpdateItem", "ToggleTodo", func() (err error) {
			got, err = s.ToggleTodo(ctx, "alice", td.ID)
			return err
		})
		if got.Completed != want {
			t.Fatalf("toggle %d with its response lost: Completed = %v, want %v (toggled once)", i, got.Completed, want)
		}
		check("ToggleTodo", got)
	}
	var gotCat todo.Category
	lose("UpdateItem", "UpdateCategory", func() (err error) {
		gotCat, err = s.UpdateCategory(ctx, "alice", cat.ID, todo.CategoryPatch{Name: ptr("n")})
		return err
	})
	if stored, _ := s.GetCategory(ctx, "alice", cat.ID); stored != gotCat {
		t.Fatalf("UpdateCategory returned %+v, stored %+v", gotCat, stored)
	}
	lose("TransactWriteItems", "DeleteCategory", func() error { return s.DeleteCategory(ctx, "alice", cat.ID) })
	if got, _ := s.GetTodo(ctx, "alice", td.ID); got.CategoryID != "" || count() != 2 {
		t.Fatalf("after DeleteCategory: todo %+v, %d items", got, count())
	}
	lose("TransactWriteItems", "DeleteTodo", func() error { return s.DeleteTodo(ctx, "alice", td.ID) })
	if n := count(); n != 1 {
		t.Fatalf("%d items after DeleteTodo, want 1", n)
	}
	if _, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow}); err != nil {
		t.Fatal(err)
	}
	lose("TransactWriteItems", "DeleteUser", func() error { return s.DeleteUser(ctx, "alice") })
	if n := count(); n != 0 {
		t.Fatalf("%d items after DeleteUser, want 0", n)
	}
}

// sdkRetry answers UpdateItem as the SDK does when a response is lost and
// it repeats the call: the first call commits, and the caller gets the
// answer of the second.
type sdkRetry struct{ ddbkit.Client }

func (c sdkRetry) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if _, err := c.Client.UpdateItem(ctx, in, optFns...); err != nil {
		return nil, err
	}
	return c.Client.UpdateItem(ctx, in, optFns...)
}

// TestToggleRecognisesItsOwnWrite: a toggle the SDK repeats after a lost
// response fails its condition on its own write, and succeeds without
// toggling again.
func TestToggleRecognisesItsOwnWrite(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	f := newFixture(t, s)
	repeated := todo.NewDynamoStore(sdkRetry{c}, deterministic, func(o *todo.Options) { o.TableName = table })
	for i, want := range []bool{true, false} {
		got, err := repeated.ToggleTodo(t.Context(), "alice", f.td.ID)
		if err != nil || got.Completed != want {
			t.Fatalf("toggle %d, repeated by the SDK = %+v, %v; want Completed %v", i, got, err, want)
		}
		if stored, _ := s.GetTodo(t.Context(), "alice", f.td.ID); stored != got {
			t.Fatalf("toggle %d returned %+v, stored %+v", i, got, stored)
		}
	}
}

// TestToggleUnknownOutcome: when a toggle's response is lost and another
// writer changes the todo before the retry, whether the toggle took effect
// cannot be known; ToggleTodo says so (ErrUnavailable) rather than toggle
// again.
func TestToggleUnknownOutcome(t *testing.T) {
	s, fc, c, table := faulty(t)
	f := newFixture(t, s)
	fc.Inject("UpdateItem", ddbtest.LoseResponse, 1)
	fc.Before("UpdateItem", func() {
		// Another writer toggles back, as the seed's app does.
		_, err := c.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(table),
			Key:                       map[string]types.AttributeValue{"pk": S("user#alice"), "sk": S("todo#" + f.td.ID)},
			UpdateExpression:          aws.String("SET completed = :c, updated_at = :u"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":c": B(false), ":u": S("2030-01-01T00:00:00Z")}})
		if err != nil {
			t.Error(err)
		}
	})
	_, err := s.ToggleTodo(t.Context(), "alice", f.td.ID)
	ddbtest.WantSentinel(t, "ToggleTodo after a lost response and a foreign write", err, ddbkit.ErrUnavailable)
	if got, _ := s.GetTodo(t.Context(), "alice", f.td.ID); got.Completed {
		t.Fatalf("the toggle was applied again: %+v", got)
	}
}

// TestIdempotencyKeyAfterLostResponses: a create whose every response is
// lost reports ErrUnavailable having written once; the caller's repeat
// under the same key writes nothing more and returns the todo the first
// call created, whether a call run again would write the same (a clock
// that stands still, a constant ID) or not (a new ID and time).
func TestIdempotencyKeyAfterLostResponses(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts func(*todo.Options)
	}{
		{"same writes", func(o *todo.Options) {
			o.Clock = func() time.Time { return start }
			o.NewID = func() string { return "fixed-id" }
		}},
		{"new ID and time", func(*todo.Options) {}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, fc, c, table := faulty(t, fast, tt.opts)
			// DynamoDB remembers tokens account-wide (DynamoDB Local:
			// instance-wide), so every run needs keys of its own.
			ctx := ddbkit.WithIdempotencyKey(t.Context(), "req-"+uuid.NewString())
			if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "a@example.com"}); err != nil {
				t.Fatal(err)
			}
			in := todo.NewTodo{Title: "t", Priority: todo.PriorityLow}
			fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 3)
			_, err := s.CreateTodo(ctx, "alice", in)
			ddbtest.WantSentinel(t, "CreateTodo with every response lost", err, ddbkit.ErrUnavailable)
			if n, records := countItems(scanAll(t, c, table)); n != 2 || records != 2 {
				t.Fatalf("%d items and %d idempotency records after a create with lost responses, want 2 and 2", n, records)
			}
			td, err := s.CreateTodo(ctx, "alice", in)
			if err != nil {
				t.Fatalf("CreateTodo repeated under its key: %v", err)
			}
			if got, err := s.GetTodo(t.Context(), "alice", td.ID); err != nil || got != td {
				t.Fatalf("the repeat returned %+v; stored: %+v, %v", td, got, err)
			}
			if n, records := countItems(scanAll(t, c, table)); n != 2 || records != 2 {
				t.Fatalf("%d items and %d idempotency records after the repeat, want 2 and 2: it wrote again", n, records)
			}
		})
	}
}

// countItems counts the items of a table, and apart the idempotency
// records among them (pk IDEMPOTENCY#...).
func countItems(items map[string]map[string]types.AttributeValue) (n, records int) {
	for _, it := range items {
		if pk, _ := it["pk"].(*types.AttributeValueMemberS); pk != nil && strings.HasPrefix(pk.Value, "IDEMPOTENCY#") {
			records++
		} else {
			n++
		}
	}
	return n, records
}

// manyTodos creates n todos of alice in category cat.
func manyTodos(t *testing.T, s todo.Store, n int, cat string) {
	t.Helper()
	for i := range n {
		if _, err := s.CreateTodo(t.Context(), "alice", todo.NewTodo{Title: fmt.Sprint(i), Priority: todo.PriorityLow, CategoryID: cat}); err != nil {
			t.Fatal(err)
		}
	}
}

// refs counts alice's todos that refer to category id, and fails t if any
// refers to a category that does not exist.
func refs(t *testing.T, s todo.Store, id string) int {
	t.Helper()
	n := 0
	for td, err := range ddbkit.All(func(c string) (ddbkit.Page[todo.Todo], error) {
		return s.ListTodos(t.Context(), "alice", ddbkit.PageOptions{Cursor: c})
	}) {
		if err != nil {
			t.Fatal(err)
		}
		if td.CategoryID == "" {
			continue
		}
		if _, err := s.GetCategory(t.Context(), "alice", td.CategoryID); err != nil {
			t.Fatalf("todo %s points at category %q: %v", td.ID, td.CategoryID, err)
		}
		if td.CategoryID == id {
			n++
		}
	}
	return n
}

// TestDeleteCategoryResumes: a DeleteCategory that fails between its
// transactions leaves the category and its remaining references; the same
// call, repeated, finishes.
func TestDeleteCategoryResumes(t *testing.T) {
	s, fc, _, _ := faulty(t, fast)
	f := newFixture(t, s)
	manyTodos(t, s, 249, f.cat.ID) // 250 references: three transactions
	fc.Before("TransactWriteItems", func() { fc.Inject("TransactWriteItems", ddbtest.InternalError, 3) })
	err := s.DeleteCategory(t.Context(), "alice", f.cat.ID)
	ddbtest.WantSentinel(t, "DeleteCategory failing after its first transaction", err, ddbkit.ErrUnavailable)
	if _, err := s.GetCategory(t.Context(), "alice", f.cat.ID); err != nil {
		t.Fatalf("the interrupted call deleted the category: %v", err)
	}
	if n := refs(t, s, f.cat.ID); n != 250-99 {
		t.Fatalf("%d references left, want %d", n, 250-99)
	}
	fc.Clear()
	if err := s.DeleteCategory(t.Context(), "alice", f.cat.ID); err != nil {
		t.Fatalf("DeleteCategory repeated: %v", err)
	}
	if n := refs(t, s, f.cat.ID); n != 0 {
		t.Fatalf("%d references left after the repeat", n)
	}
	_, err = s.GetCategory(t.Context(), "alice", f.cat.ID)
	ddbtest.WantSentinel(t, "GetCategory after DeleteCategory", err, ddbkit.ErrNotFound)
	ddbtest.WantSentinel(t, "DeleteCategory once more", s.DeleteCategory(t.Context(), "alice", f.cat.ID), ddbkit.ErrNotFound)
}

// TestDeleteCategoryClearsDanglingReferences: todos that point at a
// category that is already gone (left by an interrupted older version, or
// another writer) are cleared by DeleteCategory, which does not report
// ErrNotFound while such references remain.
func TestDeleteCategoryClearsDanglingReferences(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	f := newFixture(t, s)
	manyTodos(t, s, 3, f.cat.ID)
	if _, err := c.DeleteItem(t.Context(), &dynamodb.DeleteItemInput{TableName: aws.String(table),
		Key: map[string]types.AttributeValue{"pk": S("user#alice"), "sk": S("category#" + f.cat.ID)}}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteCategory(t.Context(), "alice", f.cat.ID); err != nil {
		t.Fatalf("DeleteCategory of a deleted category with 4 references left: %v", err)
	}
	if n := refs(t, s, f.cat.ID); n != 0 {
		t.Fatalf("%d references left", n)
	}
	ddbtest.WantSentinel(t, "DeleteCategory once more", s.DeleteCategory(t.Context(), "alice", f.cat.ID), ddbkit.ErrNotFound)
}

// TestDeleteCategoryRacingCreate: a todo created in the category between
// DeleteCategory's query and its last transaction is not left pointing at
// the deleted category.
func TestDeleteCategoryRacingCreate(t *testing.T) {
	s, fc, _, _ := faulty(t)
	f := newFixture(t, s)
	var late todo.Todo
	fc.Before("TransactWriteItems", func() {
		var err error
		late, err = s.CreateTodo(context.Background(), "alice", todo.NewTodo{Title: "late", Priority: todo.PriorityLow, CategoryID: f.cat.ID})
		if err != nil {
			t.Errorf("racing CreateTodo: %v", err)
		}
	})
	if err := s.DeleteCategory(t.Context(), "alice", f.cat.ID); err != nil {
		t.Fatalf("DeleteCategory: %v", err)
	}
	if got, err := s.GetTodo(t.Context(), "alice", late.ID); err != nil || got.CategoryID != "" {
		t.Fatalf("the racing todo = %+v, %v; want it uncategorized", got, err)
	}
	if n := refs(t, s, f.cat.ID); n != 0 {
		t.Fatalf("%d references left", n)
	}
}

// TestDeleteUserKeepsANewRegistration: a user who registers the same name
// while DeleteUser finishes keeps the new user and its data.
func TestDeleteUserKeepsANewRegistration(t *testing.T) {
	s, fc, _, _ := faulty(t)
	newFixture(t, s)
	manyTodos(t, s, 3, "")
	var fresh todo.Todo
	fc.Before("Query", func() {}) // the first query, which finds the old data
	fc.Before("Query", func() {   // the one after the transaction that deleted the user
		ctx := context.Background()
		if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "again@example.com"}); err != nil {
			t.Errorf("registering alice again: %v", err)
		}
		var err error
		if fresh, err = s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "new life", Priority: todo.PriorityHigh}); err != nil {
			t.Errorf("the new alice's todo: %v", err)
		}
	})
	if err := s.DeleteUser(t.Context(), "alice"); err != nil {
		t.Fatalf("DeleteUser: %v", err)
	}
	if u, err := s.GetUser(t.Context(), "alice"); err != nil || u.Email != "again@example.com" {
		t.Fatalf("the new alice = %+v, %v", u, err)
	}
	recs := allRecords(t, s)
	if len(recs) != 1 || recs[0].Todo == nil || *recs[0].Todo != fresh {
		t.Fatalf("the new alice's data = %+v; want only %+v", recs, fresh)
	}
}

func allRecords(t *testing.T, s todo.Store) []todo.Record {
	t.Helper()
	var out []todo.Record
	for r, err := range ddbkit.All(func(c string) (ddbkit.Page[todo.Record], error) {
		return s.ListUserData(t.Context(), "alice", ddbkit.PageOptions{Cursor: c})
	}) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestDeleteUserResumes: while DeleteUser sweeps, the user still exists, so
// its name cannot be registered again; a call that fails between its
// transactions leaves the user, and the same call, repeated, finishes.
func TestDeleteUserResumes(t *testing.T) {
	s, fc, c, table := faulty(t, fast)
	newFixture(t, s)
	manyTodos(t, s, 200, "")
	fc.Before("TransactWriteItems", func() {
		err := s.CreateUser(context.Background(), todo.User{Username: "alice", Email: "again@example.com"})
		ddbtest.WantSentinel(t, "registering alice during the sweep", err, ddbkit.ErrAlreadyExists)
		fc.Inject("TransactWriteItems", ddbtest.InternalError, 3) // the second transaction fails
	})
	err := s.DeleteUser(t.Context(), "alice")
	ddbtest.WantSentinel(t, "DeleteUser failing after its first transaction", err, ddbkit.ErrUnavailable)
	if u, err := s.GetUser(t.Context(), "alice"); err != nil || u.Email != "a@example.com" {
		t.Fatalf("after the interrupted call, alice = %+v, %v; want her still there", u, err)
	}
	if n := len(allRecords(t, s)); n != 203-99 {
		t.Fatalf("%d items left, want %d", n, 203-99)
	}
	fc.Clear()
	if err := s.DeleteUser(t.Context(), "alice"); err != nil {
		t.Fatalf("DeleteUser repeated: %v", err)
	}
	if n := len(scanAll(t, c, table)); n != 0 {
		t.Fatalf("%d items left after the repeat", n)
	}
	ddbtest.WantSentinel(t, "DeleteUser once more", s.DeleteUser(t.Context(), "alice"), ddbkit.ErrNotFound)
}

// TestUpdateTodoWithCategoryNoReadBack: UpdateTodo with a category returns
// what it committed: a read failing after the commit, or another writer
// changing the todo between its read and its transaction, does not make
// it fail or return something else.
func TestUpdateTodoWithCategoryNoReadBack(t *testing.T) {
	s, fc, c, table := faulty(t)
	f := newFixture(t, s)
	fc.Before("TransactWriteItems", func() { fc.Inject("GetItem", ddbtest.InternalError, 1000) })
	got, err := s.UpdateTodo(t.Context(), "alice", f.td.ID, todo.TodoPatch{CategoryID: ptr(f.other.ID)})
	fc.Clear()
	if err != nil {
		t.Fatalf("UpdateTodo with reads failing after its commit: %v", err)
	}
	if stored, _ := s.GetTodo(t.Context(), "alice", f.td.ID); stored != got || got.CategoryID != f.other.ID {
		t.Fatalf("UpdateTodo returned %+v, stored %+v", got, stored)
	}

	// Another writer renames the todo between the read and the
	// transaction: the update reads again, and returns both changes.
	fc.Before("TransactWriteItems", func() {
		_, err := c.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(table),
			Key:                       map[string]types.AttributeValue{"pk": S("user#alice"), "sk": S("todo#" + f.td.ID)},
			UpdateExpression:          aws.String("SET title = :t"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":t": S("renamed by the app")}})
		if err != nil {
			t.Error(err)
		}
	})
	got, err = s.UpdateTodo(t.Context(), "alice", f.td.ID, todo.TodoPatch{CategoryID: ptr(f.cat.ID), Priority: ptr(todo.PriorityHigh)})
	if err != nil || got.Title != "renamed by the app" || got.CategoryID != f.cat.ID || got.Priority != todo.PriorityHigh {
		t.Fatalf("UpdateTodo racing another writer = %+v, %v", got, err)
	}
	if stored, _ := s.GetTodo(t.Context(), "alice", f.td.ID); stored != got {
		t.Fatalf("UpdateTodo returned %+v, stored %+v", got, stored)
	}
}
