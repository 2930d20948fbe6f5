package manifest

import "fmt"

// yamlDoc is the parsed YAML document of a YAML manifest.
type yamlDoc struct{}

func (m *Manifest) loadYAML(base int) error {
	return &Error{Path: m.Path, Msg: "YAML manifests are not supported yet"}
}

func (t *Tool) yamlValue() (any, error) { return nil, nil }

func (t *Tool) yamlIndex() *index { return &index{nodes: map[string]*node{}} }

func (t *Tool) yamlSplice(e Edit, st style, removed map[string]bool) (splice, error) {
	return splice{}, fmt.Errorf("not supported")
}
