package keys_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
	"github.com/ddbkit/ddbkit/keys"
)

// FuzzParseTime holds the lenient ISO 8601 reader every item decoder
// reads times with (issue 39): it returns a time in UTC or an error
// matching ErrInvalidArgument that echoes a bounded prefix of its input at
// most; a time it reads, written by Timestamp, reads back as the same
// instant to the millisecond; and what the strict parsers accept, it
// accepts as the same instant.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{
		"2024-01-05T10:00:00.000Z", "2024-01-05T10:00:00Z", "2024-01-05t10:00:00z",
		"2024-01-05T19:00:00+09:00", "2024-01-05T05:00:00-05:00", "2024-01-05T10:00:00.123456789+00:00",
		"2024-01-05T10:00:00", "2024-01-05T10:00:00.5", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999-23:59",
		"0000-01-01T00:00:00+00:01", "2024-02-30T00:00:00Z", "2024-01-05 10:00:00Z", "2024-01-05", "1704448800000",
		"4111111111111111", "", "\xff", strings.Repeat("9", 5000), "2024-01-05T10:00:00." + strings.Repeat("1", 5000) + "Z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > fuzzcheck.MaxInput {
			return
		}
		tm, err := keys.ParseTime(s)
		if err != nil {
			fuzzcheck.Error(t, err, ddbkit.ErrInvalidArgument, s)
			if _, err := keys.ParseTimestamp(s); err == nil {
				t.Fatalf("ParseTimestamp(%q) accepts what ParseTime refuses", s)
			}
			return
		}
		if tm.Location() != time.UTC {
			t.Fatalf("ParseTime(%q) = %v, want a time in UTC", s, tm)
		}
		if strict, err := keys.ParseTimestamp(s); err == nil && !strict.Equal(tm) {
			t.Fatalf("ParseTime(%q) = %v, ParseTimestamp = %v", s, tm, strict)
		}
		if y := tm.Year(); y < 1 || y > 9999 {
			return // Timestamp cannot write it: valid.Time refuses it (FuzzTime)
		}
		back, err := keys.ParseTime(keys.Timestamp(tm))
		if err != nil || !back.Equal(tm.Truncate(time.Millisecond)) {
			t.Fatalf("ParseTime(Timestamp(ParseTime(%q))) = %v, %v; want %v", s, back, err, tm.Truncate(time.Millisecond))
		}
	})
}

// FuzzParseErrors holds every strict parser and key builder of package
// keys to its error contract: an error matches ErrInvalidArgument and
// echoes a bounded prefix of its input at most, and no card digits.
func FuzzParseErrors(f *testing.F) {
	for _, s := range []string{
		"2024-01-07T12:34:56.789Z", "20240107", "2024-01-07", "1704585600000", "a#b", "\xff",
		"4111111111111111", strings.Repeat("x", 5000), strings.Repeat("7", 300), "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > fuzzcheck.MaxInput {
			return
		}
		for name, parse := range map[string]func(string) (time.Time, error){
			"ParseTimestamp": keys.ParseTimestamp, "ParseDateCompact": keys.ParseDateCompact,
			"ParseDateISO": keys.ParseDateISO, "ParseUnixMillis": keys.ParseUnixMillis,
		} {
			if _, err := parse(s); err != nil {
				t.Run(name, func(t *testing.T) { fuzzcheck.Error(t, err, ddbkit.ErrInvalidArgument, s) })
			}
		}
		if err := keys.CheckSegment("id", s); err != nil {
			fuzzcheck.Error(t, err, ddbkit.ErrInvalidArgument, s)
		}
		if _, err := keys.SK(keys.Lit("todo"), keys.Field("id", s)); err != nil {
			fuzzcheck.Error(t, err, ddbkit.ErrInvalidArgument, s)
		}
		if errors.Is(nil, ddbkit.ErrInvalidArgument) {
			t.Fatal("unreachable")
		}
	})
}
