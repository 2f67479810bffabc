package taskmgmt

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
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
	// The stream's image of item, as MemoryStore's stream records it.
	st := backend.NewStream(ddb.Table{Name: "t", PartitionKey: "s", SortKey: "empty"}, time.Now)
	st.Wrote("t", nil, item)
	b, err := json.Marshal(st.Take().Records[0].Change.NewImage)
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
	if v, ok := attributeValue(events.DynamoDBAttributeValue{}).(*types.AttributeValueMemberNULL); !ok || !v.Value {
		t.Errorf("the zero DynamoDBAttributeValue converts to %#v, want NULL", v)
	}
}

// TestEpochSeconds reads the Numbers another writer may store as an
// invitation's times.
func TestEpochSeconds(t *testing.T) {
	for _, tt := range []struct {
		name string
		av   types.AttributeValue
		want epochSeconds
		ok   bool
	}{
		{"whole seconds", &types.AttributeValueMemberN{Value: "1768227600"}, 1768227600, true},
		{"a fraction", &types.AttributeValueMemberN{Value: "1768227600.999"}, 1768227600, true},
		{"a fraction of many digits", &types.AttributeValueMemberN{Value: "1768227600.99999999999999999999"}, 1768227600, true},
		{"an exponent", &types.AttributeValueMemberN{Value: "1.7682276E9"}, 1768227600, true},
		{"negative with a fraction", &types.AttributeValueMemberN{Value: "-1.5"}, -2, true},
		{"NULL", &types.AttributeValueMemberNULL{Value: true}, 0, true},
		{"too large", &types.AttributeValueMemberN{Value: "1E+125"}, 0, false},
		{"no number", &types.AttributeValueMemberN{Value: "soon"}, 0, false},
		{"a ratio", &types.AttributeValueMemberN{Value: "1/2"}, 0, false},
		{"below a second", &types.AttributeValueMemberN{Value: "-0.5"}, -1, true},
		{"an exponent beyond DynamoDB's range", &types.AttributeValueMemberN{Value: "-1e-999999"}, 0, false},
		{"hexadecimal", &types.AttributeValueMemberN{Value: "0x1p-99999999"}, 0, false},
		{"a String", &types.AttributeValueMemberS{Value: "1768227600"}, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := epochSeconds(7)
			err := e.UnmarshalDynamoDBAttributeValue(tt.av)
			if (err == nil) != tt.ok || tt.ok && e != tt.want {
				t.Fatalf("got %d, %v; want %d, ok %v", e, err, tt.want, tt.ok)
			}
		})
	}
	av, err := epochSeconds(1768227600).MarshalDynamoDBAttributeValue()
	if n, ok := av.(*types.AttributeValueMemberN); err != nil || !ok || n.Value != "1768227600" {
		t.Fatalf("written as %#v, %v; want N 1768227600", av, err)
	}
}
