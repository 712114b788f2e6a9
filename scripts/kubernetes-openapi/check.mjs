#!/usr/bin/env node
// Sanity and fidelity checks of a generated openapi-v3.json.
//
//   node check.mjs OUR.json [REFERENCE.json ...]
//
// Sanity: every $ref resolves; spot checks of well-known keywords; root kinds present.
// Fidelity: for each definition present in OUR and a REFERENCE (real apiserver
// /openapi/v3 documents, e.g. kubectl's testdata/openapi/v3 or client-go's
// openapi/openapitest/testdata), compare schemas keyword by keyword, ignoring
// descriptions; properties only in OUR (fields added since) are counted, not reported.
import { readFileSync } from "node:fs";

const [ourPath, ...refPaths] = process.argv.slice(2);
if (!ourPath) { console.error("usage: check.mjs OUR.json [REFERENCE.json ...]"); process.exit(2); }
const our = JSON.parse(readFileSync(ourPath, "utf8"));
const S = our.components.schemas;
let failures = 0;
const fail = (m) => { failures++; console.log("FAIL " + m); };
const ok = (m) => console.log("ok   " + m);

// --- sanity -------------------------------------------------------------------
const names = Object.keys(S);
console.log(`${ourPath}: openapi ${our.openapi}, info.version ${our.info?.version}, ${names.length} definitions, ` +
  `${names.filter((n) => S[n]["x-kubernetes-group-version-kind"]).length} with x-kubernetes-group-version-kind`);
let refs = 0, bad = [];
(function walk(x) {
  if (Array.isArray(x)) return x.forEach(walk);
  if (x && typeof x === "object") for (const [k, v] of Object.entries(x)) {
    if (k === "$ref" && typeof v === "string") { refs++; const n = v.replace("#/components/schemas/", ""); if (!v.startsWith("#/components/schemas/") || !S[n]) bad.push(v); }
    else walk(v);
  }
})(S);
bad.length ? fail(`${bad.length} of ${refs} $ref do not resolve: ${[...new Set(bad)].slice(0, 5)}`) : ok(`all ${refs} $ref resolve`);
const slash = names.filter((n) => n.includes("/"));
slash.length ? fail(`definition names with '/': ${slash.slice(0, 5)}`) : ok("definition names are REST-friendly (no '/')");

const get = (path) => {
  let [name, ...rest] = path.split("#");
  let s = S[name];
  for (const p of rest.join("#").split("/").filter(Boolean)) {
    if (!s) return undefined;
    if (s.allOf && s.allOf.length === 1 && s.allOf[0].$ref) s = S[s.allOf[0].$ref.split("/").pop()];
    if (s.$ref) s = S[s.$ref.split("/").pop()];
    s = p === "[]" ? s.items : p === "{}" ? s.additionalProperties : s.properties?.[p];
  }
  return s;
};
const deref = (s) => { // follow a property's $ref / single allOf to the definition
  if (s?.allOf?.length === 1 && s.allOf[0].$ref) return S[s.allOf[0].$ref.split("/").pop()];
  if (s?.$ref) return S[s.$ref.split("/").pop()];
  return s;
};
const eq = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const spot = (label, got, want) => eq(got, want) ? ok(`${label} = ${JSON.stringify(got)}`) : fail(`${label} = ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
const C = "io.k8s.api.core.v1.", M = "io.k8s.apimachinery.pkg.";
spot("Container.ports x-kubernetes-list-type", get(C + "Container#ports")?.["x-kubernetes-list-type"], "map");
spot("Container.ports x-kubernetes-list-map-keys", get(C + "Container#ports")?.["x-kubernetes-list-map-keys"], ["containerPort", "protocol"]);
spot("ServicePort.port type/format", [get(C + "ServicePort#port")?.type, get(C + "ServicePort#port")?.format], ["integer", "int32"]);
// v3 (unlike v2's type string + format) publishes these as oneOf, like the real /openapi/v3
spot("IntOrString format/oneOf", [S[M + "util.intstr.IntOrString"]?.format, S[M + "util.intstr.IntOrString"]?.oneOf], ["int-or-string", [{ type: "integer" }, { type: "string" }]]);
spot("Quantity oneOf", S[M + "api.resource.Quantity"]?.oneOf, [{ type: "string" }, { type: "number" }]);
spot("Container.resources.limits values -> Quantity", get(C + "Container#resources/limits/{}")?.$ref ?? get(C + "Container#resources/limits/{}")?.allOf?.[0]?.$ref, "#/components/schemas/" + M + "api.resource.Quantity");
spot("DeploymentSpec.required", S["io.k8s.api.apps.v1.DeploymentSpec"]?.required, ["selector", "template"]);
spot("PodSpec.required", S[C + "PodSpec"]?.required, ["containers"]);
spot("ObjectMeta.creationTimestamp -> Time type/format", [deref(get(M + "apis.meta.v1.ObjectMeta#creationTimestamp"))?.type, deref(get(M + "apis.meta.v1.ObjectMeta#creationTimestamp"))?.format], ["string", "date-time"]);
spot("Secret.data values", get(C + "Secret#data/{}"), { type: "string", format: "byte" });
spot("Container.imagePullPolicy enum", get(C + "Container#imagePullPolicy")?.enum, ["Always", "IfNotPresent", "Never"]);
spot("ServiceSpec.type enum", get(C + "ServiceSpec#type")?.enum, ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]);
spot("Pod x-kubernetes-group-version-kind", S[C + "Pod"]?.["x-kubernetes-group-version-kind"], [{ group: "", kind: "Pod", version: "v1" }]);
spot("Container.env patch strategy", [get(C + "Container#env")?.["x-kubernetes-patch-strategy"], get(C + "Container#env")?.["x-kubernetes-patch-merge-key"]], ["merge", "name"]);
spot("ObjectMeta.labels map-type", get(M + "apis.meta.v1.ObjectMeta#labels")?.["x-kubernetes-map-type"], undefined);
spot("LabelSelector x-kubernetes-map-type", S[M + "apis.meta.v1.LabelSelector"]?.["x-kubernetes-map-type"], "atomic");
spot("RawExtension type", S[M + "runtime.RawExtension"]?.type, "object");
spot("Deployment.metadata wrapped in allOf with default {}", [get("io.k8s.api.apps.v1.Deployment")?.properties?.metadata?.allOf?.[0]?.$ref, get("io.k8s.api.apps.v1.Deployment")?.properties?.metadata?.default],
  ["#/components/schemas/" + M + "apis.meta.v1.ObjectMeta", {}]);
const roots = [
  ["apps", "v1", "Deployment"], ["", "v1", "Pod"], ["", "v1", "Service"], ["", "v1", "ConfigMap"], ["batch", "v1", "CronJob"],
  ["networking.k8s.io", "v1", "Ingress"], ["autoscaling", "v2", "HorizontalPodAutoscaler"], ["policy", "v1", "PodDisruptionBudget"],
  ["rbac.authorization.k8s.io", "v1", "ClusterRole"], ["apiextensions.k8s.io", "v1", "CustomResourceDefinition"],
  ["apiregistration.k8s.io", "v1", "APIService"],
];
const byGVK = new Map();
for (const n of names) for (const g of S[n]["x-kubernetes-group-version-kind"] || []) byGVK.set(`${g.group}/${g.version}/${g.kind}`, n);
for (const [g, v, k] of roots) byGVK.has(`${g}/${v}/${k}`) ? ok(`root kind ${g || "core"}/${v} ${k} -> ${byGVK.get(`${g}/${v}/${k}`)}`) : fail(`no schema with GVK ${g || "core"}/${v} ${k}`);

// --- fidelity against reference documents --------------------------------------
// Keywords compared: everything but description (and example).
const IGNORE = new Set(["description", "example"]);
function diff(a, b, path, out, stats) {
  // a: reference, b: ours
  if (a === undefined || b === undefined || typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    if (!eq(a, b)) out.push(`${path}: ref ${JSON.stringify(a)} ours ${JSON.stringify(b)}`);
    return;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) { out.push(`${path}: ref ${JSON.stringify(a)} ours ${JSON.stringify(b)}`); return; }
    a.forEach((x, i) => diff(x, b[i], `${path}[${i}]`, out, stats));
    return;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (IGNORE.has(k)) continue;
    if (k === "properties") {
      for (const p of new Set([...Object.keys(a.properties || {}), ...Object.keys(b.properties || {})])) {
        if (!(p in (a.properties || {}))) { stats.newProps.push(`${path}.${p}`); continue; }
        if (!(p in (b.properties || {}))) { out.push(`${path}.${p}: property missing in ours`); continue; }
        diff(a.properties[p], b.properties[p], `${path}.${p}`, out, stats);
      }
    } else if (k === "required" || k === "enum") {
      // lists that grow with new fields / values: report what the reference has and we lack, and the reverse separately
      const ra = a[k] || [], rb = b[k] || [];
      const lost = ra.filter((x) => !rb.includes(x)), added = rb.filter((x) => !ra.includes(x));
      if (lost.length) out.push(`${path}.${k}: ours lacks ${JSON.stringify(lost)}`);
      if (added.length) stats.added.push(`${path}.${k}: ours adds ${JSON.stringify(added)}`);
    } else if (k === "x-kubernetes-group-version-kind") {
      const key = (g) => `${g.group}/${g.version}/${g.kind}`;
      const ra = (a[k] || []).map(key), rb = (b[k] || []).map(key);
      const lost = ra.filter((x) => !rb.includes(x)), added = rb.filter((x) => !ra.includes(x));
      if (lost.length) stats.gvkLost.push(`${path}: ${lost.join(" ")}`);
      if (added.length) stats.gvkAdded.push(`${path}: ${added.join(" ")}`);
      if (!(k in a) || !(k in b)) out.push(`${path}: ${k} only in ${k in a ? "ref" : "ours"}`);
    } else diff(a[k], b[k], `${path}.${k}`, out, stats);
  }
}
const allDiffs = new Map(); // unique difference line -> category, over all references
const category = (l) => {
  const m = /^(\S+?): (.*)$/.exec(l);
  if (!m) return "other";
  const kw = m[1].split(".").pop().replace(/\[\d+\]$/, "");
  if (/property missing in ours/.test(m[2])) return "property only in reference (removed since)";
  if (/ours lacks/.test(m[2])) return `${kw}: reference lists more`;
  if (/^ref undefined ours/.test(m[2])) return `${kw}: only in ours`;
  if (/ ours undefined$/.test(m[2])) return `${kw}: only in reference`;
  return `${kw}: different value`;
};
for (const rp of refPaths) {
  const ref = JSON.parse(readFileSync(rp, "utf8")).components?.schemas || {};
  const common = Object.keys(ref).filter((n) => S[n]);
  const onlyRef = Object.keys(ref).filter((n) => !S[n]);
  const out = [], stats = { newProps: [], added: [], gvkLost: [], gvkAdded: [] };
  const differing = new Set();
  for (const n of common) {
    const before = out.length;
    diff(ref[n], S[n], n, out, stats);
    if (out.length > before) differing.add(n);
  }
  console.log(`\n== ${rp}: ${Object.keys(ref).length} definitions, ${common.length} also in ours, ${common.length - differing.size} identical (ignoring description and newer fields), ` +
    `${differing.size} differ; ${stats.newProps.length} properties only in ours (newer fields), ${stats.added.length} required/enum additions in ours, ` +
    `GVK entries: ${stats.gvkLost.length} defs lose some, ${stats.gvkAdded.length} defs gain some`);
  if (onlyRef.length) console.log(`   only in reference (${onlyRef.length}): ${onlyRef.join(", ")}`);
  for (const l of out) { console.log("   " + l); allDiffs.set(l, category(l)); }
  for (const l of stats.gvkLost) allDiffs.set("GVK " + l, "x-kubernetes-group-version-kind: entries only in reference");
  for (const l of stats.gvkLost) console.log("   GVK only in ref: " + l);
  if (process.env.VERBOSE) for (const l of [...stats.added, ...stats.gvkAdded.map((x) => "GVK only in ours: " + x), ...stats.newProps.map((x) => "new prop: " + x)]) console.log("   + " + l);
}
if (refPaths.length) {
  const counts = {};
  for (const c of allDiffs.values()) counts[c] = (counts[c] || 0) + 1;
  console.log(`\n== unique differences over all references, by keyword (${allDiffs.size}):`);
  for (const [c, n] of Object.entries(counts).sort((a, b) => b[1] - a[1])) console.log(`   ${String(n).padStart(5)}  ${c}`);
}
console.log(failures ? `\n${failures} sanity check(s) failed` : "\nall sanity checks passed");
process.exit(failures ? 1 : 0);
