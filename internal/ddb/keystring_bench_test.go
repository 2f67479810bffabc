package ddb_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

func BenchmarkKeyString(b *testing.B) {
	k := ddb.Item{"PK": ddb.S("W#0190a6f2-7c3e-7000-8000-000000000000"), "SK": ddb.S("CLOTH#0190a6f2-7c3e-7000-8000-000000000001")}
	b.ReportAllocs()
	for range b.N {
		_ = ddb.KeyString(k)
	}
}
