package ddbtest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
)

// A load test drives writes through a PartitionClient on a virtual clock,
// so it never sleeps, and reads the report: 1 KB comments posted to one
// live room at 2,000 a second for 2 seconds, with no burst, against a
// partition that serves 1,000 WCU a second.
func ExamplePartitionClient() {
	// In a test this is ddbtest.Client(t), and the key schema comes from
	// its DescribeTable. Here a stub accepts every call, and the schema is
	// given.
	stub := &stubClient{}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	p := ddbtest.NewPartitionClient(stub, func(o *ddbtest.PartitionOptions) {
		o.Clock = func() time.Time { return now }
		o.Burst = 0
		o.Tables = []types.TableDescription{{
			TableName: aws.String("Comments"),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("roomId"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("commentId"), KeyType: types.KeyTypeRange},
			},
		}}
	})

	for i := range 4000 {
		now = start.Add(time.Duration(i) * time.Second / 2000)
		// 1,024 bytes, as DynamoDB counts them: names and values.
		comment := map[string]types.AttributeValue{
			"roomId":    &types.AttributeValueMemberS{Value: "room#1"},
			"commentId": &types.AttributeValueMemberS{Value: fmt.Sprintf("c%04d", i)},
			"text":      &types.AttributeValueMemberS{Value: strings.Repeat("x", 994)},
		}
		_, err := p.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("Comments"), Item: comment})
		var throttled *types.ProvisionedThroughputExceededException
		if err != nil && !errors.As(err, &throttled) {
			fmt.Println(err)
			return
		}
	}

	r := p.Report()
	fmt.Printf("%d of %d writes throttled (%.0f%%)\n", r.Throttled, r.Requests, 100*r.ThrottledFraction)
	fmt.Println("hottest:", r.Partitions[0])
	// Output:
	// 2000 of 4000 writes throttled (50%)
	// hottest: Comments "room#1": 0 RCU, 2000 WCU, 2000 throttled
}

// A memory store runs under the same model, with no DynamoDB and no
// client: the model is the store's Options.Emulation.Capacity. Comments
// posted to one livecomment room at 1,000 a second for 2 seconds: each
// post's transaction checks the room's item and puts the comment, both at
// double price, and the room's item takes 1,000 WCU a second, so half the
// posts are throttled, on the room's item first.
func ExamplePartitionClient_Admit() {
	ctx := context.Background()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(-time.Minute)
	var tables []types.TableDescription
	for _, in := range livecomment.CreateTableInputs("load") {
		tables = append(tables, ddbtest.TableDescription(in))
	}
	model := ddbtest.NewPartitionClient(nil, func(o *ddbtest.PartitionOptions) {
		o.Clock = func() time.Time { return now }
		o.Burst = 0
		o.Tables = tables
	})
	store := livecomment.NewMemoryStore(func(o *livecomment.Options) {
		o.Env = "load"
		o.Clock = func() time.Time { return now }
		o.NewID = ddbkit.SeededUUIDv4(1)
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 1} // count every throttle
		o.Emulation.Capacity = model
	})
	room, err := store.CreateRoom(ctx, livecomment.NewRoom{Name: "live", HostID: "host"})
	if err != nil {
		panic(err)
	}
	model.Reset()
	failed := 0
	for i := range 2000 {
		now = start.Add(time.Duration(i) * time.Millisecond)
		if _, err := store.PostComment(ctx, room.ID, livecomment.NewComment{Content: "8888"}); errors.Is(err, ddbkit.ErrUnavailable) {
			failed++
		}
	}
	r := model.Report()
	fmt.Printf("%d of %d posts failed; the model throttled %d of %d requests\n", failed, 2000, r.Throttled, r.Requests)
	fmt.Println(r.Items[0])
	// Output:
	// 1000 of 2000 posts failed; the model throttled 1000 of 2000 requests
	// LiveComment-Rooms-load "6ae6783f-4fbd-491b-aeb8-8b73a48ed247": 0 RCU, 2000 WCU, 1000 throttled
}
