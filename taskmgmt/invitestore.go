package taskmgmt

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The invitation operations, on both stores (see store.go). The
// invitation table is served with TTL on expiresAt: its reads leave out
// expired invitations, as of the operation's reading of the clock.

// Transaction item labels of the invitation writes.
const (
	labelInvitation = "invitation"
	labelEarlier    = "earlier invitation "
)

// errNotAddressee refuses an acceptance under Options.AcceptOnlyAddressee
// by a user who is not the invitation's addressee.
func errNotAddressee(invitationID, userID string) error {
	return fmt.Errorf("%w: invitation %q was sent to another address than user %q's; the addressee must accept it, signed in with that address", ddbkit.ErrPermissionDenied, invitationID, userID)
}

// sameAddress reports whether two email addresses are one, ignoring the
// case of ASCII letters only (the package doc's "Email addresses"). Unicode case folding would make addresses
// of other people equal (the Kelvin sign K folds to k, the long s ſ to
// s), so that a user registered as "\u212Aim@example.com" could accept
// kim@example.com's invitation under Options.AcceptOnlyAddressee.
func sameAddress(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// userCheck is the acceptance's check that the user, read as item, still
// has the name it copies, and under Options.AcceptOnlyAddressee the
// address it was checked by: one condition, as a transaction checks an
// item once.
func (c *core) userCheck(userID, name string, item ddb.Item) backend.Write {
	k := userKey(userID)
	if !c.o.AcceptOnlyAddressee {
		return c.checkNamed(labelUser, k, attrUserName, name)
	}
	return backend.CheckWhen(labelUser, c.t, k.key(), backend.Unchanged(c.t, item, []string{attrUserEmail}, named(attrUserName, name)))
}

// replaceable bounds the earlier invitations of one address one Invite
// deletes: the transaction's other items leave room for that many. More
// can only come from other writers; the rest expire.
func replaceable(ctx context.Context) int { return maxTx(ctx) - 3 }

// clockSlack is how far another writer's clock may run behind ours when
// it names an invitation by the time (see liveInvitationsQuery).
const clockSlack = time.Hour

// liveInvitationsQuery is the team's invitations created since since, by
// their IDs: the seed's invitation IDs are UUIDv7 ("in registration
// order"), whose first 48 bits are the creation time in milliseconds, so
// every invitation still live was created after now less its lifetime,
// and the older ones, which TTL may not have deleted yet, are not read.
// Invite's cost then follows the team's recent invitations, not its
// history. An ID of another kind that sorts below the bound is not read;
// one above is (a later ID of any kind is only read in vain).
func liveInvitationsQuery(t ddb.Table, teamID string, since time.Time) ddb.KeyQuery {
	q := invitationsQuery(t, teamID)
	ms := max(since.UnixMilli(), 0)
	lo := fmt.Sprintf("%s#%08x-%04x", segInvite, uint64(ms)>>16&0xffffffff, uint64(ms)&0xffff)
	q.Sort = ddb.SortBetween(lo, segInvite+"#\U0010FFFF")
	return q
}

// Invite implements InvitationStore.Invite, which documents its errors.
func (c *core) Invite(ctx context.Context, teamID, inviterID string, in NewInvitation) (_ Invitation, err error) {
	ctx, sp := c.start(ctx, "Invite")
	defer sp.End(&err)
	// The invitation is the first write: the record refers to it, and a
	// repeat returns it with its token (derived again under a
	// TokenSecret), or ErrNotFound once it is accepted, revoked or
	// replaced.
	replay := func(ctx context.Context, ref backend.Key) (Invitation, error) {
		id, _ := idFrom(ref.SK, segInvite)
		item, err := c.replayItem(ctx, c.it, ref, errInvitationNotFound(teamID, id))
		if err != nil {
			return Invitation{}, err
		}
		inv, err := decodeInvitation(c.it, item)
		if err != nil {
			return Invitation{}, err
		}
		inv.Token, err = mailToken(c.o.TokenSecret, inv)
		return inv, err
	}
	return keyed(ctx, "invite", keying(c, c.invitationScope("invite", teamPK(teamID)), replay, inviterID, in), func(ctx context.Context) (Invitation, error) {
		return c.invite(ctx, teamID, inviterID, in)
	})
}

// invite is Invite's work, which Keyed runs.
func (c *core) invite(ctx context.Context, teamID, inviterID string, in NewInvitation) (Invitation, error) {
	const op = "invite"
	if err := c.o.validateInvite(op, teamID, inviterID, in); err != nil {
		return Invitation{}, err
	}
	now := c.read().now
	var inv Invitation
	err := c.rmw(ctx, c.invitationScope(op, teamPK(teamID)), func(r *backend.Run) error {
		team, _, err := c.team(ctx, teamID)
		if err != nil {
			return err
		}
		// The earlier invitations of the address, which this one replaces.
		// Addresses compare ignoring ASCII case (Bob@example.com and
		// bob@example.com are one mailbox in practice), which no filter
		// expression can: the walk reads the team's invitations (every one
		// a filter would have read too) and compares here.
		var earlier []backend.Key
		err = c.walk(ctx, liveInvitationsQuery(c.it, teamID, now.Add(-c.o.InvitationLifetime-clockSlack)), backend.Filter{}, func(it ddb.Item) bool {
			if e, _ := backend.Str(it, attrEmail); len(earlier) < replaceable(ctx) && sameAddress(e, in.Email) {
				earlier = append(earlier, backend.KeyOf(c.it, it))
			}
			return false
		})
		if err != nil {
			return err
		}
		if inv.ID == "" { // the first build makes the invitation; rebuilds keep it
			if inv, err = c.o.newInvitation(teamID, team.Name, inviterID, in, now); err != nil {
				return err
			}
		}
		inv.TeamName = team.Name
		ws := []backend.Write{
			// The invitation first: an idempotency record refers to it.
			backend.PutNew(labelInvitation, c.it, invitationItem(c.o.storedForm(inv))),
			backend.Check(labelAdmin, c.t, teamUserKey(teamID, inviterID).key(), admin),
			c.checkNamed(labelTeam, teamKey(teamID), attrTeamName, team.Name),
		}
		for i, k := range earlier {
			ws = append(ws, backend.Remove(labelEarlier+strconv.Itoa(i), c.it, k))
		}
		err = c.b.Tx(ctx, r, ws)
		if _, ok := backend.Failed(err, labelAdmin); ok {
			return errPermission(teamID, inviterID, "invite")
		}
		if err, ok := teamFailed(err, teamID); ok {
			return err
		}
		if _, ok := backend.Failed(err, labelInvitation); ok {
			return errRepeatedID("invitation", inv.ID)
		}
		if _, ok := backend.Failed(err, ""); ok {
			return raced("the invitations of team " + strconv.Quote(teamID))
		}
		return err
	})
	if err != nil {
		return Invitation{}, wrap(op, err)
	}
	return inv, nil
}

// GetInvitation implements InvitationStore.GetInvitation, which documents its errors.
func (c *core) GetInvitation(ctx context.Context, teamID, invitationID string) (_ Invitation, err error) {
	ctx, sp := c.start(ctx, "GetInvitation")
	defer sp.End(&err)
	const op = "get invitation"
	if err := validateIDs(op, "TeamID", teamID, "InvitationID", invitationID); err != nil {
		return Invitation{}, err
	}
	inv, _, err := c.invitation(ctx, teamID, invitationID, c.read().now)
	if err != nil {
		return Invitation{}, wrap(op, err)
	}
	inv.Token = ""
	return inv, nil
}

// invitation reads a live invitation at now, its token included, and its
// item.
func (c *core) invitation(ctx context.Context, teamID, invitationID string, now time.Time) (Invitation, ddb.Item, error) {
	item, err := c.b.Get(ctx, c.it, invitationKey(teamID, invitationID).key())
	if err != nil {
		return Invitation{}, nil, err
	}
	if item == nil {
		return Invitation{}, nil, errInvitationNotFound(teamID, invitationID)
	}
	inv, err := decodeInvitation(c.it, item)
	if err != nil {
		return Invitation{}, nil, err
	}
	if !inv.Live(now) {
		return Invitation{}, nil, errInvitationNotFound(teamID, invitationID)
	}
	return inv, item, nil
}

// ListInvitations implements InvitationStore.ListInvitations, which documents its errors.
func (c *core) ListInvitations(ctx context.Context, teamID string, o ddbkit.PageOptions) (_ ddbkit.Page[Invitation], err error) {
	ctx, sp := c.start(ctx, "ListInvitations")
	defer sp.End(&err)
	const op = "list invitations"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Invitation]{}, err
	}
	c.read() // the time TTL filters at
	// Filtered by TTL, so bounded by the filter budget: a page may be
	// short, or empty, with a Next cursor.
	p, err := listPage(ctx, c, invitationsQuery(c.it, teamID), o, backend.Filter{}, publicInvitationDecoder)
	return p, wrap(op, err)
}

// AcceptInvitation implements InvitationStore.AcceptInvitation, which documents its errors.
func (c *core) AcceptInvitation(ctx context.Context, userID string, a Acceptance) (_ Member, err error) {
	ctx, sp := c.start(ctx, "AcceptInvitation")
	defer sp.End(&err)
	// A repeat after a lost answer returns the membership, whose key is
	// the input's: the invitation is gone by then. The first write stays
	// the invitation's delete, whose failure comes first.
	replay := func(ctx context.Context, _ backend.Key) (Member, error) {
		return c.member(ctx, a.TeamID, userID)
	}
	return keyed(ctx, "accept invitation", keying(c, c.invitationScope("accept invitation", userPK(userID)), replay, a), func(ctx context.Context) (Member, error) {
		return c.acceptInvitation(ctx, userID, a)
	})
}

// acceptInvitation is AcceptInvitation's work, which Keyed runs.
func (c *core) acceptInvitation(ctx context.Context, userID string, a Acceptance) (Member, error) {
	const op = "accept invitation"
	if err := validateAcceptance(op, userID, a); err != nil {
		return Member{}, err
	}
	notFound := errInvitationNotFound(a.TeamID, a.InvitationID)
	now := c.read()
	inv, invItem, err := c.invitation(ctx, a.TeamID, a.InvitationID, now.now)
	if err != nil {
		return Member{}, wrap(op, err)
	}
	if !tokenMatches(inv.Token, a.Token) {
		return Member{}, wrap(op, notFound)
	}
	u, uItem, err := c.user(ctx, userID)
	if err != nil {
		return Member{}, wrap(op, err)
	}
	if c.o.AcceptOnlyAddressee && !sameAddress(u.Email, inv.Email) {
		return Member{}, wrap(op, errNotAddressee(a.InvitationID, userID))
	}
	// The names to copy, and the checks that the team and the user still
	// hold them: the invitation's copy of the team's name at first, the
	// team's own after a failed check.
	teamName, userName := inv.TeamName, u.Name
	ik := invitationKey(a.TeamID, a.InvitationID).key()
	var m Member
	// The accepting user's partition scopes the key.
	err = c.rmw(ctx, c.invitationScope(op, userPK(userID)), func(r *backend.Run) error {
		m = Member{TeamID: a.TeamID, UserID: userID, UserName: userName, Role: inv.Role, JoinedAt: now.today}
		ws := []backend.Write{
			// The invitation goes, if it still holds the token and the
			// expiry read, which had not passed now: the moment of
			// acceptance decides, not TTL.
			backend.Delete(labelInvitation, c.it, ik, ddb.Item{attrToken: invItem[attrToken], attrInvExpiresAt: invItem[attrInvExpiresAt]}),
			c.checkNamed(labelTeam, teamKey(a.TeamID), attrTeamName, teamName),
			c.userCheck(userID, userName, uItem),
			backend.PutNew(labelUserTeam, c.t, userTeamItem(Membership{UserID: userID, TeamID: a.TeamID, TeamName: teamName, Role: inv.Role, JoinedAt: now.today})),
			backend.PutNew(labelTeamUser, c.t, teamUserItem(m)),
		}
		err := c.b.Tx(ctx, r, ws)
		if _, ok := backend.Failed(err, labelInvitation); ok {
			return notFound // accepted or revoked meanwhile
		}
		// The copies must match the team's and the user's names now: a
		// rename since the invitation or the read is taken from the item.
		if old, ok := backend.Failed(err, labelTeam); ok {
			if old == nil {
				return errTeamNotFound(a.TeamID)
			}
			t, derr := decodeTeam(c.t, old)
			if derr != nil {
				return derr
			}
			teamName = t.Name
			return raced("team " + strconv.Quote(a.TeamID))
		}
		if old, ok := backend.Failed(err, labelUser); ok {
			if old == nil {
				return errUserNotFound(userID)
			}
			u, derr := decodeUser(c.t, old)
			if derr != nil {
				return derr
			}
			if c.o.AcceptOnlyAddressee && !sameAddress(u.Email, inv.Email) {
				return errNotAddressee(a.InvitationID, userID) // the address changed meanwhile
			}
			userName, uItem = u.Name, old
			return raced("user " + strconv.Quote(userID))
		}
		if _, ok := backend.Failed(err, ""); ok {
			return errIsMember(a.TeamID, userID)
		}
		return err
	})
	if err != nil {
		return Member{}, wrap(op, err)
	}
	return m, nil
}

// RevokeInvitation implements InvitationStore.RevokeInvitation, which documents its errors.
func (c *core) RevokeInvitation(ctx context.Context, teamID, adminID, invitationID string) (err error) {
	ctx, sp := c.start(ctx, "RevokeInvitation")
	defer sp.End(&err)
	// A repeat is the first call's success.
	_, err = keyed(ctx, "revoke invitation", committed(keying[struct{}](c, c.invitationScope("revoke invitation", teamPK(teamID)), nil, adminID, invitationID)), func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.revokeInvitation(ctx, teamID, adminID, invitationID)
	})
	return err
}

// revokeInvitation is RevokeInvitation's work, which Keyed runs.
func (c *core) revokeInvitation(ctx context.Context, teamID, adminID, invitationID string) error {
	const op = "revoke invitation"
	if err := validateIDs(op, "TeamID", teamID, "AdminID", adminID, "InvitationID", invitationID); err != nil {
		return err
	}
	err := c.once(ctx, c.invitationScope(op, teamPK(teamID)), []backend.Write{
		backend.Check(labelAdmin, c.t, teamUserKey(teamID, adminID).key(), admin),
		backend.Delete(labelInvitation, c.it, invitationKey(teamID, invitationID).key(), nil),
	})
	// The admin check first: a non-admin learns nothing of the invitation.
	if _, ok := backend.Failed(err, labelAdmin); ok {
		return wrap(op, errPermission(teamID, adminID, "revoke an invitation"))
	}
	if _, ok := backend.Failed(err, labelInvitation); ok {
		return wrap(op, errInvitationNotFound(teamID, invitationID))
	}
	return wrap(op, err)
}
