package backendtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

func indexQuery(h *Harness, ix ddb.Index, part string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: h.Main.Table, Index: ix, PartitionValue: part}
}

var gsiCases = []testCase{
	{"entries follow their item's keys", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		q := func(ix ddb.Index, part string) []ddb.Item {
			h.settle()
			return all(t, h.Backend, indexQuery(h, ix, part), backend.Filter{})
		}
		a := item(h.Main, "P", "a", GPK, "G1", GSK, "1", SPK, "S1", SSK, "x")
		mustPut(t, h, h.Main, a, item(h.Main, "P", "b", GPK, "G1", GSK, "2"))
		wantItems2(t, "G1", sks(q(ByG, "G1")), "a", "b")
		wantItems2(t, "S1", sks(q(BySparse, "S1")), "a")

		var c backend.Change
		c.Set(GSK, str("3"))
		_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), c, backend.Exists(nil))
		must(t, err)
		wantItems2(t, "G1 after a's sort key moved", sks(q(ByG, "G1")), "b", "a")

		c = backend.Change{}
		c.Set(GPK, str("G2"))
		c.Remove(SPK)
		_, err = h.Backend.Update(ctx, h.Main.Table, key("P", "a"), c, backend.Cond{})
		must(t, err)
		wantItems2(t, "G1 after a moved to G2", sks(q(ByG, "G1")), "b")
		wantItems2(t, "G2", sks(q(ByG, "G2")), "a")
		wantItems2(t, "S1 after a lost spk", sks(q(BySparse, "S1")), nil...)

		mustPut(t, h, h.Main, item(h.Main, "P", "a", SPK, "S2", SSK, "y"))
		wantItems2(t, "G2 after a was replaced without gpk", sks(q(ByG, "G2")), nil...)
		wantItems2(t, "S2", sks(q(BySparse, "S2")), "a")
		mustPut(t, h, h.Main, item(h.Main, "P", "c", SPK, "S2"))
		wantItems2(t, "S2 with an item lacking ssk", sks(q(BySparse, "S2")), "a")

		must(t, h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{
			backend.Remove("a", h.Main.Table, key("P", "a")),
			backend.Put("b", h.Main.Table, item(h.Main, "P", "b", GPK, "G3", GSK, "1", SPK, "S1", SSK, "z")),
		}))
		wantItems2(t, "S2 after a's delete", sks(q(BySparse, "S2")), nil...)
		wantItems2(t, "G3 after b moved in a transaction", sks(q(ByG, "G3")), "b")
		wantItems2(t, "G1 after b moved in a transaction", sks(q(ByG, "G1")), nil...)

		must(t, h.Backend.BatchWrite(ctx, h.Main.Table, []ddb.Item{item(h.Main, "P", "d", GPK, "G3", GSK, "0")}, []backend.Key{key("P", "b")}))
		wantItems2(t, "G3 after a batch", sks(q(ByG, "G3")), "d")
		wantItems2(t, "S1 after a batch", sks(q(BySparse, "S1")), nil...)
		must(t, h.Backend.Remove(ctx, h.Main.Table, key("P", "d")))
		wantItems2(t, "G3 after Remove", sks(q(ByG, "G3")), nil...)
	}},
	{"index pages", func(t *testing.T, h *Harness) {
		var cands []ddb.Item
		for i, g := range []string{"a", "a#1", "b", "c", "c#2", "d", "e"} {
			it := item(h.Main, fmt.Sprintf("P%d", i%3), fmt.Sprintf("s%d", i), GPK, "G1", GSK, g, "n", i)
			cands = append(cands, it)
		}
		mustPut(t, h, h.Main, cands...)
		h.settle()
		for _, desc := range []bool{false, true} {
			want := cands
			if desc {
				want = make([]ddb.Item, len(cands))
				for i, it := range cands {
					want[len(cands)-1-i] = it
				}
			}
			for limit := 1; limit <= len(cands)+1; limit++ {
				q := indexQuery(h, ByG, "G1")
				q.Descending = desc
				ps, more := pages(t, h.Backend, q, limit, backend.Filter{})
				wps, wmore := modelPages(want, nil, limit, 0)
				comparePages(t, fmt.Sprintf("desc=%v limit %d", desc, limit), ps, more, wps, wmore)
				ps, more = pages(t, h.Backend, q, limit, backend.Greater("n", num(2)))
				keep := backend.Greater("n", num(2)).Keeps
				wps, wmore = modelPages(want, keep, limit, ddb.DefaultBudget)
				comparePages(t, fmt.Sprintf("filtered desc=%v limit %d", desc, limit), ps, more, wps, wmore)
				q.Sort = ddb.SortBeginsWith("c")
				ps, more = pages(t, h.Backend, q, limit, backend.Filter{})
				var cs []ddb.Item
				for _, it := range want {
					if g, _ := backend.Str(it, GSK); strings.HasPrefix(g, "c") {
						cs = append(cs, it)
					}
				}
				wps, wmore = modelPages(cs, nil, limit, 0)
				comparePages(t, fmt.Sprintf("begins_with c desc=%v limit %d", desc, limit), ps, more, wps, wmore)
			}
		}
	}},
}

func wantItems2(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

var ttlCases = []testCase{
	{"expired items are invisible to reads", func(t *testing.T, h *Harness) {
		now := start.Unix()
		items := []ddb.Item{
			item(h.TTL, "P", "e1", Exp, int(now-10)),
			item(h.TTL, "P", "e2", Exp, int(now)),
			item(h.TTL, "P", "e3", Exp, int(now+1)),
			item(h.TTL, "P", "e4", Exp, "123"),
			item(h.TTL, "P", "e5"),
			item(h.TTL, "P", "e6", Exp, int(now+100)),
			item(h.TTL, "P", "e7", Exp, list("1")),
		}
		mustPut(t, h, h.TTL, items...)
		var ks []backend.Key
		for _, it := range items {
			ks = append(ks, backend.KeyOf(h.TTL.Table, it))
		}
		check := func(when string, visible ...int) {
			t.Helper()
			want := make([]ddb.Item, len(items))
			var wantQ []ddb.Item
			for _, i := range visible {
				want[i] = items[i]
				wantQ = append(wantQ, items[i])
			}
			for i, k := range ks {
				wantItem(t, fmt.Sprintf("%s: Get(%s)", when, k.SK), get(t, h, h.TTL, k), want[i])
			}
			got, err := h.Backend.BatchGet(t.Context(), h.TTL.Table, ks)
			must(t, err)
			wantItems(t, when+": BatchGet", got, want)
			q := ddb.KeyQuery{Table: h.TTL.Table, PartitionValue: "P", ConsistentRead: true}
			for limit := 1; limit <= len(items); limit++ {
				ps, _ := pages(t, h.Backend, q, limit, backend.Filter{})
				var flat []ddb.Item
				for _, p := range ps {
					flat = append(flat, p...)
				}
				wantItems(t, fmt.Sprintf("%s: Query limit %d", when, limit), flat, wantQ)
			}
			wantItems(t, when+": filtered Query", all(t, h.Backend, q, backend.Missing("x")), wantQ)
		}
		check("at the start", 2, 3, 4, 5, 6)
		h.setClock(start.Add(time.Second))
		check("a second later", 3, 4, 5, 6)
		h.setClock(start.Add(time.Hour))
		check("an hour later", 3, 4, 6)
	}},
	{"conditions see expired items", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		old := item(h.TTL, "P", "old", Exp, int(start.Unix()-1), "v", 1)
		mustPut(t, h, h.TTL, old, item(h.TTL, "P", "old2", Exp, int(start.Unix()-1)))
		before := snapshot(t, h)
		wantCond(t, "Create over an expired item", h.Backend.Create(ctx, scope(h, "P"), h.TTL.Table, item(h.TTL, "P", "old")), "", old)
		wantCond(t, "Put under Absent over an expired item", h.Backend.Put(ctx, h.TTL.Table, item(h.TTL, "P", "old"), backend.Absent()), "", old)
		wantCond(t, "Tx PutNew over an expired item", h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.PutNew("new", h.TTL.Table, item(h.TTL, "P", "old"))}), "new", old)
		// Remove reads the item first, as a caller would: expired, it is not
		// there to remove.
		wantCond(t, "Remove of an expired item", h.Backend.Remove(ctx, h.TTL.Table, key("P", "old")), "", nil)
		wantUnchanged(t, "refused writes over expired items", h, before)
		var c backend.Change
		c.Set(Exp, num(start.Unix()+100))
		got, err := h.Backend.Update(ctx, h.TTL.Table, key("P", "old"), c, backend.Exists(ddb.Item{"v": num(1)}))
		must(t, err)
		revived := item(h.TTL, "P", "old", Exp, int(start.Unix()+100), "v", 1)
		wantItem(t, "Update of an expired item under Exists", got, revived)
		wantItem(t, "Get of the revived item", get(t, h, h.TTL, key("P", "old")), revived)
		// RemoveRead deletes what exists, expired or not.
		must(t, h.Backend.RemoveRead(ctx, h.TTL.Table, key("P", "old2")))
		for _, it := range h.Items(t, h.TTL.Table) {
			if sk, _ := backend.Str(it, SK); sk == "old2" {
				t.Errorf("RemoveRead of an expired item left it stored")
			}
		}
	}},
}

var contextCases = []testCase{
	{"an ended context fails every primitive and writes nothing", func(t *testing.T, h *Harness) {
		a := item(h.Main, "P", "a", "v", 1)
		mustPut(t, h, h.Main, a, item(h.Main, "P", "b"))
		mustPut(t, h, h.TTL, item(h.TTL, "P", "a", Exp, int(start.Unix()+10)))
		_, cur, err := h.Backend.Query(t.Context(), ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P"}, 1, "", backend.Filter{})
		must(t, err)
		before := snapshot(t, h)
		deadline, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
		defer cancel()
		var add backend.Change
		add.Add("n", 1)
		for _, c := range []struct {
			ctx  context.Context
			want error
		}{{cancelled(t), context.Canceled}, {deadline, context.DeadlineExceeded}} {
			ctx := c.ctx
			for name, call := range map[string]func() error{
				"Get":      func() error { _, err := h.Backend.Get(ctx, h.Main.Table, key("P", "a")); return err },
				"Get(TTL)": func() error { _, err := h.Backend.Get(ctx, h.TTL.Table, key("P", "a")); return err },
				"BatchGet": func() error {
					_, err := h.Backend.BatchGet(ctx, h.Main.Table, []backend.Key{key("P", "a")})
					return err
				},
				"Query": func() error {
					_, _, err := h.Backend.Query(ctx, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P"}, 1, cur, backend.Filter{})
					return err
				},
				"Query(index)": func() error {
					_, _, err := h.Backend.Query(ctx, indexQuery(h, ByG, "G1"), 1, "", backend.Contains("x", "y"))
					return err
				},
				"Create":    func() error { return h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, item(h.Main, "P", "c")) },
				"Put":       func() error { return h.Backend.Put(ctx, h.Main.Table, item(h.Main, "P", "c"), backend.Cond{}) },
				"Put(cond)": func() error { return h.Backend.Put(ctx, h.Main.Table, item(h.Main, "P", "c"), backend.Absent()) },
				"Update": func() error {
					_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), add, backend.Cond{})
					return err
				},
				"Remove":     func() error { return h.Backend.Remove(ctx, h.Main.Table, key("P", "a")) },
				"RemoveRead": func() error { return h.Backend.RemoveRead(ctx, h.Main.Table, key("P", "a")) },
				"BatchWrite": func() error {
					return h.Backend.BatchWrite(ctx, h.Main.Table, []ddb.Item{item(h.Main, "P", "c")}, []backend.Key{key("P", "b")})
				},
				"Tx": func() error {
					return h.Backend.Tx(ctx, backend.NewRun(ctx, scope(h, "P"), ddb.Backoff{Attempts: 3}), []backend.Write{backend.Put("c", h.Main.Table, item(h.Main, "P", "c"))})
				},
				"keyed Tx": func() error {
					kctx := ddbkit.WithIdempotencyKey(ctx, "k")
					return h.Backend.Tx(kctx, backend.NewRun(kctx, scope(h, "P"), ddb.Backoff{Attempts: 3}), []backend.Write{backend.Put("c", h.Main.Table, item(h.Main, "P", "c"))})
				},
			} {
				err := call()
				if !errors.Is(err, c.want) {
					t.Errorf("%s under %v: got error %v, want one matching it", name, c.want, err)
				}
				if !is(err, ddbkit.ErrUnavailable) {
					t.Errorf("%s under %v: %v does not classify as ErrUnavailable", name, c.want, err)
				}
			}
		}
		wantUnchanged(t, "primitives under an ended context", h, before)
	}},
}

// sized returns an item of t at pk, sk whose size (ddb.ItemSize) is n
// bytes, a String attribute "blob" making up the rest.
func sized(t backend.Table, pk, sk string, n int) ddb.Item {
	it := item(t, pk, sk, "blob", "")
	it["blob"] = str(strings.Repeat("x", n-ddb.ItemSize(it)))
	return it
}

var sizeCases = []testCase{
	{"items over 400 KB", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		mustPut(t, h, h.Main, item(h.Main, "P", "a", "blob", "small"))
		before := snapshot(t, h)
		big := sized(h.Main, "P", "big", ddb.MaxItemSize+1)
		bigA := sized(h.Main, "P", "a", ddb.MaxItemSize+1)
		var grow backend.Change
		grow.Set("blob", bigA["blob"])
		for name, call := range map[string]func() error{
			"Put":       func() error { return h.Backend.Put(ctx, h.Main.Table, big, backend.Cond{}) },
			"Put(cond)": func() error { return h.Backend.Put(ctx, h.Main.Table, big, backend.Absent()) },
			"Create":    func() error { return h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, big) },
			"Update": func() error {
				_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), grow, backend.Cond{})
				return err
			},
			"Update(missing item)": func() error {
				_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "big"), grow, backend.Cond{})
				return err
			},
			"Tx(put)": func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Put("small", h.Main.Table, item(h.Main, "P", "s")), backend.Put("big", h.Main.Table, big)})
			},
			"Tx(update)": func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Put("small", h.Main.Table, item(h.Main, "P", "s")), backend.Update("grow", h.Main.Table, key("P", "a"), grow, backend.Cond{})})
			},
			"BatchWrite": func() error { return h.Backend.BatchWrite(ctx, h.Main.Table, []ddb.Item{big}, nil) },
		} {
			wantErr(t, name+" of an item over 400 KB", call(), ddbkit.ErrInvalidArgument)
		}
		wantUnchanged(t, "refused large items", h, before)
		limit := sized(h.Main, "P", "limit", ddb.MaxItemSize)
		must(t, h.Backend.Put(ctx, h.Main.Table, limit, backend.Cond{}))
		wantItem(t, "an item of exactly 400 KB", get(t, h, h.Main, key("P", "limit")), limit)
	}},
}

// validationCases are requests DynamoDB refuses whole, with a
// ValidationException: the memory backend refuses them too, writing
// nothing, rather than store an item DynamoDB could never hold.
var validationCases = []testCase{
	{"refused keys", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		mustPut(t, h, h.Main, item(h.Main, "P", "a", GPK, "G1", GSK, "1"))
		before := snapshot(t, h)
		setKey := func(name string, v any) backend.Change {
			var c backend.Change
			switch v := v.(type) {
			case string:
				c.Set(name, str(v))
			case int:
				c.Set(name, num(int64(v)))
			}
			return c
		}
		noSK := item(h.Main, "P", "x")
		delete(noSK, SK)
		for _, c := range []struct {
			name string
			call func() error
		}{
			{"Put without a sort key", func() error { return h.Backend.Put(ctx, h.Main.Table, noSK, backend.Cond{}) }},
			{"Put with a sort key of another type", func() error {
				return h.Backend.Put(ctx, h.Main.Table, item(h.Main, "P", "x", SK, 1), backend.Cond{})
			}},
			{"Put with an empty partition key", func() error { return h.Backend.Put(ctx, h.Main.Table, item(h.Main, "", "x"), backend.Cond{}) }},
			{"Put with an index key of another type", func() error {
				return h.Backend.Put(ctx, h.Main.Table, item(h.Main, "P", "x", GPK, 1, GSK, "1"), backend.Cond{})
			}},
			{"Put with an empty index key", func() error {
				return h.Backend.Put(ctx, h.Main.Table, item(h.Main, "P", "x", GPK, "G1", GSK, ""), backend.Cond{})
			}},
			{"Create with an index key of another type", func() error {
				return h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, item(h.Main, "P", "x", SPK, 1))
			}},
			{"BatchWrite with an index key of another type", func() error {
				return h.Backend.BatchWrite(ctx, h.Main.Table, []ddb.Item{item(h.Main, "P", "x", GSK, 1)}, nil)
			}},
			{"Update of the sort key", func() error {
				_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), setKey(SK, "b"), backend.Cond{})
				return err
			}},
			{"Update of the partition key to its value", func() error {
				_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), setKey(PK, "P"), backend.Cond{})
				return err
			}},
			{"Update of an index key to another type", func() error {
				_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), setKey(GSK, 1), backend.Cond{})
				return err
			}},
			{"Update of an index key to an empty string", func() error {
				_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), setKey(GPK, ""), backend.Cond{})
				return err
			}},
			{"Tx putting an index key of another type", func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Put("x", h.Main.Table, item(h.Main, "P", "x", SSK, 1, SPK, "S1"))})
			}},
			{"Tx updating the sort key", func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Update("a", h.Main.Table, key("P", "a"), setKey(SK, "b"), backend.Cond{})})
			}},
		} {
			err := c.call()
			if !is(err, ddbkit.ErrSchemaMismatch) {
				t.Errorf("%s: got error %v, want DynamoDB's ValidationException (ErrSchemaMismatch)", c.name, err)
			}
		}
		wantUnchanged(t, "refused requests", h, before)
	}},
}

var keyCases = []testCase{
	{"empty key values", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		mustPut(t, h, h.Main, item(h.Main, "P", "a"))
		before := snapshot(t, h)
		for _, c := range []struct {
			name string
			call func() error
		}{
			{"Get", func() error { _, err := h.Backend.Get(ctx, h.Main.Table, key("P", "")); return err }},
			{"BatchGet", func() error {
				_, err := h.Backend.BatchGet(ctx, h.Main.Table, []backend.Key{key("P", "a"), key("", "a")})
				return err
			}},
			{"Update", func() error {
				var c backend.Change
				c.Set("v", num(1))
				_, err := h.Backend.Update(ctx, h.Main.Table, key("P", ""), c, backend.Cond{})
				return err
			}},
			{"Remove", func() error { return h.Backend.Remove(ctx, h.Main.Table, key("", "a")) }},
			{"RemoveRead", func() error { return h.Backend.RemoveRead(ctx, h.Main.Table, key("", "a")) }},
			{"BatchWrite", func() error { return h.Backend.BatchWrite(ctx, h.Main.Table, nil, []backend.Key{key("P", "")}) }},
			{"Tx", func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Check("c", h.Main.Table, key("P", ""), nil)})
			}},
		} {
			err := c.call()
			if !is(err, ddbkit.ErrSchemaMismatch) {
				t.Errorf("%s: got error %v, want DynamoDB's ValidationException (ErrSchemaMismatch)", c.name, err)
			}
		}
		wantUnchanged(t, "refused requests", h, before)
	}},
	{"numbers read back canonical, compare by value", func(t *testing.T, h *Harness) {
		for i, c := range []struct{ stored, read string }{
			{"1.50", "1.5"}, {"007", "7"}, {"-0", "0"}, {"1e2", "100"}, {"0.0001000", "0.0001"}, {"-12.340", "-12.34"},
			{"1e30", "1000000000000000000000000000000"}, {"1.0e-5", "0.00001"}, {"0.000", "0"}, {"100", "100"}, {"+5", "5"},
			{"1E+2", "100"}, {".5", "0.5"}, {"5.", "5"}, {"-0.0", "0"}, {"12345678901234567890123456789012345678", "12345678901234567890123456789012345678"},
			{"1.23e-130", "0." + strings.Repeat("0", 129) + "123"},
			{"9.9999999999999999999999999999999999999E+125", strings.Repeat("9", 38) + strings.Repeat("0", 88)},
		} {
			n := &types.AttributeValueMemberN{Value: c.stored}
			sk := fmt.Sprint(i)
			it := item(h.Main, "N", sk, "n", n, "l", &types.AttributeValueMemberL{Value: []types.AttributeValue{n}},
				"m", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"n": n}})
			mustPut(t, h, h.Main, it)
			// DynamoDB (Local) keeps a Number inside a List or Map as written.
			want := &types.AttributeValueMemberN{Value: c.read}
			wantItem(t, "Get of "+c.stored, get(t, h, h.Main, key("N", sk)), item(h.Main, "N", sk, "n", want,
				"l", &types.AttributeValueMemberL{Value: []types.AttributeValue{n}},
				"m", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"n": n}}))
			q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "N", Sort: ddb.SortEq(sk), ConsistentRead: true}
			if got := all(t, h.Backend, q, backend.Equal("n", n)); len(got) != 1 {
				t.Errorf("Equal(n, %s) on the item: %d items, want 1", c.stored, len(got))
			}
			var c2 backend.Change
			c2.Set("seen", str("yes"))
			if _, err := h.Backend.Update(t.Context(), h.Main.Table, key("N", sk), c2, backend.Exists(ddb.Item{"n": n})); err != nil {
				t.Errorf("Update under Exists(n = %s): %v", c.stored, err)
			}
		}
	}},
	{"number sets", func(t *testing.T, h *Harness) {
		mustPut(t, h, h.Main, item(h.Main, "P", "ns", "ns", &types.AttributeValueMemberNS{Value: []string{"1.50", "2", "007", "1e2"}},
			"nested", &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberNS{Value: []string{"1.50", "2"}}}}))
		wantItem(t, "Get of number sets", get(t, h, h.Main, key("P", "ns")), item(h.Main, "P", "ns", "ns", &types.AttributeValueMemberNS{Value: []string{"1.5", "2", "7", "100"}},
			"nested", &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberNS{Value: []string{"1.50", "2"}}}}))
	}},
	{"values DynamoDB refuses", func(t *testing.T, h *Harness) {
		before := snapshot(t, h)
		for _, c := range []struct {
			name string
			v    types.AttributeValue
		}{
			{"not a number", &types.AttributeValueMemberN{Value: "abc"}},
			{"an empty number", &types.AttributeValueMemberN{Value: ""}},
			{"an exponent without digits", &types.AttributeValueMemberN{Value: "1e"}},
			{"two points", &types.AttributeValueMemberN{Value: "1.2.3"}},
			{"39 significant digits", &types.AttributeValueMemberN{Value: "1" + strings.Repeat("2", 38)}},
			{"overflow", &types.AttributeValueMemberN{Value: "1e126"}},
			{"underflow", &types.AttributeValueMemberN{Value: "1e-131"}},
			{"a number in a list", &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "x"}}}},
			{"39 significant digits in a map", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"n": &types.AttributeValueMemberN{Value: "1" + strings.Repeat("2", 38)}}}},
			{"overflow in a set", &types.AttributeValueMemberNS{Value: []string{"1", "1e126"}}},
			{"underflow in a list", &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1e-131"}}}},
			{"an empty string set", &types.AttributeValueMemberSS{Value: []string{}}},
			{"a string set holding a member twice", &types.AttributeValueMemberSS{Value: []string{"a", "b", "a"}}},
			{"an empty number set", &types.AttributeValueMemberNS{Value: []string{}}},
			{"a number set holding a member twice", &types.AttributeValueMemberNS{Value: []string{"1", "1.0"}}},
		} {
			err := h.Backend.Put(t.Context(), h.Main.Table, item(h.Main, "P", "x", "v", c.v), backend.Cond{})
			if !is(err, ddbkit.ErrSchemaMismatch) {
				t.Errorf("Put of %s: got error %v, want DynamoDB's ValidationException (ErrSchemaMismatch)", c.name, err)
			}
		}
		wantUnchanged(t, "refused values", h, before)
	}},
}

var schemaCases = []testCase{
	{"a missing table or index", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		missing := h.Main.Table
		missing.Name += "-missing"
		for name, call := range map[string]func() error{
			"Get":      func() error { _, err := h.Backend.Get(ctx, missing, key("P", "a")); return err },
			"BatchGet": func() error { _, err := h.Backend.BatchGet(ctx, missing, []backend.Key{key("P", "a")}); return err },
			"Query": func() error {
				_, _, err := h.Backend.Query(ctx, ddb.KeyQuery{Table: missing, PartitionValue: "P"}, 1, "", backend.Filter{})
				return err
			},
			"Query of a missing index": func() error {
				_, _, err := h.Backend.Query(ctx, ddb.KeyQuery{Table: h.Main.Table, Index: ddb.Index{Name: "nope", PartitionKey: "x", SortKey: "y"}, PartitionValue: "P"}, 1, "", backend.Filter{})
				return err
			},
			"Put":        func() error { return h.Backend.Put(ctx, missing, item(h.Main, "P", "a"), backend.Cond{}) },
			"Create":     func() error { return h.Backend.Create(ctx, scope(h, "P"), missing, item(h.Main, "P", "a")) },
			"BatchWrite": func() error { return h.Backend.BatchWrite(ctx, missing, []ddb.Item{item(h.Main, "P", "a")}, nil) },
			"Tx": func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Put("a", h.Main.Table, item(h.Main, "P", "a")), backend.Put("b", missing, item(h.Main, "P", "b"))})
			},
		} {
			wantErr(t, name, call(), ddbkit.ErrSchemaMismatch)
		}
		// Nothing to read or write makes no call, so finds nothing missing.
		if _, err := h.Backend.BatchGet(ctx, missing, nil); err != nil {
			t.Errorf("BatchGet of no keys from a missing table: %v", err)
		}
		if err := h.Backend.BatchWrite(ctx, missing, nil, nil); err != nil {
			t.Errorf("BatchWrite of nothing to a missing table: %v", err)
		}
		if got := get(t, h, h.Main, key("P", "a")); got != nil {
			t.Errorf("a transaction touching a missing table wrote %s", render(got))
		}
	}},
	{"values kept as written", func(t *testing.T, h *Harness) {
		it := item(h.Main, "P", "v", "s", "", "l", list(), "m", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
			"b", &types.AttributeValueMemberB{Value: []byte{}}, "t", &types.AttributeValueMemberBOOL{Value: true},
			"null", &types.AttributeValueMemberNULL{Value: true}, "bs", &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},
			"deep", &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"x": list("a", ""), "n": &types.AttributeValueMemberN{Value: "1.50"}}}}})
		mustPut(t, h, h.Main, it)
		wantItem(t, "Get", get(t, h, h.Main, key("P", "v")), it)
	}},
	{"sort keys in byte order", func(t *testing.T, h *Harness) {
		keys := []string{"B", "Z", "a", "a b", "a#", "a\x7f", "z", "~", "\u00e9", "\u00ff", "\u65e5\u672c", "\U0001F600"}
		for _, sk := range keys {
			mustPut(t, h, h.Main, item(h.Main, "U", sk, GPK, "G1", GSK, sk))
		}
		q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "U", ConsistentRead: true}
		if got := sks(all(t, h.Backend, q, backend.Filter{})); !slices.Equal(got, keys) {
			t.Errorf("partition order: got %q, want %q", got, keys)
		}
		h.settle()
		var gsks []string
		for _, it := range all(t, h.Backend, indexQuery(h, ByG, "G1"), backend.Filter{}) {
			s, _ := backend.Str(it, GSK)
			gsks = append(gsks, s)
		}
		if !slices.Equal(gsks, keys) {
			t.Errorf("index order: got %q, want %q", gsks, keys)
		}
		q.Sort = ddb.SortBetween("a", "\u00ff")
		if got := sks(all(t, h.Backend, q, backend.Filter{})); !slices.Equal(got, keys[2:10]) {
			t.Errorf("between a and \u00ff: got %q, want %q", got, keys[2:10])
		}
	}},
}

var limitCases = []testCase{
	{"pages past DynamoDB's 1 MB response", func(t *testing.T, h *Harness) {
		var cands []ddb.Item
		for i := range 12 {
			it := sized(h.Main, "L", fmt.Sprintf("l%02d", i), 200*1024)
			it["k"] = num(int64(i % 3))
			cands = append(cands, it)
		}
		mustPut(t, h, h.Main, cands...)
		q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "L", ConsistentRead: true}
		for _, limit := range []int{5, 11, 12, 20} {
			ps, more := pages(t, h.Backend, q, limit, backend.Filter{})
			wps, wmore := modelPages(cands, nil, limit, 0)
			comparePages(t, fmt.Sprintf("limit %d", limit), ps, more, wps, wmore)
			f := backend.Equal("k", num(1))
			for _, budget := range []int{0, 3, 7} {
				q.Budget = budget
				ps, more = pages(t, h.Backend, q, limit, f)
				wps, wmore = modelPages(cands, f.Keeps, limit, max(budget, ddb.DefaultBudget*boolInt(budget <= 0)))
				comparePages(t, fmt.Sprintf("filtered, budget %d, limit %d", budget, limit), ps, more, wps, wmore)
			}
			q.Budget = 0
		}
	}},
	{"transactions over 4 MB", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		blob := strings.Repeat("y", 390*1024)
		var puts, ups, checks []backend.Write
		for i := range 11 {
			it := sized(h.Main, "T", fmt.Sprintf("t%02d", i), 390*1024)
			puts = append(puts, backend.Put(fmt.Sprint(i), h.Main.Table, it))
			var c backend.Change
			c.Set("blob", str(blob))
			ups = append(ups, backend.Update(fmt.Sprint(i), h.Main.Table, key("U", fmt.Sprint(i)), c, backend.Cond{}))
			checks = append(checks, backend.Check(fmt.Sprint(i), h.Main.Table, key("T", fmt.Sprintf("t%02d", i)), ddb.Item{"blob": it["blob"]}))
		}
		before := snapshot(t, h)
		for _, c := range []struct {
			name string
			ws   []backend.Write
		}{{"puts", puts}, {"updates", ups}, {"checks", checks}} {
			err := h.Backend.Tx(ctx, run(t, h, "T"), c.ws)
			wantErr(t, "Tx of 11 "+c.name+" of 390 KB", err, ddbkit.ErrInvalidArgument)
		}
		wantUnchanged(t, "transactions over 4 MB", h, before)
		must(t, h.Backend.Tx(ctx, run(t, h, "T"), puts[:10]))
		must(t, h.Backend.Tx(ctx, run(t, h, "U"), ups[:10]))
		must(t, h.Backend.Tx(ctx, run(t, h, "T"), checks[:10]))
		// Puts count their items' sizes exactly: 4 MB is the limit.
		edge := func(extra int) []backend.Write {
			var ws []backend.Write
			for i := range 11 {
				ws = append(ws, backend.Put(fmt.Sprint(i), h.Main.Table, sized(h.Main, "E", fmt.Sprintf("e%02d", i), (4<<20)/11+extra)))
			}
			return ws
		}
		wantErr(t, "Tx of puts 7 bytes over 4 MB", h.Backend.Tx(ctx, run(t, h, "E"), edge(1)), ddbkit.ErrInvalidArgument)
		must(t, h.Backend.Tx(ctx, run(t, h, "E"), edge(0)))
	}},
	{"batch reads past DynamoDB's 16 MB response", func(t *testing.T, h *Harness) {
		var puts []ddb.Item
		var ks []backend.Key
		for i := range 45 {
			it := sized(h.Main, "M", fmt.Sprintf("m%02d", i), 390*1024)
			puts = append(puts, it)
			ks = append(ks, key("M", fmt.Sprintf("m%02d", 44-i)))
		}
		must(t, h.Backend.BatchWrite(t.Context(), h.Main.Table, puts, nil))
		got, err := h.Backend.BatchGet(t.Context(), h.Main.Table, ks)
		must(t, err)
		if len(got) != len(ks) {
			t.Fatalf("BatchGet: %d items, want %d", len(got), len(ks))
		}
		for i, it := range got {
			wantItem(t, fmt.Sprintf("BatchGet item %d", i), it, puts[44-i])
		}
	}},
}

var raceCases = []testCase{
	{"concurrent writers: one create wins, no increment is lost", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		const n = 12
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = h.Backend.Create(ctx, scope(h, fmt.Sprint("P", i)), h.Main.Table, item(h.Main, "P", "one", "by", i))
			}()
		}
		wg.Wait()
		wins := 0
		for i, err := range errs {
			switch {
			case err == nil:
				wins++
			case !is(err, ddbkit.ErrConflict) && !is(err, ddbkit.ErrUnavailable):
				t.Errorf("Create %d: %v, want a failed condition or a conflict", i, err)
			}
		}
		if wins != 1 {
			t.Errorf("%d concurrent Creates of one key succeeded, want exactly 1", wins)
		}

		mustPut(t, h, h.Main, item(h.Main, "P", "counter", "n", 0))
		oks := make([]bool, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := backend.RMW(ctx, ddb.Backoff{Attempts: 8, Base: time.Millisecond, Max: 20 * time.Millisecond}, scope(h, "P"), func(r *backend.Run) error {
					cur, err := h.Backend.Get(ctx, h.Main.Table, key("P", "counter"))
					if err != nil {
						return err
					}
					var c backend.Change
					c.Add("n", 1)
					err = h.Backend.Tx(ctx, r, []backend.Write{backend.Update("c", h.Main.Table, key("P", "counter"), c, backend.Exists(ddb.Item{"n": cur["n"]}))})
					if _, ok := backend.Failed(err, "c"); ok {
						return backend.Changed("counter changed")
					}
					return err
				})
				oks[i] = err == nil
				if err != nil && !is(err, ddbkit.ErrConflict) && !is(err, ddbkit.ErrUnavailable) {
					t.Errorf("RMW %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		done := 0
		for _, ok := range oks {
			if ok {
				done++
			}
		}
		if got := get(t, h, h.Main, key("P", "counter")); render(got) != render(item(h.Main, "P", "counter", "n", done)) || done == 0 {
			t.Errorf("after %d successful increments the counter is %s", done, render(got))
		}
	}},
}

var clockCases = []testCase{
	{"clock reads", func(t *testing.T, h *Harness) {
		if h.ClockReads == nil {
			t.Skip("the harness does not count clock reads")
		}
		ctx := t.Context()
		kctx := ddbkit.WithIdempotencyKey(ctx, "clock")
		mustPut(t, h, h.Main, item(h.Main, "P", "a"), item(h.Main, "P", "b"))
		mustPut(t, h, h.TTL, item(h.TTL, "P", "a", Exp, int(start.Unix()+100)), item(h.TTL, "P", "b", Exp, int(start.Unix()-100)))
		var add backend.Change
		add.Add("n", 1)
		for _, c := range []struct {
			name  string
			reads int
			call  func() error
		}{
			{"Get", 0, func() error { _, err := h.Backend.Get(ctx, h.Main.Table, key("P", "a")); return err }},
			{"Get(TTL)", 1, func() error { _, err := h.Backend.Get(ctx, h.TTL.Table, key("P", "a")); return err }},
			{"Get(TTL) of a missing item", 1, func() error { _, err := h.Backend.Get(ctx, h.TTL.Table, key("P", "x")); return err }},
			{"Get(TTL) of an expired item", 1, func() error { _, err := h.Backend.Get(ctx, h.TTL.Table, key("P", "b")); return err }},
			{"BatchGet", 0, func() error {
				_, err := h.Backend.BatchGet(ctx, h.Main.Table, []backend.Key{key("P", "a"), key("P", "b")})
				return err
			}},
			{"BatchGet(TTL)", 1, func() error {
				_, err := h.Backend.BatchGet(ctx, h.TTL.Table, []backend.Key{key("P", "a"), key("P", "b"), key("P", "x"), key("P", "a")})
				return err
			}},
			{"Query", 0, func() error {
				_, _, err := h.Backend.Query(ctx, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P"}, 10, "", backend.Filter{})
				return err
			}},
			{"Query(TTL)", 1, func() error {
				_, _, err := h.Backend.Query(ctx, ddb.KeyQuery{Table: h.TTL.Table, PartitionValue: "P"}, 10, "", backend.Filter{})
				return err
			}},
			{"Put", 0, func() error { return h.Backend.Put(ctx, h.TTL.Table, item(h.TTL, "P", "c"), backend.Absent()) }},
			{"Update", 0, func() error {
				_, err := h.Backend.Update(ctx, h.TTL.Table, key("P", "c"), add, backend.Cond{})
				return err
			}},
			{"Create", 0, func() error { return h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, item(h.Main, "P", "c")) }},
			{"Create under a key", 0, func() error { return h.Backend.Create(kctx, scope(h, "P"), h.Main.Table, item(h.Main, "P", "d")) }},
			{"Create repeated under a key", 0, func() error { return h.Backend.Create(kctx, scope(h, "P"), h.Main.Table, item(h.Main, "P", "d")) }},
			{"Tx", 0, func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Update("u", h.TTL.Table, key("P", "c"), add, backend.Cond{})})
			}},
			{"Tx under a key", 0, func() error {
				return h.Backend.Tx(kctx, backend.NewRun(kctx, scope(h, "Q"), ddb.Backoff{Attempts: 3}), []backend.Write{backend.Update("u", h.TTL.Table, key("P", "c"), add, backend.Cond{})})
			}},
			{"BatchWrite", 0, func() error { return h.Backend.BatchWrite(ctx, h.TTL.Table, []ddb.Item{item(h.TTL, "P", "e")}, nil) }},
			{"Remove", 0, func() error { return h.Backend.Remove(ctx, h.Main.Table, key("P", "b")) }},
			{"Remove(TTL)", 1, func() error { return h.Backend.Remove(ctx, h.TTL.Table, key("P", "e")) }},
			{"RemoveRead(TTL)", 0, func() error { return h.Backend.RemoveRead(ctx, h.TTL.Table, key("P", "c")) }},
		} {
			before := h.ClockReads()
			if err := c.call(); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			if got := h.ClockReads() - before; got != c.reads {
				t.Errorf("%s read the clock %d times, want %d", c.name, got, c.reads)
			}
		}
	}},
}

var nameCases = []testCase{
	{"attribute names with dots and spaces are top-level names", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		it := item(h.Main, "P", "a", "a.b", 1, "x y", "z", "m", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"b": num(9)}})
		mustPut(t, h, h.Main, it)
		var c backend.Change
		c.Set("a.b", num(2))
		c.Add("n.n", 1)
		got, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), c, backend.Exists(ddb.Item{"a.b": num(1), "x y": str("z")}))
		must(t, err)
		want := item(h.Main, "P", "a", "a.b", 2, "n.n", 1, "x y", "z", "m", it["m"])
		wantItem(t, "Update of dotted names under a condition on them", got, want)
		q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P", ConsistentRead: true}
		for _, f := range []backend.Filter{backend.Equal("a.b", num(2)), backend.Greater("n.n", num(0)), backend.Missing("m.b"), backend.Contains("x y", "z")} {
			wantItems(t, "Query under a filter on a dotted name", all(t, h.Backend, q, f), []ddb.Item{want})
		}
		must(t, h.Backend.Put(ctx, h.Main.Table, want, backend.When(backend.And(backend.Equal("a.b", num(2)), backend.Missing("m.b")))))
		var rm backend.Change
		rm.Remove("a.b")
		rm.SetOnce("m.b", num(3))
		got, err = h.Backend.Update(ctx, h.Main.Table, key("P", "a"), rm, backend.Cond{})
		must(t, err)
		wantItem(t, "Update removing a dotted name", got, item(h.Main, "P", "a", "n.n", 1, "x y", "z", "m", it["m"], "m.b", 3))
	}},
}

var callCases = []testCase{
	{"calls per primitive, and none for what is refused first", func(t *testing.T, h *Harness) {
		if h.Calls == nil {
			t.Skip("the harness does not count calls")
		}
		ctx := t.Context()
		mustPut(t, h, h.Main, item(h.Main, "P", "a", "v", 1), item(h.Main, "P", "b"))
		_, cur, err := h.Backend.Query(ctx, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P"}, 1, "", backend.Filter{})
		must(t, err)
		var add backend.Change
		add.Add("n", 1)
		var puts []ddb.Item
		var ks []backend.Key
		for i := range 30 {
			puts = append(puts, item(h.Main, "Q", fmt.Sprint(i)))
		}
		for i := range 150 {
			ks = append(ks, key("Q", fmt.Sprint(i)))
		}
		many := make([]backend.Write, ddb.MaxTxItems+1)
		for i := range many {
			many[i] = backend.Put(fmt.Sprint(i), h.Main.Table, item(h.Main, "M", fmt.Sprint(i)))
		}
		for _, c := range []struct {
			name  string
			calls int
			call  func() error
		}{
			{"Get", 1, func() error { _, err := h.Backend.Get(ctx, h.Main.Table, key("P", "a")); return err }},
			{"BatchGet of 150 keys", 2, func() error { _, err := h.Backend.BatchGet(ctx, h.Main.Table, ks); return err }},
			{"BatchGet of none", 0, func() error { _, err := h.Backend.BatchGet(ctx, h.Main.Table, nil); return err }},
			{"Query", 1, func() error {
				_, _, err := h.Backend.Query(ctx, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P"}, 10, "", backend.Filter{})
				return err
			}},
			{"Put", 1, func() error { return h.Backend.Put(ctx, h.Main.Table, item(h.Main, "P", "c"), backend.Absent()) }},
			{"Update", 1, func() error {
				_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "c"), add, backend.Cond{})
				return err
			}},
			{"Create", 1, func() error { return h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, item(h.Main, "P", "d")) }},
			{"Tx", 1, func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Update("u", h.Main.Table, key("P", "c"), add, backend.Cond{})})
			}},
			{"BatchWrite of 30", 2, func() error { return h.Backend.BatchWrite(ctx, h.Main.Table, puts, nil) }},
			{"BatchWrite of none", 0, func() error { return h.Backend.BatchWrite(ctx, h.Main.Table, nil, nil) }},
			{"Remove", 2, func() error { return h.Backend.Remove(ctx, h.Main.Table, key("P", "c")) }},
			{"RemoveRead", 1, func() error { return h.Backend.RemoveRead(ctx, h.Main.Table, key("P", "d")) }},
		} {
			before := h.Calls()
			if err := c.call(); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			if got := h.Calls() - before; got != c.calls {
				t.Errorf("%s made %d calls, want %d", c.name, got, c.calls)
			}
		}
		for _, c := range []struct {
			name string
			call func() error
		}{
			{"Tx of 101 writes", func() error { return h.Backend.Tx(ctx, run(t, h, "P"), many) }},
			{"Tx of none", func() error { return h.Backend.Tx(ctx, run(t, h, "P"), nil) }},
			{"Tx touching a key twice", func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Put("a", h.Main.Table, item(h.Main, "P", "a")), backend.Remove("b", h.Main.Table, key("P", "a"))})
			}},
			{"Tx of 40 writes touching a key twice", func() error {
				return h.Backend.Tx(ctx, run(t, h, "M"), append(slices.Clone(many[:39]), backend.Remove("again", h.Main.Table, key("M", "7"))))
			}},
			{"Tx with an empty change", func() error {
				return h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Update("a", h.Main.Table, key("P", "a"), backend.Change{}, backend.Cond{})})
			}},
			{"Update with an empty change", func() error {
				_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), backend.Change{}, backend.Cond{})
				return err
			}},
			{"BatchWrite touching a key twice", func() error {
				return h.Backend.BatchWrite(ctx, h.Main.Table, []ddb.Item{item(h.Main, "P", "a")}, []backend.Key{key("P", "a")})
			}},
			{"Query with a cursor of another listing", func() error {
				_, _, err := h.Backend.Query(ctx, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "Q"}, 1, cur, backend.Filter{})
				return err
			}},
			{"Query with limit 0", func() error {
				_, _, err := h.Backend.Query(ctx, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P"}, 0, "", backend.Filter{})
				return err
			}},
			{"Get under an ended context", func() error { _, err := h.Backend.Get(cancelled(t), h.Main.Table, key("P", "a")); return err }},
			{"Tx under an ended context", func() error {
				return h.Backend.Tx(cancelled(t), run(t, h, "P"), []backend.Write{backend.Put("a", h.Main.Table, item(h.Main, "P", "a"))})
			}},
		} {
			before := h.Calls()
			if err := c.call(); err == nil {
				t.Errorf("%s: no error", c.name)
			}
			if got := h.Calls() - before; got != 0 {
				t.Errorf("%s made %d calls, want none", c.name, got)
			}
		}
	}},
}
