package kondate_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/kondate/kondatetest"
)

func TestMemoryStore(t *testing.T) {
	kondatetest.Run(t, func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store {
		return kondate.NewMemoryStore(opts...)
	})
}
