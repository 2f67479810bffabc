package taskmgmt

import (
	"context"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"strconv"
	"strings"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// The two stores share every operation (teams.go, tasks.go and
// invitestore.go, over the helpers of this file) and differ only in the
// item backend they hold (package internal/backend): DynamoDB calls for
// DynamoStore, ordered in-memory tables with the same conditions, GSIs
// and TTL for MemoryStore, which also keeps the invitation table's stream
// (see memory.go). Writing each operation once, over primitives whose
// semantics are DynamoDB's, is what keeps the memory store's results,
// errors, order and page boundaries those of the DynamoDB store.

// core is the Store over a backend. DynamoStore and MemoryStore embed it.
type core struct {
	tel *obs.Telemetry
	o   Options
	t   ddb.Table // the task table
	it  ddb.Table // the invitation table
	b   backend.Backend
	// shards is the number of items of each counter (1: the seed's
	// layout), shardsErr the error of an invalid Options.CounterShards,
	// which every counter operation returns.
	shards    int
	shardsErr error
}

// start starts the span of method (package obs) on its table: the
// invitation table for the invitation methods, the task table for the
// rest. Every exported method of core does, first.
func (c *core) start(ctx context.Context, method string) (context.Context, *obs.Op) {
	table := c.o.TableName
	if strings.Contains(method, "Invit") {
		table = c.o.InvitationTableName
	}
	return c.tel.Start(ctx, method, table)
}

func newCore(o Options) *core {
	// The default IDs read the clock the stores read, built here, after
	// NewMemoryStore has put its stream's reader in front of it.
	if o.NewID == nil {
		o.NewID = ddbkit.NewUUIDv7s(o.Clock)
	}
	c := &core{o: o, t: o.table(), it: o.invitationTable(), tel: o.telemetry()}
	c.shards, c.shardsErr = o.counterShards()
	return c
}

// tables are the two tables as the backends serve them: the task table
// with its nine GSIs; the invitation table with TTL on expiresAt, so that
// reads leave out expired invitations (TTL deletes late). The task
// table's TTL (on the daily counters) is left to ListDailyCounts' own
// filter: declared, it would filter, and bound by the filter budget,
// every listing of the task table.
//
// Both backends read the store's clock themselves, equally often (once
// per read of the invitation table; the memory store's token window runs
// on its last reading, see NewMemoryStore), and the operations read it
// the same number of times on both stores, since they are the same code
// (an idempotency record's expiry included): so a step clock gives both
// stores the same times, under idempotency keys too.
func (c *core) tables() []backend.Table {
	return []backend.Table{{Table: c.t, Indexes: indexes}, {Table: c.it, TTL: attrInvExpiresAt}}
}

// clock is one reading of the clock: the instant, and today in Location.
type clock struct {
	now   time.Time
	today Date
}

func (c *core) read() clock {
	now := c.o.Clock()
	return clock{now: now, today: DateOf(now.In(c.o.Location))}
}

func (k itemKey) key() backend.Key { return backend.Key{PK: k.pk, SK: k.sk} }

// scope is the idempotency scope of a write of op on the task table in
// partition pk.
func (c *core) scope(op, pk string) ddb.Scope {
	return ddb.Scope{Table: c.t.Name, Op: op, Partition: pk}
}

// invitationScope is scope on the invitation table.
func (c *core) invitationScope(op, pk string) ddb.Scope {
	return ddb.Scope{Table: c.it.Name, Op: op, Partition: pk}
}

// keying is the backend.Keying of a write method under the caller's
// idempotency key: its record goes to the task table, whatever table the
// method writes first (see the package doc's "Idempotency keys": the
// invitation table's stream then carries invitations only), in sc, the
// scope of the method's own token, with input the method's arguments
// that sc's partition leaves out. replay nil marks a method whose repeat
// is safe by itself (see backend.Keying.Replay). The task table's
// backend.Table declares no TTL, so the record's expiry is expiresAt, the
// attribute TTL acts on in the seed's table.
func keying[T any](c *core, sc ddb.Scope, replay func(context.Context, backend.Key) (T, error), input ...any) backend.Keying[T] {
	return backend.Keying[T]{Backend: c.b, Table: c.t, Scope: sc, Now: c.o.Clock, Input: input, Replay: replay}
}

// keyed runs body, write method op's whole work, under k (backend.Keyed),
// and wraps the errors Keyed returns of its own (a reused key, a failed
// read of the record, a replay's) as body wraps its own, once.
func keyed[T any](ctx context.Context, op string, k backend.Keying[T], body func(context.Context) (T, error)) (T, error) {
	v, err := backend.Keyed(ctx, k, func(ctx context.Context) (T, error) {
		v, err := body(ctx)
		if err != nil {
			return v, &bodyError{err}
		}
		return v, nil
	})
	if e, ok := err.(*bodyError); ok {
		return v, e.err
	}
	return v, wrap(op, err)
}

// bodyError is an error body wrapped already: Keyed returns it as is.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// maxTx is the most items a transaction of the call may hold: one less
// under an idempotency key, whose record rides with the call's first
// transaction (backend.Keyed), whichever batch that is.
func maxTx(ctx context.Context) int {
	if _, keyed := ddb.RequestToken(ctx, ddb.Scope{}); keyed {
		return ddb.MaxTxItems - 1
	}
	return ddb.MaxTxItems
}

// rmw runs a read-modify-write in scope sc (backend.RMW): one retry
// budget, one token for every build.
func (c *core) rmw(ctx context.Context, sc ddb.Scope, fn func(r *backend.Run) error) error {
	return backend.RMW(ctx, c.o.backoff(), sc, fn)
}

// once runs a transaction built without reads: its own retries only.
func (c *core) once(ctx context.Context, sc ddb.Scope, ws []backend.Write) error {
	return c.b.Tx(ctx, backend.NewRun(ctx, sc, c.o.backoff()), ws)
}

// stepRun is the run of one batch of a fan-out (a rename's copies, a
// deleted tag's references), under a fresh random token that no other
// step or call shares (backend.NewStepRun): not the caller's idempotency
// key's token for the operation, since a repeated call writes other items
// (what is still stale) at another time, and a token derived from the
// batch's content would, under a reused key, replay an identical batch
// without writing it after another writer had made those items stale
// again.
func (c *core) stepRun(op, pk string) *backend.Run {
	return backend.NewStepRun(c.scope(op, pk), c.o.backoff())
}

// raced is the error of a condition on values read that failed: the
// read-modify-write builds again.
func raced(what string) error { return backend.Changed("%s changed while being updated", what) }

func (c *core) get(ctx context.Context, k itemKey) (ddb.Item, error) {
	return c.b.Get(ctx, c.t, k.key())
}

// query runs one page of q with the store's filter budget.
func (c *core) query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, f backend.Filter) ([]ddb.Item, string, error) {
	return c.b.Query(ctx, c.budgeted(q), limit, cursor, f)
}

// budgeted is q with the store's filter budget.
func (c *core) budgeted(q ddb.KeyQuery) ddb.KeyQuery {
	q.Budget = c.o.FilterBudget
	q.Filter = ""
	return q
}

// walk runs fn on every item of q that f keeps, page by page (each bounded
// by the filter budget), until fn reports it is done.
func (c *core) walk(ctx context.Context, q ddb.KeyQuery, f backend.Filter, fn func(ddb.Item) (done bool)) error {
	for cursor := ""; ; {
		items, next, err := c.query(ctx, q, ddbkit.MaxPageLimit, cursor, f)
		if err != nil {
			return err
		}
		for _, it := range items {
			if fn(it) {
				return nil
			}
		}
		if next == "" {
			return nil
		}
		cursor = next
	}
}

// listPage runs one page of q and decodes its items (through dec, so that
// a memory store decodes each stored item once), leaving out (and
// reporting in Skipped) those that cannot be decoded.
func listPage[T any](ctx context.Context, c *core, q ddb.KeyQuery, o ddbkit.PageOptions, f backend.Filter, dec *backend.Decoder[T]) (ddbkit.Page[T], error) {
	limit, err := o.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[T]{}, err
	}
	return backend.QueryPage(ctx, c.b, c.budgeted(q), limit, o.Cursor, f, dec, nil)
}

// checkNamed is a name copy's check: the item at k exists and its
// attribute attr holds v, the name as read; a name read as "" (a lenient
// read of a missing one) must still be "" or missing.
func (c *core) checkNamed(label string, k itemKey, attr, v string) backend.Write {
	if v != "" {
		return backend.Check(label, c.t, k.key(), ddb.Item{attr: s(v)})
	}
	return backend.CheckWhen(label, c.t, k.key(), backend.When(backend.And(backend.Equal(AttrPK, s(k.pk)), named(attr, v))))
}

// named is the filter that attr holds name, as a name copy reads it: a
// name read as "" (a lenient read of a missing one, or of the NULL
// another writer stores) must still be "", missing or NULL.
func named(attr, name string) backend.Filter {
	if name != "" {
		return backend.Equal(attr, s(name))
	}
	return backend.Or(backend.Equal(attr, s("")), backend.Missing(attr), backend.Equal(attr, &types.AttributeValueMemberNULL{Value: true}))
}

// teamFailed maps the failed check of the team (labelTeam) in a
// transaction's err: ErrNotFound when the team is gone, a race (retried)
// when it changed since the read; ok is false when that check did not fail.
func teamFailed(err error, teamID string) (error, bool) {
	old, ok := backend.Failed(err, labelTeam)
	if !ok {
		return err, false
	}
	if old == nil {
		return errTeamNotFound(teamID), true
	}
	return raced("team " + strconv.Quote(teamID)), true
}

// Transaction item labels, by which failed conditions are told apart.
const (
	labelUser     = "user"
	labelTeam     = "team"
	labelUserTeam = "user_team"
	labelTeamUser = "team_user"
	labelAdmin    = "other admin"
	labelTag      = "tag"
	labelTask     = "task"
	labelAll      = "COUNTER#ALL"
	labelDay      = "COUNTER#day"
)

// committed is k for a method whose record exists only if its one
// transaction did what it asked (a delete): a repeat answers with the
// first call's success, which a repeat without the key would report as
// ErrNotFound (backend.Keying.Committed).
func committed(k backend.Keying[struct{}]) backend.Keying[struct{}] {
	k.Committed = true
	return k
}

// replayItem reads the item at ref for a replay: notFound when it is gone.
func (c *core) replayItem(ctx context.Context, t ddb.Table, ref backend.Key, notFound error) (ddb.Item, error) {
	item, err := c.b.Get(ctx, t, ref)
	if err == nil && item == nil {
		err = notFound
	}
	return item, err
}
