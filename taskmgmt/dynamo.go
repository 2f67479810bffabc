package taskmgmt

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// DynamoStore is the Store on DynamoDB. Its base-table reads are strongly
// consistent; its board views read GSIs, which DynamoDB updates
// eventually (DynamoDB Local, and MemoryStore, at once); see the package
// doc's "Consistency and capacity".
type DynamoStore struct {
	c  ddbkit.Client
	o  Options
	t  ddb.Table
	it ddb.Table // the invitation table
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the tables named by the options, which
// must exist (see EnsureTable; the invitation methods need the invitation
// table, see EnsureInvitationTable). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	return &DynamoStore{c: c, o: o, t: o.table(), it: o.invitationTable()}
}

// Attribute names used in expressions.
var (
	nPK        = expression.Name(AttrPK)
	nType      = expression.Name(attrType)
	nUserName  = expression.Name(attrUserName)
	nTeamName  = expression.Name(attrTeamName)
	nTeamDesc  = expression.Name(attrTeamDesc)
	nRole      = expression.Name(attrRole)
	nStatus    = expression.Name(attrStatus)
	nStart     = expression.Name(attrStartTime)
	nEnd       = expression.Name(attrEndTime)
	nTagRef    = expression.Name(attrTagRef)
	nExpiresAt = expression.Name(AttrExpiresAt)
	exists     = expression.AttributeExists(nPK)
	notExists  = expression.AttributeNotExists(nPK)
)

// Transaction item labels, by which cancellation reasons are told apart.
const (
	labelUser     = "user"
	labelTeam     = "team"
	labelUserTeam = "user_team"
	labelTeamUser = "team_user"
	labelAdmin    = "other admin"
	labelTag      = "tag"
	labelTask     = "task"
	labelAll      = "COUNTER#ALL"
	labelDay      = "COUNTER#day"
)

func (s *DynamoStore) get(ctx context.Context, k itemKey) (ddb.Item, error) {
	return s.getFrom(ctx, s.t, k)
}

// getFrom reads the item at k in t, through throttling, 5xx and lost
// responses.
func (s *DynamoStore) getFrom(ctx context.Context, t ddb.Table, k itemKey) (item ddb.Item, err error) {
	err = s.retry(ctx, func() error {
		item, err = ddb.GetItem(ctx, s.c, t, k.item(t))
		return err
	})
	return item, err
}

// query is ddb.QueryPage with the store's filter budget; it retries each
// Query within the retry policy itself. Not for use inside a retry loop
// (see queryOnce).
func (s *DynamoStore) query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, filter *ddb.Filter) ([]ddb.Item, string, error) {
	return ddb.QueryPage(ctx, s.c, s.o.backoff(), s.o.budgeted(q), limit, cursor, filter)
}

// once is the Backoff of the calls inside a read-modify-write loop (see
// rmw): one attempt each, since the loop around them retries.
var once = ddb.Backoff{Attempts: 1}

// queryOnce is query with one attempt per Query, inside a retry loop.
func (s *DynamoStore) queryOnce(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, filter *ddb.Filter) ([]ddb.Item, string, error) {
	return ddb.QueryPage(ctx, s.c, once, s.o.budgeted(q), limit, cursor, filter)
}

// getOnce reads the item at k in t with one call, inside a retry loop.
func (s *DynamoStore) getOnce(ctx context.Context, t ddb.Table, k itemKey) (ddb.Item, error) {
	return ddb.GetItem(ctx, s.c, t, k.item(t))
}

// retry repeats fn, one plain call (GetItem, UpdateItem, DeleteItem) that
// is safe to repeat (idempotent, or recognising its own earlier success),
// through throttling, 5xx and lost responses, within the retry policy.
// fn must not retry itself: this is the one retry loop of its step.
func (s *DynamoStore) retry(ctx context.Context, fn func() error) error {
	return ddb.RetryIf(ctx, s.o.backoff(), ddb.RetryableWithToken, fn)
}

// loop runs fn, a walk and the writes it finds to do (a fan-out, a
// recount), within the retry policy, on throttling, a 5xx, a lost
// response or a conflict. It is the one retry loop of the call: fn makes
// single calls (getOnce, queryOnce, execStep), so no call is made more
// than Retry.MaxAttempts times; a failed call starts fn over, which walks
// again and finds what is still to do.
func (s *DynamoStore) loop(ctx context.Context, fn func() error) error {
	return ddb.RetryIf(ctx, s.o.backoff(), rmwRetryable, fn)
}

// rmwRetryable is what a read-modify-write retries: conflicts, throttling,
// 5xx and lost responses, but not the conflicts no retry resolves.
func rmwRetryable(err error) bool { return retryable(err) || ddb.ServerError(err) }

// rmw runs a read-modify-write within the retry policy. build reads with
// single calls (getOnce, queryOnce) and sends its transaction through
// exec, once. rmw is the one retry loop of the call, so no call is made
// more than Retry.MaxAttempts times (ExecTx's own loop is not used; exec
// makes one attempt):
//
//   - When the transaction fails its conditions (what build read
//     changed), the next attempt builds again.
//   - When it is throttled, conflicts with another transaction, gets a
//     5xx or loses its answer, the next attempt sends the same
//     transaction again, with the same token, without reading: a commit
//     whose answer was lost then succeeds without writing twice, as in
//     ExecTx.
//
// Every attempt carries token (see ddb.ExecTx for why a rebuild keeps it:
// DynamoDB binds a token only to a transaction that commits). build must
// do what success needs before exec returns (set its results), since a
// resend succeeds without running build.
func (s *DynamoStore) rmw(ctx context.Context, token string, build func(exec func(*ddb.Tx) error) error) error {
	var pending *ddb.Tx
	exec := func(tx *ddb.Tx) error {
		err := ddb.ExecTxToken(ctx, s.c, once, token, tx)
		if err != nil && !isCondFailed(err) {
			pending = tx
		}
		return err
	}
	return ddb.RetryIf(ctx, s.o.backoff(), rmwRetryable, func() error {
		if tx := pending; tx != nil {
			pending = nil
			err := exec(tx)
			if isCondFailed(err) {
				// Something changed since the build: build again.
				return errRaced("the items read")
			}
			return err
		}
		return build(exec)
	})
}

// scope is the idempotency scope of a write of op on the task table in
// partition pk.
func (s *DynamoStore) scope(op, pk string) ddb.Scope {
	return ddb.Scope{Table: s.t.Name, Op: op, Partition: pk}
}

// CreateUser implements UserStore.CreateUser, which documents its errors.
func (s *DynamoStore) CreateUser(ctx context.Context, in NewUser) (User, error) {
	const op = "create user"
	if err := validateNewUser(op, in); err != nil {
		return User{}, err
	}
	u := User{ID: in.ID, Email: in.Email, Name: in.Name, Image: in.Image, CreatedAt: s.o.read().today}
	item := userItem(u)
	if err := checkSize(op, item, "Image"); err != nil {
		return User{}, err
	}
	// A one-item transaction with a token: only this call's own earlier
	// attempt (a lost response, or a repeat under the same idempotency
	// key) succeeds on an existing user; PutNew retries it itself.
	err := ddb.PutNew(ctx, s.c, s.o.backoff(), s.scope(op, userPK(u.ID)), s.t, item, pNotExists)
	if ddb.IsConditionFailed(err) {
		return User{}, wrap(op, errUserExists(u.ID))
	}
	if err != nil {
		return User{}, wrap(op, err)
	}
	return u, nil
}

// GetUser implements UserStore.GetUser, which documents its errors.
func (s *DynamoStore) GetUser(ctx context.Context, userID string) (User, error) {
	const op = "get user"
	if err := validateIDs(op, "UserID", userID); err != nil {
		return User{}, err
	}
	u, _, err := s.user(ctx, userID)
	if err != nil {
		return User{}, wrap(op, err)
	}
	return u, nil
}

func (s *DynamoStore) user(ctx context.Context, userID string) (User, ddb.Item, error) {
	item, err := s.get(ctx, userKey(userID))
	return s.userFrom(userID, item, err)
}

// userOnce is user with one call, inside rmw.
func (s *DynamoStore) userOnce(ctx context.Context, userID string) (User, ddb.Item, error) {
	item, err := s.getOnce(ctx, s.t, userKey(userID))
	return s.userFrom(userID, item, err)
}

func (s *DynamoStore) userFrom(userID string, item ddb.Item, err error) (User, ddb.Item, error) {
	if err != nil {
		return User{}, nil, err
	}
	if item == nil {
		return User{}, nil, errUserNotFound(userID)
	}
	u, err := decodeUser(s.t, item)
	return u, item, err
}

func (s *DynamoStore) team(ctx context.Context, teamID string) (Team, error) {
	item, err := s.get(ctx, teamKey(teamID))
	return s.teamFrom(teamID, item, err)
}

// teamOnce is team with one call, inside rmw.
func (s *DynamoStore) teamOnce(ctx context.Context, teamID string) (Team, error) {
	item, err := s.getOnce(ctx, s.t, teamKey(teamID))
	return s.teamFrom(teamID, item, err)
}

func (s *DynamoStore) teamFrom(teamID string, item ddb.Item, err error) (Team, error) {
	if err != nil {
		return Team{}, err
	}
	if item == nil {
		return Team{}, errTeamNotFound(teamID)
	}
	return decodeTeam(s.t, item)
}

// RenameUser implements UserStore.RenameUser, which documents its errors.
func (s *DynamoStore) RenameUser(ctx context.Context, userID, name string) (User, error) {
	const op = "rename user"
	var v validator
	v.ID("UserID", userID, MaxIDLen)
	v.Line("Name", name, true, MaxNameLen)
	if err := wrap(op, v.Err); err != nil {
		return User{}, err
	}
	var item ddb.Item
	err := s.retry(ctx, func() (err error) { // setting the name twice is setting it once
		item, err = s.updateItem(ctx, userKey(userID), pSetUserName, ddb.S(name))
		return err
	})
	if ddb.IsConditionFailed(err) {
		return User{}, wrap(op, errUserNotFound(userID))
	}
	if err != nil {
		return User{}, wrap(op, err)
	}
	// Fan out to the team_user items: SK = USER#u, PK = TEAM#…
	err = s.fanOut(ctx, op, invertQuery(s.t, userPK(userID), segTeam), pSetUserName, attrUserName, name)
	if err != nil {
		return User{}, wrap(op, err)
	}
	u, err := decodeUser(s.t, item)
	return u, wrap(op, err)
}

// updateItem applies p to the item at k, if p's condition holds, and
// returns the item as it is then (ReturnValues ALL_NEW: what a GetItem
// after the write would read, without that read's capacity). When the
// condition fails, the *types.ConditionalCheckFailedException holds the
// item as it was.
func (s *DynamoStore) updateItem(ctx context.Context, k itemKey, p *ddb.Prepared, args ...types.AttributeValue) (ddb.Item, error) {
	out, err := s.c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &s.t.Name, Key: k.item(s.t),
		UpdateExpression: p.Update(), ConditionExpression: p.Condition(),
		ExpressionAttributeNames: p.Names(), ExpressionAttributeValues: p.Values(args...), ReturnValues: types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}

// fanOut sets attr to v on every item of q (a GSI_Invert listing) that
// does not hold it yet, in transactions of at most ddb.MaxTxItems items,
// each update conditional on the item still existing. A batch whose item
// vanished meanwhile starts the walk over. Each batch is a step (see
// execStep): a repeated call finds what is still stale and finishes it.
func (s *DynamoStore) fanOut(ctx context.Context, op string, q ddb.KeyQuery, set *ddb.Prepared, attr, v string) error {
	// One retry loop: a failed call (a page, a batch) starts the walk over,
	// which finds what is still stale.
	return s.loop(ctx, func() error {
		var stale []ddb.Item
		for it, err := range ddbkit.All(func(cursor string) (ddbkit.Page[ddb.Item], error) {
			items, next, err := s.queryOnce(ctx, q, ddbkit.MaxPageLimit, cursor, nil)
			return ddbkit.Page[ddb.Item]{Items: items, Next: next}, err
		}) {
			if err != nil {
				return err
			}
			if cur, ok := it[attr].(*types.AttributeValueMemberS); !ok || cur.Value != v {
				stale = append(stale, s.t.KeyOf(it))
			}
		}
		for len(stale) > 0 {
			n := min(len(stale), ddb.MaxTxItems)
			var tx ddb.Tx
			for i, k := range stale[:n] {
				tx.UpdatePrepared("item "+strconv.Itoa(i), s.t, k, set, ddb.S(v))
			}
			err := s.execStep(ctx, &tx)
			if isCondFailed(err) {
				return errRaced("the list of items to update")
			}
			if err != nil {
				return err
			}
			stale = stale[n:]
		}
		return nil
	})
}

// execStep runs one batch of a fan-out (a rename's copies, a deleted tag's
// references), one attempt inside the fan-out's loop (rmw), under a fresh
// random token that no other step or call shares. Not a token from the caller's idempotency key: a
// repeated call writes other items (what is still stale) at another time,
// and a token derived from the batch's content would, under a reused key,
// replay an identical batch without writing it after another writer had
// changed those items again.
func (s *DynamoStore) execStep(ctx context.Context, tx *ddb.Tx) error {
	return ddb.ExecTxToken(ctx, s.c, once, uuid.NewString(), tx)
}

// isCondFailed reports a transaction cancelled by a failed condition.
func isCondFailed(err error) bool {
	var ce *ddb.TxCanceledError
	if !asTx(err, &ce) {
		return false
	}
	for _, r := range ce.Reasons {
		if r.Code == ddb.ReasonConditionalCheckFailed {
			return true
		}
	}
	return false
}

// CreateTeam implements TeamStore.CreateTeam, which documents its errors.
func (s *DynamoStore) CreateTeam(ctx context.Context, creatorID string, in NewTeam) (Team, error) {
	const op = "create team"
	if err := validateNewTeam(op, creatorID, in); err != nil {
		return Team{}, err
	}
	team := Team{ID: s.o.NewID(), Name: in.Name, Description: in.Description}
	if err := checkSize(op, teamItem(team), "Description"); err != nil {
		return Team{}, err
	}
	today := s.o.read().today
	// The creator's partition scopes the key: the team's ID is new.
	token := ddb.Token(ctx, s.scope(op, userPK(creatorID)))
	err := s.rmw(ctx, token, func(exec func(*ddb.Tx) error) error {
		u, _, err := s.userOnce(ctx, creatorID)
		if err != nil {
			return err
		}
		var tx ddb.Tx
		p, args := named(pUserNamed, u.Name)
		tx.CheckPrepared(labelUser, s.t, userKey(creatorID).item(s.t), p, args...)
		tx.PutPrepared(labelTeam, s.t, teamItem(team), pNotExists)
		tx.PutPrepared(labelUserTeam, s.t, userTeamItem(Membership{UserID: creatorID, TeamID: team.ID, TeamName: team.Name, Role: RoleAdmin, JoinedAt: today}), pNotExists)
		tx.PutPrepared(labelTeamUser, s.t, teamUserItem(Member{TeamID: team.ID, UserID: creatorID, UserName: u.Name, Role: RoleAdmin, JoinedAt: today}), pNotExists)
		err = exec(&tx)
		if old, ok := ddb.ConditionFailed(err, labelUser); ok {
			if old == nil {
				return errUserNotFound(creatorID)
			}
			return errRaced("user " + strconv.Quote(creatorID))
		}
		if isCondFailed(err) {
			return errRepeatedID("team", team.ID)
		}
		return err
	})
	if err != nil {
		return Team{}, wrap(op, err)
	}
	return team, nil
}

// GetTeam implements TeamStore.GetTeam, which documents its errors.
func (s *DynamoStore) GetTeam(ctx context.Context, teamID string) (Team, error) {
	const op = "get team"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return Team{}, err
	}
	t, err := s.team(ctx, teamID)
	if err != nil {
		return Team{}, wrap(op, err)
	}
	return t, nil
}

// UpdateTeam implements TeamStore.UpdateTeam, which documents its errors.
func (s *DynamoStore) UpdateTeam(ctx context.Context, teamID string, p TeamPatch) (Team, error) {
	const op = "update team"
	if err := validateTeamPatch(op, teamID, p); err != nil {
		return Team{}, err
	}
	var args []types.AttributeValue
	shape := 0
	if p.Name != nil {
		args = append(args, ddb.S(*p.Name))
		shape |= 1
	}
	if p.Description != nil {
		args = append(args, ddb.S(*p.Description))
		shape |= 2
	}
	var item ddb.Item
	err := s.retry(ctx, func() (err error) {
		item, err = s.updateItem(ctx, teamKey(teamID), pUpdateTeam[shape], args...)
		return err
	})
	if ddb.IsConditionFailed(err) {
		return Team{}, wrap(op, errTeamNotFound(teamID))
	}
	if err != nil {
		return Team{}, wrap(op, err)
	}
	if p.Name != nil {
		// Fan out to the user_team items: SK = TEAM#t, PK = USER#…
		if err := s.fanOut(ctx, op, invertQuery(s.t, teamPK(teamID), segUser), pSetTeamName, attrTeamName, *p.Name); err != nil {
			return Team{}, wrap(op, err)
		}
	}
	t, err := decodeTeam(s.t, item)
	return t, wrap(op, err)
}

// DeleteTeam implements TeamStore.DeleteTeam, which documents its errors.
func (s *DynamoStore) DeleteTeam(ctx context.Context, teamID string) error {
	const op = "delete team"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return err
	}
	var memberships, items []ddb.Item
	var teamItem ddb.Item
	for it, err := range ddbkit.All(func(cursor string) (ddbkit.Page[ddb.Item], error) {
		items, next, err := s.query(ctx, teamItemsQuery(s.t, teamID), ddbkit.MaxPageLimit, cursor, nil)
		return ddbkit.Page[ddb.Item]{Items: items, Next: next}, err
	}) {
		if err != nil {
			return wrap(op, err)
		}
		k := s.t.KeyOf(it)
		sk, _ := k[AttrSK].(*types.AttributeValueMemberS)
		if sk != nil && sk.Value == teamPK(teamID) {
			teamItem = k
			continue
		}
		if sk != nil {
			if userID, ok := idFrom(sk.Value, segUser); ok {
				memberships = append(memberships, userTeamKey(userID, teamID).item(s.t))
			}
		}
		items = append(items, k)
	}
	if teamItem == nil && len(items) == 0 {
		return wrap(op, errTeamNotFound(teamID))
	}
	// The members' user_team items first, the team item last, so that a
	// repeat after a failure still finds what is left.
	for _, batch := range [][]ddb.Item{memberships, items, {teamItem}} {
		var reqs []types.WriteRequest
		for _, k := range batch {
			if k != nil {
				reqs = append(reqs, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k}})
			}
		}
		if len(reqs) == 0 {
			continue
		}
		// BatchWrite is its own retry loop.
		if err := ddb.BatchWrite(ctx, s.c, s.t, reqs, s.o.backoff()); err != nil {
			return wrap(op, err)
		}
	}
	return nil
}

// ListMembers implements TeamStore.ListMembers, which documents its errors.
func (s *DynamoStore) ListMembers(ctx context.Context, teamID string, o ddbkit.PageOptions) (ddbkit.Page[Member], error) {
	const op = "list members"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Member]{}, err
	}
	p, err := queryPage(ctx, s, membersQuery(s.t, teamID), o, nil, decodeMember)
	return p, wrap(op, err)
}

// ListUserTeams implements TeamStore.ListUserTeams, which documents its errors.
func (s *DynamoStore) ListUserTeams(ctx context.Context, userID string, o ddbkit.PageOptions) (ddbkit.Page[Membership], error) {
	const op = "list user teams"
	if err := validateList(op, "UserID", userID, o); err != nil {
		return ddbkit.Page[Membership]{}, err
	}
	p, err := queryPage(ctx, s, userTeamsQuery(s.t, userID), o, nil, decodeMembership)
	return p, wrap(op, err)
}

func queryPage[T any](ctx context.Context, s *DynamoStore, q ddb.KeyQuery, o ddbkit.PageOptions, filter *ddb.Filter, dec func(ddb.Table, ddb.Item) (T, error)) (ddbkit.Page[T], error) {
	limit, err := o.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	items, next, err := s.query(ctx, q, limit, o.Cursor, filter)
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	return page(s.t, items, next, dec)
}

// AddMember implements TeamStore.AddMember, which documents its errors.
func (s *DynamoStore) AddMember(ctx context.Context, teamID, userID string, role Role) (Member, error) {
	const op = "add member"
	if err := validateMember(op, teamID, userID, role); err != nil {
		return Member{}, err
	}
	today := s.o.read().today
	var m Member
	token := ddb.Token(ctx, s.scope(op, teamPK(teamID)))
	err := s.rmw(ctx, token, func(exec func(*ddb.Tx) error) error {
		team, err := s.teamOnce(ctx, teamID)
		if err != nil {
			return err
		}
		u, _, err := s.userOnce(ctx, userID)
		if err != nil {
			return err
		}
		m = Member{TeamID: teamID, UserID: userID, UserName: u.Name, Role: role, JoinedAt: today}
		var tx ddb.Tx
		pt, targs := named(pTeamNamed, team.Name)
		tx.CheckPrepared(labelTeam, s.t, teamKey(teamID).item(s.t), pt, targs...)
		pu, uargs := named(pUserNamed, u.Name)
		tx.CheckPrepared(labelUser, s.t, userKey(userID).item(s.t), pu, uargs...)
		tx.PutPrepared(labelUserTeam, s.t, userTeamItem(Membership{UserID: userID, TeamID: teamID, TeamName: team.Name, Role: role, JoinedAt: today}), pNotExists)
		tx.PutPrepared(labelTeamUser, s.t, teamUserItem(m), pNotExists)
		err = exec(&tx)
		if old, ok := ddb.ConditionFailed(err, labelTeam); ok {
			if old == nil {
				return errTeamNotFound(teamID)
			}
			return errRaced("team " + strconv.Quote(teamID))
		}
		if old, ok := ddb.ConditionFailed(err, labelUser); ok {
			if old == nil {
				return errUserNotFound(userID)
			}
			return errRaced("user " + strconv.Quote(userID))
		}
		if isCondFailed(err) {
			return errIsMember(teamID, userID)
		}
		return err
	})
	if err != nil {
		return Member{}, wrap(op, err)
	}
	return m, nil
}

func validateMember(op, teamID, userID string, role Role) error {
	var v validator
	v.ID("TeamID", teamID, MaxIDLen)
	v.ID("UserID", userID, MaxIDLen)
	v.role("Role", role)
	return wrap(op, v.Err)
}

// memberOnce reads a team_user item with one call, inside rmw.
func (s *DynamoStore) memberOnce(ctx context.Context, teamID, userID string) (Member, error) {
	item, err := s.getOnce(ctx, s.t, teamUserKey(teamID, userID))
	if err != nil {
		return Member{}, err
	}
	if item == nil {
		return Member{}, errNotMember(teamID, userID)
	}
	return decodeMember(s.t, item)
}

// adminFilter keeps the members whose role is admin. A filter cannot name
// the sort key, so the caller skips the member it asks about.
var adminFilter = &ddb.Filter{Shape: "taskmgmt: admins", Args: []types.AttributeValue{ddb.S(string(RoleAdmin))},
	Cond: func(first int) expression.ConditionBuilder { return expression.Equal(nRole, ddb.Param(first)) }}

// otherAdmin returns an admin of the team other than userID, or "",
// walking the members through the admin filter, page by page (each
// bounded by the filter budget), until it finds one. Inside rmw.
func (s *DynamoStore) otherAdmin(ctx context.Context, teamID, userID string) (string, error) {
	for m, err := range ddbkit.All(func(cursor string) (ddbkit.Page[Member], error) {
		items, next, err := s.queryOnce(ctx, membersQuery(s.t, teamID), ddbkit.MaxPageLimit, cursor, adminFilter)
		if err != nil {
			return ddbkit.Page[Member]{}, err
		}
		return page(s.t, items, next, decodeMember)
	}) {
		if err != nil {
			return "", err
		}
		if m.Role == RoleAdmin && m.UserID != userID {
			return m.UserID, nil
		}
	}
	return "", nil
}

// SetRole implements TeamStore.SetRole, which documents its errors.
func (s *DynamoStore) SetRole(ctx context.Context, teamID, userID string, role Role) (Member, error) {
	const op = "set role"
	if err := validateMember(op, teamID, userID, role); err != nil {
		return Member{}, err
	}
	var m Member
	token := ddb.Token(ctx, s.scope(op, teamPK(teamID)))
	err := s.rmw(ctx, token, func(exec func(*ddb.Tx) error) error {
		var err error
		if m, err = s.memberOnce(ctx, teamID, userID); err != nil || m.Role == role {
			return err
		}
		var tx ddb.Tx
		if m.Role == RoleAdmin {
			if err := s.checkOtherAdmin(ctx, &tx, teamID, userID); err != nil {
				return err
			}
		}
		tx.UpdatePrepared(labelTeamUser, s.t, teamUserKey(teamID, userID).item(s.t), pSetRole, ddb.S(string(role)), ddb.S(string(m.Role)))
		tx.UpdatePrepared(labelUserTeam, s.t, userTeamKey(userID, teamID).item(s.t), pSetRoleExists, ddb.S(string(role)))
		m.Role = role // the result, should exec succeed
		return s.execMember(exec, &tx, teamID)
	})
	if err != nil {
		return Member{}, wrap(op, err)
	}
	return m, nil
}

// checkOtherAdmin adds to tx the check that another member is still an
// admin, so that the team is never left without one.
func (s *DynamoStore) checkOtherAdmin(ctx context.Context, tx *ddb.Tx, teamID, userID string) error {
	other, err := s.otherAdmin(ctx, teamID, userID)
	if err != nil {
		return err
	}
	if other == "" {
		return errLastAdmin(teamID, userID)
	}
	tx.CheckPrepared(labelAdmin, s.t, teamUserKey(teamID, other).item(s.t), pIsAdmin)
	return nil
}

func (s *DynamoStore) execMember(exec func(*ddb.Tx) error, tx *ddb.Tx, teamID string) error {
	err := exec(tx)
	if isCondFailed(err) {
		return errRaced("the members of team " + strconv.Quote(teamID))
	}
	return err
}

// RemoveMember implements TeamStore.RemoveMember, which documents its errors.
func (s *DynamoStore) RemoveMember(ctx context.Context, teamID, userID string) error {
	const op = "remove member"
	if err := validateIDs(op, "TeamID", teamID, "UserID", userID); err != nil {
		return err
	}
	token := ddb.Token(ctx, s.scope(op, teamPK(teamID)))
	err := s.rmw(ctx, token, func(exec func(*ddb.Tx) error) error {
		m, err := s.memberOnce(ctx, teamID, userID)
		if err != nil {
			return err
		}
		var tx ddb.Tx
		if m.Role == RoleAdmin {
			if err := s.checkOtherAdmin(ctx, &tx, teamID, userID); err != nil {
				return err
			}
		}
		tx.DeletePrepared(labelTeamUser, s.t, teamUserKey(teamID, userID).item(s.t), pRoleIs, ddb.S(string(m.Role)))
		tx.Delete(labelUserTeam, s.t, userTeamKey(userID, teamID).item(s.t))
		return s.execMember(exec, &tx, teamID)
	})
	return wrap(op, err)
}

// CreateTag implements TagStore.CreateTag, which documents its errors.
func (s *DynamoStore) CreateTag(ctx context.Context, teamID string, in NewTag) (Tag, error) {
	const op = "create tag"
	if err := validateNewTag(op, teamID, in); err != nil {
		return Tag{}, err
	}
	tag := Tag{ID: s.o.NewID(), TeamID: teamID, Name: in.Name, Color: in.Color}
	item := tagItem(tag)
	if err := checkSize(op, item, "Name"); err != nil {
		return Tag{}, err
	}
	var tx ddb.Tx
	tx.CheckPrepared(labelTeam, s.t, teamKey(teamID).item(s.t), pExists)
	tx.PutPrepared(labelTag, s.t, item, pNotExists)
	err := ddb.ExecTx(ctx, s.c, s.o.backoff(), s.scope(op, teamPK(teamID)), &tx)
	if _, ok := ddb.ConditionFailed(err, labelTeam); ok {
		return Tag{}, wrap(op, errTeamNotFound(teamID))
	}
	if isCondFailed(err) {
		return Tag{}, wrap(op, errRepeatedID("tag", tag.ID))
	}
	if err != nil {
		return Tag{}, wrap(op, err)
	}
	return tag, nil
}

// ListTags implements TagStore.ListTags, which documents its errors.
func (s *DynamoStore) ListTags(ctx context.Context, teamID string, o ddbkit.PageOptions) (ddbkit.Page[Tag], error) {
	const op = "list tags"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Tag]{}, err
	}
	p, err := queryPage(ctx, s, tagsQuery(s.t, teamID), o, nil, decodeTag)
	return p, wrap(op, err)
}

// DeleteTag implements TagStore.DeleteTag, which documents its errors.
func (s *DynamoStore) DeleteTag(ctx context.Context, teamID, tagID string) error {
	const op = "delete tag"
	if err := validateIDs(op, "TeamID", teamID, "TagID", tagID); err != nil {
		return err
	}
	// The tag goes first: from then on no task write can add it (they
	// check their new tags exist), so the walk below leaves none behind.
	err := s.retry(ctx, func() error {
		_, err := s.c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.t.Name), Key: tagKey(teamID, tagID).item(s.t)})
		return err
	})
	if err != nil {
		return wrap(op, err)
	}
	ref := tagRef(tagID)
	filter := tagFilter(BoardQuery{TagIDs: []string{tagID}})
	set := &types.AttributeValueMemberSS{Value: []string{ref}}
	// One retry loop (rmw) around single calls: a failed page or batch
	// walks again, and finds the references still left. Each page of the
	// walk is bounded by the filter budget.
	err = s.loop(ctx, func() error {
		var keys []ddb.Item
		for it, err := range ddbkit.All(func(cursor string) (ddbkit.Page[ddb.Item], error) {
			items, next, err := s.queryOnce(ctx, tasksQuery(s.t, teamID), ddbkit.MaxPageLimit, cursor, filter)
			return ddbkit.Page[ddb.Item]{Items: items, Next: next}, err
		}) {
			if err != nil {
				return err
			}
			keys = append(keys, s.t.KeyOf(it))
		}
		for len(keys) > 0 {
			n := min(len(keys), ddb.MaxTxItems)
			var tx ddb.Tx
			for i, k := range keys[:n] {
				tx.Update("task "+strconv.Itoa(i), s.t, k, expression.Delete(nTagRef, expression.Value(raw{set})), exists)
			}
			err := s.execStep(ctx, &tx)
			if isCondFailed(err) {
				return errRaced("the tasks of team " + strconv.Quote(teamID))
			}
			if err != nil {
				return err
			}
			keys = keys[n:]
		}
		return nil
	})
	return wrap(op, err)
}

// addCounters adds the counter updates of d to tx.
func (s *DynamoStore) addCounters(tx *ddb.Tx, teamID string, d delta, today Date) {
	if d.all != (Counts{}) {
		tx.UpdatePrepared(labelAll, s.t, counterKey(teamID, "").item(s.t), pCounterAll,
			n(int64(d.all.Todo)), n(int64(d.all.Doing)), n(int64(d.all.Done)))
	}
	if d.day != (Counts{}) {
		tx.UpdatePrepared(labelDay, s.t, counterKey(teamID, today).item(s.t), pCounterDay,
			n(int64(d.day.Todo)), n(int64(d.day.Doing)), n(int64(d.day.Done)), n(s.o.expiresAt(today)))
	}
}

// checkTags adds to tx the check that each of the tags at idx exists,
// labelled by its input field.
func (s *DynamoStore) checkTags(tx *ddb.Tx, teamID string, ids []string, idx []int) {
	for _, i := range idx {
		tx.CheckPrepared(tagField(i), s.t, tagKey(teamID, ids[i]).item(s.t), pExists)
	}
}

func tagField(i int) string { return "TagIDs[" + strconv.Itoa(i) + "]" }

// tagError maps a failed tag check to the input field that named the tag.
func tagError(err error, ids []string, idx []int) error {
	for _, i := range idx {
		if _, ok := ddb.ConditionFailed(err, tagField(i)); ok {
			return errUnknownTag(tagField(i), ids[i])
		}
	}
	return nil
}

// CreateTask implements TaskStore.CreateTask, which documents its errors.
func (s *DynamoStore) CreateTask(ctx context.Context, teamID string, in NewTask) (Task, error) {
	const op = "create task"
	if err := validateNewTask(op, teamID, in); err != nil {
		return Task{}, err
	}
	task := s.o.newTask(teamID, in)
	item := taskItem(task)
	if err := checkSize(op, item, "Description"); err != nil {
		return Task{}, err
	}
	today := s.o.read().today
	all := make([]int, len(in.TagIDs))
	for i := range all {
		all[i] = i
	}
	var tx ddb.Tx
	tx.CheckPrepared(labelTeam, s.t, teamKey(teamID).item(s.t), pExists)
	s.checkTags(&tx, teamID, in.TagIDs, all)
	tx.PutPrepared(labelTask, s.t, item, pNotExists)
	s.addCounters(&tx, teamID, createDelta(task.Status), today)
	err := ddb.ExecTx(ctx, s.c, s.o.backoff(), s.scope(op, teamPK(teamID)), &tx)
	if _, ok := ddb.ConditionFailed(err, labelTeam); ok {
		return Task{}, wrap(op, errTeamNotFound(teamID))
	}
	if err := tagError(err, in.TagIDs, all); err != nil {
		return Task{}, wrap(op, err)
	}
	if _, ok := ddb.ConditionFailed(err, labelTask); ok {
		return Task{}, wrap(op, errRepeatedID("task", task.ID))
	}
	if err != nil {
		return Task{}, wrap(op, err)
	}
	return task, nil
}

// GetTask implements TaskStore.GetTask, which documents its errors.
func (s *DynamoStore) GetTask(ctx context.Context, teamID, taskID string) (Task, error) {
	const op = "get task"
	if err := validateIDs(op, "TeamID", teamID, "TaskID", taskID); err != nil {
		return Task{}, err
	}
	t, _, err := s.task(ctx, teamID, taskID)
	if err != nil {
		return Task{}, wrap(op, err)
	}
	return t, nil
}

func (s *DynamoStore) task(ctx context.Context, teamID, taskID string) (Task, stored, error) {
	item, err := s.get(ctx, taskKey(teamID, taskID))
	return s.taskFrom(teamID, taskID, item, err)
}

// taskOnce is task with one call, inside rmw.
func (s *DynamoStore) taskOnce(ctx context.Context, teamID, taskID string) (Task, stored, error) {
	item, err := s.getOnce(ctx, s.t, taskKey(teamID, taskID))
	return s.taskFrom(teamID, taskID, item, err)
}

func (s *DynamoStore) taskFrom(teamID, taskID string, item ddb.Item, err error) (Task, stored, error) {
	if err != nil {
		return Task{}, stored{}, err
	}
	if item == nil {
		return Task{}, stored{}, errTaskNotFound(teamID, taskID)
	}
	st, err := decode(s.t, item)
	if err != nil {
		return Task{}, stored{}, err
	}
	t, err := taskFrom(s.t, item, st)
	return t, st, err
}

// UpdateTask implements TaskStore.UpdateTask, which documents its errors.
func (s *DynamoStore) UpdateTask(ctx context.Context, teamID, taskID string, p TaskPatch) (Task, error) {
	const op = "update task"
	if err := validateTaskPatch(op, teamID, taskID, p); err != nil {
		return Task{}, err
	}
	var out Task
	token := ddb.Token(ctx, s.scope(op, teamPK(teamID)))
	err := s.rmw(ctx, token, func(exec func(*ddb.Tx) error) error {
		old, st, err := s.taskOnce(ctx, teamID, taskID)
		if err != nil {
			return err
		}
		t := old.patched(p)
		if err := checkPatched(t); err != nil {
			return err
		}
		if err := ddb.CheckItemSize(taskItem(t), "Description", 0); err != nil {
			return err
		}
		if t.equal(old) {
			out = t // nothing to write; also how a repeat of a committed update ends
			return nil
		}
		var added []int
		var ids []string
		if p.TagIDs != nil {
			ids = *p.TagIDs
			added = addedTags(old.TagIDs, t.TagIDs, ids)
		}
		var tx ddb.Tx
		p, args := taskUpdate(t, st)
		tx.UpdatePrepared(labelTask, s.t, taskKey(teamID, taskID).item(s.t), p, args...)
		s.checkTags(&tx, teamID, ids, added)
		s.addCounters(&tx, teamID, moveDelta(old.Status, t.Status), s.o.read().today)
		err = exec(&tx)
		if err := tagError(err, ids, added); err != nil {
			return err
		}
		if old, ok := ddb.ConditionFailed(err, labelTask); ok {
			if old == nil {
				return errTaskNotFound(teamID, taskID)
			}
			return errRaced("task " + strconv.Quote(taskID))
		}
		out = t
		return err
	})
	if err != nil {
		return Task{}, wrap(op, err)
	}
	return out, nil
}

// DeleteTask implements TaskStore.DeleteTask, which documents its errors.
func (s *DynamoStore) DeleteTask(ctx context.Context, teamID, taskID string) error {
	const op = "delete task"
	if err := validateIDs(op, "TeamID", teamID, "TaskID", taskID); err != nil {
		return err
	}
	token := ddb.Token(ctx, s.scope(op, teamPK(teamID)))
	err := s.rmw(ctx, token, func(exec func(*ddb.Tx) error) error {
		old, _, err := s.taskOnce(ctx, teamID, taskID)
		if err != nil {
			return err
		}
		var tx ddb.Tx
		tx.DeletePrepared(labelTask, s.t, taskKey(teamID, taskID).item(s.t), pTaskStatusIs, ddb.S(string(old.Status)))
		s.addCounters(&tx, teamID, deleteDelta(old.Status), "")
		err = exec(&tx)
		if prev, ok := ddb.ConditionFailed(err, labelTask); ok {
			if prev == nil {
				return errTaskNotFound(teamID, taskID)
			}
			return errRaced("task " + strconv.Quote(taskID))
		}
		return err
	})
	return wrap(op, err)
}

// tagFilter is the board's tag filter: contains on the String Set, any
// or all of the tags.
func tagFilter(q BoardQuery) *ddb.Filter {
	tags := sortedTags(q.TagIDs)
	if len(tags) == 0 {
		return nil
	}
	all := q.Match == MatchAll || len(tags) == 1
	args := make([]types.AttributeValue, len(tags))
	for i, id := range tags {
		args[i] = ddb.S(tagRef(id))
	}
	return &ddb.Filter{Shape: fmt.Sprintf("taskmgmt: tags, %d, all %t", len(tags), all), Args: args,
		Cond: func(first int) expression.ConditionBuilder {
			c := expression.Contains(nTagRef, ddb.ParamText(first))
			for i := 1; i < len(tags); i++ {
				if all {
					c = c.And(expression.Contains(nTagRef, ddb.ParamText(first+i)))
				} else {
					c = c.Or(expression.Contains(nTagRef, ddb.ParamText(first+i)))
				}
			}
			return c
		}}
}

// ListBoard implements TaskStore.ListBoard, which documents its errors.
func (s *DynamoStore) ListBoard(ctx context.Context, teamID string, q BoardQuery) (ddbkit.Page[Task], error) {
	const op = "list board"
	if err := validateBoard(op, teamID, q); err != nil {
		return ddbkit.Page[Task]{}, err
	}
	kq := boardQuery(s.t, teamID, q, s.o.read().today)
	p, err := queryPage(ctx, s, kq, q.PageOptions, tagFilter(q), decodeTask)
	return p, wrap(op, err)
}

// GetCounts implements CounterStore.GetCounts, which documents its errors.
func (s *DynamoStore) GetCounts(ctx context.Context, teamID string) (Counts, error) {
	const op = "get counts"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return Counts{}, err
	}
	item, err := s.get(ctx, counterKey(teamID, ""))
	if err != nil || item == nil {
		return Counts{}, wrap(op, err)
	}
	c, _, err := decodeCounts(s.t, item)
	return c, wrap(op, err)
}

// ListDailyCounts implements CounterStore.ListDailyCounts, which documents its errors.
func (s *DynamoStore) ListDailyCounts(ctx context.Context, teamID string, q DailyQuery) (ddbkit.Page[DailyCount], error) {
	const op = "list daily counts"
	if err := validateDaily(op, teamID, q); err != nil {
		return ddbkit.Page[DailyCount]{}, err
	}
	// TTL deletes late: leave out what has expired.
	live := &ddb.Filter{Shape: "taskmgmt: daily count live", Args: []types.AttributeValue{n(s.o.read().now.Unix())},
		Cond: func(first int) expression.ConditionBuilder {
			return expression.AttributeNotExists(nExpiresAt).Or(expression.GreaterThan(nExpiresAt, ddb.Param(first)))
		}}
	p, err := queryPage(ctx, s, dailyQuery(s.t, teamID, q), q.PageOptions, live, decodeDaily)
	return p, wrap(op, err)
}

// RecalculateCounters implements CounterStore.RecalculateCounters, which documents its errors.
func (s *DynamoStore) RecalculateCounters(ctx context.Context, teamID string) (CounterReport, error) {
	const op = "recalculate counters"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return CounterReport{}, err
	}
	var rep CounterReport
	// One retry loop around single calls: a failed read, page or update
	// starts the count over.
	err := s.loop(ctx, func() error {
		// The counter first: every task write changes it, so the condition
		// on it below catches any write after this read.
		item, err := s.getOnce(ctx, s.t, counterKey(teamID, ""))
		if err != nil {
			return err
		}
		if item != nil {
			if rep.Was, _, err = decodeCounts(s.t, item); err != nil {
				return err
			}
		} else {
			rep.Was = Counts{}
		}
		rep.Counts = Counts{}
		for t, err := range ddbkit.All(func(cursor string) (ddbkit.Page[Task], error) {
			items, next, err := s.queryOnce(ctx, tasksQuery(s.t, teamID), ddbkit.MaxPageLimit, cursor, nil)
			if err != nil {
				return ddbkit.Page[Task]{}, err
			}
			return page(s.t, items, next, decodeTask)
		}) {
			if err != nil {
				return err
			}
			rep.Counts = rep.Counts.add(t.Status, 1)
		}
		rep.Drift = rep.Counts != rep.Was
		if !rep.Drift && item != nil {
			return nil
		}
		cond := notExists
		if item != nil {
			cond = exists
			for _, st := range Statuses {
				cond = cond.And(countIs(item, string(st)))
			}
		}
		upd := expression.Set(nType, expression.Value(typeCounter))
		for _, st := range Statuses {
			upd = upd.Set(expression.Name(string(st)), expression.Value(rep.Counts.Get(st)))
		}
		_, err = ddb.UpdateItem(ctx, s.c, s.t, counterKey(teamID, "").item(s.t), upd, cond, types.ReturnValueNone)
		// A rebuild after a lost response finds the counts it wrote.
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) && ccf.Item != nil && countsAre(ccf.Item, rep.Counts) {
			return nil
		}
		if ddb.IsConditionFailed(err) {
			return errRaced("COUNTER#ALL of team " + strconv.Quote(teamID))
		}
		return err
	})
	if err != nil {
		return CounterReport{}, wrap(op, err)
	}
	return rep, nil
}

// countsAre reports whether item holds exactly counts c, as Numbers.
func countsAre(item ddb.Item, c Counts) bool {
	for _, st := range Statuses {
		if ddb.AttrString(item[string(st)]) != ddb.AttrString(n(int64(c.Get(st)))) {
			return false
		}
	}
	return true
}

// countIs is the condition that a count still has the raw value read.
func countIs(item ddb.Item, attr string) expression.ConditionBuilder {
	name := expression.Name(attr)
	if v, ok := item[attr]; ok {
		return expression.Equal(name, expression.Value(raw{v}))
	}
	return expression.AttributeNotExists(name)
}

func asTx(err error, target **ddb.TxCanceledError) bool {
	return err != nil && errors.As(err, target)
}

// raw makes an attribute value usable in an expression as it is.
type raw struct{ v types.AttributeValue }

// MarshalDynamoDBAttributeValue implements attributevalue.Marshaler.
func (r raw) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) { return r.v, nil }
