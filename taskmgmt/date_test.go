package taskmgmt_test

import (
	"errors"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// addDays is d.AddDays(n) of a date the test knows is valid.
func addDays(t interface {
	Helper()
	Fatalf(string, ...any)
}, d taskmgmt.Date, n int) taskmgmt.Date {
	t.Helper()
	out, err := d.AddDays(n)
	if err != nil {
		t.Fatalf("%s.AddDays(%d): %v", d, n, err)
	}
	return out
}

// mustDate is the date of AddDays on a date the caller knows is valid,
// where no test is at hand.
func mustDate(d taskmgmt.Date, err error) taskmgmt.Date {
	if err != nil {
		panic(err)
	}
	return d
}

func TestDateAddDays(t *testing.T) {
	tests := []struct {
		name    string
		d       taskmgmt.Date
		n       int
		want    taskmgmt.Date
		wantErr bool
	}{
		{"a day", "2025-11-10", 1, "2025-11-11", false},
		{"none", "2025-11-10", 0, "2025-11-10", false},
		{"back a week", "2025-11-10", -7, "2025-11-03", false},
		{"across a month", "2025-01-31", 1, "2025-02-01", false},
		{"back across a month", "2025-03-01", -1, "2025-02-28", false},
		{"to a leap day", "2024-02-28", 1, "2024-02-29", false},
		{"over a leap day", "2024-02-28", 2, "2024-03-01", false},
		{"across a year", "2025-12-31", 1, "2026-01-01", false},
		{"back across a year", "2026-01-01", -1, "2025-12-31", false},
		{"a leap year's days", "2024-01-01", 366, "2025-01-01", false},
		{"to MaxDate", "9999-12-30", 1, taskmgmt.MaxDate, false},
		{"to MinDate", "0001-01-02", -1, taskmgmt.MinDate, false},
		{"past MaxDate", taskmgmt.MaxDate, 1, taskmgmt.MaxDate, true},
		{"before MinDate", taskmgmt.MinDate, -1, taskmgmt.MinDate, true},
		{"the zero Date", "", 1, "", true},
		{"no such day", "2025-02-29", 1, "2025-02-29", true},
		{"no such month", "2025-13-01", 1, "2025-13-01", true},
		{"the year 0000", "0000-06-01", 1, "0000-06-01", true},
		{"slashes", "2025/11/10", 1, "2025/11/10", true},
		{"a time", "2025-11-10T00:00:00Z", 1, "2025-11-10T00:00:00Z", true},
		{"the seed's compact form of wardrobe", "20251110", 1, "20251110", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.d.AddDays(tt.n)
			if got != tt.want {
				t.Errorf("%q.AddDays(%d) = %q, want %q", tt.d, tt.n, got, tt.want)
			}
			if tt.wantErr {
				var ve *ddbkit.ValidationError
				if !errors.Is(err, ddbkit.ErrInvalidArgument) || !errors.As(err, &ve) {
					t.Errorf("%q.AddDays(%d) error = %v, want a *ddbkit.ValidationError", tt.d, tt.n, err)
				}
			} else if err != nil {
				t.Errorf("%q.AddDays(%d) error = %v", tt.d, tt.n, err)
			}
		})
	}
}

func TestDateTimeInValid(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*60*60)
	tests := []struct {
		name  string
		d     taskmgmt.Date
		valid bool
		y     int
		m     time.Month
		day   int
	}{
		{"a date", "2025-11-10", true, 2025, time.November, 10},
		{"a leap day", "2024-02-29", true, 2024, time.February, 29},
		{"MinDate", taskmgmt.MinDate, true, 1, time.January, 1},
		{"MaxDate", taskmgmt.MaxDate, true, 9999, time.December, 31},
		{"the zero Date", "", false, 0, 0, 0},
		{"no leap day", "2025-02-29", false, 0, 0, 0},
		{"day 31 of a 30-day month", "2025-04-31", false, 0, 0, 0},
		{"the year 0000", "0000-12-31", false, 0, 0, 0},
		{"one digit", "2025-1-10", false, 0, 0, 0},
		{"a time", "2025-11-10T09:00:00+09:00", false, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.d.Valid(); got != tt.valid {
				t.Errorf("%q.Valid() = %v, want %v", tt.d, got, tt.valid)
			}
			utc, err := tt.d.Time()
			in, errIn := tt.d.In(tokyo)
			if !tt.valid {
				for _, e := range []error{err, errIn} {
					if !errors.Is(e, ddbkit.ErrInvalidArgument) {
						t.Errorf("%q: error = %v, want ErrInvalidArgument", tt.d, e)
					}
				}
				return
			}
			if err != nil || errIn != nil {
				t.Fatalf("%q: errors %v, %v", tt.d, err, errIn)
			}
			if want := time.Date(tt.y, tt.m, tt.day, 0, 0, 0, 0, time.UTC); !utc.Equal(want) || utc.Location() != time.UTC {
				t.Errorf("%q.Time() = %v, want %v", tt.d, utc, want)
			}
			if want := time.Date(tt.y, tt.m, tt.day, 0, 0, 0, 0, tokyo); !in.Equal(want) || in.Location() != tokyo {
				t.Errorf("%q.In(JST) = %v, want %v", tt.d, in, want)
			}
			if got := taskmgmt.DateOf(in); got != tt.d {
				t.Errorf("DateOf(%q.In(JST)) = %q", tt.d, got)
			}
		})
	}
}

// TestDailyQueryDates checks that a date DailyQuery cannot read is the
// caller's error, naming the field, never an open end of the range.
func TestDailyQueryDates(t *testing.T) {
	s := taskmgmt.NewMemoryStore()
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "e@example.com", Name: "alice"}))
	team := must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}))
	bad, _ := taskmgmt.Date("2025-02-30").AddDays(1)
	tests := []struct {
		name  string
		q     taskmgmt.DailyQuery
		field string
	}{
		{"no such From", taskmgmt.DailyQuery{From: "2025-02-30"}, "From"},
		{"no such To", taskmgmt.DailyQuery{To: "2025-13-01"}, "To"},
		{"AddDays of a bad date", taskmgmt.DailyQuery{From: bad}, "From"},
		{"a year 0000 To", taskmgmt.DailyQuery{From: "2025-01-01", To: "0000-01-01"}, "To"},
		{"a time as From", taskmgmt.DailyQuery{From: "2025-11-10T00:00:00Z"}, "From"},
		{"To before From", taskmgmt.DailyQuery{From: "2025-11-10", To: "2025-11-09"}, "To"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.ListDailyCounts(ctx, team.ID, tt.q)
			var ve *ddbkit.ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.field || len(ddbkit.MatchingSentinels(err)) != 1 || !errors.Is(err, ddbkit.ErrInvalidArgument) {
				t.Fatalf("ListDailyCounts(%+v) error = %v, want ErrInvalidArgument naming %s", tt.q, err, tt.field)
			}
		})
	}
}
