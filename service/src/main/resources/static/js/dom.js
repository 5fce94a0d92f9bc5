// Small DOM helpers shared by the views. Text always goes in as text nodes, never as HTML, so
// document contents and model output cannot inject markup.

/** Creates an element: h('button', {class: 'x', onclick: f}, 'label', child...). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElementNS(
    tag === 'svg' || attributes.svg ? 'http://www.w3.org/2000/svg' : 'http://www.w3.org/1999/xhtml', tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false || name === 'svg') {
      continue;
    }
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'dataset') {
      Object.assign(element.dataset, value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

/** An SVG element (same call shape as h). */
export function s(tag, attributes = {}, ...children) {
  return h(tag, { ...attributes, svg: true }, ...children);
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) {
      continue;
    }
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** Says something to screen readers through the page's polite live region. */
export function announce(message) {
  const region = document.getElementById('announcer');
  if (region) {
    region.textContent = '';
    // A fresh text node after a tick makes readers announce the same message twice in a row.
    setTimeout(() => { region.textContent = message; }, 30);
  }
}

/** Shows an error in a form's alert region and moves focus to the field the problem names. */
export function showError(region, message, form, field) {
  region.textContent = message;
  region.hidden = !message;
  if (message && form && field) {
    // The service names fields by their path in the request ("options.budget.maxSeconds"); the
    // form's inputs are named by the path, by the path inside options, or by its first part.
    const names = [field, field.replace(/^options\./, ''), field.split(/[.[]/)[0]];
    const input = names.map((name) => form.querySelector(`[name="${CSS.escape(name)}"]`)).find(Boolean);
    if (input) {
      if (input.closest('details')) {
        input.closest('details').open = true;
      }
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
  }
  if (message) {
    region.focus();
  }
}

export function clearErrors(form, region) {
  region.textContent = '';
  region.hidden = true;
  form.querySelectorAll('[aria-invalid]').forEach((e) => e.removeAttribute('aria-invalid'));
}

export function formatNumber(value, digits = 0) {
  if (value === null || value === undefined || Number.isNaN(value)) {
    return '–';
  }
  return Number(value).toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function formatMs(ms) {
  if (ms === null || ms === undefined) {
    return '–';
  }
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
}

export function shortId(id) {
  return String(id).slice(0, 8);
}
