package ddb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// EnsureTable creates the table in unless a table of that name exists, then
// waits until it is ACTIVE. An existing table is left as it is. Two callers
// racing to create the table both succeed.
func EnsureTable(ctx context.Context, c ddbkit.SchemaClient, in *dynamodb.CreateTableInput) error {
	name := aws.ToString(in.TableName)
	_, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: in.TableName})
	var missing *types.ResourceNotFoundException
	switch {
	case errors.As(err, &missing):
		_, err = c.CreateTable(ctx, in)
		var inUse *types.ResourceInUseException
		if err != nil && !errors.As(err, &inUse) {
			return fmt.Errorf("create table %s: %w", name, err)
		}
	case err != nil:
		return fmt.Errorf("describe table %s: %w", name, err)
	}
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 100 * time.Millisecond
		o.MaxDelay = 2 * time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: in.TableName}, 5*time.Minute); err != nil {
		return fmt.Errorf("wait for table %s: %w", name, err)
	}
	return nil
}
