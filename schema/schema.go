// Package schema treats a DynamoDB table design as data. One Definition
// creates the table, verifies an existing one against it and reports what
// is missing, adds it when asked to (global secondary indexes one at a
// time, TTL, the stream), and exports the same design as a CloudFormation
// resource for infrastructure code. Every ddbkit domain's EnsureTable is
// built on Ensure.
//
// # Who owns the table
//
// A production table usually belongs to infrastructure as code (a
// CloudFormation or CDK stack). A change made beside the stack is drift:
// the stack's next deploy that adds the same index fails because it
// exists, and a TTL setting changed out of band is fought over. So Ensure
// creates a missing table (tests and local development need that), but on
// an existing table it only compares and reports, unless the caller passes
// Apply (the CLI: ddbkit ensure -apply):
//
//   - what the stores cannot work without and the table lacks (a GSI, the
//     stream) is a *ddbkit.SchemaMismatchError naming each and how to add
//     it, with the pending changes beside it;
//   - what is missing but not needed by any read (TTL, which reads already
//     apply) is a pending Change, not an error;
//   - what is the owner's to choose is a note (ActionNote), never an error.
//
// # What Ensure compares
//
// Only what the data layout depends on, and what cannot be changed without
// rebuilding the table, is compared: the table's key schema, the types of
// the attributes used as keys, and, for each index the definition names,
// its keys and projection (type, and for INCLUDE the non-key attributes as
// a set). What is missing and can be added (a GSI, TTL, the stream) is added;
// a difference in anything else compared is a mismatch.
//
// # Decisions
//
//   - Billing mode, capacity, encryption (SSE), table class, deletion
//     protection and tags are operational choices the table's owner may
//     change at any time: they are used when Ensure creates the table and
//     exported by CloudFormation, but never changed on an existing table,
//     and a difference is a note, never an error. An index added to a provisioned table gets the
//     definition's capacity for it, else the table's current capacity.
//   - Indexes, attributes and a stream the table has and the definition
//     does not name are left alone; they are not a mismatch.
//   - A mismatch changes nothing at all, not even what could be added:
//     fixing the table by hand, then running Ensure again, is one reviewed
//     step instead of a half-migrated table.
//   - Ensure waits for each added index to be ACTIVE and done backfilling,
//     because the next UpdateTable would be refused until then and because
//     a domain must not query an index that is still filling. It does not
//     wait for TTL to leave ENABLING, which takes up to an hour and changes
//     no query.
//   - CloudFormation refuses, rather than drops, the parts of a
//     CreateTableInput it does not export.
package schema

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
)

// Definition is one table's design.
type Definition struct {
	// Input creates the table: name, key schema, attribute definitions,
	// global secondary indexes, billing, stream and encryption.
	Input *dynamodb.CreateTableInput
	// TTLAttribute names the attribute DynamoDB's TTL expires items by, or
	// "" for a table without TTL.
	TTLAttribute string
}

// Change is one change Ensure made, or would make (Pending), or a note
// on the table that changes nothing (ActionNote).
type Change struct {
	// Table is the table's name.
	Table string
	// Action says what changes: ActionCreateTable, ActionAddGSI,
	// ActionEnableTTL or ActionEnableStream; or ActionNote.
	Action string
	// Detail names what is added, such as the index's name and keys, or
	// what a note observes.
	Detail string
	// Pending is true for a change that Ensure did not make: under
	// PlanOnly, and on an existing table without Apply.
	Pending bool
}

// The actions of a Change.
const (
	// ActionCreateTable creates the missing table with its indexes and
	// stream; its Detail lists the keys and indexes.
	ActionCreateTable = "create table"
	// ActionAddGSI adds one global secondary index; its Detail names the
	// index, its keys and its projection.
	ActionAddGSI = "add GSI"
	// ActionEnableTTL enables TTL; its Detail names the attribute.
	ActionEnableTTL = "enable TTL"
	// ActionEnableStream enables the stream; its Detail is the view type.
	ActionEnableStream = "enable stream"
	// ActionNote changes nothing: its Detail is where the existing table
	// differs from the definition in what belongs to the table's owner
	// (billing mode, capacity, encryption, a stream view type carrying
	// more than needed), which Ensure never compares as an error nor
	// changes.
	ActionNote = "note"
)

// String renders c as one line; a pending change ends in "(pending)".
func (c Change) String() string {
	s := fmt.Sprintf("%s: %s %s", c.Table, c.Action, c.Detail)
	if c.Pending {
		s += " (pending)"
	}
	return s
}

// Options tune Ensure.
type Options struct {
	// PlanOnly reports the changes Ensure would make, and makes none,
	// not even creating a missing table.
	PlanOnly bool
	// Apply lets Ensure change an existing table: add the indexes, TTL
	// and stream it lacks. Without it, an existing table is only compared
	// (see the package doc: the table's owner changes it).
	Apply bool
	// Timeout bounds each wait: for the table to become ACTIVE, for each
	// index added to be ACTIVE and done backfilling, and for the table to
	// be ACTIVE again after its stream is enabled. Zero means 10 minutes;
	// a backfill of a large table can take longer, in which case Ensure
	// fails and a later call goes on.
	Timeout time.Duration
	// PollInterval is the pause between two DescribeTable calls while
	// waiting. Zero means one second.
	PollInterval time.Duration
}

// Ensure creates the table d describes, or verifies an existing one, and
// returns the changes it made, the ones it would make (Pending) and notes.
//
// A missing table is created, and Ensure waits until it is ACTIVE. An
// existing table is compared with d through DescribeTable: its key schema
// and key attribute types, and each GSI's keys and projection. What is
// missing and can be added is reported as pending changes; a missing GSI
// or stream is also a *ddbkit.SchemaMismatchError (ddbkit.ErrSchemaMismatch)
// that names it, since the stores need it, while missing TTL is not. With
// Options.Apply (the option Apply), what is missing is added instead: each
// missing GSI with its own UpdateTable call (DynamoDB allows one GSI change
// per update), waiting until the index is ACTIVE and no longer backfilling
// before the next; TTL and the stream the same way. A table that differs in a way that cannot be
// added (another key schema, an index with other keys or projection) fails
// with a *ddbkit.SchemaMismatchError (ddbkit.ErrSchemaMismatch) listing
// every difference, and nothing is changed. Ensure never deletes anything,
// and leaves indexes and attributes that d does not name in place.
//
// With Options.PlanOnly it returns the changes it would make, and makes
// none. Two callers racing to ensure the same table both succeed.
//
// In detail:
//   - A table that is CREATING or UPDATING, or has an index being created,
//     is waited for before it is changed; each wait polls DescribeTable
//     every Options.PollInterval for at most Options.Timeout.
//   - An index added to a provisioned table gets the capacity d gives it,
//     else the table's current capacity.
//   - A stream is enabled with d's view type. A stream already enabled
//     with a view type that carries as much (NEW_AND_OLD_IMAGES for either
//     image; any for KEYS_ONLY) is left as its owner set it; one that
//     carries less is a mismatch. TTL is enabled on d.TTLAttribute unless it is
//     ENABLED or ENABLING there; TTL on another attribute is a mismatch.
//     Ensure does not wait for TTL to leave ENABLING (DynamoDB takes up to
//     an hour).
//   - Billing mode, capacity, encryption (SSE), table class, deletion
//     protection and tags are an owner's operational choices: they are set
//     when Ensure creates the table, and never changed after. Where the
//     billing mode, capacity or encryption differ from d's, or the stream
//     carries more than d's view type, a Change of ActionNote says so.
//   - A local secondary index d names that the table lacks is a mismatch:
//     LSIs exist only from the table's creation.
//
// Errors: ddbkit.ErrInvalidArgument (a *ddbkit.ValidationError) for a
// definition that cannot create a table (no name, a key attribute without
// a type, an index without a projection), before any call;
// ddbkit.ErrSchemaMismatch as above; an AWS error (such as a missing
// permission) wrapped with what Ensure was doing, reachable with errors.As;
// and the context's error, or context.DeadlineExceeded when a wait exceeds
// Options.Timeout. On an error after some changes were made, the returned
// slice holds them; calling Ensure again goes on from where it stopped.
// With the mismatch of a missing GSI or stream, the slice holds the
// pending changes that Apply would make.
func Ensure(ctx context.Context, c ddbkit.SchemaClient, d Definition, optFns ...func(*Options)) ([]Change, error) {
	return ensure(ctx, c, d, optFns)
}

// PlanOnly is an option for Ensure: report, change nothing.
func PlanOnly(o *Options) { o.PlanOnly = true }

// Apply is an option for Ensure: add what an existing table lacks.
func Apply(o *Options) { o.Apply = true }
