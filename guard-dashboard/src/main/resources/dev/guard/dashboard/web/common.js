'use strict';
// Shared by both pages: JSON requests (rule changes carry the X-Guard-Dashboard header the server
// requires), element building without innerHTML, and number formatting.
const guard = {
  async get(path) {
    return (await guard.fetched(path)).json();
  },
  async fetched(path) {
    const response = await fetch(path, { credentials: 'same-origin' });
    if (response.status === 401) {
      location.href = 'login';
      throw new Error('not signed in');
    }
    if (!response.ok) throw new Error(path + ': HTTP ' + response.status);
    return response;
  },
  async send(method, path, body, etag) {
    const headers = { 'X-Guard-Dashboard': '1', 'Content-Type': 'application/json' };
    if (etag) headers['If-Match'] = etag;
    const response = await fetch(path, { method, credentials: 'same-origin', body, headers });
    let data = null;
    try { data = await response.json(); } catch (e) { /* no body */ }
    return { status: response.status, data };
  },
  el(tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === 'text') element.textContent = value; else element.setAttribute(key, value);
    }
    for (const child of children) element.append(child);
    return element;
  },
  fill(tbody, rows) {
    tbody.replaceChildren(...rows);
  },
  num(value, digits) {
    return Number(value).toLocaleString('en', { maximumFractionDigits: digits === undefined ? 1 : digits });
  },
};

// Signing out ends the session on the server (the request carries the dashboard's header like
// every change) and clears its cookie; the login page follows.
document.getElementById('logout').addEventListener('click', async () => {
  await guard.send('POST', 'logout');
  location.href = 'login';
});
