package valid_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
	"github.com/ddbkit/ddbkit/internal/valid"
	"github.com/ddbkit/ddbkit/keys"
)

// FuzzTime holds valid.Time to what the readers read (issue 39): a time
// it accepts, in any zone, is written by keys.Timestamp in a form the
// lenient reader keys.ParseTime reads back as the same instant to the
// millisecond; a time it refuses is ErrInvalidArgument, and is exactly
// one whose UTC year lies outside 1 to 9999.
func FuzzTime(f *testing.F) {
	for _, tc := range []struct {
		sec, nsec int64
		offset    int32
	}{
		{1704448800, 0, 0}, {1704448800, 123456789, 9 * 3600}, {-62135596800, 0, 0}, {-62135596801, 999999999, 0},
		{253402300799, 999999999, 0}, {253402300800, 0, 0}, {253402300799, 0, -23 * 3600}, {0, 0, 0},
		{-1 << 62, 0, 0}, {1 << 62, -1, 0}, {-62135596800, 0, 3600},
	} {
		f.Add(tc.sec, tc.nsec, tc.offset)
	}
	f.Fuzz(func(t *testing.T, sec, nsec int64, offset int32) {
		tm := time.Unix(sec, nsec).In(time.FixedZone("z", int(offset%(24*3600))))
		var v valid.Validator
		v.Time("At", tm)
		y := tm.UTC().Year()
		if v.Err != nil {
			fuzzcheck.Error(t, v.Err, ddbkit.ErrInvalidArgument)
			if y >= 1 && y <= 9999 {
				t.Fatalf("Time(%v) = %v, want it accepted", tm, v.Err)
			}
			return
		}
		if y < 1 || y > 9999 {
			t.Fatalf("Time(%v) accepted a time of year %d", tm, y)
		}
		s := keys.Timestamp(tm)
		back, err := keys.ParseTime(s)
		if err != nil || !back.Equal(tm.Truncate(time.Millisecond)) {
			t.Fatalf("ParseTime(Timestamp(%v)) = %v, %v; want %v", tm, back, err, tm.Truncate(time.Millisecond))
		}
		if strict, err := keys.ParseTimestamp(s); err != nil || !strict.Equal(back) {
			t.Fatalf("ParseTimestamp(%q) = %v, %v; want %v", s, strict, err, back)
		}
	})
}

// FuzzID: an ID valid.ID accepts always makes a key segment (its doc's
// promise), and one it refuses is ErrInvalidArgument echoing a bounded
// prefix at most.
func FuzzID(f *testing.F) {
	for _, s := range []string{"a", "todo-1", "山田", "a#b", "a b", "", "\xff", "\U0010FFFF", "\u200b", strings.Repeat("x", 300), "4111111111111111"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > fuzzcheck.MaxInput {
			return
		}
		for _, max := range []int{1, 64, 256} {
			var v valid.Validator
			v.ID("ID", s, max)
			if v.Err != nil {
				fuzzcheck.Error(t, v.Err, ddbkit.ErrInvalidArgument, s)
				continue
			}
			if err := keys.CheckSegment("ID", s); err != nil {
				t.Fatalf("ID(%q, %d) accepted, but CheckSegment = %v", s, max, err)
			}
			if got := valid.IsID(s, max); !got {
				t.Fatalf("IsID(%q, %d) = false, ID accepted it", s, max)
			}
		}
	})
}
