// What promtool does not check of the chart's alerts (files/alerts.yaml): every alert has a
// `severity` label, `summary`, `description` and `runbook_url` annotations, its runbook_url is
// RUNBOOK_BASE#<its name in lower case> (the chart replaces RUNBOOK_BASE with
// metrics.prometheusRule.runbookBaseUrl) and the chart README has that runbook (`### <name>`, whose
// anchor is the name in lower case); and files/alerts-test.yaml makes every alert fire (an
// exp_alerts that is not empty) and then resolve (a later eval_time of the same test with none).
// promtool test rules then proves those expectations hold.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../.tools/package.json', import.meta.url));
const yaml = require('js-yaml');

const chart = process.argv[2];
const alerts = yaml
  .load(readFileSync(`${chart}/files/alerts.yaml`, 'utf8'))
  .groups.flatMap((g) => g.rules)
  .filter((r) => r.alert);
const tests = yaml.load(readFileSync(`${chart}/files/alerts-test.yaml`, 'utf8')).tests;
const readme = readFileSync(`${chart}/README.md`, 'utf8').split('\n');
const minutes = (d) => {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?$/.exec(String(d));
  if (!m || (!m[1] && !m[2])) throw new Error(`eval_time ${d}: write it in h and m`);
  return 60 * Number(m[1] ?? 0) + Number(m[2] ?? 0);
};
const problems = [];
for (const a of alerts) {
  const name = a.alert;
  if (!['critical', 'warning', 'info'].includes(a.labels?.severity)) problems.push(`${name}: no severity label`);
  for (const key of ['summary', 'description', 'runbook_url']) {
    if (!a.annotations?.[key]) problems.push(`${name}: no ${key} annotation`);
  }
  if (a.annotations?.runbook_url !== `RUNBOOK_BASE#${name.toLowerCase()}`) {
    problems.push(`${name}: runbook_url is not RUNBOOK_BASE#${name.toLowerCase()}`);
  }
  if (!readme.includes(`### ${name}`)) problems.push(`${name}: no runbook "### ${name}" in ${chart}/README.md`);
  const resolves = tests.some((t) => {
    const own = (t.alert_rule_test ?? []).filter((r) => r.alertname === name);
    const fired = own.filter((r) => (r.exp_alerts ?? []).length > 0).map((r) => minutes(r.eval_time));
    return fired.length > 0 && own.some((r) => (r.exp_alerts ?? []).length === 0 && minutes(r.eval_time) > Math.min(...fired));
  });
  if (!resolves) problems.push(`${name}: no test in alerts-test.yaml where it fires and later resolves`);
}
const known = new Set(alerts.map((a) => a.alert));
for (const t of tests) {
  for (const r of t.alert_rule_test ?? []) {
    if (!known.has(r.alertname)) problems.push(`alerts-test.yaml tests ${r.alertname}, which alerts.yaml does not hold`);
  }
}
if (problems.length) {
  console.error(`alerts-check: ${chart}:\n  ` + problems.join('\n  '));
  process.exit(1);
}
console.log(`helm-check: alerts: ${alerts.length} alerts, each with severity, summary, description, a runbook and a test that fires and resolves it`);
