package todo

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/valid"
)

// Options configure a store. Both stores take the same options.
type Options struct {
	// TableName is the DynamoDB table. The default is TableName(): the
	// DYNAMODB_TABLE environment variable, else DefaultTableName. The memory
	// store uses it too, because page cursors are bound to it.
	TableName string
	// Clock stamps created_at and updated_at. The default is time.Now.
	Clock ddbkit.Clock
	// NewID makes todo and category IDs. The default makes UUIDv4s, as the
	// seed's example IDs are.
	NewID ddbkit.IDGenerator
	// Retry bounds the retries of every operation: a read-modify-write
	// (ToggleTodo, UpdateTodo with a category, DeleteCategory, DeleteUser)
	// that loses a race, and calls DynamoDB throttles, fails with a 5xx or
	// whose response is lost. The zero value is the default policy; see
	// ddbkit.RetryPolicy.
	Retry ddbkit.RetryPolicy
	// CursorSecret keys the MAC of page cursors. The default is none:
	// cursors are bound to their listing and tamper-evident but, without a
	// secret, forgeable within the caller's own partition and range. Set a
	// secret shared by all instances to make them unforgeable: at least 16
	// bytes (use 32 random bytes). A secret of 1 to 15 bytes is refused:
	// every listing, and DeleteCategory and DeleteUser, which page through
	// the user's partition, then fail with ErrInvalidArgument naming
	// CursorSecret, on both stores, before any call.
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
	// page; the default (zero or less) is 1000. A filtered page stops
	// there and returns what it found, possibly nothing, with a Next
	// cursor, so a filter that matches little costs one budget per page,
	// not the partition. Both stores end pages at the same item. Today the
	// one filtered walk is DeleteCategory's search for the todos that refer
	// to the category.
	FilterBudget int
	// Emulation makes the memory store emulate what DynamoDB does and
	// DynamoDB Local does not (see ddbkit.Emulation): here, throttling,
	// retried within Retry as DynamoStore retries it, and ErrUnavailable
	// once the attempts are spent. The table has no GSI and no TTL
	// attribute, so GSILag and DeleteExpired have nothing to act on. The
	// zero value, the default, emulates none of it. Memory store only:
	// DynamoStore ignores it.
	Emulation ddbkit.Emulation
	// TracerProvider makes the store's spans: one per method, named
	// "todo.<Method>", with what it cost in DynamoDB calls and capacity
	// (the README's "Observability" lists the attributes). The default,
	// nil, is OpenTelemetry's global provider. The memory store reports
	// what the DynamoDB store would.
	TracerProvider trace.TracerProvider
	// MeterProvider makes the store's metrics (the README's
	// "Observability"). The default, nil, is OpenTelemetry's global
	// provider.
	MeterProvider metric.MeterProvider
}

func newOptions(optFns []func(*Options)) Options {
	o := Options{
		TableName: TableName(),
		Clock:     time.Now,
		NewID:     ddbkit.NewUUIDv4,
	}
	for _, fn := range optFns {
		fn(&o)
	}
	return o
}

// now returns the time to store: UTC, at the millisecond precision of the
// seed's timestamps, so what a store returns equals what it later reads back.
func (o Options) now() time.Time { return o.Clock().UTC().Truncate(time.Millisecond) }

func (o Options) backoff() ddb.Backoff { return ddb.BackoffOf(o.Retry) }

// stamp returns the time to store, range-checked (valid.Validator.Time):
// a clock past year 9999 would write a timestamp no reader can parse back.
func (o Options) stamp() (time.Time, error) { return checkClock(o.now()) }

func checkClock(t time.Time) (time.Time, error) {
	var v valid.Validator
	v.Time("Clock", t)
	return t, v.Err
}

// scope is the scope of op's idempotency token: the table, and the
// partition of the user the call names (user#{username}), from the
// caller's input, never from an ID the call makes. CreateUser's user item
// lives in the shared "users" partition, but it too is scoped to the new
// user's own partition, its tenant.
func (o Options) scope(op, username string) ddb.Scope {
	pk, _ := userDataPK(username) // validated before
	return ddb.Scope{Table: o.TableName, Op: op, Partition: pk}
}

// table returns the store's table, with the cursor secret.
func (o Options) table() ddb.Table {
	t := table(o.TableName)
	t.CursorSecret = string(o.CursorSecret)
	t.WithholdOld = o.WithholdOldItems
	return t
}

// toggleClock stamps toggles. ToggleTodo recognises its own earlier write,
// after a lost response, by the updated_at it wrote; two toggles of one
// store must therefore never write the same one, even within a millisecond
// or under a clock that stands still. Each stamp is the clock's time, or a
// millisecond after the previous stamp when that is not later.
type toggleClock struct {
	mu   sync.Mutex
	last time.Time
}

func (c *toggleClock) stamp(o Options) time.Time {
	t := o.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !t.After(c.last) {
		t = c.last.Add(time.Millisecond)
	}
	c.last = t
	return t
}

// Errors both stores return, so that they match in category and in text.

func errUserNotFound(username string) error {
	return fmt.Errorf("user %q: %w", username, ddbkit.ErrNotFound)
}

func errUserExists(username string) error {
	return fmt.Errorf("user %q: %w", username, ddbkit.ErrAlreadyExists)
}

func errNotFound(kind, username, id string) error {
	return fmt.Errorf("%s %q of user %q: %w", kind, id, username, ddbkit.ErrNotFound)
}

func errExists(kind, username, id string) error {
	return fmt.Errorf("%s %q of user %q: %w; the ID generator repeated an ID", kind, id, username, ddbkit.ErrAlreadyExists)
}

func errUnknownCategory(id string) error {
	return ddbkit.Invalid("CategoryID", "names no category of this user (%q); create the category first or leave CategoryID empty", id)
}

// wrap prefixes err with the package and operation, as every error of the
// package reads, and gives it exactly one ddbkit sentinel (ddb.Classify).
//
// A context that ended reads the same whichever call noticed it (the
// memory store, or the SDK, whose error names the operation it was about
// to make), so that both stores fail with the same text; the SDK's error
// stays the cause, reachable with errors.As. (ddb.Classify does as much
// for an idempotency key reused for other writes.)
//
// An error wrap made is returned as it is, so that a keyed write
// (backend.Keyed) can wrap whatever it returns, its body's errors, which
// are wrapped already, and the record's, which are not.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if _, done := err.(*opError); done {
		return err
	}
	switch {
	case errors.Is(err, context.Canceled):
		err = &sameText{text: context.Canceled.Error(), err: err}
	case errors.Is(err, context.DeadlineExceeded):
		err = &sameText{text: context.DeadlineExceeded.Error(), err: err}
	}
	return &opError{op: op, err: ddb.Classify(err)}
}

// opError is an error of operation op, as wrap makes it.
type opError struct {
	op  string
	err error
}

func (e *opError) Error() string { return "todo: " + e.op + ": " + e.err.Error() }

func (e *opError) Unwrap() error { return e.err }

// sameText is err under the text the memory store gives the same failure.
type sameText struct {
	text string
	err  error
}

func (e *sameText) Error() string { return e.text }

func (e *sameText) Unwrap() error { return e.err }
