package wardrobe_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// TestRetryBound runs every operation of the DynamoDB store against a
// client that always throttles every call, and one whose transactions
// always conflict, with MaxAttempts 3: an operation under constant
// throttling makes at most 3 calls in all (its first step's attempts: no
// retry loop nests in another), one under constant conflicts at most 3
// TransactWriteItems (exactly 3 if it transacts at all), and the
// operation fails with ErrUnavailable, or ErrConflict, respectively (an
// operation without a transaction is untouched by conflicts).
func TestRetryBound(t *testing.T) {
	const attempts = 3
	bound := func(o *wardrobe.Options) {
		o.Retry = ddbkit.RetryPolicy{MaxAttempts: attempts, BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}
	}
	for _, tc := range []struct {
		name   string
		inject func(fc *ddbtest.FaultClient)
		want   error
	}{
		{"always throttled", func(fc *ddbtest.FaultClient) {
			fc.Always(ddbtest.Throttle)
		}, ddbkit.ErrUnavailable},
		{"always conflicting", func(fc *ddbtest.FaultClient) {
			fc.Always(ddbtest.TxConflict)
		}, ddbkit.ErrConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var (
				fc *ddbtest.FaultClient
				cc *ddbtest.CountingClient
			)
			s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
				fc = ddbtest.NewFaultClient(c)
				cc = ddbtest.NewCountingClient(fc)
				return cc
			}, deterministic, bound)
			for i := range len(newFixture(t, s).operations(s)) {
				// A fixture of its own per operation: an operation that
				// conflicts do not touch succeeds, and changes the fixture.
				op := newFixture(t, s).operations(s)[i]
				t.Run(op.name, func(t *testing.T) {
					cc.Reset()
					tc.inject(fc)
					err := op.call(t.Context())
					fc.Clear()
					counts := cc.Counts()
					if n := counts["TransactWriteItems"]; n > attempts {
						t.Errorf("%s made %d TransactWriteItems calls, want at most %d (MaxAttempts): %v", op.name, n, attempts, counts)
					}
					total := 0
					for _, n := range counts {
						total += n
					}
					// Under constant throttling the first step fails: the
					// whole operation is that step's attempts.
					if tc.want == ddbkit.ErrUnavailable && total > attempts {
						t.Errorf("%s made %d calls under constant throttling, want at most %d (MaxAttempts): %v", op.name, total, attempts, counts)
					}
					if tc.want == ddbkit.ErrConflict && counts["TransactWriteItems"] == 0 {
						if err != nil {
							t.Fatalf("%s without a transaction, under transaction conflicts: %v", op.name, err)
						}
						return
					}
					ddbtest.WantSentinel(t, op.name, err, tc.want)
					if n := counts["TransactWriteItems"]; tc.want == ddbkit.ErrConflict && n != attempts {
						t.Errorf("%s made %d TransactWriteItems calls under constant conflicts, want %d", op.name, n, attempts)
					}
				})
			}
		})
	}
}

// TestCreateLostResponse loses the response of each create's one-item
// transaction once: the retry with the same ClientRequestToken succeeds,
// and the item exists exactly once.
func TestCreateLostResponse(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic, quickRetry)
	ctx := t.Context()
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
	if err != nil || fc.Injected("TransactWriteItems") != 1 {
		t.Fatalf("CreateWardrobe through a lost response: %v (faults fired: %d)", err, fc.Injected("TransactWriteItems"))
	}
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	cl, err := s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "c"})
	if err != nil {
		t.Fatalf("AddClothing through a lost response: %v", err)
	}
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1)
	if _, err := s.AddTemplate(ctx, w.ID, wardrobe.NewTemplate{Name: "t", ClothingIDs: []string{cl.ID}}); err != nil {
		t.Fatalf("AddTemplate through a lost response: %v", err)
	}
	if n := fc.Injected("TransactWriteItems"); n != 3 {
		t.Fatalf("%d lost responses fired, want 3", n)
	}
	got := rawTable(t, c, table)
	if len(got) != 3 {
		t.Fatalf("table holds %d items, want the wardrobe, the clothing and the template once each: %v", len(got), got)
	}
}

// TestCreateIdenticalRaw has another writer put, raw, exactly the
// clothing AddClothing is about to write (same ID, same time): the store
// does not take it for its own write.
func TestCreateIdenticalRaw(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc },
		func(o *wardrobe.Options) {
			o.Clock = func() time.Time { return start }
			o.NewID = func() string { return "fixed" }
		})
	ctx := t.Context()
	w, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	// The other writer's copy, as this store writes it: the item of a
	// first AddClothing on a twin store of another table, moved here.
	twin := wardrobe.NewMemoryStore(func(o *wardrobe.Options) {
		o.TableName, o.Clock, o.NewID = table, func() time.Time { return start }, func() string { return "fixed" }
	})
	if _, err := twin.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"}); err != nil {
		t.Fatal(err)
	}
	if _, err := twin.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "c"}); err != nil {
		t.Fatal(err)
	}
	for _, it := range twin.Export()[table] {
		if fmt.Sprint(render(it)["SK"]) != "S:META" {
			fc.Before("TransactWriteItems", func() { putRaw(t, c, table, it) })
		}
	}
	_, err = s.AddClothing(ctx, w.ID, wardrobe.NewClothing{Name: "c"})
	ddbtest.WantSentinel(t, "AddClothing of an item another writer put identically", err, ddbkit.ErrAlreadyExists)
}

// TestMemoryImportNilAttribute imports items holding a nil attribute value,
// at the top or nested in a list or map: ErrCorruptItem, never a panic, and
// nothing is imported.
func TestMemoryImportNilAttribute(t *testing.T) {
	key := func() map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": S("W#w#HIST"), "SK": S("HIST#h"), "date": S("20260105"), "clothingIds": L("c")}
	}
	top, list, inMap := key(), key(), key()
	top["templateId"] = nil
	list["clothingIds"] = &types.AttributeValueMemberL{Value: []types.AttributeValue{S("c"), nil}}
	inMap["extra"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": nil}}
	for name, item := range map[string]map[string]types.AttributeValue{"top": top, "list": list, "map": inMap} {
		t.Run(name, func(t *testing.T) {
			m := wardrobe.NewMemoryStore()
			ok := key()
			ok["SK"] = S("HIST#ok")
			err := m.Import(ddbkit.TableItems{wardrobe.DefaultTableName: {ok, item}})
			ddbtest.WantSentinel(t, "Import of an item with a nil attribute value", err, ddbkit.ErrCorruptItem)
			var corrupt *ddbkit.CorruptItemError
			if !errors.As(err, &corrupt) {
				t.Fatalf("Import: %v, want a *ddbkit.CorruptItemError", err)
			}
			if got := m.Export()[wardrobe.DefaultTableName]; len(got) != 0 {
				t.Fatalf("Import imported %d items, want none", len(got))
			}
		})
	}
}
