package todo

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

// MemoryStore is an in-memory Store for tests. It keeps items under the same
// key strings the DynamoDB store writes and pages with the same cursors, so
// it returns the same results, errors, order and page boundaries; the shared
// conformance suite (package todotest) holds both to that. It is safe for
// concurrent use: one lock makes every operation atomic.
//
// It keeps the DynamoDB store's other promises too: under a cancelled or
// expired context it returns the same error (ErrUnavailable, matching the
// context's error) and writes nothing, and the operations that send one
// transaction on DynamoDB (CreateUser, CreateTodo, CreateCategory,
// UpdateTodo with a category, DeleteTodo) honour an idempotency key
// (ddbkit.WithIdempotencyKey) as DynamoDB honours the ClientRequestToken
// made from it: the very same token, scoped to the table, the operation
// and the user's partition (ddbkit.RequestToken).
type MemoryStore struct {
	o       Options
	t       ddb.Table
	toggles toggleClock

	mu     sync.RWMutex
	items  *memtable.Table[entity]
	pks    map[string]bool // every partition key ever written, for Export
	tokens memtable.Tokens
}

var _ Store = (*MemoryStore)(nil)

// entity is one stored item: raw, exactly as DynamoStore would hold it, and
// at most one of user, todo and category, decoded from it. An item of a
// kind this package does not know (imported from another writer) has none.
type entity struct {
	raw      ddb.Item
	user     *User
	todo     *Todo
	category *Category
}

// The entities of the writes, with raw items exactly as DynamoStore writes
// them. Marshalling these plain structs cannot fail.

func userEntity(k itemKey, u User) entity {
	raw, _ := marshalUser(k, u)
	return entity{raw: raw, user: &u}
}

func todoEntity(k itemKey, t Todo) entity {
	raw, _ := marshalTodo(k, t)
	return entity{raw: raw, todo: &t}
}

func categoryEntity(k itemKey, c Category) entity {
	raw, _ := marshalCategory(k, c)
	return entity{raw: raw, category: &c}
}

// updated returns e's raw item with the attributes attrs of next's raw
// item, as an UpdateItem that SETs attrs leaves the stored item: the
// attributes it does not set stay as they were, even those another writer
// added or left out.
func (e entity) updated(next entity, attrs ...string) entity {
	raw := maps.Clone(e.raw)
	for _, a := range attrs {
		raw[a] = next.raw[a]
	}
	next.raw = raw
	return next
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	return &MemoryStore{o: o, t: o.table(), items: memtable.New[entity](), pks: map[string]bool{}}
}

func (s *MemoryStore) put(k itemKey, e entity) {
	s.pks[k.pk] = true
	s.items.Put(k.pk, k.sk, k.item(s.t), e)
}

func (s *MemoryStore) exists(k itemKey) bool {
	_, ok := s.items.Get(k.pk, k.sk)
	return ok
}

func (s *MemoryStore) remove(k itemKey) bool { return s.items.Delete(k.pk, k.sk, k.item(s.t)) }

// live is the check every operation makes after validating its input and
// before touching the table, where the DynamoDB store would make its first
// call.
func live(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return wrap(op, err)
	}
	return nil
}

// CreateUser implements UserStore.CreateUser, which documents its errors.
func (s *MemoryStore) CreateUser(ctx context.Context, u User) error {
	const op = "create user"
	k, item, err := newUser(op, u)
	if err != nil {
		return err
	}
	if err := live(ctx, op); err != nil {
		return err
	}
	at := s.tokenTime(ctx, op, u.Username)
	s.mu.Lock()
	defer s.mu.Unlock()
	// DynamoStore's PutNew: a user already there is taken, whoever wrote
	// it and whatever its email, unless the caller's idempotency key
	// replays the very write it committed.
	return wrap(op, s.once(ctx, s.o.scope(op, u.Username), writes(k, u), at, func() error {
		if s.exists(k) {
			return errUserExists(u.Username)
		}
		s.put(k, entity{raw: item, user: &u})
		return nil
	}))
}

// tokenTime is the time a write of op under the caller's idempotency key
// is made at, for memtable.Tokens' window, or the zero time without a key:
// the clock is read only when a key needs it, so that a store's clock
// advances as DynamoStore's does.
func (s *MemoryStore) tokenTime(ctx context.Context, op, username string) time.Time {
	sc := s.o.scope(op, username)
	if _, keyed := ddbkit.RequestToken(ctx, sc.Table, sc.Op, sc.Partition); keyed {
		return s.o.now()
	}
	return time.Time{}
}

// GetUser implements UserStore.GetUser, which documents its errors.
func (s *MemoryStore) GetUser(ctx context.Context, username string) (User, error) {
	const op = "get user"
	k, err := userRef(op, username)
	if err != nil {
		return User{}, err
	}
	return memGet(ctx, s, op, k, errUserNotFound(username), func(e entity) User { return *e.user })
}

// ListUsers implements UserStore.ListUsers, which documents its errors.
func (s *MemoryStore) ListUsers(ctx context.Context, opts ddbkit.PageOptions) (ddbkit.Page[User], error) {
	return memList(ctx, s, "list users", opts, func() (ddb.KeyQuery, error) { return usersQuery(s.t, s.o.FilterBudget), nil },
		func(e entity) (User, bool) { return *e.user, true })
}

// UpdateUser implements UserStore.UpdateUser, which documents its errors.
func (s *MemoryStore) UpdateUser(ctx context.Context, u User) error {
	const op = "update user"
	k, _, err := newUser(op, u)
	if err != nil {
		return err
	}
	if err := live(ctx, op); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		return wrap(op, errUserNotFound(u.Username))
	}
	s.put(k, e.updated(userEntity(k, u), "email"))
	return nil
}

// DeleteUser implements UserStore.DeleteUser, which documents its errors.
func (s *MemoryStore) DeleteUser(ctx context.Context, username string) error {
	const op = "delete user"
	k, err := userRef(op, username)
	if err != nil {
		return err
	}
	q, err := userDataQuery(s.t, s.o.FilterBudget, username, "")
	if err != nil {
		return wrap(op, err)
	}
	// DynamoStore pages through the partition, and refuses a weak
	// CursorSecret before its first call.
	if err := ddb.CheckCursorSecret(s.t.CursorSecret); err != nil {
		return wrap(op, err)
	}
	if err := live(ctx, op); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	data := s.items.Partition(q.PartitionValue)
	for _, e := range data {
		s.remove(s.keyOf(e))
	}
	if !s.remove(k) && len(data) == 0 {
		return wrap(op, errUserNotFound(username))
	}
	return nil
}

// keyOf returns the key of a stored entity, from its raw item, whose key
// attributes are strings (Import checks it).
func (s *MemoryStore) keyOf(e entity) itemKey {
	pk, _ := e.raw[s.t.PartitionKey].(*types.AttributeValueMemberS)
	sk, _ := e.raw[s.t.SortKey].(*types.AttributeValueMemberS)
	return itemKey{pk.Value, sk.Value}
}

// checkRefs reports a missing user or category, in the order DynamoStore
// decodes them.
func (s *MemoryStore) checkRefs(username, categoryID string) error {
	uk, err := userKey(username)
	if err != nil {
		return err
	}
	if !s.exists(uk) {
		return errUserNotFound(username)
	}
	return s.checkCategory(username, categoryID)
}

func (s *MemoryStore) checkCategory(username, categoryID string) error {
	if categoryID == "" {
		return nil
	}
	ck, err := categoryKey(username, categoryID)
	if err != nil {
		return err
	}
	if !s.exists(ck) {
		return errUnknownCategory(categoryID)
	}
	return nil
}

// CreateTodo implements TodoStore.CreateTodo, which documents its errors.
func (s *MemoryStore) CreateTodo(ctx context.Context, username string, in NewTodo) (Todo, error) {
	const op = "create todo"
	t, k, item, err := s.o.newTodo(op, username, in)
	if err != nil {
		return Todo{}, err
	}
	if err := live(ctx, op); err != nil {
		return Todo{}, err
	}
	err = s.create(ctx, op, k, entity{raw: item, todo: &t}, username, in.CategoryID, errExists("todo", username, t.ID),
		writes(k, t, in.CategoryID), t.CreatedAt)
	if err != nil {
		return Todo{}, wrap(op, err)
	}
	return t, nil
}

// create stores e at k if its user and, when categoryID is set, its category
// exist, checked in DynamoStore's order. It returns taken when k is in use.
// w describes the writes of DynamoStore's transaction, for the token of
// the caller's idempotency key, if any; at is the time of the write.
func (s *MemoryStore) create(ctx context.Context, op string, k itemKey, e entity, username, categoryID string, taken error, w string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.once(ctx, s.o.scope(op, username), w, at, func() error {
		if err := s.checkRefs(username, categoryID); err != nil {
			return err
		}
		if s.exists(k) {
			return taken
		}
		s.put(k, e)
		return nil
	})
}

// once runs write, the equivalent of one DynamoDB transaction in scope sc
// whose writes w describes, under the token of the caller's idempotency
// key in ctx (the same token DynamoStore sends: ddbkit.RequestToken of
// sc), as DynamoDB does: a repeat of writes that committed under the token
// succeeds without writing, other writes under it fail with ErrConflict.
// Without a key, it just runs write. The caller holds the lock.
func (s *MemoryStore) once(ctx context.Context, sc ddb.Scope, w string, at time.Time, write func() error) error {
	token, keyed := ddbkit.RequestToken(ctx, sc.Table, sc.Op, sc.Partition)
	if !keyed {
		return write()
	}
	replay, err := s.tokens.Check(token, w, at)
	if err != nil || replay {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	s.tokens.Commit(token, w, at)
	return nil
}

// writes describes a transaction's writes, exactly: two calls with the
// same parts give the same string.
func writes(parts ...any) string {
	b, err := json.Marshal(parts)
	if err != nil {
		return fmt.Sprint(parts...) // unreachable: the parts are plain data
	}
	return string(b)
}

// GetTodo implements TodoStore.GetTodo, which documents its errors.
func (s *MemoryStore) GetTodo(ctx context.Context, username, id string) (Todo, error) {
	const op = "get todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return Todo{}, err
	}
	return memGet(ctx, s, op, k, errNotFound("todo", username, id), func(e entity) Todo { return *e.todo })
}

// ListTodos implements TodoStore.ListTodos, which documents its errors.
func (s *MemoryStore) ListTodos(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Todo], error) {
	return memList(ctx, s, "list todos", opts, func() (ddb.KeyQuery, error) { return userDataQuery(s.t, s.o.FilterBudget, username, todoSKPrefix) },
		func(e entity) (Todo, bool) { return *e.todo, true })
}

// UpdateTodo implements TodoStore.UpdateTodo, which documents its errors.
func (s *MemoryStore) UpdateTodo(ctx context.Context, username, id string, patch TodoPatch) (Todo, error) {
	const op = "update todo"
	k, err := todoPatchRef(op, username, id, patch)
	if err != nil {
		return Todo{}, err
	}
	now, err := s.o.stamp()
	if err != nil {
		return Todo{}, wrap(op, err)
	}
	if err := live(ctx, op); err != nil {
		return Todo{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		return Todo{}, wrap(op, errNotFound("todo", username, id))
	}
	t := patch.apply(*e.todo)
	t.UpdatedAt = now
	next := e.updated(todoEntity(k, t), patch.attrs()...)
	write := func() error {
		// An item another writer made large may pass DynamoDB's limit
		// with the patch, which DynamoDB refuses (ErrInvalidArgument).
		if err := ddb.CheckItemSize(next.raw, "TodoPatch", 0); err != nil {
			return err
		}
		s.put(k, next)
		return nil
	}
	if patch.CategoryID != nil && *patch.CategoryID != "" {
		// DynamoStore's transaction: the category check, and the update
		// conditioned on the todo as read.
		cat := *patch.CategoryID
		err = s.once(ctx, s.o.scope(op, username), writes(k, *e.todo, patch, now, cat), now, func() error {
			if err := s.checkCategory(username, cat); err != nil {
				return err
			}
			return write()
		})
		if err != nil {
			return Todo{}, wrap(op, err)
		}
		return t, nil
	}
	if err := write(); err != nil {
		return Todo{}, wrap(op, err)
	}
	return t, nil
}

// ToggleTodo implements TodoStore.ToggleTodo, which documents its errors.
func (s *MemoryStore) ToggleTodo(ctx context.Context, username, id string) (Todo, error) {
	const op = "toggle todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return Todo{}, err
	}
	if err := live(ctx, op); err != nil {
		return Todo{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		return Todo{}, wrap(op, errNotFound("todo", username, id))
	}
	now, err := checkClock(s.toggles.stamp(s.o))
	if err != nil {
		return Todo{}, wrap(op, err)
	}
	t := *e.todo
	t.Completed = !t.Completed
	t.UpdatedAt = now
	s.put(k, e.updated(todoEntity(k, t), attrCompleted, attrUpdatedAt))
	return t, nil
}

// DeleteTodo implements TodoStore.DeleteTodo, which documents its errors.
func (s *MemoryStore) DeleteTodo(ctx context.Context, username, id string) error {
	const op = "delete todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return err
	}
	if err := live(ctx, op); err != nil {
		return err
	}
	// DynamoStore's transaction, under the caller's idempotency key if any.
	at := s.tokenTime(ctx, op, username)
	s.mu.Lock()
	defer s.mu.Unlock()
	return wrap(op, s.once(ctx, s.o.scope(op, username), writes(k.pk, k.sk), at, func() error {
		if !s.remove(k) {
			return errNotFound("todo", username, id)
		}
		return nil
	}))
}

// CreateCategory implements CategoryStore.CreateCategory, which documents its errors.
func (s *MemoryStore) CreateCategory(ctx context.Context, username string, in NewCategory) (Category, error) {
	const op = "create category"
	c, k, item, err := s.o.newCategory(op, username, in)
	if err != nil {
		return Category{}, err
	}
	if err := live(ctx, op); err != nil {
		return Category{}, err
	}
	err = s.create(ctx, op, k, entity{raw: item, category: &c}, username, "", errExists("category", username, c.ID),
		writes(k, c), c.CreatedAt)
	if err != nil {
		return Category{}, wrap(op, err)
	}
	return c, nil
}

// GetCategory implements CategoryStore.GetCategory, which documents its errors.
func (s *MemoryStore) GetCategory(ctx context.Context, username, id string) (Category, error) {
	const op = "get category"
	k, err := categoryRef(op, username, id)
	if err != nil {
		return Category{}, err
	}
	return memGet(ctx, s, op, k, errNotFound("category", username, id), func(e entity) Category { return *e.category })
}

// ListCategories implements CategoryStore.ListCategories, which documents its errors.
func (s *MemoryStore) ListCategories(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Category], error) {
	return memList(ctx, s, "list categories", opts, func() (ddb.KeyQuery, error) { return userDataQuery(s.t, s.o.FilterBudget, username, categorySKPref) },
		func(e entity) (Category, bool) { return *e.category, true })
}

// UpdateCategory implements CategoryStore.UpdateCategory, which documents its errors.
func (s *MemoryStore) UpdateCategory(ctx context.Context, username, id string, patch CategoryPatch) (Category, error) {
	const op = "update category"
	k, err := categoryPatchRef(op, username, id, patch)
	if err != nil {
		return Category{}, err
	}
	now, err := s.o.stamp()
	if err != nil {
		return Category{}, wrap(op, err)
	}
	if err := live(ctx, op); err != nil {
		return Category{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		return Category{}, wrap(op, errNotFound("category", username, id))
	}
	c := patch.apply(*e.category)
	c.UpdatedAt = now
	next := e.updated(categoryEntity(k, c), patch.attrs()...)
	if err := ddb.CheckItemSize(next.raw, "CategoryPatch", 0); err != nil {
		return Category{}, wrap(op, err)
	}
	s.put(k, next)
	return c, nil
}

// DeleteCategory implements CategoryStore.DeleteCategory, which documents its errors.
func (s *MemoryStore) DeleteCategory(ctx context.Context, username, id string) error {
	const op = "delete category"
	k, err := categoryRef(op, username, id)
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
	if err := ddb.CheckCursorSecret(s.t.CursorSecret); err != nil {
		return wrap(op, err) // as DynamoStore's first page refuses it
	}
	if err := live(ctx, op); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The walk DynamoStore makes, through the same filtered pages, each
	// bounded by the budget: under the lock, all at once.
	refersTo := func(e entity) bool { return e.todo != nil && e.todo.CategoryID == id }
	var refs []entity
	for cursor := ""; ; {
		page, next, err := s.items.Query(q, ddb.MaxTxItems-1, cursor, refersTo)
		if err != nil {
			return wrap(op, err)
		}
		refs = append(refs, page...)
		if next == "" {
			break
		}
		cursor = next
	}
	found := s.remove(k)
	for _, e := range refs {
		t := *e.todo
		t.CategoryID, t.UpdatedAt = "", now
		tk := s.keyOf(e)
		s.put(tk, e.updated(todoEntity(tk, t), attrCategoryID, attrUpdatedAt))
		found = true
	}
	if !found {
		return wrap(op, errNotFound("category", username, id))
	}
	return nil
}

// ListUserData implements Store.ListUserData, which documents its errors.
func (s *MemoryStore) ListUserData(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Record], error) {
	return memList(ctx, s, "list user data", opts, func() (ddb.KeyQuery, error) { return userDataQuery(s.t, s.o.FilterBudget, username, "") },
		func(e entity) (Record, bool) {
			// Copies, so that callers cannot reach into the store.
			switch {
			case e.todo != nil:
				t := *e.todo
				return Record{Todo: &t}, true
			case e.category != nil:
				c := *e.category
				return Record{Category: &c}, true
			}
			// An item of another kind, as DynamoStore leaves it out: it
			// still counts towards the page's limit.
			return Record{}, false
		})
}

// memGet returns the entity at k, as pick converts it, or notFound.
func memGet[T any](ctx context.Context, s *MemoryStore, op string, k itemKey, notFound error, pick func(entity) T) (T, error) {
	var zero T
	if err := live(ctx, op); err != nil {
		return zero, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		return zero, wrap(op, notFound)
	}
	return pick(e), nil
}

// memList runs one page of a listing on the memory table, with the
// validation, order and cursors of DynamoStore's list.
func memList[T any](ctx context.Context, s *MemoryStore, op string, opts ddbkit.PageOptions, query func() (ddb.KeyQuery, error), conv func(entity) (T, bool)) (ddbkit.Page[T], error) {
	limit, err := opts.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	q, err := query()
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	// The cursor is checked before the context, as DynamoStore decodes it
	// before its first call.
	es, next, err := s.items.Query(q, limit, opts.Cursor, nil)
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	if err := live(ctx, op); err != nil {
		return ddbkit.Page[T]{}, err
	}
	out := make([]T, 0, len(es))
	for _, e := range es {
		if v, ok := conv(e); ok {
			out = append(out, v)
		}
	}
	return ddbkit.Page[T]{Items: out, Next: next}, nil
}
