package backendtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// start is the time every case begins at: after today, so that DynamoDB's
// own TTL deletion would leave the suite's "expired" items alone.
var start = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func num(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}
func list(vs ...string) types.AttributeValue {
	l := &types.AttributeValueMemberL{Value: []types.AttributeValue{}}
	for _, v := range vs {
		l.Value = append(l.Value, str(v))
	}
	return l
}
func sset(vs ...string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: vs} }

// item returns an item of t with key pk, sk (sk ignored where t has no
// sort key) and attributes kv: name, value pairs, a value being an
// AttributeValue, a string (S) or an int (N).
func item(t backend.Table, pk, sk string, kv ...any) ddb.Item {
	it := t.Key(pk, sk)
	for i := 0; i+1 < len(kv); i += 2 {
		name := kv[i].(string)
		switch v := kv[i+1].(type) {
		case types.AttributeValue:
			it[name] = v
		case string:
			it[name] = str(v)
		case int:
			it[name] = num(int64(v))
		default:
			panic(fmt.Sprintf("backendtest: item attribute %s of type %T", name, v))
		}
	}
	return it
}

func key(pk, sk string) backend.Key { return backend.Key{PK: pk, SK: sk} }

// render shows an item canonically, for comparisons and messages.
func render(it ddb.Item) string {
	if it == nil {
		return "<nil>"
	}
	return ddb.AttrString(&types.AttributeValueMemberM{Value: it})
}

// short cuts each line of a message's item text to a readable length.
func short(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if len(l) > 300 {
			lines[i] = fmt.Sprintf("%s…(%d bytes)…%s", l[:200], len(l), l[len(l)-60:])
		}
	}
	return strings.Join(lines, "\n")
}

func renderAll(items []ddb.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = render(it)
	}
	return out
}

// sorted renders items in a canonical order, for comparing sets.
func sorted(items []ddb.Item) []string {
	out := renderAll(items)
	slices.Sort(out)
	return out
}

func sks(items []ddb.Item) []string {
	out := []string{}
	for _, it := range items {
		s, _ := backend.Str(it, SK)
		out = append(out, s)
	}
	return out
}

// is reports whether err, classified as a domain classifies it on its way
// out (ddb.Classify), matches target.
func is(err, target error) bool { return errors.Is(ddb.Classify(err), target) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func mustPut(t *testing.T, h *Harness, tb backend.Table, items ...ddb.Item) {
	t.Helper()
	for _, it := range items {
		if err := h.Backend.Put(t.Context(), tb.Table, it, backend.Cond{}); err != nil {
			t.Fatalf("Put(%s): %v", render(it), err)
		}
	}
}

func get(t *testing.T, h *Harness, tb backend.Table, k backend.Key) ddb.Item {
	t.Helper()
	it, err := h.Backend.Get(t.Context(), tb.Table, k)
	if err != nil {
		t.Fatalf("Get(%v): %v", k, err)
	}
	return it
}

func wantItem(t *testing.T, what string, got, want ddb.Item) {
	t.Helper()
	if render(got) != render(want) {
		t.Errorf("%s:\n got %s\nwant %s", what, short(render(got)), short(render(want)))
	}
}

func wantItems(t *testing.T, what string, got, want []ddb.Item) {
	t.Helper()
	if g, w := renderAll(got), renderAll(want); !slices.Equal(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, short(strings.Join(g, "\n     ")), short(strings.Join(w, "\n     ")))
	}
}

// wantCond checks that err is a failed condition of label holding old.
func wantCond(t *testing.T, what string, err error, label string, old ddb.Item) {
	t.Helper()
	got, ok := backend.Failed(err, label)
	if !ok {
		t.Errorf("%s: got error %v, want a *backend.CondError labelled %q", what, err, label)
		return
	}
	var ce *backend.CondError
	if errors.As(err, &ce) && ce.Label != label {
		t.Errorf("%s: failed condition of %q, want %q", what, ce.Label, label)
	}
	if !is(err, ddbkit.ErrConflict) {
		t.Errorf("%s: %v does not classify as ErrConflict", what, err)
	}
	wantItem(t, what+": the item as it was", got, old)
}

func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !is(err, target) {
		t.Errorf("%s: got error %v, want one matching %v", what, err, target)
	}
	if _, ok := backend.Failed(err, ""); ok {
		t.Errorf("%s: got a failed condition %v, want %v", what, err, target)
	}
}

// snapshot is every item of every table, for "nothing was written".
func snapshot(t *testing.T, h *Harness) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, tb := range []backend.Table{h.Main, h.Other, h.TTL} {
		out[tb.Name] = sorted(h.Items(t, tb.Table))
	}
	return out
}

func wantUnchanged(t *testing.T, what string, h *Harness, before map[string][]string) {
	t.Helper()
	after := snapshot(t, h)
	for name, b := range before {
		if a := after[name]; !slices.Equal(a, b) {
			t.Errorf("%s wrote to %s:\n got %s\nwant %s", what, name, short(strings.Join(a, "\n     ")), short(strings.Join(b, "\n     ")))
		}
	}
}

// pages reads q to its end with pages of limit, under f, and returns
// every page and whether each has a Next. It fails t after 10,000 pages.
func pages(t *testing.T, b backend.Backend, q ddb.KeyQuery, limit int, f backend.Filter) (ps [][]ddb.Item, more []bool) {
	t.Helper()
	cursor := ""
	for range 10000 {
		items, next, err := b.Query(t.Context(), q, limit, cursor, f)
		if err != nil {
			t.Fatalf("Query(%s/%s %q, limit %d, cursor %q): %v", q.Table.Name, q.Index.Name, q.PartitionValue, limit, cursor, err)
		}
		if len(items) > limit {
			t.Fatalf("Query(limit %d): %d items", limit, len(items))
		}
		ps = append(ps, items)
		more = append(more, next != "")
		if next == "" {
			return ps, more
		}
		cursor = next
	}
	t.Fatalf("Query(%s %q): no end after 10,000 pages", q.Table.Name, q.PartitionValue)
	return nil, nil
}

func all(t *testing.T, b backend.Backend, q ddb.KeyQuery, f backend.Filter) []ddb.Item {
	t.Helper()
	ps, _ := pages(t, b, q, 1000, f)
	return slices.Concat(ps...)
}

// modelPages is the pages a filtered query makes of cands (the items of
// its key range, in order) under keep (nil: unfiltered) with limit and
// budget: a page ends when it is full and another kept item follows
// (Next after its last item), or, filtered, when it has evaluated budget
// items (Next after the last one evaluated), or at the end of the range
// (no Next).
func modelPages(cands []ddb.Item, keep func(ddb.Item) bool, limit, budget int) (ps [][]ddb.Item, more []bool) {
	i := 0
	for {
		var out []ddb.Item
		ev := 0
		next := -1 // where the next page starts, -1: no next page
		for j := i; j < len(cands); j++ {
			spent := false
			if keep != nil {
				ev++
				spent = ev >= budget
				if !keep(cands[j]) {
					if spent {
						next = j + 1
						break
					}
					continue
				}
			}
			if len(out) == limit {
				next = i // set below
				break
			}
			out = append(out, cands[j])
			i = j + 1
			if spent {
				next = j + 1
				break
			}
		}
		ps = append(ps, out)
		more = append(more, next >= 0)
		if next < 0 {
			return ps, more
		}
		i = next
	}
}

// cancelled is a context that has ended.
func cancelled(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	return ctx
}
