package taskmgmt

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/backend"
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

// The seed's attribute names, its spellings included, that updates,
// conditions and errors name (the layouts' tags below name them all).
const (
	attrType          = "type"
	attrUserName      = "user_name"
	attrUserEmail     = "user_email"
	attrUserCreatedAt = "user_createdAt"
	attrTeamName      = "team_name"
	attrTeamDesc      = "team_discription"
	attrRole          = "user_team_role"
	attrJoinedAt      = "user_team_joinedAt"
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
	PK            string    `dynamodbav:"PK"`
	SK            string    `dynamodbav:"SK"`
	Type          string    `dynamodbav:"type"`
	UserEmail     string    `dynamodbav:"user_email"`
	UserName      string    `dynamodbav:"user_name"`
	UserImage     string    `dynamodbav:"user_image"`
	UserCreatedAt string    `dynamodbav:"user_createdAt"`
	TeamName      string    `dynamodbav:"team_name"`
	TeamDesc      string    `dynamodbav:"team_discription"`
	Role          string    `dynamodbav:"user_team_role"`
	JoinedAt      string    `dynamodbav:"user_team_joinedAt"`
	TagName       string    `dynamodbav:"team_tag_name"`
	TagColor      colorMap  `dynamodbav:"team_tag_color"`
	Title         string    `dynamodbav:"team_task_title"`
	TaskDesc      string    `dynamodbav:"team_task_discription"`
	Status        string    `dynamodbav:"team_task_status"`
	StartTime     string    `dynamodbav:"team_task_startTime"`
	EndTime       string    `dynamodbav:"team_task_endTime"`
	TagRef        tagRefSet `dynamodbav:"team_task_tagRef"`
	Todo          int       `dynamodbav:"todo"`
	Doing         int       `dynamodbav:"doing"`
	Done          int       `dynamodbav:"done"`
	ExpiresAt     int64     `dynamodbav:"expiresAt"`
}

// The layouts each kind of item is written in: the key, the type, and
// the attributes of that kind, every one written ("" included) unless it
// says omitempty.

type head struct {
	PK   string `dynamodbav:"PK"`
	SK   string `dynamodbav:"SK"`
	Type string `dynamodbav:"type"`
}

type userLayout struct {
	head
	Email     string `dynamodbav:"user_email"`
	Name      string `dynamodbav:"user_name"`
	Image     string `dynamodbav:"user_image"`
	CreatedAt string `dynamodbav:"user_createdAt"`
}

type teamLayout struct {
	head
	Name string `dynamodbav:"team_name"`
	Desc string `dynamodbav:"team_discription"`
}

type userTeamLayout struct {
	head
	Role     string `dynamodbav:"user_team_role"`
	JoinedAt string `dynamodbav:"user_team_joinedAt"`
	TeamName string `dynamodbav:"team_name"`
}

type teamUserLayout struct {
	head
	Role     string `dynamodbav:"user_team_role"`
	JoinedAt string `dynamodbav:"user_team_joinedAt"`
	UserName string `dynamodbav:"user_name"`
}

type tagLayout struct {
	head
	Name  string   `dynamodbav:"team_tag_name"`
	Color colorMap `dynamodbav:"team_tag_color"`
}

type taskLayout struct {
	head
	Title     string    `dynamodbav:"team_task_title"`
	Desc      string    `dynamodbav:"team_task_discription"`
	Status    string    `dynamodbav:"team_task_status"`
	StartTime string    `dynamodbav:"team_task_startTime,omitempty"` // absent, not "", for an app-written task without one
	EndTime   string    `dynamodbav:"team_task_endTime,omitempty"`
	TagRef    tagRefSet `dynamodbav:"team_task_tagRef,omitempty"`
	G1        string    `dynamodbav:"status_group1"`
	G2        string    `dynamodbav:"status_group2"`
	G3        string    `dynamodbav:"status_group3"`
	StartSK   string    `dynamodbav:"start_sort_sk,omitempty"` // absent with the date: the task is in no view sorted by it
	EndSK     string    `dynamodbav:"end_sort_sk,omitempty"`
}

type counterLayout struct {
	head
	Todo      int   `dynamodbav:"todo"`
	Doing     int   `dynamodbav:"doing"`
	Done      int   `dynamodbav:"done"`
	ExpiresAt int64 `dynamodbav:"expiresAt,omitempty"` // only the daily counters expire
}

var (
	storedCodec   = ddb.NewCodec[stored]()
	userCodec     = ddb.NewCodec[userLayout]()
	teamCodec     = ddb.NewCodec[teamLayout]()
	userTeamCodec = ddb.NewCodec[userTeamLayout]()
	teamUserCodec = ddb.NewCodec[teamUserLayout]()
	tagCodec      = ddb.NewCodec[tagLayout]()
	taskCodec     = ddb.NewCodec[taskLayout]()
	counterCodec  = ddb.NewCodec[counterLayout]()
)

// encode is c.Encode of v, which cannot fail: the layouts hold strings,
// integers and the two types below, whose marshalers return no error.
func encode[T any](c ddb.Codec[T], v T) ddb.Item {
	it, err := c.Encode(&v)
	if err != nil {
		panic("taskmgmt: " + err.Error())
	}
	return it
}

// colorMap is team_tag_color, the Map {color, backgroundColor}. Its own
// marshalers keep the layouts planned (the codec reads and writes no
// nested Map itself).
type colorMap struct {
	Color           string `dynamodbav:"color"`
	BackgroundColor string `dynamodbav:"backgroundColor"`
}

func (c colorMap) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberM{Value: ddb.Item{"color": s(c.Color), "backgroundColor": s(c.BackgroundColor)}}, nil
}

// UnmarshalDynamoDBAttributeValue reads the Map's S attributes itself and
// leaves anything else (a NULL, a Map with another type in it, not a Map)
// to attributevalue, as if the field were the plain struct.
func (c *colorMap) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	if m, isM := av.(*types.AttributeValueMemberM); isM {
		v, ok := *c, true
		for k, a := range m.Value {
			switch k {
			case "color":
				ok = ok && readS(a, &v.Color)
			case "backgroundColor":
				ok = ok && readS(a, &v.BackgroundColor)
			}
		}
		if ok {
			*c = v
			return nil
		}
	}
	if _, null := av.(*types.AttributeValueMemberNULL); null {
		*c = colorMap{}
		return nil
	}
	type plain colorMap // without these methods
	return attributevalue.Unmarshal(av, (*plain)(c))
}

// tagRefSet is team_task_tagRef, a String Set. DynamoDB refuses an empty
// set, so a task without tags has a nil one, which omitempty leaves out.
type tagRefSet []string

func (r tagRefSet) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberSS{Value: r}, nil
}

// UnmarshalDynamoDBAttributeValue reads the String Set itself and leaves
// anything else (a List of S, a NULL) to attributevalue, as if the field
// were a []string.
func (r *tagRefSet) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	switch v := av.(type) {
	case *types.AttributeValueMemberSS:
		*r = v.Value
		return nil
	case *types.AttributeValueMemberNULL:
		*r = nil
		return nil
	}
	return attributevalue.Unmarshal(av, (*[]string)(r))
}

func s(v string) types.AttributeValue { return ddb.S(v) }
func n(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

func readS(v types.AttributeValue, out *string) bool {
	s, ok := v.(*types.AttributeValueMemberS)
	if ok {
		*out = s.Value
	}
	return ok
}

func headOf(k itemKey, typ string) head { return head{PK: k.pk, SK: k.sk, Type: typ} }

func userItem(u User) ddb.Item {
	return encode(userCodec, userLayout{head: headOf(userKey(u.ID), typeUser),
		Email: u.Email, Name: u.Name, Image: u.Image, CreatedAt: string(u.CreatedAt)})
}

func teamItem(t Team) ddb.Item {
	return encode(teamCodec, teamLayout{head: headOf(teamKey(t.ID), typeTeam), Name: t.Name, Desc: t.Description})
}

func userTeamItem(m Membership) ddb.Item {
	return encode(userTeamCodec, userTeamLayout{head: headOf(userTeamKey(m.UserID, m.TeamID), typeUserTeam),
		Role: string(m.Role), JoinedAt: string(m.JoinedAt), TeamName: m.TeamName})
}

func teamUserItem(m Member) ddb.Item {
	return encode(teamUserCodec, teamUserLayout{head: headOf(teamUserKey(m.TeamID, m.UserID), typeTeamUser),
		Role: string(m.Role), JoinedAt: string(m.JoinedAt), UserName: m.UserName})
}

func tagItem(t Tag) ddb.Item {
	return encode(tagCodec, tagLayout{head: headOf(tagKey(t.TeamID, t.ID), typeTag), Name: t.Name, Color: colorMap(t.Color)})
}

// counterItem is a counter as the DynamoDB store's updates leave it (it
// writes counters with ADD and SET, never whole): type, the three counts,
// and expiresAt when the counter has one (the daily counters).
func counterItem(teamID string, c DailyCount, shard int) ddb.Item {
	return encode(counterCodec, counterLayout{head: headOf(counterShardKey(teamID, c.Date, shard), typeCounter),
		Todo: c.Todo, Doing: c.Doing, Done: c.Done, ExpiresAt: unix(c.ExpiresAt)})
}

// unix is the inverse of epoch: 0 for the zero time, which omitempty
// then leaves out.
func unix(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// taskItem is a task with its five index keys, which are functions of its
// status and dates alone: writing them with the status and dates keeps
// every GSI entry current. team_task_tagRef is missing for a task without
// tags.
func taskItem(t Task) ddb.Item {
	g := groups(t.TeamID, t.Status)
	var refs tagRefSet
	if len(t.TagIDs) > 0 {
		refs = make(tagRefSet, len(t.TagIDs))
		for i, id := range t.TagIDs {
			refs[i] = tagRef(id)
		}
	}
	return encode(taskCodec, taskLayout{head: headOf(taskKey(t.TeamID, t.ID), typeTask),
		Title: t.Title, Desc: t.Description, Status: string(t.Status), StartTime: string(t.Start), EndTime: string(t.End),
		TagRef: refs, G1: g[0], G2: g[1], G3: g[2], StartSK: startSK(t.Start), EndSK: endSK(t.End)})
}

// Decoding. Reads are lenient: IDs come from the keys, missing optional
// attributes read as zero values, dates may carry a time. What cannot be
// read at all is a *ddbkit.CorruptItemError.

func decode(t ddb.Table, item ddb.Item) (stored, error) {
	return decodeWith(storedCodec, &storedPool, t, item)
}

var storedPool = sync.Pool{New: func() any { return new(stored) }}

// decodeWith decodes item into a T from pool and returns a copy of it:
// the pointer Decode takes escapes, and without the pool every item of
// a listing would allocate its layout (about half of a decode's time).
func decodeWith[T any](c ddb.Codec[T], pool *sync.Pool, t ddb.Table, item ddb.Item) (T, error) {
	p := pool.Get().(*T)
	var zero T
	*p = zero
	err := c.Decode(t, item, p)
	v := *p
	pool.Put(p)
	return v, err
}

// readDate reads a stored date: YYYY-MM-DD, or any ISO 8601 date and time,
// whose date as written is kept. "" reads as "".
func readDate(t ddb.Table, item ddb.Item, attr, v string) (Date, error) {
	if v == "" || Date(v).wellFormed() {
		return Date(v), nil
	}
	if len(v) > 10 && Date(v[:10]).wellFormed() {
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

// decodeDaily decodes a daily counter of the seed's layout; the shards of
// sharded counters (Options.CounterShards) are left out (backend.ErrSkip):
// their counts are not the day's.
func decodeDaily(t ddb.Table, item ddb.Item) (DailyCount, error) {
	d, shard, err := decodeDailyShard(t, item)
	if err == nil && shard > 0 {
		return DailyCount{}, backend.ErrSkip
	}
	return d, err
}

// decodeDailyShard decodes one shard of a daily counter (COUNTER#<date>,
// shard 0, or COUNTER#<date>#<n>).
func decodeDailyShard(t ddb.Table, item ddb.Item) (DailyCount, int, error) {
	c, st, err := decodeCounts(t, item)
	if err != nil {
		return DailyCount{}, 0, err
	}
	day, shard, ok := counterSK(st.SK)
	if !ok || !day.wellFormed() {
		return DailyCount{}, 0, ddb.Corrupt(t, item, AttrSK, "%q is not COUNTER#<YYYY-MM-DD>, optionally followed by #<shard>", st.SK)
	}
	return DailyCount{Date: day, Counts: c, ExpiresAt: epoch(st.ExpiresAt)}, shard, nil
}

func epoch(sec int64) time.Time {
	if sec == 0 {
		return time.Time{}
	}
	return time.Unix(sec, 0).UTC()
}

// The decoders of the items listings read (see backend.Decoder): a memory
// store decodes each item it holds once.
var (
	tagDecoder        = backend.NewDecoder(decodeTag, nil)
	taskDecoder       = backend.NewDecoder(decodeTask, Task.clone)
	dailyDecoder      = backend.NewDecoder(decodeDaily, nil)
	memberDecoder     = backend.NewDecoder(decodeMember, nil)
	membershipDecoder = backend.NewDecoder(decodeMembership, nil)
)

// clone copies the tag IDs, so that a caller's change to them stays its own.
func (t Task) clone() Task {
	t.TagIDs = slices.Clone(t.TagIDs)
	return t
}
