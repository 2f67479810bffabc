// Package todoservice is a tiny service on ddbkit's todo package, written
// as a module outside ddbkit would write it: it depends on todo.Store, runs
// on the memory store in unit tests and on DynamoDB through ddbtest in
// integration tests.
package todoservice

import (
	"context"
	"errors"
	"fmt"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/todo"
)

// Service signs users up and keeps their to-do lists.
type Service struct {
	Store todo.Store
}

// ErrTaken is returned by Signup for a username already in use.
var ErrTaken = errors.New("todoservice: username taken")

// Signup creates a user; a username already in use is ErrTaken.
func (s Service) Signup(ctx context.Context, username, email string) error {
	err := s.Store.CreateUser(ctx, todo.User{Username: username, Email: email})
	if errors.Is(err, ddbkit.ErrAlreadyExists) {
		return fmt.Errorf("%w: %s", ErrTaken, username)
	}
	return err
}

// Add adds a to-do of medium priority and returns its ID.
func (s Service) Add(ctx context.Context, username, title string) (string, error) {
	t, err := s.Store.CreateTodo(ctx, username, todo.NewTodo{Title: title, Priority: todo.PriorityMedium})
	return t.ID, err
}

// Done marks a to-do done.
func (s Service) Done(ctx context.Context, username, id string) error {
	t, err := s.Store.GetTodo(ctx, username, id)
	if err != nil || t.Completed {
		return err
	}
	_, err = s.Store.ToggleTodo(ctx, username, id)
	return err
}

// Open returns the titles of the user's open to-dos, walking every page.
func (s Service) Open(ctx context.Context, username string) ([]string, error) {
	var titles []string
	for t, err := range ddbkit.All(func(cursor string) (ddbkit.Page[todo.Todo], error) {
		return s.Store.ListTodos(ctx, username, ddbkit.PageOptions{Limit: 2, Cursor: cursor})
	}) {
		if err != nil {
			return nil, err
		}
		if !t.Completed {
			titles = append(titles, t.Title)
		}
	}
	return titles, nil
}
