package taskmgmt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The two stores share every operation (this file and invitestore.go) and
// differ only in the item backend they hold (package internal/backend):
// DynamoDB calls for DynamoStore, ordered in-memory tables with the same
// conditions, GSIs and TTL for MemoryStore, which also keeps the
// invitation table's stream (see memory.go). Writing each operation once,
// over primitives whose semantics are DynamoDB's, is what keeps the memory
// store's results, errors, order and page boundaries those of the DynamoDB
// store.

// core is the Store over a backend. DynamoStore and MemoryStore embed it.
type core struct {
	o   Options
	t   ddb.Table // the task table
	it  ddb.Table // the invitation table
	b   backend.Backend
	clk *tap
	// stream, on MemoryStore only, applies the transactions that write the
	// invitation table and records what they changed in its stream.
	stream *memStream
}

func newCore(o Options) *core {
	return &core{o: o, t: o.table(), it: o.invitationTable(), clk: &tap{clock: o.Clock}}
}

// tables are the two tables as the backends serve them: the task table
// with its nine GSIs; the invitation table with TTL on expiresAt, so that
// reads leave out expired invitations (TTL deletes late). The task
// table's TTL (on the daily counters) is left to ListDailyCounts' own
// filter: declared, it would filter, and bound by the filter budget,
// every listing of the task table.
func (c *core) tables() []backend.Table {
	return []backend.Table{{Table: c.t, Indexes: Indexes}, {Table: c.it, TTL: attrInvExpiresAt}}
}

// tap is the store's clock. The operations read it (read), the same number
// of times on both stores since they are the same code; the backends see
// the operation's last reading (seen) and never read the clock
// themselves, for TTL or for the memory backend's emulation of tokens. So
// a step clock gives both stores the same times, under idempotency keys
// too.
type tap struct {
	clock ddbkit.Clock
	last  atomic.Pointer[time.Time]
}

func (t *tap) now() time.Time {
	v := t.clock()
	t.last.Store(&v)
	return v
}

// seen is the last reading, for the backends: a read of the invitation
// table follows the operation's own reading.
func (t *tap) seen() time.Time {
	if p := t.last.Load(); p != nil {
		return *p
	}
	return t.now()
}

// clock is one reading of the clock: the instant, and today in Location.
type clock struct {
	now   time.Time
	today Date
}

func (c *core) read() clock {
	now := c.clk.now()
	return clock{now: now, today: DateOf(now.In(c.o.Location))}
}

func (k itemKey) key() backend.Key { return backend.Key{PK: k.pk, SK: k.sk} }

// scope is the idempotency scope of a write of op on the task table in
// partition pk.
func (c *core) scope(op, pk string) ddb.Scope {
	return ddb.Scope{Table: c.t.Name, Op: op, Partition: pk}
}

// invitationScope is scope on the invitation table.
func (c *core) invitationScope(op, pk string) ddb.Scope {
	return ddb.Scope{Table: c.it.Name, Op: op, Partition: pk}
}

// rmw runs a read-modify-write in scope sc (backend.RMW): one retry
// budget, one token for every build.
func (c *core) rmw(ctx context.Context, sc ddb.Scope, fn func(r *backend.Run) error) error {
	return backend.RMW(ctx, c.o.backoff(), sc, fn)
}

// once runs a transaction built without reads: its own retries only.
func (c *core) once(ctx context.Context, sc ddb.Scope, ws []backend.Write) error {
	return c.b.Tx(ctx, backend.NewRun(ctx, sc, c.o.backoff()), ws)
}

// stepRun is the run of one batch of a fan-out (a rename's copies, a
// deleted tag's references), under a token of its own that no other step
// or call shares: not the caller's idempotency key's token for the
// operation, since a repeated call writes other items (what is still
// stale) at another time, and a token derived from the batch's content
// would, under a reused key, replay an identical batch without writing it
// after another writer had made those items stale again. A random
// operation name scopes it: random without a key, unique under one.
func (c *core) stepRun(ctx context.Context, op, pk string) *backend.Run {
	return backend.NewRun(ctx, ddb.Scope{Table: c.t.Name, Op: op + " step " + uuid.NewString(), Partition: pk}, c.o.backoff())
}

// raced is the error of a condition on values read that failed: the
// read-modify-write builds again.
func raced(what string) error { return backend.Changed("%s changed while being updated", what) }

func (c *core) get(ctx context.Context, k itemKey) (ddb.Item, error) {
	return c.b.Get(ctx, c.t, k.key())
}

// query runs one page of q with the store's filter budget.
func (c *core) query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, f backend.Filter) ([]ddb.Item, string, error) {
	q.Budget = c.o.FilterBudget
	q.Filter = ""
	return c.b.Query(ctx, q, limit, cursor, f)
}

// walk runs fn on every item of q that f keeps, page by page (each bounded
// by the filter budget), until fn reports it is done.
func (c *core) walk(ctx context.Context, q ddb.KeyQuery, f backend.Filter, fn func(ddb.Item) (done bool)) error {
	for cursor := ""; ; {
		items, next, err := c.query(ctx, q, ddbkit.MaxPageLimit, cursor, f)
		if err != nil {
			return err
		}
		for _, it := range items {
			if fn(it) {
				return nil
			}
		}
		if next == "" {
			return nil
		}
		cursor = next
	}
}

func listPage[T any](ctx context.Context, c *core, t ddb.Table, q ddb.KeyQuery, o ddbkit.PageOptions, f backend.Filter, dec func(ddb.Table, ddb.Item) (T, error)) (ddbkit.Page[T], error) {
	limit, err := o.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	items, next, err := c.query(ctx, q, limit, o.Cursor, f)
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	return page(t, items, next, dec)
}

// named is a name copy's check: the item exists and holds attr as read.
// A lenient read of a missing name reads ""; the check is then that the
// item exists (backend.Check cannot say "missing").
func named(item ddb.Item, attr string) ddb.Item {
	if v, ok := item[attr]; ok {
		return ddb.Item{attr: v}
	}
	return nil
}

// Transaction item labels, by which failed conditions are told apart.
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

// ---- users

// CreateUser implements UserStore.CreateUser, which documents its errors.
func (c *core) CreateUser(ctx context.Context, in NewUser) (User, error) {
	const op = "create user"
	if err := validateNewUser(op, in); err != nil {
		return User{}, err
	}
	u := User{ID: in.ID, Email: in.Email, Name: in.Name, Image: in.Image, CreatedAt: c.read().today}
	item := userItem(u)
	if err := checkSize(op, item, "Image"); err != nil {
		return User{}, err
	}
	// A one-item transaction with a token: only this call's own earlier
	// attempt (a lost response, or a repeat under the same idempotency
	// key) succeeds on an existing user.
	err := c.b.Create(ctx, c.scope(op, userPK(u.ID)), c.t, item)
	if _, ok := backend.Failed(err, ""); ok {
		return User{}, wrap(op, errUserExists(u.ID))
	}
	if err != nil {
		return User{}, wrap(op, err)
	}
	return u, nil
}

// GetUser implements UserStore.GetUser, which documents its errors.
func (c *core) GetUser(ctx context.Context, userID string) (User, error) {
	const op = "get user"
	if err := validateIDs(op, "UserID", userID); err != nil {
		return User{}, err
	}
	u, _, err := c.user(ctx, userID)
	if err != nil {
		return User{}, wrap(op, err)
	}
	return u, nil
}

func (c *core) user(ctx context.Context, userID string) (User, ddb.Item, error) {
	item, err := c.get(ctx, userKey(userID))
	if err != nil {
		return User{}, nil, err
	}
	if item == nil {
		return User{}, nil, errUserNotFound(userID)
	}
	u, err := decodeUser(c.t, item)
	return u, item, err
}

func (c *core) team(ctx context.Context, teamID string) (Team, ddb.Item, error) {
	item, err := c.get(ctx, teamKey(teamID))
	if err != nil {
		return Team{}, nil, err
	}
	if item == nil {
		return Team{}, nil, errTeamNotFound(teamID)
	}
	t, err := decodeTeam(c.t, item)
	return t, item, err
}

// RenameUser implements UserStore.RenameUser, which documents its errors.
func (c *core) RenameUser(ctx context.Context, userID, name string) (User, error) {
	const op = "rename user"
	var v validator
	v.ID("UserID", userID, MaxIDLen)
	v.Line("Name", name, true, MaxNameLen)
	if err := wrap(op, v.Err); err != nil {
		return User{}, err
	}
	var u backend.Change
	u.Set(attrUserName, s(name))
	item, err := c.b.Update(ctx, c.t, userKey(userID).key(), u, backend.Exists(nil))
	if _, ok := backend.Failed(err, ""); ok {
		return User{}, wrap(op, errUserNotFound(userID))
	}
	if err != nil {
		return User{}, wrap(op, err)
	}
	// Fan out to the team_user items: SK = USER#u, PK = TEAM#…
	if err := c.fanOut(ctx, op, invertQuery(c.t, userPK(userID), segTeam), attrUserName, name); err != nil {
		return User{}, wrap(op, err)
	}
	out, err := decodeUser(c.t, item)
	return out, wrap(op, err)
}

// fanOut sets attr to v on every item of q (a GSI_Invert listing) that
// does not hold it yet, in transactions of at most ddb.MaxTxItems items,
// each update conditional on the item still existing. A batch whose item
// vanished meanwhile starts the walk over. Each batch is a step (see
// stepRun): a repeated call finds what is still stale and finishes it.
func (c *core) fanOut(ctx context.Context, op string, q ddb.KeyQuery, attr, v string) error {
	var set backend.Change
	set.Set(attr, s(v))
	return c.rmw(ctx, c.scope(op, q.PartitionValue), func(*backend.Run) error {
		var stale []backend.Key
		err := c.walk(ctx, q, backend.Filter{}, func(it ddb.Item) bool {
			if cur, ok := backend.Str(it, attr); !ok || cur != v {
				stale = append(stale, backend.KeyOf(c.t, it))
			}
			return false
		})
		if err != nil {
			return err
		}
		for batch := range slices.Chunk(stale, ddb.MaxTxItems) {
			ws := make([]backend.Write, len(batch))
			for i, k := range batch {
				ws[i] = backend.Update("item "+strconv.Itoa(i), c.t, k, set, backend.Exists(nil))
			}
			err := c.b.Tx(ctx, c.stepRun(ctx, op, q.PartitionValue), ws)
			if _, ok := backend.Failed(err, ""); ok {
				return raced("the list of items to update")
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// ---- teams and members

// CreateTeam implements TeamStore.CreateTeam, which documents its errors.
func (c *core) CreateTeam(ctx context.Context, creatorID string, in NewTeam) (Team, error) {
	const op = "create team"
	if err := validateNewTeam(op, creatorID, in); err != nil {
		return Team{}, err
	}
	team := Team{ID: c.o.NewID(), Name: in.Name, Description: in.Description}
	if err := checkSize(op, teamItem(team), "Description"); err != nil {
		return Team{}, err
	}
	today := c.read().today
	// The creator's partition scopes the key: the team's ID is new.
	err := c.rmw(ctx, c.scope(op, userPK(creatorID)), func(r *backend.Run) error {
		u, uitem, err := c.user(ctx, creatorID)
		if err != nil {
			return err
		}
		err = c.b.Tx(ctx, r, []backend.Write{
			backend.Check(labelUser, c.t, userKey(creatorID).key(), named(uitem, attrUserName)),
			backend.PutNew(labelTeam, c.t, teamItem(team)),
			backend.PutNew(labelUserTeam, c.t, userTeamItem(Membership{UserID: creatorID, TeamID: team.ID, TeamName: team.Name, Role: RoleAdmin, JoinedAt: today})),
			backend.PutNew(labelTeamUser, c.t, teamUserItem(Member{TeamID: team.ID, UserID: creatorID, UserName: u.Name, Role: RoleAdmin, JoinedAt: today})),
		})
		if old, ok := backend.Failed(err, labelUser); ok {
			if old == nil {
				return errUserNotFound(creatorID)
			}
			return raced("user " + strconv.Quote(creatorID))
		}
		if _, ok := backend.Failed(err, ""); ok {
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
func (c *core) GetTeam(ctx context.Context, teamID string) (Team, error) {
	const op = "get team"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return Team{}, err
	}
	t, _, err := c.team(ctx, teamID)
	if err != nil {
		return Team{}, wrap(op, err)
	}
	return t, nil
}

// UpdateTeam implements TeamStore.UpdateTeam, which documents its errors.
func (c *core) UpdateTeam(ctx context.Context, teamID string, p TeamPatch) (Team, error) {
	const op = "update team"
	if err := validateTeamPatch(op, teamID, p); err != nil {
		return Team{}, err
	}
	var u backend.Change
	if p.Name != nil {
		u.Set(attrTeamName, s(*p.Name))
	}
	if p.Description != nil {
		u.Set(attrTeamDesc, s(*p.Description))
	}
	item, err := c.b.Update(ctx, c.t, teamKey(teamID).key(), u, backend.Exists(nil))
	if _, ok := backend.Failed(err, ""); ok {
		return Team{}, wrap(op, errTeamNotFound(teamID))
	}
	if err != nil {
		return Team{}, wrap(op, err)
	}
	if p.Name != nil {
		// Fan out to the user_team items: SK = TEAM#t, PK = USER#…
		if err := c.fanOut(ctx, op, invertQuery(c.t, teamPK(teamID), segUser), attrTeamName, *p.Name); err != nil {
			return Team{}, wrap(op, err)
		}
	}
	t, err := decodeTeam(c.t, item)
	return t, wrap(op, err)
}

// DeleteTeam implements TeamStore.DeleteTeam, which documents its errors.
func (c *core) DeleteTeam(ctx context.Context, teamID string) error {
	const op = "delete team"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return err
	}
	var memberships, items, team []backend.Key
	err := c.walk(ctx, teamItemsQuery(c.t, teamID), backend.Filter{}, func(it ddb.Item) bool {
		k := backend.KeyOf(c.t, it)
		if k.SK == teamPK(teamID) {
			team = append(team, k)
			return false
		}
		if userID, ok := idFrom(k.SK, segUser); ok {
			memberships = append(memberships, userTeamKey(userID, teamID).key())
		}
		items = append(items, k)
		return false
	})
	if err != nil {
		return wrap(op, err)
	}
	if len(team) == 0 && len(items) == 0 {
		return wrap(op, errTeamNotFound(teamID))
	}
	// The members' user_team items first, the team item last, so that a
	// repeat after a failure still finds what is left.
	for _, batch := range [][]backend.Key{memberships, items, team} {
		if len(batch) == 0 {
			continue
		}
		if err := c.b.BatchWrite(ctx, c.t, nil, batch); err != nil {
			return wrap(op, err)
		}
	}
	return nil
}

// ListMembers implements TeamStore.ListMembers, which documents its errors.
func (c *core) ListMembers(ctx context.Context, teamID string, o ddbkit.PageOptions) (ddbkit.Page[Member], error) {
	const op = "list members"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Member]{}, err
	}
	p, err := listPage(ctx, c, c.t, membersQuery(c.t, teamID), o, backend.Filter{}, decodeMember)
	return p, wrap(op, err)
}

// ListUserTeams implements TeamStore.ListUserTeams, which documents its errors.
func (c *core) ListUserTeams(ctx context.Context, userID string, o ddbkit.PageOptions) (ddbkit.Page[Membership], error) {
	const op = "list user teams"
	if err := validateList(op, "UserID", userID, o); err != nil {
		return ddbkit.Page[Membership]{}, err
	}
	p, err := listPage(ctx, c, c.t, userTeamsQuery(c.t, userID), o, backend.Filter{}, decodeMembership)
	return p, wrap(op, err)
}

// AddMember implements TeamStore.AddMember, which documents its errors.
func (c *core) AddMember(ctx context.Context, teamID, userID string, role Role) (Member, error) {
	const op = "add member"
	if err := validateMember(op, teamID, userID, role); err != nil {
		return Member{}, err
	}
	today := c.read().today
	var m Member
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		team, titem, err := c.team(ctx, teamID)
		if err != nil {
			return err
		}
		u, uitem, err := c.user(ctx, userID)
		if err != nil {
			return err
		}
		m = Member{TeamID: teamID, UserID: userID, UserName: u.Name, Role: role, JoinedAt: today}
		err = c.b.Tx(ctx, r, []backend.Write{
			backend.Check(labelTeam, c.t, teamKey(teamID).key(), named(titem, attrTeamName)),
			backend.Check(labelUser, c.t, userKey(userID).key(), named(uitem, attrUserName)),
			backend.PutNew(labelUserTeam, c.t, userTeamItem(Membership{UserID: userID, TeamID: teamID, TeamName: team.Name, Role: role, JoinedAt: today})),
			backend.PutNew(labelTeamUser, c.t, teamUserItem(m)),
		})
		if old, ok := backend.Failed(err, labelTeam); ok {
			if old == nil {
				return errTeamNotFound(teamID)
			}
			return raced("team " + strconv.Quote(teamID))
		}
		if old, ok := backend.Failed(err, labelUser); ok {
			if old == nil {
				return errUserNotFound(userID)
			}
			return raced("user " + strconv.Quote(userID))
		}
		if _, ok := backend.Failed(err, ""); ok {
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

// member reads a team_user item.
func (c *core) member(ctx context.Context, teamID, userID string) (Member, error) {
	item, err := c.get(ctx, teamUserKey(teamID, userID))
	if err != nil {
		return Member{}, err
	}
	if item == nil {
		return Member{}, errNotMember(teamID, userID)
	}
	return decodeMember(c.t, item)
}

// admin is the role the admin checks want.
var admin = ddb.Item{attrRole: s(string(RoleAdmin))}

// otherAdmin returns an admin of the team other than userID, or "",
// walking the members through the admin filter, page by page (each
// bounded by the filter budget), until it finds one. A filter cannot name
// the sort key, so the walk skips the member it asks about.
func (c *core) otherAdmin(ctx context.Context, teamID, userID string) (string, error) {
	var other string
	var derr error
	err := c.walk(ctx, membersQuery(c.t, teamID), backend.Equal(attrRole, s(string(RoleAdmin))), func(it ddb.Item) bool {
		m, err := decodeMember(c.t, it)
		if err != nil {
			if !isCorrupt(err) {
				derr = err
				return true
			}
			return false
		}
		if m.Role == RoleAdmin && m.UserID != userID {
			other = m.UserID
			return true
		}
		return false
	})
	if err == nil {
		err = derr
	}
	return other, err
}

// checkOtherAdmin returns the check that another member is still an
// admin, so that the team is never left without one.
func (c *core) checkOtherAdmin(ctx context.Context, teamID, userID string) (backend.Write, error) {
	other, err := c.otherAdmin(ctx, teamID, userID)
	if err != nil {
		return backend.Write{}, err
	}
	if other == "" {
		return backend.Write{}, errLastAdmin(teamID, userID)
	}
	return backend.Check(labelAdmin, c.t, teamUserKey(teamID, other).key(), admin), nil
}

// memberTx sends a membership change; any failed condition means the
// members changed since the read.
func (c *core) memberTx(ctx context.Context, r *backend.Run, teamID string, ws []backend.Write) error {
	err := c.b.Tx(ctx, r, ws)
	if _, ok := backend.Failed(err, ""); ok {
		return raced("the members of team " + strconv.Quote(teamID))
	}
	return err
}

// SetRole implements TeamStore.SetRole, which documents its errors.
func (c *core) SetRole(ctx context.Context, teamID, userID string, role Role) (Member, error) {
	const op = "set role"
	if err := validateMember(op, teamID, userID, role); err != nil {
		return Member{}, err
	}
	var m Member
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		var err error
		if m, err = c.member(ctx, teamID, userID); err != nil || m.Role == role {
			return err
		}
		var ws []backend.Write
		if m.Role == RoleAdmin {
			w, err := c.checkOtherAdmin(ctx, teamID, userID)
			if err != nil {
				return err
			}
			ws = append(ws, w)
		}
		var u backend.Change
		u.Set(attrRole, s(string(role)))
		ws = append(ws,
			backend.Update(labelTeamUser, c.t, teamUserKey(teamID, userID).key(), u, backend.Exists(ddb.Item{attrRole: s(string(m.Role))})),
			backend.Update(labelUserTeam, c.t, userTeamKey(userID, teamID).key(), u, backend.Exists(nil)))
		m.Role = role // the result, should the transaction commit
		return c.memberTx(ctx, r, teamID, ws)
	})
	if err != nil {
		return Member{}, wrap(op, err)
	}
	return m, nil
}

// RemoveMember implements TeamStore.RemoveMember, which documents its errors.
func (c *core) RemoveMember(ctx context.Context, teamID, userID string) error {
	const op = "remove member"
	if err := validateIDs(op, "TeamID", teamID, "UserID", userID); err != nil {
		return err
	}
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		m, err := c.member(ctx, teamID, userID)
		if err != nil {
			return err
		}
		var ws []backend.Write
		if m.Role == RoleAdmin {
			w, err := c.checkOtherAdmin(ctx, teamID, userID)
			if err != nil {
				return err
			}
			ws = append(ws, w)
		}
		ws = append(ws,
			backend.Delete(labelTeamUser, c.t, teamUserKey(teamID, userID).key(), ddb.Item{attrRole: s(string(m.Role))}),
			backend.Remove(labelUserTeam, c.t, userTeamKey(userID, teamID).key()))
		return c.memberTx(ctx, r, teamID, ws)
	})
	return wrap(op, err)
}

// ---- tags

// CreateTag implements TagStore.CreateTag, which documents its errors.
func (c *core) CreateTag(ctx context.Context, teamID string, in NewTag) (Tag, error) {
	const op = "create tag"
	if err := validateNewTag(op, teamID, in); err != nil {
		return Tag{}, err
	}
	tag := Tag{ID: c.o.NewID(), TeamID: teamID, Name: in.Name, Color: in.Color}
	item := tagItem(tag)
	if err := checkSize(op, item, "Name"); err != nil {
		return Tag{}, err
	}
	err := c.once(ctx, c.scope(op, teamPK(teamID)), []backend.Write{
		backend.Check(labelTeam, c.t, teamKey(teamID).key(), nil),
		backend.PutNew(labelTag, c.t, item),
	})
	if _, ok := backend.Failed(err, labelTeam); ok {
		return Tag{}, wrap(op, errTeamNotFound(teamID))
	}
	if _, ok := backend.Failed(err, ""); ok {
		return Tag{}, wrap(op, errRepeatedID("tag", tag.ID))
	}
	if err != nil {
		return Tag{}, wrap(op, err)
	}
	return tag, nil
}

// ListTags implements TagStore.ListTags, which documents its errors.
func (c *core) ListTags(ctx context.Context, teamID string, o ddbkit.PageOptions) (ddbkit.Page[Tag], error) {
	const op = "list tags"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Tag]{}, err
	}
	p, err := listPage(ctx, c, c.t, tagsQuery(c.t, teamID), o, backend.Filter{}, decodeTag)
	return p, wrap(op, err)
}

// DeleteTag implements TagStore.DeleteTag, which documents its errors.
func (c *core) DeleteTag(ctx context.Context, teamID, tagID string) error {
	const op = "delete tag"
	if err := validateIDs(op, "TeamID", teamID, "TagID", tagID); err != nil {
		return err
	}
	// The tag goes first: from then on no task write can add it (they
	// check their new tags exist), so the walk below leaves none behind.
	// A tag already gone is no error: the walk finishes its references.
	err := c.b.RemoveRead(ctx, c.t, tagKey(teamID, tagID).key())
	if _, ok := backend.Failed(err, ""); !ok && err != nil {
		return wrap(op, err)
	}
	ref := tagRef(tagID)
	// One read-modify-write: a batch whose task changed walks again, and
	// finds the references still left. Each page of the walk is bounded
	// by the filter budget.
	err = c.rmw(ctx, c.scope(op, teamPK(teamID)), func(*backend.Run) error {
		var tagged []ddb.Item
		err := c.walk(ctx, tasksQuery(c.t, teamID), tagFilter(BoardQuery{TagIDs: []string{tagID}}), func(it ddb.Item) bool {
			tagged = append(tagged, it)
			return false
		})
		if err != nil {
			return err
		}
		for batch := range slices.Chunk(tagged, ddb.MaxTxItems) {
			ws := make([]backend.Write, len(batch))
			for i, it := range batch {
				// The set without the tag, on condition of the set read.
				refs, _ := it[attrTagRef].(*types.AttributeValueMemberSS)
				var rest []string
				if refs != nil {
					rest = slices.DeleteFunc(slices.Clone(refs.Value), func(r string) bool { return r == ref })
				}
				slices.Sort(rest)
				var u backend.Change
				if len(rest) == 0 {
					u.Remove(attrTagRef)
				} else {
					u.Set(attrTagRef, &types.AttributeValueMemberSS{Value: rest})
				}
				ws[i] = backend.Update("task "+strconv.Itoa(i), c.t, backend.KeyOf(c.t, it), u,
					backend.Exists(ddb.Item{attrTagRef: it[attrTagRef]}))
			}
			err := c.b.Tx(ctx, c.stepRun(ctx, op, teamPK(teamID)), ws)
			if _, ok := backend.Failed(err, ""); ok {
				return raced("the tasks of team " + strconv.Quote(teamID))
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	return wrap(op, err)
}

// ---- tasks

// counterWrites returns the counter updates of d, with ADD: they create
// a missing counter and its three counts.
func (c *core) counterWrites(teamID string, d delta, today Date) []backend.Write {
	var ws []backend.Write
	add := func(label string, day Date, by Counts, exp int64) {
		if by == (Counts{}) {
			return
		}
		var u backend.Change
		u.Set(attrType, s(typeCounter))
		for _, st := range Statuses {
			u.Add(string(st), int64(by.Get(st)))
		}
		if exp != 0 {
			u.Set(AttrExpiresAt, n(exp))
		}
		ws = append(ws, backend.Update(label, c.t, counterKey(teamID, day).key(), u, backend.Cond{}))
	}
	add(labelAll, "", d.all, 0)
	if d.day != (Counts{}) {
		add(labelDay, today, d.day, c.o.expiresAt(today))
	}
	return ws
}

// tagChecks returns the checks that each of the tags at idx exists,
// labelled by its input field.
func (c *core) tagChecks(teamID string, ids []string, idx []int) []backend.Write {
	ws := make([]backend.Write, 0, len(idx))
	for _, i := range idx {
		ws = append(ws, backend.Check(tagField(i), c.t, tagKey(teamID, ids[i]).key(), nil))
	}
	return ws
}

func tagField(i int) string { return "TagIDs[" + strconv.Itoa(i) + "]" }

// tagError maps a failed tag check to the input field that named the tag.
func tagError(err error, ids []string, idx []int) error {
	for _, i := range idx {
		if _, ok := backend.Failed(err, tagField(i)); ok {
			return errUnknownTag(tagField(i), ids[i])
		}
	}
	return nil
}

// CreateTask implements TaskStore.CreateTask, which documents its errors.
func (c *core) CreateTask(ctx context.Context, teamID string, in NewTask) (Task, error) {
	const op = "create task"
	if err := validateNewTask(op, teamID, in); err != nil {
		return Task{}, err
	}
	task := c.o.newTask(teamID, in)
	item := taskItem(task)
	if err := checkSize(op, item, "Description"); err != nil {
		return Task{}, err
	}
	today := c.read().today
	all := make([]int, len(in.TagIDs))
	for i := range all {
		all[i] = i
	}
	ws := []backend.Write{backend.Check(labelTeam, c.t, teamKey(teamID).key(), nil)}
	ws = append(ws, c.tagChecks(teamID, in.TagIDs, all)...)
	ws = append(ws, backend.PutNew(labelTask, c.t, item))
	ws = append(ws, c.counterWrites(teamID, createDelta(task.Status), today)...)
	err := c.once(ctx, c.scope(op, teamPK(teamID)), ws)
	if _, ok := backend.Failed(err, labelTeam); ok {
		return Task{}, wrap(op, errTeamNotFound(teamID))
	}
	if err := tagError(err, in.TagIDs, all); err != nil {
		return Task{}, wrap(op, err)
	}
	if _, ok := backend.Failed(err, labelTask); ok {
		return Task{}, wrap(op, errRepeatedID("task", task.ID))
	}
	if err != nil {
		return Task{}, wrap(op, err)
	}
	return task, nil
}

// GetTask implements TaskStore.GetTask, which documents its errors.
func (c *core) GetTask(ctx context.Context, teamID, taskID string) (Task, error) {
	const op = "get task"
	if err := validateIDs(op, "TeamID", teamID, "TaskID", taskID); err != nil {
		return Task{}, err
	}
	t, _, err := c.task(ctx, teamID, taskID)
	if err != nil {
		return Task{}, wrap(op, err)
	}
	return t, nil
}

func (c *core) task(ctx context.Context, teamID, taskID string) (Task, stored, error) {
	item, err := c.get(ctx, taskKey(teamID, taskID))
	if err != nil {
		return Task{}, stored{}, err
	}
	if item == nil {
		return Task{}, stored{}, errTaskNotFound(teamID, taskID)
	}
	st, err := decode(c.t, item)
	if err != nil {
		return Task{}, stored{}, err
	}
	t, err := taskFrom(c.t, item, st)
	return t, st, err
}

// taskUpdate is UpdateTask's write of every attribute of t (tagRef
// removed when t has no tags), conditional on the task still having the
// status and dates read as st, raw: the counters and index keys depend on
// them. A date read as "" must still be "" or missing.
func (c *core) taskUpdate(t Task, st stored) backend.Write {
	item := taskItem(t)
	var u backend.Change
	for _, a := range [...]string{attrTitle, attrTaskDesc, attrStatus, attrStartTime, attrEndTime,
		AttrStatusGroup1, AttrStatusGroup2, AttrStatusGroup3, AttrStartSortSK, AttrEndSortSK} {
		u.Set(a, item[a])
	}
	if refs, ok := item[attrTagRef]; ok {
		u.Set(attrTagRef, refs)
	} else {
		u.Remove(attrTagRef)
	}
	same := func(attr, v string) backend.Filter {
		if v == "" {
			return backend.Or(backend.Equal(attr, s("")), backend.Missing(attr))
		}
		return backend.Equal(attr, s(v))
	}
	k := taskKey(t.TeamID, t.ID)
	cond := backend.When(backend.And(backend.Equal(AttrPK, s(k.pk)), backend.Equal(attrStatus, s(st.Status)),
		same(attrStartTime, st.StartTime), same(attrEndTime, st.EndTime)))
	return backend.Update(labelTask, c.t, k.key(), u, cond)
}

// UpdateTask implements TaskStore.UpdateTask, which documents its errors.
func (c *core) UpdateTask(ctx context.Context, teamID, taskID string, p TaskPatch) (Task, error) {
	const op = "update task"
	if err := validateTaskPatch(op, teamID, taskID, p); err != nil {
		return Task{}, err
	}
	var out Task
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		old, st, err := c.task(ctx, teamID, taskID)
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
		ws := []backend.Write{c.taskUpdate(t, st)}
		ws = append(ws, c.tagChecks(teamID, ids, added)...)
		ws = append(ws, c.counterWrites(teamID, moveDelta(old.Status, t.Status), c.read().today)...)
		err = c.b.Tx(ctx, r, ws)
		if err := tagError(err, ids, added); err != nil {
			return err
		}
		if prev, ok := backend.Failed(err, labelTask); ok {
			if prev == nil {
				return errTaskNotFound(teamID, taskID)
			}
			return raced("task " + strconv.Quote(taskID))
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
func (c *core) DeleteTask(ctx context.Context, teamID, taskID string) error {
	const op = "delete task"
	if err := validateIDs(op, "TeamID", teamID, "TaskID", taskID); err != nil {
		return err
	}
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		old, _, err := c.task(ctx, teamID, taskID)
		if err != nil {
			return err
		}
		ws := []backend.Write{backend.Delete(labelTask, c.t, taskKey(teamID, taskID).key(), ddb.Item{attrStatus: s(string(old.Status))})}
		ws = append(ws, c.counterWrites(teamID, deleteDelta(old.Status), "")...)
		err = c.b.Tx(ctx, r, ws)
		if prev, ok := backend.Failed(err, labelTask); ok {
			if prev == nil {
				return errTaskNotFound(teamID, taskID)
			}
			return raced("task " + strconv.Quote(taskID))
		}
		return err
	})
	return wrap(op, err)
}

// tagFilter is the board's tag filter: contains on the String Set, any
// or all of the tags (canonical: the same tags in any order give the same
// filter, which cursors bind).
func tagFilter(q BoardQuery) backend.Filter {
	tags := sortedTags(q.TagIDs)
	fs := make([]backend.Filter, len(tags))
	for i, id := range tags {
		fs[i] = backend.Contains(attrTagRef, tagRef(id))
	}
	if q.Match == MatchAll {
		return backend.And(fs...)
	}
	return backend.Or(fs...)
}

// ListBoard implements TaskStore.ListBoard, which documents its errors.
func (c *core) ListBoard(ctx context.Context, teamID string, q BoardQuery) (ddbkit.Page[Task], error) {
	const op = "list board"
	if err := validateBoard(op, teamID, q); err != nil {
		return ddbkit.Page[Task]{}, err
	}
	kq := boardQuery(c.t, teamID, q, c.read().today)
	p, err := listPage(ctx, c, c.t, kq, q.PageOptions, tagFilter(q), decodeTask)
	return p, wrap(op, err)
}

// ---- counters

// GetCounts implements CounterStore.GetCounts, which documents its errors.
func (c *core) GetCounts(ctx context.Context, teamID string) (Counts, error) {
	const op = "get counts"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return Counts{}, err
	}
	item, err := c.get(ctx, counterKey(teamID, ""))
	if err != nil || item == nil {
		return Counts{}, wrap(op, err)
	}
	cnt, _, err := decodeCounts(c.t, item)
	return cnt, wrap(op, err)
}

// ListDailyCounts implements CounterStore.ListDailyCounts, which documents its errors.
//
// TTL deletes late: the listing leaves out what has expired, with a
// filter on expiresAt against the clock. A cursor binds its filter, the
// time included, so a page's Next carries the time of the listing's
// first page (see dailyCursor): every page of one listing filters at
// that time.
func (c *core) ListDailyCounts(ctx context.Context, teamID string, q DailyQuery) (ddbkit.Page[DailyCount], error) {
	const op = "list daily counts"
	if err := validateDaily(op, teamID, q); err != nil {
		return ddbkit.Page[DailyCount]{}, err
	}
	now := c.read().now.Unix()
	o := q.PageOptions
	if o.Cursor != "" {
		at, inner, err := splitDailyCursor(o.Cursor)
		if err != nil {
			return ddbkit.Page[DailyCount]{}, wrap(op, err)
		}
		now, o.Cursor = at, inner
	}
	live := backend.Or(backend.Missing(AttrExpiresAt), backend.Greater(AttrExpiresAt, n(now)))
	p, err := listPage(ctx, c, c.t, dailyQuery(c.t, teamID, q), o, live, decodeDaily)
	if p.Next != "" {
		p.Next = strconv.FormatInt(now, 10) + dailyCursorSep + p.Next
	}
	return p, wrap(op, err)
}

const dailyCursorSep = "~"

// splitDailyCursor splits a ListDailyCounts cursor into the time its
// listing filters at and the page cursor. Tampering with the time fails
// the page cursor's binding.
func splitDailyCursor(cursor string) (int64, string, error) {
	at, inner, ok := strings.Cut(cursor, dailyCursorSep)
	if ok {
		if n, err := strconv.ParseInt(at, 10, 64); err == nil && inner != "" {
			return n, inner, nil
		}
	}
	return 0, "", errBadCursor
}

var errBadCursor = fmt.Errorf("%w: not a cursor of this listing; restart the listing without a cursor", ddbkit.ErrInvalidCursor)

// isCorrupt reports an item that cannot be decoded, which listings and
// walks leave out.
func isCorrupt(err error) bool { return errors.Is(err, ddbkit.ErrCorruptItem) }

// RecalculateCounters implements CounterStore.RecalculateCounters, which documents its errors.
func (c *core) RecalculateCounters(ctx context.Context, teamID string) (CounterReport, error) {
	const op = "recalculate counters"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return CounterReport{}, err
	}
	var rep CounterReport
	k := counterKey(teamID, "")
	// One read-modify-write: a counter that changed since its read starts
	// the count over.
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(*backend.Run) error {
		// The counter first: every task write changes it, so the condition
		// on it below catches any write after this read.
		item, err := c.get(ctx, k)
		if err != nil {
			return err
		}
		rep = CounterReport{}
		if item != nil {
			if rep.Was, _, err = decodeCounts(c.t, item); err != nil {
				return err
			}
		}
		var derr error
		err = c.walk(ctx, tasksQuery(c.t, teamID), backend.Filter{}, func(it ddb.Item) bool {
			t, err := decodeTask(c.t, it)
			if err != nil {
				if !isCorrupt(err) {
					derr = err
					return true
				}
				return false
			}
			rep.Counts = rep.Counts.add(t.Status, 1)
			return false
		})
		if err == nil {
			err = derr
		}
		if err != nil {
			return err
		}
		rep.Drift = rep.Counts != rep.Was
		if !rep.Drift && item != nil {
			return nil
		}
		cond := backend.Absent()
		if item != nil {
			fs := []backend.Filter{backend.Equal(AttrPK, s(k.pk))}
			for _, st := range Statuses {
				if v, ok := item[string(st)]; ok {
					fs = append(fs, backend.Equal(string(st), v))
				} else {
					fs = append(fs, backend.Missing(string(st)))
				}
			}
			cond = backend.When(backend.And(fs...))
		}
		var u backend.Change
		u.Set(attrType, s(typeCounter))
		for _, st := range Statuses {
			u.Set(string(st), n(int64(rep.Counts.Get(st))))
		}
		_, err = c.b.Update(ctx, c.t, k.key(), u, cond)
		if old, ok := backend.Failed(err, ""); ok {
			// A repeat after a lost response finds the counts it wrote.
			if old != nil && countsAre(old, rep.Counts) {
				return nil
			}
			return raced("COUNTER#ALL of team " + strconv.Quote(teamID))
		}
		return err
	})
	if err != nil {
		return CounterReport{}, wrap(op, err)
	}
	return rep, nil
}

// countsAre reports whether item holds exactly counts n, as Numbers.
func countsAre(item ddb.Item, cnt Counts) bool {
	for _, st := range Statuses {
		if ddb.AttrString(item[string(st)]) != ddb.AttrString(n(int64(cnt.Get(st)))) {
			return false
		}
	}
	return true
}
