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
	ID         string      `json:"id"`
	TargetType CatalogKind `json:"targetType"`
	TargetID   string      `json:"targetId"`
	AuthorName string      `json:"authorName,omitempty"` // shown with the shared item
	SourceURL  string      `json:"sourceUrl,omitempty"`  // where the item came from, if anywhere
	// CreatedBy is the user who made the link, who alone may delete it.
	// The seed's app writes none: such a link belongs to its target's
	// owner (see DeleteShareLink).
	CreatedBy string    `json:"createdBy,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
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
	Link   ShareLink     `json:"link"`
	Entry  *CatalogEntry `json:"entry,omitempty"`  // the public entry, if published
	Recipe *Recipe       `json:"recipe,omitempty"` // the creator's recipe, if not published
	Set    *Set          `json:"set,omitempty"`    // the creator's set, if not published
}

// ShareStore stores share links.
type ShareStore interface {
	// CreateShareLink stores a new link with a fresh share ID. The target
	// need not exist yet; ResolveShareLink follows it. It returns
	// ErrAlreadyExists if the share ID generator repeated an ID.
	CreateShareLink(ctx context.Context, userID string, in NewShareLink) (ShareLink, error)
	// GetShareLink returns the link, or ErrNotFound.
	GetShareLink(ctx context.Context, shareID string) (ShareLink, error)
	// DeleteShareLink deletes the user's link: one the user created, or,
	// for a link without createdBy (the seed's app writes none), one whose
	// target the user owns, found through GSI1 (the target's OWNER#
	// entry, else its catalog entry's creator). It returns ErrNotFound if
	// there is no such link, or it is another user's, and, for a link
	// without createdBy, ErrSchemaMismatch if GSI1 is disabled.
	DeleteShareLink(ctx context.Context, userID, shareID string) error
	// ResolveShareLink returns the link and its target: the catalog entry,
	// found through GSI1 (ENTITY#<type>#<id> / PUBLIC#), if the target is
	// published, else the link creator's own recipe or set, read from the
	// creator's partition; for a link without createdBy (the seed's app
	// writes none), the target's owner's item, found through GSI1
	// (OWNER#). It returns
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
	l := ShareLink{ID: id, TargetType: kindOf(it.TargetType), TargetID: it.TargetID, AuthorName: it.AuthorName,
		SourceURL: it.SourceURL, CreatedBy: it.CreatedBy, CreatedAt: d.time(attrCreatedAt, it.CreatedAt)}
	return l, d.err
}

// kindOf reads a stored targetType: RECIPE or SET in any ASCII case (the
// seed does not fix it), anything else as it is. ASCII only: Unicode
// folding would take "ſet" (long s) for SET.
func kindOf(s string) CatalogKind {
	for _, k := range []CatalogKind{KindRecipe, KindSet} {
		if len(s) == len(k) && asciiUpper(s) == string(k) {
			return k
		}
	}
	return CatalogKind(s)
}

// asciiUpper upper-cases the ASCII letters of s, and nothing else.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// linkOwner is the user a link belongs to: its creator, or, for a link
// another writer stored without createdBy, the owner of its target (GSI1
// OWNER#<userId>), else the creator of the target's catalog entry; "" when
// none is found. A stored target that is no valid ID has no owner.
func (c *core) linkOwner(ctx context.Context, l ShareLink) (string, error) {
	if l.CreatedBy != "" {
		return l.CreatedBy, nil
	}
	if (l.TargetType != KindRecipe && l.TargetType != KindSet) || check(func(v *validator) { v.ID("TargetID", l.TargetID, MaxIDLen) }) != nil {
		return "", nil
	}
	if err := c.o.index(indexGSI1); err != nil {
		return "", err
	}
	hits, _, err := c.b.Query(ctx, ownerQuery(c.t, string(l.TargetType), l.TargetID), 1, "", backend.Filter{})
	if err != nil {
		return "", err
	}
	if len(hits) > 0 {
		if sk, _ := backend.Str(hits[0], AttrGSI1SK); strings.HasPrefix(sk, gsi1Owner) {
			return sk[len(gsi1Owner):], nil
		}
	}
	hit, err := c.publicHit(ctx, l.TargetType, l.TargetID)
	if err != nil || hit == nil {
		return "", err
	}
	e, err := decodeCatalog(c.t, hit)
	if err != nil {
		return "", nil // a corrupt entry names no owner
	}
	return e.CreatorID, nil
}

func errShareNotFound(id string) error {
	return fmt.Errorf("share link %q: %w", id, ddbkit.ErrNotFound)
}

// CreateShareLink implements ShareStore.CreateShareLink, which documents its errors.
func (c *core) CreateShareLink(ctx context.Context, userID string, in NewShareLink) (_ ShareLink, err error) {
	ctx, sp := c.start(ctx, "CreateShareLink")
	defer sp.End(&err)
	k := keying(c, "create share link", userPK(userID), []any{in}, decodeShare, errGone("share link", userID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (ShareLink, error) {
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
	})
	return v, wrapOnce(k.Scope.Op, err)
}

func validateShareID(id string) error {
	return check(func(v *validator) { v.ID("ShareID", id, MaxIDLen) })
}

// GetShareLink implements ShareStore.GetShareLink, which documents its errors.
func (c *core) GetShareLink(ctx context.Context, shareID string) (_ ShareLink, err error) {
	ctx, sp := c.start(ctx, "GetShareLink")
	defer sp.End(&err)
	const op = "get share link"
	if err := validateShareID(shareID); err != nil {
		return ShareLink{}, wrap(op, err)
	}
	return getOne(ctx, c, op, shareKey(shareID), errShareNotFound(shareID), shareDecoder)
}

// DeleteShareLink implements ShareStore.DeleteShareLink, which documents its errors.
func (c *core) DeleteShareLink(ctx context.Context, userID, shareID string) (err error) {
	ctx, sp := c.start(ctx, "DeleteShareLink")
	defer sp.End(&err)
	k := committed(keying[struct{}](c, "delete share link", userPK(userID), []any{shareID}, nil, nil))
	_, err = backend.Keyed(ctx, k, noResult(func(ctx context.Context) error {
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
		owner, err := c.linkOwner(ctx, l)
		if err != nil {
			return wrap(op, err)
		}
		if owner != userID {
			return wrap(op, errShareNotFound(shareID))
		}
		// The link was just read, so its delete need not read it again.
		err = c.b.RemoveRead(ctx, c.t, shareKey(shareID))
		if _, ok := backend.Failed(err, ""); ok {
			return wrap(op, errShareNotFound(shareID))
		}
		return wrap(op, err)
	}))
	return wrapOnce(k.Scope.Op, err)
}

// ResolveShareLink implements ShareStore.ResolveShareLink, which documents its errors.
func (c *core) ResolveShareLink(ctx context.Context, shareID string) (_ ShareTarget, err error) {
	ctx, sp := c.start(ctx, "ResolveShareLink")
	defer sp.End(&err)
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
	// Not published: the creator's own item, if the creator owns it; for
	// a link without a creator, its target's owner's.
	owner, err := c.linkOwner(ctx, l)
	if err != nil {
		return out, wrap(op, err)
	}
	if owner == "" {
		return out, wrap(op, notFound)
	}
	k := key(owner, ownerSK(l.TargetType, l.TargetID))
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
