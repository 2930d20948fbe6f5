package rules

import (
	"testing"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
)

// TestSeverityPolicy holds every rule of the catalogue to the one written
// severity policy (lint.SeverityPolicy): the severity follows from what the
// rule's consumers do (their profile lines), or, for a rule no consumer
// backs, from the harm it declares.
func TestSeverityPolicy(t *testing.T) {
	for _, r := range All {
		want, ok := lint.PolicySeverity(r)
		switch {
		case !ok:
			t.Errorf("%s names no consumer and declares no harm: the policy cannot set its severity", r.ID)
		case r.Harm != lint.NoHarm && len(r.Consumers) > 0:
			t.Errorf("%s declares a harm beside its consumers: the consumers say it", r.ID)
		case want != r.Severity:
			t.Errorf("%s is %s, but the policy makes it %s", r.ID, english.A(r.Severity.String()), english.A(want.String()))
		}
	}
}
