// Package wardrobetest is the conformance suite for wardrobe.Store
// implementations. The DynamoDB store and the memory store both run it,
// which is what keeps the memory store an honest fake: same results,
// errors, order and page boundaries.
package wardrobetest

import (
	"testing"

	"github.com/ddbkit/ddbkit/wardrobe"
)

// NewStore returns a fresh, empty store configured with opts. Each subtest
// calls it once.
type NewStore func(t *testing.T, opts ...func(*wardrobe.Options)) wardrobe.Store

// Run runs every conformance test against stores made by newStore.
func Run(t *testing.T, newStore NewStore) {
	t.Skip("TODO")
}
