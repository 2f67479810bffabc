// Package wardrobe stores a personal wardrobe app's clothes, outfit
// templates and wear history in one DynamoDB table laid out exactly as its
// design document (seed 004) says, and keeps each item's wear statistics
// (how often, and when last, it was worn) from daily counters.
// DynamoStore reads and writes that table; MemoryStore holds the same items
// in memory for unit tests and answers with the same results and errors.
//
//	ctx := context.Background()
//	s := wardrobe.NewMemoryStore() // on DynamoDB: wardrobe.NewDynamoStore(dynamodb.NewFromConfig(cfg))
//	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "My closet"})
//	if err != nil {
//		return err
//	}
//	shirt, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "White shirt"})
//	if err != nil {
//		return err
//	}
//	if _, err := s.AddHistory(ctx, w.ID, wardrobe.NewHistory{Date: "20260105", ClothingIDs: []string{shirt.ID}}); err != nil {
//		return err
//	}
//	page, err := s.ListClothes(ctx, w.ID, wardrobe.ListQuery{Order: wardrobe.OrderWearCount, Descending: true})
//	if err != nil {
//		return err
//	}
//	fmt.Println(page.Items[0].Name, page.Items[0].WearCount, page.Items[0].LastWornAt) // White shirt 1 20260105
//
// # Access patterns
//
//	seed   method                           DynamoDB calls
//	AP-01  CreateWardrobe                   1 TransactWriteItems (one conditional Put, with a token)
//	AP-02  GetWardrobe                      1 GetItem
//	AP-03  ListHistory (From..To)           1 Query on HistoryByDate + BatchGetItem for thumbnails
//	AP-04  ListClothes                      1 Query per page on the order's GSI
//	AP-05  GetClothing                      1 GetItem
//	AP-06  AddClothing                      1 TransactWriteItems (Put + wardrobe check)
//	AP-07  UpdateClothing                   1 UpdateItem
//	AP-08  DeleteClothing, RestoreClothing  1 conditional UpdateItem
//	AP-09  ListTemplates                    1 Query + ⌈distinct thumbnail clothes / 80⌉ BatchGetItem
//	AP-10  GetTemplate                      1 GetItem
//	AP-11  AddTemplate                      1 TransactWriteItems (Put + wardrobe and clothes checks)
//	AP-12  UpdateTemplate                   1 UpdateItem; with new clothes 1 GetItem + 1 TransactWriteItems
//	AP-13  DeleteTemplate, RestoreTemplate  1 conditional UpdateItem
//	AP-14  ListHistory                      1 Query + ⌈distinct thumbnail clothes / 80⌉ BatchGetItem
//	AP-15  GetHistory                       1 GetItem + 1 BatchGetItem
//	AP-16  AddHistory                       1 BatchGetItem + 1 TransactWriteItems (≤ 2 + 2×20 + 1 items)
//	AP-17  DeleteHistory                    1 GetItem + 1 BatchGetItem + 1 Query per item whose latest
//	                                        day loses its last wear (more only past counters at 0:
//	                                        see Bounded reads) + 1 TransactWriteItems
//	       ListDailyWear                    1 Query per page on one item's counters
//	       RecalculateStats                 1 GetItem + 1 Query per 1000 clothes or templates
//	                                        + 1 Query per item + 1 UpdateItem per drifted item
//
// # Table
//
// One table, DefaultTableName "WardrobeTable" unless Options.TableName says
// otherwise, with String keys PK and SK and on-demand billing.
// Definition returns its design; EnsureTable creates the table, or verifies
// an existing one (adding the GSIs it lacks only with schema.Apply).
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
//	record      IDEMPOTENCY#<32 hex>        IDEMPOTENCY#<32 hex>   fingerprint, refPK, refSK, expiresAt
//	            (only for a write under an idempotency key: see Idempotency keys)
//
// Times are Unix milliseconds as Numbers; deletedAt is NULL unless the item
// is DELETED, lastWornAt is 0 until first worn. IDs are UUIDv7s made by
// the store, stamped by Options.Clock as createdAt is. This is what the
// package writes; what it reads is wider (see Other writers).
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
// by ID and pages are stable. A table whose GSIs of these names have other
// key attributes cannot serve the listings: EnsureTable reports it as
// ddbkit.ErrSchemaMismatch and changes nothing.
//
// # Errors
//
// Every error starts with "wardrobe: " and matches exactly one of ddbkit's
// sentinels with errors.Is: ErrInvalidArgument (as a *ddbkit.ValidationError
// naming the field), ErrNotFound, ErrAlreadyExists (an item with the new
// item's key exists, whoever wrote it), ErrConflict (a read-modify-write
// that kept losing races, a transaction conflict that outlasted the retries;
// ErrIdempotencyKeyReused, an idempotency key reused for other arguments),
// ErrInvalidCursor, ErrCorruptItem (stored data that cannot be read),
// ErrUnavailable (throttling or 5xx through the retries, a context that
// ended) and ErrSchemaMismatch (a table or index missing, or other than
// Definition says: run EnsureTable). The cause stays reachable with
// errors.As, and a context's error still matches context.Canceled or
// context.DeadlineExceeded. Bad input is refused before any I/O, so nothing
// is written; so is an ended context, on both stores.
//
// # Raw items: Export and Import
//
// MemoryStore.Export returns the memory store's items in DynamoDB's
// attribute-value form (ddbkit.TableItems), exactly as DynamoStore writes
// them: a test can compare it with a Scan of the real table, attribute for
// attribute. MemoryStore.Import takes items in the seed's layout, as the
// seed's app or ddbkit writes them (for example items exported from a
// production table), and decodes them as leniently as DynamoStore reads them
// (with DynamoStore's own decode functions), so a test's memory store can
// start from real data. The memory store keeps the very items DynamoStore
// writes, and an imported item as it was imported (a lenient form, an
// attribute the design does not have), as DynamoDB would: Export returns it
// unchanged, and the listings show it by the index keys it holds, until a
// write rewrites them. An item DynamoStore could not read, or whose key is
// none of the design's, cannot be imported, nor one holding a nil attribute
// value anywhere: ErrCorruptItem, and nothing is imported.
//
// # Decisions where the seed is silent
//
//   - Names (wardrobe, clothing, template) are one line of 1–40 characters,
//     counted as characters, not bytes. ImageKey is optional, one line of up
//     to 1024 characters. IDs passed in are 1–128 characters of ddbkit's ID
//     alphabet (graphic, no white space, no '#'); they need not be UUIDs.
//   - Input is never trimmed: a value that passes is stored as given,
//     spaces included. A Name that is empty or only white space fails with
//     ErrInvalidArgument, "must not be empty or only white space".
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
//   - UpdateTemplate returns what it committed, never a read after its
//     commit: the template as the write left it (ALL_NEW), or, with new
//     clothes, the template as read just before the transaction with the
//     patch applied, the transaction being conditional on every attribute
//     it returns and does not set being unchanged.
//   - lastWornAt is the seed's dateToEpochMs: midnight of the date in
//     Options.Location (UTC by default; the seed's app likely uses
//     Asia/Tokyo). LastWornAt reads it back as a calendar Date in that
//     zone, "" if never worn. Dates run from 1970-01-02 (0 means never
//     worn) to 2286-11-20 (the last midnight with 13 digits of
//     milliseconds), in every zone. Which calendar day it is for the user
//     is the caller's choice (DateOf(time.Now().In(loc))).
//   - Date.AddDays reports a bad date, or a result out of range, with an
//     error, and then returns its receiver unchanged: a bad date never
//     becomes the zero Date, which ranges read as an open end.
//   - A clock at or before the epoch is a time like any other: createdAt 0
//     is the epoch, not "unset" (only a missing createdAt is unset).
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
//     index keys, where they differ: the count exactly, the last worn day
//     by calendar day in Options.Location. It does not rebuild counters
//     from histories.
//   - A listing leaves out the items it cannot decode and reports them in
//     Page.Skipped (the decision all ddbkit domains share): one bad item
//     written by another program does not hide the rest.
//   - GSI reads on DynamoDB are eventually consistent; base-table reads are
//     strongly consistent, except those Consistency and capacity names.
//
// # Limits on what is written
//
// Both stores refuse, before any call and with the same errors, what
// DynamoDB would refuse or no reader could read back: an item over
// DynamoDB's 400 KB (ErrInvalidArgument naming the caller's field that makes
// it large: ImageKey or Name, ClothingIDs), which the field limits (see
// Decisions where the seed is silent) already keep any valid input well
// under (a clothing or template stays under 20 KB, a bound the build checks,
// so a patch is not sized before it is sent; an item another writer made
// large is refused by DynamoDB, and by the memory store alike); a date
// outside MinDate to MaxDate (what yyyymmdd and the LASTWORN# key can hold:
// year 10000 is refused, naming the field); a time the store stamps
// (Options.Clock) outside the years 0001 to 9999 (naming Clock); names and
// image keys with control characters; a CursorSecret of 1 to 15 bytes (every
// listing fails with ErrInvalidArgument naming CursorSecret).
//
// # Consistency and capacity
//
// Each access pattern reads and writes the least its design allows
// (TestCapacity holds them to their budgets on DynamoDB Local):
//
//   - Eventually consistent (0.5 RCU per 4 KB): the listings, which read
//     GSIs (AP-03/14, AP-04, AP-09) and so are eventually consistent
//     already; the thumbnails they show (AP-09, AP-14) and those of
//     GetHistory (AP-15), read with a projection of the key, name,
//     imageKey and status, all a Thumbnail shows (the RCU are those of the
//     whole item, but not the transfer or decoding); ListDailyWear, a
//     listing for display.
//   - Strongly consistent (1 RCU per 4 KB): the gets (AP-02, AP-05,
//     AP-10, AP-15's history), so that a caller reads its own writes as
//     on MemoryStore; and every read a write depends on: AP-16's read of
//     the wardrobe and the outfit, AP-17's of the history, the outfit,
//     the day's counters and the day before, UpdateTemplate's of the
//     template, RecalculateStats' listings and counters. Their writes are
//     conditional on what they read, so a stale read would not corrupt
//     anything, but it would cancel the transaction (2 WCU an item) and
//     read again: more than the half RCU it saves. The most likely stale
//     read is of the caller's own write a moment before.
//   - AP-17 reads the history once: its delete in the transaction is
//     conditional on it, so the outfit's read does not read it again.
//   - Writes: one transaction per read-modify-write, with no item twice;
//     a wardrobe is checked by AP-16's read (1 RCU) rather than by a
//     ConditionCheck (2 WCU), since wardrobes are never deleted.
//
// # Bounded reads
//
// No listing of this package filters: each returns what its key range
// holds, one Query per page. The one filtered read is AP-17's lookup of
// an item's latest day worn before the day it takes back: it skips daily
// counters at 0, which only another writer leaves (this package deletes a
// counter when its last wear goes), with a filter on count > 0 that
// DynamoDB applies, and each of its pages evaluates at most
// Options.FilterBudget counters (1000 by default) before it returns,
// possibly with nothing, and a cursor to go on: a page costs the same
// however many counters at 0 there are (TestLatestPageBudget), and the
// walk goes on only as far as the next wear. MemoryStore ends its pages at
// the same counters.
//
// # Wear statistics
//
// AP-16, AP-17, UpdateTemplate with new clothes and RecalculateStats are
// read-modify-writes: the write is conditional on what they read (the
// padded WEAR# key needs the new count), and they read again and start
// over, within Options.Retry, when a concurrent write got in between; then
// they return ErrConflict. A statistics write is conditional on wearCount
// and lastWornAt as stored, which the seed's app changes too, and on
// statsVersion (Number), the one attribute this package adds to the
// seed's: every change of wearCount or lastWornAt by this package
// increments it, and an item without it (as the app writes them) passes
// the condition while it still has none. wearCount and lastWornAt alone
// cannot serve, because they can return to the values a reader saw (a wear
// deleted, another added) while the day AP-17 recomputed for lastWornAt
// lost its last wear; statsVersion alone cannot either, because the app
// does not know it. Daily counters are incremented atomically and deleted,
// conditionally, when their last wear goes.
//
// # Retries and exactly-once writes
//
// Every operation is safe to retry, and makes one retry loop per call,
// bounded by Options.Retry (the zero value is ddbkit's default policy): no
// step of an operation makes more than MaxAttempts calls (TestRetryBound
// holds every operation to it under constant throttling and constant
// transaction conflicts). Both stores run every operation over ddbkit's item
// backend, which retries each call within the policy, once: a GetItem, a
// Query page, a BatchGetItem drain, an UpdateItem (throttling, 5xx and lost
// responses), a transaction (the same writes with the same token). The
// read-modify-writes (AP-12 with new clothes, AP-16, AP-17) spend one retry
// budget on all their builds: a race reads again and rebuilds, and a
// throttled, conflicting, failed or lost transaction is sent again as it
// was, with its token, the rebuilds and resends together making at most
// MaxAttempts TransactWriteItems calls. An UpdateItem conditioned on values
// (DeleteX, RestoreX, RecalculateStats' repairs) is sent again after a 5xx
// or a lost response within its own MaxAttempts, and a repeat whose
// condition fails on an item that already holds everything the update writes
// takes that write for its own; a repair that loses a race reads again, at
// most MaxAttempts times.
//
// Every create is a transaction that carries a ClientRequestToken:
// AP-01 a one-item TransactWriteItems, AP-06 and AP-11 the Put with the
// wardrobe and clothes checks. It succeeds only when this call wrote the
// item: a retry after a lost response is answered with success by
// DynamoDB and writes nothing again, while an item already there, even one
// identical attribute for attribute (another caller's, or an ID generator
// that repeats under a clock that stands still), is ErrAlreadyExists.
// Nothing is inferred from equal contents. (A transactional create costs 2
// WCU per KB instead of 1.) AP-12, AP-16 and AP-17 carry a token too. The
// single-item updates set fixed values (a repeat changes nothing), or, for
// DeleteX and RestoreX, find the item already in the status they set and
// return it (an item in neither status, which only another writer leaves,
// is set to theirs); a repeat of a repair by RecalculateStats finds its
// own write by the values it set, statsVersion among them.
//
// A caller's idempotency key (ddbkit.WithIdempotencyKey) becomes the token
// of the transaction. The key is scoped: the token is made from the table
// (Options.TableName), the operation and the wardrobe's partition
// W#<wardrobeId> the caller names (see ddbkit.WithIdempotencyKey), so the
// same key sent for two wardrobes, two operations or on two tables makes
// unrelated tokens; CreateWardrobe, whose wardrobe ID is its own fresh one,
// scopes its key to the table and the operation only, so callers should make
// those keys unique per user (as an Idempotency-Key header is). The token is
// the same for every build of a read-modify-write: DynamoDB binds a token
// only to a transaction that commits (one cancelled by a failed condition
// leaves it free; DynamoDB Local shows it, and
// TestIdempotencyKeyAcrossRebuilds holds it), so a rebuild after a race goes
// through, while a build of a repeated call cannot commit a second time.
//
// # Idempotency keys
//
// A write repeated under the same key with the same arguments, within
// ddbkit.IdempotencyWindow (24 hours), from this store or another on the
// same table, returns the first call's result and writes nothing more
// (issue 41). Each keyed write leaves an idempotency record, written in
// the same transaction as its first transactional write, so the record
// exists exactly when that write committed; it holds a fingerprint of the
// operation and its arguments, and the key of the item that write wrote.
// A repeat reads the record first (one consistent GetItem) and:
//
//   - CreateWardrobe, AddClothing, AddTemplate and AddHistory, which make
//     a fresh ID, replay: they read the item the first call created (the
//     first write of its transaction) and return it as stored now, with
//     the first call's ID. AddHistory counts no wear again. A history
//     deleted since is ErrNotFound.
//   - DeleteHistory replays its success: the record was written with the
//     delete, so the first call succeeded; nothing is taken back again.
//     (Without a key, a repeat finds the history gone: ErrNotFound.)
//   - The writes whose repeat is safe by itself (UpdateClothing,
//     UpdateTemplate, DeleteX and RestoreX, RecalculateStats) run again
//     without the key, and return what they return without one: the item
//     as it is (deletedAt unchanged), a patch applied again, a report of
//     what is left to repair.
//
// The same key with other arguments is ddbkit.ErrIdempotencyKeyReused
// (which matches ErrConflict), and writes nothing. Past the window the key
// is a new request. DynamoDB's own token check still backs the record
// within its 10 minutes. MemoryStore keeps the same records, and times
// both windows (its token emulation and the record's) with
// Options.Clock. Bad input and an ended context are refused before the
// record is read.
//
// A write under an idempotency key costs one more consistent GetItem (its
// record), and its first transaction one more item (a keyed CreateWardrobe
// is a two-item transaction); a keyed write that makes no transaction
// (UpdateClothing, DeleteX, RestoreX, UpdateTemplate of a name,
// RecalculateStats) writes its record with one conditional PutItem after
// it.
//
// # Other writers
//
// The seed's app keeps writing this table. What it, or any other program,
// must maintain for this package to read its items and keep the statistics
// right, and what happens if it doesn't:
//
//   - Keys: the seed's PK and SK formats exactly. IDs and kinds are taken
//     from the keys (the clothingId, templateId and historyId attributes
//     are copies this package writes and does not read), so an item with
//     another key is simply another item, and one whose SK is not
//     CLOTH#<id>, TPL#<id>, HIST#<id> or DATE#<yyyymmdd> is corrupt.
//   - Index attributes: statusListPk, createdAtSk, wearCountSk and
//     lastWornAtSk on clothes and templates, dateSk on histories, in the
//     formats of the Indexes table, rewritten whenever status, wearCount or
//     lastWornAt change. An item without them is missing from the listings
//     that need them; one with stale ones is listed in the wrong place
//     until this package next writes its statistics or status.
//   - A wear (the seed's AP-16) is one transaction: the history, count +1
//     on the daily counter of each item worn (creating it with date and
//     count 1), and wearCount +1 and lastWornAt = max(lastWornAt,
//     dateToEpochMs(date)) on each item, with the index keys. The daily
//     counters are the source of truth: a writer that changes wearCount
//     without them has its change undone by RecalculateStats, and AP-17
//     takes back only the wears the counters hold. lastWornAt must be the
//     midnight, in Options.Location, of a day; it is compared by calendar
//     day in that zone, so any instant of the right day is read as that
//     day and not rewritten.
//   - statsVersion is optional: a writer that never touches it cannot have
//     its change of wearCount or lastWornAt overwritten, since this
//     package's statistics writes are conditional on those values as it
//     read them. A writer that does keep it must increment it with every
//     change of wearCount or lastWornAt.
//   - Deleting a history (AP-17) is one transaction, conditional on what it
//     read: count -1 on each counter (deleted at 0), wearCount -1 (not below
//     0), and lastWornAt recomputed from the counters when the day loses
//     its last wear.
//   - Values: Numbers in any form DynamoDB accepts ("5", "5.0"); times as
//     Unix ms Numbers, or as Strings of Unix ms or ISO 8601 (read, never
//     written); dates as "yyyymmdd" or "yyyy-mm-dd" (a history's date is
//     taken from dateSk when date is missing); ID lists as a List of
//     Strings or a String Set. Missing optional attributes read as zero
//     values: no imageKey, an empty name, wearCount 0, lastWornAt 0 (never
//     worn), no createdAt, no deletedAt, no templateId. status must be
//     ACTIVE or DELETED. Anything else, or an attribute of another type,
//     makes the item corrupt: ErrCorruptItem on a get (naming table, key
//     and attribute), left out of a listing and reported in Page.Skipped,
//     left out of RecalculateStats and reported in StatsReport.Skipped.
//   - A clothing named by a thumbnail that cannot be decoded shows as
//     missing (Deleted, no image), and its error is in Page.Skipped;
//     GetHistory fails with ErrCorruptItem.
//   - Idempotency records, a layout extension the seed does not have:
//     items whose PK and SK are both IDEMPOTENCY#<32 hex> (a scoped token
//     of the caller's key), with fingerprint (S), refPK and refSK (S, the
//     key of the item the write's first transaction wrote) and expiresAt
//     (N, Unix seconds), written by ddbkit only for writes made under an
//     idempotency key (see Idempotency keys), and answering repeats for
//     24 hours. The table has no TTL, so nothing deletes them: they stay
//     until a write under the same key past the window replaces them, or
//     a TTL on expiresAt, which the owner of the table may enable, deletes
//     them.
//     Other writers ignore them; no Query of this package reads their
//     partitions, but a Scan sees them.
package wardrobe
