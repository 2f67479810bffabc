package kondate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// ShareLink is a link to a recipe or set, the SHARE#<shareId> / META#
// item (section 4.3). Its ID is its own, random and unguessable (see the
// package doc), never the target's.
type ShareLink struct {
	ID         string
	TargetType CatalogKind
	TargetID   string
	AuthorName string // shown with the shared item
	SourceURL  string // where the item came from, if anywhere
	CreatedBy  string // the user who made the link, who alone may delete it
	CreatedAt  time.Time
}

// NewShareLink is the input of CreateShareLink.
type NewShareLink struct {
	TargetType CatalogKind
	TargetID   string
	AuthorName string
	SourceURL  string
}

// ShareTarget is what a share link resolves to: the public catalog entry
// when the target is published, else, when the link's creator owns it, the
// creator's own recipe or set.
type ShareTarget struct {
	Link   ShareLink
	Entry  *CatalogEntry // the public entry, if published
	Recipe *Recipe       // the creator's recipe, if not published
	Set    *Set          // the creator's set, if not published
}

// ShareStore stores share links.
type ShareStore interface {
	// CreateShareLink stores a new link with a fresh share ID. The target
	// need not exist yet; ResolveShareLink follows it. It returns
	// ErrAlreadyExists if the share ID generator repeated an ID.
	CreateShareLink(ctx context.Context, userID string, in NewShareLink) (ShareLink, error)
	// GetShareLink returns the link, or ErrNotFound.
	GetShareLink(ctx context.Context, shareID string) (ShareLink, error)
	// DeleteShareLink deletes the user's link. It returns ErrNotFound if
	// there is no such link, or it is another user's.
	DeleteShareLink(ctx context.Context, userID, shareID string) error
	// ResolveShareLink returns the link and its target: the catalog entry,
	// found through GSI1 (ENTITY#<type>#<id> / PUBLIC#), if the target is
	// published, else the link creator's own recipe or set, read from the
	// creator's partition. It returns
	// ErrNotFound if there is no such link or the target is neither, and
	// ErrSchemaMismatch if GSI1 is disabled.
	ResolveShareLink(ctx context.Context, shareID string) (ShareTarget, error)
}

const (
	sharePrefix = "SHARE#"
	skShareMeta = "META#"
)

func shareKey(id string) itemKey { return itemKey{PK: sharePrefix + id, SK: skShareMeta} }

type shareItem struct {
	keyAttrs
	TargetType string `dynamodbav:"targetType"`
	TargetID   string `dynamodbav:"targetId"`
	AuthorName string `dynamodbav:"authorName"`
	SourceURL  string `dynamodbav:"sourceUrl"`
	CreatedBy  string `dynamodbav:"createdBy"`
	CreatedAt  string `dynamodbav:"createdAt"`
}

func decodeShare(t ddb.Table, item ddb.Item) (ShareLink, error) {
	d := decoder{t: t, item: item}
	var it shareItem
	unmarshal(&d, &it)
	id, ok := strings.CutPrefix(it.PK, sharePrefix)
	if !ok || id == "" {
		d.fail(AttrPK, "want SHARE#<shareId>, got %q", it.PK)
	}
	l := ShareLink{ID: id, TargetType: CatalogKind(it.TargetType), TargetID: it.TargetID, AuthorName: it.AuthorName,
		SourceURL: it.SourceURL, CreatedBy: it.CreatedBy, CreatedAt: d.time(attrCreatedAt, it.CreatedAt)}
	return l, d.err
}

func errShareNotFound(id string) error {
	return fmt.Errorf("share link %q: %w", id, ddbkit.ErrNotFound)
}

// CreateShareLink implements ShareStore.CreateShareLink, which documents its errors.
func (c *core) CreateShareLink(ctx context.Context, userID string, in NewShareLink) (ShareLink, error) {
	const op = "create share link"
	err := check(func(v *validator) {
		v.user(userID)
		if in.TargetType != KindRecipe && in.TargetType != KindSet {
			v.Fail("TargetType", "must be RECIPE or SET, got %q", in.TargetType)
		}
		v.ID("TargetID", in.TargetID, MaxIDLen)
		v.Line("AuthorName", in.AuthorName, false, MaxNameLen)
		// Pages render it as a link: http or https only (no javascript:).
		v.URL("SourceURL", in.SourceURL, false, MaxURLLen)
	})
	if err != nil {
		return ShareLink{}, wrap(op, err)
	}
	now, id := c.o.now(), c.o.NewShareID()
	if err := check(func(v *validator) { v.ID("ShareID", id, MaxIDLen) }); err != nil {
		return ShareLink{}, wrap(op, err)
	}
	k := shareKey(id)
	return createOne(ctx, c, op, userPK(userID), field("sourceUrl", "SourceURL", "authorName", "AuthorName", "targetId", "TargetID"), shareItem{keyAttrs: keyAttrs{k.PK, k.SK}, TargetType: string(in.TargetType), TargetID: in.TargetID,
		AuthorName: in.AuthorName, SourceURL: in.SourceURL, CreatedBy: userID, CreatedAt: ts(now)},
		fmt.Errorf("share link %q: %w; the share ID generator repeated an ID", id, ddbkit.ErrAlreadyExists), decodeShare)
}

func validateShareID(id string) error {
	return check(func(v *validator) { v.ID("ShareID", id, MaxIDLen) })
}

// GetShareLink implements ShareStore.GetShareLink, which documents its errors.
func (c *core) GetShareLink(ctx context.Context, shareID string) (ShareLink, error) {
	const op = "get share link"
	if err := validateShareID(shareID); err != nil {
		return ShareLink{}, wrap(op, err)
	}
	return getOne(ctx, c, op, shareKey(shareID), errShareNotFound(shareID), shareDecoder)
}

// DeleteShareLink implements ShareStore.DeleteShareLink, which documents its errors.
func (c *core) DeleteShareLink(ctx context.Context, userID, shareID string) error {
	const op = "delete share link"
	if err := check(func(v *validator) { v.user(userID); v.ID("ShareID", shareID, MaxIDLen) }); err != nil {
		return wrap(op, err)
	}
	// A link never changes, so reading its creator, then deleting it, is
	// safe.
	l, err := getOne(ctx, c, op, shareKey(shareID), errShareNotFound(shareID), shareDecoder)
	if err != nil {
		return err
	}
	if l.CreatedBy != userID {
		return wrap(op, errShareNotFound(shareID))
	}
	// The link was just read, so its delete need not read it again.
	err = c.b.RemoveRead(ctx, c.t, shareKey(shareID))
	if _, ok := backend.Failed(err, ""); ok {
		return wrap(op, errShareNotFound(shareID))
	}
	return wrap(op, err)
}

// ResolveShareLink implements ShareStore.ResolveShareLink, which documents its errors.
func (c *core) ResolveShareLink(ctx context.Context, shareID string) (ShareTarget, error) {
	const op = "resolve share link"
	if err := validateShareID(shareID); err != nil {
		return ShareTarget{}, wrap(op, err)
	}
	if err := c.o.index(indexGSI1); err != nil {
		return ShareTarget{}, wrap(op, err)
	}
	l, err := getOne(ctx, c, op, shareKey(shareID), errShareNotFound(shareID), shareDecoder)
	if err != nil {
		return ShareTarget{}, err
	}
	out := ShareTarget{Link: l}
	notFound := fmt.Errorf("target %s %q of share link %q: %w", l.TargetType, l.TargetID, shareID, ddbkit.ErrNotFound)
	if l.TargetType != KindRecipe && l.TargetType != KindSet {
		return out, wrap(op, notFound)
	}
	if item, err := c.publicHit(ctx, l.TargetType, l.TargetID); err != nil {
		return out, wrap(op, err)
	} else if item != nil {
		e, err := decodeCatalog(c.t, item)
		if err != nil {
			return out, wrap(op, err)
		}
		out.Entry = &e
		return out, nil
	}
	if l.CreatedBy == "" {
		return out, wrap(op, notFound)
	}
	// Not published: the creator's own item, if the creator owns it.
	k := key(l.CreatedBy, ownerSK(l.TargetType, l.TargetID))
	if l.TargetType == KindSet {
		s, err := getOne(ctx, c, op, k, notFound, setDecoder)
		if err != nil {
			return out, err
		}
		out.Set = &s
		return out, nil
	}
	r, err := getOne(ctx, c, op, k, notFound, recipeDecoder)
	if err != nil {
		return out, err
	}
	out.Recipe = &r
	return out, nil
}
