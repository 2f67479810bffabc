package backend_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
)

// fuzzTable has a GSI, so that Import's index entries are exercised.
var (
	fuzzIndex = ddb.Index{Name: "G", PartitionKey: "GK", SortKey: "GS"}
	fuzzTable = backend.Table{Table: ddb.Table{Name: "t", PartitionKey: "PK", SortKey: "SK"}, Indexes: []ddb.Index{fuzzIndex}, TTL: "exp"}
)

// fuzzRow is what fuzzDecoder decodes: the layout of a domain's item.
type fuzzRow struct {
	PK   string   `dynamodbav:"PK"`
	Name string   `dynamodbav:"name"`
	N    int      `dynamodbav:"n"`
	Tags []string `dynamodbav:"tags"`
}

var fuzzDecoder = backend.NewDecoder(func(t ddb.Table, item ddb.Item) (fuzzRow, error) {
	var r fuzzRow
	err := ddb.Unmarshal(t, item, &r)
	return r, err
}, func(r fuzzRow) fuzzRow { r.Tags = slices.Clone(r.Tags); return r })

// FuzzMemoryImport imports any item, beside a good one, into the memory
// backend: an item whose keys are not non-empty Strings, or that holds a
// nil value, is ErrCorruptItem and nothing is imported (never a panic);
// an item accepted is exported unchanged, listed by a Query of its
// partition and of its index partition, and decodes (backend.Decode,
// through the memory backend's cache) to what a fresh decode gives, or
// the same ErrCorruptItem.
func FuzzMemoryImport(f *testing.F) {
	good := ddb.Item{"PK": ddb.S("p"), "SK": ddb.S("a"), "GK": ddb.S("g"), "GS": ddb.S("1"), "name": ddb.S("x"), "n": &types.AttributeValueMemberN{Value: "3"},
		"tags": &types.AttributeValueMemberL{Value: []types.AttributeValue{ddb.S("t")}}}
	f.Add(fuzzcheck.Encode(good))
	for _, shape := range fuzzcheck.Shapes(good) {
		f.Add(fuzzcheck.Encode(shape))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzcheck.MaxInput {
			return
		}
		item := fuzzcheck.Item(data)
		m := backend.NewMemory(func() time.Time { return time.Unix(1e9, 0) }, fuzzTable)
		other := ddb.CloneItem(good)
		other["SK"] = ddb.S("other")
		err := m.Import("t", []ddb.Item{other, item})
		ok := ddb.CheckAttrs(fuzzTable.Table, item) == nil && fuzzcheck.Stored(item, "PK", "SK")
		if err != nil {
			fuzzcheck.Error(t, err, ddbkit.ErrCorruptItem, fuzzcheck.Strings(item, "PK", "SK")...)
			if ok {
				t.Fatalf("Import refused a storable item: %v", err)
			}
			if got := m.Export("t"); len(got) != 0 {
				t.Fatalf("a refused Import stored %d items", len(got))
			}
			return
		}
		if !ok {
			t.Fatalf("Import accepted an item no table holds: %v", item)
		}
		exp := m.Export("t")
		if !slices.ContainsFunc(exp, func(it ddb.Item) bool { return reflect.DeepEqual(it, item) }) {
			t.Fatalf("Export does not return the imported item")
		}
		ctx := t.Context()
		pk, _ := backend.Str(item, "PK")
		items, _, err := m.Query(ctx, ddb.KeyQuery{Table: fuzzTable.Table, PartitionValue: pk}, 10, "", backend.Filter{})
		if err != nil {
			t.Fatalf("Query of the partition: %v", err)
		}
		found := slices.ContainsFunc(items, func(it ddb.Item) bool { return reflect.DeepEqual(it, item) })
		if exp, isNum := item["exp"].(*types.AttributeValueMemberN); !found && !isNum {
			t.Fatalf("Query of partition %q does not list the imported item (TTL %v)", pk, exp)
		}
		if gk, ok := backend.Str(item, "GK"); ok {
			if _, _, err := m.Query(ctx, ddb.KeyQuery{Table: fuzzTable.Table, Index: fuzzIndex, PartitionValue: gk}, 10, "", backend.Filter{}); err != nil {
				t.Fatalf("Query of the index: %v", err)
			}
		}
		for _, it := range items {
			cached, cerr := backend.Decode(m, fuzzTable.Table, it, fuzzDecoder)
			fresh, ferr := backend.Decode(nil, fuzzTable.Table, it, fuzzDecoder)
			if (cerr == nil) != (ferr == nil) || !reflect.DeepEqual(cached, fresh) {
				t.Fatalf("Decode through the cache = %+v, %v; fresh = %+v, %v", cached, cerr, fresh, ferr)
			}
			if cerr != nil {
				fuzzcheck.Error(t, cerr, ddbkit.ErrCorruptItem, fuzzcheck.Strings(it, "PK", "SK")...)
				continue
			}
			// A caller's change to its copy is its own.
			if len(cached.Tags) > 0 {
				cached.Tags[0] += "changed"
			}
			if again, _ := backend.Decode(m, fuzzTable.Table, it, fuzzDecoder); !reflect.DeepEqual(again, fresh) {
				t.Fatalf("a change to a decoded value reached the cache: %+v", again)
			}
		}
		page, err := backend.DecodePage(m, fuzzTable.Table, items, "", fuzzDecoder, nil)
		if err != nil || len(page.Items)+len(page.Skipped) != len(items) {
			t.Fatalf("DecodePage = %d items, %d skipped, %v; want %d in all", len(page.Items), len(page.Skipped), err, len(items))
		}
	})
}
