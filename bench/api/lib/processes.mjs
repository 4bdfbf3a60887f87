// Resident memory of each process ./dev started: the pid files in
// .local/run/<name>.pid name the supervisor (or the process itself); its
// node child is what a pod's memory limit would see, so the figure is the
// RSS of the whole process tree minus ./dev's own bash supervisor.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SERVICES = ['gateway', 'identity', 'catalog', 'commerce', 'reader', 'notes', 'integrations', 'docdb', 'postgres', 'redis', 'rabbitmq'];

export function rssByService(runDir) {
  const table = processTable();
  const rss = {};
  for (const name of SERVICES) {
    let pid;
    try {
      pid = Number(readFileSync(join(runDir, `${name}.pid`), 'utf8').split('\n')[0]);
    } catch {
      continue;
    }
    if (!table.has(pid)) continue;
    let kb = 0;
    const pending = [pid];
    while (pending.length) {
      const current = pending.pop();
      const entry = table.get(current);
      if (!entry.cmdline.includes('__supervise')) kb += entry.rssKb;
      for (const [child, info] of table) if (info.ppid === current) pending.push(child);
    }
    rss[name] = kb / 1024;
  }
  return rss;
}

function processTable() {
  const table = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(status.match(/^PPid:\s+(\d+)/m)?.[1]);
      const rssKb = Number(status.match(/^VmRSS:\s+(\d+)/m)?.[1] ?? 0);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      table.set(Number(entry), { ppid, rssKb, cmdline });
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}
