package ddb_test

import (
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestPreparedItemWrites: the single-item writes of prepared expressions
// commit and fail on DynamoDB Local as the built ones do, and
// UnchangedParams holds exactly where Unchanged does.
func TestPreparedItemWrites(t *testing.T) {
	c, tbl := execTable(t)
	ctx := t.Context()
	notExists := ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name("pk"))))
	item := ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("a"), "v": n(1)}

	if err := ddb.PutItemPrepared(ctx, c, tbl, item, notExists); err != nil {
		t.Fatalf("PutItemPrepared = %v", err)
	}
	if err := ddb.PutItemPrepared(ctx, c, tbl, item, notExists); !ddb.IsConditionFailed(err) {
		t.Errorf("PutItemPrepared of the same item again = %v, want a failed condition", err)
	}

	attrs := []string{"v", "w"}
	set := func(shape uint64, first int) *ddb.Prepared {
		cond, next := ddb.UnchangedParams(tbl, attrs, shape, first)
		return ddb.MustPrepare(expression.NewBuilder().WithCondition(cond).
			WithUpdate(expression.Set(expression.Name("v"), ddb.Param(next))))
	}
	var shapes ddb.Shapes[uint64]
	update := func(read ddb.Item, v int) error {
		shape, args := ddb.UnchangedShape(read, attrs, nil)
		p := shapes.Get(shape, func() expression.Builder {
			cond, next := ddb.UnchangedParams(tbl, attrs, shape, 0)
			return expression.NewBuilder().WithCondition(cond).WithUpdate(expression.Set(expression.Name("v"), ddb.Param(next)))
		})
		_, err := ddb.UpdateItemPrepared(ctx, c, tbl, tbl.KeyOf(read), types.ReturnValueNone, p, append(args, n(v))...)
		return err
	}
	if err := update(item, 3); err != nil {
		t.Fatalf("update of the item as read = %v", err)
	}
	if err := update(item, 4); !ddb.IsConditionFailed(err) {
		t.Errorf("update of a stale read = %v, want a failed condition", err)
	}
	if err := update(ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("a"), "v": n(3), "w": n(0)}, 5); !ddb.IsConditionFailed(err) {
		t.Errorf("update of a read with an attribute the item lacks = %v, want a failed condition", err)
	}
	if err := update(ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("none")}, 1); !ddb.IsConditionFailed(err) {
		t.Errorf("update of a missing item = %v, want a failed condition", err)
	}
	if it, err := ddb.GetItem(ctx, c, tbl, tbl.Key("p", "a")); err != nil || ddb.AttrString(it["v"]) != "N1:3" {
		t.Errorf("item = %v, %v; want v = 3 (one update committed)", it, err)
	}
	if p, q := shapes.Get(1, nil), set(1, 0); *p.Condition() != *q.Condition() || p.Params() != q.Params() {
		t.Errorf("Shapes.Get(1) = %s with %d params, want the cached %s with %d", *p.Condition(), p.Params(), *q.Condition(), q.Params())
	}

	gone, err := ddb.DeleteItemPrepared(ctx, c, tbl, tbl.Key("p", "a"), types.ReturnValueAllOld,
		ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.Equal(expression.Name("v"), ddb.Param(0)))), n(3))
	if err != nil || ddb.AttrString(gone["v"]) != "N1:3" {
		t.Fatalf("DeleteItemPrepared = %v, %v; want the old item with v = 3", gone, err)
	}
	if it, err := ddb.GetItem(ctx, c, tbl, tbl.Key("p", "a")); err != nil || it != nil {
		t.Errorf("item after the delete = %v, %v; want gone", it, err)
	}
}

// TestUnchangedShape: the shape has a bit per present attribute and the
// values come in the order of attrs.
func TestUnchangedShape(t *testing.T) {
	item := ddb.Item{"a": ddb.S("1"), "c": ddb.S("3")}
	shape, args := ddb.UnchangedShape(item, []string{"a", "b", "c"}, []types.AttributeValue{ddb.S("x")})
	var got []string
	for _, a := range args {
		got = append(got, ddb.AttrString(a))
	}
	if want := []string{"S1:x", "S1:1", "S1:3"}; shape != 0b101 || !slices.Equal(got, want) {
		t.Errorf("UnchangedShape = %b, %v; want 101, %v", shape, got, want)
	}
}
