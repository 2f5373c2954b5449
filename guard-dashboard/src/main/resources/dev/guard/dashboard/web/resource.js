'use strict';
// One resource: live charts (hand-drawn SVG), refusals, rules with their state, rule history with
// roll-back, and the rule editor. Everything but the editor refreshes every second.
const resource = new URLSearchParams(location.search).get('name') || '';
const query = 'name=' + encodeURIComponent(resource);
const KINDS = ['flow', 'perValue', 'circuitBreakers', 'origins', 'adaptiveConcurrency'];
const TEMPLATES = {
  flow: { qps: 10 }, perValue: { argumentIndex: 0, threshold: 10 },
  circuitBreakers: { errorRatio: 0.5, openFor: 'PT10S' }, origins: { denyOrigins: ['bot'] },
  adaptiveConcurrency: { maxLimit: 200 },
};
document.getElementById('name').textContent = resource;
document.title = resource + ' · guard dashboard';

function line(svg, values, max, height, cls) {
  const step = values.length > 1 ? 600 / (values.length - 1) : 0;
  const points = values.map((v, i) => (i * step).toFixed(1) + ',' + (height - 4 - (v / max) * (height - 8)).toFixed(1));
  const polyline = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
  polyline.setAttribute('class', cls);
  polyline.setAttribute('points', points.join(' '));
  svg.append(polyline);
}

function gridLine(svg, x1, y1, x2, y2) {
  const grid = document.createElementNS('http://www.w3.org/2000/svg', 'line');
  grid.setAttribute('class', 'grid');
  Object.entries({ x1, y1, x2, y2 }).forEach(([k, v]) => grid.setAttribute(k, v.toFixed(1)));
  svg.append(grid);
}

// A grid line every minute back from the right edge (the last closed second) and one at half the top.
function chart(id, series, height) {
  const svg = document.getElementById(id);
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const points = Math.max(...series.map((s) => s.values.length));
  svg.replaceChildren();
  if (points > 1) {
    for (let back = 60; back < points; back += 60) {
      const x = ((points - 1 - back) * 600) / (points - 1);
      gridLine(svg, x, 0, x, height);
    }
  }
  gridLine(svg, 0, height / 2, 600, height / 2);
  series.forEach((s) => line(svg, s.values, max, height, s.cls));
  return max;
}

async function refreshCharts() {
  const data = await guard.get('api/resource/metrics?' + query);
  const pass = data.points.map((p) => p.pass);
  const refused = data.points.map((p) => p.refused);
  const max = chart('calls', [{ values: pass, cls: 'pass' }, { values: refused, cls: 'refused' }], 160);
  const calls = document.getElementById('calls');
  calls.dataset.passTotal = pass.reduce((a, b) => a + b, 0);
  calls.dataset.refusedTotal = refused.reduce((a, b) => a + b, 0);
  calls.dataset.points = data.points.length;
  document.getElementById('callsScale').textContent = 'top = ' + guard.num(max) + ' calls/s · a line per minute, now at the right';
  const rtMax = chart('rt', [{ values: data.points.map((p) => p.averageRtMs), cls: 'rt' }], 100);
  document.getElementById('rtScale').textContent = 'top = ' + guard.num(rtMax) + ' ms';
  const running = [{ values: data.points.map((p) => p.concurrency), cls: 'running' }];
  const limited = data.points.some((p) => p.adaptiveLimit !== undefined);
  if (limited) {
    running.push({ values: data.points.map((p) => p.adaptiveLimit ?? 0), cls: 'limit' });
  }
  const runMax = chart('running', running, 100);
  document.getElementById('runningScale').textContent = 'top = ' + guard.num(runMax) + ' calls'
    + (limited ? ' · the adaptive limit dashed' : '');
  const live = await guard.get('api/resource?' + query);
  document.getElementById('live').textContent = 'now: ' + guard.num(live.passQps) + ' passed/s · '
    + guard.num(live.refusedQps) + ' refused/s · ' + guard.num(live.averageRtMs) + ' ms · ' + live.concurrency + ' running';
}

function countRows(counts) {
  return Object.entries(counts).map(([key, count]) =>
    guard.el('tr', { 'data-key': key }, guard.el('td', { text: key }), guard.el('td', { class: 'num', text: count })));
}

async function refreshRefusals() {
  const data = await guard.get('api/resource/refusals?' + query);
  guard.fill(document.querySelector('#byKind tbody'), countRows(data.byKind));
  const origins = countRows(data.byOrigin);
  guard.fill(document.querySelector('#byOrigin tbody'), origins.length ? origins
    : [guard.el('tr', {}, guard.el('td', { class: 'muted', colspan: 2, text: 'no origin refused' }))]);
}

function describeCluster(cluster) {
  if (!cluster) return '';
  const who = cluster.service ? (cluster.instances === null ? 'token service unreachable'
    : cluster.instances + ' instance' + (cluster.instances === 1 ? '' : 's') + ' sharing it') : 'no token service: decided locally';
  return 'cluster ' + cluster.threshold.toLowerCase().replace('_', '-') + ' "' + cluster.flowId + '" · ' + who;
}

function describeState(state) {
  if (!state) return '';
  if (state.type === 'warmUp') {
    return (state.cold ? 'cold: ' : 'warm: ') + guard.num(state.allowedQps) + '/s allowed (tokens '
      + state.storedTokens + ', warm below ' + state.warningTokens + ', max ' + state.maxTokens + ')';
  }
  if (state.type === 'breaker') {
    return state.state + (state.probeInMs > 0 ? ' · probe in ' + guard.num(state.probeInMs / 1000) + ' s' : '');
  }
  if (state.type === 'adaptiveConcurrency') {
    return 'limit ' + state.limit + (state.remeasuring ? ' (re-measuring the baseline)' : '') + ' · '
      + state.inFlight + ' in flight · window ' + guard.num(state.lastRtMs) + ' ms against best '
      + guard.num(state.baselineRtMs) + ' ms';
  }
  if (state.type === 'hotValues') {
    return state.valuesTracked + ' values tracked' + (state.limitedValues.length
      ? ' · limiting: ' + state.limitedValues.join(', ') : ' · none limited');
  }
  return '';
}

async function refreshRules() {
  const data = await guard.get('api/resource/rules?' + query);
  guard.fill(document.querySelector('#rules tbody'), data.rules.map((r) => guard.el('tr', {},
    guard.el('td', { text: r.kind + (r.default ? ' (default)' : '') }),
    guard.el('td', { class: 'rule', text: r.rule ? JSON.stringify(r.rule) : r.text }),
    guard.el('td', { class: r.state ? 'state-' + (r.state.state || '') + (r.state.cold ? ' cold' : '') : '', text: [describeState(r.state), describeCluster(r.cluster)].filter(Boolean).join(' · ') }))));
}

async function refreshHistory() {
  const revisions = await guard.get('api/history');
  guard.fill(document.querySelector('#history tbody'), revisions.map((r, i) => {
    const cell = guard.el('td');
    if (i > 0) {
      const button = guard.el('button', { type: 'button', class: 'rollback', 'data-revision': r.number, text: 'roll back to #' + r.number });
      button.addEventListener('click', () => rollBack(r.number));
      cell.append(button);
    }
    return guard.el('tr', {}, guard.el('td', { text: '#' + r.number }), guard.el('td', { text: r.appliedAt }),
      guard.el('td', { text: r.source }), guard.el('td', { class: 'rule', text: r.diff }), cell);
  }));
}

async function rollBack(number) {
  const result = await guard.send('POST', 'api/history/rollback?revision=' + number);
  status(result.status === 200 ? 'rolled back to #' + number : 'roll-back refused: ' + JSON.stringify(result.data), result.status === 200);
  await loadEditor();
}

// ---- the editor: one row per rule of this resource, one input per field ----
let documentInForce = { version: 1 };
let documentEtag = null; // the revision the form was read at: a save made after another change is refused

function field(key, value) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return guard.el('label', { class: 'field', 'data-field': key }, key + ' ',
    guard.el('input', { name: key, value: text }), guard.el('span', { class: 'error' }));
}

function ruleRow(kind, rule) {
  const fields = guard.el('div', { class: 'fields' }, ...Object.entries(rule).map(([k, v]) => field(k, v)));
  const remove = guard.el('button', { type: 'button', text: 'remove' });
  const newName = guard.el('input', { class: 'newField', placeholder: 'new field' });
  const addField = guard.el('button', { type: 'button', text: '+ field' });
  const row = guard.el('div', { class: 'ruleRow', 'data-kind': kind }, guard.el('strong', { text: kind + ' ' }),
    remove, fields, newName, addField, guard.el('span', { class: 'error rowError' }));
  remove.addEventListener('click', () => row.remove());
  addField.addEventListener('click', () => { if (newName.value) fields.append(field(newName.value, '')); newName.value = ''; });
  return row;
}

function readValue(text) {
  try { return JSON.parse(text); } catch (e) { return text; }
}

async function loadEditor() {
  const response = await guard.fetched('api/rules');
  documentEtag = response.headers.get('ETag');
  documentInForce = await response.json();
  const rows = [];
  for (const kind of KINDS) {
    for (const rule of documentInForce[kind] || []) {
      if (rule.resource === resource) rows.push(ruleRow(kind, rule));
    }
  }
  document.getElementById('rows').replaceChildren(...rows);
}

function status(text, ok) {
  const span = document.getElementById('saveStatus');
  span.textContent = text;
  span.className = ok ? 'ok' : 'error';
}

async function save(event) {
  event.preventDefault();
  const next = JSON.parse(JSON.stringify(documentInForce));
  const placed = [];
  for (const kind of KINDS) next[kind] = (next[kind] || []).filter((rule) => rule.resource !== resource);
  for (const row of document.querySelectorAll('#rows .ruleRow')) {
    const rule = {};
    row.querySelectorAll('.field').forEach((f) => { rule[f.dataset.field] = readValue(f.querySelector('input').value); });
    const kind = row.dataset.kind;
    placed.push({ row, path: 'rules.' + kind + '[' + next[kind].length + ']' });
    next[kind].push(rule);
    row.querySelectorAll('.error').forEach((e) => { e.textContent = ''; });
  }
  const result = await guard.send('PUT', 'api/rules', JSON.stringify(next), documentEtag);
  if (result.status === 200) {
    status('saved: revision #' + result.data.revision, true);
    await loadEditor();
    return;
  }
  if (result.status !== 422) {
    status('not saved: ' + (result.data && result.data.error ? result.data.error : JSON.stringify(result.data)), false);
    return;
  }
  const unplaced = [];
  for (const error of result.data) {
    const target = placed.find((p) => error.path === p.path || error.path.startsWith(p.path + '.'));
    if (!target) { unplaced.push(error.path + ': ' + error.message); continue; }
    const name = error.path.slice(target.path.length + 1).split(/[.[]/)[0];
    const slot = name && target.row.querySelector('.field[data-field="' + name + '"] .error');
    (slot || target.row.querySelector('.rowError')).textContent += (slot ? '' : error.path + ': ') + error.message + ' ';
  }
  status('not saved: fix the fields marked in red' + (unplaced.length ? ' · ' + unplaced.join('; ') : ''), false);
}

document.getElementById('addRule').addEventListener('click', () => {
  const kind = document.getElementById('newKind').value;
  document.getElementById('rows').append(ruleRow(kind, Object.assign({ resource }, TEMPLATES[kind])));
});
document.getElementById('editor').addEventListener('submit', save);

async function refreshAll() {
  try {
    await Promise.all([refreshCharts(), refreshRefusals(), refreshRules(), refreshHistory()]);
  } catch (e) {
    document.getElementById('live').textContent = String(e.message);
  }
}
loadEditor();
refreshAll();
setInterval(refreshAll, 1000);
