package kondate

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/valid"
	"github.com/ddbkit/ddbkit/keys"
)

// Profile is a user's profile, the PROFILE# item.
type Profile struct {
	UserID      string    `json:"userId"`
	DisplayName string    `json:"displayName,omitempty"`
	AvatarURL   string    `json:"avatarUrl,omitempty"`
	CreatedAt   time.Time `json:"createdAt,omitzero"` // when the profile was first written; zero if another writer left it out
	UpdatedAt   time.Time `json:"updatedAt"`
}

// ProfilePatch changes the fields that are not nil.
type ProfilePatch struct {
	DisplayName *string
	AvatarURL   *string
}

// Ingredient is one line of a recipe's ingredients.
type Ingredient struct {
	Name   string `dynamodbav:"name" json:"name"`
	Amount string `dynamodbav:"amount" json:"amount,omitempty"` // free text: "200g", "大さじ1"
}

// Recipe is one of a user's recipes, the RECIPE#<id> item.
type Recipe struct {
	ID          string       `json:"id"` // a ULID when ddbkit made it; read from the sort key
	UserID      string       `json:"userId"`
	Title       string       `json:"title"`
	Ingredients []Ingredient `json:"ingredients,omitempty"`
	Steps       []string     `json:"steps,omitempty"`
	Tags        []string     `json:"tags,omitempty"`
	Origin      string       `json:"origin,omitempty"` // where the recipe came from, free text such as "manual" or a URL
	CreatedAt   time.Time    `json:"createdAt"`
	UpdatedAt   time.Time    `json:"updatedAt"`
	PublishedAt time.Time    `json:"publishedAt,omitzero"` // when it was published to the catalog (Publish); zero when it is not
}

// NewRecipe is the input of CreateRecipe.
type NewRecipe struct {
	Title       string
	Ingredients []Ingredient
	Steps       []string
	Tags        []string
	Origin      string
}

// RecipePatch changes the fields that are not nil. A non-nil empty slice
// empties the list.
type RecipePatch struct {
	Title       *string
	Ingredients *[]Ingredient
	Steps       *[]string
	Tags        *[]string
	Origin      *string
}

// SetItem is one dish of a set or a plan.
type SetItem struct {
	RecipeID string `dynamodbav:"recipeId" json:"recipeId,omitempty"`
	Title    string `dynamodbav:"title" json:"title"`
}

// Set is a named set of dishes, the SET#<id> item.
type Set struct {
	ID          string    `json:"id"` // a ULID when ddbkit made it; read from the sort key
	UserID      string    `json:"userId"`
	Title       string    `json:"title"`
	Items       []SetItem `json:"items,omitempty"`
	Tags        []string  `json:"tags,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
	PublishedAt time.Time `json:"publishedAt,omitzero"` // when it was published to the catalog (Publish); zero when it is not
}

// NewSet is the input of CreateSet.
type NewSet struct {
	Title string
	Items []SetItem
	Tags  []string
}

// SetPatch changes the fields that are not nil.
type SetPatch struct {
	Title *string
	Items *[]SetItem
	Tags  *[]string
}

// PlanSlot names one of a user's two plans.
type PlanSlot string

// The two plans of the seed: PLAN#CURRENT and PLAN#NEXT.
const (
	PlanCurrent PlanSlot = "CURRENT"
	PlanNext    PlanSlot = "NEXT"
)

// Plan is a user's current or next meal plan. Applying a set copies the
// set's ID, title and items and stamps AppliedAt; editing the items keeps
// SetID and SetTitle, the set the plan started from.
type Plan struct {
	UserID    string    `json:"userId"`
	Slot      PlanSlot  `json:"slot"`
	SetID     string    `json:"setId,omitempty"` // "" when no set was applied
	SetTitle  string    `json:"setTitle,omitempty"`
	Items     []SetItem `json:"items,omitempty"`
	AppliedAt time.Time `json:"appliedAt,omitzero"` // zero when no set was applied
	UpdatedAt time.Time `json:"updatedAt"`
}

// ShoppingItem is one line of a user's shopping list, the SHOPPING#<id>
// item.
type ShoppingItem struct {
	ID          string    `json:"id"`
	UserID      string    `json:"userId"`
	Name        string    `json:"name"`
	Quantity    string    `json:"quantity,omitempty"`
	Checked     bool      `json:"checked"`              // true once completed
	CompletedAt time.Time `json:"completedAt,omitzero"` // zero until completed
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// NewShoppingItem is the input of AddShoppingItem.
type NewShoppingItem struct {
	Name     string
	Quantity string
}

// ShoppingPatch changes the fields that are not nil.
type ShoppingPatch struct {
	Name     *string
	Quantity *string
}

// FridgeItem is something in a user's fridge, the FRIDGE#<id> item.
type FridgeItem struct {
	ID         string    `json:"id"`
	UserID     string    `json:"userId"`
	Name       string    `json:"name"`
	Quantity   string    `json:"quantity,omitempty"`
	ExpiryDate string    `json:"expiryDate,omitempty"` // a Date (YYYY-MM-DD), or "" when unknown
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

// NewFridgeItem is the input of AddFridgeItem.
type NewFridgeItem struct {
	Name       string
	Quantity   string
	ExpiryDate string // a Date (YYYY-MM-DD), or ""
}

// FridgePatch changes the fields that are not nil.
type FridgePatch struct {
	Name       *string
	Quantity   *string
	ExpiryDate *string
}

// DeletedFridgeItem is a fridge item in the archive, the
// FRIDGE_DELETED#<deletedAt>#<id> item, until it is restored or expires
// (see DeletedFridgeRetention).
type DeletedFridgeItem struct {
	FridgeItem
	DeletedAt time.Time `json:"deletedAt"`
	// Ref addresses the archived item: pass it to RestoreFridgeItem. It
	// is the stored sort key after FRIDGE_DELETED# (<deletedAt>#<id>),
	// as written, whatever form of the time another writer used; it is
	// never rebuilt from DeletedAt.
	Ref string `json:"ref"`
}

// CategoryScope is where a category applies.
type CategoryScope string

// The seed's two scopes.
const (
	ScopeBook    CategoryScope = "book"
	ScopeCatalog CategoryScope = "catalog"
)

// Category is one of a user's category settings, the
// CATEGORY#<scope>#<id> item.
type Category struct {
	ID        string        `json:"id"`
	UserID    string        `json:"userId"`
	Scope     CategoryScope `json:"scope"`
	Name      string        `json:"name"`
	CreatedAt time.Time     `json:"createdAt"`
	UpdatedAt time.Time     `json:"updatedAt"`
}

// NewCategory is the input of AddCategory.
type NewCategory struct {
	Name string
}

// CategoryPatch changes the fields that are not nil.
type CategoryPatch struct {
	Name *string
}

// CookLog records a dish cooked on a day, the COOKLOG#<date>#<id> item.
type CookLog struct {
	ID        string    `json:"id"`
	UserID    string    `json:"userId"`
	Date      string    `json:"date"`               // a Date (YYYY-MM-DD), the user's calendar day, as the key holds it
	RecipeID  string    `json:"recipeId,omitempty"` // "" when the dish is not one of the user's recipes
	Title     string    `json:"title"`
	Note      string    `json:"note,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// NewCookLog is the input of AddCookLog.
type NewCookLog struct {
	Date     string // a Date (YYYY-MM-DD)
	RecipeID string
	Title    string
	Note     string
}

// PaymentMethod is a saved way to pay, the PAYMENT_METHOD#<id> item. It
// holds no card data: only the payment provider's reference to the method
// (its token or ID), the card's brand and its last four digits, which is
// what a user needs to recognise it. A wallet or a bank method has no
// card number: its Brand and Last4 are empty.
type PaymentMethod struct {
	ID          string    `json:"id"`
	UserID      string    `json:"userId"`
	Provider    string    `json:"provider"`        // e.g. "stripe"
	ProviderRef string    `json:"providerRef"`     // the provider's token or payment method ID, never a card number
	Brand       string    `json:"brand,omitempty"` // one of Brands, e.g. "visa", or ""; another writer's item may hold another
	Last4       string    `json:"last4,omitempty"` // four ASCII digits, or "" for a method without a card number (a wallet, a bank account)
	CreatedAt   time.Time `json:"createdAt"`
}

// NewPaymentMethod is the input of AddPaymentMethod.
type NewPaymentMethod struct {
	Provider    string
	ProviderRef string
	Brand       string
	Last4       string // optional: "" for a wallet or bank method
}

// Purchase is a completed purchase, the PURCHASE#<purchasedAt>#<id> item.
// Recorded by RecordPurchase, its ID is the payment provider's
// transaction ID (see NewPurchase); one the seed's app recorded keeps the
// ID its key holds.
type Purchase struct {
	ID              string    `json:"id"`
	UserID          string    `json:"userId"`
	PurchasedAt     time.Time `json:"purchasedAt"` // when the purchase was made, as the caller gave it
	ProductID       string    `json:"productId"`
	Amount          int64     `json:"amount"` // in the currency's minor unit (yen: yen)
	Currency        string    `json:"currency"`
	PaymentMethodID string    `json:"paymentMethodId,omitempty"`
}

// NewPurchase is the input of RecordPurchase. TransactionID and
// PurchasedAt come from the payment provider (a webhook's payload), so
// that a retried delivery records the same purchase, once.
type NewPurchase struct {
	// TransactionID is the payment provider's ID of the transaction
	// (Stripe's payment intent, an App Store transaction ID): required,
	// 1 to MaxIDLen characters without white space or '#'. It becomes the
	// purchase's ID, and is unique per user: where two providers' IDs
	// could be alike, prefix it with the provider ("apple:2000000123").
	TransactionID   string
	PurchasedAt     time.Time // required: when the provider says it was made (kept to the millisecond)
	ProductID       string
	Amount          int64
	Currency        string // ISO 4217, three upper-case letters
	PaymentMethodID string
}

// Subscription is the state of a user's subscription, the
// SUBSCRIPTION#ACTIVE item.
type Subscription struct {
	UserID           string    `json:"userId"`
	Plan             string    `json:"plan"`   // the product plan, e.g. "premium"
	Status           string    `json:"status"` // the provider's status, e.g. "active", "canceled"
	CurrentPeriodEnd time.Time `json:"currentPeriodEnd,omitzero"`
	UpdatedAt        time.Time `json:"updatedAt"`
}

// Notification is a message to a user, the
// NOTIFICATION#<createdAt>#<id> item. Its read state is an attribute of the
// item (readAt): see the package doc.
type Notification struct {
	ID        string    `json:"id"`
	UserID    string    `json:"userId"`
	Kind      string    `json:"kind"`
	Title     string    `json:"title"`
	Body      string    `json:"body,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	ReadAt    time.Time `json:"readAt,omitzero"` // zero while unread
	// Ref addresses the notification: pass it to MarkNotificationRead.
	// It is the stored sort key after NOTIFICATION# (<createdAt>#<id>),
	// as written, whatever form of the time another writer used; it is
	// never rebuilt from CreatedAt.
	Ref string `json:"ref"`
}

// NewNotification is the input of AddNotification.
type NewNotification struct {
	Kind  string
	Title string
	Body  string
}

// NotificationSettings are a user's notification preferences, the
// NOTIFICATION_SETTINGS# item. A user without the item has both off.
type NotificationSettings struct {
	UserID       string    `json:"userId"`
	PushEnabled  bool      `json:"pushEnabled"`
	EmailEnabled bool      `json:"emailEnabled"`
	UpdatedAt    time.Time `json:"updatedAt,omitzero"`
}

// Platform is a push token's platform.
type Platform string

// The platforms a push token may be for.
const (
	PlatformIOS     Platform = "ios"
	PlatformAndroid Platform = "android"
	PlatformWeb     Platform = "web"
)

// PushToken is a device's push token, the PUSH_TOKEN#<platform>#<hash>
// item: the key holds the token's SHA-256 (lower-case hex), the item the
// token itself, which sending needs.
type PushToken struct {
	UserID    string    `json:"userId"`
	Platform  Platform  `json:"platform"`
	Token     string    `json:"token"`
	CreatedAt time.Time `json:"createdAt"` // first registration
	UpdatedAt time.Time `json:"updatedAt"` // last registration
}

// Every method below can also return ErrUnavailable: DynamoDB kept
// throttling or failing through the retries, could not be reached, or the
// context ended first (the error then also matches context.Canceled or
// context.DeadlineExceeded). Every error matches exactly one ddbkit
// sentinel. Bad input is refused with ErrInvalidArgument (a
// *ddbkit.ValidationError naming the field) before any write (under an
// idempotency key, after the one GetItem of the key's record), so nothing
// is written. Gets return ErrCorruptItem when the stored item cannot be
// decoded; listings leave such items out and report them in Page.Skipped.
// Listings return ErrInvalidArgument for a bad limit (or a CursorSecret of
// 1 to 15 bytes) and ErrInvalidCursor for a cursor they did not issue, and
// cost one Query per page (a catalog list filtered by a tag: up to its
// FilterBudget). Creates return ErrAlreadyExists whenever an item is at
// the new key that this call did not write (the ID generator repeated an
// ID), however alike the two items are. An item over DynamoDB's 400 KB
// is ErrInvalidArgument naming the field (see the package doc).
//
// Every write method honours an idempotency key
// (ddbkit.WithIdempotencyKey): see "Retries and idempotency keys" in the
// package doc for what a repeat under the same key returns.

// ProfileStore stores profiles.
type ProfileStore interface {
	// GetProfile returns ErrNotFound if the user has no profile yet.
	GetProfile(ctx context.Context, userID string) (Profile, error)
	// UpdateProfile applies patch, creating the profile on its first
	// update, and returns it as stored. CreatedAt is set by the first
	// update, or the first after another writer stored it as NULL. An
	// empty patch is ErrInvalidArgument; ErrConflict is as
	// CompleteShoppingItem's.
	UpdateProfile(ctx context.Context, userID string, patch ProfilePatch) (Profile, error)
}

// RecipeStore stores recipes.
type RecipeStore interface {
	// CreateRecipe stores a new recipe with a fresh ID. It returns
	// ErrAlreadyExists if the ID generator repeated an ID.
	CreateRecipe(ctx context.Context, userID string, in NewRecipe) (Recipe, error)
	// GetRecipe returns the user's recipe, or ErrNotFound.
	GetRecipe(ctx context.Context, userID, id string) (Recipe, error)
	// FindRecipe returns a recipe by its ID alone, whoever owns it: one
	// Query of GSI1, then one GetItem. It returns ErrNotFound. GSI1 is
	// eventually consistent, so a recipe created a moment ago may not be
	// found yet.
	FindRecipe(ctx context.Context, id string) (Recipe, error)
	// ListRecipes lists the user's recipes newest first (by ID).
	ListRecipes(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[Recipe], error)
	// UpdateRecipe applies patch, bumps UpdatedAt and returns the recipe
	// as stored. It returns ErrInvalidArgument (an empty patch included)
	// or ErrNotFound.
	UpdateRecipe(ctx context.Context, userID, id string, patch RecipePatch) (Recipe, error)
	// DeleteRecipe deletes the recipe and, in the same transaction, its
	// catalog entry if it is published (see the package doc): nothing
	// stays public once the recipe is gone. Users' saved items stay. It
	// returns ErrNotFound if there is no such recipe, and ErrConflict if
	// it kept changing through the retries.
	DeleteRecipe(ctx context.Context, userID, id string) error
}

// SetStore stores sets.
type SetStore interface {
	// CreateSet stores a new set with a fresh ID. It returns
	// ErrAlreadyExists if the ID generator repeated an ID.
	CreateSet(ctx context.Context, userID string, in NewSet) (Set, error)
	// GetSet returns the user's set, or ErrNotFound.
	GetSet(ctx context.Context, userID, id string) (Set, error)
	// FindSet returns a set by its ID alone, as FindRecipe does.
	FindSet(ctx context.Context, id string) (Set, error)
	// ListSets lists the user's sets newest first (by ID).
	ListSets(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[Set], error)
	// UpdateSet applies patch and bumps UpdatedAt. It returns
	// ErrInvalidArgument (an empty patch included) or ErrNotFound. Plans
	// the set was applied to keep their copy.
	UpdateSet(ctx context.Context, userID, id string, patch SetPatch) (Set, error)
	// DeleteSet deletes the set and its catalog entry, as DeleteRecipe
	// does. Plans the set was applied to keep their copy. It returns
	// ErrNotFound if there is no such set, and ErrConflict as DeleteRecipe
	// does.
	DeleteSet(ctx context.Context, userID, id string) error
}

// PlanStore stores the current and next plans.
type PlanStore interface {
	// GetPlan returns ErrNotFound if the plan was never written.
	GetPlan(ctx context.Context, userID string, slot PlanSlot) (Plan, error)
	// UpdatePlan replaces the plan's items, creating the plan if needed,
	// and keeps the set it was applied from.
	UpdatePlan(ctx context.Context, userID string, slot PlanSlot, items []SetItem) (Plan, error)
	// ApplySet copies the set's ID, title and items into the plan and
	// stamps AppliedAt, in one transaction with the check that the set
	// is still the one read. It returns ErrNotFound if there is no such
	// set, and ErrConflict if the set kept changing through the retries.
	ApplySet(ctx context.Context, userID string, slot PlanSlot, setID string) (Plan, error)
	// PromoteNextPlan makes the next plan the current one, in one
	// transaction: the current plan is replaced by the next one, and the
	// next one is deleted. It returns ErrNotFound if there is no next plan,
	// and ErrConflict as ApplySet does.
	PromoteNextPlan(ctx context.Context, userID string) (Plan, error)
}

// ShoppingStore stores the shopping list.
type ShoppingStore interface {
	// AddShoppingItem stores a new item with a fresh ID. It returns
	// ErrAlreadyExists if the ID generator repeated an ID.
	AddShoppingItem(ctx context.Context, userID string, in NewShoppingItem) (ShoppingItem, error)
	// ListShoppingItems lists the list in the order items were added.
	ListShoppingItems(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[ShoppingItem], error)
	// UpdateShoppingItem applies patch and bumps UpdatedAt. It returns
	// ErrInvalidArgument (an empty patch included) or ErrNotFound.
	UpdateShoppingItem(ctx context.Context, userID, id string, patch ShoppingPatch) (ShoppingItem, error)
	// CompleteShoppingItem checks the item off. Completing it again keeps
	// the first CompletedAt; a completedAt stored as NULL (the seed's app
	// writes completedAt: null) counts as none. It returns ErrNotFound,
	// and ErrConflict if another writer kept setting and clearing
	// completedAt meanwhile.
	CompleteShoppingItem(ctx context.Context, userID, id string) (ShoppingItem, error)
}

// FridgeStore stores the fridge and its archive of deleted items.
type FridgeStore interface {
	// AddFridgeItem stores a new item with a fresh ID. It returns
	// ErrAlreadyExists if the ID generator repeated an ID.
	AddFridgeItem(ctx context.Context, userID string, in NewFridgeItem) (FridgeItem, error)
	// ListFridgeItems lists the fridge in the order items were added.
	ListFridgeItems(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[FridgeItem], error)
	// UpdateFridgeItem applies patch and bumps UpdatedAt. It returns
	// ErrInvalidArgument (an empty patch included) or ErrNotFound.
	UpdateFridgeItem(ctx context.Context, userID, id string, patch FridgePatch) (FridgeItem, error)
	// DeleteFridgeItem moves the item to the archive, in one transaction,
	// and returns it as archived. It returns ErrNotFound if the fridge has
	// no such item, and ErrConflict if it kept changing through the retries.
	DeleteFridgeItem(ctx context.Context, userID, id string) (DeletedFridgeItem, error)
	// RestoreFridgeItem moves the archived item ref addresses (its
	// DeletedFridgeItem.Ref, as listed or returned by DeleteFridgeItem)
	// back to the fridge, in one transaction, and returns it. It returns
	// ErrInvalidArgument naming Ref for a ref that is not <time>#<id>,
	// ErrNotFound if the archive has no such item (restored already, or
	// expired), and ErrConflict if the fridge holds the item again.
	RestoreFridgeItem(ctx context.Context, userID, ref string) (FridgeItem, error)
	// ListDeletedFridgeItems lists the archive, most recently deleted
	// first.
	ListDeletedFridgeItems(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[DeletedFridgeItem], error)
}

// CategoryStore stores category settings.
type CategoryStore interface {
	// AddCategory stores a new category in scope with a fresh ID. It
	// returns ErrAlreadyExists if the ID generator repeated an ID.
	AddCategory(ctx context.Context, userID string, scope CategoryScope, in NewCategory) (Category, error)
	// ListCategories lists the categories of scope in the order they were
	// added.
	ListCategories(ctx context.Context, userID string, scope CategoryScope, opts ddbkit.PageOptions) (ddbkit.Page[Category], error)
	// UpdateCategory applies patch and bumps UpdatedAt. It returns
	// ErrInvalidArgument (an empty patch included) or ErrNotFound.
	UpdateCategory(ctx context.Context, userID string, scope CategoryScope, id string, patch CategoryPatch) (Category, error)
	// DeleteCategory returns ErrNotFound if there is no such category.
	DeleteCategory(ctx context.Context, userID string, scope CategoryScope, id string) error
}

// CookLogStore stores the cooking archive.
type CookLogStore interface {
	// AddCookLog stores a new log with a fresh ID. It returns
	// ErrAlreadyExists if the ID generator repeated an ID.
	AddCookLog(ctx context.Context, userID string, in NewCookLog) (CookLog, error)
	// ListCookLogsByMonth lists the logs of month (YYYY-MM) by day, and
	// in the order they were added within a day.
	ListCookLogsByMonth(ctx context.Context, userID, month string, opts ddbkit.PageOptions) (ddbkit.Page[CookLog], error)
	// ListCookLogsByDay lists the logs of date (YYYY-MM-DD) in the order
	// they were added.
	ListCookLogsByDay(ctx context.Context, userID, date string, opts ddbkit.PageOptions) (ddbkit.Page[CookLog], error)
}

// PaymentStore stores payment methods, purchases and the subscription.
type PaymentStore interface {
	// AddPaymentMethod stores a new method with a fresh ID. It returns
	// ErrAlreadyExists if the ID generator repeated an ID.
	AddPaymentMethod(ctx context.Context, userID string, in NewPaymentMethod) (PaymentMethod, error)
	// ListPaymentMethods lists the methods in the order they were added.
	ListPaymentMethods(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[PaymentMethod], error)
	// RemovePaymentMethod returns ErrNotFound if there is no such method.
	RemovePaymentMethod(ctx context.Context, userID, id string) error
	// RecordPurchase stores the purchase in.TransactionID, made at
	// in.PurchasedAt, once: a repeat (a webhook delivered again) with the
	// same content, however long after, returns the stored purchase and
	// writes nothing. It returns ErrAlreadyExists if the user's purchase
	// of that transaction ID is stored with other content (another time,
	// product, amount, currency or method); see the package doc for the
	// guard item that makes the check independent of the time.
	RecordPurchase(ctx context.Context, userID string, in NewPurchase) (Purchase, error)
	// ListPurchases lists purchases newest first.
	ListPurchases(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[Purchase], error)
	// GetSubscription returns ErrNotFound if the user never subscribed.
	GetSubscription(ctx context.Context, userID string) (Subscription, error)
	// SetSubscription replaces the subscription state and returns it as
	// stored (UserID and UpdatedAt are the store's).
	SetSubscription(ctx context.Context, userID string, sub Subscription) (Subscription, error)
}

// NotificationStore stores notifications, their settings and push tokens.
type NotificationStore interface {
	// AddNotification stores a new, unread notification with a fresh ID.
	// It returns ErrAlreadyExists if the ID generator repeated an ID.
	AddNotification(ctx context.Context, userID string, in NewNotification) (Notification, error)
	// ListNotifications lists notifications newest first.
	ListNotifications(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[Notification], error)
	// MarkNotificationRead marks the notification ref addresses (its
	// Notification.Ref, as listed) read; marking it again keeps the first
	// ReadAt (a readAt stored as NULL is unread). It returns
	// ErrInvalidArgument naming Ref for a ref that is not <time>#<id>,
	// ErrNotFound, and ErrConflict as CompleteShoppingItem does.
	MarkNotificationRead(ctx context.Context, userID, ref string) (Notification, error)
	// GetNotificationSettings returns the settings, all off for a user
	// who never set them.
	GetNotificationSettings(ctx context.Context, userID string) (NotificationSettings, error)
	// SetNotificationSettings replaces the settings and returns them as
	// stored.
	SetNotificationSettings(ctx context.Context, userID string, in NotificationSettings) (NotificationSettings, error)
	// RegisterPushToken stores token for platform. Registering a token
	// again is idempotent: it keeps CreatedAt (setting it if another
	// writer stored it as NULL) and bumps UpdatedAt. ErrConflict is as
	// CompleteShoppingItem's.
	RegisterPushToken(ctx context.Context, userID string, platform Platform, token string) (PushToken, error)
	// UnregisterPushToken deletes the token. It returns ErrNotFound if it
	// is not registered.
	UnregisterPushToken(ctx context.Context, userID string, platform Platform, token string) error
	// ListPushTokens lists the user's tokens by platform, then by hash.
	ListPushTokens(ctx context.Context, userID string, opts ddbkit.PageOptions) (ddbkit.Page[PushToken], error)
}

// Store is everything sections 4.1 and 6 of the seed describe.
type Store interface {
	ProfileStore
	RecipeStore
	SetStore
	PlanStore
	ShoppingStore
	FridgeStore
	CategoryStore
	CookLogStore
	PaymentStore
	NotificationStore
	CatalogStore
	ShareStore
}

// Field limits, in characters (Unicode code points).
const (
	MaxIDLen        = 128
	MaxTitleLen     = 200
	MaxNameLen      = 100
	MaxTextLen      = 2000
	MaxURLLen       = 2048
	MaxListLen      = 100 // ingredients, steps, tags, set items
	MaxTagLen       = 50
	MaxPushTokenLen = 4096
)

// validator checks input: the shared rules of valid.Validator, and this
// package's own.
type validator struct{ valid.Validator }

func (v *validator) user(id string) { v.ID("UserID", id, MaxIDLen) }

func (v *validator) lines(field string, ss []string, max int) {
	if len(ss) > MaxListLen {
		v.Fail(field, "must hold at most %d entries, got %d", MaxListLen, len(ss))
	}
	for _, s := range ss {
		v.Line(field, s, true, max)
	}
}

func (v *validator) ingredients(in []Ingredient) {
	if len(in) > MaxListLen {
		v.Fail("Ingredients", "must hold at most %d entries, got %d", MaxListLen, len(in))
	}
	for _, i := range in {
		v.Line("Ingredients.Name", i.Name, true, MaxNameLen)
		v.Line("Ingredients.Amount", i.Amount, false, MaxNameLen)
	}
}

func (v *validator) setItems(items []SetItem) {
	if len(items) > MaxListLen {
		v.Fail("Items", "must hold at most %d entries, got %d", MaxListLen, len(items))
	}
	for _, i := range items {
		if i.RecipeID != "" {
			v.ID("Items.RecipeID", i.RecipeID, MaxIDLen)
		}
		v.Line("Items.Title", i.Title, true, MaxTitleLen)
	}
}

func (v *validator) slot(s PlanSlot) {
	if s != PlanCurrent && s != PlanNext {
		v.Fail("Slot", "must be CURRENT or NEXT, got %q", s)
	}
}

func (v *validator) scope(s CategoryScope) {
	if s != ScopeBook && s != ScopeCatalog {
		v.Fail("Scope", "must be book or catalog, got %q", s)
	}
}

func (v *validator) platform(p Platform) {
	if p != PlatformIOS && p != PlatformAndroid && p != PlatformWeb {
		v.Fail("Platform", "must be ios, android or web, got %q", p)
	}
}

func (v *validator) date(field, s string, required bool) {
	if s == "" && !required {
		return
	}
	d, err := keys.ParseDateISO(s)
	if err != nil {
		v.Fail(field, "must be a date YYYY-MM-DD, got %q", s)
		return
	}
	v.Time(field, d)
}

// MaxRefLen bounds a Ref (Notification.Ref, DeletedFridgeItem.Ref), in
// bytes: a time of up to 64 bytes, '#', and an ID.
const MaxRefLen = 64 + 1 + 4*MaxIDLen

// ref checks a handle of an item whose sort key holds a time:
// <time>#<id>, the time in any ISO 8601 form a reader parses (years 0001
// to 9999), the ID as IDs are. With one '#' and a fixed prefix, a ref
// cannot reach an item of another kind, or another user's.
func (v *validator) ref(s string) {
	at, id, ok := strings.Cut(s, "#")
	if !ok || len(s) > MaxRefLen || len(at) > 64 {
		v.Fail("Ref", "must be an item's Ref as listed, <time>#<id>, at most %d bytes (got %d bytes)", MaxRefLen, len(s))
		return
	}
	t, err := keys.ParseTime(at)
	if err != nil {
		v.Fail("Ref", "must begin with the ISO 8601 time of an item's Ref as listed, got %q", at)
		return
	}
	v.Time("Ref", t)
	v.ID("Ref", id, MaxIDLen)
}

func (v *validator) month(s string) {
	if _, err := time.Parse("2006-01", s); err != nil || len(s) != 7 {
		v.Fail("Month", "must be a month YYYY-MM, got %q", s)
	}
}

// last4 checks Last4: empty (a method without a card number: a wallet, a
// bank account), or exactly four ASCII digits. The error never repeats
// the value, which may be a whole card number passed by mistake.
func (v *validator) last4(s string) {
	if s != "" && (len(s) != 4 || strings.Trim(s, "0123456789") != "") {
		v.Fail("Last4", "must be empty or the card's last four digits, exactly 4 ASCII digits (the value is not repeated here)")
	}
}

// Brands are the card brands a PaymentMethod may name, lower-case.
// AddPaymentMethod refuses any other Brand (a free text could hold card
// data); a stored item of another writer with another brand is read as it
// is.
var Brands = []string{"visa", "mastercard", "amex", "jcb", "diners", "discover", "unionpay"}

// brand checks Brand: empty, or one of Brands. The error does not repeat
// the value.
func (v *validator) brand(s string) {
	if s != "" && !slices.Contains(Brands, s) {
		v.Fail("Brand", "must be empty or one of %s, lower-case (the value is not repeated here)", strings.Join(Brands, ", "))
	}
}

func (v *validator) currency(s string) {
	if len(s) != 3 || strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		v.Fail("Currency", "must be an ISO 4217 code such as JPY, got %q", s)
	}
}

// providerRef checks ProviderRef, the payment provider's token or ID, and
// refuses what looks like a card number: the store keeps no card data.
// Digits of any script (full-width ones included) count as digits, and
// everything between them but letters (spaces, '-', '.', '/', '_', their
// full-width forms, any punctuation or symbol) is taken for a separator;
// a run of 12 to 19 digits so joined that passes the Luhn check is a card
// number, and so is a longer run with any such window (a number run into
// other digits). The errors never repeat the
// value.
func (v *validator) providerRef(s string) {
	if !utf8.ValidString(s) || strings.TrimSpace(s) == "" || utf8.RuneCountInString(s) > MaxIDLen ||
		strings.IndexFunc(s, func(r rune) bool { return !valid.IDRune(r) }) >= 0 {
		v.Fail("ProviderRef", "must be the payment provider's token or ID: 1 to %d letters, digits, punctuation or symbols, "+
			"without white space or '#' (the value is not repeated here)", MaxIDLen)
		return
	}
	if looksLikeCard(s) {
		v.Fail("ProviderRef", "looks like a card number; store the payment provider's token or ID, never card data (the value is not repeated here)")
	}
}

// looksLikeCard reports whether s holds a card number: see providerRef.
func looksLikeCard(s string) bool {
	var run []byte
	flush := func() bool {
		defer func() { run = run[:0] }()
		if len(run) <= 19 {
			return len(run) >= 12 && luhn(run)
		}
		for n := 12; n <= 19; n++ {
			for i := 0; i+n <= len(run); i++ {
				if luhn(run[i : i+n]) {
					return true
				}
			}
		}
		return false
	}
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			run = append(run, digitValue(r))
		case unicode.IsLetter(r):
			if flush() {
				return true
			}
		}
	}
	return flush()
}

// digitValue is the value of a decimal digit of any script: Unicode lays
// each script's digits out as ten consecutive code points from zero (the
// mathematical digits as five such runs back to back).
func digitValue(r rune) byte {
	n := 0
	for unicode.IsDigit(r - rune(n) - 1) {
		n++
	}
	return byte(n % 10)
}

// luhn reports whether digits (values 0-9) pass the Luhn check.
func luhn(digits []byte) bool {
	sum := 0
	for i := range digits {
		d := int(digits[len(digits)-1-i])
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// check runs rules on a fresh validator and returns its error.
func check(rules ...func(*validator)) error {
	var v validator
	for _, r := range rules {
		r(&v)
	}
	return v.Err
}
