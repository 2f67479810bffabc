package wardrobe_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// A unit test that lists right after a write passes on a plain
// MemoryStore, and on DynamoDB Local, and fails now and then in
// production, where the listings' GSIs lag behind the table. With
// Emulation.GSILag the memory store's GSIs lag too, and the test meets
// the read-after-write it relies on: the new clothing is not listed yet,
// while GetClothing, a strongly consistent read of the table, finds it.
func ExampleOptions_emulation() {
	ctx := context.Background()
	for _, lag := range []time.Duration{0, time.Hour} {
		s := wardrobe.NewMemoryStore(stepClock, func(o *wardrobe.Options) {
			o.Emulation = ddbkit.Emulation{GSILag: lag}
		})
		w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "わたしのクローゼット"})
		if err != nil {
			panic(err)
		}
		shirt, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "白シャツ"})
		if err != nil {
			panic(err)
		}
		p, err := s.ListClothes(ctx, w.ID, wardrobe.ListQuery{})
		if err != nil {
			panic(err)
		}
		got, err := s.GetClothing(ctx, w.ID, shirt.ID)
		fmt.Printf("GSILag %v: listed %d, got %s %v\n", lag, len(p.Items), got.Name, err)
	}
	// Output:
	// GSILag 0s: listed 1, got 白シャツ <nil>
	// GSILag 1h0m0s: listed 0, got 白シャツ <nil>
}
