package ddb_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// execTable returns a fresh table with keys pk/sk on DynamoDB Local.
func execTable(t *testing.T) (*dynamodb.Client, ddb.Table) {
	t.Helper()
	c := ddbtest.Client(t)
	name := keyTable(t, c, "ddb-exec")
	return c, ddb.Table{Name: name, PartitionKey: "pk", SortKey: "sk"}
}

// counter is the value of attribute n of the item at key, 0 when missing.
func counter(t *testing.T, c ddbkit.Client, tbl ddb.Table, pk, sk string) string {
	t.Helper()
	it, err := ddb.GetItem(context.Background(), c, tbl, tbl.Key(pk, sk))
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := it["n"].(*types.AttributeValueMemberN); ok {
		return n.Value
	}
	return "0"
}

var fastPolicy = ddb.BackoffOf(ddbkit.RetryPolicy{BaseDelay: time.Microsecond, MaxDelay: time.Millisecond})

// addN adds 1 to n.
var addN = ddb.MustPrepare(expression.NewBuilder().WithUpdate(expression.Add(expression.Name("n"), expression.Value(1))))

func addOne(tbl ddb.Table, sk string) *ddb.Tx {
	var tx ddb.Tx
	tx.UpdatePrepared("add", tbl, tbl.Key("p", sk), addN)
	return &tx
}

// TestExecTxLostResponse: a transaction that commits but whose answer is
// lost is retried with the same token, and DynamoDB does not apply it again.
func TestExecTxLostResponse(t *testing.T) {
	c, tbl := execTable(t)
	fc := ddbtest.NewFaultClient(c)
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	if err := ddb.ExecTx(t.Context(), fc, fastPolicy, scope(tbl, "add"), addOne(tbl, "a")); err != nil {
		t.Fatalf("ExecTx after a lost response = %v, want success", err)
	}
	if got := counter(t, c, tbl, "p", "a"); got != "1" {
		t.Errorf("n = %s after one ExecTx with a lost response, want 1", got)
	}
}

// TestExecTxIdempotencyKey: under one caller's key, a repeated call of the
// same writes commits once; different writes under the key fail with
// ErrConflict and write nothing.
func TestExecTxIdempotencyKey(t *testing.T) {
	c, tbl := execTable(t)
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "request-42")
	for range 3 {
		if err := ddb.ExecTx(ctx, c, fastPolicy, scope(tbl, "add"), addOne(tbl, "a")); err != nil {
			t.Fatalf("ExecTx under a key = %v, want success", err)
		}
	}
	if got := counter(t, c, tbl, "p", "a"); got != "1" {
		t.Errorf("n = %s after three calls under one key, want 1", got)
	}
	err := ddb.ExecTx(ctx, c, fastPolicy, scope(tbl, "add"), addOne(tbl, "b"))
	ddbtest.WantSentinel(t, "other writes under a used key", ddb.Classify(err), ddbkit.ErrConflict)
	if got := counter(t, c, tbl, "p", "b"); got != "0" {
		t.Errorf("n of b = %s after a refused reuse of the key, want 0", got)
	}
	// Another operation under the same key gets a token of its own.
	if err := ddb.ExecTx(ctx, c, fastPolicy, scope(tbl, "add b"), addOne(tbl, "b")); err != nil {
		t.Errorf("ExecTx of another op under the key = %v, want success", err)
	}
}

// scope is the scope of op on partition "p" of tbl.
func scope(tbl ddb.Table, op string) ddb.Scope {
	return ddb.Scope{Table: tbl.Name, Op: op, Partition: "p"}
}

// TestIdempotencyKeyScoped: one caller's key reused by another tenant, on
// another table or for another operation reaches nobody else's write:
// each commits. On one partition of one table it commits once.
func TestIdempotencyKeyScoped(t *testing.T) {
	c, tbl := execTable(t)
	_, other := execTable(t)
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "1")
	add := func(tbl ddb.Table, pk string) *ddb.Tx {
		var tx ddb.Tx
		tx.UpdatePrepared("add", tbl, tbl.Key(pk, "a"), addN)
		return &tx
	}
	for _, tt := range []struct {
		name string
		tbl  ddb.Table
		pk   string
	}{{"tenant p", tbl, "p"}, {"tenant q", tbl, "q"}, {"another table", other, "p"}, {"tenant p again", tbl, "p"}} {
		err := ddb.ExecTx(ctx, c, fastPolicy, ddb.Scope{Table: tt.tbl.Name, Op: "add", Partition: tt.pk}, add(tt.tbl, tt.pk))
		if err != nil {
			t.Errorf("%s: ExecTx under key %q = %v, want success", tt.name, "1", err)
		}
	}
	for _, tt := range []struct {
		tbl  ddb.Table
		pk   string
		want string
	}{{tbl, "p", "1"}, {tbl, "q", "1"}, {other, "p", "1"}} {
		if got := counter(t, c, tt.tbl, tt.pk, "a"); got != tt.want {
			t.Errorf("n of %s/%s = %s, want %s", tt.tbl.Name, tt.pk, got, tt.want)
		}
	}
}

// TestPutNewOwnWriteOnly: PutNew succeeds only when this call wrote the
// item. A lost answer, retried with the call's token, succeeds with one
// item written; an identical item written by another call (another
// token) fails its condition, and so does one written under the same
// idempotency key by another tenant.
func TestPutNewOwnWriteOnly(t *testing.T) {
	c, tbl := execTable(t)
	notExists := ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name("pk"))))
	it := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("x"), "v": ddb.S("mine"), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{ddb.S("a")}}}
	fc := ddbtest.NewFaultClient(c)
	cc := ddbtest.NewCountingClient(fc)
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	if err := ddb.PutNew(t.Context(), cc, fastPolicy, scope(tbl, "create"), tbl, it, notExists); err != nil {
		t.Fatalf("PutNew with its answer lost = %v, want success", err)
	}
	if n := cc.Count("TransactWriteItems"); n != 2 {
		t.Errorf("PutNew with its answer lost made %d calls, want 2", n)
	}
	got, err := ddb.GetItem(t.Context(), c, tbl, tbl.Key("p", "x"))
	if err != nil || !ddb.ItemsEqual(got, it) {
		t.Fatalf("item after PutNew = %v, %v; want %v", got, err, it)
	}
	// The identical item, from another call: not this call's write.
	err = ddb.PutNew(t.Context(), c, fastPolicy, scope(tbl, "create"), tbl, it, notExists)
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) || !ddb.ItemsEqual(ccf.Item, it) {
		t.Fatalf("PutNew of an identical item by another call = %v, want a failed condition holding the item found", err)
	}
	// Under one idempotency key: the repeat is the same call, and succeeds;
	// the same key on another tenant's item is another call.
	ctx := ddbkit.WithIdempotencyKey(t.Context(), "k")
	mine := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("y"), "v": ddb.S("mine")}
	for range 2 {
		if err := ddb.PutNew(ctx, c, fastPolicy, scope(tbl, "create"), tbl, mine, notExists); err != nil {
			t.Fatalf("PutNew repeated under one key = %v, want success", err)
		}
	}
	theirs := ddb.Scope{Table: tbl.Name, Op: "create", Partition: "q"}
	if err := ddb.PutNew(ctx, c, fastPolicy, theirs, tbl, mine, notExists); !ddb.IsConditionFailed(err) {
		t.Fatalf("PutNew of the same item under the same key by another tenant = %v, want a failed condition", err)
	}
}

func TestClassify(t *testing.T) {
	op := func(err error) error {
		return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "Query", Err: err}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"canceled", context.Canceled, ddbkit.ErrUnavailable},
		{"deadline inside an SDK error", op(context.DeadlineExceeded), ddbkit.ErrUnavailable},
		{"ctx error", ctx.Err(), ddbkit.ErrUnavailable},
		{"throttled", op(&types.ProvisionedThroughputExceededException{}), ddbkit.ErrUnavailable},
		{"throttled transaction", txErr(t, ddb.ReasonThrottling, ddb.ReasonNone), ddbkit.ErrUnavailable},
		{"5xx", op(&types.InternalServerError{}), ddbkit.ErrUnavailable},
		{"transport", op(errors.New("connection reset by peer")), ddbkit.ErrUnavailable},
		{"missing table", op(&types.ResourceNotFoundException{}), ddbkit.ErrSchemaMismatch},
		{"missing index", op(&smithy.GenericAPIError{Code: "ValidationException", Message: "The table does not have the specified index"}), ddbkit.ErrSchemaMismatch},
		{"item over 400 KB", op(&smithy.GenericAPIError{Code: "ValidationException", Message: "Item size has exceeded the maximum allowed size"}), ddbkit.ErrInvalidArgument},
		{"update over 400 KB", op(&smithy.GenericAPIError{Code: "ValidationException", Message: "Item size to update has exceeded the maximum allowed size"}), ddbkit.ErrInvalidArgument},
		{"transaction over 4 MB", op(&smithy.GenericAPIError{Code: "ValidationException", Message: "Transaction payload size cannot exceed 4MB. Payload Size: 4290067"}), ddbkit.ErrInvalidArgument},
		{"other validation", op(&smithy.GenericAPIError{Code: "ValidationException", Message: "One or more parameter values were invalid: Type mismatch for key pk"}), ddbkit.ErrSchemaMismatch},
		{"conflict", txErr(t, ddb.ReasonTransactionConflict, ddb.ReasonNone), ddbkit.ErrConflict},
		{"condition in a transaction", txErr(t, ddb.ReasonConditionalCheckFailed, ddb.ReasonNone), ddbkit.ErrConflict},
		{"condition", op(&types.ConditionalCheckFailedException{}), ddbkit.ErrConflict},
		{"token reuse", op(&types.IdempotentParameterMismatchException{}), ddbkit.ErrConflict},
		{"already a sentinel", ddbkit.Invalid("Title", "empty"), ddbkit.ErrInvalidArgument},
		{"corrupt", &ddbkit.CorruptItemError{}, ddbkit.ErrCorruptItem},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ddb.Classify(tt.err)
			ddbtest.WantSentinel(t, "Classify", got, tt.want)
			if !errors.Is(got, tt.err) {
				t.Errorf("Classify(%v) lost its cause", tt.err)
			}
		})
	}
	if !errors.Is(ddb.Classify(ctx.Err()), context.Canceled) {
		t.Error("Classify(ctx.Err()) does not match context.Canceled")
	}
	if ddb.Classify(nil) != nil {
		t.Error("Classify(nil) != nil")
	}
}

// TestUnmarshalCorrupt: a wrong-typed attribute names itself.
func TestUnmarshalCorrupt(t *testing.T) {
	tbl := ddb.Table{Name: "t", PartitionKey: "pk", SortKey: "sk"}
	var v struct {
		N int    `dynamodbav:"n"`
		S string `dynamodbav:"s"`
	}
	it := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("x"), "s": ddb.S("ok"), "n": ddb.S("not a number")}
	err := ddb.Unmarshal(tbl, it, &v)
	var ce *ddbkit.CorruptItemError
	if !errors.As(err, &ce) || ce.Attr != "n" || ce.Table != "t" || ce.Key != "pk=p, sk=x" {
		t.Fatalf("Unmarshal(corrupt) = %v, want a CorruptItemError naming table t, key pk=p, sk=x and attribute n", err)
	}
	ddbtest.WantSentinel(t, "Unmarshal(corrupt)", err, ddbkit.ErrCorruptItem)
	missing := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("x")}
	if err := ddb.Unmarshal(tbl, missing, &v); err != nil {
		t.Errorf("Unmarshal(missing attributes) = %v, want their zero values", err)
	}
}
