package kondate_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
)

// TestRetryBound: under a client that always throttles, and one whose
// transactions always conflict, every operation makes at most MaxAttempts
// calls of each step and fails with ErrUnavailable or ErrConflict: one
// retry loop per call, and one budget per read-modify-write.
func TestRetryBound(t *testing.T) {
	const attempts = 3
	policy := func(o *kondate.Options) {
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: attempts, BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}
	}
	for _, tc := range []struct {
		name   string
		inject func(fc *ddbtest.FaultClient)
		want   error
	}{
		{"always throttled", func(fc *ddbtest.FaultClient) {
			fc.Always(ddbtest.Throttle)
		}, ddbkit.ErrUnavailable},
		{"always conflicting", func(fc *ddbtest.FaultClient) {
			fc.Always(ddbtest.TxConflict)
		}, ddbkit.ErrConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fc *ddbtest.FaultClient
			var cc *ddbtest.CountingClient
			s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
				fc = ddbtest.NewFaultClient(c)
				cc = ddbtest.NewCountingClient(fc)
				return cc
			}, deterministic, kondate.AllIndexes, policy)
			f := newFixture(t, s)
			tc.inject(fc)
			for _, call := range every(s, t.Context(), f) {
				cc.Reset()
				err := call.call()
				counts := cc.Counts()
				for op, n := range counts {
					// RecalculatePopularity queries twice (the entries, then
					// one entry's saves): two steps.
					steps := 1
					if call.name == "RecalculatePopularity" && op == "Query" {
						steps = 2
					}
					if n > attempts*steps {
						t.Errorf("%s: %d %s calls, want at most %d", call.name, n, op, attempts*steps)
					}
				}
				switch {
				case tc.want == ddbkit.ErrUnavailable:
					ddbtest.WantSentinel(t, call.name, err, ddbkit.ErrUnavailable)
				case counts["TransactWriteItems"] > 0:
					ddbtest.WantSentinel(t, call.name, err, ddbkit.ErrConflict)
					if counts["TransactWriteItems"] != attempts {
						t.Errorf("%s: %d transactions, want the %d attempts", call.name, counts["TransactWriteItems"], attempts)
					}
				}
			}
		})
	}
}

// TestCreateLostResponse: a create whose transaction commits but whose
// response is lost succeeds on its retry (same token), and writes exactly
// one item; another call's identical create still fails.
func TestCreateLostResponse(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	ctx := t.Context()
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	r, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "麻婆豆腐"})
	if err != nil {
		t.Fatalf("CreateRecipe with its response lost: %v", err)
	}
	if fc.Injected("TransactWriteItems") != 1 {
		t.Fatalf("the lost response was not injected")
	}
	p, err := s.ListRecipes(ctx, u, ddbkit.PageOptions{})
	if err != nil || len(p.Items) != 1 || p.Items[0].ID != r.ID {
		t.Fatalf("recipes after the lost response = %+v, %v; want exactly %s", p.Items, err, r.ID)
	}
}

// TestFilteredPageCapacity: a tag nobody uses, over a catalog of 2,000
// entries, costs one page's budget per call, not the catalog: a bounded
// number of Queries and read units, the same with a catalog twice the
// size; and paging on with Next ends and finds every match.
func TestFilteredPageCapacity(t *testing.T) {
	var cc *ddbtest.CapacityClient
	var count *ddbtest.CountingClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
		cc = ddbtest.NewCapacityClient(c)
		count = ddbtest.NewCountingClient(cc)
		return count
	}, deterministic, kondate.AllIndexes)
	ctx := t.Context()
	// The matches: the oldest entry and one in the middle.
	put := func(from, n int, tagged map[int]bool) {
		t.Helper()
		var reqs []types.WriteRequest
		for i := from; i < from+n; i++ {
			at := start.Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05.000Z")
			id := fmt.Sprintf("r_%06d", i)
			tag := "洋食"
			if tagged[i] {
				tag = "珍味"
			}
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"PK": str("CATALOG#RECIPE"), "SK": str("CREATED#" + at + "#" + id),
				"GSI1PK": str("ENTITY#RECIPE#" + id), "GSI1SK": str("PUBLIC#"),
				"GSI2PK": str("CATALOG#RECIPE"), "GSI2SK": str("SORT#NEWEST#" + at + "#" + id),
				"entityType": str("RECIPE"), "creatorId": str("u_writer"), "title": str("レシピ " + id),
				"tags":       &types.AttributeValueMemberL{Value: []types.AttributeValue{str(tag)}},
				"savedCount": &types.AttributeValueMemberN{Value: "0"}, "createdAt": str(at),
			}}})
		}
		for len(reqs) > 0 {
			chunk := reqs[:min(25, len(reqs))]
			reqs = reqs[len(chunk):]
			out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: chunk}})
			if err != nil {
				t.Fatal(err)
			}
			reqs = append(reqs, out.UnprocessedItems[table]...)
		}
	}
	tagged := map[int]bool{0: true, 1000: true}
	measure := func() (queries int, rcu float64) {
		count.Reset()
		got := cc.Measure(func() {
			if _, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 20}, Tag: "nobody"}); err != nil {
				t.Fatal(err)
			}
		})
		return count.Count("Query"), got.Read
	}
	put(0, 2000, tagged)
	q1, r1 := measure()
	// A budget of 1000 items: the first Query asks for 21, the follow-ups
	// for at least 100 each; items of about 200 bytes, eventually
	// consistent.
	if q1 > 12 || r1 > 40 {
		t.Fatalf("one page of an unused tag over 2,000 entries: %d Queries, %v RCU; want at most 12 and 40", q1, r1)
	}
	put(2000, 2000, nil)
	if q2, r2 := measure(); q2 != q1 || r2 > r1+1 {
		t.Fatalf("over 4,000 entries: %d Queries, %v RCU; over 2,000: %d, %v; want the same", q2, r2, q1, r1)
	}
	var found []string
	cursor, pages := "", 0
	for {
		p, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 20, Cursor: cursor}, Tag: "珍味"})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range p.Items {
			found = append(found, e.ID)
		}
		pages++
		if cursor = p.Next; cursor == "" {
			break
		}
		if pages > 10 {
			t.Fatalf("paging a tag over 4,000 entries did not end after %d pages", pages)
		}
	}
	if fmt.Sprint(found) != "[r_001000 r_000000]" {
		t.Fatalf("matches found paging on: %v, want r_001000 and r_000000", found)
	}
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

// TestImportNilAttribute: an item holding a nil attribute value, at the
// top or nested, is ErrCorruptItem, and nothing is imported.
func TestImportNilAttribute(t *testing.T) {
	s := kondate.NewMemoryStore()
	good := map[string]types.AttributeValue{"PK": str("USER#u_01"), "SK": str("SHOPPING#s_1"), "name": str("卵")}
	for _, tc := range []struct {
		name string
		item map[string]types.AttributeValue
	}{
		{"top", map[string]types.AttributeValue{"PK": str("USER#u_01"), "SK": str("SHOPPING#s_2"), "name": nil}},
		{"in a list", map[string]types.AttributeValue{"PK": str("USER#u_01"), "SK": str("RECIPE#r_1"), "title": str("x"),
			"steps": &types.AttributeValueMemberL{Value: []types.AttributeValue{nil}}}},
		{"in a map", map[string]types.AttributeValue{"PK": str("USER#u_01"), "SK": str("RECIPE#r_2"), "title": str("x"),
			"ingredients": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"name": nil}}}}}},
	} {
		err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: {good, tc.item}})
		ddbtest.WantSentinel(t, tc.name, err, ddbkit.ErrCorruptItem)
		var ce *ddbkit.CorruptItemError
		if !errors.As(err, &ce) {
			t.Errorf("%s: %v is not a *ddbkit.CorruptItemError", tc.name, err)
		}
		if n := len(s.Export()[kondate.DefaultTableName]); n != 0 {
			t.Fatalf("%s: %d items imported, want none", tc.name, n)
		}
	}
}
