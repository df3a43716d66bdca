// What a documented install must get right, asserted on the renders .ci/helm-check made:
// - one image tag: every trainyard container of a render (the four services and the topic Job)
//   runs `<image.repository>/<service>:<one tag>`, and in the default and production renders that
//   tag is the chart's appVersion, the tag a release builds (pom.xml's Jib `to` image is
//   `${image.prefix}/${project.artifactId}:${image.tag}`, `.ci/release` passes
//   `-Dimage.tag=<appVersion>`; image.prefix's default is values.yaml's image.repository);
// - the public URL: derived from the ingress host (https with ingress.tlsSecret, http without),
//   never a loopback address once the gateway is exposed, and NOTES saying whether it is HTTPS;
// - the ingress carries ingress-nginx's body size (100 MiB uploads), timeouts (2 minutes) and
//   unbuffered responses (server-sent events);
// - pods roll when the chart's Secret or ConfigMap changes (checksum annotations);
// - ci/production-values.yaml: a Kafka user per service, existing Secrets only, 2 gateways and
//   2 workers, https://trainyard.example.com everywhere and no localhost.
// Usage: node release-check.mjs <chart> <out> (out: the renders; out/variants: the variants and NOTES)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

// the packages .ci/helm-check installs into .ci/.tools
const require = createRequire(new URL('../.tools/package.json', import.meta.url));
const yaml = require('js-yaml');

const [, , chart, out] = process.argv;
const variants = path.join(out, 'variants');
let failures = 0;
let assertions = 0;
const check = (ok, message) => {
  assertions++;
  if (!ok) {
    failures++;
    console.error(`  ${message}`);
  }
};
const load = file => yaml.loadAll(fs.readFileSync(file, 'utf8')).filter(d => d);
const text = file => fs.readFileSync(file, 'utf8');
const appVersion = String(yaml.load(text(`${chart}/Chart.yaml`)).appVersion);
const values = yaml.load(text(`${chart}/values.yaml`));

// ---- the build: what `./mvnw package -Pimages -Dimage.tag=<appVersion>` names its images
const pom = text(path.join(chart, '../../pom.xml'));
const prefix = pom.match(/<image\.prefix>([^<]*)<\/image\.prefix>/)?.[1];
check(prefix === values.image.repository,
  `pom.xml's image.prefix (${prefix}) is not values.yaml's image.repository (${values.image.repository})`);
check(/<to>\s*<image>\$\{image\.prefix\}\/\$\{project\.artifactId\}:\$\{image\.tag\}<\/image>/.test(pom),
  "pom.xml's Jib <to> image is not ${image.prefix}/${project.artifactId}:${image.tag}");

// ---- one image tag
const SERVICES = ['gateway', 'queue-worker', 'webhook-dispatcher', 'flaky-tests-service'];
const component = d => d.spec?.template?.metadata?.labels?.['app.kubernetes.io/component'];
function images(docs) {
  const found = [];
  for (const d of docs) {
    if (d.kind !== 'Deployment' && d.kind !== 'Job') continue;
    const c = component(d);
    if (!SERVICES.includes(c) && c !== 'topics') continue;
    for (const container of d.spec.template.spec.containers) {
      const at = container.image.lastIndexOf(':');
      found.push({ workload: `${d.kind}/${d.metadata.name}`, service: c === 'topics' ? 'queue-worker' : c,
        repository: container.image.slice(0, at), tag: container.image.slice(at + 1) });
    }
  }
  return found;
}
for (const file of fs.readdirSync(out).filter(f => f.endsWith('.yaml')).sort()) {
  const name = path.basename(file, '.yaml');
  const found = images(load(path.join(out, file)));
  const tags = [...new Set(found.map(i => i.tag))];
  check(found.length >= 4, `${name}: ${found.length} trainyard images rendered`);
  check(tags.length === 1, `${name}: the trainyard images carry several tags: ${tags.join(', ')}`);
  for (const i of found) {
    check(i.repository.endsWith(`/${i.service}`), `${name}: ${i.workload} runs ${i.repository}, not <repository>/${i.service}`);
  }
  if (name === 'default' || name === 'production') {
    check(tags.length === 1 && tags[0] === appVersion,
      `${name}: the images' tag ${tags.join(', ')} is not the chart's appVersion ${appVersion}`);
    console.log(`release-check: ${name}: ${found.length} trainyard images, all tagged ${tags.join(', ')} (appVersion ${appVersion})`);
  }
}

// ---- the public URL
const PUBLIC = ['TRAINYARD_WORKER_PUBLIC_URL', 'TRAINYARD_WEBHOOK_PUBLIC_URL', 'TRAINYARD_FLAKY_PUBLIC_URL',
  'TRAINYARD_SSO_REDIRECT_BASE_URL'];
const configMap = docs => docs.find(d => d.kind === 'ConfigMap' && d.data?.TRAINYARD_WORKER_PUBLIC_URL);
function publicUrls(name, docs, url) {
  const data = configMap(docs)?.data ?? {};
  for (const v of PUBLIC) check(data[v] === url, `${name}: ${v} is ${data[v]}, not ${url}`);
}
const production = load(`${out}/production.yaml`);
publicUrls('production', production, 'https://trainyard.example.com');
check(!/localhost|127\.0\.0\.1|\[::1\]/.test(text(`${out}/production.yaml`)), 'production: the render names localhost');
const http = load(`${variants}/ingress-http.yaml`);
publicUrls('ingress without TLS', http, 'http://trainyard.example.com');
const https = load(`${variants}/ingress-https.yaml`);
publicUrls('ingress with TLS', https, 'https://trainyard.example.com');
for (const [name, file] of [['ingress without TLS', 'ingress-http.yaml'], ['ingress with TLS', 'ingress-https.yaml']]) {
  check(!/localhost/.test(text(`${variants}/${file}`)), `${name}: the render names localhost`);
}
const gatewayApi = load(`${out}/gateway-api.yaml`);
publicUrls('gateway-api', gatewayApi, 'https://merge.example.com');

// NOTES: the real address, whether it is HTTPS, a warning without TLS, how to roll for existing Secrets
const notes = name => text(`${variants}/${name}.notes`);
check(notes('production').includes('Public address: https://trainyard.example.com (HTTPS'), 'production NOTES: no "Public address: https://trainyard.example.com (HTTPS"');
check(notes('production').includes('the Ingress terminates it with the certificate in Secret trainyard-tls'), 'production NOTES: TLS not named');
check(!/localhost|WARNING/.test(notes('production')), 'production NOTES: names localhost or warns');
check(/rollout restart deployment -l app\.kubernetes\.io\/instance=trainyard/.test(notes('production')),
  'production NOTES: no kubectl rollout restart for the existing Secrets');
check(notes('production').includes('https://trainyard.example.com/v1/scm/github/webhook')
  && notes('production').includes('https://trainyard.example.com/ui/sign-in/oidc/callback'),
  'production NOTES: no GitHub webhook URL or OIDC redirect URI on the public address');
check(notes('ingress-http').includes('Public address: http://trainyard.example.com (plain HTTP')
  && notes('ingress-http').includes('WARNING: no TLS. The Ingress has no TLS section'),
  'ingress without TLS NOTES: no plain-HTTP address and warning');
check(notes('ingress-https').includes('Public address: https://trainyard.example.com (HTTPS') && !notes('ingress-https').includes('WARNING'),
  'ingress with TLS NOTES: not an HTTPS address without warning');
for (const name of ['ingress-http', 'ingress-https']) {
  check(!/localhost/.test(notes(name)), `${name} NOTES: names localhost although the ingress is on`);
}
check(notes('default').includes('port-forward svc/trainyard-gateway 8080:8080') && notes('default').includes('set publicUrl'),
  'default NOTES: no port-forward, or no advice to set publicUrl');

// ---- the ingress's limits (ingress-nginx)
const NGINX = {
  'nginx.ingress.kubernetes.io/proxy-body-size': '100m',
  'nginx.ingress.kubernetes.io/proxy-read-timeout': '120',
  'nginx.ingress.kubernetes.io/proxy-send-timeout': '120',
  'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
};
const ingress = production.find(d => d.kind === 'Ingress');
check(ingress?.spec?.rules?.[0]?.host === 'trainyard.example.com', 'production: the Ingress does not serve trainyard.example.com');
check(ingress?.spec?.tls?.[0]?.hosts?.includes('trainyard.example.com') && ingress.spec.tls[0].secretName === 'trainyard-tls',
  'production: the Ingress has no TLS for trainyard.example.com');
for (const [key, value] of Object.entries(NGINX)) {
  check(ingress?.metadata?.annotations?.[key] === value, `production: the Ingress's ${key} is ${ingress?.metadata?.annotations?.[key]}, not ${value}`);
}
check(!http.find(d => d.kind === 'Ingress')?.metadata?.annotations, 'an Ingress without className nginx carries annotations');

// ---- pods roll with the chart's Secret and ConfigMap
const annotations = (docs, c) => docs.find(d => d.kind === 'Deployment' && component(d) === c)?.spec.template.metadata.annotations ?? {};
for (const c of SERVICES) {
  for (const [name, docs] of [['default', load(`${out}/default.yaml`)], ['production', production]]) {
    const a = annotations(docs, c);
    check(/^[0-9a-f]{64}$/.test(a['checksum/config'] ?? '') && /^[0-9a-f]{64}$/.test(a['checksum/secret'] ?? ''),
      `${name}: ${c}'s pods carry no checksum/config and checksum/secret`);
  }
  const base = annotations(load(`${out}/default.yaml`), c);
  const secret = annotations(load(`${variants}/secret-changed.yaml`), c);
  const config = annotations(load(`${variants}/config-changed.yaml`), c);
  check(secret['checksum/secret'] !== base['checksum/secret'] && secret['checksum/config'] === base['checksum/config'],
    `${c}: a changed secrets.adminToken does not change checksum/secret alone`);
  check(config['checksum/config'] !== base['checksum/config'], `${c}: a changed setting does not change checksum/config`);
}

// ---- production: a Kafka user per service, existing Secrets only, 2 gateways and 2 workers
const env = (d, name) => d.spec.template.spec.containers[0].env.find(e => e.name === name);
const deployments = production.filter(d => d.kind === 'Deployment' && SERVICES.includes(component(d)));
const users = deployments.map(d => env(d, 'SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG')?.value.match(/username="([^"]+)"/)?.[1]);
const secrets = deployments.map(d => env(d, 'KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef?.name);
check(new Set(users).size === 4 && users.every(u => u), `production: Kafka users ${users.join(', ')} are not one per service`);
check(new Set(secrets).size === 4 && secrets.every(s => s), `production: Kafka passwords from ${secrets.join(', ')}, not one Secret per service`);
check(!production.some(d => d.kind === 'Secret'), 'production: the chart renders a Secret (every secret should come from an existing one)');
const replicas = c => deployments.find(d => component(d) === c)?.spec.replicas;
check(replicas('gateway') === 2 && replicas('queue-worker') === 2,
  `production: ${replicas('gateway')} gateways and ${replicas('queue-worker')} workers, not 2 and 2`);

console.log(`release-check: ${assertions} assertions, ${failures} failed`);
process.exit(failures ? 1 : 0);
