package difftest_test

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"pgregory.net/rapid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/difftest"
)

// kv is a toy domain: string values by key, listed in key order.
type kv interface {
	Put(ctx context.Context, key, value string) error
	Get(ctx context.Context, key string) (string, error)
	Delete(ctx context.Context, key string) error
	List(ctx context.Context, opts ddbkit.PageOptions) (ddbkit.Page[string], error)
}

// toyStore implements kv; bug, when set, makes it diverge the way the
// variable DIFFTEST_TOY_BUG names.
type toyStore struct {
	mu    sync.Mutex
	table string
	m     map[string]string
	bug   string
}

func (s *toyStore) Put(ctx context.Context, key, value string) error {
	if key == "" || strings.Contains(key, "#") {
		return fmt.Errorf("kv: Put: key %q: %w", key, ddbkit.ErrInvalidArgument)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("kv: Put: %w", errors.Join(ddbkit.ErrUnavailable, err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = value
	return nil
}

func (s *toyStore) Get(ctx context.Context, key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	if !ok {
		return "", fmt.Errorf("kv: Get: key %q: %w", key, ddbkit.ErrNotFound)
	}
	return v, nil
}

func (s *toyStore) Delete(ctx context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[key]; !ok && s.bug != "delete" {
		if s.bug == "random" {
			// Like an error of DynamoDB's with its request ID: the
			// harness must shrink such a divergence too.
			return fmt.Errorf("kv: Delete: key %q: %w (request %d)", key, ddbkit.ErrNotFound, rand.Int())
		}
		return fmt.Errorf("kv: Delete: key %q: %w", key, ddbkit.ErrNotFound)
	}
	delete(s.m, key)
	return nil
}

func (s *toyStore) List(ctx context.Context, opts ddbkit.PageOptions) (ddbkit.Page[string], error) {
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[string]{}, fmt.Errorf("kv: List: %w", err)
	}
	after, ok := strings.CutPrefix(opts.Cursor, "after:")
	if opts.Cursor != "" && !ok {
		return ddbkit.Page[string]{}, fmt.Errorf("kv: List: %w", ddbkit.ErrInvalidCursor)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var keys []string
	for k := range s.m {
		if k > after {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var p ddbkit.Page[string]
	for _, k := range keys {
		if len(p.Items) == limit {
			p.Next = "after:" + p.Items[len(p.Items)-1]
			break
		}
		p.Items = append(p.Items, k)
	}
	return p, nil
}

// export returns the store's items as a DynamoDB table would hold them.
func (s *toyStore) export() ddbkit.TableItems {
	s.mu.Lock()
	defer s.mu.Unlock()
	var items []map[string]types.AttributeValue
	for k, v := range s.m {
		item := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: k}, "value": &types.AttributeValueMemberS{Value: v}}
		if s.bug == "raw" && strings.HasPrefix(v, "a") {
			item["value"] = &types.AttributeValueMemberS{Value: strings.ToUpper(v)}
		}
		items = append(items, item)
	}
	return ddbkit.TableItems{s.table: items}
}

// Scan makes toyStore the "DynamoDB" that checkpoints scan.
func (s *toyStore) Scan(ctx context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	if aws.ToString(in.TableName) != s.table {
		return nil, &types.ResourceNotFoundException{Message: in.TableName}
	}
	return &dynamodb.ScanOutput{Items: s.export()[s.table]}, nil
}

func newToyPair(t *testing.T) *difftest.Pair[kv] {
	mem := &toyStore{table: "kv", m: map[string]string{}}
	dyn := &toyStore{table: "kv", m: map[string]string{}, bug: os.Getenv("DIFFTEST_TOY_BUG")}
	return &difftest.Pair[kv]{Mem: mem, Dyn: dyn, Export: mem.export, DB: dyn, Tables: []string{"kv"}}
}

func toyConfig() difftest.Config[kv] {
	return difftest.Config[kv]{
		Domain: "kv",
		New:    newToyPair,
		Source: "newToyPair(t)",
		Actions: func(r *difftest.Run[kv]) map[string]func(*rapid.T) {
			keys := []string{"a", "b"}
			key := func(t *rapid.T) string { return difftest.Pick(t, "key", keys, difftest.Text(8)) }
			return map[string]func(*rapid.T){
				"Put": func(t *rapid.T) {
					k, v := key(t), difftest.Text(8).Draw(t, "value")
					if difftest.Exec(r, "Put", r.Ctx(t), k, v) == nil && !slices.Contains(keys, k) {
						keys = append(keys, k)
					}
				},
				"Get":    func(t *rapid.T) { difftest.Call[string](r, "Get", r.Ctx(t), key(t)) },
				"Delete": func(t *rapid.T) { difftest.Exec(r, "Delete", r.Ctx(t), key(t)) },
				"List": func(t *rapid.T) {
					difftest.Call[ddbkit.Page[string]](r, "List", r.Ctx(t), r.PageOptions(t))
				},
			}
		},
	}
}

// TestToy runs the harness over two equal toy stores, or, in the child
// processes of TestToyDivergence, over a buggy one.
func TestToy(t *testing.T) {
	if os.Getenv("DIFFTEST_TOY_BUG") != "" && os.Getenv("DIFFTEST_TOY_CHILD") == "" {
		t.Skip("DIFFTEST_TOY_BUG is for the child processes of TestToyDivergence")
	}
	difftest.Check(t, toyConfig())
}

// TestToyDivergence runs TestToy on a buggy store in a child process, and
// checks that it fails with a shrunk sequence printed as valid Go.
func TestToyDivergence(t *testing.T) {
	if os.Getenv("DIFFTEST_TOY_CHILD") != "" {
		t.Skip("child process")
	}
	// rapid's shrinking is not always perfect: a step that does nothing may
	// stay, so the tests check the printed test's start, its last lines,
	// and that it is short.
	tests := []struct {
		bug  string
		tail []string // regexps of the printed test's last lines
	}{
		{"delete", []string{
			`^\tdifftest.SameErr\(t, p, func\(s difftest_test.kv\) error \{ return s.Delete\(ctx, "[ab]"\) \}\)$`,
			`^\}$`,
		}},
		{"random", []string{
			`^\tdifftest.SameErr\(t, p, func\(s difftest_test.kv\) error \{ return s.Delete\(ctx, "[ab]"\) \}\)$`,
			`^\}$`,
		}},
		{"raw", []string{
			`^\tdifftest.SameRaw\(t, p\)$`,
			`^\}$`,
		}},
	}
	head := []string{
		`^func TestModelRegression\(t \*testing.T\) \{$`,
		`^\tctx := t.Context\(\)$`,
		`^\tp := newToyPair\(t\)$`,
	}
	for _, tt := range tests {
		t.Run(tt.bug, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestToy$", "-test.count=1", "-rapid.shrinktime=20s")
			cmd.Env = append(os.Environ(), "DIFFTEST_TOY_BUG="+tt.bug, "DIFFTEST_TOY_CHILD=1", "DDBKIT_DIFF_OPS=300")
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("TestToy with bug %q passed:\n%s", tt.bug, out)
			}
			if !strings.Contains(string(out), "difftest: kv: the stores diverge at") {
				t.Fatalf("no divergence reported:\n%s", out)
			}
			if !regexp.MustCompile(`difftest: kv: \d+ operations, \d+ checkpoints, 1 divergences`).Match(out) {
				t.Errorf("no log line with 1 divergence:\n%s", out)
			}
			// The last printed test is rapid's replay of the shrunk sequence.
			text := string(out)
			i := strings.LastIndex(text, "func TestModelRegression")
			if i < 0 {
				t.Fatalf("no test printed:\n%s", out)
			}
			lines := strings.Split(text[i:], "\n")
			var fn []string
			for _, l := range lines {
				l = strings.TrimPrefix(l, "        ") // go test's indentation of log output
				fn = append(fn, l)
				if l == "}" {
					break
				}
			}
			if n := len(fn) - len(head) - len(tt.tail); n < 0 || n > 3 {
				t.Fatalf("printed test has %d lines, want %d to %d:\n%s", len(fn), len(head)+len(tt.tail), len(head)+len(tt.tail)+3, strings.Join(fn, "\n"))
			}
			want := append(head, make([]string, len(fn)-len(head)-len(tt.tail))...)
			want = append(want, tt.tail...)
			for j, re := range want {
				if re != "" && !regexp.MustCompile(re).MatchString(fn[j]) {
					t.Errorf("line %d: %q does not match %q\n%s", j, fn[j], re, strings.Join(fn, "\n"))
				}
			}
			if put := regexp.MustCompile(`(?m)^\tdifftest.SameErr\(t, p, func\(s difftest_test.kv\) error \{ return s.Put\(ctx, "[ab]", "a+"\) \}\)$`); tt.bug == "raw" && !put.MatchString(strings.Join(fn, "\n")) {
				t.Errorf("no Put of a value starting with a:\n%s", strings.Join(fn, "\n"))
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "x.go", "package x\n"+strings.Join(fn, "\n"), 0); err != nil {
				t.Errorf("printed test is not Go: %v\n%s", err, strings.Join(fn, "\n"))
			}
		})
	}
}

// The printed regression tests replay with Same, SameErr and SameRaw.
func TestSameReplays(t *testing.T) {
	ctx := t.Context()
	p := newToyPair(t)
	difftest.SameErr(t, p, func(s kv) error { return s.Put(ctx, "a", "x") })
	v, err := difftest.Same(t, p, func(s kv) (string, error) { return s.Get(ctx, "a") })
	if v != "x" || err != nil {
		t.Fatalf("Get = %q, %v; want x, nil", v, err)
	}
	if err := difftest.SameErr(t, p, func(s kv) error { return s.Delete(ctx, "b") }); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("Delete of a missing key: %v, want ErrNotFound", err)
	}
	difftest.SameRaw(t, p)
}

// fakeTB records Fatalf instead of stopping the test.
type fakeTB struct{ msg string }

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	if f.msg == "" {
		f.msg = fmt.Sprintf(format, args...)
	}
}

func TestSameReportsDifferences(t *testing.T) {
	ctx := t.Context()
	p := newToyPair(t)
	p.Dyn.(*toyStore).bug = "delete"
	var tb fakeTB
	difftest.SameErr(&tb, p, func(s kv) error { return s.Delete(ctx, "a") })
	if want := `error: memory kv: Delete: key "a": not found, dynamo <nil>`; !strings.Contains(tb.msg, want) {
		t.Errorf("message %q does not say %q", tb.msg, want)
	}
	tb = fakeTB{}
	p.Mem.(*toyStore).m["k"] = "v"
	difftest.SameRaw(&tb, p)
	if want := `only in memory: {pk=S1:k value=S1:v}`; !strings.Contains(tb.msg, want) {
		t.Errorf("message %q does not say %q", tb.msg, want)
	}
}

type recorder struct{ calls []string }

type fault int

func (f fault) String() string { return [...]string{"Throttle", "TxConflict", "Unprocessed"}[f] }

func (r *recorder) Inject(op string, f fault, times int) {
	r.calls = append(r.calls, fmt.Sprintf("%s %v %d", op, f, times))
}
func (r *recorder) Clear() { r.calls = append(r.calls, "clear") }

func TestFaultsNext(t *testing.T) {
	var r recorder
	f := difftest.NewFaults[fault](&r, 0, 1, 2)
	f.Next("TxConflict")
	f.Next("Unprocessed")
	want := []string{"clear", "TransactWriteItems TxConflict 1", "TransactGetItems TxConflict 1",
		"clear", "BatchGetItem Unprocessed 1", "BatchWriteItem Unprocessed 1"}
	if !slices.Equal(r.calls, want) {
		t.Errorf("calls %q, want %q", r.calls, want)
	}
	r.calls = nil
	f.Next("Throttle")
	if len(r.calls) != 10 {
		t.Errorf("Throttle: calls %q, want a clear and one per operation", r.calls)
	}
}

type patch struct {
	Name  *string
	Count *int
	When  *time.Time
}

type record struct {
	ID    string
	Tags  []string
	Attrs map[string]int
	Kind  kind
	Err   error
	At    time.Time
	Inner *record
}

type kind string

func TestGoSource(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{"a\"b", `"a\"b"`},
		{42, `42`},
		{int64(42), `int64(42)`},
		{kind("x"), `difftest_test.kind("x")`},
		{ddbkit.PageOptions{Limit: 2}, `ddbkit.PageOptions{Limit: 2}`},
		{patch{Name: difftest.P("n"), Count: difftest.P(0)}, `difftest_test.patch{Name: difftest.P("n"), Count: difftest.P(0)}`},
		{patch{When: difftest.P(time.Date(2024, 1, 5, 10, 0, 0, 5, time.UTC))}, `difftest_test.patch{When: difftest.P(time.Date(2024, 1, 5, 10, 0, 0, 5, time.UTC))}`},
		{record{ID: "r", Tags: []string{}, Attrs: map[string]int{"b": 2, "a": 1}, Kind: "k", Inner: &record{ID: "i"}},
			`difftest_test.record{ID: "r", Tags: []string{}, Attrs: map[string]int{"a": 1, "b": 2}, Kind: "k", Inner: &difftest_test.record{ID: "i"}}`},
		{[]string(nil), `[]string(nil)`},
		{context.Background(), `ctx`},
		{difftest.Canceled(), `difftest.Canceled()`},
		{ddbkit.WithIdempotencyKey(context.Background(), "k1"), `ddbkit.WithIdempotencyKey(ctx, "k1")`},
		{ddbkit.Page[record]{Next: "c"}, `ddbkit.Page[difftest_test.record]{Next: "c"}`},
		{nil, `nil`},
	}
	for _, tt := range tests {
		if got := difftest.GoSource(tt.v); got != tt.want {
			t.Errorf("GoSource(%#v) = %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestDiff(t *testing.T) {
	at := time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC)
	errA := fmt.Errorf("x: %w", ddbkit.ErrNotFound)
	tests := []struct {
		name     string
		mem, dyn any
		want     string // "" for equal, else a part of the difference
	}{
		{"equal", record{ID: "a", At: at}, record{ID: "a", At: at}, ""},
		{"field", record{ID: "a"}, record{ID: "b"}, `.ID: memory "a", dynamo "b"`},
		{"nil and empty", record{Tags: nil}, record{Tags: []string{}}, `.Tags: memory []string(nil), dynamo []string{} (nil and empty differ)`},
		{"same instant, other zone", record{At: at}, record{At: at.In(time.FixedZone("JST", 9*3600))}, `.At: memory 2024-01-05T10:00:00Z, dynamo 2024-01-05T19:00:00+09:00`},
		{"errors by text", record{Err: errA}, record{Err: fmt.Errorf("x: %w", ddbkit.ErrNotFound)}, ""},
		{"error text", record{Err: errA}, record{Err: fmt.Errorf("y: %w", ddbkit.ErrNotFound)}, `error text`},
		{"error sentinel", record{Err: errA}, record{Err: errors.New(errA.Error())}, `matches sentinels: memory [not found], dynamo []`},
		{"length", []int{1}, []int{1, 2}, `memory has 1 elements, dynamo 2`},
		{"map", map[string]int{"a": 1}, map[string]int{"a": 2}, `["a"]: memory 1, dynamo 2`},
		{"pointer", &record{Inner: &record{ID: "x"}}, &record{}, `.Inner: memory &difftest_test.record{ID: "x"}, dynamo nil`},
	}
	for _, tt := range tests {
		got := difftest.Diff(tt.mem, tt.dyn)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s: Diff = %q, want %q", tt.name, got, tt.want)
		}
	}
}
