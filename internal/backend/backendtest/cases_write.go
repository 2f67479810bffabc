package backendtest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// scope is an idempotency scope of h's main table: tokens are global to
// a DynamoDB endpoint, and each case's tables have names of their own.
func scope(h *Harness, part string) ddb.Scope {
	return ddb.Scope{Table: h.Main.Name, Op: "test", Partition: part}
}

var createCases = []testCase{
	{"free key", func(t *testing.T, h *Harness) {
		a := item(h.Main, "P", "a", "v", 1)
		must(t, h.Backend.Create(t.Context(), scope(h, "P"), h.Main.Table, a))
		wantItem(t, "Get after Create", get(t, h, h.Main, key("P", "a")), a)
		o := item(h.Other, "x", "", "v", 1)
		must(t, h.Backend.Create(t.Context(), scope(h, "x"), h.Other.Table, o))
		wantItem(t, "Get(Other) after Create", get(t, h, h.Other, key("x", "")), o)
	}},
	{"taken key", func(t *testing.T, h *Harness) {
		a := item(h.Main, "P", "a", "v", 1)
		mustPut(t, h, h.Main, a)
		before := snapshot(t, h)
		err := h.Backend.Create(t.Context(), scope(h, "P"), h.Main.Table, item(h.Main, "P", "a", "v", 2))
		wantCond(t, "Create over another item", err, "", a)
		err = h.Backend.Create(t.Context(), scope(h, "P"), h.Main.Table, a)
		wantCond(t, "Create of an identical item", err, "", a)
		wantUnchanged(t, "a refused Create", h, before)
	}},
	{"idempotency key", func(t *testing.T, h *Harness) {
		ctx := ddbkit.WithIdempotencyKey(t.Context(), "key-1")
		a := item(h.Main, "P", "a", "v", 1)
		must(t, h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, a))
		var c backend.Change
		c.Set("later", str("yes"))
		later, err := h.Backend.Update(t.Context(), h.Main.Table, key("P", "a"), c, backend.Exists(nil))
		must(t, err)
		if err := h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, a); err != nil {
			t.Errorf("Create repeated under its key: %v, want success", err)
		}
		wantItem(t, "the item after a repeat (not written again)", get(t, h, h.Main, key("P", "a")), later)
		before := snapshot(t, h)
		err = h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, item(h.Main, "P", "a", "v", 2))
		wantErr(t, "Create of another item under the same key", err, ddbkit.ErrConflict)
		err = h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, item(h.Main, "P", "b", "v", 1))
		wantErr(t, "Create at another key under the same key", err, ddbkit.ErrConflict)
		wantUnchanged(t, "a reused key", h, before)
		// Another scope: its own token, so the key is taken as any other.
		err = h.Backend.Create(ctx, scope(h, "P2"), h.Main.Table, a)
		wantCond(t, "Create of the same item in another scope", err, "", later)
		b := item(h.Main, "P", "b", "v", 1)
		must(t, h.Backend.Create(ctx, ddb.Scope{Table: h.Main.Name, Op: "other op", Partition: "P"}, h.Main.Table, b))
		wantItem(t, "Create under the same key for another op", get(t, h, h.Main, key("P", "b")), b)
		if h.TokenWindow > 0 {
			h.setClock(start.Add(h.TokenWindow))
			err = h.Backend.Create(ctx, scope(h, "P"), h.Main.Table, a)
			wantCond(t, "Create repeated once its token expired", err, "", later)
		}
	}},
}

var putCases = []testCase{
	{"conditions", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		a1, a2 := item(h.Main, "P", "a", "ver", 1), item(h.Main, "P", "a", "ver", 2, "x", "y")
		must(t, h.Backend.Put(ctx, h.Main.Table, a1, backend.Absent()))
		must(t, h.Backend.Put(ctx, h.Main.Table, a2, backend.Cond{}))
		wantItem(t, "Put without a condition replaces", get(t, h, h.Main, key("P", "a")), a2)
		for _, c := range []struct {
			name string
			it   ddb.Item
			cond backend.Cond
			old  ddb.Item
		}{
			{"absent, on a taken key", a1, backend.Absent(), a2},
			{"exists, on a free key", item(h.Main, "P", "b"), backend.Exists(nil), nil},
			{"exists holding values it does not", a1, backend.Exists(ddb.Item{"ver": num(1)}), a2},
			{"exists holding a missing attribute", a1, backend.Exists(ddb.Item{"nope": num(2)}), a2},
			{"when, false", a1, backend.When(backend.Or(backend.Missing("ver"), backend.Equal("ver", num(1)))), a2},
			{"when equal, on a free key", item(h.Main, "P", "b"), backend.When(backend.Equal("ver", num(1))), nil},
		} {
			before := snapshot(t, h)
			err := h.Backend.Put(ctx, h.Main.Table, c.it, c.cond)
			wantCond(t, c.name, err, "", c.old)
			wantUnchanged(t, c.name, h, before)
		}
		a3 := item(h.Main, "P", "a", "ver", 3)
		must(t, h.Backend.Put(ctx, h.Main.Table, a3, backend.Exists(ddb.Item{"ver": num(2), "x": str("y")})))
		wantItem(t, "Put under Exists(want)", get(t, h, h.Main, key("P", "a")), a3)
		a4 := item(h.Main, "P", "a", "ver", 4)
		must(t, h.Backend.Put(ctx, h.Main.Table, a4, backend.When(backend.Or(backend.Missing("ver"), backend.Equal("ver", num(3))))))
		wantItem(t, "Put under When", get(t, h, h.Main, key("P", "a")), a4)
		b := item(h.Main, "P", "b")
		must(t, h.Backend.Put(ctx, h.Main.Table, b, backend.When(backend.Missing("ver"))))
		wantItem(t, "Put under When(Missing), on a free key", get(t, h, h.Main, key("P", "b")), b)
	}},
}

var updateCases = []testCase{
	{"set, set once, add, remove", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		var c1 backend.Change
		c1.Set("a", str("x"))
		c1.SetOnce("b", str("first"))
		c1.Add("c", 5)
		must(t, c1.SetValue("m", map[string]int{"k": 1}))
		got, err := h.Backend.Update(ctx, h.Main.Table, key("P", "u"), c1, backend.Cond{})
		must(t, err)
		want := item(h.Main, "P", "u", "a", "x", "b", "first", "c", 5)
		want["m"] = c1.Values()["m"]
		wantItem(t, "Update of a missing item, as written", got, want)
		wantItem(t, "Get after Update", get(t, h, h.Main, key("P", "u")), want)
		var c2 backend.Change
		c2.SetOnce("b", str("second"))
		c2.Add("c", 3)
		c2.Add("d", -2)
		c2.Remove("a")
		c2.Remove("never")
		got, err = h.Backend.Update(ctx, h.Main.Table, key("P", "u"), c2, backend.Exists(nil))
		must(t, err)
		want = item(h.Main, "P", "u", "b", "first", "c", 8, "d", -2)
		want["m"] = c1.Values()["m"]
		wantItem(t, "Update of an existing item, as written", got, want)
		wantItem(t, "Get after the second Update", get(t, h, h.Main, key("P", "u")), want)
		var rm backend.Change
		rm.Remove("x")
		got, err = h.Backend.Update(ctx, h.Main.Table, key("P", "r"), rm, backend.Cond{})
		must(t, err)
		wantItem(t, "Update removing from a missing item", got, item(h.Main, "P", "r"))
		wantItem(t, "Get after it", get(t, h, h.Main, key("P", "r")), item(h.Main, "P", "r"))
		var big backend.Change
		big.Set("c", &types.AttributeValueMemberN{Value: "1" + strings.Repeat("0", 38)}) // one significant digit
		_, err = h.Backend.Update(ctx, h.Main.Table, key("P", "u"), big, backend.Cond{})
		must(t, err)
		before := snapshot(t, h)
		var over backend.Change
		over.Add("c", 1)
		_, err = h.Backend.Update(ctx, h.Main.Table, key("P", "u"), over, backend.Cond{})
		wantErr(t, "Update adding to 39 significant digits", err, ddbkit.ErrSchemaMismatch)
		wantUnchanged(t, "a refused add", h, before)
	}},
	{"conditions", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		a := item(h.Main, "P", "a", "ver", 1)
		mustPut(t, h, h.Main, a)
		set := func(v int) backend.Change {
			var c backend.Change
			c.Set("ver", num(int64(v)))
			return c
		}
		for _, c := range []struct {
			name string
			k    backend.Key
			cond backend.Cond
			old  ddb.Item
		}{
			{"absent, on an existing item", key("P", "a"), backend.Absent(), a},
			{"exists, on a missing item", key("P", "b"), backend.Exists(nil), nil},
			{"exists holding other values", key("P", "a"), backend.Exists(ddb.Item{"ver": num(2)}), a},
			{"when, false", key("P", "a"), backend.When(backend.Equal("ver", num(2))), a},
			{"when, on a missing item", key("P", "b"), backend.When(backend.Equal("ver", num(1))), nil},
		} {
			before := snapshot(t, h)
			_, err := h.Backend.Update(ctx, h.Main.Table, c.k, set(9), c.cond)
			wantCond(t, c.name, err, "", c.old)
			wantUnchanged(t, c.name, h, before)
		}
		got, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), set(2), backend.Exists(ddb.Item{"ver": num(1)}))
		must(t, err)
		wantItem(t, "Update under Exists(want)", got, item(h.Main, "P", "a", "ver", 2))
		got, err = h.Backend.Update(ctx, h.Main.Table, key("P", "a"), set(3), backend.When(backend.Equal("ver", num(2))))
		must(t, err)
		wantItem(t, "Update under When", got, item(h.Main, "P", "a", "ver", 3))
		got, err = h.Backend.Update(ctx, h.Main.Table, key("P", "b"), set(1), backend.Absent())
		must(t, err)
		wantItem(t, "Update under Absent, of a missing item", got, item(h.Main, "P", "b", "ver", 1))
		got, err = h.Backend.Update(ctx, h.Main.Table, key("P", "c"), set(1), backend.When(backend.Missing("ver")))
		must(t, err)
		wantItem(t, "Update under When(Missing), of a missing item", got, item(h.Main, "P", "c", "ver", 1))
	}},
	{"an empty change, or one DynamoDB refuses", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		mustPut(t, h, h.Main, item(h.Main, "P", "a", "s", "text"))
		before := snapshot(t, h)
		_, err := h.Backend.Update(ctx, h.Main.Table, key("P", "a"), backend.Change{}, backend.Cond{})
		wantErr(t, "Update(empty change)", err, ddbkit.ErrInvalidArgument)
		var add backend.Change
		add.Add("s", 1)
		_, err = h.Backend.Update(ctx, h.Main.Table, key("P", "a"), add, backend.Cond{})
		wantErr(t, "Update adding to a String", err, ddbkit.ErrSchemaMismatch)
		err = h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{backend.Update("add", h.Main.Table, key("P", "a"), add, backend.Cond{})})
		wantErr(t, "Tx adding to a String", err, ddbkit.ErrSchemaMismatch)
		wantUnchanged(t, "refused updates", h, before)
	}},
}

var removeCases = []testCase{
	{"remove and remove read", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		mustPut(t, h, h.Main, item(h.Main, "P", "a"), item(h.Main, "P", "b"))
		mustPut(t, h, h.Other, item(h.Other, "x", ""))
		must(t, h.Backend.Remove(ctx, h.Main.Table, key("P", "a")))
		wantItem(t, "Get after Remove", get(t, h, h.Main, key("P", "a")), nil)
		wantCond(t, "Remove of a removed item", h.Backend.Remove(ctx, h.Main.Table, key("P", "a")), "", nil)
		wantCond(t, "Remove of a missing item", h.Backend.Remove(ctx, h.Main.Table, key("P", "zz")), "", nil)
		must(t, h.Backend.RemoveRead(ctx, h.Main.Table, key("P", "b")))
		wantItem(t, "Get after RemoveRead", get(t, h, h.Main, key("P", "b")), nil)
		wantCond(t, "RemoveRead of a missing item", h.Backend.RemoveRead(ctx, h.Main.Table, key("P", "b")), "", nil)
		must(t, h.Backend.Remove(ctx, h.Other.Table, key("x", "")))
		wantItem(t, "Get(Other) after Remove", get(t, h, h.Other, key("x", "")), nil)
	}},
}

var batchWriteCases = []testCase{
	{"puts and deletes past one call", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		var old, puts []ddb.Item
		var dels []backend.Key
		for i := range 10 {
			old = append(old, item(h.Main, "P", fmt.Sprintf("old%02d", i)))
			dels = append(dels, key("P", fmt.Sprintf("old%02d", i)))
		}
		dels = append(dels, key("P", "never"))
		mustPut(t, h, h.Main, old...)
		for i := range 60 {
			puts = append(puts, item(h.Main, "P", fmt.Sprintf("new%02d", i), GPK, "G1", GSK, fmt.Sprintf("g%02d", i)))
		}
		puts = append(puts, item(h.Main, "P", "old03", "replaced", "yes"))
		dels = append(dels[:3], dels[4:]...)
		must(t, h.Backend.BatchWrite(ctx, h.Main.Table, puts, dels))
		got := all(t, h.Backend, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P", ConsistentRead: true}, backend.Filter{})
		wantItems(t, "the partition after BatchWrite", got, puts)
		must(t, h.Backend.BatchWrite(ctx, h.Main.Table, nil, nil))
		must(t, h.Backend.BatchWrite(ctx, h.Other.Table, []ddb.Item{item(h.Other, "x", "")}, []backend.Key{key("y", "")}))
		wantItem(t, "Get(Other) after BatchWrite", get(t, h, h.Other, key("x", "")), item(h.Other, "x", ""))
	}},
	{"a refused write fails its call, not the calls before", func(t *testing.T, h *Harness) {
		var puts []ddb.Item
		for i := range 30 {
			puts = append(puts, item(h.Main, "P", fmt.Sprintf("k%02d", i)))
		}
		puts[27] = sized(h.Main, "P", "k27", ddb.MaxItemSize+1)
		err := h.Backend.BatchWrite(t.Context(), h.Main.Table, puts, nil)
		wantErr(t, "BatchWrite with an item over 400 KB in its second call", err, ddbkit.ErrInvalidArgument)
		got := all(t, h.Backend, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P", ConsistentRead: true}, backend.Filter{})
		wantItems(t, "the partition after the refused batch", got, puts[:ddb.MaxBatchWrite])
	}},
	{"a key twice", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		mustPut(t, h, h.Main, item(h.Main, "P", "a"))
		before := snapshot(t, h)
		var puts []ddb.Item
		for i := range 30 {
			puts = append(puts, item(h.Main, "P", fmt.Sprintf("k%02d", i)))
		}
		err := h.Backend.BatchWrite(ctx, h.Main.Table, append(puts, item(h.Main, "P", "k29", "again", 1)), nil)
		wantErr(t, "BatchWrite putting a key twice", err, ddbkit.ErrInvalidArgument)
		err = h.Backend.BatchWrite(ctx, h.Main.Table, puts, []backend.Key{key("P", "a"), key("P", "k00")})
		wantErr(t, "BatchWrite putting and deleting a key", err, ddbkit.ErrInvalidArgument)
		err = h.Backend.BatchWrite(ctx, h.Main.Table, nil, []backend.Key{key("P", "a"), key("P", "a")})
		wantErr(t, "BatchWrite deleting a key twice", err, ddbkit.ErrInvalidArgument)
		wantUnchanged(t, "a refused BatchWrite", h, before)
	}},
}

func run(t *testing.T, h *Harness, part string) *backend.Run {
	return backend.NewRun(t.Context(), scope(h, part), ddb.Backoff{Attempts: 3})

}

var txCases = []testCase{
	{"every kind of write, over two tables", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		r, d, c, u := item(h.Main, "P", "r", "v", 1), item(h.Main, "P", "d", "v", 1), item(h.Main, "P", "c", "v", 1), item(h.Main, "P", "u", "n", 1)
		mustPut(t, h, h.Main, r, d, c, u, item(h.Main, "P", "rm"))
		o := item(h.Other, "x", "", "v", 1)
		var add backend.Change
		add.Add("n", 2)
		must(t, h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{
			backend.PutNew("new", h.Main.Table, item(h.Main, "P", "new")),
			backend.Put("put", h.Main.Table, item(h.Main, "P", "put")),
			backend.Replace("replace", h.Main.Table, item(h.Main, "P", "r", "v", 2), ddb.Item{"v": num(1)}),
			backend.Delete("delete", h.Main.Table, key("P", "d"), ddb.Item{"v": num(1)}),
			backend.Remove("remove", h.Main.Table, key("P", "rm")),
			backend.Remove("remove missing", h.Main.Table, key("P", "none")),
			backend.Check("check", h.Main.Table, key("P", "c"), ddb.Item{"v": num(1)}),
			backend.Update("update", h.Main.Table, key("P", "u"), add, backend.Exists(nil)),
			backend.Update("upsert", h.Main.Table, key("P", "up"), add, backend.Cond{}),
			backend.PutNew("other", h.Other.Table, o),
		}))
		got := all(t, h.Backend, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P", ConsistentRead: true}, backend.Filter{})
		wantItems(t, "the partition after Tx", got, []ddb.Item{c, item(h.Main, "P", "new"), item(h.Main, "P", "put"),
			item(h.Main, "P", "r", "v", 2), item(h.Main, "P", "u", "n", 3), item(h.Main, "P", "up", "n", 2)})
		wantItem(t, "Get(Other) after Tx", get(t, h, h.Other, key("x", "")), o)
	}},
	{"a failed condition writes nothing and names the first", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		a, b := item(h.Main, "P", "a", "v", 1), item(h.Main, "P", "b", "v", 1)
		mustPut(t, h, h.Main, a, b)
		var add backend.Change
		add.Add("n", 1)
		for _, c := range []struct {
			name  string
			ws    []backend.Write
			label string
			old   ddb.Item
		}{
			{"check", []backend.Write{
				backend.PutNew("new", h.Main.Table, item(h.Main, "P", "new")),
				backend.Update("add", h.Main.Table, key("P", "b"), add, backend.Cond{}),
				backend.Check("check a", h.Main.Table, key("P", "a"), ddb.Item{"v": num(2)}),
				backend.PutNew("taken b", h.Other.Table, item(h.Other, "x", "")),
			}, "check a", a},
			{"two failing: the first in order", []backend.Write{
				backend.Put("put", h.Other.Table, item(h.Other, "x", "")),
				backend.PutNew("taken b", h.Main.Table, item(h.Main, "P", "b")),
				backend.Delete("delete a", h.Main.Table, key("P", "a"), ddb.Item{"v": num(2)}),
			}, "taken b", b},
			{"missing", []backend.Write{
				backend.Update("update missing", h.Main.Table, key("P", "none"), add, backend.Exists(nil)),
				backend.Remove("remove a", h.Main.Table, key("P", "a")),
			}, "update missing", nil},
			{"when", []backend.Write{
				backend.Update("update when", h.Main.Table, key("P", "a"), add, backend.When(backend.Missing("v"))),
				backend.Put("put", h.Main.Table, item(h.Main, "P", "put")),
			}, "update when", a},
			{"replace", []backend.Write{
				backend.Replace("replace", h.Main.Table, item(h.Main, "P", "none"), nil),
			}, "replace", nil},
		} {
			before := snapshot(t, h)
			err := h.Backend.Tx(ctx, run(t, h, "P"), c.ws)
			wantCond(t, c.name, err, c.label, c.old)
			wantUnchanged(t, c.name, h, before)
		}
	}},
	{"limits, checked before any call", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		mustPut(t, h, h.Main, item(h.Main, "P", "a"))
		before := snapshot(t, h)
		var many []backend.Write
		for i := range ddb.MaxTxItems + 1 {
			many = append(many, backend.Put(fmt.Sprint(i), h.Main.Table, item(h.Main, "P", fmt.Sprintf("k%03d", i))))
		}
		wantErr(t, "Tx of 101 writes", h.Backend.Tx(ctx, run(t, h, "P"), many), ddbkit.ErrInvalidArgument)
		wantErr(t, "Tx of no writes", h.Backend.Tx(ctx, run(t, h, "P"), nil), ddbkit.ErrInvalidArgument)
		wantErr(t, "Tx touching a key twice", h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{
			backend.Put("put", h.Main.Table, item(h.Main, "P", "b")),
			backend.Check("check", h.Main.Table, key("P", "a"), nil),
			backend.Remove("remove", h.Main.Table, key("P", "b")),
		}), ddbkit.ErrInvalidArgument)
		var empty backend.Change
		wantErr(t, "Tx with an empty change", h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{
			backend.Update("update", h.Main.Table, key("P", "a"), empty, backend.Cond{}),
		}), ddbkit.ErrInvalidArgument)
		wantUnchanged(t, "refused transactions", h, before)
		must(t, h.Backend.Tx(ctx, run(t, h, "P"), many[:ddb.MaxTxItems]))
		must(t, h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{
			backend.Put("main", h.Main.Table, item(h.Main, "x", "y")),
			backend.Put("other", h.Other.Table, item(h.Other, "x", "")),
		}))
	}},
	{"token replay under an idempotency key", func(t *testing.T, h *Harness) {
		ctx := ddbkit.WithIdempotencyKey(t.Context(), "tx-key")
		var add backend.Change
		add.Add("n", 1)
		ws := []backend.Write{
			backend.Update("count", h.Main.Table, key("P", "counter"), add, backend.Cond{}),
			backend.PutNew("new", h.Main.Table, item(h.Main, "P", "new")),
		}
		b := ddb.Backoff{Attempts: 3}
		must(t, h.Backend.Tx(ctx, backend.NewRun(ctx, scope(h, "P"), b), ws))
		if err := h.Backend.Tx(ctx, backend.NewRun(ctx, scope(h, "P"), b), ws); err != nil {
			t.Errorf("Tx repeated under its key: %v, want success", err)
		}
		wantItem(t, "the counter after a repeat", get(t, h, h.Main, key("P", "counter")), item(h.Main, "P", "counter", "n", 1))
		before := snapshot(t, h)
		err := h.Backend.Tx(ctx, backend.NewRun(ctx, scope(h, "P"), b), ws[:1])
		wantErr(t, "Tx of other writes under the same key", err, ddbkit.ErrConflict)
		if !is(err, ddbkit.ErrIdempotencyKeyReused) {
			t.Errorf("Tx of other writes under the same key: %v, want it to match ErrIdempotencyKeyReused", err)
		}
		wantUnchanged(t, "a reused key", h, before)
		err = h.Backend.Tx(ctx, backend.NewRun(ctx, scope(h, "P2"), b), ws)
		wantCond(t, "the same writes in another scope", err, "new", item(h.Main, "P", "new"))
		wantUnchanged(t, "a refused transaction", h, before)
	}},
	{"a cancelled transaction leaves its token free", func(t *testing.T, h *Harness) {
		ctx := ddbkit.WithIdempotencyKey(t.Context(), "tx-key")
		a := item(h.Main, "P", "a", "v", 1)
		mustPut(t, h, h.Main, a)
		ws := []backend.Write{
			backend.Check("check", h.Main.Table, key("P", "a"), ddb.Item{"v": num(2)}),
			backend.PutNew("new", h.Main.Table, item(h.Main, "P", "new")),
		}
		r := backend.NewRun(ctx, scope(h, "P"), ddb.Backoff{Attempts: 3})
		wantCond(t, "Tx whose check fails", h.Backend.Tx(ctx, r, ws), "check", a)
		mustPut(t, h, h.Main, item(h.Main, "P", "a", "v", 2))
		must(t, h.Backend.Tx(ctx, r, ws))
		wantItem(t, "the item the second build put", get(t, h, h.Main, key("P", "new")), item(h.Main, "P", "new"))
	}},
}

var errOther = errors.New("not a race")

var rmwCases = []testCase{
	{"rebuilds after a change, with one token", func(t *testing.T, h *Harness) {
		ctx := ddbkit.WithIdempotencyKey(t.Context(), "rmw-key")
		mustPut(t, h, h.Main, item(h.Main, "P", "a", "ver", 1))
		builds := 0
		body := func(r *backend.Run) error {
			builds++
			cur := get(t, h, h.Main, key("P", "a"))
			if builds == 1 { // another writer, between the read and the write
				mustPut(t, h, h.Main, item(h.Main, "P", "a", "ver", 2))
			}
			var c backend.Change
			c.Add("ver", 10)
			err := h.Backend.Tx(ctx, r, []backend.Write{backend.Update("a", h.Main.Table, key("P", "a"), c, backend.Exists(ddb.Item{"ver": cur["ver"]}))})
			if _, ok := backend.Failed(err, "a"); ok {
				return backend.Changed("a changed")
			}
			return err
		}
		must(t, backend.RMW(ctx, ddb.Backoff{Attempts: 3}, scope(h, "P"), body))
		if builds != 2 {
			t.Errorf("builds = %d, want 2", builds)
		}
		wantItem(t, "the item after the run", get(t, h, h.Main, key("P", "a")), item(h.Main, "P", "a", "ver", 12))
		// A repeat under the key reads the item its run wrote and builds
		// other writes under the committed token: refused, not applied.
		builds = 10
		err := backend.RMW(ctx, ddb.Backoff{Attempts: 3}, scope(h, "P"), body)
		wantErr(t, "a repeated run", err, ddbkit.ErrConflict)
		wantItem(t, "the item after a repeated run", get(t, h, h.Main, key("P", "a")), item(h.Main, "P", "a", "ver", 12))
	}},
	{"stays within its attempts", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		mustPut(t, h, h.Main, item(h.Main, "P", "a", "ver", 1))
		for _, attempts := range []int{1, 2, 5} {
			builds := 0
			err := backend.RMW(ctx, ddb.Backoff{Attempts: attempts}, scope(h, "P"), func(r *backend.Run) error {
				builds++
				err := h.Backend.Tx(ctx, r, []backend.Write{backend.Check("a", h.Main.Table, key("P", "a"), ddb.Item{"ver": num(0)})})
				if _, ok := backend.Failed(err, "a"); ok {
					return backend.Changed("a changed")
				}
				return err
			})
			switch {
			case h.Throttles && (builds < 1 || builds > attempts):
				t.Errorf("attempts %d: builds = %d, want 1 to %d", attempts, builds, attempts)
			case h.Throttles && !backend.IsChanged(err) && !is(err, ddbkit.ErrUnavailable):
				t.Errorf("attempts %d: got error %v, want the last *ChangedError or ErrUnavailable", attempts, err)
			case h.Throttles:
			case !is(err, ddbkit.ErrConflict) || !backend.IsChanged(err):
				t.Errorf("attempts %d: got error %v, want the last *ChangedError", attempts, err)
			case builds != attempts:
				t.Errorf("attempts %d: builds = %d", attempts, builds)
			}
		}
		builds := 0
		err := backend.RMW(ctx, ddb.Backoff{Attempts: 5}, scope(h, "P"), func(r *backend.Run) error { builds++; return errOther })
		if !errors.Is(err, errOther) || builds != 1 {
			t.Errorf("RMW whose build fails otherwise: %v after %d builds, want %v after 1", err, builds, errOther)
		}
	}},
}
