package difftest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/ddbkit/ddbkit"
)

// DefaultOps is the number of operations of a domain run when
// DDBKIT_DIFF_OPS is not set: a few seconds, for make test.
const DefaultOps = 300

// Ops returns the number of operations a domain run makes:
// $DDBKIT_DIFF_OPS, or DefaultOps. It logs the value, and fails t on a
// value that is not a positive integer.
func Ops(t testing.TB) int {
	t.Helper()
	n := DefaultOps
	if s, ok := os.LookupEnv("DDBKIT_DIFF_OPS"); ok && s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("difftest: DDBKIT_DIFF_OPS=%q: want a positive number of operations", s)
		}
		n = v
	}
	t.Logf("difftest: %d operations per domain run (DDBKIT_DIFF_OPS, default %d)", n, DefaultOps)
	return n
}

// Config describes a domain's run.
type Config[S any] struct {
	// Domain names the run in its log line ("todo").
	Domain string
	// New returns a fresh Pair, on fresh tables, for each rapid check.
	New func(t *testing.T) *Pair[S]
	// Source is the Go expression that builds the same Pair in a test of
	// the domain's package, as the printed regression tests start with
	// it: "newModelPair(t)" for a func newModelPair(t *testing.T)
	// *difftest.Pair[todo.Store].
	Source string
	// Actions returns the actions of one rapid check (as rapid's
	// T.Repeat takes them; "" is an invariant check run after each), given
	// the check's Run. Each action draws its arguments with the check's
	// *rapid.T, then calls the stores through Call, Exec or Do, which
	// compare them; it keeps its model of the domain (IDs created, users)
	// in variables of Actions' closure, fresh for each check.
	Actions func(r *Run[S]) map[string]func(*rapid.T)
	// Checkpoint is the mean number of operations between two raw
	// checkpoints (each operation is followed by one with probability
	// 1/Checkpoint, and one more ends each check); zero means 25.
	Checkpoint int
	// FaultRate is the percentage of steps that meet a fault when the
	// Pair has Faults; zero means 10.
	FaultRate int
}

// Run is one rapid check of a domain: its Pair, the operations made so
// far as Go source, and the cursors the listings returned.
type Run[S any] struct {
	// Pair is the check's pair of stores.
	Pair *Pair[S]

	cfg     *Config[S]
	stats   *stats
	t       *rapid.T
	steps   []string
	cursors []string
	fault   string // drawn for the current step, not injected yet
	ops     int
}

type stats struct {
	checks, ops, checkpoints, divergences, faults int
	failed                                        bool
}

// Check runs cfg's state machine for at least Ops(t) operations, in rapid
// checks of about a tenth of them each (at least 10, at most 30 steps),
// each on a fresh Pair. On a divergence rapid shrinks the sequence and t fails with
// it printed as a Go test. It logs one line: operations, checkpoints and
// divergences (those of shrinking left out).
//
// The -rapid.checks, -rapid.steps, -rapid.nofailfile and -rapid.shrinktime
// flags (or RAPID_* variables) given on the command line win over the
// values Check sets.
func Check[S any](t *testing.T, cfg Config[S]) {
	t.Helper()
	ops := Ops(t)
	if cfg.Checkpoint <= 0 {
		cfg.Checkpoint = 25
	}
	if cfg.FaultRate <= 0 {
		cfg.FaultRate = 10
	}
	// Checks go on until the run has made ops operations; rapid.checks
	// only bounds them (a check may draw very few steps). Once a check has
	// failed, every check runs in full, so that shrinking replays exactly.
	// Short checks: a divergence is shrunk by replaying its check on
	// DynamoDB again and again, which must stay quick.
	steps := min(max(ops/10, 10), 30)
	restore := setFlags(map[string]string{
		"checks":     strconv.Itoa(ops + 10),
		"steps":      strconv.Itoa(steps),
		"nofailfile": "true",
		"shrinktime": "2m",
	})
	defer restore()

	st := &stats{}
	start := time.Now()
	defer func() {
		faults := ""
		if st.faults > 0 {
			faults = fmt.Sprintf(", %d faults", st.faults)
		}
		t.Logf("difftest: %s: %d operations, %d checkpoints, %d divergences (%d checks of about %d steps%s, %s)",
			cfg.Domain, st.ops, st.checkpoints, st.divergences, st.checks, steps, faults, time.Since(start).Round(time.Millisecond))
	}()
	rapid.Check(t, func(rt *rapid.T) {
		if !st.failed {
			if st.ops >= ops {
				return
			}
			st.checks++
		}
		p := cfg.New(t)
		rt.Cleanup(p.deleteTables)
		r := &Run[S]{Pair: p, cfg: &cfg, stats: st, t: rt}
		actions := cfg.Actions(r)
		wrapped := make(map[string]func(*rapid.T), len(actions))
		for name, a := range actions {
			if name == "" {
				wrapped[name] = a
				continue
			}
			wrapped[name] = func(rt *rapid.T) {
				r.fault = ""
				if p.Faults != nil && len(p.Faults.kinds) > 0 &&
					rapid.IntRange(0, 99).Draw(rt, "fault?") >= 100-cfg.FaultRate {
					r.fault = rapid.SampledFrom(p.Faults.kinds).Draw(rt, "fault")
				}
				a(rt)
			}
		}
		rt.Repeat(wrapped)
		r.checkpoint()
	})
}

// flagSetByUser holds the rapid flags set on the command line, read before
// Check sets any.
var flagSetByUser = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
})

// setFlags sets rapid's flags that neither the command line nor the
// environment set, and returns a func restoring them.
func setFlags(values map[string]string) (restore func()) {
	user := flagSetByUser()
	var undo []func()
	for name, v := range values {
		f := flag.Lookup("rapid." + name)
		if f == nil || user[f.Name] {
			continue
		}
		if _, ok := os.LookupEnv("RAPID_" + strings.ToUpper(name)); ok {
			continue
		}
		old := f.Value.String()
		if f.Value.Set(v) == nil {
			undo = append(undo, func() { _ = f.Value.Set(old) })
		}
	}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}

// Call calls the method named method on both stores with args, records the
// call, compares the results (the method returns a value and an error) and
// returns the memory store's. A page's Next cursor joins the cursors that
// Cursor reuses.
func Call[R, S any](r *Run[S], method string, args ...any) (R, error) {
	r.t.Helper()
	src := callSource(method, args)
	f := func(s S) (R, error) {
		out := invoke(s, method, args, 2)
		v, ok := out[0].Interface().(R)
		if !ok && out[0].CanInterface() && !(out[0].Kind() == reflect.Interface && out[0].IsNil()) {
			panic(fmt.Sprintf("difftest: %s.%s returns %s, not the %s Call was given", storeType[S](), method, typeName(out[0].Type()), typeName(reflect.TypeFor[R]())))
		}
		err, _ := out[1].Interface().(error)
		return v, err
	}
	return do(r, method, "difftest.Same(t, p, func(s "+storeType[S]()+") ("+typeName(reflect.TypeFor[R]())+", error) { return "+src+" })", f)
}

// Exec is Call for a method that returns only an error.
func Exec[S any](r *Run[S], method string, args ...any) error {
	r.t.Helper()
	src := callSource(method, args)
	f := func(s S) (struct{}, error) {
		err, _ := invoke(s, method, args, 1)[0].Interface().(error)
		return struct{}{}, err
	}
	_, err := do(r, method, "difftest.SameErr(t, p, func(s "+storeType[S]()+") error { return "+src+" })", f)
	return err
}

// Do is Call for anything else (a method with more results, a sequence of
// calls that is one operation): src is the Go source of f's body, an
// expression of s returning (R, error), as the printed test will hold it.
func Do[R, S any](r *Run[S], src string, f func(s S) (R, error)) (R, error) {
	r.t.Helper()
	return do(r, "Do", "difftest.Same(t, p, func(s "+storeType[S]()+") ("+typeName(reflect.TypeFor[R]())+", error) { return "+src+" })", f)
}

// do makes one operation, what, recorded as line.
func do[R, S any](r *Run[S], what, line string, f func(S) (R, error)) (R, error) {
	r.t.Helper()
	if r.fault != "" {
		r.Pair.Faults.Next(r.fault)
		r.steps = append(r.steps, fmt.Sprintf("p.Faults.Next(%q)", r.fault))
		r.fault = ""
		if !r.stats.failed {
			r.stats.faults++
		}
	}
	r.steps = append(r.steps, line)
	v, err, d := compare(r.Pair, f)
	r.ops++
	if !r.stats.failed {
		r.stats.ops++
	}
	if d != "" {
		r.fail(fmt.Sprintf("operation %d (%s)", r.ops, what), d)
	}
	if next := pageNext(reflect.ValueOf(v)); next != "" && !contains(r.cursors, next) {
		r.cursors = append(r.cursors, next)
		if len(r.cursors) > 32 {
			r.cursors = r.cursors[1:]
		}
	}
	// Drawn rather than every Checkpoint operations, so that shrinking can
	// drop the checkpoints a divergence does not need, and keep the one it
	// does wherever the shrunk sequence puts its operation.
	if rapid.IntRange(0, r.cfg.Checkpoint-1).Draw(r.t, "checkpoint") == r.cfg.Checkpoint-1 {
		r.checkpoint()
	}
	return v, err
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// checkpoint compares the stores' items and records that it did.
func (r *Run[S]) checkpoint() {
	r.t.Helper()
	r.steps = append(r.steps, "difftest.SameRaw(t, p)")
	if !r.stats.failed {
		r.stats.checkpoints++
	}
	if d := rawDiff(r.Pair); d != "" {
		r.fail(fmt.Sprintf("the checkpoint after operation %d", r.ops), "the stored items differ: "+d)
	}
}

// fail ends the check with the sequence so far printed as a Go test.
//
// The difference and the test are logged, and only where the stores
// diverge is the failure's message: rapid shrinks a sequence while its
// replays fail with the same message, and a difference's text may hold
// what varies from one replay to the next (DynamoDB's request IDs, table
// names, a check's idempotency keys).
func (r *Run[S]) fail(where, diff string) {
	r.t.Helper()
	if !r.stats.failed {
		r.stats.failed = true
		r.stats.divergences++
	}
	r.t.Logf("difftest: %s: the stores diverge at %s: %s\n\n%s", r.cfg.Domain, where, diff, r.GoTest())
	r.t.Fatalf("difftest: %s: the stores diverge at %s (the difference and the sequence, as a Go test, are logged above)", r.cfg.Domain, where)
}

// GoTest returns the operations made so far as a Go test function, ready to
// paste into the domain's package next to the Pair constructor of
// Config.Source.
func (r *Run[S]) GoTest() string {
	var b strings.Builder
	b.WriteString("func TestModelRegression(t *testing.T) {\n")
	uses := strings.Join(r.steps, "\n")
	if strings.Contains(uses, "ctx") {
		b.WriteString("\tctx := t.Context()\n")
	}
	fmt.Fprintf(&b, "\tp := %s\n", r.cfg.Source)
	for _, s := range r.steps {
		b.WriteString("\t" + s + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func callSource(method string, args []any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = GoSource(a)
	}
	return "s." + method + "(" + strings.Join(parts, ", ") + ")"
}

func storeType[S any]() string { return typeName(reflect.TypeFor[S]()) }

// invoke calls s's method with args and checks it has want results, the
// last an error.
func invoke[S any](s S, method string, args []any, want int) []reflect.Value {
	m := reflect.ValueOf(&s).Elem().MethodByName(method)
	if !m.IsValid() {
		panic(fmt.Sprintf("difftest: %s has no method %s", storeType[S](), method))
	}
	mt := m.Type()
	if mt.NumOut() != want || !mt.Out(want-1).Implements(errorType) {
		panic(fmt.Sprintf("difftest: %s.%s returns %d results; Call wants a value and an error, Exec an error, Do anything else", storeType[S](), method, mt.NumOut()))
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		pt := mt.In(min(i, mt.NumIn()-1))
		if mt.IsVariadic() && i >= mt.NumIn()-1 {
			pt = pt.Elem()
		}
		if a == nil {
			in[i] = reflect.Zero(pt)
		} else {
			in[i] = reflect.ValueOf(a)
		}
	}
	return m.Call(in)
}

// pageNext returns the Next cursor of v if v is a ddbkit.Page.
func pageNext(v reflect.Value) string {
	if !v.IsValid() || v.Kind() != reflect.Struct || v.Type().PkgPath() != pagePkg || !strings.HasPrefix(v.Type().Name(), "Page[") {
		return ""
	}
	f := v.FieldByName("Next")
	if !f.IsValid() || f.Kind() != reflect.String {
		return ""
	}
	return f.String()
}

var pagePkg = reflect.TypeFor[ddbkit.PageOptions]().PkgPath()

// Advance moves the Pair's Clock forward by d, between two operations, and
// records it: an action that lets time pass (an expiry, a day's change).
func (r *Run[S]) Advance(d time.Duration) {
	r.Pair.Clock.Advance(d)
	r.steps = append(r.steps, "p.Clock.Advance("+durationSource(d)+")")
}

// Ctx draws the context of an operation: context.Background() (ctx in the
// printed tests) mostly, an already canceled one (Canceled()) sometimes.
// Wrap it in ddbkit.WithIdempotencyKey where the domain takes keys; the
// printed test shows that too. It carries a telemetry hook (package obs),
// not printed, through which each operation's spans on both stores are
// compared.
func (r *Run[S]) Ctx(t *rapid.T) context.Context {
	if rapid.IntRange(0, 99).Draw(t, "ctx") >= 96 {
		return r.Pair.spans.hooked(Canceled())
	}
	return r.Pair.spans.hooked(context.Background())
}

// Cursor draws a page cursor: "" mostly, a cursor a listing of this check
// returned (of any listing: reused across listings and users), one of them
// tampered with, or garbage.
func (r *Run[S]) Cursor(t *rapid.T) string {
	n := rapid.IntRange(0, 99).Draw(t, "cursor")
	switch {
	case n < 45 || len(r.cursors) == 0 && n < 90:
		return ""
	case n < 80:
		return rapid.SampledFrom(r.cursors).Draw(t, "used cursor")
	case n < 90:
		c := []byte(rapid.SampledFrom(r.cursors).Draw(t, "cursor to tamper"))
		i := rapid.IntRange(0, len(c)-1).Draw(t, "tampered byte")
		switch c[i] {
		case 'A':
			c[i] = 'B'
		default:
			c[i] = 'A'
		}
		return string(c)
	}
	return rapid.SampledFrom([]string{"x", "#", "e30", "eyJrIjoiIn0", "not a cursor", strings.Repeat("A", 2000)}).Draw(t, "garbage cursor")
}

// Limit draws a page limit: small ones mostly (1 to 4, for page
// boundaries), then 0 (the default), ddbkit.MaxPageLimit, and the invalid
// -1 and MaxPageLimit+1.
func Limit(t *rapid.T) int {
	switch n := rapid.IntRange(0, 99).Draw(t, "limit"); {
	case n < 60:
		return 1 + n%4
	case n < 80:
		return 0
	case n < 90:
		return ddbkit.MaxPageLimit
	case n < 95:
		return -1
	default:
		return ddbkit.MaxPageLimit + 1
	}
}

// PageOptions draws page options: Limit and Cursor.
func (r *Run[S]) PageOptions(t *rapid.T) ddbkit.PageOptions {
	return ddbkit.PageOptions{Limit: Limit(t), Cursor: r.Cursor(t)}
}

// Pick draws an element of pool mostly (a collision: the same user, an ID
// already used), else one of other. An empty pool always draws other.
func Pick[T any](t *rapid.T, label string, pool []T, other *rapid.Generator[T]) T {
	if len(pool) > 0 && rapid.IntRange(0, 99).Draw(t, label+"?") < 80 {
		return rapid.SampledFrom(pool).Draw(t, label)
	}
	return other.Draw(t, label)
}

// Text draws text for a field of at most max characters (code points):
// short words from a small set mostly (collisions), then random words,
// Japanese and combining text, '#' (the key separator), exactly max and
// max+1 characters, "", white space, and control, format and invalid
// characters.
func Text(max int) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		switch n := rapid.IntRange(0, 99).Draw(t, "text"); {
		case n < 40:
			return rapid.SampledFrom([]string{"a", "b", "milk", "work", "x-1", "a.b_c"}).Draw(t, "word")
		case n < 55:
			return rapid.StringMatching(`[a-zA-Z0-9]{1,12}`).Draw(t, "random word")
		case n < 65:
			return rapid.SampledFrom([]string{"仕事", "買い物リスト", "नमस्ते", "e\u0301", "😀", "ｶﾀｶﾅ"}).Draw(t, "unicode")
		case n < 72:
			return rapid.SampledFrom([]string{"#", "a#b", "USER#a", "#x#"}).Draw(t, "hash")
		case n < 80:
			return strings.Repeat("あ", max)
		case n < 85:
			return strings.Repeat("a", max+1)
		case n < 90:
			return ""
		case n < 95:
			return rapid.SampledFrom([]string{" ", "\t", " a", "a ", "a b"}).Draw(t, "space")
		}
		return rapid.SampledFrom([]string{"\x00", "a\nb", "\u200b", "\U0010FFFF", "\xff", "\ue000"}).Draw(t, "odd")
	})
}
