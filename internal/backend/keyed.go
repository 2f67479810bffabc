package backend

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The idempotency record: one item per caller's key, in the table of the
// operation it answers for, which lets a repeat under the same key (from
// this process or another) return the first call's result instead of
// failing (issue 41). It is a layout extension the seeds do not have:
//
//	<pk> = <sk> = IDEMPOTENCY#<token>   the scoped token of ddb.RequestToken
//	fingerprint  S   SHA-256 of the operation and its input
//	refPK, refSK S   key of the item the first write of the operation wrote
//	<ttl>        N   Unix seconds when the record stops answering: the
//	                 table's TTL attribute, or expiresAt where it has none
//
// The record is written in the same transaction as the operation's first
// transactional write, so it exists exactly when that write committed.
const (
	RecordPrefix      = "IDEMPOTENCY#"
	recordLabel       = "idempotency record"
	recordFingerprint = "fingerprint"
	recordRefPK       = "refPK"
	recordRefSK       = "refSK"
	recordExpiry      = "expiresAt" // where the table has no TTL attribute
)

// RecordWindow is how long a record answers a repeat (ddbkit.IdempotencyWindow).
const RecordWindow = ddbkit.IdempotencyWindow

// Keying says how Keyed records and replays one operation.
type Keying[T any] struct {
	Backend Backend
	// Table is the table the record goes to: the one the operation's
	// first transactional write goes to. TTL is its TTL attribute, if any.
	Table ddb.Table
	TTL   string
	// Scope is the operation's idempotency scope: the record's key is its
	// token under the caller's key.
	Scope ddb.Scope
	Now   func() time.Time
	// Input is the operation's arguments after ctx and the scope's
	// partition: their JSON makes the fingerprint that tells a repeat
	// from another request under the same key.
	Input []any
	// Replay returns the first call's result from the key of the item the
	// operation's first transactional write wrote. Nil marks an operation
	// whose repeat is safe by itself (a save, a delete): a repeat with the
	// same input runs it again without the key, and it returns what it
	// returns without one.
	Replay func(ctx context.Context, ref Key) (T, error)
	// Ref, when set, gives the key of the item a result stands for. The
	// record of an operation whose writes carried none (no Create, no Tx)
	// is written after it, referring to Ref(result), so that Replay can
	// answer a repeat; in the moment between the write and its record, a
	// repeat finds none and runs the operation again. An operation with a
	// Replay writes its result with Create or Tx where that matters.
	Ref func(T) Key
	// Committed marks a write whose result is its success alone (a
	// delete): a repeat answered by a record returns the zero T and no
	// error, since the record exists only if the first call's write
	// committed; without the key, a repeat would find nothing
	// (ErrNotFound). It takes precedence over Replay.
	Committed bool
}

// Keyed runs op under the caller's idempotency key in ctx, if any (op
// alone otherwise):
//   - a live record of the key with the same fingerprint answers a
//     repeat: Replay's result, or op run again without the key;
//   - a live record with another fingerprint is ErrIdempotencyKeyReused;
//   - otherwise op runs, and its first transactional write (Create or
//     Tx) carries the record, on condition that no live one exists. A
//     twin that committed first makes that condition, or DynamoDB's token
//     check, fail: the record is then read again and answers as above.
//
// An operation that writes no transaction has its record written after
// it succeeds, on the same condition.
func Keyed[T any](ctx context.Context, k Keying[T], op func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	token, ok := ddb.RequestToken(ctx, k.Scope)
	if !ok {
		return op(ctx)
	}
	fp, err := fingerprint(k.Scope, k.Input)
	if err != nil {
		return zero, err
	}
	p := &pending{t: k.Table, key: Key{PK: RecordPrefix + token}, fp: fp, ttl: k.TTL, now: k.Now}
	if k.Table.SortKey != "" {
		p.key.SK = p.key.PK
	}
	answer := func() (T, bool, error) {
		ref, found, err := recall(ctx, k.Backend, p)
		switch {
		case err != nil:
			return zero, true, err
		case !found:
			return zero, false, nil
		case k.Committed:
			return zero, true, nil
		case k.Replay != nil && ref.PK != "":
			v, err := k.Replay(ctx, ref)
			return v, true, err
		default:
			// A repeat-safe operation: run it again, as a call without a
			// key would, so that it returns what it returns then.
			v, err := op(ddb.WithoutKey(ctx))
			return v, true, err
		}
	}
	if v, done, err := answer(); done {
		return v, err
	}
	v, err := op(context.WithValue(ctx, pendingKey{}, p))
	if err != nil {
		// The backends return DynamoDB's token reuse unclassified.
		if errors.Is(err, errRecordTaken) || errors.Is(ddb.Classify(err), ddbkit.ErrIdempotencyKeyReused) {
			if v, done, err := answer(); done {
				return v, err
			}
		}
		return zero, err
	}
	if !p.wasWritten() {
		// No transaction carried the record: write it alone. A twin that
		// recorded first is no failure: the operation was repeat-safe.
		var ref Key
		if k.Ref != nil {
			ref = k.Ref(v)
		}
		rec := p.item(ref)
		if err := k.Backend.Put(ctx, p.t, rec, p.cond()); err != nil {
			// A conditional put is not resent after a 5xx or a lost
			// response (its repeat would fail its own condition): a record
			// with this fingerprint found now is the one it wrote.
			if _, failed := Failed(err, ""); !failed {
				if _, found, rerr := recall(ctx, k.Backend, p); rerr != nil || !found {
					return zero, err
				}
			}
		}
	}
	return v, nil
}

// recall reads the record of p's key: found reports a live one with p's
// fingerprint, and ref the item it refers to. A live record with another
// fingerprint is ErrIdempotencyKeyReused.
func recall(ctx context.Context, b Backend, p *pending) (ref Key, found bool, err error) {
	rec, err := b.Get(ctx, p.t, p.key)
	if err != nil || rec == nil || p.expired(rec) {
		return Key{}, false, err
	}
	if fp, _ := Str(rec, recordFingerprint); fp != p.fp {
		return Key{}, false, ddb.KeyReused(nil)
	}
	ref.PK, _ = Str(rec, recordRefPK)
	ref.SK, _ = Str(rec, recordRefSK)
	return ref, true, nil
}

// fingerprint is SHA-256 over the scope's operation and the JSON of input.
func fingerprint(s ddb.Scope, input []any) (string, error) {
	h := sha256.New()
	h.Write([]byte("ddbkit-fingerprint-v1\x00" + s.Op + "\x00"))
	if err := json.NewEncoder(h).Encode(input); err != nil {
		return "", fmt.Errorf("fingerprint of %s: %w", s.Op, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

type pendingKey struct{}

// pending is the record Keyed's operation has yet to write.
type pending struct {
	t       ddb.Table
	key     Key
	fp      string
	ttl     string
	now     func() time.Time
	mu      sync.Mutex
	at      int64     // the Unix second the record was built at
	atTime  time.Time // and the time
	claimed bool      // a write carries it now
	written bool
}

func (p *pending) wasWritten() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.written
}

func (p *pending) expiry() string {
	if p.ttl != "" {
		return p.ttl
	}
	return recordExpiry
}

// expired reports whether rec no longer answers.
func (p *pending) expired(rec ddb.Item) bool {
	n, ok := rec[p.expiry()].(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	exp, err := strconv.ParseInt(n.Value, 10, 64)
	return err == nil && exp <= p.now().Unix()
}

// item is the record, referring to ref.
func (p *pending) item(ref Key) ddb.Item {
	p.atTime = p.now()
	p.at = p.atTime.Unix()
	it := p.key.Item(p.t)
	it[recordFingerprint] = &types.AttributeValueMemberS{Value: p.fp}
	if ref.PK != "" {
		it[recordRefPK] = &types.AttributeValueMemberS{Value: ref.PK}
		if ref.SK != "" {
			it[recordRefSK] = &types.AttributeValueMemberS{Value: ref.SK}
		}
	}
	it[p.expiry()] = &types.AttributeValueMemberN{Value: strconv.FormatInt(p.at+int64(RecordWindow/time.Second), 10)}
	return it
}

// cond is the record's condition: none is there, or it has expired.
func (p *pending) cond() Cond {
	return When(Or(Missing(p.t.PartitionKey), Not(Greater(p.expiry(), &types.AttributeValueMemberN{Value: strconv.FormatInt(p.at, 10)}))))
}

// errRecordTaken is a transaction refused because a live record of the
// caller's key is there: a twin committed first.
var errRecordTaken = fmt.Errorf("%w: another call under the same idempotency key committed first", ddbkit.ErrConflict)

// withRecord returns ws with ctx's pending record appended, when ctx holds
// one not yet written (nor being written by a concurrent write of the same
// operation), and the function that maps the transaction's result:
// success marks the record written, and a failure of the record's own
// condition becomes errRecordTaken.
func withRecord(ctx context.Context, ws []Write) ([]Write, func(error) error) {
	p, _ := ctx.Value(pendingKey{}).(*pending)
	if p == nil || len(ws) == 0 || !p.claim() {
		return ws, func(err error) error { return err }
	}
	rec := p.item(ws[0].keyOf())
	ws = append(ws[:len(ws):len(ws)], Write{Label: recordLabel, Table: p.t, kind: writePut, item: rec, cond: p.cond()})
	return ws, func(err error) error {
		p.mu.Lock()
		p.claimed = false
		p.written = err == nil
		p.mu.Unlock()
		if _, ok := Failed(err, recordLabel); ok {
			return errRecordTaken
		}
		return err
	}
}

// claim reports whether the caller's write is to carry p.
func (p *pending) claim() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.written || p.claimed {
		return false
	}
	p.claimed = true
	return true
}

// recording reports whether ctx holds a record a write is to carry.
func recording(ctx context.Context) bool {
	p, _ := ctx.Value(pendingKey{}).(*pending)
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.written && !p.claimed
}

// recordTime is the time the record of ctx's keyed operation was built at
// (its store's clock), or the zero time. The memory backend times its
// emulated ClientRequestToken window by it, so that a test clock moved
// past IdempotencyWindow moves past the token's ten minutes too, without
// a clock reading of its own.
func recordTime(ctx context.Context) time.Time {
	p, _ := ctx.Value(pendingKey{}).(*pending)
	if p == nil {
		return time.Time{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.atTime
}
