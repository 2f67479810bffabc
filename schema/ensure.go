package schema

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

// TODO(schema helper): reconcile an existing table. This first version only
// creates a missing one.
func ensure(ctx context.Context, c ddbkit.SchemaClient, d Definition, optFns []func(*Options)) ([]Change, error) {
	var o Options
	for _, fn := range optFns {
		fn(&o)
	}
	in := d.CreateTableInput()
	name := aws.ToString(in.TableName)
	_, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: in.TableName})
	var missing *types.ResourceNotFoundException
	var changes []Change
	switch {
	case errors.As(err, &missing):
		changes = append(changes, Change{Table: name, Action: "create table"})
		if o.PlanOnly {
			return changes, nil
		}
		_, err = c.CreateTable(ctx, in)
		var inUse *types.ResourceInUseException
		if err != nil && !errors.As(err, &inUse) {
			return nil, fmt.Errorf("create table %s: %w", name, err)
		}
	case err != nil:
		return nil, fmt.Errorf("describe table %s: %w", name, err)
	}
	w := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 100 * time.Millisecond
		o.MaxDelay = 2 * time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: in.TableName}, 5*time.Minute); err != nil {
		return changes, fmt.Errorf("wait for table %s: %w", name, err)
	}
	return changes, nil
}

// CreateTableInput returns a copy of d.Input that the caller may change.
func (d Definition) CreateTableInput() *dynamodb.CreateTableInput {
	in := *d.Input
	return &in
}
