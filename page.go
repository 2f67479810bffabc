package ddbkit

import (
	"iter"
)

// Page is one page of a listing.
type Page[T any] struct {
	// Items holds at most the requested number of items, in the listing's order.
	Items []T
	// Next is an opaque cursor for the following page, or "" when this page is
	// the last. A cursor is only valid for the listing that returned it: the
	// same table, index, partition and direction. Anything else, or a modified
	// cursor, fails with ErrInvalidCursor.
	Next string
	// Skipped holds one error for each stored item of this page that could
	// not be decoded (each matches ErrCorruptItem and names the table, key
	// and attribute). Such items are left out of Items rather than failing
	// the page, so that one bad item written by another program does not
	// hide the rest of a listing; log them. A page with skipped items may
	// hold fewer items than the limit, and Next still continues after them.
	// The memory stores hold only items they decoded, so theirs is empty.
	Skipped []error
}

// PageOptions selects one page of a listing.
type PageOptions struct {
	// Limit is the most items to return. Zero means DefaultPageLimit; values
	// above MaxPageLimit or below zero are invalid.
	Limit int
	// Cursor is the Next value of the previous page, or "" for the first page.
	Cursor string
}

// Page size bounds shared by every listing in ddbkit.
const (
	DefaultPageLimit = 100
	MaxPageLimit     = 1000
)

// EffectiveLimit validates o.Limit and applies DefaultPageLimit.
func (o PageOptions) EffectiveLimit() (int, error) {
	switch {
	case o.Limit < 0 || o.Limit > MaxPageLimit:
		return 0, Invalid("Limit", "must be between 0 and %d, got %d", MaxPageLimit, o.Limit)
	case o.Limit == 0:
		return DefaultPageLimit, nil
	}
	return o.Limit, nil
}

// All walks every page that fetch returns, starting with the first, and yields
// each item. It stops at the first error, which it yields with a zero T.
// Breaking out of the loop stops fetching. Items a page skipped
// (Page.Skipped) are not yielded; call the listing directly to see them.
func All[T any](fetch func(cursor string) (Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		cursor := ""
		for {
			p, err := fetch(cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range p.Items {
				if !yield(it, nil) {
					return
				}
			}
			if p.Next == "" {
				return
			}
			cursor = p.Next
		}
	}
}
