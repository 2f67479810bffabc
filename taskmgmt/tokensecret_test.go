package taskmgmt_test

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/taskmgmt/taskmgmttest"
)

// checkHashedToken: the item holds "sha256:<hex>", never the token.
func checkHashedToken(t *testing.T, item map[string]types.AttributeValue, token string) {
	t.Helper()
	got, _ := item["token"].(*types.AttributeValueMemberS)
	if got == nil || !strings.HasPrefix(got.Value, "sha256:") || strings.Contains(got.Value, token) {
		t.Fatalf("stored token attribute = %v, want sha256:<hex> of the token, not the token %q", item["token"], token)
	}
	for name, v := range item {
		if s, ok := v.(*types.AttributeValueMemberS); ok && strings.Contains(s.Value, token) {
			t.Fatalf("attribute %s holds the token", name)
		}
	}
}

// mailAndAccept runs the stream handler, with the secret, over ev, and
// accepts the invitation with the token it mailed.
func mailAndAccept(t *testing.T, s taskmgmt.Store, ev events.DynamoDBEvent, want taskmgmt.Invitation) {
	t.Helper()
	m := &recordingMailer{}
	resp := must[events.DynamoDBEventResponse](t)(taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return start }, TokenSecret: taskmgmttest.Secret}.Handle(t.Context(), ev))
	if len(resp.BatchItemFailures) != 0 || len(m.mailed) != 1 {
		t.Fatalf("mailed %+v, failures %+v; want one mail", m.mailed, resp.BatchItemFailures)
	}
	if m.mailed[0].Token != want.Token {
		t.Fatalf("mailed token %q, want the one Invite gave, %q", m.mailed[0].Token, want.Token)
	}
	must[taskmgmt.Member](t)(s.AcceptInvitation(t.Context(), "u3", taskmgmt.Acceptance{TeamID: want.TeamID, InvitationID: want.ID, Token: m.mailed[0].Token}))

	// Without the secret, the handler cannot mail: a failure, retried.
	m = &recordingMailer{}
	resp = must[events.DynamoDBEventResponse](t)(taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return start }}.Handle(t.Context(), ev))
	if len(resp.BatchItemFailures) != 1 || len(m.mailed) != 0 {
		t.Fatalf("without the secret: mailed %+v, failures %+v; want one failure", m.mailed, resp.BatchItemFailures)
	}
	// With another secret, the token does not derive: skipped, not mailed.
	var skipped []taskmgmt.SkippedRecord
	other := append([]byte(nil), taskmgmttest.Secret...)
	other[0] ^= 1
	resp = must[events.DynamoDBEventResponse](t)(taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return start }, TokenSecret: other,
		OnSkip: func(r taskmgmt.SkippedRecord) { skipped = append(skipped, r) }}.Handle(t.Context(), ev))
	if len(resp.BatchItemFailures) != 0 || len(m.mailed) != 0 || len(skipped) != 1 || skipped[0].InvitationID != want.ID {
		t.Fatalf("another secret: mailed %+v, failures %+v, skipped %+v; want one skip, of %s", m.mailed, resp.BatchItemFailures, skipped, want.ID)
	}
}

func TestTokenSecretMemory(t *testing.T) {
	s := taskmgmt.NewMemoryStore(deterministic, func(o *taskmgmt.Options) { o.TokenSecret = taskmgmttest.Secret })
	inviteFixture(t, s)
	s.TakeStream()
	inv := must[taskmgmt.Invitation](t)(s.Invite(t.Context(), "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	items := s.Export()[taskmgmt.DefaultInvitationTableName]
	if len(items) != 1 {
		t.Fatalf("%d invitation items, want 1", len(items))
	}
	checkHashedToken(t, items[0], inv.Token)
	ev := s.TakeStream()
	for _, r := range ev.Records {
		checkHashedToken(t, sdkImage(r.Change.NewImage), inv.Token)
	}
	mailAndAccept(t, s, ev, inv)
}

func TestTokenSecretDynamo(t *testing.T) {
	s, c, _, invTable := newDynamoInv(t, nil, deterministic, func(o *taskmgmt.Options) { o.TokenSecret = taskmgmttest.Secret })
	inviteFixture(t, s)
	inv := must[taskmgmt.Invitation](t)(s.Invite(t.Context(), "id01", "u1", taskmgmt.NewInvitation{Email: "carol@example.com"}))
	checkHashedToken(t, rawItem(t, c, invTable, "TEAM#id01", "TINVITE#"+inv.ID), inv.Token)
	ev := readStream(t, c, invTable)
	for _, r := range ev.Records {
		checkHashedToken(t, sdkImage(r.Change.NewImage), inv.Token)
	}
	mailAndAccept(t, s, ev, inv)
}

// TestStreamRevalidates: an invitation another program wrote with an
// email or a team name Invite would refuse is not mailed, but skipped
// (OnSkip), not failed: retrying cannot mend it.
func TestStreamRevalidates(t *testing.T) {
	good := map[string]types.AttributeValue{"PK": S("TEAM#t1"), "SK": S("TINVITE#i1"), "type": S("invitation"),
		"email": S("carol@example.com"), "user_role": S("member"), "createdAt": N(start.Unix()), "expiresAt": N(start.Unix() + 3600),
		"invitedBy": S("USER#u1"), "token": S("tok"), "team_name": S("team")}
	with := func(k, v string) map[string]types.AttributeValue {
		m := maps.Clone(good)
		m[k] = S(v)
		return m
	}
	var ev events.DynamoDBEvent
	for i, img := range []map[string]types.AttributeValue{
		with("email", "carol@example.com\r\nBcc: all@example.com"),
		with("email", "Carol <carol@example.com>"),
		with("team_name", "team\r\nSubject: free money"),
		with("team_name", "team\x1b[31m"),
		good,
	} {
		ev.Records = append(ev.Records, events.DynamoDBEventRecord{EventName: string(events.DynamoDBOperationTypeInsert),
			EventSourceArn: "arn:aws:dynamodb:us-east-1:000000000000:table/inv/stream/x",
			Change:         events.DynamoDBStreamRecord{NewImage: eventImage(img), SequenceNumber: fmt.Sprint(i + 1)}})
	}
	m := &recordingMailer{}
	var skipped []taskmgmt.SkippedRecord
	resp := must[events.DynamoDBEventResponse](t)(taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return start },
		OnSkip: func(r taskmgmt.SkippedRecord) { skipped = append(skipped, r) }}.Handle(t.Context(), ev))
	if len(resp.BatchItemFailures) != 0 {
		t.Errorf("failures %+v, want none", resp.BatchItemFailures)
	}
	if len(m.mailed) != 1 || m.mailed[0].Email != "carol@example.com" || m.mailed[0].TeamName != "team" {
		t.Errorf("mailed %+v, want only the valid invitation", m.mailed)
	}
	if len(skipped) != 4 {
		t.Fatalf("skipped %v, want the 4 invalid records", skipped)
	}
	for _, r := range skipped {
		if !errors.Is(r.Err, ddbkit.ErrInvalidArgument) || r.InvitationID != "i1" {
			t.Errorf("skipped %s for %v, want invitation i1 for ErrInvalidArgument", r.InvitationID, r.Err)
		}
	}
}

// TestImportNilAttribute: an item holding a nil attribute value, at the
// top or nested, is ErrCorruptItem, and nothing is imported.
func TestImportNilAttribute(t *testing.T) {
	s := taskmgmt.NewMemoryStore()
	user := func(extra types.AttributeValue) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": S("USER#u1"), "SK": S("USER#u1"), "type": S("user"), "user_name": S("a"), "extra": extra}
	}
	for name, items := range map[string]ddbkit.TableItems{
		"top":           {taskmgmt.DefaultTableName: {user(nil)}},
		"in a list":     {taskmgmt.DefaultTableName: {user(&types.AttributeValueMemberL{Value: []types.AttributeValue{nil}})}},
		"in a map":      {taskmgmt.DefaultTableName: {user(&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": nil}})}},
		"typed nil":     {taskmgmt.DefaultTableName: {user((*types.AttributeValueMemberS)(nil))}},
		"an invitation": {taskmgmt.DefaultInvitationTableName: {{"PK": S("TEAM#t"), "SK": S("TINVITE#i"), "email": nil}}},
	} {
		err := s.Import(items)
		if !errors.Is(err, ddbkit.ErrCorruptItem) {
			t.Errorf("%s: Import = %v, want ErrCorruptItem", name, err)
		}
	}
	if _, err := s.GetUser(t.Context(), "u1"); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Errorf("GetUser after refused imports: %v, want ErrNotFound", err)
	}
}
