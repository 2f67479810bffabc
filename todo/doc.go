// Package todo stores the WAMBDA TODO application's users, and each
// user's todos and categories, in one DynamoDB table laid out exactly as
// its design document (seed 000) says. DynamoStore reads and writes that
// table; MemoryStore holds the same items in memory for unit tests and
// answers with the same results and errors.
//
//	ctx := context.Background()
//	s := todo.NewMemoryStore() // on DynamoDB: todo.NewDynamoStore(dynamodb.NewFromConfig(cfg))
//	if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "alice@example.com"}); err != nil {
//		return err
//	}
//	t, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "Buy milk", Priority: todo.PriorityHigh})
//	if err != nil {
//		return err
//	}
//	if _, err := s.ToggleTodo(ctx, "alice", t.ID); err != nil { // completed: false -> true
//		return err
//	}
//	page, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{}) // page.Next is the next page's Cursor
//	if err != nil {
//		return err
//	}
//	fmt.Println(page.Items[0].Title, page.Items[0].Completed) // Buy milk true
//
// # Access patterns
//
//	seed pattern                      method                        DynamoDB calls
//	1 all todos of a user             ListTodos                     1 Query per page (begins_with todo#)
//	2 all categories of a user        ListCategories                1 Query per page (begins_with category#)
//	3 all data of a user              ListUserData                  1 Query per page
//	4 one todo                        GetTodo                       1 GetItem
//	5 one category                    GetCategory                   1 GetItem
//	  create a todo / category        CreateTodo, CreateCategory    1 TransactWriteItems (user and category checks, put)
//	  update a todo                   UpdateTodo                    1 UpdateItem; when it sets a category,
//	                                                                1 GetItem (eventual) + 1 TransactWriteItems
//	  toggle completed                ToggleTodo                    1 GetItem (eventual) + 1 conditional UpdateItem
//	  delete a todo                   DeleteTodo                    1 TransactWriteItems (conditional delete)
//	  update a category               UpdateCategory                1 UpdateItem
//	  delete a category               DeleteCategory                two filtered walks of the user's todos: per page
//	                                                                (at most FilterBudget todos read) 1-2 Queries, and
//	                                                                1 TransactWriteItems for a page with references
//	  create a user                   CreateUser                    1 TransactWriteItems (one conditional put)
//	  users                           GetUser, UpdateUser           1 call each; ListUsers 1 Query per page
//	  delete a user                   DeleteUser                    per 99 items 1 Query + 1 TransactWriteItems,
//	                                                                then 1 Query
//
// # Table
//
// One table, named by $DYNAMODB_TABLE (default "wambda-table-ssr001"), with
// String keys "pk" and "sk" and on-demand billing. Definition returns its
// design; CreateTableInput and Definition(name).CloudFormation() export it;
// EnsureTable creates it if needed and verifies an existing one.
//
//	item      pk                 sk               other attributes
//	user      users              {username}       username, email
//	todo      user#{username}    todo#{id}        id, entity_type="todo", title, description,
//	                                              priority (high|medium|low), completed (BOOL),
//	                                              category_id, created_at, updated_at
//	category  user#{username}    category#{id}    id, entity_type="category", name,
//	                                              color (8 Bulma names), created_at, updated_at
//
// ddbkit writes every attribute of this layout, timestamps as ISO 8601 UTC
// with milliseconds ("2024-01-01T00:00:00.000Z") and IDs as UUIDv4s made by
// the store. It reads more than it writes; see "Other writers".
//
// # Errors
//
// Every error starts with "todo: " and matches exactly one of ddbkit's
// sentinels with errors.Is: ErrInvalidArgument (as a
// *ddbkit.ValidationError naming the field), ErrNotFound, ErrAlreadyExists,
// ErrConflict (a read-modify-write that kept losing races, a transaction
// conflict that outlasted the retries, or an idempotency key reused for
// other input: ErrIdempotencyKeyReused, which matches ErrConflict),
// ErrInvalidCursor, ErrCorruptItem (stored data, never the
// caller's input), ErrUnavailable (throttling or 5xx that outlasted the
// retries, DynamoDB unreachable, or the context ended; it then also
// matches context.Canceled or context.DeadlineExceeded) and
// ErrSchemaMismatch (from EnsureTable, or a table that is missing). The
// SDK's error stays reachable with errors.As. Bad input is refused before
// any call, so nothing is written. The memory store returns the same
// errors, with the same text, in the same cases, a cancelled or expired
// context included: DynamoStore's errors for an ended context and for an
// idempotency key reused for other writes read as the memory store's,
// without the SDK's operation name, DynamoDB's message or its request ID.
//
// # Raw items: Export and Import
//
// MemoryStore.Export returns every item the memory store holds exactly as
// DynamoStore would hold it, attribute for attribute (the model tests
// compare it with a Scan of the table), and MemoryStore.Import adds items
// in the seed's layout: items exported from a production table, a legacy
// fixture, another program's writes. Import decodes them as leniently as
// DynamoStore reads them (see Other writers) and keeps them as they are:
// Export gives them back unchanged, and the memory store's updates change
// only the attributes DynamoStore's change, so an item missing attributes
// stays so. Items of kinds this package does not know are kept too: the
// listings leave them out as DynamoStore's do (they still count towards a
// page's limit) and DeleteUser deletes them. An item DynamoStore could not
// read either fails the whole Import with ErrCorruptItem: the memory store
// holds no corrupt items, so it cannot show how listings skip them.
//
// # Decisions where the seed is silent
//
//   - Usernames are 1–64 characters: letters of any script, combining marks
//     (the vowel signs and viramas of scripts such as Devanagari, Thai and
//     Tamil, so "नमस्ते", "สวัสดี" and "வணக்கம்" are valid; a mark may not
//     come first), decimal digits, '.', '_' and '-'. So '#' (the key
//     separator) and white space are refused. Usernames are case-sensitive,
//     as DynamoDB keys are.
//   - Lengths count Unicode code points: not bytes, and not grapheme
//     clusters ("नमस्ते" is 6). Title 1–200,
//     description 0–2000, category name 1–50, email up to 254 and a plain
//     address. IDs passed in follow ddbkit's one ID alphabet: 1–128
//     graphic characters other than white space and '#'. They need not be
//     UUIDs, because the seed's own data has IDs like "category001".
//   - Input is never trimmed: a value that passes is stored as given,
//     spaces included. A required text (Username, Email, Title, a
//     category's Name) that is empty or only white space fails with
//     ErrInvalidArgument, "must not be empty or only white space".
//   - Priority is required; there is no default.
//   - category_id is always written; "" means uncategorized. A non-empty
//     CategoryID must name an existing category of the same user when the
//     write commits (a ConditionCheck in the same transaction), otherwise the
//     write fails with ErrInvalidArgument for field CategoryID.
//   - Todos and categories can only be created for an existing user (checked
//     in the same transaction); otherwise ErrNotFound.
//   - Deleting a category uncategorizes the todos that pointed at it
//     (category_id becomes "", updated_at is bumped), and deletes the
//     category last: consistent queries find the referring todos, and
//     transactions of at most 100 items clear them, each with a check that
//     the category still exists, the last one deleting the category. A
//     crash at any point leaves the category with some of its references,
//     never references without the category, and the same call, repeated,
//     finishes. A create that references the category while it is being
//     deleted is caught by a final query. When the category is already
//     gone but todos still refer to it (an older ddbkit or another writer
//     left them), DeleteCategory clears them and succeeds; it reports
//     ErrNotFound only when there was neither.
//   - Deleting a user deletes its data first and the user item last, in
//     transactions of at most 100 items that each check the user still
//     exists. While the sweep runs the name cannot be registered again; an
//     interrupted call leaves the user for a repeated call to finish. Items
//     a create commits during the last transaction are deleted by a final
//     query, but only while no user of that name exists, so a user who
//     registers the name again right after never loses data. Transactions
//     cost twice the write capacity of BatchWriteItem; that is the price of
//     the check. DeleteUser reports ErrNotFound only when there was neither
//     a user nor any of its data.
//   - Listings are in sort key order, that is by ID for todos and
//     categories, and by username (byte order) for users. ListUserData lists
//     categories before todos ("category#" < "todo#"). An unknown user has an
//     empty listing. ListUserData skips items of other kinds (another sort
//     key prefix), since the seed plans for new ones; such a page may hold
//     fewer items than the limit.
//   - Reads are strongly consistent, so the DynamoDB store shows its own
//     writes as the memory store does; the read of a read-modify-write is
//     the exception (see "Consistency and capacity").
//   - Creates never overwrite: a repeated ID fails with ErrAlreadyExists,
//     and so does CreateUser of a taken username, whoever stored it and
//     whatever its email: a user stored with exactly the same email is
//     another caller's (a signup that repeats the owner's address must not
//     be handed the account). A create is reported as this call's own only
//     when its ClientRequestToken proves it (see below), never because the
//     stored item looks the same.
//   - Every item a write builds is checked against DynamoDB's 400 KB limit
//     before any call, on both stores; the error names the longest field the
//     caller gave. With the field limits above a todo stays under 10 KB, so
//     no valid input reaches the limit; an update of an item another writer
//     made near it fails with ErrInvalidArgument on both stores (on DynamoDB
//     through its ValidationException).
//   - The seed has no time a caller supplies (no due dates): created_at and
//     updated_at come from Options.Clock. A time the store would write
//     outside the years 0001-9999 UTC, which no reader could parse back,
//     is refused with ErrInvalidArgument naming "Clock", before any call,
//     on both stores.
//   - Options.CursorSecret is empty or at least 16 bytes; a secret of 1
//     to 15 bytes fails every listing, DeleteCategory and DeleteUser with
//     ErrInvalidArgument naming "CursorSecret", on both stores.
//   - ToggleTodo's updated_at strictly increases within a store (a clock that
//     stands still moves it on by a millisecond), because a toggle tells its
//     own write by it.
//
// # Consistency and capacity
//
// Each access pattern consumes what its design needs and no more
// (TestCapacity holds every one to its budget on DynamoDB Local). With the
// seed's items, all under 1 KB (a todo about 370 bytes, a category 130, a
// user 60):
//
//	pattern                          read (RCU)                 write (WCU)
//	GetUser, GetTodo, GetCategory    1 (strong)                 -
//	a page of 50: ListTodos          5 (51 todos, strong)       -
//	  ListCategories, ListUserData   3 (51 categories, strong)  -
//	  ListUsers                      1 (51 users, strong)       -
//	CreateUser                       -                          2 (transaction of one put)
//	UpdateUser                       -                          1
//	UpdateTodo, UpdateCategory       -                          1
//	ToggleTodo                       0.5 (eventual)             1
//	UpdateTodo with a category       0.5 (eventual)             4 (transaction: check + update)
//	CreateTodo                       -                          4, 6 in a category (transaction)
//	CreateCategory                   -                          4 (transaction: check + put)
//	DeleteTodo                       -                          2 (transaction of one item)
//	DeleteCategory, 10 of 60 todos   2 × 6 (every todo, strong) 22 (transaction of 11 items)
//	  (each page of its walks reads at most FilterBudget todos, default 1000)
//	DeleteUser of 4 items            1 (strong)                 10 (transaction of 5 items)
//
// Under an idempotency key a write costs more: one consistent GetItem of
// its idempotency record (1 RCU) before it, and the record itself, one
// more item in its first transaction (2 WCU; a keyed CreateUser is a
// two-item transaction) or, for a method without one and for the sweeps,
// one conditional PutItem after it (1 WCU). A repeat costs the GetItem
// and, where it reads its result back, one more.
//
// Strong consistency is kept where a read must see the latest writes:
//
//   - Gets and listings, so that a caller reads its own writes (the seed's
//     application redirects to the list right after a create), as with the
//     memory store. An eventually consistent read costs half, but could
//     miss a todo just created or show one just deleted.
//   - The queries of DeleteCategory and DeleteUser, which must find every
//     item to clear or delete before the category or user goes.
//
// The read of a read-modify-write (ToggleTodo, UpdateTodo with a
// category) is eventually consistent: its write is conditioned on the
// values it read, so a stale read can only make the condition fail, and
// the retry then reads strongly; an item the eventual read misses is
// looked for again strongly before it is reported missing.
//
// What the design costs beyond a minimal one, and why: creates and
// DeleteTodo are transactions (twice the write units of a plain write, and a
// check of the user and category), for the references and the idempotency
// token; CreateUser is a transaction of one put (2 WCU instead of 1) so that
// its token can tell its own write after a lost response from another
// caller's; a page reads one item more than it returns, so that Next is
// empty exactly at the end; and DeleteCategory reads all of the user's todos
// twice, filtered on category_id, because the seed's table has no index on
// it: once to clear the references and delete the category, once more to
// clear references a create made behind the first walk. Projections would
// not help: DynamoDB prices a read by the size of the whole item.
//
// # Filtered pages
//
// The one filtered walk, DeleteCategory's search for the todos that refer to
// the category, is bounded per page: a page evaluates at most
// Options.FilterBudget items (default 1000) and then ends, possibly with
// nothing found, with a cursor to go on from; both stores end their pages at
// the same item. So no single Query reads more than the budget, whatever the
// partition holds; the walk as a whole still reads the partition, since it
// must find every reference.
//
// # Retries, lost responses and idempotency keys
//
// Every call is retried on throttling, 5xx and lost responses, and every
// read-modify-write on losing a race, within Options.Retry (bounded; see
// ddbkit.RetryPolicy). Both stores run the same operations over ddbkit's
// item backend, which retries each call in exactly one loop, never wrapped
// in another, so a step makes at most RetryPolicy.MaxAttempts calls. The
// read-modify-writes (ToggleTodo, UpdateTodo with a category, a page of
// DeleteCategory) read and write again after a lost race at most
// RetryPolicy.MaxAttempts times in all, and those around a transaction count
// its resends against the same bound. What happens when a write commits but
// its response is lost, and the write is repeated by the SDK or by the
// store:
//
//   - Transactions (CreateTodo, CreateCategory, UpdateTodo with a category,
//     DeleteTodo, each step of DeleteCategory and DeleteUser) carry a
//     ClientRequestToken, so a repeat commits nothing more. DeleteTodo is a
//     transaction of one item for its token alone: a DeleteItem repeated
//     after a 500 could not tell a todo it deleted (its response lost)
//     from one that never existed, and would report either as deleted.
//   - CreateUser is a one-item transaction with a ClientRequestToken: its
//     retry after a lost response succeeds, and writes nothing again; a user
//     anyone else wrote fails it with ErrAlreadyExists.
//   - UpdateUser, UpdateTodo and UpdateCategory set values, which is safe
//     to repeat.
//   - ToggleTodo conditions its write on completed and updated_at as it read
//     them; when the condition fails on an item that holds exactly what this
//     toggle writes, the toggle is done. When a response was lost and the
//     todo changed before the retry, it returns ErrUnavailable: whether the
//     toggle took effect cannot be known, and toggling again could undo it.
//
// A caller's idempotency key (ddbkit.WithIdempotencyKey), such as an API's
// Idempotency-Key header, makes every write method idempotent for
// ddbkit.IdempotencyWindow (24 hours), on both stores and across store
// instances on one table: a call repeated under the key with the same
// input returns the first call's result and writes nothing more; with
// other input it returns ErrIdempotencyKeyReused (which matches
// ErrConflict) and writes nothing; past the window the key is a new
// request. The key is scoped (see ddbkit.WithIdempotencyKey) to the
// table, the operation and the user's partition (user#{username}, from
// the caller's input; CreateUser's too, though its item lives under
// "users"): the same key used by two users, for two operations or on two
// tables makes unrelated requests. What a repeat returns:
//
//   - CreateUser, CreateTodo, CreateCategory: the item the first call
//     created, read back (ErrNotFound if it was deleted since), though
//     a create run again would make a fresh ID and timestamp.
//   - UpdateTodo, ToggleTodo, UpdateCategory: the todo or category as
//     stored now, read back: UpdatedAt is not bumped again, and a toggle
//     does not flip back.
//   - DeleteTodo, DeleteCategory, DeleteUser: success, though the item is
//     gone, and nothing is deleted again, even data made since. A sweep
//     (DeleteCategory, DeleteUser) records its key only once it has
//     finished, so the repeat of a call that failed half way runs again
//     and finishes it.
//   - UpdateUser, safe to repeat, runs again as it would without a key.
//
// A store remembers a key in an idempotency record (see Other writers),
// written in the same transaction as the method's first transactional
// write (for CreateUser, CreateTodo, CreateCategory, DeleteTodo and
// UpdateTodo with a category), so that it exists exactly when that write
// committed, or, for a method that sends no transaction (UpdateUser,
// UpdateTodo without a category, ToggleTodo, UpdateCategory) and for the
// sweeps, with one conditional PutItem right after the method succeeded:
// a repeat in between runs the method again. The key also becomes the
// ClientRequestToken of the transactions (the memory store emulates it
// with the very same token, for ten minutes of its clock), which covers a
// repeat of a transaction whose response was lost; DeleteCategory and
// DeleteUser give each of their transactions a token of its own, so that
// a repeat can finish an interrupted sweep.
//
// # Other writers
//
// The seed's table is in production, and the seed's application (and maybe
// others) keeps writing it. ddbkit is exact in what it writes and lenient in
// what it reads:
//
//   - Identity comes from the keys: a user's name from its sk, a todo's or
//     category's ID from the part of sk after "todo#" or "category#", the
//     kind of an item from its sk prefix. The "id", "username" and
//     "entity_type" attributes are written for the seed's application and
//     never read. An ID outside ddbkit's alphabet is returned as stored, but
//     ddbkit's methods refuse it as input.
//   - Missing attributes read as zero values: no completed is false (and
//     ToggleTodo sets it), no description or category_id is "", no
//     created_at or updated_at is the zero time. A missing title, priority,
//     name, color or email reads as "" too, and a priority or color outside
//     the seed's values is returned as stored (Priority.Valid and
//     Color.Valid tell): such an item can still be read, listed, updated
//     and deleted, so it is not treated as corrupt.
//   - Timestamps may be any ISO 8601 date and time: with or without a
//     fraction of any length, with "Z" or any offset, or without a zone
//     (read as UTC). ddbkit never rewrites a timestamp it does not change.
//   - An item that cannot be decoded (an attribute of another type, such as
//     completed as a String; a timestamp that is not ISO 8601; a sort key
//     with nothing after the prefix) is corrupt: a Get of it fails with
//     ErrCorruptItem (a *ddbkit.CorruptItemError names the table, key and
//     attribute), and a listing leaves it out and reports it in
//     Page.Skipped, with Next continuing after it. DeleteUser and
//     DeleteCategory still delete and clear corrupt items.
//
// A program that writes the same table must maintain:
//
//   - The key layout above, and the attribute types (completed a BOOL,
//     everything else a String). Otherwise its items are corrupt to ddbkit.
//   - category_id naming an existing category of the same user, or "" or
//     no attribute. A todo left pointing at a deleted category keeps its
//     CategoryID when read, cannot be saved with it (UpdateTodo with that
//     CategoryID fails with ErrInvalidArgument), and DeleteCategory of that
//     ID clears it.
//   - A user item for every partition it writes data in. Data without a user
//     is listed, and deleted by DeleteUser; a user later registered under
//     that name would see it.
//   - To delete a user, its data first and the user item last, as ddbkit
//     does; deleting the user first lets the name be registered again
//     while old data remains, and the new user sees it.
//
// ddbkit adds one kind of item the seed does not have: the idempotency
// record of a write made under an idempotency key (and only of such a
// write), pk = sk = IDEMPOTENCY#{32 hex digits} (the key's scoped token),
// with fingerprint (S, a SHA-256 of the operation and its input), refPK
// and refSK (S, the key of the item the write returns or deleted) and
// expiresAt (N, Unix seconds, 24 hours after the write). It stops
// answering at expiresAt; the seed's table has no TTL, so records stay
// until deleted (turn TTL on for expiresAt to have DynamoDB delete them).
// Other writers ignore them: they are in no user's partition, so no
// Query of the seed's access patterns sees them, but a Scan does.
//
// ddbkit's conditions protect its writes from such a program: ToggleTodo
// and UpdateTodo with a category are conditioned on the values they read
// (every attribute, for the latter), so a change committed between ddbkit's
// read and its write makes ddbkit read again, and is never overwritten
// with stale values; plain updates set only the attributes they change.
package todo
