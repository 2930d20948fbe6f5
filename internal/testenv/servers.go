package testenv

import (
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// ReferenceServers is the folder of NPMFolders that pins the MCP reference
// servers the interoperability tests run: servers no one here wrote.
const ReferenceServers = "live/testdata/reference-servers"

// ReferenceServer returns the entry point of the installed reference
// server @modelcontextprotocol/server-NAME (see NPM for when it is not
// installed).
func ReferenceServer(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(NPM(t, ReferenceServers), "node_modules", "@modelcontextprotocol", "server-"+name, "dist", "index.js")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("reference server %s is not in the locked packages: %v", name, err)
	}
	return path
}

// FreePort finds a loopback port nothing listens on.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// WaitListening waits until something accepts connections at the TCP
// address addr, and fails t when what (the server started there) has not
// begun to after 15 seconds.
func WaitListening(t testing.TB, addr, what string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %s: %v", what, addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
