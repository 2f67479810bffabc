// Package obstest holds the telemetry of a store to what it may carry: the
// names of its methods, tables, sentinels and outcomes, and numbers. Each
// domain's telemetry test runs its conformance suite under a
// ddbtest.Recorder and checks every string the telemetry holds with
// NoData, which shows that no key value, item content, token, e-mail,
// cursor or idempotency key the suite used reached a span or a metric.
package obstest

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// Tables collects the table names stores were built with, from an option
// the test appends to each store's (it runs last, on the options as the
// store will use them).
type Tables struct {
	mu    sync.Mutex
	names []string
}

// Add records names.
func (t *Tables) Add(names ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range names {
		if !slices.Contains(t.names, n) {
			t.names = append(t.names, n)
		}
	}
}

// NoData fails t unless every string rec's telemetry holds is one of the
// names it may carry: span names "<pkg>.<Method>" of a method of store's
// type, those methods as db.operation.name, tables' names as
// db.collection.name, "aws.dynamodb", the sentinels' names and the stream
// outcomes, and ddbkit's metric names; and unless the recording holds at
// least min spans (a test that recorded nothing proves nothing).
func NoData(t *testing.T, rec *ddbtest.Recorder, pkg string, store any, tables *Tables, min int) {
	t.Helper()
	strs, err := rec.Strings(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(store)
	method := func(name string) bool {
		_, ok := typ.MethodByName(name)
		return ok
	}
	allowed := map[string]func(string) bool{
		"span.name": func(v string) bool {
			m, ok := strings.CutPrefix(v, pkg+".")
			return ok && method(m)
		},
		"db.operation.name":  method,
		"db.collection.name": func(v string) bool { return slices.Contains(tables.names, v) },
		"db.system.name":     func(v string) bool { return v == obs.System },
		"error.type":         func(v string) bool { return slices.Contains(obs.ErrorTypes(), v) },
		"span.status":        func(v string) bool { return slices.Contains(obs.ErrorTypes(), v) },
		"ddbkit.outcome":     func(v string) bool { return slices.Contains(obs.Outcomes, v) },
		"metric.name": func(v string) bool {
			return slices.Contains([]string{obs.MetricDuration, obs.MetricReadUnits, obs.MetricWriteUnits,
				obs.MetricAttempts, obs.MetricThrottles, obs.MetricEvaluated, obs.MetricRecords}, v)
		},
	}
	for key, vs := range strs {
		ok := allowed[key]
		for _, v := range vs {
			if ok == nil || !ok(v) {
				t.Errorf("telemetry holds %s = %.60q, which is none of the names it may carry", key, v)
			}
		}
	}
	t.Logf("telemetry: %d distinct spans, tables %q, error types %q", len(strs["span.name"]), strs["db.collection.name"], strs["error.type"])
	if n := len(strs["span.name"]); n < min {
		t.Errorf("telemetry recorded %d distinct spans, want at least %d", n, min)
	}
}
