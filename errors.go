package ddbkit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ddbkit/ddbkit/internal/redact"
)

// Sentinel errors. Every error a ddbkit store returns matches exactly one of
// these with errors.Is. The error keeps its cause, so callers still reach
// AWS errors with errors.As, and a context's error still matches
// context.Canceled or context.DeadlineExceeded.
var (
	// ErrNotFound reports that an item, or an item it refers to, does not exist.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyExists reports that a create would overwrite an existing item.
	ErrAlreadyExists = errors.New("already exists")
	// ErrConflict reports that a concurrent writer won, or that the item is in a
	// state that forbids the operation. Retrying after re-reading may succeed.
	ErrConflict = errors.New("conflict")
	// ErrPermissionDenied reports that the acting user's role does not
	// allow the operation, checked in the same transaction (or condition)
	// as the write, so nothing was written. An HTTP handler maps it to 403
	// Forbidden. Retrying as is fails again; it may succeed once an admin
	// grants the role.
	ErrPermissionDenied = errors.New("permission denied")
	// ErrInvalidArgument reports bad input. Nothing was written.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrInvalidCursor reports a page cursor that is malformed, tampered with,
	// or was issued for a different query. Nothing was read. Restart the listing
	// without a cursor.
	ErrInvalidCursor = errors.New("invalid cursor")
	// ErrCorruptItem reports a stored item that cannot be decoded: an
	// attribute of the wrong type, an unparsable value, a key that is not in
	// the design's format. The item was written by someone else; the caller's
	// input was fine. A *CorruptItemError names the table, key and attribute.
	ErrCorruptItem = errors.New("corrupt item")
	// ErrUnavailable reports that DynamoDB did not complete the call: it
	// kept throttling or failing (HTTP 5xx) through the retries, could not
	// be reached, or the context ended first. Whether a write took effect
	// is unknown unless the method documents otherwise; repeating the same
	// call is safe (see WithIdempotencyKey).
	ErrUnavailable = errors.New("unavailable")
	// ErrSchemaMismatch reports a table that is missing, or whose keys or
	// indexes differ from the design in a way ddbkit cannot add. A
	// *SchemaMismatchError lists every difference.
	ErrSchemaMismatch = errors.New("schema mismatch")
)

// ErrIdempotencyKeyReused reports a write made under an idempotency key
// (WithIdempotencyKey) that the key's window had already seen with other
// writes: the caller reused the key for another request. It is a
// refinement of ErrConflict, which it also matches, so a handler that maps
// ErrConflict to 409 keeps working; one that tells a reused key apart
// (422 Unprocessable Entity, as the IETF Idempotency-Key draft suggests)
// checks it first. Both stores return it, with the same text. It is not
// one of Sentinels: an error that matches it matches ErrConflict as its one
// sentinel. On DynamoDB its cause is *types.IdempotentParameterMismatchException.
var ErrIdempotencyKeyReused = fmt.Errorf("%w: the idempotency key was already used for another request", ErrConflict)

// sentinels lists every sentinel, in the order above.
var sentinels = [...]error{ErrNotFound, ErrAlreadyExists, ErrConflict, ErrPermissionDenied,
	ErrInvalidArgument, ErrInvalidCursor, ErrCorruptItem, ErrUnavailable, ErrSchemaMismatch}

// Sentinels returns every sentinel, in the order above, as a new slice:
// tests use it to check that an error matches exactly one.
func Sentinels() []error { return append([]error(nil), sentinels[:]...) }

// MatchingSentinels returns the sentinels err matches, in Sentinels order.
// For an error of a ddbkit store it holds exactly one.
func MatchingSentinels(err error) []error {
	var out []error
	for _, s := range sentinels {
		if errors.Is(err, s) {
			out = append(out, s)
		}
	}
	return out
}

// ValidationError describes one invalid input field. It matches
// ErrInvalidArgument through errors.Is.
type ValidationError struct {
	// Field is the name of the offending input, as the caller spelled it in Go
	// (for example "Title" or "ClothingIDs[3]").
	Field string
	// Reason says what is wrong and what would be accepted.
	Reason string
}

// Error implements error.
func (e *ValidationError) Error() string {
	return fmt.Sprintf("invalid argument: %s: %s", e.Field, e.Reason)
}

// Is reports whether target is ErrInvalidArgument.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidArgument }

// Invalid returns a *ValidationError for field with a formatted reason. A
// string quoted in the reason (%q: the input, by this package's habit) is
// cut to 64 bytes, with runs of 12 or more digits replaced by their count:
// input can be anything, and errors end up in logs.
func Invalid(field, format string, args ...any) *ValidationError {
	shown := make([]any, len(args))
	for i, a := range args {
		if s, ok := redact.AsString(a); ok {
			a = quotedInput(s)
		}
		shown[i] = a
	}
	return &ValidationError{Field: field, Reason: fmt.Sprintf(format, shown...)}
}

// quotedInput is a string argument of Invalid: as it is but for %q.
type quotedInput string

func (s quotedInput) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", redact.Shown(string(s)))
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), string(s))
}

// CorruptItemError describes a stored item that cannot be decoded. It
// matches ErrCorruptItem through errors.Is.
type CorruptItemError struct {
	// Table is the table the item was read from.
	Table string
	// Key is the item's primary key, as "pk=…, sk=…".
	Key string
	// Attr is the attribute that cannot be decoded.
	Attr string
	// Reason says what is wrong with it.
	Reason string
	// Err is the decoder's error, if any.
	Err error
}

// Error implements error.
func (e *CorruptItemError) Error() string {
	return fmt.Sprintf("corrupt item: table %s, key {%s}, attribute %q: %s", e.Table, e.Key, e.Attr, e.Reason)
}

// Is reports whether target is ErrCorruptItem.
func (e *CorruptItemError) Is(target error) bool { return target == ErrCorruptItem }

// Unwrap returns the decoder's error.
func (e *CorruptItemError) Unwrap() error { return e.Err }

// SchemaMismatchError lists how a table differs from its definition: in
// ways ddbkit cannot reconcile by adding what is missing, or (Missing) by
// lacking what ddbkit adds only when asked to. It matches
// ErrSchemaMismatch through errors.Is.
type SchemaMismatchError struct {
	// Table is the table's name.
	Table string
	// Diffs holds one line per difference, such as
	// `GSI "hostId-index": sort key is "updatedAt", want "createdAt"`.
	Diffs []string
	// Missing is true when every difference is something the table lacks
	// and could be given (a GSI, the stream): its owner adds it, or
	// schema.Ensure with schema.Apply does.
	Missing bool
}

// Error implements error.
func (e *SchemaMismatchError) Error() string {
	fix := "fix or recreate the table by hand, ddbkit changes nothing it cannot add"
	if e.Missing {
		fix = "add it in the table's stack, or ensure with schema.Apply (ddbkit ensure -apply)"
	}
	return fmt.Sprintf("schema mismatch: table %s differs from its definition: %s; %s", e.Table, strings.Join(e.Diffs, "; "), fix)
}

// Is reports whether target is ErrSchemaMismatch.
func (e *SchemaMismatchError) Is(target error) bool { return target == ErrSchemaMismatch }
