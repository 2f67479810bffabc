package kondate

import (
	"time"

	"github.com/ddbkit/ddbkit/internal/calendar"
	"github.com/ddbkit/ddbkit/keys"
)

// Date is a calendar date as the seed stores it: "YYYY-MM-DD", the form of
// CookLog.Date, FridgeItem.ExpiryDate and the days and months the cook log
// is listed by. Those fields stay strings, so that code written against
// them keeps compiling; Date(s) gives one the calendar-date method set
// every domain's Date has (taskmgmt's in the same format, wardrobe's in
// its own). The valid dates run from MinDate to MaxDate.
type Date string

// The range of dates: the years 0001 to 9999, which YYYY-MM-DD can write
// and every reader of the table can parse back.
const (
	MinDate Date = "0001-01-01"
	MaxDate Date = "9999-12-31"
)

// DateOf returns t's calendar date in t's own location: convert t to the
// zone whose day you mean first.
func DateOf(t time.Time) Date { return Date(keys.DateISO(t)) }

// Valid reports whether d is a real date written as YYYY-MM-DD, from
// MinDate to MaxDate; Time says what is wrong with one that is not.
func (d Date) Valid() bool {
	_, err := d.Time()
	return err == nil
}

// Time returns midnight UTC of d, or an error (a *ddbkit.ValidationError)
// if d is not a valid date.
func (d Date) Time() (time.Time, error) { return d.In(time.UTC) }

// In returns midnight of d in loc (UTC when nil), or an error (a
// *ddbkit.ValidationError) if d is not a valid date. In a zone whose
// clocks skip midnight that day, it is the first instant of the day.
func (d Date) In(loc *time.Location) (time.Time, error) { return calendar.ISO.In(string(d), loc) }

// AddDays returns the date n days after d (before it when n is negative).
// If d is not a valid date, or the result is outside MinDate..MaxDate, it
// returns d itself, unchanged, and a *ddbkit.ValidationError (matching
// ddbkit.ErrInvalidArgument): a bad date never turns into the zero Date.
func (d Date) AddDays(n int) (Date, error) {
	out, err := calendar.ISO.AddDays(string(d), n)
	return Date(out), err
}
