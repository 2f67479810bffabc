package taskmgmt_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestLegacyNulls: the seed's app may store null (JavaScript's) where a
// value is missing. A user whose user_name is NULL reads as "" and can
// still create a team (the name copy's check takes NULL for ""), and a
// daily counter whose expiresAt is NULL never expires (DynamoDB's TTL
// ignores it) and is listed. On DynamoDB Local the items are put raw; the
// memory store's Import writes each item as the DynamoDB store would (a
// NULL it reads as missing is left out), so there the test holds the
// reads after an import alike.
func TestLegacyNulls(t *testing.T) {
	ctx := t.Context()
	null := &types.AttributeValueMemberNULL{Value: true}
	user := item{"PK": S("USER#u1"), "SK": S("USER#u1"), "type": S("user"), "user_email": S("a@example.com"), "user_name": null}
	team := item{"PK": S("TEAM#t1"), "SK": S("TEAM#t1"), "type": S("team"), "team_name": S("team"), "team_discription": S("")}
	counter := item{"PK": S("TEAM#t1"), "SK": S("COUNTER#2025-11-01"), "type": S("counter"), "todo": N(1), "doing": N(0), "done": N(0), "expiresAt": null}

	s, c, table := newDynamo(t, nil, deterministic)
	for _, it := range []item{user, team, counter} {
		putRaw(t, c, table, it)
	}
	mem := taskmgmt.NewMemoryStore(deterministic)
	if err := mem.Import(ddbkit.TableItems{taskmgmt.DefaultTableName: {user, team, counter}}); err != nil {
		t.Fatal(err)
	}
	for name, st := range map[string]taskmgmt.Store{"dynamo": s, "memory": mem} {
		if _, err := st.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "new"}); err != nil {
			t.Errorf("%s: CreateTeam by a user whose name is NULL: %v", name, err)
		}
		p, err := st.ListDailyCounts(ctx, "t1", taskmgmt.DailyQuery{})
		if err != nil || len(p.Items) != 1 || p.Items[0].Todo != 1 {
			t.Errorf("%s: ListDailyCounts with a NULL expiresAt = %+v, %v; want the counter", name, p.Items, err)
		}
	}
}
