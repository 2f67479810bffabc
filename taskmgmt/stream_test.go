package taskmgmt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// TestMemoryStream runs the mail flow on the memory store: its stream
// holds an INSERT per invitation written and a REMOVE per one deleted, and
// the handler mails exactly the inserts.
func TestMemoryStream(t *testing.T) {
	clock := start
	s := taskmgmt.NewMemoryStore(deterministic, func(o *taskmgmt.Options) { o.Clock = func() time.Time { return clock } })
	inviteFixture(t, s)
	ctx := t.Context()
	s.TakeStream() // nothing but invitations goes to it
	a := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "a@example.com"}))
	b := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	b2 := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com", Role: taskmgmt.RoleAdmin}))
	must[taskmgmt.Member](t)(s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: "id01", InvitationID: b2.ID, Token: b2.Token}))
	if err := s.RevokeInvitation(ctx, "id01", "u1", a.ID); err != nil {
		t.Fatal(err)
	}
	ev := s.TakeStream()
	var got []string
	for _, r := range ev.Records {
		got = append(got, r.EventName+" "+fmt.Sprint(r.Change.Keys["SK"].(*types.AttributeValueMemberS).Value))
	}
	want := []string{"INSERT TINVITE#" + a.ID, "INSERT TINVITE#" + b.ID, "REMOVE TINVITE#" + b.ID, "INSERT TINVITE#" + b2.ID,
		"REMOVE TINVITE#" + b2.ID, "REMOVE TINVITE#" + a.ID}
	if !slices.Equal(got, want) {
		t.Fatalf("stream %v, want %v", got, want)
	}
	if n := len(s.TakeStream().Records); n != 0 {
		t.Fatalf("%d records taken twice", n)
	}
	for i := 1; i < len(ev.Records); i++ {
		if ev.Records[i].Change.SequenceNumber <= ev.Records[i-1].Change.SequenceNumber {
			t.Fatalf("sequence numbers out of order: %+v", ev.Records)
		}
	}
	m := &recordingMailer{}
	resp, err := taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return clock }}.Handle(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("Handle = %+v, %v", resp, err)
	}
	if !reflect.DeepEqual(m.mailed, []taskmgmt.Invitation{a, b, b2}) {
		t.Fatalf("mailed %+v", m.mailed)
	}
}

// TestStreamHandler feeds the handler records of every kind.
func TestStreamHandler(t *testing.T) {
	now := start
	s := taskmgmt.NewMemoryStore(deterministic)
	inviteFixture(t, s)
	ctx := t.Context()
	var invs []taskmgmt.Invitation
	for _, e := range []string{"a@example.com", "fail@example.com", "c@example.com"} {
		invs = append(invs, must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: e})))
	}
	ev := s.TakeStream()
	ins := ev.Records
	corrupt := ins[2]
	corrupt.Change.SequenceNumber = "900"
	corrupt.Change.NewImage = withAttr(corrupt.Change.NewImage, "user_role", &types.AttributeValueMemberS{Value: "owner"})
	note := ins[0]
	note.Change.SequenceNumber = "901"
	note.Change.NewImage = withAttr(note.Change.NewImage, "type", &types.AttributeValueMemberS{Value: "note"})
	modify := ins[0]
	modify.EventName = taskmgmt.EventModify
	ttl := taskmgmt.StreamRecord{EventName: taskmgmt.EventRemove, UserIdentity: &taskmgmt.StreamIdentity{Type: "Service", PrincipalID: "dynamodb.amazonaws.com"},
		Change: taskmgmt.StreamChange{Keys: ins[0].Change.Keys, SequenceNumber: "902"}}
	batch := taskmgmt.StreamEvent{Records: []taskmgmt.StreamRecord{ins[0], modify, ttl, note, corrupt, ins[1], ins[2]}}

	// Through Lambda's JSON, as the runtime decodes it.
	b, err := json.Marshal(batch)
	if err != nil {
		t.Fatal(err)
	}
	var decoded taskmgmt.StreamEvent
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(decoded, batch) {
		t.Fatalf("JSON round trip:\n got %+v\nwant %+v", decoded, batch)
	}

	m := &recordingMailer{fail: map[string]bool{"fail@example.com": true}}
	var skipped []string
	h := taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return now },
		OnSkip: func(r taskmgmt.StreamRecord, err error) {
			if !errors.Is(err, ddbkit.ErrCorruptItem) {
				t.Errorf("skipped for %v", err)
			}
			skipped = append(skipped, r.Change.SequenceNumber)
		}}
	resp, err := h.Handle(ctx, decoded)
	if err != nil {
		t.Fatal(err)
	}
	if want := []taskmgmt.BatchItemFailure{{ItemIdentifier: ins[1].Change.SequenceNumber}}; !reflect.DeepEqual(resp.BatchItemFailures, want) {
		t.Fatalf("failures %+v, want %+v", resp.BatchItemFailures, want)
	}
	if !reflect.DeepEqual(m.mailed, []taskmgmt.Invitation{invs[0], invs[2]}) {
		t.Fatalf("mailed %+v", m.mailed)
	}
	if !slices.Equal(skipped, []string{"900"}) {
		t.Fatalf("skipped %v, want the corrupt record", skipped)
	}

	// Expired by the time it is handled: not mailed, not failed.
	now = invs[0].ExpiresAt
	m = &recordingMailer{}
	resp, _ = h.Handle(ctx, ev)
	if len(m.mailed) != 0 || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("expired: mailed %+v, failures %+v", m.mailed, resp.BatchItemFailures)
	}

	// An ended context fails what it did not mail.
	now = start
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	resp, _ = taskmgmt.StreamHandler{Mailer: &recordingMailer{}, Clock: func() time.Time { return now }}.Handle(cancelled, ev)
	if len(resp.BatchItemFailures) != 3 {
		t.Fatalf("under an ended context: %+v", resp.BatchItemFailures)
	}
	if b, _ := json.Marshal(taskmgmt.StreamResponse{BatchItemFailures: []taskmgmt.BatchItemFailure{}}); string(b) != `{"batchItemFailures":[]}` {
		t.Fatalf("empty response JSON %s", b)
	}
}

// withAttr returns a copy of im with k set to v.
func withAttr(im taskmgmt.StreamImage, k string, v types.AttributeValue) taskmgmt.StreamImage {
	out := taskmgmt.StreamImage{}
	for kk, vv := range im {
		out[kk] = vv
	}
	out[k] = v
	return out
}

// TestStreamImageJSON decodes every attribute type of DynamoDB's JSON.
func TestStreamImageJSON(t *testing.T) {
	in := `{"s":{"S":"x"},"n":{"N":"1.5"},"b":{"B":"AQI="},"t":{"BOOL":true},"z":{"NULL":true},"ss":{"SS":["a","b"]},` +
		`"ns":{"NS":["1"]},"bs":{"BS":["AQ=="]},"l":{"L":[{"S":"y"},{"N":"2"}]},"m":{"M":{"k":{"S":"v"}}}}`
	var im taskmgmt.StreamImage
	if err := json.Unmarshal([]byte(in), &im); err != nil {
		t.Fatal(err)
	}
	want := taskmgmt.StreamImage{
		"s": &types.AttributeValueMemberS{Value: "x"}, "n": &types.AttributeValueMemberN{Value: "1.5"},
		"b": &types.AttributeValueMemberB{Value: []byte{1, 2}}, "t": &types.AttributeValueMemberBOOL{Value: true},
		"z": &types.AttributeValueMemberNULL{Value: true}, "ss": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"1"}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}}},
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "y"}, &types.AttributeValueMemberN{Value: "2"}}},
		"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: "v"}}},
	}
	if !reflect.DeepEqual(im, want) {
		t.Fatalf("decoded %#v", im)
	}
	out, err := json.Marshal(im)
	if err != nil {
		t.Fatal(err)
	}
	var again taskmgmt.StreamImage
	if err := json.Unmarshal(out, &again); err != nil || !reflect.DeepEqual(again, want) {
		t.Fatalf("round trip through %s: %v", out, err)
	}
	for _, bad := range []string{`{"a":{"S":"x","N":"1"}}`, `{"a":{"X":"1"}}`, `{"a":{"S":1}}`, `{"a":"x"}`} {
		if err := json.Unmarshal([]byte(bad), &im); err == nil {
			t.Errorf("%s decoded without error", bad)
		}
	}
}
