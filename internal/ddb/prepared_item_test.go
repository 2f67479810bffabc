package ddb_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestPreparedItemWrites: the single-item writes of prepared expressions
// commit and fail on DynamoDB Local, and Shapes builds each shape of a
// read-modify-write's condition once.
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
		cond, next := unchangedParams(tbl, attrs, shape, first)
		return ddb.MustPrepare(expression.NewBuilder().WithCondition(cond).
			WithUpdate(expression.Set(expression.Name("v"), ddb.Param(next))))
	}
	var shapes ddb.Shapes[uint64]
	update := func(read ddb.Item, v int) error {
		shape, args := unchangedShape(read, attrs, nil)
		p := shapes.Get(shape, func() expression.Builder {
			cond, next := unchangedParams(tbl, attrs, shape, 0)
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

// unchangedShape is the shape of an item as read: bit i set when attrs[i]
// is present, whose value is appended to args.
func unchangedShape(item ddb.Item, attrs []string, args []types.AttributeValue) (uint64, []types.AttributeValue) {
	var shape uint64
	for i, a := range attrs {
		if v, ok := item[a]; ok {
			shape |= 1 << i
			args = append(args, v)
		}
	}
	return shape, args
}

// unchangedParams is the condition that the item exists and each of attrs
// still holds its value as read (a parameter, from first on) or is still
// missing, for reads of the given shape; it returns the next free
// parameter.
func unchangedParams(t ddb.Table, attrs []string, shape uint64, first int) (expression.ConditionBuilder, int) {
	c := expression.AttributeExists(expression.NameNoDotSplit(t.PartitionKey))
	next := first
	for i, a := range attrs {
		n := expression.NameNoDotSplit(a)
		if shape&(1<<i) != 0 {
			c = c.And(expression.Equal(n, ddb.Param(next)))
			next++
		} else {
			c = c.And(expression.AttributeNotExists(n))
		}
	}
	return c, next
}
