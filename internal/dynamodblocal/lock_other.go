//go:build !unix

package dynamodblocal

import "context"

// lockFile is a no-op where flock is missing: parallel first runs may each
// download, and the rename into place keeps the cache whole.
func lockFile(context.Context, string) (func(), error) { return func() {}, nil }

// lockPort is a no-op where flock is missing; starting the jar needs sh
// anyway.
func lockPort(int) bool { return true }
