package schema_test

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/schema"
)

// A definition is data: the same value that Ensure creates or reconciles
// the table from exports the CloudFormation resource.
func ExampleDefinition_CloudFormation() {
	d := schema.Definition{
		Input: &dynamodb.CreateTableInput{
			TableName:   aws.String("sessions"),
			BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{
				{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("userId"), AttributeType: types.ScalarAttributeTypeS},
			},
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
				IndexName:  aws.String("userId-index"),
				KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("userId"), KeyType: types.KeyTypeHash}},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			}},
		},
		TTLAttribute: "expiresAt",
	}
	js, err := d.CloudFormation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(js))
	// Output:
	// {
	//   "Type": "AWS::DynamoDB::Table",
	//   "Properties": {
	//     "TableName": "sessions",
	//     "AttributeDefinitions": [
	//       {
	//         "AttributeName": "id",
	//         "AttributeType": "S"
	//       },
	//       {
	//         "AttributeName": "userId",
	//         "AttributeType": "S"
	//       }
	//     ],
	//     "KeySchema": [
	//       {
	//         "AttributeName": "id",
	//         "KeyType": "HASH"
	//       }
	//     ],
	//     "BillingMode": "PAY_PER_REQUEST",
	//     "GlobalSecondaryIndexes": [
	//       {
	//         "IndexName": "userId-index",
	//         "KeySchema": [
	//           {
	//             "AttributeName": "userId",
	//             "KeyType": "HASH"
	//           }
	//         ],
	//         "Projection": {
	//           "ProjectionType": "KEYS_ONLY"
	//         }
	//       }
	//     ],
	//     "TimeToLiveSpecification": {
	//       "AttributeName": "expiresAt",
	//       "Enabled": true
	//     }
	//   }
	// }
}

// Change values print as one line each; Ensure with PlanOnly returns them
// without changing anything.
func ExampleChange() {
	fmt.Println(schema.Change{Table: "sessions", Action: "add GSI", Detail: `"userId-index" (userId) KEYS_ONLY`})
	// Output:
	// sessions: add GSI "userId-index" (userId) KEYS_ONLY
}
