// Command benchrun runs the comparative benchmarks of bench (bench/doc.go)
// and writes their whole table, with the machine, the commit and the
// run's duration, to bench/RESULTS.md; "make bench" runs it from the
// repository's root.
//
// Each top-level benchmark (BenchmarkTodo, BenchmarkTodoFake, ...) runs
// in a process of its own, from a test binary built once per package,
// with -benchtime=1x: Compare schedules its own rounds. A process of its
// own keeps what one benchmark leaves behind off the next one's figures:
// the DynamoDB Local that a Fake benchmark starts (a JVM that goes on
// compiling and collecting on the two cores after its last request) and
// the heap of its stores (bench/doc.go tells the experiment).
//
// Usage:
//
//	go run ./cmd/benchrun [-bench regexp] [-out RESULTS.md] [-short] [-misses misses.txt]
//
// -hurry (15 minutes) is how long the run goes at the full plan: the
// figures measured after it get 2 rounds each (their rounds column shows
// it, and their misses read "too few to tell"), so that on a machine
// slower than the one the plan was sized for "make bench" still ends
// near 20 minutes.
//
// -bench selects benchmarks as go test's -bench does (levels split on
// "/"). A run of part of them, or under -short, writes RESULTS-partial.md
// (ignored by git) unless -out says otherwise. -short runs every benchmark once per variant, as make test does:
// a check of the plumbing in a few minutes, whose figures mean nothing.
// The plan of rounds comes from the environment (bench.DefaultPlan says
// which variables).
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ddbkit/ddbkit/bench"
)

// packages are bench's domain packages, in the order of the table.
var packages = []string{"todo", "wardrobe", "livecomment", "taskmgmt", "kondate"}

func main() {
	benchRE := flag.String("bench", ".", "benchmarks to run, as go test -bench")
	out := flag.String("out", "", "the results file to write (RESULTS.md for a whole run, else RESULTS-partial.md)")
	short := flag.Bool("short", false, "one call per variant (a check of the plumbing)")
	missesFile := flag.String("misses", "misses.txt", "known reasons for missed targets")
	hurry := flag.Duration("hurry", 15*time.Minute, "after this long, 2 rounds a figure, so that the run ends in time (0: never)")
	flag.Parse()
	if *out == "" {
		// Only a whole run may become the committed table.
		*out = "RESULTS.md"
		if *short || *benchRE != "." {
			*out = "RESULTS-partial.md"
		}
	}
	if err := run(*benchRE, *out, *short, *missesFile, *hurry); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
}

// row is one benchmark's line of go test's output.
type row struct {
	family, name string // "BenchmarkTodo", "CreateUser"
	metrics      map[string]float64
}

func run(benchRE, out string, short bool, missesFile string, hurry time.Duration) error {
	began := time.Now()
	hurryAt := ""
	if hurry > 0 && os.Getenv("BENCH_HURRY") == "" {
		hurryAt = began.Add(hurry).Format(time.RFC3339)
	}
	load0 := loadavg()
	levels := splitRegexp(benchRE)
	top, err := regexp.Compile(levels[0])
	if err != nil {
		return fmt.Errorf("-bench: %w", err)
	}
	known, err := readMisses(missesFile)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "benchrun")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	var rows []row
	var failed []string
	goCPU := "" // go test's "cpu:" line, the processor's own name for itself
	type timing struct {
		family string
		d      time.Duration
	}
	var timings []timing
	for _, pkg := range packages {
		bin := filepath.Join(tmp, pkg+".test")
		build := exec.Command("go", "test", "-c", "-o", bin, "./"+pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building %s: %w", pkg, err)
		}
		list, err := exec.Command(bin, "-test.list", "^Benchmark").Output()
		if err != nil {
			return fmt.Errorf("listing %s's benchmarks: %w", pkg, err)
		}
		for _, family := range strings.Fields(string(list)) {
			if !top.MatchString(family) {
				continue
			}
			sel := append([]string{"^" + family + "$"}, levels[1:]...)
			args := []string{"-test.run", "^$", "-test.bench", strings.Join(sel, "/"),
				"-test.benchtime", "1x", "-test.benchmem", "-test.timeout", "30m"}
			if short {
				args = append(args, "-test.short")
			}
			fmt.Fprintf(os.Stderr, "benchrun: %s %s ...\n", pkg, family)
			t0 := time.Now()
			cmd := exec.Command(bin, args...)
			cmd.Dir = pkg
			cmd.Env = append(os.Environ(), "DDBTEST_REQUIRED=1")
			if hurryAt != "" {
				cmd.Env = append(cmd.Env, "BENCH_HURRY="+hurryAt)
			}
			var stdout bytes.Buffer
			cmd.Stdout, cmd.Stderr = io.MultiWriter(&stdout, os.Stderr), os.Stderr
			err := cmd.Run()
			timings = append(timings, timing{family, time.Since(t0)})
			if goCPU == "" {
				goCPU = cpuLine(stdout.String())
			}
			got := parse(&stdout)
			rows = append(rows, got...)
			if err != nil {
				failed = append(failed, fmt.Sprintf("%s: %v", family, err))
			}
		}
	}

	var b strings.Builder
	b.WriteString("# Benchmark results\n\n")
	b.WriteString("Written by `make bench` (bench/cmd/benchrun); bench/doc.go says what each figure compares and how it is measured.\n\n")
	fmt.Fprintf(&b, "- commit: %s\n", commit())
	fmt.Fprintf(&b, "- date: %s\n", began.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "- duration: %s\n", time.Since(began).Round(time.Second))
	fmt.Fprintf(&b, "- machine: %d cores, %s, %s/%s, load average %s at the start and %s at the end\n",
		runtime.NumCPU(), cpuModel(goCPU), runtime.GOOS, runtime.GOARCH, load0, loadavg())
	fmt.Fprintf(&b, "- Go: %s\n", goVersion())
	p := bench.DefaultPlan
	fmt.Fprintf(&b, "- plan: %d to %d rounds of %s per variant, until the median's 95%% interval is within ±%g%%, at most %s a figure",
		p.MinRounds, p.MaxRounds, p.Segment, p.Tolerance*100, p.Budget)
	if hurryAt != "" {
		fmt.Fprintf(&b, "; after %s, 2 rounds a figure (-hurry)", hurry)
	}
	if s := planEnv(); s != "" {
		fmt.Fprintf(&b, "; overridden: %s", s)
	}
	b.WriteString("\n")
	if short {
		b.WriteString("- **-short: one call per variant, a check of the plumbing; the figures mean nothing.**\n")
	}
	if benchRE != "." {
		fmt.Fprintf(&b, "- **partial run: -bench %q**\n", benchRE)
	}
	b.WriteString("\nEach ratio is the median over interleaved rounds, with the lowest and highest round in brackets. " +
		"✗ marks a missed target, ~ one whose rounds straddle it (noise may decide).\n")

	var misses []string
	met, total := 0, 0
	for _, fam := range families(rows) {
		var units []string
		for _, r := range rows {
			if r.family != fam {
				continue
			}
			for u := range r.metrics {
				if strings.HasPrefix(u, "x-") && !strings.HasSuffix(u, "-lo") && !strings.HasSuffix(u, "-hi") && !slices.Contains(units, u) {
					units = append(units, u)
				}
			}
		}
		slices.SortFunc(units, func(a, c string) int { return cmp.Compare(targetIndex(a), targetIndex(c)) })
		fmt.Fprintf(&b, "\n## %s\n\n| operation | ns/op | B/op | allocs/op | rounds |", fam)
		for _, u := range units {
			t, ok := target(u)
			if ok {
				fmt.Fprintf(&b, " %s (%s) |", u, t)
			} else {
				fmt.Fprintf(&b, " %s |", u)
			}
		}
		b.WriteString("\n|---|--:|--:|--:|--:|" + strings.Repeat("--:|", len(units)) + "\n")
		for _, r := range rows {
			if r.family != fam {
				continue
			}
			m := r.metrics
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |", r.name, num(m["ns/op"]), num(m["B/op"]), num(m["allocs/op"]), num(m["rounds"]))
			for _, u := range units {
				v, ok := m[u]
				if !ok {
					b.WriteString(" |")
					continue
				}
				lo, hi := m[u+"-lo"], m[u+"-hi"]
				mark := ""
				if t, ok := target(u); ok {
					total++
					if t.Meets(v) {
						met++
					} else {
						mark = " ✗"
						noise := t.Meets(lo) || t.Meets(hi)
						if noise {
							mark = " ~"
						}
						misses = append(misses, missLine(r, u, v, lo, hi, t, noise, known))
					}
				}
				fmt.Fprintf(&b, " %s [%s–%s]%s |", ratio(v), ratio(lo), ratio(hi), mark)
			}
			b.WriteString("\n")
		}
	}

	fmt.Fprintf(&b, "\n## Targets\n\n%d of %d figures meet their target.\n", met, total)
	if len(misses) > 0 {
		b.WriteString("\nEvery miss, why, and what it would take:\n\n")
		for _, m := range misses {
			b.WriteString("- " + m + "\n")
		}
	}
	if len(failed) > 0 {
		b.WriteString("\n## Failed\n\n")
		for _, f := range failed {
			b.WriteString("- " + f + "\n")
		}
	}
	b.WriteString("\n## Time per benchmark (setup included)\n\n| benchmark | time |\n|---|--:|\n")
	for _, t := range timings {
		fmt.Fprintf(&b, "| %s | %s |\n", t.family, t.d.Round(100*time.Millisecond))
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "benchrun: %s written: %d of %d figures meet their target, in %s\n", out, met, total, time.Since(began).Round(time.Second))
	if len(failed) > 0 {
		return fmt.Errorf("%d benchmarks failed: %s", len(failed), strings.Join(failed, "; "))
	}
	return nil
}

// missLine says why a figure missed its target: the reason misses.txt
// knows, or what its rounds show.
func missLine(r row, unit string, v, lo, hi float64, t bench.Target, noise bool, known []knownMiss) string {
	s := fmt.Sprintf("%s/%s: %s %s [%s–%s], target %s. ", r.family, r.name, unit, ratio(v), ratio(lo), ratio(hi), t)
	for _, k := range known {
		if k.unit == unit && k.re.MatchString(r.family+"/"+r.name) {
			return s + k.why
		}
	}
	if n := r.metrics["rounds"]; n < 5 {
		return s + fmt.Sprintf("Only %g rounds (a -short or capped run, or measured after -hurry): too few to tell a cost from noise; a run of the default plan on a quiet machine would.", n)
	}
	if noise {
		return s + "Its rounds straddle the target: noise, not a measured miss. " +
			"A quiet machine, or more rounds (BENCH_MAX_ROUNDS=80 BENCH_BUDGET=10s make bench BENCH='" + r.family + "/" + r.name + "'), would decide."
	}
	return s + "Every round misses: a real cost, not yet explained. Profile both sides " +
		"(go test -run='^$' -bench='^" + r.family + "$/^" + r.name + "$' -benchtime=1x -cpuprofile cpu.out) and add the reason to bench/misses.txt."
}

// knownMiss is a line of misses.txt: a regexp over "Family/operation", a
// unit, and why the figure misses and what it would take.
type knownMiss struct {
	re   *regexp.Regexp
	unit string
	why  string
}

func readMisses(name string) ([]knownMiss, error) {
	data, err := os.ReadFile(name)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []knownMiss
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want regexp, unit and reason separated by tabs", name, i+1)
		}
		re, err := regexp.Compile(f[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		out = append(out, knownMiss{re, strings.TrimSpace(f[1]), strings.TrimSpace(f[2])})
	}
	return out, nil
}

// parse reads go test's benchmark lines: name, iterations, then value and
// unit pairs.
func parse(r io.Reader) []row {
	var rows []row
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		family, op, _ := strings.Cut(name, "/")
		m := make(map[string]float64)
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				m[f[i+1]] = v
			}
		}
		rows = append(rows, row{family, op, m})
	}
	return rows
}

func families(rows []row) []string {
	var out []string
	for _, r := range rows {
		if !slices.Contains(out, r.family) {
			out = append(out, r.family)
		}
	}
	return out
}

func target(unit string) (bench.Target, bool) {
	i := targetIndex(unit)
	if i == len(bench.Targets) {
		return bench.Target{}, false
	}
	return bench.Targets[i], true
}

func targetIndex(unit string) int {
	for i, t := range bench.Targets {
		if t.Unit == unit {
			return i
		}
	}
	return len(bench.Targets)
}

// splitRegexp splits a -bench regexp into its levels, at the slashes
// outside brackets and parentheses, as go test does.
func splitRegexp(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '/':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func num(v float64) string {
	if v >= 100 || v == float64(int64(v)) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func ratio(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	if v >= 10 {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func planEnv() string {
	var s []string
	for _, k := range []string{"BENCH_MIN_ROUNDS", "BENCH_MAX_ROUNDS", "BENCH_SEGMENT", "BENCH_TOLERANCE", "BENCH_BUDGET", "BENCH_CLOCK", "BENCH_HURRY"} {
		if v := os.Getenv(k); v != "" {
			s = append(s, k+"="+v)
		}
	}
	return strings.Join(s, " ")
}

func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	// Changes not committed under bench/RESULTS.md's parent count: a figure
	// of code no commit holds is marked so.
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no", "--", "..").Output(); err == nil {
		var dirty []string
		for _, l := range strings.Split(strings.TrimSpace(string(st)), "\n") {
			if l != "" && !strings.HasSuffix(l, "RESULTS.md") {
				dirty = append(dirty, strings.TrimSpace(l[2:]))
			}
		}
		if len(dirty) > 0 {
			c += " with changes not committed (" + strings.Join(dirty, ", ") + ")"
		}
	}
	return c
}

// cpuLine returns the processor go test names in its output's "cpu:"
// line.
func cpuLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "cpu: "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// cpuModel is /proc/cpuinfo's model name, and go test's name for the
// processor when it says more (a virtual machine's model name is often
// only the vendor's family).
func cpuModel(goCPU string) string {
	m := procModel()
	switch {
	case goCPU == "" || goCPU == m:
		return m
	case m == "CPU unknown":
		return goCPU
	}
	return m + " (" + goCPU + ")"
}

func procModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "CPU unknown"
	}
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "CPU unknown"
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}
