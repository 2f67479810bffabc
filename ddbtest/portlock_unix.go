//go:build unix

package ddbtest

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockPort claims port among the test binaries of this machine, for as
// long as this process lives (the kernel drops the lock when it exits).
//
// A free port found with net.Listen is free only until it is closed, and
// go test runs many test binaries at once. Two that pick the same port
// would both start DynamoDB Local on it; one would fail to bind while its
// readiness probe was answered by the other's, and its tests would then
// depend on the other binary staying alive.
func lockPort(port int) bool {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("ddbtest-port-%d.lock", port))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return true // no lock to be had; the bind check still applies
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return false
	}
	heldPortLocks = append(heldPortLocks, f) // closing f would release the lock
	return true
}

var heldPortLocks []*os.File
