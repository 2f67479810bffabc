package wardrobe_test

import (
	"fmt"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// TestIdempotencyKeyAfterLostResponses loses every response of a
// transaction until the store gives up with ErrUnavailable, although the
// first attempt committed, and then repeats the call with the same
// idempotency key, as a client retrying the request does: the repeat
// returns the first call's result and commits nothing more.
func TestIdempotencyKeyAfterLostResponses(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic, quickRetry)
	ctx := t.Context()
	f := newFixture(t, s)
	w := f.w.ID

	// UpdateTemplate with new clothes: the repeat succeeds.
	key := ddbkit.WithIdempotencyKey(ctx, "request-1")
	patch := wardrobe.TemplatePatch{Name: ptr("renamed"), ClothingIDs: []string{f.cs[2].ID, f.cs[0].ID}}
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1000)
	_, err := s.UpdateTemplate(key, w, f.tp.ID, patch)
	fc.Clear()
	ddbtest.WantSentinel(t, "UpdateTemplate while every response is lost", err, ddbkit.ErrUnavailable)
	got, err := s.UpdateTemplate(key, w, f.tp.ID, patch)
	if err != nil {
		t.Fatalf("UpdateTemplate repeated with its key: %v", err)
	}
	stored, err := s.GetTemplate(ctx, w, f.tp.ID)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(stored) || got.Name != "renamed" || len(got.ClothingIDs) != 2 {
		t.Fatalf("UpdateTemplate repeated with its key = %+v; stored %+v, %v", got, stored, err)
	}

	// AddHistory: the repeat finds the idempotency record the committed
	// transaction wrote, and returns that history; the wear is counted once.
	before, err := s.GetClothing(ctx, w, f.cs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	key = ddbkit.WithIdempotencyKey(ctx, "request-2")
	in := wardrobe.NewHistory{Date: "20260107", ClothingIDs: []string{f.cs[0].ID}}
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1000)
	_, err = s.AddHistory(key, w, in)
	fc.Clear()
	ddbtest.WantSentinel(t, "AddHistory while every response is lost", err, ddbkit.ErrUnavailable)
	h, err := s.AddHistory(key, w, in)
	if err != nil {
		t.Fatalf("AddHistory repeated with its key: %v, want the committed history", err)
	}
	after, err := s.GetClothing(ctx, w, f.cs[0].ID)
	if err != nil || after.WearCount != before.WearCount+1 || after.LastWornAt != "20260107" {
		t.Fatalf("after AddHistory and its repeat: %+v, %v; want one more wear than %d, on 20260107", after, err, before.WearCount)
	}
	p, err := s.ListHistory(ctx, w, wardrobe.HistoryQuery{From: "20260107", To: "20260107"})
	if err != nil || len(p.Items) != 1 || fmt.Sprint(p.Items[0].History) != fmt.Sprint(h) {
		t.Fatalf("ListHistory(20260107) = %+v, %v; want one history, %+v", p.Items, err, h)
	}

	// DeleteHistory: the repeat succeeds, as the first attempt did.
	key = ddbkit.WithIdempotencyKey(ctx, "request-3")
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1000)
	err = s.DeleteHistory(key, w, p.Items[0].ID)
	fc.Clear()
	ddbtest.WantSentinel(t, "DeleteHistory while every response is lost", err, ddbkit.ErrUnavailable)
	if err := s.DeleteHistory(key, w, p.Items[0].ID); err != nil {
		t.Fatalf("DeleteHistory repeated with its key: %v, want success", err)
	}
	if c, err := s.GetClothing(ctx, w, f.cs[0].ID); err != nil || c.WearCount != before.WearCount {
		t.Fatalf("after DeleteHistory and its repeat: %+v, %v; want wearCount %d", c, err, before.WearCount)
	}
}

// TestUpdateTemplateNoReadBack makes every read fail once UpdateTemplate's
// transaction is on its way: the update committed, so it must report
// success and return what it committed, not the failure of a read after.
func TestUpdateTemplateNoReadBack(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic, quickRetry)
	ctx := t.Context()
	f := newFixture(t, s)
	fc.Before("TransactWriteItems", func() {
		for _, op := range []string{"GetItem", "BatchGetItem", "Query"} {
			fc.Inject(op, ddbtest.InternalError, 1000)
		}
	})
	got, err := s.UpdateTemplate(ctx, f.w.ID, f.tp.ID, wardrobe.TemplatePatch{ClothingIDs: []string{f.cs[2].ID}})
	fc.Clear()
	if err != nil {
		t.Fatalf("UpdateTemplate with reads failing after its commit: %v", err)
	}
	stored, err := s.GetTemplate(ctx, f.w.ID, f.tp.ID)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(stored) || len(got.ClothingIDs) != 1 || got.ClothingIDs[0] != f.cs[2].ID {
		t.Fatalf("UpdateTemplate = %+v; stored %+v, %v", got, stored, err)
	}
	if got.WearCount != 1 || got.LastWornAt != "20260104" || !got.CreatedAt.Equal(f.tp.CreatedAt) || got.Name != "tp" {
		t.Fatalf("UpdateTemplate = %+v: want the rest of the template as stored", got)
	}
}

// TestCursorSecret lists with a store whose cursors are signed, and hands
// its cursor to a store on the same table with another secret, or none:
// it is refused with ErrInvalidCursor, on both stores.
func TestCursorSecret(t *testing.T) {
	secret := func(k string) func(*wardrobe.Options) {
		return func(o *wardrobe.Options) { o.CursorSecret = []byte(k) }
	}
	a, b := "secret a: 32 bytes of randomness", "secret b: 32 bytes of randomness"
	dyn, c, table := newDynamo(t, nil, deterministic, secret(a))
	on := func(o *wardrobe.Options) { o.TableName = table }
	for _, tc := range []struct {
		name                 string
		signer, same, others []wardrobe.Store
	}{
		{"dynamo", []wardrobe.Store{dyn},
			[]wardrobe.Store{wardrobe.NewDynamoStore(c, on, secret(a))},
			[]wardrobe.Store{wardrobe.NewDynamoStore(c, on, secret(b)), wardrobe.NewDynamoStore(c, on)}},
		{"memory", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			signer, same, others := tc.signer, tc.same, tc.others
			if signer == nil {
				m := wardrobe.NewMemoryStore(deterministic, on, secret(a))
				signer = []wardrobe.Store{m}
				same = []wardrobe.Store{m}
				others = []wardrobe.Store{wardrobe.NewMemoryStore(deterministic, on, secret(b)), wardrobe.NewMemoryStore(deterministic, on)}
			}
			s := signer[0]
			f := newFixture(t, s)
			p, err := s.ListClothes(t.Context(), f.w.ID, wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: 1}})
			if err != nil || p.Next == "" {
				t.Fatalf("ListClothes = %+v, %v; want a next page", p, err)
			}
			opts := wardrobe.ListQuery{PageOptions: ddbkit.PageOptions{Limit: 1, Cursor: p.Next}}
			for _, o := range same {
				if q, err := o.ListClothes(t.Context(), f.w.ID, opts); err != nil || len(q.Items) != 1 || q.Items[0].ID == p.Items[0].ID {
					t.Fatalf("ListClothes with the secret's cursor = %+v, %v; want the second page", q, err)
				}
			}
			for i, o := range others {
				_, err := o.ListClothes(t.Context(), f.w.ID, opts)
				ddbtest.WantSentinel(t, fmt.Sprintf("ListClothes of store %d with another secret", i), err, ddbkit.ErrInvalidCursor)
			}
		})
	}
}

// TestIdempotencyKeyAcrossRebuilds races AddHistory under an idempotency
// key: another writer's wear lands between its read and its transaction,
// so it reads again and sends a second, different transaction under the
// same token, which goes through, since DynamoDB binds a token only to a
// transaction that commits. A repeat of the call under the key, after the
// commit, replays its history: whatever happened inside the first call, a
// client's retry never adds a second wear.
func TestIdempotencyKeyAcrossRebuilds(t *testing.T) {
	c := ddbtest.Client(t)
	table := legacyTable(t, c)
	fc := ddbtest.NewFaultClient(c)
	s := wardrobe.NewDynamoStore(fc, func(o *wardrobe.Options) { o.TableName, o.Location = table, jst })
	key := ddbkit.WithIdempotencyKey(t.Context(), "wear-request")
	in := wardrobe.NewHistory{Date: "20260105", ClothingIDs: []string{denimID}}
	fc.Before("TransactWriteItems", func() { appWear(t, c, table, lwID, "hs_app_race", "20260104", 1767500000000, "CLOTH", denimID) })
	h, err := s.AddHistory(key, lwID, in)
	if err != nil {
		t.Fatalf("AddHistory under a key, rebuilt after a race: %v", err)
	}
	if again, err := s.AddHistory(key, lwID, in); err != nil || again.ID != h.ID {
		t.Fatalf("AddHistory repeated under its key = %+v, %v; want the first call's %s", again, err, h.ID)
	}
	got, err := s.GetClothing(t.Context(), lwID, denimID)
	if err != nil || got.WearCount != 4 || got.LastWornAt != "20260105" {
		t.Fatalf("denim = %+v, %v; want 2 + the app's wear + one of AddHistory = 4, last on 20260105", got, err)
	}

	// Worse: the rebuilt transaction commits and every response to it is
	// lost, so the call gives up; the client repeats it under the key. Had
	// the rebuild a token of its own, the repeat's first build would reuse
	// the cancelled build's token, free in DynamoDB, and wear the denim a
	// second time.
	s = wardrobe.NewDynamoStore(fc, quickRetry, func(o *wardrobe.Options) { o.TableName, o.Location = table, jst })
	key = ddbkit.WithIdempotencyKey(t.Context(), "wear-request-2")
	in.Date = "20260106"
	fc.Before("TransactWriteItems", func() { appWear(t, c, table, lwID, "hs_app_race2", "20260104", 1767500000001, "CLOTH", denimID) })
	fc.Inject("TransactWriteItems", ddbtest.LoseResponse, 1000)
	_, err = s.AddHistory(key, lwID, in)
	fc.Clear()
	ddbtest.WantSentinel(t, "AddHistory rebuilt after a race, every response lost", err, ddbkit.ErrUnavailable)
	if h, err = s.AddHistory(key, lwID, in); err != nil || h.Date != "20260106" {
		t.Fatalf("AddHistory repeated under its key = %+v, %v; want the history the lost call committed", h, err)
	}
	got, err = s.GetClothing(t.Context(), lwID, denimID)
	if err != nil || got.WearCount != 6 || got.LastWornAt != "20260106" {
		t.Fatalf("denim = %+v, %v; want 4 + the app's wear + one of AddHistory = 6, last on 20260106", got, err)
	}
}
