package ddbtest_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/ddbtest"
)

// TestMain stops DynamoDB Local as soon as the tests end, which also
// exercises Main.
func TestMain(m *testing.M) { ddbtest.Main(m) }
