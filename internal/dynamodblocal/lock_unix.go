//go:build unix

package dynamodblocal

import (
	"context"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

// lockFile takes an exclusive flock on path, waiting for it until ctx ends,
// and returns its release. The kernel drops the lock if the process dies.
func lockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if err != syscall.EWOULDBLOCK {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for another download of DynamoDB Local (%s): %w", path, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// lockPort claims port among the processes of this machine, for as long as
// this process lives (the kernel drops the lock when it exits).
//
// A free port found with net.Listen is free only until it is closed, and
// go test runs many test binaries at once. Two that pick the same port
// would both start DynamoDB Local on it; one would fail to bind while its
// readiness probe was answered by the other's, and its tests would then
// depend on the other binary staying alive.
func lockPort(port int) bool {
	path := fmt.Sprintf("%s/ddbtest-port-%d.lock", os.TempDir(), port)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return true // no lock to be had; the bind check still applies
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return false
	}
	heldMu.Lock()
	heldPortLocks = append(heldPortLocks, f) // closing f would release the lock
	heldMu.Unlock()
	return true
}

var (
	heldMu        sync.Mutex
	heldPortLocks []*os.File
)
