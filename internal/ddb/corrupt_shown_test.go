package ddb_test

import (
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

func TestCorruptShowsValues(t *testing.T) {
	item := ddb.Item{"PK": ddb.S("USER#u"), "SK": ddb.S("X#1")}
	err := ddb.Corrupt(ddb.Table{Name: "T"}, item, "createdAt", "got %q", strings.Repeat("4", 16)+strings.Repeat("z", 500))
	if msg := err.Error(); strings.Contains(msg, "4444444444444444") || len(msg) > 200 {
		t.Errorf("Corrupt's message %q repeats card digits or too much of the value", msg)
	}
}

func TestCorruptShowsNames(t *testing.T) {
	name := strings.Repeat("4", 48)
	err := ddb.CheckAttrs(ddb.Table{Name: "T"}, ddb.Item{"PK": ddb.S("USER#u"), name: nil})
	if msg := err.Error(); strings.Contains(msg, "444444444444") {
		t.Errorf("CheckAttrs's message %q repeats the attribute name's digits", msg)
	}
}
