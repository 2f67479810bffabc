// Package calendar is the calendar-date method set that every domain's
// Date type has (DateOf, Valid, Time, In, AddDays), written once for a
// storage format: a domain's methods convert and call it.
package calendar

import (
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/keys"
)

// Format is how a domain stores calendar dates, and the range it writes.
// Min and Max are in the format, and sort as the dates do.
type Format struct {
	Parse    func(string) (time.Time, error)
	Format   func(time.Time) string
	Min, Max string
}

// ISO is "YYYY-MM-DD" over the years 0001 to 9999, which every reader of a
// table can parse back.
var ISO = Format{Parse: keys.ParseDateISO, Format: keys.DateISO, Min: "0001-01-01", Max: "9999-12-31"}

// In returns midnight of s in loc (UTC when nil), or a
// *ddbkit.ValidationError if s is not a date of f from Min to Max. In a
// zone whose clocks skip midnight that day, it is the first instant of the
// day.
func (f Format) In(s string, loc *time.Location) (time.Time, error) {
	t, err := f.Parse(s)
	if err != nil {
		return time.Time{}, err
	}
	if s < f.Min || s > f.Max {
		return time.Time{}, ddbkit.Invalid("date", "must be from %s to %s, got %q", f.Min, f.Max, s)
	}
	if loc == nil {
		loc = time.UTC
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc), nil
}

// AddDays returns the date n days after s (before it when n is negative).
// If s is not a valid date, or the result is outside Min..Max, it returns
// s itself and a *ddbkit.ValidationError: a bad date never turns into the
// zero date, which ranges read as an open end.
func (f Format) AddDays(s string, n int) (string, error) {
	t, err := f.In(s, time.UTC)
	if err != nil {
		return s, err
	}
	out := f.Format(t.AddDate(0, 0, n))
	if _, err := f.In(out, time.UTC); err != nil {
		return s, err
	}
	return out, nil
}
