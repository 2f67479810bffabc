package taskmgmt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
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
		got = append(got, r.EventName+" "+r.Change.Keys["SK"].String())
	}
	// One transaction's records come in its writes' order, the new
	// invitation first (an idempotency record refers to it); DynamoDB
	// orders a stream's records per item only.
	want := []string{"INSERT TINVITE#" + a.ID, "INSERT TINVITE#" + b.ID, "INSERT TINVITE#" + b2.ID, "REMOVE TINVITE#" + b.ID,
		"REMOVE TINVITE#" + b2.ID, "REMOVE TINVITE#" + a.ID}
	if !slices.Equal(got, want) {
		t.Fatalf("stream %v, want %v", got, want)
	}
	if n := len(s.TakeStream().Records); n != 0 {
		t.Fatalf("%d records taken twice", n)
	}
	for i, r := range ev.Records {
		if i > 0 && r.Change.SequenceNumber <= ev.Records[i-1].Change.SequenceNumber {
			t.Fatalf("sequence numbers out of order: %+v", ev.Records)
		}
		if r.EventSource != "aws:dynamodb" || r.Change.StreamViewType != "NEW_IMAGE" || (r.EventName == "INSERT") != (r.Change.NewImage != nil) ||
			r.Change.ApproximateCreationDateTime.Unix() != start.Unix() {
			t.Fatalf("record %d: %+v", i, r)
		}
	}
	h := taskmgmt.StreamHandler{Mailer: &recordingMailer{}, Clock: func() time.Time { return clock }}
	// The inserts alone: each mailed.
	m := &recordingMailer{}
	h.Mailer = m
	resp, err := h.Handle(ctx, events.DynamoDBEvent{Records: ev.Records[:3]})
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("Handle = %+v, %v", resp, err)
	}
	if !reflect.DeepEqual(m.mailed, []taskmgmt.Invitation{a, b, b2}) {
		t.Fatalf("mailed %+v", m.mailed)
	}
	// The whole batch: every invitation in it is deleted later in it
	// (replaced, accepted, revoked), so none is mailed.
	m = &recordingMailer{}
	h.Mailer = m
	resp, err = h.Handle(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 || len(m.mailed) != 0 {
		t.Fatalf("Handle = %+v, %v; mailed %+v, want none", resp, err, m.mailed)
	}
}

// TestReplacedInvitationMail: an address invited twice. Within one
// stream batch only the live invitation is mailed (the REMOVE of the
// replaced one follows its INSERT in the batch); across batches the
// replaced one was mailed before it was replaced, and its link fails
// with the documented ErrNotFound while the later one works. Neither
// reads the table: the handler has none.
func TestReplacedInvitationMail(t *testing.T) {
	clock := start
	s := taskmgmt.NewMemoryStore(deterministic, func(o *taskmgmt.Options) {
		o.Clock = func() time.Time { return clock }
		o.AcceptOnlyAddressee = true
	})
	inviteFixture(t, s)
	ctx := t.Context()
	s.TakeStream()
	h := taskmgmt.StreamHandler{Clock: func() time.Time { return clock }, OnSkip: func(r taskmgmt.SkippedRecord) {
		t.Errorf("OnSkip told of %s: %v; a replaced invitation is no error", r.InvitationID, r.Err)
	}}
	handle := func(what string) []taskmgmt.Invitation {
		t.Helper()
		m := &recordingMailer{}
		h.Mailer = m
		resp, err := h.Handle(ctx, s.TakeStream())
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("%s: Handle = %+v, %v", what, resp, err)
		}
		return m.mailed
	}

	// One batch: the first invitation, its replacement and the first's
	// REMOVE.
	first := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	second := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "Carol@example.com", Role: taskmgmt.RoleAdmin}))
	if got := handle("one batch"); !reflect.DeepEqual(got, []taskmgmt.Invitation{second}) {
		t.Fatalf("one batch mailed %+v, want only the replacement %s (not %s)", got, second.ID, first.ID)
	}

	// Two batches: the first is mailed in its own batch, then replaced.
	clock = clock.Add(time.Minute)
	third := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	if got := handle("first batch"); !reflect.DeepEqual(got, []taskmgmt.Invitation{third}) {
		t.Fatalf("first batch mailed %+v, want %s", got, third.ID)
	}
	fourth := must[taskmgmt.Invitation](t)(s.Invite(ctx, "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	if got := handle("second batch"); !reflect.DeepEqual(got, []taskmgmt.Invitation{fourth}) {
		t.Fatalf("second batch mailed %+v, want %s (its REMOVE of %s mails nothing)", got, fourth.ID, third.ID)
	}
	// The two batches mailed carol twice; the earlier link is dead, as
	// are those of the first pair.
	for _, inv := range []taskmgmt.Invitation{first, second, third} {
		_, err := s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: inv.TeamID, InvitationID: inv.ID, Token: inv.Token})
		if !errors.Is(err, ddbkit.ErrNotFound) {
			t.Fatalf("accepting replaced invitation %s: %v, want ErrNotFound", inv.ID, err)
		}
	}
	must[taskmgmt.Member](t)(s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: fourth.TeamID, InvitationID: fourth.ID, Token: fourth.Token}))
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
	corrupt.Change.NewImage = withAttr(corrupt.Change.NewImage, "user_role", events.NewStringAttribute("owner"))
	note := ins[0]
	note.Change.SequenceNumber = "901"
	note.Change.NewImage = withAttr(note.Change.NewImage, "type", events.NewStringAttribute("note"))
	modify := ins[0]
	modify.EventName = string(events.DynamoDBOperationTypeModify)
	// A TTL deletion of an invitation not in the batch (one of the batch's
	// would spare its mail, see TestReplacedInvitationMail).
	ttl := events.DynamoDBEventRecord{EventName: string(events.DynamoDBOperationTypeRemove),
		UserIdentity: &events.DynamoDBUserIdentity{Type: "Service", PrincipalID: "dynamodb.amazonaws.com"},
		Change: events.DynamoDBStreamRecord{Keys: map[string]events.DynamoDBAttributeValue{"PK": ins[0].Change.Keys["PK"],
			"SK": events.NewStringAttribute("TINVITE#expired")}, SequenceNumber: "902"}}
	batch := events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{ins[0], modify, ttl, note, corrupt, ins[1], ins[2]}}

	// Through Lambda's JSON, as the runtime decodes it.
	b, err := json.Marshal(batch)
	if err != nil {
		t.Fatal(err)
	}
	var decoded events.DynamoDBEvent
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(decoded); string(again) != string(b) {
		t.Fatalf("JSON round trip:\n got %s\nwant %s", again, b)
	}

	m := &recordingMailer{fail: map[string]bool{"fail@example.com": true}}
	var skipped []taskmgmt.SkippedRecord
	h := taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return now },
		OnSkip: func(r taskmgmt.SkippedRecord) {
			if !errors.Is(r.Err, ddbkit.ErrCorruptItem) || r.InvitationID != "" {
				t.Errorf("skipped %q for %v", r.InvitationID, r.Err)
			}
			skipped = append(skipped, r)
		}}
	resp, err := h.Handle(ctx, decoded)
	if err != nil {
		t.Fatal(err)
	}
	// The failure stops the handler: it and the record after it are
	// reported, and c@ is not mailed.
	checkStoppedAt(t, decoded, resp, 5)
	if !reflect.DeepEqual(m.mailed, invs[:1]) {
		t.Fatalf("mailed %+v", m.mailed)
	}
	if len(skipped) != 1 || skipped[0].Record.Change.SequenceNumber != "900" {
		t.Fatalf("skipped %+v, want the corrupt record", skipped)
	}

	// Expired by the time it is handled: not mailed, not failed.
	now = invs[0].ExpiresAt
	m = &recordingMailer{}
	resp, _ = taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return now }}.Handle(ctx, ev)
	if len(m.mailed) != 0 || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("expired: mailed %+v, failures %+v", m.mailed, resp.BatchItemFailures)
	}
	if b, _ := json.Marshal(resp); string(b) != `{"batchItemFailures":[]}` {
		t.Fatalf("empty response JSON %s", b)
	}

	// An ended context fails what it did not mail.
	now = start
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	m = &recordingMailer{}
	resp, _ = taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return now }}.Handle(cancelled, ev)
	checkStoppedAt(t, ev, resp, 0)
	if len(m.keys) != 0 {
		t.Fatalf("under an ended context, the mailer was called for %v", m.keys)
	}
}

// TestStreamStopsAtFirstFailure: a transient failure stops the handler;
// it reports the failed record and every later one, mails nothing after
// it, and Lambda's retry from the failed record mails the rest, each
// invitation once.
func TestStreamStopsAtFirstFailure(t *testing.T) {
	s, invs := streamFixture(t, "a@example.com", "b@example.com", "c@example.com", "d@example.com")
	ev := s.TakeStream()
	m := &recordingMailer{failOnce: map[string]bool{"b@example.com": true}}
	h := taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return start }}
	resp := must[events.DynamoDBEventResponse](t)(h.Handle(t.Context(), ev))
	checkStoppedAt(t, ev, resp, 1)
	if !reflect.DeepEqual(m.mailed, invs[:1]) || len(m.keys) != 2 {
		t.Fatalf("mailed %+v, tried %v; want a mailed, b tried", m.mailed, m.keys)
	}
	resp = must[events.DynamoDBEventResponse](t)(h.Handle(t.Context(), retryOf(t, ev, resp)))
	if len(resp.BatchItemFailures) != 0 {
		t.Fatalf("retry: failures %+v", resp.BatchItemFailures)
	}
	if !reflect.DeepEqual(m.mailed, invs) {
		t.Fatalf("after the retry, mailed %+v, want each once: %+v", m.mailed, invs)
	}
}

// TestStreamMailsOncePerInvocation: an invitation whose INSERT the batch
// holds twice (another writer deleted and put it again) is mailed once.
func TestStreamMailsOncePerInvocation(t *testing.T) {
	s, invs := streamFixture(t, "a@example.com", "b@example.com")
	ev := s.TakeStream()
	again := ev.Records[0]
	again.Change.SequenceNumber = "900"
	ev.Records = append(ev.Records, again)
	m := &recordingMailer{}
	resp := must[events.DynamoDBEventResponse](t)(taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return start }}.Handle(t.Context(), ev))
	if len(resp.BatchItemFailures) != 0 || !reflect.DeepEqual(m.mailed, invs) {
		t.Fatalf("mailed %+v, failures %+v; want each invitation once", m.mailed, resp.BatchItemFailures)
	}
}

// TestStreamPermanentMail: a mail refused for good is skipped, told to
// OnSkip with the invitation's ID, and the later records are mailed.
func TestStreamPermanentMail(t *testing.T) {
	s, invs := streamFixture(t, "a@example.com", "bad@example.com", "c@example.com")
	ev := s.TakeStream()
	m := &recordingMailer{reject: map[string]bool{"bad@example.com": true}}
	var skipped []taskmgmt.SkippedRecord
	resp := must[events.DynamoDBEventResponse](t)(taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return start },
		OnSkip: func(r taskmgmt.SkippedRecord) { skipped = append(skipped, r) }}.Handle(t.Context(), ev))
	if len(resp.BatchItemFailures) != 0 {
		t.Fatalf("failures %+v, want none", resp.BatchItemFailures)
	}
	if want := []taskmgmt.Invitation{invs[0], invs[2]}; !reflect.DeepEqual(m.mailed, want) {
		t.Fatalf("mailed %+v, want %+v", m.mailed, want)
	}
	if len(skipped) != 1 {
		t.Fatalf("skipped %+v, want one record", skipped)
	}
	if r := skipped[0]; r.InvitationID != invs[1].ID || !errors.Is(r.Err, taskmgmt.ErrPermanentMail) ||
		r.Record.Change.SequenceNumber != ev.Records[1].Change.SequenceNumber {
		t.Fatalf("skipped %+v, want the record of %s for ErrPermanentMail", r, invs[1].ID)
	}
}

// TestStreamDeadline: the handler mails nothing once less than
// DeadlineMargin remains before ctx's deadline, and reports the rest; a
// mail call that hangs is cut off in time to respond.
func TestStreamDeadline(t *testing.T) {
	s, invs := streamFixture(t, "a@example.com", "b@example.com", "c@example.com")
	ev := s.TakeStream()
	clock := func() time.Time { return start }
	tests := []struct {
		name     string
		margin   time.Duration
		left     time.Duration // before ctx's deadline, when Handle starts
		wait     func(t *testing.T, ctx context.Context, deadline time.Time, margin time.Duration) error
		mailed   int // the first n invitations
		stopped  int // the index of the first record reported; -1 for none
		returned bool
	}{
		{name: "already within the default margin", left: 500 * time.Millisecond, stopped: 0},
		{name: "slow mailer", margin: 100 * time.Millisecond, left: 400 * time.Millisecond, mailed: 1, stopped: 1,
			wait: func(_ *testing.T, _ context.Context, deadline time.Time, margin time.Duration) error {
				time.Sleep(time.Until(deadline) - margin + 20*time.Millisecond) // ignores ctx, and succeeds
				return nil
			}},
		{name: "hanging mailer", margin: 200 * time.Millisecond, left: 600 * time.Millisecond, stopped: 0,
			wait: func(t *testing.T, ctx context.Context, deadline time.Time, margin time.Duration) error {
				if d, ok := ctx.Deadline(); !ok || d.After(deadline.Add(-margin)) {
					t.Errorf("the mailer's deadline is %v, want one %v before %v", d, margin, deadline)
				}
				<-ctx.Done()
				return ctx.Err()
			}},
		{name: "no margin", margin: -1, left: 500 * time.Millisecond, mailed: 3, stopped: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			deadline := time.Now().Add(tt.left)
			ctx, cancel := context.WithDeadline(t.Context(), deadline)
			defer cancel()
			m := &recordingMailer{}
			margin := tt.margin
			if margin == 0 {
				margin = time.Second
			}
			if tt.wait != nil {
				m.wait = func(ctx context.Context) error { return tt.wait(t, ctx, deadline, margin) }
			}
			resp := must[events.DynamoDBEventResponse](t)(taskmgmt.StreamHandler{Mailer: m, Clock: clock, DeadlineMargin: tt.margin}.Handle(ctx, ev))
			if time.Now().After(deadline) {
				t.Errorf("Handle returned after the deadline")
			}
			if tt.stopped < 0 {
				if len(resp.BatchItemFailures) != 0 {
					t.Errorf("failures %+v, want none", resp.BatchItemFailures)
				}
			} else {
				checkStoppedAt(t, ev, resp, tt.stopped)
			}
			if len(m.mailed) != tt.mailed || tt.mailed > 0 && !reflect.DeepEqual(m.mailed, invs[:tt.mailed]) {
				t.Errorf("mailed %+v, want %+v", m.mailed, invs[:tt.mailed])
			}
		})
	}
}

// TestStreamIdempotencyKey: the key is the invitation's ID, the same on a
// redelivery of its record.
func TestStreamIdempotencyKey(t *testing.T) {
	s, invs := streamFixture(t, "a@example.com", "b@example.com")
	ev := s.TakeStream()
	m := &recordingMailer{}
	h := taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return start }}
	for range 2 {
		must[events.DynamoDBEventResponse](t)(h.Handle(t.Context(), ev))
	}
	if want := []string{invs[0].ID, invs[1].ID, invs[0].ID, invs[1].ID}; !slices.Equal(m.keys, want) {
		t.Fatalf("keys %v, want %v", m.keys, want)
	}
}

// TestStreamLambdaJSON decodes an event as Lambda's runtime gives it, and
// encodes the response as Lambda reads it.
func TestStreamLambdaJSON(t *testing.T) {
	const event = `{"Records":[{
		"eventID":"c4ca4238a0b923820dcc509a6f75849b","eventName":"INSERT","eventVersion":"1.1","eventSource":"aws:dynamodb",
		"awsRegion":"ap-northeast-1",
		"dynamodb":{"ApproximateCreationDateTime":1768141200,"Keys":{"PK":{"S":"TEAM#t1"},"SK":{"S":"TINVITE#i1"}},
			"NewImage":{"PK":{"S":"TEAM#t1"},"SK":{"S":"TINVITE#i1"},"type":{"S":"invitation"},"email":{"S":"bob@example.com"},
				"user_role":{"S":"member"},"createdAt":{"N":"1768141200"},"expiresAt":{"N":"1768227600"},
				"invitedBy":{"S":"USER#u1"},"token":{"S":"tok1"},"team_name":{"S":"タスク管理 APP 開発チーム"}},
			"SequenceNumber":"111","SizeBytes":226,"StreamViewType":"NEW_IMAGE"},
		"eventSourceARN":"arn:aws:dynamodb:ap-northeast-1:123456789012:table/task-table-invitation-v3/stream/2026-01-11T14:20:00.000"
	},{
		"eventID":"c81e728d9d4c2f636f067f89cc14862c","eventName":"REMOVE","eventVersion":"1.1","eventSource":"aws:dynamodb",
		"awsRegion":"ap-northeast-1","userIdentity":{"type":"Service","principalId":"dynamodb.amazonaws.com"},
		"dynamodb":{"ApproximateCreationDateTime":1768227700,"Keys":{"PK":{"S":"TEAM#t0"},"SK":{"S":"TINVITE#i0"}},
			"SequenceNumber":"222","SizeBytes":38,"StreamViewType":"NEW_IMAGE"},
		"eventSourceARN":"arn:aws:dynamodb:ap-northeast-1:123456789012:table/task-table-invitation-v3/stream/2026-01-11T14:20:00.000"
	}]}`
	var ev events.DynamoDBEvent
	if err := json.Unmarshal([]byte(event), &ev); err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Unix(1768141200, 0) }
	m := &recordingMailer{}
	resp := must[events.DynamoDBEventResponse](t)(taskmgmt.StreamHandler{Mailer: m, Clock: now}.Handle(t.Context(), ev))
	want := taskmgmt.Invitation{ID: "i1", TeamID: "t1", TeamName: "タスク管理 APP 開発チーム", Email: "bob@example.com", Role: taskmgmt.RoleMember,
		InvitedBy: "u1", Token: "tok1", CreatedAt: time.Unix(1768141200, 0).UTC(), ExpiresAt: time.Unix(1768227600, 0).UTC()}
	if len(resp.BatchItemFailures) != 0 || len(m.mailed) != 1 || !reflect.DeepEqual(m.mailed[0], want) {
		t.Fatalf("mailed %+v, failures %+v; want %+v", m.mailed, resp.BatchItemFailures, want)
	}
	resp = must[events.DynamoDBEventResponse](t)(taskmgmt.StreamHandler{Mailer: &recordingMailer{fail: map[string]bool{"bob@example.com": true}}, Clock: now}.Handle(t.Context(), ev))
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"batchItemFailures":[{"itemIdentifier":"111"},{"itemIdentifier":"222"}]}`; string(b) != want {
		t.Fatalf("response JSON %s, want %s", b, want)
	}
}

// streamFixture is a memory store whose team id01 has sent an invitation
// to each address, in order, at start; its stream holds their INSERTs.
func streamFixture(t *testing.T, emails ...string) (*taskmgmt.MemoryStore, []taskmgmt.Invitation) {
	t.Helper()
	s := taskmgmt.NewMemoryStore(deterministic)
	inviteFixture(t, s)
	s.TakeStream()
	var invs []taskmgmt.Invitation
	for _, e := range emails {
		invs = append(invs, must[taskmgmt.Invitation](t)(s.Invite(t.Context(), "id01", "u1", taskmgmt.NewInvitation{Email: e})))
	}
	return s, invs
}

// checkStoppedAt checks that resp reports exactly the records of ev from
// the i-th on, in order.
func checkStoppedAt(t *testing.T, ev events.DynamoDBEvent, resp events.DynamoDBEventResponse, i int) {
	t.Helper()
	var got, want []string
	for _, f := range resp.BatchItemFailures {
		got = append(got, f.ItemIdentifier)
	}
	for _, r := range ev.Records[i:] {
		want = append(want, r.Change.SequenceNumber)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("failures %v, want records %d to %d: %v", got, i, len(ev.Records)-1, want)
	}
}

// retryOf is the batch Lambda delivers after resp: the records from the
// earliest reported one on.
func retryOf(t *testing.T, ev events.DynamoDBEvent, resp events.DynamoDBEventResponse) events.DynamoDBEvent {
	t.Helper()
	if len(resp.BatchItemFailures) == 0 {
		t.Fatal("no failure to retry")
	}
	for i, r := range ev.Records {
		if r.Change.SequenceNumber == resp.BatchItemFailures[0].ItemIdentifier {
			return events.DynamoDBEvent{Records: ev.Records[i:]}
		}
	}
	t.Fatalf("failure %v is no record of the batch", resp.BatchItemFailures[0])
	return events.DynamoDBEvent{}
}

// withAttr returns a copy of im with k set to v.
func withAttr(im map[string]events.DynamoDBAttributeValue, k string, v events.DynamoDBAttributeValue) map[string]events.DynamoDBAttributeValue {
	out := map[string]events.DynamoDBAttributeValue{}
	for kk, vv := range im {
		out[kk] = vv
	}
	out[k] = v
	return out
}

// eventImage converts an item to a stream image, for the types an
// invitation item has.
func eventImage(item map[string]types.AttributeValue) map[string]events.DynamoDBAttributeValue {
	out := map[string]events.DynamoDBAttributeValue{}
	for k, v := range item {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			out[k] = events.NewStringAttribute(v.Value)
		case *types.AttributeValueMemberN:
			out[k] = events.NewNumberAttribute(v.Value)
		default:
			panic(fmt.Sprintf("attribute value %T", v))
		}
	}
	return out
}

// sdkImage converts a stream image to an item, for the types an
// invitation item has; nil stays nil.
func sdkImage(im map[string]events.DynamoDBAttributeValue) map[string]types.AttributeValue {
	if im == nil {
		return nil
	}
	out := map[string]types.AttributeValue{}
	for k, v := range im {
		switch v.DataType() {
		case events.DataTypeString:
			out[k] = &types.AttributeValueMemberS{Value: v.String()}
		case events.DataTypeNumber:
			out[k] = &types.AttributeValueMemberN{Value: v.Number()}
		default:
			panic(fmt.Sprintf("attribute type %v", v.DataType()))
		}
	}
	return out
}

// The mapping StreamHandler needs, as ddbkit export taskmgmt emits it,
// here with the function and destination given and the stream referred
// to in the template.
func ExampleEventSourceMapping_CloudFormation() {
	m := taskmgmt.InvitationStreamMapping()
	b, err := m.CloudFormation("invitation-mailer",
		map[string]any{"Fn::GetAtt": []string{"InvitationTable", "StreamArn"}},
		"arn:aws:sqs:ap-northeast-1:123456789012:invitation-mailer-failures")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))
	// Output:
	// {
	//   "Type": "AWS::Lambda::EventSourceMapping",
	//   "Properties": {
	//     "FunctionName": "invitation-mailer",
	//     "EventSourceArn": {
	//       "Fn::GetAtt": [
	//         "InvitationTable",
	//         "StreamArn"
	//       ]
	//     },
	//     "StartingPosition": "LATEST",
	//     "BatchSize": 100,
	//     "FunctionResponseTypes": [
	//       "ReportBatchItemFailures"
	//     ],
	//     "BisectBatchOnFunctionError": false,
	//     "MaximumRetryAttempts": 10,
	//     "MaximumRecordAgeInSeconds": 3600,
	//     "DestinationConfig": {
	//       "OnFailure": {
	//         "Destination": "arn:aws:sqs:ap-northeast-1:123456789012:invitation-mailer-failures"
	//       }
	//     },
	//     "FilterCriteria": {
	//       "Filters": [
	//         {
	//           "Pattern": "{\"eventName\":[\"INSERT\",\"REMOVE\"]}"
	//         }
	//       ]
	//     }
	//   }
	// }
}

// TestInvitationStreamMapping checks the mapping's settings against what
// the handler relies on.
func TestInvitationStreamMapping(t *testing.T) {
	m := taskmgmt.InvitationStreamMapping()
	if !slices.Equal(m.FunctionResponseTypes, []string{"ReportBatchItemFailures"}) {
		t.Errorf("FunctionResponseTypes %v: without ReportBatchItemFailures a failed mail is lost", m.FunctionResponseTypes)
	}
	if m.MaximumRetryAttempts < 0 || m.MaximumRecordAgeInSeconds < 60 ||
		time.Duration(m.MaximumRecordAgeInSeconds)*time.Second > taskmgmt.DefaultInvitationLifetime {
		t.Errorf("retries %d, age %ds: want finite retries and an age within Lambda's minimum (60s) and the invitations' lifetime",
			m.MaximumRetryAttempts, m.MaximumRecordAgeInSeconds)
	}
	if m.BatchSize < 1 || m.BatchSize > 10000 || m.StartingPosition != "LATEST" && m.StartingPosition != "TRIM_HORIZON" {
		t.Errorf("batch size %d, starting position %q", m.BatchSize, m.StartingPosition)
	}
	var pattern struct{ EventName []string }
	if err := json.Unmarshal([]byte(m.FilterPattern), &pattern); err != nil || !slices.Equal(pattern.EventName, []string{"INSERT", "REMOVE"}) {
		t.Errorf("filter pattern %s (%v), want INSERT and REMOVE records only (the REMOVEs spare the mail of an invitation its batch deletes)", m.FilterPattern, err)
	}
	_, err := m.CloudFormation(nil, "arn", nil)
	if !errors.Is(err, ddbkit.ErrInvalidArgument) {
		t.Errorf("CloudFormation without a function: %v, want ErrInvalidArgument", err)
	}
	b, err := m.CloudFormation("f", "arn", nil)
	if err != nil || strings.Contains(string(b), "DestinationConfig") {
		t.Errorf("CloudFormation without a destination: %s, %v; want no DestinationConfig", b, err)
	}
}
