package taskmgmt_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/taskmgmt/taskmgmttest"
)

// newDynamoInv is newDynamo with the invitation table too; it returns the
// invitation table's name.
func newDynamoInv(t *testing.T, wrap func(ddbkit.Client) ddbkit.Client, opts ...func(*taskmgmt.Options)) (*taskmgmt.DynamoStore, *dynamodb.Client, string, string) {
	t.Helper()
	c := ddbtest.Client(t)
	inv := ddbtest.NewTable(t, c, taskmgmt.CreateInvitationTableInput("task-table-invitation-v3"))
	s, c, table := newDynamo(t, wrap, append(opts, func(o *taskmgmt.Options) { o.InvitationTableName = inv })...)
	return s, c, table, inv
}

func TestDynamoInvitations(t *testing.T) {
	taskmgmttest.RunInvitations(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		s, _, _, _ := newDynamoInv(t, nil, opts...)
		return s
	})
}
