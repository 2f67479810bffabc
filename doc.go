// Package ddbkit is a DynamoDB data-access SDK for Go. For each of five real
// application table designs it gives small store interfaces with two
// implementations: one on DynamoDB (aws-sdk-go-v2) that writes exactly the
// items the design specifies, and one in memory that behaves the same, for
// unit tests. A conformance suite per domain holds both to the same
// results, errors, order and page boundaries.
//
//	package      design
//	todo         users, todos and categories in one table (pk/sk)
//	livecomment  rooms, comments and WebSocket connections in three tables
//	wardrobe     clothes, outfit templates and wear history in one table, with
//	             wear statistics in daily counters
//
// This root package holds what every domain shares: the error categories
// (ErrNotFound, ErrAlreadyExists, ErrConflict, ErrInvalidArgument with
// *ValidationError, ErrInvalidCursor), Page and PageOptions for cursor
// pagination with the All iterator, the narrow Client interface that
// *dynamodb.Client satisfies, and Clock and IDGenerator for deterministic
// tests.
//
// Package keys builds and parses composite keys; ddbtest (a separate module,
// github.com/ddbkit/ddbkit/ddbtest) gives tests a real DynamoDB Local.
package ddbkit
