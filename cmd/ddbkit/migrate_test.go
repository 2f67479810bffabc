package main

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/kondate"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// appSaves are the users whose saves of r_01 appTable writes as the
// seed's app does: without GSI1 keys.
var appSaves = []string{"u_02", "u_03", "u_04", "u_05", "u_06"}

// appTable is a table holding r_01's catalog item, saved six times (the
// app's five saves and one ddbkit wrote, with its keys), and items the
// migration must leave alone: ddbkit's save, a recipe, and a save of no
// kind of the design.
func appTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	table := ddbtest.NewTable(t, c, kondate.CreateTableInput("migrate"))
	items := []map[string]types.AttributeValue{
		{"PK": s("CATALOG#RECIPE"), "SK": s("CREATED#2026-02-09T10:00:00Z#r_01"),
			"GSI1PK": s("ENTITY#RECIPE#r_01"), "GSI1SK": s("PUBLIC#"), "GSI2PK": s("CATALOG#RECIPE"),
			"GSI2SK": s("SORT#NEWEST#2026-02-09T10:00:00Z#r_01"), "creatorId": s("u_01"), "title": s("麻婆豆腐"),
			"savedCount": &types.AttributeValueMemberN{Value: "6"}},
		{"PK": s("USER#u_07"), "SK": s("SAVED#RECIPE#r_01"), "GSI1PK": s("ENTITY#RECIPE#r_01"), "GSI1SK": s("SAVED#u_07"), "title": s("麻婆豆腐")},
		{"PK": s("USER#u_01"), "SK": s("RECIPE#r_01"), "GSI1PK": s("ENTITY#RECIPE#r_01"), "GSI1SK": s("OWNER#u_01"), "title": s("麻婆豆腐")},
		{"PK": s("USER#u_08"), "SK": s("SAVED#NOTE#n_01"), "title": s("?")},
	}
	for _, u := range appSaves {
		items = append(items, map[string]types.AttributeValue{"PK": s("USER#" + u), "SK": s("SAVED#RECIPE#r_01"), "title": s("麻婆豆腐")})
	}
	for _, item := range items {
		if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	return table
}

// gsi1SK returns the GSI1SK of the item at pk, sk, "" if it has none.
func gsi1SK(t *testing.T, c *dynamodb.Client, table, pk, sk string) string {
	t.Helper()
	out, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := out.Item["GSI1SK"].(*types.AttributeValueMemberS)
	if v == nil {
		return ""
	}
	return v.Value
}

func wantIndexed(t *testing.T, c *dynamodb.Client, table string) {
	t.Helper()
	for _, u := range appSaves {
		if got := gsi1SK(t, c, table, "USER#"+u, "SAVED#RECIPE#r_01"); got != "SAVED#"+u {
			t.Fatalf("%s's save: GSI1SK %q, want SAVED#%s", u, got, u)
		}
	}
	if got := gsi1SK(t, c, table, "USER#u_08", "SAVED#NOTE#n_01"); got != "" {
		t.Fatalf("a save of no kind of the design got GSI1SK %q", got)
	}
}

// TestMigrateKondateSaves: ddbkit migrate kondate-saves gives the app's
// saves their GSI1 keys, page by page, leaving other items alone; a
// recount with Options.SavesIndexed then counts them and changes nothing.
// Run again, it says it is done; a dry run writes nothing.
func TestMigrateKondateSaves(t *testing.T) {
	ep := ddbtest.Endpoint(t)
	c := ddbtest.Client(t)
	awsEnv(t)
	table := appTable(t, c)
	cpFile := filepath.Join(t.TempDir(), "saves.json")

	code, out, errOut := ddbkit(t, "migrate", "-endpoint", ep, "-table", table, "-dry-run", "kondate-saves")
	if code != 0 || !strings.Contains(out, "indexed 5, skipped 1") || !strings.Contains(out, "nothing written") {
		t.Fatalf("migrate -dry-run = %d, %q, %q; want 5 to index, 1 skipped", code, out, errOut)
	}
	if got := gsi1SK(t, c, table, "USER#u_02", "SAVED#RECIPE#r_01"); got != "" {
		t.Fatalf("the dry run wrote GSI1SK %q", got)
	}

	args := []string{"migrate", "-endpoint", ep, "-table", table, "-checkpoint", cpFile, "-page", "3", "-rate", "1000", "kondate-saves"}
	code, out, errOut = ddbkit(t, args...)
	if code != 0 || !strings.Contains(out, "done (") || !strings.Contains(out, "indexed 5, skipped 1") {
		t.Fatalf("migrate = %d, %q, %q; want done, 5 indexed, 1 skipped", code, out, errOut)
	}
	wantIndexed(t, c, table)
	cp, err := readCheckpoint(cpFile)
	if err != nil || cp == nil || !cp.Done || cp.Indexed != 5 || cp.Table != table {
		t.Fatalf("checkpoint = %+v, %v; want done, 5 indexed", cp, err)
	}
	s := kondate.NewDynamoStore(c, func(o *kondate.Options) { o.TableName = table; o.SavesIndexed = true })
	if rep, err := s.RecalculatePopularity(t.Context(), kondate.KindRecipe); err != nil || len(rep.Drifts) != 0 {
		t.Fatalf("RecalculatePopularity after the migration = %+v, %v; want no drift (6 saves, 6 counted)", rep, err)
	}
	code, out, _ = ddbkit(t, args...)
	if code != 0 || !strings.Contains(out, "done already") {
		t.Fatalf("migrate again = %d, %q; want done already", code, out)
	}
}

// failingUpdates fails every UpdateItem after the first ok.
type failingUpdates struct {
	migrateClient
	ok, n atomic.Int32
}

var errInjected = errors.New("injected 500")

func (f *failingUpdates) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if f.n.Add(1) > f.ok.Load() {
		return nil, errInjected
	}
	return f.migrateClient.UpdateItem(ctx, in, optFns...)
}

// TestMigrateResumes: a run that fails part way keeps the checkpoint of
// the pages it finished; the next run goes on from there and finishes,
// and a save unsaved meanwhile is skipped, not written back.
func TestMigrateResumes(t *testing.T) {
	c := ddbtest.Client(t)
	table := appTable(t, c)
	cfg := migrateConfig{table: table, checkpoint: filepath.Join(t.TempDir(), "cp.json"), rate: 1000, scanRate: 1e6, page: 3}
	f := &failingUpdates{migrateClient: c}
	f.ok.Store(3)
	var out strings.Builder
	err := migrateSaves(t.Context(), f, cfg, &out)
	if !errors.Is(err, errInjected) || !strings.Contains(err.Error(), "run again to resume") {
		t.Fatalf("migrateSaves with failing updates = %v; want the injected error", err)
	}
	cp, err := readCheckpoint(cfg.checkpoint)
	if err != nil || cp == nil || cp.Done || cp.After == nil {
		t.Fatalf("checkpoint after the failure = %+v, %v; want a position, not done", cp, err)
	}
	// Unsaved meanwhile: an item the rerun would reach.
	var left []string
	for _, u := range appSaves {
		if gsi1SK(t, c, table, "USER#"+u, "SAVED#RECIPE#r_01") == "" {
			left = append(left, u)
		}
	}
	if len(left) == 0 || len(left) == len(appSaves) {
		t.Fatalf("after the failure %v are left unindexed; want some, not all", left)
	}
	if _, err := c.DeleteItem(t.Context(), &dynamodb.DeleteItemInput{TableName: aws.String(table),
		Key: map[string]types.AttributeValue{"PK": s("USER#" + left[0]), "SK": s("SAVED#RECIPE#r_01")}}); err != nil {
		t.Fatal(err)
	}
	if ok, err := indexSave(t.Context(), c, table, "USER#"+left[0], "SAVED#RECIPE#r_01", "ENTITY#RECIPE#r_01", "SAVED#"+left[0]); ok || err != nil {
		t.Fatalf("indexSave of a save gone = %v, %v; want false, nil (not written back)", ok, err)
	}
	out.Reset()
	if err := migrateSaves(t.Context(), c, cfg, &out); err != nil {
		t.Fatalf("the resumed run: %v", err)
	}
	done, err := readCheckpoint(cfg.checkpoint)
	if err != nil || !done.Done || done.Scanned <= cp.Scanned {
		t.Fatalf("checkpoint after the resumed run = %+v, %v; want done, going on from %+v", done, err, cp)
	}
	for _, u := range appSaves {
		got := gsi1SK(t, c, table, "USER#"+u, "SAVED#RECIPE#r_01")
		if want := "SAVED#" + u; u != left[0] && got != want {
			t.Fatalf("%s's save: GSI1SK %q, want %s", u, got, want)
		}
	}
	out2, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": s("USER#" + left[0]), "SK": s("SAVED#RECIPE#r_01")}})
	if err != nil || out2.Item != nil {
		t.Fatalf("the save deleted meanwhile = %v, %v; want still gone", out2.Item, err)
	}
}

// TestMigrateUsage: the migration's name and the checkpoint are required,
// and a checkpoint of another table is refused.
func TestMigrateUsage(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.json")
	if err := writeCheckpoint(other, checkpoint{Migration: "kondate-saves", Table: "Other"}); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"migrate", "kondate-saves"},
		{"migrate", "-checkpoint", filepath.Join(dir, "x"), "nope"},
		{"migrate", "-checkpoint", filepath.Join(dir, "x"), "-rate", "0", "kondate-saves"},
		{"migrate", "-checkpoint", filepath.Join(dir, "x")},
	} {
		if code, _, errOut := ddbkit(t, args...); code != 2 {
			t.Errorf("ddbkit %v = %d, %q; want usage error 2", args, code, errOut)
		}
	}
	err := migrateSaves(t.Context(), nil, migrateConfig{table: "MainTable", checkpoint: other, rate: 1, scanRate: 1, page: 1}, &strings.Builder{})
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "Other") {
		t.Fatalf("a checkpoint of another table: %v; want a usage error naming it", err)
	}
	if !slices.Contains(strings.Fields(usage), "migrate") {
		t.Fatalf("the usage does not list migrate")
	}
}

// TestPacer: a pacer at 200 per second lets 20 units through in no less
// than the ~0.1 s they are due in (the first at once), and stops waiting
// when the context ends.
func TestPacer(t *testing.T) {
	p := newPacer(200)
	start := time.Now()
	for range 20 {
		if err := p.wait(t.Context(), 1); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took < 90*time.Millisecond {
		t.Fatalf("20 units at 200/s took %v, want at least 90ms", took)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	slow := newPacer(0.001)
	slow.wait(ctx, 1) // the first is due at once
	if err := slow.wait(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("wait under an ended context = %v, want context.Canceled", err)
	}
}
