package taskmgmt

import (
	"context"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Transaction item labels of the invitation writes.
const (
	labelInvitation = "invitation"
	labelEarlier    = "earlier invitation "
)

var (
	nEmail        = expression.Name(attrEmail)
	nToken        = expression.Name(attrToken)
	nInvExpiresAt = expression.Name(attrInvExpiresAt)
)

// maxReplaced bounds the earlier invitations of one address one Invite
// deletes: the transaction's other items leave room for that many. More
// can only come from other writers; the rest expire.
const maxReplaced = ddb.MaxTxItems - 3

// pAccept is the condition of an acceptance's delete: the invitation
// still holds the token read, Param(0), and expires after now, Param(1).
var pAccept = cond(exists.And(expression.Equal(nToken, ddb.Param(0)), expression.GreaterThan(nInvExpiresAt, ddb.Param(1))))

// isAdmin is the condition that a team_user item holds the admin role.
var isAdmin = expression.Equal(nRole, expression.Value(string(RoleAdmin)))

// invitationScope is the idempotency scope of a write of op on the
// invitation table in partition pk.
func (s *DynamoStore) invitationScope(op, pk string) ddb.Scope {
	return ddb.Scope{Table: s.it.Name, Op: op, Partition: pk}
}

// Invite implements InvitationStore.Invite, which documents its errors.
func (s *DynamoStore) Invite(ctx context.Context, teamID, inviterID string, in NewInvitation) (Invitation, error) {
	const op = "invite"
	if err := s.o.validateInvite(op, teamID, inviterID, in); err != nil {
		return Invitation{}, err
	}
	var inv Invitation
	token := ddb.Token(ctx, s.invitationScope(op, teamPK(teamID)))
	err := s.rmw(ctx, token, func(exec func(*ddb.Tx) error) error {
		team, err := s.teamOnce(ctx, teamID)
		if err != nil {
			return err
		}
		// The earlier invitations of the address, which this one replaces:
		// a walk whose pages are each bounded by the filter budget.
		filter := &ddb.Filter{Shape: "taskmgmt: invitation email", Args: []types.AttributeValue{ddb.S(in.Email)},
			Cond: func(first int) expression.ConditionBuilder { return expression.Equal(nEmail, ddb.Param(first)) }}
		var earlier []ddb.Item
		for it, err := range ddbkit.All(func(cursor string) (ddbkit.Page[ddb.Item], error) {
			items, next, err := s.queryOnce(ctx, invitationsQuery(s.it, teamID), ddbkit.MaxPageLimit, cursor, filter)
			return ddbkit.Page[ddb.Item]{Items: items, Next: next}, err
		}) {
			if err != nil {
				return err
			}
			if len(earlier) < maxReplaced {
				earlier = append(earlier, s.it.KeyOf(it))
			}
		}
		if inv.ID == "" { // the first build makes the invitation; rebuilds keep it
			if inv, err = s.o.newInvitation(teamID, team.Name, inviterID, in, s.o.read().now); err != nil {
				return err
			}
		}
		inv.TeamName = team.Name
		var tx ddb.Tx
		tx.CheckPrepared(labelAdmin, s.t, teamUserKey(teamID, inviterID).item(s.t), pIsAdmin)
		pt, targs := named(pTeamNamed, team.Name)
		tx.CheckPrepared(labelTeam, s.t, teamKey(teamID).item(s.t), pt, targs...)
		for i, k := range earlier {
			tx.Delete(labelEarlier+strconv.Itoa(i), s.it, k)
		}
		tx.PutPrepared(labelInvitation, s.it, invitationItem(s.o.storedForm(inv)), pNotExists)
		err = exec(&tx)
		if _, ok := ddb.ConditionFailed(err, labelAdmin); ok {
			return errNotAdmin(teamID, inviterID)
		}
		if old, ok := ddb.ConditionFailed(err, labelTeam); ok {
			if old == nil {
				return errTeamNotFound(teamID)
			}
			return errRaced("team " + strconv.Quote(teamID))
		}
		if _, ok := ddb.ConditionFailed(err, labelInvitation); ok {
			return errRepeatedID("invitation", inv.ID)
		}
		return err
	})
	if err != nil {
		return Invitation{}, wrap(op, err)
	}
	return inv, nil
}

// GetInvitation implements InvitationStore.GetInvitation, which documents its errors.
func (s *DynamoStore) GetInvitation(ctx context.Context, teamID, invitationID string) (Invitation, error) {
	const op = "get invitation"
	if err := validateIDs(op, "TeamID", teamID, "InvitationID", invitationID); err != nil {
		return Invitation{}, err
	}
	inv, err := s.invitation(ctx, teamID, invitationID)
	if err != nil {
		return Invitation{}, wrap(op, err)
	}
	if !inv.Live(s.o.read().now) {
		return Invitation{}, wrap(op, errInvitationNotFound(teamID, invitationID))
	}
	inv.Token = ""
	return inv, nil
}

// invitation reads an invitation, its token included, expired or not.
func (s *DynamoStore) invitation(ctx context.Context, teamID, invitationID string) (Invitation, error) {
	item, err := s.getFrom(ctx, s.it, invitationKey(teamID, invitationID))
	if err != nil {
		return Invitation{}, err
	}
	if item == nil {
		return Invitation{}, errInvitationNotFound(teamID, invitationID)
	}
	return decodeInvitation(s.it, item)
}

// liveFilter keeps the invitations whose expiresAt is after now: TTL
// deletes late.
func liveFilter(now int64) *ddb.Filter {
	return &ddb.Filter{Shape: "taskmgmt: invitation live", Args: []types.AttributeValue{n(now)},
		Cond: func(first int) expression.ConditionBuilder {
			return expression.GreaterThan(nInvExpiresAt, ddb.Param(first))
		}}
}

// ListInvitations implements InvitationStore.ListInvitations, which documents its errors.
func (s *DynamoStore) ListInvitations(ctx context.Context, teamID string, o ddbkit.PageOptions) (ddbkit.Page[Invitation], error) {
	const op = "list invitations"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Invitation]{}, err
	}
	limit, _ := o.EffectiveLimit()
	// Bounded by the filter budget: a page may be short, or empty, with a
	// Next cursor.
	items, next, err := s.query(ctx, invitationsQuery(s.it, teamID), limit, o.Cursor, liveFilter(s.o.read().now.Unix()))
	if err != nil {
		return ddbkit.Page[Invitation]{}, wrap(op, err)
	}
	p, err := page(s.it, items, next, decodePublicInvitation)
	return p, wrap(op, err)
}

// AcceptInvitation implements InvitationStore.AcceptInvitation, which documents its errors.
func (s *DynamoStore) AcceptInvitation(ctx context.Context, userID string, a Acceptance) (Member, error) {
	const op = "accept invitation"
	if err := validateAcceptance(op, userID, a); err != nil {
		return Member{}, err
	}
	notFound := errInvitationNotFound(a.TeamID, a.InvitationID)
	now := s.o.read()
	inv, err := s.invitation(ctx, a.TeamID, a.InvitationID)
	if err != nil {
		return Member{}, wrap(op, err)
	}
	if !tokenMatches(inv.Token, a.Token) || !inv.Live(now.now) {
		return Member{}, wrap(op, notFound)
	}
	u, _, err := s.user(ctx, userID)
	if err != nil {
		return Member{}, wrap(op, err)
	}
	teamName, userName := inv.TeamName, u.Name
	var m Member
	// The accepting user's partition scopes the key.
	token := ddb.Token(ctx, s.invitationScope(op, userPK(userID)))
	err = s.rmw(ctx, token, func(exec func(*ddb.Tx) error) error {
		m = Member{TeamID: a.TeamID, UserID: userID, UserName: userName, Role: inv.Role, JoinedAt: now.today}
		var tx ddb.Tx
		// The invitation goes, if it still holds the token and has not
		// expired now: the moment of acceptance decides, not TTL.
		tx.DeletePrepared(labelInvitation, s.it, invitationKey(a.TeamID, a.InvitationID).item(s.it), pAccept,
			ddb.S(inv.Token), n(now.now.Unix()))
		pt, targs := named(pTeamNamed, teamName)
		tx.CheckPrepared(labelTeam, s.t, teamKey(a.TeamID).item(s.t), pt, targs...)
		pu, uargs := named(pUserNamed, userName)
		tx.CheckPrepared(labelUser, s.t, userKey(userID).item(s.t), pu, uargs...)
		tx.PutPrepared(labelUserTeam, s.t, userTeamItem(Membership{UserID: userID, TeamID: a.TeamID, TeamName: teamName, Role: inv.Role, JoinedAt: now.today}), pNotExists)
		tx.PutPrepared(labelTeamUser, s.t, teamUserItem(m), pNotExists)
		err := exec(&tx)
		if _, ok := ddb.ConditionFailed(err, labelInvitation); ok {
			return notFound // accepted or revoked meanwhile
		}
		// The copies must match the team's and the user's names now: a
		// rename since the invitation or the read is taken from the item.
		if old, ok := ddb.ConditionFailed(err, labelTeam); ok {
			if old == nil {
				return errTeamNotFound(a.TeamID)
			}
			t, derr := decodeTeam(s.t, old)
			if derr != nil {
				return derr
			}
			teamName = t.Name
			return errRaced("team " + strconv.Quote(a.TeamID))
		}
		if old, ok := ddb.ConditionFailed(err, labelUser); ok {
			if old == nil {
				return errUserNotFound(userID)
			}
			u, derr := decodeUser(s.t, old)
			if derr != nil {
				return derr
			}
			userName = u.Name
			return errRaced("user " + strconv.Quote(userID))
		}
		if isCondFailed(err) {
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
func (s *DynamoStore) RevokeInvitation(ctx context.Context, teamID, adminID, invitationID string) error {
	const op = "revoke invitation"
	if err := validateIDs(op, "TeamID", teamID, "AdminID", adminID, "InvitationID", invitationID); err != nil {
		return err
	}
	var tx ddb.Tx
	tx.CheckPrepared(labelAdmin, s.t, teamUserKey(teamID, adminID).item(s.t), pIsAdmin)
	tx.DeletePrepared(labelInvitation, s.it, invitationKey(teamID, invitationID).item(s.it), pExists)
	err := ddb.ExecTx(ctx, s.c, s.o.backoff(), s.invitationScope(op, teamPK(teamID)), &tx)
	// The admin check first: a non-admin learns nothing of the invitation.
	if _, ok := ddb.ConditionFailed(err, labelAdmin); ok {
		return wrap(op, errNotAdmin(teamID, adminID))
	}
	if _, ok := ddb.ConditionFailed(err, labelInvitation); ok {
		return wrap(op, errInvitationNotFound(teamID, invitationID))
	}
	return wrap(op, err)
}
