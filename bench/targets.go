package bench

import "strconv"

// Target is the goal of one ratio unit: at most Max, or at least Min when
// Min is set.
type Target struct {
	Unit     string
	Max, Min float64
}

// Targets are the goals of issues 15 and 40, one per ratio Compare
// reports; cmd/benchrun marks every figure that misses its own. x-otel
// (issue 38's overhead of a recording OpenTelemetry SDK on the DynamoDB
// store, an Overhead variant) is here before its benchmarks are.
var Targets = []Target{
	{Unit: "x-handwritten", Max: 1.1},
	{Unit: "x-guregu", Max: 1.0},
	{Unit: "x-memory", Min: 100},
	{Unit: "x-1k", Max: 1.1},
	{Unit: "x-otel", Max: 1.05},
}

// Meets reports whether v meets t.
func (t Target) Meets(v float64) bool {
	if t.Min != 0 {
		return v >= t.Min
	}
	return v <= t.Max
}

// String is the target as the table prints it: "≤ 1.1", "≥ 100".
func (t Target) String() string {
	if t.Min != 0 {
		return "≥ " + trim(t.Min)
	}
	return "≤ " + trim(t.Max)
}

func trim(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
