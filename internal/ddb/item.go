package ddb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// The single-item calls every domain store makes. Reads are strongly
// consistent, so a store sees its own writes as its memory twin does; writes
// are conditional, and a failed condition matches IsConditionFailed.

// GetItem reads the item at key, consistently. It returns nil when there is
// no such item.
func GetItem(ctx context.Context, c ddbkit.Client, t Table, key Item) (Item, error) {
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.Name), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

// PutItem writes item if cond holds. When cond fails, the
// *types.ConditionalCheckFailedException holds the item as it was.
func PutItem(ctx context.Context, c ddbkit.Client, t Table, item Item, cond expression.ConditionBuilder) error {
	e, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return err
	}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(t.Name), Item: item,
		ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	return err
}

// UpdateItem applies upd to the item at key if cond holds, and returns the
// attributes rv asks for. When cond fails, the
// *types.ConditionalCheckFailedException holds the item as it was.
func UpdateItem(ctx context.Context, c ddbkit.Client, t Table, key Item, upd expression.UpdateBuilder, cond expression.ConditionBuilder, rv types.ReturnValue) (Item, error) {
	e, err := expression.NewBuilder().WithUpdate(upd).WithCondition(cond).Build()
	if err != nil {
		return nil, err
	}
	out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(t.Name), Key: key,
		UpdateExpression: e.Update(), ConditionExpression: e.Condition(),
		ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(), ReturnValues: rv,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}

// DeleteItem deletes the item at key if cond holds.
func DeleteItem(ctx context.Context, c ddbkit.Client, t Table, key Item, cond expression.ConditionBuilder) error {
	e, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return err
	}
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(t.Name), Key: key,
		ConditionExpression: e.Condition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values()})
	return err
}

// Unchanged is the condition that the item at t's key exists and that each
// of attrs still holds the value it has in item as read, or is still
// missing where item has none. It compares the stored values, not decoded
// ones, so it holds for whatever form another writer stored (a Number
// written "5.0", an attribute only ddbkit writes and the other writer
// never set). A write built from item then commits only on the item it
// read: the read-modify-write of every domain, safe beside writers that
// know nothing of ddbkit.
func Unchanged(t Table, item Item, attrs ...string) expression.ConditionBuilder {
	c := expression.AttributeExists(expression.Name(t.PartitionKey))
	for _, a := range attrs {
		n := expression.Name(a)
		if v, ok := item[a]; ok {
			c = c.And(expression.Equal(n, expression.Value(v)))
		} else {
			c = c.And(expression.AttributeNotExists(n))
		}
	}
	return c
}
