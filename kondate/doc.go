// Package kondate stores a meal-planning app's data (seed 003) on one
// DynamoDB table: each user's profile, recipes, sets, meal plans, shopping
// list, fridge, categories, cook logs, payments, notifications, push tokens
// and saved entries under PK = USER#<userId>, the public catalog of
// published recipes and sets, and share links. DynamoStore replaces the
// app's store.json; MemoryStore holds the same items in memory for tests,
// and kondatetest runs one suite against both.
//
//	s := kondate.NewMemoryStore() // on DynamoDB: kondate.NewDynamoStore(client); see "Table"
//	r, err := s.CreateRecipe(ctx, "u_01", kondate.NewRecipe{Title: "麻婆豆腐", Steps: []string{"煮る"}})
//	if err != nil {
//		return err // matches exactly one ddbkit sentinel (see "Errors")
//	}
//	set, err := s.CreateSet(ctx, "u_01", kondate.NewSet{Title: "中華セット",
//		Items: []kondate.SetItem{{RecipeID: r.ID, Title: r.Title}}})
//	if err != nil {
//		return err
//	}
//	if _, err := s.ApplySet(ctx, "u_01", kondate.PlanNext, set.ID); err != nil { // next week's plan
//		return err
//	}
//	page, err := s.ListRecipes(ctx, "u_01", ddbkit.PageOptions{Limit: 20}) // newest first
//
// # Items and access patterns
//
// A user's items, under PK = USER#<userId>; the sort key's prefix tells
// the kind:
//
//	area           SK                                    operations (DynamoDB calls)
//	profile        PROFILE#                              get (GetItem); update, created on first update (UpdateItem)
//	recipes        RECIPE#<id>                           list newest first (Query, descending); get (GetItem);
//	                                                     find by ID (Query GSI1 + GetItem); create (a one-item
//	                                                     TransactWriteItems, as every create: see "Retries and
//	                                                     idempotency keys"); update (UpdateItem); delete (GetItem
//	                                                     + Query GSI1 + TransactWriteItems: the item, and its
//	                                                     catalog entry)
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
//	               PURCHASE#<purchasedAt>#<id>           record, once per transaction ID (TransactWriteItems:
//	                                                     purchase and guard, each put if free; a repeat: + GetItem);
//	                                                     list newest first
//	               PURCHASE_TXN#<transactionId>          a purchase's guard (ddbkit's: see "Decisions taken
//	                                                     where the seed is silent")
//	               SUBSCRIPTION#ACTIVE                   get; set (PutItem)
//	notifications  NOTIFICATION#<createdAt>#<id>         list newest first; add; mark read (UpdateItem)
//	               NOTIFICATION_SETTINGS#                get; set (PutItem)
//	push tokens    PUSH_TOKEN#<platform>#<sha256(token)> register (UpdateItem, idempotent); unregister; list
//	saved entries  SAVED#<RECIPE|SET>#<id>               save, unsave (Query GSI1 + GetItem + TransactWriteItems);
//	                                                     list newest entry ID first (Query)
//
// The catalog and share links (sections 4.2, 4.3 and 5):
//
//	item            PK / SK                                  GSI keys
//	catalog item    CATALOG#<kind> / CREATED#<createdAt>#<id> GSI1 ENTITY#<kind>#<id> / PUBLIC#
//	                                                         GSI2 CATALOG#<kind> / SORT#NEWEST#<createdAt>#<id>
//	creator's copy  CREATOR#<creatorId> /                    GSI2 CATALOG#<kind> / SORT#POPULAR#<savedCount>#<id>
//	                CATALOG_<kind>#<createdAt>#<id>          GSI3 CREATOR#<creatorId>#<kind> / CREATED#<createdAt>#<id>
//	saved item      USER#<userId> / SAVED#<kind>#<id>        GSI1 ENTITY#<kind>#<id> / SAVED#<userId>
//	share link      SHARE#<shareId> / META#                  none
//
// With Options.CatalogShards = N (see "Sharded catalog"), a catalog item
// published from then on is under CATALOG#<kind>#<shard> instead of
// CATALOG#<kind> (shard 0 keeps CATALOG#<kind>), and both its items'
// GSI2PK is the same value; every other key is as above.
//
//	operation               DynamoDB calls
//	Publish                 GetItem (the user's item) + Query GSI1 (PUBLIC#: published by another writer?)
//	                        + TransactWriteItems (put catalog item and copy, publishedAt on the user's
//	                        item conditioned on it as read)
//	Unpublish               GetItem + TransactWriteItems (delete both, clear publishedAt)
//	GetCatalogEntry         Query GSI1 (PUBLIC#), eventually consistent: the index holds the whole item
//	ListCatalogNewest       Query GSI2 begins_with SORT#NEWEST#, descending: one per page; without
//	                        GSI2, Query CATALOG#<kind> begins_with CREATED#, eventually consistent
//	ListCatalogPopular      Query GSI2 begins_with SORT#POPULAR#, descending: one per page
//	                        (sharded, newest and popular: N Queries per page, one per shard, merged)
//	ListCatalogByCreator    Query GSI3, descending: one per page; without GSI3, Query
//	                        CREATOR#<creatorId> begins_with CATALOG_<kind>#, eventually consistent
//	Save/UnsaveCatalogEntry (GetItem of the saved item, for unsave) + Query GSI1 + GetItem + TransactWriteItems
//	RecalculatePopularity   Query CATALOG#<kind> pages (sharded: each shard's in turn); per entry
//	                        Query GSI1 SAVED# pages, and a
//	                        TransactWriteItems where it may fix the count (BatchGetItem first
//	                        to raise one)
//	share links             create TransactWriteItems (one item); get GetItem; delete GetItem + DeleteItem;
//	                        resolve GetItem + Query GSI1 (or, unpublished, GetItem of the creator's item);
//	                        a link without createdBy: + Query GSI1 OWNER# for its owner (delete, resolve)
//
// Recipes and sets also carry GSI1PK = ENTITY#RECIPE#<id> (ENTITY#SET#<id>)
// and GSI1SK = OWNER#<userId>, so FindRecipe and FindSet find an item by
// its ID alone: one Query of GSI1 for the owner, then one consistent
// GetItem. Every listing of a user's items is one Query per page,
// strongly consistent, with opaque cursors bound to the listing (see
// Options.CursorSecret); the catalog's lists read GSIs, eventually
// consistent (see "Consistency and capacity").
//
// Attributes are the seed's camelCase names: a recipe has title,
// ingredients (L of M {name, amount}), steps and tags (L of S), origin,
// createdAt and updatedAt; a plan setId, setTitle, appliedAt, items (L of M
// {recipeId, title}) and updatedAt. items.go lists every layout and how Go
// types map to DynamoDB types. The seed does not fix the shape of
// ingredients and items, so they are written in the shapes above and read
// from every shape the app plausibly writes: a list of strings (an
// ingredient's name; a dish's title), maps with keys missing (empty) or
// extra (ignored), a dish's title under name, a name or amount written as
// a Number, NULL elements (left out), a string set. Anything else in them
// (numbers, nested lists) makes the item corrupt.
//
// # Table
//
// MainTable (Options.TableName): String keys PK and SK, PAY_PER_REQUEST,
// server-side encryption enabled, TTL on the attribute ttl, and up to
// three GSIs, all String keys projecting all attributes: GSI1
// (GSI1PK/GSI1SK), GSI2 (GSI2PK/GSI2SK) and GSI3 (GSI3PK/GSI3SK).
// Options.EnableGSI1 (default on), EnableGSI2 and EnableGSI3 (default off)
// say which the table has, as the seed's stack parameters do (section 10).
// The store reads them once, from the options, never from DescribeTable:
// in the seed's first stage (GSI1 only) the catalog's newest and
// by-creator lists read the base table, which holds both orders
// (CATALOG#<kind> / CREATED#…, CREATOR#<id> / CATALOG_<kind>#…), and they
// move to GSI2 and GSI3 when a store is built with EnableGSI2 and
// EnableGSI3, in the same order, as eventually consistent, at the same
// cost; only the popular list waits for GSI2. Any other operation that
// needs a disabled index fails with ErrSchemaMismatch before any call. A
// cursor binds where its list read, so one issued before the switch fails
// with ErrInvalidCursor after it (an item another writer left without GSI
// keys is in one and not the other). Writes never need an index (Publish
// looks at GSI1 when it has it) and always write every GSI key attribute,
// so DynamoDB backfills an index enabled later from the items written
// before (the staged rollout test checks it): no backfill step is needed.
//
// Definition returns the table for given options, and EnsureTable, given
// the options the store is built with, creates it or adds what it lacks,
// one UpdateTable per GSI, waiting for each to be ACTIVE, and never
// deletes an index: a table may be ahead of the code.
//
//	opts := []func(*kondate.Options){func(o *kondate.Options) { o.TableName = "MainTable" }, kondate.AllIndexes}
//	changes, err := kondate.EnsureTable(ctx, client, "MainTable", opts...)
//	s := kondate.NewDynamoStore(client, opts...)
//
// # IDs and times
//
// IDs are ULIDs (ddbkit.NewULIDs), made by the store from its clock and monotonic
// within a millisecond, so a key that ends with an ID sorts in creation
// order: "newest first" is the sort key order, descending. Times are
// written as ISO 8601 UTC with exactly three fractional digits
// (2026-02-09T10:00:00.000Z), in attributes and in keys alike, so keys
// with a time sort as the times do.
//
// # Errors
//
// Every error matches exactly one ddbkit sentinel. Bad input is refused
// with ErrInvalidArgument before any write (under an idempotency key,
// after the GetItem of the key's record), on both stores alike. Values
// are stored as given: no input is trimmed, and a required text that is
// empty or only white space is refused ("must not be empty or only white
// space"). Besides each field's documented limits:
//
//   - Item size: every item an operation writes is checked against
//     DynamoDB's 400 KB in the code both stores share, naming the
//     caller's field that weighs most (a recipe of 100 steps of
//     2,000 Japanese characters passes the field limits and is refused
//     naming Steps). Recipes and sets keep 4 KB of room for publishedAt
//     and the catalog's copies, so that a recipe or set that was stored
//     can always be published. An update is checked on what it sets; an
//     update that would make an item another writer made large pass 400
//     KB is refused by DynamoDB, and by the memory store the same, as
//     ErrInvalidArgument.
//   - Times and dates a caller supplies (CurrentPeriodEnd, a cook log's
//     Date, ExpiryDate, PurchasedAt, and the time in a Ref) must lie in
//     the years 0001 to 9999 (UTC), which every reader can parse back.
//   - Links that pages render (SourceURL, AvatarURL) must be http or
//     https URLs; names that pages show (DisplayName, AuthorName, titles)
//     hold no control characters.
//   - A CursorSecret of 1 to 15 bytes fails every listing with
//     ErrInvalidArgument naming CursorSecret.
//
// Throttling, 5xx and lost responses are retried within Options.Retry;
// what is left is ErrUnavailable, as is an ended context. Each method's
// doc names the others.
//
// # Retries and idempotency keys
//
// Retries keep Options.Retry's bound: MaxAttempts calls per step, with
// one retry loop per call. A read-modify-write (ApplySet, Publish, the
// fridge moves, saves) shares one budget of MaxAttempts
// TransactWriteItems calls between resending a throttled or conflicting
// transaction and rebuilding it after its condition failed.
//
// Every transaction carries a ClientRequestToken and is retried with it,
// so a response lost on the network never applies it twice. With
// ddbkit.WithIdempotencyKey the token comes from the caller's key, scoped
// to the table, the operation and the user's partition (USER#<userId>;
// RecalculatePopularity, which has no user,
// scopes each entry's recount to the entry, and its record to
// CATALOG#<kind>): the same key sent by two users, for two operations or
// on two tables makes unrelated tokens.
//
// A key also makes a record (see "Other writers"), written in the same
// transaction as the method's first write, or right after a write that is
// no transaction: a repeat with the same key and arguments within
// ddbkit.IdempotencyWindow (24 hours), from any process, finds it and
// returns the first call's result without writing:
//   - creates (CreateRecipe, CreateSet, Add*, RecordPurchase,
//     CreateShareLink), updates (Update*, Set*), ApplySet,
//     PromoteNextPlan, DeleteFridgeItem, RestoreFridgeItem and Publish
//     return the first call's result, read back from the item it wrote
//     (as it is now: a later edit shows), or the method's ErrNotFound if
//     that item is gone since (deleted, restored, unpublished);
//   - the other deletes (DeleteRecipe, DeleteSet, DeleteCategory,
//     DeleteShareLink, RemovePaymentMethod, UnregisterPushToken,
//     Unpublish) succeed: the record proves the first call deleted, where
//     a repeat without the key finds nothing (ErrNotFound), as in every
//     domain;
//   - the writes whose repeat is a no-op by itself (SaveCatalogEntry,
//     UnsaveCatalogEntry, CompleteShoppingItem, MarkNotificationRead,
//     RegisterPushToken, RecalculatePopularity) run again without the key,
//     and return what they return without one (the first save, the first
//     CompletedAt or ReadAt).
//
// The same key with other arguments is ddbkit.ErrIdempotencyKeyReused
// (which matches ErrConflict) and writes nothing; past the window, the
// key is a new request. So a POST /v1/recipes retried after a timeout
// with its Idempotency-Key header gets the first recipe, with its ID (see
// the idempotency key example). Each method's first write is the item
// it returns, which the record refers to. The cost: under a key, a write
// makes one more strongly consistent GetItem (the record), and its first
// transaction carries one more item (a keyed create is a two-item
// transaction); an update or a delete, which is no transaction, makes one
// more conditional PutItem. In the moment between such a write and its
// record, a repeat finds no record and runs again, as without a key. The
// memory store keeps the same records, and times the windows with
// Options.Clock.
//
// Creates are one-item transactions (a put on a free key) with such a
// token: a create succeeds only when this call wrote the item. A retry
// after a lost response succeeds with the same token; an item at the key
// written by anyone else, even identical to this call's, is
// ErrAlreadyExists on both stores (nothing is inferred from equal
// contents). A transactional put costs twice the write units of a
// PutItem. Updates set values (or keep the first one) and are safe to
// repeat; a delete reads the item first, so that a repeat after a 5xx or
// a lost response takes the missing item as its own only if it was there.
//
// # Fixtures: Export and Import
//
// MemoryStore.Export returns the items the memory store holds, in
// DynamoDB's attribute-value form and exactly as DynamoStore writes them
// (the model tests compare it with a Scan of the DynamoDB table, attribute
// for attribute). MemoryStore.Import seeds a memory store with items in the
// seed's layout, as the seed's app or any other writer puts them (the
// seed's own examples, or items exported from a real table): it keeps them
// as they are and checks that DynamoStore could read them, refusing the
// whole import with ErrCorruptItem otherwise. The memory store then reads
// them as DynamoStore reads the same items in a table; the legacy fixture
// runs on both stores.
//
// # Consistency and capacity
//
// Each access pattern reads and writes what its design needs and no more
// (capacity_test.go holds each to its budget on DynamoDB Local):
//
//   - Strong consistency is kept for a user's own items (gets and the
//     listings of a user's partition: 1 RCU per 4 KB instead of 0.5): a
//     user reads what they just wrote (an item added to the shopping list
//     is listed), as MemoryStore promises and the app's store.json gave.
//   - Every read a write conditions on is strongly consistent: the read of
//     a read-modify-write (ApplySet, PromoteNextPlan, the fridge moves,
//     Publish, Unpublish, saves) and the read before a delete, which tells
//     a repeat after a 5xx from a missing item. An eventually consistent
//     read there would make the condition fail on a stale value and the
//     operation retry.
//   - FindRecipe and FindSet read GSI1 (eventual) for the owner, then the
//     item strongly consistent: a recipe deleted a moment ago, still in
//     the index, is not found, and an edit is seen at once.
//   - The public catalog is eventually consistent: its lists read GSI2 and
//     GSI3 (or, before them, the base table eventually consistent), and
//     the detail (GetCatalogEntry) and a share link's published target
//     read the catalog item from GSI1 alone, which projects every
//     attribute: one Query at 0.5 RCU, where a Query then a consistent
//     GetItem cost 1.5. A save or unsave reads the item from the table,
//     strongly consistent, because its transaction conditions on it.
//   - DeleteShareLink deletes the link it has just read, without remove's
//     second read.
//
// # Hot partitions
//
// CATALOG#RECIPE is one partition key, in the table and in GSI2, and a
// partition serves at most 1,000 WCU and 3,000 RCU per second. A publish
// writes two ~2 KB items transactionally (2 x 2 x 2 = 8 WCU); a save
// rewrites both items of the entry (~8 WCU) plus the saved item, and moves
// two GSI2 entries. So the catalog as a whole sustains roughly 120 saves
// or publishes per second before the table partition, or GSI2's, throttles
// (GSI throttling throttles the table's writes). Reads: a page of 20 ~2 KB
// entries is ~5 RCU eventually consistent, ~600 pages per second from
// GSI2's one partition. One entry's saves also serialise on its item:
// each is a conditioned read-modify-write, so a single entry takes a few
// tens of saves per second before conflicts exhaust the retries.
//
// Past that, shard the catalog: Options.CatalogShards (see "Sharded
// catalog", with the rates measured). Counts past a few tens of saves per
// second per entry need aggregation off the write path (the stream
// summing SAVED# inserts and deletes into savedCount every few seconds),
// at the price of counts that lag; that is not built.
//
// # Sharded catalog
//
// Options.CatalogShards = N (2 to MaxCatalogShards) spreads each kind's
// catalog over N partitions; the default, 0, is the seed's layout,
// unchanged. TestSaveThroughput drives SaveCatalogEntry on one kind, each
// save by another user, round 2,000 entries of 500 creators, through
// ddbtest.PartitionClient (DynamoDB's limits, a burst of 50 ms, virtual
// time), and finds the highest rate of its ladder with under 1% of the
// calls throttled:
//
//	layout      saves/s on one kind   above it, throttled by
//	seed's          175               GSI2 CATALOG#RECIPE (4.2% at 200/s)
//	N = 4           500               the busiest shard's GSI2 partition (1.0% at 600/s)
//	N = 16        2,400               the busiest shard's GSI2 partition (2.2% at 2,800/s)
//	N = 64        9,600               the busiest shard's GSI2 partition (2.6% at 11,200/s)
//
// A save of a 1 KB entry writes 2 WCU to its catalog partition (the
// catalog item, transactionally) and 6 to its GSI2 partition (the newest
// entry rewritten, the popular entry moved, each transactional), so GSI2
// caps a partition at about 166 saves/s; shards take uneven shares of the
// entries saved, so N shards give a little less than N times that. The
// issue's goal, 1,000 saves/s on one kind, takes 16 shards. A publish
// costs a partition less (2 WCU on the table, 4 on GSI2: two entries
// added), so publishes are capped later than saves. One entry's saves
// still serialise on its catalog item (see "Hot partitions").
//
//   - The layout: a new entry's catalog item is CATALOG#<kind>#<shard> /
//     CREATED#<createdAt>#<id>, the shard being CatalogShard(id, N):
//     FNV-1a (32 bits) of the ID's bytes, modulo N, in decimal; shard 0
//     is the seed's own partition, CATALOG#<kind>, not CATALOG#<kind>#0.
//     Both items' GSI2PK is the catalog item's partition, so the newest
//     and the popular GSI2 entries are sharded alike; GSI1 (ENTITY# /
//     PUBLIC#), GSI3 (per creator, not hot) and the creator's copy's keys
//     are unchanged. Entries published before the switch stay in
//     CATALOG#<kind>, which is shard 0's partition: the seed's partition
//     is the merge's "none" shard and shard 0 at once, so a page costs N
//     Queries, not N+1. No table or index changes.
//   - Finding an entry: every operation that addresses one by ID (the
//     detail, saves, unsaves, Publish's check, share links) finds its
//     catalog item through GSI1, as before, wherever it is. Unpublish and
//     deleting a published recipe or set take the key from publishedAt
//     and the shard of the ID; an entry published before the switch (or
//     under another N) is not there, and is then found through GSI1, as a
//     catalog item another writer removed is: one transaction more. Saves
//     and recounts rewrite an entry where it is: its GSI2PK follows its
//     catalog item's PK as read, so an entry never moves partition.
//     RecalculatePopularity reads every partition, shard 0 first. So the
//     sharded catalog needs GSI1: without it (Options.EnableGSI1 off),
//     Publish, Unpublish and the merged lists fail with ErrSchemaMismatch.
//   - Lists: newest and popular read one Query per partition (concurrently
//     on DynamoDB, up to 16 at once), each from its own position and for
//     the page's limit and one more, and merge them (a k-way merge) in the unsharded list's order: the GSI2 sort key
//     (SORT#NEWEST#<createdAt>#<id>, SORT#POPULAR#<count>#<id>)
//     descending, then, for equal sort keys, the index's tie order
//     (DynamoDB Local's digest of the base key, which the memory store
//     keeps), then the partition. Sort keys end with the ID, so only two
//     items of one ID tie. The order is total and deterministic, and the
//     memory store's pages and cursors are DynamoDB Local's (the model
//     test). Before GSI2, newest merges the base table's partitions the
//     same way. By creator reads the creator's partition, unsharded.
//   - Pages keep their guarantees: limit entries, or all that is left,
//     and Next "" exactly when nothing follows. A tag-filtered page gives
//     each partition an equal share of Options.FilterBudget (at least the
//     limit and one more) and stops where a partition's Query stopped, so
//     it may be short or empty, with a Next, as an unsharded one may.
//   - The cursor holds every partition's position (the key of the last
//     entry listed from it) in one ddb cursor, tagged as a whole (HMAC,
//     keyed by CursorSecret) and bound to the table, the list, the kind,
//     the tag, the index and N; each position is rebuilt under its own
//     partition's key, so a forged cursor reads nothing else. Unsharded
//     cursors fail the sharded lists and the other way round, as do those
//     of another N: after changing CatalogShards, page from the start.
//     The positions are deflated, as they repeat their prefixes and
//     times, and a cursor grows with the shards that have given an entry:
//     after one page of 20, 0.4 KB at N = 4, 0.9 KB at 16, 1.2 KB at 64
//     (TestShardedReadCost); deep in a list, where every shard has a
//     position, about 0.5, 1 and 3.2 KB.
//   - Read cost: N Queries per page, whatever its limit, each reading up
//     to limit+1 entries: a page of 20 of ~1 KB entries is 2.5 RCU in the
//     seed's layout, 10 at N = 4, 40 at 16, 155 at 64 (TestShardedReadCost,
//     eventually consistent). GSI2 serves 3,000 RCU/s per partition, so
//     every shard serves ~1,200 such pages a second, but each page reads
//     every shard: N shards serve about the pages one partition does.
//     Prefer the smallest N that carries the writes, and cache the first
//     pages (they are public and the same for everyone).
//   - When to switch: when one kind's saves and publishes near 150 a
//     second (GSI2's partition throttles first, and it throttles the
//     table's writes with it), or a load test through
//     ddbtest.PartitionClient shows throttling; pick N from the table
//     above with room to spare (16 for 1,000 saves/s). Not before: every
//     page then costs N Queries.
//   - How to migrate a live table: set CatalogShards on every ddbkit
//     writer and reader (a reader without it lists the seed's partition
//     alone). New entries go to their shards; the old ones stay in
//     CATALOG#<kind>, are listed by the merge in their place, and are
//     saved, unpublished and deleted where they are: no rewrite. N may
//     grow later (a larger N reads the old shards too, shard numbers
//     being the same partitions); lowering it hides the entries of shards
//     at N and above from the lists until they are republished. Going
//     back to the seed's layout takes republishing the sharded entries.
//   - What the seed's app no longer reads: its lists (CATALOG#<kind> on
//     the table and on GSI2) show the entries published before the switch
//     and the new ones of shard 0 only, about 1/N of them; it still finds
//     every entry by ID through GSI1. Entries it publishes itself land in
//     CATALOG#<kind> and are merged as shard 0's. Switch once the app
//     reads the catalog through ddbkit, or accept that its lists shrink.
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
//     item is never in both places or in neither. Restoring takes the
//     archived item's Ref (see the next point).
//   - No operation rebuilds a stored key from a parsed value. The keys of
//     archived fridge items and notifications hold a time, which another
//     writer may have written in another ISO 8601 form (section 5's
//     2026-02-09T10:00:00Z has no fractional digits): a key rebuilt from
//     the parsed time would miss it. So DeletedFridgeItem and
//     Notification carry Ref, the stored sort key after its prefix
//     (<time>#<id>, as written), and RestoreFridgeItem and
//     MarkNotificationRead take it instead of an ID and a time. A Ref is
//     checked before any call (ErrInvalidArgument naming Ref): one '#',
//     a time a reader parses (years 0001 to 9999, at most 64 bytes), an
//     ID as IDs are; under the user's partition and the kind's prefix it
//     cannot reach another user's item or another kind.
//   - Payment methods hold no card data: only the provider, the provider's
//     token or ID for the method (providerRef), the brand and the last four
//     digits. A providerRef that looks like a card number is refused:
//     digits of any script (full-width ones too) joined across separators
//     (anything but letters: spaces, '-', '.', '/', '_' and the like) into
//     a run of 12 to 19 digits that passes the Luhn check, or a longer run
//     holding such a window. Brand is empty or one of Brands (visa,
//     mastercard, amex, jcb, diners, discover, unionpay: lower-case), so
//     that free text cannot carry card data; an item another writer
//     stored with another brand is read as it is. Last4 is empty (a
//     wallet or a bank method has no card number; its Brand is empty
//     too) or exactly four ASCII digits. No error repeats a rejected
//     ProviderRef, Brand or Last4.
//   - A purchase is recorded once per payment-provider transaction, so a
//     webhook delivered again does not record it twice. The caller gives
//     the provider's transaction ID and the purchase time; the ID is the
//     purchase's ID, the time its purchasedAt, so the seed's key is
//     PURCHASE#<purchasedAt>#<transactionId>. The seed's key holds the
//     time before the ID, so the key alone cannot make the write
//     conditional on the ID (a repeat given another time would find a
//     free key): the purchase is put in one transaction with a guard
//     item, USER#<userId> / PURCHASE_TXN#<transactionId>, holding the
//     purchase's sort key (purchaseSk), each put only if its key is free.
//     A repeat finds the guard, reads the purchase it names and returns
//     it if it records the same (time, product, amount, currency,
//     method), or fails with ErrAlreadyExists; there is no time window,
//     unlike an idempotency key's. The guard's prefix is outside the
//     seed's PURCHASE# range: the app's listings never see it.
//   - Push tokens are keyed by the SHA-256 of the token (lower-case hex);
//     the token is an attribute, because sending needs it. Registering
//     again keeps createdAt and bumps updatedAt.
//   - A plan is read-modify-written: applying a set copies the set as read
//     and checks, in the same transaction, that the set's scalar
//     attributes (updatedAt among them) are unchanged. Promoting moves the
//     whole NEXT item, attributes ddbkit does not know included.
//   - Completing a shopping item sets checked and keeps the first
//     completedAt; the list is not cleared.
//   - NULL is "not set". The seed's app writes completedAt: null and
//     readAt: null for "not yet", and an attribute may be NULL wherever
//     ddbkit means "missing". The writes that keep a first value
//     (CompleteShoppingItem's completedAt, MarkNotificationRead's readAt,
//     UpdateProfile's and RegisterPushToken's createdAt) do not use
//     if_not_exists alone, which takes a NULL for a value: each is an
//     UpdateItem conditioned on attribute_not_exists(x) OR x = NULL that
//     sets x, or, where x holds a value, one conditioned on the opposite
//     that keeps it; whichever the item's state makes right is tried
//     first, the other when its condition fails. No value is read and
//     then written back, so a concurrent writer can only make a round
//     repeat (bounded: ErrConflict). Reads take NULL for the zero value.
//   - Cook log dates are the user's calendar days, given by the caller as
//     YYYY-MM-DD; the store does not convert time zones.
//   - A listing leaves items it cannot decode out and reports them in
//     Page.Skipped (shared by all domains); a get of such an item returns
//     ErrCorruptItem naming the attribute; RecalculatePopularity leaves a
//     catalog entry it cannot decode as it is and reports it in
//     PopularityReport.Skipped.
//   - The catalog holds a snapshot of the recipe or set as published
//     (title, tags, ingredients, steps, origin or items), not a reference:
//     a catalog page is then one Query, with no read into the creators'
//     partitions, and a creator's later private edits do not leak into the
//     public copy. Publishing again (Unpublish, Publish) refreshes it. The
//     entry's ID is the recipe's or set's; its createdAt is the time of
//     publishing, so "newest" is newest in the catalog. The user's item
//     gets publishedAt (Recipe.PublishedAt, Set.PublishedAt), which
//     refuses a second Publish (ErrAlreadyExists) and gives Unpublish the
//     catalog keys. The seed has no such marker, and its app publishes
//     without it, so Publish also looks the entry up by ID on GSI1
//     (ENTITY#<kind>#<id> / PUBLIC#, the one key of the seed that
//     addresses a catalog item without its time) and refuses an entry
//     found there (ErrAlreadyExists); the lookup is eventually
//     consistent, so an entry the app published less than a second
//     before may be published twice, and without GSI1 only publishedAt
//     is seen. Deleting a published recipe or set unpublishes it in the
//     same transaction: the user's item (conditioned on it as read, so
//     a Publish in between makes the delete start over), the catalog
//     item (at publishedAt's key, else found by ID on GSI1 if the user
//     created it) and the creator's copy, three writes, far within
//     DynamoDB's 100. Nothing stays public once its source is gone;
//     users' saved items stay, as after Unpublish. Without GSI1, an
//     entry the app published (no publishedAt) is not seen, and stays. If another writer deleted the catalog item, Unpublish
//     clears the marker (and the creator's copy, if any) and succeeds, so
//     the item can be published again.
//   - One item holds one GSI2SK, so each entry is two items: the catalog
//     item carries SORT#NEWEST#<createdAt>#<id>, the creator's copy
//     SORT#POPULAR#<savedCount>#<id>, under the same GSI2PK. Newest and
//     popular are each one Query of GSI2 per page (begins_with, descending),
//     and neither sees the other's items. The copy also carries GSI3, so
//     each entry appears once in every list. Popular ties go to the newest
//     ID. The count has ten digits (up to 9,999,999,999 saves).
//   - savedCount is immediate (section 8, question 1): a save puts
//     SAVED#<kind>#<id> if absent, and in the same transaction rewrites the
//     catalog item (savedCount + 1, conditioned on the item as read) and
//     the copy (its count and popular key). A double save fails the first
//     condition and is a no-op returning the first save; a double unsave
//     finds nothing to delete. Saves of an entry serialise on its catalog
//     item: they retry on conflict within Options.Retry. Saved items
//     carry GSI1 keys (ENTITY#<kind>#<id> / SAVED#<userId>), so
//     RecalculatePopularity counts an entry's saves with a Query of GSI1
//     and reports every count that differs (a re-published entry starts
//     at zero; other writers). The seed's app writes saved items without
//     GSI1 keys, and a recount never lowers a count from data it cannot
//     see: a count below the saves found is raised (each save read back
//     from the table first, so a lagging index cannot inflate it), one
//     above them is only reported, until Options.SavesIndexed says every
//     save carries the keys. That takes "ddbkit migrate kondate-saves"
//     (a paced, resumable Scan that adds them to the saves written
//     before; the only code that scans, outside this package), and every
//     writer of saves writing them since. A flag, not a marker item: no
//     item can tell that the other writers keep it. GSI1 is eventually
//     consistent on DynamoDB: with SavesIndexed, run it when saves are
//     quiet, or it may count a save just made as missing, which the next
//     run corrects.
//   - SAVED#<userId> is the one GSI1 sort key the seed does not list
//     (section 5 has OWNER#<userId> and PUBLIC#): an entry's saves share
//     its GSI1 partition, ENTITY#<kind>#<id>, with its owner's item and
//     its catalog item. Kept there, not moved to an index of its own,
//     because GSI1 is the one index of every rollout stage, the seed
//     reads it by ID, and the saves ddbkit wrote already carry it. The
//     seed's lookups name their sort key (OWNER#, PUBLIC#) and are
//     unaffected, and SAVED# sorts after both, so an ascending read of
//     the partition meets them first. What it costs a reader that Queries
//     the partition alone: it gets the saves too (one item of ~200 bytes
//     per save: 10,000 saves are ~2 MB, two 1 MB pages and ~250 RCU
//     eventually consistent), and must keep the items whose GSI1SK is
//     OWNER# or PUBLIC#; a Limit of 2 or a key condition on GSI1SK
//     avoids the cost.
//   - A user's saved entries list newest entry ID first (the sort key
//     holds the entry's ID, a ULID), not by save time: the seed's key has
//     no time. Unpublishing keeps users' saved items; unsaving one removes
//     it.
//   - Share IDs (section 8, question 4) are new IDs, not the target's: 128
//     bits from crypto/rand (Options.NewShareID), 26 base32 characters. A
//     target's ID is public (it is in the catalog) and a ULID's time and
//     counter make its neighbours guessable; a link of its own can be
//     deleted without touching the target, and a target can have many.
//     Links resolve to the public entry, or, for an unpublished target, to
//     the link creator's own item only: a link to someone else's private
//     recipe resolves to nothing.
//   - The seed's app writes share links without createdBy (section 4.3
//     lists targetType, targetId, authorName and sourceUrl only). Such a
//     link belongs to its target's owner, found through GSI1
//     (ENTITY#<type>#<id> / OWNER#<userId>, else the catalog entry's
//     creatorId): that user alone may delete it, and while the target is
//     unpublished it resolves to that user's item. So anyone holding an
//     app link to a private recipe sees it, as the app intended when it
//     made the link; ddbkit's own links keep createdBy and the rule
//     above. targetType is read in any ASCII case (recipe, Recipe) and
//     written upper-case.
//   - Search (section 8, question 2): ddbkit offers a tag filter on the
//     three catalog lists (CatalogQuery.Tag, contains(tags, :tag)),
//     bounded per page by Options.FilterBudget (see there): a page costs
//     at most its budget (~1,000 entries of a few hundred bytes, ~25-60
//     RCU eventually consistent, a dozen Queries) whatever the catalog's
//     size. Cursors bind the tag.
//     Free-text search on titles is not offered: a substring filter reads
//     the whole catalog per page; feed a search index (OpenSearch,
//     Algolia) from the table's stream instead.
//
// # Other writers
//
// The seed's app writes this table too. ddbkit reads what it writes
// leniently: any ISO 8601 time in the years 0001 to 9999 once in UTC (a
// time beyond them, 9999-12-31T23:00:00-05:00 say, makes the item
// corrupt: ddbkit could not write it back), IDs (and, where the key holds
// them, times and dates) from the key when the attributes are missing,
// missing optional attributes as zero values, and unknown attributes kept
// when an item moves (plans, fridge). Another writer must keep:
//
//   - the key formats above; an item under another format is not listed,
//     or, if its prefix matches, is reported in Page.Skipped;
//   - GSI1PK and GSI1SK on recipes and sets, or FindRecipe and FindSet do
//     not find them; on catalog items (PUBLIC#), or the detail, saves and
//     share links do not find them, and Publish does not see them
//     published; on saved items (SAVED#<userId>), or
//     RecalculatePopularity does not count them (see SavesIndexed);
//   - with Options.CatalogShards, a catalog entry's partition where it
//     was published (CATALOG#<kind> or CATALOG#<kind>#<shard>) as both
//     its items' GSI2PK, when rewriting it, and CatalogShard's partition
//     for an entry it publishes, or the catalog lists place it elsewhere;
//   - both items of a catalog entry, with the same snapshot and savedCount,
//     GSI2SK and GSI3 keys as above, changed in one transaction: an entry
//     without its copy cannot be saved (ErrNotFound), and counts that
//     disagree are rewritten by the next save from the catalog item's.
//     The copy's sort key holds the time and ID of the catalog item's
//     (CATALOG_<kind>#<same>), in whatever time format the writer used:
//     saves and Unpublish keep both keys as written;
//   - creatorId on a catalog item, or deleting its recipe or set (found
//     without publishedAt only through GSI1) leaves it public; createdBy
//     on a share link, or the link belongs to its target's owner (GSI1
//     OWNER#), who alone may delete it and whose unpublished item it
//     resolves to;
//   - ingredients and items in the documented shapes above: the other
//     shapes the app wrote are read, but only those are written;
//   - a purchase recorded once per transaction: put PURCHASE_TXN#<id>
//     (purchaseSk = the purchase's sort key) in the purchase's
//     transaction, or a repeat of RecordPurchase for that transaction
//     records it a second time;
//   - savedCount changed only with a SAVED# item put or deleted in the same
//     transaction, or RecalculatePopularity reports the drift (and raises
//     a count below the saves it sees);
//   - times inside keys in the one format above; other forms still list,
//     decode and are addressed (by Ref), but sort out of time order;
//   - attribute types (S, N, BOOL, L as above); an attribute of another
//     type makes the item corrupt (ErrCorruptItem), never silently zero;
//   - updatedAt bumped on every change to a set, a NEXT plan or a fridge
//     item, because the transactions that move or copy them condition on
//     the scalar attributes read; a change to a list alone, without it,
//     is not detected.
//
// ddbkit adds one kind of item to the seed's layout, for writes made under
// an idempotency key only: the key's record, PK = SK =
// IDEMPOTENCY#<32 hex> (the scoped token), with fingerprint (SHA-256 of
// the operation and its arguments), refPK and refSK (the key of the item
// the operation returns) and ttl (epoch seconds, 24 hours on: the table's
// TTL attribute, so DynamoDB deletes it once expired). Other writers
// ignore it, and no listing of the package reads it; a Scan sees it.
package kondate
