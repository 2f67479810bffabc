package wardrobe

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// PutRaw stores item in s as it is, unchecked: what Import refuses, so
// that a test can hold a memory store that holds a corrupt item (as a
// table another program wrote does) to what DynamoStore reports.
func PutRaw(s *MemoryStore, item map[string]types.AttributeValue) {
	if err := s.m.Import(s.o.TableName, []map[string]types.AttributeValue{item}); err != nil {
		panic(err)
	}
}

// ItemCodec is one item kind's codec, for the fuzz targets: Decode reads
// an item as the stores read it (the wardrobe ID from its partition key),
// into a value that reflect.DeepEqual compares; Encode writes such a
// value back as the stores write it.
type ItemCodec struct {
	Kind   string
	Decode func(item map[string]types.AttributeValue) (any, error)
	Encode func(item map[string]types.AttributeValue, v any) (map[string]types.AttributeValue, error)
}

// CodecTable is the table the codecs read under.
var CodecTable = table(DefaultTableName)

// ItemCodecs are the codecs of every item kind of the design.
func ItemCodecs() []ItemCodec {
	keyOf := func(item ddb.Item) itemKey {
		pk, _ := item[AttrPK].(*types.AttributeValueMemberS)
		sk, _ := item[AttrSK].(*types.AttributeValueMemberS)
		var k itemKey
		if pk != nil && sk != nil {
			k = itemKey{pk.Value, sk.Value}
		}
		return k
	}
	return []ItemCodec{
		{"wardrobe", func(item ddb.Item) (any, error) {
			return unmarshalWardrobe(CodecTable, item, wardrobeOf(item))
		}, func(item ddb.Item, v any) (ddb.Item, error) { return marshalWardrobe(keyOf(item), v.(Wardrobe)) }},
		{"clothing or template", func(item ddb.Item) (any, error) {
			w, err := unmarshalWorn(CodecTable, item, wardrobeOf(item))
			w.raw = nil // the item itself
			return w, err
		}, func(_ ddb.Item, v any) (ddb.Item, error) { return marshalWorn(v.(worn)) }},
		{"history", func(item ddb.Item) (any, error) {
			return unmarshalHistory(CodecTable, item, wardrobeOf(item))
		}, func(item ddb.Item, v any) (ddb.Item, error) { return marshalHistory(keyOf(item), v.(History)) }},
		{"daily counter", func(item ddb.Item) (any, error) {
			return unmarshalCounter(CodecTable, item)
		}, func(item ddb.Item, v any) (ddb.Item, error) { return marshalCounter(keyOf(item), v.(DailyWear)) }},
	}
}
