package wardrobe

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
	"github.com/ddbkit/ddbkit/keys"
)

// MemoryStore is an in-memory Store for tests. It keeps items under the same
// key strings the DynamoDB store writes, keeps an ordered copy of each GSI,
// and pages with the same cursors, so it returns the same results, errors,
// order and page boundaries; the shared conformance suite (package
// wardrobetest) holds both to that. It is safe for concurrent use: one lock
// makes every operation atomic.
//
// It keeps DynamoStore's other promises too: under a cancelled or expired
// context it fails as DynamoStore does (ddbkit.ErrUnavailable, and the
// context's error) and writes nothing; and it emulates the
// ClientRequestToken that a caller's idempotency key (see
// ddbkit.WithIdempotencyKey) gives the operations that DynamoStore runs as
// transactions: AddClothing, AddTemplate, UpdateTemplate with a new list,
// AddHistory and DeleteHistory.
type MemoryStore struct {
	o Options
	t ddb.Table

	mu      sync.RWMutex
	items   *memtable.Table[*record]            // the base table
	indexes map[string]*memtable.Table[*record] // the GSIs, by name
	tokens  memtable.Tokens
	parts   map[string]int // items per base-table partition, for Export
}

var _ Store = (*MemoryStore)(nil)

// record is one stored item: exactly one of its values is set. attrs holds
// its table and index key attributes, as the DynamoDB store writes them.
type record struct {
	attrs    ddb.Item
	wardrobe *Wardrobe
	worn     *worn
	history  *History
	counter  *DailyWear
}

var memIndexes = []ddb.Index{IndexByCreatedAt, IndexByWearCount, IndexByLastWornAt, IndexHistoryByDate}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	s := &MemoryStore{o: o, t: o.table(), items: memtable.New[*record](), parts: map[string]int{}, indexes: map[string]*memtable.Table[*record]{}}
	for _, ix := range memIndexes {
		s.indexes[ix.Name] = memtable.New[*record]()
	}
	return s
}

func keyAttrs(k itemKey) ddb.Item { return ddb.Item{AttrPK: ddb.S(k.pk), AttrSK: ddb.S(k.sk)} }

func str(v types.AttributeValue) string {
	if s, ok := v.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// live is the check both stores make before any I/O, at the same point of
// each operation: a cancelled or expired context fails it, with the same
// error in both stores, and nothing is read or written.
func live(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return wrap(op, err)
	}
	return nil
}

// replayed emulates DynamoDB's ClientRequestToken for a transactional
// write of op to wardrobe wardrobeID ("" for CreateWardrobe) whose write
// set writes describes, under the caller's idempotency key, scoped as
// DynamoStore scopes it (Options.scope): it reports whether the same
// writes were already committed under that token (so the call succeeds
// without writing), and fails with ErrConflict if the token committed
// other writes. commit records the writes once they are made. Without a
// key, both do nothing.
func (s *MemoryStore) replayed(ctx context.Context, op, wardrobeID string, describeWrites func() string) (replay bool, commit func(), err error) {
	sc := s.o.scope(op, wardrobeID)
	token, ok := ddbkit.RequestToken(ctx, sc.Table, sc.Op, sc.Partition)
	if !ok {
		return false, noCommit, nil
	}
	writes := describeWrites() // only under a key: rendering them costs more than the writes
	replay, err = s.tokens.Check(token, writes, time.Now())
	return replay, func() { s.tokens.Commit(token, writes, time.Now()) }, err
}

func noCommit() {}

// describe renders a write set for the token emulation: two calls make the
// same string exactly when DynamoDB would receive the same transaction.
func describe(parts ...any) string { return fmt.Sprintf("%#v", parts) }

// put stores r, replacing the item with its key, in the table and in every
// GSI whose key attributes it has.
func (s *MemoryStore) put(r *record) {
	pk, sk := str(r.attrs[AttrPK]), str(r.attrs[AttrSK])
	if old, ok := s.items.Get(pk, sk); ok {
		s.replace(old, r)
		return
	}
	s.items.Put(pk, sk, s.t.KeyOf(r.attrs), r)
	s.parts[pk]++
	for _, ix := range memIndexes {
		if ipk, isk := str(r.attrs[ix.PartitionKey]), str(r.attrs[ix.SortKey]); ipk != "" && isk != "" {
			q := ddb.KeyQuery{Table: s.t, Index: ix}
			s.indexes[ix.Name].Put(ipk, isk, q.CursorKey(r.attrs), r)
		}
	}
}

// replace makes old, a stored record, r: it keeps old's place in the
// table and in each GSI whose key r does not change (the entries point to
// old, which takes r's value), and moves it in the others. A write that
// changes some attributes (a wear, a new name) then costs the indexes it
// changes, not all of them.
func (s *MemoryStore) replace(old, r *record) {
	for _, ix := range memIndexes {
		opk, osk := str(old.attrs[ix.PartitionKey]), str(old.attrs[ix.SortKey])
		npk, nsk := str(r.attrs[ix.PartitionKey]), str(r.attrs[ix.SortKey])
		if opk == npk && osk == nsk {
			continue
		}
		q := ddb.KeyQuery{Table: s.t, Index: ix}
		if opk != "" && osk != "" {
			s.indexes[ix.Name].Delete(opk, osk, q.CursorKey(old.attrs))
		}
		if npk != "" && nsk != "" {
			s.indexes[ix.Name].Put(npk, nsk, q.CursorKey(r.attrs), old)
		}
	}
	*old = *r
}

// remove deletes the item at pk and sk, and its GSI entries.
func (s *MemoryStore) remove(pk, sk string) {
	old, ok := s.items.Get(pk, sk)
	if !ok {
		return
	}
	s.items.Delete(pk, sk, s.t.KeyOf(old.attrs))
	if s.parts[pk]--; s.parts[pk] == 0 {
		delete(s.parts, pk)
	}
	for _, ix := range memIndexes {
		if ipk, isk := str(old.attrs[ix.PartitionKey]), str(old.attrs[ix.SortKey]); ipk != "" && isk != "" {
			q := ddb.KeyQuery{Table: s.t, Index: ix}
			s.indexes[ix.Name].Delete(ipk, isk, q.CursorKey(old.attrs))
		}
	}
}

func (s *MemoryStore) get(k itemKey) (*record, bool) { return s.items.Get(k.pk, k.sk) }

func (s *MemoryStore) putWorn(w worn) error {
	r, err := wornRecord(w)
	if err != nil {
		return err
	}
	if old, ok := s.items.Get(str(r.attrs[AttrPK]), str(r.attrs[AttrSK])); ok && old.worn != nil {
		keepIndexKeys(old, r)
	}
	s.put(r)
	return nil
}

// keepIndexKeys gives r the index keys of old, the item it replaces, that
// DynamoStore's write would leave as they are: createdAtSk always,
// statusListPk unless the status changes, wearCountSk and lastWornAtSk
// unless the statistics do. They differ from r's only on an imported item
// whose index keys another writer left out or stale.
func keepIndexKeys(old, r *record) {
	keep := []string{AttrCreatedAtSK}
	if old.worn.status == r.worn.status {
		keep = append(keep, AttrStatusListPK)
	}
	if old.worn.st == r.worn.st {
		keep = append(keep, AttrWearCountSK, AttrLastWornAtSK)
	}
	for _, a := range keep {
		if v, ok := old.attrs[a]; ok {
			r.attrs[a] = v
		} else {
			delete(r.attrs, a)
		}
	}
}

// wornRecord is the record of a clothing or template, with its key and
// index attributes.
func wornRecord(w worn) (*record, error) {
	k, err := w.key()
	if err != nil {
		return nil, err
	}
	ik, err := w.indexKeys()
	if err != nil {
		return nil, err
	}
	attrs := keyAttrs(k)
	attrs[AttrStatusListPK] = ddb.S(ik.statusList)
	attrs[AttrCreatedAtSK] = ddb.S(ik.created)
	attrs[AttrWearCountSK] = ddb.S(ik.wear)
	attrs[AttrLastWornAtSK] = ddb.S(ik.lastWorn)
	w.clothingIDs = slices.Clone(w.clothingIDs)
	return &record{attrs: attrs, worn: &w}, nil
}

// CreateWardrobe implements WardrobeStore.CreateWardrobe, which documents its errors.
func (s *MemoryStore) CreateWardrobe(ctx context.Context, in NewWardrobe) (Wardrobe, error) {
	const op = "create wardrobe"
	w, k, err := s.o.newWardrobe(op, in)
	if err != nil {
		return Wardrobe{}, err
	}
	if err := live(ctx, op); err != nil {
		return Wardrobe{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// DynamoStore's PutNew: a transaction with the token of the caller's
	// key. An existing item is another's write, however alike, unless
	// the token replays these very writes.
	replay, commit, err := s.replayed(ctx, op, "", func() string { return describe(w.ID, w.Name, w.CreatedAt.UnixMilli()) })
	if err != nil {
		return Wardrobe{}, wrap(op, err)
	}
	if replay {
		return w, nil
	}
	if _, ok := s.get(k); ok {
		return Wardrobe{}, wrap(op, errExists("wardrobe", w.ID))
	}
	s.put(&record{attrs: keyAttrs(k), wardrobe: &w})
	commit()
	return w, nil
}

// GetWardrobe implements WardrobeStore.GetWardrobe, which documents its errors.
func (s *MemoryStore) GetWardrobe(ctx context.Context, wardrobeID string) (Wardrobe, error) {
	const op = "get wardrobe"
	if err := validateWardrobeID(op, wardrobeID); err != nil {
		return Wardrobe{}, err
	}
	if err := live(ctx, op); err != nil {
		return Wardrobe{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, err := s.wardrobe(wardrobeID)
	if err != nil {
		return Wardrobe{}, wrap(op, err)
	}
	return *r.wardrobe, nil
}

func (s *MemoryStore) wardrobe(wardrobeID string) (*record, error) {
	k, err := wardrobeKey(wardrobeID)
	if err != nil {
		return nil, err
	}
	r, ok := s.get(k)
	if !ok {
		return nil, errWardrobeNotFound(wardrobeID)
	}
	return r, nil
}

// AddClothing implements ClothingStore.AddClothing, which documents its errors.
func (s *MemoryStore) AddClothing(ctx context.Context, wardrobeID string, in NewClothing) (Clothing, error) {
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

// create stores a new clothing or template if its wardrobe exists and the
// clothes it names are ACTIVE, checked in the order DynamoStore decodes
// them.
func (s *MemoryStore) create(ctx context.Context, op string, w worn) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	replay, commit, err := s.replayed(ctx, op, w.wardrobeID, func() string {
		return describe(w.kind, w.wardrobeID, w.id, w.name, w.imageKey, w.clothingIDs, w.createdAt.UnixMilli())
	})
	if err != nil || replay {
		return err
	}
	if _, err := s.wardrobe(w.wardrobeID); err != nil {
		return err
	}
	refs := outfitRefs("", w.clothingIDs)
	if err := s.readRefs(w.wardrobeID, refs, ""); err != nil {
		return err
	}
	if err := checkWearable(refs); err != nil {
		return err
	}
	k, err := w.key()
	if err != nil {
		return err
	}
	if _, ok := s.get(k); ok {
		return errExists(w.kind.noun(), w.id)
	}
	if err := s.putWorn(w); err != nil {
		return err
	}
	commit()
	return nil
}

// readRefs fills refs in from what is stored, with their counters of day d
// when d is set.
func (s *MemoryStore) readRefs(wardrobeID string, refs []wornRef, d Date) error {
	for i, r := range refs {
		w, err := s.worn(wardrobeID, r.kind, r.id)
		if err == nil {
			refs[i].found, refs[i].status, refs[i].st = true, w.status, w.st
		}
		if d == "" {
			continue
		}
		ck, err := counterKey(wardrobeID, r.kind, r.id, d)
		if err != nil {
			return err
		}
		if c, ok := s.get(ck); ok {
			refs[i].dayCount = c.counter.Count
		}
	}
	return nil
}

// worn returns a stored clothing or template.
func (s *MemoryStore) worn(wardrobeID string, kind Kind, id string) (worn, error) {
	k, err := wornKey(wardrobeID, kind, id)
	if err != nil {
		return worn{}, err
	}
	r, ok := s.get(k)
	if !ok {
		return worn{}, errNotFound(kind.noun(), wardrobeID, id)
	}
	return *r.worn, nil
}

// GetClothing implements ClothingStore.GetClothing, which documents its errors.
func (s *MemoryStore) GetClothing(ctx context.Context, wardrobeID, clothingID string) (Clothing, error) {
	w, err := s.getWorn(ctx, "get clothing", wardrobeID, KindClothing, clothingID)
	return s.o.clothing(w), err
}

func (s *MemoryStore) getWorn(ctx context.Context, op, wardrobeID string, kind Kind, id string) (worn, error) {
	if err := validateRef(op, wardrobeID, kind.idField(), id); err != nil {
		return worn{}, err
	}
	if err := live(ctx, op); err != nil {
		return worn{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	w, err := s.worn(wardrobeID, kind, id)
	return w, wrap(op, err)
}

// ListClothes implements ClothingStore.ListClothes, which documents its errors.
func (s *MemoryStore) ListClothes(ctx context.Context, wardrobeID string, opts ListOptions) (ddbkit.Page[Clothing], error) {
	const op = "list clothes"
	s.mu.RLock()
	defer s.mu.RUnlock()
	rs, next, err := s.listWorn(ctx, op, wardrobeID, KindClothing, opts)
	if err != nil {
		return ddbkit.Page[Clothing]{}, err
	}
	out := make([]Clothing, len(rs))
	for i, r := range rs {
		out[i] = s.o.clothing(*r.worn)
	}
	return ddbkit.Page[Clothing]{Items: out, Next: next}, nil
}

func (s *MemoryStore) listWorn(ctx context.Context, op, wardrobeID string, kind Kind, opts ListOptions) ([]*record, string, error) {
	if err := validateList(op, wardrobeID, opts); err != nil {
		return nil, "", err
	}
	q, err := statusListQuery(s.t, wardrobeID, kind, opts)
	if err != nil {
		return nil, "", wrap(op, err)
	}
	rs, next, err := s.query(ctx, q, opts.PageOptions)
	return rs, next, wrap(op, err)
}

// query runs one page of a listing on the table or the GSI q names. It
// checks the page options, and then the context, as DynamoStore does
// before its Query.
func (s *MemoryStore) query(ctx context.Context, q ddb.KeyQuery, opts ddbkit.PageOptions) ([]*record, string, error) {
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
	t := s.items
	if q.Index.Name != "" {
		t = s.indexes[q.Index.Name]
	}
	return t.Query(q, limit, opts.Cursor, nil)
}

// UpdateClothing implements ClothingStore.UpdateClothing, which documents its errors.
func (s *MemoryStore) UpdateClothing(ctx context.Context, wardrobeID, clothingID string, patch ClothingPatch) (Clothing, error) {
	const op = "update clothing"
	if err := validateClothingPatch(op, wardrobeID, clothingID, patch); err != nil {
		return Clothing{}, err
	}
	if err := live(ctx, op); err != nil {
		return Clothing{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w, err := s.worn(wardrobeID, KindClothing, clothingID)
	if err != nil {
		return Clothing{}, wrap(op, err)
	}
	if patch.Name != nil {
		w.name = *patch.Name
	}
	if patch.ImageKey != nil {
		w.imageKey = *patch.ImageKey
	}
	return s.o.clothing(w), wrap(op, s.putWorn(w))
}

// DeleteClothing implements ClothingStore.DeleteClothing, which documents its errors.
func (s *MemoryStore) DeleteClothing(ctx context.Context, wardrobeID, clothingID string) (Clothing, error) {
	w, err := s.setStatus(ctx, "delete clothing", wardrobeID, KindClothing, clothingID, StatusDeleted)
	return s.o.clothing(w), err
}

// RestoreClothing implements ClothingStore.RestoreClothing, which documents its errors.
func (s *MemoryStore) RestoreClothing(ctx context.Context, wardrobeID, clothingID string) (Clothing, error) {
	w, err := s.setStatus(ctx, "restore clothing", wardrobeID, KindClothing, clothingID, StatusActive)
	return s.o.clothing(w), err
}

// setStatus deletes or restores a clothing or template; one already in
// that status is returned unchanged.
func (s *MemoryStore) setStatus(ctx context.Context, op, wardrobeID string, kind Kind, id string, to Status) (worn, error) {
	if err := validateRef(op, wardrobeID, kind.idField(), id); err != nil {
		return worn{}, err
	}
	at := s.o.deletedAt(to)
	if err := live(ctx, op); err != nil {
		return worn{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k, err := wornKey(wardrobeID, kind, id)
	if err != nil {
		return worn{}, wrap(op, err)
	}
	rec, ok := s.get(k)
	if !ok || rec.worn == nil {
		return worn{}, wrap(op, errNotFound(kind.noun(), wardrobeID, id))
	}
	if rec.worn.status == to {
		return *rec.worn, nil
	}
	// As putWorn of the item with its new status, and no more: of its
	// index keys only statusListPk changes (keepIndexKeys).
	pk, err := statusListPK(wardrobeID, kind, to)
	if err != nil {
		return worn{}, wrap(op, err)
	}
	w := rec.worn.withStatus(to, at)
	attrs := maps.Clone(rec.attrs)
	attrs[AttrStatusListPK] = ddb.S(pk)
	nw := w
	s.put(&record{attrs: attrs, worn: &nw})
	return w, nil
}

// AddTemplate implements TemplateStore.AddTemplate, which documents its errors.
func (s *MemoryStore) AddTemplate(ctx context.Context, wardrobeID string, in NewTemplate) (Template, error) {
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
func (s *MemoryStore) GetTemplate(ctx context.Context, wardrobeID, templateID string) (Template, error) {
	w, err := s.getWorn(ctx, "get template", wardrobeID, KindTemplate, templateID)
	return s.o.template(w), err
}

// ListTemplates implements TemplateStore.ListTemplates, which documents its errors.
func (s *MemoryStore) ListTemplates(ctx context.Context, wardrobeID string, opts ListOptions) (ddbkit.Page[TemplateSummary], error) {
	const op = "list templates"
	s.mu.RLock()
	defer s.mu.RUnlock()
	rs, next, err := s.listWorn(ctx, op, wardrobeID, KindTemplate, opts)
	if err != nil {
		return ddbkit.Page[TemplateSummary]{}, err
	}
	out := make([]TemplateSummary, len(rs))
	for i, r := range rs {
		w := r.worn
		out[i].Template = s.o.template(*w)
		out[i].Thumbnails, out[i].More = thumbnails(w.clothingIDs, ThumbnailCount, s.thumbnails(wardrobeID, w.clothingIDs, ThumbnailCount))
	}
	return ddbkit.Page[TemplateSummary]{Items: out, Next: next}, nil
}

// thumbnails looks up the first n clothes of ids.
func (s *MemoryStore) thumbnails(wardrobeID string, ids []string, n int) map[string]Thumbnail {
	found := make(map[string]Thumbnail, min(n, len(ids)))
	for _, id := range ids[:min(n, len(ids))] {
		k, err := wornKey(wardrobeID, KindClothing, id)
		if err != nil {
			continue
		}
		if r, ok := s.get(k); ok && r.worn != nil {
			found[id] = r.worn.thumbnail()
		}
	}
	return found
}

// UpdateTemplate implements TemplateStore.UpdateTemplate, which documents its errors.
func (s *MemoryStore) UpdateTemplate(ctx context.Context, wardrobeID, templateID string, patch TemplatePatch) (Template, error) {
	const op = "update template"
	if err := validateTemplatePatch(op, wardrobeID, templateID, patch); err != nil {
		return Template{}, err
	}
	if err := live(ctx, op); err != nil {
		return Template{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w, err := s.worn(wardrobeID, KindTemplate, templateID)
	if err != nil {
		return Template{}, wrap(op, err)
	}
	if patch.ClothingIDs == nil {
		w = w.patched(patch)
		return s.o.template(w), wrap(op, s.putWorn(w))
	}
	// DynamoStore's transaction: the patch, on condition that what the
	// result shows and the patch does not set is as read.
	var name any = patch.Name
	if patch.Name != nil {
		name = *patch.Name
	} else {
		name = []string{"unchanged", w.name}
	}
	replay, commit, err := s.replayed(ctx, op, wardrobeID, func() string {
		return describe(wardrobeID, templateID, name, patch.ClothingIDs,
			w.status, w.st.count, w.st.lastMs, w.createdAt.UnixMilli(), w.deletedAt.UnixMilli(), w.deletedAt.IsZero())
	})
	if err != nil {
		return Template{}, wrap(op, err)
	}
	w = w.patched(patch)
	if replay {
		return s.o.template(w), nil
	}
	refs := outfitRefs("", patch.ClothingIDs)
	if err := s.readRefs(wardrobeID, refs, ""); err != nil {
		return Template{}, wrap(op, err)
	}
	if err := checkWearable(refs); err != nil {
		return Template{}, wrap(op, err)
	}
	if err := s.putWorn(w); err != nil {
		return Template{}, wrap(op, err)
	}
	commit()
	return s.o.template(w), nil
}

// DeleteTemplate implements TemplateStore.DeleteTemplate, which documents its errors.
func (s *MemoryStore) DeleteTemplate(ctx context.Context, wardrobeID, templateID string) (Template, error) {
	w, err := s.setStatus(ctx, "delete template", wardrobeID, KindTemplate, templateID, StatusDeleted)
	return s.o.template(w), err
}

// RestoreTemplate implements TemplateStore.RestoreTemplate, which documents its errors.
func (s *MemoryStore) RestoreTemplate(ctx context.Context, wardrobeID, templateID string) (Template, error) {
	w, err := s.setStatus(ctx, "restore template", wardrobeID, KindTemplate, templateID, StatusActive)
	return s.o.template(w), err
}

// AddHistory implements HistoryStore.AddHistory, which documents its errors.
func (s *MemoryStore) AddHistory(ctx context.Context, wardrobeID string, in NewHistory) (History, error) {
	const op = "add history"
	h, hk, err := s.o.newHistory(op, wardrobeID, in)
	if err != nil {
		return History{}, err
	}
	if err := live(ctx, op); err != nil {
		return History{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.wardrobe(wardrobeID); err != nil {
		return History{}, wrap(op, err)
	}
	refs := outfitRefs(h.TemplateID, h.ClothingIDs)
	if err := s.readRefs(wardrobeID, refs, ""); err != nil {
		return History{}, wrap(op, err)
	}
	if err := checkWearable(refs); err != nil {
		return History{}, wrap(op, err)
	}
	replay, commit, err := s.replayed(ctx, op, wardrobeID, func() string {
		writes := []any{wardrobeID, h.ID, h.Date, h.TemplateID, h.ClothingIDs, h.CreatedAt.UnixMilli()}
		for _, r := range refs {
			writes = append(writes, r.kind, r.id, r.st, s.o.worn(r.st, h.Date))
		}
		return describe(writes...)
	})
	if err != nil {
		return History{}, wrap(op, err)
	}
	if replay {
		return h, nil
	}
	if _, ok := s.get(hk); ok {
		return History{}, wrap(op, errExists("history", h.ID))
	}
	if err := s.putHistory(hk, h); err != nil {
		return History{}, wrap(op, err)
	}
	for _, r := range refs {
		if err := s.wear(wardrobeID, r, h.Date, +1, s.o.worn(r.st, h.Date)); err != nil {
			return History{}, wrap(op, err)
		}
	}
	commit()
	return h, nil
}

func (s *MemoryStore) putHistory(k itemKey, h History) error {
	r, err := historyRecord(k, h)
	if err == nil {
		s.put(r)
	}
	return err
}

// historyRecord is the record of a history, with its key and index
// attributes.
func historyRecord(k itemKey, h History) (*record, error) {
	dsk, err := historyDateSK(h.Date, h.ID)
	if err != nil {
		return nil, err
	}
	attrs := keyAttrs(k)
	attrs[AttrDateSK] = ddb.S(dsk)
	h.ClothingIDs = slices.Clone(h.ClothingIDs) // the caller keeps h
	return &record{attrs: attrs, history: &h}, nil
}

// wear applies the change one history makes to r, as DynamoStore.wear
// writes it.
func (s *MemoryStore) wear(wardrobeID string, r wornRef, d Date, delta int, st stats) error {
	ck, err := counterKey(wardrobeID, r.kind, r.id, d)
	if err != nil {
		return err
	}
	switch {
	case delta > 0:
		n := 1
		if c, ok := s.get(ck); ok {
			n += c.counter.Count
		}
		s.put(&record{attrs: keyAttrs(ck), counter: &DailyWear{Date: d, Count: n}})
	case r.dayCount == 1:
		s.remove(ck.pk, ck.sk)
	case r.dayCount > 1:
		s.put(&record{attrs: keyAttrs(ck), counter: &DailyWear{Date: d, Count: r.dayCount - 1}})
	}
	if !r.found {
		return nil
	}
	k, err := wornKey(wardrobeID, r.kind, r.id)
	if err != nil {
		return err
	}
	rec, ok := s.get(k)
	if !ok || rec.worn == nil {
		return errNotFound(r.kind.noun(), wardrobeID, r.id)
	}
	return s.setStats(rec, st)
}

// setStats sets the statistics of the stored clothing or template rec to
// st, as putWorn of it with st does, and no more: the item's index keys
// but wearCountSk and lastWornAtSk stay as stored (keepIndexKeys), so
// only those two are built and only their GSI entries move.
func (s *MemoryStore) setStats(rec *record, st stats) error {
	if rec.worn.st == st {
		return nil // putWorn would store the same
	}
	w := *rec.worn
	w.st = st
	wear, lastWorn, err := statsKeys(w.kind, w.id, st)
	if err != nil {
		return err
	}
	attrs := maps.Clone(rec.attrs)
	attrs[AttrWearCountSK], attrs[AttrLastWornAtSK] = ddb.S(wear), ddb.S(lastWorn)
	s.put(&record{attrs: attrs, worn: &w})
	return nil
}

// GetHistory implements HistoryStore.GetHistory, which documents its errors.
func (s *MemoryStore) GetHistory(ctx context.Context, wardrobeID, historyID string) (HistoryDetail, error) {
	const op = "get history"
	if err := validateRef(op, wardrobeID, "HistoryID", historyID); err != nil {
		return HistoryDetail{}, err
	}
	if err := live(ctx, op); err != nil {
		return HistoryDetail{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	h, err := s.history(wardrobeID, historyID)
	if err != nil {
		return HistoryDetail{}, wrap(op, err)
	}
	n := len(h.ClothingIDs)
	d := HistoryDetail{History: h}
	d.Clothes, _ = thumbnails(h.ClothingIDs, n, s.thumbnails(wardrobeID, h.ClothingIDs, n))
	return d, nil
}

func (s *MemoryStore) history(wardrobeID, historyID string) (History, error) {
	k, err := historyKey(wardrobeID, historyID)
	if err != nil {
		return History{}, err
	}
	r, ok := s.get(k)
	if !ok {
		return History{}, errNotFound("history", wardrobeID, historyID)
	}
	h := *r.history
	h.ClothingIDs = append([]string(nil), h.ClothingIDs...)
	return h, nil
}

// ListHistory implements HistoryStore.ListHistory, which documents its errors.
func (s *MemoryStore) ListHistory(ctx context.Context, wardrobeID string, hq HistoryQuery) (ddbkit.Page[HistorySummary], error) {
	const op = "list history"
	if err := validateHistoryQuery(op, wardrobeID, hq); err != nil {
		return ddbkit.Page[HistorySummary]{}, err
	}
	q, err := historyQuery(s.t, wardrobeID, hq)
	if err != nil {
		return ddbkit.Page[HistorySummary]{}, wrap(op, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	rs, next, err := s.query(ctx, q, hq.PageOptions)
	if err != nil {
		return ddbkit.Page[HistorySummary]{}, wrap(op, err)
	}
	out := make([]HistorySummary, len(rs))
	for i, r := range rs {
		h := *r.history
		h.ClothingIDs = append([]string(nil), h.ClothingIDs...)
		out[i].History = h
		out[i].Thumbnails, out[i].More = thumbnails(h.ClothingIDs, ThumbnailCount, s.thumbnails(wardrobeID, h.ClothingIDs, ThumbnailCount))
	}
	return ddbkit.Page[HistorySummary]{Items: out, Next: next}, nil
}

// DeleteHistory implements HistoryStore.DeleteHistory, which documents its errors.
func (s *MemoryStore) DeleteHistory(ctx context.Context, wardrobeID, historyID string) error {
	const op = "delete history"
	if err := validateRef(op, wardrobeID, "HistoryID", historyID); err != nil {
		return err
	}
	if err := live(ctx, op); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h, err := s.history(wardrobeID, historyID)
	if err != nil {
		return wrap(op, err)
	}
	refs := outfitRefs(h.TemplateID, h.ClothingIDs)
	if err := s.readRefs(wardrobeID, refs, h.Date); err != nil {
		return wrap(op, err)
	}
	hk, err := historyKey(wardrobeID, historyID)
	if err != nil {
		return wrap(op, err)
	}
	sts := make([]stats, len(refs))
	writes := []any{wardrobeID, historyID}
	for i, r := range refs {
		st, again := s.o.unworn(r.st, h.Date, r.dayCount)
		if again && r.found {
			if st.lastMs, err = s.latestBefore(wardrobeID, r, h.Date); err != nil {
				return wrap(op, err)
			}
		}
		sts[i] = st
		writes = append(writes, r.kind, r.id, r.found, r.st, st, r.dayCount)
	}
	replay, commit, err := s.replayed(ctx, op, wardrobeID, func() string { return describe(writes...) })
	if err != nil || replay {
		return wrap(op, err)
	}
	s.remove(hk.pk, hk.sk)
	for i, r := range refs {
		if err := s.wear(wardrobeID, r, h.Date, -1, sts[i]); err != nil {
			return wrap(op, err)
		}
	}
	commit()
	return nil
}

// latestBefore is DynamoStore.latestBefore on the stored counters: the
// same filtered pages, within the same budget.
func (s *MemoryStore) latestBefore(wardrobeID string, r wornRef, d Date) (int64, error) {
	q, err := latestQuery(s.t, wardrobeID, r.kind, r.id, d, s.o.FilterBudget)
	if err != nil {
		return 0, err
	}
	for cursor := ""; ; {
		rs, next, err := s.latestPage(q, cursor)
		if err != nil {
			return 0, err
		}
		if len(rs) > 0 {
			return s.o.dayMs(rs[0].counter.Date), nil
		}
		if next == "" {
			return 0, nil
		}
		cursor = next
	}
}

// latestPage is DynamoStore.latestPage.
func (s *MemoryStore) latestPage(q ddb.KeyQuery, cursor string) ([]*record, string, error) {
	return s.items.Query(q, 1, cursor, hasWear)
}

// hasWear is latestFilter: a counter that holds a wear.
func hasWear(r *record) bool { return r.counter != nil && r.counter.Count > 0 }

// ListDailyWear implements StatsStore.ListDailyWear, which documents its errors.
func (s *MemoryStore) ListDailyWear(ctx context.Context, wardrobeID string, kind Kind, id string, dq DailyQuery) (ddbkit.Page[DailyWear], error) {
	const op = "list daily wear"
	if err := validateDailyQuery(op, wardrobeID, kind, id, dq); err != nil {
		return ddbkit.Page[DailyWear]{}, err
	}
	q, err := dailyQuery(s.t, wardrobeID, kind, id, dq)
	if err != nil {
		return ddbkit.Page[DailyWear]{}, wrap(op, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	rs, next, err := s.query(ctx, q, dq.PageOptions)
	if err != nil {
		return ddbkit.Page[DailyWear]{}, wrap(op, err)
	}
	out := make([]DailyWear, len(rs))
	for i, r := range rs {
		out[i] = *r.counter
	}
	return ddbkit.Page[DailyWear]{Items: out, Next: next}, nil
}

// RecalculateStats implements StatsStore.RecalculateStats, which documents its errors.
func (s *MemoryStore) RecalculateStats(ctx context.Context, wardrobeID string) (StatsReport, error) {
	const op = "recalculate stats"
	if err := validateWardrobeID(op, wardrobeID); err != nil {
		return StatsReport{}, err
	}
	if err := live(ctx, op); err != nil {
		return StatsReport{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.wardrobe(wardrobeID); err != nil {
		return StatsReport{}, wrap(op, err)
	}
	var rep StatsReport
	for _, kind := range []Kind{KindClothing, KindTemplate} {
		pk, err := wardrobePK(wardrobeID, keys.Lit(string(kind)))
		if err != nil {
			return StatsReport{}, wrap(op, err)
		}
		for _, r := range s.items.Partition(pk) {
			w := *r.worn
			rep.Checked++
			cpk, err := counterPK(wardrobeID, w.kind, w.id)
			if err != nil {
				return StatsReport{}, wrap(op, err)
			}
			var counters []DailyWear
			for _, c := range s.items.Partition(cpk) {
				counters = append(counters, *c.counter)
			}
			if st, d, drifted := s.o.recalculated(w, counters); drifted {
				rep.Drifts = append(rep.Drifts, d)
				w.st = st
				if err := s.putWorn(w); err != nil {
					return StatsReport{}, wrap(op, err)
				}
			}
		}
	}
	return rep, nil
}
