package livecomment

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddbkit/ddbkit"
)

// SendFunc delivers one message to one connection, as the API Gateway
// Management API's PostToConnection does; the message is the caller's, held
// by the closure. It returns ErrGone (possibly wrapped), or API Gateway's
// GoneException, when the connection no longer exists. It must be safe for
// concurrent use, and return when ctx ends: Broadcast waits for every send,
// and runs its first ones on the caller's goroutine.
type SendFunc func(ctx context.Context, c Connection) error

// ConnectionPruner is what Broadcast needs: the connections of a room, and
// deleting those that are gone. Deleting is DeleteItem on the Connections
// table, which the seed does not grant PostCommentFunction (it has read
// access only), so a CommentPoster is no ConnectionPruner: a function that
// posts and broadcasts needs DeleteItem on Connections too (the policy of
// ConnectionPruner beside CommentPoster's). A ConnectionStore is one.
type ConnectionPruner interface {
	ConnectionLister
	Disconnect(ctx context.Context, connectionID string) error
}

// BroadcastResult counts what Broadcast did, one count per connection.
// Which connections failed is in Broadcast's *SendError (errors.As), so
// that a result stays comparable with ==.
type BroadcastResult struct {
	Sent   int `json:"sent"`   // send succeeded
	Gone   int `json:"gone"`   // send reported the connection gone; it was disconnected
	Failed int `json:"failed"` // send failed otherwise; the connection was kept
}

// SendError reports the connections Broadcast's send failed for, other
// than gone ones: the caller's send failed, not the store. It matches none
// of ddbkit's sentinels (it is no ErrUnavailable: repeating the Broadcast
// would send again to every connection that already had the message);
// resend to ConnectionIDs instead, or drop them. The send's own errors
// stay reachable with errors.Is and errors.As.
type SendError struct {
	// ConnectionIDs are the connections whose send failed, in the order
	// the sends ended.
	ConnectionIDs []string
	// Errs are the first of the sends' errors (at most ten), each naming
	// its connection.
	Errs []error
}

// Error implements error.
func (e *SendError) Error() string {
	msg := fmt.Sprintf("send failed for %d connection(s): %v", len(e.ConnectionIDs), errors.Join(e.Errs...))
	if n := len(e.ConnectionIDs) - len(e.Errs); n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return strings.ReplaceAll(msg, "\n", "; ")
}

// Unwrap returns the sends' errors.
func (e *SendError) Unwrap() []error { return e.Errs }

// BroadcastOptions tune Broadcast.
type BroadcastOptions struct {
	// Concurrency is the most sends in flight at once. The default is
	// DefaultBroadcastConcurrency.
	Concurrency int
	// PageLimit is the page size of the walk over the room's connections.
	// The default is ddbkit.DefaultPageLimit.
	PageLimit int
}

// DefaultBroadcastConcurrency is the default bound on concurrent sends.
const DefaultBroadcastConcurrency = 16

// inlineSend is how long a send may take for Broadcast to keep sending on
// its own goroutine (see Broadcast).
const inlineSend = 100 * time.Microsecond

// maxJoinedErrors bounds how many send errors Broadcast returns in full.
const maxJoinedErrors = 10

// Broadcast calls send for every connection of roomID, at most
// opts.Concurrency at once, while it walks the room's connections,
// opts.PageLimit per page. It sends on the calling goroutine, one after
// another, while sends return within 100µs (sends within the process, a
// test's fake); from the first that take longer (the first send alone,
// later ones timed in spans of up to 4), it hands the rest to at most
// opts.Concurrency goroutines. A connection whose send reports it gone (see IsGone) is
// disconnected, so the next broadcast does not try it again.
//
// The result counts every connection Broadcast reached, also when it returns
// an error. The error is nil when listing succeeded and every send either
// succeeded or found the connection gone; otherwise it joins the listing
// error (ErrInvalidArgument for a bad room ID, or the store's error), the
// context's error (ErrUnavailable), the first failed disconnects (the
// store's errors), and a *SendError naming every connection whose send
// failed. A SendError matches none of ddbkit's sentinels: DynamoDB was not
// involved, and repeating the Broadcast would send again to everyone who
// already had the message.
// Connections a listing page skipped as corrupt (Page.Skipped) are not
// sent to. A room with no connections, or no such room, sends nothing.
// s is a ConnectionPruner, not a CommentPoster: the deletes need
// DeleteItem on Connections, which the seed's PostCommentFunction lacks.
func Broadcast(ctx context.Context, s ConnectionPruner, roomID string, send SendFunc, optFns ...func(*BroadcastOptions)) (BroadcastResult, error) {
	const op = "broadcast"
	o := BroadcastOptions{Concurrency: DefaultBroadcastConcurrency, PageLimit: ddbkit.DefaultPageLimit}
	for _, fn := range optFns {
		fn(&o)
	}
	if o.Concurrency < 1 {
		return BroadcastResult{}, wrap(op, ddbkit.Invalid("Concurrency", "must be at least 1, got %d", o.Concurrency))
	}
	if send == nil {
		return BroadcastResult{}, wrap(op, ddbkit.Invalid("send", "must not be nil"))
	}
	var (
		res     BroadcastResult
		errs    []error // the store's: disconnects of gone connections
		dropped int
		sendErr SendError
		mu      sync.Mutex
		wg      sync.WaitGroup
		work    = make(chan Connection, o.Concurrency)
		workers int
		busy    atomic.Int32 // workers sending
	)
	fail := func(err error) {
		if len(errs) < maxJoinedErrors {
			errs = append(errs, err)
		} else {
			dropped++
		}
	}
	deliver := func(c Connection) {
		err := send(ctx, c)
		var derr error
		if err != nil && IsGone(err) {
			derr = s.Disconnect(ctx, c.ID)
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err == nil:
			res.Sent++
		case IsGone(err):
			res.Gone++
			if derr != nil {
				fail(fmt.Errorf("disconnect gone connection %q: %w", c.ID, derr))
			}
		default:
			res.Failed++
			sendErr.ConnectionIDs = append(sendErr.ConnectionIDs, c.ID)
			if len(sendErr.Errs) < maxJoinedErrors {
				sendErr.Errs = append(sendErr.Errs, fmt.Errorf("send to connection %q: %w", c.ID, err))
			}
		}
	}
	// Workers, at most o.Concurrency, take the walk's connections from a
	// queue one after another; another starts when the queue holds more
	// than the idle ones will take. A goroutine per connection cost more
	// than a fast send itself (issue 15: the memory store's broadcast was
	// only 34 times faster than DynamoDB Local's). The count of idle
	// workers can be one too high for a moment (a worker that took a
	// connection but has not counted itself busy), which at worst leaves a
	// connection queued until the next one is walked, or a send ends.
	worker := func() {
		defer wg.Done()
		for c := range work {
			busy.Add(1)
			deliver(c)
			busy.Add(-1)
		}
	}
	grow := func() {
		for workers < o.Concurrency && len(work) > workers-int(busy.Load()) {
			workers++
			wg.Add(1)
			go worker()
		}
	}
	// Sends run inline, on this goroutine, while they are fast: a
	// hand-off to a worker costs more than a send that returns at once
	// (a fan-out within the process, a test's fake), most of a memory
	// store's broadcast. The sends are timed in spans, the first alone,
	// then of 2 and of 4 (reading the clock for each send would cost a
	// fast broadcast a fifth of its time); from the first span slower
	// than inlineSend a send (a PostToConnection over the network takes
	// milliseconds), the rest go to the workers.
	var (
		inline    = true
		spanStart time.Time
		span      int // sends in the current span
		spanLen   = 1
	)
	var stop error
walk:
	// Deleting gone connections during the walk is safe: a cursor resumes
	// after its key whether or not that item still exists.
	for c, err := range ddbkit.All(func(cursor string) (ddbkit.Page[Connection], error) {
		return s.ListConnections(ctx, roomID, ddbkit.PageOptions{Limit: o.PageLimit, Cursor: cursor})
	}) {
		if err != nil {
			stop = err
			break
		}
		if err := ctx.Err(); err != nil {
			stop = wrap(op, err)
			break
		}
		if inline {
			if span == 0 {
				spanStart = time.Now()
			}
			deliver(c)
			if span++; span == spanLen {
				inline = time.Since(spanStart) < time.Duration(span)*inlineSend
				span, spanLen = 0, min(2*spanLen, 4)
			}
			continue
		}
		select {
		case work <- c:
			grow()
			continue
		default:
		}
		grow()
		select {
		case work <- c:
		case <-ctx.Done():
			stop = wrap(op, ctx.Err())
			break walk
		}
	}
	grow()
	close(work)
	wg.Wait()
	if dropped > 0 {
		errs = append(errs, fmt.Errorf("and %d more failures", dropped))
	}
	// A listing error is already wrapped by its own op. A send's error is
	// the caller's, not the store's: it is not classified.
	var sent error
	if len(sendErr.ConnectionIDs) > 0 {
		sent = fmt.Errorf("livecomment: %s: %w", op, &sendErr)
	}
	return res, errors.Join(stop, wrap(op, errors.Join(errs...)), sent)
}
