package wardrobe

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/schema"
)

// DefaultTableName is the seed's table name.
const DefaultTableName = "WardrobeTable"

// The attributes of the table's keys and of its GSIs' keys. The seed names
// statusListPk; it leaves the sort key attributes unnamed, and these names
// say which GSI each one feeds. HistoryByDate is partitioned by the table's
// own PK, whose value for a history is already the seed's W#<id>#HIST, so it
// needs no copy of it; only histories carry dateSk, so only they are in it.
const (
	AttrPK           = "PK"
	AttrSK           = "SK"
	AttrStatusListPK = "statusListPk" // W#<wardrobeId>#<CLOTH|TPL>#<ACTIVE|DELETED>
	AttrCreatedAtSK  = "createdAtSk"  // CREATED#<13-digit ms>#<id>
	AttrWearCountSK  = "wearCountSk"  // WEAR#<10-digit count>#<id>
	AttrLastWornAtSK = "lastWornAtSk" // LASTWORN#<13-digit ms>#<id>
	AttrDateSK       = "dateSk"       // DATE#<yyyymmdd>#<historyId>
)

// The seed's four GSIs. Each projects all attributes, because every listing
// shows whole items.
var (
	indexByCreatedAt   = ddb.Index{Name: "StatusListByCreatedAt", PartitionKey: AttrStatusListPK, SortKey: AttrCreatedAtSK}
	indexByWearCount   = ddb.Index{Name: "StatusListByWearCount", PartitionKey: AttrStatusListPK, SortKey: AttrWearCountSK}
	indexByLastWornAt  = ddb.Index{Name: "StatusListByLastWornAt", PartitionKey: AttrStatusListPK, SortKey: AttrLastWornAtSK}
	indexHistoryByDate = ddb.Index{Name: "HistoryByDate", PartitionKey: AttrPK, SortKey: AttrDateSK}
)

func table(name string) ddb.Table {
	return ddb.Table{Name: name, PartitionKey: AttrPK, SortKey: AttrSK}
}

// Definition returns the seed's table design under the given name: String
// keys PK and SK, on-demand billing, and the four GSIs, each projecting all
// attributes. The same value creates the table (CreateTableInput),
// verifies and reconciles an existing one (EnsureTable), and exports a
// CloudFormation resource (schema.Definition.CloudFormation).
func Definition(name string) schema.Definition {
	attrs := []string{AttrPK, AttrSK, AttrStatusListPK, AttrCreatedAtSK, AttrWearCountSK, AttrLastWornAtSK, AttrDateSK}
	defs := make([]types.AttributeDefinition, len(attrs))
	for i, a := range attrs {
		defs[i] = types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS}
	}
	in := &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: defs,
		KeySchema:            keySchema(AttrPK, AttrSK),
	}
	for _, ix := range []ddb.Index{indexByCreatedAt, indexByWearCount, indexByLastWornAt, indexHistoryByDate} {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName:  aws.String(ix.Name),
			KeySchema:  keySchema(ix.PartitionKey, ix.SortKey),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		})
	}
	return schema.Definition{Input: in}
}

// CreateTableInput returns Definition(name).CreateTableInput(): the input
// that creates the table.
func CreateTableInput(name string) *dynamodb.CreateTableInput {
	return Definition(name).CreateTableInput()
}

func keySchema(pk, sk string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange},
	}
}

// EnsureTable makes the table named name match Definition(name) with
// schema.Ensure, and returns the changes made: it creates a missing table,
// with the four GSIs, and waits until it is ACTIVE. On an existing table
// (the seed's app's, say, which belongs to its stack) it verifies the keys
// and the four GSIs: a missing GSI is a pending change, and with
// schema.Apply each one is added instead, one UpdateTable per GSI, waiting
// until it is ACTIVE. It never deletes anything, nor changes a key or a GSI
// that exists, so it is safe to call at every start; pass schema.PlanOnly to
// only report what it would do.
//
// It returns ErrSchemaMismatch (a *ddbkit.SchemaMismatchError listing every
// difference) for a GSI missing without schema.Apply, and for a table whose
// keys, or whose GSIs of the seed's names, have other key attributes or
// another projection (such as a StatusListByWearCount sorted by an
// attribute other than wearCountSk), which cannot serve this package's
// listings; it then changes nothing. It returns ErrUnavailable when
// DynamoDB cannot be reached or the context ends.
func EnsureTable(ctx context.Context, c ddbkit.SchemaClient, name string, optFns ...func(*schema.Options)) ([]schema.Change, error) {
	changes, err := schema.Ensure(ctx, c, Definition(name), optFns...)
	return changes, wrap("ensure table", err)
}
