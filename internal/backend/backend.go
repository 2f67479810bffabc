// Package backend is the item backend every domain's operations run on:
// a handful of item primitives whose semantics are DynamoDB's, with a
// DynamoDB implementation (NewDynamo, on package ddb) and a memory one
// (NewMemory, on package memtable). A domain writes each operation once,
// over a Backend; its DynamoStore and MemoryStore differ only in which
// Backend they hold. This is gocloud docstore's driver shape, and
// backendtest is its drivertest: one suite holds both implementations to
// the same results, errors, order and page boundaries.
//
// What both implementations do once, here, so that no domain repeats it:
//
//   - retries: every primitive retries throttling, 5xx and lost
//     responses within the Backoff it was built with, in one loop, each
//     call safe to repeat as documented on it;
//   - idempotency tokens: Create and Tx send (or, in memory, emulate) the
//     ClientRequestToken of their ddb.Scope;
//   - the clock: both read it exactly as often, once per Get, BatchGet,
//     Query or Remove of a table with a TTL, and never otherwise (unless
//     an emulation is on), so that a step clock gives both stores the
//     same times (backendtest counts the reads); the memory backend's
//     token window runs on wall time, as DynamoDB's does, and reads no
//     store clock;
//   - context: an ended context fails a primitive before any call, with
//     the context's error, in both;
//   - conditions: a failed condition is a *CondError holding the item as
//     it was, whichever implementation found it;
//   - transactions: at most ddb.MaxTxItems writes, one per key, checked
//     before any call with the same error in both;
//   - TTL: reads of a table with a TTL attribute (Table.TTL) leave out
//     items whose time has passed, as DynamoDB's late deletion would not;
//   - decoding: a domain reads through a Decoder (Decode, DecodePage), and
//     the memory backend decodes each item it stores once.
//
// Errors are not classified here: a domain's wrap does that (ddb.Classify)
// on its way out, for both implementations alike.
package backend

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/itemsize"
)

// Backend is the item primitives. Every method is safe for concurrent use.
type Backend interface {
	// Get reads the item at k, consistently, or nil when there is none.
	Get(ctx context.Context, t ddb.Table, k Key) (ddb.Item, error)
	// BatchGet reads the items at ks, consistently, in the order of ks,
	// with nil for a missing one. Duplicate keys are read once.
	BatchGet(ctx context.Context, t ddb.Table, ks []Key) ([]ddb.Item, error)
	// Query reads one page of q, keeping the items f keeps (the zero
	// Filter keeps all); with a filter, it reads on until the page is
	// full or q's budget is spent (see ddb.QueryPage). q.Filter is set
	// from f: the caller leaves it empty.
	Query(ctx context.Context, q ddb.KeyQuery, limit int, cursor string, f Filter) ([]ddb.Item, string, error)
	// Create writes item if its key is free, under the idempotency scope
	// s: only this call's own write (a retry of it, or a repeat under the
	// same scoped idempotency key with the same item) succeeds; a taken
	// key is a *CondError, whoever wrote the item and whatever it holds.
	Create(ctx context.Context, s ddb.Scope, t ddb.Table, item ddb.Item) error
	// Put writes item, replacing any item at its key, under c (the zero
	// Cond: none). A failed condition is a *CondError. A put without a
	// condition is retried after a 5xx; a conditional one only after
	// throttling, since a repeat of a put that applied would fail its own
	// condition: where that matters, use Create or Tx, whose tokens tell
	// a call's own write from another's.
	Put(ctx context.Context, t ddb.Table, item ddb.Item, c Cond) error
	// Update applies u to the item at k under c and returns the item as
	// written. Without a condition, a missing item is created from its
	// key and u, as UpdateItem does. A failed condition is a *CondError.
	// It is retried after a 5xx only when applying it twice writes what
	// applying it once does (it adds nothing, and its condition is none
	// or mere existence); otherwise only after throttling.
	Update(ctx context.Context, t ddb.Table, k Key, u Change, c Cond) (ddb.Item, error)
	// Delete deletes the item at k, if any: unconditional, and safe to
	// repeat (DeleteItem without a condition). Unlike Remove, it cannot
	// say whether there was an item.
	Delete(ctx context.Context, t ddb.Table, k Key) error
	// GetEventual is Get read eventually consistent (half the read
	// capacity). The memory backend answers it as Get: its table is
	// consistent at once.
	GetEventual(ctx context.Context, t ddb.Table, k Key) (ddb.Item, error)
	// BatchGetWith is BatchGet with the read's options.
	BatchGetWith(ctx context.Context, t ddb.Table, ks []Key, o ReadOptions) ([]ddb.Item, error)
	// Remove deletes the item at k; a missing one is a *CondError.
	Remove(ctx context.Context, t ddb.Table, k Key) error
	// RemoveRead is Remove of an item the caller has just read, present:
	// it skips Remove's own read (see the DynamoDB implementation).
	RemoveRead(ctx context.Context, t ddb.Table, k Key) error
	// BatchWrite puts puts and deletes deletes, unconditionally and not
	// atomically, as few calls as DynamoDB's limit of 25 allows. A key may
	// appear once. On error, some writes may have been applied; each is
	// safe to repeat.
	BatchWrite(ctx context.Context, t ddb.Table, puts []ddb.Item, deletes []Key) error
	// Tx applies ws atomically, once, under r's token (see ddb.ExecTx),
	// spending r's attempts. A failed condition is a *CondError naming
	// the first write, in the order of ws, whose condition failed.
	Tx(ctx context.Context, r *Run, ws []Write) error
}

// Table is one table a backend serves: its name and key, and what the
// memory backend must maintain beside it (GSIs, TTL).
type Table struct {
	ddb.Table
	// Indexes are the table's GSIs, every one projecting all attributes.
	// An item has an entry in an index when it holds both of the index's
	// key attributes as Strings (a sparse index).
	Indexes []ddb.Index
	// TTL is the table's time-to-live attribute, "" for none. Reads leave
	// out an item whose TTL attribute is a Number of epoch seconds at or
	// before the backend's clock.
	TTL string
}

// ReadOptions tunes a batch read.
type ReadOptions struct {
	// Eventual reads eventually consistent, at half the capacity.
	Eventual bool
	// Attrs, when set, reads only these attributes (a projection); they
	// must include the table's key attributes.
	Attrs []string
	// ChunkSize is the most keys per BatchGetItem call, 1 to 100 (zero:
	// 100): a smaller one keeps each response within what the caller's
	// capacity allows.
	ChunkSize int
}

// Key is an item's key: partition key and sort key values, both Strings
// (SK "" on a table without a sort key).
type Key struct{ PK, SK string }

// Item returns k as the key attributes of t.
func (k Key) Item(t ddb.Table) ddb.Item { return t.Key(k.PK, k.SK) }

// KeyOf returns the key of item in t.
func KeyOf(t ddb.Table, item ddb.Item) Key {
	pk, _ := Str(item, t.PartitionKey)
	var sk string
	if t.SortKey != "" {
		sk, _ = Str(item, t.SortKey)
	}
	return Key{pk, sk}
}

// Str returns item's String attribute attr.
func Str(item ddb.Item, attr string) (string, bool) {
	s, ok := item[attr].(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// Change is an update: attributes to set, add to or remove, in order.
type Change struct {
	ops []changeOp
}

type changeKind byte

const (
	changeSet     changeKind = iota // SET n = v
	changeSetOnce                   // SET n = if_not_exists(n, v)
	changeAdd                       // ADD n v (a Number)
	changeRemove                    // REMOVE n
	changeDelete                    // DELETE n v (members of a set)
)

type changeOp struct {
	kind  changeKind
	name  string
	value types.AttributeValue
}

// Grow makes room for n more attributes, where the caller knows how many
// it sets (op otherwise starts with room for four).
func (c *Change) Grow(n int) { c.ops = slices.Grow(c.ops, n) }

// op appends o, starting with room for a few: most changes have several.
func (c *Change) op(o changeOp) {
	if c.ops == nil {
		c.ops = make([]changeOp, 0, 4)
	}
	c.ops = append(c.ops, o)
}

// Set sets attribute name to v.
func (c *Change) Set(name string, v types.AttributeValue) {
	c.op(changeOp{kind: changeSet, name: name, value: v})
}

// SetValue sets attribute name to v as attributevalue.Marshal encodes it.
func (c *Change) SetValue(name string, v any) error {
	av, err := attributevalue.Marshal(v)
	if err != nil {
		return err
	}
	c.Set(name, av)
	return nil
}

// SetOnce sets attribute name to v unless the item holds it already
// (if_not_exists). A NULL counts as held, as DynamoDB's if_not_exists
// counts it: where another writer stores null for "not set" (the seeds'
// JavaScript apps do), condition on Missing or an Equal to NULL instead.
func (c *Change) SetOnce(name string, v types.AttributeValue) {
	c.op(changeOp{kind: changeSetOnce, name: name, value: v})
}

// Add adds n to the Number attribute name, which a missing attribute
// starts at 0 (ADD).
func (c *Change) Add(name string, n int64) {
	c.op(changeOp{kind: changeAdd, name: name, value: &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}})
}

// Remove removes attribute name.
func (c *Change) Remove(name string) {
	c.op(changeOp{kind: changeRemove, name: name})
}

// DeleteMembers removes the members of set v (a String Set or Number
// Set) from the set attribute name (DELETE); a set left empty is removed,
// a missing attribute stays missing.
func (c *Change) DeleteMembers(name string, v types.AttributeValue) {
	c.op(changeOp{kind: changeDelete, name: name, value: v})
}

// Values returns the attributes c sets, as a partial item (for size
// checks): set and set-once values, and adds as their increments.
func (c Change) Values() ddb.Item {
	out := make(ddb.Item, len(c.ops))
	for name, v := range c.values() {
		out[name] = v
	}
	return out
}

// values yields what Values holds, without building it: each attribute
// c gives a value, once, with the last value given.
func (c Change) values() iter.Seq2[string, types.AttributeValue] {
	return func(yield func(string, types.AttributeValue) bool) {
		for i, o := range c.ops {
			if o.value == nil || slices.ContainsFunc(c.ops[i+1:], func(later changeOp) bool { return later.value != nil && later.name == o.name }) {
				continue
			}
			if !yield(o.name, o.value) {
				return
			}
		}
	}
}

// writtenIn reports whether item holds everything c writes: every value
// it sets, an attribute it sets once, none it removes. A change that adds
// never is: its result depends on what it was applied to.
func (c Change) writtenIn(item ddb.Item) bool {
	if item == nil {
		return false
	}
	for _, o := range c.ops {
		v, ok := item[o.name]
		switch o.kind {
		case changeAdd:
			return false
		case changeRemove:
			if ok {
				return false
			}
		case changeDelete:
			if ok && len(setMembers(v)) > 0 {
				gone := setMembers(o.value)
				for m := range setMembers(v) {
					if gone[m] {
						return false
					}
				}
			}
		case changeSetOnce:
			if !ok {
				return false
			}
		case changeSet:
			if !ok || !sameValue(v, o.value) {
				return false
			}
		}
	}
	return true
}

// Empty reports whether c changes nothing.
func (c Change) Empty() bool { return len(c.ops) == 0 }

// Clone returns a copy of c that changes apart from it.
func (c Change) Clone() Change { return Change{ops: slices.Clone(c.ops)} }

// Cond is a write's condition: none (the zero Cond), that the item is
// absent, or that it exists and holds given values.
type Cond struct {
	kind  condKind
	want  ddb.Item
	where Filter // condWhen
}

type condKind byte

const (
	condNone condKind = iota
	condAbsent
	condExists
	condWhen
)

// Absent is the condition that no item is at the key.
func Absent() Cond { return Cond{kind: condAbsent} }

// Exists is the condition that the item exists and holds, for each
// attribute of want, that value (nil want: exists). Conditioning on the
// values read, not only on an attribute ddbkit maintains, is what guards
// a read-modify-write against writers ddbkit does not control.
func Exists(want ddb.Item) Cond {
	// DynamoDB compares Numbers by value: so does holds, on values in
	// the form stored items have (see canonNumber).
	if w, err := normItem(want); err == nil {
		want = w
	}
	return Cond{kind: condExists, want: want}
}

// When is the condition f, evaluated on the item at the key as DynamoDB
// evaluates a ConditionExpression: on an empty item when there is none
// (so Missing holds and Equal does not). It is for conditions Absent and
// Exists cannot say, such as "absent, or holding this version".
func When(f Filter) Cond {
	if f.IsZero() {
		return Cond{}
	}
	return Cond{kind: condWhen, where: f}
}

// Unchanged is the condition that the item read as item still exists
// and holds each of attrs as read, missing where item has none, and that
// every filter of more holds: the guard of a write computed from what was
// read (conditioning on the values read, not only on an attribute ddbkit
// maintains, guards against writers ddbkit does not control). item must
// be the item read at the write's key; a nil item (none read) is the
// condition that there is still none.
func Unchanged(t ddb.Table, item ddb.Item, attrs []string, more ...Filter) Cond {
	fs := make([]Filter, 0, 1+len(attrs)+len(more))
	// The write's key is the item's: that it exists says what its
	// partition key's value would, in a smaller request.
	if item[t.PartitionKey] != nil {
		fs = append(fs, Present(t.PartitionKey))
	} else {
		fs = append(fs, Missing(t.PartitionKey))
	}
	for _, a := range attrs {
		if v, ok := item[a]; ok {
			fs = append(fs, Equal(a, v))
		} else {
			fs = append(fs, Missing(a))
		}
	}
	return When(And(append(fs, more...)...))
}

// holds reports whether item meets c.
func (c Cond) holds(item ddb.Item) bool {
	switch c.kind {
	case condWhen:
		if item == nil {
			item = ddb.Item{}
		}
		return c.where.Keeps(item)
	case condAbsent:
		return item == nil
	case condExists:
		if item == nil {
			return false
		}
		for n, v := range c.want {
			got, ok := item[n]
			if !ok || ddb.AttrString(got) != ddb.AttrString(v) {
				return false
			}
		}
	}
	return true
}

// Write is one item of a transaction. Build it with PutNew, Put, Replace,
// Delete, Remove, Check or Update.
type Write struct {
	Label  string
	Table  ddb.Table
	kind   writeKind
	item   ddb.Item // put
	key    Key      // delete, check, update
	change Change   // update
	cond   Cond
}

type writeKind byte

const (
	writePut writeKind = iota
	writeDelete
	writeCheck
	writeUpdate
)

// PutNew puts item if its key is free.
func PutNew(label string, t ddb.Table, item ddb.Item) Write {
	return Write{Label: label, Table: t, kind: writePut, item: item, cond: Absent()}
}

// Put puts item, replacing any item at its key.
func Put(label string, t ddb.Table, item ddb.Item) Write {
	return Write{Label: label, Table: t, kind: writePut, item: item}
}

// Replace puts item over an existing item that holds want's values.
func Replace(label string, t ddb.Table, item, want ddb.Item) Write {
	return Write{Label: label, Table: t, kind: writePut, item: item, cond: Exists(want)}
}

// Delete deletes the existing item at k that holds want's values.
func Delete(label string, t ddb.Table, k Key, want ddb.Item) Write {
	return Write{Label: label, Table: t, kind: writeDelete, key: k, cond: Exists(want)}
}

// Remove deletes the item at k, whether or not it exists.
func Remove(label string, t ddb.Table, k Key) Write {
	return Write{Label: label, Table: t, kind: writeDelete, key: k}
}

// Check requires the item at k to exist and hold want's values.
func Check(label string, t ddb.Table, k Key, want ddb.Item) Write {
	return Write{Label: label, Table: t, kind: writeCheck, key: k, cond: Exists(want)}
}

// CheckWhen requires the item at k to meet c (which must not be the zero
// Cond), such as Absent() or When(...).
func CheckWhen(label string, t ddb.Table, k Key, c Cond) Write {
	return Write{Label: label, Table: t, kind: writeCheck, key: k, cond: c}
}

// DeleteWhen deletes the item at k if it meets c.
func DeleteWhen(label string, t ddb.Table, k Key, c Cond) Write {
	return Write{Label: label, Table: t, kind: writeDelete, key: k, cond: c}
}

// Update applies u to the item at k under c.
func Update(label string, t ddb.Table, k Key, u Change, c Cond) Write {
	return Write{Label: label, Table: t, kind: writeUpdate, key: k, change: u, cond: c}
}

// Item is the item w puts, nil for other writes.
func (w Write) Item() ddb.Item { return w.item }

// keyOf is the key w touches.
func (w Write) keyOf() Key {
	if w.kind == writePut {
		return KeyOf(w.Table, w.item)
	}
	return w.key
}

// checkWrites refuses, before any call and alike in both backends, what
// DynamoDB refuses of a transaction as a whole: none, more than
// ddb.MaxTxItems, one key twice, or more than 4 MB of payload.
func checkWrites(ws []Write) error {
	switch n := len(ws); {
	case n == 0:
		return fmt.Errorf("%w: empty transaction", ddbkit.ErrInvalidArgument)
	case n > ddb.MaxTxItems:
		return fmt.Errorf("%w: transaction of %d items; DynamoDB allows at most %d", ddbkit.ErrInvalidArgument, n, ddb.MaxTxItems)
	}
	// Ten writes of items within 400 KB cannot pass 4 MB.
	if len(ws)*ddb.MaxItemSize > maxTxPayload {
		size := 0
		for _, w := range ws {
			size += w.payload()
		}
		if size > maxTxPayload {
			return ddbkit.Invalid("transaction", "writes about %d bytes; DynamoDB allows at most %d (4 MB) per transaction", size, maxTxPayload)
		}
	}
	// A transaction's keys are few: comparing each with those before it
	// costs less than hashing them, up to a few dozen.
	const scanned = 32
	var seen map[[3]string]int
	if len(ws) > scanned {
		seen = make(map[[3]string]int, len(ws))
	}
	var small [scanned][3]string
	for i, w := range ws {
		if w.kind == writeUpdate {
			if err := checkChange(w.change); err != nil {
				return err
			}
		}
		if w.kind == writeCheck && w.cond.kind == condNone {
			return ddbkit.Invalid("transaction", "the check %q has no condition; a ConditionCheck needs one", w.Label)
		}
		k := w.keyOf()
		id := [3]string{w.Table.Name, k.PK, k.SK}
		first, dup := -1, false
		if seen != nil {
			first, dup = seen[id]
			seen[id] = i
		} else {
			for j, prev := range small[:i] {
				if prev[2] == id[2] && prev[1] == id[1] && prev[0] == id[0] {
					first, dup = j, true
					break
				}
			}
			small[i] = id
		}
		if dup {
			return fmt.Errorf("%w: transaction touches one key twice (items %q and %q); DynamoDB allows one operation per item per transaction",
				ddbkit.ErrInvalidArgument, ws[first].Label, w.Label)
		}
	}
	return nil
}

// maxTxPayload is DynamoDB's limit on a transaction's payload.
const maxTxPayload = 4 << 20

// payload is what w counts toward a transaction's payload as DynamoDB
// counts it (measured on DynamoDB Local): a put's item size exactly; for
// another write, its key and values, and a margin for its expressions
// (DynamoDB counted 23 bytes of an update's and 39 of a check's).
func (w Write) payload() int {
	if w.kind == writePut {
		return ddb.ItemSize(w.item)
	}
	// Each part is sized as ddb.ItemSize sizes an item of it (a name's
	// bytes and its value's), without building the item: a transaction of
	// more than ten writes sizes them all before every call.
	n := len(w.Table.PartitionKey) + len(w.key.PK) + ddb.ItemSize(w.cond.want) + 64
	if w.Table.SortKey != "" {
		n += len(w.Table.SortKey) + len(w.key.SK)
	}
	for name, v := range w.change.values() {
		n += len(name) + itemsize.Value(v)
	}
	for i, v := range w.cond.where.args(nil) {
		n += len(strconv.Itoa(i)) + itemsize.Value(v)
	}
	return n
}

// CondError is a failed condition: the item changed, is missing, or its
// key is taken. Operations turn it into the error it stands for.
type CondError struct {
	Label string   // the write whose condition failed; "" for a single-item call
	Old   ddb.Item // the item as it was, nil if missing
	// Uncertain reports a single-item Update whose attempt failed with a
	// 5xx or a lost response and whose repeat then failed its condition
	// on an item that does not hold its write: the lost attempt may have
	// applied before someone else changed the item again, so whether it
	// took effect is unknown. A read-modify-write must not apply it
	// again.
	Uncertain bool
	// Withheld reports a condition that failed on a table that withholds
	// the item as it was (ddb.Table.WithholdOld): Old is nil, and whether
	// the item is missing, taken or changed is unknown. Failed does not
	// report it, so an operation passes it on as ErrConflict.
	Withheld bool
}

func (e *CondError) Error() string {
	switch {
	case e.Withheld && e.Uncertain:
		return fmt.Sprintf("condition of %s failed after a lost response, and the item as it was is withheld (WithholdOldItems): whether the write took effect is unknown: %v", e.label(), ddbkit.ErrConflict)
	case e.Withheld:
		return fmt.Sprintf("condition of %s failed; the item as it was is withheld (WithholdOldItems), so whether it is missing, taken or changed is unknown: %v", e.label(), ddbkit.ErrConflict)
	}
	return fmt.Sprintf("condition of %s failed: %v", e.Label, ddbkit.ErrConflict)
}

// label names the write for a message.
func (e *CondError) label() string {
	if e.Label == "" {
		return "the write"
	}
	return e.Label
}

// Is makes a CondError match ddbkit.ErrConflict.
func (e *CondError) Is(target error) bool { return target == ddbkit.ErrConflict }

// failure is the *CondError of write label's condition c failing on old in
// t. Under t.WithholdOld, old is unknown unless c tells it: Exists(nil)
// fails only on a missing item.
func failure(t ddb.Table, label string, c Cond, old ddb.Item) *CondError {
	if t.WithholdOld && (c.kind != condExists || len(c.want) != 0) {
		return &CondError{Label: label, Withheld: true}
	}
	return &CondError{Label: label, Old: old}
}

// Failed reports whether err is a failed condition of the write labelled
// label ("" for a single-item call, or any write), and the item as it was.
// A failure whose item was withheld (CondError.Withheld) is not reported:
// what it stands for is unknown, and the operation returns err as it is.
func Failed(err error, label string) (old ddb.Item, ok bool) {
	if err == nil {
		return nil, false // before ce, which errors.As moves to the heap
	}
	var ce *CondError
	if errors.As(err, &ce) && !ce.Withheld && (label == "" || ce.Label == label) {
		return ce.Old, true
	}
	return nil, false
}

// Uncertain reports whether err is a *CondError whose outcome is unknown
// (see CondError.Uncertain).
func Uncertain(err error) bool {
	var ce *CondError
	return errors.As(err, &ce) && ce.Uncertain
}

// ChangedError is a condition on values read that failed: the item
// changed between the read and the write, and the read-modify-write
// starts over (see RMW). It matches ddbkit.ErrConflict.
type ChangedError struct{ msg string }

// Changed returns a *ChangedError with a formatted message.
func Changed(format string, args ...any) error {
	return &ChangedError{msg: fmt.Sprintf(format, args...)}
}

func (e *ChangedError) Error() string { return e.msg + ": " + ddbkit.ErrConflict.Error() }

// Is makes a ChangedError match ddbkit.ErrConflict.
func (e *ChangedError) Is(target error) bool { return target == ddbkit.ErrConflict }

// IsChanged reports whether err is, or wraps, a *ChangedError.
func IsChanged(err error) bool {
	var c *ChangedError
	return errors.As(err, &c)
}

// Run is the transactional writes of one read-modify-write: their
// idempotency scope, the one token every build sends, and the
// TransactWriteItems calls the retry policy has left for all its builds.
type Run struct {
	Scope ddb.Scope
	token string // ddb.Token(ctx, Scope), taken once per run
	keyed bool   // token comes from the caller's idempotency key
	left  int    // calls left, shared by every build
}

// NewRun returns a Run of scope s within b's attempts.
func NewRun(ctx context.Context, s ddb.Scope, b ddb.Backoff) *Run {
	token, keyed := ddb.RequestToken(ctx, s)
	if !keyed {
		token = ddb.Token(ctx, s)
	}
	return &Run{Scope: s, token: token, keyed: keyed, left: max(b.Attempts, 1)}
}

// NewStepRun returns a Run of scope s within b's attempts under a fresh
// random token, whatever idempotency key ctx holds: a step of a
// multi-step operation (a sweep's page) that a repeated call must be able
// to run again, where the caller's key would replay the first call's
// step instead (see ddb.ExecTx).
func NewStepRun(s ddb.Scope, b ddb.Backoff) *Run {
	return &Run{Scope: s, token: ddb.Token(context.Background(), s), left: max(b.Attempts, 1)}
}

// RMWStep is RMW under NewStepRun's fresh token.
func RMWStep(ctx context.Context, b ddb.Backoff, s ddb.Scope, fn func(r *Run) error) error {
	return rmw(ctx, b, NewStepRun(s, b), fn)
}

// RMW runs a read-modify-write in scope s: fn reads, builds its
// transaction and commits it with Backend.Tx under r, and is repeated
// while it reports that what it read changed (a *ChangedError). Every
// build keeps the run's token (see ddb.ExecTx): DynamoDB binds a token
// only to a transaction that commits, so a rebuild after a cancelled
// build goes through, and a caller's repeat under an idempotency key
// cannot commit a second time.
//
// One retry budget covers the whole run (b.Attempts TransactWriteItems
// calls in all): Tx retries a throttled, conflicting or lost transaction
// with the same writes, and a rebuild after a failed condition spends
// from the same budget, so that the transaction step never makes more
// than b.Attempts calls, however the retries split between resends and
// rebuilds. The reads of each build retry on their own, one loop per
// call.
func RMW(ctx context.Context, b ddb.Backoff, s ddb.Scope, fn func(r *Run) error) error {
	return rmw(ctx, b, NewRun(ctx, s, b), fn)
}

func rmw(ctx context.Context, b ddb.Backoff, r *Run, fn func(r *Run) error) error {
	attempts := max(b.Attempts, 1)
	for n := 1; ; n++ {
		err := fn(r)
		if err == nil || !IsChanged(err) {
			return err
		}
		if r.left <= 0 || n >= attempts {
			return fmt.Errorf("gave up after %d attempts: %w", n, err)
		}
		if err := ddb.Sleep(ctx, b.Delay(n)); err != nil {
			return err
		}
	}
}

// Clock is a backend's clock, for TTL and emulation.
type Clock func() time.Time

func (c Clock) now() time.Time {
	if c == nil {
		return time.Now().UTC()
	}
	return c().UTC()
}

// checkRead refuses read options DynamoDB would refuse, alike in both
// backends and before any call.
func checkRead(t ddb.Table, o ReadOptions) error {
	if o.ChunkSize < 0 || o.ChunkSize > ddb.MaxBatchGet {
		return ddbkit.Invalid("ChunkSize", "must be 1 to %d (0: %d), got %d", ddb.MaxBatchGet, ddb.MaxBatchGet, o.ChunkSize)
	}
	if len(o.Attrs) == 0 {
		return nil
	}
	has := func(a string) bool {
		for _, x := range o.Attrs {
			if x == a {
				return true
			}
		}
		return false
	}
	if !has(t.PartitionKey) || (t.SortKey != "" && !has(t.SortKey)) {
		return ddbkit.Invalid("Attrs", "a projection must name the key attributes of %s", t.Name)
	}
	return nil
}

// project returns the attributes of item named in attrs (all of them
// when attrs is empty), as a new map; nil stays nil.
func project(item ddb.Item, attrs []string) ddb.Item {
	if item == nil || len(attrs) == 0 {
		return item
	}
	out := make(ddb.Item, len(attrs))
	for _, a := range attrs {
		if v, ok := item[a]; ok {
			out[a] = v
		}
	}
	return out
}

// tables indexes a backend's tables by name.
type tables map[string]Table

func tablesOf(ts []Table) tables {
	m := make(tables, len(ts))
	for _, t := range ts {
		m[t.Name] = t
	}
	return m
}

// ttl is the TTL attribute of the table named name, "" for none.
func (m tables) ttl(name string) string { return m[name].TTL }

// sameValue reports whether two attribute values are equal as DynamoDB
// compares them: Numbers by value (1.5 = 1.50), anything else exactly.
func sameValue(a, b types.AttributeValue) bool {
	if x, ok := a.(*types.AttributeValueMemberN); ok {
		if y, ok := b.(*types.AttributeValueMemberN); ok {
			cx, err1 := canonNumber(x.Value)
			cy, err2 := canonNumber(y.Value)
			return err1 == nil && err2 == nil && cx == cy
		}
	}
	return ddb.AttrString(a) == ddb.AttrString(b)
}

// setMembers returns the members of a String or Number Set, Numbers in
// canonical form, nil for any other value.
func setMembers(v types.AttributeValue) map[string]bool {
	ms, typ := setOf(v)
	if typ == "" {
		return nil
	}
	out := make(map[string]bool, len(ms))
	for _, m := range ms {
		out[memberKey(typ, m)] = true
	}
	return out
}

// setOf returns the members of a String or Number set and its type, "S"
// or "N"; "" for any other value.
func setOf(v types.AttributeValue) ([]string, string) {
	switch v := v.(type) {
	case *types.AttributeValueMemberSS:
		return v.Value, "S"
	case *types.AttributeValueMemberNS:
		return v.Value, "N"
	}
	return nil, ""
}

// memberKey is a set member's identity: its type and, for a Number, its
// canonical form, so that "1.0" and "1" are one member, as in DynamoDB.
func memberKey(typ, m string) string {
	if typ == "N" {
		if c, err := canonNumber(m); err == nil {
			m = c
		}
	}
	return typ + m
}
