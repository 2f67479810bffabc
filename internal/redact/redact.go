// Package redact shows values that come from outside (another writer's
// stored values, a caller's input) in error messages, which end up in
// logs: bounded, and without card numbers.
package redact

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// MaxShown is the most bytes of a value an error repeats.
const MaxShown = 64

// Shown is a value as an error may repeat it: a run of 12 or more
// digits (with spaces or '-' between them: a card number, say) is replaced
// by its count, and what is left is cut to MaxShown bytes, on a character
// boundary, followed by "…" and the value's length.
func Shown(s string) string {
	if len(s) < 12 && len(s) <= MaxShown {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j, digits := i, 0
		for j < len(s) && (isDigit(s[j]) || (digits > 0 && (s[j] == ' ' || s[j] == '-'))) {
			if isDigit(s[j]) {
				digits++
			}
			j++
		}
		switch {
		case digits >= 12:
			fmt.Fprintf(&b, "<%d digits>", digits)
			i = j
		case j > i:
			b.WriteString(s[i:j])
			i = j
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	out := b.String()
	if len(out) <= MaxShown {
		return out
	}
	cut := MaxShown
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d bytes)", out[:cut], len(s))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// AsString returns a, a string or a value of a string type without
// methods of its own for fmt (a domain's enum, say), as a string: the
// arguments of an error's message that Shown applies to.
func AsString(a any) (string, bool) {
	switch a := a.(type) {
	case string:
		return a, true
	case fmt.Stringer, fmt.Formatter, error:
		return "", false
	}
	if v := reflect.ValueOf(a); v.Kind() == reflect.String {
		return v.String(), true
	}
	return "", false
}
