package rules

import "github.com/mcplint/mcplint/lint"

var complexityRules = []*lint.Rule{}
