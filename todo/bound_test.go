package todo_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/todo"
)

// TestRetryBound: with a client that always throttles, one that always
// fails with a 5xx, and one whose transactions always conflict, every
// operation makes at most RetryPolicy.MaxAttempts calls of each kind (each
// step retries in one loop, never a loop inside another: ToggleTodo's
// UpdateItem, which the backend repeats after a 5xx, included), and fails
// with ErrUnavailable or ErrConflict.
func TestRetryBound(t *testing.T) {
	const attempts = 3 // fast's MaxAttempts
	for _, fault := range []ddbtest.Fault{ddbtest.Throttle, ddbtest.InternalError, ddbtest.TxConflict} {
		t.Run(fault.String(), func(t *testing.T) {
			var (
				fc *ddbtest.FaultClient
				cc *ddbtest.CountingClient
			)
			s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
				fc = ddbtest.NewFaultClient(c)
				cc = ddbtest.NewCountingClient(fc)
				return cc
			}, deterministic, fast)
			f := newFixture(t, s)
			ctx := t.Context()
			for _, call := range every(s, ctx, f) {
				t.Run(call.name, func(t *testing.T) {
					fc.Clear()
					fc.Always(fault)
					cc.Reset()
					err := call.call()
					counts := cc.Counts()
					fc.Clear()
					total := 0
					for op, n := range counts {
						total += n
						if n > attempts {
							t.Errorf("%d %s calls, want at most %d (calls %v)", n, op, attempts, counts)
						}
					}
					switch {
					case fault == ddbtest.Throttle || fault == ddbtest.InternalError:
						// The first step fails: the whole call is that step.
						if total > attempts || total == 0 {
							t.Errorf("%d calls in all, want 1..%d (calls %v)", total, attempts, counts)
						}
						ddbtest.WantSentinel(t, call.name, err, ddbkit.ErrUnavailable)
					case counts["TransactWriteItems"] > 0:
						ddbtest.WantSentinel(t, call.name, err, ddbkit.ErrConflict)
					case err != nil:
						t.Errorf("%s without a transaction: %v", call.name, err)
					}
				})
			}
		})
	}
}

// TestToggleBoundAfter5xx: ToggleTodo's UpdateItem failing with a 5xx
// without end (its read going through) is repeated by the backend alone,
// RetryPolicy.MaxAttempts calls in all, never in a loop of the store's
// around the backend's, and ToggleTodo fails with ErrUnavailable, the todo
// unchanged.
func TestToggleBoundAfter5xx(t *testing.T) {
	const attempts = 3 // fast's MaxAttempts
	s, fc, _, _ := faulty(t, fast)
	f := newFixture(t, s)
	fc.Inject("UpdateItem", ddbtest.InternalError, 100)
	_, err := s.ToggleTodo(t.Context(), "alice", f.td.ID)
	ddbtest.WantSentinel(t, "ToggleTodo under endless 5xx", err, ddbkit.ErrUnavailable)
	if got := fc.Injected("UpdateItem"); got != attempts {
		t.Fatalf("ToggleTodo under endless 5xx made %d UpdateItem calls, want %d", got, attempts)
	}
	fc.Clear()
	if got, err := s.GetTodo(t.Context(), "alice", f.td.ID); err != nil || got != f.td {
		t.Fatalf("after a failed toggle: %+v, %v; want %+v", got, err, f.td)
	}
}

// limits records the Limit of every Query.
type limits struct {
	ddbkit.Client
	mu  sync.Mutex
	got []int32
}

func (l *limits) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	l.mu.Lock()
	l.got = append(l.got, aws.ToInt32(in.Limit))
	l.mu.Unlock()
	return l.Client.Query(ctx, in, optFns...)
}

// TestDeleteCategoryBoundedPages: DeleteCategory's filtered walk over 2,000
// todos that do not refer to the category reads at most FilterBudget items
// per Query, so each page's cost is bounded whatever the partition's size,
// and the walk still ends and clears every reference.
func TestDeleteCategoryBoundedPages(t *testing.T) {
	const (
		budget = 200
		others = 2000
	)
	var (
		lim *limits
		cap *ddbtest.CapacityClient
	)
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
		cap = ddbtest.NewCapacityClient(c)
		lim = &limits{Client: cap}
		return lim
	}, deterministic, func(o *todo.Options) { o.FilterBudget = budget })
	ctx := t.Context()
	f := newFixture(t, s) // one todo in f.cat
	// The others, put raw: todos of another category, before and after
	// the referring ones in key order.
	var reqs []types.WriteRequest
	for i := range others {
		id := fmt.Sprintf("%08d", i)
		cat := f.other.ID
		if i%500 == 250 {
			cat = f.cat.ID
		}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
			"pk": S("user#alice"), "sk": S("todo#" + id), "id": S(id), "entity_type": S("todo"), "title": S("t"),
			"description": S(""), "priority": S("low"), "completed": B(false), "category_id": S(cat),
			"created_at": S("2024-01-01T00:00:00.000Z"), "updated_at": S("2024-01-01T00:00:00.000Z"),
		}}})
	}
	for len(reqs) > 0 {
		n := min(25, len(reqs))
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs[:n]}})
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(out.UnprocessedItems[table], reqs[n:]...)
	}
	lim.got = nil
	cap.Reset()
	if err := s.DeleteCategory(ctx, "alice", f.cat.ID); err != nil {
		t.Fatalf("DeleteCategory: %v", err)
	}
	used := cap.Consumed()
	for i, l := range lim.got {
		if l < 1 || l > budget {
			t.Fatalf("Query %d asked for %d items, want 1..%d", i, l, budget)
		}
	}
	// Two walks (the one that deletes the category, and the one that
	// catches references made meanwhile). A page evaluates at most budget
	// items, its first Query asks for 100 (its 99 and one more) and each
	// follow-up for at least ddb.MinFollowUp (100): so about one Query per
	// 100 todos, whatever the filter finds.
	items := others + 3
	if maxQ := 2 * (items/100 + 3); len(lim.got) > maxQ {
		t.Fatalf("%d Query calls, want at most %d", len(lim.got), maxQ)
	}
	// A todo is under 1 KB: a strongly consistent Query of budget todos
	// costs at most budget/4 RCU, and the walks read each todo twice.
	if maxRCU := float64(2*items)/4 + float64(len(lim.got)); used.Read > maxRCU {
		t.Fatalf("DeleteCategory read %.1f RCU, want at most %.1f", used.Read, maxRCU)
	}
	// Every reference is cleared, and nothing else changed.
	var refs, cleared int
	for _, it := range scanAll(t, c, table) {
		r := render(it)
		switch {
		case r["entity_type"] != "S:todo":
		case r["category_id"] == "S:"+f.cat.ID:
			refs++
		case r["category_id"] == "S:":
			cleared++
		}
	}
	if refs != 0 || cleared != 1+others/500 {
		t.Fatalf("%d todos still refer to the category, %d cleared; want 0 and %d", refs, cleared, 1+others/500)
	}
}

// TestDynamoCreateUserLostResponse: a CreateUser whose transaction commits
// and whose response is lost succeeds on its retry, which the token
// proves its own, and writes exactly one item; another caller's identical
// create is refused.
func TestDynamoCreateUserLostResponse(t *testing.T) {
	s, fc, c, table := faulty(t)
	ctx := t.Context()
	alice := todo.User{Username: "alice", Email: "a@example.com"}
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	if err := s.CreateUser(ctx, alice); err != nil {
		t.Fatalf("CreateUser with its response lost: %v", err)
	}
	if fc.Injected("TransactWriteItems") != 1 {
		t.Fatalf("the lost response was not injected")
	}
	if n := len(scanAll(t, c, table)); n != 1 {
		t.Fatalf("%d items, want 1", n)
	}
	ddbtest.WantSentinel(t, "CreateUser by another caller", s.CreateUser(ctx, alice), ddbkit.ErrAlreadyExists)
}

// TestImportNilValue: an item holding a nil attribute value, at the top or
// nested, is a corrupt item to Import, never a panic, and nothing is
// imported.
func TestImportNilValue(t *testing.T) {
	good := func() map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"pk": S("users"), "sk": S("alice"), "username": S("alice"), "email": S("a@example.com")}
	}
	for name, bad := range map[string]map[string]types.AttributeValue{
		"top":    {"pk": S("users"), "sk": S("bob"), "email": nil},
		"nested": {"pk": S("users"), "sk": S("bob"), "extra": &types.AttributeValueMemberL{Value: []types.AttributeValue{nil}}},
		"in map": {"pk": S("users"), "sk": S("bob"), "extra": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": nil}}},
	} {
		t.Run(name, func(t *testing.T) {
			mem := todo.NewMemoryStore(func(o *todo.Options) { o.TableName = "t" })
			err := mem.Import(ddbkit.TableItems{"t": {good(), bad}})
			ddbtest.WantSentinel(t, "Import of a nil value", err, ddbkit.ErrCorruptItem)
			if n := len(mem.Export()["t"]); n != 0 {
				t.Fatalf("a failed Import left %d items", n)
			}
		})
	}
}
