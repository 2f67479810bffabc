package ddb_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// fastBackoff retries without noticeable delay.
var fastBackoff = ddb.Backoff{Attempts: 4, Base: time.Microsecond, Max: 10 * time.Microsecond}

// apiErr wraps an SDK error as the SDK returns it.
func apiErr(err error) error {
	return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "UpdateItem", Err: err}
}

// txErr returns what Tx.Exec returns when DynamoDB cancels a transaction of
// two items with the given reason codes.
func txErr(t *testing.T, codes ...string) error {
	t.Helper()
	var tx ddb.Tx
	tx.Put("a", tblA, item("p", "a")).Put("b", tblA, item("p", "b"))
	reasons := make([]types.CancellationReason, len(codes))
	for i, c := range codes {
		reasons[i] = types.CancellationReason{Code: aws.String(c)}
	}
	s := &stubClient{transact: func(*dynamodb.TransactWriteItemsInput) (*dynamodb.TransactWriteItemsOutput, error) {
		return nil, apiErr(&types.TransactionCanceledException{CancellationReasons: reasons})
	}}
	err := tx.Exec(context.Background(), s)
	var ce *ddb.TxCanceledError
	if !errors.As(err, &ce) {
		t.Fatalf("Exec() error = %v, want a *TxCanceledError", err)
	}
	return err
}

func TestRetryRetryable(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{name: "ErrConflict", err: fmt.Errorf("todo: version changed: %w", ddbkit.ErrConflict)},
		{name: "TransactionConflict cancellation", err: txErr(t, ddb.ReasonNone, ddb.ReasonTransactionConflict)},
		{name: "ThrottlingError cancellation", err: txErr(t, ddb.ReasonThrottling, ddb.ReasonNone)},
		{name: "ProvisionedThroughputExceededException", err: apiErr(&types.ProvisionedThroughputExceededException{Message: aws.String("slow down")})},
		{name: "RequestLimitExceeded", err: apiErr(&types.RequestLimitExceeded{Message: aws.String("slow down")})},
		{name: "TransactionConflictException", err: apiErr(&types.TransactionConflictException{Message: aws.String("busy")})},
		{name: "ThrottlingException", err: apiErr(&smithy.GenericAPIError{Code: "ThrottlingException", Message: "slow down"})},
		{name: "generic ProvisionedThroughputExceededException", err: apiErr(&smithy.GenericAPIError{Code: "ProvisionedThroughputExceededException"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !ddb.Retryable(tt.err) {
				t.Errorf("Retryable(%v) = false, want true", tt.err)
			}
			calls := 0
			err := ddb.RetryIf(context.Background(), fastBackoff, ddb.Retryable, func() error {
				calls++
				return tt.err
			})
			if calls != fastBackoff.Attempts {
				t.Errorf("RetryIf made %d calls, want %d", calls, fastBackoff.Attempts)
			}
			want := ddbkit.ErrConflict
			if ddb.Throttled(tt.err) {
				want = ddbkit.ErrUnavailable
			}
			if !errors.Is(err, want) {
				t.Errorf("errors.Is(%v, %v) = false, want true", err, want)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("errors.Is(%v, last cause) = false, want true", err)
			}
		})

		t.Run(tt.name+" then success", func(t *testing.T) {
			calls := 0
			err := ddb.RetryIf(context.Background(), fastBackoff, ddb.Retryable, func() error {
				calls++
				if calls < 3 {
					return tt.err
				}
				return nil
			})
			if err != nil {
				t.Errorf("RetryIf() error = %v, want nil", err)
			}
			if calls != 3 {
				t.Errorf("RetryIf made %d calls, want 3", calls)
			}
		})
	}
}

func TestRetryDoesNotRetryOtherErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{name: "invalid argument", err: ddbkit.Invalid("Title", "empty")},
		{name: "not found", err: ddbkit.ErrNotFound},
		{name: "condition failed", err: apiErr(&types.ConditionalCheckFailedException{Message: aws.String("no")})},
		{name: "condition failed in a transaction", err: txErr(t, ddb.ReasonConditionalCheckFailed, ddb.ReasonNone)},
		{name: "validation in a transaction", err: txErr(t, ddb.ReasonNone, "ValidationError")},
		{name: "internal server error", err: apiErr(&types.InternalServerError{Message: aws.String("boom")})},
		{name: "resource not found", err: apiErr(&types.ResourceNotFoundException{Message: aws.String("no table")})},
		{name: "generic validation", err: apiErr(&smithy.GenericAPIError{Code: "ValidationException"})},
		{name: "context canceled", err: context.Canceled},
		{name: "plain", err: errors.New("plain")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if ddb.Retryable(tt.err) {
				t.Errorf("Retryable(%v) = true, want false", tt.err)
			}
			calls := 0
			err := ddb.RetryIf(context.Background(), fastBackoff, ddb.Retryable, func() error {
				calls++
				return tt.err
			})
			if calls != 1 {
				t.Errorf("RetryIf made %d calls, want 1", calls)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("RetryIf() error = %v, want %v", err, tt.err)
			}
			if errors.Is(err, ddbkit.ErrConflict) {
				t.Errorf("errors.Is(%v, ErrConflict) = true, want false", err)
			}
		})
	}
}

func TestRetryIf(t *testing.T) {
	serverErr := apiErr(&types.InternalServerError{Message: aws.String("boom")})
	isServer := func(err error) bool {
		var api smithy.APIError
		return errors.As(err, &api) && api.ErrorFault() == smithy.FaultServer
	}
	retryable := func(err error) bool { return ddb.Retryable(err) || isServer(err) }

	calls := 0
	err := ddb.RetryIf(context.Background(), fastBackoff, retryable, func() error {
		calls++
		if calls < 3 {
			return serverErr
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("RetryIf through two 5xx = %v after %d calls, want success after 3", err, calls)
	}

	calls = 0
	err = ddb.RetryIf(context.Background(), fastBackoff, retryable, func() error { calls++; return serverErr })
	if calls != fastBackoff.Attempts || !errors.Is(err, serverErr) || !errors.Is(err, ddbkit.ErrUnavailable) || errors.Is(err, ddbkit.ErrConflict) {
		t.Fatalf("RetryIf under endless 5xx = %v after %d calls; want ErrUnavailable wrapping the 5xx, not ErrConflict, after %d", err, calls, fastBackoff.Attempts)
	}

	throttled := apiErr(&types.ProvisionedThroughputExceededException{Message: aws.String("slow down")})
	err = ddb.RetryIf(context.Background(), fastBackoff, retryable, func() error { return throttled })
	if !errors.Is(err, ddbkit.ErrUnavailable) || !errors.Is(err, throttled) {
		t.Fatalf("RetryIf under endless throttling = %v; want ErrUnavailable wrapping the cause, as with Retryable", err)
	}
}

func TestRetrySuccessIsOneCall(t *testing.T) {
	calls := 0
	if err := ddb.RetryIf(context.Background(), fastBackoff, ddb.Retryable, func() error { calls++; return nil }); err != nil {
		t.Errorf("RetryIf() error = %v, want nil", err)
	}
	if calls != 1 {
		t.Errorf("RetryIf made %d calls, want 1", calls)
	}
}

// TestRetryAlwaysBounded: no Backoff loops without bound. A policy of zero
// or fewer attempts means the default; a Backoff built by hand with zero
// attempts makes its one call.
func TestRetryAlwaysBounded(t *testing.T) {
	for _, n := range []int{0, -1, -100} {
		b := ddb.BackoffOf(ddbkit.RetryPolicy{MaxAttempts: n, BaseDelay: time.Microsecond, MaxDelay: time.Microsecond})
		if b.Attempts != ddbkit.DefaultMaxAttempts {
			t.Errorf("BackoffOf(MaxAttempts: %d).Attempts = %d, want the default %d", n, b.Attempts, ddbkit.DefaultMaxAttempts)
		}
		calls := 0
		err := ddb.RetryIf(context.Background(), b, ddb.Retryable, func() error { calls++; return ddbkit.ErrConflict })
		if calls != ddbkit.DefaultMaxAttempts || !errors.Is(err, ddbkit.ErrConflict) {
			t.Errorf("RetryIf(MaxAttempts: %d) under endless conflicts = %v after %d calls, want ErrConflict after %d", n, err, calls, ddbkit.DefaultMaxAttempts)
		}
	}
	calls := 0
	err := ddb.RetryIf(context.Background(), ddb.Backoff{}, ddb.Retryable, func() error { calls++; return ddbkit.ErrConflict })
	if calls != 1 || !errors.Is(err, ddbkit.ErrConflict) {
		t.Errorf("RetryIf(Backoff{}) = %v after %d calls, want ErrConflict after 1", err, calls)
	}
}

func TestRetryStopsOnContextEnd(t *testing.T) {
	slow := ddb.Backoff{Attempts: 100, Base: time.Hour, Max: time.Hour}
	tests := []struct {
		name    string
		ctx     func() (context.Context, context.CancelFunc)
		cancel  bool // cancel from inside the first call
		wantErr error
	}{
		{name: "canceled during backoff", ctx: func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		}, cancel: true, wantErr: context.Canceled},
		{name: "deadline during backoff", ctx: func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 20*time.Millisecond)
		}, wantErr: context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := tt.ctx()
			defer cancel()
			calls := 0
			start := time.Now()
			err := ddb.RetryIf(ctx, slow, ddb.Retryable, func() error {
				calls++
				if tt.cancel {
					cancel()
				}
				return ddbkit.ErrConflict
			})
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("RetryIf() error = %v, want %v", err, tt.wantErr)
			}
			if calls != 1 {
				t.Errorf("RetryIf made %d calls, want 1", calls)
			}
			// The delay is random in [0, 1h]: it ended because ctx did.
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("RetryIf took %v, want it to return when ctx ends", d)
			}
		})
	}
}

// delayCeil is min(Max, Base*2^(n-1)), computed without overflow.
func delayCeil(b ddb.Backoff, n int) time.Duration {
	c := b.Base
	for i := 1; i < n; i++ {
		if c > b.Max/2 {
			return b.Max
		}
		c *= 2
	}
	return min(c, b.Max)
}

// delay calls b.Delay(n), turning a panic into a test failure.
func delay(t *testing.T, b ddb.Backoff, n int) (d time.Duration) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%+v.Delay(%d) panicked: %v", b, n, r)
		}
	}()
	return b.Delay(n)
}

func TestBackoffDelayBounds(t *testing.T) {
	tests := []struct {
		name string
		b    ddb.Backoff
	}{
		{name: "default", b: ddb.DefaultBackoff},
		{name: "base above max", b: ddb.Backoff{Base: time.Second, Max: time.Millisecond}},
		{name: "zero", b: ddb.Backoff{}},
		{name: "zero max", b: ddb.Backoff{Base: time.Millisecond}},
		{name: "one nanosecond", b: ddb.Backoff{Base: 1, Max: 1}},
		{name: "odd values", b: ddb.Backoff{Base: 3, Max: 1000}},
		{name: "large max", b: ddb.Backoff{Base: time.Millisecond, Max: 1 << 60}},
		// Uncapped: the doubling must saturate, not overflow into zero or a
		// negative ceiling.
		{name: "uncapped max", b: ddb.Backoff{Base: time.Millisecond, Max: math.MaxInt64}},
		{name: "largest base and max", b: ddb.Backoff{Base: math.MaxInt64, Max: math.MaxInt64}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for n := 1; n <= 70; n++ {
				ceil := max(delayCeil(tt.b, n), 0)
				var top time.Duration
				for range 200 {
					d := delay(t, tt.b, n)
					if d < 0 || d > ceil {
						t.Fatalf("Delay(%d) = %v, want in [0, %v]", n, d, ceil)
					}
					top = max(top, d)
				}
				// Full jitter: 200 draws from [0, ceil] all below ceil/4 has
				// probability (1/4)^200 unless the jitter is broken.
				if ceil >= 4 && top < ceil/4 {
					t.Fatalf("Delay(%d): largest of 200 draws %v, want some near the ceiling %v", n, top, ceil)
				}
			}
		})
	}
}

func TestBackoffDelayBoundsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := ddb.Backoff{Base: time.Duration(r.Int64N(int64(time.Second))), Max: time.Duration(r.Int64N(int64(10 * time.Second)))}
		n := 1 + r.IntN(80)
		ceil := delayCeil(b, n)
		if d := delay(t, b, n); d < 0 || d > ceil {
			t.Fatalf("%+v.Delay(%d) = %v, want in [0, %v]", b, n, d, ceil)
		}
	}
}
