package bench

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Plan is how Compare spends its time on one figure: at least MinRounds
// interleaved rounds, then more until every ratio's rounds agree (the
// confidence interval of its median within ±Tolerance of it), MaxRounds
// or Budget, whichever comes first. Each variant runs for about Segment in
// a round.
type Plan struct {
	MinRounds, MaxRounds int
	Segment              time.Duration
	Tolerance            float64
	Budget               time.Duration
	// Wall times every comparison by the wall clock, as the Remote ones
	// are (BENCH_CLOCK=wall): for the experiment bench/doc.go tells.
	Wall bool
	// Hurry, when set, is the time after which every figure gets 2
	// rounds (BENCH_HURRY, RFC 3339): cmd/benchrun sets it so that a run
	// on a slower machine still ends in time, its late figures marked by
	// their rounds.
	Hurry time.Time
}

// DefaultPlan is the plan of "make bench": 2 s at most per figure, so
// that the whole table (some 330 figures, with their setups) fits in 20
// minutes on a 2-core machine. The environment overrides it, for a run by
// hand: BENCH_MIN_ROUNDS, BENCH_MAX_ROUNDS, BENCH_SEGMENT (a Go duration),
// BENCH_TOLERANCE (0.02 is ±2%), BENCH_BUDGET (a Go duration),
// BENCH_CLOCK (wall or cpu) and BENCH_HURRY (see Plan.Hurry).
var DefaultPlan = Plan{MinRounds: 5, MaxRounds: 40, Segment: 20 * time.Millisecond, Tolerance: 0.02, Budget: 2 * time.Second}

// ConsumeSegment is how many calls a Consumes variant makes in a round.
const ConsumeSegment = 8

// ConsumeCalls is the most calls Compare makes of a Consumes variant in
// this run (the stub check, the warm-up and every round): its pool of
// items made beforehand needs no more.
func ConsumeCalls() int {
	p := plan()
	if p.Segment == 0 {
		return 2 + p.MaxRounds
	}
	return 2 + p.MaxRounds*ConsumeSegment
}

var plan = sync.OnceValue(func() Plan {
	p := DefaultPlan
	if testing.Short() {
		// make test's smoke run: one round, one call each.
		return Plan{MinRounds: 1, MaxRounds: 1, Tolerance: 1}
	}
	env := func(name string, set func(string) error) {
		if v := os.Getenv(name); v != "" {
			if err := set(v); err != nil {
				fmt.Fprintf(os.Stderr, "bench: %s=%q: %v (ignored)\n", name, v, err)
			}
		}
	}
	atoi := func(dst *int) func(string) error {
		return func(s string) (err error) { *dst, err = strconv.Atoi(s); return err }
	}
	dur := func(dst *time.Duration) func(string) error {
		return func(s string) (err error) { *dst, err = time.ParseDuration(s); return err }
	}
	env("BENCH_MIN_ROUNDS", atoi(&p.MinRounds))
	env("BENCH_MAX_ROUNDS", atoi(&p.MaxRounds))
	env("BENCH_SEGMENT", dur(&p.Segment))
	env("BENCH_BUDGET", dur(&p.Budget))
	env("BENCH_CLOCK", func(s string) error {
		if s != "wall" && s != "cpu" {
			return fmt.Errorf("want wall or cpu")
		}
		p.Wall = s == "wall"
		return nil
	})
	env("BENCH_HURRY", func(s string) (err error) { p.Hurry, err = time.Parse(time.RFC3339, s); return err })
	env("BENCH_TOLERANCE", func(s string) (err error) { p.Tolerance, err = strconv.ParseFloat(s, 64); return err })
	p.MinRounds = max(1, p.MinRounds)
	p.MaxRounds = max(p.MinRounds, p.MaxRounds)
	return p
})

// Variant is one way of doing an operation: ddbkit's, the hand-written
// one, guregu/dynamo's, or the same operation on another store. Op does the
// i-th call (i counts from 0 for each variant, so that writes can vary
// their input).
type Variant struct {
	Name string
	Op   func(i int) error
	// Consumes marks an Op that uses up items made for it beforehand (a
	// delete of a pool): Compare makes ConsumeSegment calls of it a
	// round, and ConsumeCalls at most in all.
	Consumes bool
	// Remote marks a variant whose calls wait on another process
	// (DynamoDB Local): a comparison with one is timed by the wall clock,
	// which counts the other process's work. Every other comparison is
	// timed by this process's CPU time, which a busy machine's other
	// programs (and a DynamoDB Local left running by an earlier benchmark)
	// do not inflate: bench/doc.go tells why.
	Remote bool
	// Overhead reverses the ratio: x-NAME is this variant's time over
	// variants[0]'s, the cost of what it adds to the same operation (the
	// x-otel of issue 38: the DynamoDB store with a recording
	// OpenTelemetry SDK over the same store without), where the others
	// read how many times variants[0]'s time theirs is.
	Overhead bool
}

// results keeps each benchmark's figures: go test runs a benchmark's
// function again, with a larger b.N, until its timer reads -benchtime,
// and Compare's rounds are its own, not b.N's. The runs after the first
// report the first one's figures; -benchtime=1x (what make bench passes)
// makes no second run.
var results sync.Map // b.Name() -> []metric

type metric struct {
	v    float64
	unit string
}

// Compare measures variants[0] against each of the others in interleaved
// rounds: round r runs every variant once, starting with variant
// r mod len, each for the same number of calls (about Plan.Segment's worth,
// found by a warm-up run), after a collection that keeps one variant's
// garbage off the next one's time. A slower machine or a busy neighbour
// slows them all alike. A round's time is the process's CPU time, or the
// wall clock's when a variant is Remote. It stops when the ratios' rounds agree (see
// [Plan]) and reports:
//
//   - ns/op, B/op and allocs/op: variants[0]'s, per call (the median round's
//     time; bytes and allocations over all rounds);
//   - x-NAME for each other variant: the median over rounds of
//     variants[0]'s time per call over that variant's (1.10 reads
//     "variants[0] costs 1.1× NAME"; reversed for an Overhead variant),
//     with x-NAME-lo and x-NAME-hi, the lowest and highest round, so that
//     a reader sees when a missed target is noise;
//   - rounds: how many rounds it took.
//
// Compare ignores b.N: it schedules its own calls, and run with the
// default -benchtime it measures once (see results).
//
// When stub is not nil, Compare first runs each variant once with stub
// recording, and fails unless all of them made the same calls: a ratio
// of two different sequences of requests would measure nothing.
func Compare(b *testing.B, stub *Stub, variants ...Variant) {
	b.Helper()
	if len(variants) < 2 {
		b.Fatal("bench: Compare needs a variant and something to compare it with")
	}
	if measured(b) {
		return
	}
	b.StopTimer()
	next := make([]int, len(variants))
	call := func(v int) {
		if err := variants[v].Op(next[v]); err != nil {
			b.Fatalf("%s: call %d: %v", variants[v].Name, next[v], err)
		}
		next[v]++
	}
	if stub != nil {
		var first []string
		for v := range variants {
			stub.record()
			call(v)
			calls := stub.recorded()
			if v == 0 {
				first = calls
			} else if !slices.Equal(calls, first) {
				b.Fatalf("bench: %s calls %v, but %s calls %v: not the same operation", variants[v].Name, calls, variants[0].Name, first)
			}
		}
	}

	p := plan()
	if !p.Hurry.IsZero() && time.Now().After(p.Hurry) {
		p.MinRounds, p.MaxRounds = min(p.MinRounds, 2), min(p.MaxRounds, 2)
	}
	// The warm-up fills caches and pools and finds how many calls make a
	// segment; each variant then makes that many in every round.
	n := make([]int, len(variants))
	for v := range variants {
		if variants[v].Consumes || p.Segment == 0 {
			call(v)
			n[v] = 1
			if variants[v].Consumes && p.Segment > 0 {
				n[v] = ConsumeSegment
			}
			continue
		}
		start, calls := time.Now(), 0
		for calls == 0 || time.Since(start) < p.Segment {
			call(v)
			calls++
		}
		n[v] = calls
	}

	clock := func() time.Duration { return cpuTime() }
	if !haveCPUTime || p.Wall || slices.ContainsFunc(variants, func(v Variant) bool { return v.Remote }) {
		t0 := time.Now()
		clock = func() time.Duration { return time.Since(t0) }
	}

	perCall := make([][]float64, len(variants)) // [variant][round] ns per call
	var mallocs, bytes uint64
	var ms runtime.MemStats
	began := time.Now()
	rounds := 0
	for rounds < p.MaxRounds {
		for k := range variants {
			v := (rounds + k) % len(variants)
			runtime.GC()
			if v == 0 {
				runtime.ReadMemStats(&ms)
				mallocs, bytes = mallocs-ms.Mallocs, bytes-ms.TotalAlloc
			}
			b.StartTimer()
			start := clock()
			for range n[v] {
				call(v)
			}
			d := clock() - start
			b.StopTimer()
			perCall[v] = append(perCall[v], float64(d.Nanoseconds())/float64(n[v]))
			if v == 0 {
				runtime.ReadMemStats(&ms)
				mallocs, bytes = mallocs+ms.Mallocs, bytes+ms.TotalAlloc
			}
		}
		rounds++
		if rounds >= p.MinRounds && (time.Since(began) >= p.Budget || agree(ratios(variants, perCall), p.Tolerance)) {
			break
		}
	}

	calls := float64(rounds * n[0])
	ms0 := []metric{
		{median(perCall[0]), "ns/op"},
		{float64(bytes) / calls, "B/op"},
		{float64(mallocs) / calls, "allocs/op"},
		{float64(rounds), "rounds"},
	}
	for v, rs := range ratios(variants, perCall) {
		if v == 0 {
			continue
		}
		unit := "x-" + variants[v].Name
		ms0 = append(ms0, metric{round3(median(rs)), unit},
			metric{round3(slices.Min(rs)), unit + "-lo"}, metric{round3(slices.Max(rs)), unit + "-hi"})
	}
	results.Store(b.Name(), ms0)
	report(b, ms0)
}

// measured reports the figures of b's first run when this is a later run
// of the same function (b.N above 1: go test's search for -benchtime).
// A run with b.N of 1 measures, so that each of -count's runs does.
func measured(b *testing.B) bool {
	if b.N == 1 {
		return false
	}
	r, ok := results.Load(b.Name())
	if ok {
		report(b, r.([]metric))
	}
	return ok
}

func report(b *testing.B, ms []metric) {
	for _, m := range ms {
		b.ReportMetric(m.v, m.unit)
	}
}

// ratios returns, for each variant after the first, its ratio in every
// round (nil for variants[0]).
func ratios(variants []Variant, perCall [][]float64) [][]float64 {
	out := make([][]float64, len(variants))
	for v := 1; v < len(variants); v++ {
		out[v] = make([]float64, len(perCall[v]))
		for r := range out[v] {
			out[v][r] = perCall[0][r] / perCall[v][r]
			if variants[v].Overhead {
				out[v][r] = 1 / out[v][r]
			}
		}
	}
	return out
}

// agree reports whether, for every ratio, the distribution-free 95%
// confidence interval of its median (the order statistics around the
// middle that a binomial count of rounds above and below gives) lies within
// ±tol of the median.
func agree(ratios [][]float64, tol float64) bool {
	for _, rs := range ratios {
		if rs == nil {
			continue
		}
		s := slices.Clone(rs)
		slices.Sort(s)
		n := float64(len(s))
		half := 0.98 * math.Sqrt(n) // 1.96 σ of Binomial(n, 1/2)
		lo := max(0, int(math.Floor(n/2-half)))
		hi := min(len(s)-1, int(math.Ceil(n/2+half))-1)
		m := median(s)
		if s[lo] < m*(1-tol) || s[hi] > m*(1+tol) {
			return false
		}
	}
	return true
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Growth compares a page of a listing of 100,000 items with the same page
// of 1,000, as the fake target asks (x-1k at most 1.1: a page's
// cost must not grow with the listing). page builds a store of n items
// and returns the call that reads the page. Under -short (make test's
// smoke run) the sizes are 2,000 and 1,000, so that the benchmark is
// exercised without its minutes of setup.
func Growth(b *testing.B, page func(n int) func(i int) error) {
	b.Helper()
	if measured(b) {
		return
	}
	large := 100_000
	if testing.Short() {
		large = 2_000
	}
	Compare(b, nil, Variant{Name: "100k", Op: page(large)}, Variant{Name: "1k", Op: page(1_000)})
}
