package kondate

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The DynamoDB store's expressions, built once (ddb.Prepared) and bound per
// call: building an expression tree per call (expression.Builder.Build) was
// most of the CPU a create, an update, a delete or a transaction spent on
// top of the hand-written calls (issue 15). Every expression of the store
// has one of a few shapes, fixed by the code: the key conditions, a
// change's SET list (by its attribute names), and the condition on the
// scalars of an item as read (by their names). The last two are cached by
// shape.
var (
	prepExists    = ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeExists(expression.Name(AttrPK))))
	prepNotExists = ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name(AttrPK))))
)

// The two caches by shape (ddb.Shapes): a shape's key is built from
// attribute names, which come from the code, except the scalars of an item
// another writer wrote; ddb.Shapes stops growing at its bound.
var (
	updateShapes    ddb.Shapes[string]
	unchangedShapes ddb.Shapes[string]
)

// preparedUpdate returns the prepared SET expression of u (with the
// condition that the item exists when mustExist) and its values.
func preparedUpdate(u change, mustExist bool) (*ddb.Prepared, []types.AttributeValue) {
	var k strings.Builder
	if mustExist {
		k.WriteByte('!')
	}
	vals := make([]types.AttributeValue, len(u.set))
	for i, s := range u.set {
		k.WriteString(s.name)
		if s.ifNotExists {
			k.WriteByte('?')
		}
		k.WriteByte(0)
		vals[i] = s.value
	}
	p := updateShapes.Get(k.String(), func() expression.Builder {
		var upd expression.UpdateBuilder
		for i, s := range u.set {
			n := expression.Name(s.name)
			if s.ifNotExists {
				upd = upd.Set(n, expression.IfNotExists(n, ddb.Param(i)))
			} else {
				upd = upd.Set(n, ddb.Param(i))
			}
		}
		b := expression.NewBuilder().WithUpdate(upd)
		if mustExist {
			b = b.WithCondition(expression.AttributeExists(expression.Name(AttrPK)))
		}
		return b
	})
	return p, vals
}

// preparedUnchanged returns the condition that the item exists and holds
// want's values (ddb.Unchanged over want's attributes in sorted order, as
// unchanged builds it), and its values.
func preparedUnchanged(want ddb.Item) (*ddb.Prepared, []types.AttributeValue) {
	names := sortedNames(want)
	var k strings.Builder
	vals := make([]types.AttributeValue, len(names))
	for i, n := range names {
		k.WriteString(n)
		k.WriteByte(0)
		vals[i] = want[n]
	}
	p := unchangedShapes.Get(k.String(), func() expression.Builder {
		c := expression.AttributeExists(expression.Name(AttrPK))
		for i, n := range names {
			c = c.And(expression.Equal(expression.Name(n), ddb.Param(i)))
		}
		return expression.NewBuilder().WithCondition(c)
	})
	return p, vals
}

// sortedNames returns item's attribute names in order, without the
// allocations of slices.Sorted(maps.Keys(...)) beyond the slice: items
// have a dozen attributes, where insertion sort is the cheap sort.
func sortedNames(item ddb.Item) []string {
	names := make([]string, 0, len(item))
	for n := range item {
		i := len(names)
		names = append(names, n)
		for ; i > 0 && names[i-1] > n; i-- {
			names[i] = names[i-1]
		}
		names[i] = n
	}
	return names
}
