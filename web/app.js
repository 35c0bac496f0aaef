// The page's script. For now it asks the server who it is and shows the
// answer; the board comes later. Every /api call carries the per-launch
// token the server wrote into the page.
const token = document.querySelector('meta[name="kiln-token"]').content;

async function api(path, options = {}) {
  const headers = { 'X-Kiln-Token': token, ...(options.headers || {}) };
  const response = await fetch(path, { ...options, headers });
  const body = await response.json();
  if (!response.ok) {
    throw new Error(body.error || `HTTP ${response.status}`);
  }
  return body;
}

async function main() {
  const status = document.getElementById('status');
  try {
    const info = await api('/api/info');
    document.getElementById('engine').textContent = `${info.name} ${info.version}`;
    document.title = info.name;
    status.textContent = `Network ${info.network}. Ready.`;
  } catch (error) {
    status.textContent = `The engine did not answer: ${error.message}`;
  }
}

main();
