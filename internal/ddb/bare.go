package ddb

import "strings"

// BareName reports whether DynamoDB reads attribute name n written as it
// is in an expression, without an ExpressionAttributeNames placeholder: a
// letter, then letters, digits and underscores, at most maxBareLen bytes,
// and neither one of DynamoDB's reserved words (in any case) nor a
// function or keyword of the expression grammar. The bound keeps a long
// name of another writer's item, in a condition on values read, from
// taking an expression past DynamoDB's 4 KB.
//
// DynamoDB documents its reserved words as a fixed list
// (developerguide/ReservedWords.html, copied into reservedList).
// TestReservedWordsDynamoDB holds the list to DynamoDB Local, which
// refuses all but two of its words bare (those two keep their
// placeholders all the same), and every store's suite on DynamoDB Local
// sends the names ddbkit writes bare.
func BareName(n string) bool {
	if n == "" || len(n) > maxBareLen || !isLetter(n[0]) {
		return false
	}
	for i := 1; i < len(n); i++ {
		if !nameByte(n[i]) {
			return false
		}
	}
	_, reserved := reservedWords[strings.ToUpper(n)]
	return !reserved
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// nameByte reports whether c may follow the first letter of a bare name,
// or the '#' of a placeholder.
func nameByte(c byte) bool { return isLetter(c) || '0' <= c && c <= '9' || c == '_' }

// Bare returns p with each attribute name that BareName allows written in
// its expressions in place of its placeholder, and left out of its names:
// a smaller request, since each placeholder costs an entry of
// ExpressionAttributeNames in every request that sends the expression.
// Reserved words and names that are not plain identifiers keep their
// placeholders. p itself is unchanged.
func (p *Prepared) Bare() *Prepared {
	bare := make(map[string]string, len(p.names)) // placeholder → name
	for ph, n := range p.names {
		if BareName(n) {
			bare[ph] = n
		}
	}
	if len(bare) == 0 {
		return p
	}
	q := *p
	for _, e := range []**string{&q.cond, &q.update, &q.filter, &q.keyCond, &q.proj} {
		if *e != nil {
			s := inline(**e, bare)
			*e = &s
		}
	}
	q.names = nil
	if len(bare) < len(p.names) {
		q.names = make(map[string]string, len(p.names)-len(bare))
		for ph, n := range p.names {
			if _, ok := bare[ph]; !ok {
				q.names[ph] = n
			}
		}
	}
	return &q
}

// inline returns expression e with each placeholder of bare replaced by
// its name. A placeholder is '#' and every letter, digit and underscore
// after it, so that #1 is never taken for the start of #10.
func inline(e string, bare map[string]string) string {
	var b strings.Builder
	b.Grow(len(e))
	for i := 0; i < len(e); {
		if e[i] != '#' {
			b.WriteByte(e[i])
			i++
			continue
		}
		j := i + 1
		for j < len(e) && nameByte(e[j]) {
			j++
		}
		if n, ok := bare[e[i:j]]; ok {
			b.WriteString(n)
		} else {
			b.WriteString(e[i:j])
		}
		i = j
	}
	return b.String()
}

// reservedWords are DynamoDB's reserved words and the expression
// grammar's own words, in upper case.
var reservedWords = func() map[string]struct{} {
	m := make(map[string]struct{}, 600)
	for _, w := range strings.Fields(reservedList + grammarWords) {
		m[w] = struct{}{}
	}
	return m
}()

// maxBareLen bounds the names BareName allows.
const maxBareLen = 64

// grammarWords are the expression grammar's functions, and the keyword
// REMOVE, which DynamoDB's list of reserved words leaves out.
const grammarWords = `
	ATTRIBUTE_EXISTS ATTRIBUTE_NOT_EXISTS ATTRIBUTE_TYPE BEGINS_WITH CONTAINS
	IF_NOT_EXISTS LIST_APPEND REMOVE
`

// reservedList is DynamoDB's list of reserved words (573 of them).
const reservedList = `
	ABORT ABSOLUTE ACTION ADD AFTER AGENT AGGREGATE ALL ALLOCATE ALTER
	ANALYZE AND ANY ARCHIVE ARE ARRAY AS ASC ASCII ASENSITIVE ASSERTION
	ASYMMETRIC AT ATOMIC ATTACH ATTRIBUTE AUTH AUTHORIZATION AUTHORIZE AUTO
	AVG BACK BACKUP BASE BATCH BEFORE BEGIN BETWEEN BIGINT BINARY BIT BLOB
	BLOCK BOOLEAN BOTH BREADTH BUCKET BULK BY BYTE CALL CALLED CALLING
	CAPACITY CASCADE CASCADED CASE CAST CATALOG CHAR CHARACTER CHECK CLASS
	CLOB CLOSE CLUSTER CLUSTERED CLUSTERING CLUSTERS COALESCE COLLATE
	COLLATION COLLECTION COLUMN COLUMNS COMBINE COMMENT COMMIT COMPACT
	COMPILE COMPRESS CONDITION CONFLICT CONNECT CONNECTION CONSISTENCY
	CONSISTENT CONSTRAINT CONSTRAINTS CONSTRUCTOR CONSUMED CONTINUE CONVERT
	COPY CORRESPONDING COUNT COUNTER CREATE CROSS CUBE CURRENT CURSOR CYCLE
	DATA DATABASE DATE DATETIME DAY DEALLOCATE DEC DECIMAL DECLARE DEFAULT
	DEFERRABLE DEFERRED DEFINE DEFINED DEFINITION DELETE DELIMITED DEPTH
	DEREF DESC DESCRIBE DESCRIPTOR DETACH DETERMINISTIC DIAGNOSTICS
	DIRECTORIES DISABLE DISCONNECT DISTINCT DISTRIBUTE DO DOMAIN DOUBLE DROP
	DUMP DURATION DYNAMIC EACH ELEMENT ELSE ELSEIF EMPTY ENABLE END EQUAL
	EQUALS ERROR ESCAPE ESCAPED EVAL EVALUATE EXCEEDED EXCEPT EXCEPTION
	EXCEPTIONS EXCLUSIVE EXEC EXECUTE EXISTS EXIT EXPLAIN EXPLODE EXPORT
	EXPRESSION EXTENDED EXTERNAL EXTRACT FAIL FALSE FAMILY FETCH FIELDS FILE
	FILTER FILTERING FINAL FINISH FIRST FIXED FLATTERN FLOAT FOR FORCE
	FOREIGN FORMAT FORWARD FOUND FREE FROM FULL FUNCTION FUNCTIONS GENERAL
	GENERATE GET GLOB GLOBAL GO GOTO GRANT GREATER GROUP GROUPING HANDLER
	HASH HAVE HAVING HEAP HIDDEN HOLD HOUR IDENTIFIED IDENTITY IF IGNORE
	IMMEDIATE IMPORT IN INCLUDING INCLUSIVE INCREMENT INCREMENTAL INDEX
	INDEXED INDEXES INDICATOR INFINITE INITIALLY INLINE INNER INNTER INOUT
	INPUT INSENSITIVE INSERT INSTEAD INT INTEGER INTERSECT INTERVAL INTO
	INVALIDATE IS ISOLATION ITEM ITEMS ITERATE JOIN KEY KEYS LAG LANGUAGE
	LARGE LAST LATERAL LEAD LEADING LEAVE LEFT LENGTH LESS LEVEL LIKE LIMIT
	LIMITED LINES LIST LOAD LOCAL LOCALTIME LOCALTIMESTAMP LOCATION LOCATOR
	LOCK LOCKS LOG LOGED LONG LOOP LOWER MAP MATCH MATERIALIZED MAX MAXLEN
	MEMBER MERGE METHOD METRICS MIN MINUS MINUTE MISSING MOD MODE MODIFIES
	MODIFY MODULE MONTH MULTI MULTISET NAME NAMES NATIONAL NATURAL NCHAR
	NCLOB NEW NEXT NO NONE NOT NULL NULLIF NUMBER NUMERIC OBJECT OF OFFLINE
	OFFSET OLD ON ONLINE ONLY OPAQUE OPEN OPERATOR OPTION OR ORDER
	ORDINALITY OTHER OTHERS OUT OUTER OUTPUT OVER OVERLAPS OVERRIDE OWNER
	PAD PARALLEL PARAMETER PARAMETERS PARTIAL PARTITION PARTITIONED
	PARTITIONS PATH PERCENT PERCENTILE PERMISSION PERMISSIONS PIPE PIPELINED
	PLAN POOL POSITION PRECISION PREPARE PRESERVE PRIMARY PRIOR PRIVATE
	PRIVILEGES PROCEDURE PROCESSED PROJECT PROJECTION PROPERTY PROVISIONING
	PUBLIC PUT QUERY QUIT QUORUM RAISE RANDOM RANGE RANK RAW READ READS REAL
	REBUILD RECORD RECURSIVE REDUCE REF REFERENCE REFERENCES REFERENCING
	REGEXP REGION REINDEX RELATIVE RELEASE REMAINDER RENAME REPEAT REPLACE
	REQUEST RESET RESIGNAL RESOURCE RESPONSE RESTORE RESTRICT RESULT RETURN
	RETURNING RETURNS REVERSE REVOKE RIGHT ROLE ROLES ROLLBACK ROLLUP
	ROUTINE ROW ROWS RULE RULES SAMPLE SATISFIES SAVE SAVEPOINT SCAN SCHEMA
	SCOPE SCROLL SEARCH SECOND SECTION SEGMENT SEGMENTS SELECT SELF SEMI
	SENSITIVE SEPARATE SEQUENCE SERIALIZABLE SESSION SET SETS SHARD SHARE
	SHARED SHORT SHOW SIGNAL SIMILAR SIZE SKEWED SMALLINT SNAPSHOT SOME
	SOURCE SPACE SPACES SPARSE SPECIFIC SPECIFICTYPE SPLIT SQL SQLCODE
	SQLERROR SQLEXCEPTION SQLSTATE SQLWARNING START STATE STATIC STATUS
	STORAGE STORE STORED STREAM STRING STRUCT STYLE SUB SUBMULTISET
	SUBPARTITION SUBSTRING SUBTYPE SUM SUPER SYMMETRIC SYNONYM SYSTEM TABLE
	TABLESAMPLE TEMP TEMPORARY TERMINATED TEXT THAN THEN THROUGHPUT TIME
	TIMESTAMP TIMEZONE TINYINT TO TOKEN TOTAL TOUCH TRAILING TRANSACTION
	TRANSFORM TRANSLATE TRANSLATION TREAT TRIGGER TRIM TRUE TRUNCATE TTL
	TUPLE TYPE UNDER UNDO UNION UNIQUE UNIT UNKNOWN UNLOGGED UNNEST
	UNPROCESSED UNSIGNED UNTIL UPDATE UPPER URL USAGE USE USER USERS USING
	UUID VACUUM VALUE VALUED VALUES VARCHAR VARIABLE VARIANCE VARINT VARYING
	VIEW VIEWS VIRTUAL VOID WAIT WHEN WHENEVER WHERE WHILE WINDOW WITH
	WITHIN WITHOUT WORK WRAPPED WRITE YEAR ZONE
`
