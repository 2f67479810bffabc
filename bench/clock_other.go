//go:build !unix

package bench

import "time"

// cpuTime is not read where getrusage is missing: Compare times every
// comparison by the wall clock there.
func cpuTime() time.Duration { return 0 }

const haveCPUTime = false
