package kondate

import (
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Every read decodes its items into the layout structs of items.go. The
// reflection of attributevalue.UnmarshalMap was the largest cost of a
// listing page, in the DynamoDB store and the memory store alike, so each
// layout also decodes directly (fastDecode) when every attribute it names
// has the type ddbkit writes: S for strings, BOOL, N holding an integer, L
// of S, L of M of S. On anything else (NULL, a string set, a number where a
// string belongs), the fast path gives up and the item is decoded by
// ddb.Unmarshal, which accepts what attributevalue accepts and names the
// attribute of a corrupt item. The two paths give the same struct for
// every item the fast one takes: attributes the struct does not name are
// ignored, and missing ones are zero, as attributevalue does.

// fastDecoder is a layout struct that can decode itself directly.
type fastDecoder interface {
	fastDecode(item ddb.Item) bool
}

// fast reads attributes of ddbkit's own types; ok turns false at the first
// one of another type.
type fast struct {
	item ddb.Item
	ok   bool
}

func newFast(item ddb.Item) fast { return fast{item: item, ok: true} }

func (f *fast) str(name string) string {
	switch v := f.item[name].(type) {
	case nil:
		return ""
	case *types.AttributeValueMemberS:
		return v.Value
	}
	f.ok = false
	return ""
}

func (f *fast) boolean(name string) bool {
	switch v := f.item[name].(type) {
	case nil:
		return false
	case *types.AttributeValueMemberBOOL:
		return v.Value
	}
	f.ok = false
	return false
}

func (f *fast) int64(name string) int64 {
	switch v := f.item[name].(type) {
	case nil:
		return 0
	case *types.AttributeValueMemberN:
		n, err := strconv.ParseInt(v.Value, 10, 64)
		if err == nil {
			return n
		}
	}
	f.ok = false
	return 0
}

// list returns the L attribute name, nil when it is missing.
func (f *fast) list(name string) []types.AttributeValue {
	switch v := f.item[name].(type) {
	case nil:
		return nil
	case *types.AttributeValueMemberL:
		return v.Value
	}
	f.ok = false
	return nil
}

func (f *fast) strs(name string) []string {
	l := f.list(name)
	if l == nil {
		return nil
	}
	out := make([]string, len(l))
	for i, v := range l {
		s, ok := v.(*types.AttributeValueMemberS)
		if !ok {
			f.ok = false
			return nil
		}
		out[i] = s.Value
	}
	return out
}

// maps decodes a list of maps of strings, each with fields a and b.
func fastPairs[T any](f *fast, name, a, b string, mk func(a, b string) T) []T {
	l := f.list(name)
	if l == nil {
		return nil
	}
	out := make([]T, len(l))
	for i, v := range l {
		m, ok := v.(*types.AttributeValueMemberM)
		if !ok {
			f.ok = false
			return nil
		}
		g := fast{item: m.Value, ok: true}
		out[i] = mk(g.str(a), g.str(b))
		if !g.ok {
			f.ok = false
			return nil
		}
	}
	return out
}

func (f *fast) ingredients(name string) []Ingredient {
	return fastPairs(f, name, "name", "amount", func(a, b string) Ingredient { return Ingredient{Name: a, Amount: b} })
}

func (f *fast) setItems(name string) []SetItem {
	return fastPairs(f, name, "recipeId", "title", func(a, b string) SetItem { return SetItem{RecipeID: a, Title: b} })
}

func (f *fast) keys() keyAttrs { return keyAttrs{PK: f.str(AttrPK), SK: f.str(AttrSK)} }

func (f *fast) gsi1() gsi1Attrs {
	return gsi1Attrs{GSI1PK: f.str(AttrGSI1PK), GSI1SK: f.str(AttrGSI1SK)}
}

// done stores v in out when every attribute decoded.
func done[T any](f *fast, out *T, v T) bool {
	if f.ok {
		*out = v
	}
	return f.ok
}

func (it *profileItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, profileItem{keyAttrs: f.keys(), DisplayName: f.str("displayName"), AvatarURL: f.str("avatarUrl"),
		CreatedAt: f.str(attrCreatedAt), UpdatedAt: f.str(attrUpdatedAt)})
}

func (it *recipeItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, recipeItem{keyAttrs: f.keys(), gsi1Attrs: f.gsi1(), Title: f.str("title"),
		Ingredients: f.ingredients("ingredients"), Steps: f.strs("steps"), Tags: f.strs("tags"), Origin: f.str("origin"),
		CreatedAt: f.str(attrCreatedAt), UpdatedAt: f.str(attrUpdatedAt), PublishedAt: f.str(attrPublishedAt)})
}

func (it *setItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, setItem{keyAttrs: f.keys(), gsi1Attrs: f.gsi1(), Title: f.str("title"), Items: f.setItems("items"),
		Tags: f.strs("tags"), CreatedAt: f.str(attrCreatedAt), UpdatedAt: f.str(attrUpdatedAt), PublishedAt: f.str(attrPublishedAt)})
}

func (it *planItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, planItem{keyAttrs: f.keys(), SetID: f.str("setId"), SetTitle: f.str("setTitle"),
		AppliedAt: f.str("appliedAt"), Items: f.setItems("items"), UpdatedAt: f.str(attrUpdatedAt)})
}

func (it *shoppingItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, shoppingItem{keyAttrs: f.keys(), Name: f.str("name"), Quantity: f.str("quantity"),
		Checked: f.boolean("checked"), CompletedAt: f.str("completedAt"), CreatedAt: f.str(attrCreatedAt), UpdatedAt: f.str(attrUpdatedAt)})
}

func (it *fridgeItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, fridgeItem{keyAttrs: f.keys(), Name: f.str("name"), Quantity: f.str("quantity"),
		ExpiryDate: f.str("expiryDate"), CreatedAt: f.str(attrCreatedAt), UpdatedAt: f.str(attrUpdatedAt), DeletedAt: f.str(attrDeletedAt)})
}

func (it *categoryItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, categoryItem{keyAttrs: f.keys(), Name: f.str("name"), CreatedAt: f.str(attrCreatedAt), UpdatedAt: f.str(attrUpdatedAt)})
}

func (it *cookLogItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, cookLogItem{keyAttrs: f.keys(), RecipeID: f.str("recipeId"), Title: f.str("title"), Note: f.str("note"),
		CreatedAt: f.str(attrCreatedAt)})
}

func (it *paymentMethodItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, paymentMethodItem{keyAttrs: f.keys(), Provider: f.str("provider"), ProviderRef: f.str("providerRef"),
		Brand: f.str("brand"), Last4: f.str("last4"), CreatedAt: f.str(attrCreatedAt)})
}

func (it *purchaseItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, purchaseItem{keyAttrs: f.keys(), ProductID: f.str("productId"), Amount: f.int64("amount"),
		Currency: f.str("currency"), PaymentMethodID: f.str("paymentMethodId"), PurchasedAt: f.str("purchasedAt")})
}

func (it *subscriptionItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, subscriptionItem{keyAttrs: f.keys(), Plan: f.str("plan"), Status: f.str("status"),
		CurrentPeriodEnd: f.str("currentPeriodEnd"), UpdatedAt: f.str(attrUpdatedAt)})
}

func (it *notificationItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, notificationItem{keyAttrs: f.keys(), Kind: f.str("kind"), Title: f.str("title"), Body: f.str("body"),
		CreatedAt: f.str(attrCreatedAt), ReadAt: f.str("readAt")})
}

func (it *notificationSettingsItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, notificationSettingsItem{keyAttrs: f.keys(), PushEnabled: f.boolean("pushEnabled"),
		EmailEnabled: f.boolean("emailEnabled"), UpdatedAt: f.str(attrUpdatedAt)})
}

func (it *pushTokenItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, pushTokenItem{keyAttrs: f.keys(), Platform: f.str("platform"), Token: f.str("token"),
		CreatedAt: f.str(attrCreatedAt), UpdatedAt: f.str(attrUpdatedAt)})
}

func (it *catalogItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, catalogItem{keyAttrs: f.keys(), GSI1PK: f.str(AttrGSI1PK), GSI1SK: f.str(AttrGSI1SK),
		GSI2PK: f.str(AttrGSI2PK), GSI2SK: f.str(AttrGSI2SK), GSI3PK: f.str(AttrGSI3PK), GSI3SK: f.str(AttrGSI3SK),
		EntityType: f.str("entityType"), CreatorID: f.str("creatorId"), Title: f.str("title"), Tags: f.strs("tags"),
		Ingredients: f.ingredients("ingredients"), Steps: f.strs("steps"), Origin: f.str("origin"), Items: f.setItems("items"),
		SavedCount: f.int64(attrSavedCount), CreatedAt: f.str(attrCreatedAt)})
}

func (it *savedItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, savedItem{keyAttrs: f.keys(), gsi1Attrs: f.gsi1(), EntityType: f.str("entityType"),
		CreatorID: f.str("creatorId"), Title: f.str("title"), SavedAt: f.str("savedAt")})
}

func (it *shareItem) fastDecode(item ddb.Item) bool {
	f := newFast(item)
	return done(&f, it, shareItem{keyAttrs: f.keys(), TargetType: f.str("targetType"), TargetID: f.str("targetId"),
		AuthorName: f.str("authorName"), SourceURL: f.str("sourceUrl"), CreatedBy: f.str("createdBy"), CreatedAt: f.str(attrCreatedAt)})
}

// parseCanonical parses the one format ddbkit writes,
// 2026-02-09T10:00:00.000Z, without time.Parse's layout interpretation,
// which was a quarter of a listing page's CPU on the memory store. It
// reports false for anything else, or any value out of range, which the
// caller then parses with keys.ParseTime: it gives what keys.ParseTime
// gives wherever it reports true.
func parseCanonical(s string) (time.Time, bool) {
	if len(s) != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' || s[23] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, sec, ms := num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2), num(20, 3)
	if y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ms*int(time.Millisecond), time.UTC)
	if t.Day() != d { // the 30th of February, say: time.Parse refuses it
		return time.Time{}, false
	}
	return t, true
}
