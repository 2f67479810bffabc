package kondatetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
)

// runHardening runs the tests of issue 20: own-write creates, scoped
// idempotency keys, bounded filtered pages, item sizes, times, card data,
// links and names, cursor secrets.
func runHardening(t *testing.T, newStore NewStore) {
	t.Run("CreateIsOwnWriteOnly", func(t *testing.T) { testCreateOwnWrite(t, newStore) })
	t.Run("IdempotencyKeyScoped", func(t *testing.T) { testScopedKeys(t, newStore) })
	t.Run("FilterBudget", func(t *testing.T) { testFilterBudget(t, newStore) })
	t.Run("ItemSize", func(t *testing.T) { testItemSize(t, fixed(t, newStore)) })
	t.Run("Times", func(t *testing.T) { testTimes(t, fixed(t, newStore)) })
	t.Run("CardData", func(t *testing.T) { testCardData(t, fixed(t, newStore)) })
	t.Run("LinksAndNames", func(t *testing.T) { testLinksAndNames(t, fixed(t, newStore)) })
	t.Run("ShortCursorSecret", func(t *testing.T) { testShortCursorSecret(t, newStore) })
}

// frozen makes every create of a store the same item: a clock that stands
// still, and an ID generator that repeats one ID.
func frozen(o *kondate.Options) {
	o.Clock = func() time.Time { return Start }
	o.NewID = func() string { return "01KH0000000000000000000000" }
	o.NewShareID = func() string { return "s_same" }
}

// testCreateOwnWrite: a create succeeds only for the call's own write. An
// identical item another call wrote (same ID, same time, same fields) is
// ErrAlreadyExists, not taken for the caller's own; a repeat under the
// same idempotency key, with the same writes, replays the first call.
func testCreateOwnWrite(t *testing.T, newStore NewStore) {
	s := newStore(t, kondate.AllIndexes, frozen)
	ctx := t.Context()
	first := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("麻婆豆腐")))
	_, err := s.CreateRecipe(ctx, user, newRecipe("麻婆豆腐"))
	wantErr(t, "an identical CreateRecipe by another call", err, ddbkit.ErrAlreadyExists)
	must[kondate.ShoppingItem](t, "AddShoppingItem")(s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "卵"}))
	_, err = s.AddShoppingItem(ctx, user, kondate.NewShoppingItem{Name: "卵"})
	wantErr(t, "an identical AddShoppingItem by another call", err, ddbkit.ErrAlreadyExists)
	in := kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: first.ID}
	must[kondate.ShareLink](t, "CreateShareLink")(s.CreateShareLink(ctx, user, in))
	_, err = s.CreateShareLink(ctx, user, in)
	wantErr(t, "an identical CreateShareLink by another call", err, ddbkit.ErrAlreadyExists)

	// Under a key: the repeat sends the same writes, and replays.
	key := idempotencyKey(t, "create-1")
	n := must[kondate.Notification](t, "AddNotification")(s.AddNotification(key, user, kondate.NewNotification{Kind: "k", Title: "x"}))
	again, err := s.AddNotification(key, user, kondate.NewNotification{Kind: "k", Title: "x"})
	if err != nil || !reflectEqual(again, n) {
		t.Fatalf("AddNotification repeated under its key = %+v, %v; want the first call's %+v", again, err, n)
	}
	// The same key, other writes: refused, as DynamoDB refuses a token
	// reused for other writes.
	_, err = s.AddNotification(key, user, kondate.NewNotification{Kind: "k", Title: "y"})
	wantErr(t, "AddNotification under a used key with other writes", err, ddbkit.ErrConflict)
	// Another caller's identical write under its own key is still not
	// this caller's.
	_, err = s.AddNotification(idempotencyKey(t, "create-2"), user, kondate.NewNotification{Kind: "k", Title: "x"})
	wantErr(t, "an identical AddNotification under another key", err, ddbkit.ErrAlreadyExists)

	wantEqual(t, "recipes", len(all(t, "ListRecipes", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.Recipe], error) {
		return s.ListRecipes(ctx, user, o)
	})), 1)
	wantEqual(t, "notifications", len(all(t, "ListNotifications", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.Notification], error) {
		return s.ListNotifications(ctx, user, o)
	})), 1)
}

// testScopedKeys: one idempotency key used by two users, by two
// operations, and on two tables makes unrelated tokens: every write
// succeeds.
func testScopedKeys(t *testing.T, newStore NewStore) {
	s1, s2 := fixed(t, newStore), fixed(t, newStore) // two tables
	k := idempotencyKey(t, "shared")
	for i, s := range []kondate.Store{s1, s2} {
		for _, u := range []string{"u_a", "u_b"} {
			what := fmt.Sprintf("store %d, user %s", i, u)
			r := must[kondate.Recipe](t, what+": CreateRecipe")(s.CreateRecipe(k, u, newRecipe("r "+u)))
			must[kondate.ShoppingItem](t, what+": AddShoppingItem")(s.AddShoppingItem(k, u, kondate.NewShoppingItem{Name: "x " + u}))
			set := must[kondate.Set](t, what+": CreateSet")(s.CreateSet(t.Context(), u, newSet("s "+u)))
			must[kondate.Plan](t, what+": ApplySet")(s.ApplySet(k, u, kondate.PlanNext, set.ID))
			must[kondate.CatalogEntry](t, what+": Publish")(s.Publish(k, u, kondate.KindRecipe, r.ID))
			must[kondate.SavedEntry](t, what+": SaveCatalogEntry")(s.SaveCatalogEntry(k, u, kondate.KindRecipe, r.ID))
		}
	}
	for i, s := range []kondate.Store{s1, s2} {
		for _, u := range []string{"u_a", "u_b"} {
			rs := all(t, "ListRecipes", func(o ddbkit.PageOptions) (ddbkit.Page[kondate.Recipe], error) {
				return s.ListRecipes(t.Context(), u, o)
			})
			if len(rs) != 1 || rs[0].Title != "r "+u {
				t.Fatalf("store %d, user %s: recipes %+v, want one, its own", i, u, rs)
			}
		}
	}
}

// testFilterBudget: a filtered catalog page evaluates at most FilterBudget
// entries, and then ends, possibly short or empty, with a Next cursor;
// paging on finds every match. The page boundaries are exact, so both
// stores end pages at the same entry.
func testFilterBudget(t *testing.T, newStore NewStore) {
	s := newStore(t, kondate.AllIndexes, func(o *kondate.Options) {
		o.Clock = ddbkit.StepClock(Start, time.Millisecond)
		o.NewID = ddbkit.SeededULIDs(1, o.Clock)
		o.FilterBudget = 5
	})
	ctx := t.Context()
	// 12 entries; newest first, the 3rd and the 10th have the tag.
	var newestFirst []string
	for i := range 12 {
		in := newRecipe(fmt.Sprint("r", i))
		if i == 9 || i == 2 { // oldest first: positions 9 and 2 from the newest
			in.Tags = []string{"珍味"}
		}
		r := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, in))
		must[kondate.CatalogEntry](t, "Publish")(s.Publish(ctx, user, kondate.KindRecipe, r.ID))
		newestFirst = append([]string{r.ID}, newestFirst...)
	}
	var pages [][]string
	cursor := ""
	for range 10 {
		p := must[ddbkit.Page[kondate.CatalogEntry]](t, "filtered page")(s.ListCatalogNewest(ctx, kondate.KindRecipe,
			kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 10, Cursor: cursor}, Tag: "珍味"}))
		pages = append(pages, ids(p.Items))
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	// Budget 5: entries 0-4 (one match), 5-9 (one match), 10-11 (none).
	want := [][]string{{newestFirst[2]}, {newestFirst[9]}, nil}
	if fmt.Sprint(pages) != fmt.Sprint(want) {
		t.Fatalf("filtered pages with a budget of 5 = %v, want %v", pages, want)
	}
	// A tag nobody uses: each page is empty, with a Next, until the end.
	cursor, n := "", 0
	for {
		p := must[ddbkit.Page[kondate.CatalogEntry]](t, "unused tag")(s.ListCatalogPopular(ctx, kondate.KindRecipe,
			kondate.CatalogQuery{PageOptions: ddbkit.PageOptions{Limit: 3, Cursor: cursor}, Tag: "nobody"}))
		n++
		if len(p.Items) != 0 {
			t.Fatalf("unused tag: page %d holds %v", n, ids(p.Items))
		}
		if cursor = p.Next; cursor == "" {
			break
		}
		if n > 3 {
			t.Fatalf("unused tag: %d pages for 12 entries with a budget of 5", n)
		}
	}
	wantEqual(t, "pages of an unused tag", n, 3)
}

// steps returns n steps of size characters of a three-byte character.
func steps(n, size int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strings.Repeat("あ", size)
	}
	return out
}

// testItemSize: input that passes the field limits but makes an item over
// DynamoDB's 400 KB is refused with ErrInvalidArgument naming the field,
// before anything is written; a recipe that passes can be published.
func testItemSize(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	big := steps(kondate.MaxListLen, kondate.MaxTextLen) // 600 KB
	in := newRecipe("大きなレシピ")
	in.Steps = big
	_, err := s.CreateRecipe(ctx, user, in)
	wantField(t, "CreateRecipe of 600 KB of steps", err, "Steps")
	assertEmpty(t, s, user)

	small := must[kondate.Recipe](t, "CreateRecipe")(s.CreateRecipe(ctx, user, newRecipe("小さなレシピ")))
	_, err = s.UpdateRecipe(ctx, user, small.ID, kondate.RecipePatch{Steps: &big})
	wantField(t, "UpdateRecipe to 600 KB of steps", err, "Steps")
	wantEqual(t, "recipe after the refused update", must[kondate.Recipe](t, "GetRecipe")(s.GetRecipe(ctx, user, small.ID)), small)

	// Just under the limit with room for the catalog's copies: it is
	// stored, and can be published.
	in.Steps = steps(kondate.MaxListLen, 1330) // 399,000 bytes
	r := must[kondate.Recipe](t, "CreateRecipe just under the limit")(s.CreateRecipe(ctx, user, in))
	e := must[kondate.CatalogEntry](t, "Publish it")(s.Publish(ctx, user, kondate.KindRecipe, r.ID))
	wantEqual(t, "published steps", len(e.Steps), kondate.MaxListLen)
	// Past the room the copies need: refused.
	in.Steps = steps(kondate.MaxListLen, 1355) // 406,500 bytes
	_, err = s.CreateRecipe(ctx, user, in)
	wantField(t, "CreateRecipe without room for its catalog copy", err, "Steps")
}

func wantField(t *testing.T, what string, err error, field string) {
	t.Helper()
	wantErr(t, what, err, ddbkit.ErrInvalidArgument)
	var ve *ddbkit.ValidationError
	if !errors.As(err, &ve) || ve.Field != field {
		t.Fatalf("%s: error %v names field %v, want %s", what, err, ve, field)
	}
}

// testTimes: every time or date a caller supplies is range-checked (years
// 0001 to 9999), and a bad one writes nothing.
func testTimes(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	y10000 := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	_, err := s.SetSubscription(ctx, user, kondate.Subscription{Plan: "premium", Status: "active", CurrentPeriodEnd: y10000})
	wantField(t, "SetSubscription in year 10000", err, "CurrentPeriodEnd")
	_, err = s.AddCookLog(ctx, user, kondate.NewCookLog{Date: "0000-12-31", Title: "x"})
	wantField(t, "AddCookLog in year 0", err, "Date")
	_, err = s.AddFridgeItem(ctx, user, kondate.NewFridgeItem{Name: "x", ExpiryDate: "0000-01-01"})
	wantField(t, "AddFridgeItem expiring in year 0", err, "ExpiryDate")
	for _, ref := range []string{"0000-12-31T00:00:00Z#n_1", "2026-02-09T10:00:00Z", "yesterday#n_1", "2026-02-09T10:00:00Z#n#1",
		"2026-02-09T10:00:00Z#", "2026-02-09T10:00:00Z#n 1", strings.Repeat("9", 65) + "#n_1", "2026-02-09T10:00:00Z#" + strings.Repeat("n", kondate.MaxIDLen+1)} {
		_, err = s.MarkNotificationRead(ctx, user, ref)
		wantField(t, fmt.Sprintf("MarkNotificationRead(%.40q)", ref), err, "Ref")
		_, err = s.RestoreFridgeItem(ctx, user, ref)
		wantField(t, fmt.Sprintf("RestoreFridgeItem(%.40q)", ref), err, "Ref")
	}
	assertEmpty(t, s, user)
	// The last moment of year 9999 is fine.
	end := time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC)
	sub := must[kondate.Subscription](t, "SetSubscription")(s.SetSubscription(ctx, user, kondate.Subscription{Plan: "p", Status: "active", CurrentPeriodEnd: end}))
	wantEqual(t, "read back", must[kondate.Subscription](t, "GetSubscription")(s.GetSubscription(ctx, user)), sub)
}

// testCardData: kondate stores no card data. A card number in ProviderRef,
// however it is spelled, is refused; Brand is one of kondate.Brands;
// Last4 is four ASCII digits; and no error repeats the rejected value.
func testCardData(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	pm := func(ref, brand, last4 string) kondate.NewPaymentMethod {
		return kondate.NewPaymentMethod{Provider: "stripe", ProviderRef: ref, Brand: brand, Last4: last4}
	}
	for _, tc := range []struct {
		name, field string
		in          kondate.NewPaymentMethod
		secret      string // must not appear in the error
	}{
		{"plain number", "ProviderRef", pm("4111111111111111", "visa", "1111"), "4111111111111111"},
		{"dots", "ProviderRef", pm("4111.1111.1111.1111", "visa", "1111"), "4111.1111"},
		{"dashes", "ProviderRef", pm("4111-1111-1111-1111", "visa", "1111"), "4111-1111"},
		{"slashes", "ProviderRef", pm("4111/1111/1111/1111", "visa", "1111"), "4111/1111"},
		{"underscores", "ProviderRef", pm("4111_1111_1111_1111", "visa", "1111"), "4111_1111"},
		{"prefixed", "ProviderRef", pm("pm_4111_1111_1111_1111", "visa", "1111"), "4111_1111"},
		{"full-width digits", "ProviderRef", pm("４１１１１１１１１１１１１１１１", "visa", "1111"), "４１１１"},
		{"full-width separators", "ProviderRef", pm("4111－1111－1111－1111", "visa", "1111"), "4111－1111"},
		{"amex", "ProviderRef", pm("3782-822463-10005", "amex", "0005"), "822463"},
		{"white space", "ProviderRef", pm("4111 1111 1111 1111", "visa", "1111"), "4111 1111"},
		{"number as brand", "Brand", pm("pm_1N", "4111111111111111", "1111"), "4111111111111111"},
		{"unknown brand", "Brand", pm("pm_1N", "Visa", "1111"), "Visa"},
		{"number as last4", "Last4", pm("pm_1N", "visa", "4111111111111111"), "4111111111111111"},
		{"full-width last4", "Last4", pm("pm_1N", "visa", "４２４２"), "４２４２"},
		{"three digits", "Last4", pm("pm_1N", "visa", "424"), "424"},
		{"wallet with a number as last4", "Last4", pm("paypay_wallet_1", "", "4111 1111"), "4111 1111"},
	} {
		_, err := s.AddPaymentMethod(ctx, user, tc.in)
		wantField(t, tc.name, err, tc.field)
		if strings.Contains(err.Error(), tc.secret) {
			t.Errorf("%s: error %q repeats the rejected value", tc.name, err)
		}
	}
	assertEmpty(t, s, user)
	for _, ref := range []string{"pm_1N", "pm_1OqXyZ2eZvKYlo2C", "cus_1234567812345678x", "1234-5678-9012"} {
		if _, err := s.AddPaymentMethod(ctx, user, pm(ref, "jcb", "4242")); err != nil {
			t.Errorf("ProviderRef %q: %v; want it stored", ref, err)
		}
	}
	// A wallet or a bank method has no card number: no Last4, no Brand.
	w, err := s.AddPaymentMethod(ctx, user, kondate.NewPaymentMethod{Provider: "paypay", ProviderRef: "wallet_1"})
	if err != nil || w.Last4 != "" || w.Brand != "" {
		t.Fatalf("AddPaymentMethod of a wallet = %+v, %v; want it stored without Last4", w, err)
	}
	page, err := s.ListPaymentMethods(ctx, user, ddbkit.PageOptions{})
	if err != nil || !slices.ContainsFunc(page.Items, func(m kondate.PaymentMethod) bool { return m == w }) {
		t.Fatalf("ListPaymentMethods = %+v, %v; want the wallet %+v", page, err, w)
	}
}

// testLinksAndNames: links that pages render are http or https; names
// that pages show hold no control characters.
func testLinksAndNames(t *testing.T, s kondate.Store) {
	ctx := t.Context()
	for _, tc := range []struct {
		name, field string
		call        func() error
	}{
		{"javascript: source", "SourceURL", func() error {
			_, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: "r_1", SourceURL: "javascript:alert(1)"})
			return err
		}},
		{"data: source", "SourceURL", func() error {
			_, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: "r_1", SourceURL: "data:text/html,x"})
			return err
		}},
		{"author with a newline", "AuthorName", func() error {
			_, err := s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe, TargetID: "r_1", AuthorName: "a\nb"})
			return err
		}},
		{"display name with a control", "DisplayName", func() error {
			_, err := s.UpdateProfile(ctx, user, kondate.ProfilePatch{DisplayName: ptr("a\x1bb")})
			return err
		}},
		{"javascript: avatar", "AvatarURL", func() error {
			_, err := s.UpdateProfile(ctx, user, kondate.ProfilePatch{AvatarURL: ptr("javascript:alert(1)")})
			return err
		}},
	} {
		wantField(t, tc.name, tc.call(), tc.field)
	}
	assertEmpty(t, s, user)
	assertCatalogEmpty(t, s)
	l := must[kondate.ShareLink](t, "CreateShareLink")(s.CreateShareLink(ctx, user, kondate.NewShareLink{TargetType: kondate.KindRecipe,
		TargetID: "r_1", AuthorName: "山田花子", SourceURL: "https://example.com/recipes/1"}))
	wantEqual(t, "source", l.SourceURL, "https://example.com/recipes/1")
}

// testShortCursorSecret: a CursorSecret of 1 to 15 bytes fails every
// listing with ErrInvalidArgument naming CursorSecret.
func testShortCursorSecret(t *testing.T, newStore NewStore) {
	s := newStore(t, kondate.AllIndexes, func(o *kondate.Options) { o.CursorSecret = []byte("fifteen bytes!!") })
	ctx := t.Context()
	_, err := s.ListRecipes(ctx, user, ddbkit.PageOptions{})
	wantField(t, "ListRecipes with a 15-byte secret", err, "CursorSecret")
	_, err = s.ListCatalogNewest(ctx, kondate.KindRecipe, kondate.CatalogQuery{Tag: "x"})
	wantField(t, "ListCatalogNewest with a 15-byte secret", err, "CursorSecret")
	ok := newStore(t, kondate.AllIndexes, func(o *kondate.Options) { o.CursorSecret = []byte("sixteen bytes!!!") })
	if _, err := ok.ListRecipes(ctx, user, ddbkit.PageOptions{}); err != nil {
		t.Fatalf("ListRecipes with a 16-byte secret: %v", err)
	}
}
