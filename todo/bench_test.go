package todo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/todo"
)

func benchMemory(b *testing.B, todos int) (*todo.MemoryStore, []string) {
	b.Helper()
	ctx := context.Background()
	s := todo.NewMemoryStore(func(o *todo.Options) { o.NewID = ddbkit.SeededUUIDv4(1) })
	if err := s.CreateUser(ctx, todo.User{Username: "alice", Email: "a@example.com"}); err != nil {
		b.Fatal(err)
	}
	ids := make([]string, todos)
	for i := range ids {
		t, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = t.ID
	}
	return s, ids
}

func BenchmarkMemoryGetTodo(b *testing.B) {
	s, ids := benchMemory(b, 1000)
	ctx := context.Background()
	i := 0
	for b.Loop() {
		if _, err := s.GetTodo(ctx, "alice", ids[i%len(ids)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkMemoryCreateTodo(b *testing.B) {
	s, _ := benchMemory(b, 1000)
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMemoryListTodosPage50(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprint(n, "todos"), func(b *testing.B) {
			s, _ := benchMemory(b, n)
			ctx := context.Background()
			first, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 50})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				// A page from the middle: seek by cursor, then 50 items.
				p, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 50, Cursor: first.Next})
				if err != nil || len(p.Items) != 50 {
					b.Fatal(err)
				}
			}
		})
	}
}

// stubDynamo answers GetItem and Query from canned items without a network,
// so that a benchmark measures the client side's CPU only. It honours Limit
// and ExclusiveStartKey as DynamoDB does.
type stubDynamo struct {
	item  []byte   // GetItem response body
	items [][]byte // JSON of the items Query pages through, in order
}

func newStub(n int) *stubDynamo {
	s := &stubDynamo{}
	mk := func(i int) []byte {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		js, _ := json.Marshal(map[string]map[string]any{
			"pk": {"S": "user#alice"}, "sk": {"S": "todo#" + id}, "id": {"S": id}, "entity_type": {"S": "todo"},
			"title": {"S": "プロジェクトの企画書作成"}, "description": {"S": "新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する"},
			"priority": {"S": "high"}, "completed": {"BOOL": false}, "category_id": {"S": "category001"},
			"created_at": {"S": "2024-01-01T00:00:00.000Z"}, "updated_at": {"S": "2024-01-01T00:00:00.000Z"},
		})
		return js
	}
	s.item = append(append([]byte(`{"Item":`), mk(0)...), '}')
	for i := range n {
		s.items = append(s.items, mk(i))
	}
	return s
}

func (s *stubDynamo) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	switch target := r.Header.Get("X-Amz-Target"); {
	case strings.HasSuffix(target, ".GetItem"):
		body = s.item
	case strings.HasSuffix(target, ".Query"):
		var in struct {
			Limit             int
			ExclusiveStartKey map[string]map[string]string
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			return nil, err
		}
		start := 0
		if k := in.ExclusiveStartKey; k != nil {
			fmt.Sscanf(k["sk"]["S"], "todo#00000000-0000-4000-8000-%d", &start)
			start++
		}
		end := min(start+in.Limit, len(s.items))
		var b bytes.Buffer
		b.WriteString(`{"Items":[`)
		for i := start; i < end; i++ {
			if i > start {
				b.WriteByte(',')
			}
			b.Write(s.items[i])
		}
		fmt.Fprintf(&b, `],"Count":%d,"ScannedCount":%d`, end-start, end-start)
		if end < len(s.items) {
			fmt.Fprintf(&b, `,"LastEvaluatedKey":{"pk":{"S":"user#alice"},"sk":{"S":"todo#00000000-0000-4000-8000-%012d"}}`, end-1)
		}
		b.WriteByte('}')
		body = b.Bytes()
	default:
		return nil, fmt.Errorf("stub: unexpected %s", target)
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

func stubClient(n int) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "ap-northeast-1",
		BaseEndpoint: aws.String("http://dynamodb.stub"),
		Credentials:  credentials.NewStaticCredentialsProvider("k", "s", ""),
		HTTPClient:   &http.Client{Transport: newStub(n)},
	})
}

// handTodo is what a hand-written client would decode a todo into.
type handTodo struct {
	ID          string `dynamodbav:"id"`
	Title       string `dynamodbav:"title"`
	Description string `dynamodbav:"description"`
	Priority    string `dynamodbav:"priority"`
	Completed   bool   `dynamodbav:"completed"`
	CategoryID  string `dynamodbav:"category_id"`
	CreatedAt   string `dynamodbav:"created_at"`
	UpdatedAt   string `dynamodbav:"updated_at"`
}

// BenchmarkDynamoGetTodo compares DynamoStore.GetTodo with the minimal
// hand-written GetItem + attributevalue call, on a stub transport. The
// target is at most 1.2x the hand-written ns/op.
func BenchmarkDynamoGetTodo(b *testing.B) {
	ctx := context.Background()
	const id = "00000000-0000-4000-8000-000000000000"
	b.Run("ddbkit", func(b *testing.B) {
		s := todo.NewDynamoStore(stubClient(1), func(o *todo.Options) { o.TableName = "bench" })
		for b.Loop() {
			if _, err := s.GetTodo(ctx, "alice", id); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handwritten", func(b *testing.B) {
		c := stubClient(1)
		for b.Loop() {
			out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("bench"), ConsistentRead: aws.Bool(true),
				Key: map[string]types.AttributeValue{
					"pk": &types.AttributeValueMemberS{Value: "user#alice"},
					"sk": &types.AttributeValueMemberS{Value: "todo#" + id},
				}})
			if err != nil {
				b.Fatal(err)
			}
			var t handTodo
			if err := attributevalue.UnmarshalMap(out.Item, &t); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDynamoListTodosPage compares one 50-item page of ListTodos with
// the minimal hand-written Query + attributevalue call (which, unlike
// ListTodos, returns a raw LastEvaluatedKey rather than a checked cursor).
func BenchmarkDynamoListTodosPage(b *testing.B) {
	ctx := context.Background()
	b.Run("ddbkit", func(b *testing.B) {
		s := todo.NewDynamoStore(stubClient(200), func(o *todo.Options) { o.TableName = "bench" })
		for b.Loop() {
			p, err := s.ListTodos(ctx, "alice", ddbkit.PageOptions{Limit: 50})
			if err != nil || len(p.Items) != 50 || p.Next == "" {
				b.Fatalf("%d items, next %q, %v", len(p.Items), p.Next, err)
			}
		}
	})
	b.Run("handwritten", func(b *testing.B) {
		c := stubClient(200)
		for b.Loop() {
			out, err := c.Query(ctx, &dynamodb.QueryInput{
				TableName:                aws.String("bench"),
				ConsistentRead:           aws.Bool(true),
				KeyConditionExpression:   aws.String("#pk = :pk AND begins_with(#sk, :sk)"),
				ExpressionAttributeNames: map[string]string{"#pk": "pk", "#sk": "sk"},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":pk": &types.AttributeValueMemberS{Value: "user#alice"},
					":sk": &types.AttributeValueMemberS{Value: "todo#"},
				},
				Limit: aws.Int32(50),
			})
			if err != nil {
				b.Fatal(err)
			}
			var ts []handTodo
			if err := attributevalue.UnmarshalListOfMaps(out.Items, &ts); err != nil || len(ts) != 50 {
				b.Fatal(err)
			}
		}
	})
}
