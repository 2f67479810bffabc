package bench

import (
	"math"
	"runtime"
	"slices"
	"testing"
	"time"
)

// Rounds is how many interleaved rounds Compare runs; it reports medians
// over them.
const Rounds = 10

// MinSegment is the least time one variant's calls run for in a round.
// A memory store's call is a hundred times faster than DynamoDB Local's,
// so b.N/Rounds calls of it took a millisecond or two right after
// runtime.GC, whose sweep, and DynamoDB Local's JVM winding down from
// the round before, then made up much of what was measured: its ratio
// moved between runs by a factor of two. Under -short (make test's smoke
// run of each benchmark) the calls run once.
const MinSegment = 20 * time.Millisecond

// Variant is one way of doing an operation: ddbkit's, the hand-written
// one, guregu/dynamo's, or the same operation on another store. Op does the
// i-th call (i counts from 0 for each variant, so that writes can vary
// their input).
type Variant struct {
	Name string
	Op   func(i int) error
	// Consumes marks an Op that uses up items made for it beforehand (a
	// delete of a pool): Compare makes exactly its share of b.N calls a
	// segment, without MinSegment's extension, which the pool is not
	// sized for.
	Consumes bool
}

// Compare measures variants[0] against each of the others, as the issue
// asks: in Rounds interleaved rounds (round r runs every variant once for
// b.N/Rounds calls and at least MinSegment, starting with variant r mod
// len), so that a slower
// machine or a busy neighbour slows them all alike. It reports:
//
//   - ns/op, B/op and allocs/op: variants[0]'s, per call (the median round's
//     time; bytes and allocations over all rounds);
//   - x-NAME for each other variant: the median over rounds of
//     variants[0]'s time per call over that variant's; 1.10 reads
//     "variants[0] costs 1.1× NAME".
//
// When stub is not nil, Compare first runs each variant once with stub
// recording, and fails unless all of them made the same calls: a ratio
// of two different sequences of requests would measure nothing.
func Compare(b *testing.B, stub *Stub, variants ...Variant) {
	b.Helper()
	if len(variants) < 2 {
		b.Fatal("bench: Compare needs a variant and something to compare it with")
	}
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

	n := max(1, b.N/Rounds)
	perCall := make([][]float64, len(variants)) // [variant][round] ns per call
	var mallocs, bytes uint64
	calls0 := 0 // variants[0]'s calls, over all rounds
	minSegment := MinSegment
	if testing.Short() {
		minSegment = 0
	}
	var ms runtime.MemStats
	// The timer runs only while the calls do: a collection before each
	// segment keeps one variant's garbage off the next one's time, and on
	// a large heap it would otherwise count against b.N's calibration.
	b.ResetTimer()
	b.StopTimer()
	for r := range Rounds {
		for k := range variants {
			v := (r + k) % len(variants)
			runtime.GC()
			if v == 0 {
				runtime.ReadMemStats(&ms)
				mallocs, bytes = mallocs-ms.Mallocs, bytes-ms.TotalAlloc
			}
			b.StartTimer()
			start := time.Now()
			calls := 0
			for calls < n || (!variants[v].Consumes && time.Since(start) < minSegment) {
				call(v)
				calls++
			}
			perCall[v] = append(perCall[v], float64(time.Since(start).Nanoseconds())/float64(calls))
			if v == 0 {
				calls0 += calls
			}
			b.StopTimer()
			if v == 0 {
				runtime.ReadMemStats(&ms)
				mallocs, bytes = mallocs+ms.Mallocs, bytes+ms.TotalAlloc
			}
		}
	}

	calls := float64(calls0)
	b.ReportMetric(median(perCall[0]), "ns/op")
	b.ReportMetric(float64(bytes)/calls, "B/op")
	b.ReportMetric(float64(mallocs)/calls, "allocs/op")
	for v := 1; v < len(variants); v++ {
		ratios := make([]float64, Rounds)
		for r := range ratios {
			ratios[r] = perCall[0][r] / perCall[v][r]
		}
		b.ReportMetric(math.Round(median(ratios)*1000)/1000, "x-"+variants[v].Name)
	}
}

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
	large := 100_000
	if testing.Short() {
		large = 2_000
	}
	Compare(b, nil, Variant{Name: "100k", Op: page(large)}, Variant{Name: "1k", Op: page(1_000)})
}
