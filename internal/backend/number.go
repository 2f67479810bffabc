package backend

import (
	"maps"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
)

// DynamoDB (Local, which the suite checks against) reads a Number
// attribute, and the members of a Number Set attribute, back in one
// canonical form, plain notation with no redundant digit ("1.50", "+1.5"
// and "15e-1" read back as "1.5", "-0" as "0"), and a Number inside a List
// or Map as it was written; it refuses, anywhere in an item, a Number that
// is not one, has more than 38 significant digits or lies outside
// 1E-130..9.9999999999999999999999999999999999999E+125 in magnitude, and
// a set that is empty or holds a member twice. The memory backend stores
// what DynamoDB would read back, and refuses what it refuses, with the
// same ValidationException.

// CanonNumber returns s in DynamoDB's canonical form, plain notation, or
// an error for a text DynamoDB would not hold as a Number, in time linear
// in len(s): the domains read other writers' Numbers through it, where a
// general parser (math/big) would expand 1e-999999 into a megabit.
func CanonNumber(s string) (string, error) { return canonNumber(s) }

// canonNumber returns s in DynamoDB's canonical form, or a
// ValidationException.
func canonNumber(s string) (string, error) {
	if plainCanonical(s) {
		return s, nil
	}
	bad := validation("A value provided cannot be converted into a number")
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var digits []byte
	point, seenPoint, seenDigit := 0, false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
			seenDigit = true
			if !seenPoint {
				point++
			}
		case c == '.' && !seenPoint:
			seenPoint = true
		default:
			goto exponent
		}
	}
exponent:
	if !seenDigit {
		return "", bad
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' || i+1 == len(s) {
			return "", bad
		}
		i++
		eneg := false
		if s[i] == '+' || s[i] == '-' {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return "", bad
		}
		e := 0
		for ; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return "", bad
			}
			if e < 1_000_000 {
				e = e*10 + int(s[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		point += e
	}
	// Leading zeros move the point; trailing ones are redundant.
	lead := 0
	for lead < len(digits) && digits[lead] == '0' {
		lead++
	}
	digits, point = digits[lead:], point-lead
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 {
		return "0", nil
	}
	switch {
	case len(digits) > 38:
		return "", validation("DynamoDB only supports precision up to 38 digits")
	case point > 126:
		return "", validation("Number overflow. Attempting to store a number with magnitude larger than supported range")
	case point < -129:
		return "", validation("Number underflow. Attempting to store a number with magnitude smaller than supported range")
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case point <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -point))
		b.Write(digits)
	case point >= len(digits):
		b.Write(digits)
		b.WriteString(strings.Repeat("0", point-len(digits)))
	default:
		b.Write(digits[:point])
		b.WriteByte('.')
		b.Write(digits[point:])
	}
	return b.String(), nil
}

// plainCanonical reports, without allocating, whether s is already
// canonical, for the forms every number ddbkit writes has:
// -?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?, not -0, at most 38 characters
// (so within DynamoDB's precision and range). Others take the long way.
func plainCanonical(s string) bool {
	i := 0
	if strings.HasPrefix(s, "-") {
		i = 1
	}
	if i == len(s) || len(s)-i > 38 {
		return false
	}
	if s[i] == '0' {
		if i+1 == len(s) {
			return i == 0 // "0", not "-0"
		}
		if s[i+1] != '.' {
			return false
		}
	}
	point := false
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == '.':
			if point || j == i || j+1 == len(s) {
				return false
			}
			point = true
		case c < '0' || c > '9':
			return false
		}
	}
	return !point || s[len(s)-1] != '0'
}

// normValue returns v as DynamoDB stores it, v itself when it is already
// so, or a ValidationException. top is whether v is an attribute of the
// item, not inside a List or Map.
func normValue(v types.AttributeValue, top bool) (types.AttributeValue, error) {
	switch v := v.(type) {
	case *types.AttributeValueMemberN:
		n, err := canonNumber(v.Value)
		if err != nil || n == v.Value || !top {
			return v, err
		}
		return &types.AttributeValueMemberN{Value: n}, nil
	case *types.AttributeValueMemberNS:
		if len(v.Value) == 0 {
			return nil, validation("One or more parameter values were invalid: An number set  may not be empty")
		}
		ns, copied := v.Value, false
		for i, x := range v.Value {
			n, err := canonNumber(x)
			if err != nil {
				return nil, err
			}
			if n != x && !copied {
				ns, copied = append(make([]string, 0, len(v.Value)), v.Value[:i]...), true
			}
			if copied {
				ns = append(ns, n)
			}
		}
		if err := checkSet("number", ns, func(s string) string { return s }); err != nil {
			return nil, err
		}
		if !top || !copied {
			return v, nil
		}
		return &types.AttributeValueMemberNS{Value: ns}, nil
	case *types.AttributeValueMemberSS:
		return v, checkSet("string", v.Value, func(s string) string { return s })
	case *types.AttributeValueMemberBS:
		return v, checkSet("binary", v.Value, func(b []byte) string { return string(b) })
	case *types.AttributeValueMemberL:
		var out []types.AttributeValue
		for i, e := range v.Value {
			n, err := normValue(e, false)
			if err != nil {
				return nil, err
			}
			if n != e && out == nil {
				out = append(make([]types.AttributeValue, 0, len(v.Value)), v.Value[:i]...)
			}
			if out != nil {
				out = append(out, n)
			}
		}
		if out == nil {
			return v, nil
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	case *types.AttributeValueMemberM:
		// Inside a Map, values are checked, never rewritten.
		_, err := normMap(v.Value, false)
		return v, err
	}
	return v, nil
}

func checkSet[T any](kind string, vs []T, key func(T) string) error {
	if len(vs) == 0 {
		return validation("One or more parameter values were invalid: An " + kind + " set  may not be empty")
	}
	dup := validation("One or more parameter values were invalid: Input collection contains duplicates")
	if len(vs) <= 16 { // no map for the small sets items hold
		for i := range vs {
			for j := i + 1; j < len(vs); j++ {
				if key(vs[i]) == key(vs[j]) {
					return dup
				}
			}
		}
		return nil
	}
	seen := make(map[string]bool, len(vs))
	for _, v := range vs {
		k := key(v)
		if seen[k] {
			return dup
		}
		seen[k] = true
	}
	return nil
}

// normMap returns m with every value as DynamoDB stores it: m itself when
// every value already is, else a copy.
func normMap(m map[string]types.AttributeValue, top bool) (map[string]types.AttributeValue, error) {
	var out map[string]types.AttributeValue
	for k, v := range m {
		n, err := normValue(v, top)
		if err != nil {
			return nil, err
		}
		if n != v {
			if out == nil {
				out = maps.Clone(m)
			}
			out[k] = n
		}
	}
	if out == nil {
		return m, nil
	}
	return out, nil
}

// normItem is normMap of an item.
func normItem(item ddb.Item) (ddb.Item, error) { return normMap(item, true) }
