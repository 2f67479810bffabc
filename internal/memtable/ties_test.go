package memtable_test

import (
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

// row is an item of TestTieOrderOfDynamoDBLocal: base key and index sort
// key (gpk is "G" throughout).
type row struct{ pk, sk, gsk string }

// TestTieOrderOfDynamoDBLocal pins, for every shape of index key, the order
// DynamoDB Local (2026-05-28) returned for a Query of one index partition
// (ScanIndexForward, no Limit), recorded: the first ten entries, with runs
// of equal index sort keys (or no index sort key at all, where every entry
// ties). A Query of a memtable made by New for the same index must
// return them in the same order, forward and backward.
func TestTieOrderOfDynamoDBLocal(t *testing.T) {
	tests := []struct {
		name  string
		sk    string // the base table's sort key attribute, "" for none
		ix    ddb.Index
		part  string
		order []row
	}{
		{name: "GGG (gpk, gsk) of a table with a sort key", sk: "SK", ix: ddb.Index{Name: "GGG", PartitionKey: "gpk", SortKey: "gsk"}, part: "G", order: []row{{"é", "9", "A"}, {"a", "x", "A"}, {"x", "#", "A"}, {"~", "x", "A"}, {"ab", "x", "A"}, {"TASK#10", "b", "A"}, {"TASK#1", "é", "A"}, {"A", "日本", "A"}, {"10", "TASK#1", "A"}, {"TASK#1", "ab", "A"}}},
		{name: "PPP (PK, gsk) of a table with a sort key", sk: "SK", ix: ddb.Index{Name: "PPP", PartitionKey: "PK", SortKey: "gsk"}, part: "a", order: []row{{"a", "x", "A"}, {"a", "TASK#1", "A"}, {"a", "a#", "A"}, {"a", "日本", "a"}}},
		{name: "SSS (gsk, PK) of a table with a sort key", sk: "SK", ix: ddb.Index{Name: "SSS", PartitionKey: "gsk", SortKey: "PK"}, part: "a", order: []row{{"#", "A", "a"}, {"10", "b", "a"}, {"10", "A", "a"}, {"10", "a", "a"}, {"9", "b", "a"}, {"9", "#", "a"}, {"A", "TASK#10", "a"}, {"A", "b", "a"}, {"A", "#", "a"}, {"A", "ab", "a"}}},
		{name: "HHH (gpk, -) of a table with a sort key", sk: "SK", ix: ddb.Index{Name: "HHH", PartitionKey: "gpk", SortKey: ""}, part: "G", order: []row{{"ab", "a#", "a"}, {"é", "9", "A"}, {"9", "A", "b"}, {"10", "b", "a"}, {"TASK#10", "~", "a"}, {"9", "~", "b"}, {"日本", "ab", "a"}, {"#", "TASK#1", "b"}, {"#", "#", "b"}, {"a", "x", "A"}}},
		{name: "QQQ (gpk, SK) of a table with a sort key", sk: "SK", ix: ddb.Index{Name: "QQQ", PartitionKey: "gpk", SortKey: "SK"}, part: "G", order: []row{{"9", "#", "a"}, {"x", "#", "A"}, {"TASK#10", "#", "A"}, {"b", "#", "a"}, {"#", "#", "b"}, {"é", "#", "b"}, {"A", "#", "a"}, {"x", "10", "a"}, {"TASK#10", "10", "a"}, {"~", "10", "A"}}},
		{name: "RRR (SK, gsk) of a table with a sort key", sk: "SK", ix: ddb.Index{Name: "RRR", PartitionKey: "SK", SortKey: "gsk"}, part: "b", order: []row{{"TASK#10", "b", "A"}, {"#", "b", "A"}, {"ab", "b", "A"}, {"a#", "b", "A"}, {"9", "b", "a"}, {"TASK#1", "b", "a"}, {"10", "b", "a"}, {"日本", "b", "a"}, {"A", "b", "a"}, {"é", "b", "b"}}},
		{name: "TTT (SK, -) of a table with a sort key", sk: "SK", ix: ddb.Index{Name: "TTT", PartitionKey: "SK", SortKey: ""}, part: "a", order: []row{{"9", "a", "A"}, {"b", "a", "a"}, {"TASK#1", "a", "b"}, {"10", "a", "a"}}},
		{name: "GGG (gpk, gsk) of a table without a sort key", sk: "", ix: ddb.Index{Name: "GGG", PartitionKey: "gpk", SortKey: "gsk"}, part: "G", order: []row{{"9", "", "A"}, {"x", "", "A"}, {"~", "", "A"}, {"é", "", "A"}, {"TASK#10", "", "a"}, {"TASK#1", "", "a"}, {"ab", "", "a"}, {"10", "", "a"}, {"a#", "", "a"}, {"A", "", "a"}}},
		{name: "HHH (gpk, -) of a table without a sort key", sk: "", ix: ddb.Index{Name: "HHH", PartitionKey: "gpk", SortKey: ""}, part: "G", order: []row{{"9", "", "A"}, {"x", "", "A"}, {"TASK#10", "", "a"}, {"b", "", "b"}, {"#", "", "b"}, {"~", "", "A"}, {"TASK#1", "", "a"}, {"ab", "", "a"}, {"10", "", "a"}, {"é", "", "A"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := ddb.Table{Name: "probe", PartitionKey: "PK", SortKey: tt.sk}
			q := ddb.KeyQuery{Table: tb, Index: tt.ix, PartitionValue: tt.part}
			m := memtable.New[row](tb, tt.ix)
			// Put in reverse, so that no order of insertion is mistaken
			// for the order of ties.
			for _, r := range slices.Backward(tt.order) {
				it := ddb.Item{"PK": ddb.S(r.pk), "gpk": ddb.S("G"), "gsk": ddb.S(r.gsk)}
				if tt.sk != "" {
					it["SK"] = ddb.S(r.sk)
				}
				m.Put(attr(it, tt.ix.PartitionKey), attr(it, tt.ix.SortKey), q.CursorKey(it), r)
			}
			for _, desc := range []bool{false, true} {
				q.Descending = desc
				want := slices.Clone(tt.order)
				if desc {
					slices.Reverse(want)
				}
				for _, limit := range []int{1, 3, 100} {
					checkPages(t, walk(t, m, q, limit, nil), want, limit)
				}
			}
		})
	}
}

func attr(it ddb.Item, name string) string {
	if s, ok := it[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}
