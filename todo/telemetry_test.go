package todo_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/obstest"
	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/todo/todotest"
)

// TestTelemetryHoldsNoData runs the conformance suite, every method of the
// store, under a recording SDK, and holds every string of the spans and
// metrics to the names telemetry may carry: none of the suite's user
// names, e-mails, IDs, titles, cursors or idempotency keys.
func TestTelemetryHoldsNoData(t *testing.T) {
	rec := ddbtest.NewRecorder()
	var tables obstest.Tables
	// A group waits for the suite's parallel subtests.
	t.Run("suite", func(t *testing.T) {
		newStore := func(t *testing.T, opts ...func(*todo.Options)) todo.Store {
			return todo.NewMemoryStore(append(opts, func(o *todo.Options) {
				o.TracerProvider, o.MeterProvider = rec.TracerProvider(), rec.MeterProvider()
				tables.Add(o.TableName)
			})...)
		}
		todotest.Run(t, newStore)
	})
	obstest.NoData(t, rec, "todo", &todo.MemoryStore{}, &tables, 17)
}
