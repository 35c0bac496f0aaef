// The two clocks, drawn from the server's values (it keeps the time) and
// counted down here between its events.

import { formatClock } from "./chess.js";

export class Clocks {
  /** `elements`: `{white, black}` clock elements. */
  constructor(elements) {
    this.elements = elements;
    this.values = null;
    this.at = 0;
    this.timer = null;
  }

  /** The server's clocks (`{white_ms, black_ms, running}`), or null for no clock. */
  set(clocks) {
    this.values = clocks;
    this.at = performance.now();
    clearInterval(this.timer);
    this.timer = null;
    if (clocks?.running) this.timer = setInterval(() => this.draw(), 100);
    this.draw();
  }

  left(color) {
    if (!this.values) return null;
    const stored = this.values[`${color}_ms`];
    return this.values.running === color ? stored - (performance.now() - this.at) : stored;
  }

  draw() {
    for (const color of ["white", "black"]) {
      const el = this.elements[color];
      if (!this.values) {
        el.textContent = "";
        el.hidden = true;
        continue;
      }
      const ms = this.left(color);
      el.hidden = false;
      el.textContent = formatClock(ms);
      el.classList.toggle("running", this.values.running === color);
      el.classList.toggle("low", ms < 20_000);
    }
  }
}
