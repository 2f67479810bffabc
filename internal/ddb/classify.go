package ddb

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
)

// Classify makes err match exactly one ddbkit sentinel, keeping it as the
// cause so that errors.As still reaches the SDK's error and errors.Is still
// matches a context's error. Every domain's error wrapper calls it on the
// way out, so no error of a store escapes the contract. An error that
// already matches a sentinel is returned as it is.
//
//	what                                          sentinel
//	context canceled or deadline exceeded         ErrUnavailable
//	throttling, 5xx, a network failure            ErrUnavailable
//	a missing table or index                      ErrSchemaMismatch
//	a transaction conflict                        ErrConflict
//	a condition that failed, unhandled            ErrConflict
//	a token reused for other writes               ErrConflict
//	an item over DynamoDB's 400 KB                ErrInvalidArgument
//	a transaction over DynamoDB's 4 MB            ErrInvalidArgument
//	another ValidationException                   ErrSchemaMismatch
//	anything else                                 ErrUnavailable
func Classify(err error) error {
	if err == nil {
		return nil
	}
	if len(ddbkit.MatchingSentinels(err)) > 0 {
		return err
	}
	var mismatch *types.IdempotentParameterMismatchException
	if errors.As(err, &mismatch) {
		return KeyReused(err)
	}
	kind, why := classify(err)
	return &classified{kind: kind, why: why, err: err}
}

// KeyReused is the error of a write under a caller's idempotency key that
// the key's record (internal/backend's Keyed) or its ClientRequestToken
// (within DynamoDB's 10-minute window) shows was used for other input. It matches ddbkit.ErrIdempotencyKeyReused
// and so ddbkit.ErrConflict. Its text is
// the same whoever reports it (DynamoDB's IdempotentParameterMismatch,
// passed as cause and reachable with errors.As, or a memory store's
// emulation, with a nil cause), so both stores give the same error.
func KeyReused(cause error) error { return &keyReused{cause: cause} }

type keyReused struct{ cause error }

func (e *keyReused) Error() string {
	return ddbkit.ErrIdempotencyKeyReused.Error() + "; use a new key for a new request"
}

func (e *keyReused) Is(target error) bool {
	return target == ddbkit.ErrIdempotencyKeyReused || target == ddbkit.ErrConflict
}

func (e *keyReused) Unwrap() error { return e.cause }

//lint:ignore ST1008 kind is not classify's failure but its answer, the sentinel err matches; why explains it.
func classify(err error) (kind error, why string) {
	var (
		missing *types.ResourceNotFoundException
		ce      *TxCanceledError
		tce     *types.TransactionCanceledException
		api     smithy.APIError
	)
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return ddbkit.ErrUnavailable, "the context ended before DynamoDB answered"
	case errors.As(err, &missing):
		return ddbkit.ErrSchemaMismatch, "the table or index does not exist; create it with the domain's EnsureTable (livecomment: EnsureTables)"
	case errors.As(err, &ce) && ce.has(ReasonThrottling):
		return ddbkit.ErrUnavailable, "DynamoDB kept throttling; retry later or raise the table's capacity"
	case errors.As(err, &ce) || errors.As(err, &tce) || IsConditionFailed(err) ||
		errors.As(err, &api) && api.ErrorCode() == "TransactionConflictException":
		return ddbkit.ErrConflict, "a condition failed: the item changed under the operation"
	case Throttled(err):
		return ddbkit.ErrUnavailable, "DynamoDB kept throttling; retry later or raise the table's capacity"
	case errors.As(err, &api) && api.ErrorCode() == "ValidationException" && tooLarge(api.ErrorMessage()):
		// Domains check sizes before writing (CheckItemSize); this is the
		// net under an item another writer made large.
		return ddbkit.ErrInvalidArgument, "the item would pass DynamoDB's 400 KB limit; shorten its longest fields"
	case errors.As(err, &api) && api.ErrorCode() == "ValidationException" && txTooLarge(api.ErrorMessage()):
		// The backend refuses such a transaction before sending it; this
		// is the net under an estimate that fell short.
		return ddbkit.ErrInvalidArgument, "the transaction would pass DynamoDB's 4 MB limit; write fewer or smaller items"
	case errors.As(err, &api) && api.ErrorCode() == "ValidationException":
		// DynamoDB reports a query on a missing index, or on an index with
		// other key attributes, as a ValidationException.
		return ddbkit.ErrSchemaMismatch, "DynamoDB refused the request; the table may not match its definition (check it with the domain's EnsureTable, livecomment: EnsureTables)"
	}
	return ddbkit.ErrUnavailable, "DynamoDB did not complete the call; it is safe to repeat"
}

// tooLarge reports whether a ValidationException's message is DynamoDB's
// item size refusal ("Item size has exceeded the maximum allowed size",
// "Item size to update has exceeded ...").
func tooLarge(msg string) bool {
	return strings.Contains(strings.ToLower(msg), "item size")
}

// txTooLarge reports whether a ValidationException's message is
// DynamoDB's refusal of a transaction over 4 MB ("Transaction payload size
// cannot exceed 4MB. Payload Size: ...", as DynamoDB Local says it).
func txTooLarge(msg string) bool {
	return strings.Contains(strings.ToLower(msg), "transaction payload size")
}

// classified is an error given its sentinel by Classify.
type classified struct {
	kind error
	why  string
	err  error
}

func (e *classified) Error() string { return fmt.Sprintf("%v: %s: %v", e.kind, e.why, e.err) }

func (e *classified) Is(target error) bool { return target == e.kind }

func (e *classified) Unwrap() error { return e.err }

// Throttled reports whether err is DynamoDB throttling a call.
func Throttled(err error) bool {
	var ce *TxCanceledError
	if errors.As(err, &ce) && ce.has(ReasonThrottling) {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded":
			return true
		}
	}
	return false
}

// ServerError reports a DynamoDB 5xx, or a failure to get an answer at all
// (a broken connection, a response that never came): the server, not the
// request, is at fault, and whether a write took effect is unknown.
func ServerError(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		return api.ErrorFault() == smithy.FaultServer
	}
	var op *smithy.OperationError
	return errors.As(err, &op) // no API error inside: the transport failed
}
