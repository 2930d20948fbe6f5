package lint

import "github.com/mcpfit/mcplint/manifest"

// A source that carries a server's handshake result (a listing `mcplint
// check --save` wrote, or the one check lints) was listed in one era of
// the protocol: under the initialize handshake (2025-11-25 and older), or
// under server/discover (2026-07-28 and later). Unless Config.Protocol
// fixes a version, it is checked against the versions of that era that
// are in use, as the clients of that era see it: the same list gets the
// same findings whether it is read from a file or from the server.

// ModernProtocol is the first version of the server/discover era.
const ModernProtocol = "2026-07-28"

// EraVersions returns the protocol versions in use that a handshake
// result's clients speak: from the oldest in use to the version an
// initialize result names, or the versions a server/discover result
// supports from ModernProtocol on. ok is false without a handshake result
// or a known version in it.
func EraVersions(m *manifest.Manifest) (oldest, newest string, ok bool) {
	if m == nil || m.Server == nil {
		return "", "", false
	}
	v, err := m.Server.Value()
	if err != nil {
		return "", "", false
	}
	res, _ := v.(map[string]any)
	if m.Server.Name == manifest.MethodInitialize {
		p, _ := res["protocolVersion"].(string)
		if !ValidProtocol(p) {
			return "", "", false
		}
		return min(InUse[0], p), p, true
	}
	list, _ := res["supportedVersions"].([]any)
	for _, e := range list {
		s, _ := e.(string)
		if !ValidProtocol(s) || !AtLeast(s, ModernProtocol) {
			continue
		}
		if oldest == "" || s < oldest {
			oldest = s
		}
		newest = max(newest, s)
	}
	return oldest, newest, oldest != ""
}

// forSource is the linter for m: l itself, or, when l fixes no version and
// m carries a handshake result, a copy checking the versions of its era.
func (l *Linter) forSource(m *manifest.Manifest) *Linter {
	if l.Config.Protocol != "" {
		return l
	}
	oldest, newest, ok := EraVersions(m)
	if !ok || oldest == l.oldest && newest == l.newest {
		return l
	}
	c := *l
	c.oldest, c.newest = oldest, newest
	return &c
}
