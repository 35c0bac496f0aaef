// The move list: SAN in numbered pairs, the move shown highlighted, a
// click goes to that move.

import { fullmoveOf, turnOf, formatScore } from "./chess.js";

/**
 * Draws `moves` (the state's) played from `startFen` into `list`, with
 * ply `current` (moves played, 0 = start) highlighted; `onPick(ply)`.
 */
export function drawMoves(list, startFen, moves, current, onPick) {
  list.replaceChildren();
  let number = fullmoveOf(startFen);
  let turn = turnOf(startFen);
  let row = null;
  moves.forEach((move, i) => {
    if (turn === "white" || row === null) {
      row = document.createElement("li");
      row.className = "move-row";
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = `${number}.`;
      row.append(num);
      if (turn === "black") {
        const gap = document.createElement("span");
        gap.className = "move empty";
        gap.textContent = "…";
        row.append(gap);
      }
      list.append(row);
    }
    const ply = i + 1;
    const cell = document.createElement("button");
    cell.type = "button";
    cell.className = "move";
    cell.dataset.ply = String(ply);
    cell.textContent = move.san;
    if (move.book) {
      cell.classList.add("book");
      cell.title = "Book move";
    } else if (move.score) {
      const score = document.createElement("small");
      score.textContent = formatScore(move.score);
      cell.append(" ", score);
      if (move.depth) cell.title = `Engine: ${formatScore(move.score)} at depth ${move.depth}`;
    }
    if (ply === current) cell.classList.add("current");
    cell.addEventListener("click", () => onPick(ply));
    row.append(cell);
    if (turn === "black") number += 1;
    turn = turn === "white" ? "black" : "white";
  });
  list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
}
