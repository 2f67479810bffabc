package ddb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
)

// GetItem reads the item at key, consistently, so that a store sees its
// own writes as its memory twin does. It returns nil when there is no such
// item. The conditional writes are PutItemPrepared, UpdateItemPrepared,
// DeleteItemPrepared and PutNew.
func GetItem(ctx context.Context, c ddbkit.Client, t Table, key Item) (Item, error) {
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.Name), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}
