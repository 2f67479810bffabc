package ddbkit

import "time"

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
}

// ThrottleEvery returns an Emulation.Throttle that throttles every nth
// call (n >= 1).
func ThrottleEvery(n int) func(call int) bool {
	return func(call int) bool { return n > 0 && call%n == 0 }
}
