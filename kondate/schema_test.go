package kondate_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/schema"
)

// tableState is what EnsureTable may change on a table: its indexes and
// its TTL.
type tableState struct {
	gsis []string
	ttl  types.TimeToLiveStatus
}

func describe(t *testing.T, c *dynamodb.Client, name string) tableState {
	t.Helper()
	out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	var s tableState
	for _, g := range out.Table.GlobalSecondaryIndexes {
		s.gsis = append(s.gsis, aws.ToString(g.IndexName))
	}
	ttl, err := c.DescribeTimeToLive(t.Context(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	s.ttl = ttl.TimeToLiveDescription.TimeToLiveStatus
	return s
}

// actions lists the actions of changes, notes left out (DynamoDB Local
// reports no encryption, which the definition asks for: a note).
func actions(changes []schema.Change) []string {
	var out []string
	for _, c := range changes {
		if c.Action != schema.ActionNote {
			out = append(out, c.Action)
		}
	}
	return out
}

// appTable creates the seed's app's table as it is before GSI1: keys only.
func appTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	in := kondate.CreateTableInput("kondate-app")
	in.GlobalSecondaryIndexes = nil
	in.AttributeDefinitions = in.AttributeDefinitions[:2]
	return ddbtest.NewTable(t, c, in)
}

// TestEnsureTablePlanOnly: in plan-only mode EnsureTable reports what it
// would do, on no table and on the app's table without GSI1, and does
// nothing; then it does it, and a second call finds nothing to do.
func TestEnsureTablePlanOnly(t *testing.T) {
	c := ddbtest.Client(t)
	ctx := t.Context()

	name := ddbtest.UniqueName("kondate-ensure")
	t.Cleanup(func() { c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}) })
	changes, err := kondate.EnsureTable(ctx, c, name, kondate.SchemaOptions(schema.PlanOnly))
	if err != nil || !slices.Equal(actions(changes), []string{schema.ActionCreateTable, schema.ActionEnableTTL}) {
		t.Fatalf("EnsureTable plan only, no table = %v, %v; want create table, enable TTL", changes, err)
	}
	if _, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err == nil {
		t.Fatalf("EnsureTable in plan-only mode created the table")
	}

	app := appTable(t, c)
	before := describe(t, c, app)
	changes, err = kondate.EnsureTable(ctx, c, app, kondate.SchemaOptions(schema.PlanOnly))
	if err != nil || !slices.Equal(actions(changes), []string{schema.ActionAddGSI, schema.ActionEnableTTL}) ||
		!strings.Contains(changes[len(changes)-2].Detail, "GSI1") {
		t.Fatalf("EnsureTable plan only, the app's table = %v, %v; want add GSI GSI1, enable TTL", changes, err)
	}
	if after := describe(t, c, app); !slices.Equal(after.gsis, before.gsis) || after.ttl != before.ttl {
		t.Fatalf("EnsureTable in plan-only mode changed the table: %+v, was %+v", after, before)
	}
	// The app's table is its stack's: verified, the missing GSI1 is a
	// mismatch, and nothing changes; schema.Apply adds it.
	if _, err := kondate.EnsureTable(ctx, c, app); !errors.Is(err, ddbkit.ErrSchemaMismatch) {
		t.Fatalf("EnsureTable without schema.Apply, the app's table = %v; want ErrSchemaMismatch", err)
	}
	if after := describe(t, c, app); !slices.Equal(after.gsis, before.gsis) || after.ttl != before.ttl {
		t.Fatalf("EnsureTable without schema.Apply changed the table: %+v, was %+v", after, before)
	}
	done, err := kondate.EnsureTable(ctx, c, app, kondate.SchemaOptions(schema.Apply, func(o *schema.Options) { o.PollInterval = 20 * time.Millisecond }))
	if err != nil || !slices.Equal(actions(done), actions(changes)) {
		t.Fatalf("EnsureTable, the app's table = %v, %v; want what the plan said, %v", done, err, changes)
	}
	if after := describe(t, c, app); !slices.Equal(after.gsis, []string{"GSI1"}) || after.ttl != types.TimeToLiveStatusEnabled {
		t.Fatalf("after EnsureTable: %+v; want GSI1 and TTL enabled", after)
	}
	if again, err := kondate.EnsureTable(ctx, c, app); err != nil || len(actions(again)) != 0 {
		t.Fatalf("EnsureTable again = %v, %v; want no change", again, err)
	}
}

// TestEnsureTableMismatch: a table of that name that cannot serve the
// package (other keys; a GSI1 with other keys) is reported with
// ErrSchemaMismatch, naming the differences, and left as it was: not even
// the TTL, which could be added, is enabled.
func TestEnsureTableMismatch(t *testing.T) {
	c := ddbtest.Client(t)
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	hash := func(n string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: types.KeyTypeHash}
	}
	otherGSI1 := kondate.CreateTableInput("kondate-gsi1")
	otherGSI1.AttributeDefinitions = []types.AttributeDefinition{s("PK"), s("SK"), s("ownerId")}
	otherGSI1.GlobalSecondaryIndexes[0].KeySchema = []types.KeySchemaElement{hash("ownerId")}
	for _, tc := range []struct {
		name string
		in   *dynamodb.CreateTableInput
		diff string
	}{
		{"other keys", &dynamodb.CreateTableInput{TableName: aws.String("kondate-other"),
			AttributeDefinitions: []types.AttributeDefinition{s("id")}, KeySchema: []types.KeySchemaElement{hash("id")},
			BillingMode: types.BillingModePayPerRequest}, "key"},
		{"GSI1 on other keys", otherGSI1, "GSI1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := ddbtest.NewTable(t, c, tc.in)
			before := describe(t, c, name)
			changes, err := kondate.EnsureTable(t.Context(), c, name)
			ddbtest.WantSentinel(t, "EnsureTable on "+tc.name, err, ddbkit.ErrSchemaMismatch)
			var sm *ddbkit.SchemaMismatchError
			if !errors.As(err, &sm) || len(sm.Diffs) == 0 || len(changes) != 0 || !strings.HasPrefix(err.Error(), "kondate: ensure table: ") ||
				!strings.Contains(strings.Join(sm.Diffs, "; "), tc.diff) {
				t.Fatalf("EnsureTable = %v, %v; want a *ddbkit.SchemaMismatchError naming %s, and no change", changes, err, tc.diff)
			}
			if after := describe(t, c, name); !slices.Equal(after.gsis, before.gsis) || after.ttl != before.ttl {
				t.Fatalf("EnsureTable on a mismatched table changed it: %+v, was %+v", after, before)
			}
		})
	}
}
