package kondate_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/keys"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/kondate/kondatetest"
)

func TestMemoryShardedCatalog(t *testing.T) {
	kondatetest.RunSharded(t, func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store {
		return kondate.NewMemoryStore(opts...)
	})
}

func TestDynamoShardedCatalog(t *testing.T) {
	kondatetest.RunSharded(t, func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store {
		s, _, _ := newDynamo(t, nil, opts...)
		return s
	})
}

// TestShardedCatalogRawLayout reads back the items a sharded store writes:
// the catalog item under CATALOG#<kind>#<shard> (CATALOG#<kind> for shard
// 0), the shard FNV-1a of the ID mod N, which is both items' GSI2PK; the
// sort keys, GSI1 and GSI3 keys as in the seed's layout. A save keeps
// them.
func TestShardedCatalogRawLayout(t *testing.T) {
	const n = 4
	s, c, table := newDynamo(t, nil, deterministic, kondate.AllIndexes, func(o *kondate.Options) { o.CatalogShards = n })
	ctx := t.Context()
	seen := map[int]bool{}
	for i := 0; len(seen) < n; i++ {
		if i > 64 {
			t.Fatalf("64 recipes fill shards %v only", seen)
		}
		r, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: fmt.Sprint("r", i)})
		if err != nil {
			t.Fatal(err)
		}
		shard := kondate.CatalogShard(r.ID, n)
		if seen[shard] {
			continue
		}
		seen[shard] = true
		e, err := s.Publish(ctx, u, kondate.KindRecipe, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, e.ID); err != nil {
			t.Fatal(err)
		}
		pk := fmt.Sprintf("CATALOG#RECIPE#%d", shard)
		if shard == 0 {
			pk = "CATALOG#RECIPE"
		}
		if got := kondate.CatalogPartition(kondate.KindRecipe, r.ID, n); got != pk {
			t.Fatalf("CatalogPartition(%s) = %q, want %q", r.ID, got, pk)
		}
		if h := fnv.New32a(); true {
			h.Write([]byte(r.ID))
			if want := int(h.Sum32() % n); shard != want {
				t.Fatalf("CatalogShard(%s) = %d, want FNV-1a mod %d = %d", r.ID, shard, n, want)
			}
		}
		at := keys.Timestamp(e.CreatedAt)
		cat := render(rawItem(t, c, table, pk, "CREATED#"+at+"#"+r.ID))
		want := map[string]string{"PK": "S:" + pk, "SK": "S:CREATED#" + at + "#" + r.ID, "GSI1PK": "S:ENTITY#RECIPE#" + r.ID,
			"GSI1SK": "S:PUBLIC#", "GSI2PK": "S:" + pk, "GSI2SK": "S:SORT#NEWEST#" + at + "#" + r.ID, "savedCount": "N:1"}
		for k, v := range want {
			if cat[k] != v {
				t.Errorf("catalog item of shard %d: %s = %q, want %q (item %v)", shard, k, cat[k], v, cat)
			}
		}
		cp := render(rawItem(t, c, table, "CREATOR#"+u, "CATALOG_RECIPE#"+at+"#"+r.ID))
		want = map[string]string{"GSI2PK": "S:" + pk, "GSI2SK": "S:SORT#POPULAR#0000000001#" + r.ID,
			"GSI3PK": "S:CREATOR#" + u + "#RECIPE", "GSI3SK": "S:CREATED#" + at + "#" + r.ID, "savedCount": "N:1"}
		for k, v := range want {
			if cp[k] != v {
				t.Errorf("creator's copy of shard %d: %s = %q, want %q (item %v)", shard, k, cp[k], v, cp)
			}
		}
	}
}

// switchStores is a table written first by a store of the seed's layout
// (the app, or ddbkit before the switch), then by a sharded one.
type switchStores struct {
	legacy  kondate.Store
	shardOn func() kondate.Store // the sharded store on the same data; called once the legacy writes are done
	seed    func() kondate.Store // a store of the seed's layout on the data as it is now
}

func TestShardedCatalogSwitchMemory(t *testing.T) {
	legacy := kondate.NewMemoryStore(deterministic, kondate.AllIndexes)
	var sharded *kondate.MemoryStore
	testShardedSwitch(t, switchStores{legacy: legacy, shardOn: func() kondate.Store {
		sharded = kondate.NewMemoryStore(later, kondate.AllIndexes, func(o *kondate.Options) { o.CatalogShards = 4 })
		if err := sharded.Import(legacy.Export()); err != nil {
			t.Fatal(err)
		}
		return sharded
	}, seed: func() kondate.Store {
		s := kondate.NewMemoryStore(kondate.AllIndexes)
		if err := s.Import(sharded.Export()); err != nil {
			t.Fatal(err)
		}
		return s
	}})
}

func TestShardedCatalogSwitchDynamo(t *testing.T) {
	legacy, c, table := newDynamo(t, nil, deterministic, kondate.AllIndexes)
	testShardedSwitch(t, switchStores{legacy: legacy, shardOn: func() kondate.Store {
		return kondate.NewDynamoStore(c, later, kondate.AllIndexes, func(o *kondate.Options) { o.TableName = table; o.CatalogShards = 4 })
	}, seed: func() kondate.Store { return legacy }})
}

// later is deterministic an hour on, with other IDs: the sharded store
// writes after the legacy one.
func later(o *kondate.Options) {
	o.Clock = ddbkit.StepClock(start.Add(time.Hour), time.Second)
	o.NewID = ddbkit.SeededULIDs(8, o.Clock)
	o.NewShareID = ddbkit.SeededULIDs(12, o.Clock)
}

// testShardedSwitch switches a live catalog to 4 shards: the entries
// published before stay where they are, listed by the merge (as shard 0's
// partition), saved, unpublished and deleted through GSI1 and their keys
// as read; the store of the seed's layout still lists them, and of the new
// entries only shard 0's.
func testShardedSwitch(t *testing.T, st switchStores) {
	ctx := t.Context()
	var rs []kondate.Recipe
	var old []kondate.CatalogEntry
	for i := range 5 {
		r, err := st.legacy.CreateRecipe(ctx, u, kondate.NewRecipe{Title: fmt.Sprint("old", i)})
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
		if i < 4 {
			e, err := st.legacy.Publish(ctx, u, kondate.KindRecipe, r.ID)
			if err != nil {
				t.Fatal(err)
			}
			old = append(old, e)
		}
	}
	if _, err := st.legacy.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, old[0].ID); err != nil {
		t.Fatal(err)
	}
	s := st.shardOn()
	// The fifth recipe, published after the switch, and new ones.
	var fresh []kondate.CatalogEntry
	ids := []string{rs[4].ID}
	for i := range 6 {
		r, err := s.CreateRecipe(ctx, "u_03", kondate.NewRecipe{Title: fmt.Sprint("new", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	for i, id := range ids {
		owner := "u_03"
		if i == 0 {
			owner = u
		}
		e, err := s.Publish(ctx, owner, kondate.KindRecipe, id)
		if err != nil {
			t.Fatal(err)
		}
		fresh = append(fresh, e)
	}
	// Old entries are saved where they are.
	for _, e := range old[:2] {
		if _, err := s.SaveCatalogEntry(ctx, "u_04", kondate.KindRecipe, e.ID); err != nil {
			t.Fatalf("SaveCatalogEntry of an entry published before the switch: %v", err)
		}
	}
	get := func(s kondate.Store, id string) kondate.CatalogEntry {
		t.Helper()
		e, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, id)
		if err != nil {
			t.Fatalf("GetCatalogEntry(%s): %v", id, err)
		}
		return e
	}
	all := func(s kondate.Store, popular bool) []string {
		t.Helper()
		var out []string
		o := kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 3}}
		for {
			list := s.ListCatalogNewest
			if popular {
				list = s.ListCatalogPopular
			}
			p, err := list(ctx, kondate.KindRecipe, o)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, entryIDs(p.Items)...)
			if p.Next == "" {
				return out
			}
			o.Cursor = p.Next
		}
	}
	var every []kondate.CatalogEntry
	for _, e := range append(slices.Clone(old), fresh...) {
		every = append(every, get(s, e.ID))
	}
	if every[0].SavedCount != 2 || every[1].SavedCount != 1 {
		t.Fatalf("old entries' counts %d, %d; want 2, 1", every[0].SavedCount, every[1].SavedCount)
	}
	newest := slices.SortedFunc(slices.Values(every), func(a, b kondate.CatalogEntry) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(b.ID, a.ID))
	})
	popular := slices.SortedFunc(slices.Values(every), func(a, b kondate.CatalogEntry) int {
		return cmp.Or(cmp.Compare(b.SavedCount, a.SavedCount), cmp.Compare(b.ID, a.ID))
	})
	if got := all(s, false); !slices.Equal(got, entryIDs(newest)) {
		t.Fatalf("merged newest %v, want %v", got, entryIDs(newest))
	}
	if got := all(s, true); !slices.Equal(got, entryIDs(popular)) {
		t.Fatalf("merged popular %v, want %v", got, entryIDs(popular))
	}
	// The seed's layout reads its partition: the old entries and the new
	// ones of shard 0, no other.
	var seedSees []kondate.CatalogEntry
	for _, e := range newest {
		if slices.ContainsFunc(old, func(o kondate.CatalogEntry) bool { return o.ID == e.ID }) || kondate.CatalogShard(e.ID, 4) == 0 {
			seedSees = append(seedSees, e)
		}
	}
	if got := all(st.seed(), false); !slices.Equal(got, entryIDs(seedSees)) {
		t.Fatalf("the seed's layout lists %v, want %v", got, entryIDs(seedSees))
	}
	if len(seedSees) == len(every) {
		t.Fatalf("every new entry landed in shard 0: the test shows nothing")
	}
	// An old entry unpublished and another deleted through the sharded
	// store; a new one unpublished; the counts stay right.
	if err := s.Unpublish(ctx, u, kondate.KindRecipe, old[1].ID); err != nil {
		t.Fatalf("Unpublish of an entry published before the switch: %v", err)
	}
	if err := s.DeleteRecipe(ctx, u, old[2].ID); err != nil {
		t.Fatalf("DeleteRecipe of a recipe published before the switch: %v", err)
	}
	if err := s.Unpublish(ctx, u, kondate.KindRecipe, fresh[0].ID); err != nil {
		t.Fatalf("Unpublish of an entry published after the switch: %v", err)
	}
	for _, id := range []string{old[1].ID, old[2].ID, fresh[0].ID} {
		if _, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, id); !errors.Is(err, ddbkit.ErrNotFound) {
			t.Fatalf("GetCatalogEntry(%s) after it left the catalog: %v", id, err)
		}
		if slices.Contains(all(s, false), id) || slices.Contains(all(s, true), id) {
			t.Fatalf("%s is listed after it left the catalog", id)
		}
	}
	if err := s.UnsaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, old[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := get(s, old[0].ID).SavedCount; got != 1 {
		t.Fatalf("old entry's count after unsave %d, want 1", got)
	}
	if rep, err := s.RecalculatePopularity(ctx, kondate.KindRecipe); err != nil || len(rep.Drifts) != 0 {
		t.Fatalf("RecalculatePopularity = %+v, %v; want no drift", rep, err)
	}
}

// TestShardedReadCost reads a page of 20 of the newest and popular lists
// of a catalog of 1,500 recipes on DynamoDB Local, for the seed's layout
// and 4, 16 and 64 shards: a merged page is N Queries (one per shard, each
// for the page's limit and one more), and the RCU and cursor size it
// reports are the package doc's.
func TestShardedReadCost(t *testing.T) {
	var lines []string
	for _, shards := range []int{0, 4, 16, 64} {
		items, _ := catalogOf(t, shards, 1500)
		_, c, table := newDynamo(t, nil, kondate.AllIndexes)
		var puts []types.WriteRequest
		for _, it := range items {
			if pk := it["PK"].(*types.AttributeValueMemberS).Value; strings.HasPrefix(pk, "CATALOG#") || strings.HasPrefix(pk, "CREATOR#") {
				puts = append(puts, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			}
		}
		for len(puts) > 0 {
			k := min(25, len(puts))
			out, err := c.BatchWriteItem(t.Context(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: puts[:k]}})
			if err != nil || len(out.UnprocessedItems) > 0 {
				t.Fatalf("BatchWriteItem: %v, %d unprocessed", err, len(out.UnprocessedItems))
			}
			puts = puts[k:]
		}
		counts := ddbtest.NewCountingClient(c)
		capacity := ddbtest.NewCapacityClient(counts)
		s := kondate.NewDynamoStore(capacity, kondate.AllIndexes, func(o *kondate.Options) { o.TableName = table; o.CatalogShards = shards })
		for _, list := range []string{"newest", "popular"} {
			counts.Reset()
			var p ddbkit.Page[kondate.CatalogEntry]
			got := capacity.Measure(func() {
				var err error
				o := kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 20}}
				if list == "newest" {
					p, err = s.ListCatalogNewest(t.Context(), kondate.KindRecipe, o)
				} else {
					p, err = s.ListCatalogPopular(t.Context(), kondate.KindRecipe, o)
				}
				if err != nil {
					t.Fatal(err)
				}
			})
			queries := counts.Count("Query")
			if len(p.Items) != 20 || p.Next == "" || queries != max(1, shards) {
				t.Errorf("%d shards, %s: a page of %d (a cursor of %d bytes) took %d Queries; want 20, a cursor, %d Queries",
					shards, list, len(p.Items), len(p.Next), queries, max(1, shards))
			}
			lines = append(lines, fmt.Sprintf("%2d shards, %-7s: %2d Queries, %5.1f RCU, a cursor of %5d bytes", shards, list, queries, got.Read, len(p.Next)))
		}
	}
	t.Logf("a page of 20 of 1,500 recipes:\n%s", strings.Join(lines, "\n"))
}

// TestShardedTies holds the merge's tie order to the index's: items of one
// ID and time in several partitions (another writer's duplicates) tie on
// their GSI2 sort key, and the merged newest list of 4 shards gives them
// in the order one GSI2 partition holding them all gives (DynamoDB Local's
// digest of the base key, which the memory store keeps), in pages of 1, 3
// and 100, on both stores.
func TestShardedTies(t *testing.T) {
	S := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	layout := func(sharded bool) []map[string]types.AttributeValue {
		var items []map[string]types.AttributeValue
		for i := range 6 {
			id := fmt.Sprintf("01KH0XG078KXNR84Z7ZA8X20X%d", i)
			at := fmt.Sprintf("2026-02-09T10:00:0%d.000Z", i%3) // ties of time too, across IDs
			for p := range 4 {
				if (i+p)%3 == 2 {
					continue
				}
				pk := "CATALOG#RECIPE"
				if p > 0 {
					pk = fmt.Sprint(pk, "#", p)
				}
				gsi2pk := "CATALOG#RECIPE"
				if sharded {
					gsi2pk = pk
				}
				items = append(items, map[string]types.AttributeValue{"PK": S(pk), "SK": S("CREATED#" + at + "#" + id),
					"GSI2PK": S(gsi2pk), "GSI2SK": S("SORT#NEWEST#" + at + "#" + id), "entityType": S("RECIPE"), "creatorId": S("u_01"),
					"title": S(fmt.Sprintf("%d in %d", i, p)), "savedCount": &types.AttributeValueMemberN{Value: "0"}, "createdAt": S(at)})
			}
		}
		return items
	}
	titles := func(t *testing.T, s kondate.Store, limit int) []string {
		t.Helper()
		var out []string
		o := kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: limit}}
		for {
			p, err := s.ListCatalogNewest(t.Context(), kondate.KindRecipe, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range p.Items {
				out = append(out, e.Title)
			}
			if p.Next == "" {
				return out
			}
			o.Cursor = p.Next
		}
	}
	shards := func(o *kondate.Options) { o.CatalogShards = 4 }
	for _, backend := range []string{"memory", "DynamoDB Local"} {
		t.Run(backend, func(t *testing.T) {
			store := func(sharded bool) kondate.Store {
				opts := []func(*kondate.Options){kondate.AllIndexes}
				if sharded {
					opts = append(opts, shards)
				}
				if backend == "memory" {
					m := kondate.NewMemoryStore(opts...)
					if err := m.Import(ddbkit.TableItems{kondate.DefaultTableName: layout(sharded)}); err != nil {
						t.Fatal(err)
					}
					return m
				}
				s, c, table := newDynamo(t, nil, opts...)
				for _, it := range layout(sharded) {
					if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: &table, Item: it}); err != nil {
						t.Fatal(err)
					}
				}
				return s
			}
			want := titles(t, store(false), 100)
			if len(want) != 16 {
				t.Fatalf("the unsharded list holds %d entries, want 16", len(want))
			}
			merged := store(true)
			for _, limit := range []int{1, 3, 100} {
				if got := titles(t, merged, limit); !slices.Equal(got, want) {
					t.Errorf("merged in pages of %d:\n got %v\nwant %v", limit, got, want)
				}
			}
		})
	}
}

// TestLegacyCatalogSharded runs the app's catalog (appCatalog: the seed's
// layout, no publishedAt, times without fractional digits) on stores with
// 4 shards: the app's entries are listed by the merge as shard 0's, found
// by ID, saved where they are (both items keep their keys and GSI2PK), and
// r_01, unpublished and published again, moves to its shard (1): the new
// catalog item is CATALOG#RECIPE#1, listed in its place.
func TestLegacyCatalogSharded(t *testing.T) {
	appStores(t, appCatalog(), func(t *testing.T, s kondate.Store, raw rawReader) {
		ctx := t.Context()
		ids := func(list func(context.Context, kondate.CatalogKind, kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error)) []string {
			t.Helper()
			var out []string
			o := kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 1}}
			for {
				p, err := list(ctx, kondate.KindRecipe, o)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, entryIDs(p.Items)...)
				if o.Cursor = p.Next; o.Cursor == "" {
					return out
				}
			}
		}
		if got := ids(s.ListCatalogNewest); !slices.Equal(got, []string{"r_01", "r_02"}) {
			t.Fatalf("newest = %v; want r_01, r_02", got)
		}
		if got := ids(s.ListCatalogPopular); !slices.Equal(got, []string{"r_01", "r_02"}) {
			t.Fatalf("popular = %v; want r_01 (1 save), r_02", got)
		}
		if _, err := s.SaveCatalogEntry(ctx, "u_03", kondate.KindRecipe, "r_02"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveCatalogEntry(ctx, "u_04", kondate.KindRecipe, "r_02"); err != nil {
			t.Fatal(err)
		}
		cat := raw("CATALOG#RECIPE", "CREATED#2026-02-08T09:00:00Z#r_02")
		cp := raw("CREATOR#u_01", "CATALOG_RECIPE#2026-02-08T09:00:00Z#r_02")
		if savedCount(t, cat) != "2" || renderValue(cat["GSI2PK"]) != "S:CATALOG#RECIPE" || renderValue(cp["GSI2PK"]) != "S:CATALOG#RECIPE" ||
			renderValue(cp["GSI2SK"]) != "S:SORT#POPULAR#0000000002#r_02" {
			t.Fatalf("r_02 after two saves: catalog item %v, copy %v", render(cat), render(cp))
		}
		if got := ids(s.ListCatalogPopular); !slices.Equal(got, []string{"r_02", "r_01"}) {
			t.Fatalf("popular after saves = %v; want r_02, r_01", got)
		}
		if err := s.Unpublish(ctx, "u_01", kondate.KindRecipe, "r_01"); err != nil {
			t.Fatalf("Unpublish(r_01): %v", err)
		}
		e, err := s.Publish(ctx, "u_01", kondate.KindRecipe, "r_01")
		if err != nil {
			t.Fatalf("Publish(r_01) after Unpublish: %v", err)
		}
		if kondate.CatalogShard("r_01", 4) != 1 {
			t.Fatal("r_01 is not in shard 1: the fixture shows nothing")
		}
		at := keys.Timestamp(e.CreatedAt)
		if item := raw("CATALOG#RECIPE#1", "CREATED#"+at+"#r_01"); renderValue(item["GSI2PK"]) != "S:CATALOG#RECIPE#1" {
			t.Fatalf("r_01 published again: catalog item %v, want it in CATALOG#RECIPE#1", render(item))
		}
		if raw("CATALOG#RECIPE", "CREATED#2026-02-09T10:00:00Z#r_01") != nil {
			t.Fatal("the app's catalog item of r_01 is still there")
		}
		if got := ids(s.ListCatalogNewest); !slices.Equal(got, []string{"r_01", "r_02"}) {
			t.Fatalf("newest after publishing r_01 again = %v; want r_01, r_02", got)
		}
		if err := s.DeleteRecipe(ctx, "u_01", "r_02"); err != nil {
			t.Fatalf("DeleteRecipe(r_02), published by the app: %v", err)
		}
		if got := ids(s.ListCatalogNewest); !slices.Equal(got, []string{"r_01"}) {
			t.Fatalf("newest after deleting r_02 = %v; want r_01", got)
		}
	}, kondate.AllIndexes, func(o *kondate.Options) { o.CatalogShards = 4 })
}
