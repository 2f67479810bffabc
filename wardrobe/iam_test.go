package wardrobe_test

import (
	"reflect"
	"testing"

	"github.com/ddbkit/ddbkit/internal/iamrec"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// iamInterfaces are the store interfaces whose policies iam.json gives.
var iamInterfaces = []reflect.Type{
	reflect.TypeFor[wardrobe.Store](),
	reflect.TypeFor[wardrobe.WardrobeStore](),
	reflect.TypeFor[wardrobe.ClothingStore](),
	reflect.TypeFor[wardrobe.TemplateStore](),
	reflect.TypeFor[wardrobe.HistoryStore](),
	reflect.TypeFor[wardrobe.StatsStore](),
}

// iamRec records the grants of the conformance suite's calls on DynamoDB
// Local (TestDynamoStore), which iamPart checks against iam.json.
var iamRec = iamrec.New("github.com/ddbkit/ddbkit/wardrobe", func(table string) (string, bool) {
	return wardrobe.DefaultTableName, true // the tests' tables are all the one table's
}, iamInterfaces...)

func iamPart(t *testing.T) {
	iamRec.Part(t, 1, "iam.json", "wardrobe", map[string]string{
		wardrobe.DefaultTableName: "the table (Options.TableName)",
	}, iamInterfaces...)
}
