package todo

import (
	"context"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
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

// CreateTableInput returns the seed's table definition: String keys pk and
// sk, on-demand billing, no secondary index.
func CreateTableInput(name string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
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
	}
}

// EnsureTable creates the table named name unless it exists, and waits until
// it is ACTIVE. It never modifies or deletes an existing table, so it is safe
// to call at every start.
func EnsureTable(ctx context.Context, c ddbkit.SchemaClient, name string) error {
	return ddb.EnsureTable(ctx, c, CreateTableInput(name))
}
