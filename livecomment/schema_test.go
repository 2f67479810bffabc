package livecomment_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit/livecomment"
)

// TestDefinitions: the exported definitions are the tables EnsureTables
// makes, each its Create…TableInput, and export to CloudFormation with their keys and indexes.
func TestDefinitions(t *testing.T) {
	ds := livecomment.Definitions("prod")
	ins := livecomment.CreateTableInputs("prod")
	n := livecomment.Tables("prod")
	wantIndexes := map[string][]string{
		n.Rooms:       {"hostId-index"},
		n.Comments:    {"roomId-createdAt-index"},
		n.Connections: {"roomId-index"},
	}
	if len(ds) != 3 || len(ins) != 3 {
		t.Fatalf("%d definitions, %d inputs; want 3", len(ds), len(ins))
	}
	// The per-table inputs, in Definitions' order.
	for i, in := range []*dynamodb.CreateTableInput{livecomment.CreateRoomsTableInput("prod"), livecomment.CreateCommentsTableInput("prod"), livecomment.CreateConnectionsTableInput("prod")} {
		if !reflect.DeepEqual(in, ds[i].Input) || !reflect.DeepEqual(in, ins[i]) {
			t.Errorf("table %d: Create…TableInput %+v; want Definitions' %+v", i, in, ds[i].Input)
		}
	}
	for i, d := range ds {
		name := aws.ToString(d.Input.TableName)
		if name != aws.ToString(ins[i].TableName) || name != []string{n.Rooms, n.Comments, n.Connections}[i] {
			t.Fatalf("definition %d is %s, input %s", i, name, aws.ToString(ins[i].TableName))
		}
		js, err := d.CloudFormation()
		if err != nil {
			t.Fatalf("%s: CloudFormation: %v", name, err)
		}
		var res struct {
			Type       string
			Properties struct {
				TableName              string
				BillingMode            string
				GlobalSecondaryIndexes []struct {
					IndexName  string
					Projection struct{ ProjectionType string }
				}
			}
		}
		if err := json.Unmarshal(js, &res); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var idx []string
		for _, g := range res.Properties.GlobalSecondaryIndexes {
			idx = append(idx, g.IndexName)
			if g.Projection.ProjectionType != "ALL" {
				t.Errorf("%s: index %s projects %s, want ALL", name, g.IndexName, g.Projection.ProjectionType)
			}
		}
		if res.Type != "AWS::DynamoDB::Table" || res.Properties.TableName != name || res.Properties.BillingMode != "PAY_PER_REQUEST" ||
			!slices.Equal(idx, wantIndexes[name]) {
			t.Errorf("%s: CloudFormation %s", name, js)
		}
	}
}
