package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit/bench"
)

func TestSplitRegexp(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{".", []string{"."}},
		{"Todo/CreateUser", []string{"Todo", "CreateUser"}},
		{"^BenchmarkKondate(Fake)?$/^(A|B/C)$", []string{"^BenchmarkKondate(Fake)?$", "^(A|B/C)$"}},
		{`a\/b/[/]`, []string{`a\/b`, "[/]"}},
	}
	for _, tt := range tests {
		if got := splitRegexp(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitRegexp(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	out := `goos: linux
BenchmarkTodo/CreateUser-2         	       1	    189600 ns/op	         7.000 rounds	         0.5500 x-guregu	         0.6 x-guregu-hi	         0.5 x-guregu-lo	         1.05 x-handwritten	         1.2 x-handwritten-hi	         0.9 x-handwritten-lo	   29992 B/op	     344 allocs/op
--- FAIL: BenchmarkTodo/Other
BenchmarkTodoPage/ListTodos-16 	1	 100 ns/op	 1.02 x-1k
PASS
`
	rows := parse(strings.NewReader(out))
	if len(rows) != 2 {
		t.Fatalf("parse: %d rows, want 2: %+v", len(rows), rows)
	}
	r := rows[0]
	if r.family != "BenchmarkTodo" || r.name != "CreateUser" {
		t.Errorf("row 0 is %s/%s, want BenchmarkTodo/CreateUser", r.family, r.name)
	}
	for unit, want := range map[string]float64{"ns/op": 189600, "rounds": 7, "x-handwritten": 1.05, "x-handwritten-lo": 0.9, "allocs/op": 344} {
		if got := r.metrics[unit]; got != want {
			t.Errorf("%s = %g, want %g", unit, got, want)
		}
	}
	if rows[1].family != "BenchmarkTodoPage" || rows[1].name != "ListTodos" || rows[1].metrics["x-1k"] != 1.02 {
		t.Errorf("row 1 = %+v, want BenchmarkTodoPage/ListTodos with x-1k 1.02", rows[1])
	}
}

func TestMissLine(t *testing.T) {
	hw := bench.Targets[0] // x-handwritten <= 1.1
	r := row{family: "BenchmarkTodo", name: "CreateUser", metrics: map[string]float64{"rounds": 20}}
	known := []knownMiss{{re: regexp.MustCompile(`^BenchmarkWardrobe/`), unit: "x-handwritten", why: "KNOWN"}}
	tests := []struct {
		name         string
		r            row
		lo, hi       float64
		noise        bool
		wantContains string
	}{
		{"straddles", r, 1.0, 1.3, true, "straddle"},
		{"every round misses", r, 1.2, 1.3, false, "Every round misses"},
		{"too few rounds", row{family: "BenchmarkTodo", name: "X", metrics: map[string]float64{"rounds": 1}}, 1.2, 1.2, false, "too few"},
		{"known", row{family: "BenchmarkWardrobe", name: "X", metrics: map[string]float64{"rounds": 20}}, 1.2, 1.3, false, "KNOWN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := missLine(tt.r, "x-handwritten", 1.25, tt.lo, tt.hi, hw, tt.noise, known)
			if !strings.Contains(got, tt.wantContains) {
				t.Errorf("missLine = %q, want it to contain %q", got, tt.wantContains)
			}
		})
	}
}
