package ddb_test

import (
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

func n(v int) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.Itoa(v)}
}

// bump adds Param(0) to n, if the stored version is Param(1) or missing,
// and stamps the constant "bumped".
var bump = ddb.MustPrepare(expression.NewBuilder().
	WithUpdate(expression.Add(expression.Name("n"), ddb.Param(0)).Set(expression.Name("how"), expression.Value("bumped"))).
	WithCondition(expression.Equal(expression.Name("v"), ddb.Param(1)).Or(expression.AttributeNotExists(expression.Name("v")))))

func TestPrepareFindsParams(t *testing.T) {
	if bump.Params() != 2 || bump.Update() == nil || bump.Condition() == nil || bump.Filter() != nil {
		t.Fatalf("Prepare = %d params, update %v, condition %v, filter %v", bump.Params(), bump.Update(), bump.Condition(), bump.Filter())
	}
	a, b := bump.Values(n(1), n(7)), bump.Values(n(2), n(8))
	if len(a) != 3 || len(b) != 3 {
		t.Fatalf("Values = %v and %v, want 3 values each (2 params, 1 constant)", a, b)
	}
	var got []string
	for _, v := range a {
		got = append(got, ddb.AttrString(v))
	}
	for _, want := range []string{`N1:1`, `N1:7`, `S6:bumped`} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("Values(1, 7) = %v, want it to hold %s", got, want)
		}
	}
	if ddb.AttrString(b[findPH(t, a, "N1:1")]) != "N1:2" {
		t.Error("a second call does not bind its own values to the same placeholders")
	}
	for name, b := range map[string]expression.Builder{
		"a gap":         expression.NewBuilder().WithCondition(expression.Equal(expression.Name("a"), ddb.Param(1))),
		"a repeat":      expression.NewBuilder().WithCondition(expression.Equal(expression.Name("a"), ddb.Param(0)).And(expression.Equal(expression.Name("b"), ddb.Param(0)))),
		"a bad builder": expression.NewBuilder(),
	} {
		if _, err := ddb.Prepare(b); err == nil {
			t.Errorf("Prepare with %s = nil error, want one", name)
		}
	}
}

func findPH(t *testing.T, m map[string]types.AttributeValue, want string) string {
	t.Helper()
	for ph, v := range m {
		if ddb.AttrString(v) == want {
			return ph
		}
	}
	t.Fatalf("no value %s in %v", want, m)
	return ""
}

// TestPreparedTxDynamoDB: prepared items commit and fail their conditions
// on DynamoDB Local.
func TestPreparedTxDynamoDB(t *testing.T) {
	c, tbl := execTable(t)
	ctx := t.Context()
	var tx ddb.Tx
	tx.UpdatePrepared("a", tbl, tbl.Key("p", "a"), bump, n(5), n(0)).
		PutPrepared("b", tbl, ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("b"), "v": n(1)},
			ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name("pk")))))
	if err := tx.Exec(ctx, c); err != nil {
		t.Fatalf("prepared transaction = %v", err)
	}
	if got := counter(t, c, tbl, "p", "a"); got != "5" {
		t.Errorf("n = %s, want 5", got)
	}
	// b has v = 1: a bump conditioned on v = 2 fails, on v = 1 commits.
	var fail ddb.Tx
	fail.UpdatePrepared("b", tbl, tbl.Key("p", "b"), bump, n(1), n(2))
	if _, failed := ddb.ConditionFailed(fail.Exec(ctx, c), "b"); !failed {
		t.Fatal("bump of b on the wrong version did not fail its condition")
	}
	var ok ddb.Tx
	ok.UpdatePrepared("b", tbl, tbl.Key("p", "b"), bump, n(1), n(1)).
		CheckPrepared("a", tbl, tbl.Key("p", "a"), ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.Equal(expression.Name("n"), ddb.Param(0)))), n(5))
	if err := ok.Exec(ctx, c); err != nil {
		t.Fatalf("bump of b on its version with a check of a = %v", err)
	}
	var del ddb.Tx
	del.DeletePrepared("a", tbl, tbl.Key("p", "a"), ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.Equal(expression.Name("how"), ddb.Param(0)))), ddb.S("bumped"))
	if err := del.Exec(ctx, c); err != nil {
		t.Fatalf("prepared delete = %v", err)
	}
	if it, err := ddb.GetItem(ctx, c, tbl, tbl.Key("p", "a")); err != nil || it != nil {
		t.Errorf("a after the delete = %v, %v; want gone", it, err)
	}
}

// BenchmarkTxBuild builds a 13-item transaction of counter updates (the
// shape of wardrobe's AddHistory) with one prepared expression bound per
// item.
func BenchmarkTxBuild(b *testing.B) {
	tbl := ddb.Table{Name: "t", PartitionKey: "pk", SortKey: "sk"}
	keys := make([]ddb.Item, 13)
	for i := range keys {
		keys[i] = tbl.Key("p", strconv.Itoa(i))
	}
	b.ReportAllocs()
	for range b.N {
		var tx ddb.Tx
		for i, k := range keys {
			tx.UpdatePrepared(strconv.Itoa(i), tbl, k, bump, n(1), n(i))
		}
		if in := tx.Build(); len(in.TransactItems) != len(keys) {
			b.Fatal("lost items")
		}
	}
}
