// Small facts about positions, moves and scores, read from the server's
// FEN and UCI text. The rules themselves are the server's: the page never
// decides what is legal.

export const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/** "white" or "black": who moves in `fen`. */
export function turnOf(fen) {
  return fen.split(" ")[1] === "b" ? "black" : "white";
}

/** The move number of `fen`. */
export function fullmoveOf(fen) {
  const n = parseInt(fen.split(" ")[5], 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

/** The square (`e1`) of `color`'s king in `fen`, if there is one. */
export function kingSquare(fen, color) {
  const king = color === "white" ? "K" : "k";
  const ranks = fen.split(" ")[0].split("/");
  for (let r = 0; r < ranks.length; r++) {
    let file = 0;
    for (const c of ranks[r]) {
      if (c >= "1" && c <= "8") {
        file += Number(c);
      } else {
        if (c === king) return "abcdefgh"[file] + (8 - r);
        file += 1;
      }
    }
  }
  return null;
}

/** A UCI move's parts: `{from, to, promotion}`. */
export function parseUci(uci) {
  return { from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci.slice(4, 5) || null };
}

/** `color`'s opponent. */
export function other(color) {
  return color === "white" ? "black" : "white";
}

/** A score (`{cp}` or `{mate}`) from the side to move's view, turned to White's. */
export function whiteView(score, turn) {
  if (!score || turn === "white") return score;
  if ("mate" in score) return { mate: -score.mate };
  return { cp: -score.cp };
}

/** A White-view score as people read it: `+0.35`, `-1.20`, `#3`, `#-2`. */
export function formatScore(score) {
  if (!score) return "";
  if ("mate" in score) return `#${score.mate}`;
  const pawns = score.cp / 100;
  return (pawns > 0 ? "+" : pawns < 0 ? "\u2212" : "") + Math.abs(pawns).toFixed(2);
}

/** White's expected share of the point, 0..1, from a White-view score. */
export function expectation(score) {
  if (!score) return 0.5;
  if ("mate" in score) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-0.00368 * score.cp));
}

/** A side-to-move WDL (per mille) turned to White's view. */
export function whiteWdl(wdl, turn) {
  if (!wdl) return null;
  return turn === "white" ? wdl : { win: wdl.loss, draw: wdl.draw, loss: wdl.win };
}

/** White's expected share of the point from a White-view WDL. */
export function wdlExpectation(wdl) {
  return (wdl.win + wdl.draw / 2) / Math.max(1, wdl.win + wdl.draw + wdl.loss);
}

/**
 * The SAN moves `sans` played from `fen`, numbered: `12. Nf3 Nc6 13. d4`
 * (or `12... Nc6 13. d4` when Black moves first).
 */
export function numberedLine(fen, sans) {
  let number = fullmoveOf(fen);
  let turn = turnOf(fen);
  const words = [];
  sans.forEach((san, i) => {
    if (turn === "white") words.push(`${number}.`);
    else if (i === 0) words.push(`${number}...`);
    words.push(san);
    if (turn === "black") number += 1;
    turn = other(turn);
  });
  return words.join(" ");
}

/** Milliseconds as a clock shows them: `4:59`, `1:02:03`, `9.4` under ten seconds. */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) return (Math.floor(clamped / 100) / 10).toFixed(1);
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
