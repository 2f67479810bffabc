package valid

import (
	"strings"
	"testing"
)

// TestASCIIID holds ID's fast path to its full check: every string the
// fast path passes, the full check passes too, and for the printable-ASCII
// strings it is meant for, both agree.
func TestASCIIID(t *testing.T) {
	var cases []string
	for c := 0; c < 128; c++ {
		cases = append(cases, string(rune(c)), "a"+string(rune(c))+"b")
	}
	cases = append(cases, "", "u_01", "auth0|123", strings.Repeat("x", 8), strings.Repeat("x", 9), "01JKQ8V6Y3N8Z0A5M2C4000001", "名前", "a b")
	const max = 8
	for _, s := range cases {
		var full Validator
		full.id("ID", s, max)
		fast := asciiID(s, max)
		if fast && full.Err != nil {
			t.Errorf("asciiID(%q) passes what the full check refuses: %v", s, full.Err)
		}
		printable := s != "" && strings.IndexFunc(s, func(r rune) bool { return r < ' ' || r > '~' }) < 0
		if printable && fast != (full.Err == nil) {
			t.Errorf("asciiID(%q) = %v, full check's error %v", s, fast, full.Err)
		}
		if IsID(s, max) != (full.Err == nil) {
			t.Errorf("IsID(%q) = %v, full check's error %v", s, IsID(s, max), full.Err)
		}
	}
}
