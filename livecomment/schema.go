package livecomment

import (
	"context"
	"errors"
	"regexp"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
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

// RoomsTableInput returns the Rooms table: String partition key roomId, the
// GSI hostId-index (hostId, createdAt; all attributes projected), on-demand
// billing.
func RoomsTableInput(env string) *dynamodb.CreateTableInput {
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

// CommentsTableInput returns the Comments table: String partition key roomId
// and sort key commentId, on-demand billing.
func CommentsTableInput(env string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:            aws.String(Tables(env).Comments),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attr(attrRoomID), attr(attrCommentID)},
		KeySchema:            []types.KeySchemaElement{key(attrRoomID, types.KeyTypeHash), key(attrCommentID, types.KeyTypeRange)},
	}
}

// ConnectionsTableInput returns the Connections table: String partition key
// connectionId, the GSI roomId-index (roomId only; all attributes
// projected), on-demand billing.
func ConnectionsTableInput(env string) *dynamodb.CreateTableInput {
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

// CreateTableInputs returns the definitions of env's three tables: Rooms,
// Comments and Connections.
func CreateTableInputs(env string) []*dynamodb.CreateTableInput {
	return []*dynamodb.CreateTableInput{RoomsTableInput(env), CommentsTableInput(env), ConnectionsTableInput(env)}
}

// EnsureTables creates whichever of env's three tables do not exist, and
// waits until all are ACTIVE. It never modifies or deletes an existing
// table, so it is safe to call at every start. (The seed's stacks delete
// dev tables with the stack and retain prod tables; deleting is left to
// whoever owns the stack.) It returns ErrInvalidArgument for a bad env.
func EnsureTables(ctx context.Context, c ddbkit.SchemaClient, env string) error {
	if err := CheckEnv(env); err != nil {
		return wrap("ensure tables", err)
	}
	ins := CreateTableInputs(env)
	errs := make([]error, len(ins))
	var wg sync.WaitGroup
	for i, in := range ins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = ddb.EnsureTable(ctx, c, in)
		}()
	}
	wg.Wait()
	return wrap("ensure tables", errors.Join(errs...))
}
