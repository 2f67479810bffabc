package taskmgmt_test

import (
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestStreamEvent: a record of the DynamoDB Streams API converts to the
// record Lambda delivers, every attribute type included.
func TestStreamEvent(t *testing.T) {
	at := time.Unix(1_800_000_000, 0)
	img := map[string]streamtypes.AttributeValue{
		"S": &streamtypes.AttributeValueMemberS{Value: "s"}, "N": &streamtypes.AttributeValueMemberN{Value: "1"},
		"B": &streamtypes.AttributeValueMemberB{Value: []byte{1}}, "BOOL": &streamtypes.AttributeValueMemberBOOL{Value: true},
		"SS": &streamtypes.AttributeValueMemberSS{Value: []string{"a"}}, "NS": &streamtypes.AttributeValueMemberNS{Value: []string{"2"}},
		"BS": &streamtypes.AttributeValueMemberBS{Value: [][]byte{{2}}}, "NULL": &streamtypes.AttributeValueMemberNULL{Value: true},
		"L": &streamtypes.AttributeValueMemberL{Value: []streamtypes.AttributeValue{&streamtypes.AttributeValueMemberS{Value: "x"}}},
		"M": &streamtypes.AttributeValueMemberM{Value: map[string]streamtypes.AttributeValue{"k": &streamtypes.AttributeValueMemberN{Value: "3"}}},
	}
	ev := taskmgmt.StreamEvent("arn:stream", []streamtypes.Record{{
		EventID: aws.String("e1"), EventName: streamtypes.OperationTypeInsert, EventSource: aws.String("aws:dynamodb"),
		Dynamodb: &streamtypes.StreamRecord{Keys: map[string]streamtypes.AttributeValue{"PK": img["S"]}, NewImage: img,
			SequenceNumber: aws.String("100"), SizeBytes: aws.Int64(42), StreamViewType: streamtypes.StreamViewTypeNewImage,
			ApproximateCreationDateTime: &at},
	}})
	if len(ev.Records) != 1 {
		t.Fatalf("%d records, want 1", len(ev.Records))
	}
	r := ev.Records[0]
	if r.EventID != "e1" || r.EventName != "INSERT" || r.EventSourceArn != "arn:stream" || r.Change.SequenceNumber != "100" ||
		r.Change.SizeBytes != 42 || r.Change.StreamViewType != "NEW_IMAGE" || !r.Change.ApproximateCreationDateTime.Equal(at) {
		t.Errorf("record = %+v", r)
	}
	want := map[string]events.DynamoDBDataType{
		"S": events.DataTypeString, "N": events.DataTypeNumber, "B": events.DataTypeBinary, "BOOL": events.DataTypeBoolean,
		"SS": events.DataTypeStringSet, "NS": events.DataTypeNumberSet, "BS": events.DataTypeBinarySet, "NULL": events.DataTypeNull,
		"L": events.DataTypeList, "M": events.DataTypeMap,
	}
	for name, typ := range want {
		if got := r.Change.NewImage[name].DataType(); got != typ {
			t.Errorf("attribute %s: type %v, want %v", name, got, typ)
		}
	}
	if got := r.Change.NewImage["M"].Map()["k"].Number(); got != "3" {
		t.Errorf("M.k = %q, want 3", got)
	}
	if got := r.Change.Keys["PK"].String(); got != "s" {
		t.Errorf("key PK = %q, want s", got)
	}
}
