package wardrobe_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// quickRetry keeps the retries of fault tests short.
func quickRetry(o *wardrobe.Options) {
	o.Retry = ddbkit.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}
}

// clientOps are the calls of ddbkit.Client, for injecting a fault into all.
var clientOps = []string{"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query",
	"BatchGetItem", "BatchWriteItem", "TransactWriteItems", "TransactGetItems"}

// fixture is a wardrobe with clothes, templates and histories to run every
// operation on.
type fixture struct {
	w       wardrobe.Wardrobe
	cs      []wardrobe.Clothing
	tp, del wardrobe.Template
	h       wardrobe.History
}

func newFixture(t *testing.T, s wardrobe.Store) fixture {
	t.Helper()
	ctx := t.Context()
	var f fixture
	var err error
	if f.w, err = s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c, err := s.AddClothing(ctx, f.w.ID, wardrobe.NewClothing{Name: fmt.Sprint("c", i)})
		if err != nil {
			t.Fatal(err)
		}
		f.cs = append(f.cs, c)
	}
	if f.tp, err = s.AddTemplate(ctx, f.w.ID, wardrobe.NewTemplate{Name: "tp", ClothingIDs: []string{f.cs[0].ID, f.cs[1].ID}}); err != nil {
		t.Fatal(err)
	}
	if f.del, err = s.AddTemplate(ctx, f.w.ID, wardrobe.NewTemplate{Name: "del", ClothingIDs: []string{f.cs[2].ID}}); err != nil {
		t.Fatal(err)
	}
	if f.del, err = s.DeleteTemplate(ctx, f.w.ID, f.del.ID); err != nil {
		t.Fatal(err)
	}
	if f.h, err = s.AddHistory(ctx, f.w.ID, wardrobe.NewHistory{Date: "20260104", TemplateID: f.tp.ID, ClothingIDs: f.tp.ClothingIDs}); err != nil {
		t.Fatal(err)
	}
	return f
}

// operation is one call of the Store, by name.
type operation struct {
	name string
	call func(ctx context.Context) error
}

// operations lists every method of the Store on the fixture.
func (f fixture) operations(s wardrobe.Store) []operation {
	e := func(_ any, err error) error { return err }
	w, cs, tp := f.w.ID, f.cs, f.tp
	return []operation{
		{"CreateWardrobe", func(ctx context.Context) error { return e(s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "x"})) }},
		{"GetWardrobe", func(ctx context.Context) error { return e(s.GetWardrobe(ctx, w)) }},
		{"AddClothing", func(ctx context.Context) error { return e(s.AddClothing(ctx, w, wardrobe.NewClothing{Name: "x"})) }},
		{"GetClothing", func(ctx context.Context) error { return e(s.GetClothing(ctx, w, cs[0].ID)) }},
		{"ListClothes", func(ctx context.Context) error { return e(s.ListClothes(ctx, w, wardrobe.ListQuery{})) }},
		{"UpdateClothing", func(ctx context.Context) error {
			return e(s.UpdateClothing(ctx, w, cs[0].ID, wardrobe.ClothingPatch{Name: ptr("x")}))
		}},
		{"DeleteClothing", func(ctx context.Context) error { return e(s.DeleteClothing(ctx, w, cs[2].ID)) }},
		{"RestoreClothing", func(ctx context.Context) error { return e(s.RestoreClothing(ctx, w, cs[2].ID)) }},
		{"AddTemplate", func(ctx context.Context) error {
			return e(s.AddTemplate(ctx, w, wardrobe.NewTemplate{Name: "x", ClothingIDs: []string{cs[0].ID}}))
		}},
		{"GetTemplate", func(ctx context.Context) error { return e(s.GetTemplate(ctx, w, tp.ID)) }},
		{"ListTemplates", func(ctx context.Context) error { return e(s.ListTemplates(ctx, w, wardrobe.ListQuery{})) }},
		{"UpdateTemplate name", func(ctx context.Context) error {
			return e(s.UpdateTemplate(ctx, w, tp.ID, wardrobe.TemplatePatch{Name: ptr("x")}))
		}},
		{"UpdateTemplate clothes", func(ctx context.Context) error {
			return e(s.UpdateTemplate(ctx, w, tp.ID, wardrobe.TemplatePatch{ClothingIDs: []string{cs[2].ID}}))
		}},
		{"DeleteTemplate", func(ctx context.Context) error { return e(s.DeleteTemplate(ctx, w, tp.ID)) }},
		{"RestoreTemplate", func(ctx context.Context) error { return e(s.RestoreTemplate(ctx, w, f.del.ID)) }},
		{"AddHistory", func(ctx context.Context) error {
			return e(s.AddHistory(ctx, w, wardrobe.NewHistory{Date: "20260105", TemplateID: tp.ID, ClothingIDs: []string{cs[0].ID}}))
		}},
		{"GetHistory", func(ctx context.Context) error { return e(s.GetHistory(ctx, w, f.h.ID)) }},
		{"ListHistory", func(ctx context.Context) error { return e(s.ListHistory(ctx, w, wardrobe.HistoryQuery{})) }},
		{"DeleteHistory", func(ctx context.Context) error { return s.DeleteHistory(ctx, w, f.h.ID) }},
		{"ListDailyWear", func(ctx context.Context) error {
			return e(s.ListDailyWear(ctx, w, wardrobe.KindClothing, cs[0].ID, wardrobe.DailyQuery{}))
		}},
		{"RecalculateStats", func(ctx context.Context) error { return e(s.RecalculateStats(ctx, w)) }},
	}
}

// TestErrorContract runs every operation of the DynamoDB store under
// endless throttling, endless 5xx and a cancelled context: each returns
// promptly with an error that matches ErrUnavailable and no other
// sentinel, with the SDK's error (or the context's) still reachable.
func TestErrorContract(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, _, _ := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, quickRetry)
	f := newFixture(t, s)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for _, op := range f.operations(s) {
		for _, fault := range []ddbtest.Fault{ddbtest.Throttle, ddbtest.InternalError} {
			t.Run(op.name+"/endless "+fault.String(), func(t *testing.T) {
				for _, name := range clientOps {
					fc.Inject(name, fault, 1000)
				}
				err := op.call(t.Context())
				fc.Clear()
				ddbtest.WantSentinel(t, op.name, err, ddbkit.ErrUnavailable)
				var api interface{ ErrorCode() string }
				if !errors.As(err, &api) {
					t.Errorf("%s: the SDK's error is not reachable in %v", op.name, err)
				}
			})
		}
		t.Run(op.name+"/cancelled context", func(t *testing.T) {
			err := op.call(cancelled)
			ddbtest.WantSentinel(t, op.name, err, ddbkit.ErrUnavailable)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v does not match context.Canceled", op.name, err)
			}
		})
	}
}

// TestMemoryEndedContextWritesNothing checks the memory store under a
// cancelled context, item by item: the conformance suite compares what
// the access patterns show, this compares the stored items too.
func TestMemoryEndedContextWritesNothing(t *testing.T) {
	s := wardrobe.NewMemoryStore(deterministic)
	f := newFixture(t, s)
	before := dump(t, s, f)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for _, op := range f.operations(s) {
		err := op.call(cancelled)
		ddbtest.WantSentinel(t, op.name, err, ddbkit.ErrUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v does not match context.Canceled", op.name, err)
		}
	}
	if after := dump(t, s, f); !maps.Equal(after, before) {
		t.Fatalf("operations under a cancelled context wrote:\n before %v\n after  %v", before, after)
	}
}

// dump reads the fixture's items through the store.
func dump(t *testing.T, s wardrobe.Store, f fixture) map[string]string {
	t.Helper()
	ctx := t.Context()
	out := map[string]string{}
	show := func(k string, v any, err error) { out[k] = fmt.Sprintf("%+v %v", v, err) }
	w, err := s.GetWardrobe(ctx, f.w.ID)
	show("wardrobe", w, err)
	for _, c := range f.cs {
		got, err := s.GetClothing(ctx, f.w.ID, c.ID)
		show("clothing "+c.ID, got, err)
		p, err := s.ListDailyWear(ctx, f.w.ID, wardrobe.KindClothing, c.ID, wardrobe.DailyQuery{})
		show("daily "+c.ID, p.Items, err)
	}
	for _, tp := range []wardrobe.Template{f.tp, f.del} {
		got, err := s.GetTemplate(ctx, f.w.ID, tp.ID)
		show("template "+tp.ID, got, err)
	}
	for _, st := range []wardrobe.Status{wardrobe.StatusActive, wardrobe.StatusDeleted} {
		cp, err := s.ListClothes(ctx, f.w.ID, wardrobe.ListQuery{Status: st})
		show("clothes "+string(st), cp.Items, err)
		tp, err := s.ListTemplates(ctx, f.w.ID, wardrobe.ListQuery{Status: st})
		show("templates "+string(st), tp.Items, err)
	}
	hp, err := s.ListHistory(ctx, f.w.ID, wardrobe.HistoryQuery{})
	show("histories", hp.Items, err)
	return out
}

// TestLostResponses loses the response of each write's DynamoDB call after
// the call took effect: the operation still succeeds, and what it wrote is
// written exactly once.
func TestLostResponses(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	ctx := t.Context()
	f := newFixture(t, s)
	w := f.w.ID
	lost := map[string]int{} // responses lost so far, by call
	lose := func(op string) { t.Helper(); fc.Inject(op, ddbtest.LoseResponse, 1) }
	fired := func(what, op string) {
		t.Helper()
		lost[op]++
		if n := fc.Injected(op); n != lost[op] {
			t.Fatalf("%s: the lost response on %s did not fire", what, op)
		}
		fc.Clear()
	}

	lose("TransactWriteItems")
	nw, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "lost"})
	if err != nil {
		t.Fatalf("CreateWardrobe after a lost response: %v", err)
	}
	if got, err := s.GetWardrobe(ctx, nw.ID); err != nil || got != nw {
		t.Fatalf("GetWardrobe = %+v, %v; want %+v", got, err, nw)
	}
	fired("CreateWardrobe", "TransactWriteItems")

	lose("TransactWriteItems")
	nc, err := s.AddClothing(ctx, w, wardrobe.NewClothing{Name: "lost"})
	if err != nil {
		t.Fatalf("AddClothing after a lost response: %v", err)
	}
	if got, err := s.GetClothing(ctx, w, nc.ID); err != nil || got != nc {
		t.Fatalf("GetClothing = %+v, %v; want %+v", got, err, nc)
	}
	fired("AddClothing", "TransactWriteItems")

	lose("UpdateItem")
	uc, err := s.UpdateClothing(ctx, w, nc.ID, wardrobe.ClothingPatch{Name: ptr("renamed"), ImageKey: ptr("k.png")})
	if err != nil || uc.Name != "renamed" || uc.ImageKey != "k.png" {
		t.Fatalf("UpdateClothing after a lost response = %+v, %v", uc, err)
	}
	fired("UpdateClothing", "UpdateItem")

	lose("UpdateItem")
	dc, err := s.DeleteClothing(ctx, w, nc.ID)
	if err != nil || dc.Status != wardrobe.StatusDeleted || dc.DeletedAt.IsZero() {
		t.Fatalf("DeleteClothing after a lost response = %+v, %v", dc, err)
	}
	if got, _ := s.GetClothing(ctx, w, nc.ID); got != dc {
		t.Fatalf("GetClothing after DeleteClothing = %+v, want %+v", got, dc)
	}
	fired("DeleteClothing", "UpdateItem")

	lose("UpdateItem")
	rc, err := s.RestoreClothing(ctx, w, nc.ID)
	if err != nil || rc.Status != wardrobe.StatusActive || !rc.DeletedAt.IsZero() {
		t.Fatalf("RestoreClothing after a lost response = %+v, %v", rc, err)
	}
	fired("RestoreClothing", "UpdateItem")

	lose("TransactWriteItems")
	nt, err := s.AddTemplate(ctx, w, wardrobe.NewTemplate{Name: "lost", ClothingIDs: []string{nc.ID}})
	if err != nil {
		t.Fatalf("AddTemplate after a lost response: %v", err)
	}
	fired("AddTemplate", "TransactWriteItems")

	lose("UpdateItem")
	if ut, err := s.UpdateTemplate(ctx, w, nt.ID, wardrobe.TemplatePatch{Name: ptr("renamed")}); err != nil || ut.Name != "renamed" {
		t.Fatalf("UpdateTemplate(name) after a lost response = %+v, %v", ut, err)
	}
	fired("UpdateTemplate(name)", "UpdateItem")

	lose("TransactWriteItems")
	ut, err := s.UpdateTemplate(ctx, w, nt.ID, wardrobe.TemplatePatch{ClothingIDs: []string{f.cs[0].ID, nc.ID}})
	if err != nil {
		t.Fatalf("UpdateTemplate(clothes) after a lost response: %v", err)
	}
	if got, _ := s.GetTemplate(ctx, w, nt.ID); fmt.Sprint(got) != fmt.Sprint(ut) {
		t.Fatalf("GetTemplate = %+v, want %+v", got, ut)
	}
	fired("UpdateTemplate(clothes)", "TransactWriteItems")

	lose("UpdateItem")
	if dt, err := s.DeleteTemplate(ctx, w, nt.ID); err != nil || dt.Status != wardrobe.StatusDeleted {
		t.Fatalf("DeleteTemplate after a lost response = %+v, %v", dt, err)
	}
	fired("DeleteTemplate", "UpdateItem")

	lose("UpdateItem")
	if rt, err := s.RestoreTemplate(ctx, w, nt.ID); err != nil || rt.Status != wardrobe.StatusActive {
		t.Fatalf("RestoreTemplate after a lost response = %+v, %v", rt, err)
	}
	fired("RestoreTemplate", "UpdateItem")

	// AddHistory: one history, one wear per item.
	lose("TransactWriteItems")
	h, err := s.AddHistory(ctx, w, wardrobe.NewHistory{Date: "20260106", TemplateID: nt.ID, ClothingIDs: []string{nc.ID}})
	if err != nil {
		t.Fatalf("AddHistory after a lost response: %v", err)
	}
	fired("AddHistory", "TransactWriteItems")
	wantWear := func(what string, kind wardrobe.Kind, id string, n int, last wardrobe.Date, daily ...wardrobe.DailyWear) {
		t.Helper()
		var count int
		var got wardrobe.Date
		if kind == wardrobe.KindTemplate {
			tp, err := s.GetTemplate(ctx, w, id)
			if err != nil {
				t.Fatal(err)
			}
			count, got = tp.WearCount, tp.LastWornAt
		} else {
			c, err := s.GetClothing(ctx, w, id)
			if err != nil {
				t.Fatal(err)
			}
			count, got = c.WearCount, c.LastWornAt
		}
		p, err := s.ListDailyWear(ctx, w, kind, id, wardrobe.DailyQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if count != n || got != last || fmt.Sprint(p.Items) != fmt.Sprint(daily) {
			t.Fatalf("%s: wearCount %d, last worn %q, counters %v; want %d, %q, %v", what, count, got, p.Items, n, last, daily)
		}
	}
	wantWear("after AddHistory", wardrobe.KindClothing, nc.ID, 1, "20260106", wardrobe.DailyWear{Date: "20260106", Count: 1})
	wantWear("after AddHistory", wardrobe.KindTemplate, nt.ID, 1, "20260106", wardrobe.DailyWear{Date: "20260106", Count: 1})
	if p, err := s.ListHistory(ctx, w, wardrobe.HistoryQuery{From: "20260106", To: "20260106"}); err != nil || len(p.Items) != 1 || p.Items[0].ID != h.ID {
		t.Fatalf("ListHistory = %+v, %v; want the one history", p.Items, err)
	}

	// DeleteHistory: the wear is taken back once.
	if _, err := s.AddHistory(ctx, w, wardrobe.NewHistory{Date: "20260103", ClothingIDs: []string{nc.ID}}); err != nil {
		t.Fatal(err)
	}
	lose("TransactWriteItems")
	if err := s.DeleteHistory(ctx, w, h.ID); err != nil {
		t.Fatalf("DeleteHistory after a lost response: %v", err)
	}
	fired("DeleteHistory", "TransactWriteItems")
	wantWear("after DeleteHistory", wardrobe.KindClothing, nc.ID, 1, "20260103", wardrobe.DailyWear{Date: "20260103", Count: 1})
	wantWear("after DeleteHistory", wardrobe.KindTemplate, nt.ID, 0, "")

	// RecalculateStats: a repair whose response is lost is reported once,
	// and written once (statsVersion moves by one).
	pk, sk := "W#"+w+"#CLOTH", "CLOTH#"+nc.ID
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table),
		Key:                       map[string]types.AttributeValue{"PK": S(pk), "SK": S(sk)},
		UpdateExpression:          aws.String("SET wearCount = :n"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":n": N(9)}})
	if err != nil {
		t.Fatal(err)
	}
	version := rawItem(t, c, table, pk, sk)["statsVersion"].(*types.AttributeValueMemberN).Value
	lose("UpdateItem")
	rep, err := s.RecalculateStats(ctx, w)
	if err != nil || len(rep.Drifts) != 1 || rep.Drifts[0].ID != nc.ID || rep.Drifts[0].WearCountWas != 9 || rep.Drifts[0].WearCount != 1 {
		t.Fatalf("RecalculateStats after a lost response = %+v, %v; want one drift of %s, 9 -> 1", rep, err, nc.ID)
	}
	fired("RecalculateStats", "UpdateItem")
	wantWear("after RecalculateStats", wardrobe.KindClothing, nc.ID, 1, "20260103", wardrobe.DailyWear{Date: "20260103", Count: 1})
	if got := rawItem(t, c, table, pk, sk)["statsVersion"].(*types.AttributeValueMemberN).Value; got != fmt.Sprint(atoi(t, version)+1) {
		t.Fatalf("statsVersion %s after one repair, was %s", got, version)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
