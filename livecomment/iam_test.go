package livecomment_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit/internal/iamrec"
	"github.com/ddbkit/ddbkit/livecomment"
)

// iamInterfaces are the store interfaces whose policies iam.json gives.
var iamInterfaces = []reflect.Type{
	reflect.TypeFor[livecomment.Store](),
	reflect.TypeFor[livecomment.RoomReader](), reflect.TypeFor[livecomment.RoomStore](),
	reflect.TypeFor[livecomment.CommentReader](), reflect.TypeFor[livecomment.CommentPoster](), reflect.TypeFor[livecomment.CommentStore](),
	reflect.TypeFor[livecomment.ConnectionReader](), reflect.TypeFor[livecomment.ConnectionLister](), reflect.TypeFor[livecomment.ConnectionPruner](),
	reflect.TypeFor[livecomment.RoomJoiner](), reflect.TypeFor[livecomment.ConnectionStore](),
}

// iamRec records the grants of the conformance suite's calls on DynamoDB
// Local (TestDynamoStore, and TestDynamoStoreRoomCheckCache for the calls
// of that option), which iamPart checks against iam.json once both ran.
var iamRec = iamrec.New("github.com/ddbkit/ddbkit/livecomment", func(table string) (string, bool) {
	for _, r := range []string{"Rooms", "Comments", "Connections"} {
		if strings.HasPrefix(table, "LiveComment-"+r+"-") {
			return r, true
		}
	}
	return "", false
}, iamInterfaces...)

func iamPart(t *testing.T) {
	iamRec.Part(t, 2, "iam.json", "livecomment", map[string]string{
		"Rooms":       "LiveComment-Rooms-<env>",
		"Comments":    "LiveComment-Comments-<env>",
		"Connections": "LiveComment-Connections-<env>",
	}, iamInterfaces...)
}
