package wardrobe_test

import (
	"sync"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
	"github.com/ddbkit/ddbkit/wardrobe/wardrobetest"
)

func TestMemoryStore(t *testing.T) {
	wardrobetest.Run(t, func(t *testing.T, opts ...func(*wardrobe.Options)) wardrobe.Store {
		return wardrobe.NewMemoryStore(opts...)
	})
}

// TestIdempotencyKeyPastWindow repeats keyed writes once
// ddbkit.IdempotencyWindow has passed on Options.Clock: the key is a new
// request, which creates a new item and counts a new wear. (DynamoDB Local
// keeps a ClientRequestToken as long as it runs, so this runs on the
// memory store only.)
func TestIdempotencyKeyPastWindow(t *testing.T) {
	var mu sync.Mutex
	now := start
	s := wardrobe.NewMemoryStore(func(o *wardrobe.Options) {
		o.Clock = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	})
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	key := ddbkit.WithIdempotencyKey(t.Context(), "request-1")
	w, err := s.CreateWardrobe(key, wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.AddClothing(key, w.ID, wardrobe.NewClothing{Name: "c"})
	if err != nil {
		t.Fatal(err)
	}
	in := wardrobe.NewHistory{Date: "20260105", ClothingIDs: []string{c.ID}}
	h, err := s.AddHistory(key, w.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	advance(ddbkit.IdempotencyWindow - time.Second)
	if again, err := s.AddHistory(key, w.ID, in); err != nil || again.ID != h.ID {
		t.Fatalf("AddHistory repeated within the window = %+v, %v; want %s", again, err, h.ID)
	}
	advance(2 * time.Second) // the window plus a second after the first calls
	w2, err := s.CreateWardrobe(key, wardrobe.NewWardrobe{Name: "w"})
	if err != nil || w2.ID == w.ID {
		t.Fatalf("CreateWardrobe past the window = %+v, %v; want a new wardrobe, not %s", w2, err, w.ID)
	}
	c2, err := s.AddClothing(key, w.ID, wardrobe.NewClothing{Name: "c"})
	if err != nil || c2.ID == c.ID {
		t.Fatalf("AddClothing past the window = %+v, %v; want a new clothing, not %s", c2, err, c.ID)
	}
	h2, err := s.AddHistory(key, w.ID, in)
	if err != nil || h2.ID == h.ID {
		t.Fatalf("AddHistory past the window = %+v, %v; want a new history, not %s", h2, err, h.ID)
	}
	if got, err := s.GetClothing(t.Context(), w.ID, c.ID); err != nil || got.WearCount != 2 {
		t.Fatalf("clothing after a repeat past the window = %+v, %v; want two wears", got, err)
	}
}
