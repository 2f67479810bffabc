package kondate

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/backend"
)

// PutRaw stores item in s as it is, unchecked: what Import refuses, so
// that a test can hold a memory store that holds a corrupt item (as a
// table another program wrote does) to what DynamoStore reads.
func PutRaw(s *MemoryStore, item map[string]types.AttributeValue) {
	if err := s.m.Import(s.o.TableName, []map[string]types.AttributeValue{item}); err != nil {
		panic(err)
	}
}

// DecodeItem decodes item as s's stores read it: the value of its kind
// (Recipe, CatalogEntry…), or an error. ok is false for an item of no
// kind of the design, which no operation reads.
func DecodeItem(s *MemoryStore, item map[string]types.AttributeValue) (v any, ok bool, err error) {
	pk, _ := backend.Str(item, AttrPK)
	sk, _ := backend.Str(item, AttrSK)
	dec := decoderOf(pk, sk)
	if dec == nil {
		return nil, false, nil
	}
	v, err = dec(s.t, item)
	return v, true, err
}

// EncodeItem writes v, a value DecodeItem returned for like, in ddbkit's
// own layout, as the stores write that kind: the fuzz targets' round trip.
// A catalog entry is written as the item like is (the catalog item in
// like's partition, or the creator's copy).
func EncodeItem(v any, like map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	switch v := v.(type) {
	case Profile:
		return marshal(profileItem{keyAttrs{userPK(v.UserID), skProfile}, v.DisplayName, v.AvatarURL, ts(v.CreatedAt), ts(v.UpdatedAt)})
	case Recipe:
		return marshal(recipeItem{keyAttrs{userPK(v.UserID), skRecipe + v.ID}, gsi1Attrs{gsi1PK(entityRecipe, v.ID), gsi1Owner + v.UserID},
			v.Title, list(v.Ingredients), list(v.Steps), list(v.Tags), v.Origin, ts(v.CreatedAt), ts(v.UpdatedAt), ts(v.PublishedAt)})
	case Set:
		return marshal(setItem{keyAttrs{userPK(v.UserID), skSet + v.ID}, gsi1Attrs{gsi1PK(entitySet, v.ID), gsi1Owner + v.UserID},
			v.Title, list(v.Items), list(v.Tags), ts(v.CreatedAt), ts(v.UpdatedAt), ts(v.PublishedAt)})
	case Plan:
		return marshal(planItem{keyAttrs{userPK(v.UserID), planSK(v.Slot)}, v.SetID, v.SetTitle, ts(v.AppliedAt), list(v.Items), ts(v.UpdatedAt)})
	case ShoppingItem:
		return marshal(shoppingItem{keyAttrs{userPK(v.UserID), skShopping + v.ID}, v.Name, v.Quantity, v.Checked,
			ts(v.CompletedAt), ts(v.CreatedAt), ts(v.UpdatedAt)})
	case FridgeItem:
		return marshal(fridgeItem{keyAttrs{userPK(v.UserID), skFridge + v.ID}, v.Name, v.Quantity, v.ExpiryDate,
			ts(v.CreatedAt), ts(v.UpdatedAt), ""})
	case DeletedFridgeItem:
		return marshal(fridgeItem{keyAttrs{userPK(v.UserID), skFridgeDeleted + v.Ref}, v.Name, v.Quantity, v.ExpiryDate,
			ts(v.CreatedAt), ts(v.UpdatedAt), ts(v.DeletedAt)})
	case Category:
		return marshal(categoryItem{keyAttrs{userPK(v.UserID), categorySK(v.Scope, v.ID)}, v.Name, ts(v.CreatedAt), ts(v.UpdatedAt)})
	case CookLog:
		return marshal(cookLogItem{keyAttrs{userPK(v.UserID), cookLogSK(v.Date, v.ID)}, v.RecipeID, v.Title, v.Note, ts(v.CreatedAt)})
	case PaymentMethod:
		return marshal(paymentMethodItem{keyAttrs{userPK(v.UserID), skPaymentMethod + v.ID}, v.Provider, v.ProviderRef, v.Brand, v.Last4, ts(v.CreatedAt)})
	case Purchase:
		return marshal(purchaseItem{keyAttrs{userPK(v.UserID), purchaseSK(v.PurchasedAt, v.ID)}, v.ProductID, v.Amount, v.Currency,
			v.PaymentMethodID, ts(v.PurchasedAt)})
	case Subscription:
		return marshal(subscriptionItem{keyAttrs{userPK(v.UserID), skSubscription}, v.Plan, v.Status, ts(v.CurrentPeriodEnd), ts(v.UpdatedAt)})
	case Notification:
		return marshal(notificationItem{keyAttrs{userPK(v.UserID), skNotification + v.Ref}, v.Kind, v.Title, v.Body, ts(v.CreatedAt), ts(v.ReadAt)})
	case NotificationSettings:
		return marshal(notificationSettingsItem{keyAttrs{userPK(v.UserID), skNotifSettings}, v.PushEnabled, v.EmailEnabled, ts(v.UpdatedAt)})
	case PushToken:
		return marshal(pushTokenItem{keyAttrs{userPK(v.UserID), pushTokenSK(v.Platform, v.Token)}, string(v.Platform), v.Token, ts(v.CreatedAt), ts(v.UpdatedAt)})
	case CatalogEntry:
		if pk, _ := backend.Str(like, AttrPK); strings.HasPrefix(pk, catalogPrefix) {
			cat, _, err := entryItems(v, pk)
			return cat, err
		}
		_, cp, err := entryItems(v, catalogPrefix+string(v.Kind)) // the seed's layout: no shards
		return cp, err
	case SavedEntry:
		return marshal(savedItem{keyAttrs{userPK(v.UserID), savedSK(v.Kind, v.ID)}, gsi1Attrs{gsi1PK(string(v.Kind), v.ID), gsi1Saved + v.UserID},
			string(v.Kind), v.CreatorID, v.Title, ts(v.SavedAt)})
	case ShareLink:
		k := shareKey(v.ID)
		return marshal(shareItem{keyAttrs{k.PK, k.SK}, string(v.TargetType), v.TargetID, v.AuthorName, v.SourceURL, v.CreatedBy, ts(v.CreatedAt)})
	}
	return nil, fmt.Errorf("EncodeItem: no layout for %T", v)
}
