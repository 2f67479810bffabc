package wardrobe_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/wardrobe"
	"github.com/ddbkit/ddbkit/wardrobe/wardrobetest"
)

func TestMemoryStore(t *testing.T) {
	wardrobetest.Run(t, func(t *testing.T, opts ...func(*wardrobe.Options)) wardrobe.Store {
		return wardrobe.NewMemoryStore(opts...)
	})
}
