package livecomment

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// DefaultEnv is the environment name used when Options.Env is empty. It is
// the seed's development environment, so that a store that was not told
// otherwise never touches production tables.
const DefaultEnv = "dev"

// Options configure a store. Both stores take the same options.
type Options struct {
	// Env is the seed's ${environmentName}, which names the three tables
	// (see Tables) and so separates dev from prod. The default is
	// DefaultEnv. It must pass CheckEnv, or DynamoDB refuses the table
	// names. The memory store uses it too, because page cursors are bound
	// to table names.
	Env string
	// Clock stamps createdAt, updatedAt, the connections' timestamp and
	// the time inside comment IDs. The default is time.Now. A store never
	// stamps one millisecond twice: when the clock has not moved past its
	// last stamp (a burst, a frozen test clock), the next stamp is the last
	// one plus a millisecond.
	Clock ddbkit.Clock
	// NewID makes room IDs. The default makes UUIDv4s, as the seed says.
	NewID ddbkit.IDGenerator
	// NewCommentID makes the ID of a comment posted at the given instant.
	// The default is NewCommentIDs(): UUIDv7s of that instant, so that the
	// Comments sort key is in time order.
	NewCommentID CommentIDGenerator
	// Retry bounds the retries of a call that DynamoDB throttles,
	// cancels for a conflict, fails with a 5xx or whose response is lost.
	// Each step of an operation (a write, a get, one Query of a page, a
	// delete of Broadcast) has exactly one retry loop, so it makes at most
	// Retry.MaxAttempts calls. The zero value is the default policy; see
	// ddbkit.RetryPolicy.
	Retry ddbkit.RetryPolicy
	// CursorSecret keys the page cursors. The default is none: cursors are
	// bound to their listing and tamper-evident but, without a secret,
	// forgeable within the caller's own partition and range. Set a secret
	// shared by all instances to make them unforgeable: at least 16 bytes
	// (use 32 random bytes). A secret of 1 to 15
	// bytes is refused, not used: every listing (and so Broadcast) of
	// both stores then fails with ErrInvalidArgument naming CursorSecret,
	// before any call. Writes and gets do not use it.
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
	// CommentShards, when 2 or more, spreads each room's new comments
	// over that many partitions of the Comments table (and so of
	// roomId-createdAt-index, keyed by the same attribute): a comment's
	// roomId is stored as "<roomId>#<shard>", its shard being
	// CommentShard(commentID, CommentShards). ListComments then merges the
	// shards and the room's unsharded partition (the seed's layout, where
	// comments posted before the switch stay) in createdAt order. 0 (the
	// default) or 1 is the seed's layout, which the seed's own app reads,
	// as Options.CounterShards and CatalogShards of taskmgmt and kondate
	// count it: the two are one layout, with the same items and cursors.
	// See "Sharded comments" in the package documentation for when to
	// switch, how, and what the seed's app no longer sees. It may grow
	// (every shard of the smaller count is one of the larger count's),
	// never shrink: comments in shards past a smaller count are not read.
	// A negative count or more than MaxCommentShards is refused, not
	// used: PostComment and ListComments of both stores then fail with
	// ErrInvalidArgument naming CommentShards, before any call.
	CommentShards int
	// RoomCheckCache, when positive, takes PostComment's room check off
	// the room's item: instead of checking, in its transaction, that the
	// room exists and is OPEN (2 WCU on that one item per post, which caps
	// a room near 500 posts/s whatever CommentShards), a store reads the
	// room (one consistent GetItem) and trusts an OPEN status for that
	// long, by the stamps of its posts; it then puts the comment alone, in
	// a one-item transaction. A room read or closed as CLOSED stays so,
	// and a missing room is read again on every post. What it gives up: a
	// post may be stored up to RoomCheckCache after another process (another
	// store, the seed's app) closed the room, where the transaction's check
	// refuses it; this store's own CloseRoom still holds back its posts, as
	// without the cache. It needs dynamodb:GetItem on Rooms for
	// PostComment, which the transaction's check does not. The default, 0,
	// checks in the transaction; a negative value is refused by
	// PostComment with ErrInvalidArgument naming RoomCheckCache.
	RoomCheckCache time.Duration
	// Emulation makes the memory store behave as DynamoDB may in
	// production and DynamoDB Local does not (see ddbkit.Emulation); the
	// DynamoDB store ignores it. The zero value emulates nothing. GSILag
	// delays what ListHostRooms, ListComments, ListConnections and so
	// Broadcast see of the store's writes, by Options.Clock, which the
	// store then also reads for each write and each listing; Throttle
	// fails calls as DynamoDB throttles them, and the store retries them
	// within Retry. No table has a TTL attribute, so DeleteExpired
	// changes nothing.
	Emulation ddbkit.Emulation
	// TracerProvider makes the store's spans: one per method, named
	// "livecomment.<Method>", with what it cost in DynamoDB calls and capacity
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
		Env:          DefaultEnv,
		Clock:        time.Now,
		NewID:        ddbkit.NewUUIDv4,
		NewCommentID: NewCommentIDs(),
	}
	for _, fn := range optFns {
		fn(&o)
	}
	if o.Env == "" {
		o.Env = DefaultEnv
	}
	return o
}

func (o Options) backoff() ddb.Backoff { return ddb.BackoffOf(o.Retry) }

// stamper hands out a store's timestamps: the clock's reading, at
// millisecond precision, but never the same millisecond twice and never
// earlier than the last one. When the clock has not moved past the last
// stamp (a burst within one millisecond, a frozen test clock, a clock set
// back), the stamp is the last one plus a millisecond, as a UUIDv7
// generator advances its timestamp. So one store's comments never tie on
// createdAt, the sort key of their listing, and a close is stamped after
// every comment the store posted before it.
type stamper struct {
	clock ddbkit.Clock
	mu    sync.Mutex
	prev  time.Time
}

func newStamper(clock ddbkit.Clock) *stamper { return &stamper{clock: clock} }

// now returns the next stamp, in UTC.
func (s *stamper) now() time.Time { return s.with(nil) }

// with returns the next stamp and, if f is not nil, calls f with it before
// any other stamp is handed out: what f derives from the stamp (a comment
// ID) is then in the same order as the stamps.
func (s *stamper) with(f func(time.Time)) time.Time {
	t := s.clock().UTC().Truncate(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !t.After(s.prev) && !s.prev.IsZero() {
		t = s.prev.Add(time.Millisecond)
	}
	if y := t.Year(); y < 1 || y > 9999 {
		// The write refuses it (checkStamp). It must not become the floor
		// of every later stamp, nor reach a comment ID generator, which
		// would stamp its later IDs past it.
		return t
	}
	s.prev = t
	if f != nil {
		f(t)
	}
	return t
}

// ErrRoomClosed reports that a room is CLOSED, so it takes no comments and
// no new connections. It matches ddbkit.ErrConflict through errors.Is: the
// room is in a state that forbids the operation.
var ErrRoomClosed error = &kindError{msg: "room is closed", kind: ddbkit.ErrConflict}

// ErrGone is what a SendFunc returns, possibly wrapped, when the connection
// no longer exists (API Gateway's HTTP 410). Broadcast also recognises API
// Gateway's own GoneException; see IsGone.
var ErrGone = errors.New("connection gone")

// IsGone reports whether err says that a connection no longer exists: it
// matches ErrGone, or it is an API error with code "GoneException" or an
// HTTP 410 response, as the API Gateway Management API's PostToConnection
// returns for a closed connection.
func IsGone(err error) bool {
	if errors.Is(err, ErrGone) {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorCode() == "GoneException" {
		return true
	}
	var re *http.ResponseError
	return errors.As(err, &re) && re.HTTPStatusCode() == 410
}

// kindError is a sentinel of this package that also matches one of
// ddbkit's categories.
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }

func (e *kindError) Is(target error) bool { return target == e.kind }

// Errors both stores return, so that they match in category and in text.

func errRoomNotFound(id string) error {
	return fmt.Errorf("room %q: %w", id, ddbkit.ErrNotFound)
}

func errRoomClosed(id string) error {
	return fmt.Errorf("room %q: %w", id, ErrRoomClosed)
}

func errNotHost(roomID, actorID string) error {
	return fmt.Errorf("room %q: %q is not its host: %w", roomID, actorID, ddbkit.ErrPermissionDenied)
}

func errRoomExists(id string) error {
	return fmt.Errorf("room %q: %w; the ID generator repeated an ID", id, ddbkit.ErrAlreadyExists)
}

func errCommentExists(roomID, id string) error {
	return fmt.Errorf("comment %q in room %q: %w; the comment ID generator repeated an ID", id, roomID, ddbkit.ErrAlreadyExists)
}

func errCommentNotFound(roomID, id string) error {
	return fmt.Errorf("comment %q in room %q: %w", id, roomID, ddbkit.ErrNotFound)
}

func errConnectionNotFound(id string) error {
	return fmt.Errorf("connection %q: %w", id, ddbkit.ErrNotFound)
}

// wrap prefixes err with the package and operation, as every error of the
// package reads, and makes it match exactly one of ddbkit's sentinels (see
// ddb.Classify). An error that already matches one, such as ErrRoomClosed,
// keeps its category.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("livecomment: %s: %w", op, ddb.Classify(err))
}

// telemetry is the store's telemetry (package obs).
func (o Options) telemetry() *obs.Telemetry {
	return obs.New("livecomment", o.TracerProvider, o.MeterProvider)
}
