package wardrobe

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// DynamoStore is the Store on DynamoDB. Its base-table reads are strongly
// consistent; its listings read GSIs, which DynamoDB updates eventually
// (DynamoDB Local, and MemoryStore, at once).
type DynamoStore struct {
	*core
}

var _ Store = (*DynamoStore)(nil)

// NewDynamoStore returns a Store on the table named by the options, which
// must exist (see EnsureTable). c is usually a *dynamodb.Client.
func NewDynamoStore(c ddbkit.Client, optFns ...func(*Options)) *DynamoStore {
	o := newOptions(optFns)
	t := o.table()
	b := o.backoff()
	return &DynamoStore{&core{o: o, t: t, b: backend.NewDynamo(c, b, nil, o.backendTable(t)),
		thumbs: func(ctx context.Context, ks []backend.Key) ([]ddb.Item, error) {
			keys := make([]ddb.Item, len(ks))
			for i, k := range ks {
				keys[i] = k.Item(t)
			}
			// Eventually consistent and projected: the listings that show
			// thumbnails read a GSI, which is eventually consistent
			// already, and a thumbnail needs no more. BatchGet's drain is
			// the one retry loop of the read.
			return ddb.BatchGet(ctx, c, t, keys, ddb.BatchGetOptions{ChunkSize: batchGetChunk, Backoff: b, Projection: prepThumb})
		}}}
}

// prepThumb is the projection of a thumbnail: the key, which names the
// clothing, and what a Thumbnail shows (name, imageKey, status).
var prepThumb = ddb.MustPrepare(expression.NewBuilder().WithProjection(
	expression.NamesList(expression.Name(AttrPK), expression.Name(AttrSK), expression.Name(attrName),
		expression.Name(attrImageKey), expression.Name(attrStatus))))
