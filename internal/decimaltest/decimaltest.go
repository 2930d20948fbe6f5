// Package decimaltest holds the decimal strings that every conversion of a
// string argument into a number is tested against: package coerce's
// Arguments and Middleware and mcplint proxy's coercion read the same
// table, so what one converts the other converts too.
package decimaltest

// Case is one string sent for a number or an integer parameter.
type Case struct {
	In      string
	Integer bool
	// Want is the JSON number the string becomes, "" when it stays a
	// string for the server's validation to refuse.
	Want string
	Why  string
}

// Cases is the table. Every string that converts is a JSON number as it is
// written (RFC 8259, section 6) that every JSON reader holds exactly; the
// rest stay as sent.
var Cases = []Case{
	{"5", true, "5", "a JSON integer"},
	{"-5", true, "-5", "a negative JSON integer"},
	{"0", true, "0", "zero"},
	{"-0", true, "-0", "JSON spells -0, and it is the integer 0"},
	{"9007199254740991", true, "9007199254740991", "2^53−1, the largest integer every reader holds"},
	{"-9007199254740991", true, "-9007199254740991", "−(2^53−1)"},
	{"9007199254740992", true, "", "past 2^53−1: a JavaScript server would read another integer"},
	{"123456789012345678901234567890", true, "", "past int64 and float64"},
	{"+5", true, "", "JSON has no plus sign"},
	{"007", true, "", "leading zeros: an octal literal in some languages, a code in others"},
	{"1.0", true, "", "a fraction spelled for an integer: typed servers refuse it"},
	{"1e3", true, "", "an exponent spelled for an integer"},
	{"1.5", true, "", "not an integer"},
	{" 5", true, "", "surrounding space"},
	{"5 ", true, "", "surrounding space"},
	{"0x10", true, "", "hexadecimal"},
	{"٥", true, "", "a digit outside ASCII"},
	{"", true, "", "empty"},
	{"five", true, "", "words"},
	{"1.5", false, "1.5", "a JSON number"},
	{"-0.25", false, "-0.25", "a negative fraction"},
	{"1e3", false, "1e3", "an exponent"},
	{"1.5E-3", false, "1.5E-3", "an exponent, upper case"},
	{"1.0", false, "1.0", "a fraction of zero"},
	{"-0", false, "-0", "negative zero, which JSON spells"},
	{"7", false, "7", "an integer for a number"},
	{"0.1", false, "0.1", "a double reads it back as 0.1"},
	{"5e-324", false, "5e-324", "the smallest double"},
	{"1e400", false, "", "past float64"},
	{"1e-400", false, "", "so small a double reads 0"},
	{"3.141592653589793238462643383279", false, "", "more digits than a double keeps"},
	{"123456789012345678901234567890", false, "", "more digits than a double keeps"},
	{"+2", false, "", "JSON has no plus sign"},
	{".5", false, "", "JSON needs a digit before the point"},
	{"5.", false, "", "JSON needs a digit after the point"},
	{"00.5", false, "", "leading zeros"},
	{" 5", false, "", "surrounding space"},
	{"5 ", false, "", "surrounding space"},
	{"0x10", false, "", "hexadecimal"},
	{"NaN", false, "", "JSON has no NaN"},
	{"Infinity", false, "", "JSON has no infinity"},
	{"-Infinity", false, "", "JSON has no infinity"},
	{"1e", false, "", "an exponent without digits"},
	{"1e99999999999999999999", false, "", "an exponent past int"},
	{".", false, "", "a point alone"},
	{"", false, "", "empty"},
}
