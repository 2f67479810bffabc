package ddb_test

import (
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

func TestShown(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"short", "2026/02/09", "2026/02/09"},
		{"time", "2026-02-09T10:00:00Z", "2026-02-09T10:00:00Z"},
		{"card", "4242424242424242", "<16 digits>"},
		{"card spaced", "x 4242 4242 4242 4242 y", "x <16 digits>y"},
		{"card dashed", "4242-4242-4242-4242", "<16 digits>"},
		{"eleven digits", "12345678901", "12345678901"},
		{"long", strings.Repeat("a", 100), strings.Repeat("a", 64) + "…(100 bytes)"},
		{"long multibyte", strings.Repeat("麻", 30), strings.Repeat("麻", 21) + "…(90 bytes)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ddb.Shown(tc.in); got != tc.want {
				t.Errorf("Shown(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestCorruptShowsValues(t *testing.T) {
	item := ddb.Item{"PK": ddb.S("USER#u"), "SK": ddb.S("X#1")}
	err := ddb.Corrupt(ddb.Table{Name: "T"}, item, "createdAt", "got %q", strings.Repeat("4", 16)+strings.Repeat("z", 500))
	if msg := err.Error(); strings.Contains(msg, "4444444444444444") || len(msg) > 200 {
		t.Errorf("Corrupt's message %q repeats card digits or too much of the value", msg)
	}
}

func TestCorruptShowsNames(t *testing.T) {
	name := strings.Repeat("4", 48)
	err := ddb.CheckAttrs(ddb.Table{Name: "T"}, ddb.Item{"PK": ddb.S("USER#u"), name: nil})
	if msg := err.Error(); strings.Contains(msg, "444444444444") {
		t.Errorf("CheckAttrs's message %q repeats the attribute name's digits", msg)
	}
}
