package keys_test

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/keys"
)

// checkInvalid asserts that err reports bad input under wantField, and that
// its reason mentions every string in wantInReason.
func checkInvalid(t *testing.T, err error, wantField string, wantInReason ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got nil error, want a validation error for field %q", wantField)
	}
	if !errors.Is(err, ddbkit.ErrInvalidArgument) {
		t.Errorf("errors.Is(%v, ErrInvalidArgument) = false, want true", err)
	}
	var ve *ddbkit.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("errors.As(%v, *ValidationError) = false, want true", err)
	}
	if ve.Field != wantField {
		t.Errorf("Field = %q, want %q (error: %v)", ve.Field, wantField, err)
	}
	if ve.Reason == "" || strings.HasPrefix(ve.Reason, "keys:") {
		t.Errorf("Reason = %q, want a non-empty reason without a package prefix", ve.Reason)
	}
	for _, s := range wantInReason {
		if !strings.Contains(ve.Reason, s) {
			t.Errorf("Reason = %q, want it to mention %q", ve.Reason, s)
		}
	}
}

func TestJoin(t *testing.T) {
	type joinFunc func(...keys.Segment) (string, error)
	var (
		pk     joinFunc = keys.PK
		sk     joinFunc = keys.SK
		prefix joinFunc = keys.Prefix
		a               = strings.Repeat
		ja              = strings.Repeat("あ", 340) // 340 characters, 1020 bytes
	)
	tests := []struct {
		name      string
		join      joinFunc
		segs      []keys.Segment
		want      string
		wantField string   // non-empty: want an error for this field
		wantMsg   []string // substrings the error's reason must contain
	}{
		{name: "pk user", join: pk, segs: []keys.Segment{keys.Lit("user"), keys.Field("Username", "alice")}, want: "user#alice"},
		{name: "sk todo", join: sk, segs: []keys.Segment{keys.Lit("todo"), keys.Field("ID", "0190c5b2-7f3e-7c1a-9b3e-1d2f3a4b5c6d")}, want: "todo#0190c5b2-7f3e-7c1a-9b3e-1d2f3a4b5c6d"},
		{name: "pk literal after field", join: pk, segs: []keys.Segment{keys.Lit("W"), keys.Field("WardrobeID", "w1"), keys.Lit("CLOTH")}, want: "W#w1#CLOTH"},
		{name: "sk three segments", join: sk, segs: []keys.Segment{keys.Lit("CREATED"), keys.Field("CreatedAt", "0001700000000000"), keys.Field("ID", "x")}, want: "CREATED#0001700000000000#x"},
		{name: "sk single segment", join: sk, segs: []keys.Segment{keys.Lit("META")}, want: "META"},
		{name: "pk japanese", join: pk, segs: []keys.Segment{keys.Lit("user"), keys.Field("Username", "山田")}, want: "user#山田"},
		{name: "prefix one", join: prefix, segs: []keys.Segment{keys.Lit("todo")}, want: "todo#"},
		{name: "prefix two", join: prefix, segs: []keys.Segment{keys.Lit("DATE"), keys.Field("Date", "20240107")}, want: "DATE#20240107#"},
		{name: "control characters allowed", join: sk, segs: []keys.Segment{keys.Field("ID", "a\x00b\tc")}, want: "a\x00b\tc"},

		{name: "pk no segments", join: pk, wantField: "key"},
		{name: "sk no segments", join: sk, wantField: "key"},
		{name: "prefix no segments", join: prefix, wantField: "key"},
		{name: "empty field", join: pk, segs: []keys.Segment{keys.Lit("user"), keys.Field("Username", "")}, wantField: "Username", wantMsg: []string{"empty"}},
		{name: "empty literal", join: sk, segs: []keys.Segment{keys.Lit("W"), keys.Field("ID", "w1"), keys.Lit("")}, wantField: "key segment 2"},
		{name: "field with no name", join: sk, segs: []keys.Segment{keys.Lit("W"), keys.Field("", "a#b")}, wantField: "key segment 1"},
		{name: "separator in field", join: pk, segs: []keys.Segment{keys.Lit("user"), keys.Field("Username", "alice#todo")}, wantField: "Username", wantMsg: []string{`"#"`, "5"}},
		{name: "separator in literal", join: sk, segs: []keys.Segment{keys.Lit("a#")}, wantField: "key segment 0"},
		{name: "separator in prefix segment", join: prefix, segs: []keys.Segment{keys.Field("Tag", "#")}, wantField: "Tag"},
		{name: "invalid utf-8", join: sk, segs: []keys.Segment{keys.Lit("t"), keys.Field("Title", "ok\xff")}, wantField: "Title", wantMsg: []string{"UTF-8", "2"}},
		{name: "truncated utf-8", join: sk, segs: []keys.Segment{keys.Field("Title", "あ"[:2])}, wantField: "Title"},
		{name: "encoded replacement char is valid", join: sk, segs: []keys.Segment{keys.Field("Title", "\uFFFD")}, want: "\uFFFD"},
		{name: "max rune", join: sk, segs: []keys.Segment{keys.Field("Title", "a\U0010FFFF")}, wantField: "Title", wantMsg: []string{"U+10FFFF"}},

		{name: "pk exactly limit", join: pk, segs: []keys.Segment{keys.Lit("p"), keys.Field("ID", a("x", 2046))}, want: "p#" + a("x", 2046)},
		{name: "pk one over limit", join: pk, segs: []keys.Segment{keys.Lit("p"), keys.Field("ID", a("x", 2047))}, wantField: "ID", wantMsg: []string{"2049", "2048"}},
		{name: "sk exactly limit", join: sk, segs: []keys.Segment{keys.Lit("s"), keys.Field("ID", a("x", 1022))}, want: "s#" + a("x", 1022)},
		{name: "sk one over limit", join: sk, segs: []keys.Segment{keys.Lit("s"), keys.Field("ID", a("x", 1023))}, wantField: "ID", wantMsg: []string{"1025", "1024"}},
		{name: "prefix exactly limit", join: prefix, segs: []keys.Segment{keys.Lit("s"), keys.Field("ID", a("x", 1021))}, want: "s#" + a("x", 1021) + "#"},
		{name: "prefix one over limit", join: prefix, segs: []keys.Segment{keys.Lit("s"), keys.Field("ID", a("x", 1022))}, wantField: "ID", wantMsg: []string{"1025", "1024"}},
		{name: "sk japanese exactly limit in bytes", join: sk, segs: []keys.Segment{keys.Lit("abc"), keys.Field("Title", ja)}, want: "abc#" + ja},
		{name: "sk japanese one byte over", join: sk, segs: []keys.Segment{keys.Lit("abcd"), keys.Field("Title", ja)}, wantField: "Title", wantMsg: []string{"1025", "1024"}},
		{name: "pk japanese over limit", join: pk, segs: []keys.Segment{keys.Lit("user"), keys.Field("Username", strings.Repeat("山", 682))}, wantField: "Username", wantMsg: []string{"2051", "2048"}},
		{name: "too long blames longest field", join: sk, segs: []keys.Segment{keys.Field("A", a("a", 10)), keys.Lit(a("L", 600)), keys.Field("B", a("b", 500))}, wantField: "B"},
		{name: "too long all literals", join: sk, segs: []keys.Segment{keys.Lit(a("L", 600)), keys.Lit(a("L", 600))}, wantField: "key"},
		{name: "segment longer than any key", join: pk, segs: []keys.Segment{keys.Field("ID", a("x", 2049))}, wantField: "ID", wantMsg: []string{"2049", "2048"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.join(tt.segs...)
			if tt.wantField != "" {
				checkInvalid(t, err, tt.wantField, tt.wantMsg...)
				if got != "" {
					t.Errorf("got key %q with an error, want \"\"", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want %q", err, tt.want)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckSegment(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		wantErr bool
	}{
		{name: "ascii", value: "alice"},
		{name: "uuid", value: "0190c5b2-7f3e-7c1a-9b3e-1d2f3a4b5c6d"},
		{name: "japanese", value: "東京"},
		{name: "emoji", value: "😀"},
		{name: "just below max rune", value: "\U0010FFFE"},
		{name: "longest possible", value: strings.Repeat("x", keys.MaxPartitionKeyBytes)},
		{name: "empty", value: "", wantErr: true},
		{name: "separator", value: "a#b", wantErr: true},
		{name: "only separator", value: "#", wantErr: true},
		{name: "invalid utf-8", value: "\xc3\x28", wantErr: true},
		{name: "surrogate half", value: "\xed\xa0\x80", wantErr: true},
		{name: "max rune", value: "\U0010FFFF", wantErr: true},
		{name: "too long", value: strings.Repeat("x", keys.MaxPartitionKeyBytes+1), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := keys.CheckSegment("Name", tt.value)
			if tt.wantErr {
				checkInvalid(t, err, "Name")
				return
			}
			if err != nil {
				t.Errorf("got %v, want nil", err)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		key  string
		want []string
	}{
		{name: "empty", key: "", want: nil},
		{name: "one", key: "META", want: []string{"META"}},
		{name: "two", key: "user#alice", want: []string{"user", "alice"}},
		{name: "three", key: "DATE#20240107#h1", want: []string{"DATE", "20240107", "h1"}},
		{name: "prefix keeps trailing empty", key: "todo#", want: []string{"todo", ""}},
		{name: "japanese", key: "user#山田", want: []string{"user", "山田"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keys.Split(tt.key); !slices.Equal(got, tt.want) {
				t.Errorf("Split(%q) = %q, want %q", tt.key, got, tt.want)
			}
		})
	}
}

func TestPrefixRange(t *testing.T) {
	from, to := keys.PrefixRange("CREATED#0002", "CREATED#0004")
	if want := "CREATED#0002"; from != want {
		t.Errorf("from = %q, want %q", from, want)
	}
	if want := "CREATED#0004#\U0010FFFF"; to != want {
		t.Errorf("to = %q, want %q", to, want)
	}

	// DynamoDB's BETWEEN compares UTF-8 bytes, which is Go's string order.
	tests := []struct {
		name string
		key  string
		want bool
	}{
		{name: "below lo", key: "CREATED#0001#zzz", want: false},
		{name: "lo itself", key: "CREATED#0002", want: true},
		{name: "under lo", key: "CREATED#0002#a", want: true},
		{name: "between", key: "CREATED#0003#x#y", want: true},
		{name: "hi itself", key: "CREATED#0004", want: true},
		{name: "under hi ascii", key: "CREATED#0004#zzzz", want: true},
		{name: "under hi deep", key: "CREATED#0004#a#b#c", want: true},
		{name: "under hi japanese", key: "CREATED#0004#東京", want: true},
		{name: "under hi emoji", key: "CREATED#0004#😀😀", want: true},
		{name: "under hi just below max rune", key: "CREATED#0004#\U0010FFFE\U0010FFFE", want: true},
		{name: "under hi BMP max", key: "CREATED#0004#\uFFFF", want: true},
		{name: "above hi", key: "CREATED#0005", want: false},
		{name: "above hi with suffix", key: "CREATED#0005#a", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range keys.Split(tt.key) {
				if err := keys.CheckSegment("s", s); err != nil {
					t.Fatalf("test key %q has an invalid segment: %v", tt.key, err)
				}
			}
			if got := from <= tt.key && tt.key <= to; got != tt.want {
				t.Errorf("%q BETWEEN %q AND %q = %v, want %v", tt.key, from, to, got, tt.want)
			}
		})
	}
}

func TestPad(t *testing.T) {
	tests := []struct {
		name      string
		n         int64
		width     int
		want      string
		wantField string
	}{
		{name: "zero", n: 0, width: 1, want: "0"},
		{name: "padded", n: 42, width: 5, want: "00042"},
		{name: "exact width", n: 99999, width: 5, want: "99999"},
		{name: "millis in 16", n: 1700000000000, width: 16, want: "0001700000000000"},
		{name: "max int64", n: 1<<63 - 1, width: 19, want: "9223372036854775807"},
		{name: "overflow by one digit", n: 100000, width: 5, wantField: "n"},
		{name: "overflow width 1", n: 10, width: 1, wantField: "n"},
		{name: "negative", n: -1, width: 5, wantField: "n"},
		{name: "min int64", n: -1 << 63, width: 19, wantField: "n"},
		{name: "width zero", n: 0, width: 0, wantField: "width"},
		{name: "width negative", n: 0, width: -3, wantField: "width"},
		{name: "width too large", n: 0, width: 20, wantField: "width"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := keys.Pad(tt.n, tt.width)
			if tt.wantField != "" {
				checkInvalid(t, err, tt.wantField)
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want %q", err, tt.want)
			}
			if got != tt.want {
				t.Errorf("Pad(%d, %d) = %q, want %q", tt.n, tt.width, got, tt.want)
			}
		})
	}
}

func TestPadOrder(t *testing.T) {
	ns := []int64{0, 1, 9, 10, 11, 99, 100, 1000, 9999, 123456, 999999}
	var prev string
	for i, n := range ns {
		s, err := keys.Pad(n, 6)
		if err != nil {
			t.Fatalf("Pad(%d, 6): %v", n, err)
		}
		if i > 0 && prev >= s {
			t.Errorf("Pad(%d) = %q does not sort after %q", n, s, prev)
		}
		prev = s
	}
}

var tokyo = time.FixedZone("JST", 9*60*60)

func TestUnixMillis(t *testing.T) {
	epoch := time.Unix(0, 0).UTC()
	maxT := time.Date(2286, 11, 20, 17, 46, 39, 999_999_999, time.UTC)
	tests := []struct {
		name    string
		t       time.Time
		want    string
		wantErr bool
	}{
		{name: "epoch", t: epoch, want: "0000000000000"},
		{name: "epoch in another zone", t: epoch.In(tokyo), want: "0000000000000"},
		{name: "sub-millisecond truncated", t: epoch.Add(999 * time.Microsecond), want: "0000000000000"},
		{name: "one milli", t: epoch.Add(time.Millisecond), want: "0000000000001"},
		{name: "last 12-digit milli", t: time.Date(2001, 9, 9, 1, 46, 39, 999_000_000, time.UTC), want: "0999999999999"},
		{name: "first 13-digit milli", t: time.Date(2001, 9, 9, 1, 46, 40, 0, time.UTC), want: "1000000000000"},
		{name: "2024", t: time.Date(2024, 1, 7, 0, 0, 0, 0, time.UTC), want: "1704585600000"},
		{name: "latest", t: maxT, want: "9999999999999"},
		{name: "one nanosecond before 1970", t: epoch.Add(-time.Nanosecond), wantErr: true},
		{name: "1969", t: time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), wantErr: true},
		{name: "zero time", t: time.Time{}, wantErr: true},
		{name: "one nanosecond past 13 digits", t: maxT.Add(time.Nanosecond), wantErr: true},
		{name: "year 2287", t: time.Date(2287, 1, 1, 0, 0, 0, 0, time.UTC), wantErr: true},
		{name: "year 9999", t: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), wantErr: true},
		{name: "far future does not overflow", t: time.Date(300_000_000, 1, 1, 0, 0, 0, 0, time.UTC), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := keys.UnixMillis(tt.t)
			if tt.wantErr {
				checkInvalid(t, err, "unix millis")
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want %q", err, tt.want)
			}
			if got != tt.want {
				t.Errorf("UnixMillis(%v) = %q, want %q", tt.t, got, tt.want)
			}
			back, err := keys.ParseUnixMillis(got)
			if err != nil {
				t.Fatalf("ParseUnixMillis(%q): %v", got, err)
			}
			if want := tt.t.Truncate(time.Millisecond); !back.Equal(want) {
				t.Errorf("ParseUnixMillis(%q) = %v, want %v", got, back, want)
			}
		})
	}
}

func TestParseUnixMillis(t *testing.T) {
	tests := []struct {
		name    string
		s       string
		want    time.Time
		wantErr bool
	}{
		{name: "zero", s: "0000000000000", want: time.Unix(0, 0).UTC()},
		{name: "2024", s: "1704585600123", want: time.Date(2024, 1, 7, 0, 0, 0, 123_000_000, time.UTC)},
		{name: "max", s: "9999999999999", want: time.Date(2286, 11, 20, 17, 46, 39, 999_000_000, time.UTC)},
		{name: "empty", s: "", wantErr: true},
		{name: "12 digits", s: "999999999999", wantErr: true},
		{name: "14 digits", s: "00000000000000", wantErr: true},
		{name: "plus sign", s: "+000000000000", wantErr: true},
		{name: "minus sign", s: "-000000000001", wantErr: true},
		{name: "space", s: " 000000000000", wantErr: true},
		{name: "letter", s: "000000000000a", wantErr: true},
		{name: "underscore", s: "1_00000000000", wantErr: true},
		{name: "full-width digits", s: "０００００", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := keys.ParseUnixMillis(tt.s)
			if tt.wantErr {
				checkInvalid(t, err, "unix millis")
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want %v", err, tt.want)
			}
			if !got.Equal(tt.want) || got.Location() != time.UTC {
				t.Errorf("ParseUnixMillis(%q) = %v, want %v in UTC", tt.s, got, tt.want)
			}
		})
	}
}

func TestTimestamp(t *testing.T) {
	tests := []struct {
		name string
		t    time.Time
		want string
	}{
		{name: "utc", t: time.Date(2024, 1, 7, 12, 34, 56, 789_000_000, time.UTC), want: "2024-01-07T12:34:56.789Z"},
		{name: "converted to utc", t: time.Date(2024, 1, 7, 8, 0, 0, 0, tokyo), want: "2024-01-06T23:00:00.000Z"},
		{name: "truncated not rounded", t: time.Date(2024, 1, 7, 0, 0, 0, 999_999_999, time.UTC), want: "2024-01-07T00:00:00.999Z"},
		{name: "year 1", t: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), want: "0001-01-01T00:00:00.000Z"},
		{name: "year 9999", t: time.Date(9999, 12, 31, 23, 59, 59, 999_000_000, time.UTC), want: "9999-12-31T23:59:59.999Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := keys.Timestamp(tt.t)
			if got != tt.want {
				t.Errorf("Timestamp(%v) = %q, want %q", tt.t, got, tt.want)
			}
			if len(got) != len(keys.TimestampLayout) {
				t.Errorf("len(%q) = %d, want fixed width %d", got, len(got), len(keys.TimestampLayout))
			}
		})
	}
}

func TestTimestampOrder(t *testing.T) {
	base := time.Date(2024, 1, 7, 0, 0, 0, 0, time.UTC)
	times := []time.Time{
		base,
		base.Add(time.Millisecond),
		base.Add(-time.Millisecond),
		base.Add(999 * time.Millisecond),
		base.Add(time.Second),
		base.Add(10 * time.Second),
		base.Add(9 * time.Hour).In(tokyo), // later instant, earlier-looking local time
		base.Add(-9 * time.Hour).In(tokyo),
		base.AddDate(0, 1, 0),
		base.AddDate(0, 10, 0),
		base.AddDate(1, 0, 0),
		base.AddDate(-1, 0, 0),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999_000_000, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999_000_000, time.UTC),
	}
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	for i := 1; i < len(times); i++ {
		a, b := keys.Timestamp(times[i-1]), keys.Timestamp(times[i])
		if a >= b {
			t.Errorf("Timestamp(%v) = %q, want it below Timestamp(%v) = %q", times[i-1], a, times[i], b)
		}
	}
}

func TestParseTimestamp(t *testing.T) {
	tests := []struct {
		name    string
		s       string
		want    time.Time
		wantErr bool
	}{
		{name: "valid", s: "2024-01-07T12:34:56.789Z", want: time.Date(2024, 1, 7, 12, 34, 56, 789_000_000, time.UTC)},
		{name: "leap day", s: "2024-02-29T00:00:00.000Z", want: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{name: "year 1", s: "0001-01-01T00:00:00.000Z", want: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)},
		{name: "no fraction", s: "2024-01-01T00:00:00Z", wantErr: true},
		{name: "two fractional digits", s: "2024-01-01T00:00:00.00Z", wantErr: true},
		{name: "four fractional digits", s: "2024-01-01T00:00:00.0000Z", wantErr: true},
		{name: "nanoseconds", s: "2024-01-01T00:00:00.000000000Z", wantErr: true},
		{name: "offset", s: "2024-01-01T00:00:00.000+09:00", wantErr: true},
		{name: "zero offset", s: "2024-01-01T00:00:00.000+00:00", wantErr: true},
		{name: "no zone", s: "2024-01-01T00:00:00.000", wantErr: true},
		{name: "lowercase z", s: "2024-01-01T00:00:00.000z", wantErr: true},
		{name: "space separator", s: "2024-01-01 00:00:00.000Z", wantErr: true},
		{name: "unpadded date", s: "2024-1-1T00:00:00.000Z", wantErr: true},
		{name: "unpadded date only", s: "2024-1-1", wantErr: true},
		{name: "date only", s: "2024-01-01", wantErr: true},
		{name: "no such day", s: "2024-02-30T00:00:00.000Z", wantErr: true},
		{name: "hour 24", s: "2024-01-01T24:00:00.000Z", wantErr: true},
		{name: "comma fraction", s: "2024-01-01T00:00:00,000Z", wantErr: true},
		{name: "trailing space", s: "2024-01-01T00:00:00.000Z ", wantErr: true},
		{name: "empty", s: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := keys.ParseTimestamp(tt.s)
			if tt.wantErr {
				checkInvalid(t, err, "timestamp")
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want %v", err, tt.want)
			}
			if !got.Equal(tt.want) || got.Location() != time.UTC {
				t.Errorf("ParseTimestamp(%q) = %v, want %v in UTC", tt.s, got, tt.want)
			}
			if back := keys.Timestamp(got); back != tt.s {
				t.Errorf("Timestamp(ParseTimestamp(%q)) = %q, want the input back", tt.s, back)
			}
		})
	}
}

func TestDate(t *testing.T) {
	tests := []struct {
		name        string
		t           time.Time
		wantCompact string
		wantISO     string
	}{
		{name: "utc", t: time.Date(2024, 1, 7, 12, 0, 0, 0, time.UTC), wantCompact: "20240107", wantISO: "2024-01-07"},
		// The caller's zone decides the day: 20:00 UTC on the 6th is the 7th in Tokyo.
		{name: "own zone", t: time.Date(2024, 1, 6, 20, 0, 0, 0, time.UTC).In(tokyo), wantCompact: "20240107", wantISO: "2024-01-07"},
		{name: "not converted to utc", t: time.Date(2024, 1, 7, 5, 0, 0, 0, tokyo), wantCompact: "20240107", wantISO: "2024-01-07"},
		{name: "year 1", t: time.Date(1, 2, 3, 0, 0, 0, 0, time.UTC), wantCompact: "00010203", wantISO: "0001-02-03"},
		{name: "year 999", t: time.Date(999, 12, 31, 0, 0, 0, 0, time.UTC), wantCompact: "09991231", wantISO: "0999-12-31"},
		{name: "year 1000", t: time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC), wantCompact: "10000101", wantISO: "1000-01-01"},
		{name: "year 9999", t: time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), wantCompact: "99991231", wantISO: "9999-12-31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keys.DateCompact(tt.t); got != tt.wantCompact {
				t.Errorf("DateCompact(%v) = %q, want %q", tt.t, got, tt.wantCompact)
			}
			if got := keys.DateISO(tt.t); got != tt.wantISO {
				t.Errorf("DateISO(%v) = %q, want %q", tt.t, got, tt.wantISO)
			}
		})
	}
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		name    string
		parse   func(string) (time.Time, error)
		s       string
		want    time.Time
		wantErr bool
	}{
		{name: "compact", parse: keys.ParseDateCompact, s: "20240107", want: time.Date(2024, 1, 7, 0, 0, 0, 0, time.UTC)},
		{name: "compact leap day", parse: keys.ParseDateCompact, s: "20240229", want: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{name: "compact no such day", parse: keys.ParseDateCompact, s: "20240230", wantErr: true},
		{name: "compact not a leap year", parse: keys.ParseDateCompact, s: "20230229", wantErr: true},
		{name: "compact month 13", parse: keys.ParseDateCompact, s: "20241301", wantErr: true},
		{name: "compact seven digits", parse: keys.ParseDateCompact, s: "2024017", wantErr: true},
		{name: "compact nine digits", parse: keys.ParseDateCompact, s: "202401070", wantErr: true},
		{name: "compact given iso", parse: keys.ParseDateCompact, s: "2024-01-07", wantErr: true},
		{name: "compact unpadded", parse: keys.ParseDateCompact, s: "2024-1-1", wantErr: true},
		{name: "compact empty", parse: keys.ParseDateCompact, s: "", wantErr: true},
		{name: "iso", parse: keys.ParseDateISO, s: "2024-01-07", want: time.Date(2024, 1, 7, 0, 0, 0, 0, time.UTC)},
		{name: "iso year 1", parse: keys.ParseDateISO, s: "0001-01-01", want: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)},
		{name: "iso unpadded", parse: keys.ParseDateISO, s: "2024-1-1", wantErr: true},
		{name: "iso no such day", parse: keys.ParseDateISO, s: "2024-02-30", wantErr: true},
		{name: "iso given compact", parse: keys.ParseDateISO, s: "20240230", wantErr: true},
		{name: "iso with time", parse: keys.ParseDateISO, s: "2024-01-07T00:00:00Z", wantErr: true},
		{name: "iso slashes", parse: keys.ParseDateISO, s: "2024/01/07", wantErr: true},
		{name: "iso empty", parse: keys.ParseDateISO, s: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.parse(tt.s)
			if tt.wantErr {
				checkInvalid(t, err, "date")
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want %v", err, tt.want)
			}
			if !got.Equal(tt.want) || got.Location() != time.UTC {
				t.Errorf("parse(%q) = %v, want %v in UTC", tt.s, got, tt.want)
			}
		})
	}
}

// segments turns fuzz input into segment values: "\x00" separates them, so
// the fuzzer can reach empty segments and separators inside one.
func segments(s string) []keys.Segment {
	var segs []keys.Segment
	for i, v := range strings.Split(s, "\x00") {
		segs = append(segs, keys.Field(fmt.Sprintf("S[%d]", i), v))
	}
	return segs
}

// wantValid is an independent statement of the segment rules, as the oracle
// for the fuzz targets.
func wantValid(segs []keys.Segment, limit int) bool {
	n := len(segs) - 1
	for _, s := range segs {
		if s.Value == "" || strings.Contains(s.Value, keys.Sep) || !utf8.ValidString(s.Value) || strings.ContainsRune(s.Value, '\U0010FFFF') {
			return false
		}
		n += len(s.Value)
	}
	return n <= limit
}

func values(segs []keys.Segment) []string {
	vs := make([]string, len(segs))
	for i, s := range segs {
		vs[i] = s.Value
	}
	return vs
}

func FuzzJoinSplit(f *testing.F) {
	for _, s := range []string{
		"user\x00alice",
		"todo\x000190c5b2-7f3e-7c1a-9b3e-1d2f3a4b5c6d",
		"W\x00w1\x00CLOTH",
		"user\x00山田",
		"a",
		"",
		"a\x00",
		"\x00a",
		"a#b",
		"a\x00b#c",
		"\xff",
		"\U0010FFFF",
		strings.Repeat("x", 1024),
		strings.Repeat("x", 1022) + "\x00y",
		strings.Repeat("x", 1022) + "\x00yz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs := segments(s)
		key, err := keys.SK(segs...)
		valid := wantValid(segs, keys.MaxSortKeyBytes)
		if err != nil {
			if !errors.Is(err, ddbkit.ErrInvalidArgument) {
				t.Fatalf("SK(%q) error %v does not match ErrInvalidArgument", values(segs), err)
			}
			if valid {
				t.Fatalf("SK(%q) = error %v, want success", values(segs), err)
			}
			return
		}
		if !valid {
			t.Fatalf("SK(%q) = %q, want an error", values(segs), key)
		}
		if len(key) > keys.MaxSortKeyBytes {
			t.Fatalf("SK(%q) is %d bytes, over the limit", values(segs), len(key))
		}
		if got, want := keys.Split(key), values(segs); !slices.Equal(got, want) {
			t.Fatalf("Split(SK(%q)) = %q, want the segments back", want, got)
		}
	})
}

func FuzzInjective(f *testing.F) {
	for _, p := range [][2]string{
		{"user\x00alice", "user\x00alice"},
		{"user\x00alice\x00todo", "user\x00alice#todo"},
		{"a\x00b", "a#b"},
		{"a\x00", "a"},
		{"ab", "a\x00b"},
		{"user\x00山田", "user\x00山"},
		{"x", "y"},
	} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		sa, sb := segments(a), segments(b)
		ka, errA := keys.SK(sa...)
		kb, errB := keys.SK(sb...)
		if errA != nil || errB != nil {
			return
		}
		va, vb := values(sa), values(sb)
		if same := slices.Equal(va, vb); same != (ka == kb) {
			t.Fatalf("SK(%q) = %q and SK(%q) = %q: segment lists equal = %v, keys equal = %v", va, ka, vb, kb, same, ka == kb)
		}
	})
}

// FuzzParseRoundTrip checks that the strict parsers accept only what the
// encoders produce: anything they accept must format back to the input.
func FuzzParseRoundTrip(f *testing.F) {
	for _, s := range []string{
		"2024-01-07T12:34:56.789Z", "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.000+09:00",
		"20240107", "20240230", "2024-01-07", "2024-1-1",
		"1704585600000", "+704585600000", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tm, err := keys.ParseTimestamp(s); err == nil {
			if got := keys.Timestamp(tm); got != s {
				t.Errorf("Timestamp(ParseTimestamp(%q)) = %q", s, got)
			}
		} else if !errors.Is(err, ddbkit.ErrInvalidArgument) {
			t.Errorf("ParseTimestamp(%q) error %v does not match ErrInvalidArgument", s, err)
		}
		if tm, err := keys.ParseDateCompact(s); err == nil {
			if got := keys.DateCompact(tm); got != s {
				t.Errorf("DateCompact(ParseDateCompact(%q)) = %q", s, got)
			}
		} else if !errors.Is(err, ddbkit.ErrInvalidArgument) {
			t.Errorf("ParseDateCompact(%q) error %v does not match ErrInvalidArgument", s, err)
		}
		if tm, err := keys.ParseDateISO(s); err == nil {
			if got := keys.DateISO(tm); got != s {
				t.Errorf("DateISO(ParseDateISO(%q)) = %q", s, got)
			}
		} else if !errors.Is(err, ddbkit.ErrInvalidArgument) {
			t.Errorf("ParseDateISO(%q) error %v does not match ErrInvalidArgument", s, err)
		}
		if tm, err := keys.ParseUnixMillis(s); err == nil {
			got, err := keys.UnixMillis(tm)
			if err != nil || got != s {
				t.Errorf("UnixMillis(ParseUnixMillis(%q)) = %q, %v", s, got, err)
			}
		} else if !errors.Is(err, ddbkit.ErrInvalidArgument) {
			t.Errorf("ParseUnixMillis(%q) error %v does not match ErrInvalidArgument", s, err)
		}
	})
}

func TestParseTime(t *testing.T) {
	want := time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2024-01-05T10:00:00.000Z", want},
		{"2024-01-05T10:00:00Z", want},
		{"2024-01-05t10:00:00z", want},
		{"2024-01-05T19:00:00+09:00", want},
		{"2024-01-05T05:00:00-05:00", want},
		{"2024-01-05T10:00:00.123456Z", want.Add(123456 * time.Microsecond)},
		{"2024-01-05T10:00:00.1Z", want.Add(100 * time.Millisecond)},
		{"2024-01-05T10:00:00.123456789+00:00", want.Add(123456789)},
		{"2024-01-05T10:00:00", want},
		{"2024-01-05T10:00:00.5", want.Add(500 * time.Millisecond)},
	}
	for _, tt := range tests {
		got, err := keys.ParseTime(tt.in)
		if err != nil || !got.Equal(tt.want) || got.Location() != time.UTC {
			t.Errorf("ParseTime(%q) = %v, %v; want %v in UTC", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "2024-01-05", "yesterday", "2024-13-05T10:00:00Z", "2024-01-05 10:00:00Z", "1704448800000"} {
		if _, err := keys.ParseTime(bad); !errors.Is(err, ddbkit.ErrInvalidArgument) {
			t.Errorf("ParseTime(%q) error = %v, want ErrInvalidArgument", bad, err)
		}
	}
}

// TestShard holds the shard function to FNV-1a mod n, which other writers
// of the sharded layouts compute: its values must never change.
func TestShard(t *testing.T) {
	for _, tc := range []struct {
		id     string
		shards int
		want   int
	}{
		{"anything", 0, 0}, {"anything", 1, 0}, {"", 4, 1}, {"a", 4, 0}, {"task-1", 16, 6},
	} {
		if got := keys.Shard(tc.id, tc.shards); got != tc.want {
			t.Errorf("Shard(%q, %d) = %d, want %d", tc.id, tc.shards, got, tc.want)
		}
	}
}
