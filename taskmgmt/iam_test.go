package taskmgmt_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit/internal/iamrec"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// iamInterfaces are the store interfaces whose policies iam.json gives.
var iamInterfaces = []reflect.Type{
	reflect.TypeFor[taskmgmt.Store](),
	reflect.TypeFor[taskmgmt.UserStore](),
	reflect.TypeFor[taskmgmt.TeamStore](),
	reflect.TypeFor[taskmgmt.TagStore](),
	reflect.TypeFor[taskmgmt.TaskStore](),
	reflect.TypeFor[taskmgmt.CounterStore](),
	reflect.TypeFor[taskmgmt.InvitationStore](),
}

// iamRec records the grants of the conformance suite's calls on DynamoDB
// Local (TestDynamoStore, TestDynamoInvitations and TestDynamoSharded), which iamPart checks against iam.json.
var iamRec = iamrec.New("github.com/ddbkit/ddbkit/taskmgmt", func(table string) (string, bool) {
	if strings.Contains(table, "invitation") {
		return taskmgmt.DefaultInvitationTableName, true
	}
	return taskmgmt.DefaultTableName, true
}, iamInterfaces...)

func iamPart(t *testing.T) {
	iamRec.Part(t, 3, "iam.json", "taskmgmt", map[string]string{
		taskmgmt.DefaultTableName:           "the task table (Options.TableName)",
		taskmgmt.DefaultInvitationTableName: "the invitation table (Options.InvitationTableName)",
	}, iamInterfaces...)
}
