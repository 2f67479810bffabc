package kondatetest

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// Shards is the Options.CatalogShards RunSharded runs with: enough that a
// few entries land in several shards, shard 0 (the seed's partition) among
// them.
const Shards = 4

// ShardedCatalogShards is Shards' former name.
//
// Deprecated: use Shards.
const ShardedCatalogShards = Shards

// Sharded returns newStore with Options.CatalogShards set to n on every
// store it makes.
func Sharded(newStore NewStore, n int) NewStore {
	return func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store {
		return newStore(t, append(opts, func(o *kondate.Options) { o.CatalogShards = n })...)
	}
}

// RunSharded runs the catalog's conformance tests against stores made by
// newStore with the catalog sharded (Options.CatalogShards = Shards): every
// catalog operation behaves as in the seed's layout, and the merged lists
// keep its order, page sizes and cursors' guarantees. It is the name every
// domain's suite gives its sharded layout's run.
func RunSharded(t *testing.T, newStore NewStore) {
	sharded := Sharded(newStore, Shards)
	tests := []struct {
		name string
		fn   func(*testing.T, kondate.Store)
	}{
		{"Catalog", testCatalog},
		{"CatalogTagFilter", testCatalogTagFilter},
		{"Saves", testSaves},
		{"ShareLinks", testShareLinks},
		{"CatalogBadInput", testCatalogBadInput},
		{"CatalogEndedContext", testCatalogEndedContext},
		{"CatalogIdempotencyKey", testCatalogIdempotencyKey},
		{"MergedOrder", testMergedOrder},
		{"MergedCursors", testMergedCursors},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, fixed(t, sharded)) })
	}
	t.Run("DisabledIndexes", func(t *testing.T) { testDisabledIndexes(t, sharded) })
	t.Run("ConcurrentSaves", func(t *testing.T) { testConcurrentSaves(t, sharded) })
	t.Run("MergedTagFilter", func(t *testing.T) { testMergedTagFilter(t, newStore) })
	t.Run("InvalidShards", func(t *testing.T) { testInvalidShards(t, newStore) })
}

// RunShardedCatalog is RunSharded's former name.
//
// Deprecated: use RunSharded.
func RunShardedCatalog(t *testing.T, newStore NewStore) { RunSharded(t, newStore) }

// publishMany publishes n recipes of several creators, saves some of them
// so that popular counts tie, and returns the entries as the catalog holds
// them.
func publishMany(t *testing.T, s kondate.Store, n int) []kondate.CatalogEntry {
	t.Helper()
	ctx := t.Context()
	var es []kondate.CatalogEntry
	for i := range n {
		creator := fmt.Sprintf("u_c%d", i%3)
		in := newRecipe(fmt.Sprint("r", i))
		if i%4 == 0 {
			in.Tags = []string{"簡単"}
		}
		r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, creator, in))
		es = append(es, must[kondate.CatalogEntry](t, "Publish")(s.Publish(ctx, creator, kondate.KindRecipe, r.ID)))
	}
	for i := range es {
		for u := range i % 3 { // counts 0, 1, 2: many ties, across shards
			must[kondate.SavedEntry](t, "SaveCatalogEntry")(s.SaveCatalogEntry(ctx, fmt.Sprintf("u_s%d", u), kondate.KindRecipe, es[i].ID))
		}
		es[i] = must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(ctx, kondate.KindRecipe, es[i].ID))
	}
	return es
}

// newestOrder and popularOrder are the unsharded lists' orders: the sort
// keys SORT#NEWEST#<createdAt>#<id> and SORT#POPULAR#<count>#<id>,
// descending.
func newestOrder(a, b kondate.CatalogEntry) int {
	return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(b.ID, a.ID))
}

func popularOrder(a, b kondate.CatalogEntry) int {
	return cmp.Or(cmp.Compare(b.SavedCount, a.SavedCount), cmp.Compare(b.ID, a.ID))
}

// testMergedOrder: the merged newest and popular lists hold every entry of
// every shard once, in the unsharded lists' order (popular ties by ID), in
// pages of exactly the limit, with Next "" exactly on the last page.
func testMergedOrder(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	es := publishMany(t, s, 17)
	shards := map[int]bool{}
	for _, e := range es {
		shards[kondate.CatalogShard(e.ID, Shards)] = true
	}
	if len(shards) < 3 {
		t.Fatalf("entries in shards %v only; the test wants them spread", shards)
	}
	lists := []struct {
		name  string
		order func(a, b kondate.CatalogEntry) int
		list  func(kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error)
	}{
		{"newest", newestOrder, func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
			return s.ListCatalogNewest(ctx, kondate.KindRecipe, o)
		}},
		{"popular", popularOrder, func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
			return s.ListCatalogPopular(ctx, kondate.KindRecipe, o)
		}},
	}
	for _, l := range lists {
		want := slices.SortedFunc(slices.Values(es), l.order)
		for _, limit := range []int{1, 2, 5, 17, 100} {
			var got []kondate.CatalogEntry
			cursor := ""
			for page := 0; ; page++ {
				p := must[ddbkit.Page[kondate.CatalogEntry]](t, l.name)(l.list(kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: limit, Cursor: cursor}}))
				got = append(got, p.Items...)
				last := len(got) == len(want)
				if !last && len(p.Items) != limit {
					t.Fatalf("%s limit %d page %d: %d items, want %d", l.name, limit, page, len(p.Items), limit)
				}
				if last != (p.Next == "") {
					t.Fatalf("%s limit %d page %d: %d of %d listed, next %q", l.name, limit, page, len(got), len(want), p.Next)
				}
				if p.Next == "" {
					break
				}
				cursor = p.Next
			}
			wantEqual(t, fmt.Sprintf("%s in pages of %d", l.name, limit), got, want)
		}
	}
	// The by-creator list reads the creator's partition, unsharded.
	var mine []kondate.CatalogEntry
	for _, e := range es {
		if e.CreatorID == "u_c1" {
			mine = append(mine, e)
		}
	}
	byCreator := catalogAll(t, "ListCatalogByCreator", func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
		return s.ListCatalogByCreator(ctx, "u_c1", kondate.KindRecipe, o)
	})
	wantEqual(t, "by creator", byCreator, slices.SortedFunc(slices.Values(mine), newestOrder))
	// Every entry's saves were counted where the entry lives.
	if rep, err := s.RecalculatePopularity(ctx, kondate.KindRecipe); err != nil || len(rep.Drifts) != 0 || len(rep.Skipped) != 0 {
		t.Fatalf("RecalculatePopularity = %+v, %v; want no drift", rep, err)
	}
}

// testMergedCursors: a merged cursor works only in the list, kind and tag
// it was issued for, and unchanged.
func testMergedCursors(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	publishMany(t, s, 5)
	page := func(list func(kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error), o kondate.CatalogQuery) string {
		t.Helper()
		o.Limit = 2
		return must[ddbkit.Page[kondate.CatalogEntry]](t, "page")(list(o)).Next
	}
	newest := func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
		return s.ListCatalogNewest(ctx, kondate.KindRecipe, o)
	}
	popular := func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
		return s.ListCatalogPopular(ctx, kondate.KindRecipe, o)
	}
	next := page(newest, kondate.CatalogQuery{})
	if next == "" {
		t.Fatal("no next page")
	}
	tampered := []byte(next)
	tampered[len(tampered)/2] ^= 1
	for name, call := range map[string]func() error{
		"popular with newest's cursor": func() error {
			_, err := popular(kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Cursor: next}})
			return err
		},
		"sets with recipes' cursor": func() error {
			_, err := s.ListCatalogNewest(ctx, kondate.KindSet, kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Cursor: next}})
			return err
		},
		"a tag with an untagged cursor": func() error {
			_, err := newest(kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Cursor: next}, Tag: "簡単"})
			return err
		},
		"by creator with newest's cursor": func() error {
			_, err := s.ListCatalogByCreator(ctx, "u_c0", kondate.KindRecipe, kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Cursor: next}})
			return err
		},
		"a tampered cursor": func() error {
			_, err := newest(kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Cursor: string(tampered)}})
			return err
		},
	} {
		wantErr(t, name, call(), ddbkit.ErrInvalidCursor)
	}
	// A user's listing's cursor is not a merged list's either.
	saved := must[ddbkit.Page[kondate.Recipe]](t, "ListRecipes")(s.ListRecipes(ctx, "u_c0", ddbkit.PageOptions{Limit: 1}))
	if saved.Next != "" {
		_, err := newest(kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Cursor: saved.Next}})
		wantErr(t, "newest with a user listing's cursor", err, ddbkit.ErrInvalidCursor)
	}
}

// testMergedTagFilter: a tag-filtered merged page evaluates a share of the
// budget in each shard and may come back short, with a Next; paging on
// lists every tagged entry once, in order.
func testMergedTagFilter(t *testing.T, newStore NewStore) {
	s := fixed(t, func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store {
		return newStore(t, append(opts, func(o *kondate.Options) { o.CatalogShards = Shards; o.FilterBudget = 8 })...)
	})
	ctx := t.Context()
	es := publishMany(t, s, 24)
	var want []kondate.CatalogEntry
	for _, e := range es {
		if slices.Contains(e.Tags, "簡単") {
			want = append(want, e)
		}
	}
	slices.SortFunc(want, newestOrder)
	var got []kondate.CatalogEntry
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 50 {
			t.Fatal("filtered listing does not end")
		}
		p := must[ddbkit.Page[kondate.CatalogEntry]](t, "filtered")(s.ListCatalogNewest(ctx, kondate.KindRecipe,
			kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2, Cursor: cursor}, Tag: "簡単"}))
		if len(p.Items) > 2 {
			t.Fatalf("filtered page of %d items, limit 2", len(p.Items))
		}
		got = append(got, p.Items...)
		if p.Next == "" {
			break
		}
		cursor = p.Next
	}
	wantEqual(t, "tagged entries, merged", ids(got), ids(want))
}

// testInvalidShards: a shard count no layout has fails every catalog
// operation with ErrInvalidArgument naming CatalogShards, before any call.
func testInvalidShards(t *testing.T, newStore NewStore) {
	ctx := t.Context()
	for _, n := range []int{-1, kondate.MaxCatalogShards + 1} {
		s := newStore(t, kondate.AllIndexes, func(o *kondate.Options) { o.CatalogShards = n })
		r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("x")))
		o := kondate.CatalogQuery{}
		for name, call := range map[string]func() error{
			"Publish":         func() error { _, err := s.Publish(ctx, user, kondate.KindRecipe, r.ID); return err },
			"Unpublish":       func() error { return s.Unpublish(ctx, user, kondate.KindRecipe, r.ID) },
			"GetCatalogEntry": func() error { _, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, r.ID); return err },
			"ListCatalogNewest": func() error {
				_, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, o)
				return err
			},
			"ListCatalogPopular": func() error {
				_, err := s.ListCatalogPopular(ctx, kondate.KindRecipe, o)
				return err
			},
			"ListCatalogByCreator": func() error {
				_, err := s.ListCatalogByCreator(ctx, user, kondate.KindRecipe, o)
				return err
			},
			"SaveCatalogEntry":      func() error { _, err := s.SaveCatalogEntry(ctx, user, kondate.KindRecipe, r.ID); return err },
			"UnsaveCatalogEntry":    func() error { return s.UnsaveCatalogEntry(ctx, user, kondate.KindRecipe, r.ID) },
			"ListSaved":             func() error { _, err := s.ListSaved(ctx, user, kondate.KindRecipe, ddbkit.PageOptions{}); return err },
			"RecalculatePopularity": func() error { _, err := s.RecalculatePopularity(ctx, kondate.KindRecipe); return err },
		} {
			err := call()
			wantErr(t, fmt.Sprintf("%s with CatalogShards %d", name, n), err, ddbkit.ErrInvalidArgument)
			var ve *ddbkit.ValidationError
			if !errors.As(err, &ve) || ve.Field != "CatalogShards" {
				t.Fatalf("%s with CatalogShards %d: %v, want a ValidationError naming CatalogShards", name, n, err)
			}
		}
		if got := must[kondate.Recipe](t, "GetRecipe")(s.GetRecipe(ctx, user, r.ID)); !got.PublishedAt.IsZero() {
			t.Fatalf("recipe published by a store refusing its options: %+v", got)
		}
	}
	// Sharded without GSI1: what finds the entries published before the
	// switch is missing.
	s := newStore(t, func(o *kondate.Options) { o.CatalogShards = Shards; o.EnableGSI1 = false })
	r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("x")))
	_, err := s.Publish(ctx, user, kondate.KindRecipe, r.ID)
	wantErr(t, "Publish, sharded without GSI1", err, ddbkit.ErrSchemaMismatch)
	wantErr(t, "Unpublish, sharded without GSI1", s.Unpublish(ctx, user, kondate.KindRecipe, r.ID), ddbkit.ErrSchemaMismatch)
	_, err = s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{})
	wantErr(t, "ListCatalogNewest, sharded without GSI1", err, ddbkit.ErrSchemaMismatch)
}
