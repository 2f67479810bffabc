package kondate

import (
	_ "embed"

	"github.com/ddbkit/ddbkit/iam"
)

//go:embed iam.json
var iamJSON []byte

// Grants returns the IAM grants of the store's methods, by interface: the
// DynamoDB actions each method calls, on its one table (DefaultTableName) and its indexes,
// recorded from the conformance suite on DynamoDB Local (see package iam).
// Grants().Policy("CatalogStore", arns) is the policy of a role that uses
// only that interface; "ddbkit iam kondate" prints it.
func Grants() iam.Grants { return iam.MustParse(iamJSON) }
