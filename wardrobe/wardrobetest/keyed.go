package wardrobetest

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// wantReused checks that err is a reused idempotency key:
// ErrIdempotencyKeyReused, which matches ErrConflict as its one sentinel.
func wantReused(t *testing.T, what string, err error) {
	t.Helper()
	wantErr(t, what, err, ddbkit.ErrConflict)
	if !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) {
		t.Fatalf("%s: got error %v, want ErrIdempotencyKeyReused", what, err)
	}
}

// counted returns a store of fixed's kind whose ID generator counts the
// IDs it makes: a replay makes none.
func counted(t *testing.T, newStore NewStore) (wardrobe.Store, *atomic.Int64) {
	var n atomic.Int64
	ids := ddbkit.SeededUUIDv7s(3, ddbkit.StepClock(Start, time.Millisecond))
	s := fixed(t, newStore, func(o *wardrobe.Options) {
		o.NewID = func() string { n.Add(1); return ids() }
	})
	return s, &n
}

// testKeyedCreates repeats each create under its idempotency key: the
// repeat returns the first call's item, with its ID, makes no ID and
// writes nothing; other input under the key is ErrIdempotencyKeyReused and
// writes nothing either.
func testKeyedCreates(t *testing.T, newStore NewStore) {
	s, made := counted(t, newStore)
	key := func(k string) context.Context { return ddbkit.WithIdempotencyKey(ctx(t), k) }
	// replayed checks a repeat's result and that it made no ID.
	replayed := func(what string, first, again any, err error, idsBefore int64) {
		t.Helper()
		if err != nil || !reflect.DeepEqual(again, first) {
			t.Fatalf("%s repeated with its key = %+v, %v; want the first call's %+v", what, again, err, first)
		}
		if n := made.Load() - idsBefore; n != 0 {
			t.Fatalf("%s repeated with its key made %d IDs, want a replay", what, n)
		}
	}

	w, err := s.CreateWardrobe(key("w"), wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatalf("CreateWardrobe: %v", err)
	}
	n := made.Load()
	again, err := s.CreateWardrobe(key("w"), wardrobe.NewWardrobe{Name: "w"})
	replayed("CreateWardrobe", w, again, err, n)
	if got, err := s.GetWardrobe(ctx(t), w.ID); err != nil || got != w {
		t.Fatalf("GetWardrobe = %+v, %v; want %+v", got, err, w)
	}
	_, err = s.CreateWardrobe(key("w"), wardrobe.NewWardrobe{Name: "other"})
	wantReused(t, "CreateWardrobe with a used key and another name", err)
	if made.Load() != n {
		t.Fatalf("a refused CreateWardrobe made an ID")
	}

	c, err := s.AddClothing(key("c"), w.ID, wardrobe.NewClothing{Name: "c", ImageKey: "c.png"})
	if err != nil {
		t.Fatalf("AddClothing: %v", err)
	}
	n = made.Load()
	againC, err := s.AddClothing(key("c"), w.ID, wardrobe.NewClothing{Name: "c", ImageKey: "c.png"})
	replayed("AddClothing", c, againC, err, n)
	before := snapshot(t, s, w.ID)
	_, err = s.AddClothing(key("c"), w.ID, wardrobe.NewClothing{Name: "c", ImageKey: "other.png"})
	wantReused(t, "AddClothing with a used key and another image", err)
	if snapshot(t, s, w.ID) != before {
		t.Fatalf("a refused AddClothing wrote")
	}
	if all, _ := walk(t, "ListClothes", 0, clothesFetch(t, s, w.ID, wardrobe.ListQuery{})); len(all) != 1 || all[0] != c {
		t.Fatalf("clothes after a repeated AddClothing = %+v, want only %+v", all, c)
	}

	tp, err := s.AddTemplate(key("tp"), w.ID, wardrobe.NewTemplate{Name: "tp", ClothingIDs: []string{c.ID}})
	if err != nil {
		t.Fatalf("AddTemplate: %v", err)
	}
	n = made.Load()
	againT, err := s.AddTemplate(key("tp"), w.ID, wardrobe.NewTemplate{Name: "tp", ClothingIDs: []string{c.ID}})
	replayed("AddTemplate", tp, againT, err, n)
	before = snapshot(t, s, w.ID)
	_, err = s.AddTemplate(key("tp"), w.ID, wardrobe.NewTemplate{Name: "other", ClothingIDs: []string{c.ID}})
	wantReused(t, "AddTemplate with a used key and another name", err)
	if snapshot(t, s, w.ID) != before {
		t.Fatalf("a refused AddTemplate wrote")
	}
	if all, _ := walk(t, "ListTemplates", 0, templatesFetch(t, s, w.ID, wardrobe.ListQuery{})); len(all) != 1 || all[0].ID != tp.ID {
		t.Fatalf("templates after a repeated AddTemplate = %+v, want only %s", all, tp.ID)
	}

	// AddHistory counts: its repeat returns the first history and counts
	// the wear once, on the template, the clothing and their counters.
	in := wardrobe.NewHistory{Date: "20260105", TemplateID: tp.ID, ClothingIDs: []string{c.ID}}
	h, err := s.AddHistory(key("h"), w.ID, in)
	if err != nil {
		t.Fatalf("AddHistory: %v", err)
	}
	n = made.Load()
	againH, err := s.AddHistory(key("h"), w.ID, in)
	replayed("AddHistory", h, againH, err, n)
	if hs := allHistory(t, s, w.ID); len(hs) != 1 || !reflect.DeepEqual(hs[0].History, h) {
		t.Fatalf("histories after a repeated AddHistory = %+v, want only %+v", hs, h)
	}
	wantClothingStats(t, s, w.ID, c.ID, 1, "20260105")
	wantTemplateStats(t, s, w.ID, tp.ID, 1, "20260105")
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID, dw("20260105", 1))
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp.ID, dw("20260105", 1))
	before = snapshot(t, s, w.ID)
	_, err = s.AddHistory(key("h"), w.ID, wardrobe.NewHistory{Date: "20260106", ClothingIDs: []string{c.ID}})
	wantReused(t, "AddHistory with a used key and another date", err)
	if snapshot(t, s, w.ID) != before {
		t.Fatalf("a refused AddHistory wrote")
	}

	// A history deleted since: the replay finds it gone.
	mustDeleteHistory(t, s, w.ID, h.ID)
	_, err = s.AddHistory(key("h"), w.ID, in)
	wantErr(t, "AddHistory repeated with its key after its history was deleted", err, ddbkit.ErrNotFound)
	wantClothingStats(t, s, w.ID, c.ID, 0, never)
}

// testKeyedDeleteHistory repeats DeleteHistory, which takes a wear back,
// under its key: the repeat succeeds as the first call did and takes
// nothing back again, while without the key it finds the history gone;
// another history under the key is ErrIdempotencyKeyReused.
func testKeyedDeleteHistory(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	key := ddbkit.WithIdempotencyKey(ctx(t), "delete")
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "")
	h1 := mustHistory(t, s, w.ID, "20260105", "", c.ID)
	h2 := mustHistory(t, s, w.ID, "20260105", "", c.ID)
	if err := s.DeleteHistory(key, w.ID, h1.ID); err != nil {
		t.Fatalf("DeleteHistory: %v", err)
	}
	for range 2 {
		if err := s.DeleteHistory(key, w.ID, h1.ID); err != nil {
			t.Fatalf("DeleteHistory repeated with its key: %v, want the first call's success", err)
		}
	}
	wantClothingStats(t, s, w.ID, c.ID, 1, "20260105")
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID, dw("20260105", 1))
	wantErr(t, "DeleteHistory repeated without a key", s.DeleteHistory(ctx(t), w.ID, h1.ID), ddbkit.ErrNotFound)
	before := snapshot(t, s, w.ID)
	wantReused(t, "DeleteHistory with a used key and another history", s.DeleteHistory(key, w.ID, h2.ID))
	if snapshot(t, s, w.ID) != before {
		t.Fatalf("a refused DeleteHistory wrote")
	}
	// A DeleteHistory that failed wrote no record: its repeat fails alike.
	missing := ddbkit.WithIdempotencyKey(ctx(t), "missing")
	for range 2 {
		wantErr(t, "DeleteHistory of no history under a key", s.DeleteHistory(missing, w.ID, "nothing"), ddbkit.ErrNotFound)
	}
}

// testKeyedRepeatSafe repeats, under their keys, the writes whose repeat
// is safe by itself: each repeat returns what the same call without a key
// returns, and other input under the key is ErrIdempotencyKeyReused.
func testKeyedRepeatSafe(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	key := func(k string) context.Context { return ddbkit.WithIdempotencyKey(ctx(t), k) }
	w := mustWardrobe(t, s, "w")
	cs := mustClothes(t, s, w.ID, 3)
	tp := mustTemplate(t, s, w.ID, "tp", ids(cs, 0)...)
	mustHistory(t, s, w.ID, "20260105", tp.ID, ids(cs, 0)...)

	// same calls fn under k twice and without a key once: the three
	// results are equal.
	same := func(what, k string, fn func(ctx context.Context) (any, error)) any {
		t.Helper()
		first, err := fn(key(k))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		again, err := fn(key(k))
		if err != nil || !reflect.DeepEqual(again, first) {
			t.Fatalf("%s repeated with its key = %+v, %v; want %+v", what, again, err, first)
		}
		plain, err := fn(ctx(t))
		if err != nil || !reflect.DeepEqual(plain, first) {
			t.Fatalf("%s without a key = %+v, %v; want %+v, as under the key", what, plain, err, first)
		}
		return first
	}
	patch := wardrobe.ClothingPatch{Name: ptr("renamed")}
	same("UpdateClothing", "update-c", func(ctx context.Context) (any, error) { return s.UpdateClothing(ctx, w.ID, cs[0].ID, patch) })
	_, err := s.UpdateClothing(key("update-c"), w.ID, cs[0].ID, wardrobe.ClothingPatch{Name: ptr("other")})
	wantReused(t, "UpdateClothing with a used key and another patch", err)

	del := same("DeleteClothing", "delete-c", func(ctx context.Context) (any, error) { return s.DeleteClothing(ctx, w.ID, cs[1].ID) })
	if d := del.(wardrobe.Clothing); d.Status != wardrobe.StatusDeleted || d.DeletedAt.IsZero() {
		t.Fatalf("DeleteClothing = %+v, want it DELETED with its deletedAt", d)
	}
	_, err = s.DeleteClothing(key("delete-c"), w.ID, cs[2].ID)
	wantReused(t, "DeleteClothing with a used key and another clothing", err)
	same("RestoreClothing", "restore-c", func(ctx context.Context) (any, error) { return s.RestoreClothing(ctx, w.ID, cs[1].ID) })

	same("UpdateTemplate (name)", "update-t", func(ctx context.Context) (any, error) {
		return s.UpdateTemplate(ctx, w.ID, tp.ID, wardrobe.TemplatePatch{Name: ptr("renamed")})
	})
	same("UpdateTemplate (clothes)", "update-t-list", func(ctx context.Context) (any, error) {
		return s.UpdateTemplate(ctx, w.ID, tp.ID, wardrobe.TemplatePatch{ClothingIDs: ids(cs, 1, 0)})
	})
	_, err = s.UpdateTemplate(key("update-t-list"), w.ID, tp.ID, wardrobe.TemplatePatch{ClothingIDs: ids(cs, 0)})
	wantReused(t, "UpdateTemplate with a used key and other clothes", err)
	same("DeleteTemplate", "delete-t", func(ctx context.Context) (any, error) { return s.DeleteTemplate(ctx, w.ID, tp.ID) })
	same("RestoreTemplate", "restore-t", func(ctx context.Context) (any, error) { return s.RestoreTemplate(ctx, w.ID, tp.ID) })

	rep := same("RecalculateStats", "recalc", func(ctx context.Context) (any, error) { return s.RecalculateStats(ctx, w.ID) })
	if r := rep.(wardrobe.StatsReport); r.Checked != 4 || len(r.Drifts) != 0 {
		t.Fatalf("RecalculateStats = %+v, want 4 checked and no drift", r)
	}
	other := mustWardrobe(t, s, "other")
	_, err = s.RecalculateStats(key("recalc"), other.ID)
	if err != nil {
		t.Fatalf("RecalculateStats of another wardrobe under a used key: %v, want success (the key is scoped to the wardrobe)", err)
	}
	wantClothingStats(t, s, w.ID, cs[0].ID, 1, "20260105")
}
