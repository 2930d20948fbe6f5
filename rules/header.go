package rules

import "github.com/mcplint/mcplint/lint"

var headerRules = []*lint.Rule{}
