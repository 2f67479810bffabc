package ddbkit_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/schema"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// schemaFunc is one exported schema function of a domain, and the package
// name its errors must start with.
type schemaFunc struct {
	name   string
	prefix string
	ensure func(ctx context.Context, c ddbkit.SchemaClient) error
}

// schemaFuncs are every domain's exported schema functions.
var schemaFuncs = []schemaFunc{
	{"todo.EnsureTable", "todo:", func(ctx context.Context, c ddbkit.SchemaClient) error {
		_, err := todo.EnsureTable(ctx, c, "todo-table")
		return err
	}},
	{"taskmgmt.EnsureTable", "taskmgmt:", func(ctx context.Context, c ddbkit.SchemaClient) error {
		_, err := taskmgmt.EnsureTable(ctx, c, taskmgmt.DefaultTableName)
		return err
	}},
	{"taskmgmt.EnsureInvitationTable", "taskmgmt:", func(ctx context.Context, c ddbkit.SchemaClient) error {
		_, err := taskmgmt.EnsureInvitationTable(ctx, c, taskmgmt.DefaultInvitationTableName)
		return err
	}},
	{"kondate.EnsureTable", "kondate:", func(ctx context.Context, c ddbkit.SchemaClient) error {
		_, err := kondate.EnsureTable(ctx, c, "MainTable")
		return err
	}},
	{"wardrobe.EnsureTable", "wardrobe:", func(ctx context.Context, c ddbkit.SchemaClient) error {
		_, err := wardrobe.EnsureTable(ctx, c, "wardrobe-table")
		return err
	}},
	{"livecomment.EnsureTables", "livecomment:", func(ctx context.Context, c ddbkit.SchemaClient) error {
		_, err := livecomment.EnsureTables(ctx, c, "dev")
		return err
	}},
}

// failingSchemaClient is a SchemaClient whose DescribeTable and
// CreateTable return the errors given (nil: "no such table" for
// DescribeTable); any other call panics through the nil interface, so a
// test that reaches one fails loudly.
type failingSchemaClient struct {
	ddbkit.SchemaClient
	describe, create error
}

func (c failingSchemaClient) DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	if c.describe == nil {
		return nil, &types.ResourceNotFoundException{Message: aws.String("Requested resource not found")}
	}
	return nil, c.describe
}

func (c failingSchemaClient) CreateTable(context.Context, *dynamodb.CreateTableInput, ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	return nil, c.create
}

// TestSchemaErrors holds every domain's schema functions to the error
// promise the stores keep: each error matches exactly one sentinel and
// starts with the package's name.
func TestSchemaErrors(t *testing.T) {
	accessDenied := &smithy.GenericAPIError{Code: "AccessDeniedException", Message: "not authorized to perform dynamodb:CreateTable"}
	unreachable := dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String("http://127.0.0.1:1"),
		Credentials:      credentials.NewStaticCredentialsProvider("dummy", "dummy", ""),
		RetryMaxAttempts: 1,
	})
	clients := []struct {
		name string
		c    ddbkit.SchemaClient
		want error
	}{
		{"unreachable endpoint", unreachable, ddbkit.ErrUnavailable},
		{"unknown table, CreateTable denied", failingSchemaClient{create: accessDenied}, ddbkit.ErrUnavailable},
		{"DescribeTable denied", failingSchemaClient{describe: accessDenied}, ddbkit.ErrUnavailable},
		{"DescribeTable throttled", failingSchemaClient{describe: &types.LimitExceededException{Message: aws.String("too many")}}, nil},
	}
	for _, cl := range clients {
		for _, f := range schemaFuncs {
			t.Run(cl.name+"/"+f.name, func(t *testing.T) {
				err := f.ensure(t.Context(), cl.c)
				if err == nil {
					t.Fatal("got no error")
				}
				if got := ddbkit.MatchingSentinels(err); len(got) != 1 {
					t.Errorf("error %q matches sentinels %v, want exactly one", err, got)
				}
				if cl.want != nil && !errors.Is(err, cl.want) {
					t.Errorf("error %q does not match %v", err, cl.want)
				}
				if !strings.HasPrefix(err.Error(), f.prefix) {
					t.Errorf("error %q does not start with %q", err, f.prefix)
				}
			})
		}
	}
}

// TestSchemaErrorsPlanOnly checks that a plan of an unknown table, which
// writes nothing, is no error in any domain: the failing client's
// CreateTable is never reached.
func TestSchemaErrorsPlanOnly(t *testing.T) {
	c := failingSchemaClient{create: errors.New("CreateTable called under PlanOnly")}
	plans := []struct {
		name string
		plan func() ([]schema.Change, error)
	}{
		{"todo.EnsureTable", func() ([]schema.Change, error) {
			return todo.EnsureTable(t.Context(), c, "todo-table", schema.PlanOnly)
		}},
		{"taskmgmt.EnsureTable", func() ([]schema.Change, error) {
			return taskmgmt.EnsureTable(t.Context(), c, taskmgmt.DefaultTableName, schema.PlanOnly)
		}},
		{"taskmgmt.EnsureInvitationTable", func() ([]schema.Change, error) {
			return taskmgmt.EnsureInvitationTable(t.Context(), c, taskmgmt.DefaultInvitationTableName, schema.PlanOnly)
		}},
		{"kondate.EnsureTable", func() ([]schema.Change, error) {
			return kondate.EnsureTable(t.Context(), c, "MainTable", kondate.SchemaOptions(schema.PlanOnly))
		}},
		{"wardrobe.EnsureTable", func() ([]schema.Change, error) {
			return wardrobe.EnsureTable(t.Context(), c, "wardrobe-table", schema.PlanOnly)
		}},
		{"livecomment.EnsureTables", func() ([]schema.Change, error) {
			return livecomment.EnsureTables(t.Context(), c, "dev", schema.PlanOnly)
		}},
	}
	for _, p := range plans {
		t.Run(p.name, func(t *testing.T) {
			changes, err := p.plan()
			if err != nil {
				t.Fatalf("got error %v, want a plan", err)
			}
			if len(changes) == 0 || !changes[0].Pending {
				t.Errorf("got changes %v, want a pending creation first", changes)
			}
		})
	}
}
