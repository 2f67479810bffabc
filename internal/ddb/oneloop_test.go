package ddb_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// optsClient answers every call with err and keeps the options of the
// last one.
type optsClient struct {
	ddbkit.Client
	err  error
	opts dynamodb.Options
}

func (c *optsClient) apply(fns []func(*dynamodb.Options)) {
	c.opts = dynamodb.Options{}
	for _, fn := range fns {
		fn(&c.opts)
	}
}

func (c *optsClient) GetItem(_ context.Context, _ *dynamodb.GetItemInput, fns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.apply(fns)
	return nil, c.err
}

func (c *optsClient) TransactWriteItems(_ context.Context, _ *dynamodb.TransactWriteItemsInput, fns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.apply(fns)
	return nil, c.err
}

// TestOneLoop: every call through OneLoop turns the SDK's retries off,
// keeping the caller's own options, and a missing table is named in the
// error, which still matches the SDK's type and classifies as
// ErrSchemaMismatch pointing at EnsureTable(s).
func TestOneLoop(t *testing.T) {
	c := &optsClient{err: &types.ResourceNotFoundException{Message: aws.String("Cannot do operations on a non-existent table")}}
	oc := ddb.OneLoop(c)
	if ddb.OneLoop(oc) != oc {
		t.Error("OneLoop(OneLoop(c)) wraps twice")
	}
	mine := func(o *dynamodb.Options) { o.Region = "mine" }
	_, err := oc.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String("Rooms-dev")}, mine)
	if _, ok := c.opts.Retryer.(aws.NopRetryer); !ok || c.opts.Region != "mine" {
		t.Errorf("options of the call: Retryer %T, Region %q; want aws.NopRetryer and the caller's own", c.opts.Retryer, c.opts.Region)
	}
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) || !strings.Contains(err.Error(), "Rooms-dev") {
		t.Errorf("GetItem of a missing table: %v; want it named, and a *ResourceNotFoundException", err)
	}
	if cerr := ddb.Classify(err); !errors.Is(cerr, ddbkit.ErrSchemaMismatch) || !strings.Contains(cerr.Error(), "EnsureTables") {
		t.Errorf("Classify: %v; want ErrSchemaMismatch naming EnsureTable(s)", cerr)
	}
	_, err = oc.TransactWriteItems(t.Context(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("B")}}, {Delete: &types.Delete{TableName: aws.String("A")}},
		{Update: &types.Update{TableName: aws.String("B")}},
	}})
	if err == nil || !strings.Contains(err.Error(), "table A, B:") {
		t.Errorf("TransactWriteItems on missing tables: %v; want them named once each", err)
	}
	if _, ok := c.opts.Retryer.(aws.NopRetryer); !ok {
		t.Errorf("TransactWriteItems' Retryer = %T, want aws.NopRetryer", c.opts.Retryer)
	}
	c.err = errors.New("other")
	if _, err := oc.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String("T")}); err != c.err {
		t.Errorf("another error: %v, want it as it was", err)
	}
}
