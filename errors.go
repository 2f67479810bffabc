package ddbkit

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every store in ddbkit reports failures in one of these
// categories, wrapped with context and the underlying cause, so callers test
// them with errors.Is and still reach AWS errors with errors.As.
var (
	// ErrNotFound reports that an item, or an item it refers to, does not exist.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyExists reports that a create would overwrite an existing item.
	ErrAlreadyExists = errors.New("already exists")
	// ErrConflict reports that a concurrent writer won, or that the item is in a
	// state that forbids the operation. Retrying after re-reading may succeed.
	ErrConflict = errors.New("conflict")
	// ErrInvalidArgument reports bad input. Nothing was written.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrInvalidCursor reports a page cursor that is malformed, tampered with,
	// or was issued for a different query. Nothing was read. Restart the listing
	// without a cursor.
	ErrInvalidCursor = errors.New("invalid cursor")
)

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

// Invalid returns a *ValidationError for field with a formatted reason.
func Invalid(field, format string, args ...any) *ValidationError {
	return &ValidationError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
