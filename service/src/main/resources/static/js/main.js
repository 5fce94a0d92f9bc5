// Wires the console's views to the address bar (#documents, #ask, ...) and the API key field.

import { apiKey, ApiError } from './api.js';
import * as documents from './documents.js';
import * as ask from './ask.js';
import * as graph from './graph.js';
import * as evals from './evals.js';
import { SourceView } from './source.js';
import { h, clear } from './dom.js';

const VIEWS = ['documents', 'ask', 'source', 'graph', 'evaluations'];

const keyForm = document.getElementById('key-form');
const keyBanner = document.getElementById('key-banner');
keyForm.elements.key.value = apiKey.get();
keyForm.addEventListener('submit', (event) => {
  event.preventDefault();
  apiKey.set(keyForm.elements.key.value.trim());
  keyBanner.hidden = true;
  start();
});

// A 401 anywhere means the service wants a key (or refused this one): say so once, at the top.
window.addEventListener('unhandledrejection', (event) => {
  if (event.reason instanceof ApiError && event.reason.keyNeeded) {
    keyNeeded(event.reason);
  }
});
document.addEventListener('lk:key-needed', (event) => keyNeeded(event.detail));

function keyNeeded(error) {
  keyBanner.textContent = `Key needed: ${error.problem.detail || 'this service needs an API key'}. Enter it in the API key field above.`;
  keyBanner.hidden = false;
}

const sourceView = new SourceView(document.getElementById('source-main'), 'Source');
const docs = documents.setup(navigate);
const asking = ask.setup();
const graphs = graph.setup();
const evaluations = evals.setup();

document.getElementById('source-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const id = event.target.elements.document.value;
  if (id) {
    sourceView.show(id);
  }
});

document.addEventListener('lk:documents', (event) => {
  // Every document in both pickers: a graph can exist without its stage having run here (built
  // elsewhere, or before a reindex), and the service says why when there is none.
  for (const selectId of ['source-document', 'graph-document']) {
    const select = document.getElementById(selectId);
    const value = select.value;
    clear(select, event.detail.map((d) => h('option', { value: d.id, selected: d.id === value },
      `${d.title || d.id.slice(0, 8)}${selectId === 'graph-document' && documents.hasGraph(d) ? ' (graph built)' : ''}`)));
  }
});

/** Shows a view; args open something in it (a document's source or graph). */
function navigate(view, args = {}) {
  if (location.hash !== `#${view}`) {
    history.pushState(null, '', `#${view}`);
  }
  show(view);
  if (view !== 'evaluations') {
    docs.refresh(); // pickers list documents added since (by other clients too)
  }
  if (view === 'source' && args.documentId) {
    document.getElementById('source-document').value = args.documentId;
    sourceView.show(args.documentId);
  }
  if (view === 'graph' && args.documentId) {
    graphs.show(args.documentId);
  }
}

function show(view) {
  const name = VIEWS.includes(view) ? view : 'documents';
  for (const v of VIEWS) {
    document.getElementById(`view-${v}`).hidden = v !== name;
  }
  document.querySelectorAll('.tabs a').forEach((a) => {
    if (a.dataset.view === name) {
      a.setAttribute('aria-current', 'page');
    } else {
      a.removeAttribute('aria-current');
    }
  });
  document.title = `${name[0].toUpperCase()}${name.slice(1)} · Lorekeeper console`;
}

window.addEventListener('popstate', () => show(location.hash.slice(1)));
document.querySelectorAll('.tabs a').forEach((a) => a.addEventListener('click', (event) => {
  event.preventDefault();
  navigate(a.dataset.view);
  document.getElementById('main').focus({ preventScroll: true });
}));

async function start() {
  await docs.refresh();
  const list = await asking.loadStrategies();
  evaluations.strategiesLoaded(list);
}

show(location.hash.slice(1));
start();
