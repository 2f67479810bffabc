package backend_test

import (
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/backend/backendtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestAskedOld: a write asks DynamoDB for the item as it was (ALL_OLD)
// when its condition fails only where that item can tell something: not
// for a bare existence check, which fails only on a missing item, and not
// for a write without a condition.
func TestAskedOld(t *testing.T) {
	ctx := t.Context()
	c := &backendtest.AskClient{}
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
	want := []string{"TransactWriteItems ConditionCheck ", "TransactWriteItems ConditionCheck ALL_OLD", "TransactWriteItems Put ALL_OLD",
		"TransactWriteItems Update ", "TransactWriteItems Update ", "TransactWriteItems Put ALL_OLD",
		"UpdateItem ", "UpdateItem ALL_OLD", "PutItem ", "DeleteItem "}
	if got := c.Writes(); !slices.Equal(got, want) {
		t.Errorf("asked for the old item:\n got %q\nwant %q", got, want)
	}
}
