package taskmgmt

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// Invite implements InvitationStore.Invite, which documents its errors.
func (s *MemoryStore) Invite(ctx context.Context, teamID, inviterID string, in NewInvitation) (Invitation, error) {
	const op = "invite"
	if err := s.o.validateInvite(op, teamID, inviterID, in); err != nil {
		return Invitation{}, err
	}
	now := s.o.read().now
	if err := s.begin(ctx, op); err != nil {
		return Invitation{}, err
	}
	defer s.mu.Unlock()
	tr, ok := s.get(teamKey(teamID))
	if !ok {
		return Invitation{}, wrap(op, errTeamNotFound(teamID))
	}
	inv, err := s.o.newInvitation(teamID, tr.team.Name, inviterID, in, now)
	if err != nil {
		return Invitation{}, wrap(op, err)
	}
	sc, writes := s.invitationScope(op, teamPK(teamID)), invitationWrites(inv)
	if replay, err := s.replayed(ctx, sc, writes); err != nil {
		return Invitation{}, wrap(op, err)
	} else if replay {
		return inv, nil
	}
	if !s.isAdmin(teamID, inviterID) {
		return Invitation{}, wrap(op, errNotAdmin(teamID, inviterID))
	}
	k := invitationKey(teamID, inv.ID)
	if _, ok := s.invites.Get(k.pk, k.sk); ok {
		return Invitation{}, wrap(op, errRepeatedID("invitation", inv.ID))
	}
	// Replace the earlier invitations of the address, expired or not, as
	// the DynamoDB store's walk finds them: through the email filter, in
	// budgeted pages.
	var earlier []Invitation
	q := s.o.budgeted(invitationsQuery(s.it, teamID))
	for cursor := ""; ; {
		olds, next, _ := s.invites.Query(q, ddbkit.MaxPageLimit, cursor, func(old *Invitation) bool { return old.Email == in.Email })
		for _, old := range olds {
			if len(earlier) < maxReplaced {
				earlier = append(earlier, *old)
			}
		}
		if next == "" {
			break
		}
		cursor = next
	}
	for _, old := range earlier {
		s.removeInvitation(old, now)
	}
	s.putInvitation(s.o.storedForm(inv), now)
	s.commit(ctx, sc, writes)
	return inv, nil
}

// isAdmin reports whether userID is an admin of the team.
func (s *MemoryStore) isAdmin(teamID, userID string) bool {
	r, ok := s.get(teamUserKey(teamID, userID))
	return ok && r.member.Role == RoleAdmin
}

// putInvitation stores inv and appends its INSERT to the stream.
func (s *MemoryStore) putInvitation(inv Invitation, now time.Time) {
	k := invitationKey(inv.TeamID, inv.ID)
	if _, ok := s.invites.Get(k.pk, k.sk); !ok {
		s.inviteParts[k.pk]++
	}
	s.invites.Put(k.pk, k.sk, keyAttrs(k), &inv)
	s.record(EventInsert, k, StreamImage(invitationItem(inv)), now)
}

// removeInvitation deletes inv and appends its REMOVE to the stream.
func (s *MemoryStore) removeInvitation(inv Invitation, now time.Time) {
	k := invitationKey(inv.TeamID, inv.ID)
	if s.invites.Delete(k.pk, k.sk, keyAttrs(k)) {
		if s.inviteParts[k.pk]--; s.inviteParts[k.pk] == 0 {
			delete(s.inviteParts, k.pk)
		}
	}
	s.record(EventRemove, k, nil, now)
}

// record appends one record to the invitation table's stream, as DynamoDB
// writes it for a stream of new images.
func (s *MemoryStore) record(event string, k itemKey, image StreamImage, now time.Time) {
	s.seq++
	s.stream = append(s.stream, StreamRecord{
		EventID:        fmt.Sprintf("memory-%d", s.seq),
		EventName:      event,
		EventVersion:   "1.1",
		EventSource:    "aws:dynamodb",
		AWSRegion:      "memory",
		EventSourceArn: "arn:aws:dynamodb:memory:000000000000:table/" + s.it.Name + "/stream/memory",
		Change: StreamChange{
			ApproximateCreationDateTime: float64(now.Unix()),
			Keys:                        StreamImage(keyAttrs(k)),
			NewImage:                    image,
			SequenceNumber:              fmt.Sprintf("%021d", s.seq),
			StreamViewType:              string(types.StreamViewTypeNewImage),
		},
	})
}

// TakeStream returns the invitation table's stream records since the last
// call, in order, as a DynamoDB stream of new images would deliver them:
// an INSERT with the new image for each invitation written, a REMOVE with
// the keys for each one deleted (accepted, revoked or replaced). Give the
// event to StreamHandler.Handle to run the mail flow in a unit test. The
// records wait in memory until taken; expired invitations stay, as TTL
// deletes late, and reads hide them.
func (s *MemoryStore) TakeStream() StreamEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	ev := StreamEvent{Records: s.stream}
	s.stream = nil
	return ev
}

// GetInvitation implements InvitationStore.GetInvitation, which documents its errors.
func (s *MemoryStore) GetInvitation(ctx context.Context, teamID, invitationID string) (Invitation, error) {
	const op = "get invitation"
	if err := validateIDs(op, "TeamID", teamID, "InvitationID", invitationID); err != nil {
		return Invitation{}, err
	}
	now := s.o.read().now
	if err := s.begin(ctx, op); err != nil {
		return Invitation{}, err
	}
	defer s.mu.Unlock()
	k := invitationKey(teamID, invitationID)
	inv, ok := s.invites.Get(k.pk, k.sk)
	if !ok || !inv.Live(now) {
		return Invitation{}, wrap(op, errInvitationNotFound(teamID, invitationID))
	}
	out := *inv
	out.Token = ""
	return out, nil
}

// ListInvitations implements InvitationStore.ListInvitations, which documents its errors.
func (s *MemoryStore) ListInvitations(ctx context.Context, teamID string, o ddbkit.PageOptions) (ddbkit.Page[Invitation], error) {
	const op = "list invitations"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Invitation]{}, err
	}
	now := s.o.read().now
	if err := checkCursor(op, invitationsQuery(s.it, teamID), o.Cursor); err != nil {
		return ddbkit.Page[Invitation]{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return ddbkit.Page[Invitation]{}, err
	}
	defer s.mu.Unlock()
	limit, _ := o.EffectiveLimit()
	invs, next, err := s.invites.Query(s.o.budgeted(invitationsQuery(s.it, teamID)), limit, o.Cursor, func(inv *Invitation) bool { return inv.Live(now) })
	if err != nil {
		return ddbkit.Page[Invitation]{}, wrap(op, err)
	}
	p := ddbkit.Page[Invitation]{Items: make([]Invitation, len(invs)), Next: next}
	for i, inv := range invs {
		p.Items[i] = *inv
		p.Items[i].Token = ""
	}
	return p, nil
}

// AcceptInvitation implements InvitationStore.AcceptInvitation, which documents its errors.
func (s *MemoryStore) AcceptInvitation(ctx context.Context, userID string, a Acceptance) (Member, error) {
	const op = "accept invitation"
	if err := validateAcceptance(op, userID, a); err != nil {
		return Member{}, err
	}
	now := s.o.read()
	if err := s.begin(ctx, op); err != nil {
		return Member{}, err
	}
	defer s.mu.Unlock()
	notFound := wrap(op, errInvitationNotFound(a.TeamID, a.InvitationID))
	k := invitationKey(a.TeamID, a.InvitationID)
	inv, ok := s.invites.Get(k.pk, k.sk)
	if !ok || !tokenMatches(inv.Token, a.Token) || !inv.Live(now.now) {
		return Member{}, notFound
	}
	ur, ok := s.get(userKey(userID))
	if !ok {
		return Member{}, wrap(op, errUserNotFound(userID))
	}
	tr, ok := s.get(teamKey(a.TeamID))
	if !ok {
		return Member{}, wrap(op, errTeamNotFound(a.TeamID))
	}
	// The team's name now, which is the invitation's unless the team was
	// renamed since, as the DynamoDB store's condition on it finds.
	m := Member{TeamID: a.TeamID, UserID: userID, UserName: ur.user.Name, Role: inv.Role, JoinedAt: now.today}
	sc, writes := s.invitationScope(op, userPK(userID)), fmt.Sprint(m, tr.team.Name, inv.ID)
	if replay, err := s.replayed(ctx, sc, writes); err != nil {
		return Member{}, wrap(op, err)
	} else if replay {
		return m, nil
	}
	if _, ok := s.get(userTeamKey(userID, a.TeamID)); ok {
		return Member{}, wrap(op, errIsMember(a.TeamID, userID))
	}
	if _, ok := s.get(teamUserKey(a.TeamID, userID)); ok {
		return Member{}, wrap(op, errIsMember(a.TeamID, userID))
	}
	s.removeInvitation(*inv, now.now)
	s.putMember(m, tr.team.Name)
	s.commit(ctx, sc, writes)
	return m, nil
}

// RevokeInvitation implements InvitationStore.RevokeInvitation, which documents its errors.
func (s *MemoryStore) RevokeInvitation(ctx context.Context, teamID, adminID, invitationID string) error {
	const op = "revoke invitation"
	if err := validateIDs(op, "TeamID", teamID, "AdminID", adminID, "InvitationID", invitationID); err != nil {
		return err
	}
	now := s.o.read().now
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	sc, writes := s.invitationScope(op, teamPK(teamID)), fmt.Sprint(teamID, adminID, invitationID)
	if replay, err := s.replayed(ctx, sc, writes); err != nil || replay {
		return wrap(op, err)
	}
	if !s.isAdmin(teamID, adminID) {
		return wrap(op, errNotAdmin(teamID, adminID))
	}
	k := invitationKey(teamID, invitationID)
	inv, ok := s.invites.Get(k.pk, k.sk)
	if !ok {
		return wrap(op, errInvitationNotFound(teamID, invitationID))
	}
	s.removeInvitation(*inv, now)
	s.commit(ctx, sc, writes)
	return nil
}
