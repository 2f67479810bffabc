package backend_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// asker answers every write with success and notes, per write, whether
// it asked for the item as it was when its condition fails.
type asker struct {
	ddbkit.Client
	mu   sync.Mutex
	asks []string
}

func (c *asker) note(what string, rv types.ReturnValuesOnConditionCheckFailure) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asks = append(c.asks, what+" "+string(rv))
}

func (c *asker) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.note("PutItem", in.ReturnValuesOnConditionCheckFailure)
	return &dynamodb.PutItemOutput{}, nil
}

func (c *asker) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.note("UpdateItem", in.ReturnValuesOnConditionCheckFailure)
	return &dynamodb.UpdateItemOutput{}, nil
}

func (c *asker) DeleteItem(_ context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.note("DeleteItem", in.ReturnValuesOnConditionCheckFailure)
	return &dynamodb.DeleteItemOutput{}, nil
}

func (c *asker) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	for _, it := range in.TransactItems {
		switch {
		case it.Put != nil:
			c.note("Put", it.Put.ReturnValuesOnConditionCheckFailure)
		case it.Update != nil:
			c.note("Update", it.Update.ReturnValuesOnConditionCheckFailure)
		case it.Delete != nil:
			c.note("Delete", it.Delete.ReturnValuesOnConditionCheckFailure)
		case it.ConditionCheck != nil:
			c.note("ConditionCheck", it.ConditionCheck.ReturnValuesOnConditionCheckFailure)
		}
	}
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

// TestAskedOld: a write asks DynamoDB for the item as it was (ALL_OLD)
// when its condition fails only where that item can tell something: not
// for a bare existence check, which fails only on a missing item, and not
// for a write without a condition.
func TestAskedOld(t *testing.T) {
	ctx := t.Context()
	c := &asker{}
	tb := backend.Table{Table: ddb.Table{Name: "t", PartitionKey: "PK", SortKey: "SK"}}
	b := backend.NewDynamo(c, ddb.Backoff{Attempts: 1}, time.Now, tb)
	v := ddb.Item{"v": &types.AttributeValueMemberN{Value: "1"}}
	item := func(sk string) ddb.Item { return ddb.Item{"PK": ddb.S("P"), "SK": ddb.S(sk)} }
	var u backend.Change
	u.Set("v", &types.AttributeValueMemberN{Value: "2"})
	err := b.Tx(ctx, backend.NewRun(ctx, ddb.Scope{Table: "t", Op: "test", Partition: "P"}, ddb.Backoff{Attempts: 1}), []backend.Write{
		backend.Check("exists", tb.Table, backend.Key{PK: "P", SK: "a"}, nil),
		backend.Check("holds", tb.Table, backend.Key{PK: "P", SK: "b"}, v),
		backend.PutNew("new", tb.Table, item("c")),
		backend.Update("update of one that exists", tb.Table, backend.Key{PK: "P", SK: "d"}, u, backend.Exists(nil)),
		backend.Update("upsert", tb.Table, backend.Key{PK: "P", SK: "e"}, u, backend.Cond{}),
		backend.Replace("replace", tb.Table, item("f"), v),
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Update(ctx, tb.Table, backend.Key{PK: "P", SK: "g"}, u, backend.Exists(nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Update(ctx, tb.Table, backend.Key{PK: "P", SK: "h"}, u, backend.Exists(v)); err != nil {
		t.Fatal(err)
	}
	if err := b.Put(ctx, tb.Table, item("i"), backend.Exists(nil)); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveRead(ctx, tb.Table, backend.Key{PK: "P", SK: "j"}); err != nil {
		t.Fatal(err)
	}
	want := []string{"ConditionCheck ", "ConditionCheck ALL_OLD", "Put ALL_OLD", "Update ", "Update ", "Put ALL_OLD",
		"UpdateItem ", "UpdateItem ALL_OLD", "PutItem ", "DeleteItem "}
	if !slices.Equal(c.asks, want) {
		t.Errorf("asked for the old item:\n got %q\nwant %q", c.asks, want)
	}
}
