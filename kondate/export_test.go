package kondate

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// PutRaw stores item in s as it is, unchecked: what Import refuses, so
// that a test can hold a memory store that holds a corrupt item (as a
// table another program wrote does) to what DynamoStore reports.
func PutRaw(s *MemoryStore, item map[string]types.AttributeValue) {
	if err := s.m.Import(s.o.TableName, []map[string]types.AttributeValue{item}); err != nil {
		panic(err)
	}
}
