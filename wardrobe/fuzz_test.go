package wardrobe_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
	"github.com/ddbkit/ddbkit/keys"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// timeAttrs are the attributes the codecs read as times.
var timeAttrs = []string{"createdAt", "deletedAt", "lastWornAt"}

// addItemSeeds seeds f with the legacy fixture (the corrupt items too)
// and, for one item of each kind, the interop shapes of every attribute:
// more seeds would spend a run's time on gathering their coverage.
func addItemSeeds(f *testing.F) {
	good, corrupt := legacyItems()
	shaped := map[string]bool{}
	for _, item := range append(good, corrupt...) {
		f.Add(fuzzcheck.Encode(item))
		pk := item[wardrobe.AttrPK].(*types.AttributeValueMemberS).Value
		kind := strings.Join(keys.Split(pk)[2:], "#")
		if i := strings.LastIndex(kind, "#"); i >= 0 {
			kind = kind[:i] // a counter's partition: COUNT#CLOTH
		}
		if shaped[kind] || kind == "TPL" || kind == "COUNT#TPL" { // as CLOTH's
			continue
		}
		shaped[kind] = true
		for _, shape := range fuzzcheck.Shapes(item, timeAttrs...) {
			f.Add(fuzzcheck.Encode(shape))
		}
	}
}

// FuzzDecodeItem decodes any item, as another writer of the table may
// leave it, as every kind the stores read: a value, or ErrCorruptItem
// echoing a bounded prefix of the item at most, and never a panic. A
// value read round-trips through the writer (fuzzcheck.RoundTrip):
// exactly, for an item in ddbkit's own shape.
func FuzzDecodeItem(f *testing.F) {
	addItemSeeds(f)
	codecs := wardrobe.ItemCodecs()
	f.Fuzz(func(t *testing.T, data []byte) {
		item, ok := fuzzcheck.ReadItem(data)
		if !ok {
			return
		}
		strs := fuzzcheck.Strings(item, wardrobe.AttrPK, wardrobe.AttrSK)
		for _, c := range codecs {
			v, err := c.Decode(item)
			if err != nil {
				fuzzcheck.Error(t, err, ddbkit.ErrCorruptItem, strs...)
				continue
			}
			if !fuzzcheck.Stored(item, wardrobe.AttrPK, wardrobe.AttrSK) {
				continue
			}
			fuzzcheck.RoundTrip(t, item, v, func(v any) (ddb.Item, error) { return c.Encode(item, v) }, c.Decode, func(v any) any { return v })
		}
	})
}

// FuzzImport imports any item into a memory store holding the legacy
// fixture: Import accepts it, and then Export returns it (less the index
// keys DynamoDB could not index) and every listing of its wardrobe reads
// without a panic; or refuses it with ErrCorruptItem, echoing a bounded
// prefix of it at most, and leaves the store unchanged.
func FuzzImport(f *testing.F) {
	addItemSeeds(f)
	good, _ := legacyItems()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzcheck.MaxInput {
			return
		}
		item := fuzzcheck.Item(data)
		const table = "WardrobeTable"
		s := wardrobe.NewMemoryStore(legacyOptions(table))
		if err := s.Import(ddbkit.TableItems{table: good}); err != nil {
			t.Fatal(err)
		}
		before := s.Export()
		err := s.Import(ddbkit.TableItems{table: {item}})
		after := s.Export()
		if err != nil {
			fuzzcheck.Error(t, err, ddbkit.ErrCorruptItem, fuzzcheck.Strings(item, wardrobe.AttrPK, wardrobe.AttrSK)...)
			if !reflect.DeepEqual(after, before) {
				t.Fatalf("a refused Import changed the store")
			}
			return
		}
		pk := item[wardrobe.AttrPK].(*types.AttributeValueMemberS).Value
		sk := item[wardrobe.AttrSK].(*types.AttributeValueMemberS).Value
		var got map[string]types.AttributeValue
		for _, it := range after[table] {
			if it[wardrobe.AttrPK].(*types.AttributeValueMemberS).Value == pk && it[wardrobe.AttrSK].(*types.AttributeValueMemberS).Value == sk {
				got = it
			}
		}
		for name, v := range item {
			if got[name] == nil {
				if s, ok := v.(*types.AttributeValueMemberS); ok && s.Value != "" {
					t.Fatalf("Export lost attribute %q of the imported item", name)
				}
				continue // an index key DynamoDB could not index
			}
			if !reflect.DeepEqual(got[name], v) {
				t.Fatalf("Export changed attribute %q of the imported item: %v, want %v", name, got[name], v)
			}
		}
		ctx := t.Context()
		wid := keys.Split(pk)[1]
		for _, kind := range []wardrobe.Kind{wardrobe.KindClothing, wardrobe.KindTemplate} {
			for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
				if kind == wardrobe.KindClothing {
					if _, err := s.ListClothes(ctx, wid, wardrobe.ListQuery{Status: st}); err != nil && !errors.Is(err, ddbkit.ErrInvalidArgument) {
						t.Fatalf("ListClothes after Import: %v", err)
					}
				} else if _, err := s.ListTemplates(ctx, wid, wardrobe.ListQuery{Status: st}); err != nil && !errors.Is(err, ddbkit.ErrInvalidArgument) {
					t.Fatalf("ListTemplates after Import: %v", err)
				}
			}
		}
		if _, err := s.ListHistory(ctx, wid, wardrobe.HistoryQuery{}); err != nil && !errors.Is(err, ddbkit.ErrInvalidArgument) {
			t.Fatalf("ListHistory after Import: %v", err)
		}
	})
}

// FuzzInput holds every input type to issue 39's validation contract, on
// a memory store holding the legacy fixture: input a write accepts is
// read back equal to what it returned and to the input; input it refuses
// (ErrInvalidArgument, or ErrNotFound or ErrConflict for a target missing
// or deleted) leaves the store unchanged, and no error echoes more than a
// bounded prefix of the input nor the idempotency key. op picks the
// operation and which fields a patch sets; ids is a comma-separated list.
func FuzzInput(f *testing.F) {
	for i, in := range []struct{ wid, id, a, b, ids, key string }{
		{"", "", "わたしの服", "", "", "k1"},
		{lwID, "", "白シャツ", "images/a.jpg", "", ""},
		{lwID, shirtID, "新しい名前", "", "", ""},
		{lwID, "", "休日", "", shirtID + "," + denimID, ""},
		{lwID, tplID, "平日", "", denimID, ""},
		{lwID, "", "20260105", tplID, shirtID + "," + denimID, ""},
		{lwID, coatID, "x", "javascript:alert(1)", coatID + "," + coatID, "secret-idempotency-key"},
		{wd2, "", "19700101", "", scarfID, ""},
		{"a#b", "\xff", strings.Repeat("x", 5000), strings.Repeat("4", 300), strings.Repeat(",", 100), "4111111111111111"},
	} {
		f.Add(uint8(i), in.wid, in.id, in.a, in.b, in.ids, in.key)
	}
	good, _ := legacyItems()
	f.Fuzz(func(t *testing.T, op uint8, wid, id, a, b, ids, key string) {
		for _, s := range []string{wid, id, a, b, ids, key} {
			if len(s) > fuzzcheck.MaxInput {
				return
			}
		}
		const table = "WardrobeTable"
		s := wardrobe.NewMemoryStore(legacyOptions(table))
		if err := s.Import(ddbkit.TableItems{table: good}); err != nil {
			t.Fatal(err)
		}
		ctx := ddbkit.WithIdempotencyKey(t.Context(), key)
		before := s.Export()
		refused := func(err error) {
			t.Helper()
			if !errors.Is(err, ddbkit.ErrInvalidArgument) && !errors.Is(err, ddbkit.ErrNotFound) && !errors.Is(err, ddbkit.ErrConflict) {
				t.Fatalf("op %d refused with %v, want ErrInvalidArgument, ErrNotFound or ErrConflict", op%7, err)
			}
			// IDs are identities, like key values: an error names the one
			// not found as given (validated first, so bounded).
			tmpl := b
			if op%7 == 5 {
				tmpl = fuzzcheck.Key(b)
			}
			fuzzcheck.Echo(t, err, fuzzcheck.Key(wid), fuzzcheck.Key(id), a, tmpl, fuzzcheck.Key(ids), fuzzcheck.Secret(key))
			if after := s.Export(); !reflect.DeepEqual(after, before) {
				t.Fatalf("op %d refused with %v, and changed the store", op%7, err)
			}
		}
		same := func(got, want any) {
			t.Helper()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("op %d: read back\n got %+v\nwant %+v", op%7, got, want)
			}
		}
		sets := func(i uint8) bool { return op>>(3+i)&1 == 1 }
		str := func(set bool, s string) *string {
			if set {
				return &s
			}
			return nil
		}
		list := func() []string {
			if ids == "" {
				return nil
			}
			return strings.Split(ids, ",")
		}
		read := t.Context()
		switch op % 7 {
		case 0:
			w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: a})
			if err != nil {
				refused(err)
				return
			}
			got, err := s.GetWardrobe(read, w.ID)
			same(err, nil)
			same(got, w)
			same(w.Name, a)
		case 1:
			c, err := s.AddClothing(ctx, wid, wardrobe.NewClothing{Name: a, ImageKey: b})
			if err != nil {
				refused(err)
				return
			}
			got, err := s.GetClothing(read, wid, c.ID)
			same(err, nil)
			same(got, c)
			same([]string{c.WardrobeID, c.Name, c.ImageKey}, []string{wid, a, b})
		case 2:
			p := wardrobe.ClothingPatch{Name: str(sets(0), a), ImageKey: str(sets(1), b)}
			old, oldErr := s.GetClothing(read, wid, id)
			c, err := s.UpdateClothing(ctx, wid, id, p)
			if err != nil {
				refused(err)
				return
			}
			same(oldErr, nil)
			got, err := s.GetClothing(read, wid, id)
			same(err, nil)
			same(got, c)
			if p.Name != nil {
				old.Name = *p.Name
			}
			if p.ImageKey != nil {
				old.ImageKey = *p.ImageKey
			}
			same(c, old)
		case 3:
			tp, err := s.AddTemplate(ctx, wid, wardrobe.NewTemplate{Name: a, ClothingIDs: list()})
			if err != nil {
				refused(err)
				return
			}
			got, err := s.GetTemplate(read, wid, tp.ID)
			same(err, nil)
			same(got, tp)
			same(tp.ClothingIDs, list())
			same(tp.Name, a)
		case 4:
			p := wardrobe.TemplatePatch{Name: str(sets(0), a)}
			if sets(1) {
				p.ClothingIDs = list()
			}
			old, oldErr := s.GetTemplate(read, wid, id)
			tp, err := s.UpdateTemplate(ctx, wid, id, p)
			if err != nil {
				refused(err)
				return
			}
			same(oldErr, nil)
			got, err := s.GetTemplate(read, wid, id)
			same(err, nil)
			same(got, tp)
			if p.Name != nil {
				old.Name = *p.Name
			}
			if p.ClothingIDs != nil {
				old.ClothingIDs = p.ClothingIDs
			}
			same(tp, old)
		case 5:
			in := wardrobe.NewHistory{Date: wardrobe.Date(a), TemplateID: b, ClothingIDs: list()}
			h, err := s.AddHistory(ctx, wid, in)
			if err != nil {
				refused(err)
				return
			}
			got, err := s.GetHistory(read, wid, h.ID)
			same(err, nil)
			same(got.History, h)
			same(wardrobe.NewHistory{Date: h.Date, TemplateID: h.TemplateID, ClothingIDs: h.ClothingIDs}, in)
		case 6:
			if _, err := s.DeleteClothing(ctx, wid, id); err != nil {
				refused(err)
				return
			}
			got, err := s.GetClothing(read, wid, id)
			same(err, nil)
			same(got.Status, wardrobe.StatusDeleted)
		}
	})
}
