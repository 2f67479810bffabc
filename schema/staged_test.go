package schema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/schema"
)

// TestStagedTemplate checks the staged template's structure (a Parameter
// and a Condition per optional index, each guarding exactly that index and
// the attributes only it uses), then resolves its conditions as
// CloudFormation would at each stage and compares the table with the
// plain export of the same design holding just the indexes of that stage.
func TestStagedTemplate(t *testing.T) {
	d := orders("orders")
	b, err := d.StagedTemplate("Orders", "byStatus", "byOwner")
	if err != nil {
		t.Fatal(err)
	}
	var tpl struct {
		AWSTemplateFormatVersion string
		Parameters               map[string]struct {
			Type          string
			Default       string
			AllowedValues []string
		}
		Conditions map[string]any
		Resources  map[string]struct {
			Type       string
			Properties map[string]any
		}
	}
	if err := json.Unmarshal(b, &tpl); err != nil {
		t.Fatalf("template is not JSON: %v\n%s", err, b)
	}
	if tpl.AWSTemplateFormatVersion != "2010-09-09" || len(tpl.Resources) != 1 || tpl.Resources["Orders"].Type != "AWS::DynamoDB::Table" {
		t.Fatalf("template = %s; want one AWS::DynamoDB::Table, Orders", b)
	}
	for _, p := range []string{"EnablebyStatus", "EnablebyOwner"} {
		got := tpl.Parameters[p]
		if got.Type != "String" || got.Default != "false" || !reflect.DeepEqual(got.AllowedValues, []string{"true", "false"}) {
			t.Errorf("Parameter %s = %+v; want a String, default false, true or false", p, got)
		}
	}
	if len(tpl.Parameters) != 2 || len(tpl.Conditions) != 2 {
		t.Errorf("Parameters %v, Conditions %v; want two of each", tpl.Parameters, tpl.Conditions)
	}
	props := tpl.Resources["Orders"].Properties
	guarded := map[string][]string{} // condition -> the GSIs it guards
	for _, g := range props["GlobalSecondaryIndexes"].([]any) {
		if c, v, ok := fnIf(g); ok {
			guarded[c] = append(guarded[c], v.(map[string]any)["IndexName"].(string))
		}
	}
	if want := map[string][]string{"byStatusEnabled": {"byStatus"}, "byOwnerEnabled": {"byOwner"}}; !reflect.DeepEqual(guarded, want) {
		t.Errorf("GSIs by condition = %v, want %v (one GSI per condition, GSI1 always)", guarded, want)
	}

	for _, stage := range [][]string{nil, {"byStatus"}, {"byStatus", "byOwner"}} {
		on := map[string]bool{}
		keep := []string{"GSI1"}
		for _, ix := range stage {
			on[ix+"Enabled"] = true
			keep = append(keep, ix)
		}
		got := resolve(props, on)
		plain, err := schema.Definition{Input: without(d, keep...)}.CloudFormation()
		if err != nil {
			t.Fatal(err)
		}
		var want struct{ Properties any }
		if err := json.Unmarshal(plain, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want.Properties) {
			t.Errorf("stage %v: the table resolves to\n%v\nwant the export of the design with %v:\n%v", stage, got, keep, want.Properties)
		}
	}

	_, err = d.StagedTemplate("Orders", "nope")
	ddbtest.WantSentinel(t, "StagedTemplate of an unknown index", err, ddbkit.ErrInvalidArgument)
	_, err = d.StagedTemplate("Or-ders", "byOwner")
	ddbtest.WantSentinel(t, "StagedTemplate with a bad logical ID", err, ddbkit.ErrInvalidArgument)
}

// fnIf splits {"Fn::If": [cond, v, {"Ref": "AWS::NoValue"}]}.
func fnIf(v any) (string, any, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return "", nil, false
	}
	args, ok := m["Fn::If"].([]any)
	if !ok || len(args) != 3 || !reflect.DeepEqual(args[2], map[string]any{"Ref": "AWS::NoValue"}) {
		return "", nil, false
	}
	return args[0].(string), args[1], true
}

// resolve evaluates the Fn::If of v with the conditions on, dropping
// AWS::NoValue from lists, as CloudFormation does. A condition of several
// (Fn::Or) is not resolved: the test's design has none.
func resolve(v any, on map[string]bool) any {
	switch v := v.(type) {
	case map[string]any:
		if c, x, ok := fnIf(v); ok {
			if on[c] {
				return resolve(x, on)
			}
			return nil
		}
		out := map[string]any{}
		for k, x := range v {
			out[k] = resolve(x, on)
		}
		return out
	case []any:
		var out []any
		for _, x := range v {
			if r := resolve(x, on); r != nil {
				out = append(out, r)
			}
		}
		return out
	}
	return v
}
