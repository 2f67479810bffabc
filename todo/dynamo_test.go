package todo_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/schema"
	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/todo/todotest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// newDynamo returns a DynamoStore on a fresh table, talking to DynamoDB Local
// through wrap (the raw client when wrap is nil), and the raw client.
func newDynamo(t *testing.T, wrap func(ddbkit.Client) ddbkit.Client, opts ...func(*todo.Options)) (*todo.DynamoStore, *dynamodb.Client, string) {
	t.Helper()
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, todo.CreateTableInput("todo"))
	var client ddbkit.Client = c
	if wrap != nil {
		client = wrap(c)
	}
	opts = append(opts, func(o *todo.Options) { o.TableName = name })
	return todo.NewDynamoStore(client, opts...), c, name
}

// TestDynamoStore runs the conformance suite on DynamoDB Local, recording
// the IAM grants of every call (iam.json).
func TestDynamoStore(t *testing.T) {
	iamPart(t)
	todotest.Run(t, func(t *testing.T, opts ...func(*todo.Options)) todo.Store {
		s, _, _ := newDynamo(t, iamRec.Wrap, opts...)
		return s
	})
}

var start = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func deterministic(o *todo.Options) {
	o.Clock = ddbkit.StepClock(start, time.Second)
	o.NewID = ddbkit.SeededUUIDv4(7)
}

func rawItem(t *testing.T, c *dynamodb.Client, table, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}}})
	if err != nil {
		t.Fatalf("GetItem(%s, %s): %v", pk, sk, err)
	}
	return out.Item
}

func S(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func B(v bool) types.AttributeValue   { return &types.AttributeValueMemberBOOL{Value: v} }

// render shows each attribute as type:value, so a comparison checks types
// as well as values.
func render(item map[string]types.AttributeValue) map[string]string {
	out := make(map[string]string, len(item))
	for k, v := range item {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			out[k] = "S:" + v.Value
		case *types.AttributeValueMemberN:
			out[k] = "N:" + v.Value
		case *types.AttributeValueMemberBOOL:
			out[k] = fmt.Sprint("BOOL:", v.Value)
		default:
			out[k] = fmt.Sprintf("%T", v)
		}
	}
	return out
}

func checkItem(t *testing.T, got, want map[string]types.AttributeValue) {
	t.Helper()
	if g, w := render(got), render(want); !maps.Equal(g, w) {
		t.Fatalf("raw item:\n got %v\nwant %v", g, w)
	}
}

// TestRawLayout reads back what the DynamoDB store wrote and compares it,
// attribute by attribute and type by type, with the seed's layouts.
func TestRawLayout(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	if err := s.CreateUser(ctx, todo.User{Username: "testuser", Email: "test@example.com"}); err != nil {
		t.Fatal(err)
	}
	checkItem(t, rawItem(t, c, table, "users", "testuser"), map[string]types.AttributeValue{
		"pk": S("users"), "sk": S("testuser"), "username": S("testuser"), "email": S("test@example.com"),
	})

	cat, err := s.CreateCategory(ctx, "testuser", todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary})
	if err != nil {
		t.Fatal(err)
	}
	checkItem(t, rawItem(t, c, table, "user#testuser", "category#"+cat.ID), map[string]types.AttributeValue{
		"pk": S("user#testuser"), "sk": S("category#" + cat.ID), "id": S(cat.ID), "entity_type": S("category"),
		"name": S("仕事"), "color": S("primary"),
		"created_at": S("2024-01-01T00:00:00.000Z"), "updated_at": S("2024-01-01T00:00:00.000Z"),
	})

	td, err := s.CreateTodo(ctx, "testuser", todo.NewTodo{Title: "プロジェクトの企画書作成", Description: "",
		Priority: todo.PriorityHigh, CategoryID: cat.ID})
	if err != nil {
		t.Fatal(err)
	}
	wantTodo := map[string]types.AttributeValue{
		"pk": S("user#testuser"), "sk": S("todo#" + td.ID), "id": S(td.ID), "entity_type": S("todo"),
		"title": S("プロジェクトの企画書作成"), "description": S(""), "priority": S("high"), "completed": B(false),
		"category_id": S(cat.ID), "created_at": S("2024-01-01T00:00:01.000Z"), "updated_at": S("2024-01-01T00:00:01.000Z"),
	}
	checkItem(t, rawItem(t, c, table, "user#testuser", "todo#"+td.ID), wantTodo)

	if _, err := s.ToggleTodo(ctx, "testuser", td.ID); err != nil {
		t.Fatal(err)
	}
	wantTodo["completed"], wantTodo["updated_at"] = B(true), S("2024-01-01T00:00:02.000Z")
	checkItem(t, rawItem(t, c, table, "user#testuser", "todo#"+td.ID), wantTodo)

	if _, err := s.UpdateTodo(ctx, "testuser", td.ID, todo.TodoPatch{Priority: ptr(todo.PriorityLow)}); err != nil {
		t.Fatal(err)
	}
	wantTodo["priority"], wantTodo["updated_at"] = S("low"), S("2024-01-01T00:00:03.000Z")
	checkItem(t, rawItem(t, c, table, "user#testuser", "todo#"+td.ID), wantTodo)

	if err := s.DeleteCategory(ctx, "testuser", cat.ID); err != nil {
		t.Fatal(err)
	}
	if it := rawItem(t, c, table, "user#testuser", "category#"+cat.ID); it != nil {
		t.Fatalf("category item still there: %v", it)
	}
	wantTodo["category_id"], wantTodo["updated_at"] = S(""), S("2024-01-01T00:00:04.000Z")
	checkItem(t, rawItem(t, c, table, "user#testuser", "todo#"+td.ID), wantTodo)
}

func ptr[T any](v T) *T { return &v }

// TestRoundTrips pins the number of DynamoDB calls of each access pattern.
func TestRoundTrips(t *testing.T) {
	var cc *ddbtest.CountingClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCountingClient(c); return cc }, deterministic)
	ctx := t.Context()
	step := func(name string, want map[string]int, fn func() error) {
		t.Helper()
		cc.Reset()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := cc.Counts(); !maps.Equal(got, want) {
			t.Fatalf("%s: calls %v, want %v", name, got, want)
		}
	}
	step("CreateUser", map[string]int{"TransactWriteItems": 1}, func() error {
		return s.CreateUser(ctx, todo.User{Username: "alice", Email: "a@example.com"})
	})
	var cat todo.Category
	step("CreateCategory", map[string]int{"TransactWriteItems": 1}, func() (err error) {
		cat, err = s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "c", Color: todo.ColorInfo})
		return err
	})
	var ids []string
	for range 7 {
		step("CreateTodo", map[string]int{"TransactWriteItems": 1}, func() error {
			td, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow, CategoryID: cat.ID})
			ids = append(ids, td.ID)
			return err
		})
	}
	step("GetTodo", map[string]int{"GetItem": 1}, func() error { _, err := s.GetTodo(ctx, "alice", ids[0]); return err })
	step("UpdateTodo", map[string]int{"UpdateItem": 1}, func() error {
		_, err := s.UpdateTodo(ctx, "alice", ids[0], todo.TodoPatch{Title: ptr("x")})
		return err
	})
	// Read first, then one transaction; no read-back after the commit.
	step("UpdateTodo with category", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		_, err := s.UpdateTodo(ctx, "alice", ids[0], todo.TodoPatch{CategoryID: ptr(cat.ID)})
		return err
	})
	step("ToggleTodo", map[string]int{"GetItem": 1, "UpdateItem": 1}, func() error { _, err := s.ToggleTodo(ctx, "alice", ids[0]); return err })
	step("all user data is one Query", map[string]int{"Query": 1}, func() error {
		p, err := s.ListUserData(ctx, "alice", ddbkit.PageOptions{})
		if err == nil && len(p.Items) != 8 {
			t.Fatalf("ListUserData: %d records, want 8", len(p.Items))
		}
		return err
	})
	step("three pages of todos are three Queries", map[string]int{"Query": 3}, func() error {
		c := ""
		for range 3 {
			p, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 3, Cursor: c})
			if err != nil {
				return err
			}
			c = p.Next
		}
		if c != "" {
			t.Fatalf("a fourth page was announced")
		}
		return nil
	})
	// One query for the references, one transaction that clears them and
	// deletes the category, one query that finds none left.
	step("DeleteCategory with 7 references", map[string]int{"Query": 2, "TransactWriteItems": 1}, func() error {
		return s.DeleteCategory(ctx, "alice", cat.ID)
	})
	// Likewise: the data and the user in one transaction, then a query
	// that finds nothing left.
	step("DeleteUser with 7 todos", map[string]int{"Query": 2, "TransactWriteItems": 1}, func() error {
		return s.DeleteUser(ctx, "alice")
	})
}

// TestFaults covers what DynamoDB Local never does by itself: conflicts
// and throttling.
func TestFaults(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	ctx := t.Context()
	if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "a@example.com"}); err != nil {
		t.Fatal(err)
	}

	// A conflict is retried (with the same token); conflicts without end
	// give ErrConflict after the bounded attempts, and write nothing.
	fc.Inject("TransactWriteItems", ddbtest.TxConflict, 100)
	_, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
	ddbtest.WantSentinel(t, "CreateTodo under endless transaction conflicts", err, ddbkit.ErrConflict)
	if got := fc.Injected("TransactWriteItems"); got != ddbkit.DefaultMaxAttempts {
		t.Fatalf("CreateTodo made %d attempts under endless conflicts, want %d", got, ddbkit.DefaultMaxAttempts)
	}
	fc.Clear()
	if p, _ := s.ListUserData(ctx, "alice", ddbkit.PageOptions{}); len(p.Items) != 0 {
		t.Fatalf("a cancelled create wrote %d items", len(p.Items))
	}

	fc.Inject("TransactWriteItems", ddbtest.TxConflict, 1)
	td, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
	if err != nil {
		t.Fatalf("CreateTodo through one conflict: %v", err)
	}
	fc.Inject("UpdateItem", ddbtest.Throttle, 2)
	got, err := s.ToggleTodo(ctx, "alice", td.ID)
	if err != nil || !got.Completed || fc.Injected("UpdateItem") != 2 {
		t.Fatalf("ToggleTodo through 2 throttles = %+v, %v (%d injected); want it retried to success", got, err, fc.Injected("UpdateItem"))
	}

	fc.Inject("UpdateItem", ddbtest.Throttle, 100)
	_, err = s.ToggleTodo(ctx, "alice", td.ID)
	ddbtest.WantSentinel(t, "ToggleTodo under endless throttling", err, ddbkit.ErrUnavailable)
	if got := fc.Injected("UpdateItem"); got != 2+ddbkit.DefaultMaxAttempts {
		t.Fatalf("ToggleTodo under endless throttling made %d calls, want %d (bounded)", got-2, ddbkit.DefaultMaxAttempts)
	}
	fc.Clear()
	if got, _ := s.GetTodo(ctx, "alice", td.ID); !got.Completed {
		t.Fatalf("a failed toggle changed the todo")
	}
	s2, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	if err := s2.CreateUser(ctx, todo.User{Username: "bob", Email: "b@example.com"}); err != nil {
		t.Fatal(err)
	}
	cat, err := s2.CreateCategory(ctx, "bob", todo.NewCategory{Name: "c", Color: todo.ColorDark})
	if err != nil {
		t.Fatal(err)
	}
	for range 30 {
		if _, err := s2.CreateTodo(ctx, "bob", todo.NewTodo{Title: "t", Priority: todo.PriorityLow, CategoryID: cat.ID}); err != nil {
			t.Fatal(err)
		}
	}
	fc.Inject("TransactWriteItems", ddbtest.TxConflict, 2)
	if err := s2.DeleteCategory(ctx, "bob", cat.ID); err != nil {
		t.Fatalf("DeleteCategory through 2 conflicts: %v", err)
	}
	for td, err := range ddbkit.All(func(c string) (ddbkit.Page[todo.Todo], error) {
		return s2.ListTodos(ctx, "bob", ddbkit.PageOptions{Cursor: c})
	}) {
		if err != nil || td.CategoryID != "" {
			t.Fatalf("after DeleteCategory: %+v, %v; want uncategorized", td, err)
		}
	}

	fc.Inject("TransactWriteItems", ddbtest.TxConflict, 2)
	if err := s2.DeleteUser(ctx, "bob"); err != nil {
		t.Fatalf("DeleteUser through 2 conflicts: %v", err)
	}
	if p, _ := s2.ListUserData(ctx, "bob", ddbkit.PageOptions{}); len(p.Items) != 0 {
		t.Fatalf("DeleteUser left %d items", len(p.Items))
	}
}

func TestEnsureTable(t *testing.T) {
	c := ddbtest.Client(t)
	name := ddbtest.UniqueName("ensure")
	t.Cleanup(func() { c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}) })
	// Plan only: the change is reported, and nothing is created.
	changes, err := todo.EnsureTable(t.Context(), c, name, schema.PlanOnly)
	if err != nil || len(changes) != 1 || changes[0].Action != "create table" {
		t.Fatalf("EnsureTable plan only = %v, %v; want one change, create table", changes, err)
	}
	if _, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err == nil {
		t.Fatalf("EnsureTable in plan-only mode created the table")
	}
	changes, err = todo.EnsureTable(t.Context(), c, name)
	if err != nil || len(changes) != 1 || changes[0].Action != "create table" {
		t.Fatalf("EnsureTable on no table = %v, %v; want one change, create table", changes, err)
	}
	// Idempotent: the second call finds the table as defined.
	if changes, err := todo.EnsureTable(t.Context(), c, name); err != nil || len(changes) != 0 {
		t.Fatalf("EnsureTable again = %v, %v; want no change", changes, err)
	}
	out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	d := out.Table
	if d.TableStatus != types.TableStatusActive {
		t.Fatalf("status %s, want ACTIVE", d.TableStatus)
	}
	if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Fatalf("billing %+v, want PAY_PER_REQUEST", d.BillingModeSummary)
	}
	want := []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}}
	if !slices.EqualFunc(d.KeySchema, want, func(a, b types.KeySchemaElement) bool {
		return aws.ToString(a.AttributeName) == aws.ToString(b.AttributeName) && a.KeyType == b.KeyType
	}) {
		t.Fatalf("key schema %v, want pk HASH, sk RANGE", d.KeySchema)
	}
}

// TestEnsureTableMismatch: a table of that name with other keys is not the
// seed's table; EnsureTable says so and changes nothing.
func TestEnsureTableMismatch(t *testing.T) {
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, &dynamodb.CreateTableInput{
		TableName:            aws.String("todo-other"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	changes, err := todo.EnsureTable(t.Context(), c, name)
	ddbtest.WantSentinel(t, "EnsureTable on a table with other keys", err, ddbkit.ErrSchemaMismatch)
	var sm *ddbkit.SchemaMismatchError
	if !errors.As(err, &sm) || len(sm.Diffs) == 0 || len(changes) != 0 || !strings.HasPrefix(err.Error(), "todo: ") {
		t.Fatalf("EnsureTable = %v, %v; want a *ddbkit.SchemaMismatchError and no change", changes, err)
	}
}

func TestTableName(t *testing.T) {
	t.Setenv("DYNAMODB_TABLE", "")
	if got := todo.TableName(); got != "wambda-table-ssr001" {
		t.Fatalf("default table name %q", got)
	}
	t.Setenv("DYNAMODB_TABLE", "custom")
	if got := todo.TableName(); got != "custom" {
		t.Fatalf("DYNAMODB_TABLE ignored: %q", got)
	}
}

// TestBadInputWritesNothingRaw sends bad input through the DynamoDB store and
// then reads the whole table raw: only the items written before remain,
// unchanged.
func TestBadInputWritesNothingRaw(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "a@example.com"}); err != nil {
		t.Fatal(err)
	}
	cat, err := s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "c", Color: todo.ColorDark})
	if err != nil {
		t.Fatal(err)
	}
	td, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "keep", Priority: todo.PriorityLow, CategoryID: cat.ID})
	if err != nil {
		t.Fatal(err)
	}
	before := scanAll(t, c, table)

	title := strings.Repeat("長", todo.MaxTitleLen+1)
	bad := []error{
		s.CreateUser(ctx, todo.User{Username: "a#b", Email: "x@example.com"}),
		s.CreateUser(ctx, todo.User{Username: "carol", Email: "carol"}),
		s.UpdateUser(ctx, todo.User{Username: "alice", Email: ""}),
		second(s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "", Priority: todo.PriorityLow})),
		second(s.CreateTodo(ctx, "alice", todo.NewTodo{Title: title, Priority: todo.PriorityLow})),
		second(s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: "urgent"})),
		second(s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow, CategoryID: "missing"})),
		second(s.CreateTodo(ctx, "nobody", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})),
		second(s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "c", Color: "purple"})),
		second(s.UpdateTodo(ctx, "alice", td.ID, todo.TodoPatch{Title: ptr("x"), CategoryID: ptr("missing")})),
		second(s.UpdateTodo(ctx, "alice", td.ID, todo.TodoPatch{Title: ptr(title)})),
		second(s.UpdateCategory(ctx, "alice", cat.ID, todo.CategoryPatch{Color: ptr(todo.Color("PRIMARY"))})),
		second(s.ListTodos(ctx, "alice", ddbkit.PageOptions{Cursor: "tampered"})),
	}
	for i, err := range bad {
		if err == nil {
			t.Fatalf("bad input %d was accepted", i)
		}
	}
	after := scanAll(t, c, table)
	if len(after) != len(before) {
		t.Fatalf("table holds %d items after bad input, %d before", len(after), len(before))
	}
	for k, v := range before {
		if !maps.Equal(render(after[k]), render(v)) {
			t.Fatalf("item %s changed:\n got %v\nwant %v", k, render(after[k]), render(v))
		}
	}
}

func second[T any](_ T, err error) error { return err }

// scanAll reads every item of a test table, keyed by pk and sk. Only tests
// scan; the library never does.
func scanAll(t *testing.T, c *dynamodb.Client, table string) map[string]map[string]types.AttributeValue {
	t.Helper()
	out := map[string]map[string]types.AttributeValue{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			r := render(it)
			out[r["pk"]+" "+r["sk"]] = it
		}
	}
	return out
}

// TestCursorSecret: with a cursor secret, a cursor only passes a store that
// holds the same secret, even on the same table and listing.
func TestCursorSecret(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic, func(o *todo.Options) { o.CursorSecret = []byte("secret A, 16 bytes at least") })
	ctx := t.Context()
	if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "a@example.com"}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow}); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 1})
	if err != nil || p.Next == "" {
		t.Fatalf("ListTodos = %+v, %v", p, err)
	}
	same := todo.NewDynamoStore(c, func(o *todo.Options) { o.TableName = table; o.CursorSecret = []byte("secret A, 16 bytes at least") })
	if _, err := same.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 1, Cursor: p.Next}); err != nil {
		t.Fatalf("a cursor on a store with the same secret: %v", err)
	}
	for name, o := range map[string]func(*todo.Options){
		"another secret": func(o *todo.Options) { o.TableName = table; o.CursorSecret = []byte("secret B, 16 bytes at least") },
		"no secret":      func(o *todo.Options) { o.TableName = table },
	} {
		other := todo.NewDynamoStore(c, o)
		_, err := other.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 1, Cursor: p.Next})
		ddbtest.WantSentinel(t, "a cursor on a store with "+name, err, ddbkit.ErrInvalidCursor)
	}
}

// TestIdempotencyKeyAcrossStores: a write repeated under its idempotency
// key by a second DynamoStore on the same table (another process, with a
// clock and IDs of its own) returns the first call's result: the
// idempotency record in the table remembers it, not the store. A toggle
// repeated so is not applied twice.
func TestIdempotencyKeyAcrossStores(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	// Its clock an hour later (within the key's window), its IDs random.
	second := todo.NewDynamoStore(c, func(o *todo.Options) {
		o.TableName = table
		o.Clock = ddbkit.StepClock(start.Add(time.Hour), time.Second)
	})
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "req-"+uuid.NewString())
	if err := s.CreateUser(t.Context(), todo.User{Username: "alice", Email: "a@example.com"}); err != nil {
		t.Fatal(err)
	}
	in := todo.NewTodo{Title: "once", Priority: todo.PriorityLow}
	first, err := s.CreateTodo(ctx, "alice", in)
	if err != nil {
		t.Fatal(err)
	}
	again, err := second.CreateTodo(ctx, "alice", in)
	if err != nil || again != first {
		t.Fatalf("CreateTodo repeated by a second store = %+v, %v; want %+v (ID %s)", again, err, first, first.ID)
	}
	toggled, err := s.ToggleTodo(ctx, "alice", first.ID)
	if err != nil || !toggled.Completed {
		t.Fatalf("ToggleTodo = %+v, %v", toggled, err)
	}
	if again, err := second.ToggleTodo(ctx, "alice", first.ID); err != nil || again != toggled {
		t.Fatalf("ToggleTodo repeated by a second store = %+v, %v; want %+v", again, err, toggled)
	}
	if n, records := countItems(scanAll(t, c, table)); n != 2 || records != 2 {
		t.Fatalf("%d items and %d idempotency records, want the user and one todo, and one record per operation", n, records)
	}
}
