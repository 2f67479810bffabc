package wardrobe

import (
	"testing"
	"time"
)

// TestOptionsLocation holds the deprecated TimeZone to its promise: honoured
// when Location is nil, never over it.
func TestOptionsLocation(t *testing.T) {
	jst := time.FixedZone("JST", 9*60*60)
	est := time.FixedZone("EST", -5*60*60)
	for _, tc := range []struct {
		name string
		fn   func(*Options)
		want *time.Location
	}{
		{"neither", func(*Options) {}, time.UTC},
		{"Location", func(o *Options) { o.Location = jst }, jst},
		{"TimeZone alone", func(o *Options) { o.TimeZone = jst }, jst},
		{"both", func(o *Options) { o.Location, o.TimeZone = jst, est }, jst},
	} {
		if got := newOptions([]func(*Options){tc.fn}).Location; got != tc.want {
			t.Errorf("%s: Location = %v, want %v", tc.name, got, tc.want)
		}
	}
}
