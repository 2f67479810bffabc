package taskmgmt

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

// MemoryStore is an in-memory Store for tests. It keeps items under the same
// key strings the DynamoDB store writes, keeps an ordered copy of each GSI,
// and pages with the same cursors, so it returns the same results, errors,
// order and page boundaries; the shared conformance suite (package
// taskmgmttest) holds both to that. It is safe for concurrent use: one lock
// makes every operation atomic, which also makes its fan-outs (renames,
// DeleteTag, DeleteTeam) atomic where the DynamoDB store's are not.
type MemoryStore struct {
	o Options
	t ddb.Table

	mu      sync.Mutex
	items   *memtable.Table[*record]            // the base table
	indexes map[string]*memtable.Table[*record] // the GSIs, by name
	tokens  memtable.Tokens
	parts   map[string]int // the items per partition key, for Export

	it      ddb.Table                    // the invitation table
	invites *memtable.Table[*Invitation] // its items, tokens included
	stream  []StreamRecord               // its stream, not yet taken
	seq     int64                        // the last sequence number

	inviteParts map[string]int // the invitations per partition key
}

var _ Store = (*MemoryStore)(nil)

// record is one stored item: exactly one of its values is set. attrs holds
// its table and index key attributes, as the DynamoDB store writes them.
type record struct {
	attrs      ddb.Item
	user       *User
	team       *Team
	member     *Member
	membership *Membership
	tag        *Tag
	task       *Task
	counter    *DailyCount // Date "" for COUNTER#ALL
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	s := &MemoryStore{o: o, t: o.table(), items: memtable.New[*record](), indexes: map[string]*memtable.Table[*record]{},
		it: o.invitationTable(), invites: memtable.New[*Invitation](), parts: map[string]int{}, inviteParts: map[string]int{}}
	for _, ix := range Indexes {
		s.indexes[ix.Name] = memtable.New[*record]()
	}
	return s
}

func str(v types.AttributeValue) string {
	if s, ok := v.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

func keyAttrs(k itemKey) ddb.Item { return ddb.Item{AttrPK: ddb.S(k.pk), AttrSK: ddb.S(k.sk)} }

// put stores r, replacing the item with its key, in the table and in every
// GSI whose key attributes it has.
func (s *MemoryStore) put(r *record) {
	pk, sk := str(r.attrs[AttrPK]), str(r.attrs[AttrSK])
	s.remove(itemKey{pk, sk})
	s.items.Put(pk, sk, s.t.KeyOf(r.attrs), r)
	s.parts[pk]++
	for _, ix := range Indexes {
		if ipk, isk := str(r.attrs[ix.PartitionKey]), str(r.attrs[ix.SortKey]); ipk != "" && isk != "" {
			q := ddb.KeyQuery{Table: s.t, Index: ix}
			s.indexes[ix.Name].Put(ipk, isk, q.CursorKey(r.attrs), r)
		}
	}
}

// remove deletes the item at k, and its GSI entries.
func (s *MemoryStore) remove(k itemKey) bool {
	old, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		return false
	}
	s.items.Delete(k.pk, k.sk, s.t.KeyOf(old.attrs))
	if s.parts[k.pk]--; s.parts[k.pk] == 0 {
		delete(s.parts, k.pk)
	}
	for _, ix := range Indexes {
		if ipk, isk := str(old.attrs[ix.PartitionKey]), str(old.attrs[ix.SortKey]); ipk != "" && isk != "" {
			q := ddb.KeyQuery{Table: s.t, Index: ix}
			s.indexes[ix.Name].Delete(ipk, isk, q.CursorKey(old.attrs))
		}
	}
	return true
}

func (s *MemoryStore) get(k itemKey) (*record, bool) { return s.items.Get(k.pk, k.sk) }

func (s *MemoryStore) putTask(t Task) {
	attrs := keyAttrs(taskKey(t.TeamID, t.ID))
	g := groups(t.TeamID, t.Status)
	attrs[AttrStatusGroup1], attrs[AttrStatusGroup2], attrs[AttrStatusGroup3] = ddb.S(g[0]), ddb.S(g[1]), ddb.S(g[2])
	attrs[AttrStartSortSK], attrs[AttrEndSortSK] = ddb.S(startSK(t.Start)), ddb.S(endSK(t.End))
	t.TagIDs = slices.Clone(t.TagIDs)
	s.put(&record{attrs: attrs, task: &t})
}

// count adds d to the team's counters, as the DynamoDB store's ADD does.
func (s *MemoryStore) count(teamID string, d delta, today Date) {
	add := func(day Date, c Counts, exp int64) {
		if c == (Counts{}) {
			return
		}
		k := counterKey(teamID, day)
		cur := DailyCount{Date: day}
		if r, ok := s.get(k); ok {
			cur = *r.counter
		}
		cur.Todo, cur.Doing, cur.Done = cur.Todo+c.Todo, cur.Doing+c.Doing, cur.Done+c.Done
		if exp != 0 {
			cur.ExpiresAt = epoch(exp)
		}
		s.put(&record{attrs: keyAttrs(k), counter: &cur})
	}
	add("", d.all, 0)
	add(today, d.day, s.o.expiresAt(today))
}

// begin checks ctx, as the DynamoDB store's first call would, and takes
// the lock. Callers validate their input first.
func (s *MemoryStore) begin(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return wrap(op, err)
	}
	s.mu.Lock()
	return nil
}

// scope is the idempotency scope of a write of op on the task table in
// partition pk: the DynamoDB store's (see DynamoStore.scope), so that both
// make the same token of a caller's key.
func (s *MemoryStore) scope(op, pk string) ddb.Scope {
	return ddb.Scope{Table: s.t.Name, Op: op, Partition: pk}
}

// invitationScope is scope on the invitation table.
func (s *MemoryStore) invitationScope(op, pk string) ddb.Scope {
	return ddb.Scope{Table: s.it.Name, Op: op, Partition: pk}
}

// replayed emulates the ClientRequestToken of the DynamoDB store's
// transaction in scope sc: with a caller's idempotency key, the same
// writes within the token window replay (true: skip them and succeed),
// and other writes fail with ErrConflict. Without a key, nothing replays:
// an existing item is another caller's, whatever it holds. commit records
// the writes after they are made. Both run under the lock.
func (s *MemoryStore) replayed(ctx context.Context, sc ddb.Scope, writes string) (bool, error) {
	tok, ok := ddbkit.RequestToken(ctx, sc.Table, sc.Op, sc.Partition)
	if !ok {
		return false, nil
	}
	return s.tokens.Check(tok, writes, s.o.Clock())
}

func (s *MemoryStore) commit(ctx context.Context, sc ddb.Scope, writes string) {
	if tok, ok := ddbkit.RequestToken(ctx, sc.Table, sc.Op, sc.Partition); ok {
		s.tokens.Commit(tok, writes, s.o.Clock())
	}
}

// CreateUser implements UserStore.CreateUser, which documents its errors.
func (s *MemoryStore) CreateUser(ctx context.Context, in NewUser) (User, error) {
	const op = "create user"
	if err := validateNewUser(op, in); err != nil {
		return User{}, err
	}
	u := User{ID: in.ID, Email: in.Email, Name: in.Name, Image: in.Image, CreatedAt: s.o.read().today}
	if err := checkSize(op, userItem(u), "Image"); err != nil {
		return User{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return User{}, err
	}
	defer s.mu.Unlock()
	// As the DynamoDB store's PutNew: only the same scoped token replaying
	// the same write succeeds on an existing user, never equal contents.
	sc, writes := s.scope(op, userPK(u.ID)), fmt.Sprint(u)
	if replay, err := s.replayed(ctx, sc, writes); err != nil {
		return User{}, wrap(op, err)
	} else if replay {
		return u, nil
	}
	k := userKey(u.ID)
	if _, ok := s.get(k); ok {
		return User{}, wrap(op, errUserExists(u.ID))
	}
	s.put(&record{attrs: keyAttrs(k), user: &u})
	s.commit(ctx, sc, writes)
	return u, nil
}

// GetUser implements UserStore.GetUser, which documents its errors.
func (s *MemoryStore) GetUser(ctx context.Context, userID string) (User, error) {
	const op = "get user"
	if err := validateIDs(op, "UserID", userID); err != nil {
		return User{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return User{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.get(userKey(userID))
	if !ok {
		return User{}, wrap(op, errUserNotFound(userID))
	}
	return *r.user, nil
}

// RenameUser implements UserStore.RenameUser, which documents its errors.
func (s *MemoryStore) RenameUser(ctx context.Context, userID, name string) (User, error) {
	const op = "rename user"
	var v validator
	v.ID("UserID", userID, MaxIDLen)
	v.Line("Name", name, true, MaxNameLen)
	if err := wrap(op, v.Err); err != nil {
		return User{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return User{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.get(userKey(userID))
	if !ok {
		return User{}, wrap(op, errUserNotFound(userID))
	}
	u := *r.user
	u.Name = name
	s.put(&record{attrs: r.attrs, user: &u})
	for _, r := range s.invert(userPK(userID), segTeam) {
		m := *r.member
		m.UserName = name
		s.put(&record{attrs: r.attrs, member: &m})
	}
	return u, nil
}

// invert lists the items of GSI_Invert partition sk whose PK starts with
// seg, as the DynamoDB store's fan-outs find them.
func (s *MemoryStore) invert(sk, seg string) []*record {
	var out []*record
	q := invertQuery(s.t, sk, seg)
	cursor := ""
	for {
		rs, next, _ := s.indexes[IndexInvert.Name].Query(q, ddbkit.MaxPageLimit, cursor, nil)
		out = append(out, rs...)
		if next == "" {
			return out
		}
		cursor = next
	}
}

// CreateTeam implements TeamStore.CreateTeam, which documents its errors.
func (s *MemoryStore) CreateTeam(ctx context.Context, creatorID string, in NewTeam) (Team, error) {
	const op = "create team"
	if err := validateNewTeam(op, creatorID, in); err != nil {
		return Team{}, err
	}
	team := Team{ID: s.o.NewID(), Name: in.Name, Description: in.Description}
	if err := checkSize(op, teamItem(team), "Description"); err != nil {
		return Team{}, err
	}
	today := s.o.read().today
	if err := s.begin(ctx, op); err != nil {
		return Team{}, err
	}
	defer s.mu.Unlock()
	ur, ok := s.get(userKey(creatorID))
	if !ok {
		return Team{}, wrap(op, errUserNotFound(creatorID))
	}
	sc, writes := s.scope(op, userPK(creatorID)), fmt.Sprint(team, creatorID, ur.user.Name, today)
	if replay, err := s.replayed(ctx, sc, writes); err != nil {
		return Team{}, wrap(op, err)
	} else if replay {
		return team, nil
	}
	if _, ok := s.get(teamKey(team.ID)); ok {
		return Team{}, wrap(op, errRepeatedID("team", team.ID))
	}
	if _, ok := s.get(userTeamKey(creatorID, team.ID)); ok {
		return Team{}, wrap(op, errRepeatedID("team", team.ID))
	}
	s.put(&record{attrs: keyAttrs(teamKey(team.ID)), team: &team})
	s.putMember(Member{TeamID: team.ID, UserID: creatorID, UserName: ur.user.Name, Role: RoleAdmin, JoinedAt: today}, team.Name)
	s.commit(ctx, sc, writes)
	return team, nil
}

// putMember writes both items of a membership.
func (s *MemoryStore) putMember(m Member, teamName string) {
	s.put(&record{attrs: keyAttrs(teamUserKey(m.TeamID, m.UserID)), member: &m})
	ms := Membership{UserID: m.UserID, TeamID: m.TeamID, TeamName: teamName, Role: m.Role, JoinedAt: m.JoinedAt}
	s.put(&record{attrs: keyAttrs(userTeamKey(m.UserID, m.TeamID)), membership: &ms})
}

// GetTeam implements TeamStore.GetTeam, which documents its errors.
func (s *MemoryStore) GetTeam(ctx context.Context, teamID string) (Team, error) {
	const op = "get team"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return Team{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return Team{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.get(teamKey(teamID))
	if !ok {
		return Team{}, wrap(op, errTeamNotFound(teamID))
	}
	return *r.team, nil
}

// UpdateTeam implements TeamStore.UpdateTeam, which documents its errors.
func (s *MemoryStore) UpdateTeam(ctx context.Context, teamID string, p TeamPatch) (Team, error) {
	const op = "update team"
	if err := validateTeamPatch(op, teamID, p); err != nil {
		return Team{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return Team{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.get(teamKey(teamID))
	if !ok {
		return Team{}, wrap(op, errTeamNotFound(teamID))
	}
	t := *r.team
	if p.Name != nil {
		t.Name = *p.Name
	}
	if p.Description != nil {
		t.Description = *p.Description
	}
	s.put(&record{attrs: r.attrs, team: &t})
	if p.Name != nil {
		for _, r := range s.invert(teamPK(teamID), segUser) {
			m := *r.membership
			m.TeamName = t.Name
			s.put(&record{attrs: r.attrs, membership: &m})
		}
	}
	return t, nil
}

// DeleteTeam implements TeamStore.DeleteTeam, which documents its errors.
func (s *MemoryStore) DeleteTeam(ctx context.Context, teamID string) error {
	const op = "delete team"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return err
	}
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	rs := s.items.Partition(teamPK(teamID))
	if len(rs) == 0 {
		return wrap(op, errTeamNotFound(teamID))
	}
	for _, r := range rs {
		if r.member != nil {
			s.remove(userTeamKey(r.member.UserID, teamID))
		}
		s.remove(itemKey{str(r.attrs[AttrPK]), str(r.attrs[AttrSK])})
	}
	return nil
}

// checkCursor reports a cursor q did not issue, as the DynamoDB store
// does before its query: invalid input comes before a context's end.
func checkCursor(op string, q ddb.KeyQuery, cursor string) error {
	_, err := ddb.DecodeCursor(q, cursor)
	return wrap(op, err)
}

// memPage runs q on tab and converts each record.
func memPage[T any](tab *memtable.Table[*record], q ddb.KeyQuery, o ddbkit.PageOptions, keep func(*record) bool, conv func(*record) T) (ddbkit.Page[T], error) {
	limit, err := o.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	rs, next, err := tab.Query(q, limit, o.Cursor, keep)
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	p := ddbkit.Page[T]{Items: make([]T, 0, len(rs)), Next: next}
	for _, r := range rs {
		p.Items = append(p.Items, conv(r))
	}
	return p, nil
}

// ListMembers implements TeamStore.ListMembers, which documents its errors.
func (s *MemoryStore) ListMembers(ctx context.Context, teamID string, o ddbkit.PageOptions) (ddbkit.Page[Member], error) {
	const op = "list members"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Member]{}, err
	}
	if err := checkCursor(op, membersQuery(s.t, teamID), o.Cursor); err != nil {
		return ddbkit.Page[Member]{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return ddbkit.Page[Member]{}, err
	}
	defer s.mu.Unlock()
	p, err := memPage(s.items, membersQuery(s.t, teamID), o, nil, func(r *record) Member { return *r.member })
	return p, wrap(op, err)
}

// ListUserTeams implements TeamStore.ListUserTeams, which documents its errors.
func (s *MemoryStore) ListUserTeams(ctx context.Context, userID string, o ddbkit.PageOptions) (ddbkit.Page[Membership], error) {
	const op = "list user teams"
	if err := validateList(op, "UserID", userID, o); err != nil {
		return ddbkit.Page[Membership]{}, err
	}
	if err := checkCursor(op, userTeamsQuery(s.t, userID), o.Cursor); err != nil {
		return ddbkit.Page[Membership]{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return ddbkit.Page[Membership]{}, err
	}
	defer s.mu.Unlock()
	p, err := memPage(s.items, userTeamsQuery(s.t, userID), o, nil, func(r *record) Membership { return *r.membership })
	return p, wrap(op, err)
}

// AddMember implements TeamStore.AddMember, which documents its errors.
func (s *MemoryStore) AddMember(ctx context.Context, teamID, userID string, role Role) (Member, error) {
	const op = "add member"
	if err := validateMember(op, teamID, userID, role); err != nil {
		return Member{}, err
	}
	today := s.o.read().today
	if err := s.begin(ctx, op); err != nil {
		return Member{}, err
	}
	defer s.mu.Unlock()
	tr, ok := s.get(teamKey(teamID))
	if !ok {
		return Member{}, wrap(op, errTeamNotFound(teamID))
	}
	ur, ok := s.get(userKey(userID))
	if !ok {
		return Member{}, wrap(op, errUserNotFound(userID))
	}
	m := Member{TeamID: teamID, UserID: userID, UserName: ur.user.Name, Role: role, JoinedAt: today}
	sc, writes := s.scope(op, teamPK(teamID)), fmt.Sprint(m, tr.team.Name)
	if replay, err := s.replayed(ctx, sc, writes); err != nil {
		return Member{}, wrap(op, err)
	} else if replay {
		return m, nil
	}
	if _, ok := s.get(userTeamKey(userID, teamID)); ok {
		return Member{}, wrap(op, errIsMember(teamID, userID))
	}
	if _, ok := s.get(teamUserKey(teamID, userID)); ok {
		return Member{}, wrap(op, errIsMember(teamID, userID))
	}
	s.putMember(m, tr.team.Name)
	s.commit(ctx, sc, writes)
	return m, nil
}

// otherAdmin returns an admin of the team other than userID, or "".
// It walks the members through the admin filter, budgeted pages, as the
// DynamoDB store does.
func (s *MemoryStore) otherAdmin(teamID, userID string) string {
	q := s.o.budgeted(membersQuery(s.t, teamID))
	for cursor := ""; ; {
		rs, next, _ := s.items.Query(q, ddbkit.MaxPageLimit, cursor, func(r *record) bool { return r.member.Role == RoleAdmin })
		for _, r := range rs {
			if r.member.UserID != userID {
				return r.member.UserID
			}
		}
		if next == "" {
			return ""
		}
		cursor = next
	}
}

// SetRole implements TeamStore.SetRole, which documents its errors.
func (s *MemoryStore) SetRole(ctx context.Context, teamID, userID string, role Role) (Member, error) {
	const op = "set role"
	if err := validateMember(op, teamID, userID, role); err != nil {
		return Member{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return Member{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.get(teamUserKey(teamID, userID))
	if !ok {
		return Member{}, wrap(op, errNotMember(teamID, userID))
	}
	m := *r.member
	if m.Role == role {
		return m, nil
	}
	if m.Role == RoleAdmin && s.otherAdmin(teamID, userID) == "" {
		return Member{}, wrap(op, errLastAdmin(teamID, userID))
	}
	sc, writes := s.scope(op, teamPK(teamID)), fmt.Sprint(m, role)
	if replay, err := s.replayed(ctx, sc, writes); err != nil {
		return Member{}, wrap(op, err)
	} else if replay {
		m.Role = role
		return m, nil
	}
	m.Role = role
	s.put(&record{attrs: r.attrs, member: &m})
	if ur, ok := s.get(userTeamKey(userID, teamID)); ok {
		ms := *ur.membership
		ms.Role = role
		s.put(&record{attrs: ur.attrs, membership: &ms})
	}
	s.commit(ctx, sc, writes)
	return m, nil
}

// RemoveMember implements TeamStore.RemoveMember, which documents its errors.
func (s *MemoryStore) RemoveMember(ctx context.Context, teamID, userID string) error {
	const op = "remove member"
	if err := validateIDs(op, "TeamID", teamID, "UserID", userID); err != nil {
		return err
	}
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	r, ok := s.get(teamUserKey(teamID, userID))
	if !ok {
		return wrap(op, errNotMember(teamID, userID))
	}
	if r.member.Role == RoleAdmin && s.otherAdmin(teamID, userID) == "" {
		return wrap(op, errLastAdmin(teamID, userID))
	}
	sc, writes := s.scope(op, teamPK(teamID)), fmt.Sprint(*r.member)
	if replay, err := s.replayed(ctx, sc, writes); err != nil || replay {
		return wrap(op, err)
	}
	s.remove(teamUserKey(teamID, userID))
	s.remove(userTeamKey(userID, teamID))
	s.commit(ctx, sc, writes)
	return nil
}

// CreateTag implements TagStore.CreateTag, which documents its errors.
func (s *MemoryStore) CreateTag(ctx context.Context, teamID string, in NewTag) (Tag, error) {
	const op = "create tag"
	if err := validateNewTag(op, teamID, in); err != nil {
		return Tag{}, err
	}
	tag := Tag{ID: s.o.NewID(), TeamID: teamID, Name: in.Name, Color: in.Color}
	if err := checkSize(op, tagItem(tag), "Name"); err != nil {
		return Tag{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return Tag{}, err
	}
	defer s.mu.Unlock()
	sc, writes := s.scope(op, teamPK(teamID)), fmt.Sprint(tag)
	if replay, err := s.replayed(ctx, sc, writes); err != nil {
		return Tag{}, wrap(op, err)
	} else if replay {
		return tag, nil
	}
	if _, ok := s.get(teamKey(teamID)); !ok {
		return Tag{}, wrap(op, errTeamNotFound(teamID))
	}
	k := tagKey(teamID, tag.ID)
	if _, ok := s.get(k); ok {
		return Tag{}, wrap(op, errRepeatedID("tag", tag.ID))
	}
	s.put(&record{attrs: keyAttrs(k), tag: &tag})
	s.commit(ctx, sc, writes)
	return tag, nil
}

// ListTags implements TagStore.ListTags, which documents its errors.
func (s *MemoryStore) ListTags(ctx context.Context, teamID string, o ddbkit.PageOptions) (ddbkit.Page[Tag], error) {
	const op = "list tags"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Tag]{}, err
	}
	if err := checkCursor(op, tagsQuery(s.t, teamID), o.Cursor); err != nil {
		return ddbkit.Page[Tag]{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return ddbkit.Page[Tag]{}, err
	}
	defer s.mu.Unlock()
	p, err := memPage(s.items, tagsQuery(s.t, teamID), o, nil, func(r *record) Tag { return *r.tag })
	return p, wrap(op, err)
}

// DeleteTag implements TagStore.DeleteTag, which documents its errors.
func (s *MemoryStore) DeleteTag(ctx context.Context, teamID, tagID string) error {
	const op = "delete tag"
	if err := validateIDs(op, "TeamID", teamID, "TagID", tagID); err != nil {
		return err
	}
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.remove(tagKey(teamID, tagID))
	// The DynamoDB store's walk: the tasks through the tag filter, in
	// budgeted pages.
	q := s.o.budgeted(tasksQuery(s.t, teamID))
	var tagged []*record
	for cursor := ""; ; {
		rs, next, _ := s.items.Query(q, ddbkit.MaxPageLimit, cursor, func(r *record) bool { return slices.Contains(r.task.TagIDs, tagID) })
		tagged = append(tagged, rs...)
		if next == "" {
			break
		}
		cursor = next
	}
	for _, r := range tagged {
		t := *r.task
		t.TagIDs = slices.DeleteFunc(slices.Clone(t.TagIDs), func(id string) bool { return id == tagID })
		if len(t.TagIDs) == 0 {
			t.TagIDs = nil
		}
		s.putTask(t)
	}
	return nil
}

// missingTag returns the error for the first of the tags at idx that does
// not exist, as the DynamoDB store's checks report it.
func (s *MemoryStore) missingTag(teamID string, ids []string, idx []int) error {
	for _, i := range idx {
		if _, ok := s.get(tagKey(teamID, ids[i])); !ok {
			return errUnknownTag(tagField(i), ids[i])
		}
	}
	return nil
}

// CreateTask implements TaskStore.CreateTask, which documents its errors.
func (s *MemoryStore) CreateTask(ctx context.Context, teamID string, in NewTask) (Task, error) {
	const op = "create task"
	if err := validateNewTask(op, teamID, in); err != nil {
		return Task{}, err
	}
	task := s.o.newTask(teamID, in)
	if err := checkSize(op, taskItem(task), "Description"); err != nil {
		return Task{}, err
	}
	today := s.o.read().today
	if err := s.begin(ctx, op); err != nil {
		return Task{}, err
	}
	defer s.mu.Unlock()
	sc, writes := s.scope(op, teamPK(teamID)), fmt.Sprint(task, in.TagIDs, today)
	if replay, err := s.replayed(ctx, sc, writes); err != nil {
		return Task{}, wrap(op, err)
	} else if replay {
		return task, nil
	}
	if _, ok := s.get(teamKey(teamID)); !ok {
		return Task{}, wrap(op, errTeamNotFound(teamID))
	}
	all := make([]int, len(in.TagIDs))
	for i := range all {
		all[i] = i
	}
	if err := s.missingTag(teamID, in.TagIDs, all); err != nil {
		return Task{}, wrap(op, err)
	}
	if _, ok := s.get(taskKey(teamID, task.ID)); ok {
		return Task{}, wrap(op, errRepeatedID("task", task.ID))
	}
	s.putTask(task)
	s.count(teamID, createDelta(task.Status), today)
	s.commit(ctx, sc, writes)
	task.TagIDs = slices.Clone(task.TagIDs)
	return task, nil
}

// GetTask implements TaskStore.GetTask, which documents its errors.
func (s *MemoryStore) GetTask(ctx context.Context, teamID, taskID string) (Task, error) {
	const op = "get task"
	if err := validateIDs(op, "TeamID", teamID, "TaskID", taskID); err != nil {
		return Task{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return Task{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.get(taskKey(teamID, taskID))
	if !ok {
		return Task{}, wrap(op, errTaskNotFound(teamID, taskID))
	}
	return taskOf(r), nil
}

func taskOf(r *record) Task {
	t := *r.task
	t.TagIDs = slices.Clone(t.TagIDs)
	return t
}

// UpdateTask implements TaskStore.UpdateTask, which documents its errors.
func (s *MemoryStore) UpdateTask(ctx context.Context, teamID, taskID string, p TaskPatch) (Task, error) {
	const op = "update task"
	if err := validateTaskPatch(op, teamID, taskID, p); err != nil {
		return Task{}, err
	}
	today := s.o.read().today
	if err := s.begin(ctx, op); err != nil {
		return Task{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.get(taskKey(teamID, taskID))
	if !ok {
		return Task{}, wrap(op, errTaskNotFound(teamID, taskID))
	}
	old := taskOf(r)
	t := old.patched(p)
	if err := checkPatched(t); err != nil {
		return Task{}, wrap(op, err)
	}
	if err := checkSize(op, taskItem(t), "Description"); err != nil {
		return Task{}, err
	}
	if t.equal(old) {
		return t, nil
	}
	sc, writes := s.scope(op, teamPK(teamID)), fmt.Sprint(old, t, today)
	if replay, err := s.replayed(ctx, sc, writes); err != nil {
		return Task{}, wrap(op, err)
	} else if replay {
		return t, nil
	}
	if p.TagIDs != nil {
		if err := s.missingTag(teamID, *p.TagIDs, addedTags(old.TagIDs, t.TagIDs, *p.TagIDs)); err != nil {
			return Task{}, wrap(op, err)
		}
	}
	s.putTask(t)
	s.count(teamID, moveDelta(old.Status, t.Status), today)
	s.commit(ctx, sc, writes)
	return t, nil
}

// DeleteTask implements TaskStore.DeleteTask, which documents its errors.
func (s *MemoryStore) DeleteTask(ctx context.Context, teamID, taskID string) error {
	const op = "delete task"
	if err := validateIDs(op, "TeamID", teamID, "TaskID", taskID); err != nil {
		return err
	}
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	defer s.mu.Unlock()
	k := taskKey(teamID, taskID)
	r, ok := s.get(k)
	if !ok {
		return wrap(op, errTaskNotFound(teamID, taskID))
	}
	sc, writes := s.scope(op, teamPK(teamID)), fmt.Sprint(*r.task)
	if replay, err := s.replayed(ctx, sc, writes); err != nil || replay {
		return wrap(op, err)
	}
	s.remove(k)
	s.count(teamID, deleteDelta(r.task.Status), "")
	s.commit(ctx, sc, writes)
	return nil
}

// keepTags is the board's tag filter, as tagFilter runs it on DynamoDB.
func keepTags(q BoardQuery) func(*record) bool {
	tags := sortedTags(q.TagIDs)
	if len(tags) == 0 {
		return nil
	}
	return func(r *record) bool {
		for _, id := range tags {
			has := slices.Contains(r.task.TagIDs, id)
			if q.Match == MatchAll && !has {
				return false
			}
			if q.Match != MatchAll && has {
				return true
			}
		}
		return q.Match == MatchAll
	}
}

// ListBoard implements TaskStore.ListBoard, which documents its errors.
func (s *MemoryStore) ListBoard(ctx context.Context, teamID string, q BoardQuery) (ddbkit.Page[Task], error) {
	const op = "list board"
	if err := validateBoard(op, teamID, q); err != nil {
		return ddbkit.Page[Task]{}, err
	}
	kq := boardQuery(s.t, teamID, q, s.o.read().today)
	if err := checkCursor(op, kq, q.Cursor); err != nil {
		return ddbkit.Page[Task]{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return ddbkit.Page[Task]{}, err
	}
	defer s.mu.Unlock()
	p, err := memPage(s.indexes[kq.Index.Name], s.o.budgeted(kq), q.PageOptions, keepTags(q), taskOf)
	return p, wrap(op, err)
}

// GetCounts implements CounterStore.GetCounts, which documents its errors.
func (s *MemoryStore) GetCounts(ctx context.Context, teamID string) (Counts, error) {
	const op = "get counts"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return Counts{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return Counts{}, err
	}
	defer s.mu.Unlock()
	if r, ok := s.get(counterKey(teamID, "")); ok {
		return r.counter.Counts, nil
	}
	return Counts{}, nil
}

// ListDailyCounts implements CounterStore.ListDailyCounts, which documents its errors.
func (s *MemoryStore) ListDailyCounts(ctx context.Context, teamID string, q DailyQuery) (ddbkit.Page[DailyCount], error) {
	const op = "list daily counts"
	if err := validateDaily(op, teamID, q); err != nil {
		return ddbkit.Page[DailyCount]{}, err
	}
	now := s.o.read().now.Unix()
	if err := checkCursor(op, dailyQuery(s.t, teamID, q), q.Cursor); err != nil {
		return ddbkit.Page[DailyCount]{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return ddbkit.Page[DailyCount]{}, err
	}
	defer s.mu.Unlock()
	live := func(r *record) bool { return r.counter.ExpiresAt.IsZero() || r.counter.ExpiresAt.Unix() > now }
	p, err := memPage(s.items, s.o.budgeted(dailyQuery(s.t, teamID, q)), q.PageOptions, live, func(r *record) DailyCount { return *r.counter })
	return p, wrap(op, err)
}

// RecalculateCounters implements CounterStore.RecalculateCounters, which documents its errors.
func (s *MemoryStore) RecalculateCounters(ctx context.Context, teamID string) (CounterReport, error) {
	const op = "recalculate counters"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return CounterReport{}, err
	}
	if err := s.begin(ctx, op); err != nil {
		return CounterReport{}, err
	}
	defer s.mu.Unlock()
	var rep CounterReport
	k := counterKey(teamID, "")
	r, ok := s.get(k)
	cur := DailyCount{}
	if ok {
		rep.Was = r.counter.Counts
		cur = *r.counter // the DynamoDB store's update keeps its other attributes
	}
	for _, r := range s.items.Partition(teamPK(teamID)) {
		if r.task != nil {
			rep.Counts = rep.Counts.add(r.task.Status, 1)
		}
	}
	rep.Drift = rep.Counts != rep.Was
	if rep.Drift || !ok {
		cur.Counts = rep.Counts
		s.put(&record{attrs: keyAttrs(k), counter: &cur})
	}
	return rep, nil
}
