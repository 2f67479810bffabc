package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// Name returns the table's name, or "" when d has no Input.
func (d Definition) Name() string {
	if d.Input == nil {
		return ""
	}
	return aws.ToString(d.Input.TableName)
}

// CreateTableInput returns a copy of d.Input that the caller may change:
// its slices, and the structs they and d.Input point to, are copied, so
// nothing the caller does to the copy reaches d. It returns nil when d has
// no Input.
func (d Definition) CreateTableInput() *dynamodb.CreateTableInput {
	if d.Input == nil {
		return nil
	}
	in := *d.Input
	in.AttributeDefinitions = slices.Clone(in.AttributeDefinitions)
	in.KeySchema = slices.Clone(in.KeySchema)
	in.GlobalSecondaryIndexes = slices.Clone(in.GlobalSecondaryIndexes)
	for i := range in.GlobalSecondaryIndexes {
		g := &in.GlobalSecondaryIndexes[i]
		g.KeySchema = slices.Clone(g.KeySchema)
		g.Projection = cloneProjection(g.Projection)
		g.ProvisionedThroughput = clonePtr(g.ProvisionedThroughput)
		g.OnDemandThroughput = clonePtr(g.OnDemandThroughput)
		g.WarmThroughput = clonePtr(g.WarmThroughput)
	}
	in.LocalSecondaryIndexes = slices.Clone(in.LocalSecondaryIndexes)
	for i := range in.LocalSecondaryIndexes {
		l := &in.LocalSecondaryIndexes[i]
		l.KeySchema = slices.Clone(l.KeySchema)
		l.Projection = cloneProjection(l.Projection)
	}
	in.ProvisionedThroughput = clonePtr(in.ProvisionedThroughput)
	in.OnDemandThroughput = clonePtr(in.OnDemandThroughput)
	in.WarmThroughput = clonePtr(in.WarmThroughput)
	in.StreamSpecification = clonePtr(in.StreamSpecification)
	in.SSESpecification = clonePtr(in.SSESpecification)
	in.Tags = slices.Clone(in.Tags)
	in.VectorIndexes = slices.Clone(in.VectorIndexes)
	return &in
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

func cloneProjection(p *types.Projection) *types.Projection {
	if p == nil {
		return nil
	}
	c := *p
	c.NonKeyAttributes = slices.Clone(c.NonKeyAttributes)
	return &c
}

// check reports a definition Ensure cannot work from: no name, no partition
// key, a key attribute without a type, an index without a projection.
func (d Definition) check() error {
	in := d.Input
	switch {
	case in == nil:
		return ddbkit.Invalid("Input", "is nil; a Definition needs a CreateTableInput")
	case aws.ToString(in.TableName) == "":
		return ddbkit.Invalid("Input.TableName", "is empty")
	}
	typed := attrTypes(in.AttributeDefinitions)
	keys := func(field string, ks []types.KeySchemaElement) error {
		if h, _ := keyNames(ks); h == "" {
			return ddbkit.Invalid(field, "has no HASH key")
		}
		for _, k := range ks {
			if _, ok := typed[aws.ToString(k.AttributeName)]; !ok {
				return ddbkit.Invalid("Input.AttributeDefinitions", "has no type for key attribute %q of %s", aws.ToString(k.AttributeName), field)
			}
		}
		return nil
	}
	if err := keys("Input.KeySchema", in.KeySchema); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, g := range in.GlobalSecondaryIndexes {
		field := fmt.Sprintf("Input.GlobalSecondaryIndexes[%d]", i)
		if err := index(field, g.IndexName, g.Projection, seen); err != nil {
			return err
		}
		if err := keys(field+".KeySchema", g.KeySchema); err != nil {
			return err
		}
	}
	for i, l := range in.LocalSecondaryIndexes {
		field := fmt.Sprintf("Input.LocalSecondaryIndexes[%d]", i)
		if err := index(field, l.IndexName, l.Projection, seen); err != nil {
			return err
		}
		if err := keys(field+".KeySchema", l.KeySchema); err != nil {
			return err
		}
	}
	if s := in.StreamSpecification; s != nil && aws.ToBool(s.StreamEnabled) && s.StreamViewType == "" {
		return ddbkit.Invalid("Input.StreamSpecification.StreamViewType", "is empty for an enabled stream")
	}
	return nil
}

func index(field string, name *string, p *types.Projection, seen map[string]bool) error {
	n := aws.ToString(name)
	switch {
	case n == "":
		return ddbkit.Invalid(field+".IndexName", "is empty")
	case seen[n]:
		return ddbkit.Invalid(field+".IndexName", "%q names two indexes", n)
	case p == nil || p.ProjectionType == "":
		return ddbkit.Invalid(field+".Projection", "is empty")
	}
	seen[n] = true
	return nil
}

// attrTypes maps attribute names to their types.
func attrTypes(defs []types.AttributeDefinition) map[string]types.ScalarAttributeType {
	m := make(map[string]types.ScalarAttributeType, len(defs))
	for _, a := range defs {
		m[aws.ToString(a.AttributeName)] = a.AttributeType
	}
	return m
}

// keyNames returns the HASH and RANGE attributes of a key schema ("" when
// absent).
func keyNames(ks []types.KeySchemaElement) (hash, rng string) {
	for _, k := range ks {
		switch k.KeyType {
		case types.KeyTypeHash:
			hash = aws.ToString(k.AttributeName)
		case types.KeyTypeRange:
			rng = aws.ToString(k.AttributeName)
		}
	}
	return hash, rng
}

// describeKey renders a key schema as "(pk, sk)".
func describeKey(ks []types.KeySchemaElement) string {
	h, r := keyNames(ks)
	if r == "" {
		return "(" + h + ")"
	}
	return "(" + h + ", " + r + ")"
}

// describeProjection renders a projection as "ALL" or "INCLUDE [a b]".
func describeProjection(p *types.Projection) string {
	if p == nil {
		return "no projection"
	}
	if p.ProjectionType == types.ProjectionTypeInclude {
		return fmt.Sprintf("%s [%s]", p.ProjectionType, strings.Join(sortedSet(p.NonKeyAttributes), " "))
	}
	return string(p.ProjectionType)
}

func sortedSet(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return slices.Compact(c)
}

// billingProvisioned reports whether in creates a provisioned table, which
// is CreateTable's default when BillingMode is unset.
func billingProvisioned(in *dynamodb.CreateTableInput) bool {
	return in.BillingMode == "" || in.BillingMode == types.BillingModeProvisioned
}
