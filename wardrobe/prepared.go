package wardrobe

import (
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The expressions of DynamoStore's writes, built once (issue 15): their
// shapes are fixed, or one of a few known in advance, and only their
// values change from call to call. Each is what the expression builder
// would make of the same condition and update; the values are bound with
// ddb.Param.

var (
	prepNotExists = ddb.MustPrepare(expression.NewBuilder().WithCondition(notExists))
	prepExists    = ddb.MustPrepare(expression.NewBuilder().WithCondition(exists))
	prepActive    = ddb.MustPrepare(expression.NewBuilder().WithCondition(isActive))

	// A new wear on a day's counter: count + 1, creating it with its date
	// (Param 0).
	prepCounterAdd = ddb.MustPrepare(expression.NewBuilder().
			WithUpdate(expression.Add(nCount, expression.Value(1)).Set(nDate, ddb.Param(0))))

	// A wear taken from a day's counter, conditional on its count as read
	// (ddb.Unchanged): index 1 when the counter had a count, 0 when not.
	// prepCounterDelete deletes it, prepCounterSet sets count (the last
	// Param).
	prepCounterDelete = unchangedShapes([]string{attrCount}, func(c expression.ConditionBuilder, _ int) expression.Builder {
		return expression.NewBuilder().WithCondition(c)
	})
	prepCounterSet = unchangedShapes([]string{attrCount}, func(c expression.ConditionBuilder, next int) expression.Builder {
		return expression.NewBuilder().WithCondition(c).WithUpdate(expression.Set(nCount, ddb.Param(next)))
	})

	// prepStats[shape] sets the statistics and their index keys (the last
	// five Params: wearCount, lastWornAt, statsVersion, wearCountSk,
	// lastWornAtSk) on condition that statsAttrs are as read
	// (ddb.Unchanged; shape's bits say which were present, and their values
	// come first), and, for a new wear (prepWornStats), that the item is
	// ACTIVE.
	prepStats     = unchangedShapes(statsAttrs, statsBuilder(false))
	prepWornStats = unchangedShapes(statsAttrs, statsBuilder(true))

	// setStatus's update: status (Param 0), deletedAt (1) and the status
	// list (2), on condition that the status is not already Param 3.
	prepSetStatus = ddb.MustPrepare(expression.NewBuilder().
			WithUpdate(expression.Set(nStatus, ddb.Param(0)).Set(nDeletedAt, ddb.Param(1)).Set(nStatusListPK, ddb.Param(2))).
			WithCondition(exists.And(expression.Not(expression.Equal(nStatus, ddb.Param(3))))))

	// The updates of a patch of names and image keys, conditional on the
	// item existing: by whether it sets the name (Param 0) and what it does
	// to the image key (Param 0 or 1).
	prepPatch = func() (p [2][3]*ddb.Prepared) {
		for name := range 2 {
			for img := range 3 {
				var upd expression.UpdateBuilder
				i := 0
				if name == 1 {
					upd, i = upd.Set(nName, ddb.Param(0)), 1
				}
				switch img {
				case patchRemove:
					upd = upd.Remove(nImageKey)
				case patchSet:
					upd = upd.Set(nImageKey, ddb.Param(i))
				}
				if name == 1 || img != patchKeep {
					p[name][img] = ddb.MustPrepare(expression.NewBuilder().WithUpdate(upd).WithCondition(exists))
				}
			}
		}
		return p
	}()
)

// What a patch does to an attribute, indexing prepPatch.
const (
	patchKeep = iota
	patchRemove
	patchSet
)

func statsBuilder(active bool) func(expression.ConditionBuilder, int) expression.Builder {
	return func(c expression.ConditionBuilder, next int) expression.Builder {
		if active {
			c = c.And(isActive)
		}
		return expression.NewBuilder().WithCondition(c).WithUpdate(
			expression.Set(nWearCount, ddb.Param(next)).
				Set(nLastWornAt, ddb.Param(next+1)).
				Set(nStatsVersion, ddb.Param(next+2)).
				Set(nWearCountSK, ddb.Param(next+3)).
				Set(nLastWornSK, ddb.Param(next+4)))
	}
}

// unchangedShapes prepares, for each shape of ddb.UnchangedShape over
// attrs, the expression mk makes of ddb.Unchanged's condition on them (its
// values are the first parameters; mk's own start at next).
func unchangedShapes(attrs []string, mk func(c expression.ConditionBuilder, next int) expression.Builder) []*ddb.Prepared {
	out := make([]*ddb.Prepared, 1<<len(attrs))
	for shape := range out {
		out[shape] = ddb.MustPrepare(mk(ddb.UnchangedParams(ddb.Table{PartitionKey: AttrPK}, attrs, uint64(shape), 0)))
	}
	return out
}

func num(n int64) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

var null types.AttributeValue = &types.AttributeValueMemberNULL{Value: true}

// prepThumb is the projection of a thumbnail: the key, which names the
// clothing, and what a Thumbnail shows (name, imageKey, status).
var prepThumb = ddb.MustPrepare(expression.NewBuilder().WithProjection(
	expression.NamesList(nPK, expression.Name(AttrSK), nName, nImageKey, nStatus)))

// prepTemplateClothes[renamed] are UpdateTemplate's writes of a new list
// (and, when renamed, a new name), conditional on the attributes it
// returns and does not set being as read (templateResultAttrs): built on
// first use, as there are 96 shapes. The update's values (the name, then
// the list) follow the condition's.
var prepTemplateClothes = [2]func() []*ddb.Prepared{
	sync.OnceValue(func() []*ddb.Prepared {
		return unchangedShapes(templateResultAttrs(TemplatePatch{ClothingIDs: []string{}}), func(c expression.ConditionBuilder, next int) expression.Builder {
			return expression.NewBuilder().WithCondition(c).WithUpdate(expression.Set(nClothingIDs, ddb.Param(next)))
		})
	}),
	sync.OnceValue(func() []*ddb.Prepared {
		return unchangedShapes(templateResultAttrs(TemplatePatch{Name: new(string), ClothingIDs: []string{}}), func(c expression.ConditionBuilder, next int) expression.Builder {
			return expression.NewBuilder().WithCondition(c).WithUpdate(
				expression.Set(nName, ddb.Param(next)).Set(nClothingIDs, ddb.Param(next+1)))
		})
	}),
}
