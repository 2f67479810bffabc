package taskmgmt_test

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"
	"github.com/guregu/dynamo/v2"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/bench"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// The items as seed 001 lays them out, with their keys: what the
// hand-written and guregu variants decode into and write.

type userRec struct {
	PK        string `dynamodbav:"PK" dynamo:"PK"`
	SK        string `dynamodbav:"SK" dynamo:"SK"`
	Type      string `dynamodbav:"type" dynamo:"type"`
	Email     string `dynamodbav:"user_email" dynamo:"user_email"`
	Name      string `dynamodbav:"user_name" dynamo:"user_name"`
	Image     string `dynamodbav:"user_image" dynamo:"user_image"`
	CreatedAt string `dynamodbav:"user_createdAt" dynamo:"user_createdAt"`
}

type teamRec struct {
	PK   string `dynamodbav:"PK" dynamo:"PK"`
	SK   string `dynamodbav:"SK" dynamo:"SK"`
	Type string `dynamodbav:"type" dynamo:"type"`
	Name string `dynamodbav:"team_name" dynamo:"team_name"`
	Desc string `dynamodbav:"team_discription" dynamo:"team_discription"`
}

// memberRec is a team_user item (userName set) or a user_team item
// (teamName set).
type memberRec struct {
	PK       string `dynamodbav:"PK" dynamo:"PK"`
	SK       string `dynamodbav:"SK" dynamo:"SK"`
	Type     string `dynamodbav:"type" dynamo:"type"`
	Role     string `dynamodbav:"user_team_role" dynamo:"user_team_role"`
	JoinedAt string `dynamodbav:"user_team_joinedAt" dynamo:"user_team_joinedAt"`
	UserName string `dynamodbav:"user_name,omitempty" dynamo:"user_name,omitempty"`
	TeamName string `dynamodbav:"team_name,omitempty" dynamo:"team_name,omitempty"`
}

type colorRec struct {
	Color           string `dynamodbav:"color" dynamo:"color"`
	BackgroundColor string `dynamodbav:"backgroundColor" dynamo:"backgroundColor"`
}

type tagRec struct {
	PK    string   `dynamodbav:"PK" dynamo:"PK"`
	SK    string   `dynamodbav:"SK" dynamo:"SK"`
	Type  string   `dynamodbav:"type" dynamo:"type"`
	Name  string   `dynamodbav:"team_tag_name" dynamo:"team_tag_name"`
	Color colorRec `dynamodbav:"team_tag_color" dynamo:"team_tag_color"`
}

type taskRec struct {
	PK      string   `dynamodbav:"PK" dynamo:"PK"`
	SK      string   `dynamodbav:"SK" dynamo:"SK"`
	Type    string   `dynamodbav:"type" dynamo:"type"`
	Title   string   `dynamodbav:"team_task_title" dynamo:"team_task_title"`
	Desc    string   `dynamodbav:"team_task_discription" dynamo:"team_task_discription"`
	Status  string   `dynamodbav:"team_task_status" dynamo:"team_task_status"`
	Start   string   `dynamodbav:"team_task_startTime" dynamo:"team_task_startTime"`
	End     string   `dynamodbav:"team_task_endTime" dynamo:"team_task_endTime"`
	TagRef  []string `dynamodbav:"team_task_tagRef,stringset,omitempty" dynamo:"team_task_tagRef,set,omitempty"`
	G1      string   `dynamodbav:"status_group1" dynamo:"status_group1"`
	G2      string   `dynamodbav:"status_group2" dynamo:"status_group2"`
	G3      string   `dynamodbav:"status_group3" dynamo:"status_group3"`
	StartSK string   `dynamodbav:"start_sort_sk" dynamo:"start_sort_sk"`
	EndSK   string   `dynamodbav:"end_sort_sk" dynamo:"end_sort_sk"`
}

type counterRec struct {
	PK        string `dynamodbav:"PK" dynamo:"PK"`
	SK        string `dynamodbav:"SK" dynamo:"SK"`
	Type      string `dynamodbav:"type" dynamo:"type"`
	Todo      int    `dynamodbav:"todo" dynamo:"todo"`
	Doing     int    `dynamodbav:"doing" dynamo:"doing"`
	Done      int    `dynamodbav:"done" dynamo:"done"`
	ExpiresAt int64  `dynamodbav:"expiresAt,omitempty" dynamo:"expiresAt,omitempty"`
}

type invitationRec struct {
	PK        string `dynamodbav:"PK" dynamo:"PK"`
	SK        string `dynamodbav:"SK" dynamo:"SK"`
	Type      string `dynamodbav:"type" dynamo:"type"`
	Email     string `dynamodbav:"email" dynamo:"email"`
	Role      string `dynamodbav:"user_role" dynamo:"user_role"`
	CreatedAt int64  `dynamodbav:"createdAt" dynamo:"createdAt"`
	ExpiresAt int64  `dynamodbav:"expiresAt" dynamo:"expiresAt"`
	InvitedBy string `dynamodbav:"invitedBy" dynamo:"invitedBy"`
	Token     string `dynamodbav:"token" dynamo:"token"`
	TeamName  string `dynamodbav:"team_name" dynamo:"team_name"`
}

const (
	table      = "task-table-v3"
	invTable   = "task-table-invitation-v3"
	teamID     = "0192d3a1-7c4e-7b3a-9f21-8d5e6a4b3c21"
	teamPK     = "TEAM#" + teamID
	userID     = "auth0|5f7c8ec7c33c6c004bf8e2a1"
	userPK     = "USER#" + userID
	otherID    = "auth0|5f7c8ec7c33c6c004bf8e2b7"
	otherPK    = "USER#" + otherID
	tagID      = "0192d3a2-1b2c-7d3e-8f40-5a6b7c8d9e0f"
	tagSK      = "TAG#" + tagID
	inviteID   = "0192d3a5-0000-7000-8000-00000000cafe"
	inviteSK   = "TINVITE#" + inviteID
	inviteTok  = "q8Vb1nq0mZ7c1oJx4H2wYbQeT3sL9dKf0aUuPzR5vXE"
	teamName   = "開発チーム"
	userName   = "山田太郎"
	otherName  = "佐藤花子"
	createdDay = "2024-11-05"
)

// now is the benchmarks' clock: the overdue views and counters use its day.
var now = time.Date(2024, 11, 20, 3, 0, 0, 0, time.UTC)

func clock() time.Time { return now }

func taskID(i int) string { return fmt.Sprintf("0192d3a3-%04x-7000-8000-%012d", i%0x10000, i) }

var statuses = []string{"todo", "doing", "done"}

func groups(status string) [3]string {
	g := map[string][3]string{
		"todo":  {"todo", "todo_doing", "todo_done"},
		"doing": {"doing_done", "todo_doing", "doing"},
		"done":  {"doing_done", "done", "todo_done"},
	}[status]
	for i := range g {
		g[i] = teamPK + "#Status#" + g[i]
	}
	return g
}

func newTaskRec(id, title, desc, status, start, end string, tags []string) taskRec {
	g := groups(status)
	var refs []string
	for _, t := range tags {
		refs = append(refs, "TAG#"+t)
	}
	return taskRec{PK: teamPK, SK: "TASK#" + id, Type: "task", Title: title, Desc: desc, Status: status,
		Start: start, End: end, TagRef: refs, G1: g[0], G2: g[1], G3: g[2], StartSK: "START#" + start, EndSK: "END#" + end}
}

func stubTask(i int) taskRec {
	start := time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%30).Format(time.DateOnly)
	end := time.Date(2024, 11, 8, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%30).Format(time.DateOnly)
	return newTaskRec(taskID(i), "ログイン画面の実装", "メールアドレスとパスワードでログインできる画面を作る。バリデーションも含む。",
		statuses[i%2], start, end, []string{tagID})
}

func stubUser(pk, name string) userRec {
	return userRec{PK: pk, SK: pk, Type: "user", Email: "taro.yamada@example.com", Name: name,
		Image: "https://example.com/images/users/taro.png", CreatedAt: createdDay}
}

func stubTeam() teamRec {
	return teamRec{PK: teamPK, SK: teamPK, Type: "team", Name: teamName, Desc: "新サービスの開発を担当するチーム"}
}

func stubMember(i int) memberRec {
	return memberRec{PK: teamPK, SK: fmt.Sprintf("USER#auth0|%024d", i), Type: "team_user", Role: []string{"admin", "member"}[min(i, 1)],
		JoinedAt: createdDay, UserName: userName}
}

func stubMembership(i int) memberRec {
	return memberRec{PK: userPK, SK: "TEAM#" + taskID(i), Type: "user_team", Role: "member", JoinedAt: createdDay, TeamName: teamName}
}

func stubTag(i int) tagRec {
	return tagRec{PK: teamPK, SK: "TAG#" + taskID(i), Type: "team_tag", Name: "フロントエンド",
		Color: colorRec{Color: "#1E40AF", BackgroundColor: "#DBEAFE"}}
}

func stubDaily(i int) counterRec {
	day := time.Date(2024, 8, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i)
	return counterRec{PK: teamPK, SK: "COUNTER#" + day.Format(time.DateOnly), Type: "counter", Todo: 3, Doing: 2, Done: 5,
		ExpiresAt: day.AddDate(0, 0, 91).Unix()}
}

func stubInvitation(i int) invitationRec {
	created := now.Add(-time.Duration(i) * time.Minute).Unix()
	return invitationRec{PK: teamPK, SK: fmt.Sprintf("TINVITE#0192d3a5-%04x-7000-8000-%012d", 0xffff-i%0x10000, i), Type: "invitation",
		Email: "hanako.sato@example.com", Role: "member", CreatedAt: created, ExpiresAt: created + 86400,
		InvitedBy: userPK, Token: inviteTok, TeamName: teamName}
}

func itemJSON(v any) string {
	av, err := attributevalue.MarshalMap(v)
	if err != nil {
		panic(err)
	}
	return bench.ItemJSON(av)
}

// newStub answers GetItem with the item of the requested sort key among
// items (none when missing), Query with pages of list (honouring Limit),
// and every write with success.
func newStub(items []any, list []any) *bench.Stub {
	bySK := make(map[string][]byte)
	raw := make(map[string]string) // each item's JSON, by its sort key
	for _, it := range items {
		av, err := attributevalue.MarshalMap(it)
		if err != nil {
			panic(err)
		}
		sk := av["SK"].(*types.AttributeValueMemberS).Value
		raw[sk] = bench.ItemJSON(av)
		bySK[sk] = []byte(`{"Item":` + raw[sk] + `}`)
	}
	js := make([]string, len(list))
	for i, it := range list {
		js[i] = itemJSON(it)
	}
	return bench.NewStub().
		Handle("GetItem", func(req []byte) ([]byte, error) {
			var in struct {
				Key struct{ SK struct{ S string } }
			}
			if err := json.Unmarshal(req, &in); err != nil {
				return nil, err
			}
			if b, ok := bySK[in.Key.SK.S]; ok {
				return b, nil
			}
			return []byte(`{}`), nil
		}).
		Handle("Query", bench.QueryPages(js, func(esk map[string]string) int {
			for i, it := range list {
				av, _ := attributevalue.MarshalMap(it)
				if av["SK"].(*types.AttributeValueMemberS).Value == esk["SK"] {
					return i + 1
				}
			}
			return len(list)
		}, func(i int) string {
			av, _ := attributevalue.MarshalMap(list[i])
			return bench.ItemJSON(map[string]types.AttributeValue{"PK": av["PK"], "SK": av["SK"]})
		})).
		Handle("BatchGetItem", func(req []byte) ([]byte, error) {
			var in struct {
				RequestItems map[string]struct {
					Keys []struct{ SK struct{ S string } }
				}
			}
			if err := json.Unmarshal(req, &in); err != nil {
				return nil, err
			}
			var out []string
			for tbl, r := range in.RequestItems {
				var found []string
				for _, k := range r.Keys {
					if j, ok := raw[k.SK.S]; ok {
						found = append(found, j)
					}
				}
				out = append(out, strconv.Quote(tbl)+":["+strings.Join(found, ",")+"]")
			}
			return []byte(`{"Responses":{` + strings.Join(out, ",") + `},"UnprocessedKeys":{}}`), nil
		}).
		Handle("TransactWriteItems", bench.Canned(`{}`)).
		Handle("PutItem", bench.Canned(`{}`)).
		Handle("UpdateItem", bench.Canned(`{}`)).
		Handle("DeleteItem", bench.Canned(`{}`)).
		Handle("BatchWriteItem", bench.Canned(`{"UnprocessedItems":{}}`)).
		Handle("DescribeTable", bench.Canned(`{"Table":{"TableName":"`+table+`","TableStatus":"ACTIVE",`+
			`"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],`+
			`"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}]}}`))
}

func many[T any](n int, f func(int) T) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// The hand-written variants' small helpers, as one would write them.

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func nv(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": sv(pk), "SK": sv(sk)}
}

func getItem(ctx context.Context, c *dynamodb.Client, tbl, pk, sk string, out any) error {
	o, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tbl), Key: key(pk, sk), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return err
	}
	if o.Item == nil {
		return fmt.Errorf("not found: %s %s", pk, sk)
	}
	return attributevalue.UnmarshalMap(o.Item, out)
}

func query[T any](ctx context.Context, c *dynamodb.Client, in *dynamodb.QueryInput) error {
	o, err := c.Query(ctx, in)
	if err != nil {
		return err
	}
	var out []T
	err = attributevalue.UnmarshalListOfMaps(o.Items, &out)
	return wantPage(len(out), o.LastEvaluatedKey != nil, err)
}

func tx(ctx context.Context, c *dynamodb.Client, items ...types.TransactWriteItem) error {
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(uuid.NewString()), TransactItems: items})
	return err
}

// check is a ConditionCheck. One that checks values asks for the item as
// it was when it fails, as taskmgmt's do (to tell a missing item from one
// in another state); a bare existence check has nothing to ask for.
func check(tbl string, k map[string]types.AttributeValue, cond string, names map[string]string, vals map[string]types.AttributeValue) types.TransactWriteItem {
	c := &types.ConditionCheck{TableName: aws.String(tbl), Key: k,
		ConditionExpression: aws.String(cond), ExpressionAttributeNames: names, ExpressionAttributeValues: vals}
	if vals != nil {
		c.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	return types.TransactWriteItem{ConditionCheck: c}
}

// adminCheck is the check, in an operation's transaction, that the
// acting user (userID) is an admin of the team.
func adminCheck() types.TransactWriteItem {
	return check(table, key(teamPK, userPK), "attribute_exists(PK) AND #r = :admin", map[string]string{"#r": "user_team_role"},
		map[string]types.AttributeValue{":admin": sv("admin")})
}

// gureguAdminCheck is adminCheck with guregu.
func gureguAdminCheck(t dynamo.Table) *dynamo.ConditionCheck {
	return t.Check("PK", teamPK).Range("SK", userPK).If("attribute_exists(PK) AND $ = ?", "user_team_role", "admin")
}

// put puts a new item, asking for the one that holds its key when there
// is one, as taskmgmt's creates do.
func put(tbl string, item any) (types.TransactWriteItem, error) {
	av, err := attributevalue.MarshalMap(item)
	return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(tbl), Item: av,
		ConditionExpression:                 aws.String("attribute_not_exists(PK)"),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}, err
}

func update(tbl string, k map[string]types.AttributeValue, upd, cond string, names map[string]string, vals map[string]types.AttributeValue) types.TransactWriteItem {
	u := &types.Update{TableName: aws.String(tbl), Key: k, UpdateExpression: aws.String(upd),
		ExpressionAttributeNames: names, ExpressionAttributeValues: vals}
	if cond != "" {
		u.ConditionExpression = aws.String(cond)
	}
	return types.TransactWriteItem{Update: u}
}

// counterUpdates are the two counter updates of a task write: COUNTER#ALL,
// removing an expiresAt another writer may have set (as taskmgmt's does),
// and the day's, with its expiresAt (the day after, plus 90 days).
func counterUpdates(all, day [3]int64) []types.TransactWriteItem {
	upd := func(sk string, d [3]int64, exp int64) types.TransactWriteItem {
		vals := map[string]types.AttributeValue{":type": sv("counter"), ":todo": nv(d[0]), ":doing": nv(d[1]), ":done": nv(d[2])}
		expr := "SET #type = :type REMOVE expiresAt ADD todo :todo, doing :doing, done :done"
		if exp != 0 {
			vals[":exp"] = nv(exp)
			expr = "SET #type = :type, expiresAt = :exp ADD todo :todo, doing :doing, done :done"
		}
		return update(table, key(teamPK, sk), expr, "", map[string]string{"#type": "type"}, vals)
	}
	var out []types.TransactWriteItem
	if all != [3]int64{} {
		out = append(out, upd("COUNTER#ALL", all, 0))
	}
	if day != [3]int64{} {
		d := now.Truncate(24 * time.Hour)
		out = append(out, upd("COUNTER#"+d.Format(time.DateOnly), day, d.AddDate(0, 0, 91).Unix()))
	}
	return out
}

func gCounters(t dynamo.Table, w *dynamo.WriteTx, all, day [3]int64) *dynamo.WriteTx {
	if all != [3]int64{} {
		w = w.Update(t.Update("PK", teamPK).Range("SK", "COUNTER#ALL").Set("type", "counter").Remove("expiresAt").
			Add("todo", all[0]).Add("doing", all[1]).Add("done", all[2]))
	}
	if day != [3]int64{} {
		d := now.Truncate(24 * time.Hour)
		w = w.Update(t.Update("PK", teamPK).Range("SK", "COUNTER#"+d.Format(time.DateOnly)).Set("type", "counter").
			Set("expiresAt", d.AddDate(0, 0, 91).Unix()).Add("todo", day[0]).Add("doing", day[1]).Add("done", day[2]))
	}
	return w
}

// wantPage checks a 50-item page with a next cursor.
func wantPage(n int, more bool, err error) error {
	if err == nil && (n != 50 || !more) {
		err = fmt.Errorf("a page of %d items (more: %v), want 50 and more", n, more)
	}
	return err
}

type env struct {
	stub *bench.Stub
	s    *taskmgmt.DynamoStore
	// traced is s with a recording OpenTelemetry SDK (bench.OTel).
	traced *taskmgmt.DynamoStore
	c      *dynamodb.Client
	db     *dynamo.DB
	t      dynamo.Table
	it     dynamo.Table
}

func newEnv(items, list []any) env {
	stub := newStub(items, list)
	db := dynamo.New(stub.Config())
	return env{stub: stub, c: stub.Client(), db: db, t: db.Table(table), it: db.Table(invTable),
		s:      taskmgmt.NewDynamoStore(stub.Client(), func(o *taskmgmt.Options) { o.Clock = clock }),
		traced: taskmgmt.NewDynamoStore(stub.Client(), func(o *taskmgmt.Options) { o.Clock = clock; o.TracerProvider, o.MeterProvider = bench.OTel() })}
}

func (e env) compare(b *testing.B, ddbkit, handwritten, guregu, otel func(i int) error) {
	b.Helper()
	bench.Compare(b, e.stub,
		bench.Variant{Name: "ddbkit", Op: ddbkit},
		bench.Variant{Name: "handwritten", Op: handwritten},
		bench.Variant{Name: "guregu", Op: guregu},
		bench.Variant{Name: "otel", Op: otel, Overhead: true})
}

func noErr[T any](_ T, err error) error { return err }

// BenchmarkTaskmgmt compares each operation of taskmgmt's DynamoStore with
// the same calls written by hand on aws-sdk-go-v2 and with guregu/dynamo
// v2, on a stub transport.
func BenchmarkTaskmgmt(b *testing.B) {
	ctx := context.Background()
	task0 := stubTask(0)
	task0.Status = "todo"

	b.Run("GetTask", func(b *testing.B) {
		e := newEnv([]any{task0}, nil)
		e.compare(b, func(int) error { return noErr(e.s.GetTask(ctx, teamID, taskID(0))) },
			func(int) error { var t taskRec; return getItem(ctx, e.c, table, teamPK, "TASK#"+taskID(0), &t) },
			func(int) error {
				var t taskRec
				return e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, "TASK#"+taskID(0)).Consistent(true).One(ctx, &t)
			},
			func(int) error { return noErr(e.traced.GetTask(ctx, teamID, taskID(0))) })
	})

	boards := []struct {
		name, index, pk, sortCond, sortVal string
		q                                  taskmgmt.BoardQuery
		tag                                bool
	}{
		{"ListBoardInitial50", "GSI_Status_Start_Sort_Group2", teamPK + "#Status#todo_doing", "", "",
			taskmgmt.BoardQuery{View: taskmgmt.ViewInitial}, false},
		{"ListBoardTodoTag50", "GSI_Status_Start_Sort_Group1", teamPK + "#Status#todo", "", "",
			taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{tagID}}, true},
		{"ListBoardAll50", "GSI_Status_Start_Sort_All", teamPK, "", "",
			taskmgmt.BoardQuery{View: taskmgmt.ViewAll}, false},
		{"ListBoardEndOverdue50", "GSI_Status_End_Sort_Group2", teamPK + "#Status#todo_doing", "end_sort_sk", "END#2024-11-20",
			taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue}, false},
	}
	for _, v := range boards {
		b.Run(v.name, func(b *testing.B) {
			e := newEnv(nil, many(200, stubTask))
			// The partition key attribute of each board index (the
			// seed's table: All on PK, Group1-3 on status_groupN).
			pk := taskmgmt.AttrPK
			for _, g := range []string{taskmgmt.AttrStatusGroup1, taskmgmt.AttrStatusGroup2, taskmgmt.AttrStatusGroup3} {
				if strings.HasSuffix(v.index, "_Group"+g[len(g)-1:]) {
					pk = g
				}
			}
			q := v.q
			q.Limit = 50
			e.compare(b, func(int) error {
				p, err := e.s.ListBoard(ctx, teamID, q)
				return wantPage(len(p.Items), p.Next != "", err)
			}, func(int) error {
				in := &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String(v.index),
					KeyConditionExpression:    aws.String("#pk = :pk"),
					ExpressionAttributeNames:  map[string]string{"#pk": pk},
					ExpressionAttributeValues: map[string]types.AttributeValue{":pk": sv(v.pk)},
					Limit:                     aws.Int32(50)}
				if v.sortCond != "" {
					in.KeyConditionExpression = aws.String("#pk = :pk AND #sk < :sk")
					in.ExpressionAttributeNames["#sk"] = v.sortCond
					in.ExpressionAttributeValues[":sk"] = sv(v.sortVal)
				}
				if v.tag {
					in.FilterExpression = aws.String("contains(#tags, :tag)")
					in.ExpressionAttributeNames["#tags"] = "team_task_tagRef"
					in.ExpressionAttributeValues[":tag"] = sv(tagSK)
				}
				return query[taskRec](ctx, e.c, in)
			}, func(int) error {
				gq := e.t.Get(pk, v.pk).Index(v.index).SearchLimit(50)
				if v.sortCond != "" {
					gq = gq.Range(v.sortCond, dynamo.Less, v.sortVal)
				}
				if v.tag {
					gq = gq.Filter("contains($, ?)", "team_task_tagRef", tagSK)
				}
				var ts []taskRec
				next, err := gq.AllWithLastEvaluatedKey(ctx, &ts)
				return wantPage(len(ts), next != nil, err)
			},
				func(int) error {
					p, err := e.traced.ListBoard(ctx, teamID, q)
					return wantPage(len(p.Items), p.Next != "", err)
				})
		})
	}

	b.Run("CreateTask", func(b *testing.B) {
		e := newEnv(nil, nil)
		in := taskmgmt.NewTask{Title: "ログイン画面の実装", Description: "メールアドレスとパスワードでログインできる画面を作る。バリデーションも含む。",
			Status: taskmgmt.StatusTodo, Start: "2024-11-20", End: "2024-11-27", TagIDs: []string{tagID}}
		newRec := func() taskRec {
			return newTaskRec(uuid.Must(uuid.NewV7()).String(), in.Title, in.Description, "todo", "2024-11-20", "2024-11-27", []string{tagID})
		}
		exists := "attribute_exists(PK)"
		e.compare(b, func(int) error { return noErr(e.s.CreateTask(ctx, teamID, in)) },
			func(int) error {
				p, err := put(table, newRec())
				if err != nil {
					return err
				}
				return tx(ctx, e.c, append([]types.TransactWriteItem{
					check(table, key(teamPK, teamPK), exists, nil, nil),
					check(table, key(teamPK, tagSK), exists, nil, nil),
					p}, counterUpdates([3]int64{1, 0, 0}, [3]int64{1, 0, 0})...)...)
			},
			func(int) error {
				w := e.db.WriteTx().
					Check(e.t.Check("PK", teamPK).Range("SK", teamPK).IfExists()).
					Check(e.t.Check("PK", teamPK).Range("SK", tagSK).IfExists()).
					Put(e.t.Put(newRec()).If("attribute_not_exists(PK)"))
				return gCounters(e.t, w, [3]int64{1, 0, 0}, [3]int64{1, 0, 0}).Idempotent(true).Run(ctx)
			},
			func(int) error { return noErr(e.traced.CreateTask(ctx, teamID, in)) })
	})

	// UpdateTaskStatus moves a task from todo to doing, and back on the
	// next call (the stub always answers with the todo task, so each call
	// makes the same move).
	b.Run("UpdateTaskStatus", func(b *testing.B) {
		e := newEnv([]any{task0}, nil)
		doing := taskmgmt.StatusDoing
		cond := "attribute_exists(PK) AND #st = :old AND #start = :start AND #end = :end"
		e.compare(b, func(int) error {
			return noErr(e.s.UpdateTask(ctx, teamID, taskID(0), taskmgmt.TaskPatch{Status: &doing}))
		}, func(int) error {
			var t taskRec
			if err := getItem(ctx, e.c, table, teamPK, "TASK#"+taskID(0), &t); err != nil {
				return err
			}
			g := groups("doing")
			return tx(ctx, e.c, append([]types.TransactWriteItem{
				update(table, key(teamPK, t.SK),
					"SET #st = :st, status_group1 = :g1, status_group2 = :g2, status_group3 = :g3, start_sort_sk = :ss, end_sort_sk = :es", cond,
					map[string]string{"#st": "team_task_status", "#start": "team_task_startTime", "#end": "team_task_endTime"},
					map[string]types.AttributeValue{":st": sv("doing"), ":g1": sv(g[0]), ":g2": sv(g[1]), ":g3": sv(g[2]),
						":ss": sv("START#" + t.Start), ":es": sv("END#" + t.End),
						":old": sv(t.Status), ":start": sv(t.Start), ":end": sv(t.End)}),
			}, counterUpdates([3]int64{-1, 1, 0}, [3]int64{0, 1, 0})...)...)
		}, func(int) error {
			var t taskRec
			if err := e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, "TASK#"+taskID(0)).Consistent(true).One(ctx, &t); err != nil {
				return err
			}
			g := groups("doing")
			w := e.db.WriteTx().Update(e.t.Update("PK", teamPK).Range("SK", t.SK).
				Set("team_task_status", "doing").Set("status_group1", g[0]).Set("status_group2", g[1]).Set("status_group3", g[2]).
				Set("start_sort_sk", "START#"+t.Start).Set("end_sort_sk", "END#"+t.End).
				If("attribute_exists(PK) AND $ = ? AND $ = ? AND $ = ?", "team_task_status", t.Status,
					"team_task_startTime", t.Start, "team_task_endTime", t.End))
			return gCounters(e.t, w, [3]int64{-1, 1, 0}, [3]int64{0, 1, 0}).Idempotent(true).Run(ctx)
		},
			func(int) error {
				return noErr(e.traced.UpdateTask(ctx, teamID, taskID(0), taskmgmt.TaskPatch{Status: &doing}))
			})
	})

	b.Run("DeleteTask", func(b *testing.B) {
		e := newEnv([]any{task0}, nil)
		e.compare(b, func(int) error { return e.s.DeleteTask(ctx, teamID, taskID(0)) },
			func(int) error {
				var t taskRec
				if err := getItem(ctx, e.c, table, teamPK, "TASK#"+taskID(0), &t); err != nil {
					return err
				}
				return tx(ctx, e.c, append([]types.TransactWriteItem{{Delete: &types.Delete{TableName: aws.String(table), Key: key(teamPK, t.SK),
					ConditionExpression:       aws.String("attribute_exists(PK) AND #st = :st"),
					ExpressionAttributeNames:  map[string]string{"#st": "team_task_status"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":st": sv(t.Status)}}},
				}, counterUpdates([3]int64{-1, 0, 0}, [3]int64{})...)...)
			},
			func(int) error {
				var t taskRec
				if err := e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, "TASK#"+taskID(0)).Consistent(true).One(ctx, &t); err != nil {
					return err
				}
				w := e.db.WriteTx().Delete(e.t.Delete("PK", teamPK).Range("SK", t.SK).
					If("attribute_exists(PK) AND $ = ?", "team_task_status", t.Status))
				return gCounters(e.t, w, [3]int64{-1, 0, 0}, [3]int64{}).Idempotent(true).Run(ctx)
			},
			func(int) error { return e.traced.DeleteTask(ctx, teamID, taskID(0)) })
	})

	b.Run("GetUser", func(b *testing.B) {
		e := newEnv([]any{stubUser(userPK, userName)}, nil)
		e.compare(b, func(int) error { return noErr(e.s.GetUser(ctx, userID)) },
			func(int) error { var u userRec; return getItem(ctx, e.c, table, userPK, userPK, &u) },
			func(int) error {
				var u userRec
				return e.t.Get("PK", userPK).Range("SK", dynamo.Equal, userPK).Consistent(true).One(ctx, &u)
			},
			func(int) error { return noErr(e.traced.GetUser(ctx, userID)) })
	})

	b.Run("GetTeam", func(b *testing.B) {
		e := newEnv([]any{stubTeam()}, nil)
		e.compare(b, func(int) error { return noErr(e.s.GetTeam(ctx, teamID)) },
			func(int) error { var t teamRec; return getItem(ctx, e.c, table, teamPK, teamPK, &t) },
			func(int) error {
				var t teamRec
				return e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, teamPK).Consistent(true).One(ctx, &t)
			},
			func(int) error { return noErr(e.traced.GetTeam(ctx, teamID)) })
	})

	b.Run("GetCounts", func(b *testing.B) {
		e := newEnv([]any{counterRec{PK: teamPK, SK: "COUNTER#ALL", Type: "counter", Todo: 12, Doing: 5, Done: 40}}, nil)
		e.compare(b, func(int) error { return noErr(e.s.GetCounts(ctx, teamID)) },
			func(int) error { var c counterRec; return getItem(ctx, e.c, table, teamPK, "COUNTER#ALL", &c) },
			func(int) error {
				var c counterRec
				return e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, "COUNTER#ALL").Consistent(true).One(ctx, &c)
			},
			func(int) error { return noErr(e.traced.GetCounts(ctx, teamID)) })
	})

	// The base-table listings: a partition's items under a sort-key prefix.
	lists := []struct {
		name, pk, prefix string
		list             []any
		ddbkit           func() (int, bool, error)
		decode           func(*dynamodb.QueryInput) error
		guregu           func(q *dynamo.Query) (int, bool, error)
	}{
		{name: "ListMembers50", pk: teamPK, prefix: "USER#", list: many(200, stubMember)},
		{name: "ListUserTeams50", pk: userPK, prefix: "TEAM#", list: many(200, stubMembership)},
		{name: "ListTags50", pk: teamPK, prefix: "TAG#", list: many(200, stubTag)},
	}
	for _, l := range lists {
		b.Run(l.name, func(b *testing.B) {
			e := newEnv(nil, l.list)
			po := ddbkit.PageOptions{Limit: 50}
			var dk func(s *taskmgmt.DynamoStore) (int, bool, error)
			var hw func(*dynamodb.QueryInput) error
			var gg func(q *dynamo.Query) (int, bool, error)
			switch l.name {
			case "ListMembers50":
				dk = func(s *taskmgmt.DynamoStore) (int, bool, error) {
					p, err := s.ListMembers(ctx, teamID, po)
					return len(p.Items), p.Next != "", err
				}
				hw = func(in *dynamodb.QueryInput) error { return query[memberRec](ctx, e.c, in) }
				gg = func(q *dynamo.Query) (int, bool, error) {
					var ms []memberRec
					next, err := q.AllWithLastEvaluatedKey(ctx, &ms)
					return len(ms), next != nil, err
				}
			case "ListUserTeams50":
				dk = func(s *taskmgmt.DynamoStore) (int, bool, error) {
					p, err := s.ListUserTeams(ctx, userID, po)
					return len(p.Items), p.Next != "", err
				}
				hw = func(in *dynamodb.QueryInput) error { return query[memberRec](ctx, e.c, in) }
				gg = func(q *dynamo.Query) (int, bool, error) {
					var ms []memberRec
					next, err := q.AllWithLastEvaluatedKey(ctx, &ms)
					return len(ms), next != nil, err
				}
			case "ListTags50":
				dk = func(s *taskmgmt.DynamoStore) (int, bool, error) {
					p, err := s.ListTags(ctx, teamID, po)
					return len(p.Items), p.Next != "", err
				}
				hw = func(in *dynamodb.QueryInput) error { return query[tagRec](ctx, e.c, in) }
				gg = func(q *dynamo.Query) (int, bool, error) {
					var ts []tagRec
					next, err := q.AllWithLastEvaluatedKey(ctx, &ts)
					return len(ts), next != nil, err
				}
			}
			e.compare(b, func(int) error { return wantPage(dk(e.s)) },
				func(int) error {
					return hw(&dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
						KeyConditionExpression:   aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
						ExpressionAttributeNames: map[string]string{"#pk": "PK", "#sk": "SK"},
						ExpressionAttributeValues: map[string]types.AttributeValue{
							":pk": sv(l.pk), ":sk": sv(l.prefix)},
						Limit: aws.Int32(50)})
				},
				func(int) error {
					return wantPage(gg(e.t.Get("PK", l.pk).Range("SK", dynamo.BeginsWith, l.prefix).Consistent(true).SearchLimit(50)))
				},
				func(int) error { return wantPage(dk(e.traced)) })
		})
	}

	b.Run("ListDailyCounts50", func(b *testing.B) {
		e := newEnv(nil, many(200, stubDaily))
		q := taskmgmt.DailyQuery{From: "2024-08-01", To: "2024-11-20", PageOptions: ddbkit.PageOptions{Limit: 50}}
		e.compare(b, func(int) error {
			p, err := e.s.ListDailyCounts(ctx, teamID, q)
			return wantPage(len(p.Items), p.Next != "", err)
		}, func(int) error {
			return query[counterRec](ctx, e.c, &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
				KeyConditionExpression:   aws.String("#pk = :pk AND #sk BETWEEN :from AND :to"),
				FilterExpression:         aws.String("attribute_not_exists(#exp) OR #exp > :now"),
				ExpressionAttributeNames: map[string]string{"#pk": "PK", "#sk": "SK", "#exp": "expiresAt"},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":pk": sv(teamPK), ":from": sv("COUNTER#2024-08-01"), ":to": sv("COUNTER#2024-11-20"), ":now": nv(now.Unix())},
				Limit: aws.Int32(50)})
		}, func(int) error {
			var cs []counterRec
			next, err := e.t.Get("PK", teamPK).Range("SK", dynamo.Between, "COUNTER#2024-08-01", "COUNTER#2024-11-20").
				Filter("attribute_not_exists($) OR $ > ?", "expiresAt", "expiresAt", now.Unix()).
				Consistent(true).SearchLimit(50).AllWithLastEvaluatedKey(ctx, &cs)
			return wantPage(len(cs), next != nil, err)
		},
			func(int) error {
				p, err := e.traced.ListDailyCounts(ctx, teamID, q)
				return wantPage(len(p.Items), p.Next != "", err)
			})
	})

	b.Run("CreateUser", func(b *testing.B) {
		e := newEnv(nil, nil)
		in := taskmgmt.NewUser{ID: userID, Email: "taro.yamada@example.com", Name: userName, Image: "https://example.com/images/users/taro.png"}
		rec := func() userRec {
			u := stubUser(userPK, userName)
			u.CreatedAt = now.Format(time.DateOnly)
			return u
		}
		// A one-item transaction with a token (ddb.PutNew): the only way to
		// tell one's own retry from another caller's create.
		e.compare(b, func(int) error { return noErr(e.s.CreateUser(ctx, in)) },
			func(int) error {
				it, err := put(table, rec())
				if err != nil {
					return err
				}
				return tx(ctx, e.c, it)
			},
			func(int) error {
				return e.db.WriteTx().Put(e.t.Put(rec()).If("attribute_not_exists(PK)")).Idempotent(true).Run(ctx)
			},
			func(int) error { return noErr(e.traced.CreateUser(ctx, in)) })
	})

	today := now.Format(time.DateOnly)
	b.Run("CreateTeam", func(b *testing.B) {
		e := newEnv([]any{stubUser(userPK, userName)}, nil)
		in := taskmgmt.NewTeam{Name: teamName, Description: "新サービスの開発を担当するチーム"}
		e.compare(b, func(int) error { return noErr(e.s.CreateTeam(ctx, userID, in)) },
			func(int) error {
				var u userRec
				if err := getItem(ctx, e.c, table, userPK, userPK, &u); err != nil {
					return err
				}
				pk := "TEAM#" + uuid.Must(uuid.NewV7()).String()
				t, err1 := put(table, teamRec{PK: pk, SK: pk, Type: "team", Name: in.Name, Desc: in.Description})
				ut, err2 := put(table, memberRec{PK: userPK, SK: pk, Type: "user_team", Role: "admin", JoinedAt: today, TeamName: in.Name})
				tu, err3 := put(table, memberRec{PK: pk, SK: userPK, Type: "team_user", Role: "admin", JoinedAt: today, UserName: u.Name})
				if err := firstErr(err1, err2, err3); err != nil {
					return err
				}
				return tx(ctx, e.c, check(table, key(userPK, userPK), "attribute_exists(PK) AND #n = :n",
					map[string]string{"#n": "user_name"}, map[string]types.AttributeValue{":n": sv(u.Name)}), t, ut, tu)
			},
			func(int) error {
				var u userRec
				if err := e.t.Get("PK", userPK).Range("SK", dynamo.Equal, userPK).Consistent(true).One(ctx, &u); err != nil {
					return err
				}
				pk := "TEAM#" + uuid.Must(uuid.NewV7()).String()
				return e.db.WriteTx().
					Check(e.t.Check("PK", userPK).Range("SK", userPK).If("attribute_exists(PK) AND $ = ?", "user_name", u.Name)).
					Put(e.t.Put(teamRec{PK: pk, SK: pk, Type: "team", Name: in.Name, Desc: in.Description}).If("attribute_not_exists(PK)")).
					Put(e.t.Put(memberRec{PK: userPK, SK: pk, Type: "user_team", Role: "admin", JoinedAt: today, TeamName: in.Name}).If("attribute_not_exists(PK)")).
					Put(e.t.Put(memberRec{PK: pk, SK: userPK, Type: "team_user", Role: "admin", JoinedAt: today, UserName: u.Name}).If("attribute_not_exists(PK)")).
					Idempotent(true).Run(ctx)
			},
			func(int) error { return noErr(e.traced.CreateTeam(ctx, userID, in)) })
	})

	b.Run("AddMember", func(b *testing.B) {
		e := newEnv([]any{stubTeam(), stubUser(otherPK, otherName)}, nil)
		e.compare(b, func(int) error { return noErr(e.s.AddMember(ctx, teamID, userID, otherID, taskmgmt.RoleMember)) },
			func(int) error {
				var t teamRec
				var u userRec
				if err := firstErr(getItem(ctx, e.c, table, teamPK, teamPK, &t), getItem(ctx, e.c, table, otherPK, otherPK, &u)); err != nil {
					return err
				}
				ut, err1 := put(table, memberRec{PK: otherPK, SK: teamPK, Type: "user_team", Role: "member", JoinedAt: today, TeamName: t.Name})
				tu, err2 := put(table, memberRec{PK: teamPK, SK: otherPK, Type: "team_user", Role: "member", JoinedAt: today, UserName: u.Name})
				if err := firstErr(err1, err2); err != nil {
					return err
				}
				return tx(ctx, e.c, adminCheck(),
					check(table, key(teamPK, teamPK), "attribute_exists(PK) AND #n = :n",
						map[string]string{"#n": "team_name"}, map[string]types.AttributeValue{":n": sv(t.Name)}),
					check(table, key(otherPK, otherPK), "attribute_exists(PK) AND #n = :n",
						map[string]string{"#n": "user_name"}, map[string]types.AttributeValue{":n": sv(u.Name)}), ut, tu)
			},
			func(int) error {
				var t teamRec
				var u userRec
				if err := firstErr(e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, teamPK).Consistent(true).One(ctx, &t),
					e.t.Get("PK", otherPK).Range("SK", dynamo.Equal, otherPK).Consistent(true).One(ctx, &u)); err != nil {
					return err
				}
				return e.db.WriteTx().
					Check(gureguAdminCheck(e.t)).
					Check(e.t.Check("PK", teamPK).Range("SK", teamPK).If("attribute_exists(PK) AND $ = ?", "team_name", t.Name)).
					Check(e.t.Check("PK", otherPK).Range("SK", otherPK).If("attribute_exists(PK) AND $ = ?", "user_name", u.Name)).
					Put(e.t.Put(memberRec{PK: otherPK, SK: teamPK, Type: "user_team", Role: "member", JoinedAt: today, TeamName: t.Name}).If("attribute_not_exists(PK)")).
					Put(e.t.Put(memberRec{PK: teamPK, SK: otherPK, Type: "team_user", Role: "member", JoinedAt: today, UserName: u.Name}).If("attribute_not_exists(PK)")).
					Idempotent(true).Run(ctx)
			},
			func(int) error { return noErr(e.traced.AddMember(ctx, teamID, userID, otherID, taskmgmt.RoleMember)) })
	})

	member := memberRec{PK: teamPK, SK: otherPK, Type: "team_user", Role: "member", JoinedAt: createdDay, UserName: otherName}
	b.Run("SetRole", func(b *testing.B) {
		e := newEnv([]any{member}, nil)
		names := map[string]string{"#r": "user_team_role"}
		e.compare(b, func(int) error { return noErr(e.s.SetRole(ctx, teamID, userID, otherID, taskmgmt.RoleAdmin)) },
			func(int) error {
				var m memberRec
				if err := getItem(ctx, e.c, table, teamPK, otherPK, &m); err != nil {
					return err
				}
				return tx(ctx, e.c, adminCheck(),
					update(table, key(teamPK, otherPK), "SET #r = :r", "#r = :old", names,
						map[string]types.AttributeValue{":r": sv("admin"), ":old": sv(m.Role)}),
					update(table, key(otherPK, teamPK), "SET #r = :r", "attribute_exists(PK)", names,
						map[string]types.AttributeValue{":r": sv("admin")}))
			},
			func(int) error {
				var m memberRec
				if err := e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, otherPK).Consistent(true).One(ctx, &m); err != nil {
					return err
				}
				return e.db.WriteTx().
					Check(gureguAdminCheck(e.t)).
					Update(e.t.Update("PK", teamPK).Range("SK", otherPK).Set("user_team_role", "admin").If("$ = ?", "user_team_role", m.Role)).
					Update(e.t.Update("PK", otherPK).Range("SK", teamPK).Set("user_team_role", "admin").If("attribute_exists(PK)")).
					Idempotent(true).Run(ctx)
			},
			func(int) error { return noErr(e.traced.SetRole(ctx, teamID, userID, otherID, taskmgmt.RoleAdmin)) })
	})

	b.Run("RemoveMember", func(b *testing.B) {
		e := newEnv([]any{member}, nil)
		e.compare(b, func(int) error { return e.s.RemoveMember(ctx, teamID, userID, otherID) },
			func(int) error {
				var m memberRec
				if err := getItem(ctx, e.c, table, teamPK, otherPK, &m); err != nil {
					return err
				}
				return tx(ctx, e.c, adminCheck(),
					types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(table), Key: key(teamPK, otherPK),
						ConditionExpression: aws.String("#r = :r"), ExpressionAttributeNames: map[string]string{"#r": "user_team_role"},
						ExpressionAttributeValues: map[string]types.AttributeValue{":r": sv(m.Role)}}},
					types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(table), Key: key(otherPK, teamPK)}})
			},
			func(int) error {
				var m memberRec
				if err := e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, otherPK).Consistent(true).One(ctx, &m); err != nil {
					return err
				}
				return e.db.WriteTx().
					Check(gureguAdminCheck(e.t)).
					Delete(e.t.Delete("PK", teamPK).Range("SK", otherPK).If("$ = ?", "user_team_role", m.Role)).
					Delete(e.t.Delete("PK", otherPK).Range("SK", teamPK)).
					Idempotent(true).Run(ctx)
			},
			func(int) error { return e.traced.RemoveMember(ctx, teamID, userID, otherID) })
	})

	b.Run("CreateTag", func(b *testing.B) {
		e := newEnv(nil, nil)
		in := taskmgmt.NewTag{Name: "フロントエンド", Color: taskmgmt.Color{Color: "#1E40AF", BackgroundColor: "#DBEAFE"}}
		rec := func() tagRec {
			return tagRec{PK: teamPK, SK: "TAG#" + uuid.Must(uuid.NewV7()).String(), Type: "team_tag", Name: in.Name,
				Color: colorRec{Color: in.Color.Color, BackgroundColor: in.Color.BackgroundColor}}
		}
		e.compare(b, func(int) error { return noErr(e.s.CreateTag(ctx, teamID, in)) },
			func(int) error {
				p, err := put(table, rec())
				if err != nil {
					return err
				}
				return tx(ctx, e.c, check(table, key(teamPK, teamPK), "attribute_exists(PK)", nil, nil), p)
			},
			func(int) error {
				return e.db.WriteTx().Check(e.t.Check("PK", teamPK).Range("SK", teamPK).IfExists()).
					Put(e.t.Put(rec()).If("attribute_not_exists(PK)")).Idempotent(true).Run(ctx)
			},
			func(int) error { return noErr(e.traced.CreateTag(ctx, teamID, in)) })
	})

	inv := stubInvitation(0)
	inv.SK = inviteSK
	b.Run("GetInvitation", func(b *testing.B) {
		e := newEnv([]any{inv}, nil)
		e.compare(b, func(int) error { return noErr(e.s.GetInvitation(ctx, teamID, inviteID)) },
			func(int) error { var r invitationRec; return getItem(ctx, e.c, invTable, teamPK, inviteSK, &r) },
			func(int) error {
				var r invitationRec
				return e.it.Get("PK", teamPK).Range("SK", dynamo.Equal, inviteSK).Consistent(true).One(ctx, &r)
			},
			func(int) error { return noErr(e.traced.GetInvitation(ctx, teamID, inviteID)) })
	})

	b.Run("ListInvitations50", func(b *testing.B) {
		e := newEnv(nil, many(200, stubInvitation))
		e.compare(b, func(int) error {
			p, err := e.s.ListInvitations(ctx, teamID, ddbkit.PageOptions{Limit: 50})
			return wantPage(len(p.Items), p.Next != "", err)
		}, func(int) error {
			return query[invitationRec](ctx, e.c, &dynamodb.QueryInput{TableName: aws.String(invTable), ConsistentRead: aws.Bool(true),
				KeyConditionExpression:   aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
				FilterExpression:         aws.String("#exp > :now"),
				ExpressionAttributeNames: map[string]string{"#pk": "PK", "#sk": "SK", "#exp": "expiresAt"},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":pk": sv(teamPK), ":sk": sv("TINVITE#"), ":now": nv(now.Unix())},
				ScanIndexForward: aws.Bool(false), Limit: aws.Int32(50)})
		}, func(int) error {
			var rs []invitationRec
			next, err := e.it.Get("PK", teamPK).Range("SK", dynamo.BeginsWith, "TINVITE#").Filter("$ > ?", "expiresAt", now.Unix()).
				Order(dynamo.Descending).Consistent(true).SearchLimit(50).AllWithLastEvaluatedKey(ctx, &rs)
			return wantPage(len(rs), next != nil, err)
		},
			func(int) error {
				p, err := e.traced.ListInvitations(ctx, teamID, ddbkit.PageOptions{Limit: 50})
				return wantPage(len(p.Items), p.Next != "", err)
			})
	})

	// Invite replaces one earlier invitation of the address.
	b.Run("Invite", func(b *testing.B) {
		admin := memberRec{PK: teamPK, SK: userPK, Type: "team_user", Role: "admin", JoinedAt: createdDay, UserName: userName}
		e := newEnv([]any{stubTeam(), admin}, []any{stubInvitation(1)})
		email := "hanako.sato@example.com"
		newInv := func(t teamRec) invitationRec {
			created := now.Unix()
			return invitationRec{PK: teamPK, SK: "TINVITE#" + uuid.Must(uuid.NewV7()).String(), Type: "invitation", Email: email,
				Role: "member", CreatedAt: created, ExpiresAt: created + 86400, InvitedBy: userPK, Token: newToken(), TeamName: t.Name}
		}
		e.compare(b, func(int) error {
			return noErr(e.s.Invite(ctx, teamID, userID, taskmgmt.NewInvitation{Email: email}))
		}, func(int) error {
			var t teamRec
			if err := getItem(ctx, e.c, table, teamPK, teamPK, &t); err != nil {
				return err
			}
			out, err := e.c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(invTable), ConsistentRead: aws.Bool(true),
				KeyConditionExpression:   aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
				FilterExpression:         aws.String("#email = :email"),
				ExpressionAttributeNames: map[string]string{"#pk": "PK", "#sk": "SK", "#email": "email"},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":pk": sv(teamPK), ":sk": sv("TINVITE#"), ":email": sv(email)},
				ScanIndexForward: aws.Bool(false), Limit: aws.Int32(1001)})
			if err != nil {
				return err
			}
			items := []types.TransactWriteItem{
				check(table, key(teamPK, userPK), "#r = :admin", map[string]string{"#r": "user_team_role"},
					map[string]types.AttributeValue{":admin": sv("admin")}),
				check(table, key(teamPK, teamPK), "attribute_exists(PK) AND #n = :n",
					map[string]string{"#n": "team_name"}, map[string]types.AttributeValue{":n": sv(t.Name)})}
			for _, it := range out.Items {
				items = append(items, types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(invTable),
					Key: map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]}}})
			}
			p, err := put(invTable, newInv(t))
			if err != nil {
				return err
			}
			return tx(ctx, e.c, append(items, p)...)
		}, func(int) error {
			var t teamRec
			if err := e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, teamPK).Consistent(true).One(ctx, &t); err != nil {
				return err
			}
			var earlier []invitationRec
			if err := e.it.Get("PK", teamPK).Range("SK", dynamo.BeginsWith, "TINVITE#").Filter("$ = ?", "email", email).
				Order(dynamo.Descending).Consistent(true).SearchLimit(1001).All(ctx, &earlier); err != nil {
				return err
			}
			w := e.db.WriteTx().
				Check(e.t.Check("PK", teamPK).Range("SK", userPK).If("$ = ?", "user_team_role", "admin")).
				Check(e.t.Check("PK", teamPK).Range("SK", teamPK).If("attribute_exists(PK) AND $ = ?", "team_name", t.Name))
			for _, old := range earlier {
				w = w.Delete(e.it.Delete("PK", old.PK).Range("SK", old.SK))
			}
			return w.Put(e.it.Put(newInv(t)).If("attribute_not_exists(PK)")).Idempotent(true).Run(ctx)
		},
			func(int) error {
				return noErr(e.traced.Invite(ctx, teamID, userID, taskmgmt.NewInvitation{Email: email}))
			})
	})

	b.Run("AcceptInvitation", func(b *testing.B) {
		e := newEnv([]any{inv, stubUser(otherPK, otherName)}, nil)
		a := taskmgmt.Acceptance{TeamID: teamID, InvitationID: inviteID, Token: inviteTok}
		accept := func(r invitationRec, u userRec) ([]types.TransactWriteItem, error) {
			if subtle.ConstantTimeCompare([]byte(r.Token), []byte(a.Token)) != 1 || now.Unix() >= r.ExpiresAt {
				return nil, fmt.Errorf("invitation not found")
			}
			ut, err1 := put(table, memberRec{PK: otherPK, SK: teamPK, Type: "user_team", Role: r.Role, JoinedAt: today, TeamName: r.TeamName})
			tu, err2 := put(table, memberRec{PK: teamPK, SK: otherPK, Type: "team_user", Role: r.Role, JoinedAt: today, UserName: u.Name})
			return []types.TransactWriteItem{
				{Delete: &types.Delete{TableName: aws.String(invTable), Key: key(teamPK, inviteSK),
					ConditionExpression:       aws.String("attribute_exists(PK) AND #token = :token AND #exp > :now"),
					ExpressionAttributeNames:  map[string]string{"#token": "token", "#exp": "expiresAt"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":token": sv(r.Token), ":now": nv(now.Unix())}}},
				check(table, key(teamPK, teamPK), "attribute_exists(PK) AND #n = :n",
					map[string]string{"#n": "team_name"}, map[string]types.AttributeValue{":n": sv(r.TeamName)}),
				check(table, key(otherPK, otherPK), "attribute_exists(PK) AND #n = :n",
					map[string]string{"#n": "user_name"}, map[string]types.AttributeValue{":n": sv(u.Name)}),
				ut, tu}, firstErr(err1, err2)
		}
		e.compare(b, func(int) error { return noErr(e.s.AcceptInvitation(ctx, otherID, a)) },
			func(int) error {
				var r invitationRec
				var u userRec
				if err := firstErr(getItem(ctx, e.c, invTable, teamPK, inviteSK, &r), getItem(ctx, e.c, table, otherPK, otherPK, &u)); err != nil {
					return err
				}
				items, err := accept(r, u)
				if err != nil {
					return err
				}
				return tx(ctx, e.c, items...)
			},
			func(int) error {
				var r invitationRec
				var u userRec
				if err := firstErr(e.it.Get("PK", teamPK).Range("SK", dynamo.Equal, inviteSK).Consistent(true).One(ctx, &r),
					e.t.Get("PK", otherPK).Range("SK", dynamo.Equal, otherPK).Consistent(true).One(ctx, &u)); err != nil {
					return err
				}
				if subtle.ConstantTimeCompare([]byte(r.Token), []byte(a.Token)) != 1 || now.Unix() >= r.ExpiresAt {
					return fmt.Errorf("invitation not found")
				}
				return e.db.WriteTx().
					Delete(e.it.Delete("PK", teamPK).Range("SK", inviteSK).
						If("attribute_exists(PK) AND $ = ? AND $ > ?", "token", r.Token, "expiresAt", now.Unix())).
					Check(e.t.Check("PK", teamPK).Range("SK", teamPK).If("attribute_exists(PK) AND $ = ?", "team_name", r.TeamName)).
					Check(e.t.Check("PK", otherPK).Range("SK", otherPK).If("attribute_exists(PK) AND $ = ?", "user_name", u.Name)).
					Put(e.t.Put(memberRec{PK: otherPK, SK: teamPK, Type: "user_team", Role: r.Role, JoinedAt: today, TeamName: r.TeamName}).If("attribute_not_exists(PK)")).
					Put(e.t.Put(memberRec{PK: teamPK, SK: otherPK, Type: "team_user", Role: r.Role, JoinedAt: today, UserName: u.Name}).If("attribute_not_exists(PK)")).
					Idempotent(true).Run(ctx)
			},
			func(int) error { return noErr(e.traced.AcceptInvitation(ctx, otherID, a)) })
	})

	// The renames: the UpdateItem (its result from ALL_NEW; UpdateTeam:
	// the team read, then a transaction with the admin check), the copies
	// found on GSI_Invert (10, all stale), one transaction for them.
	renames := []struct {
		name, pk, attr, prefix string
		result                 any
		copies                 []any
		ddbkit                 func(s *taskmgmt.DynamoStore) error
	}{
		{"RenameUser", userPK, "user_name", "TEAM#", stubUser(userPK, "山田次郎"),
			many(10, func(i int) memberRec {
				return memberRec{PK: "TEAM#" + taskID(i), SK: userPK, Type: "team_user", Role: "member", UserName: userName}
			}),
			func(s *taskmgmt.DynamoStore) error { return noErr(s.RenameUser(ctx, userID, "山田次郎")) }},
		{"UpdateTeamName", teamPK, "team_name", "USER#", teamRec{PK: teamPK, SK: teamPK, Type: "team", Name: "開発第二チーム"},
			many(10, func(i int) memberRec {
				return memberRec{PK: fmt.Sprintf("USER#auth0|%024d", i), SK: teamPK, Type: "user_team", Role: "member", TeamName: teamName}
			}),
			func(s *taskmgmt.DynamoStore) error {
				name := "開発第二チーム"
				return noErr(s.UpdateTeam(ctx, teamID, userID, taskmgmt.TeamPatch{Name: &name}))
			}},
	}
	for _, r := range renames {
		b.Run(r.name, func(b *testing.B) {
			e := newEnv([]any{stubTeam()}, r.copies)
			e.stub.Handle("UpdateItem", bench.Canned(`{"Attributes":`+itemJSON(r.result)+`}`))
			var name string
			names := map[string]string{"#n": r.attr}
			set := func(guregu bool) error {
				if r.name == "UpdateTeamName" {
					// The team read, then its update conditional on the
					// fields read, in one transaction with the admin check.
					const newName = "開発第二チーム"
					var t teamRec
					if guregu {
						if err := e.t.Get("PK", teamPK).Range("SK", dynamo.Equal, teamPK).Consistent(true).One(ctx, &t); err != nil {
							return err
						}
						name = newName
						return e.db.WriteTx().Check(gureguAdminCheck(e.t)).
							Update(e.t.Update("PK", teamPK).Range("SK", teamPK).Set("team_name", newName).
								If("$ = ? AND $ = ? AND $ = ?", "PK", teamPK, "team_name", t.Name, "team_discription", t.Desc)).
							Idempotent(true).Run(ctx)
					}
					if err := getItem(ctx, e.c, table, teamPK, teamPK, &t); err != nil {
						return err
					}
					name = newName
					return tx(ctx, e.c, adminCheck(), update(table, key(teamPK, teamPK), "SET #n = :n", "#pk = :pk AND #n = :old AND #d = :d",
						map[string]string{"#pk": "PK", "#n": "team_name", "#d": "team_discription"},
						map[string]types.AttributeValue{":pk": sv(teamPK), ":n": sv(newName), ":old": sv(t.Name), ":d": sv(t.Desc)}))
				}
				out, err := e.c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key(r.pk, r.pk),
					UpdateExpression: aws.String("SET #n = :n"), ConditionExpression: aws.String("attribute_exists(PK)"),
					ExpressionAttributeNames: names, ExpressionAttributeValues: map[string]types.AttributeValue{":n": sv("開発第二チーム")},
					ReturnValues: types.ReturnValueAllNew})
				if err != nil {
					return err
				}
				if r.name == "RenameUser" {
					var u userRec
					err, name = attributevalue.UnmarshalMap(out.Attributes, &u), u.Name
				} else {
					var t teamRec
					err, name = attributevalue.UnmarshalMap(out.Attributes, &t), t.Name
				}
				return err
			}
			e.compare(b, func(int) error { return r.ddbkit(e.s) },
				func(i int) error {
					if err := set(false); err != nil {
						return err
					}
					out, err := e.c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("GSI_Invert"),
						KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
						ExpressionAttributeNames:  map[string]string{"#pk": "SK", "#sk": "PK"},
						ExpressionAttributeValues: map[string]types.AttributeValue{":pk": sv(r.pk), ":sk": sv(r.prefix)},
						Limit:                     aws.Int32(1001)})
					if err != nil {
						return err
					}
					var copies []memberRec
					if err := attributevalue.UnmarshalListOfMaps(out.Items, &copies); err != nil {
						return err
					}
					var items []types.TransactWriteItem
					for _, c := range copies {
						if c.UserName != name && c.TeamName != name {
							items = append(items, update(table, key(c.PK, c.SK), "SET #n = :n", "attribute_exists(PK)", names,
								map[string]types.AttributeValue{":n": sv(name)}))
						}
					}
					return tx(ctx, e.c, items...)
				},
				func(int) error {
					if err := set(true); err != nil { // guregu's Update.Value would do the same for RenameUser
						return err
					}
					var copies []memberRec
					if err := e.t.Get("SK", r.pk).Range("PK", dynamo.BeginsWith, r.prefix).Index("GSI_Invert").SearchLimit(1001).All(ctx, &copies); err != nil {
						return err
					}
					w := e.db.WriteTx()
					for _, c := range copies {
						if c.UserName != name && c.TeamName != name {
							w = w.Update(e.t.Update("PK", c.PK).Range("SK", c.SK).Set(r.attr, name).If("attribute_exists(PK)"))
						}
					}
					return w.Idempotent(true).Run(ctx)
				},
				func(int) error { return r.ddbkit(e.traced) })
		})
	}

	// RecalculateCounters finds drift in COUNTER#ALL over 100 tasks.
	b.Run("RecalculateCounters", func(b *testing.B) {
		e := newEnv([]any{stubTeam(), counterRec{PK: teamPK, SK: "COUNTER#ALL", Type: "counter", Todo: 40, Doing: 40, Done: 40}}, many(100, stubTask))
		recount := func(tasks []taskRec) map[string]int64 {
			n := map[string]int64{}
			for _, t := range tasks {
				n[t.Status]++
			}
			return n
		}
		e.compare(b, func(int) error { return noErr(e.s.RecalculateCounters(ctx, teamID)) },
			func(int) error {
				// The team and the counter in one call; the team must exist.
				got, err := e.c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
					table: {Keys: []map[string]types.AttributeValue{key(teamPK, teamPK), key(teamPK, "COUNTER#ALL")}, ConsistentRead: aws.Bool(true)}}})
				if err != nil {
					return err
				}
				var c counterRec
				team := false
				for _, it := range got.Responses[table] {
					switch it["SK"].(*types.AttributeValueMemberS).Value {
					case teamPK:
						team = true
					case "COUNTER#ALL":
						if err := attributevalue.UnmarshalMap(it, &c); err != nil {
							return err
						}
					}
				}
				if !team {
					return errors.New("no team")
				}
				out, err := e.c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
					KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
					ExpressionAttributeNames:  map[string]string{"#pk": "PK", "#sk": "SK"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":pk": sv(teamPK), ":sk": sv("TASK#")},
					Limit:                     aws.Int32(1001)})
				if err != nil {
					return err
				}
				var tasks []taskRec
				if err := attributevalue.UnmarshalListOfMaps(out.Items, &tasks); err != nil {
					return err
				}
				n := recount(tasks)
				return tx(ctx, e.c, check(table, key(teamPK, teamPK), "attribute_exists(PK)", nil, nil),
					update(table, key(teamPK, "COUNTER#ALL"), "SET #type = :type, todo = :todo, doing = :doing, done = :done",
						"attribute_exists(PK) AND todo = :otodo AND doing = :odoing AND done = :odone", map[string]string{"#type": "type"},
						map[string]types.AttributeValue{":type": sv("counter"),
							":todo": nv(n["todo"]), ":doing": nv(n["doing"]), ":done": nv(n["done"]),
							":otodo": nv(int64(c.Todo)), ":odoing": nv(int64(c.Doing)), ":odone": nv(int64(c.Done))}))
			},
			func(int) error {
				var got []map[string]types.AttributeValue
				if err := e.t.Batch("PK", "SK").Get(dynamo.Keys{teamPK, teamPK}, dynamo.Keys{teamPK, "COUNTER#ALL"}).Consistent(true).All(ctx, &got); err != nil {
					return err
				}
				var c counterRec
				team := false
				for _, it := range got {
					switch it["SK"].(*types.AttributeValueMemberS).Value {
					case teamPK:
						team = true
					case "COUNTER#ALL":
						if err := dynamo.UnmarshalItem(it, &c); err != nil {
							return err
						}
					}
				}
				if !team {
					return errors.New("no team")
				}
				var tasks []taskRec
				if err := e.t.Get("PK", teamPK).Range("SK", dynamo.BeginsWith, "TASK#").Consistent(true).SearchLimit(1001).All(ctx, &tasks); err != nil {
					return err
				}
				n := recount(tasks)
				return e.db.WriteTx().Check(e.t.Check("PK", teamPK).Range("SK", teamPK).If("attribute_exists(PK)")).
					Update(e.t.Update("PK", teamPK).Range("SK", "COUNTER#ALL").Set("type", "counter").
						Set("todo", n["todo"]).Set("doing", n["doing"]).Set("done", n["done"]).
						If("attribute_exists(PK) AND $ = ? AND $ = ? AND $ = ?", "todo", c.Todo, "doing", c.Doing, "done", c.Done)).
					Idempotent(true).Run(ctx)
			},
			func(int) error { return noErr(e.traced.RecalculateCounters(ctx, teamID)) })
	})

	// DeleteTag removes the tag from the 20 tasks that hold it.
	b.Run("DeleteTag", func(b *testing.B) {
		e := newEnv(nil, many(20, stubTask))
		ref := &types.AttributeValueMemberSS{Value: []string{tagSK}}
		e.compare(b, func(int) error { return e.s.DeleteTag(ctx, teamID, userID, tagID) },
			func(int) error {
				if err := tx(ctx, e.c, adminCheck(),
					types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(table), Key: key(teamPK, tagSK)}}); err != nil {
					return err
				}
				out, err := e.c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
					KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
					FilterExpression:          aws.String("contains(#tags, :tag)"),
					ExpressionAttributeNames:  map[string]string{"#pk": "PK", "#sk": "SK", "#tags": "team_task_tagRef"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":pk": sv(teamPK), ":sk": sv("TASK#"), ":tag": sv(tagSK)},
					Limit:                     aws.Int32(1001)})
				if err != nil {
					return err
				}
				var items []types.TransactWriteItem
				for _, it := range out.Items {
					items = append(items, update(table, map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]},
						"DELETE #tags :ref", "attribute_exists(PK)", map[string]string{"#tags": "team_task_tagRef"},
						map[string]types.AttributeValue{":ref": ref}))
				}
				return tx(ctx, e.c, items...)
			},
			func(int) error {
				if err := e.db.WriteTx().Check(gureguAdminCheck(e.t)).Delete(e.t.Delete("PK", teamPK).Range("SK", tagSK)).
					Idempotent(true).Run(ctx); err != nil {
					return err
				}
				var tasks []taskRec
				if err := e.t.Get("PK", teamPK).Range("SK", dynamo.BeginsWith, "TASK#").Filter("contains($, ?)", "team_task_tagRef", tagSK).
					Consistent(true).SearchLimit(1001).All(ctx, &tasks); err != nil {
					return err
				}
				w := e.db.WriteTx()
				for _, t := range tasks {
					w = w.Update(e.t.Update("PK", t.PK).Range("SK", t.SK).DeleteStringsFromSet("team_task_tagRef", tagSK).If("attribute_exists(PK)"))
				}
				return w.Idempotent(true).Run(ctx)
			},
			func(int) error { return e.traced.DeleteTag(ctx, teamID, userID, tagID) })
	})

	// DeleteTeam deletes a team of 10 members (the first, the actor, an
	// admin), 10 tags and 30 tasks: one transaction of the admin check and
	// every item but the actor's team_user item, which goes last.
	b.Run("DeleteTeam", func(b *testing.B) {
		actorPK := stubMember(0).SK
		actorID := strings.TrimPrefix(actorPK, "USER#")
		list := append(append(append([]any{stubTeam()}, many(10, stubMember)...), many(10, stubTag)...), many(30, stubTask)...)
		e := newEnv(nil, list)
		batch := func(reqs []types.WriteRequest) error {
			for len(reqs) > 0 {
				n := min(len(reqs), 25)
				if _, err := e.c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs[:n]}}); err != nil {
					return err
				}
				reqs = reqs[n:]
			}
			return nil
		}
		del := func(k map[string]types.AttributeValue) types.WriteRequest {
			return types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k}}
		}
		e.compare(b, func(int) error { return e.s.DeleteTeam(ctx, teamID, actorID) },
			func(int) error {
				out, err := e.c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
					KeyConditionExpression:    aws.String("#pk = :pk"),
					ExpressionAttributeNames:  map[string]string{"#pk": "PK"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":pk": sv(teamPK)},
					Limit:                     aws.Int32(1001)})
				if err != nil {
					return err
				}
				var actor memberRec
				var memberships, items []map[string]types.AttributeValue
				for _, it := range out.Items {
					sk := it["SK"].(*types.AttributeValueMemberS).Value
					if sk == teamPK {
						continue
					}
					if sk == actorPK {
						if err := attributevalue.UnmarshalMap(it, &actor); err != nil {
							return err
						}
						memberships = append(memberships, key(sk, teamPK))
						continue
					}
					if strings.HasPrefix(sk, "USER#") {
						memberships = append(memberships, key(sk, teamPK))
					}
					items = append(items, map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]})
				}
				if actor.Role != "admin" {
					return errors.New("not an admin")
				}
				// A team this small fits in one transaction with the check.
				ks := append(append(memberships, items...), key(teamPK, teamPK))
				if len(ks) > 99 {
					return errors.New("the benchmark's team must fit in one transaction")
				}
				w := []types.TransactWriteItem{check(table, key(teamPK, actorPK), "attribute_exists(PK) AND #r = :admin",
					map[string]string{"#r": "user_team_role"}, map[string]types.AttributeValue{":admin": sv("admin")})}
				for _, k := range ks {
					w = append(w, types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(table), Key: k}})
				}
				if err := tx(ctx, e.c, w...); err != nil {
					return err
				}
				return batch([]types.WriteRequest{del(key(teamPK, actorPK))})
			},
			func(int) error {
				var keys []struct {
					PK   string `dynamo:"PK"`
					SK   string `dynamo:"SK"`
					Role string `dynamo:"user_team_role"`
				}
				if err := e.t.Get("PK", teamPK).Consistent(true).SearchLimit(1001).All(ctx, &keys); err != nil {
					return err
				}
				admin := false
				var memberships, items []dynamo.Keys
				for _, k := range keys {
					if k.SK == teamPK {
						continue
					}
					if k.SK == actorPK {
						admin = k.Role == "admin"
						memberships = append(memberships, dynamo.Keys{k.SK, teamPK})
						continue
					}
					if strings.HasPrefix(k.SK, "USER#") {
						memberships = append(memberships, dynamo.Keys{k.SK, teamPK})
					}
					items = append(items, dynamo.Keys{k.PK, k.SK})
				}
				if !admin {
					return errors.New("not an admin")
				}
				w := e.db.WriteTx().Check(e.t.Check("PK", teamPK).Range("SK", actorPK).If("attribute_exists(PK) AND $ = ?", "user_team_role", "admin"))
				for _, k := range append(append(memberships, items...), dynamo.Keys{teamPK, teamPK}) {
					w = w.Delete(e.t.Delete("PK", k[0]).Range("SK", k[1]))
				}
				if err := w.Idempotent(true).Run(ctx); err != nil {
					return err
				}
				_, err := e.t.Batch("PK", "SK").Write().Delete(dynamo.Keys{teamPK, actorPK}).Run(ctx)
				return err
			},
			func(int) error { return e.traced.DeleteTeam(ctx, teamID, actorID) })
	})

	b.Run("RevokeInvitation", func(b *testing.B) {
		e := newEnv(nil, nil)
		e.compare(b, func(int) error { return e.s.RevokeInvitation(ctx, teamID, userID, inviteID) },
			func(int) error {
				return tx(ctx, e.c,
					check(table, key(teamPK, userPK), "#r = :admin", map[string]string{"#r": "user_team_role"},
						map[string]types.AttributeValue{":admin": sv("admin")}),
					types.TransactWriteItem{Delete: &types.Delete{TableName: aws.String(invTable), Key: key(teamPK, inviteSK),
						ConditionExpression: aws.String("attribute_exists(PK)")}})
			},
			func(int) error {
				return e.db.WriteTx().Check(e.t.Check("PK", teamPK).Range("SK", userPK).If("$ = ?", "user_team_role", "admin")).
					Delete(e.it.Delete("PK", teamPK).Range("SK", inviteSK).If("attribute_exists(PK)")).Idempotent(true).Run(ctx)
			},
			func(int) error { return e.traced.RevokeInvitation(ctx, teamID, userID, inviteID) })
	})
}

// newToken is an invitation token as Invite makes one: 256 bits from
// crypto/rand, base64url without padding.
func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// fakeNow is the fake benchmarks' clock: fill moves it a day at a time,
// so that there are daily counters to list, then sets it to now.
var fakeNow = now

func fakeClock() time.Time { return fakeNow }

// fakeData is what fill made: the same IDs on both stores.
type fakeData struct {
	team, tag, task, invitation string
	tasks                       []string
}

// fill gives s a user u0 who has made 60 teams (the first the main one,
// with 59 more members u1..u59 and 60 tags) and 600 tasks in the main
// team over 100 days, every other one tagged, and 60 invitations.
func fill(b *testing.B, s taskmgmt.Store) fakeData {
	b.Helper()
	ctx := context.Background()
	must := func(err error) {
		b.Helper()
		if err != nil {
			b.Fatal(err)
		}
	}
	var d fakeData
	for i := range 60 {
		_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: fmt.Sprint("u", i), Email: fmt.Sprintf("user%d@example.com", i), Name: userName})
		must(err)
	}
	for i := range 60 {
		t, err := s.CreateTeam(ctx, "u0", taskmgmt.NewTeam{Name: teamName, Description: "新サービスの開発を担当するチーム"})
		must(err)
		if i == 0 {
			d.team = t.ID
		}
	}
	for i := 1; i < 60; i++ {
		_, err := s.AddMember(ctx, d.team, "u0", fmt.Sprint("u", i), taskmgmt.RoleMember)
		must(err)
	}
	for i := range 60 {
		t, err := s.CreateTag(ctx, d.team, taskmgmt.NewTag{Name: "フロントエンド", Color: taskmgmt.Color{Color: "#1E40AF", BackgroundColor: "#DBEAFE"}})
		must(err)
		if i == 0 {
			d.tag = t.ID
		}
	}
	day := time.Date(2024, 8, 12, 3, 0, 0, 0, time.UTC)
	for i := range 600 {
		fakeNow = day.AddDate(0, 0, i/6)
		start := taskmgmt.Date(fakeNow.Format(time.DateOnly))
		end, err := start.AddDays(i % 20)
		must(err)
		in := taskmgmt.NewTask{Title: "ログイン画面の実装", Description: "メールアドレスとパスワードでログインできる画面を作る。",
			Status: taskmgmt.Statuses[i%3], Start: start, End: end}
		if i%2 == 0 {
			in.TagIDs = []string{d.tag}
		}
		t, err := s.CreateTask(ctx, d.team, in)
		must(err)
		d.tasks = append(d.tasks, t.ID)
	}
	fakeNow = now
	d.task = d.tasks[300]
	for i := range 60 {
		inv, err := s.Invite(ctx, d.team, "u0", taskmgmt.NewInvitation{Email: fmt.Sprintf("invitee%d@example.com", i)})
		must(err)
		d.invitation = inv.ID
	}
	return d
}

// taskmgmtFake fills a memory store and a DynamoDB store on DynamoDB Local
// with the same data (the memory store's, exported).
func taskmgmtFake(b *testing.B) (memory, local taskmgmt.Store, md, ld fakeData) {
	b.Helper()
	c := ddbtest.Client(b)
	name := ddbtest.NewTable(b, c, taskmgmt.CreateTableInput("bench-taskmgmt"))
	inv := ddbtest.NewTable(b, c, taskmgmt.CreateInvitationTableInput("bench-taskmgmt-invitation"))
	// Each store has its own seed: the local store gets the memory store's
	// items raw, and must not draw their IDs again.
	seeded := func(seed uint64) func(o *taskmgmt.Options) {
		return func(o *taskmgmt.Options) {
			o.TableName, o.InvitationTableName, o.Clock = name, inv, fakeClock
			o.NewID = ddbkit.SeededUUIDv7s(seed, fakeClock)
		}
	}
	m := taskmgmt.NewMemoryStore(seeded(1))
	md = fill(b, m)
	bench.PutAll(b, c, m.Export())
	return m, taskmgmt.NewDynamoStore(c, seeded(2)), md, md
}

// fakeOp is one operation for both stores: setup runs before the timing,
// with the number of calls to come, and returns the call.
type fakeOp struct {
	name string
	op   func(s taskmgmt.Store, d fakeData, n int) func(i int) error
}

func fakeOps(ctx context.Context) []fakeOp {
	page := func(n int, next string, err error) error { return wantPage(n, next != "", err) }
	po := ddbkit.PageOptions{Limit: 50}
	board := func(q taskmgmt.BoardQuery) func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
		q.Limit = 50
		return func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			if q.TagIDs != nil {
				q.TagIDs = []string{d.tag}
			}
			return func(int) error { p, err := s.ListBoard(ctx, d.team, q); return page(len(p.Items), p.Next, err) }
		}
	}
	// pool makes n of something before the timing. A benchmark's function
	// runs several times (b.N grows) on the same stores, so the names it
	// makes carry the run's sequence number.
	seq := 0
	pool := func(n int, mk func(i int) (string, error)) []string {
		seq++
		consumed = true
		out := make([]string, n)
		for i := range out {
			var err error
			if out[i], err = mk(i); err != nil {
				panic(err)
			}
		}
		return out
	}
	return []fakeOp{
		{"GetTask", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(i int) error { return noErr(s.GetTask(ctx, d.team, d.tasks[i%len(d.tasks)])) }
		}},
		{"ListBoardInitial50", board(taskmgmt.BoardQuery{View: taskmgmt.ViewInitial})},
		{"ListBoardTodoTag50", board(taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{}})},
		{"ListBoardAll50", board(taskmgmt.BoardQuery{View: taskmgmt.ViewAll})},
		{"ListBoardEndOverdue50", board(taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue})},
		// RecalculateCounters reads every task of the team, and CreateTask
		// adds to the team a hundred times more tasks on the memory store
		// than on DynamoDB Local in the same time: it runs first, so that
		// both stores count the same 600.
		{"RecalculateCounters", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(int) error { return noErr(s.RecalculateCounters(ctx, d.team)) }
		}},
		{"CreateTask", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			in := taskmgmt.NewTask{Title: "ログイン画面の実装", Status: taskmgmt.StatusTodo, Start: "2024-11-20", End: "2024-11-27", TagIDs: []string{d.tag}}
			return func(int) error { return noErr(s.CreateTask(ctx, d.team, in)) }
		}},
		{"UpdateTaskStatus", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(i int) error {
				st := taskmgmt.Statuses[i%3]
				return noErr(s.UpdateTask(ctx, d.team, d.task, taskmgmt.TaskPatch{Status: &st}))
			}
		}},
		{"DeleteTask", func(s taskmgmt.Store, d fakeData, n int) func(int) error {
			ids := pool(n, func(int) (string, error) {
				t, err := s.CreateTask(ctx, d.team, taskmgmt.NewTask{Title: "t", Start: "2024-11-20", End: "2024-11-27"})
				return t.ID, err
			})
			return func(i int) error { return s.DeleteTask(ctx, d.team, ids[i]) }
		}},
		{"GetUser", func(s taskmgmt.Store, _ fakeData, _ int) func(int) error {
			return func(i int) error { return noErr(s.GetUser(ctx, fmt.Sprint("u", i%60))) }
		}},
		{"GetTeam", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(int) error { return noErr(s.GetTeam(ctx, d.team)) }
		}},
		{"GetCounts", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(int) error { return noErr(s.GetCounts(ctx, d.team)) }
		}},
		{"ListMembers50", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(int) error { p, err := s.ListMembers(ctx, d.team, po); return page(len(p.Items), p.Next, err) }
		}},
		{"ListUserTeams50", func(s taskmgmt.Store, _ fakeData, _ int) func(int) error {
			return func(int) error { p, err := s.ListUserTeams(ctx, "u0", po); return page(len(p.Items), p.Next, err) }
		}},
		{"ListTags50", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(int) error { p, err := s.ListTags(ctx, d.team, po); return page(len(p.Items), p.Next, err) }
		}},
		{"ListDailyCounts50", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(int) error {
				p, err := s.ListDailyCounts(ctx, d.team, taskmgmt.DailyQuery{PageOptions: po})
				return page(len(p.Items), p.Next, err)
			}
		}},
		{"CreateUser", func(s taskmgmt.Store, _ fakeData, _ int) func(int) error {
			seq++
			run := seq
			return func(i int) error {
				return noErr(s.CreateUser(ctx, taskmgmt.NewUser{ID: fmt.Sprint("new", i, "-", run), Email: "new@example.com", Name: userName}))
			}
		}},
		{"CreateTeam", func(s taskmgmt.Store, _ fakeData, _ int) func(int) error {
			return func(int) error { return noErr(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: teamName})) }
		}},
		{"AddMember", func(s taskmgmt.Store, d fakeData, n int) func(int) error {
			ids := pool(n, func(i int) (string, error) {
				id := fmt.Sprint("add", i, "-", seq)
				_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: id, Email: "add@example.com", Name: otherName})
				return id, err
			})
			return func(i int) error { return noErr(s.AddMember(ctx, d.team, "u0", ids[i], taskmgmt.RoleMember)) }
		}},
		{"SetRole", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(i int) error {
				return noErr(s.SetRole(ctx, d.team, "u0", "u1", []taskmgmt.Role{taskmgmt.RoleAdmin, taskmgmt.RoleMember}[i%2]))
			}
		}},
		{"RemoveMember", func(s taskmgmt.Store, d fakeData, n int) func(int) error {
			ids := pool(n, func(i int) (string, error) {
				id := fmt.Sprint("rm", i, "-", seq)
				_, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: id, Email: "rm@example.com", Name: otherName})
				if err == nil {
					_, err = s.AddMember(ctx, d.team, "u0", id, taskmgmt.RoleMember)
				}
				return id, err
			})
			return func(i int) error { return s.RemoveMember(ctx, d.team, "u0", ids[i]) }
		}},
		{"CreateTag", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			in := taskmgmt.NewTag{Name: "バックエンド", Color: taskmgmt.Color{Color: "#065F46", BackgroundColor: "#D1FAE5"}}
			return func(int) error { return noErr(s.CreateTag(ctx, d.team, in)) }
		}},
		{"GetInvitation", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(int) error { return noErr(s.GetInvitation(ctx, d.team, d.invitation)) }
		}},
		{"ListInvitations50", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(int) error { p, err := s.ListInvitations(ctx, d.team, po); return page(len(p.Items), p.Next, err) }
		}},
		{"Invite", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(i int) error {
				return noErr(s.Invite(ctx, d.team, "u0", taskmgmt.NewInvitation{Email: fmt.Sprintf("new%d@example.com", i)}))
			}
		}},
		{"RevokeInvitation", func(s taskmgmt.Store, d fakeData, n int) func(int) error {
			ids := pool(n, func(i int) (string, error) {
				inv, err := s.Invite(ctx, d.team, "u0", taskmgmt.NewInvitation{Email: fmt.Sprintf("revoke%d@example.com", i)})
				return inv.ID, err
			})
			return func(i int) error { return s.RevokeInvitation(ctx, d.team, "u0", ids[i]) }
		}},
		{"AcceptInvitation", func(s taskmgmt.Store, d fakeData, n int) func(int) error {
			seq++
			run := seq
			consumed = true // each invitation is accepted once
			invs := make([]taskmgmt.Acceptance, n)
			for i := range invs {
				id := fmt.Sprint("accept", i, "-", run)
				if _, err := s.CreateUser(ctx, taskmgmt.NewUser{ID: id, Email: "accept@example.com", Name: otherName}); err != nil {
					panic(err)
				}
				inv, err := s.Invite(ctx, d.team, "u0", taskmgmt.NewInvitation{Email: fmt.Sprintf("accept%d@example.com", i)})
				if err != nil {
					panic(err)
				}
				invs[i] = taskmgmt.Acceptance{TeamID: d.team, InvitationID: inv.ID, Token: inv.Token}
			}
			return func(i int) error { return noErr(s.AcceptInvitation(ctx, fmt.Sprint("accept", i, "-", run), invs[i])) }
		}},
		{"RenameUser", func(s taskmgmt.Store, _ fakeData, _ int) func(int) error {
			return func(i int) error { return noErr(s.RenameUser(ctx, "u1", []string{userName, "山田次郎"}[i%2])) }
		}},
		{"UpdateTeamName", func(s taskmgmt.Store, d fakeData, _ int) func(int) error {
			return func(i int) error {
				name := []string{teamName, "開発第二チーム"}[i%2]
				return noErr(s.UpdateTeam(ctx, d.team, "u0", taskmgmt.TeamPatch{Name: &name}))
			}
		}},
		{"DeleteTag", func(s taskmgmt.Store, d fakeData, n int) func(int) error {
			ids := pool(n, func(int) (string, error) {
				t, err := s.CreateTag(ctx, d.team, taskmgmt.NewTag{Name: "一時", Color: taskmgmt.Color{Color: "#000", BackgroundColor: "#fff"}})
				return t.ID, err
			})
			return func(i int) error { return s.DeleteTag(ctx, d.team, "u0", ids[i]) }
		}},
		{"DeleteTeam", func(s taskmgmt.Store, _ fakeData, n int) func(int) error {
			ids := pool(n, func(int) (string, error) {
				t, err := s.CreateTeam(ctx, "u2", taskmgmt.NewTeam{Name: teamName})
				return t.ID, err
			})
			return func(i int) error { return s.DeleteTeam(ctx, ids[i], "u2") }
		}},
	}
}

// BenchmarkTaskmgmtFake compares each operation on DynamoDB Local with the
// same operation on the memory store: x-memory is how many times faster
// the fake is (the target is 100 or more).
// consumed is set while an op of fakeOps is built when it makes a pool of
// items to use up (see bench.Variant.Consumes).
var consumed bool

func BenchmarkTaskmgmtFake(b *testing.B) {
	ctx := context.Background()
	memory, local, md, ld := taskmgmtFake(b)
	for _, op := range fakeOps(ctx) {
		b.Run(op.name, func(b *testing.B) {
			// Setups that make items are per run: their names repeat.
			calls := bench.ConsumeCalls()
			consumed = false
			l := op.op(local, ld, calls)
			m := op.op(memory, md, calls)
			bench.Compare(b, nil,
				bench.Variant{Name: "dynamodb-local", Op: l, Consumes: consumed, Remote: true},
				bench.Variant{Name: "memory", Op: m, Consumes: consumed})
		})
	}
}

// BenchmarkTaskmgmtPage compares a 50-item page from the middle of 100,000
// items with one from the middle of 1,000, for every listing of the memory
// store: x-1k is the growth (the target is at most 1.1). The items are
// imported raw, in the seed's layout, all in one team (or, for
// ListUserTeams, of one user).
func BenchmarkTaskmgmtPage(b *testing.B) {
	ctx := context.Background()
	far := now.AddDate(1, 0, 0).Unix()
	listings := []struct {
		name string
		item func(i int) any
		list func(s *taskmgmt.MemoryStore, po ddbkit.PageOptions) (string, int, error)
	}{
		{"ListBoardInitial", func(i int) any { return stubTask(i) }, boardPage(ctx, taskmgmt.BoardQuery{View: taskmgmt.ViewInitial})},
		{"ListBoardTodoTag", func(i int) any { t := stubTask(i); t.Status, t.G1 = "todo", groups("todo")[0]; return t },
			boardPage(ctx, taskmgmt.BoardQuery{View: taskmgmt.ViewTodo, TagIDs: []string{tagID}})},
		{"ListBoardAll", func(i int) any { return stubTask(i) }, boardPage(ctx, taskmgmt.BoardQuery{View: taskmgmt.ViewAll})},
		{"ListBoardEndOverdue", func(i int) any {
			t := stubTask(i)
			t.End, t.EndSK = "2024-11-10", "END#2024-11-10" // all overdue
			return t
		}, boardPage(ctx, taskmgmt.BoardQuery{View: taskmgmt.ViewEndOverdue})},
		{"ListMembers", func(i int) any { return stubMember(i) }, func(s *taskmgmt.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListMembers(ctx, teamID, po)
			return p.Next, len(p.Items), err
		}},
		{"ListUserTeams", func(i int) any { return stubMembership(i) }, func(s *taskmgmt.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListUserTeams(ctx, userID, po)
			return p.Next, len(p.Items), err
		}},
		{"ListTags", func(i int) any { return stubTag(i) }, func(s *taskmgmt.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
			p, err := s.ListTags(ctx, teamID, po)
			return p.Next, len(p.Items), err
		}},
		{"ListDailyCounts", func(i int) any { c := stubDaily(i - 100_000); c.ExpiresAt = far; return c },
			func(s *taskmgmt.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
				p, err := s.ListDailyCounts(ctx, teamID, taskmgmt.DailyQuery{PageOptions: po})
				return p.Next, len(p.Items), err
			}},
		{"ListInvitations", func(i int) any { inv := stubInvitation(i); inv.ExpiresAt = far; return inv },
			func(s *taskmgmt.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
				p, err := s.ListInvitations(ctx, teamID, po)
				return p.Next, len(p.Items), err
			}},
	}
	for _, l := range listings {
		b.Run(l.name, func(b *testing.B) {
			bench.Growth(b, func(n int) func(int) error {
				s := taskmgmt.NewMemoryStore(func(o *taskmgmt.Options) { o.Clock = clock })
				tbl := table
				if l.name == "ListInvitations" {
					tbl = invTable
				}
				items := make([]map[string]types.AttributeValue, n)
				for i := range items {
					av, err := attributevalue.MarshalMap(l.item(i))
					if err != nil {
						b.Fatal(err)
					}
					items[i] = av
				}
				if err := s.Import(ddbkit.TableItems{tbl: items}); err != nil {
					b.Fatal(err)
				}
				cursor := bench.Middle(b, n, func(po ddbkit.PageOptions) (string, int, error) { return l.list(s, po) })
				return func(int) error {
					next, got, err := l.list(s, ddbkit.PageOptions{Limit: 50, Cursor: cursor})
					return wantPage(got, next != "", err)
				}
			})
		})
	}
}

func boardPage(ctx context.Context, q taskmgmt.BoardQuery) func(s *taskmgmt.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
	return func(s *taskmgmt.MemoryStore, po ddbkit.PageOptions) (string, int, error) {
		q.PageOptions = po
		p, err := s.ListBoard(ctx, teamID, q)
		return p.Next, len(p.Items), err
	}
}
