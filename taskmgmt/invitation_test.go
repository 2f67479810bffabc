package taskmgmt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/taskmgmt/taskmgmttest"
)

// newDynamoInv is newDynamo with the invitation table too; it returns the
// invitation table's name.
func newDynamoInv(t *testing.T, wrap func(ddbkit.Client) ddbkit.Client, opts ...func(*taskmgmt.Options)) (*taskmgmt.DynamoStore, *dynamodb.Client, string, string) {
	t.Helper()
	c := ddbtest.Client(t)
	inv := ddbtest.NewTable(t, c, taskmgmt.CreateInvitationTableInput("task-table-invitation-v3"))
	s, c, table := newDynamo(t, wrap, append(opts, func(o *taskmgmt.Options) { o.InvitationTableName = inv })...)
	return s, c, table, inv
}

// TestDynamoInvitations runs the invitations' conformance suite on
// DynamoDB Local, recording the IAM grants of every call (iam.json, with
// TestDynamoStore).
func TestDynamoInvitations(t *testing.T) {
	iamPart(t)
	taskmgmttest.RunInvitations(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		s, _, _, _ := newDynamoInv(t, iamRec.Wrap, opts...)
		return s
	})
}

// recordingMailer records the invitations it mails and the idempotency
// keys it is given. It fails the mails of the addresses in fail
// (transiently), the first mail of those in failOnce, and refuses those
// in reject for good (ErrPermanentMail). wait, when set, runs before each
// mail, and its error is the mail's.
type recordingMailer struct {
	mu       sync.Mutex
	mailed   []taskmgmt.Invitation
	keys     []string // of every call
	fail     map[string]bool
	failOnce map[string]bool
	reject   map[string]bool
	wait     func(context.Context) error
}

func (m *recordingMailer) MailInvitation(ctx context.Context, inv taskmgmt.Invitation, key string) error {
	if m.wait != nil {
		if err := m.wait(ctx); err != nil {
			return err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys = append(m.keys, key)
	switch {
	case m.fail[inv.Email]:
		return errors.New("mailer down for " + inv.Email)
	case m.failOnce[inv.Email]:
		delete(m.failOnce, inv.Email)
		return errors.New("mailer down once for " + inv.Email)
	case m.reject[inv.Email]:
		return fmt.Errorf("%w: address %s rejected", taskmgmt.ErrPermanentMail, inv.Email)
	}
	m.mailed = append(m.mailed, inv)
	return nil
}

// streamsClient reads DynamoDB Local's streams, as the tests' DynamoDB
// client's account and region (ddbtest's fixed ones).
func streamsClient(t *testing.T) *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(ddbtest.Endpoint(t)),
		Credentials:  credentials.NewStaticCredentialsProvider("ddbtest", "ddbtest", ""),
	})
}

// readStream reads every record of a table's stream so far, writes it in
// the JSON form Lambda gives a function, and decodes that into an
// events.DynamoDBEvent, as Lambda's Go runtime does.
func readStream(t *testing.T, c *dynamodb.Client, table string) events.DynamoDBEvent {
	t.Helper()
	ctx := t.Context()
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(desc.Table.LatestStreamArn)
	if arn == "" {
		t.Fatalf("table %s has no stream", table)
	}
	sc := streamsClient(t)
	ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	records := []any{}
	for _, sh := range ds.StreamDescription.Shards {
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: sh.ShardId, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			t.Fatal(err)
		}
		iter := it.ShardIterator
		for iter != nil {
			out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range out.Records {
				records = append(records, lambdaRecord(arn, r))
			}
			if len(out.Records) == 0 {
				break
			}
			iter = out.NextShardIterator
		}
	}
	b, err := json.Marshal(map[string]any{"Records": records})
	if err != nil {
		t.Fatal(err)
	}
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return ev
}

// lambdaRecord is a dynamodbstreams record in the JSON form of Lambda's
// event.
func lambdaRecord(arn string, r streamtypes.Record) map[string]any {
	out := map[string]any{"eventID": aws.ToString(r.EventID), "eventName": string(r.EventName), "eventVersion": aws.ToString(r.EventVersion),
		"eventSource": aws.ToString(r.EventSource), "awsRegion": aws.ToString(r.AwsRegion), "eventSourceARN": arn}
	if r.UserIdentity != nil {
		out["userIdentity"] = map[string]any{"type": aws.ToString(r.UserIdentity.Type), "principalId": aws.ToString(r.UserIdentity.PrincipalId)}
	}
	if d := r.Dynamodb; d != nil {
		change := map[string]any{"SequenceNumber": aws.ToString(d.SequenceNumber), "SizeBytes": aws.ToInt64(d.SizeBytes),
			"StreamViewType": string(d.StreamViewType)}
		if d.ApproximateCreationDateTime != nil {
			change["ApproximateCreationDateTime"] = d.ApproximateCreationDateTime.Unix()
		}
		for name, im := range map[string]map[string]streamtypes.AttributeValue{"Keys": d.Keys, "NewImage": d.NewImage, "OldImage": d.OldImage} {
			if im != nil {
				change[name] = imageJSON(im)
			}
		}
		out["dynamodb"] = change
	}
	return out
}

func imageJSON(m map[string]streamtypes.AttributeValue) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = valueJSON(v)
	}
	return out
}

// valueJSON is an attribute value in DynamoDB's JSON form.
func valueJSON(v streamtypes.AttributeValue) any {
	switch v := v.(type) {
	case *streamtypes.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *streamtypes.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *streamtypes.AttributeValueMemberB:
		return map[string]any{"B": v.Value} // base64, as encoding/json writes []byte
	case *streamtypes.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *streamtypes.AttributeValueMemberNULL:
		return map[string]any{"NULL": v.Value}
	case *streamtypes.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}
	case *streamtypes.AttributeValueMemberNS:
		return map[string]any{"NS": v.Value}
	case *streamtypes.AttributeValueMemberBS:
		return map[string]any{"BS": v.Value}
	case *streamtypes.AttributeValueMemberL:
		l := make([]any, len(v.Value))
		for i, e := range v.Value {
			l[i] = valueJSON(e)
		}
		return map[string]any{"L": l}
	case *streamtypes.AttributeValueMemberM:
		return map[string]any{"M": imageJSON(v.Value)}
	}
	panic(fmt.Sprintf("attribute value %T", v))
}

// TestStreamEndToEnd creates invitations through the store, reads the
// table's stream from DynamoDB Local, and runs the handler on it: exactly
// the inserted invitations are mailed, but one accepted later in the
// batch; a failing mailer stops the handler,
// which reports the rest of the batch; a mail failing once is mailed on
// the retry, and nothing twice; a mail refused for good is skipped.
func TestStreamEndToEnd(t *testing.T) {
	s, c, _, invTable := newDynamoInv(t, nil)
	ctx := t.Context()
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u1", Email: "alice@example.com", Name: "alice"}))
	must[taskmgmt.User](t)(s.CreateUser(ctx, taskmgmt.NewUser{ID: "u3", Email: "carol@example.com", Name: "carol"}))
	team := must[taskmgmt.Team](t)(s.CreateTeam(ctx, "u1", taskmgmt.NewTeam{Name: "チーム"}))
	var sent []taskmgmt.Invitation
	for _, e := range []string{"a@example.com", "carol@example.com", "fail@example.com"} {
		sent = append(sent, must[taskmgmt.Invitation](t)(s.Invite(ctx, team.ID, "u1", taskmgmt.NewInvitation{Email: e})))
	}
	// A REMOVE (the acceptance), a MODIFY (another writer), and an item of
	// another type: none is mailed.
	must[taskmgmt.Member](t)(s.AcceptInvitation(ctx, "u3", taskmgmt.Acceptance{TeamID: team.ID, InvitationID: sent[1].ID, Token: sent[1].Token}))
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(invTable),
		Key:              map[string]types.AttributeValue{"PK": S("TEAM#" + team.ID), "SK": S("TINVITE#" + sent[0].ID)},
		UpdateExpression: aws.String("SET team_name = :n"), ExpressionAttributeValues: map[string]types.AttributeValue{":n": S("x")}}); err != nil {
		t.Fatal(err)
	}
	putRaw(t, c, invTable, item{"PK": S("TEAM#" + team.ID), "SK": S("NOTE#1"), "type": S("note")})

	ev := readStream(t, c, invTable)
	var names []string
	for _, r := range ev.Records {
		names = append(names, r.EventName)
	}
	if want := []string{"INSERT", "INSERT", "INSERT", "REMOVE", "MODIFY", "INSERT"}; !slices.Equal(names, want) {
		t.Fatalf("stream events %v, want %v", names, want)
	}

	// The accepted invitation is not mailed: its REMOVE follows its
	// INSERT in the batch.
	m := &recordingMailer{}
	resp, err := taskmgmt.StreamHandler{Mailer: m}.Handle(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("Handle = %+v, %v", resp, err)
	}
	if want := []taskmgmt.Invitation{sent[0], sent[2]}; !reflect.DeepEqual(m.mailed, want) {
		t.Fatalf("mailed:\n%+v\nwant the invitations as made, but the accepted one:\n%+v", m.mailed, want)
	}
	if want := []string{sent[0].ID, sent[2].ID}; !slices.Equal(m.keys, want) {
		t.Fatalf("idempotency keys %v, want the invitation IDs %v", m.keys, want)
	}

	// Without the REMOVE (its batch came later, or a mapping that keeps
	// INSERTs only), every invitation is mailed.
	ev.Records = slices.DeleteFunc(slices.Clone(ev.Records), func(r events.DynamoDBEventRecord) bool { return r.EventName == "REMOVE" })
	m = &recordingMailer{}
	resp, err = taskmgmt.StreamHandler{Mailer: m}.Handle(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("Handle = %+v, %v", resp, err)
	}
	if !reflect.DeepEqual(m.mailed, sent) {
		t.Fatalf("mailed:\n%+v\nwant the invitations as made:\n%+v", m.mailed, sent)
	}

	// The first record fails: it and every record after it are reported,
	// and nothing after it is mailed.
	m = &recordingMailer{fail: map[string]bool{"fail@example.com": true, "a@example.com": true}}
	resp, _ = taskmgmt.StreamHandler{Mailer: m}.Handle(ctx, ev)
	checkStoppedAt(t, ev, resp, 0)
	if len(m.mailed) != 0 || len(m.keys) != 1 {
		t.Fatalf("mailed %+v after %v; want one try and no mail", m.mailed, m.keys)
	}
	b, _ := json.Marshal(resp)
	if !strings.HasPrefix(string(b), `{"batchItemFailures":[{"itemIdentifier":"`) {
		t.Fatalf("response JSON %s is not Lambda's", b)
	}

	// Fails once: the retry, from the reported record as Lambda retries,
	// mails the rest; each invitation is mailed once.
	m = &recordingMailer{failOnce: map[string]bool{"carol@example.com": true}}
	h := taskmgmt.StreamHandler{Mailer: m}
	resp, _ = h.Handle(ctx, ev)
	checkStoppedAt(t, ev, resp, 1)
	if !reflect.DeepEqual(m.mailed, sent[:1]) {
		t.Fatalf("before the failure, mailed %+v, want only %+v", m.mailed, sent[:1])
	}
	retry := retryOf(t, ev, resp)
	resp, _ = h.Handle(ctx, retry)
	if len(resp.BatchItemFailures) != 0 {
		t.Fatalf("retry: failures %+v", resp.BatchItemFailures)
	}
	if !reflect.DeepEqual(m.mailed, sent) {
		t.Fatalf("after the retry, mailed:\n%+v\nwant each invitation once:\n%+v", m.mailed, sent)
	}

	// Refused for good: skipped with its invitation's ID, and the later
	// records are mailed.
	m = &recordingMailer{reject: map[string]bool{"carol@example.com": true}}
	var skipped []taskmgmt.SkippedRecord
	resp, _ = taskmgmt.StreamHandler{Mailer: m, OnSkip: func(r taskmgmt.SkippedRecord) { skipped = append(skipped, r) }}.Handle(ctx, ev)
	if len(resp.BatchItemFailures) != 0 {
		t.Fatalf("permanent: failures %+v, want none", resp.BatchItemFailures)
	}
	if want := []taskmgmt.Invitation{sent[0], sent[2]}; !reflect.DeepEqual(m.mailed, want) {
		t.Fatalf("permanent: mailed %+v, want %+v", m.mailed, want)
	}
	if len(skipped) != 1 || skipped[0].InvitationID != sent[1].ID || !errors.Is(skipped[0].Err, taskmgmt.ErrPermanentMail) ||
		skipped[0].Record.Change.SequenceNumber != ev.Records[1].Change.SequenceNumber {
		t.Fatalf("permanent: skipped %+v, want the record of %s", skipped, sent[1].ID)
	}
}

// TestInvitationDefinition checks the seed's invitation table: keys,
// capacity, stream and TTL, and its CloudFormation resource.
func TestInvitationDefinition(t *testing.T) {
	d := taskmgmt.InvitationDefinition("task-table-invitation-v3")
	in := d.CreateTableInput()
	if aws.ToInt64(in.ProvisionedThroughput.ReadCapacityUnits) != 1 || aws.ToInt64(in.ProvisionedThroughput.WriteCapacityUnits) != 1 ||
		len(in.GlobalSecondaryIndexes) != 0 || in.StreamSpecification.StreamViewType != types.StreamViewTypeNewImage || d.TTLAttribute != "expiresAt" {
		t.Fatalf("definition: %+v, TTL %q", in, d.TTLAttribute)
	}
	cfn, err := d.CloudFormation()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"StreamViewType": "NEW_IMAGE"`, `"AttributeName": "expiresAt"`, `"ReadCapacityUnits": 1`} {
		if !strings.Contains(string(cfn), want) {
			t.Errorf("CloudFormation lacks %s:\n%s", want, cfn)
		}
	}
	od := taskmgmt.OnDemandInvitationDefinition("x").CreateTableInput()
	if od.BillingMode != types.BillingModePayPerRequest || od.ProvisionedThroughput != nil {
		t.Fatalf("on-demand: %+v", od)
	}
}
