package kondate_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
)

// appCatalog is the catalog as the seed's app writes it (sections 4.1,
// 4.2 and 5): u_01's recipes r_01 and r_02 and set s_01, each published
// with a catalog item (GSI1 PUBLIC#, GSI2 SORT#NEWEST#) and a creator's
// copy (GSI2 SORT#POPULAR#, GSI3), times in keys without fractional
// digits, no publishedAt on the user's items, no entityType; r_01 saved
// once, by u_02, whose SAVED# item has no GSI1 keys (the seed gives it
// none), and savedCount 1.
func appCatalog() rawItems {
	u1 := S("USER#u_01")
	entry := func(kind, id, at string, count int) rawItems {
		created := at + "#" + id
		return rawItems{
			{"PK": u1, "SK": S(kind + "#" + id), "GSI1PK": S("ENTITY#" + kind + "#" + id), "GSI1SK": S("OWNER#u_01"),
				"title": S("t_" + id), "tags": L(S("中華")), "createdAt": S("2026-02-01T00:00:00Z")},
			{"PK": S("CATALOG#" + kind), "SK": S("CREATED#" + created),
				"GSI1PK": S("ENTITY#" + kind + "#" + id), "GSI1SK": S("PUBLIC#"),
				"GSI2PK": S("CATALOG#" + kind), "GSI2SK": S("SORT#NEWEST#" + created),
				"creatorId": S("u_01"), "title": S("t_" + id), "tags": L(S("中華")), "savedCount": N(strconv.Itoa(count)), "createdAt": S(at)},
			{"PK": S("CREATOR#u_01"), "SK": S("CATALOG_" + kind + "#" + created),
				"GSI2PK": S("CATALOG#" + kind), "GSI2SK": S("SORT#POPULAR#" + fmt.Sprintf("%010d", count) + "#" + id),
				"GSI3PK": S("CREATOR#u_01#" + kind), "GSI3SK": S("CREATED#" + created),
				"creatorId": S("u_01"), "title": S("t_" + id), "tags": L(S("中華")), "savedCount": N(strconv.Itoa(count)), "createdAt": S(at)},
		}
	}
	items := entry("RECIPE", "r_01", "2026-02-09T10:00:00Z", 1)
	items = append(items, entry("RECIPE", "r_02", "2026-02-08T09:00:00Z", 0)...)
	items = append(items, entry("SET", "s_01", "2026-02-07T08:00:00Z", 0)...)
	return append(items, appSave("u_02", "r_01"))
}

// appSave is a user's save of a recipe as the app writes it: no GSI1 keys.
func appSave(user, id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": S("USER#" + user), "SK": S("SAVED#RECIPE#" + id), "title": S("t_" + id)}
}

// migrated is item with the GSI1 keys "ddbkit migrate kondate-saves" adds.
func migrated(t *testing.T, item map[string]types.AttributeValue) map[string]types.AttributeValue {
	t.Helper()
	pk, _ := item["PK"].(*types.AttributeValueMemberS)
	sk, _ := item["SK"].(*types.AttributeValueMemberS)
	ipk, isk, ok := kondate.SavedIndexKeys(pk.Value, sk.Value)
	if !ok {
		t.Fatalf("SavedIndexKeys(%s, %s): not a saved item", pk.Value, sk.Value)
	}
	out := map[string]types.AttributeValue{"GSI1PK": S(ipk), "GSI1SK": S(isk)}
	for k, v := range item {
		out[k] = v
	}
	return out
}

// appStores runs check on each store, both holding items as the app put
// them: a DynamoStore on a fresh table with the indexes opts enable (GSI1
// alone by default, the seed's first rollout stage), the items put raw;
// a MemoryStore that imported them.
func appStores(t *testing.T, items rawItems, check func(t *testing.T, s kondate.Store, raw rawReader), opts ...func(*kondate.Options)) {
	opts = append([]func(*kondate.Options){deterministic}, opts...)
	t.Run("dynamo", func(t *testing.T) {
		s, c, table := newDynamo(t, nil, opts...)
		for _, item := range items {
			if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
				t.Fatal(err)
			}
		}
		check(t, s, func(pk, sk string) map[string]types.AttributeValue { return rawItem(t, c, table, pk, sk) })
	})
	t.Run("memory", func(t *testing.T) {
		s := kondate.NewMemoryStore(opts...)
		if err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: items}); err != nil {
			t.Fatal(err)
		}
		check(t, s, func(pk, sk string) map[string]types.AttributeValue {
			for _, item := range s.Export()[kondate.DefaultTableName] {
				if item["PK"].(*types.AttributeValueMemberS).Value == pk && item["SK"].(*types.AttributeValueMemberS).Value == sk {
					return item
				}
			}
			return nil
		})
	})
}

// rawReader reads one item as stored, nil if there is none.
type rawReader func(pk, sk string) map[string]types.AttributeValue

func savedCount(t *testing.T, item map[string]types.AttributeValue) string {
	t.Helper()
	n, ok := item["savedCount"].(*types.AttributeValueMemberN)
	if !ok {
		t.Fatalf("savedCount of %v: not a number", item)
	}
	return n.Value
}

// TestLegacyCatalogPublishedByApp: an entry the app published (no
// publishedAt on the user's item) is published already: Publish refuses it
// with ErrAlreadyExists, writes nothing, and the catalog keeps one entry;
// unpublished, it can be published again.
func TestLegacyCatalogPublishedByApp(t *testing.T) {
	appStores(t, appCatalog(), func(t *testing.T, s kondate.Store, raw rawReader) {
		ctx := t.Context()
		for _, tc := range []struct {
			kind kondate.CatalogKind
			id   string
		}{{kondate.KindRecipe, "r_01"}, {kondate.KindSet, "s_01"}} {
			_, err := s.Publish(ctx, "u_01", tc.kind, tc.id)
			ddbtest.WantSentinel(t, "Publish of an entry the app published", err, ddbkit.ErrAlreadyExists)
		}
		if _, ok := raw("USER#u_01", "RECIPE#r_01")["publishedAt"]; ok {
			t.Fatalf("the refused Publish wrote publishedAt")
		}
		p, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{})
		if err != nil || !slices.Equal(entryIDs(p.Items), []string{"r_01", "r_02"}) {
			t.Fatalf("ListCatalogNewest = %v, %v; want r_01, r_02 once each", entryIDs(p.Items), err)
		}
		if err := s.Unpublish(ctx, "u_01", kondate.KindRecipe, "r_01"); err != nil {
			t.Fatalf("Unpublish(r_01): %v", err)
		}
		e, err := s.Publish(ctx, "u_01", kondate.KindRecipe, "r_01")
		if err != nil {
			t.Fatalf("Publish(r_01) after Unpublish: %v", err)
		}
		p, err = s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{})
		if err != nil || !slices.Equal(entryIDs(p.Items), []string{"r_01", "r_02"}) || !p.Items[0].CreatedAt.Equal(e.CreatedAt) {
			t.Fatalf("ListCatalogNewest after publishing again = %+v, %v; want r_01 (published %v), r_02", p.Items, err, e.CreatedAt)
		}
	})
}

// TestLegacyCatalogListsGSI1Only: in the seed's first rollout stage (GSI1
// only), the app's entries are listed newest first and by creator, from
// the base table, page by page; with all three indexes, in the same order.
func TestLegacyCatalogListsGSI1Only(t *testing.T) {
	check := func(t *testing.T, s kondate.Store, _ rawReader) {
		ctx := t.Context()
		lists := map[string]func(kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error){
			"newest": func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
				return s.ListCatalogNewest(ctx, kondate.KindRecipe, o)
			},
			"by creator": func(o kondate.CatalogQuery) (ddbkit.Page[kondate.CatalogEntry], error) {
				return s.ListCatalogByCreator(ctx, "u_01", kondate.KindRecipe, o)
			},
		}
		for name, list := range lists {
			var got []string
			o := kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 1}, Tag: "中華"}
			for range 3 {
				p, err := list(o)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got = append(got, entryIDs(p.Items)...)
				if o.Cursor = p.Next; o.Cursor == "" {
					break
				}
			}
			if !slices.Equal(got, []string{"r_01", "r_02"}) {
				t.Fatalf("%s, pages of one = %v; want r_01, r_02", name, got)
			}
		}
		sets, err := s.ListCatalogByCreator(ctx, "u_01", kondate.KindSet, kondate.CatalogQuery{})
		if err != nil || len(sets.Items) != 1 || sets.Items[0].ID != "s_01" ||
			!sets.Items[0].CreatedAt.Equal(time.Date(2026, 2, 7, 8, 0, 0, 0, time.UTC)) {
			t.Fatalf("ListCatalogByCreator(SET) = %+v, %v; want s_01", sets.Items, err)
		}
	}
	t.Run("GSI1 only", func(t *testing.T) { appStores(t, appCatalog(), check) })
	t.Run("all indexes", func(t *testing.T) { appStores(t, appCatalog(), check, kondate.AllIndexes) })
}

// TestLegacyCatalogRecount: the app's save has no GSI1 keys, so
// RecalculatePopularity cannot see it. Until Options.SavesIndexed says
// every save carries them, the count it finds too low is reported and
// left as it is (1, not 0), on both items of the entry; a count below the
// saves it sees is raised. Once migrated, the save is counted, and with
// SavesIndexed a count above the saves is lowered.
func TestLegacyCatalogRecount(t *testing.T) {
	ctx := t.Context
	r01 := []kondate.PopularityDrift{{Kind: kondate.KindRecipe, ID: "r_01", Stored: 1, Counted: 0}}
	wantCounts := func(t *testing.T, raw rawReader, catalog, cp string) {
		t.Helper()
		if got := savedCount(t, raw("CATALOG#RECIPE", "CREATED#2026-02-09T10:00:00Z#r_01")); got != catalog {
			t.Fatalf("catalog item's savedCount = %s, want %s", got, catalog)
		}
		if got := savedCount(t, raw("CREATOR#u_01", "CATALOG_RECIPE#2026-02-09T10:00:00Z#r_01")); got != cp {
			t.Fatalf("creator's copy's savedCount = %s, want %s", got, cp)
		}
	}
	t.Run("not migrated", func(t *testing.T) {
		appStores(t, appCatalog(), func(t *testing.T, s kondate.Store, raw rawReader) {
			for range 2 {
				rep, err := s.RecalculatePopularity(ctx(), kondate.KindRecipe)
				if err != nil || !slices.Equal(rep.Drifts, r01) {
					t.Fatalf("RecalculatePopularity = %+v, %v; want %+v, reported", rep, err, r01)
				}
				wantCounts(t, raw, "1", "1")
			}
			p, err := s.ListCatalogPopular(ctx(), kondate.KindRecipe, kondate.CatalogQuery{})
			if err != nil || len(p.Items) != 2 || p.Items[0].ID != "r_01" || p.Items[0].SavedCount != 1 {
				t.Fatalf("ListCatalogPopular after the recount = %+v, %v; want r_01 saved once, first", p.Items, err)
			}
		}, kondate.AllIndexes)
	})
	t.Run("migrated", func(t *testing.T) {
		items := appCatalog()
		items[len(items)-1] = migrated(t, items[len(items)-1])
		// Two more saves of r_02 than its count says (0): raised to 2
		// whatever SavesIndexed says, since both are seen.
		items = append(items, migrated(t, appSave("u_02", "r_02")), migrated(t, appSave("u_03", "r_02")))
		raise := []kondate.PopularityDrift{{Kind: kondate.KindRecipe, ID: "r_02", Stored: 0, Counted: 2}}
		for _, indexed := range []bool{false, true} {
			t.Run(fmt.Sprint("SavesIndexed=", indexed), func(t *testing.T) {
				appStores(t, items, func(t *testing.T, s kondate.Store, raw rawReader) {
					rep, err := s.RecalculatePopularity(ctx(), kondate.KindRecipe)
					if err != nil || !slices.Equal(rep.Drifts, raise) {
						t.Fatalf("RecalculatePopularity = %+v, %v; want %+v", rep, err, raise)
					}
					wantCounts(t, raw, "1", "1")
					if got := savedCount(t, raw("CREATOR#u_01", "CATALOG_RECIPE#2026-02-08T09:00:00Z#r_02")); got != "2" {
						t.Fatalf("r_02's copy's savedCount = %s, want 2", got)
					}
				}, func(o *kondate.Options) { o.SavesIndexed = indexed })
			})
		}
	})
	t.Run("SavesIndexed lowers", func(t *testing.T) {
		// The flag set on a table whose saves were not migrated: the
		// count goes to what the index holds. This is why it needs the
		// migration first.
		appStores(t, appCatalog(), func(t *testing.T, s kondate.Store, raw rawReader) {
			rep, err := s.RecalculatePopularity(ctx(), kondate.KindRecipe)
			if err != nil || !slices.Equal(rep.Drifts, r01) {
				t.Fatalf("RecalculatePopularity = %+v, %v; want %+v", rep, err, r01)
			}
			wantCounts(t, raw, "0", "0")
		}, func(o *kondate.Options) { o.SavesIndexed = true })
	})
}

// TestRecalculatePopularitySkipsCorrupt: a catalog entry another writer
// left unreadable (its savedCount no Number) is reported in Skipped, by
// both stores alike, and the others are still checked and repaired.
func TestRecalculatePopularitySkipsCorrupt(t *testing.T) {
	corrupt := rawItems{{"PK": S("CATALOG#RECIPE"), "SK": S("CREATED#2026-02-10T10:00:00Z#r_03"),
		"GSI1PK": S("ENTITY#RECIPE#r_03"), "GSI1SK": S("PUBLIC#"), "creatorId": S("u_01"), "title": S("t_r_03"),
		"savedCount": &types.AttributeValueMemberBOOL{Value: true}, "createdAt": S("2026-02-10T10:00:00Z")}}
	stores := []struct {
		name string
		new  func(t *testing.T) kondate.Store
	}{
		{"dynamo", func(t *testing.T) kondate.Store {
			s, c, table := newDynamo(t, nil, deterministic)
			for _, item := range append(appCatalog(), corrupt...) {
				if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
					t.Fatal(err)
				}
			}
			return s
		}},
		{"memory", func(t *testing.T) kondate.Store {
			s := kondate.NewMemoryStore(deterministic)
			if err := s.Import(ddbkit.TableItems{kondate.DefaultTableName: appCatalog()}); err != nil {
				t.Fatal(err)
			}
			// Import refuses a corrupt item: put it past Import, as
			// another writer puts it in a table.
			kondate.PutRaw(s, corrupt[0])
			return s
		}},
	}
	var skipped [][]string
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			rep, err := st.new(t).RecalculatePopularity(t.Context(), kondate.KindRecipe)
			want := []kondate.PopularityDrift{{Kind: kondate.KindRecipe, ID: "r_01", Stored: 1, Counted: 0}}
			if err != nil || rep.Checked != 2 || !slices.Equal(rep.Drifts, want) || len(rep.Skipped) != 1 {
				t.Fatalf("RecalculatePopularity = %+v, %v; want r_01 and r_02 checked, %+v, r_03 skipped", rep, err, want)
			}
			var ce *ddbkit.CorruptItemError
			if !errors.Is(rep.Skipped[0], ddbkit.ErrCorruptItem) || !errors.As(rep.Skipped[0], &ce) ||
				!strings.Contains(ce.Key, "r_03") || ce.Attr != "savedCount" {
				t.Fatalf("Skipped = %v; want ErrCorruptItem naming r_03's key and savedCount", rep.Skipped)
			}
			skipped = append(skipped, []string{strings.ReplaceAll(rep.Skipped[0].Error(), ce.Table, "<table>")})
		})
	}
	if len(skipped) == 2 && !slices.Equal(skipped[0], skipped[1]) {
		t.Errorf("the stores' Skipped differ:\n dynamo %q\n memory %q", skipped[0], skipped[1])
	}
}

// TestLegacyCatalogSavedOnGSI1: ddbkit's saves carry GSI1 SAVED#<userId>,
// in the partition of the entry's ID, beside the app's OWNER# and PUBLIC#
// (the one GSI1 sort key the seed does not list; see the package doc).
// The seed's lookups by ID, which name their sort key, are unaffected on
// both stores; a reader of the partition alone, ascending, meets OWNER#
// and PUBLIC# first, the saves after them.
func TestLegacyCatalogSavedOnGSI1(t *testing.T) {
	appStores(t, appCatalog(), func(t *testing.T, s kondate.Store, raw rawReader) {
		ctx := t.Context()
		for _, u := range []string{"u_03", "u_04"} {
			if _, err := s.SaveCatalogEntry(ctx, u, kondate.KindRecipe, "r_01"); err != nil {
				t.Fatalf("SaveCatalogEntry(%s): %v", u, err)
			}
		}
		saved := raw("USER#u_03", "SAVED#RECIPE#r_01")
		if v, _ := saved["GSI1SK"].(*types.AttributeValueMemberS); v == nil || v.Value != "SAVED#u_03" {
			t.Fatalf("saved item = %v; want GSI1SK SAVED#u_03", saved)
		}
		if r, err := s.FindRecipe(ctx, "r_01"); err != nil || r.UserID != "u_01" {
			t.Fatalf("FindRecipe(r_01) = %+v, %v", r, err)
		}
		if e, err := s.GetCatalogEntry(ctx, kondate.KindRecipe, "r_01"); err != nil || e.SavedCount != 3 {
			t.Fatalf("GetCatalogEntry(r_01) = %+v, %v; want saved 3 times", e, err)
		}
	})
	c := ddbtest.Client(t)
	s, _, table := newDynamo(t, nil, deterministic)
	for _, item := range appCatalog() {
		if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.SaveCatalogEntry(t.Context(), "u_03", kondate.KindRecipe, "r_01"); err != nil {
		t.Fatal(err)
	}
	out, err := c.Query(t.Context(), &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("GSI1"),
		KeyConditionExpression:    aws.String("GSI1PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": S("ENTITY#RECIPE#r_01")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, item := range out.Items {
		got = append(got, item["GSI1SK"].(*types.AttributeValueMemberS).Value)
	}
	if want := []string{"OWNER#u_01", "PUBLIC#", "SAVED#u_03"}; !slices.Equal(got, want) {
		t.Fatalf("GSI1 partition ENTITY#RECIPE#r_01 = %v; want %v", got, want)
	}
}
