package wardrobe_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/wardrobe"
	"github.com/ddbkit/ddbkit/wardrobe/wardrobetest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// newDynamo returns a DynamoStore on a fresh table, talking to DynamoDB Local
// through wrap (the raw client when wrap is nil), and the raw client.
func newDynamo(t *testing.T, wrap func(ddbkit.Client) ddbkit.Client, opts ...func(*wardrobe.Options)) (*wardrobe.DynamoStore, *dynamodb.Client, string) {
	t.Helper()
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, wardrobe.CreateTableInput("wardrobe"))
	var client ddbkit.Client = c
	if wrap != nil {
		client = wrap(c)
	}
	opts = append(opts, func(o *wardrobe.Options) { o.TableName = name })
	return wardrobe.NewDynamoStore(client, opts...), c, name
}

func TestDynamoStore(t *testing.T) {
	wardrobetest.Run(t, func(t *testing.T, opts ...func(*wardrobe.Options)) wardrobe.Store {
		s, _, _ := newDynamo(t, nil, opts...)
		return s
	})
}
