// Package ddbkit is a DynamoDB data-access SDK for Go. For each of five real
// application table designs it gives small store interfaces with two
// implementations: one on DynamoDB (aws-sdk-go-v2) that writes exactly the
// items the design specifies, and one in memory that behaves the same, for
// unit tests. A conformance suite per domain holds both to the same
// results, errors, order and page boundaries.
//
// Each domain writes its operations once, over one item backend (an
// internal package) with a DynamoDB and a memory implementation; the two
// stores differ only in the backend they hold. Retries, idempotency
// tokens, context handling and the emulation of DynamoDB's semantics
// (conditions, transactions, GSIs, pages, TTL) live in the backend, once,
// and a conformance suite of its own holds both implementations to the
// same behaviour. The memory store can also emulate what DynamoDB Local
// hides, off by default (Emulation): GSIs that lag behind the table,
// throttling, and the TTL process deleting items.
//
//	package      design
//	todo         users, todos and categories in one table (pk/sk)
//	taskmgmt     teams, members, tags and tasks in one table with 9 GSIs: status-group
//	             board views, tag filters and team counters
//	livecomment  rooms, comments and WebSocket connections in three tables
//	kondate      a meal-planning app's recipes, sets, plans, shopping list, fridge,
//	             categories, cooking log, payments and notifications in one table
//	wardrobe     clothes, outfit templates and wear history in one table, with
//	             wear statistics in daily counters
//
// This root package holds what every domain shares: the error categories,
// Page and PageOptions for cursor pagination with the All iterator, the
// narrow Client interface that *dynamodb.Client satisfies, RetryPolicy,
// idempotency keys, Clock and IDGenerator for deterministic tests, and
// Emulation for tests that must meet DynamoDB's production behaviours.
//
// # Errors
//
// Every error a store returns matches exactly one sentinel with errors.Is,
// keeps its cause for errors.As (the SDK's error, a *ValidationError, a
// *CorruptItemError), and still matches context.Canceled or
// context.DeadlineExceeded when the context ended:
//
//	ErrInvalidArgument  bad input; nothing was written (a *ValidationError names the field)
//	ErrInvalidCursor    a page cursor not issued for this listing
//	ErrNotFound         no such item
//	ErrAlreadyExists    a create would overwrite
//	ErrConflict         a concurrent writer won within the retry policy, or the
//	                    item's state forbids the operation
//	ErrPermissionDenied the acting user's role forbids the operation; nothing
//	                    was written (HTTP 403)
//	ErrUnavailable      DynamoDB throttled or failed through the retries, or the
//	                    context ended; repeating the call is safe
//	ErrCorruptItem      a stored item cannot be decoded (written by another program)
//	ErrSchemaMismatch   the table is missing or differs from its design
//
// # Live tables
//
// Each design describes a table already in production that other programs
// keep writing. Stores are exact in what they write and lenient in what they
// read: any ISO 8601 time, IDs and kinds taken from the key when an
// attribute is missing, missing optional attributes as zero values. Package
// schema creates, verifies and reconciles tables from their definitions, and
// exports them as CloudFormation. Each domain documents what another writer
// of its table must maintain.
//
// # Retries and exactly-once writes
//
// Read-modify-writes are conditional and retry within a RetryPolicy, which
// is always bounded: each call of an operation is made at most MaxAttempts
// times, by one retry loop. Every transaction carries a ClientRequestToken
// and is retried with it, so a response lost on the network never applies a
// write twice; WithIdempotencyKey extends that to a caller's own retries,
// with tokens scoped to the table, the operation and the tenant's
// partition. Creates are one-item transactions with a token, so a
// create succeeds only if this call wrote the item: an identical item
// written by someone else is ErrAlreadyExists, never taken for one's own.
//
// # Bounded work
//
// A filtered listing evaluates at most a budget of items per page (1,000 by
// default, an option of each domain) and then returns what it found,
// possibly nothing, with a Next cursor, so no request does work in
// proportion to data its caller does not get back. Every written item is
// checked against DynamoDB's 400 KB before any call, on both stores. The
// README's Security section states the threat model.
//
// Package keys builds and parses composite keys; ddbtest (a separate module,
// github.com/ddbkit/ddbkit/ddbtest) gives tests a real DynamoDB Local.
package ddbkit
