package schema

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// noLoader refuses every URL: a tool's schema must stand alone, and mcplint
// never fetches anything (the 2026-07-28 spec forbids clients to dereference
// network $refs).
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("mcplint does not load external schemas (%s)", url)
}

// resourceURL is where a tool's schema is registered while compiling.
const resourceURL = "mcplint:///schema.json"

// Compile compiles a schema with github.com/santhosh-tekuri/jsonschema/v6,
// defaulting to 2020-12 as MCP does when $schema is absent. The schema is
// validated against its dialect's metaschema.
func Compile(doc any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(resourceURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(resourceURL)
}
