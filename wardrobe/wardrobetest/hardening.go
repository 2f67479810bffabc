package wardrobetest

import (
	"strings"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// testIdenticalCreateIsAnothers creates items identical, attribute for
// attribute, to stored ones (an ID generator that repeats and a clock that
// stands still), as another caller would: each is ErrAlreadyExists, never
// taken for the caller's own earlier write, and nothing changes. Under the
// same idempotency key, the identical request is the caller's own repeat,
// which succeeds without writing, as DynamoDB answers it.
func testIdenticalCreateIsAnothers(t *testing.T, newStore NewStore) {
	s := newStore(t, func(o *wardrobe.Options) {
		o.Clock = func() time.Time { return Start }
		o.NewID = func() string { return "same-id" }
	})
	w := mustWardrobe(t, s, "w")
	_, err := s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: "w"})
	wantErr(t, "CreateWardrobe identical to a stored one", err, ddbkit.ErrAlreadyExists)
	c := mustClothing(t, s, w.ID, "c", "c.png")
	_, err = s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: "c", ImageKey: "c.png"})
	wantErr(t, "AddClothing identical to a stored one", err, ddbkit.ErrAlreadyExists)
	tp := mustTemplate(t, s, w.ID, "tp", c.ID)
	_, err = s.AddTemplate(ctx(t), w.ID, wardrobe.NewTemplate{Name: "tp", ClothingIDs: []string{c.ID}})
	wantErr(t, "AddTemplate identical to a stored one", err, ddbkit.ErrAlreadyExists)
	before := snapshot(t, s, w.ID)

	// Another caller's key is no better than none.
	other := ddbkit.WithIdempotencyKey(ctx(t), "someone else's key")
	_, err = s.AddClothing(other, w.ID, wardrobe.NewClothing{Name: "c", ImageKey: "c.png"})
	wantErr(t, "AddClothing identical to a stored one, under another key", err, ddbkit.ErrAlreadyExists)
	if got := snapshot(t, s, w.ID); got != before {
		t.Fatalf("refused identical creates changed the store:\n%s\nwant\n%s", got, before)
	}
	if got := getTemplate(t, s, w.ID, tp.ID); got.Name != "tp" {
		t.Fatalf("template = %+v", got)
	}

	// The caller's own repeat: the same key, the same writes.
	s2 := newStore(t, func(o *wardrobe.Options) {
		o.Clock = func() time.Time { return Start }
		o.NewID = func() string { return "same-id" }
	})
	key := ddbkit.WithIdempotencyKey(ctx(t), "create-1")
	w2, err := s2.CreateWardrobe(key, wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatalf("CreateWardrobe under a key: %v", err)
	}
	again, err := s2.CreateWardrobe(key, wardrobe.NewWardrobe{Name: "w"})
	if err != nil || again != w2 {
		t.Fatalf("CreateWardrobe repeated with its key and the same writes = %+v, %v; want %+v", again, err, w2)
	}
	c2, err := s2.AddClothing(key, w2.ID, wardrobe.NewClothing{Name: "c"})
	if err != nil {
		t.Fatalf("AddClothing under a key: %v", err)
	}
	if again, err := s2.AddClothing(key, w2.ID, wardrobe.NewClothing{Name: "c"}); err != nil || again != c2 {
		t.Fatalf("AddClothing repeated with its key and the same writes = %+v, %v; want %+v", again, err, c2)
	}
	if all, _ := walk(t, "ListClothes", 0, clothesFetch(t, s2, w2.ID, wardrobe.ListQuery{})); len(all) != 1 {
		t.Fatalf("after AddClothing repeated with its key: %d clothes, want 1", len(all))
	}
}

// testIdempotencyKeyScoped uses one idempotency key on two wardrobes, and
// on two tables for the same wardrobe (two stores with the same IDs): the
// writes are unrelated requests and all succeed.
func testIdempotencyKeyScoped(t *testing.T, newStore NewStore) {
	key := ddbkit.WithIdempotencyKey(ctx(t), "the same key")
	table := func(name string) func(*wardrobe.Options) {
		return func(o *wardrobe.Options) { o.TableName = name }
	}
	a := fixed(t, newStore, table("WardrobeA"))
	b := fixed(t, newStore, table("WardrobeB"))
	var hs []wardrobe.History
	for i, s := range []wardrobe.Store{a, b} {
		// Same ID generator and clock: the same wardrobe ID in both
		// tables, so only the table tells the requests apart.
		w, err := s.CreateWardrobe(key, wardrobe.NewWardrobe{Name: "w"})
		if err != nil {
			t.Fatalf("store %d: CreateWardrobe under a key another table used: %v", i, err)
		}
		w2 := mustWardrobe(t, s, "second")
		for _, wid := range []string{w.ID, w2.ID} {
			c, err := s.AddClothing(key, wid, wardrobe.NewClothing{Name: "c"})
			if err != nil {
				t.Fatalf("store %d: AddClothing under a key used on another wardrobe or table: %v", i, err)
			}
			tp, err := s.AddTemplate(key, wid, wardrobe.NewTemplate{Name: "tp", ClothingIDs: []string{c.ID}})
			if err != nil {
				t.Fatalf("store %d: AddTemplate under a key used on another wardrobe or table: %v", i, err)
			}
			if _, err := s.UpdateTemplate(key, wid, tp.ID, wardrobe.TemplatePatch{ClothingIDs: []string{c.ID}}); err != nil {
				t.Fatalf("store %d: UpdateTemplate under a key used on another wardrobe or table: %v", i, err)
			}
			h, err := s.AddHistory(key, wid, wardrobe.NewHistory{Date: "20260105", ClothingIDs: []string{c.ID}})
			if err != nil {
				t.Fatalf("store %d: AddHistory under a key used on another wardrobe or table: %v", i, err)
			}
			wantClothingStats(t, s, wid, c.ID, 1, day(t, "20260105"))
			hs = append(hs, h)
			if err := s.DeleteHistory(key, wid, h.ID); err != nil {
				t.Fatalf("store %d: DeleteHistory under a key used on another wardrobe or table: %v", i, err)
			}
			wantClothingStats(t, s, wid, c.ID, 0, never)
		}
	}
	if hs[0].ID != hs[2].ID {
		t.Fatalf("the two stores made histories %s and %s; the test needs the same IDs in both tables", hs[0].ID, hs[2].ID)
	}
}

// testCursorSecretTooShort configures a CursorSecret of 15 bytes: every
// listing fails with ErrInvalidArgument naming CursorSecret, rather than
// sign cursors with a key that can be brute-forced.
func testCursorSecretTooShort(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.CursorSecret = []byte("fifteen bytes!!") })
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "")
	mustHistory(t, s, w.ID, "20260105", "", c.ID)
	e := func(_ any, err error) error { return err }
	for _, call := range []struct {
		name string
		err  error
	}{
		{"ListClothes", e(s.ListClothes(ctx(t), w.ID, wardrobe.ListQuery{}))},
		{"ListTemplates", e(s.ListTemplates(ctx(t), w.ID, wardrobe.ListQuery{}))},
		{"ListHistory", e(s.ListHistory(ctx(t), w.ID, wardrobe.HistoryQuery{}))},
		{"ListDailyWear", e(s.ListDailyWear(ctx(t), w.ID, wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{}))},
	} {
		wantErr(t, call.name+" with a 15-byte CursorSecret", call.err, ddbkit.ErrInvalidArgument)
		wantField(t, call.name+" with a 15-byte CursorSecret", call.err, "CursorSecret")
	}
}

// testFarDates refuses dates beyond what the seed's yyyymmdd and the
// LASTWORN# key can hold (year 10000, and days past MaxDate) on every
// write and listing that takes one, naming the field, and writes nothing.
func testFarDates(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "")
	before := snapshot(t, s, w.ID)
	for _, d := range []wardrobe.Date{"100000101", "99991231", "22861121", "00010101", "19700101"} {
		_, err := s.AddHistory(ctx(t), w.ID, wardrobe.NewHistory{Date: d, ClothingIDs: []string{c.ID}})
		wantField(t, "AddHistory on "+string(d), err, "Date")
		_, err = s.ListHistory(ctx(t), w.ID, wardrobe.HistoryQuery{From: d})
		wantField(t, "ListHistory from "+string(d), err, "From")
		_, err = s.ListDailyWear(ctx(t), w.ID, wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{To: d})
		wantField(t, "ListDailyWear to "+string(d), err, "To")
	}
	if got := snapshot(t, s, w.ID); got != before {
		t.Fatalf("refused far dates changed the store:\n%s\nwant\n%s", got, before)
	}
}

// testClockOutOfRange runs a store whose clock stands in year 10000: a
// create, which would stamp a time no reader parses back, is refused with
// ErrInvalidArgument naming Clock, and nothing is written.
func testClockOutOfRange(t *testing.T, newStore NewStore) {
	clock := &manualClock{now: Start}
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.Clock = clock.Now })
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "")
	before := snapshot(t, s, w.ID)
	clock.Set(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
	_, err := s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: "w"})
	wantField(t, "CreateWardrobe in year 10000", err, "Clock")
	_, err = s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: "c"})
	wantField(t, "AddClothing in year 10000", err, "Clock")
	_, err = s.AddTemplate(ctx(t), w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: []string{c.ID}})
	wantField(t, "AddTemplate in year 10000", err, "Clock")
	_, err = s.AddHistory(ctx(t), w.ID, wardrobe.NewHistory{Date: "20260105", ClothingIDs: []string{c.ID}})
	wantField(t, "AddHistory in year 10000", err, "Clock")
	if got := snapshot(t, s, w.ID); got != before {
		t.Fatalf("refused writes changed the store:\n%s\nwant\n%s", got, before)
	}
}

// testLargestItems writes the largest items valid input can make (every
// field at its limit, in 3-byte characters; 20 clothes of 128-character
// IDs): far below DynamoDB's 400 KB, so both stores accept them and read
// them back whole. (No input that passes the field checks can make an
// item over 400 KB; the size check that guards every write, shared by
// both stores, is tested on its own in the package.)
func testLargestItems(t *testing.T, newStore NewStore) {
	n := 0
	s := fixed(t, newStore, func(o *wardrobe.Options) {
		o.NewID = func() string {
			n++
			return strings.Repeat("あ", wardrobe.MaxIDLen-3) + string(rune('a'+n/26)) + string(rune('a'+n%26)) + "x"
		}
	})
	w := mustWardrobe(t, s, long(wardrobe.MaxNameLen))
	cs := make([]string, wardrobe.MaxClothes)
	for i := range cs {
		c := mustClothing(t, s, w.ID, long(wardrobe.MaxNameLen), long(wardrobe.MaxImageKeyLen))
		if got := getClothing(t, s, w.ID, c.ID); got != c {
			t.Fatalf("GetClothing = %+v, want %+v", got, c)
		}
		cs[i] = c.ID
	}
	tp := mustTemplate(t, s, w.ID, long(wardrobe.MaxNameLen), cs...)
	h := mustHistory(t, s, w.ID, "20260105", tp.ID, cs...)
	d, err := s.GetHistory(ctx(t), w.ID, h.ID)
	if err != nil || len(d.Clothes) != wardrobe.MaxClothes {
		t.Fatalf("GetHistory = %+v, %v", d, err)
	}
}

// testFilterBudgetWalk deletes the latest wear of clothes worn on many
// days with a FilterBudget of 1 and of 2, so that AP-17's filtered lookup
// of the day before ends its pages early and walks on: the recomputed last
// worn day is the same as with the default budget.
func testFilterBudgetWalk(t *testing.T, newStore NewStore) {
	for _, budget := range []int{1, 2, 0} {
		s := fixed(t, newStore, func(o *wardrobe.Options) { o.FilterBudget = budget })
		w := mustWardrobe(t, s, "w")
		c := mustClothing(t, s, w.ID, "c", "")
		var hs []wardrobe.History
		for _, d := range []wardrobe.Date{"20260101", "20260102", "20260104", "20260107"} {
			hs = append(hs, mustHistory(t, s, w.ID, d, "", c.ID))
		}
		for i := len(hs) - 1; i > 0; i-- {
			mustDeleteHistory(t, s, w.ID, hs[i].ID)
			wantClothingStats(t, s, w.ID, c.ID, i, hs[i-1].Date)
		}
		mustDeleteHistory(t, s, w.ID, hs[0].ID)
		wantClothingStats(t, s, w.ID, c.ID, 0, never)
	}
}
