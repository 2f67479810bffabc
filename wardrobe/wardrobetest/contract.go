package wardrobetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// snapshot renders everything the store holds for the given wardrobes,
// as the read access patterns return it, so that a test can tell that
// nothing was written.
func snapshot(t *testing.T, s wardrobe.Store, wids ...string) string {
	t.Helper()
	var out []any
	for _, wid := range wids {
		w, err := s.GetWardrobe(ctx(t), wid)
		out = append(out, w, fmt.Sprint(err))
		for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
			cs, _ := walk(t, "ListClothes", 0, clothesFetch(t, s, wid, wardrobe.ListQuery{Status: st}))
			ts, _ := walk(t, "ListTemplates", 0, templatesFetch(t, s, wid, wardrobe.ListQuery{Status: st}))
			out = append(out, cs, ts)
			for _, c := range cs {
				out = append(out, allDaily(t, s, wid, wardrobe.KindClothing, c.ID))
			}
			for _, tp := range ts {
				out = append(out, allDaily(t, s, wid, wardrobe.KindTemplate, tp.ID))
			}
		}
		out = append(out, allHistory(t, s, wid))
	}
	js, err := json.Marshal(out)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return string(js)
}

// testEndedContext calls every method under a cancelled and under an
// expired context: each fails with ErrUnavailable, still matching the
// context's error, and nothing is written. Bad input is still reported
// first, as ErrInvalidArgument.
func testEndedContext(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	cs := mustClothes(t, s, w.ID, 3)
	tp := mustTemplate(t, s, w.ID, "tp", ids(cs, 0, 1)...)
	gone := mustDeleteTemplate(t, s, w.ID, mustTemplate(t, s, w.ID, "gone", ids(cs, 2)...).ID)
	h := mustHistory(t, s, w.ID, "20260104", tp.ID, ids(cs, 0, 1)...)
	before := snapshot(t, s, w.ID)

	cancelled, cancel := context.WithCancel(ctx(t))
	cancel()
	expired, cancel2 := context.WithDeadline(ctx(t), time.Now().Add(-time.Second))
	defer cancel2()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{{"cancelled", cancelled, context.Canceled}, {"expired", expired, context.DeadlineExceeded}} {
		e := func(_ any, err error) error { return err }
		calls := []struct {
			name string
			call func() error
		}{
			{"CreateWardrobe", func() error { return e(s.CreateWardrobe(c.ctx, wardrobe.NewWardrobe{Name: "x"})) }},
			{"GetWardrobe", func() error { return e(s.GetWardrobe(c.ctx, w.ID)) }},
			{"AddClothing", func() error { return e(s.AddClothing(c.ctx, w.ID, wardrobe.NewClothing{Name: "x"})) }},
			{"GetClothing", func() error { return e(s.GetClothing(c.ctx, w.ID, cs[0].ID)) }},
			{"ListClothes", func() error { return e(s.ListClothes(c.ctx, w.ID, wardrobe.ListQuery{})) }},
			{"UpdateClothing", func() error {
				return e(s.UpdateClothing(c.ctx, w.ID, cs[0].ID, wardrobe.ClothingPatch{Name: ptr("x")}))
			}},
			{"DeleteClothing", func() error { return e(s.DeleteClothing(c.ctx, w.ID, cs[0].ID)) }},
			{"RestoreClothing", func() error { return e(s.RestoreClothing(c.ctx, w.ID, cs[0].ID)) }},
			{"AddTemplate", func() error {
				return e(s.AddTemplate(c.ctx, w.ID, wardrobe.NewTemplate{Name: "x", ClothingIDs: ids(cs, 0)}))
			}},
			{"GetTemplate", func() error { return e(s.GetTemplate(c.ctx, w.ID, tp.ID)) }},
			{"ListTemplates", func() error { return e(s.ListTemplates(c.ctx, w.ID, wardrobe.ListQuery{})) }},
			{"UpdateTemplate name", func() error {
				return e(s.UpdateTemplate(c.ctx, w.ID, tp.ID, wardrobe.TemplatePatch{Name: ptr("x")}))
			}},
			{"UpdateTemplate clothes", func() error {
				return e(s.UpdateTemplate(c.ctx, w.ID, tp.ID, wardrobe.TemplatePatch{ClothingIDs: ids(cs, 2)}))
			}},
			{"DeleteTemplate", func() error { return e(s.DeleteTemplate(c.ctx, w.ID, tp.ID)) }},
			{"RestoreTemplate", func() error { return e(s.RestoreTemplate(c.ctx, w.ID, gone.ID)) }},
			{"AddHistory", func() error {
				return e(s.AddHistory(c.ctx, w.ID, wardrobe.NewHistory{Date: "20260105", ClothingIDs: ids(cs, 0)}))
			}},
			{"GetHistory", func() error { return e(s.GetHistory(c.ctx, w.ID, h.ID)) }},
			{"ListHistory", func() error { return e(s.ListHistory(c.ctx, w.ID, wardrobe.HistoryQuery{})) }},
			{"DeleteHistory", func() error { return s.DeleteHistory(c.ctx, w.ID, h.ID) }},
			{"ListDailyWear", func() error {
				return e(s.ListDailyWear(c.ctx, w.ID, wardrobe.KindClothing, cs[0].ID, wardrobe.DailyQuery{}))
			}},
			{"RecalculateStats", func() error { return e(s.RecalculateStats(c.ctx, w.ID)) }},
		}
		for _, call := range calls {
			t.Run(c.name+"/"+call.name, func(t *testing.T) {
				err := call.call()
				wantErr(t, call.name, err, ddbkit.ErrUnavailable)
				if !errors.Is(err, c.want) {
					t.Fatalf("%s: error %v does not match %v", call.name, err, c.want)
				}
			})
		}
		// Bad input is reported before the context is looked at.
		_, err := s.AddClothing(c.ctx, w.ID, wardrobe.NewClothing{})
		wantField(t, "AddClothing(no name) under an ended context", err, "Name")
		_, err = s.ListClothes(c.ctx, w.ID, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Cursor: "garbage"}})
		wantErr(t, "ListClothes(bad cursor) under an ended context", err, ddbkit.ErrInvalidCursor)
	}
	if after := snapshot(t, s, w.ID); after != before {
		t.Fatalf("calls under an ended context wrote:\n before %s\n after  %s", before, after)
	}
}

// testIdempotencyKey repeats transactional writes under one idempotency
// key, as a client retrying a request does: a repeat with the same
// arguments returns the first call's result and commits nothing more, and
// one with other arguments is refused with ErrIdempotencyKeyReused (an
// ErrConflict).
func testIdempotencyKey(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	cs := mustClothes(t, s, w.ID, 4)
	tp := mustTemplate(t, s, w.ID, "tp", ids(cs, 0)...)
	key := func(k string) context.Context { return ddbkit.WithIdempotencyKey(ctx(t), k) }

	// UpdateTemplate with new clothes: the repeat succeeds with the same
	// result and writes nothing; other clothes under the key are refused.
	patch := wardrobe.TemplatePatch{ClothingIDs: ids(cs, 1, 2)}
	first, err := s.UpdateTemplate(key("update-1"), w.ID, tp.ID, patch)
	if err != nil {
		t.Fatalf("UpdateTemplate: %v", err)
	}
	before := snapshot(t, s, w.ID)
	again, err := s.UpdateTemplate(key("update-1"), w.ID, tp.ID, patch)
	if err != nil {
		t.Fatalf("UpdateTemplate repeated with its key: %v, want success", err)
	}
	if fmt.Sprint(again) != fmt.Sprint(first) || snapshot(t, s, w.ID) != before {
		t.Fatalf("UpdateTemplate repeated with its key = %+v, want %+v and nothing written", again, first)
	}
	_, err = s.UpdateTemplate(key("update-1"), w.ID, tp.ID, wardrobe.TemplatePatch{ClothingIDs: ids(cs, 3)})
	wantReused(t, "UpdateTemplate with a used key and other clothes", err)
	if got := getTemplate(t, s, w.ID, tp.ID); fmt.Sprint(got) != fmt.Sprint(first) {
		t.Fatalf("after a refused UpdateTemplate: %+v, want %+v", got, first)
	}

	// AddHistory makes a fresh ID every call: a repeat under the key
	// returns the first history, and the wear is counted once.
	in := wardrobe.NewHistory{Date: "20260105", TemplateID: tp.ID, ClothingIDs: ids(cs, 1, 2)}
	h, err := s.AddHistory(key("wear-1"), w.ID, in)
	if err != nil {
		t.Fatalf("AddHistory: %v", err)
	}
	if again, err := s.AddHistory(key("wear-1"), w.ID, in); err != nil || !reflect.DeepEqual(again, h) {
		t.Fatalf("AddHistory repeated with its key = %+v, %v; want the first call's %+v", again, err, h)
	}
	if hs := allHistory(t, s, w.ID); len(hs) != 1 || hs[0].ID != h.ID {
		t.Fatalf("after AddHistory repeated with its key: histories %+v, want only %s", hs, h.ID)
	}
	wantClothingStats(t, s, w.ID, cs[1].ID, 1, day(t, "20260105"))
	wantTemplateStats(t, s, w.ID, tp.ID, 1, day(t, "20260105"))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, cs[1].ID, dw("20260105", 1))
	// A key is per operation: the same key may serve another one.
	c, err := s.AddClothing(key("wear-1"), w.ID, wardrobe.NewClothing{Name: "new"})
	if err != nil {
		t.Fatalf("AddClothing under a key AddHistory used: %v", err)
	}
	if again, err := s.AddClothing(key("wear-1"), w.ID, wardrobe.NewClothing{Name: "new"}); err != nil || again != c {
		t.Fatalf("AddClothing repeated with its key = %+v, %v; want the first call's %+v", again, err, c)
	}
	if all, _ := walk(t, "ListClothes", 0, clothesFetch(t, s, w.ID, wardrobe.ListQuery{})); len(all) != 5 || all[4].ID != c.ID {
		t.Fatalf("after AddClothing repeated with its key: %d clothes, want 5 ending with %s", len(all), c.ID)
	}
	t2, err := s.AddTemplate(key("wear-1"), w.ID, wardrobe.NewTemplate{Name: "t2", ClothingIDs: ids(cs, 0)})
	if err != nil {
		t.Fatalf("AddTemplate under a key AddHistory used: %v", err)
	}
	if again, err := s.AddTemplate(key("wear-1"), w.ID, wardrobe.NewTemplate{Name: "t2", ClothingIDs: ids(cs, 0)}); err != nil || !reflect.DeepEqual(again, t2) {
		t.Fatalf("AddTemplate repeated with its key = %+v, %v; want the first call's %+v", again, err, t2)
	}

	// DeleteHistory: the repeat succeeds, as the first call did, and takes
	// nothing more back; without the key it finds the history gone.
	h2 := mustHistory(t, s, w.ID, "20260103", "", ids(cs, 1)...)
	if err := s.DeleteHistory(key("delete-1"), w.ID, h2.ID); err != nil {
		t.Fatalf("DeleteHistory: %v", err)
	}
	if err := s.DeleteHistory(key("delete-1"), w.ID, h2.ID); err != nil {
		t.Fatalf("DeleteHistory repeated with its key: %v, want the first call's success", err)
	}
	wantErr(t, "DeleteHistory repeated without a key", s.DeleteHistory(ctx(t), w.ID, h2.ID), ddbkit.ErrNotFound)
	wantClothingStats(t, s, w.ID, cs[1].ID, 1, day(t, "20260105"))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, cs[1].ID, dw("20260105", 1))

	// Without a key, every call is a request of its own.
	mustHistory(t, s, w.ID, "20260105", "", ids(cs, 1)...)
	mustHistory(t, s, w.ID, "20260105", "", ids(cs, 1)...)
	wantClothingStats(t, s, w.ID, cs[1].ID, 3, day(t, "20260105"))
}

// testEpochClock runs a store whose clock stands at the Unix epoch: 0 ms
// is a time like any other, and reads back as the epoch, not as unset.
func testEpochClock(t *testing.T, newStore NewStore) {
	epoch := time.Unix(0, 0).UTC()
	s := newStore(t, func(o *wardrobe.Options) {
		o.Clock = func() time.Time { return epoch }
		o.NewID = ddbkit.SeededUUIDv7s(2, func() time.Time { return epoch })
	})
	w := mustWardrobe(t, s, "w")
	if got, err := s.GetWardrobe(ctx(t), w.ID); err != nil || !got.CreatedAt.Equal(epoch) || got.CreatedAt.IsZero() || got != w {
		t.Fatalf("GetWardrobe at the epoch = %+v, %v; want CreatedAt %v, as CreateWardrobe returned %+v", got, err, epoch, w)
	}
	c := mustClothing(t, s, w.ID, "c", "")
	if got := getClothing(t, s, w.ID, c.ID); got != c || !got.CreatedAt.Equal(epoch) || got.CreatedAt.IsZero() {
		t.Fatalf("GetClothing at the epoch = %+v; want %+v with CreatedAt %v", got, c, epoch)
	}
	del := mustDeleteClothing(t, s, w.ID, c.ID)
	if got := getClothing(t, s, w.ID, c.ID); got != del || got.DeletedAt.IsZero() || !got.DeletedAt.Equal(epoch) {
		t.Fatalf("GetClothing deleted at the epoch = %+v; want %+v with DeletedAt %v", got, del, epoch)
	}
	tp := mustTemplate(t, s, w.ID, "tp", mustClothing(t, s, w.ID, "d", "").ID)
	h := mustHistory(t, s, w.ID, "20260101", tp.ID, tp.ClothingIDs...)
	if got, err := s.GetHistory(ctx(t), w.ID, h.ID); err != nil || !got.CreatedAt.Equal(epoch) || got.CreatedAt.IsZero() {
		t.Fatalf("GetHistory at the epoch = %+v, %v; want CreatedAt %v", got, err, epoch)
	}
	if got := getTemplate(t, s, w.ID, tp.ID); !got.CreatedAt.Equal(epoch) || got.CreatedAt.IsZero() {
		t.Fatalf("GetTemplate at the epoch = %+v; want CreatedAt %v", got, epoch)
	}
	p, err := s.ListClothes(ctx(t), w.ID, wardrobe.ListQuery{Status: wardrobe.StatusDeleted})
	if err != nil || len(p.Items) != 1 || p.Items[0] != del {
		t.Fatalf("ListClothes(DELETED) at the epoch = %+v, %v; want [%+v]", p.Items, err, del)
	}
}

// testDateArithmetic checks that date arithmetic reports a bad date
// instead of turning it into the zero Date, which ranges read as open.
func testDateArithmetic(t *testing.T, newStore NewStore) {
	for _, tc := range []struct {
		d    wardrobe.Date
		n    int
		want wardrobe.Date
	}{
		{"20260303", -6, "20260225"},
		{"20241231", 1, "20250101"},
		{"20240228", 1, "20240229"},
		{wardrobe.MinDate, 0, wardrobe.MinDate},
		{wardrobe.MaxDate, -1, "22861119"},
	} {
		if got, err := tc.d.AddDays(tc.n); got != tc.want || err != nil {
			t.Errorf("%s.AddDays(%d) = %q, %v; want %s", tc.d, tc.n, got, err, tc.want)
		}
	}
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "")
	mustHistory(t, s, w.ID, "20260101", "", c.ID)
	for _, tc := range []struct {
		d wardrobe.Date
		n int
	}{{"bad", -6}, {"", 1}, {"2026-01-07", 1}, {"20260230", 1}, {wardrobe.MaxDate, 1}, {wardrobe.MinDate, -1}} {
		got, err := tc.d.AddDays(tc.n)
		if !errors.Is(err, ddbkit.ErrInvalidArgument) || got != tc.d {
			t.Errorf("%q.AddDays(%d) = %q, %v; want %q and ErrInvalidArgument", tc.d, tc.n, got, err, tc.d)
		}
		if got == "" || got.Valid() {
			// The zero Date is an open end, and AddDays did not make it;
			// a valid receiver whose result is out of range is itself.
			continue
		}
		// A range built from it is refused, never read as open-ended.
		_, err = s.ListHistory(ctx(t), w.ID, wardrobe.HistoryQuery{From: got, To: "20260107"})
		wantField(t, fmt.Sprintf("ListHistory(From %q)", got), err, "From")
		_, err = s.ListDailyWear(ctx(t), w.ID, wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{To: got})
		wantField(t, fmt.Sprintf("ListDailyWear(To %q)", got), err, "To")
	}
}

// testLocation runs a store whose dates are Japan's: last worn days read
// back as the days worn, AP-17 recomputes them, and RecalculateStats finds
// nothing to repair.
func testLocation(t *testing.T, newStore NewStore) {
	jst := time.FixedZone("JST", 9*60*60)
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.Location = jst })
	w := mustWardrobe(t, s, "w")
	a := mustClothing(t, s, w.ID, "a", "")
	b := mustClothing(t, s, w.ID, "b", "")
	tp := mustTemplate(t, s, w.ID, "tp", a.ID, b.ID)
	h1 := mustHistory(t, s, w.ID, "20260104", tp.ID, a.ID, b.ID)
	h2 := mustHistory(t, s, w.ID, "20260105", "", a.ID)
	mustHistory(t, s, w.ID, "20260103", "", b.ID)
	wantClothingStats(t, s, w.ID, a.ID, 2, "20260105")
	wantClothingStats(t, s, w.ID, b.ID, 2, "20260104")
	wantTemplateStats(t, s, w.ID, tp.ID, 1, "20260104")
	checkWalk(t, "ListClothes by LASTWORN, descending", []string{a.ID, b.ID}, clothingID,
		clothesFetch(t, s, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderLastWornAt, Descending: true}), 1, 0)
	if rep, err := s.RecalculateStats(ctx(t), w.ID); err != nil || rep.Checked != 3 || len(rep.Drifts) != 0 {
		t.Fatalf("RecalculateStats = %+v, %v; want 3 checked, no drift", rep, err)
	}
	// The latest day of a loses its wear: the day before, in Japan.
	mustDeleteHistory(t, s, w.ID, h2.ID)
	wantClothingStats(t, s, w.ID, a.ID, 1, "20260104")
	mustDeleteHistory(t, s, w.ID, h1.ID)
	wantClothingStats(t, s, w.ID, a.ID, 0, never)
	wantClothingStats(t, s, w.ID, b.ID, 1, "20260103")
	wantTemplateStats(t, s, w.ID, tp.ID, 0, never)
	if rep, err := s.RecalculateStats(ctx(t), w.ID); err != nil || len(rep.Drifts) != 0 {
		t.Fatalf("RecalculateStats after the deletes = %+v, %v; want no drift", rep, err)
	}
}
