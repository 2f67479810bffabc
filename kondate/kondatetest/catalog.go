package kondatetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

func catalogAll(t *testing.T, what string, fetch func(kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error)) []kondate.CatalogEntry {
	t.Helper()
	return all(t, what, func(o ddbkit.PageOptions) (ddbkit.Page[kondate.CatalogEntry], error) {
		return fetch(kondate.CatalogQuery{PageOptions: o})
	})
}

func ids(es []kondate.CatalogEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// lists returns the three catalog lists of kind, walked in pages of 2.
func lists(t *testing.T, s kondate.Store, kind kondate.CatalogKind, creator string) (newest, popular, byCreator []kondate.CatalogEntry) {
	t.Helper()
	ctx := t.Context()
	newest = catalogAll(t, "ListCatalogNewest", func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
		return s.ListCatalogNewest(ctx, kind, o)
	})
	popular = catalogAll(t, "ListCatalogPopular", func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
		return s.ListCatalogPopular(ctx, kind, o)
	})
	byCreator = catalogAll(t, "ListCatalogByCreator", func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
		return s.ListCatalogByCreator(ctx, creator, kind, o)
	})
	return newest, popular, byCreator
}

// testCatalog: publishing writes the entry every list shows, newest first;
// the detail comes by ID; unpublishing removes it from all of them.
func testCatalog(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	var rs []kondate.Recipe
	for _, title := range []string{"麻婆豆腐", "肉じゃが", "カレー"} {
		rs = append(rs, must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe(title))))
	}
	var es []kondate.CatalogEntry
	for _, r := range rs {
		e := must[kondate.CatalogEntry](t, "Publish")(s.Publish(ctx, user, kondate.KindRecipe, r.ID))
		want := kondate.CatalogEntry{Kind: kondate.KindRecipe, ID: r.ID, CreatorID: user, Title: r.Title, Tags: r.Tags,
			Ingredients: r.Ingredients, Steps: r.Steps, Origin: r.Origin, CreatedAt: e.CreatedAt}
		wantEqual(t, "Publish", e, want)
		if !e.CreatedAt.After(r.CreatedAt) {
			t.Fatalf("entry published at %v, recipe created at %v", e.CreatedAt, r.CreatedAt)
		}
		es = append(es, e)
	}
	_, err := s.Publish(ctx, user, kondate.KindRecipe, rs[0].ID)
	wantErr(t, "Publish again", err, ddbkit.ErrAlreadyExists)
	_, err = s.Publish(ctx, user, kondate.KindRecipe, "nope")
	wantErr(t, "Publish of a missing recipe", err, ddbkit.ErrNotFound)
	_, err = s.Publish(ctx, "u_02", kondate.KindRecipe, rs[0].ID)
	wantErr(t, "Publish of another user's recipe", err, ddbkit.ErrNotFound)

	newest, popular, byCreator := lists(t, s, kondate.KindRecipe, user)
	want := []kondate.CatalogEntry{es[2], es[1], es[0]}
	wantEqual(t, "newest", newest, want)
	wantEqual(t, "popular (no saves: newest ID first)", popular, want)
	wantEqual(t, "by creator", byCreator, want)
	wantEqual(t, "GetCatalogEntry", must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(ctx, kondate.KindRecipe, es[1].ID)), es[1])
	_, err = s.GetCatalogEntry(ctx, kondate.KindSet, es[1].ID)
	wantErr(t, "GetCatalogEntry of the wrong kind", err, ddbkit.ErrNotFound)

	// A set, in its own lists.
	set := must[kondate.Set](t, "CreateSet")(s.CreateSet(ctx, user, newSet("和定食")))
	se := must[kondate.CatalogEntry](t, "Publish set")(s.Publish(ctx, user, kondate.KindSet, set.ID))
	wantEqual(t, "set entry", se, kondate.CatalogEntry{Kind: kondate.KindSet, ID: set.ID, CreatorID: user, Title: set.Title,
		Tags: set.Tags, Items: set.Items, CreatedAt: se.CreatedAt})
	sn, sp, sc := lists(t, s, kondate.KindSet, user)
	for _, l := range [][]kondate.CatalogEntry{sn, sp, sc} {
		wantEqual(t, "set lists", l, []kondate.CatalogEntry{se})
	}
	if _, _, other := lists(t, s, kondate.KindRecipe, "u_02"); len(other) != 0 {
		t.Fatalf("another creator's list: %v", ids(other))
	}

	// The catalog is a snapshot: editing the recipe leaves it as published.
	must[kondate.Recipe](t, "UpdateRecipe")(s.UpdateRecipe(ctx, user, rs[0].ID, kondate.RecipePatch{Title: ptr("新しい題")}))
	wantEqual(t, "entry after the recipe's edit", must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(ctx, kondate.KindRecipe, es[0].ID)), es[0])

	// Unpublishing.
	err = s.Unpublish(ctx, "u_02", kondate.KindRecipe, es[1].ID)
	wantErr(t, "Unpublish by another user", err, ddbkit.ErrNotFound)
	if err := s.Unpublish(ctx, user, kondate.KindRecipe, es[1].ID); err != nil {
		t.Fatalf("Unpublish: %v", err)
	}
	err = s.Unpublish(ctx, user, kondate.KindRecipe, es[1].ID)
	wantErr(t, "Unpublish again", err, ddbkit.ErrNotFound)
	_, err = s.GetCatalogEntry(ctx, kondate.KindRecipe, es[1].ID)
	wantErr(t, "GetCatalogEntry after Unpublish", err, ddbkit.ErrNotFound)
	newest, popular, byCreator = lists(t, s, kondate.KindRecipe, user)
	want = []kondate.CatalogEntry{es[2], es[0]}
	for _, l := range [][]kondate.CatalogEntry{newest, popular, byCreator} {
		wantEqual(t, "lists after Unpublish", ids(l), ids(want))
	}
	// A recipe deleted while published leaves the catalog with it, in the
	// same transaction: nothing is left to unpublish.
	if err := s.DeleteRecipe(ctx, user, es[2].ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.GetCatalogEntry(ctx, kondate.KindRecipe, es[2].ID)
	wantErr(t, "GetCatalogEntry of a deleted recipe", err, ddbkit.ErrNotFound)
	err = s.Unpublish(ctx, user, kondate.KindRecipe, es[2].ID)
	wantErr(t, "Unpublish of a deleted recipe", err, ddbkit.ErrNotFound)
	newest, popular, byCreator = lists(t, s, kondate.KindRecipe, user)
	for _, l := range [][]kondate.CatalogEntry{newest, popular, byCreator} {
		wantEqual(t, "lists after DeleteRecipe", ids(l), []string{es[0].ID})
	}
	// So does a published set.
	published := must[kondate.Set](t, "CreateSet")(s.CreateSet(ctx, user, kondate.NewSet{Title: "定食"}))
	must[kondate.CatalogEntry](t, "Publish set")(s.Publish(ctx, user, kondate.KindSet, published.ID))
	if err := s.DeleteSet(ctx, user, published.ID); err != nil {
		t.Fatalf("DeleteSet of a published set: %v", err)
	}
	_, err = s.GetCatalogEntry(ctx, kondate.KindSet, published.ID)
	wantErr(t, "GetCatalogEntry of a deleted set", err, ddbkit.ErrNotFound)
	for _, l := range func() [][]kondate.CatalogEntry {
		n, p, c := lists(t, s, kondate.KindSet, user)
		return [][]kondate.CatalogEntry{n, p, c}
	}() {
		if slices.Contains(ids(l), published.ID) {
			t.Fatalf("set lists after DeleteSet hold the deleted set %s: %v", published.ID, ids(l))
		}
	}
	// Published again: a new entry.
	again := must[kondate.CatalogEntry](t, "Publish after Unpublish")(s.Publish(ctx, user, kondate.KindRecipe, es[1].ID))
	newest, _, _ = lists(t, s, kondate.KindRecipe, user)
	wantEqual(t, "newest after publishing again", ids(newest), []string{again.ID, es[0].ID})
}

// testCatalogTagFilter: a tag filter fills each page, and its cursors
// only work with the same tag.
func testCatalogTagFilter(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	var want []string
	for i := range 7 {
		in := newRecipe(fmt.Sprint("r", i))
		if i%3 == 0 {
			in.Tags = []string{"和食", "簡単"}
		} else {
			in.Tags = []string{"洋食"}
		}
		r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, in))
		must[kondate.CatalogEntry](t, "Publish")(s.Publish(ctx, user, kondate.KindRecipe, r.ID))
		if i%3 == 0 {
			want = append([]string{r.ID}, want...)
		}
	}
	p1 := must[ddbkit.Page[kondate.CatalogEntry]](t, "page 1")(s.ListCatalogNewest(ctx, kondate.KindRecipe,
		kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2}, Tag: "簡単"}))
	if len(p1.Items) != 2 || p1.Next == "" {
		t.Fatalf("filtered page 1: %v, next %q; want a full page and a next one", ids(p1.Items), p1.Next)
	}
	p2 := must[ddbkit.Page[kondate.CatalogEntry]](t, "page 2")(s.ListCatalogNewest(ctx, kondate.KindRecipe,
		kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2, Cursor: p1.Next}, Tag: "簡単"}))
	wantEqual(t, "filtered pages", append(ids(p1.Items), ids(p2.Items)...), want[:3])
	if p2.Next != "" {
		t.Fatalf("filtered page 2 has a next page %q", p2.Next)
	}
	_, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2, Cursor: p1.Next}, Tag: "洋食"})
	wantErr(t, "a cursor of another tag", err, ddbkit.ErrInvalidCursor)
	_, err = s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2, Cursor: p1.Next}})
	wantErr(t, "a filtered cursor without the filter", err, ddbkit.ErrInvalidCursor)
}

func savedIDs(t *testing.T, s kondate.Store, userID string, kind kondate.CatalogKind) []string {
	t.Helper()
	var out []string
	for _, e := range all(t, "ListSaved", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.SavedEntry], error) {
		return s.ListSaved(t.Context(), userID, kind, o)
	}) {
		out = append(out, e.ID)
	}
	return out
}

// testSaves: saving counts once however often it is repeated, moves the
// entry up the popular order, and unsaving undoes it.
func testSaves(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	var es []kondate.CatalogEntry
	for _, title := range []string{"a", "b", "c"} {
		r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe(title)))
		es = append(es, must[kondate.CatalogEntry](t, "Publish")(s.Publish(ctx, user, kondate.KindRecipe, r.ID)))
	}
	save := func(u string, e kondate.CatalogEntry) kondate.SavedEntry {
		t.Helper()
		return must[kondate.SavedEntry](t, "SaveCatalogEntry")(s.SaveCatalogEntry(ctx, u, kondate.KindRecipe, e.ID))
	}
	first := save("u_02", es[0])
	wantEqual(t, "saved entry", first, kondate.SavedEntry{UserID: "u_02", Kind: kondate.KindRecipe, ID: es[0].ID,
		CreatorID: user, Title: "a", SavedAt: first.SavedAt})
	wantEqual(t, "saving again returns the first save", save("u_02", es[0]), first)
	save("u_03", es[0])
	save("u_03", es[1])
	save("u_03", es[2])
	save("u_04", es[1])
	save("u_05", es[1])
	count := func(e kondate.CatalogEntry) int64 {
		t.Helper()
		return must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(ctx, kondate.KindRecipe, e.ID)).SavedCount
	}
	if got := []int64{count(es[0]), count(es[1]), count(es[2])}; !slices.Equal(got, []int64{2, 3, 1}) {
		t.Fatalf("savedCounts %v, want [2 3 1]", got)
	}
	_, popular, byCreator := lists(t, s, kondate.KindRecipe, user)
	wantEqual(t, "popular", ids(popular), []string{es[1].ID, es[0].ID, es[2].ID})
	for _, e := range popular {
		if e.SavedCount != count(e) {
			t.Fatalf("popular lists %s with %d saves, the entry has %d", e.ID, e.SavedCount, count(e))
		}
	}
	if byCreator[0].SavedCount != 1 || byCreator[2].SavedCount != 2 {
		t.Fatalf("by creator: counts %d, %d", byCreator[0].SavedCount, byCreator[2].SavedCount)
	}
	wantEqual(t, "ListSaved of u_03, newest first", savedIDs(t, s, "u_03", kondate.KindRecipe), []string{es[2].ID, es[1].ID, es[0].ID})

	// Unsave, twice: counted once.
	for range 2 {
		if err := s.UnsaveCatalogEntry(ctx, "u_04", kondate.KindRecipe, es[1].ID); err != nil {
			t.Fatalf("UnsaveCatalogEntry: %v", err)
		}
	}
	if err := s.UnsaveCatalogEntry(ctx, "u_09", kondate.KindRecipe, es[1].ID); err != nil {
		t.Fatalf("UnsaveCatalogEntry of an entry never saved: %v", err)
	}
	if c := count(es[1]); c != 2 {
		t.Fatalf("savedCount after unsave = %d, want 2", c)
	}
	_, popular, _ = lists(t, s, kondate.KindRecipe, user)
	wantEqual(t, "popular after unsave (ties: newest ID first)", ids(popular), []string{es[1].ID, es[0].ID, es[2].ID})
	rep := must[kondate.PopularityReport](t, "RecalculatePopularity")(s.RecalculatePopularity(ctx, kondate.KindRecipe))
	if len(rep.Drifts) != 0 || rep.Checked != len(es) || len(rep.Skipped) != 0 {
		t.Fatalf("RecalculatePopularity = %+v after saves alone; want %d checked, no drift", rep, len(es))
	}
	_, err := s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, "nope")
	wantErr(t, "saving an entry not in the catalog", err, ddbkit.ErrNotFound)

	// Unpublished: saved items stay, and unsave just removes them.
	if err := s.Unpublish(ctx, user, kondate.KindRecipe, es[2].ID); err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "saved items after unpublish", savedIDs(t, s, "u_03", kondate.KindRecipe), []string{es[2].ID, es[1].ID, es[0].ID})
	if err := s.UnsaveCatalogEntry(ctx, "u_03", kondate.KindRecipe, es[2].ID); err != nil {
		t.Fatalf("UnsaveCatalogEntry of an unpublished entry: %v", err)
	}
	wantEqual(t, "saved items after that unsave", savedIDs(t, s, "u_03", kondate.KindRecipe), []string{es[1].ID, es[0].ID})
	// Published again, the entry starts at zero; RecalculatePopularity
	// counts the saves kept from before and reports the drift.
	must[kondate.SavedEntry](t, "save")(s.SaveCatalogEntry(ctx, "u_03", kondate.KindRecipe, es[0].ID))
	if err := s.Unpublish(ctx, user, kondate.KindRecipe, es[0].ID); err != nil {
		t.Fatal(err)
	}
	e0 := must[kondate.CatalogEntry](t, "Publish again")(s.Publish(ctx, user, kondate.KindRecipe, es[0].ID))
	rep = must[kondate.PopularityReport](t, "RecalculatePopularity")(s.RecalculatePopularity(ctx, kondate.KindRecipe))
	wantEqual(t, "drift", rep.Drifts, []kondate.PopularityDrift{{Kind: kondate.KindRecipe, ID: e0.ID, Stored: 0, Counted: 2}})
	_, popular, _ = lists(t, s, kondate.KindRecipe, user)
	wantEqual(t, "popular after the recount", ids(popular), []string{es[1].ID, es[0].ID})
	if popular[1].SavedCount != 2 {
		t.Fatalf("recounted entry lists %d saves, want 2", popular[1].SavedCount)
	}
}

// testConcurrentSaves: 32 goroutines save and unsave the same entries;
// afterwards each savedCount equals its saved items, and the popular order
// agrees.
func testConcurrentSaves(t *testing.T, newStore NewStore) {
	s := newStore(t, kondate.AllIndexes, func(o *kondate.Options) {
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 1000, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond}
	})
	ctx := t.Context()
	var es []kondate.CatalogEntry
	for _, title := range []string{"a", "b", "c"} {
		r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe(title)))
		es = append(es, must[kondate.CatalogEntry](t, "Publish")(s.Publish(ctx, user, kondate.KindRecipe, r.ID)))
	}
	const goroutines = 32
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*6)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := fmt.Sprintf("u_%02d", g)
			for i := range 6 {
				e := es[(g+i)%len(es)]
				var err error
				if (g*7+i)%3 == 2 {
					err = s.UnsaveCatalogEntry(ctx, u, kondate.KindRecipe, e.ID)
				} else {
					_, err = s.SaveCatalogEntry(ctx, u, kondate.KindRecipe, e.ID)
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("unexpected error: %v", err)
	}
	saved := map[string]int64{}
	for g := range goroutines {
		for _, id := range savedIDs(t, s, fmt.Sprintf("u_%02d", g), kondate.KindRecipe) {
			saved[id]++
		}
	}
	_, popular, _ := lists(t, s, kondate.KindRecipe, user)
	if len(popular) != len(es) {
		t.Fatalf("popular lists %d entries, want %d", len(popular), len(es))
	}
	for i, e := range popular {
		got := must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(ctx, kondate.KindRecipe, e.ID))
		if got.SavedCount != saved[e.ID] || e.SavedCount != saved[e.ID] {
			t.Errorf("entry %s: savedCount %d, popular lists %d, saved items %d", e.ID, got.SavedCount, e.SavedCount, saved[e.ID])
		}
		if i > 0 && popular[i-1].SavedCount < e.SavedCount {
			t.Errorf("popular order: %d saves before %d", popular[i-1].SavedCount, e.SavedCount)
		}
	}
	if rep, err := s.RecalculatePopularity(ctx, kondate.KindRecipe); err != nil || len(rep.Drifts) != 0 || len(rep.Skipped) != 0 {
		t.Errorf("RecalculatePopularity = %+v, %v; want no drift", rep, err)
	}
}

// testShareLinks: create, get, resolve and delete.
func testShareLinks(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("麻婆豆腐")))
	in := kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: r.ID, AuthorName: "はなこ", SourceURL: "https://example.com/r/1"}
	l := must[kondate.ShareLink](t, "CreateShareLink")(s.CreateShareLink(ctx, user, in))
	if l.ID == "" || l.ID == r.ID || l.CreatedBy != user || l.AuthorName != "はなこ" || l.TargetID != r.ID {
		t.Fatalf("CreateShareLink = %+v", l)
	}
	l2 := must[kondate.ShareLink](t, "CreateShareLink")(s.CreateShareLink(ctx, user, in))
	if l2.ID == l.ID {
		t.Fatalf("two links to one target share the ID %q", l.ID)
	}
	wantEqual(t, "GetShareLink", must[kondate.ShareLink](t, "GetShareLink")(s.GetShareLink(ctx, l.ID)), l)

	// Not published: the creator's own recipe.
	got := must[kondate.ShareTarget](t, "ResolveShareLink")(s.ResolveShareLink(ctx, l.ID))
	wantEqual(t, "resolved to the recipe", got, kondate.ShareTarget{Link: l, Recipe: &r})
	// Published: the catalog entry.
	e := must[kondate.CatalogEntry](t, "Publish")(s.Publish(ctx, user, kondate.KindRecipe, r.ID))
	got = must[kondate.ShareTarget](t, "ResolveShareLink")(s.ResolveShareLink(ctx, l.ID))
	wantEqual(t, "resolved to the entry", got, kondate.ShareTarget{Link: l, Entry: &e})
	// Another user's link to a recipe that is not theirs, nor public.
	other := must[kondate.ShareLink](t, "CreateShareLink")(s.CreateShareLink(ctx, "u_02",
		kondate.NewShareLink{TargetType: kondate.KindSet, TargetID: "s_private"}))
	_, err := s.ResolveShareLink(ctx, other.ID)
	wantErr(t, "ResolveShareLink of a private target", err, ddbkit.ErrNotFound)

	err = s.DeleteShareLink(ctx, "u_02", l.ID)
	wantErr(t, "DeleteShareLink by another user", err, ddbkit.ErrNotFound)
	if err := s.DeleteShareLink(ctx, user, l.ID); err != nil {
		t.Fatalf("DeleteShareLink: %v", err)
	}
	_, err = s.GetShareLink(ctx, l.ID)
	wantErr(t, "GetShareLink after delete", err, ddbkit.ErrNotFound)
	_, err = s.ResolveShareLink(ctx, l.ID)
	wantErr(t, "ResolveShareLink after delete", err, ddbkit.ErrNotFound)
	err = s.DeleteShareLink(ctx, user, l.ID)
	wantErr(t, "DeleteShareLink again", err, ddbkit.ErrNotFound)
}

// testDisabledIndexes: an operation that needs a disabled index fails with
// ErrSchemaMismatch; the default options enable GSI1 only. Newest and by
// creator need none: before GSI2 and GSI3 they read the base table.
func testDisabledIndexes(t *testing.T, newStore NewStore) {
	ctx := t.Context()
	s := newStore(t)
	o := kondate.CatalogQuery{}
	_, err := s.ListCatalogPopular(ctx, kondate.KindRecipe, o)
	wantErr(t, "ListCatalogPopular without GSI2", err, ddbkit.ErrSchemaMismatch)
	// Writes need no index: the entry is published, found by ID and listed.
	r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("x")))
	e := must[kondate.CatalogEntry](t, "Publish")(s.Publish(ctx, user, kondate.KindRecipe, r.ID))
	wantEqual(t, "GetCatalogEntry", must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(ctx, kondate.KindRecipe, e.ID)), e)
	newest := must[ddbkit.Page[kondate.CatalogEntry]](t, "ListCatalogNewest without GSI2")(s.ListCatalogNewest(ctx, kondate.KindRecipe, o))
	wantEqual(t, "ListCatalogNewest without GSI2", newest.Items, []kondate.CatalogEntry{e})
	byCreator := must[ddbkit.Page[kondate.CatalogEntry]](t, "ListCatalogByCreator without GSI3")(s.ListCatalogByCreator(ctx, user, kondate.KindRecipe, o))
	wantEqual(t, "ListCatalogByCreator without GSI3", byCreator.Items, []kondate.CatalogEntry{e})

	noGSI1 := newStore(t, func(o *kondate.Options) { o.EnableGSI1 = false })
	for name, call := range map[string]func() error{
		"FindRecipe":            func() error { _, err := noGSI1.FindRecipe(ctx, "r"); return err },
		"FindSet":               func() error { _, err := noGSI1.FindSet(ctx, "s"); return err },
		"GetCatalogEntry":       func() error { _, err := noGSI1.GetCatalogEntry(ctx, kondate.KindRecipe, "r"); return err },
		"SaveCatalogEntry":      func() error { _, err := noGSI1.SaveCatalogEntry(ctx, user, kondate.KindRecipe, "r"); return err },
		"UnsaveCatalogEntry":    func() error { return noGSI1.UnsaveCatalogEntry(ctx, user, kondate.KindRecipe, "r") },
		"RecalculatePopularity": func() error { _, err := noGSI1.RecalculatePopularity(ctx, kondate.KindRecipe); return err },
		"ResolveShareLink":      func() error { _, err := noGSI1.ResolveShareLink(ctx, "x"); return err },
	} {
		wantErr(t, name+" without GSI1", call(), ddbkit.ErrSchemaMismatch)
	}
}

// assertCatalogEmpty reads back the catalog, the saved items and share
// links, and fails if anything is there.
func assertCatalogEmpty(t *testing.T, s kondate.Store, shareIDs ...string) {
	t.Helper()
	ctx := context.Background()
	for _, kind := range []kondate.CatalogKind{kondate.KindRecipe, kondate.KindSet} {
		n, p, c := lists(t, s, kind, user)
		if len(n)+len(p)+len(c) != 0 {
			t.Errorf("catalog %s: %v %v %v, want nothing", kind, ids(n), ids(p), ids(c))
		}
		if got := savedIDs(t, s, user, kind); len(got) != 0 {
			t.Errorf("saved %s: %v, want nothing", kind, got)
		}
	}
	for _, id := range shareIDs {
		if _, err := s.GetShareLink(ctx, id); !errors.Is(err, ddbkit.ErrNotFound) {
			t.Errorf("share link %s: %v, want ErrNotFound", id, err)
		}
	}
}

func testCatalogBadInput(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("x")))
	cases := []struct {
		name, field string
		call        func() error
	}{
		{"bad kind", "Kind", func() error { _, err := s.Publish(ctx, user, "recipe", r.ID); return err }},
		{"publish: user with #", "UserID", func() error { _, err := s.Publish(ctx, "u#1", kondate.KindRecipe, r.ID); return err }},
		{"publish: empty ID", "ID", func() error { _, err := s.Publish(ctx, user, kondate.KindRecipe, ""); return err }},
		{"save: bad kind", "Kind", func() error { _, err := s.SaveCatalogEntry(ctx, user, "", r.ID); return err }},
		{"unsave: ID with space", "ID", func() error { return s.UnsaveCatalogEntry(ctx, user, kondate.KindRecipe, "a b") }},
		{"list: tag with newline", "Tag", func() error {
			_, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{Tag: "a\nb"})
			return err
		}},
		{"list: creator with #", "CreatorID", func() error {
			_, err := s.ListCatalogByCreator(ctx, "a#b", kondate.KindRecipe, kondate.CatalogQuery{})
			return err
		}},
		{"share: bad target type", "TargetType", func() error {
			_, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: "PLAN", TargetID: r.ID})
			return err
		}},
		{"share: no target", "TargetID", func() error {
			_, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe})
			return err
		}},
		{"share: URL too long", "SourceURL", func() error {
			_, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: r.ID,
				SourceURL: string(make([]rune, kondate.MaxURLLen+1))})
			return err
		}},
		{"share: bad ID", "ShareID", func() error { _, err := s.GetShareLink(ctx, "a#b"); return err }},
	}
	for _, c := range cases {
		err := c.call()
		wantErr(t, c.name, err, ddbkit.ErrInvalidArgument)
		var ve *ddbkit.ValidationError
		if !errors.As(err, &ve) || ve.Field != c.field {
			t.Errorf("%s: error %v names field %v, want %s", c.name, err, ve, c.field)
		}
	}
	assertCatalogEmpty(t, s)
	if got := must[kondate.Recipe](t, "GetRecipe")(s.GetRecipe(ctx, user, r.ID)); !reflectEqual(got, r) {
		t.Errorf("recipe changed: %+v, want %+v", got, r)
	}
}

func reflectEqual(a, b any) bool { return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b) }

func testCatalogEndedContext(t *testing.T, s kondate.Store) {
	r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(t.Context(), user, newRecipe("x")))
	e := must[kondate.CatalogEntry](t, "Publish")(s.Publish(t.Context(), "u_02", kondate.KindRecipe,
		must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(t.Context(), "u_02", newRecipe("y"))).ID))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for name, call := range map[string]func() error{
		"Publish":          func() error { _, err := s.Publish(ctx, user, kondate.KindRecipe, r.ID); return err },
		"SaveCatalogEntry": func() error { _, err := s.SaveCatalogEntry(ctx, user, kondate.KindRecipe, e.ID); return err },
		"CreateShareLink": func() error {
			_, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: r.ID})
			return err
		},
		"ListCatalogNewest": func() error {
			_, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{})
			return err
		},
	} {
		err := call()
		wantErr(t, name, err, ddbkit.ErrUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v does not match context.Canceled", name, err)
		}
	}
	if _, _, mine := lists(t, s, kondate.KindRecipe, user); len(mine) != 0 {
		t.Errorf("published under a cancelled context: %v", ids(mine))
	}
	if got := savedIDs(t, s, user, kondate.KindRecipe); len(got) != 0 {
		t.Errorf("saved under a cancelled context: %v", got)
	}
	if c := must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(t.Context(), kondate.KindRecipe, e.ID)).SavedCount; c != 0 {
		t.Errorf("savedCount %d after a cancelled save", c)
	}
}

// testCatalogIdempotencyKey: a save repeated under its idempotency key
// after an unsave (a client's late retry) is refused and does not save
// again; Publish likewise after an Unpublish.
func testCatalogIdempotencyKey(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("x")))
	pub := idempotencyKey(t, "publish-1")
	e := must[kondate.CatalogEntry](t, "Publish")(s.Publish(pub, user, kondate.KindRecipe, r.ID))
	save := idempotencyKey(t, "save-1")
	must[kondate.SavedEntry](t, "SaveCatalogEntry")(s.SaveCatalogEntry(save, "u_02", kondate.KindRecipe, e.ID))
	if err := s.UnsaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, e.ID); err != nil {
		t.Fatal(err)
	}
	// A save is repeat-safe: under its key after an unsave, it saves again,
	// as a call without the key would.
	must[kondate.SavedEntry](t, "SaveCatalogEntry")(s.SaveCatalogEntry(save, "u_02", kondate.KindRecipe, e.ID))
	if got := savedIDs(t, s, "u_02", kondate.KindRecipe); len(got) != 1 {
		t.Fatalf("saved after the repeat: %v", got)
	}
	if c := must[kondate.CatalogEntry](t, "GetCatalogEntry")(s.GetCatalogEntry(ctx, kondate.KindRecipe, e.ID)).SavedCount; c != 1 {
		t.Fatalf("savedCount %d after the repeat, want 1", c)
	}
	if err := s.Unpublish(ctx, user, kondate.KindRecipe, e.ID); err != nil {
		t.Fatal(err)
	}
	// A publish replays its catalog entry, which is gone.
	_, err := s.Publish(pub, user, kondate.KindRecipe, r.ID)
	wantErr(t, "Publish repeated under its key after an unpublish", err, ddbkit.ErrNotFound)
	if n, _, _ := lists(t, s, kondate.KindRecipe, user); len(n) != 0 {
		t.Fatalf("published after the repeat: %v", ids(n))
	}
}
