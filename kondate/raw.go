package kondate

import (
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// This file moves a MemoryStore's items in and out in DynamoDB's
// attribute-value form. The memory store keeps the very items the shared
// operations (store.go) build for both stores, so Export returns what
// DynamoStore writes; Import reads what it takes with the decode functions
// DynamoStore reads with (items.go), so the layouts cannot drift apart.

// Export returns every item the store holds in DynamoDB's attribute-value
// form, exactly as DynamoStore writes them (and as Import received those it
// imported), by table name (Options.TableName), the table's items in key
// order: by PK, then SK, byte by byte. The items are copies.
func (s *MemoryStore) Export() ddbkit.TableItems {
	return ddbkit.TableItems{s.o.TableName: s.m.Export(s.o.TableName)}
}

// Import adds items to the store, in the seed's layout as the seed's app,
// another program or DynamoStore writes them (items a Scan of the real
// table returned, say, or the seed's own examples), by table name:
// Options.TableName. It keeps them as they are, so that Export returns them
// unchanged and the listings and indexes order them by their stored strings
// as DynamoDB does, and checks that DynamoStore could read them: each item
// of a kind of the design (the key formats of the package doc) must decode
// as leniently as DynamoStore decodes it. An item of no kind of the design
// is kept too, as DynamoDB would keep it; no operation reads it. An item
// whose key exists replaces it, as PutItem would.
//
// It fails with ErrInvalidArgument for items of another table, and with
// ErrCorruptItem (a *ddbkit.CorruptItemError naming table, key and
// attribute) for an item DynamoStore could not read, or whose key or index
// key attributes (GSI1PK … GSI3SK, which the memory store indexes whatever
// the options enable) DynamoDB could not hold: a key attribute must be a
// non-empty String of at most 2,048 bytes (a partition key) or 1,024 (a
// sort key). It then imports nothing.
func (s *MemoryStore) Import(items ddbkit.TableItems) error {
	const op = "import"
	var in []ddb.Item
	for _, name := range slices.Sorted(maps.Keys(items)) {
		if name != s.o.TableName {
			return wrap(op, ddbkit.Invalid("table", "the store's table is %q, got items of %q", s.o.TableName, name))
		}
		for _, raw := range items[name] {
			// A nil attribute value (possible only in an item built by
			// hand) is corrupt, before anything reads or copies it.
			if err := ddb.CheckAttrs(s.t, raw); err != nil {
				return wrap(op, err)
			}
			item := ddb.CloneItem(raw)
			if err := readable(s.t, item); err != nil {
				return wrap(op, err)
			}
			in = append(in, item)
		}
	}
	return wrap(op, s.m.Import(s.o.TableName, in))
}

// keyAttrNames are the attributes DynamoDB requires to be non-empty
// Strings where present, of at most keys.MaxPartitionKeyBytes and
// keys.MaxSortKeyBytes bytes: the table's keys and the indexes', by pairs.
var keyAttrNames = []string{AttrPK, AttrSK, AttrGSI1PK, AttrGSI1SK, AttrGSI2PK, AttrGSI2SK, AttrGSI3PK, AttrGSI3SK}

// readable reports an item DynamoStore could not read, or DynamoDB could
// not hold, as a *ddbkit.CorruptItemError.
func readable(t ddb.Table, item ddb.Item) error {
	for i, a := range keyAttrNames {
		v, present := item[a]
		if !present && i >= 2 {
			continue
		}
		s, ok := v.(*types.AttributeValueMemberS)
		if !ok || s.Value == "" {
			return ddb.Corrupt(t, item, a, "a key attribute must be a non-empty String")
		}
		max := keys.MaxPartitionKeyBytes // even-numbered names are partition keys
		if i%2 == 1 {
			max = keys.MaxSortKeyBytes
		}
		if len(s.Value) > max {
			return ddb.Corrupt(t, item, a, "a key attribute holds at most %d bytes, got %d", max, len(s.Value))
		}
	}
	pk, _ := backend.Str(item, AttrPK)
	sk, _ := backend.Str(item, AttrSK)
	dec := decoderOf(pk, sk)
	if dec == nil {
		return nil
	}
	_, err := dec(t, item)
	return err
}

// decodes turns a decode function into one of decoderOf's.
func decodes[T any](dec func(ddb.Table, ddb.Item) (T, error)) func(ddb.Table, ddb.Item) (any, error) {
	return func(t ddb.Table, item ddb.Item) (any, error) {
		return dec(t, item)
	}
}

// decoderOf returns the decode function DynamoStore reads the item at pk,
// sk with, nil for a key of no kind of the design. The value it returns is
// the kind's domain type (Recipe, CatalogEntry…); the fuzz targets read it.
func decoderOf(pk, sk string) func(ddb.Table, ddb.Item) (any, error) {
	has := func(p string) bool { return strings.HasPrefix(sk, p) }
	switch {
	case strings.HasPrefix(pk, userPrefix):
		switch {
		case sk == skProfile:
			return decodes(decodeProfile)
		case has(skRecipe):
			return decodes(decodeRecipe)
		case has(skSet):
			return decodes(decodeSet)
		case has(skPlan):
			return decodes(decodePlan)
		case has(skShopping):
			return decodes(decodeShopping)
		case has(skFridge):
			return decodes(decodeFridge)
		case has(skFridgeDeleted):
			return decodes(decodeDeletedFridge)
		case has(skCategory):
			return decodes(decodeCategory)
		case has(skCookLog):
			return decodes(decodeCookLog)
		case has(skPaymentMethod):
			return decodes(decodePaymentMethod)
		case has(skPurchase):
			return decodes(decodePurchase)
		case sk == skSubscription:
			return decodes(decodeSubscription)
		case has(skNotification):
			return decodes(decodeNotification)
		case sk == skNotifSettings:
			return decodes(decodeNotificationSettings)
		case has(skPushToken):
			return decodes(decodePushToken)
		case has(skSaved):
			return decodes(decodeSaved)
		}
	case strings.HasPrefix(pk, catalogPrefix) && has(skCreated),
		strings.HasPrefix(pk, creatorPrefix) && has(skCatalogCopy):
		return decodes(decodeCatalog)
	case strings.HasPrefix(pk, sharePrefix) && sk == skShareMeta:
		return decodes(decodeShare)
	}
	return nil
}
