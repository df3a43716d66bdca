// Evaluates the NetworkPolicies of rendered manifests: prints, for every pod of the chart, what it
// may reach and from where it may be reached, and asserts what the chart promises — DNS for every
// pod, the broker and the store for the services, the public internet (never the cloud metadata
// endpoint nor a private address) only for the pods that call out, the evaluation Kafka and MongoDB
// only from the release's pods, the management port only from the monitoring namespace, the API
// from outside. Usage: node netpol.mjs <rendered.yaml>...
//
// The world the policies are evaluated in: the chart's pods (Deployments, StatefulSets, Jobs) in
// namespace `trainyard`, a few pods of the cluster (kube-dns, Prometheus in `monitoring`, an ingress
// controller, a Strimzi broker in `kafka`, a stranger in trainyard's namespace, a pod with
// trainyard's labels in another namespace) and a few addresses (GitHub, the metadata endpoint,
// private ones). A connection is allowed when the source's egress and the destination's ingress
// both allow it (networking.k8s.io/v1: a pod no policy of a type selects allows everything of it).
//
// Limits: it assumes a CNI that enforces egress at all (flannel alone enforces nothing); traffic
// from the node (the kubelet's probes) and a pod's own loopback are never filtered, so not modelled;
// a connection to a Service is judged at the pod it lands on (policies see the address after the
// Service's translation). Whether an `ipBlock` matches another pod's address is up to the CNI (the
// API leaves it open: Calico does, Cilium does not), so every verdict is computed twice — "reach"
// assertions hold with selectors alone, "no reach" ones even when ipBlocks match pod addresses (the
// table marks what only the latter allows with `?`).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

// the packages .ci/helm-check installs into .ci/.tools
const require = createRequire(new URL('../.tools/package.json', import.meta.url));
const yaml = require('js-yaml');

const NS = 'trainyard';
const SERVICES = ['gateway', 'queue-worker', 'webhook-dispatcher', 'flaky-tests-service'];
// ports every address is probed on: ssh, http(s), a webhook's own port, Kafka, MongoDB; the first
// four are no broker's or store's, so a private address is never to be reached on them
const HOST_PORTS = [22, 80, 443, 8443, 9092, 9093, 27017];
const CALLER_PORTS = [22, 80, 443, 8443];

// What a ci/*-values.yaml sets that the manifests do not show: where its external broker is, who
// may call the API, whether the public internet is closed, addresses it opens. The rest (the
// evaluation stores, the broker's port, GitHub and its API's port) is read from the manifests; a
// file not named here is held to the defaults.
const scenarios = {
  production: { kafka: 'strimzi-kafka', gatewayFrom: ['ingress-nginx'] },
  'private-git': {
    publicInternet: false,
    hosts: { ghes: '10.50.0.10', 'git-server': '192.168.10.20' },
    ghes: 'ghes',
    extra: [['git-server', 22]],
  },
  topology: { noPolicies: true },
};

// ---- addresses

function parseIp(text) {
  if (text.includes(':')) {
    let [head, tail] = text.split('::');
    const words = s => (s ? s.split(':') : []);
    let h = words(head);
    let t = tail === undefined ? [] : words(tail);
    const all = [...h, ...t];
    if (all.length && all[all.length - 1].includes('.')) {
      // an embedded IPv4 address takes the last two words
      const v4 = parseIp(all[all.length - 1]).n;
      const last = [(v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16)];
      if (t.length) t = [...t.slice(0, -1), ...last];
      else h = [...h.slice(0, -1), ...last];
    }
    const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
    const parts = [...h, ...fill, ...t];
    if (parts.length !== 8) throw new Error(`bad IPv6 address ${text}`);
    return { v: 6, n: parts.reduce((n, w) => (n << 16n) | BigInt(parseInt(w || '0', 16)), 0n) };
  }
  const parts = text.split('.').map(Number);
  if (parts.length !== 4 || parts.some(p => !(p >= 0 && p <= 255))) throw new Error(`bad IPv4 address ${text}`);
  return { v: 4, n: parts.reduce((n, p) => (n << 8n) | BigInt(p), 0n) };
}

function inCidr(ip, cidr) {
  const [base, bits] = cidr.split('/');
  const net = parseIp(base);
  const a = parseIp(ip);
  if (a.v !== net.v) return false;
  const width = a.v === 4 ? 32n : 128n;
  const shift = width - BigInt(bits);
  return a.n >> shift === net.n >> shift;
}

// ---- selectors

function selects(selector, labels) {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const ok = {
      In: () => has && e.values.includes(labels[e.key]),
      NotIn: () => !has || !e.values.includes(labels[e.key]),
      Exists: () => has,
      DoesNotExist: () => !has,
    }[e.operator];
    if (!ok || !ok()) return false;
  }
  return true;
}

const namespaceLabels = ns => ({ 'kubernetes.io/metadata.name': ns });

// ---- the policies

class Policies {
  constructor(docs) {
    this.list = docs.filter(d => d.kind === 'NetworkPolicy').map(d => {
      const types = d.spec.policyTypes ?? ['Ingress', ...(d.spec.egress ? ['Egress'] : [])];
      return { name: d.metadata.name, ns: d.metadata.namespace ?? NS, spec: d.spec, types };
    });
  }

  // Does `pod`'s side of the connection (type Ingress: `peer` connects to it; Egress: it connects
  // to `peer`) allow it, on `port`/`protocol` of `owner` (the destination)?
  side(pod, type, peer, port, protocol, owner, loose) {
    const mine = this.list.filter(p => p.ns === pod.ns && p.types.includes(type) && selects(p.spec.podSelector, pod.labels));
    if (!mine.length) return true;
    return mine.some(p => ((type === 'Ingress' ? p.spec.ingress : p.spec.egress) ?? []).some(rule =>
      peersMatch(type === 'Ingress' ? rule.from : rule.to, p.ns, peer, loose)
      && portsMatch(rule.ports, port, protocol, owner)));
  }

  allows(src, dst, port, protocol, loose) {
    return (src.kind !== 'pod' || this.side(src, 'Egress', dst, port, protocol, dst, loose))
      && (dst.kind !== 'pod' || this.side(dst, 'Ingress', src, port, protocol, dst, loose));
  }
}

function peersMatch(peers, policyNs, peer, loose) {
  if (!peers || peers.length === 0) return true;
  return peers.some(p => {
    if (p.ipBlock) {
      if (peer.kind === 'pod' && !loose) return false;
      return inCidr(peer.ip, p.ipBlock.cidr) && !(p.ipBlock.except ?? []).some(c => inCidr(peer.ip, c));
    }
    if (peer.kind !== 'pod') return false;
    const nsOk = p.namespaceSelector ? selects(p.namespaceSelector, namespaceLabels(peer.ns)) : peer.ns === policyNs;
    return nsOk && selects(p.podSelector, peer.labels);
  });
}

function portsMatch(ports, port, protocol, owner) {
  if (!ports || ports.length === 0) return true;
  return ports.some(p => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') {
      return owner.kind === 'pod' && owner.ports.some(o => o.name === p.port && o.port === port && o.protocol === protocol);
    }
    return port >= p.port && port <= (p.endPort ?? p.port);
  });
}

// ---- the world

function world(docs, scenario) {
  const endpoints = [];
  let n = 10;
  for (const d of docs) {
    if (!['Deployment', 'StatefulSet', 'Job'].includes(d.kind)) continue;
    const t = d.spec.template;
    endpoints.push({
      kind: 'pod', chart: true, name: t.metadata.labels['app.kubernetes.io/component'], ns: d.metadata.namespace ?? NS,
      labels: t.metadata.labels, ip: `10.244.1.${n++}`, env: t.spec.containers.flatMap(c => c.env ?? []),
      ports: t.spec.containers.flatMap(c => (c.ports ?? []).map(p => ({ port: p.containerPort, name: p.name, protocol: p.protocol ?? 'TCP' }))),
    });
  }
  const worker = endpoints.find(e => e.name === 'queue-worker');
  const pod = (name, ns, labels, ip, ports) =>
    ({ kind: 'pod', name, ns, labels, ip, ports: ports.map(([port, protocol = 'TCP']) => ({ port, protocol })) });
  endpoints.push(
    pod('kube-dns', 'kube-system', { 'k8s-app': 'kube-dns' }, '10.244.0.2', [[53, 'UDP'], [53, 'TCP']]),
    pod('prometheus', 'monitoring', { 'app.kubernetes.io/name': 'prometheus' }, '10.244.2.5', [[9090]]),
    pod('ingress-nginx', 'ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' }, '10.244.2.6', [[443]]),
    pod('strimzi-kafka', 'kafka', { 'strimzi.io/kind': 'Kafka' }, '10.244.2.7', [[9092], [9093]]),
    // a pod of trainyard's namespace without its labels, and one with them in another namespace
    pod('stranger', NS, { app: 'stranger' }, '10.244.1.200', [[8080]]),
    pod('twin', 'elsewhere', { ...(worker?.labels ?? {}) }, '10.244.3.7', [[8080]]),
  );
  const host = (name, ip) => ({ kind: 'host', name, ip, ports: HOST_PORTS.map(port => ({ port, protocol: 'TCP' })) });
  endpoints.push(
    host('github', '140.82.112.3'), host('github-v6', '2606:50c0:8000::154'), host('client', '81.2.69.142'),
    host('metadata', '169.254.169.254'), host('metadata-v6', 'fd00:ec2::254'), host('link-local-v6', 'fe80::1'),
    host('kafka-host', '10.0.0.5'), host('mongodb-host', '10.0.0.6'), host('private-172', '172.16.0.5'),
    host('private-192', '192.168.1.5'), host('shared-100', '100.64.0.5'), host('ula-v6', 'fd12::5'),
    ...Object.entries(scenario.hosts ?? {}).map(([name, ip]) => host(name, ip)),
  );
  return endpoints;
}

// ---- one file

function evaluate(file) {
  const docs = yaml.loadAll(fs.readFileSync(file, 'utf8')).filter(Boolean);
  const name = path.basename(file, '.yaml');
  const scenario = scenarios[name] ?? {};
  const policies = new Policies(docs);
  if (scenario.noPolicies) {
    console.log(`netpol: ${file}: no NetworkPolicies expected (networkPolicy.enabled=false)`);
    return policies.list.length ? [`${file}: ${policies.list.length} NetworkPolicies rendered, none expected`] : [];
  }
  const endpoints = world(docs, scenario);
  const by = Object.fromEntries(endpoints.map(e => [e.name, e]));
  const chart = endpoints.filter(e => e.chart);
  const reach = (s, d, port, protocol = 'TCP') => policies.allows(s, d, port, protocol, false);
  const mayReach = (s, d, port, protocol = 'TCP') => policies.allows(s, d, port, protocol, true);

  printTable(file, policies, chart, endpoints, reach, mayReach);

  // what the app needs, read from the manifests
  const config = Object.assign({}, ...docs.filter(d => d.kind === 'ConfigMap').map(d => d.data ?? {}));
  const kafkaPort = Number((config.SPRING_KAFKA_BOOTSTRAP_SERVERS ?? ':9092').split(',')[0].split(':').pop());
  const kafka = by.kafka?.chart ? by.kafka : by[scenario.kafka ?? 'kafka-host'];
  const mongodb = by.mongodb?.chart ? by.mongodb : by['mongodb-host'];
  const github = by.gateway?.env.some(e => e.name === 'TRAINYARD_GITHUB_PRIVATE_KEY');
  const apiUrl = new URL(config.TRAINYARD_GITHUB_API_URL ?? 'https://api.github.com');
  const apiPort = Number(apiUrl.port || (apiUrl.protocol === 'http:' ? 80 : 443));
  const publicInternet = scenario.publicInternet ?? true;
  const sso = Boolean(config.TRAINYARD_SSO_OIDC_CLIENT_ID || config.TRAINYARD_SSO_GITHUB_CLIENT_ID);
  const services = chart.filter(e => SERVICES.includes(e.name));
  const job = by.topics?.chart ? [by.topics] : [];

  const failures = [];
  let count = 0;
  const expect = (ok, what) => { count++; if (!ok) failures.push(`${file}: ${what}`); };
  const must = (s, d, port, protocol = 'TCP') =>
    expect(reach(s, d, port, protocol), `${s.name} cannot reach ${d.name}${d.kind === 'host' ? ` ${d.ip}` : ''}:${port}/${protocol}`);
  const mustNot = (s, d, port, protocol = 'TCP') =>
    expect(!mayReach(s, d, port, protocol), `${s.name} may reach ${d.name}${d.kind === 'host' ? ` ${d.ip}` : ''}:${port}/${protocol}`);

  expect(services.length === 4, `the four services rendered (${services.map(s => s.name)})`);
  for (const p of chart) {
    // every pod resolves names
    must(p, by['kube-dns'], 53, 'UDP');
    must(p, by['kube-dns'], 53, 'TCP');
    // never the metadata endpoint, a link-local or (on a port no store listens on) a private address
    for (const h of ['metadata', 'metadata-v6', 'link-local-v6']) for (const port of HOST_PORTS) mustNot(p, by[h], port);
    for (const h of ['kafka-host', 'mongodb-host', 'private-172', 'private-192', 'shared-100', 'ula-v6']) {
      for (const port of CALLER_PORTS) mustNot(p, by[h], port);
    }
    // no pod of the cluster but those it calls; no pod by its address either
    for (const q of endpoints.filter(e => e.kind === 'pod' && e !== p && e.name !== 'kube-dns')) {
      for (const { port, protocol } of q.ports) {
        const needed = (p.name === 'gateway' && q.name === 'flaky-tests-service' && port === 8080)
          || (q === kafka && port === (q.chart ? 9092 : kafkaPort) && (services.includes(p) || job.includes(p) || p.name === 'kafka'))
          || (q === mongodb && port === 27017 && services.includes(p));
        if (needed) must(p, q, port, protocol);
        else if (!(q.name === 'strimzi-kafka' && kafka !== q)) mustNot(p, q, port, protocol); // by ipBlock, as any broker
      }
    }
  }
  // the broker and the store, wherever they are
  for (const p of [...services, ...job]) if (kafka.kind === 'host') must(p, kafka, kafkaPort);
  for (const p of services) if (mongodb.kind === 'host') must(p, mongodb, 27017);
  for (const p of job) mustNot(p, mongodb, 27017);
  // the evaluation broker writes transaction markers to itself, through its Service
  if (kafka.chart) must(kafka, kafka, 9092);
  // the public internet: the callers only
  for (const p of chart) {
    const caller = publicInternet && ['queue-worker', 'webhook-dispatcher'].includes(p.name);
    // the gateway: GitHub's API (github.enabled) and the identity providers people sign in with (443)
    const gatewayPorts = p.name !== 'gateway' || !publicInternet ? []
      : [...(github ? [apiPort] : []), ...(sso ? [443] : [])];
    for (const h of ['github', 'github-v6']) {
      for (const port of HOST_PORTS) {
        if (caller || gatewayPorts.includes(port)) must(p, by[h], port);
        else mustNot(p, by[h], port);
      }
    }
  }
  // GitHub Enterprise Server and the operator's extra rules on private addresses
  if (scenario.ghes) {
    const ghes = by[scenario.ghes];
    for (const port of [22, 443, apiPort]) must(by['queue-worker'], ghes, port);
    if (github) must(by.gateway, ghes, apiPort);
    for (const port of CALLER_PORTS.filter(p => p !== apiPort)) mustNot(by.gateway, ghes, port);
    for (const port of CALLER_PORTS) {
      mustNot(by['webhook-dispatcher'], ghes, port);
      mustNot(by['flaky-tests-service'], ghes, port);
    }
  }
  for (const [h, port] of scenario.extra ?? []) for (const p of services) must(p, by[h], port);

  // ingress from outside the release
  const outsiders = ['stranger', 'twin', 'prometheus', 'ingress-nginx', 'client'].map(n => by[n]);
  for (const s of services) {
    must(by.prometheus, s, 8081);
    for (const o of outsiders.filter(o => o.name !== 'prometheus')) mustNot(o, s, 8081);
  }
  const gatewayFrom = scenario.gatewayFrom ?? outsiders.map(o => o.name);
  for (const o of outsiders) {
    if (gatewayFrom.includes(o.name)) must(o, by.gateway, 8080);
    else mustNot(o, by.gateway, 8080);
    mustNot(o, by['flaky-tests-service'], 8080);
    if (by.kafka?.chart) mustNot(o, by.kafka, 9092);
    if (by.mongodb?.chart) mustNot(o, by.mongodb, 27017);
  }

  console.log(`netpol: ${file}: ${count} assertions, ${failures.length} failed`);
  return failures;
}

// ---- the table

function printTable(file, policies, chart, endpoints, reach, mayReach) {
  const label = e => (e.kind === 'host' || e.ns === NS ? e.name : `${e.name} (${e.ns})`);
  const portsText = (sure, maybe) => {
    const udp = [...sure, ...maybe].some(o => o.protocol !== 'TCP');
    const text = o => (udp ? `${o.port}/${o.protocol}` : `${o.port}`);
    return [...sure.map(text), ...maybe.map(o => `${text(o)}?`)].join(',');
  };
  const rows = [];
  for (const p of chart) {
    const out = [];
    const hosts = new Map(); // the addresses reachable on the same ports, in one entry
    for (const d of endpoints.filter(e => e !== p)) {
      const sure = d.ports.filter(o => reach(p, d, o.port, o.protocol));
      const maybe = d.ports.filter(o => !sure.includes(o) && mayReach(p, d, o.port, o.protocol));
      if (!sure.length && !maybe.length) continue;
      if (d.kind === 'pod') { out.push(`${label(d)} ${portsText(sure, maybe)}`); continue; }
      const ports = sure.length === d.ports.length ? 'any port' : portsText(sure, maybe);
      hosts.set(ports, [...(hosts.get(ports) ?? []), d.name]);
    }
    for (const [ports, names] of hosts) out.push(`${names.join(' ')}: ${ports}`);
    const from = [];
    for (const o of p.ports) {
      const sources = endpoints.filter(e => e !== p);
      const sure = sources.filter(s => reach(s, p, o.port, o.protocol));
      const maybe = sources.filter(s => !sure.includes(s) && mayReach(s, p, o.port, o.protocol));
      const outside = sources.filter(s => !s.chart);
      const who = outside.every(s => sure.includes(s))
        ? ['anyone outside the release', ...sure.filter(s => s.chart).map(s => s.name)]
        : [...sure.map(label), ...maybe.map(s => `${label(s)}?`)];
      from.push(`${o.port}${o.protocol === 'TCP' ? '' : `/${o.protocol}`} from ${who.length ? who.join(', ') : 'no one'}`);
    }
    rows.push([p.name, out.length ? out : ['nothing'], from.length ? from : ['(listens on no port)']]);
  }
  const w = [Math.max(3, ...rows.map(r => r[0].length)), Math.max(...rows.flatMap(r => r[1].map(s => s.length)))];
  console.log(`netpol: ${file}: ${policies.list.length} NetworkPolicies, the pods in namespace ${NS}`);
  console.log(`  addresses: ${endpoints.filter(e => e.kind === 'host').map(e => `${e.name} ${e.ip}`).join(', ')}`);
  console.log('  ?: only where the CNI matches pod addresses by ipBlock');
  console.log(`  ${'pod'.padEnd(w[0])}  ${'may reach'.padEnd(w[1])}  may be reached on`);
  for (const [pod, out, from] of rows) {
    for (let i = 0; i < Math.max(out.length, from.length); i++) {
      console.log(`  ${(i ? '' : pod).padEnd(w[0])}  ${(out[i] ?? '').padEnd(w[1])}  ${from[i] ?? ''}`.trimEnd());
    }
  }
}

const failures = process.argv.slice(2).flatMap(evaluate);
for (const f of failures) console.error(`  ${f}`);
console.log(`netpol: ${failures.length} problems`);
process.exit(failures.length ? 1 : 0);
