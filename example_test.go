package ddbkit_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/ddbkit/ddbkit"
)

// All turns any paged listing into a range-over-func loop.
func ExampleAll() {
	letters := []string{"a", "b", "c", "d", "e"}
	fetch := func(cursor string) (ddbkit.Page[string], error) {
		i, _ := strconv.Atoi(cursor) // "" is the first page
		end := min(i+2, len(letters))
		p := ddbkit.Page[string]{Items: letters[i:end]}
		if end < len(letters) {
			p.Next = strconv.Itoa(end)
		}
		return p, nil
	}
	for s, err := range ddbkit.All(fetch) {
		if err != nil {
			panic(err)
		}
		fmt.Print(s, " ")
	}
	fmt.Println()
	// Output: a b c d e
}

func ExampleValidationError() {
	err := fmt.Errorf("todo: create todo: %w", ddbkit.Invalid("Priority", "must be one of high, medium, low; got %q", "urgent"))

	var ve *ddbkit.ValidationError
	if errors.Is(err, ddbkit.ErrInvalidArgument) && errors.As(err, &ve) {
		fmt.Println("field:", ve.Field)
	}
	fmt.Println(err)
	// Output:
	// field: Priority
	// todo: create todo: invalid argument: Priority: must be one of high, medium, low; got "urgent"
}

// A handler passes the request's Idempotency-Key header on, so that a
// client's retry of a request whose response it never got commits once:
// every store call made with ctx sends a ClientRequestToken derived from
// the key, scoped to the table, the operation and the tenant's partition.
func ExampleWithIdempotencyKey() {
	header := "3f1c9a52-request" // r.Header.Get("Idempotency-Key")
	ctx := ddbkit.WithIdempotencyKey(context.Background(), header)
	k, ok := ddbkit.IdempotencyKey(ctx)
	fmt.Println(k, ok)
	_, ok = ddbkit.IdempotencyKey(ddbkit.WithIdempotencyKey(context.Background(), ""))
	fmt.Println(ok)
	// Output:
	// 3f1c9a52-request true
	// false
}

// Every error a store returns matches exactly one sentinel, so a handler
// maps errors to responses with one switch.
func Example_errorContract() {
	status := func(err error) int {
		switch {
		case err == nil:
			return 200
		case errors.Is(err, ddbkit.ErrInvalidArgument), errors.Is(err, ddbkit.ErrInvalidCursor):
			return 400
		case errors.Is(err, ddbkit.ErrNotFound):
			return 404
		case errors.Is(err, ddbkit.ErrAlreadyExists), errors.Is(err, ddbkit.ErrConflict):
			return 409
		case errors.Is(err, ddbkit.ErrUnavailable):
			return 503
		default: // ErrCorruptItem, ErrSchemaMismatch: the data or table, not the request
			return 500
		}
	}
	corrupt := &ddbkit.CorruptItemError{Table: "wambda-table-ssr001", Key: "pk=user#alice, sk=todo#1", Attr: "created_at", Reason: `got "yesterday"`}
	fmt.Println(status(corrupt), corrupt)
	fmt.Println(status(fmt.Errorf("todo: get todo: %w", context.DeadlineExceeded)), status(fmt.Errorf("x: %w", ddbkit.ErrUnavailable)))
	// Output:
	// 500 corrupt item: table wambda-table-ssr001, key {pk=user#alice, sk=todo#1}, attribute "created_at": got "yesterday"
	// 500 503
}
