// Ask: pick documents, a strategy that can run here, options and a budget; follow the trace as it
// is written (server-sent events) as a timeline with timings and the model calls and tokens spent
// so far; then the answer with its confidence, flags and citations, each of which opens the source
// view at its exact offsets.

import * as api from './api.js';
import { ApiError, describeError } from './api.js';
import { h, clear, announce, showError, clearErrors, formatNumber, formatMs } from './dom.js';
import { SourceView } from './source.js';

let strategyList = [];
let running = null; // AbortController of the question being followed
let thread = null; // the thread follow-ups are asked in, once one was started

export function setup() {
  const form = document.getElementById('ask-form');
  const error = form.querySelector('.error');
  const source = new SourceView(document.getElementById('ask-source'), 'Answer source');

  document.addEventListener('lk:documents', (event) => renderDocuments(event.detail));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form, error);
    let body;
    try {
      body = request(form);
    } catch (e) {
      showError(error, describeError(e), form, e.field);
      return;
    }
    running?.abort();
    running = new AbortController();
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      if (form.elements.followUp.checked) {
        thread ??= await api.threads.create(body.question.slice(0, 200));
        body.threadId = thread.id;
        if (thread.questionCount > 0) {
          delete body.documentIds; // a follow-up asks about the thread's documents
        }
      }
      const question = await api.questions.ask(body);
      await follow(question, source, running.signal);
      if (body.threadId) {
        await showThread(source);
      }
    } catch (e) {
      if (e.name !== 'AbortError') {
        showError(error, describeError(e), form, e.field);
      }
    } finally {
      button.disabled = false;
    }
  });

  document.getElementById('thread-new').addEventListener('click', () => {
    thread = null;
    document.getElementById('thread').hidden = true;
    announce('The next follow-up starts a new thread');
  });

  return { loadStrategies, showQuestion: (id) => showQuestion(id, source) };
}

export async function loadStrategies() {
  const select = document.getElementById('ask-strategy');
  const notes = document.getElementById('strategy-notes');
  try {
    strategyList = await api.strategies();
  } catch (e) {
    notes.textContent = describeError(e);
    return [];
  }
  const previous = select.value || 'extractive';
  clear(select, strategyList.map((s) => h('option', {
    value: s.name,
    disabled: !s.available,
    selected: s.name === previous && s.available,
  }, s.available ? s.name : `${s.name} (unavailable)`)));
  const unavailable = strategyList.filter((s) => !s.available);
  clear(notes,
    h('p', { id: 'strategy-summary', class: 'muted' }, describe(strategyList.find((s) => s.name === select.value))),
    unavailable.length ? h('details', { class: 'unavailable' },
      h('summary', {}, `${unavailable.length} not available here`),
      h('ul', {}, unavailable.map((s) => h('li', { 'data-strategy': s.name },
        h('strong', {}, s.name), ': ', s.unavailableReason || 'cannot run with this configuration')))) : null);
  select.onchange = () => {
    document.getElementById('strategy-summary').textContent = describe(strategyList.find((s) => s.name === select.value));
  };
  return strategyList;
}

function describe(strategy) {
  if (!strategy) {
    return '';
  }
  const needs = strategy.memoryStages?.length ? ` Needs: ${strategy.memoryStages.join(', ')}.` : '';
  return `${strategy.summary || ''}${needs}`.trim();
}

function renderDocuments(docs) {
  const box = document.querySelector('#ask-documents .checklist');
  const chosen = new Set([...box.querySelectorAll('input:checked')].map((i) => i.value));
  if (!docs.length) {
    clear(box, h('p', { class: 'muted' }, 'Add a document first.'));
    return;
  }
  clear(box, docs.map((doc) => {
    const id = `ask-doc-${doc.id}`;
    const ready = doc.status === 'READY';
    return h('div', { class: 'check' },
      h('input', { type: 'checkbox', id, name: 'documentIds', value: doc.id, disabled: !ready, checked: ready && chosen.has(doc.id) }),
      h('label', { for: id }, doc.title || doc.id.slice(0, 8), ready ? '' : h('span', { class: 'muted' }, ` (${doc.status})`)));
  }));
}

/**
 * The thread's questions in order, each with what it was asked as (a follow-up's rewrite), its answer
 * and its citations, which open the source view as an answer's do.
 */
async function showThread(source) {
  thread = await api.threads.get(thread.id);
  const box = document.getElementById('thread');
  box.hidden = false;
  document.getElementById('thread-note').textContent =
    `${thread.questionCount} question${thread.questionCount === 1 ? '' : 's'}; follow-ups are rewritten from the earlier turns before they are answered.`;
  clear(document.getElementById('thread-turns'), (thread.questions || []).map((q, turn) => {
    const citations = q.citations || [];
    const rewrite = q.rewrite;
    return h('li', { class: 'thread-turn', 'data-question-id': q.id },
      h('p', { class: 'thread-question' }, h('strong', {}, `Q${turn + 1}. `), q.question),
      rewrite && !rewrite.skipped ? h('p', { class: 'muted small thread-rewrite' }, `Asked as: ${rewrite.standaloneQuestion}`) : null,
      rewrite && rewrite.skipped && turn > 0 ? h('p', { class: 'muted small thread-rewrite' }, `Asked as written: ${rewrite.reason}`) : null,
      h('p', { class: 'thread-answer' }, q.status === 'DONE' ? (q.answer || 'No answer.') : q.status),
      citations.length ? h('ol', { class: 'citations' }, citations.map((c, index) => h('li', {},
        h('button', { type: 'button', class: 'thread-citation', onclick: () => openCitation(citations, index, source, true, false) },
          h('span', { class: 'cite-no' }, `[${index + 1}]`), ' ',
          h('q', {}, c.quote.length > 120 ? `${c.quote.slice(0, 117)}…` : c.quote))))) : null);
  }));
}

/** The request body from the form; a malformed field is reported like a problem from the service. */
function request(form) {
  const documentIds = [...form.querySelectorAll('input[name=documentIds]:checked')].map((i) => i.value);
  if (!documentIds.length) {
    throw new ApiError(400, { detail: 'choose at least one READY document', field: 'documentIds' });
  }
  const body = { documentIds, question: form.elements.question.value.trim(), strategy: form.elements.strategy.value };
  const choices = form.elements.choices.value.split('\n').map((c) => c.trim()).filter(Boolean);
  if (choices.length) {
    body.choices = choices;
  }
  let options = {};
  const rawOptions = form.elements.options.value.trim();
  if (rawOptions) {
    try {
      options = JSON.parse(rawOptions);
    } catch (e) {
      throw new ApiError(400, { detail: `options must be a JSON object (${e.message})`, field: 'options' });
    }
    if (!options || typeof options !== 'object' || Array.isArray(options)) {
      throw new ApiError(400, { detail: 'options must be a JSON object', field: 'options' });
    }
  }
  const budget = {};
  for (const name of ['maxCalls', 'maxTokens', 'maxSeconds']) {
    const value = form.elements[`budget.${name}`].value;
    if (value !== '') {
      budget[name] = Number(value);
    }
  }
  if (Object.keys(budget).length) {
    options = { ...options, budget };
  }
  if (Object.keys(options).length) {
    body.options = options;
  }
  return body;
}

async function showQuestion(id, source) {
  running?.abort();
  running = new AbortController();
  const question = await api.questions.get(id);
  await follow(question, source, running.signal);
}

/** Follows a question from its first trace event to its answer. */
async function follow(question, source, signal) {
  const timeline = document.getElementById('timeline');
  const usageLine = document.getElementById('ask-usage');
  const answer = document.getElementById('answer-body');
  clear(timeline);
  document.getElementById('answer').dataset.questionId = question.id;
  clear(answer, h('p', { class: 'status-line', role: 'status' }, `${question.status}: ${question.strategy} is working…`));
  announce('Question asked; the trace follows');
  const usage = usageTracker(question.id, usageLine, signal);
  const draft = answerDraft(answer);
  const follower = timelineFollower(timeline);
  let first = null;
  let previous = null;
  let lastSeq = 0;
  const add = (event) => {
    if (event.name === 'end' || event.data.seq <= lastSeq) {
      return;
    }
    lastSeq = event.data.seq;
    if (event.name === 'answer.delta') {
      // the answer as it is written: shown growing in the answer box, not as a step of the timeline
      draft.delta(event.data.payload);
      return;
    }
    if (event.name === 'answer.final') {
      draft.final(event.data.payload);
    }
    const at = Date.parse(event.data.at);
    first ??= at;
    const item = timelineItem(event, at - first, previous === null ? null : at - previous);
    previous = at;
    follower.append(item);
    usage.after(item);
  };
  try {
    await api.questions.follow(question.id, add, { signal });
  } catch (e) {
    if (signal.aborted || (e instanceof ApiError && e.status < 500)) {
      throw e;
    }
    // The stream is a convenience (a proxy may buffer or cut it): poll the question, then read the stored trace.
    await untilFinished(question.id, signal);
    const trace = await api.questions.trace(question.id);
    trace.events.forEach((event) => add({ name: event.type, data: event }));
  }
  await usage.settle();
  const done = await api.questions.get(question.id);
  usage.show(done);
  renderAnswer(done, answer, source);
}

/**
 * The answer while the model writes it (`answer.delta` events): a draft that grows in the answer box;
 * a higher stream number (a repaired reply, a last resort) starts it again. `answer.final` replaces it
 * with the checked answer, and says when that differs from the draft.
 */
function answerDraft(container) {
  let stream = 0;
  let text = null;
  let note = null;
  return {
    delta(payload) {
      if (!text || payload.stream !== stream) {
        stream = payload.stream;
        note = h('p', { class: 'status-line muted small', role: 'status' }, 'The model is writing the answer…');
        text = h('p', { class: 'answer-text answer-draft', id: 'answer-draft', 'data-stream': stream });
        clear(container, note, text);
      }
      text.append(payload.text);
    },
    final(payload) {
      if (!text) {
        return;
      }
      text.textContent = payload.answer;
      text.classList.add('answer-final');
      note.textContent = payload.draftChanged
        ? `Final answer (it differs from the draft: ${payload.change})`
        : 'Final answer; its citations follow.';
    },
  };
}

/**
 * Appends steps to the timeline and keeps the newest in view while the reader is at the bottom; a
 * reader who scrolled up keeps their place and gets a button saying how many steps arrived below.
 */
function timelineFollower(timeline) {
  let unseen = 0;
  const more = h('button', { type: 'button', class: 'timeline-more', hidden: true, onclick: () => toBottom() });
  timeline.after(more);
  timeline.parentElement.querySelectorAll('.timeline-more').forEach((b) => { if (b !== more) b.remove(); });
  const atBottom = () => timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 24;
  const toBottom = () => {
    timeline.scrollTop = timeline.scrollHeight;
    unseen = 0;
    more.hidden = true;
  };
  timeline.addEventListener('scroll', () => { if (atBottom()) { unseen = 0; more.hidden = true; } });
  return {
    append(item) {
      const following = atBottom();
      timeline.append(item);
      if (following) {
        toBottom();
      } else {
        unseen += 1;
        more.hidden = false;
        more.textContent = `${unseen} new step${unseen === 1 ? '' : 's'} below ↓`;
      }
    },
  };
}

async function untilFinished(id, signal) {
  for (;;) {
    const question = await api.questions.get(id);
    if (question.status === 'DONE' || question.status === 'FAILED' || signal.aborted) {
      return question;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function timelineItem(event, sinceStart, sincePrevious) {
  const payload = event.data.payload;
  return h('li', { class: `event event-${event.name.replace(/[^\w-]/g, '-')}`, 'data-type': event.name, 'data-seq': event.data.seq },
    h('span', { class: 'event-time', title: event.data.at }, `+${formatMs(sinceStart)}`),
    h('span', { class: 'event-type' }, event.name),
    sincePrevious !== null ? h('span', { class: 'muted small' }, ` (${formatMs(sincePrevious)} after the previous step)`) : null,
    h('div', { class: 'event-summary' }, summarise(payload)),
    h('span', { class: 'event-usage small' }),
    payload && typeof payload === 'object'
      ? h('details', {}, h('summary', {}, 'details'), h('pre', {}, JSON.stringify(payload, null, 2))) : null);
}

/** A line per step: its scalar fields, and the size of its lists (not its `type`, which the line already names). */
function summarise(payload) {
  if (payload === null || payload === undefined) {
    return '';
  }
  if (typeof payload !== 'object') {
    return String(payload);
  }
  const parts = [];
  for (const [name, value] of Object.entries(payload)) {
    if (parts.length >= 6) {
      break;
    }
    if (name === 'type') {
      continue;
    }
    if (Array.isArray(value)) {
      parts.push(`${name}: ${value.length} item${value.length === 1 ? '' : 's'}`);
    } else if (value !== null && typeof value === 'object') {
      parts.push(`${name}: {${Object.keys(value).slice(0, 4).join(', ')}}`);
    } else if (typeof value === 'number' && !Number.isInteger(value)) {
      parts.push(`${name}: ${value.toFixed(3)}`);
    } else if (value !== null && value !== undefined) {
      const text = String(value);
      parts.push(`${name}: ${text.length > 120 ? `${text.slice(0, 117)}…` : text}`);
    }
  }
  return parts.join(' · ');
}

/**
 * Reads the question's model usage after trace events (one request in flight at a time) and writes
 * on the step what was spent since the previous reading: the calls and tokens of each step.
 */
function usageTracker(id, line, signal) {
  let last = { calls: 0, promptTokens: 0, completionTokens: 0 };
  let inFlight = null;
  let pending = null;
  const show = (question) => {
    const u = question.usage;
    line.textContent = u
      ? `Model calls ${formatNumber(u.calls)} · prompt tokens ${formatNumber(u.promptTokens)} · completion tokens ${formatNumber(u.completionTokens)}`
        + ` · cache hits ${formatNumber(u.cacheHits)} · model time ${formatMs(u.llmMs)}`
        + (question.timings?.runMs != null ? ` · run ${formatMs(question.timings.runMs)}` : '')
      : `${question.status}`;
  };
  const read = async (item) => {
    try {
      const question = await api.questions.get(id);
      if (signal.aborted) {
        return;
      }
      show(question);
      const u = question.usage || last;
      const calls = u.calls - last.calls;
      const tokens = (u.promptTokens + u.completionTokens) - (last.promptTokens + last.completionTokens);
      if (calls > 0 || tokens > 0) {
        item.querySelector('.event-usage').textContent = ` ${calls} model call${calls === 1 ? '' : 's'}, ${formatNumber(tokens)} tokens`;
      }
      last = u;
    } catch {
      // usage is a bonus on the timeline; the answer is read again at the end
    }
  };
  const next = () => {
    if (pending && !inFlight) {
      const item = pending;
      pending = null;
      inFlight = read(item).finally(() => { inFlight = null; next(); });
    }
  };
  return {
    after(item) {
      pending = item;
      next();
    },
    async settle() {
      while (inFlight) {
        await inFlight;
      }
    },
    show,
  };
}

function renderAnswer(question, container, source) {
  const citations = question.citations || [];
  const flags = [];
  if (question.budgetLimited) {
    flags.push(h('li', { class: 'flag flag-budget' }, 'Budget limited: the strategy stopped at its budget and answered with what it had.'));
  }
  for (const d of question.degraded || []) {
    flags.push(h('li', { class: 'flag flag-degraded' }, d.fallback
      ? `Answered by ${d.fallback} instead of ${d.strategy}${d.reason ? `: ${d.reason}` : ''}`
      : `Degraded: ran without ${d.stage || 'a memory'}${d.state ? ` (${d.state})` : ''}${d.reason ? `: ${d.reason}` : ''}`));
  }
  if (question.status === 'FAILED') {
    clear(container, h('p', { class: 'error', role: 'alert' }, `Failed: ${question.failureReason || 'no reason given'}`));
    announce('The question failed');
    return;
  }
  const confidence = question.confidence;
  // a passage answer is the passages to read, not a short answer that failed: shown as the quotes they are
  const passages = question.answerKind === 'passage';
  clear(container,
    passages
      ? h('div', { class: 'answer-passages', id: 'answer-text', 'data-kind': 'passage' },
        h('p', { class: 'muted' }, citations.length
          ? 'No short answer was clear enough in the source. These passages are the most likely to hold it:'
          : 'Nothing in the documents matched the question.'),
        citations.map((c) => h('blockquote', { class: 'passage' }, c.quote)))
      : h('p', { class: 'answer-text', id: 'answer-text', 'data-kind': question.answerKind || '' },
        question.answer || h('span', { class: 'muted' }, 'No answer.')),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Strategy'), h('dd', {}, question.strategy, question.mode ? ` (mode ${question.mode})` : ''),
      question.mode === 'extractive' ? [h('dt', {}, 'Note'), h('dd', {}, 'quoted from the source, not written by a model')] : null,
      h('dt', {}, 'Confidence'),
      h('dd', {}, confidence == null ? 'not given' : [
        h('meter', { min: 0, max: 1, value: confidence, 'aria-label': 'confidence' }),
        ` ${Math.round(confidence * 100)}%`,
        passages ? h('span', { class: 'muted small' }, ' that these passages hold it') : null]),
      question.choiceIndex != null ? [h('dt', {}, 'Choice'), h('dd', {}, `#${question.choiceIndex + 1}: ${question.choices?.[question.choiceIndex] ?? ''}`)] : null),
    flags.length ? h('ul', { class: 'flags' }, flags) : null,
    h('h4', {}, `Citations (${citations.length})`),
    citations.length ? h('ol', { class: 'citations' }, citations.map((c, index) => h('li', {},
      h('button', {
        type: 'button',
        class: 'citation',
        'data-index': index,
        'data-document': c.documentId,
        'data-start': c.start,
        'data-end': c.end,
        onclick: () => openCitation(citations, index, source),
      },
      h('span', { class: 'cite-no' }, `[${index + 1}]`), ' ',
      // a quote that opens with its own quotation mark is not wrapped in a second pair
      h('q', /^["“‘'«„]/.test(c.quote) ? { class: 'own-quotes' } : {}, c.quote.length > 160 ? `${c.quote.slice(0, 157)}…` : c.quote),
      h('span', { class: 'muted small' }, ` ${c.page ? `page ${c.page}, ` : ''}${c.section ? `${c.section}, ` : ''}chars ${c.start}–${c.end}${c.turnId ? `, turn ${c.turnId}` : ''}`)))))
      : h('p', { class: 'muted' }, 'No verified citations.'));
  announce(`Answer ready with ${citations.length} citation${citations.length === 1 ? '' : 's'}`);
  if (citations.length) {
    openCitation(citations, 0, source, false);
  }
}

/** Shows the citation's document with all citations into it highlighted, and this one current. */
async function openCitation(citations, index, source, focus = true, markAnswer = true) {
  const documentId = citations[index].documentId;
  const highlights = citations
    .map((c, i) => ({ start: c.start, end: c.end, key: String(i), label: String(i + 1), title: `citation ${i + 1}` }))
    .filter((_, i) => citations[i].documentId === documentId);
  await source.show(documentId, highlights, focus ? String(index) : null);
  if (focus && markAnswer) {
    document.querySelectorAll('button.citation[aria-current]').forEach((b) => b.removeAttribute('aria-current'));
    document.querySelector(`button.citation[data-index="${index}"]`)?.setAttribute('aria-current', 'true');
  }
}
