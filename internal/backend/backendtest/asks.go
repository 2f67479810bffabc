package backendtest

import (
	"context"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// AskClient passes every call on to Client and notes, for each write,
// what it asks DynamoDB to return when its condition fails: "PutItem
// ALL_OLD", "TransactWriteItems ConditionCheck " (nothing asked). It
// shows which writes read the table through their conditions (the
// withhold option, and the bare existence checks that ask for nothing).
// With a nil Client it answers every write with success itself, for
// tests of the requests alone.
type AskClient struct {
	ddbkit.Client
	mu     sync.Mutex
	writes []string
}

// Writes returns every write noted, in order.
func (c *AskClient) Writes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.writes...)
}

// Asked returns the writes noted that ask for the item as it was.
func (c *AskClient) Asked() []string {
	var out []string
	for _, w := range c.Writes() {
		if !strings.HasSuffix(w, " ") && !strings.HasSuffix(w, " "+string(types.ReturnValuesOnConditionCheckFailureNone)) {
			out = append(out, w)
		}
	}
	return out
}

func (c *AskClient) note(op string, rv types.ReturnValuesOnConditionCheckFailure) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, op+" "+string(rv))
}

// PutItem notes the put and passes it on.
func (c *AskClient) PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.note("PutItem", in.ReturnValuesOnConditionCheckFailure)
	if c.Client == nil {
		return &dynamodb.PutItemOutput{}, nil
	}
	return c.Client.PutItem(ctx, in, optFns...)
}

// UpdateItem notes the update and passes it on.
func (c *AskClient) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.note("UpdateItem", in.ReturnValuesOnConditionCheckFailure)
	if c.Client == nil {
		return &dynamodb.UpdateItemOutput{}, nil
	}
	return c.Client.UpdateItem(ctx, in, optFns...)
}

// DeleteItem notes the delete and passes it on.
func (c *AskClient) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.note("DeleteItem", in.ReturnValuesOnConditionCheckFailure)
	if c.Client == nil {
		return &dynamodb.DeleteItemOutput{}, nil
	}
	return c.Client.DeleteItem(ctx, in, optFns...)
}

// TransactWriteItems notes each item of the transaction and passes it on.
func (c *AskClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	for _, it := range in.TransactItems {
		switch {
		case it.Put != nil:
			c.note("TransactWriteItems Put", it.Put.ReturnValuesOnConditionCheckFailure)
		case it.Update != nil:
			c.note("TransactWriteItems Update", it.Update.ReturnValuesOnConditionCheckFailure)
		case it.Delete != nil:
			c.note("TransactWriteItems Delete", it.Delete.ReturnValuesOnConditionCheckFailure)
		case it.ConditionCheck != nil:
			c.note("TransactWriteItems ConditionCheck", it.ConditionCheck.ReturnValuesOnConditionCheckFailure)
		}
	}
	if c.Client == nil {
		return &dynamodb.TransactWriteItemsOutput{}, nil
	}
	return c.Client.TransactWriteItems(ctx, in, optFns...)
}
