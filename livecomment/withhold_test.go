package livecomment_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend/backendtest"
	"github.com/ddbkit/ddbkit/livecomment"
)

// TestWithholdOldItems: under Options.WithholdOldItems, no write asks
// DynamoDB for the item as it was, and a failed condition whose answer
// needed that item (a taken room ID, a closed room) is ErrConflict saying
// the item was withheld, on both stores alike, where it is
// ErrAlreadyExists, ErrRoomClosed or the room as it is without the
// option. The failed calls write nothing.
func TestWithholdOldItems(t *testing.T) {
	sameID := func(o *livecomment.Options) { o.NewID = func() string { return "room-1" } }
	withhold := func(o *livecomment.Options) { o.WithholdOldItems = true }
	stores := []struct {
		name string
		new  func(t *testing.T, opts ...func(*livecomment.Options)) (livecomment.Store, *backendtest.AskClient)
	}{
		{"memory", func(t *testing.T, opts ...func(*livecomment.Options)) (livecomment.Store, *backendtest.AskClient) {
			return newMemory(t, opts...), nil
		}},
		{"dynamo", func(t *testing.T, opts ...func(*livecomment.Options)) (livecomment.Store, *backendtest.AskClient) {
			var asker *backendtest.AskClient
			s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { asker = &backendtest.AskClient{Client: c}; return asker }, opts...)
			return s, asker
		}},
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			ctx := t.Context()
			t.Run("default", func(t *testing.T) {
				s, asker := st.new(t, sameID)
				if _, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "r", HostID: "h"}); err != nil {
					t.Fatal(err)
				}
				if _, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "r", HostID: "h"}); !errors.Is(err, ddbkit.ErrAlreadyExists) {
					t.Errorf("CreateRoom of a taken ID: %v, want ErrAlreadyExists", err)
				}
				if asker != nil && len(asker.Asked()) == 0 {
					t.Errorf("no write asked for the item as it was; want CreateRoom's to")
				}
			})
			t.Run("withheld", func(t *testing.T) {
				s, asker := st.new(t, sameID, withhold)
				if _, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "r", HostID: "h"}); err != nil {
					t.Fatal(err)
				}
				wantWithheld := func(what string, err error) {
					t.Helper()
					if !errors.Is(err, ddbkit.ErrConflict) || errors.Is(err, ddbkit.ErrAlreadyExists) || errors.Is(err, ddbkit.ErrNotFound) ||
						!strings.Contains(err.Error(), "withheld") {
						t.Errorf("%s: %v, want ErrConflict saying the item was withheld", what, err)
					}
				}
				_, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "other", HostID: "h2"})
				wantWithheld("CreateRoom of a taken ID", err)
				if _, err := s.CloseRoom(ctx, "room-1"); err != nil {
					t.Fatalf("CloseRoom of an open room: %v", err)
				}
				_, err = s.CloseRoom(ctx, "room-1")
				wantWithheld("CloseRoom of a closed room", err)
				_, err = s.CloseRoomAs(ctx, "room-1", "h")
				wantWithheld("CloseRoomAs of a closed room by its host", err)
				_, err = s.CloseRoomAs(ctx, "room-1", "not-h")
				wantWithheld("CloseRoomAs by another than the host", err)
				_, err = s.PostComment(ctx, "room-1", livecomment.NewComment{Content: "hi"})
				wantWithheld("PostComment to a closed room", err)
				if _, err := s.CloseRoom(ctx, "no-such-room"); !errors.Is(err, ddbkit.ErrConflict) {
					t.Errorf("CloseRoom of a missing room: %v, want ErrConflict", err)
				}
				r, err := s.GetRoom(ctx, "room-1")
				if err != nil || r.Name != "r" || r.HostID != "h" || r.Status != livecomment.RoomClosed {
					t.Errorf("GetRoom after the failed calls = %+v, %v; want room r of h, closed", r, err)
				}
				page, err := s.ListComments(ctx, "room-1", ddbkit.PageOptions{})
				if err != nil || len(page.Items) != 0 {
					t.Errorf("ListComments after the failed post = %d comments, %v; want none", len(page.Items), err)
				}
				if asker != nil && len(asker.Asked()) > 0 {
					t.Errorf("writes asked for the item as it was: %v", asker.Asked())
				}
			})
		})
	}
}
