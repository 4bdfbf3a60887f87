// The capacity model as one command: bench/capacity/inputs.json and the benchmark
// results it names go in; the production overlay's sizes
// (deploy/overlays/production/sizing.generated.yaml) and the tables of
// docs/capacity.md come out. Nobody edits either output by hand, so the model and
// the manifests cannot drift apart.
//   pnpm capacity               writes both
//   pnpm capacity -- --check    exits 1 when either differs from what the inputs give
//   pnpm capacity -- --json     prints the model (the deploy tests read it)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MODEL as SESSION_MODEL } from '../sessions/lib/user.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INPUTS_PATH = 'bench/capacity/inputs.json';
const SIZING_PATH = 'deploy/overlays/production/sizing.generated.yaml';
const DOC_PATH = 'docs/capacity.md';

const readJson = (path) => JSON.parse(readFileSync(`${ROOT}${path}`, 'utf8'));

/** The JSON results of a benchmark's folder (a `results/*.json` glob: the only shape the inputs use). */
function resultsOf(glob) {
  const match = /^(.*)\/\*\.json$/.exec(glob);
  if (!match) throw new Error(`${INPUTS_PATH}: results must be a folder's *.json, got ${glob}`);
  const files = readdirSync(`${ROOT}${match[1]}`)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => `${match[1]}/${name}`);
  if (files.length === 0) throw new Error(`${glob}: no results; run the benchmark first`);
  return files.map((path) => ({ path, result: readJson(path) }));
}

/** Where the session model of inputs.json says something else than the code that drives the benchmark. */
function sessionModelDisagreements(session) {
  const perSession = (endpoint) => session.requests.find((row) => row.endpoints.includes(endpoint))?.perSession;
  const lengthSeconds = (SESSION_MODEL.readSeconds[0] + SESSION_MODEL.readSeconds[1]) / 2;
  const saves = lengthSeconds / SESSION_MODEL.saveEverySeconds;
  const expected = {
    lengthSeconds: [session.lengthSeconds, lengthSeconds],
    'PUT /reader/{id}/last-location': [perSession('PUT /reader/{id}/last-location'), saves],
    'POST /reader/notes': [perSession('POST /reader/notes'), saves * SESSION_MODEL.noteChance],
    'GET /search/store': [perSession('GET /search/store'), SESSION_MODEL.storeSearchChance],
    'GET /app/purchase/{id}': [perSession('GET /app/purchase/{id}'), SESSION_MODEL.purchaseChance],
  };
  return Object.entries(expected)
    .filter(([, [given, model]]) => Math.abs(given - model) > 1e-9)
    .map(([what, [given, model]]) => `${what}: ${given} in ${INPUTS_PATH}, ${model} in ${session.model}`);
}

const ceilTo = (value, step) => Math.ceil(value / step) * step;

export function computeModel(inputs) {
  const disagreements = sessionModelDisagreements(inputs.session);
  if (disagreements.length > 0) throw new Error(`the session model disagrees with the benchmark's:\n  ${disagreements.join('\n  ')}`);

  const sessionsRuns = resultsOf(inputs.measured.cpuPerSession.results);
  const sessionsRun = sessionsRuns.reduce((latest, run) => (run.result.machine.date > latest.result.machine.date ? run : latest));
  const apiRuns = resultsOf(inputs.measured.rss.results);
  const completed = sessionsRun.result.sessions.completed;
  const cpuMsPerSession = (name) => {
    const seconds = sessionsRun.result.cpuSeconds[name];
    if (typeof seconds !== 'number') throw new Error(`${sessionsRun.path}: no cpuSeconds.${name}`);
    return (seconds * 1000) / completed;
  };
  const rssMi = (name) => {
    const values = apiRuns.map((run) => run.result.rss?.[name]).filter((value) => typeof value === 'number');
    if (values.length === 0) throw new Error(`${inputs.measured.rss.results}: no rss.${name}`);
    return Math.max(...values);
  };

  const C = inputs.peak.concurrentReaders.value;
  const L = inputs.session.lengthSeconds;
  const u = inputs.utilisation.value;
  const sessionsPerSecond = C / L;
  const { headroom } = inputs;

  const stall = inputs.catalogSnapshotStall;
  const issues = inputs.peak.issues.value;
  const deadlineSeconds = Math.min(...Object.values(stall.callerDeadlines));
  const issuesPerReplicaLimit = (deadlineSeconds / stall.captureSecondsPer100kIssues) * 100_000;
  const groups = Math.ceil(issues / issuesPerReplicaLimit);
  const issuesPerGroup = issues / groups;
  const viewRssMi = (count) => stall.rssBaseMi + (stall.rssKiBPerIssue * count) / 1024;
  const catalog = {
    deadlineSeconds,
    issuesPerReplicaLimit,
    groups,
    issuesPerGroup,
    captureSeconds: (stall.captureSecondsPer100kIssues * issuesPerGroup) / 100_000,
    viewRssMi: viewRssMi(issuesPerGroup),
    viewRssAllIssuesMi: viewRssMi(issues),
    pods: groups * stall.replicasPerGroup,
  };

  const services = Object.entries(inputs.services).map(([name, service]) => {
    const sMs = cpuMsPerSession(name);
    const busyCores = (sessionsPerSecond * sMs) / 1000;
    const coresAtU = busyCores / u;
    const podsByCpu = Math.max(service.minReplicas, Math.ceil(coresAtU / headroom.cpuPerPod));
    const podsByStall = name === 'catalog' ? catalog.pods : 0;
    const pods = Math.max(podsByCpu, podsByStall);
    const rss = rssMi(name);
    const baseMi = service.viewFromSnapshot ? catalog.viewRssMi : rss;
    const podMi = baseMi + service.cachesMi;
    const minReplicas = Math.max(service.minReplicas, podsByStall);
    return {
      name,
      cpuMsPerSession: sMs,
      busyCores,
      coresAtU,
      podsByCpu,
      podsByStall,
      pods,
      rssMi: rss,
      podMi,
      memoryRequestMi: ceilTo(podMi, headroom.memoryRequestStepMi),
      memoryLimitMi: Math.max(service.memoryLimitFloorMi ?? 0, ceilTo(podMi * headroom.memoryLimitOverPod, headroom.memoryStepMi)),
      cpu: headroom.cpuPerPod,
      minReplicas,
      maxReplicas: Math.max(minReplicas, Math.ceil(pods * headroom.maxReplicasOverPeak)),
    };
  });
  const localStores = Object.fromEntries(Object.keys(inputs.localStores).map((name) => [name, cpuMsPerSession(name)]));
  return {
    sessionsRun: {
      path: sessionsRun.path,
      date: sessionsRun.result.machine.date,
      loadAverage: sessionsRun.result.machine.loadAverage,
      dataset: sessionsRun.result.dataset,
      users: sessionsRun.result.users,
      speed: sessionsRun.result.options.speed,
      seconds: sessionsRun.result.seconds,
      completed,
      failed: sessionsRun.result.rows.reduce((sum, row) => sum + row.failed, 0),
      sessionsPerCoreHour: sessionsRun.result.sessionsPerCoreHour,
    },
    apiRuns: apiRuns.map((run) => ({ path: run.path, date: run.result.machine.date })),
    sessionsPerSecond,
    requestsPerSession: inputs.session.requests.reduce((sum, row) => sum + row.perSession * row.endpoints.length, 0),
    utilisation: u,
    hpaTargetPercent: Math.round(u * 100),
    services,
    localStores,
    catalog,
    totals: {
      cpuMsPerSession: services.reduce((sum, s) => sum + s.cpuMsPerSession, 0),
      localStoresMsPerSession: Object.values(localStores).reduce((sum, ms) => sum + ms, 0),
      busyCores: services.reduce((sum, s) => sum + s.busyCores, 0),
      coresAtU: services.reduce((sum, s) => sum + s.coresAtU, 0),
      pods: services.reduce((sum, s) => sum + s.pods, 0),
      cores: services.reduce((sum, s) => sum + s.pods * s.cpu, 0),
      maxCores: services.reduce((sum, s) => sum + s.maxReplicas * s.cpu, 0),
      memoryGb: services.reduce((sum, s) => sum + s.pods * s.podMi, 0) / 1024,
    },
  };
}

// ---- The production overlay's sizes ----

const cpuQuantity = (cores) => (Number.isInteger(cores) ? `"${cores}"` : `${Math.round(cores * 1000)}m`);

export function renderSizing(inputs, model) {
  const { scaleUp, scaleDown } = inputs.autoscaling;
  const header = [
    '# Generated by `pnpm capacity` (bench/capacity/generate.mjs) from bench/capacity/inputs.json',
    '# and the benchmark results it names: never edit by hand. docs/capacity.md (tables B and C)',
    '# shows where each figure comes from. CPU requests equal limits, so the HPA target is a share',
    '# of what a pod may really use: the target is the model\'s u, and the pods the autoscaler keeps',
    '# at the peak are the pods the model counts. spec.replicas is left to the HPA (minReplicas).',
  ];
  const documents = model.services.map((service) =>
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      `metadata: { name: ${service.name} }`,
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      `        - name: ${service.name}`,
      '          resources:',
      `            requests: { cpu: ${cpuQuantity(service.cpu)}, memory: ${service.memoryRequestMi}Mi }`,
      `            limits: { cpu: ${cpuQuantity(service.cpu)}, memory: ${service.memoryLimitMi}Mi }`,
      '---',
      'apiVersion: autoscaling/v2',
      'kind: HorizontalPodAutoscaler',
      `metadata: { name: ${service.name} }`,
      'spec:',
      `  minReplicas: ${service.minReplicas}`,
      `  maxReplicas: ${service.maxReplicas}`,
      '  metrics:',
      '    - type: Resource',
      `      resource: { name: cpu, target: { type: Utilization, averageUtilization: ${model.hpaTargetPercent} } }`,
      '  behavior:',
      '    scaleUp:',
      `      stabilizationWindowSeconds: ${scaleUp.stabilizationWindowSeconds}`,
      '      selectPolicy: Max',
      '      policies:',
      `        - { type: Percent, value: ${scaleUp.percentPerMinute}, periodSeconds: 60 }`,
      `        - { type: Pods, value: ${scaleUp.podsPerMinute}, periodSeconds: 60 }`,
      '    scaleDown:',
      `      stabilizationWindowSeconds: ${scaleDown.stabilizationWindowSeconds}`,
      '      selectPolicy: Min',
      '      policies:',
      `        - { type: Percent, value: ${scaleDown.percentPerMinute}, periodSeconds: 60 }`,
    ].join('\n'),
  );
  return `${header.join('\n')}\n${documents.join('\n---\n')}\n`;
}

// ---- The tables of docs/capacity.md ----

const int = (value) => Math.round(value).toLocaleString('en-US');
const fixed = (value, digits = 1) => value.toFixed(digits);
/** 2, 0.33, 0.2, 0.17, 0.04, 0.008: two significant digits below 1, as people write rates. */
const rate = (value) => (value >= 1 ? String(Number(value.toFixed(1))) : String(Number(value.toPrecision(1 + (value < 0.01 ? 0 : 1)))));
const utc = (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const percent = (share) => `${Math.round(share * 100)} %`;
/** A Markdown table; a heading that starts with ':' is of a right-aligned (numeric) column. */
const table = (head, rows) => {
  const names = head.map((cell) => cell.replace(/^:/, ''));
  const rules = head.map((cell) => (cell.startsWith(':') ? '---:' : '---'));
  return [names, rules, ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
};

function inputsTable(inputs, model) {
  const { peak, session, measured, utilisation } = inputs;
  const run = model.sessionsRun;
  const stall = inputs.catalogSnapshotStall;
  const services = model.services.map((s) => `${s.name} ${fixed(s.cpuMsPerSession)}`).join(', ');
  const stores = Object.entries(model.localStores)
    .sort(([, a], [, b]) => b - a)
    .map(([name, ms]) => `${inputs.localStores[name]} ${fixed(ms)}`)
    .join(', ');
  const apiFiles = model.apiRuns.map((r) => `\`${r.path}\` (${utc(r.date)})`).join(', ');
  const lost = utilisation.zones / (utilisation.zones - 1);
  return table(
    ['#', 'Input', 'Value', 'Source'],
    [
      ['U', 'registered users', int(peak.registeredUsers.value), peak.registeredUsers.source],
      ['C', 'readers in a session at the peak', int(peak.concurrentReaders.value), peak.concurrentReaders.source],
      ['T', 'tenants (stores)', int(peak.tenants.value), peak.tenants.source],
      ['I', 'issues over all tenants', `${int(peak.issues.value)} (${int(peak.issues.value / peak.tenants.value)} per tenant on average)`, peak.issues.source],
      ['M', 'monthly active users', `${int(peak.registeredUsers.value * peak.monthlyActiveShare.value)} (${percent(peak.monthlyActiveShare.value)} of U)`, peak.monthlyActiveShare.source],
      ['L', 'a session: its length and requests', `${rate(session.lengthSeconds / 60)} minutes of reading on average, ${rate(model.requestsPerSession)} requests (table A)`, `the session model of [bench/sessions](../bench/sessions/README.md) (\`lib/user.mjs\`)`],
      [
        'S',
        'CPU per session, by service',
        `${services} ms; the local stores besides (${stores})`,
        `\`${run.path}\`: ${utc(run.date)}, ${run.dataset} data, ${int(run.users)} users at ${run.speed} x real time, ${int(run.completed)} sessions in ${Math.round(run.seconds)} s, ${int(run.failed)} failed requests, load average ${run.loadAverage} at the start${measured.sessionsRunNote ? `: **${measured.sessionsRunNote}**` : ''}`,
      ],
      ['E', 'CPU per answer, by endpoint and service', measured.cpuPerAnswer.text, measured.cpuPerAnswer.source],
      ['R', 'RSS per service right after the API load (the larger over the runs)', `${model.services.map((s) => `${s.name} ${int(s.rssMi)}`).join(', ')} MB`, apiFiles],
      ['H', 'catalog per 100,000 issues', `~${stall.heapMiPer100kIssues} MB of heap + ${stall.postingsMiPer100kIssues} MB of packed postings; RSS ~${stall.rssBaseMi} MB + ${stall.rssKiBPerIssue} KB per issue from a snapshot`, '[bench/catalog-start](../bench/catalog-start/README.md), docs/architecture.md ("What the view costs in memory")'],
      ['P', 'event loop held while catalog captures a snapshot', `${stall.captureSecondsPer100kIssues} s per 100,000 issues`, stall.captureSecondsSource],
      ['D', "deadlines of catalog's callers", Object.entries(stall.callerDeadlines).map(([caller, seconds]) => `${caller} ${seconds} s`).join(', '), stall.callerDeadlinesSource],
      ['u', 'CPU utilisation to size for, and the HPAs\' target', percent(utilisation.value), `with ${utilisation.zones} zones, losing one puts the others at ${percent(utilisation.value)} x ${utilisation.zones}/${utilisation.zones - 1} = ${percent(utilisation.value * lost)}`],
    ],
  );
}

function loadTable(inputs, model) {
  const minutes = inputs.session.lengthSeconds / 60;
  const rows = inputs.session.requests.map((row) => {
    const each = row.endpoints.length > 1 ? ' each' : '';
    const name = row.endpoints.map((endpoint) => `\`${endpoint}\``).join(', ') + (row.why ? ` (${row.why})` : '');
    return [name, `${rate(row.perSession)}${each}`, `${rate(row.perSession / minutes)}${each}`, `${int(row.perSession * model.sessionsPerSecond)}${each}`];
  });
  const total = model.requestsPerSession;
  rows.push(['**total**', `**${rate(total)}**`, `**${rate(total / minutes)}**`, `**${int(total * model.sessionsPerSecond)}**`]);
  const C = inputs.peak.concurrentReaders.value;
  return `C / L = ${int(C)} / ${inputs.session.lengthSeconds} s = **${int(model.sessionsPerSecond)} sessions a second**. What one session sends (bench/sessions):\n\n${table(['Endpoint', ':per session', ':per reader per minute', ':req/s at C'], rows)}`;
}

function podsTable(inputs, model) {
  const rows = model.services.map((s) => {
    let pods = `**${s.pods}**`;
    if (s.podsByStall > s.podsByCpu) pods = `${s.podsByCpu} by CPU, **${s.pods}** by the snapshot stall (D)`;
    else if (s.pods > Math.ceil(s.coresAtU)) pods = `**${s.pods}** (one per zone${inputs.services[s.name].note ? `; ${inputs.services[s.name].note}` : ''})`;
    return [s.name, `${fixed(s.cpuMsPerSession)} ms`, fixed(s.busyCores), fixed(s.coresAtU), pods, `${s.minReplicas}-${s.maxReplicas}`, `~${int(s.podMi)} MB`];
  });
  const t = model.totals;
  const maxPods = model.services.reduce((sum, s) => sum + s.maxReplicas, 0);
  rows.push(['**total**', `**${fixed(t.cpuMsPerSession)} ms**`, `**${fixed(t.busyCores)}**`, `**${fixed(t.coresAtU)}**`, `**${t.pods} pods, ${t.cores} cores at their limits**`, `up to ${maxPods} pods`, `~${fixed(t.memoryGb)} GB`]);
  const perCoreHour = 3_600_000 / t.cpuMsPerSession;
  const withStores = 3_600_000 / (t.cpuMsPerSession + t.localStoresMsPerSession);
  return [
    table(
      ['Service', ':CPU per session (S)', `:cores busy (${int(model.sessionsPerSecond)}/s x S)`, ':cores at u', `pods of ${inputs.headroom.cpuPerPod} core at the peak`, 'HPA min-max', 'memory per pod (C)'],
      rows,
    ),
    '',
    `Sessions per core: 3,600 s / ${fixed(t.cpuMsPerSession, 0)} ms = **~${int(Math.round(perCoreHour / 1000) * 1000)} sessions per busy core-hour** of the services`,
    `(~${int(Math.round(withStores / 1000) * 1000)} with the local stores; the run printed ${int(model.sessionsRun.sessionsPerCoreHour)}).`,
  ].join('\n');
}

function memoryTable(inputs, model) {
  const rows = model.services.map((s) => {
    const service = inputs.services[s.name];
    const base = service.viewFromSnapshot ? `its view at ${int(model.catalog.issuesPerGroup)} issues ~${int(model.catalog.viewRssMi)} MB (H, D)` : `${int(s.rssMi)} MB`;
    return [s.name, base, service.caches, `~${int(service.cachesMi)} MB`, `~${int(s.podMi)} MB`, `${s.memoryRequestMi}Mi`, `${s.memoryLimitMi}Mi${service.memoryLimitFloorWhy ? ` (at least: ${service.memoryLimitFloorWhy})` : ''}`];
  });
  const { headroom } = inputs;
  return [
    table(['Service', 'R (or the view)', 'caches at their bounds', ':their size', ':pod', ':request', 'limit'], rows),
    '',
    `A request is the pod rounded up to ${headroom.memoryRequestStepMi}Mi, a limit ${headroom.memoryLimitOverPod} x the pod rounded up to ${headroom.memoryStepMi}Mi.`,
  ].join('\n');
}

function catalogTable(inputs, model) {
  const c = model.catalog;
  const stall = inputs.catalogSnapshotStall;
  return table(
    ['Step', ':value'],
    [
      [`issues per replica before a capture (P) reaches the shortest caller deadline (D, ${c.deadlineSeconds} s)`, `~${int(Math.floor(c.issuesPerReplicaLimit / 1000) * 1000)}`],
      [`groups of tenants at I = ${int(inputs.peak.issues.value)}`, `**${c.groups}** of ~${int(c.issuesPerGroup)} issues`],
      ['a capture of one group', `${fixed(c.captureSeconds)} s`],
      ['a replica of a group in memory (H)', `~${int(c.viewRssMi)} MB of view (all ${int(inputs.peak.issues.value)} issues: ~${int(c.viewRssAllIssuesMi)} MB)`],
      [`pods: ${stall.replicasPerGroup} per group, one per zone`, `**${c.pods}**`],
    ],
  );
}

export function renderDoc(current, inputs, model) {
  const blocks = {
    inputs: inputsTable(inputs, model),
    load: loadTable(inputs, model),
    pods: podsTable(inputs, model),
    memory: memoryTable(inputs, model),
    catalog: catalogTable(inputs, model),
  };
  let doc = current;
  for (const [name, body] of Object.entries(blocks)) {
    const begin = `<!-- generated by pnpm capacity: begin ${name} -->`;
    const end = `<!-- generated by pnpm capacity: end ${name} -->`;
    const from = doc.indexOf(begin);
    const to = doc.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${DOC_PATH}: no "${begin}" ... "${end}" markers`);
    doc = `${doc.slice(0, from + begin.length)}\n${body}\n${doc.slice(to)}`;
  }
  return doc;
}

function main(args) {
  const inputs = readJson(INPUTS_PATH);
  const model = computeModel(inputs);
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(model, null, 2)}\n`);
    return 0;
  }
  const outputs = [
    { path: SIZING_PATH, text: renderSizing(inputs, model) },
    { path: DOC_PATH, text: renderDoc(readFileSync(`${ROOT}${DOC_PATH}`, 'utf8'), inputs, model) },
  ];
  if (args.includes('--check')) {
    const stale = outputs.filter(({ path, text }) => {
      try {
        return readFileSync(`${ROOT}${path}`, 'utf8') !== text;
      } catch {
        return true;
      }
    });
    for (const { path } of stale) console.error(`${path} is not what ${INPUTS_PATH} and the benchmark results give: run \`pnpm capacity\` and commit the result`);
    if (stale.length === 0) console.log(`capacity: ${SIZING_PATH} and ${DOC_PATH} agree with ${INPUTS_PATH} (${model.sessionsRun.path})`);
    return stale.length === 0 ? 0 : 1;
  }
  for (const { path, text } of outputs) writeFileSync(`${ROOT}${path}`, text);
  console.log(`capacity: wrote ${SIZING_PATH} and the tables of ${DOC_PATH} from ${model.sessionsRun.path}: ${model.totals.pods} pods at the peak`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`capacity: ${error.message}`);
    process.exitCode = 2;
  }
}
