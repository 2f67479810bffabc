// Package echo bounds what an error message repeats of its input (issue
// 39): input that another program wrote, or a hostile caller sent, may
// be huge, and may hold card numbers; an error is logged and shown, so it
// repeats a short prefix only, with long runs of digits masked.
package echo

import (
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Max is the most bytes of its input Cut keeps.
const Max = 64

// minDigits is the shortest run of digits Cut masks: a card number has 13
// to 19. A time in Unix milliseconds has 13 too, and is masked as well.
const minDigits = 13

// Cut returns s with each character that is not printable (a control
// character, a byte of invalid UTF-8) replaced by '?', each run of 13 or
// more ASCII digits (single spaces or hyphens between them count as the
// run's, as in "4242 4242 4242 4242") replaced by "<N digits>", cut to its
// first Max bytes
// (at a character boundary) and "…" when it was longer. Replacing the
// unprintable keeps a line break out of a log line, and keeps %q's
// escapes (\x19) from joining digits into a run Cut did not mask.
func Cut(s string) string { return cutTo(s, Max, true) }

// CutKey is Cut without the mask, for a key value: the identity an
// operator needs to find the item, bounded by DynamoDB's key limits, and
// made of IDs, dates and times (Unix ms have 13 digits), which a layout
// never mixes with a card number.
func CutKey(s string) string { return cutTo(s, Max, false) }

func cutErr(s string) string { return cutTo(s, MaxErr, true) }

func cutTo(s string, max int, mask bool) string {
	if len(s) <= max && (!mask || len(s) < minDigits) && printable(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "?")
	if mask {
		s = maskDigits(s)
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return '?'
	}, s)
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

func maskDigits(s string) string {
	var b strings.Builder
	last := 0
	isDigit := func(i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	for i := 0; i < len(s); {
		if !isDigit(i) {
			i++
			continue
		}
		// A run: digits, and single spaces or hyphens between them, as a
		// card number is written ("4242 4242 4242 4242").
		start, digits, j := i, 0, i
		for {
			for isDigit(j) {
				j++
				digits++
			}
			if j+1 < len(s) && (s[j] == ' ' || s[j] == '-') && isDigit(j+1) {
				j++
				continue
			}
			break
		}
		if digits >= minDigits {
			b.WriteString(s[last:start])
			b.WriteString("<" + strconv.Itoa(digits) + " digits>")
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// MaxErr is the most bytes of an error's message Args keeps: a cause
// names input too, within text of its own worth keeping.
const MaxErr = 160

// Args returns args with every string (of any string type) and byte
// slice passed through Cut, and every error replaced by its message cut
// the same way to MaxErr bytes, for a message's format arguments: the
// values a message names are input, its fixed text is not.
func Args(args []any) []any {
	var out []any
	for i, a := range args {
		var s string
		cut := Cut
		switch v := a.(type) {
		case string:
			s = v
		case []byte:
			s = string(v)
		case error:
			s, cut = v.Error(), cutErr
		default:
			if rv := reflect.ValueOf(a); !rv.IsValid() || rv.Kind() != reflect.String {
				continue
			} else {
				s = rv.String()
			}
		}
		c := cut(s)
		if c == s {
			continue
		}
		if out == nil {
			out = append([]any(nil), args...)
		}
		out[i] = c
	}
	if out == nil {
		return args
	}
	return out
}
