package main

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	kit "github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/todo"
)

// smokeUsersPages bounds the walk of todo's ListUsers, whose partition
// ("users") every user shares: the run reads at most this many pages of
// kit.MaxPageLimit users looking for its own.
const smokeUsersPages = 10

// smokeTodo: the run's partition is its user's, user#<run ID>. The user
// item itself lives in the partition "users" that every user shares: the
// one item the run writes outside its own partition, under its own sort
// key. DeleteUser deletes it all.
func smokeTodo(r *smokeRun, _ *tableFlags, tables []string) error {
	ctx, table, user := r.ctx, tables[0], r.id
	s := todo.NewDynamoStore(r.c, func(o *todo.Options) {
		o.TableName = table
		o.NewID = r.newID
	})
	r.owns(table, "pk", "user#"+user)
	r.ownsKey(table, user, map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "users"},
		"sk": &types.AttributeValueMemberS{Value: user},
	})
	email := user + "@example.invalid"
	if err := r.write("user "+user, func() error { return s.CreateUser(ctx, todo.User{Username: user, Email: email}) }); err != nil {
		return err
	}
	r.onCleanup("user "+user+" with its todos and categories (DeleteUser)", func(ctx context.Context) error { return s.DeleteUser(ctx, user) })

	var cat todo.Category
	var todos []todo.Todo
	if err := r.write("a category", func() (err error) {
		cat, err = s.CreateCategory(ctx, user, todo.NewCategory{Name: "ddbkit smoke", Color: todo.ColorInfo})
		return err
	}); err != nil {
		return err
	}
	for i, catID := range []string{cat.ID, "", ""} {
		if err := r.write(fmt.Sprintf("todo %d", i+1), func() error {
			t, err := s.CreateTodo(ctx, user, todo.NewTodo{Title: fmt.Sprintf("ddbkit smoke %d", i+1), Priority: todo.PriorityLow, CategoryID: catID})
			todos = append(todos, t)
			return err
		}); err != nil {
			return err
		}
	}

	type page = kit.PageOptions
	reads := []smokeRead{
		getRead("GetUser", false, func() (string, error) { u, err := s.GetUser(ctx, user); return u.Email, err }, email),
		{"ListUsers", false, func() error { return smokeFindUser(ctx, s, user) }},
		getRead("GetCategory", false, func() (string, error) { c, err := s.GetCategory(ctx, user, cat.ID); return c.Name, err }, cat.Name),
	}
	for _, want := range todos {
		reads = append(reads, getRead("GetTodo "+want.Title, false, func() (string, error) {
			t, err := s.GetTodo(ctx, user, want.ID)
			return t.Title + " in category " + t.CategoryID, err
		}, want.Title+" in category "+want.CategoryID))
	}
	// The store made the IDs in order, and the lists are in ID order.
	want := []string{"category " + cat.ID}
	for _, t := range todos {
		want = append(want, "todo "+t.ID)
	}
	return r.readAll(append(reads,
		listRead("ListTodos", false, func(o page) (kit.Page[todo.Todo], error) { return s.ListTodos(ctx, user, o) },
			func(t todo.Todo) string { return "todo " + t.ID }, want[1:]...),
		listRead("ListCategories", false, func(o page) (kit.Page[todo.Category], error) { return s.ListCategories(ctx, user, o) },
			func(c todo.Category) string { return "category " + c.ID }, want[0]),
		listRead("ListUserData", false, func(o page) (kit.Page[todo.Record], error) { return s.ListUserData(ctx, user, o) },
			func(rec todo.Record) string {
				if rec.Category != nil {
					return "category " + rec.Category.ID
				}
				return "todo " + rec.Todo.ID
			}, want...),
	)...)
}

// smokeFindUser looks for user in ListUsers, a bounded number of pages.
func smokeFindUser(ctx context.Context, s *todo.DynamoStore, user string) error {
	opts := kit.PageOptions{Limit: kit.MaxPageLimit}
	for range smokeUsersPages {
		p, err := s.ListUsers(ctx, opts)
		if err != nil {
			return err
		}
		for _, u := range p.Items {
			if u.Username == user {
				return nil
			}
		}
		if p.Next == "" {
			return notYet("user %s not listed", user)
		}
		opts.Cursor = p.Next
	}
	return fmt.Errorf("user %s not in the first %d users, and the walk stops there: %w", user, smokeUsersPages*kit.MaxPageLimit, errUnchecked)
}
