package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/invopop/jsonschema"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaID is the $id of the configuration's JSON Schema.
const SchemaID = "https://github.com/mcpfit/mcplint/blob/main/config/mcplint.schema.json"

// Schema returns the configuration's JSON Schema (draft 2020-12), generated
// from Config by github.com/invopop/jsonschema, indented, ending with a
// newline.
func Schema() []byte {
	schemaOnce.Do(func() {
		r := &jsonschema.Reflector{DoNotReference: false}
		s := r.Reflect(&Config{})
		s.ID = SchemaID
		s.Title = "mcplint configuration (.mcplint.yaml, .mcplint.yml, .mcplint.json)"
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			panic(fmt.Sprintf("config schema: %v", err)) // the types are fixed: a bug, found by the tests
		}
		schemaJSON = append(b, '\n')
	})
	return schemaJSON
}

var (
	schemaOnce sync.Once
	schemaJSON []byte

	compileOnce sync.Once
	compiled    *sjs.Schema
	compileErr  error
)

// compiledSchema compiles Schema with github.com/santhosh-tekuri/jsonschema/v6.
func compiledSchema() (*sjs.Schema, error) {
	compileOnce.Do(func() {
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(Schema()))
		if err != nil {
			compileErr = err
			return
		}
		c := sjs.NewCompiler()
		if err := c.AddResource(SchemaID, doc); err != nil {
			compileErr = err
			return
		}
		compiled, compileErr = c.Compile(SchemaID)
	})
	return compiled, compileErr
}
