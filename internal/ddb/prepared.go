package ddb

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// Prepared is an expression whose shape is fixed, built once with the
// expression package, and whose parameter values are bound per call.
// expression.Builder.Build parses, aliases and marshals the whole tree every
// time; most of a store's expressions (a put's condition, a counter's
// update, a version check) differ from call to call only in their values,
// so building them once and binding the values is the cheap way to send
// the same request. A Prepared is immutable and safe for concurrent use.
//
// Build one with Prepare, naming each per-call value with Param(i); bind
// the values with Values.
type Prepared struct {
	cond, update, filter, keyCond, proj *string
	names                               map[string]string
	fixed                               map[string]types.AttributeValue // the constants
	params                              []string                        // placeholder of Param(i)
}

// paramMark is the marker value Param stands for until Prepare finds it. No
// real value of a ddbkit store contains U+0000 followed by this text.
const paramMark = "\x00ddbkit-param-"

// Param is the operand of the i-th value (0-based) of a prepared
// expression, bound per call by Prepared.Values.
func Param(i int) expression.ValueBuilder {
	return expression.Value(paramMark + strconv.Itoa(i))
}

// Prepare builds b once and records where each Param stands. It fails when
// the parameters used are not exactly Param(0) to Param(n-1), each once.
func Prepare(b expression.Builder) (*Prepared, error) {
	e, err := b.Build()
	if err != nil {
		return nil, err
	}
	p := &Prepared{cond: e.Condition(), update: e.Update(), filter: e.Filter(), keyCond: e.KeyCondition(),
		proj: e.Projection(), names: e.Names(), fixed: make(map[string]types.AttributeValue)}
	found := make(map[int]string)
	for ph, v := range e.Values() {
		s, ok := v.(*types.AttributeValueMemberS)
		if !ok || !strings.HasPrefix(s.Value, paramMark) {
			p.fixed[ph] = v
			continue
		}
		i, err := strconv.Atoi(strings.TrimPrefix(s.Value, paramMark))
		if err != nil || i < 0 {
			return nil, fmt.Errorf("ddb: prepare: malformed parameter %q", s.Value)
		}
		if _, dup := found[i]; dup {
			return nil, fmt.Errorf("ddb: prepare: parameter %d used twice; use it once", i)
		}
		found[i] = ph
	}
	p.params = make([]string, len(found))
	for i := range p.params {
		ph, ok := found[i]
		if !ok {
			return nil, fmt.Errorf("ddb: prepare: parameters must be 0..%d, %d is missing", len(found)-1, i)
		}
		p.params[i] = ph
	}
	return p, nil
}

// MustPrepare is Prepare for expressions fixed at compile time; it panics
// on an error, which is a bug in the expression.
func MustPrepare(b expression.Builder) *Prepared {
	p, err := Prepare(b)
	if err != nil {
		panic(err)
	}
	return p
}

// Params returns how many values Values takes.
func (p *Prepared) Params() int { return len(p.params) }

// Values returns the ExpressionAttributeValues with args bound to the
// parameters, in order: a new map each call, since the SDK keeps it in the
// request. It panics when the number of args is wrong, a bug in the caller.
func (p *Prepared) Values(args ...types.AttributeValue) map[string]types.AttributeValue {
	if len(args) != len(p.params) {
		panic(fmt.Sprintf("ddb: prepared expression takes %d values, got %d", len(p.params), len(args)))
	}
	if len(p.fixed)+len(args) == 0 {
		return nil
	}
	m := make(map[string]types.AttributeValue, len(p.fixed)+len(args))
	maps.Copy(m, p.fixed)
	for i, ph := range p.params {
		m[ph] = args[i]
	}
	return m
}

// Condition, Update, Filter, KeyCondition and Projection return the
// expression strings, nil where the builder had none. Names returns the
// ExpressionAttributeNames, shared by every call: do not modify it.
func (p *Prepared) Condition() *string { return p.cond }

// Update returns the update expression, or nil.
func (p *Prepared) Update() *string { return p.update }

// Filter returns the filter expression, or nil.
func (p *Prepared) Filter() *string { return p.filter }

// KeyCondition returns the key condition expression, or nil.
func (p *Prepared) KeyCondition() *string { return p.keyCond }

// Projection returns the projection expression, or nil.
func (p *Prepared) Projection() *string { return p.proj }

// Names returns the ExpressionAttributeNames, shared by every call.
func (p *Prepared) Names() map[string]string { return p.names }

// The transaction items of prepared expressions, with the expressions of p
// (built once) and args bound to its parameters, so that adding an item
// costs no expression building.

// PutPrepared adds a PutItem conditional on p's condition, if any.
func (tx *Tx) PutPrepared(label string, t Table, item Item, p *Prepared, args ...types.AttributeValue) *Tx {
	return tx.prepared(label, func() types.TransactWriteItem {
		return types.TransactWriteItem{Put: &types.Put{TableName: tx.name(t), Item: item,
			ConditionExpression: p.cond, ExpressionAttributeNames: p.names, ExpressionAttributeValues: p.Values(args...),
			ReturnValuesOnConditionCheckFailure: onFailure(t, p.cond)}}
	})
}

// UpdatePrepared adds an UpdateItem with p's update, conditional on p's
// condition, if any.
func (tx *Tx) UpdatePrepared(label string, t Table, key Item, p *Prepared, args ...types.AttributeValue) *Tx {
	return tx.prepared(label, func() types.TransactWriteItem {
		return types.TransactWriteItem{Update: &types.Update{TableName: tx.name(t), Key: key, UpdateExpression: p.update,
			ConditionExpression: p.cond, ExpressionAttributeNames: p.names, ExpressionAttributeValues: p.Values(args...),
			ReturnValuesOnConditionCheckFailure: onFailure(t, p.cond)}}
	})
}

// DeletePrepared adds a DeleteItem conditional on p's condition, if any.
func (tx *Tx) DeletePrepared(label string, t Table, key Item, p *Prepared, args ...types.AttributeValue) *Tx {
	return tx.prepared(label, func() types.TransactWriteItem {
		return types.TransactWriteItem{Delete: &types.Delete{TableName: tx.name(t), Key: key,
			ConditionExpression: p.cond, ExpressionAttributeNames: p.names, ExpressionAttributeValues: p.Values(args...),
			ReturnValuesOnConditionCheckFailure: onFailure(t, p.cond)}}
	})
}

// CheckPrepared adds a ConditionCheck of p's condition.
func (tx *Tx) CheckPrepared(label string, t Table, key Item, p *Prepared, args ...types.AttributeValue) *Tx {
	return tx.prepared(label, func() types.TransactWriteItem {
		return types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: tx.name(t), Key: key,
			ConditionExpression: p.cond, ExpressionAttributeNames: p.names, ExpressionAttributeValues: p.Values(args...),
			ReturnValuesOnConditionCheckFailure: onFailure(t, p.cond)}}
	})
}

// The single-item writes of prepared expressions, with the expressions of p
// (built once) and args bound to its parameters.

// PutItemPrepared writes item if p's condition, if any, holds. When it
// fails, the *types.ConditionalCheckFailedException holds the item as it
// was.
func PutItemPrepared(ctx context.Context, c ddbkit.Client, t Table, item Item, p *Prepared, args ...types.AttributeValue) error {
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: &t.Name, Item: item,
		ConditionExpression: p.cond, ExpressionAttributeNames: p.names, ExpressionAttributeValues: p.Values(args...),
		ReturnValuesOnConditionCheckFailure: onFailure(t, p.cond)})
	return err
}

// UpdateItemPrepared applies p's update to the item at key if p's
// condition, if any, holds, and returns the attributes rv asks for. When
// the condition fails, the *types.ConditionalCheckFailedException holds
// the item as it was.
func UpdateItemPrepared(ctx context.Context, c ddbkit.Client, t Table, key Item, rv types.ReturnValue, p *Prepared, args ...types.AttributeValue) (Item, error) {
	out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &t.Name, Key: key,
		UpdateExpression: p.update, ConditionExpression: p.cond,
		ExpressionAttributeNames: p.names, ExpressionAttributeValues: p.Values(args...), ReturnValues: rv,
		ReturnValuesOnConditionCheckFailure: onFailure(t, p.cond)})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}

// DeleteItemPrepared deletes the item at key if p's condition, if any,
// holds, and returns the attributes rv asks for (ALL_OLD or NONE). When
// the condition fails, the *types.ConditionalCheckFailedException holds
// the item as it was.
func DeleteItemPrepared(ctx context.Context, c ddbkit.Client, t Table, key Item, rv types.ReturnValue, p *Prepared, args ...types.AttributeValue) (Item, error) {
	out, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &t.Name, Key: key,
		ConditionExpression: p.cond, ExpressionAttributeNames: p.names, ExpressionAttributeValues: p.Values(args...),
		ReturnValues: rv, ReturnValuesOnConditionCheckFailure: onFailure(t, p.cond)})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}

// Shapes caches prepared expressions whose shape depends on the call
// (which fields a patch sets, which attributes an item as read has), by a
// key K that names the shape: each is built on first use, once. Shapes come
// from the code, except those that depend on what another writer stored;
// so the cache stops growing at MaxShapes entries, and builds rarer shapes
// per call. The zero value is ready; it is safe for concurrent use.
type Shapes[K comparable] struct {
	// Bare prepares with bare names (Prepared.Bare).
	Bare bool

	m sync.Map // K → *Prepared
	n atomic.Int32
}

// MaxShapes bounds each Shapes cache.
const MaxShapes = 4096

// Get returns the prepared expression of shape k, preparing what build
// returns the first time. build must return the same expression for the
// same k; an expression that fails to prepare is a bug, and panics.
func (s *Shapes[K]) Get(k K, build func() expression.Builder) *Prepared {
	if p, ok := s.m.Load(k); ok {
		return p.(*Prepared)
	}
	p := MustPrepare(build())
	if s.Bare {
		p = p.Bare()
	}
	if s.n.Load() >= MaxShapes {
		return p
	}
	if q, loaded := s.m.LoadOrStore(k, p); loaded {
		return q.(*Prepared)
	}
	s.n.Add(1)
	return p
}

// ParamText is Param(i) for the expression functions that take their
// operand as a string (expression.Contains, KeyBuilder.BeginsWith).
func ParamText(i int) string { return paramMark + strconv.Itoa(i) }
