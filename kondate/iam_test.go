package kondate_test

import (
	"reflect"
	"testing"

	"github.com/ddbkit/ddbkit/internal/iamrec"
	"github.com/ddbkit/ddbkit/kondate"
)

// iamInterfaces are the store interfaces whose policies iam.json gives.
var iamInterfaces = []reflect.Type{
	reflect.TypeFor[kondate.Store](),
	reflect.TypeFor[kondate.ProfileStore](),
	reflect.TypeFor[kondate.RecipeStore](),
	reflect.TypeFor[kondate.SetStore](),
	reflect.TypeFor[kondate.PlanStore](),
	reflect.TypeFor[kondate.ShoppingStore](),
	reflect.TypeFor[kondate.FridgeStore](),
	reflect.TypeFor[kondate.CategoryStore](),
	reflect.TypeFor[kondate.CookLogStore](),
	reflect.TypeFor[kondate.PaymentStore](),
	reflect.TypeFor[kondate.NotificationStore](),
	reflect.TypeFor[kondate.CatalogStore](),
	reflect.TypeFor[kondate.ShareStore](),
}

// iamRec records the grants of the conformance suite's calls on DynamoDB
// Local (TestDynamoStore), which iamPart checks against iam.json.
var iamRec = iamrec.New("github.com/ddbkit/ddbkit/kondate", func(table string) (string, bool) {
	return kondate.DefaultTableName, true // the tests' tables are all the one table's
}, iamInterfaces...)

func iamPart(t *testing.T) {
	iamRec.Part(t, 1, "iam.json", "kondate", map[string]string{
		kondate.DefaultTableName: "the table (Options.TableName)",
	}, iamInterfaces...)
}
