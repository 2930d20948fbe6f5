// Package report owns what mcplint prints: the human text format, the stable
// machine formats (the JSON report, the JSON rule catalogue, the unified diff
// of a fix), the formats of CI systems (SARIF for code scanning, GitHub
// workflow commands and step summary, GitLab Code Quality, JUnit,
// Checkstyle; docs/output-formats.md documents them), and the colour
// decision for a terminal.
//
// Every formatter takes the loaded manifests with their diagnostics (File),
// so that the text format can quote the offending source line and all
// formats count files the same way.
//
// Every formatter writes what came from the input through package guard,
// the layer of its sink: guard.Text for the text format's values and a
// guard.Writer for its whole text, guard.WorkflowData and
// guard.WorkflowProperty for the github format, guard.Code for the job
// summary's cells, guard.SARIFText for SARIF messages, and guard's JSON
// and XML writers for the documents.
//
// # Text format
//
// One block per diagnostic, in file order then source order:
//
//	manifest.json:4:7: warning tool-name-valid: tool name "read file" contains a space; use only A-Z a-z 0-9 _ - .
//	  |
//	4 |       "name": "read file",
//	  |       ^
//
//	manifest.json:6:7: error input-schema-root-object: inputSchema is {}, with no "type"; ...
//	  |
//	6 |       "inputSchema": {}
//	  |       ^
//	  = hint: fixable with `mcplint fix` (add "type": "object")
//
// The hint line appears only when the finding has a fix; an unsafe fix says
// "unsafe fix available with --unsafe-fixes". Lines longer than a screen are
// cut to a window around the column. Unless TextOptions.ShowInfos, the
// infos are summed up instead, one line per rule (infos.go). A running
// server's findings (TextOptions.Server) name the server and the tool and
// frame the tool pretty-printed (server.go). The last lines say what the
// tool definitions cost in a model's context (package tokens estimates
// it), and count the findings:
//
//	context: 3 tools, about 412 tokens of tool definitions (estimated)
//	1 error, 1 warning, 0 infos in 1 file (1 fixable)
//
// The text format is for people; scripts should read the JSON format.
//
// # JSON format (version 1)
//
// `mcplint lint --format json` writes one object:
//
//	{
//	  "version": 1,
//	  "diagnostics": [
//	    {
//	      "rule": "tool-name-valid",      // rule ID (`mcplint rules ID` documents it)
//	      "severity": "warning",          // "error", "warning" or "info"
//	      "tool": "read file",            // the tool's name, "" when it has none
//	      "toolIndex": 0,                 // position of the tool in the file's tool list (0-based)
//	      "pointer": "/tools/0/name",     // RFC 6901 JSON Pointer into the file's document
//	      "file": "manifest.json",        // the path as given; "<stdin>" for standard input
//	      "line": 4,                      // 1-based
//	      "column": 7,                    // 1-based, in bytes
//	      "message": "...",
//	      "fix": "none",                  // "none", "safe" (applied by `mcplint fix`) or "unsafe" (needs --unsafe-fixes)
//	      "refusedBy": ["mcp-spec"],      // consumers that refuse it (omitted when none); "alteredBy": those that change it
//	      "alsoRules": ["openai-function-name"], // rules merged into this finding (omitted when none)
//	      "rules": ["tool-name-valid", "openai-function-name"], // every ID it is known by; ignoring one silences it
//	      "consumers": [{"id": "mcp-spec", "action": "discourages", "line": "name"}] // what each consumer does, and its profile line
//	    }
//	  ],
//	  "summary": {
//	    "errors": 0, "warnings": 1, "infos": 0,
//	    "fixable": 0,        // findings with a safe fix
//	    "unsafeFixable": 0,  // findings with an unsafe fix
//	    "files": 1,          // files linted (files that could not be read are not counted)
//	    "tools": 3,          // what the files publish: tools, and from a saved surface
//	    "prompts": 0, "resources": 0, "resourceTemplates": 0,
//	    "contextTokens": 412, // estimated tokens of the tool definitions in a model's context (package tokens)
//	    "context": [          // the same, per file (per server for check)
//	      {"file": "manifest.json", "tools": 3, "tokens": 412}
//	    ]
//	  },
//	  "errors": [             // only when the run failed: what it could not check
//	    {"file": "broken.json", "line": 3, "column": 18, "message": "..."}
//	  ]
//	}
//
// "diagnostics" is always an array, empty when nothing was found. For a
// stream of JSON-RPC pages the pointer is relative to the page (line) the
// tool is on. Input errors (unreadable or invalid files, servers that could
// not be checked) go to standard error and make the exit status 2 (3 for a
// server), and the report lists them under "errors" (see Failure: every
// machine format says that its run failed). Version 1 only ever gains
// members; a change to a member's meaning or a removal bumps the version.
//
// `mcplint rules --format json` writes {"version": 1, "rules": [RULE...]}
// (with several IDs, the same document holding those rules), and
// `mcplint rules ID --format json` one RULE: {"id", "packs", "default" (true
// when the rule runs without selection flags), "severity", "fix" ("none",
// "safe", "unsafe" or "safe/unsafe"), "summary", "options" (name to default
// value; {} when none), "doc"}.
//
// # Diff format
//
// Diff writes a unified diff with the paths a/FILE and b/FILE, which
// `git apply` and `patch -p1` accept.
package report
