package todoservice_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/todo"

	todoservice "example.com/todoservice"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// exercise runs the service's whole contract on store.
func exercise(t *testing.T, store todo.Store) {
	t.Helper()
	ctx := context.Background()
	s := todoservice.Service{Store: store}
	if err := s.Signup(ctx, "alice", "alice@example.com"); err != nil {
		t.Fatalf("Signup: %v", err)
	}
	if err := s.Signup(ctx, "alice", "other@example.com"); !errors.Is(err, todoservice.ErrTaken) {
		t.Errorf("second Signup: err = %v, want ErrTaken", err)
	}
	var ids []string
	for _, title := range []string{"milk", "taxes", "call mum"} {
		id, err := s.Add(ctx, "alice", title)
		if err != nil {
			t.Fatalf("Add %q: %v", title, err)
		}
		ids = append(ids, id)
	}
	if err := s.Done(ctx, "alice", ids[1]); err != nil {
		t.Fatalf("Done: %v", err)
	}
	got, err := s.Open(ctx, "alice")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	slices.Sort(got)
	if want := []string{"call mum", "milk"}; !slices.Equal(got, want) {
		t.Errorf("Open = %q, want %q", got, want)
	}
}

// TestServiceOnMemoryStore is the unit test: no DynamoDB needed.
func TestServiceOnMemoryStore(t *testing.T) {
	exercise(t, todo.NewMemoryStore())
}

// TestServiceOnDynamoDB is the integration test: ddbtest finds or
// provisions DynamoDB Local and gives it a fresh table.
func TestServiceOnDynamoDB(t *testing.T) {
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, todo.Definition("todoservice").CreateTableInput())
	exercise(t, todo.NewDynamoStore(c, func(o *todo.Options) { o.TableName = name }))

	// The items are in the table the test made.
	out, err := c.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(name), Select: types.SelectCount})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 4 { // the user and three todos
		t.Errorf("table holds %d items, want 4", out.Count)
	}
}
