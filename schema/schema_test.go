package schema_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/schema"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// fast makes waits on DynamoDB Local quick and bounded.
func fast(o *schema.Options) {
	o.PollInterval = 20 * time.Millisecond
	o.Timeout = time.Minute
}

func attr(name string, t types.ScalarAttributeType) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: t}
}

func keys(hash, rng string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
	if rng != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange})
	}
	return ks
}

func gsi(name, hash, rng string, p *types.Projection) types.GlobalSecondaryIndex {
	return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: keys(hash, rng), Projection: p}
}

var (
	all      = &types.Projection{ProjectionType: types.ProjectionTypeAll}
	keysOnly = &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
)

func include(attrs ...string) *types.Projection {
	return &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: attrs}
}

// orders is the test design: pk/sk, three GSIs, on-demand.
func orders(name string) schema.Definition {
	return schema.Definition{Input: &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			attr("pk", types.ScalarAttributeTypeS), attr("sk", types.ScalarAttributeTypeS),
			attr("gsi1pk", types.ScalarAttributeTypeS), attr("gsi1sk", types.ScalarAttributeTypeS),
			attr("status", types.ScalarAttributeTypeS), attr("total", types.ScalarAttributeTypeN),
			attr("owner", types.ScalarAttributeTypeS),
		},
		KeySchema: keys("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			gsi("GSI1", "gsi1pk", "gsi1sk", all),
			gsi("byStatus", "status", "total", include("title", "owner")),
			gsi("byOwner", "owner", "", keysOnly),
		},
	}}
}

// without returns d's input with only the GSIs named in keep, and only the
// attribute definitions they and the table key use: a legacy table.
func without(d schema.Definition, keep ...string) *dynamodb.CreateTableInput {
	in := d.CreateTableInput()
	in.GlobalSecondaryIndexes = slices.DeleteFunc(in.GlobalSecondaryIndexes, func(g types.GlobalSecondaryIndex) bool {
		return !slices.Contains(keep, aws.ToString(g.IndexName))
	})
	used := map[string]bool{}
	for _, k := range in.KeySchema {
		used[aws.ToString(k.AttributeName)] = true
	}
	for _, g := range in.GlobalSecondaryIndexes {
		for _, k := range g.KeySchema {
			used[aws.ToString(k.AttributeName)] = true
		}
	}
	in.AttributeDefinitions = slices.DeleteFunc(in.AttributeDefinitions, func(a types.AttributeDefinition) bool {
		return !used[aws.ToString(a.AttributeName)]
	})
	return in
}

// countingClient counts the schema calls that go through it and keeps the
// UpdateTable inputs.
type countingClient struct {
	ddbkit.SchemaClient
	mu      sync.Mutex
	calls   map[string]int
	updates []*dynamodb.UpdateTableInput
}

func counting(c ddbkit.SchemaClient) *countingClient {
	return &countingClient{SchemaClient: c, calls: map[string]int{}}
}

func (c *countingClient) count(op string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[op]++
}

func (c *countingClient) Count(op string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[op]
}

func (c *countingClient) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	c.count("CreateTable")
	return c.SchemaClient.CreateTable(ctx, in, optFns...)
}

func (c *countingClient) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	c.count("DescribeTable")
	return c.SchemaClient.DescribeTable(ctx, in, optFns...)
}

func (c *countingClient) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	c.count("UpdateTable")
	c.mu.Lock()
	c.updates = append(c.updates, in)
	c.mu.Unlock()
	return c.SchemaClient.UpdateTable(ctx, in, optFns...)
}

func (c *countingClient) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	c.count("DescribeTimeToLive")
	return c.SchemaClient.DescribeTimeToLive(ctx, in, optFns...)
}

func (c *countingClient) UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error) {
	c.count("UpdateTimeToLive")
	return c.SchemaClient.UpdateTimeToLive(ctx, in, optFns...)
}

// wantNoWrites fails t if c made any call that changes a table.
func wantNoWrites(t *testing.T, c *countingClient) {
	t.Helper()
	for _, op := range []string{"CreateTable", "UpdateTable", "UpdateTimeToLive"} {
		if n := c.Count(op); n != 0 {
			t.Errorf("%s calls = %d, want 0", op, n)
		}
	}
}

// dropAfter deletes the table name, which the test does not create through
// ddbtest, when t ends.
func dropAfter(t *testing.T, c *dynamodb.Client, name string) {
	t.Cleanup(func() {
		// Not t.Context: it is canceled when cleanups run.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		var missing *types.ResourceNotFoundException
		if err != nil && !errors.As(err, &missing) {
			t.Errorf("delete table %s: %v", name, err)
		}
	})
}

// snapshot renders what Ensure compares or may change of a table, and its
// TTL, for before/after comparisons.
func snapshot(t *testing.T, c *dynamodb.Client, name string) string {
	t.Helper()
	out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("DescribeTable(%s): %v", name, err)
	}
	d := out.Table
	var b strings.Builder
	fmt.Fprintf(&b, "status %s key %s", d.TableStatus, keyString(d.KeySchema))
	ads := slices.Clone(d.AttributeDefinitions)
	slices.SortFunc(ads, func(a, b types.AttributeDefinition) int {
		return strings.Compare(aws.ToString(a.AttributeName), aws.ToString(b.AttributeName))
	})
	for _, a := range ads {
		fmt.Fprintf(&b, "; attr %s %s", aws.ToString(a.AttributeName), a.AttributeType)
	}
	gs := slices.Clone(d.GlobalSecondaryIndexes)
	slices.SortFunc(gs, func(a, b types.GlobalSecondaryIndexDescription) int {
		return strings.Compare(aws.ToString(a.IndexName), aws.ToString(b.IndexName))
	})
	for _, g := range gs {
		fmt.Fprintf(&b, "; GSI %s %s %s %v %s", aws.ToString(g.IndexName), keyString(g.KeySchema),
			g.Projection.ProjectionType, g.Projection.NonKeyAttributes, g.IndexStatus)
	}
	if s := d.StreamSpecification; s != nil {
		fmt.Fprintf(&b, "; stream %v %s", aws.ToBool(s.StreamEnabled), s.StreamViewType)
	}
	ttl, err := c.DescribeTimeToLive(t.Context(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("DescribeTimeToLive(%s): %v", name, err)
	}
	if td := ttl.TimeToLiveDescription; td != nil {
		fmt.Fprintf(&b, "; TTL %s %s", td.TimeToLiveStatus, aws.ToString(td.AttributeName))
	}
	return b.String()
}

func keyString(ks []types.KeySchemaElement) string {
	var parts []string
	for _, k := range ks {
		parts = append(parts, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func actions(changes []schema.Change) []string {
	var out []string
	for _, c := range changes {
		out = append(out, c.Action+" "+c.Detail)
	}
	return out
}

func wantChanges(t *testing.T, what string, got []schema.Change, table string, want ...string) {
	t.Helper()
	for _, c := range got {
		if c.Table != table {
			t.Errorf("%s: change %q names table %q, want %q", what, c, c.Table, table)
		}
	}
	if g := actions(got); !slices.Equal(g, want) {
		t.Errorf("%s: changes =\n  %q\nwant\n  %q", what, g, want)
	}
}

// TestEnsureCreates creates a table from nothing (after a plan that
// creates nothing), then checks that a second Ensure changes nothing.
func TestEnsureCreates(t *testing.T) {
	c := ddbtest.Client(t)
	name := ddbtest.UniqueName("schema-create")
	dropAfter(t, c, name)
	d := orders(name)
	d.TTLAttribute = "expiresAt"
	d.Input.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}
	create := `create table key (pk, sk), GSI "GSI1" (gsi1pk, gsi1sk), GSI "byStatus" (status, total), GSI "byOwner" (owner), stream NEW_IMAGE`

	cc := counting(c)
	changes, err := schema.Ensure(t.Context(), cc, d, fast, schema.PlanOnly)
	if err != nil {
		t.Fatalf("Ensure(PlanOnly) error = %v", err)
	}
	wantChanges(t, "Ensure(PlanOnly)", changes, name, create, `enable TTL on "expiresAt"`)
	wantNoWrites(t, cc)
	_, err = c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var missing *types.ResourceNotFoundException
	if !errors.As(err, &missing) {
		t.Fatalf("after Ensure(PlanOnly), DescribeTable error = %v, want ResourceNotFoundException", err)
	}

	changes, err = schema.Ensure(t.Context(), c, d, fast)
	if err != nil {
		t.Fatalf("Ensure() error = %v", err)
	}
	wantChanges(t, "Ensure()", changes, name, create, `enable TTL on "expiresAt"`)
	snap := snapshot(t, c, name)
	for _, want := range []string{
		"status ACTIVE key (pk HASH, sk RANGE)",
		"; GSI GSI1 (gsi1pk HASH, gsi1sk RANGE) ALL [] ACTIVE",
		"; GSI byOwner (owner HASH) KEYS_ONLY [] ACTIVE",
		"; GSI byStatus (status HASH, total RANGE) INCLUDE [title owner] ACTIVE",
		"; attr total N",
		"; stream true NEW_IMAGE",
		"; TTL ENABLED expiresAt",
	} {
		if !strings.Contains(snap, want) {
			t.Errorf("table after Ensure = %s\nwant it to contain %q", snap, want)
		}
	}

	cc = counting(c)
	changes, err = schema.Ensure(t.Context(), cc, d, fast)
	if err != nil || len(changes) != 0 {
		t.Fatalf("Ensure() again = %q, %v; want no changes, nil", actions(changes), err)
	}
	wantNoWrites(t, cc)
	if got := snapshot(t, c, name); got != snap {
		t.Errorf("Ensure() again changed the table:\nbefore %s\nafter  %s", snap, got)
	}
}

// TestEnsureCreatesWithoutNotes: Ensure notes nothing on a table it has
// just created, even where the table's description differs from the
// definition in an owner's choice (DynamoDB Local reports no encryption);
// on the next call, on a table it did not create, it notes it.
func TestEnsureCreatesWithoutNotes(t *testing.T) {
	c := ddbtest.Client(t)
	name := ddbtest.UniqueName("schema-create-sse")
	dropAfter(t, c, name)
	d := orders(name)
	d.Input.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms}
	changes, err := schema.Ensure(t.Context(), c, d, fast)
	if err != nil {
		t.Fatalf("Ensure() error = %v", err)
	}
	if got := actions(changes); len(changes) != 1 || changes[0].Action != schema.ActionCreateTable {
		t.Errorf("Ensure() of a missing table = %q; want only %q", got, schema.ActionCreateTable)
	}
	out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("DescribeTable: %v", err)
	}
	if out.Table.SSEDescription != nil {
		return // this DynamoDB reports encryption: the note below would not be made
	}
	changes, err = schema.Ensure(t.Context(), c, d, fast)
	if err != nil || len(changes) != 1 || changes[0].Action != schema.ActionNote {
		t.Errorf("Ensure() of the existing table = %q, %v; want one note, nil", actions(changes), err)
	}
}

// TestEnsureAddsGSIs starts from a legacy table without two of the
// definition's GSIs and with one it does not name.
func TestEnsureAddsGSIs(t *testing.T) {
	c := ddbtest.Client(t)
	legacy := without(orders("schema-gsi"), "GSI1")
	legacy.AttributeDefinitions = append(legacy.AttributeDefinitions, attr("legacyKey", types.ScalarAttributeTypeN))
	legacy.GlobalSecondaryIndexes = append(legacy.GlobalSecondaryIndexes, gsi("legacy-index", "legacyKey", "", all))
	name := ddbtest.NewTable(t, c, legacy)
	d := orders(name)
	adds := []string{
		`add GSI "byStatus" (status, total) INCLUDE [owner title]`,
		`add GSI "byOwner" (owner) KEYS_ONLY`,
	}

	t.Run("PlanOnly", func(t *testing.T) {
		before := snapshot(t, c, name)
		cc := counting(c)
		changes, err := schema.Ensure(t.Context(), cc, d, fast, schema.PlanOnly)
		if err != nil {
			t.Fatalf("Ensure(PlanOnly) error = %v", err)
		}
		wantChanges(t, "Ensure(PlanOnly)", changes, name, adds...)
		wantNoWrites(t, cc)
		if after := snapshot(t, c, name); after != before {
			t.Errorf("Ensure(PlanOnly) changed the table:\nbefore %s\nafter  %s", before, after)
		}
	})

	// By default an existing table is the stack's: what it lacks is
	// reported, pending, and a missing index is a mismatch that says how
	// to add it; nothing is written.
	t.Run("Verify", func(t *testing.T) {
		before := snapshot(t, c, name)
		cc := counting(c)
		changes, err := schema.Ensure(t.Context(), cc, d, fast)
		ddbtest.WantSentinel(t, "Ensure() of a table lacking two GSIs", err, ddbkit.ErrSchemaMismatch)
		var mm *ddbkit.SchemaMismatchError
		if !errors.As(err, &mm) || !mm.Missing || len(mm.Diffs) != 2 || !strings.Contains(err.Error(), "schema.Apply") {
			t.Errorf("Ensure() error = %v, want a SchemaMismatchError, Missing, naming both GSIs and schema.Apply", err)
		}
		wantChanges(t, "Ensure()", changes, name, adds...)
		for _, ch := range changes {
			if !ch.Pending || !strings.HasSuffix(ch.String(), "(pending)") {
				t.Errorf("Ensure() change %q: Pending = false, want true", ch)
			}
		}
		wantNoWrites(t, cc)
		if after := snapshot(t, c, name); after != before {
			t.Errorf("Ensure() changed the table:\nbefore %s\nafter  %s", before, after)
		}
	})

	t.Run("Apply", func(t *testing.T) {
		cc := counting(c)
		changes, err := schema.Ensure(t.Context(), cc, d, fast, schema.Apply)
		if err != nil {
			t.Fatalf("Ensure(Apply) error = %v", err)
		}
		wantChanges(t, "Ensure(Apply)", changes, name, adds...)
		for _, ch := range changes {
			if ch.Pending {
				t.Errorf("Ensure(Apply) change %q: Pending, want made", ch)
			}
		}
		if n := cc.Count("UpdateTable"); n != 2 {
			t.Errorf("UpdateTable calls = %d, want 2 (one per GSI)", n)
		}
		for i, u := range cc.updates {
			if len(u.GlobalSecondaryIndexUpdates) != 1 || u.GlobalSecondaryIndexUpdates[0].Create == nil {
				t.Errorf("UpdateTable #%d: GlobalSecondaryIndexUpdates = %+v, want exactly one Create", i, u.GlobalSecondaryIndexUpdates)
			}
		}
		out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatalf("DescribeTable: %v", err)
		}
		var got []string
		for _, g := range out.Table.GlobalSecondaryIndexes {
			got = append(got, aws.ToString(g.IndexName))
			if g.IndexStatus != types.IndexStatusActive || aws.ToBool(g.Backfilling) {
				t.Errorf("GSI %s: status %s, backfilling %v; want ACTIVE, not backfilling", aws.ToString(g.IndexName), g.IndexStatus, aws.ToBool(g.Backfilling))
			}
		}
		slices.Sort(got)
		if want := []string{"GSI1", "byOwner", "byStatus", "legacy-index"}; !slices.Equal(got, want) {
			t.Errorf("GSIs = %q, want %q (the legacy index left in place)", got, want)
		}

		cc = counting(c)
		if changes, err := schema.Ensure(t.Context(), cc, d, fast); err != nil || len(changes) != 0 {
			t.Errorf("Ensure() again = %q, %v; want no changes, nil", actions(changes), err)
		}
		wantNoWrites(t, cc)
	})
}

// TestEnsureRacing runs Ensure from several goroutines on a missing table
// and on one missing two GSIs: every call succeeds, the table ends up
// complete, and every change is reported. DynamoDB Local accepts the same
// index from concurrent UpdateTable calls (DynamoDB refuses all but one),
// so an added index may be reported by more than one goroutine here.
func TestEnsureRacing(t *testing.T) {
	c := ddbtest.Client(t)
	for _, tc := range []struct {
		name   string
		legacy bool
		want   []string // distinct changes
		once   bool     // each reported by exactly one goroutine
	}{
		{name: "missing table", want: []string{`create table key (pk, sk), GSI "GSI1" (gsi1pk, gsi1sk), GSI "byStatus" (status, total), GSI "byOwner" (owner)`}, once: true},
		{name: "missing GSIs", legacy: true, want: []string{`add GSI "byOwner" (owner) KEYS_ONLY`, `add GSI "byStatus" (status, total) INCLUDE [owner title]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var name string
			if tc.legacy {
				name = ddbtest.NewTable(t, c, without(orders("schema-race"), "GSI1"))
			} else {
				name = ddbtest.UniqueName("schema-race")
				dropAfter(t, c, name)
			}
			const n = 4
			var wg sync.WaitGroup
			errs := make([]error, n)
			changes := make([][]schema.Change, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					changes[i], errs[i] = schema.Ensure(t.Context(), c, orders(name), fast, schema.Apply)
				}()
			}
			wg.Wait()
			var got []string
			for i := range n {
				if errs[i] != nil {
					t.Errorf("Ensure() in goroutine %d error = %v", i, errs[i])
				}
				got = append(got, actions(changes[i])...)
			}
			slices.Sort(got)
			if tc.once && !slices.Equal(got, tc.want) || !slices.Equal(slices.Compact(got), tc.want) {
				t.Errorf("changes of all goroutines = %q, want %q", got, tc.want)
			}
			snap := snapshot(t, c, name)
			for _, g := range []string{"GSI1", "byOwner", "byStatus"} {
				if !strings.Contains(snap, "; GSI "+g+" ") {
					t.Errorf("table after the race = %s, want GSI %s", snap, g)
				}
			}
			if strings.Contains(snap, "CREATING") {
				t.Errorf("table after the race = %s, want every GSI ACTIVE", snap)
			}
		})
	}
}

// TestEnsureMismatch checks that every difference that cannot be added is
// reported, and that nothing is changed, not even what could be added.
func TestEnsureMismatch(t *testing.T) {
	c := ddbtest.Client(t)
	legacy := &dynamodb.CreateTableInput{
		TableName:   aws.String("schema-mismatch"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			attr("pk", types.ScalarAttributeTypeS), attr("updatedAt", types.ScalarAttributeTypeS),
			attr("gsi1pk", types.ScalarAttributeTypeS), attr("gsi1sk", types.ScalarAttributeTypeN),
			attr("status", types.ScalarAttributeTypeS),
		},
		KeySchema: keys("pk", "updatedAt"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			gsi("GSI1", "gsi1pk", "gsi1sk", keysOnly),
			gsi("byStatus", "status", "", include("title")),
		},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
	}
	name := ddbtest.NewTable(t, c, legacy)
	if _, err := c.UpdateTimeToLive(t.Context(), &dynamodb.UpdateTimeToLiveInput{
		TableName:               aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expires"), Enabled: aws.Bool(true)},
	}); err != nil {
		t.Fatalf("UpdateTimeToLive: %v", err)
	}
	d := orders(name) // byOwner is missing, and could be added
	d.TTLAttribute = "ttl"
	d.Input.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}

	for _, opts := range [][]func(*schema.Options){{fast}, {fast, schema.PlanOnly}} {
		before := snapshot(t, c, name)
		cc := counting(c)
		changes, err := schema.Ensure(t.Context(), cc, d, opts...)
		ddbtest.WantSentinel(t, "Ensure()", err, ddbkit.ErrSchemaMismatch)
		var mismatch *ddbkit.SchemaMismatchError
		if !errors.As(err, &mismatch) {
			t.Fatalf("Ensure() error = %v, want a *ddbkit.SchemaMismatchError", err)
		}
		want := []string{
			`table key: sort key is "updatedAt", want "sk"`,
			`attribute "gsi1sk" is of type N, want S`,
			`GSI "GSI1": projection is KEYS_ONLY, want ALL`,
			`GSI "byStatus": sort key is none, want "total"`,
			`GSI "byStatus": projection is INCLUDE [title], want INCLUDE [owner title]`,
			`stream view type is KEYS_ONLY, want NEW_AND_OLD_IMAGES; a stream's view type changes only by disabling and re-enabling it`,
			`TTL is on attribute "expires", want "ttl"`,
		}
		if mismatch.Table != name || !slices.Equal(mismatch.Diffs, want) {
			t.Errorf("SchemaMismatchError = %q %q\nwant %q %q", mismatch.Table, mismatch.Diffs, name, want)
		}
		if len(changes) != 0 {
			t.Errorf("Ensure() changes = %q, want none", actions(changes))
		}
		wantNoWrites(t, cc)
		if after := snapshot(t, c, name); after != before {
			t.Errorf("Ensure() changed the table:\nbefore %s\nafter  %s", before, after)
		}
	}
}

// TestEnsureTTLAndStream enables TTL and the stream on a legacy table that
// has neither.
func TestEnsureTTLAndStream(t *testing.T) {
	c := ddbtest.Client(t)
	d := orders("schema-ttl")
	name := ddbtest.NewTable(t, c, d.CreateTableInput())
	d = orders(name)
	d.TTLAttribute = "expiresAt"
	d.Input.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}

	// Verified only: the missing stream is a mismatch, TTL only pending.
	cc := counting(c)
	changes, err := schema.Ensure(t.Context(), cc, d, fast)
	ddbtest.WantSentinel(t, "Ensure() of a table lacking its stream", err, ddbkit.ErrSchemaMismatch)
	wantChanges(t, "Ensure()", changes, name, "enable stream NEW_AND_OLD_IMAGES", `enable TTL on "expiresAt"`)
	wantNoWrites(t, cc)
	d.Input.StreamSpecification = nil
	changes, err = schema.Ensure(t.Context(), cc, d, fast)
	if err != nil || len(changes) != 1 || !changes[0].Pending {
		t.Errorf("Ensure() of a table lacking TTL only = %q, %v; want the pending TTL change, nil", actions(changes), err)
	}
	wantNoWrites(t, cc)
	d.Input.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}

	cc = counting(c)
	changes, err = schema.Ensure(t.Context(), cc, d, fast, schema.Apply)
	if err != nil {
		t.Fatalf("Ensure(Apply) error = %v", err)
	}
	wantChanges(t, "Ensure(Apply)", changes, name, "enable stream NEW_AND_OLD_IMAGES", `enable TTL on "expiresAt"`)
	if got := cc.Count("UpdateTable"); got != 1 {
		t.Errorf("UpdateTable calls = %d, want 1", got)
	}
	ttl, err := c.DescribeTimeToLive(t.Context(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("DescribeTimeToLive: %v", err)
	}
	if td := ttl.TimeToLiveDescription; td == nil || td.TimeToLiveStatus != types.TimeToLiveStatusEnabled || aws.ToString(td.AttributeName) != "expiresAt" {
		t.Errorf("TTL = %+v, want ENABLED on expiresAt", td)
	}
	out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("DescribeTable: %v", err)
	}
	if s := out.Table.StreamSpecification; s == nil || !aws.ToBool(s.StreamEnabled) || s.StreamViewType != types.StreamViewTypeNewAndOldImages {
		t.Errorf("stream = %+v, want enabled NEW_AND_OLD_IMAGES", s)
	}
	if changes, err := schema.Ensure(t.Context(), c, d, fast); err != nil || len(changes) != 0 {
		t.Errorf("Ensure() again = %q, %v; want no changes, nil", actions(changes), err)
	}
}

// TestEnsureStreamSuperset: a table whose stream carries more than the
// definition needs (both images where the new one is wanted) is as it
// should be: Ensure neither changes nor refuses it, and notes it. One that
// carries less is a mismatch.
func TestEnsureStreamSuperset(t *testing.T) {
	c := ddbtest.Client(t)
	in := orders("schema-stream").CreateTableInput()
	in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
	name := ddbtest.NewTable(t, c, in)
	for _, want := range []types.StreamViewType{types.StreamViewTypeNewImage, types.StreamViewTypeOldImage,
		types.StreamViewTypeKeysOnly, types.StreamViewTypeNewAndOldImages} {
		d := orders(name)
		d.Input.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: want}
		cc := counting(c)
		changes, err := schema.Ensure(t.Context(), cc, d, fast, schema.Apply)
		wantNote := want != types.StreamViewTypeNewAndOldImages
		if err != nil || len(changes) != btoi(wantNote) || (wantNote && changes[0].Action != schema.ActionNote) {
			t.Errorf("Ensure() wanting %s of a NEW_AND_OLD_IMAGES stream = %q, %v; want only a note (none for the same view), nil", want, actions(changes), err)
		}
		wantNoWrites(t, cc)
	}

	keysOnly := orders("schema-stream-keys").CreateTableInput()
	keysOnly.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}
	name = ddbtest.NewTable(t, c, keysOnly)
	d := orders(name)
	d.Input.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}
	_, err := schema.Ensure(t.Context(), c, d, fast)
	ddbtest.WantSentinel(t, "Ensure() wanting NEW_IMAGE of a KEYS_ONLY stream", err, ddbkit.ErrSchemaMismatch)
}

// TestEnsureInvalid refuses a definition that cannot create a table before
// any call.
func TestEnsureInvalid(t *testing.T) {
	noType := orders("t")
	noType.Input.AttributeDefinitions = noType.Input.AttributeDefinitions[:1]
	noProjection := orders("t")
	noProjection.Input.GlobalSecondaryIndexes[1].Projection = nil
	for _, tc := range []struct {
		name  string
		d     schema.Definition
		field string
	}{
		{"nil input", schema.Definition{}, "Input"},
		{"no name", schema.Definition{Input: &dynamodb.CreateTableInput{}}, "Input.TableName"},
		{"key attribute without type", noType, "Input.AttributeDefinitions"},
		{"index without projection", noProjection, "Input.GlobalSecondaryIndexes[1].Projection"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fake{t: t}
			_, err := schema.Ensure(t.Context(), f, tc.d)
			ddbtest.WantSentinel(t, "Ensure()", err, ddbkit.ErrInvalidArgument)
			var ve *ddbkit.ValidationError
			if !errors.As(err, &ve) || ve.Field != tc.field {
				t.Errorf("Ensure() error = %v, want a *ddbkit.ValidationError for %s", err, tc.field)
			}
			if len(f.calls) != 0 {
				t.Errorf("calls = %q, want none", f.calls)
			}
			_, err = tc.d.CloudFormation()
			ddbtest.WantSentinel(t, "CloudFormation()", err, ddbkit.ErrInvalidArgument)
		})
	}
}

// fake is a SchemaClient whose DescribeTable answers from a script.
type fake struct {
	ddbkit.SchemaClient // nil: other calls panic
	t                   *testing.T
	mu                  sync.Mutex
	// tables answers DescribeTable: each call takes the next, the last
	// repeats. A nil entry answers ResourceNotFoundException.
	tables   []*types.TableDescription
	updates  []*dynamodb.UpdateTableInput
	calls    []string
	updateFn func() error // UpdateTable's error, when set
	ttl      types.TimeToLiveDescription
}

func (f *fake) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "DescribeTable")
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(f.tables) == 0 {
		f.t.Fatal("DescribeTable: script exhausted")
	}
	d := f.tables[0]
	if len(f.tables) > 1 {
		f.tables = f.tables[1:]
	}
	if d == nil {
		return nil, &types.ResourceNotFoundException{Message: aws.String("no table")}
	}
	return &dynamodb.DescribeTableOutput{Table: d}, nil
}

func (f *fake) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "UpdateTable")
	f.updates = append(f.updates, in)
	if f.updateFn != nil {
		return nil, f.updateFn()
	}
	return &dynamodb.UpdateTableOutput{}, nil
}

func (f *fake) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "DescribeTimeToLive")
	ttl := f.ttl
	return &dynamodb.DescribeTimeToLiveOutput{TimeToLiveDescription: &ttl}, nil
}

// described returns the description of a legacy orders table without
// byOwner, in status st, with extra GSI descriptions appended.
func described(st types.TableStatus, extra ...types.GlobalSecondaryIndexDescription) *types.TableDescription {
	in := without(orders("fake"), "GSI1", "byStatus")
	d := &types.TableDescription{
		TableName:            in.TableName,
		TableStatus:          st,
		KeySchema:            in.KeySchema,
		AttributeDefinitions: in.AttributeDefinitions,
		BillingModeSummary:   &types.BillingModeSummary{BillingMode: types.BillingModePayPerRequest},
	}
	for _, g := range in.GlobalSecondaryIndexes {
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, types.GlobalSecondaryIndexDescription{
			IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection, IndexStatus: types.IndexStatusActive,
		})
	}
	d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, extra...)
	return d
}

func byOwner(st types.IndexStatus, backfilling bool) types.GlobalSecondaryIndexDescription {
	return types.GlobalSecondaryIndexDescription{
		IndexName: aws.String("byOwner"), KeySchema: keys("owner", ""), Projection: keysOnly,
		IndexStatus: st, Backfilling: aws.Bool(backfilling),
	}
}

const addByOwner = `add GSI "byOwner" (owner) KEYS_ONLY`

func poll(o *schema.Options) { o.PollInterval = time.Millisecond }

// TestEnsureWaits checks the waiting logic without DynamoDB: a table that
// is UPDATING is waited for before the update, and the added index through
// not yet listed, CREATING, and ACTIVE while backfilling.
func TestEnsureWaits(t *testing.T) {
	f := &fake{t: t, tables: []*types.TableDescription{
		described(types.TableStatusUpdating),
		described(types.TableStatusActive),
		// after UpdateTable:
		described(types.TableStatusActive),
		described(types.TableStatusUpdating, byOwner(types.IndexStatusCreating, false)),
		described(types.TableStatusActive, byOwner(types.IndexStatusActive, true)),
		described(types.TableStatusActive, byOwner(types.IndexStatusActive, true)),
		described(types.TableStatusActive, byOwner(types.IndexStatusActive, false)),
	}}
	changes, err := schema.Ensure(t.Context(), f, orders("fake"), poll, schema.Apply)
	if err != nil {
		t.Fatalf("Ensure() error = %v", err)
	}
	wantChanges(t, "Ensure()", changes, "fake", addByOwner)
	want := []string{"DescribeTable", "DescribeTable", "UpdateTable",
		"DescribeTable", "DescribeTable", "DescribeTable", "DescribeTable", "DescribeTable"}
	if !slices.Equal(f.calls, want) {
		t.Errorf("calls = %q\nwant    %q", f.calls, want)
	}
	if len(f.updates) == 1 {
		u := f.updates[0]
		if g := u.GlobalSecondaryIndexUpdates; len(g) != 1 || g[0].Create == nil || g[0].Create.ProvisionedThroughput != nil {
			t.Errorf("UpdateTable GSI updates = %+v, want one Create without capacity (on-demand table)", g)
		}
		if got := keyString(u.GlobalSecondaryIndexUpdates[0].Create.KeySchema); got != "(owner HASH)" {
			t.Errorf("UpdateTable GSI key = %s, want (owner HASH)", got)
		}
		if a := u.AttributeDefinitions; len(a) != 1 || aws.ToString(a[0].AttributeName) != "owner" || a[0].AttributeType != types.ScalarAttributeTypeS {
			t.Errorf("UpdateTable AttributeDefinitions = %+v, want [owner S]", a)
		}
	}
}

// TestEnsureWaitFails checks the ways a wait ends early: Options.Timeout,
// and the caller's context.
func TestEnsureWaitFails(t *testing.T) {
	stuck := func() *fake {
		return &fake{t: t, tables: []*types.TableDescription{
			described(types.TableStatusActive),
			described(types.TableStatusActive, byOwner(types.IndexStatusCreating, false)),
		}}
	}
	t.Run("timeout", func(t *testing.T) {
		f := stuck()
		changes, err := schema.Ensure(t.Context(), f, orders("fake"), poll, schema.Apply, func(o *schema.Options) { o.Timeout = 30 * time.Millisecond })
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), `GSI "byOwner" is CREATING`) {
			t.Errorf("Ensure() error = %v, want context.DeadlineExceeded naming the CREATING index", err)
		}
		// The index is being created: the change was made.
		wantChanges(t, "Ensure()", changes, "fake", addByOwner)
	})
	t.Run("canceled", func(t *testing.T) {
		f := stuck()
		ctx, cancel := context.WithCancel(t.Context())
		f.updateFn = func() error { cancel(); return nil }
		_, err := schema.Ensure(ctx, f, orders("fake"), poll, schema.Apply)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Ensure() error = %v, want context.Canceled", err)
		}
	})
}

// TestEnsureFake covers what DynamoDB Local cannot show: capacity for an
// index added to a provisioned table, and an AWS error kept for errors.As.
func TestEnsureFake(t *testing.T) {
	t.Run("provisioned table", func(t *testing.T) {
		table := described(types.TableStatusActive)
		table.BillingModeSummary = nil // created provisioned, before billing modes
		table.ProvisionedThroughput = &types.ProvisionedThroughputDescription{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(4)}
		done := *table
		done.GlobalSecondaryIndexes = append(slices.Clone(table.GlobalSecondaryIndexes), byOwner(types.IndexStatusActive, false))
		f := &fake{t: t, tables: []*types.TableDescription{table, &done}}
		if _, err := schema.Ensure(t.Context(), f, orders("fake"), poll, schema.Apply); err != nil {
			t.Fatalf("Ensure() error = %v", err)
		}
		if len(f.updates) != 1 {
			t.Fatalf("UpdateTable calls = %d, want 1", len(f.updates))
		}
		p := f.updates[0].GlobalSecondaryIndexUpdates[0].Create.ProvisionedThroughput
		if p == nil || aws.ToInt64(p.ReadCapacityUnits) != 3 || aws.ToInt64(p.WriteCapacityUnits) != 4 {
			t.Errorf("index capacity = %+v, want the table's 3/4", p)
		}
	})
	t.Run("access denied", func(t *testing.T) {
		denied := &smithy.GenericAPIError{Code: "AccessDeniedException", Message: "not allowed: dynamodb:UpdateTable"}
		f := &fake{t: t, tables: []*types.TableDescription{described(types.TableStatusActive)}, updateFn: func() error { return denied }}
		_, err := schema.Ensure(t.Context(), f, orders("fake"), poll, schema.Apply)
		var api smithy.APIError
		if !errors.As(err, &api) || api.ErrorCode() != "AccessDeniedException" {
			t.Errorf("Ensure() error = %v, want the AccessDeniedException reachable with errors.As", err)
		}
		if !strings.Contains(err.Error(), `schema: table fake: update table (add GSI "byOwner")`) {
			t.Errorf("Ensure() error = %v, want it to say what Ensure was doing", err)
		}
	})
}

// rich is a definition with every part CloudFormation exports.
func rich() schema.Definition {
	d := orders("orders")
	in := d.Input
	in.GlobalSecondaryIndexes = in.GlobalSecondaryIndexes[:2] // GSI1 (ALL), byStatus (INCLUDE)
	in.AttributeDefinitions = slices.DeleteFunc(in.AttributeDefinitions, func(a types.AttributeDefinition) bool {
		return aws.ToString(a.AttributeName) == "owner"
	})
	in.BillingMode = types.BillingModeProvisioned
	in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(7)}
	in.GlobalSecondaryIndexes[0].ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(2), WriteCapacityUnits: aws.Int64(3)}
	in.GlobalSecondaryIndexes[1].ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(4), WriteCapacityUnits: aws.Int64(1)}
	in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}
	in.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: aws.String("alias/orders")}
	d.TTLAttribute = "expiresAt"
	return d
}

// TestCloudFormation decodes the exported resource and checks each
// property against the CreateTableInput, field by field.
func TestCloudFormation(t *testing.T) {
	d := rich()
	in := d.CreateTableInput()
	js, err := d.CloudFormation()
	if err != nil {
		t.Fatalf("CloudFormation() error = %v", err)
	}
	var res struct {
		Type       string
		Properties map[string]json.RawMessage
	}
	if err := json.Unmarshal(js, &res); err != nil {
		t.Fatalf("CloudFormation() is not JSON: %v\n%s", err, js)
	}
	if res.Type != "AWS::DynamoDB::Table" {
		t.Errorf("Type = %q, want AWS::DynamoDB::Table", res.Type)
	}
	type key struct{ AttributeName, KeyType string }
	type throughput struct{ ReadCapacityUnits, WriteCapacityUnits int64 }
	type projection struct {
		ProjectionType   string
		NonKeyAttributes []string
	}
	type index struct {
		IndexName             string
		KeySchema             []key
		Projection            projection
		ProvisionedThroughput *throughput
	}
	var p struct {
		TableName               string
		AttributeDefinitions    []struct{ AttributeName, AttributeType string }
		KeySchema               []key
		BillingMode             string
		ProvisionedThroughput   *throughput
		GlobalSecondaryIndexes  []index
		StreamSpecification     *struct{ StreamViewType string }
		TimeToLiveSpecification *struct {
			AttributeName string
			Enabled       bool
		}
		SSESpecification *struct {
			SSEEnabled     bool
			SSEType        string
			KMSMasterKeyId string
		}
	}
	raw, _ := json.Marshal(res.Properties)
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields() // every exported property is checked below
	if err := dec.Decode(&p); err != nil {
		t.Fatalf("Properties: %v\n%s", err, js)
	}

	keysOf := func(ks []types.KeySchemaElement) []key {
		var out []key
		for _, k := range ks {
			out = append(out, key{aws.ToString(k.AttributeName), string(k.KeyType)})
		}
		return out
	}
	throughputOf := func(pt *types.ProvisionedThroughput) *throughput {
		return &throughput{aws.ToInt64(pt.ReadCapacityUnits), aws.ToInt64(pt.WriteCapacityUnits)}
	}
	check := func(what string, got, want any) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s = %s, want %s", what, g, w)
		}
	}
	check("TableName", p.TableName, aws.ToString(in.TableName))
	if len(p.AttributeDefinitions) != len(in.AttributeDefinitions) {
		t.Errorf("AttributeDefinitions = %+v, want %d", p.AttributeDefinitions, len(in.AttributeDefinitions))
	}
	for i, a := range in.AttributeDefinitions {
		if i < len(p.AttributeDefinitions) {
			check(fmt.Sprintf("AttributeDefinitions[%d]", i), p.AttributeDefinitions[i],
				struct{ AttributeName, AttributeType string }{aws.ToString(a.AttributeName), string(a.AttributeType)})
		}
	}
	check("KeySchema", p.KeySchema, keysOf(in.KeySchema))
	check("BillingMode", p.BillingMode, string(in.BillingMode))
	check("ProvisionedThroughput", p.ProvisionedThroughput, throughputOf(in.ProvisionedThroughput))
	if len(p.GlobalSecondaryIndexes) != len(in.GlobalSecondaryIndexes) {
		t.Fatalf("GlobalSecondaryIndexes = %+v, want %d", p.GlobalSecondaryIndexes, len(in.GlobalSecondaryIndexes))
	}
	for i, g := range in.GlobalSecondaryIndexes {
		got := p.GlobalSecondaryIndexes[i]
		what := fmt.Sprintf("GlobalSecondaryIndexes[%d]", i)
		check(what+".IndexName", got.IndexName, aws.ToString(g.IndexName))
		check(what+".KeySchema", got.KeySchema, keysOf(g.KeySchema))
		check(what+".Projection", got.Projection, projection{string(g.Projection.ProjectionType), g.Projection.NonKeyAttributes})
		check(what+".ProvisionedThroughput", got.ProvisionedThroughput, throughputOf(g.ProvisionedThroughput))
	}
	check("StreamSpecification", p.StreamSpecification, &struct{ StreamViewType string }{string(in.StreamSpecification.StreamViewType)})
	check("TimeToLiveSpecification", p.TimeToLiveSpecification, &struct {
		AttributeName string
		Enabled       bool
	}{d.TTLAttribute, true})
	check("SSESpecification", p.SSESpecification, &struct {
		SSEEnabled     bool
		SSEType        string
		KMSMasterKeyId string
	}{aws.ToBool(in.SSESpecification.Enabled), string(in.SSESpecification.SSEType), aws.ToString(in.SSESpecification.KMSMasterKeyId)})
}

// TestCloudFormationOmits checks what an on-demand definition without TTL,
// stream or SSE leaves out, and that unexported parts are refused.
func TestCloudFormationOmits(t *testing.T) {
	js, err := orders("orders").CloudFormation()
	if err != nil {
		t.Fatalf("CloudFormation() error = %v", err)
	}
	var res struct{ Properties map[string]json.RawMessage }
	if err := json.Unmarshal(js, &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for k := range res.Properties {
		got = append(got, k)
	}
	slices.Sort(got)
	if want := []string{"AttributeDefinitions", "BillingMode", "GlobalSecondaryIndexes", "KeySchema", "TableName"}; !slices.Equal(got, want) {
		t.Errorf("properties = %q, want %q", got, want)
	}
	if strings.Contains(string(js), "ProvisionedThroughput") {
		t.Errorf("an on-demand table exports ProvisionedThroughput:\n%s", js)
	}

	d := rich()
	d.Input.ResourcePolicy = aws.String("{}")
	_, err = d.CloudFormation()
	ddbtest.WantSentinel(t, "CloudFormation() with a resource policy", err, ddbkit.ErrInvalidArgument)
	d = rich()
	d.Input.GlobalSecondaryIndexes[1].ProvisionedThroughput = nil
	_, err = d.CloudFormation()
	ddbtest.WantSentinel(t, "CloudFormation() of a provisioned index without capacity", err, ddbkit.ErrInvalidArgument)
}

// TestCreateTableInputCopies checks that changing the copy leaves the
// definition as it was.
func TestCreateTableInputCopies(t *testing.T) {
	d := rich()
	before, _ := d.CloudFormation()
	in := d.CreateTableInput()
	in.TableName = aws.String("other")
	in.AttributeDefinitions[0].AttributeType = types.ScalarAttributeTypeB
	in.KeySchema[0].AttributeName = aws.String("x")
	in.GlobalSecondaryIndexes[0].KeySchema[0].AttributeName = aws.String("x")
	in.GlobalSecondaryIndexes[1].Projection.NonKeyAttributes[0] = "x"
	in.GlobalSecondaryIndexes[1].ProvisionedThroughput.ReadCapacityUnits = aws.Int64(99)
	in.ProvisionedThroughput.WriteCapacityUnits = aws.Int64(99)
	in.StreamSpecification.StreamViewType = types.StreamViewTypeKeysOnly
	in.SSESpecification.Enabled = aws.Bool(false)
	if after, _ := d.CloudFormation(); string(after) != string(before) {
		t.Errorf("changing CreateTableInput() changed the definition:\nbefore %s\nafter  %s", before, after)
	}
	if got := d.Name(); got != "orders" {
		t.Errorf("Name() = %q, want orders", got)
	}
}
