package kondate_test

import (
	"errors"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// TestDate holds kondate.Date to the calendar-date method set every
// domain's Date has (issue 42): AddDays refuses a bad date instead of
// returning "", and the month, year and range edges hold.
func TestDate(t *testing.T) {
	tests := []struct {
		name string
		d    kondate.Date
		n    int
		want kondate.Date
		bad  bool
	}{
		{"next day", "2026-02-09", 1, "2026-02-10", false},
		{"month end", "2026-01-31", 1, "2026-02-01", false},
		{"leap day", "2028-02-28", 1, "2028-02-29", false},
		{"year back", "2026-01-01", -1, "2025-12-31", false},
		{"zero days", "2026-02-09", 0, "2026-02-09", false},
		{"not a date", "2026-02-30", 1, "2026-02-30", true},
		{"year 0000", "0000-12-31", 1, "0000-12-31", true},
		{"empty", "", 1, "", true},
		{"other form", "20260209", 1, "20260209", true},
		{"past MaxDate", kondate.MaxDate, 1, kondate.MaxDate, true},
		{"before MinDate", kondate.MinDate, -1, kondate.MinDate, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.d.AddDays(tt.n)
			if got != tt.want || (err != nil) != tt.bad {
				t.Errorf("%q.AddDays(%d) = %q, %v; want %q, error %v", tt.d, tt.n, got, err, tt.want, tt.bad)
			}
			if err != nil && !errors.Is(err, ddbkit.ErrInvalidArgument) {
				t.Errorf("error %v does not match ErrInvalidArgument", err)
			}
			if _, terr := tt.d.Time(); tt.d.Valid() != (terr == nil) {
				t.Errorf("%q.Valid() = %v, but Time says %v", tt.d, tt.d.Valid(), terr)
			}
		})
	}
	tokyo := time.FixedZone("JST", 9*60*60)
	if got := kondate.DateOf(time.Date(2026, 2, 9, 23, 30, 0, 0, time.UTC).In(tokyo)); got != "2026-02-10" {
		t.Errorf("DateOf in Tokyo = %q, want 2026-02-10", got)
	}
	if in, err := kondate.Date("2026-02-10").In(tokyo); err != nil || !in.Equal(time.Date(2026, 2, 10, 0, 0, 0, 0, tokyo)) {
		t.Errorf("In(Tokyo) = %v, %v", in, err)
	}
}
