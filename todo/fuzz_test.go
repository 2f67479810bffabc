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

// addItemSeeds seeds f with the legacy fixtures and, for each, the
// interop shapes of every attribute (fuzzcheck.Shapes).
func addItemSeeds(f *testing.F) {
	for _, item := range legacyItems() {
		f.Add(fuzzcheck.Encode(item))
		for _, shape := range fuzzcheck.Shapes(item, "created_at", "updated_at") {
			f.Add(fuzzcheck.Encode(shape))
		}
	}
}

// roundTrip holds one kind's codec to issue 39's round trip: v, decoded
// from item, is written back under item's key and read back as v, to the
// millisecond the writer keeps; and an item already in ddbkit's own shape
// (what the writer makes of its value) reads back exactly.
func roundTrip[T any](t *testing.T, item ddb.Item, v T, marshal func(pk, sk string, v T) (ddb.Item, error), decode func(ddb.Item) (T, error), norm func(T) T) {
	t.Helper()
	pk, _ := item[todo.AttrPK].(*types.AttributeValueMemberS)
	sk, _ := item[todo.AttrSK].(*types.AttributeValueMemberS)
	if pk == nil || sk == nil || pk.Value == "" || sk.Value == "" {
		return // no table holds it: its keys are Strings, never empty
	}
	again, err := marshal(pk.Value, sk.Value, v)
	if err != nil {
		t.Fatalf("writing back %+v: %v", v, err)
	}
	back, err := decode(again)
	if err != nil {
		t.Fatalf("reading back %+v: %v", v, err)
	}
	if want := norm(v); !reflect.DeepEqual(back, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, want)
	}
	if reflect.DeepEqual(again, item) && !reflect.DeepEqual(back, v) {
		t.Fatalf("an item in ddbkit's own shape reads back as %+v, want %+v", back, v)
	}
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
		if len(data) > fuzzcheck.MaxInput {
			return
		}
		item := fuzzcheck.Item(data)
		if ddb.CheckAttrs(todo.FuzzTable, item) != nil {
			return // a nil value: only a hand-built item holds one, and Import refuses it (FuzzImport)
		}
		strs := fuzzcheck.Strings(item)
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
			fuzzcheck.Error(t, err, ddbkit.ErrCorruptItem, fuzzcheck.Strings(item)...)
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
