package echo

import (
	"strings"
	"testing"
)

func TestCut(t *testing.T) {
	tests := []struct{ name, in, want, wantKey string }{
		{"short", "ARCHIVED", "ARCHIVED", "ARCHIVED"},
		{"long", strings.Repeat("x", 70), strings.Repeat("x", 64) + "…", strings.Repeat("x", 64) + "…"},
		{"card", "card 4111111111111111 end", "card <16 digits> end", "card 4111111111111111 end"},
		{"twelve digits", "202401051000", "202401051000", "202401051000"},
		{"unprintable", "a\nb\x19" + "9\xff", "a?b?9?", "a?b?9?"},
		{"cut at a character", strings.Repeat("x", 63) + "山", strings.Repeat("x", 63) + "…", strings.Repeat("x", 63) + "…"},
	}
	for _, tt := range tests {
		if got := Cut(tt.in); got != tt.want {
			t.Errorf("%s: Cut(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
		if got := CutKey(tt.in); got != tt.wantKey {
			t.Errorf("%s: CutKey(%q) = %q, want %q", tt.name, tt.in, got, tt.wantKey)
		}
	}
}

func TestCutMasksSpacedCards(t *testing.T) {
	for in, want := range map[string]string{
		"4242 4242 4242 4242":    "<16 digits>",
		"card 4242-4242-4242-42": "card <14 digits>",
		"2025-01-02 10:00":       "2025-01-02 10:00", // 12 digits: a date stays
		"1 2 3":                  "1 2 3",
	} {
		if got := Cut(in); got != want {
			t.Errorf("Cut(%q) = %q, want %q", in, got, want)
		}
	}
}
