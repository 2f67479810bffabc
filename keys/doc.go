// Package keys builds and parses the composite DynamoDB key values that every
// ddbkit domain stores, and the fixed-width encodings that make those keys
// sort the way the domain needs.
//
// A composite key is a list of segments joined with [Sep] ("#"):
//
//	user#alice                          PK(Lit("user"), Field("Username", u))
//	todo#<uuid>                         SK(Lit("todo"), Field("ID", id))
//	W#<id>#CLOTH                        PK(Lit("W"), Field("WardrobeID", id), Lit("CLOTH"))
//	CREATED#0001700000000000#<id>       SK(Lit("CREATED"), Field("CreatedAt", pad), Field("ID", id))
//	DATE#20240107#<histId>              SK(Lit("DATE"), Field("Date", DateCompact(d)), Field("ID", h))
//
// # Injectivity: why the separator rule matters
//
// [PK], [SK] and [Prefix] accept a segment only if it is non-empty, valid
// UTF-8 and free of Sep. Under that rule joining is injective: different
// segment lists give different keys, and [Split] recovers the list exactly.
// This is what keeps one tenant's items out of another's. If a username could
// contain "#", the user "alice#todo" would own the key "user#alice#todo",
// which also reads as a key under user alice, and a begins_with("user#alice#")
// condition meant for alice would match it. If a segment could be empty, "a#" would be both the key
// [a, ""] and the prefix of every key under "a". Because no valid segment
// contains Sep, "user#alice#" can only match keys whose second segment is
// exactly "alice".
//
// The joined value must also fit DynamoDB's limits, counted in UTF-8 bytes,
// not characters: [MaxPartitionKeyBytes] for a partition key and
// [MaxSortKeyBytes] for a sort key. A Japanese character takes three bytes,
// so a one-segment sort key holds at most 341 of them.
//
// # Sortable encodings
//
// DynamoDB orders sort keys by their UTF-8 bytes, so numbers and times are
// written at a fixed width, where byte order equals numeric or time order:
//
//	Encoding       Example                     Parse
//	Pad            0001700000000000            strconv.ParseInt
//	UnixMillis     1704585600000               ParseUnixMillis
//	Timestamp      2024-01-07T00:00:00.000Z    ParseTimestamp
//	DateCompact    20240107                    ParseDateCompact
//	DateISO        2024-01-07                  ParseDateISO
//
// The parse functions are strict: they accept only what the matching encoder
// produces, so a stored key and the value parsed from it always round-trip.
//
// # Errors
//
// Every error this package returns is a *ddbkit.ValidationError, which
// matches ddbkit.ErrInvalidArgument through errors.Is. Its Field names the
// input at fault: the Field of a caller-supplied segment, "key segment N"
// (N counted from 0, as in Split's result) for a literal one, and a
// descriptive name such as "date" or "timestamp" in the parse functions.
// Callers that know better names may wrap or rewrite the error.
//
// # Decisions
//
//   - A segment may not contain U+10FFFF. [PrefixRange] uses that code point
//     as its upper bound, and banning it keeps the bound above every valid
//     segment. It is a Unicode noncharacter, so no real input loses anything.
//   - When a joined key is too long, the error names the longest
//     caller-supplied segment (or "key" if all segments are literals): that
//     is the input the caller most likely has to shorten.
//   - Other characters, control characters included, are allowed: DynamoDB
//     stores any UTF-8, and the separator rule alone is what injectivity needs.
package keys
