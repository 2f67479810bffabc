package keys

import (
	"hash/fnv"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ddbkit/ddbkit"
)

// Sep separates the segments of a composite key. No segment may contain it,
// which is what makes joining injective (see the package doc).
const Sep = "#"

// DynamoDB's size limits for key attribute values, in UTF-8 bytes.
const (
	MaxPartitionKeyBytes = 2048 // DynamoDB limit for a partition key value
	MaxSortKeyBytes      = 1024 // DynamoDB limit for a sort key value
)

// maxRune is the upper bound PrefixRange appends. Segments may not contain it,
// so every valid segment sorts strictly below it.
const maxRune = '\U0010FFFF'

// Segment is one part of a composite key. Field names the input the value
// came from, so errors can name it; literal parts (like "user" or "todo") use
// [Lit] and have Field "".
type Segment struct {
	Field, Value string
}

// Lit returns a constant segment, such as Lit("todo"). Errors about it are
// reported under the field "key segment N".
func Lit(v string) Segment { return Segment{Value: v} }

// Field returns a caller-supplied segment, such as Field("Username", u).
// Errors about it are reported under name.
func Field(name, value string) Segment { return Segment{Field: name, Value: value} }

// PK joins segs with [Sep] into a partition key value.
//
// It returns a *ddbkit.ValidationError (matching ddbkit.ErrInvalidArgument)
// if there are no segments, a segment is invalid (see [CheckSegment]), or the
// key exceeds [MaxPartitionKeyBytes].
func PK(segs ...Segment) (string, error) {
	return join(segs, "", MaxPartitionKeyBytes, "partition key")
}

// SK joins segs with [Sep] into a sort key value.
//
// It returns a *ddbkit.ValidationError (matching ddbkit.ErrInvalidArgument)
// if there are no segments, a segment is invalid (see [CheckSegment]), or the
// key exceeds [MaxSortKeyBytes].
func SK(segs ...Segment) (string, error) {
	return join(segs, "", MaxSortKeyBytes, "sort key")
}

// Prefix joins segs and appends [Sep], giving the operand of a begins_with
// condition: Prefix(Lit("todo")) is "todo#". The trailing separator is what
// stops "todo#" from also matching "todolist#…".
//
// It returns a *ddbkit.ValidationError (matching ddbkit.ErrInvalidArgument)
// if there are no segments, a segment is invalid (see [CheckSegment]), or the
// prefix, separator included, exceeds [MaxSortKeyBytes].
func Prefix(segs ...Segment) (string, error) {
	return join(segs, Sep, MaxSortKeyBytes, "key prefix")
}

func join(segs []Segment, suffix string, limit int, what string) (string, error) {
	if len(segs) == 0 {
		return "", ddbkit.Invalid("key", "a %s needs at least one segment, got none", what)
	}
	n := len(suffix) + len(Sep)*(len(segs)-1)
	for i, s := range segs {
		if err := checkSegment(fieldName(s, i), s.Value); err != nil {
			return "", err
		}
		n += len(s.Value)
	}
	if n > limit {
		return "", ddbkit.Invalid(blame(segs), "the %s would be %d bytes; DynamoDB allows at most %d bytes (UTF-8)", what, n, limit)
	}
	var b strings.Builder
	b.Grow(n)
	for i, s := range segs {
		if i > 0 {
			b.WriteString(Sep)
		}
		b.WriteString(s.Value)
	}
	b.WriteString(suffix)
	return b.String(), nil
}

// fieldName is the Field reported for segment i: its own, or its position
// for literals, which have none.
func fieldName(s Segment, i int) string {
	if s.Field != "" {
		return s.Field
	}
	return "key segment " + strconv.Itoa(i)
}

// blame picks the field to name when a joined key is too long: the longest
// caller-supplied segment, since literals are fixed and cannot be the cause
// the caller can fix.
func blame(segs []Segment) string {
	field, longest := "key", -1
	for _, s := range segs {
		if s.Field != "" && len(s.Value) > longest {
			field, longest = s.Field, len(s.Value)
		}
	}
	return field
}

// CheckSegment validates value as one key segment, so callers can reject bad
// input before building keys. A segment must be non-empty, valid UTF-8, free
// of [Sep] and of U+10FFFF (reserved by [PrefixRange]), and no longer than
// [MaxPartitionKeyBytes], since no key could hold it.
//
// It returns nil or a *ddbkit.ValidationError naming field (matching
// ddbkit.ErrInvalidArgument).
func CheckSegment(field, value string) error {
	if err := checkSegment(field, value); err != nil {
		return err
	}
	return nil
}

func checkSegment(field, value string) *ddbkit.ValidationError {
	if value == "" {
		return ddbkit.Invalid(field, "must not be empty: a key segment needs at least one character")
	}
	if len(value) > MaxPartitionKeyBytes {
		return ddbkit.Invalid(field, "is %d bytes; no DynamoDB key may exceed %d bytes (UTF-8)", len(value), MaxPartitionKeyBytes)
	}
	if i := strings.Index(value, Sep); i >= 0 {
		return ddbkit.Invalid(field, "must not contain %q (found at byte %d): it separates key segments", Sep, i)
	}
	for i, r := range value {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(value[i:]); size == 1 {
				return ddbkit.Invalid(field, "must be valid UTF-8 (invalid byte at offset %d)", i)
			}
		case r == maxRune:
			return ddbkit.Invalid(field, "must not contain U+10FFFF (found at byte %d): it is reserved as the upper bound of key ranges", i)
		}
	}
	return nil
}

// Split splits a key into its segments. For keys built by [PK] or [SK] it is
// the exact inverse: Split(SK(segs...)) returns the segment values. Split("")
// returns nil, since no key has zero segments.
func Split(key string) []string {
	if key == "" {
		return nil
	}
	return strings.Split(key, Sep)
}

// PrefixRange returns inclusive bounds for a BETWEEN condition that selects
// every key equal to lo or beginning with lo+Sep, through every key equal to
// hi or beginning with hi+Sep. lo and hi are joined keys without a trailing
// separator, such as "CREATED#0001700000000000".
//
// from is lo itself. to is hi + Sep + "\U0010FFFF": DynamoDB compares
// strings by their UTF-8 bytes, U+10FFFF is the greatest code point (its
// encoding F4 8F BF BF is the greatest valid UTF-8 sequence), UTF-8 preserves
// code point order and no sequence is a prefix of another, so every segment
// that does not contain U+10FFFF (which [CheckSegment] rejects) sorts below
// it. Hence every key hi+Sep+… built from valid segments is below to.
//
// Like any BETWEEN, the range also holds every other key that sorts between
// the bounds; with fixed-width segments (see [Pad]) those are exactly the
// keys between lo and hi. PrefixRange does not validate its arguments.
func PrefixRange(lo, hi string) (from, to string) {
	return lo, hi + Sep + string(maxRune)
}

// Pad writes n as a zero-padded decimal of exactly width digits, so that
// byte order equals numeric order: Pad(42, 5) is "00042". width must be in
// 1..19, enough for any int64.
//
// It returns a *ddbkit.ValidationError (matching ddbkit.ErrInvalidArgument)
// if width is out of range, n is negative (a "-" would sort wrongly), or n
// needs more than width digits.
func Pad(n int64, width int) (string, error) {
	if width < 1 || width > 19 {
		return "", ddbkit.Invalid("width", "must be between 1 and 19, got %d", width)
	}
	if n < 0 {
		return "", ddbkit.Invalid("n", "must not be negative, got %d: only non-negative numbers sort correctly when padded", n)
	}
	s := strconv.FormatInt(n, 10)
	if len(s) > width {
		return "", ddbkit.Invalid("n", "%d needs %d digits, more than the width of %d", n, len(s), width)
	}
	return strings.Repeat("0", width-len(s)) + s, nil
}

const unixMillisDigits = 13

var (
	unixEpoch     = time.Unix(0, 0)
	maxUnixMillis = time.UnixMilli(9_999_999_999_999).Add(time.Millisecond - 1) // 2286-11-20T17:46:39.999999999Z
)

// UnixMillis writes t as 13-digit, zero-padded Unix milliseconds, so byte
// order equals time order: 1970-01-01 is "0000000000000". Sub-millisecond
// precision is truncated.
//
// It returns a *ddbkit.ValidationError (matching ddbkit.ErrInvalidArgument)
// if t is before 1970 or after 2286-11-20T17:46:39.999Z, beyond 13 digits.
func UnixMillis(t time.Time) (string, error) {
	// Compare times rather than t.UnixMilli(), which overflows for far times.
	if t.Before(unixEpoch) {
		return "", ddbkit.Invalid("unix millis", "time %s is before 1970-01-01T00:00:00Z", t.UTC().Format(time.RFC3339Nano))
	}
	if t.After(maxUnixMillis) {
		return "", ddbkit.Invalid("unix millis", "time %s needs more than %d digits; the latest is %s", t.UTC().Format(time.RFC3339Nano), unixMillisDigits, maxUnixMillis.Format(TimestampLayout))
	}
	s, err := Pad(t.UnixMilli(), unixMillisDigits)
	if err != nil {
		panic("keys: UnixMillis range check missed " + t.String()) // unreachable: the range is checked above
	}
	return s, nil
}

// ParseUnixMillis parses what [UnixMillis] writes: exactly 13 ASCII digits.
// The result is in UTC.
//
// It returns a *ddbkit.ValidationError with Field "unix millis" (matching
// ddbkit.ErrInvalidArgument) for any other input.
func ParseUnixMillis(s string) (time.Time, error) {
	if len(s) != unixMillisDigits || !allDigits(s) {
		return time.Time{}, ddbkit.Invalid("unix millis", "got %q, want exactly %d decimal digits", s, unixMillisDigits)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, ddbkit.Invalid("unix millis", "%q: %v", s, err)
	}
	return time.UnixMilli(n).UTC(), nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// TimestampLayout is the time layout [Timestamp] writes: UTC, millisecond
// precision, every field at a fixed width.
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// Timestamp writes t in UTC with [TimestampLayout], truncated to the
// millisecond. Every field has a fixed width, so byte order equals time order
// for years 0000 through 9999; outside them the year's width changes and the
// order breaks, so callers must keep times in that range.
func Timestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// ParseTimestamp parses what [Timestamp] writes. It is strict: s must be
// exactly what Timestamp returns for the result, so other layouts, offsets
// other than "Z", and missing or extra fractional digits are rejected. The
// result is in UTC.
//
// It returns a *ddbkit.ValidationError with Field "timestamp" (matching
// ddbkit.ErrInvalidArgument) for any other input.
func ParseTimestamp(s string) (time.Time, error) {
	if t, ok := parseTimestamp(s); ok {
		return t, nil
	}
	return parseStrict("timestamp", TimestampLayout, "YYYY-MM-DDThh:mm:ss.sssZ (UTC, exactly three fractional digits)", s)
}

// parseTimestamp parses TimestampLayout without time.Parse's reading of the
// layout, which was a quarter of a listing page's CPU on a memory store.
// It reports false for anything else, or any field out of range, and
// agrees with parseStrict wherever it reports true (TestParseTimestampFast).
func parseTimestamp(s string) (time.Time, bool) {
	if len(s) != len(TimestampLayout) || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
		s[19] != '.' || s[23] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if !isDigit(c) {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, sec, ms := num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2), num(20, 3)
	if y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ms*int(time.Millisecond), time.UTC)
	if t.Day() != d { // the 30th of February, say: time.Parse refuses it
		return time.Time{}, false
	}
	return t, true
}

// ParseTime parses a stored timestamp leniently, as written by any program
// that follows an ISO 8601 design: RFC 3339 with or without a fraction of
// any length, with "Z" or any offset, "T" or "t" and "Z" or "z"; and the
// same without a zone, which is read as UTC. The result is in UTC.
// Writers use [Timestamp]; readers of tables that other programs also write
// use ParseTime, and [ParseTimestamp] only where the exact form matters
// (sort keys).
//
// It returns a *ddbkit.ValidationError with Field "timestamp" (matching
// ddbkit.ErrInvalidArgument) for anything else; a store reports that as a
// corrupt item, not as the caller's error.
func ParseTime(s string) (time.Time, error) {
	if t, err := ParseTimestamp(s); err == nil {
		return t, nil // the canonical form, without allocating
	}
	u := strings.ToUpper(s)
	if t, err := time.Parse(time.RFC3339Nano, u); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse("2006-01-02T15:04:05.999999999", u); err == nil {
		return t, nil
	}
	return time.Time{}, ddbkit.Invalid("timestamp", "got %q, want an ISO 8601 date and time such as 2024-01-05T10:00:00Z", s)
}

const (
	dateCompactLayout = "20060102"
	dateISOLayout     = time.DateOnly
)

// DateCompact writes t's date as "20060102". It uses t's own calendar fields,
// not UTC: convert t to the zone whose day you mean first (for example
// t.In(loc)). Byte order equals date order for years 0000 through 9999.
func DateCompact(t time.Time) string {
	// From year 1000 to 9999 the date is the eight digits of one number,
	// which Itoa writes without Format's walk over the layout (a listing
	// writes one date per item).
	if y, m, d := t.Date(); y >= 1000 && y <= 9999 {
		return strconv.Itoa(y*10000 + int(m)*100 + d)
	}
	return t.Format(dateCompactLayout)
}

// DateISO writes t's date as "2006-01-02", from t's own calendar fields like
// [DateCompact].
func DateISO(t time.Time) string { return t.Format(dateISOLayout) }

// ParseDateCompact parses what [DateCompact] writes, strictly: exactly eight
// digits naming a real date. The result is midnight UTC of that date.
//
// It returns a *ddbkit.ValidationError with Field "date" (matching
// ddbkit.ErrInvalidArgument) for any other input.
func ParseDateCompact(s string) (time.Time, error) {
	return parseStrict("date", dateCompactLayout, "a real date as YYYYMMDD", s)
}

// ParseDateISO parses what [DateISO] writes, strictly: "YYYY-MM-DD" naming a
// real date. The result is midnight UTC of that date.
//
// It returns a *ddbkit.ValidationError with Field "date" (matching
// ddbkit.ErrInvalidArgument) for any other input.
func ParseDateISO(s string) (time.Time, error) {
	return parseStrict("date", dateISOLayout, "a real date as YYYY-MM-DD", s)
}

// parseStrict parses s with layout, a layout of fixed-width numbers and
// literal separators. time.Parse alone tolerates variants (such as extra
// fractional seconds) that would not sort or compare like stored keys, so s
// must first have the layout's exact shape: a digit wherever the layout has
// one, the layout's own byte everywhere else. time.Parse then checks the
// ranges (month, day of month, hour, ...). Checking the shape rather than
// re-formatting keeps parsing free of allocations: stores parse two
// timestamps per item they read.
func parseStrict(field, layout, accepted, s string) (time.Time, error) {
	ok := len(s) == len(layout)
	for i := 0; ok && i < len(s); i++ {
		if isDigit(layout[i]) {
			ok = isDigit(s[i])
		} else {
			ok = s[i] == layout[i]
		}
	}
	var t time.Time
	if ok {
		var err error
		t, err = time.Parse(layout, s)
		ok = err == nil
	}
	if !ok {
		return time.Time{}, ddbkit.Invalid(field, "got %q, want %s", s, accepted)
	}
	return t.UTC(), nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Shard returns the shard of id among shards, for a layout that spreads a
// hot partition over several: FNV-1a (32 bits) of id's bytes, modulo
// shards; 0 for a count below 2. It depends on id alone, so that another
// writer of the same layout computes the same shard, and a retried write
// lands on the same item.
func Shard(id string, shards int) int {
	if shards < 2 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(shards))
}
