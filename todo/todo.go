package todo

import (
	"context"
	"net/mail"
	"strings"
	"time"
	"unicode"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/valid"
)

// User is an account. Username is its identity and cannot change.
//
// The model types (User, Todo, Category, Record) and the inputs carry json
// tags in the seed's attribute spelling (snake_case: category_id,
// created_at), so that a JSON API serves and takes them as the seed's
// application names them; optional fields are omitted when empty.
type User struct {
	Username string `json:"username"`
	Email    string `json:"email"`
}

// Priority is a todo's priority.
type Priority string

// The priorities the seed allows.
const (
	PriorityHigh   Priority = "high"
	PriorityMedium Priority = "medium"
	PriorityLow    Priority = "low"
)

// Color is a category's color: a Bulma color class name.
type Color string

// The eight Bulma colors the seed allows.
const (
	ColorPrimary Color = "primary" // blue
	ColorInfo    Color = "info"    // light blue
	ColorSuccess Color = "success" // green
	ColorWarning Color = "warning" // yellow
	ColorDanger  Color = "danger"  // red
	ColorLink    Color = "link"    // dark blue
	ColorLight   Color = "light"   // light gray
	ColorDark    Color = "dark"    // dark gray
)

// Todo is one item of a user's todo list.
type Todo struct {
	ID          string    `json:"id"` // UUIDv4 when ddbkit made it; read from the sort key
	Username    string    `json:"username"`
	Title       string    `json:"title"`
	Description string    `json:"description,omitempty"`
	Priority    Priority  `json:"priority"`
	Completed   bool      `json:"completed"`
	CategoryID  string    `json:"category_id,omitempty"` // "" when uncategorized
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// Category groups a user's todos.
type Category struct {
	ID        string    `json:"id"` // UUIDv4 when ddbkit made it; read from the sort key
	Username  string    `json:"username"`
	Name      string    `json:"name"`
	Color     Color     `json:"color"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// NewTodo is the input of CreateTodo.
type NewTodo struct {
	Title       string   `json:"title"`
	Description string   `json:"description,omitempty"`
	Priority    Priority `json:"priority"`
	Completed   bool     `json:"completed,omitempty"`
	CategoryID  string   `json:"category_id,omitempty"` // optional; must name an existing category of the same user
}

// TodoPatch changes the fields that are not nil. Setting CategoryID to ""
// uncategorizes the todo.
type TodoPatch struct {
	Title       *string   `json:"title,omitempty"`
	Description *string   `json:"description,omitempty"`
	Priority    *Priority `json:"priority,omitempty"`
	Completed   *bool     `json:"completed,omitempty"`
	CategoryID  *string   `json:"category_id,omitempty"`
}

// NewCategory is the input of CreateCategory.
type NewCategory struct {
	Name  string `json:"name"`
	Color Color  `json:"color"`
}

// CategoryPatch changes the fields that are not nil.
type CategoryPatch struct {
	Name  *string `json:"name,omitempty"`
	Color *Color  `json:"color,omitempty"`
}

// Record is one item of a user's data, as ListUserData returns it: exactly
// one of Todo and Category is set.
type Record struct {
	Todo     *Todo     `json:"todo,omitempty"`
	Category *Category `json:"category,omitempty"`
}

// Every method below can also return ErrUnavailable: DynamoDB kept
// throttling or failing through the retries, could not be reached, or the
// context ended first (the error then also matches context.Canceled or
// context.DeadlineExceeded). Every error matches exactly one ddbkit
// sentinel, and bad input is refused with ErrInvalidArgument before any
// call, so nothing is written. A write also returns ErrInvalidArgument,
// naming "Clock", when the time it would store lies outside the years
// 0001-9999, and every listing does, naming "CursorSecret", for a
// CursorSecret of 1 to 15 bytes. The listings apply no filter, so a page's
// work is bounded by its limit; only DeleteCategory's walk is filtered, and
// its pages, bounded by Options.FilterBudget, may be short or empty with a
// cursor to go on from.
//
// Every write method honours an idempotency key (ddbkit.WithIdempotencyKey),
// on both stores and across store instances on one table: repeated under
// the same key with the same input within ddbkit.IdempotencyWindow (24 h),
// it returns the first call's result and writes nothing more, as each
// method says; with other input under that key it returns
// ErrIdempotencyKeyReused, which matches ErrConflict, and writes nothing.
// Past the window the key is a new request.

// UserStore stores users.
type UserStore interface {
	// CreateUser stores a new user. It returns ErrInvalidArgument for a bad
	// username or email (or a Clock out of range), and ErrAlreadyExists if
	// the username is taken, by anyone, even with exactly the same email.
	// A create whose response was lost and that is retried succeeds, as
	// its ClientRequestToken proves the write its own; repeated under the
	// same idempotency key it succeeds again (ErrNotFound if the user was
	// deleted since), and with another email under that key it returns
	// ErrIdempotencyKeyReused.
	CreateUser(ctx context.Context, u User) error
	// GetUser returns ErrNotFound if there is no such user, and
	// ErrCorruptItem if the stored user cannot be decoded.
	GetUser(ctx context.Context, username string) (User, error)
	// ListUsers lists users in username order (byte order). It returns
	// ErrInvalidArgument for a bad limit and ErrInvalidCursor for a cursor
	// not issued by ListUsers. Stored users that cannot be decoded are left
	// out and reported in Page.Skipped.
	ListUsers(ctx context.Context, opts ddbkit.PageOptions) (ddbkit.Page[User], error)
	// UpdateUser replaces the email of an existing user. It returns
	// ErrInvalidArgument or ErrNotFound. Repeated under its idempotency
	// key it runs again, as a repeat without one would: it is safe to.
	UpdateUser(ctx context.Context, u User) error
	// DeleteUser deletes all of the user's todos and categories, and the
	// user last, so that an interrupted call, repeated, finishes the job,
	// and a user who registers the same name afterwards keeps their new
	// data. It returns ErrNotFound if there was neither a user nor any of
	// its data, and ErrConflict if the data kept changing through the
	// retries. Repeated under the idempotency key of a call that
	// succeeded, it succeeds again and deletes nothing, even data made
	// since; the repeat of a call that failed runs again and finishes it.
	DeleteUser(ctx context.Context, username string) error
}

// TodoStore stores todos.
type TodoStore interface {
	// CreateTodo stores a new todo with a fresh ID. It returns
	// ErrInvalidArgument for bad fields or a CategoryID that names no
	// category of the user, ErrNotFound if the user does not exist,
	// ErrAlreadyExists if the ID generator repeated an ID, and
	// ErrIdempotencyKeyReused if the call repeats an idempotency key
	// (ddbkit.WithIdempotencyKey) with other input. Repeated with the same
	// input under its key, it returns the todo the first call created, as
	// stored now (ErrNotFound if it was deleted since).
	CreateTodo(ctx context.Context, username string, in NewTodo) (Todo, error)
	// GetTodo returns ErrNotFound if there is no such todo, and
	// ErrCorruptItem if the stored todo cannot be decoded.
	GetTodo(ctx context.Context, username, id string) (Todo, error)
	// ListTodos lists a user's todos in ID order, one Query per page. An
	// unknown user has no todos. It returns ErrInvalidArgument or
	// ErrInvalidCursor. Stored todos that cannot be decoded are left out
	// and reported in Page.Skipped.
	ListTodos(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Todo], error)
	// UpdateTodo applies patch, bumps UpdatedAt and returns the todo as
	// committed. It returns ErrInvalidArgument (an empty patch included, or
	// a CategoryID that names no category of the user), ErrNotFound,
	// ErrCorruptItem, or, when it sets a category, ErrConflict if the todo
	// kept changing through the retries. Repeated under its idempotency
	// key, it returns the todo as stored now, without updating it again
	// (UpdatedAt is not bumped twice).
	UpdateTodo(ctx context.Context, username, id string, patch TodoPatch) (Todo, error)
	// ToggleTodo flips Completed (a todo stored without it counts as not
	// completed) and bumps UpdatedAt. Concurrent toggles each take effect
	// exactly once, and a toggle whose response was lost and that is
	// repeated inside the call is not applied twice. It returns ErrNotFound,
	// ErrCorruptItem, ErrConflict when it cannot win a race within its
	// retry budget, and ErrUnavailable when a response was lost and the
	// todo changed before the retry, so whether the toggle took effect is
	// unknown. Repeated under its idempotency key, it returns the todo as
	// stored now and does not toggle it back.
	ToggleTodo(ctx context.Context, username, id string) (Todo, error)
	// DeleteTodo returns ErrNotFound if there is no such todo. Repeated
	// under the idempotency key that deleted the todo, it succeeds again,
	// where a repeat without the key would find no todo.
	DeleteTodo(ctx context.Context, username, id string) error
}

// CategoryStore stores categories.
type CategoryStore interface {
	// CreateCategory stores a new category with a fresh ID. It returns
	// ErrInvalidArgument, ErrNotFound if the user does not exist,
	// ErrAlreadyExists if the ID generator repeated an ID, or
	// ErrIdempotencyKeyReused if the call repeats an idempotency key with
	// other input. Repeated with the same input under its key, it returns
	// the category the first call created, as stored now (ErrNotFound if
	// it was deleted since).
	CreateCategory(ctx context.Context, username string, in NewCategory) (Category, error)
	// GetCategory returns ErrNotFound if there is no such category, and
	// ErrCorruptItem if the stored category cannot be decoded.
	GetCategory(ctx context.Context, username, id string) (Category, error)
	// ListCategories lists a user's categories in ID order. It returns
	// ErrInvalidArgument or ErrInvalidCursor. Stored categories that cannot
	// be decoded are left out and reported in Page.Skipped.
	ListCategories(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Category], error)
	// UpdateCategory applies patch and bumps UpdatedAt. It returns
	// ErrInvalidArgument (an empty patch included), ErrNotFound or
	// ErrCorruptItem. Repeated under its idempotency key, it returns the
	// category as stored now, without updating it again.
	UpdateCategory(ctx context.Context, username, id string, patch CategoryPatch) (Category, error)
	// DeleteCategory uncategorizes every todo that refers to the category
	// (CategoryID becomes "", UpdatedAt is bumped) and deletes it, so that
	// no todo is ever left pointing at a deleted category; an interrupted
	// call, repeated, finishes the job. It finds the todos with a filtered
	// walk whose pages each evaluate at most Options.FilterBudget todos. It
	// returns ErrNotFound if there was neither the category nor any todo
	// referring to it, ErrConflict if the todos kept changing through the
	// retries, and ErrInvalidArgument for bad input, a Clock out of range
	// or a CursorSecret of 1 to 15 bytes. Repeated under the idempotency
	// key of a call that succeeded, it succeeds again and writes nothing,
	// even to todos that refer to the ID since; the repeat of a call that
	// failed runs again and finishes it.
	DeleteCategory(ctx context.Context, username, id string) error
}

// Store is everything the todo seed describes.
type Store interface {
	UserStore
	TodoStore
	CategoryStore
	// ListUserData lists all of a user's todos and categories with one
	// Query per page, in sort key order: categories first, then todos. It
	// returns ErrInvalidArgument or ErrInvalidCursor. Stored items that
	// cannot be decoded are left out and reported in Page.Skipped; items of
	// kinds this package does not know are left out silently.
	ListUserData(ctx context.Context, username string, opts ddbkit.PageOptions) (ddbkit.Page[Record], error)
}

// Field limits, in characters: Unicode code points, not bytes and not
// grapheme clusters, so "नमस्ते" counts 6 (न म स ् त े).
const (
	MaxUsernameLen     = 64
	MaxEmailLen        = 254
	MaxTitleLen        = 200
	MaxDescriptionLen  = 2000
	MaxCategoryNameLen = 50
	MaxIDLen           = 128
)

// Priorities and Colors list the allowed values, in the seed's order.
var (
	Priorities = []Priority{PriorityHigh, PriorityMedium, PriorityLow}
	Colors     = []Color{ColorPrimary, ColorInfo, ColorSuccess, ColorWarning, ColorDanger, ColorLink, ColorLight, ColorDark}
)

// Valid reports whether p is one of Priorities.
func (p Priority) Valid() bool { return oneOf(p, Priorities) }

// Valid reports whether c is one of Colors.
func (c Color) Valid() bool { return oneOf(c, Colors) }

func oneOf[T comparable](v T, allowed []T) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

// validator checks input: the shared rules of valid.Validator, and this
// package's own.
type validator struct{ valid.Validator }

func (v *validator) username(s string) {
	v.Text("Username", s, true, MaxUsernameLen)
	if v.Err != nil {
		return
	}
	for i, r := range s {
		switch {
		case unicode.IsMark(r) && i == 0:
			v.Fail("Username", "must not start with a combining mark, got %U", r)
			return
		case !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) && !strings.ContainsRune("._-", r):
			v.Fail("Username", "may hold only letters, marks, digits, '.', '_' and '-', got %q", r)
			return
		}
	}
}

func (v *validator) email(s string) {
	v.Text("Email", s, true, MaxEmailLen)
	if v.Err != nil {
		return
	}
	if a, err := mail.ParseAddress(s); err != nil || a.Address != s || a.Name != "" {
		v.Fail("Email", "must be a plain address like name@example.com")
	}
}

func (v *validator) priority(p Priority) {
	if !p.Valid() {
		v.Fail("Priority", "must be one of high, medium, low; got %q", p)
	}
}

func (v *validator) color(c Color) {
	if !c.Valid() {
		v.Fail("Color", "must be one of primary, info, success, warning, danger, link, light, dark; got %q", c)
	}
}

func (v *validator) categoryRef(id string) {
	if id != "" {
		v.ID("CategoryID", id, MaxIDLen)
	}
}

func validateUser(u User) error {
	var v validator
	v.username(u.Username)
	v.email(u.Email)
	return v.Err
}

func validateNewTodo(username string, in NewTodo) error {
	var v validator
	v.username(username)
	v.Text("Title", in.Title, true, MaxTitleLen)
	v.Text("Description", in.Description, false, MaxDescriptionLen)
	v.priority(in.Priority)
	v.categoryRef(in.CategoryID)
	return v.Err
}

func validateTodoPatch(username, id string, p TodoPatch) error {
	var v validator
	v.username(username)
	v.ID("ID", id, MaxIDLen)
	if p == (TodoPatch{}) {
		v.Fail("TodoPatch", "sets no field; set at least one")
	}
	if p.Title != nil {
		v.Text("Title", *p.Title, true, MaxTitleLen)
	}
	if p.Description != nil {
		v.Text("Description", *p.Description, false, MaxDescriptionLen)
	}
	if p.Priority != nil {
		v.priority(*p.Priority)
	}
	if p.CategoryID != nil {
		v.categoryRef(*p.CategoryID)
	}
	return v.Err
}

func validateNewCategory(username string, in NewCategory) error {
	var v validator
	v.username(username)
	v.Text("Name", in.Name, true, MaxCategoryNameLen)
	v.color(in.Color)
	return v.Err
}

func validateCategoryPatch(username, id string, p CategoryPatch) error {
	var v validator
	v.username(username)
	v.ID("ID", id, MaxIDLen)
	if p == (CategoryPatch{}) {
		v.Fail("CategoryPatch", "sets no field; set at least one")
	}
	if p.Name != nil {
		v.Text("Name", *p.Name, true, MaxCategoryNameLen)
	}
	if p.Color != nil {
		v.color(*p.Color)
	}
	return v.Err
}

func validateUsername(username string) error {
	var v validator
	v.username(username)
	return v.Err
}

func validateRef(username, id string) error {
	var v validator
	v.username(username)
	v.ID("ID", id, MaxIDLen)
	return v.Err
}

// apply returns t with patch applied.
func (p TodoPatch) apply(t Todo) Todo {
	if p.Title != nil {
		t.Title = *p.Title
	}
	if p.Description != nil {
		t.Description = *p.Description
	}
	if p.Priority != nil {
		t.Priority = *p.Priority
	}
	if p.Completed != nil {
		t.Completed = *p.Completed
	}
	if p.CategoryID != nil {
		t.CategoryID = *p.CategoryID
	}
	return t
}

// The prologue of every operation, shared by both stores: validate the
// input, then build the key, with errors wrapped for op. Keeping it in one
// place is what makes the stores refuse the same inputs with the same errors.

func userRef(op, username string) (itemKey, error) {
	if err := validateUsername(username); err != nil {
		return itemKey{}, wrap(op, err)
	}
	k, err := userKey(username)
	return k, wrap(op, err)
}

// newUser validates u and returns its key and item, checked against
// DynamoDB's item size limit as every item a write builds is.
func newUser(op string, u User) (itemKey, ddb.Item, error) {
	if err := validateUser(u); err != nil {
		return itemKey{}, nil, wrap(op, err)
	}
	k, err := userKey(u.Username)
	if err != nil {
		return itemKey{}, nil, wrap(op, err)
	}
	item, err := marshalUser(k, u)
	if err == nil {
		err = ddb.CheckItemSize(item, "Email", 0)
	}
	return k, item, wrap(op, err)
}

func todoRef(op, username, id string) (itemKey, error) {
	if err := validateRef(username, id); err != nil {
		return itemKey{}, wrap(op, err)
	}
	k, err := todoKey(username, id)
	return k, wrap(op, err)
}

func categoryRef(op, username, id string) (itemKey, error) {
	if err := validateRef(username, id); err != nil {
		return itemKey{}, wrap(op, err)
	}
	k, err := categoryKey(username, id)
	return k, wrap(op, err)
}

func todoPatchRef(op, username, id string, p TodoPatch) (itemKey, error) {
	if err := validateTodoPatch(username, id, p); err != nil {
		return itemKey{}, wrap(op, err)
	}
	k, err := todoKey(username, id)
	return k, wrap(op, err)
}

func categoryPatchRef(op, username, id string, p CategoryPatch) (itemKey, error) {
	if err := validateCategoryPatch(username, id, p); err != nil {
		return itemKey{}, wrap(op, err)
	}
	k, err := categoryKey(username, id)
	return k, wrap(op, err)
}

// newTodo validates in and returns the todo to create, with a fresh ID and
// timestamps, and its key.
// The item is checked against DynamoDB's item size limit, naming the
// longest free text; with this package's field limits a todo stays under
// 10 KB, so the check guards the limits rather than the caller's input.
func (o Options) newTodo(op, username string, in NewTodo) (Todo, itemKey, ddb.Item, error) {
	if err := validateNewTodo(username, in); err != nil {
		return Todo{}, itemKey{}, nil, wrap(op, err)
	}
	now, err := o.stamp()
	if err != nil {
		return Todo{}, itemKey{}, nil, wrap(op, err)
	}
	t := Todo{ID: o.NewID(), Username: username, Title: in.Title, Description: in.Description,
		Priority: in.Priority, Completed: in.Completed, CategoryID: in.CategoryID, CreatedAt: now, UpdatedAt: now}
	k, err := todoKey(username, t.ID)
	if err != nil {
		return Todo{}, itemKey{}, nil, wrap(op, err)
	}
	item, err := marshalTodo(k, t)
	if err == nil {
		err = ddb.CheckItemSize(item, "Description", 0)
	}
	return t, k, item, wrap(op, err)
}

// newCategory validates in and returns the category to create, with a fresh
// ID and timestamps, and its key.
func (o Options) newCategory(op, username string, in NewCategory) (Category, itemKey, ddb.Item, error) {
	if err := validateNewCategory(username, in); err != nil {
		return Category{}, itemKey{}, nil, wrap(op, err)
	}
	now, err := o.stamp()
	if err != nil {
		return Category{}, itemKey{}, nil, wrap(op, err)
	}
	c := Category{ID: o.NewID(), Username: username, Name: in.Name, Color: in.Color, CreatedAt: now, UpdatedAt: now}
	k, err := categoryKey(username, c.ID)
	if err != nil {
		return Category{}, itemKey{}, nil, wrap(op, err)
	}
	item, err := marshalCategory(k, c)
	if err == nil {
		err = ddb.CheckItemSize(item, "Name", 0)
	}
	return c, k, item, wrap(op, err)
}
