{{/*
Chart name, shortened to the 63 characters Kubernetes allows in a name.
*/}}
{{- define "lorekeeper.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified name for the release's objects. The release name is used as is
when it already contains the chart name.
*/}}
{{- define "lorekeeper.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Value of the helm.sh/chart label: chart name and version.
*/}}
{{- define "lorekeeper.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels that select the pods; they must not change between upgrades.
*/}}
{{- define "lorekeeper.selectorLabels" -}}
app.kubernetes.io/name: {{ include "lorekeeper.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Labels put on every object of the chart.
*/}}
{{- define "lorekeeper.labels" -}}
helm.sh/chart: {{ include "lorekeeper.chart" . }}
{{ include "lorekeeper.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: lorekeeper
{{- end }}

{{/*
Name of the ServiceAccount the pods run as.
*/}}
{{- define "lorekeeper.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "lorekeeper.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Name of the Secret with credentials: the externally managed one when
existingSecret is set, otherwise the one this chart renders.
*/}}
{{- define "lorekeeper.secretName" -}}
{{- if .Values.existingSecret }}
{{- .Values.existingSecret }}
{{- else }}
{{- include "lorekeeper.fullname" . }}
{{- end }}
{{- end }}

{{/*
Container image reference; the tag defaults to the chart's appVersion.
*/}}
{{- define "lorekeeper.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag | toString) }}
{{- end }}

{{/*
Name of one component's objects: <fullname>-api, <fullname>-worker; the single "all"
Deployment keeps the plain <fullname>. Called with (dict "root" . "component" "api").
*/}}
{{- define "lorekeeper.componentName" -}}
{{- if eq .component "all" }}
{{- include "lorekeeper.fullname" .root }}
{{- else }}
{{- printf "%s-%s" (include "lorekeeper.fullname" .root | trunc 56 | trimSuffix "-") .component }}
{{- end }}
{{- end }}

{{/*
Selector labels of one component's pods.
*/}}
{{- define "lorekeeper.componentSelectorLabels" -}}
{{ include "lorekeeper.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/*
Component whose pods serve HTTP: "api" when the roles are split, "all" otherwise.
*/}}
{{- define "lorekeeper.httpComponent" -}}
{{- ternary "api" "all" (eq .Values.role "split") }}
{{- end }}

{{/*
Name of the example CloudNativePG Cluster.
*/}}
{{- define "lorekeeper.cnpgName" -}}
{{- default (printf "%s-db" (include "lorekeeper.fullname" . | trunc 50 | trimSuffix "-")) .Values.cnpg.name }}
{{- end }}

{{/*
JDBC URL of the primary: the CloudNativePG read-write Service when the example Cluster is
enabled, database.url otherwise.
*/}}
{{- define "lorekeeper.databaseUrl" -}}
{{- if .Values.cnpg.enabled }}
{{- printf "jdbc:postgresql://%s-rw:5432/%s" (include "lorekeeper.cnpgName" .) .Values.cnpg.database }}
{{- else }}
{{- .Values.database.url }}
{{- end }}
{{- end }}

{{/*
JDBC URL for search queries (a read replica), empty when searches go to the primary.
*/}}
{{- define "lorekeeper.searchDatabaseUrl" -}}
{{- if .Values.database.searchUrl }}
{{- .Values.database.searchUrl }}
{{- else if and .Values.cnpg.enabled .Values.cnpg.searchOnReplicas }}
{{- printf "jdbc:postgresql://%s-ro:5432/%s" (include "lorekeeper.cnpgName" .) .Values.cnpg.database }}
{{- end }}
{{- end }}

{{/*
Host, port and database name of the primary, parsed from its JDBC URL
(jdbc:postgresql://host[:port]/database[?params]) for tools that do not speak JDBC.
*/}}
{{- define "lorekeeper.databaseHost" -}}
{{- include "lorekeeper.databaseUrl" . | regexFind "//[^/:?]+" | trimPrefix "//" }}
{{- end }}
{{- define "lorekeeper.databasePort" -}}
{{- $port := include "lorekeeper.databaseUrl" . | regexFind "//[^/]+:[0-9]+/" | regexFind ":[0-9]+/" | trimPrefix ":" | trimSuffix "/" }}
{{- default "5432" $port }}
{{- end }}
{{- define "lorekeeper.databaseName" -}}
{{- include "lorekeeper.databaseUrl" . | regexFind "//[^/]+/[^?]+" | regexFind "/[^/]+$" | trimPrefix "/" }}
{{- end }}
The admin key is required: without one the service runs with authentication off. It comes from a
Secret the operator manages (security.adminKey.existingSecret) or from security.adminKey.value,
which the chart stores in its own Secret.
*/}}
{{- define "lorekeeper.adminKeyEnv" -}}
{{- $key := .Values.security.adminKey -}}
{{- if and $key.existingSecret $key.value -}}
{{- fail "security.adminKey: give existingSecret or value, not both" -}}
{{- end -}}
{{- if and $key.value .Values.existingSecret -}}
{{- fail "security.adminKey.value is stored in the chart's Secret, which existingSecret replaces: put the admin key in a Secret and set security.adminKey.existingSecret" -}}
{{- end -}}
{{- if $key.existingSecret }}
- name: LOREKEEPER_ADMIN_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $key.existingSecret }}
      key: {{ $key.existingSecretKey }}
{{- else }}
{{- $_ := required "security.adminKey.existingSecret (a Secret holding the admin key) or security.adminKey.value is required: Lorekeeper must not run without API keys in a cluster" $key.value }}
{{- end }}
{{- end -}}
