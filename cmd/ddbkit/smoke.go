package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	kit "github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/taskmgmt"
)

// smokeMarker begins every key segment a smoke run makes, so that its
// items are recognisable in a table (and in a stream, a log or a bill).
const smokeMarker = "ddbkit-smoke-"

// smokeDomains are the write-then-read checks, by domain. Each writes
// through the domain's DynamoDB store under keys of r.id alone, reads
// back through every read path, registers how to delete what it wrote
// (onCleanup) and which partitions are its own (owns, ownsKey), and
// returns the first failure; the runner then deletes and verifies.
var smokeDomains = map[string]func(r *smokeRun, tf *tableFlags, tables []string) error{
	"todo":        smokeTodo,
	"wardrobe":    smokeWardrobe,
	"livecomment": smokeLivecomment,
	"taskmgmt":    smokeTaskmgmt,
	"kondate":     smokeKondate,
}

// smoke runs the write-then-read check of a domain against its deployed
// tables.
func smoke(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("smoke", "DOMAIN", stderr)
	var tf tableFlags
	tf.register(fs)
	conn := connFlags(fs)
	timeout := fs.Duration("timeout", 30*time.Second, "how long an eventually consistent read (a GSI's) may take to show a write before the run fails")
	commentShards := fs.Int("comment-shards", 0, fmt.Sprintf("livecomment: the deployment's Options.CommentShards, so that the run writes and reads its comments' layout: 0 or 1 is the seed's layout, 2 to %d a sharded one", livecomment.MaxCommentShards))
	counterShards := fs.Int("counter-shards", 0, fmt.Sprintf("taskmgmt: the deployment's Options.CounterShards, so that the run writes and sums its counters' layout: 0 or 1 is the seed's layout, 2 to %d a sharded one", taskmgmt.MaxCounterShards))
	domain, err := parse(fs, args)
	if err != nil {
		return err
	}
	// Both flags count as the stores do: 0 or 1 is the seed's layout, of
	// every domain, 2 and up a sharded one, of the flag's domain only.
	layout := "" // the report's note of a sharded layout
	for _, l := range []struct {
		flag, domain string
		n, hi        int
	}{
		{"comment-shards", "livecomment", *commentShards, livecomment.MaxCommentShards},
		{"counter-shards", "taskmgmt", *counterShards, taskmgmt.MaxCounterShards},
	} {
		switch {
		case l.n < 0 || l.n > l.hi:
			return usageErr("-%s %d: want 0 or 1 (the seed's layout) or 2 to %d", l.flag, l.n, l.hi)
		case l.n >= 2 && domain != l.domain:
			return usageErr("-%s is %s's layout, not %s's", l.flag, l.domain, domain)
		case l.n >= 2:
			layout = fmt.Sprintf(", -%s %d", l.flag, l.n)
		}
	}
	defs, err := tf.definitions(domain)
	if err != nil {
		return err
	}
	check := smokeDomains[domain] // definitions knows the domain
	if *timeout <= 0 {
		return usageErr("-timeout %v: want a positive duration", *timeout)
	}
	c, err := conn(ctx)
	if err != nil {
		return err
	}
	tables := make([]string, len(defs))
	for i, d := range defs {
		tables[i] = d.Name()
		if err := tableActive(ctx, c, domain, d.Name()); err != nil {
			return err
		}
	}
	r, err := newSmokeRun(ctx, c, *timeout)
	if err != nil {
		return err
	}
	r.commentShards, r.counterShards = *commentShards, *counterShards
	if err := r.run(domain, func() error { return check(r, &tf, tables) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "smoke %s: ok (partition %s, tables %s%s)\n", domain, r.id, strings.Join(tables, ", "), layout)
	fmt.Fprintf(stdout, "  wrote %d: %s\n", len(r.wrote), strings.Join(r.wrote, "; "))
	fmt.Fprintf(stdout, "  read %d paths: %s\n", len(r.reads), strings.Join(r.reads, "; "))
	fmt.Fprintf(stdout, "  deleted: %d through the store, %d more by key; verified gone, strongly consistent: %d partitions, %d items of shared partitions\n",
		r.deleted, r.swept, len(r.own), len(r.ownKeys))
	return nil
}

// tableActive fails unless the table exists and serves requests: smoke
// never creates or changes a table.
func tableActive(ctx context.Context, c *dynamodb.Client, domain, name string) error {
	out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		return fmt.Errorf("smoke %s: table %s does not exist; create it with ddbkit ensure (smoke never creates or changes tables)", domain, name)
	}
	if err != nil {
		return fmt.Errorf("smoke %s: describe table %s: %w", domain, name, err)
	}
	// UPDATING serves reads and writes: a stack may be adding an index.
	if s := out.Table.TableStatus; s != types.TableStatusActive && s != types.TableStatusUpdating {
		return fmt.Errorf("smoke %s: table %s is %s, not ACTIVE", domain, name, s)
	}
	return nil
}

// smokeClient is what a smoke run calls: the stores' client, and
// DescribeTable for the key schema of the sweep.
type smokeClient interface {
	kit.Client
	DescribeTable(ctx context.Context, params *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
}

// smokeRun is one run's state: its ID, what it did, and what it must undo.
type smokeRun struct {
	ctx     context.Context
	c       smokeClient
	id      string // smokeMarker + 16 random hex digits
	timeout time.Duration
	seq     int

	commentShards, counterShards int // the deployment's layout (-comment-shards, -counter-shards)

	wrote   []string    // the writes, in order
	reads   []string    // the read paths checked, in order
	cleanup []smokeStep // undone last first
	own     []smokePart // partitions only this run writes
	ownKeys []smokeKey  // single items in partitions others share
	deleted int         // cleanups run
	swept   int         // items deleted by key
}

type smokeStep struct {
	what string
	fn   func(ctx context.Context) error
}

// smokePart is a partition of a base table: every item whose hash key
// attribute is value.
type smokePart struct {
	table, attr, value string
}

// smokeKey is one item's key.
type smokeKey struct {
	table string
	key   map[string]types.AttributeValue
}

func newSmokeRun(ctx context.Context, c smokeClient, timeout time.Duration) (*smokeRun, error) {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return &smokeRun{ctx: ctx, c: c, id: smokeMarker + hex.EncodeToString(b), timeout: timeout}, nil
}

// newID returns a fresh ID of this run, for the stores' NewID options.
// The counter is padded so that the IDs sort in the order they were made.
func (r *smokeRun) newID() string {
	r.seq++
	return fmt.Sprintf("%s-%03d", r.id, r.seq)
}

// peekID returns the ID newID returns next, so that a partition is known
// as the run's before the write that makes it.
func (r *smokeRun) peekID() string { return fmt.Sprintf("%s-%03d", r.id, r.seq+1) }

// madeAs fails unless the store gave what it made the ID peekID
// foretold, under which the run registered its partitions.
func madeAs(what, got, want string, err error) error {
	if err == nil && got != want {
		err = fmt.Errorf("the store made %s ID %q, not %q (NewID's next)", what, got, want)
	}
	return err
}

// run runs check, then, whatever it returned, the cleanups, the sweep of
// the run's own partitions and the check that nothing of the run is left.
// The cleanup runs on a context that the caller's cancellation does not
// end, so an interrupted run still removes what it wrote.
func (r *smokeRun) run(domain string, check func() error) error {
	err := check()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.ctx), r.timeout+time.Minute)
	defer cancel()
	errs := []error{err}
	for _, s := range slices.Backward(r.cleanup) {
		if err := s.fn(ctx); err != nil {
			errs = append(errs, fmt.Errorf("delete %s: %w", s.what, err))
		} else {
			r.deleted++
		}
	}
	if err := r.sweep(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := r.verifyGone(ctx); err != nil {
		errs = append(errs, err)
	}
	// One line, each failure after a "; ", every one still matchable.
	var all error
	for _, err := range errs {
		switch {
		case err == nil:
		case all == nil:
			all = err
		default:
			all = fmt.Errorf("%w; %w", all, err)
		}
	}
	if all != nil {
		return fmt.Errorf("smoke %s (partition %s): %w", domain, r.id, all)
	}
	return nil
}

// checkOwn refuses a key that is not the run's: a guard between a bug in
// a domain's check and someone else's data. (partitionKeys checks again.)
func (r *smokeRun) checkOwn(value string) {
	if !strings.Contains(value, r.id) {
		panic(fmt.Sprintf("smoke: key %q is not the run's (%s)", value, r.id))
	}
}

// owns declares that only this run writes partition attr=value of table.
func (r *smokeRun) owns(table, attr, value string) {
	r.checkOwn(value)
	r.own = append(r.own, smokePart{table, attr, value})
}

// ownsKey declares the one item of a shared partition that this run
// writes: named declares which key value makes it the run's.
func (r *smokeRun) ownsKey(table string, named string, key map[string]types.AttributeValue) {
	r.checkOwn(named)
	r.ownKeys = append(r.ownKeys, smokeKey{table, key})
}

// onCleanup registers the deletion of what a write just wrote.
func (r *smokeRun) onCleanup(what string, fn func(ctx context.Context) error) {
	r.cleanup = append(r.cleanup, smokeStep{what, fn})
}

// write runs one write through the store.
func (r *smokeRun) write(what string, fn func() error) error {
	if err := fn(); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	r.wrote = append(r.wrote, what)
	return nil
}

// smokeWrite is one write through the store.
type smokeWrite struct {
	what string
	fn   func() error
}

// writeAll runs the writes in order and returns the first failure; a
// write may use what the ones before it returned.
func (r *smokeRun) writeAll(writes ...smokeWrite) error {
	for _, w := range writes {
		if err := r.write(w.what, w.fn); err != nil {
			return err
		}
	}
	return nil
}

// errNotYet marks a read that does not (yet) show what was written.
var errNotYet = errors.New("not as written")

func notYet(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), errNotYet)
}

// smokeRead is one read path: fn fails unless it reads what was written.
type smokeRead struct {
	what string
	gsi  bool // eventually consistent: polled for up to -timeout
	fn   func() error
}

// readAll runs the reads in order and returns the first failure.
func (r *smokeRun) readAll(reads ...smokeRead) error {
	for _, rd := range reads {
		read := r.read
		if rd.gsi {
			read = r.eventually
		}
		if err := read(rd.what, rd.fn); err != nil {
			return err
		}
	}
	return nil
}

// errUnchecked marks a read that could not be checked within its bound
// of work: the report says so, and the run goes on.
var errUnchecked = errors.New("not checked")

// read runs a strongly consistent read once: it sees every write before it.
func (r *smokeRun) read(what string, fn func() error) error {
	err := fn()
	if errors.Is(err, errUnchecked) {
		r.reads = append(r.reads, fmt.Sprintf("%s (%v)", what, err))
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", what, err)
	}
	r.reads = append(r.reads, what)
	return nil
}

// eventually runs an eventually consistent read (a GSI's) until it shows
// what was written, polling with backoff for at most r.timeout. A read
// that fails for another reason than errNotYet or kit.ErrNotFound (an
// index missing, access denied) fails at once.
func (r *smokeRun) eventually(what string, fn func() error) error {
	start := time.Now()
	wait := 50 * time.Millisecond
	for {
		err := fn()
		if err == nil {
			r.reads = append(r.reads, fmt.Sprintf("%s (%v)", what, time.Since(start).Round(time.Millisecond)))
			return nil
		}
		if !errors.Is(err, errNotYet) && !errors.Is(err, kit.ErrNotFound) {
			return fmt.Errorf("read %s: %w", what, err)
		}
		if time.Since(start)+wait > r.timeout {
			return fmt.Errorf("read %s: still not as written after %v (-timeout): %w", what, r.timeout, err)
		}
		select {
		case <-r.ctx.Done():
			return fmt.Errorf("read %s: %w", what, r.ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// sweep deletes, by key, every item left in the run's own partitions
// and its items of shared partitions: the items a domain has no delete
// operation for, and any a failed run left behind.
func (r *smokeRun) sweep(ctx context.Context) error {
	left := slices.Clone(r.ownKeys)
	for _, p := range r.own {
		keys, err := r.partitionKeys(ctx, p)
		if err != nil {
			return err
		}
		for _, k := range keys {
			left = append(left, smokeKey{p.table, k})
		}
	}
	for _, k := range left {
		out, err := r.c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(k.table), Key: k.key, ReturnValues: types.ReturnValueAllOld})
		if err != nil {
			return fmt.Errorf("delete item %s of %s: %w", keyString(k.key), k.table, err)
		}
		if out.Attributes != nil {
			r.swept++
		}
	}
	return nil
}

// verifyGone checks, strongly consistent, that the run left nothing.
func (r *smokeRun) verifyGone(ctx context.Context) error {
	var left []string
	for _, p := range r.own {
		keys, err := r.partitionKeys(ctx, p)
		if err != nil {
			return err
		}
		if len(keys) > 0 {
			left = append(left, fmt.Sprintf("%d items in partition %s=%s of %s", len(keys), p.attr, p.value, p.table))
		}
	}
	for _, k := range r.ownKeys {
		out, err := r.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(k.table), Key: k.key, ConsistentRead: aws.Bool(true)})
		if err != nil {
			return fmt.Errorf("verify deleted: %w", err)
		}
		if out.Item != nil {
			left = append(left, fmt.Sprintf("item %v of %s", keyString(k.key), k.table))
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("left behind: %s", strings.Join(left, ", "))
	}
	return nil
}

// partitionKeys returns the keys of every item of partition p, read
// strongly consistent, a page at a time.
func (r *smokeRun) partitionKeys(ctx context.Context, p smokePart) ([]map[string]types.AttributeValue, error) {
	if !strings.Contains(p.value, r.id) {
		return nil, fmt.Errorf("partition %s=%s of %s is not the run's", p.attr, p.value, p.table)
	}
	d, err := r.keySchema(ctx, p.table)
	if err != nil {
		return nil, err
	}
	var keys []map[string]types.AttributeValue
	var start map[string]types.AttributeValue
	for {
		out, err := r.c.Query(ctx, &dynamodb.QueryInput{
			TableName:                 aws.String(p.table),
			KeyConditionExpression:    aws.String("#k = :v"),
			ExpressionAttributeNames:  map[string]string{"#k": p.attr},
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: p.value}},
			ConsistentRead:            aws.Bool(true),
			ExclusiveStartKey:         start,
		})
		if err != nil {
			return nil, fmt.Errorf("query partition %s=%s of %s: %w", p.attr, p.value, p.table, err)
		}
		for _, it := range out.Items {
			k := map[string]types.AttributeValue{}
			for _, a := range d {
				k[a] = it[a]
			}
			keys = append(keys, k)
		}
		if start = out.LastEvaluatedKey; len(start) == 0 {
			return keys, nil
		}
	}
}

// keySchema returns the names of a table's key attributes.
func (r *smokeRun) keySchema(ctx context.Context, table string) ([]string, error) {
	out, err := r.c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return nil, fmt.Errorf("describe table %s: %w", table, err)
	}
	var names []string
	for _, k := range out.Table.KeySchema {
		names = append(names, aws.ToString(k.AttributeName))
	}
	return names, nil
}

func keyString(k map[string]types.AttributeValue) string {
	var parts []string
	for _, a := range slices.Sorted(maps.Keys(k)) {
		if s, ok := k[a].(*types.AttributeValueMemberS); ok {
			parts = append(parts, a+"="+s.Value)
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// smokeMaxPages bounds a walk of a listing of the run's own partition,
// which holds a few items: a cursor that never ends is a failure.
const smokeMaxPages = 20

// listIDs walks a listing of the run's own partition two items a page, so
// that its cursors are used too, and returns the IDs of its items in the
// listing's order. A stored item the listing could not decode fails it.
func listIDs[T any](list func(kit.PageOptions) (kit.Page[T], error), id func(T) string) ([]string, error) {
	var ids []string
	opts := kit.PageOptions{Limit: 2}
	for range smokeMaxPages {
		p, err := list(opts)
		if err != nil {
			return nil, err
		}
		if len(p.Skipped) > 0 {
			return nil, fmt.Errorf("%d items could not be decoded: %w", len(p.Skipped), p.Skipped[0])
		}
		for _, it := range p.Items {
			ids = append(ids, id(it))
		}
		if p.Next == "" {
			return ids, nil
		}
		opts.Cursor = p.Next
	}
	return nil, fmt.Errorf("more than %d pages of 2 items; wrote fewer", smokeMaxPages)
}

// listRead is the read of a listing of the run's own partition that must
// list exactly want, in want's order.
func listRead[T any](what string, gsi bool, list func(kit.PageOptions) (kit.Page[T], error), id func(T) string, want ...string) smokeRead {
	return smokeRead{what, gsi, func() error {
		ids, err := listIDs(list, id)
		return sameIDs(ids, err, want...)
	}}
}

// getRead is the read of one item: get returns the field that must be
// want.
func getRead[T comparable](what string, gsi bool, get func() (T, error), want T) smokeRead {
	return smokeRead{what, gsi, func() error {
		got, err := get()
		if err != nil {
			return err
		}
		return same(what, got, want)
	}}
}

// sameIDs fails unless got is want, in want's order.
func sameIDs(got []string, err error, want ...string) error {
	if err != nil {
		return err
	}
	if !slices.Equal(got, want) {
		return notYet("listed %v, want %v", got, want)
	}
	return nil
}

// same fails unless got equals want: a field read back as written.
func same[T comparable](field string, got, want T) error {
	if got != want {
		return notYet("%s is %v, want %v", field, got, want)
	}
	return nil
}

// sortedIDs returns ids in byte order, as DynamoDB sorts String keys.
func sortedIDs(ids []string) []string { return slices.Sorted(slices.Values(ids)) }
