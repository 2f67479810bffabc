package memtable

import (
	"crypto/sha1" //nolint:gosec // DynamoDB Local's order, not a security use
	"encoding/hex"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// Ties: how DynamoDB Local orders index entries whose index sort keys are
// equal. It keeps each table in SQLite, with SHA-1 digests of the base key
// beside it, and answers an index Query with
//
//	ORDER BY <index key columns>, <trailing column>
//
// where the trailing column tells apart the entries the index key does not
// (SQLiteDBAccess.getTrailingHashColumnName in DynamoDBLocal.jar):
//
//	the index key holds       the base table has   trailing column
//	the base partition key    a sort key           hash(base sort key), unless the index holds it too
//	                          no sort key          none: the index key is unique
//	the base sort key only    a sort key           hash(base partition key)
//	neither                   a sort key           hash(hash(base partition key) ‖ hash(base sort key))
//	neither                   no sort key          hash(base partition key)
//
// hash(v) is SHA-1 of the salt "LocalDdb" then v's UTF-8 bytes; the pair's
// is SHA-1 of the salt then both digests. The digests are BLOBs, which
// SQLite compares bytewise, the same in both directions and in the
// ExclusiveStartKey condition, so paging resumes inside a run of ties.
// Checked against DynamoDB Local for every shape of index above, both
// directions, with and without a Limit: TestTieOrderOfDynamoDBLocal keeps
// orders it returned, and backendtest's Ties cases run on it.
//
// DynamoDB itself documents no order for ties; the domains make their index
// sort keys unique where a page boundary inside ties would matter.
type tieRule struct {
	kind   tieKind
	pk, sk string // the base table's key attributes
}

type tieKind uint8

const (
	tieNone    tieKind = iota // a base table, or an index whose key is unique
	tieSK                     // hash(base sort key)
	tiePK                     // hash(base partition key)
	tieBaseKey                // hash of both digests
)

// ruleOf is the tie rule of index ix of t; a zero ix is the base table.
func ruleOf(t ddb.Table, ix ddb.Index) tieRule {
	r := tieRule{pk: t.PartitionKey, sk: t.SortKey}
	in := func(a string) bool { return a != "" && (a == ix.PartitionKey || a == ix.SortKey) }
	switch {
	case ix.Name == "":
	case in(t.PartitionKey):
		if t.SortKey != "" && !in(t.SortKey) {
			r.kind = tieSK
		}
	case t.SortKey == "" || in(t.SortKey):
		r.kind = tiePK
	default:
		r.kind = tieBaseKey
	}
	return r
}

// salt is the bytes DynamoDB Local hashes before every key value.
const salt = "LocalDdb"

// tie returns the tie-breaker of the entry with full key key: the trailing
// digest in hex, which sorts after ddb.SortCond.Seek's "before every tie"
// (""), and before its "after every tie" (0xFF, above every hex digit).
func (r tieRule) tie(key ddb.Item) string {
	var sum [sha1.Size]byte
	switch r.kind {
	case tieSK:
		sum = digest(key[r.sk])
	case tiePK:
		sum = digest(key[r.pk])
	case tieBaseKey:
		p, s := digest(key[r.pk]), digest(key[r.sk])
		var buf [len(salt) + 2*sha1.Size]byte
		sum = sha1.Sum(append(append(append(buf[:0], salt...), p[:]...), s[:]...)) //nolint:gosec // see the package's tie order
	default:
		// Unique keys need no tie-breaker, but Seek's "before every tie"
		// is "": an entry must sort after it.
		return "0"
	}
	return hex.EncodeToString(sum[:])
}

// digest is DynamoDB Local's hash of one key value. Keys are Strings here;
// a Binary value hashes its bytes, as DynamoDB Local's does.
func digest(v types.AttributeValue) [sha1.Size]byte {
	var buf [128]byte // most keys: no allocation
	b := append(buf[:0], salt...)
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		b = append(b, v.Value...)
	case *types.AttributeValueMemberB:
		b = append(b, v.Value...)
	}
	return sha1.Sum(b) //nolint:gosec // see the package's tie order
}
