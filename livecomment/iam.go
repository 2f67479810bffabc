package livecomment

import (
	_ "embed"

	"github.com/ddbkit/ddbkit/iam"
)

//go:embed iam.json
var iamJSON []byte

// Grants returns the IAM grants of the store's methods, by interface: the
// DynamoDB actions each method calls, on which of the three tables
// ("Rooms", "Comments", "Connections": Tables(env)'s) and indexes,
// recorded from the conformance suite on DynamoDB Local (see package iam).
// Grants().Policy("RoomReader", arns) is the policy of a role that only
// reads rooms; "ddbkit iam livecomment" prints it.
func Grants() iam.Grants { return iam.MustParse(iamJSON) }
