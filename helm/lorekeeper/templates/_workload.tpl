{{/*
One Deployment of the service. Called with a dict:
  root:      the chart's top-level context
  component: "api", "worker" or "all" (the process role and the app.kubernetes.io/component label)
  settings:  the component's values (.Values.api, .Values.worker, or .Values.api for "all")
  scaled:    true when an autoscaler (HPA or KEDA) owns the replica count
*/}}
{{- define "lorekeeper.deployment" -}}
{{- $root := .root -}}
{{- $s := .settings -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "lorekeeper.componentName" (dict "root" $root "component" .component) }}
  labels:
    {{- include "lorekeeper.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
spec:
  {{- if not .scaled }}
  replicas: {{ $s.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "lorekeeper.componentSelectorLabels" (dict "root" $root "component" .component) | nindent 6 }}
  template:
    metadata:
      annotations:
        # Roll the pods when their configuration or credentials change.
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        {{- if not $root.Values.existingSecret }}
        checksum/secret: {{ include (print $root.Template.BasePath "/secret.yaml") $root | sha256sum }}
        {{- end }}
        {{- with $root.Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      labels:
        {{- include "lorekeeper.labels" $root | nindent 8 }}
        app.kubernetes.io/component: {{ .component }}
        {{- with $root.Values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      serviceAccountName: {{ include "lorekeeper.serviceAccountName" $root }}
      automountServiceAccountToken: {{ $root.Values.serviceAccount.automount }}
      # preStop pause + the service's own drain (HTTP requests, or running jobs for a worker)
      terminationGracePeriodSeconds: {{ $s.terminationGracePeriodSeconds }}
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      {{- if $root.Values.topologySpread.enabled }}
      topologySpreadConstraints:
        {{- range $key := list $root.Values.topologySpread.zoneKey $root.Values.topologySpread.nodeKey }}
        - maxSkew: 1
          topologyKey: {{ $key }}
          whenUnsatisfiable: {{ $root.Values.topologySpread.whenUnsatisfiable }}
          labelSelector:
            matchLabels:
              {{- include "lorekeeper.componentSelectorLabels" (dict "root" $root "component" $.component) | nindent 14 }}
          matchLabelKeys:
            - pod-template-hash
        {{- end }}
      {{- end }}
      containers:
        - name: {{ $root.Chart.Name }}
          image: {{ include "lorekeeper.image" $root | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          securityContext:
            {{- toYaml $root.Values.securityContext | nindent 12 }}
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
          envFrom:
            - configMapRef:
                name: {{ include "lorekeeper.fullname" $root }}
            - secretRef:
                name: {{ include "lorekeeper.secretName" $root }}
          env:
            - name: LOREKEEPER_ROLE
              value: {{ .component | quote }}
            # Heap is a share of the container's memory limit; the rest stays for ONNX Runtime's
            # native memory, thread stacks and metaspace.
            - name: JAVA_TOOL_OPTIONS
              value: {{ $s.javaToolOptions | quote }}
            {{- if ne .component "api" }}
            - name: DBSCHEDULER_THREADS
              value: {{ $root.Values.worker.jobThreads | quote }}
            # On SIGTERM the scheduler stops picking jobs and waits this long for running ones; a job
            # still running then is revived by another worker once its heartbeats stop.
            - name: DBSCHEDULER_SHUTDOWNMAXWAIT
              value: {{ printf "%ds" (int (sub $s.terminationGracePeriodSeconds (add $root.Values.drain.preStopSleepSeconds 10))) | quote }}
            {{- end }}
            - name: SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE
              value: {{ $s.databasePoolSize | quote }}
            {{- if $root.Values.cnpg.enabled }}
            # credentials of the CloudNativePG application user (its <cluster>-app Secret)
            - name: SPRING_DATASOURCE_USERNAME
              valueFrom:
                secretKeyRef:
                  name: {{ include "lorekeeper.cnpgName" $root }}-app
                  key: username
            - name: SPRING_DATASOURCE_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: {{ include "lorekeeper.cnpgName" $root }}-app
                  key: password
            {{- end }}
            # The DJL tokenizer unpacks a native library here; the root
            # filesystem is read-only, so it lives on the djl-cache emptyDir.
            - name: DJL_CACHE_DIR
              value: /tmp/djl
            {{- include "lorekeeper.adminKeyEnv" $root | nindent 12 }}
          lifecycle:
            preStop:
              # keeps serving while the endpoint removal reaches every proxy, then SIGTERM drains
              exec:
                command: ["sleep", "{{ $root.Values.drain.preStopSleepSeconds }}"]
          startupProbe:
            httpGet:
              path: /actuator/health/liveness
              port: http
            periodSeconds: {{ $root.Values.probes.startup.periodSeconds }}
            failureThreshold: {{ $root.Values.probes.startup.failureThreshold }}
          livenessProbe:
            httpGet:
              path: /actuator/health/liveness
              port: http
            periodSeconds: {{ $root.Values.probes.liveness.periodSeconds }}
            timeoutSeconds: {{ $root.Values.probes.liveness.timeoutSeconds }}
            failureThreshold: {{ $root.Values.probes.liveness.failureThreshold }}
          readinessProbe:
            httpGet:
              path: /actuator/health/readiness
              port: http
            periodSeconds: {{ $root.Values.probes.readiness.periodSeconds }}
            timeoutSeconds: {{ $root.Values.probes.readiness.timeoutSeconds }}
            failureThreshold: {{ $root.Values.probes.readiness.failureThreshold }}
          resources:
            {{- toYaml $s.resources | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            - name: djl-cache
              mountPath: /tmp/djl
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ $root.Values.tmpSizeLimit }}
        - name: djl-cache
          emptyDir:
            sizeLimit: {{ $root.Values.tmpSizeLimit }}
      {{- with $root.Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $root.Values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $root.Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end }}

{{/*
PodDisruptionBudget of one component: voluntary evictions (node drains, upgrades) take at most
maxUnavailable of its pods at a time. Called like lorekeeper.deployment.
*/}}
{{- define "lorekeeper.pdb" -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "lorekeeper.componentName" (dict "root" .root "component" .component) }}
  labels:
    {{- include "lorekeeper.labels" .root | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
spec:
  maxUnavailable: {{ .settings.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "lorekeeper.componentSelectorLabels" (dict "root" .root "component" .component) | nindent 6 }}
{{- end }}
