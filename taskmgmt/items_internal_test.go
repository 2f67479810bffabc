package taskmgmt

import (
	"errors"
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestCodecsPlanned holds every layout of the package to the codec's own
// paths: a layout that fell back to attributevalue would still pass every
// other test, only slower.
func TestCodecsPlanned(t *testing.T) {
	for name, planned := range map[string]bool{
		"stored":     storedCodec.Planned(),
		"user":       userCodec.Planned(),
		"team":       teamCodec.Planned(),
		"user_team":  userTeamCodec.Planned(),
		"team_user":  teamUserCodec.Planned(),
		"tag":        tagCodec.Planned(),
		"task":       taskCodec.Planned(),
		"counter":    counterCodec.Planned(),
		"invitation": invitationCodec.Planned(),
	} {
		if !planned {
			t.Errorf("the %s codec is not planned: a field type or tag option sends it through attributevalue", name)
		}
	}
}

// TestItemLayouts pins what each kind of item is written as, attribute
// for attribute, the optional ones both present and left out.
func TestItemLayouts(t *testing.T) {
	S := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	N := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	task := Task{ID: "k", TeamID: "t", Title: "title", Description: "", Status: StatusDoing, Start: "2025-01-01", End: "2025-01-02", TagIDs: []string{"a", "b"}}
	untagged := task
	untagged.TagIDs = []string{}
	wantTask := ddb.Item{"PK": S("TEAM#t"), "SK": S("TASK#k"), "type": S("task"), "team_task_title": S("title"),
		"team_task_discription": S(""), "team_task_status": S("doing"), "team_task_startTime": S("2025-01-01"),
		"team_task_endTime": S("2025-01-02"), "team_task_tagRef": &types.AttributeValueMemberSS{Value: []string{"TAG#a", "TAG#b"}},
		"status_group1": S("TEAM#t#Status#doing_done"), "status_group2": S("TEAM#t#Status#todo_doing"),
		"status_group3": S("TEAM#t#Status#doing"), "start_sort_sk": S("START#2025-01-01"), "end_sort_sk": S("END#2025-01-02")}
	wantUntagged := maps.Clone(wantTask)
	delete(wantUntagged, "team_task_tagRef")
	exp := time.Unix(1768227600, 0).UTC()
	inv := Invitation{ID: "i", TeamID: "t", TeamName: "n", Email: "e@example.com", Role: RoleMember, InvitedBy: "u", Token: "x",
		CreatedAt: time.Unix(1768141200, 0).UTC(), ExpiresAt: exp}
	wantInv := ddb.Item{"PK": S("TEAM#t"), "SK": S("TINVITE#i"), "type": S("invitation"), "email": S("e@example.com"),
		"user_role": S("member"), "createdAt": N("1768141200"), "expiresAt": N("1768227600"), "invitedBy": S("USER#u"),
		"token": S("x"), "team_name": S("n")}
	noCreated := inv
	noCreated.CreatedAt = time.Time{}
	wantNoCreated := maps.Clone(wantInv)
	delete(wantNoCreated, "createdAt")
	tests := []struct {
		name string
		got  ddb.Item
		want ddb.Item
	}{
		{"user", userItem(User{ID: "u", Email: "e", Name: "n", CreatedAt: "2025-01-01"}),
			ddb.Item{"PK": S("USER#u"), "SK": S("USER#u"), "type": S("user"), "user_email": S("e"), "user_name": S("n"),
				"user_image": S(""), "user_createdAt": S("2025-01-01")}},
		{"team", teamItem(Team{ID: "t", Name: "n"}),
			ddb.Item{"PK": S("TEAM#t"), "SK": S("TEAM#t"), "type": S("team"), "team_name": S("n"), "team_discription": S("")}},
		{"user_team", userTeamItem(Membership{UserID: "u", TeamID: "t", TeamName: "n", Role: RoleAdmin, JoinedAt: "2025-01-01"}),
			ddb.Item{"PK": S("USER#u"), "SK": S("TEAM#t"), "type": S("user_team"), "user_team_role": S("admin"),
				"user_team_joinedAt": S("2025-01-01"), "team_name": S("n")}},
		{"team_user", teamUserItem(Member{TeamID: "t", UserID: "u", UserName: "n", Role: RoleMember, JoinedAt: "2025-01-01"}),
			ddb.Item{"PK": S("TEAM#t"), "SK": S("USER#u"), "type": S("team_user"), "user_team_role": S("member"),
				"user_team_joinedAt": S("2025-01-01"), "user_name": S("n")}},
		{"tag", tagItem(Tag{ID: "g", TeamID: "t", Name: "n", Color: Color{Color: "c"}}),
			ddb.Item{"PK": S("TEAM#t"), "SK": S("TAG#g"), "type": S("team_tag"), "team_tag_name": S("n"),
				"team_tag_color": &types.AttributeValueMemberM{Value: ddb.Item{"color": S("c"), "backgroundColor": S("")}}}},
		{"task", taskItem(task), wantTask},
		{"task without tags", taskItem(untagged), wantUntagged},
		{"daily counter", counterItem("t", DailyCount{Date: "2025-01-01", Counts: Counts{Todo: 1, Doing: -2}, ExpiresAt: exp}, 0),
			ddb.Item{"PK": S("TEAM#t"), "SK": S("COUNTER#2025-01-01"), "type": S("counter"), "todo": N("1"), "doing": N("-2"),
				"done": N("0"), "expiresAt": N("1768227600")}},
		{"total counter", counterItem("t", DailyCount{Counts: Counts{Done: 3}}, 0),
			ddb.Item{"PK": S("TEAM#t"), "SK": S("COUNTER#ALL"), "type": S("counter"), "todo": N("0"), "doing": N("0"), "done": N("3")}},
		{"invitation", invitationItem(inv), wantInv},
		{"invitation without createdAt", invitationItem(noCreated), wantNoCreated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			attrs := maps.Clone(tt.got)
			maps.Copy(attrs, tt.want)
			for a := range attrs {
				if g, w := tt.got[a], tt.want[a]; g == nil || w == nil || !reflect.DeepEqual(g, w) {
					t.Errorf("%s = %s, want %s", a, show(g), show(w))
				}
			}
		})
	}
}

// plainStored is stored as it was before the codec, with the plain types
// attributevalue decodes the seed's layout into: reads must accept,
// refuse and blame as attributevalue does on it.
type plainStored struct {
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

// plain is st field by field (the codec's types convert to the plain ones).
func plain(st stored) plainStored {
	var p plainStored
	pv, sv := reflect.ValueOf(&p).Elem(), reflect.ValueOf(st)
	for i := range pv.NumField() {
		f := pv.Type().Field(i)
		pv.Field(i).Set(sv.FieldByName(f.Name).Convert(f.Type))
	}
	return p
}

// corruptAttr is the attribute a CorruptItemError names, or "" for nil.
func corruptAttr(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var c *ddbkit.CorruptItemError
	if !errors.As(err, &c) {
		t.Fatalf("error %v is not a *ddbkit.CorruptItemError", err)
	}
	return c.Attr
}

// TestDecodeMatchesAttributevalue checks that reads take every item as
// attributevalue takes it into the plain layout (the reads' only path
// before the codec, for any item its hand-written decoder refused), and
// blame the same attribute when they cannot.
func TestDecodeMatchesAttributevalue(t *testing.T) {
	tbl := table("t")
	task := taskItem(Task{ID: "k", TeamID: "t", Title: "title", Description: "d", Status: StatusDoing, Start: "2025-01-01", End: "2025-01-02", TagIDs: []string{"a", "b"}})
	tag := tagItem(Tag{ID: "g", TeamID: "t", Name: "n", Color: Color{Color: "c", BackgroundColor: "b"}})
	counter := counterItem("t", DailyCount{Date: "2025-01-01", Counts: Counts{Todo: 1, Doing: -2, Done: 3}}, 0)
	odd := func(base ddb.Item, attrs ...any) ddb.Item {
		it := ddb.CloneItem(base)
		for i := 0; i < len(attrs); i += 2 {
			it[attrs[i].(string)] = attrs[i+1].(types.AttributeValue)
		}
		return it
	}
	M := func(m ddb.Item) types.AttributeValue { return &types.AttributeValueMemberM{Value: m} }
	N := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	null := &types.AttributeValueMemberNULL{Value: true}
	items := map[string]ddb.Item{
		"user":          userItem(User{ID: "u", Email: "e", Name: "n", Image: "i", CreatedAt: "2025-01-01"}),
		"team":          teamItem(Team{ID: "t", Name: "n", Description: "d"}),
		"user_team":     userTeamItem(Membership{UserID: "u", TeamID: "t", TeamName: "n", Role: RoleAdmin, JoinedAt: "2025-01-01"}),
		"team_user":     teamUserItem(Member{TeamID: "t", UserID: "u", UserName: "n", Role: RoleMember, JoinedAt: "2025-01-01"}),
		"tag":           tag,
		"task":          task,
		"counter":       counter,
		"unknown":       odd(task, "other", &types.AttributeValueMemberBOOL{Value: true}),
		"N float":       odd(counter, "todo", N("5.0")),
		"N big":         odd(counter, "expiresAt", N("99999999999999999999")),
		"NULL":          odd(task, attrTitle, null),
		"tags as L":     odd(task, attrTagRef, &types.AttributeValueMemberL{Value: []types.AttributeValue{s("TAG#a")}}),
		"tags as NULL":  odd(task, attrTagRef, null),
		"tags as S":     odd(task, attrTagRef, s("TAG#a")),
		"N as S":        odd(task, attrTitle, N("1")),
		"S as N":        odd(counter, "done", s("1")),
		"color not M":   odd(tag, attrTagColor, s("red")),
		"color NULL":    odd(tag, attrTagColor, null),
		"color partial": odd(tag, attrTagColor, M(ddb.Item{"color": s("c")})),
		"color extra":   odd(tag, attrTagColor, M(ddb.Item{"color": s("c"), "other": N("1")})),
		"color wrong":   odd(tag, attrTagColor, M(ddb.Item{"color": N("1")})),
		"color NULL in": odd(tag, attrTagColor, M(ddb.Item{"color": null, "backgroundColor": s("b")})),
		"two wrong":     odd(task, attrTitle, N("1"), "done", s("1"), attrTagColor, s("red")),
		"two wrong too": odd(task, attrTagRef, s("x"), attrType, N("1")),
	}
	for name, item := range items {
		t.Run(name, func(t *testing.T) {
			var want plainStored
			werr := ddb.Unmarshal(tbl, item, &want)
			st, gerr := decode(tbl, item)
			if got, want := corruptAttr(t, gerr), corruptAttr(t, werr); got != want {
				t.Fatalf("decode blames %q (%v); attributevalue %q (%v)", got, gerr, want, werr)
			}
			if got := plain(st); werr == nil && !reflect.DeepEqual(got, want) {
				t.Errorf("decode = %+v; attributevalue %+v", got, want)
			}
		})
	}
	inv := invitationItem(Invitation{ID: "i", TeamID: "t", Email: "e", Role: RoleMember, InvitedBy: "u", Token: "x", TeamName: "n"})
	for name, item := range map[string]ddb.Item{
		"invitation": inv,
		"N as S":     odd(inv, attrInvExpiresAt, s("1")),
		"N float":    odd(inv, attrCreatedAt, N("1.0")),
		"two wrong":  odd(inv, attrToken, N("1"), attrCreatedAt, s("1")),
	} {
		t.Run("invitation "+name, func(t *testing.T) {
			var want storedInvitation
			werr := ddb.Unmarshal(tbl, item, &want)
			var got storedInvitation
			gerr := invitationCodec.Decode(tbl, item, &got)
			if g, w := corruptAttr(t, gerr), corruptAttr(t, werr); g != w {
				t.Fatalf("decode blames %q (%v); attributevalue %q (%v)", g, gerr, w, werr)
			}
			if werr == nil && !reflect.DeepEqual(got, want) {
				t.Errorf("decode = %+v; attributevalue %+v", got, want)
			}
		})
	}
}

func show(v types.AttributeValue) string {
	if v == nil {
		return "(missing)"
	}
	return ddb.AttrString(v)
}
