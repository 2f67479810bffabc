package taskmgmt

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The operations on users, teams and members (access patterns 1 to 4),
// on both stores (see store.go).

// ---- users

// CreateUser implements UserStore.CreateUser, which documents its errors.
func (c *core) CreateUser(ctx context.Context, in NewUser) (_ User, err error) {
	ctx, sp := c.start(ctx, "CreateUser")
	defer sp.End(&err)
	replay := func(ctx context.Context, ref backend.Key) (User, error) {
		item, err := c.replayItem(ctx, c.t, ref, errUserNotFound(in.ID))
		if err != nil {
			return User{}, err
		}
		return decodeUser(c.t, item)
	}
	return keyed(ctx, "create user", keying(c, c.scope("create user", userPK(in.ID)), replay, in), func(ctx context.Context) (User, error) {
		return c.createUser(ctx, in)
	})
}

// createUser is CreateUser's work, which Keyed runs.
func (c *core) createUser(ctx context.Context, in NewUser) (User, error) {
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
func (c *core) GetUser(ctx context.Context, userID string) (_ User, err error) {
	ctx, sp := c.start(ctx, "GetUser")
	defer sp.End(&err)
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
func (c *core) RenameUser(ctx context.Context, userID, name string) (_ User, err error) {
	ctx, sp := c.start(ctx, "RenameUser")
	defer sp.End(&err)
	// A repeat renames again, without the key: it finishes the copies.
	return keyed(ctx, "rename user", keying[User](c, c.scope("rename user", userPK(userID)), nil, name), func(ctx context.Context) (User, error) {
		return c.renameUser(ctx, userID, name)
	})
}

// renameUser is RenameUser's work, which Keyed runs.
func (c *core) renameUser(ctx context.Context, userID, name string) (User, error) {
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
// does not hold it yet, in transactions of at most maxTx items,
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
		for batch := range slices.Chunk(stale, maxTx(ctx)) {
			ws := make([]backend.Write, len(batch))
			for i, k := range batch {
				ws[i] = backend.Update("item "+strconv.Itoa(i), c.t, k, set, backend.Exists(nil))
			}
			err := c.b.Tx(ctx, c.stepRun(op, q.PartitionValue), ws)
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
func (c *core) CreateTeam(ctx context.Context, creatorID string, in NewTeam) (_ Team, err error) {
	ctx, sp := c.start(ctx, "CreateTeam")
	defer sp.End(&err)
	replay := func(ctx context.Context, ref backend.Key) (Team, error) {
		id, _ := idFrom(ref.PK, segTeam)
		item, err := c.replayItem(ctx, c.t, ref, errTeamNotFound(id))
		if err != nil {
			return Team{}, err
		}
		return decodeTeam(c.t, item)
	}
	return keyed(ctx, "create team", keying(c, c.scope("create team", userPK(creatorID)), replay, in), func(ctx context.Context) (Team, error) {
		return c.createTeam(ctx, creatorID, in)
	})
}

// createTeam is CreateTeam's work, which Keyed runs.
func (c *core) createTeam(ctx context.Context, creatorID string, in NewTeam) (Team, error) {
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
		u, _, err := c.user(ctx, creatorID)
		if err != nil {
			return err
		}
		err = c.b.Tx(ctx, r, []backend.Write{
			backend.PutNew(labelTeam, c.t, teamItem(team)), // first: an idempotency record refers to it
			c.checkNamed(labelUser, userKey(creatorID), attrUserName, u.Name),
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
func (c *core) GetTeam(ctx context.Context, teamID string) (_ Team, err error) {
	ctx, sp := c.start(ctx, "GetTeam")
	defer sp.End(&err)
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
func (c *core) UpdateTeam(ctx context.Context, teamID, actorID string, p TeamPatch) (_ Team, err error) {
	ctx, sp := c.start(ctx, "UpdateTeam")
	defer sp.End(&err)
	// A repeat updates again, without the key: it finishes the copies.
	return keyed(ctx, "update team", keying[Team](c, c.scope("update team", teamPK(teamID)), nil, actorID, p), func(ctx context.Context) (Team, error) {
		return c.updateTeam(ctx, teamID, actorID, p)
	})
}

// updateTeam is UpdateTeam's work, which Keyed runs.
func (c *core) updateTeam(ctx context.Context, teamID, actorID string, p TeamPatch) (Team, error) {
	const op = "update team"
	if err := validateTeamPatch(op, teamID, p); err != nil {
		return Team{}, err
	}
	if err := validateIDs(op, "ActorID", actorID); err != nil {
		return Team{}, err
	}
	var u backend.Change
	if p.Name != nil {
		u.Set(attrTeamName, s(*p.Name))
	}
	if p.Description != nil {
		u.Set(attrTeamDesc, s(*p.Description))
	}
	// The admin check rides in the update's transaction, which returns no
	// item: the result is the team as read with the patch applied, the
	// update conditional on the fields as read.
	var t Team
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		team, item, err := c.team(ctx, teamID)
		if err != nil {
			return err
		}
		err = c.b.Tx(ctx, r, []backend.Write{
			c.checkAdmin(teamID, actorID),
			backend.Update(labelTeam, c.t, teamKey(teamID).key(), u, backend.Unchanged(c.t, item, []string{attrTeamName, attrTeamDesc})),
		})
		if err, ok := refused(err, teamID, actorID, op); ok {
			return err
		}
		if err, ok := teamFailed(err, teamID); ok {
			return err
		}
		if err != nil {
			return err
		}
		t = team
		if p.Name != nil {
			t.Name = *p.Name
		}
		if p.Description != nil {
			t.Description = *p.Description
		}
		return nil
	})
	if err != nil {
		return Team{}, wrap(op, err)
	}
	if p.Name != nil {
		// Fan out to the user_team items: SK = TEAM#t, PK = USER#…
		if err := c.fanOut(ctx, op, invertQuery(c.t, teamPK(teamID), segUser), attrTeamName, *p.Name); err != nil {
			return Team{}, wrap(op, err)
		}
	}
	return t, nil
}

// DeleteTeam implements TeamStore.DeleteTeam, which documents its errors.
func (c *core) DeleteTeam(ctx context.Context, teamID, actorID string) (err error) {
	ctx, sp := c.start(ctx, "DeleteTeam")
	defer sp.End(&err)
	del := func(ctx context.Context) (struct{}, error) { return struct{}{}, c.deleteTeam(ctx, teamID, actorID) }
	// A repeat deletes again, without the key, finishing what an
	// interrupted call left; nothing left is the first call's success.
	replay := func(ctx context.Context, _ backend.Key) (struct{}, error) {
		_, err := del(ddb.WithoutKey(ctx))
		if errors.Is(err, ddbkit.ErrNotFound) {
			return struct{}{}, nil
		}
		return struct{}{}, err
	}
	_, err = keyed(ctx, "delete team", keying(c, c.scope("delete team", teamPK(teamID)), replay, actorID), del)
	return err
}

// deleteTeam is DeleteTeam's work, which Keyed runs.
func (c *core) deleteTeam(ctx context.Context, teamID, actorID string) error {
	const op = "delete team"
	if err := validateIDs(op, "TeamID", teamID, "ActorID", actorID); err != nil {
		return err
	}
	actorKey := teamUserKey(teamID, actorID).key()
	var memberships, items, team []backend.Key
	var actor ddb.Item
	err := c.walk(ctx, teamItemsQuery(c.t, teamID), backend.Filter{}, func(it ddb.Item) bool {
		k := backend.KeyOf(c.t, it)
		if k.SK == teamPK(teamID) {
			team = append(team, k)
			return false
		}
		if k == actorKey { // deleted last, apart: see below
			actor = it
			memberships = append(memberships, userTeamKey(actorID, teamID).key())
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
	if len(team) == 0 && len(items) == 0 && actor == nil {
		return wrap(op, errTeamNotFound(teamID))
	}
	if role, _ := backend.Str(actor, attrRole); role != string(RoleAdmin) {
		return wrap(op, errPermission(teamID, actorID, op))
	}
	// The members' user_team items first, then the partition, the team
	// item, and the actor's team_user item last, so that a repeat after a
	// failure still finds what is left and checks the actor's role on it.
	// The first step is a transaction: the actor's admin check and the
	// first deletes (all of them in a small team), so that a demoted admin
	// deletes nothing; the later batches continue a deletion begun by an
	// admin.
	steps := [][]backend.Key{memberships, items, team}
	first := []backend.Write{c.checkAdmin(teamID, actorID)}
	for i := range steps {
		for len(steps[i]) > 0 && len(first) < maxTx(ctx) {
			first = append(first, backend.Remove("item "+strconv.Itoa(len(first)), c.t, steps[i][0]))
			steps[i] = steps[i][1:]
		}
	}
	last := []backend.Key{actorKey}
	if len(first) == 1 {
		// Only the actor's own item is left: its delete is the check.
		first = []backend.Write{backend.Delete(labelActor, c.t, actorKey, admin)}
		last = nil
	}
	err = c.b.Tx(ctx, c.stepRun(op, teamPK(teamID)), first)
	if err, ok := refused(err, teamID, actorID, op); ok {
		return wrap(op, err)
	}
	if err != nil {
		return wrap(op, err)
	}
	for _, batch := range append(steps, last) {
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
func (c *core) ListMembers(ctx context.Context, teamID string, o ddbkit.PageOptions) (_ ddbkit.Page[Member], err error) {
	ctx, sp := c.start(ctx, "ListMembers")
	defer sp.End(&err)
	const op = "list members"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Member]{}, err
	}
	p, err := listPage(ctx, c, membersQuery(c.t, teamID), o, backend.Filter{}, memberDecoder)
	return p, wrap(op, err)
}

// GetMember implements TeamStore.GetMember, which documents its errors.
func (c *core) GetMember(ctx context.Context, teamID, userID string) (_ Member, err error) {
	ctx, sp := c.start(ctx, "GetMember")
	defer sp.End(&err)
	const op = "get member"
	if err := validateIDs(op, "TeamID", teamID, "UserID", userID); err != nil {
		return Member{}, err
	}
	m, err := c.member(ctx, teamID, userID)
	if err != nil {
		return Member{}, wrap(op, err)
	}
	return m, nil
}

// ListUserTeams implements TeamStore.ListUserTeams, which documents its errors.
func (c *core) ListUserTeams(ctx context.Context, userID string, o ddbkit.PageOptions) (_ ddbkit.Page[Membership], err error) {
	ctx, sp := c.start(ctx, "ListUserTeams")
	defer sp.End(&err)
	const op = "list user teams"
	if err := validateList(op, "UserID", userID, o); err != nil {
		return ddbkit.Page[Membership]{}, err
	}
	p, err := listPage(ctx, c, userTeamsQuery(c.t, userID), o, backend.Filter{}, membershipDecoder)
	return p, wrap(op, err)
}

// AddMember implements TeamStore.AddMember, which documents its errors.
func (c *core) AddMember(ctx context.Context, teamID, actorID, userID string, role Role) (_ Member, err error) {
	ctx, sp := c.start(ctx, "AddMember")
	defer sp.End(&err)
	// The member's key is the input's: the first write stays the admin
	// check, whose failure comes first.
	replay := func(ctx context.Context, _ backend.Key) (Member, error) {
		return c.member(ctx, teamID, userID)
	}
	return keyed(ctx, "add member", keying(c, c.scope("add member", teamPK(teamID)), replay, actorID, userID, role), func(ctx context.Context) (Member, error) {
		return c.addMember(ctx, teamID, actorID, userID, role)
	})
}

// addMember is AddMember's work, which Keyed runs.
func (c *core) addMember(ctx context.Context, teamID, actorID, userID string, role Role) (Member, error) {
	const op = "add member"
	if err := validateMember(op, teamID, actorID, userID, role); err != nil {
		return Member{}, err
	}
	if actorID == userID {
		// An admin is a member already, and anyone else joins through an
		// invitation.
		return Member{}, wrap(op, errPermission(teamID, actorID, op))
	}
	today := c.read().today
	var m Member
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		team, _, err := c.team(ctx, teamID)
		if err != nil {
			return err
		}
		u, _, err := c.user(ctx, userID)
		if err != nil {
			return err
		}
		m = Member{TeamID: teamID, UserID: userID, UserName: u.Name, Role: role, JoinedAt: today}
		err = c.b.Tx(ctx, r, []backend.Write{
			c.checkAdmin(teamID, actorID),
			c.checkNamed(labelTeam, teamKey(teamID), attrTeamName, team.Name),
			c.checkNamed(labelUser, userKey(userID), attrUserName, u.Name),
			backend.PutNew(labelUserTeam, c.t, userTeamItem(Membership{UserID: userID, TeamID: teamID, TeamName: team.Name, Role: role, JoinedAt: today})),
			backend.PutNew(labelTeamUser, c.t, teamUserItem(m)),
		})
		if err, ok := refused(err, teamID, actorID, op); ok {
			return err
		}
		if err, ok := teamFailed(err, teamID); ok {
			return err
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

func validateMember(op, teamID, actorID, userID string, role Role) error {
	var v validator
	v.ID("TeamID", teamID, MaxIDLen)
	v.ID("ActorID", actorID, MaxIDLen)
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

// memberTx sends a membership change by actorID; a failed check of the
// actor's role refuses op, and any other failed condition means the
// members changed since the read.
func (c *core) memberTx(ctx context.Context, r *backend.Run, teamID, actorID, op string, ws []backend.Write) error {
	err := c.b.Tx(ctx, r, ws)
	if err, ok := refused(err, teamID, actorID, op); ok {
		return err
	}
	if _, ok := backend.Failed(err, ""); ok {
		return raced("the members of team " + strconv.Quote(teamID))
	}
	return err
}

// SetRole implements TeamStore.SetRole, which documents its errors.
func (c *core) SetRole(ctx context.Context, teamID, actorID, userID string, role Role) (_ Member, err error) {
	ctx, sp := c.start(ctx, "SetRole")
	defer sp.End(&err)
	// A repeat reads the member, as it is now: it writes nothing.
	replay := func(ctx context.Context, _ backend.Key) (Member, error) {
		return c.member(ctx, teamID, userID)
	}
	k := keying(c, c.scope("set role", teamPK(teamID)), replay, actorID, userID, role)
	k.Ref = func(Member) backend.Key { return teamUserKey(teamID, userID).key() } // a role already held writes nothing
	return keyed(ctx, "set role", k, func(ctx context.Context) (Member, error) {
		return c.setRole(ctx, teamID, actorID, userID, role)
	})
}

// setRole is SetRole's work, which Keyed runs.
func (c *core) setRole(ctx context.Context, teamID, actorID, userID string, role Role) (Member, error) {
	const op = "set role"
	if err := validateMember(op, teamID, actorID, userID, role); err != nil {
		return Member{}, err
	}
	var m Member
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		var err error
		if m, err = c.member(ctx, teamID, userID); err != nil {
			return err
		}
		self := actorID == userID
		if m.Role == role {
			// Nothing to write, so nothing for a check to ride with: the
			// actor's role as read decides.
			if !self {
				a, err := c.member(ctx, teamID, actorID)
				if errors.Is(err, ddbkit.ErrNotFound) || err == nil && a.Role != RoleAdmin {
					return errPermission(teamID, actorID, op)
				}
				return err
			}
			if m.Role != RoleAdmin {
				return errPermission(teamID, actorID, op)
			}
			return nil
		}
		var ws []backend.Write
		switch {
		case self && m.Role != RoleAdmin:
			return errPermission(teamID, actorID, op)
		case self:
			// An admin demoting themself: the update's condition on their
			// role is the check, and another admin must stay.
			w, err := c.checkOtherAdmin(ctx, teamID, userID)
			if err != nil {
				return err
			}
			ws = append(ws, w)
		default:
			// The actor, an admin other than the member, stays one: the
			// team keeps an admin whatever this member's new role.
			ws = append(ws, c.checkAdmin(teamID, actorID))
		}
		var u backend.Change
		u.Set(attrRole, s(string(role)))
		ws = append(ws,
			backend.Update(labelTeamUser, c.t, teamUserKey(teamID, userID).key(), u, backend.Exists(ddb.Item{attrRole: s(string(m.Role))})),
			backend.Update(labelUserTeam, c.t, userTeamKey(userID, teamID).key(), u, backend.Exists(nil)))
		m.Role = role // the result, should the transaction commit
		return c.memberTx(ctx, r, teamID, actorID, op, ws)
	})
	if err != nil {
		return Member{}, wrap(op, err)
	}
	return m, nil
}

// RemoveMember implements TeamStore.RemoveMember, which documents its errors.
func (c *core) RemoveMember(ctx context.Context, teamID, actorID, userID string) (err error) {
	ctx, sp := c.start(ctx, "RemoveMember")
	defer sp.End(&err)
	// A repeat is the first call's success: the record exists only if
	// its transaction removed the member.
	_, err = keyed(ctx, "remove member", committed(keying[struct{}](c, c.scope("remove member", teamPK(teamID)), nil, actorID, userID)), func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.removeMember(ctx, teamID, actorID, userID)
	})
	return err
}

// removeMember is RemoveMember's work, which Keyed runs.
func (c *core) removeMember(ctx context.Context, teamID, actorID, userID string) error {
	const op = "remove member"
	if err := validateIDs(op, "TeamID", teamID, "ActorID", actorID, "UserID", userID); err != nil {
		return err
	}
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		m, err := c.member(ctx, teamID, userID)
		if err != nil {
			return err
		}
		var ws []backend.Write
		switch {
		case actorID != userID:
			// An admin removing another member stays an admin: the team
			// keeps one.
			ws = append(ws, c.checkAdmin(teamID, actorID))
		case m.Role == RoleAdmin:
			// Leaving, which any member may: the delete's condition on
			// the role is the check, and an admin leaves another behind.
			w, err := c.checkOtherAdmin(ctx, teamID, userID)
			if err != nil {
				return err
			}
			ws = append(ws, w)
		}
		ws = append(ws,
			backend.Delete(labelTeamUser, c.t, teamUserKey(teamID, userID).key(), ddb.Item{attrRole: s(string(m.Role))}),
			backend.Remove(labelUserTeam, c.t, userTeamKey(userID, teamID).key()))
		return c.memberTx(ctx, r, teamID, actorID, op, ws)
	})
	return wrap(op, err)
}
