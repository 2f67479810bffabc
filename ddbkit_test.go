package ddbkit_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
)

func TestValidationError(t *testing.T) {
	err := fmt.Errorf("todo: create todo: %w", ddbkit.Invalid("Title", "must be at most %d characters, got %d", 200, 201))
	if !errors.Is(err, ddbkit.ErrInvalidArgument) {
		t.Fatalf("errors.Is(%v, ErrInvalidArgument) = false", err)
	}
	for _, other := range []error{ddbkit.ErrNotFound, ddbkit.ErrAlreadyExists, ddbkit.ErrConflict, ddbkit.ErrInvalidCursor} {
		if errors.Is(err, other) {
			t.Fatalf("a validation error matches %v", other)
		}
	}
	var ve *ddbkit.ValidationError
	if !errors.As(err, &ve) || ve.Field != "Title" {
		t.Fatalf("errors.As: %+v", ve)
	}
	if got, want := err.Error(), "todo: create todo: invalid argument: Title: must be at most 200 characters, got 201"; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
}

func TestEffectiveLimit(t *testing.T) {
	tests := []struct {
		name  string
		limit int
		want  int
		err   bool
	}{
		{"zero is the default", 0, ddbkit.DefaultPageLimit, false},
		{"one", 1, 1, false},
		{"max", ddbkit.MaxPageLimit, ddbkit.MaxPageLimit, false},
		{"above max", ddbkit.MaxPageLimit + 1, 0, true},
		{"negative", -1, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ddbkit.PageOptions{Limit: tt.limit}.EffectiveLimit()
			if got != tt.want || (err != nil) != tt.err {
				t.Fatalf("EffectiveLimit(%d) = %d, %v; want %d, error %v", tt.limit, got, err, tt.want, tt.err)
			}
			var ve *ddbkit.ValidationError
			if tt.err && (!errors.As(err, &ve) || ve.Field != "Limit") {
				t.Fatalf("error %v does not name Limit", err)
			}
		})
	}
}

// pages serves items in pages of size n, recording the cursors it was given.
func pages(items []int, n int, seen *[]string) func(string) (ddbkit.Page[int], error) {
	return func(cursor string) (ddbkit.Page[int], error) {
		*seen = append(*seen, cursor)
		i := 0
		if cursor != "" {
			fmt.Sscan(cursor, &i)
		}
		end := min(i+n, len(items))
		p := ddbkit.Page[int]{Items: items[i:end]}
		if end < len(items) {
			p.Next = fmt.Sprint(end)
		}
		return p, nil
	}
}

func TestAll(t *testing.T) {
	items := []int{1, 2, 3, 4, 5, 6, 7}
	var seen []string
	var got []int
	for v, err := range ddbkit.All(pages(items, 3, &seen)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if !slices.Equal(got, items) || !slices.Equal(seen, []string{"", "3", "6"}) {
		t.Fatalf("All yielded %v with cursors %q", got, seen)
	}

	// Breaking out stops fetching.
	seen = nil
	for v := range ddbkit.All(pages(items, 3, &seen)) {
		if v == 2 {
			break
		}
	}
	if len(seen) != 1 {
		t.Fatalf("All fetched %d pages after an early break, want 1", len(seen))
	}

	// An error is yielded once, and ends the walk.
	boom := errors.New("boom")
	n := 0
	for _, err := range ddbkit.All(func(string) (ddbkit.Page[int], error) { return ddbkit.Page[int]{}, boom }) {
		n++
		if !errors.Is(err, boom) {
			t.Fatalf("got %v, want boom", err)
		}
	}
	if n != 1 {
		t.Fatalf("error yielded %d times, want once", n)
	}
}

func TestStepClock(t *testing.T) {
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	c := ddbkit.StepClock(start, time.Millisecond)
	for i := range 3 {
		if got, want := c(), start.Add(time.Duration(i)*time.Millisecond); !got.Equal(want) {
			t.Fatalf("call %d = %v, want %v", i, got, want)
		}
	}
}

func TestIDGenerators(t *testing.T) {
	a, b := ddbkit.SeededUUIDv4(42), ddbkit.SeededUUIDv4(42)
	seen := map[string]bool{}
	for range 100 {
		x, y := a(), b()
		if x != y {
			t.Fatalf("same seed, different IDs: %s, %s", x, y)
		}
		if u, err := uuid.Parse(x); err != nil || u.Version() != 4 {
			t.Fatalf("%s: want a UUIDv4 (%v)", x, err)
		}
		if seen[x] {
			t.Fatalf("repeated ID %s", x)
		}
		seen[x] = true
	}
	if ddbkit.SeededUUIDv4(1)() == ddbkit.SeededUUIDv4(2)() {
		t.Fatal("different seeds gave the same first ID")
	}
	if u, err := uuid.Parse(ddbkit.NewUUIDv4()); err != nil || u.Version() != 4 {
		t.Fatalf("NewUUIDv4: %v %v", u, err)
	}
	v7a, v7b := ddbkit.NewUUIDv7(), ddbkit.NewUUIDv7()
	if u, err := uuid.Parse(v7a); err != nil || u.Version() != 7 || v7a >= v7b {
		t.Fatalf("NewUUIDv7: %s then %s: want version 7, increasing (%v)", v7a, v7b, err)
	}
}

// TestUUIDv7BurstStaysInOrder: 10,000 IDs of one frozen instant, more than
// the 12-bit counter holds, still sort in the order they were made, and
// are version 7.
func TestUUIDv7BurstStaysInOrder(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, g := range map[string]ddbkit.UUIDv7Generator{
		"crypto": ddbkit.NewUUIDv7Generator(),
		"seeded": ddbkit.SeededUUIDv7Generator(1),
	} {
		prev := ""
		for i := range 10_000 {
			id := g(at)
			if id <= prev {
				t.Fatalf("%s: ID %d = %s, not after %s", name, i, id, prev)
			}
			if u := uuid.MustParse(id); u.Version() != 7 {
				t.Fatalf("%s: %s has version %d", name, id, u.Version())
			}
			prev = id
		}
		// An earlier instant never goes back.
		if id := g(at.Add(-time.Hour)); id <= prev {
			t.Fatalf("%s: ID for an earlier instant = %s, not after %s", name, id, prev)
		}
	}
}

func TestSeededUUIDv7s(t *testing.T) {
	clock := func() ddbkit.Clock {
		return ddbkit.StepClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), time.Millisecond)
	}
	a, b := ddbkit.SeededUUIDv7s(7, clock()), ddbkit.SeededUUIDv7s(7, clock())
	for range 100 {
		x, y := a(), b()
		if x != y {
			t.Fatalf("same seed and clock gave %s and %s", x, y)
		}
		if u := uuid.MustParse(x); u.Version() != 7 {
			t.Fatalf("%s has version %d, want 7", x, u.Version())
		}
	}
}

func TestRetryPolicyDefaults(t *testing.T) {
	for _, p := range []ddbkit.RetryPolicy{{}, {MaxAttempts: -1, BaseDelay: -1, MaxDelay: -1}} {
		got := p.WithDefaults()
		want := ddbkit.RetryPolicy{MaxAttempts: ddbkit.DefaultMaxAttempts, BaseDelay: ddbkit.DefaultBaseDelay, MaxDelay: ddbkit.DefaultMaxDelay}
		if got != want {
			t.Errorf("%+v.WithDefaults() = %+v, want %+v", p, got, want)
		}
	}
	p := ddbkit.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: time.Minute}
	if got := p.WithDefaults(); got != p {
		t.Errorf("%+v.WithDefaults() = %+v, want it unchanged", p, got)
	}
}

func TestTypedErrorsMatchOneSentinel(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want error
	}{
		{&ddbkit.CorruptItemError{Table: "t", Key: "pk=a", Attr: "x", Reason: "bad"}, ddbkit.ErrCorruptItem},
		{&ddbkit.SchemaMismatchError{Table: "t", Diffs: []string{"a", "b"}}, ddbkit.ErrSchemaMismatch},
		{ddbkit.Invalid("F", "bad"), ddbkit.ErrInvalidArgument},
	} {
		var matched []error
		for _, s := range ddbkit.Sentinels() {
			if errors.Is(fmt.Errorf("wrapped: %w", tt.err), s) {
				matched = append(matched, s)
			}
		}
		if len(matched) != 1 || matched[0] != tt.want {
			t.Errorf("%v matches %v, want exactly %v", tt.err, matched, tt.want)
		}
	}
	cause := errors.New("decoder said no")
	if err := (&ddbkit.CorruptItemError{Err: cause}); !errors.Is(err, cause) {
		t.Error("CorruptItemError does not unwrap to its cause")
	}
}

func TestInvalidShowsInput(t *testing.T) {
	long := strings.Repeat("0", 300)
	err := ddbkit.Invalid("date", "got %q, want %s", long, "YYYY-MM-DD")
	if msg := err.Error(); strings.Contains(msg, long[:65]) || !strings.Contains(msg, "want YYYY-MM-DD") {
		t.Errorf("Invalid's message %q repeats more than 64 bytes of the input, or garbles the rest", msg)
	}
	if msg := ddbkit.Invalid("Ref", "got %q", "4242 4242 4242 4242").Error(); strings.Contains(msg, "4242 4242 4242") {
		t.Errorf("Invalid's message %q repeats a card number", msg)
	}
}

func TestInvalidShowsNamedStrings(t *testing.T) {
	type slot string
	long := slot(strings.Repeat("0", 300))
	if msg := ddbkit.Invalid("Slot", "got %q", long).Error(); strings.Contains(msg, string(long[:65])) {
		t.Errorf("Invalid's message %q repeats more than 64 bytes of a named string", msg)
	}
}
