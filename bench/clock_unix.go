//go:build unix

package bench

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used, every thread's (the
// collector's workers included), user and system. Linux sums it from
// the scheduler's exact run times, so two readings 20 ms apart differ by
// what ran, to the microsecond.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const haveCPUTime = true
