package ddb_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestCursorGolden pins the cursors EncodeCursor issues, byte for byte:
// cursors are handed to callers, who may hold them across a deployment of
// a new ddbkit, so an optimization of the encoding must not change them.
func TestCursorGolden(t *testing.T) {
	// The secret of this case changed when secrets under 16 bytes were
	// refused (issue 20): a store with a 6-byte secret no longer issues
	// cursors at all. The encoding did not change.
	secret := curTable
	secret.CursorSecret = "s3cret-of-16-bytes+"
	want := map[string]string{
		"base table, S sort key":                        "AVtbInBrIiwiUyIsInVzZXIjMSJdLFsic2siLCJTIiwiYSMwMDAxIl1dZ0KdsNKfSsvOhH7NLJOg1g",
		"base table, sort condition, descending":        "AVtbInBrIiwiUyIsInVzZXIjMSJdLFsic2siLCJTIiwiYSNcInF1b3RlZFwiIFxcIMOpIOKYgyBcdTAwMDAgZW5kIl1dk4nppIz7rKbWUeUdiAIiYg",
		"partition key only":                            "AVtbImlkIiwiUyIsIm9ubHkiXV2UeSRdMhb6dlTARI_ngTjU",
		"index":                                         "AVtbImdwayIsIlMiLCJvd25lciM5Il0sWyJnc2siLCJTIiwiMjAyNC0wNiJdLFsicGsiLCJTIiwidXNlciMxIl0sWyJzayIsIlMiLCJ4Il1dJ3myqd8dvNAGtv-6UKq8jg",
		"inverted index sharing the table's attributes": "AVtbInBrIiwiUyIsInVzZXIjMSJdLFsic2siLCJTIiwieCJdXQ_XXh5SqkfbBkGSQkFrWmQ",
		"secret, filter, between":                       "AVtbImdwayIsIlMiLCJvIl0sWyJnc2siLCJTIiwiYTEiXSxbInBrIiwiUyIsIjEiXSxbInNrIiwiUyIsIjIiXV08VZh2TsXVc32BiuJ1e8-n",
	}
	cases := append(cursorCases(), cursorCase{name: "secret, filter, between",
		q:   ddb.KeyQuery{Table: secret, Index: curIndex, PartitionValue: "o", Sort: ddb.SortBetween("a", "b"), Filter: "tags:x"},
		key: ddb.Item{"pk": ddb.S("1"), "sk": ddb.S("2"), "gpk": ddb.S("o"), "gsk": ddb.S("a1")}})
	for _, c := range cases {
		got, err := ddb.EncodeCursor(c.q, c.key)
		if err != nil || got != want[c.name] {
			t.Errorf("%s: EncodeCursor = %q, %v; want %q", c.name, got, err, want[c.name])
		}
		if _, err := ddb.DecodeCursor(c.q, want[c.name]); err != nil {
			t.Errorf("%s: DecodeCursor(golden) = %v", c.name, err)
		}
	}
}
