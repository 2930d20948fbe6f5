package rules

import "github.com/mcplint/mcplint/lint"

var rootRules = []*lint.Rule{}
