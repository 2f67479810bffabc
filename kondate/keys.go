package kondate

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// The seed's key formats (section 4.1 and GSI1 of section 5). Every part
// that comes from input is validated first (no '#'), so plain joins make
// keys that split back into their parts.
const (
	userPrefix      = "USER#"
	skProfile       = "PROFILE#"
	skRecipe        = "RECIPE#"
	skSet           = "SET#"
	skPlan          = "PLAN#"
	skShopping      = "SHOPPING#"
	skFridge        = "FRIDGE#"
	skFridgeDeleted = "FRIDGE_DELETED#"
	skCategory      = "CATEGORY#"
	skCookLog       = "COOKLOG#"
	skPaymentMethod = "PAYMENT_METHOD#"
	skPurchase      = "PURCHASE#"
	skPurchaseTxn   = "PURCHASE_TXN#" // ddbkit's guard of a transaction ID: see RecordPurchase
	skSubscription  = "SUBSCRIPTION#ACTIVE"
	skNotification  = "NOTIFICATION#"
	skNotifSettings = "NOTIFICATION_SETTINGS#"
	skPushToken     = "PUSH_TOKEN#"

	gsi1Entity = "ENTITY#"
	gsi1Owner  = "OWNER#"

	entityRecipe = "RECIPE"
	entitySet    = "SET"
)

// itemKey is the key of one item.
type itemKey = backend.Key

func userPK(userID string) string { return userPrefix + userID }

func key(userID, sk string) itemKey { return itemKey{PK: userPK(userID), SK: sk} }

// keyTime is the one format of a time inside a key: ISO 8601 UTC with
// exactly three fractional digits (keys.Timestamp), so keys sort as times.
func keyTime(t time.Time) string { return keys.Timestamp(t) }

func planSK(slot PlanSlot) string                      { return skPlan + string(slot) }
func categorySK(scope CategoryScope, id string) string { return skCategory + string(scope) + "#" + id }
func cookLogSK(date, id string) string                 { return skCookLog + date + "#" + id }
func fridgeDeletedSK(at time.Time, id string) string {
	return skFridgeDeleted + keyTime(at) + "#" + id
}
func purchaseSK(at time.Time, id string) string     { return skPurchase + keyTime(at) + "#" + id }
func notificationSK(at time.Time, id string) string { return skNotification + keyTime(at) + "#" + id }
func pushTokenSK(p Platform, token string) string {
	return skPushToken + string(p) + "#" + tokenHash(token)
}

// tokenHash is the SHA-256 of a push token, in lower-case hex.
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

func gsi1PK(entity, id string) string { return gsi1Entity + entity + "#" + id }

// userQuery lists the items of a user whose sort keys begin with prefix.
// Listings read consistently, as the memory store does.
func userQuery(t ddb.Table, userID, prefix string, newestFirst bool) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: userPK(userID), Sort: ddb.SortBeginsWith(prefix),
		Descending: newestFirst, ConsistentRead: true}
}

// ownerQuery finds the owner of an entity on GSI1.
func ownerQuery(t ddb.Table, entity, id string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, Index: indexGSI1, PartitionValue: gsi1PK(entity, id), Sort: ddb.SortBeginsWith(gsi1Owner)}
}

// lastPart returns what follows the last '#' of a sort key that begins
// with prefix, or "" when sk does not.
func lastPart(sk, prefix string) string {
	rest, ok := strings.CutPrefix(sk, prefix)
	if !ok {
		return ""
	}
	return rest[strings.LastIndexByte(rest, '#')+1:]
}
