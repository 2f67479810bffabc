package kondate_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// TestEmulatedThrottling shows what Options.Emulation gives a user's unit
// test: every other call throttled, and the store still succeeds within
// its retry policy, as the DynamoDB store does; with every call
// throttled, it gives up with ErrUnavailable and writes nothing.
func TestEmulatedThrottling(t *testing.T) {
	ctx := context.Background()
	s := kondate.NewMemoryStore(func(o *kondate.Options) {
		o.Emulation.Throttle = ddbkit.ThrottleEvery(2)
	})
	r, err := s.CreateRecipe(ctx, "u1", kondate.NewRecipe{Title: "curry"})
	if err != nil {
		t.Fatalf("CreateRecipe, every other call throttled: %v", err)
	}
	if got, err := s.GetRecipe(ctx, "u1", r.ID); err != nil || got.Title != "curry" {
		t.Fatalf("GetRecipe = %+v, %v; want the recipe", got, err)
	}

	s = kondate.NewMemoryStore(func(o *kondate.Options) {
		o.Emulation.Throttle = func(int) bool { return true }
	})
	_, err = s.CreateRecipe(ctx, "u1", kondate.NewRecipe{Title: "curry"})
	if !errors.Is(err, ddbkit.ErrUnavailable) {
		t.Fatalf("CreateRecipe, every call throttled: %v, want ErrUnavailable", err)
	}
	if items := s.Export()[kondate.DefaultTableName]; len(items) != 0 {
		t.Errorf("a throttled create wrote %d items", len(items))
	}
}
