// Kiln's page: one game at a time against (or beside) the engine, kept by
// `kiln serve`. The server holds the game, its clocks and its rules; this
// file keeps what is shown (which move, which side at the bottom, whether
// the engine analyses) and wires the parts in js/ together.

import { get, post, listen } from "./js/api.js";
import { Board } from "./js/board.js";
import { Clocks } from "./js/clocks.js";
import { drawMoves } from "./js/movelist.js";
import { AnalysisPanel } from "./js/analysis.js";
import { NewGameDialog } from "./js/dialog.js";
import { kingSquare, other, START_FEN, turnOf } from "./js/chess.js";

const $ = (id) => document.getElementById(id);

/** Everything the page shows, besides what the server says. */
const view = {
  /** The game's last state from the server. */
  game: null,
  /** The ply shown; null follows the game's last move. */
  ply: null,
  /** The fields the game was started with (for a rematch). */
  fields: null,
  closeEvents: null,
  analysisTimer: null,
  /** The whole-game pass: `{ply, last, nodes, timer}` while it runs. */
  pass: null,
  bookCache: new Map(),
  resignArmed: null,
};

const board = new Board($("board"), $("coords"), (uci) => play(uci));
const clocks = new Clocks({
  white: document.querySelector("#player-bottom .clock"),
  black: document.querySelector("#player-top .clock"),
});
const analysis = new AnalysisPanel({
  lines: $("lines"),
  summary: $("analysis-summary"),
  bar: $("eval-bar"),
  graph: $("graph"),
  onPlay: (uci) => {
    if (canMoveHere()) play(uci);
  },
  onArrows: (moves) => board.setArrows(moves),
  onJump: (ply) => goTo(ply),
});
const dialog = new NewGameDialog((fields) => startGame(fields));

// ---- What is shown -------------------------------------------------------

function humanPlays(color) {
  const human = view.game?.human;
  return human === "both" || human === color;
}

function shownPly() {
  const game = view.game;
  if (!game) return 0;
  return view.ply === null ? game.moves.length : Math.min(view.ply, game.moves.length);
}

function fenAt(ply) {
  const game = view.game;
  return ply === 0 ? game.start_fen : game.moves[ply - 1].fen;
}

function atLatest() {
  return view.game && shownPly() === view.game.moves.length;
}

/** May a person move in the position shown? */
function canMoveHere() {
  const game = view.game;
  return Boolean(game && game.status === "playing" && atLatest() && humanPlays(game.turn));
}

const ENDINGS = {
  checkmate: "Checkmate",
  stalemate: "Stalemate",
  threefold: "Draw by threefold repetition",
  fifty_moves: "Draw by the fifty-move rule",
  insufficient_material: "Draw: insufficient material",
  resigned: "Resignation",
  flag: "Time out",
};

function colorName(color) {
  return color === "white" ? "White" : "Black";
}

function statusText(game) {
  if (game.status === "playing") {
    if (!humanPlays(game.turn)) return `Kiln is thinking (${colorName(game.turn)} to move)…`;
    if (game.human === "both") return `${colorName(game.turn)} to move`;
    return `Your move (${colorName(game.turn)})`;
  }
  const winner = game.result === "1-0" ? "white" : game.result === "0-1" ? "black" : null;
  const verdict = winner ? `${colorName(winner)} wins` : "Draw";
  switch (game.status) {
    case "checkmate":
      return `Checkmate — ${verdict} (${game.result})`;
    case "stalemate":
      return `Stalemate — draw (${game.result})`;
    case "resigned":
      return `${colorName(other(winner ?? "white"))} resigned — ${verdict} (${game.result})`;
    case "flag": {
      const loser = game.turn;
      return winner
        ? `${colorName(loser)} lost on time — ${verdict} (${game.result})`
        : `${colorName(loser)} ran out of time, but ${colorName(other(loser))} cannot mate — draw (${game.result})`;
    }
    default:
      return `${ENDINGS[game.status] ?? game.status} (${game.result})`;
  }
}

function playerName(color) {
  const game = view.game;
  if (!game) return colorName(color);
  if (humanPlays(color)) return game.human === "both" ? colorName(color) : `You (${color})`;
  return game.elo ? `Kiln · Elo ${game.elo}` : "Kiln";
}

function render({ animate = true } = {}) {
  const game = view.game;
  if (!game) return;
  const ply = shownPly();
  const fen = fenAt(ply);
  const last = ply > 0 ? game.moves[ply - 1] : null;
  const inCheck = last && /[+#]$/.test(last.san);
  board.show(fen, {
    lastMove: last?.uci ?? null,
    check: inCheck ? kingSquare(fen, turnOf(fen)) : null,
    legal: canMoveHere() ? game.legal : null,
    animate,
  });
  drawMoves($("moves"), game.start_fen, game.moves, ply, goTo);
  $("fen").value = fen;
  const status = $("status");
  status.textContent = statusText(game);
  status.dataset.status = game.status;
  if (!atLatest()) status.textContent += ` · viewing move ${ply} of ${game.moves.length}`;
  // Players: the bottom one is the board's orientation.
  const bottom = board.orientation;
  document.querySelector("#player-bottom .name").textContent = playerName(bottom);
  document.querySelector("#player-top .name").textContent = playerName(other(bottom));
  clocks.elements = {
    [bottom]: document.querySelector("#player-bottom .clock"),
    [other(bottom)]: document.querySelector("#player-top .clock"),
  };
  clocks.set(game.tc === "none" ? null : game.clocks);
  for (const [id, color] of [["player-bottom", bottom], ["player-top", other(bottom)]]) {
    $(id).classList.toggle("to-move", game.status === "playing" && game.turn === color);
  }
  $("eval-bar").classList.toggle("flipped", bottom === "black");
  $("prev").disabled = $("first").disabled = ply === 0;
  $("next").disabled = $("last").disabled = ply === game.moves.length;
  $("takeback").disabled = takebackPlies() === 0;
  $("resign").disabled = game.status !== "playing" || game.human === "none";
  analysis.setPosition(fen);
  analysis.drawGraph(game.moves, ply);
  showBook(fen);
}

// ---- The game ------------------------------------------------------------

function applyState(state) {
  const old = view.game;
  // An older state, or the one shown already (the answer to a move and
  // the event that follows it carry the same).
  if (old && old.id === state.id && state.version < old.version) return;
  if (old && old.id === state.id && state.version === old.version) {
    old.clocks = state.clocks;
    if (old.tc !== "none") clocks.set(state.clocks);
    return;
  }
  const fresh = !old || old.id !== state.id;
  view.game = state;
  if (view.ply !== null && view.ply > state.moves.length) view.ply = null;
  render({ animate: !fresh });
  // A change stops an analysis of a fixed ply; one that follows the game
  // is restarted by the server.
  if (!fresh && old.version !== state.version && view.ply !== null) scheduleAnalysis();
  if (view.pass && !fresh && old.moves.length !== state.moves.length) stopPass();
}

function subscribe(id) {
  view.closeEvents?.();
  view.closeEvents = listen(id, {
    state: applyState,
    clock: (c) => {
      if (!view.game) return;
      view.game.clocks = c;
      if (view.game.tc !== "none") clocks.set(c);
    },
    info: onInfo,
    bestmove: onBestmove,
  });
}

async function openGame(state, fields) {
  view.game = null;
  view.ply = null;
  view.fields = fields;
  analysis.resetGame();
  stopPass();
  history.replaceState(null, "", `?game=${state.id}`);
  const bottom = state.human === "black" ? "black" : "white";
  if (board.orientation !== bottom) await board.setOrientation(bottom);
  applyState(state);
  subscribe(state.id);
  if (analysisOn()) scheduleAnalysis();
}

async function startGame(fields) {
  const state = await post("/api/games", fields);
  await openGame(state, fields);
}

async function loadGame(id) {
  const state = await get(`/api/games/${id}`);
  const fields = { human: state.human, tc: state.tc };
  if (state.elo) fields.elo = state.elo;
  if (state.start_fen !== START_FEN) fields.fen = state.start_fen;
  await openGame(state, fields);
}

function showError(error) {
  const status = $("status");
  status.textContent = error.message;
  status.dataset.status = "error";
}

async function play(uci) {
  const game = view.game;
  if (!game) return;
  try {
    applyState(await post(`/api/games/${game.id}/move`, { uci, version: game.version }));
  } catch (error) {
    showError(error);
    // The server's view of the game: put the board back.
    try {
      applyState(await get(`/api/games/${game.id}`));
      render({ animate: false });
    } catch {
      // The message shown says what went wrong.
    }
  }
}

/** How many plies a takeback removes: back to a person's move. */
function takebackPlies() {
  const game = view.game;
  if (!game || game.human === "none" || game.moves.length === 0) return 0;
  // Undo one ply; if that leaves the engine to move, undo its move too.
  const turnAfterOne = other(game.turn);
  if (humanPlays(turnAfterOne)) return 1;
  return game.moves.length >= 2 ? 2 : 0;
}

async function takeback() {
  const plies = takebackPlies();
  if (!plies) return;
  view.ply = null;
  try {
    applyState(await post(`/api/games/${view.game.id}/undo`, { plies, version: view.game.version }));
  } catch (error) {
    showError(error);
  }
}

async function resign() {
  const button = $("resign");
  if (!view.resignArmed) {
    button.textContent = "Confirm resign";
    button.classList.add("danger");
    view.resignArmed = setTimeout(disarmResign, 4000);
    return;
  }
  disarmResign();
  try {
    applyState(await post(`/api/games/${view.game.id}/resign`));
  } catch (error) {
    showError(error);
  }
}

function disarmResign() {
  clearTimeout(view.resignArmed);
  view.resignArmed = null;
  $("resign").textContent = "Resign";
  $("resign").classList.remove("danger");
}

async function rematch() {
  const game = view.game;
  if (!game) return;
  const fields = { ...(view.fields ?? { human: game.human, tc: game.tc }) };
  delete fields.pgn;
  if (game.start_fen !== START_FEN) fields.fen = game.start_fen;
  else delete fields.fen;
  if (fields.human === "white" || fields.human === "black") fields.human = other(fields.human);
  try {
    await startGame(fields);
  } catch (error) {
    showError(error);
  }
}

async function downloadPgn() {
  const game = view.game;
  if (!game) return;
  try {
    const text = await get(`/api/games/${game.id}/pgn`);
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `kiln-game-${game.id}.pgn`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (error) {
    showError(error);
  }
}

function goTo(ply) {
  const game = view.game;
  if (!game) return;
  const target = Math.max(0, Math.min(ply, game.moves.length));
  view.ply = target === game.moves.length ? null : target;
  render();
  if (analysisOn()) scheduleAnalysis();
}

// ---- Opening book --------------------------------------------------------

async function showBook(fen) {
  let moves = view.bookCache.get(fen);
  if (!moves) {
    try {
      moves = (await get("/api/book", { fen })).moves;
    } catch {
      moves = [];
    }
    view.bookCache.set(fen, moves);
  }
  if (fen !== $("fen").value) return;
  const body = $("book").querySelector("tbody");
  body.replaceChildren();
  const total = moves.reduce((sum, m) => sum + m.weight, 0);
  for (const move of moves) {
    const row = document.createElement("tr");
    row.dataset.uci = move.uci;
    const san = document.createElement("td");
    san.className = "san";
    san.textContent = move.san;
    const weight = document.createElement("td");
    weight.className = "weight";
    weight.textContent = String(move.weight);
    const share = document.createElement("td");
    share.className = "share";
    const bar = document.createElement("span");
    bar.className = "share-bar";
    bar.style.width = `${Math.round((100 * move.weight) / total)}%`;
    const label = document.createElement("span");
    label.textContent = `${Math.round((100 * move.weight) / total)}%`;
    share.append(bar, label);
    row.append(san, weight, share);
    row.addEventListener("click", () => {
      if (canMoveHere()) play(move.uci);
    });
    body.append(row);
  }
  $("book-empty").hidden = moves.length > 0;
}

// ---- Analysis ------------------------------------------------------------

function analysisOn() {
  return $("analysis-on").checked;
}

function scheduleAnalysis() {
  clearTimeout(view.analysisTimer);
  view.analysisTimer = setTimeout(startAnalysis, 120);
}

async function startAnalysis() {
  const game = view.game;
  if (!game || !analysisOn() || view.pass) return;
  try {
    await post("/api/analysis", {
      game: game.id,
      ply: view.ply ?? undefined,
      multipv: $("multipv").value,
    });
  } catch (error) {
    showError(error);
  }
}

async function stopAnalysis() {
  clearTimeout(view.analysisTimer);
  if (!view.game) return;
  try {
    await post("/api/analysis/stop", { game: view.game.id });
  } catch {
    // Nothing ran.
  }
}

function onInfo(data) {
  if (data.source !== "analysis") return;
  analysis.info(data, analysisOn() && !view.pass);
  if (view.pass && data.ply === view.pass.ply && !data.bound && data.nodes >= view.pass.nodes) {
    nextPassPly();
  }
  if (data.multipv === 1) analysis.drawGraph(view.game.moves, shownPly());
}

function onBestmove(data) {
  // An analysis of a position without moves ends at once.
  if (data.source === "analysis" && view.pass && data.ply === view.pass.ply) {
    if (data.score) analysis.record(data.ply, data.fen, data.score, 0);
    nextPassPly();
  }
}

// ---- The whole-game pass -------------------------------------------------

async function passPly() {
  const pass = view.pass;
  if (!pass) return;
  $("pass-progress").textContent = `move ${pass.ply} of ${pass.last}`;
  clearTimeout(pass.timer);
  // A position that never reaches the nodes (a search that stalls) is left.
  pass.timer = setTimeout(nextPassPly, 15_000);
  try {
    await post("/api/analysis", { game: view.game.id, ply: pass.ply, multipv: 1 });
  } catch (error) {
    showError(error);
    stopPass();
  }
}

function nextPassPly() {
  const pass = view.pass;
  if (!pass) return;
  pass.ply += 1;
  analysis.drawGraph(view.game.moves, shownPly());
  if (pass.ply > pass.last) {
    stopPass();
    $("pass-progress").textContent = "done";
    return;
  }
  passPly();
}

function startPass() {
  const game = view.game;
  if (!game || game.moves.length === 0) return;
  view.pass = { ply: 0, last: game.moves.length, nodes: Number($("pass-nodes").value), timer: null };
  $("game-pass").textContent = "Stop";
  analysis.clearLines();
  passPly();
}

function stopPass() {
  const pass = view.pass;
  if (!pass) return;
  clearTimeout(pass.timer);
  view.pass = null;
  $("game-pass").textContent = "Analyse whole game";
  $("pass-progress").textContent = "";
  if (analysisOn()) scheduleAnalysis();
  else stopAnalysis();
}

// ---- Wiring --------------------------------------------------------------

$("new-game").addEventListener("click", () => dialog.open());
$("flip").addEventListener("click", async () => {
  await board.setOrientation(other(board.orientation));
  render({ animate: false });
});
$("first").addEventListener("click", () => goTo(0));
$("prev").addEventListener("click", () => goTo(shownPly() - 1));
$("next").addEventListener("click", () => goTo(shownPly() + 1));
$("last").addEventListener("click", () => goTo(Infinity));
$("takeback").addEventListener("click", takeback);
$("resign").addEventListener("click", resign);
$("rematch").addEventListener("click", rematch);
$("download-pgn").addEventListener("click", downloadPgn);
$("analysis-on").addEventListener("change", () => {
  if (analysisOn()) {
    scheduleAnalysis();
  } else {
    analysis.clearLines();
    stopAnalysis();
  }
});
$("multipv").addEventListener("change", () => {
  analysis.clearLines();
  if (analysisOn()) scheduleAnalysis();
});
$("game-pass").addEventListener("click", () => (view.pass ? stopPass() : startPass()));

document.addEventListener("keydown", (event) => {
  if (dialog.isOpen || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.("input, textarea, select")) return;
  const keys = {
    ArrowLeft: () => goTo(shownPly() - 1),
    ArrowRight: () => goTo(shownPly() + 1),
    Home: () => goTo(0),
    End: () => goTo(Infinity),
    f: () => $("flip").click(),
  };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
});

/** The game named in the address: `?game=ID` or `#ID`. */
function gameInAddress() {
  const query = new URLSearchParams(location.search).get("game");
  const hash = location.hash.replace(/^#/, "");
  const id = query ?? hash;
  return /^\d+$/.test(id ?? "") ? Number(id) : null;
}

async function main() {
  try {
    const info = await get("/api/info");
    $("engine").textContent = `${info.name} ${info.version}`;
    $("engine").title = `Network: ${info.network}`;
  } catch (error) {
    showError(error);
    return;
  }
  const id = gameInAddress();
  if (id !== null) {
    try {
      await loadGame(id);
      return;
    } catch (error) {
      showError(error);
    }
  } else {
    $("status").textContent = "Start a new game.";
  }
  board.show(START_FEN);
  dialog.open();
}

main();
