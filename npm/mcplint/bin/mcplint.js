#!/usr/bin/env node
// The mcplint command of the npm package @mcpfit/mcplint. It runs the
// native binary of the package built for this platform, one of the
// launcher's optionalDependencies (npm installs only the one whose "os" and
// "cpu" match this machine), with the same arguments, standard streams and
// exit status. There is no install script and nothing is downloaded when
// installing or running: `npm install --ignore-scripts`, an offline
// install and `npx @mcpfit/mcplint` work alike.
"use strict";

const { spawn } = require("node:child_process");

const pkg = `@mcpfit/mcplint-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "mcplint.exe" : "mcplint";

let binary;
try {
  binary = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  process.stderr.write(
    `mcplint: the package ${pkg}, which holds mcplint for this platform, is not installed.\n` +
      "npm installs it with @mcpfit/mcplint unless optional dependencies are left out (--omit=optional);\n" +
      "mcplint is published for Linux, macOS (darwin) and Windows (win32) on x64 and arm64.\n" +
      "Other ways to install it: https://github.com/mcpfit/mcplint/blob/main/docs/install.md\n",
  );
  process.exit(2);
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

// A signal sent to this process alone (a client stopping `npx ...` as an
// MCP server, a CI runner cancelling a step) reaches mcplint too.
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const signal of forwarded) {
  process.on(signal, () => child.kill(signal));
}

child.on("error", (err) => {
  process.stderr.write(`mcplint: cannot run ${binary}: ${err.message}\n`);
  process.exit(2);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // End as mcplint ended: by the same signal, with the default handler.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
