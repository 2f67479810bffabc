package ddb_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The tests of issue 20's shared mechanisms: bounded filtered pages, one
// retry loop in batch drains, item sizes and nil attribute values.

// TestFilteredPageBoundedOnDynamoDB: a filtered page over a partition
// whose items do not match costs a bounded number of Query calls and RCU,
// the same for 2,000 items as for 4,000; paging on with Next ends and
// finds every match.
func TestFilteredPageBoundedOnDynamoDB(t *testing.T) {
	c, tbl := execTable(t)
	ctx := t.Context()
	fill := func(pk string, n int, matchEvery int) {
		t.Helper()
		var reqs []types.WriteRequest
		for i := range n {
			it := ddb.Item{"pk": ddb.S(pk), "sk": ddb.S(fmt.Sprintf("%05d", i)), "pad": ddb.S(strings.Repeat("x", 100))}
			if matchEvery > 0 && i%matchEvery == matchEvery-1 {
				it["tag"] = ddb.S("rare")
			}
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		}
		if err := ddb.BatchWrite(ctx, c, tbl, reqs, fastPolicy); err != nil {
			t.Fatal(err)
		}
	}
	fill("small", 2000, 0)
	fill("large", 4000, 0)
	fill("sparse", 2500, 600) // 4 matches

	filter := &ddb.Filter{Shape: "test: tag = v", Args: []types.AttributeValue{ddb.S("rare")},
		Cond: func(first int) expression.ConditionBuilder { return expression.Name("tag").Equal(ddb.Param(first)) }}
	const budget = 500
	var costs []ddbtest.Capacity
	var calls []int
	for _, pk := range []string{"small", "large"} {
		q := ddb.KeyQuery{Table: tbl, PartitionValue: pk, Budget: budget}
		cc := ddbtest.NewCountingClient(c)
		capc := ddbtest.NewCapacityClient(cc)
		items, next, err := ddb.QueryPage(ctx, capc, fastPolicy, q, 20, "", filter)
		if err != nil {
			t.Fatal(err)
		}
		if len(items) != 0 || next == "" {
			t.Errorf("%s: page = %d items, Next %q; want none, with a Next", pk, len(items), next)
		}
		costs = append(costs, capc.Consumed())
		calls = append(calls, cc.Count("Query"))
	}
	// 21 items, then follow-ups of 100 up to the budget: 6 calls; 500
	// items of ~120 bytes are 60 KB, 7.5 RCU eventually consistent, 15
	// consistent: bound by 20.
	for i, pk := range []string{"small", "large"} {
		if calls[i] > 6 {
			t.Errorf("%s: a page made %d Query calls, want at most 6", pk, calls[i])
		}
		if costs[i].Read > 20 {
			t.Errorf("%s: a page read %.1f RCU, want at most 20", pk, costs[i].Read)
		}
	}
	if calls[0] != calls[1] || costs[0] != costs[1] {
		t.Errorf("a page over 2,000 items cost %d calls, %v; over 4,000, %d calls, %v: want the same", calls[0], costs[0], calls[1], costs[1])
	}

	// Paging on finds every match, and ends.
	q := ddb.KeyQuery{Table: tbl, PartitionValue: "sparse", Budget: budget}
	var found []string
	cursor, pages := "", 0
	for {
		items, next, err := ddb.QueryPage(ctx, c, fastPolicy, q, 3, cursor, filter)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			found = append(found, str(it, "sk"))
		}
		if pages++; next == "" || pages > 20 {
			break
		}
		cursor = next
	}
	if want := []string{"00599", "01199", "01799", "02399"}; strings.Join(found, ",") != strings.Join(want, ",") {
		t.Errorf("paging with Next found %v, want %v", found, want)
	}
	if pages > 20 {
		t.Errorf("paging did not end in 20 pages")
	}
}

// TestDrainPartialProgressIsProgress: a batch that DynamoDB drains one
// item per call finishes, however many calls that takes; only calls that
// process nothing count against the attempts.
func TestDrainPartialProgressIsProgress(t *testing.T) {
	f := newFakeTable(tblA, itemsOf(10)...)
	f.hold = func(_, size int) int { return size - 1 }
	s := &stubClient{batchGet: f.batchGet}
	b := ddb.Backoff{Attempts: 2, Base: time.Microsecond, Max: time.Microsecond}
	got, err := ddb.BatchGet(context.Background(), s, tblA, keysOf(10), ddb.BatchGetOptions{Backoff: b})
	if err != nil {
		t.Fatalf("BatchGet() draining one item a call = %v, want success", err)
	}
	for i, it := range got {
		if it == nil {
			t.Errorf("result %d missing", i)
		}
	}
	if n := len(s.batchGets); n != 10 {
		t.Errorf("BatchGet() made %d calls, want 10", n)
	}
}

// TestDrainOneRetryLoop: a batch call that always fails whole, or always
// processes nothing, is made at most Attempts times: the retries of whole
// failures and of unprocessed items are one loop, not one inside the
// other.
func TestDrainOneRetryLoop(t *testing.T) {
	b := ddb.Backoff{Attempts: 3, Base: time.Microsecond, Max: time.Microsecond}
	throttle := &types.ProvisionedThroughputExceededException{Message: aws.String("slow down")}
	tests := []struct {
		name string
		call func(s *stubClient) error
		n    func(s *stubClient) int
	}{
		{"BatchGet throttled", func(s *stubClient) error {
			s.batchGet = func(*dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) { return nil, throttle }
			_, err := ddb.BatchGet(context.Background(), s, tblA, keysOf(5), ddb.BatchGetOptions{Backoff: b})
			return err
		}, func(s *stubClient) int { return len(s.batchGets) }},
		{"BatchWrite throttled", func(s *stubClient) error {
			s.batchWrite = func(*dynamodb.BatchWriteItemInput) (*dynamodb.BatchWriteItemOutput, error) { return nil, throttle }
			return ddb.BatchWrite(context.Background(), s, tblA, putsOf(5), b)
		}, func(s *stubClient) int { return len(s.batchWrites) }},
		{"BatchWrite unprocessed, then throttled", func(s *stubClient) error {
			calls := 0
			s.batchWrite = func(in *dynamodb.BatchWriteItemInput) (*dynamodb.BatchWriteItemOutput, error) {
				if calls++; calls%2 == 0 {
					return nil, throttle
				}
				return &dynamodb.BatchWriteItemOutput{UnprocessedItems: in.RequestItems}, nil
			}
			return ddb.BatchWrite(context.Background(), s, tblA, putsOf(5), b)
		}, func(s *stubClient) int { return len(s.batchWrites) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &stubClient{}
			err := tt.call(s)
			if !errors.Is(err, ddbkit.ErrUnavailable) {
				t.Errorf("error = %v, want ErrUnavailable", err)
			}
			if n := tt.n(s); n != b.Attempts {
				t.Errorf("made %d calls, want %d (MaxAttempts)", n, b.Attempts)
			}
		})
	}
}

func putsOf(n int) []types.WriteRequest {
	var reqs []types.WriteRequest
	for _, it := range itemsOf(n) {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
	}
	return reqs
}

// TestItemSizeAgreesWithDynamoDB: an item CheckItemSize accepts at the
// limit is one DynamoDB Local accepts, and one it refuses DynamoDB refuses
// too, which Classify reports as ErrInvalidArgument, never as a schema
// mismatch.
func TestItemSizeAgreesWithDynamoDB(t *testing.T) {
	c, tbl := execTable(t)
	ctx := t.Context()
	mk := func(sk string, pad int) ddb.Item {
		return ddb.Item{"pk": ddb.S("p"), "sk": ddb.S(sk), "n": &types.AttributeValueMemberN{Value: "12345"},
			"l":    &types.AttributeValueMemberL{Value: []types.AttributeValue{ddb.S("ab"), &types.AttributeValueMemberBOOL{Value: true}}},
			"m":    &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": ddb.S("v")}},
			"text": ddb.S(strings.Repeat("é", pad/2))}
	}
	base := ddb.ItemSize(mk("a", 0))
	fits := mk("a", ddb.MaxItemSize-base)
	if n := ddb.ItemSize(fits); n > ddb.MaxItemSize || n < ddb.MaxItemSize-1 {
		t.Fatalf("ItemSize = %d, want the limit %d", n, ddb.MaxItemSize)
	}
	if err := ddb.CheckItemSize(fits, "Text", 0); err != nil {
		t.Errorf("CheckItemSize at the limit = %v, want nil", err)
	}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &tbl.Name, Item: fits}); err != nil {
		t.Errorf("DynamoDB refuses an item CheckItemSize accepts: %v", err)
	}
	over := mk("b", ddb.MaxItemSize-base+4)
	err := ddb.CheckItemSize(over, "Text", 0)
	var ve *ddbkit.ValidationError
	if !errors.As(err, &ve) || ve.Field != "Text" {
		t.Errorf("CheckItemSize over the limit = %v, want a ValidationError naming Text", err)
	}
	if err := ddb.CheckItemSize(fits, "Text", 10); !errors.Is(err, ddbkit.ErrInvalidArgument) {
		t.Errorf("CheckItemSize at the limit with 10 bytes reserved = %v, want ErrInvalidArgument", err)
	}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &tbl.Name, Item: over})
	if err == nil {
		t.Fatalf("DynamoDB Local accepted an item over the limit")
	}
	ddbtest.WantSentinel(t, "an item over 400 KB", ddb.Classify(err), ddbkit.ErrInvalidArgument)
}

// TestTxPayloadOverLimit: DynamoDB refuses a transaction over 4 MB with a
// ValidationException, which Classify reports as ErrInvalidArgument, like
// an item over 400 KB, never as a schema mismatch.
func TestTxPayloadOverLimit(t *testing.T) {
	c, tbl := execTable(t)
	var tx ddb.Tx
	for i := range 11 { // 11 items of 390,000 bytes: 4.29 MB
		tx.Put(fmt.Sprint(i), tbl, ddb.Item{"pk": ddb.S("p"), "sk": ddb.S(fmt.Sprint(i)), "pad": ddb.S(strings.Repeat("x", 390_000))})
	}
	err := tx.Exec(t.Context(), c)
	if err == nil {
		t.Fatal("DynamoDB Local accepted a transaction over 4 MB")
	}
	ddbtest.WantSentinel(t, "a transaction over 4 MB", ddb.Classify(err), ddbkit.ErrInvalidArgument)
	if it, err := ddb.GetItem(t.Context(), c, tbl, tbl.Key("p", "0")); err != nil || it != nil {
		t.Errorf("item 0 after the refused transaction = %v, %v; want none", it, err)
	}
}

// TestCheckAttrs: a nil attribute value anywhere in an item is a corrupt
// item, named; a whole item passes.
func TestCheckAttrs(t *testing.T) {
	var nilS *types.AttributeValueMemberS
	tests := []struct {
		name string
		item ddb.Item
		bad  string
	}{
		{"whole", ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("s"), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{ddb.S("x")}}}, ""},
		{"nil at the top", ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("s"), "v": nil}, "v"},
		{"typed nil", ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("s"), "v": nilS}, "v"},
		{"nil key", ddb.Item{"pk": nil, "sk": ddb.S("s")}, "pk"},
		{"nil in a list", ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("s"), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{nil}}}, "l"},
		{"nil in a map", ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("s"), "m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": nil}}}, "m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ddb.CheckAttrs(tblA, tt.item)
			if tt.bad == "" {
				if err != nil {
					t.Errorf("CheckAttrs = %v, want nil", err)
				}
				return
			}
			var ce *ddbkit.CorruptItemError
			if !errors.As(err, &ce) || ce.Attr != tt.bad || !errors.Is(err, ddbkit.ErrCorruptItem) {
				t.Errorf("CheckAttrs = %v, want ErrCorruptItem naming %s", err, tt.bad)
			}
		})
	}
}
