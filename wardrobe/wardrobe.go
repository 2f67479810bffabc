package wardrobe

import (
	"context"
	"strconv"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/valid"
	"github.com/ddbkit/ddbkit/keys"
)

// Wardrobe is one person's wardrobe: the root every other item hangs from.
//
// The model types (Wardrobe, Clothing, Template, History and the results
// built of them) carry json tags in the seed's attribute spelling
// (wardrobeId, clothingIds, wearCount...), so that a JSON API returns them
// as the seed names them; optional values are omitted when unset (zero).
type Wardrobe struct {
	ID        string    `json:"wardrobeId"` // UUIDv7, assigned by the store
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// Status is the logical-deletion state of a clothing or a template.
type Status string

// The two states the seed allows.
const (
	StatusActive  Status = "ACTIVE"
	StatusDeleted Status = "DELETED"
)

// Kind says whether an item with statistics is a clothing or a template. Its
// values are the seed's key segments.
type Kind string

// The two kinds of worn items.
const (
	KindClothing Kind = "CLOTH"
	KindTemplate Kind = "TPL"
)

// Order is the sort axis of a clothing or template listing: one GSI each.
type Order string

// The seed's three orders. The zero Order means OrderCreatedAt.
const (
	OrderCreatedAt  Order = "CREATED"  // GSI StatusListByCreatedAt: registration order
	OrderWearCount  Order = "WEAR"     // GSI StatusListByWearCount: how often worn
	OrderLastWornAt Order = "LASTWORN" // GSI StatusListByLastWornAt: how recently worn
)

// Clothing is one piece of clothing.
type Clothing struct {
	ID         string    `json:"clothingId"` // UUIDv7, assigned by the store
	WardrobeID string    `json:"wardrobeId"`
	Name       string    `json:"name"`
	Status     Status    `json:"status"`
	ImageKey   string    `json:"imageKey,omitempty"`   // "" when it has no image
	WearCount  int       `json:"wearCount"`            // a cache of the daily counters' sum
	LastWornAt Date      `json:"lastWornAt,omitempty"` // a cache: the latest day worn, in Options.Location; "" if never worn
	CreatedAt  time.Time `json:"createdAt"`
	DeletedAt  time.Time `json:"deletedAt,omitzero"` // zero unless Status is StatusDeleted
}

// Template is a saved outfit: an ordered list of clothes.
type Template struct {
	ID          string    `json:"templateId"` // UUIDv7, assigned by the store
	WardrobeID  string    `json:"wardrobeId"`
	Name        string    `json:"name"`
	Status      Status    `json:"status"`
	ClothingIDs []string  `json:"clothingIds"` // in the order given, 1 to MaxClothes
	WearCount   int       `json:"wearCount"`
	LastWornAt  Date      `json:"lastWornAt,omitempty"` // "" if never worn
	CreatedAt   time.Time `json:"createdAt"`
	DeletedAt   time.Time `json:"deletedAt,omitzero"`
}

// History records that an outfit was worn on a date.
type History struct {
	ID          string    `json:"historyId"` // UUIDv7, assigned by the store
	WardrobeID  string    `json:"wardrobeId"`
	Date        Date      `json:"date"`
	TemplateID  string    `json:"templateId,omitempty"` // "" when the outfit was not a template
	ClothingIDs []string  `json:"clothingIds"`          // in the order given, 1 to MaxClothes
	CreatedAt   time.Time `json:"createdAt"`
}

// Thumbnail is how one referenced clothing is drawn: its image, "no image"
// when ImageKey is "", and a deleted overlay when Deleted is set. A
// reference to a clothing that no longer exists (the seed never deletes
// clothes physically, so only damaged data has one) reads as Deleted with
// no image.
type Thumbnail struct {
	ClothingID string `json:"clothingId"`
	Name       string `json:"name"`
	ImageKey   string `json:"imageKey,omitempty"`
	Deleted    bool   `json:"deleted"`
}

// NoImage reports whether the thumbnail has no image to draw.
func (t Thumbnail) NoImage() bool { return t.ImageKey == "" }

// ThumbnailCount is the seed's THUMB_N: lists show the first 4 clothes of a
// template or history.
const ThumbnailCount = 4

// TemplateSummary is one row of the template list: the template, the
// thumbnails of its first ThumbnailCount clothes, and More, the "+x" badge
// (how many clothes the thumbnails leave out).
type TemplateSummary struct {
	Template
	Thumbnails []Thumbnail `json:"thumbnails"`
	More       int         `json:"more"`
}

// HistorySummary is one row of the history list, like TemplateSummary.
type HistorySummary struct {
	History
	Thumbnails []Thumbnail `json:"thumbnails"`
	More       int         `json:"more"`
}

// HistoryDetail is one history with every clothing it names, in order.
type HistoryDetail struct {
	History
	Clothes []Thumbnail `json:"clothes"`
}

// DailyWear is one daily counter: how often an item was worn on Date.
type DailyWear struct {
	Date  Date `json:"date"`
	Count int  `json:"count"`
}

// NewWardrobe is the input of CreateWardrobe.
type NewWardrobe struct {
	Name string
}

// NewClothing is the input of AddClothing.
type NewClothing struct {
	Name     string
	ImageKey string // optional
}

// ClothingPatch changes the fields that are not nil. ImageKey "" removes
// the image.
type ClothingPatch struct {
	Name     *string
	ImageKey *string
}

// NewTemplate is the input of AddTemplate.
type NewTemplate struct {
	Name        string
	ClothingIDs []string // 1 to MaxClothes ACTIVE clothes of the wardrobe, no duplicates
}

// TemplatePatch changes the fields that are set. A non-nil ClothingIDs
// replaces the list, and must then name 1 to MaxClothes ACTIVE clothes.
type TemplatePatch struct {
	Name        *string
	ClothingIDs []string
}

// NewHistory is the input of AddHistory.
type NewHistory struct {
	Date        Date
	TemplateID  string   // optional: an ACTIVE template of the wardrobe
	ClothingIDs []string // 1 to MaxClothes ACTIVE clothes of the wardrobe, no duplicates
}

// ListQuery selects and pages a clothing or template listing; like
// HistoryQuery and DailyQuery, a listing's selection beyond paging is a
// query that embeds ddbkit.PageOptions.
type ListQuery struct {
	Order      Order  // zero means OrderCreatedAt
	Descending bool   // newest, most worn or most recently worn first
	Status     Status // zero means StatusActive
	ddbkit.PageOptions
}

// ListOptions is ListQuery's former name.
//
// Deprecated: use ListQuery.
type ListOptions = ListQuery

// HistoryQuery selects and pages the history list: the days From to To,
// both included. A zero From or To leaves that end open.
type HistoryQuery struct {
	From, To   Date
	Descending bool // latest day first
	ddbkit.PageOptions
}

// DailyQuery selects and pages the daily counters of one clothing or
// template, like HistoryQuery.
type DailyQuery struct {
	From, To   Date
	Descending bool
	ddbkit.PageOptions
}

// Drift is one item whose cached statistics disagreed with its daily
// counters, as RecalculateStats found and repaired it.
type Drift struct {
	Kind          Kind   `json:"kind"`
	ID            string `json:"id"`
	WearCountWas  int    `json:"wearCountWas"`
	WearCount     int    `json:"wearCount"`
	LastWornAtWas Date   `json:"lastWornAtWas,omitempty"`
	LastWornAt    Date   `json:"lastWornAt,omitempty"`
}

// StatsReport is what RecalculateStats checked, repaired and skipped, in
// the report shape every domain's repairs share: Checked counts the
// clothes and templates, ACTIVE and DELETED, decoded; Drifts are those
// repaired, clothes first, each kind in ID order; Skipped holds one error
// (matching ddbkit.ErrCorruptItem) per clothing or template, or per daily
// counter of one, that could not be decoded, and such an item is neither
// checked nor repaired. Both stores report alike: MemoryStore.Import
// refuses a corrupt item, but one a memory store holds is skipped the same.
type StatsReport = ddbkit.RepairReport[Drift]

// Every method may also return ErrUnavailable: DynamoDB kept throttling or
// failing (5xx) through Options.Retry, or ctx ended (the error then also
// matches context.Canceled or context.DeadlineExceeded); a write may then
// have taken effect, and repeating the call is safe (see the package doc).
// Every method that reads stored items may return ErrCorruptItem for one
// that cannot be decoded, and ErrSchemaMismatch for a table or index that
// is missing or other than Definition says.
//
// Every write method honours an idempotency key (ddbkit.WithIdempotencyKey):
// repeated with the same key and the same arguments within
// ddbkit.IdempotencyWindow (24 h), from this store or another on the same
// table, it returns the first call's result and writes nothing more; with
// other arguments it returns ddbkit.ErrIdempotencyKeyReused (which matches
// ErrConflict) and writes nothing; past the window the key is a new
// request. A create (CreateWardrobe, AddClothing, AddTemplate) and
// AddHistory replay the item their first call wrote, with its ID, as
// stored now (ErrNotFound if it has been deleted since: a history);
// DeleteHistory replays its success; the other writes are safe to repeat by themselves, and run
// again, returning what they return without a key. See the package doc's
// "Idempotency keys".

// WardrobeStore creates and reads wardrobes (AP-01, AP-02).
type WardrobeStore interface {
	// CreateWardrobe stores a new wardrobe with a fresh ID, in a one-item
	// transaction with a ClientRequestToken: it succeeds only if this call
	// wrote the wardrobe (a retry after a lost response included). A
	// repeat under the same idempotency key returns the wardrobe the first
	// call created. It returns ErrInvalidArgument for a bad name (or
	// Options.Clock out of range), ErrAlreadyExists if an item with the new
	// ID exists (the ID generator repeated an ID), however alike,
	// ErrIdempotencyKeyReused, an ErrConflict (the key used for another
	// name; scoped to the table and the operation), or ErrUnavailable.
	CreateWardrobe(ctx context.Context, in NewWardrobe) (Wardrobe, error)
	// GetWardrobe returns ErrInvalidArgument for a bad ID, ErrNotFound,
	// ErrCorruptItem or ErrUnavailable.
	GetWardrobe(ctx context.Context, wardrobeID string) (Wardrobe, error)
}

// ClothingStore stores clothes (AP-04 to AP-08).
type ClothingStore interface {
	// AddClothing stores a new ACTIVE, never worn clothing, in a
	// transaction with a ClientRequestToken: it succeeds only if this call
	// wrote it. A repeat under the same idempotency key returns the
	// clothing the first call added, as it is now. It returns
	// ErrInvalidArgument, ErrNotFound if the wardrobe does not exist,
	// ErrAlreadyExists if an item with the new ID exists, however alike
	// (the ID generator repeated an ID), ErrIdempotencyKeyReused, an
	// ErrConflict (the key used for another clothing of the same
	// wardrobe), or ErrUnavailable.
	AddClothing(ctx context.Context, wardrobeID string, in NewClothing) (Clothing, error)
	// GetClothing returns ErrInvalidArgument, ErrNotFound, ErrCorruptItem
	// or ErrUnavailable.
	GetClothing(ctx context.Context, wardrobeID, clothingID string) (Clothing, error)
	// ListClothes lists the clothes of one status in one order, one Query
	// per page; ties are broken by ID, as the index keys are. An unknown
	// wardrobe has none. Items that cannot be decoded are left out and
	// reported in Page.Skipped. It returns ErrInvalidArgument,
	// ErrInvalidCursor or ErrUnavailable.
	ListClothes(ctx context.Context, wardrobeID string, q ListQuery) (ddbkit.Page[Clothing], error)
	// UpdateClothing applies patch to a clothing, ACTIVE or DELETED, and
	// returns it as the write left it; a repeat (under an idempotency key
	// too) applies it again. It returns ErrInvalidArgument (an
	// empty patch included), ErrNotFound, ErrCorruptItem (the patch is
	// then applied to an item that cannot be decoded) or ErrUnavailable.
	UpdateClothing(ctx context.Context, wardrobeID, clothingID string, patch ClothingPatch) (Clothing, error)
	// DeleteClothing deletes a clothing logically: it becomes DELETED and
	// moves to the DELETED listings. Deleting a DELETED clothing changes
	// nothing and returns it as it is, so does a repeat under an
	// idempotency key. It returns ErrInvalidArgument,
	// ErrNotFound, ErrCorruptItem or ErrUnavailable.
	DeleteClothing(ctx context.Context, wardrobeID, clothingID string) (Clothing, error)
	// RestoreClothing makes a DELETED clothing ACTIVE again; restoring an
	// ACTIVE one changes nothing. It returns ErrInvalidArgument,
	// ErrNotFound, ErrCorruptItem or ErrUnavailable.
	RestoreClothing(ctx context.Context, wardrobeID, clothingID string) (Clothing, error)
}

// TemplateStore stores templates (AP-09 to AP-13).
type TemplateStore interface {
	// AddTemplate stores a new ACTIVE template. Its clothes must be ACTIVE
	// clothes of the wardrobe when it commits. A repeat under the same
	// idempotency key returns the template the first call added, as it is
	// now. It returns ErrInvalidArgument (naming the offending ClothingIDs
	// entry), ErrNotFound if the wardrobe does not exist, ErrAlreadyExists
	// (as AddClothing), ErrIdempotencyKeyReused, an ErrConflict (the key
	// used for another template of the wardrobe), or ErrUnavailable.
	AddTemplate(ctx context.Context, wardrobeID string, in NewTemplate) (Template, error)
	// GetTemplate returns ErrInvalidArgument, ErrNotFound, ErrCorruptItem
	// or ErrUnavailable.
	GetTemplate(ctx context.Context, wardrobeID, templateID string) (Template, error)
	// ListTemplates lists templates like ListClothes, each with its
	// thumbnails: a page costs one Query and one BatchGetItem per 80
	// distinct thumbnail clothes. A thumbnail clothing that cannot be
	// decoded shows as missing and is reported in Page.Skipped. It returns
	// ErrInvalidArgument, ErrInvalidCursor or ErrUnavailable.
	ListTemplates(ctx context.Context, wardrobeID string, q ListQuery) (ddbkit.Page[TemplateSummary], error)
	// UpdateTemplate applies patch, keeping the order of ClothingIDs, and
	// returns the template it committed, without reading it again. A new
	// list must name ACTIVE clothes of the wardrobe. A repeat (under an
	// idempotency key too) applies the patch again. It returns
	// ErrInvalidArgument (an empty patch included), ErrNotFound,
	// ErrCorruptItem, ErrConflict (the template kept changing under it;
	// ErrIdempotencyKeyReused, the key used for another patch) or
	// ErrUnavailable.
	UpdateTemplate(ctx context.Context, wardrobeID, templateID string, patch TemplatePatch) (Template, error)
	// DeleteTemplate and RestoreTemplate behave as DeleteClothing and
	// RestoreClothing do, under an idempotency key too.
	DeleteTemplate(ctx context.Context, wardrobeID, templateID string) (Template, error)
	// RestoreTemplate makes a DELETED template ACTIVE again.
	RestoreTemplate(ctx context.Context, wardrobeID, templateID string) (Template, error)
}

// HistoryStore records what was worn (AP-03, AP-14 to AP-17).
type HistoryStore interface {
	// AddHistory records an outfit worn on in.Date and, in the same
	// transaction, adds one wear to the daily counter, wear count and last
	// worn day of the template (if any) and of every clothing. It returns
	// ErrInvalidArgument (bad input, or a clothing or template that is not
	// ACTIVE in this wardrobe), ErrNotFound if the wardrobe does not exist,
	// ErrCorruptItem (a worn item that cannot be decoded), ErrConflict
	// when it kept losing races within its retry budget
	// (ErrIdempotencyKeyReused when its idempotency key was used for
	// another history), or ErrUnavailable; on every error but
	// ErrUnavailable nothing is written. A repeat under the same
	// idempotency key returns the history the first call added and counts
	// no wear again; ErrNotFound if that history has been deleted since.
	AddHistory(ctx context.Context, wardrobeID string, in NewHistory) (History, error)
	// GetHistory returns a history with all its clothes (one GetItem and
	// one BatchGetItem). It returns ErrInvalidArgument, ErrNotFound,
	// ErrCorruptItem (the history or one of its clothes cannot be decoded)
	// or ErrUnavailable.
	GetHistory(ctx context.Context, wardrobeID, historyID string) (HistoryDetail, error)
	// ListHistory lists histories by date, then by ID, with thumbnails as
	// ListTemplates has them. It returns ErrInvalidArgument,
	// ErrInvalidCursor or ErrUnavailable.
	ListHistory(ctx context.Context, wardrobeID string, q HistoryQuery) (ddbkit.Page[HistorySummary], error)
	// DeleteHistory deletes a history and takes its wear back from the
	// counters and statistics it added to, in one transaction: a daily
	// counter that reaches 0 is deleted, and a last worn day that loses
	// its last wear moves to the next latest day ("" if none). A repeat
	// under the same idempotency key succeeds, as the first call did, and
	// takes nothing back again (without a key it is ErrNotFound). It
	// returns ErrInvalidArgument, ErrNotFound, ErrCorruptItem, ErrConflict
	// (ErrIdempotencyKeyReused: the key used for another history) or
	// ErrUnavailable. Its lookup of the next latest day skips daily
	// counters at 0 (another writer's) with a filter whose pages evaluate
	// at most Options.FilterBudget counters each (see the package doc).
	DeleteHistory(ctx context.Context, wardrobeID, historyID string) error
}

// StatsStore reads and repairs wear statistics, which the seed's ADR keeps
// in daily counters as the source of truth.
type StatsStore interface {
	// ListDailyWear lists the daily counters of one clothing or template
	// in date order: the wear trend of a period. It returns
	// ErrInvalidArgument, ErrInvalidCursor or ErrUnavailable.
	ListDailyWear(ctx context.Context, wardrobeID string, kind Kind, id string, q DailyQuery) (ddbkit.Page[DailyWear], error)
	// RecalculateStats rebuilds every clothing's and template's wear count
	// and last worn day from its daily counters, repairs those that
	// drifted, and reports them; items it cannot decode are reported in
	// StatsReport.Skipped. A repair is safe to repeat: a repeat under an
	// idempotency key runs again, and reports what is left to repair. It
	// returns ErrInvalidArgument, ErrNotFound for an unknown wardrobe,
	// ErrConflict or ErrUnavailable.
	RecalculateStats(ctx context.Context, wardrobeID string) (StatsReport, error)
}

// Store is everything the wardrobe seed describes.
type Store interface {
	WardrobeStore
	ClothingStore
	TemplateStore
	HistoryStore
	StatsStore
}

// Limits, in characters (not bytes) for text.
const (
	MaxNameLen     = 40   // the seed's limit for clothing and template names; wardrobes share it
	MaxImageKeyLen = 1024 // an S3 object key's limit
	MaxIDLen       = 128
	MaxClothes     = 20 // the seed's limit on clothingIds
)

// Valid reports whether s is a status the seed allows.
func (s Status) Valid() bool { return s == StatusActive || s == StatusDeleted }

// Valid reports whether k is KindClothing or KindTemplate.
func (k Kind) Valid() bool { return k == KindClothing || k == KindTemplate }

// Valid reports whether o is one of the three orders.
func (o Order) Valid() bool {
	return o == OrderCreatedAt || o == OrderWearCount || o == OrderLastWornAt
}

// validator checks input: the shared rules of valid.Validator, and this
// package's own.
type validator struct{ valid.Validator }

// clothingIDs checks a list of clothing references: 1 to MaxClothes
// distinct IDs.
func (v *validator) clothingIDs(ids []string) {
	if len(ids) == 0 || len(ids) > MaxClothes {
		v.Fail("ClothingIDs", "must hold 1 to %d clothes, got %d", MaxClothes, len(ids))
		return
	}
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		field := clothingField(i)
		v.ID(field, id, MaxIDLen)
		if j, dup := seen[id]; dup && v.Err == nil {
			v.Fail(field, "repeats ClothingIDs[%d] (%q); an outfit names each clothing once", j, id)
		}
		seen[id] = i
	}
}

func clothingField(i int) string { return "ClothingIDs[" + strconv.Itoa(i) + "]" }

// date checks a date field; optional dates may be "".
func (v *validator) date(field string, d Date, required bool) {
	if d == "" && !required {
		return
	}
	if _, err := d.Time(); err != nil {
		v.Fail(field, "must be a date from %s to %s as yyyymmdd, got %q", MinDate, MaxDate, string(d))
	}
}

func (v *validator) dateRange(from, to Date) {
	v.date("From", from, false)
	v.date("To", to, false)
	if v.Err == nil && from != "" && to != "" && from > to {
		v.Fail("To", "must not be before From (%s), got %s", from, to)
	}
}

func (v *validator) listQuery(o ListQuery) {
	if o.Order != "" && !o.Order.Valid() {
		v.Fail("Order", "must be one of CREATED, WEAR, LASTWORN; got %q", string(o.Order))
	}
	if o.Status != "" && !o.Status.Valid() {
		v.Fail("Status", "must be ACTIVE or DELETED; got %q", string(o.Status))
	}
}

func (v *validator) kind(k Kind) {
	if !k.Valid() {
		v.Fail("Kind", "must be CLOTH or TPL; got %q", string(k))
	}
}

// Date is a calendar date as the seed writes it: "yyyymmdd". The valid dates
// run from MinDate to MaxDate. The zero Date is no date: an open end of a
// range, or "never" for LastWornAt.
type Date string

// The range of dates. A date's midnight in Unix milliseconds is what
// lastWornAt stores, and 0 there means "never worn", so the first valid day
// is the one after the epoch; the LASTWORN# key holds 13 digits of
// milliseconds, which last until 2286-11-20. Both bounds hold in every time
// zone (UTC-12 to UTC+14).
const (
	MinDate Date = "19700102"
	MaxDate Date = "22861120"
)

// DateOf returns the date of t in t's location.
func DateOf(t time.Time) Date { return Date(keys.DateCompact(t)) }

// Valid reports whether d is a date from MinDate to MaxDate; Time says
// what is wrong with one that is not.
func (d Date) Valid() bool {
	_, err := d.Time()
	return err == nil
}

// Time returns midnight UTC of d, or an error (a *ddbkit.ValidationError)
// if d is not a valid date.
func (d Date) Time() (time.Time, error) { return d.In(time.UTC) }

// In returns midnight of d in loc, or an error (a *ddbkit.ValidationError)
// if d is not a valid date. In a zone whose clocks skip midnight that day,
// it is the first instant of the day.
func (d Date) In(loc *time.Location) (time.Time, error) {
	t, err := keys.ParseDateCompact(string(d))
	if err != nil {
		return time.Time{}, err
	}
	if d < MinDate || d > MaxDate {
		return time.Time{}, ddbkit.Invalid("date", "must be from %s to %s, got %s", MinDate, MaxDate, string(d))
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc), nil
}

// AddDays returns the date n days after d (before it when n is negative).
// If d is not a valid date, or the result is outside MinDate..MaxDate, it
// returns d itself, unchanged, and a *ddbkit.ValidationError (matching
// ddbkit.ErrInvalidArgument): a bad date never turns into the zero Date,
// which a range would read as an open end.
func (d Date) AddDays(n int) (Date, error) {
	t, err := d.Time()
	if err != nil {
		return d, err
	}
	out := DateOf(t.AddDate(0, 0, n))
	if _, err := out.Time(); err != nil {
		return d, err
	}
	return out, nil
}

// parseStoredDate reads a date another writer stored: the seed's
// "yyyymmdd", or ISO 8601's extended "yyyy-mm-dd".
func parseStoredDate(s string) (Date, bool) {
	t, err := keys.ParseDateCompact(s)
	if err != nil {
		if t, err = keys.ParseDateISO(s); err != nil {
			return "", false
		}
	}
	return DateOf(t), true
}

// The prologue of every operation, shared by both stores: validate the
// input, with errors wrapped for op. Keeping it in one place is what makes
// the stores refuse the same inputs with the same errors.

func validateWardrobeID(op, wardrobeID string) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	return wrap(op, v.Err)
}

func validateRef(op, wardrobeID, field, id string) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	v.ID(field, id, MaxIDLen)
	return wrap(op, v.Err)
}

func validateNewWardrobe(op string, in NewWardrobe) error {
	var v validator
	v.Line("Name", in.Name, true, MaxNameLen)
	return wrap(op, v.Err)
}

func validateNewClothing(op, wardrobeID string, in NewClothing) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	v.Line("Name", in.Name, true, MaxNameLen)
	v.Line("ImageKey", in.ImageKey, false, MaxImageKeyLen)
	return wrap(op, v.Err)
}

func validateClothingPatch(op, wardrobeID, clothingID string, p ClothingPatch) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	v.ID("ClothingID", clothingID, MaxIDLen)
	if p == (ClothingPatch{}) {
		v.Fail("ClothingPatch", "sets no field; set at least one")
	}
	if p.Name != nil {
		v.Line("Name", *p.Name, true, MaxNameLen)
	}
	if p.ImageKey != nil {
		v.Line("ImageKey", *p.ImageKey, false, MaxImageKeyLen)
	}
	return wrap(op, v.Err)
}

func validateNewTemplate(op, wardrobeID string, in NewTemplate) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	v.Line("Name", in.Name, true, MaxNameLen)
	v.clothingIDs(in.ClothingIDs)
	return wrap(op, v.Err)
}

func validateTemplatePatch(op, wardrobeID, templateID string, p TemplatePatch) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	v.ID("TemplateID", templateID, MaxIDLen)
	if p.Name == nil && p.ClothingIDs == nil {
		v.Fail("TemplatePatch", "sets no field; set at least one")
	}
	if p.Name != nil {
		v.Line("Name", *p.Name, true, MaxNameLen)
	}
	if p.ClothingIDs != nil {
		v.clothingIDs(p.ClothingIDs)
	}
	return wrap(op, v.Err)
}

func validateNewHistory(op, wardrobeID string, in NewHistory) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	v.date("Date", in.Date, true)
	if in.TemplateID != "" {
		v.ID("TemplateID", in.TemplateID, MaxIDLen)
	}
	v.clothingIDs(in.ClothingIDs)
	return wrap(op, v.Err)
}

func validateList(op, wardrobeID string, o ListQuery) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	v.listQuery(o)
	return wrap(op, v.Err)
}

func validateHistoryQuery(op, wardrobeID string, q HistoryQuery) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	v.dateRange(q.From, q.To)
	return wrap(op, v.Err)
}

func validateDailyQuery(op, wardrobeID string, kind Kind, id string, q DailyQuery) error {
	var v validator
	v.ID("WardrobeID", wardrobeID, MaxIDLen)
	v.kind(kind)
	v.ID("ID", id, MaxIDLen)
	v.dateRange(q.From, q.To)
	return wrap(op, v.Err)
}

// worn is a clothing or a template. The two share their life cycle
// (logical deletion), their statistics and their index keys, so both stores
// handle them as one.
type worn struct {
	kind                 Kind
	wardrobeID, id, name string
	status               Status
	imageKey             string   // clothes only
	clothingIDs          []string // templates only
	st                   stats
	createdAt, deletedAt time.Time

	raw ddb.Item // the stored item, as read; nil for one built here
}

func (w worn) key() (itemKey, error) { return wornKey(w.wardrobeID, w.kind, w.id) }

func (w worn) indexKeys() (indexKeys, error) {
	return wornIndexKeys(w.wardrobeID, w.kind, w.id, w.status, w.createdAt, w.st)
}

func (o Options) clothing(w worn) Clothing {
	return Clothing{ID: w.id, WardrobeID: w.wardrobeID, Name: w.name, Status: w.status, ImageKey: w.imageKey,
		WearCount: w.st.count, LastWornAt: o.dateOf(w.st.lastMs), CreatedAt: w.createdAt, DeletedAt: w.deletedAt}
}

func (o Options) template(w worn) Template {
	return Template{ID: w.id, WardrobeID: w.wardrobeID, Name: w.name, Status: w.status,
		ClothingIDs: append([]string(nil), w.clothingIDs...),
		WearCount:   w.st.count, LastWornAt: o.dateOf(w.st.lastMs), CreatedAt: w.createdAt, DeletedAt: w.deletedAt}
}

// patched returns w with a template patch applied.
func (w worn) patched(p TemplatePatch) worn {
	if p.Name != nil {
		w.name = *p.Name
	}
	if p.ClothingIDs != nil {
		w.clothingIDs = append([]string(nil), p.ClothingIDs...)
	}
	return w
}

// deletedAt is the deletedAt of an item moving to status s: now for
// DELETED, zero otherwise. Both stores read the clock here, whether or not
// the item changes, so they stamp the same times.
func (o Options) deletedAt(s Status) time.Time {
	if s == StatusDeleted {
		return o.now()
	}
	return time.Time{}
}

// newWardrobe validates in and returns the wardrobe to create and its key.
func (o Options) newWardrobe(op string, in NewWardrobe) (Wardrobe, itemKey, error) {
	if err := validateNewWardrobe(op, in); err != nil {
		return Wardrobe{}, itemKey{}, err
	}
	w := Wardrobe{ID: o.NewID(), Name: in.Name, CreatedAt: o.now()}
	k, err := wardrobeKey(w.ID)
	if err == nil {
		err = checkTimes(w.CreatedAt)
	}
	if err == nil {
		err = checkSize(marshalWardrobe(k, w))("Name", 0)
	}
	return w, k, wrap(op, err)
}

// sizeReserve is the room an item keeps for what later writes add to it:
// wearCount, lastWornAt and statsVersion growing to their widest, and
// deletedAt from NULL to a Number.
const sizeReserve = 64

// maxWornItem bounds the bytes of a clothing or template item that valid
// input makes, every character taken at four bytes: its name, image key
// and clothes at their longest, seven IDs (the wardrobe's in PK and
// statusListPk, its own in SK, clothingId or templateId and the three
// index sort keys), and sixteen attributes of 32-byte names, 32 bytes of
// fixed text and 21-digit numbers. TestItemSizeCheck holds it above the
// largest such item.
const maxWornItem = 4*(MaxNameLen+MaxImageKeyLen) + MaxClothes*(1+4*MaxIDLen) + 3 + 7*4*MaxIDLen + 16*(32+32+21)

// A patch of valid fields cannot make a clothing or template DynamoDB
// refuses, so patches are not sized before they are sent (an item another
// writer made large is refused by DynamoDB, as ErrInvalidArgument). This
// fails to compile when the field limits above could pass 400 KB.
const _ = uint(ddb.MaxItemSize - sizeReserve - maxWornItem)

// checkSize refuses, before any call and on both stores, an item over
// DynamoDB's 400 KB (with reserve bytes to spare), naming field: the
// caller's field that makes it large. Each store's writes build the item
// from the same values, so they refuse the same inputs.
func checkSize(item ddb.Item, err error) func(field string, reserve int) error {
	return func(field string, reserve int) error {
		if err != nil {
			return err
		}
		return ddb.CheckItemSize(item, field, reserve)
	}
}

// checkTimes refuses a time the store stamps (Options.Clock) outside the
// years 0001-9999, which no reader could parse back.
func checkTimes(ts ...time.Time) error {
	var v validator
	for _, t := range ts {
		v.Time("Clock", t)
	}
	return v.Err
}

// largestText names the longer of two free-text fields, the one to blame
// for an item's size.
func largestText(a, fa, b, fb string) string {
	if len(b) > len(a) {
		return fb
	}
	return fa
}

// newClothing and newTemplate validate their input and return the
// clothing or template to create, ACTIVE and never worn, with a fresh ID,
// and its item.
func (o Options) newClothing(op, wardrobeID string, in NewClothing) (worn, ddb.Item, error) {
	if err := validateNewClothing(op, wardrobeID, in); err != nil {
		return worn{}, nil, err
	}
	w := worn{kind: KindClothing, wardrobeID: wardrobeID, id: o.NewID(), name: in.Name,
		status: StatusActive, imageKey: in.ImageKey, createdAt: o.now()}
	item, err := w.checked(largestText(in.Name, "Name", in.ImageKey, "ImageKey"))
	return w, item, wrap(op, err)
}

// checked returns the item of a new clothing or template, or refuses one
// that DynamoDB would refuse: a clock out of range, or an item over 400 KB
// (blaming field).
func (w worn) checked(field string) (ddb.Item, error) {
	if err := checkTimes(w.createdAt); err != nil {
		return nil, err
	}
	item, err := marshalWorn(w)
	if err := checkSize(item, err)(field, sizeReserve); err != nil {
		return nil, err
	}
	return item, nil
}

func (o Options) newTemplate(op, wardrobeID string, in NewTemplate) (worn, ddb.Item, error) {
	if err := validateNewTemplate(op, wardrobeID, in); err != nil {
		return worn{}, nil, err
	}
	w := worn{kind: KindTemplate, wardrobeID: wardrobeID, id: o.NewID(), name: in.Name,
		status: StatusActive, clothingIDs: append([]string(nil), in.ClothingIDs...), createdAt: o.now()}
	item, err := w.checked("ClothingIDs")
	return w, item, wrap(op, err)
}

// newHistory validates in and returns the history to record and its item.
func (o Options) newHistory(op, wardrobeID string, in NewHistory) (History, ddb.Item, error) {
	if err := validateNewHistory(op, wardrobeID, in); err != nil {
		return History{}, nil, err
	}
	h := History{ID: o.NewID(), WardrobeID: wardrobeID, Date: in.Date, TemplateID: in.TemplateID,
		ClothingIDs: append([]string(nil), in.ClothingIDs...), CreatedAt: o.now()}
	k, err := historyKey(wardrobeID, h.ID)
	if err == nil {
		err = checkTimes(h.CreatedAt)
	}
	var item ddb.Item
	if err == nil {
		item, err = marshalHistory(k, h)
		err = checkSize(item, err)("ClothingIDs", 0)
	}
	return h, item, wrap(op, err)
}
