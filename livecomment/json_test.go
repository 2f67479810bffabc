package livecomment_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit/livecomment"
)

// TestJSONNames: the model types marshal under the seed's attribute names,
// camelCase, an optional nickname left out when empty.
func TestJSONNames(t *testing.T) {
	at := time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"Room", livecomment.Room{ID: "r1", Name: "n", HostID: "h1", Status: livecomment.RoomOpen, CreatedAt: at, UpdatedAt: at},
			`{"roomId":"r1","name":"n","hostId":"h1","status":"OPEN","createdAt":"2024-01-05T10:00:00Z","updatedAt":"2024-01-05T10:00:00Z"}`},
		{"NewRoom", livecomment.NewRoom{Name: "n", HostID: "h1"}, `{"name":"n","hostId":"h1"}`},
		{"Comment", livecomment.Comment{RoomID: "r1", ID: "c1", Content: "hi", Nickname: "Anonymous", CreatedAt: at},
			`{"roomId":"r1","commentId":"c1","content":"hi","nickname":"Anonymous","createdAt":"2024-01-05T10:00:00Z"}`},
		{"NewComment", livecomment.NewComment{Content: "hi", Nickname: "Ann"}, `{"content":"hi","nickname":"Ann"}`},
		{"NewComment without a nickname", livecomment.NewComment{Content: "hi"}, `{"content":"hi"}`},
		{"Connection", livecomment.Connection{ID: "x1", RoomID: "r1", JoinedAt: at},
			`{"connectionId":"x1","roomId":"r1","timestamp":"2024-01-05T10:00:00Z"}`},
		{"BroadcastResult", livecomment.BroadcastResult{Sent: 2, Gone: 1}, `{"sent":2,"gone":1,"failed":0}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.v)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: json = %s, %v; want %s", tt.name, got, err, tt.want)
		}
	}
}
