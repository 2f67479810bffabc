package obs_test

import (
	"context"
	"testing"

	"github.com/ddbkit/ddbkit/internal/obs"
)

// BenchmarkStartOff is what a store method pays for telemetry with no SDK
// installed: OpenTelemetry's global providers, never set.
func BenchmarkStartOff(b *testing.B) {
	t := obs.New("todo", nil, nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c, op := t.Start(ctx, "GetUser", "table")
		var err error
		op.End(&err)
		_ = c
	}
}
