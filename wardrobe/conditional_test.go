package wardrobe_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// TestConditionalUpdateBound fails every UpdateItem with a 5xx: DeleteX,
// RestoreX and a RecalculateStats repair, each one UpdateItem conditioned
// on values, make at most MaxAttempts UpdateItem calls and fail with
// ErrUnavailable (no resend loop around the backend's own retries), and
// write nothing.
func TestConditionalUpdateBound(t *testing.T) {
	var (
		fc *ddbtest.FaultClient
		cc *ddbtest.CountingClient
	)
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client {
		fc = ddbtest.NewFaultClient(c)
		cc = ddbtest.NewCountingClient(fc)
		return cc
	}, deterministic, quickRetry) // MaxAttempts 3
	ctx := t.Context()
	f := newFixture(t, s)
	w := f.w.ID
	pk, sk := "W#"+w+"#CLOTH", "CLOTH#"+f.cs[0].ID
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table),
		Key:                       map[string]types.AttributeValue{"PK": S(pk), "SK": S(sk)},
		UpdateExpression:          aws.String("SET wearCount = :n"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":n": N(9)}}); err != nil {
		t.Fatal(err)
	}
	before := rawTable(t, c, table)
	for _, op := range []operation{
		{"DeleteClothing", func(ctx context.Context) error { return second(s.DeleteClothing(ctx, w, f.cs[1].ID)) }},
		{"RestoreTemplate", func(ctx context.Context) error { return second(s.RestoreTemplate(ctx, w, f.del.ID)) }},
		{"RecalculateStats", func(ctx context.Context) error { return second(s.RecalculateStats(ctx, w)) }},
	} {
		cc.Reset()
		fc.Inject("UpdateItem", ddbtest.InternalError, 1000)
		err := op.call(ctx)
		fc.Clear()
		ddbtest.WantSentinel(t, op.name+" under constant 5xx", err, ddbkit.ErrUnavailable)
		if n := cc.Counts()["UpdateItem"]; n != 3 {
			t.Errorf("%s made %d UpdateItem calls under constant 5xx, want 3 (MaxAttempts)", op.name, n)
		}
	}
	if after := rawTable(t, c, table); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("items changed under constant 5xx:\n%v\nwas\n%v", after, before)
	}
}

// TestSetStatusUnknownStatus gives a clothing and a template a status
// another writer made up: DeleteX and RestoreX set theirs, with its
// status list, as the DynamoDB store did before both stores shared their
// code (MemoryStore's Import refuses such an item).
func TestSetStatusUnknownStatus(t *testing.T) {
	s, c, table := newDynamo(t, nil, deterministic)
	ctx := t.Context()
	f := newFixture(t, s)
	w := f.w.ID
	archive := func(kind, id string) {
		t.Helper()
		if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table),
			Key:                       map[string]types.AttributeValue{"PK": S("W#" + w + "#" + kind), "SK": S(kind + "#" + id)},
			UpdateExpression:          aws.String("SET #s = :s"),
			ExpressionAttributeNames:  map[string]string{"#s": "status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":s": S("ARCHIVED")}}); err != nil {
			t.Fatal(err)
		}
	}
	archive("CLOTH", f.cs[2].ID)
	ddbtest.WantSentinel(t, "GetClothing(ARCHIVED)", second(s.GetClothing(ctx, w, f.cs[2].ID)), ddbkit.ErrCorruptItem)
	got, err := s.DeleteClothing(ctx, w, f.cs[2].ID)
	if err != nil || got.Status != wardrobe.StatusDeleted || got.DeletedAt.IsZero() {
		t.Fatalf("DeleteClothing(ARCHIVED) = %+v, %v; want it DELETED", got, err)
	}
	if stored, err := s.GetClothing(ctx, w, f.cs[2].ID); err != nil || stored != got {
		t.Fatalf("GetClothing after DeleteClothing(ARCHIVED) = %+v, %v; want %+v", stored, err, got)
	}
	if lpk := rawItem(t, c, table, "W#"+w+"#CLOTH", "CLOTH#"+f.cs[2].ID)["statusListPk"]; renderValue(lpk) != renderValue(S("W#"+w+"#CLOTH#DELETED")) {
		t.Fatalf("statusListPk = %s after DeleteClothing(ARCHIVED)", renderValue(lpk))
	}
	archive("TPL", f.tp.ID)
	tp, err := s.RestoreTemplate(ctx, w, f.tp.ID)
	if err != nil || tp.Status != wardrobe.StatusActive || !tp.DeletedAt.IsZero() {
		t.Fatalf("RestoreTemplate(ARCHIVED) = %+v, %v; want it ACTIVE", tp, err)
	}
	p, err := s.ListTemplates(ctx, w, wardrobe.ListQuery{})
	if err != nil || len(p.Items) != 1 || p.Items[0].ID != f.tp.ID {
		t.Fatalf("ListTemplates after RestoreTemplate(ARCHIVED) = %+v, %v; want the template", p.Items, err)
	}
}

// TestDeleteHistoryCounterWithoutCount takes back a wear whose day's
// counter has no count (damaged data, read as 0): its delete is
// conditional on the counter still having none, so another writer's wear
// counted on it between AP-17's read and its transaction sends it back
// to read again, and the wear is kept, where a delete conditioned on the
// counter's mere existence would have dropped it.
func TestDeleteHistoryCounterWithoutCount(t *testing.T) {
	var fc *ddbtest.FaultClient
	s, c, table := newDynamo(t, func(c ddbkit.Client) ddbkit.Client { fc = ddbtest.NewFaultClient(c); return fc }, deterministic)
	ctx := t.Context()
	wd, err := s.CreateWardrobe(ctx, wardrobe.NewWardrobe{Name: "w"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.AddClothing(ctx, wd.ID, wardrobe.NewClothing{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	h, err := s.AddHistory(ctx, wd.ID, wardrobe.NewHistory{Date: "20260105", ClothingIDs: []string{a.ID}})
	if err != nil {
		t.Fatal(err)
	}
	key := map[string]types.AttributeValue{"PK": S("W#" + wd.ID + "#COUNT#CLOTH#" + a.ID), "SK": S("DATE#20260105")}
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key,
		UpdateExpression: aws.String("REMOVE #c"), ExpressionAttributeNames: map[string]string{"#c": "count"}}); err != nil {
		t.Fatal(err)
	}
	fc.Before("TransactWriteItems", func() {
		if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key,
			UpdateExpression:          aws.String("SET #c = :n"),
			ExpressionAttributeNames:  map[string]string{"#c": "count"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":n": N(2)}}); err != nil {
			t.Error(err)
		}
	})
	if err := s.DeleteHistory(ctx, wd.ID, h.ID); err != nil {
		t.Fatalf("DeleteHistory: %v", err)
	}
	if n := fc.Injected("TransactWriteItems"); n != 1 {
		t.Fatalf("the other writer's wear was not counted before the transaction (%d)", n)
	}
	p, err := s.ListDailyWear(ctx, wd.ID, wardrobe.KindClothing, a.ID, wardrobe.DailyQuery{})
	if err != nil || fmt.Sprint(p.Items) != fmt.Sprint([]wardrobe.DailyWear{{Date: "20260105", Count: 1}}) {
		t.Fatalf("counters after DeleteHistory = %+v, %v; want the other writer's wear kept: 20260105 x1", p.Items, err)
	}
}

// TestMemoryEmulatedThrottling throttles the memory store's calls as
// DynamoDB may: every second one is retried within Options.Retry and the
// operations succeed; every one spends MaxAttempts and fails with
// ErrUnavailable, writing nothing.
func TestMemoryEmulatedThrottling(t *testing.T) {
	throttle := func(every int) func(*wardrobe.Options) {
		return func(o *wardrobe.Options) { o.Emulation.Throttle = ddbkit.ThrottleEvery(every) }
	}
	newFixture(t, wardrobe.NewMemoryStore(deterministic, quickRetry, throttle(2)))

	calls := 0
	s := wardrobe.NewMemoryStore(deterministic, quickRetry, func(o *wardrobe.Options) {
		o.Emulation.Throttle = func(int) bool { calls++; return true }
	})
	_, err := s.CreateWardrobe(t.Context(), wardrobe.NewWardrobe{Name: "w"})
	ddbtest.WantSentinel(t, "CreateWardrobe, every call throttled", err, ddbkit.ErrUnavailable)
	if calls != 3 {
		t.Fatalf("CreateWardrobe made %d calls, every one throttled; want 3 (MaxAttempts)", calls)
	}
	if n := len(s.Export()[wardrobe.DefaultTableName]); n != 0 {
		t.Fatalf("%d items after a throttled CreateWardrobe, want none", n)
	}
}
