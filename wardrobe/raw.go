package wardrobe

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// This file moves a MemoryStore's items in and out in DynamoDB's
// attribute-value form: Export through DynamoStore's marshal functions,
// Import through its decode functions, so the layouts cannot drift apart.

// Export returns every item the store holds in DynamoDB's attribute-value
// form, exactly as its DynamoDB twin writes them, by table name
// (Options.TableName), each table's items in key order (PK, then SK).
//
// The store holds items decoded, so an item that Import read leniently
// (a time as an ISO 8601 string, a missing optional attribute, an
// attribute the design does not have) comes back in the layout
// DynamoStore writes, as it would after DynamoStore rewrote it whole; its
// index keys, which decide where DynamoDB lists it, come back as imported
// until a write that DynamoStore makes to them.
func (s *MemoryStore) Export() ddbkit.TableItems {
	s.mu.RLock()
	defer s.mu.RUnlock()
	pks := make([]string, 0, len(s.parts))
	for pk := range s.parts {
		pks = append(pks, pk)
	}
	slices.Sort(pks)
	var out []ddb.Item
	for _, pk := range pks {
		for _, r := range s.items.Partition(pk) {
			item, err := r.marshal()
			if err != nil {
				// Every stored item was built from valid keys: unreachable.
				panic(fmt.Sprintf("wardrobe: export %s: %v", ddb.RenderKey(s.t, r.attrs), err))
			}
			if r.worn != nil || r.history != nil {
				// The index keys the item is listed by: those of the
				// import until DynamoStore's writes would rewrite them.
				for _, a := range indexAttrs {
					if v, ok := r.attrs[a]; ok {
						item[a] = v
					} else {
						delete(item, a)
					}
				}
			}
			out = append(out, item)
		}
	}
	return ddbkit.TableItems{s.o.TableName: out}
}

// marshal gives r as DynamoStore writes it.
func (r *record) marshal() (ddb.Item, error) {
	k := itemKey{str(r.attrs[AttrPK]), str(r.attrs[AttrSK])}
	switch {
	case r.wardrobe != nil:
		return marshalWardrobe(k, *r.wardrobe)
	case r.worn != nil:
		return marshalWorn(*r.worn)
	case r.history != nil:
		return marshalHistory(k, *r.history)
	}
	return marshalCounter(k, *r.counter)
}

// Import adds items, in the seed's layout as another program or ddbkit
// writes them, to the store, decoding them as leniently as DynamoStore
// reads them: for example items exported from a production table, or the
// seed's own example items, to seed a test's store. An item whose key
// exists replaces it. Items are kept decoded (see Export).
//
// It returns ErrInvalidArgument for items of a table other than
// Options.TableName, and ErrCorruptItem (a *ddbkit.CorruptItemError naming
// table, key and attribute) for an item DynamoStore could not read either,
// or whose key is none of the design's (wardrobe, clothing, template,
// history or daily counter), or that holds a nil attribute value anywhere
// (at the top, or inside a list or map); it then imports nothing.
func (s *MemoryStore) Import(items ddbkit.TableItems) error {
	const op = "import"
	var rs []*record
	for table, list := range items {
		if table != s.o.TableName {
			return wrap(op, ddbkit.Invalid("table", "the store's table is %q, got items of %q", s.o.TableName, table))
		}
		for _, item := range list {
			r, err := s.decode(item)
			if err != nil {
				return wrap(op, err)
			}
			rs = append(rs, r)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range rs {
		s.put(r)
	}
	return nil
}

// decode reads one raw item into the record the store keeps for it, with
// the key and index attributes the store's writes give it.
func (s *MemoryStore) decode(item ddb.Item) (*record, error) {
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
		r    *record
		want itemKey
		err  error
	)
	switch {
	case len(parts) == 2:
		var w Wardrobe
		if w, err = unmarshalWardrobe(s.t, item, wardrobeID); err != nil {
			return nil, err
		}
		want, err = wardrobeKey(wardrobeID)
		r = &record{attrs: keyAttrs(want), wardrobe: &w}
	case len(parts) == 3 && (parts[2] == string(KindClothing) || parts[2] == string(KindTemplate)):
		var w worn
		if w, err = unmarshalWorn(s.t, item, wardrobeID); err != nil {
			return nil, err
		}
		if string(w.kind) != parts[2] {
			return nil, ddb.Corrupt(s.t, item, AttrSK, "want %s#<id> in partition %s", parts[2], k.pk)
		}
		w.raw = nil
		want, err = w.key()
		if err == nil {
			r, err = wornRecord(w)
		}
	case len(parts) == 3 && parts[2] == segHistory:
		var h History
		if h, err = unmarshalHistory(s.t, item, wardrobeID); err != nil {
			return nil, err
		}
		want, err = historyKey(wardrobeID, h.ID)
		if err == nil {
			r, err = historyRecord(want, h)
		}
	case len(parts) == 5 && parts[2] == segCount && (parts[3] == string(KindClothing) || parts[3] == string(KindTemplate)):
		var c DailyWear
		if c, err = unmarshalCounter(s.t, item); err != nil {
			return nil, err
		}
		want, err = counterKey(wardrobeID, Kind(parts[3]), parts[4], c.Date)
		r = &record{attrs: keyAttrs(want), counter: &c}
	default:
		return nil, ddb.Corrupt(s.t, item, AttrPK, "not a key of the wardrobe design")
	}
	if err != nil || want != k {
		return nil, ddb.Corrupt(s.t, item, AttrSK, "not a key of the wardrobe design")
	}
	if r.worn != nil || r.history != nil {
		// DynamoDB lists the item by the index keys it has, whatever its
		// other attributes say.
		for _, a := range indexAttrs {
			if v, ok := item[a].(*types.AttributeValueMemberS); ok {
				r.attrs[a] = ddb.S(v.Value)
			} else {
				delete(r.attrs, a)
			}
		}
	}
	return r, nil
}

// indexAttrs are the GSI key attributes of the design.
var indexAttrs = []string{AttrStatusListPK, AttrCreatedAtSK, AttrWearCountSK, AttrLastWornAtSK, AttrDateSK}
