// Package taskmgmt stores a team task-management app (seed 001) in
// DynamoDB, laid out exactly as the seed's design document has it: users,
// teams and their members, tags, tasks with the board views of the seed's
// status-group indexes, and per-status counters, in one table
// (task-table-v3); the teams' invitations in a second
// (task-table-invitation-v3), whose stream StreamHandler, a Lambda
// function, turns into mails. DynamoStore works on the tables;
// MemoryStore, its in-memory twin for unit tests, behaves the same.
//
// A user, their team, a task moved to doing, the initial board, the
// counts and an invitation (the package's QuickStart example runs it):
//
//	ctx := context.Background()
//	s := taskmgmt.NewMemoryStore() // taskmgmt.NewDynamoStore(client) on DynamoDB: the same methods
//	u, _ := s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "Alice"})
//	team, _ := s.CreateTeam(ctx, u.ID, taskmgmt.NewTeam{Name: "App team"}) // Alice is its admin
//	task, _ := s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: "Deploy", Start: "2025-11-05", End: "2025-12-05"})
//	doing := taskmgmt.StatusDoing
//	_, _ = s.UpdateTask(ctx, team.ID, task.ID, taskmgmt.TaskPatch{Status: &doing})
//	board, _ := s.ListBoard(ctx, team.ID, taskmgmt.BoardQuery{View: taskmgmt.ViewInitial}) // todo and doing, by start date
//	counts, _ := s.GetCounts(ctx, team.ID)
//	inv, err := s.Invite(ctx, team.ID, u.ID, taskmgmt.NewInvitation{Email: "bob@example.com"}) // StreamHandler mails it
//
// After the access patterns come the layout (Table, Indexes,
// Invitations), the mail flow, roles, counters, errors, idempotency keys,
// consistency and cost, what other writers of the tables must keep, and
// the decisions taken where the seed is silent.
//
// # Access patterns
//
// The seed's access patterns and every write, with the DynamoDB calls
// each makes (the package's tests hold each to them). On the task table:
//
//	seed  method                                 DynamoDB calls
//	1     GetUser                                1 GetItem
//	2     ListMembers                            1 Query per page (TEAM#t, SK begins_with USER#)
//	      GetMember                              1 GetItem (TEAM#t, USER#u: one member of pattern 2)
//	3     GetTeam                                1 GetItem
//	4     ListUserTeams                          1 Query per page (USER#u, SK begins_with TEAM#)
//	5     ListTags                               1 Query per page (TEAM#t, SK begins_with TAG#)
//	6     GetTask                                1 GetItem
//	7-15  ListBoard Statuses, Sort (+ Overdue)   1 Query per page of the index whose group is exactly
//	                                             Statuses (see Indexes); Overdue: sort key < START# or
//	                                             END#<today>; any of the 7 sets by start or end date
//	      ListBoard + TagIDs                     Queries with a FilterExpression until the page is full
//	                                             (each reads at most limit+1 minus the matches so far)
//	                                             or Options.FilterBudget tasks are read
//	7     ListBoard ViewInitial                  todo+doing by start: GSI_Status_Start_Sort_Group2 (todo_doing)
//	8     ListBoard ViewTodo                     todo by start: GSI_Status_Start_Sort_Group1 (todo)
//	9-10  ListBoard ViewTodo + TagIDs            the same, filtered
//	11    ListBoard ViewAll                      all three by start: GSI_Status_Start_Sort_All
//	12-13 ListBoard ViewStartOverdue (+ TagIDs)  todo by start, overdue: Group1 todo, start_sort_sk < START#<today>
//	14-15 ListBoard ViewEndOverdue (+ TagIDs)    todo+doing by end, overdue: GSI_Status_End_Sort_Group2
//	                                             todo_doing, end_sort_sk < END#<today>
//	16    GetCounts, ListDailyCounts             1 GetItem; 1 Query per page (COUNTER#<date> range)
//	      CreateUser                             1 TransactWriteItems (one item, with a token)
//	      CreateTeam, AddMember                  1-2 GetItem + 1 TransactWriteItems
//	      SetRole, RemoveMember                  1 GetItem + 1 TransactWriteItems (+ 1 Query when an admin
//	                                             changes their own role; SetRole to the role held: 2 GetItem)
//	      CreateTag                              1 TransactWriteItems (team check + Put)
//	      CreateTask                             1 TransactWriteItems (team and tag checks, Put, 2 counters)
//	      UpdateTask, DeleteTask                 1 GetItem + 1 TransactWriteItems (task, tag checks, counters)
//	                                             (UpdateTask that changes nothing: the GetItem only)
//	      RenameUser                             1 UpdateItem (ALL_NEW: the result) + 1 Query per 1000
//	                                             copies on GSI_Invert + 1 TransactWriteItems per 100
//	                                             stale copies
//	      UpdateTeam                             1 GetItem + 1 TransactWriteItems (the actor's check) + the
//	                                             renamed copies as RenameUser's
//	      DeleteTag                              1 TransactWriteItems (check + delete) + filtered Queries
//	                                             + 1 TransactWriteItems per 100 tasks
//	      DeleteTeam                             1 Query per 1000 items + 1 TransactWriteItems (check + the
//	                                             first 99 deletes) + 1 BatchWriteItem per 25 further items
//	                                             + the actor's own item last
//	      RecalculateCounters                    1 BatchGetItem (team, COUNTER#ALL) + 1 Query per 1000 tasks
//	                                             (+ 1 TransactWriteItems on drift or an expiresAt to remove)
//
// On the invitation table:
//
//	seed  method                                 DynamoDB calls
//	1     ListInvitations                        1 Query per page (newest first, expiresAt > now)
//	2     GetInvitation                          1 GetItem
//	      Invite                                 1 GetItem (team) + 1 Query (earlier invitations of the
//	                                             address) + 1 TransactWriteItems (admin check, team check,
//	                                             deletes of the earlier ones, Put)
//	      AcceptInvitation                       2 GetItem (invitation, user) + 1 TransactWriteItems
//	                                             (Delete of the invitation, team and user checks, both
//	                                             membership items)
//	      RevokeInvitation                       1 TransactWriteItems (admin check, Delete)
//
// # Table
//
// One table, DefaultTableName "task-table-v3" unless Options.TableName
// says otherwise, with String keys PK and SK, provisioned at 5 RCU / 5 WCU
// as the seed says (OnDemandDefinition for on-demand billing), and TTL on
// expiresAt. Definition returns it; EnsureTable creates it, or verifies an
// existing one and adds what is missing.
//
//	item        PK             SK                  other attributes
//	user        USER#<userId>  USER#<userId>       user_email, user_name, user_image, user_createdAt
//	user_team   USER#<userId>  TEAM#<teamId>       user_team_role, user_team_joinedAt, team_name
//	team        TEAM#<teamId>  TEAM#<teamId>       team_name, team_discription
//	team_user   TEAM#<teamId>  USER#<userId>       user_team_role, user_team_joinedAt, user_name
//	team_tag    TEAM#<teamId>  TAG#<tagId>         team_tag_name, team_tag_color (M: color, backgroundColor)
//	task        TEAM#<teamId>  TASK#<taskId>       team_task_title, team_task_discription, team_task_status,
//	                                               team_task_startTime, team_task_endTime,
//	                                               team_task_tagRef (SS of TAG#<tagId>, absent when none),
//	                                               status_group1..3, start_sort_sk, end_sort_sk
//	counter     TEAM#<teamId>  COUNTER#ALL         todo, doing, done (N)
//	            TEAM#<teamId>  COUNTER#<YYYY-MM-DD> todo, doing, done, expiresAt (N, epoch seconds)
//	            (with Options.CounterShards, also COUNTER#ALL#<n> and COUNTER#<YYYY-MM-DD>#<n>: see Sharded counters)
//
// Every item has type (user, user_team, team, team_user, team_tag, task,
// counter). Attribute names are the seed's, its spellings team_discription
// and team_task_discription included: the table in production has them.
// Dates are YYYY-MM-DD strings.
//
// # Indexes
//
// The seed's nine GSIs, each projecting all attributes: GSI_Invert (SK,
// PK), and GSI_Status_{Start,End}_Sort_{All,Group1,Group2,Group3}, whose
// partition key is PK (All) or status_group1..3 and whose sort key is
// start_sort_sk (START#<startTime>) or end_sort_sk (END#<endTime>). A
// task's status_groupN is TEAM#<teamId>#Status#<group>, its status's group
// in the seed's grouping:
//
//	status   Group1       Group2       Group3
//	todo     todo         todo_doing   todo_done
//	doing    doing_done   todo_doing   doing
//	done     doing_done   done         todo_done
//
// The seed's examples write TEAM#t{teamId} in two places; the stray 't' is
// a typo, and this package writes and reads TEAM#<teamId>#Status#<group>.
// Every write of a task writes all five index keys with its status and
// dates, so a GSI entry is never stale.
//
// The groupings exist so that every set of statuses a board shows, by
// either date, is one partition of one index: ListBoard reads, for
// BoardQuery.Statuses and Sort, the index whose group holds exactly those
// statuses (all three: the All index, whose partition key is PK). Each
// Group index serves the boards of its two groups, and all eight status
// GSIs are read:
//
//	statuses     index, by start / by end                          partition
//	todo         GSI_Status_{Start,End}_Sort_Group1                TEAM#<teamId>#Status#todo
//	doing+done   GSI_Status_{Start,End}_Sort_Group1                TEAM#<teamId>#Status#doing_done
//	done         GSI_Status_{Start,End}_Sort_Group2                TEAM#<teamId>#Status#done
//	todo+doing   GSI_Status_{Start,End}_Sort_Group2                TEAM#<teamId>#Status#todo_doing
//	doing        GSI_Status_{Start,End}_Sort_Group3                TEAM#<teamId>#Status#doing
//	todo+done    GSI_Status_{Start,End}_Sort_Group3                TEAM#<teamId>#Status#todo_done
//	all three    GSI_Status_{Start,End}_Sort_All                   TEAM#<teamId> (PK)
//
// An overdue board (BoardQuery.Overdue) is the same Query with the key
// condition start_sort_sk < START#<today> (by start) or end_sort_sk <
// END#<today> (by end). A task without a date, which only another writer
// makes, has no sort key for it (the item lacks the attribute, never holds
// "" or "START#"), so the index of that date leaves it out: it is in no
// board sorted by the missing date, overdue or not, and in every board
// sorted by a date it has. UpdateTask keeps it so.
//
// # Invitations
//
// A second table, DefaultInvitationTableName "task-table-invitation-v3"
// unless Options.InvitationTableName says otherwise, holds the teams'
// invitations, as the seed's second half lays it out: String keys PK and
// SK, no GSI, provisioned at 1 RCU / 1 WCU (OnDemandInvitationDefinition
// for on-demand billing), TTL on expiresAt, and a stream of new images
// whose inserts a Lambda function mails. InvitationDefinition returns it;
// EnsureInvitationTable creates it, or enables TTL and the stream on an
// existing one.
//
//	item        PK             SK                  other attributes
//	invitation  TEAM#<teamId>  TINVITE#<inviteId>  email, user_role (admin, member),
//	                                               createdAt, expiresAt (N, epoch seconds),
//	                                               invitedBy (USER#<userId>), token, team_name
//
// StreamHandler is the Lambda function: it decodes the stream's INSERT
// records of type invitation and gives each Invitation to a Mailer, with
// the invitation's ID as idempotency key. It takes aws-lambda-go's
// events.DynamoDBEvent and returns its events.DynamoDBEventResponse, the
// types every Go function on a stream uses, so lambda.Start(h.Handle)
// works as is. MemoryStore.TakeStream gives the same records for unit
// tests.
//
// # The stream handler on Lambda
//
// Lambda hands the function a batch of a shard's records, in order, and
// retries from the earliest record the response reports (it checkpoints
// the ones before it). So Handle stops at the first record it cannot mail
// now (a transient mail error, a hashed token without
// StreamHandler.TokenSecret, ctx ended, or less than
// StreamHandler.DeadlineMargin left before the function's timeout), and
// reports it and every later record of the batch; it mails nothing twice
// in one invocation, and a retry mails nothing that was mailed before the
// failure. A record that retrying cannot mend (corrupt, invalid, a token
// that does not derive from the secret, a mail the Mailer refuses with
// ErrPermanentMail) is skipped and told to StreamHandler.OnSkip, where
// the application alerts: it never holds up the shard. Delivery stays at
// least once: a mail call cut off by the deadline may have been sent, and
// a function that crashes is retried whole. A Mailer that deduplicates
// on the idempotency key (a table of the keys it sent, written on
// condition attribute_not_exists, or a mail provider's own idempotency
// key) never sends an invitation twice across Lambda's retries.
//
// The event source mapping that subscribes the function to the
// invitation table's stream needs the settings InvitationStreamMapping
// returns. ddbkit export taskmgmt emits it, as an
// AWS::Lambda::EventSourceMapping beside the two tables, in a whole
// CloudFormation template whose Parameters are the function's name or
// ARN and the on-failure destination's ARN, and whose EventSourceArn is
// the invitation table's StreamArn (EventSourceMapping.CloudFormation
// renders it for a template of your own). Its choices:
//
//   - FunctionResponseTypes: [ReportBatchItemFailures]. Without it Lambda
//     ignores the response and checkpoints the whole batch: a failed mail
//     is lost.
//   - BisectBatchOnFunctionError: false. Bisecting splits a batch whose
//     invocation failed as a whole to isolate a bad record; Handle never
//     fails as a whole (its error is nil, and DeadlineMargin keeps it
//     from timing out), and its report already names the exact record to
//     retry from, so bisecting would only retry the rest in smaller
//     batches. (True does no harm; it helps only a function that
//     crashes.)
//   - MaximumRetryAttempts: finite. The default, -1, retries a failing
//     record until it leaves the stream, 24 hours later, and holds up
//     every record of its shard behind it.
//   - MaximumRecordAgeInSeconds: at most Options.InvitationLifetime (an
//     expired invitation is not mailed anyway; lower it for a lifetime
//     shorter than InvitationStreamMapping's age): it bounds how long an
//     outage of the mailer can hold up the shard.
//   - DestinationConfig.OnFailure: an SQS queue or SNS topic. When a
//     batch exhausts its retries or its age, Lambda sends there the
//     batch's shard and range of sequence numbers (not the records) and
//     goes on. The range includes the records after the failing one,
//     which Handle never reached: alert on it, and re-read the range from
//     the stream within its 24 hours, or re-invite.
//   - StartingPosition: LATEST, for a new function; TRIM_HORIZON mails
//     the live invitations of the stream's last 24 hours as well.
//   - FilterCriteria: {"eventName": ["INSERT", "REMOVE"]}, so that Lambda
//     does not invoke the function for the MODIFY records Handle ignores.
//     It keeps the REMOVEs (a few more invocations: acceptances,
//     revocations, replacements, TTL) for the next section's sake; a
//     mapping that keeps INSERT records only still works, and mails every
//     replaced invitation.
//
// The function's role may call dynamodb:DescribeStream, GetRecords,
// GetShardIterator and ListStreams on the stream, and sqs:SendMessage (or
// sns:Publish) on the destination; nothing on the table itself.
//
// # Replaced invitations and their mails
//
// Inviting an address again replaces its live invitation (see "Email
// addresses" and Invite): the earlier one is deleted, its link dead. Its
// INSERT may still be mailed. Within one batch, StreamHandler does not
// mail an INSERT whose item a later REMOVE record of the batch deletes
// (a replacement, a revocation, an acceptance): a quick resend mails the
// live link only, at no cost (no read; the REMOVE is in the batch
// anyway). Across batches it mails each INSERT it gets: an invitation
// replaced after its batch was handled was mailed, and its link then
// fails with AcceptInvitation's ErrNotFound, the one error of every
// replaced, revoked or accepted invitation; the invitee holds the later
// mail with the live link. The handler does not read the table to tell,
// by design: its role then needs no access to the table (least privilege:
// a leaked role reads neither tokens nor addresses), a read would spend
// the invitation table's one read unit per mail, and it would not close
// the window, as a replacement may commit right after the read. A Mailer
// whose mail says that the latest link is the one that works spares the
// invitee the puzzle.
//
// # Email addresses
//
// This is the one statement of the package's rule for email addresses. An
// address is a plain address as net/mail parses it (no display name, no
// angle brackets), at most 254 bytes, and it is stored exactly as given.
// Two addresses are the same address when they are equal ignoring the
// case of the ASCII letters A to Z only: Bob@Example.com is
// bob@example.com. Nothing else is folded: not Unicode case (the Kelvin
// sign K would fold to k, making "\u212Aim@example.com" someone else's
// kim@example.com), not dots, not +tags. The comparison decides which
// earlier invitations an Invite replaces and, under
// Options.AcceptOnlyAddressee, whether the user accepting is the
// invitation's addressee.
//
// Every write of an address checks it by this one rule: CreateUser
// (user_email) and Invite (email) refuse any other with ErrInvalidArgument
// naming Email, so that no user is stored whom AcceptOnlyAddressee could
// never match, and the stream handler skips an invitation another writer
// stored with one. Reads stay lenient: a user or invitation item whose
// address breaks the rule (the seed's own example, alice-at-example.com,
// does) decodes as stored.
//
// # Roles
//
// The seed's roles are admin and member. Every operation they restrict
// takes the acting user and checks the actor's team_user item
// (TEAM#<team>/USER#<actor>, user_team_role) with a ConditionCheck in the
// same transaction as its write, or in the write's own condition when the
// actor's item is the one written, so that a demoted or removed admin
// writes nothing. A refusal matches ddbkit.ErrPermissionDenied (an HTTP
// handler maps it to 403), and ErrNotAdmin too, never ErrConflict.
//
//	operation                          admin       member       non-member
//	CreateTeam                         any user; the creator becomes the admin
//	UpdateTeam, DeleteTeam             yes         no           no
//	AddMember                          yes         no           no
//	SetRole                            yes         no (own too) no
//	RemoveMember of another member     yes         no           no
//	RemoveMember of themself (leave)   yes         yes          -
//	DeleteTag                          yes         no           no
//	Invite, RevokeInvitation           yes         no           no
//	AcceptInvitation                   whoever holds the token (see Invitations)
//	reads, CreateTag, tasks, counters  not checked: the caller's
//
// Details:
//   - No one adds themself (AddMember with actor = user is refused): a
//     user joins through an invitation.
//   - A team keeps an admin. An admin acting on another member stays an
//     admin (the check holds), so no other-admin search is needed; an
//     admin demoting or removing themself needs another admin, checked in
//     the same transaction (ErrConflict without one).
//   - A target that is not a member is ErrNotFound before any role check
//     (SetRole, RemoveMember): membership is no secret (ListMembers).
//   - SetRole to the role held writes nothing, so the actor's role as
//     read (a consistent GetItem) decides.
//   - UpdateTeam runs in a transaction, which returns no item: it reads
//     the team, and the update is conditional on the name and description
//     read; the result is the team as read, patched.
//   - DeleteTag deletes the tag in one transaction with the check; a
//     repeat (the tag already gone) checks again before finishing the
//     references, so a member's repeat does nothing.
//   - DeleteTeam checks the actor's role on the items its walk read, then
//     its first write is one transaction of the check and the first 99
//     deletes (every item of a small team): the members' user_team items,
//     the partition, the team item. The actor's own team_user item is
//     deleted last, alone, so a repeat after a failure still finds it and
//     checks it, also once the team item is gone: a repeat finishes only
//     for that admin (the others' team_user items may be gone already),
//     and when only the actor's item is left, its delete, conditional on
//     the admin role, is the check. A member or non-member never deletes
//     anything; once nothing is left, ErrNotFound. Later steps of a
//     deletion an admin began are not checked again.
//
// # Counters
//
// COUNTER#ALL holds the current number of tasks per status; it never
// expires. COUNTER#<YYYY-MM-DD> counts the transitions into each status on
// that day, creations included (a deletion is no transition). Each task
// write updates them in its own transaction, with ADD. A daily counter's
// expiresAt is the start of the following day in Options.Location plus
// Options.CounterRetention (90 days by default); TTL deletes late, so
// ListDailyCounts leaves out counters past their expiresAt. A status move
// and a deletion are conditional on the status (and dates) that were read,
// so that concurrent writers cannot make the counters drift.
// RecalculateCounters rebuilds COUNTER#ALL from the tasks for data written
// by others, conditional on the counter as it read it first. A task it
// cannot decode is left uncounted and reported in CounterReport.Skipped
// (the Checked and Skipped of ddbkit.RepairReport, every domain's repair
// report).
//
// # Sharded counters
//
// Every task write of a team updates COUNTER#ALL, and every creation and
// status move today's counter too: one item each, which DynamoDB caps at
// about 1,000 writes a second however the table scales. A bulk import of
// thousands of tasks into one team throttles on them. Options.CounterShards
// = N (2 to MaxCounterShards) spreads each counter over N items in the
// team's partition:
//
//	shard 0        TEAM#<teamId>  COUNTER#ALL, COUNTER#<YYYY-MM-DD>          (the seed's items)
//	shard n > 0    TEAM#<teamId>  COUNTER#ALL#<n>, COUNTER#<YYYY-MM-DD>#<n>  (same attributes)
//
// A task's writes update the shard its ID picks (FNV-1a of the ID, mod
// N), so a retried write updates the same items. Reads sum the shards:
// GetCounts is one consistent Query (SK begins_with COUNTER#ALL) instead of
// a GetItem, N items of about 100 bytes, 0.5 to 1 RCU; ListDailyCounts sums
// each date's shards, which sort together, and never splits a date between
// pages: it reads up to (limit+1) × N counters per Query and ends its page
// after the last whole date. RecalculateCounters counts the tasks, writes
// the total to shard 0 and deletes the other shards, in one transaction
// conditioned on every shard as read; a recount without drift leaves the
// shards as they are.
//
// What it buys, measured through ddbtest.PartitionClient (DynamoDB's
// per-item 1,000 WCU/s and per-partition limits, virtual time;
// TestCounterThroughput holds these figures), in tasks a second into one
// team with under 1% throttled:
//
//	                  team partition split by DynamoDB     one team partition
//	                  (per-item limits only)               (1,000 WCU/s for the team)
//	                  seed    4 shards   16 shards
//	status moves      500     2,000      5,000 or more      150
//	CreateTask        500     500        500                100
//
// A status move writes the task and two counters: sharding lifts the
// counters' cap N times. CreateTask also checks the team item in its
// transaction (so that no task lands in a deleted team), which the model
// prices as a transactional write of that item: with the counters sharded,
// the team item holds creations at 500 a second. DynamoDB documents no
// price for a ConditionCheck; if it costs reads, the team item allows
// more. A team partition that DynamoDB has not split holds every layout
// to what one partition writes: each task write costs its item, its
// counters and its index entries in TEAM#<teamId>, twice for a
// transaction.
//
// When to switch: when a team's status moves approach 500 a second, or
// the counters throttle (ddbtest.PartitionClient shows it in load tests).
// Switching is live, with no rewrite: shard 0 is the seed's item, so the
// counts written before keep counting, and new writes spread. Switching
// back: RecalculateCounters with the shards still on folds them into shard
// 0, then CounterShards can go; a store without shards reads shard 0 only
// and lists shard 0 only among the daily counters.
//
// What the seed's own app can no longer read once shards are on: its
// COUNTER#ALL and COUNTER#<date> GetItems see shard 0 alone, a part of the
// counts. Another writer of the table must read COUNTER#ALL as the sum of
// SK begins_with COUNTER#ALL (and a day as the sum of its COUNTER#<date>
// and COUNTER#<date>#<n>), and may write any one shard.
//
// # Errors
//
// Input is stored as given: no method trims it. A required text that is
// empty or only white space is ErrInvalidArgument ("must not be empty or
// only white space", as in every ddbkit domain); the other checks are
// under "Decisions where the seed is silent".
//
// Every error starts with "taskmgmt: " and matches exactly one of ddbkit's
// sentinels with errors.Is: ErrInvalidArgument (a *ddbkit.ValidationError
// naming the field; nothing was written), ErrNotFound, ErrAlreadyExists,
// ErrConflict, ErrPermissionDenied (ErrNotAdmin among them),
// ErrInvalidCursor, ErrCorruptItem,
// ErrSchemaMismatch (a missing table) and ErrUnavailable
// (throttling, 5xx or a cancelled context through the retries). Every
// TransactWriteItems carries a ClientRequestToken, from
// ddbkit.WithIdempotencyKey when the caller gives one. A key reused for
// other arguments is ErrIdempotencyKeyReused, which matches ErrConflict
// as its one sentinel.
//
// # Idempotency keys
//
// Every write method takes the caller's idempotency key
// (ddbkit.WithIdempotencyKey, such as an HTTP Idempotency-Key header),
// scoped to the table, the operation and the tenant partition from the
// caller's input: the user for CreateUser, RenameUser, CreateTeam and
// AcceptInvitation (USER#<id>), the team for every other write
// (TEAM#<id>); the same key sent by two users or teams, for two
// operations or on two tables answers for unrelated requests. A repeat
// with the same key and the same arguments within
// ddbkit.IdempotencyWindow (24 hours), from this process or another,
// returns the first call's result and writes nothing more; the same key
// with other arguments is ErrIdempotencyKeyReused (which matches
// ErrConflict) and writes nothing; past the window the key is a new
// request. What a repeat returns, method by method:
//   - CreateUser, CreateTeam, CreateTag, CreateTask and Invite: the item
//     the first call created, read back (the same ID; Invite's with its
//     token, derived again under Options.TokenSecret), or ErrNotFound if
//     it is gone by then (an invitation accepted, revoked or replaced). A
//     repeated CreateTask counts nothing again: the task is its
//     transaction's first write, to which the record refers.
//   - AddMember, AcceptInvitation and SetRole: the member as the team
//     lists it now (an acceptance's repeat after a lost answer returns
//     the membership, not the consumed invitation's ErrNotFound).
//   - UpdateTask: the task as it is now; it moves no counter again, even
//     if another caller changed the task meanwhile.
//   - DeleteTask, RemoveMember and RevokeInvitation: success, as the first
//     call's (a repeat without a key would be ErrNotFound).
//   - The multi-step methods, RenameUser, UpdateTeam, DeleteTag and
//     DeleteTeam, and RecalculateCounters, run again without the key: a
//     repeat finishes what an interrupted call started (the copies of a
//     name, a tag's references, a team's items) and returns what such a
//     call returns; DeleteTeam's repeat of a finished deletion is its
//     success, not ErrNotFound. RecalculateCounters' repeat recounts and
//     reports what it finds then.
//
// The answer comes from an idempotency record, an item of the task table
// that the method's first transaction writes with its other items (see
// "Other writers"), so it exists exactly when that transaction committed;
// a method that writes no transaction (SetRole to the role held, an
// UpdateTask that changes nothing) writes it alone afterwards. The
// records of the invitation methods go to the task table too, not to the
// invitation table: its stream then carries invitations only, to
// StreamHandler and to any other reader of it, and its one write unit
// is not spent on them (StreamHandler ignores an item keyed IDEMPOTENCY#
// anyway, and so does MemoryStore.TakeStream, whose records are the
// invitation table's). The cost: a keyed write makes one extra consistent
// GetItem (of the record), and its first transaction carries one more
// item (a keyed CreateUser becomes a two-item transaction; a keyed batch
// of DeleteTeam, DeleteTag, a rename's copies or Invite's replacements
// holds one item less). Each transaction still carries a
// ClientRequestToken made from the key, which covers the retries inside
// the call.
//
// # Consistency and capacity
//
// The board views (access patterns 7 to 15) and the renames' walk of
// GSI_Invert read GSIs, which DynamoDB only reads eventually consistent:
// half a read unit per 4 KB, and a task written a moment ago may be
// missing from a board, or shown in its previous column, for a moment
// (DynamoDB Local and MemoryStore update them at once; Options.Emulation's
// GSILag makes MemoryStore's lag, so that a unit test meets a stale board).
// A board is a view, refreshed anyway; nothing this package writes is
// decided from it.
//
// Every base-table read stays strongly consistent (one read unit per
// 4 KB), because each one is either the read of a read-modify-write whose
// conditions are built from what it read, or a read the caller expects to
// reflect its own writes:
//   - GetTask before UpdateTask and DeleteTask, the team_user item before
//     SetRole and RemoveMember, and the other-admin Query that keeps a
//     team its last admin: a stale read would fail the transaction's
//     condition (ErrConflict after the retries) or, for the admin Query,
//     wrongly report the last admin;
//   - the user and team read to copy their names (CreateTeam, AddMember,
//     AcceptInvitation), Invite's Query of the address's earlier
//     invitations (a stale one would leave a just-sent invitation beside
//     its resend), RecalculateCounters' counter and tasks, DeleteTag's
//     and DeleteTeam's walks (a stale one would leave items behind);
//   - the Gets and base-table listings (users, teams, members, tags,
//     counters, invitations) themselves, so that a caller sees its own
//     writes, as on MemoryStore: a tag created, then listed.
//
// No pattern reads more than it needs: RenameUser and UpdateTeam take
// their result from the UpdateItem (ReturnValues ALL_NEW) rather than a
// GetItem after it. Every write writes only the items the layout
// requires; their cost is mostly the GSIs': every item is in GSI_Invert,
// and a task in all nine, as the seed projects all attributes.
// capacity_test.go holds each access pattern to its budget.
//
// # Other writers
//
// Another program writing this table must keep, for tasks: the five index
// keys consistent with team_task_status and the dates (else the task shows
// in the wrong board view, or in none), and COUNTER#ALL and the day's
// counter updated in the same transaction as any create, status change or
// delete (else the counts drift until RecalculateCounters); and, for
// memberships, both user_team and team_user, with team_name and user_name
// copied (else one side's listing misses or misnames it). Items this
// package cannot decode (an unknown status or role, an attribute of the
// wrong type, a key not in the seed's shape) are ErrCorruptItem from a
// Get, and left out of listings with one error each in Page.Skipped.
// Reads are lenient otherwise: missing attributes read as zero values, IDs
// come from the keys, a date with a time (any ISO 8601 form) reads as its
// date, and a tag reference without TAG# as the bare ID.
//
// ddbkit adds one kind of item to the task table, which the seed does
// not have: the idempotency record of a write made under an idempotency
// key (see "Idempotency keys"), PK = SK = IDEMPOTENCY#<32 hex>, with
// fingerprint (S, the SHA-256 of the operation and its arguments), refPK
// and refSK (S, the key of the operation's first transactional write,
// in either table, or of its result when it wrote no transaction) and expiresAt (N, epoch seconds, 24 hours
// after the write), which the seed's TTL on expiresAt deletes. Only
// writes under a key make one; it is in no GSI but GSI_Invert (under its
// own key), other writers ignore it, a Scan sees it, and
// MemoryStore.Export and Import carry it. The invitation table gets none.
//
// A program writing the invitation table must write expiresAt as a Number
// of epoch seconds (else TTL never deletes the item, and ddbkit's reads,
// which filter on it, never see it; a Get reports ErrCorruptItem), and
// type "invitation" (else the stream handler does not mail it). invitedBy
// may lack its USER# prefix, createdAt and team_name may be missing, and
// its tokens may have any form: AcceptInvitation compares them as they
// are. An invitation it writes with the same email is replaced by the
// next Invite of that address.
//
// # Raw items: fixtures and comparisons
//
// MemoryStore.Import seeds a memory store with raw items in the layouts
// above (ddbkit.TableItems, by table name: Options.TableName and
// Options.InvitationTableName), for example items exported from a
// production table or written as the seed's app writes them. It checks
// them with the DynamoDB store's own decode functions, as leniently as its
// reads; an item the DynamoDB store could not read either fails the whole
// import with ErrCorruptItem, and items of another table with
// ErrInvalidArgument. The memory store then keeps the raw item, as
// DynamoDB keeps what PutItem wrote, as todo, wardrobe, kondate and
// livecomment do: attributes ddbkit does not know, dates in another
// writer's form and the index keys as stored stay; reads decode them;
// writes change only what the DynamoDB store's same writes change (an
// update keeps the attributes it does not set). Imported invitations
// enter no stream. MemoryStore.Export gives back every item in key order,
// those the store wrote as the DynamoDB store writes them (its own marshal
// functions), those imported as given and since updated: what a Scan of
// the DynamoDB store's tables returns after the same calls.
//
// # Decisions where the seed is silent
//
//   - IDs. Users are identified by the caller's ID (the auth subject), never
//     generated. Team, tag and task IDs are UUIDv7s made by the store, so
//     they sort by creation; any ID is 1-128 characters without '#' or
//     white space (the alphabet every ddbkit domain shares).
//   - Text limits: names 1-100 characters on one line, titles 1-200,
//     descriptions up to 2000, emails up to 254, image URLs up to 2048,
//     colors 1-64 each. A task has 0-20 tags; both dates are required and
//     End is not before Start.
//   - A task without tags has no team_task_tagRef (DynamoDB refuses an
//     empty set); Task.TagIDs is then nil, and otherwise sorted.
//   - The board views order by the seed's sort keys, START#<date> or
//     END#<date>, and tasks with the same date tie on them. What holds
//     for ties, and the one statement of it in this package: DynamoDB
//     documents no order among them, so no order is promised (not by
//     task ID, not by creation); paging through a run of ties is exact,
//     every task once, because a cursor carries the task's own key; and
//     the memory store orders ties as DynamoDB Local does (by a digest
//     of the base key), so both stores give the same pages (TestBoardTiesMatchDynamo). An application that needs an
//     order within a date sorts the page itself.
//   - Tag filters: one tag, any of several (MatchAny, the default) or all
//     of several (MatchAll); all are one FilterExpression of contains.
//     A cursor works only for the board (the same statuses in any
//     order, sort and day), and filter (the same tags in any order) that
//     made it: the index, partition, key condition and filter are bound
//     into the cursor. A View is a shorthand for the board
//     it names, not another board: the two read the same Query and share
//     their cursors.
//   - Boards: the seed names five (its access patterns 7 to 15), kept as
//     View; BoardQuery spells out any of the 28 its indexes serve: one of
//     the seven sets of statuses, by start or end date, all of it or
//     overdue only. Sort defaults to the start date, as the seed's views;
//     a View with Statuses, Sort or Overdue is refused (ErrInvalidArgument
//     naming the field) rather than one of them ignored. Every board is
//     ascending, as the seed's views are; the seed has no descending one.
//   - Filtered work is bounded: every filtered listing (ListBoard with
//     TagIDs, ListInvitations' live filter, ListDailyCounts' TTL filter)
//     and every filtered walk (DeleteTag's tasks of the tag, Invite's
//     earlier invitations of the address, SetRole's and RemoveMember's
//     search for another admin) evaluates at most Options.FilterBudget
//     items (1000 by default) per page, then returns what it found,
//     possibly nothing, with a Next cursor. So a listing page may be short
//     or empty and still have a Next; page on until Next is "". Both
//     stores end pages at the same item.
//   - "Today" is the clock's date in Options.Location (UTC by default):
//     the overdue boards compare with it, and it dates joinedAt,
//     user_createdAt and the daily counters.
//   - Membership: adding a member needs an existing team and user, and
//     copies their names. The rest (the creator is the admin, a team
//     keeps an admin, who may do what) is under "Roles".
//   - Renames copy the new name to the denormalised copies found through
//     GSI_Invert, in transactions of at most 100 updates, each conditional
//     on its item existing; a repeated call finishes an interrupted one.
//     Each batch of a fan-out (renames, DeleteTag) runs under a fresh
//     random ClientRequestToken, kept across its own retries, not one
//     derived from the caller's idempotency key or from the batch's
//     content: a repeat writes what is still stale, and a content token
//     reused within DynamoDB's 10 minutes would replay, and so skip, a
//     batch that another writer had made stale again.
//   - DeleteTag deletes the tag first (so no task write can add it again:
//     they check their new tags exist), then removes its references.
//     DeleteTeam deletes the members' user_team items, then the team's
//     partition, the team item last; neither is atomic, on either store,
//     and both finish when repeated.
//   - UpdateTask that changes nothing writes nothing, which also makes a
//     repeat of a committed update under an idempotency key succeed.
//   - Retries: every call belongs to exactly one retry loop, so
//     Options.Retry.MaxAttempts bounds the calls of each step. Both stores
//     run the same operations over one item backend, whose every
//     primitive (a GetItem, a Query page, an UpdateItem, a batch, a
//     transaction) retries throttling, 5xx and lost answers itself, as far
//     as repeating it is safe; a transaction is resent under the same
//     token. A read-modify-write (CreateTeam, AddMember, SetRole,
//     RemoveMember, UpdateTask, DeleteTask, Invite, AcceptInvitation, and
//     the walks of the fan-outs, DeleteTag and RecalculateCounters) reads
//     and builds again only after a failed condition (what it read
//     changed), within the same budget of MaxAttempts transactions.
//   - Creates are reported as this call's own only when a token proves
//     it. CreateUser is a one-item TransactWriteItems with a
//     ClientRequestToken (two write units per KB instead of one): its own retry after a lost answer succeeds, but a user that
//     is already there, even field for field as this call would write it,
//     is ErrAlreadyExists, on both stores. The other creates make a fresh
//     ID, and their transactions carry a token too.
//   - Checks before any call, the same on both stores: field lengths,
//     one-line names (team, tag, user names and task titles refuse
//     control characters, since they reach mails and pages), user images
//     as absolute http(s) URLs, dates as real YYYY-MM-DD dates in the
//     years 0001 to 9999, and every item a write builds against
//     DynamoDB's 400 KB (ErrInvalidArgument naming the caller's largest
//     field; the field limits keep items far below it, a task under
//     10 KB).
//   - Invitations. IDs are UUIDv7s from Options.NewID, so the seed's
//     listing sorts by creation (newest first). The token is 256 bits
//     from crypto/rand in base64url without padding (43 characters;
//     Options.NewToken replaces it in deterministic tests), stored in
//     plain text in the token attribute, as the seed's layout and its app
//     have it: whoever reads the table, a backup or its stream can accept
//     a live invitation. Under Options.TokenSecret (at least 32 bytes),
//     the token is HMAC-SHA256(secret, team ID, invitation ID, email,
//     expiresAt) and the token attribute holds only "sha256:" and its
//     hex SHA-256; AcceptInvitation hashes the presented token and
//     compares in constant time (it accepts either form, whichever the
//     item holds), and the StreamHandler, given the same secret, derives
//     the token again for the mail. The seed's app, which reads the plain
//     token, cannot mail such invitations. Only
//     Invite and the stream carry it: GetInvitation and ListInvitations
//     leave Token empty, so that a listing cannot leak links. The lifetime
//     is Options.InvitationLifetime (24 hours by default); createdAt and
//     expiresAt are whole seconds, and an invitation has expired from the
//     second expiresAt names (TTL deletes items whose expiresAt is past).
//     Reads leave expired invitations out, as TTL deletes late.
//   - Email addresses: see "Email addresses". Inviting an address
//     that has a live invitation to the team replaces it: the earlier ones
//     are deleted in the new one's transaction (expired ones are left to
//     TTL, as reads leave them out), and their links stop working
//     (a resend, possibly with another role); their mails may still go
//     out (see "Replaced invitations and their mails"). Two concurrent
//     invitations of one address can both stay; either link then works
//     once.
//   - Only an admin invites or revokes, checked in the same transaction
//     with a ConditionCheck on the admin's team_user item; anyone else,
//     member or not, gets ErrPermissionDenied (matching ErrNotAdmin).
//     Authorization of who may call AcceptInvitation for which user is the
//     caller's: the token is the proof that the invitee received the mail.
//   - AcceptInvitation compares the token in constant time and checks the
//     expiry against the store's clock, then deletes the invitation on
//     condition of that token and of the expiresAt read (after now), in the
//     transaction that writes the membership pair. The role is the
//     invitation's; team_name is the invitation's unless the team was
//     renamed since, in which case the team's current name (a copy must
//     match its team, see Renames). A missing, accepted, revoked or
//     expired invitation and a wrong token give one ErrNotFound, the same
//     text for the same invitation ID. A user who is already a member gets
//     ErrAlreadyExists and the invitation stays. A repeat of a committed
//     acceptance (even under an idempotency key) finds no invitation:
//     ErrNotFound; ListUserTeams tells whether it was the caller's own.
//   - RevokeInvitation deletes an expired invitation too (it is still
//     stored until TTL deletes it). DeleteTeam leaves the team's
//     invitations (they are in the other table, which it may not have):
//     they can no longer be accepted, since the team is checked, and TTL
//     deletes them.
//   - The stream handler (see "The stream handler on Lambda" for its
//     failures and skips) does not mail an invitation that has expired by
//     then, or that a later record of its batch deletes. Before mailing,
//     it checks the image's email and team_name as Invite checks them,
//     since another program may have written the item: an invalid one (a
//     header injection, a control character) is skipped, never mailed. A
//     hashed token whose secret the handler lacks is a failure (redeploy
//     with StreamHandler.TokenSecret, and Lambda retries); one that does
//     not derive from its secret is skipped.
package taskmgmt
