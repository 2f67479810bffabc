package todo_test

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/internal/difftest"
	"github.com/ddbkit/ddbkit/todo"
)

// The legacy fixture's IDs: the seed's own, and UUIDv4s as the seed's app
// makes them. In sort key order: A, seed, B, C, D, then the two corrupt
// todos.
const (
	seedTodoID = "550e8400-e29b-41d4-a716-446655440000"
	seedCatID  = "category001"
	todoA      = "3f8e2a6c-9d41-4b7e-8c53-2e1f0a9b7d64"
	todoB      = "7c1d5e92-0b3a-4f68-a9e4-5d2c8b1f3a07"
	todoC      = "a4e9b7d2-6c13-4e85-b0f1-9d3a2c7e5b18"
	todoD      = "c2b8f4a1-3e7d-4a96-8b05-7f1e9d4c2a63"
	badTime    = "e5d3c1b9-8a7f-4e62-9d40-1b2c3d4e5f60"
	badType    = "f0a1b2c3-d4e5-4f67-8899-aabbccddeeff"
	cat2       = "b6f2d8e4-1a9c-4d73-a5b0-6e8f2c4d1a97"
)

// legacyItems are the items of the seed's app, written as it writes them:
// the seed's own examples first, then other ISO 8601 forms, optional
// attributes missing, and two items no reader can decode.
func legacyItems() []map[string]types.AttributeValue {
	return []map[string]types.AttributeValue{
		// The seed's examples, verbatim.
		{"pk": S("users"), "sk": S("testuser"), "username": S("testuser"), "email": S("test@example.com")},
		{"pk": S("user#testuser"), "sk": S("todo#" + seedTodoID), "id": S(seedTodoID), "entity_type": S("todo"),
			"title": S("プロジェクトの企画書作成"), "description": S("新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する"),
			"priority": S("high"), "completed": B(false), "category_id": S(seedCatID),
			"created_at": S("2024-01-01T00:00:00.000Z"), "updated_at": S("2024-01-01T00:00:00.000Z")},
		{"pk": S("user#testuser"), "sk": S("category#" + seedCatID), "id": S(seedCatID), "entity_type": S("category"),
			"name": S("仕事"), "color": S("primary"),
			"created_at": S("2024-01-01T00:00:00.000Z"), "updated_at": S("2024-01-01T00:00:00.000Z")},

		// A user without the username attribute: the key names it.
		{"pk": S("users"), "sk": S("hanako"), "email": S("hanako@example.com")},
		// No fraction; an offset; no description, no category_id.
		{"pk": S("user#testuser"), "sk": S("todo#" + todoA), "id": S(todoA), "entity_type": S("todo"),
			"title": S("牛乳を買う"), "priority": S("low"), "completed": B(false),
			"created_at": S("2024-01-05T10:00:00Z"), "updated_at": S("2024-01-05T19:00:00+09:00")},
		// Microseconds; no completed, no entity_type, no id.
		{"pk": S("user#testuser"), "sk": S("todo#" + todoB), "title": S("部屋の掃除"), "description": S(""),
			"priority": S("medium"), "category_id": S(seedCatID),
			"created_at": S("2024-01-05T10:00:00.123456Z"), "updated_at": S("2024-01-05T10:00:00.123456Z")},
		// An id attribute that disagrees with the key: the key wins.
		{"pk": S("user#testuser"), "sk": S("todo#" + todoC), "id": S("old-id-7"), "entity_type": S("todo"),
			"title": S("請求書の支払い"), "priority": S("high"), "completed": B(true), "category_id": S(""),
			"created_at": S("2024-01-05t10:00:00.5z"), "updated_at": S("2024-01-06T00:00:00-05:00")},
		// No timestamps at all.
		{"pk": S("user#testuser"), "sk": S("todo#" + todoD), "id": S(todoD), "entity_type": S("todo"),
			"title": S("散歩"), "priority": S("low"), "completed": B(false)},
		// A category without entity_type and updated_at.
		{"pk": S("user#testuser"), "sk": S("category#" + cat2), "id": S(cat2), "name": S("家"), "color": S("success"),
			"created_at": S("2024-01-05T19:00:00+09:00")},
		// A kind of item this package does not know.
		{"pk": S("user#testuser"), "sk": S("note#1"), "entity_type": S("note"), "text": S("メモ")},
		// Two todos no reader can decode.
		{"pk": S("user#testuser"), "sk": S("todo#" + badTime), "id": S(badTime), "entity_type": S("todo"),
			"title": S("x"), "priority": S("low"), "completed": B(false), "category_id": S(seedCatID),
			"created_at": S("yesterday"), "updated_at": S("2024-01-05T10:00:00Z")},
		{"pk": S("user#testuser"), "sk": S("todo#" + badType), "id": S(badType), "entity_type": S("todo"),
			"title": S("y"), "priority": S("low"), "completed": S("true"),
			"created_at": S("2024-01-05T10:00:00Z"), "updated_at": S("2024-01-05T10:00:00Z")},
	}
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

// TestLegacyTable runs every read access pattern and the main writes on
// the seed's app's table and items, put raw as the app writes them.
func TestLegacyTable(t *testing.T) {
	ctx := t.Context()
	c := ddbtest.Client(t)
	table := appTable(t, c, legacyItems())
	if changes, err := todo.EnsureTable(ctx, c, table); err != nil || len(changes) != 0 {
		t.Fatalf("EnsureTable on the app's table = %v, %v; want no change", changes, err)
	}
	s := todo.NewDynamoStore(c, func(o *todo.Options) {
		o.TableName = table
		o.Clock = ddbkit.StepClock(utc("2024-02-01T00:00:00Z"), time.Second)
		o.NewID = ddbkit.SeededUUIDv4(8)
	})

	// Users.
	if u, err := s.GetUser(ctx, "testuser"); err != nil || u != (todo.User{Username: "testuser", Email: "test@example.com"}) {
		t.Fatalf("GetUser(testuser) = %+v, %v", u, err)
	}
	if u, err := s.GetUser(ctx, "hanako"); err != nil || u != (todo.User{Username: "hanako", Email: "hanako@example.com"}) {
		t.Fatalf("GetUser(hanako) = %+v, %v", u, err)
	}
	users, err := s.ListUsers(ctx, ddbkit.PageOptions{})
	if err != nil || len(users.Items) != 2 || users.Items[0].Username != "hanako" || users.Items[1].Username != "testuser" {
		t.Fatalf("ListUsers = %+v, %v", users, err)
	}

	// Todos, one by one (pattern 4) and listed (pattern 1).
	want := map[string]todo.Todo{
		seedTodoID: {ID: seedTodoID, Username: "testuser", Title: "プロジェクトの企画書作成",
			Description: "新プロジェクトの企画書をドラフトして、関係者にレビューを依頼する", Priority: todo.PriorityHigh,
			CategoryID: seedCatID, CreatedAt: utc("2024-01-01T00:00:00Z"), UpdatedAt: utc("2024-01-01T00:00:00Z")},
		todoA: {ID: todoA, Username: "testuser", Title: "牛乳を買う", Priority: todo.PriorityLow,
			CreatedAt: utc("2024-01-05T10:00:00Z"), UpdatedAt: utc("2024-01-05T10:00:00Z")},
		todoB: {ID: todoB, Username: "testuser", Title: "部屋の掃除", Priority: todo.PriorityMedium, CategoryID: seedCatID,
			CreatedAt: utc("2024-01-05T10:00:00.123456Z"), UpdatedAt: utc("2024-01-05T10:00:00.123456Z")},
		todoC: {ID: todoC, Username: "testuser", Title: "請求書の支払い", Priority: todo.PriorityHigh, Completed: true,
			CreatedAt: utc("2024-01-05T10:00:00.5Z"), UpdatedAt: utc("2024-01-06T05:00:00Z")},
		todoD: {ID: todoD, Username: "testuser", Title: "散歩", Priority: todo.PriorityLow},
	}
	for id, w := range want {
		if got, err := s.GetTodo(ctx, "testuser", id); err != nil || !sameTodo(got, w) {
			t.Errorf("GetTodo(%s) = %+v, %v;\n want %+v", id, got, err, w)
		}
	}
	for _, bad := range []struct{ id, attr string }{{badTime, "created_at"}, {badType, "completed"}} {
		_, err := s.GetTodo(ctx, "testuser", bad.id)
		ddbtest.WantSentinel(t, "GetTodo of a corrupt todo", err, ddbkit.ErrCorruptItem)
		var ce *ddbkit.CorruptItemError
		if !errors.As(err, &ce) || ce.Attr != bad.attr || ce.Table != table || !strings.Contains(ce.Key, bad.id) {
			t.Errorf("GetTodo(%s): %v; want a *ddbkit.CorruptItemError naming %s", bad.id, err, bad.attr)
		}
	}
	todos, err := s.ListTodos(ctx, "testuser", ddbkit.PageOptions{})
	if err != nil {
		t.Fatalf("ListTodos: %v", err)
	}
	var ids []string
	for _, td := range todos.Items {
		ids = append(ids, td.ID)
		if !sameTodo(td, want[td.ID]) {
			t.Errorf("ListTodos item %+v;\n want %+v", td, want[td.ID])
		}
	}
	if w := []string{todoA, seedTodoID, todoB, todoC, todoD}; !slices.Equal(ids, w) {
		t.Errorf("ListTodos IDs = %v, want %v", ids, w)
	}
	checkSkipped(t, "ListTodos", todos.Skipped, badTime, badType)
	// Pages hold what the limit allows, corrupt items included in the count.
	p, err := s.ListTodos(ctx, "testuser", ddbkit.PageOptions{Limit: 6})
	if err != nil || len(p.Items) != 5 || len(p.Skipped) != 1 || p.Next == "" {
		t.Fatalf("ListTodos limit 6 = %d items, %d skipped, next %q, %v", len(p.Items), len(p.Skipped), p.Next, err)
	}
	if p, err = s.ListTodos(ctx, "testuser", ddbkit.PageOptions{Limit: 6, Cursor: p.Next}); err != nil || len(p.Items) != 0 || len(p.Skipped) != 1 || p.Next != "" {
		t.Fatalf("ListTodos limit 6, page 2 = %d items, %d skipped, next %q, %v", len(p.Items), len(p.Skipped), p.Next, err)
	}

	// Categories (patterns 5 and 2).
	wantCats := []todo.Category{
		{ID: cat2, Username: "testuser", Name: "家", Color: todo.ColorSuccess, CreatedAt: utc("2024-01-05T10:00:00Z")},
		{ID: seedCatID, Username: "testuser", Name: "仕事", Color: todo.ColorPrimary,
			CreatedAt: utc("2024-01-01T00:00:00Z"), UpdatedAt: utc("2024-01-01T00:00:00Z")},
	}
	for _, w := range wantCats {
		if got, err := s.GetCategory(ctx, "testuser", w.ID); err != nil || !sameCategory(got, w) {
			t.Errorf("GetCategory(%s) = %+v, %v; want %+v", w.ID, got, err, w)
		}
	}
	cats, err := s.ListCategories(ctx, "testuser", ddbkit.PageOptions{})
	if err != nil || len(cats.Items) != 2 || !sameCategory(cats.Items[0], wantCats[0]) || !sameCategory(cats.Items[1], wantCats[1]) {
		t.Fatalf("ListCategories = %+v, %v", cats, err)
	}

	// All data (pattern 3): kinds from the key, unknown kinds left out,
	// corrupt items reported.
	all, err := s.ListUserData(ctx, "testuser", ddbkit.PageOptions{})
	if err != nil {
		t.Fatalf("ListUserData: %v", err)
	}
	var kinds []string
	for _, r := range all.Items {
		switch {
		case r.Category != nil:
			kinds = append(kinds, "category "+r.Category.ID)
		case r.Todo != nil:
			kinds = append(kinds, "todo "+r.Todo.ID)
		}
	}
	if w := []string{"category " + cat2, "category " + seedCatID, "todo " + todoA, "todo " + seedTodoID,
		"todo " + todoB, "todo " + todoC, "todo " + todoD}; !slices.Equal(kinds, w) {
		t.Errorf("ListUserData = %v,\n want %v", kinds, w)
	}
	checkSkipped(t, "ListUserData", all.Skipped, badTime, badType)

	// Writes over the legacy items.
	got, err := s.ToggleTodo(ctx, "testuser", todoB) // stored without completed
	if err != nil || !got.Completed || got.Title != "部屋の掃除" || !got.CreatedAt.Equal(want[todoB].CreatedAt) {
		t.Fatalf("ToggleTodo of a todo without completed = %+v, %v", got, err)
	}
	raw := rawItem(t, c, table, "user#testuser", "todo#"+todoB)
	if r := render(raw); r["completed"] != "BOOL:true" || r["updated_at"] != "S:"+got.UpdatedAt.Format("2006-01-02T15:04:05.000Z") ||
		r["created_at"] != "S:2024-01-05T10:00:00.123456Z" {
		t.Fatalf("raw todo after the toggle: %v", r)
	}
	if got, err = s.ToggleTodo(ctx, "testuser", todoB); err != nil || got.Completed {
		t.Fatalf("second toggle = %+v, %v", got, err)
	}
	if got, err = s.ToggleTodo(ctx, "testuser", seedTodoID); err != nil || !got.Completed {
		t.Fatalf("toggle of the seed's todo = %+v, %v", got, err)
	}
	if got, err = s.UpdateTodo(ctx, "testuser", todoA, todo.TodoPatch{Title: ptr("豆乳を買う")}); err != nil ||
		got.Title != "豆乳を買う" || !got.CreatedAt.Equal(want[todoA].CreatedAt) {
		t.Fatalf("UpdateTodo of an offset-stamped todo = %+v, %v", got, err)
	}
	if r := render(rawItem(t, c, table, "user#testuser", "todo#"+todoA)); r["created_at"] != "S:2024-01-05T10:00:00Z" {
		t.Fatalf("UpdateTodo rewrote created_at: %v", r)
	}
	// A category set on a todo missing most attributes.
	got, err = s.UpdateTodo(ctx, "testuser", todoD, todo.TodoPatch{CategoryID: ptr(cat2)})
	if err != nil || got.CategoryID != cat2 || got.Title != "散歩" || !got.CreatedAt.IsZero() {
		t.Fatalf("UpdateTodo with a category of a todo without timestamps = %+v, %v", got, err)
	}
	if read, _ := s.GetTodo(ctx, "testuser", todoD); read != got {
		t.Fatalf("UpdateTodo returned %+v, stored %+v", got, read)
	}
	created, err := s.CreateTodo(ctx, "testuser", todo.NewTodo{Title: "新しい", Priority: todo.PriorityMedium, CategoryID: seedCatID})
	if err != nil {
		t.Fatalf("CreateTodo in the seed's category: %v", err)
	}
	checkItem(t, rawItem(t, c, table, "user#testuser", "todo#"+created.ID), map[string]types.AttributeValue{
		"pk": S("user#testuser"), "sk": S("todo#" + created.ID), "id": S(created.ID), "entity_type": S("todo"),
		"title": S("新しい"), "description": S(""), "priority": S("medium"), "completed": B(false),
		"category_id": S(seedCatID), "created_at": S(keysTimestamp(created.CreatedAt)), "updated_at": S(keysTimestamp(created.CreatedAt)),
	})
	if cat, err := s.UpdateCategory(ctx, "testuser", cat2, todo.CategoryPatch{Color: ptr(todo.ColorWarning)}); err != nil ||
		cat.Color != todo.ColorWarning || cat.UpdatedAt.IsZero() || !cat.CreatedAt.Equal(wantCats[0].CreatedAt) {
		t.Fatalf("UpdateCategory = %+v, %v", cat, err)
	}
	// Deleting the seed's category uncategorizes its todos, the corrupt one
	// included (clearing it needs no decoding).
	if err := s.DeleteCategory(ctx, "testuser", seedCatID); err != nil {
		t.Fatalf("DeleteCategory(category001): %v", err)
	}
	for _, id := range []string{seedTodoID, todoB, created.ID} {
		if got, err := s.GetTodo(ctx, "testuser", id); err != nil || got.CategoryID != "" {
			t.Errorf("todo %s after DeleteCategory = %+v, %v; want uncategorized", id, got, err)
		}
	}
	if r := render(rawItem(t, c, table, "user#testuser", "todo#"+badTime)); r["category_id"] != "S:" {
		t.Errorf("the corrupt todo still refers to the deleted category: %v", r)
	}
	if err := s.DeleteTodo(ctx, "testuser", todoC); err != nil {
		t.Fatalf("DeleteTodo: %v", err)
	}
	// DeleteUser removes everything of the partition, items it cannot read
	// included, and leaves other users alone.
	if err := s.DeleteUser(ctx, "testuser"); err != nil {
		t.Fatalf("DeleteUser: %v", err)
	}
	if left := scanAll(t, c, table); len(left) != 1 || left["S:users S:hanako"] == nil {
		t.Fatalf("after DeleteUser the table holds %d items, want only hanako: %v", len(left), left)
	}
}

// appTable creates the seed's app's table, as the seed describes it, and
// puts items in it raw.
func appTable(t *testing.T, c *dynamodb.Client, items []map[string]types.AttributeValue) string {
	t.Helper()
	table := ddbtest.NewTable(t, c, &dynamodb.CreateTableInput{
		TableName:   aws.String("wambda-table-ssr001"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
	})
	for _, it := range items {
		if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return table
}

// TestLegacyImport imports the legacy fixture into a memory store: the
// corrupt items are refused, and nothing is imported with them.
func TestLegacyImport(t *testing.T) {
	const table = "wambda-table-ssr001"
	mem := todo.NewMemoryStore(func(o *todo.Options) { o.TableName = table })
	err := mem.Import(ddbkit.TableItems{table: legacyItems()})
	ddbtest.WantSentinel(t, "Import of the legacy fixture", err, ddbkit.ErrCorruptItem)
	var ce *ddbkit.CorruptItemError
	if !errors.As(err, &ce) || ce.Table != table || ce.Attr != "created_at" || !strings.Contains(ce.Key, badTime) {
		t.Errorf("Import: %v; want a *ddbkit.CorruptItemError naming %s's created_at", err, badTime)
	}
	if got := mem.Export()[table]; len(got) != 0 {
		t.Errorf("a failed Import left %d items", len(got))
	}
	err = mem.Import(ddbkit.TableItems{"other": readableLegacyItems()})
	ddbtest.WantSentinel(t, "Import into another table", err, ddbkit.ErrInvalidArgument)
	err = mem.Import(ddbkit.TableItems{table: {{"pk": S("users"), "sk": &types.AttributeValueMemberN{Value: "1"}}}})
	if !errors.As(err, &ce) || ce.Attr != "sk" {
		t.Errorf("Import of a numeric sort key: %v; want a *ddbkit.CorruptItemError naming sk", err)
	}
	if err := mem.Import(ddbkit.TableItems{table: readableLegacyItems()}); err != nil {
		t.Fatalf("Import of the readable items: %v", err)
	}
	// Export gives them back as they were, in key order.
	want := readableLegacyItems()
	str := func(it map[string]types.AttributeValue, a string) string {
		return it[a].(*types.AttributeValueMemberS).Value
	}
	slices.SortFunc(want, func(a, b map[string]types.AttributeValue) int {
		return cmp.Or(strings.Compare(str(a, "pk"), str(b, "pk")), strings.Compare(str(a, "sk"), str(b, "sk")))
	})
	got := mem.Export()[table]
	if len(got) != len(want) {
		t.Fatalf("Export holds %d items, want %d", len(got), len(want))
	}
	for i := range want {
		if g, w := difftest.ItemString(got[i]), difftest.ItemString(want[i]); g != w {
			t.Errorf("Export item %d = %s, want %s", i, g, w)
		}
	}
}

// readableLegacyItems are legacyItems but the two corrupt todos.
func readableLegacyItems() []map[string]types.AttributeValue {
	return slices.DeleteFunc(legacyItems(), func(it map[string]types.AttributeValue) bool {
		sk := it["sk"].(*types.AttributeValueMemberS).Value
		return sk == "todo#"+badTime || sk == "todo#"+badType
	})
}

// TestLegacyMemoryMatchesDynamo imports the readable legacy items into a
// memory store and puts them raw in the app's table, then runs every read
// access pattern and the main writes on both stores: the same results,
// pages and cursors, and in the end the same items.
func TestLegacyMemoryMatchesDynamo(t *testing.T) {
	ctx := t.Context()
	c := ddbtest.Client(t)
	table := appTable(t, c, readableLegacyItems())
	clock := difftest.NewClock(utc("2024-02-01T00:00:00Z"))
	opts := func(o *todo.Options) {
		o.TableName = table
		o.Clock = clock.Now
		o.NewID = ddbkit.SeededUUIDv4(8)
	}
	mem := todo.NewMemoryStore(opts)
	if err := mem.Import(ddbkit.TableItems{table: readableLegacyItems()}); err != nil {
		t.Fatal(err)
	}
	p := &difftest.Pair[todo.Store]{Mem: mem, Dyn: todo.NewDynamoStore(c, opts), Export: mem.Export, DB: c, Tables: []string{table}, Clock: clock}
	difftest.SameRaw(t, p)

	for _, u := range []string{"testuser", "hanako", "nobody"} {
		difftest.Same(t, p, func(s todo.Store) (todo.User, error) { return s.GetUser(ctx, u) })
	}
	for _, id := range []string{seedTodoID, todoA, todoB, todoC, todoD, badTime, "note#1"} {
		difftest.Same(t, p, func(s todo.Store) (todo.Todo, error) { return s.GetTodo(ctx, "testuser", id) })
	}
	for _, id := range []string{seedCatID, cat2, "missing"} {
		difftest.Same(t, p, func(s todo.Store) (todo.Category, error) { return s.GetCategory(ctx, "testuser", id) })
	}
	walk := func() {
		for _, limit := range []int{1, 2, 3, 0} {
			for cursor, n := "", 0; n == 0 || cursor != ""; n++ {
				o := ddbkit.PageOptions{Limit: limit, Cursor: cursor}
				pu, _ := difftest.Same(t, p, func(s todo.Store) (ddbkit.Page[todo.User], error) { return s.ListUsers(ctx, o) })
				cursor = pu.Next
			}
			for cursor, n := "", 0; n == 0 || cursor != ""; n++ {
				o := ddbkit.PageOptions{Limit: limit, Cursor: cursor}
				pt, _ := difftest.Same(t, p, func(s todo.Store) (ddbkit.Page[todo.Todo], error) { return s.ListTodos(ctx, "testuser", o) })
				cursor = pt.Next
			}
			for cursor, n := "", 0; n == 0 || cursor != ""; n++ {
				o := ddbkit.PageOptions{Limit: limit, Cursor: cursor}
				pc, _ := difftest.Same(t, p, func(s todo.Store) (ddbkit.Page[todo.Category], error) { return s.ListCategories(ctx, "testuser", o) })
				cursor = pc.Next
			}
			// The unknown kind (note#1) counts towards a page's limit.
			for cursor, n := "", 0; n == 0 || cursor != ""; n++ {
				o := ddbkit.PageOptions{Limit: limit, Cursor: cursor}
				pr, _ := difftest.Same(t, p, func(s todo.Store) (ddbkit.Page[todo.Record], error) { return s.ListUserData(ctx, "testuser", o) })
				cursor = pr.Next
			}
		}
	}
	walk()

	// The main writes, over items missing attributes.
	for _, id := range []string{todoB, todoB, seedTodoID} {
		difftest.Same(t, p, func(s todo.Store) (todo.Todo, error) { return s.ToggleTodo(ctx, "testuser", id) })
	}
	difftest.Same(t, p, func(s todo.Store) (todo.Todo, error) {
		return s.UpdateTodo(ctx, "testuser", todoA, todo.TodoPatch{Title: ptr("豆乳を買う")})
	})
	difftest.Same(t, p, func(s todo.Store) (todo.Todo, error) {
		return s.UpdateTodo(ctx, "testuser", todoD, todo.TodoPatch{CategoryID: ptr(cat2)})
	})
	difftest.Same(t, p, func(s todo.Store) (todo.Todo, error) {
		return s.CreateTodo(ctx, "testuser", todo.NewTodo{Title: "新しい", Priority: todo.PriorityMedium, CategoryID: seedCatID})
	})
	difftest.Same(t, p, func(s todo.Store) (todo.Category, error) {
		return s.UpdateCategory(ctx, "testuser", cat2, todo.CategoryPatch{Color: ptr(todo.ColorWarning)})
	})
	difftest.SameErr(t, p, func(s todo.Store) error {
		return s.UpdateUser(ctx, todo.User{Username: "hanako", Email: "hanako@example.org"})
	})
	difftest.SameErr(t, p, func(s todo.Store) error {
		return s.CreateUser(ctx, todo.User{Username: "hanako", Email: "hanako@example.org"})
	})
	difftest.SameRaw(t, p)
	difftest.SameErr(t, p, func(s todo.Store) error { return s.DeleteCategory(ctx, "testuser", seedCatID) })
	difftest.SameErr(t, p, func(s todo.Store) error { return s.DeleteTodo(ctx, "testuser", todoC) })
	walk()
	difftest.SameRaw(t, p)
	difftest.SameErr(t, p, func(s todo.Store) error { return s.DeleteUser(ctx, "testuser") })
	difftest.SameRaw(t, p)
	if left := mem.Export()[table]; len(left) != 1 {
		t.Errorf("after DeleteUser the memory store holds %d items, want only hanako", len(left))
	}
}

func keysTimestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// sameTodo compares todos by instant, not by time.Time representation.
func sameTodo(a, b todo.Todo) bool {
	return a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt) &&
		a.CreatedAt.IsZero() == b.CreatedAt.IsZero() && a.UpdatedAt.IsZero() == b.UpdatedAt.IsZero() &&
		withoutTimes(a) == withoutTimes(b)
}

func withoutTimes(t todo.Todo) todo.Todo {
	t.CreatedAt, t.UpdatedAt = time.Time{}, time.Time{}
	return t
}

func sameCategory(a, b todo.Category) bool {
	ok := a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt)
	a.CreatedAt, a.UpdatedAt, b.CreatedAt, b.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	return ok && a == b
}

// checkSkipped requires one ErrCorruptItem per ID, in order.
func checkSkipped(t *testing.T, what string, skipped []error, ids ...string) {
	t.Helper()
	if len(skipped) != len(ids) {
		t.Fatalf("%s skipped %d items (%v), want %d", what, len(skipped), skipped, len(ids))
	}
	for i, err := range skipped {
		ddbtest.WantSentinel(t, what+" skipped item", err, ddbkit.ErrCorruptItem)
		if !strings.Contains(err.Error(), ids[i]) || !strings.HasPrefix(err.Error(), "todo: ") {
			t.Errorf("%s skipped item %d: %v; want it to name todo %s", what, i, err, ids[i])
		}
	}
}
