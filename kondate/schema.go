package kondate

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/schema"
)

// The key attributes, as the seed names them.
const (
	AttrPK     = "PK"
	AttrSK     = "SK"
	AttrGSI1PK = "GSI1PK"
	AttrGSI1SK = "GSI1SK"
	// AttrTTL is the TTL attribute: epoch seconds, set on archived fridge
	// items only.
	AttrTTL = "ttl"
)

// IndexGSI1 is the seed's GSI1, the reverse lookup of an entity by its ID:
// GSI1PK = ENTITY#<type>#<id>, GSI1SK = OWNER#<userId> (or PUBLIC#, for the
// catalog). It projects all attributes, as the seed's stack has it.
var IndexGSI1 = ddb.Index{Name: "GSI1", PartitionKey: AttrGSI1PK, SortKey: AttrGSI1SK}

func table(name string) ddb.Table {
	return ddb.Table{Name: name, PartitionKey: AttrPK, SortKey: AttrSK}
}

// Definition returns the seed's table under the given name: String keys PK
// and SK, on-demand billing, server-side encryption enabled, GSI1 (on by
// default in the seed's stack; GSI2 and GSI3 come with the catalog, one
// table update each) and TTL on AttrTTL. The same value creates the table
// (CreateTableInput), verifies and reconciles an existing one
// (EnsureTable), and exports a CloudFormation resource
// (schema.Definition.CloudFormation).
func Definition(name string) schema.Definition {
	attrs := []string{AttrPK, AttrSK, AttrGSI1PK, AttrGSI1SK}
	defs := make([]types.AttributeDefinition, len(attrs))
	for i, a := range attrs {
		defs[i] = types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS}
	}
	return schema.Definition{
		Input: &dynamodb.CreateTableInput{
			TableName:            aws.String(name),
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: defs,
			KeySchema:            keySchema(AttrPK, AttrSK),
			SSESpecification:     &types.SSESpecification{Enabled: aws.Bool(true)},
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
				IndexName:  aws.String(IndexGSI1.Name),
				KeySchema:  keySchema(AttrGSI1PK, AttrGSI1SK),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
			}},
		},
		TTLAttribute: AttrTTL,
	}
}

func keySchema(pk, sk string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange},
	}
}

// CreateTableInput returns Definition(name).CreateTableInput(): the input
// that creates the table.
func CreateTableInput(name string) *dynamodb.CreateTableInput {
	return Definition(name).CreateTableInput()
}

// EnsureTable makes the table named name match Definition(name), with
// schema.Ensure, and returns the changes it made. A missing table is
// created; on an existing one (the seed's app's table, say) a missing GSI1
// is added, waiting until it is ACTIVE, and TTL is enabled. A table whose
// keys or GSI1 have other key attributes cannot serve this package:
// EnsureTable then fails with ddbkit.ErrSchemaMismatch (a
// *ddbkit.SchemaMismatchError listing every difference) and changes
// nothing. It never deletes anything, so it is safe to call at every
// start; schema.PlanOnly reports the changes without making them. Other
// errors match ddbkit.ErrUnavailable.
func EnsureTable(ctx context.Context, c ddbkit.SchemaClient, name string, optFns ...func(*schema.Options)) ([]schema.Change, error) {
	changes, err := schema.Ensure(ctx, c, Definition(name), optFns...)
	return changes, wrap("ensure table", err)
}
