// The board: cm-chessboard (vendored) with Kiln's pieces and markers,
// coordinates drawn beside it, the last move and check marked, legal-move
// dots, the promotion picker, and arrows for the engine's lines. It shows
// what it is given and hands a person's move (UCI) to `onMove`; whether a
// move is legal is read from the server's list.

import { Chessboard, COLOR, INPUT_EVENT_TYPE } from "../vendor/cm-chessboard/src/Chessboard.js";
import { Markers } from "../vendor/cm-chessboard/src/extensions/markers/Markers.js";
import { Arrows } from "../vendor/cm-chessboard/src/extensions/arrows/Arrows.js";
import {
  PromotionDialog,
  PROMOTION_DIALOG_RESULT_TYPE,
} from "../vendor/cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js";
import { parseUci } from "./chess.js";

const MARK = {
  last: { class: "mark-last", slice: "markerSquare" },
  check: { class: "mark-check", slice: "markerCheck" },
  selected: { class: "mark-selected", slice: "markerSquare" },
  dot: { class: "mark-dot", slice: "markerDot", position: "above" },
  capture: { class: "mark-capture", slice: "markerRing" },
  hover: { class: "mark-hover", slice: "markerFrame" },
};

/** Arrow kinds for the engine's lines, best first. */
const ARROWS = [1, 2, 3, 4, 5].map((n) => ({ class: `arrow-pv arrow-pv${n}` }));

export class Board {
  /** A board in `element`; `coords` is the element the coordinates go in. */
  constructor(element, coords, onMove) {
    this.coords = coords;
    this.onMove = onMove;
    this.legal = [];
    this.fen = null;
    this.board = new Chessboard(element, {
      position: "8/8/8/8/8/8/8/8 w - - 0 1",
      assetsUrl: "/vendor/cm-chessboard/assets/",
      style: {
        cssClass: "kiln",
        // Drawn by the page: the library's own coordinates carry style
        // attributes, which the page's CSP refuses.
        showCoordinates: false,
        pieces: { file: "/pieces.svg", tileSize: 40 },
        animationDuration: 160,
      },
      extensions: [
        { class: Markers, props: { autoMarkers: null, sprite: "/markers.svg" } },
        { class: Arrows },
        { class: PromotionDialog },
      ],
    });
    this.drawCoordinates();
  }

  get orientation() {
    return this.board.getOrientation() === COLOR.white ? "white" : "black";
  }

  /** Turns the board to put `color` at the bottom. */
  async setOrientation(color) {
    await this.board.setOrientation(color === "white" ? COLOR.white : COLOR.black);
    this.drawCoordinates();
  }

  drawCoordinates() {
    const white = this.orientation === "white";
    const files = white ? "abcdefgh" : "hgfedcba";
    const ranks = white ? "87654321" : "12345678";
    this.coords.replaceChildren();
    for (let i = 0; i < 8; i++) {
      const file = document.createElement("span");
      file.className = `file f${i} ${i % 2 === 0 ? "on-light" : "on-dark"}`;
      file.textContent = files[i];
      const rank = document.createElement("span");
      rank.className = `rank r${i} ${i % 2 === 0 ? "on-light" : "on-dark"}`;
      rank.textContent = ranks[i];
      this.coords.append(file, rank);
    }
  }

  /**
   * Shows `fen` with `lastMove` (UCI) and `check` (a king's square) marked;
   * `legal` (UCI moves) are the moves a person may make here, `null` for
   * none.
   */
  async show(fen, { lastMove = null, check = null, legal = null, animate = true } = {}) {
    // The same again (a state event after the answer that carried it):
    // leave alone, so a move being made is not cut off.
    const key = JSON.stringify([fen, lastMove, check, legal]);
    if (key === this.shown) return;
    this.shown = key;
    this.legal = legal ?? [];
    this.board.removeMarkers();
    if (lastMove) {
      const { from, to } = parseUci(lastMove);
      this.board.addMarker(MARK.last, from);
      this.board.addMarker(MARK.last, to);
    }
    if (check) this.board.addMarker(MARK.check, check);
    this.board.disableMoveInput();
    if (this.legal.length > 0) {
      this.board.enableMoveInput((event) => this.input(event));
    }
    this.fen = fen;
    // A no-op when the board already shows it (a person's move, drawn as
    // it was made); otherwise it also puts back a refused move.
    await this.board.setPosition(fen, animate);
  }

  /** The legal moves from `square`. */
  movesFrom(square) {
    return this.legal.filter((uci) => uci.startsWith(square));
  }

  showTargets(square) {
    this.board.addMarker(MARK.selected, square);
    for (const uci of this.movesFrom(square)) {
      const to = uci.slice(2, 4);
      const occupied = this.board.getPiece(to);
      this.board.addMarker(occupied ? MARK.capture : MARK.dot, to);
    }
  }

  clearTargets() {
    for (const mark of [MARK.selected, MARK.dot, MARK.capture, MARK.hover]) {
      this.board.removeMarkers(mark);
    }
  }

  input(event) {
    switch (event.type) {
      case INPUT_EVENT_TYPE.moveInputStarted: {
        this.clearTargets();
        if (this.movesFrom(event.squareFrom).length === 0) return false;
        this.showTargets(event.squareFrom);
        return true;
      }
      case INPUT_EVENT_TYPE.movingOverSquare: {
        this.board.removeMarkers(MARK.hover);
        const to = event.squareTo;
        if (to && this.movesFrom(event.squareFrom).some((uci) => uci.slice(2, 4) === to)) {
          this.board.addMarker(MARK.hover, to);
        }
        return undefined;
      }
      case INPUT_EVENT_TYPE.validateMoveInput: {
        this.clearTargets();
        const base = event.squareFrom + event.squareTo;
        const moves = this.movesFrom(event.squareFrom).filter((uci) => uci.startsWith(base));
        if (moves.length === 0) return false;
        if (moves.some((uci) => uci.length === 5)) {
          const color = event.piece.charAt(0);
          this.board.showPromotionDialog(event.squareTo, color, (result) => {
            if (result?.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected) {
              this.onMove(base + result.piece.charAt(1));
            } else {
              // Put the pawn back.
              this.board.setPosition(this.fen, false);
            }
          });
          return true;
        }
        this.onMove(moves[0]);
        return true;
      }
      case INPUT_EVENT_TYPE.moveInputCanceled:
        this.clearTargets();
        return undefined;
      default:
        return undefined;
    }
  }

  /** Draws `lines` (arrays of UCI moves, best first) as arrows of their first moves. */
  setArrows(moves) {
    this.board.removeArrows();
    moves.slice(0, ARROWS.length).forEach((uci, i) => {
      if (!uci) return;
      const { from, to } = parseUci(uci);
      if (from !== to) this.board.addArrow(ARROWS[i], from, to);
    });
  }
}
