package ddbkit

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Emulation is what a memory store can emulate of DynamoDB beyond what
// DynamoDB Local shows, so that a unit test meets the behaviours a program
// must survive in production: GSIs that lag behind the table, throttling,
// and the TTL process deleting expired items. Each domain's Options has an
// Emulation field, which only its memory store reads. The zero Emulation,
// the default, emulates none of it. Everything it does is deterministic
// under the store's clock and its sequence of calls.
//
// A test that reads a GSI right after a write, say, passes on the
// memory store and on DynamoDB Local, and fails now and then in
// production; with GSILag set, it fails in the unit test.
type Emulation struct {
	// GSILag makes a listing served by a GSI see the table as it was
	// GSILag ago by the store's clock: it misses an item written less
	// than GSILag ago, sees the version before a more recent change, and
	// still sees an item deleted less than GSILag ago, as DynamoDB's
	// eventually consistent GSIs may. With a step clock, every clock read
	// moves time on; set the lag in those steps.
	GSILag time.Duration

	// Throttle, when set, is asked before each call the DynamoDB store
	// would make, with the call's number (from 1, retries included); when
	// it reports true, the call fails as DynamoDB fails a throttled call
	// and applies nothing. The store retries it within its RetryPolicy,
	// as the DynamoDB store does, and reports ErrUnavailable once the
	// attempts are spent. ThrottleEvery(n) throttles every nth call.
	Throttle func(call int) bool

	// DeleteExpired makes the store delete an item ExpiryDelay after the
	// time its TTL attribute holds, as DynamoDB's TTL process does some
	// time (up to days) after expiry. Reads hide an expired item either
	// way; deletion is what Export and the conditions of later writes
	// see. Only tables with a TTL attribute are affected.
	DeleteExpired bool
	ExpiryDelay   time.Duration

	// Capacity, when set, holds the store to a model of DynamoDB's
	// capacity, such as ddbtest.PartitionClient's per-partition and
	// per-item limits: each call the DynamoDB store would make is
	// described to it, with the items it reads and writes, before the
	// call applies anything, and a call it refuses fails as DynamoDB
	// fails a throttled call, applies nothing, and is retried within the
	// RetryPolicy like one. A load test then meets hot partitions with no
	// DynamoDB at all. A batch is judged whole: refused, it is retried
	// whole, where DynamoDB would return the refused keys or writes as
	// unprocessed.
	Capacity CapacityModel
}

// CapacityModel judges a memory store's calls against a model of
// DynamoDB's capacity (see Emulation.Capacity). Admit is called once per
// attempt of a call, with the store's lock held, in the order the calls
// take effect; it reports whether the call may go through, and when it
// does, takes the call's price. It must be safe for concurrent use by
// several stores.
type CapacityModel interface {
	Admit(c CapacityCall) bool
}

// CapacityCall is one call a memory store would make to DynamoDB, as a
// CapacityModel prices it: the operation and what it reads and writes.
type CapacityCall struct {
	// Op is the DynamoDB operation the DynamoDB store makes: "GetItem",
	// "Query", "BatchGetItem", "PutItem", "UpdateItem", "DeleteItem",
	// "BatchWriteItem" or "TransactWriteItems".
	Op     string
	Reads  []CapacityRead
	Writes []CapacityWrite
}

// CapacityRead is what a read call reads: an item (GetItem, and each key
// of a BatchGetItem) or a page of a partition (Query).
type CapacityRead struct {
	// Table is the table's name; Index the index a Query reads, "" for
	// the table.
	Table, Index string
	// Key holds the partition key attributes of what is read, of the
	// index for a Query of one (a GetItem's whole key will do).
	Key map[string]types.AttributeValue
	// Size is the bytes read: the item's (0 when there is none), or for a
	// Query every item it evaluated, filtered out or not.
	Size       int
	Consistent bool
}

// CapacityWrite is one item a write call puts, updates, deletes or (in a
// transaction) checks.
type CapacityWrite struct {
	// Table is the table's name, Key the item's primary key.
	Table string
	Key   map[string]types.AttributeValue
	// Old and New are the item before and after the write, nil where
	// there is none; a write whose condition fails, and a ConditionCheck,
	// leave New equal to Old.
	Old, New map[string]types.AttributeValue
}

// ThrottleEvery returns an Emulation.Throttle that throttles every nth
// call (n >= 1).
func ThrottleEvery(n int) func(call int) bool {
	return func(call int) bool { return n > 0 && call%n == 0 }
}
