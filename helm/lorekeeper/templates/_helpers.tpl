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
