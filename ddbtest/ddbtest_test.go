package ddbtest_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/ddbtest"
)

// pkSK returns the input for a table keyed by string attributes pk and sk.
func pkSK(name string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
	}
}

// key returns the key of item pk/sk.
func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: pk},
		"sk": &types.AttributeValueMemberS{Value: sk},
	}
}

// keyString renders the pk and sk of item as "pk/sk".
func keyString(item map[string]types.AttributeValue) string {
	s := func(name string) string {
		if v, ok := item[name].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return "?"
	}
	return s("pk") + "/" + s("sk")
}

var validName = regexp.MustCompile(`^[a-zA-Z0-9_.-]{3,255}$`)

func TestUniqueName(t *testing.T) {
	seen := make(map[string]bool)
	for range 1000 {
		got := ddbtest.UniqueName("env")
		if !strings.HasPrefix(got, "env-") || len(got) != len("env-")+8 {
			t.Fatalf("UniqueName(%q) = %q, want env- and 8 characters", "env", got)
		}
		if !validName.MatchString(got) {
			t.Fatalf("UniqueName(%q) = %q, not a valid DynamoDB name", "env", got)
		}
		if seen[got] {
			t.Fatalf("UniqueName(%q) returned %q twice", "env", got)
		}
		seen[got] = true
	}
}

func TestNewTable(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	in := pkSK("ddbtest-newtable")

	var names []string
	t.Run("create", func(t *testing.T) {
		for range 2 {
			names = append(names, ddbtest.NewTable(t, ddb, in))
		}
		if names[0] == names[1] {
			t.Errorf("NewTable returned %q twice", names[0])
		}
		if got := aws.ToString(in.TableName); got != "ddbtest-newtable" {
			t.Errorf("NewTable changed its input's TableName to %q", got)
		}
		for _, name := range names {
			if !strings.HasPrefix(name, "ddbtest-newtable-") || !validName.MatchString(name) {
				t.Errorf("NewTable name = %q, want a valid name starting ddbtest-newtable-", name)
			}
			out, err := ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
			if err != nil {
				t.Fatalf("DescribeTable(%s): %v", name, err)
			}
			if got := out.Table.TableStatus; got != types.TableStatusActive {
				t.Errorf("table %s status = %s, want ACTIVE", name, got)
			}
			if out.Table.BillingModeSummary == nil || out.Table.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
				t.Errorf("table %s billing mode = %+v, want PAY_PER_REQUEST", name, out.Table.BillingModeSummary)
			}
		}
	})

	// The subtest's cleanup has run: both tables must be gone.
	for _, name := range names {
		_, err := ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		var notFound *types.ResourceNotFoundException
		if !errors.As(err, &notFound) {
			t.Errorf("DescribeTable(%s) after cleanup: err = %v, want ResourceNotFoundException", name, err)
		}
	}
}

func TestNewTableLongName(t *testing.T) {
	ddb := ddbtest.Client(t)
	name := ddbtest.NewTable(t, ddb, pkSK(strings.Repeat("x", 255)))
	if len(name) > 255 || !validName.MatchString(name) {
		t.Errorf("NewTable name = %q (%d bytes), want a valid name of at most 255", name, len(name))
	}
}

func TestCountingClient(t *testing.T) {
	ctx := context.Background()
	ddb := ddbtest.Client(t)
	table := ddbtest.NewTable(t, ddb, pkSK("ddbtest-counting"))
	c := ddbtest.NewCountingClient(ddb)

	item := key("user#1", "profile")
	item["name"] = &types.AttributeValueMemberS{Value: "Ada"}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: item}); err != nil {
		t.Fatalf("PutItem: %v", err)
	}
	for range 2 {
		out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: key("user#1", "profile")})
		if err != nil {
			t.Fatalf("GetItem: %v", err)
		}
		if got, ok := out.Item["name"].(*types.AttributeValueMemberS); !ok || got.Value != "Ada" {
			t.Fatalf("GetItem name = %#v, want Ada", out.Item["name"])
		}
	}

	if got := c.Count("PutItem"); got != 1 {
		t.Errorf("Count(PutItem) = %d, want 1", got)
	}
	if got := c.Count("GetItem"); got != 2 {
		t.Errorf("Count(GetItem) = %d, want 2", got)
	}
	if got := c.Count("Query"); got != 0 {
		t.Errorf("Count(Query) = %d, want 0", got)
	}
	if got, want := c.Counts(), map[string]int{"PutItem": 1, "GetItem": 2}; !maps.Equal(got, want) {
		t.Errorf("Counts() = %v, want %v", got, want)
	}

	c.Reset()
	if got := c.Counts(); len(got) != 0 {
		t.Errorf("Counts() after Reset = %v, want empty", got)
	}
	if got := c.Count("GetItem"); got != 0 {
		t.Errorf("Count(GetItem) after Reset = %d, want 0", got)
	}
}

// TestNoBackend runs this test binary again with no way to reach DynamoDB,
// and checks that Endpoint skips, or fails when DDBTEST_REQUIRED=1.
func TestNoBackend(t *testing.T) {
	if os.Getenv("DDBTEST_CHILD") == "1" {
		ddbtest.Endpoint(t)
		t.Fatal("Endpoint returned with no backend")
	}
	tests := []struct {
		name     string
		required string
		wantFail bool
		wantOut  string
	}{
		{name: "skip", required: "", wantFail: false, wantOut: "--- SKIP: TestNoBackend"},
		{name: "required", required: "1", wantFail: true, wantOut: "--- FAIL: TestNoBackend"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestNoBackend$", "-test.v")
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "DYNAMODB_") && !strings.HasPrefix(kv, "DDBTEST_") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(cmd.Env, "DDBTEST_CHILD=1", "DDBTEST_DOCKER=0", "DDBTEST_REQUIRED="+tt.required)
			out, err := cmd.CombinedOutput()
			if failed := err != nil; failed != tt.wantFail {
				t.Errorf("child failed = %v (%v), want %v; output:\n%s", failed, err, tt.wantFail, out)
			}
			for _, want := range []string{tt.wantOut, "DYNAMODB_ENDPOINT", "DYNAMODB_LOCAL_JAR", "Docker"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("child output lacks %q; output:\n%s", want, out)
				}
			}
		})
	}
}
