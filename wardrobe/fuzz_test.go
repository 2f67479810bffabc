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
		if shaped[kind] {
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
		if len(data) > fuzzcheck.MaxInput {
			return
		}
		item := fuzzcheck.Item(data)
		if ddb.CheckAttrs(wardrobe.CodecTable, item) != nil {
			return // a nil value: only a hand-built item holds one, and Import refuses it (FuzzImport)
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
