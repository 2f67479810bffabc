package ddb_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

var (
	tblA = ddb.Table{Name: "a", PartitionKey: "pk", SortKey: "sk"}
)

// item returns an item of tblA with key (pk, sk) and one more attribute.
func item(pk, sk string) ddb.Item {
	return ddb.Item{"pk": ddb.S(pk), "sk": ddb.S(sk), "v": ddb.S("value of " + sk)}
}

func setV() expression.UpdateBuilder {
	return expression.Set(expression.Name("v"), expression.Value("new"))
}

// The prepared expressions of the tests: the item does not exist, it
// exists, and v = "new" unconditionally.
var (
	notExistsP = ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name("pk"))))
	existsP    = ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeExists(expression.Name("pk"))))
	setVP      = ddb.MustPrepare(expression.NewBuilder().WithUpdate(setV()))
)

func TestTxToken(t *testing.T) {
	tests := []struct {
		name  string
		token string
		want  *string
	}{
		{name: "set", token: "req-42", want: aws.String("req-42")},
		{name: "not set", token: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tx ddb.Tx
			if tt.token != "" {
				tx.Token(tt.token)
			}
			tx.Put("p", tblA, item("p", "s"))
			in := tx.Build()
			if got := in.ClientRequestToken; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ClientRequestToken = %v, want %v", aws.ToString(got), aws.ToString(tt.want))
			}
		})
	}
}

// TestTxExpressions: each kind of item carries its prepared expressions
// with the arguments bound, and asks for the item as it was only when it
// has a condition; unconditional puts and deletes carry no expression.
func TestTxExpressions(t *testing.T) {
	v, pk := expression.Name("v"), expression.Name("pk")
	condB := v.Equal(ddb.Param(0)).And(expression.AttributeExists(pk))
	cond := ddb.MustPrepare(expression.NewBuilder().WithCondition(condB))
	upd := ddb.MustPrepare(expression.NewBuilder().WithUpdate(setV().Add(expression.Name("n"), ddb.Param(0))).
		WithCondition(v.Equal(ddb.Param(1)).And(expression.AttributeExists(pk))))
	updOnly := ddb.MustPrepare(expression.NewBuilder().WithUpdate(setV().Add(expression.Name("n"), ddb.Param(0))))
	one, old := &types.AttributeValueMemberN{Value: "1"}, ddb.S("old")
	it := item("p", "put")
	var tx ddb.Tx
	tx.PutPrepared("put", tblA, it, notExistsP).
		Put("put, unconditional", tblA, item("p", "plain")).
		UpdatePrepared("update", tblA, tblA.Key("p", "upd"), upd, one, old).
		UpdatePrepared("update, unconditional", tblA, tblA.Key("p", "upd2"), updOnly, one).
		DeletePrepared("delete", tblA, tblA.Key("p", "del"), cond, old).
		CheckPrepared("check", tblA, tblA.Key("p", "chk"), cond, old).
		Delete("delete, unconditional", tblA, tblA.Key("p", "del2"))
	in := tx.Build()
	if got := len(in.TransactItems); got != 7 {
		t.Fatalf("len(TransactItems) = %d, want 7", got)
	}
	allOld := types.ReturnValuesOnConditionCheckFailureAllOld

	// expr is the part of a transaction item that expressions fill in.
	type expr struct {
		Table, Update, Condition  *string
		Names                     map[string]string
		Values                    map[string]types.AttributeValue
		Key, Item                 ddb.Item
		ReturnValuesOnCheckFailed types.ReturnValuesOnConditionCheckFailure
	}
	got := make([]expr, len(in.TransactItems))
	for i, ti := range in.TransactItems {
		switch {
		case ti.Put != nil:
			p := ti.Put
			got[i] = expr{p.TableName, nil, p.ConditionExpression, p.ExpressionAttributeNames, p.ExpressionAttributeValues, nil, p.Item, p.ReturnValuesOnConditionCheckFailure}
		case ti.Update != nil:
			u := ti.Update
			got[i] = expr{u.TableName, u.UpdateExpression, u.ConditionExpression, u.ExpressionAttributeNames, u.ExpressionAttributeValues, u.Key, nil, u.ReturnValuesOnConditionCheckFailure}
		case ti.Delete != nil:
			d := ti.Delete
			got[i] = expr{d.TableName, nil, d.ConditionExpression, d.ExpressionAttributeNames, d.ExpressionAttributeValues, d.Key, nil, d.ReturnValuesOnConditionCheckFailure}
		case ti.ConditionCheck != nil:
			c := ti.ConditionCheck
			got[i] = expr{c.TableName, nil, c.ConditionExpression, c.ExpressionAttributeNames, c.ExpressionAttributeValues, c.Key, nil, c.ReturnValuesOnConditionCheckFailure}
		}
	}
	// What expression.Builder makes of the same trees, with the values in.
	built, err := expression.NewBuilder().WithCondition(v.Equal(expression.Value(old)).And(expression.AttributeExists(pk))).Build()
	if err != nil {
		t.Fatal(err)
	}
	if *cond.Condition() != *built.Condition() || !reflect.DeepEqual(cond.Names(), built.Names()) || !reflect.DeepEqual(cond.Values(old), built.Values()) {
		t.Errorf("prepared condition = %q %v %v, want what the builder makes: %q %v %v",
			*cond.Condition(), cond.Names(), cond.Values(old), *built.Condition(), built.Names(), built.Values())
	}
	tbl := aws.String("a")
	want := []expr{
		{tbl, nil, notExistsP.Condition(), notExistsP.Names(), nil, nil, it, allOld},
		{tbl, nil, nil, nil, nil, nil, item("p", "plain"), ""}, // no condition to fail
		{tbl, upd.Update(), upd.Condition(), upd.Names(), upd.Values(one, old), tblA.Key("p", "upd"), nil, allOld},
		{tbl, updOnly.Update(), nil, updOnly.Names(), updOnly.Values(one), tblA.Key("p", "upd2"), nil, ""},
		{tbl, nil, cond.Condition(), cond.Names(), cond.Values(old), tblA.Key("p", "del"), nil, allOld},
		{tbl, nil, cond.Condition(), cond.Names(), cond.Values(old), tblA.Key("p", "chk"), nil, allOld},
		{tbl, nil, nil, nil, nil, tblA.Key("p", "del2"), nil, ""},
	}
	kinds := []string{"Put", "Put", "Update", "Update", "Delete", "ConditionCheck", "Delete"}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("TransactItems[%d] (%s):\n got %s\nwant %s", i, kinds[i], dumpExpr(got[i]), dumpExpr(want[i]))
		}
	}
}

func dumpExpr(e any) string {
	s := fmt.Sprintf("%+v", e)
	// Dereference the *string fields for a readable message.
	v := reflect.ValueOf(e)
	for i := range v.NumField() {
		if p, ok := v.Field(i).Interface().(*string); ok {
			s += fmt.Sprintf(" %s=%q", v.Type().Field(i).Name, aws.ToString(p))
		}
	}
	return s
}

// canceledTx returns a transaction of four labelled items and the
// cancellation DynamoDB would return for it with the given reason codes.
func canceledTx(codes ...string) (*ddb.Tx, error) {
	var tx ddb.Tx
	tx.PutPrepared("create", tblA, item("p", "1"), notExistsP).
		UpdatePrepared("bump", tblA, tblA.Key("p", "2"), setVP).
		Delete("remove", tblA, tblA.Key("p", "3")).
		CheckPrepared("guard", tblA, tblA.Key("p", "4"), notExistsP)
	reasons := make([]types.CancellationReason, len(codes))
	for i, c := range codes {
		reasons[i] = types.CancellationReason{Code: aws.String(c)}
		if c != ddb.ReasonNone {
			reasons[i].Message = aws.String("message for " + c)
		}
	}
	return &tx, &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "TransactWriteItems",
		Err: &types.TransactionCanceledException{Message: aws.String("Transaction cancelled"), CancellationReasons: reasons}}
}

func TestTxExecDecodesCancellation(t *testing.T) {
	old := item("p", "1")
	var tx ddb.Tx
	tx.PutPrepared("create", tblA, item("p", "1"), notExistsP).
		UpdatePrepared("bump", tblA, tblA.Key("p", "2"), setVP).
		DeletePrepared("remove", tblA, tblA.Key("p", "3"), existsP).
		CheckPrepared("guard", tblA, tblA.Key("p", "4"), notExistsP)
	sdkErr := &types.TransactionCanceledException{
		Message: aws.String("Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None, ConditionalCheckFailed, None]"),
		CancellationReasons: []types.CancellationReason{
			{Code: aws.String("ConditionalCheckFailed"), Message: aws.String("The conditional request failed"), Item: old},
			{Code: aws.String("None")},
			{Code: aws.String("ConditionalCheckFailed"), Message: aws.String("The conditional request failed")}, // no item: it did not exist
			{Code: aws.String("None")},
		},
	}
	s := &stubClient{transact: func(*dynamodb.TransactWriteItemsInput) (*dynamodb.TransactWriteItemsOutput, error) {
		return nil, &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "TransactWriteItems", Err: sdkErr}
	}}
	err := tx.Exec(context.Background(), s)
	if got := len(s.transactions); got != 1 {
		t.Fatalf("Exec() made %d TransactWriteItems calls, want 1", got)
	}
	if got := len(s.transactions[0].TransactItems); got != 4 {
		t.Errorf("Exec() sent %d items, want 4", got)
	}

	var ce *ddb.TxCanceledError
	if !errors.As(err, &ce) {
		t.Fatalf("Exec() error = %T %v, want a *ddb.TxCanceledError", err, err)
	}
	want := []ddb.TxReason{
		{Index: 0, Label: "create", Code: ddb.ReasonConditionalCheckFailed, Message: "The conditional request failed", Item: old},
		{Index: 1, Label: "bump", Code: ddb.ReasonNone},
		{Index: 2, Label: "remove", Code: ddb.ReasonConditionalCheckFailed, Message: "The conditional request failed"},
		{Index: 3, Label: "guard", Code: ddb.ReasonNone},
	}
	if !reflect.DeepEqual(ce.Reasons, want) {
		t.Errorf("Reasons =\n%+v\nwant\n%+v", ce.Reasons, want)
	}

	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) || tce != sdkErr {
		t.Errorf("errors.As(err, *types.TransactionCanceledException) = %v, want the SDK's exception", tce)
	}
	var opErr *smithy.OperationError
	if !errors.As(err, &opErr) {
		t.Errorf("errors.As(err, *smithy.OperationError) = false, want true")
	}
	if errors.Is(err, ddbkit.ErrConflict) {
		t.Errorf("errors.Is(err, ErrConflict) = true for failed conditions, want false")
	}

	condTests := []struct {
		name       string
		label      string
		wantOld    ddb.Item
		wantFailed bool
	}{
		{name: "failed with an old item", label: "create", wantOld: old, wantFailed: true},
		{name: "failed without an old item", label: "remove", wantOld: nil, wantFailed: true},
		{name: "did not fail", label: "bump"},
		{name: "unknown label", label: "nope"},
	}
	for _, tt := range condTests {
		t.Run(tt.name, func(t *testing.T) {
			gotOld, gotFailed := ddb.ConditionFailed(err, tt.label)
			if gotFailed != tt.wantFailed || !reflect.DeepEqual(gotOld, tt.wantOld) {
				t.Errorf("ConditionFailed(err, %q) = (%v, %t), want (%v, %t)", tt.label, gotOld, gotFailed, tt.wantOld, tt.wantFailed)
			}
		})
	}
	// Wrapped further by a caller, it still works.
	if _, failed := ddb.ConditionFailed(fmt.Errorf("store: %w", err), "create"); !failed {
		t.Errorf("ConditionFailed(wrapped err, %q) = false, want true", "create")
	}
}

func TestTxCanceledErrorIsConflict(t *testing.T) {
	tests := []struct {
		name         string
		codes        []string
		wantConflict bool
		wantFailed   string // label Failed finds, "" for none
	}{
		{name: "transaction conflict", codes: []string{"None", "TransactionConflict", "None", "None"}, wantConflict: true, wantFailed: "bump"},
		{name: "conflict among failed conditions", codes: []string{"ConditionalCheckFailed", "None", "TransactionConflict", "None"}, wantConflict: true, wantFailed: "create"},
		{name: "condition failed", codes: []string{"None", "None", "None", "ConditionalCheckFailed"}, wantFailed: "guard"},
		{name: "throttled", codes: []string{"ThrottlingError", "None", "None", "None"}, wantFailed: "create"},
		{name: "validation", codes: []string{"None", "ValidationError", "None", "None"}, wantFailed: "bump"},
		{name: "item collection too large", codes: []string{"None", "None", "ItemCollectionSizeLimitExceeded", "None"}, wantFailed: "remove"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tx, sdkErr := canceledTx(tt.codes...)
			s := &stubClient{transact: func(*dynamodb.TransactWriteItemsInput) (*dynamodb.TransactWriteItemsOutput, error) {
				return nil, sdkErr
			}}
			err := tx.Exec(context.Background(), s)
			var ce *ddb.TxCanceledError
			if !errors.As(err, &ce) {
				t.Fatalf("Exec() error = %T %v, want a *ddb.TxCanceledError", err, err)
			}
			if got := errors.Is(err, ddbkit.ErrConflict); got != tt.wantConflict {
				t.Errorf("errors.Is(err, ErrConflict) = %t, want %t", got, tt.wantConflict)
			}
			if got := errors.Is(fmt.Errorf("wrapped: %w", err), ddbkit.ErrConflict); got != tt.wantConflict {
				t.Errorf("errors.Is(wrapped err, ErrConflict) = %t, want %t", got, tt.wantConflict)
			}
			for i, r := range ce.Reasons {
				if r.Code != tt.codes[i] {
					t.Errorf("Reasons[%d].Code = %q, want %q", i, r.Code, tt.codes[i])
				}
			}
			r, ok := ce.Failed(tt.wantFailed)
			if !ok || r.Label != tt.wantFailed {
				t.Errorf("Failed(%q) = (%+v, %t), want that item and true", tt.wantFailed, r, ok)
			}
		})
	}
}

func TestTxExecPassesOtherErrorsThrough(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{name: "internal server error", err: &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "TransactWriteItems", Err: &types.InternalServerError{Message: aws.String("boom")}}},
		{name: "idempotent parameter mismatch", err: &types.IdempotentParameterMismatchException{Message: aws.String("token reused")}},
		{name: "context canceled", err: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tx ddb.Tx
			tx.Put("p", tblA, item("p", "s"))
			s := &stubClient{transact: func(*dynamodb.TransactWriteItemsInput) (*dynamodb.TransactWriteItemsOutput, error) {
				return nil, tt.err
			}}
			err := tx.Exec(context.Background(), s)
			if !errors.Is(err, tt.err) {
				t.Errorf("Exec() error = %v, want %v", err, tt.err)
			}
			var ce *ddb.TxCanceledError
			if errors.As(err, &ce) {
				t.Errorf("Exec() error is a *TxCanceledError, want not")
			}
			if _, failed := ddb.ConditionFailed(err, "p"); failed {
				t.Errorf("ConditionFailed(err, %q) = true, want false", "p")
			}
		})
	}
	t.Run("success", func(t *testing.T) {
		var tx ddb.Tx
		tx.Put("p", tblA, item("p", "s")).Token("t")
		s := &stubClient{transact: func(*dynamodb.TransactWriteItemsInput) (*dynamodb.TransactWriteItemsOutput, error) {
			return &dynamodb.TransactWriteItemsOutput{}, nil
		}}
		if err := tx.Exec(context.Background(), s); err != nil {
			t.Fatalf("Exec() error = %v, want nil", err)
		}
		want := tx.Build()
		if len(s.transactions) != 1 || !reflect.DeepEqual(s.transactions[0], want) {
			t.Errorf("Exec() sent %+v, want %+v", s.transactions, want)
		}
	})
}
