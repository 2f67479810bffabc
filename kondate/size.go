package kondate

import (
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"maps"
)

// Item sizes. DynamoDB refuses an item over 400 KB (ddb.MaxItemSize), and
// the field limits alone do not keep every item under it: a recipe of 100
// steps of 2,000 characters passes them, and weighs 600 KB in Japanese. So
// every operation checks each item it writes, in this shared code, before
// any call (ddb.CheckItemSize), and both stores refuse the same input with
// ErrInvalidArgument naming the caller's field that weighs most.

// copyReserve is the room a recipe or set keeps beyond its own size, so
// that everything it is later copied into still fits: publishedAt, which
// Publish adds to it, and the catalog item and creator's copy Publish
// writes, whose keys and attributes (creator, GSI2 and GSI3 keys, saved
// count) weigh at most about 3.5 KB more than the recipe's own keys with
// IDs at their longest (128 characters of 4 bytes). A recipe that passed
// can always be published.
const copyReserve = 4 << 10

// sizeRule is how the items of a kind are checked: the room they keep
// (reserve), and the caller's fields that can make them large, as pairs
// of attribute and field name.
type sizeRule struct {
	reserve int
	fields  []string
}

// Size rules of the items whose fields can weigh more than a few KB.
var (
	recipeSize = sizeRule{copyReserve, []string{"title", "Title", "ingredients", "Ingredients", "steps", "Steps", "tags", "Tags", "origin", "Origin"}}
	setSize    = sizeRule{copyReserve, []string{"title", "Title", "items", "Items", "tags", "Tags"}}
	// catalogSize checks the items Publish writes: the recipe's or set's
	// fields, with room for a savedCount of any size.
	catalogSize = sizeRule{64, []string{"title", "Title", "ingredients", "Ingredients", "steps", "Steps", "tags", "Tags", "origin", "Origin", "items", "Items"}}
	planSize    = sizeRule{0, []string{"items", "Items", "setTitle", "Title"}}
)

// field returns a size rule naming fields, without reserve: for items
// whose fields cannot reach the limit, checked all the same.
func field(pairs ...string) sizeRule { return sizeRule{fields: pairs} }

// check refuses item if it, with the rule's reserve, passes DynamoDB's
// limit, naming the listed field that weighs most in it.
func (r sizeRule) check(item ddb.Item) error {
	if ddb.ItemSize(item)+r.reserve <= ddb.MaxItemSize {
		return nil
	}
	name, most := "", -1
	for i := 0; i+1 < len(r.fields); i += 2 {
		if v, ok := item[r.fields[i]]; ok {
			if n := ddb.ItemSize(ddb.Item{r.fields[i]: v}); n > most {
				name, most = r.fields[i+1], n
			}
		}
	}
	if name == "" {
		name = "item"
	}
	return ddb.CheckItemSize(item, name, r.reserve)
}

// checkChange checks the item an update writes as far as the update alone
// tells: its key and the attributes it sets. The stored attributes it
// keeps may add to it; DynamoDB refuses such an update with ErrInvalidArgument,
// and MemoryStore the same (fits).
func (r sizeRule) checkChange(t ddb.Table, k itemKey, u backend.Change) error {
	item := k.Item(t)
	maps.Copy(item, u.Values())
	return r.check(item)
}
