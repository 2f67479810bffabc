package kondate

import (
	"fmt"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
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
	// (NewULIDs), as the seed's IDs are.
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
	// secret shared by all instances to make them unforgeable.
	CursorSecret []byte
}

func newOptions(optFns []func(*Options)) Options {
	o := Options{TableName: DefaultTableName, Clock: time.Now}
	for _, fn := range optFns {
		fn(&o)
	}
	if o.NewID == nil {
		o.NewID = NewULIDs(o.Clock)
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
	return t
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
