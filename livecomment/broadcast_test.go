package livecomment_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbkit/ddbkit/livecomment"
)

func TestIsGone(t *testing.T) {
	status := func(code int) error {
		return &smithy.OperationError{ServiceID: "ApiGatewayManagementApi", OperationName: "PostToConnection",
			Err: &awshttp.ResponseError{ResponseError: &smithyhttp.ResponseError{
				Response: &smithyhttp.Response{Response: &http.Response{StatusCode: code}}, Err: errors.New("response error")}}}
	}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"ErrGone", livecomment.ErrGone, true},
		{"wrapped ErrGone", fmt.Errorf("send: %w", livecomment.ErrGone), true},
		{"GoneException", &smithy.OperationError{Err: &smithy.GenericAPIError{Code: "GoneException"}}, true},
		{"HTTP 410", status(410), true},
		{"HTTP 500", status(500), false},
		{"another API error", &smithy.GenericAPIError{Code: "LimitExceededException"}, false},
		{"nil", nil, false},
		{"plain error", errors.New("gone"), false},
	}
	for _, tt := range tests {
		if got := livecomment.IsGone(tt.err); got != tt.want {
			t.Errorf("IsGone(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestBroadcastConcurrency: slow sends run Concurrency at once, never more,
// and a small room's connections after the first are all sent to at once.
func TestBroadcastConcurrency(t *testing.T) {
	ctx := t.Context()
	// The first send runs on Broadcast's goroutine, and is slow: the
	// others go to workers, so 3 connections see at most 2 at once.
	for _, tc := range []struct{ conns, concurrency, want int }{{40, 8, 8}, {3, 16, 2}, {5, 1, 1}} {
		s := livecomment.NewMemoryStore()
		r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range tc.conns {
			if _, err := s.JoinRoom(ctx, r.ID, fmt.Sprintf("conn-%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		var mu sync.Mutex
		inFlight, most := 0, 0
		send := func(context.Context, livecomment.Connection) error {
			mu.Lock()
			inFlight++
			most = max(most, inFlight)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			inFlight--
			mu.Unlock()
			return nil
		}
		res, err := livecomment.Broadcast(ctx, s, r.ID, send, func(o *livecomment.BroadcastOptions) { o.Concurrency = tc.concurrency; o.PageLimit = 7 })
		if err != nil || res.Sent != tc.conns {
			t.Fatalf("%d connections, concurrency %d: %+v, %v", tc.conns, tc.concurrency, res, err)
		}
		if most != tc.want {
			t.Errorf("%d connections, concurrency %d: at most %d sends at once, want %d", tc.conns, tc.concurrency, most, tc.want)
		}
	}
}

// TestBroadcastInline: sends that return at once run on Broadcast's own
// goroutine, one after another, with no worker started; once one is slow,
// the rest go to workers.
func TestBroadcastInline(t *testing.T) {
	ctx := t.Context()
	s := livecomment.NewMemoryStore()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		if _, err := s.JoinRoom(ctx, r.ID, fmt.Sprintf("conn-%02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		slowFrom int // the sends from this one on sleep
		inline   int // sends on Broadcast's goroutine, at least
	}{
		{"fast", 30, 30},
		{"slow from the 11th", 10, 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A send preempted past 100µs moves the rest to workers too
			// soon: what must hold at least is asked of one of a few runs
			// (on a busy machine), what must hold at most of every run.
			got := 0
			for range 10 {
				var mu sync.Mutex
				n, inline := 0, 0
				caller := goroutine()
				send := func(context.Context, livecomment.Connection) error {
					onCaller := goroutine() == caller
					mu.Lock()
					i := n
					n++
					if onCaller {
						inline++
					}
					mu.Unlock()
					if i >= tc.slowFrom {
						time.Sleep(2 * time.Millisecond)
					}
					return nil
				}
				res, err := livecomment.Broadcast(ctx, s, r.ID, send)
				if err != nil || res.Sent != 30 {
					t.Fatalf("Broadcast = %+v, %v; want 30 sent", res, err)
				}
				if tc.slowFrom < 30 && inline > tc.slowFrom+4 {
					t.Fatalf("%d sends ran on Broadcast's goroutine, want at most %d: a slow span hands the rest to workers", inline, tc.slowFrom+4)
				}
				if got = max(got, inline); got >= tc.inline {
					return
				}
			}
			t.Errorf("at most %d sends ran on Broadcast's goroutine in 10 runs, want %d", got, tc.inline)
		})
	}
}

// goroutine returns the calling goroutine's header line, "goroutine N",
// which names it.
func goroutine() string {
	var buf [32]byte
	line := string(buf[:runtime.Stack(buf[:], false)])
	id, _, _ := strings.Cut(line, " [")
	return id
}
