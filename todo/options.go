package todo

import (
	"fmt"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Options configure a store. Both stores take the same options.
type Options struct {
	// TableName is the DynamoDB table. The default is TableName(): the
	// DYNAMODB_TABLE environment variable, else DefaultTableName. The memory
	// store uses it too, because page cursors are bound to it.
	TableName string
	// Clock stamps created_at and updated_at. The default is time.Now.
	Clock ddbkit.Clock
	// NewID makes todo and category IDs. The default makes UUIDv4s, as the
	// seed's example IDs are.
	NewID ddbkit.IDGenerator
	// MaxAttempts bounds the attempts of a read-modify-write (ToggleTodo,
	// DeleteCategory) that loses races. The default is 8.
	MaxAttempts int
}

func newOptions(optFns []func(*Options)) Options {
	o := Options{
		TableName:   TableName(),
		Clock:       time.Now,
		NewID:       ddbkit.NewUUIDv4,
		MaxAttempts: ddb.DefaultBackoff.Attempts,
	}
	for _, fn := range optFns {
		fn(&o)
	}
	return o
}

// now returns the time to store: UTC, at the millisecond precision of the
// seed's timestamps, so what a store returns equals what it later reads back.
func (o Options) now() time.Time { return o.Clock().UTC().Truncate(time.Millisecond) }

func (o Options) backoff() ddb.Backoff {
	b := ddb.DefaultBackoff
	b.Attempts = o.MaxAttempts
	return b
}

// Errors both stores return, so that they match in category and in text.

func errUserNotFound(username string) error {
	return fmt.Errorf("user %q: %w", username, ddbkit.ErrNotFound)
}

func errUserExists(username string) error {
	return fmt.Errorf("user %q: %w", username, ddbkit.ErrAlreadyExists)
}

func errNotFound(kind, username, id string) error {
	return fmt.Errorf("%s %q of user %q: %w", kind, id, username, ddbkit.ErrNotFound)
}

func errExists(kind, username, id string) error {
	return fmt.Errorf("%s %q of user %q: %w; the ID generator repeated an ID", kind, id, username, ddbkit.ErrAlreadyExists)
}

func errUnknownCategory(id string) error {
	return ddbkit.Invalid("CategoryID", "names no category of this user (%q); create the category first or leave CategoryID empty", id)
}

// wrap prefixes err with the package and operation, as every error of the
// package reads.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("todo: %s: %w", op, err)
}
