package schema

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

const (
	defaultTimeout      = 10 * time.Minute
	defaultPollInterval = time.Second
)

// ensurer runs one Ensure call.
type ensurer struct {
	c    ddbkit.SchemaClient
	d    Definition
	o    Options
	name string
}

// step is one change of a plan, with the calls that make it. apply reports
// whether this call made the change (false when a racing caller did).
// required marks what the stores cannot work without (an index, the
// stream), and what names it in a mismatch.
type step struct {
	change   Change
	apply    func(ctx context.Context) (made bool, err error)
	required bool
	what     string
}

func ensure(ctx context.Context, c ddbkit.SchemaClient, d Definition, optFns []func(*Options)) ([]Change, error) {
	var o Options
	for _, fn := range optFns {
		fn(&o)
	}
	if o.Timeout <= 0 {
		o.Timeout = defaultTimeout
	}
	if o.PollInterval <= 0 {
		o.PollInterval = defaultPollInterval
	}
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("schema: invalid definition of table %s: %w", d.Name(), err)
	}
	e := &ensurer{c: c, d: d, o: o, name: d.Name()}
	return e.run(ctx)
}

func (e *ensurer) run(ctx context.Context) ([]Change, error) {
	desc, err := e.describe(ctx)
	if err != nil {
		return nil, err
	}
	var changes []Change
	existed := desc != nil
	created := false
	if desc == nil {
		create := e.change(ActionCreateTable, createDetail(e.d.Input))
		if e.o.PlanOnly {
			create.Pending = true
			changes = append(changes, create)
			if e.d.TTLAttribute != "" {
				ttl := e.ttlStep().change
				ttl.Pending = true
				changes = append(changes, ttl)
			}
			return changes, nil
		}
		made, err := e.create(ctx)
		if err != nil {
			return nil, err
		}
		if made {
			changes = append(changes, create)
		}
		created = made
	}
	// An existing table may be CREATING, or UPDATING with another caller's
	// index; DynamoDB refuses an update until it is done. A plan reads the
	// table as it is.
	if !e.o.PlanOnly && (desc == nil || !ready(desc, "").ok) {
		if desc, err = e.wait(ctx, ""); err != nil {
			return changes, err
		}
	}
	steps, notes, err := e.plan(ctx, desc)
	if err != nil {
		return changes, err
	}
	if !created {
		// Notes are on what a table's owner chose. A table this call
		// created is the definition's: whatever its description leaves out
		// (DynamoDB Local reports no encryption) is nobody's choice.
		changes = append(changes, notes...)
	}
	if e.o.PlanOnly || (existed && !e.o.Apply) {
		// An existing table belongs to its owner (a stack, say): what it
		// lacks is reported, not added, unless the caller asks. A missing
		// index or stream is one the stores need: a mismatch.
		var missing []string
		for _, s := range steps {
			s.change.Pending = true
			changes = append(changes, s.change)
			if s.required {
				missing = append(missing, s.what+" is missing")
			}
		}
		if len(missing) > 0 && !e.o.PlanOnly {
			return changes, fmt.Errorf("schema: %w", &ddbkit.SchemaMismatchError{Table: e.name, Diffs: missing, Missing: true})
		}
		return changes, nil
	}
	for _, s := range steps {
		made, err := s.apply(ctx)
		if made { // even when waiting for it then failed
			changes = append(changes, s.change)
		}
		if err != nil {
			return changes, err
		}
	}
	return changes, nil
}

func (e *ensurer) change(action, detail string) Change {
	return Change{Table: e.name, Action: action, Detail: detail}
}

// describe returns the table's description, or nil when it does not exist.
func (e *ensurer) describe(ctx context.Context) (*types.TableDescription, error) {
	out, err := e.c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(e.name)})
	var missing *types.ResourceNotFoundException
	switch {
	case errors.As(err, &missing):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("schema: table %s: describe table: %w", e.name, err)
	case out.Table == nil:
		return nil, fmt.Errorf("schema: table %s: DescribeTable returned no table", e.name)
	}
	return out.Table, nil
}

// create creates the table, tolerating a racing creator.
func (e *ensurer) create(ctx context.Context) (made bool, err error) {
	_, err = e.c.CreateTable(ctx, e.d.CreateTableInput())
	var inUse *types.ResourceInUseException
	switch {
	case errors.As(err, &inUse):
		// Created by someone else since DescribeTable; plan() then checks
		// that it is the same table.
		return false, nil
	case err != nil:
		return false, fmt.Errorf("schema: table %s: create table: %w", e.name, err)
	}
	return true, nil
}

// plan compares the existing table desc with the definition. It returns
// the steps that add what is missing and the notes on the owner's choices
// (see notes), or a *ddbkit.SchemaMismatchError listing every difference
// that cannot be added.
func (e *ensurer) plan(ctx context.Context, desc *types.TableDescription) ([]step, []Change, error) {
	in := e.d.Input
	var diffs []string
	var steps []step
	notes := e.notes(desc)

	diffs = append(diffs, keyDiffs("table key", desc.KeySchema, in.KeySchema)...)
	have := attrTypes(desc.AttributeDefinitions)
	for _, a := range in.AttributeDefinitions {
		name := aws.ToString(a.AttributeName)
		if t, ok := have[name]; ok && t != a.AttributeType {
			diffs = append(diffs, fmt.Sprintf("attribute %q is of type %s, want %s", name, t, a.AttributeType))
		}
	}

	for _, l := range in.LocalSecondaryIndexes {
		name := aws.ToString(l.IndexName)
		i := slices.IndexFunc(desc.LocalSecondaryIndexes, func(h types.LocalSecondaryIndexDescription) bool {
			return aws.ToString(h.IndexName) == name
		})
		if i < 0 {
			diffs = append(diffs, fmt.Sprintf("LSI %q is missing; a local secondary index can only be created with its table", name))
			continue
		}
		h := desc.LocalSecondaryIndexes[i]
		what := fmt.Sprintf("LSI %q", name)
		diffs = append(diffs, keyDiffs(what, h.KeySchema, l.KeySchema)...)
		diffs = append(diffs, projectionDiffs(what, h.Projection, l.Projection)...)
	}

	for _, g := range in.GlobalSecondaryIndexes {
		name := aws.ToString(g.IndexName)
		h := findGSI(desc, name)
		if h == nil {
			steps = append(steps, e.addGSIStep(desc, g))
			continue
		}
		what := fmt.Sprintf("GSI %q", name)
		diffs = append(diffs, keyDiffs(what, h.KeySchema, g.KeySchema)...)
		diffs = append(diffs, projectionDiffs(what, h.Projection, g.Projection)...)
	}

	if want := in.StreamSpecification; want != nil && aws.ToBool(want.StreamEnabled) {
		got := desc.StreamSpecification
		switch {
		case got == nil || !aws.ToBool(got.StreamEnabled):
			steps = append(steps, e.streamStep(want.StreamViewType))
		case !covers(got.StreamViewType, want.StreamViewType):
			diffs = append(diffs, fmt.Sprintf("stream view type is %s, want %s; a stream's view type changes only by disabling and re-enabling it", got.StreamViewType, want.StreamViewType))
		case got.StreamViewType != want.StreamViewType:
			notes = append(notes, e.change(ActionNote, fmt.Sprintf("stream view type is %s, which carries all of the %s this definition needs; left as the table's owner set it", got.StreamViewType, want.StreamViewType)))
		}
	}

	if want := e.d.TTLAttribute; want != "" {
		ttl, err := e.describeTTL(ctx)
		if err != nil {
			return nil, nil, err
		}
		got := aws.ToString(ttl.AttributeName)
		switch {
		case ttlOn(ttl, want):
		case ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabled || ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabling:
			diffs = append(diffs, fmt.Sprintf("TTL is on attribute %q, want %q", got, want))
		default:
			steps = append(steps, e.ttlStep())
		}
	}

	if len(diffs) > 0 {
		return nil, nil, fmt.Errorf("schema: %w", &ddbkit.SchemaMismatchError{Table: e.name, Diffs: diffs})
	}
	return steps, notes, nil
}

// notes reports where the table differs from the definition in what is its
// owner's to choose: billing mode, provisioned capacity and encryption.
// They are never errors and never changed.
func (e *ensurer) notes(desc *types.TableDescription) []Change {
	in := e.d.Input
	var notes []Change
	note := func(format string, args ...any) {
		notes = append(notes, e.change(ActionNote, fmt.Sprintf(format, args...)+"; left as the table's owner set it"))
	}
	want := in.BillingMode
	if want == "" {
		want = types.BillingModeProvisioned
	}
	got := types.BillingModeProvisioned
	if s := desc.BillingModeSummary; s != nil && s.BillingMode != "" {
		got = s.BillingMode
	}
	switch {
	case got != want:
		note("billing mode is %s, the definition's is %s", got, want)
	case want == types.BillingModeProvisioned && in.ProvisionedThroughput != nil && desc.ProvisionedThroughput != nil:
		gr, gw := aws.ToInt64(desc.ProvisionedThroughput.ReadCapacityUnits), aws.ToInt64(desc.ProvisionedThroughput.WriteCapacityUnits)
		wr, ww := aws.ToInt64(in.ProvisionedThroughput.ReadCapacityUnits), aws.ToInt64(in.ProvisionedThroughput.WriteCapacityUnits)
		if gr != wr || gw != ww {
			note("capacity is %d RCU / %d WCU, the definition's is %d / %d", gr, gw, wr, ww)
		}
	}
	wantSSE := in.SSESpecification != nil && aws.ToBool(in.SSESpecification.Enabled)
	gotSSE := desc.SSEDescription != nil && (desc.SSEDescription.Status == types.SSEStatusEnabled || desc.SSEDescription.Status == types.SSEStatusEnabling)
	if wantSSE != gotSSE {
		note("encryption with a KMS key is %s, the definition's is %s", onOff(gotSSE), onOff(wantSSE))
	}
	return notes
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// keyDiffs compares two key schemas.
func keyDiffs(what string, got, want []types.KeySchemaElement) []string {
	gh, gr := keyNames(got)
	wh, wr := keyNames(want)
	var diffs []string
	if gh != wh {
		diffs = append(diffs, fmt.Sprintf("%s: partition key is %s, want %s", what, quoteOrNone(gh), quoteOrNone(wh)))
	}
	if gr != wr {
		diffs = append(diffs, fmt.Sprintf("%s: sort key is %s, want %s", what, quoteOrNone(gr), quoteOrNone(wr)))
	}
	return diffs
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return fmt.Sprintf("%q", s)
}

// projectionDiffs compares two projections: the type, and for INCLUDE the
// non-key attributes as a set.
func projectionDiffs(what string, got, want *types.Projection) []string {
	var gt, wt types.ProjectionType
	if got != nil {
		gt = got.ProjectionType
	}
	if want != nil {
		wt = want.ProjectionType
	}
	same := gt == wt
	if same && wt == types.ProjectionTypeInclude {
		same = slices.Equal(sortedSet(got.NonKeyAttributes), sortedSet(want.NonKeyAttributes))
	}
	if same {
		return nil
	}
	return []string{fmt.Sprintf("%s: projection is %s, want %s", what, describeProjection(got), describeProjection(want))}
}

func findGSI(desc *types.TableDescription, name string) *types.GlobalSecondaryIndexDescription {
	for i := range desc.GlobalSecondaryIndexes {
		if aws.ToString(desc.GlobalSecondaryIndexes[i].IndexName) == name {
			return &desc.GlobalSecondaryIndexes[i]
		}
	}
	return nil
}

// addGSIStep adds g with one UpdateTable call, then waits until it is
// ACTIVE and no longer backfilling.
func (e *ensurer) addGSIStep(desc *types.TableDescription, g types.GlobalSecondaryIndex) step {
	in := e.d.CreateTableInput()
	name := aws.ToString(g.IndexName)
	create := &types.CreateGlobalSecondaryIndexAction{
		IndexName:          g.IndexName,
		KeySchema:          slices.Clone(g.KeySchema),
		Projection:         cloneProjection(g.Projection),
		OnDemandThroughput: clonePtr(g.OnDemandThroughput),
		WarmThroughput:     clonePtr(g.WarmThroughput),
	}
	if tableProvisioned(desc) {
		create.ProvisionedThroughput = gsiThroughput(desc, in, g)
	}
	typed := attrTypes(in.AttributeDefinitions)
	var attrs []types.AttributeDefinition
	for _, k := range g.KeySchema {
		n := aws.ToString(k.AttributeName)
		attrs = append(attrs, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: typed[n]})
	}
	update := &dynamodb.UpdateTableInput{
		TableName:                   aws.String(e.name),
		AttributeDefinitions:        attrs,
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: create}},
	}
	detail := fmt.Sprintf("%q %s %s", name, describeKey(g.KeySchema), describeProjection(g.Projection))
	return step{
		required: true,
		what:     fmt.Sprintf("GSI %q", name),
		change:   e.change(ActionAddGSI, detail),
		apply: func(ctx context.Context) (bool, error) {
			made, err := e.update(ctx, update, fmt.Sprintf("add GSI %q", name), func(d *types.TableDescription) bool {
				return findGSI(d, name) != nil
			})
			if err != nil {
				return false, err
			}
			_, err = e.wait(ctx, name)
			return made, err
		},
	}
}

// tableProvisioned reports whether the existing table bills provisioned
// capacity, so that an index added to it needs its own. A table created
// provisioned before billing modes existed has no BillingModeSummary.
func tableProvisioned(desc *types.TableDescription) bool {
	if s := desc.BillingModeSummary; s != nil && s.BillingMode != "" {
		return s.BillingMode == types.BillingModeProvisioned
	}
	p := desc.ProvisionedThroughput
	return p != nil && aws.ToInt64(p.ReadCapacityUnits) > 0
}

// gsiThroughput is the capacity of an index added to a provisioned table:
// the definition's for the index, else the table's as it is (the definition
// may be on-demand while the live table is not), else the definition's for
// the table.
func gsiThroughput(desc *types.TableDescription, in *dynamodb.CreateTableInput, g types.GlobalSecondaryIndex) *types.ProvisionedThroughput {
	if g.ProvisionedThroughput != nil {
		return clonePtr(g.ProvisionedThroughput)
	}
	if p := desc.ProvisionedThroughput; p != nil && aws.ToInt64(p.ReadCapacityUnits) > 0 {
		return &types.ProvisionedThroughput{ReadCapacityUnits: p.ReadCapacityUnits, WriteCapacityUnits: p.WriteCapacityUnits}
	}
	return clonePtr(in.ProvisionedThroughput)
}

// covers reports whether a stream of view type got carries all that one of
// view type want does: NEW_AND_OLD_IMAGES carries either image, and every
// view the keys. A reader of the new image is served as well by a stream
// that also carries the old one, and the owner of a table may want it.
func covers(got, want types.StreamViewType) bool {
	switch want {
	case got:
		return true
	case types.StreamViewTypeKeysOnly:
		return got != ""
	case types.StreamViewTypeNewImage, types.StreamViewTypeOldImage:
		return got == types.StreamViewTypeNewAndOldImages
	}
	return false
}

// streamStep enables the table's stream with view type vt.
func (e *ensurer) streamStep(vt types.StreamViewType) step {
	update := &dynamodb.UpdateTableInput{
		TableName:           aws.String(e.name),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: vt},
	}
	return step{
		required: true,
		what:     "stream " + string(vt),
		change:   e.change(ActionEnableStream, string(vt)),
		apply: func(ctx context.Context) (bool, error) {
			made, err := e.update(ctx, update, "enable stream", func(d *types.TableDescription) bool {
				s := d.StreamSpecification
				return s != nil && aws.ToBool(s.StreamEnabled) && s.StreamViewType == vt
			})
			if err != nil {
				return false, err
			}
			_, err = e.wait(ctx, "")
			return made, err
		},
	}
}

// update calls UpdateTable. When the call fails it reads the table again:
// done reports the change made by a racing caller (success, made false); a
// table that was busy with someone else's update is waited for and the
// call repeated, within Options.Timeout.
func (e *ensurer) update(ctx context.Context, in *dynamodb.UpdateTableInput, what string, done func(*types.TableDescription) bool) (made bool, err error) {
	deadline := time.Now().Add(e.o.Timeout)
	for {
		_, err := e.c.UpdateTable(ctx, in)
		if err == nil {
			return true, nil
		}
		err = fmt.Errorf("schema: table %s: update table (%s): %w", e.name, what, err)
		desc, derr := e.describe(ctx)
		switch {
		case derr != nil:
			return false, errors.Join(err, derr)
		case desc == nil:
			return false, err
		case done(desc):
			return false, nil
		case ready(desc, "").ok || !busy(err) || time.Now().After(deadline):
			return false, err
		}
		if _, werr := e.wait(ctx, ""); werr != nil {
			return false, errors.Join(err, werr)
		}
	}
}

// busy reports the errors DynamoDB gives an update of a table that is
// being updated: ResourceInUseException, or LimitExceededException for a
// second index created at once.
func busy(err error) bool {
	var inUse *types.ResourceInUseException
	var limit *types.LimitExceededException
	return errors.As(err, &inUse) || errors.As(err, &limit)
}

// ttlStep enables TTL on d.TTLAttribute. It does not wait: DynamoDB takes
// up to an hour to go from ENABLING to ENABLED, and ENABLING is enough.
func (e *ensurer) ttlStep() step {
	attr := e.d.TTLAttribute
	return step{
		change: e.change(ActionEnableTTL, fmt.Sprintf("on %q", attr)),
		apply: func(ctx context.Context) (bool, error) {
			_, err := e.c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
				TableName:               aws.String(e.name),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(attr), Enabled: aws.Bool(true)},
			})
			if err == nil {
				return true, nil
			}
			err = fmt.Errorf("schema: table %s: update time to live (enable on %q): %w", e.name, attr, err)
			if ttl, derr := e.describeTTL(ctx); derr == nil && ttlOn(ttl, attr) {
				return false, nil // a racing caller enabled it
			}
			return false, err
		},
	}
}

func (e *ensurer) describeTTL(ctx context.Context) (*types.TimeToLiveDescription, error) {
	out, err := e.c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(e.name)})
	if err != nil {
		return nil, fmt.Errorf("schema: table %s: describe time to live: %w", e.name, err)
	}
	if out.TimeToLiveDescription == nil {
		return &types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusDisabled}, nil
	}
	return out.TimeToLiveDescription, nil
}

// ttlOn reports whether TTL is enabled, or being enabled, on attr.
func ttlOn(ttl *types.TimeToLiveDescription, attr string) bool {
	s := ttl.TimeToLiveStatus
	return (s == types.TimeToLiveStatusEnabled || s == types.TimeToLiveStatusEnabling) && aws.ToString(ttl.AttributeName) == attr
}

// readiness says whether a table can take the next update, and if not why.
type readiness struct {
	ok  bool
	why string
}

// ready reports whether the table is ACTIVE with every GSI ACTIVE and none
// backfilling, and, when index is not "", lists that index. Every index
// counts, not only index: DynamoDB creates one at a time.
func ready(desc *types.TableDescription, index string) readiness {
	if desc.TableStatus != types.TableStatusActive {
		return readiness{why: fmt.Sprintf("table is %s", desc.TableStatus)}
	}
	found := index == ""
	for _, g := range desc.GlobalSecondaryIndexes {
		name := aws.ToString(g.IndexName)
		found = found || name == index
		switch {
		case g.IndexStatus != types.IndexStatusActive:
			return readiness{why: fmt.Sprintf("GSI %q is %s", name, g.IndexStatus)}
		case aws.ToBool(g.Backfilling):
			return readiness{why: fmt.Sprintf("GSI %q is backfilling", name)}
		}
	}
	if !found {
		return readiness{why: fmt.Sprintf("GSI %q is not listed yet", index)}
	}
	return readiness{ok: true}
}

// wait polls DescribeTable until ready(desc, index), for at most
// Options.Timeout, and returns the last description.
func (e *ensurer) wait(ctx context.Context, index string) (*types.TableDescription, error) {
	wctx, cancel := context.WithTimeout(ctx, e.o.Timeout)
	defer cancel()
	what := "table"
	if index != "" {
		what = fmt.Sprintf("GSI %q", index)
	}
	why := "not described yet"
	for {
		desc, err := e.describe(wctx)
		switch {
		case err != nil && ctx.Err() == nil && wctx.Err() != nil:
			// The wait timed out in the middle of a call.
		case err != nil:
			return nil, err
		case desc == nil:
			return nil, fmt.Errorf("schema: table %s: deleted while waiting for its %s", e.name, what)
		default:
			r := ready(desc, index)
			if r.ok {
				return desc, nil
			}
			why = r.why
		}
		t := time.NewTimer(e.o.PollInterval)
		select {
		case <-wctx.Done():
			t.Stop()
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("schema: table %s: waiting for %s (%s): %w", e.name, what, why, err)
			}
			return nil, fmt.Errorf("schema: table %s: %s not ready after %v (%s); a later Ensure goes on: %w",
				e.name, what, e.o.Timeout, why, context.DeadlineExceeded)
		case <-t.C:
		}
	}
}

// createDetail summarises a table's definition for the "create table"
// change.
func createDetail(in *dynamodb.CreateTableInput) string {
	s := "key " + describeKey(in.KeySchema)
	for _, g := range in.GlobalSecondaryIndexes {
		s += fmt.Sprintf(", GSI %q %s", aws.ToString(g.IndexName), describeKey(g.KeySchema))
	}
	for _, l := range in.LocalSecondaryIndexes {
		s += fmt.Sprintf(", LSI %q %s", aws.ToString(l.IndexName), describeKey(l.KeySchema))
	}
	if st := in.StreamSpecification; st != nil && aws.ToBool(st.StreamEnabled) {
		s += ", stream " + string(st.StreamViewType)
	}
	return s
}
