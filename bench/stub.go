package bench

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Handler answers one DynamoDB call: it gets the request's JSON body and
// returns the response's JSON body.
type Handler func(req []byte) ([]byte, error)

// Canned is a Handler that answers every call with body.
func Canned(body string) Handler {
	b := []byte(body)
	return func([]byte) ([]byte, error) { return b, nil }
}

// Stub stands in for DynamoDB's HTTP endpoint, without a network: each
// operation (the X-Amz-Target's name, "GetItem", "Query", ...) is answered
// by its Handler, so that a benchmark measures the client side's CPU only,
// and every variant of a comparison gets the same responses. Every request
// body is read, whether the handler looks at it or not. DescribeTable is
// answered with a table of pk and sk strings unless a Handler is given: some
// libraries describe the table once to learn its keys.
type Stub struct {
	handlers  map[string]Handler
	mu        sync.Mutex
	recording bool
	calls     []string
}

// NewStub returns a Stub with no handlers; a call of an operation without
// one fails.
func NewStub() *Stub { return &Stub{handlers: make(map[string]Handler)} }

// Handle sets op's handler and returns s.
func (s *Stub) Handle(op string, h Handler) *Stub {
	s.handlers[op] = h
	return s
}

// Config returns an aws.Config whose calls s answers, for libraries that
// build their own client from one (guregu/dynamo's dynamo.New).
func (s *Stub) Config() aws.Config {
	return aws.Config{
		Region:       "ap-northeast-1",
		BaseEndpoint: aws.String("http://dynamodb.stub"),
		Credentials:  credentials.NewStaticCredentialsProvider("k", "s", ""),
		HTTPClient:   &http.Client{Transport: s},
	}
}

// Client returns a *dynamodb.Client whose calls s answers.
func (s *Stub) Client() *dynamodb.Client { return dynamodb.NewFromConfig(s.Config()) }

func (s *Stub) record() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recording, s.calls = true, nil
}

func (s *Stub) recorded() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recording = false
	return s.calls
}

const describePKSK = `{"Table":{"TableName":"bench","TableStatus":"ACTIVE",` +
	`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}]}}`

// RoundTrip answers r with the handler of its operation.
func (s *Stub) RoundTrip(r *http.Request) (*http.Response, error) {
	target := r.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	var req []byte
	if r.Body != nil {
		var err error
		if req, err = io.ReadAll(r.Body); err != nil {
			return nil, err
		}
		_ = r.Body.Close()
	}
	h, ok := s.handlers[op]
	if !ok && op == "DescribeTable" {
		h, ok = Canned(describePKSK), true
	}
	if !ok {
		return nil, fmt.Errorf("bench: stub: no handler for %s", op)
	}
	if op != "DescribeTable" {
		s.mu.Lock()
		if s.recording {
			s.calls = append(s.calls, op)
		}
		s.mu.Unlock()
	}
	body, err := h(req)
	if err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}
