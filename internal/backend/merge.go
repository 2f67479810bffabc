package backend

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// Merged is a listing that merges several partitions of one table or
// index, each read by its own Query, into the order one partition's Query
// would give them: a sharded layout's partitions, and the seed's
// unsharded partition beside them. Every Query has the same table, index,
// sort condition and direction, and its sort key is a String or Binary.
type Merged struct {
	// Queries are the partitions, in a fixed order: the order breaks a tie
	// between two partitions' items of equal sort key and tie-breaker,
	// which one partition could not hold (the base table's keys of two
	// partitions).
	Queries []ddb.KeyQuery
	// Listing names the merged listing, for the binding of its cursors: a
	// cursor of one Listing (or of another Queries) is ErrInvalidCursor
	// in another. The caller puts in it what its Queries depend on beyond
	// their partitions (the list, its sort condition, the shard count).
	Listing string
}

// MaxMergedQueries bounds the Queries of one merged page in flight at
// once on DynamoDB.
const MaxMergedQueries = 16

// attrMergedListing and attrMergedPositions are the key attributes of a
// merged cursor's binding, and the positions' attribute in its key; no
// item has them.
const (
	attrMergedListing   = "mergedListing"
	attrMergedPositions = "mergedPositions"
)

// maxPositionBytes bounds one partition's position in a merged cursor, as
// JSON: its key attributes, each at most DynamoDB's 2 KB of a key (1 KB
// for a sort key), escaped.
const maxPositionBytes = 16 << 10

// mergedRead is one partition's Query of a merged page.
type mergedRead struct {
	items []ddb.Item
	front ddb.Item // where the Query stopped, when items do not end the partition
	err   error
}

// MergePage returns up to limit items of m's partitions, filtered by f,
// in the order of one Query of a partition holding them all (sort key,
// then the index's tie order, as package memtable and DynamoDB Local
// order ties; descending reverses both), and the cursor of the next page,
// "" exactly when no partition holds an item past the page.
//
// It makes one Query per partition, each from the partition's position
// and for limit items, concurrently on DynamoDB (up to MaxMergedQueries
// at once): len(m.Queries) Queries per page. Filtered (f, or a table's
// TTL), each Query evaluates at most max(ceil(budget/partitions),
// limit+1) items, budget being the first Query's (ddb.DefaultBudget if
// unset): a page's work stays near one unmerged page's budget, and an
// unfiltered page is always full. A partition whose Query stopped at its
// budget bounds the page: no item past where it stopped is listed until a
// later page reads past it, so a filtered page may be short, or empty,
// with a Next cursor, as an unmerged filtered page may.
//
// The cursor holds every partition's position (the key of its last item
// listed, or of where its Query stopped) in one ddb cursor, tagged as a
// whole with the table's CursorSecret and bound to the table, m.Listing,
// the partitions and f. Each position is rebuilt as a key of its own
// partition, so a cursor forged without a secret reads nothing outside
// the partitions.
func MergePage(ctx context.Context, b Backend, m Merged, limit int, cursor string, f Filter) ([]ddb.Item, string, error) {
	if len(m.Queries) == 0 {
		return nil, "", fmt.Errorf("backend: a merged listing of no partitions")
	}
	if limit < 1 {
		return nil, "", ddbkit.Invalid("limit", "must be at least 1, got %d", limit)
	}
	n := len(m.Queries)
	obs.From(ctx).Shards(n)
	budget := m.Queries[0].Budget
	if budget <= 0 {
		budget = ddb.DefaultBudget
	}
	budget = max((budget+n-1)/n, limit+1)
	qs := make([]ddb.KeyQuery, n)
	for i, q := range m.Queries {
		q.Budget = budget
		qs[i] = q
	}
	bound := make([]ddb.KeyQuery, n) // as the backend binds each partition's cursors
	for i, q := range qs {
		q.Filter = bindingOf(b, q.Table, f)
		bound[i] = q
	}
	mq := m.cursorQuery(bound)
	pos, err := m.decode(mq, bound, cursor)
	if err != nil {
		return nil, "", err
	}
	reads := make([]mergedRead, n)
	read := func(i int) {
		cur := ""
		if pos[i] != nil {
			if cur, reads[i].err = ddb.EncodeCursor(bound[i], pos[i]); reads[i].err != nil {
				return
			}
		}
		var next string
		reads[i].items, next, reads[i].err = b.Query(ctx, qs[i], limit, cur, f)
		if reads[i].err == nil && next != "" {
			reads[i].front, reads[i].err = ddb.DecodeCursor(bound[i], next)
		}
	}
	if _, mem := b.(*Memory); mem || n == 1 {
		// No I/O to overlap: goroutines would cost more than the queries.
		for i := range qs {
			read(i)
		}
	} else {
		var wg sync.WaitGroup
		sem := make(chan struct{}, MaxMergedQueries)
		for i := range qs {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				read(i)
			}()
		}
		wg.Wait()
	}
	for _, r := range reads {
		if r.err != nil { // the first partition's, in order: the same on every run
			return nil, "", r.err
		}
	}
	items, more := mergeReads(qs, reads, pos, limit)
	if !more {
		return items, "", nil
	}
	next, err := m.encode(mq, bound, pos)
	return items, next, err
}

// mergeKey is what orders an item, or a position, in a merged listing.
type mergeKey struct {
	sk, tie string
	part    int
}

// mergeOrder compares a and b in the listing's direction.
func mergeOrder(a, b mergeKey, desc bool) int {
	c := 0
	switch {
	case a.sk != b.sk:
		c = cmpStr(a.sk, b.sk)
	case a.tie != b.tie:
		c = cmpStr(a.tie, b.tie)
	}
	if desc {
		c = -c
	}
	if c == 0 {
		c = a.part - b.part
	}
	return c
}

func cmpStr(a, b string) int {
	if a < b {
		return -1
	}
	return 1
}

// sortValue is the bytes of a String or Binary key attribute, compared
// bytewise as DynamoDB compares both.
func sortValue(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberB:
		return string(v.Value)
	}
	return ""
}

// mergeReads takes the first limit items of reads in the listing's order,
// moves pos past what each partition gave, and reports whether any
// partition holds more. A partition whose items are all taken and whose
// Query stopped short of its end bounds the page at where it stopped.
func mergeReads(qs []ddb.KeyQuery, reads []mergedRead, pos []ddb.Item, limit int) ([]ddb.Item, bool) {
	q := qs[0]
	sortAttr, desc := q.SortAttr(), q.Descending
	ties := memtable.New[struct{}](q.Table, q.Index)
	keyOf := func(i int, item ddb.Item) mergeKey {
		k := mergeKey{sk: sortValue(item[sortAttr]), part: i}
		if q.Index.Name != "" {
			k.tie = ties.Tie(item)
		}
		return k
	}
	heads := make([]int, len(reads))
	headKeys := make([]*mergeKey, len(reads))
	head := func(i int) mergeKey {
		if headKeys[i] == nil {
			k := keyOf(i, reads[i].items[heads[i]])
			headKeys[i] = &k
		}
		return *headKeys[i]
	}
	fronts := make([]*mergeKey, len(reads))
	for i, r := range reads {
		if r.front != nil {
			k := keyOf(i, r.front)
			fronts[i] = &k
		}
	}
	var out []ddb.Item
	for len(out) < limit {
		best := -1
		var bestKey mergeKey
		for i, r := range reads {
			if heads[i] == len(r.items) {
				continue
			}
			if k := head(i); best < 0 || mergeOrder(k, bestKey, desc) < 0 {
				best, bestKey = i, k
			}
		}
		if best < 0 {
			break
		}
		// A partition that stopped short, all its items taken, may hold
		// items before the best one past where it stopped.
		stop := false
		for i, r := range reads {
			if heads[i] == len(r.items) && fronts[i] != nil && mergeOrder(*fronts[i], bestKey, desc) < 0 {
				stop = true
				break
			}
		}
		if stop {
			break
		}
		it := reads[best].items[heads[best]]
		out = append(out, it)
		pos[best] = qs[best].CursorKey(it)
		heads[best]++
		headKeys[best] = nil
	}
	more := false
	for i, r := range reads {
		if heads[i] == len(r.items) && r.front != nil {
			pos[i] = r.front // every item it gave is listed: go on from where it stopped
		}
		if heads[i] < len(r.items) || r.front != nil {
			more = true
		}
	}
	return out, more
}

// bindingOf is the filter binding b's Query gives a cursor of table t
// filtered by f (see binding).
func bindingOf(b Backend, t ddb.Table, f Filter) string {
	switch b := b.(type) {
	case *Dynamo:
		return binding(Table{Table: t, TTL: b.tables.ttl(t.Name)}, f)
	case *Memory:
		if mt := b.tables[t.Name]; mt != nil {
			return binding(mt.t, f)
		}
	}
	return binding(Table{Table: t}, f)
}

// cursorQuery is what a merged cursor is bound to, through
// ddb.EncodeCursor's tag: the table (and its secret) under key attributes
// no item has, the listing, and every partition's binding. It differs
// from every partition's own binding, so no cursor of one is accepted by
// another.
func (m Merged) cursorQuery(bound []ddb.KeyQuery) ddb.KeyQuery {
	t := bound[0].Table
	parts := make([][4]string, len(bound))
	for i, q := range bound {
		parts[i] = [4]string{q.Index.Name, q.PartitionValue, strconv.FormatBool(q.Descending), q.Filter}
	}
	js, _ := json.Marshal(parts)
	tb := ddb.Table{Name: t.Name, PartitionKey: attrMergedListing, SortKey: attrMergedPositions, CursorSecret: t.CursorSecret}
	// The listing is bound through the filter, so that the cursor's key
	// holds one letter of it.
	return ddb.KeyQuery{Table: tb, PartitionValue: "m", Filter: "merged " + strconv.Quote(m.Listing) + " " + string(js)}
}

// A partition's position in a merged cursor is its key attributes but the
// partition's, in the order of its Query's KeyAttrs, each as its type's
// letter and its value ("S<string>", "N<number>", "B<base64>"); a
// partition not started is empty. Names are left out: the Query gives
// them.
func (m Merged) encode(mq ddb.KeyQuery, bound []ddb.KeyQuery, pos []ddb.Item) (string, error) {
	packed := make([][]string, len(pos))
	for i, k := range pos {
		packed[i] = []string{}
		if k == nil {
			continue
		}
		pa := bound[i].PartitionAttr()
		for _, a := range bound[i].KeyAttrs() {
			if a == pa {
				continue
			}
			switch v := k[a].(type) {
			case *types.AttributeValueMemberS:
				packed[i] = append(packed[i], "S"+v.Value)
			case *types.AttributeValueMemberN:
				packed[i] = append(packed[i], "N"+v.Value)
			case *types.AttributeValueMemberB:
				packed[i] = append(packed[i], "B"+base64.StdEncoding.EncodeToString(v.Value))
			default:
				return "", fmt.Errorf("backend: merged position attribute %q has type %T; keys are S, N or B", a, v)
			}
		}
	}
	js, err := json.Marshal(packed)
	if err != nil {
		return "", err
	}
	// Deflated: positions repeat their prefixes and times, and a cursor
	// of 64 positions shrinks to about a third.
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	w.Write(js)
	if err := w.Close(); err != nil {
		return "", err
	}
	return ddb.EncodeCursor(mq, ddb.Item{attrMergedListing: ddb.S(mq.PartitionValue),
		attrMergedPositions: ddb.S(base64.RawStdEncoding.EncodeToString(z.Bytes()))})
}

// decode returns the positions a merged cursor holds, one per partition
// (nil: not started). The tag (checked by ddb.DecodeCursor) makes any
// cursor not issued for this listing ErrInvalidCursor; the checks after it
// hold against a cursor forged without a CursorSecret: each position is
// rebuilt under its own partition's key, with exactly the key attributes
// of the partition's Query.
func (m Merged) decode(mq ddb.KeyQuery, bound []ddb.KeyQuery, cursor string) ([]ddb.Item, error) {
	pos := make([]ddb.Item, len(bound))
	k, err := ddb.DecodeCursor(mq, cursor)
	if err != nil || k == nil {
		return pos, err
	}
	bad := func(what string) error {
		return fmt.Errorf("%w: malformed %s; restart the listing without a cursor", ddbkit.ErrInvalidCursor, what)
	}
	s, _ := Str(k, attrMergedPositions)
	z, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, bad("merged positions")
	}
	// Inflated within a bound: a cursor forged without a secret cannot
	// make a page inflate more than its positions can hold.
	js, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), int64(len(bound))*maxPositionBytes+2))
	var packed [][]string
	if err != nil || json.Unmarshal(js, &packed) != nil || len(packed) != len(bound) {
		return nil, bad("merged positions")
	}
	for i, p := range packed {
		if len(p) == 0 {
			continue
		}
		q := bound[i]
		pa := q.PartitionAttr()
		var attrs []string
		for _, a := range q.KeyAttrs() {
			if a != pa {
				attrs = append(attrs, a)
			}
		}
		if len(p) != len(attrs) {
			return nil, bad("merged position")
		}
		item := ddb.Item{pa: ddb.S(q.PartitionValue)}
		for j, a := range attrs {
			if p[j] == "" {
				return nil, bad("merged position")
			}
			switch typ, val := p[j][0], p[j][1:]; typ {
			case 'S':
				item[a] = ddb.S(val)
			case 'N':
				item[a] = &types.AttributeValueMemberN{Value: val}
			case 'B':
				raw, err := base64.StdEncoding.DecodeString(val)
				if err != nil {
					return nil, bad("merged position")
				}
				item[a] = &types.AttributeValueMemberB{Value: raw}
			default:
				return nil, bad("merged position")
			}
		}
		pos[i] = item
	}
	return pos, nil
}
