package todo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// DynamoStore is the Store on DynamoDB. All its reads are strongly
// consistent, so that it behaves like MemoryStore: a write is visible to the
// next read.
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
	return &DynamoStore{c: c, o: o, t: table(o.TableName)}
}

// The item layouts, attribute for attribute as the seed gives them.
type userItem struct {
	PK       string `dynamodbav:"pk"`
	SK       string `dynamodbav:"sk"`
	Username string `dynamodbav:"username"`
	Email    string `dynamodbav:"email"`
}

type todoItem struct {
	PK          string `dynamodbav:"pk"`
	SK          string `dynamodbav:"sk"`
	ID          string `dynamodbav:"id"`
	EntityType  string `dynamodbav:"entity_type"`
	Title       string `dynamodbav:"title"`
	Description string `dynamodbav:"description"`
	Priority    string `dynamodbav:"priority"`
	Completed   bool   `dynamodbav:"completed"`
	CategoryID  string `dynamodbav:"category_id"`
	CreatedAt   string `dynamodbav:"created_at"`
	UpdatedAt   string `dynamodbav:"updated_at"`
}

type categoryItem struct {
	PK         string `dynamodbav:"pk"`
	SK         string `dynamodbav:"sk"`
	ID         string `dynamodbav:"id"`
	EntityType string `dynamodbav:"entity_type"`
	Name       string `dynamodbav:"name"`
	Color      string `dynamodbav:"color"`
	CreatedAt  string `dynamodbav:"created_at"`
	UpdatedAt  string `dynamodbav:"updated_at"`
}

// Attribute names used in expressions.
var (
	nPK         = expression.Name(AttrPK)
	nCompleted  = expression.Name("completed")
	nCategoryID = expression.Name("category_id")
	nUpdatedAt  = expression.Name("updated_at")
	exists      = expression.AttributeExists(nPK)
	notExists   = expression.AttributeNotExists(nPK)
)

// CreateUser implements UserStore.CreateUser, which documents its errors.
func (s *DynamoStore) CreateUser(ctx context.Context, u User) error {
	const op = "create user"
	k, err := newUserRef(op, u)
	if err != nil {
		return err
	}
	item, err := attributevalue.MarshalMap(userItem{PK: k.pk, SK: k.sk, Username: u.Username, Email: u.Email})
	if err != nil {
		return wrap(op, err)
	}
	err = ddb.PutItem(ctx, s.c, s.t, item, notExists)
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
	var it userItem
	if found, err := s.get(ctx, k, &it); err != nil || !found {
		return User{}, wrap(op, orNotFound(err, errUserNotFound(username)))
	}
	return User{Username: it.Username, Email: it.Email}, nil
}

// ListUsers implements UserStore.ListUsers, which documents its errors.
func (s *DynamoStore) ListUsers(ctx context.Context, opts ddbkit.PageOptions) (ddbkit.Page[User], error) {
	return list(ctx, s, "list users", opts, func() (ddb.KeyQuery, error) { return usersQuery(s.t), nil },
		unmarshalUser)
}

// UpdateUser implements UserStore.UpdateUser, which documents its errors.
func (s *DynamoStore) UpdateUser(ctx context.Context, u User) error {
	const op = "update user"
	k, err := newUserRef(op, u)
	if err != nil {
		return err
	}
	upd := expression.Set(expression.Name("email"), expression.Value(u.Email))
	_, err = s.update(ctx, k, upd, types.ReturnValueNone)
	if ddb.IsConditionFailed(err) {
		return wrap(op, errUserNotFound(u.Username))
	}
	return wrap(op, err)
}

// DeleteUser implements UserStore.DeleteUser, which documents its errors.
func (s *DynamoStore) DeleteUser(ctx context.Context, username string) error {
	const op = "delete user"
	k, err := userRef(op, username)
	if err != nil {
		return err
	}
	// The user goes first: from then on no todo or category can be created
	// for it (creates check the user), so the sweep below leaves nothing. A
	// repeated call sweeps what an interrupted one left.
	err = s.delete(ctx, k)
	existed := !ddb.IsConditionFailed(err)
	if existed && err != nil {
		return wrap(op, err)
	}
	q, err := userDataQuery(s.t, username, "")
	if err != nil {
		return wrap(op, err)
	}
	swept := false
	for {
		items, _, err := ddb.QueryPage(ctx, s.c, q, ddbkit.MaxPageLimit, "", nil)
		if err != nil {
			return wrap(op, err)
		}
		if len(items) == 0 {
			break
		}
		swept = true
		reqs := make([]types.WriteRequest, len(items))
		for i, it := range items {
			reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: s.t.KeyOf(it)}}
		}
		if err := ddb.BatchWrite(ctx, s.c, s.t, reqs, ddb.Backoff{}); err != nil {
			return wrap(op, err)
		}
	}
	if !existed && !swept {
		return wrap(op, errUserNotFound(username))
	}
	return nil
}

// CreateTodo implements TodoStore.CreateTodo, which documents its errors.
func (s *DynamoStore) CreateTodo(ctx context.Context, username string, in NewTodo) (Todo, error) {
	const op = "create todo"
	t, k, err := s.o.newTodo(op, username, in)
	if err != nil {
		return Todo{}, err
	}
	item, err := marshalTodo(k, t)
	if err != nil {
		return Todo{}, wrap(op, err)
	}
	if err := s.create(ctx, item, username, in.CategoryID, errExists("todo", username, t.ID)); err != nil {
		return Todo{}, wrap(op, err)
	}
	return t, nil
}

// create puts a new item in one transaction with the checks that its user
// and, when categoryID is set, its category exist. It returns taken when the
// item's key is in use.
func (s *DynamoStore) create(ctx context.Context, item ddb.Item, username, categoryID string, taken error) error {
	var tx ddb.Tx
	if err := s.checkRefs(&tx, username, categoryID); err != nil {
		return err
	}
	tx.Put(labelItem, s.t, item, notExists)
	err := s.refError(tx.Exec(ctx, s.c), username, categoryID)
	if _, ok := ddb.ConditionFailed(err, labelItem); ok {
		return taken
	}
	return err
}

// Transaction item labels, by which cancellation reasons are told apart.
const (
	labelUser        = "user"
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
	tx.Check(labelUser, s.t, uk.item(s.t), exists)
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
	tx.Check(labelCategoryRef, s.t, ck.item(s.t), exists)
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
	var it todoItem
	if found, err := s.get(ctx, k, &it); err != nil || !found {
		return Todo{}, wrap(op, orNotFound(err, errNotFound("todo", username, id)))
	}
	t, err := it.todo(username)
	return t, wrap(op, err)
}

// ListTodos implements TodoStore.ListTodos, which documents its errors.
func (s *DynamoStore) ListTodos(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Todo], error) {
	return list(ctx, s, "list todos", opts,
		func() (ddb.KeyQuery, error) { return userDataQuery(s.t, username, todoSKPrefix) },
		func(it ddb.Item) (Todo, error) { return unmarshalTodo(it, username) })
}

// UpdateTodo implements TodoStore.UpdateTodo, which documents its errors.
func (s *DynamoStore) UpdateTodo(ctx context.Context, username, id string, patch TodoPatch) (Todo, error) {
	const op = "update todo"
	k, err := todoPatchRef(op, username, id, patch)
	if err != nil {
		return Todo{}, err
	}
	upd := expression.Set(nUpdatedAt, expression.Value(keys.Timestamp(s.o.now())))
	set := func(name string, v any) { upd = upd.Set(expression.Name(name), expression.Value(v)) }
	if patch.Title != nil {
		set("title", *patch.Title)
	}
	if patch.Description != nil {
		set("description", *patch.Description)
	}
	if patch.Priority != nil {
		set("priority", string(*patch.Priority))
	}
	if patch.Completed != nil {
		set("completed", *patch.Completed)
	}
	if patch.CategoryID != nil {
		set("category_id", *patch.CategoryID)
	}
	if patch.CategoryID == nil || *patch.CategoryID == "" {
		out, err := s.update(ctx, k, upd, types.ReturnValueAllNew)
		if ddb.IsConditionFailed(err) {
			return Todo{}, wrap(op, errNotFound("todo", username, id))
		}
		if err != nil {
			return Todo{}, wrap(op, err)
		}
		t, err := unmarshalTodo(out, username)
		return t, wrap(op, err)
	}
	// A new category must exist when the update commits; a transaction
	// cannot return the new item, so read it back.
	var tx ddb.Tx
	if err := s.checkCategory(&tx, username, *patch.CategoryID); err != nil {
		return Todo{}, wrap(op, err)
	}
	tx.Update(labelItem, s.t, k.item(s.t), upd, exists)
	if err := tx.Exec(ctx, s.c); err != nil {
		if _, ok := ddb.ConditionFailed(err, labelItem); ok {
			return Todo{}, wrap(op, errNotFound("todo", username, id))
		}
		return Todo{}, wrap(op, s.refError(err, username, *patch.CategoryID))
	}
	return s.GetTodo(ctx, username, id)
}

// ToggleTodo implements TodoStore.ToggleTodo, which documents its errors.
func (s *DynamoStore) ToggleTodo(ctx context.Context, username, id string) (Todo, error) {
	const op = "toggle todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return Todo{}, err
	}
	now := keys.Timestamp(s.o.now())
	var t Todo
	err = ddb.Retry(ctx, s.o.backoff(), func() error {
		var it todoItem
		found, err := s.get(ctx, k, &it)
		if err != nil || !found {
			return orNotFound(err, errNotFound("todo", username, id))
		}
		upd := expression.Set(nCompleted, expression.Value(!it.Completed)).Set(nUpdatedAt, expression.Value(now))
		out, err := s.update(ctx, k, upd, types.ReturnValueAllNew, expression.Equal(nCompleted, expression.Value(it.Completed)))
		if ddb.IsConditionFailed(err) {
			return fmt.Errorf("todo %q changed while toggling: %w", id, ddbkit.ErrConflict)
		}
		if err != nil {
			return err
		}
		t, err = unmarshalTodo(out, username)
		return err
	})
	return t, wrap(op, err)
}

// DeleteTodo implements TodoStore.DeleteTodo, which documents its errors.
func (s *DynamoStore) DeleteTodo(ctx context.Context, username, id string) error {
	const op = "delete todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return err
	}
	err = s.delete(ctx, k)
	if ddb.IsConditionFailed(err) {
		return wrap(op, errNotFound("todo", username, id))
	}
	return wrap(op, err)
}

// CreateCategory implements CategoryStore.CreateCategory, which documents its errors.
func (s *DynamoStore) CreateCategory(ctx context.Context, username string, in NewCategory) (Category, error) {
	const op = "create category"
	c, k, err := s.o.newCategory(op, username, in)
	if err != nil {
		return Category{}, err
	}
	item, err := marshalCategory(k, c)
	if err != nil {
		return Category{}, wrap(op, err)
	}
	if err := s.create(ctx, item, username, "", errExists("category", username, c.ID)); err != nil {
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
	var it categoryItem
	if found, err := s.get(ctx, k, &it); err != nil || !found {
		return Category{}, wrap(op, orNotFound(err, errNotFound("category", username, id)))
	}
	c, err := it.category(username)
	return c, wrap(op, err)
}

// ListCategories implements CategoryStore.ListCategories, which documents its errors.
func (s *DynamoStore) ListCategories(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Category], error) {
	return list(ctx, s, "list categories", opts,
		func() (ddb.KeyQuery, error) { return userDataQuery(s.t, username, categorySKPref) },
		func(it ddb.Item) (Category, error) { return unmarshalCategory(it, username) })
}

// UpdateCategory implements CategoryStore.UpdateCategory, which documents its errors.
func (s *DynamoStore) UpdateCategory(ctx context.Context, username, id string, patch CategoryPatch) (Category, error) {
	const op = "update category"
	k, err := categoryPatchRef(op, username, id, patch)
	if err != nil {
		return Category{}, err
	}
	upd := expression.Set(nUpdatedAt, expression.Value(keys.Timestamp(s.o.now())))
	if patch.Name != nil {
		upd = upd.Set(expression.Name("name"), expression.Value(*patch.Name))
	}
	if patch.Color != nil {
		upd = upd.Set(expression.Name("color"), expression.Value(string(*patch.Color)))
	}
	out, err := s.update(ctx, k, upd, types.ReturnValueAllNew)
	if ddb.IsConditionFailed(err) {
		return Category{}, wrap(op, errNotFound("category", username, id))
	}
	if err != nil {
		return Category{}, wrap(op, err)
	}
	c, err := unmarshalCategory(out, username)
	return c, wrap(op, err)
}

// DeleteCategory implements CategoryStore.DeleteCategory, which documents its errors.
func (s *DynamoStore) DeleteCategory(ctx context.Context, username, id string) error {
	const op = "delete category"
	k, err := categoryRef(op, username, id)
	if err != nil {
		return err
	}
	err = s.delete(ctx, k)
	if ddb.IsConditionFailed(err) {
		return wrap(op, errNotFound("category", username, id))
	}
	if err != nil {
		return wrap(op, err)
	}
	// With the category gone, no create or update can point at it any
	// more, so once a consistent query finds no todo referring to it, none
	// ever will.
	q, err := userDataQuery(s.t, username, todoSKPrefix)
	if err != nil {
		return wrap(op, err)
	}
	refersTo := expression.Equal(nCategoryID, expression.Value(id))
	now := keys.Timestamp(s.o.now())
	upd := expression.Set(nCategoryID, expression.Value("")).Set(nUpdatedAt, expression.Value(now))
	return wrap(op, ddb.Retry(ctx, s.o.backoff(), func() error {
		for {
			refs, _, err := ddb.QueryPage(ctx, s.c, q, ddb.MaxTxItems, "", &refersTo)
			if err != nil || len(refs) == 0 {
				return err
			}
			var tx ddb.Tx
			for i, it := range refs {
				tx.Update(fmt.Sprint("todo ", i), s.t, s.t.KeyOf(it), upd, refersTo)
			}
			if err := tx.Exec(ctx, s.c); err != nil {
				var canceled *ddb.TxCanceledError
				if errors.As(err, &canceled) {
					// A todo changed under us: query again.
					return fmt.Errorf("todos of category %q changed while uncategorizing them: %w", id, ddbkit.ErrConflict)
				}
				return err
			}
		}
	}))
}

// ListUserData implements Store.ListUserData, which documents its errors.
func (s *DynamoStore) ListUserData(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Record], error) {
	return list(ctx, s, "list user data", opts,
		func() (ddb.KeyQuery, error) { return userDataQuery(s.t, username, "") },
		func(it ddb.Item) (Record, error) { return unmarshalRecord(it, username) })
}

// list runs one page of a listing and converts its items.
func list[T any](ctx context.Context, s *DynamoStore, op string, opts ddbkit.PageOptions, query func() (ddb.KeyQuery, error), conv func(ddb.Item) (T, error)) (ddbkit.Page[T], error) {
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	q, err := query()
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	items, next, err := ddb.QueryPage(ctx, s.c, q, limit, opts.Cursor, nil)
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	out := make([]T, 0, len(items))
	for _, item := range items {
		v, err := conv(item)
		if err == errSkip {
			continue
		}
		if err != nil {
			return ddbkit.Page[T]{}, wrap(op, err)
		}
		out = append(out, v)
	}
	return ddbkit.Page[T]{Items: out, Next: next}, nil
}

func (s *DynamoStore) get(ctx context.Context, k itemKey, v any) (bool, error) {
	item, err := ddb.GetItem(ctx, s.c, s.t, k.item(s.t))
	if err != nil || item == nil {
		return false, err
	}
	return true, attributevalue.UnmarshalMap(item, v)
}

// update applies upd to the existing item at k, and only if cond holds.
func (s *DynamoStore) update(ctx context.Context, k itemKey, upd expression.UpdateBuilder, rv types.ReturnValue, cond ...expression.ConditionBuilder) (ddb.Item, error) {
	c := exists
	for _, x := range cond {
		c = c.And(x)
	}
	return ddb.UpdateItem(ctx, s.c, s.t, k.item(s.t), upd, c, rv)
}

// delete deletes the existing item at k; a missing item fails its condition.
func (s *DynamoStore) delete(ctx context.Context, k itemKey) error {
	return ddb.DeleteItem(ctx, s.c, s.t, k.item(s.t), exists)
}

func orNotFound(err, notFound error) error {
	if err != nil {
		return err
	}
	return notFound
}

func marshalTodo(k itemKey, t Todo) (ddb.Item, error) {
	return attributevalue.MarshalMap(todoItem{PK: k.pk, SK: k.sk, ID: t.ID, EntityType: entityTodo,
		Title: t.Title, Description: t.Description, Priority: string(t.Priority), Completed: t.Completed,
		CategoryID: t.CategoryID, CreatedAt: keys.Timestamp(t.CreatedAt), UpdatedAt: keys.Timestamp(t.UpdatedAt)})
}

func marshalCategory(k itemKey, c Category) (ddb.Item, error) {
	return attributevalue.MarshalMap(categoryItem{PK: k.pk, SK: k.sk, ID: c.ID, EntityType: entityCategory,
		Name: c.Name, Color: string(c.Color), CreatedAt: keys.Timestamp(c.CreatedAt), UpdatedAt: keys.Timestamp(c.UpdatedAt)})
}

func unmarshalTodo(item ddb.Item, username string) (Todo, error) {
	var it todoItem
	if err := attributevalue.UnmarshalMap(item, &it); err != nil {
		return Todo{}, err
	}
	return it.todo(username)
}

func unmarshalUser(item ddb.Item) (User, error) {
	var it userItem
	err := attributevalue.UnmarshalMap(item, &it)
	return User{Username: it.Username, Email: it.Email}, err
}

func unmarshalCategory(item ddb.Item, username string) (Category, error) {
	var it categoryItem
	if err := attributevalue.UnmarshalMap(item, &it); err != nil {
		return Category{}, err
	}
	return it.category(username)
}

func unmarshalRecord(item ddb.Item, username string) (Record, error) {
	var kind struct {
		EntityType string `dynamodbav:"entity_type"`
	}
	if err := attributevalue.UnmarshalMap(item, &kind); err != nil {
		return Record{}, err
	}
	switch kind.EntityType {
	case entityTodo:
		t, err := unmarshalTodo(item, username)
		return Record{Todo: &t}, err
	case entityCategory:
		c, err := unmarshalCategory(item, username)
		return Record{Category: &c}, err
	}
	return Record{}, errSkip
}

// errSkip tells list to leave an item out: the seed expects new entity
// types in a user's partition, and a reader that predates them skips them.
var errSkip = errors.New("skip")

func (it todoItem) todo(username string) (Todo, error) {
	created, updated, err := parseTimes(it.CreatedAt, it.UpdatedAt)
	return Todo{ID: it.ID, Username: username, Title: it.Title, Description: it.Description,
		Priority: Priority(it.Priority), Completed: it.Completed, CategoryID: it.CategoryID,
		CreatedAt: created, UpdatedAt: updated}, err
}

func (it categoryItem) category(username string) (Category, error) {
	created, updated, err := parseTimes(it.CreatedAt, it.UpdatedAt)
	return Category{ID: it.ID, Username: username, Name: it.Name, Color: Color(it.Color),
		CreatedAt: created, UpdatedAt: updated}, err
}

func parseTimes(created, updated string) (time.Time, time.Time, error) {
	c, err := keys.ParseTimestamp(created)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("stored created_at: %w", err)
	}
	u, err := keys.ParseTimestamp(updated)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("stored updated_at: %w", err)
	}
	return c, u, nil
}
