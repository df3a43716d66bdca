// Offline checks of the chart's Grafana dashboard (files/grafana-dashboard.json): it parses; it
// has a uid, a title and schemaVersion 39 or later; its datasource is a `datasource` variable of
// Prometheus; every panel has a unique id and a gridPos; no two panels overlap; every panel but a
// row has a datasource (the ${datasource} variable) and at least one target with a non-empty expr;
// every variable a query names is defined. With a second argument it writes every query as a
// recording rule (variables replaced by values) for `promtool check rules` to parse. The metrics
// the queries name are compared with a running stack's scrapes by ClusterTelemetryIT.
import { readFileSync, writeFileSync } from 'node:fs';

const [file, rulesOut] = process.argv.slice(2);
const dashboard = JSON.parse(readFileSync(file, 'utf8'));
const problems = [];
if (!dashboard.uid) problems.push('no uid');
if (!dashboard.title) problems.push('no title');
if (!(dashboard.schemaVersion >= 39)) problems.push(`schemaVersion ${dashboard.schemaVersion}: 39 or later`);
const variables = dashboard.templating?.list ?? [];
if (!variables.some((v) => v.name === 'datasource' && v.type === 'datasource' && v.query === 'prometheus')) {
  problems.push('no datasource variable of type prometheus');
}
for (const v of variables.filter((v) => v.type !== 'datasource')) {
  if (v.datasource?.uid !== '${datasource}') problems.push(`variable ${v.name}: datasource is not \${datasource}`);
}
// what a variable stands for when promtool parses the queries (Grafana's own: a range)
const samples = { __rate_interval: '5m', __interval: '1m', __range: '6h' };
for (const v of variables) if (v.type !== 'datasource') samples[v.name] = v.allValue ?? 'x';
const rules = [];
const panels = [];
for (const p of dashboard.panels ?? []) {
  panels.push(p);
  for (const inner of p.panels ?? []) panels.push(inner);
}
const ids = new Set();
for (const p of panels) {
  const name = `panel ${p.id} (${p.title})`;
  if (p.id === undefined || ids.has(p.id)) problems.push(`${name}: missing or repeated id`);
  ids.add(p.id);
  const g = p.gridPos;
  if (!g || [g.x, g.y, g.w, g.h].some((n) => !Number.isInteger(n) || n < 0) || g.x + g.w > 24) {
    problems.push(`${name}: gridPos missing or off the 24 columns`);
  }
  if (p.type === 'row') continue;
  if (p.datasource?.uid !== '${datasource}') problems.push(`${name}: datasource is not \${datasource}`);
  const exprs = (p.targets ?? []).map((t) => (t.expr ?? '').trim()).filter((e) => e);
  if (exprs.length === 0 || exprs.length !== (p.targets ?? []).length) problems.push(`${name}: a target without expr`);
  for (const t of p.targets ?? []) {
    if (t.datasource && t.datasource.uid !== '${datasource}') problems.push(`${name}: a target's datasource is not \${datasource}`);
    const expr = (t.expr ?? '').replace(/\$\{?(\w+)\}?/g, (m, v) => {
      if (!(v in samples)) problems.push(`${name}: ${m} is no variable of the dashboard`);
      return samples[v] ?? 'x';
    });
    rules.push({ record: `dashboard:panel_${p.id}:${t.refId}`, expr });
  }
}
for (let i = 0; i < panels.length; i++) {
  for (let j = i + 1; j < panels.length; j++) {
    const a = panels[i].gridPos, b = panels[j].gridPos;
    if (a && b && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) {
      problems.push(`panels ${panels[i].id} and ${panels[j].id} overlap`);
    }
  }
}
if (rulesOut) {
  // JSON is YAML: one group of recording rules
  writeFileSync(rulesOut, JSON.stringify({ groups: [{ name: 'dashboard', rules }] }, null, 2) + '\n');
}
if (problems.length) {
  console.error(`dashboard-check: ${file}:\n  ` + problems.join('\n  '));
  process.exit(1);
}
console.log(`helm-check: dashboard ${dashboard.uid}: ${panels.length} panels, ${panels.filter((p) => p.type !== 'row').length} with ${rules.length} queries, none overlapping`);
