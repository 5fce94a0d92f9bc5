// Documents: add them (file, pasted text, conversation JSON), list them with their ingestion
// progress per stage, delete them and rebuild a stage. While something is still being ingested
// the list polls the service (ingestion has no event stream).

import * as api from './api.js';
import { ApiError, describeError } from './api.js';
import { h, clear, announce, showError, clearErrors, formatNumber } from './dom.js';
import { forget } from './source.js';

const POLL_MS = 1000;
const PAGE = 50;
let items = [];
/** The last full view of each document: the list leaves out stages, so they are read one by one. */
const details = new Map();
let timer = null;

/** The documents last listed, newest first. */
export function current() {
  return items;
}

/** Other views redraw their document pickers on this event. */
function publish() {
  document.dispatchEvent(new CustomEvent('lk:documents', { detail: items }));
}

export function setup(navigate) {
  const table = document.querySelector('#documents-table tbody');
  const listError = document.getElementById('documents-error');
  document.getElementById('documents-refresh').addEventListener('click', () => refresh());

  submitting('upload-form', async (form) => {
    const file = form.elements.file.files[0];
    if (!file) {
      throw new ApiError(400, { detail: 'choose a file to upload', field: 'file' });
    }
    return api.documents.upload(file, { title: form.elements.title.value.trim(), profile: form.elements.profile.value });
  });
  submitting('paste-form', (form) => api.documents.createText({
    title: form.elements.title.value.trim(), text: form.elements.text.value, profile: form.elements.profile.value,
  }));
  submitting('conversation-form', async (form) => {
    const file = form.elements.sessionsFile.files[0];
    const raw = file ? await file.text() : form.elements.sessions.value;
    const { sessions, title } = parseConversation(raw);
    return api.documents.createConversation({ title: form.elements.title.value.trim() || title, sessions });
  });

  function submitting(formId, send) {
    const form = document.getElementById(formId);
    const error = form.querySelector('.error');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearErrors(form, error);
      const button = form.querySelector('button[type=submit]');
      button.disabled = true;
      try {
        const accepted = await send(form);
        form.reset();
        announce(accepted.created === false ? 'That content was already stored' : 'Document added; ingesting');
        await refresh(accepted.id);
      } catch (e) {
        showError(error, describeError(e), form, e.field);
      } finally {
        button.disabled = false;
      }
    });
  }

  async function refresh(focusId) {
    clearTimeout(timer);
    try {
      const page = await api.documents.list(0, PAGE);
      items = await withStages(page.items || []);
      listError.hidden = true;
      render(table, items, navigate, refresh);
      document.getElementById('documents-more').hidden = page.total <= items.length;
      document.getElementById('documents-more').textContent = `Showing the newest ${items.length} of ${page.total}.`;
      publish();
      if (focusId) {
        table.querySelector(`tr[data-id="${CSS.escape(focusId)}"]`)?.classList.add('fresh');
      }
    } catch (e) {
      showError(listError, describeError(e));
    }
    if (items.some((d) => !settled(d))) {
      timer = setTimeout(refresh, POLL_MS);
    }
  }

  return { refresh };
}

/**
 * The listed documents with their stages: read again only for a document not yet settled, or
 * whose row changed (updatedAt) since it was read.
 */
async function withStages(listed) {
  const stale = listed.filter((doc) => {
    const known = details.get(doc.id);
    return !known || !settled(known) || known.updatedAt !== doc.updatedAt || known.status !== doc.status;
  });
  for (let i = 0; i < stale.length; i += 6) {
    const batch = stale.slice(i, i + 6);
    const views = await Promise.all(batch.map((doc) => api.documents.get(doc.id).catch(() => null)));
    views.forEach((view, j) => details.set(batch[j].id, view || { ...batch[j], stages: [] }));
  }
  return listed.map((doc) => details.get(doc.id) || doc);
}

/** The document's concept graph is built (the graph stage ran; it is skipped without an LLM). */
export function hasGraph(doc) {
  return (doc.stages || []).some((s) => s.name === 'graph' && s.status === 'DONE');
}

/** Nothing left to run for this document: READY or FAILED, and no stage pending or running. */
export function settled(doc) {
  return (doc.status === 'READY' || doc.status === 'FAILED')
    && (doc.stages || []).every((s) => s.status !== 'PENDING' && s.status !== 'RUNNING');
}

/** Accepts a list of sessions, {"sessions": [...]} (optionally with a title), or a LoCoMo-like object. */
export function parseConversation(raw) {
  let value;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new ApiError(400, { detail: `the conversation is not valid JSON (${e.message})`, field: 'sessions' });
  }
  if (Array.isArray(value)) {
    return { sessions: value };
  }
  if (value && Array.isArray(value.sessions)) {
    return { sessions: value.sessions, title: value.title };
  }
  throw new ApiError(400, { detail: 'expected a list of sessions or an object with "sessions"', field: 'sessions' });
}

function render(table, docs, navigate, refresh) {
  document.getElementById('documents-empty').hidden = docs.length > 0;
  clear(table, docs.map((doc) => row(doc, navigate, refresh)));
}

function row(doc, navigate, refresh) {
  const title = doc.title || `(untitled ${doc.id.slice(0, 8)})`;
  const stages = doc.stages || [];
  const shared = sharedMessages(stages);
  const reindexSelect = h('select', { 'aria-label': `Stage of ${title} to rebuild` },
    h('option', { value: '' }, 'resume unfinished'),
    stages.map((s) => h('option', { value: s.name }, s.name)));
  return h('tr', { 'data-id': doc.id, 'data-status': doc.status },
    h('th', { scope: 'row' }, h('span', { class: 'doc-title' }, title),
      h('div', { class: 'muted small' }, doc.kind === 'CONVERSATION' ? 'conversation' : 'text', ' · ', doc.profile || 'standard')),
    h('td', {}, h('span', { class: `status status-${doc.status.toLowerCase()}` }, doc.status),
      doc.failureReason ? h('div', { class: 'small error-text' }, doc.failureReason) : null),
    h('td', {}, h('ul', { class: 'stages', 'aria-label': `Ingestion stages of ${title}` },
      stages.map((stage) => stageItem(stage, shared.has(stage.message)))),
    [...shared].map(([message, names]) => h('p', { class: 'muted small stage-message stage-message-shared' },
      `${names.join(', ')}: ${message}`))),
    h('td', { class: 'num' }, doc.charCount != null ? `${formatNumber(doc.charCount)} chars` : '–',
      doc.chunkCount != null ? h('div', { class: 'muted small' }, `${formatNumber(doc.chunkCount)} chunks`) : null),
    h('td', { class: 'actions' },
      h('button', { type: 'button', onclick: () => navigate('source', { documentId: doc.id }) }, 'Source'),
      hasGraph(doc)
        ? h('button', { type: 'button', onclick: () => navigate('graph', { documentId: doc.id }) }, 'Graph') : null,
      h('span', { class: 'reindex' }, reindexSelect,
        h('button', {
          type: 'button',
          onclick: async (event) => {
            const stage = reindexSelect.value;
            await act(event.target, () => api.documents.reindex(doc.id, stage ? [stage] : []),
              `Reindexing ${stage || 'unfinished stages'} of ${title}`);
            forget(doc.id);
            refresh();
          },
        }, 'Reindex')),
      h('button', {
        type: 'button',
        class: 'danger',
        onclick: async (event) => {
          if (!confirm(`Delete “${title}” and everything built from it?`)) {
            return;
          }
          await act(event.target, () => api.documents.remove(doc.id), `Deleted ${title}`);
          forget(doc.id);
          refresh();
        },
      }, 'Delete')));
}

/**
 * Messages that several stages share (without an LLM every memory is skipped for the same reason),
 * with the stages that give them: said once under the list, not once per stage.
 */
function sharedMessages(stages) {
  const byMessage = new Map();
  for (const stage of stages) {
    if (stage.message) {
      byMessage.set(stage.message, [...(byMessage.get(stage.message) || []), stage.name]);
    }
  }
  return new Map([...byMessage].filter(([, names]) => names.length > 1));
}

function stageItem(stage, messageShared = false) {
  const known = stage.total != null && stage.total > 0;
  return h('li', { 'data-stage': stage.name, 'data-status': stage.status },
    h('span', { class: 'stage-name' }, stage.name),
    known ? h('progress', { max: stage.total, value: stage.done ?? 0, 'aria-label': `${stage.name} progress` }) : null,
    h('span', { class: `stage-status stage-${String(stage.status).toLowerCase()}` },
      stage.status, known ? ` ${stage.done ?? 0}/${stage.total}` : ''),
    stage.message && !messageShared ? h('span', { class: 'muted small stage-message' }, stage.message) : null);
}

async function act(button, call, done) {
  const cell = button.closest('td');
  cell.querySelector('.error')?.remove();
  button.disabled = true;
  try {
    await call();
    announce(done);
  } catch (e) {
    cell.append(h('p', { class: 'error', role: 'alert' }, describeError(e)));
  } finally {
    button.disabled = false;
  }
}
