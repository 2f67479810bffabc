// Package iamrec records the IAM grants of a domain's store methods: a
// ddbkit.Client that notes each call's actions, tables and indexes against
// the store method that made it, and a check that keeps the domain's
// iam.json equal to what its conformance suite recorded (package iam).
package iamrec

import (
	"context"
	"flag"
	"maps"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/iam"
)

// Recorder notes the grants of the calls it passes to the client it wraps
// (see Wrap).
type Recorder struct {
	pkg     string // the domain's import path, as in function names
	methods map[string]bool
	role    func(table string) (string, bool)

	mu    sync.Mutex
	seen  map[string]map[key]bool // method -> grant -> conditional
	parts int                     // the tests of Part that have ended
}

type key struct{ action, table, index string }

// New returns a recorder of the methods of the interfaces ifaces of the
// package pkg (such as "github.com/ddbkit/ddbkit/livecomment"); role maps
// a table's name to its role in the domain (iam.Grant.Table), false for a
// table that is not the domain's.
func New(pkg string, role func(table string) (string, bool), ifaces ...reflect.Type) *Recorder {
	r := &Recorder{pkg: pkg, role: role, methods: map[string]bool{}, seen: map[string]map[key]bool{}}
	for _, it := range ifaces {
		for i := range it.NumMethod() {
			r.methods[it.Method(i).Name] = true
		}
	}
	return r
}

// Wrap returns c recording into r.
func (r *Recorder) Wrap(c ddbkit.Client) ddbkit.Client { return &client{Client: c, r: r} }

// method is the outermost store method on the calling goroutine's stack
// (a method of the package's types whose name an interface has), or "".
func (r *Recorder) method() string {
	pcs := make([]uintptr, 128)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	found := ""
	for {
		f, more := frames.Next()
		if rest, ok := strings.CutPrefix(f.Function, r.pkg+"."); ok {
			// (*core).Name, (*DynamoStore).Name, or their closures.
			if i := strings.Index(rest, ")."); i >= 0 {
				name := rest[i+2:]
				if j := strings.IndexAny(name, ".["); j >= 0 {
					name = name[:j]
				}
				if r.methods[name] {
					found = name // keep going: the outermost wins
				}
			}
		}
		if !more {
			return found
		}
	}
}

func (r *Recorder) add(action, table, index string, conditional bool) {
	m := r.method()
	if m == "" {
		return // a test's own setup, or a method no interface has
	}
	role, ok := r.role(table)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen[m] == nil {
		r.seen[m] = map[key]bool{}
	}
	k := key{action, role, index}
	r.seen[m][k] = r.seen[m][k] || conditional
}

// Grants returns what r recorded, as domain's iam.json holds it, with the
// interfaces ifaces (by their names) and the tables' descriptions.
func (r *Recorder) Grants(domain string, tables map[string]string, ifaces ...reflect.Type) iam.Grants {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := iam.Grants{Domain: domain, Tables: tables, Interfaces: map[string][]string{}, Methods: map[string][]iam.Grant{}}
	for _, it := range ifaces {
		var ms []string
		for i := range it.NumMethod() {
			ms = append(ms, it.Method(i).Name)
		}
		g.Interfaces[it.Name()] = ms
	}
	for m, ks := range r.seen {
		ks = withRecords(ks)
		var gs []iam.Grant
		for k, cond := range ks {
			gs = append(gs, iam.Grant{Action: k.action, Table: k.table, Index: k.index, Conditional: cond})
		}
		g.Methods[m] = iam.Sort(gs)
	}
	return g
}

// withRecords returns ks with what a write method needs under a caller's
// idempotency key (internal/backend's Keyed), which the suites exercise
// for some methods only: for each table the method writes, GetItem to
// read the key's record and a conditional PutItem to write it.
func withRecords(ks map[key]bool) map[key]bool {
	out := maps.Clone(ks)
	for k := range ks {
		switch k.action {
		case prefix + "PutItem", prefix + "UpdateItem", prefix + "DeleteItem", prefix + "BatchWriteItem":
			if k.index == "" {
				get := key{prefix + "GetItem", k.table, ""}
				out[get] = out[get] || false
				out[key{prefix + "PutItem", k.table, ""}] = true
			}
		}
	}
	return out
}

// Check compares what r recorded with the domain's iam.json at path: every
// method of ifaces must have been exercised, and the file must hold
// exactly what was recorded. With DDBKIT_UPDATE_IAM=1 it writes the file
// instead.
func (r *Recorder) Check(t *testing.T, path, domain string, tables map[string]string, ifaces ...reflect.Type) {
	t.Helper()
	g := r.Grants(domain, tables, ifaces...)
	var missing []string
	for m := range r.methods {
		if len(g.Methods[m]) == 0 {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Errorf("iam: the conformance suite made no DynamoDB call from %v: its grants are unknown; exercise them", missing)
	}
	b, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("DDBKIT_UPDATE_IAM") == "1" {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("iam: %v (run the test with DDBKIT_UPDATE_IAM=1 to write it)", err)
	}
	if string(have) != string(b) {
		t.Errorf("iam: %s differs from the grants the conformance suite recorded; rerun with DDBKIT_UPDATE_IAM=1 and review the diff. Recorded:\n%s", path, b)
	}
}

// Part makes test t one of the n tests whose calls r records: when the
// last of them ends, Check runs on its t. A -run filter that leaves one
// out leaves the file unchecked, since its grants would be missing; so
// do a -run pattern that picks subtests, and a run without DynamoDB
// Local, which records nothing.
func (r *Recorder) Part(t *testing.T, n int, path, domain string, tables map[string]string, ifaces ...reflect.Type) {
	t.Cleanup(func() {
		r.mu.Lock()
		r.parts++
		last := r.parts == n
		recorded := len(r.seen) > 0
		r.mu.Unlock()
		// Nothing recorded: the suites were skipped (no DynamoDB Local
		// without DDBTEST_REQUIRED), which says nothing of the grants.
		// A -run pattern that picks subtests records part of a suite.
		if f := flag.Lookup("test.run"); f != nil && strings.Contains(f.Value.String(), "/") {
			return
		}
		if last && recorded && !t.Failed() && !t.Skipped() {
			r.Check(t, path, domain, tables, ifaces...)
		}
	})
}

// client records each call's grants, then makes it.
type client struct {
	ddbkit.Client
	r *Recorder
}

const prefix = "dynamodb:"

func (c *client) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.r.add(prefix+"GetItem", aws.ToString(in.TableName), "", false)
	return c.Client.GetItem(ctx, in, optFns...)
}

func (c *client) PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.r.add(prefix+"PutItem", aws.ToString(in.TableName), "", in.ConditionExpression != nil)
	return c.Client.PutItem(ctx, in, optFns...)
}

func (c *client) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.r.add(prefix+"UpdateItem", aws.ToString(in.TableName), "", in.ConditionExpression != nil)
	return c.Client.UpdateItem(ctx, in, optFns...)
}

func (c *client) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.r.add(prefix+"DeleteItem", aws.ToString(in.TableName), "", in.ConditionExpression != nil)
	return c.Client.DeleteItem(ctx, in, optFns...)
}

func (c *client) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.r.add(prefix+"Query", aws.ToString(in.TableName), aws.ToString(in.IndexName), false)
	return c.Client.Query(ctx, in, optFns...)
}

func (c *client) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	for t := range in.RequestItems {
		c.r.add(prefix+"BatchGetItem", t, "", false)
	}
	return c.Client.BatchGetItem(ctx, in, optFns...)
}

func (c *client) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	for t := range in.RequestItems {
		c.r.add(prefix+"BatchWriteItem", t, "", false)
	}
	return c.Client.BatchWriteItem(ctx, in, optFns...)
}

// TransactWriteItems needs, in IAM, each item's own action on its table.
func (c *client) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	for _, it := range in.TransactItems {
		switch {
		case it.Put != nil:
			c.r.add(prefix+"PutItem", aws.ToString(it.Put.TableName), "", it.Put.ConditionExpression != nil)
		case it.Update != nil:
			c.r.add(prefix+"UpdateItem", aws.ToString(it.Update.TableName), "", it.Update.ConditionExpression != nil)
		case it.Delete != nil:
			c.r.add(prefix+"DeleteItem", aws.ToString(it.Delete.TableName), "", it.Delete.ConditionExpression != nil)
		case it.ConditionCheck != nil:
			c.r.add(prefix+"ConditionCheckItem", aws.ToString(it.ConditionCheck.TableName), "", true)
		}
	}
	return c.Client.TransactWriteItems(ctx, in, optFns...)
}

// TransactGetItems needs dynamodb:GetItem on each item's table.
func (c *client) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	for _, it := range in.TransactItems {
		if it.Get != nil {
			c.r.add(prefix+"GetItem", aws.ToString(it.Get.TableName), "", false)
		}
	}
	return c.Client.TransactGetItems(ctx, in, optFns...)
}
