package kondate_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/obstest"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/kondate/kondatetest"
)

// TestTelemetryHoldsNoData runs the conformance suite, every method of the
// store, under a recording SDK, and holds every string of the spans and
// metrics to the names telemetry may carry: none of the suite's IDs,
// names, contents, cursors or idempotency keys.
func TestTelemetryHoldsNoData(t *testing.T) {
	rec := ddbtest.NewRecorder()
	var tables obstest.Tables
	// A group waits for the suite's parallel subtests.
	t.Run("suite", func(t *testing.T) {
		newStore := func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store {
			return kondate.NewMemoryStore(append(opts, func(o *kondate.Options) {
				o.TracerProvider, o.MeterProvider = rec.TracerProvider(), rec.MeterProvider()
				tables.Add(o.TableName)
			})...)
		}
		kondatetest.Run(t, newStore)
		kondatetest.RunSharded(t, newStore)
	})
	obstest.NoData(t, rec, "kondate", &kondate.MemoryStore{}, &tables, 64)
}
