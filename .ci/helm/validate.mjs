// Validates every document of rendered manifests offline against the Kubernetes OpenAPI schemas
// of kubernetes-models, and checks the security invariants every trainyard container keeps.
// Usage: node validate.mjs <rendered.yaml>...
import fs from 'node:fs';
import { createRequire } from 'node:module';

// the packages .ci/helm-check installs into .ci/.tools
const require = createRequire(new URL('../.tools/package.json', import.meta.url));
const yaml = require('js-yaml');

const groups = {
  'v1': 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'policy/v1': 'kubernetes-models/policy/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
};
// Custom resources: no schema in kubernetes-models; their required fields are checked by hand.
const custom = {
  'monitoring.coreos.com/v1/ServiceMonitor': d => d.spec?.selector && d.spec?.endpoints?.length,
  'monitoring.coreos.com/v1/PrometheusRule': d => d.spec?.groups?.every(g => g.name && g.rules?.length),
  // the topic operator reverts what the resource does not say: every setting the workers would put
  // on the topic is in it, min ISR below the replicas (else one broker away stops the writes)
  'kafka.strimzi.io/v1beta2/KafkaTopic': d => d.metadata?.labels?.['strimzi.io/cluster'] && d.spec?.partitions > 0
    && d.spec.config?.['retention.ms'] > 0 && d.spec.config['unclean.leader.election.enable'] === false
    && d.spec.config['min.insync.replicas'] === (d.spec.replicas >= 3 ? 2 : 1)
    && (d.spec.topicName !== 'trainyard.queue-commands' || d.spec.config['retention.ms'] === 86400000),
  // Gateway API: attached to a listener, every rule sends to the gateway's API port with a
  // request timeout (Gateway API durations), the live-update stream's disabled ("0s")
  'gateway.networking.k8s.io/v1/HTTPRoute': d => d.spec?.parentRefs?.length && d.spec.parentRefs.every(p => p.name)
    && d.spec.rules?.length && d.spec.rules.every(r => r.backendRefs?.length
      && r.backendRefs.every(b => b.name?.endsWith('-gateway') && b.port === 8080)
      && /^([0-9]{1,5}(h|m|s|ms)){1,4}$/.test(r.timeouts?.request ?? ''))
    && d.spec.rules.some(r => r.matches?.some(m => m.path?.type === 'Exact' && m.path.value === '/ui/events')
      && r.timeouts.request === '0s'),
};
const trainyard = new Set(['gateway', 'queue-worker', 'webhook-dispatcher', 'flaky-tests-service', 'topics']);
let failures = 0;
let count = 0;
const fail = (where, message) => { failures++; console.error(`  ${where}: ${message}`); };
for (const file of process.argv.slice(2)) {
  for (const doc of yaml.loadAll(fs.readFileSync(file, 'utf8'))) {
    if (!doc) continue;
    count++;
    const where = `${file} ${doc.kind}/${doc.metadata?.name}`;
    const check = custom[`${doc.apiVersion}/${doc.kind}`];
    if (check) {
      if (!check(doc)) fail(where, 'required fields missing');
      continue;
    }
    const module = groups[doc.apiVersion];
    if (!module) { fail(where, `unknown apiVersion ${doc.apiVersion}`); continue; }
    const Model = require(module)[doc.kind];
    if (!Model) { fail(where, `unknown kind`); continue; }
    try {
      new Model(doc).validate();
    } catch (e) {
      fail(where, e.message.split('\n').slice(0, 6).join(' | '));
    }
    const pod = doc.kind === 'Deployment' || doc.kind === 'Job' ? doc.spec.template.spec : null;
    if (pod && trainyard.has(doc.spec.template.metadata.labels['app.kubernetes.io/component'])) {
      if (pod.securityContext?.runAsNonRoot !== true) fail(where, 'pod may run as root');
      if (pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault') fail(where, 'no RuntimeDefault seccomp');
      for (const c of pod.containers) {
        const s = c.securityContext ?? {};
        if (s.readOnlyRootFilesystem !== true) fail(where, `${c.name}: root filesystem writable`);
        if (s.allowPrivilegeEscalation !== false) fail(where, `${c.name}: privilege escalation allowed`);
        if (!s.capabilities?.drop?.includes('ALL')) fail(where, `${c.name}: capabilities not dropped`);
        if (!c.resources?.requests || !c.resources?.limits?.memory) fail(where, `${c.name}: no requests or memory limit`);
        if (doc.kind === 'Deployment' && !(c.readinessProbe && c.livenessProbe)) fail(where, `${c.name}: probes missing`);
      }
    }
  }
}
const version = require('kubernetes-models/package.json').version;
console.log(`validate: ${count} documents, kubernetes-models ${version}, ${failures} problems`);
process.exit(failures ? 1 : 0);
