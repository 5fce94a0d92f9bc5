// The concept graph of a MindGraph document, drawn in SVG: nodes and edges coloured by their Leiden
// community; choosing a node shows its content and its words in the source. The layout is a small
// force simulation run once, before drawing (graphs here have tens to a few hundred nodes).

import * as api from './api.js';
import { describeError } from './api.js';
import { h, s, clear, announce } from './dom.js';
import { SourceView } from './source.js';

// Ten colours with at least 3:1 contrast against the white canvas (WCAG non-text contrast).
const PALETTE = ['#1f5fa8', '#b3431f', '#2a7d3b', '#7b3fa0', '#9a6a00', '#0f7c80', '#b0306a', '#5a5f66', '#4e6b00', '#8a4b2a'];
const SIZE = 640;

export function setup() {
  const form = document.getElementById('graph-form');
  const status = document.getElementById('graph-status');
  const canvas = document.getElementById('graph-canvas');
  const legend = document.getElementById('graph-legend');
  const nodePanel = document.getElementById('graph-node');
  const source = new SourceView(document.getElementById('graph-source'), 'Node source');

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    show(form.elements.document.value);
  });

  async function show(documentId) {
    if (!documentId) {
      return;
    }
    form.elements.document.value = documentId;
    status.textContent = 'Loading the graph…';
    clear(canvas);
    clear(legend);
    let graph;
    try {
      graph = await api.documents.graph(documentId);
    } catch (e) {
      status.textContent = describeError(e);
      return;
    }
    const nodes = graph.nodes || [];
    const edges = (graph.edges || []).filter((e) => e.source !== e.target);
    status.textContent = `${nodes.length} nodes, ${edges.length} edges, ${(graph.communities || []).length} communities`
      + (graph.status ? ` (graph ${graph.status})` : '');
    const community = new Map();
    (graph.communities || []).forEach((c, index) => c.nodes.forEach((id) => community.set(id, index)));
    const colour = (id) => (community.has(id) ? PALETTE[community.get(id) % PALETTE.length] : '#6b6b6b');
    const positions = layout(nodes, edges);
    const svg = s('svg', { viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'group', 'aria-label': `Concept graph, ${nodes.length} nodes` });
    for (const edge of edges) {
      const a = positions.get(edge.source);
      const b = positions.get(edge.target);
      if (!a || !b) {
        continue;
      }
      const same = community.get(edge.source) === community.get(edge.target) && community.has(edge.source);
      svg.append(s('line', {
        x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'edge', stroke: same ? colour(edge.source) : '#9a9a9a',
      }, s('title', {}, edge.relation || 'related')));
    }
    for (const node of nodes) {
      const p = positions.get(node.id);
      const group = s('g', {
        class: 'node', tabindex: '0', role: 'button', transform: `translate(${p.x},${p.y})`, 'data-node': node.id,
        'aria-label': `${node.type || 'node'}: ${node.content}`,
      },
      s('circle', { r: 7, fill: colour(node.id) }),
      s('text', { x: 10, y: 4 }, short(node.content, 24)));
      const choose = () => select(node, group);
      group.addEventListener('click', choose);
      group.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          choose();
        }
      });
      svg.append(group);
    }
    canvas.append(svg);
    clear(legend, (graph.communities || []).slice(0, PALETTE.length).map((c, index) =>
      h('span', { class: 'legend-item' }, h('span', { class: 'swatch', style: `background:${PALETTE[index]}` }),
        `community ${c.id ?? index + 1} (${c.nodes.length})`)));

    async function select(node, group) {
      svg.querySelectorAll('.node.selected').forEach((n) => n.classList.remove('selected'));
      group.classList.add('selected');
      const neighbours = edges.filter((e) => e.source === node.id || e.target === node.id);
      const byId = new Map(nodes.map((n) => [n.id, n]));
      clear(nodePanel,
        h('h3', {}, node.content),
        h('p', { class: 'muted' }, `${node.type || 'node'} · characters ${node.start}–${node.end}`
          + (community.has(node.id) ? ` · community ${community.get(node.id) + 1}` : '')),
        node.quote ? h('blockquote', {}, node.quote) : null,
        neighbours.length ? h('ul', { class: 'small', 'aria-label': 'Relations' }, neighbours.map((e) => h('li', {},
          `${byId.get(e.source)?.content ?? e.source} — ${e.relation} → ${byId.get(e.target)?.content ?? e.target}`))) : null);
      const highlights = [{ start: node.start, end: node.end, key: 'node', label: '●', title: node.content }];
      await source.show(documentId, highlights, 'node');
      announce(`Node ${node.content}`);
    }
  }

  return { show };
}

function short(text = '', length) {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** Fruchterman–Reingold, deterministic: starts from a circle and runs a fixed number of steps. */
function layout(nodes, edges) {
  const n = nodes.length;
  const positions = new Map();
  nodes.forEach((node, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, n);
    positions.set(node.id, { x: SIZE / 2 + (SIZE / 3) * Math.cos(angle), y: SIZE / 2 + (SIZE / 3) * Math.sin(angle), dx: 0, dy: 0 });
  });
  if (n < 2) {
    return positions;
  }
  const k = Math.sqrt((SIZE * SIZE) / n) * 0.6;
  const points = [...positions.values()];
  const steps = n > 400 ? 60 : 200;
  let temperature = SIZE / 10;
  for (let step = 0; step < steps; step++) {
    for (const p of points) {
      p.dx = 0;
      p.dy = 0;
    }
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const a = points[i];
        const b = points[j];
        const dx = a.x - b.x || 0.01;
        const dy = a.y - b.y || 0.01;
        const d2 = dx * dx + dy * dy;
        const force = (k * k) / d2;
        a.dx += dx * force;
        a.dy += dy * force;
        b.dx -= dx * force;
        b.dy -= dy * force;
      }
    }
    for (const e of edges) {
      const a = positions.get(e.source);
      const b = positions.get(e.target);
      if (!a || !b) {
        continue;
      }
      const dx = a.x - b.x;
      const dy = a.y - b.y;
      const d = Math.sqrt(dx * dx + dy * dy) || 0.01;
      const force = d / k;
      a.dx -= dx * force;
      a.dy -= dy * force;
      b.dx += dx * force;
      b.dy += dy * force;
    }
    for (const p of points) {
      const d = Math.sqrt(p.dx * p.dx + p.dy * p.dy) || 1;
      p.x = Math.min(SIZE - 40, Math.max(20, p.x + (p.dx / d) * Math.min(d, temperature)));
      p.y = Math.min(SIZE - 20, Math.max(20, p.y + (p.dy / d) * Math.min(d, temperature)));
    }
    temperature *= 0.97;
  }
  return positions;
}
