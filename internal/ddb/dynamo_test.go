package ddb_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

func attrS(name string) types.AttributeDefinition {
	return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
}

func keySchema(pk, sk string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange},
	}
}

// keyTable creates a table of name keyed by pk and sk, and returns its
// name.
func keyTable(t *testing.T, c *dynamodb.Client, name string) string {
	t.Helper()
	return ddbtest.NewTable(t, c, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{attrS("pk"), attrS("sk")},
		KeySchema:            keySchema("pk", "sk"),
	})
}

// equivTable creates a table (pk, sk) with two GSIs projecting all
// attributes: "gsi" (gpk, gsk), whose sort keys tie, and "gsi-unique" (gpk,
// usk), whose sort keys are unique. It returns the client and the ddb
// descriptions.
func equivTable(t *testing.T) (*dynamodb.Client, ddb.Table, ddb.Index, ddb.Index) {
	t.Helper()
	c := ddbtest.Client(t)
	gsi := func(name, pk, sk string) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{
			IndexName:  aws.String(name),
			KeySchema:  keySchema(pk, sk),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}
	}
	name := ddbtest.NewTable(t, c, &dynamodb.CreateTableInput{
		TableName:              aws.String("ddb-equivalence"),
		AttributeDefinitions:   []types.AttributeDefinition{attrS("pk"), attrS("sk"), attrS("gpk"), attrS("gsk"), attrS("usk")},
		KeySchema:              keySchema("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("gsi", "gpk", "gsk"), gsi("gsi-unique", "gpk", "usk")},
	})
	return c, ddb.Table{Name: name, PartitionKey: "pk", SortKey: "sk"},
		ddb.Index{Name: "gsi", PartitionKey: "gpk", SortKey: "gsk"},
		ddb.Index{Name: "gsi-unique", PartitionKey: "gpk", SortKey: "usk"}
}

// equivItems returns 63 items: 60 in partition "P" (50 in GSI partition "G",
// 7 in "H", 3 in neither index) and 3 in partition "Q" (in "G"). Sort keys
// share prefixes, gsk values tie often, usk values (gsk#pk#sk) never, and n
// cycles through 0, 1, 2.
func equivItems() []ddb.Item {
	r := rand.New(rand.NewPCG(60, 1))
	const alphabet = "abcz019#~"
	prefixes := []string{"a#", "b#", "a", "b", "c#", "é#", "a#b#", "~"}
	gsks := []string{"g#1", "g#2", "g#10", "g#2#x", "g", "h", "h#", "é"}
	seen := map[string]bool{}
	var items []ddb.Item
	for i := 0; len(items) < 63; i++ {
		pk := "P"
		if len(items) >= 60 {
			pk = "Q"
		}
		suffix := make([]byte, 1+r.IntN(6))
		for j := range suffix {
			suffix[j] = alphabet[r.IntN(len(alphabet))]
		}
		sk := prefixes[r.IntN(len(prefixes))] + string(suffix)
		if seen[pk+"\x00"+sk] {
			continue
		}
		seen[pk+"\x00"+sk] = true
		n := len(items)
		it := ddb.Item{
			"pk": ddb.S(pk), "sk": ddb.S(sk),
			"n": &types.AttributeValueMemberN{Value: fmt.Sprint(n % 3)},
			"v": ddb.S(fmt.Sprintf("item %d", n)),
		}
		switch {
		case n < 50 || n >= 60:
			it["gpk"], it["gsk"] = ddb.S("G"), ddb.S(gsks[r.IntN(len(gsks))])
		case n < 57:
			it["gpk"], it["gsk"] = ddb.S("H"), ddb.S(gsks[r.IntN(len(gsks))])
		}
		if _, ok := it["gpk"]; ok {
			it["usk"] = ddb.S(str(it, "gsk") + "#" + pk + "#" + sk)
		}
		items = append(items, it)
	}
	return items
}

func str(it ddb.Item, attr string) string {
	if s, ok := it[attr].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// label names an item in messages: its table key, and its GSI sort key.
func label(it ddb.Item) string {
	return fmt.Sprintf("%s/%s(gsk=%s)", str(it, "pk"), str(it, "sk"), str(it, "gsk"))
}

func labels(its []ddb.Item) []string {
	ls := make([]string, len(its))
	for i, it := range its {
		ls[i] = label(it)
	}
	return ls
}

// onlyTies reports whether a and b hold the same items with the same
// sequence of sort key values, so that they differ only in the order of
// items with equal sort keys.
func onlyTies(a, b []ddb.Item, sortAttr string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if str(a[i], sortAttr) != str(b[i], sortAttr) {
			return false
		}
	}
	la, lb := labels(a), labels(b)
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}

// TestQueryPageMatchesMemtable pages through DynamoDB Local with QueryPage
// and through a mirror in memtable with the same KeyQuery, and requires the
// same items, page boundaries and cursors.
func TestQueryPageMatchesMemtable(t *testing.T) {
	c, table, gsi, unique := equivTable(t)
	ctx := t.Context()
	items := equivItems()

	// Written through unprocessed-item faults, which must not lose anything.
	fc := ddbtest.NewFaultClient(c)
	fc.Inject("BatchWriteItem", ddbtest.Unprocessed, 2)
	wc := ddbtest.NewCountingClient(fc)
	reqs := make([]types.WriteRequest, len(items))
	for i, it := range items {
		reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
	}
	if err := ddb.BatchWrite(ctx, wc, table, reqs, ddb.Backoff{}); err != nil {
		t.Fatalf("BatchWrite() error = %v", err)
	}
	// 63 writes: two faulted calls write one of 25 each, then 61 in 25+25+11.
	if got, want := wc.Count("BatchWriteItem"), 5; got != want {
		t.Errorf("BatchWrite made %d BatchWriteItem calls, want %d", got, want)
	}

	baseQ := ddb.KeyQuery{Table: table, PartitionValue: "P"}
	gsiQ := ddb.KeyQuery{Table: table, Index: gsi, PartitionValue: "G"}
	uniqueQ := ddb.KeyQuery{Table: table, Index: unique, PartitionValue: "G"}
	base, index, uniqueIndex := memtable.New[ddb.Item](table, ddb.Index{}), memtable.New[ddb.Item](table, gsi), memtable.New[ddb.Item](table, unique)
	for _, it := range items {
		base.Put(str(it, "pk"), str(it, "sk"), baseQ.CursorKey(it), it)
		if _, ok := it["gpk"]; ok {
			index.Put(str(it, "gpk"), str(it, "gsk"), gsiQ.CursorKey(it), it)
			uniqueIndex.Put(str(it, "gpk"), str(it, "usk"), uniqueQ.CursorKey(it), it)
		}
	}

	keep := func(it ddb.Item) bool { return it["n"].(*types.AttributeValueMemberN).Value != "0" }
	filter := &ddb.Filter{Shape: "n != 0", Args: []types.AttributeValue{&types.AttributeValueMemberN{Value: "0"}},
		Cond: func(first int) expression.ConditionBuilder { return expression.Name("n").NotEqual(ddb.Param(first)) }}

	targets := []struct {
		name  string
		q     ddb.KeyQuery
		m     *memtable.Table[ddb.Item]
		conds []ddb.SortCond
		// ties: the index's sort keys repeat. DynamoDB documents no order
		// for equal index sort keys (DynamoDB Local's is a digest of the
		// base key, which memtable follows and backendtest's Ties cases
		// hold exactly), so here only the order up to ties and the page
		// sizes are compared; every seed makes its index sort keys unique
		// (they end in the item's ID) for this reason.
		ties bool
	}{
		{name: "table", q: baseQ, m: base, conds: []ddb.SortCond{
			{}, ddb.SortBeginsWith("a#"), ddb.SortBetween("a#b", "c#"), ddb.SortGT("b"), ddb.SortLE("a#z"),
			ddb.SortEq("b"), ddb.SortLT("b"), ddb.SortGE("a#z"),
		}},
		{name: "gsi", q: gsiQ, m: index, ties: true, conds: []ddb.SortCond{
			{}, ddb.SortBeginsWith("g#"), ddb.SortBetween("g#10", "h"), ddb.SortGT("g#2"), ddb.SortLE("g#2#x"),
			ddb.SortEq("g#2"), ddb.SortLT("g#2"), ddb.SortGE("g#2#x"),
		}},
		{name: "gsi-unique", q: uniqueQ, m: uniqueIndex, conds: []ddb.SortCond{
			{}, ddb.SortBeginsWith("g#"), ddb.SortBetween("g#10", "h"), ddb.SortGT("g#2"), ddb.SortLE("g#2#x"),
			ddb.SortEq("g#2"), ddb.SortLT("g#2"), ddb.SortGE("g#2#x"),
		}},
	}
	// Every condition runs with and without a filter: without one, the key
	// condition is prepared once per shape (keyCondition); with one, built.
	condNames := []string{"all", "begins_with", "between", "gt", "le", "eq", "lt", "ge"}
	for _, tg := range targets {
		for ci, cond := range tg.conds {
			for _, desc := range []bool{false, true} {
				for _, limit := range []int{1, 7, 60, 100} {
					// budget -1: no filter; 0: the default budget; 5: a
					// budget smaller than most pages' reads, so that pages
					// end at it, short or empty, on both pagers alike.
					for _, budget := range []int{-1, 0, 5} {
						filtered := budget >= 0
						if budget > 0 && tg.ties {
							// Which items a budget reaches depends on the
							// order of ties, which DynamoDB leaves undefined.
							continue
						}
						name := fmt.Sprintf("%s/%s/desc=%t/limit=%d/filter=%t/budget=%d", tg.name, condNames[ci], desc, limit, filtered, max(budget, 0))
						t.Run(name, func(t *testing.T) {
							t.Parallel()
							q := tg.q
							q.Sort, q.Descending = cond, desc
							var (
								f *ddb.Filter
								k func(ddb.Item) bool
							)
							if filtered {
								f, k = filter, keep
								q.Budget = budget
							}
							comparePages(t, ctx, c, tg.m, q, limit, f, k, items, tg.ties)
						})
					}
				}
			}
		}
	}

	t.Run("BatchGet with a projection", func(t *testing.T) {
		keys := []ddb.Item{table.KeyOf(items[0]), table.KeyOf(items[1]), table.Key("P", "missing")}
		proj := ddb.MustPrepare(expression.NewBuilder().WithProjection(
			expression.NamesList(expression.Name("pk"), expression.Name("sk"), expression.Name("v"))))
		got, err := ddb.BatchGet(ctx, c, table, keys, ddb.BatchGetOptions{Projection: proj})
		if err != nil {
			t.Fatalf("BatchGet() error = %v", err)
		}
		for i, want := range []ddb.Item{items[0], items[1], nil} {
			if want == nil {
				if got[i] != nil {
					t.Errorf("result %d = %v, want nil", i, got[i])
				}
				continue
			}
			if len(got[i]) != 3 || str(got[i], "v") != str(want, "v") || str(got[i], "sk") != str(want, "sk") {
				t.Errorf("result %d = %v, want only pk, sk and v of %v", i, got[i], want)
			}
		}
		noKey := ddb.MustPrepare(expression.NewBuilder().WithProjection(expression.NamesList(expression.Name("v"))))
		if _, err := ddb.BatchGet(ctx, c, table, keys, ddb.BatchGetOptions{Projection: noKey}); !errors.Is(err, ddbkit.ErrInvalidArgument) {
			t.Errorf("BatchGet with a projection without the keys = %v, want ErrInvalidArgument", err)
		}
	})

	t.Run("BatchGet through unprocessed faults", func(t *testing.T) {
		fc := ddbtest.NewFaultClient(c)
		fc.Inject("BatchGetItem", ddbtest.Unprocessed, 3)
		cc := ddbtest.NewCountingClient(fc)
		var keys []ddb.Item
		for _, it := range items {
			keys = append(keys, table.KeyOf(it))
		}
		keys = append(keys, table.Key("P", "missing"), table.KeyOf(items[5]), table.Key("nope", "x"))
		got, err := ddb.BatchGet(ctx, cc, table, keys, ddb.BatchGetOptions{ConsistentRead: true})
		if err != nil {
			t.Fatalf("BatchGet() error = %v", err)
		}
		want := append(slices.Clone(items), nil, items[5], nil)
		if len(got) != len(want) {
			t.Fatalf("BatchGet() returned %d results, want %d", len(got), len(want))
		}
		for i := range want {
			if (got[i] == nil) != (want[i] == nil) || (want[i] != nil && (label(got[i]) != label(want[i]) || str(got[i], "v") != str(want[i], "v"))) {
				t.Errorf("result %d = %v, want %v", i, got[i], want[i])
			}
		}
		// 65 distinct keys in one chunk: three faulted calls read one key
		// each, then one call reads the other 62.
		if got := fc.Injected("BatchGetItem"); got != 3 {
			t.Errorf("%d faults fired, want 3", got)
		}
		if got, want := cc.Count("BatchGetItem"), 4; got != want {
			t.Errorf("BatchGet made %d BatchGetItem calls, want %d", got, want)
		}
	})
}

// walked is one page of a walk.
type walked struct {
	items []ddb.Item
	next  string
	calls int // Query calls it cost; 0 for memtable
}

// walkAll pages through a listing with fetch until Next is "".
func walkAll(t *testing.T, what string, maxPages int, fetch func(cursor string) (walked, error)) []walked {
	t.Helper()
	var pages []walked
	cursor := ""
	for {
		p, err := fetch(cursor)
		if err != nil {
			t.Fatalf("%s: page %d: %v", what, len(pages)+1, err)
		}
		pages = append(pages, p)
		if p.next == "" {
			return pages
		}
		if len(pages) > maxPages {
			t.Fatalf("%s: more than %d pages", what, maxPages)
		}
		cursor = p.next
	}
}

func flatten(pages []walked) []ddb.Item {
	var all []ddb.Item
	for _, p := range pages {
		all = append(all, p.items...)
	}
	return all
}

// comparePages walks q on DynamoDB and on m, each following its own cursors,
// and requires the same pages: items, boundaries and cursors.
func comparePages(t *testing.T, ctx context.Context, c *dynamodb.Client, m *memtable.Table[ddb.Item], q ddb.KeyQuery,
	limit int, filter *ddb.Filter, keep func(ddb.Item) bool, all []ddb.Item, ties bool) {
	t.Helper()
	cc := ddbtest.NewCountingClient(c)
	dPages := walkAll(t, "DynamoDB", 2*len(all)+1, func(cursor string) (walked, error) {
		before := cc.Count("Query")
		items, next, err := ddb.QueryPage(ctx, cc, fastPolicy, q, limit, cursor, filter)
		return walked{items, next, cc.Count("Query") - before}, err
	})
	mPages := walkAll(t, "memtable", 2*len(all)+1, func(cursor string) (walked, error) {
		items, next, err := m.Query(q, limit, cursor, keep)
		return walked{items: items, next: next}, err
	})
	dAll, mAll := flatten(dPages), flatten(mPages)

	if len(dPages) != len(mPages) {
		t.Errorf("DynamoDB walk has %d pages, memtable %d", len(dPages), len(mPages))
	}
	// Report the first differing page in full, and how many others differ.
	itemDiffs, nextDiffs := 0, 0
	for i := range min(len(dPages), len(mPages)) {
		d, mp := dPages[i], mPages[i]
		if ties {
			if len(d.items) != len(mp.items) {
				t.Errorf("page %d holds %d items on DynamoDB, %d on memtable", i+1, len(d.items), len(mp.items))
			}
			if (d.next == "") != (mp.next == "") {
				t.Errorf("page %d: DynamoDB Next %q, memtable Next %q: want both empty or both set", i+1, d.next, mp.next)
			}
			continue
		}
		if !slices.Equal(labels(d.items), labels(mp.items)) {
			if itemDiffs++; itemDiffs == 1 {
				t.Errorf("page %d differs:\ndynamodb %q\nmemtable %q", i+1, labels(d.items), labels(mp.items))
			}
		}
		if d.next != mp.next {
			if nextDiffs++; nextDiffs == 1 {
				t.Errorf("page %d: Next differs:\ndynamodb %q\nmemtable %q", i+1, d.next, mp.next)
			}
		}
		if filter == nil && d.calls != 1 {
			t.Errorf("page %d without a filter cost %d Query calls, want 1", i+1, d.calls)
		}
	}
	if itemDiffs > 1 || nextDiffs > 1 {
		t.Errorf("in all, %d of %d pages differ in items and %d in Next", itemDiffs, len(dPages), nextDiffs)
	}
	if ties && !onlyTies(dAll, mAll, q.SortAttr()) {
		t.Errorf("the walks differ beyond tie order:\ndynamodb %q\nmemtable %q", labels(dAll), labels(mAll))
	}
	if itemDiffs+nextDiffs > 0 {
		if onlyTies(dAll, mAll, q.SortAttr()) {
			t.Errorf("the walks differ only in the order of items with equal %s", q.SortAttr())
		} else {
			t.Errorf("the walks differ beyond tie order:\ndynamodb %q\nmemtable %q", labels(dAll), labels(mAll))
		}
	}

	// Each walk is in its backend's one-page order: cursors neither skip
	// nor repeat items, ties included. A page's budget would end the one
	// page early; the walk's items do not depend on it.
	q.Budget = len(all) + 1
	one, next, err := ddb.QueryPage(ctx, c, fastPolicy, q, ddbkit.MaxPageLimit, "", filter)
	if err != nil || next != "" {
		t.Fatalf("QueryPage(one page) = (%d items, %q, %v), want every item at once", len(one), next, err)
	}
	if !slices.Equal(labels(dAll), labels(one)) {
		t.Errorf("DynamoDB pages hold %q, its single page %q", labels(dAll), labels(one))
	}
	mOne, _, err := m.Query(q, ddbkit.MaxPageLimit, "", keep)
	if err != nil || !slices.Equal(labels(mAll), labels(mOne)) {
		t.Errorf("memtable pages hold %q, its single page %q (error %v)", labels(mAll), labels(mOne), err)
	}

	// The walks are what the query selects, not just equal to each other.
	want := 0
	for _, it := range all {
		_, inIndex := it[q.PartitionAttr()]
		if !inIndex || str(it, q.PartitionAttr()) != q.PartitionValue {
			continue
		}
		if q.Sort.Match(str(it, q.SortAttr())) && (keep == nil || keep(it)) {
			want++
		}
	}
	if len(dAll) != want || len(mAll) != want {
		t.Errorf("walks hold %d (DynamoDB) and %d (memtable) items, want %d", len(dAll), len(mAll), want)
	}
}

// TestTxDynamoDB runs transactions against DynamoDB Local, so the decoding
// of cancellations is checked against what DynamoDB really returns.
func TestTxDynamoDB(t *testing.T) {
	c := ddbtest.Client(t)
	name := keyTable(t, c, "ddb-tx")
	tbl := ddb.Table{Name: name, PartitionKey: "pk", SortKey: "sk"}
	ctx := t.Context()

	var create ddb.Tx
	create.PutPrepared("x", tbl, item("p", "x"), notExistsP).Put("y", tbl, item("p", "y"))
	if err := create.Exec(ctx, c); err != nil {
		t.Fatalf("Exec(create) error = %v", err)
	}

	t.Run("condition failed", func(t *testing.T) {
		var tx ddb.Tx
		tx.UpdatePrepared("bump y", tbl, tbl.Key("p", "y"), setVP).
			PutPrepared("create x again", tbl, ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("x"), "v": ddb.S("other")}, notExistsP).
			DeletePrepared("remove z", tbl, tbl.Key("p", "z"), existsP)
		err := tx.Exec(ctx, c)
		var ce *ddb.TxCanceledError
		if !errors.As(err, &ce) {
			t.Fatalf("Exec() error = %v, want a *TxCanceledError", err)
		}
		var codes []string
		for _, r := range ce.Reasons {
			codes = append(codes, r.Label+":"+r.Code)
		}
		want := []string{"bump y:None", "create x again:ConditionalCheckFailed", "remove z:ConditionalCheckFailed"}
		if !slices.Equal(codes, want) {
			t.Errorf("reasons = %q, want %q", codes, want)
		}
		old, failed := ddb.ConditionFailed(err, "create x again")
		if !failed || str(old, "v") != str(item("p", "x"), "v") {
			t.Errorf("ConditionFailed(create x again) = (%v, %t), want the stored item and true", old, failed)
		}
		if old, failed := ddb.ConditionFailed(err, "remove z"); !failed || old != nil {
			t.Errorf("ConditionFailed(remove z) = (%v, %t), want (nil, true): it did not exist", old, failed)
		}
		if errors.Is(err, ddbkit.ErrConflict) {
			t.Error("errors.Is(err, ErrConflict) = true for failed conditions, want false")
		}
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			t.Error("errors.As(err, *types.TransactionCanceledException) = false, want true")
		}
	})

	t.Run("retry through conflicts", func(t *testing.T) {
		tests := []struct {
			name      string
			fault     ddbtest.Fault
			faults    int
			wantErr   error
			wantCalls int
		}{
			{name: "conflicts then success", fault: ddbtest.TxConflict, faults: 2, wantCalls: 3},
			{name: "throttled then success", fault: ddbtest.Throttle, faults: 2, wantCalls: 3},
			{name: "conflicts beyond the attempts", fault: ddbtest.TxConflict, faults: 10, wantErr: ddbkit.ErrConflict, wantCalls: 4},
			{name: "internal error is not retried", fault: ddbtest.InternalError, faults: 10, wantCalls: 1},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				fc := ddbtest.NewFaultClient(c)
				fc.Inject("TransactWriteItems", tt.fault, tt.faults)
				cc := ddbtest.NewCountingClient(fc)
				err := ddb.RetryIf(ctx, ddb.Backoff{Attempts: 4, Base: time.Millisecond, Max: 5 * time.Millisecond}, ddb.Retryable, func() error {
					var tx ddb.Tx
					tx.UpdatePrepared("bump", tbl, tbl.Key("p", "y"), setVP)
					return tx.Exec(ctx, cc)
				})
				switch {
				case tt.fault == ddbtest.InternalError:
					var ise *types.InternalServerError
					if !errors.As(err, &ise) {
						t.Errorf("RetryIf() error = %v, want the InternalServerError", err)
					}
				case !errors.Is(err, tt.wantErr):
					t.Errorf("RetryIf() error = %v, want %v", err, tt.wantErr)
				}
				if got := cc.Count("TransactWriteItems"); got != tt.wantCalls {
					t.Errorf("%d TransactWriteItems calls, want %d", got, tt.wantCalls)
				}
			})
		}
	})
}

// TestItemCalls checks the single-item calls against DynamoDB Local:
// conditions hold or fail, and a failed write reports the item as it was
// (nil when there was none).
func TestItemCalls(t *testing.T) {
	c := ddbtest.Client(t)
	name := keyTable(t, c, "ddb-item")
	tbl := ddb.Table{Name: name, PartitionKey: "pk", SortKey: "sk"}
	ctx := t.Context()
	pk, v := expression.Name("pk"), expression.Name("v")
	key := tbl.Key("p", "x")
	setIfExists := ddb.MustPrepare(expression.NewBuilder().WithUpdate(expression.Set(v, ddb.Param(0))).WithCondition(expression.AttributeExists(pk)))
	setIfV := ddb.MustPrepare(expression.NewBuilder().WithUpdate(expression.Set(v, ddb.Param(0))).WithCondition(expression.Equal(v, ddb.Param(1))))

	if got, err := ddb.GetItem(ctx, c, tbl, key); err != nil || got != nil {
		t.Fatalf("GetItem(missing) = %v, %v; want nil, nil", got, err)
	}
	if err := ddb.PutItemPrepared(ctx, c, tbl, item("p", "x"), notExistsP); err != nil {
		t.Fatalf("PutItemPrepared = %v", err)
	}
	err := ddb.PutItemPrepared(ctx, c, tbl, ddb.Item{"pk": ddb.S("p"), "sk": ddb.S("x"), "v": ddb.S("other")}, notExistsP)
	var failed *types.ConditionalCheckFailedException
	if !ddb.IsConditionFailed(err) || !errors.As(err, &failed) || !ddb.ItemsEqual(failed.Item, item("p", "x")) {
		t.Fatalf("PutItemPrepared over an existing item = %v, want a failed condition holding the item as it was", err)
	}
	out, err := ddb.UpdateItemPrepared(ctx, c, tbl, key, types.ReturnValueAllNew, setIfExists, ddb.S("new"))
	if err != nil || str(out, "v") != "new" {
		t.Fatalf("UpdateItemPrepared = %v, %v; want v=new", out, err)
	}
	_, err = ddb.UpdateItemPrepared(ctx, c, tbl, key, types.ReturnValueNone, setIfV, ddb.S("newer"), ddb.S("old"))
	if !errors.As(err, &failed) || str(failed.Item, "v") != "new" {
		t.Fatalf("UpdateItemPrepared with a failing condition = %v; want the item as it was", err)
	}
	if got, err := ddb.GetItem(ctx, c, tbl, key); err != nil || str(got, "v") != "new" {
		t.Fatalf("GetItem = %v, %v; want v=new", got, err)
	}
	if _, err := ddb.DeleteItemPrepared(ctx, c, tbl, key, types.ReturnValueNone, existsP); err != nil {
		t.Fatalf("DeleteItemPrepared = %v", err)
	}
	_, err = ddb.DeleteItemPrepared(ctx, c, tbl, key, types.ReturnValueNone, existsP)
	if !ddb.IsConditionFailed(err) || !errors.As(err, &failed) || failed.Item != nil {
		t.Fatalf("DeleteItemPrepared of a missing item = %v, want a failed condition with no item", err)
	}
}
