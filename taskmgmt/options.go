package taskmgmt

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
	// Clock gives today (in Location) for joinedAt, createdAt, the daily
	// counters and the overdue views, and the time expired counters are
	// compared with. The default is time.Now.
	Clock ddbkit.Clock
	// Location is the time zone whose calendar day is "today". The default
	// is UTC.
	Location *time.Location
	// NewID makes team, tag, task and invitation IDs. The default (when
	// nil) is ddbkit.NewUUIDv7s(Clock), UUIDv7s stamped with the store's
	// clock, the one createdAt is stamped with: so IDs sort by creation
	// as the clock sees it, and the invitation listing (newest first) and
	// Invite's replacement of earlier invitations (which reads only IDs of
	// the last InvitationLifetime) follow a Clock set in tests. A
	// replacement must make IDs that sort by the clock's time too.
	NewID ddbkit.IDGenerator
	// CounterRetention is how long a daily counter lives: its expiresAt is
	// the start of the day after its date, in Location, plus
	// CounterRetention. Zero means DefaultCounterRetention.
	CounterRetention time.Duration
	// CounterShards spreads each counter over that many items, so that a
	// team's task writes are not capped by one item's write throughput
	// (about 1,000 writes a second; see the package doc's "Sharded
	// counters"). 0 or 1 keeps the seed's layout: one COUNTER#ALL and one
	// COUNTER#<date>. From 2 to MaxCounterShards, a task's writes update
	// the shard its ID picks: shard 0 is the seed's item, shard n > 0 is
	// COUNTER#ALL#<n> (COUNTER#<date>#<n>); reads sum the shards. Another
	// value makes every counter operation fail with ErrInvalidArgument
	// naming CounterShards.
	CounterShards int
	// Retry bounds the retries of one operation; zero value = default
	// policy; see ddbkit.RetryPolicy.
	Retry ddbkit.RetryPolicy
	// InvitationTableName is the invitation table (seed 001's
	// task-table-invitation-v3). The default is
	// DefaultInvitationTableName.
	InvitationTableName string
	// InvitationLifetime is how long an invitation can be accepted. Zero
	// means DefaultInvitationLifetime (24 hours, as the seed's example).
	// It is stored in whole seconds. Invite, replacing the earlier
	// invitations of an address, reads only those created within the
	// lifetime (and an hour) by their UUIDv7 IDs, so that its cost does
	// not grow with the team's history: another writer of the table that
	// gives invitations a longer life needs it set to that life.
	InvitationLifetime time.Duration
	// NewToken makes the tokens of invitations, the secrets of their
	// links. The default is TokenBytes from crypto/rand in base64url
	// without padding. Replace it only in tests, to make runs
	// deterministic: a guessable token lets whoever knows an invitation's
	// ID accept it.
	NewToken func() string
	// CursorSecret keys the MAC of page cursors. Default none: cursors are
	// bound to their listing and tamper-evident but, without a secret,
	// forgeable within the caller's own partition and range; set a secret
	// shared by all instances to make them unforgeable. A secret of 1 to
	// 15 bytes is too short to resist brute force: every listing then
	// fails with ErrInvalidArgument naming CursorSecret. Use 32 random
	// bytes.
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
	// FilterBudget is the most items a filtered listing evaluates per page
	// (ListBoard with TagIDs, ListInvitations, ListDailyCounts, and the
	// walks of DeleteTag, Invite, SetRole and RemoveMember); zero or less
	// means the default, 1000. A filtered page that spends it returns what
	// it found, possibly nothing, with a Next cursor: a filter that
	// matches little costs one budget per page, not the partition. Both
	// stores end pages at the same item.
	FilterBudget int
	// TokenSecret, when set, makes invitation tokens derived rather than
	// stored: the token is HMAC-SHA256(TokenSecret, team ID, invitation ID,
	// email, expiry), and the invitation item's token attribute holds only
	// "sha256:" and the hex SHA-256 of it, so neither the table, its
	// backups nor its stream hold a usable link. The StreamHandler that
	// mails the invitations needs the same secret (StreamHandler.TokenSecret)
	// to derive the token again. It must be at least MinTokenSecret (32)
	// bytes: a shorter one makes Invite fail with ErrInvalidArgument
	// naming TokenSecret. NewToken is not used then. The default (none)
	// keeps the seed's layout, the token in plain text, which the seed's
	// own app reads; whoever reads the table or its stream can then accept
	// any live invitation. AcceptInvitation accepts both forms, whichever
	// the item holds, so the option can be switched on with invitations
	// live.
	TokenSecret []byte
	// AcceptOnlyAddressee, when set, makes AcceptInvitation accept only
	// for a user whose email (user_email) is the invitation's address
	// (the same address as "Email addresses" in the package doc says),
	// and refuse anyone else holding the link
	// with ErrPermissionDenied: a forwarded or leaked link is useless. The
	// check rides in the acceptance's transaction (the user's email as
	// read). The default (off) keeps the seed's bearer link: whoever holds
	// the token may accept, whatever their address, which suits an app
	// whose users sign up from the mail's link with another address.
	AcceptOnlyAddressee bool
	// Emulation is what the memory store emulates of DynamoDB beyond
	// DynamoDB Local (see ddbkit.Emulation): GSI lag on the board views
	// and the renames' walk (they read GSIs), throttling within Retry,
	// and TTL deleting expired invitations. Memory store only: the
	// DynamoDB store ignores it. The zero value emulates none of it.
	Emulation ddbkit.Emulation
	// TracerProvider makes the store's spans: one per method, named
	// "taskmgmt.<Method>", with what it cost in DynamoDB calls and capacity
	// (the README's "Observability" lists the attributes). The default,
	// nil, is OpenTelemetry's global provider. The memory store reports
	// what the DynamoDB store would.
	TracerProvider trace.TracerProvider
	// MeterProvider makes the store's metrics (the README's
	// "Observability"). The default, nil, is OpenTelemetry's global
	// provider.
	MeterProvider metric.MeterProvider
}

// MaxCounterShards is the most shards Options.CounterShards allows:
// RecalculateCounters writes every shard of COUNTER#ALL in one
// transaction.
const MaxCounterShards = 32

// counterShards returns the number of counter items per counter, 1 for
// the seed's layout, or the error of an invalid Options.CounterShards.
func (o Options) counterShards() (int, error) {
	switch n := o.CounterShards; {
	case n == 0 || n == 1:
		return 1, nil
	case n >= 2 && n <= MaxCounterShards:
		return n, nil
	default:
		return 0, ddbkit.Invalid("CounterShards", "must be 0 or 1 (the seed's one counter) or 2 to %d, got %d", MaxCounterShards, n)
	}
}

// DefaultCounterRetention is how long daily counters live by default.
const DefaultCounterRetention = 90 * 24 * time.Hour

func newOptions(optFns []func(*Options)) Options {
	o := Options{
		TableName:        DefaultTableName,
		Clock:            time.Now,
		Location:         time.UTC,
		CounterRetention: DefaultCounterRetention,

		InvitationTableName: DefaultInvitationTableName,
		InvitationLifetime:  DefaultInvitationLifetime,
		NewToken:            newToken,
	}
	for _, fn := range optFns {
		fn(&o)
	}
	if o.Location == nil {
		o.Location = time.UTC
	}
	if o.CounterRetention <= 0 {
		o.CounterRetention = DefaultCounterRetention
	}
	if o.InvitationTableName == "" {
		o.InvitationTableName = DefaultInvitationTableName
	}
	if o.NewToken == nil {
		o.NewToken = newToken
	}
	if o.InvitationLifetime < time.Second {
		o.InvitationLifetime = DefaultInvitationLifetime
	}
	return o
}

func (o Options) backoff() ddb.Backoff { return ddb.BackoffOf(o.Retry) }

func (o Options) table() ddb.Table {
	t := table(o.TableName)
	t.CursorSecret = string(o.CursorSecret)
	t.WithholdOld = o.WithholdOldItems
	return t
}

func (o Options) invitationTable() ddb.Table {
	t := table(o.InvitationTableName)
	t.CursorSecret = string(o.CursorSecret)
	t.WithholdOld = o.WithholdOldItems
	return t
}

// expiresAt is the TTL of the daily counter of day d, in Unix seconds.
func (o Options) expiresAt(d Date) int64 {
	t, err := time.ParseInLocation(time.DateOnly, string(d), o.Location)
	if err != nil {
		return 0
	}
	return t.AddDate(0, 0, 1).Add(o.CounterRetention).Unix()
}

// Errors both stores return, so that they match in category and in text.

func errNotFound(kind, id string) error {
	return fmt.Errorf("%s %q: %w", kind, id, ddbkit.ErrNotFound)
}

func errTeamNotFound(teamID string) error { return errNotFound("team", teamID) }

func errUserNotFound(userID string) error { return errNotFound("user", userID) }

func errTaskNotFound(teamID, taskID string) error {
	return fmt.Errorf("task %q of team %q: %w", taskID, teamID, ddbkit.ErrNotFound)
}

func errNotMember(teamID, userID string) error {
	return fmt.Errorf("user %q is not a member of team %q: %w", userID, teamID, ddbkit.ErrNotFound)
}

func errIsMember(teamID, userID string) error {
	return fmt.Errorf("user %q is already a member of team %q: %w", userID, teamID, ddbkit.ErrAlreadyExists)
}

func errUserExists(userID string) error {
	return fmt.Errorf("user %q: %w", userID, ddbkit.ErrAlreadyExists)
}

func errRepeatedID(kind, id string) error {
	return fmt.Errorf("%s %q: %w; the ID generator repeated an ID", kind, id, ddbkit.ErrAlreadyExists)
}

func errUnknownTag(field, tagID string) error {
	return ddbkit.Invalid(field, "names no tag of this team (%q)", tagID)
}

func errLastAdmin(teamID, userID string) error {
	return fmt.Errorf("user %q is the last admin of team %q; make another member admin first: %w", userID, teamID, ddbkit.ErrConflict)
}

// wrap prefixes err with the package and operation, and makes it match
// exactly one sentinel. A context's end is reported as the context's own
// error, not as the SDK call it interrupted, so that both stores say the
// same (the memory store makes no call).
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var mismatch *types.IdempotentParameterMismatchException
	switch {
	case errors.Is(err, context.Canceled):
		err = context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		err = context.DeadlineExceeded
	case errors.As(err, &mismatch):
		err = ddb.KeyReused(err)
	}
	return fmt.Errorf("taskmgmt: %s: %w", op, ddb.Classify(err))
}

// telemetry is the store's telemetry (package obs).
func (o Options) telemetry() *obs.Telemetry {
	return obs.New("taskmgmt", o.TracerProvider, o.MeterProvider)
}
