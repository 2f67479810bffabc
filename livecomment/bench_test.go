package livecomment_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
)

func benchMemory(b *testing.B, comments int) (*livecomment.MemoryStore, string) {
	b.Helper()
	ctx := context.Background()
	s := livecomment.NewMemoryStore(func(o *livecomment.Options) {
		o.Clock = ddbkit.StepClock(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond)
	})
	r, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "bench", HostID: "host"})
	if err != nil {
		b.Fatal(err)
	}
	for range comments {
		if _, err := s.PostComment(ctx, r.ID, livecomment.NewComment{Content: "コメント"}); err != nil {
			b.Fatal(err)
		}
	}
	return s, r.ID
}

func BenchmarkMemoryPostComment(b *testing.B) {
	s, room := benchMemory(b, 1000)
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.PostComment(ctx, room, livecomment.NewComment{Content: "コメント", Nickname: "たろう"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMemoryListCommentsPage50(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprint(n, "comments"), func(b *testing.B) {
			s, room := benchMemory(b, n)
			ctx := context.Background()
			first, err := s.ListComments(ctx, room, ddbkit.PageOptions{Limit: 50})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				// A page from the middle: seek by cursor, then 50 items.
				p, err := s.ListComments(ctx, room, ddbkit.PageOptions{Limit: 50, Cursor: first.Next})
				if err != nil || len(p.Items) != 50 {
					b.Fatal(err)
				}
			}
		})
	}
}

// stubDynamo answers TransactWriteItems with success and Query from canned
// comments without a network, so that a benchmark measures the client
// side's CPU only. It honours Limit and ExclusiveStartKey as DynamoDB does.
type stubDynamo struct{ items [][]byte }

const stubRoom = "6ae6783f-4fbd-491b-aeb8-8b73a48ed247"

func stubCommentID(i int) string { return fmt.Sprintf("018cc251-f400-7000-8000-%012d", i) }

func newStub(n int) *stubDynamo {
	s := &stubDynamo{}
	for i := range n {
		js, _ := json.Marshal(map[string]map[string]any{
			"roomId": {"S": stubRoom}, "commentId": {"S": stubCommentID(i)}, "content": {"S": "新プロジェクトの企画書、楽しみにしています！"},
			"nickname": {"S": "Anonymous"}, "createdAt": {"S": "2024-01-01T00:00:00.000Z"},
		})
		s.items = append(s.items, js)
	}
	return s
}

func (s *stubDynamo) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	switch target := r.Header.Get("X-Amz-Target"); {
	case strings.HasSuffix(target, ".TransactWriteItems"):
		_, _ = io.Copy(io.Discard, r.Body)
		body = []byte(`{}`)
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
			fmt.Sscanf(k["commentId"]["S"], "018cc251-f400-7000-8000-%d", &start)
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
			fmt.Fprintf(&b, `,"LastEvaluatedKey":{"roomId":{"S":%q},"commentId":{"S":%q}}`, stubRoom, stubCommentID(end-1))
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

// BenchmarkDynamoPostComment compares DynamoStore.PostComment with a minimal
// hand-written TransactWriteItems of the same check and put, on a stub
// transport.
func BenchmarkDynamoPostComment(b *testing.B) {
	ctx := context.Background()
	b.Run("ddbkit", func(b *testing.B) {
		s := livecomment.NewDynamoStore(stubClient(0), func(o *livecomment.Options) { o.Env = "bench" })
		for b.Loop() {
			if _, err := s.PostComment(ctx, stubRoom, livecomment.NewComment{Content: "コメント"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handwritten", func(b *testing.B) {
		c := stubClient(0)
		for b.Loop() {
			now := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{ConditionCheck: &types.ConditionCheck{TableName: aws.String("LiveComment-Rooms-bench"),
					Key:                       map[string]types.AttributeValue{"roomId": &types.AttributeValueMemberS{Value: stubRoom}},
					ConditionExpression:       aws.String("#s = :open"),
					ExpressionAttributeNames:  map[string]string{"#s": "status"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":open": &types.AttributeValueMemberS{Value: "OPEN"}}}},
				{Put: &types.Put{TableName: aws.String("LiveComment-Comments-bench"),
					Item: map[string]types.AttributeValue{
						"roomId": &types.AttributeValueMemberS{Value: stubRoom}, "commentId": &types.AttributeValueMemberS{Value: ddbkit.NewUUIDv7()},
						"content": &types.AttributeValueMemberS{Value: "コメント"}, "nickname": &types.AttributeValueMemberS{Value: "Anonymous"},
						"createdAt": &types.AttributeValueMemberS{Value: now}},
					ConditionExpression: aws.String("attribute_not_exists(roomId)")}},
			}})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// handComment is what a hand-written client would decode a comment into.
type handComment struct {
	CommentID string `dynamodbav:"commentId"`
	Content   string `dynamodbav:"content"`
	Nickname  string `dynamodbav:"nickname"`
	CreatedAt string `dynamodbav:"createdAt"`
}

// BenchmarkDynamoListCommentsPage compares one 50-item page of ListComments
// with the minimal hand-written Query (which, unlike ListComments, returns a
// raw LastEvaluatedKey rather than a checked cursor).
func BenchmarkDynamoListCommentsPage(b *testing.B) {
	ctx := context.Background()
	b.Run("ddbkit", func(b *testing.B) {
		s := livecomment.NewDynamoStore(stubClient(200), func(o *livecomment.Options) { o.Env = "bench" })
		for b.Loop() {
			p, err := s.ListComments(ctx, stubRoom, ddbkit.PageOptions{Limit: 50})
			if err != nil || len(p.Items) != 50 || p.Next == "" {
				b.Fatalf("%d items, next %q, %v", len(p.Items), p.Next, err)
			}
		}
	})
	b.Run("handwritten", func(b *testing.B) {
		c := stubClient(200)
		for b.Loop() {
			out, err := c.Query(ctx, &dynamodb.QueryInput{
				TableName:                 aws.String("LiveComment-Comments-bench"),
				IndexName:                 aws.String("roomId-createdAt-index"),
				KeyConditionExpression:    aws.String("roomId = :r"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":r": &types.AttributeValueMemberS{Value: stubRoom}},
				Limit:                     aws.Int32(50),
			})
			if err != nil {
				b.Fatal(err)
			}
			var cs []handComment
			if err := attributevalue.UnmarshalListOfMaps(out.Items, &cs); err != nil || len(cs) != 50 {
				b.Fatal(err)
			}
		}
	})
}
