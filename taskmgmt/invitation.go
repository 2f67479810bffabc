package taskmgmt

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// Invitation is one invitation to a team, an item of the invitation table
// (seed 001, task-table-invitation-v3).
type Invitation struct {
	ID        string `json:"id"` // UUIDv7 made by the store, so invitations sort by creation
	TeamID    string `json:"teamId"`
	TeamName  string `json:"teamName"` // the team's name when the invitation was made
	Email     string `json:"email"`
	Role      Role   `json:"role"`      // the role the invitee gets on acceptance
	InvitedBy string `json:"invitedBy"` // the inviting admin's user ID
	// Token is the secret of the invitation's link: 256 bits from
	// crypto/rand, or, under Options.TokenSecret, derived with HMAC-SHA256;
	// base64url without padding. Only Invite and StreamHandler (which
	// derives it again under a TokenSecret) give it; GetInvitation and
	// ListInvitations leave it "", so that a listing cannot leak links.
	// In a record of MemoryStore.TakeStream it is what the item holds:
	// the token, or "sha256:<hex>" of it under a TokenSecret.
	Token     string    `json:"token,omitempty"`
	CreatedAt time.Time `json:"createdAt"` // whole seconds, UTC
	ExpiresAt time.Time `json:"expiresAt"` // whole seconds, UTC; DynamoDB's TTL deletes it some time after
}

// Live reports whether the invitation has not expired at now.
func (inv Invitation) Live(now time.Time) bool { return now.Unix() < inv.ExpiresAt.Unix() }

// NewInvitation is the input of Invite.
type NewInvitation struct {
	Email string
	Role  Role // zero means RoleMember
}

// Acceptance is the input of AcceptInvitation: what the invitation's link
// carries.
type Acceptance struct {
	TeamID       string
	InvitationID string
	Token        string
}

// InvitationStore stores a team's invitations on the invitation table
// (Options.InvitationTableName), whose inserts a DynamoDB stream delivers
// to StreamHandler, which mails them.
type InvitationStore interface {
	// Invite has an admin of the team invite an email address with a role.
	// The admin check and the put are one transaction, so a demoted or
	// removed admin cannot invite; an earlier live invitation of the same
	// address to the team (the same as "Email addresses" in the package
	// doc says: Bob@example.com replaces bob@example.com's) is replaced
	// (deleted in the same transaction):
	// its link stops working (expired ones, which reads leave out, are left
	// to TTL). The returned Invitation carries its Token.
	// It returns ErrInvalidArgument (a bad email or role, a TokenSecret
	// under 32 bytes), ErrNotFound (no
	// such team), ErrPermissionDenied matching ErrNotAdmin (the inviter
	// is not an admin of the team), ErrAlreadyExists if the ID generator repeated an
	// ID, or ErrUnavailable.
	Invite(ctx context.Context, teamID, inviterID string, in NewInvitation) (Invitation, error)
	// GetInvitation returns a live invitation, without its token (seed
	// access pattern 2). An expired one is ErrNotFound, as TTL deletes
	// late. It returns ErrInvalidArgument, ErrNotFound, ErrCorruptItem or
	// ErrUnavailable.
	GetInvitation(ctx context.Context, teamID, invitationID string) (Invitation, error)
	// ListInvitations lists a team's live invitations, newest first,
	// without their tokens (seed access pattern 1). A page evaluates at
	// most Options.FilterBudget invitations, expired ones included: it may
	// be short, or empty, with a Next cursor; page on until Next is "". Corrupt items are left out and reported in
	// Page.Skipped. It returns ErrInvalidArgument, ErrInvalidCursor or
	// ErrUnavailable.
	ListInvitations(ctx context.Context, teamID string, opts ddbkit.PageOptions) (ddbkit.Page[Invitation], error)
	// AcceptInvitation makes userID a member of the invitation's team with
	// its role: one transaction deletes the invitation, conditional on its
	// token and on its not having expired at this moment, and writes the
	// membership pair. The token is compared in constant time. A missing,
	// already accepted, revoked or expired invitation and a wrong token
	// all give the same ErrNotFound, so that nothing leaks. It returns
	// ErrInvalidArgument, ErrNotFound (also for no such user or team),
	// ErrAlreadyExists if the user is already a member (the invitation
	// stays), ErrPermissionDenied under Options.AcceptOnlyAddressee for a
	// user whose email is not the invitation's address (the invitation
	// stays), ErrCorruptItem, ErrConflict or ErrUnavailable. By default
	// the token is a bearer link: whoever holds it may accept.
	AcceptInvitation(ctx context.Context, userID string, a Acceptance) (Member, error)
	// RevokeInvitation deletes an invitation, expired or not; the admin
	// check and the delete are one transaction. It returns
	// ErrInvalidArgument, ErrPermissionDenied matching ErrNotAdmin,
	// ErrNotFound or ErrUnavailable.
	RevokeInvitation(ctx context.Context, teamID, adminID, invitationID string) error
}

// ErrNotAdmin reports that a user who is not an admin of the team (or no
// member at all) tried an operation only an admin may do (see "Roles" in
// the package doc). It matches ddbkit.ErrPermissionDenied (an HTTP
// handler's 403), not ErrConflict: retrying as is cannot succeed.
var ErrNotAdmin = fmt.Errorf("not an admin of the team: %w", ddbkit.ErrPermissionDenied)

// DefaultInvitationLifetime is how long an invitation lives by default,
// as the seed's example (createdAt 1768141200, expiresAt 1768227600).
const DefaultInvitationLifetime = 24 * time.Hour

// Limits of the invitation fields, where the seed is silent.
const (
	MaxTokenLen = 512 // longer than any token; another writer's tokens may differ from ours
	TokenBytes  = 32  // 256 bits
)

// errInvitationNotFound is the one error of a missing, accepted, revoked
// or expired invitation and of a wrong token: the same text for the same
// invitation ID, whatever the cause.
func errInvitationNotFound(teamID, invitationID string) error {
	return fmt.Errorf("invitation %q of team %q: %w", invitationID, teamID, ddbkit.ErrNotFound)
}

// newToken returns 256 bits from crypto/rand, base64url without padding
// (43 characters).
func newToken() string {
	b := make([]byte, TokenBytes)
	rand.Read(b) // never fails (crypto/rand's contract since Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// MinTokenSecret is the shortest Options.TokenSecret: 256 bits.
const MinTokenSecret = 32

// hashedToken is the prefix of a token attribute that holds the SHA-256 of
// the token (Options.TokenSecret) instead of the token.
const hashedToken = "sha256:"

func checkTokenSecret(field string, secret []byte) error {
	if n := len(secret); n > 0 && n < MinTokenSecret {
		return ddbkit.Invalid(field, "must be empty or at least %d bytes, got %d; use 32 random bytes shared by the store and the stream handler", MinTokenSecret, n)
	}
	return nil
}

// deriveToken is the token of an invitation under secret: HMAC-SHA256 over
// the invitation's identity and expiry, each length-prefixed, in
// base64url without padding. The invitation ID is fresh per invitation,
// so tokens never repeat.
func deriveToken(secret []byte, teamID, invitationID, email string, expiresAt int64) string {
	m := hmac.New(sha256.New, secret)
	for _, v := range [...]string{"taskmgmt-invitation-token-v1", teamID, invitationID, email, strconv.FormatInt(expiresAt, 10)} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(v)))
		m.Write(n[:])
		m.Write([]byte(v))
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// hashToken is what the token attribute holds for token under a
// TokenSecret.
func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hashedToken + hex.EncodeToString(h[:])
}

// tokenMatches compares a presented token with the stored one in constant
// time (in their content; the length of the stored one may show). A
// stored "sha256:<hex>" is compared with the hash of the presented token,
// so acceptance needs no secret.
func tokenMatches(stored, presented string) bool {
	if stored == "" {
		return false
	}
	if strings.HasPrefix(stored, hashedToken) {
		presented = hashToken(presented)
	}
	return subtle.ConstantTimeCompare([]byte(stored), []byte(presented)) == 1
}

// mailToken returns the token to mail for an invitation whose item holds
// stored: stored itself, or, when it is a hash, the token derived again
// under secret. It fails when the token cannot be derived (no secret,
// or one that does not give the stored hash).
func mailToken(secret []byte, inv Invitation) (string, error) {
	if !strings.HasPrefix(inv.Token, hashedToken) {
		return inv.Token, nil
	}
	if len(secret) == 0 {
		return "", errNoTokenSecret
	}
	tok := deriveToken(secret, inv.TeamID, inv.ID, inv.Email, inv.ExpiresAt.Unix())
	if subtle.ConstantTimeCompare([]byte(hashToken(tok)), []byte(inv.Token)) != 1 {
		return "", fmt.Errorf("taskmgmt: invitation %.48q of team %.48q: its token does not derive from StreamHandler.TokenSecret (another secret, or another writer's item); not mailed", inv.ID, inv.TeamID)
	}
	return tok, nil
}

var errNoTokenSecret = fmt.Errorf("taskmgmt: the invitation holds a hashed token: StreamHandler.TokenSecret must be the store's Options.TokenSecret: %w", ddbkit.ErrInvalidArgument)

// email checks an address every write stores (CreateUser's user_email,
// Invite's email) and the stream handler mails, by the package doc's
// "Email addresses": one rule, so that an address one call takes another
// never refuses. Reads do not check it: another writer's items decode as
// stored.
func (v *validator) email(field, e string) {
	v.Line(field, e, true, MaxEmailLen)
	if v.Err != nil {
		return
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Name != "" || a.Address != e {
		// The address is not repeated: an error is logged, and the
		// stream handler's (OnSkip) is about another writer's invitee.
		v.Fail(field, "must be a plain email address such as alice@example.com")
	}
}

func (o Options) validateInvite(op, teamID, inviterID string, in NewInvitation) error {
	if err := checkTokenSecret("TokenSecret", o.TokenSecret); err != nil {
		return wrap(op, err)
	}
	var v validator
	v.ID("TeamID", teamID, MaxIDLen)
	v.ID("InviterID", inviterID, MaxIDLen)
	v.email("Email", in.Email)
	if in.Role != "" {
		v.role("Role", in.Role)
	}
	return wrap(op, v.Err)
}

func validateAcceptance(op, userID string, a Acceptance) error {
	var v validator
	v.ID("UserID", userID, MaxIDLen)
	v.ID("TeamID", a.TeamID, MaxIDLen)
	v.ID("InvitationID", a.InvitationID, MaxIDLen)
	if strings.TrimSpace(a.Token) == "" {
		v.Fail("Token", "must not be empty or only white space")
	} else if len(a.Token) > MaxTokenLen {
		v.Fail("Token", "must be at most %d bytes, got %d", MaxTokenLen, len(a.Token))
	}
	return wrap(op, v.Err)
}

// newInvitation makes the invitation Invite returns, at now, its token
// included; storedInvitation gives what the table holds of it.
func (o Options) newInvitation(teamID, teamName, inviterID string, in NewInvitation, now time.Time) (Invitation, error) {
	role := in.Role
	if role == "" {
		role = RoleMember
	}
	created := now.Unix()
	inv := Invitation{ID: o.NewID(), TeamID: teamID, TeamName: teamName, Email: in.Email, Role: role, InvitedBy: inviterID,
		CreatedAt: epoch(created), ExpiresAt: epoch(created + int64(o.InvitationLifetime/time.Second))}
	var v validator
	v.Time("CreatedAt", inv.CreatedAt)
	v.Time("InvitationLifetime", inv.ExpiresAt)
	if v.Err != nil {
		return Invitation{}, v.Err
	}
	if len(o.TokenSecret) > 0 {
		inv.Token = deriveToken(o.TokenSecret, inv.TeamID, inv.ID, inv.Email, inv.ExpiresAt.Unix())
	} else {
		inv.Token = o.NewToken()
	}
	return inv, ddb.CheckItemSize(invitationItem(inv), "Email", 0)
}

// storedForm is inv as the table holds it: under a TokenSecret, its
// token's hash instead of the token.
func (o Options) storedForm(inv Invitation) Invitation {
	if len(o.TokenSecret) > 0 {
		inv.Token = hashToken(inv.Token)
	}
	return inv
}

// The invitation table's layout, exactly as the seed gives it.
const (
	typeInvitation   = "invitation"
	segInvite        = "TINVITE"
	attrEmail        = "email"
	attrUserRole     = "user_role"
	attrCreatedAt    = "createdAt"
	attrToken        = "token"
	attrInvExpiresAt = AttrExpiresAt
)

func invitationKey(teamID, invitationID string) itemKey {
	return itemKey{teamPK(teamID), join(segInvite, invitationID)}
}

// storedInvitation is every attribute of an invitation item, the layout
// it is both written and read in.
type storedInvitation struct {
	PK        string       `dynamodbav:"PK"`
	SK        string       `dynamodbav:"SK"`
	Type      string       `dynamodbav:"type"`
	Email     string       `dynamodbav:"email"`
	Role      string       `dynamodbav:"user_role"`
	CreatedAt epochSeconds `dynamodbav:"createdAt,omitempty"` // Invite always sets it; another writer's may lack it
	ExpiresAt epochSeconds `dynamodbav:"expiresAt"`
	InvitedBy string       `dynamodbav:"invitedBy"`
	Token     string       `dynamodbav:"token"`
	TeamName  string       `dynamodbav:"team_name"`
}

var (
	invitationCodec = ddb.NewCodec[storedInvitation]()
	invitationPool  = sync.Pool{New: func() any { return new(storedInvitation) }}
)

func invitationItem(inv Invitation) ddb.Item {
	k := invitationKey(inv.TeamID, inv.ID)
	return encode(invitationCodec, storedInvitation{PK: k.pk, SK: k.sk, Type: typeInvitation,
		Email: inv.Email, Role: string(inv.Role), CreatedAt: epochSeconds(unix(inv.CreatedAt)), ExpiresAt: epochSeconds(inv.ExpiresAt.Unix()),
		InvitedBy: inviterPK(inv.InvitedBy), Token: inv.Token, TeamName: inv.TeamName})
}

// inviterPK is invitedBy's value: USER#<id>, or "" for an invitation
// another writer stored without an inviter (USER# alone would name a user
// whose ID is "").
func inviterPK(id string) string {
	if id == "" {
		return ""
	}
	return userPK(id)
}

// decodeInvitation reads an invitation item, its token included. IDs come
// from the key; invitedBy reads with or without its USER# prefix (an
// empty one as no inviter); a missing or NULL createdAt reads as the
// zero time; a time with a
// fraction of a second reads as the whole second (epochSeconds). An
// unknown role or a non-Number time is ErrCorruptItem.
func decodeInvitation(t ddb.Table, item ddb.Item) (Invitation, error) {
	st, err := decodeWith(invitationCodec, &invitationPool, t, item)
	if err != nil {
		return Invitation{}, err
	}
	teamID, err := keyID(t, item, AttrPK, st.PK, segTeam)
	if err != nil {
		return Invitation{}, err
	}
	id, err := keyID(t, item, AttrSK, st.SK, segInvite)
	if err != nil {
		return Invitation{}, err
	}
	role := Role(st.Role)
	if !role.Valid() {
		return Invitation{}, ddb.Corrupt(t, item, attrUserRole, "%q is not admin or member", st.Role)
	}
	if st.ExpiresAt == 0 {
		return Invitation{}, ddb.Corrupt(t, item, attrInvExpiresAt, "missing: an invitation must expire")
	}
	// Whatever follows USER# is the ID, so that the value written back
	// (USER#<id>) reads as the same ID.
	inviter, _ := strings.CutPrefix(st.InvitedBy, segUser+keys.Sep)
	return Invitation{ID: id, TeamID: teamID, TeamName: st.TeamName, Email: st.Email, Role: role, InvitedBy: inviter,
		Token: st.Token, CreatedAt: epoch(int64(st.CreatedAt)), ExpiresAt: epoch(int64(st.ExpiresAt))}, nil
}

// epochSeconds is an invitation's createdAt or expiresAt. It is written as
// whole epoch seconds, and read from any Number: the seed's app may write
// a fraction (JavaScript's Date.now() / 1000, Python's time.time() as a
// Decimal), which DynamoDB's TTL and conditions take as it is, and which
// reads as the whole second at or before it (so an invitation is never
// taken as live after it expired). NULL, as JavaScript's null is written,
// reads as zero: missing.
type epochSeconds int64

func (e epochSeconds) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(int64(e), 10)}, nil
}

func (e *epochSeconds) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	switch v := av.(type) {
	case *types.AttributeValueMemberNULL:
		*e = 0
		return nil
	case *types.AttributeValueMemberN:
		if n, ok := floorSeconds(v.Value); ok {
			*e = epochSeconds(n)
			return nil
		}
		return fmt.Errorf("%q is not epoch seconds", v.Value)
	}
	return fmt.Errorf("a %T is not a Number of epoch seconds", av)
}

// floorSeconds is the integer at or below the Number n, if it fits an
// int64. A text DynamoDB would not hold as a Number (more than 38 digits,
// an exponent out of its range, hexadecimal) is none: it is read in
// canonical form first (backend.CanonNumber), in time linear in its
// length, so a forged 1e-999999 costs no more than any other.
func floorSeconds(n string) (int64, bool) {
	if i, err := strconv.ParseInt(n, 10, 64); err == nil {
		return i, true
	}
	c, err := backend.CanonNumber(n)
	if err != nil {
		return 0, false
	}
	whole, frac, _ := strings.Cut(c, ".")
	i, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, false
	}
	if frac != "" && strings.HasPrefix(c, "-") {
		if i == math.MinInt64 {
			return 0, false
		}
		i-- // the floor of a negative fraction
	}
	return i, true
}

// decodePublicInvitation is decodeInvitation without the token, for reads.
// publicInvitationDecoder is decodePublicInvitation's backend.Decoder.
var publicInvitationDecoder = backend.NewDecoder(decodePublicInvitation, nil)

func decodePublicInvitation(t ddb.Table, item ddb.Item) (Invitation, error) {
	inv, err := decodeInvitation(t, item)
	inv.Token = ""
	return inv, err
}

// invitationsQuery lists a team's invitations, newest first: their IDs
// are UUIDv7s, which sort by creation.
func invitationsQuery(t ddb.Table, teamID string) ddb.KeyQuery {
	return ddb.KeyQuery{Table: t, PartitionValue: teamPK(teamID), Sort: ddb.SortBeginsWith(segInvite + "#"),
		Descending: true, ConsistentRead: true}
}
