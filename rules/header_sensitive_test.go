package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNameWords(t *testing.T) {
	tests := map[string][]string{
		"X-Api-Key":     {"x", "api", "key"},
		"apiKey":        {"api", "key"},
		"APIKey":        {"api", "key"},
		"api_key":       {"api", "key"},
		"nextPageToken": {"next", "page", "token"},
		"HTTPServer2":   {"http", "server2"},
		"user.email":    {"user", "email"},
		"":              nil,
	}
	for in, want := range tests {
		if diff := cmp.Diff(want, nameWords(in)); diff != "" {
			t.Errorf("nameWords(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestSensitiveTerm(t *testing.T) {
	tests := map[string]string{
		"Authorization":   "authorization",
		"X-Api-Key":       "apikey",
		"api_key":         "apikey",
		"signing_key":     "signing key",
		"password":        "password",
		"dbPasswd":        "passwd",
		"accessToken":     "accesstoken",
		"token":           "token",
		"Session-Id":      "sessionid",
		"User-Email":      "email",
		"ssn":             "ssn",
		"nextPageToken":   "",
		"page_token":      "",
		"partition_key":   "",
		"primaryKey":      "",
		"author":          "",
		"keyword":         "",
		"Region":          "",
		"max_tokens":      "",
		"Idempotency-Key": "",
	}
	for in, want := range tests {
		if got := sensitiveTerm(in); got != want {
			t.Errorf("sensitiveTerm(%q) = %q, want %q", in, got, want)
		}
	}
}
