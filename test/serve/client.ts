import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { exec, execFunctionConfig, type TreeFile } from '../plugins/plugin-tree.js';

const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));

/** `kustomize-ts serve` running in a child process, as users run it. */
export interface ServeProcess {
  child: ChildProcess;
  port: number;
  /** what it has written to stderr so far */
  stderr(): string;
  /** its exit code and signal, once it has exited */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** Starts `kustomize-ts serve` with `args` (and `--listen 127.0.0.1:0`); resolves once it listens. */
export async function startServe(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
  while (!listening.test(stderr)) {
    assert.equal(child.exitCode, null, stderr);
    await sleep(20);
  }
  return { child, port: Number(listening.exec(stderr)![1]), stderr: () => stderr, exited };
}

/** What the server answered. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request to the server on 127.0.0.1: `body` as it is (a string) or as JSON, or several chunks sent without a length. */
export function request(port: number, method: string, path: string, body?: unknown, options: { chunks?: string[] } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** A `/v1/build` of `path`, its answer's body read as JSON. */
export async function buildRequest(port: number, path: string, options?: Record<string, unknown>): Promise<{ status: number; body: BuildAnswer }> {
  const answer = await request(port, 'POST', '/v1/build', { path, ...(options && { options }) });
  return { status: answer.status, body: JSON.parse(answer.text) as BuildAnswer };
}

/** The body of a `/v1/build` answer: the build, or the error. */
export interface BuildAnswer {
  yaml?: string;
  warnings?: unknown[];
  inputs?: string[];
  ms?: number;
  error?: { code: string; message: string; file?: string };
}

/** The value of one sample of the server's metrics (the first line that starts with `sample`), or undefined. */
export async function metric(port: number, sample: string): Promise<number | undefined> {
  const { text } = await request(port, 'GET', '/metrics');
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

/** A program for an exec KRM function that waits until a file `open` appears beside it, then passes the resources through: builds a test holds in flight. */
export const GATE = exec('#!/bin/sh\nwhile [ ! -f open ]; do sleep 0.05; done\ncat\n');

/** A kustomization at `dir` of one ConfigMap and an exec function running `program`. */
export function functionTree(dir: string, program: TreeFile): Record<string, TreeFile> {
  return {
    [`${dir}/kustomization.yaml`]: 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    [`${dir}/cm.yaml`]: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
    [`${dir}/fn.yaml`]: execFunctionConfig('Fn', './program'),
    [`${dir}/program`]: program,
  };
}
