package todo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// DynamoStore is the Store on DynamoDB. All its reads are strongly
// consistent, so that it behaves like MemoryStore: a write is visible to the
// next read.
type DynamoStore struct {
	c       ddbkit.Client
	o       Options
	t       ddb.Table
	toggles toggleClock
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the table named by the options, which
// must exist (see EnsureTable). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	return &DynamoStore{c: c, o: o, t: o.table()}
}

// Attribute names used in expressions.
const (
	attrCompleted  = "completed"
	attrCategoryID = "category_id"
	attrCreatedAt  = "created_at"
	attrUpdatedAt  = "updated_at"
)

var (
	nPK         = expression.Name(AttrPK)
	nCategoryID = expression.Name(attrCategoryID)
	nUpdatedAt  = expression.Name(attrUpdatedAt)
	exists      = expression.AttributeExists(nPK)
	notExists   = expression.AttributeNotExists(nPK)
)

// todoAttrs are the non-key attributes of a todo, as the seed lists them.
var todoAttrs = []string{"id", "entity_type", "title", "description", "priority", attrCompleted,
	attrCategoryID, attrCreatedAt, attrUpdatedAt}

// CreateUser implements UserStore.CreateUser, which documents its errors.
func (s *DynamoStore) CreateUser(ctx context.Context, u User) error {
	const op = "create user"
	_, item, err := newUser(op, u)
	if err != nil {
		return err
	}
	// PutNew succeeds only when this call wrote the user, as its token
	// proves after a lost response: a user someone else wrote is taken,
	// even with the same email. It retries itself.
	err = ddb.PutNew(ctx, s.c, s.o.backoff(), s.o.scope(op, u.Username), s.t, item, pNotExists)
	if ddb.IsConditionFailed(err) {
		return wrap(op, errUserExists(u.Username))
	}
	return wrap(op, err)
}

// GetUser implements UserStore.GetUser, which documents its errors.
func (s *DynamoStore) GetUser(ctx context.Context, username string) (User, error) {
	const op = "get user"
	k, err := userRef(op, username)
	if err != nil {
		return User{}, err
	}
	item, err := s.get(ctx, k)
	if err != nil || item == nil {
		return User{}, wrap(op, orNotFound(err, errUserNotFound(username)))
	}
	u, err := decodeUser(s.t, item)
	return u, wrap(op, err)
}

// ListUsers implements UserStore.ListUsers, which documents its errors.
func (s *DynamoStore) ListUsers(ctx context.Context, opts ddbkit.PageOptions) (ddbkit.Page[User], error) {
	return list(ctx, s, "list users", opts, func() (ddb.KeyQuery, error) { return usersQuery(s.t, s.o.FilterBudget), nil },
		func(it ddb.Item) (User, error) { return decodeUser(s.t, it) })
}

// UpdateUser implements UserStore.UpdateUser, which documents its errors.
func (s *DynamoStore) UpdateUser(ctx context.Context, u User) error {
	const op = "update user"
	k, _, err := newUser(op, u)
	if err != nil {
		return err
	}
	email := ddb.S(u.Email)
	// Setting a value is safe to repeat after a lost response.
	err = s.retry(ctx, func() error {
		_, err := s.update(ctx, k, pEmail, []types.AttributeValue{email}, types.ReturnValueNone)
		return err
	})
	if ddb.IsConditionFailed(err) {
		return wrap(op, errUserNotFound(u.Username))
	}
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
func (s *DynamoStore) DeleteUser(ctx context.Context, username string) error {
	const op = "delete user"
	uk, err := userRef(op, username)
	if err != nil {
		return err
	}
	q, err := userDataQuery(s.t, s.o.FilterBudget, username, "")
	if err != nil {
		return wrap(op, err)
	}
	user := uk.item(s.t)
	var (
		userGone bool // this call deleted the user, or found none
		found    bool // this call deleted something
	)
	for {
		items, next, err := s.queryPage(ctx, q, ddb.MaxTxItems-1, "", nil)
		if err != nil {
			return wrap(op, err)
		}
		last := next == ""
		var tx ddb.Tx
		switch {
		case !userGone && last:
			tx.DeletePrepared(labelUser, s.t, user, pExists)
		case !userGone:
			tx.CheckPrepared(labelUser, s.t, user, pExists)
		case len(items) == 0 && found:
			return nil // the usual end: the error below is not even built
		case len(items) == 0:
			return s.deleted(op, found, errUserNotFound(username))
		default:
			tx.CheckPrepared(labelUser, s.t, user, pNotExists)
		}
		for i, it := range items {
			tx.Delete(itemLabels[i], s.t, s.t.KeyOf(it))
		}
		err = s.execStep(ctx, &tx)
		_, userFailed := ddb.ConditionFailed(err, labelUser)
		switch {
		case err == nil:
			found = true
			userGone = userGone || last
		case userFailed && !userGone:
			// No user: sweep what is left of its data without it.
			userGone = true
			if len(items) == 0 && last {
				return s.deleted(op, found, errUserNotFound(username))
			}
		case userFailed:
			// The name was registered again: what is there now is the
			// new user's.
			return s.deleted(op, found, fmt.Errorf("user %q was registered again while its old data was being deleted: %w", username, ddbkit.ErrConflict))
		default:
			return wrap(op, err)
		}
	}
}

// deleted is the result of a sweep: success if it deleted anything, else
// none.
func (s *DynamoStore) deleted(op string, found bool, none error) error {
	if found {
		return nil
	}
	return wrap(op, none)
}

// execStep runs one transaction of a multi-step sweep (DeleteUser,
// DeleteCategory) with ExecTx, under a token of its own that no other step
// or call shares, not one made from the caller's idempotency key: each step
// writes other items at another time, so a repeated call under the key
// would only fail with ErrConflict where it should finish the sweep. The
// retries of the step still share its token, and are its one retry loop.
func (s *DynamoStore) execStep(ctx context.Context, tx *ddb.Tx) error {
	return ddb.ExecTxToken(ctx, s.c, s.o.backoff(), uuid.NewString(), tx)
}

// CreateTodo implements TodoStore.CreateTodo, which documents its errors.
func (s *DynamoStore) CreateTodo(ctx context.Context, username string, in NewTodo) (Todo, error) {
	const op = "create todo"
	t, _, item, err := s.o.newTodo(op, username, in)
	if err != nil {
		return Todo{}, err
	}
	if err := s.create(ctx, op, item, username, in.CategoryID, errExists("todo", username, t.ID)); err != nil {
		return Todo{}, wrap(op, err)
	}
	return t, nil
}

// create puts a new item in one transaction with the checks that its user
// and, when categoryID is set, its category exist. It returns taken when the
// item's key is in use. The transaction's token, scoped to the user's
// partition, makes it exactly-once across lost responses, and across the
// caller's repeats under one idempotency key. ExecTx is its one retry
// loop.
func (s *DynamoStore) create(ctx context.Context, op string, item ddb.Item, username, categoryID string, taken error) error {
	var tx ddb.Tx
	if err := s.checkRefs(&tx, username, categoryID); err != nil {
		return err
	}
	tx.PutPrepared(labelItem, s.t, item, pNotExists)
	err := ddb.ExecTx(ctx, s.c, s.o.backoff(), s.o.scope(op, username), &tx)
	if _, ok := ddb.ConditionFailed(err, labelItem); ok {
		return taken
	}
	return s.refError(err, username, categoryID)
}

// Transaction item labels, by which cancellation reasons are told apart.
const (
	labelUser        = "user"
	labelCategory    = "category"
	labelCategoryRef = "category reference"
	labelItem        = "item"
)

// checkRefs adds the checks that the user exists and, when categoryID is
// set, that the category does, so a create commits only with its references.
func (s *DynamoStore) checkRefs(tx *ddb.Tx, username, categoryID string) error {
	uk, err := userKey(username)
	if err != nil {
		return err
	}
	tx.CheckPrepared(labelUser, s.t, uk.item(s.t), pExists)
	return s.checkCategory(tx, username, categoryID)
}

func (s *DynamoStore) checkCategory(tx *ddb.Tx, username, categoryID string) error {
	if categoryID == "" {
		return nil
	}
	ck, err := categoryKey(username, categoryID)
	if err != nil {
		return err
	}
	tx.CheckPrepared(labelCategoryRef, s.t, ck.item(s.t), pExists)
	return nil
}

// refError turns a failed reference check into the error it stands for, in
// the order MemoryStore checks them.
func (s *DynamoStore) refError(err error, username, categoryID string) error {
	if _, ok := ddb.ConditionFailed(err, labelUser); ok {
		return errUserNotFound(username)
	}
	if _, ok := ddb.ConditionFailed(err, labelCategoryRef); ok {
		return errUnknownCategory(categoryID)
	}
	return err
}

// GetTodo implements TodoStore.GetTodo, which documents its errors.
func (s *DynamoStore) GetTodo(ctx context.Context, username, id string) (Todo, error) {
	const op = "get todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return Todo{}, err
	}
	item, err := s.get(ctx, k)
	if err != nil || item == nil {
		return Todo{}, wrap(op, orNotFound(err, errNotFound("todo", username, id)))
	}
	t, err := decodeTodo(s.t, item, username)
	return t, wrap(op, err)
}

// ListTodos implements TodoStore.ListTodos, which documents its errors.
func (s *DynamoStore) ListTodos(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Todo], error) {
	return list(ctx, s, "list todos", opts,
		func() (ddb.KeyQuery, error) { return userDataQuery(s.t, s.o.FilterBudget, username, todoSKPrefix) },
		func(it ddb.Item) (Todo, error) { return decodeTodo(s.t, it, username) })
}

// UpdateTodo implements TodoStore.UpdateTodo, which documents its errors.
func (s *DynamoStore) UpdateTodo(ctx context.Context, username, id string, patch TodoPatch) (Todo, error) {
	const op = "update todo"
	k, err := todoPatchRef(op, username, id, patch)
	if err != nil {
		return Todo{}, err
	}
	now, err := s.o.stamp()
	if err != nil {
		return Todo{}, wrap(op, err)
	}
	if patch.CategoryID != nil && *patch.CategoryID != "" {
		t, err := s.updateTodoInCategory(ctx, op, k, username, id, patch, now)
		return t, wrap(op, err)
	}
	// Without a category to check, one UpdateItem that returns the new
	// item. Setting values is safe to repeat after a lost response.
	sets, mask := todoSets(patch, now)
	p, args := updateExisting(shapeTodoUpdate, mask, sets), values(sets)
	var out ddb.Item
	err = s.retry(ctx, func() (err error) {
		out, err = s.update(ctx, k, p, args, types.ReturnValueAllNew)
		return err
	})
	if ddb.IsConditionFailed(err) {
		return Todo{}, wrap(op, errNotFound("todo", username, id))
	}
	if err != nil {
		return Todo{}, wrap(op, err)
	}
	t, err := decodeTodo(s.t, out, username)
	return t, wrap(op, err)
}

// updateTodoInCategory applies patch, which sets a category, in a
// transaction with the check that the category exists. A transaction
// cannot return the new item, so it reads the todo first and conditions
// the update on every attribute it read: the todo as committed is then
// exactly the one read with the patch applied, and no read-back (which
// could fail, or see a later write) follows the commit.
func (s *DynamoStore) updateTodoInCategory(ctx context.Context, op string, k itemKey, username, id string, patch TodoPatch, now time.Time) (Todo, error) {
	var (
		old    Todo
		strong bool // read strongly, after a condition failed
	)
	cat := *patch.CategoryID
	// Every build keeps op's token (see ddb.ExecTx): a cancelled build
	// leaves it free, and a caller's repeat cannot commit twice.
	token := ddb.Token(ctx, s.o.scope(op, username))
	build := func() (*ddb.Tx, error) {
		var item ddb.Item
		err := s.retry(ctx, func() (err error) {
			item, err = s.readForWrite(ctx, k, strong)
			return err
		})
		if err != nil || item == nil {
			return nil, orNotFound(err, errNotFound("todo", username, id))
		}
		if old, err = decodeTodo(s.t, item, username); err != nil {
			return nil, err
		}
		var tx ddb.Tx
		if err := s.checkCategory(&tx, username, cat); err != nil {
			return nil, err
		}
		sets, mask := todoSets(patch, now)
		p, args := updateUnchanged(shapeTodoUpdateUnchanged, mask, sets, item, todoAttrs)
		tx.UpdatePrepared(labelItem, s.t, k.item(s.t), p, args...)
		tx.Token(token)
		return &tx, nil
	}
	check := func(err error) (error, bool) {
		if old, failed := ddb.ConditionFailed(err, labelItem); failed {
			if old == nil {
				return errNotFound("todo", username, id), false
			}
			strong = true
			return changed("todo %q changed while it was being updated", id), true
		}
		return s.refError(err, username, cat), false
	}
	if err := txLoop(ctx, s.c, s.o.backoff(), build, check); err != nil {
		return Todo{}, err
	}
	res := patch.apply(old)
	res.UpdatedAt = now
	return res, nil
}

// txLoop runs a read-modify-write whose write is one transaction. build
// reads and returns the transaction, its token set; check turns a failure
// into the error to report, and says whether it means the values read
// changed, so that build must read again. Every TransactWriteItems call
// (the first, a resend, or one after a rebuild) counts against one bound
// of b.Attempts: a throttle, a 5xx, a lost response or a transaction
// conflict resends the same transaction with its token, and a changed
// read builds anew. So the step makes at most RetryPolicy.MaxAttempts
// transaction calls whatever mix of failures it meets, where ddb.ExecTx's
// own loop nested in a rebuild loop would multiply the bound. (The reads
// of build are steps of their own, each within its own bound.) build may
// return no transaction when there is nothing to write; txLoop then
// returns nil.
func txLoop(ctx context.Context, c ddbkit.Client, b ddb.Backoff, build func() (*ddb.Tx, error), check func(error) (error, bool)) error {
	var tx *ddb.Tx
	for n := 1; ; n++ {
		if tx == nil {
			var err error
			if tx, err = build(); err != nil || tx == nil {
				return err
			}
		}
		err := tx.Exec(ctx, c)
		if err == nil {
			return nil
		}
		report, rebuild := check(err)
		switch {
		case rebuild:
			tx = nil
		case ddb.RetryableWithToken(err):
			report = ddb.Classify(err)
		default:
			return report
		}
		if n >= max(b.Attempts, 1) {
			return fmt.Errorf("gave up after %d attempts: %w", n, report)
		}
		if err := ddb.Sleep(ctx, b.Delay(n)); err != nil {
			return err
		}
	}
}

// ToggleTodo implements TodoStore.ToggleTodo, which documents its errors.
//
// It reads the todo and writes the flipped value, conditioned on completed
// and updated_at as read (either may be missing). When the condition fails,
// the item DynamoDB returns tells a lost race (re-read and try again) from
// this call's own write, committed by an attempt whose response was lost
// and repeated by the SDK or by this loop: that item holds the completed
// value and the updated_at this attempt writes, and the toggle is done.
func (s *DynamoStore) ToggleTodo(ctx context.Context, username, id string) (Todo, error) {
	const op = "toggle todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return Todo{}, err
	}
	var (
		res    Todo
		w      *toggleWrite // the write under way; nil to read (again)
		strong bool         // read strongly, after a condition failed
	)
	err = s.retry(ctx, func() error {
		if w == nil {
			item, err := s.readForWrite(ctx, k, strong)
			if err != nil || item == nil {
				return orNotFound(err, errNotFound("todo", username, id))
			}
			old, err := decodeTodo(s.t, item, username)
			if err != nil {
				return err
			}
			now, err := checkClock(s.toggles.stamp(s.o))
			if err != nil {
				return err
			}
			w = &toggleWrite{completed: !old.Completed, stamp: keys.Timestamp(now)}
			w.p, w.args = updateUnchanged(shapeToggle, 0, []set{
				{attrCompleted, &types.AttributeValueMemberBOOL{Value: w.completed}},
				{attrUpdatedAt, ddb.S(w.stamp)},
			}, item, toggleAttrs)
		}
		out, err := s.updateItem(ctx, k, w.p, w.args, types.ReturnValueAllNew)
		var ccf *types.ConditionalCheckFailedException
		switch {
		case err == nil:
			res, err = decodeTodo(s.t, out, username)
			return err
		case errors.As(err, &ccf) && ccf.Item == nil:
			return errNotFound("todo", username, id)
		case errors.As(err, &ccf) && w.mine(ccf.Item):
			res, err = decodeTodo(s.t, ccf.Item, username)
			return err
		case errors.As(err, &ccf) && w.uncertain:
			return fmt.Errorf("todo %q changed after a toggle whose response was lost; whether the toggle took effect is unknown: %w",
				id, ddbkit.ErrUnavailable)
		case errors.As(err, &ccf):
			w, strong = nil, true
			return changed("todo %q changed while it was being toggled", id)
		case ddb.ServerError(err):
			w.uncertain = true // it may have committed
		}
		return err
	})
	return res, wrap(op, err)
}

// toggleWrite is one toggle's write, kept across the attempts that repeat
// it.
type toggleWrite struct {
	completed bool
	stamp     string
	p         *ddb.Prepared // the update, conditioned on the values read
	args      []types.AttributeValue
	uncertain bool // an attempt failed after it may have committed
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
func (s *DynamoStore) DeleteTodo(ctx context.Context, username, id string) error {
	const op = "delete todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return err
	}
	// A transaction, for its token: a repeat after a lost response finds
	// its own commit, and one after a 500 that wrote nothing deletes, or
	// reports a missing todo. A DeleteItem repeated after a 500 could not
	// tell a todo it deleted from one that never was.
	var tx ddb.Tx
	tx.DeletePrepared(labelItem, s.t, k.item(s.t), pExists)
	err = ddb.ExecTx(ctx, s.c, s.o.backoff(), s.o.scope(op, username), &tx)
	if _, failed := ddb.ConditionFailed(err, labelItem); failed {
		return wrap(op, errNotFound("todo", username, id))
	}
	return wrap(op, err)
}

// CreateCategory implements CategoryStore.CreateCategory, which documents its errors.
func (s *DynamoStore) CreateCategory(ctx context.Context, username string, in NewCategory) (Category, error) {
	const op = "create category"
	c, _, item, err := s.o.newCategory(op, username, in)
	if err != nil {
		return Category{}, err
	}
	if err := s.create(ctx, op, item, username, "", errExists("category", username, c.ID)); err != nil {
		return Category{}, wrap(op, err)
	}
	return c, nil
}

// GetCategory implements CategoryStore.GetCategory, which documents its errors.
func (s *DynamoStore) GetCategory(ctx context.Context, username, id string) (Category, error) {
	const op = "get category"
	k, err := categoryRef(op, username, id)
	if err != nil {
		return Category{}, err
	}
	item, err := s.get(ctx, k)
	if err != nil || item == nil {
		return Category{}, wrap(op, orNotFound(err, errNotFound("category", username, id)))
	}
	c, err := decodeCategory(s.t, item, username)
	return c, wrap(op, err)
}

// ListCategories implements CategoryStore.ListCategories, which documents its errors.
func (s *DynamoStore) ListCategories(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Category], error) {
	return list(ctx, s, "list categories", opts,
		func() (ddb.KeyQuery, error) { return userDataQuery(s.t, s.o.FilterBudget, username, categorySKPref) },
		func(it ddb.Item) (Category, error) { return decodeCategory(s.t, it, username) })
}

// UpdateCategory implements CategoryStore.UpdateCategory, which documents its errors.
func (s *DynamoStore) UpdateCategory(ctx context.Context, username, id string, patch CategoryPatch) (Category, error) {
	const op = "update category"
	k, err := categoryPatchRef(op, username, id, patch)
	if err != nil {
		return Category{}, err
	}
	now, err := s.o.stamp()
	if err != nil {
		return Category{}, wrap(op, err)
	}
	sets := []set{{attrUpdatedAt, ddb.S(keys.Timestamp(now))}}
	var mask uint64
	if patch.Name != nil {
		sets, mask = append(sets, set{"name", ddb.S(*patch.Name)}), mask|1
	}
	if patch.Color != nil {
		sets, mask = append(sets, set{"color", ddb.S(string(*patch.Color))}), mask|2
	}
	p, args := updateExisting(shapeCategoryUpdate, mask, sets), values(sets)
	var out ddb.Item
	err = s.retry(ctx, func() (err error) {
		out, err = s.update(ctx, k, p, args, types.ReturnValueAllNew)
		return err
	})
	if ddb.IsConditionFailed(err) {
		return Category{}, wrap(op, errNotFound("category", username, id))
	}
	if err != nil {
		return Category{}, wrap(op, err)
	}
	c, err := decodeCategory(s.t, out, username)
	return c, wrap(op, err)
}

// DeleteCategory implements CategoryStore.DeleteCategory, which documents its errors.
//
// The category goes last. A consistent walk of the user's todos, filtered
// on category_id and bounded per page by Options.FilterBudget, finds the
// todos that refer to it, at most 99 a page, and one transaction per page
// that has any clears them, with a check that the category still exists;
// the transaction of the walk's last page deletes the category. So a crash
// at any point leaves either the category (and a repeated call goes on) or
// no reference to it. Once the category is gone, a second walk clears the
// references a create made meanwhile behind the first walk's cursor (and,
// on a repeated call, whatever an interrupted one left), each transaction
// checking that no category of that ID exists.
func (s *DynamoStore) DeleteCategory(ctx context.Context, username, id string) error {
	const op = "delete category"
	ck, err := categoryRef(op, username, id)
	if err != nil {
		return err
	}
	q, err := userDataQuery(s.t, s.o.FilterBudget, username, todoSKPrefix)
	if err != nil {
		return wrap(op, err)
	}
	now, err := s.o.stamp()
	if err != nil {
		return wrap(op, err)
	}
	refersTo := &ddb.Filter{Shape: "todo: refers to category", Args: []types.AttributeValue{ddb.S(id)},
		Cond: func(first int) expression.ConditionBuilder { return expression.Equal(nCategoryID, ddb.Param(first)) }}
	empty, stamp, idv := ddb.S(""), ddb.S(keys.Timestamp(now)), ddb.S(id)
	category := ck.item(s.t)
	var (
		catGone bool   // this call deleted the category, or found none
		found   bool   // this call deleted or cleared something
		cursor  string // where the walk goes on
		refs    []ddb.Item
		next    string
		wrote   bool
	)
	// build reads the page at cursor and returns its transaction, or none
	// when the page has nothing to write.
	build := func() (*ddb.Tx, error) {
		var err error
		if refs, next, err = s.queryPage(ctx, q, ddb.MaxTxItems-1, cursor, refersTo); err != nil {
			return nil, err
		}
		var tx ddb.Tx
		switch {
		case !catGone && next == "":
			tx.DeletePrepared(labelCategory, s.t, category, pExists)
		case len(refs) == 0:
			return nil, nil // a page the budget ended before it found any
		case !catGone:
			tx.CheckPrepared(labelCategory, s.t, category, pExists)
		default:
			tx.CheckPrepared(labelCategory, s.t, category, pNotExists)
		}
		for i, it := range refs {
			tx.UpdatePrepared(todoLabels[i], s.t, s.t.KeyOf(it), pUncategorize, empty, stamp, idv)
		}
		// A token of the step's own (see execStep), fresh for each build.
		tx.Token(uuid.NewString())
		wrote = true
		return &tx, nil
	}
	check := func(err error) (error, bool) {
		if _, failed := ddb.ConditionFailed(err, labelCategory); !failed && refChanged(err) {
			// A todo changed between the query and the transaction.
			return fmt.Errorf("todos of category %q kept changing while being uncategorized: %w", id, ddbkit.ErrConflict), true
		}
		return err, false
	}
	for {
		wrote = false
		err := txLoop(ctx, s.c, s.o.backoff(), build, check)
		last := next == ""
		_, catFailed := ddb.ConditionFailed(err, labelCategory)
		switch {
		case err == nil:
			found = found || wrote
			switch {
			case !last:
				cursor = next
			case !catGone:
				catGone, cursor = true, "" // deleted with the last page
			default:
				return s.deleted(op, found, errNotFound("category", username, id))
			}
		case catFailed && !catGone:
			// No category: clear what still refers to it. When this was
			// the walk's last page and it had nothing to clear, the walk
			// found no reference at all.
			if len(refs) == 0 && last {
				return s.deleted(op, found, errNotFound("category", username, id))
			}
			catGone, cursor = true, ""
		case catFailed:
			// A category of this ID was created again: the todos that
			// refer to it now are its own.
			return s.deleted(op, found, fmt.Errorf("category %q of user %q was created again while todos were being uncategorized: %w", id, username, ddbkit.ErrConflict))
		default:
			return wrap(op, err)
		}
	}
}

// refChanged reports whether a transaction of DeleteCategory failed because
// a todo it clears no longer referred to the category.
func refChanged(err error) bool {
	var ce *ddb.TxCanceledError
	if !errors.As(err, &ce) {
		return false
	}
	for _, r := range ce.Reasons {
		if r.Code == ddb.ReasonConditionalCheckFailed && strings.HasPrefix(r.Label, "todo ") {
			return true
		}
	}
	return false
}

// ListUserData implements Store.ListUserData, which documents its errors.
func (s *DynamoStore) ListUserData(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Record], error) {
	return list(ctx, s, "list user data", opts,
		func() (ddb.KeyQuery, error) { return userDataQuery(s.t, s.o.FilterBudget, username, "") },
		func(it ddb.Item) (Record, error) { return decodeRecord(s.t, it, username) })
}

// list runs one page of a listing and converts its items. Items that
// cannot be decoded are left out and reported in Page.Skipped.
func list[T any](ctx context.Context, s *DynamoStore, op string, opts ddbkit.PageOptions, query func() (ddb.KeyQuery, error), conv func(ddb.Item) (T, error)) (ddbkit.Page[T], error) {
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	q, err := query()
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	items, next, err := s.queryPage(ctx, q, limit, opts.Cursor, nil)
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	p := ddbkit.Page[T]{Items: make([]T, 0, len(items)), Next: next}
	for _, item := range items {
		v, err := conv(item)
		switch {
		case err == errSkip:
		case errors.Is(err, ddbkit.ErrCorruptItem):
			p.Skipped = append(p.Skipped, wrap(op, err))
		case err != nil:
			return ddbkit.Page[T]{}, wrap(op, err)
		default:
			p.Items = append(p.Items, v)
		}
	}
	return p, nil
}

// retry runs fn, a call that is safe to repeat, again after throttling, a
// 5xx or a lost response, within the retry policy.
func (s *DynamoStore) retry(ctx context.Context, fn func() error) error {
	return ddb.RetryIf(ctx, s.o.backoff(), ddb.RetryableWithToken, fn)
}

// get reads the item at k, or nil when there is none.
func (s *DynamoStore) get(ctx context.Context, k itemKey) (item ddb.Item, err error) {
	err = s.retry(ctx, func() error {
		item, err = s.getOnce(ctx, k)
		return err
	})
	return item, err
}

func (s *DynamoStore) getOnce(ctx context.Context, k itemKey) (ddb.Item, error) {
	return ddb.GetItem(ctx, s.c, s.t, k.item(s.t))
}

// readForWrite reads the item at k for a read-modify-write whose write is
// conditioned on the values it read (ToggleTodo, UpdateTodo with a
// category): eventually consistent, at half the read capacity, unless
// strong is set. A stale read can only make the condition fail, and the
// caller then reads again with strong set; an item an eventually
// consistent read does not find may be new, so it is looked for again,
// strongly, before the caller reports it missing.
func (s *DynamoStore) readForWrite(ctx context.Context, k itemKey, strong bool) (ddb.Item, error) {
	key := k.item(s.t)
	if !strong {
		out, err := s.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.t.Name, Key: key})
		if err != nil || out.Item != nil {
			return outItem(out), err
		}
	}
	return ddb.GetItem(ctx, s.c, s.t, key)
}

func outItem(out *dynamodb.GetItemOutput) ddb.Item {
	if out == nil {
		return nil
	}
	return out.Item
}

// queryPage runs one page of q; ddb.QueryPage retries each Query itself.
func (s *DynamoStore) queryPage(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, filter *ddb.Filter) ([]ddb.Item, string, error) {
	return ddb.QueryPage(ctx, s.c, s.o.backoff(), q, limit, cursor, filter)
}

// update applies p, an update of an existing item (updateExisting), with
// args, to the item at k.
func (s *DynamoStore) update(ctx context.Context, k itemKey, p *ddb.Prepared, args []types.AttributeValue, rv types.ReturnValue) (ddb.Item, error) {
	return s.updateItem(ctx, k, p, args, rv)
}

// updateItem applies p's update with args to the item at k if p's
// condition holds, and returns the attributes rv asks for. When the
// condition fails, the *types.ConditionalCheckFailedException holds the
// item as it was.
func (s *DynamoStore) updateItem(ctx context.Context, k itemKey, p *ddb.Prepared, args []types.AttributeValue, rv types.ReturnValue) (ddb.Item, error) {
	out, err := s.c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &s.t.Name, Key: k.item(s.t),
		UpdateExpression: p.Update(), ConditionExpression: p.Condition(),
		ExpressionAttributeNames: p.Names(), ExpressionAttributeValues: p.Values(args...), ReturnValues: rv,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}

// The labels of a sweep's transaction items, made once.
var todoLabels, itemLabels = labels("todo "), labels("item ")

func labels(prefix string) []string {
	l := make([]string, ddb.MaxTxItems)
	for i := range l {
		l[i] = fmt.Sprint(prefix, i)
	}
	return l
}

// changedError is a condition on values read that failed: the item changed
// between the read and the write, and the read-modify-write starts over. It
// matches ddbkit.ErrConflict.
type changedError struct{ msg string }

func changed(format string, args ...any) error {
	return &changedError{msg: fmt.Sprintf(format, args...)}
}

func (e *changedError) Error() string { return e.msg + ": " + ddbkit.ErrConflict.Error() }

func (e *changedError) Is(target error) bool { return target == ddbkit.ErrConflict }

// isChanged is the retry test of a read-modify-write around a transaction,
// which retries throttling and 5xx itself (ExecTx).
func isChanged(err error) bool {
	var c *changedError
	return errors.As(err, &c)
}

func orNotFound(err, notFound error) error {
	if err != nil {
		return err
	}
	return notFound
}
