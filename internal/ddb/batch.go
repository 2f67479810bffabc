package ddb

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// DynamoDB's per-call batch limits.
const (
	MaxBatchGet   = 100
	MaxBatchWrite = 25
)

// BatchGetOptions tunes BatchGet.
type BatchGetOptions struct {
	// ChunkSize is the most keys per BatchGetItem call: 1..MaxBatchGet, zero
	// meaning MaxBatchGet.
	ChunkSize int
	// ConsistentRead asks for strongly consistent reads.
	ConsistentRead bool
	// Backoff paces retries of UnprocessedKeys; zero means DefaultBackoff.
	Backoff Backoff
	// Projection, when set, is a prepared projection (a builder with only
	// WithProjection) of the attributes to read, so that a read of a few
	// attributes of large items costs what those attributes weigh. It must
	// name the table's key attributes, by which results are matched to
	// keys.
	Projection *Prepared
}

// BatchGet reads keys from t with as few BatchGetItem calls as the chunk size
// allows. Duplicate keys are read once. UnprocessedKeys are retried with
// exponential backoff until all are read; none is dropped. When DynamoDB
// leaves keys unprocessed for Backoff.Attempts calls in a row, or ctx ends,
// BatchGet fails with ddbkit.ErrUnavailable. The
// result is in request order: result[i] is the item at keys[i], or nil when
// that item does not exist.
func BatchGet(ctx context.Context, c ddbkit.Client, t Table, keys []Item, o BatchGetOptions) ([]Item, error) {
	size := o.ChunkSize
	if size == 0 {
		size = MaxBatchGet
	}
	if size < 0 || size > MaxBatchGet {
		return nil, fmt.Errorf("%w: batch get chunk size %d; must be 1..%d", ddbkit.ErrInvalidArgument, size, MaxBatchGet)
	}
	b := orDefault(o.Backoff)
	var proj *string
	var names map[string]string
	if p := o.Projection; p != nil {
		if p.Projection() == nil || !slices.Contains(slices.Collect(maps.Values(p.Names())), t.PartitionKey) ||
			(t.SortKey != "" && !slices.Contains(slices.Collect(maps.Values(p.Names())), t.SortKey)) {
			return nil, fmt.Errorf("%w: batch get projection must name the key attributes of %s", ddbkit.ErrInvalidArgument, t.Name)
		}
		proj, names = p.Projection(), p.Names()
	}

	var pending []Item
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		ks := KeyString(k)
		if !seen[ks] {
			seen[ks] = true
			pending = append(pending, k)
		}
	}

	found := make(map[string]Item, len(pending))
	err := drain(ctx, b, pending, size, func(chunk []Item) ([]Item, error) {
		out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems: map[string]types.KeysAndAttributes{
				t.Name: {Keys: chunk, ConsistentRead: &o.ConsistentRead, ProjectionExpression: proj, ExpressionAttributeNames: names},
			},
		})
		if err != nil {
			return nil, err
		}
		for _, it := range out.Responses[t.Name] {
			found[KeyString(t.KeyOf(it))] = it
		}
		return out.UnprocessedKeys[t.Name].Keys, nil
	})
	if err != nil {
		return nil, fmt.Errorf("batch get from %s: %w", t.Name, err)
	}

	res := make([]Item, len(keys))
	for i, k := range keys {
		res[i] = found[KeyString(k)]
	}
	return res, nil
}

// BatchWrite applies puts and deletes to t, MaxBatchWrite per
// BatchWriteItem call. UnprocessedItems are retried with exponential backoff
// until all are written; when DynamoDB leaves items unprocessed for
// b.Attempts calls in a row, or ctx ends, it fails with
// ddbkit.ErrUnavailable. A key may appear only once, as DynamoDB
// requires; a duplicate is refused with ErrInvalidArgument before any call.
// BatchWrite is not atomic: on error, some writes may have been applied.
func BatchWrite(ctx context.Context, c ddbkit.Client, t Table, reqs []types.WriteRequest, b Backoff) error {
	b = orDefault(b)
	seen := make(map[string]bool, len(reqs))
	for _, r := range reqs {
		var k Item
		switch {
		case r.PutRequest != nil:
			k = t.KeyOf(r.PutRequest.Item)
		case r.DeleteRequest != nil:
			k = r.DeleteRequest.Key
		default:
			return fmt.Errorf("%w: batch write request with neither put nor delete", ddbkit.ErrInvalidArgument)
		}
		ks := KeyString(k)
		if seen[ks] {
			return fmt.Errorf("%w: batch write touches key %s twice", ddbkit.ErrInvalidArgument, ks)
		}
		seen[ks] = true
	}

	err := drain(ctx, b, reqs, MaxBatchWrite, func(chunk []types.WriteRequest) ([]types.WriteRequest, error) {
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{t.Name: chunk},
		})
		if err != nil {
			return nil, err
		}
		return out.UnprocessedItems[t.Name], nil
	})
	if err != nil {
		return fmt.Errorf("batch write to %s: %w", t.Name, err)
	}
	return nil
}

// drain sends pending through call, size at a time, putting what call
// returns as unprocessed back at the front of the queue. It is one retry
// loop: a call that fails whole (throttled, a 5xx, no answer; batch reads,
// puts and deletes are idempotent) and a call that processes nothing of
// its chunk are both stalls, and b.Attempts stalls in a row end the drain
// with ddbkit.ErrUnavailable; a call that processes any of its chunk is
// progress, and resets the count. So no step makes more than b.Attempts
// calls without progress, and a drain that keeps progressing finishes.
// Whatever DynamoDB leaves unprocessed is sent again after a backoff that
// grows while it keeps doing so, as AWS advises: unprocessed items mean
// the table is throttling.
func drain[T any](ctx context.Context, b Backoff, pending []T, size int, call func(chunk []T) (unprocessed []T, err error)) error {
	for stalls, rounds := 0, 0; len(pending) > 0; {
		n := min(size, len(pending))
		retry, err := call(pending[:n])
		switch {
		case err != nil && !RetryableWithToken(err):
			return err
		case err == nil && len(retry) == 0:
			stalls, rounds = 0, 0
			pending = pending[n:]
			continue
		case err == nil:
			pending = append(append([]T(nil), retry...), pending[n:]...)
			if len(retry) < n {
				stalls = -1 // progress: the count starts again below
			}
		}
		stalls++
		rounds++
		if stalls >= b.attempts() {
			if err != nil {
				return fmt.Errorf("gave up after %d attempts: %w", stalls, Classify(err))
			}
			return fmt.Errorf("%w: %d requests still unprocessed after %d attempts without progress; nothing was dropped, repeat the call",
				ddbkit.ErrUnavailable, len(retry), stalls)
		}
		if err := Sleep(ctx, b.Delay(rounds)); err != nil {
			return fmt.Errorf("%d requests unprocessed: %w", len(pending), err)
		}
		obs.From(ctx).Retry() // what the next call sends again
	}
	return nil
}

// orDefault returns b, or DefaultBackoff when b is zero. The bound counts
// calls in a row that made no progress: a batch that keeps draining goes
// on, one that DynamoDB keeps refusing ends with ErrUnavailable.
func orDefault(b Backoff) Backoff {
	if b == (Backoff{}) {
		return DefaultBackoff
	}
	return b
}
