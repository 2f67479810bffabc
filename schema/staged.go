package schema

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/ddbkit/ddbkit"
)

// StagedTemplate returns a whole CloudFormation template (JSON) holding d
// as the resource logicalID, in which each GSI named in optional is behind
// a template Parameter and a Condition, so that the stack itself rolls the
// indexes out: DynamoDB adds one GSI per table update, and CloudFormation
// refuses an update that adds two.
//
// For an optional index X (its name without the characters CloudFormation
// refuses in a logical ID), the Parameter EnableX ("true" or "false",
// default "false") sets the Condition XEnabled; the index is
// {"Fn::If": ["XEnabled", <index>, {"Ref": "AWS::NoValue"}]} in
// GlobalSecondaryIndexes, and so is each attribute definition that only
// optional indexes use (DynamoDB refuses a definition no key uses), under
// a condition that holds when any index using it is enabled. Deploy with
// EnableGSI2=true, then later EnableGSI3=true, one index per deploy.
//
// It fails as CloudFormation does, and with ddbkit.ErrInvalidArgument for
// an optional name that is not one of d's GSIs, or two that share a
// logical ID.
func (d Definition) StagedTemplate(logicalID string, optional ...string) ([]byte, error) {
	fail := func(err error) ([]byte, error) {
		return nil, fmt.Errorf("schema: CloudFormation of table %s: %w", d.Name(), err)
	}
	if err := d.check(); err != nil {
		return fail(err)
	}
	props, err := cfnProperties(d)
	if err != nil {
		return fail(err)
	}
	if !validLogicalID(logicalID) {
		return fail(ddbkit.Invalid("logicalID", "must be 1 to 255 ASCII letters and digits, got %q", logicalID))
	}
	cond := map[string]string{} // optional index -> its condition
	t := stagedTemplate{
		AWSTemplateFormatVersion: "2010-09-09",
		Description:              fmt.Sprintf("DynamoDB table %s; the optional indexes %v are added one deploy at a time through their Enable parameters", d.Name(), optional),
		Parameters:               map[string]stagedParameter{},
		Conditions:               map[string]any{},
	}
	for _, name := range optional {
		if !slices.ContainsFunc(props.GlobalSecondaryIndexes, func(g cfnGSI) bool { return g.IndexName == name }) {
			return fail(ddbkit.Invalid("optional", "%q is not a GSI of the definition", name))
		}
		id := notLogical(name)
		param, c := "Enable"+id, id+"Enabled"
		if _, dup := t.Parameters[param]; dup || id == "" {
			return fail(ddbkit.Invalid("optional", "%q has the logical ID %q of another optional index, or none", name, id))
		}
		t.Parameters[param] = stagedParameter{Type: "String", Default: "false", AllowedValues: []string{"true", "false"},
			Description: fmt.Sprintf("Create the GSI %s. Enable one index per deploy: DynamoDB adds one GSI per table update.", name)}
		t.Conditions[c] = map[string]any{"Fn::Equals": []any{map[string]string{"Ref": param}, "true"}}
		cond[name] = c
	}
	ifCond := func(c string, v any) any {
		return map[string]any{"Fn::If": []any{c, v, map[string]string{"Ref": "AWS::NoValue"}}}
	}
	// An attribute's users: the table's and required indexes' keys use it
	// always; optional indexes under their conditions.
	always := map[string]bool{}
	under := map[string][]string{}
	for _, k := range props.KeySchema {
		always[k.AttributeName] = true
	}
	for _, l := range props.LocalSecondaryIndexes {
		for _, k := range l.KeySchema {
			always[k.AttributeName] = true
		}
	}
	gsis := make([]any, 0, len(props.GlobalSecondaryIndexes))
	for _, g := range props.GlobalSecondaryIndexes {
		c, opt := cond[g.IndexName]
		for _, k := range g.KeySchema {
			if opt {
				under[k.AttributeName] = append(under[k.AttributeName], c)
			} else {
				always[k.AttributeName] = true
			}
		}
		if opt {
			gsis = append(gsis, ifCond(c, g))
		} else {
			gsis = append(gsis, g)
		}
	}
	attrs := make([]any, 0, len(props.AttributeDefinitions))
	for _, a := range props.AttributeDefinitions {
		cs := under[a.AttributeName]
		switch {
		case always[a.AttributeName] || len(cs) == 0:
			attrs = append(attrs, a)
		case len(cs) == 1:
			attrs = append(attrs, ifCond(cs[0], a))
		default:
			c := notLogical(a.AttributeName) + "Used"
			ors := make([]any, 0, len(cs))
			for _, x := range cs {
				ors = append(ors, map[string]string{"Condition": x})
			}
			t.Conditions[c] = map[string]any{"Fn::Or": ors}
			attrs = append(attrs, ifCond(c, a))
		}
	}
	// The properties as a map, so that the indexes and attributes can hold
	// the intrinsic functions beside the plain values.
	b, err := json.Marshal(props)
	if err != nil {
		return fail(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return fail(err)
	}
	m["AttributeDefinitions"] = attrs
	if len(gsis) > 0 {
		m["GlobalSecondaryIndexes"] = gsis
	}
	t.Resources = map[string]any{logicalID: map[string]any{"Type": "AWS::DynamoDB::Table", "Properties": m}}
	return json.MarshalIndent(t, "", "  ")
}

type stagedTemplate struct {
	AWSTemplateFormatVersion string
	Description              string
	Parameters               map[string]stagedParameter
	Conditions               map[string]any
	Resources                map[string]any
}

type stagedParameter struct {
	Type          string
	Default       string
	AllowedValues []string
	Description   string
}

// notLogical is s without the characters a CloudFormation logical ID
// cannot hold.
func notLogical(s string) string {
	out := make([]byte, 0, len(s))
	for i := range len(s) {
		if c := s[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			out = append(out, c)
		}
	}
	return string(out)
}

func validLogicalID(id string) bool {
	return id != "" && len(id) <= 255 && notLogical(id) == id
}
