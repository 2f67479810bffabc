package kondate_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// TestTranscript: the same script of every operation, on the memory store
// and on DynamoDB Local, gives the same transcript: results, errors (text
// included), and what each listing reads back afterwards.
func TestTranscript(t *testing.T) {
	script := func(s kondate.Store) string {
		var b strings.Builder
		f := newFixture(t, s)
		for _, c := range every(s, t.Context(), f) {
			err := c.call()
			fmt.Fprintf(&b, "%s: %v %v\n", c.name, err, ddbkit.MatchingSentinels(err))
		}
		// Every call again: now many address what the first round deleted.
		for _, c := range every(s, t.Context(), f) {
			err := c.call()
			fmt.Fprintf(&b, "again %s: %v %v\n", c.name, err, ddbkit.MatchingSentinels(err))
		}
		snap := snapshot(t, s)
		for _, k := range slices.Sorted(maps.Keys(snap)) {
			fmt.Fprintf(&b, "%s = %s\n", k, snap[k])
		}
		return b.String()
	}
	ds, _, _ := newDynamo(t, nil, deterministic, kondate.AllIndexes)
	mem, dyn := script(kondate.NewMemoryStore(deterministic, kondate.AllIndexes)), script(ds)
	if mem != dyn {
		ml, dl := strings.Split(mem, "\n"), strings.Split(dyn, "\n")
		for i := range min(len(ml), len(dl)) {
			if ml[i] != dl[i] {
				t.Errorf("line %d:\nmemory: %s\ndynamo: %s", i, ml[i], dl[i])
			}
		}
		t.Fatalf("transcripts differ")
	}
}
