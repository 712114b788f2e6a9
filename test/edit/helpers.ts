import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build } from '../../src/build/build.js';

export const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.0
`;

export const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
`;

/** An in-memory project at /app, and the CLI run in it in-process. */
export function project(files: Record<string, string>) {
  const fs = MemoryFileSystem.from(Object.fromEntries(Object.entries(files).map(([p, c]) => [`app/${p}`, c])));
  const run = async (...args: string[]) => {
    let out = '';
    let err = '';
    const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s), cwd: '/app', fs });
    return { code, out, err };
  };
  const read = (name = 'kustomization.yaml') => new TextDecoder().decode(fs.readFile(`/app/${name}`));
  /** builds /app and returns its YAML: the edited kustomization must stay valid */
  const built = async () => (await build('/app', { fs })).yaml;
  /** runs a command that must succeed */
  const ok = async (...args: string[]) => {
    const r = await run(...args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    return r;
  };
  /** runs a command that must fail with this message, leaving the file as it was */
  const fails = async (message: string, ...args: string[]) => {
    const before = fs.exists('/app/kustomization.yaml') ? read() : undefined;
    const r = await run(...args);
    assert.equal(r.code, 1);
    assert.equal(r.err, `Error: ${message}\n`);
    if (before !== undefined) assert.equal(read(), before, 'a failed command leaves the file as it was');
  };
  return { fs, run, read, built, ok, fails };
}
