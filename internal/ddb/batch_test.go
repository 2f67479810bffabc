package ddb_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// fakeTable answers BatchGetItem and BatchWriteItem for one table from a
// map. hold, when set, decides which keys or writes of the n-th call (1-based)
// to leave unprocessed.
type fakeTable struct {
	t     ddb.Table
	mu    sync.Mutex
	items map[string]ddb.Item
	n     int
	hold  func(n, size int) (unprocessed int)

	served map[string]int // how often each key was read or written
}

func newFakeTable(t ddb.Table, items ...ddb.Item) *fakeTable {
	f := &fakeTable{t: t, items: make(map[string]ddb.Item), served: make(map[string]int)}
	for _, it := range items {
		f.items[ddb.KeyString(t.KeyOf(it))] = it
	}
	return f
}

// split returns how many of size requests the current call processes.
func (f *fakeTable) split(size int) int {
	f.n++
	if f.hold == nil {
		return size
	}
	return size - min(size, f.hold(f.n, size))
}

func (f *fakeTable) batchGet(in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ka, ok := in.RequestItems[f.t.Name]
	if !ok || len(in.RequestItems) != 1 {
		return nil, fmt.Errorf("fake: request for tables %v, want only %q", reflect.ValueOf(in.RequestItems).MapKeys(), f.t.Name)
	}
	if len(ka.Keys) > ddb.MaxBatchGet {
		return nil, fmt.Errorf("fake: %d keys, DynamoDB allows %d", len(ka.Keys), ddb.MaxBatchGet)
	}
	n := f.split(len(ka.Keys))
	out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}}
	for _, k := range ka.Keys[:n] {
		ks := ddb.KeyString(k)
		f.served[ks]++
		if it, ok := f.items[ks]; ok {
			out.Responses[f.t.Name] = append(out.Responses[f.t.Name], it)
		}
	}
	if n < len(ka.Keys) {
		un := ka
		un.Keys = append([]map[string]types.AttributeValue(nil), ka.Keys[n:]...)
		out.UnprocessedKeys = map[string]types.KeysAndAttributes{f.t.Name: un}
	}
	return out, nil
}

func (f *fakeTable) batchWrite(in *dynamodb.BatchWriteItemInput) (*dynamodb.BatchWriteItemOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	reqs, ok := in.RequestItems[f.t.Name]
	if !ok || len(in.RequestItems) != 1 {
		return nil, fmt.Errorf("fake: request for tables %v, want only %q", reflect.ValueOf(in.RequestItems).MapKeys(), f.t.Name)
	}
	if len(reqs) > ddb.MaxBatchWrite {
		return nil, fmt.Errorf("fake: %d writes, DynamoDB allows %d", len(reqs), ddb.MaxBatchWrite)
	}
	n := f.split(len(reqs))
	for _, r := range reqs[:n] {
		switch {
		case r.PutRequest != nil:
			ks := ddb.KeyString(f.t.KeyOf(r.PutRequest.Item))
			f.served[ks]++
			f.items[ks] = r.PutRequest.Item
		case r.DeleteRequest != nil:
			ks := ddb.KeyString(r.DeleteRequest.Key)
			f.served[ks]++
			delete(f.items, ks)
		}
	}
	out := &dynamodb.BatchWriteItemOutput{}
	if n < len(reqs) {
		out.UnprocessedItems = map[string][]types.WriteRequest{f.t.Name: append([]types.WriteRequest(nil), reqs[n:]...)}
	}
	return out, nil
}

// firstCalls returns a fakeTable.hold that holds back hold(size) requests
// in each of the first n calls, and none after.
func firstCalls(n int, hold func(size int) int) func(call, size int) int {
	return func(call, size int) int {
		if call > n {
			return 0
		}
		return max(hold(size), 0)
	}
}

// keysOf returns n keys of tblA, "p"/"0000" to "p"/"n-1".
func keysOf(n int) []ddb.Item {
	ks := make([]ddb.Item, n)
	for i := range ks {
		ks[i] = tblA.Key("p", fmt.Sprintf("%04d", i))
	}
	return ks
}

// itemsOf returns the items of keysOf(n).
func itemsOf(n int) []ddb.Item {
	its := make([]ddb.Item, n)
	for i := range its {
		its[i] = item("p", fmt.Sprintf("%04d", i))
	}
	return its
}

// chunkSizes returns the number of keys in every BatchGetItem call s saw.
func chunkSizes(s *stubClient, table string) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sizes []int
	for _, in := range s.batchGets {
		sizes = append(sizes, len(in.RequestItems[table].Keys))
	}
	for _, in := range s.batchWrites {
		sizes = append(sizes, len(in.RequestItems[table]))
	}
	return sizes
}

func TestBatchGetOrderAndMissing(t *testing.T) {
	its := itemsOf(3)
	f := newFakeTable(tblA, its...)
	s := &stubClient{batchGet: f.batchGet}
	keys := []ddb.Item{tblA.Key("p", "0002"), tblA.Key("p", "missing"), tblA.Key("p", "0000"), tblA.Key("p", "0001"), tblA.Key("other", "0000")}
	got, err := ddb.BatchGet(context.Background(), s, tblA, keys, ddb.BatchGetOptions{})
	if err != nil {
		t.Fatalf("BatchGet() error = %v", err)
	}
	want := []ddb.Item{its[2], nil, its[0], its[1], nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BatchGet() =\n%v\nwant\n%v", got, want)
	}
}

func TestBatchGetEmpty(t *testing.T) {
	s := &stubClient{}
	got, err := ddb.BatchGet(context.Background(), s, tblA, nil, ddb.BatchGetOptions{})
	if err != nil || len(got) != 0 {
		t.Errorf("BatchGet(no keys) = (%v, %v), want (empty, nil)", got, err)
	}
	if n := s.calls(); n != 0 {
		t.Errorf("BatchGet(no keys) made %d calls, want 0", n)
	}
}

func TestBatchGetDuplicates(t *testing.T) {
	its := itemsOf(3)
	f := newFakeTable(tblA, its...)
	s := &stubClient{batchGet: f.batchGet}
	k := keysOf(3)
	// The same keys, some as separately built maps.
	keys := []ddb.Item{k[0], k[1], tblA.Key("p", "0000"), k[0], tblA.Key("p", "nope"), k[2], tblA.Key("p", "nope"), tblA.KeyOf(its[1])}
	got, err := ddb.BatchGet(context.Background(), s, tblA, keys, ddb.BatchGetOptions{})
	if err != nil {
		t.Fatalf("BatchGet() error = %v", err)
	}
	want := []ddb.Item{its[0], its[1], its[0], its[0], nil, its[2], nil, its[1]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BatchGet() =\n%v\nwant\n%v", got, want)
	}
	if n := len(s.batchGets); n != 1 {
		t.Errorf("BatchGet() made %d calls, want 1", n)
	}
	for ks, n := range f.served {
		if n != 1 {
			t.Errorf("key %s requested %d times, want once", ks, n)
		}
	}
	if got := len(f.served); got != 4 {
		t.Errorf("%d distinct keys requested, want 4", got)
	}
}

func TestBatchGetChunks(t *testing.T) {
	tests := []struct {
		name      string
		keys      int
		chunk     int
		wantSizes []int
	}{
		{name: "250 keys by 80", keys: 250, chunk: 80, wantSizes: []int{80, 80, 80, 10}},
		{name: "250 keys by default", keys: 250, chunk: 0, wantSizes: []int{100, 100, 50}},
		{name: "250 keys by max", keys: 250, chunk: ddb.MaxBatchGet, wantSizes: []int{100, 100, 50}},
		{name: "exactly one chunk", keys: 100, chunk: 0, wantSizes: []int{100}},
		{name: "one over a chunk", keys: 101, chunk: 0, wantSizes: []int{100, 1}},
		{name: "chunk of one", keys: 3, chunk: 1, wantSizes: []int{1, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeTable(tblA, itemsOf(tt.keys)...)
			s := &stubClient{batchGet: f.batchGet}
			got, err := ddb.BatchGet(context.Background(), s, tblA, keysOf(tt.keys), ddb.BatchGetOptions{ChunkSize: tt.chunk, ConsistentRead: true})
			if err != nil {
				t.Fatalf("BatchGet() error = %v", err)
			}
			if sizes := chunkSizes(s, tblA.Name); !reflect.DeepEqual(sizes, tt.wantSizes) {
				t.Errorf("chunk sizes = %v, want %v", sizes, tt.wantSizes)
			}
			if !reflect.DeepEqual(got, itemsOf(tt.keys)) {
				t.Errorf("BatchGet() returned other items than requested")
			}
			for i, in := range s.batchGets {
				if cr := in.RequestItems[tblA.Name].ConsistentRead; !aws.ToBool(cr) {
					t.Errorf("call %d: ConsistentRead = %v, want true", i, cr)
				}
			}
		})
	}
}

func TestBatchGetInvalidChunkSize(t *testing.T) {
	for _, size := range []int{-1, ddb.MaxBatchGet + 1} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			s := &stubClient{}
			_, err := ddb.BatchGet(context.Background(), s, tblA, keysOf(3), ddb.BatchGetOptions{ChunkSize: size})
			if !errors.Is(err, ddbkit.ErrInvalidArgument) {
				t.Errorf("BatchGet(ChunkSize %d) error = %v, want ErrInvalidArgument", size, err)
			}
			if n := s.calls(); n != 0 {
				t.Errorf("BatchGet(ChunkSize %d) made %d calls, want 0", size, n)
			}
		})
	}
}

func TestBatchGetUnprocessed(t *testing.T) {
	tests := []struct {
		name  string
		keys  int
		chunk int
		hold  func(n, size int) int
		// wantCalls is the number of calls, 0 for "do not check".
		wantCalls int
	}{
		{
			name: "first two calls process three keys", keys: 10,
			hold:      firstCalls(2, func(size int) int { return size - 3 }),
			wantCalls: 3,
		},
		{
			name: "every call processes one key", keys: 5,
			hold:      func(_, size int) int { return size - 1 },
			wantCalls: 5,
		},
		{
			name: "chunked, half held back each time", keys: 250, chunk: 80,
			hold: func(_, size int) int { return size / 2 },
		},
		{
			name: "everything held back three times, then fine", keys: 120,
			hold:      firstCalls(3, func(size int) int { return size }),
			wantCalls: 3 + 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			its := itemsOf(tt.keys)
			f := newFakeTable(tblA, its...)
			f.hold = tt.hold
			s := &stubClient{batchGet: f.batchGet}
			b := ddb.Backoff{Attempts: 100, Base: time.Microsecond, Max: 10 * time.Microsecond}
			got, err := ddb.BatchGet(context.Background(), s, tblA, keysOf(tt.keys), ddb.BatchGetOptions{ChunkSize: tt.chunk, Backoff: b})
			if err != nil {
				t.Fatalf("BatchGet() error = %v", err)
			}
			if !reflect.DeepEqual(got, its) {
				t.Errorf("BatchGet() dropped or mixed up items:\n got %v\nwant %v", got, its)
			}
			for ks, n := range f.served {
				if n != 1 {
					t.Errorf("key %s read %d times, want once", ks, n)
				}
			}
			if tt.wantCalls != 0 && len(s.batchGets) != tt.wantCalls {
				t.Errorf("BatchGet() made %d calls, want %d", len(s.batchGets), tt.wantCalls)
			}
			limit := tt.chunk
			if limit == 0 {
				limit = ddb.MaxBatchGet
			}
			for i, n := range chunkSizes(s, tblA.Name) {
				if n > limit {
					t.Errorf("call %d has %d keys, want at most %d", i, n, limit)
				}
			}
		})
	}
}

func TestBatchGetBoundedBackoffGivesUp(t *testing.T) {
	f := newFakeTable(tblA, itemsOf(5)...)
	f.hold = func(_, size int) int { return size }
	s := &stubClient{batchGet: f.batchGet}
	b := ddb.Backoff{Attempts: 3, Base: time.Microsecond, Max: time.Microsecond}
	_, err := ddb.BatchGet(context.Background(), s, tblA, keysOf(5), ddb.BatchGetOptions{Backoff: b})
	if !errors.Is(err, ddbkit.ErrUnavailable) {
		t.Fatalf("BatchGet() error = %v, want ErrUnavailable when nothing is ever processed", err)
	}
	if n := len(s.batchGets); n != 3 {
		t.Errorf("BatchGet() made %d calls, want 3", n)
	}
}

func TestBatchGetCanceledDuringBackoff(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFakeTable(tblA, itemsOf(5)...)
	f.hold = func(_, size int) int {
		cancel()
		return size - 1
	}
	s := &stubClient{batchGet: f.batchGet}
	slow := ddb.Backoff{Attempts: 100, Base: time.Hour, Max: time.Hour}
	start := time.Now()
	_, err := ddb.BatchGet(ctx, s, tblA, keysOf(5), ddb.BatchGetOptions{Backoff: slow})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("BatchGet() error = %v, want context.Canceled", err)
	}
	if n := len(s.batchGets); n != 1 {
		t.Errorf("BatchGet() made %d calls, want 1", n)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("BatchGet() took %v, want it to return when ctx ends", d)
	}
}

func TestBatchGetCallError(t *testing.T) {
	sdkErr := &types.ResourceNotFoundException{Message: aws.String("no table")}
	s := &stubClient{batchGet: func(*dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) { return nil, sdkErr }}
	_, err := ddb.BatchGet(context.Background(), s, tblA, keysOf(3), ddb.BatchGetOptions{})
	var got *types.ResourceNotFoundException
	if !errors.As(err, &got) {
		t.Errorf("BatchGet() error = %v, want it to wrap the SDK error", err)
	}
}

// puts returns put requests for itemsOf(n).
func puts(n int) []types.WriteRequest {
	reqs := make([]types.WriteRequest, n)
	for i, it := range itemsOf(n) {
		reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
	}
	return reqs
}

func TestBatchWriteChunks(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		wantSizes []int
	}{
		{name: "none", n: 0, wantSizes: nil},
		{name: "one", n: 1, wantSizes: []int{1}},
		{name: "exactly one chunk", n: 25, wantSizes: []int{25}},
		{name: "60", n: 60, wantSizes: []int{25, 25, 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeTable(tblA)
			s := &stubClient{batchWrite: f.batchWrite}
			if err := ddb.BatchWrite(context.Background(), s, tblA, puts(tt.n), ddb.Backoff{}); err != nil {
				t.Fatalf("BatchWrite() error = %v", err)
			}
			if sizes := chunkSizes(s, tblA.Name); !reflect.DeepEqual(sizes, tt.wantSizes) {
				t.Errorf("chunk sizes = %v, want %v", sizes, tt.wantSizes)
			}
			if got := len(f.items); got != tt.n {
				t.Errorf("%d items written, want %d", got, tt.n)
			}
		})
	}
}

func TestBatchWriteUnprocessed(t *testing.T) {
	f := newFakeTable(tblA, item("p", "gone"))
	// Calls 1 to 4 leave all but two writes unprocessed.
	f.hold = firstCalls(4, func(size int) int { return size - 2 })
	s := &stubClient{batchWrite: f.batchWrite}
	reqs := append(puts(60), types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: tblA.Key("p", "gone")}})
	b := ddb.Backoff{Attempts: 100, Base: time.Microsecond, Max: 10 * time.Microsecond}
	if err := ddb.BatchWrite(context.Background(), s, tblA, reqs, b); err != nil {
		t.Fatalf("BatchWrite() error = %v", err)
	}
	if got := len(f.items); got != 60 {
		t.Errorf("%d items in the table, want 60", got)
	}
	if _, ok := f.items[ddb.KeyString(tblA.Key("p", "gone"))]; ok {
		t.Error("deleted item still there")
	}
	for ks, n := range f.served {
		if n != 1 {
			t.Errorf("key %s written %d times, want once", ks, n)
		}
	}
	if got := len(f.served); got != 61 {
		t.Errorf("%d keys written, want 61", got)
	}
	for i, n := range chunkSizes(s, tblA.Name) {
		if n > ddb.MaxBatchWrite {
			t.Errorf("call %d has %d writes, want at most %d", i, n, ddb.MaxBatchWrite)
		}
	}
}

func TestBatchWriteCanceledDuringBackoff(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFakeTable(tblA)
	f.hold = func(_, size int) int {
		cancel()
		return size
	}
	s := &stubClient{batchWrite: f.batchWrite}
	err := ddb.BatchWrite(ctx, s, tblA, puts(3), ddb.Backoff{Attempts: 100, Base: time.Hour, Max: time.Hour})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("BatchWrite() error = %v, want context.Canceled", err)
	}
	if n := len(s.batchWrites); n != 1 {
		t.Errorf("BatchWrite() made %d calls, want 1", n)
	}
}

func TestBatchWriteInvalid(t *testing.T) {
	put := func(pk, sk string) types.WriteRequest {
		return types.WriteRequest{PutRequest: &types.PutRequest{Item: item(pk, sk)}}
	}
	del := func(pk, sk string) types.WriteRequest {
		return types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: tblA.Key(pk, sk)}}
	}
	tests := []struct {
		name string
		reqs []types.WriteRequest
	}{
		{name: "put twice", reqs: []types.WriteRequest{put("p", "1"), put("p", "2"), put("p", "1")}},
		{name: "put and delete", reqs: []types.WriteRequest{put("p", "1"), del("p", "1")}},
		{name: "delete twice", reqs: []types.WriteRequest{del("p", "1"), del("p", "1")}},
		{name: "duplicate far apart", reqs: append(puts(40), put("p", "0003"))},
		{name: "empty request", reqs: []types.WriteRequest{put("p", "1"), {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeTable(tblA)
			s := &stubClient{batchWrite: f.batchWrite}
			err := ddb.BatchWrite(context.Background(), s, tblA, tt.reqs, ddb.Backoff{})
			if !errors.Is(err, ddbkit.ErrInvalidArgument) {
				t.Errorf("BatchWrite() error = %v, want ErrInvalidArgument", err)
			}
			if n := s.calls(); n != 0 {
				t.Errorf("BatchWrite() made %d calls, want 0", n)
			}
		})
	}
}

func TestBatchWriteSameKeyOtherPartitions(t *testing.T) {
	f := newFakeTable(tblA)
	s := &stubClient{batchWrite: f.batchWrite}
	reqs := []types.WriteRequest{
		{PutRequest: &types.PutRequest{Item: item("p", "1")}},
		{PutRequest: &types.PutRequest{Item: item("q", "1")}},
		{DeleteRequest: &types.DeleteRequest{Key: tblA.Key("p", "2")}},
	}
	if err := ddb.BatchWrite(context.Background(), s, tblA, reqs, ddb.Backoff{}); err != nil {
		t.Errorf("BatchWrite() error = %v, want nil", err)
	}
}

// TestBatchRetriesWholeCallFailures: a BatchGetItem or BatchWriteItem that
// fails whole (throttled, a 5xx) is retried within the backoff, as
// unprocessed items are; the batch then completes.
func TestBatchRetriesWholeCallFailures(t *testing.T) {
	b := ddb.Backoff{Attempts: 4, Base: time.Microsecond, Max: time.Microsecond}
	throttled := apiErr(&types.ProvisionedThroughputExceededException{Message: aws.String("slow down")})
	f := newFakeTable(tblA, itemsOf(3)...)
	fails := 2
	s := &stubClient{batchGet: func(in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
		if fails > 0 {
			fails--
			return nil, throttled
		}
		return f.batchGet(in)
	}}
	got, err := ddb.BatchGet(context.Background(), s, tblA, keysOf(3), ddb.BatchGetOptions{Backoff: b})
	if err != nil || len(got) != 3 || got[2] == nil {
		t.Fatalf("BatchGet through two throttled calls = %v, %v; want the 3 items", got, err)
	}
	if n := len(s.batchGets); n != 3 {
		t.Errorf("BatchGet made %d calls, want 3", n)
	}
	s = &stubClient{batchWrite: func(*dynamodb.BatchWriteItemInput) (*dynamodb.BatchWriteItemOutput, error) {
		return nil, apiErr(&types.InternalServerError{Message: aws.String("boom")})
	}}
	err = ddb.BatchWrite(context.Background(), s, tblA, puts(2), b)
	if !errors.Is(err, ddbkit.ErrUnavailable) || len(s.batchWrites) != 4 {
		t.Errorf("BatchWrite under endless 5xx = %v after %d calls, want ErrUnavailable after 4", err, len(s.batchWrites))
	}
}
