package todo_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
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

// capacityCase is an access pattern and what it costs.
type capacityCase struct {
	name  string
	call  func() error
	want  ddbtest.Capacity // outside transactions
	tx    []float64        // the service's price of each transaction
	calls int              // the DynamoDB calls it makes
}

// service is c's price on the service: its capacity outside transactions
// and the service's price of its transactions.
func (c capacityCase) service() ddbtest.Capacity {
	s := c.want
	for _, u := range c.tx {
		s.Write += u
	}
	return s
}

// local is what DynamoDB Local reports for c.
func (c capacityCase) local() ddbtest.Capacity {
	l := c.want
	l.Write += localTx * float64(len(c.tx))
	return l
}

// capacityCases fills s, a fresh store built with the deterministic
// options, with TestCapacity's data and returns its cases, to run in
// order; items returns every item the store's table holds, for their
// sizes. The items are the seed's examples (a todo of about 370 bytes, a
// category of about 130), all under 1 KB, so each single-item call costs
// one unit, and what the budgets show is the design: which reads are
// strong, which writes are transactions, how many items a listing reads.
func capacityCases(t *testing.T, s todo.Store, items func() []map[string]types.AttributeValue) []capacityCase {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// partition returns the sizes of a partition's items, in key order.
	partition := func(pk string) []int {
		t.Helper()
		type kv struct {
			sk   string
			size int
		}
		var in []kv
		for _, it := range items() {
			if it["pk"].(*types.AttributeValueMemberS).Value == pk {
				in = append(in, kv{it["sk"].(*types.AttributeValueMemberS).Value, itemSize(it)})
			}
		}
		slices.SortFunc(in, func(a, b kv) int { return strings.Compare(a.sk, b.sk) })
		var out []int
		for _, x := range in {
			out = append(out, x.size)
		}
		return out
	}
	// size reads an item's stored size.
	size := func(pk, sk string) int {
		t.Helper()
		for _, it := range items() {
			if it["pk"].(*types.AttributeValueMemberS).Value == pk && it["sk"].(*types.AttributeValueMemberS).Value == sk {
				return itemSize(it)
			}
		}
		t.Fatalf("size of %s/%s: no such item", pk, sk)
		return 0
	}
	total := func(sizes []int) int {
		n := 0
		for _, s := range sizes {
			n += s
		}
		return n
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
	return []capacityCase{
		// Strongly consistent reads: the store shows its own writes, as
		// the memory store does.
		{"GetUser", func() error { _, err := s.GetUser(ctx, "alice"); return err },
			ddbtest.Capacity{Read: strongRead(userSize)}, nil, 1},
		{"GetTodo", func() error { _, err := s.GetTodo(ctx, "alice", todos[0].ID); return err },
			ddbtest.Capacity{Read: strongRead(todoSize)}, nil, 1},
		{"GetCategory", func() error { _, err := s.GetCategory(ctx, "alice", cats[0].ID); return err },
			ddbtest.Capacity{Read: strongRead(catSize)}, nil, 1},
		{"ListUsers page", func() error {
			_, err := s.ListUsers(ctx, ddbkit.PageOptions{Limit: page})
			return err
		}, ddbtest.Capacity{Read: strongRead(total(partition("users")[:page+1]))}, nil, 1},
		{"ListTodos page", func() error {
			_, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: page})
			return err
		}, ddbtest.Capacity{Read: strongRead(sum(page+1, todoSize))}, nil, 1},
		{"ListCategories page", func() error {
			_, err := s.ListCategories(ctx, "alice", ddbkit.PageOptions{Limit: page})
			return err
		}, ddbtest.Capacity{Read: strongRead(sum(page+1, catSize))}, nil, 1},
		{"ListUserData page", func() error {
			_, err := s.ListUserData(ctx, "alice", ddbkit.PageOptions{Limit: page})
			return err
		}, ddbtest.Capacity{Read: strongRead(sum(page+1, catSize))}, nil, 1}, // the first 51 items are categories

		// Single writes.
		// CreateUser is a transaction of one put, for the token that tells
		// its own write after a lost response.
		{"CreateUser", func() error { return s.CreateUser(ctx, todo.User{Username: "carol", Email: "test@example.com"}) },
			ddbtest.Capacity{}, []float64{txWrite(userSize)}, 1},
		{"UpdateUser", func() error { return s.UpdateUser(ctx, todo.User{Username: "alice", Email: "new@example.com"}) },
			ddbtest.Capacity{Write: write(userSize)}, nil, 1},
		{"UpdateTodo", func() error {
			_, err := s.UpdateTodo(ctx, "alice", todos[1].ID, todo.TodoPatch{Title: &title})
			return err
		}, ddbtest.Capacity{Write: write(todoSize)}, nil, 1},
		{"UpdateCategory", func() error {
			_, err := s.UpdateCategory(ctx, "alice", cats[1].ID, todo.CategoryPatch{Name: &title})
			return err
		}, ddbtest.Capacity{Write: write(catSize)}, nil, 1},
		// Read-modify-writes: the read is eventually consistent, since the
		// write is conditioned on the values it read.
		{"ToggleTodo", func() error { _, err := s.ToggleTodo(ctx, "alice", todos[2].ID); return err },
			ddbtest.Capacity{Read: eventualRead(todoSize), Write: write(todoSize)}, nil, 2},
		{"UpdateTodo with a category", func() error {
			_, err := s.UpdateTodo(ctx, "alice", todos[3].ID, todo.TodoPatch{CategoryID: &newCat})
			return err
		}, ddbtest.Capacity{Read: eventualRead(todoSize)}, []float64{txWrite(catSize, todoSize)}, 2},

		// Transactions: the checks of the user and category, and the
		// idempotency token.
		{"CreateTodo", func() error { _, err := s.CreateTodo(ctx, "alice", in); return err },
			ddbtest.Capacity{}, []float64{txWrite(userSize, todoSize)}, 1},
		{"CreateTodo in a category", func() error {
			in := in
			in.CategoryID = cats[0].ID
			_, err := s.CreateTodo(ctx, "alice", in)
			return err
		}, ddbtest.Capacity{}, []float64{txWrite(userSize, catSize, todoSize)}, 1},
		{"CreateCategory", func() error {
			_, err := s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "仕事", Color: todo.ColorPrimary})
			return err
		}, ddbtest.Capacity{}, []float64{txWrite(userSize, catSize)}, 1},
		{"DeleteTodo", func() error { return s.DeleteTodo(ctx, "alice", todos[59].ID) },
			ddbtest.Capacity{}, []float64{txWrite(todoSize)}, 1},

		// Sweeps: a strongly consistent query (all of the user's todos,
		// filtered on category_id, for DeleteCategory; the whole partition
		// for DeleteUser), one transaction, and the query that finds
		// nothing left.
		{"DeleteCategory with 10 todos", func() error { return s.DeleteCategory(ctx, "alice", cats[0].ID) },
			ddbtest.Capacity{Read: 2 * strongRead(sum(61, todoSize))},
			[]float64{txWrite(append([]int{catSize}, slices.Repeat([]int{todoSize}, 10)...)...)}, 3},
		{"DeleteUser with 4 items", func() error { return s.DeleteUser(ctx, "bob") },
			ddbtest.Capacity{Read: strongRead(total(partition("user#bob"))) + strongRead(0)},
			[]float64{txWrite(userSize, size("user#bob", "category#"+bobCat.ID), todoSize, todoSize, todoSize)}, 3},
	}
}

// TestCapacity holds each access pattern of the package doc to the capacity
// its design needs, measured on DynamoDB Local with
// ReturnConsumedCapacity=TOTAL.
func TestCapacity(t *testing.T) {
	ctx := context.Background()
	raw := ddbtest.Client(t)
	name := ddbtest.NewTable(t, raw, todo.CreateTableInput("todo-capacity"))
	c := ddbtest.NewCapacityClient(raw)
	s := todo.NewDynamoStore(c, func(o *todo.Options) { o.TableName = name }, deterministic)
	items := func() []map[string]types.AttributeValue {
		t.Helper()
		var out []map[string]types.AttributeValue
		p := dynamodb.NewScanPaginator(raw, &dynamodb.ScanInput{TableName: &name, ConsistentRead: aws.Bool(true)})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, page.Items...)
		}
		return out
	}
	for _, tc := range capacityCases(t, s, items) {
		var err error
		got := c.Measure(func() { err = tc.call() })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := tc.local(); got != want {
			t.Errorf("%s consumed %+v on DynamoDB Local, want %+v (%+v on the service)", tc.name, got, want, tc.service())
		}
		t.Logf("%-28s %+v on the service", tc.name, tc.service())
	}
}

// TestCapacityMemory runs TestCapacity's cases on a MemoryStore, which
// reports what the DynamoDB store would consume on the service: so it
// holds each access pattern to its price in production, transactions
// included, and to its number of calls.
func TestCapacityMemory(t *testing.T) {
	rec := ddbtest.NewRecorder()
	s := todo.NewMemoryStore(deterministic, func(o *todo.Options) { o.TracerProvider = rec.TracerProvider() })
	items := func() []map[string]types.AttributeValue {
		var out []map[string]types.AttributeValue
		for _, table := range s.Export() {
			out = append(out, table...)
		}
		return out
	}
	for _, tc := range capacityCases(t, s, items) {
		var err error
		got := rec.Measure(func() { err = tc.call() })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := tc.service(); got.Read != want.Read || got.Write != want.Write || got.Calls != tc.calls {
			t.Errorf("%s cost %d calls, %+v on the memory store, want %d calls, %+v (the service's price)",
				tc.name, got.Calls, ddbtest.Capacity{Read: got.Read, Write: got.Write}, tc.calls, want)
		}
	}
}
