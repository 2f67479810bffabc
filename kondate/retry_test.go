package kondate_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
)

// fast is a short retry policy, so that faults without end give up quickly.
func fast(o *kondate.Options) {
	o.Retry = ddbkit.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Microsecond, MaxDelay: time.Millisecond}
}

func faulty(t *testing.T, opts ...func(*kondate.Options)) (*kondate.DynamoStore, *ddbtest.FaultClient, *dynamodb.Client, string) {
	t.Helper()
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc },
		append([]func(*kondate.Options){deterministic, kondate.AllIndexes}, opts...)...)
	return s, fc, c, table
}

// fixture is one item of each kind that operations address.
type fixture struct {
	recipe  kondate.Recipe
	set     kondate.Set
	shop    kondate.ShoppingItem
	fridge  kondate.FridgeItem
	deleted kondate.DeletedFridgeItem
	cat     kondate.Category
	method  kondate.PaymentMethod
	notice  kondate.Notification
	entry   kondate.CatalogEntry // published, saved by u
	unpub   kondate.Recipe       // not published
	share   kondate.ShareLink    // to entry
}

const u = "u_01"

func newFixture(t *testing.T, s kondate.Store) fixture {
	t.Helper()
	ctx := t.Context()
	var f fixture
	var err error
	check := func() {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	f.recipe, err = s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "r"})
	check()
	f.set, err = s.CreateSet(ctx, u, kondate.NewSet{Title: "s", Items: []kondate.SetItem{{Title: "x"}}})
	check()
	_, err = s.ApplySet(ctx, u, kondate.PlanNext, f.set.ID)
	check()
	f.shop, err = s.AddShoppingItem(ctx, u, kondate.NewShoppingItem{Name: "x"})
	check()
	f.fridge, err = s.AddFridgeItem(ctx, u, kondate.NewFridgeItem{Name: "x"})
	check()
	gone, err := s.AddFridgeItem(ctx, u, kondate.NewFridgeItem{Name: "y"})
	check()
	f.deleted, err = s.DeleteFridgeItem(ctx, u, gone.ID)
	check()
	f.cat, err = s.AddCategory(ctx, u, kondate.ScopeBook, kondate.NewCategory{Name: "x"})
	check()
	f.method, err = s.AddPaymentMethod(ctx, u, kondate.NewPaymentMethod{Provider: "p", ProviderRef: "pm_1", Last4: "4242"})
	check()
	f.notice, err = s.AddNotification(ctx, u, kondate.NewNotification{Kind: "k", Title: "x"})
	check()
	_, err = s.RegisterPushToken(ctx, u, kondate.PlatformWeb, "tok")
	check()
	pub, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "p", Tags: []string{"x"}})
	check()
	f.entry, err = s.Publish(ctx, u, kondate.KindRecipe, pub.ID)
	check()
	_, err = s.SaveCatalogEntry(ctx, u, kondate.KindRecipe, f.entry.ID)
	check()
	f.unpub, err = s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "q"})
	check()
	f.share, err = s.CreateShareLink(ctx, u, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: f.entry.ID, AuthorName: "a"})
	check()
	return f
}

type call struct {
	name string
	call func() error
}

func ign[T any](_ T, err error) error { return err }

// every returns a call of every method of s, on f.
func every(s kondate.Store, ctx context.Context, f fixture) []call {
	o := ddbkit.PageOptions{}
	co := kondate.CatalogQuery{}
	return []call{
		{"GetProfile", func() error { return ign(s.GetProfile(ctx, u)) }},
		{"UpdateProfile", func() error { return ign(s.UpdateProfile(ctx, u, kondate.ProfilePatch{DisplayName: ptr("x")})) }},
		{"CreateRecipe", func() error { return ign(s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "x"})) }},
		{"GetRecipe", func() error { return ign(s.GetRecipe(ctx, u, f.recipe.ID)) }},
		{"FindRecipe", func() error { return ign(s.FindRecipe(ctx, f.recipe.ID)) }},
		{"ListRecipes", func() error { return ign(s.ListRecipes(ctx, u, o)) }},
		{"UpdateRecipe", func() error { return ign(s.UpdateRecipe(ctx, u, f.recipe.ID, kondate.RecipePatch{Title: ptr("y")})) }},
		{"DeleteRecipe", func() error { return s.DeleteRecipe(ctx, u, f.recipe.ID) }},
		{"CreateSet", func() error { return ign(s.CreateSet(ctx, u, kondate.NewSet{Title: "x"})) }},
		{"GetSet", func() error { return ign(s.GetSet(ctx, u, f.set.ID)) }},
		{"FindSet", func() error { return ign(s.FindSet(ctx, f.set.ID)) }},
		{"ListSets", func() error { return ign(s.ListSets(ctx, u, o)) }},
		{"UpdateSet", func() error { return ign(s.UpdateSet(ctx, u, f.set.ID, kondate.SetPatch{Title: ptr("y")})) }},
		{"DeleteSet", func() error { return s.DeleteSet(ctx, u, f.set.ID) }},
		{"GetPlan", func() error { return ign(s.GetPlan(ctx, u, kondate.PlanNext)) }},
		{"UpdatePlan", func() error { return ign(s.UpdatePlan(ctx, u, kondate.PlanNext, nil)) }},
		{"ApplySet", func() error { return ign(s.ApplySet(ctx, u, kondate.PlanCurrent, f.set.ID)) }},
		{"PromoteNextPlan", func() error { return ign(s.PromoteNextPlan(ctx, u)) }},
		{"AddShoppingItem", func() error { return ign(s.AddShoppingItem(ctx, u, kondate.NewShoppingItem{Name: "x"})) }},
		{"ListShoppingItems", func() error { return ign(s.ListShoppingItems(ctx, u, o)) }},
		{"UpdateShoppingItem", func() error {
			return ign(s.UpdateShoppingItem(ctx, u, f.shop.ID, kondate.ShoppingPatch{Name: ptr("y")}))
		}},
		{"CompleteShoppingItem", func() error { return ign(s.CompleteShoppingItem(ctx, u, f.shop.ID)) }},
		{"AddFridgeItem", func() error { return ign(s.AddFridgeItem(ctx, u, kondate.NewFridgeItem{Name: "x"})) }},
		{"ListFridgeItems", func() error { return ign(s.ListFridgeItems(ctx, u, o)) }},
		{"UpdateFridgeItem", func() error { return ign(s.UpdateFridgeItem(ctx, u, f.fridge.ID, kondate.FridgePatch{Name: ptr("y")})) }},
		{"DeleteFridgeItem", func() error { return ign(s.DeleteFridgeItem(ctx, u, f.fridge.ID)) }},
		{"RestoreFridgeItem", func() error { return ign(s.RestoreFridgeItem(ctx, u, f.deleted.Ref)) }},
		{"ListDeletedFridgeItems", func() error { return ign(s.ListDeletedFridgeItems(ctx, u, o)) }},
		{"AddCategory", func() error { return ign(s.AddCategory(ctx, u, kondate.ScopeBook, kondate.NewCategory{Name: "x"})) }},
		{"ListCategories", func() error { return ign(s.ListCategories(ctx, u, kondate.ScopeBook, o)) }},
		{"UpdateCategory", func() error {
			return ign(s.UpdateCategory(ctx, u, kondate.ScopeBook, f.cat.ID, kondate.CategoryPatch{Name: ptr("y")}))
		}},
		{"DeleteCategory", func() error { return s.DeleteCategory(ctx, u, kondate.ScopeBook, f.cat.ID) }},
		{"AddCookLog", func() error { return ign(s.AddCookLog(ctx, u, kondate.NewCookLog{Date: "2026-02-09", Title: "x"})) }},
		{"ListCookLogsByMonth", func() error { return ign(s.ListCookLogsByMonth(ctx, u, "2026-02", o)) }},
		{"ListCookLogsByDay", func() error { return ign(s.ListCookLogsByDay(ctx, u, "2026-02-09", o)) }},
		{"AddPaymentMethod", func() error {
			return ign(s.AddPaymentMethod(ctx, u, kondate.NewPaymentMethod{Provider: "p", ProviderRef: "pm_2", Last4: "1234"}))
		}},
		{"ListPaymentMethods", func() error { return ign(s.ListPaymentMethods(ctx, u, o)) }},
		{"RemovePaymentMethod", func() error { return s.RemovePaymentMethod(ctx, u, f.method.ID) }},
		{"RecordPurchase", func() error {
			return ign(s.RecordPurchase(ctx, u, kondate.NewPurchase{TransactionID: "pi_r", PurchasedAt: start, ProductID: "p", Amount: 1, Currency: "JPY"}))
		}},
		{"ListPurchases", func() error { return ign(s.ListPurchases(ctx, u, o)) }},
		{"GetSubscription", func() error { return ign(s.GetSubscription(ctx, u)) }},
		{"SetSubscription", func() error {
			return ign(s.SetSubscription(ctx, u, kondate.Subscription{Plan: "p", Status: "active"}))
		}},
		{"AddNotification", func() error { return ign(s.AddNotification(ctx, u, kondate.NewNotification{Kind: "k", Title: "x"})) }},
		{"ListNotifications", func() error { return ign(s.ListNotifications(ctx, u, o)) }},
		{"MarkNotificationRead", func() error { return ign(s.MarkNotificationRead(ctx, u, f.notice.Ref)) }},
		{"GetNotificationSettings", func() error { return ign(s.GetNotificationSettings(ctx, u)) }},
		{"SetNotificationSettings", func() error {
			return ign(s.SetNotificationSettings(ctx, u, kondate.NotificationSettings{EmailEnabled: true}))
		}},
		{"RegisterPushToken", func() error { return ign(s.RegisterPushToken(ctx, u, kondate.PlatformIOS, "t2")) }},
		{"UnregisterPushToken", func() error { return s.UnregisterPushToken(ctx, u, kondate.PlatformWeb, "tok") }},
		{"ListPushTokens", func() error { return ign(s.ListPushTokens(ctx, u, o)) }},
		{"Publish", func() error { return ign(s.Publish(ctx, u, kondate.KindRecipe, f.unpub.ID)) }},
		{"GetCatalogEntry", func() error { return ign(s.GetCatalogEntry(ctx, kondate.KindRecipe, f.entry.ID)) }},
		{"ListCatalogNewest", func() error { return ign(s.ListCatalogNewest(ctx, kondate.KindRecipe, co)) }},
		{"ListCatalogPopular", func() error {
			return ign(s.ListCatalogPopular(ctx, kondate.KindRecipe, kondate.CatalogQuery{Tag: "x"}))
		}},
		{"ListCatalogByCreator", func() error { return ign(s.ListCatalogByCreator(ctx, u, kondate.KindRecipe, co)) }},
		{"SaveCatalogEntry", func() error { return ign(s.SaveCatalogEntry(ctx, "u_02", kondate.KindRecipe, f.entry.ID)) }},
		{"ListSaved", func() error { return ign(s.ListSaved(ctx, u, kondate.KindRecipe, o)) }},
		{"UnsaveCatalogEntry", func() error { return s.UnsaveCatalogEntry(ctx, u, kondate.KindRecipe, f.entry.ID) }},
		{"RecalculatePopularity", func() error { return ign(s.RecalculatePopularity(ctx, kondate.KindRecipe)) }},
		{"Unpublish", func() error { return s.Unpublish(ctx, u, kondate.KindRecipe, f.entry.ID) }},
		{"CreateShareLink", func() error {
			return ign(s.CreateShareLink(ctx, u, kondate.NewShareLink{TargetType: kondate.KindSet, TargetID: f.set.ID}))
		}},
		{"GetShareLink", func() error { return ign(s.GetShareLink(ctx, f.share.ID)) }},
		{"ResolveShareLink", func() error { return ign(s.ResolveShareLink(ctx, f.share.ID)) }},
		{"DeleteShareLink", func() error { return s.DeleteShareLink(ctx, u, f.share.ID) }},
	}
}

var clientOps = []string{"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "BatchGetItem",
	"BatchWriteItem", "TransactWriteItems", "TransactGetItems"}

// TestErrorContract: every operation under throttling or 5xx without end,
// and under a cancelled context, gives exactly ErrUnavailable within its
// bounded retries, keeps the SDK's error (or the context's) reachable, and
// writes nothing.
func TestErrorContract(t *testing.T) {
	for _, fault := range []ddbtest.Fault{ddbtest.Throttle, ddbtest.InternalError, 0} {
		name := "cancelled context"
		if fault != 0 {
			name = "endless " + fault.String()
		}
		t.Run(name, func(t *testing.T) {
			s, fc, c, table := faulty(t, fast)
			f := newFixture(t, s)
			before := scanAll(t, c, table)
			ctx := t.Context()
			if fault == 0 {
				cancelled, cancel := context.WithCancel(ctx)
				cancel()
				ctx = cancelled
			} else {
				for _, op := range clientOps {
					fc.Inject(op, fault, 100000)
				}
			}
			for _, call := range every(s, ctx, f) {
				err := call.call()
				ddbtest.WantSentinel(t, call.name, err, ddbkit.ErrUnavailable)
				var api smithy.APIError
				switch {
				case fault == 0 && !errors.Is(err, context.Canceled):
					t.Errorf("%s: %v does not match context.Canceled", call.name, err)
				case fault != 0 && !errors.As(err, &api):
					t.Errorf("%s: the SDK's error is not reachable in %v", call.name, err)
				}
			}
			fc.Clear()
			if after := scanAll(t, c, table); !sameItems(before, after) {
				t.Fatalf("failed calls changed the table")
			}
		})
	}
}

// TestMemoryEndedContext: the memory store under a cancelled context gives
// the same error for every operation, and writes nothing.
func TestMemoryEndedContext(t *testing.T) {
	s := kondate.NewMemoryStore(deterministic, kondate.AllIndexes)
	f := newFixture(t, s)
	before, raw := snapshot(t, s), s.Export()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, call := range every(s, ctx, f) {
		err := call.call()
		ddbtest.WantSentinel(t, call.name, err, ddbkit.ErrUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v does not match context.Canceled", call.name, err)
		}
	}
	if after := snapshot(t, s); !maps.Equal(before, after) {
		t.Fatalf("calls under a cancelled context changed the store:\nbefore %v\nafter  %v", before, after)
	}
	if after := s.Export(); !slices.EqualFunc(raw[kondate.DefaultTableName], after[kondate.DefaultTableName],
		func(a, b map[string]types.AttributeValue) bool { return maps.Equal(render(a), render(b)) }) {
		t.Fatalf("calls under a cancelled context changed the stored items")
	}
}

// snapshot renders everything a store holds for u through its listings.
func snapshot(t *testing.T, s kondate.Store) map[string]string {
	t.Helper()
	ctx := t.Context()
	out := map[string]string{}
	add := func(what string, v any, err error) {
		if err != nil && !errors.Is(err, ddbkit.ErrNotFound) {
			t.Fatalf("%s: %v", what, err)
		}
		out[what] = fmtv(v)
	}
	o := ddbkit.PageOptions{Limit: 100}
	r, err := s.ListRecipes(ctx, u, o)
	add("recipes", r, err)
	st, err := s.ListSets(ctx, u, o)
	add("sets", st, err)
	pn, err := s.GetPlan(ctx, u, kondate.PlanNext)
	add("next", pn, err)
	pc, err := s.GetPlan(ctx, u, kondate.PlanCurrent)
	add("current", pc, err)
	sh, err := s.ListShoppingItems(ctx, u, o)
	add("shopping", sh, err)
	fr, err := s.ListFridgeItems(ctx, u, o)
	add("fridge", fr, err)
	de, err := s.ListDeletedFridgeItems(ctx, u, o)
	add("deleted", de, err)
	ca, err := s.ListCategories(ctx, u, kondate.ScopeBook, o)
	add("categories", ca, err)
	cl, err := s.ListCookLogsByMonth(ctx, u, "2026-02", o)
	add("cook logs", cl, err)
	pm, err := s.ListPaymentMethods(ctx, u, o)
	add("methods", pm, err)
	pu, err := s.ListPurchases(ctx, u, o)
	add("purchases", pu, err)
	su, err := s.GetSubscription(ctx, u)
	add("subscription", su, err)
	no, err := s.ListNotifications(ctx, u, o)
	add("notifications", no, err)
	ns, err := s.GetNotificationSettings(ctx, u)
	add("settings", ns, err)
	pt, err := s.ListPushTokens(ctx, u, o)
	add("tokens", pt, err)
	pr, err := s.GetProfile(ctx, u)
	add("profile", pr, err)
	co := kondate.CatalogQuery{PageOptions: o}
	cn, err := s.ListCatalogNewest(ctx, kondate.KindRecipe, co)
	add("catalog newest", cn, err)
	cp, err := s.ListCatalogPopular(ctx, kondate.KindRecipe, co)
	add("catalog popular", cp, err)
	cc, err := s.ListCatalogByCreator(ctx, u, kondate.KindRecipe, co)
	add("catalog by creator", cc, err)
	for _, user := range []string{u, "u_02"} {
		sv, err := s.ListSaved(ctx, user, kondate.KindRecipe, o)
		add("saved by "+user, sv, err)
	}
	return out
}

func sameItems(a, b map[string]map[string]types.AttributeValue) bool {
	return maps.EqualFunc(a, b, func(x, y map[string]types.AttributeValue) bool { return maps.Equal(render(x), render(y)) })
}

func scanAll(t *testing.T, c *dynamodb.Client, table string) map[string]map[string]types.AttributeValue {
	t.Helper()
	out := map[string]map[string]types.AttributeValue{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			r := render(it)
			out[r["PK"]+" "+r["SK"]] = it
		}
	}
	return out
}

// TestLostResponses: every write whose call commits but whose response is
// lost succeeds, and takes effect exactly once: the table afterwards is
// the table of the same writes without faults.
func TestLostResponses(t *testing.T) {
	run := func(lose bool) map[string]map[string]types.AttributeValue {
		s, fc, c, table := faulty(t)
		f := newFixture(t, s)
		ctx := t.Context()
		for _, w := range writes(s, ctx, f) {
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
		return scanAll(t, c, table)
	}
	want, got := run(false), run(true)
	if !sameItems(got, want) {
		for k := range maps.Keys(want) {
			if _, ok := got[k]; !ok {
				t.Errorf("missing after lost responses: %s", k)
			}
		}
		for k, v := range got {
			if w, ok := want[k]; !ok {
				t.Errorf("extra after lost responses: %s", k)
			} else if !maps.Equal(render(v), render(w)) {
				t.Errorf("%s:\n got %v\nwant %v", k, render(v), render(w))
			}
		}
	}
}

type writeCall struct {
	name, op string
	call     func() error
}

// writes returns every write of every(s, ctx, f) with the call it makes
// last, in an order in which each succeeds: DeleteSet last, since ApplySet
// applies the set.
func writes(s kondate.Store, ctx context.Context, f fixture) []writeCall {
	w := []writeCall{}
	var last []writeCall
	for _, c := range every(s, ctx, f) {
		op := map[string]string{
			"UpdateProfile": "UpdateItem", "CreateRecipe": "TransactWriteItems", "UpdateRecipe": "UpdateItem", "DeleteRecipe": "TransactWriteItems",
			"CreateSet": "TransactWriteItems", "UpdateSet": "UpdateItem", "DeleteSet": "TransactWriteItems", "UpdatePlan": "UpdateItem",
			"ApplySet": "TransactWriteItems", "PromoteNextPlan": "TransactWriteItems",
			"AddShoppingItem": "TransactWriteItems", "UpdateShoppingItem": "UpdateItem", "CompleteShoppingItem": "UpdateItem",
			"AddFridgeItem": "TransactWriteItems", "UpdateFridgeItem": "UpdateItem", "DeleteFridgeItem": "TransactWriteItems",
			"RestoreFridgeItem": "TransactWriteItems", "AddCategory": "TransactWriteItems", "UpdateCategory": "UpdateItem",
			"DeleteCategory": "DeleteItem", "AddCookLog": "TransactWriteItems", "AddPaymentMethod": "TransactWriteItems",
			"RemovePaymentMethod": "DeleteItem", "RecordPurchase": "TransactWriteItems", "SetSubscription": "PutItem",
			"AddNotification": "TransactWriteItems", "MarkNotificationRead": "UpdateItem", "SetNotificationSettings": "PutItem",
			"RegisterPushToken": "UpdateItem", "UnregisterPushToken": "DeleteItem",
		}[c.name]
		switch {
		case c.name == "DeleteSet":
			last = append(last, writeCall{c.name, op, c.call})
		case op != "":
			w = append(w, writeCall{c.name, op, c.call})
		}
	}
	return append(w, last...)
}

// TestIdempotencyKeyAfterLostResponses: each transactional write commits
// but every response to it is lost, so the call gives up with
// ErrUnavailable; the client repeats it under the same idempotency key.
// The transaction carried the key's record, so the repeat replays the
// first call's result and writes nothing a second time, though without
// the key it would write other values (a later appliedAt) or find its
// item gone.
func TestIdempotencyKeyAfterLostResponses(t *testing.T) {
	s, fc, _, _ := faulty(t, fast)
	f := newFixture(t, s)
	ctx := t.Context()
	// lost runs call under the key what with every response lost, then
	// check, then the repeat under the key, which must succeed.
	lost := func(what string, call func(context.Context) error, check func()) {
		t.Helper()
		key := ddbkit.WithIdempotencyKey(ctx, uniqueKey(t, what))
		fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1000)
		err := call(key)
		n := fc.Injected("TransactWriteItems")
		fc.Clear()
		ddbtest.WantSentinel(t, what+" while every response is lost", err, ddbkit.ErrUnavailable)
		if n < 2 {
			t.Fatalf("%s: %d transactions sent, want the retries of a lost response", what, n)
		}
		check()
		if err := call(key); err != nil {
			t.Fatalf("%s repeated under its key: %v, want the first call's result", what, err)
		}
		check()
	}

	var applied time.Time
	lost("ApplySet", func(ctx context.Context) error {
		return ign(s.ApplySet(ctx, u, kondate.PlanCurrent, f.set.ID))
	}, func() {
		cur, err := s.GetPlan(ctx, u, kondate.PlanCurrent)
		if applied.IsZero() {
			applied = cur.AppliedAt
		}
		if err != nil || cur.SetID != f.set.ID || applied.IsZero() || !cur.AppliedAt.Equal(applied) {
			t.Fatalf("current plan = %+v, %v; want the set applied once, at %v", cur, err, applied)
		}
	})

	next, err := s.GetPlan(ctx, u, kondate.PlanNext)
	if err != nil {
		t.Fatal(err)
	}
	lost("PromoteNextPlan", func(ctx context.Context) error { return ign(s.PromoteNextPlan(ctx, u)) }, func() {
		cur, err := s.GetPlan(ctx, u, kondate.PlanCurrent)
		if err != nil || !cur.AppliedAt.Equal(next.AppliedAt) || cur.SetID != next.SetID {
			t.Fatalf("current plan = %+v, %v; want the next plan %+v", cur, err, next)
		}
	})

	// fridge checks the fridge and the archive hold exactly these IDs.
	fridge := func(live, archived []string) func() {
		return func() {
			t.Helper()
			l, err1 := s.ListFridgeItems(ctx, u, ddbkit.PageOptions{})
			a, err2 := s.ListDeletedFridgeItems(ctx, u, ddbkit.PageOptions{})
			var gotL, gotA []string
			for _, it := range l.Items {
				gotL = append(gotL, it.ID)
			}
			for _, it := range a.Items {
				gotA = append(gotA, it.ID)
			}
			if err := errors.Join(err1, err2); err != nil || !slices.Equal(gotL, live) || !slices.Equal(gotA, archived) {
				t.Fatalf("fridge %v, archive %v, %v; want %v and %v", gotL, gotA, err, live, archived)
			}
		}
	}
	lost("DeleteFridgeItem", func(ctx context.Context) error { return ign(s.DeleteFridgeItem(ctx, u, f.fridge.ID)) },
		fridge(nil, []string{f.fridge.ID, f.deleted.ID}))
	lost("RestoreFridgeItem", func(ctx context.Context) error {
		return ign(s.RestoreFridgeItem(ctx, u, f.deleted.Ref))
	}, fridge([]string{f.deleted.ID}, []string{f.fridge.ID}))
}

// TestIdempotencyKeyReplay: a repeat under an idempotency key that sends
// the very same writes (here the clock stands still, so ApplySet copies the
// same set at the same appliedAt) is the first call's replay: it succeeds,
// on both stores, and writes nothing new. DynamoDB compares the repeat's
// request with the first, conditions included, so the store must build the
// same request for the same writes.
func TestIdempotencyKeyReplay(t *testing.T) {
	frozen := func(o *kondate.Options) { o.Clock = func() time.Time { return start } }
	ds, _, _ := newDynamo(t, nil, frozen)
	for _, tc := range []struct {
		name string
		s    kondate.Store
	}{{"dynamo", ds}, {"memory", kondate.NewMemoryStore(frozen)}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			set, err := tc.s.CreateSet(ctx, u, kondate.NewSet{Title: "中華セット", Tags: []string{"平日"},
				Items: []kondate.SetItem{{RecipeID: "r_01", Title: "麻婆豆腐"}, {Title: "ご飯"}}})
			if err != nil {
				t.Fatal(err)
			}
			key := ddbkit.WithIdempotencyKey(ctx, uniqueKey(t, "apply-1"))
			first, err := tc.s.ApplySet(key, u, kondate.PlanNext, set.ID)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 5 {
				again, err := tc.s.ApplySet(key, u, kondate.PlanNext, set.ID)
				if err != nil || fmtv(again) != fmtv(first) {
					t.Fatalf("repeat %d under the key with the same writes = %+v, %v; want the first call's %+v", i, again, err, first)
				}
			}
		})
	}
}

// uniqueKey makes an idempotency key of name unique to the run and the
// test: DynamoDB keeps a token for ten minutes across all tables.
func uniqueKey(t *testing.T, name string) string {
	return fmt.Sprintf("%s %s %d", t.Name(), name, time.Now().UnixNano())
}
