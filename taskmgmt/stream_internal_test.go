package taskmgmt

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestStreamAttributeValues converts every attribute type to the stream
// form (MemoryStore's stream), through Lambda's JSON, and back (the
// handler's), and gets the item it started from.
func TestStreamAttributeValues(t *testing.T) {
	item := map[string]types.AttributeValue{
		"s": &types.AttributeValueMemberS{Value: "x"}, "empty": &types.AttributeValueMemberS{Value: ""},
		"n": &types.AttributeValueMemberN{Value: "1.5"}, "b": &types.AttributeValueMemberB{Value: []byte{1, 2}},
		"t": &types.AttributeValueMemberBOOL{Value: true}, "f": &types.AttributeValueMemberBOOL{Value: false},
		"z": &types.AttributeValueMemberNULL{Value: true}, "ss": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"1"}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "y"}, &types.AttributeValueMemberN{Value: "2"}}},
		"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: "v"},
			"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{}}, "m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}}},
	}
	b, err := json.Marshal(eventImage(item))
	if err != nil {
		t.Fatal(err)
	}
	var im map[string]events.DynamoDBAttributeValue
	if err := json.Unmarshal(b, &im); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	got := map[string]types.AttributeValue{}
	for k, v := range im {
		got[k] = attributeValue(v)
	}
	if !reflect.DeepEqual(got, item) {
		t.Fatalf("through %s:\n got %#v\nwant %#v", b, got, item)
	}
	if eventImage(nil) != nil {
		t.Error("eventImage(nil) is not nil")
	}
	if v, ok := attributeValue(events.DynamoDBAttributeValue{}).(*types.AttributeValueMemberNULL); !ok || !v.Value {
		t.Errorf("the zero DynamoDBAttributeValue converts to %#v, want NULL", v)
	}
}
