package fuzzcheck

// What taskmgmt's and livecomment's targets assert alike: that an error is
// bounded and keeps secrets, that a listing takes only the cursors it
// issued, and what an accepted or refused write leaves.

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
)

// The bounds of an error's text: its whole length, and how much of any
// one input it may repeat.
const (
	MaxErrLen = 2000 // and MaxEcho
	echoStep  = 50
)

// Echoed reports the first of inputs that msg repeats more than
// MaxEcho+50 bytes of, from anywhere in it: such a repetition holds one of
// the windows of MaxEcho+1 bytes that start every 50 bytes.
func Echoed(msg string, inputs []string) (int, bool) {
	for n, s := range inputs {
		for i := 0; i+MaxEcho < len(s); i += echoStep {
			if strings.Contains(msg, s[i:i+MaxEcho+1]) {
				return n, true
			}
		}
	}
	return 0, false
}

// Bounded fails t if err's text is longer than MaxErrLen, repeats more
// than a bounded part of any of inputs (see Echoed), or holds any of
// secrets (of 8 bytes or more: shorter ones occur by chance).
func Bounded(t testing.TB, err error, inputs []string, secrets ...string) {
	t.Helper()
	msg := err.Error()
	if len(msg) > MaxErrLen {
		t.Fatalf("error is %d bytes long: %.300s…", len(msg), msg)
	}
	if i, ok := Echoed(msg, inputs); ok {
		t.Fatalf("error %.300s… echoes more than %d bytes of input %.100q…", msg, MaxEcho, inputs[i])
	}
	for _, s := range secrets {
		if len(s) >= 8 && strings.Contains(msg, s) {
			t.Fatalf("error %.300s… echoes a secret", msg)
		}
	}
}

// Listing is one listing whose cursors Cursors hands back: List returns
// the Next cursor of the page o asks for.
type Listing struct {
	Name string
	List func(ctx context.Context, o ddbkit.PageOptions) (next string, err error)
}

// Page returns the Next of a listing's page, for Listing.List.
func Page[T any](p ddbkit.Page[T], err error) (string, error) { return p.Next, err }

// Cursors fuzzes the cursors of listings, which must each issue one on
// pages of one item: every cursor a listing issued is a seed for every
// listing, whole, cut and extended. A listing pages on a cursor it issued;
// any other (another listing's, a changed or forged one) is
// ErrInvalidCursor, with a bounded error that does not repeat it.
func Cursors(f *testing.F, listings []Listing) {
	ctx := context.Background()
	issued := make([]map[string]bool, len(listings))
	for i, l := range listings {
		issued[i] = map[string]bool{}
		c, err := l.List(ctx, ddbkit.PageOptions{Limit: 1})
		for ; c != "" && err == nil; c, err = l.List(ctx, ddbkit.PageOptions{Limit: 1, Cursor: c}) {
			issued[i][c] = true
		}
		if err != nil {
			f.Fatalf("%s: %v", l.Name, err)
		}
		if len(issued[i]) == 0 {
			f.Fatalf("%s issued no cursor", l.Name)
		}
	}
	for i := range listings {
		for j := range listings {
			for c := range issued[j] {
				f.Add(byte(i), c)
				f.Add(byte(i), c[:len(c)-1])
				f.Add(byte(i), c+"A")
			}
		}
	}
	f.Add(byte(0), "not a cursor")
	f.Add(byte(0), strings.Repeat("A", 4096))
	f.Fuzz(func(t *testing.T, which byte, cursor string) {
		if len(cursor) > MaxInput {
			return
		}
		i := int(which) % len(listings)
		_, err := listings[i].List(ctx, ddbkit.PageOptions{Limit: 1, Cursor: cursor})
		switch {
		case err == nil && cursor != "" && !issued[i][cursor]:
			t.Fatalf("%s accepted a cursor it did not issue: %q", listings[i].Name, cursor)
		case err != nil && !errors.Is(err, ddbkit.ErrInvalidCursor):
			t.Fatalf("%s: error %v, want ErrInvalidCursor", listings[i].Name, err)
		case err != nil:
			Bounded(t, err, []string{cursor})
		}
	})
}

// Accepted checks a write that returned got and err nil (it does nothing
// for an error): ok says whether got holds the input as given, and a read
// of it must return got.
func Accepted(t testing.TB, err error, what string, ok bool, got, read any, readErr error) {
	t.Helper()
	if err != nil {
		return
	}
	if readErr != nil || !reflect.DeepEqual(got, read) {
		t.Fatalf("%s returned %+v, read back %+v, %v", what, got, read, readErr)
	}
	if !ok {
		t.Fatalf("%s stored %+v, not the input as given", what, got)
	}
}

// Refused checks a write that failed with err: err matches one of the
// sentinels the write documents, is Bounded by inputs, and the store is as
// it was (before and after are its Exports).
func Refused(t testing.TB, err error, what string, sentinels []error, inputs []string, before, after any) {
	t.Helper()
	if !slices.ContainsFunc(sentinels, func(s error) bool { return errors.Is(err, s) }) {
		t.Fatalf("%s: error %v matches no sentinel it documents", what, err)
	}
	Bounded(t, err, inputs)
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("%s refused (%v) but changed the store", what, err)
	}
}
