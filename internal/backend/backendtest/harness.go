// Package backendtest is the conformance suite of package backend: Run
// holds a Backend to the contract every domain's operations rely on, in
// the style of gocloud's docstore drivertest and testing/fstest.TestFS.
// Both implementations run it (internal/backend's tests: the memory
// backend, and the DynamoDB one on DynamoDB Local), so that any case where
// they disagree fails one of them.
//
// Each case gets a fresh Harness from the caller's factory: a backend over
// fresh tables of the suite's schema (Schema), a way to read every stored
// item back, and the backend's clock. After every case the suite checks
// the invariants every backend keeps: each GSI entry matches its base
// item, and, where the harness can copy a backend (the memory backend's
// Export and Import), the copy holds and answers the same.
//
// Where the backends really differ, the harness declares it (a field of
// Harness); the suite never asks which backend it runs.
package backendtest

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Harness is one backend over fresh tables, for one case.
type Harness struct {
	// Backend serves Main, Other and TTL, and reads Clock.
	Backend backend.Backend
	// Main is Schema's main table (keys pk and sk, GSIs ByG, BySparse and
	// ByPK), under the harness's own name.
	Main backend.Table
	// Other is Schema's second table (partition key id, no sort key, GSI
	// ByOther).
	Other backend.Table
	// TTL is Schema's table with a TTL attribute (keys pk and sk, TTL exp).
	TTL backend.Table
	// Items returns every item stored in table t, in any order, expired
	// ones included (a consistent Scan, or the memory backend's Export).
	Items func(t *testing.T, table ddb.Table) []ddb.Item
	// SetClock sets the time the backend's clock reads from now on.
	SetClock func(time.Time)

	// Reload, when set, copies every table of Backend into a fresh
	// backend (the memory backend's Export, then Import into a new one):
	// the suite checks after every case that the copy holds the same
	// items and answers the same index queries.
	Reload func(t *testing.T) Copy

	// TokenWindow is how long a ClientRequestToken binds its writes on
	// this backend, 0 when longer than any case runs (DynamoDB Local
	// keeps tokens while it runs; DynamoDB and the memory backend, ten
	// minutes).
	TokenWindow time.Duration
	// GSILag is how long after a write, by the clock, a Query of a GSI
	// may still miss it (0: at once, as on DynamoDB Local): the suite
	// moves the clock on by GSILag before it reads an index.
	GSILag time.Duration

	// ClockReads, when set, returns how many times the backend has read
	// its clock: the suite checks that each primitive reads it as often
	// as the contract says (once per read of a table with a TTL, once per
	// write under an idempotency key, else never), so that a step clock
	// gives every backend the same times. A harness whose backend reads
	// it more (an emulation) leaves it nil.
	ClockReads func() int

	// Calls, when set, returns how many DynamoDB calls the backend has
	// made (a counting client; for the memory backend, the calls its
	// emulation counts): the suite checks what each primitive costs, and
	// that what is refused before any call makes none.
	Calls func() int

	// Throttles is whether the backend may throttle calls (and retry
	// them within its policy): then a transaction's retries spend its
	// run's attempts, and a read-modify-write may build fewer times than
	// it has attempts.
	Throttles bool

	now time.Time // what the suite last set the clock to
}

// setClock sets the backend's clock to now.
func (h *Harness) setClock(now time.Time) {
	h.now = now
	h.SetClock(now)
}

// settle moves the clock on until every write so far shows in the GSIs.
func (h *Harness) settle() {
	if h.GSILag > 0 {
		h.setClock(h.now.Add(h.GSILag))
	}
}

// Copy is a backend Reload made, and a way to read its items.
type Copy struct {
	Backend backend.Backend
	Items   func(t *testing.T, table ddb.Table) []ddb.Item
}

// The suite's schema: attribute and index names. Values of index key
// attributes are Strings.
const (
	PK, SK   = "pk", "sk"   // Main and TTL keys
	ID       = "id"         // Other's partition key
	GPK, GSK = "gpk", "gsk" // ByG's keys
	SPK, SSK = "spk", "ssk" // BySparse's keys: few items hold them
	Exp      = "exp"        // TTL's TTL attribute
)

// ByG and BySparse are Main's GSIs, projecting all attributes.
var (
	ByG      = ddb.Index{Name: "by-g", PartitionKey: GPK, SortKey: GSK}
	BySparse = ddb.Index{Name: "by-sparse", PartitionKey: SPK, SortKey: SSK}
)

// Schema returns the three tables a harness serves, under base names
// ("bt-main", "bt-other", "bt-ttl"): a harness gives each a name of its
// own per case.
func Schema() (main, other, ttl backend.Table) {
	main = backend.Table{Table: ddb.Table{Name: "bt-main", PartitionKey: PK, SortKey: SK}, Indexes: []ddb.Index{ByG, BySparse, ByPK}}
	other = backend.Table{Table: ddb.Table{Name: "bt-other", PartitionKey: ID}, Indexes: []ddb.Index{ByOther}}
	ttl = backend.Table{Table: ddb.Table{Name: "bt-ttl", PartitionKey: PK, SortKey: SK}, TTL: Exp}
	return main, other, ttl
}

// CreateTableInput is t as a DynamoDB table: String keys, every GSI
// projecting all attributes, on demand. (The TTL attribute needs no
// setting: reads hide expired items themselves.)
func CreateTableInput(t backend.Table) *dynamodb.CreateTableInput {
	seen := map[string]bool{}
	var defs []types.AttributeDefinition
	def := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
		}
	}
	schema := func(pk, sk string) []types.KeySchemaElement {
		def(pk)
		ks := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
		if sk != "" {
			def(sk)
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
		}
		return ks
	}
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(t.Name),
		KeySchema:   schema(t.PartitionKey, t.SortKey),
		BillingMode: types.BillingModePayPerRequest,
	}
	for _, ix := range t.Indexes {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName:  aws.String(ix.Name),
			KeySchema:  schema(ix.PartitionKey, ix.SortKey),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		})
	}
	in.AttributeDefinitions = defs
	return in
}
