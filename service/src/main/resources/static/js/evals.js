// Evaluations: start a run, follow its progress (polled: a run lasts minutes to hours), and read
// the report as a table and an SVG chart of each strategy's overall score and evidence recall.

import * as api from './api.js';
import { ApiError, describeError } from './api.js';
import { h, s, clear, announce, showError, clearErrors, formatNumber, formatMs, shortId } from './dom.js';

const POLL_MS = 1500;
const RECENT = 'lorekeeper.evaluations';
let timer = null;

export function setup() {
  const form = document.getElementById('eval-form');
  const error = form.querySelector('.error');
  const openForm = document.getElementById('eval-open-form');
  const openError = openForm.querySelector('.error');

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form, error);
    try {
      const started = await api.evaluations.start(request(form));
      remember(started.id);
      announce('Evaluation started');
      follow(started.id);
    } catch (e) {
      showError(error, describeError(e), form, e.field);
    }
  });
  openForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(openForm, openError);
    const id = openForm.elements.id.value.trim();
    try {
      await api.evaluations.get(id);
      remember(id);
      follow(id);
    } catch (e) {
      showError(openError, describeError(e), openForm, 'id');
    }
  });
  showRecent();
  return { strategiesLoaded };
}

/** The strategy checkboxes, from the same list the Ask view uses. */
export function strategiesLoaded(list) {
  const box = document.querySelector('#eval-strategies .checklist');
  clear(box, list.map((strategy) => {
    const id = `eval-strategy-${strategy.name}`;
    return h('div', { class: 'check' },
      h('input', { type: 'checkbox', id, name: 'strategies', value: strategy.name, disabled: !strategy.available,
        checked: strategy.name === 'extractive' }),
      h('label', { for: id }, strategy.name, strategy.available ? '' : h('span', { class: 'muted' }, ' (unavailable)')));
  }),
  // Retrieval probes: how much of the gold evidence plain search finds, beside the strategies.
  ['hybrid', 'vector', 'keyword'].map((mode) => {
    const id = `eval-probe-search-${mode}`;
    return h('div', { class: 'check' },
      h('input', { type: 'checkbox', id, name: 'strategies', value: `search:${mode}` }),
      h('label', { for: id }, `search:${mode}`, h('span', { class: 'muted' }, ' (retrieval probe)')));
  }));
}

function request(form) {
  const body = { dataset: form.elements.dataset.value };
  const path = form.elements.path.value.trim();
  const rawItems = form.elements.items.value.trim();
  if (rawItems) {
    body.items = rawItems.split('\n').filter((line) => line.trim()).map((line, index) => {
      try {
        return JSON.parse(line);
      } catch (e) {
        throw new ApiError(400, { detail: `line ${index + 1} of the items is not JSON (${e.message})`, field: 'items' });
      }
    });
  } else if (path) {
    body.path = path;
  }
  body.strategies = [...form.querySelectorAll('input[name=strategies]:checked')].map((i) => i.value);
  for (const name of ['limit', 'concurrency']) {
    if (form.elements[name].value !== '') {
      body[name] = Number(form.elements[name].value);
    }
  }
  if (form.elements.judge.checked) {
    body.judge = true;
  }
  return body;
}

function remember(id) {
  const list = JSON.parse(sessionStorage.getItem(RECENT) || '[]').filter((x) => x !== id);
  list.unshift(id);
  sessionStorage.setItem(RECENT, JSON.stringify(list.slice(0, 10)));
  showRecent();
}

function showRecent() {
  const list = JSON.parse(sessionStorage.getItem(RECENT) || '[]');
  clear(document.getElementById('eval-recent'), list.map((id) => h('li', {},
    h('button', { type: 'button', class: 'link', 'data-id': id, onclick: () => follow(id) }, `Evaluation ${shortId(id)}`))));
}

async function follow(id) {
  clearTimeout(timer);
  const section = document.getElementById('eval-run');
  const text = document.getElementById('eval-progress-text');
  const bar = document.getElementById('eval-progress');
  section.hidden = false;
  document.getElementById('eval-run-h').textContent = `Evaluation ${shortId(id)}`;
  clear(document.getElementById('eval-chart'));
  clear(document.getElementById('eval-report'));
  const poll = async () => {
    let run;
    try {
      run = await api.evaluations.get(id);
    } catch (e) {
      text.textContent = describeError(e);
      timer = setTimeout(poll, POLL_MS * 2);
      return;
    }
    bar.max = Math.max(1, run.total || 0);
    bar.value = run.done || 0;
    text.textContent = `${run.status}: ${run.done ?? 0} of ${run.total ?? '?'} answers (${run.dataset})`
      + (run.error ? ` — ${run.error}` : '');
    if (run.status === 'DONE' && run.report) {
      renderReport(run.report);
      announce('Evaluation finished');
    } else if (run.status === 'FAILED') {
      announce('Evaluation failed');
    } else {
      timer = setTimeout(poll, POLL_MS);
    }
  };
  await poll();
}

const COLUMNS = [
  ['strategy', 'Strategy'], ['category', 'Category'], ['n', 'Questions'], ['failed', 'Failed'],
  ['f1', 'F1', 3], ['em', 'EM', 3], ['rougeL', 'ROUGE-L', 3], ['accuracy', 'Accuracy', 3], ['judge', 'Judge', 3],
  ['evidenceRecall', 'Evidence recall', 3], ['llmCalls', 'LLM calls', 1], ['llmTokens', 'Tokens', 0],
  ['p50LatencyMs', 'p50 latency'], ['p95LatencyMs', 'p95 latency'],
];

function renderReport(report) {
  const rows = report.summary || [];
  const cell = ([key, , digits], row) => {
    const value = row[key];
    if (key.endsWith('LatencyMs')) {
      return formatMs(value);
    }
    return typeof value === 'number' ? formatNumber(value, digits ?? 0) : (value ?? '–');
  };
  clear(document.getElementById('eval-report'),
    h('table', { class: 'report' },
      h('caption', {}, `Report on ${report.dataset}: ${rows.length} rows`),
      h('thead', {}, h('tr', {}, COLUMNS.map(([, label]) => h('th', { scope: 'col' }, label)))),
      h('tbody', {}, rows.map((row) => h('tr', {}, COLUMNS.map((column, i) => (i === 0
        ? h('th', { scope: 'row' }, cell(column, row))
        : h('td', { class: typeof row[column[0]] === 'number' ? 'num' : '' }, cell(column, row)))))))));
  renderChart(rows.filter((r) => r.category === 'overall'));
}

/** Grouped bars per strategy: score (F1, or accuracy where there is no F1) and evidence recall, 0 to 1. */
function renderChart(rows) {
  const chart = document.getElementById('eval-chart');
  if (!rows.length) {
    clear(chart);
    return;
  }
  const series = [['score', '#1f5fa8', (r) => r.f1 ?? r.accuracy], ['evidence recall', '#b3431f', (r) => r.evidenceRecall]];
  const band = 90;
  // never narrower than four bands, and never drawn above one and a half times its size: one strategy's
  // chart scaled to the card's width was drawn about 1,000 px tall
  const width = Math.max(60 + 4 * band, 60 + rows.length * band);
  const height = 220;
  const plot = 160;
  const svg = s('svg', {
    viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'eval-chart-title', class: 'bars',
    style: `max-width: ${Math.round(width * 1.5)}px`,
  },
    s('title', { id: 'eval-chart-title' }, `Overall score and evidence recall by strategy: ${rows.map((r) =>
      `${r.strategy} ${formatNumber(r.f1 ?? r.accuracy, 2)}`).join(', ')}`));
  for (const tick of [0, 0.5, 1]) {
    const y = 20 + plot * (1 - tick);
    svg.append(s('line', { x1: 40, x2: width, y1: y, y2: y, class: 'grid' }), s('text', { x: 34, y: y + 4, class: 'tick' }, String(tick)));
  }
  rows.forEach((row, i) => {
    const x = 50 + i * band;
    series.forEach(([name, colour, value], j) => {
      const v = value(row);
      if (v == null) {
        return;
      }
      const barHeight = plot * Math.max(0, Math.min(1, v));
      svg.append(s('rect', { x: x + j * 30, y: 20 + plot - barHeight, width: 26, height: barHeight, fill: colour },
        s('title', {}, `${row.strategy} ${name}: ${formatNumber(v, 3)}`)));
    });
    svg.append(s('text', { x: x + 28, y: height - 22, class: 'label' }, row.strategy));
  });
  clear(chart, svg, h('p', { class: 'legend small' }, series.map(([name, colour]) =>
    h('span', { class: 'legend-item' }, h('span', { class: 'swatch', style: `background:${colour}` }), name))));
}
