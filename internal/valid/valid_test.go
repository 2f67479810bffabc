package valid_test

import (
	"errors"
	"strings"
	"testing"
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
