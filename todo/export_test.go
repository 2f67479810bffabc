package todo

import "github.com/ddbkit/ddbkit/internal/ddb"

// The item codecs, for the fuzz targets of package todo_test, which hold
// the legacy fixtures.

// FuzzTable is the table the codecs read and write under.
var FuzzTable = table("t")

// DecodeUser, DecodeTodo, DecodeCategory and DecodeRecord decode item as
// the stores read it, the owner taken from its partition key.
func DecodeUser(item ddb.Item) (User, error) { return decodeUser(FuzzTable, item) }

func DecodeTodo(item ddb.Item) (Todo, error) { return decodeTodo(FuzzTable, item, owner(item)) }

func DecodeCategory(item ddb.Item) (Category, error) {
	return decodeCategory(FuzzTable, item, owner(item))
}

func DecodeRecord(item ddb.Item) (Record, error) { return decodeRecord(FuzzTable, item, owner(item)) }

// MarshalUser, MarshalTodo and MarshalCategory write v under the key pk, sk.
func MarshalUser(pk, sk string, v User) (ddb.Item, error) { return marshalUser(itemKey{pk, sk}, v) }

func MarshalTodo(pk, sk string, v Todo) (ddb.Item, error) { return marshalTodo(itemKey{pk, sk}, v) }

func MarshalCategory(pk, sk string, v Category) (ddb.Item, error) {
	return marshalCategory(itemKey{pk, sk}, v)
}

// ValidUsername reports whether the stores take username.
func ValidUsername(username string) bool { return validateUsername(username) == nil }

// ApplyPatch is t with p applied, as UpdateTodo applies it.
func ApplyPatch(t Todo, p TodoPatch) Todo { return p.apply(t) }
