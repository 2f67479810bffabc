package todo_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"go.opentelemetry.io/contrib/instrumentation/github.com/aws/aws-sdk-go-v2/otelaws"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/ddbkit/ddbkit/todo"
)

// Example_telemetry wires OpenTelemetry as an application would: one
// TracerProvider for the store (its spans, "todo.<Method>") and for the
// DynamoDB client, through otelaws (a span per DynamoDB call). The store's
// calls run under its span, so each DynamoDB call's span is its child, and
// the store's span says what the method cost. (DynamoDB answers here from
// a stub, so that the example runs anywhere.)
func Example_telemetry() {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))

	cfg := aws.Config{
		Region:      "ap-northeast-1",
		Credentials: credentials.NewStaticCredentialsProvider("id", "secret", ""),
		HTTPClient:  stubDynamoDB{},
	}
	otelaws.AppendMiddlewares(&cfg.APIOptions, otelaws.WithTracerProvider(tp))
	s := todo.NewDynamoStore(dynamodb.NewFromConfig(cfg), func(o *todo.Options) {
		o.TableName = "todos"
		o.TracerProvider = tp
	})

	u, err := s.GetUser(context.Background(), "alice")
	fmt.Println(u.Email, err)

	names := map[string]string{}
	for _, sp := range spans.Ended() {
		names[sp.SpanContext().SpanID().String()] = sp.Name()
	}
	for _, sp := range spans.Ended() {
		fmt.Printf("%s (parent: %s)\n", sp.Name(), names[sp.Parent().SpanID().String()])
		for _, kv := range sp.Attributes() {
			switch kv.Key {
			case "db.collection.name", "ddbkit.dynamodb.calls", "ddbkit.capacity.read_units":
				fmt.Printf("  %s = %s\n", kv.Key, fmt.Sprint(kv.Value.AsInterface()))
			}
		}
	}
	// Output:
	// alice@example.com <nil>
	// DynamoDB.GetItem (parent: todo.GetUser)
	// todo.GetUser (parent: )
	//   db.collection.name = todos
	//   ddbkit.dynamodb.calls = 1
	//   ddbkit.capacity.read_units = 1
}

// stubDynamoDB answers every call with the user alice, as GetItem with
// ReturnConsumedCapacity=TOTAL would.
type stubDynamoDB struct{}

func (stubDynamoDB) Do(*http.Request) (*http.Response, error) {
	body := `{"Item":{"pk":{"S":"users"},"sk":{"S":"alice"},"entity_type":{"S":"user"},"username":{"S":"alice"},` +
		`"email":{"S":"alice@example.com"},"created_at":{"S":"2025-01-02T03:04:05.000Z"}},` +
		`"ConsumedCapacity":{"TableName":"todos","CapacityUnits":1}}`
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: io.NopCloser(strings.NewReader(body))}, nil
}
