package ddb_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// sortKeyRunes are what random sort keys are made of: separators, letters,
// the smallest character, and multi-byte characters that share lead bytes
// ("é" and "ÿ" both start with 0xC3). Keys are valid UTF-8, as DynamoDB
// String keys are.
var sortKeyRunes = []string{"#", "a", "b", "z", "~", "\x00", "é", "ÿ", "\uffff", "\U0010ffff"}

func randomSortKey(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(5) {
		b.WriteString(sortKeyRunes[r.IntN(len(sortKeyRunes))])
	}
	return b.String()
}

// randomOperand returns a random string, often a key of keys or a byte
// prefix of one (which may cut a character), so that conditions hit
// boundaries.
func randomOperand(r *rand.Rand, keys []string) string {
	if len(keys) == 0 || r.IntN(3) == 0 {
		return randomSortKey(r)
	}
	k := keys[r.IntN(len(keys))]
	if r.IntN(2) == 0 {
		return k[:r.IntN(len(k)+1)]
	}
	return k
}

func randomCond(r *rand.Rand, keys []string) ddb.SortCond {
	a, b := randomOperand(r, keys), randomOperand(r, keys)
	switch r.IntN(8) {
	case 0:
		return ddb.SortEq(a)
	case 1:
		return ddb.SortBeginsWith(a)
	case 2:
		return ddb.SortBetween(a, b) // sometimes a > b: an empty range
	case 3:
		return ddb.SortLT(a)
	case 4:
		return ddb.SortLE(a)
	case 5:
		return ddb.SortGT(a)
	case 6:
		return ddb.SortGE(a)
	}
	return ddb.SortCond{}
}

// sortEntry is an entry of a sorted partition: a sort key and the
// tie-breaker of an index entry, its ddb.KeyString.
type sortEntry struct{ sk, tie string }

func compareEntries(a, b sortEntry) int {
	if c := strings.Compare(a.sk, b.sk); c != 0 {
		return c
	}
	return strings.Compare(a.tie, b.tie)
}

// seekWalk walks es (sorted) the way memtable does: from the point Seek
// returns, in the direction, while Match holds.
func seekWalk(c ddb.SortCond, es []sortEntry, descending bool) []sortEntry {
	sk, tie, ok := c.Seek(descending)
	from := sortEntry{sk, tie}
	var out []sortEntry
	if !descending {
		i := 0
		if ok {
			i, _ = slices.BinarySearchFunc(es, from, compareEntries)
		}
		for ; i < len(es) && c.Match(es[i].sk); i++ {
			out = append(out, es[i])
		}
		return out
	}
	i := len(es) - 1
	if ok {
		// The last entry at or before the point.
		n, found := slices.BinarySearchFunc(es, from, compareEntries)
		i = n - 1
		if found {
			i = n
		}
	}
	for ; i >= 0 && c.Match(es[i].sk); i-- {
		out = append(out, es[i])
	}
	return out
}

// checkSeek asserts that a walk from Seek in either direction visits
// exactly the entries Match accepts.
func checkSeek(t *testing.T, c ddb.SortCond, es []sortEntry) {
	t.Helper()
	var want []sortEntry
	for _, e := range es {
		if c.Match(e.sk) {
			want = append(want, e)
		}
	}
	if got := seekWalk(c, es, false); !slices.Equal(got, want) {
		t.Fatalf("%v ascending on %q: walk from Seek visits %q, want %q", c, es, got, want)
	}
	slices.Reverse(want)
	if got := seekWalk(c, es, true); !slices.Equal(got, want) {
		t.Fatalf("%v descending on %q: walk from Seek visits %q, want %q", c, es, got, want)
	}
}

// entries returns sorted entries for keys, each sort key tied with up to two
// others that differ in their table key.
func entries(r *rand.Rand, keys []string) []sortEntry {
	var es []sortEntry
	for i, k := range keys {
		for j := range 1 + r.IntN(3) {
			es = append(es, sortEntry{k, ddb.KeyString(ddb.Item{"pk": ddb.S("p"), "sk": ddb.S(fmt.Sprint(i, j))})})
		}
	}
	slices.SortFunc(es, compareEntries) // bytewise, as DynamoDB orders String keys
	return es
}

func TestSortCondSeekAgreesWithMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(20240601, 7))
	for range 20000 {
		keys := make([]string, r.IntN(30))
		for i := range keys {
			keys[i] = randomSortKey(r)
		}
		checkSeek(t, randomCond(r, keys), entries(r, keys))
	}
}

func TestSortCondMatch(t *testing.T) {
	// Sorted bytewise: "é" is 0xC3 0xA9, "ÿ" 0xC3 0xBF.
	keys := []string{"", "a", "a#", "a#1", "a#2", "ab", "aé", "aÿ", "aÿ\x00", "b", "b#1", "é", "ÿ", "\U0010ffff"}
	if !slices.IsSorted(keys) {
		t.Fatalf("keys %q are not sorted", keys)
	}
	tests := []struct {
		name string
		c    ddb.SortCond
		want []string
	}{
		{name: "any", c: ddb.SortCond{}, want: keys},
		{name: "eq", c: ddb.SortEq("a#1"), want: []string{"a#1"}},
		{name: "eq missing", c: ddb.SortEq("a#0")},
		{name: "begins_with", c: ddb.SortBeginsWith("a#"), want: []string{"a#", "a#1", "a#2"}},
		{name: "begins_with empty", c: ddb.SortBeginsWith(""), want: keys},
		{name: "begins_with a multi-byte character", c: ddb.SortBeginsWith("aÿ"), want: []string{"aÿ", "aÿ\x00"}},
		{name: "begins_with half a character", c: ddb.SortBeginsWith("\xc3"), want: []string{"é", "ÿ"}},
		{name: "begins_with the largest character", c: ddb.SortBeginsWith("\U0010ffff"), want: []string{"\U0010ffff"}},
		{name: "between inclusive", c: ddb.SortBetween("a#1", "ab"), want: []string{"a#1", "a#2", "ab"}},
		{name: "between reversed", c: ddb.SortBetween("b", "a")},
		{name: "between one", c: ddb.SortBetween("b", "b"), want: []string{"b"}},
		{name: "lt", c: ddb.SortLT("a#"), want: []string{"", "a"}},
		{name: "le", c: ddb.SortLE("a#"), want: []string{"", "a", "a#"}},
		{name: "gt", c: ddb.SortGT("b#1"), want: []string{"é", "ÿ", "\U0010ffff"}},
		{name: "ge", c: ddb.SortGE("b#1"), want: []string{"b#1", "é", "ÿ", "\U0010ffff"}},
	}
	r := rand.New(rand.NewPCG(1, 1))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, k := range keys {
				if tt.c.Match(k) {
					got = append(got, k)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%v matches %q, want %q", tt.c, got, tt.want)
			}
			checkSeek(t, tt.c, entries(r, keys))
			checkSeek(t, tt.c, nil)
		})
	}
}

func TestSortCondStringDistinct(t *testing.T) {
	conds := []ddb.SortCond{
		{}, ddb.SortEq(""), ddb.SortEq("a"), ddb.SortBeginsWith("a"), ddb.SortLT("a"), ddb.SortLE("a"),
		ddb.SortGT("a"), ddb.SortGE("a"), ddb.SortBetween("a", "b"), ddb.SortBetween("b", "a"),
		ddb.SortBetween("a:", "b"), ddb.SortBetween("a", ":b"), ddb.SortBetween("a", ""), ddb.SortBeginsWith("a:"),
		ddb.SortBetween("1:a", "b"), ddb.SortBetween("", "1:a"),
	}
	seen := make(map[string]int)
	for i, c := range conds {
		s := c.String()
		if j, dup := seen[s]; dup {
			t.Errorf("conditions %d and %d both print %q", j, i, s)
		}
		seen[s] = i
		// Equal conditions print the same.
		if again := fmt.Sprint(c); again != s {
			t.Errorf("condition %d prints %q and %q", i, s, again)
		}
	}
}
