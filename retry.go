package ddbkit

import "time"

// RetryPolicy bounds the retries of one store operation: a read-modify-write
// that loses a race, a transaction DynamoDB cancels for a conflict, a call
// it throttles or fails with a 5xx, and batch items it leaves unprocessed.
// Every domain's Options hold one, and every field means the same thing
// everywhere. The zero value is the default policy.
type RetryPolicy struct {
	// MaxAttempts is the most calls made for one step, the first included.
	// Zero or less means DefaultMaxAttempts. Retries never go on without a
	// bound: an operation under a context without deadline still returns.
	MaxAttempts int
	// BaseDelay is the ceiling of the first delay, which doubles per retry
	// up to MaxDelay; each delay is drawn at random below its ceiling (full
	// jitter), so racing writers do not retry in lockstep. Zero or less
	// means DefaultBaseDelay.
	BaseDelay time.Duration
	// MaxDelay caps the delay between two attempts. Zero or less means
	// DefaultMaxDelay.
	MaxDelay time.Duration
}

// The defaults of RetryPolicy: eight attempts take at most about 1.3 s of
// waiting in all.
const (
	DefaultMaxAttempts = 8
	DefaultBaseDelay   = 5 * time.Millisecond
	DefaultMaxDelay    = 500 * time.Millisecond
)

// WithDefaults returns p with every field that is zero or less replaced by
// its default.
func (p RetryPolicy) WithDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultBaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	return p
}
