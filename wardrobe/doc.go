// Package wardrobe stores a personal wardrobe app's clothes, outfit
// templates and wear history in one DynamoDB table, exactly as its design
// document (seed 004) lays them out, with wear statistics kept in daily
// counters, and an in-memory twin for unit tests.
//
// # Table
//
// One table, DefaultTableName "WardrobeTable" unless Options.TableName says
// otherwise, with String keys PK and SK and on-demand billing.
// CreateTableInput returns its definition; EnsureTable creates it if needed.
//
//	item        PK                          SK                 other attributes
//	wardrobe    W#<wardrobeId>              META               wardrobeId, name, createdAt
//	clothing    W#<wardrobeId>#CLOTH        CLOTH#<clothingId> clothingId, name, status, imageKey (if any),
//	                                                           wearCount, lastWornAt, createdAt, deletedAt,
//	                                                           + statsVersion and the status-list index keys
//	template    W#<wardrobeId>#TPL          TPL#<templateId>   templateId, name, status, clothingIds (List),
//	                                                           wearCount, lastWornAt, createdAt, deletedAt,
//	                                                           + statsVersion and the status-list index keys
//	history     W#<wardrobeId>#HIST         HIST#<historyId>   historyId, createdAt, date (yyyymmdd),
//	                                                           templateId (S or NULL), clothingIds (List), dateSk
//	counter     W#<wardrobeId>#COUNT#CLOTH#<clothingId>   DATE#<yyyymmdd>   date, count
//	            W#<wardrobeId>#COUNT#TPL#<templateId>     DATE#<yyyymmdd>   date, count
//
// Times are Unix milliseconds as Numbers; deletedAt is NULL unless the item
// is DELETED, lastWornAt is 0 until first worn. IDs are UUIDv7s made by
// the store.
//
// # Indexes
//
// The seed's four GSIs, each projecting all attributes. The seed names the
// status-list partition attribute statusListPk and leaves the others
// unnamed; these are the names chosen:
//
//	GSI                     partition (attribute)                              sort (attribute)
//	StatusListByCreatedAt   W#<w>#<CLOTH|TPL>#<ACTIVE|DELETED> (statusListPk)  CREATED#<13-digit ms>#<id> (createdAtSk)
//	StatusListByWearCount   same                                               WEAR#<10-digit count>#<id> (wearCountSk)
//	StatusListByLastWornAt  same                                               LASTWORN#<13-digit ms>#<id> (lastWornAtSk)
//	HistoryByDate           W#<w>#HIST (PK, the history's own)                 DATE#<yyyymmdd>#<historyId> (dateSk)
//
// Every write that changes status, wearCount or lastWornAt writes the
// matching index attributes in the same request, so an index entry is
// never stale. Every index sort key ends with the item's ID, so ties break
// by ID and pages are stable.
//
// # Access patterns
//
//	seed   method                           DynamoDB calls
//	AP-01  CreateWardrobe                   1 conditional PutItem
//	AP-02  GetWardrobe                      1 GetItem
//	AP-03  ListHistory (From..To)           1 Query on HistoryByDate + BatchGetItem for thumbnails
//	AP-04  ListClothes                      1 Query per page on the order's GSI
//	AP-05  GetClothing                      1 GetItem
//	AP-06  AddClothing                      1 TransactWriteItems (wardrobe check + Put)
//	AP-07  UpdateClothing                   1 UpdateItem
//	AP-08  DeleteClothing, RestoreClothing  1 conditional UpdateItem
//	AP-09  ListTemplates                    1 Query + ⌈distinct thumbnail clothes / 80⌉ BatchGetItem
//	AP-10  GetTemplate                      1 GetItem
//	AP-11  AddTemplate                      1 TransactWriteItems (wardrobe and clothes checks + Put)
//	AP-12  UpdateTemplate                   1 UpdateItem; 1 TransactWriteItems + 1 GetItem with new clothes
//	AP-13  DeleteTemplate, RestoreTemplate  1 conditional UpdateItem
//	AP-14  ListHistory                      1 Query + ⌈distinct thumbnail clothes / 80⌉ BatchGetItem
//	AP-15  GetHistory                       1 GetItem + 1 BatchGetItem
//	AP-16  AddHistory                       1 BatchGetItem + 1 TransactWriteItems (≤ 2 + 2×20 + 1 items)
//	AP-17  DeleteHistory                    1 GetItem + 1 BatchGetItem + 1 Query per item whose latest
//	                                        day loses its last wear + 1 TransactWriteItems
//	       ListDailyWear                    1 Query per page on one item's counters
//	       RecalculateStats                 1 GetItem + 1 Query per 1000 clothes or templates
//	                                        + 1 Query per item + 1 UpdateItem per drifted item
//
// AP-16 and AP-17 are read-modify-writes: the transaction is conditional on
// the statistics they read (the padded WEAR# key needs the new count), and
// they start over, up to Options.MaxAttempts times, when a concurrent write
// got in between; then they return ErrConflict. The condition is on
// statsVersion (Number), the one attribute this package adds to the seed's:
// every change of wearCount or lastWornAt increments it. wearCount and
// lastWornAt alone cannot serve, because they can return to the values a
// reader saw (a wear deleted, another added) while the day AP-17 recomputed
// for lastWornAt lost its last wear. Daily
// counters are incremented atomically and deleted, conditionally, when
// their last wear goes.
//
// # Decisions where the seed is silent
//
//   - Names (wardrobe, clothing, template) are one line of 1–40 characters,
//     counted as characters, not bytes, and not only white space. ImageKey
//     is optional, one line of up to 1024 characters. IDs passed in are
//     1–128 characters without '#', white space or control characters; they
//     need not be UUIDs.
//   - clothingIds hold 1–20 distinct IDs, in the caller's order. A history
//     names its clothes itself; TemplateID, when set, only records (and
//     counts) the template worn.
//   - A new outfit (AddTemplate, UpdateTemplate with a new list, AddHistory)
//     may name only ACTIVE clothes and templates of the same wardrobe,
//     checked when it commits; otherwise ErrInvalidArgument names the
//     field (e.g. "ClothingIDs[3]"). A template keeps the DELETED clothes it
//     already names until its list is replaced, and its thumbnails show
//     them with the deleted overlay. A clothing of another wardrobe has
//     another key, so it is simply unknown here.
//   - Deleting a DELETED item, or restoring an ACTIVE one, changes nothing
//     (deletedAt keeps its first value) and returns the item: a retried
//     request is harmless. Deleting an unknown item is ErrNotFound.
//     Statistics stay with DELETED items, and deleting a history that wore
//     one still takes the wear back.
//   - lastWornAt is the seed's dateToEpochMs: midnight UTC of the date.
//     Dates therefore run from 1970-01-02 (0 means never worn) to
//     2286-11-20 (the last midnight with 13 digits of milliseconds).
//     Which calendar day it is for the user is the caller's choice
//     (DateOf(time.Now().In(loc))).
//   - ListHistory and ListDailyWear select a date range with both ends
//     included, each optional; AP-03's last week is From=today.AddDays(-6),
//     To=today, Descending.
//   - Wardrobes are never deleted (the seed has no such pattern), so AP-16
//     checks the wardrobe in its read instead of in its transaction.
//   - Listings of an unknown wardrobe are empty, as a Query finds nothing.
//   - BatchGetItem takes at most 80 keys a call (the seed's unit), for
//     thumbnails and for AP-16/17's reads, with UnprocessedKeys retried.
//   - RecalculateStats trusts the daily counters (the ADR's source of
//     truth) and rewrites the cached wearCount and lastWornAt, with their
//     index keys, where they differ. It does not rebuild counters from
//     histories.
//   - GSI reads on DynamoDB are eventually consistent; base-table reads
//     are strongly consistent.
//
// # Errors
//
// Every error starts with "wardrobe: " and matches one of ddbkit's
// sentinels with errors.Is: ErrInvalidArgument (as a *ddbkit.ValidationError
// naming the field), ErrNotFound, ErrAlreadyExists, ErrConflict (a
// read-modify-write that kept losing races, or a transaction conflict) and
// ErrInvalidCursor. Bad input is refused before any write, so nothing is
// written.
package wardrobe
