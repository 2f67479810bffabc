// Package schema treats a DynamoDB table design as data. One Definition
// creates the table, verifies an existing one against it, adds what is
// missing (global secondary indexes one at a time, TTL, the stream), and
// exports the same design as a CloudFormation resource for infrastructure
// code. Every ddbkit domain's EnsureTable is built on Ensure.
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

// Change is one change Ensure makes, or would make in plan-only mode.
type Change struct {
	// Table is the table's name.
	Table string
	// Action says what changes: "create table", "add GSI", "enable TTL",
	// "enable stream".
	Action string
	// Detail names what is added, such as the index's name and keys.
	Detail string
}

// String renders c as one line.
func (c Change) String() string { return fmt.Sprintf("%s: %s %s", c.Table, c.Action, c.Detail) }

// Options tune Ensure.
type Options struct {
	// PlanOnly reports the changes Ensure would make, and makes none.
	PlanOnly bool
	// Timeout bounds the wait for the table, and for each index added, to
	// become ACTIVE. Zero means 10 minutes; a backfill of a large table
	// can take longer, in which case Ensure fails and a later call goes on.
	Timeout time.Duration
	// PollInterval is the pause between two DescribeTable calls while
	// waiting. Zero means one second.
	PollInterval time.Duration
}

// Ensure makes the table match d, and returns the changes it made.
//
// A missing table is created, and Ensure waits until it is ACTIVE. An
// existing table is compared with d through DescribeTable: its key schema
// and key attribute types, and each GSI's keys and projection. What is
// missing and can be added is added: each missing GSI with its own
// UpdateTable call (DynamoDB allows one GSI change per update), waiting
// until the index is ACTIVE and no longer backfilling before the next; TTL
// and the stream the same way. A table that differs in a way that cannot be
// added (another key schema, an index with other keys or projection) fails
// with a *ddbkit.SchemaMismatchError (ddbkit.ErrSchemaMismatch) listing
// every difference, and nothing is changed. Ensure never deletes anything,
// and leaves indexes and attributes that d does not name in place.
//
// With Options.PlanOnly it returns the changes it would make, and makes
// none. Two callers racing to ensure the same table both succeed.
func Ensure(ctx context.Context, c ddbkit.SchemaClient, d Definition, optFns ...func(*Options)) ([]Change, error) {
	return ensure(ctx, c, d, optFns)
}

// PlanOnly is an option for Ensure: report, change nothing.
func PlanOnly(o *Options) { o.PlanOnly = true }
