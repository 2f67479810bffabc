package redact_test

import (
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit/internal/redact"
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
			if got := redact.Shown(tc.in); got != tc.want {
				t.Errorf("Shown(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
