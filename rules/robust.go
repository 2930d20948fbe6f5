package rules

import "github.com/mcplint/mcplint/lint"

var robustRules = []*lint.Rule{}
