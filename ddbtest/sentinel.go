package ddbtest

import (
	"testing"

	"github.com/ddbkit/ddbkit"
)

// WantSentinel fails t unless err matches want and no other of
// ddbkit.Sentinels(): the error contract every store keeps. want nil
// requires err to be nil.
func WantSentinel(t testing.TB, what string, err, want error) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Errorf("%s: error = %v, want nil", what, err)
		}
		return
	}
	matched := ddbkit.MatchingSentinels(err)
	if len(matched) != 1 || matched[0] != want {
		t.Errorf("%s: error = %v; it matches sentinels %v, want exactly [%v]", what, err, matched, want)
	}
}
