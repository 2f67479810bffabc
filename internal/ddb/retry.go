package ddb

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
)

// Backoff bounds a retry loop.
type Backoff struct {
	// Attempts is the most calls to make, the first included. Zero means no
	// bound (for unprocessed batch items, which always make progress).
	Attempts int
	// Base is the ceiling of the first delay; it doubles per retry up to Max.
	Base, Max time.Duration
}

// DefaultBackoff is used for read-modify-write retries and for unprocessed
// batch items.
var DefaultBackoff = Backoff{Attempts: 8, Base: 5 * time.Millisecond, Max: 500 * time.Millisecond}

// Delay returns the full-jitter delay before retry number n (1-based): a
// random duration in [0, min(Max, Base*2^(n-1))]. Jitter keeps racing writers
// from retrying in lockstep.
func (b Backoff) Delay(n int) time.Duration {
	ceil := min(b.Base, b.Max)
	for i := 1; i < n && ceil < b.Max; i++ {
		if ceil > b.Max/2 { // doubling would pass Max, or overflow
			ceil = b.Max
			break
		}
		ceil *= 2
	}
	if ceil <= 0 {
		return 0
	}
	// Uint64N: ceil+1 overflows a Duration when ceil is the largest one.
	return time.Duration(rand.Uint64N(uint64(ceil) + 1))
}

// Sleep waits d or until ctx ends, whichever is first.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Retry calls fn until it succeeds, returns an error that is not worth
// retrying, the attempts run out or ctx ends. Worth retrying are conflicts
// (ddbkit.ErrConflict, which domains return when a version condition failed,
// and TransactionConflict cancellations) and throttling. When the attempts run
// out, the error matches ddbkit.ErrConflict and wraps the last cause.
func Retry(ctx context.Context, b Backoff, fn func() error) error {
	return RetryIf(ctx, b, Retryable, fn)
}

// RetryIf is Retry with its own test of which errors are worth retrying,
// for callers that may retry more than Retryable allows (such as a
// transaction with a ClientRequestToken after a 5xx). When the attempts run
// out, the error matches ddbkit.ErrConflict if the last one was a conflict
// or throttling, as with Retry, and wraps the last cause.
func RetryIf(ctx context.Context, b Backoff, retryable func(error) bool, fn func() error) error {
	for n := 1; ; n++ {
		err := fn()
		if err == nil || !retryable(err) {
			return err
		}
		if b.Attempts > 0 && n >= b.Attempts {
			if errors.Is(err, ddbkit.ErrConflict) || !Retryable(err) {
				return fmt.Errorf("gave up after %d attempts: %w", n, err)
			}
			return fmt.Errorf("gave up after %d attempts: %w: %w", n, ddbkit.ErrConflict, err)
		}
		if err := Sleep(ctx, b.Delay(n)); err != nil {
			return err
		}
	}
}

// Retryable reports whether err is a conflict or throttling worth retrying.
func Retryable(err error) bool {
	if errors.Is(err, ddbkit.ErrConflict) {
		return true
	}
	var ce *TxCanceledError
	if errors.As(err, &ce) && ce.has(ReasonThrottling) {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "ProvisionedThroughputExceededException", "ThrottlingException",
			"RequestLimitExceeded", "TransactionConflictException":
			return true
		}
	}
	return false
}

// IsConditionFailed reports whether a single-item write failed its condition.
func IsConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}
