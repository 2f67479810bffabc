package kondate_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"
	"github.com/guregu/dynamo/v2"

	"github.com/ddbkit/ddbkit/bench"
	"github.com/ddbkit/ddbkit/kondate"
)

const table = "MainTable"

var ctx = context.Background()

// env is one comparison's three clients, all on one stub: kondate's
// DynamoStore (with every index), a plain aws-sdk-go-v2 client for the
// hand-written variant, and a guregu/dynamo table.
type env struct {
	stub *bench.Stub
	s    *kondate.DynamoStore
	c    *dynamodb.Client
	t    dynamo.Table
	db   *dynamo.DB
	// traced is s with a recording OpenTelemetry SDK (bench.OTel).
	traced *kondate.DynamoStore
}

type handlers map[string]bench.Handler

func newEnv(h handlers) *env {
	stub := bench.NewStub()
	for op, f := range h {
		stub.Handle(op, f)
	}
	db := dynamo.New(stub.Config())
	tp, mp := bench.OTel()
	return &env{stub: stub, s: kondate.NewDynamoStore(stub.Client(), kondate.AllIndexes), c: stub.Client(), t: db.Table(table), db: db,
		traced: kondate.NewDynamoStore(stub.Client(), kondate.AllIndexes, func(o *kondate.Options) { o.TracerProvider, o.MeterProvider = tp, mp })}
}

// compare runs one sub-benchmark: the three variants mk returns, on an env
// answered by h.
func compare(b *testing.B, name string, h handlers, mk func(e *env) (ddbkit, handwritten, guregu func(int) error)) {
	b.Run(name, func(b *testing.B) {
		e := newEnv(h)
		d, hw, g := mk(e)
		// The same operation on the store with a recording SDK: mk's
		// ddbkit op on a copy of e whose store is the traced one.
		te := *e
		te.s = e.traced
		o, _, _ := mk(&te)
		bench.Compare(b, e.stub,
			bench.Variant{Name: "ddbkit", Op: d},
			bench.Variant{Name: "handwritten", Op: hw},
			bench.Variant{Name: "guregu", Op: g},
			bench.Variant{Name: "otel", Op: o, Overhead: true})
	})
}

// Canned responses.

func getOf(row any) bench.Handler   { return bench.Canned(`{"Item":` + avJSON(row) + `}`) }
func attrsOf(row any) bench.Handler { return bench.Canned(`{"Attributes":` + avJSON(row) + `}`) }

var ok = bench.Canned(`{}`)

// purchasedAt is the time of the i-th purchase a benchmark records: a
// repeat of i is the same purchase (RecordPurchase returns it), never
// another under a recorded transaction ID.
func purchasedAt(i int) time.Time {
	return time.Date(2026, 2, 9, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
}

// canned answers every call with body.
var canned = bench.Canned

// pagesOf answers Query with pages of n rows (from row(i)), as DynamoDB
// pages them; keyAttrs are the attributes of a LastEvaluatedKey.
func pagesOf[T any](n int, row func(int) T, keyAttrs ...string) bench.Handler {
	items := make([]string, n)
	for i := range items {
		items[i] = avJSON(row(i))
	}
	return bench.QueryPages(items, func(map[string]string) int { return 0 }, func(i int) string {
		av := item(row(i))
		key := make(map[string]types.AttributeValue, len(keyAttrs))
		for _, a := range keyAttrs {
			key[a] = av[a]
		}
		return bench.ItemJSON(key)
	})
}

var (
	tableKey = []string{"PK", "SK"}
	gsi2Key  = []string{"PK", "SK", "GSI2PK", "GSI2SK"}
	gsi3Key  = []string{"PK", "SK", "GSI3PK", "GSI3SK"}
)

// One Query answering one row, for the lookups by ID on GSI1.
func hitOf(row any) bench.Handler {
	return bench.Canned(`{"Items":[` + avJSON(row) + `],"Count":1,"ScannedCount":1}`)
}

// wantPage checks a 50-item page with a next cursor.
func wantPage(n int, more bool, err error) error {
	if err == nil && (n != 50 || !more) {
		err = errPage{n, more}
	}
	return err
}

type errPage struct {
	n    int
	more bool
}

func (e errPage) Error() string { return "a page of the wrong size, or the last one" }

// The hand-written variant: what a competent engineer writes on
// aws-sdk-go-v2 and attributevalue for each call, with the same
// conditions and consistency as ddbkit sends.

func s(v string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: v} }

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}
}

var (
	tableName = aws.String(table)
	pkNames   = map[string]string{"#pk": "PK"}
	exists    = aws.String("attribute_exists(#pk)")
	notExists = aws.String("attribute_not_exists(#pk)")
	null      = &types.AttributeValueMemberNULL{Value: true}
)

func hwGet[T any](c *dynamodb.Client, pk, sk string) (T, error) {
	var row T
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(pk, sk), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return row, err
	}
	err = attributevalue.UnmarshalMap(out.Item, &row)
	return row, err
}

// hwList reads a page of a user's items whose sort keys begin with prefix.
func hwList[T any](c *dynamodb.Client, pk, prefix string, desc bool, limit int32) ([]T, map[string]types.AttributeValue, error) {
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: tableName, ConsistentRead: aws.Bool(true),
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
		ExpressionAttributeNames:  map[string]string{"#pk": "PK", "#sk": "SK"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s(pk), ":sk": s(prefix)},
		ScanIndexForward:          aws.Bool(!desc), Limit: aws.Int32(limit)})
	if err != nil {
		return nil, nil, err
	}
	var rows []T
	err = attributevalue.UnmarshalListOfMaps(out.Items, &rows)
	return rows, out.LastEvaluatedKey, err
}

// hwIndex reads a page of an index: begins_with, or = when eq.
func hwIndex[T any](c *dynamodb.Client, index, pk, sk string, eq, desc bool, limit int32) ([]T, map[string]types.AttributeValue, error) {
	cond := "#pk = :pk AND begins_with(#sk, :sk)"
	if eq {
		cond = "#pk = :pk AND #sk = :sk"
	}
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: tableName, IndexName: aws.String(index),
		KeyConditionExpression:    aws.String(cond),
		ExpressionAttributeNames:  map[string]string{"#pk": index + "PK", "#sk": index + "SK"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s(pk), ":sk": s(sk)},
		ScanIndexForward:          aws.Bool(!desc), Limit: aws.Int32(limit)})
	if err != nil {
		return nil, nil, err
	}
	var rows []T
	err = attributevalue.UnmarshalListOfMaps(out.Items, &rows)
	return rows, out.LastEvaluatedKey, err
}

// hwCreate puts a new row, if its key is free.
func hwCreate(c *dynamodb.Client, rows ...any) error {
	// A transaction with a token, as kondate's create (ddb.PutNew) sends,
	// so that a lost response's retry is told from another's write.
	puts := make([]types.TransactWriteItem, len(rows))
	for i, row := range rows {
		item, err := attributevalue.MarshalMap(row)
		if err != nil {
			return err
		}
		puts[i] = types.TransactWriteItem{Put: &types.Put{TableName: tableName, Item: item,
			ConditionExpression: notExists, ExpressionAttributeNames: pkNames,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}
	}
	return hwTx(c, puts...)
}

func hwPut(c *dynamodb.Client, row any) error {
	item, err := attributevalue.MarshalMap(row)
	if err != nil {
		return err
	}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tableName, Item: item})
	return err
}

// hwUpdate applies a SET expression, on an existing item when mustExist,
// and decodes the item as written.
func hwUpdate[T any](c *dynamodb.Client, pk, sk string, mustExist bool, set string, names map[string]string, values map[string]types.AttributeValue) (T, error) {
	cond := ""
	if mustExist {
		names["#pk"] = "PK"
		cond = *exists
	}
	return hwUpdateIf[T](c, pk, sk, cond, set, names, values)
}

// hwUpdateIf is UpdateItem of set on condition cond ("" for none), asking
// for the item as it was when cond fails, as kondate's updates do.
func hwUpdateIf[T any](c *dynamodb.Client, pk, sk, cond, set string, names map[string]string, values map[string]types.AttributeValue) (T, error) {
	var row T
	in := &dynamodb.UpdateItemInput{TableName: tableName, Key: key(pk, sk), UpdateExpression: aws.String(set),
		ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnValues: types.ReturnValueAllNew}
	if cond != "" {
		in.ConditionExpression = aws.String(cond)
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	out, err := c.UpdateItem(ctx, in)
	if err != nil {
		return row, err
	}
	err = attributevalue.UnmarshalMap(out.Attributes, &row)
	return row, err
}

// unsetOnce is the condition of kondate's first write of attribute #d
// (updateFirst): the item exists, and #d is missing or NULL, which the
// seed's app writes for "not yet" and if_not_exists would keep.
const unsetOnce = "attribute_exists(#pk) AND (attribute_not_exists(#d) OR #d = :null)"

// hwRemove reads the item, then deletes it if it is still there: the read
// tells a repeated delete from a missing item, as ddbkit's does.
func hwRemove(c *dynamodb.Client, pk, sk string) error {
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tableName, Key: key(pk, sk), ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item == nil {
		return err
	}
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: tableName, Key: key(pk, sk),
		ConditionExpression: exists, ExpressionAttributeNames: pkNames})
	return err
}

// unchanged is the condition that an item exists and still holds the
// values read: attr = :v for each attribute given.
func unchanged(av map[string]types.AttributeValue, attrs ...string) (*string, map[string]string, map[string]types.AttributeValue) {
	var b strings.Builder
	b.WriteString("attribute_exists(#pk)")
	names := map[string]string{"#pk": "PK"}
	values := make(map[string]types.AttributeValue, len(attrs))
	for i, a := range attrs {
		n, v := "#a"+string(rune('a'+i)), ":a"+string(rune('a'+i))
		b.WriteString(" AND " + n + " = " + v)
		names[n], values[v] = a, av[a]
	}
	return aws.String(b.String()), names, values
}

func hwTx(c *dynamodb.Client, items ...types.TransactWriteItem) error {
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(uuid.NewString()), TransactItems: items})
	return err
}

// guregu's variant.

func guUnchanged(av map[string]types.AttributeValue, attrs ...string) (string, []any) {
	var b strings.Builder
	b.WriteString("attribute_exists('PK')")
	args := make([]any, 0, 2*len(attrs))
	for _, a := range attrs {
		b.WriteString(" AND $ = ?")
		args = append(args, a, av[a])
	}
	return b.String(), args
}

func guRemove(t dynamo.Table, pk, sk string) error {
	var row dynamo.Item
	if err := t.Get("PK", pk).Range("SK", dynamo.Equal, sk).Consistent(true).One(ctx, &row); err != nil {
		return err
	}
	return t.Delete("PK", pk).Range("SK", sk).If("attribute_exists('PK')").Run(ctx)
}

// byKey answers GetItem with the row whose sort key the request names:
// for operations that read two items.
func byKey(rows map[string]any) bench.Handler {
	type answer struct{ sk, body string }
	var as []answer
	for sk, row := range rows {
		as = append(as, answer{`"` + sk + `"`, `{"Item":` + avJSON(row) + `}`})
	}
	return func(req []byte) ([]byte, error) {
		for _, a := range as {
			if strings.Contains(string(req), a.sk) {
				return []byte(a.body), nil
			}
		}
		return []byte(`{}`), nil
	}
}
