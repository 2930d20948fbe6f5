//go:build !bare

package main

import _ "github.com/santhosh-tekuri/jsonschema/v6"
