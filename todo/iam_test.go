package todo_test

import (
	"reflect"
	"testing"

	"github.com/ddbkit/ddbkit/internal/iamrec"
	"github.com/ddbkit/ddbkit/todo"
)

// iamInterfaces are the store interfaces whose policies iam.json gives.
var iamInterfaces = []reflect.Type{
	reflect.TypeFor[todo.Store](),
	reflect.TypeFor[todo.UserStore](),
	reflect.TypeFor[todo.TodoStore](),
	reflect.TypeFor[todo.CategoryStore](),
}

// iamRec records the grants of the conformance suite's calls on DynamoDB
// Local (TestDynamoStore), which iamPart checks against iam.json.
var iamRec = iamrec.New("github.com/ddbkit/ddbkit/todo", func(table string) (string, bool) {
	return todo.DefaultTableName, true // the tests' tables are all the one table's
}, iamInterfaces...)

func iamPart(t *testing.T) {
	iamRec.Part(t, 1, "iam.json", "todo", map[string]string{
		todo.DefaultTableName: "the table (Options.TableName)",
	}, iamInterfaces...)
}
