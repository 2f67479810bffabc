package ddb

// ReservedList is reservedList, for the tests of package ddb_test.
const ReservedList = reservedList
