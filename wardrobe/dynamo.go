package wardrobe

import (
	"context"
	"errors"
	"iter"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// DynamoStore is the Store on DynamoDB. Its base-table reads are strongly
// consistent; its listings read GSIs, which DynamoDB updates eventually
// (DynamoDB Local, and MemoryStore, at once).
type DynamoStore struct {
	c ddbkit.Client
	o Options
	t ddb.Table
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the table named by the options, which
// must exist (see EnsureTable). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	return &DynamoStore{c: c, o: o, t: o.table()}
}

// BatchGetChunk is the seed's unit of BatchGetItem: at most 80 keys a call.
const BatchGetChunk = 80

// The item layouts this package writes, attribute for attribute as the
// seed gives them, are built by the marshal functions at the end of this
// file. Times are Unix ms Numbers; deletedAt and a history's templateId
// are NULL when unset. (Reads are lenient: see decode.go.)

// Attribute names used in expressions.
const (
	attrName         = "name"
	attrStatus       = "status"
	attrImageKey     = "imageKey"
	attrClothingIDs  = "clothingIds"
	attrWearCount    = "wearCount"
	attrLastWornAt   = "lastWornAt"
	attrStatsVersion = "statsVersion"
	attrCreatedAt    = "createdAt"
	attrDeletedAt    = "deletedAt"
	attrCount        = "count"
	attrDate         = "date"
	attrTemplateID   = "templateId"
	attrClothingID   = "clothingId"
	attrHistoryID    = "historyId"
	attrWardrobeID   = "wardrobeId"
)

var (
	nPK           = expression.Name(AttrPK)
	nName         = expression.Name(attrName)
	nStatus       = expression.Name(attrStatus)
	nImageKey     = expression.Name(attrImageKey)
	nClothingIDs  = expression.Name(attrClothingIDs)
	nWearCount    = expression.Name(attrWearCount)
	nLastWornAt   = expression.Name(attrLastWornAt)
	nStatsVersion = expression.Name(attrStatsVersion)
	nDeletedAt    = expression.Name(attrDeletedAt)
	nStatusListPK = expression.Name(AttrStatusListPK)
	nWearCountSK  = expression.Name(AttrWearCountSK)
	nLastWornSK   = expression.Name(AttrLastWornAtSK)
	nCount        = expression.Name(attrCount)
	nDate         = expression.Name(attrDate)
	exists        = expression.AttributeExists(nPK)
	notExists     = expression.AttributeNotExists(nPK)
	isActive      = exists.And(expression.Equal(nStatus, expression.Value(string(StatusActive))))
)

// statsAttrs are the attributes a statistics write reads and conditions
// on: the two the seed's app maintains, and statsVersion, which only this
// package does.
var statsAttrs = []string{attrWearCount, attrLastWornAt, attrStatsVersion}

// Transaction item labels, by which cancellation reasons are told apart.
// References are labelled by the input field that names them.
const (
	labelWardrobe = "wardrobe"
	labelItem     = "item"
)

// raceError reports that an item a read-modify-write read changed before
// its write: the operation reads again and starts over, within
// Options.Retry, and reports it (matching ddbkit.ErrConflict) when the
// attempts run out. Every build sends the token of the same op (see the
// package doc: a cancelled build leaves the token free, and a repeated
// call must not find a free one).
type raceError struct{ what string }

func (e *raceError) Error() string {
	return e.what + " changed while being updated: " + ddbkit.ErrConflict.Error()
}

func (e *raceError) Is(target error) bool { return target == ddbkit.ErrConflict }

func errRaced(what string) error { return &raceError{what: what} }

func isRace(err error) bool {
	var r *raceError
	return errors.As(err, &r)
}

// raced turns a transaction cancelled by a failed condition into a
// raceError: something the condition relied on was changed by a
// concurrent write.
func raced(err error, what string) error {
	var canceled *ddb.TxCanceledError
	if errors.As(err, &canceled) {
		for _, r := range canceled.Reasons {
			if r.Code == ddb.ReasonConditionalCheckFailed {
				return errRaced(what)
			}
		}
	}
	return err
}

// write runs one plain call (GetItem, UpdateItem) that is safe to repeat
// (a read, or a write that sets the same values again or recognises its
// own earlier success), retrying throttling, 5xx and lost responses
// within b. fn must make a single call that does not retry itself: this is
// its one retry loop.
func (s *DynamoStore) write(ctx context.Context, b ddb.Backoff, fn func() error) error {
	return ddb.RetryIf(ctx, b, ddb.RetryableWithToken, fn)
}

// once is Options.Retry's backoff limited to one attempt: what the calls
// inside a read-modify-write (rmw) get, since its loop is their one retry
// loop.
func (s *DynamoStore) once() ddb.Backoff {
	b := s.o.backoff()
	b.Attempts = 1
	return b
}

// rmw runs a read-modify-write: build reads what the transaction depends
// on (each call with the single attempt it is given) and returns the
// transaction, and check interprets the transaction's outcome (a failed
// condition of the read items as a raceError). Every build carries the
// token of scope (see ddb.ExecTx: a cancelled build leaves it free, and a
// repeated call must not find a free one).
//
// rmw is the operation's one retry loop, within Options.Retry: each
// attempt makes at most one call per step (a build's reads, or the
// transaction), so no step makes more than MaxAttempts calls. A race
// rebuilds; a failed read rebuilds; throttling, a transaction conflict, a
// 5xx or a lost response of the transaction sends the same transaction
// again with the same token, which DynamoDB answers with success, writing
// nothing, if an earlier attempt committed. (Letting ExecTx retry inside a
// loop that rebuilds on races would multiply the two bounds.)
func (s *DynamoStore) rmw(ctx context.Context, scope ddb.Scope, build func(one ddb.Backoff) (*ddb.Tx, error), check func(error) error) error {
	token := ddb.Token(ctx, scope)
	var tx *ddb.Tx
	return ddb.RetryIf(ctx, s.o.backoff(), retryableRMW, func() error {
		if tx == nil {
			t, err := build(s.once())
			if err != nil {
				return err
			}
			tx = t.Token(token)
		}
		err := check(tx.Exec(ctx, s.c))
		if isRace(err) {
			tx = nil
		}
		return err
	})
}

// retryableRMW reports what a read-modify-write tries again: a race, and
// what a call with a ClientRequestToken may repeat.
func retryableRMW(err error) bool { return isRace(err) || ddb.RetryableWithToken(err) }

// CreateWardrobe implements WardrobeStore.CreateWardrobe, which documents its errors.
func (s *DynamoStore) CreateWardrobe(ctx context.Context, in NewWardrobe) (Wardrobe, error) {
	const op = "create wardrobe"
	w, k, err := s.o.newWardrobe(op, in)
	if err != nil {
		return Wardrobe{}, err
	}
	item, err := marshalWardrobe(k, w)
	if err != nil {
		return Wardrobe{}, wrap(op, err)
	}
	if err := live(ctx, op); err != nil {
		return Wardrobe{}, err
	}
	// PutNew's token tells its own earlier write, after a lost response,
	// from anyone else's; it retries within Options.Retry itself.
	err = ddb.PutNew(ctx, s.c, s.o.backoff(), s.o.scope(op, ""), s.t, item, prepNotExists)
	if ddb.IsConditionFailed(err) {
		return Wardrobe{}, wrap(op, errExists("wardrobe", w.ID))
	}
	if err != nil {
		return Wardrobe{}, wrap(op, err)
	}
	return w, nil
}

// GetWardrobe implements WardrobeStore.GetWardrobe, which documents its errors.
func (s *DynamoStore) GetWardrobe(ctx context.Context, wardrobeID string) (Wardrobe, error) {
	const op = "get wardrobe"
	if err := validateWardrobeID(op, wardrobeID); err != nil {
		return Wardrobe{}, err
	}
	if err := live(ctx, op); err != nil {
		return Wardrobe{}, err
	}
	k, err := wardrobeKey(wardrobeID)
	if err != nil {
		return Wardrobe{}, wrap(op, err)
	}
	item, err := s.get(ctx, s.o.backoff(), k)
	if err != nil || item == nil {
		return Wardrobe{}, wrap(op, orNotFound(err, errWardrobeNotFound(wardrobeID)))
	}
	w, err := unmarshalWardrobe(s.t, item, wardrobeID)
	return w, wrap(op, err)
}

// AddClothing implements ClothingStore.AddClothing, which documents its errors.
func (s *DynamoStore) AddClothing(ctx context.Context, wardrobeID string, in NewClothing) (Clothing, error) {
	const op = "add clothing"
	w, err := s.o.newClothing(op, wardrobeID, in)
	if err != nil {
		return Clothing{}, err
	}
	if err := s.create(ctx, op, w); err != nil {
		return Clothing{}, wrap(op, err)
	}
	return s.o.clothing(w), nil
}

// create puts a new clothing or template in one transaction with the checks
// that its wardrobe exists and that the clothes it names are ACTIVE.
func (s *DynamoStore) create(ctx context.Context, op string, w worn) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	item, err := marshalWorn(w)
	if err != nil {
		return err
	}
	wk, err := wardrobeKey(w.wardrobeID)
	if err != nil {
		return err
	}
	var tx ddb.Tx
	tx.CheckPrepared(labelWardrobe, s.t, wk.item(s.t), prepExists)
	refs := outfitRefs("", w.clothingIDs)
	if err := s.checkActive(&tx, w.wardrobeID, refs); err != nil {
		return err
	}
	tx.PutPrepared(labelItem, s.t, item, prepNotExists)
	err = ddb.ExecTx(ctx, s.c, s.o.backoff(), s.o.scope(op, w.wardrobeID), &tx)
	if _, ok := ddb.ConditionFailed(err, labelWardrobe); ok {
		return errWardrobeNotFound(w.wardrobeID)
	}
	if err := refsError(err, refs); err != nil {
		return err
	}
	if _, ok := ddb.ConditionFailed(err, labelItem); ok {
		return errExists(w.kind.noun(), w.id)
	}
	return err
}

// checkActive adds a check per reference that it is ACTIVE when the
// transaction commits.
func (s *DynamoStore) checkActive(tx *ddb.Tx, wardrobeID string, refs []wornRef) error {
	for _, r := range refs {
		k, err := wornKey(wardrobeID, r.kind, r.id)
		if err != nil {
			return err
		}
		tx.CheckPrepared(r.field, s.t, k.item(s.t), prepActive)
	}
	return nil
}

// refsError turns the failed reference checks of a cancelled transaction
// into the error MemoryStore gives for the same references: the first one
// that is missing or DELETED. It returns nil when no reference check
// failed.
func refsError(err error, refs []wornRef) error {
	failed := false
	for i := range refs {
		old, ok := ddb.ConditionFailed(err, refs[i].field)
		refs[i].found, refs[i].status = true, StatusActive
		if ok {
			failed = true
			refs[i].found, refs[i].status = old != nil, StatusDeleted
		}
	}
	if !failed {
		return nil
	}
	return checkWearable(refs)
}

// GetClothing implements ClothingStore.GetClothing, which documents its errors.
func (s *DynamoStore) GetClothing(ctx context.Context, wardrobeID, clothingID string) (Clothing, error) {
	w, err := s.getWorn(ctx, "get clothing", wardrobeID, KindClothing, clothingID)
	return s.o.clothing(w), err
}

// getWorn validates a reference and reads one clothing or template.
func (s *DynamoStore) getWorn(ctx context.Context, op, wardrobeID string, kind Kind, id string) (worn, error) {
	if err := validateRef(op, wardrobeID, kind.idField(), id); err != nil {
		return worn{}, err
	}
	if err := live(ctx, op); err != nil {
		return worn{}, err
	}
	w, err := s.readWorn(ctx, s.o.backoff(), wardrobeID, kind, id)
	return w, wrap(op, err)
}

func (s *DynamoStore) readWorn(ctx context.Context, b ddb.Backoff, wardrobeID string, kind Kind, id string) (worn, error) {
	k, err := wornKey(wardrobeID, kind, id)
	if err != nil {
		return worn{}, err
	}
	item, err := s.get(ctx, b, k)
	if err != nil || item == nil {
		return worn{}, orNotFound(err, errNotFound(kind.noun(), wardrobeID, id))
	}
	return unmarshalWorn(s.t, item, wardrobeID)
}

// ListClothes implements ClothingStore.ListClothes, which documents its errors.
func (s *DynamoStore) ListClothes(ctx context.Context, wardrobeID string, opts ListOptions) (ddbkit.Page[Clothing], error) {
	const op = "list clothes"
	ws, next, skipped, err := s.listWorn(ctx, op, wardrobeID, KindClothing, opts)
	if err != nil {
		return ddbkit.Page[Clothing]{}, err
	}
	out := make([]Clothing, len(ws))
	for i, w := range ws {
		out[i] = s.o.clothing(w)
	}
	return ddbkit.Page[Clothing]{Items: out, Next: next, Skipped: skipped}, nil
}

// listWorn reads one page of a status list, leaving out (and reporting)
// the items it cannot decode, and those of the other kind (which only
// damaged data has in a status list).
func (s *DynamoStore) listWorn(ctx context.Context, op, wardrobeID string, kind Kind, opts ListOptions) ([]worn, string, []error, error) {
	if err := validateList(op, wardrobeID, opts); err != nil {
		return nil, "", nil, err
	}
	q, err := statusListQuery(s.t, wardrobeID, kind, opts)
	if err != nil {
		return nil, "", nil, wrap(op, err)
	}
	items, next, err := s.query(ctx, q, opts.PageOptions)
	if err != nil {
		return nil, "", nil, wrap(op, err)
	}
	ws := make([]worn, 0, len(items))
	var skipped []error
	for _, it := range items {
		w, err := unmarshalWorn(s.t, it, wardrobeID)
		if err == nil && w.kind != kind {
			err = ddb.Corrupt(s.t, it, AttrStatusListPK, "a %s in the status list of %s", w.kind.noun(), kind.noun())
		}
		if err != nil {
			skipped = append(skipped, wrap(op, err))
			continue
		}
		ws = append(ws, w)
	}
	return ws, next, skipped, nil
}

// UpdateClothing implements ClothingStore.UpdateClothing, which documents its errors.
func (s *DynamoStore) UpdateClothing(ctx context.Context, wardrobeID, clothingID string, patch ClothingPatch) (Clothing, error) {
	const op = "update clothing"
	if err := validateClothingPatch(op, wardrobeID, clothingID, patch); err != nil {
		return Clothing{}, err
	}
	if err := live(ctx, op); err != nil {
		return Clothing{}, err
	}
	var args []types.AttributeValue
	name, img := 0, patchKeep
	if patch.Name != nil {
		name, args = 1, append(args, ddb.S(*patch.Name))
	}
	switch {
	case patch.ImageKey == nil:
	case *patch.ImageKey == "":
		img = patchRemove
	default:
		img, args = patchSet, append(args, ddb.S(*patch.ImageKey))
	}
	w, err := s.updateWorn(ctx, wardrobeID, KindClothing, clothingID, prepPatch[name][img], args...)
	return s.o.clothing(w), wrap(op, err)
}

// updateWorn applies upd to an existing clothing or template and returns
// it as the write left it (ALL_NEW). upd sets fixed values, so repeating
// it after a lost response changes nothing more.
func (s *DynamoStore) updateWorn(ctx context.Context, wardrobeID string, kind Kind, id string, p *ddb.Prepared, args ...types.AttributeValue) (worn, error) {
	k, err := wornKey(wardrobeID, kind, id)
	if err != nil {
		return worn{}, err
	}
	var out ddb.Item
	err = s.write(ctx, s.o.backoff(), func() (err error) {
		out, err = ddb.UpdateItemPrepared(ctx, s.c, s.t, k.item(s.t), types.ReturnValueAllNew, p, args...)
		return err
	})
	if ddb.IsConditionFailed(err) {
		return worn{}, errNotFound(kind.noun(), wardrobeID, id)
	}
	if err != nil {
		return worn{}, err
	}
	return unmarshalWorn(s.t, out, wardrobeID)
}

// DeleteClothing implements ClothingStore.DeleteClothing, which documents its errors.
func (s *DynamoStore) DeleteClothing(ctx context.Context, wardrobeID, clothingID string) (Clothing, error) {
	w, err := s.setStatus(ctx, "delete clothing", wardrobeID, KindClothing, clothingID, StatusDeleted)
	return s.o.clothing(w), err
}

// RestoreClothing implements ClothingStore.RestoreClothing, which documents its errors.
func (s *DynamoStore) RestoreClothing(ctx context.Context, wardrobeID, clothingID string) (Clothing, error) {
	w, err := s.setStatus(ctx, "restore clothing", wardrobeID, KindClothing, clothingID, StatusActive)
	return s.o.clothing(w), err
}

// setStatus deletes or restores a clothing or template: status, deletedAt
// and the status-list partition change in one conditional write. An item
// already in that status is returned unchanged, which is also how a retry
// after a lost response finds its own write.
func (s *DynamoStore) setStatus(ctx context.Context, op, wardrobeID string, kind Kind, id string, to Status) (worn, error) {
	if err := validateRef(op, wardrobeID, kind.idField(), id); err != nil {
		return worn{}, err
	}
	k, err := wornKey(wardrobeID, kind, id)
	if err != nil {
		return worn{}, wrap(op, err)
	}
	pk, err := statusListPK(wardrobeID, kind, to)
	if err != nil {
		return worn{}, wrap(op, err)
	}
	deletedAt := null
	if to == StatusDeleted {
		deletedAt = num(s.o.deletedAt(to).UnixMilli())
	}
	if err := live(ctx, op); err != nil {
		return worn{}, err
	}
	var out ddb.Item
	err = s.write(ctx, s.o.backoff(), func() (err error) {
		out, err = ddb.UpdateItemPrepared(ctx, s.c, s.t, k.item(s.t), types.ReturnValueAllNew, prepSetStatus, ddb.S(string(to)), deletedAt, ddb.S(pk), ddb.S(string(to)))
		return err
	})
	var failed *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &failed) && failed.Item == nil:
		return worn{}, wrap(op, errNotFound(kind.noun(), wardrobeID, id))
	case errors.As(err, &failed):
		out = failed.Item // already in that status: nothing to do
	case err != nil:
		return worn{}, wrap(op, err)
	}
	w, err := unmarshalWorn(s.t, out, wardrobeID)
	return w, wrap(op, err)
}

// AddTemplate implements TemplateStore.AddTemplate, which documents its errors.
func (s *DynamoStore) AddTemplate(ctx context.Context, wardrobeID string, in NewTemplate) (Template, error) {
	const op = "add template"
	w, err := s.o.newTemplate(op, wardrobeID, in)
	if err != nil {
		return Template{}, err
	}
	if err := s.create(ctx, op, w); err != nil {
		return Template{}, wrap(op, err)
	}
	return s.o.template(w), nil
}

// GetTemplate implements TemplateStore.GetTemplate, which documents its errors.
func (s *DynamoStore) GetTemplate(ctx context.Context, wardrobeID, templateID string) (Template, error) {
	w, err := s.getWorn(ctx, "get template", wardrobeID, KindTemplate, templateID)
	return s.o.template(w), err
}

// ListTemplates implements TemplateStore.ListTemplates, which documents its errors.
func (s *DynamoStore) ListTemplates(ctx context.Context, wardrobeID string, opts ListOptions) (ddbkit.Page[TemplateSummary], error) {
	const op = "list templates"
	ws, next, skipped, err := s.listWorn(ctx, op, wardrobeID, KindTemplate, opts)
	if err != nil {
		return ddbkit.Page[TemplateSummary]{}, err
	}
	lists := make([][]string, len(ws))
	for i, w := range ws {
		lists[i] = w.clothingIDs
	}
	found, bad, err := s.thumbnails(ctx, wardrobeID, thumbIDs(lists, ThumbnailCount))
	if err != nil {
		return ddbkit.Page[TemplateSummary]{}, wrap(op, err)
	}
	for _, e := range bad {
		skipped = append(skipped, wrap(op, e))
	}
	out := make([]TemplateSummary, len(ws))
	for i, w := range ws {
		out[i].Template = s.o.template(w)
		out[i].Thumbnails, out[i].More = thumbnails(w.clothingIDs, ThumbnailCount, found)
	}
	return ddbkit.Page[TemplateSummary]{Items: out, Next: next, Skipped: skipped}, nil
}

// thumbnails reads the clothes ids name with BatchGetItem, BatchGetChunk
// keys a call, eventually consistent and projected to prepThumb: the
// listings that show thumbnails read a GSI, which is eventually consistent
// already, and a thumbnail needs no more. It returns returns those found by ID, and an error for
// each that could not be decoded (it then shows as missing).
func (s *DynamoStore) thumbnails(ctx context.Context, wardrobeID string, ids []string) (map[string]Thumbnail, []error, error) {
	if len(ids) == 0 {
		return nil, nil, nil
	}
	ks := make([]ddb.Item, 0, len(ids))
	seen := make(map[string]bool, len(ids)) // another writer's outfit may repeat a clothing
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		k, err := wornKey(wardrobeID, KindClothing, id)
		if err != nil {
			return nil, nil, err
		}
		ks = append(ks, k.item(s.t))
	}
	// BatchGet's drain is the one retry loop of the read.
	items, err := ddb.BatchGet(ctx, s.c, s.t, ks, ddb.BatchGetOptions{ChunkSize: BatchGetChunk, Backoff: s.o.backoff(), Projection: prepThumb})
	if err != nil {
		return nil, nil, err
	}
	found := make(map[string]Thumbnail, len(ids))
	var bad []error
	for _, it := range items {
		w, err := unmarshalWorn(s.t, it, wardrobeID)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		found[w.id] = w.thumbnail()
	}
	return found, bad, nil
}

// UpdateTemplate implements TemplateStore.UpdateTemplate, which documents its errors.
//
// A new name alone is one UpdateItem, which returns the template as it
// left it. A new list must name ACTIVE clothes when the update commits,
// which takes a transaction, and a transaction returns nothing: so it
// reads the template first, writes on condition that every attribute the
// result shows and the patch does not set is still as read, and returns
// what it read with the patch applied, which is then exactly what it
// committed. A concurrent change sends it back to read again.
func (s *DynamoStore) UpdateTemplate(ctx context.Context, wardrobeID, templateID string, patch TemplatePatch) (Template, error) {
	const op = "update template"
	if err := validateTemplatePatch(op, wardrobeID, templateID, patch); err != nil {
		return Template{}, err
	}
	if err := live(ctx, op); err != nil {
		return Template{}, err
	}
	if patch.ClothingIDs == nil {
		w, err := s.updateWorn(ctx, wardrobeID, KindTemplate, templateID, prepPatch[1][patchKeep], ddb.S(*patch.Name))
		return s.o.template(w), wrap(op, err)
	}
	k, err := wornKey(wardrobeID, KindTemplate, templateID)
	if err != nil {
		return Template{}, wrap(op, err)
	}
	var (
		w, built worn
		refs     = outfitRefs("", patch.ClothingIDs)
	)
	err = s.rmw(ctx, s.o.scope(op, wardrobeID), func(one ddb.Backoff) (*ddb.Tx, error) {
		var err error
		if built, err = s.readWorn(ctx, one, wardrobeID, KindTemplate, templateID); err != nil {
			return nil, err
		}
		var tx ddb.Tx
		shape, args := ddb.UnchangedShape(built.raw, templateResultAttrs(patch), make([]types.AttributeValue, 0, 8))
		renamed := 0
		if patch.Name != nil {
			renamed, args = 1, append(args, ddb.S(*patch.Name))
		}
		args = append(args, strs(patch.ClothingIDs))
		tx.UpdatePrepared(labelItem, s.t, k.item(s.t), prepTemplateClothes[renamed]()[shape], args...)
		return &tx, s.checkActive(&tx, wardrobeID, refs)
	}, func(err error) error {
		if old, ok := ddb.ConditionFailed(err, labelItem); ok {
			if old == nil {
				return errNotFound("template", wardrobeID, templateID)
			}
			return errRaced("template " + templateID)
		}
		if err := refsError(err, refs); err != nil {
			return err
		}
		if err == nil {
			w = built // what this transaction committed
		}
		return err
	})
	if err != nil {
		return Template{}, wrap(op, err)
	}
	return s.o.template(w.patched(patch)), nil
}

// templateResultAttrs are the stored attributes of a template that
// UpdateTemplate returns but patch does not set.
func templateResultAttrs(patch TemplatePatch) []string {
	attrs := []string{attrStatus, attrWearCount, attrLastWornAt, attrCreatedAt, attrDeletedAt}
	if patch.Name == nil {
		attrs = append(attrs, attrName)
	}
	if patch.ClothingIDs == nil {
		attrs = append(attrs, attrClothingIDs)
	}
	return attrs
}

// DeleteTemplate implements TemplateStore.DeleteTemplate, which documents its errors.
func (s *DynamoStore) DeleteTemplate(ctx context.Context, wardrobeID, templateID string) (Template, error) {
	w, err := s.setStatus(ctx, "delete template", wardrobeID, KindTemplate, templateID, StatusDeleted)
	return s.o.template(w), err
}

// RestoreTemplate implements TemplateStore.RestoreTemplate, which documents its errors.
func (s *DynamoStore) RestoreTemplate(ctx context.Context, wardrobeID, templateID string) (Template, error) {
	w, err := s.setStatus(ctx, "restore template", wardrobeID, KindTemplate, templateID, StatusActive)
	return s.o.template(w), err
}

// AddHistory implements HistoryStore.AddHistory, which documents its errors.
//
// The padded WEAR# key needs the new count, so it reads the wardrobe, the
// template and the clothes with one BatchGetItem, then writes everything
// in one transaction conditional on what it read, and starts over when a
// concurrent write got in between: one of this package's, or one of
// another writer that changed wearCount or lastWornAt.
func (s *DynamoStore) AddHistory(ctx context.Context, wardrobeID string, in NewHistory) (History, error) {
	const op = "add history"
	h, hk, err := s.o.newHistory(op, wardrobeID, in)
	if err != nil {
		return History{}, err
	}
	hitem, err := marshalHistory(hk, h)
	if err != nil {
		return History{}, wrap(op, err)
	}
	if err := live(ctx, op); err != nil {
		return History{}, err
	}
	wk, err := wardrobeKey(wardrobeID)
	if err != nil {
		return History{}, wrap(op, err)
	}
	err = s.rmw(ctx, s.o.scope(op, wardrobeID), func(one ddb.Backoff) (*ddb.Tx, error) {
		refs := outfitRefs(h.TemplateID, h.ClothingIDs)
		found, err := s.readRefs(ctx, one, wardrobeID, wk, refs, "")
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, errWardrobeNotFound(wardrobeID)
		}
		if err := checkWearable(refs); err != nil {
			return nil, err
		}
		var tx ddb.Tx
		tx.PutPrepared(labelItem, s.t, hitem, prepNotExists)
		for _, r := range refs {
			if err := s.wear(&tx, wardrobeID, r, h.Date, +1, s.o.worn(r.st, h.Date)); err != nil {
				return nil, err
			}
		}
		return &tx, nil
	}, func(err error) error {
		if _, ok := ddb.ConditionFailed(err, labelItem); ok {
			return errExists("history", h.ID)
		}
		return raced(err, "the outfit's statistics")
	})
	if err != nil {
		return History{}, wrap(op, err)
	}
	return h, nil
}

// readRefs reads, with one BatchGetItem, the item at first (unless it is
// the zero key), the referenced items and, when d is set, their counters
// of day d, and fills refs in. It reports whether first exists. The read
// is strongly consistent: the writes that follow are conditional on it,
// and a stale read (of this caller's own wear a moment ago) would cost a
// cancelled transaction and a second read, more than the read it saves.
func (s *DynamoStore) readRefs(ctx context.Context, b ddb.Backoff, wardrobeID string, first itemKey, refs []wornRef, d Date) (bool, error) {
	ks := make([]ddb.Item, 0, 1+2*len(refs))
	if first != (itemKey{}) {
		ks = append(ks, first.item(s.t))
	}
	off := len(ks)
	for _, r := range refs {
		k, err := wornKey(wardrobeID, r.kind, r.id)
		if err != nil {
			return false, err
		}
		ks = append(ks, k.item(s.t))
	}
	if d != "" {
		for _, r := range refs {
			k, err := counterKey(wardrobeID, r.kind, r.id, d)
			if err != nil {
				return false, err
			}
			ks = append(ks, k.item(s.t))
		}
	}
	items, err := s.batchGet(ctx, b, ks)
	if err != nil {
		return false, err
	}
	for i := range refs {
		refs[i].found, refs[i].raw, refs[i].dayCount, refs[i].dayRaw = false, nil, 0, nil
		if it := items[off+i]; it != nil {
			w, err := unmarshalWorn(s.t, it, wardrobeID)
			if err != nil {
				return false, err
			}
			refs[i].found, refs[i].status, refs[i].st, refs[i].raw = true, w.status, w.st, it
		}
		if d != "" {
			if it := items[off+len(refs)+i]; it != nil {
				c, err := unmarshalCounter(s.t, it)
				if err != nil {
					return false, err
				}
				refs[i].dayCount, refs[i].dayRaw = c.Count, it
			}
		}
	}
	return off > 0 && items[0] != nil, nil
}

// wear adds to tx the change one history makes to r: delta (+1 or -1) on
// the counter of day d, and r's statistics set to st, with their index
// keys, on condition that they are still as read. A wear added to a
// counter creates it; the last wear taken from it deletes it. A new wear
// needs r ACTIVE at commit.
func (s *DynamoStore) wear(tx *ddb.Tx, wardrobeID string, r wornRef, d Date, delta int, st stats) error {
	ck, err := counterKey(wardrobeID, r.kind, r.id, d)
	if err != nil {
		return err
	}
	label := "counter of " + r.field
	var args [8]types.AttributeValue // the most any expression here takes
	switch {
	case delta > 0:
		tx.UpdatePrepared(label, s.t, ck.item(s.t), prepCounterAdd, ddb.S(string(d)))
	case r.dayRaw == nil:
		// No counter to take the wear from: damaged data.
	case r.dayCount <= 1:
		shape, a := ddb.UnchangedShape(r.dayRaw, counterAttrs, args[:0])
		tx.DeletePrepared(label, s.t, ck.item(s.t), prepCounterDelete[shape], a...)
	default:
		shape, a := ddb.UnchangedShape(r.dayRaw, counterAttrs, args[:0])
		tx.UpdatePrepared(label, s.t, ck.item(s.t), prepCounterSet[shape], append(a, num(int64(r.dayCount-1)))...)
	}
	if !r.found {
		return nil // damaged data: nothing to take the wear from
	}
	k, err := wornKey(wardrobeID, r.kind, r.id)
	if err != nil {
		return err
	}
	wear, lastWorn, err := statsKeys(r.kind, r.id, st)
	if err != nil {
		return err
	}
	shape, a := ddb.UnchangedShape(r.raw, statsAttrs, args[:0])
	a = append(a, num(int64(st.count)), num(st.lastMs), num(st.version), ddb.S(wear), ddb.S(lastWorn))
	p := prepStats[shape]
	if delta > 0 {
		p = prepWornStats[shape]
	}
	tx.UpdatePrepared(r.field, s.t, k.item(s.t), p, a...)
	return nil
}

// counterAttrs are the attributes a change of a daily counter conditions
// on.
var counterAttrs = []string{attrCount}

// statsUpdate sets the statistics of an item to st, with their index keys.
// Its callers condition it on the statistics they read (statsAttrs).
func statsUpdate(kind Kind, id string, st stats) (expression.UpdateBuilder, error) {
	wear, lastWorn, err := statsKeys(kind, id, st)
	if err != nil {
		return expression.UpdateBuilder{}, err
	}
	return expression.Set(nWearCount, expression.Value(st.count)).
		Set(nLastWornAt, expression.Value(st.lastMs)).
		Set(nStatsVersion, expression.Value(st.version)).
		Set(nWearCountSK, expression.Value(wear)).
		Set(nLastWornSK, expression.Value(lastWorn)), nil
}

// GetHistory implements HistoryStore.GetHistory, which documents its errors.
func (s *DynamoStore) GetHistory(ctx context.Context, wardrobeID, historyID string) (HistoryDetail, error) {
	const op = "get history"
	h, err := s.getHistory(ctx, op, wardrobeID, historyID)
	if err != nil {
		return HistoryDetail{}, err
	}
	found, bad, err := s.thumbnails(ctx, wardrobeID, h.ClothingIDs)
	if err == nil && len(bad) > 0 {
		err = bad[0]
	}
	if err != nil {
		return HistoryDetail{}, wrap(op, err)
	}
	d := HistoryDetail{History: h}
	d.Clothes, _ = thumbnails(h.ClothingIDs, len(h.ClothingIDs), found)
	return d, nil
}

func (s *DynamoStore) getHistory(ctx context.Context, op, wardrobeID, historyID string) (History, error) {
	if err := validateRef(op, wardrobeID, "HistoryID", historyID); err != nil {
		return History{}, err
	}
	if err := live(ctx, op); err != nil {
		return History{}, err
	}
	h, err := s.readHistory(ctx, s.o.backoff(), wardrobeID, historyID)
	return h, wrap(op, err)
}

func (s *DynamoStore) readHistory(ctx context.Context, b ddb.Backoff, wardrobeID, historyID string) (History, error) {
	k, err := historyKey(wardrobeID, historyID)
	if err != nil {
		return History{}, err
	}
	item, err := s.get(ctx, b, k)
	if err != nil || item == nil {
		return History{}, orNotFound(err, errNotFound("history", wardrobeID, historyID))
	}
	return unmarshalHistory(s.t, item, wardrobeID)
}

// ListHistory implements HistoryStore.ListHistory, which documents its errors.
func (s *DynamoStore) ListHistory(ctx context.Context, wardrobeID string, hq HistoryQuery) (ddbkit.Page[HistorySummary], error) {
	const op = "list history"
	if err := validateHistoryQuery(op, wardrobeID, hq); err != nil {
		return ddbkit.Page[HistorySummary]{}, err
	}
	q, err := historyQuery(s.t, wardrobeID, hq)
	if err != nil {
		return ddbkit.Page[HistorySummary]{}, wrap(op, err)
	}
	items, next, err := s.query(ctx, q, hq.PageOptions)
	if err != nil {
		return ddbkit.Page[HistorySummary]{}, wrap(op, err)
	}
	hs := make([]History, 0, len(items))
	lists := make([][]string, 0, len(items))
	var skipped []error
	for _, it := range items {
		h, err := unmarshalHistory(s.t, it, wardrobeID)
		if err != nil {
			skipped = append(skipped, wrap(op, err))
			continue
		}
		hs = append(hs, h)
		lists = append(lists, h.ClothingIDs)
	}
	found, bad, err := s.thumbnails(ctx, wardrobeID, thumbIDs(lists, ThumbnailCount))
	if err != nil {
		return ddbkit.Page[HistorySummary]{}, wrap(op, err)
	}
	for _, e := range bad {
		skipped = append(skipped, wrap(op, e))
	}
	out := make([]HistorySummary, len(hs))
	for i, h := range hs {
		out[i].History = h
		out[i].Thumbnails, out[i].More = thumbnails(h.ClothingIDs, ThumbnailCount, found)
	}
	return ddbkit.Page[HistorySummary]{Items: out, Next: next, Skipped: skipped}, nil
}

// DeleteHistory implements HistoryStore.DeleteHistory, which documents its errors.
//
// It reads the history, then the items it wore and their counters of its
// day with one BatchGetItem, looks up the next latest day of each item
// whose latest wear it takes away (one Query each), and writes everything
// in one transaction conditional on what it read.
func (s *DynamoStore) DeleteHistory(ctx context.Context, wardrobeID, historyID string) error {
	const op = "delete history"
	if err := validateRef(op, wardrobeID, "HistoryID", historyID); err != nil {
		return err
	}
	if err := live(ctx, op); err != nil {
		return err
	}
	hk, err := historyKey(wardrobeID, historyID)
	if err != nil {
		return wrap(op, err)
	}
	return wrap(op, s.rmw(ctx, s.o.scope(op, wardrobeID), func(one ddb.Backoff) (*ddb.Tx, error) {
		h, err := s.readHistory(ctx, one, wardrobeID, historyID)
		if err != nil {
			return nil, err
		}
		refs := outfitRefs(h.TemplateID, h.ClothingIDs)
		// The history was just read; its transaction's delete is
		// conditional on it, so it is not read again here.
		if _, err := s.readRefs(ctx, one, wardrobeID, itemKey{}, refs, h.Date); err != nil {
			return nil, err
		}
		var tx ddb.Tx
		tx.DeletePrepared(labelItem, s.t, hk.item(s.t), prepExists)
		for _, r := range refs {
			st, again := s.o.unworn(r.st, h.Date, r.dayCount)
			if again && r.found {
				if st.lastMs, err = s.latestBefore(ctx, one, wardrobeID, r, h.Date); err != nil {
					return nil, err
				}
			}
			if err := s.wear(&tx, wardrobeID, r, h.Date, -1, st); err != nil {
				return nil, err
			}
		}
		return &tx, nil
	}, func(err error) error {
		if _, ok := ddb.ConditionFailed(err, labelItem); ok {
			return errNotFound("history", wardrobeID, historyID)
		}
		return raced(err, "the outfit's statistics")
	}))
}

// latestBefore returns the midnight, in Unix ms, of the latest day before d
// with a wear of r, or 0 if there is none: a Query, newest first, on one
// item's counters, as the seed's AP-17 says. Counters at 0 count for
// nothing, as in RecalculateStats; DynamoDB's filter leaves them out, and
// each Query evaluates at most Options.FilterBudget of them, so a page
// costs the same however many there are; the walk goes on, page by page,
// until it finds a wear (only another writer leaves a counter at 0). A
// counter that cannot be decoded counts for nothing either.
func (s *DynamoStore) latestBefore(ctx context.Context, b ddb.Backoff, wardrobeID string, r wornRef, d Date) (int64, error) {
	q, err := latestQuery(s.t, wardrobeID, r.kind, r.id, d, s.o.FilterBudget)
	if err != nil {
		return 0, err
	}
	for cursor := ""; ; {
		items, next, err := s.latestPage(ctx, b, q, cursor)
		if err != nil {
			return 0, err
		}
		for _, it := range items {
			if c, err := unmarshalCounter(s.t, it); err == nil && c.Count > 0 {
				return s.o.dayMs(c.Date), nil
			}
		}
		if next == "" {
			return 0, nil
		}
		cursor = next
	}
}

// latestPage is one page of latestBefore's walk: at most one counter that
// holds a wear, having evaluated at most q's budget of counters.
func (s *DynamoStore) latestPage(ctx context.Context, b ddb.Backoff, q ddb.KeyQuery, cursor string) ([]ddb.Item, string, error) {
	return ddb.QueryPage(ctx, s.c, b, q, 1, cursor, latestFilter)
}

// ListDailyWear implements StatsStore.ListDailyWear, which documents its errors.
func (s *DynamoStore) ListDailyWear(ctx context.Context, wardrobeID string, kind Kind, id string, dq DailyQuery) (ddbkit.Page[DailyWear], error) {
	const op = "list daily wear"
	if err := validateDailyQuery(op, wardrobeID, kind, id, dq); err != nil {
		return ddbkit.Page[DailyWear]{}, err
	}
	q, err := dailyQuery(s.t, wardrobeID, kind, id, dq)
	if err != nil {
		return ddbkit.Page[DailyWear]{}, wrap(op, err)
	}
	// A listing for display, eventually consistent like the others (the
	// cursor does not depend on it); RecalculateStats and AP-17, which
	// write from the counters, read them strongly.
	q.ConsistentRead = false
	items, next, err := s.query(ctx, q, dq.PageOptions)
	if err != nil {
		return ddbkit.Page[DailyWear]{}, wrap(op, err)
	}
	out := make([]DailyWear, 0, len(items))
	var skipped []error
	for _, it := range items {
		c, err := unmarshalCounter(s.t, it)
		if err != nil {
			skipped = append(skipped, wrap(op, err))
			continue
		}
		out = append(out, c)
	}
	return ddbkit.Page[DailyWear]{Items: out, Next: next, Skipped: skipped}, nil
}

// RecalculateStats implements StatsStore.RecalculateStats, which documents its errors.
//
// It lists the wardrobe's clothes and templates from the base table, reads
// each one's counters, and repairs a drifted item with an update
// conditional on the statistics it read, reading again after a race.
func (s *DynamoStore) RecalculateStats(ctx context.Context, wardrobeID string) (StatsReport, error) {
	const op = "recalculate stats"
	if err := validateWardrobeID(op, wardrobeID); err != nil {
		return StatsReport{}, err
	}
	if err := live(ctx, op); err != nil {
		return StatsReport{}, err
	}
	wk, err := wardrobeKey(wardrobeID)
	if err != nil {
		return StatsReport{}, wrap(op, err)
	}
	if item, err := s.get(ctx, s.o.backoff(), wk); err != nil || item == nil {
		return StatsReport{}, wrap(op, orNotFound(err, errWardrobeNotFound(wardrobeID)))
	}
	var rep StatsReport
	for _, kind := range []Kind{KindClothing, KindTemplate} {
		pk, err := wardrobePK(wardrobeID, keys.Lit(string(kind)))
		if err != nil {
			return StatsReport{}, wrap(op, err)
		}
		for it, err := range s.pages(ctx, s.o.backoff(), baseQuery(s.t, pk), ddbkit.MaxPageLimit, nil) {
			if err != nil {
				return StatsReport{}, wrap(op, err)
			}
			w, err := unmarshalWorn(s.t, it, wardrobeID)
			if err != nil {
				rep.Skipped = append(rep.Skipped, wrap(op, err))
				continue
			}
			d, drifted, err := s.recalc(ctx, w)
			var corrupt *ddbkit.CorruptItemError
			switch {
			case errors.As(err, &corrupt):
				rep.Skipped = append(rep.Skipped, wrap(op, err))
				continue
			case err != nil:
				return StatsReport{}, wrap(op, err)
			}
			rep.Checked++
			if drifted {
				rep.Drifts = append(rep.Drifts, d)
			}
		}
	}
	return rep, nil
}

// recalc repairs one item's statistics from its counters.
func (s *DynamoStore) recalc(ctx context.Context, w worn) (Drift, bool, error) {
	var (
		d       Drift
		drifted bool
		reread  bool
	)
	// One retry loop, as rmw's: each attempt makes one call per step
	// (reads with a single attempt, or the update); a race reads again,
	// and a throttled, failed or lost update is sent again as it was,
	// which recognises its own earlier write by its statsVersion.
	var write func() error
	err := ddb.RetryIf(ctx, s.o.backoff(), retryableRMW, func() error {
		if write == nil {
			if reread {
				var err error
				if w, err = s.readWorn(ctx, s.once(), w.wardrobeID, w.kind, w.id); err != nil {
					return err
				}
			}
			reread = true
			counters, err := s.allCounters(ctx, s.once(), w)
			if err != nil {
				return err
			}
			var st stats
			if st, d, drifted = s.o.recalculated(w, counters); !drifted {
				return nil
			}
			k, err := w.key()
			if err != nil {
				return err
			}
			upd, err := statsUpdate(w.kind, w.id, st)
			if err != nil {
				return err
			}
			cond := ddb.Unchanged(s.t, w.raw, statsAttrs...)
			write = func() error {
				_, err := s.update(ctx, k, upd, cond)
				var failed *types.ConditionalCheckFailedException
				switch {
				case errors.As(err, &failed) && wroteStats(failed.Item, st):
					return nil // a repeat after a lost response found its own write
				case errors.As(err, &failed):
					return errRaced(w.kind.noun() + " " + w.id)
				}
				return err
			}
		}
		err := write()
		if isRace(err) {
			write = nil
		}
		return err
	})
	return d, drifted, err
}

// wroteStats reports whether item holds the statistics st that this
// package wrote: its statsVersion is st's, which only this write sets.
func wroteStats(item ddb.Item, st stats) bool {
	var it wornRead
	if item == nil || attributevalue.UnmarshalMap(item, &it) != nil {
		return false
	}
	return int64(it.StatsVersion) == st.version && int(it.WearCount) == st.count && it.LastWornAt.ms == st.lastMs
}

// allCounters reads every daily counter of w, each Query within b.
func (s *DynamoStore) allCounters(ctx context.Context, b ddb.Backoff, w worn) ([]DailyWear, error) {
	q, err := dailyQuery(s.t, w.wardrobeID, w.kind, w.id, DailyQuery{})
	if err != nil {
		return nil, err
	}
	var out []DailyWear
	for it, err := range s.pages(ctx, b, q, ddbkit.MaxPageLimit, nil) {
		if err != nil {
			return nil, err
		}
		c, err := unmarshalCounter(s.t, it)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// pages walks every item of q that filter keeps, with one Query per limit
// items (for a filtered walk, at least one per q's budget of items
// evaluated), each Query retried within b.
func (s *DynamoStore) pages(ctx context.Context, b ddb.Backoff, q ddb.KeyQuery, limit int, filter *ddb.Filter) iter.Seq2[ddb.Item, error] {
	return ddbkit.All(func(cursor string) (ddbkit.Page[ddb.Item], error) {
		items, next, err := ddb.QueryPage(ctx, s.c, b, q, limit, cursor, filter)
		return ddbkit.Page[ddb.Item]{Items: items, Next: next}, err
	})
}

// latestFilter keeps the daily counters that hold a wear (latestQuery).
var latestFilter = &ddb.Filter{
	Shape: "wardrobe: count > 0",
	Cond:  func(first int) expression.ConditionBuilder { return expression.GreaterThan(nCount, ddb.Param(first)) },
	Args:  []types.AttributeValue{num(0)},
}

// query runs one page of a listing.
func (s *DynamoStore) query(ctx context.Context, q ddb.KeyQuery, opts ddbkit.PageOptions) ([]ddb.Item, string, error) {
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return nil, "", err
	}
	if _, err := ddb.DecodeCursor(q, opts.Cursor); err != nil {
		return nil, "", err
	}
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	// QueryPage retries each Query within Options.Retry itself.
	return ddb.QueryPage(ctx, s.c, s.o.backoff(), q, limit, opts.Cursor, nil)
}

// batchGet reads the items at ks, nil where there is none, strongly
// consistent. ddb.BatchGet's drain retries UnprocessedKeys and calls that
// fail whole within b: its one retry loop.
func (s *DynamoStore) batchGet(ctx context.Context, b ddb.Backoff, ks []ddb.Item) ([]ddb.Item, error) {
	return ddb.BatchGet(ctx, s.c, s.t, ks, ddb.BatchGetOptions{ChunkSize: BatchGetChunk, ConsistentRead: true, Backoff: b})
}

// get reads the item at k, or nil when there is none, retrying throttling
// and 5xx within b.
func (s *DynamoStore) get(ctx context.Context, b ddb.Backoff, k itemKey) (item ddb.Item, err error) {
	err = s.write(ctx, b, func() error {
		item, err = ddb.GetItem(ctx, s.c, s.t, k.item(s.t))
		return err
	})
	return item, err
}

// update applies upd to the item at k if cond holds, and returns the item
// as it is afterwards. A failed condition returns the item as it was in the
// *types.ConditionalCheckFailedException.
func (s *DynamoStore) update(ctx context.Context, k itemKey, upd expression.UpdateBuilder, cond expression.ConditionBuilder) (ddb.Item, error) {
	return ddb.UpdateItem(ctx, s.c, s.t, k.item(s.t), upd, cond, types.ReturnValueAllNew)
}

func orNotFound(err, notFound error) error {
	if err != nil {
		return err
	}
	return notFound
}

// The marshal functions below give each item exactly as this store
// writes it; MemoryStore.Export gives its items through them too.

func marshalWardrobe(k itemKey, w Wardrobe) (ddb.Item, error) {
	return ddb.Item{AttrPK: ddb.S(k.pk), AttrSK: ddb.S(k.sk), attrWardrobeID: ddb.S(w.ID), attrName: ddb.S(w.Name),
		attrCreatedAt: num(w.CreatedAt.UnixMilli())}, nil
}

func marshalWorn(w worn) (ddb.Item, error) {
	k, err := w.key()
	if err != nil {
		return nil, err
	}
	ik, err := w.indexKeys()
	if err != nil {
		return nil, err
	}
	it := make(ddb.Item, 16)
	it[AttrPK], it[AttrSK] = ddb.S(k.pk), ddb.S(k.sk)
	if w.kind == KindTemplate {
		it[attrTemplateID] = ddb.S(w.id)
	} else {
		it[attrClothingID] = ddb.S(w.id)
	}
	it[attrName], it[attrStatus] = ddb.S(w.name), ddb.S(string(w.status))
	if w.imageKey != "" {
		it[attrImageKey] = ddb.S(w.imageKey)
	}
	if w.clothingIDs != nil { // as attributevalue's omitempty: an empty list is kept
		it[attrClothingIDs] = strs(w.clothingIDs)
	}
	it[attrWearCount], it[attrLastWornAt], it[attrStatsVersion] = num(int64(w.st.count)), num(w.st.lastMs), num(w.st.version)
	it[attrCreatedAt], it[attrDeletedAt] = num(w.createdAt.UnixMilli()), newNull()
	if !w.deletedAt.IsZero() {
		it[attrDeletedAt] = num(w.deletedAt.UnixMilli())
	}
	it[AttrStatusListPK], it[AttrCreatedAtSK] = ddb.S(ik.statusList), ddb.S(ik.created)
	it[AttrWearCountSK], it[AttrLastWornAtSK] = ddb.S(ik.wear), ddb.S(ik.lastWorn)
	return it, nil
}

func marshalHistory(k itemKey, h History) (ddb.Item, error) {
	dsk, err := historyDateSK(h.Date, h.ID)
	if err != nil {
		return nil, err
	}
	tid, ids := newNull(), newNull()
	if h.TemplateID != "" {
		tid = ddb.S(h.TemplateID)
	}
	if h.ClothingIDs != nil {
		ids = strs(h.ClothingIDs)
	}
	return ddb.Item{AttrPK: ddb.S(k.pk), AttrSK: ddb.S(k.sk), attrHistoryID: ddb.S(h.ID), attrCreatedAt: num(h.CreatedAt.UnixMilli()),
		attrDate: ddb.S(string(h.Date)), attrTemplateID: tid, attrClothingIDs: ids, AttrDateSK: ddb.S(dsk)}, nil
}

// marshalCounter is a daily counter as wear's updates leave it: ADD count
// creates it with its date, SET count lowers it.
func marshalCounter(k itemKey, c DailyWear) (ddb.Item, error) {
	return ddb.Item{AttrPK: ddb.S(k.pk), AttrSK: ddb.S(k.sk), attrCount: num(int64(c.Count)), attrDate: ddb.S(string(c.Date))}, nil
}

// newNull is a NULL of its own: marshalled items go to callers (Export).
func newNull() types.AttributeValue { return &types.AttributeValueMemberNULL{Value: true} }

// strs is a List of Strings, as the seed's app writes arrays.
func strs(ss []string) *types.AttributeValueMemberL {
	l := make([]types.AttributeValue, len(ss))
	for i, v := range ss {
		l[i] = ddb.S(v)
	}
	return &types.AttributeValueMemberL{Value: l}
}
