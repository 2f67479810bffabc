package livecomment

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestCodecsPlanned: every layout is encoded and decoded without
// attributevalue's reflection, which the benchmarks of issue 15 need.
func TestCodecsPlanned(t *testing.T) {
	for name, planned := range map[string]bool{
		"roomItem": roomCodec.Planned(), "commentItem": commentCodec.Planned(), "connectionItem": connectionCodec.Planned(),
	} {
		if !planned {
			t.Errorf("the codec of %s is not planned", name)
		}
	}
}

// TestDecodeLenient: each attribute of each layout reads a String, a Number
// (as its text), NULL or nothing, and any other type is corrupt, named.
func TestDecodeLenient(t *testing.T) {
	tb := newTables("test", nil, false)
	decoders := []struct {
		table ddb.Table
		attrs []string
		text  func(ddb.Item) (string, error)
	}{
		{tb.rooms, []string{attrRoomID, attrName, attrHostID, attrStatus}, func(item ddb.Item) (string, error) {
			r, err := decodeRoom(tb.rooms, item)
			return r.ID + r.Name + r.HostID + string(r.Status), err
		}},
		{tb.comments, []string{attrRoomID, attrCommentID, attrContent, attrNickname}, func(item ddb.Item) (string, error) {
			c, err := decodeComment(tb.comments, item)
			return c.RoomID + c.ID + c.Content + strings.TrimPrefix(c.Nickname, DefaultNickname), err
		}},
		{tb.connections, []string{attrConnectionID, attrRoomID}, func(item ddb.Item) (string, error) {
			c, err := decodeConnection(tb.connections, item)
			return c.ID + c.RoomID, err
		}},
	}
	values := []struct {
		av   types.AttributeValue
		want string // "!" for corrupt
	}{
		{nil, ""}, {&types.AttributeValueMemberS{Value: "x"}, "x"}, {&types.AttributeValueMemberN{Value: "12"}, "12"},
		{&types.AttributeValueMemberNULL{Value: true}, ""}, {&types.AttributeValueMemberBOOL{Value: true}, "!"},
		{&types.AttributeValueMemberB{Value: []byte("b")}, "!"}, {&types.AttributeValueMemberSS{Value: []string{"a"}}, "!"},
		{&types.AttributeValueMemberL{}, "!"}, {&types.AttributeValueMemberM{}, "!"},
	}
	for _, d := range decoders {
		for _, a := range d.attrs {
			for _, v := range values {
				item := ddb.Item{}
				if v.av != nil {
					item[a] = v.av
				}
				got, err := d.text(item)
				var ce *ddbkit.CorruptItemError
				switch {
				case v.want == "!" && (!errors.As(err, &ce) || ce.Table != d.table.Name || ce.Attr != a):
					t.Errorf("%s.%s = %#v: error %v, want a CorruptItemError naming it", d.table.Name, a, v.av, err)
				case v.want != "!" && (err != nil || got != v.want):
					t.Errorf("%s.%s = %#v: read %q, %v, want %q", d.table.Name, a, v.av, got, err, v.want)
				}
			}
		}
	}
}
