package live

import (
	"fmt"
	"sort"

	"github.com/mcpfit/mcplint/config"
)

// ProjectServers turns the "servers" of a project configuration
// (.mcplint.yaml), whose folder is dir, into servers to check, sorted by
// name. Variables are expanded and relative working directories resolved
// as for a client configuration (ReadClientConfig); an entry that cannot be
// reached as written carries its Err.
func ProjectServers(servers map[string]config.Server, dir string, getenv func(string) (string, bool)) []ConfiguredServer {
	out := make([]ConfiguredServer, 0, len(servers))
	for name, s := range servers {
		cs := ConfiguredServer{Name: name}
		cs.Target, cs.Err = targetOf(s, dir, getenv)
		if cs.Err != nil {
			cs.Err = fmt.Errorf("server %q: %w", name, cs.Err)
		}
		out = append(out, cs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
