package bench

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	otelmetric "go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/ddbkit/ddbkit"
)

// ItemJSON renders an item in DynamoDB's JSON wire form, for canned
// responses.
func ItemJSON(item map[string]types.AttributeValue) string {
	var b strings.Builder
	writeItem(&b, item)
	return b.String()
}

func writeItem(b *strings.Builder, item map[string]types.AttributeValue) {
	names := make([]string, 0, len(item))
	for k := range item {
		names = append(names, k)
	}
	slices.Sort(names)
	b.WriteByte('{')
	for i, k := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(k))
		b.WriteByte(':')
		writeAttr(b, item[k])
	}
	b.WriteByte('}')
}

func quote(s string) string {
	js, _ := json.Marshal(s)
	return string(js)
}

func writeAttr(b *strings.Builder, v types.AttributeValue) {
	list := func(tag string, n int, each func(int)) {
		b.WriteString(`{"` + tag + `":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			each(i)
		}
		b.WriteString(`]}`)
	}
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		b.WriteString(`{"S":` + quote(v.Value) + `}`)
	case *types.AttributeValueMemberN:
		b.WriteString(`{"N":` + quote(v.Value) + `}`)
	case *types.AttributeValueMemberB:
		b.WriteString(`{"B":"` + base64.StdEncoding.EncodeToString(v.Value) + `"}`)
	case *types.AttributeValueMemberBOOL:
		b.WriteString(`{"BOOL":` + strconv.FormatBool(v.Value) + `}`)
	case *types.AttributeValueMemberNULL:
		b.WriteString(`{"NULL":true}`)
	case *types.AttributeValueMemberSS:
		list("SS", len(v.Value), func(i int) { b.WriteString(quote(v.Value[i])) })
	case *types.AttributeValueMemberNS:
		list("NS", len(v.Value), func(i int) { b.WriteString(quote(v.Value[i])) })
	case *types.AttributeValueMemberL:
		list("L", len(v.Value), func(i int) { writeAttr(b, v.Value[i]) })
	case *types.AttributeValueMemberM:
		b.WriteString(`{"M":`)
		writeItem(b, v.Value)
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("bench: ItemJSON: %T", v))
	}
}

// QueryPages is a Query Handler that pages through items (JSON, in key
// order) as DynamoDB does: at most Limit items from the one after the
// request's ExclusiveStartKey, and a LastEvaluatedKey when more remain.
// start returns the index of the first item after an ExclusiveStartKey
// (given as its string attributes); lek renders the LastEvaluatedKey of
// item i.
func QueryPages(items []string, start func(esk map[string]string) int, lek func(i int) string) Handler {
	return func(req []byte) ([]byte, error) {
		var in struct {
			Limit             int
			ExclusiveStartKey map[string]struct{ S string }
		}
		if err := json.Unmarshal(req, &in); err != nil {
			return nil, err
		}
		from := 0
		if in.ExclusiveStartKey != nil {
			esk := make(map[string]string, len(in.ExclusiveStartKey))
			for k, v := range in.ExclusiveStartKey {
				esk[k] = v.S
			}
			from = start(esk)
		}
		if in.Limit == 0 {
			in.Limit = len(items)
		}
		end := min(from+in.Limit, len(items))
		var b strings.Builder
		b.WriteString(`{"Items":[`)
		b.WriteString(strings.Join(items[from:end], ","))
		fmt.Fprintf(&b, `],"Count":%d,"ScannedCount":%d`, end-from, end-from)
		if end < len(items) {
			b.WriteString(`,"LastEvaluatedKey":` + lek(end-1))
		}
		b.WriteByte('}')
		return []byte(b.String()), nil
	}
}

// PutAll writes raw items (a memory store's Export) to their tables with
// BatchWriteItem, retrying what DynamoDB leaves unprocessed, so that a
// DynamoDB store and a memory store can start from the same data.
func PutAll(tb testing.TB, c ddbkit.Client, items ddbkit.TableItems) {
	tb.Helper()
	ctx := context.Background()
	for table, rows := range items {
		for chunk := range slices.Chunk(rows, 25) {
			reqs := make([]types.WriteRequest, len(chunk))
			for i, item := range chunk {
				reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: item}}
			}
			pending := map[string][]types.WriteRequest{table: reqs}
			for try := 0; len(pending) > 0; try++ {
				if try == 10 {
					tb.Fatalf("bench: PutAll: %s: items left unprocessed after %d tries", table, try)
				}
				out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
				if err != nil {
					tb.Fatalf("bench: PutAll: %s: %v", table, err)
				}
				pending = out.UnprocessedItems
				time.Sleep(time.Duration(try) * 10 * time.Millisecond)
			}
		}
	}
}

// Middle walks a listing to its middle, n/2 items in, and returns the
// cursor of the page there. list returns a page's next cursor and its
// number of items.
func Middle(tb testing.TB, n int, list func(ddbkit.PageOptions) (next string, items int, err error)) string {
	tb.Helper()
	cursor, seen := "", 0
	for seen < n/2 {
		next, got, err := list(ddbkit.PageOptions{Limit: min(ddbkit.MaxPageLimit, n/2-seen), Cursor: cursor})
		if err != nil || next == "" {
			tb.Fatalf("bench: walking to the middle: %d items seen, %v", seen, err)
		}
		cursor, seen = next, seen+got
	}
	return cursor
}

// OTel returns the providers of a recording OpenTelemetry SDK whose
// exporter drops every span, and whose metrics are aggregated but never
// read: what an application with an SDK installed pays for ddbkit's
// telemetry, without the cost of an exporter's network (the x-otel
// variants, issue 38).
func OTel() (trace.TracerProvider, otelmetric.MeterProvider) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithSpanProcessor(sdktrace.NewSimpleSpanProcessor(dropSpans{})))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	return tp, mp
}

// dropSpans is a span exporter that drops what it gets.
type dropSpans struct{}

func (dropSpans) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (dropSpans) Shutdown(context.Context) error                             { return nil }
