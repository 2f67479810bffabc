// Package iam turns the DynamoDB calls of ddbkit's stores into
// least-privilege IAM policies.
//
// Each domain package records, in a file generated from its conformance
// suite (iam.json, served by the package's Grants function), the DynamoDB
// actions each store method calls and the tables and indexes it calls them
// on. The suite runs every method of every interface on DynamoDB Local
// through a recording client; the test fails when a method is never
// exercised, or when the file differs from what the run recorded (rerun it
// with DDBKIT_UPDATE_IAM=1 to regenerate). A policy is then the union of
// an interface's methods: exactly what the code calls, nothing more.
//
// Actions are IAM's, not the API's: a TransactWriteItems call needs
// dynamodb:PutItem, UpdateItem, DeleteItem or ConditionCheckItem on the
// table of each of its items, and TransactGetItems dynamodb:GetItem; a
// Query of an index is on the index's ARN (table/NAME/index/INDEX).
//
// The schema operations (CreateTable, DescribeTable, UpdateTable,
// DescribeTimeToLive, UpdateTimeToLive) are a deploy role's, not the
// application's: DeployPolicy gives them apart. StreamPolicy is the
// stream-read statement of a Lambda event source mapping.
//
// # Reads through failed conditions
//
// ddbkit's conditional writes ask DynamoDB to return the item as it was
// when their condition fails (ReturnValuesOnConditionCheckFailure
// ALL_OLD), to tell "already exists" from "changed". DynamoDB returns it
// to any principal allowed the write: a role granted PutItem, UpdateItem,
// DeleteItem or ConditionCheckItem alone can read the items its writes
// fail on. Grants.ReadsThroughConditions lists the methods of an interface
// that write conditionally, and so can.
//
// Every domain's Options.WithholdOldItems turns this off for a store: its
// writes then ask for nothing (ReturnValuesOnConditionCheckFailure NONE),
// and a failed condition whose answer needed the item (ErrNotFound,
// ErrAlreadyExists, a closed room, a retry) is returned as ErrConflict
// saying the item was withheld, by the memory store too. The option
// changes what ddbkit asks for, not what the role may ask for: a role that
// must not read an item, against a caller who holds its credentials and
// calls DynamoDB itself, must not be granted the conditional writes that
// ReadsThroughConditions lists.
package iam

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Grant is one action on one table or index.
type Grant struct {
	// Action is the IAM action, such as "dynamodb:Query".
	Action string `json:"action"`
	// Table is the table's role in its domain: its default name (see
	// Grants.Tables).
	Table string `json:"table"`
	// Index is the index queried, or "" for the table.
	Index string `json:"index,omitempty"`
	// Conditional is true for a write that carries a condition, whose
	// failure returns the old item (see the package doc).
	Conditional bool `json:"conditional,omitempty"`
}

// Grants is a domain's record of what its store methods call.
type Grants struct {
	// Domain is the package's name, such as "livecomment".
	Domain string `json:"domain"`
	// Tables maps each table's role, as Grant.Table names it, to a
	// description of the table.
	Tables map[string]string `json:"tables"`
	// Interfaces maps each store interface to its methods.
	Interfaces map[string][]string `json:"interfaces"`
	// Methods maps each method to its grants, sorted.
	Methods map[string][]Grant `json:"methods"`
}

// Parse decodes a domain's iam.json.
func Parse(b []byte) (Grants, error) {
	var g Grants
	if err := json.Unmarshal(b, &g); err != nil {
		return Grants{}, fmt.Errorf("iam: %w", err)
	}
	return g, nil
}

// MustParse is Parse for a domain's embedded iam.json, which its tests
// keep valid: it panics on an error.
func MustParse(b []byte) Grants {
	g, err := Parse(b)
	if err != nil {
		panic(err)
	}
	return g
}

// Marshal encodes g as its iam.json, indented, with sorted keys.
func (g Grants) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// methods returns the methods of iface, every method for "".
func (g Grants) methods(iface string) ([]string, error) {
	if iface == "" {
		return slices.Sorted(maps.Keys(g.Methods)), nil
	}
	ms, ok := g.Interfaces[iface]
	if !ok {
		return nil, fmt.Errorf("iam: %s has no interface %q (it has %s)", g.Domain, iface, strings.Join(slices.Sorted(maps.Keys(g.Interfaces)), ", "))
	}
	return ms, nil
}

// For returns the grants of iface's methods ("" for every method), each
// once, sorted.
func (g Grants) For(iface string) ([]Grant, error) {
	ms, err := g.methods(iface)
	if err != nil {
		return nil, err
	}
	set := map[Grant]bool{}
	for _, m := range ms {
		for _, gr := range g.Methods[m] {
			gr.Conditional = false
			set[gr] = true
		}
	}
	return sortGrants(slices.Collect(maps.Keys(set))), nil
}

// ReadsThroughConditions returns the methods of iface ("" for all) that
// write with a condition, and so read the item as it was when the
// condition fails (see the package doc).
func (g Grants) ReadsThroughConditions(iface string) ([]string, error) {
	ms, err := g.methods(iface)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range ms {
		if slices.ContainsFunc(g.Methods[m], func(gr Grant) bool { return gr.Conditional }) {
			out = append(out, m)
		}
	}
	return out, nil
}

// Document is an IAM policy document.
type Document struct {
	Version   string
	Statement []Statement
}

// Statement is one statement of a Document.
type Statement struct {
	Sid      string
	Effect   string
	Action   []string
	Resource []string
}

// ARNs gives the ARN of each table role. A role it does not name is an
// error: a policy must name its resources.
type ARNs map[string]string

func (a ARNs) table(role string) (string, error) {
	arn, ok := a[role]
	if !ok || arn == "" {
		return "", fmt.Errorf("iam: no ARN for table %q", role)
	}
	return arn, nil
}

// Policy returns the policy document of iface ("" for every method): one
// statement per table and per index, each with exactly the actions
// called on it.
func (g Grants) Policy(iface string, arns ARNs) (Document, error) {
	grants, err := g.For(iface)
	if err != nil {
		return Document{}, err
	}
	byResource := map[string][]string{}
	sid := map[string]string{}
	for _, gr := range grants {
		arn, err := arns.table(gr.Table)
		if err != nil {
			return Document{}, err
		}
		id := gr.Table
		if gr.Index != "" {
			arn += "/index/" + gr.Index
			id += " " + gr.Index
		}
		byResource[arn] = append(byResource[arn], gr.Action)
		sid[arn] = id
	}
	doc := Document{Version: "2012-10-17"}
	for _, arn := range slices.Sorted(maps.Keys(byResource)) {
		doc.Statement = append(doc.Statement, Statement{Sid: sidOf(sid[arn]), Effect: "Allow",
			Action: slices.Compact(slices.Sorted(slices.Values(byResource[arn]))), Resource: []string{arn}})
	}
	return doc, nil
}

// SchemaActions are the calls of a domain's EnsureTable (schema.Ensure):
// a deploy role's, never the application's.
var schemaActions = []string{"dynamodb:CreateTable", "dynamodb:DescribeTable", "dynamodb:DescribeTimeToLive",
	"dynamodb:UpdateTable", "dynamodb:UpdateTimeToLive"}

// DeployPolicy returns the statement of the schema operations of g's
// EnsureTable on its tables: what a deploy role needs to create, verify
// and (with schema.Apply) update them.
func (g Grants) DeployPolicy(arns ARNs) (Document, error) {
	var res []string
	for _, role := range slices.Sorted(maps.Keys(g.Tables)) {
		arn, err := arns.table(role)
		if err != nil {
			return Document{}, err
		}
		res = append(res, arn)
	}
	return Document{Version: "2012-10-17", Statement: []Statement{{Sid: "EnsureTables", Effect: "Allow",
		Action: slices.Clone(schemaActions), Resource: res}}}, nil
}

// StreamPolicy returns the statement a Lambda function needs to read the
// stream of the table tableARN through an event source mapping.
func StreamPolicy(tableARN string) Document {
	return Document{Version: "2012-10-17", Statement: []Statement{{Sid: "ReadStream", Effect: "Allow",
		Action:   []string{"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"},
		Resource: []string{tableARN + "/stream/*"}}}}
}

// DefaultARN is the ARN of table name in any region and account, for a
// policy printed before the ARNs are known.
func DefaultARN(name string) string { return "arn:aws:dynamodb:*:*:table/" + name }

func sidOf(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9':
			if up && 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		default:
			up = true
		}
	}
	return b.String()
}

func sortGrants(gs []Grant) []Grant {
	slices.SortFunc(gs, func(a, b Grant) int {
		return strings.Compare(a.Table+"\x00"+a.Index+"\x00"+a.Action, b.Table+"\x00"+b.Index+"\x00"+b.Action)
	})
	return gs
}

// Sort returns gs sorted and without repeats, as Grants.Methods holds
// them.
func Sort(gs []Grant) []Grant {
	return slices.Compact(sortGrants(slices.Clone(gs)))
}
