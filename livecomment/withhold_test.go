package livecomment_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
)

// oldAsker is a client that notes every write that asks DynamoDB for the
// item as it was when its condition fails.
type oldAsker struct {
	ddbkit.Client
	mu   sync.Mutex
	asks []string
}

func (c *oldAsker) note(op string, rv types.ReturnValuesOnConditionCheckFailure) {
	if rv != "" && rv != types.ReturnValuesOnConditionCheckFailureNone {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.asks = append(c.asks, op+" "+string(rv))
	}
}

func (c *oldAsker) PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.note("PutItem", in.ReturnValuesOnConditionCheckFailure)
	return c.Client.PutItem(ctx, in, optFns...)
}

func (c *oldAsker) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.note("UpdateItem", in.ReturnValuesOnConditionCheckFailure)
	return c.Client.UpdateItem(ctx, in, optFns...)
}

func (c *oldAsker) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.note("DeleteItem", in.ReturnValuesOnConditionCheckFailure)
	return c.Client.DeleteItem(ctx, in, optFns...)
}

func (c *oldAsker) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	for _, it := range in.TransactItems {
		switch {
		case it.Put != nil:
			c.note("TransactWriteItems Put", it.Put.ReturnValuesOnConditionCheckFailure)
		case it.Update != nil:
			c.note("TransactWriteItems Update", it.Update.ReturnValuesOnConditionCheckFailure)
		case it.Delete != nil:
			c.note("TransactWriteItems Delete", it.Delete.ReturnValuesOnConditionCheckFailure)
		case it.ConditionCheck != nil:
			c.note("TransactWriteItems ConditionCheck", it.ConditionCheck.ReturnValuesOnConditionCheckFailure)
		}
	}
	return c.Client.TransactWriteItems(ctx, in, optFns...)
}

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
		new  func(t *testing.T, opts ...func(*livecomment.Options)) (livecomment.Store, *oldAsker)
	}{
		{"memory", func(t *testing.T, opts ...func(*livecomment.Options)) (livecomment.Store, *oldAsker) {
			return newMemory(t, opts...), nil
		}},
		{"dynamo", func(t *testing.T, opts ...func(*livecomment.Options)) (livecomment.Store, *oldAsker) {
			var asker *oldAsker
			s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { asker = &oldAsker{Client: c}; return asker }, opts...)
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
				if asker != nil && len(asker.asks) == 0 {
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
				if asker != nil && len(asker.asks) > 0 {
					t.Errorf("writes asked for the item as it was: %v", asker.asks)
				}
			})
		})
	}
}
