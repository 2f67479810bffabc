//go:build !unix

package ddbtest

// lockPort is a no-op where flock is missing; the jar path needs sh anyway.
func lockPort(int) bool { return true }
