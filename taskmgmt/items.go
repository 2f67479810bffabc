package taskmgmt

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// The item layouts, attribute for attribute as the seed gives them. The
// DynamoDB store writes exactly these; it reads anything they allow.

// The seed's values of the type attribute.
const (
	typeUser     = "user"
	typeUserTeam = "user_team"
	typeTeam     = "team"
	typeTeamUser = "team_user"
	typeTag      = "team_tag"
	typeTask     = "task"
	typeCounter  = "counter"
)

// The seed's attribute names, its spellings included.
const (
	attrType          = "type"
	attrUserEmail     = "user_email"
	attrUserName      = "user_name"
	attrUserImage     = "user_image"
	attrUserCreatedAt = "user_createdAt"
	attrTeamName      = "team_name"
	attrTeamDesc      = "team_discription"
	attrRole          = "user_team_role"
	attrJoinedAt      = "user_team_joinedAt"
	attrTagName       = "team_tag_name"
	attrTagColor      = "team_tag_color"
	attrTitle         = "team_task_title"
	attrTaskDesc      = "team_task_discription"
	attrStatus        = "team_task_status"
	attrStartTime     = "team_task_startTime"
	attrEndTime       = "team_task_endTime"
	attrTagRef        = "team_task_tagRef"
)

// stored is every attribute any item of the table has; a read decodes
// into it and keeps what its kind needs. Missing attributes read as zero.
type stored struct {
	PK            string `dynamodbav:"PK"`
	SK            string `dynamodbav:"SK"`
	Type          string `dynamodbav:"type"`
	UserEmail     string `dynamodbav:"user_email"`
	UserName      string `dynamodbav:"user_name"`
	UserImage     string `dynamodbav:"user_image"`
	UserCreatedAt string `dynamodbav:"user_createdAt"`
	TeamName      string `dynamodbav:"team_name"`
	TeamDesc      string `dynamodbav:"team_discription"`
	Role          string `dynamodbav:"user_team_role"`
	JoinedAt      string `dynamodbav:"user_team_joinedAt"`
	TagName       string `dynamodbav:"team_tag_name"`
	TagColor      struct {
		Color           string `dynamodbav:"color"`
		BackgroundColor string `dynamodbav:"backgroundColor"`
	} `dynamodbav:"team_tag_color"`
	Title     string   `dynamodbav:"team_task_title"`
	TaskDesc  string   `dynamodbav:"team_task_discription"`
	Status    string   `dynamodbav:"team_task_status"`
	StartTime string   `dynamodbav:"team_task_startTime"`
	EndTime   string   `dynamodbav:"team_task_endTime"`
	TagRef    []string `dynamodbav:"team_task_tagRef"`
	Todo      int      `dynamodbav:"todo"`
	Doing     int      `dynamodbav:"doing"`
	Done      int      `dynamodbav:"done"`
	ExpiresAt int64    `dynamodbav:"expiresAt"`
}

func s(v string) types.AttributeValue { return ddb.S(v) }
func n(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

func base(k itemKey, typ string) ddb.Item {
	return ddb.Item{AttrPK: s(k.pk), AttrSK: s(k.sk), attrType: s(typ)}
}

func userItem(u User) ddb.Item {
	it := base(userKey(u.ID), typeUser)
	it[attrUserEmail] = s(u.Email)
	it[attrUserName] = s(u.Name)
	it[attrUserImage] = s(u.Image)
	it[attrUserCreatedAt] = s(string(u.CreatedAt))
	return it
}

func teamItem(t Team) ddb.Item {
	it := base(teamKey(t.ID), typeTeam)
	it[attrTeamName] = s(t.Name)
	it[attrTeamDesc] = s(t.Description)
	return it
}

func userTeamItem(m Membership) ddb.Item {
	it := base(userTeamKey(m.UserID, m.TeamID), typeUserTeam)
	it[attrRole] = s(string(m.Role))
	it[attrJoinedAt] = s(string(m.JoinedAt))
	it[attrTeamName] = s(m.TeamName)
	return it
}

func teamUserItem(m Member) ddb.Item {
	it := base(teamUserKey(m.TeamID, m.UserID), typeTeamUser)
	it[attrRole] = s(string(m.Role))
	it[attrJoinedAt] = s(string(m.JoinedAt))
	it[attrUserName] = s(m.UserName)
	return it
}

func colorAttr(c Color) types.AttributeValue {
	return &types.AttributeValueMemberM{Value: ddb.Item{"color": s(c.Color), "backgroundColor": s(c.BackgroundColor)}}
}

func tagItem(t Tag) ddb.Item {
	it := base(tagKey(t.TeamID, t.ID), typeTag)
	it[attrTagName] = s(t.Name)
	it[attrTagColor] = colorAttr(t.Color)
	return it
}

// counterItem is a counter as the DynamoDB store's updates leave it (it
// writes counters with ADD and SET, never whole): type, the three counts,
// and expiresAt when the counter has one (the daily counters).
func counterItem(teamID string, c DailyCount) ddb.Item {
	it := base(counterKey(teamID, c.Date), typeCounter)
	for _, st := range Statuses {
		it[string(st)] = n(int64(c.Get(st)))
	}
	if !c.ExpiresAt.IsZero() {
		it[AttrExpiresAt] = n(c.ExpiresAt.Unix())
	}
	return it
}

// tagRefs is the team_task_tagRef String Set of ids, or nil for none:
// DynamoDB refuses an empty set, so a task without tags has no attribute.
func tagRefs(ids []string) types.AttributeValue {
	if len(ids) == 0 {
		return nil
	}
	refs := make([]string, len(ids))
	for i, id := range ids {
		refs[i] = tagRef(id)
	}
	return &types.AttributeValueMemberSS{Value: refs}
}

// taskItem is a task with its five index keys, which are functions of its
// status and dates alone: writing them with the status and dates keeps
// every GSI entry current. team_task_tagRef is missing for a task without
// tags.
func taskItem(t Task) ddb.Item {
	g := groups(t.TeamID, t.Status)
	it := make(ddb.Item, 14)
	it[AttrPK], it[AttrSK], it[attrType] = s(teamPK(t.TeamID)), s(join(segTask, t.ID)), s(typeTask)
	it[attrTitle] = s(t.Title)
	it[attrTaskDesc] = s(t.Description)
	it[attrStatus] = s(string(t.Status))
	it[attrStartTime] = s(string(t.Start))
	it[attrEndTime] = s(string(t.End))
	if refs := tagRefs(t.TagIDs); refs != nil {
		it[attrTagRef] = refs
	}
	it[AttrStatusGroup1] = s(g[0])
	it[AttrStatusGroup2] = s(g[1])
	it[AttrStatusGroup3] = s(g[2])
	it[AttrStartSortSK] = s(startSK(t.Start))
	it[AttrEndSortSK] = s(endSK(t.End))
	return it
}

// Decoding. Reads are lenient: IDs come from the keys, missing optional
// attributes read as zero values, dates may carry a time. What cannot be
// read at all is a *ddbkit.CorruptItemError.

func decode(t ddb.Table, item ddb.Item) (stored, error) {
	var st stored
	if st.fast(item) {
		return st, nil
	}
	// A variable of its own: the one passed to Unmarshal escapes to the
	// heap, and only this path should pay for that.
	slow := new(stored)
	err := ddb.Unmarshal(t, item, slow)
	return *slow, err
}

// fast decodes item into st without reflection, as attributevalue would
// for the types the layout names (S, N, SS, M); it reports false on
// anything else (a NULL, a List, a wrong type, a Number that is not an
// integer), and decode then takes attributevalue's path, which gives the
// same result there and names a corrupt attribute. Reads are the hot path
// of every listing; this is most of their decoding cost.
func (st *stored) fast(item ddb.Item) bool {
	for name, v := range item {
		var ok bool
		switch name {
		case AttrPK:
			ok = readS(v, &st.PK)
		case AttrSK:
			ok = readS(v, &st.SK)
		case attrType:
			ok = readS(v, &st.Type)
		case attrUserEmail:
			ok = readS(v, &st.UserEmail)
		case attrUserName:
			ok = readS(v, &st.UserName)
		case attrUserImage:
			ok = readS(v, &st.UserImage)
		case attrUserCreatedAt:
			ok = readS(v, &st.UserCreatedAt)
		case attrTeamName:
			ok = readS(v, &st.TeamName)
		case attrTeamDesc:
			ok = readS(v, &st.TeamDesc)
		case attrRole:
			ok = readS(v, &st.Role)
		case attrJoinedAt:
			ok = readS(v, &st.JoinedAt)
		case attrTagName:
			ok = readS(v, &st.TagName)
		case attrTagColor:
			m, isM := v.(*types.AttributeValueMemberM)
			if ok = isM; !ok {
				break
			}
			for k, c := range m.Value {
				switch k {
				case "color":
					ok = ok && readS(c, &st.TagColor.Color)
				case "backgroundColor":
					ok = ok && readS(c, &st.TagColor.BackgroundColor)
				}
			}
		case attrTitle:
			ok = readS(v, &st.Title)
		case attrTaskDesc:
			ok = readS(v, &st.TaskDesc)
		case attrStatus:
			ok = readS(v, &st.Status)
		case attrStartTime:
			ok = readS(v, &st.StartTime)
		case attrEndTime:
			ok = readS(v, &st.EndTime)
		case attrTagRef:
			var ss *types.AttributeValueMemberSS
			if ss, ok = v.(*types.AttributeValueMemberSS); ok {
				st.TagRef = ss.Value
			}
		case string(StatusTodo):
			ok = readN(v, &st.Todo)
		case string(StatusDoing):
			ok = readN(v, &st.Doing)
		case string(StatusDone):
			ok = readN(v, &st.Done)
		case AttrExpiresAt:
			ok = readN64(v, &st.ExpiresAt)
		default:
			ok = true // not part of the layout: ignored, as attributevalue does
		}
		if !ok {
			return false
		}
	}
	return true
}

func readS(v types.AttributeValue, out *string) bool {
	s, ok := v.(*types.AttributeValueMemberS)
	if ok {
		*out = s.Value
	}
	return ok
}

func readN64(v types.AttributeValue, out *int64) bool {
	n, ok := v.(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	x, err := strconv.ParseInt(n.Value, 10, 64)
	*out = x
	return err == nil
}

func readN(v types.AttributeValue, out *int) bool {
	n, ok := v.(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	x, err := strconv.ParseInt(n.Value, 10, 64)
	*out = int(x)
	return err == nil
}

// readDate reads a stored date: YYYY-MM-DD, or any ISO 8601 date and time,
// whose date as written is kept. "" reads as "".
func readDate(t ddb.Table, item ddb.Item, attr, v string) (Date, error) {
	if v == "" || Date(v).Valid() {
		return Date(v), nil
	}
	if len(v) > 10 && Date(v[:10]).Valid() {
		if _, err := keys.ParseTime(v); err == nil {
			return Date(v[:10]), nil
		}
	}
	return "", ddb.Corrupt(t, item, attr, "%q is not a date", v)
}

func keyID(t ddb.Table, item ddb.Item, attr, key, seg string) (string, error) {
	id, ok := idFrom(key, seg)
	if !ok {
		return "", ddb.Corrupt(t, item, attr, "%q is not %s#<id>", key, seg)
	}
	return id, nil
}

func decodeUser(t ddb.Table, item ddb.Item) (User, error) {
	st, err := decode(t, item)
	if err != nil {
		return User{}, err
	}
	id, err := keyID(t, item, AttrPK, st.PK, segUser)
	if err != nil {
		return User{}, err
	}
	created, err := readDate(t, item, attrUserCreatedAt, st.UserCreatedAt)
	if err != nil {
		return User{}, err
	}
	return User{ID: id, Email: st.UserEmail, Name: st.UserName, Image: st.UserImage, CreatedAt: created}, nil
}

func decodeTeam(t ddb.Table, item ddb.Item) (Team, error) {
	st, err := decode(t, item)
	if err != nil {
		return Team{}, err
	}
	id, err := keyID(t, item, AttrPK, st.PK, segTeam)
	if err != nil {
		return Team{}, err
	}
	return Team{ID: id, Name: st.TeamName, Description: st.TeamDesc}, nil
}

func readRole(t ddb.Table, item ddb.Item, v string) (Role, error) {
	r := Role(v)
	if !r.Valid() {
		return "", ddb.Corrupt(t, item, attrRole, "%q is not admin or member", v)
	}
	return r, nil
}

func decodeMember(t ddb.Table, item ddb.Item) (Member, error) {
	st, err := decode(t, item)
	if err != nil {
		return Member{}, err
	}
	teamID, err := keyID(t, item, AttrPK, st.PK, segTeam)
	if err != nil {
		return Member{}, err
	}
	userID, err := keyID(t, item, AttrSK, st.SK, segUser)
	if err != nil {
		return Member{}, err
	}
	role, err := readRole(t, item, st.Role)
	if err != nil {
		return Member{}, err
	}
	joined, err := readDate(t, item, attrJoinedAt, st.JoinedAt)
	if err != nil {
		return Member{}, err
	}
	return Member{TeamID: teamID, UserID: userID, UserName: st.UserName, Role: role, JoinedAt: joined}, nil
}

func decodeMembership(t ddb.Table, item ddb.Item) (Membership, error) {
	st, err := decode(t, item)
	if err != nil {
		return Membership{}, err
	}
	userID, err := keyID(t, item, AttrPK, st.PK, segUser)
	if err != nil {
		return Membership{}, err
	}
	teamID, err := keyID(t, item, AttrSK, st.SK, segTeam)
	if err != nil {
		return Membership{}, err
	}
	role, err := readRole(t, item, st.Role)
	if err != nil {
		return Membership{}, err
	}
	joined, err := readDate(t, item, attrJoinedAt, st.JoinedAt)
	if err != nil {
		return Membership{}, err
	}
	return Membership{UserID: userID, TeamID: teamID, TeamName: st.TeamName, Role: role, JoinedAt: joined}, nil
}

func decodeTag(t ddb.Table, item ddb.Item) (Tag, error) {
	st, err := decode(t, item)
	if err != nil {
		return Tag{}, err
	}
	teamID, err := keyID(t, item, AttrPK, st.PK, segTeam)
	if err != nil {
		return Tag{}, err
	}
	id, err := keyID(t, item, AttrSK, st.SK, segTag)
	if err != nil {
		return Tag{}, err
	}
	return Tag{ID: id, TeamID: teamID, Name: st.TagName, Color: Color{Color: st.TagColor.Color, BackgroundColor: st.TagColor.BackgroundColor}}, nil
}

func decodeTask(t ddb.Table, item ddb.Item) (Task, error) {
	st, err := decode(t, item)
	if err != nil {
		return Task{}, err
	}
	return taskFrom(t, item, st)
}

// taskFrom is decodeTask of an item already decoded into st.
func taskFrom(t ddb.Table, item ddb.Item, st stored) (Task, error) {
	teamID, err := keyID(t, item, AttrPK, st.PK, segTeam)
	if err != nil {
		return Task{}, err
	}
	id, err := keyID(t, item, AttrSK, st.SK, segTask)
	if err != nil {
		return Task{}, err
	}
	status := Status(st.Status)
	if !status.Valid() {
		return Task{}, ddb.Corrupt(t, item, attrStatus, "%q is not todo, doing or done", st.Status)
	}
	start, err := readDate(t, item, attrStartTime, st.StartTime)
	if err != nil {
		return Task{}, err
	}
	end, err := readDate(t, item, attrEndTime, st.EndTime)
	if err != nil {
		return Task{}, err
	}
	var tags []string
	for _, ref := range st.TagRef {
		// A reference without the TAG# prefix is read as the bare ID.
		id := strings.TrimPrefix(ref, segTag+keys.Sep)
		if id == "" {
			return Task{}, ddb.Corrupt(t, item, attrTagRef, "empty tag reference %q", ref)
		}
		tags = append(tags, id)
	}
	return Task{ID: id, TeamID: teamID, Title: st.Title, Description: st.TaskDesc, Status: status,
		Start: start, End: end, TagIDs: sortedTags(tags)}, nil
}

func decodeCounts(t ddb.Table, item ddb.Item) (Counts, stored, error) {
	st, err := decode(t, item)
	if err != nil {
		return Counts{}, st, err
	}
	return Counts{Todo: st.Todo, Doing: st.Doing, Done: st.Done}, st, nil
}

func decodeDaily(t ddb.Table, item ddb.Item) (DailyCount, error) {
	c, st, err := decodeCounts(t, item)
	if err != nil {
		return DailyCount{}, err
	}
	day, ok := idFrom(st.SK, segCounter)
	if !ok || !Date(day).Valid() {
		return DailyCount{}, ddb.Corrupt(t, item, AttrSK, "%q is not COUNTER#<YYYY-MM-DD>", st.SK)
	}
	return DailyCount{Date: Date(day), Counts: c, ExpiresAt: epoch(st.ExpiresAt)}, nil
}

func epoch(sec int64) time.Time {
	if sec == 0 {
		return time.Time{}
	}
	return time.Unix(sec, 0).UTC()
}

// page decodes the items of one page, leaving out (and reporting in
// Skipped) those that cannot be decoded.
func page[T any](t ddb.Table, items []ddb.Item, next string, dec func(ddb.Table, ddb.Item) (T, error)) (ddbkit.Page[T], error) {
	p := ddbkit.Page[T]{Items: make([]T, 0, len(items)), Next: next}
	for _, it := range items {
		v, err := dec(t, it)
		if errors.Is(err, ddbkit.ErrCorruptItem) {
			p.Skipped = append(p.Skipped, err)
			continue
		}
		if err != nil {
			return ddbkit.Page[T]{}, err
		}
		p.Items = append(p.Items, v)
	}
	return p, nil
}
