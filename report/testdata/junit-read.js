// Reads a JUnit XML file with test-results-parser (the reader behind
// testbeats' CI dashboards) and prints what it understood as JSON.
const { parse } = require('./npm/node_modules/test-results-parser');
const r = parse({ type: 'junit', files: [process.argv[2]] });
console.log(JSON.stringify({
  total: r.total, passed: r.passed, failed: r.failed, errors: r.errors,
  suites: r.suites.map(s => ({
    name: s.name, total: s.total, failed: s.failed,
    cases: s.cases.map(c => ({ name: c.name, status: c.status, failure: c.failure })),
  })),
}));
