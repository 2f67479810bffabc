package valid_test

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/valid"
	"github.com/ddbkit/ddbkit/keys"
)

func TestValidator(t *testing.T) {
	tests := []struct {
		name  string
		check func(v *valid.Validator)
		field string // "" when the input is valid
	}{
		{"40 Japanese characters", func(v *valid.Validator) { v.Text("Name", strings.Repeat("服", 40), true, 40) }, ""},
		{"41 Japanese characters", func(v *valid.Validator) { v.Text("Name", strings.Repeat("服", 41), true, 40) }, "Name"},
		{"blank required text", func(v *valid.Validator) { v.Text("Name", " \t", true, 40) }, "Name"},
		{"empty optional text", func(v *valid.Validator) { v.Text("Note", "", false, 40) }, ""},
		{"invalid UTF-8", func(v *valid.Validator) { v.Text("Name", "\xff", false, 40) }, "Name"},
		{"line with a new line", func(v *valid.Validator) { v.Line("Nickname", "a\nb", false, 50) }, "Nickname"},
		{"ID", func(v *valid.Validator) { v.ID("ID", "0190a6f2-7c3e-7000-8000-000000000000", 128) }, ""},
		{"time in year 9999", func(v *valid.Validator) { v.Time("At", time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)) }, ""},
		{"time in year 10000", func(v *valid.Validator) { v.Time("At", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)) }, "At"},
		{"time in year 0", func(v *valid.Validator) { v.Time("At", time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC)) }, "At"},
		{"time past 9999 only in UTC", func(v *valid.Validator) {
			v.Time("At", time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("west", -5*3600)))
		}, "At"},
		{"https URL", func(v *valid.Validator) { v.URL("SourceURL", "https://example.com/r?id=1", true, 2048) }, ""},
		{"http URL", func(v *valid.Validator) { v.URL("SourceURL", "HTTP://example.com/", true, 2048) }, ""},
		{"javascript: URL", func(v *valid.Validator) { v.URL("SourceURL", "javascript:alert(1)", true, 2048) }, "SourceURL"},
		{"data: URL", func(v *valid.Validator) { v.URL("SourceURL", "data:text/html,x", true, 2048) }, "SourceURL"},
		{"URL without a host", func(v *valid.Validator) { v.URL("SourceURL", "https:/path", true, 2048) }, "SourceURL"},
		{"relative URL", func(v *valid.Validator) { v.URL("SourceURL", "//example.com/x", true, 2048) }, "SourceURL"},
		{"URL with a new line", func(v *valid.Validator) { v.URL("SourceURL", "https://example.com/\nx", true, 2048) }, "SourceURL"},
		{"empty optional URL", func(v *valid.Validator) { v.URL("SourceURL", "", false, 2048) }, ""},
		{"ID with '#'", func(v *valid.Validator) { v.ID("ID", "a#b", 128) }, "ID"},
		{"ID with a space", func(v *valid.Validator) { v.ID("ID", "a b", 128) }, "ID"},
		{"empty ID", func(v *valid.Validator) { v.ID("ID", "", 128) }, "ID"},
		{"ID in other scripts", func(v *valid.Validator) { v.ID("ID", "category001-服-नमस्ते-ไทย", 128) }, ""},
		{"ID with U+10FFFF", func(v *valid.Validator) { v.ID("ID", "a\U0010FFFF", 128) }, "ID"},
		{"ID with a private-use character", func(v *valid.Validator) { v.ID("ID", "a\uE000", 128) }, "ID"},
		{"ID with a zero-width joiner", func(v *valid.Validator) { v.ID("ID", "a\u200Db", 128) }, "ID"},
		{"ID with an ideographic space", func(v *valid.Validator) { v.ID("ID", "a\u3000b", 128) }, "ID"},
		{"first failure wins", func(v *valid.Validator) { v.ID("A", "", 128); v.ID("B", "", 128) }, "A"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v valid.Validator
			tt.check(&v)
			var ve *ddbkit.ValidationError
			switch {
			case tt.field == "" && v.Err != nil:
				t.Fatalf("Err = %v, want nil", v.Err)
			case tt.field != "" && (!errors.As(v.Err, &ve) || ve.Field != tt.field || !errors.Is(v.Err, ddbkit.ErrInvalidArgument)):
				t.Fatalf("Err = %v, want a ValidationError for %s", v.Err, tt.field)
			}
		})
	}
}

// TestIDAlphabetMakesKeys: every character the ID alphabet admits is one
// the key builder accepts, so both stores refuse the same IDs with the same
// ErrInvalidArgument, before any key is built.
func TestIDAlphabetMakesKeys(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !valid.IDRune(r) {
			continue
		}
		if err := keys.CheckSegment("ID", string(r)); err != nil {
			t.Fatalf("IDRune(%U) = true, but keys.CheckSegment refuses it: %v", r, err)
		}
	}
}
