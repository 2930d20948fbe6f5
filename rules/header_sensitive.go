package rules

import (
	"strings"
	"unicode"
)

// Names that mark a value as secret or personal when they appear in a
// header or property name, matched against the name's words run together
// ("X-Api-Key", "apiKey" and "api_key" all give "apikey").
var sensitiveCompounds = []string{
	"password", "passwd", "passphrase", "secret", "credential", "apikey",
	"accesskey", "privatekey", "accesstoken", "authtoken", "refreshtoken",
	"idtoken", "bearer", "authorization", "authentication", "cookie",
	"sessionid", "creditcard", "cardnumber",
}

// Words that mark a value as secret or personal on their own.
var sensitiveWords = map[string]bool{
	"token": true, "auth": true, "oauth": true, "jwt": true, "otp": true, "pwd": true,
	"ssn": true, "cvv": true, "email": true, "phone": true, "passport": true,
}

// Words before "token" that make it a cursor, not a credential
// ("nextPageToken"), and words before "key" that make it a credential
// ("signing_key", unlike "partition_key").
var (
	harmlessTokenPrefix = map[string]bool{"page": true, "next": true, "continuation": true, "cursor": true, "pagination": true, "sync": true, "max": true, "continue": true}
	secretKeyPrefix     = map[string]bool{"api": true, "access": true, "secret": true, "private": true, "signing": true, "encryption": true, "license": true, "client": true, "master": true}
)

// sensitiveHeader reports the first sensitive term in the header name or,
// failing that, in the property name, and which of the two it was found in.
func sensitiveHeader(header, property string) (word, where string) {
	if w := sensitiveTerm(header); w != "" {
		return w, "header name"
	}
	if w := sensitiveTerm(property); w != "" {
		return w, "property name"
	}
	return "", ""
}

func sensitiveTerm(name string) string {
	words := nameWords(name)
	compact := strings.Join(words, "")
	for _, c := range sensitiveCompounds {
		if strings.Contains(compact, c) {
			return c
		}
	}
	for i, w := range words {
		prev := ""
		if i > 0 {
			prev = words[i-1]
		}
		switch {
		case w == "token" && harmlessTokenPrefix[prev]:
		case sensitiveWords[w]:
			return w
		case w == "key" && secretKeyPrefix[prev]:
			return prev + " key"
		}
	}
	return ""
}

// nameWords splits an identifier into lower-case words at separators and
// case changes: "X-Api-Key", "apiKey", "APIKey" and "api_key" all end in
// the words "api", "key".
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if i > 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}
