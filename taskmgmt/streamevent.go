package taskmgmt

import (
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// StreamEvent converts records read from a table's stream with the
// DynamoDB Streams API (package dynamodbstreams, GetRecords) into the event
// a Lambda function subscribed to the stream receives, so that
// StreamHandler.Handle can run on a real stream, DynamoDB Local's
// included, in tests and local tools. streamARN is the stream's ARN
// (DescribeTable's LatestStreamArn). Every attribute type converts; a
// record keeps its keys, both images, sequence number, size and view type.
func StreamEvent(streamARN string, records []streamtypes.Record) events.DynamoDBEvent {
	ev := events.DynamoDBEvent{Records: make([]events.DynamoDBEventRecord, 0, len(records))}
	for _, r := range records {
		out := events.DynamoDBEventRecord{
			EventID: aws.ToString(r.EventID), EventName: string(r.EventName), EventSource: aws.ToString(r.EventSource),
			EventVersion: aws.ToString(r.EventVersion), AWSRegion: aws.ToString(r.AwsRegion), EventSourceArn: streamARN,
		}
		if d := r.Dynamodb; d != nil {
			out.Change = events.DynamoDBStreamRecord{
				Keys: streamImage(d.Keys), NewImage: streamImage(d.NewImage), OldImage: streamImage(d.OldImage),
				SequenceNumber: aws.ToString(d.SequenceNumber), SizeBytes: aws.ToInt64(d.SizeBytes),
				StreamViewType: string(d.StreamViewType),
			}
			if t := d.ApproximateCreationDateTime; t != nil {
				out.Change.ApproximateCreationDateTime = events.SecondsEpochTime{Time: *t}
			}
		}
		ev.Records = append(ev.Records, out)
	}
	return ev
}

func streamImage(m map[string]streamtypes.AttributeValue) map[string]events.DynamoDBAttributeValue {
	if m == nil {
		return nil
	}
	out := make(map[string]events.DynamoDBAttributeValue, len(m))
	for k, v := range m {
		out[k] = streamAttr(v)
	}
	return out
}

func streamAttr(v streamtypes.AttributeValue) events.DynamoDBAttributeValue {
	switch v := v.(type) {
	case *streamtypes.AttributeValueMemberS:
		return events.NewStringAttribute(v.Value)
	case *streamtypes.AttributeValueMemberN:
		return events.NewNumberAttribute(v.Value)
	case *streamtypes.AttributeValueMemberB:
		return events.NewBinaryAttribute(v.Value)
	case *streamtypes.AttributeValueMemberBOOL:
		return events.NewBooleanAttribute(v.Value)
	case *streamtypes.AttributeValueMemberSS:
		return events.NewStringSetAttribute(v.Value)
	case *streamtypes.AttributeValueMemberNS:
		return events.NewNumberSetAttribute(v.Value)
	case *streamtypes.AttributeValueMemberBS:
		return events.NewBinarySetAttribute(v.Value)
	case *streamtypes.AttributeValueMemberM:
		return events.NewMapAttribute(streamImage(v.Value))
	case *streamtypes.AttributeValueMemberL:
		l := make([]events.DynamoDBAttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = streamAttr(e)
		}
		return events.NewListAttribute(l)
	}
	return events.NewNullAttribute() // NULL, or a type this SDK does not know
}
