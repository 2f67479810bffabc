package todo_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/fuzzcheck"
	"github.com/ddbkit/ddbkit/todo"
)

// addItemSeeds seeds f with the legacy fixtures and, for the seed's own
// examples (a user, a todo, a category), the interop shapes of every
// attribute (fuzzcheck.Shapes): more seeds would spend a run's time on
// gathering their coverage.
func addItemSeeds(f *testing.F) {
	for i, item := range legacyItems() {
		f.Add(fuzzcheck.Encode(item))
		if i >= 3 {
			continue
		}
		for _, shape := range fuzzcheck.Shapes(item, "created_at", "updated_at") {
			f.Add(fuzzcheck.Encode(shape))
		}
	}
}

// roundTrip is fuzzcheck.RoundTrip of one kind's codec, writing under
// item's own key.
func roundTrip[T any](t *testing.T, item ddb.Item, v T, marshal func(pk, sk string, v T) (ddb.Item, error), decode func(ddb.Item) (T, error), norm func(T) T) {
	t.Helper()
	if !fuzzcheck.Stored(item, todo.AttrPK, todo.AttrSK) {
		return
	}
	pk, sk := item[todo.AttrPK].(*types.AttributeValueMemberS).Value, item[todo.AttrSK].(*types.AttributeValueMemberS).Value
	fuzzcheck.RoundTrip(t, item, v, func(v T) (ddb.Item, error) { return marshal(pk, sk, v) }, decode, norm)
}

func ms(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.Truncate(time.Millisecond)
}

// FuzzDecodeItem decodes any item, as another writer of the table may
// leave it, as each kind the stores read: a value, or ErrCorruptItem
// echoing a bounded prefix of the item at most (ErrSkip for a record of a
// kind ListUserData does not show), and never a panic. A value read
// round-trips (roundTrip).
func FuzzDecodeItem(f *testing.F) {
	addItemSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		item, ok := fuzzcheck.ReadItem(data)
		if !ok {
			return
		}
		strs := fuzzcheck.Strings(item, todo.AttrPK, todo.AttrSK)
		check := func(err error) bool {
			t.Helper()
			if err != nil {
				fuzzcheck.Error(t, err, ddbkit.ErrCorruptItem, strs...)
			}
			return err == nil
		}
		if u, err := todo.DecodeUser(item); check(err) {
			roundTrip(t, item, u, todo.MarshalUser, todo.DecodeUser, func(u todo.User) todo.User { return u })
		}
		if v, err := todo.DecodeTodo(item); check(err) {
			roundTrip(t, item, v, todo.MarshalTodo, todo.DecodeTodo, func(v todo.Todo) todo.Todo {
				v.CreatedAt, v.UpdatedAt = ms(v.CreatedAt), ms(v.UpdatedAt)
				return v
			})
		}
		if c, err := todo.DecodeCategory(item); check(err) {
			roundTrip(t, item, c, todo.MarshalCategory, todo.DecodeCategory, func(c todo.Category) todo.Category {
				c.CreatedAt, c.UpdatedAt = ms(c.CreatedAt), ms(c.UpdatedAt)
				return c
			})
		}
		r, err := todo.DecodeRecord(item)
		if errors.Is(err, backend.ErrSkip) {
			return
		}
		if check(err) && (r.Todo == nil) == (r.Category == nil) {
			t.Fatalf("DecodeRecord = %+v, want exactly one of Todo and Category", r)
		}
	})
}

// FuzzImport imports any item into a memory store: Import accepts it,
// and then Export returns it unchanged and every listing of its partition
// reads (corrupt items skipped, never a panic), or refuses it with
// ErrCorruptItem and leaves the store unchanged.
func FuzzImport(f *testing.F) {
	addItemSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzcheck.MaxInput {
			return
		}
		item := fuzzcheck.Item(data)
		s := todo.NewMemoryStore(func(o *todo.Options) { o.TableName = "t" })
		for _, it := range legacyItems() {
			s.Import(ddbkit.TableItems{"t": {it}}) // the corrupt two are refused
		}
		before := s.Export()
		err := s.Import(ddbkit.TableItems{"t": {item}})
		after := s.Export()
		if err != nil {
			fuzzcheck.Error(t, err, ddbkit.ErrCorruptItem, fuzzcheck.Strings(item, todo.AttrPK, todo.AttrSK)...)
			if !reflect.DeepEqual(after, before) {
				t.Fatalf("a refused Import changed the store")
			}
			return
		}
		if !exported(after["t"], item) {
			t.Fatalf("Export does not return the imported item %v", item)
		}
		ctx := t.Context()
		pk := item[todo.AttrPK].(*types.AttributeValueMemberS).Value
		if _, err := s.ListUsers(ctx, ddbkit.PageOptions{Limit: 100}); err != nil {
			t.Fatalf("ListUsers after Import: %v", err)
		}
		if user, ok := strings.CutPrefix(pk, "user#"); ok && todo.ValidUsername(user) {
			if _, err := s.ListTodos(ctx, user, ddbkit.PageOptions{Limit: 100}); err != nil {
				t.Fatalf("ListTodos after Import: %v", err)
			}
			if _, err := s.ListCategories(ctx, user, ddbkit.PageOptions{Limit: 100}); err != nil {
				t.Fatalf("ListCategories after Import: %v", err)
			}
			if _, err := s.ListUserData(ctx, user, ddbkit.PageOptions{Limit: 100}); err != nil {
				t.Fatalf("ListUserData after Import: %v", err)
			}
		}
	})
}

// exported reports whether items holds item.
func exported(items []map[string]types.AttributeValue, item map[string]types.AttributeValue) bool {
	for _, it := range items {
		if reflect.DeepEqual(it, item) {
			return true
		}
	}
	return false
}

// FuzzInput holds every input type to issue 39's validation contract, on
// a memory store holding the legacy fixture: input the store accepts is
// written and read back equal to what it returned and to the input; input
// it refuses (ErrInvalidArgument, or ErrNotFound for a missing target)
// leaves the store unchanged, and no error echoes more than a bounded
// prefix of the input nor the idempotency key. op picks the operation and
// which fields a patch sets.
func FuzzInput(f *testing.F) {
	for i, in := range []struct {
		user, a, b, c, d, key string
		flag                  bool
	}{
		{"testuser", "牛乳を買う", "", "high", seedCatID, "k1", false},
		{"testuser", "x", "desc", "low", "", "", true},
		{"testuser", seedTodoID, "仕事", "primary", "", "", false},
		{"hanako", "hanako@example.com", "", "", "", "", false},
		{"new.user_1", "a@b.example", "", "medium", "", "", false},
		{"testuser", todoA, "y", "medium", cat2, "", false},
		{"test user", "", "\xff", "HIGH", "a#b", "4111111111111111", false},
		{"testuser", strings.Repeat("x", 5000), strings.Repeat("9", 300), "danger", "nope", "secret-idempotency-key", true},
		{"", "\x00", "\u0301", "low", "\U0010FFFF", "", true},
	} {
		f.Add(uint8(i), in.user, in.a, in.b, in.c, in.d, in.key, in.flag)
	}
	f.Fuzz(func(t *testing.T, op uint8, user, a, b, c, d, key string, flag bool) {
		for _, s := range []string{user, a, b, c, d, key} {
			if len(s) > fuzzcheck.MaxInput {
				return
			}
		}
		clock := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
		s := todo.NewMemoryStore(func(o *todo.Options) {
			o.TableName = "t"
			o.Clock = func() time.Time { return clock }
			o.NewID = ddbkit.SeededUUIDv4(1)
		})
		for _, it := range legacyItems() {
			s.Import(ddbkit.TableItems{"t": {it}}) // the corrupt two are refused
		}
		ctx := ddbkit.WithIdempotencyKey(t.Context(), key)
		before := s.Export()
		refused := func(err error) {
			t.Helper()
			// CreateUser may also find the name taken: the store holds
			// the fixtures' users.
			taken := op%6 == 4 && errors.Is(err, ddbkit.ErrAlreadyExists)
			if !errors.Is(err, ddbkit.ErrInvalidArgument) && !errors.Is(err, ddbkit.ErrNotFound) && !taken {
				t.Fatalf("op %d refused with %v, want ErrInvalidArgument or ErrNotFound (or, creating a user, ErrAlreadyExists)", op%6, err)
			}
			// IDs are identities, like key values: an error names the one
			// not found as given (validated first, so bounded).
			id := a
			if op%6 == 1 || op%6 == 3 {
				id = fuzzcheck.Key(a)
			}
			fuzzcheck.Echo(t, err, fuzzcheck.Key(user), id, b, c, fuzzcheck.Key(d), fuzzcheck.Secret(key))
			if after := s.Export(); !reflect.DeepEqual(after, before) {
				t.Fatalf("op %d refused with %v, and changed the store", op%6, err)
			}
		}
		same := func(got, want any) {
			t.Helper()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("op %d: read back\n got %+v\nwant %+v", op%6, got, want)
			}
		}
		str := func(set bool, s string) *string {
			if set {
				return &s
			}
			return nil
		}
		sets := func(i uint8) bool { return op>>(3+i)&1 == 1 }
		switch op % 6 {
		case 0:
			in := todo.NewTodo{Title: a, Description: b, Priority: todo.Priority(c), CategoryID: d, Completed: flag}
			v, err := s.CreateTodo(ctx, user, in)
			if err != nil {
				refused(err)
				return
			}
			got, err := s.GetTodo(t.Context(), user, v.ID)
			same(err, nil)
			same(got, v)
			same(todo.NewTodo{Title: v.Title, Description: v.Description, Priority: v.Priority, CategoryID: v.CategoryID, Completed: v.Completed}, in)
		case 1:
			id := a // an ID of the fixture, or any string
			p := todo.TodoPatch{Title: str(sets(0), b), Description: str(sets(1), c), CategoryID: str(sets(2), d)}
			if sets(3) {
				pr := todo.Priority(c)
				p.Priority = &pr
			}
			if sets(4) {
				p.Completed = &flag
			}
			old, oldErr := s.GetTodo(t.Context(), user, id)
			v, err := s.UpdateTodo(ctx, user, id, p)
			if err != nil {
				refused(err)
				return
			}
			same(oldErr, nil)
			got, err := s.GetTodo(t.Context(), user, id)
			same(err, nil)
			same(got, v)
			old.UpdatedAt = v.UpdatedAt
			same(todo.ApplyPatch(old, p), v)
		case 2:
			in := todo.NewCategory{Name: a, Color: todo.Color(b)}
			v, err := s.CreateCategory(ctx, user, in)
			if err != nil {
				refused(err)
				return
			}
			got, err := s.GetCategory(t.Context(), user, v.ID)
			same(err, nil)
			same(got, v)
			same(todo.NewCategory{Name: v.Name, Color: v.Color}, in)
		case 3:
			id := a
			p := todo.CategoryPatch{Name: str(sets(0), c)}
			if sets(1) {
				col := todo.Color(b)
				p.Color = &col
			}
			old, oldErr := s.GetCategory(t.Context(), user, id)
			v, err := s.UpdateCategory(ctx, user, id, p)
			if err != nil {
				refused(err)
				return
			}
			same(oldErr, nil)
			got, err := s.GetCategory(t.Context(), user, id)
			same(err, nil)
			same(got, v)
			if p.Name != nil {
				old.Name = *p.Name
			}
			if p.Color != nil {
				old.Color = *p.Color
			}
			old.UpdatedAt = v.UpdatedAt
			same(old, v)
		case 4:
			u := todo.User{Username: user, Email: a}
			if err := s.CreateUser(ctx, u); err != nil {
				refused(err)
				return
			}
			got, err := s.GetUser(t.Context(), user)
			same(err, nil)
			same(got, u)
		case 5:
			u := todo.User{Username: user, Email: a}
			if err := s.UpdateUser(ctx, u); err != nil {
				refused(err)
				return
			}
			got, err := s.GetUser(t.Context(), user)
			same(err, nil)
			same(got, u)
		}
	})
}
