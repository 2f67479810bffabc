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
	AttrGSI2PK = "GSI2PK"
	AttrGSI2SK = "GSI2SK"
	AttrGSI3PK = "GSI3PK"
	AttrGSI3SK = "GSI3SK"
	// AttrTTL is the TTL attribute: epoch seconds, set on archived fridge
	// items only.
	AttrTTL = "ttl"
)

// indexGSI1 is the seed's GSI1, the reverse lookup of an entity by its ID:
// GSI1PK = ENTITY#<type>#<id>, GSI1SK = OWNER#<userId> (or PUBLIC#, for the
// catalog). It projects all attributes, as the seed's stack has it.
var indexGSI1 = ddb.Index{Name: "GSI1", PartitionKey: AttrGSI1PK, SortKey: AttrGSI1SK}

// indexGSI2 is the seed's GSI2, the catalog lists: GSI2PK =
// CATALOG#<RECIPE|SET>, GSI2SK = SORT#NEWEST#<createdAt>#<id> on the
// catalog item and SORT#POPULAR#<savedCount, 10 digits>#<id> on the
// creator's copy (see the package doc). All attributes.
var indexGSI2 = ddb.Index{Name: "GSI2", PartitionKey: AttrGSI2PK, SortKey: AttrGSI2SK}

// indexGSI3 is the seed's GSI3, the catalog by creator: GSI3PK =
// CREATOR#<creatorId>#<RECIPE|SET>, GSI3SK = CREATED#<createdAt>#<id>, on
// the creator's copy. All attributes.
var indexGSI3 = ddb.Index{Name: "GSI3", PartitionKey: AttrGSI3PK, SortKey: AttrGSI3SK}

func table(name string) ddb.Table {
	return ddb.Table{Name: name, PartitionKey: AttrPK, SortKey: AttrSK}
}

// Definition returns the seed's table under the given name: String keys PK
// and SK, on-demand billing, server-side encryption enabled, TTL on
// AttrTTL, and the indexes the options enable (Options.EnableGSI1, on by
// default; EnableGSI2 and EnableGSI3, off by default, as in the seed's
// stack). Options.TableName is ignored: name is the table's. The same value
// creates the table (CreateTableInput), verifies and reconciles an
// existing one (EnsureTable), and exports a
// CloudFormation resource (schema.Definition.CloudFormation).
func Definition(name string, optFns ...func(*Options)) schema.Definition {
	o := newOptions(optFns)
	attrs := []string{AttrPK, AttrSK}
	var gsis []types.GlobalSecondaryIndex
	for _, ix := range []struct {
		on bool
		ix ddb.Index
	}{{o.EnableGSI1, indexGSI1}, {o.EnableGSI2, indexGSI2}, {o.EnableGSI3, indexGSI3}} {
		if !ix.on {
			continue
		}
		attrs = append(attrs, ix.ix.PartitionKey, ix.ix.SortKey)
		gsis = append(gsis, types.GlobalSecondaryIndex{
			IndexName:  aws.String(ix.ix.Name),
			KeySchema:  keySchema(ix.ix.PartitionKey, ix.ix.SortKey),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		})
	}
	defs := make([]types.AttributeDefinition, len(attrs))
	for i, a := range attrs {
		defs[i] = types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS}
	}
	return schema.Definition{
		Input: &dynamodb.CreateTableInput{
			TableName:              aws.String(name),
			BillingMode:            types.BillingModePayPerRequest,
			AttributeDefinitions:   defs,
			KeySchema:              keySchema(AttrPK, AttrSK),
			SSESpecification:       &types.SSESpecification{Enabled: aws.Bool(true)},
			GlobalSecondaryIndexes: gsis,
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

// CreateTableInput returns Definition(name, optFns...).CreateTableInput():
// the input that creates the table.
func CreateTableInput(name string, optFns ...func(*Options)) *dynamodb.CreateTableInput {
	return Definition(name, optFns...).CreateTableInput()
}

// EnsureTable makes the table named name match Definition(name, optFns...)
// with schema.Ensure, and returns the changes made: it creates a missing
// table, with TTL and the indexes the options enable, and waits until it is
// ACTIVE. Unlike the other domains' EnsureTable, which take
// ...func(*schema.Options), it takes the store's options, because the
// indexes it creates and verifies depend on Options.EnableGSI1 (on by
// default), EnableGSI2 and EnableGSI3: pass it the options given to
// NewDynamoStore (AllIndexes, say), and schema's options, such as
// schema.PlanOnly, through SchemaOptions. Options.TableName is ignored:
// name is the table's.
//
// On an existing table (the seed's app's, say, whose stack rolls out GSI2
// and GSI3 as the seed's section 10 says) it verifies the keys, the
// indexes the options enable and TTL: an enabled index the table lacks,
// and missing TTL, are pending changes, and with SchemaOptions(schema.Apply)
// each such index is added instead, with its own UpdateTable, waiting until
// it is ACTIVE and backfilled before the next (enabling GSI2, then later
// GSI3, is one table update each), and TTL is enabled. It never deletes
// anything, an index the options leave out included (a table may be ahead
// of the code), so it is safe to call at every start; pass
// SchemaOptions(schema.PlanOnly) to only report what it would do.
//
// It returns ErrSchemaMismatch (a *ddbkit.SchemaMismatchError listing every
// difference) for an enabled index missing without schema.Apply, and for a
// table whose keys or indexes have other key attributes, which cannot serve
// this package; it then changes nothing. It returns ErrUnavailable when
// DynamoDB cannot be reached or the context ends.
func EnsureTable(ctx context.Context, c ddbkit.SchemaClient, name string, optFns ...func(*Options)) ([]schema.Change, error) {
	o := newOptions(optFns)
	changes, err := schema.Ensure(ctx, c, Definition(name, optFns...), o.schema...)
	return changes, wrap("ensure table", err)
}

// SchemaOptions returns an option that passes optFns to schema.Ensure when
// EnsureTable reconciles the table. Unlike the other domains' EnsureTable,
// which take schema's options directly, kondate's takes the store's options,
// because its indexes depend on Options.EnableGSI1 to EnableGSI3; schema's
// options ride along in this one. For example, to only report what
// EnsureTable would do:
//
//	kondate.EnsureTable(ctx, c, "MainTable", kondate.AllIndexes, kondate.SchemaOptions(schema.PlanOnly))
//
// Stores ignore it.
func SchemaOptions(optFns ...func(*schema.Options)) func(*Options) {
	return func(o *Options) { o.schema = append(o.schema, optFns...) }
}
