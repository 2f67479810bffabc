package livecomment_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
)

// TestBroadcastSendError: a send that fails is the caller's failure, not
// DynamoDB's (issue 43): Broadcast's error is a *SendError naming the
// connections, matching no sentinel and not saying "safe to repeat",
// with the send's own error reachable.
func TestBroadcastSendError(t *testing.T) {
	ctx := context.Background()
	s := livecomment.NewMemoryStore()
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "room", HostID: "host"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b", "c", "d"} {
		if _, err := s.JoinRoom(ctx, r.ID, id); err != nil {
			t.Fatal(err)
		}
	}
	boom := errors.New("boom")
	res, err := livecomment.Broadcast(ctx, s, r.ID, func(_ context.Context, c livecomment.Connection) error {
		if c.ID == "b" || c.ID == "d" {
			return boom
		}
		return nil
	})
	if res != (livecomment.BroadcastResult{Sent: 2, Failed: 2}) {
		t.Errorf("result = %+v, want 2 sent and 2 failed", res)
	}
	var se *livecomment.SendError
	if !errors.As(err, &se) || !slices.Equal(se.ConnectionIDs, []string{"b", "d"}) {
		t.Fatalf("err = %v; want a *SendError naming b and d", err)
	}
	if got := ddbkit.MatchingSentinels(err); len(got) != 0 {
		t.Errorf("a failed send matches %v; want no sentinel (DynamoDB was not involved)", got)
	}
	if !errors.Is(err, boom) || strings.Contains(err.Error(), "safe to repeat") || !strings.HasPrefix(err.Error(), "livecomment: broadcast: ") {
		t.Errorf("err = %q; want the send's error, prefixed, without \"safe to repeat\"", err)
	}
}
