package livecomment_test

import (
	"context"
	"fmt"
	"reflect"
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
// nothing but one OPEN room, loadRoom: the partition model
// (ddbtest.PartitionClient) judges the calls before they reach it, so a
// load test needs no DynamoDB and runs in virtual time.
type acceptAll struct{ ddbkit.Client }

const loadRoom = "3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c"

func (acceptAll) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	if *in.TableName == livecomment.Tables("load").Rooms {
		return &dynamodb.GetItemOutput{Item: legacyRoom(loadRoom, "room", "host", "OPEN", "2024-01-05T09:00:00.000Z", "")}, nil
	}
	return &dynamodb.GetItemOutput{}, nil
}

func (acceptAll) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// postLoad posts to one room at rate comments a second for two virtual
// seconds, through a partition model with DynamoDB's limits (with a burst
// of 50 ms instead of DynamoDB's 300 s, so that a run of two seconds
// measures what a partition sustains, within 2.5%, while the hash's
// uneven spacing of a shard's posts is not taken for overload; without
// limits when unlimited), without retries, with the cached room check
// when cached, and returns the model's report. With memory, the store is
// a MemoryStore judged by the same model (Options.Emulation.Capacity),
// its room created before the run.
func postLoad(t *testing.T, shards, rate int, unlimited, cached, memory bool) ddbtest.PartitionReport {
	t.Helper()
	start := time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC)
	now := start
	clock := func() time.Time { return now }
	var tds []types.TableDescription
	for _, in := range livecomment.CreateTableInputs("load") {
		tds = append(tds, ddbtest.TableDescription(in))
	}
	p := ddbtest.NewPartitionClient(acceptAll{}, func(o *ddbtest.PartitionOptions) {
		o.Clock, o.Burst, o.Tables, o.Top = clock, 50*time.Millisecond, tds, 100
		if unlimited {
			o.PartitionRCU, o.PartitionWCU, o.ItemWCU = 0, 0, 0
		}
	})
	opts := func(o *livecomment.Options) {
		o.Env = "load"
		o.Clock = clock
		o.NewID = ddbkit.SeededUUIDv4(1)
		o.NewCommentID = livecomment.SeededCommentIDs(1)
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 1}
		o.CommentShards = shards
		if cached {
			o.RoomCheckCache = time.Second
		}
	}
	var s livecomment.CommentPoster = livecomment.NewDynamoStore(p, opts)
	if memory {
		ms := livecomment.NewMemoryStore(opts, func(o *livecomment.Options) {
			o.NewID = func() string { return loadRoom }
			o.Emulation.Capacity = p
		})
		now = start.Add(-time.Minute) // before the run's first stamp
		if _, err := ms.CreateRoom(t.Context(), livecomment.NewRoom{Name: "room", HostID: "host"}); err != nil {
			t.Fatal(err)
		}
		p.Reset()
		s = ms
	}
	in := livecomment.NewComment{Content: strings.Repeat("楽しみ", 20), Nickname: "たろう"} // a 250-byte item: 1 WCU
	n := 2 * rate
	for i := range n {
		now = start.Add(time.Duration(i) * time.Second / time.Duration(rate))
		_, _ = s.PostComment(t.Context(), loadRoom, in)
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
// time, a short burst), for the seed's layout and 4, 16 and 64 shards, and reports three
// ceilings: the rate the Comments partitions sustain (the table's and
// roomId-createdAt-index's, from the capacity the model attributes to
// them), and the highest rate of the ladder PostComment sustains with
// under 1% throttled, with the room checked in its transaction (the
// default) and with Options.RoomCheckCache. Sharding lifts the first past
// the 5,000 comments/s from 16 shards; the transaction's check
// holds PostComment near 500 on every layout, on the room's item (2 WCU a
// post); the cached check lets it follow the shards. The test holds them
// all, so that a change to any updates the package documentation.
func TestCommentThroughput(t *testing.T) {
	rates := []int{250, 500, 600, 1000, 1500, 2000, 3000, 5000, 6000, 7000, 10000, 20000} // 20,000: at least
	// sustained is the highest rate of the ladder with under 1% of the
	// posts throttled, and what throttled above it.
	sustained := func(shards int, cached bool) (int, string) {
		ok := 0
		for _, rate := range rates {
			r := postLoad(t, shards, rate, false, cached, false)
			if r.ThrottledFraction >= 0.01 {
				return ok, r.Partitions[0].String()
			}
			ok = rate
		}
		return ok, ""
	}
	var table []string
	for _, tc := range []struct {
		shards     int
		minComment int // the Comments partitions' ceiling, at least
		minCached  int // PostComment's with the cached room check, at least
	}{
		{0, 500, 500}, {4, 1600, 1500}, {16, 6000, 5000}, {64, 20000, 20000},
	} {
		comments := commentCeiling(postLoad(t, tc.shards, 10000, true, false, false), 10000)
		if comments < tc.minComment || (tc.shards == 0 && comments != 500) {
			t.Errorf("%d shards: the Comments partitions sustain %d comments/s, want at least %d", tc.shards, comments, tc.minComment)
		}
		checked, hottest := sustained(tc.shards, false)
		if checked != 500 {
			t.Errorf("%d shards: PostComment sustains %d comments/s, want 500 (the room check's item)", tc.shards, checked)
		}
		cached, cachedHottest := sustained(tc.shards, true)
		if cached < tc.minCached {
			t.Errorf("%d shards: PostComment with RoomCheckCache sustains %d comments/s, want at least %d", tc.shards, cached, tc.minCached)
		}
		table = append(table, fmt.Sprintf("%2d shards: Comments partitions %6d/s, PostComment %4d/s (above: %s), with RoomCheckCache %5d/s (above: %s)",
			tc.shards, comments, checked, hottest, cached, cachedHottest))
	}
	t.Logf("comments/s into one room, under 1%% throttled:\n%s", strings.Join(table, "\n"))
}

// TestCommentThroughputMemory: a MemoryStore judged by the partition model
// (Options.Emulation.Capacity) meets the same limits as the DynamoStore
// through it: at every rate, layout and room check, the model reports the
// same requests, throttles and partition usage for both, so a load test
// on the memory store measures what production would.
func TestCommentThroughputMemory(t *testing.T) {
	for _, shards := range []int{0, 16} {
		for _, cached := range []bool{false, true} {
			for _, rate := range []int{500, 2000, 6000} {
				dynamo := postLoad(t, shards, rate, false, cached, false)
				memory := postLoad(t, shards, rate, false, cached, true)
				if !reflect.DeepEqual(memory, dynamo) {
					t.Errorf("%d shards, cached %v, %d/s: the memory store's model saw %d requests, %d throttled, hottest %v; the DynamoStore's %d, %d, %v",
						shards, cached, rate, memory.Requests, memory.Throttled, memory.Partitions[:1], dynamo.Requests, dynamo.Throttled, dynamo.Partitions[:1])
				}
			}
		}
	}
}
