// The page of `kiln serve` in a real browser (Debian's chromium, driven by
// playwright-core): a whole game played with clicks and a drag to its end,
// a PGN downloaded and read, a takeback, a reload that resumes the game,
// the engine's lines streamed and deepening, a promotion through the
// picker against the engine, an import error shown with its line and
// column, and a screenshot of a fixed position compared with the committed
// one. Any console error, page error or request that would leave the
// machine fails it.
//
// usage: node tests/browser/play.mjs URL [OUT_DIR]
//   URL      where `kiln serve` listens (its first line of output)
//   OUT_DIR  where the screenshots go (default target/browser)
// env: CHROMIUM (default /usr/bin/chromium); KILN_UPDATE_SCREENSHOT=1
// rewrites the committed reference image instead of comparing with it.

import { chromium } from "playwright-core";
import { PNG } from "pngjs";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const url = process.argv[2];
const outDir = process.argv[3] ?? "target/browser";
if (!url) {
  console.error("usage: node tests/browser/play.mjs URL [OUT_DIR]");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const reference = join(here, "board.png");
mkdirSync(outDir, { recursive: true });

const started = Date.now();
const problems = [];
/** API refusals the test provokes on purpose (the browser logs each as a console error). */
let expectedRefusals = 0;
const step = (text) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`);
function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
    "--font-render-hinting=none",
    "--force-color-profile=srgb",
    "--hide-scrollbars",
  ],
});

/** A page that fails the test on a console error, a page error or a request off this machine. */
async function newPage(viewport = { width: 1280, height: 860 }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, acceptDownloads: true });
  await context.route("**/*", (route) => {
    const target = new URL(route.request().url());
    const local = ["127.0.0.1", "localhost", "[::1]"].includes(target.hostname);
    if (local || target.protocol === "blob:" || target.protocol === "data:") {
      return route.continue();
    }
    problems.push(`a request left the machine: ${target.href}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    if (expectedRefusals > 0 && /status of 400 \(Bad Request\)/.test(message.text())) {
      expectedRefusals -= 1;
      return;
    }
    problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.setDefaultTimeout(15_000);
  return page;
}

/** The centre of `square` on the board, in page pixels. */
async function centre(page, square) {
  const box = await page.locator(`#board rect[data-square="${square}"]`).boundingBox();
  check(box, `square ${square} is on the board`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function clickSquare(page, square) {
  const { x, y } = await centre(page, square);
  await page.mouse.click(x, y);
}

/** A pause as a person makes between moves: the board takes no input
 * while the last move's piece is still gliding to its square. */
async function settle(page) {
  await page.waitForTimeout(250);
}

async function clickMove(page, from, to) {
  await settle(page);
  await clickSquare(page, from);
  await clickSquare(page, to);
}

async function dragMove(page, from, to) {
  await settle(page);
  const a = await centre(page, from);
  const b = await centre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

async function movesShown(page) {
  return page.locator("#moves button.move[data-ply]").allTextContents();
}

async function waitForMoves(page, count) {
  await page.waitForFunction(
    (n) => document.querySelectorAll("#moves button.move[data-ply]").length === n,
    count,
  );
}

async function waitForStatus(page, pattern) {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.getElementById("status").textContent),
    pattern.source,
  );
}

/** Opens the new-game dialog (if not open) and starts a game with these choices. */
async function newGame(page, { side, tc = "none", limit = null, text = null }) {
  if (!(await page.locator("#new-game-dialog").evaluate((d) => d.open))) {
    await page.click("#new-game");
  }
  const dialog = page.locator("#new-game-dialog");
  await dialog.locator(`input[name="side"][value="${side}"]`).check();
  await dialog.locator(`input[name="tc"][value="${tc}"]`).check();
  if (limit) {
    await dialog.locator('select[name="limit"]').selectOption(limit.kind);
    await dialog.locator('input[name="limit_value"]').fill(String(limit.value));
  }
  if (text) {
    await dialog.locator('input[name="start"][value="import"]').check();
    await dialog.locator("#import-text").fill(text);
  } else {
    await dialog.locator('input[name="start"][value="standard"]').check();
  }
  await page.click("#dialog-start");
}

async function downloadPgn(page) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-pgn")]);
  const path = await download.path();
  return readFileSync(path, "utf8");
}

/** Share of pixels that differ by more than a small amount in any channel. */
function pixelDifference(a, b) {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let differ = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      if (Math.abs(a.data[i + c] - b.data[i + c]) > 40) {
        differ += 1;
        break;
      }
    }
  }
  return differ / (a.width * a.height);
}

try {
  // ---- 1. A whole game with clicks and one drag: fool's mate ----
  const page = await newPage();
  step("open the page");
  await page.goto(url);
  await page.locator("#new-game-dialog[open]").waitFor();
  await newGame(page, { side: "both" });
  await waitForStatus(page, /White to move/);
  check(new URL(page.url()).searchParams.get("game"), "the game's id is in the address");

  step("play f3 by clicks: the legal moves are dotted");
  await settle(page);
  await clickSquare(page, "f2");
  await page.waitForFunction(() => document.querySelectorAll("#board .marker.mark-dot").length === 2);
  await clickSquare(page, "f3");
  await waitForMoves(page, 1);
  await clickMove(page, "e7", "e5");
  await waitForMoves(page, 2);
  step("play g4 by a drag");
  await dragMove(page, "g2", "g4");
  await waitForMoves(page, 3);
  await clickMove(page, "d8", "h4");
  await waitForMoves(page, 4);
  await waitForStatus(page, /Checkmate — Black wins \(0-1\)/);
  check((await movesShown(page)).join(" ") === "f3 e5 g4 Qh4#", "the moves are listed in SAN");
  check((await page.locator("#board .marker.mark-check").count()) === 1, "the mated king is marked");
  check((await page.locator("#board .marker.mark-last").count()) === 2, "the last move is marked");
  await page.screenshot({ path: join(outDir, "checkmate.png") });

  step("download the PGN");
  const pgn = await downloadPgn(page);
  check(/\[Result "0-1"\]/.test(pgn), "the PGN has the result tag");
  check(/\[Termination "checkmate"\]/.test(pgn), "the PGN says how the game ended");
  check(/1\. f3 e5 2\. g4 Qh4# 0-1/.test(pgn), `the PGN has the moves: ${pgn}`);

  step("take back, step through the moves, reload and resume");
  await page.click("#takeback");
  await waitForMoves(page, 3);
  await waitForStatus(page, /Black to move/);
  await page.keyboard.press("Home");
  await waitForStatus(page, /viewing move 0 of 3/);
  await page.keyboard.press("ArrowRight");
  await waitForStatus(page, /viewing move 1 of 3/);
  check((await page.locator("#moves .move.current").textContent()) === "f3", "the move shown is highlighted");
  await page.keyboard.press("End");
  await page.waitForFunction(() => !/viewing/.test(document.getElementById("status").textContent));
  const address = page.url();
  await page.reload();
  await waitForMoves(page, 3);
  await waitForStatus(page, /Black to move/);
  check(page.url() === address, "the reloaded page names the same game");
  check((await page.locator("#new-game-dialog").evaluate((d) => d.open)) === false, "no dialog over a resumed game");

  // ---- 2. The engine's lines, streamed and deepening ----
  step("turn on three analysis lines and watch them deepen");
  await page.locator("#multipv").selectOption("3");
  await page.locator("#analysis-on").check();
  await page.waitForFunction(() => document.querySelectorAll("#lines .line").length === 3);
  const depth = async () => Number((await page.locator("#lines .line .depth").first().textContent()).slice(1));
  const first = await depth();
  await page.waitForFunction(
    (d) => Number(document.querySelector("#lines .line .depth")?.textContent.slice(1)) > d,
    first,
  );
  check(!(await page.locator("#eval-bar").evaluate((bar) => bar.classList.contains("idle"))), "the evaluation bar is drawn");
  check(/W [\d.]+% · D [\d.]+% · L [\d.]+%/.test(await page.locator("#analysis-summary").textContent()), "the WDL is shown");
  check((await page.locator("#board .arrow-pv").count()) >= 1, "the lines are drawn as arrows");
  await page.screenshot({ path: join(outDir, "analysis.png") });
  step("click the best line: its first move is played");
  await page.locator("#lines .line").first().click();
  await waitForMoves(page, 4);
  await page.locator("#analysis-on").uncheck();
  await page.waitForFunction(() => document.querySelectorAll("#lines .line").length === 0);

  // ---- 3. An import error names its line and column ----
  step("a PGN with an illegal move is refused with its line and column");
  expectedRefusals = 1;
  await newGame(page, { side: "white", text: '[Event "x"]\n\n1. e4 e5 2. Ke3 Nc6' });
  const error = page.locator("#dialog-error");
  await error.waitFor({ state: "visible" });
  check(/line 3, column \d+/.test(await error.textContent()), `the error says where: ${await error.textContent()}`);
  check(await page.locator("#new-game-dialog").evaluate((d) => d.open), "the dialog stays open");
  check(expectedRefusals === 0, "the refusal came from the server");

  // ---- 4. A promotion through the picker, against the engine ----
  step("promote to a rook through the picker against the engine");
  await newGame(page, {
    side: "white",
    limit: { kind: "nodes", value: 3000 },
    text: "8/P7/8/8/8/8/k7/4K3 w - - 0 1",
  });
  await waitForStatus(page, /Your move \(White\)/);
  await clickMove(page, "a7", "a8");
  const rook = page.locator('#board .promotion-dialog-button[data-piece="wr"]');
  await rook.waitFor();
  await rook.click();
  await waitForMoves(page, 2);
  const promotedMoves = await movesShown(page);
  check(/^a8=R\+?$/.test(promotedMoves[0]), `the pawn became a rook: ${promotedMoves}`);
  // The board shows the engine's reply once its piece has glided there.
  await page.waitForFunction(() => {
    const fen = document.getElementById("fen").value.split(" ")[0];
    const ranks = fen.split("/");
    for (let r = 0; r < 8; r++) {
      let file = 0;
      for (const c of ranks[r]) {
        if (c >= "1" && c <= "8") file += Number(c);
        else if (c === "k") {
          const square = "abcdefgh"[file] + (8 - r);
          return document.querySelector(`#board g[data-piece="bk"][data-square="${square}"]`) !== null;
        } else file += 1;
      }
    }
    return false;
  });
  const promoted = await downloadPgn(page);
  check(/\[FEN "8\/P7\/8\/8\/8\/8\/k7\/4K3 w - - 0 1"\]/.test(promoted), "the PGN starts from the FEN");
  check(/1\. a8=R\+? /.test(promoted), `the PGN has the promotion: ${promoted}`);
  check(/\{[+-](\d+\.\d\d|M\d+)\/\d+\}/.test(promoted), `the engine's move has its score comment: ${promoted}`);
  await page.screenshot({ path: join(outDir, "promotion.png") });

  step("score the whole game at fixed nodes per move");
  await page.locator("#pass-nodes").selectOption("50000");
  await page.click("#game-pass");
  await page.waitForFunction(() => document.getElementById("pass-progress").textContent === "done");
  check((await page.locator("#graph .graph-line").count()) === 1, "the score graph is drawn");

  step("a rematch swaps the sides; resigning ends it");
  await page.click("#rematch");
  await waitForStatus(page, /Your move \(Black\)/);
  check(
    (await page.locator("#player-bottom .name").textContent()) === "You (black)",
    "the board turns to put the person's side at the bottom",
  );
  check((await movesShown(page)).length === 1, "the engine moved first");
  await page.click("#resign");
  await page.click("#resign");
  await waitForStatus(page, /Black resigned — White wins \(1-0\)/);

  // ---- 5. A fixed position, compared with the committed image ----
  step("compare a fixed position with the committed screenshot");
  await newGame(page, { side: "both", text: "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#" });
  await waitForStatus(page, /Checkmate — White wins/);
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400);
  const shot = PNG.sync.read(await page.locator(".board-frame").screenshot({ path: join(outDir, "board.png") }));
  if (process.env.KILN_UPDATE_SCREENSHOT === "1" || !existsSync(reference)) {
    check(process.env.CI !== "true" || existsSync(reference), "the reference screenshot is committed");
    writeFileSync(reference, PNG.sync.write(shot));
    step(`wrote the reference ${reference}`);
  } else {
    const differ = pixelDifference(shot, PNG.sync.read(readFileSync(reference)));
    step(`${(differ * 100).toFixed(2)}% of the board's pixels differ from the reference`);
    check(differ < 0.01, `the board looks as committed (${(differ * 100).toFixed(2)}% of pixels differ; see ${outDir}/board.png)`);
  }
  await page.screenshot({ path: join(outDir, "page.png") });

  // ---- 6. The page on a phone ----
  step("the same game on a phone-sized screen");
  const phone = await newPage({ width: 390, height: 844 });
  await phone.goto(page.url());
  await waitForMoves(phone, 7);
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `nothing is wider than the phone's screen (${width}px)`);
  await phone.screenshot({ path: join(outDir, "phone.png"), fullPage: true });
} catch (error) {
  problems.push(error.stack ?? String(error));
} finally {
  await browser.close();
}

step(`done in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${outDir}`);
if (problems.length > 0) {
  for (const problem of problems) console.error(`FAIL: ${problem}`);
  process.exit(1);
}
console.log("browser test passed");
