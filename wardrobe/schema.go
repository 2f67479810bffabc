package wardrobe

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
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
	IndexByCreatedAt   = ddb.Index{Name: "StatusListByCreatedAt", PartitionKey: AttrStatusListPK, SortKey: AttrCreatedAtSK}
	IndexByWearCount   = ddb.Index{Name: "StatusListByWearCount", PartitionKey: AttrStatusListPK, SortKey: AttrWearCountSK}
	IndexByLastWornAt  = ddb.Index{Name: "StatusListByLastWornAt", PartitionKey: AttrStatusListPK, SortKey: AttrLastWornAtSK}
	IndexHistoryByDate = ddb.Index{Name: "HistoryByDate", PartitionKey: AttrPK, SortKey: AttrDateSK}
)

func table(name string) ddb.Table {
	return ddb.Table{Name: name, PartitionKey: AttrPK, SortKey: AttrSK}
}

// CreateTableInput returns the seed's table definition: String keys PK and
// SK, on-demand billing, and the four GSIs, each projecting all attributes.
func CreateTableInput(name string) *dynamodb.CreateTableInput {
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
	for _, ix := range []ddb.Index{IndexByCreatedAt, IndexByWearCount, IndexByLastWornAt, IndexHistoryByDate} {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName:  aws.String(ix.Name),
			KeySchema:  keySchema(ix.PartitionKey, ix.SortKey),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		})
	}
	return in
}

func keySchema(pk, sk string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange},
	}
}

// EnsureTable creates the table named name unless it exists, and waits until
// it is ACTIVE. It never modifies or deletes an existing table, so it is safe
// to call at every start.
func EnsureTable(ctx context.Context, c ddbkit.SchemaClient, name string) error {
	return ddb.EnsureTable(ctx, c, CreateTableInput(name))
}
