package taskmgmt

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// ErrPermanentMail marks a mail error that retrying cannot fix: a
// rejected or malformed address, a refused template. A Mailer wraps it,
// for example fmt.Errorf("%w: %v", taskmgmt.ErrPermanentMail, err), and
// StreamHandler then skips the record (StreamHandler.OnSkip) instead of
// reporting it as a failure that Lambda would retry until the record
// expires, holding up the shard behind it.
var ErrPermanentMail = errors.New("permanent mail error")

// Mailer sends invitation mails. The library ships none; an
// implementation typically calls SES (aws-sdk-go-v2/service/sesv2).
type Mailer interface {
	// MailInvitation mails inv to inv.Email: it has the team's name, the
	// role, the link's token (with inv.TeamID and inv.ID, what
	// AcceptInvitation needs), the expiry and the inviter.
	//
	// idempotencyKey is the invitation's ID: the same on every delivery
	// and redelivery of its record (a re-invitation is a new invitation,
	// with a new ID). Lambda delivers at least once, and a mail call cut
	// off by the deadline may have been sent, so a mail may be asked for
	// again in a later invocation; a mailer that deduplicates on the key
	// (a table of the keys it sent, written on condition that the key is
	// new, or a provider's own idempotency key) never sends twice.
	//
	// An error wrapping ErrPermanentMail skips the record. Any other
	// error is transient: the handler stops, and Lambda retries the
	// record and the ones after it.
	//
	// inv may be dead by the time its mail arrives: replaced by a later
	// Invite of the address, revoked, or accepted. The handler leaves out
	// the ones a later record of the same batch deletes, not the others
	// (see StreamHandler.Handle), so an address invited twice in quick
	// succession may get both mails; the earlier link then fails with
	// AcceptInvitation's ErrNotFound, and a mail that says the latest
	// link is the one that works spares the invitee the puzzle.
	MailInvitation(ctx context.Context, inv Invitation, idempotencyKey string) error
}

// SkippedRecord is a stream record that StreamHandler did not mail, and
// will not retry, because retrying cannot mend it.
type SkippedRecord struct {
	Record events.DynamoDBEventRecord
	// InvitationID is the invitation's ID, or "" when the image could not
	// be decoded.
	InvitationID string
	// Err says why: ErrCorruptItem, ErrInvalidArgument (an email or
	// team_name Invite would refuse, or a stream whose view type has no
	// new image), a token that does not derive from TokenSecret, or the
	// Mailer's error wrapping ErrPermanentMail. Its text never repeats
	// the image's token or email address (Record holds them), so it can
	// be logged.
	Err error
}

// defaultDeadlineMargin is StreamHandler.DeadlineMargin's default.
const defaultDeadlineMargin = time.Second

// StreamHandler mails the invitations a DynamoDB stream of the invitation
// table delivers. Use its Handle method as a Lambda function:
// lambda.Start(taskmgmt.StreamHandler{Mailer: m}.Handle).
type StreamHandler struct {
	Mailer Mailer // required
	// Clock tells which invitations have expired by the time their record
	// is handled (Lambda retries for up to a day): those are not mailed.
	// The default is time.Now. The deadline is read from the wall clock,
	// not from Clock.
	Clock ddbkit.Clock
	// OnSkip, when set, is told of each INSERT record of type invitation
	// that is not mailed because retrying cannot mend it: an item that
	// cannot be decoded (ErrCorruptItem), one whose email or team_name
	// would not pass Invite's validation (ErrInvalidArgument: another
	// program wrote it; a control character in a team name could forge
	// mail headers or lines), one whose hashed token does not derive
	// from TokenSecret, or one the Mailer refused with ErrPermanentMail;
	// and of each INSERT of an invitation's key without a new image (a
	// stream of keys or old images only: ErrInvalidArgument).
	// Such a record is not a failure: a failure would hold up the shard
	// behind it until the record ages out. An application alerts from
	// here. A record reported as a failure after a skipped one is handled
	// again on the retry, so a skip can be told twice.
	OnSkip func(SkippedRecord)
	// TokenSecret is the store's Options.TokenSecret. Under it, the items
	// hold only their token's hash, and the handler derives the token
	// again to mail it. A record with a hashed token and no secret here is
	// a failure (a configuration error: redeploy with the secret and
	// Lambda retries it).
	TokenSecret []byte
	// DeadlineMargin is the time Handle keeps before ctx's deadline (the
	// function's timeout) to return its response: it mails no record once
	// less than this remains, and gives the Mailer a context that ends
	// this long before ctx does. A function that runs out of time returns
	// no response, and Lambda then retries the whole batch. The default
	// (zero) is 1 second; a negative margin keeps none.
	DeadlineMargin time.Duration
	// TracerProvider makes Handle's span, "taskmgmt.StreamHandler.Handle",
	// one per batch; MeterProvider its ddbkit.stream.records counter, by
	// outcome: mailed, skipped (every record not mailed and not to be
	// retried) and failed (reported for Lambda to retry). The README's
	// "Observability" says more. The defaults, nil, are OpenTelemetry's
	// global providers.
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
}

// Handle mails the invitation of each INSERT record whose new image has
// type invitation, in order, and mails nothing for every other record:
// MODIFY, REMOVE (TTL deletions included; see below for what a REMOVE
// spares), other types. Before mailing, it checks
// the image's email and team_name as Invite checks them, since another
// program may have written the item: an invalid one is skipped (see
// OnSkip), never mailed, as is a record of an expired invitation (without
// OnSkip: nothing is wrong with it) or one the Mailer refuses for good
// (ErrPermanentMail).
//
// A dead invitation: Handle does not mail an INSERT whose item a later
// REMOVE record of the same batch deletes (Invite's replacement of the
// address's earlier invitation, a revocation, an acceptance, TTL), so a
// resend within one batch mails one link, the live one; nor is it told
// to OnSkip, since nothing is wrong with it. It needs the REMOVE records
// for that: InvitationStreamMapping's filter lets them through (a filter
// of INSERT records only still works, and mails every replaced
// invitation). Across batches it cannot know: an invitation replaced
// after its batch was handled has been mailed, and its link then fails
// with AcceptInvitation's ErrNotFound, as every replaced invitation's
// does, while the later mail carries the live one. Handle does not read
// the table to find out, by design: the function's role needs no access
// to the table at all, only to its stream (least privilege: a leaked
// role reads no tokens, no addresses); a read would spend the invitation
// table's one read unit per mail; and it could not close the window
// anyway, as a replacement may commit right after the read.
//
// It stops at the first record it cannot mail now: a transient mail
// error, a hashed token without TokenSecret, ctx ended, or less than
// DeadlineMargin left before ctx's deadline. It then reports that record
// and every later one in the batch, by sequence number, and mails
// nothing after it. Lambda retries from the earliest reported record (it
// checkpoints the ones before it), so no record before it is mailed
// again, and no invitation is mailed twice in one invocation. The error
// is always nil: an error would make Lambda retry the whole batch.
//
// The event source mapping must set FunctionResponseTypes to
// [ReportBatchItemFailures], or Lambda ignores the response and a failed
// mail is lost. It should also set a finite MaximumRetryAttempts and
// MaximumRecordAgeInSeconds, so that a record that keeps failing cannot
// hold up the shard for the stream's 24 hours, and an on-failure
// destination (SQS or SNS) that names the records given up on.
// BisectBatchOnFunctionError can stay false: the response already names
// the record to retry from. InvitationStreamMapping gives the whole
// mapping, and ddbkit export taskmgmt emits it in CloudFormation.
func (h StreamHandler) Handle(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	table := ""
	if len(ev.Records) > 0 {
		table = tableOfArn(ev.Records[0].EventSourceArn)
	}
	tel := obs.Cached("taskmgmt", h.TracerProvider, h.MeterProvider)
	ctx, op := tel.Start(ctx, "StreamHandler.Handle", table)
	resp, mailed := h.handle(ctx, ev)
	op.End(nil)
	failed := len(resp.BatchItemFailures)
	tel.Records(ctx, "StreamHandler.Handle", table, "mailed", mailed)
	tel.Records(ctx, "StreamHandler.Handle", table, "failed", failed)
	tel.Records(ctx, "StreamHandler.Handle", table, "skipped", len(ev.Records)-mailed-failed)
	return resp, nil
}

// handle is Handle, returning how many records it mailed.
func (h StreamHandler) handle(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, int) {
	clock := h.Clock
	if clock == nil {
		clock = time.Now
	}
	margin := h.DeadlineMargin
	if margin == 0 {
		margin = defaultDeadlineMargin
	}
	var cutoff time.Time // when mailing must end; zero for never
	if deadline, ok := ctx.Deadline(); ok && margin > 0 {
		cutoff = deadline.Add(-margin)
	}
	resp := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}
	mailed := map[string]bool{} // idempotency keys tried in this invocation
	sent := 0
	removed := lastRemoves(ev.Records)
	for i, rec := range ev.Records {
		inv, ok := h.invitation(rec, clock())
		if !ok || mailed[inv.ID] {
			continue
		}
		if j, ok := removed[recordKey(rec)]; ok && j > i {
			// Replaced, revoked or accepted later in this batch: its link
			// is dead already, and a mail would only confuse.
			continue
		}
		// A secret missing or too short is the deployment's error, a
		// failure that a redeploy mends; a token that does not derive
		// from the secret is the item's, skipped.
		err := checkTokenSecret("StreamHandler.TokenSecret", h.TokenSecret)
		if err == nil {
			inv.Token, err = mailToken(h.TokenSecret, inv)
		}
		if err != nil && !errors.Is(err, ddbkit.ErrInvalidArgument) {
			h.skip(rec, inv.ID, err)
			continue
		}
		if err != nil || ctx.Err() != nil || !cutoff.IsZero() && time.Until(cutoff) <= 0 {
			return failFrom(resp, ev.Records[i:]), sent
		}
		mailed[inv.ID] = true
		if err := h.mail(ctx, inv, cutoff); errors.Is(err, ErrPermanentMail) {
			h.skip(rec, inv.ID, fmt.Errorf("taskmgmt: invitation %.48q of team %.48q not mailed: %w", inv.ID, inv.TeamID, err))
		} else if err != nil {
			return failFrom(resp, ev.Records[i:]), sent
		} else {
			sent++
		}
	}
	return resp, sent
}

// The skip errors quote at most 48 characters (192 bytes) of each text of
// the record they name (%.48q): a record's keys are another writer's, up
// to a kilobyte, and an error is logged. Real IDs are shorter; the
// SkippedRecord keeps them whole.

// invitation returns the invitation a record asks to mail, and whether
// there is one: an INSERT of a live invitation whose image decodes and
// passes validation. It reports the records it skips.
func (h StreamHandler) invitation(rec events.DynamoDBEventRecord, now time.Time) (Invitation, bool) {
	if rec.EventName != string(events.DynamoDBOperationTypeInsert) || isRecord(rec) {
		return Invitation{}, false
	}
	if rec.Change.NewImage == nil {
		// A stream of keys or old images only: the invitation is in no
		// record, and can never be mailed from this one.
		if sk := rec.Change.Keys[AttrSK]; sk.DataType() == events.DataTypeString {
			if id, ok := idFrom(sk.String(), segInvite); ok {
				h.skip(rec, id, fmt.Errorf("taskmgmt: the INSERT of invitation %.48q has no new image: the stream's view type is %.48q, and must be NEW_IMAGE or NEW_AND_OLD_IMAGES: %w",
					id, rec.Change.StreamViewType, ddbkit.ErrInvalidArgument))
			}
		}
		return Invitation{}, false
	}
	if typ, ok := rec.Change.NewImage[attrType]; !ok || typ.DataType() != events.DataTypeString || typ.String() != typeInvitation {
		return Invitation{}, false
	}
	image := make(ddb.Item, len(rec.Change.NewImage))
	for k, v := range rec.Change.NewImage {
		image[k] = attributeValue(v)
	}
	inv, err := decodeInvitation(table(tableOfArn(rec.EventSourceArn)), image)
	if err != nil {
		h.skip(rec, "", err)
		return Invitation{}, false
	}
	if err := validateMailed(inv); err != nil {
		h.skip(rec, inv.ID, err)
		return Invitation{}, false
	}
	return inv, inv.Live(now)
}

// lastRemoves maps the key of each item a REMOVE record of recs deletes
// to the index of its last such record.
func lastRemoves(recs []events.DynamoDBEventRecord) map[string]int {
	var out map[string]int
	for i, rec := range recs {
		if rec.EventName != string(events.DynamoDBOperationTypeRemove) {
			continue
		}
		if k := recordKey(rec); k != "" {
			if out == nil {
				out = map[string]int{}
			}
			out[k] = i
		}
	}
	return out
}

// recordKey is the key of a record's item, PK and SK, or "" when the
// record lacks either as a String.
func recordKey(rec events.DynamoDBEventRecord) string {
	pk, sk := rec.Change.Keys[AttrPK], rec.Change.Keys[AttrSK]
	if pk.DataType() != events.DataTypeString || sk.DataType() != events.DataTypeString {
		return ""
	}
	return pk.String() + "\x00" + sk.String()
}

// isRecord reports the record of an idempotency record's item (key
// IDEMPOTENCY#…): ddbkit writes those to the task table, never to the
// invitation table (see the package doc's "Idempotency keys"), but a
// stream is no place to trust that, so such an item is ignored, as any
// item not of type invitation is, with or without a new image.
func isRecord(rec events.DynamoDBEventRecord) bool {
	pk := rec.Change.Keys[AttrPK]
	return pk.DataType() == events.DataTypeString && strings.HasPrefix(pk.String(), backend.RecordPrefix)
}

// mail calls the Mailer under a context that ends at cutoff (unless it
// is zero), so that a slow call leaves Handle the time to respond.
func (h StreamHandler) mail(ctx context.Context, inv Invitation, cutoff time.Time) error {
	if !cutoff.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, cutoff)
		defer cancel()
	}
	return h.Mailer.MailInvitation(ctx, inv, inv.ID)
}

func (h StreamHandler) skip(rec events.DynamoDBEventRecord, invitationID string, err error) {
	if h.OnSkip != nil {
		h.OnSkip(SkippedRecord{Record: rec, InvitationID: invitationID, Err: err})
	}
}

// failFrom reports recs, the unprocessed rest of the batch, as failures.
func failFrom(resp events.DynamoDBEventResponse, recs []events.DynamoDBEventRecord) events.DynamoDBEventResponse {
	for _, r := range recs {
		resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: r.Change.SequenceNumber})
	}
	return resp
}

// attributeValue converts a stream image's value to the SDK's. The zero
// DynamoDBAttributeValue, which no event decodes to, becomes NULL, a type
// no invitation attribute has.
func attributeValue(v events.DynamoDBAttributeValue) types.AttributeValue {
	if v.IsNull() {
		return &types.AttributeValueMemberNULL{Value: true}
	}
	switch v.DataType() {
	case events.DataTypeString:
		return &types.AttributeValueMemberS{Value: v.String()}
	case events.DataTypeNumber:
		return &types.AttributeValueMemberN{Value: v.Number()}
	case events.DataTypeBinary:
		return &types.AttributeValueMemberB{Value: v.Binary()}
	case events.DataTypeBoolean:
		return &types.AttributeValueMemberBOOL{Value: v.Boolean()}
	case events.DataTypeStringSet:
		return &types.AttributeValueMemberSS{Value: v.StringSet()}
	case events.DataTypeNumberSet:
		return &types.AttributeValueMemberNS{Value: v.NumberSet()}
	case events.DataTypeBinarySet:
		return &types.AttributeValueMemberBS{Value: v.BinarySet()}
	case events.DataTypeList:
		l := make([]types.AttributeValue, len(v.List()))
		for i, e := range v.List() {
			l[i] = attributeValue(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case events.DataTypeMap:
		m := make(map[string]types.AttributeValue, len(v.Map()))
		for k, e := range v.Map() {
			m[k] = attributeValue(e)
		}
		return &types.AttributeValueMemberM{Value: m}
	}
	return &types.AttributeValueMemberNULL{Value: true}
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
