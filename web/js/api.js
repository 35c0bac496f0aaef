// Talking to `kiln serve`: forms in, JSON out, the launch's token on every
// call, and the game's event stream. Nothing here touches the page.

const token = document.querySelector('meta[name="kiln-token"]')?.content ?? "";

/** An API refusal: the HTTP status and the server's message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function answer(response) {
  const type = response.headers.get("Content-Type") ?? "";
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    if (type.startsWith("application/json")) {
      const body = await response.json().catch(() => null);
      if (body?.error) message = body.error;
    }
    throw new ApiError(response.status, message);
  }
  return type.startsWith("application/json") ? response.json() : response.text();
}

/** GET `path` (with `query`, an object of fields). */
export async function get(path, query = {}) {
  const search = new URLSearchParams(query).toString();
  const url = search ? `${path}?${search}` : path;
  return answer(await fetch(url, { headers: { "X-Kiln-Token": token } }));
}

/** POST `fields` (an object; undefined values are left out) as a form. */
export async function post(path, fields = {}) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null) body.append(name, String(value));
  }
  return answer(
    await fetch(path, {
      method: "POST",
      headers: { "X-Kiln-Token": token },
      body,
    }),
  );
}

/**
 * Listens to game `id`'s events; `handlers` maps an event name (state,
 * clock, info, bestmove) to a function of its data. Returns a function
 * that closes the stream. The browser reconnects by itself, and the first
 * event of every connection is the game's state.
 */
export function listen(id, handlers, onError) {
  const query = new URLSearchParams({ game: String(id), token });
  const source = new EventSource(`/api/events?${query}`);
  for (const [name, handler] of Object.entries(handlers)) {
    source.addEventListener(name, (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      handler(data);
    });
  }
  source.addEventListener("error", () => onError?.(source.readyState));
  return () => source.close();
}
