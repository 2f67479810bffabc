package kondate

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// CatalogKind is what a catalog entry, a saved item or a share link
// points at: a recipe or a set.
type CatalogKind string

// The two kinds, as the keys spell them.
const (
	KindRecipe CatalogKind = "RECIPE"
	KindSet    CatalogKind = "SET"
)

// CatalogEntry is a recipe or set published to the public catalog: a
// snapshot of the creator's item as it was when published (see the
// package doc), with the number of users who saved it.
type CatalogEntry struct {
	Kind        CatalogKind  `json:"entityType"`
	ID          string       `json:"id"`        // the recipe's or set's ID
	CreatorID   string       `json:"creatorId"` // the user who published it
	Title       string       `json:"title"`
	Tags        []string     `json:"tags,omitempty"`
	Ingredients []Ingredient `json:"ingredients,omitempty"` // recipes
	Steps       []string     `json:"steps,omitempty"`       // recipes
	Origin      string       `json:"origin,omitempty"`      // recipes
	Items       []SetItem    `json:"items,omitempty"`       // sets
	SavedCount  int64        `json:"savedCount"`
	CreatedAt   time.Time    `json:"createdAt"` // when it was published: the catalog's "newest" order
}

// CatalogQuery selects and pages a catalog list; like the other domains'
// <X>Query types, it embeds ddbkit.PageOptions. A Tag keeps only the
// entries with that tag; the list then reads on until the page is full,
// the list ends, or it has evaluated Options.FilterBudget entries: a
// filtered page may be short, or empty, with a Next cursor to page on with
// (see the package doc, "Search").
type CatalogQuery struct {
	ddbkit.PageOptions
	Tag string
}

// CatalogPageOptions is CatalogQuery's former name.
//
// Deprecated: use CatalogQuery.
type CatalogPageOptions = CatalogQuery

// SavedEntry is a catalog entry a user saved, the SAVED#<kind>#<id> item.
type SavedEntry struct {
	UserID    string      `json:"userId"`
	Kind      CatalogKind `json:"entityType"`
	ID        string      `json:"id"`
	CreatorID string      `json:"creatorId"`
	Title     string      `json:"title"` // the entry's title when it was saved
	SavedAt   time.Time   `json:"savedAt"`
}

// PopularityDrift is a catalog entry whose stored savedCount differed from
// the number of its saved items RecalculatePopularity counted. It fixed
// the count if Counted > Stored, or if Options.SavesIndexed is set.
type PopularityDrift struct {
	Kind    CatalogKind `json:"entityType"`
	ID      string      `json:"id"`
	Stored  int64       `json:"stored"`  // savedCount before the fix
	Counted int64       `json:"counted"` // saved items counted, now stored
}

// PopularityReport is what RecalculatePopularity checked, repaired and
// skipped, in the report shape every domain's repairs share: Checked counts
// the catalog entries it decoded; Drifts are those whose savedCount
// differed, in the order it read them (shard 0 first, each partition in
// sort key order); Skipped holds one error (matching
// ddbkit.ErrCorruptItem and naming the item's key) per catalog entry it
// could not read, when listed or when read again to be recounted, and such
// an entry is neither checked nor repaired.
type PopularityReport = ddbkit.RepairReport[PopularityDrift]

// CatalogStore stores the public catalog and users' saved entries. The
// lookups by ID need GSI1 and the popular list GSI2: without the index
// enabled in Options they fail with ErrSchemaMismatch before any call.
// Newest and by creator read GSI2 and GSI3 once Options enables them, and
// the base table before (the seed's staged rollout, section 10), in the
// same order; a cursor is bound to where its list read, so a cursor issued
// before the switch fails with ErrInvalidCursor after it (page again from
// the start). GSIs, and the base table as the lists read it, are
// eventually consistent on DynamoDB: an entry published or saved a moment
// ago may not be listed or found by ID yet.
type CatalogStore interface {
	// Publish publishes the user's recipe or set to the catalog, in one
	// transaction: the catalog item, the creator's copy, and publishedAt
	// on the user's item, conditioned on the item as read. An entry is
	// published already if the user's item has publishedAt, or if the
	// catalog has an entry of that ID (one Query of GSI1, when enabled:
	// another writer, such as the seed's app, publishes without
	// publishedAt). It returns ErrNotFound if the user has no such item,
	// ErrAlreadyExists if it is published already, and ErrConflict if it
	// kept changing through the retries.
	Publish(ctx context.Context, userID string, kind CatalogKind, id string) (CatalogEntry, error)
	// Unpublish removes the entry from the catalog, in one transaction
	// with its creator's copy and the user's publishedAt. Users' saved
	// items stay. A user's item marked published whose catalog item is
	// gone (another writer deleted it) has its mark cleared, and Unpublish
	// succeeds. It returns ErrNotFound if the user has no such entry in
	// the catalog, and ErrConflict as Publish does.
	Unpublish(ctx context.Context, userID string, kind CatalogKind, id string) error
	// GetCatalogEntry returns an entry by its ID: one Query of GSI1
	// (ENTITY#<kind>#<id> / PUBLIC#), eventually consistent as the lists
	// are. It returns ErrNotFound.
	GetCatalogEntry(ctx context.Context, kind CatalogKind, id string) (CatalogEntry, error)
	// ListCatalogNewest lists the catalog's entries most recently
	// published first: one Query per page, of GSI2 or, while
	// Options.EnableGSI2 is off, of CATALOG#<kind>; with
	// Options.CatalogShards = N, N Queries (one per shard) merged in the
	// same order, under one cursor (see "Sharded catalog" in the package
	// doc). Filtered by a tag, a
	// page makes as many Queries as its FilterBudget allows, and may be
	// short or empty with a Next cursor (see CatalogQuery); so may
	// the other two lists.
	ListCatalogNewest(ctx context.Context, kind CatalogKind, q CatalogQuery) (ddbkit.Page[CatalogEntry], error)
	// ListCatalogPopular lists the entries most saved first (ties: newest
	// ID first): one Query of GSI2 per page, or N merged as
	// ListCatalogNewest's with Options.CatalogShards = N.
	ListCatalogPopular(ctx context.Context, kind CatalogKind, q CatalogQuery) (ddbkit.Page[CatalogEntry], error)
	// ListCatalogByCreator lists a creator's entries most recently
	// published first: one Query per page, of GSI3 or, while
	// Options.EnableGSI3 is off, of CREATOR#<creatorId>.
	ListCatalogByCreator(ctx context.Context, creatorID string, kind CatalogKind, q CatalogQuery) (ddbkit.Page[CatalogEntry], error)
	// SaveCatalogEntry saves the entry for the user, and in the same
	// transaction increments its savedCount and moves its popular-order
	// key. Saving it again is a no-op that returns the first save. It
	// returns ErrNotFound if the entry is not in the catalog, and
	// ErrConflict if the entry kept changing through the retries.
	SaveCatalogEntry(ctx context.Context, userID string, kind CatalogKind, id string) (SavedEntry, error)
	// UnsaveCatalogEntry is SaveCatalogEntry's reverse. Unsaving an entry
	// the user has not saved is a no-op; an entry no longer in the catalog
	// is just removed from the user's saved items. It returns ErrConflict
	// as SaveCatalogEntry does.
	UnsaveCatalogEntry(ctx context.Context, userID string, kind CatalogKind, id string) error
	// ListSaved lists the user's saved entries of kind, newest entry ID
	// first: one Query per page.
	ListSaved(ctx context.Context, userID string, kind CatalogKind, opts ddbkit.PageOptions) (ddbkit.Page[SavedEntry], error)
	// RecalculatePopularity counts the saved items of every entry of kind
	// through GSI1 and returns every entry whose savedCount differs. A
	// count below the saves it found is rewritten (with its popular-order
	// key); a count above them is rewritten only with
	// Options.SavesIndexed, and otherwise only reported: saves written
	// without GSI1 keys (the seed's app writes none) are not counted, and
	// a recount never lowers a count from data it cannot see. A catalog
	// entry it cannot read is left as it is and reported in
	// PopularityReport.Skipped, never dropped without a word. It returns
	// ErrConflict if an entry kept changing through the retries, with the
	// report so far: the drifts it already repaired.
	RecalculatePopularity(ctx context.Context, kind CatalogKind) (PopularityReport, error)
}

// The catalog's keys (sections 4.2 and 5).
const (
	catalogPrefix   = "CATALOG#"
	skCreated       = "CREATED#"
	creatorPrefix   = "CREATOR#"
	skCatalogCopy   = "CATALOG_"
	skSaved         = "SAVED#"
	gsi1Public      = "PUBLIC#"
	gsi1Saved       = "SAVED#"
	gsi2Newest      = "SORT#NEWEST#"
	gsi2Popular     = "SORT#POPULAR#"
	attrPublishedAt = "publishedAt"
	attrSavedCount  = "savedCount"
)

func catalogKey(kind CatalogKind, at time.Time, id string) itemKey {
	return itemKey{PK: catalogPrefix + string(kind), SK: skCreated + keyTime(at) + "#" + id}
}

func creatorCopyKey(creatorID string, kind CatalogKind, at time.Time, id string) itemKey {
	return itemKey{PK: creatorPrefix + creatorID, SK: skCatalogCopy + string(kind) + "#" + keyTime(at) + "#" + id}
}

// copyKeyOf is the key of the creator's copy of the catalog item at k:
// the time and ID of k's sort key, as written (in another writer's time
// format, say), after CATALOG_<kind>#.
func copyKeyOf(creatorID string, kind CatalogKind, k itemKey) itemKey {
	rest, _ := strings.CutPrefix(k.SK, skCreated)
	return itemKey{PK: creatorPrefix + creatorID, SK: skCatalogCopy + string(kind) + "#" + rest}
}

// popularSK is the popular-order key: the count in ten digits, so the
// string order is the numeric order up to 9,999,999,999 saves.
func popularSK(count int64, id string) string {
	return fmt.Sprintf("%s%010d#%s", gsi2Popular, count, id)
}

func savedSK(kind CatalogKind, id string) string { return skSaved + string(kind) + "#" + id }

// ownerSK is the sort key of the user's own recipe or set.
func ownerSK(kind CatalogKind, id string) string {
	if kind == KindSet {
		return skSet + id
	}
	return skRecipe + id
}

// catalogItem is both items of an entry: the catalog item (PK =
// CATALOG#<kind>, GSI1 PUBLIC#, GSI2 SORT#NEWEST#) and the creator's copy
// (PK = CREATOR#<creatorId>, GSI2 SORT#POPULAR#, GSI3).
type catalogItem struct {
	keyAttrs
	GSI1PK      string       `dynamodbav:"GSI1PK,omitempty"`
	GSI1SK      string       `dynamodbav:"GSI1SK,omitempty"`
	GSI2PK      string       `dynamodbav:"GSI2PK"`
	GSI2SK      string       `dynamodbav:"GSI2SK"`
	GSI3PK      string       `dynamodbav:"GSI3PK,omitempty"`
	GSI3SK      string       `dynamodbav:"GSI3SK,omitempty"`
	EntityType  string       `dynamodbav:"entityType"`
	CreatorID   string       `dynamodbav:"creatorId"`
	Title       string       `dynamodbav:"title"`
	Tags        []string     `dynamodbav:"tags"`
	Ingredients []Ingredient `dynamodbav:"ingredients,omitempty"`
	Steps       []string     `dynamodbav:"steps,omitempty"`
	Origin      string       `dynamodbav:"origin,omitempty"`
	Items       []SetItem    `dynamodbav:"items,omitempty"`
	SavedCount  int64        `dynamodbav:"savedCount"`
	CreatedAt   string       `dynamodbav:"createdAt"`
}

type savedItem struct {
	keyAttrs
	gsi1Attrs
	EntityType string `dynamodbav:"entityType"`
	CreatorID  string `dynamodbav:"creatorId"`
	Title      string `dynamodbav:"title"`
	SavedAt    string `dynamodbav:"savedAt"`
}

// entryItems returns the catalog item and the creator's copy of e, the
// catalog item in partition part (CATALOG#<kind>, or a shard's), which is
// both items' GSI2PK.
func entryItems(e CatalogEntry, part string) (cat, cp ddb.Item, err error) {
	kind := string(e.Kind)
	base := catalogItem{EntityType: kind, CreatorID: e.CreatorID, Title: e.Title, Tags: list(e.Tags),
		Ingredients: e.Ingredients, Steps: e.Steps, Origin: e.Origin, Items: e.Items,
		SavedCount: e.SavedCount, CreatedAt: ts(e.CreatedAt), GSI2PK: part}
	ck, pk := catalogKey(e.Kind, e.CreatedAt, e.ID), creatorCopyKey(e.CreatorID, e.Kind, e.CreatedAt, e.ID)
	ck.PK = part
	c, p := base, base
	c.keyAttrs = keyAttrs{ck.PK, ck.SK}
	c.GSI1PK, c.GSI1SK = gsi1PK(kind, e.ID), gsi1Public
	c.GSI2SK = gsi2Newest + keyTime(e.CreatedAt) + "#" + e.ID
	p.keyAttrs = keyAttrs{pk.PK, pk.SK}
	p.GSI2SK = popularSK(e.SavedCount, e.ID)
	p.GSI3PK, p.GSI3SK = creatorPrefix+e.CreatorID+"#"+kind, skCreated+keyTime(e.CreatedAt)+"#"+e.ID
	if cat, err = marshal(c); err != nil {
		return nil, nil, err
	}
	cp, err = marshal(p)
	return cat, cp, err
}

// decodeCatalog reads either item of an entry. The kind, ID, creator and
// time come from the keys where the attributes are missing.
func decodeCatalog(t ddb.Table, item ddb.Item) (CatalogEntry, error) {
	d := decoder{t: t, item: item}
	var it catalogItem
	unmarshal(&d, &it)
	var kind, creator, rest string
	if k, ok := strings.CutPrefix(it.PK, catalogPrefix); ok {
		kind = kindOfCatalogPK(k)
		rest, _ = strings.CutPrefix(it.SK, skCreated)
	} else if c, ok := strings.CutPrefix(it.PK, creatorPrefix); ok {
		creator = c
		r, _ := strings.CutPrefix(it.SK, skCatalogCopy)
		kind, rest, _ = strings.Cut(r, "#")
	}
	if it.EntityType != "" {
		kind = it.EntityType
	}
	if it.CreatorID != "" {
		creator = it.CreatorID
	}
	i := strings.LastIndexByte(rest, '#')
	if (kind != string(KindRecipe) && kind != string(KindSet)) || i < 0 || rest[i+1:] == "" {
		d.fail(AttrSK, "want a catalog item (CATALOG#<kind> / CREATED#<createdAt>#<id>) or a creator's copy, got %q / %q", it.PK, it.SK)
		return CatalogEntry{}, d.err
	}
	at := it.CreatedAt
	if at == "" {
		at = rest[:i]
	}
	e := CatalogEntry{Kind: CatalogKind(kind), ID: rest[i+1:], CreatorID: creator, Title: it.Title, Tags: orNil(it.Tags),
		Ingredients: orNil(it.Ingredients), Steps: orNil(it.Steps), Origin: it.Origin, Items: orNil(it.Items),
		SavedCount: it.SavedCount, CreatedAt: d.time(attrCreatedAt, at)}
	return e, d.err
}

func decodeSaved(t ddb.Table, item ddb.Item) (SavedEntry, error) {
	d := decoder{t: t, item: item}
	var it savedItem
	unmarshal(&d, &it)
	rest, _ := strings.CutPrefix(it.SK, skSaved)
	kind, _, _ := strings.Cut(rest, "#")
	s := SavedEntry{UserID: d.user(it.PK), Kind: CatalogKind(kind), ID: d.id(it.SK, skSaved), CreatorID: it.CreatorID,
		Title: it.Title, SavedAt: d.time("savedAt", it.SavedAt)}
	return s, d.err
}

func (v *validator) kind(k CatalogKind) {
	if k != KindRecipe && k != KindSet {
		v.Fail("Kind", "must be RECIPE or SET, got %q", k)
	}
}

func errNotInCatalog(kind CatalogKind, id string) error {
	return fmt.Errorf("catalog %s %q: %w", strings.ToLower(string(kind)), id, ddbkit.ErrNotFound)
}

// Transaction labels of the catalog's writes.
const (
	labelCatalog = "catalog"
	labelCopy    = "creator copy"
	labelSaved   = "saved"
)

// Publish implements CatalogStore.Publish, which documents its errors.
func (c *core) Publish(ctx context.Context, userID string, kind CatalogKind, id string) (_ CatalogEntry, err error) {
	ctx, sp := c.start(ctx, "Publish")
	defer sp.End(&err)
	k := keying(c, "publish", userPK(userID), []any{kind, id}, decodeCatalog, errNotInCatalog(kind, id))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (CatalogEntry, error) {
		const op = "publish"
		if err := check(c.shards, func(v *validator) { v.user(userID); v.kind(kind); v.ID("ID", id, MaxIDLen) }); err != nil {
			return CatalogEntry{}, wrap(op, err)
		}
		if err := c.shardedIndex(); err != nil {
			return CatalogEntry{}, wrap(op, err)
		}
		ownerKey := key(userID, ownerSK(kind, id))
		notFound := errNotFound(strings.ToLower(string(kind)), userID, id)
		var e CatalogEntry
		err := c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
			src, err := c.b.Get(ctx, c.t, ownerKey)
			if err != nil {
				return err
			}
			if src == nil {
				return notFound
			}
			if at, ok := backend.Str(src, attrPublishedAt); ok {
				return fmt.Errorf("%s %q of user %q: %w: published at %s", strings.ToLower(string(kind)), id, userID, ddbkit.ErrAlreadyExists, at)
			}
			if err := c.publishedElsewhere(ctx, kind, id); err != nil {
				return err
			}
			now := c.o.now()
			e = CatalogEntry{Kind: kind, ID: id, CreatorID: userID, CreatedAt: now}
			if kind == KindSet {
				s, err := decodeSet(c.t, src)
				if err != nil {
					return err
				}
				e.Title, e.Tags, e.Items = s.Title, s.Tags, s.Items
			} else {
				r, err := decodeRecipe(c.t, src)
				if err != nil {
					return err
				}
				e.Title, e.Tags, e.Ingredients, e.Steps, e.Origin = r.Title, r.Tags, r.Ingredients, r.Steps, r.Origin
			}
			cat, cp, err := entryItems(e, c.catalogPK(kind, id))
			if err != nil {
				return err
			}
			owner := maps.Clone(src)
			owner[attrPublishedAt] = ddb.S(ts(now))
			err = c.tx(ctx, r, catalogSize, []backend.Write{
				backend.PutNew(labelCatalog, c.t, cat), // first: the item a keyed repeat replays
				backend.PutNew(labelCopy, c.t, cp),
				backend.Replace(labelSource, c.t, owner, scalars(src)),
			})
			if old, ok := backend.Failed(err, labelSource); ok {
				if old == nil {
					return notFound
				}
				return backend.Changed("%s %q changed while it was being published", strings.ToLower(string(kind)), id)
			}
			if _, ok := backend.Failed(err, ""); ok {
				return backend.Changed("%s %q was published at %s already", strings.ToLower(string(kind)), id, ts(now))
			}
			return err
		})
		if err != nil {
			return CatalogEntry{}, wrap(op, err)
		}
		return e, nil
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// publishedElsewhere refuses to publish an entry the catalog holds though
// the user's item has no publishedAt: another writer (the seed's app)
// published it, marking only the catalog item. The catalog item's key
// holds its publishing time, so the seed's layout addresses it by ID only
// through GSI1 (ENTITY#<kind>#<id> / PUBLIC#): one Query, eventually
// consistent, so an entry another writer published a moment before may
// not be seen yet. Without GSI1 only publishedAt is seen.
func (c *core) publishedElsewhere(ctx context.Context, kind CatalogKind, id string) error {
	if !c.o.EnableGSI1 {
		return nil
	}
	hit, err := c.publicHit(ctx, kind, id)
	if err != nil || hit == nil {
		return err
	}
	e, err := decodeCatalog(c.t, hit)
	if err != nil {
		return err
	}
	return fmt.Errorf("catalog %s %q: %w: published by %q at %s", strings.ToLower(string(kind)), id, ddbkit.ErrAlreadyExists, e.CreatorID, ts(e.CreatedAt))
}

// publicEntry finds the catalog item of an entry through GSI1, then reads
// it consistently; nil when the entry is not in the catalog. The writes of
// an entry (save, unsave, unpublish) condition on the item as read, so
// they read it strongly consistent.
func (c *core) publicEntry(ctx context.Context, kind CatalogKind, id string) (ddb.Item, error) {
	hit, err := c.publicHit(ctx, kind, id)
	if err != nil || hit == nil {
		return nil, err
	}
	return c.b.Get(ctx, c.t, backend.KeyOf(c.t, hit))
}

// publicHit returns the catalog item of an entry as GSI1 holds it (all
// attributes: the index projects them), or nil. Displaying an entry (the
// detail, a share link's target) reads it so, eventually consistent, as
// the catalog's lists are: the Query is the whole read, with no GetItem
// after it.
func (c *core) publicHit(ctx context.Context, kind CatalogKind, id string) (ddb.Item, error) {
	if err := c.o.index(indexGSI1); err != nil {
		return nil, err
	}
	q := ddb.KeyQuery{Table: c.t, Index: indexGSI1, PartitionValue: gsi1PK(string(kind), id), Sort: ddb.SortEq(gsi1Public)}
	hits, _, err := c.b.Query(ctx, q, 1, "", backend.Filter{})
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	return hits[0], nil
}

// Unpublish implements CatalogStore.Unpublish, which documents its errors.
func (c *core) Unpublish(ctx context.Context, userID string, kind CatalogKind, id string) (err error) {
	ctx, sp := c.start(ctx, "Unpublish")
	defer sp.End(&err)
	k := committed(keying[struct{}](c, "unpublish", userPK(userID), []any{kind, id}, nil, nil))
	_, err = backend.Keyed(ctx, k, noResult(func(ctx context.Context) error {
		const op = "unpublish"
		if err := check(c.shards, func(v *validator) { v.user(userID); v.kind(kind); v.ID("ID", id, MaxIDLen) }); err != nil {
			return wrap(op, err)
		}
		if err := c.shardedIndex(); err != nil {
			return wrap(op, err)
		}
		ownerKey := key(userID, ownerSK(kind, id))
		notFound := fmt.Errorf("%s %q of user %q in the catalog: %w", strings.ToLower(string(kind)), id, userID, ddbkit.ErrNotFound)
		// gone: the user's item is marked published, but no catalog item is
		// at the key the mark gives (another writer deleted it, or wrote it
		// under another time format): the entry is then looked up by ID, and
		// if there is none, the mark alone is cleared.
		gone := false
		err := c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
			src, err := c.b.Get(ctx, c.t, ownerKey)
			if err != nil {
				return err
			}
			var at time.Time
			s, marked := backend.Str(src, attrPublishedAt)
			if marked {
				if at, err = keys.ParseTime(s); err != nil {
					return ddb.Corrupt(c.t, src, attrPublishedAt, "want an ISO 8601 time, got %q", s)
				}
			}
			// cat is the catalog item's key, none when there is none to delete.
			var cat *itemKey
			if marked && !gone {
				k := c.catalogKeyAt(kind, at, id)
				cat = &k
			} else {
				// The user's item is gone, or another writer published it, or
				// the mark's key is gone: the entry is found by ID, and must
				// be the user's.
				item, err := c.publicEntry(ctx, kind, id)
				if err != nil {
					return err
				}
				if item != nil {
					e, err := decodeCatalog(c.t, item)
					if err != nil {
						return err
					}
					if e.CreatorID == userID {
						k := backend.KeyOf(c.t, item)
						cat = &k
					}
				}
				if cat == nil && !marked {
					return notFound
				}
			}
			copyKey := creatorCopyKey(userID, kind, at, id)
			if cat != nil {
				copyKey = copyKeyOf(userID, kind, *cat)
			}
			// The copy goes whether or not it is there: an entry whose copy
			// another writer lost must still be unpublished.
			ws := []backend.Write{backend.Remove(labelCopy, c.t, copyKey)}
			if cat != nil {
				ws = append(ws, backend.Delete(labelCatalog, c.t, *cat, nil))
			}
			if src != nil {
				owner := maps.Clone(src)
				delete(owner, attrPublishedAt)
				ws = append(ws, backend.Replace(labelSource, c.t, owner, scalars(src)))
			}
			err = c.tx(ctx, r, catalogSize, ws)
			if old, ok := backend.Failed(err, labelSource); ok && old != nil {
				return backend.Changed("%s %q changed while it was being unpublished", strings.ToLower(string(kind)), id)
			}
			if old, ok := backend.Failed(err, labelCatalog); ok && old == nil && marked && !gone {
				gone = true
				return backend.Changed("catalog %s %q is gone; clearing publishedAt", strings.ToLower(string(kind)), id)
			}
			if _, ok := backend.Failed(err, ""); ok {
				return notFound
			}
			return err
		})
		return wrap(op, err)
	}))
	return wrapOnce(k.Scope.Op, err)
}

// GetCatalogEntry implements CatalogStore.GetCatalogEntry, which documents its errors.
func (c *core) GetCatalogEntry(ctx context.Context, kind CatalogKind, id string) (_ CatalogEntry, err error) {
	ctx, sp := c.start(ctx, "GetCatalogEntry")
	defer sp.End(&err)
	const op = "get catalog entry"
	if err := check(c.shards, func(v *validator) { v.kind(kind); v.ID("ID", id, MaxIDLen) }); err != nil {
		return CatalogEntry{}, wrap(op, err)
	}
	item, err := c.publicHit(ctx, kind, id)
	if err != nil {
		return CatalogEntry{}, wrap(op, err)
	}
	if item == nil {
		return CatalogEntry{}, wrap(op, errNotInCatalog(kind, id))
	}
	e, err := decodeCatalog(c.t, item)
	return e, wrap(op, err)
}

// catalogRoute is where a catalog list reads: an index, or the base table
// (the zero Index), its partition and the prefix of its sort keys.
type catalogRoute struct {
	ix     ddb.Index
	pv     string
	prefix string
	// list names a list of the whole catalog of a kind (newest, popular),
	// which a sharded catalog merges from its shards; "" for by creator.
	list string
}

// newestRoute reads GSI2 once the options enable it, and before that the
// base table's CATALOG#<kind> / CREATED#<createdAt>#<id>, whose sort keys
// end as the GSI2 keys do (SORT#NEWEST#<createdAt>#<id>), so both give
// the same order.
func (c *core) newestRoute(kind CatalogKind) catalogRoute {
	if c.o.EnableGSI2 {
		return catalogRoute{indexGSI2, catalogPrefix + string(kind), gsi2Newest, "newest"}
	}
	return catalogRoute{ddb.Index{}, catalogPrefix + string(kind), skCreated, "newest"}
}

// creatorRoute reads GSI3 once the options enable it, and before that the
// creator's copies in the base table, CREATOR#<creatorId> /
// CATALOG_<kind>#<createdAt>#<id>: the same order as GSI3's
// CREATED#<createdAt>#<id>.
func (c *core) creatorRoute(creatorID string, kind CatalogKind) catalogRoute {
	if c.o.EnableGSI3 {
		return catalogRoute{indexGSI3, creatorPrefix + creatorID + "#" + string(kind), skCreated, ""}
	}
	return catalogRoute{ddb.Index{}, creatorPrefix + creatorID, skCatalogCopy + string(kind) + "#", ""}
}

func (c *core) listCatalog(ctx context.Context, op string, kind CatalogKind, creatorID *string, rt catalogRoute, opts CatalogQuery) (ddbkit.Page[CatalogEntry], error) {
	err := check(c.shards, func(v *validator) {
		if creatorID != nil {
			v.ID("CreatorID", *creatorID, MaxIDLen)
		}
		v.kind(kind)
		if opts.Tag != "" {
			v.Line("Tag", opts.Tag, true, MaxTagLen)
		}
	})
	if err != nil {
		return ddbkit.Page[CatalogEntry]{}, wrap(op, err)
	}
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[CatalogEntry]{}, wrap(op, err)
	}
	if rt.ix.Name != "" {
		if err := c.o.index(rt.ix); err != nil {
			return ddbkit.Page[CatalogEntry]{}, wrap(op, err)
		}
	}
	var f backend.Filter
	if opts.Tag != "" {
		f = backend.Contains("tags", opts.Tag)
	}
	if c.o.catalogShards() >= 2 && rt.list != "" {
		return c.listMerged(ctx, op, rt.list, kind, rt, limit, opts, f)
	}
	// The base table is read eventually consistent, as the indexes are:
	// the same guarantee, at the same cost.
	q := ddb.KeyQuery{Table: c.t, Index: rt.ix, PartitionValue: rt.pv, Sort: ddb.SortBeginsWith(rt.prefix), Descending: true}
	return listFiltered(ctx, c, op, opts.PageOptions, q, f, catalogDecoder)
}

// ListCatalogNewest implements CatalogStore.ListCatalogNewest, which documents its errors.
func (c *core) ListCatalogNewest(ctx context.Context, kind CatalogKind, opts CatalogQuery) (_ ddbkit.Page[CatalogEntry], err error) {
	ctx, sp := c.start(ctx, "ListCatalogNewest")
	defer sp.End(&err)
	return c.listCatalog(ctx, "list catalog newest", kind, nil, c.newestRoute(kind), opts)
}

// ListCatalogPopular implements CatalogStore.ListCatalogPopular, which documents its errors.
func (c *core) ListCatalogPopular(ctx context.Context, kind CatalogKind, opts CatalogQuery) (_ ddbkit.Page[CatalogEntry], err error) {
	ctx, sp := c.start(ctx, "ListCatalogPopular")
	defer sp.End(&err)
	return c.listCatalog(ctx, "list catalog popular", kind, nil, catalogRoute{indexGSI2, catalogPrefix + string(kind), gsi2Popular, "popular"}, opts)
}

// ListCatalogByCreator implements CatalogStore.ListCatalogByCreator, which documents its errors.
func (c *core) ListCatalogByCreator(ctx context.Context, creatorID string, kind CatalogKind, opts CatalogQuery) (_ ddbkit.Page[CatalogEntry], err error) {
	ctx, sp := c.start(ctx, "ListCatalogByCreator")
	defer sp.End(&err)
	return c.listCatalog(ctx, "list catalog by creator", kind, &creatorID, c.creatorRoute(creatorID, kind), opts)
}

// countedEntry returns the two items of entry e, read as cat, rewritten
// with savedCount n: cat conditioned on the item as read, the copy on
// existing. Saves of an entry serialise on its catalog item.
func countedEntry(t ddb.Table, cat ddb.Item, e CatalogEntry, n int64) ([]backend.Write, error) {
	e.SavedCount = n
	// The entry stays in the partition it was published in, the seed's or
	// a shard's (whatever the options' count now), and both its GSI2
	// entries with it.
	ck := backend.KeyOf(t, cat)
	newCat, newCopy, err := entryItems(e, ck.PK)
	if err != nil {
		return nil, err
	}
	// Attributes ddbkit does not know stay on the catalog item, and both
	// items keep their keys, which another writer may have written with
	// another time format.
	merged := maps.Clone(cat)
	maps.Copy(merged, newCat)
	pk := copyKeyOf(e.CreatorID, e.Kind, ck)
	merged[AttrPK], merged[AttrSK] = ddb.S(ck.PK), ddb.S(ck.SK)
	newCopy[AttrPK], newCopy[AttrSK] = ddb.S(pk.PK), ddb.S(pk.SK)
	return []backend.Write{
		backend.Replace(labelCatalog, t, merged, scalars(cat)),
		backend.Replace(labelCopy, t, newCopy, ddb.Item{}),
	}, nil
}

// SaveCatalogEntry implements CatalogStore.SaveCatalogEntry, which documents its errors.
func (c *core) SaveCatalogEntry(ctx context.Context, userID string, kind CatalogKind, id string) (_ SavedEntry, err error) {
	ctx, sp := c.start(ctx, "SaveCatalogEntry")
	defer sp.End(&err)
	k := keying[SavedEntry](c, "save catalog entry", userPK(userID), []any{kind, id}, nil, nil)
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (SavedEntry, error) {
		const op = "save catalog entry"
		if err := check(c.shards, func(v *validator) { v.user(userID); v.kind(kind); v.ID("ID", id, MaxIDLen) }); err != nil {
			return SavedEntry{}, wrap(op, err)
		}
		var saved ddb.Item
		err := c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
			cat, err := c.publicEntry(ctx, kind, id)
			if err != nil {
				return err
			}
			if cat == nil {
				return errNotInCatalog(kind, id)
			}
			e, err := decodeCatalog(c.t, cat)
			if err != nil {
				return err
			}
			saved, err = marshal(savedItem{keyAttrs: keyAttrs{userPK(userID), savedSK(kind, id)},
				gsi1Attrs:  gsi1Attrs{gsi1PK(string(kind), id), gsi1Saved + userID},
				EntityType: string(kind), CreatorID: e.CreatorID, Title: e.Title, SavedAt: ts(c.o.now())})
			if err != nil {
				return err
			}
			ws, err := countedEntry(c.t, cat, e, e.SavedCount+1)
			if err != nil {
				return err
			}
			err = c.tx(ctx, r, catalogSize, append([]backend.Write{backend.PutNew(labelSaved, c.t, saved)}, ws...))
			if old, ok := backend.Failed(err, labelSaved); ok {
				saved = old // saved already: nothing changes
				return nil
			}
			if old, ok := backend.Failed(err, ""); ok {
				if old == nil {
					return errNotInCatalog(kind, id)
				}
				return backend.Changed("catalog %s %q changed while it was being saved", strings.ToLower(string(kind)), id)
			}
			return err
		})
		if err != nil {
			return SavedEntry{}, wrap(op, err)
		}
		s, err := decodeSaved(c.t, saved)
		return s, wrap(op, err)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// UnsaveCatalogEntry implements CatalogStore.UnsaveCatalogEntry, which documents its errors.
func (c *core) UnsaveCatalogEntry(ctx context.Context, userID string, kind CatalogKind, id string) (err error) {
	ctx, sp := c.start(ctx, "UnsaveCatalogEntry")
	defer sp.End(&err)
	k := keying[struct{}](c, "unsave catalog entry", userPK(userID), []any{kind, id}, nil, nil)
	_, err = backend.Keyed(ctx, k, noResult(func(ctx context.Context) error {
		const op = "unsave catalog entry"
		if err := check(c.shards, func(v *validator) { v.user(userID); v.kind(kind); v.ID("ID", id, MaxIDLen) }); err != nil {
			return wrap(op, err)
		}
		if err := c.o.index(indexGSI1); err != nil {
			return wrap(op, err)
		}
		sk := key(userID, savedSK(kind, id))
		err := c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
			saved, err := c.b.Get(ctx, c.t, sk)
			if err != nil || saved == nil {
				return err // not saved: nothing to do
			}
			ws := []backend.Write{backend.Delete(labelSaved, c.t, sk, scalars(saved))}
			cat, err := c.publicEntry(ctx, kind, id)
			if err != nil {
				return err
			}
			if cat != nil {
				e, err := decodeCatalog(c.t, cat)
				if err != nil {
					return err
				}
				more, err := countedEntry(c.t, cat, e, max(e.SavedCount-1, 0))
				if err != nil {
					return err
				}
				ws = append(ws, more...)
			}
			err = c.tx(ctx, r, catalogSize, ws)
			if old, ok := backend.Failed(err, labelSaved); ok && old == nil {
				return nil // unsaved meanwhile
			}
			if _, ok := backend.Failed(err, ""); ok {
				return backend.Changed("catalog %s %q changed while it was being unsaved", strings.ToLower(string(kind)), id)
			}
			return err
		})
		return wrap(op, err)
	}))
	return wrapOnce(k.Scope.Op, err)
}

// ListSaved implements CatalogStore.ListSaved, which documents its errors.
func (c *core) ListSaved(ctx context.Context, userID string, kind CatalogKind, opts ddbkit.PageOptions) (_ ddbkit.Page[SavedEntry], err error) {
	ctx, sp := c.start(ctx, "ListSaved")
	defer sp.End(&err)
	const op = "list saved"
	if err := check(c.shards, func(v *validator) { v.kind(kind) }); err != nil {
		return ddbkit.Page[SavedEntry]{}, wrap(op, err)
	}
	return listUser(ctx, c, op, userID, savedSK(kind, ""), true, opts, savedDecoder)
}

// RecalculatePopularity implements CatalogStore.RecalculatePopularity, which documents its errors.
func (c *core) RecalculatePopularity(ctx context.Context, kind CatalogKind) (_ PopularityReport, err error) {
	ctx, sp := c.start(ctx, "RecalculatePopularity")
	defer sp.End(&err)
	// Keyed returns no result with an error: rep keeps the report so far.
	var rep PopularityReport
	k := keying[PopularityReport](c, "recalculate popularity", catalogPrefix+string(kind), nil, nil, nil)
	_, err = backend.Keyed(ctx, k, func(ctx context.Context) (PopularityReport, error) {
		r, err := c.recalculatePopularity(ctx, kind)
		rep = r
		return r, err
	})
	return rep, wrapOnce(k.Scope.Op, err)
}

// recalculatePopularity is RecalculatePopularity without its idempotency key.
func (c *core) recalculatePopularity(ctx context.Context, kind CatalogKind) (PopularityReport, error) {
	const op = "recalculate popularity"
	if err := check(c.shards, func(v *validator) { v.kind(kind) }); err != nil {
		return PopularityReport{}, wrap(op, err)
	}
	if err := c.o.index(indexGSI1); err != nil {
		return PopularityReport{}, wrap(op, err)
	}
	var rep PopularityReport
	// Each partition of the catalog in turn: the seed's (shard 0), then
	// the other shards.
	for _, pv := range c.catalogParts(kind) {
		entries := ddb.KeyQuery{Table: c.t, PartitionValue: pv, Sort: ddb.SortBeginsWith(skCreated), ConsistentRead: true}
		for cursor := ""; ; {
			page, next, err := c.b.Query(ctx, entries, 100, cursor, backend.Filter{})
			if err != nil {
				return rep, wrap(op, err)
			}
			for _, item := range page {
				e, err := decodeCatalog(c.t, item)
				if err != nil {
					// A corrupt entry is left as it is, and said so.
					rep.Skipped = append(rep.Skipped, wrap(op, err))
					continue
				}
				d, err := c.recount(ctx, op, backend.KeyOf(c.t, item), e)
				var corrupt *ddbkit.CorruptItemError
				switch {
				case errors.As(err, &corrupt):
					// Read again to be recounted, it no longer decodes.
					rep.Skipped = append(rep.Skipped, wrap(op, err))
					continue
				case err != nil:
					return rep, wrap(op, err)
				}
				rep.Checked++
				if d != nil {
					rep.Drifts = append(rep.Drifts, *d)
				}
			}
			if next == "" {
				break
			}
			cursor = next
		}
	}
	return rep, nil
}

// recount counts the saved items of e through GSI1 and, if its savedCount
// differs, rewrites both its items: upwards always, since the count is
// then below saves that exist (each read back from the table first, so an
// unsave GSI1 has not caught up with is not counted), downwards only with
// Options.SavesIndexed, since saves without GSI1 keys (the seed's app's)
// are invisible to the Query. A count it may not lower is reported only.
func (c *core) recount(ctx context.Context, op string, k itemKey, e CatalogEntry) (*PopularityDrift, error) {
	var drift *PopularityDrift
	// The call has no tenant: each entry's recount is its own step, under
	// the entry's ID (read, never made up, so a repeat finds the same
	// scope).
	err := c.rmw(ctx, op, gsi1PK(string(e.Kind), e.ID), func(r *backend.Run) error {
		drift = nil
		q := ddb.KeyQuery{Table: c.t, Index: indexGSI1, PartitionValue: gsi1PK(string(e.Kind), e.ID), Sort: ddb.SortBeginsWith(gsi1Saved)}
		var saves []itemKey
		for cursor := ""; ; {
			hits, next, err := c.b.Query(ctx, q, 1000, cursor, backend.Filter{})
			if err != nil {
				return err
			}
			for _, h := range hits {
				saves = append(saves, backend.KeyOf(c.t, h))
			}
			if next == "" {
				break
			}
			cursor = next
		}
		cat, err := c.b.Get(ctx, c.t, k)
		if err != nil || cat == nil {
			return err // unpublished meanwhile
		}
		cur, err := decodeCatalog(c.t, cat)
		if err != nil {
			return err
		}
		n := int64(len(saves))
		if n > cur.SavedCount {
			if n, err = c.existing(ctx, saves); err != nil {
				return err
			}
		}
		if n == cur.SavedCount {
			return nil
		}
		d := &PopularityDrift{Kind: e.Kind, ID: e.ID, Stored: cur.SavedCount, Counted: n}
		if n < cur.SavedCount && !c.o.SavesIndexed {
			drift = d
			return nil
		}
		ws, err := countedEntry(c.t, cat, cur, n)
		if err != nil {
			return err
		}
		err = c.tx(ctx, r, catalogSize, ws)
		if _, ok := backend.Failed(err, ""); ok {
			return backend.Changed("catalog %s %q changed while it was being recounted", strings.ToLower(string(e.Kind)), e.ID)
		}
		if err == nil {
			drift = d
		}
		return err
	})
	return drift, err
}

// existing counts the items at ks that the table holds, read consistently.
func (c *core) existing(ctx context.Context, ks []itemKey) (int64, error) {
	items, err := c.b.BatchGet(ctx, c.t, ks)
	var n int64
	for _, it := range items {
		if it != nil {
			n++
		}
	}
	return n, err
}
