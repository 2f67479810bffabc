// Package wardrobetest is the conformance suite for wardrobe.Store
// implementations. The DynamoDB store and the memory store both run it,
// which is what keeps the memory store an honest fake: same results,
// errors, order and page boundaries.
package wardrobetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// NewStore returns a fresh, empty store configured with opts. Each subtest
// calls it once.
type NewStore func(t *testing.T, opts ...func(*wardrobe.Options)) wardrobe.Store

// Start is the time of the suite's clock.
var Start = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// Run runs every conformance test against stores made by newStore.
func Run(t *testing.T, newStore NewStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, NewStore)
	}{
		{"CreateAndGetWardrobe", testWardrobe},
		{"DefaultIDsAreUUIDv7", testDefaultIDs},
		{"DefaultIDsFollowClock", testDefaultIDsFollowClock},
		{"RepeatedIDIsAlreadyExists", testRepeatedID},
		{"AddAndGetClothing", testAddClothing},
		{"UpdateClothing", testUpdateClothing},
		{"DeleteAndRestoreClothing", testDeleteClothing},
		{"ListClothesOrders", testListClothesOrders},
		{"ListCreatedAtTies", testCreatedAtTies},
		{"ListCursors", testListCursors},
		{"AddAndGetTemplate", testAddTemplate},
		{"AddTemplateRefusesBadClothes", testAddTemplateBadClothes},
		{"UpdateTemplate", testUpdateTemplate},
		{"DeleteAndRestoreTemplate", testDeleteTemplate},
		{"ListTemplatesThumbnails", testTemplateThumbnails},
		{"ListTemplatesOrders", testListTemplatesOrders},
		{"ThumbnailsBeyondOneBatch", testManyThumbnails},
		{"ResultsDoNotAlias", testResultsDoNotAlias},
		{"AddHistoryUpdatesStats", testAddHistory},
		{"AddHistoryBadInputWritesNothing", testAddHistoryBadInput},
		{"DateLimits", testDateLimits},
		{"GetHistory", testGetHistory},
		{"ListHistory", testListHistory},
		{"ListHistoryLastWeek", testLastWeek},
		{"DeleteHistoryStats", testDeleteHistory},
		{"ListDailyWear", testListDailyWear},
		{"RecalculateStats", testRecalculateStats},
		{"BadInput", testBadInput},
		{"ConcurrentHistories", testConcurrentHistories},
		{"ConcurrentDeleteHistoryOneWins", testConcurrentDeleteOneWins},
		{"ConcurrentCreateOneWins", testConcurrentCreateOneWins},
		{"EndedContextWritesNothing", testEndedContext},
		{"IdempotencyKey", testIdempotencyKey},
		{"KeyedCreatesReplay", testKeyedCreates},
		{"KeyedDeleteHistoryReplays", testKeyedDeleteHistory},
		{"KeyedRepeatSafeWrites", testKeyedRepeatSafe},
		{"EpochClock", testEpochClock},
		{"DateArithmetic", testDateArithmetic},
		{"Location", testLocation},
		{"IdenticalCreateIsAnothers", testIdenticalCreateIsAnothers},
		{"IdempotencyKeyScoped", testIdempotencyKeyScoped},
		{"CursorSecretTooShort", testCursorSecretTooShort},
		{"FarDates", testFarDates},
		{"ClockOutOfRange", testClockOutOfRange},
		{"LargestItems", testLargestItems},
		{"FilterBudgetWalk", testFilterBudgetWalk},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newStore) })
	}
}

// fixed returns a store with a step clock (one millisecond per call) and
// deterministic IDs of the seed's kind, UUIDv7, stamped by a clock of
// their own so that making an ID does not move the store's clock.
func fixed(t *testing.T, newStore NewStore, more ...func(*wardrobe.Options)) wardrobe.Store {
	t.Helper()
	opts := append([]func(*wardrobe.Options){func(o *wardrobe.Options) {
		o.Clock = ddbkit.StepClock(Start, time.Millisecond)
		o.NewID = ddbkit.SeededUUIDv7s(1, ddbkit.StepClock(Start, time.Millisecond))
	}}, more...)
	return newStore(t, opts...)
}

// manualClock is a clock that stays where the test sets it, so that a test
// knows exactly what time a store stamps.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func ctx(t *testing.T) context.Context { return t.Context() }

func ptr[T any](v T) *T { return &v }

// long returns a Japanese string of n characters (3n bytes).
func long(n int) string { return strings.Repeat("あ", n) }

// never is LastWornAt of an item never worn.
const never = wardrobe.Date("")

// day returns d, the LastWornAt of an item last worn on d, after checking
// that it is a real date, independently of the package.
func day(t *testing.T, d wardrobe.Date) wardrobe.Date {
	t.Helper()
	if _, err := time.Parse("20060102", string(d)); err != nil {
		t.Fatalf("bad test date %q: %v", d, err)
	}
	return d
}

// addDays is d.AddDays(n) for dates the test knows are valid.
func addDays(t *testing.T, d wardrobe.Date, n int) wardrobe.Date {
	t.Helper()
	out, err := d.AddDays(n)
	if err != nil {
		t.Fatalf("%s.AddDays(%d): %v", d, n, err)
	}
	return out
}

// wantErr fails t unless err matches want and no other ddbkit sentinel
// (every error of a store matches exactly one), and starts with the
// package's name.
func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	var matched []error
	for _, s := range ddbkit.Sentinels() {
		if errors.Is(err, s) {
			matched = append(matched, s)
		}
	}
	if len(matched) != 1 || matched[0] != want {
		t.Fatalf("%s: got error %v, matching %v; want exactly %v", what, err, matched, want)
	}
	if !strings.HasPrefix(err.Error(), "wardrobe: ") {
		t.Fatalf("%s: error %q does not start with the package name", what, err)
	}
}

// wantField checks that err is an ErrInvalidArgument naming field.
func wantField(t *testing.T, what string, err error, field string) {
	t.Helper()
	if !errors.Is(err, ddbkit.ErrInvalidArgument) {
		t.Fatalf("%s: got error %v, want ErrInvalidArgument for field %q", what, err, field)
	}
	var ve *ddbkit.ValidationError
	if !errors.As(err, &ve) || ve.Field != field {
		t.Fatalf("%s: error %v: want a *ddbkit.ValidationError for field %q", what, err, field)
	}
	if !strings.HasPrefix(err.Error(), "wardrobe: ") {
		t.Fatalf("%s: error %q does not start with the package name", what, err)
	}
}

func mustWardrobe(t *testing.T, s wardrobe.Store, name string) wardrobe.Wardrobe {
	t.Helper()
	w, err := s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: name})
	if err != nil {
		t.Fatalf("CreateWardrobe(%q): %v", name, err)
	}
	return w
}

func mustClothing(t *testing.T, s wardrobe.Store, wid, name, imageKey string) wardrobe.Clothing {
	t.Helper()
	c, err := s.AddClothing(ctx(t), wid, wardrobe.NewClothing{Name: name, ImageKey: imageKey})
	if err != nil {
		t.Fatalf("AddClothing(%q): %v", name, err)
	}
	return c
}

func mustClothes(t *testing.T, s wardrobe.Store, wid string, n int) []wardrobe.Clothing {
	t.Helper()
	out := make([]wardrobe.Clothing, n)
	for i := range out {
		out[i] = mustClothing(t, s, wid, fmt.Sprintf("服%d", i), "")
	}
	return out
}

func mustTemplate(t *testing.T, s wardrobe.Store, wid, name string, ids ...string) wardrobe.Template {
	t.Helper()
	tp, err := s.AddTemplate(ctx(t), wid, wardrobe.NewTemplate{Name: name, ClothingIDs: ids})
	if err != nil {
		t.Fatalf("AddTemplate(%q, %v): %v", name, ids, err)
	}
	return tp
}

func mustHistory(t *testing.T, s wardrobe.Store, wid string, d wardrobe.Date, templateID string, ids ...string) wardrobe.History {
	t.Helper()
	h, err := s.AddHistory(ctx(t), wid, wardrobe.NewHistory{Date: d, TemplateID: templateID, ClothingIDs: ids})
	if err != nil {
		t.Fatalf("AddHistory(%s, template %q, %v): %v", d, templateID, ids, err)
	}
	return h
}

func getClothing(t *testing.T, s wardrobe.Store, wid, id string) wardrobe.Clothing {
	t.Helper()
	c, err := s.GetClothing(ctx(t), wid, id)
	if err != nil {
		t.Fatalf("GetClothing(%q): %v", id, err)
	}
	return c
}

func getTemplate(t *testing.T, s wardrobe.Store, wid, id string) wardrobe.Template {
	t.Helper()
	tp, err := s.GetTemplate(ctx(t), wid, id)
	if err != nil {
		t.Fatalf("GetTemplate(%q): %v", id, err)
	}
	return tp
}

func mustDeleteClothing(t *testing.T, s wardrobe.Store, wid, id string) wardrobe.Clothing {
	t.Helper()
	c, err := s.DeleteClothing(ctx(t), wid, id)
	if err != nil {
		t.Fatalf("DeleteClothing(%q): %v", id, err)
	}
	return c
}

func mustDeleteTemplate(t *testing.T, s wardrobe.Store, wid, id string) wardrobe.Template {
	t.Helper()
	tp, err := s.DeleteTemplate(ctx(t), wid, id)
	if err != nil {
		t.Fatalf("DeleteTemplate(%q): %v", id, err)
	}
	return tp
}

func mustDeleteHistory(t *testing.T, s wardrobe.Store, wid, id string) {
	t.Helper()
	if err := s.DeleteHistory(ctx(t), wid, id); err != nil {
		t.Fatalf("DeleteHistory(%q): %v", id, err)
	}
}

// wantStats checks an item's cached statistics.
func wantStats(t *testing.T, what string, count, gotCount int, last, gotLast wardrobe.Date) {
	t.Helper()
	if gotCount != count || gotLast != last {
		t.Fatalf("%s: WearCount %d, LastWornAt %v; want %d, %v", what, gotCount, gotLast, count, last)
	}
}

func wantClothingStats(t *testing.T, s wardrobe.Store, wid, id string, count int, last wardrobe.Date) {
	t.Helper()
	c := getClothing(t, s, wid, id)
	wantStats(t, "clothing "+c.Name, count, c.WearCount, last, c.LastWornAt)
}

func wantTemplateStats(t *testing.T, s wardrobe.Store, wid, id string, count int, last wardrobe.Date) {
	t.Helper()
	tp := getTemplate(t, s, wid, id)
	wantStats(t, "template "+tp.Name, count, tp.WearCount, last, tp.LastWornAt)
}

// walk reads every page of a listing with the given limit, and returns the
// items and the page sizes. It checks that Next is "" exactly on the last
// page by comparing the sizes with wantSizes.
func walk[T any](t *testing.T, what string, limit int, fetch func(cursor string, limit int) (ddbkit.Page[T], error)) ([]T, []int) {
	t.Helper()
	var (
		out   []T
		sizes []int
		c     string
	)
	for i := 0; ; i++ {
		p, err := fetch(c, limit)
		if err != nil {
			t.Fatalf("%s, page %d with limit %d: %v", what, i, limit, err)
		}
		out = append(out, p.Items...)
		sizes = append(sizes, len(p.Items))
		if p.Next == "" {
			return out, sizes
		}
		if i > 1000 {
			t.Fatalf("%s: more than 1000 pages", what)
		}
		c = p.Next
	}
}

// wantSizes is how n items split into pages of limit: full pages, then the
// rest, and no empty page after a full one (one empty page when n is 0).
func wantSizes(n, limit int) []int {
	if limit == 0 {
		limit = ddbkit.DefaultPageLimit
	}
	if n == 0 {
		return []int{0}
	}
	var sizes []int
	for ; n > limit; n -= limit {
		sizes = append(sizes, limit)
	}
	return append(sizes, n)
}

// checkWalk walks a listing with each of limits and checks the order of the
// IDs and the page boundaries.
func checkWalk[T any](t *testing.T, what string, want []string, id func(T) string, fetch func(cursor string, limit int) (ddbkit.Page[T], error), limits ...int) {
	t.Helper()
	for _, limit := range limits {
		items, sizes := walk(t, what, limit, fetch)
		got := make([]string, len(items))
		for i, it := range items {
			got[i] = id(it)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s with limit %d: IDs\n got %v\nwant %v", what, limit, got, want)
		}
		if ws := wantSizes(len(want), limit); !slices.Equal(sizes, ws) {
			t.Fatalf("%s with limit %d: page sizes %v, want %v", what, limit, sizes, ws)
		}
	}
}

func clothingID(c wardrobe.Clothing) string        { return c.ID }
func templateID(s wardrobe.TemplateSummary) string { return s.ID }
func historyID(s wardrobe.HistorySummary) string   { return s.ID }
func dailyDate(d wardrobe.DailyWear) string        { return string(d.Date) }

func clothesFetch(t *testing.T, s wardrobe.Store, wid string, o wardrobe.ListQuery) func(string, int) (ddbkit.Page[wardrobe.Clothing], error) {
	return func(c string, limit int) (ddbkit.Page[wardrobe.Clothing], error) {
		o.PageOptions = ddbkit.PageOptions{Limit: limit, Cursor: c}
		return s.ListClothes(ctx(t), wid, o)
	}
}

func templatesFetch(t *testing.T, s wardrobe.Store, wid string, o wardrobe.ListQuery) func(string, int) (ddbkit.Page[wardrobe.TemplateSummary], error) {
	return func(c string, limit int) (ddbkit.Page[wardrobe.TemplateSummary], error) {
		o.PageOptions = ddbkit.PageOptions{Limit: limit, Cursor: c}
		return s.ListTemplates(ctx(t), wid, o)
	}
}

func historyFetch(t *testing.T, s wardrobe.Store, wid string, q wardrobe.HistoryQuery) func(string, int) (ddbkit.Page[wardrobe.HistorySummary], error) {
	return func(c string, limit int) (ddbkit.Page[wardrobe.HistorySummary], error) {
		q.PageOptions = ddbkit.PageOptions{Limit: limit, Cursor: c}
		return s.ListHistory(ctx(t), wid, q)
	}
}

func dailyFetch(t *testing.T, s wardrobe.Store, wid string, kind wardrobe.Kind, id string, q wardrobe.DailyQuery) func(string, int) (ddbkit.Page[wardrobe.DailyWear], error) {
	return func(c string, limit int) (ddbkit.Page[wardrobe.DailyWear], error) {
		q.PageOptions = ddbkit.PageOptions{Limit: limit, Cursor: c}
		return s.ListDailyWear(ctx(t), wid, kind, id, q)
	}
}

// allHistory reads every history of a wardrobe, in date order.
func allHistory(t *testing.T, s wardrobe.Store, wid string) []wardrobe.HistorySummary {
	t.Helper()
	hs, _ := walk(t, "ListHistory", 0, historyFetch(t, s, wid, wardrobe.HistoryQuery{}))
	return hs
}

// allDaily reads every daily counter of an item, in date order.
func allDaily(t *testing.T, s wardrobe.Store, wid string, kind wardrobe.Kind, id string) []wardrobe.DailyWear {
	t.Helper()
	ds, _ := walk(t, "ListDailyWear", 0, dailyFetch(t, s, wid, kind, id, wardrobe.DailyQuery{}))
	return ds
}

func wantDaily(t *testing.T, s wardrobe.Store, wid string, kind wardrobe.Kind, id string, want ...wardrobe.DailyWear) {
	t.Helper()
	got := allDaily(t, s, wid, kind, id)
	if len(want) == 0 {
		want = []wardrobe.DailyWear{}
	}
	if len(got) == 0 {
		got = []wardrobe.DailyWear{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ListDailyWear(%s %q) = %v, want %v", kind, id, got, want)
	}
}

func dw(d wardrobe.Date, n int) wardrobe.DailyWear { return wardrobe.DailyWear{Date: d, Count: n} }

func reversed[T any](s []T) []T {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}
