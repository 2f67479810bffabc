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

func TestDynamoInvitations(t *testing.T) {
	taskmgmttest.RunInvitations(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		s, _, _, _ := newDynamoInv(t, nil, opts...)
		return s
	})
}

// recordingMailer records the invitations it is asked to mail, and fails
// those of the addresses in fail.
type recordingMailer struct {
	mu     sync.Mutex
	mailed []taskmgmt.Invitation
	fail   map[string]bool
}

func (m *recordingMailer) MailInvitation(_ context.Context, inv taskmgmt.Invitation) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail[inv.Email] {
		return errors.New("mailer down for " + inv.Email)
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

// readStream reads every record of a table's stream so far, and converts
// it to the JSON form Lambda gives a function, then to a StreamEvent, as
// Lambda's runtime decodes it.
func readStream(t *testing.T, c *dynamodb.Client, table string) taskmgmt.StreamEvent {
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
	var ev taskmgmt.StreamEvent
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
				ev.Records = append(ev.Records, lambdaRecord(arn, r))
			}
			if len(out.Records) == 0 {
				break
			}
			iter = out.NextShardIterator
		}
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var decoded taskmgmt.StreamEvent
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return decoded
}

func lambdaRecord(arn string, r streamtypes.Record) taskmgmt.StreamRecord {
	out := taskmgmt.StreamRecord{EventID: aws.ToString(r.EventID), EventName: string(r.EventName), EventVersion: aws.ToString(r.EventVersion),
		EventSource: aws.ToString(r.EventSource), AWSRegion: aws.ToString(r.AwsRegion), EventSourceArn: arn}
	if r.UserIdentity != nil {
		out.UserIdentity = &taskmgmt.StreamIdentity{Type: aws.ToString(r.UserIdentity.Type), PrincipalID: aws.ToString(r.UserIdentity.PrincipalId)}
	}
	if d := r.Dynamodb; d != nil {
		out.Change = taskmgmt.StreamChange{Keys: image(d.Keys), NewImage: image(d.NewImage), OldImage: image(d.OldImage),
			SequenceNumber: aws.ToString(d.SequenceNumber), SizeBytes: aws.ToInt64(d.SizeBytes), StreamViewType: string(d.StreamViewType)}
		if d.ApproximateCreationDateTime != nil {
			out.Change.ApproximateCreationDateTime = float64(d.ApproximateCreationDateTime.Unix())
		}
	}
	return out
}

func image(m map[string]streamtypes.AttributeValue) taskmgmt.StreamImage {
	if m == nil {
		return nil
	}
	out := taskmgmt.StreamImage{}
	for k, v := range m {
		out[k] = fromStreams(v)
	}
	return out
}

func fromStreams(v streamtypes.AttributeValue) types.AttributeValue {
	switch v := v.(type) {
	case *streamtypes.AttributeValueMemberS:
		return &types.AttributeValueMemberS{Value: v.Value}
	case *streamtypes.AttributeValueMemberN:
		return &types.AttributeValueMemberN{Value: v.Value}
	case *streamtypes.AttributeValueMemberSS:
		return &types.AttributeValueMemberSS{Value: v.Value}
	case *streamtypes.AttributeValueMemberBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Value}
	case *streamtypes.AttributeValueMemberM:
		m := map[string]types.AttributeValue{}
		for k, e := range v.Value {
			m[k] = fromStreams(e)
		}
		return &types.AttributeValueMemberM{Value: m}
	}
	panic(fmt.Sprintf("attribute value %T", v))
}

// TestStreamEndToEnd creates invitations through the store, reads the
// table's stream from DynamoDB Local, and runs the handler on it: exactly
// the inserted invitations are mailed, and a failing mailer's records are
// exactly the batch failures.
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

	m := &recordingMailer{}
	resp, err := taskmgmt.StreamHandler{Mailer: m}.Handle(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("Handle = %+v, %v", resp, err)
	}
	if !reflect.DeepEqual(m.mailed, sent) {
		t.Fatalf("mailed:\n%+v\nwant the invitations as made:\n%+v", m.mailed, sent)
	}

	m = &recordingMailer{fail: map[string]bool{"fail@example.com": true, "a@example.com": true}}
	resp, _ = taskmgmt.StreamHandler{Mailer: m}.Handle(ctx, ev)
	want := []taskmgmt.BatchItemFailure{{ItemIdentifier: ev.Records[0].Change.SequenceNumber}, {ItemIdentifier: ev.Records[2].Change.SequenceNumber}}
	if !reflect.DeepEqual(resp.BatchItemFailures, want) {
		t.Fatalf("failures %+v, want %+v", resp.BatchItemFailures, want)
	}
	if len(m.mailed) != 1 || m.mailed[0].ID != sent[1].ID {
		t.Fatalf("mailed %+v, want the one that did not fail", m.mailed)
	}
	b, _ := json.Marshal(resp)
	if !strings.HasPrefix(string(b), `{"batchItemFailures":[{"itemIdentifier":"`) {
		t.Fatalf("response JSON %s is not Lambda's", b)
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
