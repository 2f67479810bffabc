package ddb_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
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
	name := ddbtest.NewTable(t, c, &dynamodb.CreateTableInput{
		TableName:            aws.String("ddb-exec"),
		AttributeDefinitions: []types.AttributeDefinition{attrS("pk"), attrS("sk")},
		KeySchema:            keySchema("pk", "sk"),
	})
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

func addOne(tbl ddb.Table, sk string) *ddb.Tx {
	var tx ddb.Tx
	tx.Update("add", tbl, tbl.Key("p", sk), expression.Add(expression.Name("n"), expression.Value(1)))
	return &tx
}

// TestExecTxLostResponse: a transaction that commits but whose answer is
// lost is retried with the same token, and DynamoDB does not apply it again.
func TestExecTxLostResponse(t *testing.T) {
	c, tbl := execTable(t)
	fc := ddbtest.NewFaultClient(c)
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	if err := ddb.ExecTx(t.Context(), fc, fastPolicy, "add", addOne(tbl, "a")); err != nil {
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
		if err := ddb.ExecTx(ctx, c, fastPolicy, "add", addOne(tbl, "a")); err != nil {
			t.Fatalf("ExecTx under a key = %v, want success", err)
		}
	}
	if got := counter(t, c, tbl, "p", "a"); got != "1" {
		t.Errorf("n = %s after three calls under one key, want 1", got)
	}
	err := ddb.ExecTx(ctx, c, fastPolicy, "add", addOne(tbl, "b"))
	ddbtest.WantSentinel(t, "other writes under a used key", ddb.Classify(err), ddbkit.ErrConflict)
	if got := counter(t, c, tbl, "p", "b"); got != "0" {
		t.Errorf("n of b = %s after a refused reuse of the key, want 0", got)
	}
	// Another operation under the same key gets a token of its own.
	if err := ddb.ExecTx(ctx, c, fastPolicy, "add b", addOne(tbl, "b")); err != nil {
		t.Errorf("ExecTx of another op under the key = %v, want success", err)
	}
}

// TestPutNewRecognisesItsOwnWrite: a conditional create whose answer is
// lost, and which the SDK (or ddbkit) repeats, succeeds; a create over
// another item still fails its condition.
func TestPutNewRecognisesItsOwnWrite(t *testing.T) {
	c, tbl := execTable(t)
	notExists := expression.AttributeNotExists(expression.Name("pk"))
	it := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("x"), "v": ddb.S("mine"), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{ddb.S("a")}}}
	fc := ddbtest.NewFaultClient(c)
	fc.Inject("PutItem", ddbtest.LoseResponse, 1)
	var ise *types.InternalServerError
	if err := ddb.PutNew(t.Context(), fc, tbl, it, notExists); !errors.As(err, &ise) {
		t.Fatalf("PutNew with its answer lost = %v, want the InternalServerError", err)
	}
	if err := ddb.PutNew(t.Context(), c, tbl, it, notExists); err != nil {
		t.Fatalf("PutNew repeated after its own commit = %v, want success", err)
	}
	other := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("x"), "v": ddb.S("someone else's")}
	if err := ddb.PutNew(t.Context(), c, tbl, other, notExists); !ddb.IsConditionFailed(err) {
		t.Fatalf("PutNew over another item = %v, want a failed condition", err)
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
