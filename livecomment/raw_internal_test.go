package livecomment

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// TestParseCanonical: the fast path reads what keys.ParseTime reads, to
// the same instant, and leaves everything else to it.
func TestParseCanonical(t *testing.T) {
	cases := []string{
		"2024-01-01T00:00:00.000Z", "2024-02-28T23:59:59.999Z", "2024-02-29T12:00:00.000Z", "2023-02-29T12:00:00.000Z",
		"2024-13-01T00:00:00.000Z", "2024-00-10T00:00:00.000Z", "2024-01-00T00:00:00.000Z", "2024-01-01T24:00:00.000Z",
		"2024-01-01T00:60:00.000Z", "2024-01-01T00:00:60.000Z", "2024-01-01T00:00:00.000z", "2024-01-01t00:00:00.000Z",
		"2024-01-01T00:00:00Z", "2024-01-01T00:00:00.0000Z", "2024-01-01T09:00:00.000+09:00", "+024-01-01T00:00:00.000Z",
		"2024-01-01T00:00:0a.000Z", "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		cases = append(cases, keys.Timestamp(time.UnixMilli(r.Int64N(253402300799999))))
	}
	for _, s := range cases {
		got, ok := parseCanonical(s)
		if !ok {
			continue
		}
		want, err := keys.ParseTime(s)
		if err != nil || !got.Equal(want) || got != want {
			t.Errorf("parseCanonical(%q) = %v, keys.ParseTime = %v, %v", s, got, want, err)
		}
	}
}

// TestFastDecode: the decoders read every attribute type as
// attributevalue does, or leave the item to it.
func TestFastDecode(t *testing.T) {
	values := []types.AttributeValue{
		nil, &types.AttributeValueMemberS{Value: "x"}, &types.AttributeValueMemberN{Value: "12"},
		&types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberBOOL{Value: true},
		&types.AttributeValueMemberB{Value: []byte("b")}, &types.AttributeValueMemberSS{Value: []string{"a"}},
		&types.AttributeValueMemberL{}, &types.AttributeValueMemberM{},
	}
	for _, v := range values {
		item := ddb.Item{}
		if v != nil {
			item["a"] = v
		}
		var out [1]string
		ok := fastDecode(item, []string{"a"}, out[:])
		var want struct {
			A string `dynamodbav:"a"`
		}
		err := attributevalue.UnmarshalMap(item, &want)
		if ok && (err != nil || out[0] != want.A) {
			t.Errorf("fastDecode(%#v) = %q, attributevalue: %q, %v", v, out[0], want.A, err)
		}
		if !ok && err == nil {
			t.Errorf("fastDecode(%#v) refused what attributevalue reads as %q", v, want.A)
		}
	}
}

// TestMarshal: the items are attribute for attribute what attributevalue
// makes of the item structs, empty values included.
func TestMarshal(t *testing.T) {
	at := time.Date(2024, 1, 5, 10, 0, 0, 500e6, time.UTC)
	for _, r := range []Room{{ID: "r1", Name: "部屋", HostID: "h", Status: RoomOpen, CreatedAt: at, UpdatedAt: at}, {}} {
		got, _ := marshalRoom(r)
		want, _ := attributevalue.MarshalMap(roomItem{RoomID: r.ID, Name: r.Name, HostID: r.HostID, Status: string(r.Status),
			CreatedAt: keys.Timestamp(r.CreatedAt), UpdatedAt: keys.Timestamp(r.UpdatedAt)})
		if !ddb.ItemsEqual(got, want) {
			t.Errorf("marshalRoom(%+v) = %v, want %v", r, got, want)
		}
	}
	for _, c := range []Comment{{RoomID: "r1", ID: "c1", Content: "こんにちは", Nickname: "たろう", CreatedAt: at}, {}} {
		got, _ := marshalComment(c)
		want, _ := attributevalue.MarshalMap(commentItem{RoomID: c.RoomID, CommentID: c.ID, Content: c.Content,
			Nickname: c.Nickname, CreatedAt: keys.Timestamp(c.CreatedAt)})
		if !ddb.ItemsEqual(got, want) {
			t.Errorf("marshalComment(%+v) = %v, want %v", c, got, want)
		}
	}
	for _, c := range []Connection{{ID: "k1", RoomID: "r1", JoinedAt: at}, {}} {
		got, _ := marshalConnection(c)
		want, _ := attributevalue.MarshalMap(connectionItem{ConnectionID: c.ID, RoomID: c.RoomID, Timestamp: keys.Timestamp(c.JoinedAt)})
		if !ddb.ItemsEqual(got, want) {
			t.Errorf("marshalConnection(%+v) = %v, want %v", c, got, want)
		}
	}
}
