package ddb_test

import (
	"context"
	"errors"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
)

// errUnscripted is what stubClient returns for an operation the test did not
// script.
var errUnscripted = errors.New("stub: unscripted call")

// stubClient is a ddbkit.Client that records every input and answers from
// the functions a test sets. Operations without a function fail with
// errUnscripted. It is safe for concurrent use.
type stubClient struct {
	mu sync.Mutex

	query      func(*dynamodb.QueryInput) (*dynamodb.QueryOutput, error)
	batchGet   func(*dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error)
	batchWrite func(*dynamodb.BatchWriteItemInput) (*dynamodb.BatchWriteItemOutput, error)
	transact   func(*dynamodb.TransactWriteItemsInput) (*dynamodb.TransactWriteItemsOutput, error)

	queries      []*dynamodb.QueryInput
	batchGets    []*dynamodb.BatchGetItemInput
	batchWrites  []*dynamodb.BatchWriteItemInput
	transactions []*dynamodb.TransactWriteItemsInput
	other        int // calls of operations the stub never scripts
}

var _ ddbkit.Client = (*stubClient)(nil)

// calls returns the number of calls of every operation.
func (s *stubClient) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queries) + len(s.batchGets) + len(s.batchWrites) + len(s.transactions) + s.other
}

func (s *stubClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	s.unscripted()
	return nil, errUnscripted
}

func (s *stubClient) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	s.unscripted()
	return nil, errUnscripted
}

func (s *stubClient) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	s.unscripted()
	return nil, errUnscripted
}

func (s *stubClient) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	s.unscripted()
	return nil, errUnscripted
}

func (s *stubClient) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	s.unscripted()
	return nil, errUnscripted
}

func (s *stubClient) unscripted() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.other++
}

func (s *stubClient) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	s.mu.Lock()
	// Copy: QueryPage reuses its input between calls.
	cp := *in
	s.queries = append(s.queries, &cp)
	f := s.query
	s.mu.Unlock()
	if f == nil {
		return nil, errUnscripted
	}
	return f(in)
}

func (s *stubClient) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	s.mu.Lock()
	s.batchGets = append(s.batchGets, in)
	f := s.batchGet
	s.mu.Unlock()
	if f == nil {
		return nil, errUnscripted
	}
	return f(in)
}

func (s *stubClient) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	s.mu.Lock()
	s.batchWrites = append(s.batchWrites, in)
	f := s.batchWrite
	s.mu.Unlock()
	if f == nil {
		return nil, errUnscripted
	}
	return f(in)
}

func (s *stubClient) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	s.mu.Lock()
	s.transactions = append(s.transactions, in)
	f := s.transact
	s.mu.Unlock()
	if f == nil {
		return nil, errUnscripted
	}
	return f(in)
}
