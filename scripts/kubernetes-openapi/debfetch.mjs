#!/usr/bin/env node
// Download Debian packages and their -dev dependency closure, verified end to end,
// and extract them (dpkg -x) into one root directory.
//
//   node debfetch.mjs --suite sid --cache DIR --root DIR [--manifest FILE] PKG...
//   (--no-deps: take only the named packages)
//   node debfetch.mjs --suite sid --cache DIR --query REGEX   (list "name version", no download)
//
// Trust chain: dists/<suite>/InRelease is checked with gpgv against the Debian
// archive keyring (DEBIAN_KEYRING, default /usr/share/keyrings/debian-archive-keyring.gpg),
// the Packages.xz indexes against the SHA256 lines of InRelease, and every .deb
// against the SHA256: field of its index stanza.
//
// Dependency rule: the named packages are always taken; from their Depends:
// (and Pre-Depends:) we follow, recursively, the alternatives that name an
// Architecture: all package whose name ends in -dev or -src (Go source packages
// and the toolchain's golang-1.NN-src). Architecture-specific -dev packages
// (C headers) and runtime packages are skipped: a GOPATH build needs only Go sources.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from "node:fs";
import { join, basename } from "node:path";

const MIRROR = process.env.DEBIAN_MIRROR || "https://deb.debian.org/debian";
const KEYRING = process.env.DEBIAN_KEYRING || "/usr/share/keyrings/debian-archive-keyring.gpg";
const ARCH = process.env.DEBIAN_ARCH || "amd64";

const args = process.argv.slice(2);
const opt = { suite: null, cache: null, root: null, manifest: null, query: null };
const roots = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--no-deps") opt.noDeps = true;
  else if (a.startsWith("--")) opt[a.slice(2)] = args[++i];
  else roots.push(a);
}
if (!opt.suite || !opt.cache || (!opt.query && (!opt.root || roots.length === 0))) {
  console.error("usage: debfetch.mjs --suite SUITE --cache DIR --root DIR [--manifest FILE] PKG...\n       debfetch.mjs --suite SUITE --cache DIR --query REGEX");
  process.exit(2);
}

const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");
function download(url, dest) {
  const tmp = dest + ".part";
  execFileSync("curl", ["-sfSL", "--retry", "3", "-o", tmp, url], { stdio: "inherit" });
  renameSync(tmp, dest);
}

const idxDir = join(opt.cache, "dists", opt.suite);
mkdirSync(idxDir, { recursive: true });
const inRelease = join(idxDir, "InRelease");
download(`${MIRROR}/dists/${opt.suite}/InRelease`, inRelease);
execFileSync("gpgv", ["--keyring", KEYRING, inRelease], { stdio: ["ignore", "ignore", "inherit"] });
const release = readFileSync(inRelease, "utf8");
const shaSection = release.split(/^SHA256:\n/m)[1] ?? "";
const releaseSums = new Map();
for (const line of shaSection.split("\n")) {
  const m = /^ ([0-9a-f]{64})\s+\d+\s+(\S+)$/.exec(line);
  if (!m) break;
  releaseSums.set(m[2], m[1]);
}

const unverified = [];
const stanzas = new Map(); // name -> fields
const provides = new Map(); // virtual -> [names]
for (const arch of ["all", ARCH]) {
  const rel = `main/binary-${arch}/Packages.xz`;
  const want = releaseSums.get(rel);
  if (!want) throw new Error(`InRelease lists no ${rel}`);
  const dest = join(idxDir, `Packages-${arch}.xz`);
  // Fetch by hash (Acquire-By-Hash) so the index always matches this InRelease.
  const byHash = `${MIRROR}/dists/${opt.suite}/main/binary-${arch}/by-hash/SHA256/${want}`;
  if (!existsSync(dest) || sha256(readFileSync(dest)) !== want) {
    try { download(byHash, dest); } catch { download(`${MIRROR}/dists/${opt.suite}/${rel}`, dest); }
  }
  const got = sha256(readFileSync(dest));
  if (got !== want) {
    // Seen with trixie after a point release: the mirror served the previous
    // Packages.xz (and no by-hash copy of the new one) next to the new InRelease.
    const msg = `${rel}: sha256 ${got} is not the ${want} that the signed InRelease lists`;
    if (process.env.DEBFETCH_STRICT === "1") throw new Error(msg);
    console.error(`WARNING: ${msg}; continuing with an index that is NOT signature-verified (set DEBFETCH_STRICT=1 to refuse)`);
    unverified.push(rel);
  }
  const text = execFileSync("xz", ["-dc", dest], { maxBuffer: 1 << 30 }).toString("utf8");
  for (const block of text.split(/\n\n+/)) {
    const f = {};
    let last = null;
    for (const line of block.split("\n")) {
      if (/^\s/.test(line)) { if (last) f[last] += "\n" + line; continue; }
      const i = line.indexOf(":");
      if (i < 0) continue;
      last = line.slice(0, i);
      f[last] = line.slice(i + 1).trim();
    }
    if (!f.Package) continue;
    if (f.Architecture !== "all" && f.Architecture !== ARCH) continue;
    stanzas.set(f.Package, f);
    for (const p of (f.Provides || "").split(",")) {
      const v = p.trim().split(/[\s(]/)[0];
      if (!v) continue;
      if (!provides.has(v)) provides.set(v, []);
      provides.get(v).push(f.Package);
    }
  }
}

if (opt.query) { // --query REGEX: print "name version" of matching packages, download nothing
  const re = new RegExp(opt.query);
  for (const [name, s] of [...stanzas].sort()) if (re.test(name)) console.log(`${name} ${s.Version}`);
  process.exit(0);
}

const follow = (name) => {
  const s = stanzas.get(name);
  return s && s.Architecture === "all" && /-(dev|src)$/.test(name);
};
const pick = (alt) => {
  const name = alt.trim().split(/[\s(:]/)[0];
  if (stanzas.has(name)) return name;
  const p = provides.get(name);
  return p ? p[0] : null;
};

const chosen = new Map();
const queue = [];
for (const r of roots) {
  if (!stanzas.has(r)) throw new Error(`${r}: not in ${opt.suite} (${ARCH}/all)`);
  queue.push(r);
}
const missing = [];
while (queue.length) {
  const name = queue.shift();
  if (chosen.has(name)) continue;
  const s = stanzas.get(name);
  chosen.set(name, s);
  const deps = [s["Pre-Depends"], s.Depends].filter(Boolean).join(",");
  for (const group of deps.split(",")) {
    if (!group.trim()) continue;
    const alts = group.split("|").map(pick).filter(Boolean);
    const next = alts.find(follow);
    if (opt.noDeps) continue;
    if (next) queue.push(next);
    else if (alts.length === 0 && /^golang-.*-dev/.test(group.trim())) missing.push(`${name} -> ${group.trim()}`);
  }
}
if (missing.length) console.error("warning: unresolvable dependencies:\n  " + missing.join("\n  "));

const debDir = join(opt.cache, "debs");
mkdirSync(debDir, { recursive: true });
mkdirSync(opt.root, { recursive: true });
const manifest = [];
for (const [name, s] of [...chosen].sort()) {
  const dest = join(debDir, basename(s.Filename));
  if (!existsSync(dest) || sha256(readFileSync(dest)) !== s.SHA256) download(`${MIRROR}/${s.Filename}`, dest);
  const got = sha256(readFileSync(dest));
  if (got !== s.SHA256) throw new Error(`${s.Filename}: sha256 ${got} != ${s.SHA256}`);
  execFileSync("dpkg", ["-x", dest, opt.root], { stdio: "inherit" });
  manifest.push(`${name}\t${s.Version}\t${s.Architecture}\t${s.SHA256}`);
}
if (unverified.length) manifest.unshift(`# WARNING: index not verified against InRelease: ${unverified.join(" ")}`);
if (opt.manifest) writeFileSync(opt.manifest, manifest.join("\n") + "\n");
console.error(`${opt.suite}: ${manifest.length} packages extracted into ${opt.root}`);
