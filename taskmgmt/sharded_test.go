package taskmgmt_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// shardedSK is the sort key of a counter, sharded or not.
var shardedSK = regexp.MustCompile(`^COUNTER#(ALL|\d{4}-\d{2}-\d{2})(#[1-3])?$`)

// TestShardedCounterLayout reads the sharded counters back raw from
// DynamoDB Local: each one of the seed's counter items or one with #<n>
// after its sort key, with the seed's attributes, summing to the counts.
// Then a shard another writer set wrong (+5 todo) shows in GetCounts until
// RecalculateCounters folds every shard into COUNTER#ALL; a store without
// shards then reads the same counts from it.
func TestShardedCounterLayout(t *testing.T) {
	ctx := t.Context()
	shards := func(o *taskmgmt.Options) { o.CounterShards = 4 }
	s, c, table := newDynamo(t, nil, deterministic, shards)
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "a@example.com", Name: "a"}))
	team := must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "team"}))
	for i := range 12 {
		must[taskmgmt.Task](t)(s.CreateTask(ctx, team.ID, taskmgmt.NewTask{Title: fmt.Sprint("t", i), Status: taskmgmt.Statuses[i%3], Start: "2025-11-01", End: "2025-11-02"}))
	}
	want := taskmgmt.Counts{Todo: 4, Doing: 4, Done: 4}
	counters := func() []map[string]types.AttributeValue {
		out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
			KeyConditionExpression:    aws.String("PK = :pk AND begins_with(SK, :c)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": S("TEAM#" + team.ID), ":c": S("COUNTER#")}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Items
	}
	all, sharded := 0, 0
	for _, it := range counters() {
		sk := it["SK"].(*types.AttributeValueMemberS).Value
		m := shardedSK.FindStringSubmatch(sk)
		if m == nil {
			t.Fatalf("counter sort key %q, want COUNTER#ALL or COUNTER#<date>, then #1 to #3 or nothing", sk)
		}
		for _, a := range []string{"todo", "doing", "done"} {
			if _, ok := it[a].(*types.AttributeValueMemberN); !ok {
				t.Errorf("%s: %s is %T, want N", sk, a, it[a])
			}
		}
		if it["type"].(*types.AttributeValueMemberS).Value != "counter" {
			t.Errorf("%s: type %v", sk, it["type"])
		}
		if m[1] == "ALL" {
			all++
			if m[2] != "" {
				sharded++
			}
		}
	}
	if all < 2 || sharded == 0 {
		t.Errorf("%d COUNTER#ALL items, %d of them shards; want the 12 tasks spread over several", all, sharded)
	}
	if got := must[taskmgmt.Counts](t)(s.GetCounts(ctx, team.ID)); got != want {
		t.Fatalf("GetCounts = %+v, want %+v", got, want)
	}

	putRaw(t, c, table, map[string]types.AttributeValue{"PK": S("TEAM#" + team.ID), "SK": S("COUNTER#ALL#3"), "type": S("counter"),
		"todo": N(5), "doing": N(0), "done": N(0)})
	// Shard 3 may hold some of the tasks already: the raw write replaced
	// it, so the sum is off by what it held and the 5.
	if got := must[taskmgmt.Counts](t)(s.GetCounts(ctx, team.ID)); got == want {
		t.Fatalf("GetCounts with a shard set wrong = %+v, the right counts", got)
	}
	rep := must[taskmgmt.CounterReport](t)(s.RecalculateCounters(ctx, team.ID))
	if !rep.Drift || rep.Counts != want {
		t.Fatalf("RecalculateCounters = %+v, want drift and %+v", rep, want)
	}
	for _, it := range counters() {
		if sk := it["SK"].(*types.AttributeValueMemberS).Value; regexp.MustCompile(`^COUNTER#ALL#`).MatchString(sk) {
			t.Errorf("shard %s left after the recount", sk)
		}
	}
	plain := taskmgmt.NewDynamoStore(c, deterministic, func(o *taskmgmt.Options) { o.TableName = table })
	for name, st := range map[string]taskmgmt.CounterStore{"sharded": s, "unsharded": plain} {
		if got := must[taskmgmt.Counts](t)(st.GetCounts(ctx, team.ID)); got != want {
			t.Errorf("%s store after the recount: GetCounts = %+v, want %+v", name, got, want)
		}
	}
}

// TestShardedDailyCorrupt: counters that do not decode (another writer's
// bad items) are reported in Skipped and bound the page: a listing over a
// partition of nothing else ends its page after one Query, with a cursor
// past them, and the counters after them are listed by the next page.
func TestShardedDailyCorrupt(t *testing.T) {
	ctx := t.Context()
	s, c, table := newDynamo(t, nil, deterministic, func(o *taskmgmt.Options) { o.CounterShards = 2; o.FilterBudget = 5 })
	for i := range 8 {
		putRaw(t, c, table, item{"PK": S("TEAM#t1"), "SK": S(fmt.Sprintf("COUNTER#2025-11-01#x%d", i)), "type": S("counter"), "todo": S("bad")})
	}
	putRaw(t, c, table, item{"PK": S("TEAM#t1"), "SK": S("COUNTER#2025-11-02"), "type": S("counter"), "todo": N(2), "doing": N(0), "done": N(0)})
	var got []taskmgmt.DailyCount
	skipped := 0
	q := taskmgmt.DailyQuery{}
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("more pages than the partition holds")
		}
		p := must[ddbkit.Page[taskmgmt.DailyCount]](t)(s.ListDailyCounts(ctx, "t1", q))
		if pages == 0 && (len(p.Items) != 0 || p.Next == "") {
			t.Fatalf("first page = %+v, next %q; want it ended, empty, after a Query of corrupt counters", p.Items, p.Next)
		}
		got, skipped = append(got, p.Items...), skipped+len(p.Skipped)
		if p.Next == "" {
			break
		}
		q.Cursor = p.Next
	}
	if len(got) != 1 || got[0].Date != "2025-11-02" || got[0].Todo != 2 || skipped != 8 {
		t.Fatalf("listed %+v with %d skipped; want 2025-11-02 (todo 2) and the 8 corrupt counters skipped", got, skipped)
	}
}
