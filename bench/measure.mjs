// Running one build as a child process and measuring it: wall time, CPU time and peak RSS (from
// /proc, polled), shared by bench.mjs and report.mjs; and running commands with their output kept,
// a few at a time (inputs-recall.mjs, diff-vs-kubectl.mjs).

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

/** Reads VmHWM (peak resident set, kB) of a process, or 0 when it is gone. */
function peakRssKb(pid) {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** user + system CPU time of a process so far, in clock ticks, or 0 when it is gone. */
function cpuTicks(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
    return Number(f[11]) + Number(f[12]); // fields 14 (utime) and 15 (stime)
  } catch {
    return 0;
  }
}

/** user + system CPU time of a process so far (all its threads), in seconds, or 0 when it is gone. */
export const cpuSeconds = (pid) => cpuTicks(pid) / CLK_TCK;

/** The process and its descendants (Linux /proc; just the process elsewhere). */
function processTree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks;
    try {
      tasks = fs.readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      try {
        for (const c of fs.readFileSync(`/proc/${out[i]}/task/${t}/children`, 'utf8').split(' ')) if (c.trim()) out.push(Number(c));
      } catch {
        /* gone */
      }
    }
  }
  return out;
}

/**
 * Runs cmd with stdout to outFile; resolves { ok, seconds, cpu, timedOut, code, stderr, rssKb }.
 * Wall time runs from spawn to exit. Peak RSS (VmHWM) and CPU time (utime + stime, all threads)
 * are read from /proc every 20 ms, per process of the tree, and summed; they can miss what
 * happens in the last 20 ms of a run. Both are 0 where there is no /proc.
 */
export function run(cmd, args, outFile, timeoutSec) {
  return new Promise((resolve) => {
    const fd = fs.openSync(outFile, 'w');
    const peaks = new Map();
    const ticks = new Map();
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ['ignore', fd, 'pipe'] });
    fs.closeSync(fd);
    let stderr = '';
    let timedOut = false;
    let seconds = 0;
    let code = null;
    let signal = null;
    let spawnError;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => {
      if (stderr.length < 1 << 20) stderr += d;
    });
    const poll = () => {
      if (child.pid === undefined) return;
      for (const pid of processTree(child.pid)) {
        const kb = peakRssKb(pid);
        if (kb > (peaks.get(pid) ?? 0)) peaks.set(pid, kb);
        const t = cpuTicks(pid);
        if (t > (ticks.get(pid) ?? 0)) ticks.set(pid, t);
      }
    };
    const poller = setInterval(poll, 20);
    const timer = timeoutSec
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, timeoutSec * 1000)
      : undefined;
    child.on('error', (e) => {
      spawnError = e;
    });
    child.on('exit', (c, s) => {
      seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      code = c;
      signal = s;
      clearInterval(poller);
      if (timer) clearTimeout(timer);
    });
    child.on('close', () => {
      clearInterval(poller);
      if (timer) clearTimeout(timer);
      if (spawnError) stderr += `\n${spawnError.message}`;
      const rssKb = [...peaks.values()].reduce((a, b) => a + b, 0);
      const cpu = [...ticks.values()].reduce((a, b) => a + b, 0) / CLK_TCK;
      resolve({ ok: !spawnError && !timedOut && code === 0, seconds, cpu, timedOut, code, signal, stderr, rssKb });
    });
  });
}

/**
 * Runs a command to its end, its output kept: its exit code, whether it exited 0, whether it
 * timed out (its process group is killed at `timeout` ms), its stdout (a Buffer), stderr and wall
 * time.
 */
export function capture(cmd, args, { cwd, timeout } = {}) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = [];
    const err = [];
    let timedOut = false;
    const timer =
      timeout &&
      setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, timeout);
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code) => {
      clearTimeout(timer);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      resolve({ code: timedOut ? null : code, ok: code === 0 && !timedOut, timedOut, seconds, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** Runs `work` on each item, `jobs` at a time, keeping the items' order in the results. */
export async function pool(items, jobs, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

export function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
