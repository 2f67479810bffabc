package wardrobe

import (
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// This file moves a MemoryStore's items in and out in DynamoDB's
// attribute-value form. The memory store keeps the very items the shared
// operations (store.go) write for both stores, so Export returns what
// DynamoStore writes; Import checks what it takes with the decode
// functions DynamoStore reads with (decode.go), so the layouts cannot
// drift apart.

// Export returns every item the store holds in DynamoDB's attribute-value
// form, exactly as its DynamoDB twin writes them (and as Import received
// those it imported), by table name (Options.TableName), each table's
// items in key order (PK, then SK, byte by byte). The items are copies.
func (s *MemoryStore) Export() ddbkit.TableItems {
	return ddbkit.TableItems{s.o.TableName: s.m.Export(s.o.TableName)}
}

// Import adds items, in the seed's layout as another program or ddbkit
// writes them, to the store: for example items exported from a
// production table, or the seed's own example items, to seed a test's
// store. It keeps them as they are, as DynamoDB would, so that Export
// returns them unchanged and the listings order them by their stored
// index keys, and checks that DynamoStore could read them: each must
// decode as leniently as DynamoStore decodes it. An item whose key exists
// replaces it, as PutItem would.
//
// It returns ErrInvalidArgument for items of a table other than
// Options.TableName, and ErrCorruptItem (a *ddbkit.CorruptItemError naming
// table, key and attribute) for an item DynamoStore could not read either,
// or whose key is none of the design's (wardrobe, clothing, template,
// history or daily counter), or that holds a nil attribute value anywhere
// (at the top, or inside a list or map); it then imports nothing.
func (s *MemoryStore) Import(items ddbkit.TableItems) error {
	const op = "import"
	var in []ddb.Item
	for _, table := range slices.Sorted(maps.Keys(items)) {
		if table != s.o.TableName {
			return wrap(op, ddbkit.Invalid("table", "the store's table is %q, got items of %q", s.o.TableName, table))
		}
		for _, raw := range items[table] {
			item, err := s.readable(raw)
			if err != nil {
				return wrap(op, err)
			}
			in = append(in, item)
		}
	}
	return wrap(op, s.m.Import(s.o.TableName, in))
}

// readable checks that DynamoStore could read item, and returns the copy
// to store: without the index key attributes DynamoDB could not index (of
// another type than String, or empty), which no listing then shows it by.
func (s *MemoryStore) readable(item ddb.Item) (ddb.Item, error) {
	// A nil attribute value, which nothing can encode or decode, is a
	// corrupt item, never a panic.
	if err := ddb.CheckAttrs(s.t, item); err != nil {
		return nil, err
	}
	pk, ok := item[AttrPK].(*types.AttributeValueMemberS)
	if !ok {
		return nil, ddb.Corrupt(s.t, item, AttrPK, "want a String")
	}
	sk, ok := item[AttrSK].(*types.AttributeValueMemberS)
	if !ok {
		return nil, ddb.Corrupt(s.t, item, AttrSK, "want a String")
	}
	k := itemKey{pk.Value, sk.Value}
	parts := keys.Split(k.pk)
	if len(parts) < 2 || parts[0] != segWardrobe {
		return nil, ddb.Corrupt(s.t, item, AttrPK, "want W#<wardrobeId>…")
	}
	wardrobeID := parts[1]
	var (
		want itemKey
		err  error
	)
	switch {
	case len(parts) == 2:
		if _, err = unmarshalWardrobe(s.t, item, wardrobeID); err != nil {
			return nil, err
		}
		want, err = wardrobeKey(wardrobeID)
	case len(parts) == 3 && (parts[2] == string(KindClothing) || parts[2] == string(KindTemplate)):
		var w worn
		if w, err = unmarshalWorn(s.t, item, wardrobeID); err != nil {
			return nil, err
		}
		if string(w.kind) != parts[2] {
			return nil, ddb.Corrupt(s.t, item, AttrSK, "want %s#<id> in partition %s", parts[2], k.pk)
		}
		want, err = w.key()
		if err == nil {
			_, err = w.indexKeys()
		}
	case len(parts) == 3 && parts[2] == segHistory:
		var h History
		if h, err = unmarshalHistory(s.t, item, wardrobeID); err != nil {
			return nil, err
		}
		want, err = historyKey(wardrobeID, h.ID)
		if err == nil {
			_, err = historyDateSK(h.Date, h.ID)
		}
	case len(parts) == 5 && parts[2] == segCount && (parts[3] == string(KindClothing) || parts[3] == string(KindTemplate)):
		var c DailyWear
		if c, err = unmarshalCounter(s.t, item); err != nil {
			return nil, err
		}
		want, err = counterKey(wardrobeID, Kind(parts[3]), parts[4], c.Date)
	default:
		return nil, ddb.Corrupt(s.t, item, AttrPK, "not a key of the wardrobe design")
	}
	if err != nil || want != k {
		return nil, ddb.Corrupt(s.t, item, AttrSK, "not a key of the wardrobe design")
	}
	out := ddb.CloneItem(item)
	for _, a := range indexAttrs {
		if v, ok := out[a].(*types.AttributeValueMemberS); !ok || v.Value == "" {
			delete(out, a)
		}
	}
	return out, nil
}

// indexAttrs are the GSI key attributes of the design.
var indexAttrs = []string{AttrStatusListPK, AttrCreatedAtSK, AttrWearCountSK, AttrLastWornAtSK, AttrDateSK}
