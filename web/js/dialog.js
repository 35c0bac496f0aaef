// The new-game dialog: side, strength, clock or limit per move, and the
// start (the standard position, a FEN or a PGN). It turns the form into the
// fields of `POST /api/games`, and shows the server's refusal (a FEN or
// PGN error names its line and column, which is selected in the text).

const FEN_LIKE = /^\s*[1-8pnbrqkPNBRQK]+(\/[1-8pnbrqkPNBRQK]+){7}\s+[wb]\b/;

export class NewGameDialog {
  /** `start(fields)` creates the game (a promise; a rejection's message is shown). */
  constructor(start) {
    this.start = start;
    this.dialog = document.getElementById("new-game-dialog");
    this.form = document.getElementById("new-game-form");
    this.error = document.getElementById("dialog-error");
    this.importText = document.getElementById("import-text");
    const f = this.form;
    const sync = () => {
      const full = f.elements.full.checked;
      f.elements.elo.disabled = full;
      document.getElementById("elo-value").textContent = full ? "max" : f.elements.elo.value;
      const tc = f.elements.tc.value;
      document.getElementById("tc-custom").hidden = tc !== "custom";
      document.getElementById("tc-none").hidden = tc !== "none";
      this.importText.hidden = f.elements.start.value !== "import";
    };
    f.addEventListener("input", sync);
    f.addEventListener("change", sync);
    sync();
    document.getElementById("dialog-cancel").addEventListener("click", () => this.dialog.close());
    f.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  open() {
    this.error.hidden = true;
    this.dialog.showModal();
  }

  get isOpen() {
    return this.dialog.open;
  }

  /** The form's fields for `POST /api/games`, or throws a message. */
  fields() {
    const f = this.form.elements;
    const out = {};
    let side = f.side.value;
    if (side === "random") side = Math.random() < 0.5 ? "white" : "black";
    out.human = side;
    if (!f.full.checked) out.elo = f.elo.value;
    const tc = f.tc.value;
    if (tc === "custom") {
      const minutes = Number(f.minutes.value);
      const increment = Number(f.increment.value);
      if (!(minutes > 0) || !(increment >= 0)) throw new Error("The clock needs minutes above 0 and an increment of 0 or more.");
      out.tc = `${+(minutes * 60).toFixed(3)}+${+increment.toFixed(3)}`;
    } else if (tc === "none") {
      out.tc = "none";
      const value = Number(f.limit_value.value);
      if (!(value > 0)) throw new Error("The engine's limit per move must be above 0.");
      if (f.limit.value === "nodes") out.nodes = Math.max(1, Math.round(value));
      else out.movetime = Math.max(1, Math.round(value * 1000));
    } else {
      out.tc = tc;
    }
    if (f.start.value === "import") {
      const text = this.importText.value.trim();
      if (!text) throw new Error("Paste a FEN or a PGN game, or start from the start position.");
      if (FEN_LIKE.test(text) && !text.includes("\n")) out.fen = text;
      else out.pgn = text;
    }
    return out;
  }

  async submit() {
    this.error.hidden = true;
    let fields;
    try {
      fields = this.fields();
    } catch (e) {
      this.showError(e.message);
      return;
    }
    const button = document.getElementById("dialog-start");
    button.disabled = true;
    try {
      await this.start(fields);
      this.dialog.close();
    } catch (e) {
      this.showError(e.message);
    } finally {
      button.disabled = false;
    }
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = false;
    // "line L, column C": select that word of the pasted text.
    const at = /line (\d+)(?:, column (\d+))?/.exec(message);
    if (at && !this.importText.hidden) {
      const lines = this.importText.value.split("\n");
      const index = Math.max(0, Math.min(Number(at[1]), lines.length) - 1);
      const text = lines[index];
      const lineStart = lines.slice(0, index).reduce((sum, l) => sum + l.length + 1, 0);
      const column = Math.min(at[2] ? Number(at[2]) - 1 : 0, text.length);
      const space = text.slice(column).search(/\s/);
      const wordEnd = space < 0 ? text.length : column + space;
      this.importText.focus();
      this.importText.setSelectionRange(lineStart + column, lineStart + Math.max(wordEnd, column + 1));
    }
  }
}
