// Offline checks of the chart's Grafana dashboard (files/grafana-dashboard.json): it parses; it
// has a uid and a title; every panel has a unique id and a gridPos; no two panels overlap; every
// panel but a row has a datasource (the ${datasource} variable) and at least one target with a
// non-empty expr. The metrics the queries name are compared with a running stack's scrapes by
// ClusterTelemetryIT.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
const dashboard = JSON.parse(readFileSync(file, 'utf8'));
const problems = [];
if (!dashboard.uid) problems.push('no uid');
if (!dashboard.title) problems.push('no title');
if (!(dashboard.templating?.list ?? []).some((v) => v.name === 'datasource' && v.type === 'datasource')) {
  problems.push('no datasource variable');
}
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
}
for (let i = 0; i < panels.length; i++) {
  for (let j = i + 1; j < panels.length; j++) {
    const a = panels[i].gridPos, b = panels[j].gridPos;
    if (a && b && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) {
      problems.push(`panels ${panels[i].id} and ${panels[j].id} overlap`);
    }
  }
}
if (problems.length) {
  console.error(`dashboard-check: ${file}:\n  ` + problems.join('\n  '));
  process.exit(1);
}
console.log(`helm-check: dashboard ${dashboard.uid}: ${panels.length} panels, ${panels.filter((p) => p.type !== 'row').length} with queries, none overlapping`);
