package ddbtest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
)

// stubClient answers every call with an empty output and counts the calls.
type stubClient struct{ calls atomic.Int64 }

var _ ddbkit.Client = (*stubClient)(nil)

func (s *stubClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	s.calls.Add(1)
	return &dynamodb.GetItemOutput{}, nil
}

func (s *stubClient) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	s.calls.Add(1)
	return &dynamodb.PutItemOutput{}, nil
}

func (s *stubClient) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	s.calls.Add(1)
	return &dynamodb.UpdateItemOutput{}, nil
}

func (s *stubClient) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	s.calls.Add(1)
	return &dynamodb.DeleteItemOutput{}, nil
}

func (s *stubClient) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	s.calls.Add(1)
	return &dynamodb.QueryOutput{}, nil
}

func (s *stubClient) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	s.calls.Add(1)
	return &dynamodb.BatchGetItemOutput{}, nil
}

func (s *stubClient) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	s.calls.Add(1)
	return &dynamodb.BatchWriteItemOutput{}, nil
}

func (s *stubClient) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	s.calls.Add(1)
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

func (s *stubClient) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	s.calls.Add(1)
	return &dynamodb.TransactGetItemsOutput{}, nil
}

var allOps = []string{
	"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query",
	"BatchGetItem", "BatchWriteItem", "TransactWriteItems", "TransactGetItems",
}

// call calls op on c with a minimal input; transactions get items items.
func call(c ddbkit.Client, op string, items int) error {
	ctx := context.Background()
	var err error
	switch op {
	case "GetItem":
		_, err = c.GetItem(ctx, &dynamodb.GetItemInput{})
	case "PutItem":
		_, err = c.PutItem(ctx, &dynamodb.PutItemInput{})
	case "UpdateItem":
		_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{})
	case "DeleteItem":
		_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{})
	case "Query":
		_, err = c.Query(ctx, &dynamodb.QueryInput{})
	case "BatchGetItem":
		_, err = c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{})
	case "BatchWriteItem":
		_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{})
	case "TransactWriteItems":
		_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: make([]types.TransactWriteItem, items)})
	case "TransactGetItems":
		_, err = c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: make([]types.TransactGetItem, items)})
	default:
		panic("unknown op " + op)
	}
	return err
}

func isTransact(op string) bool { return strings.HasPrefix(op, "Transact") }

func reasonCodes(tce *types.TransactionCanceledException) []string {
	var codes []string
	for _, r := range tce.CancellationReasons {
		codes = append(codes, aws.ToString(r.Code))
	}
	return codes
}

func TestFaultErrors(t *testing.T) {
	type test struct {
		name      string
		op        string
		fault     ddbtest.Fault
		items     int
		wantCode  string   // smithy.APIError code
		wantCodes []string // cancellation reasons, for TransactionCanceledException
	}
	var tests []test
	for _, op := range allOps {
		if isTransact(op) {
			tests = append(tests,
				test{op: op, fault: ddbtest.Throttle, items: 3, wantCode: "TransactionCanceledException",
					wantCodes: []string{"ThrottlingError", "None", "None"}},
				test{op: op, fault: ddbtest.TxConflict, items: 3, wantCode: "TransactionCanceledException",
					wantCodes: []string{"TransactionConflict", "None", "None"}},
				test{op: op, fault: ddbtest.TxConflict, items: 1, wantCode: "TransactionCanceledException",
					wantCodes: []string{"TransactionConflict"}},
			)
		} else {
			tests = append(tests, test{op: op, fault: ddbtest.Throttle, wantCode: "ProvisionedThroughputExceededException"})
		}
		tests = append(tests, test{op: op, fault: ddbtest.InternalError, items: 2, wantCode: "InternalServerError"})
	}

	for _, tt := range tests {
		tt.name = fmt.Sprintf("%s/%v/%d", tt.op, tt.fault, tt.items)
		t.Run(tt.name, func(t *testing.T) {
			stub := new(stubClient)
			f := ddbtest.NewFaultClient(stub)
			f.Inject(tt.op, tt.fault, 1)

			err := call(f, tt.op, tt.items)
			if n := stub.calls.Load(); n != 0 {
				t.Errorf("the wrapped client was called %d times, want 0", n)
			}
			var apiErr smithy.APIError
			if !errors.As(err, &apiErr) || apiErr.ErrorCode() != tt.wantCode {
				t.Fatalf("err = %v, want an API error with code %s", err, tt.wantCode)
			}
			var opErr *smithy.OperationError
			if !errors.As(err, &opErr) || opErr.Operation() != tt.op || opErr.Service() != "DynamoDB" {
				t.Errorf("err = %#v, want a *smithy.OperationError for DynamoDB %s", err, tt.op)
			}
			switch tt.wantCode {
			case "ProvisionedThroughputExceededException":
				var target *types.ProvisionedThroughputExceededException
				if !errors.As(err, &target) {
					t.Errorf("err = %v, want *types.ProvisionedThroughputExceededException", err)
				}
			case "InternalServerError":
				var target *types.InternalServerError
				if !errors.As(err, &target) {
					t.Errorf("err = %v, want *types.InternalServerError", err)
				}
			case "TransactionCanceledException":
				var target *types.TransactionCanceledException
				if !errors.As(err, &target) {
					t.Fatalf("err = %v, want *types.TransactionCanceledException", err)
				}
				if got := reasonCodes(target); !slices.Equal(got, tt.wantCodes) {
					t.Errorf("cancellation reasons = %v, want %v", got, tt.wantCodes)
				}
			}
			if got := f.Injected(tt.op); got != 1 {
				t.Errorf("Injected(%s) = %d, want 1", tt.op, got)
			}

			// The fault is used up: the next call goes through.
			if err := call(f, tt.op, tt.items); err != nil {
				t.Errorf("second call: %v, want nil", err)
			}
			if n := stub.calls.Load(); n != 1 {
				t.Errorf("the wrapped client was called %d times, want 1", n)
			}
		})
	}
}

func TestFaultOrder(t *testing.T) {
	stub := new(stubClient)
	f := ddbtest.NewFaultClient(stub)
	errCustom := errors.New("custom")
	f.Inject("GetItem", ddbtest.Throttle, 2)
	f.InjectErr("GetItem", errCustom, 1)
	f.Inject("GetItem", ddbtest.InternalError, 1)
	f.Inject("PutItem", ddbtest.InternalError, 1) // another op's queue is separate

	var throttle *types.ProvisionedThroughputExceededException
	var internal *types.InternalServerError
	checks := []struct {
		name string
		ok   func(error) bool
	}{
		{"Throttle", func(err error) bool { return errors.As(err, &throttle) }},
		{"Throttle", func(err error) bool { return errors.As(err, &throttle) }},
		{"custom, as is", func(err error) bool { return err == errCustom }},
		{"InternalError", func(err error) bool { return errors.As(err, &internal) }},
		{"nil", func(err error) bool { return err == nil }},
	}
	for i, c := range checks {
		if err := call(f, "GetItem", 0); !c.ok(err) {
			t.Errorf("call %d: err = %v, want %s", i+1, err, c.name)
		}
	}
	if got := f.Injected("GetItem"); got != 4 {
		t.Errorf("Injected(GetItem) = %d, want 4", got)
	}
	if got := f.Injected("PutItem"); got != 0 {
		t.Errorf("Injected(PutItem) = %d, want 0", got)
	}
	if got := stub.calls.Load(); got != 1 {
		t.Errorf("wrapped client calls = %d, want 1", got)
	}
}

func TestFaultClear(t *testing.T) {
	stub := new(stubClient)
	f := ddbtest.NewFaultClient(stub)
	f.Inject("GetItem", ddbtest.Throttle, 100)
	f.Inject("TransactWriteItems", ddbtest.TxConflict, 100)
	if err := call(f, "GetItem", 0); err == nil {
		t.Fatal("the first injected fault did not fire")
	}
	f.Clear()
	for _, op := range []string{"GetItem", "TransactWriteItems"} {
		if err := call(f, op, 0); err != nil {
			t.Errorf("%s after Clear: %v, want nil", op, err)
		}
	}
	if got := f.Injected("GetItem"); got != 1 {
		t.Errorf("Injected(GetItem) = %d, want 1: Clear keeps the count of fired faults", got)
	}
}

// TestFaultAlways: Always fails every call of the operations its fault
// applies to, after what is queued, until Clear; the others go through.
func TestFaultAlways(t *testing.T) {
	stub := new(stubClient)
	f := ddbtest.NewFaultClient(stub)
	f.Inject("TransactWriteItems", ddbtest.InternalError, 1)
	f.Always(ddbtest.TxConflict)
	var internal *types.InternalServerError
	if err := call(f, "TransactWriteItems", 1); !errors.As(err, &internal) {
		t.Errorf("first call = %v, want the queued InternalError", err)
	}
	for i := range 100 {
		var tce *types.TransactionCanceledException
		if err := call(f, "TransactWriteItems", 1); !errors.As(err, &tce) {
			t.Fatalf("call %d after the queue = %v, want a conflict", i+2, err)
		}
	}
	if err := call(f, "GetItem", 0); err != nil {
		t.Errorf("GetItem under Always(TxConflict) = %v, want it through", err)
	}
	if got := f.Injected("TransactWriteItems"); got != 101 {
		t.Errorf("Injected(TransactWriteItems) = %d, want 101", got)
	}
	f.Clear()
	if err := call(f, "TransactWriteItems", 1); err != nil {
		t.Errorf("after Clear = %v, want nil", err)
	}
	f.Always(ddbtest.Throttle)
	for _, op := range []string{"GetItem", "Query", "BatchWriteItem", "TransactWriteItems"} {
		if err := call(f, op, 1); err == nil {
			t.Errorf("%s under Always(Throttle) went through", op)
		}
	}
}

func TestFaultPanics(t *testing.T) {
	f := ddbtest.NewFaultClient(new(stubClient))
	c := ddbtest.NewCountingClient(new(stubClient))
	tests := []struct {
		name string
		fn   func()
	}{
		{"TxConflict on GetItem", func() { f.Inject("GetItem", ddbtest.TxConflict, 1) }},
		{"TxConflict on BatchWriteItem", func() { f.Inject("BatchWriteItem", ddbtest.TxConflict, 1) }},
		{"Unprocessed on PutItem", func() { f.Inject("PutItem", ddbtest.Unprocessed, 1) }},
		{"Unprocessed on TransactWriteItems", func() { f.Inject("TransactWriteItems", ddbtest.Unprocessed, 1) }},
		{"zero Fault", func() { f.Inject("GetItem", ddbtest.Fault(0), 1) }},
		{"unknown op", func() { f.Inject("Getitem", ddbtest.Throttle, 1) }},
		{"not a Client op", func() { f.Inject("Scan", ddbtest.Throttle, 1) }},
		{"negative times", func() { f.Inject("GetItem", ddbtest.Throttle, -1) }},
		{"nil error", func() { f.InjectErr("GetItem", nil, 1) }},
		{"Always Unprocessed", func() { f.Always(ddbtest.Unprocessed) }},
		{"Injected unknown op", func() { f.Injected("getItem") }},
		{"Count unknown op", func() { c.Count("CreateTable") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.HasPrefix(msg, "ddbtest: ") {
					t.Errorf("panic = %v, want a message starting ddbtest: ", r)
				}
			}()
			tt.fn()
		})
	}
	if got := call(f, "GetItem", 0); got != nil {
		t.Errorf("GetItem after refused injections: %v, want nil", got)
	}
}

func TestConcurrentUse(t *testing.T) {
	const goroutines, perG, faults = 16, 50, 100
	stub := new(stubClient)
	f := ddbtest.NewFaultClient(stub)
	c := ddbtest.NewCountingClient(f)
	f.Inject("GetItem", ddbtest.Throttle, faults)

	var failed atomic.Int64
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range perG {
				if call(c, "GetItem", 0) != nil {
					failed.Add(1)
				}
				c.Counts()
			}
		})
	}
	wg.Wait()
	if got := c.Count("GetItem"); got != goroutines*perG {
		t.Errorf("Count(GetItem) = %d, want %d", got, goroutines*perG)
	}
	if got := failed.Load(); got != faults {
		t.Errorf("failed calls = %d, want %d", got, faults)
	}
	if got := f.Injected("GetItem"); got != faults {
		t.Errorf("Injected(GetItem) = %d, want %d", got, faults)
	}
	if got := stub.calls.Load(); got != goroutines*perG-faults {
		t.Errorf("wrapped client calls = %d, want %d", got, goroutines*perG-faults)
	}
}

func TestUnprocessedBatchGetItem(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	a := ddbtest.NewTable(t, ddb, pkSK("ddbtest-unprocessed-a"))
	b := ddbtest.NewTable(t, ddb, pkSK("ddbtest-unprocessed-b"))
	// The keys of the table whose name sorts first are the ones split.
	first, second := min(a, b), max(a, b)
	firstKeys := []string{"k/1", "k/2", "k/3"}
	for _, item := range []struct{ table, key string }{
		{first, "k/1"}, {first, "k/2"}, {first, "k/3"}, {second, "k/9"},
	} {
		pk, sk, _ := strings.Cut(item.key, "/")
		if _, err := ddb.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(item.table), Item: key(pk, sk)}); err != nil {
			t.Fatalf("PutItem: %v", err)
		}
	}

	counting := ddbtest.NewCountingClient(ddb)
	f := ddbtest.NewFaultClient(counting)
	f.Inject("BatchGetItem", ddbtest.Unprocessed, 1)
	in := &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		first:  {Keys: []map[string]types.AttributeValue{key("k", "1"), key("k", "2"), key("k", "3")}, ConsistentRead: aws.Bool(true)},
		second: {Keys: []map[string]types.AttributeValue{key("k", "9")}},
	}}
	out, err := f.BatchGetItem(ctx, in)
	if err != nil {
		t.Fatalf("BatchGetItem: %v", err)
	}
	if got := keyStrings(out.Responses[first]); !slices.Equal(got, firstKeys[:1]) {
		t.Errorf("Responses[first] = %v, want %v", got, firstKeys[:1])
	}
	if got := keyStrings(out.Responses[second]); len(got) != 0 {
		t.Errorf("Responses[second] = %v, want none", got)
	}
	if got := keyStrings(out.UnprocessedKeys[first].Keys); !slices.Equal(got, firstKeys[1:]) {
		t.Errorf("UnprocessedKeys[first] = %v, want %v", got, firstKeys[1:])
	}
	if !aws.ToBool(out.UnprocessedKeys[first].ConsistentRead) {
		t.Errorf("UnprocessedKeys[first] lost ConsistentRead")
	}
	if got := keyStrings(out.UnprocessedKeys[second].Keys); !slices.Equal(got, []string{"k/9"}) {
		t.Errorf("UnprocessedKeys[second] = %v, want [k/9]", got)
	}
	if got := len(in.RequestItems[first].Keys); got != 3 {
		t.Errorf("the caller's input was changed: %d keys left, want 3", got)
	}

	// Retrying with the unprocessed keys, as a caller must, gets the rest.
	out2, err := f.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: out.UnprocessedKeys})
	if err != nil {
		t.Fatalf("BatchGetItem (retry): %v", err)
	}
	if len(out2.UnprocessedKeys) != 0 {
		t.Errorf("retry UnprocessedKeys = %v, want none", out2.UnprocessedKeys)
	}
	got := append(keyStrings(out2.Responses[first]), keyStrings(out2.Responses[second])...)
	slices.Sort(got)
	if want := []string{"k/2", "k/3", "k/9"}; !slices.Equal(got, want) {
		t.Errorf("retry Responses = %v, want %v", got, want)
	}
	if got := counting.Count("BatchGetItem"); got != 2 {
		t.Errorf("BatchGetItem calls reaching DynamoDB = %d, want 2", got)
	}
}

func TestUnprocessedBatchWriteItem(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := ddbtest.NewTable(t, ddb, pkSK("ddbtest-unprocessed-w"))
	f := ddbtest.NewFaultClient(ddb)
	f.Inject("BatchWriteItem", ddbtest.Unprocessed, 1)

	var writes []types.WriteRequest
	for _, sk := range []string{"1", "2", "3"} {
		writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: key("w", sk)}})
	}
	out, err := f.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: writes}})
	if err != nil {
		t.Fatalf("BatchWriteItem: %v", err)
	}
	var unprocessed []string
	for _, w := range out.UnprocessedItems[table] {
		unprocessed = append(unprocessed, keyString(w.PutRequest.Item))
	}
	if want := []string{"w/2", "w/3"}; !slices.Equal(unprocessed, want) {
		t.Errorf("UnprocessedItems = %v, want %v", unprocessed, want)
	}

	exists := func(sk string) bool {
		t.Helper()
		out, err := ddb.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key("w", sk), ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatalf("GetItem: %v", err)
		}
		return out.Item != nil
	}
	for _, tt := range []struct {
		sk   string
		want bool
	}{{"1", true}, {"2", false}, {"3", false}} {
		if got := exists(tt.sk); got != tt.want {
			t.Errorf("item w/%s exists = %v, want %v", tt.sk, got, tt.want)
		}
	}

	// Resubmitting the unprocessed items writes the rest.
	out2, err := f.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: out.UnprocessedItems})
	if err != nil {
		t.Fatalf("BatchWriteItem (retry): %v", err)
	}
	if len(out2.UnprocessedItems) != 0 {
		t.Errorf("retry UnprocessedItems = %v, want none", out2.UnprocessedItems)
	}
	for _, sk := range []string{"1", "2", "3"} {
		if !exists(sk) {
			t.Errorf("item w/%s missing after retry", sk)
		}
	}
}

func keyStrings(items []map[string]types.AttributeValue) []string {
	var s []string
	for _, item := range items {
		s = append(s, keyString(item))
	}
	return s
}

// TestLoseResponseAndBefore: LoseResponse makes the call and hides its
// success behind a 500; Before runs its hook, then the call.
func TestLoseResponseAndBefore(t *testing.T) {
	for _, op := range allOps {
		t.Run(op, func(t *testing.T) {
			s := &stubClient{}
			f := ddbtest.NewFaultClient(s)
			f.Inject(op, ddbtest.LoseResponse, 1)
			err := call(f, op, 2)
			var ise *types.InternalServerError
			if !errors.As(err, &ise) || s.calls.Load() != 1 {
				t.Fatalf("%s under LoseResponse = %v after %d calls; want an InternalServerError after the call", op, err, s.calls.Load())
			}
			hooked := int64(-1)
			f.Before(op, func() { hooked = s.calls.Load() })
			if err := call(f, op, 2); err != nil || hooked != 1 || s.calls.Load() != 2 {
				t.Fatalf("%s after Before = %v; hook saw %d calls, then %d; want success, the hook before the call", op, err, hooked, s.calls.Load())
			}
			if got := f.Injected(op); got != 2 {
				t.Errorf("Injected(%s) = %d, want 2", op, got)
			}
		})
	}
}
