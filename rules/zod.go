package rules

import "github.com/mcplint/mcplint/lint"

var zodRules = []*lint.Rule{}
