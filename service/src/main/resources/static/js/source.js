// The source view: a document's canonical text with spans highlighted at their exact offsets.
// Offsets from the service are UTF-16 code units, which is what JavaScript string indices are,
// so text.slice(start, end) is the cited span with no conversion.

import * as api from './api.js';
import { describeError } from './api.js';
import { h, clear, announce } from './dom.js';

const SESSION_HEADER = /^\[Session [^\n]*\]$/gm;

/** Texts, turns and titles are fetched once per page: a document's canonical text never changes. */
const cache = new Map();

async function load(documentId) {
  if (!cache.has(documentId)) {
    const loading = Promise.all([
      api.documents.text(documentId),
      api.documents.turns(documentId),
      api.documents.get(documentId),
    ]).then(([span, turns, doc]) => ({ text: span.text, turns: turns || [], doc }));
    cache.set(documentId, loading);
    loading.catch(() => cache.delete(documentId));
  }
  return cache.get(documentId);
}

/** Where a document's text may have grown (sessions appended), drop what was cached. */
export function forget(documentId) {
  cache.delete(documentId);
}

export class SourceView {
  /**
   * @param container where the view draws itself
   * @param name a short accessible name of this view ("Answer source")
   */
  constructor(container, name) {
    this.container = container;
    this.name = name;
    this.documentId = null;
    this.highlights = [];
    this.heading = h('h3', { class: 'source-title' }, 'No document shown');
    this.summary = h('p', { class: 'muted source-summary' });
    this.body = h('div', { class: 'source-text', tabindex: '0', role: 'region', 'aria-label': `${name}: document text` });
    clear(container, this.heading, this.summary, this.body);
  }

  /**
   * Shows the document with the highlights, each {start, end, quote, key, label}; focuses the
   * highlight whose key is given.
   */
  async show(documentId, highlights = [], focusKey = null) {
    const shown = this.summary.textContent;
    this.summary.textContent = 'Loading…';
    let source;
    try {
      source = await load(documentId);
    } catch (e) {
      this.summary.textContent = describeError(e);
      return;
    }
    if (this.documentId !== documentId || !sameHighlights(this.highlights, highlights)) {
      this.documentId = documentId;
      this.highlights = highlights;
      this.render(source);
    } else {
      this.summary.textContent = shown;
    }
    if (focusKey !== null && focusKey !== undefined) {
      this.focus(focusKey);
    }
  }

  render({ text, turns, doc }) {
    this.heading.textContent = doc.title || documentIdLabel(doc.id);
    const kind = doc.kind === 'CONVERSATION' ? `conversation, ${turns.length} turns` : 'text';
    const count = this.highlights.length;
    this.summary.textContent = `${kind}, ${text.length.toLocaleString('en')} characters` +
      (count ? `; ${count} highlighted span${count === 1 ? '' : 's'}` : '');
    const spans = this.highlights
      .map((hl, index) => ({ ...hl, index, start: clamp(hl.start, text.length), end: clamp(hl.end, text.length) }))
      .filter((hl) => hl.end > hl.start);
    const headers = doc.kind === 'CONVERSATION' ? sessionHeaders(text) : [];
    const blocks = [...turns.map((t) => ({ ...t, block: 'turn' })), ...headers].sort((a, b) => a.start - b.start);

    // an uploaded file's pages: a marker where each begins, instead of the blank line its break leaves
    const pages = (doc.sections || []).filter((section) => section.kind === 'page' && section.page != null);
    const pageAt = new Map(pages.map((p) => [clamp(p.start, text.length), p.page]));
    const cuts = new Set([0, text.length, ...pageAt.keys()]);
    for (const item of [...spans, ...blocks]) {
      cuts.add(item.start);
      cuts.add(item.end);
    }
    const points = [...cuts].sort((a, b) => a - b);
    const fragment = document.createDocumentFragment();
    let blockIndex = 0;
    let holder = null;
    let holderBlock = null;
    for (let i = 0; i + 1 < points.length; i++) {
      const from = points[i];
      const to = points[i + 1];
      while (blockIndex < blocks.length && blocks[blockIndex].end <= from) {
        blockIndex++;
      }
      const block = blockIndex < blocks.length && blocks[blockIndex].start <= from ? blocks[blockIndex] : null;
      let piece = text.slice(from, to);
      if (pageAt.has(from)) {
        const page = pageAt.get(from);
        (holder || fragment).append(h('span', {
          class: 'page-marker', role: 'separator', 'aria-label': `page ${page}`, 'data-page': page,
        }, `page ${page}`));
        piece = piece.replace(/^\n+/, '');
      }
      if (pageAt.has(to)) {
        piece = piece.replace(/\n+$/, ''); // the page's marker stands on its own line
      }
      if (blocks.length && !block && !piece.trim()) {
        continue; // the line breaks between turns: the blocks already stand on their own lines
      }
      if (block !== holderBlock) {
        holderBlock = block;
        holder = block ? blockElement(block) : null;
        if (holder) {
          fragment.append(holder);
        }
      }
      const covering = spans.filter((hl) => hl.start <= from && hl.end >= to);
      const starting = spans.filter((hl) => hl.start === from);
      const target = holder || fragment;
      for (const hl of starting) {
        target.append(h('span', { class: 'cite-tag', 'aria-hidden': 'true' }, hl.label || String(hl.index + 1)));
      }
      if (covering.length) {
        target.append(h('mark', {
          class: `hl${covering.length > 1 ? ' hl-overlap' : ''}`,
          'data-keys': covering.map((hl) => keyOf(hl)).join(' '),
          title: covering.map((hl) => hl.title || `citation ${hl.label || hl.index + 1}`).join('; '),
        }, piece));
      } else {
        target.append(piece);
      }
    }
    clear(this.body, fragment);
  }

  /** Marks the highlight as the current one, scrolls to it and gives it focus. */
  focus(key) {
    const wanted = String(key);
    this.body.querySelectorAll('mark.active').forEach((m) => m.classList.remove('active'));
    const marks = [...this.body.querySelectorAll('mark[data-keys]')]
      .filter((m) => m.dataset.keys.split(' ').includes(wanted));
    if (!marks.length) {
      return;
    }
    marks.forEach((m) => m.classList.add('active'));
    const first = marks[0];
    first.setAttribute('tabindex', '-1');
    first.scrollIntoView({ block: 'center' });
    first.focus({ preventScroll: true });
    const hl = this.highlights.find((item, index) => keyOf({ ...item, index }) === wanted);
    announce(`Showing ${hl && hl.title ? hl.title : 'the highlighted span'} in ${this.heading.textContent}`);
  }
}

function keyOf(hl) {
  return String(hl.key ?? hl.index);
}

function sameHighlights(a, b) {
  return a.length === b.length && a.every((x, i) => x.start === b[i].start && x.end === b[i].end && keyOf({ ...x, index: i }) === keyOf({ ...b[i], index: i }));
}

function clamp(value, length) {
  return Math.max(0, Math.min(length, Number(value) || 0));
}

function sessionHeaders(text) {
  const out = [];
  for (const match of text.matchAll(SESSION_HEADER)) {
    out.push({ start: match.index, end: match.index + match[0].length, block: 'session' });
  }
  return out;
}

function blockElement(block) {
  if (block.block === 'session') {
    return h('div', { class: 'session-header', role: 'heading', 'aria-level': '4' });
  }
  return h('div', {
    class: `turn speaker-${speakerColour(block.speaker)}`,
    'data-turn': block.turnId,
    'data-speaker': block.speaker,
  });
}

/** The same speaker gets the same of six colours everywhere. */
function speakerColour(speaker = '') {
  let hash = 0;
  for (const ch of speaker) {
    hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  }
  return hash % 6;
}

function documentIdLabel(id) {
  return `Document ${String(id).slice(0, 8)}`;
}
