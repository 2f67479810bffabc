package kondate_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/kondate/kondatetest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// newDynamo returns a DynamoStore on a fresh table, talking to DynamoDB
// Local through wrap (the raw client when wrap is nil), the raw client and
// the table name.
func newDynamo(t *testing.T, wrap func(ddbkit.Client) ddbkit.Client, opts ...func(*kondate.Options)) (*kondate.DynamoStore, *dynamodb.Client, string) {
	t.Helper()
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, kondate.CreateTableInput("kondate"))
	var client ddbkit.Client = c
	if wrap != nil {
		client = wrap(c)
	}
	opts = append(opts, func(o *kondate.Options) { o.TableName = name })
	return kondate.NewDynamoStore(client, opts...), c, name
}

func TestDynamoStore(t *testing.T) {
	kondatetest.Run(t, func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store {
		s, _, _ := newDynamo(t, nil, opts...)
		return s
	})
}

var start = time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)

func deterministic(o *kondate.Options) {
	o.Clock = ddbkit.StepClock(start, time.Second)
	o.NewID = kondate.SeededULIDs(7, o.Clock)
}

func rawItem(t *testing.T, c *dynamodb.Client, table, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}})
	if err != nil {
		t.Fatalf("GetItem(%s, %s): %v", pk, sk, err)
	}
	return out.Item
}

// render shows each attribute as type:value, so a comparison checks types
// as well as values.
func render(item map[string]types.AttributeValue) map[string]string {
	out := make(map[string]string, len(item))
	for k, v := range item {
		out[k] = renderValue(v)
	}
	return out
}

func renderValue(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return "S:" + v.Value
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprint("BOOL:", v.Value)
	case *types.AttributeValueMemberL:
		s := "L:["
		for i, e := range v.Value {
			if i > 0 {
				s += ","
			}
			s += renderValue(e)
		}
		return s + "]"
	case *types.AttributeValueMemberM:
		s := "M:{"
		for _, k := range []string{"name", "amount", "recipeId", "title"} {
			if e, ok := v.Value[k]; ok {
				s += k + "=" + renderValue(e) + ";"
			}
		}
		return s + "}"
	}
	return fmt.Sprintf("%T", v)
}
