// Package difftest runs randomized model-based comparisons of a domain's
// memory store with its DynamoDB store (issue 14): a rapid state machine
// draws operations with valid and invalid arguments, calls both stores, and
// requires the same values, errors (text and sentinel), pages and cursors,
// and, at checkpoints, the same stored items attribute for attribute. On a
// divergence rapid shrinks the sequence, and the test fails with it logged
// as a Go test function to paste into the domain's package.
//
// difftest cannot import ddbtest (a module of its own, see ddbtest/doc.go),
// so a domain's test builds the DynamoDB side and hands it over in a Pair.
//
// # How a domain uses it
//
// In <domain>/model_test.go (package <domain>_test):
//
//	// newModelPair returns the stores a model run compares; the printed
//	// regression tests call it too.
//	func newModelPair(t *testing.T) *difftest.Pair[todo.Store] {
//		return modelPair(t, false)
//	}
//
//	func newFaultPair(t *testing.T) *difftest.Pair[todo.Store] {
//		return modelPair(t, true)
//	}
//
//	func modelPair(t *testing.T, faults bool) *difftest.Pair[todo.Store] {
//		c := ddbtest.Client(t)
//		table := ddbtest.NewTable(t, c, todo.CreateTableInput("todo"))
//		clock := difftest.NewClock(start)
//		opts := func(o *todo.Options) {
//			o.TableName = table
//			o.Clock = clock.Now
//			o.NewID = ddbkit.SeededUUIDv4(7) // a generator per store, same seed
//			o.Retry = ddbkit.RetryPolicy{MaxAttempts: 20, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
//		}
//		mem := todo.NewMemoryStore(opts)
//		p := &difftest.Pair[todo.Store]{Mem: mem, Export: mem.Export, DB: c, Tables: []string{table}, Clock: clock}
//		var client ddbkit.Client = c
//		if faults {
//			fc := ddbtest.NewFaultClient(c)
//			p.Faults = difftest.NewFaults(fc, ddbtest.Throttle, ddbtest.TxConflict, ddbtest.InternalError, ddbtest.LoseResponse)
//			client = fc
//		}
//		p.Dyn = todo.NewDynamoStore(client, opts)
//		return p
//	}
//
//	func TestModel(t *testing.T) { difftest.Check(t, modelConfig("newModelPair(t)", newModelPair)) }
//
//	func TestModelFaults(t *testing.T) { difftest.Check(t, modelConfig("newFaultPair(t)", newFaultPair)) }
//
//	func modelConfig(src string, pair func(*testing.T) *difftest.Pair[todo.Store]) difftest.Config[todo.Store] {
//		return difftest.Config[todo.Store]{Domain: "todo", New: pair, Source: src,
//			Actions: func(r *difftest.Run[todo.Store]) map[string]func(*rapid.T) {
//				users := []string{"alice", "bob"} // the model: fresh for each check
//				var ids []string
//				user := func(t *rapid.T) string { return difftest.Pick(t, "user", users, difftest.Text(todo.MaxUsernameLen)) }
//				return map[string]func(*rapid.T){
//					"CreateTodo": func(t *rapid.T) {
//						in := todo.NewTodo{Title: difftest.Text(todo.MaxTitleLen).Draw(t, "title"), Priority: todo.PriorityLow}
//						td, err := difftest.Call[todo.Todo](r, "CreateTodo", r.Ctx(t), user(t), in)
//						if err == nil {
//							ids = append(ids, td.ID)
//						}
//					},
//					"ListTodos": func(t *rapid.T) {
//						difftest.Call[ddbkit.Page[todo.Todo]](r, "ListTodos", r.Ctx(t), user(t), r.PageOptions(t))
//					},
//					"DeleteTodo": func(t *rapid.T) {
//						difftest.Exec(r, "DeleteTodo", r.Ctx(t), user(t), difftest.Pick(t, "id", ids, difftest.Text(todo.MaxIDLen)))
//					},
//				}
//			}}
//	}
//
// Call, Exec and Do make one operation each: they call both stores (the
// memory store first), compare, and record the call as Go source. Both
// stores get the same arguments, so the same context: Ctx draws a live or
// an already canceled one. An action draws all its arguments first, and
// calls rapid's t.Skip, if at all, before its first operation.
//
// # What a run checks and prints
//
// Values compare as reflect.DeepEqual compares them (a nil slice is not an
// empty one), except errors, equal when their texts and their ddbkit
// sentinels are, and times, equal when they are the same instant in the
// same zone. After one operation in Config.Checkpoint (drawn, so that
// shrinking keeps only the checkpoints a divergence needs), and at the end
// of each check, the memory store's Export must equal a Scan of every
// table, attribute for attribute, whatever the order.
//
// A failure logs the difference and the shrunk sequence (its message only
// says where the stores diverge: rapid shrinks while a replay fails with
// the same message, and a difference's text may vary between replays,
// with DynamoDB's request IDs, say):
//
//	func TestModelRegression(t *testing.T) {
//		ctx := t.Context()
//		p := newModelPair(t)
//		difftest.SameErr(t, p, func(s todo.Store) error { return s.CreateUser(ctx, todo.User{Username: "a", Email: "a@example.com"}) })
//		p.Faults.Next("LoseResponse")
//		difftest.Same(t, p, func(s todo.Store) (todo.Todo, error) { return s.ToggleTodo(ctx, "a", "0a1b…") })
//		difftest.SameRaw(t, p)
//	}
//
// Same, SameErr and SameRaw are the checks the run made, so the test fails
// the same way until the stores agree; keep it as the regression test.
// Values that differ from one run to the next (a check's idempotency keys,
// say) may need making unique again.
//
// Both stores must see the same time: give both a Clock's Now. It moves by
// Clock.Step before each operation and stands still during one, so a
// store's retries cannot shift its timestamps; Run.Advance lets more time
// pass between two operations, and is recorded too. Give each store an ID
// generator of its own with the same seed.
//
// # Length, faults, log
//
// Ops reads the run's length from DDBKIT_DIFF_OPS (default DefaultOps, for
// make test; make diff sets 10000). A Pair with Faults is the fault
// variant: about one step in ten (Config.FaultRate) meets a fault drawn
// among those given to NewFaults, once on the first call of every SDK
// operation it applies to; the DynamoDB store's retry policy must be
// generous enough that its operations still succeed, and results must still
// match. Check logs one line per run: "difftest: todo: 312 operations, 26
// checkpoints, 0 divergences (11 checks of about 30 steps, 31 faults, 9.5s)";
// the counts leave out what shrinking replays. A check runs about 30 steps
// at most, so that shrinking, which replays a failing check on DynamoDB
// many times, stays quick.
package difftest
