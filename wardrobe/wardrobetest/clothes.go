package wardrobetest

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/wardrobe"
)

func testWardrobe(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w, err := s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: "わたしのクローゼット"})
	if err != nil {
		t.Fatalf("CreateWardrobe: %v", err)
	}
	if w.ID == "" || w.Name != "わたしのクローゼット" || !w.CreatedAt.Equal(Start) || w.CreatedAt.Location() != time.UTC {
		t.Fatalf("CreateWardrobe = %+v; want an ID, the name, CreatedAt %v in UTC", w, Start)
	}
	got, err := s.GetWardrobe(ctx(t), w.ID)
	if err != nil || got != w {
		t.Fatalf("GetWardrobe = %+v, %v; want %+v", got, err, w)
	}
	_, err = s.GetWardrobe(ctx(t), "no-such-wardrobe")
	wantErr(t, "GetWardrobe(unknown)", err, ddbkit.ErrNotFound)

	// Names are counted in characters, not bytes.
	w40, err := s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: long(40)})
	if err != nil || w40.Name != long(40) {
		t.Fatalf("CreateWardrobe(40 characters) = %+v, %v", w40, err)
	}
	if got, err := s.GetWardrobe(ctx(t), w40.ID); err != nil || got != w40 {
		t.Fatalf("GetWardrobe(40 characters) = %+v, %v; want %+v", got, err, w40)
	}
	for _, tc := range []struct{ name, in string }{
		{"41 characters", long(41)},
		{"empty", ""},
		{"blank", " \t\u3000"},
		{"invalid UTF-8", "\xff"},
	} {
		_, err := s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: tc.in})
		wantField(t, "CreateWardrobe("+tc.name+")", err, "Name")
	}
	for _, id := range []string{"a#b", "", "a b", strings.Repeat("x", wardrobe.MaxIDLen+1)} {
		_, err := s.GetWardrobe(ctx(t), id)
		wantField(t, fmt.Sprintf("GetWardrobe(%q)", id), err, "WardrobeID")
	}
	// An ID of MaxIDLen characters is fine (and unknown).
	_, err = s.GetWardrobe(ctx(t), strings.Repeat("x", wardrobe.MaxIDLen))
	wantErr(t, "GetWardrobe(128 characters)", err, ddbkit.ErrNotFound)
}

func testDefaultIDs(t *testing.T, newStore NewStore) {
	s := newStore(t) // default ID generator and clock
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "")
	tp := mustTemplate(t, s, w.ID, "t", c.ID)
	h := mustHistory(t, s, w.ID, "20260101", tp.ID, c.ID)
	for what, id := range map[string]string{"wardrobe": w.ID, "clothing": c.ID, "template": tp.ID, "history": h.ID} {
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 7 || u.String() != id {
			t.Fatalf("%s ID %q: want a canonical UUIDv7 (parse error %v)", what, id, err)
		}
	}
	// The default clock's times are UTC, at the millisecond precision of
	// the stored Unix ms, so what a create returns equals what a read gives.
	for what, ct := range map[string]time.Time{"wardrobe": w.CreatedAt, "clothing": c.CreatedAt, "template": tp.CreatedAt, "history": h.CreatedAt} {
		if ct.IsZero() || ct.Location() != time.UTC || ct.Nanosecond()%int(time.Millisecond) != 0 || time.Since(ct) > time.Hour {
			t.Fatalf("%s CreatedAt %v: want now, in UTC, whole milliseconds", what, ct)
		}
	}
	if got, err := s.GetWardrobe(ctx(t), w.ID); err != nil || got != w {
		t.Fatalf("GetWardrobe = %+v, %v; want %+v", got, err, w)
	}
	if got := getClothing(t, s, w.ID, c.ID); got.CreatedAt != c.CreatedAt {
		t.Fatalf("GetClothing CreatedAt %v, want %v", got.CreatedAt, c.CreatedAt)
	}
	if got := getTemplate(t, s, w.ID, tp.ID); got.CreatedAt != tp.CreatedAt {
		t.Fatalf("GetTemplate CreatedAt %v, want %v", got.CreatedAt, tp.CreatedAt)
	}
	if got, err := s.GetHistory(ctx(t), w.ID, h.ID); err != nil || !reflect.DeepEqual(got.History, h) {
		t.Fatalf("GetHistory(%q) = %+v, %v; want %+v", h.ID, got.History, err, h)
	}
	// Deleting stamps DeletedAt the same way.
	del := mustDeleteClothing(t, s, w.ID, c.ID)
	if got := getClothing(t, s, w.ID, c.ID); got != del || del.DeletedAt.IsZero() || del.DeletedAt.Location() != time.UTC {
		t.Fatalf("GetClothing after delete = %+v, DeleteClothing returned %+v; want equal, DeletedAt set in UTC", got, del)
	}
}

// testDefaultIDsFollowClock holds the default ID generator to
// Options.Clock: under a clock far from now, every ID's UUIDv7 millisecond
// is its item's createdAt, as the seed's time-ordered IDs mean.
func testDefaultIDsFollowClock(t *testing.T, newStore NewStore) {
	// A clock that stands still, so that the ID and createdAt, which the
	// store reads from it one after the other, get the same instant.
	ahead := time.Date(2199, 3, 4, 5, 6, 7, 891_000_000, time.UTC)
	clock := &manualClock{now: ahead}
	s := newStore(t, func(o *wardrobe.Options) { o.Clock = clock.Now })
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "")
	tp := mustTemplate(t, s, w.ID, "t", c.ID)
	h := mustHistory(t, s, w.ID, "20260101", tp.ID, c.ID)
	for _, tc := range []struct {
		what      string
		id        string
		createdAt time.Time
	}{
		{"wardrobe", w.ID, w.CreatedAt},
		{"clothing", c.ID, c.CreatedAt},
		{"template", tp.ID, tp.CreatedAt},
		{"history", h.ID, h.CreatedAt},
	} {
		u, err := uuid.Parse(tc.id)
		if err != nil || u.Version() != 7 {
			t.Fatalf("%s ID %q: want a UUIDv7 (parse error %v)", tc.what, tc.id, err)
		}
		sec, nsec := u.Time().UnixTime()
		if got, want := sec*1000+nsec/int64(time.Millisecond), tc.createdAt.UnixMilli(); got != want || !tc.createdAt.Equal(ahead) {
			t.Errorf("%s ID %q holds ms %d, createdAt %v is ms %d; want the same millisecond, from the clock", tc.what, tc.id, got, tc.createdAt, want)
		}
	}
}

func testRepeatedID(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.NewID = func() string { return "same-id" } })
	w := mustWardrobe(t, s, "first")
	_, err := s.CreateWardrobe(ctx(t), wardrobe.NewWardrobe{Name: "second"})
	wantErr(t, "CreateWardrobe with a repeated ID", err, ddbkit.ErrAlreadyExists)
	if got, _ := s.GetWardrobe(ctx(t), w.ID); got != w {
		t.Fatalf("a refused CreateWardrobe overwrote the wardrobe: %+v, want %+v", got, w)
	}

	c := mustClothing(t, s, w.ID, "first", "first.png")
	_, err = s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: "second"})
	wantErr(t, "AddClothing with a repeated ID", err, ddbkit.ErrAlreadyExists)
	if got := getClothing(t, s, w.ID, c.ID); got != c {
		t.Fatalf("a refused AddClothing overwrote the clothing: %+v, want %+v", got, c)
	}

	tp := mustTemplate(t, s, w.ID, "first", c.ID)
	_, err = s.AddTemplate(ctx(t), w.ID, wardrobe.NewTemplate{Name: "second", ClothingIDs: []string{c.ID}})
	wantErr(t, "AddTemplate with a repeated ID", err, ddbkit.ErrAlreadyExists)
	if got := getTemplate(t, s, w.ID, tp.ID); got.Name != "first" {
		t.Fatalf("a refused AddTemplate overwrote the template: %+v", got)
	}

	h := mustHistory(t, s, w.ID, "20260102", tp.ID, c.ID)
	_, err = s.AddHistory(ctx(t), w.ID, wardrobe.NewHistory{Date: "20260105", TemplateID: tp.ID, ClothingIDs: []string{c.ID}})
	wantErr(t, "AddHistory with a repeated ID", err, ddbkit.ErrAlreadyExists)
	// Nothing of the refused history was written: not the history, not its
	// wear.
	d, err := s.GetHistory(ctx(t), w.ID, h.ID)
	if err != nil || d.Date != "20260102" {
		t.Fatalf("GetHistory after a refused AddHistory = %+v, %v; want the first history", d, err)
	}
	wantClothingStats(t, s, w.ID, c.ID, 1, day(t, "20260102"))
	wantTemplateStats(t, s, w.ID, tp.ID, 1, day(t, "20260102"))
	wantDaily(t, s, w.ID, wardrobe.KindClothing, c.ID, dw("20260102", 1))
	wantDaily(t, s, w.ID, wardrobe.KindTemplate, tp.ID, dw("20260102", 1))
	if hs := allHistory(t, s, w.ID); len(hs) != 1 {
		t.Fatalf("ListHistory: %d histories, want 1", len(hs))
	}
}

func testAddClothing(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w") // Start
	c, err := s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: "白いシャツ", ImageKey: "img/shirt.png"})
	if err != nil {
		t.Fatalf("AddClothing: %v", err)
	}
	want := wardrobe.Clothing{ID: c.ID, WardrobeID: w.ID, Name: "白いシャツ", Status: wardrobe.StatusActive,
		ImageKey: "img/shirt.png", CreatedAt: Start.Add(time.Millisecond)}
	if c.ID == "" || c != want {
		t.Fatalf("AddClothing = %+v, want %+v", c, want)
	}
	if got := getClothing(t, s, w.ID, c.ID); got != c {
		t.Fatalf("GetClothing = %+v, want %+v", got, c)
	}
	noImage := mustClothing(t, s, w.ID, "黒いパンツ", "")
	if noImage.ImageKey != "" {
		t.Fatalf("clothing without image: ImageKey %q", noImage.ImageKey)
	}
	if got := getClothing(t, s, w.ID, noImage.ID); got != noImage {
		t.Fatalf("GetClothing = %+v, want %+v", got, noImage)
	}
	// Limits count characters.
	c40 := mustClothing(t, s, w.ID, long(40), strings.Repeat("鍵", wardrobe.MaxImageKeyLen))
	if got := getClothing(t, s, w.ID, c40.ID); got != c40 {
		t.Fatalf("GetClothing(40-character name) = %+v, want %+v", got, c40)
	}
	_, err = s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: long(41)})
	wantField(t, "AddClothing(41 characters)", err, "Name")
	_, err = s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: "  "})
	wantField(t, "AddClothing(blank)", err, "Name")
	_, err = s.AddClothing(ctx(t), w.ID, wardrobe.NewClothing{Name: "x", ImageKey: strings.Repeat("k", wardrobe.MaxImageKeyLen+1)})
	wantField(t, "AddClothing(long image key)", err, "ImageKey")

	_, err = s.GetClothing(ctx(t), w.ID, "no-such-clothing")
	wantErr(t, "GetClothing(unknown)", err, ddbkit.ErrNotFound)
	_, err = s.GetClothing(ctx(t), w.ID, "a#b")
	wantField(t, "GetClothing(#)", err, "ClothingID")
	_, err = s.GetClothing(ctx(t), "a#b", c.ID)
	wantField(t, "GetClothing(# in wardrobe)", err, "WardrobeID")

	other := mustWardrobe(t, s, "other")
	_, err = s.GetClothing(ctx(t), other.ID, c.ID)
	wantErr(t, "GetClothing(another wardrobe's clothing)", err, ddbkit.ErrNotFound)

	_, err = s.AddClothing(ctx(t), "no-such-wardrobe", wardrobe.NewClothing{Name: "x"})
	wantErr(t, "AddClothing(unknown wardrobe)", err, ddbkit.ErrNotFound)
	_, err = s.AddClothing(ctx(t), "a#b", wardrobe.NewClothing{Name: "x"})
	wantField(t, "AddClothing(# in wardrobe)", err, "WardrobeID")
	for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
		p, err := s.ListClothes(ctx(t), "no-such-wardrobe", wardrobe.ListQuery{Status: st})
		if err != nil || len(p.Items) != 0 || p.Next != "" {
			t.Fatalf("ListClothes(unknown wardrobe, %s) = %+v, %v; want an empty last page", st, p, err)
		}
	}
	// The refused adds wrote nothing.
	cs, _ := walk(t, "ListClothes", 0, clothesFetch(t, s, w.ID, wardrobe.ListQuery{}))
	if want := []wardrobe.Clothing{c, noImage, c40}; !slices.Equal(cs, want) {
		t.Fatalf("ListClothes = %+v, want %+v", cs, want)
	}
	if p, _ := s.ListClothes(ctx(t), other.ID, wardrobe.ListQuery{}); len(p.Items) != 0 {
		t.Fatalf("ListClothes(other wardrobe) = %+v, want none", p.Items)
	}
}

func testUpdateClothing(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "old", "old.png")
	mustHistory(t, s, w.ID, "20260103", "", c.ID)
	c = getClothing(t, s, w.ID, c.ID)

	got, err := s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{Name: ptr("新しい名前")})
	want := c
	want.Name = "新しい名前"
	if err != nil || got != want {
		t.Fatalf("UpdateClothing(name) = %+v, %v; want %+v", got, err, want)
	}
	got, err = s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{ImageKey: ptr("new.png")})
	want.ImageKey = "new.png"
	if err != nil || got != want {
		t.Fatalf("UpdateClothing(image) = %+v, %v; want %+v", got, err, want)
	}
	got, err = s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{ImageKey: ptr("")})
	want.ImageKey = ""
	if err != nil || got != want {
		t.Fatalf("UpdateClothing(remove image) = %+v, %v; want %+v", got, err, want)
	}
	if read := getClothing(t, s, w.ID, c.ID); read != want {
		t.Fatalf("GetClothing after removing the image = %+v, want %+v", read, want)
	}
	got, err = s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{Name: ptr(long(40)), ImageKey: ptr("both.png")})
	want.Name, want.ImageKey = long(40), "both.png"
	if err != nil || got != want {
		t.Fatalf("UpdateClothing(both) = %+v, %v; want %+v", got, err, want)
	}
	if read := getClothing(t, s, w.ID, c.ID); read != want {
		t.Fatalf("GetClothing after update = %+v, want %+v", read, want)
	}
	if p, err := s.ListClothes(ctx(t), w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount}); err != nil || len(p.Items) != 1 || p.Items[0] != want {
		t.Fatalf("ListClothes after update = %+v, %v; want [%+v]", p.Items, err, want)
	}

	_, err = s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{})
	wantField(t, "UpdateClothing(empty patch)", err, "ClothingPatch")
	_, err = s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{Name: ptr("")})
	wantField(t, "UpdateClothing(empty name)", err, "Name")
	_, err = s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{Name: ptr(long(41))})
	wantField(t, "UpdateClothing(41 characters)", err, "Name")
	_, err = s.UpdateClothing(ctx(t), w.ID, c.ID, wardrobe.ClothingPatch{ImageKey: ptr(strings.Repeat("k", wardrobe.MaxImageKeyLen+1))})
	wantField(t, "UpdateClothing(long image key)", err, "ImageKey")
	_, err = s.UpdateClothing(ctx(t), w.ID, "a#b", wardrobe.ClothingPatch{Name: ptr("x")})
	wantField(t, "UpdateClothing(#)", err, "ClothingID")
	_, err = s.UpdateClothing(ctx(t), w.ID, "no-such-clothing", wardrobe.ClothingPatch{Name: ptr("x")})
	wantErr(t, "UpdateClothing(unknown)", err, ddbkit.ErrNotFound)
	_, err = s.GetClothing(ctx(t), w.ID, "no-such-clothing")
	wantErr(t, "an update of an unknown clothing created it", err, ddbkit.ErrNotFound)
	if read := getClothing(t, s, w.ID, c.ID); read != want {
		t.Fatalf("refused updates changed the clothing: %+v, want %+v", read, want)
	}
}

func testDeleteClothing(t *testing.T, newStore NewStore) {
	clock := &manualClock{now: Start}
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.Clock = clock.Now })
	w := mustWardrobe(t, s, "w")
	c := mustClothing(t, s, w.ID, "c", "c.png")
	clock.Set(Start.Add(time.Minute))
	keep := mustClothing(t, s, w.ID, "keep", "")
	clock.Set(Start.Add(time.Hour))
	mustHistory(t, s, w.ID, "20260104", "", c.ID)
	c = getClothing(t, s, w.ID, c.ID)

	deletedAt := Start.Add(2 * time.Hour)
	clock.Set(deletedAt)
	del, err := s.DeleteClothing(ctx(t), w.ID, c.ID)
	want := c
	want.Status, want.DeletedAt = wardrobe.StatusDeleted, deletedAt
	if err != nil || del != want {
		t.Fatalf("DeleteClothing = %+v, %v; want %+v", del, err, want)
	}
	if got := getClothing(t, s, w.ID, c.ID); got != want {
		t.Fatalf("GetClothing after delete = %+v, want %+v", got, want)
	}
	listed := func(st wardrobe.Status) []wardrobe.Clothing {
		t.Helper()
		cs, _ := walk(t, "ListClothes "+string(st), 0, clothesFetch(t, s, w.ID, wardrobe.ListQuery{Status: st}))
		return cs
	}
	if got := listed(wardrobe.StatusActive); !slices.Equal(got, []wardrobe.Clothing{keep}) {
		t.Fatalf("ACTIVE clothes after delete = %+v, want only %q", got, keep.Name)
	}
	if got := listed(wardrobe.StatusDeleted); !slices.Equal(got, []wardrobe.Clothing{want}) {
		t.Fatalf("DELETED clothes after delete = %+v, want [%+v]", got, want)
	}
	for _, o := range []wardrobe.Order{wardrobe.OrderWearCount, wardrobe.OrderLastWornAt} {
		p, err := s.ListClothes(ctx(t), w.ID, wardrobe.ListQuery{Order: o, Status: wardrobe.StatusDeleted, Descending: true})
		if err != nil || !slices.Equal(p.Items, []wardrobe.Clothing{want}) {
			t.Fatalf("DELETED clothes by %s = %+v, %v; want [%+v]", o, p.Items, err, want)
		}
	}

	// Deleting again changes nothing: DeletedAt keeps its first value.
	clock.Set(Start.Add(3 * time.Hour))
	again, err := s.DeleteClothing(ctx(t), w.ID, c.ID)
	if err != nil || again != want {
		t.Fatalf("DeleteClothing again = %+v, %v; want %+v unchanged", again, err, want)
	}
	if got := getClothing(t, s, w.ID, c.ID); got != want {
		t.Fatalf("GetClothing after a second delete = %+v, want %+v", got, want)
	}

	clock.Set(Start.Add(4 * time.Hour))
	restored, err := s.RestoreClothing(ctx(t), w.ID, c.ID)
	if err != nil || restored != c {
		t.Fatalf("RestoreClothing = %+v, %v; want %+v (ACTIVE, no DeletedAt)", restored, err, c)
	}
	if got := getClothing(t, s, w.ID, c.ID); got != c {
		t.Fatalf("GetClothing after restore = %+v, want %+v", got, c)
	}
	if got := listed(wardrobe.StatusActive); !slices.Equal(got, []wardrobe.Clothing{c, keep}) {
		t.Fatalf("ACTIVE clothes after restore = %+v, want %+v", got, []wardrobe.Clothing{c, keep})
	}
	if got := listed(wardrobe.StatusDeleted); len(got) != 0 {
		t.Fatalf("DELETED clothes after restore = %+v, want none", got)
	}
	again, err = s.RestoreClothing(ctx(t), w.ID, c.ID)
	if err != nil || again != c {
		t.Fatalf("RestoreClothing of an ACTIVE clothing = %+v, %v; want %+v unchanged", again, err, c)
	}
	// A restored clothing can be worn again.
	mustHistory(t, s, w.ID, "20260105", "", c.ID)
	wantClothingStats(t, s, w.ID, c.ID, 2, day(t, "20260105"))

	_, err = s.DeleteClothing(ctx(t), w.ID, "no-such-clothing")
	wantErr(t, "DeleteClothing(unknown)", err, ddbkit.ErrNotFound)
	_, err = s.RestoreClothing(ctx(t), w.ID, "no-such-clothing")
	wantErr(t, "RestoreClothing(unknown)", err, ddbkit.ErrNotFound)
	_, err = s.DeleteClothing(ctx(t), "no-such-wardrobe", c.ID)
	wantErr(t, "DeleteClothing(unknown wardrobe)", err, ddbkit.ErrNotFound)
	for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
		if got := listed(st); len(got) != map[wardrobe.Status]int{wardrobe.StatusActive: 2, wardrobe.StatusDeleted: 0}[st] {
			t.Fatalf("refused deletes changed the %s list: %+v", st, got)
		}
	}
	_, err = s.GetClothing(ctx(t), w.ID, "no-such-clothing")
	wantErr(t, "a delete of an unknown clothing created it", err, ddbkit.ErrNotFound)
}

// wornStat is what the list orders sort by, as the test expects it.
type wornStat struct {
	id      string
	created time.Time
	count   int
	last    wardrobe.Date
}

// expectOrder sorts items as a status list must: by the order's value, ties
// broken by ID, the whole list reversed when descending.
func expectOrder(items []wornStat, o wardrobe.Order, desc bool) []string {
	s := slices.Clone(items)
	slices.SortFunc(s, func(a, b wornStat) int {
		var c int
		switch o {
		case wardrobe.OrderWearCount:
			c = cmp.Compare(a.count, b.count)
		case wardrobe.OrderLastWornAt:
			c = strings.Compare(string(a.last), string(b.last))
		default:
			c = a.created.Compare(b.created)
		}
		if c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	ids := make([]string, len(s))
	for i, w := range s {
		ids[i] = w.id
	}
	if desc {
		slices.Reverse(ids)
	}
	return ids
}

var orders = []wardrobe.Order{wardrobe.OrderCreatedAt, wardrobe.OrderWearCount, wardrobe.OrderLastWornAt}

func testListClothesOrders(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	other := mustWardrobe(t, s, "other")
	mustClothing(t, s, other.ID, "not listed", "") // another wardrobe's clothes never show
	cs := mustClothes(t, s, w.ID, 8)
	id := func(i int) string { return cs[i].ID }
	const d1, d2, d3 = wardrobe.Date("20260101"), wardrobe.Date("20260102"), wardrobe.Date("20260103")
	mustHistory(t, s, w.ID, d1, "", id(0), id(5), id(6))
	mustHistory(t, s, w.ID, d3, "", id(2), id(0))
	mustHistory(t, s, w.ID, d2, "", id(4))
	mustHistory(t, s, w.ID, d2, "", id(4))
	for _, i := range []int{5, 6, 7} {
		mustDeleteClothing(t, s, w.ID, id(i))
	}
	// Counts and last days with deliberate ties: three never worn, two worn
	// twice, three once; two last worn on d3, two on d1.
	model := []struct {
		count int
		last  wardrobe.Date
	}{
		{2, day(t, d3)}, {0, never}, {1, day(t, d3)}, {0, never},
		{2, day(t, d2)}, {1, day(t, d1)}, {1, day(t, d1)}, {0, never},
	}
	byStatus := map[wardrobe.Status][]wornStat{}
	for i, m := range model {
		c := getClothing(t, s, w.ID, id(i))
		wantStats(t, c.Name, m.count, c.WearCount, m.last, c.LastWornAt)
		byStatus[c.Status] = append(byStatus[c.Status], wornStat{id: c.ID, created: cs[i].CreatedAt, count: m.count, last: m.last})
	}
	if len(byStatus[wardrobe.StatusActive]) != 5 || len(byStatus[wardrobe.StatusDeleted]) != 3 {
		t.Fatalf("statuses: %d ACTIVE, %d DELETED; want 5 and 3", len(byStatus[wardrobe.StatusActive]), len(byStatus[wardrobe.StatusDeleted]))
	}
	for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
		for _, o := range orders {
			for _, desc := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/desc=%v", st, o, desc)
				t.Run(name, func(t *testing.T) {
					want := expectOrder(byStatus[st], o, desc)
					opts := wardrobe.ListQuery{Order: o, Status: st, Descending: desc}
					checkWalk(t, "ListClothes "+name, want, clothingID, clothesFetch(t, s, w.ID, opts), 1, 2, 3, 0)
				})
			}
		}
	}
	// The zero options are ACTIVE clothes in registration order, and the
	// listed clothes are the stored ones.
	got, _ := walk(t, "ListClothes", 0, clothesFetch(t, s, w.ID, wardrobe.ListQuery{}))
	for i, c := range got {
		if want := getClothing(t, s, w.ID, cs[i].ID); c != want {
			t.Fatalf("ListClothes item %d = %+v, want %+v", i, c, want)
		}
	}
	if len(got) != 5 {
		t.Fatalf("ListClothes with zero options: %d clothes, want 5", len(got))
	}
}

func testCreatedAtTies(t *testing.T, newStore NewStore) {
	// A clock that never moves: every item has the same createdAt, and the
	// registration order falls back to the ID.
	s := fixed(t, newStore, func(o *wardrobe.Options) { o.Clock = func() time.Time { return Start } })
	w := mustWardrobe(t, s, "w")
	cs := mustClothes(t, s, w.ID, 5)
	var ids []string
	var stats []wornStat
	for _, c := range cs {
		ids = append(ids, c.ID)
		stats = append(stats, wornStat{id: c.ID, created: c.CreatedAt})
		if !c.CreatedAt.Equal(Start) {
			t.Fatalf("CreatedAt %v, want %v", c.CreatedAt, Start)
		}
	}
	var tstats []wornStat
	for i := range 4 {
		tp := mustTemplate(t, s, w.ID, fmt.Sprint("t", i), ids[i])
		tstats = append(tstats, wornStat{id: tp.ID, created: tp.CreatedAt})
	}
	for _, desc := range []bool{false, true} {
		for _, o := range orders { // all three orders tie on every item
			want := expectOrder(stats, o, desc)
			checkWalk(t, fmt.Sprintf("ListClothes %s desc=%v", o, desc), want, clothingID,
				clothesFetch(t, s, w.ID, wardrobe.ListQuery{Order: o, Descending: desc}), 2, 0)
			want = expectOrder(tstats, o, desc)
			checkWalk(t, fmt.Sprintf("ListTemplates %s desc=%v", o, desc), want, templateID,
				templatesFetch(t, s, w.ID, wardrobe.ListQuery{Order: o, Descending: desc}), 3, 0)
		}
	}
}

func testListCursors(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	w := mustWardrobe(t, s, "w")
	other := mustWardrobe(t, s, "other")
	for _, wid := range []string{w.ID, other.ID} {
		cs := mustClothes(t, s, wid, 3)
		mustTemplate(t, s, wid, "t1", cs[0].ID)
		mustTemplate(t, s, wid, "t2", cs[1].ID)
		mustDeleteClothing(t, s, wid, cs[2].ID)
		mustHistory(t, s, wid, "20260101", "", cs[0].ID)
		mustHistory(t, s, wid, "20260102", "", cs[0].ID)
		mustHistory(t, s, wid, "20260103", "", cs[1].ID)
	}
	cs, _ := walk(t, "ListClothes", 0, clothesFetch(t, s, w.ID, wardrobe.ListQuery{}))
	c0 := cs[0].ID
	first := func(what string, next string, err error) string {
		t.Helper()
		if err != nil || next == "" {
			t.Fatalf("%s first page: next %q, %v", what, next, err)
		}
		return next
	}
	lo := wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: 1}}
	p, err := s.ListClothes(ctx(t), w.ID, lo)
	clothesCur := first("ListClothes", p.Next, err)
	tp, err := s.ListTemplates(ctx(t), w.ID, lo)
	tplCur := first("ListTemplates", tp.Next, err)
	hq := wardrobe.HistoryQuery{From: "20260101", To: "20260103", PageOptions: ddbkit.PageOptions{Limit: 1}}
	hp, err := s.ListHistory(ctx(t), w.ID, hq)
	histCur := first("ListHistory", hp.Next, err)
	dq := wardrobe.DailyQuery{PageOptions: ddbkit.PageOptions{Limit: 1}}
	dp, err := s.ListDailyWear(ctx(t), w.ID, wardrobe.KindClothing, c0, dq)
	dailyCur := first("ListDailyWear", dp.Next, err)

	listClothes := func(wid string, o wardrobe.ListQuery) func(string) error {
		return func(c string) error {
			o.PageOptions = ddbkit.PageOptions{Limit: 1, Cursor: c}
			_, err := s.ListClothes(ctx(t), wid, o)
			return err
		}
	}
	listTemplates := func(wid string, o wardrobe.ListQuery) func(string) error {
		return func(c string) error {
			o.PageOptions = ddbkit.PageOptions{Limit: 1, Cursor: c}
			_, err := s.ListTemplates(ctx(t), wid, o)
			return err
		}
	}
	listHistory := func(wid string, q wardrobe.HistoryQuery) func(string) error {
		return func(c string) error {
			q.PageOptions = ddbkit.PageOptions{Limit: 1, Cursor: c}
			_, err := s.ListHistory(ctx(t), wid, q)
			return err
		}
	}
	listDaily := func(kind wardrobe.Kind, id string, q wardrobe.DailyQuery) func(string) error {
		return func(c string) error {
			q.PageOptions = ddbkit.PageOptions{Limit: 1, Cursor: c}
			_, err := s.ListDailyWear(ctx(t), w.ID, kind, id, q)
			return err
		}
	}
	flip := func(c string, i int) string {
		b := []byte(c)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	var (
		desc    = wardrobe.ListQuery{Descending: true}
		deleted = wardrobe.ListQuery{Status: wardrobe.StatusDeleted}
	)
	tests := []struct {
		name string
		call func(string) error
		cur  string
	}{
		{"clothes cursor, WEAR order", listClothes(w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount}), clothesCur},
		{"clothes cursor, LASTWORN order", listClothes(w.ID, wardrobe.ListQuery{Order: wardrobe.OrderLastWornAt}), clothesCur},
		{"clothes cursor, descending", listClothes(w.ID, desc), clothesCur},
		{"clothes cursor, DELETED", listClothes(w.ID, deleted), clothesCur},
		{"clothes cursor, another wardrobe", listClothes(other.ID, wardrobe.ListQuery{}), clothesCur},
		{"clothes cursor for templates", listTemplates(w.ID, wardrobe.ListQuery{}), clothesCur},
		{"templates cursor for clothes", listClothes(w.ID, wardrobe.ListQuery{}), tplCur},
		{"templates cursor, descending", listTemplates(w.ID, desc), tplCur},
		{"templates cursor, WEAR order", listTemplates(w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount}), tplCur},
		{"clothes cursor for history", listHistory(w.ID, hq), clothesCur},
		{"history cursor, another range", listHistory(w.ID, wardrobe.HistoryQuery{From: "20260101"}), histCur},
		{"history cursor, no range", listHistory(w.ID, wardrobe.HistoryQuery{}), histCur},
		{"history cursor, descending", listHistory(w.ID, wardrobe.HistoryQuery{From: hq.From, To: hq.To, Descending: true}), histCur},
		{"history cursor, another wardrobe", listHistory(other.ID, hq), histCur},
		{"daily cursor, another clothing", listDaily(wardrobe.KindClothing, cs[1].ID, wardrobe.DailyQuery{}), dailyCur},
		{"daily cursor, template kind", listDaily(wardrobe.KindTemplate, c0, wardrobe.DailyQuery{}), dailyCur},
		{"daily cursor, descending", listDaily(wardrobe.KindClothing, c0, wardrobe.DailyQuery{Descending: true}), dailyCur},
		{"daily cursor, a range", listDaily(wardrobe.KindClothing, c0, wardrobe.DailyQuery{To: "20260105"}), dailyCur},
		{"history cursor for daily wear", listDaily(wardrobe.KindClothing, c0, wardrobe.DailyQuery{}), histCur},
		{"tampered first character", listClothes(w.ID, wardrobe.ListQuery{}), flip(clothesCur, 0)},
		{"tampered middle character", listClothes(w.ID, wardrobe.ListQuery{}), flip(clothesCur, len(clothesCur)/2)},
		{"tampered last character", listClothes(w.ID, wardrobe.ListQuery{}), flip(clothesCur, len(clothesCur)-1)},
		{"tampered history cursor", listHistory(w.ID, hq), flip(histCur, len(histCur)/3)},
		{"truncated", listClothes(w.ID, wardrobe.ListQuery{}), clothesCur[:len(clothesCur)-2]},
		{"garbage", listTemplates(w.ID, wardrobe.ListQuery{}), "not a cursor!"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantErr(t, tt.name, tt.call(tt.cur), ddbkit.ErrInvalidCursor)
		})
	}
	// The genuine cursors still work.
	for what, call := range map[string]func(string) error{
		"clothes":   listClothes(w.ID, wardrobe.ListQuery{Order: wardrobe.OrderCreatedAt}),
		"templates": listTemplates(w.ID, wardrobe.ListQuery{}),
		"history":   listHistory(w.ID, hq),
		"daily":     listDaily(wardrobe.KindClothing, c0, wardrobe.DailyQuery{}),
	} {
		cur := map[string]string{"clothes": clothesCur, "templates": tplCur, "history": histCur, "daily": dailyCur}[what]
		if err := call(cur); err != nil {
			t.Fatalf("%s listing with its own cursor: %v", what, err)
		}
	}

	// Bad orders and statuses name their field.
	for _, o := range []wardrobe.ListQuery{{Order: "NAME"}, {Order: "wear"}, {Order: "CREATED#"}} {
		_, err := s.ListClothes(ctx(t), w.ID, o)
		wantField(t, fmt.Sprintf("ListClothes(order %q)", o.Order), err, "Order")
		_, err = s.ListTemplates(ctx(t), w.ID, o)
		wantField(t, fmt.Sprintf("ListTemplates(order %q)", o.Order), err, "Order")
	}
	for _, o := range []wardrobe.ListQuery{{Status: "deleted"}, {Status: "ARCHIVED"}} {
		_, err := s.ListClothes(ctx(t), w.ID, o)
		wantField(t, fmt.Sprintf("ListClothes(status %q)", o.Status), err, "Status")
		_, err = s.ListTemplates(ctx(t), w.ID, o)
		wantField(t, fmt.Sprintf("ListTemplates(status %q)", o.Status), err, "Status")
	}

	// An unknown wardrobe lists empty.
	if p, err := s.ListClothes(ctx(t), "no-such-wardrobe", wardrobe.ListQuery{}); err != nil || len(p.Items) != 0 || p.Next != "" {
		t.Fatalf("ListClothes(unknown wardrobe) = %+v, %v; want an empty last page", p, err)
	}
	if p, err := s.ListTemplates(ctx(t), "no-such-wardrobe", wardrobe.ListQuery{Order: wardrobe.OrderWearCount}); err != nil || len(p.Items) != 0 || p.Next != "" {
		t.Fatalf("ListTemplates(unknown wardrobe) = %+v, %v; want an empty last page", p, err)
	}
	if p, err := s.ListHistory(ctx(t), "no-such-wardrobe", wardrobe.HistoryQuery{}); err != nil || len(p.Items) != 0 || p.Next != "" {
		t.Fatalf("ListHistory(unknown wardrobe) = %+v, %v; want an empty last page", p, err)
	}
	if p, err := s.ListDailyWear(ctx(t), "no-such-wardrobe", wardrobe.KindClothing, c0, wardrobe.DailyQuery{}); err != nil || len(p.Items) != 0 || p.Next != "" {
		t.Fatalf("ListDailyWear(unknown wardrobe) = %+v, %v; want an empty last page", p, err)
	}
}
