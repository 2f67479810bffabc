package kondate_test

import (
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/kondate/kondatetest"
)

func TestMemoryStore(t *testing.T) {
	kondatetest.Run(t, func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store {
		return kondate.NewMemoryStore(opts...)
	})
}

// TestIdempotencyKeyPastWindow: a key repeated past ddbkit.IdempotencyWindow
// is a new request: a new recipe. DynamoDB Local keeps a ClientRequestToken
// for as long as it runs, so this is tested on the memory store only.
func TestIdempotencyKeyPastWindow(t *testing.T) {
	now := start
	s := kondate.NewMemoryStore(func(o *kondate.Options) { o.Clock = func() time.Time { return now } })
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "req-1")
	in := kondate.NewRecipe{Title: "麻婆豆腐"}
	first, err := s.CreateRecipe(ctx, "u_01", in)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(ddbkit.IdempotencyWindow - time.Second)
	if again, err := s.CreateRecipe(ctx, "u_01", in); err != nil || again.ID != first.ID {
		t.Fatalf("within the window: %q, %v; want the first recipe %q", again.ID, err, first.ID)
	}
	now = start.Add(ddbkit.IdempotencyWindow + time.Second)
	later, err := s.CreateRecipe(ctx, "u_01", in)
	if err != nil || later.ID == first.ID {
		t.Fatalf("past the window: %q, %v; want a new recipe", later.ID, err)
	}
	page, err := s.ListRecipes(t.Context(), "u_01", ddbkit.PageOptions{})
	if err != nil || len(page.Items) != 2 {
		t.Fatalf("recipes after the key's window: %d, %v; want 2", len(page.Items), err)
	}
}
