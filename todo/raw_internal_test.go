package todo

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// TestMarshalMatches holds the direct marshalling to what
// attributevalue.MarshalMap makes of the item structs, which it replaced.
func TestMarshalMatches(t *testing.T) {
	at := time.Date(2024, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	k := itemKey{"user#alice", "todo#x"}
	cases := []struct {
		name       string
		got        func() (ddb.Item, error)
		wantStruct any
	}{
		{"user", func() (ddb.Item, error) {
			return marshalUser(itemKey{usersPK, "alice"}, User{Username: "alice", Email: "a@example.com"})
		},
			userItem{PK: usersPK, SK: "alice", Username: "alice", Email: "a@example.com"}},
		{"todo", func() (ddb.Item, error) {
			return marshalTodo(k, Todo{ID: "x", Title: "t", Description: "d", Priority: PriorityHigh, Completed: true,
				CategoryID: "c", CreatedAt: at, UpdatedAt: at.Add(time.Second)})
		}, todoItem{PK: k.pk, SK: k.sk, ID: "x", EntityType: entityTodo, Title: "t", Description: "d", Priority: "high",
			Completed: true, CategoryID: "c", CreatedAt: keys.Timestamp(at), UpdatedAt: keys.Timestamp(at.Add(time.Second))}},
		{"todo with empty fields", func() (ddb.Item, error) { return marshalTodo(k, Todo{ID: "x"}) },
			todoItem{PK: k.pk, SK: k.sk, ID: "x", EntityType: entityTodo, CreatedAt: keys.Timestamp(time.Time{}),
				UpdatedAt: keys.Timestamp(time.Time{})}},
		{"category", func() (ddb.Item, error) {
			return marshalCategory(k, Category{ID: "x", Name: "n", Color: ColorDark, CreatedAt: at, UpdatedAt: at})
		}, categoryItem{PK: k.pk, SK: k.sk, ID: "x", EntityType: entityCategory, Name: "n", Color: "dark",
			CreatedAt: keys.Timestamp(at), UpdatedAt: keys.Timestamp(at)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.got()
			if err != nil {
				t.Fatal(err)
			}
			want, err := attributevalue.MarshalMap(c.wantStruct)
			if err != nil {
				t.Fatal(err)
			}
			if !ddb.ItemsEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// TestDecodeFastMatchesSlow holds the fast decoding path to the
// reflection one for the items it takes.
func TestDecodeFastMatchesSlow(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	full := ddb.Item{"pk": s("user#alice"), "sk": s("todo#x"), "id": s("x"), "entity_type": s("todo"), "title": s("t"),
		"description": s("d"), "priority": s("low"), "completed": &types.AttributeValueMemberBOOL{Value: true},
		"category_id": s("c"), "created_at": s("2024-01-01T00:00:00.000Z"), "updated_at": s("2024-01-02T00:00:00Z"),
		"name": s("n"), "color": s("info"), "username": s("u"), "email": s("e"), "other": &types.AttributeValueMemberN{Value: "1"}}
	sparse := ddb.Item{"pk": s("user#alice"), "sk": s("todo#y")}
	for _, item := range []ddb.Item{full, sparse} {
		var u userItem
		var td todoItem
		var c categoryItem
		if !u.fast(item) || !td.fast(item) || !c.fast(item) {
			t.Fatalf("fast path refused %v", item)
		}
		su, err1 := decodeSlow[userItem](table("t"), item)
		st, err2 := decodeSlow[todoItem](table("t"), item)
		sc, err3 := decodeSlow[categoryItem](table("t"), item)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatal(err1, err2, err3)
		}
		if u != su || td != st || c != sc {
			t.Errorf("fast %v %v %v, slow %v %v %v", u, td, c, su, st, sc)
		}
	}
	// Other types leave the item to the slow path.
	for _, item := range []ddb.Item{
		{"title": &types.AttributeValueMemberNULL{Value: true}},
		{"completed": s("true")},
		{"title": &types.AttributeValueMemberN{Value: "1"}},
	} {
		var td todoItem
		if td.fast(item) {
			t.Errorf("fast path took %v", item)
		}
	}
}
