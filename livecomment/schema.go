package livecomment

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/schema"
)

// TableNames are the names of one environment's three tables.
type TableNames struct {
	Rooms       string // LiveComment-Rooms-{env}
	Comments    string // LiveComment-Comments-{env}
	Connections string // LiveComment-Connections-{env}
}

// Tables returns the seed's table names for the environment env, such as
// "dev" or "prod".
func Tables(env string) TableNames {
	return TableNames{
		Rooms:       "LiveComment-Rooms-" + env,
		Comments:    "LiveComment-Comments-" + env,
		Connections: "LiveComment-Connections-" + env,
	}
}

// envPattern keeps every table name valid: DynamoDB allows letters, digits,
// '_', '-' and '.', up to 255 in all; the longest prefix is 24 long.
var envPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,200}$`)

// CheckEnv returns a *ddbkit.ValidationError for field "Env" (matching
// ddbkit.ErrInvalidArgument) unless env makes valid table names.
func CheckEnv(env string) error {
	if !envPattern.MatchString(env) {
		return ddbkit.Invalid("Env", "must be 1 to 200 letters, digits, '_', '-' or '.', got %q", env)
	}
	return nil
}

func attr(name string) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
}

func key(name string, kt types.KeyType) types.KeySchemaElement {
	return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: kt}
}

// allAttributes projects whole items into an index. The items are small
// (three to six short attributes), so ALL costs little more than KEYS_ONLY
// and a listing needs no GetItem per item.
var allAttributes = &types.Projection{ProjectionType: types.ProjectionTypeAll}

// CreateRoomsTableInput returns the input of CreateTable for env's Rooms
// table: String partition key roomId, the GSI hostId-index (hostId,
// createdAt; all attributes projected), on-demand billing.
func CreateRoomsTableInput(env string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:            aws.String(Tables(env).Rooms),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attr(attrRoomID), attr(attrHostID), attr(attrCreatedAt)},
		KeySchema:            []types.KeySchemaElement{key(attrRoomID, types.KeyTypeHash)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String(HostIDIndex),
			KeySchema:  []types.KeySchemaElement{key(attrHostID, types.KeyTypeHash), key(attrCreatedAt, types.KeyTypeRange)},
			Projection: allAttributes,
		}},
	}
}

// CreateCommentsTableInput returns the input of CreateTable for env's
// Comments table: String partition key roomId and sort key commentId, the
// GSI roomId-createdAt-index (roomId, createdAt; all attributes
// projected), on-demand billing. The sharded comment layout
// (Options.CommentShards) uses the same table.
func CreateCommentsTableInput(env string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:            aws.String(Tables(env).Comments),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attr(attrRoomID), attr(attrCommentID), attr(attrCreatedAt)},
		KeySchema:            []types.KeySchemaElement{key(attrRoomID, types.KeyTypeHash), key(attrCommentID, types.KeyTypeRange)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String(CommentsByTimeIndex),
			KeySchema:  []types.KeySchemaElement{key(attrRoomID, types.KeyTypeHash), key(attrCreatedAt, types.KeyTypeRange)},
			Projection: allAttributes,
		}},
	}
}

// CreateConnectionsTableInput returns the input of CreateTable for env's
// Connections table: String partition key connectionId, the GSI
// roomId-index (roomId only; all attributes projected), on-demand billing.
func CreateConnectionsTableInput(env string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:            aws.String(Tables(env).Connections),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attr(attrConnectionID), attr(attrRoomID)},
		KeySchema:            []types.KeySchemaElement{key(attrConnectionID, types.KeyTypeHash)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String(RoomIDIndex),
			KeySchema:  []types.KeySchemaElement{key(attrRoomID, types.KeyTypeHash)},
			Projection: allAttributes,
		}},
	}
}

// Definitions returns the designs of env's three tables: Rooms, Comments
// and Connections. The same values create the tables, reconcile existing
// ones (EnsureTables) and export them to infrastructure code
// (schema.Definition.CloudFormation).
func Definitions(env string) []schema.Definition {
	return []schema.Definition{{Input: CreateRoomsTableInput(env)}, {Input: CreateCommentsTableInput(env)}, {Input: CreateConnectionsTableInput(env)}}
}

// RoomsTableInput returns CreateRoomsTableInput(env).
//
// Deprecated: use CreateRoomsTableInput, named as every domain's
// CreateTableInput.
func RoomsTableInput(env string) *dynamodb.CreateTableInput { return CreateRoomsTableInput(env) }

// CommentsTableInput returns CreateCommentsTableInput(env).
//
// Deprecated: use CreateCommentsTableInput, named as every domain's
// CreateTableInput.
func CommentsTableInput(env string) *dynamodb.CreateTableInput { return CreateCommentsTableInput(env) }

// ConnectionsTableInput returns CreateConnectionsTableInput(env).
//
// Deprecated: use CreateConnectionsTableInput, named as every domain's
// CreateTableInput.
func ConnectionsTableInput(env string) *dynamodb.CreateTableInput {
	return CreateConnectionsTableInput(env)
}

// CreateTableInputs returns the CreateTableInput of each of Definitions(env).
func CreateTableInputs(env string) []*dynamodb.CreateTableInput {
	ds := Definitions(env)
	ins := make([]*dynamodb.CreateTableInput, len(ds))
	for i, d := range ds {
		ins[i] = d.CreateTableInput()
	}
	return ins
}

// EnsureTables makes env's three tables match Definitions(env) with
// schema.Ensure, all three at once, and returns the changes made, in table
// order: it creates a missing table and waits until it is ACTIVE. It is
// plural, where todo, wardrobe, taskmgmt and kondate have EnsureTable,
// because livecomment has three tables, named from one env. On an
// existing table it only verifies: the seed's app has no hostId-index (it
// scans) and no roomId-createdAt-index, which ListHostRooms and
// ListComments query, so on the app's tables it reports them as pending
// changes and fails with ErrSchemaMismatch naming them; add them in the
// stack (ddbkit export prints them), or pass schema.Apply to add each
// with one UpdateTable, waiting until it is ACTIVE. It never deletes or
// otherwise changes an existing table (deleting is the stack's business),
// so it is safe to call at every start; pass schema.PlanOnly to only
// report what it would do.
//
// It returns ErrInvalidArgument for a bad env, ErrSchemaMismatch (a
// *ddbkit.SchemaMismatchError listing every difference) for a table whose
// keys or indexes differ in a way it cannot add, and ErrUnavailable when
// DynamoDB cannot be reached or the context ends. When several tables
// fail, the error matches the first one's sentinel and names them all.
func EnsureTables(ctx context.Context, c ddbkit.SchemaClient, env string, optFns ...func(*schema.Options)) ([]schema.Change, error) {
	const op = "ensure tables"
	if err := CheckEnv(env); err != nil {
		return nil, wrap(op, err)
	}
	ds := Definitions(env)
	changes := make([][]schema.Change, len(ds))
	errs := make([]error, len(ds))
	var wg sync.WaitGroup
	for i, d := range ds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			changes[i], errs[i] = schema.Ensure(ctx, c, d, optFns...)
		}()
	}
	wg.Wait()
	var (
		all    []schema.Change
		first  error
		others []string
	)
	for i := range ds {
		all = append(all, changes[i]...)
		switch {
		case errs[i] == nil:
		case first == nil:
			first = errs[i]
		default:
			others = append(others, errs[i].Error())
		}
	}
	if len(others) > 0 {
		first = fmt.Errorf("%w; and %s", ddb.Classify(first), strings.Join(others, "; and "))
	}
	return all, wrap(op, first)
}
