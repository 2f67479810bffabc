// Package livecomment stores the Live Comment application's rooms, comments
// and WebSocket connections in three DynamoDB tables, exactly as its design
// document (seed 002) lays them out, with an in-memory twin for unit tests.
//
// # Tables
//
// Each environment (Options.Env, the seed's ${environmentName}: "dev",
// "prod", ...) has its own three tables, which is how the seed keeps
// development data away from production. All keys and attributes are
// Strings, billing is on demand. CreateTableInputs returns their
// definitions; EnsureTables creates the missing ones.
//
//	table                          key                       attributes / index
//	LiveComment-Rooms-{env}        roomId                    name, hostId, status (OPEN|CLOSED), createdAt, updatedAt
//	                                                         GSI hostId-index: hostId, createdAt; projection ALL
//	LiveComment-Comments-{env}     roomId, commentId         content, nickname, createdAt
//	LiveComment-Connections-{env}  connectionId              roomId, timestamp
//	                                                         GSI roomId-index: roomId; projection ALL
//
// Timestamps, the connections' timestamp included, are ISO 8601 UTC with
// milliseconds ("2024-01-01T00:00:00.000Z"). Room IDs are UUIDv4s, made by
// the store. The seed's deletion policy is its stack's business, not this
// package's: dev tables are destroyed with their stack, prod tables are
// retained; EnsureTables never deletes or changes a table.
//
// # Access patterns
//
//	seed pattern                      method            DynamoDB calls
//	room by roomId                    GetRoom           1 GetItem
//	a host's rooms (hostId-index)     ListHostRooms     1 Query of the index per page, newest first
//	  create a room                   CreateRoom        1 PutItem
//	  close a room                    CloseRoom         2 UpdateItem (1 when already closed)
//	a room's comments                 ListComments      1 Query per page, oldest first
//	post a comment (PutItem)          PostComment       1 TransactWriteItems (room check + put)
//	connection by connectionId        GetConnection     1 GetItem
//	a room's connections (GSI)        ListConnections   1 Query of the index per page
//	joinRoom                          JoinRoom          1 TransactWriteItems (room check + put)
//	disconnect (DeleteItem)           Disconnect        1 DeleteItem
//	deliver a new comment             Broadcast         1 Query per page + 1 DeleteItem per gone connection
//
// No method scans: the seed's Scan + Filter for a host's rooms is replaced
// by the hostId-index it recommends.
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
//	PostCommentFunction       Comments rw, Connections r              CommentPoster
//	JoinRoomFunction          Connections rw, Rooms r                 RoomJoiner
//	DisconnectFunction        Connections rw                          Disconnecter (ConnectionStore)
//
// Two writes need a grant the table does not list. PostComment and JoinRoom
// check the room inside their transaction, which takes
// dynamodb:ConditionCheckItem on Rooms (a read of one item, but IAM names it
// apart). Broadcast deletes gone connections, which takes DeleteItem on
// Connections; the seed gives PostCommentFunction read access only.
//
// # Decisions where the seed is silent
//
//   - Comments are in time order without sorting: a comment ID is a UUIDv7
//     (still a UUID, as the seed says) whose 48-bit timestamp is the comment's
//     createdAt, taken from the store's Clock, so the sort key commentId
//     orders comments as createdAt does. Comments of the same millisecond are
//     ordered by the rest of the ID: as posted, for one store, thanks to a
//     counter; the full ID is a total order, so pages never skip or repeat
//     them.
//   - A comment can be posted only while its room exists and is OPEN, checked
//     in the transaction that stores it. A missing room is ErrNotFound; a
//     closed one is ErrRoomClosed, which matches ErrConflict. The same holds
//     for JoinRoom.
//   - Closing is OPEN→CLOSED once. Closing a closed room returns it
//     unchanged, without error, so a retried close is harmless. updatedAt of
//     a closed room is read after the close took effect, so no stored comment
//     is newer (when the writers' clocks agree); on DynamoDB that takes a
//     second UpdateItem.
//   - Closing a room leaves its connections: the CloseRoomFunction cannot
//     write Connections. The caller broadcasts a closing notice, and clients
//     disconnect (or are disconnected when a send finds them gone).
//   - Comment content is 1–500 characters, not only white space; new lines
//     are allowed. A nickname is up to 50 characters on one line; "" means
//     "Anonymous". Room names are 1–100 characters on one line. Limits count
//     characters, not bytes.
//   - Room, host and connection IDs are 1–128 characters without white space,
//     control characters or '#'. They need not be UUIDs: API Gateway
//     connection IDs are not, and host IDs come from elsewhere.
//   - A connection is in at most one room. Joining again overwrites its item:
//     it moves to the new room, and its timestamp becomes the time of the
//     latest join. Disconnect is idempotent.
//   - Both indexes project ALL attributes: the items are small, and a listing
//     then needs no GetItem per item. roomId-index has no sort key, so a
//     room's connections come in no particular order; hostId-index orders a
//     host's rooms by createdAt, and rooms of one host created in the same
//     millisecond in an order DynamoDB does not document.
//   - Index listings are eventually consistent on DynamoDB (GSIs cannot be
//     read consistently); table reads are strongly consistent.
//   - Transactions that DynamoDB throttles, cancels for a conflict or fails
//     with a 5xx are retried, up to Options.MaxAttempts, with one
//     ClientRequestToken, so a retry after a lost response cannot post a
//     comment twice.
//   - Broadcast sends with bounded concurrency and deletes the connections
//     that are gone (ErrGone, API Gateway's GoneException or HTTP 410).
//
// # Errors
//
// Every error starts with "livecomment: " and matches one of ddbkit's
// sentinels with errors.Is: ErrInvalidArgument (as a *ddbkit.ValidationError
// naming the field), ErrNotFound, ErrAlreadyExists (an ID generator that
// repeats), ErrConflict (ErrRoomClosed, or throttling and conflicts that
// outlast the retries) and ErrInvalidCursor. Bad input is refused before any
// call, so nothing is written.
package livecomment
