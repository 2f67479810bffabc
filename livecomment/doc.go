// Package livecomment stores the rooms, comments and WebSocket connections
// of the Live Comment application (seed 002): a host opens a room, viewers
// join it and post comments, each delivered to every connection, and the
// host closes it. DynamoStore keeps them in three DynamoDB tables, laid
// out exactly as the seed's design document says; MemoryStore is an in-memory twin for unit tests, held to the
// same results by one conformance suite (package livecommenttest). Input
// is not trimmed: values that pass validation are stored as given.
//
//	ctx := context.Background()
//	s := livecomment.NewMemoryStore() // livecomment.NewDynamoStore(client) on DynamoDB; errors elided
//	room, _ := s.CreateRoom(ctx, livecomment.NewRoom{Name: "Go勉強会", HostID: "host-1"})
//	s.JoinRoom(ctx, room.ID, "conn-1") // a viewer, by its API Gateway connectionId
//	c, _ := s.PostComment(ctx, room.ID, livecomment.NewComment{Content: "こんにちは！", Nickname: "たろう"})
//	livecomment.Broadcast(ctx, s, room.ID, func(ctx context.Context, to livecomment.Connection) error {
//		return postToConnection(ctx, to.ID, c.Content) // yours; livecomment.ErrGone once a socket is gone
//	})
//	page, _ := s.ListCommentsNewest(ctx, room.ID, ddbkit.PageOptions{Limit: 20}) // a late viewer's first page
//	fmt.Println(page.Items[0].Nickname, page.Items[0].Content) // たろう こんにちは！
//	room, _ = s.CloseRoomAs(ctx, room.ID, "host-1") // only its host may close it
//
// # Access patterns
//
// One method per access pattern of the seed, each one call per page or
// write (see "Consistency and capacity" for what each consumes):
//
//	seed pattern                      method              DynamoDB calls
//	room by roomId                    GetRoom             1 GetItem
//	a host's rooms (Scan + Filter)    ListHostRooms       1 Query of hostId-index per page, newest first
//	  create a room                   CreateRoom          1 TransactWriteItems (a conditional put)
//	  close a room                    CloseRoom           1 UpdateItem (the trusted close: moderation, the system)
//	  the host closes its room        CloseRoomAs         1 UpdateItem (hostId = the actor in its condition)
//	a room's comments (Query)         ListComments        1 Query of roomId-createdAt-index per page, oldest first
//	                                                      (sharded: N+1 Queries per page, one per shard and one of
//	                                                      the room's unsharded partition, merged)
//	a late viewer's last comments     ListCommentsNewest  the same, descending (ScanIndexForward false), newest first
//	post a comment (PutItem)          PostComment         1 TransactWriteItems (room check + put; sharded: put to its shard)
//	connection by connectionId        GetConnection       1 GetItem
//	a room's connections (GSI)        ListConnections     1 Query of roomId-index per page
//	joinRoom                          JoinRoom            1 TransactWriteItems (room check + put)
//	disconnect (DeleteItem)           Disconnect          1 DeleteItem
//	deliver a new comment             Broadcast           1 Query per page + 1 DeleteItem per gone connection (a ConnectionPruner)
//
// # Tables
//
// Each environment (Options.Env, the seed's ${environmentName}: "dev",
// "prod", ...) has its own three tables, which is how the seed keeps
// development data away from production. All keys and attributes are
// Strings, billing is on demand. Definitions returns their designs;
// EnsureTables creates the missing tables and verifies existing ones
// (adding missing indexes only with schema.Apply).
//
//	table                          key                       attributes / index
//	LiveComment-Rooms-{env}        roomId                    name, hostId, status (OPEN|CLOSED), createdAt, updatedAt
//	                                                         GSI hostId-index: hostId, createdAt; projection ALL
//	LiveComment-Comments-{env}     roomId, commentId         content, nickname, createdAt
//	                                                         GSI roomId-createdAt-index: roomId, createdAt; projection ALL
//	                               (sharded: roomId is "{roomId}#{shard}"; see "Sharded comments")
//	LiveComment-Connections-{env}  connectionId              roomId, timestamp
//	                                                         GSI roomId-index: roomId; projection ALL
//
// The seed's app has only roomId-index: it scans Rooms for a host's rooms,
// and its comment IDs (random UUIDv4s) leave the Comments sort key in no
// useful order. The two other indexes are ddbkit's; the app's stack adds
// them to its existing tables (or EnsureTables with schema.Apply, one
// UpdateTable each), and the app's writes keep them filled without knowing.
//
// Timestamps, the connections' timestamp included, are written as ISO 8601
// UTC with milliseconds ("2024-01-01T00:00:00.000Z", what JavaScript's
// toISOString writes) and read in any ISO 8601 form. Room IDs are UUIDv4s,
// made by the store. The seed's deletion policy is its stack's business, not
// this package's: dev tables are destroyed with their stack, prod tables
// are retained; EnsureTables never deletes or changes what exists.
//
// # Errors
//
// Every error starts with "livecomment: " and matches exactly one of
// ddbkit's sentinels with errors.Is: ErrInvalidArgument (as a
// *ddbkit.ValidationError naming the field: an input's, or the Clock,
// CursorSecret, CommentShards or RoomCheckCache option's), ErrNotFound,
// ErrAlreadyExists (an ID generator that repeats, or another caller's
// identical item), ErrConflict (ErrRoomClosed, conflicts that outlast the
// retries, an idempotency key reused), ErrPermissionDenied (CloseRoomAs by
// another than the room's host), ErrInvalidCursor, ErrCorruptItem (stored
// data that cannot be read), ErrUnavailable (throttling or 5xx through the
// retries, a context that ended) and ErrSchemaMismatch (a table or index
// missing: run EnsureTables). The cause stays reachable with errors.As,
// and a context's error still matches context.Canceled or
// context.DeadlineExceeded. Bad input is refused before any call, so
// nothing is written; so is a context that has already ended, on both
// stores.
//
// # Roles
//
// The seed's permission table gives each Lambda function access to some
// tables only; each function gets the interface that matches its grants:
//
//	function                  grants                                  interface
//	CreateRoomFunction        Rooms rw                                RoomCreator (RoomStore)
//	CloseRoomFunction         Rooms rw                                RoomCloser (RoomStore)
//	GetUserRoomsFunction      Rooms r                                 HostRoomsReader (RoomReader)
//	GetRoomCommentsFunction   Comments r                              RoomCommentsReader (CommentReader)
//	PostCommentFunction       Comments rw, Connections r              CommentPoster (posts; lists whom to send to)
//	  ... and Broadcast       Connections r, and DeleteItem, which    ConnectionPruner (Broadcast's argument)
//	                          the seed's function lacks
//	JoinRoomFunction          Connections rw, Rooms r                 RoomJoiner
//	DisconnectFunction        Connections rw                          Disconnecter (ConnectionStore)
//
// The function that posts a comment also delivers it, yet CommentPoster
// cannot call Broadcast: Broadcast takes a ConnectionPruner, since it
// disconnects the connections a send finds gone, and that is DeleteItem
// on Connections, which the seed gives PostCommentFunction no grant for
// (read only). Grant it (attach the policies of both CommentPoster and
// ConnectionPruner), or broadcast from a function that holds it: a
// ConnectionStore, as DisconnectFunction's grants give, is a
// ConnectionPruner.
//
// Options.RoomCheckCache makes PostComment read the room, which takes
// dynamodb:GetItem on Rooms for CommentPoster (the generated policy has
// it).
//
// Every write method also takes dynamodb:GetItem and PutItem on the table
// it writes, for the idempotency records of writes made under a key (see
// "Other writers"): CloseRoom, CloseRoomAs and Disconnect thus need PutItem, which they
// did not; the generated policies have them.
//
// PostComment and JoinRoom need a grant the table does not list: they
// check the room inside their transaction, which takes
// dynamodb:ConditionCheckItem on Rooms (a read of one item, but IAM names
// it apart). Reads of an index need dynamodb:Query on the index's ARN
// (table/…/index/roomId-createdAt-index), which a grant on the table alone
// does not cover.
//
// Grants records exactly what each interface's methods call, from the
// conformance suite on DynamoDB Local (package iam); "ddbkit iam
// livecomment -interface CommentPoster -env prod" prints a function's
// policy, with nothing more than its calls need. An alias's policy is its
// interface's: -interface ConnectionStore for Disconnecter.
//
// A ConditionCheckItem, like every conditional write, returns the item it
// fails on (ddbkit asks for it, to tell a closed room from a missing one),
// so PostCommentFunction can read a closed room's item through it. Where a
// role must not, Options.WithholdOldItems stops ddbkit asking: PostComment
// to a closed or missing room, CreateRoom on a taken ID, and CloseRoom and
// CloseRoomAs on a room they do not close (closed, missing, or another
// host's), then return ErrConflict saying the item was withheld (package
// iam).
//
// # Decisions where the seed is silent
//
//   - Comments are listed in createdAt order, from roomId-createdAt-index:
//     the seed's comment IDs are random, and its design says to order by
//     createdAt. The order is that of the stored createdAt strings, byte by
//     byte, as DynamoDB compares String keys. For the form this package
//     and toISOString write, that is time order. Other ISO 8601 forms that
//     another writer may have stored sort as strings, not as times:
//     "2024-01-05T19:00:00+09:00" (10:00 UTC) sorts after
//     "2024-01-05T18:00:00.000Z", and "2024-01-05T10:00:00Z" after
//     "2024-01-05T10:00:00.500Z". ListComments does not reorder them (it
//     could not page if it did); their CreatedAt is still read as the right
//     instant.
//   - Newest first (ListCommentsNewest, for a viewer who joins late) reads
//     the same index descending, so its order is exactly ListComments'
//     reversed, ties included, sharded or not; a cursor is bound to its
//     direction, and the other listing refuses it (ErrInvalidCursor).
//   - Ties: a store never stamps the same millisecond twice (a burst, or a
//     frozen test clock, advances its stamps by a millisecond each), so one
//     store's comments never share a createdAt and list in the order it
//     posted them. Comments of the same createdAt from different writers
//     come in an order DynamoDB does not document; the memory store, which
//     holds only its own, never has any. Pages never skip or repeat a
//     comment either way: a cursor holds the comment's full key.
//   - Comment IDs are UUIDv7s (still UUIDs, as the seed says) whose
//     timestamp is the comment's createdAt, so the base table's sort key is
//     in time order for this package's comments too. A generator's IDs of
//     one instant count up, and past the counter's room the timestamp
//     advances, so they stay in creation order past any burst.
//   - A comment can be posted only while its room exists and is OPEN, checked
//     in the transaction that stores it (or, with Options.RoomCheckCache,
//     by a read the store trusts for that long; see "Sharded comments"). A missing room is ErrNotFound; a
//     closed one is ErrRoomClosed, which matches ErrConflict. The same holds
//     for JoinRoom.
//   - Closing is OPEN→CLOSED once, in one conditional write that also stamps
//     updatedAt. Closing a closed room returns it unchanged, without error,
//     so a retried or repeated close is harmless and never moves updatedAt.
//     No comment a store posted is newer than its close of the room: a
//     store's close (either store's) waits for its posts in flight to the
//     room and holds back new ones until it is written. A post from another
//     process (another DynamoStore, the seed's app) stamps with its own
//     clock, and may commit while the close is on its way to DynamoDB; such
//     a comment can be newer than the close by up to that round trip.
//   - Who may close: CloseRoomAs closes a room only for its host (the
//     room's hostId), checked in the condition of its one write, so the
//     check costs no read; anyone else is ErrPermissionDenied and nothing
//     is written. CloseRoom checks no one: it is the trusted close, for
//     moderation and the system, and for a caller that checked already.
//   - Who may post and join stays the caller's to decide: the seed keeps
//     nothing to check it against. Viewers have no identity in its tables
//     (a comment carries an optional nickname, a connection API Gateway's
//     connectionId), and rooms list no members or bans; anyone who knows
//     an OPEN room's ID may post and join, as in the seed's app. A check
//     (an authorizer on the WebSocket API, a signed invitation to the
//     room) belongs before the call, where the caller's identity is.
//   - Closing a room leaves its connections: the CloseRoomFunction cannot
//     write Connections. The caller broadcasts a closing notice, and clients
//     disconnect (or are disconnected when a send finds them gone).
//   - Room, host and connection IDs are 1–128 characters of one alphabet,
//     enforced identically by both stores: graphic characters
//     (unicode.IsGraphic), no white space and no '#'. They need not be
//     UUIDs: API Gateway connection IDs are not, and host IDs come from
//     elsewhere.
//   - A connection is in at most one room. Joining again overwrites its item:
//     it moves to the new room, and its timestamp becomes the time of the
//     latest join. Disconnect is idempotent.
//   - All indexes project ALL attributes: the items are small, and a listing
//     then needs no GetItem per item. roomId-index has no sort key, so a
//     room's connections come in no particular order; hostId-index orders a
//     host's rooms by createdAt, newest first (rooms of different writers
//     created in the same millisecond in an order DynamoDB does not
//     document).
//   - Listings read indexes, which are eventually consistent on DynamoDB
//     (GSIs cannot be read consistently): a comment may take a moment to be
//     listed after PostComment returned. Gets are strongly consistent (see
//     "Consistency and capacity"). The memory store's indexes are
//     consistent at once, unless Options.Emulation.GSILag makes them lag
//     as DynamoDB's may, so that a unit test meets the lag.
//   - Writes are retried within Options.Retry after throttling, conflicts,
//     5xx and lost responses, and each recognises its own earlier success
//     only by proof: transactions (CreateRoom, PostComment, JoinRoom)
//     repeat one ClientRequestToken, so DynamoDB answers an attempt whose
//     twin committed with success; CloseRoom returns the stored room;
//     Disconnect deletes what is already gone. CreateRoom is a one-item
//     TransactWriteItems (a put on condition that the ID is free) rather
//     than a PutItem for that
//     reason: a room found under its new ID is another caller's
//     (ErrAlreadyExists), never taken for its own because it looks the
//     same. Reads (gets and each Query of a page) are retried within
//     Options.Retry too. Every step (a write, a get, a Query, one of
//     Broadcast's deletes) has exactly one retry loop, so it makes at most
//     Options.Retry.MaxAttempts calls.
//   - Validation, the same on both stores, before any call: comment
//     content is 1–500 characters and may hold new lines; a nickname is up
//     to 50 characters on one line, "" meaning "Anonymous"; room names are
//     1–100 characters on one line. One line (room names and nicknames,
//     which pages display) means no control characters. Limits count
//     characters, not bytes. A required text that is empty or only white
//     space is refused ("must not be empty or only white space", the
//     wording of every ddbkit domain), and so is a nickname of white space
//     only (leave it empty for "Anonymous"); what passes is stored as
//     given, not trimmed. No input
//     carries a time: the times written (createdAt, updatedAt, the
//     connections' timestamp) are the store's stamps from Options.Clock,
//     and a reading outside the years 0001-9999 (UTC), which no reader
//     could parse back, fails the write with ErrInvalidArgument naming
//     Clock, and is not kept as the floor of later stamps. Every item
//     written is checked against DynamoDB's 400 KB item limit (an error
//     naming Name, Content or ConnectionID); the field limits keep this
//     package's items under 3 KB, so it cannot fail for valid input today.
//   - A CursorSecret of 1 to 15 bytes is refused: every listing, and so
//     Broadcast, fails with ErrInvalidArgument naming CursorSecret.
//   - Reads are lenient. A missing attribute reads as its zero value (a
//     missing or empty nickname as "Anonymous", the seed's default), a
//     status other than OPEN or CLOSED is returned as stored and takes no
//     comments. An item that cannot be decoded (an attribute of another
//     type, a timestamp that is no ISO 8601 time, or one outside the
//     years 0000 to 9999 in UTC) is ddbkit.ErrCorruptItem for a get; a
//     listing leaves it out of Items, reports it in
//     Page.Skipped, and goes on.
//   - Broadcast sends with bounded concurrency and deletes the connections
//     that are gone (ErrGone, API Gateway's GoneException or HTTP 410).
//     Sends that return at once (within the process) run one after
//     another on the caller's goroutine, since a hand-off costs more than
//     they do; from the first slow one, the rest go to the workers.
//
// # Idempotency keys
//
// A write made under a key (ddbkit.WithIdempotencyKey) is made once: a
// repeat with the same input within ddbkit.IdempotencyWindow (24 hours, by
// Options.Clock) returns the first call's result and writes nothing more,
// from any store on the same tables. CreateRoom, PostComment and JoinRoom,
// which stamp a fresh createdAt (and ID) each call, return the room,
// comment or connection the first call wrote, read back (ErrNotFound if
// it is gone since; a connection that moved since is returned where it
// is). CloseRoom, CloseRoomAs and Disconnect, whose repeat is harmless,
// run again without the key and return what they return without one. The
// same key with other input (another name, content, nickname, room or
// actor) is ErrIdempotencyKeyReused, which matches ErrConflict, and writes
// nothing. Past the window the key is a new request.
//
// A key is scoped to the table written, the operation and the partition
// the write belongs to, from the caller's input: the host for CreateRoom
// (the room's ID is made by the call), the room for PostComment, CloseRoom
// and CloseRoomAs, the connection for JoinRoom and Disconnect. One key
// used by two hosts, rooms or connections, for two operations, or on two
// environments' tables makes unrelated requests, and all those writes
// succeed.
//
// The key's record (see "Other writers") commits in the same transaction
// as the write's first item, so it exists exactly when the write does;
// PostComment and JoinRoom put their item before the room check in their
// transaction for that reason, and when both fail (a comment ID the
// generator repeated, in a closed room), ErrAlreadyExists is the error
// reported. The key also becomes the ClientRequestToken of the write's
// transactions, which DynamoDB keeps ten minutes and DynamoDB Local as
// long as it runs (so there, past the window, a new request under an old
// key is refused as a reuse). The memory store's token window runs on its
// last stamp: wall time with the default clock, a test's clock otherwise.
//
// The cost: under a key, every write first reads the key's record (1
// consistent GetItem), and its first transaction carries the record (one
// item more; CreateRoom's becomes a two-item TransactWriteItems);
// CloseRoom, CloseRoomAs and Disconnect, which write no transaction, put
// the record (1 conditional PutItem) after their write. A repeat that a
// record answers is that GetItem and, for CreateRoom, PostComment and
// JoinRoom, one GetItem of the item the first call wrote.
//
// # Consistency and capacity
//
// Each access pattern reads and writes the least its design allows, and
// TestCapacity holds each to its budget on DynamoDB Local (items of this
// package's sizes, under 1 KB each):
//
//	pattern             consumed                      consistency
//	GetRoom             1 RCU                         strong
//	GetConnection       1 RCU                         strong
//	ListHostRooms       0.5 RCU per 4 KB of entries   eventual (an index)
//	ListComments        0.5 RCU per 4 KB of entries   eventual (an index); sharded: per Query, N+1 Queries
//	ListCommentsNewest  0.5 RCU per 4 KB of entries   eventual (an index); sharded: as ListComments
//	ListConnections     0.5 RCU per 4 KB of entries   eventual (an index)
//	CreateRoom          4 WCU (table, hostId-index; doubled in a transaction)
//	CloseRoom           2 WCU (table, hostId-index)
//	CloseRoomAs         2 WCU (the same update); refused, the failed condition costs 1 WCU
//	PostComment         6 WCU (put to table and index, room check; doubled in a transaction);
//	                    4 WCU with RoomCheckCache, and 1 RCU per read of the room
//	JoinRoom            6 WCU (the same for a connection)
//	Disconnect          2 WCU (table, roomId-index); 1 for a connection already gone
//	under a key         1 RCU and 2 WCU more (the record, in the transaction; CloseRoom,
//	                    CloseRoomAs and Disconnect put it after their write, 1 WCU)
//	Broadcast           a listing per page, and a Disconnect per gone connection
//
// No method scans, and no listing filters: the seed's Scan + Filter for a
// host's rooms is replaced by the hostId-index it recommends, so every page
// reads its limit of index entries, and one more, whatever the partition
// holds (no work proportional to data the caller does not get back, and no
// filter budget to set).
//
// The two gets stay strongly consistent, at twice an eventual read's
// price, because their callers read what they have just written: a host
// opens the room CreateRoom returned, and a viewer who just joined posts
// through the connection JoinRoom stored; an eventual read could answer
// ErrNotFound for either. A room's status is checked again, strongly, in
// the transaction of every post and join, so a stale status could not let
// one through; the gets are strong for the caller's sake, not for that
// check's. The listings read global secondary indexes, which DynamoDB
// cannot read strongly, and pay half. A page reads one entry past its
// limit, to tell whether another page follows; the entries are small, so
// that rarely crosses a 4 KB unit. The indexes project ALL attributes: a
// listing then needs no GetItem per entry, and a narrower projection
// would not lower a Query's price, which counts the entries read, not the
// attributes returned. CloseRoom (and CloseRoomAs) returns the closed room from its own
// UpdateItem (ReturnValues), which costs no read.
//
// # Sharded comments
//
// A room's comments share one partition-key value, roomId, in the table
// and in roomId-createdAt-index. DynamoDB serves one value about 1,000
// WCU/s, and a post writes 2 WCU to each (a transactional put of an item
// under 1 KB): one room takes about 500 comments/s at most, and a throttled
// index partition throttles the table's writes too. Options.CommentShards
// = N (2 to MaxCommentShards) spreads a room's new comments over N
// partitions; 0 (the default) or 1 is the seed's layout, unchanged, as a
// shard count of 0 or 1 is in taskmgmt and kondate.
//
//   - The layout: a new comment's roomId is "{roomId}#{shard}", the shard
//     being CommentShard(commentId, N): FNV-1a (32 bits) of the comment
//     ID's bytes, modulo N, in decimal ("…#0" to "…#15" for N = 16), so a
//     comment's shard is recomputable from its ID and another writer can
//     write the layout. The sort key, commentId, and every other attribute
//     are unchanged. Room IDs hold no '#', so the suffix is unambiguous;
//     reads strip it (Comment.RoomID is the room's ID).
//   - Which key carries the shard: roomId, which is both the table's
//     partition key and the index's, so both are sharded by the one
//     attribute. Both need it: every post writes the table's partition and
//     the index's alike, and either would cap the room. Sharding only the
//     index would take a new attribute and a new GSI (an index's key
//     cannot change in place) and leave the table's partition hot;
//     sharding only the table is impossible, the attribute being shared.
//     No table or index changes: the same definitions serve both layouts.
//   - ListComments merges, with a k-way merge, the room's N shards and its
//     unsharded partition (shard "none": the comments posted before the
//     switch, and those the seed's app still posts), each read by its own
//     Query of roomId-createdAt-index, in the index's order: createdAt,
//     then, for equal createdAt, the index's tie order (DynamoDB Local
//     orders ties by a digest of the comment ID, and the merge compares
//     the same digest), so the merged order is total, deterministic and
//     exactly the unsharded listing's over the same comments (tested
//     against it on both stores, ties across shards included). Newest
//     first, each Query runs descending and the partitions are merged in
//     the reverse order, so that a tie between partitions is broken the
//     other way too: the listing is the oldest-first one reversed. DynamoDB
//     documents no order for ties; a store never stamps a millisecond
//     twice, so only other writers' comments tie.
//   - Pages: a page holds the limit's comments, or all that is left, and
//     Next is "" exactly when nothing follows, as today: each shard's
//     Query reads the page's limit and one more from the shard's position.
//     Items that cannot be decoded are reported in Page.Skipped and count
//     toward the page, as today.
//   - The cursor holds every partition's position (the createdAt and
//     commentId of the last comment listed from it) in one cursor,
//     tagged as a whole (HMAC, keyed by CursorSecret) and bound to the
//     Comments table, the room and N; each position is rebuilt as a key
//     of its own partition, so even a forged cursor reads nothing else.
//     Unsharded cursors are refused by the sharded listing and the other
//     way round, as are cursors of another N or of the other direction: after changing
//     CommentShards, a listing restarts without a cursor. A position is a
//     comment that was listed, so pages never skip or repeat a comment of
//     a shard, whatever order DynamoDB gives its ties. Comments posted
//     after a page are listed by the next ones, in their place. The cursor
//     grows with N, its positions compressed: after a page of 50 in a busy
//     room, 0.3 KB for N = 16 and 0.5 KB for 64 (TestShardedReadCost
//     logs them). The merge, its Queries and its cursor are ddbkit's one
//     merged listing, which kondate's sharded catalog uses too.
//   - Read cost: N+1 Queries per page, whatever its limit, each reading up
//     to the limit and one more entries, so up to (N+1)×(limit+1) entries
//     read for limit returned, at 0.5 RCU per 4 KB per Query, each
//     rounded up on its own. With comments spread evenly, each shard
//     gives about limit/N of the page but reads up to limit+1 entries: a
//     page of 50 comments of about 140 bytes, in a busy room of 16 shards,
//     reads 16 × 51 entries (and an empty unsharded partition), 16 RCU,
//     where the unsharded page reads 1 RCU (see the table below). Reading
//     fewer per shard would take a second Query of the shards that run
//     dry, and so more than N+1 Queries; the bound was kept. The Queries
//     run concurrently on DynamoDB (up to 16 at once), so a page takes
//     about the time of one. Prefer small pages with many shards.
//   - Writes cost what they cost unsharded: the same item, in another
//     partition. Idempotency keys stay scoped to the room.
//   - The room check cannot be sharded: by default every PostComment
//     checks the room's item in its transaction, which writes 2 WCU to
//     that one item, whose limit (about 1,000 WCU/s) caps a room near 500
//     posts/s however many shards its comments have. Options.RoomCheckCache
//     takes the check off the item: a store reads the room (one
//     consistent GetItem, 1 RCU) and trusts an OPEN status for that long,
//     by its posts' stamps, then puts each comment alone, in a one-item
//     transaction (4 WCU on the shard's partitions, nothing on the room).
//     A CLOSED room, read or closed by the store, stays refused without a
//     read; a missing room is read again on every post. The price: a post
//     may be stored up to RoomCheckCache after another process closed the
//     room (the store's own close still holds back its posts), and
//     PostComment needs dynamodb:GetItem on Rooms (see "Roles"). A busy
//     room needs both options; either alone keeps it near 500 posts/s.
//
// What the layouts sustain, and what a page costs, in one room
// (TestCommentThroughput drives PostComment through ddbtest's partition
// model, with DynamoDB's limits and a burst of 50 ms, in virtual time;
// TestShardedReadCost reads a page of 50 in a busy room on DynamoDB Local,
// comments of about 140 bytes):
//
//	                          PostComment, < 1% throttled
//	layout       Comments     room checked      RoomCheckCache   a page of 50
//	             partitions   (the default)
//	seed's       500/s        500/s             500/s            1 Query, 1 RCU
//	4 shards     1,961/s      500/s             1,500/s          5 Queries, 4 RCU
//	16 shards    7,710/s      500/s             7,000/s          17 Queries, 16 RCU
//	64 shards    29,069/s     500/s             20,000/s or more 65 Queries, 64 RCU
//
// The Comments partitions' figure is the rate at which the hottest of the
// table's and the index's partitions reaches 1,000 WCU/s, at 2 WCU a post
// (the hash spreads comments nearly, not exactly, evenly). PostComment's
// are the highest rates of a ladder (…, 1,500, 2,000, 3,000, 5,000, 6,000,
// 7,000, 10,000, 20,000) it sustains: with the room checked in its
// transaction, 500/s on every layout (the room's item); with
// RoomCheckCache, the shards' rate. 16 shards and RoomCheckCache carry the
// issue's 5,000 comments/s into one room.
//
// When to switch: when a room's sustained posting rate nears 400 posts/s
// (the unsharded partitions' 500, less headroom), or DynamoDB reports
// throttling on roomId-createdAt-index, the table's partition of one room
// or the room's item. Choose N for the peak rate at 2 WCU per post on
// each partition: N ≥ rate / 400 (N = 16 for 5,000 posts/s), and no more
// than that, as every page costs N+1 Queries; and set RoomCheckCache (a
// second, say: how late after another process's close a post may land).
//
// How to migrate a live table: no rewrite, no new index. Grant
// PostComment's role GetItem on Rooms if RoomCheckCache is to be set.
// Deploy the stores with CommentShards set; new comments go to the
// shards, old ones stay where they are and are read as the unsharded
// partition of the merge, as are the comments the seed's app keeps
// posting there meanwhile. Cursors
// issued before the switch are refused (ErrInvalidCursor): the listing
// restarts. All stores of the table must use the same N: a store with a
// smaller N does not read the shards past its own. N may later grow,
// since a larger N reads every shard of a smaller one, but never shrink.
//
// What the seed's own app no longer reads once sharding is on: it queries
// roomId = the room's ID (its own table has no roomId-createdAt-index, and
// it reads the base table), so it sees only the room's unsharded
// partition: the comments posted before the switch and its own, none of
// the sharded ones. Move the app's readers (GetRoomCommentsFunction) to
// this package, or to the layout above, before any writer shards.
//
// # Other writers
//
// The seed's Lambda functions keep writing these tables. What they, or any
// other program, must maintain for this package to read and order their
// items, and what happens if they don't:
//
//   - Rooms: roomId, hostId and createdAt are Strings; a room without them
//     is missing from hostId-index, so ListHostRooms never lists it
//     (DynamoDB refuses a write with another type once the index exists).
//     status is "OPEN" or "CLOSED": PostComment and JoinRoom accept only
//     "OPEN", and CloseRoom closes only an "OPEN" room. Close with the
//     condition status = "OPEN" and stamp updatedAt in the same write, or
//     a concurrent close of this package may be overwritten.
//   - Comments: roomId, commentId and createdAt are Strings (roomId as
//     "{roomId}#{shard}" for the sharded layout, with CommentShard's
//     shard: another shard's comments are listed all the same, but a
//     count past N is never read), and createdAt
//     is in the form "YYYY-MM-DDThh:mm:ss.sssZ" (toISOString's): a comment
//     without createdAt is missing from roomId-createdAt-index and never
//     listed, and one in another form is listed where its string sorts (see
//     above). A writer that does not check the room's status can post to a
//     closed room, and after the close; ListComments lists such comments
//     all the same.
//   - Connections: connectionId and roomId are Strings; a connection
//     without roomId is missing from roomId-index and never receives a
//     broadcast. The app's roomId-index must project ALL attributes (CDK's
//     default); EnsureTables reports another projection as
//     ErrSchemaMismatch, since an index cannot be changed in place.
//   - Timestamps in any ISO 8601 form are read; anything else makes the
//     item corrupt (ErrCorruptItem on a get, Page.Skipped in a listing), as
//     does an attribute of another type than the layout's.
//   - Clocks: the promise that no comment is newer than the close assumes
//     the writers' clocks agree.
//   - Idempotency records, a layout extension the seed does not have,
//     written by ddbkit only for writes made under an idempotency key, in
//     the table the write writes (Rooms for CreateRoom, CloseRoom and CloseRoomAs,
//     Comments for PostComment, Connections for JoinRoom and Disconnect):
//     one item per key and scope, keyed roomId (or connectionId) =
//     "IDEMPOTENCY#<32 hex>", and commentId the same in Comments, with
//     fingerprint (S, a SHA-256 of the operation and its input), refPK and
//     refSK (S, the key of the item the write wrote; none for CloseRoom, CloseRoomAs
//     and Disconnect) and expiresAt (N, Unix seconds, 24 hours after the
//     write). No table has TTL, so nothing deletes them: they stop
//     answering at expiresAt, and stay until someone deletes them (enable
//     TTL on expiresAt to have DynamoDB do it). They have no hostId,
//     createdAt or roomId attribute, so no index holds them and no
//     listing sees them; a Scan does (and Export: Import takes them back).
//     Other writers ignore them. The cost: a keyed write makes one extra
//     consistent GetItem, and its first transaction carries one more item
//     (a keyed CreateRoom's is a two-item transaction), 2 WCU more.
//
// # Raw items
//
// MemoryStore.Export returns what a memory store holds as DynamoDB items,
// by table, attribute for attribute as DynamoStore writes them: a test can
// compare it with a Scan of the real tables. MemoryStore.Import seeds a
// memory store with items in the seed's layout, as the seed's app writes
// them or as a Scan of a production table returns them, so a unit test can
// start from real data, and the legacy fixture runs on both stores. Both
// use DynamoStore's own encoding and decoding, so the layouts cannot
// drift. Imported items are read as leniently as DynamoStore reads them and
// kept as they are: Export returns them unchanged, CloseRoom sets only
// status and updatedAt as DynamoStore's UpdateItem does, and the listings
// order them by their stored strings, as DynamoDB's indexes do (a
// "+09:00" createdAt sorts as that string; see above). An item whose index
// key attributes are not all non-empty Strings is left out of that index,
// as DynamoDB leaves it out. Import refuses, all or nothing, an item that
// DynamoStore could not read (ErrCorruptItem, naming table, key and
// attribute), whose key DynamoDB could not hold, that holds a nil attribute
// value anywhere (at the top or nested), or that is over 400 KB, so a
// memory store never holds a corrupt item and its pages never report
// Skipped ones.
package livecomment
