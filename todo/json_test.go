package todo_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ddbkit/ddbkit/todo"
)

// TestJSONNames: the model types and inputs marshal to the seed's
// attribute names (snake_case), optional fields left out when empty, and
// a value read back is the value marshalled.
func TestJSONNames(t *testing.T) {
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	td := todo.Todo{ID: "t1", Username: "alice", Title: "x", Description: "d", Priority: todo.PriorityHigh,
		Completed: true, CategoryID: "c1", CreatedAt: at, UpdatedAt: at}
	cat := todo.Category{ID: "c1", Username: "alice", Name: "n", Color: todo.ColorInfo, CreatedAt: at, UpdatedAt: at}
	title, done := "y", false
	for _, tt := range []struct {
		name string
		v    any
		want string
	}{
		{"User", todo.User{Username: "alice", Email: "a@example.com"}, `{"username":"alice","email":"a@example.com"}`},
		{"Todo", td, `{"id":"t1","username":"alice","title":"x","description":"d","priority":"high","completed":true,` +
			`"category_id":"c1","created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"}`},
		{"Todo without its optional fields", todo.Todo{ID: "t1", Username: "alice", Title: "x", Priority: todo.PriorityLow, CreatedAt: at, UpdatedAt: at},
			`{"id":"t1","username":"alice","title":"x","priority":"low","completed":false,` +
				`"created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"}`},
		{"Category", cat, `{"id":"c1","username":"alice","name":"n","color":"info",` +
			`"created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"}`},
		{"Record", todo.Record{Category: &cat}, `{"category":{"id":"c1","username":"alice","name":"n","color":"info",` +
			`"created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"}}`},
		{"NewTodo", todo.NewTodo{Title: "x", Priority: todo.PriorityMedium, CategoryID: "c1"}, `{"title":"x","priority":"medium","category_id":"c1"}`},
		{"TodoPatch", todo.TodoPatch{Title: &title, Completed: &done}, `{"title":"y","completed":false}`},
		{"NewCategory", todo.NewCategory{Name: "n", Color: todo.ColorDark}, `{"name":"n","color":"dark"}`},
		{"CategoryPatch", todo.CategoryPatch{Name: &title}, `{"name":"y"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil || string(b) != tt.want {
				t.Fatalf("json.Marshal = %s, %v; want %s", b, err, tt.want)
			}
		})
	}
	// What a JSON API sends back reads as what it was.
	b, err := json.Marshal(td)
	if err != nil {
		t.Fatal(err)
	}
	var back todo.Todo
	if err := json.Unmarshal(b, &back); err != nil || back != td {
		t.Fatalf("round trip = %+v, %v; want %+v", back, err, td)
	}
}
