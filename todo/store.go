package todo

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

// The two stores share every operation (this file) and differ only in the
// item backend they hold (package internal/backend): DynamoDB calls for
// DynamoStore, ordered in-memory tables with the same conditions for
// MemoryStore. Writing each operation once, over primitives whose
// semantics are DynamoDB's, is what keeps the memory store's results,
// errors, order and page boundaries those of the DynamoDB store, and its
// sweeps as weak as DynamoDB's: one transaction at a time, not the whole
// sweep under one lock.

// core is the Store over a backend. DynamoStore and MemoryStore embed it.
type core struct {
	o       Options
	t       ddb.Table
	b       backend.Backend
	toggles toggleClock
	tel     *obs.Telemetry
}

func newCore(o Options, b backend.Backend) *core {
	return &core{o: o, t: o.table(), b: b, tel: obs.New("todo", o.TracerProvider, o.MeterProvider)}
}

// start starts the span of method on the store's table (package obs):
// every exported method of core does, first.
func (c *core) start(ctx context.Context, method string) (context.Context, *obs.Op) {
	return c.tel.Start(ctx, method, c.o.TableName)
}

// backendTable is the store's table as the backends serve it: no index,
// no TTL.
func (o Options) backendTable() backend.Table { return backend.Table{Table: o.table()} }

// Attribute names used in changes and conditions.
const (
	attrCompleted  = "completed"
	attrCategoryID = "category_id"
	attrCreatedAt  = "created_at"
	attrUpdatedAt  = "updated_at"
)

// todoAttrs are the non-key attributes of a todo, as the seed lists them.
var todoAttrs = []string{"id", "entity_type", "title", "description", "priority", attrCompleted,
	attrCategoryID, attrCreatedAt, attrUpdatedAt}

// Transaction item labels, by which failed conditions are told apart.
const (
	labelUser        = "user"
	labelCategory    = "category"
	labelCategoryRef = "category reference"
	labelItem        = "item"
)

// The labels of a sweep's transaction items, made once.
var todoLabels, itemLabels = labels("todo "), labels("item ")

func labels(prefix string) []string {
	l := make([]string, ddb.MaxTxItems)
	for i := range l {
		l[i] = fmt.Sprint(prefix, i)
	}
	return l
}

// ---- users

// CreateUser implements UserStore.CreateUser, which documents its errors.
func (c *core) CreateUser(ctx context.Context, u User) (err error) {
	ctx, sp := c.start(ctx, "CreateUser")
	defer sp.End(&err)
	const op = "create user"
	_, item, err := newUser(op, u)
	if err != nil {
		return err
	}
	// A repeat under the caller's key reads back the user the first call
	// created: run again, it would find the name taken.
	k := keying[struct{}](c, op, u.Username, u)
	k.Replay = func(ctx context.Context, ref backend.Key) (struct{}, error) {
		_, err := read(ctx, c, ref, errUserNotFound(u.Username), userDecoder)
		return struct{}{}, err
	}
	_, err = backend.Keyed(ctx, k, func(ctx context.Context) (struct{}, error) {
		// Create succeeds only when this call wrote the user, as its token
		// proves after a lost response: a user someone else wrote is taken,
		// even with the same email.
		err := c.b.Create(ctx, c.o.scope(op, u.Username), c.t, item)
		if _, ok := backend.Failed(err, ""); ok {
			return struct{}{}, wrap(op, errUserExists(u.Username))
		}
		return struct{}{}, wrap(op, err)
	})
	return wrap(op, err)
}

// GetUser implements UserStore.GetUser, which documents its errors.
func (c *core) GetUser(ctx context.Context, username string) (_ User, err error) {
	ctx, sp := c.start(ctx, "GetUser")
	defer sp.End(&err)
	const op = "get user"
	k, err := userRef(op, username)
	if err != nil {
		return User{}, err
	}
	return getOne(ctx, c, op, k, errUserNotFound(username), userDecoder)
}

// ListUsers implements UserStore.ListUsers, which documents its errors.
func (c *core) ListUsers(ctx context.Context, opts ddbkit.PageOptions) (_ ddbkit.Page[User], err error) {
	ctx, sp := c.start(ctx, "ListUsers")
	defer sp.End(&err)
	return list(ctx, c, "list users", opts, func() (ddb.KeyQuery, error) { return usersQuery(c.t, c.o.FilterBudget), nil },
		userDecoder)
}

// UpdateUser implements UserStore.UpdateUser, which documents its errors.
func (c *core) UpdateUser(ctx context.Context, u User) (err error) {
	ctx, sp := c.start(ctx, "UpdateUser")
	defer sp.End(&err)
	const op = "update user"
	k, _, err := newUser(op, u)
	if err != nil {
		return err
	}
	var ch backend.Change
	ch.Set("email", ddb.S(u.Email))
	// Setting a value on an existing item is safe to repeat after a lost
	// response, and the backend does; so is a repeat under the caller's
	// key (no Replay).
	_, err = backend.Keyed(ctx, keying[struct{}](c, op, u.Username, u), func(ctx context.Context) (struct{}, error) {
		_, err := c.b.Update(ctx, c.t, k.key(), ch, backend.Exists(nil))
		if _, ok := backend.Failed(err, ""); ok {
			return struct{}{}, wrap(op, errUserNotFound(u.Username))
		}
		return struct{}{}, wrap(op, err)
	})
	return wrap(op, err)
}

// DeleteUser implements UserStore.DeleteUser, which documents its errors.
//
// The partition is swept first, in transactions that each check that the
// user still exists, and the user item goes last, in the transaction of
// the last batch. So the name cannot be registered again while its data is
// being deleted, and an interrupted call leaves the user in place for a
// repeated call to finish. Once the user is gone, one more query catches
// items a create committed between the last query and that transaction;
// they are deleted only while no user of that name exists, so the data of
// a user who registered the name again is never touched.
//
// Under the caller's idempotency key, the record is written once the sweep
// has finished (see sweepKeying): a repeat of a finished call succeeds
// without writing, and one of an interrupted call finishes it.
func (c *core) DeleteUser(ctx context.Context, username string) (err error) {
	ctx, sp := c.start(ctx, "DeleteUser")
	defer sp.End(&err)
	const op = "delete user"
	uk, err := userRef(op, username)
	if err != nil {
		return err
	}
	_, err = backend.Keyed(ctx, sweepKeying(c, op, username, uk, nil), func(context.Context) (struct{}, error) {
		// ctx, not Keyed's: see sweepKeying.
		return struct{}{}, c.deleteUser(ctx, op, username, uk)
	})
	return wrap(op, err)
}

// sweepKeying is the keying of a sweep (DeleteUser, DeleteCategory) of
// the item at k, which goes last: the sweep runs under the method's own
// context, not the one backend.Keyed hands it, so that none of its
// transactions carries the record, and Keyed writes the record after the
// sweep succeeds, referring to k. A record written with the first step
// would answer a repeat of an interrupted sweep as done. A repeat of a
// finished sweep returns the first call's success and writes nothing
// (even if the data was made again since); a repeat of one that failed
// runs it again under the key, and finishes it.
func sweepKeying(c *core, op, username string, k itemKey, input ...any) backend.Keying[struct{}] {
	kg := keying[struct{}](c, op, username, input...)
	kg.Ref = func(struct{}) backend.Key { return k.key() }
	kg.Committed = true
	return kg
}

// deleteUser is DeleteUser's sweep of the user at uk.
func (c *core) deleteUser(ctx context.Context, op, username string, uk itemKey) error {
	q, err := userDataQuery(c.t, c.o.FilterBudget, username, "")
	if err != nil {
		return wrap(op, err)
	}
	user := uk.key()
	var (
		userGone bool // this call deleted the user, or found none
		found    bool // this call deleted something
	)
	for {
		items, next, err := c.b.Query(ctx, q, ddb.MaxTxItems-1, "", backend.Filter{})
		if err != nil {
			return wrap(op, err)
		}
		last := next == ""
		ws := make([]backend.Write, 0, len(items)+1)
		switch {
		case !userGone && last:
			ws = append(ws, backend.Delete(labelUser, c.t, user, nil))
		case !userGone:
			ws = append(ws, backend.Check(labelUser, c.t, user, nil))
		case len(items) == 0 && found:
			return nil // the usual end: the error below is not even built
		case len(items) == 0:
			return c.deleted(op, found, errUserNotFound(username))
		default:
			// The user is gone: these items are deleted only while no
			// user of that name exists.
			ws = append(ws, backend.CheckWhen(labelUser, c.t, user, backend.Absent()))
		}
		for i, it := range items {
			ws = append(ws, backend.Remove(itemLabels[i], c.t, backend.KeyOf(c.t, it)))
		}
		err = c.sweepTx(ctx, op, username, ws)
		_, userFailed := backend.Failed(err, labelUser)
		switch {
		case err == nil:
			found = true
			userGone = userGone || last
		case userFailed && !userGone:
			// No user: sweep what is left of its data without it.
			userGone = true
			if len(items) == 0 && last {
				return c.deleted(op, found, errUserNotFound(username))
			}
		case userFailed:
			// The name was registered again: what is there now is the
			// new user's.
			return c.deleted(op, found, fmt.Errorf("user %q was registered again while its old data was being deleted: %w", username, ddbkit.ErrConflict))
		default:
			return wrap(op, err)
		}
	}
}

// deleted is the result of a sweep: success if it deleted anything, else
// none.
func (c *core) deleted(op string, found bool, none error) error {
	if found {
		return nil
	}
	return wrap(op, none)
}

// sweepTx applies one transaction of a multi-step sweep (DeleteUser) under
// a fresh token of its own (backend.NewStepRun), not one made from the
// caller's idempotency key: each step writes other items at another time,
// so a repeated call under the key must run its steps again to finish the
// sweep, where the key's token would replay, or refuse, the first call's.
func (c *core) sweepTx(ctx context.Context, op, username string, ws []backend.Write) error {
	return c.b.Tx(ctx, backend.NewStepRun(c.o.scope(op, username), c.o.backoff()), ws)
}

// ---- todos

// CreateTodo implements TodoStore.CreateTodo, which documents its errors.
func (c *core) CreateTodo(ctx context.Context, username string, in NewTodo) (_ Todo, err error) {
	ctx, sp := c.start(ctx, "CreateTodo")
	defer sp.End(&err)
	const op = "create todo"
	t, _, item, err := c.o.newTodo(op, username, in)
	if err != nil {
		return Todo{}, err
	}
	k := keying[Todo](c, op, username, in)
	k.Replay = func(ctx context.Context, ref backend.Key) (Todo, error) {
		return read(ctx, c, ref, errNotFound("todo", username, refID(ref, todoSKPrefix)), todoDecoder)
	}
	t, err = backend.Keyed(ctx, k, func(ctx context.Context) (Todo, error) {
		if err := c.create(ctx, op, item, username, in.CategoryID, errExists("todo", username, t.ID)); err != nil {
			return Todo{}, wrap(op, err)
		}
		return t, nil
	})
	return t, wrap(op, err)
}

// refID is the ID in ref's sort key, {prefix}#{id}, for the error of a
// replay that finds the item gone.
func refID(ref backend.Key, prefix string) string {
	id, _ := strings.CutPrefix(ref.SK, prefix+keys.Sep)
	return id
}

// create puts a new item in one transaction with the checks that its user
// and, when categoryID is set, its category exist. It returns taken when the
// item's key is in use. The transaction's token, scoped to the user's
// partition, makes it exactly-once across lost responses. The put is the
// transaction's first write: the idempotency record of a keyed call
// refers to it (backend.Keyed), and a repeat reads it back.
func (c *core) create(ctx context.Context, op string, item ddb.Item, username, categoryID string, taken error) error {
	uk, err := userKey(username)
	if err != nil {
		return err
	}
	ws := []backend.Write{backend.PutNew(labelItem, c.t, item), backend.Check(labelUser, c.t, uk.key(), nil)}
	if ws, err = c.checkCategory(ws, username, categoryID); err != nil {
		return err
	}
	err = c.b.Tx(ctx, backend.NewRun(ctx, c.o.scope(op, username), c.o.backoff()), ws)
	if _, ok := backend.Failed(err, labelItem); ok {
		return taken
	}
	return refError(err, username, categoryID)
}

// checkCategory adds to ws the check that the category exists, when
// categoryID is set, so a write commits only with its reference.
func (c *core) checkCategory(ws []backend.Write, username, categoryID string) ([]backend.Write, error) {
	if categoryID == "" {
		return ws, nil
	}
	ck, err := categoryKey(username, categoryID)
	if err != nil {
		return nil, err
	}
	return append(ws, backend.Check(labelCategoryRef, c.t, ck.key(), nil)), nil
}

// refError turns a failed reference check into the error it stands for.
func refError(err error, username, categoryID string) error {
	if _, ok := backend.Failed(err, labelUser); ok {
		return errUserNotFound(username)
	}
	if _, ok := backend.Failed(err, labelCategoryRef); ok {
		return errUnknownCategory(categoryID)
	}
	return err
}

// GetTodo implements TodoStore.GetTodo, which documents its errors.
func (c *core) GetTodo(ctx context.Context, username, id string) (_ Todo, err error) {
	ctx, sp := c.start(ctx, "GetTodo")
	defer sp.End(&err)
	const op = "get todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return Todo{}, err
	}
	return getOne(ctx, c, op, k, errNotFound("todo", username, id), todoDecoder)
}

// ListTodos implements TodoStore.ListTodos, which documents its errors.
func (c *core) ListTodos(ctx context.Context, username string, opts ddbkit.PageOptions) (_ ddbkit.Page[Todo], err error) {
	ctx, sp := c.start(ctx, "ListTodos")
	defer sp.End(&err)
	return list(ctx, c, "list todos", opts,
		func() (ddb.KeyQuery, error) { return userDataQuery(c.t, c.o.FilterBudget, username, todoSKPrefix) },
		todoDecoder)
}

// todoChange is the update of patch at time now: updated_at, and the
// attributes of the fields patch sets.
func todoChange(patch TodoPatch, now time.Time) backend.Change {
	var u backend.Change
	u.Set(attrUpdatedAt, ddb.S(keys.Timestamp(now)))
	if patch.Title != nil {
		u.Set("title", ddb.S(*patch.Title))
	}
	if patch.Description != nil {
		u.Set("description", ddb.S(*patch.Description))
	}
	if patch.Priority != nil {
		u.Set("priority", ddb.S(string(*patch.Priority)))
	}
	if patch.Completed != nil {
		u.Set(attrCompleted, &types.AttributeValueMemberBOOL{Value: *patch.Completed})
	}
	if patch.CategoryID != nil {
		u.Set(attrCategoryID, ddb.S(*patch.CategoryID))
	}
	return u
}

// UpdateTodo implements TodoStore.UpdateTodo, which documents its errors.
func (c *core) UpdateTodo(ctx context.Context, username, id string, patch TodoPatch) (_ Todo, err error) {
	ctx, sp := c.start(ctx, "UpdateTodo")
	defer sp.End(&err)
	const op = "update todo"
	k, err := todoPatchRef(op, username, id, patch)
	if err != nil {
		return Todo{}, err
	}
	now, err := c.o.stamp()
	if err != nil {
		return Todo{}, wrap(op, err)
	}
	// Run again, the update would bump UpdatedAt again: a repeat under the
	// caller's key reads the todo back instead.
	t, err := backend.Keyed(ctx, todoKeying(c, op, username, k, id, patch), func(ctx context.Context) (Todo, error) {
		if patch.CategoryID != nil && *patch.CategoryID != "" {
			t, err := c.updateTodoInCategory(ctx, op, k, username, id, patch, now)
			return t, wrap(op, err)
		}
		// Without a category to check, one UpdateItem that returns the new
		// item. Setting values is safe to repeat after a lost response.
		return updateOne(ctx, c, op, k, todoChange(patch, now), errNotFound("todo", username, id),
			func(it ddb.Item) (Todo, error) { return decodeTodo(c.t, it, username) })
	})
	return t, wrap(op, err)
}

// todoKeying is the keying of a write that returns the todo id at k as it
// left it (UpdateTodo, ToggleTodo): a repeat under the caller's key reads
// that todo back. A single UpdateItem carries no record, so the record
// refers to the todo (Keying.Ref) and is written after it.
func todoKeying(c *core, op, username string, k itemKey, id string, input ...any) backend.Keying[Todo] {
	kg := keying[Todo](c, op, username, input...)
	kg.Replay = func(ctx context.Context, ref backend.Key) (Todo, error) {
		return read(ctx, c, ref, errNotFound("todo", username, id), todoDecoder)
	}
	kg.Ref = func(Todo) backend.Key { return k.key() }
	return kg
}

// updateTodoInCategory applies patch, which sets a category, in a
// transaction with the check that the category exists. A transaction
// cannot return the new item, so it reads the todo first and conditions
// the update on every attribute it read: the todo as committed is then
// exactly the one read with the patch applied, and no read-back (which
// could fail, or see a later write) follows the commit. backend.RMW runs
// it: one retry budget for the resends and the rebuilds, and one token
// for every build.
func (c *core) updateTodoInCategory(ctx context.Context, op string, k itemKey, username, id string, patch TodoPatch, now time.Time) (Todo, error) {
	var (
		old    Todo
		strong bool // read strongly, after a condition failed
	)
	cat := *patch.CategoryID
	err := backend.RMW(ctx, c.o.backoff(), c.o.scope(op, username), func(r *backend.Run) error {
		item, err := c.readForWrite(ctx, k, strong)
		if err != nil {
			return err
		}
		if item == nil {
			return errNotFound("todo", username, id)
		}
		if old, err = decodeTodo(c.t, item, username); err != nil {
			return err
		}
		// The update first: a todo gone is reported before a category
		// missing.
		ws := []backend.Write{backend.Update(labelItem, c.t, k.key(), todoChange(patch, now), backend.Unchanged(c.t, item, todoAttrs))}
		if ws, err = c.checkCategory(ws, username, cat); err != nil {
			return err
		}
		err = c.b.Tx(ctx, r, ws)
		if old, failed := backend.Failed(err, labelItem); failed {
			if old == nil {
				return errNotFound("todo", username, id)
			}
			strong = true
			return backend.Changed("todo %q changed while it was being updated", id)
		}
		return refError(err, username, cat)
	})
	if err != nil {
		return Todo{}, err
	}
	res := patch.apply(old)
	res.UpdatedAt = now
	return res, nil
}

// readForWrite reads the item at k for a read-modify-write whose write is
// conditioned on the values it read (ToggleTodo, UpdateTodo with a
// category): eventually consistently, at half the read capacity, unless
// strong is set. A stale read can only make the condition fail, and the
// caller then reads again with strong set; an item an eventually
// consistent read does not find may be new, so it is looked for again,
// strongly, before the caller reports it missing.
func (c *core) readForWrite(ctx context.Context, k itemKey, strong bool) (ddb.Item, error) {
	if !strong {
		item, err := c.b.GetEventual(ctx, c.t, k.key())
		if err != nil || item != nil {
			return item, err
		}
	}
	return c.b.Get(ctx, c.t, k.key())
}

// ToggleTodo implements TodoStore.ToggleTodo, which documents its errors.
//
// It reads the todo and writes the flipped value, conditioned on completed
// and updated_at as read (either may be missing), and reads again when
// that condition fails on another writer's change (backend.RMW: one bound
// for the rebuilds). The backend repeats the write after a 5xx, and takes
// a repeat that fails its condition on this very write as done. A failed
// condition on an item that holds what this toggle writes is its own
// write too, repeated by the SDK. One that fails after a 5xx on an item
// someone else changed leaves the toggle's outcome unknown: it is not
// toggled again (backend.CondError's Uncertain).
func (c *core) ToggleTodo(ctx context.Context, username, id string) (_ Todo, err error) {
	ctx, sp := c.start(ctx, "ToggleTodo")
	defer sp.End(&err)
	const op = "toggle todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return Todo{}, err
	}
	// Run again, a toggle would flip the todo back: a repeat under the
	// caller's key reads the todo back instead.
	t, err := backend.Keyed(ctx, todoKeying(c, op, username, k, id, id), func(ctx context.Context) (Todo, error) {
		return c.toggleTodo(ctx, op, username, id, k)
	})
	return t, wrap(op, err)
}

// toggleTodo is ToggleTodo's read-modify-write of the todo id at k.
func (c *core) toggleTodo(ctx context.Context, op, username, id string, k itemKey) (Todo, error) {
	var (
		res    Todo
		strong bool // read strongly, after a condition failed
	)
	err := backend.RMW(ctx, c.o.backoff(), c.o.scope(op, username), func(*backend.Run) error {
		item, err := c.readForWrite(ctx, k, strong)
		if err != nil {
			return err
		}
		if item == nil {
			return errNotFound("todo", username, id)
		}
		old, err := decodeTodo(c.t, item, username)
		if err != nil {
			return err
		}
		now, err := checkClock(c.toggles.stamp(c.o))
		if err != nil {
			return err
		}
		w := toggleWrite{completed: !old.Completed, stamp: keys.Timestamp(now)}
		var change backend.Change
		change.Set(attrCompleted, &types.AttributeValueMemberBOOL{Value: w.completed})
		change.Set(attrUpdatedAt, ddb.S(w.stamp))
		out, err := c.b.Update(ctx, c.t, k.key(), change, backend.Unchanged(c.t, item, toggleAttrs))
		if err == nil {
			res, err = decodeTodo(c.t, out, username)
			return err
		}
		cur, failed := backend.Failed(err, "")
		switch {
		case !failed:
			return err
		case cur == nil:
			return errNotFound("todo", username, id)
		case w.mine(cur):
			res, err = decodeTodo(c.t, cur, username)
			return err
		case backend.Uncertain(err):
			return fmt.Errorf("todo %q changed after a toggle whose response was lost; whether the toggle took effect is unknown: %w",
				id, ddbkit.ErrUnavailable)
		}
		strong = true
		return backend.Changed("todo %q changed while it was being toggled", id)
	})
	return res, wrap(op, err)
}

// toggleWrite is what one toggle writes.
type toggleWrite struct {
	completed bool
	stamp     string
}

// toggleAttrs are the attributes a toggle conditions its write on.
var toggleAttrs = []string{attrCompleted, attrUpdatedAt}

// mine reports whether item holds what w writes.
func (w *toggleWrite) mine(item ddb.Item) bool {
	c, ok := item[attrCompleted].(*types.AttributeValueMemberBOOL)
	u, ok2 := item[attrUpdatedAt].(*types.AttributeValueMemberS)
	return ok && ok2 && c.Value == w.completed && u.Value == w.stamp
}

// DeleteTodo implements TodoStore.DeleteTodo, which documents its errors.
func (c *core) DeleteTodo(ctx context.Context, username, id string) (err error) {
	ctx, sp := c.start(ctx, "DeleteTodo")
	defer sp.End(&err)
	const op = "delete todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return err
	}
	// Run again, the delete would find no todo: a repeat under the
	// caller's key returns the first call's success instead. The record
	// commits with the delete, so it is there only if the delete was.
	k2 := keying[struct{}](c, op, username, id)
	k2.Committed = true
	_, err = backend.Keyed(ctx, k2, func(ctx context.Context) (struct{}, error) {
		// A transaction, for its token: a repeat after a lost response finds
		// its own commit, and one after a 500 that wrote nothing deletes, or
		// reports a missing todo. A DeleteItem repeated after a 500 could not
		// tell a todo it deleted from one that never was.
		err := c.b.Tx(ctx, backend.NewRun(ctx, c.o.scope(op, username), c.o.backoff()),
			[]backend.Write{backend.Delete(labelItem, c.t, k.key(), nil)})
		if _, failed := backend.Failed(err, labelItem); failed {
			return struct{}{}, wrap(op, errNotFound("todo", username, id))
		}
		return struct{}{}, wrap(op, err)
	})
	return wrap(op, err)
}

// ---- categories

// CreateCategory implements CategoryStore.CreateCategory, which documents its errors.
func (c *core) CreateCategory(ctx context.Context, username string, in NewCategory) (_ Category, err error) {
	ctx, sp := c.start(ctx, "CreateCategory")
	defer sp.End(&err)
	const op = "create category"
	cat, _, item, err := c.o.newCategory(op, username, in)
	if err != nil {
		return Category{}, err
	}
	k := keying[Category](c, op, username, in)
	k.Replay = func(ctx context.Context, ref backend.Key) (Category, error) {
		return read(ctx, c, ref, errNotFound("category", username, refID(ref, categorySKPref)), categoryDecoder)
	}
	cat, err = backend.Keyed(ctx, k, func(ctx context.Context) (Category, error) {
		if err := c.create(ctx, op, item, username, "", errExists("category", username, cat.ID)); err != nil {
			return Category{}, wrap(op, err)
		}
		return cat, nil
	})
	return cat, wrap(op, err)
}

// GetCategory implements CategoryStore.GetCategory, which documents its errors.
func (c *core) GetCategory(ctx context.Context, username, id string) (_ Category, err error) {
	ctx, sp := c.start(ctx, "GetCategory")
	defer sp.End(&err)
	const op = "get category"
	k, err := categoryRef(op, username, id)
	if err != nil {
		return Category{}, err
	}
	return getOne(ctx, c, op, k, errNotFound("category", username, id),
		categoryDecoder)
}

// ListCategories implements CategoryStore.ListCategories, which documents its errors.
func (c *core) ListCategories(ctx context.Context, username string, opts ddbkit.PageOptions) (_ ddbkit.Page[Category], err error) {
	ctx, sp := c.start(ctx, "ListCategories")
	defer sp.End(&err)
	return list(ctx, c, "list categories", opts,
		func() (ddb.KeyQuery, error) { return userDataQuery(c.t, c.o.FilterBudget, username, categorySKPref) },
		categoryDecoder)
}

// UpdateCategory implements CategoryStore.UpdateCategory, which documents its errors.
func (c *core) UpdateCategory(ctx context.Context, username, id string, patch CategoryPatch) (_ Category, err error) {
	ctx, sp := c.start(ctx, "UpdateCategory")
	defer sp.End(&err)
	const op = "update category"
	k, err := categoryPatchRef(op, username, id, patch)
	if err != nil {
		return Category{}, err
	}
	now, err := c.o.stamp()
	if err != nil {
		return Category{}, wrap(op, err)
	}
	var u backend.Change
	u.Set(attrUpdatedAt, ddb.S(keys.Timestamp(now)))
	if patch.Name != nil {
		u.Set("name", ddb.S(*patch.Name))
	}
	if patch.Color != nil {
		u.Set("color", ddb.S(string(*patch.Color)))
	}
	// Run again, the update would bump UpdatedAt again: a repeat under the
	// caller's key reads the category back instead. The UpdateItem carries
	// no record, so the record refers to the category and is written after.
	kg := keying[Category](c, op, username, id, patch)
	kg.Replay = func(ctx context.Context, ref backend.Key) (Category, error) {
		return read(ctx, c, ref, errNotFound("category", username, id), categoryDecoder)
	}
	kg.Ref = func(Category) backend.Key { return k.key() }
	cat, err := backend.Keyed(ctx, kg, func(ctx context.Context) (Category, error) {
		return updateOne(ctx, c, op, k, u, errNotFound("category", username, id),
			func(it ddb.Item) (Category, error) { return decodeCategory(c.t, it, username) })
	})
	return cat, wrap(op, err)
}

// DeleteCategory implements CategoryStore.DeleteCategory, which documents its errors.
//
// Under the caller's idempotency key, its record is written once the
// sweep has finished, as DeleteUser's is (see sweepKeying).
//
// The category goes last. A consistent walk of the user's todos, filtered
// on category_id and bounded per page by Options.FilterBudget, finds the
// todos that refer to it, at most 99 a page, and one transaction per page
// that has any clears them, with a check that the category still exists;
// the transaction of the walk's last page deletes the category. So a crash
// at any point leaves either the category (and a repeated call goes on) or
// no reference to it. Once the category is gone, a second walk clears the
// references a create made meanwhile behind the first walk's cursor (and,
// on a repeated call, whatever an interrupted one left), each page only
// while no category of that ID exists.
func (c *core) DeleteCategory(ctx context.Context, username, id string) (err error) {
	ctx, sp := c.start(ctx, "DeleteCategory")
	defer sp.End(&err)
	const op = "delete category"
	ck, err := categoryRef(op, username, id)
	if err != nil {
		return err
	}
	_, err = backend.Keyed(ctx, sweepKeying(c, op, username, ck, id), func(context.Context) (struct{}, error) {
		// ctx, not Keyed's: see sweepKeying.
		return struct{}{}, c.deleteCategory(ctx, op, username, id, ck)
	})
	return wrap(op, err)
}

// deleteCategory is DeleteCategory's sweep of the category id at ck.
func (c *core) deleteCategory(ctx context.Context, op, username, id string, ck itemKey) error {
	q, err := userDataQuery(c.t, c.o.FilterBudget, username, todoSKPrefix)
	if err != nil {
		return wrap(op, err)
	}
	now, err := c.o.stamp()
	if err != nil {
		return wrap(op, err)
	}
	refersTo := backend.Equal(attrCategoryID, ddb.S(id))
	// A todo is cleared only while it still refers to the category.
	var clear backend.Change
	clear.Set(attrCategoryID, ddb.S(""))
	clear.Set(attrUpdatedAt, ddb.S(keys.Timestamp(now)))
	stillRefers := backend.When(refersTo)
	category := ck.key()
	var (
		catGone bool   // this call deleted the category, or found none
		found   bool   // this call deleted or cleared something
		cursor  string // where the walk goes on
	)
	for {
		var (
			refs  []ddb.Item
			next  string
			wrote bool
		)
		// One page: read it, and clear its references in a transaction,
		// read again when a todo changed in between.
		// Each page is a step under a fresh token (backend.RMWStep), as
		// DeleteUser's are (see sweepTx).
		err := backend.RMWStep(ctx, c.o.backoff(), c.o.scope(op, username), func(r *backend.Run) error {
			var err error
			wrote = false
			if refs, next, err = c.b.Query(ctx, q, ddb.MaxTxItems-1, cursor, refersTo); err != nil {
				return err
			}
			ws := make([]backend.Write, 0, len(refs)+1)
			switch {
			case !catGone && next == "":
				ws = append(ws, backend.Delete(labelCategory, c.t, category, nil))
			case len(refs) == 0:
				return nil // a page the budget ended before it found any
			case !catGone:
				ws = append(ws, backend.Check(labelCategory, c.t, category, nil))
			default:
				// The category is gone: clear only while none of this ID
				// exists.
				ws = append(ws, backend.CheckWhen(labelCategory, c.t, category, backend.Absent()))
			}
			for i, it := range refs {
				ws = append(ws, backend.Update(todoLabels[i], c.t, backend.KeyOf(c.t, it), clear, stillRefers))
			}
			err = c.b.Tx(ctx, r, ws)
			var ce *backend.CondError
			if errors.As(err, &ce) && ce.Label != labelCategory {
				// A todo changed between the query and the transaction.
				return backend.Changed("todos of category %q kept changing while being uncategorized", id)
			}
			wrote = err == nil
			return err
		})
		last := next == ""
		_, catFailed := backend.Failed(err, labelCategory)
		switch {
		case err == nil:
			found = found || wrote
			switch {
			case !last:
				cursor = next
			case !catGone:
				catGone, cursor = true, "" // deleted with the last page
			default:
				return c.deleted(op, found, errNotFound("category", username, id))
			}
		case catFailed && !catGone:
			// No category: clear what still refers to it. When this was
			// the walk's last page and it had nothing to clear, the walk
			// found no reference at all.
			if len(refs) == 0 && last {
				return c.deleted(op, found, errNotFound("category", username, id))
			}
			catGone, cursor = true, ""
		case catFailed:
			// A category of this ID was created again: the todos that
			// refer to it now are its own.
			return c.deleted(op, found, fmt.Errorf("category %q of user %q was created again while todos were being uncategorized: %w", id, username, ddbkit.ErrConflict))
		default:
			return wrap(op, err)
		}
	}
}

// ListUserData implements Store.ListUserData, which documents its errors.
func (c *core) ListUserData(ctx context.Context, username string, opts ddbkit.PageOptions) (_ ddbkit.Page[Record], err error) {
	ctx, sp := c.start(ctx, "ListUserData")
	defer sp.End(&err)
	return list(ctx, c, "list user data", opts,
		func() (ddb.KeyQuery, error) { return userDataQuery(c.t, c.o.FilterBudget, username, "") },
		recordDecoder)
}

// ---- shared steps

// keying is the backend.Keying of write method op on username's data
// (see "Retries, lost responses and idempotency keys" in the package
// doc): its record goes to the store's table, which has no TTL attribute,
// under the scope of op's token, and input, the method's arguments that
// are not in the scope's partition, makes its fingerprint. The method
// sets Replay, and Ref, when its repeat would not return the first
// call's result by itself.
func keying[T any](c *core, op, username string, input ...any) backend.Keying[T] {
	return backend.Keying[T]{Backend: c.b, Table: c.t, Scope: c.o.scope(op, username), Now: c.o.now, Input: input}
}

// getOne reads the item at k and decodes it, or returns notFound.
func getOne[T any](ctx context.Context, c *core, op string, k itemKey, notFound error, dec *backend.Decoder[T]) (T, error) {
	v, err := read(ctx, c, k.key(), notFound, dec)
	return v, wrap(op, err)
}

// read reads the item at k with one consistent Get and decodes it, or
// returns notFound: a Get, and the replay of a keyed write from the key
// of the item its first call wrote.
func read[T any](ctx context.Context, c *core, k backend.Key, notFound error, dec *backend.Decoder[T]) (T, error) {
	var zero T
	item, err := c.b.Get(ctx, c.t, k)
	if err != nil {
		return zero, err
	}
	if item == nil {
		return zero, notFound
	}
	return backend.Decode(c.b, c.t, item, dec)
}

// updateOne applies u to the existing item at k, or returns notFound, and
// decodes the item as written. Setting values on an existing item is safe
// to repeat after a lost response, and the backend does.
func updateOne[T any](ctx context.Context, c *core, op string, k itemKey, u backend.Change, notFound error, dec func(ddb.Item) (T, error)) (T, error) {
	var zero T
	out, err := c.b.Update(ctx, c.t, k.key(), u, backend.Exists(nil))
	if _, ok := backend.Failed(err, ""); ok {
		return zero, wrap(op, notFound)
	}
	if err != nil {
		return zero, wrap(op, err)
	}
	v, err := dec(out)
	return v, wrap(op, err)
}

// list runs one page of a listing and decodes its items. Items that
// cannot be decoded are left out and reported in Page.Skipped.
func list[T any](ctx context.Context, c *core, op string, opts ddbkit.PageOptions, query func() (ddb.KeyQuery, error), dec *backend.Decoder[T]) (ddbkit.Page[T], error) {
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	q, err := query()
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	return backend.QueryPage(ctx, c.b, q, limit, opts.Cursor, backend.Filter{}, dec, func(err error) error { return wrap(op, err) })
}
