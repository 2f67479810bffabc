package memtable_test

import (
	"errors"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

func TestTokens(t *testing.T) {
	var tk memtable.Tokens
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if replay, err := tk.Check("a", "w1", t0); replay || err != nil {
		t.Fatalf("Check(new token) = %v, %v; want false, nil", replay, err)
	}
	tk.Commit("a", "w1", t0)
	if replay, err := tk.Check("a", "w1", t0.Add(time.Minute)); !replay || err != nil {
		t.Errorf("Check(same writes) = %v, %v; want a replay", replay, err)
	}
	if _, err := tk.Check("a", "w2", t0.Add(time.Minute)); !errors.Is(err, ddbkit.ErrConflict) {
		t.Errorf("Check(other writes) = %v; want ErrConflict", err)
	}
	if replay, err := tk.Check("a", "w2", t0.Add(memtable.TokenWindow)); replay || err != nil {
		t.Errorf("Check(after the window) = %v, %v; want a new request", replay, err)
	}
}
