// Package kondate stores a meal-planning app's user data on one DynamoDB
// table, as seed 003 (sections 1 to 4.1, 6 and 8) designs it: the
// repository layer that replaces the app's store.json. Every item of a
// user lives under PK = USER#<userId>; the sort key's prefix tells its
// kind. The catalog, share links, GSI2 and GSI3 (sections 4.2, 4.3 and 5)
// are not built yet.
//
// # Table
//
// MainTable (Options.TableName): String keys PK and SK, PAY_PER_REQUEST,
// server-side encryption enabled, GSI1 (GSI1PK/GSI1SK, all attributes)
// and TTL on the attribute ttl. Definition returns it; EnsureTable
// creates or reconciles it.
//
// # Items and access patterns
//
//	area           SK                                    operations (DynamoDB calls)
//	profile        PROFILE#                              get (GetItem); update, created on first update (UpdateItem)
//	recipes        RECIPE#<id>                           list newest first (Query, descending); get (GetItem);
//	                                                     find by ID (Query GSI1 + GetItem); create (PutItem);
//	                                                     update (UpdateItem); delete (DeleteItem)
//	sets           SET#<id>                              as recipes
//	plans          PLAN#CURRENT, PLAN#NEXT               get; update items (UpdateItem); apply a set
//	                                                     (GetItem + TransactWriteItems: check set, put plan);
//	                                                     promote NEXT to CURRENT (GetItem + TransactWriteItems)
//	shopping       SHOPPING#<id>                         list (Query); add; update; complete (UpdateItem)
//	fridge         FRIDGE#<id>                           list; add; update; delete (GetItem + TransactWriteItems)
//	fridge archive FRIDGE_DELETED#<deletedAt>#<id>       list newest first; restore (GetItem + TransactWriteItems)
//	categories     CATEGORY#<book|catalog>#<id>          list by scope; add; update; delete
//	cook logs      COOKLOG#<YYYY-MM-DD>#<logId>          add; a month (begins_with COOKLOG#YYYY-MM); a day
//	payments       PAYMENT_METHOD#<id>                   list; add; remove
//	               PURCHASE#<purchasedAt>#<id>           record; list newest first
//	               SUBSCRIPTION#ACTIVE                   get; set (PutItem)
//	notifications  NOTIFICATION#<createdAt>#<id>         list newest first; add; mark read (UpdateItem)
//	               NOTIFICATION_SETTINGS#                get; set (PutItem)
//	push tokens    PUSH_TOKEN#<platform>#<sha256(token)> register (UpdateItem, idempotent); unregister; list
//
// Recipes and sets also carry GSI1PK = ENTITY#RECIPE#<id> (ENTITY#SET#<id>)
// and GSI1SK = OWNER#<userId>, so FindRecipe and FindSet find an item by
// its ID alone: one Query of GSI1 for the owner, then one consistent
// GetItem. Every listing is one Query per page, strongly consistent, with
// opaque cursors bound to the listing (see Options.CursorSecret).
//
// Attributes are the seed's camelCase names: a recipe has title,
// ingredients (L of M {name, amount}), steps and tags (L of S), origin,
// createdAt and updatedAt; a plan setId, setTitle, appliedAt, items (L of M
// {recipeId, title}) and updatedAt. items.go lists every layout and how Go
// types map to DynamoDB types.
//
// # IDs and times
//
// IDs are ULIDs (NewULIDs), made by the store from its clock and monotonic
// within a millisecond, so a key that ends with an ID sorts in creation
// order: "newest first" is the sort key order, descending. Times are
// written as ISO 8601 UTC with exactly three fractional digits
// (2026-02-09T10:00:00.000Z), in attributes and in keys alike, so keys
// with a time sort as the times do.
//
// # Decisions taken where the seed is silent
//
//   - Notifications' read state (section 8, question 3) is an attribute,
//     readAt, of the notification item, not a separate item: a listing
//     then shows read state with the same single Query, marking read is
//     one UpdateItem, and nothing can be left behind when a notification
//     goes. Marking again keeps the first readAt.
//   - Deleted fridge items stay in the archive for DeletedFridgeRetention
//     (30 days): the archive item's ttl (N, epoch seconds) is deletedAt +
//     30 days, and DynamoDB's TTL removes it some time after. Delete and
//     restore move the item in one transaction whose delete is
//     conditioned on the item as read and whose put on a free key, so an
//     item is never in both places or in neither. Restoring needs the
//     DeletedAt the archive listing returns, because the key holds it.
//   - Payment methods hold no card data: only the provider, the provider's
//     token or ID for the method (providerRef), the brand and the last four
//     digits. A providerRef that looks like a card number (12 or more
//     digits in a row) is refused.
//   - Push tokens are keyed by the SHA-256 of the token (lower-case hex);
//     the token is an attribute, because sending needs it. Registering
//     again keeps createdAt and bumps updatedAt.
//   - A plan is read-modify-written: applying a set copies the set as read
//     and checks, in the same transaction, that the set's scalar
//     attributes (updatedAt among them) are unchanged. Promoting moves the
//     whole NEXT item, attributes ddbkit does not know included.
//   - Completing a shopping item sets checked and keeps the first
//     completedAt; the list is not cleared.
//   - Cook log dates are the user's calendar days, given by the caller as
//     YYYY-MM-DD; the store does not convert time zones.
//   - A listing leaves items it cannot decode out and reports them in
//     Page.Skipped (shared by all domains); a get of such an item returns
//     ErrCorruptItem naming the attribute.
//
// # Errors
//
// Every error matches exactly one ddbkit sentinel. Bad input is refused
// with ErrInvalidArgument before any call. Throttling, 5xx and lost
// responses are retried within Options.Retry; what is left is
// ErrUnavailable, as is an ended context. Each method's doc names the
// others.
//
// # Retries and idempotency keys
//
// Every transaction carries a ClientRequestToken and is retried with it,
// so a response lost on the network never applies it twice; with
// ddbkit.WithIdempotencyKey the token comes from the caller's key, and a
// repeated call that would write something else (a later appliedAt, say)
// fails with ErrConflict, and one that would write the very same succeeds
// without writing again. Creates recognise their own earlier write;
// updates set values (or keep the first one) and are safe to repeat;
// a delete whose response was lost takes the missing item as its own.
//
// # Other writers
//
// The seed's app writes this table too. ddbkit reads what it writes
// leniently: any ISO 8601 time, IDs (and, where the key holds them, times
// and dates) from the key when the attributes are missing, missing
// optional attributes as zero values, and unknown attributes kept when an
// item moves (plans, fridge). Another writer must keep:
//
//   - the key formats above; an item under another format is not listed,
//     or, if its prefix matches, is reported in Page.Skipped;
//   - GSI1PK and GSI1SK on recipes and sets, or FindRecipe and FindSet do
//     not find them;
//   - times inside keys in the one format above; other forms still list
//     and decode, but sort out of time order, and RestoreFridgeItem and
//     MarkNotificationRead, which rebuild the key from a time, cannot
//     address them;
//   - attribute types (S, N, BOOL, L as above); an attribute of another
//     type makes the item corrupt (ErrCorruptItem), never silently zero;
//   - updatedAt bumped on every change to a set, a NEXT plan or a fridge
//     item, because the transactions that move or copy them condition on
//     the scalar attributes read; a change to a list alone, without it,
//     is not detected.
package kondate
