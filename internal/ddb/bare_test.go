package ddb_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// bareNames are names that DynamoDB reads bare, as the seeds' tables name
// their attributes. notBare keep their placeholders: DynamoDB refuses most
// of them bare; the grammar's function names, a leading underscore and
// names over 64 bytes are kept out to be safe.
var (
	bareNames = []string{"PK", "pk", "SK", "GSI1PK", "expiresAt", "team_task_discription", "status_group1",
		"todo", "doing", "done", "A1", "a_b_c", "attribute_existsx", strings.Repeat("x", 64)}
	notBare = []string{"", "type", "Type", "status", "date", "name", "ttl", "user", "remove", "contains",
		"size", "begins_with", "attribute_not_exists", "1a", "_a", "a-b", "a.b", "a b", "a#b", "名前", "é", strings.Repeat("x", 65)}
)

func TestBareName(t *testing.T) {
	for _, n := range bareNames {
		if !ddb.BareName(n) {
			t.Errorf("BareName(%q) = false, want true", n)
		}
	}
	for _, n := range notBare {
		if ddb.BareName(n) {
			t.Errorf("BareName(%q) = true, want false", n)
		}
	}
	words := strings.Fields(ddb.ReservedList)
	if len(words) != 573 {
		t.Errorf("the reserved list has %d words, want DynamoDB's 573", len(words))
	}
	for _, w := range words {
		if ddb.BareName(w) || ddb.BareName(strings.ToLower(w)) {
			t.Errorf("BareName(%q) = true for a reserved word", w)
		}
	}
}

func TestBare(t *testing.T) {
	// Eleven names, so that placeholders #1 and #10 both occur.
	u := expression.Set(expression.Name("a0"), ddb.Param(0))
	names := []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "type", "a-b"}
	for i, n := range names {
		u = u.Set(expression.NameNoDotSplit(n), ddb.Param(i+1))
	}
	b := expression.NewBuilder().WithUpdate(u).WithCondition(expression.AttributeExists(expression.Name("a1")))
	p := ddb.MustPrepare(b)
	q := p.Bare()
	if got, want := *q.Update(), "SET a0 = :0, a1 = :1, a2 = :2, a3 = :3, a4 = :4, a5 = :5, a6 = :6, a7 = :7, a8 = :8, #9 = :9, #10 = :10\n"; got != want {
		t.Errorf("update = %q, want %q", got, want)
	}
	if got, want := *q.Condition(), "attribute_exists (a1)"; got != want {
		t.Errorf("condition = %q, want %q", got, want)
	}
	if got, want := q.Names(), map[string]string{"#9": "type", "#10": "a-b"}; !maps.Equal(got, want) {
		t.Errorf("names = %v, want %v", got, want)
	}
	if len(p.Names()) != 11 || !strings.Contains(*p.Update(), "#1 = :0") {
		t.Errorf("Bare changed p: names %v, update %q", p.Names(), *p.Update())
	}
	all := ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name("PK"))))
	if q := all.Bare(); q.Names() != nil || *q.Condition() != "attribute_not_exists (PK)" {
		t.Errorf("Bare() with every name bare = %q, names %v; want no names", *q.Condition(), q.Names())
	}
	none := ddb.MustPrepare(expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name("type"))))
	if none.Bare() != none {
		t.Error("Bare() with no name bare made a copy")
	}
}

// TestReservedWordsDynamoDB holds BareName to DynamoDB Local. Local
// refuses each reserved word bare, in upper and lower case, except the two
// that localTakes lists (BareName keeps their placeholders all the same,
// as it does for the grammar's function names, which Local takes too); it
// takes each of bareNames bare, in an update and in a condition.
func TestReservedWordsDynamoDB(t *testing.T) {
	c := ddbtest.Client(t)
	name := keyTable(t, c, "ddb-bare")
	ctx := t.Context()
	key := map[string]types.AttributeValue{"pk": ddb.S("p"), "sk": ddb.S("s")}
	update := func(expr string) error {
		_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(name), Key: key,
			UpdateExpression: aws.String(expr), ExpressionAttributeValues: map[string]types.AttributeValue{":v": ddb.S("v")}})
		return err
	}
	localTakes := []string{"CONVERT", "SIZE"} // reserved, but Local reads them as names after SET
	for _, w := range strings.Fields(ddb.ReservedList) {
		err := update("SET " + strings.ToLower(w) + " = :v")
		var ae smithy.APIError
		refused := errors.As(err, &ae) && ae.ErrorCode() == "ValidationException"
		if refused == slices.Contains(localTakes, w) {
			t.Errorf("SET %s bare: %v; refused %v, want %v", strings.ToLower(w), err, refused, !refused)
		}
	}
	for _, n := range bareNames {
		if n != "pk" { // a key attribute, which no update sets
			if err := update("SET " + n + " = :v"); err != nil {
				t.Errorf("SET %s bare: %v", n, err)
			}
		}
		_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(name), Key: key,
			ConditionExpression: aws.String("attribute_not_exists(" + n + ") OR attribute_exists(" + n + ")")})
		if err != nil {
			t.Errorf("attribute_exists(%s) bare: %v", n, err)
		}
	}
}
