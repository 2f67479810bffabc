package backendtest

import (
	"errors"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// extCases cover the primitives the domains' migrations asked for:
// Delete, GetEventual, BatchGetWith, CheckWhen, DeleteWhen, Not, and step
// runs under a fresh token.
var extCases = []testCase{
	{"Delete", func(t *testing.T, h *Harness) {
		a := item(h.Main, "P", "a", "v", 1)
		mustPut(t, h, h.Main, a)
		must(t, h.Backend.Delete(t.Context(), h.Main.Table, key("P", "a")))
		if got := get(t, h, h.Main, key("P", "a")); got != nil {
			t.Errorf("Get after Delete = %s, want none", render(got))
		}
		if err := h.Backend.Delete(t.Context(), h.Main.Table, key("P", "a")); err != nil {
			t.Errorf("Delete of a missing item: %v, want success", err)
		}
		wantErr(t, "Delete under a cancelled context", h.Backend.Delete(cancelled(t), h.Main.Table, key("P", "a")), ddbkit.ErrUnavailable)
	}},
	{"GetEventual", func(t *testing.T, h *Harness) {
		a := item(h.Main, "P", "a", "v", 1)
		mustPut(t, h, h.Main, a)
		got, err := h.Backend.GetEventual(t.Context(), h.Main.Table, key("P", "a"))
		must(t, err)
		wantItem(t, "GetEventual", got, a)
		got, err = h.Backend.GetEventual(t.Context(), h.Main.Table, key("P", "none"))
		must(t, err)
		if got != nil {
			t.Errorf("GetEventual of a missing item = %s, want none", render(got))
		}
	}},
	{"BatchGetWith", func(t *testing.T, h *Harness) {
		var ks []backend.Key
		for i := range 7 {
			it := item(h.Main, "P", string(rune('a'+i)), "v", i, "w", "x")
			mustPut(t, h, h.Main, it)
			ks = append(ks, key("P", string(rune('a'+i))))
		}
		ks = append(ks, key("P", "none"))
		got, err := h.Backend.BatchGetWith(t.Context(), h.Main.Table, ks,
			backend.ReadOptions{Eventual: true, ChunkSize: 3, Attrs: []string{"pk", "sk", "v"}})
		must(t, err)
		if len(got) != len(ks) {
			t.Fatalf("BatchGetWith returned %d items, want %d", len(got), len(ks))
		}
		for i := range 7 {
			wantItem(t, "projected item", got[i], ddb.Item{"pk": str("P"), "sk": str(string(rune('a' + i))), "v": num(int64(i))})
		}
		if got[7] != nil {
			t.Errorf("missing key gave %s, want nil", render(got[7]))
		}
		_, err = h.Backend.BatchGetWith(t.Context(), h.Main.Table, ks, backend.ReadOptions{Attrs: []string{"v"}})
		wantErr(t, "a projection without the key", err, ddbkit.ErrInvalidArgument)
		_, err = h.Backend.BatchGetWith(t.Context(), h.Main.Table, ks, backend.ReadOptions{ChunkSize: 101})
		wantErr(t, "a chunk of 101", err, ddbkit.ErrInvalidArgument)
	}},
	{"CheckWhen and DeleteWhen", func(t *testing.T, h *Harness) {
		a := item(h.Main, "P", "a", "v", 1)
		b := item(h.Main, "P", "b", "v", 2)
		mustPut(t, h, h.Main, a, b)
		run := backend.NewRun(t.Context(), scope(h, "P"), ddb.Backoff{Attempts: 5})
		before := snapshot(t, h)
		err := h.Backend.Tx(t.Context(), run, []backend.Write{
			backend.CheckWhen("absent", h.Main.Table, key("P", "a"), backend.Absent()),
			backend.Put("put", h.Main.Table, item(h.Main, "P", "c", "v", 3)),
		})
		wantCond(t, "CheckWhen(Absent) on an item", err, "absent", a)
		wantUnchanged(t, "a cancelled transaction", h, before)
		run = backend.NewRun(t.Context(), scope(h, "P"), ddb.Backoff{Attempts: 5})
		must(t, h.Backend.Tx(t.Context(), run, []backend.Write{
			backend.CheckWhen("absent", h.Main.Table, key("P", "none"), backend.Absent()),
			backend.DeleteWhen("del", h.Main.Table, key("P", "b"), backend.When(backend.Not(backend.Equal("v", num(1))))),
		}))
		if got := get(t, h, h.Main, key("P", "b")); got != nil {
			t.Errorf("DeleteWhen(v <> 1) left %s", render(got))
		}
		run = backend.NewRun(t.Context(), scope(h, "P"), ddb.Backoff{Attempts: 5})
		err = h.Backend.Tx(t.Context(), run, []backend.Write{backend.CheckWhen("none", h.Main.Table, key("P", "a"), backend.Cond{})})
		wantErr(t, "a check without a condition", err, ddbkit.ErrInvalidArgument)
	}},
	{"Not", func(t *testing.T, h *Harness) {
		mustPut(t, h, h.Main, item(h.Main, "P", "a", "v", 1), item(h.Main, "P", "b", "v", 2), item(h.Main, "P", "c"))
		q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P", ConsistentRead: true}
		got := all(t, h.Backend, q, backend.Not(backend.Equal("v", num(1))))
		if want := []string{"b", "c"}; !equal(sks(got), want) {
			t.Errorf("Not(v = 1) kept %v, want %v", sks(got), want)
		}
	}},
	{"DeleteMembers", func(t *testing.T, h *Harness) {
		mustPut(t, h, h.Main, item(h.Main, "P", "a", "tags", sset("x", "y", "z")), item(h.Main, "P", "b", "tags", sset("x")))
		var u backend.Change
		u.DeleteMembers("tags", sset("x", "q"))
		got, err := h.Backend.Update(t.Context(), h.Main.Table, key("P", "a"), u, backend.Exists(nil))
		must(t, err)
		wantItem(t, "after DELETE x", got, item(h.Main, "P", "a", "tags", sset("y", "z")))
		got, err = h.Backend.Update(t.Context(), h.Main.Table, key("P", "b"), u, backend.Exists(nil))
		must(t, err)
		wantItem(t, "a set left empty", got, item(h.Main, "P", "b"))
	}},
	{"Unbound filter", func(t *testing.T, h *Harness) {
		for i := range 5 {
			mustPut(t, h, h.Main, item(h.Main, "P", string(rune('a'+i)), "v", i))
		}
		q := ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P", ConsistentRead: true}
		first, next, err := h.Backend.Query(t.Context(), q, 2, "", backend.Unbound(backend.Greater("v", num(0))))
		must(t, err)
		if want := []string{"b", "c"}; !equal(sks(first), want) || next == "" {
			t.Fatalf("first page %v, next %q; want %v and a cursor", sks(first), next, want)
		}
		// The next page's read moves the bound on: its cursor still serves.
		rest, _, err := h.Backend.Query(t.Context(), q, 5, next, backend.Unbound(backend.Greater("v", num(3))))
		must(t, err)
		if want := []string{"e"}; !equal(sks(rest), want) {
			t.Errorf("second page %v, want %v", sks(rest), want)
		}
		// A bound filter's cursor fails under other values.
		_, next, err = h.Backend.Query(t.Context(), q, 2, "", backend.Greater("v", num(0)))
		must(t, err)
		_, _, err = h.Backend.Query(t.Context(), q, 2, next, backend.Greater("v", num(3)))
		wantErr(t, "a bound filter's cursor under other values", err, ddbkit.ErrInvalidCursor)
	}},
	{"Unchanged", func(t *testing.T, h *Harness) {
		a := item(h.Main, "P", "a", "v", 1, "w", "x")
		mustPut(t, h, h.Main, a)
		var u backend.Change
		u.Set("w", str("y"))
		// As read: v = 1, w = x, z missing.
		guard := backend.Unchanged(h.Main.Table, a, []string{"v", "w", "z"})
		got, err := h.Backend.Update(t.Context(), h.Main.Table, key("P", "a"), u, guard)
		must(t, err)
		wantItem(t, "update under its guard", got, item(h.Main, "P", "a", "v", 1, "w", "y"))
		// The item changed since a was read: the guard fails.
		_, err = h.Backend.Update(t.Context(), h.Main.Table, key("P", "a"), u, guard)
		wantCond(t, "update under a stale guard", err, "", got)
		_, err = h.Backend.Update(t.Context(), h.Main.Table, key("P", "a"), u,
			backend.Unchanged(h.Main.Table, got, []string{"v"}, backend.Equal("w", str("x"))))
		wantCond(t, "update whose extra filter fails", err, "", got)
		// The item is gone: its guard fails, and writes nothing.
		must(t, h.Backend.Remove(t.Context(), h.Main.Table, key("P", "a")))
		_, err = h.Backend.Update(t.Context(), h.Main.Table, key("P", "a"), u, backend.Unchanged(h.Main.Table, got, []string{"v"}))
		wantCond(t, "update of a deleted item", err, "", nil)
		if g := get(t, h, h.Main, key("P", "a")); g != nil {
			t.Errorf("the failed guard wrote %v", g)
		}
		// None read: the guard holds while there is still none.
		got, err = h.Backend.Update(t.Context(), h.Main.Table, key("P", "a"), u, backend.Unchanged(h.Main.Table, nil, []string{"v"}))
		must(t, err)
		wantItem(t, "update under the guard of none read", got, item(h.Main, "P", "a", "w", "y"))
		_, err = h.Backend.Update(t.Context(), h.Main.Table, key("P", "a"), u, backend.Unchanged(h.Main.Table, nil, []string{"v"}))
		wantCond(t, "update under the guard of none read, of an item", err, "", got)
	}},
	{"step run under a key", func(t *testing.T, h *Harness) {
		ctx := ddbkit.WithIdempotencyKey(t.Context(), "step-key")
		for i, sk := range []string{"a", "b"} {
			err := backend.RMWStep(ctx, ddb.Backoff{Attempts: 5}, scope(h, "P"), func(r *backend.Run) error {
				return h.Backend.Tx(ctx, r, []backend.Write{backend.Put("put", h.Main.Table, item(h.Main, "P", sk, "v", i))})
			})
			must(t, err)
		}
		// Under RMW, the same key would have replayed the first write and
		// reported the second, with other writes, as a reused key.
		for _, sk := range []string{"a", "b"} {
			if get(t, h, h.Main, key("P", sk)) == nil {
				t.Errorf("step %s not written", sk)
			}
		}
	}},
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// withheldCases: on a table that withholds the item as it was
// (ddb.Table.WithholdOld), a failed condition is a *CondError with
// Withheld set and no item, which Failed does not report, so that an
// operation passes it on as ErrConflict and never guesses; except
// Exists(nil), whose failure can only mean a missing item. Nothing is
// written.
var withheldCases = []testCase{
	{"every failed condition", func(t *testing.T, h *Harness) {
		ctx := t.Context()
		w := h.Main.Table
		w.WithholdOld = true
		a := item(h.Main, "P", "a", "v", 1)
		mustPut(t, h, h.Main, a)
		var set backend.Change
		set.Set("v", num(2))
		_, updateErr := h.Backend.Update(ctx, w, key("P", "a"), set, backend.Exists(ddb.Item{"v": num(9)}))
		for _, c := range []struct {
			what, label string
			err         error
		}{
			{"Create of a taken key", "", h.Backend.Create(ctx, ddb.Scope{}, w, item(h.Main, "P", "a", "v", 3))},
			{"Put on a changed item", "", h.Backend.Put(ctx, w, item(h.Main, "P", "a", "v", 3), backend.Exists(ddb.Item{"v": num(9)}))},
			{"Update on a changed item", "", updateErr},
			{"Tx with a failed check", "check", h.Backend.Tx(ctx, run(t, h, "P"), []backend.Write{
				backend.Put("put", w, item(h.Main, "P", "b")),
				backend.Check("check", w, key("P", "a"), ddb.Item{"v": num(9)}),
			})},
		} {
			var ce *backend.CondError
			if !errors.As(c.err, &ce) || !ce.Withheld || ce.Old != nil || ce.Label != c.label {
				t.Errorf("%s: got %#v (%v), want a withheld *backend.CondError labelled %q", c.what, ce, c.err, c.label)
			}
			if old, ok := backend.Failed(c.err, ""); ok {
				t.Errorf("%s: Failed reports a withheld failure, with %s", c.what, render(old))
			}
			if !is(c.err, ddbkit.ErrConflict) {
				t.Errorf("%s: %v does not classify as ErrConflict", c.what, c.err)
			}
		}
		wantCond(t, "Update of a missing item, Exists(nil)", func() error {
			_, err := h.Backend.Update(ctx, w, key("P", "none"), set, backend.Exists(nil))
			return err
		}(), "", nil)
		got := all(t, h.Backend, ddb.KeyQuery{Table: h.Main.Table, PartitionValue: "P", ConsistentRead: true}, backend.Filter{})
		wantItems(t, "the partition after the failed writes", got, []ddb.Item{a})
	}},
}
