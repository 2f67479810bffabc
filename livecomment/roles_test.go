package livecomment_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/ddbkit/ddbkit/livecomment"
)

// TestRoles pins each role interface to the seed's permission table: a
// function's interface has exactly the methods its table grants allow.
func TestRoles(t *testing.T) {
	tests := []struct {
		function string
		role     reflect.Type
		methods  []string
	}{
		{"CreateRoomFunction (Rooms rw)", reflect.TypeFor[livecomment.RoomCreator](),
			[]string{"CloseRoom", "CloseRoomAs", "CreateRoom", "GetRoom", "ListHostRooms"}},
		{"CloseRoomFunction (Rooms rw)", reflect.TypeFor[livecomment.RoomCloser](),
			[]string{"CloseRoom", "CloseRoomAs", "CreateRoom", "GetRoom", "ListHostRooms"}},
		{"GetUserRoomsFunction (Rooms r)", reflect.TypeFor[livecomment.HostRoomsReader](),
			[]string{"GetRoom", "ListHostRooms"}},
		{"GetRoomCommentsFunction (Comments r)", reflect.TypeFor[livecomment.RoomCommentsReader](),
			[]string{"ListComments", "ListCommentsNewest"}},
		{"PostCommentFunction (Comments rw, Connections r)", reflect.TypeFor[livecomment.CommentPoster](),
			[]string{"GetConnection", "ListComments", "ListCommentsNewest", "ListConnections", "PostComment"}},
		{"JoinRoomFunction (Connections rw, Rooms r)", reflect.TypeFor[livecomment.RoomJoiner](),
			[]string{"Disconnect", "GetConnection", "GetRoom", "JoinRoom", "ListConnections", "ListHostRooms"}},
		{"DisconnectFunction (Connections rw)", reflect.TypeFor[livecomment.Disconnecter](),
			[]string{"Disconnect", "GetConnection", "JoinRoom", "ListConnections"}},
	}
	for _, tt := range tests {
		var got []string
		for i := range tt.role.NumMethod() {
			got = append(got, tt.role.Method(i).Name)
		}
		if !slices.Equal(got, tt.methods) {
			t.Errorf("%s: %s has %v, want %v", tt.function, tt.role, got, tt.methods)
		}
	}
}
