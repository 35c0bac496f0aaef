// The analysis panel: the engine's lines for the position shown (depth,
// score, WDL, speed, the line in SAN), the evaluation bar drawn from the
// WDL, and the score graph over the game.

import {
  expectation,
  formatScore,
  numberedLine,
  turnOf,
  wdlExpectation,
  whiteView,
  whiteWdl,
} from "./chess.js";

const SVG = "http://www.w3.org/2000/svg";

function percent(x) {
  return `${Math.round(x * 100)}%`;
}

function speed(nps) {
  if (!nps) return "";
  return nps >= 1e6 ? `${(nps / 1e6).toFixed(1)} Mn/s` : `${Math.round(nps / 1e3)} kn/s`;
}

export class AnalysisPanel {
  constructor({ lines, summary, bar, graph, onPlay, onArrows, onJump }) {
    this.el = { lines, summary, bar, graph };
    this.onPlay = onPlay;
    this.onArrows = onArrows;
    this.onJump = onJump;
    this.fen = null;
    this.lines = [];
    /** White-view scores by ply, from the analysis: `{score, depth}`. */
    this.scores = new Map();
    this.graphInput = { moves: [], ply: 0 };
    graph.addEventListener("click", (event) => {
      const n = this.graphInput.moves.length;
      if (n === 0) return;
      const box = graph.getBoundingClientRect();
      const ply = Math.round(((event.clientX - box.left) / box.width) * n);
      this.onJump(Math.max(0, Math.min(n, ply)));
    });
  }

  /** Forgets what was said of another game. */
  resetGame() {
    this.scores.clear();
    this.setPosition(null);
  }

  /** The position shown changed: its lines are not known yet. */
  setPosition(fen) {
    if (fen === this.fen) return;
    this.fen = fen;
    this.lines = [];
    this.drawLines();
  }

  /** Records an analysis score for `ply` (keeps the deepest). */
  record(ply, fen, score, depth) {
    const known = this.scores.get(ply);
    if (!known || known.depth <= depth || known.fen !== fen) {
      this.scores.set(ply, { fen, score: whiteView(score, turnOf(fen)), depth });
    }
  }

  /** An `info` event of an analysis. */
  info(data, enabled) {
    if (data.bound) return;
    if (data.multipv === 1 && data.score) this.record(data.ply, data.fen, data.score, data.depth);
    if (!enabled || data.fen !== this.fen) return;
    this.lines[data.multipv - 1] = data;
    this.drawLines();
  }

  /** Drops the lines (analysis off). */
  clearLines() {
    this.lines = [];
    this.drawLines();
  }

  drawLines() {
    const list = this.el.lines;
    list.replaceChildren();
    const lines = this.lines.filter(Boolean);
    this.onArrows(lines.map((line) => line.pv?.[0]));
    if (lines.length === 0 || !this.fen) {
      this.el.summary.textContent = "";
      this.drawBar(null);
      return;
    }
    const turn = turnOf(this.fen);
    for (const line of lines) {
      const item = document.createElement("li");
      item.className = "line";
      item.dataset.multipv = String(line.multipv);
      item.title = "Play this line's first move";
      const score = whiteView(line.score, turn);
      const badge = document.createElement("span");
      badge.className = `score ${expectation(score) >= 0.5 ? "good" : "bad"}`;
      badge.textContent = formatScore(score);
      const depth = document.createElement("span");
      depth.className = "depth";
      depth.textContent = `d${line.depth}`;
      const pv = document.createElement("span");
      pv.className = "pv";
      pv.textContent = numberedLine(this.fen, (line.pv_san ?? []).slice(0, 14));
      item.append(badge, depth, pv);
      item.addEventListener("click", () => {
        if (line.pv?.[0]) this.onPlay(line.pv[0]);
      });
      list.append(item);
    }
    const best = lines[0];
    const wdl = whiteWdl(best.wdl, turn);
    const parts = [`depth ${best.depth}${best.seldepth ? `/${best.seldepth}` : ""}`];
    if (wdl) {
      parts.push(
        `W ${(wdl.win / 10).toFixed(1)}% · D ${(wdl.draw / 10).toFixed(1)}% · L ${(wdl.loss / 10).toFixed(1)}%`,
      );
    }
    if (best.nps) parts.push(speed(best.nps));
    if (best.nodes) parts.push(`${(best.nodes / 1e6).toFixed(2)} M nodes`);
    this.el.summary.textContent = parts.join("  ·  ");
    this.drawBar(best);
  }

  /** The evaluation bar: White's expected share, from the WDL when given. */
  drawBar(best) {
    const bar = this.el.bar;
    const fill = bar.querySelector(".eval-white");
    const text = bar.querySelector(".eval-text");
    if (!best) {
      fill.style.height = "50%";
      text.textContent = "";
      bar.classList.add("idle");
      return;
    }
    bar.classList.remove("idle");
    const turn = turnOf(this.fen);
    const wdl = whiteWdl(best.wdl, turn);
    const score = whiteView(best.score, turn);
    const share = wdl ? wdlExpectation(wdl) : expectation(score);
    fill.style.height = percent(share);
    text.textContent = formatScore(score).replace("+", "");
    bar.title = wdl
      ? `White: win ${(wdl.win / 10).toFixed(1)}%, draw ${(wdl.draw / 10).toFixed(1)}%, loss ${(wdl.loss / 10).toFixed(1)}%`
      : `Evaluation ${formatScore(score)}`;
  }

  /** The score graph over `moves` (the state's), ply `ply` marked. */
  drawGraph(moves, ply) {
    this.graphInput = { moves, ply };
    const svg = this.el.graph;
    svg.replaceChildren();
    const n = moves.length;
    const W = 600;
    const H = 120;
    const mid = document.createElementNS(SVG, "line");
    mid.setAttribute("x1", "0");
    mid.setAttribute("x2", String(W));
    mid.setAttribute("y1", String(H / 2));
    mid.setAttribute("y2", String(H / 2));
    mid.setAttribute("class", "graph-mid");
    svg.append(mid);
    if (n === 0) return;
    const points = [];
    for (let p = 0; p <= n; p++) {
      const analysed = this.scores.get(p);
      const played = p > 0 ? moves[p - 1].score : null;
      const score = analysed?.score ?? played ?? (p === 0 ? { cp: 0 } : null);
      if (score) points.push([(p / n) * W, (1 - expectation(score)) * H]);
    }
    if (points.length > 1) {
      const area = document.createElementNS(SVG, "path");
      const path = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" L");
      area.setAttribute("d", `M${points[0][0]},${H} L${path} L${points.at(-1)[0]},${H} Z`);
      area.setAttribute("class", "graph-area");
      const line = document.createElementNS(SVG, "path");
      line.setAttribute("d", `M${path}`);
      line.setAttribute("class", "graph-line");
      svg.append(area, line);
    }
    const cursor = document.createElementNS(SVG, "line");
    const x = String((ply / n) * W);
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
    cursor.setAttribute("y1", "0");
    cursor.setAttribute("y2", String(H));
    cursor.setAttribute("class", "graph-cursor");
    svg.append(cursor);
  }
}
