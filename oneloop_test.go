package ddbkit_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// countingTransport counts the HTTP attempts a *dynamodb.Client makes, and
// answers each with next (or passes it on when next is nil).
type countingTransport struct {
	n    atomic.Int64
	next func(*http.Request) (*http.Response, error)
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return c.next(r)
}

// throttled is DynamoDB's answer to a throttled call.
func throttled(r *http.Request) (*http.Response, error) {
	body := `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`
	return &http.Response{
		StatusCode: http.StatusBadRequest,
		Header:     http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body:       io.NopCloser(strings.NewReader(body)),
		Request:    r,
	}, nil
}

// refused is a dead endpoint: the connection is refused.
func refused(*http.Request) (*http.Response, error) {
	return nil, errors.New("dial tcp 127.0.0.1:1: connect: connection refused")
}

// TestOneRetryLoop holds every domain's DynamoStore to one retry loop
// (issue 41): through a real *dynamodb.Client, built with the SDK's
// default retryer (three attempts), a call to a dead endpoint or one
// DynamoDB keeps throttling costs exactly RetryPolicy.MaxAttempts HTTP
// attempts, not MaxAttempts times the SDK's.
func TestOneRetryLoop(t *testing.T) {
	const attempts = 3
	policy := ddbkit.RetryPolicy{MaxAttempts: attempts, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}
	ops := []struct {
		name string
		call func(ctx context.Context, c *dynamodb.Client) error
	}{
		{"todo.GetUser", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := todo.NewDynamoStore(c, func(o *todo.Options) { o.Retry = policy }).GetUser(ctx, "u1")
			return err
		}},
		{"taskmgmt.GetTeam", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := taskmgmt.NewDynamoStore(c, func(o *taskmgmt.Options) { o.Retry = policy }).GetTeam(ctx, "t1")
			return err
		}},
		{"livecomment.GetRoom", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := livecomment.NewDynamoStore(c, func(o *livecomment.Options) { o.Retry = policy }).GetRoom(ctx, "r1")
			return err
		}},
		{"kondate.GetProfile", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := kondate.NewDynamoStore(c, func(o *kondate.Options) { o.Retry = policy }).GetProfile(ctx, "u1")
			return err
		}},
		{"wardrobe.GetWardrobe", func(ctx context.Context, c *dynamodb.Client) error {
			_, err := wardrobe.NewDynamoStore(c, func(o *wardrobe.Options) { o.Retry = policy }).GetWardrobe(ctx, "w1")
			return err
		}},
	}
	answers := []struct {
		name string
		next func(*http.Request) (*http.Response, error)
	}{
		{"dead endpoint", refused},
		{"throttled", throttled},
	}
	for _, a := range answers {
		for _, op := range ops {
			t.Run(a.name+"/"+op.name, func(t *testing.T) {
				tr := &countingTransport{next: a.next}
				c := dynamodb.New(dynamodb.Options{
					Region:       "us-east-1",
					BaseEndpoint: aws.String("http://127.0.0.1:1"),
					Credentials:  credentials.NewStaticCredentialsProvider("AKID", "SECRET", ""),
					HTTPClient:   &http.Client{Transport: tr},
				})
				err := op.call(context.Background(), c)
				if !errors.Is(err, ddbkit.ErrUnavailable) {
					t.Fatalf("err = %v, want ErrUnavailable", err)
				}
				if got := tr.n.Load(); got != attempts {
					t.Errorf("HTTP attempts = %d, want RetryPolicy.MaxAttempts = %d (err: %v)", got, attempts, err)
				}
				if strings.Contains(err.Error(), "exceeded maximum number of attempts") {
					t.Errorf("err = %v: the SDK's retry loop ran", err)
				}
			})
		}
	}
}
