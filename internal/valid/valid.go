// Package valid holds the input checks every domain package shares, so that
// they refuse the same kinds of input with the same messages. A domain adds
// its own rules (enums, references, dates) as methods on a type that embeds
// Validator.
package valid

import (
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ddbkit/ddbkit"
)

// Validator collects the first validation error, so that a validation reads
// as a list of rules and the caller checks Err once. The zero value is
// ready to use.
type Validator struct {
	// Err is the first rule broken: a *ddbkit.ValidationError naming the
	// field, or nil.
	Err error
}

// Fail records that field breaks a rule, unless an earlier rule was broken.
func (v *Validator) Fail(field, format string, args ...any) {
	if v.Err == nil {
		v.Err = ddbkit.Invalid(field, format, args...)
	}
}

// Text checks a free-text field: valid UTF-8, at most max characters (not
// bytes), and, when required, not only white space. No domain trims its
// input: a value that passes is stored as given, spaces included, and the
// same failure reads the same in every domain.
func (v *Validator) Text(field, s string, required bool, max int) {
	switch n := utf8.RuneCountInString(s); {
	case !utf8.ValidString(s):
		v.Fail(field, "must be valid UTF-8")
	case required && strings.TrimSpace(s) == "":
		v.Fail(field, "must not be empty or only white space")
	case n > max:
		v.Fail(field, "must be at most %d characters, got %d", max, n)
	}
}

// Line checks a one-line text: Text, and no control characters.
func (v *Validator) Line(field, s string, required bool, max int) {
	v.Text(field, s, required, max)
	if v.Err == nil && strings.IndexFunc(s, unicode.IsControl) >= 0 {
		v.Fail(field, "must not contain control characters")
	}
}

// ID checks an identifier that may become part of a key. The alphabet is
// the same in every domain and both stores: 1 to max characters, each a
// graphic character (a letter, mark, number, punctuation or symbol, of
// any script; unicode.IsGraphic) other than white space and '#', the key
// separator. That leaves out control and format characters, surrogates,
// private-use code points and noncharacters such as U+10FFFF, which the
// key builder reserves, so an ID that passes always makes a key.
func (v *Validator) ID(field, s string, max int) {
	if !asciiID(s, max) {
		v.id(field, s, max)
	}
}

// id is ID's full check.
func (v *Validator) id(field, s string, max int) {
	v.Text(field, s, true, max)
	if v.Err != nil {
		return
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return !IDRune(r) }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '#':
			v.Fail(field, "must not contain '#', the key separator")
		case unicode.IsSpace(r):
			v.Fail(field, "must not contain white space")
		default:
			v.Fail(field, "must hold only letters, marks, numbers, punctuation and symbols; got %U at byte %d", r, i)
		}
	}
}

// IsID reports whether s passes Validator.ID: a caller that names its
// field per element (Tags[3]) builds the name only for an ID that fails.
func IsID(s string, max int) bool {
	var v Validator
	v.ID("", s, max)
	return v.Err == nil
}

// asciiID is Validator.ID's answer for the IDs most callers pass, printable
// ASCII: 1 to max bytes (a byte a character) from '!' to '~' but '#'. It
// reports false for any other s, which the full check then decides.
func asciiID(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c > '~' || c == '#' {
			return false
		}
	}
	return true
}

// IDRune reports whether r may appear in an ID (see Validator.ID).
func IDRune(r rune) bool {
	return r != '#' && unicode.IsGraphic(r) && !unicode.IsSpace(r)
}

// Time checks a time a store writes: in UTC, its year is 1 to 9999, the
// years RFC 3339 and ISO 8601's four-digit years can write, so that every
// reader (ddbkit's, and the seeds' own apps) can parse it back. A time
// outside them would be written and then reported as a corrupt item by
// every later read. Callers that treat the zero time as "unset" skip it.
func (v *Validator) Time(field string, t time.Time) {
	if y := t.UTC().Year(); y < 1 || y > 9999 {
		v.Fail(field, "must lie in the years 0001 to 9999 (UTC), got year %d", y)
	}
}

// URL checks a link that pages render: Line, then an absolute http or
// https URL with a host. Other schemes (javascript:, data:, file:) are
// refused, since a page that renders the link would run or open them.
func (v *Validator) URL(field, s string, required bool, max int) {
	v.Line(field, s, required, max)
	if v.Err != nil || s == "" {
		return
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		v.Fail(field, "must be a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		v.Fail(field, "must be an http or https URL")
	case u.Host == "":
		v.Fail(field, "must be an absolute URL with a host")
	}
}
