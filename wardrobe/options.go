package wardrobe

import (
	"fmt"
	"time"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// Options configure a store. Both stores take the same options.
type Options struct {
	// TableName is the DynamoDB table. The default is DefaultTableName.
	// The memory store uses it too, because page cursors are bound to it.
	TableName string
	// Clock stamps createdAt and deletedAt. The default is time.Now.
	Clock ddbkit.Clock
	// NewID makes wardrobe, clothing, template and history IDs. The
	// default (when NewID is nil after the option functions ran) is
	// ddbkit.NewUUIDv7s(Clock): UUIDv7s, as the seed specifies, stamped
	// with the clock that stamps createdAt, so an ID's time is when its
	// item was created.
	// Tests use ddbkit.SeededUUIDv7s.
	NewID ddbkit.IDGenerator
	// Retry bounds the retries of every operation: a read-modify-write
	// (AddHistory, DeleteHistory, UpdateTemplate, RecalculateStats) that
	// loses a race, and calls DynamoDB throttles or fails with a 5xx. The
	// zero value is the default policy; see ddbkit.RetryPolicy.
	Retry ddbkit.RetryPolicy
	// CursorSecret is the key that signs page cursors. The default is
	// none: cursors are bound to their listing and tamper-evident but,
	// without a secret, forgeable within the caller's own partition and
	// range. Set a secret shared by all instances to make them
	// unforgeable: at least 16 bytes (32 random bytes is right). A secret
	// of 1 to 15 bytes is refused, not used: every listing then fails with
	// ErrInvalidArgument naming CursorSecret.
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
	// page; default 1000. The one filtered read of this package is
	// DeleteHistory's lookup (AP-17) of an item's latest day worn before
	// the day it takes back, which skips daily counters at 0 (only another
	// writer leaves one): each of its Queries reads at most this many
	// counters, whatever the filter keeps.
	FilterBudget int
	// Location is the zone of the seed's dateToEpochMs: lastWornAt holds
	// the Unix ms of midnight, in this zone, of the latest day worn, and
	// LastWornAt reads back that day in this zone. It must be the zone the
	// table's other writers use (the seed's app probably uses Asia/Tokyo).
	// The default is TimeZone if set, else UTC.
	Location *time.Location
	// TimeZone is Location's former name, honoured when Location is nil.
	//
	// Deprecated: use Location.
	TimeZone *time.Location
	// Emulation is what MemoryStore emulates of DynamoDB beyond DynamoDB
	// Local (see ddbkit.Emulation): GSI lag, which its listings (AP-03/14,
	// AP-04, AP-09) meet, since they read GSIs, and throttling, retried
	// within Retry. GSILag is measured by Clock, which the memory store
	// then also reads for each write and each GSI listing. The table has
	// no TTL, so DeleteExpired has nothing to delete. The
	// zero value emulates none of it; the DynamoDB store ignores it.
	Emulation ddbkit.Emulation
	// TracerProvider makes the store's spans: one per method, named
	// "wardrobe.<Method>", with what it cost in DynamoDB calls and capacity
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
		TableName: DefaultTableName,
		Clock:     time.Now,
	}
	for _, fn := range optFns {
		fn(&o)
	}
	// The default IDs follow the clock the options ended with, so that a
	// test's or a replay's clock stamps IDs and createdAt alike.
	if o.NewID == nil {
		o.NewID = ddbkit.NewUUIDv7s(o.Clock)
	}
	if o.Location == nil {
		o.Location = o.TimeZone
	}
	if o.Location == nil {
		o.Location = time.UTC
	}
	return o
}

// now returns the time to store: UTC, at the millisecond precision of the
// seed's Unix ms numbers, so what a store returns equals what it reads back.
func (o Options) now() time.Time { return o.Clock().UTC().Truncate(time.Millisecond) }

func (o Options) backoff() ddb.Backoff { return ddb.BackoffOf(o.Retry) }

// scope is what a caller's idempotency key is scoped to for a write of op
// to the wardrobe wardrobeID (its partition W#<wardrobeId>, from the
// caller's input): both stores make their tokens from it, so the same key
// used on two wardrobes, for two operations or on two tables gives
// unrelated tokens. CreateWardrobe, whose wardrobe ID is the one it
// generates, passes "": its key is scoped to the table and the
// operation only.
func (o Options) scope(op, wardrobeID string) ddb.Scope {
	var pk string
	if wardrobeID != "" {
		pk, _ = wardrobePK(wardrobeID) // validated before
	}
	return ddb.Scope{Table: o.TableName, Op: op, Partition: pk}
}

// table is the table both stores key their items and cursors by.
func (o Options) table() ddb.Table {
	t := table(o.TableName)
	t.CursorSecret = string(o.CursorSecret)
	t.WithholdOld = o.WithholdOldItems
	return t
}

// dayMs is the seed's dateToEpochMs: the Unix ms of midnight of a
// validated date in the store's zone.
func (o Options) dayMs(d Date) int64 {
	t, _ := d.In(o.Location)
	return t.UnixMilli()
}

// dateOf is the calendar day, in the store's zone, of a lastWornAt in Unix
// ms; "" for 0, never worn. It is how both stores compare last worn days:
// by day, never by exact ms, so a lastWornAt another writer stamped at
// another instant of the same day is the same day.
func (o Options) dateOf(ms int64) Date {
	if ms == 0 {
		return ""
	}
	return DateOf(time.UnixMilli(ms).In(o.Location))
}

// Errors both stores return, so that they match in category and in text.

func errWardrobeNotFound(id string) error {
	return fmt.Errorf("wardrobe %q: %w", id, ddbkit.ErrNotFound)
}

func errNotFound(kind, wardrobeID, id string) error {
	return fmt.Errorf("%s %q of wardrobe %q: %w", kind, id, wardrobeID, ddbkit.ErrNotFound)
}

func errExists(kind, id string) error {
	return fmt.Errorf("%s %q: %w; the ID generator repeated an ID", kind, id, ddbkit.ErrAlreadyExists)
}

// errUnknownRef and errDeletedRef refuse a reference to a clothing or
// template that cannot be worn or listed in an outfit.
func errUnknownRef(field string, kind Kind, id string) error {
	return ddbkit.Invalid(field, "names no %s of this wardrobe (%q)", kind.noun(), id)
}

func errDeletedRef(field string, kind Kind, id string) error {
	return ddbkit.Invalid(field, "names a DELETED %s (%q); restore it first or leave it out", kind.noun(), id)
}

// wrap prefixes err with the package and operation, as every error of the
// package reads, and makes it match exactly one ddbkit sentinel
// (ddb.Classify), keeping its cause.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("wardrobe: %s: %w", op, ddb.Classify(err))
}

// telemetry is the store's telemetry (package obs).
func (o Options) telemetry() *obs.Telemetry {
	return obs.New("wardrobe", o.TracerProvider, o.MeterProvider)
}
