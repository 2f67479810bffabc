package wardrobe

import (
	"fmt"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Options configure a store. Both stores take the same options.
type Options struct {
	// TableName is the DynamoDB table. The default is DefaultTableName.
	// The memory store uses it too, because page cursors are bound to it.
	TableName string
	// Clock stamps createdAt and deletedAt. The default is time.Now.
	Clock ddbkit.Clock
	// NewID makes wardrobe, clothing, template and history IDs. The
	// default makes UUIDv7s, as the seed specifies.
	NewID ddbkit.IDGenerator
	// MaxAttempts bounds the attempts of a read-modify-write (AddHistory,
	// DeleteHistory, RecalculateStats) that loses races. The default is 8.
	MaxAttempts int
}

func newOptions(optFns []func(*Options)) Options {
	o := Options{
		TableName:   DefaultTableName,
		Clock:       time.Now,
		NewID:       ddbkit.NewUUIDv7,
		MaxAttempts: ddb.DefaultBackoff.Attempts,
	}
	for _, fn := range optFns {
		fn(&o)
	}
	return o
}

// now returns the time to store: UTC, at the millisecond precision of the
// seed's Unix ms numbers, so what a store returns equals what it reads back.
func (o Options) now() time.Time { return o.Clock().UTC().Truncate(time.Millisecond) }

func (o Options) backoff() ddb.Backoff {
	b := ddb.DefaultBackoff
	b.Attempts = o.MaxAttempts
	return b
}

// Errors both stores return, so that they match in category and in text.

func errWardrobeNotFound(id string) error {
	return fmt.Errorf("wardrobe %q: %w", id, ddbkit.ErrNotFound)
}

func errNotFound(kind, wardrobeID, id string) error {
	return fmt.Errorf("%s %q of wardrobe %q: %w", kind, id, wardrobeID, ddbkit.ErrNotFound)
}

func errExists(kind, id string) error {
	return fmt.Errorf("%s %q: %w; the ID generator repeated an ID", kind, id, ddbkit.ErrAlreadyExists)
}

// errUnknownRef and errDeletedRef refuse a reference to a clothing or
// template that cannot be worn or listed in an outfit.
func errUnknownRef(field string, kind Kind, id string) error {
	return ddbkit.Invalid(field, "names no %s of this wardrobe (%q)", kind.noun(), id)
}

func errDeletedRef(field string, kind Kind, id string) error {
	return ddbkit.Invalid(field, "names a DELETED %s (%q); restore it first or leave it out", kind.noun(), id)
}

func errRaced(what string) error {
	return fmt.Errorf("%s changed while being updated: %w", what, ddbkit.ErrConflict)
}

// wrap prefixes err with the package and operation, as every error of the
// package reads.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("wardrobe: %s: %w", op, err)
}
