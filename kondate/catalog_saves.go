package kondate

import "strings"

// SavedIndexKeys returns the GSI1 keys of the saved item at pk, sk
// (USER#<userId> / SAVED#<RECIPE|SET>#<id>): GSI1PK ENTITY#<kind>#<id> and
// GSI1SK SAVED#<userId>, which ddbkit writes on every save and which
// RecalculatePopularity counts an entry's saves by. ok is false for a key
// that is not a saved item's. The seed's app writes saved items without
// them; "ddbkit migrate kondate-saves" adds them to the table's saved items
// with this function (see Options.SavesIndexed).
func SavedIndexKeys(pk, sk string) (indexPK, indexSK string, ok bool) {
	user, okUser := strings.CutPrefix(pk, userPrefix)
	rest, okSaved := strings.CutPrefix(sk, skSaved)
	kind, id, _ := strings.Cut(rest, "#")
	if !okUser || !okSaved || user == "" || strings.Contains(user, "#") || id == "" || strings.Contains(id, "#") ||
		(kind != string(KindRecipe) && kind != string(KindSet)) {
		return "", "", false
	}
	return gsi1PK(kind, id), gsi1Saved + user, true
}
