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

	todoIDs := make([]string, len(todos))
	for i, t := range todos {
		todoIDs[i] = t.ID
	}
	return r.readAll(
		smokeRead{"GetUser", false, func() error {
			u, err := s.GetUser(ctx, user)
			if err != nil {
				return err
			}
			return same("email", u.Email, email)
		}},
		smokeRead{"ListUsers", false, func() error { return smokeFindUser(ctx, s, user) }},
		smokeRead{"GetCategory", false, func() error {
			c, err := s.GetCategory(ctx, user, cat.ID)
			if err != nil {
				return err
			}
			return same("category name", c.Name, cat.Name)
		}},
		smokeRead{"GetTodo", false, func() error {
			for _, want := range todos {
				got, err := s.GetTodo(ctx, user, want.ID)
				if err != nil {
					return err
				}
				if err := same("todo "+want.ID+" title", got.Title, want.Title); err != nil {
					return err
				}
				if err := same("todo "+want.ID+" category", got.CategoryID, want.CategoryID); err != nil {
					return err
				}
			}
			return nil
		}},
		smokeRead{"ListTodos", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[todo.Todo], error) { return s.ListTodos(ctx, user, o) },
				func(t todo.Todo) string { return t.ID })
			return sameIDs(ids, err, sortedIDs(todoIDs)...)
		}},
		smokeRead{"ListCategories", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[todo.Category], error) { return s.ListCategories(ctx, user, o) },
				func(c todo.Category) string { return c.ID })
			return sameIDs(ids, err, cat.ID)
		}},
		smokeRead{"ListUserData", false, func() error {
			ids, err := listIDs(func(o kit.PageOptions) (kit.Page[todo.Record], error) { return s.ListUserData(ctx, user, o) },
				func(rec todo.Record) string {
					if rec.Category != nil {
						return "category " + rec.Category.ID
					}
					return "todo " + rec.Todo.ID
				})
			want := []string{"category " + cat.ID}
			for _, id := range sortedIDs(todoIDs) {
				want = append(want, "todo "+id)
			}
			return sameIDs(ids, err, want...)
		}},
	)
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
