package kondate

import (
	"fmt"
	"time"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
	"github.com/ddbkit/ddbkit/schema"
)

// DefaultTableName is the seed's table name.
const DefaultTableName = "MainTable"

// DeletedFridgeRetention is how long a deleted fridge item stays in the
// archive: its ttl attribute is set to DeletedAt plus this, and DynamoDB's
// TTL deletes it some time after that (usually within days). Until then it
// can be restored, and it is listed, whether or not it has expired.
const DeletedFridgeRetention = 30 * 24 * time.Hour

// Options configure a store. Both stores take the same options.
type Options struct {
	// TableName is the DynamoDB table. The default is DefaultTableName.
	// The memory store uses it too, because page cursors are bound to it.
	TableName string
	// Clock stamps createdAt, updatedAt and the times in keys. The default
	// is time.Now.
	Clock ddbkit.Clock
	// NewID makes IDs. The default makes ULIDs stamped with Clock
	// (ddbkit.NewULIDs), as the seed's IDs are.
	NewID ddbkit.IDGenerator
	// Retry bounds the retries of every operation: a read-modify-write
	// (ApplySet, PromoteNextPlan, DeleteFridgeItem, RestoreFridgeItem) that
	// loses a race, and calls DynamoDB throttles, fails with a 5xx or whose
	// response is lost.
	// The zero value is the default policy; see ddbkit.RetryPolicy.
	Retry ddbkit.RetryPolicy
	// CursorSecret keys the MAC of page cursors. The default is none:
	// cursors are bound to their listing and tamper-evident but, without a
	// secret, forgeable within the caller's own partition and range. Set a
	// secret shared by all instances to make them unforgeable: at least 16
	// bytes (use 32 random bytes). A secret of 1 to 15 bytes is refused,
	// not used: every listing then fails with ErrInvalidArgument naming
	// CursorSecret, on both stores.
	CursorSecret []byte
	// WithholdOldItems, when true, stops the store asking DynamoDB for the
	// item as it was when a write's condition fails
	// (ReturnValuesOnConditionCheckFailure ALL_OLD), which DynamoDB hands
	// to any principal allowed the write. Set it for a role that must not
	// read the table through its writes (package iam lists the methods
	// that can: Grants.ReadsThroughConditions). The price is precision: a
	// failed condition that needs that item to tell what it stands for is
	// returned as ErrConflict, saying the item was withheld, where the
	// method would have returned ErrNotFound or ErrAlreadyExists or tried
	// again; the memory store answers the same. It changes what the store
	// asks for, not what the role may: only the role's policy binds a
	// caller that calls DynamoDB itself.
	WithholdOldItems bool
	// FilterBudget is the most items a filtered listing evaluates per
	// page; the default (zero) is 1,000. The catalog's lists filtered by a
	// tag read the catalog in order and keep the entries with the tag: a
	// page stops when it is full, the list ends, or it has read
	// FilterBudget entries, whichever comes first, and may
	// then be short or empty, with a Next cursor to go on from. So a tag
	// nobody uses costs one page's budget per call, never the whole
	// catalog. Both stores end such pages at the same entry.
	FilterBudget int
	// EnableGSI1, EnableGSI2 and EnableGSI3 say which of the seed's
	// indexes the table has, as the seed's stack parameters of the same
	// names do (section 10): GSI1 (find by ID, catalog detail, share link
	// targets, saves of an entry) is on by default, GSI2 (catalog newest and
	// popular) and GSI3 (catalog by creator) are off. An operation that
	// needs a disabled index fails with ddbkit.ErrSchemaMismatch before any
	// call; the newest and by-creator lists need none, reading the base
	// table until GSI2 and GSI3 are enabled. Writes do not depend on them:
	// every item always carries all its GSI key attributes, so an index
	// enabled later holds the items written before (DynamoDB backfills a new
	// index from the table). Definition and EnsureTable build the table from
	// them, adding one index per UpdateTable; a table may be ahead of the
	// options, never behind.
	EnableGSI1, EnableGSI2, EnableGSI3 bool
	// SavesIndexed says that every saved item in the table carries its
	// GSI1 keys (ENTITY#<kind>#<id> / SAVED#<userId>), as ddbkit writes
	// them: "ddbkit migrate kondate-saves" has added them to the saves
	// written before (the seed's app writes none), and every writer of
	// saves since writes them too. Only then does RecalculatePopularity
	// lower a savedCount to the saves it counts; without it, it raises a
	// count below the saves it finds and reports the others unchanged. The
	// default is off: a flag, not a read of the table, because no item can
	// tell that the other writers keep it.
	SavesIndexed bool
	// CatalogShards spreads the public catalog over that many partitions
	// per kind, so that saves and publishes of one kind are not capped by
	// one partition's ~1,000 writes/s (see "Sharded catalog" in the
	// package doc): 0 or 1 is the seed's layout, one partition
	// CATALOG#<kind> (the default); 2 to MaxCatalogShards puts an entry
	// published from then on under CATALOG#<kind>#<shard> (shard 0 keeping
	// CATALOG#<kind>), with the shard from its ID (CatalogShard), and the
	// newest and popular lists merge the shards. Any other value fails
	// every catalog operation with ErrInvalidArgument naming CatalogShards.
	CatalogShards int
	// NewShareID makes share link IDs. The default makes 128 random bits
	// from crypto/rand, as 26 characters of lower-case base32: share IDs
	// must not be guessable (see the package doc). Tests may set a
	// deterministic generator.
	NewShareID ddbkit.IDGenerator
	// Emulation is what MemoryStore emulates of DynamoDB beyond DynamoDB
	// Local (see ddbkit.Emulation): GSI lag and throttling. The table's
	// TTL (archived fridge items) is not one the stores read through, so
	// DeleteExpired has nothing to delete. The zero value emulates none of
	// it; the DynamoDB store ignores it.
	Emulation ddbkit.Emulation

	schema []func(*schema.Options) // EnsureTable's; see SchemaOptions
	// TracerProvider makes the store's spans: one per method, named
	// "kondate.<Method>", with what it cost in DynamoDB calls and capacity
	// (the README's "Observability" lists the attributes). The default,
	// nil, is OpenTelemetry's global provider. The memory store reports
	// what the DynamoDB store would.
	TracerProvider trace.TracerProvider
	// MeterProvider makes the store's metrics (the README's
	// "Observability"). The default, nil, is OpenTelemetry's global
	// provider.
	MeterProvider metric.MeterProvider
}

// AllIndexes enables GSI1, GSI2 and GSI3: the whole catalog. Use it once
// the table has all three (see EnsureTable).
func AllIndexes(o *Options) { o.EnableGSI1, o.EnableGSI2, o.EnableGSI3 = true, true, true }

func newOptions(optFns []func(*Options)) Options {
	o := Options{TableName: DefaultTableName, Clock: time.Now, EnableGSI1: true}
	for _, fn := range optFns {
		fn(&o)
	}
	if o.NewID == nil {
		o.NewID = ddbkit.NewULIDs(o.Clock)
	}
	if o.NewShareID == nil {
		o.NewShareID = randomShareID
	}
	return o
}

// now returns the time to store: UTC, at the millisecond precision of the
// stored timestamps, so what a store returns equals what it reads back.
func (o Options) now() time.Time { return o.Clock().UTC().Truncate(time.Millisecond) }

func (o Options) backoff() ddb.Backoff { return ddb.BackoffOf(o.Retry) }

// table returns the store's table, with the cursor secret.
func (o Options) table() ddb.Table {
	t := table(o.TableName)
	t.CursorSecret = string(o.CursorSecret)
	t.WithholdOld = o.WithholdOldItems
	return t
}

// index returns ix if the options enable it, else the error of an
// operation that needs it: ErrSchemaMismatch, since the table as the
// options describe it lacks the index.
func (o Options) index(ix ddb.Index) error {
	on := map[string]bool{indexGSI1.Name: o.EnableGSI1, indexGSI2.Name: o.EnableGSI2, indexGSI3.Name: o.EnableGSI3}[ix.Name]
	if on {
		return nil
	}
	return fmt.Errorf("index %s of table %s is disabled (Options.Enable%s): %w; enable it once the table has it (EnsureTable adds it)",
		ix.Name, o.TableName, ix.Name, ddbkit.ErrSchemaMismatch)
}

// Errors both stores return, so that they match in category and in text.

func errNotFound(kind, userID, id string) error {
	return fmt.Errorf("%s %q of user %q: %w", kind, id, userID, ddbkit.ErrNotFound)
}

func errExists(kind, userID, id string) error {
	return fmt.Errorf("%s %q of user %q: %w; the ID generator repeated an ID", kind, id, userID, ddbkit.ErrAlreadyExists)
}

// wrap prefixes err with the package and operation, as every error of the
// package reads, and gives it exactly one ddbkit sentinel (ddb.Classify).
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("kondate: %s: %w", op, ddb.Classify(err))
}

// telemetry is the store's telemetry (package obs).
func (o Options) telemetry() *obs.Telemetry {
	return obs.New("kondate", o.TracerProvider, o.MeterProvider)
}
