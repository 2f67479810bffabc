package backend

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestPayload holds a write's payload, sized without building items, to
// the sizes of the items it stands for: its key, its change's values (an
// attribute set twice counting its last value once), its condition's
// expected item and each argument of its filter under its index.
func TestPayload(t *testing.T) {
	tables := []ddb.Table{
		{Name: "t", PartitionKey: "PK", SortKey: "SK"},
		{Name: "h", PartitionKey: "id"},
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var u Change
	u.Set("name", s("白シャツ"))
	u.Set("name", s("黒シャツ（長袖）"))
	u.Add("wearCount", 1)
	u.SetOnce("createdAt", s("2026-11-26T09:00:00.000Z"))
	u.Remove("deletedAt")
	u.Set("tags", &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a"), s("bb")}})
	var f []Filter
	for i := range 12 { // two-digit argument names
		f = append(f, Equal(fmt.Sprint("a", i), s(strings.Repeat("x", i))))
	}
	want := ddb.Item{"status": s("ACTIVE"), "n": &types.AttributeValueMemberN{Value: "12345"}}
	k := Key{PK: "WARDROBE#w1", SK: "CLOTH#c1"}
	for _, tb := range tables {
		for _, w := range []Write{
			Update("update", tb, k, u, Exists(want)),
			Update("update when", tb, k, u, When(And(f...))),
			Delete("delete", tb, k, want),
			Remove("remove", tb, k),
			Check("check", tb, k, want),
			CheckWhen("check when", tb, k, When(Greater("n", &types.AttributeValueMemberN{Value: "3"}))),
		} {
			n := ddb.ItemSize(w.key.Item(w.Table)) + ddb.ItemSize(w.change.Values()) + ddb.ItemSize(w.cond.want) + 64
			for i, v := range w.cond.where.args(nil) {
				n += ddb.ItemSize(ddb.Item{fmt.Sprint(i): v})
			}
			if got := w.payload(); got != n {
				t.Errorf("%s on %s: payload %d, want %d", w.Label, tb.Name, got, n)
			}
		}
	}
}
