package wardrobe

import (
	"context"
	"errors"
	"iter"
	"strings"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
	"github.com/ddbkit/ddbkit/keys"
)

// The two stores share every operation (this file) and differ only in
// the item backend they hold (package internal/backend): DynamoDB calls
// for DynamoStore, ordered in-memory tables with the same conditions for
// MemoryStore. Writing each operation once, over primitives whose
// semantics are DynamoDB's, is what keeps the memory store's results,
// errors, order, page boundaries and stored items those of the DynamoDB
// store.

// core is the Store over a backend. DynamoStore and MemoryStore embed it.
type core struct {
	o   Options
	t   ddb.Table
	b   backend.Backend
	tel *obs.Telemetry
}

// start starts the span of method on the store's table (package obs):
// every exported method of core does, first.
func (c *core) start(ctx context.Context, method string) (context.Context, *obs.Op) {
	return c.tel.Start(ctx, method, c.o.TableName)
}

// thumbRead is how thumbnails are read (see the package doc's
// "Consistency and capacity"): eventually consistent, since the listings
// that show them read a GSI, eventually consistent already; projected on
// the key, which names the clothing, and what a Thumbnail shows; and at
// most 80 keys a BatchGetItem call, the seed's unit.
var thumbRead = backend.ReadOptions{
	Eventual:  true,
	Attrs:     []string{AttrPK, AttrSK, attrName, attrImageKey, attrStatus},
	ChunkSize: 80,
}

// Transaction item labels, by which failed conditions are told apart.
// References are labelled by the input field that names them.
const (
	labelWardrobe = "wardrobe"
	labelItem     = "item"
)

// statsAttrs are the attributes a statistics write reads and conditions
// on: the two the seed's app maintains, and statsVersion, which only this
// package does.
var statsAttrs = []string{attrWearCount, attrLastWornAt, attrStatsVersion}

// counterAttrs are the attributes a change of a daily counter conditions
// on.
var counterAttrs = []string{attrCount}

// live is the check the operations make before any I/O, at the same point
// in both stores: a cancelled or expired context fails it, and nothing is
// read or written.
func live(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return wrap(op, err)
	}
	return nil
}

// rmw runs a read-modify-write (backend.RMW) of op in the wardrobe's
// partition, within Options.Retry: one retry budget for the whole run,
// one token for every build.
func (c *core) rmw(ctx context.Context, op, wardrobeID string, fn func(r *backend.Run) error) error {
	return backend.RMW(ctx, c.o.backoff(), c.o.scope(op, wardrobeID), fn)
}

// raced turns a failed condition of a transaction into a
// *backend.ChangedError: something the condition relied on was changed
// by a concurrent write, and the read-modify-write reads again.
func raced(err error, what string) error {
	if _, ok := backend.Failed(err, ""); ok {
		return backend.Changed("%s changed while being updated", what)
	}
	return err
}

func (k itemKey) bk() backend.Key { return backend.Key{PK: k.pk, SK: k.sk} }

// get reads the item at k, or nil when there is none.
func (c *core) get(ctx context.Context, k itemKey) (ddb.Item, error) {
	return c.b.Get(ctx, c.t, k.bk())
}

// queryPage reads and decodes one page of a listing of op, each value
// made a U by conv (see backend.QueryPageFunc; d.Clone returns the
// decoded values themselves), leaving out (and reporting in Skipped) the
// items d cannot decode.
func queryPage[T, U any](ctx context.Context, c *core, op string, q ddb.KeyQuery, opts ddbkit.PageOptions, d *backend.Decoder[T], conv func(T) U) (ddbkit.Page[U], error) {
	wrapOp := func(err error) error { return wrap(op, err) }
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[U]{}, wrapOp(err)
	}
	return backend.QueryPageFunc(ctx, c.b, q, limit, opts.Cursor, backend.Filter{}, d, conv, wrapOp)
}

// pages walks every item of q that f keeps, with one Query per limit
// items (for a filtered walk, at least one per q's budget of items
// evaluated).
func (c *core) pages(ctx context.Context, q ddb.KeyQuery, limit int, f backend.Filter) iter.Seq2[ddb.Item, error] {
	return ddbkit.All(func(cursor string) (ddbkit.Page[ddb.Item], error) {
		items, next, err := c.b.Query(ctx, q, limit, cursor, f)
		return ddbkit.Page[ddb.Item]{Items: items, Next: next}, err
	})
}

func orNotFound(err, notFound error) error {
	if err != nil {
		return err
	}
	return notFound
}

// keyed runs body, the body of the write method op on the wardrobe
// wardrobeID ("" for CreateWardrobe), under the caller's idempotency key,
// if ctx holds one (backend.Keyed; without a key it is body alone). Its
// Keying: this store's backend and table (which has no TTL attribute), the
// scope op already makes its token from (Options.scope), Options.Clock,
// and input, the method's arguments after ctx and wardrobeID. replay
// answers a repeat from the key of the first item the method's first
// transaction wrote; nil marks a method whose repeat is safe by itself.
//
// pre is the method's validation of its input, and bad input is refused
// before the record is read, as before any I/O; so is an ended context.
// body's errors are its own, already wrapped; keyed wraps the others (the
// record's read, a reused key, replay's).
func keyed[T any](ctx context.Context, c *core, op, wardrobeID string, pre error, input []any,
	replay func(ctx context.Context, ref backend.Key) (T, error), body func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	if pre != nil {
		return zero, pre
	}
	if err := live(ctx, op); err != nil {
		return zero, err
	}
	k := backend.Keying[T]{Backend: c.b, Table: c.t, Scope: c.o.scope(op, wardrobeID), Now: c.o.Clock, Input: input, Replay: replay}
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (T, error) {
		v, err := body(ctx)
		if err != nil {
			err = &bodyError{err}
		}
		return v, err
	})
	if e, ok := err.(*bodyError); ok {
		return v, e.err
	}
	return v, wrap(op, err)
}

// bodyError marks an error keyed's body returned, already wrapped, through
// backend.Keyed, which returns it as it is or answers it.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// replayed reads, for a replay, the item at ref that a keyed create wrote:
// one strongly consistent GetItem. notFound is the error when it is gone.
func (c *core) replayed(ctx context.Context, ref backend.Key, notFound error) (ddb.Item, error) {
	item, err := c.b.Get(ctx, c.t, ref)
	if err != nil || item == nil {
		return nil, orNotFound(err, notFound)
	}
	return item, nil
}

// refID is the ID in ref's sort key <prefix>#<id>, for a replay's error.
func refID(ref backend.Key, prefix string) string {
	id, _ := strings.CutPrefix(ref.SK, prefix+keys.Sep)
	return id
}

// replayWorn is the replay of AddClothing and AddTemplate: the clothing or
// template as stored now, made a U by conv.
func replayWorn[U any](c *core, wardrobeID string, kind Kind, conv func(worn) U) func(context.Context, backend.Key) (U, error) {
	return func(ctx context.Context, ref backend.Key) (U, error) {
		var zero U
		item, err := c.replayed(ctx, ref, errNotFound(kind.noun(), wardrobeID, refID(ref, string(kind))))
		if err != nil {
			return zero, err
		}
		w, err := backend.Decode(c.b, c.t, item, wornDecoder)
		if err != nil {
			return zero, err
		}
		return conv(w), nil
	}
}

// CreateWardrobe implements WardrobeStore.CreateWardrobe, which documents its errors.
func (c *core) CreateWardrobe(ctx context.Context, in NewWardrobe) (_ Wardrobe, err error) {
	ctx, sp := c.start(ctx, "CreateWardrobe")
	defer sp.End(&err)
	const op = "create wardrobe"
	replay := func(ctx context.Context, ref backend.Key) (Wardrobe, error) {
		id, _ := strings.CutPrefix(ref.PK, segWardrobe+keys.Sep)
		item, err := c.replayed(ctx, ref, errWardrobeNotFound(id))
		if err != nil {
			return Wardrobe{}, err
		}
		return unmarshalWardrobe(c.t, item, id)
	}
	return keyed(ctx, c, op, "", validateNewWardrobe(op, in), []any{in}, replay, func(ctx context.Context) (Wardrobe, error) {
		w, k, err := c.o.newWardrobe(op, in)
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
		// Create's token tells its own earlier write, after a lost response,
		// from anyone else's.
		err = c.b.Create(ctx, c.o.scope(op, ""), c.t, item)
		if _, ok := backend.Failed(err, ""); ok {
			return Wardrobe{}, wrap(op, errExists("wardrobe", w.ID))
		}
		if err != nil {
			return Wardrobe{}, wrap(op, err)
		}
		return w, nil
	})
}

// GetWardrobe implements WardrobeStore.GetWardrobe, which documents its errors.
func (c *core) GetWardrobe(ctx context.Context, wardrobeID string) (_ Wardrobe, err error) {
	ctx, sp := c.start(ctx, "GetWardrobe")
	defer sp.End(&err)
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
	item, err := c.get(ctx, k)
	if err != nil || item == nil {
		return Wardrobe{}, wrap(op, orNotFound(err, errWardrobeNotFound(wardrobeID)))
	}
	w, err := unmarshalWardrobe(c.t, item, wardrobeID)
	return w, wrap(op, err)
}

// AddClothing implements ClothingStore.AddClothing, which documents its errors.
func (c *core) AddClothing(ctx context.Context, wardrobeID string, in NewClothing) (_ Clothing, err error) {
	ctx, sp := c.start(ctx, "AddClothing")
	defer sp.End(&err)
	const op = "add clothing"
	replay := replayWorn(c, wardrobeID, KindClothing, c.o.clothing)
	return keyed(ctx, c, op, wardrobeID, validateNewClothing(op, wardrobeID, in), []any{in}, replay, func(ctx context.Context) (Clothing, error) {
		w, item, err := c.o.newClothing(op, wardrobeID, in)
		if err != nil {
			return Clothing{}, err
		}
		if err := c.create(ctx, op, w, item); err != nil {
			return Clothing{}, wrap(op, err)
		}
		return c.o.clothing(w), nil
	})
}

// create puts a new clothing or template in one transaction with the checks
// that its wardrobe exists and that the clothes it names are ACTIVE. The
// Put comes first: the item an idempotency record refers to (keyed). A
// transaction names its first failed condition, and the checks keep their
// order: the wardrobe's, then the clothes' in the caller's order.
func (c *core) create(ctx context.Context, op string, w worn, item ddb.Item) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	wk, err := wardrobeKey(w.wardrobeID)
	if err != nil {
		return err
	}
	ws := []backend.Write{backend.PutNew(labelItem, c.t, item), backend.Check(labelWardrobe, c.t, wk.bk(), nil)}
	refs := outfitRefs("", w.clothingIDs)
	if ws, err = c.checkActive(ws, w.wardrobeID, refs); err != nil {
		return err
	}
	err = c.b.Tx(ctx, backend.NewRun(ctx, c.o.scope(op, w.wardrobeID), c.o.backoff()), ws)
	if _, ok := backend.Failed(err, labelWardrobe); ok {
		return errWardrobeNotFound(w.wardrobeID)
	}
	if err := refsError(err, refs); err != nil {
		return err
	}
	if _, ok := backend.Failed(err, labelItem); ok {
		return errExists(w.kind.noun(), w.id)
	}
	return err
}

// active is the value a reference check requires.
var active = ddb.Item{attrStatus: ddb.S(string(StatusActive))}

// checkActive adds to ws a check per reference that it is ACTIVE when the
// transaction commits.
func (c *core) checkActive(ws []backend.Write, wardrobeID string, refs []wornRef) ([]backend.Write, error) {
	for _, r := range refs {
		k, err := wornKey(wardrobeID, r.kind, r.id)
		if err != nil {
			return nil, err
		}
		ws = append(ws, backend.Check(r.field, c.t, k.bk(), active))
	}
	return ws, nil
}

// refsError turns the failed reference check of a transaction into the
// error for that reference: the first one, in the order of refs, that is
// missing or DELETED (the transaction names the first write whose
// condition failed). It returns nil when no reference check failed.
func refsError(err error, refs []wornRef) error {
	for _, r := range refs {
		if old, ok := backend.Failed(err, r.field); ok {
			if old == nil {
				return errUnknownRef(r.field, r.kind, r.id)
			}
			return errDeletedRef(r.field, r.kind, r.id)
		}
	}
	return nil
}

// GetClothing implements ClothingStore.GetClothing, which documents its errors.
func (c *core) GetClothing(ctx context.Context, wardrobeID, clothingID string) (_ Clothing, err error) {
	ctx, sp := c.start(ctx, "GetClothing")
	defer sp.End(&err)
	w, err := c.getWorn(ctx, "get clothing", wardrobeID, KindClothing, clothingID)
	return c.o.clothing(w), err
}

// getWorn validates a reference and reads one clothing or template.
func (c *core) getWorn(ctx context.Context, op, wardrobeID string, kind Kind, id string) (worn, error) {
	if err := validateRef(op, wardrobeID, kind.idField(), id); err != nil {
		return worn{}, err
	}
	if err := live(ctx, op); err != nil {
		return worn{}, err
	}
	w, err := c.readWorn(ctx, wardrobeID, kind, id)
	return w, wrap(op, err)
}

func (c *core) readWorn(ctx context.Context, wardrobeID string, kind Kind, id string) (worn, error) {
	k, err := wornKey(wardrobeID, kind, id)
	if err != nil {
		return worn{}, err
	}
	item, err := c.get(ctx, k)
	if err != nil || item == nil {
		return worn{}, orNotFound(err, errNotFound(kind.noun(), wardrobeID, id))
	}
	return backend.Decode(c.b, c.t, item, wornDecoder)
}

// ListClothes implements ClothingStore.ListClothes, which documents its errors.
func (c *core) ListClothes(ctx context.Context, wardrobeID string, opts ListQuery) (_ ddbkit.Page[Clothing], err error) {
	ctx, sp := c.start(ctx, "ListClothes")
	defer sp.End(&err)
	return listWorn(ctx, c, "list clothes", wardrobeID, KindClothing, opts, c.o.clothing)
}

// listWorn reads one page of a status list, each item made into a U by
// conv (which must copy the worn's slices: see backend.QueryPageFunc),
// leaving out (and reporting) the items it cannot decode, and those of
// the other kind (which only damaged data has in a status list).
func listWorn[U any](ctx context.Context, c *core, op, wardrobeID string, kind Kind, opts ListQuery, conv func(worn) U) (ddbkit.Page[U], error) {
	if err := validateList(op, wardrobeID, opts); err != nil {
		return ddbkit.Page[U]{}, err
	}
	q, err := statusListQuery(c.t, wardrobeID, kind, opts)
	if err != nil {
		return ddbkit.Page[U]{}, wrap(op, err)
	}
	return queryPage(ctx, c, op, q, opts.PageOptions, listedDecoders[kind], conv)
}

// UpdateClothing implements ClothingStore.UpdateClothing, which documents its errors.
func (c *core) UpdateClothing(ctx context.Context, wardrobeID, clothingID string, patch ClothingPatch) (_ Clothing, err error) {
	ctx, sp := c.start(ctx, "UpdateClothing")
	defer sp.End(&err)
	const op = "update clothing"
	pre := validateClothingPatch(op, wardrobeID, clothingID, patch)
	return keyed(ctx, c, op, wardrobeID, pre, []any{clothingID, patch}, nil, func(ctx context.Context) (Clothing, error) {
		if err := live(ctx, op); err != nil {
			return Clothing{}, err
		}
		var u backend.Change
		if patch.Name != nil {
			u.Set(attrName, ddb.S(*patch.Name))
		}
		switch {
		case patch.ImageKey == nil:
		case *patch.ImageKey == "":
			u.Remove(attrImageKey)
		default:
			u.Set(attrImageKey, ddb.S(*patch.ImageKey))
		}
		w, err := c.updateWorn(ctx, wardrobeID, KindClothing, clothingID, u)
		return c.o.clothing(w), wrap(op, err)
	})
}

// updateWorn applies u to an existing clothing or template and returns it
// as the write left it. u sets fixed values, so repeating it after a lost
// response changes nothing more.
func (c *core) updateWorn(ctx context.Context, wardrobeID string, kind Kind, id string, u backend.Change) (worn, error) {
	k, err := wornKey(wardrobeID, kind, id)
	if err != nil {
		return worn{}, err
	}
	out, err := c.b.Update(ctx, c.t, k.bk(), u, backend.Exists(nil))
	if _, ok := backend.Failed(err, ""); ok {
		return worn{}, errNotFound(kind.noun(), wardrobeID, id)
	}
	if err != nil {
		return worn{}, err
	}
	return unmarshalWorn(c.t, out, wardrobeID)
}

// DeleteClothing implements ClothingStore.DeleteClothing, which documents its errors.
func (c *core) DeleteClothing(ctx context.Context, wardrobeID, clothingID string) (_ Clothing, err error) {
	ctx, sp := c.start(ctx, "DeleteClothing")
	defer sp.End(&err)
	return keyedStatus(ctx, c, "delete clothing", wardrobeID, KindClothing, clothingID, StatusDeleted, c.o.clothing)
}

// RestoreClothing implements ClothingStore.RestoreClothing, which documents its errors.
func (c *core) RestoreClothing(ctx context.Context, wardrobeID, clothingID string) (_ Clothing, err error) {
	ctx, sp := c.start(ctx, "RestoreClothing")
	defer sp.End(&err)
	return keyedStatus(ctx, c, "restore clothing", wardrobeID, KindClothing, clothingID, StatusActive, c.o.clothing)
}

// keyedStatus runs c.setStatus under the caller's idempotency key, if any:
// a repeat is safe by itself (it finds the item in the status it sets), so
// it runs again and returns the item as it is, deletedAt unchanged.
func keyedStatus[U any](ctx context.Context, c *core, op, wardrobeID string, kind Kind, id string, to Status, conv func(worn) U) (U, error) {
	pre := validateRef(op, wardrobeID, kind.idField(), id)
	return keyed(ctx, c, op, wardrobeID, pre, []any{id}, nil, func(ctx context.Context) (U, error) {
		w, err := c.setStatus(ctx, op, wardrobeID, kind, id, to)
		return conv(w), err
	})
}

// setStatus deletes or restores a clothing or template: status, deletedAt
// and the status-list partition change in one UpdateItem, conditional on
// the item existing and not being in that status already. An item
// already in that status is returned unchanged; a repeat after a 5xx or a
// lost response that finds its own write is the backend's to recognise
// (backend.Update). An item in neither status, which only another writer
// leaves (ErrCorruptItem on a read), is set to the status asked for, with
// its status-list partition: the write repairs it, as DynamoStore did
// before both stores shared this code (MemoryStore's Import refuses such
// an item, so only DynamoStore meets one).
func (c *core) setStatus(ctx context.Context, op, wardrobeID string, kind Kind, id string, to Status) (worn, error) {
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
		deletedAt = num(c.o.deletedAt(to).UnixMilli())
	}
	if err := live(ctx, op); err != nil {
		return worn{}, err
	}
	var u backend.Change
	u.Set(attrStatus, ddb.S(string(to)))
	u.Set(attrDeletedAt, deletedAt)
	u.Set(AttrStatusListPK, ddb.S(pk))
	cond := backend.When(backend.And(backend.Equal(AttrPK, ddb.S(k.pk)), backend.Not(backend.Equal(attrStatus, ddb.S(string(to))))))
	out, err := c.b.Update(ctx, c.t, k.bk(), u, cond)
	if old, ok := backend.Failed(err, ""); ok {
		if old == nil {
			return worn{}, wrap(op, errNotFound(kind.noun(), wardrobeID, id))
		}
		out, err = old, nil // already in that status: nothing to do
	}
	if err != nil {
		return worn{}, wrap(op, err)
	}
	w, err := unmarshalWorn(c.t, out, wardrobeID)
	return w, wrap(op, err)
}

// AddTemplate implements TemplateStore.AddTemplate, which documents its errors.
func (c *core) AddTemplate(ctx context.Context, wardrobeID string, in NewTemplate) (_ Template, err error) {
	ctx, sp := c.start(ctx, "AddTemplate")
	defer sp.End(&err)
	const op = "add template"
	replay := replayWorn(c, wardrobeID, KindTemplate, c.o.template)
	return keyed(ctx, c, op, wardrobeID, validateNewTemplate(op, wardrobeID, in), []any{in}, replay, func(ctx context.Context) (Template, error) {
		w, item, err := c.o.newTemplate(op, wardrobeID, in)
		if err != nil {
			return Template{}, err
		}
		if err := c.create(ctx, op, w, item); err != nil {
			return Template{}, wrap(op, err)
		}
		return c.o.template(w), nil
	})
}

// GetTemplate implements TemplateStore.GetTemplate, which documents its errors.
func (c *core) GetTemplate(ctx context.Context, wardrobeID, templateID string) (_ Template, err error) {
	ctx, sp := c.start(ctx, "GetTemplate")
	defer sp.End(&err)
	w, err := c.getWorn(ctx, "get template", wardrobeID, KindTemplate, templateID)
	return c.o.template(w), err
}

// ListTemplates implements TemplateStore.ListTemplates, which documents its errors.
func (c *core) ListTemplates(ctx context.Context, wardrobeID string, opts ListQuery) (_ ddbkit.Page[TemplateSummary], err error) {
	ctx, sp := c.start(ctx, "ListTemplates")
	defer sp.End(&err)
	const op = "list templates"
	ts, err := listWorn(ctx, c, op, wardrobeID, KindTemplate, opts, c.o.template)
	if err != nil {
		return ddbkit.Page[TemplateSummary]{}, err
	}
	lists := make([][]string, len(ts.Items))
	for i, t := range ts.Items {
		lists[i] = t.ClothingIDs
	}
	found, bad, err := c.thumbnails(ctx, wardrobeID, lists, ThumbnailCount)
	if err != nil {
		return ddbkit.Page[TemplateSummary]{}, wrap(op, err)
	}
	skipped := ts.Skipped
	for _, e := range bad {
		skipped = append(skipped, wrap(op, e))
	}
	out := make([]TemplateSummary, len(ts.Items))
	for i, t := range ts.Items {
		out[i].Template = t
		out[i].Thumbnails, out[i].More = thumbnails(t.ClothingIDs, ThumbnailCount, found)
	}
	return ddbkit.Page[TemplateSummary]{Items: out, Next: ts.Next, Skipped: skipped}, nil
}

// thumbnails reads the distinct clothes among the first n IDs of each
// list, in one BatchGetItem: one lookup serves a whole page. It returns
// those found by ID, and an error for each that could not be decoded (it
// then shows as missing, as one that is not there does).
func (c *core) thumbnails(ctx context.Context, wardrobeID string, lists [][]string, n int) (map[string]Thumbnail, []error, error) {
	total := 0
	for _, l := range lists {
		total += min(n, len(l))
	}
	if total == 0 {
		return nil, nil, nil
	}
	ids := make([]string, 0, total)
	seen := make(map[string]bool, total) // an outfit may repeat a clothing, and outfits share them
	for _, l := range lists {
		for _, id := range l[:min(n, len(l))] {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	ks, err := wornKeys(wardrobeID, KindClothing, ids)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	items, err := c.b.BatchGetWith(ctx, c.t, ks, thumbRead)
	if err != nil {
		return nil, nil, err
	}
	found := make(map[string]Thumbnail, len(ids))
	var bad []error
	for _, it := range items {
		if it == nil {
			continue
		}
		th, err := backend.Decode(c.b, c.t, it, thumbDecoder)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		found[th.ClothingID] = th
	}
	return found, bad, nil
}

// UpdateTemplate implements TemplateStore.UpdateTemplate, which documents its errors.
// A repeat under an idempotency key is safe by itself: it runs again.
func (c *core) UpdateTemplate(ctx context.Context, wardrobeID, templateID string, patch TemplatePatch) (_ Template, err error) {
	ctx, sp := c.start(ctx, "UpdateTemplate")
	defer sp.End(&err)
	const op = "update template"
	pre := validateTemplatePatch(op, wardrobeID, templateID, patch)
	return keyed(ctx, c, op, wardrobeID, pre, []any{templateID, patch}, nil, func(ctx context.Context) (Template, error) {
		return c.updateTemplate(ctx, wardrobeID, templateID, patch)
	})
}

// updateTemplate is UpdateTemplate's body.
//
// A new name alone is one UpdateItem, which returns the template as it
// left it. A new list must name ACTIVE clothes when the update commits,
// which takes a transaction, and a transaction returns nothing: so it
// reads the template first, writes on condition that every attribute the
// result shows and the patch does not set is still as read, and returns
// what it read with the patch applied, which is then exactly what it
// committed. A concurrent change sends it back to read again.
func (c *core) updateTemplate(ctx context.Context, wardrobeID, templateID string, patch TemplatePatch) (Template, error) {
	const op = "update template"
	if err := validateTemplatePatch(op, wardrobeID, templateID, patch); err != nil {
		return Template{}, err
	}
	if err := live(ctx, op); err != nil {
		return Template{}, err
	}
	if patch.ClothingIDs == nil {
		var u backend.Change
		u.Set(attrName, ddb.S(*patch.Name))
		w, err := c.updateWorn(ctx, wardrobeID, KindTemplate, templateID, u)
		return c.o.template(w), wrap(op, err)
	}
	k, err := wornKey(wardrobeID, KindTemplate, templateID)
	if err != nil {
		return Template{}, wrap(op, err)
	}
	var u backend.Change
	if patch.Name != nil {
		u.Set(attrName, ddb.S(*patch.Name))
	}
	u.Set(attrClothingIDs, strs(patch.ClothingIDs))
	refs := outfitRefs("", patch.ClothingIDs)
	var w worn
	err = c.rmw(ctx, op, wardrobeID, func(r *backend.Run) error {
		var err error
		if w, err = c.readWorn(ctx, wardrobeID, KindTemplate, templateID); err != nil {
			return err
		}
		ws := []backend.Write{backend.Update(labelItem, c.t, k.bk(), u, backend.Unchanged(c.t, w.raw, templateResultAttrs(patch)))}
		if ws, err = c.checkActive(ws, wardrobeID, refs); err != nil {
			return err
		}
		err = c.b.Tx(ctx, r, ws)
		if old, ok := backend.Failed(err, labelItem); ok {
			if old == nil {
				return errNotFound("template", wardrobeID, templateID)
			}
			return backend.Changed("template %s changed while being updated", templateID)
		}
		if err := refsError(err, refs); err != nil {
			return err
		}
		return err
	})
	if err != nil {
		return Template{}, wrap(op, err)
	}
	return c.o.template(w.patched(patch)), nil // what the transaction committed
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
func (c *core) DeleteTemplate(ctx context.Context, wardrobeID, templateID string) (_ Template, err error) {
	ctx, sp := c.start(ctx, "DeleteTemplate")
	defer sp.End(&err)
	return keyedStatus(ctx, c, "delete template", wardrobeID, KindTemplate, templateID, StatusDeleted, c.o.template)
}

// RestoreTemplate implements TemplateStore.RestoreTemplate, which documents its errors.
func (c *core) RestoreTemplate(ctx context.Context, wardrobeID, templateID string) (_ Template, err error) {
	ctx, sp := c.start(ctx, "RestoreTemplate")
	defer sp.End(&err)
	return keyedStatus(ctx, c, "restore template", wardrobeID, KindTemplate, templateID, StatusActive, c.o.template)
}

// AddHistory implements HistoryStore.AddHistory, which documents its errors.
// A repeat under an idempotency key replays the history its first call
// added (the first write of its transaction), and counts nothing again.
func (c *core) AddHistory(ctx context.Context, wardrobeID string, in NewHistory) (_ History, err error) {
	ctx, sp := c.start(ctx, "AddHistory")
	defer sp.End(&err)
	const op = "add history"
	replay := func(ctx context.Context, ref backend.Key) (History, error) {
		item, err := c.replayed(ctx, ref, errNotFound("history", wardrobeID, refID(ref, segHistory)))
		if err != nil {
			return History{}, err
		}
		return backend.Decode(c.b, c.t, item, historyDecoder)
	}
	return keyed(ctx, c, op, wardrobeID, validateNewHistory(op, wardrobeID, in), []any{in}, replay, func(ctx context.Context) (History, error) {
		return c.addHistory(ctx, wardrobeID, in)
	})
}

// addHistory is AddHistory's body.
//
// The padded WEAR# key needs the new count, so it reads the wardrobe, the
// template and the clothes with one BatchGetItem, then writes everything
// in one transaction conditional on what it read, and starts over when a
// concurrent write got in between: one of this package's, or one of
// another writer that changed wearCount or lastWornAt.
func (c *core) addHistory(ctx context.Context, wardrobeID string, in NewHistory) (History, error) {
	const op = "add history"
	h, hitem, err := c.o.newHistory(op, wardrobeID, in)
	if err != nil {
		return History{}, err
	}
	if err := live(ctx, op); err != nil {
		return History{}, err
	}
	wk, err := wardrobeKey(wardrobeID)
	if err != nil {
		return History{}, wrap(op, err)
	}
	err = c.rmw(ctx, op, wardrobeID, func(r *backend.Run) error {
		refs := outfitRefs(h.TemplateID, h.ClothingIDs)
		found, err := c.readRefs(ctx, wardrobeID, wk, refs, "")
		if err != nil {
			return err
		}
		if !found {
			return errWardrobeNotFound(wardrobeID)
		}
		if err := checkWearable(refs); err != nil {
			return err
		}
		ws := make([]backend.Write, 0, 1+2*len(refs))
		ws = append(ws, backend.PutNew(labelItem, c.t, hitem))
		for _, ref := range refs {
			if ws, err = c.wear(ws, wardrobeID, ref, h.Date, +1, c.o.worn(ref.st, h.Date)); err != nil {
				return err
			}
		}
		err = c.b.Tx(ctx, r, ws)
		if _, ok := backend.Failed(err, labelItem); ok {
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
func (c *core) readRefs(ctx context.Context, wardrobeID string, first itemKey, refs []wornRef, d Date) (bool, error) {
	ks := make([]backend.Key, 0, 1+2*len(refs))
	if first != (itemKey{}) {
		ks = append(ks, first.bk())
	}
	off := len(ks)
	for _, r := range refs {
		k, err := wornKey(wardrobeID, r.kind, r.id)
		if err != nil {
			return false, err
		}
		ks = append(ks, k.bk())
	}
	if d != "" {
		for _, r := range refs {
			k, err := counterKey(wardrobeID, r.kind, r.id, d)
			if err != nil {
				return false, err
			}
			ks = append(ks, k.bk())
		}
	}
	items, err := c.b.BatchGet(ctx, c.t, ks)
	if err != nil {
		return false, err
	}
	for i := range refs {
		refs[i].found, refs[i].raw, refs[i].dayCount, refs[i].dayRaw = false, nil, 0, nil
		if it := items[off+i]; it != nil {
			w, err := backend.Decode(c.b, c.t, it, wornDecoder)
			if err != nil {
				return false, err
			}
			refs[i].found, refs[i].status, refs[i].st, refs[i].raw = true, w.status, w.st, it
		}
		if d != "" {
			if it := items[off+len(refs)+i]; it != nil {
				cn, err := backend.Decode(c.b, c.t, it, counterDecoder)
				if err != nil {
					return false, err
				}
				refs[i].dayCount, refs[i].dayRaw = cn.Count, it
			}
		}
	}
	return off > 0 && items[0] != nil, nil
}

// wear appends to ws the change one history makes to r: delta (+1 or -1)
// on the counter of day d, and r's statistics set to st, with their index
// keys, on condition that they are still as read. A wear added to a
// counter creates it (ADD); the last wear taken from it deletes it. A new
// wear needs r ACTIVE at commit.
func (c *core) wear(ws []backend.Write, wardrobeID string, r wornRef, d Date, delta int, st stats) ([]backend.Write, error) {
	ck, err := counterKey(wardrobeID, r.kind, r.id, d)
	if err != nil {
		return nil, err
	}
	label := "counter of " + r.field
	switch {
	case delta > 0:
		var u backend.Change
		u.Add(attrCount, 1)
		u.Set(attrDate, ddb.S(string(d)))
		ws = append(ws, backend.Update(label, c.t, ck.bk(), u, backend.Cond{}))
	case r.dayRaw == nil:
		// No counter to take the wear from: damaged data.
	case r.dayCount <= 1:
		// On condition that the counter still holds the count read, or
		// still has none (damaged data).
		ws = append(ws, backend.DeleteWhen(label, c.t, ck.bk(), backend.Unchanged(c.t, r.dayRaw, counterAttrs)))
	default:
		var u backend.Change
		u.Set(attrCount, num(int64(r.dayCount-1)))
		ws = append(ws, backend.Update(label, c.t, ck.bk(), u, backend.Unchanged(c.t, r.dayRaw, counterAttrs)))
	}
	if !r.found {
		return ws, nil // damaged data: nothing to take the wear from
	}
	k, err := wornKey(wardrobeID, r.kind, r.id)
	if err != nil {
		return nil, err
	}
	u, err := statsChange(r.kind, r.id, st)
	if err != nil {
		return nil, err
	}
	var more []backend.Filter
	if delta > 0 {
		more = append(more, backend.Equal(attrStatus, ddb.S(string(StatusActive))))
	}
	return append(ws, backend.Update(r.field, c.t, k.bk(), u, backend.Unchanged(c.t, r.raw, statsAttrs, more...))), nil
}

// statsChange sets the statistics of an item to st, with their index keys.
// Its callers condition it on the statistics they read (statsAttrs).
func statsChange(kind Kind, id string, st stats) (backend.Change, error) {
	var u backend.Change
	wear, lastWorn, err := statsKeys(kind, id, st)
	if err != nil {
		return u, err
	}
	u.Set(attrWearCount, num(int64(st.count)))
	u.Set(attrLastWornAt, num(st.lastMs))
	u.Set(attrStatsVersion, num(st.version))
	u.Set(AttrWearCountSK, ddb.S(wear))
	u.Set(AttrLastWornAtSK, ddb.S(lastWorn))
	return u, nil
}

// GetHistory implements HistoryStore.GetHistory, which documents its errors.
func (c *core) GetHistory(ctx context.Context, wardrobeID, historyID string) (_ HistoryDetail, err error) {
	ctx, sp := c.start(ctx, "GetHistory")
	defer sp.End(&err)
	const op = "get history"
	h, err := c.getHistory(ctx, op, wardrobeID, historyID)
	if err != nil {
		return HistoryDetail{}, err
	}
	found, bad, err := c.thumbnails(ctx, wardrobeID, [][]string{h.ClothingIDs}, len(h.ClothingIDs))
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

func (c *core) getHistory(ctx context.Context, op, wardrobeID, historyID string) (History, error) {
	if err := validateRef(op, wardrobeID, "HistoryID", historyID); err != nil {
		return History{}, err
	}
	if err := live(ctx, op); err != nil {
		return History{}, err
	}
	h, err := c.readHistory(ctx, wardrobeID, historyID)
	return h, wrap(op, err)
}

func (c *core) readHistory(ctx context.Context, wardrobeID, historyID string) (History, error) {
	k, err := historyKey(wardrobeID, historyID)
	if err != nil {
		return History{}, err
	}
	item, err := c.get(ctx, k)
	if err != nil || item == nil {
		return History{}, orNotFound(err, errNotFound("history", wardrobeID, historyID))
	}
	return unmarshalHistory(c.t, item, wardrobeID)
}

// ListHistory implements HistoryStore.ListHistory, which documents its errors.
func (c *core) ListHistory(ctx context.Context, wardrobeID string, hq HistoryQuery) (_ ddbkit.Page[HistorySummary], err error) {
	ctx, sp := c.start(ctx, "ListHistory")
	defer sp.End(&err)
	const op = "list history"
	if err := validateHistoryQuery(op, wardrobeID, hq); err != nil {
		return ddbkit.Page[HistorySummary]{}, err
	}
	q, err := historyQuery(c.t, wardrobeID, hq)
	if err != nil {
		return ddbkit.Page[HistorySummary]{}, wrap(op, err)
	}
	hs, err := queryPage(ctx, c, op, q, hq.PageOptions, historyDecoder, historyDecoder.Clone)
	if err != nil {
		return ddbkit.Page[HistorySummary]{}, err
	}
	lists := make([][]string, len(hs.Items))
	for i, h := range hs.Items {
		lists[i] = h.ClothingIDs
	}
	found, bad, err := c.thumbnails(ctx, wardrobeID, lists, ThumbnailCount)
	if err != nil {
		return ddbkit.Page[HistorySummary]{}, wrap(op, err)
	}
	skipped := hs.Skipped
	for _, e := range bad {
		skipped = append(skipped, wrap(op, e))
	}
	out := make([]HistorySummary, len(hs.Items))
	for i, h := range hs.Items {
		out[i].History = h
		out[i].Thumbnails, out[i].More = thumbnails(h.ClothingIDs, ThumbnailCount, found)
	}
	return ddbkit.Page[HistorySummary]{Items: out, Next: hs.Next, Skipped: skipped}, nil
}

// DeleteHistory implements HistoryStore.DeleteHistory, which documents its errors.
// A repeat under an idempotency key finds the record its first call's
// transaction wrote, with the delete: that call succeeded, and so does the
// repeat, reading nothing more and taking nothing back again.
func (c *core) DeleteHistory(ctx context.Context, wardrobeID, historyID string) (err error) {
	ctx, sp := c.start(ctx, "DeleteHistory")
	defer sp.End(&err)
	const op = "delete history"
	replay := func(context.Context, backend.Key) (struct{}, error) { return struct{}{}, nil }
	pre := validateRef(op, wardrobeID, "HistoryID", historyID)
	_, err = keyed(ctx, c, op, wardrobeID, pre, []any{historyID}, replay, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.deleteHistory(ctx, wardrobeID, historyID)
	})
	return err
}

// deleteHistory is DeleteHistory's body.
//
// It reads the history, then the items it wore and their counters of its
// day with one BatchGetItem, looks up the next latest day of each item
// whose latest wear it takes away (one Query each), and writes everything
// in one transaction conditional on what it read.
func (c *core) deleteHistory(ctx context.Context, wardrobeID, historyID string) error {
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
	return wrap(op, c.rmw(ctx, op, wardrobeID, func(r *backend.Run) error {
		h, err := c.readHistory(ctx, wardrobeID, historyID)
		if err != nil {
			return err
		}
		refs := outfitRefs(h.TemplateID, h.ClothingIDs)
		// The history was just read; its transaction's delete is
		// conditional on it, so it is not read again here.
		if _, err := c.readRefs(ctx, wardrobeID, itemKey{}, refs, h.Date); err != nil {
			return err
		}
		ws := make([]backend.Write, 0, 1+2*len(refs))
		ws = append(ws, backend.Delete(labelItem, c.t, hk.bk(), nil))
		for _, ref := range refs {
			st, again := c.o.unworn(ref.st, h.Date, ref.dayCount)
			if again && ref.found {
				if st.lastMs, err = c.latestBefore(ctx, wardrobeID, ref, h.Date); err != nil {
					return err
				}
			}
			if ws, err = c.wear(ws, wardrobeID, ref, h.Date, -1, st); err != nil {
				return err
			}
		}
		err = c.b.Tx(ctx, r, ws)
		if _, ok := backend.Failed(err, labelItem); ok {
			return errNotFound("history", wardrobeID, historyID)
		}
		return raced(err, "the outfit's statistics")
	}))
}

// latestBefore returns the midnight, in Unix ms, of the latest day before d
// with a wear of r, or 0 if there is none: a Query, newest first, on one
// item's counters, as the seed's AP-17 says. Counters at 0 count for
// nothing, as in RecalculateStats; the filter leaves them out, and each
// Query evaluates at most Options.FilterBudget of them, so a page costs
// the same however many there are; the walk goes on, page by page, until
// it finds a wear (only another writer leaves a counter at 0). A counter
// that cannot be decoded counts for nothing either.
func (c *core) latestBefore(ctx context.Context, wardrobeID string, r wornRef, d Date) (int64, error) {
	q, err := latestQuery(c.t, wardrobeID, r.kind, r.id, d, c.o.FilterBudget)
	if err != nil {
		return 0, err
	}
	for cursor := ""; ; {
		items, next, err := c.latestPage(ctx, q, cursor)
		if err != nil {
			return 0, err
		}
		for _, it := range items {
			if cn, err := backend.Decode(c.b, c.t, it, counterDecoder); err == nil && cn.Count > 0 {
				return c.o.dayMs(cn.Date), nil
			}
		}
		if next == "" {
			return 0, nil
		}
		cursor = next
	}
}

// hasWear keeps the daily counters that hold a wear (latestQuery).
var hasWear = backend.Greater(attrCount, num(0))

// latestPage is one page of latestBefore's walk: at most one counter that
// holds a wear, having evaluated at most q's budget of counters.
func (c *core) latestPage(ctx context.Context, q ddb.KeyQuery, cursor string) ([]ddb.Item, string, error) {
	return c.b.Query(ctx, q, 1, cursor, hasWear)
}

// ListDailyWear implements StatsStore.ListDailyWear, which documents its errors.
func (c *core) ListDailyWear(ctx context.Context, wardrobeID string, kind Kind, id string, dq DailyQuery) (_ ddbkit.Page[DailyWear], err error) {
	ctx, sp := c.start(ctx, "ListDailyWear")
	defer sp.End(&err)
	const op = "list daily wear"
	if err := validateDailyQuery(op, wardrobeID, kind, id, dq); err != nil {
		return ddbkit.Page[DailyWear]{}, err
	}
	q, err := dailyQuery(c.t, wardrobeID, kind, id, dq)
	if err != nil {
		return ddbkit.Page[DailyWear]{}, wrap(op, err)
	}
	// A listing for display, eventually consistent like the others (the
	// cursor does not depend on it); RecalculateStats and AP-17, which
	// write from the counters, read them strongly.
	q.ConsistentRead = false
	return queryPage(ctx, c, op, q, dq.PageOptions, counterDecoder, counterDecoder.Clone)
}

// RecalculateStats implements StatsStore.RecalculateStats, which documents its errors.
// A repair is safe to repeat: under an idempotency key, a repeat runs again.
func (c *core) RecalculateStats(ctx context.Context, wardrobeID string) (_ StatsReport, err error) {
	ctx, sp := c.start(ctx, "RecalculateStats")
	defer sp.End(&err)
	const op = "recalculate stats"
	return keyed(ctx, c, op, wardrobeID, validateWardrobeID(op, wardrobeID), nil, nil, func(ctx context.Context) (StatsReport, error) {
		return c.recalculateStats(ctx, wardrobeID)
	})
}

// recalculateStats is RecalculateStats' body.
//
// It lists the wardrobe's clothes and templates from the base table, reads
// each one's counters, and repairs a drifted item with an update
// conditional on the statistics it read, reading again after a race.
func (c *core) recalculateStats(ctx context.Context, wardrobeID string) (StatsReport, error) {
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
	if item, err := c.get(ctx, wk); err != nil || item == nil {
		return StatsReport{}, wrap(op, orNotFound(err, errWardrobeNotFound(wardrobeID)))
	}
	var rep StatsReport
	for _, kind := range []Kind{KindClothing, KindTemplate} {
		pk, err := wardrobePK(wardrobeID, keys.Lit(string(kind)))
		if err != nil {
			return StatsReport{}, wrap(op, err)
		}
		for it, err := range c.pages(ctx, baseQuery(c.t, pk), ddbkit.MaxPageLimit, backend.Filter{}) {
			if err != nil {
				return StatsReport{}, wrap(op, err)
			}
			w, err := backend.Decode(c.b, c.t, it, wornDecoder)
			if err != nil {
				rep.Skipped = append(rep.Skipped, wrap(op, err))
				continue
			}
			d, drifted, err := c.recalc(ctx, w)
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

// recalc repairs one item's statistics from its counters, with an update
// conditional on the statistics it read: a race reads again and rebuilds,
// within Options.Retry (backend.RMW's one budget). A repeat after a 5xx
// or a lost response is backend.Update's: it recognises its own earlier
// write, whose statsVersion only this repair sets.
func (c *core) recalc(ctx context.Context, w worn) (Drift, bool, error) {
	var (
		d       Drift
		drifted bool
		reread  bool
	)
	err := backend.RMW(ctx, c.o.backoff(), ddb.Scope{}, func(*backend.Run) error {
		if reread {
			var err error
			if w, err = c.readWorn(ctx, w.wardrobeID, w.kind, w.id); err != nil {
				return err
			}
		}
		reread = true
		counters, err := c.allCounters(ctx, w)
		if err != nil {
			return err
		}
		var st stats
		if st, d, drifted = c.o.recalculated(w, counters); !drifted {
			return nil
		}
		k, err := w.key()
		if err != nil {
			return err
		}
		u, err := statsChange(w.kind, w.id, st)
		if err != nil {
			return err
		}
		_, err = c.b.Update(ctx, c.t, k.bk(), u, backend.Unchanged(c.t, w.raw, statsAttrs))
		if _, ok := backend.Failed(err, ""); ok {
			return backend.Changed("%s %s changed while being updated", w.kind.noun(), w.id)
		}
		return err
	})
	return d, drifted, err
}

// allCounters reads every daily counter of w.
func (c *core) allCounters(ctx context.Context, w worn) ([]DailyWear, error) {
	q, err := dailyQuery(c.t, w.wardrobeID, w.kind, w.id, DailyQuery{})
	if err != nil {
		return nil, err
	}
	var out []DailyWear
	for it, err := range c.pages(ctx, q, ddbkit.MaxPageLimit, backend.Filter{}) {
		if err != nil {
			return nil, err
		}
		cn, err := backend.Decode(c.b, c.t, it, counterDecoder)
		if err != nil {
			return nil, err
		}
		out = append(out, cn)
	}
	return out, nil
}
