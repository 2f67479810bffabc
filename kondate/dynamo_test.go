package kondate_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/kondate/kondatetest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// newDynamo returns a DynamoStore on a fresh table, talking to DynamoDB
// Local through wrap (the raw client when wrap is nil), the raw client and
// the table name.
func newDynamo(t testing.TB, wrap func(ddbkit.Client) ddbkit.Client, opts ...func(*kondate.Options)) (*kondate.DynamoStore, *dynamodb.Client, string) {
	t.Helper()
	c := ddbtest.Client(t)
	name := ddbtest.NewTable(t, c, kondate.CreateTableInput("kondate", opts...))
	var client ddbkit.Client = c
	if wrap != nil {
		client = wrap(c)
	}
	opts = append(opts, func(o *kondate.Options) { o.TableName = name })
	return kondate.NewDynamoStore(client, opts...), c, name
}

// TestDynamoStore runs the conformance suite on DynamoDB Local, recording
// the IAM grants of every call (iam.json).
func TestDynamoStore(t *testing.T) {
	iamPart(t)
	kondatetest.Run(t, func(t *testing.T, opts ...func(*kondate.Options)) kondate.Store {
		s, _, _ := newDynamo(t, iamRec.Wrap, opts...)
		return s
	})
}

var start = time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC)

func deterministic(o *kondate.Options) {
	o.Clock = ddbkit.StepClock(start, time.Second)
	o.NewID = ddbkit.SeededULIDs(7, o.Clock)
	o.NewShareID = ddbkit.SeededULIDs(11, o.Clock)
}

func rawItem(t *testing.T, c *dynamodb.Client, table, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}})
	if err != nil {
		t.Fatalf("GetItem(%s, %s): %v", pk, sk, err)
	}
	return out.Item
}

// render shows each attribute as type:value, so a comparison checks types
// as well as values.
func render(item map[string]types.AttributeValue) map[string]string {
	out := make(map[string]string, len(item))
	for k, v := range item {
		out[k] = renderValue(v)
	}
	return out
}

func renderValue(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return "S:" + v.Value
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprint("BOOL:", v.Value)
	case *types.AttributeValueMemberL:
		s := "L:["
		for i, e := range v.Value {
			if i > 0 {
				s += ","
			}
			s += renderValue(e)
		}
		return s + "]"
	case *types.AttributeValueMemberM:
		s := "M:{"
		for _, k := range []string{"name", "amount", "recipeId", "title"} {
			if e, ok := v.Value[k]; ok {
				s += k + "=" + renderValue(e) + ";"
			}
		}
		return s + "}"
	}
	return fmt.Sprintf("%T", v)
}

// TestRawLayout: the items the DynamoDB store writes, attribute for
// attribute, for every sort key kind.
func TestRawLayout(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	const u = "u_01"
	pk := "USER#" + u
	r, err := s.CreateRecipe(ctx, u, kondate.NewRecipe{Title: "麻婆豆腐", Ingredients: []kondate.Ingredient{{Name: "豆腐", Amount: "1丁"}},
		Steps: []string{"切る"}, Origin: "manual"})
	if err != nil {
		t.Fatal(err)
	}
	set, err := s.CreateSet(ctx, u, kondate.NewSet{Title: "中華", Items: []kondate.SetItem{{RecipeID: r.ID, Title: "麻婆豆腐"}}})
	if err != nil {
		t.Fatal(err)
	}
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	prof, err := s.UpdateProfile(ctx, u, kondate.ProfilePatch{DisplayName: ptr("はなこ")})
	must(prof, err)
	plan, err := s.ApplySet(ctx, u, kondate.PlanNext, set.ID)
	must(plan, err)
	sh, err := s.AddShoppingItem(ctx, u, kondate.NewShoppingItem{Name: "牛乳", Quantity: "1本"})
	must(sh, err)
	f1, err := s.AddFridgeItem(ctx, u, kondate.NewFridgeItem{Name: "にんじん", ExpiryDate: "2026-02-15"})
	must(f1, err)
	f2, err := s.AddFridgeItem(ctx, u, kondate.NewFridgeItem{Name: "ねぎ"})
	must(f2, err)
	del, err := s.DeleteFridgeItem(ctx, u, f2.ID)
	must(del, err)
	cat, err := s.AddCategory(ctx, u, kondate.ScopeBook, kondate.NewCategory{Name: "主菜"})
	must(cat, err)
	log, err := s.AddCookLog(ctx, u, kondate.NewCookLog{Date: "2026-02-09", RecipeID: r.ID, Title: "麻婆豆腐"})
	must(log, err)
	pm, err := s.AddPaymentMethod(ctx, u, kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: "pm_1N", Brand: "visa", Last4: "4242"})
	must(pm, err)
	pu, err := s.RecordPurchase(ctx, u, kondate.NewPurchase{TransactionID: "pi_3N", PurchasedAt: start.Add(time.Hour), ProductID: "premium", Amount: 480, Currency: "JPY", PaymentMethodID: pm.ID})
	must(pu, err)
	sub, err := s.SetSubscription(ctx, u, kondate.Subscription{Plan: "premium", Status: "active"})
	must(sub, err)
	n, err := s.AddNotification(ctx, u, kondate.NewNotification{Kind: "system", Title: "ようこそ"})
	must(n, err)
	ns, err := s.SetNotificationSettings(ctx, u, kondate.NotificationSettings{PushEnabled: true})
	must(ns, err)
	tok, err := s.RegisterPushToken(ctx, u, kondate.PlatformIOS, "tok")
	must(tok, err)

	ts := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
	cases := []struct {
		sk   string
		want map[string]string
	}{
		{"RECIPE#" + r.ID, map[string]string{"PK": "S:" + pk, "SK": "S:RECIPE#" + r.ID, "GSI1PK": "S:ENTITY#RECIPE#" + r.ID, "GSI1SK": "S:OWNER#" + u,
			"title": "S:麻婆豆腐", "ingredients": "L:[M:{name=S:豆腐;amount=S:1丁;}]", "steps": "L:[S:切る]", "tags": "L:[]", "origin": "S:manual",
			"createdAt": "S:" + ts(r.CreatedAt), "updatedAt": "S:" + ts(r.CreatedAt)}},
		{"SET#" + set.ID, map[string]string{"PK": "S:" + pk, "SK": "S:SET#" + set.ID, "GSI1PK": "S:ENTITY#SET#" + set.ID, "GSI1SK": "S:OWNER#" + u,
			"title": "S:中華", "items": "L:[M:{recipeId=S:" + r.ID + ";title=S:麻婆豆腐;}]", "tags": "L:[]", "createdAt": "S:" + ts(set.CreatedAt), "updatedAt": "S:" + ts(set.CreatedAt)}},
		{"PROFILE#", map[string]string{"PK": "S:" + pk, "SK": "S:PROFILE#", "displayName": "S:はなこ", "createdAt": "S:" + ts(prof.CreatedAt), "updatedAt": "S:" + ts(prof.CreatedAt)}},
		{"PLAN#NEXT", map[string]string{"PK": "S:" + pk, "SK": "S:PLAN#NEXT", "setId": "S:" + set.ID, "setTitle": "S:中華",
			"items": "L:[M:{recipeId=S:" + r.ID + ";title=S:麻婆豆腐;}]", "appliedAt": "S:" + ts(plan.AppliedAt), "updatedAt": "S:" + ts(plan.AppliedAt)}},
		{"SHOPPING#" + sh.ID, map[string]string{"PK": "S:" + pk, "SK": "S:SHOPPING#" + sh.ID, "name": "S:牛乳", "quantity": "S:1本",
			"checked": "BOOL:false", "createdAt": "S:" + ts(sh.CreatedAt), "updatedAt": "S:" + ts(sh.CreatedAt)}},
		{"FRIDGE#" + f1.ID, map[string]string{"PK": "S:" + pk, "SK": "S:FRIDGE#" + f1.ID, "name": "S:にんじん", "quantity": "S:",
			"expiryDate": "S:2026-02-15", "createdAt": "S:" + ts(f1.CreatedAt), "updatedAt": "S:" + ts(f1.CreatedAt)}},
		{"FRIDGE_DELETED#" + ts(del.DeletedAt) + "#" + f2.ID, map[string]string{"PK": "S:" + pk, "SK": "S:FRIDGE_DELETED#" + ts(del.DeletedAt) + "#" + f2.ID,
			"name": "S:ねぎ", "quantity": "S:", "expiryDate": "S:", "createdAt": "S:" + ts(f2.CreatedAt), "updatedAt": "S:" + ts(f2.CreatedAt),
			"deletedAt": "S:" + ts(del.DeletedAt), "ttl": fmt.Sprint("N:", del.DeletedAt.Add(kondate.DeletedFridgeRetention).Unix())}},
		{"CATEGORY#book#" + cat.ID, map[string]string{"PK": "S:" + pk, "SK": "S:CATEGORY#book#" + cat.ID, "name": "S:主菜",
			"createdAt": "S:" + ts(cat.CreatedAt), "updatedAt": "S:" + ts(cat.CreatedAt)}},
		{"COOKLOG#2026-02-09#" + log.ID, map[string]string{"PK": "S:" + pk, "SK": "S:COOKLOG#2026-02-09#" + log.ID, "recipeId": "S:" + r.ID,
			"title": "S:麻婆豆腐", "note": "S:", "createdAt": "S:" + ts(log.CreatedAt)}},
		{"PAYMENT_METHOD#" + pm.ID, map[string]string{"PK": "S:" + pk, "SK": "S:PAYMENT_METHOD#" + pm.ID, "provider": "S:stripe",
			"providerRef": "S:pm_1N", "brand": "S:visa", "last4": "S:4242", "createdAt": "S:" + ts(pm.CreatedAt)}},
		{"PURCHASE#" + ts(pu.PurchasedAt) + "#" + pu.ID, map[string]string{"PK": "S:" + pk, "SK": "S:PURCHASE#" + ts(pu.PurchasedAt) + "#" + pu.ID, "productId": "S:premium",
			"amount": "N:480", "currency": "S:JPY", "paymentMethodId": "S:" + pm.ID, "purchasedAt": "S:" + ts(pu.PurchasedAt)}},
		{"PURCHASE_TXN#pi_3N", map[string]string{"PK": "S:" + pk, "SK": "S:PURCHASE_TXN#pi_3N", "purchaseSk": "S:PURCHASE#" + ts(start.Add(time.Hour)) + "#pi_3N"}},
		{"SUBSCRIPTION#ACTIVE", map[string]string{"PK": "S:" + pk, "SK": "S:SUBSCRIPTION#ACTIVE", "plan": "S:premium", "status": "S:active",
			"updatedAt": "S:" + ts(sub.UpdatedAt)}},
		{"NOTIFICATION#" + ts(n.CreatedAt) + "#" + n.ID, map[string]string{"PK": "S:" + pk, "SK": "S:NOTIFICATION#" + ts(n.CreatedAt) + "#" + n.ID,
			"kind": "S:system", "title": "S:ようこそ", "body": "S:", "createdAt": "S:" + ts(n.CreatedAt)}},
		{"NOTIFICATION_SETTINGS#", map[string]string{"PK": "S:" + pk, "SK": "S:NOTIFICATION_SETTINGS#", "pushEnabled": "BOOL:true",
			"emailEnabled": "BOOL:false", "updatedAt": "S:" + ts(ns.UpdatedAt)}},
		{"PUSH_TOKEN#ios#" + sha256hex("tok"), map[string]string{"PK": "S:" + pk, "SK": "S:PUSH_TOKEN#ios#" + sha256hex("tok"),
			"platform": "S:ios", "token": "S:tok", "createdAt": "S:" + ts(tok.CreatedAt), "updatedAt": "S:" + ts(tok.CreatedAt)}},
	}
	c0 := c
	for _, c := range cases {
		got := render(rawItem(t, c0, table, pk, c.sk))
		if !maps.Equal(got, c.want) {
			t.Errorf("item %s:\n got %v\nwant %v", c.sk, got, c.want)
		}
	}
	if got := rawItem(t, c, table, pk, "FRIDGE#"+f2.ID); got != nil {
		t.Errorf("deleted fridge item still at FRIDGE#: %v", render(got))
	}
	if len(r.ID) != 26 {
		t.Errorf("recipe ID %q is not a ULID", r.ID)
	}
}

func sha256hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func ptr[T any](v T) *T { return &v }

// TestRoundTrips: a listing is one Query per page; finding by ID is one
// Query of GSI1 and one GetItem.
func TestRoundTrips(t *testing.T) {
	var cc *ddbtest.CountingClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { cc = ddbtest.NewCountingClient(c); return cc }, deterministic)
	ctx := t.Context()
	var id string
	for range 5 {
		r, err := s.CreateRecipe(ctx, "u", kondate.NewRecipe{Title: "x"})
		if err != nil {
			t.Fatal(err)
		}
		id = r.ID
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
	check("ListRecipes, one page of 2", map[string]int{"Query": 1}, func() error {
		_, err := s.ListRecipes(ctx, "u", ddbkit.PageOptions{Limit: 2})
		return err
	})
	check("ListRecipes, one page of all", map[string]int{"Query": 1}, func() error {
		_, err := s.ListRecipes(ctx, "u", ddbkit.PageOptions{})
		return err
	})
	check("FindRecipe", map[string]int{"Query": 1, "GetItem": 1}, func() error { _, err := s.FindRecipe(ctx, id); return err })
	check("GetRecipe", map[string]int{"GetItem": 1}, func() error { _, err := s.GetRecipe(ctx, "u", id); return err })
	check("CreateRecipe", map[string]int{"TransactWriteItems": 1}, func() error { _, err := s.CreateRecipe(ctx, "u", kondate.NewRecipe{Title: "x"}); return err })
	check("UpdateRecipe", map[string]int{"UpdateItem": 1}, func() error {
		_, err := s.UpdateRecipe(ctx, "u", id, kondate.RecipePatch{Title: ptr("y")})
		return err
	})
	f, err := s.AddFridgeItem(ctx, "u", kondate.NewFridgeItem{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	check("DeleteFridgeItem", map[string]int{"GetItem": 1, "TransactWriteItems": 1}, func() error {
		_, err := s.DeleteFridgeItem(ctx, "u", f.ID)
		return err
	})
}

func fmtv(v any) string { return fmt.Sprintf("%+v", v) }

// TestCursorSecret: a cursor signed with a secret passes only a store with
// the same secret, on the same table and listing; a store with another
// secret, or none, refuses it with ErrInvalidCursor. Both stores.
func TestCursorSecret(t *testing.T) {
	secret := func(k string) func(*kondate.Options) {
		return func(o *kondate.Options) { o.CursorSecret = []byte(k) }
	}
	const a, b = "secret a, 32 bytes long, random", "secret b, 32 bytes long, random"
	dyn, c, table := newDynamo(t, nil, deterministic, secret(a))
	on := func(o *kondate.Options) { o.TableName = table }
	mem := kondate.NewMemoryStore(deterministic, on, secret(a))
	for _, tc := range []struct {
		name   string
		signer kondate.Store
		same   kondate.Store
		others []kondate.Store
	}{
		{"dynamo", dyn, kondate.NewDynamoStore(c, on, secret(a)),
			[]kondate.Store{kondate.NewDynamoStore(c, on, secret(b)), kondate.NewDynamoStore(c, on)}},
		// The memory stores share no items: the signer holds the items,
		// and only its secret is compared.
		{"memory", mem, mem,
			[]kondate.Store{kondate.NewMemoryStore(deterministic, on, secret(b)), kondate.NewMemoryStore(deterministic, on)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			for range 3 {
				if _, err := tc.signer.AddShoppingItem(ctx, u, kondate.NewShoppingItem{Name: "x"}); err != nil {
					t.Fatal(err)
				}
			}
			p, err := tc.signer.ListShoppingItems(ctx, u, ddbkit.PageOptions{Limit: 1})
			if err != nil || p.Next == "" {
				t.Fatalf("ListShoppingItems = %+v, %v; want a next page", p, err)
			}
			next := ddbkit.PageOptions{Limit: 1, Cursor: p.Next}
			if q, err := tc.same.ListShoppingItems(ctx, u, next); err != nil || len(q.Items) != 1 || q.Items[0].ID == p.Items[0].ID {
				t.Fatalf("a cursor on a store with the same secret = %+v, %v; want the second page", q, err)
			}
			for i, o := range tc.others {
				_, err := o.ListShoppingItems(ctx, u, next)
				ddbtest.WantSentinel(t, fmt.Sprintf("a cursor on store %d with another secret or none", i), err, ddbkit.ErrInvalidCursor)
			}
		})
	}
}

// TestIdempotencyKeyOtherProcess: a create repeated under its key by
// another store on the same table (another process, with IDs of its own)
// returns the first call's recipe, and writes none. (Past the key's window
// it would be a new request; DynamoDB Local keeps a ClientRequestToken for
// as long as it runs, so that is tested on the memory store only.)
func TestIdempotencyKeyOtherProcess(t *testing.T) {
	first, c, name := newDynamo(t, nil)
	second := kondate.NewDynamoStore(c, func(o *kondate.Options) { o.TableName = name })
	ctx := ddbkit.WithIdempotencyKey(t.Context(), fmt.Sprintf("%s %d", t.Name(), time.Now().UnixNano()))
	in := kondate.NewRecipe{Title: "麻婆豆腐", Steps: []string{"切る"}}
	r, err := first.CreateRecipe(ctx, "u_01", in)
	if err != nil {
		t.Fatal(err)
	}
	again, err := second.CreateRecipe(ctx, "u_01", in)
	if err != nil || fmtv(again) != fmtv(r) {
		t.Fatalf("repeat from another store = %+v, %v; want the first call's %+v", again, err, r)
	}
	page, err := second.ListRecipes(t.Context(), "u_01", ddbkit.PageOptions{})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("recipes after the repeat: %d, %v; want 1", len(page.Items), err)
	}
}
