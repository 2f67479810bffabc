package todo

import (
	"context"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/schema"
)

// DefaultTableName is the seed's table name, used when DYNAMODB_TABLE is not
// set.
const DefaultTableName = "wambda-table-ssr001"

// TableName returns $DYNAMODB_TABLE, or DefaultTableName when it is unset or
// empty, as the seed specifies.
func TableName() string {
	if n := os.Getenv("DYNAMODB_TABLE"); n != "" {
		return n
	}
	return DefaultTableName
}

// The key attributes, lowercase as in the seed.
const (
	AttrPK = "pk"
	AttrSK = "sk"
)

func table(name string) ddb.Table {
	return ddb.Table{Name: name, PartitionKey: AttrPK, SortKey: AttrSK}
}

// Definition returns the seed's table design for a table named name: String
// keys pk and sk, on-demand billing, no secondary index, no TTL, no stream.
// The same value creates the table (CreateTableInput), verifies and
// reconciles an existing one (EnsureTable), and exports it for
// infrastructure code (its CloudFormation method).
func Definition(name string) schema.Definition {
	return schema.Definition{Input: &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(AttrPK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(AttrSK), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(AttrPK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(AttrSK), KeyType: types.KeyTypeRange},
		},
	}}
}

// CreateTableInput returns Definition(name).CreateTableInput(): the input
// of CreateTable for the seed's table.
func CreateTableInput(name string) *dynamodb.CreateTableInput {
	return Definition(name).CreateTableInput()
}

// EnsureTable makes the table named name match Definition(name) with
// schema.Ensure, and returns the changes made: it creates a missing table
// and waits until it is ACTIVE. The seed's table has no index, TTL or
// stream, so on an existing table it only verifies the key schema, and
// notes (schema.ActionNote) a billing mode or capacity other than the
// seed's. It never changes an existing table, so it is safe to call at
// every start; pass schema.PlanOnly to only report what it would do.
//
// It returns ErrSchemaMismatch (a *ddbkit.SchemaMismatchError listing every
// difference) for a table with other keys, and ErrUnavailable when
// DynamoDB cannot be reached or the context ends.
func EnsureTable(ctx context.Context, c ddbkit.SchemaClient, name string, optFns ...func(*schema.Options)) ([]schema.Change, error) {
	changes, err := schema.Ensure(ctx, c, Definition(name), optFns...)
	return changes, wrap("ensure table", err)
}
