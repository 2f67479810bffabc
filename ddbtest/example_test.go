package ddbtest_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/ddbtest"
)

// A retry test queues the faults it wants and counts the attempts: a
// CountingClient outside the FaultClient sees every call, failed or not.
func ExampleFaultClient() {
	// In a test this is ddbtest.Client(t). Here every call fails before
	// reaching it.
	ddb := dynamodb.New(dynamodb.Options{Region: "us-east-1"})

	faults := ddbtest.NewFaultClient(ddb)
	attempts := ddbtest.NewCountingClient(faults)
	faults.Inject("TransactWriteItems", ddbtest.TxConflict, 1)
	faults.Inject("TransactWriteItems", ddbtest.Throttle, 1)

	in := &dynamodb.TransactWriteItemsInput{TransactItems: make([]types.TransactWriteItem, 3)}
	for range 2 {
		_, err := attempts.TransactWriteItems(context.Background(), in)
		var canceled *types.TransactionCanceledException
		if errors.As(err, &canceled) {
			fmt.Println(reasonCodes(canceled))
		}
	}
	fmt.Println(attempts.Count("TransactWriteItems"), "attempts,", faults.Injected("TransactWriteItems"), "faults")
	// Output:
	// [TransactionConflict None None]
	// [ThrottlingError None None]
	// 2 attempts, 2 faults
}
