package kondate

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Each layout struct also encodes itself directly (fastEncode), to the very
// item attributevalue.MarshalMap makes of it (fastencode_test.go holds the
// two to each other): a string is an S, "" included, a bool a BOOL, an
// int64 an N, a nil list NULL and any other an L, and an omitempty field
// is left out when empty (a string "", a list nil). The reflection of MarshalMap was most of a
// create's CPU on top of its call (issue 15).

type fastEncoder interface {
	fastEncode() ddb.Item
}

// enc builds an item of about n attributes.
type enc ddb.Item

func newEnc(n int) enc { return make(enc, n) }

func (e enc) str(name, v string) { e[name] = &types.AttributeValueMemberS{Value: v} }

// opt sets an omitempty string.
func (e enc) opt(name, v string) {
	if v != "" {
		e.str(name, v)
	}
}

func (e enc) boolean(name string, v bool) { e[name] = &types.AttributeValueMemberBOOL{Value: v} }

func (e enc) int64(name string, v int64) {
	e[name] = &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

var null = &types.AttributeValueMemberNULL{Value: true}

func encList[T any](e enc, name string, vs []T, omitEmpty bool, each func(T) types.AttributeValue) {
	switch {
	case omitEmpty && vs == nil: // attributevalue keeps an empty non-nil list
	case vs == nil:
		e[name] = null
	default:
		l := make([]types.AttributeValue, len(vs))
		for i, v := range vs {
			l[i] = each(v)
		}
		e[name] = &types.AttributeValueMemberL{Value: l}
	}
}

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func (e enc) strs(name string, vs []string, omitEmpty bool) { encList(e, name, vs, omitEmpty, sv) }

func (e enc) ingredients(name string, vs []Ingredient, omitEmpty bool) {
	encList(e, name, vs, omitEmpty, func(i Ingredient) types.AttributeValue {
		return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"name": sv(i.Name), "amount": sv(i.Amount)}}
	})
}

func (e enc) setItems(name string, vs []SetItem, omitEmpty bool) {
	encList(e, name, vs, omitEmpty, func(i SetItem) types.AttributeValue {
		return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"recipeId": sv(i.RecipeID), "title": sv(i.Title)}}
	})
}

func (e enc) keys(k keyAttrs) {
	e.str(AttrPK, k.PK)
	e.str(AttrSK, k.SK)
}

func (e enc) gsi1(g gsi1Attrs) {
	e.str(AttrGSI1PK, g.GSI1PK)
	e.str(AttrGSI1SK, g.GSI1SK)
}

func (it profileItem) fastEncode() ddb.Item {
	e := newEnc(6)
	e.keys(it.keyAttrs)
	e.str("displayName", it.DisplayName)
	e.str("avatarUrl", it.AvatarURL)
	e.str(attrCreatedAt, it.CreatedAt)
	e.str(attrUpdatedAt, it.UpdatedAt)
	return ddb.Item(e)
}

func (it recipeItem) fastEncode() ddb.Item {
	e := newEnc(12)
	e.keys(it.keyAttrs)
	e.gsi1(it.gsi1Attrs)
	e.str("title", it.Title)
	e.ingredients("ingredients", it.Ingredients, false)
	e.strs("steps", it.Steps, false)
	e.strs("tags", it.Tags, false)
	e.str("origin", it.Origin)
	e.str(attrCreatedAt, it.CreatedAt)
	e.str(attrUpdatedAt, it.UpdatedAt)
	e.opt(attrPublishedAt, it.PublishedAt)
	return ddb.Item(e)
}

func (it setItem) fastEncode() ddb.Item {
	e := newEnc(10)
	e.keys(it.keyAttrs)
	e.gsi1(it.gsi1Attrs)
	e.str("title", it.Title)
	e.setItems("items", it.Items, false)
	e.strs("tags", it.Tags, false)
	e.str(attrCreatedAt, it.CreatedAt)
	e.str(attrUpdatedAt, it.UpdatedAt)
	e.opt(attrPublishedAt, it.PublishedAt)
	return ddb.Item(e)
}

func (it planItem) fastEncode() ddb.Item {
	e := newEnc(7)
	e.keys(it.keyAttrs)
	e.str("setId", it.SetID)
	e.str("setTitle", it.SetTitle)
	e.opt("appliedAt", it.AppliedAt)
	e.setItems("items", it.Items, false)
	e.str(attrUpdatedAt, it.UpdatedAt)
	return ddb.Item(e)
}

func (it shoppingItem) fastEncode() ddb.Item {
	e := newEnc(8)
	e.keys(it.keyAttrs)
	e.str("name", it.Name)
	e.str("quantity", it.Quantity)
	e.boolean("checked", it.Checked)
	e.opt("completedAt", it.CompletedAt)
	e.str(attrCreatedAt, it.CreatedAt)
	e.str(attrUpdatedAt, it.UpdatedAt)
	return ddb.Item(e)
}

func (it fridgeItem) fastEncode() ddb.Item {
	e := newEnc(9)
	e.keys(it.keyAttrs)
	e.str("name", it.Name)
	e.str("quantity", it.Quantity)
	e.str("expiryDate", it.ExpiryDate)
	e.str(attrCreatedAt, it.CreatedAt)
	e.str(attrUpdatedAt, it.UpdatedAt)
	e.opt(attrDeletedAt, it.DeletedAt)
	return ddb.Item(e)
}

func (it categoryItem) fastEncode() ddb.Item {
	e := newEnc(5)
	e.keys(it.keyAttrs)
	e.str("name", it.Name)
	e.str(attrCreatedAt, it.CreatedAt)
	e.str(attrUpdatedAt, it.UpdatedAt)
	return ddb.Item(e)
}

func (it cookLogItem) fastEncode() ddb.Item {
	e := newEnc(6)
	e.keys(it.keyAttrs)
	e.str("recipeId", it.RecipeID)
	e.str("title", it.Title)
	e.str("note", it.Note)
	e.str(attrCreatedAt, it.CreatedAt)
	return ddb.Item(e)
}

func (it paymentMethodItem) fastEncode() ddb.Item {
	e := newEnc(7)
	e.keys(it.keyAttrs)
	e.str("provider", it.Provider)
	e.str("providerRef", it.ProviderRef)
	e.str("brand", it.Brand)
	e.str("last4", it.Last4)
	e.str(attrCreatedAt, it.CreatedAt)
	return ddb.Item(e)
}

func (it purchaseItem) fastEncode() ddb.Item {
	e := newEnc(7)
	e.keys(it.keyAttrs)
	e.str("productId", it.ProductID)
	e.int64("amount", it.Amount)
	e.str("currency", it.Currency)
	e.str("paymentMethodId", it.PaymentMethodID)
	e.str("purchasedAt", it.PurchasedAt)
	return ddb.Item(e)
}

func (it subscriptionItem) fastEncode() ddb.Item {
	e := newEnc(6)
	e.keys(it.keyAttrs)
	e.str("plan", it.Plan)
	e.str("status", it.Status)
	e.opt("currentPeriodEnd", it.CurrentPeriodEnd)
	e.str(attrUpdatedAt, it.UpdatedAt)
	return ddb.Item(e)
}

func (it notificationItem) fastEncode() ddb.Item {
	e := newEnc(7)
	e.keys(it.keyAttrs)
	e.str("kind", it.Kind)
	e.str("title", it.Title)
	e.str("body", it.Body)
	e.str(attrCreatedAt, it.CreatedAt)
	e.opt("readAt", it.ReadAt)
	return ddb.Item(e)
}

func (it notificationSettingsItem) fastEncode() ddb.Item {
	e := newEnc(5)
	e.keys(it.keyAttrs)
	e.boolean("pushEnabled", it.PushEnabled)
	e.boolean("emailEnabled", it.EmailEnabled)
	e.str(attrUpdatedAt, it.UpdatedAt)
	return ddb.Item(e)
}

func (it pushTokenItem) fastEncode() ddb.Item {
	e := newEnc(6)
	e.keys(it.keyAttrs)
	e.str("platform", it.Platform)
	e.str("token", it.Token)
	e.str(attrCreatedAt, it.CreatedAt)
	e.str(attrUpdatedAt, it.UpdatedAt)
	return ddb.Item(e)
}

func (it catalogItem) fastEncode() ddb.Item {
	e := newEnc(18)
	e.keys(it.keyAttrs)
	e.opt(AttrGSI1PK, it.GSI1PK)
	e.opt(AttrGSI1SK, it.GSI1SK)
	e.str(AttrGSI2PK, it.GSI2PK)
	e.str(AttrGSI2SK, it.GSI2SK)
	e.opt(AttrGSI3PK, it.GSI3PK)
	e.opt(AttrGSI3SK, it.GSI3SK)
	e.str("entityType", it.EntityType)
	e.str("creatorId", it.CreatorID)
	e.str("title", it.Title)
	e.strs("tags", it.Tags, false)
	e.ingredients("ingredients", it.Ingredients, true)
	e.strs("steps", it.Steps, true)
	e.opt("origin", it.Origin)
	e.setItems("items", it.Items, true)
	e.int64(attrSavedCount, it.SavedCount)
	e.str(attrCreatedAt, it.CreatedAt)
	return ddb.Item(e)
}

func (it savedItem) fastEncode() ddb.Item {
	e := newEnc(8)
	e.keys(it.keyAttrs)
	e.gsi1(it.gsi1Attrs)
	e.str("entityType", it.EntityType)
	e.str("creatorId", it.CreatorID)
	e.str("title", it.Title)
	e.str("savedAt", it.SavedAt)
	return ddb.Item(e)
}

func (it shareItem) fastEncode() ddb.Item {
	e := newEnc(8)
	e.keys(it.keyAttrs)
	e.str("targetType", it.TargetType)
	e.str("targetId", it.TargetID)
	e.str("authorName", it.AuthorName)
	e.str("sourceUrl", it.SourceURL)
	e.str("createdBy", it.CreatedBy)
	e.str(attrCreatedAt, it.CreatedAt)
	return ddb.Item(e)
}
