package live

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSecretMaskedBeforeCut: a server's message and stderr line are
// masked before they are cut to their shown length, wherever the secret
// falls; one spelled with escapes is masked too. No piece of the secret
// of redact.CutPiece bytes is shown.
func TestSecretMaskedBeforeCut(t *testing.T) {
	const secret = "sk-live-0123456789abcdefXYZ"
	shows := func(text string) string {
		for i := 0; i+4 <= len(secret); i++ {
			if strings.Contains(text, secret[i:i+4]) {
				return secret[i : i+4]
			}
		}
		return ""
	}
	for _, at := range []int{150, 180, 190, 197, 199} {
		_, err := List(ctxT(t, 20*time.Second), self("leakcut", "MCPLINT_LIVE_TEST_SECRET="+secret, "MCPLINT_LIVE_TEST_SIZE="+strconv.Itoa(at)), Options{})
		e, ok := AsError(err)
		if !ok || e.Kind != KindRPC {
			t.Fatalf("error %v, want the server's JSON-RPC error", err)
		}
		if piece := shows(e.Detail()); piece != "" {
			t.Errorf("secret at %d: %q is shown in\n%s", at, piece, e.Detail())
		}
		// Masked first, the message is cut after the mask: not even the
		// few bytes a cut may leave of a secret it was not told of.
		if strings.Contains(e.Detail(), "x"+secret[:2]) {
			t.Errorf("secret at %d: cut before it was masked:\n%s", at, e.Detail())
		}
	}
	_, err := List(ctxT(t, 20*time.Second), self("leakspelled", "MCPLINT_LIVE_TEST_SECRET="+secret), Options{})
	e, ok := AsError(err)
	if !ok || e.Kind != KindRPC {
		t.Fatalf("error %v, want the server's JSON-RPC error", err)
	}
	if piece := shows(e.Detail()); piece != "" || !strings.Contains(e.Msg, "invalid key ***") {
		t.Errorf("a spelled secret: %q is shown in\n%s", piece, e.Detail())
	}
}
