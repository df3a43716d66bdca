{{/* Names: <release>-trainyard (or the release name when it already says trainyard). */}}
{{- define "trainyard.fullname" -}}
{{- if contains "trainyard" .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-trainyard" .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "trainyard.labels" -}}
app.kubernetes.io/name: trainyard
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ include "trainyard.tag" . | replace "+" "_" | trunc 63 | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "gateway") */}}
{{- define "trainyard.selector" -}}
app.kubernetes.io/name: trainyard
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/*
The tag of trainyard's images: image.tag, or the chart's appVersion (the release's number, which
the images of a release are tagged with: ./mvnw package -Pimages -Dimage.tag=<appVersion>).
*/}}
{{- define "trainyard.tag" -}}
{{- default .Chart.AppVersion .Values.image.tag -}}
{{- end -}}

{{/* One service's image: (dict "root" $ "service" "gateway" "tag" <its imageTag; empty = image.tag>) */}}
{{- define "trainyard.image" -}}
{{- printf "%s/%s:%s" .root.Values.image.repository .service (default (include "trainyard.tag" .root) .tag) -}}
{{- end -}}

{{/*
The public base URL of the gateway, without a trailing slash or a default port: publicUrl; else, with the ingress,
https://<ingress.host> when it terminates TLS (ingress.tlsSecret) and http://<ingress.host> when
not; else http://localhost:8080, the port-forward NOTES prints. Exposed (ingress or HTTPRoute), it
is never a loopback address: every link in events, webhooks, check runs and listings would then
send their readers to their own machine.
*/}}
{{- define "trainyard.publicUrl" -}}
{{- /* as browsers and identity providers write it: without a trailing slash or a default port */ -}}
{{- $url := regexReplaceAll "^(https://[^/:]+):443(/|$)" (trimSuffix "/" .Values.publicUrl) "${1}${2}" -}}
{{- $url = regexReplaceAll "^(http://[^/:]+):80(/|$)" $url "${1}${2}" -}}
{{- $exposed := or .Values.ingress.enabled (default dict .Values.gatewayApi).enabled -}}
{{- if not $url -}}
{{- if .Values.ingress.enabled -}}
{{- if not .Values.ingress.host -}}
{{- fail "ingress.enabled without ingress.host needs publicUrl: set ingress.host (publicUrl is then https://<host> with ingress.tlsSecret, http://<host> without) or publicUrl (the address people, GitHub and webhook receivers reach trainyard at, e.g. https://trainyard.example.com)" -}}
{{- end -}}
{{- $url = printf "%s://%s" (ternary "https" "http" (ne .Values.ingress.tlsSecret "")) .Values.ingress.host -}}
{{- else if (default dict .Values.gatewayApi).enabled -}}
{{- fail "gatewayApi.enabled needs publicUrl (e.g. https://trainyard.example.com): the HTTPRoute cannot tell whether its Gateway's listener terminates TLS" -}}
{{- else -}}
{{- $url = "http://localhost:8080" -}}
{{- end -}}
{{- end -}}
{{- if and $exposed (regexMatch "^https?://(localhost|127\\.[0-9.]+|\\[::1\\]|0\\.0\\.0\\.0)(:[0-9]+)?(/|$)" (lower $url)) -}}
{{- fail (printf "publicUrl %s is a loopback address while the gateway is exposed (ingress.enabled or gatewayApi.enabled): links in events, webhooks and GitHub check runs, and the sign-in redirects, would point at each reader's own machine; set publicUrl to the public address, or leave it empty to derive it from ingress.host" $url) -}}
{{- end -}}
{{- $url -}}
{{- end -}}

{{/* "true" when the public URL is known (given, or derived from the ingress), "" for the port-forward fallback. */}}
{{- define "trainyard.publicUrlKnown" -}}
{{- if or .Values.publicUrl .Values.ingress.enabled (default dict .Values.gatewayApi).enabled -}}true{{- end -}}
{{- end -}}

{{- define "trainyard.secretName" -}}
{{- default (include "trainyard.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* Where the services reach Kafka and MongoDB. */}}
{{- define "trainyard.kafkaBootstrap" -}}
{{- if .Values.kafka.enabled -}}
{{- printf "%s-kafka:9092" (include "trainyard.fullname" .) -}}
{{- else -}}
{{- required "externalKafka.bootstrapServers is required (or kafka.enabled=true for evaluation)" .Values.externalKafka.bootstrapServers -}}
{{- end -}}
{{- end -}}

{{- define "trainyard.replicasFit" -}}
{{- $consumers := mul (int .Values.queueWorker.replicas) (int .Values.queueWorker.listenerConcurrency) -}}
{{- if gt $consumers (int .Values.topics.commandPartitions) -}}
{{- fail (printf "queueWorker.replicas × queueWorker.listenerConcurrency (%d × %d = %d) may not exceed topics.commandPartitions (%d): each consumer owns command partitions, one beyond their count idles and makes every rebalance longer" (int .Values.queueWorker.replicas) (int .Values.queueWorker.listenerConcurrency) $consumers (int .Values.topics.commandPartitions)) -}}
{{- end -}}
{{- end -}}

{{/* The key of a component under externalKafka.sasl.users. */}}
{{- define "trainyard.kafkaUserKey" -}}
{{- get (dict "gateway" "gateway" "queue-worker" "queueWorker" "webhook-dispatcher" "webhookDispatcher" "flaky-tests-service" "flakyTestsService" "topics" "topicJob") . -}}
{{- end -}}

{{/*
The SASL login of one component, as YAML (username, secret, key): its own user from
externalKafka.sasl.users.<component> (a principal per service, ARCHITECTURE.md), or the shared one.
(dict "root" $ "component" "gateway")
*/}}
{{- define "trainyard.kafkaUser" -}}
{{- $sasl := .root.Values.externalKafka.sasl -}}
{{- $key := include "trainyard.kafkaUserKey" .component -}}
{{- $own := index (default dict $sasl.users) $key | default dict -}}
{{- if $own.username -}}
username: {{ $own.username | quote }}
secret: {{ required (printf "externalKafka.sasl.users.%s.existingSecret is required with externalKafka.sasl.users.%s.username: the Secret holding %s's password (Strimzi's KafkaUser writes one named after the user, key password)" $key $key $own.username) $own.existingSecret | quote }}
key: {{ default "password" $own.passwordKey | quote }}
{{- else -}}
username: {{ required (printf "externalKafka.sasl.username is required with a SASL protocol (or externalKafka.sasl.users.%s.username, a user of the %s's own)" $key .component) $sasl.username | quote }}
secret: {{ default (include "trainyard.fullname" .root) $sasl.existingSecret | quote }}
key: {{ ternary $sasl.passwordKey "kafka-password" (ne $sasl.existingSecret "") | quote }}
{{- end -}}
{{- end -}}

{{/* "true" when a component in the release logs in to SASL Kafka as the shared user (it needs its password). */}}
{{- define "trainyard.kafkaSharedUserUsed" -}}
{{- $root := . -}}
{{- if and (not .Values.kafka.enabled) (hasPrefix "SASL" .Values.externalKafka.securityProtocol) -}}
{{- $components := list "gateway" "queue-worker" "webhook-dispatcher" "flaky-tests-service" -}}
{{- if and .Values.topics.job.enabled (not .Values.strimzi.enabled) -}}
{{- $components = append $components "topics" -}}
{{- end -}}
{{- range $components -}}
{{- $own := index (default dict $root.Values.externalKafka.sasl.users) (include "trainyard.kafkaUserKey" .) | default dict -}}
{{- if not $own.username -}}true{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
The environment every container shares: the ConfigMap, and the secrets by reference; the Kafka
login is the component's own. (dict "root" $ "component" "gateway")
*/}}
{{- define "trainyard.commonEnv" -}}
{{- $component := .component -}}
{{- with .root -}}
envFrom:
  - configMapRef:
      name: {{ include "trainyard.fullname" . }}
env:
  - name: SPRING_MONGODB_URI
    valueFrom:
      secretKeyRef:
{{- if .Values.mongodb.enabled }}
        name: {{ include "trainyard.fullname" . }}
        key: mongodb-uri
{{- else if .Values.externalMongodb.existingSecret }}
        name: {{ .Values.externalMongodb.existingSecret }}
        key: {{ .Values.externalMongodb.uriKey }}
{{- else }}
        name: {{ include "trainyard.fullname" . }}
        key: mongodb-uri
{{- end }}
{{- if and (not .Values.kafka.enabled) (hasPrefix "SASL" .Values.externalKafka.securityProtocol) }}
{{- $user := include "trainyard.kafkaUser" (dict "root" . "component" $component) | fromYaml }}
  - name: KAFKA_SASL_PASSWORD
    valueFrom:
      secretKeyRef:
        name: {{ $user.secret }}
        key: {{ $user.key }}
  - name: SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG
    value: {{ printf "%s required username=\"%s\" password=\"$(KAFKA_SASL_PASSWORD)\";" (ternary "org.apache.kafka.common.security.plain.PlainLoginModule" "org.apache.kafka.common.security.scram.ScramLoginModule" (eq .Values.externalKafka.sasl.mechanism "PLAIN")) $user.username | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{- define "trainyard.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "trainyard.secretName" .root }}
      key: {{ .key }}
{{- if .optional }}
      optional: true
{{- end }}
{{- end -}}

{{/* The restrictive security context of every trainyard container. */}}
{{- define "trainyard.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "trainyard.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
{{- end -}}

{{/* The CA of TLS Kafka, mounted where the ConfigMap's trust store location points. */}}
{{- define "trainyard.kafkaCaMount" -}}
{{- if .Values.externalKafka.tls.caSecret }}
- name: kafka-ca
  mountPath: /etc/trainyard/kafka-ca
  readOnly: true
{{- end }}
{{- end -}}

{{- define "trainyard.kafkaCaVolume" -}}
{{- if .Values.externalKafka.tls.caSecret }}
- name: kafka-ca
  secret:
    secretName: {{ .Values.externalKafka.tls.caSecret }}
    items:
      - key: {{ .Values.externalKafka.tls.caKey }}
        path: ca.crt
{{- end }}
{{- end -}}

{{/*
One Deployment: (dict "root" $ "component" "gateway" "service" "gateway" "spec" .Values.gateway
"api" true "env" <extra env YAML> "mounts" <YAML> "volumes" <YAML>)
*/}}
{{- define "trainyard.deployment" -}}
{{- $root := .root -}}
{{- $spec := .spec -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "trainyard.fullname" $root }}-{{ .component }}
  labels:
    {{- include "trainyard.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
spec:
  {{- if not (and $spec.autoscaling $spec.autoscaling.enabled) }}
  replicas: {{ $spec.replicas }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "trainyard.selector" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "trainyard.labels" $root | nindent 8 }}
        app.kubernetes.io/component: {{ .component }}
      annotations:
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        checksum/secret: {{ include (print $root.Template.BasePath "/secret.yaml") $root | sha256sum }}
        {{- with $spec.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      terminationGracePeriodSeconds: {{ $root.Values.terminationGracePeriodSeconds }}
      automountServiceAccountToken: false
      securityContext:
        {{- include "trainyard.podSecurityContext" $root | nindent 8 }}
      {{- with $root.Values.image.pullSecrets }}
      imagePullSecrets:
        {{- range . }}
        - name: {{ . }}
        {{- end }}
      {{- end }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "trainyard.selector" . | nindent 14 }}
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "trainyard.selector" . | nindent 14 }}
      {{- with $spec.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $spec.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $spec.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ .component }}
          image: {{ include "trainyard.image" (dict "root" $root "service" .service "tag" $spec.imageTag) }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          securityContext:
            {{- include "trainyard.containerSecurityContext" $root | nindent 12 }}
          ports:
            {{- if .api }}
            - name: http
              containerPort: 8080
            {{- end }}
            - name: management
              containerPort: 8081
          {{- include "trainyard.commonEnv" (dict "root" $root "component" .component) | nindent 10 }}
            {{- with .env }}
            {{- . | nindent 12 }}
            {{- end }}
            {{- with $spec.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          startupProbe:
            httpGet: {path: /actuator/health/liveness, port: management}
            periodSeconds: 5
            failureThreshold: 36
          livenessProbe:
            httpGet: {path: /actuator/health/liveness, port: management}
            periodSeconds: 10
            failureThreshold: 3
          readinessProbe:
            httpGet: {path: /actuator/health/readiness, port: management}
            periodSeconds: 5
            failureThreshold: 2
          {{- if .api }}
          # Endpoints and ingress controllers take a few seconds to stop sending new requests to a
          # terminating pod: keep serving them until then, then shut down gracefully.
          lifecycle:
            preStop:
              exec:
                command: ["sleep", "{{ $root.Values.preStopSeconds }}"]
          {{- end }}
          resources:
            {{- toYaml $spec.resources | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- include "trainyard.kafkaCaMount" $root | nindent 12 }}
            {{- with .mounts }}
            {{- . | nindent 12 }}
            {{- end }}
      volumes:
        - name: tmp
          emptyDir: {}
        {{- include "trainyard.kafkaCaVolume" $root | nindent 8 }}
        {{- with .volumes }}
        {{- . | nindent 8 }}
        {{- end }}
{{- end -}}

{{/* A GitHub App secret: from github.existingSecret or the chart's Secret. */}}
{{- define "trainyard.githubEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ default (include "trainyard.fullname" .root) .root.Values.github.existingSecret }}
      key: {{ .key }}
{{- end -}}

{{/* The port of github.apiUrl: its explicit one, or the scheme's. */}}
{{- define "trainyard.githubApiPort" -}}
{{- $url := urlParse .Values.github.apiUrl -}}
{{- regexFind "[0-9]+$" (regexFind ":[0-9]+$" $url.host) | default (ternary "80" "443" (eq $url.scheme "http")) -}}
{{- end -}}

{{/* The selector of every pod of this release: the four services, the topic Job, the evaluation stores. */}}
{{- define "trainyard.instanceSelector" -}}
app.kubernetes.io/name: trainyard
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/*
Public addresses: everything but the private (RFC 1918, unique local), shared (carrier-grade NAT,
also Alibaba's metadata 100.100.100.200), loopback and link-local ranges, so never a pod, a node or
the cloud metadata endpoint (169.254.169.254, AWS's fd00:ec2::254, which fc00::/7 holds already;
named so no one wonders). (dict "ports" <list of port numbers, empty = any>)
*/}}
{{- define "trainyard.netpol.public" -}}
- to:
    - ipBlock:
        cidr: 0.0.0.0/0
        except: [10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, 169.254.0.0/16, 127.0.0.0/8]
    - ipBlock:
        cidr: "::/0"
        except: ["fc00::/7", "fe80::/10", "::1/128", "fd00:ec2::254/128"]
  {{- with .ports }}
  ports:
    {{- range . }}
    - port: {{ . }}
      protocol: TCP
    {{- end }}
  {{- end }}
{{- end -}}

{{- define "trainyard.netpol.dns" -}}
- to:
    {{- toYaml .Values.networkPolicy.egress.dns.to | nindent 4 }}
  ports:
    {{- range .Values.networkPolicy.egress.dns.ports }}
    - port: {{ . }}
      protocol: UDP
    - port: {{ . }}
      protocol: TCP
    {{- end }}
{{- end -}}

{{/*
The egress rules of a pod of trainyard's images: (dict "root" $ "component" "gateway"). Every pod
resolves names and reaches the broker; the services the store; the callers what they call.
*/}}
{{- define "trainyard.netpol.egress" -}}
{{- $root := .root -}}
{{- $egress := $root.Values.networkPolicy.egress -}}
# DNS: the broker's, the store's and the called hosts' names
{{ include "trainyard.netpol.dns" $root }}
{{- if $root.Values.kafka.enabled }}
# the evaluation broker
- to:
    - podSelector:
        matchLabels:
          {{- include "trainyard.selector" (dict "root" $root "component" "kafka") | nindent 10 }}
  ports:
    - port: 9092
      protocol: TCP
{{- else }}
{{- $ports := $egress.kafka.ports }}
{{- if not $ports }}
{{- range splitList "," (include "trainyard.kafkaBootstrap" $root) }}
{{- $ports = append $ports (regexFind "[0-9]+$" .) }}
{{- end }}
{{- end }}
# the external brokers: a policy cannot name a host, so the addresses (or selectors) of the values
- to:
    {{- toYaml $egress.kafka.to | nindent 4 }}
  ports:
    {{- range uniq $ports }}
    - port: {{ . }}
      protocol: TCP
    {{- end }}
{{- end }}
{{- if ne .component "topics" }}
{{- if $root.Values.mongodb.enabled }}
# the evaluation store
- to:
    - podSelector:
        matchLabels:
          {{- include "trainyard.selector" (dict "root" $root "component" "mongodb") | nindent 10 }}
  ports:
    - port: 27017
      protocol: TCP
{{- else }}
# the external store, as the brokers
- to:
    {{- toYaml $egress.mongodb.to | nindent 4 }}
  ports:
    {{- range $egress.mongodb.ports }}
    - port: {{ . }}
      protocol: TCP
    {{- end }}
{{- end }}
{{- end }}
{{- if eq .component "gateway" }}
# /v1/flaky-tests/* goes on to the flaky-tests service (TRAINYARD_FLAKY_TESTS_URL)
- to:
    - podSelector:
        matchLabels:
          {{- include "trainyard.selector" (dict "root" $root "component" "flaky-tests-service") | nindent 10 }}
  ports:
    - port: 8080
      protocol: TCP
{{- if $root.Values.github.enabled }}
{{- $apiPort := include "trainyard.githubApiPort" $root }}
{{- if $egress.publicInternet }}
# GitHub's API: who may command a queue from a comment
{{ include "trainyard.netpol.public" (dict "ports" (list $apiPort)) }}
{{- end }}
{{- with $egress.githubEnterpriseCIDRs }}
# GitHub Enterprise Server's API on a private address
- to:
    {{- range . }}
    - ipBlock:
        cidr: {{ . | quote }}
    {{- end }}
  ports:
    - port: {{ $apiPort }}
      protocol: TCP
{{- end }}
{{- end }}
{{- if and $egress.publicInternet (or $root.Values.sso.oidc.clientId $root.Values.sso.github.clientId) }}
# the identity providers people sign in with (discovery, token, keys, GitHub's teams) over HTTPS
{{ include "trainyard.netpol.public" (dict "ports" (list 443)) }}
{{- end }}
{{- else if has .component (list "queue-worker" "webhook-dispatcher") }}
{{- if $egress.publicInternet }}
# {{ ternary "git remotes and GitHub" "webhook endpoints" (eq .component "queue-worker") }}: any public address, on whatever port a URL names
{{ include "trainyard.netpol.public" dict }}
{{- end }}
{{- if and (eq .component "queue-worker") $egress.githubEnterpriseCIDRs }}
# GitHub Enterprise Server on a private address: its API, git over https and ssh
- to:
    {{- range $egress.githubEnterpriseCIDRs }}
    - ipBlock:
        cidr: {{ . | quote }}
    {{- end }}
{{- end }}
{{- end }}
{{- with $root.Values.tracing.egress }}
# the trace collector (tracing.egress)
{{ toYaml . }}
{{- end }}
{{- with $egress.extra }}
# the operator's own (networkPolicy.egress.extra)
{{ toYaml . }}
{{- end }}
{{- end -}}
