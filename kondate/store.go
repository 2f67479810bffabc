package kondate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
	"github.com/ddbkit/ddbkit/keys"
)

// The two stores share every operation (this file, catalog.go and
// share.go) and differ only in the item backend they hold (package
// internal/backend): DynamoDB calls for DynamoStore, ordered in-memory
// tables with the same conditions for MemoryStore. The seed has eleven
// kinds of item under one partition; writing each operation once, over
// primitives whose semantics are DynamoDB's, is what keeps the memory
// store's results, errors, order and page boundaries those of the DynamoDB
// store, and backendtest holds the two backends to that.

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

// rmw runs a read-modify-write (backend.RMW) in the tenant partition
// part of the caller's input (see ddb.Scope), within the retry policy.
func (c *core) rmw(ctx context.Context, op, part string, fn func(r *backend.Run) error) error {
	return backend.RMW(ctx, c.o.backoff(), c.scope(op, part), fn)
}

// scope is the idempotency scope of op's write in partition part.
func (c *core) scope(op, part string) ddb.Scope {
	return ddb.Scope{Table: c.t.Name, Op: op, Partition: part}
}

// keying is how backend.Keyed records and replays op, a write in the
// tenant partition part (its idempotency scope, as rmw's) whose other
// arguments are input. The record goes to the table, expiring through its
// TTL attribute (AttrTTL). dec, when not nil, replays a repeat: it decodes
// the item the record refers to, read with one consistent GetItem, and a
// missing one is notFound. ref, when given, is the item a write that
// carries no transaction (an UpdateItem, a PutItem) stands for.
func keying[T any](c *core, op, part string, input []any, dec func(ddb.Table, ddb.Item) (T, error), notFound error, ref ...itemKey) backend.Keying[T] {
	k := backend.Keying[T]{Backend: c.b, Table: c.t, TTL: AttrTTL, Scope: c.scope(op, part), Now: c.o.now, Input: input}
	if dec != nil {
		k.Replay = func(ctx context.Context, at itemKey) (T, error) {
			var zero T
			item, err := c.b.Get(ctx, c.t, at)
			if err == nil && item == nil {
				err = notFound
			}
			if err != nil {
				return zero, wrap(op, err)
			}
			v, err := dec(c.t, item)
			return v, wrap(op, err)
		}
	}
	if len(ref) > 0 {
		r := ref[0]
		k.Ref = func(T) itemKey { return r }
	}
	return k
}

// committed is k for a delete: a repeat under the key succeeds, as a
// repeated delete does in every domain (the record proves the first
// call's delete committed), where without the key it finds nothing.
func committed(k backend.Keying[struct{}]) backend.Keying[struct{}] {
	k.Committed = true
	return k
}

// wrapOnce is wrap for what backend.Keyed returns: the errors of a
// method's body and of its replay, wrapped already, or Keyed's own.
func wrapOnce(op string, err error) error {
	if err == nil || strings.HasPrefix(err.Error(), "kondate: ") {
		return err
	}
	return wrap(op, err)
}

func getOne[T any](ctx context.Context, c *core, op string, k itemKey, notFound error, dec *backend.Decoder[T]) (T, error) {
	var zero T
	item, err := c.b.Get(ctx, c.t, k)
	if err != nil {
		return zero, wrap(op, err)
	}
	if item == nil {
		return zero, wrap(op, notFound)
	}
	v, err := backend.Decode(c.b, c.t, item, dec)
	if err != nil {
		return zero, wrap(op, err)
	}
	return v, nil
}

// listPage runs one page of q and decodes its items. Items that cannot be
// decoded are left out and reported in Page.Skipped.
func listPage[T any](ctx context.Context, c *core, op string, opts ddbkit.PageOptions, q ddb.KeyQuery, dec *backend.Decoder[T]) (ddbkit.Page[T], error) {
	return listFiltered(ctx, c, op, opts, q, backend.Filter{}, dec)
}

// listFiltered is listPage keeping only the items f keeps; cursors bind f.
func listFiltered[T any](ctx context.Context, c *core, op string, opts ddbkit.PageOptions, q ddb.KeyQuery, f backend.Filter, dec *backend.Decoder[T]) (ddbkit.Page[T], error) {
	q.Budget = c.o.FilterBudget
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	return backend.QueryPage(ctx, c.b, q, limit, opts.Cursor, f, dec, func(err error) error { return wrap(op, err) })
}

// createOne writes a new item in the user's partition part and returns it
// as stored. The item must fit sz (see sizeRule) before any call.
func createOne[T, L any](ctx context.Context, c *core, op, part string, sz sizeRule, v L, taken error, dec func(ddb.Table, ddb.Item) (T, error)) (T, error) {
	var zero T
	item, err := marshal(v)
	if err != nil {
		return zero, wrap(op, err)
	}
	if err := sz.check(item); err != nil {
		return zero, wrap(op, err)
	}
	if err := c.b.Create(ctx, c.scope(op, part), c.t, item); err != nil {
		if _, ok := backend.Failed(err, ""); ok {
			return zero, wrap(op, taken)
		}
		return zero, wrap(op, err)
	}
	out, err := dec(c.t, item)
	return out, wrap(op, err)
}

// updateOne applies u to the existing item at k and returns it as stored.
// The attributes u sets must fit sz (see sizeRule.checkChange) before any
// call.
func updateOne[T any](ctx context.Context, c *core, op string, sz sizeRule, k itemKey, u backend.Change, mustExist bool, notFound error, dec func(ddb.Table, ddb.Item) (T, error)) (T, error) {
	var zero T
	if err := sz.checkChange(c.t, k, u); err != nil {
		return zero, wrap(op, err)
	}
	item, err := c.b.Update(ctx, c.t, k, u, updateCond(mustExist))
	if err != nil {
		if _, ok := backend.Failed(err, ""); ok {
			return zero, wrap(op, notFound)
		}
		return zero, wrap(op, err)
	}
	out, err := dec(c.t, item)
	return out, wrap(op, err)
}

// updateFirst applies the change u to the item at k and sets attr
// to v unless the item holds a value there already, and returns the item
// as stored: the first completion, read or creation time wins. It does not
// use if_not_exists alone, which takes a NULL for a value: the seed's app
// writes completedAt: null and readAt: null for "not yet", and those must
// count as unset. So the write is two conditional UpdateItems: "set" sets
// attr where it is missing or NULL; "keep" keeps it (if_not_exists) where
// it holds a value. usuallySet tries "keep" first (a profile's createdAt,
// set on every update but the first); otherwise "set" (a completion). Each
// is one call when it is the right guess, two when not; a writer that
// changes the item between them sends it round again, and after
// updateRounds rounds it is ErrConflict. With mustExist, a missing item is
// notFound; otherwise it is created, as UpdateItem does. When u changes
// nothing else, a held attr makes no write: the item as read is returned.
func updateFirst[T any](ctx context.Context, c *core, op string, sz sizeRule, k itemKey, u backend.Change, attr string, v types.AttributeValue,
	usuallySet, mustExist bool, notFound error, dec func(ddb.Table, ddb.Item) (T, error)) (T, error) {
	var zero T
	set, keep := u.Clone(), u.Clone()
	set.Set(attr, v)
	keep.SetOnce(attr, v)
	if err := sz.checkChange(c.t, k, set); err != nil {
		return zero, wrap(op, err)
	}
	cond := func(f backend.Filter) backend.Cond {
		if mustExist { // the partition key is there: the item is
			f = backend.And(backend.Present(c.t.PartitionKey), f)
		}
		return backend.When(f)
	}
	setCond, keepCond := cond(unset(attr)), cond(backend.Not(unset(attr)))
	tryKeep := usuallySet
	for range updateRounds {
		var item ddb.Item
		var err error
		if tryKeep {
			item, err = c.b.Update(ctx, c.t, k, keep, keepCond)
		} else {
			item, err = c.b.Update(ctx, c.t, k, set, setCond)
		}
		old, failed := backend.Failed(err, "")
		switch {
		case err == nil:
			out, err := dec(c.t, item)
			return out, wrap(op, err)
		case !failed:
			return zero, wrap(op, err)
		case old == nil && mustExist:
			return zero, wrap(op, notFound)
		case !tryKeep && u.Empty():
			out, err := dec(c.t, old)
			return out, wrap(op, err)
		}
		tryKeep = !tryKeep
	}
	return zero, wrap(op, backend.Changed("%s kept changing", attr))
}

// updateRounds bounds updateFirst's rounds against a writer that keeps
// setting and clearing the attribute.
const updateRounds = 4

// null is DynamoDB's NULL, which the seed's app writes for "no value".
var null types.AttributeValue = &types.AttributeValueMemberNULL{Value: true}

// unset holds where attr has no value: missing, or NULL.
func unset(attr string) backend.Filter {
	return backend.Or(backend.Missing(attr), backend.Equal(attr, null))
}

func (c *core) removeOne(ctx context.Context, op string, k itemKey, notFound error) error {
	err := c.b.Remove(ctx, c.t, k)
	if _, ok := backend.Failed(err, ""); ok {
		return wrap(op, notFound)
	}
	return wrap(op, err)
}

var fridgeSize = field("name", "Name", "quantity", "Quantity")

// tx checks the size of every item ws puts against sz, then applies ws
// under r (see backend.tx).
func (c *core) tx(ctx context.Context, r *backend.Run, sz sizeRule, ws []backend.Write) error {
	for _, w := range ws {
		if item := w.Item(); item != nil {
			if err := sz.check(item); err != nil {
				return err
			}
		}
	}
	return c.b.Tx(ctx, r, ws)
}

// updateCond is an update's condition: that the item exists, or none (an
// update then creates the item, as UpdateItem does).
func updateCond(mustExist bool) backend.Cond {
	if mustExist {
		return backend.Exists(nil)
	}
	return backend.Cond{}
}

// stamp is the change every update makes: updatedAt becomes now.
func stamp(now time.Time) backend.Change { return stampAt(ddb.S(ts(now))) }

// stampAt is stamp with the time formatted already, for a write that
// stores it twice.
func stampAt(at types.AttributeValue) backend.Change {
	var u backend.Change
	u.Set(attrUpdatedAt, at)
	return u
}

// ---- profile

// GetProfile implements ProfileStore.GetProfile, which documents its errors.
func (c *core) GetProfile(ctx context.Context, userID string) (_ Profile, err error) {
	ctx, sp := c.start(ctx, "GetProfile")
	defer sp.End(&err)
	const op = "get profile"
	if err := check(func(v *validator) { v.user(userID) }); err != nil {
		return Profile{}, wrap(op, err)
	}
	return getOne(ctx, c, op, key(userID, skProfile), errNotFound("profile", userID, "PROFILE"), profileDecoder)
}

// UpdateProfile implements ProfileStore.UpdateProfile, which documents its errors.
func (c *core) UpdateProfile(ctx context.Context, userID string, p ProfilePatch) (_ Profile, err error) {
	ctx, sp := c.start(ctx, "UpdateProfile")
	defer sp.End(&err)
	k := keying(c, "update profile", userPK(userID), []any{p}, decodeProfile, errNotFound("profile", userID, "PROFILE"), key(userID, skProfile))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Profile, error) {
		const op = "update profile"
		err := check(func(v *validator) {
			v.user(userID)
			if p == (ProfilePatch{}) {
				v.Fail("ProfilePatch", "sets no field; set at least one")
			}
			if p.DisplayName != nil {
				v.Line("DisplayName", *p.DisplayName, false, MaxNameLen)
			}
			if p.AvatarURL != nil {
				// Pages render it as an image: http or https only.
				v.URL("AvatarURL", *p.AvatarURL, false, MaxURLLen)
			}
		})
		if err != nil {
			return Profile{}, wrap(op, err)
		}
		at := ddb.S(ts(c.o.now()))
		u := stampAt(at)
		if p.DisplayName != nil {
			u.Set("displayName", ddb.S(*p.DisplayName))
		}
		if p.AvatarURL != nil {
			u.Set("avatarUrl", ddb.S(*p.AvatarURL))
		}
		return updateFirst(ctx, c, op, field("displayName", "DisplayName", "avatarUrl", "AvatarURL"), key(userID, skProfile), u,
			attrCreatedAt, at, true, false, nil, decodeProfile)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ---- recipes

func validateRecipe(v *validator, title string, ing []Ingredient, steps, tags []string, origin string) {
	v.Line("Title", title, true, MaxTitleLen)
	v.ingredients(ing)
	v.lines("Steps", steps, MaxTextLen)
	v.lines("Tags", tags, MaxTagLen)
	v.Line("Origin", origin, false, MaxURLLen)
}

// CreateRecipe implements RecipeStore.CreateRecipe, which documents its errors.
func (c *core) CreateRecipe(ctx context.Context, userID string, in NewRecipe) (_ Recipe, err error) {
	ctx, sp := c.start(ctx, "CreateRecipe")
	defer sp.End(&err)
	k := keying(c, "create recipe", userPK(userID), []any{in}, decodeRecipe, errGone("recipe", userID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Recipe, error) {
		const op = "create recipe"
		err := check(func(v *validator) {
			v.user(userID)
			validateRecipe(v, in.Title, in.Ingredients, in.Steps, in.Tags, in.Origin)
		})
		if err != nil {
			return Recipe{}, wrap(op, err)
		}
		now, id := c.o.now(), c.o.NewID()
		if err := check(func(v *validator) { v.ID("ID", id, MaxIDLen) }); err != nil {
			return Recipe{}, wrap(op, err)
		}
		return createOne(ctx, c, op, userPK(userID), recipeSize, recipeItem{
			keyAttrs:  keyAttrs{userPK(userID), skRecipe + id},
			gsi1Attrs: gsi1Attrs{gsi1PK(entityRecipe, id), gsi1Owner + userID},
			Title:     in.Title, Ingredients: list(in.Ingredients), Steps: list(in.Steps), Tags: list(in.Tags),
			Origin: in.Origin, CreatedAt: ts(now), UpdatedAt: ts(now),
		}, errExists("recipe", userID, id), decodeRecipe)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

func validateRef(userID, id string) error {
	return check(func(v *validator) {
		v.user(userID)
		v.ID("ID", id, MaxIDLen)
	})
}

// GetRecipe implements RecipeStore.GetRecipe, which documents its errors.
func (c *core) GetRecipe(ctx context.Context, userID, id string) (_ Recipe, err error) {
	ctx, sp := c.start(ctx, "GetRecipe")
	defer sp.End(&err)
	const op = "get recipe"
	if err := validateRef(userID, id); err != nil {
		return Recipe{}, wrap(op, err)
	}
	return getOne(ctx, c, op, key(userID, skRecipe+id), errNotFound("recipe", userID, id), recipeDecoder)
}

// FindRecipe implements RecipeStore.FindRecipe, which documents its errors.
func (c *core) FindRecipe(ctx context.Context, id string) (_ Recipe, err error) {
	ctx, sp := c.start(ctx, "FindRecipe")
	defer sp.End(&err)
	return find(ctx, c, "find recipe", entityRecipe, skRecipe, id, recipeDecoder)
}

// find looks an entity up by ID on GSI1, then reads it from its owner's
// partition: GSI1 gives the owner, the consistent read the current item.
func find[T any](ctx context.Context, c *core, op, entity, skPrefix, id string, dec *backend.Decoder[T]) (T, error) {
	var zero T
	if err := check(func(v *validator) { v.ID("ID", id, MaxIDLen) }); err != nil {
		return zero, wrap(op, err)
	}
	notFound := fmt.Errorf("%s %q: %w", entity, id, ddbkit.ErrNotFound)
	if err := c.o.index(indexGSI1); err != nil {
		return zero, wrap(op, err)
	}
	hits, _, err := c.b.Query(ctx, ownerQuery(c.t, entity, id), 1, "", backend.Filter{})
	if err != nil {
		return zero, wrap(op, err)
	}
	if len(hits) == 0 {
		return zero, wrap(op, notFound)
	}
	pk, _ := hits[0][AttrPK].(*types.AttributeValueMemberS)
	if pk == nil {
		return zero, wrap(op, ddb.Corrupt(c.t, hits[0], AttrPK, "want a String key"))
	}
	return getOne(ctx, c, op, itemKey{PK: pk.Value, SK: skPrefix + id}, notFound, dec)
}

// ListRecipes implements RecipeStore.ListRecipes, which documents its errors.
func (c *core) ListRecipes(ctx context.Context, userID string, opts ddbkit.PageOptions) (_ ddbkit.Page[Recipe], err error) {
	ctx, sp := c.start(ctx, "ListRecipes")
	defer sp.End(&err)
	return listUser(ctx, c, "list recipes", userID, skRecipe, true, opts, recipeDecoder)
}

func listUser[T any](ctx context.Context, c *core, op, userID, prefix string, newestFirst bool, opts ddbkit.PageOptions, dec *backend.Decoder[T]) (ddbkit.Page[T], error) {
	if err := check(func(v *validator) { v.user(userID) }); err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	return listPage(ctx, c, op, opts, userQuery(c.t, userID, prefix, newestFirst), dec)
}

// UpdateRecipe implements RecipeStore.UpdateRecipe, which documents its errors.
func (c *core) UpdateRecipe(ctx context.Context, userID, id string, p RecipePatch) (_ Recipe, err error) {
	ctx, sp := c.start(ctx, "UpdateRecipe")
	defer sp.End(&err)
	k := keying(c, "update recipe", userPK(userID), []any{id, p}, decodeRecipe, errNotFound("recipe", userID, id), key(userID, skRecipe+id))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Recipe, error) {
		const op = "update recipe"
		err := check(func(v *validator) {
			v.user(userID)
			v.ID("ID", id, MaxIDLen)
			if p == (RecipePatch{}) {
				v.Fail("RecipePatch", "sets no field; set at least one")
			}
			if p.Title != nil {
				v.Line("Title", *p.Title, true, MaxTitleLen)
			}
			if p.Ingredients != nil {
				v.ingredients(*p.Ingredients)
			}
			if p.Steps != nil {
				v.lines("Steps", *p.Steps, MaxTextLen)
			}
			if p.Tags != nil {
				v.lines("Tags", *p.Tags, MaxTagLen)
			}
			if p.Origin != nil {
				v.Line("Origin", *p.Origin, false, MaxURLLen)
			}
		})
		if err != nil {
			return Recipe{}, wrap(op, err)
		}
		u := stamp(c.o.now())
		for _, f := range []struct {
			name string
			set  bool
			v    func() any
		}{
			{"title", p.Title != nil, func() any { return *p.Title }},
			{"ingredients", p.Ingredients != nil, func() any { return list(*p.Ingredients) }},
			{"steps", p.Steps != nil, func() any { return list(*p.Steps) }},
			{"tags", p.Tags != nil, func() any { return list(*p.Tags) }},
			{"origin", p.Origin != nil, func() any { return *p.Origin }},
		} {
			if f.set {
				if err := u.SetValue(f.name, f.v()); err != nil {
					return Recipe{}, wrap(op, err)
				}
			}
		}
		return updateOne(ctx, c, op, recipeSize, key(userID, skRecipe+id), u, true, errNotFound("recipe", userID, id), decodeRecipe)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// DeleteRecipe implements RecipeStore.DeleteRecipe, which documents its errors.
func (c *core) DeleteRecipe(ctx context.Context, userID, id string) (err error) {
	ctx, sp := c.start(ctx, "DeleteRecipe")
	defer sp.End(&err)
	k := committed(keying[struct{}](c, "delete recipe", userPK(userID), []any{id}, nil, nil))
	_, err = backend.Keyed(ctx, k, noResult(func(ctx context.Context) error {
		return c.deleteOwned(ctx, "delete recipe", userID, KindRecipe, id)
	}))
	return wrapOnce(k.Scope.Op, err)
}

// deleteOwned deletes the user's recipe or set and, in the same
// transaction, its catalog entry if it is published (the catalog item and
// the creator's copy), so that nothing stays public once its source is
// gone. The entry is found as Unpublish finds it: at the key publishedAt
// gives, else, for an item another writer published (no publishedAt), by
// ID through GSI1, if its creator is the user. The item's delete is
// conditioned on its scalar attributes as read, so a Publish in between
// (which sets publishedAt) makes it start over and take the new entry
// along.
func (c *core) deleteOwned(ctx context.Context, op, userID string, kind CatalogKind, id string) error {
	if err := validateRef(userID, id); err != nil {
		return wrap(op, err)
	}
	name := strings.ToLower(string(kind))
	ownerKey := key(userID, ownerSK(kind, id))
	notFound := errNotFound(name, userID, id)
	// gone: no catalog item is at the key publishedAt gives (another
	// writer deleted it): the entry is then looked up by ID.
	gone := false
	err := c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
		src, err := c.b.Get(ctx, c.t, ownerKey)
		if err != nil {
			return err
		}
		if src == nil {
			return notFound
		}
		cat, err := c.ownEntry(ctx, src, userID, kind, id, gone)
		if err != nil {
			return err
		}
		ws := []backend.Write{backend.Delete(labelSource, c.t, ownerKey, scalars(src))}
		if cat != nil {
			ws = append(ws, backend.Delete(labelCatalog, c.t, *cat, nil), backend.Remove(labelCopy, c.t, copyKeyOf(userID, kind, *cat)))
		}
		err = c.tx(ctx, r, sizeRule{}, ws)
		if old, ok := backend.Failed(err, labelSource); ok {
			if old == nil {
				return notFound
			}
			return backend.Changed("%s %q changed while it was being deleted", name, id)
		}
		if _, ok := backend.Failed(err, labelCatalog); ok {
			gone = true
			return backend.Changed("catalog %s %q is gone; looking it up by ID", name, id)
		}
		return err
	})
	return wrap(op, err)
}

// ownEntry returns the key of the catalog item of the user's recipe or set
// read as src, nil when it is not published: the key publishedAt gives
// (unless byID), else the entry GSI1 holds for the ID if the user created
// it. Without GSI1, only publishedAt is seen.
func (c *core) ownEntry(ctx context.Context, src ddb.Item, userID string, kind CatalogKind, id string, byID bool) (*itemKey, error) {
	if s, marked := backend.Str(src, attrPublishedAt); marked && !byID {
		at, err := keys.ParseTime(s)
		if err != nil {
			return nil, ddb.Corrupt(c.t, src, attrPublishedAt, "want an ISO 8601 time, got %q", s)
		}
		k := c.catalogKeyAt(kind, at, id)
		return &k, nil
	}
	if !c.o.EnableGSI1 {
		return nil, nil
	}
	item, err := c.publicEntry(ctx, kind, id)
	if err != nil || item == nil {
		return nil, err
	}
	e, err := decodeCatalog(c.t, item)
	if err != nil || e.CreatorID != userID {
		return nil, err
	}
	k := backend.KeyOf(c.t, item)
	return &k, nil
}

// ---- sets

// CreateSet implements SetStore.CreateSet, which documents its errors.
func (c *core) CreateSet(ctx context.Context, userID string, in NewSet) (_ Set, err error) {
	ctx, sp := c.start(ctx, "CreateSet")
	defer sp.End(&err)
	k := keying(c, "create set", userPK(userID), []any{in}, decodeSet, errGone("set", userID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Set, error) {
		const op = "create set"
		err := check(func(v *validator) {
			v.user(userID)
			v.Line("Title", in.Title, true, MaxTitleLen)
			v.setItems(in.Items)
			v.lines("Tags", in.Tags, MaxTagLen)
		})
		if err != nil {
			return Set{}, wrap(op, err)
		}
		now, id := c.o.now(), c.o.NewID()
		if err := check(func(v *validator) { v.ID("ID", id, MaxIDLen) }); err != nil {
			return Set{}, wrap(op, err)
		}
		return createOne(ctx, c, op, userPK(userID), setSize, setItem{
			keyAttrs:  keyAttrs{userPK(userID), skSet + id},
			gsi1Attrs: gsi1Attrs{gsi1PK(entitySet, id), gsi1Owner + userID},
			Title:     in.Title, Items: list(in.Items), Tags: list(in.Tags), CreatedAt: ts(now), UpdatedAt: ts(now),
		}, errExists("set", userID, id), decodeSet)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// GetSet implements SetStore.GetSet, which documents its errors.
func (c *core) GetSet(ctx context.Context, userID, id string) (_ Set, err error) {
	ctx, sp := c.start(ctx, "GetSet")
	defer sp.End(&err)
	const op = "get set"
	if err := validateRef(userID, id); err != nil {
		return Set{}, wrap(op, err)
	}
	return getOne(ctx, c, op, key(userID, skSet+id), errNotFound("set", userID, id), setDecoder)
}

// FindSet implements SetStore.FindSet, which documents its errors.
func (c *core) FindSet(ctx context.Context, id string) (_ Set, err error) {
	ctx, sp := c.start(ctx, "FindSet")
	defer sp.End(&err)
	return find(ctx, c, "find set", entitySet, skSet, id, setDecoder)
}

// ListSets implements SetStore.ListSets, which documents its errors.
func (c *core) ListSets(ctx context.Context, userID string, opts ddbkit.PageOptions) (_ ddbkit.Page[Set], err error) {
	ctx, sp := c.start(ctx, "ListSets")
	defer sp.End(&err)
	return listUser(ctx, c, "list sets", userID, skSet, true, opts, setDecoder)
}

// UpdateSet implements SetStore.UpdateSet, which documents its errors.
func (c *core) UpdateSet(ctx context.Context, userID, id string, p SetPatch) (_ Set, err error) {
	ctx, sp := c.start(ctx, "UpdateSet")
	defer sp.End(&err)
	k := keying(c, "update set", userPK(userID), []any{id, p}, decodeSet, errNotFound("set", userID, id), key(userID, skSet+id))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Set, error) {
		const op = "update set"
		err := check(func(v *validator) {
			v.user(userID)
			v.ID("ID", id, MaxIDLen)
			if p == (SetPatch{}) {
				v.Fail("SetPatch", "sets no field; set at least one")
			}
			if p.Title != nil {
				v.Line("Title", *p.Title, true, MaxTitleLen)
			}
			if p.Items != nil {
				v.setItems(*p.Items)
			}
			if p.Tags != nil {
				v.lines("Tags", *p.Tags, MaxTagLen)
			}
		})
		if err != nil {
			return Set{}, wrap(op, err)
		}
		u := stamp(c.o.now())
		if p.Title != nil {
			u.Set("title", ddb.S(*p.Title))
		}
		if p.Items != nil {
			if err := u.SetValue("items", list(*p.Items)); err != nil {
				return Set{}, wrap(op, err)
			}
		}
		if p.Tags != nil {
			if err := u.SetValue("tags", list(*p.Tags)); err != nil {
				return Set{}, wrap(op, err)
			}
		}
		return updateOne(ctx, c, op, setSize, key(userID, skSet+id), u, true, errNotFound("set", userID, id), decodeSet)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// DeleteSet implements SetStore.DeleteSet, which documents its errors.
func (c *core) DeleteSet(ctx context.Context, userID, id string) (err error) {
	ctx, sp := c.start(ctx, "DeleteSet")
	defer sp.End(&err)
	k := committed(keying[struct{}](c, "delete set", userPK(userID), []any{id}, nil, nil))
	_, err = backend.Keyed(ctx, k, noResult(func(ctx context.Context) error {
		return c.deleteOwned(ctx, "delete set", userID, KindSet, id)
	}))
	return wrapOnce(k.Scope.Op, err)
}

// ---- plans

func errPlanNotFound(userID string, slot PlanSlot) error {
	return fmt.Errorf("plan %s of user %q: %w", slot, userID, ddbkit.ErrNotFound)
}

// GetPlan implements PlanStore.GetPlan, which documents its errors.
func (c *core) GetPlan(ctx context.Context, userID string, slot PlanSlot) (_ Plan, err error) {
	ctx, sp := c.start(ctx, "GetPlan")
	defer sp.End(&err)
	const op = "get plan"
	if err := check(func(v *validator) { v.user(userID); v.slot(slot) }); err != nil {
		return Plan{}, wrap(op, err)
	}
	return getOne(ctx, c, op, key(userID, planSK(slot)), errPlanNotFound(userID, slot), planDecoder)
}

// UpdatePlan implements PlanStore.UpdatePlan, which documents its errors.
func (c *core) UpdatePlan(ctx context.Context, userID string, slot PlanSlot, items []SetItem) (_ Plan, err error) {
	ctx, sp := c.start(ctx, "UpdatePlan")
	defer sp.End(&err)
	k := keying(c, "update plan", userPK(userID), []any{slot, items}, decodePlan, errPlanNotFound(userID, slot), key(userID, planSK(slot)))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Plan, error) {
		const op = "update plan"
		if err := check(func(v *validator) { v.user(userID); v.slot(slot); v.setItems(items) }); err != nil {
			return Plan{}, wrap(op, err)
		}
		u := stamp(c.o.now())
		if err := u.SetValue("items", list(items)); err != nil {
			return Plan{}, wrap(op, err)
		}
		// A plan no set was applied to still has setId and setTitle, empty.
		u.SetOnce("setId", ddb.S(""))
		u.SetOnce("setTitle", ddb.S(""))
		return updateOne(ctx, c, op, planSize, key(userID, planSK(slot)), u, false, nil, decodePlan)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// Transaction labels, by which failed conditions are told apart.
const (
	labelSource = "source" // the item read: a set, the next plan, a fridge item
	labelTarget = "target" // the item written
)

// ApplySet implements PlanStore.ApplySet, which documents its errors.
func (c *core) ApplySet(ctx context.Context, userID string, slot PlanSlot, setID string) (_ Plan, err error) {
	ctx, sp := c.start(ctx, "ApplySet")
	defer sp.End(&err)
	k := keying(c, "apply set", userPK(userID), []any{slot, setID}, decodePlan, errPlanNotFound(userID, slot))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Plan, error) {
		const op = "apply set"
		if err := check(func(v *validator) { v.user(userID); v.slot(slot); v.ID("SetID", setID, MaxIDLen) }); err != nil {
			return Plan{}, wrap(op, err)
		}
		sk := key(userID, skSet+setID)
		var plan ddb.Item
		err := c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
			item, err := c.b.Get(ctx, c.t, sk)
			if err != nil {
				return err
			}
			if item == nil {
				return errNotFound("set", userID, setID)
			}
			set, err := decodeSet(c.t, item)
			if err != nil {
				return err
			}
			now := c.o.now()
			plan, err = marshal(planItem{keyAttrs: keyAttrs{userPK(userID), planSK(slot)}, SetID: set.ID, SetTitle: set.Title,
				Items: list(set.Items), AppliedAt: ts(now), UpdatedAt: ts(now)})
			if err != nil {
				return err
			}
			err = c.tx(ctx, r, planSize, []backend.Write{
				backend.Put(labelTarget, c.t, plan), // first: the item a keyed repeat replays
				backend.Check(labelSource, c.t, sk, scalars(item)),
			})
			if old, ok := backend.Failed(err, labelSource); ok {
				if old == nil {
					return errNotFound("set", userID, setID)
				}
				return backend.Changed("set %q changed while it was being applied", setID)
			}
			return err
		})
		if err != nil {
			return Plan{}, wrap(op, err)
		}
		p, err := decodePlan(c.t, plan)
		return p, wrap(op, err)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// PromoteNextPlan implements PlanStore.PromoteNextPlan, which documents its errors.
func (c *core) PromoteNextPlan(ctx context.Context, userID string) (_ Plan, err error) {
	ctx, sp := c.start(ctx, "PromoteNextPlan")
	defer sp.End(&err)
	k := keying(c, "promote next plan", userPK(userID), nil, decodePlan, errPlanNotFound(userID, PlanCurrent))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Plan, error) {
		const op = "promote next plan"
		if err := check(func(v *validator) { v.user(userID) }); err != nil {
			return Plan{}, wrap(op, err)
		}
		nk := key(userID, planSK(PlanNext))
		var cur ddb.Item
		err := c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
			next, err := c.b.Get(ctx, c.t, nk)
			if err != nil {
				return err
			}
			if next == nil {
				return errPlanNotFound(userID, PlanNext)
			}
			if _, err := decodePlan(c.t, next); err != nil {
				return err
			}
			// The whole item moves, attributes ddbkit does not know included.
			cur = moved(next, planSK(PlanCurrent))
			cur[attrUpdatedAt] = ddb.S(ts(c.o.now()))
			err = c.tx(ctx, r, planSize, []backend.Write{
				backend.Put(labelTarget, c.t, cur), // first: the item a keyed repeat replays
				backend.Delete(labelSource, c.t, nk, scalars(next)),
			})
			if old, ok := backend.Failed(err, labelSource); ok {
				if old == nil {
					return errPlanNotFound(userID, PlanNext)
				}
				return backend.Changed("the next plan changed while it was being promoted")
			}
			return err
		})
		if err != nil {
			return Plan{}, wrap(op, err)
		}
		p, err := decodePlan(c.t, cur)
		return p, wrap(op, err)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ---- shopping

// AddShoppingItem implements ShoppingStore.AddShoppingItem, which documents its errors.
func (c *core) AddShoppingItem(ctx context.Context, userID string, in NewShoppingItem) (_ ShoppingItem, err error) {
	ctx, sp := c.start(ctx, "AddShoppingItem")
	defer sp.End(&err)
	k := keying(c, "add shopping item", userPK(userID), []any{in}, decodeShopping, errGone("shopping item", userID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (ShoppingItem, error) {
		const op = "add shopping item"
		err := check(func(v *validator) {
			v.user(userID)
			v.Line("Name", in.Name, true, MaxNameLen)
			v.Line("Quantity", in.Quantity, false, MaxNameLen)
		})
		if err != nil {
			return ShoppingItem{}, wrap(op, err)
		}
		now, id := c.o.now(), c.o.NewID()
		if err := check(func(v *validator) { v.ID("ID", id, MaxIDLen) }); err != nil {
			return ShoppingItem{}, wrap(op, err)
		}
		return createOne(ctx, c, op, userPK(userID), field("name", "Name", "quantity", "Quantity"), shoppingItem{keyAttrs: keyAttrs{userPK(userID), skShopping + id},
			Name: in.Name, Quantity: in.Quantity, CreatedAt: ts(now), UpdatedAt: ts(now)},
			errExists("shopping item", userID, id), decodeShopping)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ListShoppingItems implements ShoppingStore.ListShoppingItems, which documents its errors.
func (c *core) ListShoppingItems(ctx context.Context, userID string, opts ddbkit.PageOptions) (_ ddbkit.Page[ShoppingItem], err error) {
	ctx, sp := c.start(ctx, "ListShoppingItems")
	defer sp.End(&err)
	return listUser(ctx, c, "list shopping items", userID, skShopping, false, opts, shoppingDecoder)
}

// UpdateShoppingItem implements ShoppingStore.UpdateShoppingItem, which documents its errors.
func (c *core) UpdateShoppingItem(ctx context.Context, userID, id string, p ShoppingPatch) (_ ShoppingItem, err error) {
	ctx, sp := c.start(ctx, "UpdateShoppingItem")
	defer sp.End(&err)
	k := keying(c, "update shopping item", userPK(userID), []any{id, p}, decodeShopping, errNotFound("shopping item", userID, id), key(userID, skShopping+id))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (ShoppingItem, error) {
		const op = "update shopping item"
		err := check(func(v *validator) {
			v.user(userID)
			v.ID("ID", id, MaxIDLen)
			if p == (ShoppingPatch{}) {
				v.Fail("ShoppingPatch", "sets no field; set at least one")
			}
			if p.Name != nil {
				v.Line("Name", *p.Name, true, MaxNameLen)
			}
			if p.Quantity != nil {
				v.Line("Quantity", *p.Quantity, false, MaxNameLen)
			}
		})
		if err != nil {
			return ShoppingItem{}, wrap(op, err)
		}
		u := stamp(c.o.now())
		if p.Name != nil {
			u.Set("name", ddb.S(*p.Name))
		}
		if p.Quantity != nil {
			u.Set("quantity", ddb.S(*p.Quantity))
		}
		return updateOne(ctx, c, op, field("name", "Name", "quantity", "Quantity"), key(userID, skShopping+id), u, true, errNotFound("shopping item", userID, id), decodeShopping)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// CompleteShoppingItem implements ShoppingStore.CompleteShoppingItem, which documents its errors.
func (c *core) CompleteShoppingItem(ctx context.Context, userID, id string) (_ ShoppingItem, err error) {
	ctx, sp := c.start(ctx, "CompleteShoppingItem")
	defer sp.End(&err)
	k := keying[ShoppingItem](c, "complete shopping item", userPK(userID), []any{id}, nil, nil)
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (ShoppingItem, error) {
		const op = "complete shopping item"
		if err := validateRef(userID, id); err != nil {
			return ShoppingItem{}, wrap(op, err)
		}
		at := ddb.S(ts(c.o.now()))
		u := stampAt(at)
		u.Set("checked", &types.AttributeValueMemberBOOL{Value: true})
		return updateFirst(ctx, c, op, field("name", "Name", "quantity", "Quantity"), key(userID, skShopping+id), u,
			"completedAt", at, false, true, errNotFound("shopping item", userID, id), decodeShopping)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ---- fridge

// AddFridgeItem implements FridgeStore.AddFridgeItem, which documents its errors.
func (c *core) AddFridgeItem(ctx context.Context, userID string, in NewFridgeItem) (_ FridgeItem, err error) {
	ctx, sp := c.start(ctx, "AddFridgeItem")
	defer sp.End(&err)
	k := keying(c, "add fridge item", userPK(userID), []any{in}, decodeFridge, errGone("fridge item", userID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (FridgeItem, error) {
		const op = "add fridge item"
		err := check(func(v *validator) {
			v.user(userID)
			v.Line("Name", in.Name, true, MaxNameLen)
			v.Line("Quantity", in.Quantity, false, MaxNameLen)
			v.date("ExpiryDate", in.ExpiryDate, false)
		})
		if err != nil {
			return FridgeItem{}, wrap(op, err)
		}
		now, id := c.o.now(), c.o.NewID()
		if err := check(func(v *validator) { v.ID("ID", id, MaxIDLen) }); err != nil {
			return FridgeItem{}, wrap(op, err)
		}
		return createOne(ctx, c, op, userPK(userID), field("name", "Name", "quantity", "Quantity"), fridgeItem{keyAttrs: keyAttrs{userPK(userID), skFridge + id},
			Name: in.Name, Quantity: in.Quantity, ExpiryDate: in.ExpiryDate, CreatedAt: ts(now), UpdatedAt: ts(now)},
			errExists("fridge item", userID, id), decodeFridge)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ListFridgeItems implements FridgeStore.ListFridgeItems, which documents its errors.
func (c *core) ListFridgeItems(ctx context.Context, userID string, opts ddbkit.PageOptions) (_ ddbkit.Page[FridgeItem], err error) {
	ctx, sp := c.start(ctx, "ListFridgeItems")
	defer sp.End(&err)
	return listUser(ctx, c, "list fridge items", userID, skFridge, false, opts, fridgeDecoder)
}

// UpdateFridgeItem implements FridgeStore.UpdateFridgeItem, which documents its errors.
func (c *core) UpdateFridgeItem(ctx context.Context, userID, id string, p FridgePatch) (_ FridgeItem, err error) {
	ctx, sp := c.start(ctx, "UpdateFridgeItem")
	defer sp.End(&err)
	k := keying(c, "update fridge item", userPK(userID), []any{id, p}, decodeFridge, errNotFound("fridge item", userID, id), key(userID, skFridge+id))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (FridgeItem, error) {
		const op = "update fridge item"
		err := check(func(v *validator) {
			v.user(userID)
			v.ID("ID", id, MaxIDLen)
			if p == (FridgePatch{}) {
				v.Fail("FridgePatch", "sets no field; set at least one")
			}
			if p.Name != nil {
				v.Line("Name", *p.Name, true, MaxNameLen)
			}
			if p.Quantity != nil {
				v.Line("Quantity", *p.Quantity, false, MaxNameLen)
			}
			if p.ExpiryDate != nil {
				v.date("ExpiryDate", *p.ExpiryDate, false)
			}
		})
		if err != nil {
			return FridgeItem{}, wrap(op, err)
		}
		u := stamp(c.o.now())
		if p.Name != nil {
			u.Set("name", ddb.S(*p.Name))
		}
		if p.Quantity != nil {
			u.Set("quantity", ddb.S(*p.Quantity))
		}
		if p.ExpiryDate != nil {
			u.Set("expiryDate", ddb.S(*p.ExpiryDate))
		}
		return updateOne(ctx, c, op, field("name", "Name", "quantity", "Quantity"), key(userID, skFridge+id), u, true, errNotFound("fridge item", userID, id), decodeFridge)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// DeleteFridgeItem implements FridgeStore.DeleteFridgeItem, which documents its errors.
//
// The item and its archive copy change in one transaction: the delete is
// conditioned on the item as read, the put on a free archive key, so the
// item is never in both places or in neither.
func (c *core) DeleteFridgeItem(ctx context.Context, userID, id string) (_ DeletedFridgeItem, err error) {
	ctx, sp := c.start(ctx, "DeleteFridgeItem")
	defer sp.End(&err)
	k := keying(c, "delete fridge item", userPK(userID), []any{id}, decodeDeletedFridge, errNotFound("deleted fridge item", userID, id))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (DeletedFridgeItem, error) {
		const op = "delete fridge item"
		if err := validateRef(userID, id); err != nil {
			return DeletedFridgeItem{}, wrap(op, err)
		}
		lk := key(userID, skFridge+id)
		var archived ddb.Item
		err := c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
			live, err := c.b.Get(ctx, c.t, lk)
			if err != nil {
				return err
			}
			if live == nil {
				return errNotFound("fridge item", userID, id)
			}
			if _, err := decodeFridge(c.t, live); err != nil {
				return err
			}
			now := c.o.now()
			archived = moved(live, fridgeDeletedSK(now, id))
			archived[attrDeletedAt] = ddb.S(ts(now))
			archived[AttrTTL] = &types.AttributeValueMemberN{Value: epochSeconds(now.Add(DeletedFridgeRetention))}
			err = c.tx(ctx, r, fridgeSize, []backend.Write{
				backend.PutNew(labelTarget, c.t, archived), // first: the item a keyed repeat replays
				backend.Delete(labelSource, c.t, lk, scalars(live)),
			})
			if old, ok := backend.Failed(err, labelSource); ok {
				if old == nil {
					return errNotFound("fridge item", userID, id)
				}
				return backend.Changed("fridge item %q changed while it was being deleted", id)
			}
			if _, ok := backend.Failed(err, labelTarget); ok {
				return backend.Changed("fridge item %q was archived at %s already", id, ts(now))
			}
			return err
		})
		if err != nil {
			return DeletedFridgeItem{}, wrap(op, err)
		}
		d, err := decodeDeletedFridge(c.t, archived)
		return d, wrap(op, err)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// RestoreFridgeItem implements FridgeStore.RestoreFridgeItem, which documents its errors.
//
// The archived item is addressed by the key it was listed with (ref),
// never by one rebuilt from a parsed time: another writer's key may hold
// the time in another form.
func (c *core) RestoreFridgeItem(ctx context.Context, userID, ref string) (_ FridgeItem, err error) {
	ctx, sp := c.start(ctx, "RestoreFridgeItem")
	defer sp.End(&err)
	k := keying(c, "restore fridge item", userPK(userID), []any{ref}, decodeFridge, errNotFound("fridge item restored from", userID, ref))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (FridgeItem, error) {
		const op = "restore fridge item"
		if err := check(func(v *validator) { v.user(userID); v.ref(ref) }); err != nil {
			return FridgeItem{}, wrap(op, err)
		}
		_, id, _ := strings.Cut(ref, "#")
		ak := key(userID, skFridgeDeleted+ref)
		notFound := fmt.Errorf("deleted fridge item %q of user %q: %w", ref, userID, ddbkit.ErrNotFound)
		var live ddb.Item
		err := c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
			archived, err := c.b.Get(ctx, c.t, ak)
			if err != nil {
				return err
			}
			if archived == nil {
				return notFound
			}
			if _, err := decodeDeletedFridge(c.t, archived); err != nil {
				return err
			}
			live = moved(archived, skFridge+id, attrDeletedAt, AttrTTL)
			err = c.tx(ctx, r, fridgeSize, []backend.Write{
				backend.PutNew(labelTarget, c.t, live), // first: the item a keyed repeat replays
				backend.Delete(labelSource, c.t, ak, scalars(archived)),
			})
			if old, ok := backend.Failed(err, labelSource); ok {
				if old == nil {
					return notFound
				}
				return backend.Changed("deleted fridge item %q changed while it was being restored", id)
			}
			if _, ok := backend.Failed(err, labelTarget); ok {
				return fmt.Errorf("fridge item %q of user %q is in the fridge already: %w", id, userID, ddbkit.ErrConflict)
			}
			return err
		})
		if err != nil {
			return FridgeItem{}, wrap(op, err)
		}
		f, err := decodeFridge(c.t, live)
		return f, wrap(op, err)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ListDeletedFridgeItems implements FridgeStore.ListDeletedFridgeItems, which documents its errors.
func (c *core) ListDeletedFridgeItems(ctx context.Context, userID string, opts ddbkit.PageOptions) (_ ddbkit.Page[DeletedFridgeItem], err error) {
	ctx, sp := c.start(ctx, "ListDeletedFridgeItems")
	defer sp.End(&err)
	return listUser(ctx, c, "list deleted fridge items", userID, skFridgeDeleted, true, opts, deletedFridgeDecoder)
}

// ---- categories

// AddCategory implements CategoryStore.AddCategory, which documents its errors.
func (c *core) AddCategory(ctx context.Context, userID string, scope CategoryScope, in NewCategory) (_ Category, err error) {
	ctx, sp := c.start(ctx, "AddCategory")
	defer sp.End(&err)
	k := keying(c, "add category", userPK(userID), []any{scope, in}, decodeCategory, errGone("category", userID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Category, error) {
		const op = "add category"
		err := check(func(v *validator) { v.user(userID); v.scope(scope); v.Line("Name", in.Name, true, MaxNameLen) })
		if err != nil {
			return Category{}, wrap(op, err)
		}
		now, id := c.o.now(), c.o.NewID()
		if err := check(func(v *validator) { v.ID("ID", id, MaxIDLen) }); err != nil {
			return Category{}, wrap(op, err)
		}
		return createOne(ctx, c, op, userPK(userID), field("name", "Name"), categoryItem{keyAttrs: keyAttrs{userPK(userID), categorySK(scope, id)},
			Name: in.Name, CreatedAt: ts(now), UpdatedAt: ts(now)}, errExists("category", userID, id), decodeCategory)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ListCategories implements CategoryStore.ListCategories, which documents its errors.
func (c *core) ListCategories(ctx context.Context, userID string, scope CategoryScope, opts ddbkit.PageOptions) (_ ddbkit.Page[Category], err error) {
	ctx, sp := c.start(ctx, "ListCategories")
	defer sp.End(&err)
	const op = "list categories"
	if err := check(func(v *validator) { v.scope(scope) }); err != nil {
		return ddbkit.Page[Category]{}, wrap(op, err)
	}
	return listUser(ctx, c, op, userID, categorySK(scope, ""), false, opts, categoryDecoder)
}

// UpdateCategory implements CategoryStore.UpdateCategory, which documents its errors.
func (c *core) UpdateCategory(ctx context.Context, userID string, scope CategoryScope, id string, p CategoryPatch) (_ Category, err error) {
	ctx, sp := c.start(ctx, "UpdateCategory")
	defer sp.End(&err)
	k := keying(c, "update category", userPK(userID), []any{scope, id, p}, decodeCategory, errNotFound("category", userID, id), key(userID, categorySK(scope, id)))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Category, error) {
		const op = "update category"
		err := check(func(v *validator) {
			v.user(userID)
			v.scope(scope)
			v.ID("ID", id, MaxIDLen)
			if p == (CategoryPatch{}) {
				v.Fail("CategoryPatch", "sets no field; set at least one")
			}
			if p.Name != nil {
				v.Line("Name", *p.Name, true, MaxNameLen)
			}
		})
		if err != nil {
			return Category{}, wrap(op, err)
		}
		u := stamp(c.o.now())
		if p.Name != nil {
			u.Set("name", ddb.S(*p.Name))
		}
		return updateOne(ctx, c, op, field("name", "Name"), key(userID, categorySK(scope, id)), u, true, errNotFound("category", userID, id), decodeCategory)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// DeleteCategory implements CategoryStore.DeleteCategory, which documents its errors.
func (c *core) DeleteCategory(ctx context.Context, userID string, scope CategoryScope, id string) (err error) {
	ctx, sp := c.start(ctx, "DeleteCategory")
	defer sp.End(&err)
	k := committed(keying[struct{}](c, "delete category", userPK(userID), []any{scope, id}, nil, nil))
	_, err = backend.Keyed(ctx, k, noResult(func(ctx context.Context) error {
		const op = "delete category"
		if err := check(func(v *validator) { v.user(userID); v.scope(scope); v.ID("ID", id, MaxIDLen) }); err != nil {
			return wrap(op, err)
		}
		return c.removeOne(ctx, op, key(userID, categorySK(scope, id)), errNotFound("category", userID, id))
	}))
	return wrapOnce(k.Scope.Op, err)
}

// ---- cook logs

// AddCookLog implements CookLogStore.AddCookLog, which documents its errors.
func (c *core) AddCookLog(ctx context.Context, userID string, in NewCookLog) (_ CookLog, err error) {
	ctx, sp := c.start(ctx, "AddCookLog")
	defer sp.End(&err)
	k := keying(c, "add cook log", userPK(userID), []any{in}, decodeCookLog, errGone("cook log", userID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (CookLog, error) {
		const op = "add cook log"
		err := check(func(v *validator) {
			v.user(userID)
			v.date("Date", in.Date, true)
			if in.RecipeID != "" {
				v.ID("RecipeID", in.RecipeID, MaxIDLen)
			}
			v.Line("Title", in.Title, true, MaxTitleLen)
			v.Text("Note", in.Note, false, MaxTextLen)
		})
		if err != nil {
			return CookLog{}, wrap(op, err)
		}
		now, id := c.o.now(), c.o.NewID()
		if err := check(func(v *validator) { v.ID("ID", id, MaxIDLen) }); err != nil {
			return CookLog{}, wrap(op, err)
		}
		return createOne(ctx, c, op, userPK(userID), field("note", "Note", "title", "Title"), cookLogItem{keyAttrs: keyAttrs{userPK(userID), cookLogSK(in.Date, id)},
			RecipeID: in.RecipeID, Title: in.Title, Note: in.Note, CreatedAt: ts(now)},
			errExists("cook log", userID, id), decodeCookLog)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ListCookLogsByMonth implements CookLogStore.ListCookLogsByMonth, which documents its errors.
func (c *core) ListCookLogsByMonth(ctx context.Context, userID, month string, opts ddbkit.PageOptions) (_ ddbkit.Page[CookLog], err error) {
	ctx, sp := c.start(ctx, "ListCookLogsByMonth")
	defer sp.End(&err)
	const op = "list cook logs by month"
	if err := check(func(v *validator) { v.month(month) }); err != nil {
		return ddbkit.Page[CookLog]{}, wrap(op, err)
	}
	// The seed's begins_with(SK, "COOKLOG#2026-02").
	return listUser(ctx, c, op, userID, skCookLog+month, false, opts, cookLogDecoder)
}

// ListCookLogsByDay implements CookLogStore.ListCookLogsByDay, which documents its errors.
func (c *core) ListCookLogsByDay(ctx context.Context, userID, date string, opts ddbkit.PageOptions) (_ ddbkit.Page[CookLog], err error) {
	ctx, sp := c.start(ctx, "ListCookLogsByDay")
	defer sp.End(&err)
	const op = "list cook logs by day"
	if err := check(func(v *validator) { v.date("Date", date, true) }); err != nil {
		return ddbkit.Page[CookLog]{}, wrap(op, err)
	}
	return listUser(ctx, c, op, userID, cookLogSK(date, ""), false, opts, cookLogDecoder)
}

// ---- payments

// AddPaymentMethod implements PaymentStore.AddPaymentMethod, which documents its errors.
func (c *core) AddPaymentMethod(ctx context.Context, userID string, in NewPaymentMethod) (_ PaymentMethod, err error) {
	ctx, sp := c.start(ctx, "AddPaymentMethod")
	defer sp.End(&err)
	k := keying(c, "add payment method", userPK(userID), []any{in}, decodePaymentMethod, errGone("payment method", userID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (PaymentMethod, error) {
		const op = "add payment method"
		err := check(func(v *validator) {
			v.user(userID)
			v.ID("Provider", in.Provider, MaxNameLen)
			v.providerRef(in.ProviderRef)
			v.brand(in.Brand)
			v.last4(in.Last4)
		})
		if err != nil {
			return PaymentMethod{}, wrap(op, err)
		}
		now, id := c.o.now(), c.o.NewID()
		if err := check(func(v *validator) { v.ID("ID", id, MaxIDLen) }); err != nil {
			return PaymentMethod{}, wrap(op, err)
		}
		return createOne(ctx, c, op, userPK(userID), field("providerRef", "ProviderRef", "provider", "Provider"), paymentMethodItem{keyAttrs: keyAttrs{userPK(userID), skPaymentMethod + id},
			Provider: in.Provider, ProviderRef: in.ProviderRef, Brand: in.Brand, Last4: in.Last4, CreatedAt: ts(now)},
			errExists("payment method", userID, id), decodePaymentMethod)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ListPaymentMethods implements PaymentStore.ListPaymentMethods, which documents its errors.
func (c *core) ListPaymentMethods(ctx context.Context, userID string, opts ddbkit.PageOptions) (_ ddbkit.Page[PaymentMethod], err error) {
	ctx, sp := c.start(ctx, "ListPaymentMethods")
	defer sp.End(&err)
	return listUser(ctx, c, "list payment methods", userID, skPaymentMethod, false, opts, paymentMethodDecoder)
}

// RemovePaymentMethod implements PaymentStore.RemovePaymentMethod, which documents its errors.
func (c *core) RemovePaymentMethod(ctx context.Context, userID, id string) (err error) {
	ctx, sp := c.start(ctx, "RemovePaymentMethod")
	defer sp.End(&err)
	k := committed(keying[struct{}](c, "remove payment method", userPK(userID), []any{id}, nil, nil))
	_, err = backend.Keyed(ctx, k, noResult(func(ctx context.Context) error {
		const op = "remove payment method"
		if err := validateRef(userID, id); err != nil {
			return wrap(op, err)
		}
		return c.removeOne(ctx, op, key(userID, skPaymentMethod+id), errNotFound("payment method", userID, id))
	}))
	return wrapOnce(k.Scope.Op, err)
}

// RecordPurchase implements PaymentStore.RecordPurchase, which documents its errors.
//
// The purchase and its guard, PURCHASE_TXN#<transactionId>, are put in one
// transaction, each only where its key is free. The guard holds the
// purchase's sort key, so a repeat that gives another time still finds
// the first purchase (the seed's key holds the time before the ID: the
// purchase's own key alone could not be conditioned on the ID).
func (c *core) RecordPurchase(ctx context.Context, userID string, in NewPurchase) (_ Purchase, err error) {
	ctx, sp := c.start(ctx, "RecordPurchase")
	defer sp.End(&err)
	k := keying(c, "record purchase", userPK(userID), []any{in}, decodePurchase, errNotFound("purchase", userID, in.TransactionID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Purchase, error) {
		const op = "record purchase"
		err := check(func(v *validator) {
			v.user(userID)
			v.ID("TransactionID", in.TransactionID, MaxIDLen)
			if in.PurchasedAt.IsZero() {
				v.Fail("PurchasedAt", "must be the time the purchase was made, got the zero time")
			}
			v.Time("PurchasedAt", in.PurchasedAt)
			v.ID("ProductID", in.ProductID, MaxIDLen)
			if in.Amount < 0 {
				v.Fail("Amount", "must not be negative, got %d", in.Amount)
			}
			v.currency(in.Currency)
			if in.PaymentMethodID != "" {
				v.ID("PaymentMethodID", in.PaymentMethodID, MaxIDLen)
			}
		})
		if err != nil {
			return Purchase{}, wrap(op, err)
		}
		at := in.PurchasedAt.UTC().Truncate(time.Millisecond)
		sk := purchaseSK(at, in.TransactionID)
		item, err := marshal(purchaseItem{keyAttrs: keyAttrs{userPK(userID), sk},
			ProductID: in.ProductID, Amount: in.Amount, Currency: in.Currency, PaymentMethodID: in.PaymentMethodID,
			PurchasedAt: ts(at)})
		if err != nil {
			return Purchase{}, wrap(op, err)
		}
		guard, err := marshal(purchaseTxnItem{keyAttrs: keyAttrs{userPK(userID), skPurchaseTxn + in.TransactionID}, PurchaseSK: sk})
		if err != nil {
			return Purchase{}, wrap(op, err)
		}
		want, err := decodePurchase(c.t, item)
		if err != nil {
			return Purchase{}, wrap(op, err)
		}
		out := want
		err = c.rmw(ctx, op, userPK(userID), func(r *backend.Run) error {
			err := c.tx(ctx, r, field("productId", "ProductID"), []backend.Write{
				backend.PutNew(labelTarget, c.t, item), // first: the item a keyed repeat replays
				backend.PutNew(labelGuard, c.t, guard),
			})
			old, failed := backend.Failed(err, "")
			if !failed {
				return err
			}
			// Recorded already: the stored purchase is this one, or another.
			at := key(userID, sk)
			if g, ok := backend.Str(old, "purchaseSk"); ok && strings.HasPrefix(g, skPurchase) {
				at.SK = g
			}
			stored, err := c.b.Get(ctx, c.t, at)
			if err != nil {
				return err
			}
			if stored != nil {
				if got, err := decodePurchase(c.t, stored); err == nil && samePurchase(got, want) {
					out = got
					return nil
				}
			}
			return fmt.Errorf("purchase of transaction %q of user %q: %w with other content (at %s)",
				in.TransactionID, userID, ddbkit.ErrAlreadyExists, at.SK)
		})
		if err != nil {
			return Purchase{}, wrap(op, err)
		}
		return out, nil
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// labelGuard labels the guard item of a transaction.
const labelGuard = "guard"

// samePurchase reports whether two purchases record the same thing.
func samePurchase(a, b Purchase) bool {
	return a.ID == b.ID && a.UserID == b.UserID && a.PurchasedAt.Equal(b.PurchasedAt) && a.ProductID == b.ProductID &&
		a.Amount == b.Amount && a.Currency == b.Currency && a.PaymentMethodID == b.PaymentMethodID
}

// ListPurchases implements PaymentStore.ListPurchases, which documents its errors.
func (c *core) ListPurchases(ctx context.Context, userID string, opts ddbkit.PageOptions) (_ ddbkit.Page[Purchase], err error) {
	ctx, sp := c.start(ctx, "ListPurchases")
	defer sp.End(&err)
	return listUser(ctx, c, "list purchases", userID, skPurchase, true, opts, purchaseDecoder)
}

// GetSubscription implements PaymentStore.GetSubscription, which documents its errors.
func (c *core) GetSubscription(ctx context.Context, userID string) (_ Subscription, err error) {
	ctx, sp := c.start(ctx, "GetSubscription")
	defer sp.End(&err)
	const op = "get subscription"
	if err := check(func(v *validator) { v.user(userID) }); err != nil {
		return Subscription{}, wrap(op, err)
	}
	return getOne(ctx, c, op, key(userID, skSubscription), errNotFound("subscription", userID, "ACTIVE"), subscriptionDecoder)
}

// SetSubscription implements PaymentStore.SetSubscription, which documents its errors.
func (c *core) SetSubscription(ctx context.Context, userID string, sub Subscription) (_ Subscription, err error) {
	ctx, sp := c.start(ctx, "SetSubscription")
	defer sp.End(&err)
	k := keying(c, "set subscription", userPK(userID), []any{sub}, decodeSubscription, errNotFound("subscription", userID, "ACTIVE"), key(userID, skSubscription))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Subscription, error) {
		const op = "set subscription"
		err := check(func(v *validator) {
			v.user(userID)
			v.ID("Plan", sub.Plan, MaxNameLen)
			v.ID("Status", sub.Status, MaxNameLen)
			v.Time("CurrentPeriodEnd", sub.CurrentPeriodEnd)
		})
		if err != nil {
			return Subscription{}, wrap(op, err)
		}
		item, err := marshal(subscriptionItem{keyAttrs: keyAttrs{userPK(userID), skSubscription},
			Plan: sub.Plan, Status: sub.Status, CurrentPeriodEnd: ts(sub.CurrentPeriodEnd.UTC().Truncate(time.Millisecond)),
			UpdatedAt: ts(c.o.now())})
		if err == nil {
			err = field("plan", "Plan", "status", "Status").check(item)
		}
		if err != nil {
			return Subscription{}, wrap(op, err)
		}
		// A replacement is safe to repeat after a lost response.
		if err := c.b.Put(ctx, c.t, item, backend.Cond{}); err != nil {
			return Subscription{}, wrap(op, err)
		}
		out, err := decodeSubscription(c.t, item)
		return out, wrap(op, err)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ---- notifications

// AddNotification implements NotificationStore.AddNotification, which documents its errors.
func (c *core) AddNotification(ctx context.Context, userID string, in NewNotification) (_ Notification, err error) {
	ctx, sp := c.start(ctx, "AddNotification")
	defer sp.End(&err)
	k := keying(c, "add notification", userPK(userID), []any{in}, decodeNotification, errGone("notification", userID))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Notification, error) {
		const op = "add notification"
		err := check(func(v *validator) {
			v.user(userID)
			v.ID("Kind", in.Kind, MaxNameLen)
			v.Line("Title", in.Title, true, MaxTitleLen)
			v.Text("Body", in.Body, false, MaxTextLen)
		})
		if err != nil {
			return Notification{}, wrap(op, err)
		}
		now, id := c.o.now(), c.o.NewID()
		if err := check(func(v *validator) { v.ID("ID", id, MaxIDLen) }); err != nil {
			return Notification{}, wrap(op, err)
		}
		return createOne(ctx, c, op, userPK(userID), field("body", "Body", "title", "Title"), notificationItem{keyAttrs: keyAttrs{userPK(userID), notificationSK(now, id)},
			Kind: in.Kind, Title: in.Title, Body: in.Body, CreatedAt: ts(now)},
			errExists("notification", userID, id), decodeNotification)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// ListNotifications implements NotificationStore.ListNotifications, which documents its errors.
func (c *core) ListNotifications(ctx context.Context, userID string, opts ddbkit.PageOptions) (_ ddbkit.Page[Notification], err error) {
	ctx, sp := c.start(ctx, "ListNotifications")
	defer sp.End(&err)
	return listUser(ctx, c, "list notifications", userID, skNotification, true, opts, notificationDecoder)
}

// MarkNotificationRead implements NotificationStore.MarkNotificationRead, which documents its errors.
//
// The notification is addressed by the key it was listed with (ref), never
// by one rebuilt from a parsed time (see RestoreFridgeItem).
func (c *core) MarkNotificationRead(ctx context.Context, userID, ref string) (_ Notification, err error) {
	ctx, sp := c.start(ctx, "MarkNotificationRead")
	defer sp.End(&err)
	k := keying[Notification](c, "mark notification read", userPK(userID), []any{ref}, nil, nil)
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (Notification, error) {
		const op = "mark notification read"
		if err := check(func(v *validator) { v.user(userID); v.ref(ref) }); err != nil {
			return Notification{}, wrap(op, err)
		}
		return updateFirst(ctx, c, op, field("title", "Title"), key(userID, skNotification+ref), backend.Change{},
			"readAt", ddb.S(ts(c.o.now())), false, true, errNotFound("notification", userID, ref), decodeNotification)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// GetNotificationSettings implements NotificationStore.GetNotificationSettings, which documents its errors.
func (c *core) GetNotificationSettings(ctx context.Context, userID string) (_ NotificationSettings, err error) {
	ctx, sp := c.start(ctx, "GetNotificationSettings")
	defer sp.End(&err)
	const op = "get notification settings"
	if err := check(func(v *validator) { v.user(userID) }); err != nil {
		return NotificationSettings{}, wrap(op, err)
	}
	s, err := getOne(ctx, c, op, key(userID, skNotifSettings), errSkipNotFound, notificationSettingsDecoder)
	if errors.Is(err, errSkipNotFound) {
		return NotificationSettings{UserID: userID}, nil
	}
	return s, err
}

// errSkipNotFound marks a missing item that reads as its zero value.
var errSkipNotFound = fmt.Errorf("no item: %w", ddbkit.ErrNotFound)

// SetNotificationSettings implements NotificationStore.SetNotificationSettings, which documents its errors.
func (c *core) SetNotificationSettings(ctx context.Context, userID string, in NotificationSettings) (_ NotificationSettings, err error) {
	ctx, sp := c.start(ctx, "SetNotificationSettings")
	defer sp.End(&err)
	k := keying(c, "set notification settings", userPK(userID), []any{in}, decodeNotificationSettings, errNotFound("notification settings", userID, "NOTIFICATION_SETTINGS"), key(userID, skNotifSettings))
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (NotificationSettings, error) {
		const op = "set notification settings"
		if err := check(func(v *validator) { v.user(userID) }); err != nil {
			return NotificationSettings{}, wrap(op, err)
		}
		item, err := marshal(notificationSettingsItem{keyAttrs: keyAttrs{userPK(userID), skNotifSettings},
			PushEnabled: in.PushEnabled, EmailEnabled: in.EmailEnabled, UpdatedAt: ts(c.o.now())})
		if err == nil {
			err = field().check(item)
		}
		if err != nil {
			return NotificationSettings{}, wrap(op, err)
		}
		if err := c.b.Put(ctx, c.t, item, backend.Cond{}); err != nil {
			return NotificationSettings{}, wrap(op, err)
		}
		s, err := decodeNotificationSettings(c.t, item)
		return s, wrap(op, err)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// RegisterPushToken implements NotificationStore.RegisterPushToken, which documents its errors.
func (c *core) RegisterPushToken(ctx context.Context, userID string, platform Platform, token string) (_ PushToken, err error) {
	ctx, sp := c.start(ctx, "RegisterPushToken")
	defer sp.End(&err)
	k := keying[PushToken](c, "register push token", userPK(userID), []any{platform, token}, nil, nil)
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (PushToken, error) {
		const op = "register push token"
		if err := check(func(v *validator) { v.user(userID); v.platform(platform); v.ID("Token", token, MaxPushTokenLen) }); err != nil {
			return PushToken{}, wrap(op, err)
		}
		at := ddb.S(ts(c.o.now()))
		u := stampAt(at)
		u.Set("platform", ddb.S(string(platform)))
		u.Set("token", ddb.S(token))
		return updateFirst(ctx, c, op, field("token", "Token"), key(userID, pushTokenSK(platform, token)), u,
			attrCreatedAt, at, true, false, nil, decodePushToken)
	})
	return v, wrapOnce(k.Scope.Op, err)
}

// UnregisterPushToken implements NotificationStore.UnregisterPushToken, which documents its errors.
func (c *core) UnregisterPushToken(ctx context.Context, userID string, platform Platform, token string) (err error) {
	ctx, sp := c.start(ctx, "UnregisterPushToken")
	defer sp.End(&err)
	k := committed(keying[struct{}](c, "unregister push token", userPK(userID), []any{platform, token}, nil, nil))
	_, err = backend.Keyed(ctx, k, noResult(func(ctx context.Context) error {
		const op = "unregister push token"
		if err := check(func(v *validator) { v.user(userID); v.platform(platform); v.ID("Token", token, MaxPushTokenLen) }); err != nil {
			return wrap(op, err)
		}
		return c.removeOne(ctx, op, key(userID, pushTokenSK(platform, token)),
			fmt.Errorf("%s push token of user %q: %w", platform, userID, ddbkit.ErrNotFound))
	}))
	return wrapOnce(k.Scope.Op, err)
}

// ListPushTokens implements NotificationStore.ListPushTokens, which documents its errors.
func (c *core) ListPushTokens(ctx context.Context, userID string, opts ddbkit.PageOptions) (_ ddbkit.Page[PushToken], err error) {
	ctx, sp := c.start(ctx, "ListPushTokens")
	defer sp.End(&err)
	return listUser(ctx, c, "list push tokens", userID, skPushToken, false, opts, pushTokenDecoder)
}

// noResult adapts a method that returns only an error to backend.Keyed.
func noResult(fn func(context.Context) error) func(context.Context) (struct{}, error) {
	return func(ctx context.Context) (struct{}, error) { return struct{}{}, fn(ctx) }
}

// errGone is a replayed create's error when its item is gone: deleted
// since the idempotency key's first call made it.
func errGone(kind, userID string) error {
	return fmt.Errorf("%s of user %q that the idempotency key created: %w (deleted since)", kind, userID, ddbkit.ErrNotFound)
}
