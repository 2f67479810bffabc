package todo

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// This file holds the item layouts and their codecs, which the operations
// (store.go) use for both stores, and MemoryStore's Export and Import of
// the items they write: Import checks items with the decode functions the
// stores read with, so the layouts cannot drift apart.

// The item layouts, attribute for attribute as the seed gives them, each
// with the one codec that writes and reads it. Writes encode them whole;
// reads decode them leniently (see decodeTodo).
type userItem struct {
	PK       string `dynamodbav:"pk"`
	SK       string `dynamodbav:"sk"`
	Username string `dynamodbav:"username"`
	Email    string `dynamodbav:"email"`
}

type todoItem struct {
	PK          string `dynamodbav:"pk"`
	SK          string `dynamodbav:"sk"`
	ID          string `dynamodbav:"id"`
	EntityType  string `dynamodbav:"entity_type"`
	Title       string `dynamodbav:"title"`
	Description string `dynamodbav:"description"`
	Priority    string `dynamodbav:"priority"`
	Completed   bool   `dynamodbav:"completed"`
	CategoryID  string `dynamodbav:"category_id"`
	CreatedAt   string `dynamodbav:"created_at"`
	UpdatedAt   string `dynamodbav:"updated_at"`
}

type categoryItem struct {
	PK         string `dynamodbav:"pk"`
	SK         string `dynamodbav:"sk"`
	ID         string `dynamodbav:"id"`
	EntityType string `dynamodbav:"entity_type"`
	Name       string `dynamodbav:"name"`
	Color      string `dynamodbav:"color"`
	CreatedAt  string `dynamodbav:"created_at"`
	UpdatedAt  string `dynamodbav:"updated_at"`
}

var (
	userCodec     = ddb.NewCodec[userItem]()
	todoCodec     = ddb.NewCodec[todoItem]()
	categoryCodec = ddb.NewCodec[categoryItem]()
)

// Writes are exact: every attribute of the seed's layout, in its format,
// empty strings included.

func marshalUser(k itemKey, u User) (ddb.Item, error) {
	return userCodec.Encode(&userItem{PK: k.pk, SK: k.sk, Username: u.Username, Email: u.Email})
}

func marshalTodo(k itemKey, t Todo) (ddb.Item, error) {
	return todoCodec.Encode(&todoItem{PK: k.pk, SK: k.sk, ID: t.ID, EntityType: entityTodo, Title: t.Title,
		Description: t.Description, Priority: string(t.Priority), Completed: t.Completed, CategoryID: t.CategoryID,
		CreatedAt: keys.Timestamp(t.CreatedAt), UpdatedAt: keys.Timestamp(t.UpdatedAt)})
}

func marshalCategory(k itemKey, c Category) (ddb.Item, error) {
	return categoryCodec.Encode(&categoryItem{PK: k.pk, SK: k.sk, ID: c.ID, EntityType: entityCategory, Name: c.Name,
		Color: string(c.Color), CreatedAt: keys.Timestamp(c.CreatedAt), UpdatedAt: keys.Timestamp(c.UpdatedAt)})
}

// Reads are lenient: identities come from the key (the "id" and "username"
// attributes are only kept for the seed's older code), missing attributes
// read as zero values, timestamps may be any ISO 8601 form, and an
// attribute of another type is what attributevalue makes of it (NULL is
// the zero value, a Number a string). An attribute it cannot decode, an
// unparsable timestamp or a key outside the layout make the item corrupt
// (ddbkit.ErrCorruptItem).

func decodeUser(tbl ddb.Table, item ddb.Item) (User, error) {
	var it userItem
	if err := userCodec.Decode(tbl, item, &it); err != nil {
		return User{}, err
	}
	if it.SK == "" {
		return User{}, ddb.Corrupt(tbl, item, AttrSK, "a user's sort key is its username, got an empty one")
	}
	return User{Username: it.SK, Email: it.Email}, nil
}

func decodeTodo(tbl ddb.Table, item ddb.Item, username string) (Todo, error) {
	var it todoItem
	if err := todoCodec.Decode(tbl, item, &it); err != nil {
		return Todo{}, err
	}
	id, err := idOf(tbl, item, it.SK, todoSKPrefix)
	if err != nil {
		return Todo{}, err
	}
	created, updated, err := times(tbl, item, it.CreatedAt, it.UpdatedAt)
	return Todo{ID: id, Username: username, Title: it.Title, Description: it.Description,
		Priority: Priority(it.Priority), Completed: it.Completed, CategoryID: it.CategoryID,
		CreatedAt: created, UpdatedAt: updated}, err
}

func decodeCategory(tbl ddb.Table, item ddb.Item, username string) (Category, error) {
	var it categoryItem
	if err := categoryCodec.Decode(tbl, item, &it); err != nil {
		return Category{}, err
	}
	id, err := idOf(tbl, item, it.SK, categorySKPref)
	if err != nil {
		return Category{}, err
	}
	created, updated, err := times(tbl, item, it.CreatedAt, it.UpdatedAt)
	return Category{ID: id, Username: username, Name: it.Name, Color: Color(it.Color),
		CreatedAt: created, UpdatedAt: updated}, err
}

// The decoders of the items the stores read (see backend.Decoder): a
// memory store decodes each item it holds once. A user's todos and
// categories take the username from their own partition key, the one
// every read of them names.
var (
	userDecoder     = backend.NewDecoder(decodeUser, nil)
	todoDecoder     = backend.NewDecoder(func(t ddb.Table, item ddb.Item) (Todo, error) { return decodeTodo(t, item, owner(item)) }, nil)
	categoryDecoder = backend.NewDecoder(func(t ddb.Table, item ddb.Item) (Category, error) {
		return decodeCategory(t, item, owner(item))
	}, nil)
	recordDecoder = backend.NewDecoder(func(t ddb.Table, item ddb.Item) (Record, error) {
		return decodeRecord(t, item, owner(item))
	}, Record.clone)
)

// owner is the username in item's partition key, user#{username}.
func owner(item ddb.Item) string {
	pk, _ := item[AttrPK].(*types.AttributeValueMemberS)
	if pk == nil {
		return ""
	}
	username, _ := strings.CutPrefix(pk.Value, userPKPrefix+keys.Sep)
	return username
}

// clone copies the values r points to, so that a caller's change to them
// stays its own.
func (r Record) clone() Record {
	if r.Todo != nil {
		t := *r.Todo
		r.Todo = &t
	}
	if r.Category != nil {
		c := *r.Category
		r.Category = &c
	}
	return r
}

// decodeRecord takes the item's kind from its sort key, as ListTodos and
// ListCategories do, whatever entity_type says or whether it is there. An
// item of another kind is backend.ErrSkip: the seed expects new entity
// types in a user's partition, and a reader that predates them skips them.
func decodeRecord(tbl ddb.Table, item ddb.Item, username string) (Record, error) {
	sk, _ := item[AttrSK].(*types.AttributeValueMemberS)
	switch {
	case sk == nil:
		return Record{}, backend.ErrSkip
	case strings.HasPrefix(sk.Value, todoSKPrefix+keys.Sep):
		t, err := decodeTodo(tbl, item, username)
		return Record{Todo: &t}, err
	case strings.HasPrefix(sk.Value, categorySKPref+keys.Sep):
		c, err := decodeCategory(tbl, item, username)
		return Record{Category: &c}, err
	}
	return Record{}, backend.ErrSkip
}

// idOf returns the ID in sort key sk, "{prefix}#{id}".
func idOf(tbl ddb.Table, item ddb.Item, sk, prefix string) (string, error) {
	id, ok := strings.CutPrefix(sk, prefix+keys.Sep)
	if !ok || id == "" {
		return "", ddb.Corrupt(tbl, item, AttrSK, "want %s%s{id}, got %q", prefix, keys.Sep, sk)
	}
	return id, nil
}

// times parses created_at and updated_at; a missing one is the zero time.
func times(tbl ddb.Table, item ddb.Item, created, updated string) (c, u time.Time, err error) {
	if c, err = parseTime(tbl, item, attrCreatedAt, created); err != nil {
		return c, u, err
	}
	if updated == created {
		return c, c, nil // a todo or category never updated: parse once
	}
	u, err = parseTime(tbl, item, attrUpdatedAt, updated)
	return c, u, err
}

func parseTime(tbl ddb.Table, item ddb.Item, attr, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := keys.ParseTime(v)
	if err != nil {
		return time.Time{}, ddb.Corrupt(tbl, item, attr, "want an ISO 8601 date and time such as 2024-01-01T00:00:00.000Z, got %q", v)
	}
	return t, nil
}

// Export returns every item the store holds in DynamoDB's attribute-value
// form, exactly as DynamoStore writes them (and as Import took them), under
// the store's table name, in key order: partition key, then sort key,
// bytewise. The items are copies.
func (s *MemoryStore) Export() ddbkit.TableItems {
	return ddbkit.TableItems{s.o.TableName: s.m.Export(s.o.TableName)}
}

// Import adds items in the seed's layout, as another program or DynamoStore
// writes them, to the store: for example items exported from a production
// table, or a fixture. It decodes them as leniently as DynamoStore reads
// them (any ISO 8601 time, missing optional attributes, IDs from the keys),
// and keeps them as they are, so Export returns them unchanged and an
// update changes only what DynamoStore's would. An item whose key is in the
// store replaces it. Items of kinds this package does not know are kept,
// and left out of listings as DynamoStore leaves them out.
//
// Import returns ErrInvalidArgument for items of a table other than the
// store's, and ErrCorruptItem (a *ddbkit.CorruptItemError naming the table,
// key and attribute) for an item DynamoStore could not read either, or
// whose key attributes are not strings; it then imports nothing.
func (s *MemoryStore) Import(items ddbkit.TableItems) error {
	const op = "import"
	var in []ddb.Item
	for _, table := range slices.Sorted(maps.Keys(items)) {
		if table != s.o.TableName {
			return wrap(op, ddbkit.Invalid("items", "table %q is not the store's table %q", table, s.o.TableName))
		}
		for _, item := range items[table] {
			if err := readable(s.t, item); err != nil {
				return wrap(op, err)
			}
			in = append(in, item)
		}
	}
	return wrap(op, s.m.Import(s.o.TableName, in))
}

// readable reports an item of the table that DynamoStore could not read at
// its key, as a *ddbkit.CorruptItemError.
func readable(tbl ddb.Table, item ddb.Item) error {
	// A nil value (only an item built by hand holds one) is corrupt, not
	// a panic later.
	if err := ddb.CheckAttrs(tbl, item); err != nil {
		return err
	}
	var k itemKey
	for _, a := range []struct {
		name string
		to   *string
	}{{tbl.PartitionKey, &k.pk}, {tbl.SortKey, &k.sk}} {
		v, ok := item[a.name].(*types.AttributeValueMemberS)
		if !ok {
			return ddb.Corrupt(tbl, item, a.name, "want a string key attribute, got %s", ddb.AttrString(item[a.name]))
		}
		*a.to = v.Value
	}
	var err error
	username, inUserData := strings.CutPrefix(k.pk, userPKPrefix+keys.Sep)
	switch {
	case k.pk == usersPK:
		_, err = decodeUser(tbl, item)
	case inUserData && strings.HasPrefix(k.sk, todoSKPrefix+keys.Sep):
		_, err = decodeTodo(tbl, item, username)
	case inUserData && strings.HasPrefix(k.sk, categorySKPref+keys.Sep):
		_, err = decodeCategory(tbl, item, username)
	}
	return err
}
