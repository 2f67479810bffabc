package keys

import (
	"math/rand/v2"
	"testing"
)

// TestParseTimestampFast: wherever the hand-written parse answers, it
// answers what time.Parse does, and it answers for every canonical form.
func TestParseTimestampFast(t *testing.T) {
	cases := []string{"2026-02-09T10:00:00.000Z", "2024-02-29T23:59:59.999Z", "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
		"2026-02-30T10:00:00.000Z", "2025-02-29T10:00:00.000Z", "2026-13-09T10:00:00.000Z", "2026-02-09T24:00:00.000Z",
		"2026-02-09T10:60:00.000Z", "2026-02-09T10:00:60.000Z", "2026-02-09T10:00:00.00aZ", "2026-02-09T10:00:00Z",
		"2026-02-09T10:00:00.000+09:00", "2026-02-09 10:00:00.000Z", "+026-02-09T10:00:00.000Z", "2026-00-09T10:00:00.000Z",
		"2026-04-31T10:00:00.000Z", "2026-02-00T10:00:00.000Z"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		b := []byte("2026-02-09T10:00:00.000Z")
		for range 1 + r.IntN(3) {
			if i := r.IntN(len(b)); isDigit(b[i]) {
				b[i] = byte('0' + r.IntN(10))
			}
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		got, ok := parseTimestamp(s)
		want, err := parseStrict("timestamp", TimestampLayout, "", s)
		if ok != (err == nil) || got != want {
			t.Fatalf("parseTimestamp(%q) = %v, %v; time.Parse gives %v, %v", s, got, ok, want, err)
		}
	}
}
