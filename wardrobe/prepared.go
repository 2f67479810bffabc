package wardrobe

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
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

// unchangedShapes prepares, for each subset of attrs present in an item
// as read, the expression mk makes of ddb.Unchanged's condition on them:
// shape bit i is set when attrs[i] was present, and its value is then a
// parameter, in the order of attrs, before those mk adds (from next).
func unchangedShapes(attrs []string, mk func(c expression.ConditionBuilder, next int) expression.Builder) []*ddb.Prepared {
	out := make([]*ddb.Prepared, 1<<len(attrs))
	for shape := range out {
		c := expression.AttributeExists(nPK)
		next := 0
		for i, a := range attrs {
			if shape&(1<<i) != 0 {
				c = c.And(expression.Equal(expression.Name(a), ddb.Param(next)))
				next++
			} else {
				c = c.And(expression.AttributeNotExists(expression.Name(a)))
			}
		}
		out[shape] = ddb.MustPrepare(mk(c, next))
	}
	return out
}

// unchanged returns the shape of item's attrs (see unchangedShapes) and
// appends the values present to args: the arguments of ddb.Unchanged's
// condition, prepared.
func unchanged(item ddb.Item, attrs []string, args []types.AttributeValue) (int, []types.AttributeValue) {
	shape := 0
	for i, a := range attrs {
		if v, ok := item[a]; ok {
			shape |= 1 << i
			args = append(args, v)
		}
	}
	return shape, args
}

func num(n int64) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

var null types.AttributeValue = &types.AttributeValueMemberNULL{Value: true}

// updatePrepared is s.update with a prepared expression: it applies p to
// the item at k, and returns the item as it is afterwards, or, when p's
// condition fails, the item as it was in the
// *types.ConditionalCheckFailedException.
func (s *DynamoStore) updatePrepared(ctx context.Context, k itemKey, p *ddb.Prepared, args ...types.AttributeValue) (ddb.Item, error) {
	out, err := s.c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &s.t.Name, Key: k.item(s.t),
		UpdateExpression: p.Update(), ConditionExpression: p.Condition(),
		ExpressionAttributeNames: p.Names(), ExpressionAttributeValues: p.Values(args...),
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}

// prepThumb is the projection of a thumbnail: the key, which names the
// clothing, and what a Thumbnail shows (name, imageKey, status).
var prepThumb = ddb.MustPrepare(expression.NewBuilder().WithProjection(
	expression.NamesList(nPK, expression.Name(AttrSK), nName, nImageKey, nStatus)))

// readThumbs reads the thumbnails of the clothes at ks (distinct keys)
// with BatchGetItem, BatchGetChunk keys a call, eventually consistent and
// projected to prepThumb: the listings that show thumbnails read a GSI,
// which is eventually consistent already, and a thumbnail needs no more.
// It returns the items found, in no order. Like ddb.BatchGet, it retries a
// call that fails whole, and UnprocessedKeys, within Options.Retry, and
// fails with ddbkit.ErrUnavailable when DynamoDB leaves keys unprocessed
// for that many calls in a row.
//
// It is ddb.BatchGet with a projection and without its bookkeeping, which
// ddb.BatchGetOptions cannot ask for (yet).
func (s *DynamoStore) readThumbs(ctx context.Context, ks []ddb.Item) ([]ddb.Item, error) {
	b := s.o.backoff()
	var found []ddb.Item
	for stalls := 0; len(ks) > 0; {
		chunk := ks[:min(BatchGetChunk, len(ks))]
		var out *dynamodb.BatchGetItemOutput
		err := ddb.RetryIf(ctx, b, ddb.RetryableWithToken, func() (err error) {
			out, err = s.c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				s.t.Name: {Keys: chunk, ProjectionExpression: prepThumb.Projection(), ExpressionAttributeNames: prepThumb.Names()},
			}})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("batch get from %s: %w", s.t.Name, err)
		}
		found = append(found, out.Responses[s.t.Name]...)
		retry := out.UnprocessedKeys[s.t.Name].Keys
		ks = append(retry, ks[len(chunk):]...)
		if len(retry) == 0 {
			stalls = 0
			continue
		}
		if stalls++; stalls >= max(b.Attempts, 1) {
			return nil, fmt.Errorf("batch get from %s: %w: %d requests still unprocessed after %d attempts without progress; nothing was dropped, repeat the call",
				s.t.Name, ddbkit.ErrUnavailable, len(retry), stalls)
		}
		if err := ddb.Sleep(ctx, b.Delay(stalls)); err != nil {
			return nil, fmt.Errorf("batch get from %s: %d requests unprocessed: %w", s.t.Name, len(ks), err)
		}
	}
	return found, nil
}

// putNew is ddb.PutNew with the prepared attribute_not_exists condition:
// it writes item unless its key is taken, and recognises its own earlier
// write (an item exactly equal) after a lost response.
func (s *DynamoStore) putNew(ctx context.Context, item ddb.Item) error {
	_, err := s.c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.t.Name, Item: item,
		ConditionExpression: prepNotExists.Condition(), ExpressionAttributeNames: prepNotExists.Names(),
		ExpressionAttributeValues:           prepNotExists.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) && ddb.ItemsEqual(ccf.Item, item) {
		return nil
	}
	return err
}

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
