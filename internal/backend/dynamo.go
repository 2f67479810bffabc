package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/obs"
)

// Dynamo is the DynamoDB Backend: one DynamoDB call per primitive (a
// batch: as few as the limits allow), retried within the backoff after
// throttling, 5xx and lost responses, each safe to repeat as documented
// at the call. Its reads of a table are strongly consistent; a Query of
// a GSI is eventually consistent, as DynamoDB's GSIs are.
type Dynamo struct {
	c      ddbkit.Client
	b      ddb.Backoff
	clock  Clock
	tables tables
}

var _ Backend = (*Dynamo)(nil)

// NewDynamo returns the backend on c for ts, retrying within b and
// reading clock for TTL (time.Now when nil). Its calls turn the SDK's own
// retries off (ddb.OneLoop): b is the only retry loop.
func NewDynamo(c ddbkit.Client, b ddb.Backoff, clock Clock, ts ...Table) *Dynamo {
	return &Dynamo{c: ddb.OneLoop(c), b: b, clock: clock, tables: tablesOf(ts)}
}

// retry runs fn, one call, within the retry policy. An ended context is
// reported before any call, as the memory backend reports it: the SDK's
// error would name the call.
func (d *Dynamo) retry(ctx context.Context, fn func() error) error {
	if err := live(ctx); err != nil {
		return err
	}
	return ddb.RetryIf(ctx, d.b, ddb.RetryableWithToken, fn)
}

// visible is item as a read at now sees it: nil when its TTL has passed.
func (d *Dynamo) visible(t ddb.Table, item ddb.Item, now int64) ddb.Item {
	ttl := d.tables.ttl(t.Name)
	if item == nil || ttl == "" || Unexpired(ttl, now).Keeps(item) {
		return item
	}
	return nil
}

// readNow reads the clock for a read of t when, and only when, the memory
// backend does: once per read of a table with a TTL, whatever it finds.
func (d *Dynamo) readNow(t ddb.Table) int64 {
	if d.tables.ttl(t.Name) == "" {
		return 0
	}
	return d.clock.now().Unix()
}

// Get implements Backend.Get.
func (d *Dynamo) Get(ctx context.Context, t ddb.Table, k Key) (item ddb.Item, err error) {
	key := k.Item(t)
	err = d.retry(ctx, func() error {
		item, err = ddb.GetItem(ctx, d.c, t, key)
		return err
	})
	if err != nil {
		return nil, err
	}
	return d.visible(t, item, d.readNow(t)), nil
}

// BatchGet implements Backend.BatchGet: ddb.BatchGet retries failed calls
// and unprocessed keys itself, one retry loop.
func (d *Dynamo) BatchGet(ctx context.Context, t ddb.Table, ks []Key) ([]ddb.Item, error) {
	return d.BatchGetWith(ctx, t, ks, ReadOptions{})
}

// projections holds the prepared projection of each attribute list.
var projections ddb.Shapes[string]

// BatchGetWith implements Backend.BatchGetWith.
func (d *Dynamo) BatchGetWith(ctx context.Context, t ddb.Table, ks []Key, o ReadOptions) ([]ddb.Item, error) {
	if err := checkRead(t, o); err != nil {
		return nil, err
	}
	if err := live(ctx); err != nil {
		return nil, err
	}
	if len(ks) == 0 {
		return nil, nil
	}
	keys := make([]ddb.Item, len(ks))
	for i, k := range ks {
		keys[i] = k.Item(t)
	}
	bo := ddb.BatchGetOptions{ConsistentRead: !o.Eventual, Backoff: d.b, ChunkSize: o.ChunkSize}
	if len(o.Attrs) > 0 {
		bo.Projection = projections.Get(strings.Join(o.Attrs, "\x00"), func() expression.Builder {
			p := expression.NamesList(expression.NameNoDotSplit(o.Attrs[0]))
			for _, a := range o.Attrs[1:] {
				p = p.AddNames(expression.NameNoDotSplit(a))
			}
			return expression.NewBuilder().WithProjection(p)
		})
	}
	out, err := ddb.BatchGet(ctx, d.c, t, keys, bo)
	if err != nil {
		return nil, err
	}
	if ttl := d.tables.ttl(t.Name); ttl != "" {
		now := d.readNow(t)
		for i, item := range out {
			out[i] = d.visible(t, item, now)
		}
	}
	return out, nil
}

// GetEventual implements Backend.GetEventual.
func (d *Dynamo) GetEventual(ctx context.Context, t ddb.Table, k Key) (item ddb.Item, err error) {
	key := k.Item(t)
	err = d.retry(ctx, func() error {
		out, err := d.c.GetItem(ctx, &dynamodb.GetItemInput{TableName: &t.Name, Key: key})
		if err == nil {
			item = out.Item
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return d.visible(t, item, d.readNow(t)), nil
}

// Delete implements Backend.Delete: an unconditional delete is safe to
// repeat.
func (d *Dynamo) Delete(ctx context.Context, t ddb.Table, k Key) error {
	key := k.Item(t)
	return d.retry(ctx, func() error {
		_, err := d.c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &t.Name, Key: key})
		return err
	})
}

// Query implements Backend.Query: ddb.QueryPage retries each Query
// itself, one retry loop.
func (d *Dynamo) Query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, f Filter) ([]ddb.Item, string, error) {
	ttl := d.tables.ttl(q.Table.Name)
	q.Filter = binding(Table{Table: q.Table, TTL: ttl}, f)
	// A bad cursor is reported before an ended context, as the memory
	// backend reports it; under a live context, QueryPage decodes the
	// cursor, once, before any call.
	if err := live(ctx); err != nil {
		if _, cerr := ddb.DecodeCursor(q, cursor); cerr != nil {
			return nil, "", cerr
		}
		return nil, "", err
	}
	if ttl != "" {
		f = And(f, Unexpired(ttl, d.clock.now().Unix()))
	}
	if !f.IsZero() {
		ev := ddb.NewEvaluated(q)
		obs.From(ctx).Budget(ev.Left())
	}
	return ddb.QueryPage(ctx, d.c, d.b, q, limit, cursor, f.ddbFilter())
}

// Create implements Backend.Create: ddb.PutNew sends a one-item
// transaction with the token of s, and succeeds only when this call wrote
// the item: a lost response retried with the same token succeeds, an item
// anyone else wrote (identical or not) fails the condition. PutNew
// retries itself: one retry loop.
func (d *Dynamo) Create(ctx context.Context, s ddb.Scope, t ddb.Table, item ddb.Item) error {
	if recording(ctx) { // with the caller's idempotency record (Keyed)
		return d.Tx(ctx, NewRun(ctx, s, d.b), []Write{PutNew("", t, item)})
	}
	if err := live(ctx); err != nil {
		return err
	}
	p, vals := prepared(t, Absent(), Change{})
	return condFailed(txInvalid(ddb.PutNew(ctx, d.c, d.b, s, t, item, p, vals...)), t, Absent())
}

// Put implements Backend.Put: a replacement is safe to repeat.
func (d *Dynamo) Put(ctx context.Context, t ddb.Table, item ddb.Item, c Cond) error {
	if c.kind == condNone {
		return d.retry(ctx, func() error {
			_, err := d.c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &t.Name, Item: item})
			return err
		})
	}
	if err := live(ctx); err != nil {
		return err
	}
	p, vals := prepared(t, c, Change{})
	return condFailed(ddb.RetryIf(ctx, d.b, ddb.Retryable, func() error {
		return ddb.PutItemPrepared(ctx, d.c, asked(t, c), item, p, vals...)
	}), t, c)
}

// Update implements Backend.Update. A change that only sets and removes
// values (or keeps the first one, with if_not_exists) is retried after a
// 5xx or a lost response too: applied twice, it writes what it writes
// once. Its condition may then fail on its own earlier write; when a
// repeat after a 5xx fails its condition on an item that already holds
// everything the change writes, the update is taken as applied and that
// item returned, as the memory backend, which never loses a response,
// would have answered. When the item holds something else, the failed
// condition is reported with CondError.Uncertain set: the lost attempt
// may have applied. A change that adds is retried only after throttling,
// which DynamoDB answers before applying anything.
func (d *Dynamo) Update(ctx context.Context, t ddb.Table, k Key, u Change, c Cond) (out ddb.Item, err error) {
	if err := checkChange(u); err != nil {
		return nil, err
	}
	p, vals := prepared(t, c, u)
	key := k.Item(t)
	retryable := ddb.RetryableWithToken
	if u.adds() {
		retryable = ddb.Retryable
	}
	if err := live(ctx); err != nil {
		return nil, err
	}
	uncertain := false
	err = ddb.RetryIf(ctx, d.b, retryable, func() error {
		out, err = ddb.UpdateItemPrepared(ctx, d.c, asked(t, c), key, types.ReturnValueAllNew, p, vals...)
		var ccf *types.ConditionalCheckFailedException
		switch {
		case ddb.ServerError(err):
			uncertain = true
		case uncertain && errors.As(err, &ccf) && u.writtenIn(ccf.Item):
			out = ccf.Item
			return nil
		}
		return err
	})
	err = condFailed(err, t, c)
	if ce, ok := err.(*CondError); ok && uncertain {
		ce.Uncertain = true
	}
	return out, err
}

// Remove implements Backend.Remove. A 5xx leaves it unknown whether the
// delete applied, and a repeat that finds the item gone cannot tell the
// delete of a lost attempt from an item that was never there. So Remove
// reads the item first: if it was there, a repeat that finds it gone
// after a 5xx takes the delete as its own; if it was not, the item is not
// found, as the memory backend says.
func (d *Dynamo) Remove(ctx context.Context, t ddb.Table, k Key) error {
	item, err := d.Get(ctx, t, k)
	if err != nil {
		return err
	}
	if item == nil {
		return &CondError{}
	}
	return d.RemoveRead(ctx, t, k)
}

// RemoveRead implements Backend.RemoveRead: Remove's delete, of an item
// the caller read a moment ago.
func (d *Dynamo) RemoveRead(ctx context.Context, t ddb.Table, k Key) error {
	key := k.Item(t)
	p, vals := prepared(t, Exists(nil), Change{})
	uncertain := false
	err := d.retry(ctx, func() error {
		_, err := ddb.DeleteItemPrepared(ctx, d.c, asked(t, Exists(nil)), key, types.ReturnValueNone, p, vals...)
		switch {
		case ddb.ServerError(err):
			uncertain = true
		case uncertain && ddb.IsConditionFailed(err):
			return nil
		}
		return err
	})
	return condFailed(err, t, Exists(nil))
}

// Tx implements Backend.Tx. It sends the transaction with r's token, the
// same for every attempt and every build of r's read-modify-write, and
// retries conflicts, throttling, 5xx and lost responses with the same
// writes while r has attempts left: a transaction whose response was lost
// is not applied twice. This is ddb.ExecTx's loop, with the attempts
// counted across r's builds (see RMW), so that the whole run stays within
// the retry policy.
func (d *Dynamo) Tx(ctx context.Context, r *Run, ws []Write) error {
	ws, recorded := withRecord(ctx, ws)
	return recorded(d.tx(ctx, r, ws))
}

func (d *Dynamo) tx(ctx context.Context, r *Run, ws []Write) error {
	if err := checkWrites(ws); err != nil {
		return err
	}
	var tx ddb.Tx
	tx.Grow(len(ws))
	for _, w := range ws {
		switch {
		case w.kind == writePut && w.cond.kind == condNone:
			tx.Put(w.Label, w.Table, w.item)
		case w.kind == writeDelete && w.cond.kind == condNone:
			tx.Delete(w.Label, w.Table, w.key.Item(w.Table))
		case w.kind == writePut:
			p, vals := prepared(w.Table, w.cond, Change{})
			tx.PutPrepared(w.Label, asked(w.Table, w.cond), w.item, p, vals...)
		case w.kind == writeDelete:
			p, vals := prepared(w.Table, w.cond, Change{})
			tx.DeletePrepared(w.Label, asked(w.Table, w.cond), w.key.Item(w.Table), p, vals...)
		case w.kind == writeCheck:
			p, vals := prepared(w.Table, w.cond, Change{})
			tx.CheckPrepared(w.Label, asked(w.Table, w.cond), w.key.Item(w.Table), p, vals...)
		default: // writeUpdate
			p, vals := prepared(w.Table, w.cond, w.change)
			tx.UpdatePrepared(w.Label, asked(w.Table, w.cond), w.key.Item(w.Table), p, vals...)
		}
	}
	if err := live(ctx); err != nil {
		return err
	}
	tx.Token(r.token)
	b := d.b
	b.Attempts = max(r.left, 1)
	err := ddb.RetryIf(ctx, b, ddb.RetryableWithToken, func() error {
		r.left--
		return tx.Exec(ctx, d.c)
	})
	if err == nil {
		return nil
	}
	for _, w := range ws {
		if old, ok := ddb.ConditionFailed(err, w.Label); ok {
			return failure(w.Table, w.Label, w.cond, old)
		}
	}
	return txInvalid(err)
}

// asked returns t as a write with condition c is sent to it: a bare
// existence check (Exists(nil)) fails only on a missing item, for which
// DynamoDB has nothing to return, so its request does not ask for the
// item as it was (a smaller request; the failure reads the same, see
// failure).
func asked(t ddb.Table, c Cond) ddb.Table {
	if c.kind == condExists && len(c.want) == 0 {
		t.WithholdOld = true
	}
	return t
}

// txInvalid turns a transaction DynamoDB cancelled because one of its
// writes was invalid (reason ValidationError: an update that would grow
// an item past 400 KB, an index key of another type, a change to a key
// attribute) into the ValidationException the same write gets alone, and
// the memory backend reports: classified, it is ErrInvalidArgument for a
// size and ErrSchemaMismatch otherwise, not a conflict.
func txInvalid(err error) error {
	var ce *ddb.TxCanceledError
	if !errors.As(err, &ce) {
		return err
	}
	for _, r := range ce.Reasons {
		if r.Code == "ValidationError" {
			return validation(fmt.Sprintf("%s (transaction write %q)", r.Message, r.Label))
		}
	}
	return err
}

// BatchWrite implements Backend.BatchWrite: ddb.BatchWrite retries failed
// calls and unprocessed items itself, one retry loop.
func (d *Dynamo) BatchWrite(ctx context.Context, t ddb.Table, puts []ddb.Item, deletes []Key) error {
	if err := live(ctx); err != nil {
		return err
	}
	reqs := make([]types.WriteRequest, 0, len(puts)+len(deletes))
	for _, item := range puts {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
	}
	for _, k := range deletes {
		reqs = append(reqs, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k.Item(t)}})
	}
	if len(reqs) == 0 {
		return nil
	}
	return ddb.BatchWrite(ctx, d.c, t, reqs, d.b)
}

// condFailed turns the failed condition c of a single-item call on t into
// a *CondError holding the item as it was.
func condFailed(err error, t ddb.Table, c Cond) error {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return failure(t, "", c, ccf.Item)
	}
	return err
}

// checkChange refuses an empty change, which has no UpdateExpression.
func checkChange(u Change) error {
	if u.Empty() {
		return ddbkit.Invalid("change", "an update must change something")
	}
	return nil
}

// adds reports whether c adds to a number: applying it twice differs from
// applying it once.
func (c Change) adds() bool {
	for _, o := range c.ops {
		if o.kind == changeAdd {
			return true
		}
	}
	return false
}

// The expressions of writes, built once per shape (ddb.Prepared) and bound
// per call: building an expression tree per call was most of the CPU a
// write spent on top of the hand-written calls (issue 15). A shape is the
// table's partition key attribute, the condition's kind and the names of
// its values, and the change's kinds and names. Names come from the code,
// except the attributes of an item another writer wrote (a condition on
// values read); ddb.Shapes stops growing at its bound.
//
// Their names are bare where DynamoDB allows (ddb.BareName): a create's
// existence checks and a counter's update are as short as the hand-written
// requests, which name PK, SK or todo as they are. A placeholder costs an
// entry of ExpressionAttributeNames in every request; the three checks of a
// task's creation made its request 6% bigger, past a size where the SDK's
// encoder grows its buffer once more. Queries keep their placeholders: a
// page cursor binds its query's text, and cursors already issued would
// read as forged.
var writeShapes = ddb.Shapes[string]{Bare: true}

// keyOnlyShapes holds, for each condition on the key alone (Absent,
// Exists(nil)) of a write without a change (a put, a delete, a check),
// its prepared expression on the partition key last asked for: the shape
// of most creates and checks, found without building its key or looking
// it up in writeShapes. A process with tables of several partition key
// names replaces the entry and finds the others in writeShapes.
var keyOnlyShapes [condWhen]atomic.Pointer[keyOnlyShape]

type keyOnlyShape struct {
	pk string
	p  *ddb.Prepared
}

// prepared returns the prepared expression of condition c and change u on
// table t, and its values: u's, then c's.
func prepared(t ddb.Table, c Cond, u Change) (*ddb.Prepared, []types.AttributeValue) {
	if (c.kind == condAbsent || c.kind == condExists) && len(c.want) == 0 && u.Empty() {
		b := &keyOnlyShapes[c.kind]
		if s := b.Load(); s != nil && s.pk == t.PartitionKey {
			return s.p, nil
		}
		p, _ := shaped(t, c, u)
		b.Store(&keyOnlyShape{pk: t.PartitionKey, p: p})
		return p, nil
	}
	return shaped(t, c, u)
}

// shaped is prepared by way of writeShapes.
func shaped(t ddb.Table, c Cond, u Change) (*ddb.Prepared, []types.AttributeValue) {
	names := sortedNames(c.want)
	var k strings.Builder
	k.Grow(128)
	k.WriteString(t.PartitionKey)
	k.WriteByte(0)
	k.WriteByte('0' + byte(c.kind))
	nargs := 0
	if c.kind == condWhen {
		nargs = c.where.nargs()
	}
	vals := make([]types.AttributeValue, 0, len(u.ops)+len(names)+nargs)
	for _, o := range u.ops {
		k.WriteByte('0' + byte(o.kind))
		k.WriteString(o.name)
		k.WriteByte(0)
		if o.value != nil {
			vals = append(vals, o.value)
		}
	}
	k.WriteByte(1)
	for _, n := range names {
		k.WriteString(n)
		k.WriteByte(0)
		vals = append(vals, c.want[n])
	}
	if c.kind == condWhen && !c.where.IsZero() {
		c.where.write(&k, false)
		vals = c.where.args(vals)
	}
	p := writeShapes.Get(k.String(), func() expression.Builder {
		b := expression.NewBuilder()
		i := 0
		if !u.Empty() {
			var upd expression.UpdateBuilder
			for _, o := range u.ops {
				n := expression.NameNoDotSplit(o.name)
				switch o.kind {
				case changeSet:
					upd = upd.Set(n, ddb.Param(i))
				case changeSetOnce:
					upd = upd.Set(n, expression.IfNotExists(n, ddb.Param(i)))
				case changeAdd:
					upd = upd.Add(n, ddb.Param(i))
				case changeRemove:
					upd = upd.Remove(n)
					continue
				case changeDelete:
					upd = upd.Delete(n, ddb.Param(i))
				}
				i++
			}
			b = b.WithUpdate(upd)
		}
		pk := expression.NameNoDotSplit(t.PartitionKey)
		switch c.kind {
		case condAbsent:
			b = b.WithCondition(expression.AttributeNotExists(pk))
		case condExists:
			cond := expression.AttributeExists(pk)
			for _, n := range names {
				cond = cond.And(expression.Equal(expression.NameNoDotSplit(n), ddb.Param(i)))
				i++
			}
			b = b.WithCondition(cond)
		case condWhen:
			if !c.where.IsZero() {
				cond, _ := c.where.cond(i)
				b = b.WithCondition(cond)
			}
		}
		return b
	})
	return p, vals
}

// sortedNames returns item's attribute names in order, without the
// allocations of slices.Sorted(maps.Keys(...)) beyond the slice: items
// have a dozen attributes, where insertion sort is the cheap sort.
func sortedNames(item ddb.Item) []string {
	names := make([]string, 0, len(item))
	for n := range item {
		i := len(names)
		names = append(names, n)
		for ; i > 0 && names[i-1] > n; i-- {
			names[i] = names[i-1]
		}
		names[i] = n
	}
	return names
}
