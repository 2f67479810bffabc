// Package todotest is the conformance suite for todo.Store implementations.
// The DynamoDB store and the memory store both run it, which is what keeps
// the memory store an honest fake: same results, errors, order and page
// boundaries.
package todotest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/todo"
)

// NewStore returns a fresh, empty store configured with opts. Each subtest
// calls it once.
type NewStore func(t *testing.T, opts ...func(*todo.Options)) todo.Store

// Start is the time of the suite's clock.
var Start = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// Run runs every conformance test against stores made by newStore.
func Run(t *testing.T, newStore NewStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, NewStore)
	}{
		{"Users", testUsers},
		{"ListUsersPages", testListUsersPages},
		{"CreateAndGetTodo", testCreateAndGetTodo},
		{"DefaultIDsAreUUIDv4", testDefaultIDs},
		{"RepeatedIDIsAlreadyExists", testRepeatedID},
		{"UpdateTodo", testUpdateTodo},
		{"ToggleTodo", testToggleTodo},
		{"DeleteTodo", testDeleteTodo},
		{"Categories", testCategories},
		{"DeleteCategoryUncategorizesTodos", testDeleteCategory},
		{"DeleteUserDeletesData", testDeleteUser},
		{"ListPages", testListPages},
		{"ListUserData", testListUserData},
		{"InvalidCursors", testInvalidCursors},
		{"BadInputWritesNothing", testBadInput},
		{"ConcurrentCreateUserOneWins", testConcurrentCreateUser},
		{"ConcurrentCreateAndToggle", testConcurrentCreateAndToggle},
		{"UsernamesWithMarks", testUsernamesWithMarks},
		{"EndedContextWritesNothing", testEndedContext},
		{"IdempotencyKey", testIdempotencyKey},
		{"KeyedRepeats", testKeyedRepeats},
		{"CreateUserTakenEvenWithSameEmail", testCreateUserTaken},
		{"IdempotencyKeyScoped", testIdempotencyKeyScoped},
		{"SweepsRepeatUnderAKey", testSweepsRepeatUnderAKey},
		{"WeakCursorSecret", testWeakCursorSecret},
		{"ClockRange", testClockRange},
		{"LargestInputs", testLargestInputs},
		{"DeleteCategorySmallBudget", testDeleteCategorySmallBudget},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newStore) })
	}
}

// fixed returns a store with a step clock (one millisecond per call) and
// deterministic IDs.
func fixed(t *testing.T, newStore NewStore, more ...func(*todo.Options)) todo.Store {
	t.Helper()
	opts := append([]func(*todo.Options){func(o *todo.Options) {
		o.Clock = ddbkit.StepClock(Start, time.Millisecond)
		o.NewID = ddbkit.SeededUUIDv4(1)
	}}, more...)
	return newStore(t, opts...)
}

func ctx(t *testing.T) context.Context { return t.Context() }

func mustUser(t *testing.T, s todo.Store, name string) {
	t.Helper()
	if err := s.CreateUser(ctx(t), todo.User{Username: name, Email: name + "@example.com"}); err != nil {
		t.Fatalf("CreateUser(%q): %v", name, err)
	}
}

func mustTodo(t *testing.T, s todo.Store, user string, in todo.NewTodo) todo.Todo {
	t.Helper()
	if in.Title == "" {
		in.Title = "title"
	}
	if in.Priority == "" {
		in.Priority = todo.PriorityMedium
	}
	td, err := s.CreateTodo(ctx(t), user, in)
	if err != nil {
		t.Fatalf("CreateTodo(%q): %v", user, err)
	}
	return td
}

func mustCategory(t *testing.T, s todo.Store, user, name string) todo.Category {
	t.Helper()
	c, err := s.CreateCategory(ctx(t), user, todo.NewCategory{Name: name, Color: todo.ColorPrimary})
	if err != nil {
		t.Fatalf("CreateCategory(%q): %v", user, err)
	}
	return c
}

// wantErr fails t unless err matches want and no other ddbkit sentinel:
// every error of a store matches exactly one.
func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	var matched []error
	for _, s := range ddbkit.Sentinels() {
		if errors.Is(err, s) {
			matched = append(matched, s)
		}
	}
	if len(matched) != 1 || matched[0] != want {
		t.Fatalf("%s: got error %v, matching %v; want exactly %v", what, err, matched, want)
	}
}

func ptr[T any](v T) *T { return &v }

// allUserData reads everything a user has, through the public API.
func allUserData(t *testing.T, s todo.Store, user string) []todo.Record {
	t.Helper()
	var out []todo.Record
	for r, err := range ddbkit.All(func(c string) (ddbkit.Page[todo.Record], error) {
		return s.ListUserData(ctx(t), user, ddbkit.PageOptions{Cursor: c})
	}) {
		if err != nil {
			t.Fatalf("ListUserData(%q): %v", user, err)
		}
		out = append(out, r)
	}
	return out
}

func allTodos(t *testing.T, s todo.Store, user string, limit int) ([]todo.Todo, []int) {
	t.Helper()
	var (
		out   []todo.Todo
		sizes []int
		c     string
	)
	for {
		p, err := s.ListTodos(ctx(t), user, ddbkit.PageOptions{Limit: limit, Cursor: c})
		if err != nil {
			t.Fatalf("ListTodos(%q, limit %d): %v", user, limit, err)
		}
		out = append(out, p.Items...)
		sizes = append(sizes, len(p.Items))
		if p.Next == "" {
			return out, sizes
		}
		c = p.Next
	}
}

func testUsers(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	got, err := s.GetUser(ctx(t), "alice")
	if err != nil || got != (todo.User{Username: "alice", Email: "alice@example.com"}) {
		t.Fatalf("GetUser = %+v, %v; want alice", got, err)
	}
	wantErr(t, "CreateUser twice", s.CreateUser(ctx(t), todo.User{Username: "alice", Email: "other@example.com"}), ddbkit.ErrAlreadyExists)
	if got, _ := s.GetUser(ctx(t), "alice"); got.Email != "alice@example.com" {
		t.Fatalf("a refused CreateUser overwrote the user: email %q", got.Email)
	}
	_, err = s.GetUser(ctx(t), "bob")
	wantErr(t, "GetUser(bob)", err, ddbkit.ErrNotFound)

	if err := s.UpdateUser(ctx(t), todo.User{Username: "alice", Email: "a@example.org"}); err != nil {
		t.Fatalf("UpdateUser: %v", err)
	}
	if got, _ := s.GetUser(ctx(t), "alice"); got.Email != "a@example.org" {
		t.Fatalf("after UpdateUser, email = %q, want a@example.org", got.Email)
	}
	wantErr(t, "UpdateUser(bob)", s.UpdateUser(ctx(t), todo.User{Username: "bob", Email: "b@example.com"}), ddbkit.ErrNotFound)
	if _, err := s.GetUser(ctx(t), "bob"); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("UpdateUser of a missing user created it")
	}
	// Japanese usernames are letters too.
	mustUser(t, s, "山田_taro-1.x")

	// Another caller's create of the user exactly as it is stored is
	// refused too: only a token proves a write one's own (a signup that
	// repeats the owner's email must not be handed the account).
	wantErr(t, "CreateUser of the user exactly as stored, by another caller",
		s.CreateUser(ctx(t), todo.User{Username: "alice", Email: "a@example.org"}), ddbkit.ErrAlreadyExists)
	wantErr(t, "CreateUser of the user exactly as stored, under another caller's idempotency key",
		s.CreateUser(ddbkit.WithIdempotencyKey(ctx(t), "signup-1"), todo.User{Username: "alice", Email: "a@example.org"}), ddbkit.ErrAlreadyExists)
}

func testListUsersPages(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	names := []string{"eve", "bob", "dave", "alice", "carol", "Zed", "山田"}
	for _, n := range names {
		mustUser(t, s, n)
	}
	want := slices.Clone(names)
	slices.Sort(want) // byte order, as DynamoDB sorts String keys
	var got []string
	var sizes []int
	c := ""
	for {
		p, err := s.ListUsers(ctx(t), ddbkit.PageOptions{Limit: 3, Cursor: c})
		if err != nil {
			t.Fatalf("ListUsers: %v", err)
		}
		for _, u := range p.Items {
			got = append(got, u.Username)
		}
		sizes = append(sizes, len(p.Items))
		if p.Next == "" {
			break
		}
		c = p.Next
	}
	if !slices.Equal(got, want) {
		t.Fatalf("ListUsers order = %v, want %v", got, want)
	}
	if !slices.Equal(sizes, []int{3, 3, 1}) {
		t.Fatalf("page sizes = %v, want [3 3 1]", sizes)
	}
}

func testCreateAndGetTodo(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	cat := mustCategory(t, s, "alice", "仕事")
	in := todo.NewTodo{Title: "プロジェクトの企画書作成", Description: "ドラフトしてレビューを依頼する",
		Priority: todo.PriorityHigh, CategoryID: cat.ID}
	got, err := s.CreateTodo(ctx(t), "alice", in)
	if err != nil {
		t.Fatalf("CreateTodo: %v", err)
	}
	if got.ID == "" || got.Username != "alice" || got.Title != in.Title || got.Description != in.Description ||
		got.Priority != in.Priority || got.Completed || got.CategoryID != cat.ID {
		t.Fatalf("CreateTodo returned %+v for input %+v", got, in)
	}
	if got.CreatedAt.IsZero() || !got.CreatedAt.Equal(got.UpdatedAt) || got.CreatedAt.Location() != time.UTC {
		t.Fatalf("CreatedAt %v, UpdatedAt %v: want equal, non-zero, UTC", got.CreatedAt, got.UpdatedAt)
	}
	read, err := s.GetTodo(ctx(t), "alice", got.ID)
	if err != nil || read != got {
		t.Fatalf("GetTodo = %+v, %v; want %+v", read, err, got)
	}
	_, err = s.GetTodo(ctx(t), "alice", "no-such-id")
	wantErr(t, "GetTodo(missing)", err, ddbkit.ErrNotFound)

	mustUser(t, s, "bob")
	_, err = s.GetTodo(ctx(t), "bob", got.ID)
	wantErr(t, "GetTodo(another user's todo)", err, ddbkit.ErrNotFound)

	_, err = s.CreateTodo(ctx(t), "nobody", todo.NewTodo{Title: "x", Priority: todo.PriorityLow})
	wantErr(t, "CreateTodo(unknown user)", err, ddbkit.ErrNotFound)
	if recs := allUserData(t, s, "nobody"); len(recs) != 0 {
		t.Fatalf("CreateTodo for an unknown user wrote %d items", len(recs))
	}
	// A todo may only reference its own user's categories.
	_, err = s.CreateTodo(ctx(t), "bob", todo.NewTodo{Title: "x", Priority: todo.PriorityLow, CategoryID: cat.ID})
	wantErr(t, "CreateTodo(another user's category)", err, ddbkit.ErrInvalidArgument)
}

func testDefaultIDs(t *testing.T, newStore NewStore) {
	s := newStore(t) // default ID generator
	mustUser(t, s, "alice")
	td := mustTodo(t, s, "alice", todo.NewTodo{})
	c := mustCategory(t, s, "alice", "home")
	for _, id := range []string{td.ID, c.ID} {
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 4 || u.String() != id {
			t.Fatalf("ID %q: want a canonical UUIDv4 (parse error %v)", id, err)
		}
	}
}

func testRepeatedID(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *todo.Options) { o.NewID = func() string { return "same-id" } })
	mustUser(t, s, "alice")
	first := mustTodo(t, s, "alice", todo.NewTodo{Title: "first"})
	_, err := s.CreateTodo(ctx(t), "alice", todo.NewTodo{Title: "second", Priority: todo.PriorityLow})
	wantErr(t, "CreateTodo with a repeated ID", err, ddbkit.ErrAlreadyExists)
	if got, _ := s.GetTodo(ctx(t), "alice", "same-id"); got != first {
		t.Fatalf("a refused create overwrote the todo: %+v", got)
	}
	mustCategory(t, s, "alice", "one")
	_, err = s.CreateCategory(ctx(t), "alice", todo.NewCategory{Name: "two", Color: todo.ColorDark})
	wantErr(t, "CreateCategory with a repeated ID", err, ddbkit.ErrAlreadyExists)
}

func testUpdateTodo(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	cat := mustCategory(t, s, "alice", "work")
	td := mustTodo(t, s, "alice", todo.NewTodo{Title: "old", Description: "d"})

	got, err := s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{Title: ptr("new"), Priority: ptr(todo.PriorityLow), CategoryID: ptr(cat.ID)})
	if err != nil {
		t.Fatalf("UpdateTodo: %v", err)
	}
	want := td
	want.Title, want.Priority, want.CategoryID = "new", todo.PriorityLow, cat.ID
	want.UpdatedAt = got.UpdatedAt
	if got != want || !got.UpdatedAt.After(td.UpdatedAt) {
		t.Fatalf("UpdateTodo = %+v, want %+v with a later UpdatedAt", got, want)
	}
	if read, _ := s.GetTodo(ctx(t), "alice", td.ID); read != got {
		t.Fatalf("GetTodo after update = %+v, want %+v", read, got)
	}

	got2, err := s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{CategoryID: ptr(""), Completed: ptr(true), Description: ptr("")})
	if err != nil || got2.CategoryID != "" || !got2.Completed || got2.Description != "" {
		t.Fatalf("UpdateTodo(clear category, complete) = %+v, %v", got2, err)
	}

	_, err = s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{CategoryID: ptr("missing")})
	wantErr(t, "UpdateTodo(unknown category)", err, ddbkit.ErrInvalidArgument)
	if read, _ := s.GetTodo(ctx(t), "alice", td.ID); read != got2 {
		t.Fatalf("a refused update changed the todo: %+v, want %+v", read, got2)
	}
	_, err = s.UpdateTodo(ctx(t), "alice", "missing", todo.TodoPatch{Title: ptr("x")})
	wantErr(t, "UpdateTodo(missing)", err, ddbkit.ErrNotFound)
	_, err = s.UpdateTodo(ctx(t), "alice", "missing", todo.TodoPatch{CategoryID: ptr(cat.ID)})
	wantErr(t, "UpdateTodo(missing, with category)", err, ddbkit.ErrNotFound)
	if recs := allUserData(t, s, "alice"); len(recs) != 2 {
		t.Fatalf("updates of a missing todo created items: %d records, want 2", len(recs))
	}
}

func testToggleTodo(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	td := mustTodo(t, s, "alice", todo.NewTodo{})
	for i, want := range []bool{true, false, true} {
		got, err := s.ToggleTodo(ctx(t), "alice", td.ID)
		if err != nil || got.Completed != want || !got.UpdatedAt.After(td.UpdatedAt) {
			t.Fatalf("toggle %d = %+v, %v; want Completed %v and a later UpdatedAt", i, got, err, want)
		}
		td = got
	}
	_, err := s.ToggleTodo(ctx(t), "alice", "missing")
	wantErr(t, "ToggleTodo(missing)", err, ddbkit.ErrNotFound)
}

func testDeleteTodo(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	td := mustTodo(t, s, "alice", todo.NewTodo{})
	if err := s.DeleteTodo(ctx(t), "alice", td.ID); err != nil {
		t.Fatalf("DeleteTodo: %v", err)
	}
	_, err := s.GetTodo(ctx(t), "alice", td.ID)
	wantErr(t, "GetTodo after delete", err, ddbkit.ErrNotFound)
	wantErr(t, "DeleteTodo twice", s.DeleteTodo(ctx(t), "alice", td.ID), ddbkit.ErrNotFound)
}

func testCategories(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	for _, c := range todo.Colors {
		got, err := s.CreateCategory(ctx(t), "alice", todo.NewCategory{Name: "色 " + string(c), Color: c})
		if err != nil || got.Color != c || got.Username != "alice" {
			t.Fatalf("CreateCategory(%s) = %+v, %v", c, got, err)
		}
		if read, err := s.GetCategory(ctx(t), "alice", got.ID); err != nil || read != got {
			t.Fatalf("GetCategory = %+v, %v; want %+v", read, err, got)
		}
	}
	p, err := s.ListCategories(ctx(t), "alice", ddbkit.PageOptions{})
	if err != nil || len(p.Items) != len(todo.Colors) || p.Next != "" {
		t.Fatalf("ListCategories = %d items, next %q, %v; want %d, \"\"", len(p.Items), p.Next, err, len(todo.Colors))
	}
	c := p.Items[0]
	got, err := s.UpdateCategory(ctx(t), "alice", c.ID, todo.CategoryPatch{Name: ptr("renamed"), Color: ptr(todo.ColorDanger)})
	if err != nil || got.Name != "renamed" || got.Color != todo.ColorDanger || !got.UpdatedAt.After(c.UpdatedAt) || !got.CreatedAt.Equal(c.CreatedAt) {
		t.Fatalf("UpdateCategory = %+v, %v", got, err)
	}
	_, err = s.UpdateCategory(ctx(t), "alice", "missing", todo.CategoryPatch{Name: ptr("x")})
	wantErr(t, "UpdateCategory(missing)", err, ddbkit.ErrNotFound)
	_, err = s.GetCategory(ctx(t), "alice", "missing")
	wantErr(t, "GetCategory(missing)", err, ddbkit.ErrNotFound)
	_, err = s.CreateCategory(ctx(t), "nobody", todo.NewCategory{Name: "x", Color: todo.ColorDark})
	wantErr(t, "CreateCategory(unknown user)", err, ddbkit.ErrNotFound)
	wantErr(t, "DeleteCategory(missing)", s.DeleteCategory(ctx(t), "alice", "missing"), ddbkit.ErrNotFound)
}

func testDeleteCategory(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	doomed := mustCategory(t, s, "alice", "doomed")
	kept := mustCategory(t, s, "alice", "kept")
	var refs, others []todo.Todo
	for i := range 5 {
		refs = append(refs, mustTodo(t, s, "alice", todo.NewTodo{Title: fmt.Sprint("ref ", i), CategoryID: doomed.ID}))
		others = append(others, mustTodo(t, s, "alice", todo.NewTodo{Title: fmt.Sprint("other ", i), CategoryID: kept.ID}))
	}
	others = append(others, mustTodo(t, s, "alice", todo.NewTodo{Title: "none"}))

	if err := s.DeleteCategory(ctx(t), "alice", doomed.ID); err != nil {
		t.Fatalf("DeleteCategory: %v", err)
	}
	_, err := s.GetCategory(ctx(t), "alice", doomed.ID)
	wantErr(t, "GetCategory after delete", err, ddbkit.ErrNotFound)
	for _, r := range refs {
		got, err := s.GetTodo(ctx(t), "alice", r.ID)
		if err != nil || got.CategoryID != "" || !got.UpdatedAt.After(r.UpdatedAt) || got.Title != r.Title {
			t.Fatalf("todo %q after its category was deleted = %+v, %v; want uncategorized, UpdatedAt bumped", r.ID, got, err)
		}
	}
	for _, o := range others {
		if got, _ := s.GetTodo(ctx(t), "alice", o.ID); got != o {
			t.Fatalf("todo of another category changed: %+v, want %+v", got, o)
		}
	}
	_, err = s.CreateTodo(ctx(t), "alice", todo.NewTodo{Title: "late", Priority: todo.PriorityLow, CategoryID: doomed.ID})
	wantErr(t, "CreateTodo(deleted category)", err, ddbkit.ErrInvalidArgument)
}

func testDeleteUser(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	mustUser(t, s, "bob")
	c := mustCategory(t, s, "alice", "c")
	for range 30 {
		mustTodo(t, s, "alice", todo.NewTodo{CategoryID: c.ID})
	}
	bobs := mustTodo(t, s, "bob", todo.NewTodo{})
	if err := s.DeleteUser(ctx(t), "alice"); err != nil {
		t.Fatalf("DeleteUser: %v", err)
	}
	if _, err := s.GetUser(ctx(t), "alice"); !errors.Is(err, ddbkit.ErrNotFound) {
		t.Fatalf("GetUser after delete: %v, want ErrNotFound", err)
	}
	if recs := allUserData(t, s, "alice"); len(recs) != 0 {
		t.Fatalf("DeleteUser left %d items", len(recs))
	}
	if got, err := s.GetTodo(ctx(t), "bob", bobs.ID); err != nil || got != bobs {
		t.Fatalf("DeleteUser(alice) touched bob's todo: %+v, %v", got, err)
	}
	wantErr(t, "DeleteUser twice", s.DeleteUser(ctx(t), "alice"), ddbkit.ErrNotFound)
	_, err := s.CreateTodo(ctx(t), "alice", todo.NewTodo{Title: "x", Priority: todo.PriorityLow})
	wantErr(t, "CreateTodo after DeleteUser", err, ddbkit.ErrNotFound)
}

func testListPages(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	mustCategory(t, s, "alice", "c") // must not appear among todos
	var ids []string
	for range 7 {
		ids = append(ids, mustTodo(t, s, "alice", todo.NewTodo{}).ID)
	}
	slices.Sort(ids) // todos list in sort key order: todo#{id}
	tests := []struct {
		name  string
		limit int
		sizes []int
	}{
		{"limit 3", 3, []int{3, 3, 1}},
		{"limit 1", 1, []int{1, 1, 1, 1, 1, 1, 1}},
		{"exact fit", 7, []int{7}},
		{"more than all", 8, []int{7}},
		{"default", 0, []int{7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, sizes := allTodos(t, s, "alice", tt.limit)
			var gotIDs []string
			for _, td := range got {
				gotIDs = append(gotIDs, td.ID)
			}
			if !slices.Equal(gotIDs, ids) {
				t.Fatalf("IDs = %v, want %v", gotIDs, ids)
			}
			if !slices.Equal(sizes, tt.sizes) {
				t.Fatalf("page sizes = %v, want %v", sizes, tt.sizes)
			}
		})
	}
	p, err := s.ListTodos(ctx(t), "nobody", ddbkit.PageOptions{})
	if err != nil || len(p.Items) != 0 || p.Next != "" {
		t.Fatalf("ListTodos(unknown user) = %+v, %v; want an empty last page", p, err)
	}
}

func testListUserData(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	c1 := mustCategory(t, s, "alice", "c1")
	c2 := mustCategory(t, s, "alice", "c2")
	t1 := mustTodo(t, s, "alice", todo.NewTodo{CategoryID: c1.ID})
	t2 := mustTodo(t, s, "alice", todo.NewTodo{})
	recs := allUserData(t, s, "alice")
	if len(recs) != 4 {
		t.Fatalf("ListUserData: %d records, want 4", len(recs))
	}
	cats := []string{c1.ID, c2.ID}
	todos := []string{t1.ID, t2.ID}
	slices.Sort(cats)
	slices.Sort(todos)
	var got []string
	for _, r := range recs {
		switch {
		case r.Category != nil && r.Todo == nil:
			got = append(got, "category "+r.Category.ID)
		case r.Todo != nil && r.Category == nil:
			got = append(got, "todo "+r.Todo.ID)
		default:
			t.Fatalf("record %+v: want exactly one of Todo and Category", r)
		}
	}
	want := []string{"category " + cats[0], "category " + cats[1], "todo " + todos[0], "todo " + todos[1]}
	if !slices.Equal(got, want) {
		t.Fatalf("ListUserData order = %v, want %v", got, want)
	}
	// Records are copies: changing one does not change the store.
	recs[0].Category.Name = "mutated"
	if again := allUserData(t, s, "alice"); again[0].Category.Name == "mutated" {
		t.Fatalf("ListUserData returned a record that aliases the store")
	}
}

func testInvalidCursors(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	for _, u := range []string{"alice", "bob"} {
		mustUser(t, s, u)
		mustCategory(t, s, u, "c1")
		mustCategory(t, s, u, "c2")
		for range 3 {
			mustTodo(t, s, u, todo.NewTodo{})
		}
	}
	p, err := s.ListTodos(ctx(t), "alice", ddbkit.PageOptions{Limit: 1})
	if err != nil || p.Next == "" {
		t.Fatalf("ListTodos first page: next %q, %v", p.Next, err)
	}
	cp, err := s.ListCategories(ctx(t), "alice", ddbkit.PageOptions{Limit: 1})
	if err != nil || cp.Next == "" {
		t.Fatalf("ListCategories first page: next %q, %v", cp.Next, err)
	}
	flip := func(c string, i int) string {
		b := []byte(c)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	tests := []struct {
		name string
		call func(cursor string) error
		cur  string
	}{
		{"another user's cursor", func(c string) error {
			_, err := s.ListTodos(ctx(t), "bob", ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}, p.Next},
		{"another listing's cursor", func(c string) error {
			_, err := s.ListCategories(ctx(t), "alice", ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}, p.Next},
		{"todos cursor for all data", func(c string) error {
			_, err := s.ListUserData(ctx(t), "alice", ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}, p.Next},
		{"categories cursor for todos", func(c string) error {
			_, err := s.ListTodos(ctx(t), "alice", ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}, cp.Next},
		{"users cursor with todos cursor", func(c string) error {
			_, err := s.ListUsers(ctx(t), ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}, p.Next},
		{"tampered first byte", func(c string) error {
			_, err := s.ListTodos(ctx(t), "alice", ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}, flip(p.Next, 0)},
		{"tampered middle byte", func(c string) error {
			_, err := s.ListTodos(ctx(t), "alice", ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}, flip(p.Next, len(p.Next)/2)},
		{"truncated", func(c string) error {
			_, err := s.ListTodos(ctx(t), "alice", ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}, p.Next[:len(p.Next)-3]},
		{"garbage", func(c string) error {
			_, err := s.ListTodos(ctx(t), "alice", ddbkit.PageOptions{Limit: 1, Cursor: c})
			return err
		}, "not a cursor!"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantErr(t, tt.name, tt.call(tt.cur), ddbkit.ErrInvalidCursor)
		})
	}
	// The genuine cursor still works.
	if _, err := s.ListTodos(ctx(t), "alice", ddbkit.PageOptions{Limit: 1, Cursor: p.Next}); err != nil {
		t.Fatalf("ListTodos with its own cursor: %v", err)
	}
}

func testBadInput(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	cat := mustCategory(t, s, "alice", "c")
	td := mustTodo(t, s, "alice", todo.NewTodo{Title: "keep", CategoryID: cat.ID})
	before := allUserData(t, s, "alice")
	ok := todo.NewTodo{Title: "t", Priority: todo.PriorityLow}
	with := func(f func(*todo.NewTodo)) todo.NewTodo { in := ok; f(&in); return in }
	create := func(user string, in todo.NewTodo) error { _, err := s.CreateTodo(ctx(t), user, in); return err }
	long := func(n int) string { return strings.Repeat("あ", n) }

	tests := []struct {
		name  string
		call  func() error
		field string
	}{
		{"empty title", func() error { return create("alice", with(func(in *todo.NewTodo) { in.Title = "" })) }, "Title"},
		{"blank title", func() error { return create("alice", with(func(in *todo.NewTodo) { in.Title = " \t" })) }, "Title"},
		{"title 201 characters", func() error { return create("alice", with(func(in *todo.NewTodo) { in.Title = long(201) })) }, "Title"},
		{"invalid UTF-8 title", func() error { return create("alice", with(func(in *todo.NewTodo) { in.Title = "\xff" })) }, "Title"},
		{"description 2001 characters", func() error {
			return create("alice", with(func(in *todo.NewTodo) { in.Description = long(2001) }))
		}, "Description"},
		{"unknown priority", func() error { return create("alice", with(func(in *todo.NewTodo) { in.Priority = "urgent" })) }, "Priority"},
		{"empty priority", func() error { return create("alice", with(func(in *todo.NewTodo) { in.Priority = "" })) }, "Priority"},
		{"unknown category", func() error { return create("alice", with(func(in *todo.NewTodo) { in.CategoryID = "nope" })) }, "CategoryID"},
		{"# in category id", func() error { return create("alice", with(func(in *todo.NewTodo) { in.CategoryID = "a#b" })) }, "CategoryID"},
		{"# in username", func() error { return create("ali#ce", ok) }, "Username"},
		{"empty username", func() error { return create("", ok) }, "Username"},
		{"username 65 characters", func() error { return create(long(65), ok) }, "Username"},
		{"create user with #", func() error {
			return s.CreateUser(ctx(t), todo.User{Username: "user#alice", Email: "a@example.com"})
		}, "Username"},
		{"create user with space", func() error {
			return s.CreateUser(ctx(t), todo.User{Username: "al ice", Email: "a@example.com"})
		}, "Username"},
		{"bad email", func() error { return s.CreateUser(ctx(t), todo.User{Username: "carol", Email: "not-an-email"}) }, "Email"},
		{"email with name", func() error {
			return s.CreateUser(ctx(t), todo.User{Username: "carol", Email: "Carol <c@example.com>"})
		}, "Email"},
		{"update user bad email", func() error { return s.UpdateUser(ctx(t), todo.User{Username: "alice", Email: ""}) }, "Email"},
		{"empty patch", func() error { _, err := s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{}); return err }, "TodoPatch"},
		{"patch empty title", func() error {
			_, err := s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{Title: ptr("")})
			return err
		}, "Title"},
		{"patch unknown priority", func() error {
			_, err := s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{Priority: ptr(todo.Priority("HIGH"))})
			return err
		}, "Priority"},
		{"patch unknown category", func() error {
			_, err := s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{Title: ptr("changed"), CategoryID: ptr("nope")})
			return err
		}, "CategoryID"},
		{"# in todo id", func() error { _, err := s.GetTodo(ctx(t), "alice", "x#y"); return err }, "ID"},
		{"# in todo id on toggle", func() error { _, err := s.ToggleTodo(ctx(t), "alice", td.ID+"#x"); return err }, "ID"},
		{"unknown color", func() error {
			_, err := s.CreateCategory(ctx(t), "alice", todo.NewCategory{Name: "x", Color: "purple"})
			return err
		}, "Color"},
		{"category name 51 characters", func() error {
			_, err := s.CreateCategory(ctx(t), "alice", todo.NewCategory{Name: long(51), Color: todo.ColorDark})
			return err
		}, "Name"},
		{"empty category patch", func() error {
			_, err := s.UpdateCategory(ctx(t), "alice", cat.ID, todo.CategoryPatch{})
			return err
		}, "CategoryPatch"},
		{"patch unknown color", func() error {
			_, err := s.UpdateCategory(ctx(t), "alice", cat.ID, todo.CategoryPatch{Color: ptr(todo.Color("Primary"))})
			return err
		}, "Color"},
		{"list with a bad username", func() error {
			_, err := s.ListTodos(ctx(t), "al ice", ddbkit.PageOptions{})
			return err
		}, "Username"},
		{"negative limit", func() error {
			_, err := s.ListTodos(ctx(t), "alice", ddbkit.PageOptions{Limit: -1})
			return err
		}, "Limit"},
		{"limit too large", func() error {
			_, err := s.ListUserData(ctx(t), "alice", ddbkit.PageOptions{Limit: ddbkit.MaxPageLimit + 1})
			return err
		}, "Limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			wantErr(t, tt.name, err, ddbkit.ErrInvalidArgument)
			var ve *ddbkit.ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.field {
				t.Fatalf("error %v: want a *ddbkit.ValidationError for field %q", err, tt.field)
			}
			if !strings.HasPrefix(err.Error(), "todo: ") {
				t.Fatalf("error %q does not start with the package name", err)
			}
		})
	}
	// Exactly 200 and 2000 characters are fine: limits count characters, not bytes.
	mustTodo(t, s, "alice", todo.NewTodo{Title: long(200), Description: long(2000)})

	after := allUserData(t, s, "alice")
	if len(after) != len(before)+1 {
		t.Fatalf("bad input wrote items: %d records before, %d after (one valid create)", len(before), len(after))
	}
	if got, _ := s.GetTodo(ctx(t), "alice", td.ID); got != td {
		t.Fatalf("bad updates changed the todo: %+v, want %+v", got, td)
	}
	if got, _ := s.GetCategory(ctx(t), "alice", cat.ID); got != cat {
		t.Fatalf("bad updates changed the category: %+v, want %+v", got, cat)
	}
	users, err := s.ListUsers(ctx(t), ddbkit.PageOptions{})
	if err != nil || len(users.Items) != 1 {
		t.Fatalf("bad input created users: %+v, %v", users.Items, err)
	}
	if u, _ := s.GetUser(ctx(t), "alice"); u.Email != "alice@example.com" {
		t.Fatalf("a bad UpdateUser changed the email to %q", u.Email)
	}
}

func testConcurrentCreateUser(t *testing.T, newStore NewStore) {
	s := newStore(t)
	const n = 20
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		wins int
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.CreateUser(ctx(t), todo.User{Username: "racer", Email: fmt.Sprintf("r%d@example.com", i)})
			if err != nil && !errors.Is(err, ddbkit.ErrAlreadyExists) {
				t.Errorf("CreateUser: %v", err)
			}
			if err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d of %d concurrent creates of one user won; want exactly 1", wins, n)
	}
}

func testConcurrentCreateAndToggle(t *testing.T, newStore NewStore) {
	s := newStore(t, func(o *todo.Options) { o.Retry = ddbkit.RetryPolicy{MaxAttempts: 50} })
	mustUser(t, s, "alice")
	cat := mustCategory(t, s, "alice", "shared")
	shared := mustTodo(t, s, "alice", todo.NewTodo{Title: "shared"})
	const (
		workers = 16
		creates = 4
		toggles = 5
	)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		toggled  int
		conflict int
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range creates {
				td, err := s.CreateTodo(ctx(t), "alice", todo.NewTodo{Title: fmt.Sprintf("w%d-%d", w, i), Priority: todo.PriorityLow, CategoryID: cat.ID})
				if err != nil {
					t.Errorf("CreateTodo: %v", err)
					return
				}
				if _, err := s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{Completed: ptr(true)}); err != nil {
					t.Errorf("UpdateTodo: %v", err)
				}
			}
			for range toggles {
				_, err := s.ToggleTodo(ctx(t), "alice", shared.ID)
				mu.Lock()
				switch {
				case err == nil:
					toggled++
				case errors.Is(err, ddbkit.ErrConflict):
					conflict++
				default:
					t.Errorf("ToggleTodo: %v", err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	todos, _ := allTodos(t, s, "alice", 0)
	if len(todos) != 1+workers*creates {
		t.Fatalf("%d todos, want %d", len(todos), 1+workers*creates)
	}
	for _, td := range todos {
		if td.ID != shared.ID && (!td.Completed || td.CategoryID != cat.ID) {
			t.Fatalf("todo %+v: want completed, in category %q", td, cat.ID)
		}
	}
	got, err := s.GetTodo(ctx(t), "alice", shared.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Every successful toggle took effect exactly once.
	if want := toggled%2 == 1; got.Completed != want {
		t.Fatalf("after %d successful toggles (%d gave up), Completed = %v, want %v", toggled, conflict, got.Completed, want)
	}
	if toggled+conflict != workers*toggles {
		t.Fatalf("%d toggles accounted for, want %d", toggled+conflict, workers*toggles)
	}
}

func testUsernamesWithMarks(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	// Vowel signs and viramas are marks, not letters; these names need them.
	for _, name := range []string{"नमस्ते", "สวัสดี", "வணக்கம்", "e\u0301cole", "नमस्ते_2"} {
		if err := s.CreateUser(ctx(t), todo.User{Username: name, Email: "x@example.com"}); err != nil {
			t.Fatalf("CreateUser(%q): %v", name, err)
		}
		if got, err := s.GetUser(ctx(t), name); err != nil || got.Username != name {
			t.Fatalf("GetUser(%q) = %+v, %v", name, got, err)
		}
		td := mustTodo(t, s, name, todo.NewTodo{})
		if got, err := s.GetTodo(ctx(t), name, td.ID); err != nil || got != td {
			t.Fatalf("GetTodo of %q = %+v, %v; want %+v", name, got, err, td)
		}
	}
	// Lengths count code points: न and ् are two.
	ok := strings.Repeat("न\u094d", todo.MaxUsernameLen/2)
	if err := s.CreateUser(ctx(t), todo.User{Username: ok, Email: "x@example.com"}); err != nil {
		t.Fatalf("CreateUser of %d code points: %v", todo.MaxUsernameLen, err)
	}
	tests := []struct{ name, username string }{
		{"a mark first", "\u0301cole"},
		{"a virama first", "\u094dनम"},
		{"one code point too many", ok + "न"},
		{"a symbol", "a+b"},
		{"a space", "नम स्ते"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.CreateUser(ctx(t), todo.User{Username: tt.username, Email: "x@example.com"})
			wantErr(t, tt.name, err, ddbkit.ErrInvalidArgument)
			var ve *ddbkit.ValidationError
			if !errors.As(err, &ve) || ve.Field != "Username" {
				t.Fatalf("error %v: want a *ddbkit.ValidationError for Username", err)
			}
		})
	}
}

// testEndedContext calls every method under a cancelled and under an
// expired context: each fails with ErrUnavailable, still matching the
// context's error, and nothing is written.
func testEndedContext(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	cat := mustCategory(t, s, "alice", "c")
	td := mustTodo(t, s, "alice", todo.NewTodo{CategoryID: cat.ID})
	other := mustCategory(t, s, "alice", "other")
	before := snapshot(t, s, "alice", "bob")

	cancelled, cancel := context.WithCancel(ctx(t))
	cancel()
	expired, cancel2 := context.WithDeadline(ctx(t), time.Now().Add(-time.Second))
	defer cancel2()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{{"cancelled", cancelled, context.Canceled}, {"expired", expired, context.DeadlineExceeded}} {
		calls := []struct {
			name string
			call func() error
		}{
			{"CreateUser", func() error { return s.CreateUser(c.ctx, todo.User{Username: "bob", Email: "b@example.com"}) }},
			{"GetUser", func() error { _, err := s.GetUser(c.ctx, "alice"); return err }},
			{"ListUsers", func() error { _, err := s.ListUsers(c.ctx, ddbkit.PageOptions{}); return err }},
			{"UpdateUser", func() error { return s.UpdateUser(c.ctx, todo.User{Username: "alice", Email: "new@example.com"}) }},
			{"DeleteUser", func() error { return s.DeleteUser(c.ctx, "alice") }},
			{"CreateTodo", func() error {
				_, err := s.CreateTodo(c.ctx, "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
				return err
			}},
			{"GetTodo", func() error { _, err := s.GetTodo(c.ctx, "alice", td.ID); return err }},
			{"ListTodos", func() error { _, err := s.ListTodos(c.ctx, "alice", ddbkit.PageOptions{}); return err }},
			{"UpdateTodo", func() error {
				_, err := s.UpdateTodo(c.ctx, "alice", td.ID, todo.TodoPatch{Title: ptr("x")})
				return err
			}},
			{"UpdateTodo with category", func() error {
				_, err := s.UpdateTodo(c.ctx, "alice", td.ID, todo.TodoPatch{CategoryID: ptr(other.ID)})
				return err
			}},
			{"ToggleTodo", func() error { _, err := s.ToggleTodo(c.ctx, "alice", td.ID); return err }},
			{"DeleteTodo", func() error { return s.DeleteTodo(c.ctx, "alice", td.ID) }},
			{"CreateCategory", func() error {
				_, err := s.CreateCategory(c.ctx, "alice", todo.NewCategory{Name: "n", Color: todo.ColorDark})
				return err
			}},
			{"GetCategory", func() error { _, err := s.GetCategory(c.ctx, "alice", cat.ID); return err }},
			{"ListCategories", func() error { _, err := s.ListCategories(c.ctx, "alice", ddbkit.PageOptions{}); return err }},
			{"UpdateCategory", func() error {
				_, err := s.UpdateCategory(c.ctx, "alice", cat.ID, todo.CategoryPatch{Name: ptr("x")})
				return err
			}},
			{"DeleteCategory", func() error { return s.DeleteCategory(c.ctx, "alice", cat.ID) }},
			{"ListUserData", func() error { _, err := s.ListUserData(c.ctx, "alice", ddbkit.PageOptions{}); return err }},
		}
		for _, call := range calls {
			t.Run(c.name+"/"+call.name, func(t *testing.T) {
				err := call.call()
				wantErr(t, call.name, err, ddbkit.ErrUnavailable)
				if !errors.Is(err, c.want) {
					t.Fatalf("%s: error %v does not match %v", call.name, err, c.want)
				}
				if !strings.HasPrefix(err.Error(), "todo: ") {
					t.Fatalf("error %q does not start with the package name", err)
				}
			})
		}
	}
	if after := snapshot(t, s, "alice", "bob"); after != before {
		t.Fatalf("calls under an ended context wrote:\nbefore %s\nafter  %s", before, after)
	}
}

// snapshot renders the users and all data of the given users.
func snapshot(t *testing.T, s todo.Store, users ...string) string {
	t.Helper()
	var b strings.Builder
	for u, err := range ddbkit.All(func(c string) (ddbkit.Page[todo.User], error) {
		return s.ListUsers(ctx(t), ddbkit.PageOptions{Cursor: c})
	}) {
		if err != nil {
			t.Fatalf("ListUsers: %v", err)
		}
		fmt.Fprintf(&b, "%+v\n", u)
	}
	for _, u := range users {
		for _, r := range allUserData(t, s, u) {
			switch {
			case r.Todo != nil:
				fmt.Fprintf(&b, "%+v\n", *r.Todo)
			case r.Category != nil:
				fmt.Fprintf(&b, "%+v\n", *r.Category)
			}
		}
	}
	return b.String()
}

// testIdempotencyKey: a create repeated under its idempotency key with
// the same input returns the first call's result, the same ID, and
// writes nothing more, although the store makes a fresh ID and timestamp
// on every call; with other input it is ErrIdempotencyKeyReused (which
// matches ErrConflict) and writes nothing. Each operation under a key is
// a request of its own.
func testIdempotencyKey(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	// DynamoDB remembers a token for ten minutes, account-wide: every run
	// needs keys of its own.
	run := uuid.NewString()
	key := ddbkit.WithIdempotencyKey(ctx(t), "request-1-"+run)
	in := todo.NewTodo{Title: "once", Priority: todo.PriorityLow}
	first, err := s.CreateTodo(key, "alice", in)
	if err != nil {
		t.Fatalf("CreateTodo under a key: %v", err)
	}
	again, err := s.CreateTodo(key, "alice", in)
	if err != nil || again != first {
		t.Fatalf("CreateTodo repeated under its key = %+v, %v; want %+v, nil", again, err, first)
	}
	if todos, _ := allTodos(t, s, "alice", 0); len(todos) != 1 || todos[0] != first {
		t.Fatalf("todos after a repeated create under one key = %+v, want only %+v", todos, first)
	}
	// Without the key the same create is a new request: a new todo.
	other, err := s.CreateTodo(ctx(t), "alice", in)
	if err != nil || other.ID == first.ID {
		t.Fatalf("CreateTodo without the key = %+v, %v; want a new todo", other, err)
	}
	// Other input under a used key writes nothing.
	before := snapshot(t, s, "alice")
	_, err = s.CreateTodo(key, "alice", todo.NewTodo{Title: "other", Priority: todo.PriorityLow})
	wantReused(t, "another CreateTodo under a used key", err)
	if after := snapshot(t, s, "alice"); after != before {
		t.Fatalf("a refused create under a used key wrote:\nbefore %s\nafter  %s", before, after)
	}
	// Each operation under the key is a request of its own.
	c, err := s.CreateCategory(key, "alice", todo.NewCategory{Name: "c", Color: todo.ColorInfo})
	if err != nil {
		t.Fatalf("CreateCategory under a key used by CreateTodo: %v", err)
	}
	if again, err := s.CreateCategory(key, "alice", todo.NewCategory{Name: "c", Color: todo.ColorInfo}); err != nil || again != c {
		t.Fatalf("CreateCategory repeated under its key = %+v, %v; want %+v", again, err, c)
	}
	// A fresh key is a fresh request.
	key2 := ddbkit.WithIdempotencyKey(ctx(t), "request-2-"+run)
	if td, err := s.CreateTodo(key2, "alice", in); err != nil || td.ID == first.ID {
		t.Fatalf("CreateTodo under a fresh key = %+v, %v; want a new todo", td, err)
	}
	// A repeat whose todo was deleted since finds it gone.
	if err := s.DeleteTodo(ctx(t), "alice", first.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.CreateTodo(key, "alice", in)
	wantErr(t, "CreateTodo repeated under its key after its todo was deleted", err, ddbkit.ErrNotFound)
}

// wantReused fails t unless err is ErrIdempotencyKeyReused, and so
// ErrConflict as its one sentinel.
func wantReused(t *testing.T, what string, err error) {
	t.Helper()
	wantErr(t, what, err, ddbkit.ErrConflict)
	if !errors.Is(err, ddbkit.ErrIdempotencyKeyReused) {
		t.Fatalf("%s: %v does not match ErrIdempotencyKeyReused", what, err)
	}
}

// keyedFixture is what testKeyedRepeats's calls work on: alice with a
// category, two todos (one in the category) and a second category.
type keyedFixture struct {
	s         todo.Store
	t1, t2    todo.Todo
	cat, cat2 todo.Category
}

// testKeyedRepeats: every write method, repeated under its idempotency
// key with the same input, returns the first call's result and writes
// nothing more: a create the same item, an update or a toggle the todo
// or category as the first call left it (a toggle does not flip back), a
// delete success (though the item is gone), UpdateUser, safe to repeat,
// what it returns without a key. With other input under the key it is
// ErrIdempotencyKeyReused and writes nothing. The store's clock steps and
// its IDs are fresh, so a call run again would write something else.
func testKeyedRepeats(t *testing.T, newStore NewStore) {
	run := uuid.NewString()
	cases := []struct {
		name  string
		call  func(ctx context.Context, f *keyedFixture) (any, error)
		other func(ctx context.Context, f *keyedFixture) (any, error) // other input; nil if the method has none
		check func(t *testing.T, f *keyedFixture, first any)          // what the first call left
	}{
		{name: "CreateUser",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return nil, f.s.CreateUser(ctx, todo.User{Username: "bob", Email: "bob@example.com"})
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return nil, f.s.CreateUser(ctx, todo.User{Username: "bob", Email: "mallory@example.com"})
			},
			check: func(t *testing.T, f *keyedFixture, _ any) {
				if u, err := f.s.GetUser(ctx(t), "bob"); err != nil || u.Email != "bob@example.com" {
					t.Fatalf("bob = %+v, %v", u, err)
				}
			}},
		{name: "UpdateUser",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return nil, f.s.UpdateUser(ctx, todo.User{Username: "alice", Email: "new@example.com"})
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return nil, f.s.UpdateUser(ctx, todo.User{Username: "alice", Email: "other@example.com"})
			},
			check: func(t *testing.T, f *keyedFixture, _ any) {
				if u, err := f.s.GetUser(ctx(t), "alice"); err != nil || u.Email != "new@example.com" {
					t.Fatalf("alice = %+v, %v", u, err)
				}
			}},
		{name: "CreateTodo",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "new", Priority: todo.PriorityHigh, CategoryID: f.cat.ID})
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.CreateTodo(ctx, "alice", todo.NewTodo{Title: "other", Priority: todo.PriorityHigh, CategoryID: f.cat.ID})
			},
			check: func(t *testing.T, f *keyedFixture, first any) {
				if got, err := f.s.GetTodo(ctx(t), "alice", first.(todo.Todo).ID); err != nil || got != first {
					t.Fatalf("the todo created = %+v, %v; want %+v", got, err, first)
				}
				if todos, _ := allTodos(t, f.s, "alice", 0); len(todos) != 3 {
					t.Fatalf("%d todos, want 3: one created", len(todos))
				}
			}},
		{name: "UpdateTodo",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.UpdateTodo(ctx, "alice", f.t1.ID, todo.TodoPatch{Title: ptr("renamed")})
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.UpdateTodo(ctx, "alice", f.t1.ID, todo.TodoPatch{Title: ptr("other")})
			},
			check: wantTodoAsReturned},
		{name: "UpdateTodoWithCategory",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.UpdateTodo(ctx, "alice", f.t1.ID, todo.TodoPatch{CategoryID: ptr(f.cat2.ID)})
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.UpdateTodo(ctx, "alice", f.t1.ID, todo.TodoPatch{CategoryID: ptr(f.cat.ID)})
			},
			check: wantTodoAsReturned},
		{name: "ToggleTodo",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.ToggleTodo(ctx, "alice", f.t1.ID)
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.ToggleTodo(ctx, "alice", f.t2.ID)
			},
			check: func(t *testing.T, f *keyedFixture, first any) {
				if !first.(todo.Todo).Completed {
					t.Fatalf("the toggle = %+v, want it completed", first)
				}
				wantTodoAsReturned(t, f, first)
			}},
		{name: "DeleteTodo",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return nil, f.s.DeleteTodo(ctx, "alice", f.t1.ID)
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return nil, f.s.DeleteTodo(ctx, "alice", f.t2.ID)
			},
			check: func(t *testing.T, f *keyedFixture, _ any) {
				if _, err := f.s.GetTodo(ctx(t), "alice", f.t1.ID); !errors.Is(err, ddbkit.ErrNotFound) {
					t.Fatalf("GetTodo after DeleteTodo = %v, want ErrNotFound", err)
				}
			}},
		{name: "CreateCategory",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "new", Color: todo.ColorDark})
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.CreateCategory(ctx, "alice", todo.NewCategory{Name: "new", Color: todo.ColorLight})
			},
			check: func(t *testing.T, f *keyedFixture, first any) {
				if got, err := f.s.GetCategory(ctx(t), "alice", first.(todo.Category).ID); err != nil || got != first {
					t.Fatalf("the category created = %+v, %v; want %+v", got, err, first)
				}
			}},
		{name: "UpdateCategory",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.UpdateCategory(ctx, "alice", f.cat.ID, todo.CategoryPatch{Name: ptr("renamed")})
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return f.s.UpdateCategory(ctx, "alice", f.cat.ID, todo.CategoryPatch{Color: ptr(todo.ColorDanger)})
			},
			check: func(t *testing.T, f *keyedFixture, first any) {
				if got, err := f.s.GetCategory(ctx(t), "alice", f.cat.ID); err != nil || got != first {
					t.Fatalf("the category = %+v, %v; want %+v", got, err, first)
				}
			}},
		{name: "DeleteCategory",
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return nil, f.s.DeleteCategory(ctx, "alice", f.cat.ID)
			},
			other: func(ctx context.Context, f *keyedFixture) (any, error) {
				return nil, f.s.DeleteCategory(ctx, "alice", f.cat2.ID)
			},
			check: func(t *testing.T, f *keyedFixture, _ any) {
				if got, err := f.s.GetTodo(ctx(t), "alice", f.t1.ID); err != nil || got.CategoryID != "" {
					t.Fatalf("todo after DeleteCategory = %+v, %v; want it uncategorized", got, err)
				}
			}},
		{name: "DeleteUser",
			// Its one argument is the scope's partition: no other input.
			call: func(ctx context.Context, f *keyedFixture) (any, error) {
				return nil, f.s.DeleteUser(ctx, "alice")
			},
			check: func(t *testing.T, f *keyedFixture, _ any) {
				if _, err := f.s.GetUser(ctx(t), "alice"); !errors.Is(err, ddbkit.ErrNotFound) {
					t.Fatalf("GetUser after DeleteUser = %v, want ErrNotFound", err)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := fixed(t, newStore)
			mustUser(t, s, "alice")
			f := &keyedFixture{s: s, cat: mustCategory(t, s, "alice", "c"), cat2: mustCategory(t, s, "alice", "c2")}
			f.t1 = mustTodo(t, s, "alice", todo.NewTodo{CategoryID: f.cat.ID})
			f.t2 = mustTodo(t, s, "alice", todo.NewTodo{})
			key := ddbkit.WithIdempotencyKey(ctx(t), tc.name+"-"+run)
			first, err := tc.call(key, f)
			if err != nil {
				t.Fatalf("%s under a key: %v", tc.name, err)
			}
			tc.check(t, f, first)
			before := snapshot(t, s, "alice", "bob")
			again, err := tc.call(key, f)
			if err != nil || again != first {
				t.Fatalf("%s repeated under its key = %+v, %v; want the first call's %+v, nil", tc.name, again, err, first)
			}
			if after := snapshot(t, s, "alice", "bob"); after != before {
				t.Fatalf("%s repeated under its key wrote:\nbefore %s\nafter  %s", tc.name, before, after)
			}
			tc.check(t, f, first)
			if tc.other == nil {
				return
			}
			_, err = tc.other(key, f)
			wantReused(t, tc.name+" with other input under a used key", err)
			if after := snapshot(t, s, "alice", "bob"); after != before {
				t.Fatalf("%s with other input under a used key wrote:\nbefore %s\nafter  %s", tc.name, before, after)
			}
		})
	}
}

// wantTodoAsReturned fails t unless the todo first stands for is stored
// as first.
func wantTodoAsReturned(t *testing.T, f *keyedFixture, first any) {
	t.Helper()
	want := first.(todo.Todo)
	if got, err := f.s.GetTodo(ctx(t), "alice", want.ID); err != nil || got != want {
		t.Fatalf("the todo = %+v, %v; want %+v", got, err, want)
	}
}

// wantField fails t unless err is a *ddbkit.ValidationError naming field.
func wantField(t *testing.T, what string, err error, field string) {
	t.Helper()
	wantErr(t, what, err, ddbkit.ErrInvalidArgument)
	var ve *ddbkit.ValidationError
	if !errors.As(err, &ve) || ve.Field != field {
		t.Fatalf("%s: %v does not name field %s", what, err, field)
	}
}

// testCreateUserTaken: a user is created once; another caller's create of
// the same user, even with exactly the same email (a signup that repeats
// the owner's address), is refused and changes nothing. A caller's repeat
// under its own idempotency key succeeds again, and one with another email
// under that key is ErrIdempotencyKeyReused.
func testCreateUserTaken(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	owner := ddbkit.WithIdempotencyKey(ctx(t), "signup-"+uuid.NewString())
	alice := todo.User{Username: "alice", Email: "alice@example.com"}
	if err := s.CreateUser(owner, alice); err != nil {
		t.Fatalf("CreateUser(alice): %v", err)
	}
	wantErr(t, "CreateUser(alice, same email) by a second caller", s.CreateUser(ctx(t), alice), ddbkit.ErrAlreadyExists)
	other := ddbkit.WithIdempotencyKey(ctx(t), "signup-"+uuid.NewString())
	wantErr(t, "CreateUser(alice, same email) under a second caller's key", s.CreateUser(other, alice), ddbkit.ErrAlreadyExists)
	if err := s.CreateUser(owner, alice); err != nil {
		t.Fatalf("CreateUser repeated under the owner's key: %v", err)
	}
	wantReused(t, "CreateUser with another email under the owner's key",
		s.CreateUser(owner, todo.User{Username: "alice", Email: "mallory@example.com"}))
	if got, err := s.GetUser(ctx(t), "alice"); err != nil || got != alice {
		t.Fatalf("alice = %+v, %v; want %+v", got, err, alice)
	}
}

// testIdempotencyKeyScoped: one idempotency key used by two users, and on
// two tables, makes unrelated tokens: every write succeeds and writes.
func testIdempotencyKeyScoped(t *testing.T, newStore NewStore) {
	same := func(o *todo.Options) {
		o.Clock = func() time.Time { return Start }
		o.NewID = func() string { return "fixed-id" }
	}
	s1, s2 := newStore(t, same), newStore(t, same)
	key := ddbkit.WithIdempotencyKey(ctx(t), "shared-"+uuid.NewString())
	for _, s := range []todo.Store{s1, s2} {
		for _, u := range []string{"alice", "bob"} {
			if err := s.CreateUser(key, todo.User{Username: u, Email: u + "@example.com"}); err != nil {
				t.Fatalf("CreateUser(%s) under a shared key: %v", u, err)
			}
			// The same ID in two partitions is two items.
			if _, err := s.CreateCategory(key, u, todo.NewCategory{Name: "c", Color: todo.ColorInfo}); err != nil {
				t.Fatalf("CreateCategory(%s) under a shared key: %v", u, err)
			}
			td, err := s.CreateTodo(key, u, todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
			if err != nil {
				t.Fatalf("CreateTodo(%s) under a shared key: %v", u, err)
			}
			if _, err := s.UpdateTodo(key, u, td.ID, todo.TodoPatch{CategoryID: ptr("fixed-id")}); err != nil {
				t.Fatalf("UpdateTodo(%s) with a category under a shared key: %v", u, err)
			}
			if err := s.DeleteTodo(key, u, td.ID); err != nil {
				t.Fatalf("DeleteTodo(%s) under a shared key: %v", u, err)
			}
		}
		for _, u := range []string{"alice", "bob"} {
			if recs := allUserData(t, s, u); len(recs) != 1 || recs[0].Category == nil {
				t.Fatalf("%s's data = %+v; want one category", u, recs)
			}
		}
	}
}

// testSweepsRepeatUnderAKey: DeleteCategory and DeleteUser, repeated under
// the key of a call that finished, return its success and write nothing,
// even when the very same data was made again since (a clock that stands
// still, a constant ID); under a fresh key they sweep it. Their record is
// written once the sweep has finished, not with its first step, so a
// repeat of an interrupted sweep would finish it instead.
func testSweepsRepeatUnderAKey(t *testing.T, newStore NewStore) {
	s := newStore(t, func(o *todo.Options) {
		o.Clock = func() time.Time { return Start }
		o.NewID = func() string { return "fixed-id" }
	})
	run := uuid.NewString()
	key := ddbkit.WithIdempotencyKey(ctx(t), "sweep-"+run)
	fresh := ddbkit.WithIdempotencyKey(ctx(t), "sweep-fresh-"+run)
	mustUser(t, s, "alice")
	for round := range 2 {
		c := mustCategory(t, s, "alice", "c")
		td := mustTodo(t, s, "alice", todo.NewTodo{CategoryID: c.ID})
		if err := s.DeleteCategory(key, "alice", c.ID); err != nil {
			t.Fatalf("DeleteCategory under a key, round %d: %v", round, err)
		}
		got, err := s.GetTodo(ctx(t), "alice", td.ID)
		if round == 0 && (err != nil || got.CategoryID != "") {
			t.Fatalf("todo after DeleteCategory = %+v, %v; want it uncategorized", got, err)
		}
		if round == 1 && (err != nil || got != td) {
			t.Fatalf("todo after a repeat of DeleteCategory = %+v, %v; want it untouched", got, err)
		}
		if round == 1 {
			if err := s.DeleteCategory(fresh, "alice", c.ID); err != nil {
				t.Fatalf("DeleteCategory under a fresh key: %v", err)
			}
		}
		if _, err := s.GetCategory(ctx(t), "alice", c.ID); !errors.Is(err, ddbkit.ErrNotFound) {
			t.Fatalf("round %d: GetCategory after DeleteCategory = %v, want ErrNotFound", round, err)
		}
		if err := s.DeleteTodo(ctx(t), "alice", td.ID); err != nil {
			t.Fatal(err)
		}
	}
	for round := range 2 {
		if round > 0 {
			mustUser(t, s, "alice")
		}
		mustCategory(t, s, "alice", "c")
		mustTodo(t, s, "alice", todo.NewTodo{})
		if err := s.DeleteUser(key, "alice"); err != nil {
			t.Fatalf("DeleteUser under a key, round %d: %v", round, err)
		}
		if round == 1 {
			if recs := allUserData(t, s, "alice"); len(recs) != 2 {
				t.Fatalf("a repeat of DeleteUser under its key left %d items, want the 2 made since", len(recs))
			}
			if err := s.DeleteUser(fresh, "alice"); err != nil {
				t.Fatalf("DeleteUser under a fresh key: %v", err)
			}
		}
		if _, err := s.GetUser(ctx(t), "alice"); !errors.Is(err, ddbkit.ErrNotFound) {
			t.Fatalf("round %d: GetUser after DeleteUser = %v, want ErrNotFound", round, err)
		}
		if recs := allUserData(t, s, "alice"); len(recs) != 0 {
			t.Fatalf("round %d: DeleteUser left %d items", round, len(recs))
		}
	}
}

// testWeakCursorSecret: a CursorSecret of 1 to 15 bytes fails every
// listing, and the deletes that page, with ErrInvalidArgument naming
// CursorSecret; a secret of 16 bytes works.
func testWeakCursorSecret(t *testing.T, newStore NewStore) {
	for _, n := range []int{1, 15} {
		s := fixed(t, newStore, func(o *todo.Options) { o.CursorSecret = []byte(strings.Repeat("k", n)) })
		mustUser(t, s, "alice")
		c := mustCategory(t, s, "alice", "c")
		po := ddbkit.PageOptions{}
		for name, call := range map[string]func() error{
			"ListUsers":      func() error { _, err := s.ListUsers(ctx(t), po); return err },
			"ListTodos":      func() error { _, err := s.ListTodos(ctx(t), "alice", po); return err },
			"ListCategories": func() error { _, err := s.ListCategories(ctx(t), "alice", po); return err },
			"ListUserData":   func() error { _, err := s.ListUserData(ctx(t), "alice", po); return err },
			"DeleteCategory": func() error { return s.DeleteCategory(ctx(t), "alice", c.ID) },
			"DeleteUser":     func() error { return s.DeleteUser(ctx(t), "alice") },
		} {
			wantField(t, fmt.Sprintf("%s with a %d-byte secret", name, n), call(), "CursorSecret")
		}
		if _, err := s.GetCategory(ctx(t), "alice", c.ID); err != nil {
			t.Fatalf("the refused deletes changed the data: %v", err)
		}
	}
	s := fixed(t, newStore, func(o *todo.Options) { o.CursorSecret = []byte(strings.Repeat("k", 16)) })
	mustUser(t, s, "alice")
	if _, err := s.ListTodos(ctx(t), "alice", ddbkit.PageOptions{}); err != nil {
		t.Fatalf("ListTodos with a 16-byte secret: %v", err)
	}
}

// testClockRange: a time a store would write outside the years 0001-9999
// (here the clock's) is refused with ErrInvalidArgument naming Clock, and
// nothing is written.
func testClockRange(t *testing.T, newStore NewStore) {
	var bad atomic.Bool
	step := ddbkit.StepClock(Start, time.Millisecond)
	s := fixed(t, newStore, func(o *todo.Options) {
		o.Clock = func() time.Time {
			if bad.Load() {
				return time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
			}
			return step()
		}
	})
	mustUser(t, s, "alice")
	c := mustCategory(t, s, "alice", "c")
	td := mustTodo(t, s, "alice", todo.NewTodo{CategoryID: c.ID})
	before := snapshot(t, s, "alice")
	bad.Store(true)
	for name, call := range map[string]func() error{
		"CreateTodo": func() error {
			_, err := s.CreateTodo(ctx(t), "alice", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
			return err
		},
		"CreateCategory": func() error {
			_, err := s.CreateCategory(ctx(t), "alice", todo.NewCategory{Name: "n", Color: todo.ColorDark})
			return err
		},
		"UpdateTodo": func() error {
			_, err := s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{Title: ptr("x")})
			return err
		},
		"UpdateTodo with category": func() error {
			_, err := s.UpdateTodo(ctx(t), "alice", td.ID, todo.TodoPatch{CategoryID: ptr(c.ID)})
			return err
		},
		"ToggleTodo": func() error { _, err := s.ToggleTodo(ctx(t), "alice", td.ID); return err },
		"UpdateCategory": func() error {
			_, err := s.UpdateCategory(ctx(t), "alice", c.ID, todo.CategoryPatch{Name: ptr("x")})
			return err
		},
		"DeleteCategory": func() error { return s.DeleteCategory(ctx(t), "alice", c.ID) },
	} {
		wantField(t, name+" at year 10000", call(), "Clock")
	}
	bad.Store(false)
	if after := snapshot(t, s, "alice"); after != before {
		t.Fatalf("refused writes changed the data:\n%s\nwant\n%s", after, before)
	}
}

// testLargestInputs: the longest inputs the field limits allow, in 4-byte
// characters, make items well under DynamoDB's 400 KB, so every write the
// validation passes is one DynamoDB accepts (the stores also check each
// item's size, ddb.CheckItemSize, before any call).
func testLargestInputs(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore)
	mustUser(t, s, "alice")
	wide := func(n int) string { return strings.Repeat("𠮷", n) }
	c, err := s.CreateCategory(ctx(t), "alice", todo.NewCategory{Name: wide(todo.MaxCategoryNameLen), Color: todo.ColorDark})
	if err != nil {
		t.Fatalf("CreateCategory with the longest name: %v", err)
	}
	in := todo.NewTodo{Title: wide(todo.MaxTitleLen), Description: wide(todo.MaxDescriptionLen), Priority: todo.PriorityHigh, CategoryID: c.ID}
	td, err := s.CreateTodo(ctx(t), "alice", in)
	if err != nil {
		t.Fatalf("CreateTodo with the longest fields: %v", err)
	}
	if got, err := s.GetTodo(ctx(t), "alice", td.ID); err != nil || got != td {
		t.Fatalf("GetTodo = %+v, %v; want %+v", got, err, td)
	}
	// One character more is refused by validation, and writes nothing.
	_, err = s.CreateTodo(ctx(t), "alice", todo.NewTodo{Title: "t", Description: wide(todo.MaxDescriptionLen + 1), Priority: todo.PriorityHigh})
	wantField(t, "CreateTodo with a description too long", err, "Description")
	if todos, _ := allTodos(t, s, "alice", 0); len(todos) != 1 {
		t.Fatalf("%d todos, want 1", len(todos))
	}
}

// testDeleteCategorySmallBudget: DeleteCategory's walk pages through the
// user's todos with a small FilterBudget, so most pages end on the budget
// with nothing found; it still clears every reference, and deletes the
// category.
func testDeleteCategorySmallBudget(t *testing.T, newStore NewStore) {
	s := fixed(t, newStore, func(o *todo.Options) { o.FilterBudget = 3 })
	mustUser(t, s, "alice")
	c := mustCategory(t, s, "alice", "c")
	other := mustCategory(t, s, "alice", "o")
	var refs int
	for i := range 40 {
		in := todo.NewTodo{CategoryID: other.ID}
		if i%7 == 3 {
			in.CategoryID, refs = c.ID, refs+1
		}
		mustTodo(t, s, "alice", in)
	}
	if err := s.DeleteCategory(ctx(t), "alice", c.ID); err != nil {
		t.Fatalf("DeleteCategory: %v", err)
	}
	todos, _ := allTodos(t, s, "alice", 0)
	var cleared int
	for _, td := range todos {
		switch td.CategoryID {
		case c.ID:
			t.Fatalf("todo %s still refers to the deleted category", td.ID)
		case "":
			cleared++
		}
	}
	if cleared != refs || len(todos) != 40 {
		t.Fatalf("%d of %d todos uncategorized, want %d of 40", cleared, len(todos), refs)
	}
	_, err := s.GetCategory(ctx(t), "alice", c.ID)
	wantErr(t, "GetCategory after DeleteCategory", err, ddbkit.ErrNotFound)
	wantErr(t, "DeleteCategory again", s.DeleteCategory(ctx(t), "alice", c.ID), ddbkit.ErrNotFound)
}
