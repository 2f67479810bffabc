package livecomment

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// TestItemSizes: the field limits keep every item this package writes far
// under DynamoDB's 400 KB, so no input that passes validation can make an
// item too large (the ">400 KB after validation" case cannot
// arise here); and the size check that both stores run before any call
// (roomToWrite, commentToWrite, connectionToWrite) does refuse a larger
// item, naming the caller's field.
func TestItemSizes(t *testing.T) {
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	wide := func(n int) string { return strings.Repeat("\U0001F600", n) } // 4 bytes a character
	id := strings.Repeat("\U0001F600", MaxIDLen)
	biggest := []struct {
		name string
		item func() (ddb.Item, error)
	}{
		{"room", func() (ddb.Item, error) {
			return roomToWrite("create room", Room{ID: id, Name: wide(MaxRoomNameLen), HostID: id, Status: RoomOpen, CreatedAt: at, UpdatedAt: at})
		}},
		{"comment", func() (ddb.Item, error) {
			return commentToWrite("post comment", Comment{RoomID: id, ID: id, Content: wide(MaxContentLen), Nickname: wide(MaxNicknameLen), CreatedAt: at}, MaxCommentShards)
		}},
		{"connection", func() (ddb.Item, error) {
			return connectionToWrite("join room", Connection{ID: id, RoomID: id, JoinedAt: at})
		}},
	}
	for _, b := range biggest {
		item, err := b.item()
		if err != nil {
			t.Fatalf("the largest valid %s: %v", b.name, err)
		}
		if n := ddb.ItemSize(item); n > 8*1024 {
			t.Errorf("the largest valid %s is %d bytes; the package documentation promises a few KB", b.name, n)
		}
	}

	huge := strings.Repeat("x", ddb.MaxItemSize)
	over := []struct {
		name, field string
		item        func() (ddb.Item, error)
	}{
		{"room", "Name", func() (ddb.Item, error) {
			return roomToWrite("create room", Room{ID: "r", Name: huge, HostID: "h", Status: RoomOpen, CreatedAt: at, UpdatedAt: at})
		}},
		{"comment", "Content", func() (ddb.Item, error) {
			return commentToWrite("post comment", Comment{RoomID: "r", ID: "c", Content: huge, Nickname: "n", CreatedAt: at}, 0)
		}},
		{"connection", "ConnectionID", func() (ddb.Item, error) {
			return connectionToWrite("join room", Connection{ID: huge, RoomID: "r", JoinedAt: at})
		}},
	}
	for _, o := range over {
		_, err := o.item()
		var ve *ddbkit.ValidationError
		if !errors.Is(err, ddbkit.ErrInvalidArgument) || !errors.As(err, &ve) || ve.Field != o.field ||
			!strings.HasPrefix(err.Error(), "livecomment: ") {
			t.Errorf("a %s over 400 KB: %v; want ErrInvalidArgument naming %s", o.name, err, o.field)
		}
	}
}
