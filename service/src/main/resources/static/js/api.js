// Every call the console makes to the service goes through this module, so that a change of the
// HTTP API (paths, bodies, error shapes) is made here and nowhere else.

const KEY_STORAGE = 'lorekeeper.apiKey';

/** The API key lives in sessionStorage only: it goes when the tab closes and is never written to disk by us. */
export const apiKey = {
  get() {
    return sessionStorage.getItem(KEY_STORAGE) || '';
  },
  set(value) {
    if (value) {
      sessionStorage.setItem(KEY_STORAGE, value);
    } else {
      sessionStorage.removeItem(KEY_STORAGE);
    }
  },
};

/** A refusal or failure of the service, carrying its RFC 9457 problem body when there is one. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.field = problem.field || null;
  }

  /** The service asks for an API key (tenancy on) or refused the one given. */
  get keyNeeded() {
    return this.status === 401;
  }
}

/**
 * One line a person can act on: the problem's detail (the form marks the field it names). A 401
 * reads "Key needed" whatever its detail, since the fix is always the key field.
 */
export function describeError(error) {
  if (error instanceof ApiError) {
    if (error.keyNeeded) {
      return `Key needed: ${error.problem.detail || 'enter an API key at the top of the page'}`;
    }
    return error.problem.detail || error.problem.title || `HTTP ${error.status}`;
  }
  if (error && error.name === 'AbortError') {
    return 'Cancelled';
  }
  return `The service could not be reached (${error && error.message ? error.message : error})`;
}

function headers(extra = {}) {
  const h = { Accept: 'application/json, application/problem+json', ...extra };
  const key = apiKey.get();
  if (key) {
    h.Authorization = `Bearer ${key}`;
  }
  return h;
}

async function problemOf(response) {
  const text = await response.text();
  try {
    const body = JSON.parse(text);
    if (body && typeof body === 'object') {
      return body;
    }
  } catch {
    // not JSON: a proxy's page or an empty body; fall through
  }
  return { status: response.status, title: response.statusText, detail: text.trim().slice(0, 300) || undefined };
}

async function request(method, path, { json, body, query, signal } = {}) {
  let url = path;
  if (query) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') {
        params.set(name, String(value));
      }
    }
    const qs = params.toString();
    if (qs) {
      url += `?${qs}`;
    }
  }
  const init = { method, signal, headers: headers() };
  if (json !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (body !== undefined) {
    init.body = body; // FormData: the browser writes the multipart boundary itself
  }
  const response = await fetch(url, init);
  if (!response.ok) {
    throw failure(response.status, await problemOf(response));
  }
  if (response.status === 204) {
    return null;
  }
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

/** The error for a refused call; a 401 is also announced to the page, which asks for a key once, at the top. */
function failure(status, problem) {
  const error = new ApiError(status, problem);
  if (error.keyNeeded) {
    document.dispatchEvent(new CustomEvent('lk:key-needed', { detail: error }));
  }
  return error;
}

const enc = encodeURIComponent;

export const documents = {
  list: (page = 0, size = 50) => request('GET', '/v1/documents', { query: { page, size } }),
  get: (id) => request('GET', `/v1/documents/${enc(id)}`),
  createText: ({ title, text, profile }) => request('POST', '/v1/documents', { json: { title: title || undefined, text, profile: profile || undefined } }),
  createConversation: ({ title, sessions, profile }) =>
    request('POST', '/v1/documents', { json: { title: title || undefined, sessions, profile: profile || undefined } }),
  upload: (file, { title, profile } = {}) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return request('POST', '/v1/documents/files', { body: form, query: { title, profile } });
  },
  remove: (id) => request('DELETE', `/v1/documents/${enc(id)}`),
  reindex: (id, stages) => request('POST', `/v1/documents/${enc(id)}/reindex`, { json: { stages } }),
  text: (id, start, end) => request('GET', `/v1/documents/${enc(id)}/text`, { query: { start, end } }),
  turns: (id) => request('GET', `/v1/documents/${enc(id)}/turns`),
  graph: (id) => request('GET', `/v1/documents/${enc(id)}/graph`),
};

export const strategies = () => request('GET', '/v1/strategies');

export const questions = {
  ask: (body) => request('POST', '/v1/questions', { json: body }),
  get: (id) => request('GET', `/v1/questions/${enc(id)}`),
  trace: (id) => request('GET', `/v1/questions/${enc(id)}/trace`),
  /**
   * Follows the question's trace as server-sent events until its `end` event. Read with fetch rather
   * than EventSource: EventSource cannot send the Authorization header, and only delivers events
   * whose names it was told in advance (every trace type is an event name here). A dropped stream is
   * resumed from the last event id it delivered.
   */
  async follow(id, onEvent, { signal } = {}) {
    let lastId = null;
    for (let attempt = 0; attempt < 6; attempt++) {
      const extra = { Accept: 'text/event-stream' };
      if (lastId) {
        extra['Last-Event-ID'] = lastId;
      }
      let response;
      try {
        response = await fetch(`/v1/questions/${enc(id)}/events`, { headers: headers(extra), signal });
      } catch (e) {
        if (signal && signal.aborted) {
          throw e;
        }
        await pause(500 * (attempt + 1));
        continue;
      }
      if (!response.ok) {
        throw failure(response.status, await problemOf(response));
      }
      const ended = await readEvents(response.body, (event) => {
        if (event.id) {
          lastId = event.id;
        }
        onEvent(event);
      });
      if (ended) {
        return;
      }
      await pause(300 * (attempt + 1));
    }
    throw new Error('the event stream kept dropping');
  },
};

export const threads = {
  create: (title) => request('POST', '/v1/threads', { json: title ? { title } : {} }),
  get: (id) => request('GET', `/v1/threads/${enc(id)}`),
  list: () => request('GET', '/v1/threads'),
};

export const evaluations = {
  start: (body) => request('POST', '/v1/evaluations', { json: body }),
  get: (id) => request('GET', `/v1/evaluations/${enc(id)}`),
  retry: (id) => request('POST', `/v1/evaluations/${enc(id)}/retry`),
};

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Parses a text/event-stream body; returns true once the `end` event arrived. */
async function readEvents(stream, deliver) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        break;
      }
      buffer += value.replace(/\r\n?/g, '\n');
      let blank;
      while ((blank = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, blank);
        buffer = buffer.slice(blank + 2);
        const event = parseBlock(block);
        if (!event) {
          continue;
        }
        deliver(event);
        if (event.name === 'end') {
          ended = true;
          await reader.cancel();
          return true;
        }
      }
    }
  } finally {
    reader.releaseLock?.();
  }
  return ended;
}

function parseBlock(block) {
  let name = 'message';
  let id = null;
  const data = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) {
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') {
      name = value;
    } else if (field === 'data') {
      data.push(value);
    } else if (field === 'id') {
      id = value;
    }
  }
  if (!data.length) {
    return null;
  }
  const raw = data.join('\n');
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = raw;
  }
  return { name, id, data: parsed };
}
