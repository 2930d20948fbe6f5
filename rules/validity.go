package rules

import "github.com/mcplint/mcplint/lint"

var validityRules = []*lint.Rule{}
