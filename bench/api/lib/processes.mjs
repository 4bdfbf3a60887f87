// Resident memory and CPU time of each process ./dev started: the pid files
// in .local/run/<name>.pid name the supervisor (or the process itself); its
// node child is what a pod's memory limit would see, so the figure is the
// RSS of the whole process tree minus ./dev's own bash supervisor. A tree of
// several processes (PostgreSQL's postmaster and its backends) is summed by
// PSS instead: its processes share the server's buffers, which RSS would
// count again for every backend (40 backends: 5,001 MB by RSS, 325 by PSS).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SERVICES = ['gateway', 'identity', 'catalog', 'commerce', 'reader', 'notes', 'integrations', 'docdb', 'postgres', 'redis', 'rabbitmq'];

export function rssByService(runDir) {
  const rss = {};
  for (const [name, tree] of Object.entries(treesByService(runDir))) {
    rss[name] = (tree.length === 1 ? tree[0].rssKb : tree.reduce((kb, entry) => kb + pssKb(entry.pid), 0)) / 1024;
  }
  return rss;
}

/**
 * CPU time (clock ticks: user + system) each process of each service's tree
 * has used so far, by pid: compare two samples process by process
 * (cpuTicksBetween), since a tree's processes come and go (PostgreSQL's
 * autovacuum workers and backends), and a sum over the tree would fall when
 * a busy one exits.
 */
export function cpuTicksByService(runDir) {
  const ticks = {};
  for (const [name, tree] of Object.entries(treesByService(runDir))) ticks[name] = new Map(tree.map((entry) => [entry.pid, entry.cpuTicks]));
  return ticks;
}

/** Ticks each service used between two samples: by the processes of `after`, from 0 for one started since `before`. */
export function cpuTicksBetween(before, after) {
  const used = {};
  for (const [name, processes] of Object.entries(after)) {
    used[name] = 0;
    for (const [pid, ticks] of processes) used[name] += Math.max(0, ticks - (before[name]?.get(pid) ?? 0));
  }
  return used;
}

/** CPU time (clock ticks) one process has used so far; 0 once it has ended. */
export function cpuTicksOfPid(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Each running service's processes, without ./dev's bash supervisor. */
function treesByService(runDir) {
  const table = processTable();
  const trees = {};
  for (const name of SERVICES) {
    const tree = treeOf(runDir, name, table);
    if (tree) trees[name] = tree;
  }
  return trees;
}

/** One service's processes ({ pid, ppid, rssKb, cmdline, cpuTicks }), without ./dev's supervisor; [] when it does not run. */
export function processTreeOf(runDir, name) {
  return treeOf(runDir, name, processTable()) ?? [];
}

function treeOf(runDir, name, table) {
  let pid;
  try {
    pid = Number(readFileSync(join(runDir, `${name}.pid`), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  if (!table.has(pid)) return undefined;
  const tree = [];
  const pending = [pid];
  while (pending.length) {
    const current = pending.pop();
    const entry = table.get(current);
    if (!entry.cmdline.includes('__supervise')) tree.push(entry);
    for (const [child, info] of table) if (info.ppid === current) pending.push(child);
  }
  return tree;
}

/** Proportional set size: each shared page divided among the processes that map it. */
function pssKb(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)/m)?.[1] ?? 0);
  } catch {
    return 0; // The process ended while we looked.
  }
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
      // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), counted after the command name, which may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpuTicks = Number(fields[11]) + Number(fields[12]);
      table.set(Number(entry), { pid: Number(entry), ppid, rssKb, cmdline, cpuTicks });
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}
