package taskmgmt_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// The stream handler's legacy fixture: invitation items written raw, as
// the seed's app writes them, delivered to the handler in a hand-built
// event and through DynamoDB Local's stream.

// streamLegacyNow is when the records are handled: an hour after the
// seed's createdAt.
var streamLegacyNow = time.Unix(1768141200+3600, 0)

// legacyStreamInvitation is an invitation item of the seed's app, and
// what the handler must make of its INSERT.
type legacyStreamInvitation struct {
	name string
	item item
	// mailed is what the Mailer must receive; nil for no mail.
	mailed *taskmgmt.Invitation
	// skip is the sentinel OnSkip must be told; nil for none (mailed, or
	// ignored as nothing is wrong with it).
	skip error
}

// invSK is the SK of an invitation.
func invSK(id string) types.AttributeValue { return S("TINVITE#" + id) }

// numAttr is a Number attribute in the form given, as another SDK writes
// it.
func numAttr(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func legacyStreamInvitations() []legacyStreamInvitation {
	const (
		created, expires = 1768141200, 1768227600 // the seed's example
		v7               = "019bad8a-2a80-7000-8000-00000000000"
		v4               = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
	)
	at := func(sec int64) time.Time { return time.Unix(sec, 0).UTC() }
	return []legacyStreamInvitation{
		{
			// The seed's row, whose address is written -at- in the seed
			// (not an address: Invite refuses it, and no mail can reach
			// it): skipped and told, never a failure that would hold up
			// the shard.
			name: "the seed's example",
			item: item{"PK": S("TEAM#t1"), "SK": invSK(v7 + "1"), "type": S("invitation"), "email": S("alice-at-example.com"),
				"user_role": S("admin"), "createdAt": N(created), "expiresAt": N(expires), "invitedBy": S("USER#u1"),
				"token": S("ramdom"), "team_name": S("招待時点でのチーム名称")},
			skip: ddbkit.ErrInvalidArgument,
		},
		{
			name: "the seed's example with a real address",
			item: item{"PK": S("TEAM#t1"), "SK": invSK(v7 + "2"), "type": S("invitation"), "email": S("alice@example.com"),
				"user_role": S("admin"), "createdAt": N(created), "expiresAt": N(expires), "invitedBy": S("USER#u1"),
				"token": S("ramdom"), "team_name": S("招待時点でのチーム名称")},
			mailed: &taskmgmt.Invitation{ID: v7 + "2", TeamID: "t1", TeamName: "招待時点でのチーム名称", Email: "alice@example.com",
				Role: taskmgmt.RoleAdmin, InvitedBy: "u1", Token: "ramdom", CreatedAt: at(created), ExpiresAt: at(expires)},
		},
		{
			// Another writer: a UUIDv4 ID, no createdAt, no team_name, an
			// inviter without USER#, a long token of its own.
			name: "optional attributes missing",
			item: item{"PK": S("TEAM#t1"), "SK": invSK(v4), "type": S("invitation"), "email": S("erin@example.com"),
				"user_role": S("member"), "expiresAt": N(expires + 60), "invitedBy": S("u1"),
				"token": S("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")},
			mailed: &taskmgmt.Invitation{ID: v4, TeamID: "t1", Email: "erin@example.com", Role: taskmgmt.RoleMember, InvitedBy: "u1",
				Token: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", ExpiresAt: at(expires + 60)},
		},
		{
			// JavaScript's null, as the DocumentClient writes it for an
			// optional field left null.
			name: "optional attributes NULL",
			item: item{"PK": S("TEAM#t1"), "SK": invSK(v7 + "3"), "type": S("invitation"), "email": S("frank@example.com"),
				"user_role": S("member"), "createdAt": &types.AttributeValueMemberNULL{Value: true}, "expiresAt": N(expires),
				"invitedBy": S("USER#u1"), "token": S("tok-3"), "team_name": &types.AttributeValueMemberNULL{Value: true}},
			mailed: &taskmgmt.Invitation{ID: v7 + "3", TeamID: "t1", Email: "frank@example.com", Role: taskmgmt.RoleMember,
				InvitedBy: "u1", Token: "tok-3", ExpiresAt: at(expires)},
		},
		{
			// The address as the user typed it, mailed as given.
			name: "an address with capitals and a subaddress",
			item: item{"PK": S("TEAM#team-2"), "SK": invSK(v7 + "4"), "type": S("invitation"), "email": S("Bob.Smith+tasks@Example.CO.JP"),
				"user_role": S("member"), "createdAt": N(created + 1), "expiresAt": N(expires + 1), "invitedBy": S("USER#u2"),
				"token": S("tok-4"), "team_name": S("Ops 🚀 チーム")},
			mailed: &taskmgmt.Invitation{ID: v7 + "4", TeamID: "team-2", TeamName: "Ops 🚀 チーム", Email: "Bob.Smith+tasks@Example.CO.JP",
				Role: taskmgmt.RoleMember, InvitedBy: "u2", Token: "tok-4", CreatedAt: at(created + 1), ExpiresAt: at(expires + 1)},
		},
		{
			// Epoch seconds with a fraction, as an app writes
			// Date.now() / 1000 or Python's time.time() as a Decimal.
			name: "fractional epoch seconds",
			item: item{"PK": S("TEAM#t1"), "SK": invSK(v7 + "5"), "type": S("invitation"), "email": S("gina@example.com"),
				"user_role": S("member"), "createdAt": numAttr("1768141200.123"), "expiresAt": numAttr("1768227600.999"),
				"invitedBy": S("USER#u1"), "token": S("tok-5"), "team_name": S("チーム")},
			mailed: &taskmgmt.Invitation{ID: v7 + "5", TeamID: "t1", TeamName: "チーム", Email: "gina@example.com", Role: taskmgmt.RoleMember,
				InvitedBy: "u1", Token: "tok-5", CreatedAt: at(created), ExpiresAt: at(expires)},
		},
		{
			// Expired before it is handled (Lambda retried for long, or
			// the app put an old one back): nothing is wrong with it, it
			// is only not mailed.
			name: "expired",
			item: item{"PK": S("TEAM#t1"), "SK": invSK(v7 + "6"), "type": S("invitation"), "email": S("old@example.com"),
				"user_role": S("member"), "createdAt": N(created - 86400), "expiresAt": N(created), "invitedBy": S("USER#u1"),
				"token": S("tok-6"), "team_name": S("チーム")},
		},
	}
}

// legacyStreamMailed and legacyStreamSkips are what the handler must
// mail (in order) and tell OnSkip of (invitation IDs, with sentinels),
// over the INSERTs of legacyStreamInvitations.
func legacyStreamWants() ([]taskmgmt.Invitation, []string, []error) {
	var mailed []taskmgmt.Invitation
	var skipIDs []string
	var skipErrs []error
	for _, c := range legacyStreamInvitations() {
		if c.mailed != nil {
			mailed = append(mailed, *c.mailed)
		}
		if c.skip != nil {
			sk := c.item["SK"].(*types.AttributeValueMemberS).Value
			skipIDs = append(skipIDs, sk[len("TINVITE#"):])
			skipErrs = append(skipErrs, c.skip)
		}
	}
	return mailed, skipIDs, skipErrs
}

// handleLegacyStream runs the handler at streamLegacyNow over ev, and
// checks that it mails exactly the invitations it must, in order, each
// with its ID as the idempotency key, but those of deleted (a REMOVE
// later in ev deletes them), tells OnSkip of exactly the records it
// must, and reports no failure.
func handleLegacyStream(t *testing.T, ev events.DynamoDBEvent, deleted ...string) {
	t.Helper()
	wantMailed, wantSkipIDs, wantSkipErrs := legacyStreamWants()
	wantMailed = slices.DeleteFunc(wantMailed, func(inv taskmgmt.Invitation) bool { return slices.Contains(deleted, inv.ID) })
	m := &recordingMailer{}
	var skipped []taskmgmt.SkippedRecord
	h := taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return streamLegacyNow },
		OnSkip: func(r taskmgmt.SkippedRecord) { skipped = append(skipped, r) }}
	resp, err := h.Handle(t.Context(), ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("Handle = %+v, %v; want no failure", resp, err)
	}
	if !reflect.DeepEqual(m.mailed, wantMailed) {
		t.Fatalf("mailed:\n%+v\nwant:\n%+v", m.mailed, wantMailed)
	}
	var wantKeys []string
	for _, inv := range wantMailed {
		wantKeys = append(wantKeys, inv.ID)
	}
	if !slices.Equal(m.keys, wantKeys) {
		t.Fatalf("idempotency keys %v, want the invitation IDs %v", m.keys, wantKeys)
	}
	var gotSkipIDs []string
	for i, r := range skipped {
		gotSkipIDs = append(gotSkipIDs, r.InvitationID)
		if i < len(wantSkipErrs) && !errors.Is(r.Err, wantSkipErrs[i]) {
			t.Errorf("skipped %s for %v, want %v", r.InvitationID, r.Err, wantSkipErrs[i])
		}
		if r.Record.EventName != "INSERT" {
			t.Errorf("skipped a %s record, want only INSERTs told", r.Record.EventName)
		}
	}
	if !slices.Equal(gotSkipIDs, wantSkipIDs) {
		t.Fatalf("OnSkip told of %v, want %v", gotSkipIDs, wantSkipIDs)
	}
}

// legacyImage is a stream image of an item, for the attribute types the
// seed's app writes to the invitation table (S, N, and NULL for a field
// left null).
func legacyImage(it item) map[string]events.DynamoDBAttributeValue {
	out := map[string]events.DynamoDBAttributeValue{}
	for k, v := range it {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			out[k] = events.NewStringAttribute(v.Value)
		case *types.AttributeValueMemberN:
			out[k] = events.NewNumberAttribute(v.Value)
		case *types.AttributeValueMemberNULL:
			out[k] = events.NewNullAttribute()
		default:
			panic(fmt.Sprintf("attribute value %T", v))
		}
	}
	return out
}

// TestStreamLegacyEvent hands the handler a batch as Lambda delivers it
// from the seed's table (through Lambda's JSON): an INSERT of each legacy
// invitation, with the records the handler mails nothing for among them:
// a MODIFY (the app renamed the team), a REMOVE by TTL of the expired one
// and one by the app (accepted), which spares that invitation's mail, with
// the old image of a stream of both images, and INSERTs of items of other
// types.
func TestStreamLegacyEvent(t *testing.T) {
	const arn = "arn:aws:dynamodb:ap-northeast-1:123456789012:table/task-table-invitation-v3/stream/2026-01-11T14:20:00.000"
	for _, view := range []string{"NEW_IMAGE", "NEW_AND_OLD_IMAGES"} {
		t.Run(view, func(t *testing.T) {
			seq := 100
			record := func(name string, it, old item, identity *events.DynamoDBUserIdentity) events.DynamoDBEventRecord {
				seq++
				ch := events.DynamoDBStreamRecord{ApproximateCreationDateTime: events.SecondsEpochTime{Time: time.Unix(1768141200, 0)},
					Keys:           map[string]events.DynamoDBAttributeValue{"PK": events.NewStringAttribute(it["PK"].(*types.AttributeValueMemberS).Value), "SK": events.NewStringAttribute(it["SK"].(*types.AttributeValueMemberS).Value)},
					SequenceNumber: strconv.Itoa(seq) + "00000000000000000000", SizeBytes: 200, StreamViewType: view}
				if name != "REMOVE" {
					ch.NewImage = legacyImage(it)
				}
				if old != nil && view == "NEW_AND_OLD_IMAGES" {
					ch.OldImage = legacyImage(old)
				}
				return events.DynamoDBEventRecord{EventID: fmt.Sprintf("ev%d", seq), EventName: name, EventVersion: "1.1",
					EventSource: "aws:dynamodb", AWSRegion: "ap-northeast-1", EventSourceArn: arn, UserIdentity: identity, Change: ch}
			}
			invs := legacyStreamInvitations()
			var recs []events.DynamoDBEventRecord
			for i, c := range invs {
				recs = append(recs, record("INSERT", c.item, nil, nil))
				if i == 1 {
					renamed := maps.Clone(c.item)
					renamed["team_name"] = S("新しいチーム名")
					recs = append(recs, record("MODIFY", renamed, c.item, nil))
				}
			}
			ttl := &events.DynamoDBUserIdentity{Type: "Service", PrincipalID: "dynamodb.amazonaws.com"}
			recs = append(recs,
				record("REMOVE", invs[len(invs)-1].item, invs[len(invs)-1].item, ttl), // the expired one, deleted by TTL
				record("REMOVE", invs[1].item, invs[1].item, nil),                     // accepted
				record("INSERT", item{"PK": S("TEAM#t1"), "SK": S("NOTE#1"), "type": S("note"), "email": S("n@example.com")}, nil, nil),
				record("INSERT", item{"PK": S("TEAM#t1"), "SK": invSK("untyped"), "email": S("u@example.com"), "user_role": S("member"),
					"expiresAt": N(1768227600), "token": S("t")}, nil, nil),
				record("INSERT", item{"PK": S("TEAM#t1"), "SK": invSK("numtype"), "type": N(1), "email": S("u@example.com")}, nil, nil),
			)
			b, err := json.Marshal(events.DynamoDBEvent{Records: recs})
			if err != nil {
				t.Fatal(err)
			}
			var ev events.DynamoDBEvent
			if err := json.Unmarshal(b, &ev); err != nil {
				t.Fatal(err)
			}
			// The accepted one is not mailed: its REMOVE is in the batch.
			handleLegacyStream(t, ev, invs[1].mailed.ID)
		})
	}
}

// TestStreamLegacyDynamoDB puts the legacy invitations raw into an
// invitation table on DynamoDB Local, as the seed's app does, then
// renames a team on one (MODIFY), deletes the expired one (REMOVE) and puts an item
// of another type, reads the table's real stream, and hands it to the
// handler: the same mails and skips as from the hand-built event. The
// app's table may have a stream of both images, which
// EnsureInvitationTable accepts; both views are run.
func TestStreamLegacyDynamoDB(t *testing.T) {
	for _, view := range []types.StreamViewType{types.StreamViewTypeNewImage, types.StreamViewTypeNewAndOldImages} {
		t.Run(string(view), func(t *testing.T) {
			c := ddbtest.Client(t)
			in := taskmgmt.CreateInvitationTableInput("task-table-invitation-v3")
			in.StreamSpecification.StreamViewType = view
			// No TTL: the seed's times are past, and DynamoDB Local's TTL
			// would delete the items while the test reads them.
			table := ddbtest.NewTable(t, c, in)
			ctx := t.Context()
			invs := legacyStreamInvitations()
			for _, c2 := range invs {
				putRaw(t, c, table, c2.item)
			}
			key := func(it item) item { return item{"PK": it["PK"], "SK": it["SK"]} }
			if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key(invs[1].item),
				UpdateExpression:          aws.String("SET team_name = :n"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":n": S("新しいチーム名")}}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key(invs[len(invs)-1].item)}); err != nil {
				t.Fatal(err)
			}
			putRaw(t, c, table, item{"PK": S("TEAM#t1"), "SK": S("NOTE#1"), "type": S("note"), "email": S("n@example.com")})

			// The store reads them as the handler does: every invitation of
			// team t1 the app left (the expired one deleted, the note no
			// invitation), none skipped, the NULLs and the fraction read
			// as the handler mails them.
			s := taskmgmt.NewDynamoStore(c, func(o *taskmgmt.Options) {
				o.InvitationTableName = table
				o.Clock = func() time.Time { return streamLegacyNow }
			})
			p := must[ddbkit.Page[taskmgmt.Invitation]](t)(s.ListInvitations(ctx, "t1", ddbkit.PageOptions{}))
			if len(p.Items) != 5 || len(p.Skipped) != 0 {
				t.Fatalf("ListInvitations: %d invitations, skipped %v; want 5 and none skipped", len(p.Items), p.Skipped)
			}
			for _, c2 := range invs {
				if c2.mailed == nil || c2.mailed.TeamID != "t1" || c2.name == "the seed's example with a real address" {
					continue // the one renamed is read with its new name
				}
				want := *c2.mailed
				want.Token = ""
				if got := must[taskmgmt.Invitation](t)(s.GetInvitation(ctx, "t1", want.ID)); got != want {
					t.Errorf("GetInvitation of %s:\n got %+v\nwant %+v", c2.name, got, want)
				}
			}

			ev := readStream(t, c, table)
			var names []string
			for _, r := range ev.Records {
				names = append(names, r.EventName)
				if view == types.StreamViewTypeNewAndOldImages && r.EventName != "INSERT" && r.Change.OldImage == nil {
					t.Errorf("a %s record of a stream of both images without its old image", r.EventName)
				}
			}
			want := slices.Repeat([]string{"INSERT"}, len(invs))
			want = append(want, "MODIFY", "REMOVE", "INSERT")
			if !slices.Equal(names, want) {
				t.Fatalf("stream events %v, want %v", names, want)
			}
			handleLegacyStream(t, ev)
		})
	}
}

// TestStreamLegacyKeysOnly: the app's table may have a stream of keys
// only (EnsureInvitationTable refuses it, the app's console does not). No
// record holds an invitation to mail, so the handler mails nothing, fails
// nothing (a retry cannot add the image), and tells OnSkip of each
// invitation's INSERT, so that the application alerts instead of
// invitations going unmailed in silence; other keys are not told.
func TestStreamLegacyKeysOnly(t *testing.T) {
	c := ddbtest.Client(t)
	in := taskmgmt.CreateInvitationTableInput("task-table-invitation-v3")
	in.StreamSpecification.StreamViewType = types.StreamViewTypeKeysOnly
	table := ddbtest.NewTable(t, c, in)
	invs := legacyStreamInvitations()
	for _, c2 := range invs {
		putRaw(t, c, table, c2.item)
	}
	putRaw(t, c, table, item{"PK": S("TEAM#t1"), "SK": S("NOTE#1"), "type": S("note")})
	if _, err := c.DeleteItem(t.Context(), &dynamodb.DeleteItemInput{TableName: aws.String(table),
		Key: item{"PK": invs[0].item["PK"], "SK": invs[0].item["SK"]}}); err != nil {
		t.Fatal(err)
	}
	ev := readStream(t, c, table)
	if n := len(ev.Records); n != len(invs)+2 {
		t.Fatalf("%d stream records, want %d", n, len(invs)+2)
	}
	m := &recordingMailer{}
	var told []string
	h := taskmgmt.StreamHandler{Mailer: m, Clock: func() time.Time { return streamLegacyNow },
		OnSkip: func(r taskmgmt.SkippedRecord) {
			if !errors.Is(r.Err, ddbkit.ErrInvalidArgument) || r.Record.EventName != "INSERT" {
				t.Errorf("told of a %s record of %s for %v, want INSERTs for ErrInvalidArgument", r.Record.EventName, r.InvitationID, r.Err)
			}
			told = append(told, r.InvitationID)
		}}
	resp := must[events.DynamoDBEventResponse](t)(h.Handle(t.Context(), ev))
	if len(resp.BatchItemFailures) != 0 || len(m.keys) != 0 {
		t.Fatalf("failures %+v, mail calls %v; want none", resp.BatchItemFailures, m.keys)
	}
	var want []string
	for _, c2 := range invs {
		want = append(want, c2.item["SK"].(*types.AttributeValueMemberS).Value[len("TINVITE#"):])
	}
	if !slices.Equal(told, want) {
		t.Fatalf("OnSkip told of %v, want every invitation's INSERT %v", told, want)
	}
}
