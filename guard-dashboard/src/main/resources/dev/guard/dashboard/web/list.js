'use strict';
// The resource list: live figures of every resource, sorted by the chosen column, every second.
let sortKey = 'passed';

async function refreshList() {
  try {
    const data = await guard.get('api/resources?sort=' + sortKey);
    const rows = data.resources.map((r) => guard.el('tr', { 'data-name': r.name },
      guard.el('td', {}, guard.el('a', { href: 'resource.html?name=' + encodeURIComponent(r.name), text: r.name })),
      guard.el('td', { class: 'num pass', text: guard.num(r.passQps) }),
      guard.el('td', { class: 'num refused', text: guard.num(r.refusedQps) }),
      guard.el('td', { class: 'num', text: guard.num(r.averageRtMs) }),
      guard.el('td', { class: 'num', text: r.concurrency }),
      guard.el('td', { class: 'num', text: r.minutePass }),
      guard.el('td', { class: 'num', text: r.minuteRefused })));
    guard.fill(document.querySelector('#resources tbody'), rows);
    const overview = await guard.get('api/overview');
    document.getElementById('overview').textContent = overview.resources + ' resources · rules from '
      + overview.ruleSource + (overview.revision ? ' · revision #' + overview.revision : '');
    document.getElementById('fleetLink').hidden = !overview.fleet;
    document.getElementById('status').textContent = rows.length ? '' : 'No resource has been called yet.';
  } catch (e) {
    document.getElementById('status').textContent = String(e.message);
  }
}

for (const button of document.querySelectorAll('button.sort')) {
  button.addEventListener('click', () => {
    sortKey = button.dataset.sort;
    document.querySelectorAll('button.sort').forEach((b) => b.classList.toggle('active', b === button));
    refreshList();
  });
}
document.querySelector('button.sort[data-sort="passed"]').classList.add('active');
refreshList();
setInterval(refreshList, 1000);
