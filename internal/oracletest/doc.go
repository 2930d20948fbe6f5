// Package oracletest holds no code, only tests: it judges what mcplint writes
// (fixed manifests, converted tools) with the consumers' own validators and
// with checkers written from the consumers' published rules, independently of
// the rules and transforms that produced the output.
//
//   - The MCP TypeScript SDK (testdata/oracles/sdk-list-tools.mjs, one node
//     process): every manifest on which the "mcp" pack reports no error,
//     for every protocol version the SDK negotiates, parses with the SDK's
//     ListToolsResultSchema and has its output schemas compile as the SDK's
//     client compiles them; every tool the SDK refuses carries an mcp error.
//     Judged: the committed fixed output of every rule case, `fix --select
//     mcp,robust --unsafe-fixes` of the example and of every case input, and
//     `convert --to mcp` of every valid source tool.
//   - Ajv in strict mode (testdata/oracles/ajv-compile.mjs, one node
//     process): a fixed schema Ajv refuses carries an mcp or robust finding;
//     every schema convert writes for a valid source tool compiles.
//   - Ajv again (testdata/oracles/ajv-validate.mjs) for normalize.Draft2020:
//     every case of its table rewritten without Loss gives each sample
//     instance the verdict its input gave under the input's dialect, and
//     compiles in strict mode whenever its input does.
//   - OpenAI strict mode and Gemini function declarations: checkers in this
//     package's tests, written from the providers' documentation and the
//     API errors quoted in public threads (cited in each), run on convert's
//     output and on `fix --select openai,openai-strict` and `fix --select
//     gemini`; hand-written samples prove each checker finds every kind of
//     violation.
//
// A disagreement is a test failure. The known ones, each reported and kept
// with its reason until mcplint and the oracle agree, are listed in
// sdkAllowances, ajvAllowances and knownIssues.
//
// The node packages live in testdata/oracles (`make test` installs them).
// Without them the tests skip, and `make test` makes them fail instead.
package oracletest
