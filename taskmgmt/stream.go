package taskmgmt

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The stream event types below have the JSON form of aws-lambda-go's
// events.DynamoDBEvent and events.DynamoDBEventResponse, so that Lambda's
// runtime decodes the event into them and encodes the response from them
// (lambda.Start(h.Handle) works as is), without this module depending on
// aws-lambda-go. A program that holds an events.DynamoDBEvent converts it
// with json.Marshal and json.Unmarshal.

// StreamEvent is a batch of DynamoDB stream records, as Lambda delivers it.
type StreamEvent struct {
	Records []StreamRecord `json:"Records"`
}

// The stream's event names.
const (
	EventInsert = "INSERT"
	EventModify = "MODIFY"
	EventRemove = "REMOVE"
)

// StreamRecord is one record of a DynamoDB stream.
type StreamRecord struct {
	EventID        string `json:"eventID"`
	EventName      string `json:"eventName"` // EventInsert, EventModify or EventRemove
	EventVersion   string `json:"eventVersion,omitempty"`
	EventSource    string `json:"eventSource,omitempty"` // aws:dynamodb
	AWSRegion      string `json:"awsRegion,omitempty"`
	EventSourceArn string `json:"eventSourceARN,omitempty"`
	// UserIdentity is set for deletions by TTL: Type "Service",
	// PrincipalID "dynamodb.amazonaws.com".
	UserIdentity *StreamIdentity `json:"userIdentity,omitempty"`
	Change       StreamChange    `json:"dynamodb"`
}

// StreamIdentity is who made a change, for TTL deletions.
type StreamIdentity struct {
	Type        string `json:"type"`
	PrincipalID string `json:"principalId"`
}

// StreamChange is the change a record carries: keys, images, sequence
// number.
type StreamChange struct {
	ApproximateCreationDateTime float64     `json:"ApproximateCreationDateTime,omitempty"` // Unix seconds
	Keys                        StreamImage `json:"Keys,omitempty"`
	NewImage                    StreamImage `json:"NewImage,omitempty"`
	OldImage                    StreamImage `json:"OldImage,omitempty"`
	SequenceNumber              string      `json:"SequenceNumber"`
	SizeBytes                   int64       `json:"SizeBytes,omitempty"`
	StreamViewType              string      `json:"StreamViewType,omitempty"`
}

// StreamImage is an item in a stream record, in DynamoDB's JSON form
// ({"S": "…"}, {"N": "…"}, {"SS": […]}, {"M": {…}}, …) on the wire.
type StreamImage map[string]types.AttributeValue

// StreamResponse reports the records a handler failed, so that Lambda
// retries only from them (a function's ReportBatchItemFailures).
type StreamResponse struct {
	BatchItemFailures []BatchItemFailure `json:"batchItemFailures"`
}

// BatchItemFailure names a failed record by its sequence number.
type BatchItemFailure struct {
	ItemIdentifier string `json:"itemIdentifier"`
}

// Mailer sends invitation mails. The library ships none; an
// implementation typically calls SES (aws-sdk-go-v2/service/sesv2).
type Mailer interface {
	// MailInvitation mails inv to inv.Email: it has the team's name, the
	// role, the link's token (with inv.TeamID and inv.ID, what
	// AcceptInvitation needs), the expiry and the inviter. An error makes
	// the record a batch item failure, which Lambda retries. Lambda
	// delivers at least once, so a mail may be asked for twice; inv.ID
	// can serve to recognise a repeat.
	MailInvitation(ctx context.Context, inv Invitation) error
}

// StreamHandler mails the invitations a DynamoDB stream of the invitation
// table delivers. Use its Handle method as a Lambda function:
// lambda.Start(taskmgmt.StreamHandler{Mailer: m}.Handle).
type StreamHandler struct {
	Mailer Mailer // required
	// Clock tells which invitations have expired by the time their record
	// is handled (Lambda retries for up to a day): those are not mailed.
	// The default is time.Now.
	Clock ddbkit.Clock
	// OnSkip, when set, is told of each INSERT record of type invitation
	// that is not mailed because retrying cannot mend it: an item that
	// cannot be decoded (ErrCorruptItem), one whose email or team_name
	// would not pass Invite's validation (ErrInvalidArgument: another
	// program wrote it; a control character in a team name could forge
	// mail headers or lines), or one whose hashed token does not derive
	// from TokenSecret. Such a record is not a failure: a failure would
	// hold up the shard behind it until the record ages out.
	OnSkip func(StreamRecord, error)
	// TokenSecret is the store's Options.TokenSecret. Under it, the items
	// hold only their token's hash, and the handler derives the token
	// again to mail it. A record with a hashed token and no secret here is
	// reported as a failure (a configuration error: redeploy with the
	// secret and Lambda retries it).
	TokenSecret []byte
}

// Handle mails the invitation of each INSERT record whose new image has
// type invitation, in order, and ignores every other record: MODIFY,
// REMOVE (TTL deletions included), other types. Before mailing, it checks
// the image's email and team_name as Invite checks them, since another
// program may have written the item: an invalid one is skipped (see
// OnSkip), never mailed. It reports each record whose mail failed, or was
// not tried because ctx ended or a hashed token has no TokenSecret to
// derive it, by its sequence number; Lambda then retries from the earliest of them, so the records
// after it that were mailed may be mailed again. The error is always nil:
// an error would make Lambda retry the whole batch.
func (h StreamHandler) Handle(ctx context.Context, ev StreamEvent) (StreamResponse, error) {
	clock := h.Clock
	if clock == nil {
		clock = time.Now
	}
	resp := StreamResponse{BatchItemFailures: []BatchItemFailure{}}
	for _, rec := range ev.Records {
		if rec.EventName != EventInsert || rec.Change.NewImage == nil {
			continue
		}
		typ, _ := rec.Change.NewImage[attrType].(*types.AttributeValueMemberS)
		if typ == nil || typ.Value != typeInvitation {
			continue
		}
		inv, err := decodeInvitation(table(tableOfArn(rec.EventSourceArn)), ddb.Item(rec.Change.NewImage))
		if err != nil {
			if h.OnSkip != nil {
				h.OnSkip(rec, err)
			}
			continue
		}
		if err := validateMailed(inv); err != nil {
			if h.OnSkip != nil {
				h.OnSkip(rec, err)
			}
			continue
		}
		if !inv.Live(clock()) {
			continue
		}
		// A secret missing or too short is the deployment's error, a
		// failure that a redeploy mends; a token that does not derive
		// from the secret is the item's, skipped.
		var tok string
		err = checkTokenSecret("StreamHandler.TokenSecret", h.TokenSecret)
		if err == nil {
			tok, err = mailToken(h.TokenSecret, inv)
		}
		if err != nil && !errors.Is(err, ddbkit.ErrInvalidArgument) {
			if h.OnSkip != nil {
				h.OnSkip(rec, err)
			}
			continue
		}
		inv.Token = tok
		if err != nil || ctx.Err() != nil || h.Mailer.MailInvitation(ctx, inv) != nil {
			resp.BatchItemFailures = append(resp.BatchItemFailures, BatchItemFailure{ItemIdentifier: rec.Change.SequenceNumber})
		}
	}
	return resp, nil
}

// validateMailed checks what a mail carries of an invitation another
// program may have written, as Invite checks its input.
func validateMailed(inv Invitation) error {
	var v validator
	v.email("Email", inv.Email)
	v.Line("TeamName", inv.TeamName, false, MaxNameLen)
	return wrap("stream", v.Err)
}

// tableOfArn returns the table's name in a stream's ARN
// (arn:aws:dynamodb:region:account:table/NAME/stream/LABEL), or "".
func tableOfArn(arn string) string {
	_, rest, ok := strings.Cut(arn, ":table/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// MarshalJSON encodes the image in DynamoDB's JSON form.
func (im StreamImage) MarshalJSON() ([]byte, error) {
	out := make(map[string]any, len(im))
	for k, v := range im {
		j, err := attrJSON(v)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", k, err)
		}
		out[k] = j
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes an image in DynamoDB's JSON form.
func (im *StreamImage) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw == nil {
		*im = nil
		return nil
	}
	out := make(StreamImage, len(raw))
	for k, r := range raw {
		v, err := attrFromJSON(r)
		if err != nil {
			return fmt.Errorf("attribute %q: %w", k, err)
		}
		out[k] = v
	}
	*im = out
	return nil
}

func attrJSON(v types.AttributeValue) (any, error) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return map[string]string{"S": v.Value}, nil
	case *types.AttributeValueMemberN:
		return map[string]string{"N": v.Value}, nil
	case *types.AttributeValueMemberB:
		return map[string][]byte{"B": v.Value}, nil
	case *types.AttributeValueMemberBOOL:
		return map[string]bool{"BOOL": v.Value}, nil
	case *types.AttributeValueMemberNULL:
		return map[string]bool{"NULL": v.Value}, nil
	case *types.AttributeValueMemberSS:
		return map[string][]string{"SS": v.Value}, nil
	case *types.AttributeValueMemberNS:
		return map[string][]string{"NS": v.Value}, nil
	case *types.AttributeValueMemberBS:
		return map[string][][]byte{"BS": v.Value}, nil
	case *types.AttributeValueMemberL:
		l := make([]any, len(v.Value))
		for i, e := range v.Value {
			j, err := attrJSON(e)
			if err != nil {
				return nil, err
			}
			l[i] = j
		}
		return map[string]any{"L": l}, nil
	case *types.AttributeValueMemberM:
		m, err := StreamImage(v.Value).MarshalJSON()
		if err != nil {
			return nil, err
		}
		return map[string]json.RawMessage{"M": m}, nil
	}
	return nil, fmt.Errorf("unsupported attribute value %T", v)
}

func attrFromJSON(b []byte) (types.AttributeValue, error) {
	var one map[string]json.RawMessage
	if err := json.Unmarshal(b, &one); err != nil {
		return nil, err
	}
	if len(one) != 1 {
		return nil, fmt.Errorf("want one type key, got %v", slices.Sorted(maps.Keys(one)))
	}
	for k, r := range one {
		switch k {
		case "S", "N":
			var v string
			if err := json.Unmarshal(r, &v); err != nil {
				return nil, err
			}
			if k == "S" {
				return &types.AttributeValueMemberS{Value: v}, nil
			}
			return &types.AttributeValueMemberN{Value: v}, nil
		case "B":
			v, err := bytesJSON(r)
			return &types.AttributeValueMemberB{Value: v}, err
		case "BOOL", "NULL":
			var v bool
			if err := json.Unmarshal(r, &v); err != nil {
				return nil, err
			}
			if k == "BOOL" {
				return &types.AttributeValueMemberBOOL{Value: v}, nil
			}
			return &types.AttributeValueMemberNULL{Value: v}, nil
		case "SS", "NS":
			var v []string
			if err := json.Unmarshal(r, &v); err != nil {
				return nil, err
			}
			if k == "SS" {
				return &types.AttributeValueMemberSS{Value: v}, nil
			}
			return &types.AttributeValueMemberNS{Value: v}, nil
		case "BS":
			var raw []json.RawMessage
			if err := json.Unmarshal(r, &raw); err != nil {
				return nil, err
			}
			v := make([][]byte, len(raw))
			for i, e := range raw {
				var err error
				if v[i], err = bytesJSON(e); err != nil {
					return nil, err
				}
			}
			return &types.AttributeValueMemberBS{Value: v}, nil
		case "L":
			var raw []json.RawMessage
			if err := json.Unmarshal(r, &raw); err != nil {
				return nil, err
			}
			v := make([]types.AttributeValue, len(raw))
			for i, e := range raw {
				var err error
				if v[i], err = attrFromJSON(e); err != nil {
					return nil, err
				}
			}
			return &types.AttributeValueMemberL{Value: v}, nil
		case "M":
			var m StreamImage
			if err := m.UnmarshalJSON(r); err != nil {
				return nil, err
			}
			if m == nil {
				m = StreamImage{}
			}
			return &types.AttributeValueMemberM{Value: m}, nil
		}
		return nil, fmt.Errorf("unknown attribute type %q", k)
	}
	panic("unreachable")
}

func bytesJSON(r json.RawMessage) ([]byte, error) {
	var s string
	if err := json.Unmarshal(r, &s); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(s)
}
