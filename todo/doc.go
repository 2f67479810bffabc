// Package todo stores the WAMBDA TODO application's users, todos and
// categories in one DynamoDB table, exactly as its design document
// (seed 000) lays them out, with an in-memory twin for unit tests.
//
// # Table
//
// One table, named by $DYNAMODB_TABLE (default "wambda-table-ssr001"), with
// String keys "pk" and "sk" and on-demand billing. CreateTableInput returns
// its definition; EnsureTable creates it if needed.
//
//	item      pk                 sk               other attributes
//	user      users              {username}       username, email
//	todo      user#{username}    todo#{id}        id, entity_type="todo", title, description,
//	                                              priority (high|medium|low), completed (BOOL),
//	                                              category_id, created_at, updated_at
//	category  user#{username}    category#{id}    id, entity_type="category", name,
//	                                              color (8 Bulma names), created_at, updated_at
//
// Timestamps are ISO 8601 UTC with milliseconds ("2024-01-01T00:00:00.000Z").
// IDs are UUIDv4, made by the store.
//
// # Access patterns
//
//	seed pattern                      method                        DynamoDB calls
//	1 all todos of a user             ListTodos                     1 Query per page (begins_with todo#)
//	2 all categories of a user        ListCategories                1 Query per page (begins_with category#)
//	3 all data of a user              ListUserData                  1 Query per page
//	4 one todo                        GetTodo                       1 GetItem
//	5 one category                    GetCategory                   1 GetItem
//	  create a todo / category        CreateTodo, CreateCategory    1 TransactWriteItems
//	  update a todo                   UpdateTodo                    1 UpdateItem (+1 TransactWriteItems, 1 GetItem
//	                                                                when it sets a category)
//	  toggle completed                ToggleTodo                    1 GetItem + 1 conditional UpdateItem
//	  users                           CreateUser, GetUser, ...      1 call each; ListUsers 1 Query per page
//
// # Decisions where the seed is silent
//
//   - Usernames are 1–64 characters: letters of any script, digits, '.',
//     '_' and '-'. So '#' (the key separator) and white space are refused.
//     Usernames are case-sensitive, as DynamoDB keys are.
//   - Limits count characters, not bytes: title 1–200 (not only white space),
//     description 0–2000, category name 1–50, email up to 254 and a plain
//     address. IDs passed in are 1–128 characters without '#', white
//     space or control characters; they need not be UUIDs, because the seed's own data has IDs like
//     "category001".
//   - Priority is required; there is no default.
//   - category_id is always written; "" means uncategorized. A non-empty
//     CategoryID must name an existing category of the same user when the
//     write commits (a ConditionCheck in the same transaction), otherwise the
//     write fails with ErrInvalidArgument for field CategoryID.
//   - Todos and categories can only be created for an existing user (checked
//     in the same transaction); otherwise ErrNotFound.
//   - Deleting a category uncategorizes the todos that pointed at it
//     (category_id becomes "", updated_at is bumped). The category is
//     deleted first, so no new reference can appear; then consistent queries
//     find the referring todos and clear them in transactions of at most 100
//     items, each conditional on still pointing at the category.
//   - Deleting a user deletes the user item first (so nothing new can be
//     created under it), then every item of its partition with
//     BatchWriteItem. Calling it again finishes a sweep an earlier call did
//     not; it reports ErrNotFound only when there was nothing at all.
//   - Listings are in sort key order, that is by ID for todos and
//     categories, and by username (byte order) for users. ListUserData lists
//     categories before todos ("category#" < "todo#"). An unknown user has an
//     empty listing. ListUserData skips items of entity types it does not
//     know, since the seed plans for new ones; such a page may hold fewer
//     items than the limit.
//   - Reads are strongly consistent, so the DynamoDB store shows its own
//     writes as the memory store does.
//   - Creates never overwrite: a repeated ID fails with ErrAlreadyExists.
//
// # Errors
//
// Every error starts with "todo: " and matches one of ddbkit's sentinels
// with errors.Is: ErrInvalidArgument (as a *ddbkit.ValidationError naming
// the field), ErrNotFound, ErrAlreadyExists, ErrConflict (a read-modify-write
// that kept losing races, or a transaction conflict) and ErrInvalidCursor.
// Bad input is refused before any call, so nothing is written.
package todo
