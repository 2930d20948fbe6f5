package rules

import "github.com/mcplint/mcplint/lint"

var metaRules = []*lint.Rule{}
