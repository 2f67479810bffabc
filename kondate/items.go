package kondate

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// The item layouts, attribute for attribute. Attribute names are the
// seed's camelCase (section 6). Go types map to DynamoDB types as follows:
// string to S, bool to BOOL, int64 to N, []string to L of S (a list, not a
// string set: order matters and it may be empty), []Ingredient and
// []SetItem to L of M, time.Time to S in keys.Timestamp's format
// (2026-02-09T10:00:00.000Z). Writes marshal the structs whole and reads
// decode them, both through ddb.Codec (TestLayoutCodecs holds every layout
// to attributevalue's rules); reads then convert leniently (decoder).

type keyAttrs struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
}

type gsi1Attrs struct {
	GSI1PK string `dynamodbav:"GSI1PK"`
	GSI1SK string `dynamodbav:"GSI1SK"`
}

type profileItem struct {
	keyAttrs
	DisplayName string `dynamodbav:"displayName"`
	AvatarURL   string `dynamodbav:"avatarUrl"`
	CreatedAt   string `dynamodbav:"createdAt"`
	UpdatedAt   string `dynamodbav:"updatedAt"`
}

type recipeItem struct {
	keyAttrs
	gsi1Attrs
	Title       string         `dynamodbav:"title"`
	Ingredients ingredientList `dynamodbav:"ingredients"`
	Steps       []string       `dynamodbav:"steps"`
	Tags        []string       `dynamodbav:"tags"`
	Origin      string         `dynamodbav:"origin"`
	CreatedAt   string         `dynamodbav:"createdAt"`
	UpdatedAt   string         `dynamodbav:"updatedAt"`
	PublishedAt string         `dynamodbav:"publishedAt,omitempty"` // set by Publish only
}

type setItem struct {
	keyAttrs
	gsi1Attrs
	Title       string      `dynamodbav:"title"`
	Items       setItemList `dynamodbav:"items"`
	Tags        []string    `dynamodbav:"tags"`
	CreatedAt   string      `dynamodbav:"createdAt"`
	UpdatedAt   string      `dynamodbav:"updatedAt"`
	PublishedAt string      `dynamodbav:"publishedAt,omitempty"` // set by Publish only
}

type planItem struct {
	keyAttrs
	SetID     string      `dynamodbav:"setId"`
	SetTitle  string      `dynamodbav:"setTitle"`
	AppliedAt string      `dynamodbav:"appliedAt,omitempty"`
	Items     setItemList `dynamodbav:"items"`
	UpdatedAt string      `dynamodbav:"updatedAt"`
}

type shoppingItem struct {
	keyAttrs
	Name        string `dynamodbav:"name"`
	Quantity    string `dynamodbav:"quantity"`
	Checked     bool   `dynamodbav:"checked"`
	CompletedAt string `dynamodbav:"completedAt,omitempty"`
	CreatedAt   string `dynamodbav:"createdAt"`
	UpdatedAt   string `dynamodbav:"updatedAt"`
}

type fridgeItem struct {
	keyAttrs
	Name       string `dynamodbav:"name"`
	Quantity   string `dynamodbav:"quantity"`
	ExpiryDate string `dynamodbav:"expiryDate"`
	CreatedAt  string `dynamodbav:"createdAt"`
	UpdatedAt  string `dynamodbav:"updatedAt"`
	// Archived items only, with AttrTTL (N, epoch seconds).
	DeletedAt string `dynamodbav:"deletedAt,omitempty"`
}

type categoryItem struct {
	keyAttrs
	Name      string `dynamodbav:"name"`
	CreatedAt string `dynamodbav:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

type cookLogItem struct {
	keyAttrs
	RecipeID  string `dynamodbav:"recipeId"`
	Title     string `dynamodbav:"title"`
	Note      string `dynamodbav:"note"`
	CreatedAt string `dynamodbav:"createdAt"`
}

type paymentMethodItem struct {
	keyAttrs
	Provider    string `dynamodbav:"provider"`
	ProviderRef string `dynamodbav:"providerRef"`
	Brand       string `dynamodbav:"brand"`
	Last4       string `dynamodbav:"last4"`
	CreatedAt   string `dynamodbav:"createdAt"`
}

type purchaseItem struct {
	keyAttrs
	ProductID       string `dynamodbav:"productId"`
	Amount          int64  `dynamodbav:"amount"`
	Currency        string `dynamodbav:"currency"`
	PaymentMethodID string `dynamodbav:"paymentMethodId"`
	PurchasedAt     string `dynamodbav:"purchasedAt"`
}

// purchaseTxnItem is the guard of a purchase's transaction ID,
// PURCHASE_TXN#<transactionId>: it holds the purchase's sort key, so that a
// repeat of RecordPurchase finds the purchase whatever time it was given.
type purchaseTxnItem struct {
	keyAttrs
	PurchaseSK string `dynamodbav:"purchaseSk"`
}

type subscriptionItem struct {
	keyAttrs
	Plan             string `dynamodbav:"plan"`
	Status           string `dynamodbav:"status"`
	CurrentPeriodEnd string `dynamodbav:"currentPeriodEnd,omitempty"`
	UpdatedAt        string `dynamodbav:"updatedAt"`
}

type notificationItem struct {
	keyAttrs
	Kind      string `dynamodbav:"kind"`
	Title     string `dynamodbav:"title"`
	Body      string `dynamodbav:"body"`
	CreatedAt string `dynamodbav:"createdAt"`
	ReadAt    string `dynamodbav:"readAt,omitempty"`
}

type notificationSettingsItem struct {
	keyAttrs
	PushEnabled  bool   `dynamodbav:"pushEnabled"`
	EmailEnabled bool   `dynamodbav:"emailEnabled"`
	UpdatedAt    string `dynamodbav:"updatedAt"`
}

type pushTokenItem struct {
	keyAttrs
	Platform  string `dynamodbav:"platform"`
	Token     string `dynamodbav:"token"`
	CreatedAt string `dynamodbav:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

// ingredientList is a recipe's ingredients as stored. It is written in the
// one documented shape, L of M {name: S, amount: S}, and read from every
// shape the seed's app plausibly writes, since the seed names the
// attribute without its shape: a list of strings ("豚肉 200g": the name,
// no amount), maps with keys missing (an absent or NULL amount is "") or
// extra (ignored), an amount or name written as a Number, and NULL
// elements (left out). A string set reads as a list of strings. Anything
// else (a list of lists, a name that is a map) is corrupt.
type ingredientList []Ingredient

// MarshalDynamoDBAttributeValue implements attributevalue.Marshaler.
func (l ingredientList) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	out := make([]types.AttributeValue, len(l))
	for i, in := range l {
		out[i] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"name": ddb.S(in.Name), "amount": ddb.S(in.Amount)}}
	}
	return &types.AttributeValueMemberL{Value: out}, nil
}

// UnmarshalDynamoDBAttributeValue implements attributevalue.Unmarshaler.
func (l *ingredientList) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	out, err := lenientList(av, func(m map[string]types.AttributeValue) (Ingredient, error) {
		name, err := lenientText(m, "name")
		if err != nil {
			return Ingredient{}, err
		}
		amount, err := lenientText(m, "amount")
		return Ingredient{Name: name, Amount: amount}, err
	}, func(s string) Ingredient { return Ingredient{Name: s} })
	*l = out
	return err
}

// setItemList is a set's or plan's dishes as stored: written as L of M
// {recipeId: S, title: S}, read leniently as ingredientList is. A string
// is a dish's title (a plan of dish names; no recipe), and a map without
// title may name it name.
type setItemList []SetItem

// MarshalDynamoDBAttributeValue implements attributevalue.Marshaler.
func (l setItemList) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	out := make([]types.AttributeValue, len(l))
	for i, it := range l {
		out[i] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"recipeId": ddb.S(it.RecipeID), "title": ddb.S(it.Title)}}
	}
	return &types.AttributeValueMemberL{Value: out}, nil
}

// UnmarshalDynamoDBAttributeValue implements attributevalue.Unmarshaler.
func (l *setItemList) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	out, err := lenientList(av, func(m map[string]types.AttributeValue) (SetItem, error) {
		id, err := lenientText(m, "recipeId")
		if err != nil {
			return SetItem{}, err
		}
		title, err := lenientText(m, "title")
		if _, ok := m["title"]; !ok && err == nil {
			title, err = lenientText(m, "name")
		}
		return SetItem{RecipeID: id, Title: title}, err
	}, func(s string) SetItem { return SetItem{Title: s} })
	*l = out
	return err
}

// lenientList reads a list attribute whose elements are maps (read by
// fromMap) or strings (fromString): an L of both, NULL elements left out,
// a string set, or NULL (no list).
func lenientList[T any](av types.AttributeValue, fromMap func(map[string]types.AttributeValue) (T, error), fromString func(string) T) ([]T, error) {
	switch v := av.(type) {
	case *types.AttributeValueMemberNULL:
		return nil, nil
	case *types.AttributeValueMemberSS:
		out := make([]T, len(v.Value))
		for i, s := range v.Value {
			out[i] = fromString(s)
		}
		return out, nil
	case *types.AttributeValueMemberL:
		out := make([]T, 0, len(v.Value))
		for i, e := range v.Value {
			switch e := e.(type) {
			case *types.AttributeValueMemberM:
				x, err := fromMap(e.Value)
				if err != nil {
					return nil, fmt.Errorf("element %d: %w", i, err)
				}
				out = append(out, x)
			case *types.AttributeValueMemberS:
				out = append(out, fromString(e.Value))
			case *types.AttributeValueMemberNULL:
			default:
				return nil, fmt.Errorf("element %d: want a map or a string, got %s", i, typeName(e))
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a list, got %s", typeName(av))
}

// lenientText reads the text of m's attribute name: a String, or a Number
// as written; "" when it is missing or NULL.
func lenientText(m map[string]types.AttributeValue, name string) (string, error) {
	switch v := m[name].(type) {
	case nil, *types.AttributeValueMemberNULL:
		return "", nil
	case *types.AttributeValueMemberS:
		return v.Value, nil
	case *types.AttributeValueMemberN:
		return v.Value, nil
	default:
		return "", fmt.Errorf("%s: want a string, got %s", name, typeName(v))
	}
}

// typeName is an attribute value's DynamoDB type (S, N, L…), for errors.
func typeName(av types.AttributeValue) string {
	return strings.TrimPrefix(reflect.TypeOf(av).Elem().Name(), "AttributeValueMember")
}

// Attribute names used in updates.
const (
	attrCreatedAt = "createdAt"
	attrUpdatedAt = "updatedAt"
	attrDeletedAt = "deletedAt"
)

// marshal writes layout v whole, through its ddb.Codec: the lists are
// built with list, so that they are never NULL.
func marshal[T any](v T) (ddb.Item, error) { return ddb.NewCodec[T]().Encode(&v) }

// ts formats a time as stored; the zero time is "", left out where the
// attribute is optional.
func ts(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return keys.Timestamp(t)
}

// list returns s, or an empty slice for nil, so that the stored attribute
// is an empty L rather than NULL.
func list[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// orNil returns nil for an empty slice: the domain types hold nil for an
// empty or missing list, whatever the stored form.
func orNil[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// scalars returns the item's scalar attributes (S, N, BOOL): the values a
// write built from the item conditions on (see write.want). Lists and maps
// are left out; updatedAt, which every writer bumps, stands for them.
func scalars(item ddb.Item) ddb.Item {
	out := make(ddb.Item, len(item))
	for n, v := range item {
		switch v.(type) {
		case *types.AttributeValueMemberS, *types.AttributeValueMemberN, *types.AttributeValueMemberBOOL:
			out[n] = v
		}
	}
	return out
}

// moved returns a copy of item under another sort key, with attributes
// drop left out.
func moved(item ddb.Item, sk string, drop ...string) ddb.Item {
	out := maps.Clone(item)
	out[AttrSK] = ddb.S(sk)
	for _, d := range drop {
		delete(out, d)
	}
	return out
}

// The decoders of the items the stores read back whole: through them, a
// memory store decodes each item it holds once (see backend.Decoder).
var (
	profileDecoder              = backend.NewDecoder(decodeProfile, nil)
	recipeDecoder               = backend.NewDecoder(decodeRecipe, Recipe.clone)
	setDecoder                  = backend.NewDecoder(decodeSet, Set.clone)
	planDecoder                 = backend.NewDecoder(decodePlan, Plan.clone)
	shoppingDecoder             = backend.NewDecoder(decodeShopping, nil)
	fridgeDecoder               = backend.NewDecoder(decodeFridge, nil)
	deletedFridgeDecoder        = backend.NewDecoder(decodeDeletedFridge, nil)
	categoryDecoder             = backend.NewDecoder(decodeCategory, nil)
	cookLogDecoder              = backend.NewDecoder(decodeCookLog, nil)
	paymentMethodDecoder        = backend.NewDecoder(decodePaymentMethod, nil)
	purchaseDecoder             = backend.NewDecoder(decodePurchase, nil)
	subscriptionDecoder         = backend.NewDecoder(decodeSubscription, nil)
	notificationDecoder         = backend.NewDecoder(decodeNotification, nil)
	notificationSettingsDecoder = backend.NewDecoder(decodeNotificationSettings, nil)
	pushTokenDecoder            = backend.NewDecoder(decodePushToken, nil)
	catalogDecoder              = backend.NewDecoder(decodeCatalog, CatalogEntry.clone)
	savedDecoder                = backend.NewDecoder(decodeSaved, nil)
	shareDecoder                = backend.NewDecoder(decodeShare, nil)
)

// The clones copy the lists a caller could change.
func (r Recipe) clone() Recipe {
	r.Ingredients, r.Steps, r.Tags = slices.Clone(r.Ingredients), slices.Clone(r.Steps), slices.Clone(r.Tags)
	return r
}

func (s Set) clone() Set {
	s.Items, s.Tags = slices.Clone(s.Items), slices.Clone(s.Tags)
	return s
}

func (p Plan) clone() Plan {
	p.Items = slices.Clone(p.Items)
	return p
}

func (e CatalogEntry) clone() CatalogEntry {
	e.Tags, e.Ingredients, e.Steps, e.Items = slices.Clone(e.Tags), slices.Clone(e.Ingredients), slices.Clone(e.Steps), slices.Clone(e.Items)
	return e
}

// decoder reads an item leniently: identities and times come from the key
// where the attributes are missing, missing attributes read as zero
// values, times may be any ISO 8601 form. The first attribute it cannot
// read makes the item corrupt (ddbkit.ErrCorruptItem, naming it).
type decoder struct {
	t    ddb.Table
	item ddb.Item
	err  error
}

func (d *decoder) fail(attr, format string, args ...any) {
	if d.err == nil {
		d.err = ddb.Corrupt(d.t, d.item, attr, format, args...)
	}
}

// unmarshal decodes d's item into layout *out, through its ddb.Codec.
func unmarshal[T any](d *decoder, out *T) {
	if d.err == nil {
		d.err = ddb.NewCodec[T]().Decode(d.t, d.item, out)
	}
}

// user returns the user ID in the partition key USER#<userId>.
func (d *decoder) user(pk string) string {
	id, ok := strings.CutPrefix(pk, userPrefix)
	if !ok || id == "" {
		d.fail(AttrPK, "want USER#<userId>, got %q", pk)
	}
	return id
}

// id returns the last part of sort key sk, which begins with prefix.
func (d *decoder) id(sk, prefix string) string {
	id := lastPart(sk, prefix)
	if id == "" {
		d.fail(AttrSK, "want %s...<id>, got %q", prefix, sk)
	}
	return id
}

// time parses attribute attr's value v; "" is the zero time. A time
// outside the years 0001 to 9999 in UTC (9999-12-31T23:00:00-05:00, say)
// is corrupt: ddbkit could not write it back in its one format, nor the
// seed's app read it.
func (d *decoder) time(attr, v string) time.Time {
	if v == "" || d.err != nil {
		return time.Time{}
	}
	t, err := keys.ParseTime(v)
	if err != nil {
		d.fail(attr, "want an ISO 8601 date and time such as 2026-02-09T10:00:00.000Z, got %q", v)
		return time.Time{}
	}
	if y := t.Year(); y < 1 || y > 9999 {
		d.fail(attr, "want a time in the years 0001 to 9999 (UTC), got %q", v)
		return time.Time{}
	}
	return t
}

// ref returns the handle of an item whose sort key, <prefix><time>#<id>,
// holds a time: the key after prefix, as stored.
func (d *decoder) ref(sk, prefix string) string {
	r, _ := strings.CutPrefix(sk, prefix)
	return r
}

// keyTime returns the time in sort key sk, <prefix><time>#<id>, when the
// attribute attr holding it (v) is missing.
func (d *decoder) keyTime(attr, v, sk, prefix string) time.Time {
	if v != "" {
		return d.time(attr, v)
	}
	rest, _ := strings.CutPrefix(sk, prefix)
	i := strings.LastIndexByte(rest, '#')
	if i < 0 {
		d.fail(AttrSK, "want %s<time>#<id>, got %q", prefix, sk)
		return time.Time{}
	}
	return d.time(AttrSK, rest[:i])
}

func decodeProfile(t ddb.Table, item ddb.Item) (Profile, error) {
	d := decoder{t: t, item: item}
	var it profileItem
	unmarshal(&d, &it)
	p := Profile{UserID: d.user(it.PK), DisplayName: it.DisplayName, AvatarURL: it.AvatarURL,
		CreatedAt: d.time(attrCreatedAt, it.CreatedAt), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt)}
	return p, d.err
}

func decodeRecipe(t ddb.Table, item ddb.Item) (Recipe, error) {
	d := decoder{t: t, item: item}
	var it recipeItem
	unmarshal(&d, &it)
	r := Recipe{ID: d.id(it.SK, skRecipe), UserID: d.user(it.PK), Title: it.Title,
		Ingredients: orNil(it.Ingredients), Steps: orNil(it.Steps), Tags: orNil(it.Tags), Origin: it.Origin,
		CreatedAt: d.time(attrCreatedAt, it.CreatedAt), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt),
		PublishedAt: d.time(attrPublishedAt, it.PublishedAt)}
	return r, d.err
}

func decodeSet(t ddb.Table, item ddb.Item) (Set, error) {
	d := decoder{t: t, item: item}
	var it setItem
	unmarshal(&d, &it)
	s := Set{ID: d.id(it.SK, skSet), UserID: d.user(it.PK), Title: it.Title, Items: orNil(it.Items), Tags: orNil(it.Tags),
		CreatedAt: d.time(attrCreatedAt, it.CreatedAt), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt),
		PublishedAt: d.time(attrPublishedAt, it.PublishedAt)}
	return s, d.err
}

func decodePlan(t ddb.Table, item ddb.Item) (Plan, error) {
	d := decoder{t: t, item: item}
	var it planItem
	unmarshal(&d, &it)
	p := Plan{UserID: d.user(it.PK), Slot: PlanSlot(d.id(it.SK, skPlan)), SetID: it.SetID, SetTitle: it.SetTitle,
		Items: orNil(it.Items), AppliedAt: d.time("appliedAt", it.AppliedAt), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt)}
	return p, d.err
}

func decodeShopping(t ddb.Table, item ddb.Item) (ShoppingItem, error) {
	d := decoder{t: t, item: item}
	var it shoppingItem
	unmarshal(&d, &it)
	s := ShoppingItem{ID: d.id(it.SK, skShopping), UserID: d.user(it.PK), Name: it.Name, Quantity: it.Quantity,
		Checked: it.Checked, CompletedAt: d.time("completedAt", it.CompletedAt),
		CreatedAt: d.time(attrCreatedAt, it.CreatedAt), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt)}
	return s, d.err
}

func decodeFridge(t ddb.Table, item ddb.Item) (FridgeItem, error) {
	d := decoder{t: t, item: item}
	var it fridgeItem
	unmarshal(&d, &it)
	f := FridgeItem{ID: d.id(it.SK, skFridge), UserID: d.user(it.PK), Name: it.Name, Quantity: it.Quantity,
		ExpiryDate: it.ExpiryDate, CreatedAt: d.time(attrCreatedAt, it.CreatedAt), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt)}
	return f, d.err
}

func decodeDeletedFridge(t ddb.Table, item ddb.Item) (DeletedFridgeItem, error) {
	d := decoder{t: t, item: item}
	var it fridgeItem
	unmarshal(&d, &it)
	f := DeletedFridgeItem{
		FridgeItem: FridgeItem{ID: d.id(it.SK, skFridgeDeleted), UserID: d.user(it.PK), Name: it.Name, Quantity: it.Quantity,
			ExpiryDate: it.ExpiryDate, CreatedAt: d.time(attrCreatedAt, it.CreatedAt), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt)},
		DeletedAt: d.keyTime(attrDeletedAt, it.DeletedAt, it.SK, skFridgeDeleted),
		Ref:       d.ref(it.SK, skFridgeDeleted),
	}
	return f, d.err
}

func decodeCategory(t ddb.Table, item ddb.Item) (Category, error) {
	d := decoder{t: t, item: item}
	var it categoryItem
	unmarshal(&d, &it)
	rest, _ := strings.CutPrefix(it.SK, skCategory)
	scope, _, _ := strings.Cut(rest, "#")
	c := Category{ID: d.id(it.SK, skCategory), UserID: d.user(it.PK), Scope: CategoryScope(scope), Name: it.Name,
		CreatedAt: d.time(attrCreatedAt, it.CreatedAt), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt)}
	return c, d.err
}

func decodeCookLog(t ddb.Table, item ddb.Item) (CookLog, error) {
	d := decoder{t: t, item: item}
	var it cookLogItem
	unmarshal(&d, &it)
	rest, _ := strings.CutPrefix(it.SK, skCookLog)
	date, _, _ := strings.Cut(rest, "#")
	if _, err := keys.ParseDateISO(date); err != nil && d.err == nil {
		d.fail(AttrSK, "want COOKLOG#<YYYY-MM-DD>#<logId>, got %q", it.SK)
	}
	c := CookLog{ID: d.id(it.SK, skCookLog), UserID: d.user(it.PK), Date: date, RecipeID: it.RecipeID,
		Title: it.Title, Note: it.Note, CreatedAt: d.time(attrCreatedAt, it.CreatedAt)}
	return c, d.err
}

func decodePaymentMethod(t ddb.Table, item ddb.Item) (PaymentMethod, error) {
	d := decoder{t: t, item: item}
	var it paymentMethodItem
	unmarshal(&d, &it)
	p := PaymentMethod{ID: d.id(it.SK, skPaymentMethod), UserID: d.user(it.PK), Provider: it.Provider,
		ProviderRef: it.ProviderRef, Brand: it.Brand, Last4: it.Last4, CreatedAt: d.time(attrCreatedAt, it.CreatedAt)}
	return p, d.err
}

func decodePurchase(t ddb.Table, item ddb.Item) (Purchase, error) {
	d := decoder{t: t, item: item}
	var it purchaseItem
	unmarshal(&d, &it)
	p := Purchase{ID: d.id(it.SK, skPurchase), UserID: d.user(it.PK), ProductID: it.ProductID, Amount: it.Amount,
		Currency: it.Currency, PaymentMethodID: it.PaymentMethodID,
		PurchasedAt: d.keyTime("purchasedAt", it.PurchasedAt, it.SK, skPurchase)}
	return p, d.err
}

func decodeSubscription(t ddb.Table, item ddb.Item) (Subscription, error) {
	d := decoder{t: t, item: item}
	var it subscriptionItem
	unmarshal(&d, &it)
	s := Subscription{UserID: d.user(it.PK), Plan: it.Plan, Status: it.Status,
		CurrentPeriodEnd: d.time("currentPeriodEnd", it.CurrentPeriodEnd), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt)}
	return s, d.err
}

func decodeNotification(t ddb.Table, item ddb.Item) (Notification, error) {
	d := decoder{t: t, item: item}
	var it notificationItem
	unmarshal(&d, &it)
	n := Notification{ID: d.id(it.SK, skNotification), UserID: d.user(it.PK), Kind: it.Kind, Title: it.Title, Body: it.Body,
		CreatedAt: d.keyTime(attrCreatedAt, it.CreatedAt, it.SK, skNotification), ReadAt: d.time("readAt", it.ReadAt),
		Ref: d.ref(it.SK, skNotification)}
	return n, d.err
}

func decodeNotificationSettings(t ddb.Table, item ddb.Item) (NotificationSettings, error) {
	d := decoder{t: t, item: item}
	var it notificationSettingsItem
	unmarshal(&d, &it)
	s := NotificationSettings{UserID: d.user(it.PK), PushEnabled: it.PushEnabled, EmailEnabled: it.EmailEnabled,
		UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt)}
	return s, d.err
}

func decodePushToken(t ddb.Table, item ddb.Item) (PushToken, error) {
	d := decoder{t: t, item: item}
	var it pushTokenItem
	unmarshal(&d, &it)
	rest, _ := strings.CutPrefix(it.SK, skPushToken)
	platform, _, _ := strings.Cut(rest, "#")
	p := PushToken{UserID: d.user(it.PK), Platform: Platform(platform), Token: it.Token,
		CreatedAt: d.time(attrCreatedAt, it.CreatedAt), UpdatedAt: d.time(attrUpdatedAt, it.UpdatedAt)}
	return p, d.err
}

// epochSeconds is a TTL value.
func epochSeconds(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }
