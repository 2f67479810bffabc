package ddbkit

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// TableItems holds raw items in DynamoDB's attribute-value form, by table
// name: what a Scan of each table returns. Every memory store exports its
// contents as TableItems and imports them, so a test can compare a memory
// store with a real table attribute for attribute, and seed a memory store
// with items in a design's layout (for example items exported from a
// production table).
type TableItems map[string][]map[string]types.AttributeValue
