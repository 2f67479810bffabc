package kondate_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/schema"
)

// updateCounter counts UpdateTable calls.
type updateCounter struct {
	*dynamodb.Client
	n atomic.Int32
}

func (u *updateCounter) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error) {
	u.n.Add(1)
	return u.Client.UpdateTable(ctx, in, optFns...)
}

// quick adds what a table lacks (schema.Apply), as the table's stack would
// at each stage of the rollout, and polls often.
var quick = kondate.SchemaOptions(schema.Apply, func(o *schema.Options) { o.PollInterval = 50 * time.Millisecond })

// TestStagedRollout: the seed's section 10 on DynamoDB Local. The table
// starts with GSI1 only; catalog entries are written, and newest and by
// creator are listed from the base table; enabling GSI2 adds it with
// exactly one UpdateTable, and the entries written before are listed
// (their GSI2 keys were written all along); then GSI3 the same way. A
// table ahead of the options keeps its indexes. checkStage holds the lists
// and their cursors at each stage.
func TestStagedRollout(t *testing.T) {
	raw := ddbtest.Client(t)
	c := &updateCounter{Client: raw}
	ctx := t.Context()
	name := ddbtest.UniqueName("kondate-rollout")
	t.Cleanup(func() { raw.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}) })
	on := func(o *kondate.Options) { o.TableName = name }
	gsi2 := func(o *kondate.Options) { o.EnableGSI2 = true }
	gsi3 := func(o *kondate.Options) { o.EnableGSI3 = true }

	s1 := kondate.NewDynamoStore(c, deterministic, on)
	changes, err := kondate.EnsureTable(ctx, c, name, quick)
	if err != nil || !slices.Equal(actions(changes), []string{schema.ActionCreateTable, schema.ActionEnableTTL}) {
		t.Fatalf("EnsureTable, GSI1 only = %v, %v", changes, err)
	}
	if got := describe(t, raw, name).gsis; !slices.Equal(got, []string{"GSI1"}) {
		t.Fatalf("GSIs %v, want GSI1 only", got)
	}
	want := publishThree(t, s1)
	first := checkStage(t, s1, 1, want, nil)

	s2 := kondate.NewDynamoStore(c, deterministic, on, gsi2)
	c.n.Store(0)
	changes, err = kondate.EnsureTable(ctx, c, name, gsi2, quick)
	if err != nil || !slices.Equal(actions(changes), []string{schema.ActionAddGSI}) || c.n.Load() != 1 {
		t.Fatalf("EnsureTable with GSI2 = %v, %v, %d UpdateTable calls; want one add GSI, one call", changes, err, c.n.Load())
	}
	second := checkStage(t, s2, 2, want, first)

	s3 := kondate.NewDynamoStore(c, deterministic, on, gsi2, gsi3)
	c.n.Store(0)
	changes, err = kondate.EnsureTable(ctx, c, name, gsi2, gsi3, quick)
	if err != nil || !slices.Equal(actions(changes), []string{schema.ActionAddGSI}) || c.n.Load() != 1 {
		t.Fatalf("EnsureTable with GSI3 = %v, %v, %d UpdateTable calls", changes, err, c.n.Load())
	}
	third := checkStage(t, s3, 3, want, second)
	checkBackCursors(t, s1, third)
	// The older code, with GSI1 only, changes nothing: the table is ahead.
	c.n.Store(0)
	if changes, err := kondate.EnsureTable(ctx, c, name, quick); err != nil || len(actions(changes)) != 0 || c.n.Load() != 0 {
		t.Fatalf("EnsureTable of a table ahead of the options = %v, %v, %d UpdateTable calls; want nothing", changes, err, c.n.Load())
	}
	if got := describe(t, raw, name).gsis; len(got) != 3 {
		t.Fatalf("GSIs %v, want all three", got)
	}
}

// TestStagedRolloutMemory: the same stages on the memory store, each a
// store with the options of its stage over the items of the one before.
func TestStagedRolloutMemory(t *testing.T) {
	gsi2 := func(o *kondate.Options) { o.EnableGSI2 = true }
	gsi3 := func(o *kondate.Options) { o.EnableGSI3 = true }
	s1 := kondate.NewMemoryStore(deterministic)
	want := publishThree(t, s1)
	first := checkStage(t, s1, 1, want, nil)
	next := func(prev *kondate.MemoryStore, opts ...func(*kondate.Options)) *kondate.MemoryStore {
		s := kondate.NewMemoryStore(append([]func(*kondate.Options){deterministic}, opts...)...)
		if err := s.Import(prev.Export()); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s2 := next(s1, gsi2)
	second := checkStage(t, s2, 2, want, first)
	third := checkStage(t, next(s2, gsi2, gsi3), 3, want, second)
	checkBackCursors(t, s1, third)
}

// publishThree publishes three recipes of u and returns their IDs, newest
// first.
func publishThree(t *testing.T, s kondate.Store) []string {
	t.Helper()
	var want []string
	for i := range 3 {
		r, err := s.CreateRecipe(t.Context(), u, kondate.NewRecipe{Title: fmt.Sprint("r", i)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Publish(t.Context(), u, kondate.KindRecipe, r.ID); err != nil {
			t.Fatal(err)
		}
		want = append([]string{r.ID}, want...)
	}
	return want
}

// stageCursors are the cursors after the first page of two of each list
// at a stage.
type stageCursors struct{ newest, byCreator string }

// checkStage lists the three entries want (newest first) on s at a stage
// of the rollout (1: GSI1 only, 2: and GSI2, 3: all three), newest and by
// creator in pages of two, and popular, which needs GSI2. A cursor of the
// stage before (prev) goes on where it stopped while its list reads the
// same place (the base table, or the same index), and fails with
// ErrInvalidCursor once the list has moved: a base-table cursor is not
// one of an index, whose entries may differ (an item another writer left
// without GSI keys is in one and not the other).
func checkStage(t *testing.T, s kondate.Store, stage int, want []string, prev *stageCursors) *stageCursors {
	t.Helper()
	ctx := t.Context()
	lists := []struct {
		name  string
		list  func(kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error)
		moved bool // the list reads elsewhere than at the stage before
		next  *string
	}{
		{"newest", func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
			return s.ListCatalogNewest(ctx, kondate.KindRecipe, o)
		}, stage == 2, nil},
		{"by creator", func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
			return s.ListCatalogByCreator(ctx, u, kondate.KindRecipe, o)
		}, stage == 3, nil},
	}
	out := &stageCursors{}
	lists[0].next, lists[1].next = &out.newest, &out.byCreator
	for i, l := range lists {
		p1, err := l.list(kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2}})
		if err != nil || !slices.Equal(entryIDs(p1.Items), want[:2]) || p1.Next == "" {
			t.Fatalf("stage %d: %s, first page = %v, %v, next %q; want %v and a cursor", stage, l.name, entryIDs(p1.Items), err, p1.Next, want[:2])
		}
		p2, err := l.list(kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2, Cursor: p1.Next}})
		if err != nil || !slices.Equal(entryIDs(p2.Items), want[2:]) || p2.Next != "" {
			t.Fatalf("stage %d: %s, second page = %v, %v, next %q; want %v, the end", stage, l.name, entryIDs(p2.Items), err, p2.Next, want[2:])
		}
		*l.next = p1.Next
		if prev == nil {
			continue
		}
		cursor := []string{prev.newest, prev.byCreator}[i]
		p, err := l.list(kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2, Cursor: cursor}})
		if l.moved {
			ddbtest.WantSentinel(t, fmt.Sprintf("stage %d: %s with the cursor of the stage before", stage, l.name), err, ddbkit.ErrInvalidCursor)
		} else if err != nil || !slices.Equal(entryIDs(p.Items), want[2:]) {
			t.Fatalf("stage %d: %s with the cursor of the stage before = %v, %v; want %v", stage, l.name, entryIDs(p.Items), err, want[2:])
		}
	}
	p, err := s.ListCatalogPopular(ctx, kondate.KindRecipe, kondate.CatalogQuery{})
	if stage == 1 {
		ddbtest.WantSentinel(t, "ListCatalogPopular before GSI2", err, ddbkit.ErrSchemaMismatch)
	} else if err != nil || !slices.Equal(entryIDs(p.Items), want) {
		t.Fatalf("stage %d: popular = %v, %v; want %v", stage, entryIDs(p.Items), err, want)
	}
	return out
}

// checkBackCursors: the cursors of the indexes are refused by a store
// that reads the base table (older code, or options behind the table).
func checkBackCursors(t *testing.T, s1 kondate.Store, idx *stageCursors) {
	t.Helper()
	ctx := t.Context()
	_, err := s1.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Cursor: idx.newest}})
	ddbtest.WantSentinel(t, "a base-table newest list with a GSI2 cursor", err, ddbkit.ErrInvalidCursor)
	_, err = s1.ListCatalogByCreator(ctx, u, kondate.KindRecipe, kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Cursor: idx.byCreator}})
	ddbtest.WantSentinel(t, "a base-table by-creator list with a GSI3 cursor", err, ddbkit.ErrInvalidCursor)
}

func entryIDs(es []kondate.CatalogEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// TestDisabledIndexNoCall: an operation that needs a disabled index fails
// before any call.
func TestDisabledIndexNoCall(t *testing.T) {
	var cc *ddbtest.CountingClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCountingClient(c); return cc },
		deterministic, func(o *kondate.Options) { o.EnableGSI1 = false })
	ctx := t.Context()
	calls := []func() error{
		func() error {
			_, err := s.ListCatalogPopular(ctx, kondate.KindRecipe, kondate.CatalogQuery{})
			return err
		},
		func() error { _, err := s.FindRecipe(ctx, "r"); return err },
		func() error { _, err := s.SaveCatalogEntry(ctx, u, kondate.KindRecipe, "r"); return err },
		func() error { _, err := s.ResolveShareLink(ctx, "x"); return err },
	}
	for i, call := range calls {
		ddbtest.WantSentinel(t, fmt.Sprint("call ", i), call(), ddbkit.ErrSchemaMismatch)
	}
	if got := cc.Counts(); len(got) != 0 {
		t.Fatalf("calls made: %v, want none", got)
	}
}

// TestCatalogRawLayout: the catalog item, the creator's copy, the owner's
// publishedAt, a saved item and a share link, attribute for attribute.
func TestCatalogRawLayout(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic, kondate.AllIndexes, func(o *kondate.Options) {
		o.NewShareID = func() string { return "share0123456789abcdefghijkl" }
	})
	ctx := t.Context()
	r, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "麻婆豆腐", Ingredients: []kondate.Ingredient{{Name: "豆腐", Amount: "1丁"}},
		Steps: []string{"切る"}, Tags: []string{"中華"}, Origin: "manual"})
	if err != nil {
		t.Fatal(err)
	}
	set, err := s.CreateSet(ctx, u, kondate.NewSet{Title: "中華", Items: []kondate.SetItem{{RecipeID: r.ID, Title: "麻婆豆腐"}}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.Publish(ctx, u, kondate.KindRecipe, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	se, err := s.Publish(ctx, u, kondate.KindSet, set.ID)
	if err != nil {
		t.Fatal(err)
	}
	sv, err := s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.CreateShareLink(ctx, u, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: r.ID, AuthorName: "はなこ", SourceURL: "https://example.com"})
	if err != nil {
		t.Fatal(err)
	}
	ts := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
	at, sat := ts(e.CreatedAt), ts(se.CreatedAt)
	recipeSnap := map[string]string{"entityType": "S:RECIPE", "creatorId": "S:" + u, "title": "S:麻婆豆腐", "tags": "L:[S:中華]",
		"ingredients": "L:[M:{name=S:豆腐;amount=S:1丁;}]", "steps": "L:[S:切る]", "origin": "S:manual", "savedCount": "N:1", "createdAt": "S:" + at}
	with := func(base map[string]string, kv ...string) map[string]string {
		out := maps.Clone(base)
		for i := 0; i < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	setSnap := map[string]string{"entityType": "S:SET", "creatorId": "S:" + u, "title": "S:中華", "tags": "L:[]",
		"items": "L:[M:{recipeId=S:" + r.ID + ";title=S:麻婆豆腐;}]", "savedCount": "N:0", "createdAt": "S:" + sat}
	cases := []struct {
		pk, sk string
		want   map[string]string
	}{
		{"CATALOG#RECIPE", "CREATED#" + at + "#" + r.ID, with(recipeSnap, "PK", "S:CATALOG#RECIPE", "SK", "S:CREATED#"+at+"#"+r.ID,
			"GSI1PK", "S:ENTITY#RECIPE#"+r.ID, "GSI1SK", "S:PUBLIC#", "GSI2PK", "S:CATALOG#RECIPE", "GSI2SK", "S:SORT#NEWEST#"+at+"#"+r.ID)},
		{"CREATOR#" + u, "CATALOG_RECIPE#" + at + "#" + r.ID, with(recipeSnap, "PK", "S:CREATOR#"+u, "SK", "S:CATALOG_RECIPE#"+at+"#"+r.ID,
			"GSI2PK", "S:CATALOG#RECIPE", "GSI2SK", "S:SORT#POPULAR#0000000001#"+r.ID,
			"GSI3PK", "S:CREATOR#"+u+"#RECIPE", "GSI3SK", "S:CREATED#"+at+"#"+r.ID)},
		{"CATALOG#SET", "CREATED#" + sat + "#" + set.ID, with(setSnap, "PK", "S:CATALOG#SET", "SK", "S:CREATED#"+sat+"#"+set.ID,
			"GSI1PK", "S:ENTITY#SET#"+set.ID, "GSI1SK", "S:PUBLIC#", "GSI2PK", "S:CATALOG#SET", "GSI2SK", "S:SORT#NEWEST#"+sat+"#"+set.ID)},
		{"CREATOR#" + u, "CATALOG_SET#" + sat + "#" + set.ID, with(setSnap, "PK", "S:CREATOR#"+u, "SK", "S:CATALOG_SET#"+sat+"#"+set.ID,
			"GSI2PK", "S:CATALOG#SET", "GSI2SK", "S:SORT#POPULAR#0000000000#"+set.ID,
			"GSI3PK", "S:CREATOR#"+u+"#SET", "GSI3SK", "S:CREATED#"+sat+"#"+set.ID)},
		{"USER#u_02", "SAVED#RECIPE#" + r.ID, map[string]string{"PK": "S:USER#u_02", "SK": "S:SAVED#RECIPE#" + r.ID,
			"GSI1PK": "S:ENTITY#RECIPE#" + r.ID, "GSI1SK": "S:SAVED#u_02", "entityType": "S:RECIPE", "creatorId": "S:" + u,
			"title": "S:麻婆豆腐", "savedAt": "S:" + ts(sv.SavedAt)}},
		{"SHARE#" + l.ID, "META#", map[string]string{"PK": "S:SHARE#" + l.ID, "SK": "S:META#", "targetType": "S:RECIPE",
			"targetId": "S:" + r.ID, "authorName": "S:はなこ", "sourceUrl": "S:https://example.com", "createdBy": "S:" + u,
			"createdAt": "S:" + ts(l.CreatedAt)}},
	}
	for _, tc := range cases {
		if got := render(rawItem(t, c, table, tc.pk, tc.sk)); !maps.Equal(got, tc.want) {
			t.Errorf("item %s %s:\n got %v\nwant %v", tc.pk, tc.sk, got, tc.want)
		}
	}
	owner := render(rawItem(t, c, table, "USER#"+u, "RECIPE#"+r.ID))
	if owner["publishedAt"] != "S:"+at {
		t.Errorf("the owner's recipe has publishedAt %q, want S:%s", owner["publishedAt"], at)
	}
}

// TestCatalogRoundTrips: each list is one Query per page; the detail is
// one Query of GSI1 and one GetItem; a save one Query, one GetItem and one
// transaction.
func TestCatalogRoundTrips(t *testing.T) {
	var cc *ddbtest.CountingClient
	s, _, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCountingClient(c); return cc }, deterministic, kondate.AllIndexes)
	ctx := t.Context()
	var e kondate.CatalogEntry
	for i := range 5 {
		r, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: fmt.Sprint("r", i)})
		if err != nil {
			t.Fatal(err)
		}
		if e, err = s.Publish(ctx, u, kondate.KindRecipe, r.ID); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, want map[string]int, call func() error) {
		t.Helper()
		cc.Reset()
		if err := call(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := cc.Counts(); !maps.Equal(got, want) {
			t.Errorf("%s: calls %v, want %v", what, got, want)
		}
	}
	page := kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 2}}
	query := map[string]int{"Query": 1}
	check("ListCatalogNewest", query, func() error { _, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, page); return err })
	check("ListCatalogPopular", query, func() error { _, err := s.ListCatalogPopular(ctx, kondate.KindRecipe, page); return err })
	check("ListCatalogByCreator", query, func() error { _, err := s.ListCatalogByCreator(ctx, u, kondate.KindRecipe, page); return err })
	check("GetCatalogEntry", query, func() error {
		_, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, e.ID)
		return err
	})
	check("SaveCatalogEntry", map[string]int{"Query": 1, "GetItem": 1, "TransactWriteItems": 1}, func() error {
		_, err := s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, e.ID)
		return err
	})
	check("ListSaved", query, func() error { _, err := s.ListSaved(ctx, "u_02", kondate.KindRecipe, page.PageOptions); return err })
	check("Unpublish", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		return s.Unpublish(ctx, u, kondate.KindRecipe, e.ID)
	})
	// Publish reads the user's item, and GSI1 for an entry another writer
	// published.
	check("Publish", map[string]int{"GetItem": 1, "Query": 1, "TransactWriteItems": 1}, func() error {
		_, err := s.Publish(ctx, u, kondate.KindRecipe, e.ID)
		return err
	})
	// Before GSI2 and GSI3, newest and by creator are one Query of the
	// base table per page too.
	s1 := kondate.NewDynamoStore(cc, deterministic, func(o *kondate.Options) { o.TableName = table })
	check("ListCatalogNewest, GSI1 only", query, func() error { _, err := s1.ListCatalogNewest(ctx, kondate.KindRecipe, page); return err })
	check("ListCatalogByCreator, GSI1 only", query, func() error {
		_, err := s1.ListCatalogByCreator(ctx, u, kondate.KindRecipe, page)
		return err
	})
}

// TestCatalogLostResponses: every catalog and share write whose response
// is lost succeeds, and takes effect exactly once.
func TestCatalogLostResponses(t *testing.T) {
	run := func(lose bool) map[string]string {
		s, fc, c, table := faulty(t, kondate.AllIndexes, func(o *kondate.Options) {
			var n atomic.Int32
			o.NewShareID = func() string { return fmt.Sprintf("share%03d", n.Add(1)) }
		})
		ctx := t.Context()
		r, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "r"})
		if err != nil {
			t.Fatal(err)
		}
		r2, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "r2"})
		if err != nil {
			t.Fatal(err)
		}
		var l kondate.ShareLink
		for _, w := range []struct {
			name, op string
			call     func() error
		}{
			{"Publish", "TransactWriteItems", func() error { return ign(s.Publish(ctx, u, kondate.KindRecipe, r.ID)) }},
			{"Publish 2", "TransactWriteItems", func() error { return ign(s.Publish(ctx, u, kondate.KindRecipe, r2.ID)) }},
			{"Save", "TransactWriteItems", func() error { return ign(s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, r.ID)) }},
			{"Save 2", "TransactWriteItems", func() error { return ign(s.SaveCatalogEntry(ctx, "u_03", kondate.KindRecipe, r.ID)) }},
			{"Unsave", "TransactWriteItems", func() error { return s.UnsaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, r.ID) }},
			{"Unpublish", "TransactWriteItems", func() error { return s.Unpublish(ctx, u, kondate.KindRecipe, r2.ID) }},
			{"CreateShareLink", "TransactWriteItems", func() (err error) {
				l, err = s.CreateShareLink(ctx, u, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: r.ID})
				return err
			}},
			{"CreateShareLink 2", "TransactWriteItems", func() error {
				return ign(s.CreateShareLink(ctx, u, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: r.ID}))
			}},
			{"DeleteShareLink", "DeleteItem", func() error { return s.DeleteShareLink(ctx, u, l.ID) }},
		} {
			if lose {
				fc.Inject(w.op, ddbtest.LoseResponse, 1)
			}
			if err := w.call(); err != nil {
				t.Fatalf("%s (response lost: %v): %v", w.name, lose, err)
			}
			if lose && fc.Injected(w.op) == 0 {
				t.Fatalf("%s made no %s call", w.name, w.op)
			}
			fc.Clear()
		}
		out := map[string]string{}
		for k, v := range scanAll(t, c, table) {
			out[k] = fmt.Sprint(render(v))
		}
		return out
	}
	want, got := run(false), run(true)
	if !maps.Equal(got, want) {
		for k := range want {
			if got[k] != want[k] {
				t.Errorf("%s:\n got %s\nwant %s", k, got[k], want[k])
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("extra after lost responses: %s", k)
			}
		}
	}
}

// TestUnpublishCatalogItemGone: another writer deleted a published
// recipe's catalog item (and its creator's copy). Unpublish clears the
// owner's publishedAt and succeeds, where it used to fail with ErrNotFound
// and leave the mark, so that Publish refused the recipe for ever; the
// recipe can then be published again. Recipe.PublishedAt shows the mark.
func TestUnpublishCatalogItemGone(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic, kondate.AllIndexes)
	ctx := t.Context()
	r, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "r"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.Publish(ctx, u, kondate.KindRecipe, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetRecipe(ctx, u, r.ID); err != nil || !got.PublishedAt.Equal(e.CreatedAt) {
		t.Fatalf("GetRecipe after Publish = %+v, %v; want PublishedAt %v", got, err, e.CreatedAt)
	}
	at := e.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z")
	for _, k := range [][2]string{{"CATALOG#RECIPE", "CREATED#" + at + "#" + r.ID}, {"CREATOR#" + u, "CATALOG_RECIPE#" + at + "#" + r.ID}} {
		if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: k[0]}, "SK": &types.AttributeValueMemberS{Value: k[1]}}}); err != nil {
			t.Fatal(err)
		}
	}
	checkUnpublishGone(t, s, r.ID)

	// The memory store, through Export and Import.
	m := kondate.NewMemoryStore(deterministic, kondate.AllIndexes)
	if r, err = m.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "r"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Publish(ctx, u, kondate.KindRecipe, r.ID); err != nil {
		t.Fatal(err)
	}
	var kept []map[string]types.AttributeValue
	for _, item := range m.Export()[kondate.DefaultTableName] {
		if pk := render(item)["PK"]; pk != "S:CATALOG#RECIPE" && pk != "S:CREATOR#"+u {
			kept = append(kept, item)
		}
	}
	m = kondate.NewMemoryStore(deterministic, kondate.AllIndexes)
	if err := m.Import(ddbkit.TableItems{kondate.DefaultTableName: kept}); err != nil {
		t.Fatal(err)
	}
	checkUnpublishGone(t, m, r.ID)
}

// checkUnpublishGone checks Unpublish of recipe id, published but whose
// catalog item is gone, and what follows.
func checkUnpublishGone(t *testing.T, s kondate.Store, id string) {
	t.Helper()
	ctx := t.Context()
	if err := s.Unpublish(ctx, u, kondate.KindRecipe, id); err != nil {
		t.Fatalf("Unpublish of a recipe whose catalog item is gone: %v, want success", err)
	}
	if got, err := s.GetRecipe(ctx, u, id); err != nil || !got.PublishedAt.IsZero() {
		t.Fatalf("GetRecipe after Unpublish = %+v, %v; want no PublishedAt", got, err)
	}
	err := s.Unpublish(ctx, u, kondate.KindRecipe, id)
	ddbtest.WantSentinel(t, "Unpublish again", err, ddbkit.ErrNotFound)
	e, err := s.Publish(ctx, u, kondate.KindRecipe, id)
	if err != nil {
		t.Fatalf("Publish again: %v", err)
	}
	if got, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, id); err != nil || !got.CreatedAt.Equal(e.CreatedAt) {
		t.Fatalf("GetCatalogEntry after publishing again = %+v, %v", got, err)
	}
}
