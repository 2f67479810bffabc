package livecomment_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
)

// acceptAll is a client whose every write succeeds and whose reads find
// nothing: the partition model (ddbtest.PartitionClient) judges the calls
// before they reach it, so a load test needs no DynamoDB and runs in
// virtual time.
type acceptAll struct{ ddbkit.Client }

func (acceptAll) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{}, nil
}

func (acceptAll) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// describe is the table description the partition model needs of in.
func describe(in *dynamodb.CreateTableInput) types.TableDescription {
	td := types.TableDescription{TableName: in.TableName, KeySchema: in.KeySchema, AttributeDefinitions: in.AttributeDefinitions}
	for _, g := range in.GlobalSecondaryIndexes {
		td.GlobalSecondaryIndexes = append(td.GlobalSecondaryIndexes,
			types.GlobalSecondaryIndexDescription{IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection})
	}
	return td
}

// postLoad posts to one room at rate comments a second for two virtual
// seconds, through a partition model with DynamoDB's limits (without the
// burst, so the run measures what a partition sustains, and without
// limits when unlimited), without retries, and returns the model's
// report.
func postLoad(t *testing.T, shards, rate int, unlimited bool) ddbtest.PartitionReport {
	t.Helper()
	start := time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC)
	now := start
	clock := func() time.Time { return now }
	var tds []types.TableDescription
	for _, in := range livecomment.CreateTableInputs("load") {
		tds = append(tds, describe(in))
	}
	p := ddbtest.NewPartitionClient(acceptAll{}, func(o *ddbtest.PartitionOptions) {
		o.Clock, o.Burst, o.Tables, o.Top = clock, 0, tds, 100
		if unlimited {
			o.PartitionRCU, o.PartitionWCU, o.ItemWCU = 0, 0, 0
		}
	})
	s := livecomment.NewDynamoStore(p, func(o *livecomment.Options) {
		o.Env = "load"
		o.Clock = clock
		o.NewID = ddbkit.SeededUUIDv4(1)
		o.NewCommentID = livecomment.SeededCommentIDs(1)
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 1}
		o.CommentShards = shards
	})
	// The room, as the stub cannot hold it: the model prices the post's
	// room check all the same.
	const room = "3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c"
	in := livecomment.NewComment{Content: strings.Repeat("楽しみ", 20), Nickname: "たろう"} // a 250-byte item: 1 WCU
	n := 2 * rate
	for i := range n {
		now = start.Add(time.Duration(i) * time.Second / time.Duration(rate))
		_, _ = s.PostComment(t.Context(), room, in)
	}
	return p.Report()
}

// commentCeiling is the rate at which the hottest Comments partition
// (table or index) of r, a run at rate, would reach DynamoDB's 1,000 WCU/s.
func commentCeiling(r ddbtest.PartitionReport, rate int) int {
	hottest := 0.0
	for _, u := range r.Partitions {
		if strings.HasPrefix(u.Table, "LiveComment-Comments-") {
			hottest = max(hottest, u.Write/2) // two seconds
		}
	}
	return int(float64(rate) * ddbtest.DefaultPartitionWCU / hottest)
}

// TestCommentThroughput drives PostComment into one room at rising rates
// through DynamoDB's partition limits (ddbtest.PartitionClient, virtual
// time), for the seed's layout and 4, 16 and 64 shards, and reports two
// ceilings: the rate the Comments partitions sustain (the table's and
// roomId-createdAt-index's, from the capacity the model attributes to
// them), and the highest rate of the ladder PostComment sustains with
// under 1% throttled. Sharding lifts the first past the 5,000
// comments/s from 16 shards; the second stays near 500 for every layout,
// held there by the room's item, which each post's transaction checks for
// 2 WCU (see "Sharded comments" in the package documentation). The test
// holds both, so that a change to either updates the documentation.
func TestCommentThroughput(t *testing.T) {
	rates := []int{250, 400, 500, 600, 1000, 2500, 5000, 10000}
	var table []string
	for _, tc := range []struct {
		shards     int
		minComment int // the Comments partitions' ceiling, at least
	}{
		{0, 500}, {4, 1600}, {16, 6000}, {64, 20000},
	} {
		comments := commentCeiling(postLoad(t, tc.shards, 10000, true), 10000)
		if comments < tc.minComment || (tc.shards == 0 && comments != 500) {
			t.Errorf("%d shards: the Comments partitions sustain %d comments/s, want at least %d", tc.shards, comments, tc.minComment)
		}
		sustained, hottest := 0, ""
		for _, rate := range rates {
			r := postLoad(t, tc.shards, rate, false)
			if r.ThrottledFraction >= 0.01 {
				hottest = r.Partitions[0].String()
				break
			}
			sustained = rate
		}
		if sustained != 500 {
			t.Errorf("%d shards: PostComment sustains %d comments/s, want 500 (the room check's item)", tc.shards, sustained)
		}
		table = append(table, fmt.Sprintf("%2d shards: Comments partitions %6d/s, PostComment %4d/s (above it, hottest: %s)",
			tc.shards, comments, sustained, hottest))
	}
	t.Logf("comments/s into one room, under 1%% throttled:\n%s", strings.Join(table, "\n"))
}
