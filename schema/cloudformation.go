package schema

import (
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
)

// CloudFormation returns d as an AWS::DynamoDB::Table resource, indented
// JSON of the form {"Type": "AWS::DynamoDB::Table", "Properties": {...}},
// ready to go under a template's Resources. The properties are generated
// from the same CreateTableInput Ensure uses: TableName,
// AttributeDefinitions, KeySchema, BillingMode (PROVISIONED when d leaves
// it unset, as CreateTable does), ProvisionedThroughput and each index's
// when provisioned, OnDemandThroughput, GlobalSecondaryIndexes,
// LocalSecondaryIndexes, StreamSpecification, TimeToLiveSpecification (from
// d.TTLAttribute), SSESpecification, TableClass, DeletionProtectionEnabled
// and Tags. Parts d does not set are left out.
//
// It fails with ddbkit.ErrInvalidArgument for a definition Ensure would
// refuse, for a provisioned table or index without capacity, and for parts
// of a CreateTableInput it does not export (resource policy, warm
// throughput, vector indexes, global table settings) rather than leave them
// out silently.
func (d Definition) CloudFormation() ([]byte, error) {
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("schema: CloudFormation of table %s: %w", d.Name(), err)
	}
	props, err := cfnProperties(d)
	if err != nil {
		return nil, fmt.Errorf("schema: CloudFormation of table %s: %w", d.Name(), err)
	}
	return json.MarshalIndent(cfnResource{Type: "AWS::DynamoDB::Table", Properties: props}, "", "  ")
}

// The CloudFormation shapes, named and ordered as in the AWS::DynamoDB::Table
// reference.
type (
	cfnResource struct {
		Type       string
		Properties cfnTable
	}
	cfnTable struct {
		TableName                 string
		AttributeDefinitions      []cfnAttribute
		KeySchema                 []cfnKey
		BillingMode               string
		ProvisionedThroughput     *cfnThroughput `json:",omitempty"`
		OnDemandThroughput        *cfnOnDemand   `json:",omitempty"`
		GlobalSecondaryIndexes    []cfnGSI       `json:",omitempty"`
		LocalSecondaryIndexes     []cfnLSI       `json:",omitempty"`
		StreamSpecification       *cfnStream     `json:",omitempty"`
		TimeToLiveSpecification   *cfnTTL        `json:",omitempty"`
		SSESpecification          *cfnSSE        `json:",omitempty"`
		TableClass                string         `json:",omitempty"`
		DeletionProtectionEnabled *bool          `json:",omitempty"`
		Tags                      []cfnTag       `json:",omitempty"`
	}
	cfnAttribute struct {
		AttributeName string
		AttributeType string
	}
	cfnKey struct {
		AttributeName string
		KeyType       string
	}
	cfnThroughput struct {
		ReadCapacityUnits  int64
		WriteCapacityUnits int64
	}
	cfnOnDemand struct {
		MaxReadRequestUnits  *int64 `json:",omitempty"`
		MaxWriteRequestUnits *int64 `json:",omitempty"`
	}
	cfnProjection struct {
		ProjectionType   string
		NonKeyAttributes []string `json:",omitempty"`
	}
	cfnGSI struct {
		IndexName             string
		KeySchema             []cfnKey
		Projection            cfnProjection
		ProvisionedThroughput *cfnThroughput `json:",omitempty"`
		OnDemandThroughput    *cfnOnDemand   `json:",omitempty"`
	}
	cfnLSI struct {
		IndexName  string
		KeySchema  []cfnKey
		Projection cfnProjection
	}
	cfnStream struct {
		StreamViewType string
	}
	cfnTTL struct {
		AttributeName string
		Enabled       bool
	}
	cfnSSE struct {
		SSEEnabled     bool
		SSEType        string `json:",omitempty"`
		KMSMasterKeyId string `json:",omitempty"`
	}
	cfnTag struct {
		Key   string
		Value string
	}
)

func cfnProperties(d Definition) (cfnTable, error) {
	in := d.Input
	switch {
	case in.ResourcePolicy != nil:
		return cfnTable{}, unexported("ResourcePolicy")
	case in.WarmThroughput != nil:
		return cfnTable{}, unexported("WarmThroughput")
	case len(in.VectorIndexes) > 0:
		return cfnTable{}, unexported("VectorIndexes")
	case in.GlobalTableSourceArn != nil || in.GlobalTableSettingsReplicationMode != "":
		return cfnTable{}, unexported("GlobalTableSourceArn and GlobalTableSettingsReplicationMode")
	}
	provisioned := billingProvisioned(in)
	p := cfnTable{
		TableName:                 aws.ToString(in.TableName),
		KeySchema:                 cfnKeys(in.KeySchema),
		BillingMode:               string(in.BillingMode),
		OnDemandThroughput:        cfnOnDemandOf(in.OnDemandThroughput),
		TableClass:                string(in.TableClass),
		DeletionProtectionEnabled: in.DeletionProtectionEnabled,
	}
	if provisioned {
		p.BillingMode = string(types.BillingModeProvisioned)
		if in.ProvisionedThroughput == nil {
			return cfnTable{}, ddbkit.Invalid("Input.ProvisionedThroughput", "is nil for a PROVISIONED table")
		}
		p.ProvisionedThroughput = cfnThroughputOf(in.ProvisionedThroughput)
	}
	for _, a := range in.AttributeDefinitions {
		p.AttributeDefinitions = append(p.AttributeDefinitions, cfnAttribute{aws.ToString(a.AttributeName), string(a.AttributeType)})
	}
	for i, g := range in.GlobalSecondaryIndexes {
		if g.WarmThroughput != nil {
			return cfnTable{}, unexported(fmt.Sprintf("GlobalSecondaryIndexes[%d].WarmThroughput", i))
		}
		x := cfnGSI{
			IndexName:          aws.ToString(g.IndexName),
			KeySchema:          cfnKeys(g.KeySchema),
			Projection:         cfnProjectionOf(g.Projection),
			OnDemandThroughput: cfnOnDemandOf(g.OnDemandThroughput),
		}
		if provisioned {
			if g.ProvisionedThroughput == nil {
				return cfnTable{}, ddbkit.Invalid(fmt.Sprintf("Input.GlobalSecondaryIndexes[%d].ProvisionedThroughput", i), "is nil for an index of a PROVISIONED table")
			}
			x.ProvisionedThroughput = cfnThroughputOf(g.ProvisionedThroughput)
		}
		p.GlobalSecondaryIndexes = append(p.GlobalSecondaryIndexes, x)
	}
	for _, l := range in.LocalSecondaryIndexes {
		p.LocalSecondaryIndexes = append(p.LocalSecondaryIndexes, cfnLSI{
			IndexName:  aws.ToString(l.IndexName),
			KeySchema:  cfnKeys(l.KeySchema),
			Projection: cfnProjectionOf(l.Projection),
		})
	}
	if s := in.StreamSpecification; s != nil && aws.ToBool(s.StreamEnabled) {
		p.StreamSpecification = &cfnStream{StreamViewType: string(s.StreamViewType)}
	}
	if d.TTLAttribute != "" {
		p.TimeToLiveSpecification = &cfnTTL{AttributeName: d.TTLAttribute, Enabled: true}
	}
	if s := in.SSESpecification; s != nil {
		p.SSESpecification = &cfnSSE{SSEEnabled: aws.ToBool(s.Enabled), SSEType: string(s.SSEType), KMSMasterKeyId: aws.ToString(s.KMSMasterKeyId)}
	}
	for _, t := range in.Tags {
		p.Tags = append(p.Tags, cfnTag{aws.ToString(t.Key), aws.ToString(t.Value)})
	}
	return p, nil
}

func unexported(field string) error {
	return ddbkit.Invalid("Input."+field, "cannot be exported to CloudFormation by ddbkit; add it to the template by hand")
}

func cfnKeys(ks []types.KeySchemaElement) []cfnKey {
	out := make([]cfnKey, 0, len(ks))
	for _, k := range ks {
		out = append(out, cfnKey{aws.ToString(k.AttributeName), string(k.KeyType)})
	}
	return out
}

func cfnProjectionOf(p *types.Projection) cfnProjection {
	return cfnProjection{ProjectionType: string(p.ProjectionType), NonKeyAttributes: p.NonKeyAttributes}
}

func cfnThroughputOf(p *types.ProvisionedThroughput) *cfnThroughput {
	return &cfnThroughput{ReadCapacityUnits: aws.ToInt64(p.ReadCapacityUnits), WriteCapacityUnits: aws.ToInt64(p.WriteCapacityUnits)}
}

func cfnOnDemandOf(o *types.OnDemandThroughput) *cfnOnDemand {
	if o == nil {
		return nil
	}
	return &cfnOnDemand{MaxReadRequestUnits: o.MaxReadRequestUnits, MaxWriteRequestUnits: o.MaxWriteRequestUnits}
}
