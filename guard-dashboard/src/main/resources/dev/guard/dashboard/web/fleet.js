'use strict';
// The fleet: every instance of the namespace with its heartbeat, and each resource's figures
// summed over the fleet and per instance, every second. Everything is put in as text.
function instanceLabel(instances, id) {
  const found = instances.find((i) => i.id === id);
  return found ? found.name + ' (' + id + ')' : id;
}

function isoTime(ms) {
  return ms > 0 ? new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—';
}

function figureCells(f) {
  return [
    guard.el('td', { class: 'num pass', text: guard.num(f.pass, 0) }),
    guard.el('td', { class: 'num refused', text: guard.num(f.refused, 0) }),
    guard.el('td', { class: 'num', text: guard.num(f.averageRtMs) }),
  ];
}

async function refreshFleet() {
  try {
    const data = await guard.get('api/fleet');
    document.getElementById('fleetName').textContent = data.fleet;
    document.getElementById('status').textContent = data.problem ? data.problem
      : (data.skipped ? data.skipped + ' malformed entries from other instances were left out' : '');
    const alive = data.instances.filter((i) => i.alive);
    const differing = alive.filter((i) => !i.agrees);
    const agreement = document.getElementById('agreement');
    agreement.textContent = data.rulesAgree
      ? 'All ' + alive.length + ' alive instances apply the same rules.'
      : differing.length + ' of ' + alive.length + ' alive instances apply other rules than the rest (marked "differs").';
    agreement.className = data.rulesAgree ? 'ok' : 'error';
    const eviction = document.getElementById('eviction');
    const risk = data.eviction.risk;
    eviction.textContent = risk === 'NONE' ? 'Redis does not evict guard\'s keys.' : data.eviction.detail;
    eviction.className = risk === 'MAY_EVICT' ? 'error' : (risk === 'NONE' ? 'ok' : 'muted');
    eviction.dataset.risk = risk;
    const rows = data.instances.map((i) => guard.el('tr', {
      'data-id': i.id, 'data-alive': String(i.alive), 'data-agrees': String(i.agrees),
      class: i.self ? 'self' : '' },
    guard.el('td', { text: i.name + (i.self ? ' (this one)' : '') + ' · ' + i.id }),
    guard.el('td', { text: i.host }),
    guard.el('td', { class: 'num', text: String(i.pid) }),
    guard.el('td', { text: i.guardVersion }),
    guard.el('td', { class: i.alive ? 'ok' : 'error', text: i.alive ? 'alive' : 'late' }),
    guard.el('td', { class: 'num', text: guard.num((data.timeMs - i.lastSeenMs) / 1000) + ' s ago' }),
    guard.el('td', { class: 'rule' + (i.agrees ? '' : ' error'), text: i.rules + (i.agrees ? '' : ' differs') }),
    guard.el('td', { class: 'num', text: i.ruleRevision ? '#' + i.ruleRevision : '—' }),
    guard.el('td', { class: 'applied', text: isoTime(i.rulesAppliedAtMs) }),
    guard.el('td', { text: i.ruleSource || '—' })));
    guard.fill(document.querySelector('#instances tbody'), rows);

    // a second every instance has published: closed more than a heartbeat ago
    const settled = Math.floor(data.timeMs / 1000) - 2;
    const resourceRows = [];
    for (const r of data.resources) {
      const last = r.seconds.find((s) => s.t === settled) || { pass: 0, refused: 0 };
      resourceRows.push(guard.el('tr', { class: 'fleetRow', 'data-resource': r.name, 'data-instance': '',
        'data-pass': String(r.total.pass), 'data-refused': String(r.total.refused) },
      guard.el('td', {}, guard.el('strong', { text: r.name })), ...figureCells(r.total),
      guard.el('td', { class: 'num pass', text: guard.num(last.pass, 0) }),
      guard.el('td', { class: 'num refused', text: guard.num(last.refused, 0) })));
      for (const [id, f] of Object.entries(r.byInstance)) {
        resourceRows.push(guard.el('tr', { class: 'instanceRow', 'data-resource': r.name, 'data-instance': id,
          'data-pass': String(f.pass), 'data-refused': String(f.refused) },
        guard.el('td', { class: 'muted', text: '\u2003' + instanceLabel(data.instances, id) }), ...figureCells(f),
        guard.el('td', {}), guard.el('td', {})));
      }
    }
    guard.fill(document.querySelector('#fleetResources tbody'), resourceRows);
    document.getElementById('window').textContent = '(the last seconds each instance keeps, summed)';
  } catch (e) {
    document.getElementById('status').textContent = String(e.message);
  }
}

refreshFleet();
setInterval(refreshFleet, 1000);
