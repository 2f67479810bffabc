package taskmgmt_test

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
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// acceptAll is a client whose every write succeeds and whose reads find
// nothing: the partition model (ddbtest.PartitionClient) judges the calls
// before they reach it, so a load test needs no DynamoDB and runs in
// virtual time.
type acceptAll struct{ ddbkit.Client }

// GetItem finds a to-do task at every TASK# key (so that a status move
// has a task to move), nothing elsewhere.
func (acceptAll) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	pk, _ := in.Key["PK"].(*types.AttributeValueMemberS)
	sk, _ := in.Key["SK"].(*types.AttributeValueMemberS)
	if pk == nil || sk == nil || !strings.HasPrefix(sk.Value, "TASK#") {
		return &dynamodb.GetItemOutput{}, nil
	}
	return &dynamodb.GetItemOutput{Item: rawTodo(strings.TrimPrefix(pk.Value, "TEAM#"), strings.TrimPrefix(sk.Value, "TASK#"), "2025-11-01")}, nil
}

func (acceptAll) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// load runs op (create: CreateTask; else UpdateTask moving a to-do task
// to doing) on distinct tasks of one team at rate a second for two
// virtual seconds, through a partition model with DynamoDB's item limit
// and a burst of 100 ms (enough for tasks that pick the same shard a few
// milliseconds apart, at most a 5% overrun of the run's rate), and with or
// without its partition limit (DynamoDB splits a
// hot partition by sort key ranges, which the model does not: without the
// partition limit, it stands for a team partition split apart), without
// retries; it returns the model's report.
func load(t *testing.T, create bool, shards, rate int, partitionLimit bool) ddbtest.PartitionReport {
	t.Helper()
	start := time.Date(2025, 11, 10, 1, 0, 0, 0, time.UTC)
	now := start
	clock := func() time.Time { return now }
	in := taskmgmt.CreateTableInput("load")
	td := ddbtest.TableDescription(in)
	p := ddbtest.NewPartitionClient(acceptAll{}, func(o *ddbtest.PartitionOptions) {
		o.Clock, o.Burst, o.Tables, o.Top = clock, 100*time.Millisecond, []types.TableDescription{td}, 5
		if !partitionLimit {
			o.PartitionRCU, o.PartitionWCU = 0, 0
		}
	})
	s := taskmgmt.NewDynamoStore(p, func(o *taskmgmt.Options) {
		o.TableName = "load"
		o.Clock = clock
		o.NewID = ddbkit.SeededUUIDv7s(1, clock)
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 1}
		o.CounterShards = shards
	})
	// A spread of statuses and dates, as an import's: each status group's
	// and date's index partitions take their share.
	doing := taskmgmt.StatusDoing
	for i := range 2 * rate {
		now = start.Add(time.Duration(i) * time.Second / time.Duration(rate))
		if !create {
			_, _ = s.UpdateTask(t.Context(), "t1", fmt.Sprint("task-", i), taskmgmt.TaskPatch{Status: &doing})
			continue
		}
		day := taskmgmt.Date(fmt.Sprintf("2025-11-%02d", 1+i%28))
		_, _ = s.CreateTask(t.Context(), "t1", taskmgmt.NewTask{Title: "インポートしたタスク", Status: taskmgmt.Statuses[i%3], Start: day, End: day})
	}
	return p.Report()
}

// TestCounterThroughput drives CreateTask, and status moves (UpdateTask),
// into one team at rising rates through DynamoDB's limits
// (ddbtest.PartitionClient, virtual time, no DynamoDB), for the seed's
// counters and 4 and 16 shards, and reports the highest rate of the
// ladder with under 1% throttled and what throttles above it: with the
// team partition split (item limits only) and whole (the partition limit
// too). The test holds the figures the package doc's "Sharded counters"
// gives, so that a change to either shows.
func TestCounterThroughput(t *testing.T) {
	rates := []int{100, 150, 200, 300, 500, 600, 1000, 2000, 5000}
	sustained := func(create bool, shards int, partitionLimit bool) (int, string) {
		best, hottest := 0, ""
		for _, rate := range rates {
			r := load(t, create, shards, rate, partitionLimit)
			if r.ThrottledFraction >= 0.01 {
				if len(r.Items) > 0 && (len(r.Partitions) == 0 || r.Items[0].Throttled >= r.Partitions[0].Throttled) {
					hottest = "item " + r.Items[0].Key
				} else if len(r.Partitions) > 0 {
					hottest = "partition " + r.Partitions[0].Key
					if r.Partitions[0].Index != "" {
						hottest += " of " + r.Partitions[0].Index
					}
				}
				break
			}
			best = rate
		}
		return best, hottest
	}
	var table []string
	for _, tc := range []struct {
		op           string
		shards       int
		split, whole int // the rates the doc gives
	}{
		{"CreateTask", 0, 500, 100}, {"CreateTask", 4, 500, 100}, {"CreateTask", 16, 500, 100},
		{"status move", 0, 500, 150}, {"status move", 4, 2000, 150}, {"status move", 16, 5000, 150},
	} {
		create := tc.op == "CreateTask"
		split, hotSplit := sustained(create, tc.shards, false)
		// The whole partition caps every layout alike: measured once.
		whole, hotWhole := tc.whole, "as with no shards"
		if tc.shards == 0 {
			whole, hotWhole = sustained(create, tc.shards, true)
		}
		table = append(table, fmt.Sprintf("%-11s %2d shards: split %4d/s (then: %s); whole %4d/s (then: %s)", tc.op, tc.shards, split, hotSplit, whole, hotWhole))
		if split != tc.split || whole != tc.whole {
			t.Errorf("%s, %d shards: %d/s split, %d/s whole; the doc says %d and %d", tc.op, tc.shards, split, whole, tc.split, tc.whole)
		}
	}
	t.Logf("tasks/s in one team, under 1%% throttled:\n%s", strings.Join(table, "\n"))
}
