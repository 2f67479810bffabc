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
	"github.com/ddbkit/ddbkit/internal/obs"
)

// Backoff is a ddbkit.RetryPolicy with its defaults applied.
type Backoff struct {
	// Attempts is the most calls to make, the first included; at least 1.
	Attempts int
	// Base is the ceiling of the first delay; it doubles per retry up to Max.
	Base, Max time.Duration
}

// BackoffOf applies p's defaults: fields of zero or less take the default.
func BackoffOf(p ddbkit.RetryPolicy) Backoff {
	p = p.WithDefaults()
	return Backoff{Attempts: p.MaxAttempts, Base: p.BaseDelay, Max: p.MaxDelay}
}

// DefaultBackoff is BackoffOf(ddbkit.RetryPolicy{}).
var DefaultBackoff = BackoffOf(ddbkit.RetryPolicy{})

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

// attempts is b.Attempts, at least 1: a Backoff built by hand with zero
// attempts still makes its one call and never loops without bound.
func (b Backoff) attempts() int { return max(b.Attempts, 1) }

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

// RetryIf calls fn until it succeeds, returns an error that retryable
// rejects, the attempts run out or ctx ends. Retryable accepts conflicts
// (ddbkit.ErrConflict and TransactionConflict cancellations) and
// throttling; RetryableWithToken also a 5xx or a lost response, for a
// write that carries a ClientRequestToken. When the attempts run out, the
// last error is returned through Classify: a conflict matches
// ddbkit.ErrConflict, throttling and 5xx ddbkit.ErrUnavailable, and the
// cause is kept.
func RetryIf(ctx context.Context, b Backoff, retryable func(error) bool, fn func() error) error {
	for n := 1; ; n++ {
		err := fn()
		if err == nil || !retryable(err) {
			return err
		}
		if n >= b.attempts() {
			return fmt.Errorf("gave up after %d attempts: %w", n, Classify(err))
		}
		if err := Sleep(ctx, b.Delay(n)); err != nil {
			return err
		}
		obs.From(ctx).Retry()
	}
}

// Retryable reports whether err is a conflict or throttling worth retrying.
func Retryable(err error) bool {
	if errors.Is(err, ddbkit.ErrConflict) || Throttled(err) {
		return true
	}
	var api smithy.APIError
	return errors.As(err, &api) && api.ErrorCode() == "TransactionConflictException"
}

// RetryableWithToken reports whether err is worth retrying for a write that
// carries a ClientRequestToken: Retryable, and also a 5xx or a lost
// response, since repeating the token cannot apply the write twice.
func RetryableWithToken(err error) bool { return Retryable(err) || ServerError(err) }

// IsConditionFailed reports whether a single-item write failed its condition.
func IsConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}
