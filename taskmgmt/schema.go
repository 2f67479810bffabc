package taskmgmt

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/schema"
)

// DefaultTableName is the seed's table name.
const DefaultTableName = "task-table-v3"

// The attributes of the table's keys and of its GSIs' keys, by the seed's
// names.
const (
	AttrPK           = "PK"
	AttrSK           = "SK"
	AttrStatusGroup1 = "status_group1"
	AttrStatusGroup2 = "status_group2"
	AttrStatusGroup3 = "status_group3"
	AttrStartSortSK  = "start_sort_sk"
	AttrEndSortSK    = "end_sort_sk"
	AttrExpiresAt    = "expiresAt" // the TTL attribute of daily counters
)

// The seed's nine GSIs, each projecting all attributes.
var (
	indexInvert      = ddb.Index{Name: "GSI_Invert", PartitionKey: AttrSK, SortKey: AttrPK}
	indexStartAll    = ddb.Index{Name: "GSI_Status_Start_Sort_All", PartitionKey: AttrPK, SortKey: AttrStartSortSK}
	indexEndAll      = ddb.Index{Name: "GSI_Status_End_Sort_All", PartitionKey: AttrPK, SortKey: AttrEndSortSK}
	indexStartGroup1 = ddb.Index{Name: "GSI_Status_Start_Sort_Group1", PartitionKey: AttrStatusGroup1, SortKey: AttrStartSortSK}
	indexEndGroup1   = ddb.Index{Name: "GSI_Status_End_Sort_Group1", PartitionKey: AttrStatusGroup1, SortKey: AttrEndSortSK}
	indexStartGroup2 = ddb.Index{Name: "GSI_Status_Start_Sort_Group2", PartitionKey: AttrStatusGroup2, SortKey: AttrStartSortSK}
	indexEndGroup2   = ddb.Index{Name: "GSI_Status_End_Sort_Group2", PartitionKey: AttrStatusGroup2, SortKey: AttrEndSortSK}
	indexStartGroup3 = ddb.Index{Name: "GSI_Status_Start_Sort_Group3", PartitionKey: AttrStatusGroup3, SortKey: AttrStartSortSK}
	indexEndGroup3   = ddb.Index{Name: "GSI_Status_End_Sort_Group3", PartitionKey: AttrStatusGroup3, SortKey: AttrEndSortSK}
)

// indexes lists the nine GSIs in the seed's order.
var indexes = []ddb.Index{indexInvert, indexStartAll, indexEndAll, indexStartGroup1, indexEndGroup1,
	indexStartGroup2, indexEndGroup2, indexStartGroup3, indexEndGroup3}

// Capacity is the seed's provisioned throughput, used for the table and,
// where the seed is silent, for each GSI as well: a GSI that receives every
// task write needs the table's write capacity, or it throttles the table.
const Capacity = 5

func table(name string) ddb.Table {
	return ddb.Table{Name: name, PartitionKey: AttrPK, SortKey: AttrSK}
}

// Definition returns the seed's table: String keys PK and SK, the nine
// GSIs projecting all attributes, provisioned at 5 RCU / 5 WCU (the table
// and each GSI), and TTL on expiresAt. See OnDemandDefinition for
// on-demand billing.
func Definition(name string) schema.Definition {
	throughput := func() *types.ProvisionedThroughput {
		return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(Capacity), WriteCapacityUnits: aws.Int64(Capacity)}
	}
	attrs := []string{AttrPK, AttrSK, AttrStatusGroup1, AttrStatusGroup2, AttrStatusGroup3, AttrStartSortSK, AttrEndSortSK}
	defs := make([]types.AttributeDefinition, len(attrs))
	for i, a := range attrs {
		defs[i] = types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS}
	}
	in := &dynamodb.CreateTableInput{
		TableName:             aws.String(name),
		BillingMode:           types.BillingModeProvisioned,
		ProvisionedThroughput: throughput(),
		AttributeDefinitions:  defs,
		KeySchema:             keySchema(AttrPK, AttrSK),
	}
	for _, ix := range indexes {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName:             aws.String(ix.Name),
			KeySchema:             keySchema(ix.PartitionKey, ix.SortKey),
			Projection:            &types.Projection{ProjectionType: types.ProjectionTypeAll},
			ProvisionedThroughput: throughput(),
		})
	}
	return schema.Definition{Input: in, TTLAttribute: AttrExpiresAt}
}

// OnDemandDefinition is Definition with on-demand (pay per request)
// billing instead of provisioned capacity.
func OnDemandDefinition(name string) schema.Definition {
	d := Definition(name)
	d.Input.BillingMode = types.BillingModePayPerRequest
	d.Input.ProvisionedThroughput = nil
	for i := range d.Input.GlobalSecondaryIndexes {
		d.Input.GlobalSecondaryIndexes[i].ProvisionedThroughput = nil
	}
	return d
}

// CreateTableInput returns Definition(name).CreateTableInput().
func CreateTableInput(name string) *dynamodb.CreateTableInput {
	return Definition(name).CreateTableInput()
}

func keySchema(pk, sk string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange},
	}
}

// EnsureTable creates the table named name from Definition, or verifies an
// existing one, with schema.Ensure, and returns the changes made or
// pending. On an existing table a missing GSI is ErrSchemaMismatch naming
// it, and missing TTL a pending change; with schema.Apply it adds them
// instead (GSIs one at a time). It fails with ErrSchemaMismatch for
// differences it cannot add; other errors, DynamoDB's own and a
// context's end, match ErrUnavailable. Errors start with "taskmgmt:
// ensure table:".
func EnsureTable(ctx context.Context, c ddbkit.SchemaClient, name string, optFns ...func(*schema.Options)) ([]schema.Change, error) {
	changes, err := schema.Ensure(ctx, c, Definition(name), optFns...)
	return changes, wrap("ensure table", err)
}

// DefaultInvitationTableName is the seed's invitation table.
const DefaultInvitationTableName = "task-table-invitation-v3"

// InvitationCapacity is the seed's provisioned throughput of the
// invitation table.
const InvitationCapacity = 1

// InvitationDefinition returns the seed's invitation table: String keys
// PK (TEAM#<teamId>) and SK (TINVITE#<inviteId>), no GSI, provisioned at
// 1 RCU / 1 WCU, TTL on expiresAt, and a stream of new images, which
// StreamHandler reads. See OnDemandInvitationDefinition for on-demand
// billing.
func InvitationDefinition(name string) schema.Definition {
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{
			ReadCapacityUnits: aws.Int64(InvitationCapacity), WriteCapacityUnits: aws.Int64(InvitationCapacity)},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(AttrPK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(AttrSK), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema:           keySchema(AttrPK, AttrSK),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	}
	return schema.Definition{Input: in, TTLAttribute: AttrExpiresAt}
}

// OnDemandInvitationDefinition is InvitationDefinition with on-demand
// billing.
func OnDemandInvitationDefinition(name string) schema.Definition {
	d := InvitationDefinition(name)
	d.Input.BillingMode = types.BillingModePayPerRequest
	d.Input.ProvisionedThroughput = nil
	return d
}

// CreateInvitationTableInput returns InvitationDefinition(name).CreateTableInput().
func CreateInvitationTableInput(name string) *dynamodb.CreateTableInput {
	return InvitationDefinition(name).CreateTableInput()
}

// EnsureInvitationTable creates the invitation table named name from
// InvitationDefinition, or verifies an existing one, with schema.Ensure,
// and returns the changes made or pending: a missing stream of new images
// is ErrSchemaMismatch, missing TTL on expiresAt a pending change, unless
// schema.Apply enables them. A stream of both images
// serves the handler as well as one of new images, and is left as it is.
// It fails with ErrSchemaMismatch for differences it cannot add, such as a
// stream of keys or old images only; other errors, DynamoDB's own and a
// context's end, match ErrUnavailable. Errors start with "taskmgmt:
// ensure invitation table:".
func EnsureInvitationTable(ctx context.Context, c ddbkit.SchemaClient, name string, optFns ...func(*schema.Options)) ([]schema.Change, error) {
	changes, err := schema.Ensure(ctx, c, InvitationDefinition(name), optFns...)
	return changes, wrap("ensure invitation table", err)
}

// EventSourceMapping is the event source mapping that subscribes a Lambda
// function running StreamHandler to the invitation table's stream. Its
// fields are AWS::Lambda::EventSourceMapping's properties of the same
// names, except FilterPattern, the one pattern of FilterCriteria. The
// function, the stream and the on-failure destination are the
// deployment's, and CloudFormation takes them.
type EventSourceMapping struct {
	// StartingPosition is where a new mapping starts reading the stream.
	StartingPosition string
	// BatchSize is the most records per invocation.
	BatchSize int
	// FunctionResponseTypes must hold ReportBatchItemFailures: without it
	// Lambda ignores Handle's response and checkpoints the whole batch.
	FunctionResponseTypes []string
	// BisectBatchOnFunctionError splits a batch whose invocation failed as
	// a whole.
	BisectBatchOnFunctionError bool
	// MaximumRetryAttempts bounds the retries of a failing record (-1, the
	// default, retries it until it leaves the stream).
	MaximumRetryAttempts int
	// MaximumRecordAgeInSeconds bounds how old a record Lambda still hands
	// the function (-1 for the stream's 24 hours).
	MaximumRecordAgeInSeconds int
	// FilterPattern keeps only the records Handle may mail.
	FilterPattern string
}

// InvitationStreamMapping returns the event source mapping StreamHandler
// needs, whose choices the package doc explains ("The stream handler on
// Lambda"): it starts at LATEST, reports batch item failures, does not
// bisect, bounds the retries of a failing record and its age (within
// DefaultInvitationLifetime: an expired invitation is not mailed anyway),
// and hands the function INSERT and REMOVE records only (a REMOVE tells
// StreamHandler not to mail an INSERT of its batch that it deletes, see
// StreamHandler.Handle). ddbkit export taskmgmt
// emits it, as CloudFormation, beside the tables.
func InvitationStreamMapping() EventSourceMapping {
	return EventSourceMapping{
		StartingPosition:           "LATEST",
		BatchSize:                  100,
		FunctionResponseTypes:      []string{"ReportBatchItemFailures"},
		BisectBatchOnFunctionError: false,
		MaximumRetryAttempts:       10,
		MaximumRecordAgeInSeconds:  3600,
		FilterPattern:              `{"eventName":["INSERT","REMOVE"]}`,
	}
}

// CloudFormation returns m as an AWS::Lambda::EventSourceMapping resource,
// indented JSON of the form {"Type": ..., "Properties": {...}}, ready to go
// under a template's Resources. functionName (the function's name or
// ARN), eventSourceArn (the stream's ARN) and onFailureDestination (an
// SQS queue's or SNS topic's ARN) go into it as given: strings, or
// intrinsic functions such as map[string]any{"Ref": "MailerFunction"} or
// map[string]any{"Fn::GetAtt": []string{"InvitationTable", "StreamArn"}}.
// A nil onFailureDestination leaves DestinationConfig out.
func (m EventSourceMapping) CloudFormation(functionName, eventSourceArn, onFailureDestination any) ([]byte, error) {
	type (
		destination  struct{ Destination any }
		destinations struct{ OnFailure destination }
		filter       struct{ Pattern string }
		criteria     struct{ Filters []filter }
		properties   struct {
			FunctionName               any
			EventSourceArn             any
			StartingPosition           string
			BatchSize                  int `json:",omitempty"`
			FunctionResponseTypes      []string
			BisectBatchOnFunctionError bool
			MaximumRetryAttempts       int
			MaximumRecordAgeInSeconds  int
			DestinationConfig          *destinations `json:",omitempty"`
			FilterCriteria             *criteria     `json:",omitempty"`
		}
	)
	if functionName == nil || eventSourceArn == nil {
		return nil, fmt.Errorf("taskmgmt: CloudFormation of the event source mapping: the function and the event source are required: %w", ddbkit.ErrInvalidArgument)
	}
	p := properties{FunctionName: functionName, EventSourceArn: eventSourceArn, StartingPosition: m.StartingPosition,
		BatchSize: m.BatchSize, FunctionResponseTypes: m.FunctionResponseTypes, BisectBatchOnFunctionError: m.BisectBatchOnFunctionError,
		MaximumRetryAttempts: m.MaximumRetryAttempts, MaximumRecordAgeInSeconds: m.MaximumRecordAgeInSeconds}
	if onFailureDestination != nil {
		p.DestinationConfig = &destinations{OnFailure: destination{Destination: onFailureDestination}}
	}
	if m.FilterPattern != "" {
		p.FilterCriteria = &criteria{Filters: []filter{{Pattern: m.FilterPattern}}}
	}
	return json.MarshalIndent(struct {
		Type       string
		Properties properties
	}{"AWS::Lambda::EventSourceMapping", p}, "", "  ")
}
