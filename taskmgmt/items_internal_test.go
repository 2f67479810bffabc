package taskmgmt

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestDecodeFastPath checks that decode's direct path reads every item it
// accepts exactly as attributevalue does, and that what it refuses still
// decodes (or fails) as attributevalue says.
func TestDecodeFastPath(t *testing.T) {
	tbl := table("t")
	task := taskItem(Task{ID: "k", TeamID: "t", Title: "title", Description: "d", Status: StatusDoing, Start: "2025-01-01", End: "2025-01-02", TagIDs: []string{"a", "b"}})
	odd := func(base ddb.Item, attr string, v types.AttributeValue) ddb.Item {
		it := ddb.CloneItem(base)
		it[attr] = v
		return it
	}
	items := map[string]ddb.Item{
		"user":        userItem(User{ID: "u", Email: "e", Name: "n", Image: "i", CreatedAt: "2025-01-01"}),
		"team":        teamItem(Team{ID: "t", Name: "n", Description: "d"}),
		"user_team":   userTeamItem(Membership{UserID: "u", TeamID: "t", TeamName: "n", Role: RoleAdmin, JoinedAt: "2025-01-01"}),
		"team_user":   teamUserItem(Member{TeamID: "t", UserID: "u", UserName: "n", Role: RoleMember, JoinedAt: "2025-01-01"}),
		"tag":         tagItem(Tag{ID: "g", TeamID: "t", Name: "n", Color: Color{Color: "c", BackgroundColor: "b"}}),
		"task":        task,
		"counter":     counterItem("t", DailyCount{Date: "2025-01-01", Counts: Counts{Todo: 1, Doing: -2, Done: 3}}),
		"unknown":     odd(task, "other", &types.AttributeValueMemberBOOL{Value: true}),
		"N float":     odd(counterItem("t", DailyCount{}), "todo", &types.AttributeValueMemberN{Value: "5.0"}),
		"N big":       odd(counterItem("t", DailyCount{}), "expiresAt", &types.AttributeValueMemberN{Value: "99999999999999999999"}),
		"NULL":        odd(task, attrTitle, &types.AttributeValueMemberNULL{Value: true}),
		"tags as L":   odd(task, attrTagRef, &types.AttributeValueMemberL{Value: []types.AttributeValue{s("TAG#a")}}),
		"N as S":      odd(task, attrTitle, &types.AttributeValueMemberN{Value: "1"}),
		"S as N":      odd(counterItem("t", DailyCount{}), "done", s("1")),
		"color not M": odd(tagItem(Tag{ID: "g", TeamID: "t"}), attrTagColor, s("red")),
		"color extra": odd(tagItem(Tag{ID: "g", TeamID: "t"}), attrTagColor,
			&types.AttributeValueMemberM{Value: ddb.Item{"color": s("c"), "other": &types.AttributeValueMemberN{Value: "1"}}}),
		"color wrong": odd(tagItem(Tag{ID: "g", TeamID: "t"}), attrTagColor,
			&types.AttributeValueMemberM{Value: ddb.Item{"color": &types.AttributeValueMemberN{Value: "1"}}}),
	}
	for name, item := range items {
		t.Run(name, func(t *testing.T) {
			var want stored
			werr := ddb.Unmarshal(tbl, item, &want)
			got, gerr := decode(tbl, item)
			if (werr == nil) != (gerr == nil) || (werr == nil && !reflect.DeepEqual(got, want)) {
				t.Errorf("decode = %+v, %v; attributevalue %+v, %v", got, gerr, want, werr)
			}
		})
	}
	inv := invitationItem(Invitation{ID: "i", TeamID: "t", Email: "e", Role: RoleMember, InvitedBy: "u", Token: "x", TeamName: "n"})
	for name, item := range map[string]ddb.Item{
		"invitation": inv,
		"N as S":     odd(inv, attrInvExpiresAt, s("1")),
		"N float":    odd(inv, attrCreatedAt, &types.AttributeValueMemberN{Value: "1.0"}),
	} {
		t.Run("invitation "+name, func(t *testing.T) {
			var want storedInvitation
			werr := ddb.Unmarshal(tbl, item, &want)
			var got storedInvitation
			ok := got.fast(item)
			if ok && (werr != nil || !reflect.DeepEqual(got, want)) {
				t.Errorf("fast = %+v; attributevalue %+v, %v", got, want, werr)
			}
		})
	}
}
