package todo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/todo"
)

// TestMemoryMatchesDynamo runs one scripted session on both stores, with the
// same clock, IDs and table name, and requires the same transcript: every
// result, every error message and every cursor, byte for byte. The
// conformance suite checks each store against the contract; this checks them
// against each other.
func TestMemoryMatchesDynamo(t *testing.T) {
	dyn, _, table := newDynamo(t, nil, deterministic)
	mem := todo.NewMemoryStore(deterministic, func(o *todo.Options) { o.TableName = table })

	dynLog, memLog := session(t.Context(), dyn), session(t.Context(), mem)
	if testing.Verbose() {
		for _, l := range memLog {
			t.Log(l)
		}
	}
	if len(dynLog) != len(memLog) {
		t.Fatalf("transcripts have %d and %d lines", len(dynLog), len(memLog))
	}
	for i := range dynLog {
		if dynLog[i] != memLog[i] {
			t.Errorf("step %d differs:\n  dynamo %s\n  memory %s", i, dynLog[i], memLog[i])
		}
	}
}

// session drives s through the access patterns, the error paths and paging,
// and returns what it saw.
func session(ctx context.Context, s todo.Store) []string {
	var log []string
	note := func(what string, v any, err error) {
		js, _ := json.Marshal(v)
		log = append(log, fmt.Sprintf("%s: %s err=%v", what, js, err))
	}
	list := func(what string, fetch func(ddbkit.PageOptions) (any, string, error)) {
		cursor := ""
		for page := 1; page < 20; page++ {
			v, next, err := fetch(ddbkit.PageOptions{Limit: 2, Cursor: cursor})
			note(fmt.Sprintf("%s page %d next=%q", what, page, next), v, err)
			if err != nil || next == "" {
				return
			}
			cursor = next
		}
	}
	for _, u := range []todo.User{
		{Username: "alice", Email: "alice@example.com"}, {Username: "bob", Email: "bob@example.com"},
		{Username: "alice", Email: "again@example.com"}, {Username: "bad#name", Email: "x@example.com"},
		{Username: "carol", Email: "nope"},
	} {
		note("CreateUser "+u.Username, nil, s.CreateUser(ctx, u))
	}
	var cats []todo.Category
	for _, in := range []todo.NewCategory{{Name: "仕事", Color: todo.ColorPrimary}, {Name: "家", Color: todo.ColorLight}, {Name: "x", Color: "pink"}} {
		c, err := s.CreateCategory(ctx, "alice", in)
		note("CreateCategory", c, err)
		if err == nil {
			cats = append(cats, c)
		}
	}
	var todos []todo.Todo
	for i, in := range []todo.NewTodo{
		{Title: "one", Priority: todo.PriorityHigh, CategoryID: cats[0].ID},
		{Title: "two", Description: "説明", Priority: todo.PriorityLow},
		{Title: "three", Priority: todo.PriorityMedium, CategoryID: cats[1].ID, Completed: true},
		{Title: "four", Priority: todo.PriorityMedium, CategoryID: cats[0].ID},
		{Title: "five", Priority: todo.PriorityLow, CategoryID: "missing"},
		{Title: "", Priority: todo.PriorityLow},
	} {
		td, err := s.CreateTodo(ctx, "alice", in)
		note(fmt.Sprint("CreateTodo ", i), td, err)
		if err == nil {
			todos = append(todos, td)
		}
	}
	td, err := s.CreateTodo(ctx, "nobody", todo.NewTodo{Title: "t", Priority: todo.PriorityLow})
	note("CreateTodo nobody", td, err)

	td, err = s.ToggleTodo(ctx, "alice", todos[1].ID)
	note("ToggleTodo", td, err)
	title := "ONE"
	td, err = s.UpdateTodo(ctx, "alice", todos[0].ID, todo.TodoPatch{Title: &title, CategoryID: &cats[1].ID})
	note("UpdateTodo", td, err)
	td, err = s.UpdateTodo(ctx, "alice", "missing", todo.TodoPatch{Title: &title})
	note("UpdateTodo missing", td, err)
	name := "仕事2"
	c, err := s.UpdateCategory(ctx, "alice", cats[0].ID, todo.CategoryPatch{Name: &name})
	note("UpdateCategory", c, err)

	list("ListTodos", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListTodos(ctx, "alice", o)
		return p.Items, p.Next, err
	})
	list("ListCategories", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListCategories(ctx, "alice", o)
		return p.Items, p.Next, err
	})
	list("ListUserData", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListUserData(ctx, "alice", o)
		return p.Items, p.Next, err
	})
	list("ListUsers", func(o ddbkit.PageOptions) (any, string, error) {
		p, err := s.ListUsers(ctx, o)
		return p.Items, p.Next, err
	})
	p, err := s.ListTodos(ctx, "bob", ddbkit.PageOptions{Cursor: "garbage"})
	note("ListTodos bad cursor", p, err)

	note("DeleteCategory", nil, s.DeleteCategory(ctx, "alice", cats[0].ID))
	for _, td := range todos {
		got, err := s.GetTodo(ctx, "alice", td.ID)
		note("GetTodo", got, err)
	}
	note("DeleteTodo", nil, s.DeleteTodo(ctx, "alice", todos[2].ID))
	note("DeleteTodo again", nil, s.DeleteTodo(ctx, "alice", todos[2].ID))
	note("DeleteUser", nil, s.DeleteUser(ctx, "alice"))
	note("DeleteUser again", nil, s.DeleteUser(ctx, "alice"))
	u, err := s.GetUser(ctx, "bob")
	note("GetUser bob", u, err)
	return log
}
