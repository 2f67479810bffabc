package todo

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// DynamoStore's expressions are prepared (ddb.Prepared): built once per
// shape, with only their values bound per call, so that no call pays for
// expression.Builder.Build (issue 15).

var (
	pExists    = ddb.MustPrepare(expression.NewBuilder().WithCondition(exists))
	pNotExists = ddb.MustPrepare(expression.NewBuilder().WithCondition(notExists))
	// pEmail is UpdateUser's: SET email, on an existing user.
	pEmail = ddb.MustPrepare(expression.NewBuilder().
		WithUpdate(expression.Set(expression.Name("email"), ddb.Param(0))).WithCondition(exists))
	// pUncategorize is DeleteCategory's update of a todo that refers to
	// the category: category_id "" and updated_at, if it still refers to it.
	pUncategorize = ddb.MustPrepare(expression.NewBuilder().
			WithUpdate(expression.Set(nCategoryID, ddb.Param(0)).Set(nUpdatedAt, ddb.Param(1))).
			WithCondition(expression.Equal(nCategoryID, ddb.Param(2))))
)

// prepared holds the expressions whose shape depends on the call (which
// fields a patch sets, which attributes the item read has), built on first
// use. Each user of it keeps its keys apart by a tag in the low bits.
var prepared ddb.Shapes[uint64]

// The tags of the shapes' keys (the low 4 bits).
const (
	shapeTodoUpdate = iota
	shapeTodoUpdateUnchanged
	shapeToggle
	shapeCategoryUpdate
)

// set is one attribute an update sets.
type set struct {
	name string
	v    types.AttributeValue
}

// todoSets lists what the update of patch at time now sets, updated_at
// first, and a mask of the patch's fields.
func todoSets(patch TodoPatch, now time.Time) (sets []set, mask uint64) {
	sets = make([]set, 1, 6)
	sets[0] = set{attrUpdatedAt, ddb.S(keys.Timestamp(now))}
	add := func(bit uint64, name string, v types.AttributeValue) {
		sets, mask = append(sets, set{name, v}), mask|bit
	}
	if patch.Title != nil {
		add(1, "title", ddb.S(*patch.Title))
	}
	if patch.Description != nil {
		add(2, "description", ddb.S(*patch.Description))
	}
	if patch.Priority != nil {
		add(4, "priority", ddb.S(string(*patch.Priority)))
	}
	if patch.Completed != nil {
		add(8, attrCompleted, &types.AttributeValueMemberBOOL{Value: *patch.Completed})
	}
	if patch.CategoryID != nil {
		add(16, attrCategoryID, ddb.S(*patch.CategoryID))
	}
	return sets, mask
}

// updateOf is the update expression of sets, with Param(i) for the i-th
// value.
func updateOf(sets []set) expression.UpdateBuilder {
	var u expression.UpdateBuilder
	for i, s := range sets {
		u = u.Set(expression.Name(s.name), ddb.Param(i))
	}
	return u
}

// values returns the values of sets, then args.
func values(sets []set, args ...types.AttributeValue) []types.AttributeValue {
	vs := make([]types.AttributeValue, 0, len(sets)+len(args))
	for _, s := range sets {
		vs = append(vs, s.v)
	}
	return append(vs, args...)
}

// updateExisting is the prepared update of sets on an existing item
// (attribute_exists of the partition key), for a shape tag and mask.
func updateExisting(tag, mask uint64, sets []set) *ddb.Prepared {
	return prepared.Get(mask<<4|tag, func() expression.Builder {
		return expression.NewBuilder().WithUpdate(updateOf(sets)).WithCondition(exists)
	})
}

// updateUnchanged is the prepared update of sets, conditioned as
// ddb.Unchanged(t, item, attrs...) conditions it: the item exists and each
// of attrs holds the value it has in item, or is missing where item has
// none. It returns the expression and its values. attrs are at most 16.
func updateUnchanged(tag, mask uint64, sets []set, item ddb.Item, attrs []string) (*ddb.Prepared, []types.AttributeValue) {
	present, args := ddb.UnchangedShape(item, attrs, values(sets))
	p := prepared.Get((present<<16|mask)<<4|tag, func() expression.Builder {
		c, _ := ddb.UnchangedParams(ddb.Table{PartitionKey: AttrPK}, attrs, present, len(sets))
		return expression.NewBuilder().WithUpdate(updateOf(sets)).WithCondition(c)
	})
	return p, args
}
