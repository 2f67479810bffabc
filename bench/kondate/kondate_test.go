package kondate_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// stamp is what the hand-written and guregu variants write as a time, as
// kondate does: ISO 8601 UTC, milliseconds.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// newIDs is the ID generator of the hand-written and guregu creates: the
// same ULIDs as kondate's.
func newIDs() ddbkit.IDGenerator { return ddbkit.NewULIDs(time.Now) }

// getBench compares a GetItem of one row at userPK / sk.
func getBench[T any](b *testing.B, name string, row T, sk string, call func(e *env) error) {
	compare(b, name, handlers{"GetItem": getOf(row)}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { return call(e) },
			func(int) error { _, err := hwGet[T](e.c, userPK, sk); return err },
			func(int) error {
				var r T
				return e.t.Get("PK", userPK).Range("SK", dynamo.Equal, sk).Consistent(true).One(ctx, &r)
			}
	})
}

// listBench compares the first 50-item page of a user's items whose sort
// keys begin with prefix.
func listBench[T any](b *testing.B, name string, row func(int) T, prefix string, desc bool, call func(e *env) (int, bool, error)) {
	order := dynamo.Ascending
	if desc {
		order = dynamo.Descending
	}
	compare(b, name, handlers{"Query": pagesOf(200, row, tableKey...)}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { return wantPage(call(e)) },
			func(int) error {
				rows, lek, err := hwList[T](e.c, userPK, prefix, desc, 50)
				return wantPage(len(rows), lek != nil, err)
			},
			func(int) error {
				var rows []T
				next, err := e.t.Get("PK", userPK).Range("SK", dynamo.BeginsWith, prefix).Order(order).Consistent(true).
					SearchLimit(50).AllWithLastEvaluatedKey(ctx, &rows)
				return wantPage(len(rows), next != nil, err)
			}
	})
}

// indexBench compares the first 50-item page of an index's partition.
func indexBench(b *testing.B, name, index, pk, prefix string, row func(int) catalogRow, keyAttrs []string, call func(e *env) (int, bool, error)) {
	compare(b, name, handlers{"Query": pagesOf(200, row, keyAttrs...)}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { return wantPage(call(e)) },
			func(int) error {
				rows, lek, err := hwIndex[catalogRow](e.c, index, pk, prefix, false, true, 50)
				return wantPage(len(rows), lek != nil, err)
			},
			func(int) error {
				var rows []catalogRow
				next, err := e.t.Get(index+"PK", pk).Range(index+"SK", dynamo.BeginsWith, prefix).Index(index).
					Order(dynamo.Descending).SearchLimit(50).AllWithLastEvaluatedKey(ctx, &rows)
				return wantPage(len(rows), next != nil, err)
			}
	})
}

// createBench compares the put of a new row (a fresh ID and time) if its
// key is free. kondate sends it as a one-item TransactWriteItems with a
// ClientRequestToken (ddb.PutNew, so that it can tell its own retry from
// another's write), and so do the hand-written and guregu versions.
func createBench(b *testing.B, name string, call func(e *env) error, newRow func(ids ddbkit.IDGenerator, now time.Time) any) {
	createRowsBench(b, name, call, func(ids ddbkit.IDGenerator, now time.Time) []any { return []any{newRow(ids, now)} })
}

// createRowsBench is createBench for an operation that puts several new
// rows in its transaction (RecordPurchase: the purchase and its guard).
func createRowsBench(b *testing.B, name string, call func(e *env) error, newRows func(ids ddbkit.IDGenerator, now time.Time) []any) {
	compare(b, name, handlers{"TransactWriteItems": ok}, func(e *env) (d, hw, g func(int) error) {
		ids := newIDs()
		return func(int) error { return call(e) },
			func(int) error { return hwCreate(e.c, newRows(ids, time.Now())...) },
			func(int) error {
				tx := e.db.WriteTx()
				for _, row := range newRows(ids, time.Now()) {
					tx = tx.Put(e.t.Put(row).If("attribute_not_exists('PK')"))
				}
				return tx.Idempotent(true).Run(ctx)
			}
	})
}

// removeBench compares the read, then conditional delete, of one item.
func removeBench(b *testing.B, name string, row any, pk, sk string, call func(e *env) error) {
	compare(b, name, handlers{"GetItem": getOf(row), "DeleteItem": ok}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { return call(e) },
			func(int) error { return hwRemove(e.c, pk, sk) },
			func(int) error { return guRemove(e.t, pk, sk) }
	})
}

// noHits answers a Query that finds nothing.
var noHits = canned(`{"Items":[],"Count":0,"ScannedCount":0}`)

// deleteOwnedBench compares the delete of an unpublished recipe or set:
// read it, look its catalog entry up on GSI1 (none), delete it in a
// transaction conditioned on its scalar attributes as read.
func deleteOwnedBench(b *testing.B, name string, row any, kind, id string, scalars []string, call func(e *env) error) {
	sk := kind + "#" + id
	compare(b, name, handlers{"GetItem": getOf(row), "Query": noHits, "TransactWriteItems": ok}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { return call(e) },
			func(int) error {
				out, err := e.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(userPK, sk), ConsistentRead: aws.Bool(true)})
				if err != nil || out.Item == nil {
					return err
				}
				if _, err := hwHit(e.c, kind, id); err != nil {
					return err
				}
				cond, n, v := unchanged(out.Item, scalars...)
				return hwTx(e.c, types.TransactWriteItem{Delete: &types.Delete{TableName: tableName, Key: key(userPK, sk),
					ConditionExpression: cond, ExpressionAttributeNames: n, ExpressionAttributeValues: v}})
			},
			func(int) error {
				var item dynamo.Item
				if err := e.t.Get("PK", userPK).Range("SK", dynamo.Equal, sk).Consistent(true).One(ctx, &item); err != nil {
					return err
				}
				if _, err := guHit(e.t, kind, id); err != nil && err != dynamo.ErrNotFound {
					return err
				}
				cond, args := guUnchanged(item, scalars...)
				return e.db.WriteTx().Delete(e.t.Delete("PK", userPK).Range("SK", sk).If(cond, args...)).Idempotent(true).Run(ctx)
			}
	})
}

func names(kv ...string) map[string]string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// BenchmarkKondate compares each operation of kondate's DynamoStore with
// the same calls written by hand on aws-sdk-go-v2 and with guregu/dynamo
// v2, on a stub transport.
func BenchmarkKondate(b *testing.B) {
	benchRecipes(b)
	benchSets(b)
	benchPlans(b)
	benchShopping(b)
	benchFridge(b)
	benchCatalog(b)
	benchShare(b)
	benchProfile(b)
	benchCategories(b)
	benchCookLogs(b)
	benchPayments(b)
	benchNotifications(b)
}

func benchRecipes(b *testing.B) {
	rid := id(1)
	getBench(b, "GetRecipe", recipe(1), "RECIPE#"+rid, func(e *env) error {
		_, err := e.s.GetRecipe(ctx, userID, rid)
		return err
	})
	listBench(b, "ListRecipes50", recipe, "RECIPE#", true, func(e *env) (int, bool, error) {
		p, err := e.s.ListRecipes(ctx, userID, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	compare(b, "FindRecipe", handlers{"Query": hitOf(recipe(1)), "GetItem": getOf(recipe(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.FindRecipe(ctx, rid); return err },
			func(int) error {
				hits, _, err := hwIndex[recipeRow](e.c, "GSI1", "ENTITY#RECIPE#"+rid, "OWNER#", false, false, 1)
				if err != nil || len(hits) == 0 {
					return err
				}
				_, err = hwGet[recipeRow](e.c, hits[0].PK, "RECIPE#"+rid)
				return err
			},
			func(int) error {
				var hit, r recipeRow
				if err := e.t.Get("GSI1PK", "ENTITY#RECIPE#"+rid).Range("GSI1SK", dynamo.BeginsWith, "OWNER#").Index("GSI1").
					Limit(1).One(ctx, &hit); err != nil {
					return err
				}
				return e.t.Get("PK", hit.PK).Range("SK", dynamo.Equal, "RECIPE#"+rid).Consistent(true).One(ctx, &r)
			}
	})
	in := kondate.NewRecipe{Title: "麻婆豆腐", Steps: mapoSteps, Tags: []string{"中華", "夕食"}, Origin: "manual"}
	for _, ing := range mapoIngredients {
		in.Ingredients = append(in.Ingredients, kondate.Ingredient{Name: ing.Name, Amount: ing.Amount})
	}
	createBench(b, "CreateRecipe", func(e *env) error {
		_, err := e.s.CreateRecipe(ctx, userID, in)
		return err
	}, func(ids ddbkit.IDGenerator, now time.Time) any {
		id, at := ids(), stamp(now)
		return recipeRow{PK: userPK, SK: "RECIPE#" + id, GSI1PK: "ENTITY#RECIPE#" + id, GSI1SK: "OWNER#" + userID,
			Title: in.Title, Ingredients: mapoIngredients, Steps: in.Steps, Tags: in.Tags, Origin: in.Origin, CreatedAt: at, UpdatedAt: at}
	})
	title, tags := "麻婆茄子", []string{"中華", "夕食", "野菜"}
	compare(b, "UpdateRecipe", handlers{"UpdateItem": attrsOf(recipe(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error {
				_, err := e.s.UpdateRecipe(ctx, userID, rid, kondate.RecipePatch{Title: &title, Tags: &tags})
				return err
			},
			func(int) error {
				tv, err := attributevalue.Marshal(tags)
				if err != nil {
					return err
				}
				_, err = hwUpdate[recipeRow](e.c, userPK, "RECIPE#"+rid, true, "SET #u = :u, #t = :t, #g = :g",
					names("#u", "updatedAt", "#t", "title", "#g", "tags"),
					map[string]types.AttributeValue{":u": s(stamp(time.Now())), ":t": s(title), ":g": tv})
				return err
			},
			func(int) error {
				var r recipeRow
				return e.t.Update("PK", userPK).Range("SK", "RECIPE#"+rid).Set("updatedAt", stamp(time.Now())).
					Set("title", title).Set("tags", tags).If("attribute_exists('PK')").Value(ctx, &r)
			}
	})
	deleteOwnedBench(b, "DeleteRecipe", recipe(1), "RECIPE", rid, recipeScalars, func(e *env) error {
		return e.s.DeleteRecipe(ctx, userID, rid)
	})
}

func benchSets(b *testing.B) {
	sid := id(1)
	getBench(b, "GetSet", set(1), "SET#"+sid, func(e *env) error {
		_, err := e.s.GetSet(ctx, userID, sid)
		return err
	})
	listBench(b, "ListSets50", set, "SET#", true, func(e *env) (int, bool, error) {
		p, err := e.s.ListSets(ctx, userID, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	compare(b, "FindSet", handlers{"Query": hitOf(set(1)), "GetItem": getOf(set(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.FindSet(ctx, sid); return err },
			func(int) error {
				hits, _, err := hwIndex[setRow](e.c, "GSI1", "ENTITY#SET#"+sid, "OWNER#", false, false, 1)
				if err != nil || len(hits) == 0 {
					return err
				}
				_, err = hwGet[setRow](e.c, hits[0].PK, "SET#"+sid)
				return err
			},
			func(int) error {
				var hit, r setRow
				if err := e.t.Get("GSI1PK", "ENTITY#SET#"+sid).Range("GSI1SK", dynamo.BeginsWith, "OWNER#").Index("GSI1").
					Limit(1).One(ctx, &hit); err != nil {
					return err
				}
				return e.t.Get("PK", hit.PK).Range("SK", dynamo.Equal, "SET#"+sid).Consistent(true).One(ctx, &r)
			}
	})
	in := kondate.NewSet{Title: "平日の献立", Tags: []string{"定番"}}
	for _, it := range weekItems {
		in.Items = append(in.Items, kondate.SetItem{RecipeID: it.RecipeID, Title: it.Title})
	}
	createBench(b, "CreateSet", func(e *env) error {
		_, err := e.s.CreateSet(ctx, userID, in)
		return err
	}, func(ids ddbkit.IDGenerator, now time.Time) any {
		id, at := ids(), stamp(now)
		return setRow{PK: userPK, SK: "SET#" + id, GSI1PK: "ENTITY#SET#" + id, GSI1SK: "OWNER#" + userID,
			Title: in.Title, Items: weekItems, Tags: in.Tags, CreatedAt: at, UpdatedAt: at}
	})
	title := "週末の献立"
	compare(b, "UpdateSet", handlers{"UpdateItem": attrsOf(set(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error {
				_, err := e.s.UpdateSet(ctx, userID, sid, kondate.SetPatch{Title: &title, Items: &in.Items})
				return err
			},
			func(int) error {
				iv, err := attributevalue.Marshal(weekItems)
				if err != nil {
					return err
				}
				_, err = hwUpdate[setRow](e.c, userPK, "SET#"+sid, true, "SET #u = :u, #t = :t, #i = :i",
					names("#u", "updatedAt", "#t", "title", "#i", "items"),
					map[string]types.AttributeValue{":u": s(stamp(time.Now())), ":t": s(title), ":i": iv})
				return err
			},
			func(int) error {
				var r setRow
				return e.t.Update("PK", userPK).Range("SK", "SET#"+sid).Set("updatedAt", stamp(time.Now())).
					Set("title", title).Set("items", weekItems).If("attribute_exists('PK')").Value(ctx, &r)
			}
	})
	deleteOwnedBench(b, "DeleteSet", set(1), "SET", sid, []string{"GSI1PK", "GSI1SK", "PK", "SK", "createdAt", "title", "updatedAt"}, func(e *env) error {
		return e.s.DeleteSet(ctx, userID, sid)
	})
}

func benchPlans(b *testing.B) {
	getBench(b, "GetPlan", plan("CURRENT"), "PLAN#CURRENT", func(e *env) error {
		_, err := e.s.GetPlan(ctx, userID, kondate.PlanCurrent)
		return err
	})
	var items []kondate.SetItem
	for _, it := range weekItems {
		items = append(items, kondate.SetItem{RecipeID: it.RecipeID, Title: it.Title})
	}
	compare(b, "UpdatePlan", handlers{"UpdateItem": attrsOf(plan("NEXT"))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.UpdatePlan(ctx, userID, kondate.PlanNext, items); return err },
			func(int) error {
				iv, err := attributevalue.Marshal(weekItems)
				if err != nil {
					return err
				}
				_, err = hwUpdate[planRow](e.c, userPK, "PLAN#NEXT", false,
					"SET #u = :u, #i = :i, #s = if_not_exists(#s, :e), #t = if_not_exists(#t, :e)",
					names("#u", "updatedAt", "#i", "items", "#s", "setId", "#t", "setTitle"),
					map[string]types.AttributeValue{":u": s(stamp(time.Now())), ":i": iv, ":e": s("")})
				return err
			},
			func(int) error {
				var r planRow
				return e.t.Update("PK", userPK).Range("SK", "PLAN#NEXT").Set("updatedAt", stamp(time.Now())).
					Set("items", weekItems).SetIfNotExists("setId", "").SetIfNotExists("setTitle", "").Value(ctx, &r)
			}
	})

	// ApplySet: read the set, then one transaction that checks the set is
	// as read and puts the plan.
	sid := id(1)
	setAV := item(set(1))
	setScalars := []string{"GSI1PK", "GSI1SK", "PK", "SK", "createdAt", "title", "updatedAt"}
	compare(b, "ApplySet", handlers{"GetItem": getOf(set(1)), "TransactWriteItems": ok}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.ApplySet(ctx, userID, kondate.PlanNext, sid); return err },
			func(int) error {
				out, err := e.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(userPK, "SET#"+sid), ConsistentRead: aws.Bool(true)})
				if err != nil {
					return err
				}
				var st setRow
				if err := attributevalue.UnmarshalMap(out.Item, &st); err != nil {
					return err
				}
				now := stamp(time.Now())
				p, err := attributevalue.MarshalMap(planRow{PK: userPK, SK: "PLAN#NEXT", SetID: sid, SetTitle: st.Title, Items: st.Items,
					AppliedAt: now, UpdatedAt: now})
				if err != nil {
					return err
				}
				cond, n, v := unchanged(out.Item, setScalars...)
				return hwTx(e.c,
					types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: tableName, Key: key(userPK, "SET#"+sid),
						ConditionExpression: cond, ExpressionAttributeNames: n, ExpressionAttributeValues: v}},
					types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: p}})
			},
			func(int) error {
				var st setRow
				if err := e.t.Get("PK", userPK).Range("SK", dynamo.Equal, "SET#"+sid).Consistent(true).One(ctx, &st); err != nil {
					return err
				}
				now := stamp(time.Now())
				cond, args := guUnchanged(setAV, setScalars...)
				return e.db.WriteTx().
					Check(e.t.Check("PK", userPK).Range("SK", "SET#"+sid).If(cond, args...)).
					Put(e.t.Put(planRow{PK: userPK, SK: "PLAN#NEXT", SetID: sid, SetTitle: st.Title, Items: st.Items, AppliedAt: now, UpdatedAt: now})).
					Idempotent(true).Run(ctx)
			}
	})

	// PromoteNextPlan: read NEXT, then delete it (as read) and put it as
	// CURRENT in one transaction.
	nextAV := item(plan("NEXT"))
	planScalars := []string{"PK", "SK", "appliedAt", "setId", "setTitle", "updatedAt"}
	compare(b, "PromoteNextPlan", handlers{"GetItem": getOf(plan("NEXT")), "TransactWriteItems": ok}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.PromoteNextPlan(ctx, userID); return err },
			func(int) error {
				out, err := e.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(userPK, "PLAN#NEXT"), ConsistentRead: aws.Bool(true)})
				if err != nil {
					return err
				}
				var p planRow
				if err := attributevalue.UnmarshalMap(out.Item, &p); err != nil {
					return err
				}
				cur := make(map[string]types.AttributeValue, len(out.Item))
				for k, v := range out.Item {
					cur[k] = v
				}
				cur["SK"], cur["updatedAt"] = s("PLAN#CURRENT"), s(stamp(time.Now()))
				cond, n, v := unchanged(out.Item, planScalars...)
				return hwTx(e.c,
					types.TransactWriteItem{Delete: &types.Delete{TableName: tableName, Key: key(userPK, "PLAN#NEXT"),
						ConditionExpression: cond, ExpressionAttributeNames: n, ExpressionAttributeValues: v}},
					types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: cur}})
			},
			func(int) error {
				var p planRow
				if err := e.t.Get("PK", userPK).Range("SK", dynamo.Equal, "PLAN#NEXT").Consistent(true).One(ctx, &p); err != nil {
					return err
				}
				cond, args := guUnchanged(nextAV, planScalars...)
				cur := p
				cur.SK, cur.UpdatedAt = "PLAN#CURRENT", stamp(time.Now())
				return e.db.WriteTx().
					Delete(e.t.Delete("PK", userPK).Range("SK", "PLAN#NEXT").If(cond, args...)).
					Put(e.t.Put(cur)).
					Idempotent(true).Run(ctx)
			}
	})
}

func benchShopping(b *testing.B) {
	iid := id(1)
	createBench(b, "AddShoppingItem", func(e *env) error {
		_, err := e.s.AddShoppingItem(ctx, userID, kondate.NewShoppingItem{Name: "木綿豆腐", Quantity: "2丁"})
		return err
	}, func(ids ddbkit.IDGenerator, now time.Time) any {
		at := stamp(now)
		return shoppingRow{PK: userPK, SK: "SHOPPING#" + ids(), Name: "木綿豆腐", Quantity: "2丁", CreatedAt: at, UpdatedAt: at}
	})
	listBench(b, "ListShoppingItems50", shopping, "SHOPPING#", false, func(e *env) (int, bool, error) {
		p, err := e.s.ListShoppingItems(ctx, userID, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	qty := "3丁"
	compare(b, "UpdateShoppingItem", handlers{"UpdateItem": attrsOf(shopping(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error {
				_, err := e.s.UpdateShoppingItem(ctx, userID, iid, kondate.ShoppingPatch{Quantity: &qty})
				return err
			},
			func(int) error {
				_, err := hwUpdate[shoppingRow](e.c, userPK, "SHOPPING#"+iid, true, "SET #u = :u, #q = :q",
					names("#u", "updatedAt", "#q", "quantity"),
					map[string]types.AttributeValue{":u": s(stamp(time.Now())), ":q": s(qty)})
				return err
			},
			func(int) error {
				var r shoppingRow
				return e.t.Update("PK", userPK).Range("SK", "SHOPPING#"+iid).Set("updatedAt", stamp(time.Now())).
					Set("quantity", qty).If("attribute_exists('PK')").Value(ctx, &r)
			}
	})
	compare(b, "CompleteShoppingItem", handlers{"UpdateItem": attrsOf(shopping(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.CompleteShoppingItem(ctx, userID, iid); return err },
			func(int) error {
				// As kondate's: the first completion wins, and a NULL
				// completedAt counts as none (see unsetOnce).
				now := stamp(time.Now())
				_, err := hwUpdateIf[shoppingRow](e.c, userPK, "SHOPPING#"+iid, unsetOnce, "SET #u = :u, #c = :c, #d = :d",
					names("#pk", "PK", "#u", "updatedAt", "#c", "checked", "#d", "completedAt"),
					map[string]types.AttributeValue{":u": s(now), ":c": &types.AttributeValueMemberBOOL{Value: true}, ":d": s(now), ":null": null})
				return err
			},
			func(int) error {
				var r shoppingRow
				now := stamp(time.Now())
				return e.t.Update("PK", userPK).Range("SK", "SHOPPING#"+iid).Set("updatedAt", now).
					Set("checked", true).SetIfNotExists("completedAt", now).If("attribute_exists('PK')").Value(ctx, &r)
			}
	})
}

func benchFridge(b *testing.B) {
	fid := id(1)
	createBench(b, "AddFridgeItem", func(e *env) error {
		_, err := e.s.AddFridgeItem(ctx, userID, kondate.NewFridgeItem{Name: "卵", Quantity: "6個", ExpiryDate: "2026-02-12"})
		return err
	}, func(ids ddbkit.IDGenerator, now time.Time) any {
		at := stamp(now)
		return fridgeRow{PK: userPK, SK: "FRIDGE#" + ids(), Name: "卵", Quantity: "6個", ExpiryDate: "2026-02-12", CreatedAt: at, UpdatedAt: at}
	})
	listBench(b, "ListFridgeItems50", fridge, "FRIDGE#", false, func(e *env) (int, bool, error) {
		p, err := e.s.ListFridgeItems(ctx, userID, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	listBench(b, "ListDeletedFridgeItems50", deletedFridge, "FRIDGE_DELETED#", true, func(e *env) (int, bool, error) {
		p, err := e.s.ListDeletedFridgeItems(ctx, userID, ddbkit.PageOptions{Limit: 50})
		return len(p.Items), p.Next != "", err
	})
	qty, exp := "4個", "2026-02-14"
	compare(b, "UpdateFridgeItem", handlers{"UpdateItem": attrsOf(fridge(1))}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error {
				_, err := e.s.UpdateFridgeItem(ctx, userID, fid, kondate.FridgePatch{Quantity: &qty, ExpiryDate: &exp})
				return err
			},
			func(int) error {
				_, err := hwUpdate[fridgeRow](e.c, userPK, "FRIDGE#"+fid, true, "SET #u = :u, #q = :q, #e = :e",
					names("#u", "updatedAt", "#q", "quantity", "#e", "expiryDate"),
					map[string]types.AttributeValue{":u": s(stamp(time.Now())), ":q": s(qty), ":e": s(exp)})
				return err
			},
			func(int) error {
				var r fridgeRow
				return e.t.Update("PK", userPK).Range("SK", "FRIDGE#"+fid).Set("updatedAt", stamp(time.Now())).
					Set("quantity", qty).Set("expiryDate", exp).If("attribute_exists('PK')").Value(ctx, &r)
			}
	})

	// DeleteFridgeItem: read the item, then move it to the archive in one
	// transaction (delete as read, put if free).
	liveAV := item(fridge(1))
	liveScalars := []string{"PK", "SK", "createdAt", "expiryDate", "name", "quantity", "updatedAt"}
	compare(b, "DeleteFridgeItem", handlers{"GetItem": getOf(fridge(1)), "TransactWriteItems": ok}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error { _, err := e.s.DeleteFridgeItem(ctx, userID, fid); return err },
			func(int) error {
				out, err := e.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(userPK, "FRIDGE#"+fid), ConsistentRead: aws.Bool(true)})
				if err != nil {
					return err
				}
				var f fridgeRow
				if err := attributevalue.UnmarshalMap(out.Item, &f); err != nil {
					return err
				}
				now := time.Now()
				f.SK, f.DeletedAt, f.TTL = "FRIDGE_DELETED#"+stamp(now)+"#"+fid, stamp(now), now.Add(30*24*time.Hour).Unix()
				archived, err := attributevalue.MarshalMap(f)
				if err != nil {
					return err
				}
				cond, n, v := unchanged(out.Item, liveScalars...)
				return hwTx(e.c,
					types.TransactWriteItem{Delete: &types.Delete{TableName: tableName, Key: key(userPK, "FRIDGE#"+fid),
						ConditionExpression: cond, ExpressionAttributeNames: n, ExpressionAttributeValues: v}},
					types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: archived,
						ConditionExpression: notExists, ExpressionAttributeNames: pkNames}})
			},
			func(int) error {
				var f fridgeRow
				if err := e.t.Get("PK", userPK).Range("SK", dynamo.Equal, "FRIDGE#"+fid).Consistent(true).One(ctx, &f); err != nil {
					return err
				}
				now := time.Now()
				f.SK, f.DeletedAt, f.TTL = "FRIDGE_DELETED#"+stamp(now)+"#"+fid, stamp(now), now.Add(30*24*time.Hour).Unix()
				cond, args := guUnchanged(liveAV, liveScalars...)
				return e.db.WriteTx().
					Delete(e.t.Delete("PK", userPK).Range("SK", "FRIDGE#"+fid).If(cond, args...)).
					Put(e.t.Put(f).If("attribute_not_exists('PK')")).
					Idempotent(true).Run(ctx)
			}
	})
	archivedAV := item(deletedFridge(1))
	archivedSK := deletedFridge(1).SK
	archivedScalars := []string{"PK", "SK", "createdAt", "deletedAt", "expiryDate", "name", "quantity", "ttl", "updatedAt"}
	compare(b, "RestoreFridgeItem", handlers{"GetItem": getOf(deletedFridge(1)), "TransactWriteItems": ok}, func(e *env) (d, hw, g func(int) error) {
		return func(int) error {
				_, err := e.s.RestoreFridgeItem(ctx, userID, archivedSK[len("FRIDGE_DELETED#"):])
				return err
			},
			func(int) error {
				out, err := e.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(userPK, archivedSK), ConsistentRead: aws.Bool(true)})
				if err != nil {
					return err
				}
				var f fridgeRow
				if err := attributevalue.UnmarshalMap(out.Item, &f); err != nil {
					return err
				}
				f.SK, f.DeletedAt, f.TTL = "FRIDGE#"+fid, "", 0
				live, err := attributevalue.MarshalMap(f)
				if err != nil {
					return err
				}
				cond, n, v := unchanged(out.Item, archivedScalars...)
				return hwTx(e.c,
					types.TransactWriteItem{Delete: &types.Delete{TableName: tableName, Key: key(userPK, archivedSK),
						ConditionExpression: cond, ExpressionAttributeNames: n, ExpressionAttributeValues: v}},
					types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: live,
						ConditionExpression: notExists, ExpressionAttributeNames: pkNames}})
			},
			func(int) error {
				var f fridgeRow
				if err := e.t.Get("PK", userPK).Range("SK", dynamo.Equal, archivedSK).Consistent(true).One(ctx, &f); err != nil {
					return err
				}
				f.SK, f.DeletedAt, f.TTL = "FRIDGE#"+fid, "", 0
				cond, args := guUnchanged(archivedAV, archivedScalars...)
				return e.db.WriteTx().
					Delete(e.t.Delete("PK", userPK).Range("SK", archivedSK).If(cond, args...)).
					Put(e.t.Put(f).If("attribute_not_exists('PK')")).
					Idempotent(true).Run(ctx)
			}
	})
}
