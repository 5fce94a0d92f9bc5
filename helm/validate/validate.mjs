// Validates every document of a multi-document YAML file (rendered Helm manifests) against the
// Kubernetes API schemas bundled in kubernetes-models (core and apps/batch/policy/autoscaling...,
// a current Kubernetes release) and KEDA's CRD schemas (@kubernetes-models/keda). CloudNativePG
// publishes no such package: its Cluster's required fields are checked by hand below.
// Prints one JSON line per document and exits 1 when any document is invalid or unknown.
//   node validate.mjs manifests.yaml
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

function modulePath(apiVersion) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  if (group === "") return `kubernetes-models/${version}`;
  if (group === "keda.sh" || group === "eventing.keda.sh") return `@kubernetes-models/keda/${group}/${version}`;
  return `kubernetes-models/${group}/${version}`;
}

const handChecked = {
  "postgresql.cnpg.io/v1/Cluster": checkCnpgCluster,
};

function checkCnpgCluster(doc) {
  const errors = [];
  const spec = doc.spec ?? {};
  const need = (cond, message) => { if (!cond) errors.push(message); };
  need(typeof doc.metadata?.name === "string" && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(doc.metadata.name), "metadata.name must be a DNS label");
  need(Number.isInteger(spec.instances) && spec.instances >= 1, "spec.instances must be an integer >= 1");
  need(spec.imageName === undefined || (typeof spec.imageName === "string" && spec.imageName.length > 0), "spec.imageName must be a non-empty string");
  need(typeof spec.storage?.size === "string" || spec.storage?.pvcTemplate !== undefined, "spec.storage.size (or pvcTemplate) is required");
  const initdb = spec.bootstrap?.initdb;
  if (initdb !== undefined) {
    need(typeof initdb.database === "string" && typeof initdb.owner === "string", "spec.bootstrap.initdb needs database and owner (strings)");
    for (const key of ["postInitSQL", "postInitApplicationSQL", "postInitTemplateSQL"]) {
      need(initdb[key] === undefined || (Array.isArray(initdb[key]) && initdb[key].every((s) => typeof s === "string")), `spec.bootstrap.initdb.${key} must be a list of strings`);
    }
  }
  const parameters = spec.postgresql?.parameters ?? {};
  need(Object.values(parameters).every((v) => typeof v === "string"), "spec.postgresql.parameters values must be strings");
  return errors;
}

async function validate(doc) {
  if (typeof doc?.apiVersion !== "string" || typeof doc?.kind !== "string") {
    return ["apiVersion and kind are required"];
  }
  const hand = handChecked[`${doc.apiVersion}/${doc.kind}`];
  if (hand) return hand(doc);
  let model;
  try {
    model = (await import(modulePath(doc.apiVersion)))[doc.kind];
  } catch (e) {
    model = undefined;
  }
  if (typeof model !== "function") {
    return [`no schema for ${doc.apiVersion} ${doc.kind}`];
  }
  try {
    new model(doc).validate();
    return [];
  } catch (e) {
    return [e.message];
  }
}

const file = process.argv[2];
let failed = false;
for (const parsed of parseAllDocuments(readFileSync(file, "utf8"))) {
  if (parsed.errors.length > 0) {
    failed = true;
    console.log(JSON.stringify({ kind: null, name: null, errors: parsed.errors.map((e) => e.message) }));
    continue;
  }
  const doc = parsed.toJS();
  if (doc === null || doc === undefined) continue;
  const errors = await validate(doc);
  failed ||= errors.length > 0;
  console.log(JSON.stringify({ apiVersion: doc.apiVersion, kind: doc.kind, name: doc.metadata?.name ?? null, errors }));
}
process.exit(failed ? 1 : 0);
