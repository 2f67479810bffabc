// Package ddb holds the DynamoDB mechanics every ddbkit domain shares:
// transactions with decoded cancellation reasons, bounded read-modify-write
// retries, BatchGetItem and BatchWriteItem with unprocessed-item retries, and
// a query pager whose opaque cursors are bound to the query that issued them.
//
// Domains describe their data (tables, keys, conditions, item layouts,
// which Codec encodes and decodes); this package does the round trips.
// Nothing here scans a table.
package ddb
