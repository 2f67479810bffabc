package ddbtest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/ddbtest"
)

// TestCapacityClient: DynamoDB Local reports consumed capacity as the
// service prices it: a write of up to 1 KB is 1 WCU, a strongly consistent
// read of up to 4 KB 1 RCU, an eventually consistent one half that, and a
// larger item more.
func TestCapacityClient(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := ddbtest.NewTable(t, ddb, pkSK("ddbtest-capacity"))
	c := ddbtest.NewCapacityClient(ddb)

	small := key("user#1", "small")
	big := key("user#1", "big")
	big["blob"] = &types.AttributeValueMemberS{Value: strings.Repeat("x", 5000)}
	for _, tc := range []struct {
		name string
		call func() error
		want ddbtest.Capacity
	}{
		{"put small", func() error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: small})
			return err
		}, ddbtest.Capacity{Write: 1}},
		{"put 5 KB", func() error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: big})
			return err
		}, ddbtest.Capacity{Write: 5}},
		{"strong get", func() error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key("user#1", "small"), ConsistentRead: aws.Bool(true)})
			return err
		}, ddbtest.Capacity{Read: 1}},
		{"eventual get", func() error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key("user#1", "small")})
			return err
		}, ddbtest.Capacity{Read: 0.5}},
		{"strong get 5 KB", func() error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key("user#1", "big"), ConsistentRead: aws.Bool(true)})
			return err
		}, ddbtest.Capacity{Read: 2}},
	} {
		c.CheckBudget(t, tc.name, tc.want, tc.call)
	}
}
