package kondate_test

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"
	"github.com/guregu/dynamo/v2"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

var (
	recipeScalars  = []string{"GSI1PK", "GSI1SK", "PK", "SK", "createdAt", "origin", "title", "updatedAt"}
	catalogScalars = []string{"GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "PK", "SK", "createdAt", "creatorId", "entityType", "origin", "savedCount", "title"}
	savedScalars   = []string{"GSI1PK", "GSI1SK", "PK", "SK", "creatorId", "entityType", "savedAt", "title"}
)

func published(i int) recipeRow {
	r := recipe(i)
	r.PublishedAt = created
	return r
}

// hwPublic finds an entry's catalog item on GSI1, then reads it
// consistently.
func hwPublic(c *dynamodb.Client, kind, id string) (catalogRow, map[string]types.AttributeValue, error) {
	hits, _, err := hwIndex[catalogRow](c, "GSI1", "ENTITY#"+kind+"#"+id, "PUBLIC#", true, false, 1)
	if err != nil || len(hits) == 0 {
		return catalogRow{}, nil, err
	}
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(hits[0].PK, hits[0].SK), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return catalogRow{}, nil, err
	}
	var row catalogRow
	err = attributevalue.UnmarshalMap(out.Item, &row)
	return row, out.Item, err
}

// hwHit reads an entry's catalog item from GSI1 alone.
func hwHit(c *dynamodb.Client, kind, id string) (catalogRow, error) {
	hits, _, err := hwIndex[catalogRow](c, "GSI1", "ENTITY#"+kind+"#"+id, "PUBLIC#", true, false, 1)
	if err != nil || len(hits) == 0 {
		return catalogRow{}, err
	}
	return hits[0], nil
}

func guHit(t dynamo.Table, kind, id string) (catalogRow, error) {
	var hit catalogRow
	err := t.Get("GSI1PK", "ENTITY#"+kind+"#"+id).Range("GSI1SK", dynamo.Equal, "PUBLIC#").Index("GSI1").Limit(1).One(ctx, &hit)
	return hit, err
}

func guPublic(t dynamo.Table, kind, id string) (catalogRow, error) {
	var hit, row catalogRow
	if err := t.Get("GSI1PK", "ENTITY#"+kind+"#"+id).Range("GSI1SK", dynamo.Equal, "PUBLIC#").Index("GSI1").Limit(1).One(ctx, &hit); err != nil {
		return row, err
	}
	err := t.Get("PK", hit.PK).Range("SK", dynamo.Equal, hit.SK).Consistent(true).One(ctx, &row)
	return row, err
}

// counted returns the catalog item and its creator's copy with savedCount n.
func counted(cat catalogRow, n int64) (catalogRow, catalogRow) {
	cat.SavedCount = n
	cp := cat
	cp.PK, cp.SK = "CREATOR#"+cat.CreatorID, "CATALOG_"+cat.EntityType+cat.SK[len("CREATED"):]
	cp.GSI1PK, cp.GSI1SK = "", ""
	cp.GSI2SK = "SORT#POPULAR#" + pad10(n) + "#" + cat.GSI1PK[len("ENTITY#RECIPE#"):]
	cp.GSI3PK, cp.GSI3SK = "CREATOR#"+cat.CreatorID+"#"+cat.EntityType, cat.SK
	return cat, cp
}

func pad10(n int64) string {
	s := strconv.FormatInt(n, 10)
	for len(s) < 10 {
		s = "0" + s
	}
	return s
}

func benchCatalog(b *testing.B) {
	rid := id(1)
	catalogOpts := kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 50}}
	indexBench(b, "ListCatalogNewest50", "GSI2", "CATALOG#RECIPE", "SORT#NEWEST#", catalogEntry, gsi2Key, func(e *env) (int, bool, error) {
		p, err := e.s.ListCatalogNewest(ctx, kondate.KindRecipe, catalogOpts)
		return len(p.Items), p.Next != "", err
	})
	indexBench(b, "ListCatalogPopular50", "GSI2", "CATALOG#RECIPE", "SORT#POPULAR#", catalogCopy, gsi2Key, func(e *env) (int, bool, error) {
		p, err := e.s.ListCatalogPopular(ctx, kondate.KindRecipe, catalogOpts)
		return len(p.Items), p.Next != "", err
	})
	indexBench(b, "ListCatalogByCreator50", "GSI3", "CREATOR#"+userID+"#RECIPE", "CREATED#", catalogCopy, gsi3Key, func(e *env) (int, bool, error) {
		p, err := e.s.ListCatalogByCreator(ctx, userID, kondate.KindRecipe, catalogOpts)
		return len(p.Items), p.Next != "", err
	})
	// GetCatalogEntry: the catalog item as GSI1 holds it.
	compare(b, "GetCatalogEntry", handlers{"Query": hitOf(catalogEntry(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.GetCatalogEntry(ctx, kondate.KindRecipe, rid); return err },
			func(int) error { _, err := hwHit(e.c, "RECIPE", rid); return err },
			func(int) error { _, err := guHit(e.t, "RECIPE", rid); return err }
	})
	listBench(b, "ListSaved50", saved, "SAVED#RECIPE#", true, func(e *env) (int, bool, error) {
		p, err := e.s.ListSaved(ctx, userID, kondate.KindRecipe, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})

	// Publish: read the recipe, look it up on GSI1 (none: the seed's app
	// publishes without publishedAt), then one transaction: the recipe
	// marked (as read), the catalog item and the creator's copy (if free).
	srcAV := item(recipe(1))
	compare(b, "Publish", handlers{"GetItem": getOf(recipe(1)), "Query": noHits, "TransactWriteItems": ok}, func(e *env) (d, hw, g func(int) error) {
		entry := func(r recipeRow, now string) (catalogRow, catalogRow) {
			cat := catalogRow{PK: "CATALOG#RECIPE", SK: "CREATED#" + now + "#" + rid, GSI1PK: "ENTITY#RECIPE#" + rid, GSI1SK: "PUBLIC#",
				GSI2PK: "CATALOG#RECIPE", GSI2SK: "SORT#NEWEST#" + now + "#" + rid, EntityType: "RECIPE", CreatorID: userID,
				Title: r.Title, Tags: r.Tags, Ingredients: r.Ingredients, Steps: r.Steps, Origin: r.Origin, CreatedAt: now}
			return counted(cat, 0)
		}
		return func(int) error { _, err := e.s.Publish(ctx, userID, kondate.KindRecipe, rid); return err },
			func(int) error {
				out, err := e.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(userPK, "RECIPE#"+rid), ConsistentRead: aws.Bool(true)})
				if err != nil {
					return err
				}
				var r recipeRow
				if err := attributevalue.UnmarshalMap(out.Item, &r); err != nil {
					return err
				}
				if _, err := hwHit(e.c, "RECIPE", rid); err != nil {
					return err
				}
				now := stamp(time.Now())
				cat, cp := entry(r, now)
				catAV, err := attributevalue.MarshalMap(cat)
				if err != nil {
					return err
				}
				cpAV, err := attributevalue.MarshalMap(cp)
				if err != nil {
					return err
				}
				owner := maps.Clone(out.Item)
				owner["publishedAt"] = s(now)
				cond, n, v := unchanged(out.Item, recipeScalars...)
				return hwTx(e.c,
					types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: owner, ConditionExpression: cond,
						ExpressionAttributeNames: n, ExpressionAttributeValues: v}},
					types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: catAV, ConditionExpression: notExists, ExpressionAttributeNames: pkNames}},
					types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: cpAV, ConditionExpression: notExists, ExpressionAttributeNames: pkNames}})
			},
			func(int) error {
				var r recipeRow
				if err := e.t.Get("PK", userPK).Range("SK", dynamo.Equal, "RECIPE#"+rid).Consistent(true).One(ctx, &r); err != nil {
					return err
				}
				if _, err := guHit(e.t, "RECIPE", rid); err != nil && err != dynamo.ErrNotFound {
					return err
				}
				now := stamp(time.Now())
				cat, cp := entry(r, now)
				owner := r
				owner.PublishedAt = now
				cond, args := guUnchanged(srcAV, recipeScalars...)
				return e.db.WriteTx().
					Put(e.t.Put(owner).If(cond, args...)).
					Put(e.t.Put(cat).If("attribute_not_exists('PK')")).
					Put(e.t.Put(cp).If("attribute_not_exists('PK')")).
					Idempotent(true).Run(ctx)
			}
	})

	// Unpublish: read the recipe (its publishedAt gives the catalog keys),
	// then one transaction: delete the copy and the catalog item, unmark
	// the recipe (as read).
	pubAV := item(published(1))
	pubScalars := append([]string{}, recipeScalars...)
	pubScalars = append(pubScalars[:6], append([]string{"publishedAt"}, pubScalars[6:]...)...)
	compare(b, "Unpublish", handlers{"GetItem": getOf(published(1)), "TransactWriteItems": ok}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { return e.s.Unpublish(ctx, userID, kondate.KindRecipe, rid) },
			func(int) error {
				out, err := e.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(userPK, "RECIPE#"+rid), ConsistentRead: aws.Bool(true)})
				if err != nil {
					return err
				}
				var r recipeRow
				if err := attributevalue.UnmarshalMap(out.Item, &r); err != nil {
					return err
				}
				owner := maps.Clone(out.Item)
				delete(owner, "publishedAt")
				cond, n, v := unchanged(out.Item, pubScalars...)
				return hwTx(e.c,
					types.TransactWriteItem{Delete: &types.Delete{TableName: tableName, Key: key("CREATOR#"+userID, "CATALOG_RECIPE#"+r.PublishedAt+"#"+rid)}},
					types.TransactWriteItem{Delete: &types.Delete{TableName: tableName, Key: key("CATALOG#RECIPE", "CREATED#"+r.PublishedAt+"#"+rid),
						ConditionExpression: exists, ExpressionAttributeNames: pkNames}},
					types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: owner, ConditionExpression: cond,
						ExpressionAttributeNames: n, ExpressionAttributeValues: v}})
			},
			func(int) error {
				var r recipeRow
				if err := e.t.Get("PK", userPK).Range("SK", dynamo.Equal, "RECIPE#"+rid).Consistent(true).One(ctx, &r); err != nil {
					return err
				}
				owner := r
				owner.PublishedAt = ""
				cond, args := guUnchanged(pubAV, pubScalars...)
				return e.db.WriteTx().
					Delete(e.t.Delete("PK", "CREATOR#"+userID).Range("SK", "CATALOG_RECIPE#"+r.PublishedAt+"#"+rid)).
					Delete(e.t.Delete("PK", "CATALOG#RECIPE").Range("SK", "CREATED#"+r.PublishedAt+"#"+rid).If("attribute_exists('PK')")).
					Put(e.t.Put(owner).If(cond, args...)).
					Idempotent(true).Run(ctx)
			}
	})

	// SaveCatalogEntry: find the catalog item, read it, then one
	// transaction: the saved item (if free), the catalog item counted (as
	// read) and its copy.
	catAV := item(catalogEntry(1))
	compare(b, "SaveCatalogEntry", handlers{"Query": hitOf(catalogEntry(1)), "GetItem": getOf(catalogEntry(1)), "TransactWriteItems": ok},
		func(e *env) (d, hw, g func(int) error) {
			return func(int) error { _, err := e.s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, rid); return err },
				func(int) error {
					cat, raw, err := hwPublic(e.c, "RECIPE", rid)
					if err != nil {
						return err
					}
					sv, err := attributevalue.MarshalMap(savedRow{PK: "USER#u_02", SK: "SAVED#RECIPE#" + rid, GSI1PK: "ENTITY#RECIPE#" + rid,
						GSI1SK: "SAVED#u_02", EntityType: "RECIPE", CreatorID: cat.CreatorID, Title: cat.Title, SavedAt: stamp(time.Now())})
					if err != nil {
						return err
					}
					newCat, newCopy := counted(cat, cat.SavedCount+1)
					catItem, err := attributevalue.MarshalMap(newCat)
					if err != nil {
						return err
					}
					copyItem, err := attributevalue.MarshalMap(newCopy)
					if err != nil {
						return err
					}
					cond, n, v := unchanged(raw, catalogScalars...)
					return hwTx(e.c,
						types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: sv, ConditionExpression: notExists, ExpressionAttributeNames: pkNames}},
						types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: catItem, ConditionExpression: cond,
							ExpressionAttributeNames: n, ExpressionAttributeValues: v}},
						types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: copyItem, ConditionExpression: exists, ExpressionAttributeNames: pkNames}})
				},
				func(int) error {
					cat, err := guPublic(e.t, "RECIPE", rid)
					if err != nil {
						return err
					}
					newCat, newCopy := counted(cat, cat.SavedCount+1)
					cond, args := guUnchanged(catAV, catalogScalars...)
					return e.db.WriteTx().
						Put(e.t.Put(savedRow{PK: "USER#u_02", SK: "SAVED#RECIPE#" + rid, GSI1PK: "ENTITY#RECIPE#" + rid,
							GSI1SK: "SAVED#u_02", EntityType: "RECIPE", CreatorID: cat.CreatorID, Title: cat.Title, SavedAt: stamp(time.Now())}).
							If("attribute_not_exists('PK')")).
						Put(e.t.Put(newCat).If(cond, args...)).
						Put(e.t.Put(newCopy).If("attribute_exists('PK')")).
						Idempotent(true).Run(ctx)
				}
		})

	// UnsaveCatalogEntry: read the saved item, find and read the catalog
	// item, then one transaction: delete the saved item (as read), the
	// catalog item counted down (as read) and its copy.
	savedAV := item(saved(1))
	savedSK := "SAVED#RECIPE#" + rid
	compare(b, "UnsaveCatalogEntry", handlers{"Query": hitOf(catalogEntry(1)), "TransactWriteItems": ok,
		"GetItem": byKey(map[string]any{savedSK: saved(1), catalogEntry(1).SK: catalogEntry(1)})},
		func(e *env) (d, hw, g func(int) error) {
			return func(int) error { return e.s.UnsaveCatalogEntry(ctx, userID, kondate.KindRecipe, rid) },
				func(int) error {
					out, err := e.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(userPK, savedSK), ConsistentRead: aws.Bool(true)})
					if err != nil || out.Item == nil {
						return err
					}
					cat, raw, err := hwPublic(e.c, "RECIPE", rid)
					if err != nil {
						return err
					}
					newCat, newCopy := counted(cat, max(cat.SavedCount-1, 0))
					catItem, err := attributevalue.MarshalMap(newCat)
					if err != nil {
						return err
					}
					copyItem, err := attributevalue.MarshalMap(newCopy)
					if err != nil {
						return err
					}
					scond, sn, sv := unchanged(out.Item, savedScalars...)
					cond, n, v := unchanged(raw, catalogScalars...)
					return hwTx(e.c,
						types.TransactWriteItem{Delete: &types.Delete{TableName: tableName, Key: key(userPK, savedSK), ConditionExpression: scond,
							ExpressionAttributeNames: sn, ExpressionAttributeValues: sv}},
						types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: catItem, ConditionExpression: cond,
							ExpressionAttributeNames: n, ExpressionAttributeValues: v}},
						types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: copyItem, ConditionExpression: exists, ExpressionAttributeNames: pkNames}})
				},
				func(int) error {
					var sv savedRow
					if err := e.t.Get("PK", userPK).Range("SK", dynamo.Equal, savedSK).Consistent(true).One(ctx, &sv); err != nil {
						return err
					}
					cat, err := guPublic(e.t, "RECIPE", rid)
					if err != nil {
						return err
					}
					newCat, newCopy := counted(cat, max(cat.SavedCount-1, 0))
					scond, sargs := guUnchanged(savedAV, savedScalars...)
					cond, args := guUnchanged(catAV, catalogScalars...)
					return e.db.WriteTx().
						Delete(e.t.Delete("PK", userPK).Range("SK", savedSK).If(scond, sargs...)).
						Put(e.t.Put(newCat).If(cond, args...)).
						Put(e.t.Put(newCopy).If("attribute_exists('PK')")).
						Idempotent(true).Run(ctx)
				}
		})
}

func benchShare(b *testing.B) {
	sid := shareID(1)
	in := kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: id(1), AuthorName: "山田花子", SourceURL: "https://example.com/recipes/mapo"}
	// kondate creates with a one-item transaction: see createBench.
	compare(b, "CreateShareLink", handlers{"TransactWriteItems": ok}, func(e *env) (d, hw, g func(int) error) {
		row := func() shareRow {
			return shareRow{PK: "SHARE#" + uuid.NewString(), SK: "META#", TargetType: "RECIPE", TargetID: in.TargetID,
				AuthorName: in.AuthorName, SourceURL: in.SourceURL, CreatedBy: userID, CreatedAt: stamp(time.Now())}
		}
		return func(int) error { _, err := e.s.CreateShareLink(ctx, userID, in); return err },
			func(int) error { return hwCreate(e.c, row()) },
			func(int) error {
				return e.db.WriteTx().Put(e.t.Put(row()).If("attribute_not_exists('PK')")).Idempotent(true).Run(ctx)
			}
	})
	compare(b, "GetShareLink", handlers{"GetItem": getOf(share(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.GetShareLink(ctx, sid); return err },
			func(int) error { _, err := hwGet[shareRow](e.c, "SHARE#"+sid, "META#"); return err },
			func(int) error {
				var r shareRow
				return e.t.Get("PK", "SHARE#"+sid).Range("SK", dynamo.Equal, "META#").Consistent(true).One(ctx, &r)
			}
	})
	// DeleteShareLink: read the link (its creator), then delete it.
	compare(b, "DeleteShareLink", handlers{"GetItem": getOf(share(1)), "DeleteItem": ok}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { return e.s.DeleteShareLink(ctx, userID, sid) },
			func(int) error {
				l, err := hwGet[shareRow](e.c, "SHARE#"+sid, "META#")
				if err != nil || l.CreatedBy != userID {
					return err
				}
				_, err = e.c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: tableName, Key: key("SHARE#"+sid, "META#"),
					ConditionExpression: exists, ExpressionAttributeNames: pkNames})
				return err
			},
			func(int) error {
				var l shareRow
				if err := e.t.Get("PK", "SHARE#"+sid).Range("SK", dynamo.Equal, "META#").Consistent(true).One(ctx, &l); err != nil || l.CreatedBy != userID {
					return err
				}
				return e.t.Delete("PK", "SHARE#"+sid).Range("SK", "META#").If("attribute_exists('PK')").Run(ctx)
			}
	})
	// ResolveShareLink: read the link, then its target's catalog entry
	// from GSI1.
	compare(b, "ResolveShareLink", handlers{"Query": hitOf(catalogEntry(1)), "GetItem": getOf(share(1))},
		func(e *env) (d, hw, g func(int) error) {
			return func(int) error { _, err := e.s.ResolveShareLink(ctx, sid); return err },
				func(int) error {
					l, err := hwGet[shareRow](e.c, "SHARE#"+sid, "META#")
					if err != nil {
						return err
					}
					_, err = hwHit(e.c, l.TargetType, l.TargetID)
					return err
				},
				func(int) error {
					var l shareRow
					if err := e.t.Get("PK", "SHARE#"+sid).Range("SK", dynamo.Equal, "META#").Consistent(true).One(ctx, &l); err != nil {
						return err
					}
					_, err := guHit(e.t, l.TargetType, l.TargetID)
					return err
				}
		})
}

func benchProfile(b *testing.B) {
	prof := profileRow{PK: userPK, SK: "PROFILE#", DisplayName: "山田花子", AvatarURL: "https://example.com/a/u_01.png", CreatedAt: created, UpdatedAt: updated}
	getBench(b, "GetProfile", prof, "PROFILE#", func(e *env) error {
		_, err := e.s.GetProfile(ctx, userID)
		return err
	})
	name := "花子"
	compare(b, "UpdateProfile", handlers{"UpdateItem": attrsOf(prof)}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error {
				_, err := e.s.UpdateProfile(ctx, userID, kondate.ProfilePatch{DisplayName: &name})
				return err
			},
			func(int) error {
				// As kondate's: keep a createdAt that holds a value, on
				// condition that it does (the seed's app writes NULL for
				// "none", which if_not_exists would keep).
				now := stamp(time.Now())
				out, err := e.c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: tableName, Key: key(userPK, "PROFILE#"),
					UpdateExpression:         aws.String("SET #u = :u, #c = if_not_exists(#c, :c), #d = :d"),
					ConditionExpression:      aws.String("attribute_exists(#c) AND NOT #c = :null"),
					ExpressionAttributeNames: names("#u", "updatedAt", "#c", "createdAt", "#d", "displayName"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":u": s(now), ":c": s(now), ":d": s(name),
						":null": null},
					ReturnValues: types.ReturnValueAllNew, ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
				if err != nil {
					return err
				}
				var r profileRow
				return attributevalue.UnmarshalMap(out.Attributes, &r)
			},
			func(int) error {
				var r profileRow
				now := stamp(time.Now())
				return e.t.Update("PK", userPK).Range("SK", "PROFILE#").Set("updatedAt", now).SetIfNotExists("createdAt", now).
					Set("displayName", name).Value(ctx, &r)
			}
	})
}

func benchCategories(b *testing.B) {
	cid := id(1)
	createBench(b, "AddCategory", func(e *env) error {
		_, err := e.s.AddCategory(ctx, userID, kondate.ScopeBook, kondate.NewCategory{Name: "作り置き"})
		return err
	}, func(ids ddbkit.IDGenerator, now time.Time) any {
		at := stamp(now)
		return categoryRow{PK: userPK, SK: "CATEGORY#book#" + ids(), Name: "作り置き", CreatedAt: at, UpdatedAt: at}
	})
	listBench(b, "ListCategories50", category, "CATEGORY#book#", false, func(e *env) (int, bool, error) {
		p, err := e.s.ListCategories(ctx, userID, kondate.ScopeBook, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	name := "お弁当"
	compare(b, "UpdateCategory", handlers{"UpdateItem": attrsOf(category(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error {
				_, err := e.s.UpdateCategory(ctx, userID, kondate.ScopeBook, cid, kondate.CategoryPatch{Name: &name})
				return err
			},
			func(int) error {
				_, err := hwUpdate[categoryRow](e.c, userPK, "CATEGORY#book#"+cid, true, "SET #u = :u, #n = :n",
					names("#u", "updatedAt", "#n", "name"), map[string]types.AttributeValue{":u": s(stamp(time.Now())), ":n": s(name)})
				return err
			},
			func(int) error {
				var r categoryRow
				return e.t.Update("PK", userPK).Range("SK", "CATEGORY#book#"+cid).Set("updatedAt", stamp(time.Now())).
					Set("name", name).If("attribute_exists('PK')").Value(ctx, &r)
			}
	})
	removeBench(b, "DeleteCategory", category(1), userPK, "CATEGORY#book#"+cid, func(e *env) error {
		return e.s.DeleteCategory(ctx, userID, kondate.ScopeBook, cid)
	})
}

func benchCookLogs(b *testing.B) {
	createBench(b, "AddCookLog", func(e *env) error {
		_, err := e.s.AddCookLog(ctx, userID, kondate.NewCookLog{Date: "2026-02-09", RecipeID: id(1), Title: "麻婆豆腐", Note: "辛さ控えめにした"})
		return err
	}, func(ids ddbkit.IDGenerator, now time.Time) any {
		return cookLogRow{PK: userPK, SK: "COOKLOG#2026-02-09#" + ids(), RecipeID: id(1), Title: "麻婆豆腐", Note: "辛さ控えめにした", CreatedAt: stamp(now)}
	})
	listBench(b, "ListCookLogsByMonth50", cookLog, "COOKLOG#2026-02", false, func(e *env) (int, bool, error) {
		p, err := e.s.ListCookLogsByMonth(ctx, userID, "2026-02", ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	day := func(i int) cookLogRow { c := cookLog(i); c.SK = "COOKLOG#2026-02-09#" + id(i); return c }
	listBench(b, "ListCookLogsByDay50", day, "COOKLOG#2026-02-09#", false, func(e *env) (int, bool, error) {
		p, err := e.s.ListCookLogsByDay(ctx, userID, "2026-02-09", ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
}

func benchPayments(b *testing.B) {
	pid := id(1)
	createBench(b, "AddPaymentMethod", func(e *env) error {
		_, err := e.s.AddPaymentMethod(ctx, userID, kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: "pm_1OqXyZ2eZvKYlo2C", Brand: "visa", Last4: "4242"})
		return err
	}, func(ids ddbkit.IDGenerator, now time.Time) any {
		return paymentMethodRow{PK: userPK, SK: "PAYMENT_METHOD#" + ids(), Provider: "stripe", ProviderRef: "pm_1OqXyZ2eZvKYlo2C",
			Brand: "visa", Last4: "4242", CreatedAt: stamp(now)}
	})
	listBench(b, "ListPaymentMethods50", paymentMethod, "PAYMENT_METHOD#", false, func(e *env) (int, bool, error) {
		p, err := e.s.ListPaymentMethods(ctx, userID, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	removeBench(b, "RemovePaymentMethod", paymentMethod(1), userPK, "PAYMENT_METHOD#"+pid, func(e *env) error {
		return e.s.RemovePaymentMethod(ctx, userID, pid)
	})
	// A purchase is put with its guard, PURCHASE_TXN#<transactionId>,
	// which holds its sort key (kondate's doc: a purchase is recorded once
	// per transaction).
	createRowsBench(b, "RecordPurchase", func(e *env) error {
		_, err := e.s.RecordPurchase(ctx, userID, kondate.NewPurchase{TransactionID: "pi_3N", PurchasedAt: time.Now(), ProductID: "premium_monthly", Amount: 480, Currency: "JPY", PaymentMethodID: pid})
		return err
	}, func(_ ddbkit.IDGenerator, now time.Time) []any {
		at := stamp(now)
		sk := "PURCHASE#" + at + "#pi_3N"
		return []any{purchaseGuardRow{PK: userPK, SK: "PURCHASE_TXN#pi_3N", PurchaseSK: sk},
			purchaseRow{PK: userPK, SK: sk, ProductID: "premium_monthly", Amount: 480, Currency: "JPY", PaymentMethodID: pid, PurchasedAt: at}}
	})
	listBench(b, "ListPurchases50", purchase, "PURCHASE#", true, func(e *env) (int, bool, error) {
		p, err := e.s.ListPurchases(ctx, userID, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	sub := subscriptionRow{PK: userPK, SK: "SUBSCRIPTION#ACTIVE", Plan: "premium", Status: "active", CurrentPeriodEnd: "2026-03-09T10:00:00.000Z", UpdatedAt: updated}
	getBench(b, "GetSubscription", sub, "SUBSCRIPTION#ACTIVE", func(e *env) error {
		_, err := e.s.GetSubscription(ctx, userID)
		return err
	})
	end := createdAt.AddDate(0, 1, 0)
	compare(b, "SetSubscription", handlers{"PutItem": ok}, func(e *env) (d, hw, g func(int) error) {
		row := func() subscriptionRow {
			return subscriptionRow{PK: userPK, SK: "SUBSCRIPTION#ACTIVE", Plan: "premium", Status: "active",
				CurrentPeriodEnd: stamp(end), UpdatedAt: stamp(time.Now())}
		}
		return func(int) error {
				_, err := e.s.SetSubscription(ctx, userID, kondate.Subscription{Plan: "premium", Status: "active", CurrentPeriodEnd: end})
				return err
			},
			func(int) error { return hwPut(e.c, row()) },
			func(int) error { return e.t.Put(row()).Run(ctx) }
	})
}

func benchNotifications(b *testing.B) {
	nid := id(1)
	createBench(b, "AddNotification", func(e *env) error {
		_, err := e.s.AddNotification(ctx, userID, kondate.NewNotification{Kind: "reminder", Title: "今日の献立", Body: "麻婆豆腐の材料を確認しましょう"})
		return err
	}, func(ids ddbkit.IDGenerator, now time.Time) any {
		at := stamp(now)
		return notificationRow{PK: userPK, SK: "NOTIFICATION#" + at + "#" + ids(), Kind: "reminder", Title: "今日の献立",
			Body: "麻婆豆腐の材料を確認しましょう", CreatedAt: at}
	})
	listBench(b, "ListNotifications50", notification, "NOTIFICATION#", true, func(e *env) (int, bool, error) {
		p, err := e.s.ListNotifications(ctx, userID, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	nsk := "NOTIFICATION#" + created + "#" + nid
	compare(b, "MarkNotificationRead", handlers{"UpdateItem": attrsOf(notification(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.MarkNotificationRead(ctx, userID, created+"#"+nid); return err },
			func(int) error {
				// As kondate's: the first read wins, and a NULL readAt
				// counts as none (see unsetOnce).
				_, err := hwUpdateIf[notificationRow](e.c, userPK, nsk, unsetOnce, "SET #d = :d",
					names("#pk", "PK", "#d", "readAt"), map[string]types.AttributeValue{":d": s(stamp(time.Now())), ":null": null})
				return err
			},
			func(int) error {
				var r notificationRow
				return e.t.Update("PK", userPK).Range("SK", nsk).SetIfNotExists("readAt", stamp(time.Now())).
					If("attribute_exists('PK')").Value(ctx, &r)
			}
	})
	settings := notificationSettingsRow{PK: userPK, SK: "NOTIFICATION_SETTINGS#", PushEnabled: true, EmailEnabled: false, UpdatedAt: updated}
	getBench(b, "GetNotificationSettings", settings, "NOTIFICATION_SETTINGS#", func(e *env) error {
		_, err := e.s.GetNotificationSettings(ctx, userID)
		return err
	})
	compare(b, "SetNotificationSettings", handlers{"PutItem": ok}, func(e *env) (d, hw, g func(int) error) {
		row := func() notificationSettingsRow {
			return notificationSettingsRow{PK: userPK, SK: "NOTIFICATION_SETTINGS#", PushEnabled: true, UpdatedAt: stamp(time.Now())}
		}
		return func(int) error {
				_, err := e.s.SetNotificationSettings(ctx, userID, kondate.NotificationSettings{PushEnabled: true})
				return err
			},
			func(int) error { return hwPut(e.c, row()) },
			func(int) error { return e.t.Put(row()).Run(ctx) }
	})
	token := "ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]"
	tokenSK := func() string {
		h := sha256.Sum256([]byte(token))
		return "PUSH_TOKEN#ios#" + hex.EncodeToString(h[:])
	}
	compare(b, "RegisterPushToken", handlers{"UpdateItem": attrsOf(pushToken(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.RegisterPushToken(ctx, userID, kondate.PlatformIOS, token); return err },
			func(int) error {
				now := stamp(time.Now())
				_, err := hwUpdate[pushTokenRow](e.c, userPK, tokenSK(), false, "SET #u = :u, #p = :p, #t = :t, #c = if_not_exists(#c, :c)",
					names("#u", "updatedAt", "#p", "platform", "#t", "token", "#c", "createdAt"),
					map[string]types.AttributeValue{":u": s(now), ":p": s("ios"), ":t": s(token), ":c": s(now)})
				return err
			},
			func(int) error {
				var r pushTokenRow
				now := stamp(time.Now())
				return e.t.Update("PK", userPK).Range("SK", tokenSK()).Set("updatedAt", now).Set("platform", "ios").
					Set("token", token).SetIfNotExists("createdAt", now).Value(ctx, &r)
			}
	})
	compare(b, "UnregisterPushToken", handlers{"GetItem": getOf(pushToken(1)), "DeleteItem": ok}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { return e.s.UnregisterPushToken(ctx, userID, kondate.PlatformIOS, token) },
			func(int) error { return hwRemove(e.c, userPK, tokenSK()) },
			func(int) error { return guRemove(e.t, userPK, tokenSK()) }
	})
	listBench(b, "ListPushTokens50", pushToken, "PUSH_TOKEN#", false, func(e *env) (int, bool, error) {
		p, err := e.s.ListPushTokens(ctx, userID, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
}
