package kondate_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/difftest"
	"github.com/ddbkit/ddbkit/kondate"
)

// TestModel runs random operations, valid and invalid, on a memory store
// and a DynamoDB store side by side, and requires the same results, and at
// checkpoints the same stored items (package difftest).
func TestModel(t *testing.T) {
	difftest.Check(t, modelConfig("newModelPair(t)", newModelPair))
}

// TestModelFaults is TestModel with throttling, transaction conflicts, 5xx
// and lost responses injected on the DynamoDB side, which the store's
// retries must hide.
func TestModelFaults(t *testing.T) {
	difftest.Check(t, modelConfig("newFaultPair(t)", newFaultPair))
}

// TestModelSharded is TestModel with the catalog over three shards
// (Options.CatalogShards), whose newest and popular pages merge them.
func TestModelSharded(t *testing.T) {
	difftest.Check(t, modelConfig("newShardedPair(t)", newShardedPair))
}

// TestModelFaultsSharded is TestModelFaults with the sharded catalog.
func TestModelFaultsSharded(t *testing.T) {
	difftest.Check(t, modelConfig("newShardedFaultPair(t)", newShardedFaultPair))
}

// newShardedPair and newShardedFaultPair are newModelPair and
// newFaultPair with three catalog shards: few, so that entries share
// shards and pages end inside them.
func newShardedPair(t *testing.T) *difftest.Pair[kondate.Store] {
	return modelPair(t, false, func(o *kondate.Options) { o.CatalogShards = 3 })
}

func newShardedFaultPair(t *testing.T) *difftest.Pair[kondate.Store] {
	return modelPair(t, true, func(o *kondate.Options) { o.CatalogShards = 3 })
}

// newModelPair returns the stores a model run compares; the printed
// regression tests call it too.
func newModelPair(t *testing.T) *difftest.Pair[kondate.Store] { return modelPair(t, false) }

func newFaultPair(t *testing.T) *difftest.Pair[kondate.Store] { return modelPair(t, true) }

func modelPair(t *testing.T, faults bool, more ...func(*kondate.Options)) *difftest.Pair[kondate.Store] {
	c := ddbtest.Client(t)
	table := ddbtest.NewTable(t, c, kondate.CreateTableInput("kondate", kondate.AllIndexes))
	clock := difftest.NewClock(start)
	opts := func(o *kondate.Options) {
		o.TableName, o.Clock = table, clock.Now
		kondate.AllIndexes(o)
		// A generator per store, same seeds.
		o.NewID = ddbkit.SeededULIDs(7, clock.Now)
		o.NewShareID = ddbkit.SeededULIDs(11, clock.Now)
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: 20, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
		for _, fn := range more {
			fn(o)
		}
	}
	mem := kondate.NewMemoryStore(opts)
	p := &difftest.Pair[kondate.Store]{Mem: mem, Export: mem.Export, DB: c, Tables: []string{table}, Clock: clock}
	var client ddbkit.Client = c
	if faults {
		fc := ddbtest.NewFaultClient(c)
		p.Faults = difftest.NewFaults(fc, ddbtest.Throttle, ddbtest.TxConflict, ddbtest.InternalError, ddbtest.LoseResponse)
		client = fc
	}
	p.Dyn = kondate.NewDynamoStore(client, opts)
	return p
}

// checkNonce makes each check's idempotency keys its own: DynamoDB Local
// remembers tokens across tables.
var checkNonce atomic.Int64

// A ref is something the check made: its user and ID (for a deleted
// fridge item and a notification, its Ref).
type ref struct {
	user, id string
}

type entryRef struct {
	kind kondate.CatalogKind
	id   string
}

func modelConfig(src string, pair func(*testing.T) *difftest.Pair[kondate.Store]) difftest.Config[kondate.Store] {
	return difftest.Config[kondate.Store]{Domain: "kondate", New: pair, Source: src, Actions: modelActions}
}

// modelActions returns the actions of one check. Its model is the users and
// IDs the check has used, drawn again to make operations collide.
func modelActions(r *difftest.Run[kondate.Store]) map[string]func(*rapid.T) {
	var recipes, sets, shopping, fridge, deleted, categories, notices, methods []ref
	var entries []entryRef
	var shares, tokens []string
	nonce := fmt.Sprintf("k%d-%d-", time.Now().UnixNano(), checkNonce.Add(1))

	badID := difftest.Text(kondate.MaxIDLen)
	user := func(t *rapid.T) string {
		return difftest.Pick(t, "user", []string{"u_01", "u_02", "u_01"}, badID)
	}
	// item draws a user and the ID of an item of pool: mostly one of the
	// check's, as it was made, sometimes another user's, or anything.
	item := func(t *rapid.T, label string, pool []ref) ref {
		if len(pool) > 0 && rapid.IntRange(0, 99).Draw(t, label+" own?") < 75 {
			return rapid.SampledFrom(pool).Draw(t, label)
		}
		var ids []string
		for _, x := range pool {
			ids = append(ids, x.id)
		}
		return ref{user: user(t), id: difftest.Pick(t, label+" id", ids, badID)}
	}
	add := func(pool *[]ref, x ref) { *pool = append(*pool, x) }
	title := func(t *rapid.T) string { return difftest.Text(kondate.MaxTitleLen).Draw(t, "title") }
	name := func(t *rapid.T) string { return difftest.Text(kondate.MaxNameLen).Draw(t, "name") }
	text := func(t *rapid.T, label string, max int) string { return difftest.Text(max).Draw(t, label) }
	tags := func(t *rapid.T) []string {
		n := rapid.SampledFrom([]int{0, 0, 1, 2, kondate.MaxListLen + 1}).Draw(t, "tags")
		if n == 0 && rapid.Bool().Draw(t, "nil tags?") {
			return nil
		}
		out := make([]string, n)
		for i := range out {
			out[i] = difftest.Pick(t, "tag", []string{"中華", "x", "平日"}, difftest.Text(kondate.MaxTagLen))
		}
		return out
	}
	setItems := func(t *rapid.T) []kondate.SetItem {
		n := rapid.SampledFrom([]int{0, 1, 2, kondate.MaxListLen + 1}).Draw(t, "set items")
		if n == 0 && rapid.Bool().Draw(t, "nil items?") {
			return nil
		}
		var ids []string
		for _, x := range recipes {
			ids = append(ids, x.id)
		}
		out := make([]kondate.SetItem, n)
		for i := range out {
			out[i] = kondate.SetItem{RecipeID: difftest.Pick(t, "recipe id", ids, rapid.SampledFrom([]string{"", "r#1", "r_1"})), Title: title(t)}
		}
		return out
	}
	kind := func(t *rapid.T) kondate.CatalogKind {
		return rapid.SampledFrom([]kondate.CatalogKind{kondate.KindRecipe, kondate.KindRecipe, kondate.KindSet, "recipe"}).Draw(t, "kind")
	}
	// entry draws a catalog kind and ID: mostly a published entry, or a
	// recipe or set of the check, or anything.
	entry := func(t *rapid.T) (kondate.CatalogKind, string) {
		switch n := rapid.IntRange(0, 99).Draw(t, "entry"); {
		case n < 50 && len(entries) > 0:
			e := rapid.SampledFrom(entries).Draw(t, "published")
			return e.kind, e.id
		case n < 70 && len(recipes) > 0:
			return kondate.KindRecipe, rapid.SampledFrom(recipes).Draw(t, "recipe").id
		case n < 85 && len(sets) > 0:
			return kondate.KindSet, rapid.SampledFrom(sets).Draw(t, "set").id
		}
		return kind(t), badID.Draw(t, "entry id")
	}
	// owned draws a user's recipe or set to publish: mostly its owner's.
	owned := func(t *rapid.T) (string, kondate.CatalogKind, string) {
		k := kind(t)
		pool := recipes
		if k == kondate.KindSet {
			pool = sets
		}
		x := item(t, "owned", pool)
		return x.user, k, x.id
	}
	// keyed draws the context of a transactional write: sometimes under
	// an idempotency key, from a small set so that keys repeat.
	keyed := func(t *rapid.T) context.Context {
		ctx := r.Ctx(t)
		if n := rapid.IntRange(0, 9).Draw(t, "key"); n >= 7 {
			return ddbkit.WithIdempotencyKey(ctx, fmt.Sprint(nonce, n-7))
		}
		return ctx
	}
	catalogOpts := func(t *rapid.T) kondate.CatalogQuery {
		o := kondate.CatalogQuery{PageOptions: r.PageOptions(t)}
		if rapid.IntRange(0, 3).Draw(t, "tag?") == 0 {
			o.Tag = difftest.Pick(t, "tag", []string{"中華", "x"}, difftest.Text(kondate.MaxTagLen))
		}
		return o
	}
	slot := func(t *rapid.T) kondate.PlanSlot {
		return rapid.SampledFrom([]kondate.PlanSlot{kondate.PlanCurrent, kondate.PlanNext, kondate.PlanNext, "LATER"}).Draw(t, "slot")
	}
	scope := func(t *rapid.T) kondate.CategoryScope {
		return rapid.SampledFrom([]kondate.CategoryScope{kondate.ScopeBook, kondate.ScopeCatalog, "Book"}).Draw(t, "scope")
	}
	date := func(t *rapid.T, label string) string {
		return rapid.SampledFrom([]string{"2026-02-09", "2026-02-09", "2026-02-10", "2026-03-01", "", "2026-02-30", "20260209", "2026-02"}).Draw(t, label)
	}
	platform := func(t *rapid.T) kondate.Platform {
		return rapid.SampledFrom([]kondate.Platform{kondate.PlatformIOS, kondate.PlatformWeb, kondate.PlatformAndroid, "windows"}).Draw(t, "platform")
	}
	token := func(t *rapid.T) string {
		return difftest.Pick(t, "token", tokens, difftest.Text(kondate.MaxPushTokenLen))
	}
	opt := func(t *rapid.T, label string) bool { return rapid.IntRange(0, 1).Draw(t, label) == 1 }

	return map[string]func(*rapid.T){
		"GetProfile": func(t *rapid.T) {
			difftest.Call[kondate.Profile](r, "GetProfile", r.Ctx(t), user(t))
		},
		"UpdateProfile": func(t *rapid.T) {
			var p kondate.ProfilePatch
			if opt(t, "name?") {
				p.DisplayName = difftest.P(name(t))
			}
			if opt(t, "avatar?") {
				p.AvatarURL = difftest.P(text(t, "avatar", kondate.MaxURLLen))
			}
			difftest.Call[kondate.Profile](r, "UpdateProfile", r.Ctx(t), user(t), p)
		},
		"CreateRecipe": func(t *rapid.T) {
			in := kondate.NewRecipe{Title: title(t), Tags: tags(t)}
			if opt(t, "ingredients?") {
				in.Ingredients = []kondate.Ingredient{{Name: name(t), Amount: text(t, "amount", kondate.MaxNameLen)}}
			}
			if opt(t, "steps?") {
				in.Steps = []string{text(t, "step", kondate.MaxTextLen)}
			}
			if opt(t, "origin?") {
				in.Origin = text(t, "origin", kondate.MaxURLLen)
			}
			u := user(t)
			if x, err := difftest.Call[kondate.Recipe](r, "CreateRecipe", r.Ctx(t), u, in); err == nil {
				add(&recipes, ref{user: x.UserID, id: x.ID})
			}
		},
		"GetRecipe": func(t *rapid.T) {
			x := item(t, "recipe", recipes)
			difftest.Call[kondate.Recipe](r, "GetRecipe", r.Ctx(t), x.user, x.id)
		},
		"FindRecipe": func(t *rapid.T) {
			difftest.Call[kondate.Recipe](r, "FindRecipe", r.Ctx(t), item(t, "recipe", recipes).id)
		},
		"ListRecipes": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.Recipe]](r, "ListRecipes", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"UpdateRecipe": func(t *rapid.T) {
			x := item(t, "recipe", recipes)
			var p kondate.RecipePatch
			if opt(t, "title?") {
				p.Title = difftest.P(title(t))
			}
			if opt(t, "tags?") {
				p.Tags = difftest.P(tags(t))
			}
			if opt(t, "steps?") {
				p.Steps = difftest.P([]string{})
			}
			difftest.Call[kondate.Recipe](r, "UpdateRecipe", r.Ctx(t), x.user, x.id, p)
		},
		"DeleteRecipe": func(t *rapid.T) {
			x := item(t, "recipe", recipes)
			difftest.Exec(r, "DeleteRecipe", r.Ctx(t), x.user, x.id)
		},
		"CreateSet": func(t *rapid.T) {
			in := kondate.NewSet{Title: title(t), Items: setItems(t), Tags: tags(t)}
			if x, err := difftest.Call[kondate.Set](r, "CreateSet", r.Ctx(t), user(t), in); err == nil {
				add(&sets, ref{user: x.UserID, id: x.ID})
			}
		},
		"GetSet": func(t *rapid.T) {
			x := item(t, "set", sets)
			difftest.Call[kondate.Set](r, "GetSet", r.Ctx(t), x.user, x.id)
		},
		"FindSet": func(t *rapid.T) {
			difftest.Call[kondate.Set](r, "FindSet", r.Ctx(t), item(t, "set", sets).id)
		},
		"ListSets": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.Set]](r, "ListSets", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"UpdateSet": func(t *rapid.T) {
			x := item(t, "set", sets)
			var p kondate.SetPatch
			if opt(t, "title?") {
				p.Title = difftest.P(title(t))
			}
			if opt(t, "items?") {
				p.Items = difftest.P(setItems(t))
			}
			difftest.Call[kondate.Set](r, "UpdateSet", r.Ctx(t), x.user, x.id, p)
		},
		"DeleteSet": func(t *rapid.T) {
			x := item(t, "set", sets)
			difftest.Exec(r, "DeleteSet", r.Ctx(t), x.user, x.id)
		},
		"GetPlan": func(t *rapid.T) {
			difftest.Call[kondate.Plan](r, "GetPlan", r.Ctx(t), user(t), slot(t))
		},
		"UpdatePlan": func(t *rapid.T) {
			difftest.Call[kondate.Plan](r, "UpdatePlan", r.Ctx(t), user(t), slot(t), setItems(t))
		},
		"ApplySet": func(t *rapid.T) {
			x := item(t, "set", sets)
			difftest.Call[kondate.Plan](r, "ApplySet", keyed(t), x.user, slot(t), x.id)
		},
		"PromoteNextPlan": func(t *rapid.T) {
			difftest.Call[kondate.Plan](r, "PromoteNextPlan", keyed(t), user(t))
		},
		"AddShoppingItem": func(t *rapid.T) {
			in := kondate.NewShoppingItem{Name: name(t), Quantity: text(t, "quantity", kondate.MaxNameLen)}
			if x, err := difftest.Call[kondate.ShoppingItem](r, "AddShoppingItem", r.Ctx(t), user(t), in); err == nil {
				add(&shopping, ref{user: x.UserID, id: x.ID})
			}
		},
		"ListShoppingItems": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.ShoppingItem]](r, "ListShoppingItems", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"UpdateShoppingItem": func(t *rapid.T) {
			x := item(t, "shopping", shopping)
			var p kondate.ShoppingPatch
			if opt(t, "name?") {
				p.Name = difftest.P(name(t))
			}
			if opt(t, "quantity?") {
				p.Quantity = difftest.P(text(t, "quantity", kondate.MaxNameLen))
			}
			difftest.Call[kondate.ShoppingItem](r, "UpdateShoppingItem", r.Ctx(t), x.user, x.id, p)
		},
		"CompleteShoppingItem": func(t *rapid.T) {
			x := item(t, "shopping", shopping)
			difftest.Call[kondate.ShoppingItem](r, "CompleteShoppingItem", r.Ctx(t), x.user, x.id)
		},
		"AddFridgeItem": func(t *rapid.T) {
			in := kondate.NewFridgeItem{Name: name(t), ExpiryDate: date(t, "expiry")}
			if x, err := difftest.Call[kondate.FridgeItem](r, "AddFridgeItem", r.Ctx(t), user(t), in); err == nil {
				add(&fridge, ref{user: x.UserID, id: x.ID})
			}
		},
		"ListFridgeItems": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.FridgeItem]](r, "ListFridgeItems", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"UpdateFridgeItem": func(t *rapid.T) {
			x := item(t, "fridge", fridge)
			var p kondate.FridgePatch
			if opt(t, "name?") {
				p.Name = difftest.P(name(t))
			}
			if opt(t, "expiry?") {
				p.ExpiryDate = difftest.P(date(t, "expiry"))
			}
			difftest.Call[kondate.FridgeItem](r, "UpdateFridgeItem", r.Ctx(t), x.user, x.id, p)
		},
		"DeleteFridgeItem": func(t *rapid.T) {
			x := item(t, "fridge", fridge)
			if d, err := difftest.Call[kondate.DeletedFridgeItem](r, "DeleteFridgeItem", keyed(t), x.user, x.id); err == nil {
				add(&deleted, ref{user: d.UserID, id: d.Ref})
			}
		},
		"RestoreFridgeItem": func(t *rapid.T) {
			x := item(t, "deleted", deleted)
			difftest.Call[kondate.FridgeItem](r, "RestoreFridgeItem", keyed(t), x.user, x.id)
		},
		"ListDeletedFridgeItems": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.DeletedFridgeItem]](r, "ListDeletedFridgeItems", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"AddCategory": func(t *rapid.T) {
			sc := scope(t)
			if x, err := difftest.Call[kondate.Category](r, "AddCategory", r.Ctx(t), user(t), sc, kondate.NewCategory{Name: name(t)}); err == nil {
				add(&categories, ref{user: x.UserID, id: string(x.Scope) + "#" + x.ID})
			}
		},
		"ListCategories": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.Category]](r, "ListCategories", r.Ctx(t), user(t), scope(t), r.PageOptions(t))
		},
		"UpdateCategory": func(t *rapid.T) {
			x := item(t, "category", categories)
			sc, id := categoryRef(t, x, scope)
			difftest.Call[kondate.Category](r, "UpdateCategory", r.Ctx(t), x.user, sc, id, kondate.CategoryPatch{Name: difftest.P(name(t))})
		},
		"DeleteCategory": func(t *rapid.T) {
			x := item(t, "category", categories)
			sc, id := categoryRef(t, x, scope)
			difftest.Exec(r, "DeleteCategory", r.Ctx(t), x.user, sc, id)
		},
		"AddCookLog": func(t *rapid.T) {
			in := kondate.NewCookLog{Date: date(t, "date"), Title: title(t), Note: text(t, "note", kondate.MaxTextLen)}
			if opt(t, "recipe?") {
				in.RecipeID = item(t, "recipe", recipes).id
			}
			difftest.Call[kondate.CookLog](r, "AddCookLog", r.Ctx(t), user(t), in)
		},
		"ListCookLogsByMonth": func(t *rapid.T) {
			month := rapid.SampledFrom([]string{"2026-02", "2026-02", "2026-03", "2026-2", ""}).Draw(t, "month")
			difftest.Call[ddbkit.Page[kondate.CookLog]](r, "ListCookLogsByMonth", r.Ctx(t), user(t), month, r.PageOptions(t))
		},
		"ListCookLogsByDay": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.CookLog]](r, "ListCookLogsByDay", r.Ctx(t), user(t), date(t, "date"), r.PageOptions(t))
		},
		"AddPaymentMethod": func(t *rapid.T) {
			in := kondate.NewPaymentMethod{Provider: difftest.Pick(t, "provider", []string{"stripe"}, badID),
				ProviderRef: rapid.SampledFrom([]string{"pm_1", "pm_2", "4242424242424242", ""}).Draw(t, "ref"),
				Brand:       "visa", Last4: rapid.SampledFrom([]string{"4242", "1234", "42", "abcd"}).Draw(t, "last4")}
			if x, err := difftest.Call[kondate.PaymentMethod](r, "AddPaymentMethod", r.Ctx(t), user(t), in); err == nil {
				add(&methods, ref{user: x.UserID, id: x.ID})
			}
		},
		"ListPaymentMethods": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.PaymentMethod]](r, "ListPaymentMethods", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"RemovePaymentMethod": func(t *rapid.T) {
			x := item(t, "method", methods)
			difftest.Exec(r, "RemovePaymentMethod", r.Ctx(t), x.user, x.id)
		},
		"RecordPurchase": func(t *rapid.T) {
			// Few transaction IDs and times, so that repeats (the same
			// purchase, or another under a recorded ID) are drawn.
			in := kondate.NewPurchase{TransactionID: difftest.Pick(t, "transaction", []string{"pi_1", "pi_2", "pi_3"}, badID),
				PurchasedAt: rapid.SampledFrom([]time.Time{start, start.Add(time.Hour), {}}).Draw(t, "purchased at"),
				ProductID:   difftest.Pick(t, "product", []string{"premium"}, badID),
				Amount:      rapid.SampledFrom([]int64{480, 0, -1}).Draw(t, "amount"),
				Currency:    rapid.SampledFrom([]string{"JPY", "USD", "jpy", ""}).Draw(t, "currency")}
			if opt(t, "method?") {
				in.PaymentMethodID = item(t, "method", methods).id
			}
			difftest.Call[kondate.Purchase](r, "RecordPurchase", r.Ctx(t), user(t), in)
		},
		"ListPurchases": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.Purchase]](r, "ListPurchases", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"GetSubscription": func(t *rapid.T) {
			difftest.Call[kondate.Subscription](r, "GetSubscription", r.Ctx(t), user(t))
		},
		"SetSubscription": func(t *rapid.T) {
			sub := kondate.Subscription{Plan: difftest.Pick(t, "plan", []string{"premium"}, badID),
				Status: rapid.SampledFrom([]string{"active", "canceled", ""}).Draw(t, "status")}
			if opt(t, "end?") {
				sub.CurrentPeriodEnd = rapid.SampledFrom([]time.Time{start.Add(30 * 24 * time.Hour),
					time.Date(2026, 3, 9, 19, 0, 0, 123456789, time.FixedZone("JST", 9*3600))}).Draw(t, "end")
			}
			difftest.Call[kondate.Subscription](r, "SetSubscription", r.Ctx(t), user(t), sub)
		},
		"AddNotification": func(t *rapid.T) {
			in := kondate.NewNotification{Kind: difftest.Pick(t, "kind", []string{"info"}, badID), Title: title(t),
				Body: text(t, "body", kondate.MaxTextLen)}
			if x, err := difftest.Call[kondate.Notification](r, "AddNotification", r.Ctx(t), user(t), in); err == nil {
				add(&notices, ref{user: x.UserID, id: x.Ref})
			}
		},
		"ListNotifications": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.Notification]](r, "ListNotifications", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"MarkNotificationRead": func(t *rapid.T) {
			x := item(t, "notice", notices)
			difftest.Call[kondate.Notification](r, "MarkNotificationRead", r.Ctx(t), x.user, x.id)
		},
		"GetNotificationSettings": func(t *rapid.T) {
			difftest.Call[kondate.NotificationSettings](r, "GetNotificationSettings", r.Ctx(t), user(t))
		},
		"SetNotificationSettings": func(t *rapid.T) {
			in := kondate.NotificationSettings{PushEnabled: opt(t, "push"), EmailEnabled: opt(t, "email")}
			difftest.Call[kondate.NotificationSettings](r, "SetNotificationSettings", r.Ctx(t), user(t), in)
		},
		"RegisterPushToken": func(t *rapid.T) {
			tok := token(t)
			if _, err := difftest.Call[kondate.PushToken](r, "RegisterPushToken", r.Ctx(t), user(t), platform(t), tok); err == nil {
				tokens = append(tokens, tok)
			}
		},
		"UnregisterPushToken": func(t *rapid.T) {
			difftest.Exec(r, "UnregisterPushToken", r.Ctx(t), user(t), platform(t), token(t))
		},
		"ListPushTokens": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.PushToken]](r, "ListPushTokens", r.Ctx(t), user(t), r.PageOptions(t))
		},
		"Publish": func(t *rapid.T) {
			u, k, id := owned(t)
			if e, err := difftest.Call[kondate.CatalogEntry](r, "Publish", keyed(t), u, k, id); err == nil {
				entries = append(entries, entryRef{e.Kind, e.ID})
			}
		},
		"Unpublish": func(t *rapid.T) {
			u, k, id := owned(t)
			difftest.Exec(r, "Unpublish", keyed(t), u, k, id)
		},
		"GetCatalogEntry": func(t *rapid.T) {
			k, id := entry(t)
			difftest.Call[kondate.CatalogEntry](r, "GetCatalogEntry", r.Ctx(t), k, id)
		},
		"ListCatalogNewest": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.CatalogEntry]](r, "ListCatalogNewest", r.Ctx(t), kind(t), catalogOpts(t))
		},
		"ListCatalogPopular": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.CatalogEntry]](r, "ListCatalogPopular", r.Ctx(t), kind(t), catalogOpts(t))
		},
		"ListCatalogByCreator": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.CatalogEntry]](r, "ListCatalogByCreator", r.Ctx(t), user(t), kind(t), catalogOpts(t))
		},
		"SaveCatalogEntry": func(t *rapid.T) {
			u := user(t)
			k, id := entry(t)
			difftest.Call[kondate.SavedEntry](r, "SaveCatalogEntry", keyed(t), u, k, id)
		},
		"UnsaveCatalogEntry": func(t *rapid.T) {
			u := user(t)
			k, id := entry(t)
			difftest.Exec(r, "UnsaveCatalogEntry", keyed(t), u, k, id)
		},
		"ListSaved": func(t *rapid.T) {
			difftest.Call[ddbkit.Page[kondate.SavedEntry]](r, "ListSaved", r.Ctx(t), user(t), kind(t), r.PageOptions(t))
		},
		"RecalculatePopularity": func(t *rapid.T) {
			difftest.Call[kondate.PopularityReport](r, "RecalculatePopularity", keyed(t), kind(t))
		},
		"CreateShareLink": func(t *rapid.T) {
			k, id := entry(t)
			in := kondate.NewShareLink{TargetType: k, TargetID: id, AuthorName: name(t)}
			if opt(t, "source?") {
				in.SourceURL = text(t, "source", kondate.MaxURLLen)
			}
			if l, err := difftest.Call[kondate.ShareLink](r, "CreateShareLink", r.Ctx(t), user(t), in); err == nil {
				shares = append(shares, l.ID)
			}
		},
		"GetShareLink": func(t *rapid.T) {
			difftest.Call[kondate.ShareLink](r, "GetShareLink", r.Ctx(t), difftest.Pick(t, "share", shares, badID))
		},
		"ResolveShareLink": func(t *rapid.T) {
			difftest.Call[kondate.ShareTarget](r, "ResolveShareLink", r.Ctx(t), difftest.Pick(t, "share", shares, badID))
		},
		"DeleteShareLink": func(t *rapid.T) {
			difftest.Exec(r, "DeleteShareLink", r.Ctx(t), user(t), difftest.Pick(t, "share", shares, badID))
		},
	}
}

// categoryRef splits a category ref's "<scope>#<id>", or draws a scope for
// an ID of no category.
func categoryRef(t *rapid.T, x ref, scope func(*rapid.T) kondate.CategoryScope) (kondate.CategoryScope, string) {
	if sc, id, ok := strings.Cut(x.id, "#"); ok && (sc == string(kondate.ScopeBook) || sc == string(kondate.ScopeCatalog)) {
		return kondate.CategoryScope(sc), id
	}
	return scope(t), x.id
}

// Divergences the model runs found, as they printed them, shrunk.

// A cancelled context: DynamoStore let the SDK report it ("operation error
// DynamoDB: GetItem, context canceled") where MemoryStore reported the
// context's error; both now check the context before each call.
func TestModelRegressionCanceled(t *testing.T) {
	p := newModelPair(t)
	difftest.Same(t, p, func(s kondate.Store) (kondate.CatalogEntry, error) {
		return s.Publish(difftest.Canceled(), "u_01", kondate.CatalogKind("RECIPE"), "r_01")
	})
}

// A bad cursor under a cancelled context: MemoryStore refused the cursor
// (ErrInvalidCursor), DynamoStore, checking the context first since the
// previous fix, reported the context; both check the cursor first now.
func TestModelRegressionCanceledBadCursor(t *testing.T) {
	p := newModelPair(t)
	difftest.Same(t, p, func(s kondate.Store) (ddbkit.Page[kondate.CatalogEntry], error) {
		return s.ListCatalogNewest(difftest.Canceled(), kondate.CatalogKind("SET"), kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 4, Cursor: "not a cursor"}})
	})
}

// A 5xx on the DeleteItem of a set that does not exist: DynamoStore took
// the repeat's failed condition for the delete of its own earlier attempt,
// and succeeded, where MemoryStore said not found; it now reads the item
// first, and takes a missing item as its own delete only if it was there.
func TestModelRegressionDeleteAfter5xx(t *testing.T) {
	ctx := t.Context()
	p := newFaultPair(t)
	p.Faults.Next("InternalError")
	difftest.SameErr(t, p, func(s kondate.Store) error { return s.DeleteSet(ctx, "u_01", "a") })
}
