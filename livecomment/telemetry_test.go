package livecomment_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/obstest"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/livecomment/livecommenttest"
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
		newStore := func(t *testing.T, opts ...func(*livecomment.Options)) livecomment.Store {
			return livecomment.NewMemoryStore(append(opts, func(o *livecomment.Options) {
				o.TracerProvider, o.MeterProvider = rec.TracerProvider(), rec.MeterProvider()
				n := livecomment.Tables(o.Env)
				tables.Add(n.Rooms, n.Comments, n.Connections)
			})...)
		}
		livecommenttest.Run(t, newStore)
		livecommenttest.RunSharded(t, newStore)
	})
	obstest.NoData(t, rec, "livecomment", &livecomment.MemoryStore{}, &tables, 12)
}
