package todo

import (
	"context"
	"sync"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

// MemoryStore is an in-memory Store for tests. It keeps items under the same
// key strings the DynamoDB store writes and pages with the same cursors, so
// it returns the same results, errors, order and page boundaries; the shared
// conformance suite (package todotest) holds both to that. It is safe for
// concurrent use: one lock makes every operation atomic.
type MemoryStore struct {
	o Options
	t ddb.Table

	mu    sync.RWMutex
	items *memtable.Table[entity]
}

var _ Store = (*MemoryStore)(nil)

// entity is one stored item: exactly one field is set.
type entity struct {
	user     *User
	todo     *Todo
	category *Category
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(optFns ...func(*Options)) *MemoryStore {
	o := newOptions(optFns)
	return &MemoryStore{o: o, t: table(o.TableName), items: memtable.New[entity]()}
}

func (s *MemoryStore) put(k itemKey, e entity) { s.items.Put(k.pk, k.sk, k.item(s.t), e) }

func (s *MemoryStore) exists(k itemKey) bool {
	_, ok := s.items.Get(k.pk, k.sk)
	return ok
}

func (s *MemoryStore) remove(k itemKey) bool { return s.items.Delete(k.pk, k.sk, k.item(s.t)) }

// CreateUser implements UserStore.CreateUser, which documents its errors.
func (s *MemoryStore) CreateUser(_ context.Context, u User) error {
	const op = "create user"
	k, err := newUserRef(op, u)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exists(k) {
		return wrap(op, errUserExists(u.Username))
	}
	s.put(k, entity{user: &u})
	return nil
}

// GetUser implements UserStore.GetUser, which documents its errors.
func (s *MemoryStore) GetUser(_ context.Context, username string) (User, error) {
	const op = "get user"
	k, err := userRef(op, username)
	if err != nil {
		return User{}, err
	}
	return memGet(s, op, k, errUserNotFound(username), func(e entity) User { return *e.user })
}

// ListUsers implements UserStore.ListUsers, which documents its errors.
func (s *MemoryStore) ListUsers(_ context.Context, opts ddbkit.PageOptions) (ddbkit.Page[User], error) {
	return memList(s, "list users", opts, func() (ddb.KeyQuery, error) { return usersQuery(s.t), nil },
		func(e entity) User { return *e.user })
}

// UpdateUser implements UserStore.UpdateUser, which documents its errors.
func (s *MemoryStore) UpdateUser(_ context.Context, u User) error {
	const op = "update user"
	k, err := newUserRef(op, u)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.exists(k) {
		return wrap(op, errUserNotFound(u.Username))
	}
	s.put(k, entity{user: &u})
	return nil
}

// DeleteUser implements UserStore.DeleteUser, which documents its errors.
func (s *MemoryStore) DeleteUser(_ context.Context, username string) error {
	const op = "delete user"
	k, err := userRef(op, username)
	if err != nil {
		return err
	}
	q, err := userDataQuery(s.t, username, "")
	if err != nil {
		return wrap(op, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	existed := s.remove(k)
	data := s.items.Partition(q.PartitionValue)
	for _, e := range data {
		s.remove(s.keyOf(e))
	}
	if !existed && len(data) == 0 {
		return wrap(op, errUserNotFound(username))
	}
	return nil
}

// keyOf returns the key of a todo or category. Stored entities passed
// validation, so building their keys cannot fail.
func (s *MemoryStore) keyOf(e entity) itemKey {
	var k itemKey
	switch {
	case e.todo != nil:
		k, _ = todoKey(e.todo.Username, e.todo.ID)
	case e.category != nil:
		k, _ = categoryKey(e.category.Username, e.category.ID)
	}
	return k
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
func (s *MemoryStore) CreateTodo(_ context.Context, username string, in NewTodo) (Todo, error) {
	const op = "create todo"
	t, k, err := s.o.newTodo(op, username, in)
	if err != nil {
		return Todo{}, err
	}
	if err := s.create(k, entity{todo: &t}, username, in.CategoryID, errExists("todo", username, t.ID)); err != nil {
		return Todo{}, wrap(op, err)
	}
	return t, nil
}

// create stores e at k if its user and, when categoryID is set, its category
// exist, checked in DynamoStore's order. It returns taken when k is in use.
func (s *MemoryStore) create(k itemKey, e entity, username, categoryID string, taken error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkRefs(username, categoryID); err != nil {
		return err
	}
	if s.exists(k) {
		return taken
	}
	s.put(k, e)
	return nil
}

// GetTodo implements TodoStore.GetTodo, which documents its errors.
func (s *MemoryStore) GetTodo(_ context.Context, username, id string) (Todo, error) {
	const op = "get todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return Todo{}, err
	}
	return memGet(s, op, k, errNotFound("todo", username, id), func(e entity) Todo { return *e.todo })
}

// ListTodos implements TodoStore.ListTodos, which documents its errors.
func (s *MemoryStore) ListTodos(_ context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Todo], error) {
	return memList(s, "list todos", opts, func() (ddb.KeyQuery, error) { return userDataQuery(s.t, username, todoSKPrefix) },
		func(e entity) Todo { return *e.todo })
}

// UpdateTodo implements TodoStore.UpdateTodo, which documents its errors.
func (s *MemoryStore) UpdateTodo(_ context.Context, username, id string, patch TodoPatch) (Todo, error) {
	const op = "update todo"
	k, err := todoPatchRef(op, username, id, patch)
	if err != nil {
		return Todo{}, err
	}
	now := s.o.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		return Todo{}, wrap(op, errNotFound("todo", username, id))
	}
	if patch.CategoryID != nil {
		if err := s.checkCategory(username, *patch.CategoryID); err != nil {
			return Todo{}, wrap(op, err)
		}
	}
	t := patch.apply(*e.todo)
	t.UpdatedAt = now
	s.put(k, entity{todo: &t})
	return t, nil
}

// ToggleTodo implements TodoStore.ToggleTodo, which documents its errors.
func (s *MemoryStore) ToggleTodo(_ context.Context, username, id string) (Todo, error) {
	const op = "toggle todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return Todo{}, err
	}
	now := s.o.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		return Todo{}, wrap(op, errNotFound("todo", username, id))
	}
	t := *e.todo
	t.Completed = !t.Completed
	t.UpdatedAt = now
	s.put(k, entity{todo: &t})
	return t, nil
}

// DeleteTodo implements TodoStore.DeleteTodo, which documents its errors.
func (s *MemoryStore) DeleteTodo(_ context.Context, username, id string) error {
	const op = "delete todo"
	k, err := todoRef(op, username, id)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.remove(k) {
		return wrap(op, errNotFound("todo", username, id))
	}
	return nil
}

// CreateCategory implements CategoryStore.CreateCategory, which documents its errors.
func (s *MemoryStore) CreateCategory(_ context.Context, username string, in NewCategory) (Category, error) {
	const op = "create category"
	c, k, err := s.o.newCategory(op, username, in)
	if err != nil {
		return Category{}, err
	}
	if err := s.create(k, entity{category: &c}, username, "", errExists("category", username, c.ID)); err != nil {
		return Category{}, wrap(op, err)
	}
	return c, nil
}

// GetCategory implements CategoryStore.GetCategory, which documents its errors.
func (s *MemoryStore) GetCategory(_ context.Context, username, id string) (Category, error) {
	const op = "get category"
	k, err := categoryRef(op, username, id)
	if err != nil {
		return Category{}, err
	}
	return memGet(s, op, k, errNotFound("category", username, id), func(e entity) Category { return *e.category })
}

// ListCategories implements CategoryStore.ListCategories, which documents its errors.
func (s *MemoryStore) ListCategories(_ context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Category], error) {
	return memList(s, "list categories", opts, func() (ddb.KeyQuery, error) { return userDataQuery(s.t, username, categorySKPref) },
		func(e entity) Category { return *e.category })
}

// UpdateCategory implements CategoryStore.UpdateCategory, which documents its errors.
func (s *MemoryStore) UpdateCategory(_ context.Context, username, id string, patch CategoryPatch) (Category, error) {
	const op = "update category"
	k, err := categoryPatchRef(op, username, id, patch)
	if err != nil {
		return Category{}, err
	}
	now := s.o.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		return Category{}, wrap(op, errNotFound("category", username, id))
	}
	c := patch.apply(*e.category)
	c.UpdatedAt = now
	s.put(k, entity{category: &c})
	return c, nil
}

// DeleteCategory implements CategoryStore.DeleteCategory, which documents its errors.
func (s *MemoryStore) DeleteCategory(_ context.Context, username, id string) error {
	const op = "delete category"
	k, err := categoryRef(op, username, id)
	if err != nil {
		return err
	}
	q, err := userDataQuery(s.t, username, todoSKPrefix)
	if err != nil {
		return wrap(op, err)
	}
	now := s.o.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.remove(k) {
		return wrap(op, errNotFound("category", username, id))
	}
	for _, e := range s.items.Partition(q.PartitionValue) {
		if e.todo != nil && e.todo.CategoryID == id {
			t := *e.todo
			t.CategoryID, t.UpdatedAt = "", now
			s.put(s.keyOf(e), entity{todo: &t})
		}
	}
	return nil
}

// ListUserData implements Store.ListUserData, which documents its errors.
func (s *MemoryStore) ListUserData(_ context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Record], error) {
	return memList(s, "list user data", opts, func() (ddb.KeyQuery, error) { return userDataQuery(s.t, username, "") },
		func(e entity) Record {
			// Copies, so that callers cannot reach into the store.
			if e.todo != nil {
				t := *e.todo
				return Record{Todo: &t}
			}
			c := *e.category
			return Record{Category: &c}
		})
}

// memGet returns the entity at k, as pick converts it, or notFound.
func memGet[T any](s *MemoryStore, op string, k itemKey, notFound error, pick func(entity) T) (T, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, ok := s.items.Get(k.pk, k.sk)
	if !ok {
		var zero T
		return zero, wrap(op, notFound)
	}
	return pick(e), nil
}

// memList runs one page of a listing on the memory table, with the
// validation, order and cursors of DynamoStore's list.
func memList[T any](s *MemoryStore, op string, opts ddbkit.PageOptions, query func() (ddb.KeyQuery, error), conv func(entity) T) (ddbkit.Page[T], error) {
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
	es, next, err := s.items.Query(q, limit, opts.Cursor, nil)
	if err != nil {
		return ddbkit.Page[T]{}, wrap(op, err)
	}
	out := make([]T, len(es))
	for i, e := range es {
		out[i] = conv(e)
	}
	return ddbkit.Page[T]{Items: out, Next: next}, nil
}
