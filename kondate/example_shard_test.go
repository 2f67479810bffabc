package kondate_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// Switching a live catalog to 16 shards: the entries published before stay
// in CATALOG#RECIPE (shard 0's partition), new ones go to their ID's
// shard, and the newest list merges them all in time order.
func ExampleOptions_catalogShards() {
	ctx := context.Background()
	clock := ddbkit.StepClock(time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC), time.Second)
	ids := ddbkit.SeededULIDs(1, clock)
	before := kondate.NewMemoryStore(kondate.AllIndexes, func(o *kondate.Options) { o.Clock, o.NewID = clock, ids })
	for _, title := range []string{"肉じゃが", "カレー"} {
		r, _ := before.CreateRecipe(ctx, "u_01", kondate.NewRecipe{Title: title})
		_, _ = before.Publish(ctx, "u_01", kondate.KindRecipe, r.ID)
	}

	after := kondate.NewMemoryStore(kondate.AllIndexes, func(o *kondate.Options) {
		o.Clock, o.NewID = clock, ids
		o.CatalogShards = 16
	})
	_ = after.Import(before.Export())
	for _, title := range []string{"麻婆豆腐", "味噌汁", "親子丼"} {
		r, _ := after.CreateRecipe(ctx, "u_02", kondate.NewRecipe{Title: title})
		_, _ = after.Publish(ctx, "u_02", kondate.KindRecipe, r.ID)
	}
	page, err := after.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{})
	if err != nil {
		panic(err)
	}
	for _, e := range page.Items {
		fmt.Println(e.Title, e.CreatedAt.Format(time.TimeOnly))
	}
	// Where the catalog items are: the seed's partition, and shards.
	parts := map[string]int{}
	for _, item := range after.Export()[kondate.DefaultTableName] {
		if pk := item["PK"].(*types.AttributeValueMemberS).Value; strings.HasPrefix(pk, "CATALOG#") {
			parts[pk]++
		}
	}
	fmt.Println(parts["CATALOG#RECIPE"] >= 2, len(parts) > 1)
	// Output:
	// 親子丼 10:00:14
	// 味噌汁 10:00:11
	// 麻婆豆腐 10:00:08
	// カレー 10:00:05
	// 肉じゃが 10:00:02
	// true true
}
